/*
 * Pointer input: a synthetic click at an element's centre (docs/actions.md
 * §3 route 7), screenshot pixels to screen points (§2), click at a
 * point and drag (§6).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "core/caps.h"
#include "core/frames.h"
#include "core/geometry.h"
#include "core/sanitize.h"
#include "core/strbuf.h"

/* the deepest ancestor chain checked for a move (core/frames.h) */
#define CHAIN_MAX 128

/* Where a subtree measured from another origin lies now (core/frames.h):
 * when the observation moved elements of this window, the live ancestors'
 * extents decide whether the node's still need the move; else the
 * observation's move for the element (0 for every other toolkit). */
static void
live_shift(struct cua_act *a, const struct cua_located *loc,
	   const struct cua_raw_node *n, int32_t *sx, int32_t *sy)
{
	struct cua_raw_node *chain[CHAIN_MAX];
	const struct cua_raw_node *p;
	size_t k = 0, depth = 0;
	int32_t ox, oy;

	*sx = loc->element ? loc->element->shift_x : 0;
	*sy = loc->element ? loc->element->shift_y : 0;
	if (!loc->element || !loc->window ||
	    !cua_frames_moved(loc->element->tree, &ox, &oy) ||
	    !a->b->ops->read_nodes)
		return;
	for (p = n; p && p != loc->window; p = p->parent)
		depth++;
	if (!p || depth + 1 > CHAIN_MAX)
		return;
	k = depth + 1;
	p = n;
	for (size_t i = k; i-- > 0; p = p->parent)
		chain[i] = (struct cua_raw_node *)p;
	/* the window and the node were read with their extents */
	if (k > 2 && a->b->ops->read_nodes(a->b, loc->snap, chain + 1, k - 2,
					   CUA_HAVE_EXTENTS) != CUA_OK)
		return;
	cua_frames_chain_shift((const struct cua_raw_node *const *)chain, k, ox,
			       oy, sx, sy);
}

/* The live root pixel of a node's centre (docs/actions.md §2.1;
 * docs/screenshots.md §3): through the screenshot geometry when the observation
 * has one for this window, else through X11 origin - accessibility window
 * origin. */
static int
center_root(struct cua_act *a, const struct cua_located *loc,
	    const struct cua_raw_node *n, int32_t *rx, int32_t *ry,
	    struct cua_win *win)
{
	const struct cua_raw_node *w = loc->window;
	struct cua_geom_window gw;
	struct cua_shot_geom g;
	struct cua_rect e;
	int32_t sx, sy;

	if (!cua_raw_has_extent(n) || !loc->x11_window ||
	    !a->b->ops->window_query ||
	    a->b->ops->window_query(a->b, loc->x11_window, win) != CUA_OK)
		return -1;
	live_shift(a, loc, n, &sx, &sy);
	if (!w || !(w->have & CUA_HAVE_EXTENTS)) {
		*rx = n->extents.x + sx + n->extents.w / 2;
		*ry = n->extents.y + sy + n->extents.h / 2;
		return 0;
	}
	/* window-relative, as the tree's frames; then the screenshot rule
	 * (docs/screenshots.md §3) on the live window: where the accessibility
	 * window's origin lies in the frame (0 for Qt and Firefox, the
	 * shadows for Chromium, the window manager's title bar for GTK3
	 * under a reparenting manager, GTK4's resize margin) */
	e.x = n->extents.x - w->extents.x + sx;
	e.y = n->extents.y - w->extents.y + sy;
	e.w = n->extents.w;
	e.h = n->extents.h;
	memset(&g, 0, sizeof(g));
	g.x11_window = loc->x11_window;
	g.frame = win->frame;
	g.device_ppp = a->t->has_shot && a->t->shot.device_ppp > 0 ?
			       a->t->shot.device_ppp :
			       1;
	g.ppp = 1;
	gw.frame = win->frame;
	gw.surface = win->origin;
	gw.outer = win->outer;
	cua_geom_element_origin(&w->extents, &gw, g.device_ppp, &g.elem_dx,
				&g.elem_dy);
	cua_geom_element_center_to_root(&g, win->frame.x, win->frame.y, &e, rx,
					ry);
	return 0;
}

