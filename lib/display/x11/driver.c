/*
 * The x11 display driver: its ops table, construction, reconnection
 * after the X server went away, capabilities, the window list, and the
 * desktop glue (the root window's AT_SPI_BUS property, DISPLAY for
 * launched apps).
 *
 * The driver holds one X connection for window facts and input (x11.c,
 * input.c) and a capture worker with a connection of its own
 * (capture.c). A driver whose X server does not answer at the start
 * opens anyway; reconnect() connects once the server is there.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>

#include "x11.h"

/* A display on this machine (":1", "unix:1"): connecting to it fails at
 * once when no server listens, where a remote one could take a TCP
 * timeout, so only local displays are retried on every operation. */
static int
local_display(const char *name)
{
	return name && (name[0] == ':' || strncmp(name, "unix:", 5) == 0);
}

static const char *
name_of(const struct x11_driver *xd)
{
	const char *n = xd->x ? x11_display_name(xd->x) : NULL;

	return n ? n : xd->wanted;
}

/* Extensions are asked once per connection. */
static void
connected(struct x11_driver *xd)
{
	Display *dpy = x11_display(xd->x);
	int ev, er, maj, min;

	xd->have_xtest = dpy && XTestQueryExtension(dpy, &ev, &er, &maj, &min);
}

static void
x11d_destroy(struct cua_display *d)
{
	struct x11_driver *xd = x11_driver(d);

	if (!xd)
		return;
	/* spare keycodes still mapped for keys typed earlier */
	x11d_keys_restore(d);
	x11_user_free(xd);
	shots_free(xd->shots);
	if (xd->x)
		x11_close(xd->x);
	free(xd->wanted);
	free(xd);
}

/*
 * The X server can go away under a live session and come back (a new
 * server takes the same display). Xlib only marks such a connection
 * dead, so without this a session would fail for good: a dead
 * connection is replaced once a server answers on the same display, and
 * what hung off the old one follows (the capture worker's connection,
 * spare keycodes mapped on the old server). A session that started while
 * no X server ran connects once one does.
 */
static int
x11d_reconnect(struct cua_display *d)
{
	struct x11_driver *xd = x11_driver(d);

	if (xd->x && x11_check_alive(xd->x) < 0 &&
	    local_display(x11_display_name(xd->x))) {
		char *name = strdup(x11_display_name(xd->x));
		struct x11 *nx = name ? x11_open(name) : NULL;

		if (nx) {
			cua_info(d->ctx,
				 "the X server of %s went away; "
				 "connected to the new one",
				 name);
			shots_reset(xd->shots);
			x11_close(xd->x);
			xd->x = nx;
			connected(xd);
			/* spare keycodes were mapped on the old server */
			xd->n_kept = 0;
			free(name);
			return 1;
		}
		free(name);
		return -1;
	}
	if (!xd->x && local_display(secure_getenv("DISPLAY"))) {
		/* the session started while no X server ran */
		xd->x = x11_open(NULL);
		if (!xd->x)
			return -1;
		connected(xd);
		cua_info(d->ctx, "connected to the X server of %s",
			 x11_display_name(xd->x));
		if (!xd->shots)
			xd->shots = shots_new(xd);
		return 1;
	}
	return xd->x && x11_check_alive(xd->x) == 0 ? 0 : -1;
}

static void
set_all(struct cua_display_caps *out, const char *why)
{
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++) {
		out->cap[i].ok = 0;
		snprintf(out->cap[i].why, sizeof(out->cap[i].why), "%s", why);
	}
}

static void
x11d_capabilities(struct cua_display *d, struct cua_display_caps *out)
{
	struct x11_driver *xd = x11_driver(d);
	const char *name = name_of(xd);
	char why[sizeof(out->cap[0].why)];

	memset(out, 0, sizeof(*out));
	if (!xd->x) {
		if (name)
			snprintf(why, sizeof(why),
				 "the X server DISPLAY=%s does not accept "
				 "connections",
				 name);
		else
			snprintf(why, sizeof(why),
				 "DISPLAY is unset, so there is no X server "
				 "to use");
		set_all(out, why);
		return;
	}
	if (x11_check_alive(xd->x) < 0) {
		snprintf(why, sizeof(why), "the X server %s went away",
			 name ? name : "");
		set_all(out, why);
		return;
	}
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++)
		out->cap[i].ok = 1;
	if (!xd->have_xtest) {
		for (int i = CUA_DISPLAY_CAP_POINTER;
		     i <= CUA_DISPLAY_CAP_KEYBOARD; i++) {
			out->cap[i].ok = 0;
			snprintf(out->cap[i].why, sizeof(out->cap[i].why),
				 "the X server %s has no XTEST extension",
				 name ? name : "");
		}
	}
}

static void
x11d_describe(struct cua_display *d, char *display, size_t dsize, char *server,
	      size_t ssize)
{
	struct x11_driver *xd = x11_driver(d);
	const char *name = name_of(xd);
	char *wm = NULL;

	snprintf(display, dsize, "%s", name ? name : "");
	if (xd->x && x11_check_alive(xd->x) == 0)
		wm = x11_wm_name(xd->x);
	snprintf(server, ssize, "%s", wm ? wm : "");
	free(wm);
}

