/*
 * The recorded backend: replays a raw tree saved as JSON, for unit tests
 * and for replaying a tree recorded from a real app (`cua record`). This
 * file holds the backend ops; load.c reads the format (described there)
 * and record.c writes it.
 *
 * Replay, mirroring the AT-SPI reader (atspi/fetch.c):
 * - open_app() copies the application node and the toplevels (their basic
 *   fields and extents), and the windows.
 * - fetch() copies the recorded subtrees of the requested toplevels
 *   breadth first (toplevels are depth 0). For each node with basic
 *   fields and without state DEFUNCT it asks policy->details() and copies
 *   the pieces both asked for and recorded, then policy->descend(); the
 *   children are copied when the node is above max_raw_depth (<= 0: 64),
 *   descend() agrees and the recording has them. Node creation stops at
 *   max_nodes nodes in the snapshot (stats.node_cap_hit) or at the
 *   deadline (stats.deadline_hit); the cut child list is partial.
 *   The focused node is a fetched node with state FOCUSED (a later root
 *   first), else the recording's "focused" (focused_ident set, focused
 *   the node when it was fetched); its text selection is copied even if
 *   not asked for. No D-Bus: stats.calls stays 0. A NULL policy reads
 *   everything.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/recorded/recording.h"
#include "core/walk.h"

struct rec_backend {
	struct cua_backend base;
	struct cua_raw_snapshot *rec; /* the whole recording */
	struct cua_app_info app;      /* strings in rec->arena */
};

/* ------------------------------------------------------------------ */
/* Copies                                                              */

static int
copy_str(struct cua_arena *a, const char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = cua_arena_strdup(a, src);
	return *dst ? 0 : -1;
}

/* Identity, role, states, interfaces, name and child count. */
static int
copy_basic(struct cua_arena *a, struct cua_raw_node *dst,
	   const struct cua_raw_node *src)
{
	dst->role = src->role;
	dst->states = src->states;
	dst->ifaces = src->ifaces;
	dst->child_count = src->child_count;
	/* a table's row count is read with its child count */
	dst->table_nrows = src->table_nrows;
	dst->index_in_parent = src->index_in_parent;
	dst->x11_window = src->x11_window;
	dst->have |= src->have & CUA_HAVE_BASIC;
	return copy_str(a, &dst->ident, src->ident) ||
	       copy_str(a, &dst->name, src->name);
}

/* The pieces of `mask` that src has, except basic fields and children. */
static int
copy_pieces(struct cua_arena *a, struct cua_raw_node *dst,
	    const struct cua_raw_node *src, uint32_t mask)
{
	const struct cua_rec_string *s;
	uint32_t m = src->have & mask & ~(CUA_HAVE_BASIC | CUA_HAVE_CHILDREN);
	size_t i;

	dst->have |= m;
	for (i = 0; i < CUA_REC_N_NODE_STRINGS; i++) {
		s = &cua_rec_node_strings[i];
		if ((m & s->bit) && copy_str(a, &CUA_REC_FIELD(dst, s->offset),
					     CUA_REC_FIELD(src, s->offset)))
			return -1;
	}
	if ((m & CUA_HAVE_ATTRIBUTES) && src->n_attrs) {
		dst->attrs =
			cua_arena_alloc(a, src->n_attrs * sizeof(*dst->attrs));
		if (!dst->attrs)
			return -1;
		dst->n_attrs = src->n_attrs;
		for (i = 0; i < src->n_attrs; i++)
			if (copy_str(a, &dst->attrs[i].key,
				     src->attrs[i].key) ||
			    copy_str(a, &dst->attrs[i].value,
				     src->attrs[i].value))
				return -1;
	}
	if ((m & CUA_HAVE_ACTIONS) && src->n_actions) {
		dst->actions = cua_arena_alloc(
			a, src->n_actions * sizeof(*dst->actions));
		if (!dst->actions)
			return -1;
		dst->n_actions = src->n_actions;
		for (i = 0; i < src->n_actions; i++)
			if (copy_str(a, &dst->actions[i].name,
				     src->actions[i].name) ||
			    copy_str(a, &dst->actions[i].localized,
				     src->actions[i].localized) ||
			    copy_str(a, &dst->actions[i].description,
				     src->actions[i].description))
				return -1;
	}
	if (m & CUA_HAVE_VALUE) {
		dst->value = src->value;
		dst->value_min = src->value_min;
		dst->value_max = src->value_max;
		dst->value_step = src->value_step;
		if (copy_str(a, &dst->value_text, src->value_text))
			return -1;
	}
	if (m & CUA_HAVE_TEXT_SELECTION) {
		dst->sel_start = src->sel_start;
		dst->sel_end = src->sel_end;
	}
	if (m & CUA_HAVE_EXTENTS)
		dst->extents = src->extents;
	if (m & CUA_HAVE_TABLE_ROW)
		dst->table_row = src->table_row;
	return 0;
}

