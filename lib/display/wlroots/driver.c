/*
 * The wlroots display driver (sway and compositors with the same
 * protocols), on the building blocks of wlr.h: one Wayland connection for
 * the session, its virtual keyboard and pointer, screencopy, the
 * foreign-toplevel list, and sway's IPC for what no protocol gives
 * (window geometry, process ids).
 *
 * Window handles: with sway's IPC, a window is its container (handle
 * WLR_H_SWAY | con_id) and the foreign-toplevel of the same app id and
 * title serves for activation and the minimized state; without it, a
 * window is its foreign toplevel (WLR_H_TOPLEVEL | id), with no position:
 * geometry, pointer input and screenshots are then unavailable, with the
 * reason, and nothing guesses where a window is.
 *
 * Coordinates: global = the layout's logical coordinates times the
 * outputs' scale (one scale for all outputs; outputs of different scales
 * leave geometry unavailable, with the reason). A window's frame is its
 * visible content (sway's window_rect). On Wayland AT-SPI extents are
 * relative to the app's own surface, and the core maps them from the
 * accessibility window's origin to the frame's; that is exact when the
 * surface starts at the content, as for every window sway decorates and
 * every tiled one. A floating window with client-side decorations has an
 * invisible shadow around its content, of a size no protocol and no IPC
 * reply gives (sway's geometry is x = y = 0; GTK 3: 26 px left and right,
 * 23 above, 29 below): its accessibility frame is larger than its content
 * on every side. The content's place inside the surface then comes from
 * the accessibility tree: the rectangle the frame's children fill (GTK 3:
 * the header bar and the window's child) is the visible window. When that
 * rectangle has exactly the size of sway's window_rect and lies inside
 * the surface, its corner is the shadow's offset and the window's
 * accessibility origin is its frame less that offset. Otherwise the
 * window gets no screenshot and no pointer event (CUA_CAPTURE_NO_ORIGIN,
 * E-WINDOW-UNAVAILABLE with the reason), rather than pixels and clicks
 * off by the shadow; its tree and element actions work. A frame larger
 * in one direction only is a surface cut off by its tile (no shadow): the
 * origins agree.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "core/errors.h"
#include "driver-int.h"

static struct wlr_driver *
wdrv(struct cua_display *d)
{
	return (struct wlr_driver *)d;
}

/* The virtual devices of a new connection, made now (best effort): on
 * sway a window is shown active only while a keyboard exists, and clients
 * bind a pointer late, so neither waits for its first event. */
static void
prepare_devices(struct cua_wlr *w)
{
	if (cua_wlr_has(w, CUA_WLR_KEYBOARD) &&
	    cua_wlr_keyboard_prepare(w) != CUA_OK)
		cua_error_clear();
	if (cua_wlr_has(w, CUA_WLR_POINTER) &&
	    cua_wlr_pointer_prepare(w) != CUA_OK)
		cua_error_clear();
}

/* The connection, made again when it was dropped; NULL with cua_error()
 * set when there is none. */
static struct cua_wlr *
conn(struct wlr_driver *wd)
{
	if (!wd->w) {
		if (cua_wlr_open(&wd->w, &wd->opt) != CUA_OK) {
			wd->w = NULL;
			return NULL;
		}
		cua_info(wd->base.ctx, "wlroots: connected to %s", wd->display);
		prepare_devices(wd->w);
		return wd->w;
	}
	if (!wd->w->dpy) {
		if (cua_wlr_ensure(wd->w) != CUA_OK)
			return NULL;
		cua_info(wd->base.ctx, "wlroots: connected to %s again",
			 wd->display);
		prepare_devices(wd->w);
	}
	return wd->w;
}

/* One scale for every output: it, or 0 with `why` (outputs disagree). */
static int
layout_scale(struct cua_wlr *w, char *why, size_t size)
{
	struct cua_wlr_output o[16];
	size_t n = cua_wlr_outputs(w, o, 16);
	int s = 0;

	if (n > 16)
		n = 16;
	for (size_t i = 0; i < n; i++) {
		int si = o[i].scale > 0 ? o[i].scale : 1;

		if (s && si != s) {
			if (why)
				snprintf(why, size,
					 "the outputs have different scales "
					 "(%d and %d), which this driver does "
					 "not map onto one pixel grid",
					 s, si);
			return 0;
		}
		s = si;
	}
	return s ? s : 1;
}

/*
 * Reads the windows. CUA_OK with at least the toplevels or sway's
 * windows; an error when neither can be read. With sway's IPC the
 * toplevels (one more round trip) are read only `with_toplevels`, to
 * activate a window: sway has no minimized state (it ignores the
 * request), so they add nothing else.
 */