static cua_result
x11d_list_windows(struct cua_display *d, struct cua_display_window_list **out)
{
	struct x11_driver *xd = x11_driver(d);
	struct cua_display_window_list *l;
	struct x11_client *cl = NULL;
	size_t n = 0;
	uint64_t active = 0;

	*out = NULL;
	l = calloc(1, sizeof(*l));
	if (!l || !(l->arena = cua_arena_new())) {
		free(l);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	if (xd->x) {
		if (x11_list_clients(xd->x, &cl, &n) < 0)
			n = 0;
		active = x11_active_window(xd->x);
	}
	l->w = cua_arena_alloc(l->arena, (n ? n : 1) * sizeof(*l->w));
	if (!l->w) {
		x11_clients_free(cl, n);
		cua_display_window_list_free(l);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		const struct x11_client *c = &cl[i];
		struct cua_display_window *w = &l->w[i];

		memset(w, 0, sizeof(*w));
		w->win.window = c->window;
		w->win.pid = c->pid;
		w->win.frame = c->frame;
		w->win.origin = c->frame;
		if (c->has_frame_extents) {
			/* left, right, top, bottom in x, y, w, h */
			w->win.origin.x -= c->frame_extents.x;
			w->win.origin.y -= c->frame_extents.w;
			w->win.origin.w +=
				c->frame_extents.x + c->frame_extents.y;
			w->win.origin.h +=
				c->frame_extents.w + c->frame_extents.h;
		}
		w->win.outer = c->outer;
		w->win.mapped = c->mapped;
		w->win.iconified = c->iconified;
		w->win.atspi_space = CUA_ATSPI_GLOBAL;
		w->win.scale = 1;
		w->title = cua_arena_strdup(l->arena, c->title);
		w->app_id = cua_arena_strdup(l->arena, c->wm_class_class);
		w->app_instance =
			cua_arena_strdup(l->arena, c->wm_class_instance);
		w->gtk_app_id = cua_arena_strdup(l->arena, c->gtk_app_id);
		w->focused = active && c->window == active;
	}
	l->n = n;
	x11_clients_free(cl, n);
	*out = l;
	return CUA_OK;
}

static void
x11d_match_toplevels(struct cua_display *d, int64_t pid,
		     const struct cua_display_toplevel_query *tops, size_t n,
		     struct cua_raw_window_info *info, struct cua_arena *arena)
{
	x11_match_toplevels(x11_driver(d)->x, pid, tops, n, info, arena);
}

static void
x11d_shell(struct cua_display *d, struct cua_display_shell *out)
{
	struct x11_driver *xd = x11_driver(d);
	char *name;

	memset(out, 0, sizeof(*out));
	if (!xd->x)
		return;
	out->pid = x11_wm_pid(xd->x);
	if (out->pid)
		return;
	name = x11_wm_name(xd->x);
	if (name)
		snprintf(out->name, sizeof(out->name), "%s", name);
	free(name);
}

static char *
x11d_a11y_bus_get(struct cua_display *d)
{
	struct x11_driver *xd = x11_driver(d);

	return xd->x ? x11_get_atspi_bus(xd->x) : NULL;
}

static int
x11d_a11y_bus_publish(struct cua_display *d, const char *address)
{
	struct x11_driver *xd = x11_driver(d);

	return xd->x ? x11_set_atspi_bus(xd->x, address) : -1;
}

static size_t
x11d_launch_env(struct cua_display *d, const char **names, const char **values,
		size_t max)
{
	struct x11_driver *xd = x11_driver(d);
	const char *name = xd->x ? x11_display_name(xd->x) : NULL;

	if (!name || max < 1)
		return 0;
	names[0] = "DISPLAY";
	values[0] = name;
	return 1;
}

static const struct cua_display_ops x11_ops = {
	.name = "x11",
	.destroy = x11d_destroy,
	.capabilities = x11d_capabilities,
	.reconnect = x11d_reconnect,
	.describe = x11d_describe,
	.list_windows = x11d_list_windows,
	.match_toplevels = x11d_match_toplevels,
	.window_query = x11d_window_query,
	.window_at = x11d_window_at,
	.focus_window = x11d_focus_window,
	.activate_window = x11d_activate_window,
	.shell = x11d_shell,
	.pointer = x11d_pointer,
	.keys = x11d_keys,
	.keys_restore = x11d_keys_restore,
	.user_watch = x11d_user_watch,
	.user_stop_key = x11d_user_stop_key,
	.user_sync = x11d_user_sync,
	.track_window = x11d_track_window,
	.capture = x11d_capture,
	.take_damage = x11d_take_damage,
	.a11y_bus_get = x11d_a11y_bus_get,
	.a11y_bus_publish = x11d_a11y_bus_publish,
	.launch_env = x11d_launch_env,
};

cua_result
cua_display_x11_new(struct cua_ctx *ctx, struct cua_display **out)
{
	struct x11_driver *xd = calloc(1, sizeof(*xd));
	const char *want = secure_getenv("DISPLAY");

	*out = NULL;
	if (!xd)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	xd->base.ops = &x11_ops;
	xd->base.ctx = ctx;
	if (want && *want && !(xd->wanted = strdup(want))) {
		free(xd);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	xd->x = x11_open(NULL);
	if (xd->x)
		connected(xd);
	else
		cua_debug(ctx, "x11: no X11 display%s%s", want ? " at " : "",
			  want ? want : "");
	/* the capture worker starts with the first capture or tracked
	 * window, after the caller has set the hooks */
	xd->shots = shots_new(xd);
	*out = &xd->base;
	return CUA_OK;
}
