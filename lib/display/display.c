/*
 * The display seam's shared part: helpers every driver and the core use.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <linux/input-event-codes.h>

#include "core/errors.h"
#include "core/sanitize.h"
#include "core/strbuf.h"
#include "display.h"

void
cua_capture_free(struct cua_capture *c)
{
	if (!c)
		return;
	free(c->px.data);
	free(c);
}

void
cua_display_proc_comm(int64_t pid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%lld/comm", (long long)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void
cua_display_window_list_free(struct cua_display_window_list *l)
{
	if (!l)
		return;
	cua_arena_free(l->arena);
	free(l);
}

/* floor(v) clamped to int32_t; NaN gives INT32_MIN. */
static int32_t
floor_to_i32(double v)
{
	double f = floor(v);

	if (!(f >= INT32_MIN))
		return INT32_MIN;
	if (f > INT32_MAX)
		return INT32_MAX;
	return (int32_t)f;
}

void
cua_win_atspi_to_global(const struct cua_win *w, double ax, double ay,
			int32_t *gx, int32_t *gy)
{
	double s = w->scale > 0 ? w->scale : 1;

	if (w->atspi_space == CUA_ATSPI_SURFACE) {
		*gx = floor_to_i32(w->origin.x + ax * s);
		*gy = floor_to_i32(w->origin.y + ay * s);
	} else {
		*gx = floor_to_i32(ax);
		*gy = floor_to_i32(ay);
	}
}

void
cua_display_capabilities(struct cua_display *d, const char *why,
			 struct cua_display_caps *out)
{
	if (d) {
		d->ops->capabilities(d, out);
		return;
	}
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++) {
		out->cap[i].ok = 0;
		snprintf(out->cap[i].why, sizeof(out->cap[i].why), "%s",
			 why ? why : "there is no window system");
	}
}

/* ------------------------------------------------------------------ */
/* Choosing a driver                                                   */

const char *const cua_display_names[] = {
	"x11", "wlroots", "mutter", "portal", "none", NULL,
};

/* The drivers this libcua was built with. A Wayland driver adds a probe
 * (what its compositor must offer) next to its constructor. */
static const struct {
	const char *name;
	cua_result (*open)(struct cua_ctx *ctx, struct cua_display **out);
	int (*probe)(const struct cua_display_env *env, char *why, size_t size);
} drivers[] = {
#if HAVE_DISPLAY_X11
	{ "x11", cua_display_x11_new, NULL },
#endif
#if HAVE_WLROOTS
	{ "wlroots", cua_display_wlroots_new, cua_display_wlroots_probe },
#endif
#if HAVE_MUTTER
	{ "mutter", cua_display_mutter_new, cua_display_mutter_probe },
	{ "portal", cua_display_portal_new, cua_display_portal_probe },
#endif
	{ "none", cua_display_none_new, NULL },
};

#define N_DRIVERS (sizeof(drivers) / sizeof(drivers[0]))

/* The Wayland drivers, in the order they are tried: the wlroots
 * protocols when the compositor offers them (sway and its kin), then
 * mutter's own D-Bus interfaces (GNOME), then the portal, which may ask
 * the user. */
static const char *const wayland_order[] = { "wlroots", "mutter", "portal" };

static int
nonempty(const char *s)
{
	return s && *s;
}

/* The static copy of a known name, or NULL. */
static const char *
known_name(const char *name)
{
	for (size_t i = 0; cua_display_names[i]; i++)
		if (strcmp(cua_display_names[i], name) == 0)
			return cua_display_names[i];
	return NULL;
}

int
cua_display_built(const char *name)
{
	for (size_t i = 0; i < N_DRIVERS; i++)
		if (strcmp(drivers[i].name, name) == 0)
			return 1;
	return 0;
}

static void
built_list(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_DRIVERS && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? ", " : "", drivers[i].name);
}

void
cua_display_env_read(struct cua_display_env *env)
{
	memset(env, 0, sizeof(*env));
	env->forced = secure_getenv("CUA_DISPLAY");
	env->forced_by = "CUA_DISPLAY";
	env->wayland_display = secure_getenv("WAYLAND_DISPLAY");
	env->display = secure_getenv("DISPLAY");
	env->session_type = secure_getenv("XDG_SESSION_TYPE");
}

int
cua_display_probe(void *data, const char *name,
		  const struct cua_display_env *env, char *why, size_t size)
{
	(void)data;
	for (size_t i = 0; i < N_DRIVERS; i++) {
		if (strcmp(drivers[i].name, name) != 0)
			continue;
		if (!drivers[i].probe)
			return 1;
		return drivers[i].probe(env, why, size);
	}
	snprintf(why, size, "not built into this libcua");
	return 0;
}

