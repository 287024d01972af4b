/*
 * scroll (docs/actions.md §5) by element and at a point, and the scroll
 * secondary actions (§8.2): the Value route on a scroll bar, else the
 * wheel.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common.h"
#include "core/sanitize.h"
#include "core/strbuf.h"

static int
is_gtk(const struct cua_app_info *app)
{
	return app->toolkit && strcasecmp(app->toolkit, "GTK") == 0;
}

static int
is_qt(const struct cua_app_info *app)
{
	return cua_toolkit_is_qt(app->toolkit);
}

/* +1 for the directions that make positions grow (down, right), -1 for
 * the others */
static int
dir_sign(enum dir d)
{
	return (d == DIR_DOWN || d == DIR_RIGHT) ? 1 : -1;
}

int
act_parse_direction(const char *d, enum dir *out)
{
	static const struct {
		const char *a, *b;
		enum dir d;
	} map[] = {
		{ "up", "u", DIR_UP },
		{ "down", "d", DIR_DOWN },
		{ "left", "l", DIR_LEFT },
		{ "right", "r", DIR_RIGHT },
	};

	for (size_t i = 0; d && i < 4; i++)
		if (strcasecmp(d, map[i].a) == 0 ||
		    strcasecmp(d, map[i].b) == 0) {
			*out = map[i].d;
			return 1;
		}
	return 0;
}

int
act_vertical(enum dir d)
{
	return d == DIR_UP || d == DIR_DOWN;
}

static int
scrollbar_axis_ok(const struct cua_raw_node *sb, enum dir d)
{
	if (sb->role != CUA_ROLE_SCROLL_BAR)
		return 0;
	if (CUA_HAS_STATE(sb, CUA_STATE_VERTICAL))
		return act_vertical(d);
	if (CUA_HAS_STATE(sb, CUA_STATE_HORIZONTAL))
		return !act_vertical(d);
	if (cua_raw_has_extent(sb))
		return act_vertical(d) ? sb->extents.h > sb->extents.w :
					 sb->extents.w > sb->extents.h;
	return 0;
}

static int
value_settable(const struct cua_raw_node *n)
{
	return (n->ifaces & CUA_IFACE_VALUE) && (n->have & CUA_HAVE_VALUE) &&
	       n->value_max > n->value_min &&
	       !CUA_HAS_STATE(n, CUA_STATE_READ_ONLY);
}

/* A scroll bar's settable value: its own, or (GTK 4) a child's. */
static cua_result
scrollbar_value(struct cua_act *a, struct cua_located *loc,
		struct cua_raw_node *sb, struct cua_raw_node **out)
{
	cua_result r;

	*out = NULL;
	if (value_settable(sb)) {
		*out = sb;
		return CUA_OK;
	}
	if (sb->child_count <= 0 || sb->child_count > 8)
		return CUA_OK;
	r = a->b->ops->read_children(a->b, loc->snap, &sb, 1, 0, UINT32_MAX,
				     CUA_HAVE_VALUE);
	if (r != CUA_OK)
		return r;
	for (size_t k = 0; k < sb->n_children; k++)
		if ((sb->children[k]->have & CUA_HAVE_BASIC) &&
		    value_settable(sb->children[k])) {
			*out = sb->children[k];
			break;
		}
	return CUA_OK;
}

/* A scroll bar whose range is empty: its content fits (GTK and Qt hide
 * such a bar, and keep its value at 0 of 0). */
static int
range_empty(const struct cua_raw_node *sb)
{
	return (sb->ifaces & CUA_IFACE_VALUE) && (sb->have & CUA_HAVE_VALUE) &&
	       sb->value_max == sb->value_min;
}

/* The scroll bar of an axis (docs/actions.md §5.2): the node itself, a
 * scroll-bar child of it or of its nearest scroll pane (ancestor-or-self), or
 * one of its siblings (GTK 4 does not mark its scrolled windows as scroll
 * panes). Without one, *fits (when given) says whether the axis has a bar
 * whose range is empty: nothing there scrolls along it. */
