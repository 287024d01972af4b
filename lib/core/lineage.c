/*
 * Id inheritance between revisions (docs/identity.md §2.2).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "lineage.h"
#include "strbuf.h"

/* The identity key of an element: its raw object (or, for a synthetic
 * row, its first cell and row index) plus its raw role. */
static char *
identity_key(const struct cua_tree *t, const struct cua_element *e)
{
	const struct cua_skel *s;
	struct strbuf sb = STRBUF_INIT;

	if (e->skel < 0)
		return NULL;
	s = &t->skel[e->skel];
	if (!s->ident)
		return NULL;
	if (e->flags & CUA_ELEM_SYNTHETIC_ROW)
		sb_addf(&sb, "row:%u:%s", e->row_index, s->ident);
	else
		sb_addf(&sb, "%u:%s", e->role, s->ident);
	return sb_steal(&sb);
}

static const struct cua_fingerprint *
element_fp(const struct cua_tree *t, const struct cua_element *e)
{
	return e->skel >= 0 ? &t->skel[e->skel].fp : NULL;
}

static int
elements_similar(const struct cua_tree *pt, const struct cua_element *a,
		 const struct cua_tree *nt, const struct cua_element *b)
{
	const struct cua_fingerprint *fa = element_fp(pt, a);
	const struct cua_fingerprint *fb = element_fp(nt, b);

	if ((a->flags ^ b->flags) & CUA_ELEM_SYNTHETIC_ROW)
		return 0;
	/* A synthetic row has no object of its own (docs/identity.md §2.2 c):
	 * it is the same row only at the same row index with the same first
	 * cell. The row index alone would hand a row inserted above the
	 * window's first row the id of the row it pushed down. */
	if (a->flags & CUA_ELEM_SYNTHETIC_ROW)
		return a->row_index == b->row_index && fa && fb &&
		       cua_fingerprint_equal(fa, fb);
	if (!fa || !fb)
		return a->role == b->role && strcmp(a->title, b->title) == 0;
	/* Two objects with different identities whose fingerprint is not
	 * unique among their siblings are told apart only by identity: their
	 * locators are pinned to it (docs/identity.md §3.3,
	 * docs/differences.md D4). Aligning them by fingerprint would hand a
	 * new row the id of another row that merely left the row window
	 * (untitled list rows all look alike). */
	if (pt->skel[a->skel].ident && nt->skel[b->skel].ident &&
	    (pt->skel[a->skel].pinned || nt->skel[b->skel].pinned))
		return 0;
	return cua_fingerprint_equal(fa, fb);
}

static void
inherit(const struct cua_tree *prev, uint32_t pi, struct cua_tree *next,
	uint32_t ni, uint8_t *prev_used)
{
	next->elements[ni].id = prev->elements[pi].id;
	prev_used[pi] = 1;
}

/* Aligns the unmatched children of a matched pair by LCS. Common prefix
 * and suffix are matched first, so the quadratic table only covers the
 * part that changed (a row inserted into a long list costs nothing). */
static int
align_children(const struct cua_tree *prev, const struct cua_element *pe,
	       struct cua_tree *next, const struct cua_element *ne,
	       uint8_t *prev_used)
{
	uint32_t *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, lo = 0;
	uint16_t *dp = NULL;
	int r = 0;

	a = malloc((pe->n_children + 1) * sizeof(*a));
	b = malloc((ne->n_children + 1) * sizeof(*b));
	if (!a || !b) {
		r = -1;
		goto out;
	}
	for (size_t i = 0; i < pe->n_children; i++)
		if (!prev_used[pe->children[i]])
			a[na++] = pe->children[i];
	for (size_t i = 0; i < ne->n_children; i++)
		if (next->elements[ne->children[i]].id == CUA_NO_ID)
			b[nb++] = ne->children[i];
#define SIMILAR(i, j)                                                          \
	elements_similar(prev, &prev->elements[a[i]], next,                    \
			 &next->elements[b[j]])
	while (lo < na && lo < nb && SIMILAR(lo, lo)) {
		inherit(prev, a[lo], next, b[lo], prev_used);
		lo++;
	}
	while (na > lo && nb > lo && SIMILAR(na - 1, nb - 1)) {
		inherit(prev, a[na - 1], next, b[nb - 1], prev_used);
		na--;
		nb--;
	}
	na -= lo;
	nb -= lo;
	if (!na || !nb || na > 4000 || nb > 4000)
		goto out;
	memmove(a, a + lo, na * sizeof(*a));
	memmove(b, b + lo, nb * sizeof(*b));
	dp = calloc((na + 1) * (nb + 1), sizeof(*dp));
	if (!dp) {
		r = -1;
		goto out;
	}
#define DP(i, j) dp[(i) * (nb + 1) + (j)]
	for (size_t i = na; i-- > 0;)
		for (size_t j = nb; j-- > 0;) {
			if (SIMILAR(i, j))
				DP(i, j) = (uint16_t)(DP(i + 1, j + 1) + 1);
			else
				DP(i, j) = DP(i + 1, j) > DP(i, j + 1) ?
						   DP(i + 1, j) :
						   DP(i, j + 1);
		}
	for (size_t i = 0, j = 0; i < na && j < nb;) {
		if (SIMILAR(i, j)) {
			inherit(prev, a[i], next, b[j], prev_used);
			i++;
			j++;
		} else if (DP(i + 1, j) >= DP(i, j + 1)) {
			i++;
		} else {
			j++;
		}
	}
#undef DP
#undef SIMILAR
out:
	free(a);
	free(b);
	free(dp);
	return r;
}