static enum cua_display_session
session_of(const struct cua_display_env *env)
{
	if (nonempty(env->wayland_display))
		return CUA_DISPLAY_SESSION_WAYLAND;
	if (nonempty(env->display))
		return CUA_DISPLAY_SESSION_X11;
	if (env->session_type && strcmp(env->session_type, "wayland") == 0)
		return CUA_DISPLAY_SESSION_WAYLAND;
	return CUA_DISPLAY_SESSION_NONE;
}

/* "WAYLAND_DISPLAY=wayland-0", or the variable that made it Wayland. */
static void
wayland_what(const struct cua_display_env *env, char *buf, size_t size)
{
	if (nonempty(env->wayland_display))
		snprintf(buf, size, "WAYLAND_DISPLAY=%.64s",
			 env->wayland_display);
	else
		snprintf(buf, size, "XDG_SESSION_TYPE=wayland");
}

static cua_result
choose_forced(const struct cua_display_env *env, struct cua_display_choice *out)
{
	const char *by = env->forced_by ? env->forced_by : "CUA_DISPLAY";
	const char *name = known_name(env->forced);
	char built[96];

	built_list(built, sizeof(built));
	if (!name)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "%s=%s: no display driver has this name; use "
				 "auto, x11, wlroots, mutter, portal or none",
				 by, env->forced);
	if (!cua_display_built(name))
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "%s=%s: this libcua was built without the %s "
				 "display driver (it has %s); choose one of "
				 "those, or auto",
				 by, name, name, built);
	out->driver = name;
	out->forced = 1;
	out->forced_by = by;
	if (strcmp(name, "none") == 0)
		snprintf(out->why, sizeof(out->why),
			 "the display driver is turned off by %s=none", by);
	else
		snprintf(out->why, sizeof(out->why), "%s=%s chose it", by,
			 name);
	return CUA_OK;
}

/* A Wayland session: the first Wayland driver that works with the
 * compositor, else none. */
static void
choose_wayland(const struct cua_display_env *env, cua_display_probe_fn probe,
	       void *probe_data, struct cua_display_choice *out)
{
	char what[96];
	size_t len, unbuilt = 0;

	wayland_what(env, what, sizeof(what));
	/*
	 * DISPLAY is not looked at here even when it is set: it names
	 * Xwayland, which serves only the apps that speak X11. Native
	 * Wayland apps have no X11 window, so the x11 driver would find
	 * none of their windows and could neither capture nor reach them
	 * (and could drive only the Xwayland ones). The wlroots and mutter
	 * drivers take over here: the compositor shows Xwayland windows
	 * like any other, so they capture and drive both kinds through
	 * the compositor's own protocols. CUA_DISPLAY=x11 still forces the
	 * x11 driver for Xwayland apps.
	 */
	for (size_t i = 0; i < sizeof(wayland_order) / sizeof(*wayland_order);
	     i++) {
		const char *name = wayland_order[i];
		char why[sizeof(out->tried[0].why)] = "";

		if (probe(probe_data, name, env, why, sizeof(why))) {
			out->driver = known_name(name);
			snprintf(out->why, sizeof(out->why),
				 "a Wayland session on %s whose compositor "
				 "offers what the %s driver needs",
				 what, name);
			return;
		}
		if (out->n_tried < CUA_DISPLAY_MAX_TRIED) {
			out->tried[out->n_tried].driver = known_name(name);
			snprintf(out->tried[out->n_tried].why,
				 sizeof(out->tried[0].why), "%s",
				 why[0] ? why : "it does not work here");
			out->n_tried++;
		}
		unbuilt += !cua_display_built(name);
	}
	out->driver = known_name("none");
	if (unbuilt == out->n_tried) {
		snprintf(out->why, sizeof(out->why),
			 "this is a Wayland session on %s, and this libcua "
			 "has no display driver for Wayland compositors",
			 what);
		return;
	}
	len = (size_t)snprintf(out->why, sizeof(out->why),
			       "this is a Wayland session on %s, and none of "
			       "libcua's display drivers works with its "
			       "compositor",
			       what);
	for (size_t i = 0; i < out->n_tried && len < sizeof(out->why); i++) {
		if (!cua_display_built(out->tried[i].driver))
			continue;
		len += (size_t)snprintf(out->why + len, sizeof(out->why) - len,
					"; %s: %s", out->tried[i].driver,
					out->tried[i].why);
	}
}