cua_result
act_reach_center(struct cua_act *a, const struct cua_located *loc,
		 const struct cua_raw_node *n, int32_t *rx, int32_t *ry)
{
	struct cua_win win;

	if (center_root(a, loc, n, rx, ry, &win) < 0)
		return act_window_unavailable(a, UNAV_HIDDEN);
	return act_point_ok(a, loc->x11_window, *rx, *ry, *rx - win.frame.x,
			    *ry - win.frame.y);
}

cua_result
act_send_pointer(struct cua_act *a, const struct cua_pointer_event *ev,
		 size_t n)
{
	if (!a->b->ops->pointer)
		return act_unsupported(a);
	return a->b->ops->pointer(a->b, ev, n, a->s->ctx.opt.restore_pointer);
}

cua_result
act_click_at_root(struct cua_act *a, int32_t rx, int32_t ry, uint32_t button,
		  uint32_t count)
{
	struct cua_pointer_event ev[1 + 2 * 500];
	size_t n = 0;

	ev[n++] = (struct cua_pointer_event){ CUA_POINTER_MOVE, rx, ry, 0 };
	for (uint32_t i = 0; i < count && i < 500; i++) {
		ev[n++] = (struct cua_pointer_event){ CUA_POINTER_PRESS, 0, 0,
						      button };
		ev[n++] = (struct cua_pointer_event){ CUA_POINTER_RELEASE, 0, 0,
						      button };
	}
	return act_send_pointer(a, ev, n);
}

/* After ScrollTo: waits until the element's extents have left `before`
 * and then kept still for 600 ms, at most 2 s. Chromium reports the new
 * positions in batches up to about 550 ms apart, and one of them can be
 * a position the element only passed through (measured: off-screen
 * above, then 84 px too low, then where it is); a click at the extents
 * read at once lands where the element was. */
static cua_result
settle_scrolled(struct cua_act *a, struct cua_located *loc,
		struct cua_raw_node *n, struct cua_rect before)
{
	int64_t t0 = cua_now_us(), still = t0;
	int moved = 0;

	for (;;) {
		cua_result r = act_reread(a, loc, n, CUA_HAVE_EXTENTS);
		int64_t now = cua_now_us();

		if (r != CUA_OK)
			return r;
		if (n->extents.x != before.x || n->extents.y != before.y ||
		    n->extents.w != before.w || n->extents.h != before.h) {
			before = n->extents;
			moved = 1;
			still = now;
		} else if (moved && now - still >= 600000) {
			return CUA_OK;
		}
		if (now - t0 >= 2000000)
			return CUA_OK;
		usleep(30000);
	}
}

/* Route 7: a synthetic click at the element's centre (docs/actions.md §3
 * route 7). */
cua_result
act_synthetic_click(struct cua_act *a, struct cua_located *loc,
		    struct cua_raw_node *n, uint32_t button, uint32_t count)
{
	int32_t rx, ry;
	int ok;
	cua_result r;

	if (!cua_raw_has_extent(n))
		return cua_err(CUA_MSG_NO_POSITION,
			       { "id", CUA_NUM("%u", a->element) },
			       { "role", loc->element->role_text });
	/* outside the visible part of its window: scroll it into view */
	if (loc->window && (loc->window->have & CUA_HAVE_EXTENTS) &&
	    (n->extents.x + n->extents.w / 2 < loc->window->extents.x ||
	     n->extents.y + n->extents.h / 2 < loc->window->extents.y ||
	     n->extents.x + n->extents.w / 2 >=
		     loc->window->extents.x + loc->window->extents.w ||
	     n->extents.y + n->extents.h / 2 >=
		     loc->window->extents.y + loc->window->extents.h)) {
		struct cua_rect before = n->extents;

		r = act_ask(a, CUA_LIVE_SCROLL_TO, n->ident, 0, 0, 0, &ok);
		if (r != CUA_OK)
			return r;
		r = settle_scrolled(a, loc, n, before);
		if (r != CUA_OK)
			return r;
		if (!cua_raw_has_extent(n))
			return cua_err(CUA_MSG_NOT_ON_SCREEN,
				       { "id", CUA_NUM("%u", a->element) },
				       { "role", loc->element->role_text });
	}
	r = act_reach_center(a, loc, n, &rx, &ry);
	if (r != CUA_OK)
		return r;
	r = act_click_at_root(a, rx, ry, button, count);
	if (r == CUA_OK)
		cua_act_route(a, "synthetic");
	return r;
}