static cua_result
copy_app_info(struct cua_arena *a, struct cua_app_info *dst,
	      const struct cua_app_info *src)
{
	size_t i;

	*dst = *src;
	for (i = 0; i < CUA_REC_N_APP_STRINGS; i++)
		if (copy_str(a,
			     &CUA_REC_FIELD(dst, cua_rec_app_strings[i].offset),
			     CUA_REC_FIELD(src, cua_rec_app_strings[i].offset)))
			return CUA_ERROR_NOMEM;
	return CUA_OK;
}

/* ------------------------------------------------------------------ */
/* Backend ops                                                         */

static void
rec_destroy(struct cua_backend *b)
{
	struct rec_backend *be = (struct rec_backend *)b;

	if (!be)
		return;
	cua_raw_snapshot_free(be->rec);
	free(be);
}

static cua_result
rec_list_apps(struct cua_backend *b, struct cua_app_list **out)
{
	struct rec_backend *be = (struct rec_backend *)b;
	struct cua_app_list *list;

	*out = NULL;
	list = calloc(1, sizeof(*list));
	if (!list || !(list->arena = cua_arena_new()))
		goto nomem;
	list->apps = cua_arena_alloc(list->arena, sizeof(*list->apps));
	if (!list->apps ||
	    copy_app_info(list->arena, list->apps, &be->app) != CUA_OK)
		goto nomem;
	list->n = 1;
	*out = list;
	return CUA_OK;
nomem:
	cua_app_list_free(list);
	return cua_error(CUA_ERROR_NOMEM, "recorded backend: out of memory");
}

static cua_result
rec_list_installed(struct cua_backend *b, struct cua_installed_list **out)
{
	struct cua_installed_list *list;

	*out = NULL;
	list = calloc(1, sizeof(*list));
	if (!list || !(list->arena = cua_arena_new())) {
		free(list);
		return cua_error(CUA_ERROR_NOMEM,
				 "recorded backend: out of memory");
	}
	*out = list;
	return CUA_OK;
}

static cua_result
rec_open_app(struct cua_backend *b, const struct cua_app_info *app,
	     struct cua_raw_snapshot **out)
{
	struct rec_backend *be = (struct rec_backend *)b;
	const struct cua_raw_node *src = be->rec->app;
	struct cua_raw_snapshot *snap;
	struct cua_raw_node *a, *t;
	size_t i, n = src->n_children;

	*out = NULL;
	if (!app)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recorded backend: no app given");
	if (app->pid != be->app.pid || app->start_time != be->app.start_time)
		return cua_error(
			CUA_ERROR_NOT_FOUND,
			"recorded backend: the recording holds pid %lld, not %lld",
			(long long)be->app.pid, (long long)app->pid);
	snap = cua_raw_snapshot_new();
	if (!snap)
		goto nomem;
	a = snap->app = cua_raw_node_new(snap);
	if (!a || copy_basic(snap->arena, a, src) ||
	    copy_pieces(snap->arena, a, src, ~0u))
		goto nomem;
	if (n) {
		a->children =
			cua_arena_alloc(snap->arena, n * sizeof(*a->children));
		snap->windows = cua_arena_alloc(snap->arena,
						n * sizeof(*snap->windows));
		if (!a->children || !snap->windows)
			goto nomem;
	}
	for (i = 0; i < n; i++) {
		t = cua_raw_node_new(snap);
		if (!t || copy_basic(snap->arena, t, src->children[i]) ||
		    copy_pieces(snap->arena, t, src->children[i],
				CUA_HAVE_EXTENTS))
			goto nomem;
		t->parent = a;
		a->children[i] = t;
		snap->windows[i] = be->rec->windows[i];
		if (copy_str(snap->arena, &snap->windows[i].x11_title,
			     be->rec->windows[i].x11_title))
			goto nomem;
	}
	a->n_children = n;
	a->child_offset = src->child_offset;
	a->children_partial = src->children_partial;
	a->have |= src->have & CUA_HAVE_CHILDREN;
	*out = snap;
	return CUA_OK;
nomem:
	cua_raw_snapshot_free(snap);
	return cua_error(CUA_ERROR_NOMEM, "recorded backend: out of memory");
}

struct fetch_item {
	struct cua_raw_node *dst;
	const struct cua_raw_node *src;
	int depth;
};

