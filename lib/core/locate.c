/*
 * Live re-resolution (docs/identity.md §3, §4).
 *
 * The locator of an element is the chain of skeleton entries from its
 * toplevel down to it: every raw level, including containers the renderer
 * eliminated, each with the fingerprints of all its siblings. Resolution
 * starts at the live application object, finds the toplevel by identity
 * (§3.4), then for each level reads the live children with the walk's
 * child rule and checks them against the recorded siblings (§4 step 3).
 * When a step fails, the equivalence refetch searches the live subtree
 * below the deepest node that resolved and succeeds only on a unique
 * match (§4 step 5). Every failure is the exact stale sentence.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "errors.h"
#include "locate.h"
#include "roles.h"

#define FP_WANT (CUA_HAVE_ATTRIBUTES | CUA_HAVE_ID)

static int
str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

void
cua_fingerprint_of_raw(struct cua_fingerprint *fp, const struct cua_raw_node *n)
{
	const char *subrole = cua_raw_attr(n, "xml-roles");
	const char *id;

	if (!subrole)
		subrole = cua_raw_attr(n, "tag");
	id = n->accessible_id && *n->accessible_id ? n->accessible_id :
						     cua_raw_attr(n, "id");
	fp->role = n->role;
	fp->value_kind = (uint8_t)cua_raw_value_kind(n);
	/* a node read without details (hidden) has neither: unknown */
	fp->subrole = cua_raw_attrs_unknown(n) || cua_raw_details_unknown(n) ?
			      NULL :
		      subrole ? subrole :
				"";
	fp->identifier = cua_raw_details_unknown(n) ? NULL : id ? id : "";
	fp->title = n->name ? n->name : "";
}

/* Fingerprints equal except possibly the title. */
static int
same_kind(const struct cua_fingerprint *a, const struct cua_fingerprint *b)
{
	return a->role == b->role && a->value_kind == b->value_kind &&
	       cua_subrole_eq(a->subrole, b->subrole) &&
	       cua_subrole_eq(a->identifier, b->identifier);
}

/* The parent's fetched children are not one contiguous index range: a
 * table read as the grid of the cells it shows (rows of 16,384 cells in
 * LibreOffice Calc). Only the chosen cell is read again then. */
static int
is_grid(const struct cua_tree *t, const struct cua_skel *p)
{
	const struct cua_skel *a, *z;

	if (p->n_fetched < 2)
		return 0;
	a = &t->skel[p->first_child];
	z = &t->skel[p->first_child + p->n_fetched - 1];
	return z->index < a->index || z->index - a->index + 1 != p->n_fetched;
}

int
cua_locate_step_ok(const struct cua_tree *t, uint32_t parent, uint32_t chosen,
		   const struct cua_fingerprint *live,
		   const char *const *live_idents, size_t n_live,
		   uint32_t live_offset, uint32_t live_count, int strict)
{
	const struct cua_skel *p = &t->skel[parent];
	const struct cua_skel *c = &t->skel[chosen];
	const char *pin_live;
	int grid = is_grid(t, p);

	if (live_count != p->child_count)
		return 0;
	for (uint32_t j = 0; j < p->n_fetched; j++) {
		const struct cua_skel *s = &t->skel[p->first_child + j];
		const struct cua_fingerprint *l;

		if (s->index < live_offset ||
		    s->index - live_offset >= n_live) {
			if (grid)
				continue; /* not read again */
			return 0;
		}
		l = &live[s->index - live_offset];
		/* every sibling: role, subrole, identifier, value kind */
		if (!same_kind(&s->fp, l))
			return 0;
		/* titles: the chosen child and every sibling that could be
		 * mistaken for it (docs/differences.md D5); all of them in
		 * strict mode */
		if ((s == c || strict || same_kind(&s->fp, &c->fp)) &&
		    !str_eq(s->fp.title, l->title))
			return 0;
	}
	if (c->index < live_offset || c->index - live_offset >= n_live)
		return 0;
	if (c->pinned) {
		pin_live = live_idents ? live_idents[c->index - live_offset] :
					 NULL;
		if (!c->ident || !pin_live || strcmp(c->ident, pin_live) != 0)
			return 0;
	}
	return 1;
}

static int
pair_ok(const struct cua_fingerprint *l, const char *lid,
	const struct cua_fingerprint *r, const char *pin)
{
	if (!cua_fingerprint_equal(l, r))
		return 0;
	return !pin || (lid && strcmp(lid, pin) == 0);
}

/* live[0..nl) against rec[0..nr) with live[skip_l] or rec[skip_r]
 * left out (SIZE_MAX: none). */
