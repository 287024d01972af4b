/*
 * The tree cache in an observation (cache.h): serve the app's last raw
 * snapshot, with the objects the app's events named read again and the
 * subtrees whose children changed read again and spliced in, when its
 * toplevels read the same; else read in full. In verify mode, check
 * every cached read against a full one.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"
#include "render.h"
#include "session.h"
#include "strbuf.h"
#include "utf8.h"

/* The state text of the tree `snap` gives (before ids are assigned). */
static cua_result
render_snapshot(struct cua_session *s, const struct cua_app_info *app,
		const struct cua_raw_snapshot *snap, uint32_t root,
		const uint32_t *popups, size_t n_popups,
		enum cua_visibility vis, char **out)
{
	struct cua_tree *t = cua_tree_alloc();
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	*out = NULL;
	if (!t)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	cua_fill_tree_app(t, app);
	r = cua_walk_build(t, snap, root, popups, n_popups, &s->ctx.opt, vis);
	if (r == CUA_OK) {
		cua_render_state(&sb, t);
		if (sb.oom) {
			sb_free(&sb);
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		} else {
			*out = sb.s ? sb_steal(&sb) : strdup("");
			if (!*out)
				r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
	}
	cua_tree_destroy(t);
	return r;
}

/*
 * Verify mode: the cached read `cr` against a full read of the opened app
 * `fresh` (owned). A difference while the app sent no event is the
 * cache's fault: an error naming the first differing line. A difference
 * with events in between is the app changing: the full read is used.
 */
static cua_result
verify(struct cua_session *s, const struct cua_app_info *app,
       struct cua_cache_entry *e, struct cua_raw_snapshot *fresh,
       struct cua_cache_read *cr)
{
	struct cua_raw_snapshot *full = NULL;
	uint32_t root, popups[CUA_MAX_POPUPS];
	size_t n_popups, line, col, from;
	enum cua_visibility vis;
	char *a = NULL, *b = NULL;
	const char *la, *lb;
	size_t na, nb;
	uint64_t gen;
	int changed;
	cua_result r;

	r = cua_observe_snapshot(s, app, fresh, &full, &root, popups, &n_popups,
				 &vis, 0);
	if (r != CUA_OK)
		return r;
	/* an event since the cached read was made up, up to the end of the
	 * full read (the events sent so far are dispatched here, marked as
	 * the next observation would act on them): the app is changing, and
	 * the two reads need not agree. An app that changes by itself a
	 * moment after an action (galculator releases a pressed key) changes
	 * during the full read. */
	cua_settle_generation(s, app->bus_name, &gen);
	changed = e->marks.n || e->marks.full;
	r = render_snapshot(s, app, cr->snap, cr->root, cr->popups,
			    cr->n_popups, cr->vis, &a);
	if (r == CUA_OK)
		r = render_snapshot(s, app, full, root, popups, n_popups, vis,
				    &b);
	if (r != CUA_OK)
		goto out;
	line = cua_cache_first_diff(a, b, &la, &na, &lb, &nb, &col);
	if (!line)
		goto out;
	if (changed) {
		/* the app changed meanwhile: the full read stands */
		cua_debug(&s->ctx,
			  "tree cache verify: %s changed during the check "
			  "(line %zu); the full read is used",
			  app->app_id, line);
		cr->snap = full;
		cr->root = root;
		memcpy(cr->popups, popups, n_popups * sizeof(*popups));
		cr->n_popups = n_popups;
		cr->vis = vis;
		cr->cached = 0;
		cr->keep = 0;
		full = NULL;
		goto out;
	}
	/* it lied once: the next observation reads afresh */
	cua_cache_drop(s->cache, e);
	cr->cached = 0;
	cr->keep = 0;
	cr->snap = NULL;
	/* the lines from a little before their first difference, cut at
	 * characters */
	from = cua_utf8_floor(la, col > 61 ? col - 61 : 0);
	na = cua_utf8_floor(la + from, na - from > 200 ? 200 : na - from);
	nb = cua_utf8_floor(lb + from, nb - from > 200 ? 200 : nb - from);
	r = cua_error(CUA_ERROR,
		      "tree cache verify (CUA_CACHE_VERIFY): the cached tree "
		      "of %s differs from a full read at line %zu, column "
		      "%zu: cached \"%s%.*s\", read \"%s%.*s\". The cache "
		      "missed a change (CUA_TREE_CACHE=0 reads in full).",
		      app->app_id, line, col, from ? "…" : "", (int)na,
		      la + from, from ? "…" : "", (int)nb, lb + from);
	cua_warn(&s->ctx, "%s", cua_error_get());
out:
	cua_raw_snapshot_free(full);
	free(a);
	free(b);
	return r;
}

/* The node with this object path in the entry's snapshot, or NULL. */
static struct cua_raw_node *
node_of(struct cua_cache_entry *e, const char *bus, const char *path,
	struct strbuf *sb)
{
	int64_t v;