static cua_result
find_scrollbar(struct cua_act *a, struct cua_located *loc, enum dir d,
	       struct cua_raw_node **out, int *fits)
{
	struct cua_raw_node *cands[3] = { loc->node, NULL, NULL };
	int empty = 0;
	cua_result r;

	*out = NULL;
	if (fits)
		*fits = 0;
	if (scrollbar_axis_ok(loc->node, d))
		return scrollbar_value(a, loc, loc->node, out);
	for (struct cua_raw_node *p = loc->node; p; p = p->parent)
		if (p->role == CUA_ROLE_SCROLL_PANE) {
			if (p != loc->node)
				cands[1] = p;
			break;
		}
	if (!cands[1] && loc->node->parent && loc->node->parent != loc->window)
		cands[2] = loc->node->parent;
	for (int i = 0; i < 3; i++) {
		struct cua_raw_node *c = cands[i];

		if (!c || !(c->have & CUA_HAVE_BASIC) || c->child_count <= 0 ||
		    c->child_count > 64)
			continue;
		r = a->b->ops->read_children(a->b, loc->snap, &c, 1, 0,
					     UINT32_MAX,
					     CUA_HAVE_VALUE | CUA_HAVE_EXTENTS);
		if (r != CUA_OK)
			return r;
		for (size_t k = 0; k < c->n_children; k++) {
			struct cua_raw_node *sb = c->children[k];

			if (!(sb->have & CUA_HAVE_BASIC) ||
			    !scrollbar_axis_ok(sb, d))
				continue;
			r = scrollbar_value(a, loc, sb, out);
			if (r != CUA_OK || *out)
				return r;
			/* a hidden bar was read without its value (as the
			 * walk reads it): GTK hides a bar whose content fits */
			if (fits && !empty && (sb->ifaces & CUA_IFACE_VALUE) &&
			    !(sb->have & CUA_HAVE_VALUE)) {
				r = a->b->ops->read_nodes(a->b, loc->snap, &sb,
							  1, CUA_HAVE_VALUE);
				if (r != CUA_OK)
					return r;
			}
			empty = empty || range_empty(sb);
		}
	}
	if (fits)
		*fits = empty;
	return CUA_OK;
}

/* The first guess of points per wheel click, per toolkit; the wheel
 * route measures the real one (docs/actions.md §5.2). */
static double
wheel_step(const struct cua_app_info *app, double extent)
{
	if (is_gtk(app))
		return pow(extent > 1 ? extent : 1, 2.0 / 3.0);
	if (is_qt(app))
		return 60;
	if (cua_toolkit_is_chromium(app->toolkit))
		return 120;
	if (cua_toolkit_is_gecko(app->toolkit))
		return 57;
	return 50;
}

static const char *
direction_name(enum dir d)
{
	return d == DIR_UP   ? "up" :
	       d == DIR_DOWN ? "down" :
	       d == DIR_LEFT ? "left" :
			       "right";
}

/* Turns the wheel *clicks times (brought within 1–500) in direction `d`
 * at root point (rx, ry). */
static cua_result
wheel(struct cua_act *a, int32_t rx, int32_t ry, enum dir d, long *clicks)
{
	uint32_t button = d == DIR_UP   ? 4 :
			  d == DIR_DOWN ? 5 :
			  d == DIR_LEFT ? 6 :
					  7;

	if (*clicks < 1)
		*clicks = 1;
	if (*clicks > 500)
		*clicks = 500;
	return act_click_at_root(a, rx, ry, button, (uint32_t)*clicks);
}

/* ------------------------------------------------------------------ */
/* Measuring the wheel (docs/actions.md §5.2): a probe in the scrolled content          */

#define PROBE_NODES 4

/* What inside the scrolled element follows the content: the extents of
 * a few children (some may be pinned, like a page's fixed header; the
 * one that moved most is the content), or a character of its text. */