static int
chain_eq(const struct cua_fingerprint *live, const char *const *lid, size_t nl,
	 size_t skip_l, const struct cua_fingerprint *rec,
	 const char *const *pin, size_t nr, size_t skip_r)
{
	size_t i = 0, j = 0;

	for (;;) {
		if (i == skip_l)
			i++;
		if (j == skip_r)
			j++;
		if (i >= nl || j >= nr)
			return i >= nl && j >= nr;
		if (!pair_ok(&live[i], lid ? lid[i] : NULL, &rec[j],
			     pin ? pin[j] : NULL))
			return 0;
		i++;
		j++;
	}
}

int
cua_locate_chain_ok(const struct cua_fingerprint *live,
		    const char *const *live_idents, size_t n_live,
		    const struct cua_fingerprint *rec,
		    const char *const *rec_pin, size_t n_rec)
{
	if (n_live == n_rec)
		return chain_eq(live, live_idents, n_live, SIZE_MAX, rec,
				rec_pin, n_rec, SIZE_MAX);
	if (n_live == n_rec + 1) {
		for (size_t k = 0; k < n_live; k++)
			if (chain_eq(live, live_idents, n_live, k, rec, rec_pin,
				     n_rec, SIZE_MAX))
				return 1;
		return 0;
	}
	if (n_live + 1 == n_rec) {
		/* a recorded eliminated level is gone, but never the
		 * recorded pinned levels */
		for (size_t k = 0; k < n_rec; k++)
			if ((!rec_pin || !rec_pin[k]) &&
			    chain_eq(live, live_idents, n_live, SIZE_MAX, rec,
				     rec_pin, n_rec, k))
				return 1;
		return 0;
	}
	return 0;
}

void
cua_located_clear(struct cua_located *loc)
{
	if (!loc)
		return;
	cua_raw_snapshot_free(loc->snap);
	memset(loc, 0, sizeof(*loc));
}

size_t
cua_located_depth(const struct cua_raw_node *n)
{
	size_t d = 0;

	while (n && n->parent && n->parent->role != CUA_ROLE_APPLICATION) {
		d++;
		n = n->parent;
	}
	return d;
}

static int
alive(const struct cua_raw_node *n)
{
	return n && (n->have & CUA_HAVE_BASIC) &&
	       !CUA_HAS_STATE(n, CUA_STATE_DEFUNCT);
}

/* The bus-name part of an identity ("bus:path"), its length or 0. */
static size_t
bus_len(const char *ident)
{
	const char *slash = ident ? strchr(ident, '/') : NULL;

	if (!slash || slash == ident || slash[-1] != ':')
		return 0;
	return (size_t)(slash - ident - 1);
}

static int
same_bus(const char *a, const char *b)
{
	size_t la = bus_len(a), lb = bus_len(b);

	return la && la == lb && strncmp(a, b, la) == 0;
}

/* Reads a node again with `want` and checks it is alive. */
static cua_result
finish(struct cua_backend *b, struct cua_located *out, struct cua_raw_node *n,
       uint32_t want)
{
	cua_result r;

	r = b->ops->read_nodes(b, out->snap, &n, 1, want | FP_WANT);
	if (r != CUA_OK)
		return r;
	if (!alive(n))
		return cua_err(CUA_MSG_INVALID);
	out->node = n;
	return CUA_OK;
}

/*
 * The equivalence refetch (docs/identity.md §4 step 5) below `d`, which
 * resolved as the skeleton entry chain[fail - 1]; the steps
 * chain[fail .. n - 1] remain.
 */
static cua_result
refetch(struct cua_backend *b, struct cua_located *out,
	const struct cua_tree *t, const uint32_t *chain, size_t n, size_t fail,
	struct cua_raw_node *d, struct cua_raw_node **found)
{
	const struct cua_skel *target = &t->skel[chain[n - 1]];
	size_t n_rec = n - 1 - fail,
	       levels = n - fail + CUA_REFETCH_EXTRA_LEVELS;
	struct cua_fingerprint rec[64], live[64], fp;
	const char *rec_pin[64], *live_id[64];
	struct cua_raw_node **level = NULL, **next = NULL, *cand = NULL;
	size_t n_level = 1, n_next, total = 0, matches = 0;
	cua_result r = CUA_OK;

