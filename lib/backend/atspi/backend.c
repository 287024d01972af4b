/*
 * AT-SPI2 backend: construction, the ops table, teardown.
 *
 * The backend owns a private GMainContext on which all its D-Bus replies
 * are dispatched (nothing runs behind the caller's back: the context is
 * iterated only while a call is being made), a connection to the
 * accessibility bus, a connection to the session bus when there is one,
 * and the session's display driver (display.c), through which everything
 * that touches the window system goes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <atspi/atspi-constants.h>
#include <gio/gio.h>

#include "atspi.h"
#include "events.h"
#include "linux.h"

/*
 * raw.h numbers roles and states as the AT-SPI2 protocol does; check it
 * against libatspi's headers for a representative set.
 */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(CUA_ROLE_INVALID, ATSPI_ROLE_INVALID), "role numbering");
_Static_assert(SAME(CUA_ROLE_ALERT, ATSPI_ROLE_ALERT), "role numbering");
_Static_assert(SAME(CUA_ROLE_CHECK_BOX, ATSPI_ROLE_CHECK_BOX),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_COMBO_BOX, ATSPI_ROLE_COMBO_BOX),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_DIALOG, ATSPI_ROLE_DIALOG), "role numbering");
_Static_assert(SAME(CUA_ROLE_FILE_CHOOSER, ATSPI_ROLE_FILE_CHOOSER),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_FRAME, ATSPI_ROLE_FRAME), "role numbering");
_Static_assert(SAME(CUA_ROLE_LABEL, ATSPI_ROLE_LABEL), "role numbering");
_Static_assert(SAME(CUA_ROLE_LIST, ATSPI_ROLE_LIST), "role numbering");
_Static_assert(SAME(CUA_ROLE_MENU, ATSPI_ROLE_MENU), "role numbering");
_Static_assert(SAME(CUA_ROLE_MENU_BAR, ATSPI_ROLE_MENU_BAR), "role numbering");
_Static_assert(SAME(CUA_ROLE_MENU_ITEM, ATSPI_ROLE_MENU_ITEM),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_PAGE_TAB, ATSPI_ROLE_PAGE_TAB), "role numbering");
_Static_assert(SAME(CUA_ROLE_PANEL, ATSPI_ROLE_PANEL), "role numbering");
_Static_assert(SAME(CUA_ROLE_PASSWORD_TEXT, ATSPI_ROLE_PASSWORD_TEXT),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_POPUP_MENU, ATSPI_ROLE_POPUP_MENU),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_PUSH_BUTTON, ATSPI_ROLE_PUSH_BUTTON),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_RADIO_BUTTON, ATSPI_ROLE_RADIO_BUTTON),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_SCROLL_PANE, ATSPI_ROLE_SCROLL_PANE),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_SLIDER, ATSPI_ROLE_SLIDER), "role numbering");
_Static_assert(SAME(CUA_ROLE_SPIN_BUTTON, ATSPI_ROLE_SPIN_BUTTON),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_TABLE, ATSPI_ROLE_TABLE), "role numbering");
_Static_assert(SAME(CUA_ROLE_TABLE_CELL, ATSPI_ROLE_TABLE_CELL),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_TEXT, ATSPI_ROLE_TEXT), "role numbering");
_Static_assert(SAME(CUA_ROLE_TOGGLE_BUTTON, ATSPI_ROLE_TOGGLE_BUTTON),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_TREE_TABLE, ATSPI_ROLE_TREE_TABLE),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_WINDOW, ATSPI_ROLE_WINDOW), "role numbering");
_Static_assert(SAME(CUA_ROLE_PARAGRAPH, ATSPI_ROLE_PARAGRAPH),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_APPLICATION, ATSPI_ROLE_APPLICATION),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_ENTRY, ATSPI_ROLE_ENTRY), "role numbering");
_Static_assert(SAME(CUA_ROLE_DOCUMENT_FRAME, ATSPI_ROLE_DOCUMENT_FRAME),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_LINK, ATSPI_ROLE_LINK), "role numbering");
_Static_assert(SAME(CUA_ROLE_TABLE_ROW, ATSPI_ROLE_TABLE_ROW),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_TREE_ITEM, ATSPI_ROLE_TREE_ITEM),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_DOCUMENT_WEB, ATSPI_ROLE_DOCUMENT_WEB),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_LIST_BOX, ATSPI_ROLE_LIST_BOX), "role numbering");
_Static_assert(SAME(CUA_ROLE_LEVEL_BAR, ATSPI_ROLE_LEVEL_BAR),
	       "role numbering");