/* The nodes of one fetch, breadth first; items stay in the queue after
 * they are processed. */
struct fetch {
	struct cua_raw_snapshot *snap;
	const struct cua_fetch_policy *pol;
	int max_depth;
	struct fetch_item *q;
	size_t head, n, cap;
};

static int
fetch_push(struct fetch *f, struct cua_raw_node *dst,
	   const struct cua_raw_node *src, int depth)
{
	struct fetch_item *q;
	size_t cap;

	if (f->n == f->cap) {
		cap = f->cap ? f->cap * 2 : 256;
		q = realloc(f->q, cap * sizeof(*q));
		if (!q)
			return -1;
		f->q = q;
		f->cap = cap;
	}
	f->q[f->n].dst = dst;
	f->q[f->n].src = src;
	f->q[f->n].depth = depth;
	f->n++;
	return 0;
}

static int
deadline_passed(struct fetch *f)
{
	if (f->pol->deadline_us && cua_now_us() >= f->pol->deadline_us) {
		f->snap->stats.deadline_hit = 1;
		return 1;
	}
	return 0;
}

/* A node the policy may be asked about (the live reader skips the
 * others). */
static int
readable(const struct cua_raw_node *n)
{
	return (n->have & CUA_HAVE_BASIC) &&
	       !CUA_HAS_STATE(n, CUA_STATE_DEFUNCT);
}

/* Copies the pieces the policy asks for, then the children when it
 * wants them. Returns -1 when out of memory, 1 when the deadline passed. */
static int
fetch_node(struct fetch *f, const struct fetch_item *it)
{
	const struct cua_fetch_policy *pol = f->pol;
	struct cua_raw_snapshot *snap = f->snap;
	struct cua_raw_node *dst = it->dst, *c;
	const struct cua_raw_node *src = it->src;
	uint32_t want = ~0u;
	size_t i;

	if (!readable(dst))
		return 0;
	if (pol->details)
		want = pol->details(pol->user_data, dst, it->depth);
	if (copy_pieces(snap->arena, dst, src, want))
		return -1;
	if (it->depth >= f->max_depth ||
	    (pol->descend && !pol->descend(pol->user_data, dst, it->depth)) ||
	    !(src->have & CUA_HAVE_CHILDREN))
		return 0;
	dst->have |= CUA_HAVE_CHILDREN;
	dst->child_offset = src->child_offset;
	dst->children_partial = src->children_partial;
	if (!src->n_children)
		return 0;
	dst->children =
		cua_arena_alloc(snap->arena, src->n_children * sizeof(c));
	if (!dst->children)
		return -1;
	for (i = 0; i < src->n_children; i++) {
		if (pol->max_nodes && snap->stats.nodes >= pol->max_nodes) {
			snap->stats.node_cap_hit = 1;
			dst->children_partial = 1;
			return 0;
		}
		if (deadline_passed(f)) {
			dst->children_partial = 1;
			return 1;
		}
		c = cua_raw_node_new(snap);
		if (!c || copy_basic(snap->arena, c, src->children[i]) ||
		    fetch_push(f, c, src->children[i], it->depth + 1))
			return -1;
		c->parent = dst;
		dst->children[dst->n_children++] = c;
	}
	return 0;
}