struct probe {
	struct cua_raw_node *node[PROBE_NODES]; /* the children followed */
	size_t n_nodes;
	double start[PROBE_NODES];
	const char *text; /* else the element whose character is
				    * followed */
	int32_t offset;   /* that character */
	int vertical;
	int sign; /* +1 when the wanted movement makes
				    * positions decrease (down, right) */
};

#define PROBE_POLL_US 30000
#define PROBE_QUIET_US 200000 /* no movement for this long: settled */
#define PROBE_CONFIRM_US                                                       \
	900000 /* ... when the reading is a surprise:
				  * an engine that reports positions in
				  * bursts (Chromium: one frame of its
				  * smooth scroll at once, the rest
				  * ~550 ms later) has a pause between */
#define PROBE_START_US                                                         \
	1500000              /* no movement at all for this long: none
				  * (Chromium moves its extents ~550 ms
				  * after the wheel) */
#define PROBE_CAP_US 4000000 /* one batch's wait at most */

static int
overlaps(const struct cua_rect *a, const struct cua_rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

/* How far the content has moved since the probe was taken, in the
 * wanted direction (positive: the way it should go); 0, or -1 when it
 * cannot be read (an error ending the action in *r). */
static int
probe_read(struct cua_act *a, struct cua_located *loc, struct probe *p,
	   double *moved, cua_result *r)
{
	*r = CUA_OK;
	if (p->n_nodes) {
		int any = 0;

		for (size_t i = 0; i < p->n_nodes; i++)
			p->node[i]->have &= ~(uint32_t)CUA_HAVE_EXTENTS;
		*r = a->b->ops->read_nodes(a->b, loc->snap, p->node, p->n_nodes,
					   CUA_HAVE_EXTENTS);
		if (*r != CUA_OK)
			return -1;
		for (size_t i = 0; i < p->n_nodes; i++) {
			const struct cua_raw_node *n = p->node[i];
			double m;

			if (!cua_raw_has_extent(n))
				continue;
			m = (p->start[i] -
			     (p->vertical ? n->extents.y : n->extents.x)) *
			    p->sign;
			if (!any || fabs(m) > fabs(*moved))
				*moved = m;
			any = 1;
		}
		return any ? 0 : -1;
	} else {
		struct cua_live_call c = { .op = CUA_LIVE_CHAR_EXTENTS,
					   .ident = p->text,
					   .a = p->offset };
		int ok;

		*r = act_ask_call(a, &c, &ok);
		act_call_clear(&c);
		if (*r != CUA_OK || !ok)
			return -1;
		*moved = (p->start[0] - (p->vertical ? c.ret[1] : c.ret[0])) *
			 p->sign;
		return 0;
	}
}

/* Chooses the probe of scrolling `n` in direction `d`: the first
 * children (else grandchildren) on screen inside it, else the character
 * at its top-left corner. 0, or -1 when there is none. */
static int
probe_pick(struct cua_act *a, struct cua_located *loc, struct cua_raw_node *n,
	   enum dir d, struct probe *p, cua_result *r)
{
	struct cua_raw_node *level = n;

	memset(p, 0, sizeof(*p));
	p->vertical = act_vertical(d);
	p->sign = dir_sign(d);
	*r = CUA_OK;
	for (int depth = 0;
	     depth < 2 && level && level->child_count > 0 && !p->n_nodes;
	     depth++) {
		struct cua_raw_node *next = NULL;

		*r = a->b->ops->read_children(a->b, loc->snap, &level, 1, 0, 64,
					      CUA_HAVE_EXTENTS);
		if (*r != CUA_OK)
			return -1;
		for (size_t k = 0;
		     k < level->n_children && p->n_nodes < PROBE_NODES; k++) {
			struct cua_raw_node *c = level->children[k];

			/* a scroll bar is the element's own chrome: it
			 * never moves with the content (Qt's text editors
			 * have theirs as children) */
			if (!c || !(c->have & CUA_HAVE_BASIC) ||
			    CUA_HAS_STATE(c, CUA_STATE_DEFUNCT) ||
			    c->role == CUA_ROLE_SCROLL_BAR)
				continue;
			if (cua_raw_has_extent(c) &&
			    overlaps(&c->extents, &n->extents)) {
				p->start[p->n_nodes] = p->vertical ?
							       c->extents.y :
							       c->extents.x;
				p->node[p->n_nodes++] = c;
			} else if (!next && c->child_count > 0) {
				next = c;
			}
		}
		level = next;
	}
	if (p->n_nodes)
		return 0;
	if (n->ifaces & CUA_IFACE_TEXT) {
		struct cua_live_call c = { .op = CUA_LIVE_TEXT_AT_POINT,
					   .ident = n->ident,
					   .a = n->extents.x + 4,
					   .b = n->extents.y + 4 };
		struct cua_live_call e = { .op = CUA_LIVE_CHAR_EXTENTS,
					   .ident = n->ident };
		int ok;

		*r = act_ask_call(a, &c, &ok);
		act_call_clear(&c);
		if (*r != CUA_OK || !ok)
			return -1;
		p->text = n->ident;
		p->offset = e.a = c.ret[0];
		*r = act_ask_call(a, &e, &ok);
		act_call_clear(&e);
		if (*r != CUA_OK || !ok)
			return -1;
		p->start[0] = p->vertical ? e.ret[1] : e.ret[0];
		return 0;
	}
	return -1;
}

/* The current value of scroll bar `sb`, read again. */
static cua_result
bar_value(struct cua_act *a, struct cua_located *loc, struct cua_raw_node *sb,
	  double *v)
{
	cua_result r;

	sb->have &= ~(uint32_t)CUA_HAVE_VALUE;
	r = a->b->ops->read_nodes(a->b, loc->snap, &sb, 1, CUA_HAVE_VALUE);
	*v = sb->value;
	return r;
}

/* Waits for the content to stop moving after wheel clicks: until the
 * probe has moved and then kept still for `quiet` µs, or has not moved
 * at all for `start` µs. *moved: where it came to rest (from
 * `from`, where it was). With the axis' scroll bar `sb` (at `bar0`
 * before the clicks), also until the bar has moved and the probe has
 * not for `quiet` µs: the probe does not see the content (Qt's text
 * editors), which the caller finds out from the bar. */
static int
probe_settle(struct cua_act *a, struct cua_located *loc, struct probe *p,
	     double from, int64_t quiet, int64_t start, struct cua_raw_node *sb,
	     double bar0, double *moved, cua_result *r)
{
	int64_t t0 = cua_now_us(), last_change = t0, bar_moved = 0;
	int changed = 0;

	*moved = from;
	for (;;) {
		double m = from, bar;
		int64_t now;

		usleep(PROBE_POLL_US);
		if (probe_read(a, loc, p, &m, r) < 0)
			return -1;
		now = cua_now_us();
		if (fabs(m - *moved) > 0.5) {
			cua_log(&a->s->ctx, CUA_LOG_TRACE,
				"scroll: moved %.1f after %.1f ms", m - from,
				(now - t0) / 1000.0);
			*moved = m;
			changed = 1;
			last_change = now;
		} else if (changed && now - last_change >= quiet) {
			return 0;
		}
		if (!changed && sb && !bar_moved) {
			*r = bar_value(a, loc, sb, &bar);
			if (*r != CUA_OK)
				return -1;
			if (fabs(bar - bar0) > 1e-9) {
				bar_moved = now;
				cua_log(&a->s->ctx, CUA_LOG_TRACE,
					"scroll: the bar moved after %.1f ms",
					(now - t0) / 1000.0);
			}
		}
		if (!changed && bar_moved && now - bar_moved >= quiet)
			return 0;
		if ((!changed && now - t0 >= start) || now - t0 >= PROBE_CAP_US)
			return 0;
	}
}

/*
 * After a Value set the toolkit accepted: whether the scroll bar left
 * `before`, read back for at most 300 ms. Some accept the call and
 * change nothing (LibreOffice's sheet scroll bars), and a scroll that
 * did nothing must not be reported as done; *applied 0 sends the wheel.
 */
static cua_result
value_applied(struct cua_act *a, struct cua_located *loc,
	      struct cua_raw_node *sb, double before, int *applied)
{
	int64_t end = cua_now_us() + 300 * 1000;
	double now;
	cua_result r;

	for (;;) {
		r = bar_value(a, loc, sb, &now);
		if (r != CUA_OK || fabs(now - before) > 1e-9) {
			*applied = r == CUA_OK;
			return r;
		}
		if (cua_now_us() >= end)
			break;
		usleep(20 * 1000);
	}
	*applied = 0;
	return CUA_OK;
}

/* The scroll bar of the axis for telling whether the content moved:
 * that of the Value route, else one held by a child of `n` (Qt's scroll
 * areas have their bars in containers of their own); *fits as for
 * find_scrollbar. */
static cua_result
wheel_bar(struct cua_act *a, struct cua_located *loc, struct cua_raw_node *n,
	  enum dir d, struct cua_raw_node **out, int *fits)
{
	cua_result r = find_scrollbar(a, loc, d, out, fits);

	if (r != CUA_OK || *out || n->child_count <= 0 || n->child_count > 16)
		return r;
	r = a->b->ops->read_children(a->b, loc->snap, &n, 1, 0, UINT32_MAX,
				     CUA_HAVE_EXTENTS);
	for (size_t k = 0; r == CUA_OK && k < n->n_children && !*out; k++) {
		struct cua_raw_node *c = n->children[k];

		if (!c || !(c->have & CUA_HAVE_BASIC) || c->child_count <= 0 ||
		    c->child_count > 8)
			continue;
		r = a->b->ops->read_children(a->b, loc->snap, &c, 1, 0,
					     UINT32_MAX,
					     CUA_HAVE_VALUE | CUA_HAVE_EXTENTS);
		for (size_t j = 0; r == CUA_OK && j < c->n_children; j++) {
			struct cua_raw_node *sb = c->children[j];

			if (sb && (sb->have & CUA_HAVE_BASIC) &&
			    (sb->ifaces & CUA_IFACE_VALUE) &&
			    scrollbar_axis_ok(sb, d)) {
				*out = sb;
				break;
			}
		}
	}
	return r;
}

/*
 * The wheel route (docs/actions.md §5.2), closed loop: one click first,
 * measured on the probe; then the clicks that are still needed at the measured
 * step, and a correction while more than half a click is missing. A
 * surprising reading (a first click under a quarter of the toolkit's
 * step `guess`, a batch under half its expected distance) is waited on
 * for PROBE_CONFIRM_US; when the content moved on meanwhile, the engine
 * reports in bursts and every later batch is waited on as long. The
 * batch sized on the first click alone is at most four times the
 * clicks `guess` would need, so that a misread first click cannot run
 * the content far past the distance. Fills the
 * outcome with what was measured. -1 when there is no probe, or when the
 * first click moved the axis' scroll bar but not the probe (Qt's text
 * editors: their children are the parts of the scroll area); the caller
 * then turns the wheel by the toolkit's step, *sent clicks being turned
 * already.
 */
static int
wheel_measured(struct cua_act *a, struct cua_located *loc,
	       struct cua_raw_node *n, enum dir d, int32_t rx, int32_t ry,
	       double distance, double page, double guess, long *sent,
	       cua_result *r)
{
	struct probe p;
	struct cua_raw_node *sb = NULL;
	double moved = 0, step = 0, last = 0, bar = 0;
	long total = 0, batch = 1;
	int64_t quiet = PROBE_QUIET_US;
	int at_limit = 0, fits = 0;
	int sign = dir_sign(d);

	*sent = 0;
	/* the scroll bar tells a probe that cannot see the content from
	 * content that cannot move */
	*r = wheel_bar(a, loc, n, d, &sb, &fits);
	if (*r == CUA_OK && sb)
		*r = bar_value(a, loc, sb, &bar);
	if (*r != CUA_OK)
		return 0;
	/* a bar whose range is empty, or at its end in this direction: the
	 * content cannot move, and no click would say so sooner than the
	 * wait for none (PROBE_START_US); the element asked for is not
	 * passed over for what holds it */
	if ((!sb && fits) ||
	    (sb && (range_empty(sb) || (sign > 0 ? bar >= sb->value_max :
						   bar <= sb->value_min)))) {
		at_limit = 1;
		cua_log(&a->s->ctx, CUA_LOG_TRACE,
			"scroll: the %s scroll bar is at its end",
			act_vertical(d) ? "vertical" : "horizontal");
		goto done;
	}
	if (probe_pick(a, loc, n, d, &p, r) < 0)
		return -1;
	for (int round = 0; round < 4 && total < 500; round++) {
		double before = moved;
		long want;

		*r = wheel(a, rx, ry, d, &batch);
		if (*r != CUA_OK)
			return 0;
		total += batch;
		if (probe_settle(a, loc, &p, before, quiet, PROBE_START_US,
				 round == 0 ? sb : NULL, bar, &moved, r) < 0) {
			if (*r != CUA_OK)
				return 0;
			break; /* the probe is gone: what was measured stands */
		}
		last = moved - before;
		if (quiet < PROBE_CONFIRM_US &&
		    (round == 0 ? last > 0.5 && last < guess / 4 :
				  last < 0.5 * step * batch)) {
			double later;

			if (probe_settle(a, loc, &p, moved, PROBE_CONFIRM_US,
					 PROBE_CONFIRM_US, NULL, 0, &later,
					 r) < 0) {
				if (*r != CUA_OK)
					return 0;
				break;
			}
			if (fabs(later - moved) > 0.5) {
				quiet = PROBE_CONFIRM_US;
				moved = later;
				last = moved - before;
			}
		}
		if (round == 0 && last < 0.5 && sb) {
			double now;

			*r = bar_value(a, loc, sb, &now);
			if (*r != CUA_OK)
				return 0;
			if (fabs(now - bar) > 1e-9) {
				*sent = total;
				return -1;
			}
		}
		if (round == 0)
			step = last;
		else if (moved > 0)
			step = moved / total;
		/* a batch that moved less than half of what it should have
		 * stopped at the end of the content */
		if (step <= 0.5 || last < 0.5 * step * batch) {
			at_limit = 1;
			break;
		}
		want = lround((distance - moved) / step);
		if (want < 1)
			break;
		if (round == 0 &&
		    want > 4 * lround((distance - moved) / guess) + 4)
			want = 4 * lround((distance - moved) / guess) + 4;
		batch = want < 500 - total ? want : 500 - total;
	}
done:
	json_object_set_new(a->outcome, "wheel_clicks", json_integer(total));
	json_object_set_new(
		a->outcome, "pages_applied",
		json_real(page > 0 ? (moved > 0 ? moved : 0) / page : 0));
	json_object_set_new(a->outcome, "distance",
			    json_pack("{s:f,s:f}", "requested", distance,
				      "scrolled", moved > 0 ? moved : 0));
	json_object_set_new(a->outcome, "at_limit", json_boolean(at_limit));
	cua_act_route(a, "wheel");
	*r = CUA_OK;
	return 0;
}

/*
 * Scrolls `distance` points in direction `d`: the Value route on the
 * axis' scroll bar, else the wheel at the node's centre (docs/actions.md §5.2).
 * Reports pages applied relative to `page`.
 */
cua_result
act_scroll_by(struct cua_act *a, struct cua_located *loc, enum dir d,
	      double distance, double page)
{
	struct cua_raw_node *sb, *n = loc->node;
	int sign = dir_sign(d);
	cua_result r;

	/* Qt's text editors count their scroll bar in lines, not points:
	 * the wheel (Qt's calibrated step) is closer than a Value guess */
	if (is_qt(a->app) && CUA_HAS_STATE(n, CUA_STATE_MULTI_LINE) &&
	    (n->ifaces & CUA_IFACE_TEXT)) {
		sb = NULL;
	} else {
		r = find_scrollbar(a, loc, d, &sb, NULL);
		if (r != CUA_OK)
			return r;
	}
	if (sb) {
		double cur = sb->value, nv, upp = 1;
		struct cua_live_call c = { .op = CUA_LIVE_SET_VALUE,
					   .ident = sb->ident };
		int ok;

		/* Qt item views scroll per item: the range is the row count */
		if (is_qt(a->app) && n->role != CUA_ROLE_SCROLL_BAR &&
		    sb->value_max - sb->value_min < 1000 &&
		    cua_raw_has_extent(n) &&
		    (sb->value_max - sb->value_min) <
			    (act_vertical(d) ? n->extents.h : n->extents.w) /
				    8.0) {
			for (size_t k = 0; k < n->n_children; k++)
				if (cua_raw_has_extent(n->children[k])) {
					upp = 1.0 /
					      (act_vertical(d) ?
						       n->children[k]
							       ->extents.h :
						       n->children[k]
							       ->extents.w);
					break;
				}
		}
		nv = cur + sign * distance * upp;
		if (nv < sb->value_min)
			nv = sb->value_min;
		if (nv > sb->value_max)
			nv = sb->value_max;
		if (fabs(nv - cur) < 1e-9) {
			json_object_set_new(a->outcome, "at_limit",
					    json_true());
			json_object_set_new(a->outcome, "pages_applied",
					    json_real(0));
			cua_act_route(a, "value");
			return CUA_OK;
		}
		c.v = nv;
		r = act_ask_call(a, &c, &ok);
		act_call_clear(&c);
		if (r != CUA_OK)
			return r;
		if (ok) {
			r = value_applied(a, loc, sb, cur, &ok);
			if (r != CUA_OK)
				return r;
		}
		if (ok) {
			json_object_set_new(a->outcome, "at_limit",
					    json_boolean(nv == sb->value_min ||
							 nv == sb->value_max));
			json_object_set_new(
				a->outcome, "pages_applied",
				json_real(page > 0 ?
						  fabs(nv - cur) / upp / page :
						  0));
			json_object_set_new(a->outcome, "scroll_value",
					    json_pack("{s:f,s:f}", "before",
						      cur, "requested", nv));
			cua_act_route(a, "value");
			return CUA_OK;
		}
		/* the set was refused or ignored: the wheel route */
	}
	if (cua_raw_has_extent(n) && loc->x11_window) {
		int32_t rx, ry;
		double step = wheel_step(
			a->app, act_vertical(d) ? n->extents.h : n->extents.w);
		long clicks = lround(distance / step), sent;

		r = act_reach_center(a, loc, n, &rx, &ry);
		if (r != CUA_OK)
			return r;
		if (wheel_measured(a, loc, n, d, rx, ry, distance, page, step,
				   &sent, &r) == 0)
			return r;
		if (r != CUA_OK)
			return r;
		/* nothing inside to measure: the toolkit's step, estimated */
		clicks -= sent;
		if (clicks > 0 || !sent) {
			r = wheel(a, rx, ry, d, &clicks);
			if (r != CUA_OK)
				return r;
		} else {
			clicks = 0;
		}
		clicks += sent;
		json_object_set_new(a->outcome, "wheel_clicks",
				    json_integer(clicks));
		json_object_set_new(
			a->outcome, "pages_applied",
			json_real(page > 0 ? clicks * step / page : 0));
		json_object_set_new(a->outcome, "measured", json_false());
		cua_act_route(a, "wheel");
		return CUA_OK;
	}
	return cua_err(CUA_MSG_NOT_SCROLLABLE,
		       { "id", CUA_NUM("%u", a->element) },
		       { "role", loc->element->role_text });
}

/* The direction and pages of a scroll (docs/tools.md §2.2, §2.4). */
static cua_result
check_scroll_args(const char *direction, double pages, enum dir *d)
{
	if (!direction || !*direction)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "direction" });
	if (!act_parse_direction(direction, d))
		return cua_err(CUA_MSG_BAD_DIRECTION,
			       { "direction", direction });
	if (!isfinite(pages) || pages <= 0)
		return cua_err(CUA_MSG_BAD_PAGES);
	return CUA_OK;
}