_Static_assert(SAME(CUA_ROLE_STATIC, ATSPI_ROLE_STATIC), "role numbering");
_Static_assert(SAME(CUA_ROLE_MARK, ATSPI_ROLE_MARK), "role numbering");
_Static_assert(SAME(CUA_ROLE_PUSH_BUTTON_MENU, ATSPI_ROLE_PUSH_BUTTON_MENU),
	       "role numbering");
/* SWITCH follows PUSH_BUTTON_MENU; at-spi2-core 2.46 does not have it yet
 * (LAST_DEFINED is then its number), newer versions do. */
_Static_assert(CUA_ROLE_SWITCH == CUA_ROLE_PUSH_BUTTON_MENU + 1,
	       "role numbering");
_Static_assert(SAME(ATSPI_ROLE_LAST_DEFINED, CUA_ROLE_SWITCH) ||
		       SAME(ATSPI_ROLE_LAST_DEFINED, CUA_ROLE_COUNT),
	       "role numbering: libatspi has roles raw.h does not know");

_Static_assert(SAME(CUA_STATE_ACTIVE, ATSPI_STATE_ACTIVE), "state numbering");
_Static_assert(SAME(CUA_STATE_CHECKED, ATSPI_STATE_CHECKED), "state numbering");
_Static_assert(SAME(CUA_STATE_DEFUNCT, ATSPI_STATE_DEFUNCT), "state numbering");
_Static_assert(SAME(CUA_STATE_EDITABLE, ATSPI_STATE_EDITABLE),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_ENABLED, ATSPI_STATE_ENABLED), "state numbering");
_Static_assert(SAME(CUA_STATE_EXPANDED, ATSPI_STATE_EXPANDED),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_FOCUSED, ATSPI_STATE_FOCUSED), "state numbering");
_Static_assert(SAME(CUA_STATE_ICONIFIED, ATSPI_STATE_ICONIFIED),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_MODAL, ATSPI_STATE_MODAL), "state numbering");
_Static_assert(SAME(CUA_STATE_PRESSED, ATSPI_STATE_PRESSED), "state numbering");
_Static_assert(SAME(CUA_STATE_SELECTED, ATSPI_STATE_SELECTED),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_SENSITIVE, ATSPI_STATE_SENSITIVE),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_SHOWING, ATSPI_STATE_SHOWING), "state numbering");
_Static_assert(SAME(CUA_STATE_SINGLE_LINE, ATSPI_STATE_SINGLE_LINE),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_VISIBLE, ATSPI_STATE_VISIBLE), "state numbering");
_Static_assert(SAME(CUA_STATE_MANAGES_DESCENDANTS,
		    ATSPI_STATE_MANAGES_DESCENDANTS),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_INDETERMINATE, ATSPI_STATE_INDETERMINATE),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_CHECKABLE, ATSPI_STATE_CHECKABLE),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_HAS_POPUP, ATSPI_STATE_HAS_POPUP),
	       "state numbering");
_Static_assert(SAME(CUA_STATE_READ_ONLY, ATSPI_STATE_READ_ONLY),
	       "state numbering");
_Static_assert((int)ATSPI_STATE_LAST_DEFINED >= (int)CUA_STATE_COUNT,
	       "state numbering");
_Static_assert(ATSPI_RELATION_LABELLED_BY == 2, "relation numbering");
_Static_assert(ATSPI_COORD_TYPE_SCREEN == 0, "coordinate type numbering");

static void
atspi_destroy(struct cua_backend *b);