/* ------------------------------------------------------------------ */
/* Coordinates (docs/actions.md §2)                                    */

/* The geometry of the last observation's screenshot; without one, the
 * window's frame at 1 pixel per point. */
cua_result
act_shot_geometry(struct cua_act *a, struct cua_shot_geom *g)
{
	const struct cua_tree *t = a->t;
	struct strbuf reason = STRBUF_INIT;
	const char *why = cua_shot_reason(a->b, CUA_CAPTURE_UNIDENTIFIED);
	cua_result r;

	if (t->has_shot) {
		*g = t->shot;
		if (g->ppp <= 0)
			g->ppp = 1;
		if (g->device_ppp <= 0)
			g->device_ppp = 1;
		return CUA_OK;
	}
	if (t->x11_window && t->has_window_frame && !t->shot_error) {
		memset(g, 0, sizeof(*g));
		g->x11_window = t->x11_window;
		g->frame = t->window_frame;
		g->device_ppp = 1;
		g->ppp = 1;
		g->width =
			(uint32_t)(t->window_frame.w > 0 ? t->window_frame.w :
							   0);
		g->height =
			(uint32_t)(t->window_frame.h > 0 ? t->window_frame.h :
							   0);
		return CUA_OK;
	}
	if (t->shot_error)
		why = t->shot_error;
	else if (cua_caps_shot_error_sb(a->b, &reason))
		why = sb_str(&reason);
	r = cua_err(CUA_MSG_NO_SCREENSHOT, { "name", cua_act_app_name(a) },
		    { "reason", why });
	sb_free(&reason);
	return r;
}

/*
 * A driver that knows windows only from the accessibility tree (mutter:
 * the toplevels it was shown) does not know the window of a screenshot
 * taken by another process (the CLI's `--at`) until this process read the
 * app's toplevels: read them once and ask again. 1 when the window is
 * known then.
 */
static int
query_after_read(struct cua_act *a, uint64_t window, struct cua_win *w)
{
	struct cua_raw_snapshot *snap = NULL;

	cua_error_clear();
	if (!a->b->ops->open_app ||
	    a->b->ops->open_app(a->b, a->app, &snap) != CUA_OK) {
		cua_error_clear();
		return 0;
	}
	cua_raw_snapshot_free(snap);
	if (a->b->ops->window_query(a->b, window, w) != CUA_OK) {
		cua_error_clear();
		return 0;
	}
	return 1;
}

/* docs/actions.md §2.2 items 1–4 for pixel (px, py); fills the root pixel. */
cua_result
act_map_pixel(struct cua_act *a, const struct cua_shot_geom *g, double px,
	      double py, int32_t *rx, int32_t *ry)
{
	struct cua_win w;
	double wp, hp, wp2, hp2;

	if (!isfinite(px) || !isfinite(py) ||
	    !cua_geom_pixel_in_image(g, px, py)) {
		return cua_err(CUA_MSG_OUT_OF_BOUNDS,
			       { "x", CUA_NUM("%g", px) },
			       { "y", CUA_NUM("%g", py) },
			       { "name", cua_act_app_name(a) },
			       { "w", CUA_NUM("%u", g->width) },
			       { "h", CUA_NUM("%u", g->height) });
	}
	if (!a->b->ops->window_query)
		return act_unsupported(a);
	wp = g->frame.w / g->device_ppp;
	hp = g->frame.h / g->device_ppp;
	if (a->b->ops->window_query(a->b, g->x11_window, &w) != CUA_OK &&
	    !query_after_read(a, g->x11_window, &w))
		return cua_err(CUA_MSG_WINDOW_CLOSED,
			       { "name", cua_act_app_name(a) });
	wp2 = w.frame.w / g->device_ppp;
	hp2 = w.frame.h / g->device_ppp;
	if (fabs(wp2 - wp) > 1 || fabs(hp2 - hp) > 1)
		return cua_err(CUA_MSG_WINDOW_CHANGED,
			       { "name", cua_act_app_name(a) },
			       { "w", CUA_NUM("%g", round(wp)) },
			       { "h", CUA_NUM("%g", round(hp)) },
			       { "w2", CUA_NUM("%g", round(wp2)) },
			       { "h2", CUA_NUM("%g", round(hp2)) });
	if (w.iconified)
		return act_window_unavailable(a, UNAV_MINIMIZED);
	if (!w.mapped)
		return act_window_unavailable(a, UNAV_HIDDEN);
	cua_geom_pixel_to_root(g, w.frame.x, w.frame.y, px, py, rx, ry);
	return CUA_OK;
}

