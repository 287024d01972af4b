/*
 * The wlroots driver's view of the windows (driver-int.h): sway's windows
 * paired with the foreign toplevels, their facts as cua_win, and the
 * accessibility frames seen, which place a client-side shadow.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "driver-int.h"

void
wlr_view_free(struct wlr_view *v)
{
	cua_sway_windows_free(v->sw, v->n_sw);
	cua_wlr_toplevels_free(v->tl, v->n_tl);
	free(v->sw_tl);
	memset(v, 0, sizeof(*v));
}

/* The sway window of each toplevel: same app id and title, in order. */
void
wlr_view_pair(struct wlr_view *v)
{
	int *used = calloc(v->n_tl ? v->n_tl : 1, sizeof(*used));

	for (size_t i = 0; i < v->n_sw; i++) {
		v->sw_tl[i] = -1;
		for (size_t j = 0; used && j < v->n_tl; j++) {
			if (used[j] ||
			    strcmp(v->tl[j].app_id, v->sw[i].app_id) ||
			    strcmp(v->tl[j].title, v->sw[i].name))
				continue;
			v->sw_tl[i] = (ssize_t)j;
			used[j] = 1;
			break;
		}
	}
	free(used);
}

struct cua_rect
wlr_scaled(struct cua_rect r, int s)
{
	r.x *= s;
	r.y *= s;
	r.w *= s;
	r.h *= s;
	return r;
}

/* The index of `window` among the accessibility frames seen, or -1. */
ssize_t
wlr_seen_find(const struct wlr_driver *wd, uint64_t window)
{
	for (size_t i = 0; wd && i < sizeof(wd->seen) / sizeof(wd->seen[0]);
	     i++)
		if (wd->seen[i].window == window)
			return (ssize_t)i;
	return -1;
}

/* Facts of sway window i (the top of driver.c explains the frame). */
void
wlr_sway_win(const struct wlr_view *v, size_t i, struct cua_win *out)
{
	const struct cua_sway_window *s = &v->sw[i];
	const struct cua_wlr_toplevel *t =
		v->sw_tl[i] >= 0 ? &v->tl[v->sw_tl[i]] : NULL;
	ssize_t k;

	memset(out, 0, sizeof(*out));
	out->window = WLR_H_SWAY | ((uint64_t)s->con_id & WLR_H_MASK);
	out->pid = s->pid;
	cua_display_proc_comm(out->pid, out->process, sizeof(out->process));
	/* sway's IPC gives no offset of the content inside the surface
	 * (its geometry is x = y = 0): the surface starts at the content
	 * unless the accessibility tree showed a shadow's offset, and
	 * wlr_shadowed() checks that against AT-SPI */
	out->frame = wlr_scaled(s->content, v->scale);
	out->origin = out->frame;
	k = wlr_seen_find(v->wd, out->window);
	if (k >= 0 && v->wd->seen[k].offset) {
		out->origin.x -= v->wd->seen[k].ox * v->scale;
		out->origin.y -= v->wd->seen[k].oy * v->scale;
		out->origin.w = v->wd->seen[k].w * v->scale;
		out->origin.h = v->wd->seen[k].h * v->scale;
	}
	out->iconified = t && t->minimized;
	out->mapped = s->visible && !out->iconified;
	/* an Xwayland client knows where sway put its window: its toolkit
	 * reports root coordinates, which are the layout's */
	out->atspi_space = strcmp(s->shell, "xwayland") == 0 ?
				   CUA_ATSPI_GLOBAL :
				   CUA_ATSPI_SURFACE;
	out->scale = v->scale;
}

/* Facts of toplevel j when there is no geometry. */
static void
wlr_toplevel_win(const struct wlr_view *v, size_t j, struct cua_win *out)
{
	memset(out, 0, sizeof(*out));
	out->window = WLR_H_TOPLEVEL | v->tl[j].id;
	out->iconified = v->tl[j].minimized;
	out->mapped = !out->iconified;
	out->atspi_space = CUA_ATSPI_SURFACE;
	out->scale = v->scale ? v->scale : 1;
}

