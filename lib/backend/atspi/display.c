/*
 * The AT-SPI backend's side of the display seam (display/display.h): it
 * opens the session's display driver and forwards the backend's window,
 * input and capture members to it. What the driver needs from the
 * accessibility layer comes as hooks: a wakeup of the backend's main
 * context when damage arrives, and a round trip to the app the keys are
 * for.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "atspi.h"

/* how long the app may take to answer the probe of a running action */
#define ACTION_PROBE_MS 500

/* A missing member of the driver: what the core would say of a missing
 * capability. */
static cua_result
missing(struct atspi_be *be, enum cua_display_cap cap)
{
	struct cua_display_caps caps;

	cua_display_capabilities(be->display, "there is no display driver",
				 &caps);
	if (caps.cap[cap].ok)
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "the %s display driver cannot do this",
				 be->display->ops->name);
	return cua_error(CUA_ERROR_UNSUPPORTED, "%s", caps.cap[cap].why);
}

static struct cua_display *
disp(struct cua_backend *b)
{
	return ((struct atspi_be *)b)->display;
}

#define FORWARD(b, member, cap, ...)                                           \
	do {                                                                   \
		struct cua_display *d_ = disp(b);                              \
		if (!d_ || !d_->ops->member)                                   \
			return missing((struct atspi_be *)(b), cap);           \
		return d_->ops->member(d_, __VA_ARGS__);                       \
	} while (0)

cua_result
atspi_window_query(struct cua_backend *b, uint64_t window, struct cua_win *out)
{
	FORWARD(b, window_query, CUA_DISPLAY_CAP_WINDOWS, window, out);
}

cua_result
atspi_window_at(struct cua_backend *b, int32_t x, int32_t y,
		struct cua_win *out)
{
	FORWARD(b, window_at, CUA_DISPLAY_CAP_GEOMETRY, x, y, out);
}

cua_result
atspi_focus_window(struct cua_backend *b, struct cua_win *out)
{
	FORWARD(b, focus_window, CUA_DISPLAY_CAP_WINDOWS, out);
}

cua_result
atspi_activate_window(struct cua_backend *b, uint64_t window, int timeout_ms,
		      int *confirmed)
{
	*confirmed = 0;
	FORWARD(b, activate_window, CUA_DISPLAY_CAP_WINDOWS, window, timeout_ms,
		confirmed);
}

cua_result
atspi_pointer(struct cua_backend *b, const struct cua_pointer_event *ev,
	      size_t n, int restore)
{
	FORWARD(b, pointer, CUA_DISPLAY_CAP_POINTER, ev, n, restore);
}

struct app_sync {
	struct atspi_be *be;
	const char *bus;
};

/*
 * One accessibility round trip to the app, answered from the same main
 * loop that reads its window-system events, so that it has read the keys
 * sent before. Twice: the first answer may be sent from the main-loop
 * iteration that has yet to dispatch those events; the second is
 * answered only in a later one.
 */
static int
round_trips(struct atspi_be *be, const char *bus, int timeout_ms)
{
	GError *e = NULL;
	GVariant *r;

	for (int i = 0; i < 2; i++) {
		r = atspi_call_sync(be, bus, "/org/a11y/atspi/accessible/root",
				    "org.a11y.atspi.Accessible", "GetRole",
				    NULL, G_VARIANT_TYPE("(u)"), timeout_ms,
				    &e);
		if (!r) {
			g_error_free(e);
			return -1;
		}
		g_variant_unref(r);
	}
	return 0;
}

static void
app_sync(void *data)
{
	struct app_sync *s = data;

	round_trips(s->be, s->bus, 2000);
}

/*
 * The settle's sign that the app has caught up with the input sent to it
 * (docs/screenshots.md §6.2). The input is in the app's socket when the
 * action returns (the display drivers sync with the window system after
 * sending it); the round trips go over the accessibility bus connection
 * that carries the app's events, so the app's answer comes after every
 * event it emitted before, and the bus filter has queued them by then.
 */
int
atspi_app_sync(struct cua_backend *b, const char *bus_name, int timeout_ms)
{
	struct atspi_be *be = (struct atspi_be *)b;

	if (!be->a11y || !bus_name)
		return -1;
	return round_trips(be, bus_name, timeout_ms > 0 ? timeout_ms : 1);
}

cua_result
atspi_keys(struct cua_backend *b, const struct cua_key_chord *chords, size_t n,
	   int keymap_delay_ms, const char *app_bus, int *kept)
{
	struct app_sync as = { (struct atspi_be *)b, app_bus };
	struct cua_display_sync sync = { app_bus ? app_sync : NULL, &as };

	if (kept)
		*kept = 0;
	/* an element's action still running a dialog's loop in the app:
	 * a key would deadlock its ATK bridge (docs/actions.md §3) */
	if (app_bus && atspi_action_running((struct atspi_be *)b, app_bus,
					    ACTION_PROBE_MS))
		return cua_err(CUA_MSG_KEYS_WOULD_HANG);
	FORWARD(b, keys, CUA_DISPLAY_CAP_KEYBOARD, chords, n, keymap_delay_ms,
		&sync, kept);
}