static const struct cua_backend_ops atspi_ops = {
	.name = "atspi",
	.destroy = atspi_destroy,
	.list_apps = atspi_list_apps,
	.list_installed = atspi_list_installed,
	.open_app = atspi_open_app,
	.fetch = atspi_fetch,
	.launch = atspi_launch,
	.process_alive = atspi_process_alive,
	.read_nodes = atspi_read_nodes,
	.refresh_nodes = atspi_refresh_nodes,
	.refresh_subtrees = atspi_refresh_subtrees,
	.sweep_nodes = atspi_sweep_nodes,
	.read_children = atspi_read_children,
	.call = atspi_live_call,
	.window_query = atspi_window_query,
	.window_at = atspi_window_at,
	.focus_window = atspi_focus_window,
	.activate_window = atspi_activate_window,
	.pointer = atspi_pointer,
	.keys = atspi_keys,
	.keys_restore = atspi_keys_restore,
	.keys_check = atspi_keys_check,
	.app_sync = atspi_app_sync,
	.track_window = atspi_track_window,
	.capture = atspi_capture,
	.watch_add = atspi_watch_add,
	.watch_remove = atspi_watch_remove,
	.watch_dispatch = atspi_watch_dispatch,
	.display = atspi_display,
	.set_display = atspi_set_display,
	.screen_locked = atspi_screen_locked,
};

static int
call_timeout(const struct atspi_be *be)
{
	int ms = be->base.ctx->opt.call_timeout_ms;

	return ms > 0 ? ms : 1000;
}

/* A private connection (not the process-wide g_bus_get() singleton, whose
 * exit-on-close would end the host program when the bus goes away). */
static GDBusConnection *
connect_bus(struct atspi_be *be, const char *address, const char *what)
{
	GDBusConnection *c;
	GError *error = NULL;

	c = g_dbus_connection_new_for_address_sync(
		address,
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL, NULL, &error);
	if (!c) {
		cua_debug(be->base.ctx,
			  "atspi: cannot connect to the %s (%s): %s", what,
			  address, error->message);
		g_error_free(error);
		return NULL;
	}
	g_dbus_connection_set_exit_on_close(c, FALSE);
	return c;
}

static char *
session_a11y_address(struct atspi_be *be)
{
	GVariant *r;
	GError *error = NULL;
	char *addr = NULL;

	if (!be->session)
		return NULL;
	/* may D-Bus-activate at-spi-bus-launcher, which is what we want */
	r = g_dbus_connection_call_sync(
		be->session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus",
		"GetAddress", NULL, G_VARIANT_TYPE("(s)"),
		G_DBUS_CALL_FLAGS_NONE, call_timeout(be) * 5, NULL, &error);
	if (!r) {
		cua_debug(be->base.ctx, "atspi: org.a11y.Bus.GetAddress: %s",
			  error->message);
		g_error_free(error);
		return NULL;
	}
	g_variant_get(r, "(s)", &addr);
	g_variant_unref(r);
	if (addr && !*addr) {
		g_free(addr);
		addr = NULL;
	}
	return addr;
}

/* Connects to the first reachable of: $AT_SPI_BUS_ADDRESS, the root
 * window's AT_SPI_BUS property, org.a11y.Bus.GetAddress on the session
 * bus. A stale address (an old session's property) is skipped. */
static int
connect_a11y(struct atspi_be *be)
{
	const char *env = secure_getenv("AT_SPI_BUS_ADDRESS");
	char *prop = NULL, *addr = NULL;

	if (env && *env) {
		be->a11y = connect_bus(be, env, "accessibility bus");
		if (be->a11y) {
			be->a11y_address = g_strdup(env);
			return 0;
		}
	}
	if (be->display->ops->a11y_bus_get) {
		prop = be->display->ops->a11y_bus_get(be->display);
		if (prop && *prop) {
			be->a11y = connect_bus(be, prop, "accessibility bus");
			if (be->a11y) {
				be->a11y_address = g_strdup(prop);
				free(prop);
				return 0;
			}
		}
		free(prop);
	}
	addr = session_a11y_address(be);
	if (addr) {
		be->a11y = connect_bus(be, addr, "accessibility bus");
		if (be->a11y) {
			be->a11y_address = addr;
			return 0;
		}
		g_free(addr);
	}
	return -1;
}

