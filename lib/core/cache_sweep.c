/*
 * The tree cache's sweep (cache.h): for a toolkit that announces most
 * changes but not all, the cached objects compared with the app's at an
 * observation, or while the settle waits for quiet (the presweep).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"
#include "session.h"

struct sweep {
	struct cua_raw_node **olds, **news;
	size_t n, cap;
	struct cua_raw_snapshot *tmp;
	int order; /* compare each node's place among its siblings */
	int kids;  /* compare the identities of its children and the
		    * actions of scrollable ones */
	int desc;  /* compare its description */
};

/* Children whose identities a sweep compares, at most (larger lists
 * change their count when they change). */
#define SWEEP_KIDS_MAX 64

/* Values a sweep found moved without an event are read again, this far
 * apart (more than a frame at 60 Hz), until two reads agree, for at most
 * MOTION_MAX_US; at most MOTION_OBJECTS of them. */
#define MOTION_STEP_US (25 * 1000)
#define MOTION_MAX_US (400 * 1000)
#define MOTION_OBJECTS CUA_CACHE_RESTLESS

/* The node's children were read, or it had none when the walk would
 * have read them (a list filled later: GTK 4's font list). */
static int
counted(const struct cua_raw_node *n)
{
	return (n->have & CUA_HAVE_CHILDREN) ||
	       (n->count_read && n->child_count == 0);
}

/* A document, or an object whose actions scroll it: Chromium gives the
 * scroll actions to what can scroll now, as its layout changes, without
 * an event (a page that grew past its view). */
static int
may_scroll(const struct cua_raw_node *n)
{
	if (n->role == CUA_ROLE_DOCUMENT_WEB ||
	    n->role == CUA_ROLE_DOCUMENT_FRAME)
		return 1;
	for (size_t i = 0; i < n->n_actions; i++)
		if (n->actions[i].name &&
		    strncasecmp(n->actions[i].name, "scroll", 6) == 0)
			return 1;
	return 0;
}

/* The same action names, in the same order. */
static int
same_actions(const struct cua_raw_node *o, const struct cua_raw_node *f)
{
	if (!(f->have & CUA_HAVE_ACTIONS))
		return 1; /* not asked, or no answer */
	if (f->n_actions != o->n_actions)
		return 0;
	for (size_t i = 0; i < f->n_actions; i++)
		if (!cua_cache_same_str(o->actions[i].name, f->actions[i].name))
			return 0;
	return 1;
}

/* The nodes below the toplevels (those came with the opening). */
static int
sweep_add(struct sweep *sw, struct cua_raw_node *n, int depth)
{
	if (depth > 0 && n->ident) {
		struct cua_raw_node *f;

		if (sw->n == sw->cap) {
			size_t cap = sw->cap ? sw->cap * 2 : 256;
			void *o = realloc(sw->olds, cap * sizeof(*sw->olds));

			if (!o)
				return -1;
			sw->olds = o;
			o = realloc(sw->news, cap * sizeof(*sw->news));
			if (!o)
				return -1;
			sw->news = o;
			sw->cap = cap;
		}
		f = cua_raw_node_new(sw->tmp);
		if (!f)
			return -1;
		f->ident = n->ident;
		/* its child count is compared when its children were read
		 * (or there were none to read) */
		f->child_count = counted(n) ? 0 : -1;
		/* its place, when asked and known */
		if (sw->order && n->parent && n->index_in_parent >= 0)
			f->index_in_parent = 0;
		/* the visible range of a list read by range: a toolkit that
		 * sends no bounds events scrolls it, or lays it out anew,
		 * silently (GTK 4 after a page switch) */
		if (n->range_end > 0 && (n->have & CUA_HAVE_CHILDREN)) {
			f->sweep_ask |= CUA_SWEEP_RANGE;
			f->ifaces = n->ifaces &
				    (CUA_IFACE_TABLE | CUA_IFACE_COMPONENT);
			f->parent = n->parent;
		}
		/* its value, when it was read */
		if (n->have & CUA_HAVE_VALUE)
			f->ifaces |= CUA_IFACE_VALUE;
		/* its children's identities, when asked and all were read */
		if (sw->kids && (n->have & CUA_HAVE_CHILDREN) &&
		    !n->children_partial && n->n_children > 0 &&
		    n->n_children <= SWEEP_KIDS_MAX &&
		    (int64_t)n->n_children == (int64_t)n->child_count)
			f->sweep_ask |= CUA_SWEEP_CHILDREN;
		/* its description, and the actions of what may scroll, when
		 * asked and read */
		if (sw->desc && (n->have & CUA_HAVE_DESCRIPTION))
			f->sweep_ask |= CUA_SWEEP_DESCRIPTION;
		if (sw->kids && (n->have & CUA_HAVE_ACTIONS) && may_scroll(n))
			f->sweep_ask |= CUA_SWEEP_ACTIONS;
		sw->olds[sw->n] = n;
		sw->news[sw->n++] = f;
	}
	for (size_t i = 0; i < n->n_children; i++)
		if (n->children[i] &&
		    sweep_add(sw, n->children[i], depth + 1) < 0)
			return -1;
	return 0;
}