	*found = NULL;
	if (n_rec > 64 || levels > 66)
		return cua_err(CUA_MSG_INVALID);
	for (size_t k = 0; k < n_rec; k++) {
		const struct cua_skel *s = &t->skel[chain[fail + k]];

		rec[k] = s->fp;
		rec_pin[k] = s->pinned ? s->ident : NULL;
	}
	level = malloc(sizeof(*level));
	if (!level)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	level[0] = d;
	for (size_t lv = 1;
	     lv <= levels && n_level && total < CUA_REFETCH_MAX_NODES; lv++) {
		struct cua_raw_node **parents =
			malloc(n_level * sizeof(*parents));
		size_t np = 0;

		if (!parents) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			break;
		}
		for (size_t i = 0; i < n_level; i++)
			if (alive(level[i]) && level[i]->child_count > 0)
				parents[np++] = level[i];
		if (np)
			r = b->ops->read_children(
				b, out->snap, parents, np, 0,
				(uint32_t)(CUA_REFETCH_MAX_NODES - total),
				FP_WANT);
		if (r != CUA_OK) {
			free(parents);
			break;
		}
		n_next = 0;
		for (size_t i = 0; i < np; i++)
			n_next += parents[i]->n_children;
		free(next);
		next = malloc((n_next ? n_next : 1) * sizeof(*next));
		if (!next) {
			free(parents);
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			break;
		}
		n_next = 0;
		for (size_t i = 0; i < np; i++)
			for (size_t k = 0; k < parents[i]->n_children; k++) {
				struct cua_raw_node *x =
					parents[i]->children[k];

				if (!alive(x))
					continue;
				next[n_next++] = x;
				if (++total >= CUA_REFETCH_MAX_NODES)
					break;
			}
		free(parents);
		for (size_t i = 0; i < n_next; i++) {
			struct cua_raw_node *x = next[i];
			size_t nl = 0;

			cua_fingerprint_of_raw(&fp, x);
			if (!cua_fingerprint_equal(&fp, &target->fp))
				continue;
			/* a pinned target is only ever its own object */
			if (target->pinned &&
			    (!target->ident || !x->ident ||
			     strcmp(target->ident, x->ident) != 0))
				continue;
			/* its ancestors below d, top down */
			for (struct cua_raw_node *a = x->parent; a && a != d;
			     a = a->parent)
				nl++;
			if (nl > 64)
				continue;
			{
				size_t k = nl;

				for (struct cua_raw_node *a = x->parent;
				     a && a != d; a = a->parent) {
					k--;
					cua_fingerprint_of_raw(&live[k], a);
					live_id[k] = a->ident;
				}
			}
			if (!cua_locate_chain_ok(live, live_id, nl, rec,
						 rec_pin, n_rec))
				continue;
			matches++;
			cand = x;
		}
		free(level);
		level = next;
		n_level = n_next;
		next = NULL;
	}
	free(level);
	free(next);
	if (r != CUA_OK)
		return r;
	if (matches == 0)
		return cua_err(CUA_MSG_INVALID);
	if (matches > 1)
		return cua_err(CUA_MSG_REFETCH_FINISH);
	*found = cand;
	return CUA_OK;
}

/* Popup items (docs/identity.md §3.5): the cached object, re-verified. */
static cua_result
direct_reference(struct cua_backend *b, struct cua_located *out,
		 const struct cua_tree *t, const struct cua_skel *s,
		 uint32_t want)
{
	struct cua_raw_node *n;
	struct cua_fingerprint fp;
	cua_result r;

	if (!s->ident || !out->app || !same_bus(s->ident, out->app->ident))
		return cua_err(CUA_MSG_INVALID);
	n = cua_raw_node_new(out->snap);
	if (!n)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	n->ident = cua_arena_strdup(out->snap->arena, s->ident);
	r = b->ops->read_nodes(b, out->snap, &n, 1, want | FP_WANT);
	if (r != CUA_OK)
		return r;
	if (!alive(n) || !CUA_HAS_STATE(n, CUA_STATE_SHOWING))
		return cua_err(CUA_MSG_INVALID);
	cua_fingerprint_of_raw(&fp, n);
	if (!cua_fingerprint_equal(&fp, &s->fp))
		return cua_err(CUA_MSG_INVALID);
	out->node = n;
	out->direct_ref = 1;
	(void)t;
	return CUA_OK;
}