int
cua_lineage_assign(const struct cua_tree *prev, struct cua_tree *next,
		   uint32_t *counter)
{
	struct cua_hmap by_ident, by_id;
	uint8_t *prev_used = NULL;
	int r = 0;

	cua_hmap_init(&by_ident, 1);
	cua_hmap_init(&by_id, 0);
	for (size_t i = 0; i < next->n_elements; i++)
		next->elements[i].id = CUA_NO_ID;

	if (prev && prev->n_elements) {
		char **keys = calloc(prev->n_elements, sizeof(char *));
		/* the next element of prev with the same identity, or -1 */
		int64_t *same = malloc(prev->n_elements * sizeof(*same));

		prev_used = calloc(prev->n_elements, 1);
		if (!keys || !same || !prev_used) {
			free(keys);
			free(same);
			r = -1;
			goto out;
		}
		/* a. object identity; elements that share one (an object
		 * listed twice, say as a child and as the focus) are matched
		 * in order */
		for (size_t i = prev->n_elements; i-- > 0;) {
			int64_t head;

			same[i] = -1;
			keys[i] = identity_key(prev, &prev->elements[i]);
			if (!keys[i])
				continue;
			if (cua_hmap_get(&by_ident, keys[i], &head))
				same[i] = head;
			if (cua_hmap_put(&by_ident, keys[i], (int64_t)i) < 0)
				r = -1;
		}
		for (size_t i = 0; i < next->n_elements && r == 0; i++) {
			struct cua_element *e = &next->elements[i];
			char *k = identity_key(next, e);
			int64_t pi;

			if (k && cua_hmap_get(&by_ident, k, &pi)) {
				while (pi >= 0 && prev_used[pi])
					pi = same[pi];
				if (pi >= 0) {
					e->id = prev->elements[pi].id;
					prev_used[pi] = 1;
				}
			}
			free(k);
		}
		free(same);
		/* b. structure, top-down (pre-order: parents come first) */
		for (size_t i = 0; i < prev->n_elements; i++)
			cua_hmap_put(
				&by_id,
				(const void *)(uintptr_t)(prev->elements[i].id +
							  1),
				(int64_t)i);
		/* top-level elements align under a virtual root */
		{
			struct cua_element vp, vn;
			uint32_t *pc = malloc((prev->n_elements + 1) *
					      sizeof(uint32_t));
			uint32_t *nc = malloc((next->n_elements + 1) *
					      sizeof(uint32_t));

			memset(&vp, 0, sizeof(vp));
			memset(&vn, 0, sizeof(vn));
			if (pc && nc) {
				for (size_t i = 0; i < prev->n_lines; i++)
					if (prev->elements[i].parent < 0)
						pc[vp.n_children++] =
							(uint32_t)i;
				for (size_t i = 0; i < next->n_lines; i++)
					if (next->elements[i].parent < 0)
						nc[vn.n_children++] =
							(uint32_t)i;
				vp.children = pc;
				vn.children = nc;
				if (align_children(prev, &vp, next, &vn,
						   prev_used) < 0)
					r = -1;
			} else {
				r = -1;
			}
			free(pc);
			free(nc);
		}
		for (size_t i = 0; i < next->n_elements && r == 0; i++) {
			struct cua_element *e = &next->elements[i];
			int64_t pi;

			if (e->id == CUA_NO_ID || !e->n_children)
				continue;
			if (!cua_hmap_get(&by_id,
					  (const void *)(uintptr_t)(e->id + 1),
					  &pi))
				continue;
			if (align_children(prev, &prev->elements[pi], next, e,
					   prev_used) < 0)
				r = -1;
		}
		for (size_t i = 0; i < prev->n_elements; i++)
			free(keys[i]);
		free(keys);
	}
	/* c. fresh ids, in render order */
	for (size_t i = 0; i < next->n_elements; i++)
		if (next->elements[i].id == CUA_NO_ID)
			next->elements[i].id = (*counter)++;
out:
	free(prev_used);
	cua_hmap_clear(&by_ident);
	cua_hmap_clear(&by_id);
	return r;
}
