/*
 * One org.gnome.Mutter.RemoteDesktop session with an
 * org.gnome.Mutter.ScreenCast session attached, on a private connection
 * to the session bus with a main context of its own (so the stream's
 * PipeWireStreamAdded and the session's Closed signals are read here and
 * nowhere else). Every call has a timeout.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gio/gio.h>

#include "core/errors.h"
#include "mutter.h"

#define RD_NAME "org.gnome.Mutter.RemoteDesktop"
#define RD_PATH "/org/gnome/Mutter/RemoteDesktop"
#define RD_SESSION RD_NAME ".Session"
#define SC_NAME "org.gnome.Mutter.ScreenCast"
#define SC_PATH "/org/gnome/Mutter/ScreenCast"
#define SC_SESSION SC_NAME ".Session"
#define SC_STREAM SC_NAME ".Stream"
#define CALL_MS 2000

struct mutter_session {
	struct rd_session base;
	char *rd_path, *sc_path, *stream_path;
	guint sub_added;
};

GDBusConnection *
rd_bus_open(GMainContext *mc, char *why, size_t size)
{
	const char *addr = g_getenv("DBUS_SESSION_BUS_ADDRESS");
	GDBusConnection *c;
	GError *err = NULL;

	if (!addr || !*addr) {
		snprintf(why, size, "DBUS_SESSION_BUS_ADDRESS is not set");
		return NULL;
	}
	if (mc)
		g_main_context_push_thread_default(mc);
	c = g_dbus_connection_new_for_address_sync(
		addr,
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL, NULL, &err);
	if (mc)
		g_main_context_pop_thread_default(mc);
	if (!c) {
		snprintf(why, size, "cannot connect to the session bus: %s",
			 err->message);
		g_error_free(err);
		return NULL;
	}
	g_dbus_connection_set_exit_on_close(c, FALSE);
	return c;
}

GVariant *
rd_call(GDBusConnection *c, const char *dest, const char *path,
	const char *iface, const char *method, GVariant *args, const char *type,
	GError **err)
{
	return g_dbus_connection_call_sync(c, dest, path, iface, method, args,
					   type ? G_VARIANT_TYPE(type) : NULL,
					   G_DBUS_CALL_FLAGS_NO_AUTO_START,
					   CALL_MS, NULL, err);
}

int
rd_name_owned(const char *name, const char *absent, char *why, size_t size)
{
	GDBusConnection *c = rd_bus_open(NULL, why, size);
	GError *err = NULL;
	GVariant *r;
	gboolean has = FALSE;

	if (!c)
		return 0;
	r = rd_call(c, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		    "org.freedesktop.DBus", "NameHasOwner",
		    g_variant_new("(s)", name), "(b)", &err);
	if (r) {
		g_variant_get(r, "(b)", &has);
		g_variant_unref(r);
		if (!has)
			snprintf(why, size, "%s", absent);
	} else {
		snprintf(why, size, "the session bus did not answer: %s",
			 err->message);
		g_error_free(err);
	}
	g_dbus_connection_close_sync(c, NULL, NULL);
	g_object_unref(c);
	return has ? 1 : 0;
}

static int
m_available(char *why, size_t size)
{
	return rd_name_owned(RD_NAME,
			     "nothing owns " RD_NAME " on the session bus (the "
			     "compositor is not mutter)",
			     why, size);
}

static void
on_added(GDBusConnection *c, const char *sender, const char *path,
	 const char *iface, const char *signal, GVariant *params, void *data)
{
	struct mutter_session *s = data;

	(void)c;
	(void)sender;
	(void)path;
	(void)iface;
	(void)signal;
	if (g_variant_is_of_type(params, G_VARIANT_TYPE("(u)"))) {
		g_variant_get(params, "(u)", &s->base.node);
		s->base.have_node = 1;
	}
}

/* The error of a failed call, as a sentence. */
static cua_result
failed(GError *err, const char *what)
{
	cua_result r;

	if (err &&
	    g_error_matches(err, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED)) {
		/* newer GNOME releases keep the interface to their own
		 * remote-desktop service */
		g_dbus_error_strip_remote_error(err);
		r = cua_error(CUA_ERROR_PERMISSION,
			      "mutter refused %s to libcua (%s): this GNOME "
			      "keeps its remote-desktop interface to its own "
			      "services. libcua goes through the desktop "
			      "portal instead when it offers RemoteDesktop "
			      "(xdg-desktop-portal-gnome; CUA_DISPLAY=portal "
			      "forces it), which asks the person at the "
			      "desktop",
			      what, err->message);
	} else {
		r = cua_error(CUA_ERROR_BACKEND, "mutter: %s failed: %s", what,
			      err ? err->message : "no answer");
	}
	if (err)
		g_error_free(err);
	return r;
}

/* A screen-cast session attached to the remote-desktop session `sid`,
 * recording the window that has keyboard focus (RecordWindow without a
 * window-id). */
