/*
 * A remote-desktop session through the desktop portal
 * (org.freedesktop.portal.RemoteDesktop with ScreenCast sources), for
 * desktops that keep their compositor's own interfaces to themselves
 * (KDE Plasma, GNOME releases that refuse mutter's to plain clients) and
 * for sandboxed callers. The portal asks the person at the desktop once
 * (a consent dialog at Start); a portal that keeps consent
 * (RemoteDesktop version 2 and later) returns a restore token, kept in
 * the state directory and passed at the next start so the dialog does
 * not come back.
 *
 * Every portal request answers through a Response signal on a Request
 * object whose path the caller predicts from its handle_token; the
 * subscription is made before the call, and every wait has a bound.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>

#include "core/errors.h"
#include "core/fileio.h"
#include "mutter.h"

#define P_NAME "org.freedesktop.portal.Desktop"
#define P_PATH "/org/freedesktop/portal/desktop"
#define P_RD "org.freedesktop.portal.RemoteDesktop"
#define P_SC "org.freedesktop.portal.ScreenCast"
#define P_REQUEST "org.freedesktop.portal.Request"
#define P_SESSION "org.freedesktop.portal.Session"
#define PROBE_MS 5000
/* A request may wait on a person answering the consent dialog. */
#define CONSENT_MS 120000
#define TOKEN_MAX 256

enum { DEV_KEYBOARD = 1, DEV_POINTER = 2 };
enum { SRC_MONITOR = 1, SRC_WINDOW = 2 };
enum { CURSOR_HIDDEN = 1 };
enum { PERSIST_UNTIL_REVOKED = 2 };

struct portal_session {
	struct rd_session base;
	char *session_path;
	unsigned serial;
	/* the request being waited for */
	int answered;
	uint32_t response;
	GVariant *results;
};

/* The restore token's file: $XDG_STATE_HOME/libcua/portal-restore-token
 * (else ~/.local/state/libcua/...); 0, or -1 when neither is set. */
static int
token_path(char *buf, size_t size)
{
	const char *state = secure_getenv("XDG_STATE_HOME");
	const char *home = secure_getenv("HOME");
	int n;

	if (state && *state)
		n = snprintf(buf, size, "%s/libcua/portal-restore-token",
			     state);
	else if (home && *home)
		n = snprintf(buf, size,
			     "%s/.local/state/libcua/portal-restore-token",
			     home);
	else
		return -1;
	return n > 0 && (size_t)n < size ? 0 : -1;
}

void
rd_portal_token_load(char *out, size_t size)
{
	char path[4096];
	FILE *f;
	size_t n;

	out[0] = '\0';
	if (token_path(path, sizeof(path)) < 0 || !(f = fopen(path, "re")))
		return;
	n = fread(out, 1, size - 1, f);
	fclose(f);
	out[n] = '\0';
	out[strcspn(out, "\r\n")] = '\0';
	for (char *c = out; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '-' && *c != '_') {
			out[0] = '\0';
			return;
		}
}

