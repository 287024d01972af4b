/*
 * Diffs between observations (docs/identity.md §7): what changed, was added and
 * was removed between two revisions whose ids come from one lineage, and
 * the diff text with its fallbacks to the full tree.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_DIFF_H
#define CUA_CORE_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "ctx.h"
#include "strbuf.h"
#include "tree.h"

/* Marks of the new tree's lines. */
#define CUA_MARK_CHANGED '~'
#define CUA_MARK_ADDED '+'

struct cua_delta {
	uint8_t *marks;    /* per line of the new tree: 0, '~' or '+' */
	uint32_t *changed; /* ids of '~' lines, in the new tree's order */
	size_t n_changed;
	uint32_t *added; /* ids of '+' lines, in the new tree's order */
	size_t n_added;
	uint32_t *removed; /* ids no longer shown, ascending */
	size_t n_removed;
	size_t n_ranges; /* runs in `removed` (`a-b` or `a`) */
	/* The previous lines of the removed elements (with indentation, no
	 * marker), in the previous tree's order (docs/identity.md §7.2). */
	const char **removed_lines;
	size_t n_removed_lines;
	int truncated; /* either tree was truncated
				  * (docs/identity.md §7.4 5) */
};

/* Why an observation renders as a full tree under CUA_RENDER_DIFF
 * (docs/identity.md §7.4). Stored in struct cua_tree.full_reason. */
enum cua_full_reason {
	CUA_FULL_NONE = 0,     /* a diff or the no-change sentence */
	CUA_FULL_FIRST,        /* first observation of the app session */
	CUA_FULL_ROOT_CHANGED, /* the root window is not the previous one */
	CUA_FULL_DISABLED,     /* disable_diff */
	CUA_FULL_EXPIRED,      /* new turn, or diff_baseline_max_age_s */
	CUA_FULL_TRUNCATED,    /* the previous or the new tree is truncated */
	CUA_FULL_MODE_OFF,     /* diff_mode = off */
};

/* What a rendering shows. */
enum cua_render_kind {
	CUA_KIND_FULL = 0,
	CUA_KIND_DIFF,
	CUA_KIND_NO_CHANGE,
};

/*
 * Compares `next` with `prev` (both with ids assigned, `next` inheriting
 * from `prev`'s lineage). The result and its arrays live in `arena`.
 * Returns NULL when out of memory.
 */
struct cua_delta *
cua_delta_compute(const struct cua_tree *prev, const struct cua_tree *next,
		  struct cua_arena *arena);

/* 1 when nothing changed: same ids, same lines, same order
 * (docs/identity.md §7.3). */
int
cua_delta_is_empty(const struct cua_delta *d);

/*
 * The line budget of docs/identity.md §7.5 with `flags`
 * (CUA_DIFF_REMOVED_LINES, CUA_DIFF_IGNORE_LINE_BUDGET). Returns 1 when the
 * diff fits. When it does not and `ctx` is not NULL, logs Codex's sentence at
 * debug level.
 */
int
cua_delta_fits_budget(const struct cua_delta *d, const struct cua_tree *next,
		      uint32_t flags, const struct cua_ctx *ctx);

/* What rendering `d` over `next` with `flags` shows: the no-change
 * sentence, a diff, or (truncation, line budget) the full tree. */
enum cua_render_kind
cua_delta_kind(const struct cua_delta *d, const struct cua_tree *next,
	       uint32_t flags, const struct cua_ctx *ctx);

/* Renders `d` as `cua_delta_kind` says (full tree, diff or no-change
 * body). No trailing newline. */
void
cua_render_delta(struct strbuf *sb, const struct cua_tree *next,
		 const struct cua_delta *d, uint32_t flags);

/* What cua_tree_render(t, flags) shows for an observation: a full tree
 * when CUA_RENDER_DIFF is not set or a docs/identity.md §7.4 rule holds. */
enum cua_render_kind
cua_observation_kind(const struct cua_tree *t, uint32_t flags,
		     const struct cua_ctx *ctx);

/* Renders an observation as cua_observation_kind says. */
void
cua_render_observation(struct strbuf *sb, const struct cua_tree *t,
		       uint32_t flags);

/* "5-106, 129, 131" for ascending ids; returns the number of runs. */
size_t
cua_format_id_ranges(struct strbuf *sb, const uint32_t *ids, size_t n);

/* "full", "diff" or "no_change". */
const char *
cua_render_kind_name(enum cua_render_kind kind);

#endif