cua_result
cua_display_choose(const struct cua_display_env *env,
		   cua_display_probe_fn probe, void *probe_data,
		   struct cua_display_choice *out)
{
	memset(out, 0, sizeof(*out));
	out->session = session_of(env);
	if (nonempty(env->forced) && strcmp(env->forced, "auto") != 0)
		return choose_forced(env, out);
	if (!probe)
		probe = cua_display_probe;

	switch (out->session) {
	case CUA_DISPLAY_SESSION_WAYLAND:
		choose_wayland(env, probe, probe_data, out);
		break;
	case CUA_DISPLAY_SESSION_X11:
		/* DISPLAY without WAYLAND_DISPLAY: this process was pointed
		 * at that X server (a plain X11 session, a nested or
		 * headless X server such as `cua desktop`), whatever
		 * XDG_SESSION_TYPE says of the login around it */
		if (cua_display_built("x11")) {
			out->driver = known_name("x11");
			snprintf(out->why, sizeof(out->why),
				 "DISPLAY=%.64s names an X server and "
				 "WAYLAND_DISPLAY is unset",
				 env->display);
		} else {
			out->driver = known_name("none");
			snprintf(out->why, sizeof(out->why),
				 "DISPLAY=%.64s names an X server, and this "
				 "libcua was built without the x11 display "
				 "driver",
				 env->display);
		}
		break;
	case CUA_DISPLAY_SESSION_NONE:
		out->driver = known_name("none");
		snprintf(out->why, sizeof(out->why),
			 "there is no window system: neither WAYLAND_DISPLAY "
			 "nor DISPLAY is set");
		break;
	}
	return CUA_OK;
}

cua_result
cua_display_open(struct cua_ctx *ctx, const struct cua_display_choice *choice,
		 const struct cua_display_hooks *hooks,
		 struct cua_display **out)
{
	cua_result r;

	*out = NULL;
	for (size_t i = 0; i < N_DRIVERS; i++) {
		if (strcmp(drivers[i].name, choice->driver) != 0)
			continue;
		r = drivers[i].open(ctx, out);
		if (r != CUA_OK)
			return r;
		/* the driver reads them only after its constructor */
		(*out)->choice = *choice;
		if (hooks)
			(*out)->hooks = *hooks;
		return CUA_OK;
	}
	return cua_error(CUA_ERROR_UNSUPPORTED,
			 "this libcua was built without the %s display driver",
			 choice->driver);
}

void
cua_display_close(struct cua_display *d)
{
	if (d)
		d->ops->destroy(d);
}

/* ------------------------------------------------------------------ */
/* Facts for people (cua doctor)                                       */

const char *
cua_display_cap_name(enum cua_display_cap cap)
{
	static const char *const names[CUA_DISPLAY_CAP_COUNT] = {
		"windows", "geometry", "screenshot", "pointer", "keyboard",
	};

	return (unsigned)cap < CUA_DISPLAY_CAP_COUNT ? names[cap] : "?";
}

/* Our phrases quote environment values and window-system names: valid
 * UTF-8 without controls, through the one sanitiser. */
static json_t *
jtext(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	cua_sanitize_sb(&sb, s);
	j = json_string(sb_str(&sb));
	sb_free(&sb);
	return j;
}

static json_t *
str_or_null(const char *s)
{
	return s && *s ? jtext(s) : json_null();
}