static struct cua_raw_node *
find_focused(struct cua_raw_node *n)
{
	struct cua_raw_node *r;
	size_t i;

	if ((n->have & CUA_HAVE_BASIC) && CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return n;
	for (i = 0; i < n->n_children; i++)
		if ((r = find_focused(n->children[i])))
			return r;
	return NULL;
}

static struct cua_raw_node *
find_ident(struct cua_raw_node *n, const char *ident)
{
	struct cua_raw_node *r;
	size_t i;

	if (n->ident && strcmp(n->ident, ident) == 0)
		return n;
	for (i = 0; i < n->n_children; i++)
		if ((r = find_ident(n->children[i], ident)))
			return r;
	return NULL;
}

/*
 * The focused node, as the live reader finds it: a fetched node with
 * state FOCUSED (a later root wins: popups hold the focus while open),
 * else the recorded focus (what Collection.GetMatches answers), fetched
 * or not. The focused node's text selection is read even when the policy
 * did not ask for it.
 */
static int
fetch_focus(struct fetch *f, struct cua_raw_node **roots, size_t n_roots,
	    const char *rec_focus)
{
	struct cua_raw_snapshot *snap = f->snap;
	struct cua_raw_node *focus = NULL;
	size_t i;

	for (i = n_roots; i-- > 0 && !focus;)
		focus = find_focused(roots[i]);
	if (!focus && rec_focus) {
		snap->focused_ident = cua_arena_strdup(snap->arena, rec_focus);
		if (!snap->focused_ident)
			return -1;
		for (i = 0; i < n_roots && !focus; i++)
			focus = find_ident(roots[i], rec_focus);
	}
	if (!focus)
		return 0;
	snap->focused = focus;
	snap->focused_ident = focus->ident;
	if (!(focus->ifaces & CUA_IFACE_TEXT))
		return 0;
	for (i = 0; i < f->n; i++)
		if (f->q[i].dst == focus)
			return copy_pieces(snap->arena, focus, f->q[i].src,
					   CUA_HAVE_TEXT_SELECTION);
	return 0;
}

/* Index of root among the toplevels of snap (n_children if not one). */
static size_t
toplevel_index(const struct cua_raw_snapshot *snap,
	       const struct cua_raw_node *root)
{
	size_t i;

	for (i = 0; i < snap->app->n_children; i++)
		if (snap->app->children[i] == root)
			break;
	return i;
}

static cua_result
rec_fetch(struct cua_backend *b, struct cua_raw_snapshot *snap,
	  struct cua_raw_node **roots, size_t n_roots,
	  const struct cua_fetch_policy *policy)
{
	static const struct cua_fetch_policy everything;
	struct rec_backend *be = (struct rec_backend *)b;
	const struct cua_raw_node *rec_app = be->rec->app;
	struct fetch f = { .snap = snap, .pol = policy ? policy : &everything };
	struct cua_raw_node *root;
	struct fetch_item it;
	int64_t t0 = cua_now_us();
	size_t i, k;
	int r = 0;

	if (!snap || !snap->app || (n_roots && !roots))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recorded backend: fetch without a snapshot");
	for (k = 0; k < n_roots; k++)
		if (toplevel_index(snap, roots[k]) >= rec_app->n_children)
			return cua_error(
				CUA_ERROR_INVALID_ARGUMENT,
				"recorded backend: fetch root %zu is not a toplevel of the recording",
				k);
	f.max_depth = f.pol->max_raw_depth > 0 ? f.pol->max_raw_depth : 64;
	snap->focused = NULL;
	snap->focused_ident = NULL;
	for (k = 0; k < n_roots; k++) {
		root = roots[k];
		i = toplevel_index(snap, root);
		root->children = NULL;
		root->n_children = 0;
		root->children_partial = 0;
		root->have &= ~CUA_HAVE_CHILDREN;
		if (fetch_push(&f, root, rec_app->children[i], 0))
			goto nomem;
	}
	while (r == 0 && f.head < f.n) {
		it = f.q[f.head++]; /* fetch_node() may move the queue */
		r = deadline_passed(&f) ? 1 : fetch_node(&f, &it);
	}
	if (r == 0)
		r = fetch_focus(&f, roots, n_roots, be->rec->focused_ident);
	if (r < 0)
		goto nomem;
	free(f.q);
	snap->stats.elapsed_us += (uint64_t)(cua_now_us() - t0);
	return CUA_OK;
nomem:
	free(f.q);
	return cua_error(CUA_ERROR_NOMEM, "recorded backend: out of memory");
}

static cua_result
rec_launch(struct cua_backend *b, const struct cua_installed_app *app,
	   int64_t *pid)
{
	*pid = 0;
	return cua_error(
		CUA_ERROR_UNSUPPORTED,
		"the recorded backend cannot launch %s: it only replays a recorded tree",
		app && app->desktop_id ? app->desktop_id : "apps");
}

static int
rec_process_alive(struct cua_backend *b, int64_t pid, uint64_t start_time)
{
	struct rec_backend *be = (struct rec_backend *)b;

	return pid == be->app.pid && start_time == be->app.start_time;
}

/* Live reads for actions (re-resolution on recorded trees): the
 * recording plays the live app. */
static cua_result
rec_read_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
	       struct cua_raw_node **nodes, size_t n, uint32_t want)
{
	struct rec_backend *be = (struct rec_backend *)b;

	for (size_t i = 0; i < n; i++) {
		struct cua_raw_node *dst = nodes[i];
		const struct cua_raw_node *src =
			dst->ident ? find_ident(be->rec->app, dst->ident) :
				     NULL;

		dst->have &= ~(uint32_t)CUA_HAVE_BASIC;
		if (!src)
			continue;
		if (copy_basic(snap->arena, dst, src) ||
		    copy_pieces(snap->arena, dst, src,
				want & ~(uint32_t)CUA_HAVE_CHILDREN))
			return cua_error(CUA_ERROR_NOMEM,
					 "recorded backend: out of memory");
	}
	return CUA_OK;
}