	sb->len = 0;
	if (sb->s)
		sb->s[0] = '\0';
	sb_addf(sb, "%s:%s", bus, path);
	if (sb->oom || !cua_hmap_get(&e->idents, sb_str(sb), &v))
		return NULL;
	return (struct cua_raw_node *)(intptr_t)v;
}

/* The node is a list read by visible range, in one, or scrolls. */
static int
in_ranged(const struct cua_raw_node *n)
{
	if (n->role == CUA_ROLE_SCROLL_BAR || n->role == CUA_ROLE_SCROLL_PANE ||
	    n->role == CUA_ROLE_VIEWPORT)
		return 1;
	for (; n; n = n->parent)
		if (n->children_partial)
			return 1;
	return 0;
}

/* Some element of the tree is labelled by an object named `name`. */
static int
labels_something(const struct cua_raw_node *n, const char *name)
{
	if ((n->have & CUA_HAVE_RELATIONS) && n->labelled_by &&
	    strcmp(n->labelled_by, name) == 0)
		return 1;
	for (size_t i = 0; i < n->n_children; i++)
		if (labels_something(n->children[i], name))
			return 1;
	return 0;
}

/* Some element outside the subtree `o` is labelled by an object named
 * `name`. */
static int
labels_outside(const struct cua_raw_node *n, const struct cua_raw_node *o,
	       const char *name)
{
	if (n == o)
		return 0;
	if ((n->have & CUA_HAVE_RELATIONS) && n->labelled_by &&
	    strcmp(n->labelled_by, name) == 0)
		return 1;
	for (size_t i = 0; i < n->n_children; i++)
		if (labels_outside(n->children[i], o, name))
			return 1;
	return 0;
}

/* The object is a combo box's item (its choice shows on the box). */
static int
in_combo(const struct cua_raw_node *n)
{
	for (int k = 0; n && k < 4; n = n->parent, k++)
		if (n->role == CUA_ROLE_COMBO_BOX && k > 0)
			return 1;
	return 0;
}

static int
depth_of(const struct cua_raw_snapshot *snap, const struct cua_raw_node *n)
{
	int d = 0;

	for (; n->parent && n->parent != snap->app; n = n->parent)
		d++;
	return n->parent == snap->app ? d : -1;
}

/* The node's fields from a new read of it; its place in the tree (and
 * the children the walk read) stay. */
static void
patch_node(struct cua_raw_node *dst, const struct cua_raw_node *src,
	   int descends)
{
	struct cua_raw_node keep = *dst;

	*dst = *src;
	dst->ident = keep.ident;
	dst->children = keep.children;
	dst->n_children = keep.n_children;
	dst->child_offset = keep.child_offset;
	dst->parent = keep.parent;
	dst->index_in_parent = keep.index_in_parent;
	dst->children_partial = keep.children_partial;
	dst->range_first = keep.range_first;
	dst->range_end = keep.range_end;
	dst->x11_window = keep.x11_window;
	dst->have = (src->have & ~(uint32_t)CUA_HAVE_CHILDREN) |
		    (keep.have & CUA_HAVE_CHILDREN);
	/* the walk asks for ChildCount only of nodes with details or that
	 * it descends into */
	if (!descends && !(src->have & ~(uint32_t)CUA_HAVE_BASIC)) {
		dst->child_count = keep.child_count;
		dst->count_read = keep.count_read;
	}
}

/* The app and its toplevels as `fresh` (just opened) has them, into the
 * cached snapshot; 0 when the toplevels are the same objects, -1 when
 * they are not or one moved or resized, -2 when a toplevel's children
 * changed. */
static int
patch_toplevels(struct cua_raw_snapshot *snap,
		const struct cua_raw_snapshot *fresh)
{
	struct cua_raw_node *a = snap->app;
	const struct cua_raw_node *b = fresh->app;

	if (a->n_children != b->n_children || !snap->windows != !fresh->windows)
		return -1;
	for (size_t i = 0; i < a->n_children; i++)
		if (!a->children[i]->ident || !b->children[i]->ident ||
		    strcmp(a->children[i]->ident, b->children[i]->ident) != 0)
			return -1;
	/* a window moved or resized: every element's screen position may
	 * have changed, without an event */
	for (size_t i = 0; i < a->n_children; i++) {
		const struct cua_raw_node *t = a->children[i],
					  *f = b->children[i];

		if ((t->have & CUA_HAVE_EXTENTS) !=
			    (f->have & CUA_HAVE_EXTENTS) ||
		    memcmp(&t->extents, &f->extents, sizeof(t->extents)) != 0)
			return -1;
		/* a child added to or gone from a window without an event
		 * (Qt shows a status bar so): its children changed */
		if ((t->have & CUA_HAVE_CHILDREN) &&
		    t->child_count != f->child_count)
			return -2;
		if (snap->windows && (memcmp(&snap->windows[i].x11_frame,
					     &fresh->windows[i].x11_frame,
					     sizeof(struct cua_rect)) != 0 ||
				      memcmp(&snap->windows[i].x11_outer,
					     &fresh->windows[i].x11_outer,
					     sizeof(struct cua_rect)) != 0))
			return -1;
	}
	a->name = b->name;
	a->states = b->states;
	a->child_count = b->child_count;
	for (size_t i = 0; i < a->n_children; i++) {
		struct cua_raw_node *t = a->children[i];
		const struct cua_raw_node *f = b->children[i];
		uint32_t own = CUA_HAVE_BASIC | CUA_HAVE_EXTENTS;

		t->role = f->role;
		t->states = f->states;
		t->ifaces = f->ifaces;
		t->name = f->name;
		t->extents = f->extents;
		t->have = (t->have & ~own) | (f->have & own);
		t->x11_window = f->x11_window;
		if (snap->windows)
			snap->windows[i] = fresh->windows[i];
	}
	return 0;
}

/* `n` is `a` or lies under it. */
static int
is_under(const struct cua_raw_node *n, const struct cua_raw_node *a)
{
	for (; n; n = n->parent)
		if (n == a)
			return 1;
	return 0;
}

/* The subtrees to read again (struct subtrees): `o` joins them unless
 * it lies in one already; those under it leave. */
struct subtrees {
	struct cua_raw_node **v;
	size_t n, cap;
};

static int
add_subtree(struct subtrees *st, struct cua_raw_node *o)
{
	for (size_t i = 0; i < st->n; i++)
		if (is_under(o, st->v[i]))
			return 0;
	for (size_t i = 0; i < st->n;)
		if (is_under(st->v[i], o))
			st->v[i] = st->v[--st->n];
		else
			i++;
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 8;
		struct cua_raw_node **v = realloc(st->v, cap * sizeof(*v));

		if (!v)
			return -1;
		st->v = v;
		st->cap = cap;
	}
	st->v[st->n++] = o;
	return 0;
}