/* Qt moves an object among its siblings without an event (a button
 * inserted before others, a list reversed): its sweep compares places. */
static int
sweeps_order(const struct cua_app_info *app)
{
	return cua_toolkit_is_qt(app->toolkit);
}

/* Chromium puts another object in an object's place without an event (the
 * web view's document when another tab is chosen; the old one lives on,
 * unchanged, in its background tab): its sweep compares children. It
 * changes descriptions (the Reload button's while a page loads) and
 * scroll actions silently too. */
static int
sweeps_children(const struct cua_app_info *app)
{
	return cua_toolkit_is_chromium(app->toolkit);
}

/* Browsers change descriptions without an event: Chromium (above), and
 * Gecko when a page gives an element a title it did not have. */
static int
sweeps_descriptions(const struct cua_app_info *app)
{
	return sweeps_children(app) || cua_toolkit_is_gecko(app->toolkit);
}

/* The children `f` (a sweep's) has are the ones `o` (cached) has. */
static int
same_children(const struct cua_raw_node *o, const struct cua_raw_node *f)
{
	if (!(f->have & CUA_HAVE_CHILDREN))
		return 1; /* not asked, or no answer */
	/* GetChildren and ChildCount disagree (docs/state-text.md
	 * §11.5.1): the count alone is compared */
	if ((int64_t)f->n_children != (int64_t)f->child_count)
		return 1;
	if (f->n_children != o->n_children)
		return 0;
	for (size_t i = 0; i < f->n_children; i++)
		if (!o->children[i] ||
		    !cua_cache_same_str(o->children[i]->ident,
					f->children[i]->ident))
			return 0;
	return 1;
}

/* Waits until `until`, delivering the session's events meanwhile. */
static void
pause_until(struct cua_session *s, int64_t until)
{
	const struct cua_backend_ops *ops = s->backend->ops;
	int64_t now;

	while ((now = cua_now_us()) < until) {
		if (ops->watch_dispatch &&
		    (ops->watch_dispatch(s->backend, until) > 0 ||
		     cua_now_us() - now >= 1000))
			continue;
		/* no event machinery to wait in */
		cua_sleep_ms((int)((until - now + 999) / 1000));
	}
}

/*
 * Values that moved without an event may be moving still: a toolkit that
 * animates a value (GTK 4 scrolls a list to its new end over about
 * 200 ms and says nothing) would be observed mid-way, and the next read
 * would find another value (gnome-calculator's history). They are read
 * again a frame and more apart until two reads agree. Returns 1 when one
 * still moved after MOTION_MAX_US.
 */
static int
wait_motion(struct cua_session *s, struct cua_raw_node *const *moved, size_t n,
	    const struct cua_fetch_policy *pol)
{
	double last[MOTION_OBJECTS][3];
	int64_t t0 = cua_now_us();

	for (size_t i = 0; i < n; i++) {
		last[i][0] = moved[i]->value;
		last[i][1] = moved[i]->value_min;
		last[i][2] = moved[i]->value_max;
	}
	for (;;) {
		struct cua_raw_node *f[MOTION_OBJECTS];
		struct cua_raw_snapshot *tmp;
		int64_t until = cua_now_us() + MOTION_STEP_US;
		int same = 1;

		if (until - t0 > MOTION_MAX_US)
			return 1;
		pause_until(s, until);
		tmp = cua_raw_snapshot_new();
		if (!tmp)
			return 0;
		for (size_t i = 0; i < n; i++) {
			f[i] = cua_raw_node_new(tmp);
			if (!f[i]) {
				cua_raw_snapshot_free(tmp);
				return 0;
			}
			f[i]->ident = moved[i]->ident;
			f[i]->child_count = -1; /* not asked */
			f[i]->ifaces = CUA_IFACE_VALUE;
		}
		if (s->backend->ops->sweep_nodes(s->backend, tmp, f, n, pol) !=
		    CUA_OK) {
			cua_error_clear();
			cua_raw_snapshot_free(tmp);
			return 0;
		}
		for (size_t i = 0; i < n; i++) {
			/* gone, or no value now: the observation says so */
			if (!(f[i]->have & CUA_HAVE_VALUE))
				continue;
			if (f[i]->value != last[i][0] ||
			    f[i]->value_min != last[i][1] ||
			    f[i]->value_max != last[i][2])
				same = 0;
			last[i][0] = f[i]->value;
			last[i][1] = f[i]->value_min;
			last[i][2] = f[i]->value_max;
		}
		cua_raw_snapshot_free(tmp);
		if (same)
			return 0;
	}
}