cua_result
atspi_keys_check(struct cua_backend *b, const struct cua_key_chord *chords,
		 size_t n)
{
	struct cua_display *d = disp(b);

	if (!d || !d->ops->keys_check)
		return CUA_OK; /* keys() says what it cannot send */
	return d->ops->keys_check(d, chords, n);
}

cua_result
atspi_keys_restore(struct cua_backend *b)
{
	struct cua_display *d = disp(b);

	if (!d || !d->ops->keys_restore)
		return CUA_OK; /* nothing can have been kept */
	return d->ops->keys_restore(d);
}

void
atspi_track_window(struct cua_backend *b, uint64_t window)
{
	struct cua_display *d = disp(b);

	if (d && d->ops->track_window)
		d->ops->track_window(d, window);
}

cua_result
atspi_capture(struct cua_backend *b, const struct cua_capture_request *req,
	      struct cua_capture **out, enum cua_capture_status *status)
{
	*out = NULL;
	*status = CUA_CAPTURE_NO_DISPLAY;
	FORWARD(b, capture, CUA_DISPLAY_CAP_SCREENSHOT, req, out, status);
}

/* The driver's damage hook: wake dispatch (events.c) on be->mc. Called
 * from the driver's threads. */
static void
wake(void *data)
{
	g_main_context_wakeup(data);
}

/* The driver's focus hook: the toplevel's basic fields, read again by the
 * live reader (atspi_read_nodes). */
static int
toplevel_active(void *data, const char *ident)
{
	struct atspi_be *be = data;
	struct cua_raw_snapshot *snap = cua_raw_snapshot_new();
	struct cua_raw_node *n = snap ? cua_raw_node_new(snap) : NULL;
	int active = -1;

	if (n && ident)
		n->ident = cua_arena_strdup(snap->arena, ident);
	if (n && n->ident &&
	    atspi_read_nodes(&be->base, snap, &n, 1, 0) == CUA_OK &&
	    (n->have & CUA_HAVE_BASIC))
		active = CUA_HAS_STATE(n, CUA_STATE_ACTIVE);
	if (active < 0)
		cua_error_clear(); /* unknown, which the driver allows for */
	cua_raw_snapshot_free(snap);
	return active;
}

/* The environment the last automatic choice saw. */
static int
env_changed(const struct atspi_be *be, const struct cua_display_env *env)
{
	const char *now[3] = { env->wayland_display, env->display,
			       env->session_type };

	for (int i = 0; i < 3; i++)
		if (g_strcmp0(now[i], be->display_env[i]) != 0)
			return 1;
	return 0;
}

static void
remember_env(struct atspi_be *be, const struct cua_display_env *env)
{
	const char *now[3] = { env->wayland_display, env->display,
			       env->session_type };

	for (int i = 0; i < 3; i++) {
		g_free(be->display_env[i]);
		be->display_env[i] = g_strdup(now[i]);
	}
}

/* Chooses and opens a driver; `forced` (the session option) overrides
 * CUA_DISPLAY when not NULL. The current driver stays on error. */
static cua_result
open_display(struct atspi_be *be, const char *forced)
{
	struct cua_display_env env;
	struct cua_display_choice choice;
	struct cua_display_hooks hooks = { wake, be->mc, toplevel_active, be };
	struct cua_display *d = NULL;
	cua_result r;

	cua_display_env_read(&env);
	if (forced) {
		env.forced = forced;
		env.forced_by = "the session option display";
	}
	r = cua_display_choose(&env, cua_display_probe, NULL, &choice);
	if (r != CUA_OK)
		return r;
	r = cua_display_open(be->base.ctx, &choice, &hooks, &d);
	if (r != CUA_OK)
		return r;
	cua_info(be->base.ctx, "display driver %s: %s", d->ops->name,
		 choice.why);
	for (size_t i = 0; i < choice.n_tried; i++)
		cua_debug(be->base.ctx, "display driver %s not taken: %s",
			  choice.tried[i].driver, choice.tried[i].why);
	remember_env(be, &env);
	atspi_display_close(be);
	be->display = d;
	return CUA_OK;
}

cua_result
atspi_display_open(struct atspi_be *be)
{
	return open_display(be, NULL);
}

void
atspi_display_close(struct atspi_be *be)
{
	if (!be->display)
		return;
	cua_display_close(be->display);
	be->display = NULL;
}

/*
 * A session whose automatic choice found no window system chooses again
 * once the environment names one (a host that sets DISPLAY after making
 * the session, as cua-mcp does when it finds the user's X server).
 */
void
atspi_display_recheck(struct atspi_be *be)
{
	struct cua_display_env env;

	if (!be->display || be->display->choice.forced ||
	    strcmp(be->display->ops->name, "none") != 0)
		return;
	cua_display_env_read(&env);
	if (!env_changed(be, &env))
		return;
	if (open_display(be, NULL) != CUA_OK)
		cua_error_clear();
}

struct cua_display *
atspi_display(struct cua_backend *b)
{
	return disp(b);
}

cua_result
atspi_set_display(struct cua_backend *b, const char *name)
{
	struct atspi_be *be = (struct atspi_be *)b;
	int pushed = g_main_context_get_thread_default() != be->mc;
	cua_result r;

	if (pushed)
		g_main_context_push_thread_default(be->mc);
	r = open_display(be, name);
	if (pushed)
		g_main_context_pop_thread_default(be->mc);
	return r;
}