cua_result
cua_locate(struct cua_backend *b, const struct cua_app_info *app,
	   const struct cua_tree *t, const struct cua_element *e, uint32_t want,
	   int strict, struct cua_located *out)
{
	uint32_t chain[256];
	size_t n = 0, i;
	const struct cua_skel *top;
	struct cua_raw_node *cur = NULL, *found;
	struct cua_fingerprint *live;
	const char **live_id;
	cua_result r;

	memset(out, 0, sizeof(*out));
	out->element = e;
	if (!b->ops->read_nodes || !b->ops->read_children)
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "the %s backend cannot act on elements",
				 b->ops->name);
	if (e->skel < 0 || !t->skel || (size_t)e->skel >= t->n_skel)
		return cua_err(CUA_MSG_REFETCH_START);
	for (int32_t k = e->skel; k >= 0; k = t->skel[k].parent) {
		if (n == sizeof(chain) / sizeof(chain[0]))
			return cua_err(CUA_MSG_REFETCH_START);
		chain[n++] = (uint32_t)k;
	}
	for (i = 0; i < n / 2; i++) {
		uint32_t x = chain[i];

		chain[i] = chain[n - 1 - i];
		chain[n - 1 - i] = x;
	}
	/* unlocatable: an ambiguous step without an identity
	 * (docs/identity.md §3.3) */
	for (i = 1; i < n; i++)
		if (t->skel[chain[i]].pinned && !t->skel[chain[i]].ident)
			return cua_err(CUA_MSG_REFETCH_START);

	r = b->ops->open_app(b, app, &out->snap);
	if (r != CUA_OK)
		return r;
	out->app = out->snap->app;

	/* the window step (docs/identity.md §3.4): by identity, not by title */
	top = &t->skel[chain[0]];
	if (top->ident) {
		struct cua_raw_node *a = out->app;

		if (top->index < a->n_children &&
		    a->children[top->index]->ident &&
		    strcmp(a->children[top->index]->ident, top->ident) == 0) {
			cur = a->children[top->index];
			out->window_index = top->index;
		} else {
			for (i = 0; i < a->n_children; i++)
				if (a->children[i]->ident &&
				    strcmp(a->children[i]->ident, top->ident) ==
					    0) {
					cur = a->children[i];
					out->window_index = (uint32_t)i;
					break;
				}
		}
	}
	if (!cur || !alive(cur) || cur->role != top->fp.role) {
		if (e->flags & CUA_ELEM_POPUP)
			return direct_reference(b, out, t, &t->skel[e->skel],
						want);
		return cua_err(CUA_MSG_INVALID);
	}
	out->window = cur;
	if (out->snap->windows)
		out->x11_window =
			out->snap->windows[out->window_index].x11_window;

	for (i = 1; i < n; i++) {
		const struct cua_skel *ps = &t->skel[chain[i - 1]];
		const struct cua_skel *cs = &t->skel[chain[i]];
		int ranged = ps->n_fetched < ps->child_count;
		int grid = is_grid(t, ps);
		uint32_t first = grid   ? cs->index :
				 ranged ? ps->child_offset :
					  0;
		uint32_t count = grid ? 1 : ranged ? ps->n_fetched : UINT32_MAX;
		size_t nl;
		struct cua_raw_node *next;

		r = b->ops->read_children(b, out->snap, &cur, 1, first, count,
					  FP_WANT);
		if (r != CUA_OK)
			return r;
		nl = cur->n_children;
		live = calloc(nl ? nl : 1, sizeof(*live));
		live_id = calloc(nl ? nl : 1, sizeof(*live_id));
		if (!live || !live_id) {
			free(live);
			free(live_id);
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
		if (alive(cur)) {
			for (size_t k = 0; k < nl; k++) {
				cua_fingerprint_of_raw(&live[k],
						       cur->children[k]);
				live_id[k] = cur->children[k]->ident;
				/* a dead sibling does not match anything */
				if (!alive(cur->children[k]))
					live[k].role = UINT32_MAX;
			}
			if (cua_locate_step_ok(
				    t, chain[i - 1], chain[i], live, live_id,
				    nl, (uint32_t)cur->child_offset,
				    (uint32_t)cur->child_count, strict)) {
				next = cur->children[cs->index -
						     cur->child_offset];
				if (alive(next)) {
					free(live);
					free(live_id);
					cur = next;
					out->steps++;
					continue;
				}
			}
		}
		free(live);
		free(live_id);
		/* the step failed: the equivalence refetch */
		r = refetch(b, out, t, chain, n, i, cur, &found);
		if (r != CUA_OK)
			return r;
		out->refetched = 1;
		cur = found;
		break;
	}
	r = finish(b, out, cur, want);
	if (r != CUA_OK)
		return r;
	{
		const char *cached = t->skel[e->skel].ident;

		if (cached && out->node->ident &&
		    strcmp(cached, out->node->ident) != 0)
			out->identity_changed = 1;
	}
	return CUA_OK;
}