/*
 * docs/toolkits.md §1.2: publish the bus on the root window when nobody did (Qt
 * 5 registers reliably only then) and turn org.a11y.Status.IsEnabled on when
 * it is off (Chromium registers only then). Both are harmless to others.
 */
static void
desktop_fixes(struct atspi_be *be)
{
	struct cua_ctx *ctx = be->base.ctx;
	GVariant *r, *v = NULL;
	GError *error = NULL;
	char *prop;

	if (be->display->ops->a11y_bus_get &&
	    be->display->ops->a11y_bus_publish) {
		prop = be->display->ops->a11y_bus_get(be->display);
		if (!prop || !*prop) {
			if (be->display->ops->a11y_bus_publish(
				    be->display, be->a11y_address) == 0)
				cua_info(
					ctx,
					"set the root window's AT_SPI_BUS property to %s",
					be->a11y_address);
			else
				cua_debug(
					ctx,
					"atspi: could not set AT_SPI_BUS on the root window");
		}
		free(prop);
	}
	if (!be->session)
		return;
	r = g_dbus_connection_call_sync(
		be->session, "org.a11y.Bus", "/org/a11y/bus",
		"org.freedesktop.DBus.Properties", "Get",
		g_variant_new("(ss)", "org.a11y.Status", "IsEnabled"),
		G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
		call_timeout(be), NULL, &error);
	if (!r) {
		cua_debug(ctx, "atspi: org.a11y.Status.IsEnabled: %s",
			  error->message);
		g_error_free(error);
		return;
	}
	g_variant_get(r, "(v)", &v);
	g_variant_unref(r);
	if (v && g_variant_is_of_type(v, G_VARIANT_TYPE_BOOLEAN) &&
	    !g_variant_get_boolean(v)) {
		r = g_dbus_connection_call_sync(
			be->session, "org.a11y.Bus", "/org/a11y/bus",
			"org.freedesktop.DBus.Properties", "Set",
			g_variant_new("(ssv)", "org.a11y.Status", "IsEnabled",
				      g_variant_new_boolean(TRUE)),
			NULL, G_DBUS_CALL_FLAGS_NO_AUTO_START, call_timeout(be),
			NULL, &error);
		if (r) {
			cua_info(ctx, "turned org.a11y.Status.IsEnabled on");
			g_variant_unref(r);
		} else {
			cua_debug(ctx, "atspi: setting IsEnabled: %s",
				  error->message);
			g_error_free(error);
		}
	}
	if (v)
		g_variant_unref(v);
}

/*
 * The accessibility bus and the window system can go away under a live
 * session and come back: at-spi-bus-launcher exits when its bus daemon
 * dies and is started again (D-Bus activation, a new login), a new X
 * server takes the same display. GDBus and Xlib only mark such
 * connections closed or dead, so without this a session would fail for
 * good. Called at the start of every operation that resolves an app
 * (atspi_list_apps): a dead connection is replaced with a new one when
 * the service is reachable again (the accessibility bus is looked up
 * again the usual way, see connect_a11y; the display driver replaces its
 * own), and what hung off the old one follows: the event subscription,
 * the per-app capability memo (bus names are per bus). Returns 0 when the
 * accessibility bus is connected afterwards, -1 when it is not.
 */