cua_result
cua_do_scroll(struct cua_session *s, const char *app, uint32_t id,
	      const char *direction, double pages, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	enum dir d;
	double extent;
	cua_result r;

	r = check_scroll_args(direction, pages, &d);
	if (r != CUA_OK)
		return r;
	r = cua_act_begin(&a, s, "scroll", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CUA_HAVE_EXTENTS | CUA_HAVE_VALUE,
				    &loc);
	if (r != CUA_OK)
		goto out;
	extent = act_vertical(d) ? loc.node->extents.h : loc.node->extents.w;
	if (!cua_raw_has_extent(loc.node)) {
		r = cua_err(CUA_MSG_NO_SIZE_TO_SCROLL,
			    { "id", CUA_NUM("%u", id) },
			    { "role", loc.element->role_text });
		goto out;
	}
	/* pages × the element's height (width), rounded to whole points */
	r = act_scroll_by(&a, &loc, d, round(pages * extent), extent);
	json_object_set_new(a.outcome, "pages", json_real(pages));
	json_object_set_new(a.outcome, "direction",
			    json_string(direction_name(d)));
out:
	cua_located_clear(&loc);
	return act_finish(&a, r, outcome);
}

/*
 * Scroll at screenshot pixel (x, y) (docs/differences.md deviation D18;
 * docs/actions.md §5.3): the distance comes from the window's extent, the
 * checks are those of any coordinate action (§2.2), and the wheel turns at the
 * point. The Value route through a hit-tested scroll pane is not taken:
 * the wheel reaches whatever scrolls under the point, as for a person.
 */
