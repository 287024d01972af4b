/*
 * Walk policy (docs/state-text.md §9): which window is the root, what the
 * backend reads, and how raw nodes become rendered elements.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_WALK_H
#define CUA_CORE_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "ctx.h"
#include "raw.h"
#include "tree.h"

#define CUA_MAX_POPUPS 16

/* How visibility is read for an app (toolkits differ, docs/toolkits.md §5). */
enum cua_visibility {
	CUA_VIS_SHOWING = 0, /* SHOWING is reliable (GTK3, Qt, VCL) */
	CUA_VIS_VISIBLE = 1, /* only VISIBLE (GTK4: only the frame shows;
			      * Chromium: off-screen content lacks SHOWING) */
};

enum cua_visibility
cua_walk_visibility_for(const char *toolkit, const char *toolkit_version);

/* Whether a node is shown, as `vis` reads it; what is not shown gets no
 * details in any read (backend.h) and is not rendered. */
static inline int
cua_walk_is_visible(const struct cua_raw_node *n, enum cua_visibility vis)
{
	if (CUA_HAS_STATE(n, CUA_STATE_DEFUNCT))
		return 0;
	if (vis == CUA_VIS_VISIBLE)
		return CUA_HAS_STATE(n, CUA_STATE_VISIBLE) ||
		       CUA_HAS_STATE(n, CUA_STATE_SHOWING);
	return CUA_HAS_STATE(n, CUA_STATE_SHOWING);
}

/*
 * Chooses the root window (docs/state-text.md §9.1) and the popups to append
 * (§9.6) among the toplevels of a shallow snapshot. Returns 0, or -1 when the
 * app has no window.
 */
int
cua_walk_choose_windows(const struct cua_raw_snapshot *snap, uint32_t *root,
			uint32_t *popups, size_t *n_popups);

/* State behind the fetch policy callbacks. */
struct cua_walk_policy {
	enum cua_visibility vis;
	const struct cua_raw_node *root;
	int want_everything;       /* cua record: read every optional field */
	int prune_hidden_geometry; /* GTK 4: hidden pages stay VISIBLE */
};

void
cua_walk_fetch_policy(struct cua_fetch_policy *pol,
		      struct cua_walk_policy *state,
		      const struct cua_options *opt, enum cua_visibility vis);

/*
 * Builds the elements, skeleton, focus and markers of `tree` (whose app
 * fields are already set) from a fetched snapshot. Element ids are left
 * as CUA_NO_ID (lineage assigns them).
 */
cua_result
cua_walk_build(struct cua_tree *tree, const struct cua_raw_snapshot *snap,
	       uint32_t root, const uint32_t *popups, size_t n_popups,
	       const struct cua_options *opt, enum cua_visibility vis);

/* Normalises an action name: lower case, without space, '_' and '-'. */
void
cua_action_normalise(char *dst, size_t size, const char *name);
/* 1 if the normalised name is a primary (press) verb for this role. */
int
cua_action_is_primary(const char *norm, uint32_t role);
/* 1 if the normalised name is hidden plumbing (focus, scroll-to). */
int
cua_action_is_hidden(const char *norm);

#endif