int
atspi_reconnect(struct atspi_be *be)
{
	struct cua_ctx *ctx = be->base.ctx;
	int pushed, r, changed = 0;

	atspi_display_recheck(be);
	if (be->display->ops->reconnect &&
	    be->display->ops->reconnect(be->display) > 0)
		changed = 1;
	if (be->a11y && !g_dbus_connection_is_closed(be->a11y)) {
		r = 0;
		goto fixes;
	}
	pushed = g_main_context_get_thread_default() != be->mc;
	if (pushed)
		g_main_context_push_thread_default(be->mc);
	if (be->session && g_dbus_connection_is_closed(be->session)) {
		const char *addr = secure_getenv("DBUS_SESSION_BUS_ADDRESS");

		g_clear_object(&be->session);
		if (addr && *addr)
			be->session = connect_bus(be, addr, "session bus");
	}
	if (be->a11y) {
		cua_info(ctx, "the accessibility bus %s went away",
			 be->a11y_address);
		events_detach(be->events);
		g_clear_object(&be->a11y);
		g_free(be->a11y_address);
		be->a11y_address = NULL;
		g_hash_table_remove_all(be->caps);
		atspi_peers_free(be);
		atspi_held_free(be);
	}
	r = connect_a11y(be);
	if (r == 0) {
		cua_info(ctx, "connected to the accessibility bus %s",
			 be->a11y_address);
		events_reattach(be->events);
		changed = 1;
	}
	if (pushed)
		g_main_context_pop_thread_default(be->mc);
fixes:
	/* a new X server has no AT_SPI_BUS property, a new bus may have
	 * IsEnabled off: what cua_backend_atspi_new() did, again */
	if (r == 0 && changed && ctx->opt.desktop_fixes &&
	    !(be->flags & CUA_SESSION_NO_DESKTOP_FIXES))
		desktop_fixes(be);
	return r;
}

static void
close_connection(GDBusConnection *c)
{
	if (!c)
		return;
	if (!g_dbus_connection_is_closed(c))
		g_dbus_connection_close_sync(c, NULL, NULL);
	g_object_unref(c);
}

static void
atspi_destroy(struct cua_backend *b)
{
	struct atspi_be *be = (struct atspi_be *)b;

	if (!be)
		return;
	/* the display driver first: its capture worker wakes be->mc, and
	 * spare keycodes still mapped for keys typed earlier are restored */
	atspi_display_close(be);
	events_detach(be->events);
	if (be->mc)
		g_main_context_push_thread_default(be->mc);
	close_connection(be->a11y);
	close_connection(be->session);
	atspi_lock_close(be);
	/* the GDBus worker is done with the filter once the bus is closed */
	events_free(be->events);
	be->events = NULL;
	if (be->mc) {
		/* let the connections' last idle callbacks run and let go */
		while (g_main_context_iteration(be->mc, FALSE))
			;
		g_main_context_pop_thread_default(be->mc);
		g_main_context_unref(be->mc);
	}
	if (be->caps)
		g_hash_table_destroy(be->caps);
	atspi_peers_free(be);
	atspi_held_free(be);
	desktop_cache_free(be->desktop_cache);
	for (size_t i = 0; i < G_N_ELEMENTS(be->display_env); i++)
		g_free(be->display_env[i]);
	g_free(be->a11y_address);
	g_free(be);
}

cua_result
cua_backend_atspi_new(struct cua_ctx *ctx, uint32_t flags,
		      struct cua_backend **out)
{
	struct atspi_be *be;
	const char *session_addr;
	cua_result r;

	*out = NULL;
	be = g_new0(struct atspi_be, 1);
	be->base.ops = &atspi_ops;
	be->base.ctx = ctx;
	be->flags = flags;
	be->mc = g_main_context_new();
	be->caps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	/* whatever the connections attach while being set up belongs to
	 * our context, not to the host program's */
	g_main_context_push_thread_default(be->mc);

	r = atspi_display_open(be);
	if (r != CUA_OK) {
		g_main_context_pop_thread_default(be->mc);
		atspi_destroy(&be->base);
		return r;
	}
	session_addr = secure_getenv("DBUS_SESSION_BUS_ADDRESS");
	if (session_addr && *session_addr)
		be->session = connect_bus(be, session_addr, "session bus");

	if (connect_a11y(be) < 0) {
		g_main_context_pop_thread_default(be->mc);
		atspi_destroy(&be->base);
		return cua_err(CUA_MSG_NO_ACCESSIBILITY_BUS);
	}
	cua_debug(ctx, "atspi: accessibility bus %s", be->a11y_address);
	if (ctx->opt.desktop_fixes && !(flags & CUA_SESSION_NO_DESKTOP_FIXES))
		desktop_fixes(be);
	g_main_context_pop_thread_default(be->mc);
	*out = &be->base;
	return CUA_OK;
}
