/*
 * Id inheritance between revisions (identity.md §2.2).
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
	if (a->flags & CUA_ELEM_SYNTHETIC_ROW)
		return a->row_index == b->row_index;
	if (!fa || !fb)
		return a->role == b->role && strcmp(a->title, b->title) == 0;
	return cua_fingerprint_equal(fa, fb);
}

/* Aligns the unmatched children of a matched pair by LCS. */
static int
align_children(const struct cua_tree *prev, const struct cua_element *pe,
	       struct cua_tree *next, const struct cua_element *ne,
	       uint8_t *prev_used)
{
	uint32_t *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
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
	if (!na || !nb || na > 4000 || nb > 4000)
		goto out;
	dp = calloc((na + 1) * (nb + 1), sizeof(*dp));
	if (!dp) {
		r = -1;
		goto out;
	}
#define DP(i, j) dp[(i) * (nb + 1) + (j)]
	for (size_t i = na; i-- > 0;)
		for (size_t j = nb; j-- > 0;) {
			if (elements_similar(prev, &prev->elements[a[i]], next,
					     &next->elements[b[j]]))
				DP(i, j) = (uint16_t)(DP(i + 1, j + 1) + 1);
			else
				DP(i, j) = DP(i + 1, j) > DP(i, j + 1) ?
						   DP(i + 1, j) :
						   DP(i, j + 1);
		}
	for (size_t i = 0, j = 0; i < na && j < nb;) {
		if (elements_similar(prev, &prev->elements[a[i]], next,
				     &next->elements[b[j]])) {
			next->elements[b[j]].id = prev->elements[a[i]].id;
			prev_used[a[i]] = 1;
			i++;
			j++;
		} else if (DP(i + 1, j) >= DP(i, j + 1)) {
			i++;
		} else {
			j++;
		}
	}
#undef DP
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

		prev_used = calloc(prev->n_elements, 1);
		if (!keys || !prev_used) {
			free(keys);
			r = -1;
			goto out;
		}
		/* a. object identity */
		for (size_t i = 0; i < prev->n_elements; i++) {
			keys[i] = identity_key(prev, &prev->elements[i]);
			if (keys[i] && cua_hmap_put(&by_ident, keys[i], (int64_t)i) < 0)
				r = -1;
		}
		for (size_t i = 0; i < next->n_elements && r == 0; i++) {
			struct cua_element *e = &next->elements[i];
			char *k = identity_key(next, e);
			int64_t pi;

			if (k && cua_hmap_get(&by_ident, k, &pi) && !prev_used[pi]) {
				e->id = prev->elements[pi].id;
				prev_used[pi] = 1;
			}
			free(k);
		}
		/* b. structure, top-down (pre-order: parents come first) */
		for (size_t i = 0; i < prev->n_elements; i++)
			cua_hmap_put(&by_id, (const void *)(uintptr_t)
				     (prev->elements[i].id + 1), (int64_t)i);
		/* top-level elements align under a virtual root */
		{
			struct cua_element vp, vn;
			uint32_t *pc = malloc((prev->n_elements + 1) * sizeof(uint32_t));
			uint32_t *nc = malloc((next->n_elements + 1) * sizeof(uint32_t));

			memset(&vp, 0, sizeof(vp));
			memset(&vn, 0, sizeof(vn));
			if (pc && nc) {
				for (size_t i = 0; i < prev->n_lines; i++)
					if (prev->elements[i].parent < 0)
						pc[vp.n_children++] = (uint32_t)i;
				for (size_t i = 0; i < next->n_lines; i++)
					if (next->elements[i].parent < 0)
						nc[vn.n_children++] = (uint32_t)i;
				vp.children = pc;
				vn.children = nc;
				if (align_children(prev, &vp, next, &vn, prev_used) < 0)
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
			if (!cua_hmap_get(&by_id, (const void *)(uintptr_t)(e->id + 1),
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