/* A list in the subtree was read blind (core/raw.h range_blind). */
static int
has_blind_range(const struct cua_raw_node *n)
{
	if (n->range_blind)
		return 1;
	for (size_t i = 0; i < n->n_children; i++)
		if (n->children[i] && has_blind_range(n->children[i]))
			return 1;
	return 0;
}

static size_t
count_nodes(const struct cua_raw_node *n)
{
	size_t k = 1;

	for (size_t i = 0; i < n->n_children; i++)
		k += count_nodes(n->children[i]);
	return k;
}

/* A node of the subtree `n` with this identity and name. */
static int
has_named(const struct cua_raw_node *n, const char *ident, const char *name)
{
	if (n->ident && strcmp(n->ident, ident) == 0 &&
	    cua_cache_same_str(n->name, name))
		return 1;
	for (size_t i = 0; i < n->n_children; i++)
		if (has_named(n->children[i], ident, name))
			return 1;
	return 0;
}

/* An element outside the old subtree `o` is labelled by a node of it
 * whose name the new subtree `f` does not keep (the labelled element
 * shows the label's name as it was read). */
static int
label_lost(const struct cua_raw_node *app, const struct cua_raw_node *o,
	   const struct cua_raw_node *n, const struct cua_raw_node *f)
{
	if (n->ident && n->name && *n->name && !has_named(f, n->ident, n->name))
		if (labels_outside(app, o, n->name))
			return 1;
	for (size_t i = 0; i < n->n_children; i++)
		if (label_lost(app, o, n->children[i], f))
			return 1;
	return 0;
}