static cua_result
attach_cast(struct mutter_session *s, const char *sid)
{
	GVariantBuilder opts;
	GError *err = NULL;
	GVariant *r;

	g_variant_builder_init(&opts, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&opts, "{sv}", "remote-desktop-session-id",
			      g_variant_new_string(sid));
	r = rd_call(s->base.bus, SC_NAME, SC_PATH, SC_NAME, "CreateSession",
		    g_variant_new("(a{sv})", &opts), "(o)", &err);
	if (!r)
		return failed(err, "ScreenCast.CreateSession");
	g_variant_get(r, "(o)", &s->sc_path);
	g_variant_unref(r);
	g_variant_builder_init(&opts, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&opts, "{sv}", "cursor-mode",
			      g_variant_new_uint32(0)); /* hidden */
	r = rd_call(s->base.bus, SC_NAME, s->sc_path, SC_SESSION,
		    "RecordWindow", g_variant_new("(a{sv})", &opts), "(o)",
		    &err);
	if (!r && err &&
	    g_error_matches(err, G_DBUS_ERROR, G_DBUS_ERROR_FAILED)) {
		/* mutter 43 answers "Window not found" when no window has
		 * keyboard focus: a state of the desktop, not a fault */
		cua_result res;

		g_dbus_error_strip_remote_error(err);
		res = cua_error(
			CUA_ERROR_NOT_FOUND,
			"no window has keyboard focus, so mutter records none "
			"(ScreenCast.RecordWindow: %s)",
			err->message);

		g_error_free(err);
		return res;
	}
	if (!r)
		return failed(err, "ScreenCast.RecordWindow");
	g_variant_get(r, "(o)", &s->stream_path);
	g_variant_unref(r);
	return CUA_OK;
}

static void
m_close(struct rd_session *rs);

static cua_result
m_open(int cast, int timeout_ms, struct rd_session **out)
{
	struct mutter_session *s = calloc(1, sizeof(*s));
	char why[256];
	GError *err = NULL;
	GVariant *r, *v;
	const char *sid;
	int64_t until;
	cua_result res;

	*out = NULL;
	if (!s)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (rd_base_open(&s->base, &rd_mutter_ops, why, sizeof(why)) < 0) {
		m_close(&s->base);
		return cua_error(CUA_ERROR_BACKEND, "mutter: %s", why);
	}
	r = rd_call(s->base.bus, RD_NAME, RD_PATH, RD_NAME, "CreateSession",
		    NULL, "(o)", &err);
	if (!r) {
		m_close(&s->base);
		return failed(err, "RemoteDesktop.CreateSession");
	}
	g_variant_get(r, "(o)", &s->rd_path);
	g_variant_unref(r);
	r = rd_call(s->base.bus, RD_NAME, s->rd_path,
		    "org.freedesktop.DBus.Properties", "Get",
		    g_variant_new("(ss)", RD_SESSION, "SessionId"), "(v)",
		    &err);
	if (!r) {
		m_close(&s->base);
		return failed(err, "reading the session's SessionId");
	}
	g_variant_get(r, "(v)", &v);
	sid = g_variant_is_of_type(v, G_VARIANT_TYPE_STRING) ?
		      g_variant_get_string(v, NULL) :
		      "";
	res = cast ? attach_cast(s, sid) : CUA_OK;
	g_variant_unref(v);
	g_variant_unref(r);
	if (res != CUA_OK) {
		m_close(&s->base);
		return res;
	}
	/* the callbacks run in the context current at subscription */
	g_main_context_push_thread_default(s->base.mc);
	if (cast)
		s->sub_added = g_dbus_connection_signal_subscribe(
			s->base.bus, SC_NAME, SC_STREAM, "PipeWireStreamAdded",
			s->stream_path, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
			on_added, s, NULL);
	g_main_context_pop_thread_default(s->base.mc);
	rd_watch_closed(&s->base, RD_NAME, RD_SESSION, s->rd_path);
	r = rd_call(s->base.bus, RD_NAME, s->rd_path, RD_SESSION, "Start", NULL,
		    NULL, &err);
	if (!r) {
		m_close(&s->base);
		return failed(err, "RemoteDesktop.Session.Start");
	}
	g_variant_unref(r);
	until = cua_now_us() + (int64_t)timeout_ms * 1000;
	while (cast && !s->base.have_node && !s->base.closed &&
	       cua_now_us() < until) {
		if (!g_main_context_iteration(s->base.mc, FALSE))
			cua_sleep_ms(2);
	}
	if (cast && !s->base.have_node) {
		m_close(&s->base);
		return cua_error(CUA_ERROR_BACKEND,
				 "mutter started no screen-cast stream within "
				 "%d ms (is pipewire running?)",
				 timeout_ms);
	}
	*out = &s->base;
	return CUA_OK;
}

static void
on_closed(GDBusConnection *c, const char *sender, const char *path,
	  const char *iface, const char *signal, GVariant *params, void *data)
{
	struct rd_session *s = data;

	(void)c;
	(void)sender;
	(void)path;
	(void)iface;
	(void)signal;
	(void)params;
	s->closed = 1;
}

