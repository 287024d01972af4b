/*
 * Diffs between observations (docs/identity.md §7).
 *
 * Elements are matched by id: the lineage (lineage.c) already decided
 * which new element is which old one. A line of the new tree is
 *   '+' when its id is fresh (not in the previous revision),
 *   '~' when its line (everything after the indentation) differs, when
 *       its depth or parent changed, when it was not a line before (a
 *       pruned focused element, docs/differences.md D26), or when it moved
 *       among its siblings (the siblings outside a longest run that kept its
 *       order),
 * and the previous revision's ids that are not lines any more are
 * removed. With no '~', no '+' and nothing removed, both trees print the
 * same ids and lines in the same order (docs/identity.md §7.3).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "hashmap.h"
#include "render.h"
#include "sanitize.h"

static const char sentence_ranges[] =
	"\" with ~ and + representing changed and added elements, "
	"respectively. Removed elements are summarized by ID range.";
static const char sentence_lines[] =
	"\" with ~, +, and - representing changed, added, and removed "
	"elements, respectively.";

static const void *
id_key(uint32_t id)
{
	return (const void *)((uintptr_t)id + 1);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t
url_flags(const struct cua_tree *t)
{
	return cua_render_needs_short_urls(t) ? CUA_LINE_SHORT_URLS : 0;
}

static uint32_t
parent_id(const struct cua_tree *t, const struct cua_element *e)
{
	return e->parent >= 0 ? t->elements[e->parent].id : CUA_NO_ID;
}

/*
 * Marks as moved the siblings `kids` (new element indices whose previous
 * element, at prev_index[k], had the same parent) that lie outside a
 * longest subsequence in which their previous order is kept.
 */
static int
mark_moves(const uint32_t *kids, size_t n, const int64_t *prev_index,
	   uint8_t *marks)
{
	size_t *tail, *link, len = 0;

	if (n < 2)
		return 0;
	tail = malloc(n * sizeof(*tail));
	link = malloc(n * sizeof(*link));
	if (!tail || !link) {
		free(tail);
		free(link);
		return -1;
	}
	/* patience sorting: tail[l] = index (in kids) of the smallest last
	 * element of an increasing run of length l + 1 */
	for (size_t i = 0; i < n; i++) {
		int64_t v = prev_index[kids[i]];
		size_t lo = 0, hi = len;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (prev_index[kids[tail[mid]]] < v)
				lo = mid + 1;
			else
				hi = mid;
		}
		link[i] = lo ? tail[lo - 1] : SIZE_MAX;
		tail[lo] = i;
		if (lo == len)
			len++;
	}
	{
		uint8_t *keep = calloc(n, 1);
		size_t k = len ? tail[len - 1] : SIZE_MAX;

		if (!keep) {
			free(tail);
			free(link);
			return -1;
		}
		while (k != SIZE_MAX) {
			keep[k] = 1;
			k = link[k];
		}
		for (size_t i = 0; i < n; i++)
			if (!keep[i])
				marks[kids[i]] = CUA_MARK_CHANGED;
		free(keep);
	}
	free(tail);
	free(link);
	return 0;
}

struct cua_delta *
cua_delta_compute(const struct cua_tree *prev, const struct cua_tree *next,
		  struct cua_arena *arena)
{
	struct cua_delta *d = cua_arena_alloc(arena, sizeof(*d));
	struct cua_hmap prev_ids, next_ids;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint32_t pflags = url_flags(prev) | CUA_LINE_SUMMARY;
	uint32_t nflags = url_flags(next) | CUA_LINE_SUMMARY;
	int64_t *prev_index = NULL;
	uint32_t *kids = NULL;
	size_t n_kids, nl = next->n_lines, k;
	int failed = 0;

	cua_hmap_init(&prev_ids, 0);
	cua_hmap_init(&next_ids, 0);
	if (!d)
		return NULL;
	d->truncated = prev->truncated || next->truncated;
	d->marks = cua_arena_alloc(arena, nl + 1);
	prev_index = calloc(nl + 1, sizeof(*prev_index));
	kids = calloc(nl + 1, sizeof(*kids));
	if (!d->marks || !prev_index || !kids)
		goto fail;
	for (size_t i = 0; i < prev->n_elements; i++)
		if (cua_hmap_put(&prev_ids, id_key(prev->elements[i].id),
				 (int64_t)i) < 0)
			goto fail;
	for (size_t i = 0; i < next->n_elements; i++)
		if (cua_hmap_put(&next_ids, id_key(next->elements[i].id),
				 (int64_t)i) < 0)
			goto fail;