int
rd_portal_token_save(const char *token, char *why, size_t size)
{
	char path[4096], dir[4096];
	char *slash;
	int r;

	if (token_path(path, sizeof(path)) < 0) {
		snprintf(why, size, "neither XDG_STATE_HOME nor HOME is set");
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	if (cua_mkdir_p(dir, 0700) < 0) {
		snprintf(why, size, "cannot make %.200s: %s", dir,
			 strerror(errno));
		return -1;
	}
	r = cua_write_file_atomic(path, token, strlen(token), 0600);
	if (r < 0) {
		snprintf(why, size, "cannot write %.200s: %s", path,
			 strerror(-r));
		return -1;
	}
	return 0;
}

/* The portal's RemoteDesktop interface version (activating the portal
 * when the bus can start it): > 0, or 0 with `why`. */
static uint32_t
rd_version(GDBusConnection *c, char *why, size_t size)
{
	GError *err = NULL;
	GVariant *r, *v;
	uint32_t ver = 0;

	r = g_dbus_connection_call_sync(
		c, P_NAME, P_PATH, "org.freedesktop.DBus.Properties", "Get",
		g_variant_new("(ss)", P_RD, "version"), G_VARIANT_TYPE("(v)"),
		G_DBUS_CALL_FLAGS_NONE, PROBE_MS, NULL, &err);
	if (!r) {
		g_dbus_error_strip_remote_error(err);
		snprintf(why, size,
			 "the desktop portal offers no remote desktop (%s): "
			 "install xdg-desktop-portal and the portal backend "
			 "of the desktop (xdg-desktop-portal-gnome or "
			 "xdg-desktop-portal-kde)",
			 err->message);
		g_error_free(err);
		return 0;
	}
	g_variant_get(r, "(v)", &v);
	if (g_variant_is_of_type(v, G_VARIANT_TYPE_UINT32))
		ver = g_variant_get_uint32(v);
	g_variant_unref(v);
	g_variant_unref(r);
	if (!ver)
		snprintf(why, size,
			 "the desktop portal's RemoteDesktop has no version");
	return ver;
}

static int
p_available(char *why, size_t size)
{
	GDBusConnection *c = rd_bus_open(NULL, why, size);
	uint32_t ver;

	if (!c)
		return 0;
	ver = rd_version(c, why, size);
	g_dbus_connection_close_sync(c, NULL, NULL);
	g_object_unref(c);
	return ver > 0;
}

static void
on_response(GDBusConnection *c, const char *sender, const char *path,
	    const char *iface, const char *signal, GVariant *params, void *data)
{
	struct portal_session *s = data;

	(void)c;
	(void)sender;
	(void)path;
	(void)iface;
	(void)signal;
	if (s->answered ||
	    !g_variant_is_of_type(params, G_VARIANT_TYPE("(ua{sv})")))
		return;
	g_variant_get(params, "(u@a{sv})", &s->response, &s->results);
	s->answered = 1;
}

static cua_result
failed(GError *err, const char *what)
{
	cua_result r;

	if (err)
		g_dbus_error_strip_remote_error(err);
	r = cua_error(CUA_ERROR_BACKEND,
		      "the desktop portal: %s failed: %s; check that "
		      "xdg-desktop-portal and the desktop's portal backend "
		      "run",
		      what, err ? err->message : "no answer");
	if (err)
		g_error_free(err);
	return r;
}

/* A new handle token, and the path of the Request object it names. */
static void
next_token(struct portal_session *s, char *token, size_t tsize, char *path,
	   size_t psize)
{
	const char *name = g_dbus_connection_get_unique_name(s->base.bus);
	char sender[128];
	size_t i = 0;

	for (name += *name == ':'; *name && i + 1 < sizeof(sender); name++)
		sender[i++] = *name == '.' ? '_' : *name;
	sender[i] = '\0';
	snprintf(token, tsize, "cua%u_%u", (unsigned)getpid(), ++s->serial);
	snprintf(path, psize, P_PATH "/request/%s/%s", sender, token);
}

/*
 * Calls `method` of `iface` with `args` (whose options hold `token`) and
 * waits at most wait_ms for its Response. CUA_OK with *results (a{sv},
 * to unref); the user cancelling is CUA_ERROR_PERMISSION.
 */
static cua_result
request(struct portal_session *s, const char *iface, const char *method,
	GVariant *args, const char *token_path_, int wait_ms,
	GVariant **results)
{
	GError *err = NULL;
	GVariant *r;
	guint sub;
	int64_t until;
	char what[96];

	*results = NULL;
	snprintf(what, sizeof(what), "%s.%s", strrchr(iface, '.') + 1, method);
	s->answered = 0;
	g_main_context_push_thread_default(s->base.mc);
	sub = g_dbus_connection_signal_subscribe(
		s->base.bus, P_NAME, P_REQUEST, "Response", token_path_, NULL,
		G_DBUS_SIGNAL_FLAGS_NONE, on_response, s, NULL);
	g_main_context_pop_thread_default(s->base.mc);
	r = rd_call(s->base.bus, P_NAME, P_PATH, iface, method, args, "(o)",
		    &err);
	if (!r) {
		g_dbus_connection_signal_unsubscribe(s->base.bus, sub);
		return failed(err, what);
	}
	g_variant_unref(r);
	until = cua_now_us() + (int64_t)wait_ms * 1000;
	while (!s->answered && cua_now_us() < until &&
	       !g_dbus_connection_is_closed(s->base.bus))
		if (!g_main_context_iteration(s->base.mc, FALSE))
			cua_sleep_ms(2);
	g_dbus_connection_signal_unsubscribe(s->base.bus, sub);
	if (!s->answered) {
		/* takes the dialog away */
		r = rd_call(s->base.bus, P_NAME, token_path_, P_REQUEST,
			    "Close", NULL, NULL, NULL);
		if (r)
			g_variant_unref(r);
		return cua_err(CUA_MSG_PORTAL_UNANSWERED, { "what", what },
			       { "s", CUA_NUM("%d", wait_ms / 1000) });
	}
	if (s->response == 1) {
		g_clear_pointer(&s->results, g_variant_unref);
		return cua_err(CUA_MSG_PORTAL_CANCELLED, { "what", what });
	}
	if (s->response != 0) {
		g_clear_pointer(&s->results, g_variant_unref);
		return cua_err(
			CUA_MSG_PORTAL_REFUSED, { "what", what },
			{ "response", CUA_NUM("%u", (unsigned)s->response) });
	}
	*results = s->results;
	s->results = NULL;
	return CUA_OK;
}

static void
p_close(struct rd_session *rs);

/* The options a{sv} with the next handle token; the Request's path in
 * `path`. */
static void
options_init(struct portal_session *s, GVariantBuilder *b, char *path,
	     size_t psize)
{
	char token[64];

	next_token(s, token, sizeof(token), path, psize);
	g_variant_builder_init(b, G_VARIANT_TYPE_VARDICT);
	g_variant_builder_add(b, "{sv}", "handle_token",
			      g_variant_new_string(token));
}

static cua_result
select_devices(struct portal_session *s, uint32_t version)
{
	GVariantBuilder o;
	GVariant *res;
	char path[256], kept[TOKEN_MAX];
	cua_result r;

	options_init(s, &o, path, sizeof(path));
	g_variant_builder_add(&o, "{sv}", "types",
			      g_variant_new_uint32(DEV_KEYBOARD | DEV_POINTER));
	/* version 1 (xdg-desktop-portal 1.16) refuses both: "Remote desktop
	 * sessions cannot persist" */
	if (version >= 2) {
		g_variant_builder_add(
			&o, "{sv}", "persist_mode",
			g_variant_new_uint32(PERSIST_UNTIL_REVOKED));
		rd_portal_token_load(kept, sizeof(kept));
		if (kept[0])
			g_variant_builder_add(&o, "{sv}", "restore_token",
					      g_variant_new_string(kept));
	}
	r = request(s, P_RD, "SelectDevices",
		    g_variant_new("(oa{sv})", s->session_path, &o), path,
		    CONSENT_MS, &res);
	if (res)
		g_variant_unref(res);
	return r;
}

static cua_result
select_sources(struct portal_session *s)
{
	GVariantBuilder o;
	GVariant *res;
	char path[256];
	cua_result r;

	options_init(s, &o, path, sizeof(path));
	g_variant_builder_add(&o, "{sv}", "types",
			      g_variant_new_uint32(SRC_WINDOW));
	g_variant_builder_add(&o, "{sv}", "multiple",
			      g_variant_new_boolean(FALSE));
	g_variant_builder_add(&o, "{sv}", "cursor_mode",
			      g_variant_new_uint32(CURSOR_HIDDEN));
	r = request(s, P_SC, "SelectSources",
		    g_variant_new("(oa{sv})", s->session_path, &o), path,
		    CONSENT_MS, &res);
	if (res)
		g_variant_unref(res);
	return r;
}

/* Start: the consent dialog, then the devices and streams granted. */
static cua_result
start(struct portal_session *s, int cast)
{
	GVariantBuilder o;
	GVariant *res, *streams;
	const char *token;
	uint32_t devices = 0;
	char path[256], why[256];
	cua_result r;

	options_init(s, &o, path, sizeof(path));
	r = request(s, P_RD, "Start",
		    g_variant_new("(osa{sv})", s->session_path, "", &o), path,
		    CONSENT_MS, &res);
	if (r != CUA_OK)
		return r;
	(void)g_variant_lookup(res, "devices", "u", &devices);
	if ((devices & (DEV_KEYBOARD | DEV_POINTER)) !=
	    (DEV_KEYBOARD | DEV_POINTER)) {
		g_variant_unref(res);
		return cua_err(CUA_MSG_PORTAL_NO_DEVICE,
			       { "device", devices & DEV_KEYBOARD ?
						   "pointer" :
						   "keyboard" });
	}
	streams = g_variant_lookup_value(res, "streams",
					 G_VARIANT_TYPE("a(ua{sv})"));
	if (cast && streams && g_variant_n_children(streams) > 0) {
		g_variant_get_child(streams, 0, "(u@a{sv})", &s->base.node,
				    NULL);
		s->base.have_node = 1;
	}
	if (streams)
		g_variant_unref(streams);
	if (g_variant_lookup(res, "restore_token", "&s", &token) && *token &&
	    rd_portal_token_save(token, why, sizeof(why)) < 0)
		g_warning("libcua: the portal's restore token is not kept "
			  "(%s): the consent dialog comes back next time",
			  why);
	g_variant_unref(res);
	if (cast && !s->base.have_node)
		return cua_err(CUA_MSG_PORTAL_NO_STREAM);
	return CUA_OK;
}

/* The PipeWire remote the portal opens for the session's streams. */
static cua_result
open_remote(struct portal_session *s)
{
	GUnixFDList *fds = NULL;
	GError *err = NULL;
	GVariantBuilder o;
	GVariant *r;
	gint32 idx = -1;

	g_variant_builder_init(&o, G_VARIANT_TYPE_VARDICT);
	r = g_dbus_connection_call_with_unix_fd_list_sync(
		s->base.bus, P_NAME, P_PATH, P_SC, "OpenPipeWireRemote",
		g_variant_new("(oa{sv})", s->session_path, &o),
		G_VARIANT_TYPE("(h)"), G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000,
		NULL, &fds, NULL, &err);
	if (!r)
		return failed(err, "ScreenCast.OpenPipeWireRemote");
	g_variant_get(r, "(h)", &idx);
	g_variant_unref(r);
	s->base.pw_fd = fds ? g_unix_fd_list_get(fds, idx, &err) : -1;
	if (fds)
		g_object_unref(fds);
	if (s->base.pw_fd < 0)
		return failed(err, "reading the PipeWire remote's descriptor");
	return CUA_OK;
}

static cua_result
p_open(int cast, int timeout_ms, struct rd_session **out)
{
	struct portal_session *s = calloc(1, sizeof(*s));
	GVariantBuilder o;
	GVariant *res;
	char path[256], why[256], stoken[64];
	uint32_t version;
	const char *handle;
	cua_result r;

	(void)timeout_ms; /* a person answers the dialog: CONSENT_MS */
	*out = NULL;
	if (!s)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (rd_base_open(&s->base, &rd_portal_ops, why, sizeof(why)) < 0) {
		p_close(&s->base);
		return cua_error(CUA_ERROR_BACKEND, "the desktop portal: %s",
				 why);
	}
	version = rd_version(s->base.bus, why, sizeof(why));
	if (!version) {
		p_close(&s->base);
		return cua_error(CUA_ERROR_UNSUPPORTED, "%s", why);
	}
	options_init(s, &o, path, sizeof(path));
	snprintf(stoken, sizeof(stoken), "cua%u_s%u", (unsigned)getpid(),
		 s->serial);
	g_variant_builder_add(&o, "{sv}", "session_handle_token",
			      g_variant_new_string(stoken));
	r = request(s, P_RD, "CreateSession", g_variant_new("(a{sv})", &o),
		    path, CONSENT_MS, &res);
	if (r != CUA_OK) {
		p_close(&s->base);
		return r;
	}
	if (g_variant_lookup(res, "session_handle", "&s", &handle))
		s->session_path = g_strdup(handle);
	g_variant_unref(res);
	if (!s->session_path) {
		p_close(&s->base);
		return cua_error(CUA_ERROR_BACKEND,
				 "the desktop portal made a session without "
				 "a handle");
	}
	rd_watch_closed(&s->base, P_NAME, P_SESSION, s->session_path);
	r = select_devices(s, version);
	if (r == CUA_OK && cast)
		r = select_sources(s);
	if (r == CUA_OK)
		r = start(s, cast);
	if (r == CUA_OK && cast)
		r = open_remote(s);
	if (r != CUA_OK) {
		p_close(&s->base);
		return r;
	}
	*out = &s->base;
	return CUA_OK;
}

static void
p_close(struct rd_session *rs)
{
	struct portal_session *s = (struct portal_session *)rs;

	if (!s)
		return;
	if (s->base.bus) {
		if (s->session_path && !s->base.closed) {
			GVariant *r =
				rd_call(s->base.bus, P_NAME, s->session_path,
					P_SESSION, "Close", NULL, NULL, NULL);

			if (r)
				g_variant_unref(r);
		}
	}
	rd_base_release(&s->base);
	if (s->base.pw_fd >= 0)
		close(s->base.pw_fd);
	if (s->results)
		g_variant_unref(s->results);
	g_free(s->session_path);
	free(s);
}

static cua_result
notify(struct rd_session *rs, const char *method, GVariant *args)
{
	struct portal_session *s = (struct portal_session *)rs;
	GError *err = NULL;
	GVariant *r = rd_call(s->base.bus, P_NAME, P_PATH, P_RD, method, args,
			      NULL, &err);

	if (!r)
		return failed(err, method);
	g_variant_unref(r);
	return CUA_OK;
}

/* The session's path, for the argument lists below. */
static const char *
sp(struct rd_session *rs)
{
	return ((struct portal_session *)rs)->session_path;
}

/* Each Notify* method takes the session, options (none here), then its
 * values. */
static cua_result
p_keysym(struct rd_session *s, uint32_t keysym, int pressed)
{
	return notify(s, "NotifyKeyboardKeysym",
		      g_variant_new("(oa{sv}iu)", sp(s), NULL, (gint32)keysym,
				    (guint32)(pressed ? 1 : 0)));
}

static cua_result
p_motion(struct rd_session *s, double x, double y)
{
	return notify(s, "NotifyPointerMotionAbsolute",
		      g_variant_new("(oa{sv}udd)", sp(s), NULL, s->node, x, y));
}

static cua_result
p_button(struct rd_session *s, int32_t button, int pressed)
{
	return notify(s, "NotifyPointerButton",
		      g_variant_new("(oa{sv}iu)", sp(s), NULL, button,
				    (guint32)(pressed ? 1 : 0)));
}

static cua_result
p_axis(struct rd_session *s, uint32_t axis, int32_t steps)
{
	return notify(s, "NotifyPointerAxisDiscrete",
		      g_variant_new("(oa{sv}ui)", sp(s), NULL, axis, steps));
}

const struct rd_ops rd_portal_ops = {
	.name = "portal",
	.available = p_available,
	.open = p_open,
	.close = p_close,
	.keysym = p_keysym,
	.motion = p_motion,
	.button = p_button,
	.axis = p_axis,
};
