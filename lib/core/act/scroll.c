/*
 * scroll (actions.md §5) by element and at a point, and the scroll
 * secondary actions (§8.2): the Value route on a scroll bar, else the
 * wheel.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <strings.h>

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
	return app->toolkit && strncasecmp(app->toolkit, "Qt", 2) == 0;
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
		if (strcasecmp(d, map[i].a) == 0 || strcasecmp(d, map[i].b) == 0) {
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

/* The scroll bar of an axis (§5.2): the node itself, a scroll-bar child
 * of it or of its nearest scroll pane (ancestor-or-self), or one of its
 * siblings (GTK 4 does not mark its scrolled windows as scroll panes). */
static cua_result
find_scrollbar(struct cua_act *a, struct cua_located *loc, enum dir d,
	       struct cua_raw_node **out)
{
	struct cua_raw_node *cands[3] = { loc->node, NULL, NULL };
	cua_result r;

	*out = NULL;
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
		r = a->b->ops->read_children(a->b, loc->snap, &c, 1, 0, UINT32_MAX,
					     CUA_HAVE_VALUE | CUA_HAVE_EXTENTS);
		if (r != CUA_OK)
			return r;
		for (size_t k = 0; k < c->n_children; k++) {
			struct cua_raw_node *sb = c->children[k];

			if (!(sb->have & CUA_HAVE_BASIC) || !scrollbar_axis_ok(sb, d))
				continue;
			r = scrollbar_value(a, loc, sb, out);
			if (r != CUA_OK || *out)
				return r;
		}
	}
	return CUA_OK;
}

static double
wheel_step(const struct cua_app_info *app, double extent)
{
	if (is_gtk(app))
		return pow(extent > 1 ? extent : 1, 2.0 / 3.0);
	if (is_qt(app))
		return 60;
	if (app->toolkit && (strcasestr(app->toolkit, "chrom") ||
			     strcasestr(app->toolkit, "electron")))
		return 120;
	if (app->toolkit && (strcasestr(app->toolkit, "gecko") ||
			     strcasestr(app->toolkit, "mozilla")))
		return 57;
	return 50;
}

static const char *
direction_name(enum dir d)
{
	return d == DIR_UP ? "up" : d == DIR_DOWN ? "down" :
	       d == DIR_LEFT ? "left" : "right";
}

/* Turns the wheel *clicks times (brought within 1–500) in direction `d`
 * at root point (rx, ry). */
static cua_result
wheel(struct cua_act *a, int32_t rx, int32_t ry, enum dir d, long *clicks)
{
	uint32_t button = d == DIR_UP ? 4 : d == DIR_DOWN ? 5 :
			  d == DIR_LEFT ? 6 : 7;

	if (*clicks < 1)
		*clicks = 1;
	if (*clicks > 500)
		*clicks = 500;
	return act_click_at_root(a, rx, ry, button, (uint32_t)*clicks);
}

/*
 * Scrolls `distance` points in direction `d`: the Value route on the
 * axis' scroll bar, else the wheel at the node's centre (§5.2). Reports
 * pages applied relative to `page`.
 */
cua_result
act_scroll_by(struct cua_act *a, struct cua_located *loc, enum dir d,
	      double distance, double page)
{
	struct cua_raw_node *sb, *n = loc->node;
	int sign = (d == DIR_DOWN || d == DIR_RIGHT) ? 1 : -1;
	cua_result r;

	/* Qt's text editors count their scroll bar in lines, not points:
	 * the wheel (Qt's calibrated step) is closer than a Value guess */
	if (is_qt(a->app) && CUA_HAS_STATE(n, CUA_STATE_MULTI_LINE) &&
	    (n->ifaces & CUA_IFACE_TEXT)) {
		sb = NULL;
	} else {
		r = find_scrollbar(a, loc, d, &sb);
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
					upp = 1.0 / (act_vertical(d) ?
						     n->children[k]->extents.h :
						     n->children[k]->extents.w);
					break;
				}
		}
		nv = cur + sign * distance * upp;
		if (nv < sb->value_min)
			nv = sb->value_min;
		if (nv > sb->value_max)
			nv = sb->value_max;
		if (fabs(nv - cur) < 1e-9) {
			json_object_set_new(a->outcome, "at_limit", json_true());
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
			json_object_set_new(a->outcome, "at_limit",
					    json_boolean(nv == sb->value_min ||
							 nv == sb->value_max));
			json_object_set_new(a->outcome, "pages_applied",
					    json_real(page > 0 ?
							      fabs(nv - cur) / upp / page :
							      0));
			json_object_set_new(a->outcome, "scroll_value",
					    json_pack("{s:f,s:f}", "before", cur,
						      "requested", nv));
			cua_act_route(a, "value");
			return CUA_OK;
		}
		/* the set was refused: the wheel route */
	}
	if (cua_raw_has_extent(n) && loc->x11_window) {
		int32_t rx, ry;
		double step = wheel_step(a->app, act_vertical(d) ?
							 n->extents.h :
							 n->extents.w);
		long clicks = lround(distance / step);

		r = act_reach_center(a, loc, n, &rx, &ry);
		if (r != CUA_OK)
			return r;
		r = wheel(a, rx, ry, d, &clicks);
		if (r != CUA_OK)
			return r;
		json_object_set_new(a->outcome, "wheel_clicks", json_integer(clicks));
		json_object_set_new(a->outcome, "pages_applied",
				    json_real(page > 0 ? clicks * step / page : 0));
		cua_act_route(a, "wheel");
		return CUA_OK;
	}
	return cua_err(CUA_MSG_NOT_SCROLLABLE,
		       { "id", CUA_NUM("%u", a->element) },
		       { "role", loc->element->role_text });
}

/* The direction and pages of a scroll (tools.md §2.2, §2.4). */
static cua_result
check_scroll_args(const char *direction, double pages, enum dir *d)
{
	if (!direction || !*direction)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "direction" });
	if (!act_parse_direction(direction, d))
		return cua_err(CUA_MSG_BAD_DIRECTION, { "direction", direction });
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
		r = cua_act_element(&a, id, CUA_HAVE_EXTENTS | CUA_HAVE_VALUE, &loc);
	if (r != CUA_OK)
		goto out;
	extent = act_vertical(d) ? loc.node->extents.h : loc.node->extents.w;
	if (!cua_raw_has_extent(loc.node)) {
		r = cua_err(CUA_MSG_NO_SIZE_TO_SCROLL, { "id", CUA_NUM("%u", id) },
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
 * Scroll at screenshot pixel (x, y) (README deviation D18; actions.md
 * §5.3): the distance comes from the window's extent, the checks are
 * those of any coordinate action (§2.2), and the wheel turns at the
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
		json_object_set_new(a.outcome, "wheel_clicks", json_integer(clicks));
		json_object_set_new(a.outcome, "pages", json_real(pages));
		json_object_set_new(a.outcome, "pages_applied",
				    json_real(extent > 0 ? clicks * step / extent : 0));
		json_object_set_new(a.outcome, "direction",
				    json_string(direction_name(d)));
		act_note_point(&a, x, y, rx, ry);
	}
	return act_finish(&a, r, outcome);
}