int
rd_base_open(struct rd_session *s, const struct rd_ops *ops, char *why,
	     size_t size)
{
	s->ops = ops;
	s->pw_fd = -1;
	s->mc = g_main_context_new();
	s->bus = rd_bus_open(s->mc, why, size);
	return s->bus ? 0 : -1;
}

void
rd_watch_closed(struct rd_session *s, const char *sender, const char *iface,
		const char *path)
{
	/* the callbacks run in the context current at subscription */
	g_main_context_push_thread_default(s->mc);
	s->sub_closed = g_dbus_connection_signal_subscribe(
		s->bus, sender, iface, "Closed", path, NULL,
		G_DBUS_SIGNAL_FLAGS_NONE, on_closed, s, NULL);
	g_main_context_pop_thread_default(s->mc);
}

void
rd_base_release(struct rd_session *s)
{
	if (s->bus) {
		if (s->sub_closed)
			g_dbus_connection_signal_unsubscribe(s->bus,
							     s->sub_closed);
		g_dbus_connection_close_sync(s->bus, NULL, NULL);
		g_object_unref(s->bus);
		s->bus = NULL;
	}
	/* pending signal callbacks hold s: drain them before freeing */
	if (s->mc) {
		while (g_main_context_iteration(s->mc, FALSE))
			;
		g_main_context_unref(s->mc);
		s->mc = NULL;
	}
}

int
rd_alive(struct rd_session *s)
{
	while (g_main_context_iteration(s->mc, FALSE))
		;
	return !s->closed && !g_dbus_connection_is_closed(s->bus);
}

/* U+10FFFE, a noncharacter: a keysym of no keymap */
#define NO_KEY_KEYSYM 0x110fffeu

cua_result
rd_open(const struct rd_ops *ops, int cast, int timeout_ms, int warmup_ms,
	struct rd_session **out)
{
	cua_result res = ops->open(cast, timeout_ms, out);

	if (res != CUA_OK)
		return res;
	/*
	 * mutter makes the session's keyboard at its first key, and without
	 * a keyboard no window has the keyboard focus (none is ACTIVE); the
	 * first keys after it are lost. So a key goes first, then a pause:
	 * one no key of the keymap makes, which mutter drops after it made
	 * the keyboard. No app sees it: a session opens whenever the focus
	 * moved (a dialog showed), and any key event then would reach the
	 * focused window, in a GTK 3 app whose press action's handler runs
	 * that dialog's loop a deadlock of its accessibility bridge
	 * (docs/actions.md §3).
	 */
	res = rd_keysym(*out, NO_KEY_KEYSYM, 1);
	if (res == CUA_OK)
		res = rd_keysym(*out, NO_KEY_KEYSYM, 0);
	if (res != CUA_OK) {
		rd_close(*out);
		*out = NULL;
		return res;
	}
	cua_sleep_ms(warmup_ms);
	return CUA_OK;
}

static void
m_close(struct rd_session *rs)
{
	struct mutter_session *s = (struct mutter_session *)rs;

	if (!s)
		return;
	if (s->base.bus) {
		if (s->rd_path && !s->base.closed) {
			GVariant *r =
				rd_call(s->base.bus, RD_NAME, s->rd_path,
					RD_SESSION, "Stop", NULL, NULL, NULL);

			if (r)
				g_variant_unref(r);
		}
		if (s->sub_added)
			g_dbus_connection_signal_unsubscribe(s->base.bus,
							     s->sub_added);
	}
	rd_base_release(&s->base);
	g_free(s->rd_path);
	g_free(s->sc_path);
	g_free(s->stream_path);
	free(s);
}

static cua_result
notify(struct rd_session *rs, const char *method, GVariant *args)
{
	struct mutter_session *s = (struct mutter_session *)rs;
	GError *err = NULL;
	GVariant *r = rd_call(s->base.bus, RD_NAME, s->rd_path, RD_SESSION,
			      method, args, NULL, &err);

	if (!r)
		return failed(err, method);
	g_variant_unref(r);
	return CUA_OK;
}

static cua_result
m_keysym(struct rd_session *s, uint32_t keysym, int pressed)
{
	return notify(s, "NotifyKeyboardKeysym",
		      g_variant_new("(ub)", keysym, pressed ? TRUE : FALSE));
}

static cua_result
m_motion(struct rd_session *s, double x, double y)
{
	return notify(s, "NotifyPointerMotionAbsolute",
		      g_variant_new("(sdd)",
				    ((struct mutter_session *)s)->stream_path,
				    x, y));
}

static cua_result
m_button(struct rd_session *s, int32_t button, int pressed)
{
	return notify(s, "NotifyPointerButton",
		      g_variant_new("(ib)", button, pressed ? TRUE : FALSE));
}

static cua_result
m_axis(struct rd_session *s, uint32_t axis, int32_t steps)
{
	return notify(s, "NotifyPointerAxisDiscrete",
		      g_variant_new("(ui)", axis, steps));
}

const struct rd_ops rd_mutter_ops = {
	.name = "mutter",
	.available = m_available,
	.open = m_open,
	.close = m_close,
	.keysym = m_keysym,
	.motion = m_motion,
	.button = m_button,
	.axis = m_axis,
};