/* Subtree `f` (read again) in the place of `o`: `o` keeps its place and
 * takes f's fields and children. */
static void
splice(struct cua_raw_node *o, struct cua_raw_node *f)
{
	struct cua_raw_node keep = *o;

	*o = *f;
	o->parent = keep.parent;
	o->index_in_parent = keep.index_in_parent;
	o->x11_window = keep.x11_window;
	for (size_t i = 0; i < o->n_children; i++)
		o->children[i]->parent = o;
}

/*
 * The subtrees `st` read again, as the walk reads them, and spliced into
 * the cached snapshot. Sets cr->detail when only a full read will do.
 */
static cua_result
read_subtrees(struct cua_session *s, struct cua_cache_entry *e,
	      struct subtrees *st, const struct cua_fetch_policy *pol,
	      struct cua_cache_read *cr)
{
	struct cua_raw_snapshot *snap = e->snap, *tmp;
	struct cua_fetch_policy sp = *pol;
	struct cua_raw_node **news;
	int *depths;
	size_t outside = count_nodes(snap->app);
	cua_result r = CUA_OK;

	if (!st->n)
		return CUA_OK;
	if (!s->backend->ops->refresh_subtrees) {
		cr->detail = "the tree's shape changed";
		return CUA_OK;
	}
	for (size_t i = 0; i < st->n; i++) {
		struct cua_raw_node *o = st->v[i];

		if (depth_of(snap, o) < 1) {
			cr->detail = "a window's children changed";
			return CUA_OK;
		}
		if (e->ranged && in_ranged(o)) {
			cr->detail = "a list read by visible range may scroll";
			return CUA_OK;
		}
		if (in_combo(o)) {
			cr->detail = "a combo box's choice may have changed";
			return CUA_OK;
		}
		outside -= count_nodes(o);
	}
	/* the walk's bound on nodes, over the whole tree */
	if (sp.max_nodes && outside >= sp.max_nodes) {
		cr->detail = "the tree is at the node cap";
		return CUA_OK;
	}
	if (sp.max_nodes)
		sp.max_nodes -= outside;
	news = calloc(st->n, sizeof(*news));
	depths = calloc(st->n, sizeof(*depths));
	tmp = cua_raw_snapshot_new();
	if (!news || !depths || !tmp) {
		free(news);
		free(depths);
		cua_raw_snapshot_free(tmp);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < st->n; i++) {
		struct cua_raw_node *o = st->v[i], *f = cua_raw_node_new(tmp);

		if (!f) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			goto out;
		}
		f->ident = o->ident;
		f->parent = o->parent;
		f->index_in_parent = o->index_in_parent;
		f->table_row = -1;
		news[i] = f;
		depths[i] = depth_of(snap, o);
	}
	r = s->backend->ops->refresh_subtrees(s->backend, tmp, news, depths,
					      st->n, &sp);
	if (r != CUA_OK)
		goto out;
	if (tmp->stats.deadline_hit || tmp->stats.node_cap_hit) {
		cr->detail = "a subtree read again was cut short";
		goto out;
	}
	for (size_t i = 0; i < st->n; i++) {
		struct cua_raw_node *o = st->v[i], *f = news[i];

		if (!(f->have & CUA_HAVE_BASIC)) {
			cr->detail = "a changed object is gone";
			goto out;
		}
		if (f->index_in_parent != o->index_in_parent) {
			cr->detail = "an object moved among its siblings";
			goto out;
		}
		if (label_lost(snap->app, o, o, f)) {
			cr->detail = "a label of another element changed";
			goto out;
		}
		/* its rows are not known: a full read finds them (or
		 * reads blind as well, which is then what a read shows) */
		if (has_blind_range(f)) {
			cr->detail = "a list read again showed no rows where "
				     "it lies";
			goto out;
		}
	}
	for (size_t i = 0; i < st->n; i++)
		splice(st->v[i], news[i]);
	if (cua_cache_reindex(e) < 0) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	/* the walk reads the second one without its subtree */
	if (e->dups)
		cr->detail = "an object appears twice";
	cr->subtrees = st->n;