static cua_result
wlr_view_read(struct wlr_driver *wd, struct wlr_view *v, int with_toplevels)
{
	struct cua_wlr *w = conn(wd);
	const char *sock;
	cua_result r;

	memset(v, 0, sizeof(*v));
	v->wd = wd;
	if (!w)
		return CUA_ERROR_BACKEND;
	v->scale = layout_scale(w, NULL, 0);
	sock = cua_wlr_sway_socket(w);
	if (!(sock && v->scale) || with_toplevels)
		with_toplevels = cua_wlr_has(w, CUA_WLR_TOPLEVELS);
	if (with_toplevels) {
		r = cua_wlr_toplevels(w, &v->tl, &v->n_tl);
		if (r != CUA_OK)
			return r;
	}
	if (sock && v->scale) {
		r = cua_sway_windows(sock, wd->opt.timeout_ms, &v->sw,
				     &v->n_sw);
		if (r != CUA_OK) {
			wlr_view_free(v);
			return r;
		}
		v->geometry = 1;
		v->sw_tl = calloc(v->n_sw ? v->n_sw : 1, sizeof(*v->sw_tl));
		if (!v->sw_tl) {
			wlr_view_free(v);
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
		wlr_view_pair(v);
	} else if (!cua_wlr_has(w, CUA_WLR_TOPLEVELS)) {
		return cua_error(CUA_ERROR_UNSUPPORTED, "%s",
				 cua_wlr_feature_reason(w, CUA_WLR_TOPLEVELS));
	}
	return CUA_OK;
}

/* ---- the ops ---------------------------------------------------------- */

static void
wl_destroy(struct cua_display *d)
{
	struct wlr_driver *wd = wdrv(d);

	cua_wlr_close(wd->w);
	free(wd);
}

static int
wl_reconnect(struct cua_display *d)
{
	struct wlr_driver *wd = wdrv(d);
	int had = wd->w && wd->w->dpy;

	if (!conn(wd)) {
		cua_error_clear();
		return -1;
	}
	return had ? 0 : 1;
}

static void
wl_capabilities(struct cua_display *d, struct cua_display_caps *out)
{
	struct wlr_driver *wd = wdrv(d);
	struct cua_wlr *w = conn(wd);
	char scale_why[200];
	const char *geo, *why;

	memset(out, 0, sizeof(*out));
	if (!w) {
		char msg[sizeof(out->cap[0].why)];

		snprintf(msg, sizeof(msg), "%s", cua_error_get());
		cua_error_clear();
		for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++)
			cua_display_cap_set(out, i, msg);
		return;
	}
	cua_display_cap_set(out, CUA_DISPLAY_CAP_WINDOWS,
			    cua_wlr_feature_reason(w, CUA_WLR_TOPLEVELS));
	if (!out->cap[CUA_DISPLAY_CAP_WINDOWS].ok &&
	    cua_wlr_has(w, CUA_WLR_GEOMETRY))
		/* sway's IPC lists the windows too */
		cua_display_cap_set(out, CUA_DISPLAY_CAP_WINDOWS, NULL);
	geo = cua_wlr_feature_reason(w, CUA_WLR_GEOMETRY);
	if (!geo && !layout_scale(w, scale_why, sizeof(scale_why)))
		geo = scale_why;
	cua_display_cap_set(out, CUA_DISPLAY_CAP_GEOMETRY, geo);
	/* capture and pointer need to know where the window is */
	why = cua_wlr_feature_reason(w, CUA_WLR_CAPTURE);
	cua_display_cap_set(out, CUA_DISPLAY_CAP_SCREENSHOT, why ? why : geo);
	why = cua_wlr_feature_reason(w, CUA_WLR_POINTER);
	cua_display_cap_set(out, CUA_DISPLAY_CAP_POINTER, why ? why : geo);
	cua_display_cap_set(out, CUA_DISPLAY_CAP_KEYBOARD,
			    cua_wlr_feature_reason(w, CUA_WLR_KEYBOARD));
}

static void
wl_describe(struct cua_display *d, char *display, size_t dsize, char *server,
	    size_t ssize)
{
	struct wlr_driver *wd = wdrv(d);
	struct cua_wlr *w = conn(wd);
	const char *sock = w ? cua_wlr_sway_socket(w) : NULL;
	char version[64] = "", comm[64] = "";

	snprintf(display, dsize, "%s", wd->display);
	if (sock && cua_sway_version(sock, wd->opt.timeout_ms, version,
				     sizeof(version)) == CUA_OK) {
		snprintf(server, ssize, "sway %s", version);
		return;
	}
	cua_error_clear();
	if (w)
		cua_display_proc_comm(cua_wlr_compositor_pid(w), comm,
				      sizeof(comm));
	snprintf(server, ssize, "%s", comm);
}