	/* changed and added, element by element */
	for (size_t i = 0; i < nl; i++) {
		const struct cua_element *e = &next->elements[i], *pe;
		int64_t pi;

		prev_index[i] = -1;
		if (!cua_hmap_get(&prev_ids, id_key(e->id), &pi)) {
			d->marks[i] = CUA_MARK_ADDED;
			continue;
		}
		pe = &prev->elements[pi];
		if ((size_t)pi >= prev->n_lines || pe->depth != e->depth ||
		    parent_id(prev, pe) != parent_id(next, e)) {
			d->marks[i] = CUA_MARK_CHANGED;
			continue;
		}
		prev_index[i] = pi;
		a.len = b.len = 0;
		if (a.s)
			a.s[0] = '\0';
		if (b.s)
			b.s[0] = '\0';
		cua_render_line(&a, pe, pflags);
		cua_render_line(&b, e, nflags);
		if (a.oom || b.oom)
			goto fail;
		if (strcmp(sb_str(&a), sb_str(&b)) != 0)
			d->marks[i] = CUA_MARK_CHANGED;
	}

	/* moves among siblings: the top level, then every parent */
	n_kids = 0;
	for (size_t i = 0; i < nl; i++)
		if (next->elements[i].parent < 0 && prev_index[i] >= 0)
			kids[n_kids++] = (uint32_t)i;
	if (mark_moves(kids, n_kids, prev_index, d->marks) < 0)
		goto fail;
	for (size_t i = 0; i < nl; i++) {
		const struct cua_element *e = &next->elements[i];

		n_kids = 0;
		for (size_t c = 0; c < e->n_children; c++)
			if (e->children[c] < nl &&
			    prev_index[e->children[c]] >= 0)
				kids[n_kids++] = e->children[c];
		if (mark_moves(kids, n_kids, prev_index, d->marks) < 0)
			goto fail;
	}

	for (size_t i = 0; i < nl; i++) {
		if (d->marks[i] == CUA_MARK_CHANGED)
			d->n_changed++;
		else if (d->marks[i] == CUA_MARK_ADDED)
			d->n_added++;
	}
	d->changed =
		cua_arena_alloc(arena, (d->n_changed + 1) * sizeof(uint32_t));
	d->added = cua_arena_alloc(arena, (d->n_added + 1) * sizeof(uint32_t));
	if (!d->changed || !d->added)
		goto fail;
	d->n_changed = d->n_added = 0;
	for (size_t i = 0; i < nl; i++) {
		if (d->marks[i] == CUA_MARK_CHANGED)
			d->changed[d->n_changed++] = next->elements[i].id;
		else if (d->marks[i] == CUA_MARK_ADDED)
			d->added[d->n_added++] = next->elements[i].id;
	}

	/* removed: previous ids that are not lines now. A pruned focused
	 * element that is still the pruned focused element was never a line
	 * and is not removed. */
	d->removed = cua_arena_alloc(arena,
				     (prev->n_elements + 1) * sizeof(uint32_t));
	d->removed_lines =
		cua_arena_alloc(arena, (prev->n_elements + 1) * sizeof(char *));
	if (!d->removed || !d->removed_lines)
		goto fail;
	for (size_t i = 0; i < prev->n_elements; i++) {
		const struct cua_element *pe = &prev->elements[i];
		int64_t ni;

		if (cua_hmap_get(&next_ids, id_key(pe->id), &ni) &&
		    ((size_t)ni < nl ||
		     ((size_t)i >= prev->n_lines &&
		      (next->elements[ni].flags & CUA_ELEM_FOCUS_ONLY))))
			continue;
		d->removed[d->n_removed++] = pe->id;
		a.len = 0;
		if (a.s)
			a.s[0] = '\0';
		cua_render_line(&a, pe, pflags | CUA_LINE_INDENT);
		if (a.oom)
			goto fail;
		d->removed_lines[d->n_removed_lines] =
			cua_arena_strdup(arena, sb_str(&a));
		if (!d->removed_lines[d->n_removed_lines++])
			goto fail;
	}
	qsort(d->removed, d->n_removed, sizeof(*d->removed), cmp_u32);
	for (k = 0; k < d->n_removed; k++)
		if (k == 0 || d->removed[k] != d->removed[k - 1] + 1)
			d->n_ranges++;
	goto out;
fail:
	failed = 1;
out:
	sb_free(&a);
	sb_free(&b);
	free(prev_index);
	free(kids);
	cua_hmap_clear(&prev_ids);
	cua_hmap_clear(&next_ids);
	return failed ? NULL : d;
}

int
cua_delta_is_empty(const struct cua_delta *d)
{
	return d && !d->n_changed && !d->n_added && !d->n_removed;
}