out:
	if (cua_cache_hold(e, tmp) < 0 && r == CUA_OK)
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
	free(news);
	free(depths);
	return r;
}

/*
 * The objects given another parent must be where the subtrees read
 * again found them, or gone (destroyed, defunct); one still alive
 * elsewhere is a move the events did not place (cr->detail).
 */
static cua_result
find_reparented(struct cua_session *s, struct cua_cache_entry *e,
		const struct cua_fetch_policy *pol, struct cua_cache_read *cr)
{
	struct cua_raw_snapshot *tmp = NULL;
	struct cua_raw_node **news = NULL;
	int *depths = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	cua_result r = CUA_OK;

	for (size_t i = 0; i < e->marks.n; i++) {
		if (!(e->marks.flags[i] & CUA_MARK_PARENT) ||
		    node_of(e, e->bus_name, e->marks.paths[i], &sb))
			continue;
		if (!tmp) {
			tmp = cua_raw_snapshot_new();
			news = calloc(e->marks.n, sizeof(*news));
			depths = calloc(e->marks.n, sizeof(*depths));
			if (!tmp || !news || !depths) {
				r = cua_error(CUA_ERROR_NOMEM, "out of memory");
				goto out;
			}
		}
		news[n] = cua_raw_node_new(tmp);
		if (!news[n] || sb.oom ||
		    !(news[n]->ident =
			      cua_arena_strdup(tmp->arena, sb_str(&sb)))) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			goto out;
		}
		news[n]->index_in_parent = -2;
		depths[n] = 1;
		n++;
	}
	if (!n)
		goto out;
	r = s->backend->ops->refresh_nodes(s->backend, tmp, news, depths, n,
					   pol);
	if (r == CUA_OK && tmp->stats.deadline_hit) {
		cr->detail = "an object read again did not answer in time";
		goto out;
	}
	for (size_t i = 0; i < n && r == CUA_OK; i++)
		if ((news[i]->have & CUA_HAVE_BASIC) &&
		    !CUA_HAS_STATE(news[i], CUA_STATE_DEFUNCT)) {
			cr->detail = "an object moved to a parent not read";
			break;
		}
out:
	/* nothing of it went into the cache */
	cua_raw_snapshot_free(tmp);
	sb_free(&sb);
	free(news);
	free(depths);
	return r;
}

/*
 * A hit: the cached snapshot brought up to date from `fresh` (the app
 * opened again, owned: kept by the entry), a read of the objects its
 * events named and of the subtrees whose children changed. CUA_OK with
 * cr->why set; a miss leaves the entry unusable (the caller drops it).
 */