/* Every value in `moved` was still moving when the last wait ended. */
static int
restless_all(const struct cua_cache_entry *e, struct cua_raw_node *const *moved,
	     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < e->n_restless &&
		       strcmp(e->restless[j], moved[i]->ident) != 0)
			j++;
		if (j == e->n_restless)
			return 0;
	}
	return 1;
}

/* The values still moving are those of `moved` (none: n 0). Out of
 * memory, fewer are kept: they are waited for again. */
static void
set_restless(struct cua_cache_entry *e, struct cua_raw_node *const *moved,
	     size_t n)
{
	for (size_t i = 0; i < e->n_restless; i++)
		free(e->restless[i]);
	e->n_restless = 0;
	for (size_t i = 0; i < n && i < CUA_CACHE_RESTLESS; i++)
		if ((e->restless[e->n_restless] = strdup(moved[i]->ident)))
			e->n_restless++;
}

/*
 * A toolkit that announces most changes but not all (CUA_TRUST_SWEEP):
 * the states, name, child count (when its children were read), value
 * (when it has one) and, for toolkits that reorder silently, the index in
 * its parent of every cached node below the toplevels read again and
 * compared; a node that differs is marked as if its app had said so (its
 * fields, or its subtree when its children count changed; its parent's
 * children when it moved; one gone is found so). Cheaper than a full
 * read: two to seven calls a node, no details, no children lists.
 */
cua_result
cua_cache_sweep(struct cua_session *s, const struct cua_app_info *app,
		struct cua_cache_entry *e, const struct cua_fetch_policy *pol,
		struct cua_cache_read *cr)
{
	struct cua_raw_snapshot *snap = e->snap;
	struct sweep sw = { 0 };
	struct cua_raw_node *moving[MOTION_OBJECTS];
	size_t blen = strlen(e->bus_name), n_moved = 0;
	cua_result r = CUA_OK;