int
cua_delta_fits_budget(const struct cua_delta *d, const struct cua_tree *next,
		      uint32_t flags, const struct cua_ctx *ctx)
{
	size_t budget = next->n_lines, m, r;

	if (flags & CUA_DIFF_IGNORE_LINE_BUDGET)
		return 1;
	r = (flags & CUA_DIFF_REMOVED_LINES) ? d->n_removed : d->n_ranges;
	m = d->n_changed + d->n_added;
	if (r > budget) {
		if (ctx)
			cua_debug(ctx,
				  "Skip AX tree diff render because removed "
				  "element summary exceeded full-tree line "
				  "budget");
		return 0;
	}
	if (m + r > budget) {
		if (ctx)
			cua_debug(ctx,
				  "Skip AX tree diff render because "
				  "difference exceeded full-tree line budget");
		return 0;
	}
	return 1;
}

enum cua_render_kind
cua_delta_kind(const struct cua_delta *d, const struct cua_tree *next,
	       uint32_t flags, const struct cua_ctx *ctx)
{
	if (!d || d->truncated)
		return CUA_KIND_FULL;
	if (cua_delta_is_empty(d))
		return CUA_KIND_NO_CHANGE;
	if (!cua_delta_fits_budget(d, next, flags, ctx))
		return CUA_KIND_FULL;
	return CUA_KIND_DIFF;
}

size_t
cua_format_id_ranges(struct strbuf *sb, const uint32_t *ids, size_t n)
{
	size_t runs = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		if (runs++)
			sb_add(sb, ", ");
		if (j > i)
			sb_addf(sb, "%u-%u", (unsigned)ids[i],
				(unsigned)ids[j]);
		else
			sb_addf(sb, "%u", (unsigned)ids[i]);
		i = j + 1;
	}
	return runs;
}

static void
add_window_title(struct strbuf *sb, const struct cua_tree *t)
{
	cua_add_truncated(sb, t->window_title ? t->window_title : "",
			  CUA_FIELD_MAX);
}

void
cua_render_delta(struct strbuf *sb, const struct cua_tree *next,
		 const struct cua_delta *d, uint32_t flags)
{
	enum cua_render_kind kind = cua_delta_kind(d, next, flags, NULL);
	uint32_t lflags = url_flags(next) | CUA_LINE_SUMMARY | CUA_LINE_INDENT;
	int lines = (flags & CUA_DIFF_REMOVED_LINES) != 0;

	if (kind == CUA_KIND_FULL) {
		cua_render_state(sb, next);
		return;
	}
	cua_render_app_line(sb, next);
	if (kind == CUA_KIND_NO_CHANGE) {
		sb_add(sb, "\nThere has been no change in the accessibility "
			   "tree for Window: \"");
		add_window_title(sb, next);
		sb_add(sb, "\".");
		cua_render_trailer(sb, next);
		return;
	}
	sb_add(sb, "\nThe following is a diff from the previous accessibility "
		   "tree for Window: \"");
	add_window_title(sb, next);
	sb_add(sb, lines ? sentence_lines : sentence_ranges);
	if (lines) {
		for (size_t i = 0; i < d->n_removed_lines; i++) {
			sb_add(sb, "\n-");
			sb_add(sb, d->removed_lines[i]);
		}
	} else if (d->n_removed) {
		sb_add(sb, "\nRemoved element IDs: ");
		cua_format_id_ranges(sb, d->removed, d->n_removed);
	}
	for (size_t i = 0; i < next->n_lines; i++) {
		if (!d->marks[i])
			continue;
		sb_addc(sb, '\n');
		sb_addc(sb, (char)d->marks[i]);
		cua_render_line(sb, &next->elements[i], lflags);
	}
	cua_render_trailer(sb, next);
}

enum cua_render_kind
cua_observation_kind(const struct cua_tree *t, uint32_t flags,
		     const struct cua_ctx *ctx)
{
	if (!(flags & CUA_RENDER_DIFF) || t->full_reason != CUA_FULL_NONE ||
	    !t->delta)
		return CUA_KIND_FULL;
	return cua_delta_kind(t->delta, t, flags | t->diff_opts, ctx);
}

void
cua_render_observation(struct strbuf *sb, const struct cua_tree *t,
		       uint32_t flags)
{
	if (cua_observation_kind(t, flags, NULL) == CUA_KIND_FULL)
		cua_render_state(sb, t);
	else
		cua_render_delta(sb, t, t->delta, flags | t->diff_opts);
}

const char *
cua_render_kind_name(enum cua_render_kind kind)
{
	switch (kind) {
	case CUA_KIND_DIFF:
		return "diff";
	case CUA_KIND_NO_CHANGE:
		return "no_change";
	case CUA_KIND_FULL:
		break;
	}
	return "full";
}
