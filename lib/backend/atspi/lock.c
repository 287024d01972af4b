/*
 * Whether the screen is locked (docs/safety.md §9), from the services that
 * know: the session bus's screen savers (org.freedesktop.ScreenSaver,
 * org.gnome.ScreenSaver, org.mate.ScreenSaver, org.cinnamon.ScreenSaver:
 * GetActive) and logind's LockedHint of this process's login session on
 * the system bus. Any of them saying "locked" is a lock.
 *
 * Cost: one ListNames round trip on the session bus, one GetActive per
 * screen saver that is running, and one property read on the system bus
 * when logind knows the session. Nothing is started: every call carries
 * NO_AUTO_START, so a screen saver that is installed but not running is
 * not activated by asking. The core caches the answer
 * (core/lock.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atspi.h"

/* A probe must never stall an action: short timeouts. */
#define LOCK_CALL_TIMEOUT_MS 500

static const struct {
	const char *name, *path;
} savers[] = {
	{ "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver" },
	{ "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver" },
	{ "org.mate.ScreenSaver", "/org/mate/ScreenSaver" },
	{ "org.cinnamon.ScreenSaver", "/org/cinnamon/ScreenSaver" },
};

static GVariant *
call(GDBusConnection *c, const char *dest, const char *path, const char *iface,
     const char *method, GVariant *args, const char *reply, GError **error)
{
	return g_dbus_connection_call_sync(c, dest, path, iface, method, args,
					   G_VARIANT_TYPE(reply),
					   G_DBUS_CALL_FLAGS_NO_AUTO_START,
					   LOCK_CALL_TIMEOUT_MS, NULL, error);
}

/* Which screen savers own their name: bit i for savers[i]. */
static unsigned
running_savers(struct atspi_be *be)
{
	GVariant *r;
	GVariantIter *it;
	const char *name;
	GError *error = NULL;
	unsigned bits = 0;

	r = call(be->session, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		 "org.freedesktop.DBus", "ListNames", NULL, "(as)", &error);
	if (!r) {
		cua_debug(be->base.ctx, "lock: ListNames: %s", error->message);
		g_error_free(error);
		return 0;
	}
	g_variant_get(r, "(as)", &it);
	while (g_variant_iter_loop(it, "&s", &name))
		for (size_t i = 0; i < G_N_ELEMENTS(savers); i++)
			if (strcmp(name, savers[i].name) == 0)
				bits |= 1u << i;
	g_variant_iter_free(it);
	g_variant_unref(r);
	return bits;
}

static int
saver_active(struct atspi_be *be, size_t i)
{
	GVariant *r;
	GError *error = NULL;
	gboolean active = FALSE;

	r = call(be->session, savers[i].name, savers[i].path, savers[i].name,
		 "GetActive", NULL, "(b)", &error);
	if (!r) {
		cua_debug(be->base.ctx, "lock: %s.GetActive: %s",
			  savers[i].name, error->message);
		g_error_free(error);
		return 0;
	}
	g_variant_get(r, "(b)", &active);
	g_variant_unref(r);
	return active ? 1 : 0;
}

/* The system bus, connected once (a private connection, as the session
 * bus's); NULL when there is none. */
static GDBusConnection *
system_bus(struct atspi_be *be)
{
	const char *addr;
	GError *error = NULL;

	if (be->system_tried)
		return be->system;
	be->system_tried = 1;
	addr = secure_getenv("DBUS_SYSTEM_BUS_ADDRESS");
	if (!addr || !*addr)
		addr = "unix:path=/run/dbus/system_bus_socket";
	be->system = g_dbus_connection_new_for_address_sync(
		addr,
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL, NULL, &error);
	if (!be->system) {
		cua_debug(be->base.ctx, "lock: no system bus (%s): %s", addr,
			  error->message);
		g_error_free(error);
		return NULL;
	}
	g_dbus_connection_set_exit_on_close(be->system, FALSE);
	return be->system;
}

/* logind's object path of this process's login session (by pid, else
 * XDG_SESSION_ID), looked up once; NULL when logind does not know it. */
static const char *
login_session(struct atspi_be *be, GDBusConnection *sys)
{
	GVariant *r;
	GError *error = NULL;
	const char *id;

	if (be->login_session_tried)
		return be->login_session;
	be->login_session_tried = 1;
	r = call(sys, "org.freedesktop.login1", "/org/freedesktop/login1",
		 "org.freedesktop.login1.Manager", "GetSessionByPID",
		 g_variant_new("(u)", (guint32)getpid()), "(o)", &error);
	if (!r) {
		cua_debug(be->base.ctx, "lock: logind GetSessionByPID: %s",
			  error->message);
		g_clear_error(&error);
		id = secure_getenv("XDG_SESSION_ID");
		if (!id || !*id)
			return NULL;
		r = call(sys, "org.freedesktop.login1",
			 "/org/freedesktop/login1",
			 "org.freedesktop.login1.Manager", "GetSession",
			 g_variant_new("(s)", id), "(o)", &error);
		if (!r) {
			cua_debug(be->base.ctx, "lock: logind GetSession: %s",
				  error->message);
			g_error_free(error);
			return NULL;
		}
	}
	g_variant_get(r, "(o)", &be->login_session);
	g_variant_unref(r);
	return be->login_session;
}

static int
logind_locked(struct atspi_be *be)
{
	GDBusConnection *sys = system_bus(be);
	const char *path;
	GVariant *r, *v;
	GError *error = NULL;
	int locked = 0;

	if (!sys || g_dbus_connection_is_closed(sys))
		return 0;
	path = login_session(be, sys);
	if (!path)
		return 0;
	r = call(sys, "org.freedesktop.login1", path,
		 "org.freedesktop.DBus.Properties", "Get",
		 g_variant_new("(ss)", "org.freedesktop.login1.Session",
			       "LockedHint"),
		 "(v)", &error);
	if (!r) {
		cua_debug(be->base.ctx, "lock: logind LockedHint: %s",
			  error->message);
		g_error_free(error);
		return 0;
	}
	g_variant_get(r, "(v)", &v);
	if (g_variant_is_of_type(v, G_VARIANT_TYPE_BOOLEAN))
		locked = g_variant_get_boolean(v) ? 1 : 0;
	g_variant_unref(v);
	g_variant_unref(r);
	return locked;
}

int
atspi_screen_locked(struct cua_backend *b, char *source, size_t size)
{
	struct atspi_be *be = (struct atspi_be *)b;
	unsigned bits;

	if (size)
		source[0] = '\0';
	if (be->session && !g_dbus_connection_is_closed(be->session)) {
		bits = running_savers(be);
		for (size_t i = 0; i < G_N_ELEMENTS(savers); i++)
			if ((bits & (1u << i)) && saver_active(be, i)) {
				snprintf(source, size, "%s", savers[i].name);
				return 1;
			}
	}
	if (logind_locked(be)) {
		snprintf(source, size, "org.freedesktop.login1");
		return 1;
	}
	return 0;
}

void
atspi_lock_close(struct atspi_be *be)
{
	if (be->system) {
		g_dbus_connection_close_sync(be->system, NULL, NULL);
		g_clear_object(&be->system);
	}
	g_clear_pointer(&be->login_session, g_free);
	be->system_tried = 0;
	be->login_session_tried = 0;
}