static cua_result
rec_read_children(struct cua_backend *b, struct cua_raw_snapshot *snap,
		  struct cua_raw_node **parents, size_t n, uint32_t first,
		  uint32_t count, uint32_t want)
{
	struct rec_backend *be = (struct rec_backend *)b;
	enum cua_visibility vis = cua_walk_visibility_for(
		be->app.toolkit, be->app.toolkit_version);

	for (size_t i = 0; i < n; i++) {
		struct cua_raw_node *dst = parents[i];
		const struct cua_raw_node *src =
			dst->ident ? find_ident(be->rec->app, dst->ident) :
				     NULL;
		size_t k, lo, hi, got = 0;

		dst->have &= ~(uint32_t)(CUA_HAVE_BASIC | CUA_HAVE_CHILDREN);
		dst->children = NULL;
		dst->n_children = 0;
		if (!src)
			continue;
		if (copy_basic(snap->arena, dst, src))
			goto nomem;
		if (!(src->have & CUA_HAVE_CHILDREN))
			continue;
		dst->have |= CUA_HAVE_CHILDREN;
		dst->child_offset = first;
		/* what the recording holds of first .. first + count - 1 */
		lo = first;
		hi = count == UINT32_MAX ? SIZE_MAX : (size_t)first + count;
		dst->children = cua_arena_alloc(
			snap->arena, (src->n_children ? src->n_children : 1) *
					     sizeof(*dst->children));
		if (!dst->children)
			goto nomem;
		for (k = 0; k < src->n_children; k++) {
			size_t abs = src->child_offset + k;
			struct cua_raw_node *c;

			if (abs < lo || abs >= hi)
				continue;
			if (got == 0)
				dst->child_offset = abs;
			c = cua_raw_node_new(snap);
			if (!c || copy_basic(snap->arena, c, src->children[k]))
				goto nomem;
			/* a hidden child gets no details, as in the walk */
			if (cua_walk_is_visible(c, vis) &&
			    copy_pieces(snap->arena, c, src->children[k],
					want & ~(uint32_t)CUA_HAVE_CHILDREN))
				goto nomem;
			c->parent = dst;
			c->index_in_parent = (int32_t)abs;
			dst->children[got++] = c;
		}
		dst->n_children = got;
		dst->children_partial =
			dst->child_offset > 0 ||
			(int64_t)(dst->child_offset + got) < dst->child_count;
	}
	return CUA_OK;
nomem:
	return cua_error(CUA_ERROR_NOMEM, "recorded backend: out of memory");
}

static const struct cua_backend_ops rec_ops = {
	.name = "recorded",
	.destroy = rec_destroy,
	.list_apps = rec_list_apps,
	.list_installed = rec_list_installed,
	.open_app = rec_open_app,
	.fetch = rec_fetch,
	.launch = rec_launch,
	.process_alive = rec_process_alive,
	.read_nodes = rec_read_nodes,
	.read_children = rec_read_children,
};

cua_result
cua_backend_recorded_new(struct cua_ctx *ctx, const char *path,
			 struct cua_backend **out)
{
	struct rec_backend *be = NULL;
	cua_result r;

	if (!out)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recorded backend: no output pointer");
	*out = NULL;
	be = calloc(1, sizeof(*be));
	if (!be)
		return cua_error(CUA_ERROR_NOMEM, "recording %s: out of memory",
				 path ? path : "");
	r = cua_rec_load(path, &be->rec, &be->app);
	if (r) {
		free(be);
		return r;
	}
	be->base.ops = &rec_ops;
	be->base.ctx = ctx;
	cua_debug(ctx, "recording %s: %llu nodes, %zu toplevels", path,
		  (unsigned long long)be->rec->stats.nodes,
		  be->rec->app->n_children);
	*out = &be->base;
	return CUA_OK;
}

cua_result
cua_backend_recorded_replace(struct cua_backend *b, const char *path)
{
	struct rec_backend *be = (struct rec_backend *)b;
	struct cua_raw_snapshot *rec;
	struct cua_app_info app;
	cua_result r;

	if (!b || b->ops != &rec_ops)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "not a recorded backend");
	r = cua_rec_load(path, &rec, &app);
	if (r)
		return r;
	cua_raw_snapshot_free(be->rec);
	be->rec = rec;
	be->app = app;
	cua_debug(b->ctx, "recording replaced by %s: %llu nodes", path,
		  (unsigned long long)rec->stats.nodes);
	return CUA_OK;
}