static cua_result
wl_list_windows(struct cua_display *d, struct cua_display_window_list **out)
{
	struct wlr_view v;
	struct cua_display_window_list *l;
	size_t n;
	cua_result r;

	*out = NULL;
	r = wlr_view_read(wdrv(d), &v, 0);
	if (r != CUA_OK)
		return r;
	n = wlr_view_count(&v);
	l = calloc(1, sizeof(*l));
	if (!l || !(l->arena = cua_arena_new()) ||
	    !(l->w = cua_arena_alloc(l->arena, (n ? n : 1) * sizeof(*l->w)))) {
		cua_display_window_list_free(l);
		wlr_view_free(&v);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	for (size_t k = 0; k < n; k++) {
		struct cua_display_window *e = &l->w[k];
		const char *title, *app_id;

		memset(e, 0, sizeof(*e));
		wlr_view_win(&v, k, &e->win, &title, &app_id, &e->focused);
		e->title = cua_arena_strdup(l->arena, title);
		e->app_id = *app_id ? cua_arena_strdup(l->arena, app_id) : NULL;
		if (v.geometry && *v.sw[k].instance) /* Xwayland's WM_CLASS */
			e->app_instance =
				cua_arena_strdup(l->arena, v.sw[k].instance);
	}
	l->n = n;
	wlr_view_free(&v);
	*out = l;
	return CUA_OK;
}

static int
is_window_role(uint32_t role)
{
	return role == CUA_ROLE_FRAME || role == CUA_ROLE_WINDOW ||
	       role == CUA_ROLE_DIALOG || role == CUA_ROLE_ALERT ||
	       role == CUA_ROLE_FILE_CHOOSER;
}

/*
 * With sway's IPC: the process's windows by equal title, then in order
 * for window roles. Without it there are no process ids: only a title
 * that one toplevel has identifies a window.
 */
static void
wl_match_toplevels(struct cua_display *d, int64_t pid,
		   const struct cua_display_toplevel_query *tops, size_t n,
		   struct cua_raw_window_info *info, struct cua_arena *arena)
{
	struct wlr_view v;
	size_t nw;
	int *used = NULL;
	ssize_t *match = NULL;

	memset(info, 0, n * sizeof(*info));
	if (n == 0 || wlr_view_read(wdrv(d), &v, 0) != CUA_OK) {
		cua_error_clear();
		return;
	}
	nw = wlr_view_count(&v);
	used = calloc(nw ? nw : 1, sizeof(*used));
	match = calloc(n, sizeof(*match));
	if (!used || !match)
		goto out;
	for (size_t k = 0; k < nw; k++)
		/* another process's window is not a candidate */
		if (v.geometry && (pid <= 0 || v.sw[k].pid != pid))
			used[k] = 1;
	for (size_t i = 0; i < n; i++) {
		size_t equal = 0;

		match[i] = -1;
		if (!tops[i].name || !tops[i].name[0])
			continue;
		for (size_t k = 0; k < nw; k++) {
			const char *t =
				v.geometry ? v.sw[k].name : v.tl[k].title;

			if (used[k] || strcmp(t, tops[i].name))
				continue;
			if (!equal++)
				match[i] = (ssize_t)k;
		}
		if (match[i] >= 0 && !v.geometry && equal > 1)
			match[i] = -1;
		if (match[i] >= 0)
			used[match[i]] = 1;
	}
	for (size_t i = 0; v.geometry && i < n; i++) {
		if (match[i] >= 0 || !is_window_role(tops[i].role))
			continue;
		for (size_t k = 0; k < nw; k++) {
			if (!used[k]) {
				match[i] = (ssize_t)k;
				used[k] = 1;
				break;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct cua_win win;
		const char *title, *app_id;
		int focused;

		if (match[i] < 0)
			continue;
		wlr_view_win(&v, (size_t)match[i], &win, &title, &app_id,
			     &focused);
		info[i].x11_window = win.window;
		info[i].x11_active = focused;
		info[i].x11_mapped = win.mapped;
		info[i].x11_title =
			arena ? cua_arena_strdup(arena, title) : NULL;
		if (v.geometry) {
			info[i].x11_frame = win.frame;
			info[i].has_x11_frame = 1;
		}
		if (tops[i].has_extents && tops[i].extents.x == 0 &&
		    tops[i].extents.y == 0 && tops[i].extents.w > 1 &&
		    tops[i].extents.h > 1) {
			int32_t ox = 0, oy = 0;
			/* an Xwayland client's extents are the layout's */
			int off = v.geometry &&
				  win.atspi_space == CUA_ATSPI_SURFACE &&
				  wlr_content_offset(&tops[i], &win.frame,
						     v.scale, &ox, &oy);

			wlr_seen_note(wdrv(d), win.window, tops[i].extents.w,
				      tops[i].extents.h, off, ox, oy);
			/* the window's facts again, with its origin */
			wlr_view_win(&v, (size_t)match[i], &win, &title,
				     &app_id, &focused);
		}
		if (v.geometry && win.origin.w > 0 &&
		    (win.origin.x != win.frame.x ||
		     win.origin.y != win.frame.y))
			info[i].x11_surface = win.origin;
	}
out:
	free(used);
	free(match);
	wlr_view_free(&v);
}

static cua_result
gone(uint64_t window)
{
	return cua_error(CUA_ERROR_NOT_FOUND, "window 0x%llx is gone",
			 (unsigned long long)window);
}

static cua_result
wl_window_query(struct cua_display *d, uint64_t window, struct cua_win *out)
{
	struct wlr_view v;
	const char *title, *app_id;
	int focused;
	ssize_t k;
	cua_result r;

	memset(out, 0, sizeof(*out));
	r = wlr_view_read(wdrv(d), &v, 0);
	if (r != CUA_OK)
		return r;
	k = wlr_view_find(&v, window);
	if (k >= 0)
		wlr_view_win(&v, (size_t)k, out, &title, &app_id, &focused);
	wlr_view_free(&v);
	return k >= 0 ? CUA_OK : gone(window);
}

static int
rect_has(const struct cua_rect *r, int32_t x, int32_t y)
{
	return x >= r->x && y >= r->y && x - r->x < r->w && y - r->y < r->h;
}

/* 1 when global point (x, y) lies on an output. */
static int
on_output(struct cua_wlr *w, int scale, int32_t x, int32_t y)
{
	struct cua_wlr_output o[16];
	size_t n = cua_wlr_outputs(w, o, 16);

	for (size_t i = 0; i < n && i < 16; i++) {
		struct cua_rect box = wlr_scaled(o[i].rect, scale);

		if (rect_has(&box, x, y))
			return 1;
	}
	return 0;
}

/* Visible sway windows in stacking order, bottom first: tiled windows of
 * the visible workspaces, then floating ones (sway's tree order). */
static cua_result
wl_window_at(struct cua_display *d, int32_t x, int32_t y, struct cua_win *out)
{
	struct wlr_driver *wd = wdrv(d);
	struct wlr_view v;
	ssize_t top = -1;
	cua_result r;

	memset(out, 0, sizeof(*out));
	r = wlr_view_read(wd, &v, 0);
	if (r != CUA_OK)
		return r;
	if (!v.geometry) {
		wlr_view_free(&v);
		return cua_error(
			CUA_ERROR_UNSUPPORTED, "%s",
			cua_wlr_feature_reason(wd->w, CUA_WLR_GEOMETRY));
	}
	if (!on_output(wd->w, v.scale, x, y)) {
		/* a part of a window wider than its output: no pointer
		 * event reaches it (the compositor keeps the pointer on
		 * the outputs) */
		wlr_view_free(&v);
		return CUA_OK;
	}
	for (size_t i = 0; i < v.n_sw; i++) {
		struct cua_rect box = wlr_scaled(v.sw[i].rect, v.scale);
		struct cua_win win;

		wlr_sway_win(&v, i, &win);
		if (!v.sw[i].visible || win.iconified)
			continue;
		/* the container (title bar, borders) and the surface */
		if (rect_has(&box, x, y) || rect_has(&win.frame, x, y))
			top = (ssize_t)i;
	}
	if (top >= 0)
		wlr_sway_win(&v, (size_t)top, out);
	wlr_view_free(&v);
	return CUA_OK;
}

static cua_result
wl_focus_window(struct cua_display *d, struct cua_win *out)
{
	struct wlr_view v;
	cua_result r;

	memset(out, 0, sizeof(*out));
	r = wlr_view_read(wdrv(d), &v, 0);
	if (r != CUA_OK)
		return r;
	for (size_t k = 0; k < wlr_view_count(&v); k++) {
		const char *title, *app_id;
		int focused;

		wlr_view_win(&v, k, out, &title, &app_id, &focused);
		if (focused)
			break;
		memset(out, 0, sizeof(*out));
	}
	wlr_view_free(&v);
	return CUA_OK;
}

/* sway's focus, polled until it holds or the time is up. */
static cua_result
sway_activate(struct wlr_driver *wd, const char *sock, int64_t con_id,
	      int timeout_ms, int *confirmed)
{
	int64_t until = cua_now_us() + (int64_t)timeout_ms * 1000;
	cua_result r = cua_sway_focus(sock, wd->opt.timeout_ms, con_id);

	while (r == CUA_OK) {
		struct cua_sway_window *sw = NULL;
		size_t n = 0;

		r = cua_sway_windows(sock, wd->opt.timeout_ms, &sw, &n);
		for (size_t i = 0; r == CUA_OK && i < n; i++)
			if (sw[i].con_id == con_id && sw[i].focused)
				*confirmed = 1;
		cua_sway_windows_free(sw, n);
		if (r != CUA_OK || *confirmed || cua_now_us() >= until)
			break;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	return r;
}

static cua_result
wl_activate_window(struct cua_display *d, uint64_t window, int timeout_ms,
		   int *confirmed)
{
	struct wlr_driver *wd = wdrv(d);
	struct wlr_view v;
	ssize_t k;
	cua_result r;

	*confirmed = 0;
	r = wlr_view_read(wd, &v, 1);
	if (r != CUA_OK)
		return r;
	k = wlr_view_find(&v, window);
	if (k < 0) {
		wlr_view_free(&v);
		return gone(window);
	}
	if (!v.geometry) {
		r = cua_wlr_toplevel_activate(wd->w, v.tl[k].id, timeout_ms,
					      confirmed);
	} else if (v.sw_tl[k] >= 0 && cua_wlr_has(wd->w, CUA_WLR_TOPLEVELS)) {
		/* the protocol's request, then sway's own word for focus */
		r = cua_wlr_toplevel_activate(wd->w, v.tl[v.sw_tl[k]].id,
					      timeout_ms, confirmed);
		if (r == CUA_OK && *confirmed) {
			*confirmed = 0;
			r = sway_activate(wd, cua_wlr_sway_socket(wd->w),
					  v.sw[k].con_id, timeout_ms,
					  confirmed);
		}
	} else {
		r = sway_activate(wd, cua_wlr_sway_socket(wd->w),
				  v.sw[k].con_id, timeout_ms, confirmed);
	}
	wlr_view_free(&v);
	return r;
}

static void
wl_shell(struct cua_display *d, struct cua_display_shell *out)
{
	struct cua_wlr *w = conn(wdrv(d));

	memset(out, 0, sizeof(*out));
	if (w)
		out->pid = cua_wlr_compositor_pid(w);
	else
		cua_error_clear();
}

/* ---- input -------------------------------------------------------------- */

static cua_result
wl_window_at(struct cua_display *d, int32_t x, int32_t y, struct cua_win *out);

/* A point may be aimed at unless it lies on a window whose content's
 * place in its surface is unknown (see the top). */
static cua_result
aim_ok(struct cua_display *d, int32_t x, int32_t y)
{
	struct cua_win win;

	if (wl_window_at(d, x, y, &win) != CUA_OK) {
		cua_error_clear(); /* the move itself will say it */
		return CUA_OK;
	}
	if (win.window && wlr_shadowed(wdrv(d), &win))
		return cua_err(CUA_MSG_NO_WINDOW_ORIGIN);
	return CUA_OK;
}

static cua_result
wl_move(void *data, int32_t x, int32_t y)
{
	struct wlr_driver *wd = data;
	int s = layout_scale(wd->w, NULL, 0);
	cua_result r = aim_ok(&wd->base, x, y);

	if (!s)
		s = 1;
	if (r != CUA_OK)
		return r;
	/* whole pixels as on X11 (an app sees the same coordinates); with a
	 * scale, the centre of the pixel in logical units */
	return cua_wlr_pointer_move(wd->w, (x + (s > 1 ? 0.5 : 0.0)) / s,
				    (y + (s > 1 ? 0.5 : 0.0)) / s);
}

static cua_result
wl_button(void *data, uint32_t code, int down)
{
	struct wlr_driver *wd = data;

	return cua_wlr_pointer_button(wd->w, code, down);
}

static cua_result
wl_wheel(void *data, int axis, int dir)
{
	struct wlr_driver *wd = data;

	return cua_wlr_pointer_scroll(wd->w, axis ? dir : 0, axis ? 0 : dir);
}

static const struct cua_pointer_sink wl_sink = {
	.move = wl_move,
	.button = wl_button,
	.wheel = wl_wheel,
	.polls_interrupt = 1,
};

/* Releases what this driver holds, after an error (best effort). */
static void
release_buttons(struct wlr_driver *wd)
{
	cua_display_pointer_release(wd->w && wd->w->dpy ? &wl_sink : NULL, wd,
				    wd->pressed);
}

/*
 * The virtual pointer has no position to read back, so `restore` cannot
 * put the pointer back: it stays where the last event left it (which the
 * user never sees on a headless desktop, and on a desktop with a real
 * pointer, the compositor keeps them apart: a virtual pointer is a
 * device of its own).
 */
static cua_result
wl_pointer(struct cua_display *d, const struct cua_pointer_event *ev, size_t n,
	   int restore)
{
	struct wlr_driver *wd = wdrv(d);
	struct cua_wlr *w = conn(wd);
	cua_result r;

	(void)restore;
	if (!w)
		return CUA_ERROR_BACKEND;
	r = cua_display_pointer_send(d, ev, n, &wl_sink, wd, wd->pressed);
	if (r != CUA_OK)
		release_buttons(wd);
	else
		r = cua_wlr_roundtrip(w);
	return r;
}

/*
 * Nothing is kept to undo: a Wayland client gets a new keymap in order
 * with the keys that follow it (keyboard.c), so a key is translated with
 * the keymap it was sent with, whenever the app reads it, and the
 * virtual keyboard's keymap only grows until its spare keys are used up.
 */
static cua_result
wl_keys(struct cua_display *d, const struct cua_key_chord *chords, size_t n,
	int keymap_delay_ms, const struct cua_display_sync *sync, int *kept)
{
	struct wlr_driver *wd = wdrv(d);
	struct cua_wlr *w = conn(wd);
	cua_result r;

	(void)sync;
	if (kept)
		*kept = 0;
	if (!w)
		return CUA_ERROR_BACKEND;
	if (keymap_delay_ms > 0)
		w->opt.keymap_delay_ms = keymap_delay_ms;
	cua_wlr_set_interrupt(w, d->interrupt, d->interrupt_data);
	r = cua_wlr_keys(w, chords, n);
	cua_wlr_set_interrupt(w, NULL, NULL);
	return r;
}

static cua_result
wl_keys_restore(struct cua_display *d)
{
	(void)d;
	return CUA_OK;
}

/* ---- capture ------------------------------------------------------------ */

/*
 * The pixels of window content `lr` (logical) at `s` buffer pixels per
 * logical pixel, as one image of the whole content: a window wider or
 * taller than its output keeps its frame, so the image, the element
 * frames and screenshot pixels keep one origin. Each output under it
 * gives its part; the parts on no output are black (no pointer event
 * reaches them: wl_window_at). CUA_ERROR_INVALID_ARGUMENT when no part
 * is on an output.
 */
static cua_result
capture_frame(struct cua_wlr *w, const struct cua_rect *lr, int s,
	      struct cua_wlr_shot *out, uint64_t *stamp)
{
	struct cua_wlr_output o[16];
	size_t n = cua_wlr_outputs(w, o, 16), parts = 0;
	struct cua_wlr_shot part;
	size_t row = (size_t)lr->w * (size_t)s * 4;
	cua_result r;

	memset(out, 0, sizeof(*out));
	*stamp = 0;
	for (size_t i = 0; i < n && i < 16; i++) {
		struct cua_rect q = o[i].rect, in;

		in.x = lr->x > q.x ? lr->x : q.x;
		in.y = lr->y > q.y ? lr->y : q.y;
		in.w = (lr->x + lr->w < q.x + q.w ? lr->x + lr->w : q.x + q.w) -
		       in.x;
		in.h = (lr->y + lr->h < q.y + q.h ? lr->y + lr->h : q.y + q.h) -
		       in.y;
		if (in.w <= 0 || in.h <= 0)
			continue;
		if (parts == 0 && in.x == lr->x && in.y == lr->y &&
		    in.w == lr->w && in.h == lr->h)
			/* wholly on one output: its pixels as they come,
			 * watched for damage from now on */
			return cua_wlr_capture_watched(w, lr, out, stamp);
		r = cua_wlr_capture(w, &in, 0, &part);
		if (r == CUA_OK && (part.px.width != (uint32_t)(in.w * s) ||
				    part.px.height != (uint32_t)(in.h * s) ||
				    (parts && (part.format != out->format))))
			r = cua_error(CUA_ERROR_BACKEND,
				      "the outputs under the window gave "
				      "pixels of different scales or formats");
		if (r == CUA_OK && !parts) {
			*out = part;
			out->px.data = calloc(row, (size_t)lr->h * s);
			if (!out->px.data)
				r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			out->px.stride = row;
			out->px.width = (uint32_t)(lr->w * s);
			out->px.height = (uint32_t)(lr->h * s);
			out->rect = *lr;
			out->capture_us = 0;
		}
		if (r != CUA_OK) {
			free(part.px.data);
			free(out->px.data);
			memset(out, 0, sizeof(*out));
			return r;
		}
		for (uint32_t y = 0; y < part.px.height; y++)
			memcpy(out->px.data +
				       row * ((size_t)(in.y - lr->y) * s + y) +
				       (size_t)(in.x - lr->x) * s * 4,
			       part.px.data + part.px.stride * y,
			       part.px.width * 4);
		out->capture_us += part.capture_us;
		free(part.px.data);
		parts++;
	}
	if (!parts)
		return cua_error(
			CUA_ERROR_INVALID_ARGUMENT,
			"the window %dx%d at %d,%d is off every screen", lr->w,
			lr->h, lr->x, lr->y);
	return CUA_OK;
}

static cua_result
wl_capture(struct cua_display *d, const struct cua_capture_request *req,
	   struct cua_capture **out, enum cua_capture_status *status)
{
	struct wlr_driver *wd = wdrv(d);
	struct wlr_view v;
	struct cua_win win;
	struct cua_wlr_shot shot;
	struct cua_rect lr;
	struct cua_capture *c;
	const char *title, *app_id;
	int focused, s;
	int64_t t0;
	uint64_t stamp = 0;
	ssize_t k;
	cua_result r;

	*out = NULL;
	*status = CUA_CAPTURE_COMPOSITOR_FAILED;
	r = wlr_view_read(wd, &v, 0);
	if (r != CUA_OK)
		return r;
	if (!v.geometry || !cua_wlr_has(wd->w, CUA_WLR_CAPTURE)) {
		/* the capabilities say why; the core asks them first */
		wlr_view_free(&v);
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "no window capture on this desktop");
	}
	k = wlr_view_find(&v, req->window);
	if (k < 0) {
		wlr_view_free(&v);
		*status = CUA_CAPTURE_NOT_LISTED;
		return gone(req->window);
	}
	wlr_view_win(&v, (size_t)k, &win, &title, &app_id, &focused);
	s = v.scale;
	lr.x = win.frame.x / s;
	lr.y = win.frame.y / s;
	lr.w = win.frame.w / s;
	lr.h = win.frame.h / s;
	/* a window covered by another is captured with what covers it, as
	 * on an X server without Composite */
	if (win.iconified || !win.mapped || wlr_shadowed(wd, &win)) {
		*status = win.iconified ? CUA_CAPTURE_MINIMIZED :
			  !win.mapped   ? CUA_CAPTURE_HIDDEN :
					  CUA_CAPTURE_NO_ORIGIN;
		wlr_view_free(&v);
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "the window cannot be captured");
	}
	wlr_view_free(&v);
	if (req->timeout_ms > 0)
		wd->w->opt.capture_timeout_ms = req->timeout_ms;
	t0 = cua_now_us();
	if (req->unchanged_since) {
		/* nothing drawn over the same rectangle since: the frame and
		 * surface are the window's now, for the core to compare */
		int same = 0;

		r = cua_wlr_unchanged(wd->w, &lr, req->unchanged_since, &same);
		if (r != CUA_OK) {
			*status = CUA_CAPTURE_COMPOSITOR_FAILED;
			return r;
		}
		if (same) {
			c = calloc(1, sizeof(*c));
			if (!c)
				return cua_error(CUA_ERROR_NOMEM,
						 "out of memory");
			c->frame = win.frame;
			c->window = win.origin;
			c->capture_us = cua_now_us() - t0;
			c->route = CUA_CAPTURE_COMPOSITE;
			c->stamp = req->unchanged_since;
			c->unchanged = 1;
			*status = CUA_CAPTURE_OK;
			*out = c;
			return CUA_OK;
		}
	}
	r = capture_frame(wd->w, &lr, s, &shot, &stamp);
	if (r != CUA_OK) {
		/* a compositor that did not answer in time is dropped with
		 * CUA_ERROR_BACKEND like one that went away: the time says
		 * which */
		*status =
			r == CUA_ERROR_INVALID_ARGUMENT ?
				CUA_CAPTURE_OFFSCREEN :
			r == CUA_ERROR_TIMEOUT ||
					cua_now_us() - t0 >=
						wd->w->opt.capture_timeout_ms *
							INT64_C(1000) ?
				CUA_CAPTURE_TIMEOUT :
				CUA_CAPTURE_COMPOSITOR_FAILED;
		return r;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		free(shot.px.data);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	c->px = shot.px;
	c->frame = win.frame;
	c->window = win.origin;
	c->capture_us = shot.capture_us;
	c->route = CUA_CAPTURE_COMPOSITE;
	c->stamp = stamp;
	*status = CUA_CAPTURE_OK;
	*out = c;
	return CUA_OK;
}

/* ---- the desktop around the apps ------------------------------------ */

static size_t
wl_launch_env(struct cua_display *d, const char **names, const char **values,
	      size_t max)
{
	struct wlr_driver *wd = wdrv(d);

	if (max < 1 || !wd->display[0])
		return 0;
	names[0] = "WAYLAND_DISPLAY";
	values[0] = wd->display;
	return 1;
}

static const struct cua_display_ops wlr_ops = {
	.name = "wlroots",
	.destroy = wl_destroy,
	.capabilities = wl_capabilities,
	.reconnect = wl_reconnect,
	.describe = wl_describe,
	.list_windows = wl_list_windows,
	.match_toplevels = wl_match_toplevels,
	.match_wants_content = 1,
	.window_query = wl_window_query,
	.window_at = wl_window_at,
	.focus_window = wl_focus_window,
	.activate_window = wl_activate_window,
	.shell = wl_shell,
	.pointer = wl_pointer,
	.keys = wl_keys,
	.keys_restore = wl_keys_restore,
	.capture = wl_capture,
	.launch_env = wl_launch_env,
};

cua_result
cua_display_wlroots_open(struct cua_ctx *ctx, const struct cua_wlr_options *opt,
			 struct cua_display **out)
{
	struct wlr_driver *wd = calloc(1, sizeof(*wd));
	const char *name;

	*out = NULL;
	if (!wd)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	wd->base.ops = &wlr_ops;
	wd->base.ctx = ctx;
	if (opt)
		wd->opt = *opt;
	else
		cua_wlr_options_default(&wd->opt);
	wd->opt.ctx = ctx;
	name = wd->opt.display ? wd->opt.display :
				 secure_getenv("WAYLAND_DISPLAY");
	snprintf(wd->display, sizeof(wd->display), "%s", name ? name : "");
	if (!wd->display[0]) {
		free(wd);
		return cua_error(CUA_ERROR_BACKEND,
				 "WAYLAND_DISPLAY is not set: the wlroots "
				 "display driver needs a Wayland compositor");
	}
	wd->opt.display = wd->display;
	/* a compositor that does not answer yet: the capabilities say so,
	 * and every call tries again */
	if (!conn(wd)) {
		cua_debug(ctx, "wlroots: %s", cua_error_get());
		cua_error_clear();
	}
	*out = &wd->base;
	return CUA_OK;
}

cua_result
cua_display_wlroots_new(struct cua_ctx *ctx, struct cua_display **out)
{
	return cua_display_wlroots_open(ctx, NULL, out);
}

int
cua_display_wlroots_probe(const struct cua_display_env *env, char *why,
			  size_t size)
{
	struct cua_wlr_options opt;
	struct cua_wlr *w = NULL;
	int ok = 0;

	cua_wlr_options_default(&opt);
	opt.display = env->wayland_display;
	opt.warmup_ms = -1;
	if (!env->wayland_display || !*env->wayland_display) {
		snprintf(why, size, "WAYLAND_DISPLAY is not set");
		return 0;
	}
	if (cua_wlr_open(&w, &opt) != CUA_OK) {
		snprintf(why, size, "%s", cua_error_get());
		cua_error_clear();
		return 0;
	}
	/* the protocols only wlroots compositors offer */
	ok = cua_wlr_has(w, CUA_WLR_TOPLEVELS) ||
	     cua_wlr_has(w, CUA_WLR_CAPTURE) || cua_wlr_has(w, CUA_WLR_POINTER);
	if (!ok)
		snprintf(why, size,
			 "the compositor offers none of the wlroots protocols "
			 "(foreign-toplevel management, screencopy, virtual "
			 "pointer)");
	cua_wlr_close(w);
	return ok;
}