cua_result
act_begin_at(struct cua_act *a, struct cua_session *s, const char *tool,
	     const char *app, double px, double py, struct cua_shot_geom *g,
	     int32_t *rx, int32_t *ry)
{
	cua_result r;

	if (!isfinite(px) || !isfinite(py)) {
		memset(a, 0, sizeof(*a));
		return cua_err(CUA_MSG_BAD_X, { "tool", tool });
	}
	r = cua_act_begin(a, s, tool, app);
	if (r == CUA_OK)
		r = act_shot_geometry(a, g);
	if (r == CUA_OK)
		r = act_map_pixel(a, g, px, py, rx, ry);
	if (r == CUA_OK)
		r = act_point_ok(a, g->x11_window, *rx, *ry, px, py);
	return r;
}

void
act_note_point(struct cua_act *a, double px, double py, int32_t rx, int32_t ry)
{
	json_object_set_new(a->outcome, "point",
			    json_pack("{s:f,s:f,s:i,s:i}", "x", px, "y", py,
				      "root_x", rx, "root_y", ry));
}

cua_result
cua_do_click_at(struct cua_session *s, const char *app, double x, double y,
		uint32_t button, uint32_t count, char **outcome)
{
	struct cua_act a;
	struct cua_shot_geom g;
	int32_t rx, ry;
	cua_result r;

	r = act_check_button(button, count, "click");
	if (r != CUA_OK)
		return r;
	r = act_begin_at(&a, s, "click", app, x, y, &g, &rx, &ry);
	if (r == CUA_OK)
		r = act_click_at_root(&a, rx, ry, button, count);
	if (r == CUA_OK) {
		cua_act_route(&a, "synthetic");
		json_object_set_new(a.outcome, "click_count",
				    json_integer(count));
		act_note_point(&a, x, y, rx, ry);
	}
	return act_finish(&a, r, outcome);
}

cua_result
cua_do_drag(struct cua_session *s, const char *app, double x1, double y1,
	    double x2, double y2, char **outcome)
{
	struct cua_act a;
	struct cua_shot_geom g;
	int32_t sx, sy, ex, ey;
	struct cua_pointer_event ev[6];
	cua_result r;

	if (!isfinite(x1) || !isfinite(y1) || !isfinite(x2) || !isfinite(y2))
		return cua_err(CUA_MSG_BAD_FROM_X);
	r = cua_act_begin(&a, s, "drag", app);
	if (r == CUA_OK)
		r = act_shot_geometry(&a, &g);
	if (r == CUA_OK)
		r = act_map_pixel(&a, &g, x1, y1, &sx, &sy);
	if (r == CUA_OK)
		r = act_map_pixel(&a, &g, x2, y2, &ex, &ey);
	/* the start point must belong to the target; the end may lie over
	 * another window (the implicit grab keeps the gesture bound) */
	if (r == CUA_OK)
		r = act_point_ok(&a, g.x11_window, sx, sy, x1, y1);
	if (r == CUA_OK) {
		/* preparation, then the five events of docs/actions.md §6 */
		ev[0] = (struct cua_pointer_event){ CUA_POINTER_MOVE, sx, sy,
						    0 };
		ev[1] = (struct cua_pointer_event){ CUA_POINTER_PRESS, 0, 0,
						    1 };
		ev[2] = (struct cua_pointer_event){ CUA_POINTER_MOVE, sx, sy,
						    0 };
		ev[3] = (struct cua_pointer_event){
			CUA_POINTER_MOVE, (int32_t)lround((sx + ex) / 2.0),
			(int32_t)lround((sy + ey) / 2.0), 0
		};
		ev[4] = (struct cua_pointer_event){ CUA_POINTER_MOVE, ex, ey,
						    0 };
		ev[5] = (struct cua_pointer_event){ CUA_POINTER_RELEASE, 0, 0,
						    1 };
		r = act_send_pointer(&a, ev, 6);
	}
	if (r == CUA_OK)
		cua_act_route(&a, "synthetic");
	return act_finish(&a, r, outcome);
}