static cua_result
apply_marks(struct cua_session *s, const struct cua_app_info *app,
	    struct cua_cache_entry *e, struct cua_raw_snapshot *fresh,
	    uint64_t gen, struct cua_cache_read *cr)
{
	struct cua_raw_snapshot *snap = e->snap, *tmp = NULL;
	struct cua_walk_policy wp;
	struct cua_fetch_policy pol;
	struct cua_raw_node **olds = NULL, **news = NULL;
	struct subtrees st = { 0 };
	int *depths = NULL, refocus = 0, moved;
	size_t n = 0;
	uint32_t root, popups[CUA_MAX_POPUPS];
	size_t n_popups;
	struct strbuf sb = STRBUF_INIT;
	cua_result r = CUA_OK;

	cr->why = CUA_CACHE_MISS_CHANGE;
	moved = patch_toplevels(snap, fresh);
	if (moved < 0) {
		cr->why = CUA_CACHE_MISS_PROBE;
		cr->detail = moved == -2 ?
				     "a window's children changed without "
				     "an event" :
				     "a window came, went, moved or resized";
		cua_raw_snapshot_free(fresh);
		return CUA_OK;
	}
	if (cua_cache_hold(e, fresh) < 0)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (cua_walk_choose_windows(snap, &root, popups, &n_popups) < 0 ||
	    root != e->root || n_popups != e->n_popups ||
	    memcmp(popups, e->popups, n_popups * sizeof(*popups)) != 0) {
		cr->why = CUA_CACHE_MISS_PROBE;
		cr->detail = "another window is chosen";
		return CUA_OK;
	}
	cua_observe_policy(s, app, snap, root, e->vis, 0, &wp, &pol);
	if (cua_cache_toolkit_trusted(s->cache, app) == CUA_TRUST_SWEEP) {
		if (!s->backend->ops->sweep_nodes) {
			cr->detail = "the backend cannot compare objects";
			return CUA_OK;
		}
		int ahead = e->presweep && e->presweep_gen == gen;

		e->presweep = 0;
		if (ahead) {
			/* made while the settle waited, and nothing came
			 * since it began */
			cr->detail = e->presweep_detail;
			cr->swept = e->presweep_swept;
			cr->sweep_found = e->presweep_found;
			cr->presweep = 1;
			if (!cr->detail && e->marks.full)
				cr->detail = e->marks.full;
			if (cr->detail)
				return CUA_OK;
		} else {
			r = cua_cache_sweep(s, app, e, &pol, cr);
			if (r != CUA_OK || cr->detail)
				return r;
		}
	}
	if (e->marks.n && (e->dups || !s->backend->ops->refresh_nodes)) {
		cr->detail = "an object read twice";
		return CUA_OK;
	}
	olds = calloc(e->marks.n + 1, sizeof(*olds));
	news = calloc(e->marks.n + 1, sizeof(*news));
	depths = calloc(e->marks.n + 1, sizeof(*depths));
	tmp = cua_raw_snapshot_new();
	if (!olds || !news || !depths || !tmp) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	/* the objects whose children changed first: what lies in their
	 * subtrees is read with them */
	for (size_t i = 0; i < e->marks.n; i++) {
		struct cua_raw_node *o;

		if (!(e->marks.flags[i] &
		      (CUA_MARK_CHILDREN | CUA_MARK_PARENT)))
			continue;
		o = node_of(e, e->bus_name, e->marks.paths[i], &sb);
		if (o && (e->marks.flags[i] & CUA_MARK_PARENT))
			o = o->parent; /* the parent it left */
		/* a window's own children: a walk of the window, at once
		 * (before reading anything else again) */
		if (o && o != snap->app && depth_of(snap, o) == 0) {
			cr->detail = "a window's children changed";
			goto out;
		}
		if (o && o != snap->app && depth_of(snap, o) >= 0 &&
		    add_subtree(&st, o) < 0) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			goto out;
		}
	}
	for (size_t i = 0; i <= e->marks.n; i++) {
		struct cua_raw_node *o;
		uint8_t fl = i < e->marks.n ? e->marks.flags[i] : 0;
		int skip = 0;

		if (i < e->marks.n) {
			o = node_of(e, e->bus_name, e->marks.paths[i], &sb);
			if (fl & CUA_MARK_FOCUS)
				refocus = 1;
		} else {
			/* the focus moved: toolkits announce the object that
			 * gained it, seldom the one that lost it (GTK 3's
			 * entry when a menu opens), whose cached state would
			 * still say focused */
			o = refocus ? snap->focused : NULL;
			for (size_t k = 0; o && k < n; k++)
				if (olds[k] == o)
					o = NULL;
			if (!o)
				continue;
		}
		/* which rows of a long list show depends on the geometry */
		if (e->ranged &&
		    ((fl & CUA_MARK_BOUNDS) || !o || in_ranged(o))) {
			cr->detail = "a list read by visible range may scroll";
			goto out;
		}
		/* an object the walk did not read (hidden, not shown):
		 * what it shows arrives with its container's events; the
		 * toplevels were compared above */
		if (!o || o == snap->app || depth_of(snap, o) < 0)
			continue;
		for (size_t k = 0; k < st.n && !skip; k++)
			skip = is_under(o, st.v[k]);
		if (skip)
			continue;
		olds[n] = o;
		depths[n] = depth_of(snap, o);
		news[n] = cua_raw_node_new(tmp);
		if (!news[n]) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			goto out;
		}
		news[n]->ident = o->ident;
		news[n]->parent = o->parent;
		/* the policy's table rule asks for the index; the live one
		 * comes with the basic fields */
		news[n]->index_in_parent = -2;
		n++;
	}
	if (n) {
		r = s->backend->ops->refresh_nodes(s->backend, tmp, news,
						   depths, n, &pol);
		if (r != CUA_OK)
			goto out;
		if (tmp->stats.deadline_hit) {
			cr->detail =
				"an object read again did not answer in time";
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct cua_raw_node *o = olds[i], *f = news[i];
		struct cua_raw_node *place = NULL;
		int dold, dnew;

		/* gone, or moved among its siblings: its parent's children
		 * changed; another number of children, or descended into
		 * otherwise: its own did */
		if (!(f->have & CUA_HAVE_BASIC) ||
		    f->index_in_parent != o->index_in_parent)
			place = o->parent;
		dold = pol.descend(pol.user_data, o, depths[i]);
		dnew = place ? 0 : pol.descend(pol.user_data, f, depths[i]);
		if (!place &&
		    (dold != dnew || (dold && (o->have & CUA_HAVE_CHILDREN) &&
				      f->child_count != o->child_count)))
			place = o;
		if (place) {
			if (add_subtree(&st, place) < 0) {
				r = cua_error(CUA_ERROR_NOMEM, "out of memory");
				goto out;
			}
			continue;
		}
		/* what other objects show of this one: the name of the
		 * label that labels an element, a combo box's choice */
		if (!cua_cache_same_str(o->name, f->name) && o->name &&
		    labels_something(snap->app, o->name)) {
			cr->detail = "a label of another element changed";
			goto out;
		}
		if (in_combo(o)) {
			cr->detail = "a combo box's choice may have changed";
			goto out;
		}
		if (CUA_HAS_STATE(o, CUA_STATE_FOCUSED) !=
		    CUA_HAS_STATE(f, CUA_STATE_FOCUSED))
			refocus = 1;
		patch_node(o, f, dnew);
	}
	if (st.n) {
		r = read_subtrees(s, e, &st, &pol, cr);
		if (r != CUA_OK || cr->detail)
			goto out;
		refocus = 1; /* the focus may be a node read again */
	}
	r = find_reparented(s, e, &pol, cr);
	if (r != CUA_OK || cr->detail)
		goto out;
	if (refocus) {
		struct cua_raw_node *focus = NULL;

		for (size_t i = n_popups + 1; i-- > 0 && !focus;)
			focus = cua_raw_find_focused(
				snap->app->children[i ? popups[i - 1] : root]);
		cr->detail = "the focus moved out of sight";
		if (!focus && snap->focused_ident)
			goto out; /* the walk would ask the app */
		if (focus && (focus->ifaces & CUA_IFACE_TEXT) &&
		    !(focus->have & CUA_HAVE_TEXT_SELECTION))
			goto out;
		cr->detail = NULL;
		snap->focused = focus;
		snap->focused_ident = focus ? focus->ident : NULL;
	}
	cr->why = CUA_CACHE_HIT;
out:
	/* held while patched nodes point into it (the bound on patches
	 * counts it) */
	if (tmp && !n) {
		cua_raw_snapshot_free(tmp);
		tmp = NULL;
	}
	if (tmp && cua_cache_hold(e, tmp) < 0 && r == CUA_OK)
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
	sb_free(&sb);
	free(st.v);
	free(olds);
	free(news);
	free(depths);
	return r;
}