cua_result
cua_display_info_json(struct cua_display *d, const char *why, char **out)
{
	static const char *const sessions[] = { "none", "x11", "wayland" };
	struct cua_display_caps caps;
	char display[256] = "", server[256] = "";
	json_t *root, *cj, *tried;
	char *s;

	*out = NULL;
	cua_display_capabilities(d, why, &caps);
	if (d && d->ops->describe)
		d->ops->describe(d, display, sizeof(display), server,
				 sizeof(server));
	root = json_object();
	cj = json_object();
	tried = json_array();
	if (!root || !cj || !tried) {
		json_decref(root);
		json_decref(cj);
		json_decref(tried);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	json_object_set_new(root, "schema", json_string("libcua.display/1"));
	json_object_set_new(root, "driver",
			    json_string(d ? d->ops->name : "none"));
	json_object_set_new(root, "chosen_by",
			    d && d->choice.forced ?
				    json_string(d->choice.forced_by) :
				    json_string(d ? "auto" : "backend"));
	json_object_set_new(root, "why",
			    jtext(d   ? d->choice.why :
				  why ? why :
					"there is no window system"));
	json_object_set_new(
		root, "session",
		json_string(d && (unsigned)d->choice.session <
						    sizeof(sessions) /
							    sizeof(*sessions) ?
				    sessions[d->choice.session] :
				    "none"));
	json_object_set_new(root, "display", str_or_null(display));
	json_object_set_new(root, "server", str_or_null(server));
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++) {
		json_t *c = json_object();

		json_object_set_new(c, "available",
				    json_boolean(caps.cap[i].ok));
		if (!caps.cap[i].ok)
			json_object_set_new(c, "reason",
					    jtext(caps.cap[i].why));
		json_object_set_new(cj, cua_display_cap_name(i), c);
	}
	json_object_set_new(root, "capabilities", cj);
	{
		/* the user guards of docs/safety.md §6 */
		json_t *u = json_object();
		int ok = d && d->ops->user_watch;

		json_object_set_new(u, "available", json_boolean(ok));
		if (!ok)
			json_object_set_new(
				u, "reason",
				jtext(d && d->choice.session ==
							      CUA_DISPLAY_SESSION_WAYLAND ?
					      "Wayland shows no client another "
					      "client's input, so a person's own key "
					      "and button presses cannot be told from "
					      "Computer Use's and no stop hotkey can be "
					      "held; `cua stop` still stops it" :
					      "without a window system a person's "
					      "own input cannot be seen and no stop "
					      "hotkey can be held; `cua stop` still "
					      "stops Computer Use"));
		json_object_set_new(root, "user_input", u);
	}
	for (size_t i = 0; d && i < d->choice.n_tried; i++) {
		json_t *t = json_object();

		json_object_set_new(t, "driver",
				    json_string(d->choice.tried[i].driver));
		json_object_set_new(t, "reason", jtext(d->choice.tried[i].why));
		json_array_append_new(tried, t);
	}
	json_object_set_new(root, "tried", tried);
	s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!s)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	*out = s;
	return CUA_OK;
}

int
cua_display_evdev_button(uint32_t b, uint32_t *code, int *axis, int *dir)
{
	static const uint32_t evdev[4] = { 0, BTN_LEFT, BTN_MIDDLE, BTN_RIGHT };

	if (b < 1 || b > 7)
		return -1;
	if (b <= 3) {
		*code = evdev[b];
		return 1;
	}
	*axis = b >= 6;
	*dir = b == 4 || b == 6 ? -1 : 1;
	return 0;
}

cua_result
cua_display_pointer_send(struct cua_display *d,
			 const struct cua_pointer_event *ev, size_t n,
			 const struct cua_pointer_sink *sink, void *data,
			 int *pressed)
{
	cua_result r = CUA_OK;

	for (size_t i = 0; r == CUA_OK && i < n; i++) {
		uint32_t b = ev[i].button, code;
		int kind, axis, dir, down = ev[i].kind == CUA_POINTER_PRESS;

		if (sink->polls_interrupt && d->interrupt &&
		    (r = d->interrupt(d->interrupt_data)))
			break;
		switch (ev[i].kind) {
		case CUA_POINTER_MOVE:
			r = sink->move(data, ev[i].x, ev[i].y);
			break;
		case CUA_POINTER_PRESS:
		case CUA_POINTER_RELEASE:
			kind = cua_display_evdev_button(b, &code, &axis, &dir);
			if (kind < 0) {
				r = cua_error(CUA_ERROR_INVALID_ARGUMENT,
					      "no pointer button %u", b);
			} else if (kind == 0) {
				/* one wheel step per press */
				if (down)
					r = sink->wheel(data, axis, dir);
			} else {
				r = sink->button(data, code, down);
				if (r == CUA_OK)
					pressed[b] = down;
			}
			break;
		default:
			r = cua_error(CUA_ERROR_INVALID_ARGUMENT,
				      "unknown pointer event %d",
				      (int)ev[i].kind);
		}
	}
	return r;
}

void
cua_display_pointer_release(const struct cua_pointer_sink *sink, void *data,
			    int *pressed)
{
	uint32_t code;
	int axis, dir;

	for (uint32_t b = 1; b <= 3; b++) {
		if (!pressed[b])
			continue;
		pressed[b] = 0;
		if (sink &&
		    cua_display_evdev_button(b, &code, &axis, &dir) == 1)
			(void)sink->button(data, code, 0);
	}
}

void
cua_display_cap_set(struct cua_display_caps *out, enum cua_display_cap c,
		    const char *why)
{
	out->cap[c].ok = why == NULL;
	snprintf(out->cap[c].why, sizeof(out->cap[c].why), "%s",
		 why ? why : "");
}