/* Number of windows of the view, and the facts of window k. */
size_t
wlr_view_count(const struct wlr_view *v)
{
	return v->geometry ? v->n_sw : v->n_tl;
}

void
wlr_view_win(const struct wlr_view *v, size_t k, struct cua_win *out,
	     const char **title, const char **app_id, int *focused)
{
	if (v->geometry) {
		wlr_sway_win(v, k, out);
		*title = v->sw[k].name;
		*app_id = v->sw[k].app_id;
		*focused = v->sw[k].focused;
	} else {
		wlr_toplevel_win(v, k, out);
		*title = v->tl[k].title;
		*app_id = v->tl[k].app_id;
		*focused = v->tl[k].activated;
	}
}

/* The view index of handle `h`, or -1. */
ssize_t
wlr_view_find(const struct wlr_view *v, uint64_t h)
{
	if (v->geometry && (h & WLR_H_SWAY)) {
		for (size_t i = 0; i < v->n_sw; i++)
			if (((uint64_t)v->sw[i].con_id & WLR_H_MASK) ==
			    (h & WLR_H_MASK))
				return (ssize_t)i;
	} else if (!v->geometry && (h & WLR_H_TOPLEVEL)) {
		for (size_t j = 0; j < v->n_tl; j++)
			if (v->tl[j].id == (h & WLR_H_MASK))
				return (ssize_t)j;
	}
	return -1;
}

/* Remembers the size of a window's accessibility frame and, offset = 1,
 * where its content starts inside it. */
void
wlr_seen_note(struct wlr_driver *wd, uint64_t window, int32_t w, int32_t h,
	      int offset, int32_t ox, int32_t oy)
{
	size_t n = sizeof(wd->seen) / sizeof(wd->seen[0]), i;

	for (i = 0; i < n - 1 && wd->seen[i].window != window; i++)
		;
	memmove(&wd->seen[1], &wd->seen[0], i * sizeof(wd->seen[0]));
	wd->seen[0].window = window;
	wd->seen[0].w = w;
	wd->seen[0].h = h;
	wd->seen[0].offset = offset;
	wd->seen[0].ox = ox;
	wd->seen[0].oy = oy;
}

/* 1 when the window's accessibility frame is larger than its content on
 * every side and the content's place in it is unknown: a client-side
 * shadow of unknown size (the top of driver.c). */
int
wlr_shadowed(const struct wlr_driver *wd, const struct cua_win *win)
{
	int s = win->scale > 0 ? (int)win->scale : 1;
	ssize_t i = wlr_seen_find(wd, win->window);

	return i >= 0 && !wd->seen[i].offset &&
	       wd->seen[i].w * s > win->frame.w &&
	       wd->seen[i].h * s > win->frame.h;
}

/*
 * Where the content of a window (sway's window_rect, `frame` in global
 * units) starts inside the surface of a toplevel query (logical pixels):
 * 1 with *ox, *oy when the surface is larger than the content both ways
 * and the rectangle its children fill has the content's exact size and
 * lies inside it (the top of driver.c); 0 otherwise.
 */
int
wlr_content_offset(const struct cua_display_toplevel_query *q,
		   const struct cua_rect *frame, int s, int32_t *ox,
		   int32_t *oy)
{
	const struct cua_rect *e = &q->extents, *c = &q->content;

	if (!q->has_extents || !q->has_content || e->w * s <= frame->w ||
	    e->h * s <= frame->h)
		return 0;
	if (c->w * s != frame->w || c->h * s != frame->h || c->x < e->x ||
	    c->y < e->y || c->x + c->w > e->x + e->w ||
	    c->y + c->h > e->y + e->h)
		return 0;
	*ox = c->x - e->x;
	*oy = c->y - e->y;
	return 1;
}