/* A full read for the observation (of the app opened already, owned,
 * or not yet). */
static cua_result
full_read(struct cua_session *s, const struct cua_app_info *app,
	  struct cua_raw_snapshot *opened, struct cua_cache_read *cr)
{
	return cua_observe_snapshot(s, app, opened, &cr->snap, &cr->root,
				    cr->popups, &cr->n_popups, &cr->vis, 0);
}

cua_result
cua_cache_observe(struct cua_session *s, const struct cua_app_info *app,
		  int warmed, struct cua_cache_read *cr)
{
	struct cua_cache *c = s->cache;
	struct cua_backend *b = s->backend;
	struct cua_cache_entry *e;
	struct cua_raw_snapshot *fresh = NULL, *check = NULL;
	int64_t t0 = cua_now_us();
	uint64_t calls = 0, gen;
	cua_result r;

	memset(cr, 0, sizeof(*cr));
	if (!c || !app->bus_name)
		return full_read(s, app, NULL, cr);
	e = cua_cache_find(c, app);
	/* watched, and the events sent so far dispatched (marked) */
	if (cua_settle_generation(s, app->bus_name, &gen) < 0)
		cr->why = CUA_CACHE_MISS_UNWATCHED;
	else if (!cua_cache_toolkit_trusted(c, app))
		cr->why = CUA_CACHE_MISS_TOOLKIT;
	else if (!e || !warmed)
		cr->why = CUA_CACHE_MISS_FIRST;
	else if (e->marks.full)
		cr->why = CUA_CACHE_MISS_CHANGE;
	else
		cr->why = CUA_CACHE_HIT;
	cr->keep = cr->why != CUA_CACHE_MISS_UNWATCHED &&
		   cr->why != CUA_CACHE_MISS_TOOLKIT;
	if (cr->why == CUA_CACHE_HIT) {
		r = b->ops->open_app(b, app, &fresh);
		if (r != CUA_OK) {
			/* as a full read would say it (the app quit...) */
			cua_cache_drop(c, e);
			return full_read(s, app, NULL, cr);
		}
		calls = fresh->stats.calls;
		/* the app answered the opening after sending whatever it
		 * sent before: those events are in now */
		cua_settle_generation(s, app->bus_name, &gen);
		if (e->marks.full)
			cr->why = CUA_CACHE_MISS_CHANGE;
	}
	/* what changes from here on is the next read's to catch */
	if (cr->keep)
		cua_cache_marks_start(c, app->bus_name);
	if (cr->why == CUA_CACHE_HIT) {
		if (c->verify) {
			/* a second opening, for the full read */
			r = b->ops->open_app(b, app, &check);
			if (r != CUA_OK) {
				cua_raw_snapshot_free(fresh);
				cua_cache_drop(c, e);
				return full_read(s, app, NULL, cr);
			}
		}
		r = apply_marks(s, app, e, fresh, gen, cr);
		fresh = NULL; /* the entry's now */
		if (r != CUA_OK) {
			cua_raw_snapshot_free(check);
			cua_cache_drop(c, e);
			return r;
		}
		if (cr->why != CUA_CACHE_HIT) {
			fresh = check;
			check = NULL;
		}
	}
	if (cr->why != CUA_CACHE_HIT) {
		if (!cr->detail && e)
			cr->detail = e->marks.full;
		cua_debug(&s->ctx, "tree cache: %s read in full (%s%s%s)",
			  app->app_id, cua_cache_miss_name(cr->why),
			  cr->detail ? ": " : "", cr->detail ? cr->detail : "");
		if (e)
			cua_cache_drop_for_read(c, e);
		return full_read(s, app, fresh, cr);
	}
	/* the entry goes on with the marks recorded from now on */
	cua_cache_marks_clear(&e->marks);
	e->marks = c->reading;
	memset(&c->reading, 0, sizeof(c->reading));
	cr->cached = 1;
	cr->snap = e->snap;
	cr->root = e->root;
	memcpy(cr->popups, e->popups, e->n_popups * sizeof(*e->popups));
	cr->n_popups = e->n_popups;
	cr->vis = e->vis;
	cr->calls = (int64_t)calls;
	cr->walk_us = cua_now_us() - t0;
	cua_debug(&s->ctx,
		  "tree cache: %s served from the cache (%lld us, %zu bytes, "
		  "%zu subtrees read again, %zu objects compared%s, %zu found "
		  "changed)",
		  app->app_id, (long long)cr->walk_us, e->bytes, cr->subtrees,
		  cr->swept, cr->presweep ? " while settling" : "",
		  cr->sweep_found);
	if (c->verify)
		return verify(s, app, e, check, cr);
	return CUA_OK;
}

void
cua_cache_keep(struct cua_session *s, const struct cua_app_info *app,
	       struct cua_cache_read *cr, struct cua_raw_snapshot *snap,
	       uint32_t root, const uint32_t *popups, size_t n_popups,
	       enum cua_visibility vis)
{
	if (cr->cached) {
		/* the cache's own; patched too often, it is read afresh
		 * next time (the bound of one app's memory) */
		struct cua_cache_entry *e = cua_cache_find(s->cache, app);

		if (e && (e->bytes > CUA_CACHE_APP_BYTES ||
			  e->n_patches > CUA_CACHE_MAX_PATCHES))
			cua_cache_drop(s->cache, e);
		return;
	}
	if (!s->cache || !cr->keep) {
		cua_raw_snapshot_free(snap);
		return;
	}
	cua_cache_store(s->cache, app, snap, root, popups, n_popups, vis);
}