	sw.order = sweeps_order(app);
	sw.kids = sweeps_children(app);
	sw.desc = sweeps_descriptions(app);
	sw.tmp = cua_raw_snapshot_new();
	if (!sw.tmp || sweep_add(&sw, snap->app, -1) < 0) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	if (!sw.n)
		goto out;
	r = s->backend->ops->sweep_nodes(s->backend, sw.tmp, sw.news, sw.n,
					 pol);
	if (r != CUA_OK)
		goto out;
	if (sw.tmp->stats.deadline_hit) {
		cr->detail = "an object compared again did not answer in time";
		goto out;
	}
	cr->swept = sw.n;
	for (size_t i = 0; i < sw.n; i++) {
		struct cua_raw_node *o = sw.olds[i], *f = sw.news[i];
		int gone = !(f->have & CUA_HAVE_BASIC);
		int states = !gone && f->states != o->states;
		int name = !gone && !cua_cache_same_str(o->name, f->name);
		int desc = !gone && (f->have & CUA_HAVE_DESCRIPTION) &&
			   !cua_cache_same_str(o->description, f->description);
		int actions = !gone && !same_actions(o, f);
		int kids = !gone && counted(o) &&
			   (f->child_count != o->child_count ||
			    !same_children(o, f));
		int value =
			!gone && (o->have & CUA_HAVE_VALUE) &&
			(!(f->have & CUA_HAVE_VALUE) || f->value != o->value ||
			 f->value_min != o->value_min ||
			 f->value_max != o->value_max);
		int moved = !gone && f->index_in_parent != -1 &&
			    f->index_in_parent != o->index_in_parent;
		/* the range, or the list's place: a list box scrolled in
		 * its view moves in it (which rows show depends on that) */
		int range = !gone && o->range_end > 0 && f->range_end > 0 &&
			    (f->range_first != o->range_first ||
			     f->range_end != o->range_end ||
			     ((o->have & f->have & CUA_HAVE_EXTENTS) &&
			      memcmp(&o->extents, &f->extents,
				     sizeof(o->extents)) != 0));
		uint8_t flags = 0;
		const char *path;

		if (gone || states || name || value || desc || actions)
			flags = CUA_MARK_DETAILS;
		/* a value moved without an event where lists are read by
		 * visible range: a scroll bar, whose list may be laid out
		 * anew after the sweep read it (GTK 4 moves the value at
		 * once and the rows at its next frame) */
		if (value && e->ranged)
			flags |= CUA_MARK_BOUNDS;
		if (kids || range)
			flags |= CUA_MARK_DETAILS | CUA_MARK_CHILDREN;
		if (moved) {
			/* its parent's children are read again */
			const char *pp = o->parent->ident;

			if (!pp || strncmp(pp, e->bus_name, blen) != 0 ||
			    pp[blen] != ':') {
				cr->detail = "an object of another process "
					     "moved";
				goto out;
			}
			if ((cua_cache_marked(&e->marks, pp + blen + 1) &
			     CUA_MARK_CHILDREN) == 0) {
				cua_debug(&s->ctx,
					  "tree cache sweep: %s moved from %d "
					  "to %d without an event",
					  o->ident + blen + 1,
					  (int)o->index_in_parent,
					  (int)f->index_in_parent);
				cr->sweep_found++;
				cua_cache_mark_path(&e->marks, pp + blen + 1,
						    CUA_MARK_DETAILS |
							    CUA_MARK_CHILDREN);
			}
		}
		if (!flags)
			continue;
		if (strncmp(o->ident, e->bus_name, blen) != 0 ||
		    o->ident[blen] != ':') {
			cr->detail = "an object of another process changed";
			goto out;
		}
		path = o->ident + blen + 1;
		if ((cua_cache_marked(&e->marks, path) & flags) == flags)
			continue; /* its app said so */
		cua_debug(&s->ctx,
			  "tree cache sweep: %s changed without an "
			  "event:%s%s%s%s%s%s%s%s",
			  path, gone ? " gone" : "", states ? " states" : "",
			  name ? " name" : "", kids ? " children" : "",
			  value ? " value" : "", range ? " visible range" : "",
			  desc ? " description" : "",
			  actions ? " actions" : "");
		cr->sweep_found++;
		cua_cache_mark_path(&e->marks, path, flags);
		if (value && !gone && (f->have & CUA_HAVE_VALUE) &&
		    n_moved < MOTION_OBJECTS)
			moving[n_moved++] = f;
	}
	if (e->marks.full)
		cr->detail = e->marks.full;
	/* what the observation reads of them (again, or in full) is read
	 * once they rest; those that did not rest at the last wait (a
	 * progress shown without events, an endless animation) are not
	 * waited for while they move */
	if (n_moved && restless_all(e, moving, n_moved)) {
		cua_debug(&s->ctx,
			  "tree cache sweep: %zu values moved without an "
			  "event; still moving at the last observation, not "
			  "waited for",
			  n_moved);
		set_restless(e, moving, n_moved);
	} else if (n_moved) {
		int64_t t1 = cua_now_us();
		int still = wait_motion(s, moving, n_moved, pol);

		cua_debug(&s->ctx,
			  "tree cache sweep: %zu values moved without an "
			  "event; %s after %lld us",
			  n_moved, still ? "still moving" : "at rest",
			  (long long)(cua_now_us() - t1));
		set_restless(e, moving, still ? n_moved : 0);
	} else {
		set_restless(e, NULL, 0);
	}
out:
	cua_raw_snapshot_free(sw.tmp);
	free(sw.olds);
	free(sw.news);
	return r;
}

void
cua_cache_presweep(struct cua_session *s, const struct cua_app_info *app)
{
	struct cua_cache *c = s->cache;
	struct cua_cache_entry *e;
	struct cua_walk_policy wp;
	struct cua_fetch_policy pol;
	struct cua_cache_read cr;
	uint64_t gen;
	int64_t t0 = cua_now_us();

	if (!c || !app->bus_name || !s->backend->ops->sweep_nodes)
		return;
	e = cua_cache_find(c, app);
	if (!e || e->marks.full ||
	    cua_cache_toolkit_trusted(c, app) != CUA_TRUST_SWEEP ||
	    cua_settle_generation(s, app->bus_name, &gen) < 0)
		return;
	e->presweep = 0;
	memset(&cr, 0, sizeof(cr));
	cua_observe_policy(s, app, e->snap, e->root, e->vis, 0, &wp, &pol);
	if (cua_cache_sweep(s, app, e, &pol, &cr) != CUA_OK) {
		cua_error_clear();
		return;
	}
	e->presweep = 1;
	e->presweep_gen = gen;
	e->presweep_detail = cr.detail;
	e->presweep_swept = cr.swept;
	e->presweep_found = cr.sweep_found;
	cua_log(&s->ctx, CUA_LOG_TRACE,
		"tree cache: %s swept while settling (%lld us, %zu objects "
		"compared, %zu found changed%s%s)",
		app->app_id, (long long)(cua_now_us() - t0), cr.swept,
		cr.sweep_found, cr.detail ? ": " : "",
		cr.detail ? cr.detail : "");
}
