/*
 * Frames measured from another origin (frames.h, geometry.h rule 5).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>

#include "frames.h"
#include "geometry.h"

/* deeper subtrees keep the shift of their ancestor at this depth */
#define MAX_DEPTH 256

/* A container whose children (and their subtrees) use another shift. */
struct move {
	const struct cua_raw_node *parent;
	int32_t sx, sy;
};

struct fix {
	struct cua_rect a; /* the accessibility window's extents */
	int32_t ix, iy;    /* origin move already applied */
	int have_o;        /* the other system is known */
	int32_t ox, oy;    /* its shift */
	struct move *moves;
	size_t n_moves, cap_moves;
	struct cua_rect *kids; /* scratch */
	size_t cap_kids;
	int failed;
};

/* A node's frame in window points, as the walk computes it. */
static struct cua_rect
window_rect(const struct fix *f, const struct cua_raw_node *n)
{
	struct cua_rect r = n->extents;

	r.x = r.x - f->a.x + f->ix;
	r.y = r.y - f->a.y + f->iy;
	return r;
}

static void
add_move(struct fix *f, const struct cua_raw_node *p, int32_t sx, int32_t sy)
{
	if (f->n_moves == f->cap_moves) {
		size_t cap = f->cap_moves ? f->cap_moves * 2 : 8;
		struct move *m = realloc(f->moves, cap * sizeof(*m));

		if (!m) {
			f->failed = 1;
			return;
		}
		f->moves = m;
		f->cap_moves = cap;
	}
	f->moves[f->n_moves++] = (struct move){ p, sx, sy };
}

/* Decides for the children of `p`, whose subtree uses shift (sx, sy), and
 * descends. */
static void
scan(struct fix *f, const struct cua_raw_node *p, int32_t sx, int32_t sy,
     int depth)
{
	int32_t cx = sx, cy = sy;
	size_t k = 0;

	if (depth > MAX_DEPTH || f->failed || !p->n_children)
		return;
	if (cua_raw_has_extent(p)) {
		struct cua_rect pr = window_rect(f, p);
		int32_t ax, ay;

		pr.x += sx;
		pr.y += sy;
		if (f->have_o) {
			ax = sx || sy ? 0 : f->ox;
			ay = sx || sy ? 0 : f->oy;
		} else {
			/* the first move: children measured from the client
			 * area's origin instead of their host's position in
			 * it */
			ax = pr.x;
			ay = pr.y;
		}
		if (p->n_children > f->cap_kids) {
			struct cua_rect *kr =
				realloc(f->kids, p->n_children * sizeof(*kr));

			if (!kr) {
				f->failed = 1;
				return;
			}
			f->kids = kr;
			f->cap_kids = p->n_children;
		}
		for (size_t i = 0; i < p->n_children; i++)
			if (p->children[i] &&
			    cua_raw_has_extent(p->children[i]))
				f->kids[k++] = window_rect(f, p->children[i]);
		if (ax >= 0 && ay >= 0 &&
		    cua_geom_children_moved(&pr, f->kids, k, sx, sy, ax, ay)) {
			if (!f->have_o) {
				f->have_o = 1;
				f->ox = ax;
				f->oy = ay;
			}
			cx = ax;
			cy = ay;
			add_move(f, p, cx, cy);
		}
	}
	for (size_t i = 0; i < p->n_children; i++)
		if (p->children[i])
			scan(f, p->children[i], cx, cy, depth + 1);
}

/* The child of `n` at absolute index `idx`, or NULL. */
static const struct cua_raw_node *
child_at(const struct cua_raw_node *n, uint32_t idx)
{
	if (idx >= n->child_offset && idx - n->child_offset < n->n_children &&
	    n->children[idx - n->child_offset] &&
	    n->children[idx - n->child_offset]->index_in_parent == (int32_t)idx)
		return n->children[idx - n->child_offset];
	for (size_t i = 0; i < n->n_children; i++)
		if (n->children[i] &&
		    n->children[i]->index_in_parent == (int32_t)idx)
			return n->children[i];
	return NULL;
}

/* The shift of element `e`'s raw node: the last move on its path. */
static int
element_shift(const struct fix *f, const struct cua_tree *t,
	      const struct cua_element *e, const struct cua_raw_node *w,
	      uint32_t root, int32_t *sx, int32_t *sy)
{
	const struct cua_raw_node *n = w;
	int32_t k = e->skel;

	*sx = *sy = 0;
	if (k < 0 || !e->path)
		return 0;
	while (t->skel[k].parent >= 0)
		k = t->skel[k].parent;
	if (t->skel[k].index != root)
		return 0; /* a popup: measured on its own */
	for (uint32_t i = 0; i < e->path_len; i++) {
		for (size_t m = 0; m < f->n_moves; m++)
			if (f->moves[m].parent == n) {
				*sx = f->moves[m].sx;
				*sy = f->moves[m].sy;
			}
		n = child_at(n, e->path[i]);
		if (!n)
			return 0;
	}
	return *sx || *sy;
}

int
cua_frames_fix_origins(struct cua_tree *t, const struct cua_raw_snapshot *snap,
		       uint32_t root, const struct cua_rect *a, int32_t ix,
		       int32_t iy)
{
	struct fix f = { .a = *a, .ix = ix, .iy = iy };
	const struct cua_raw_node *w;
	int moved = 0;

	if (!snap->app || root >= snap->app->n_children ||
	    !snap->app->children[root])
		return 0;
	w = snap->app->children[root];
	scan(&f, w, 0, 0, 0);
	free(f.kids);
	if (f.failed) {
		free(f.moves);
		return -1;
	}
	for (size_t i = 0; f.n_moves && i < t->n_elements; i++) {
		struct cua_element *e = &t->elements[i];
		int32_t sx, sy;

		if (!e->has_frame ||
		    !element_shift(&f, t, e, w, root, &sx, &sy))
			continue;
		e->frame.x += sx;
		e->frame.y += sy;
		e->shift_x = sx;
		e->shift_y = sy;
		moved++;
	}
	free(f.moves);
	return moved;
}

int
cua_frames_moved(const struct cua_tree *t, int32_t *ox, int32_t *oy)
{
	for (size_t i = 0; i < t->n_elements; i++)
		if (t->elements[i].shift_x || t->elements[i].shift_y) {
			*ox = t->elements[i].shift_x;
			*oy = t->elements[i].shift_y;
			return 1;
		}
	*ox = *oy = 0;
	return 0;
}

void
cua_frames_chain_shift(const struct cua_raw_node *const *chain, size_t n,
		       int32_t ox, int32_t oy, int32_t *sx, int32_t *sy)
{
	*sx = *sy = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		const struct cua_raw_node *p = chain[i], *c = chain[i + 1];
		struct cua_rect pr;
		int32_t ax = *sx || *sy ? 0 : ox, ay = *sx || *sy ? 0 : oy;

		if (!cua_raw_has_extent(p) || !cua_raw_has_extent(c))
			continue;
		pr = p->extents;
		pr.x += *sx;
		pr.y += *sy;
		if (cua_geom_children_moved(&pr, &c->extents, 1, *sx, *sy, ax,
					    ay)) {
			*sx = ax;
			*sy = ay;
		}
	}
}