cua_result
cua_do_scroll_at(struct cua_session *s, const char *app, double x, double y,
		 const char *direction, double pages, char **outcome)
{
	struct cua_act a;
	struct cua_shot_geom g;
	int32_t rx, ry;
	enum dir d;
	double extent, step;
	long clicks;
	cua_result r;

	r = check_scroll_args(direction, pages, &d);
	if (r != CUA_OK)
		return r;
	r = act_begin_at(&a, s, "scroll", app, x, y, &g, &rx, &ry);
	if (r != CUA_OK)
		return act_finish(&a, r, outcome);
	/* pages × the window's height (width), in points */
	extent = (act_vertical(d) ? g.frame.h : g.frame.w) / g.device_ppp;
	step = wheel_step(a.app, extent);
	clicks = lround(round(pages * extent) / step);
	r = wheel(&a, rx, ry, d, &clicks);
	if (r == CUA_OK) {
		cua_act_route(&a, "wheel");
		json_object_set_new(a.outcome, "wheel_clicks",
				    json_integer(clicks));
		json_object_set_new(a.outcome, "pages", json_real(pages));
		json_object_set_new(
			a.outcome, "pages_applied",
			json_real(extent > 0 ? clicks * step / extent : 0));
		json_object_set_new(a.outcome, "direction",
				    json_string(direction_name(d)));
		act_note_point(&a, x, y, rx, ry);
	}
	return act_finish(&a, r, outcome);
}
