/*
 * Locators and live re-resolution (docs/identity.md §3, §4): an element of a
 * published observation is found again in the live tree from the
 * application root, step by step with semantic fingerprint checks, or by
 * the equivalence refetch; otherwise it fails closed with the stale
 * sentence. A cached accessibility handle is never trusted blindly.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_LOCATE_H
#define CUA_CORE_LOCATE_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "tree.h"

/* Refetch limits (docs/identity.md §4 step 5). */
#define CUA_REFETCH_MAX_NODES 2000
#define CUA_REFETCH_EXTRA_LEVELS 2

/* The fingerprint of a raw node, exactly as the walk's skeleton records
 * it (docs/identity.md §3.2). Strings point into the node (or ""). */
void
cua_fingerprint_of_raw(struct cua_fingerprint *fp,
		       const struct cua_raw_node *n);

/*
 * One step check (docs/identity.md §4 step 3). `parent` is a skeleton entry of
 * `t`; `live` the live children of the corresponding live node: `n_live`
 * fingerprints (with identities, NULL when unknown) of children number
 * live_offset .. live_offset + n_live - 1 out of live_count. `chosen` is
 * the skeleton entry of the child the locator descends into. `strict`
 * restores whole-array title equality (locator_strict_siblings).
 * Returns 1 when the step holds, 0 when it does not.
 */
int
cua_locate_step_ok(const struct cua_tree *t, uint32_t parent, uint32_t chosen,
		   const struct cua_fingerprint *live,
		   const char *const *live_idents, size_t n_live,
		   uint32_t live_offset, uint32_t live_count, int strict);

/*
 * The ±1 chain rule of the equivalence refetch: the fingerprints of the
 * live ancestors between the resolved node and a candidate (`live`, top
 * down) match the recorded intermediate steps (`rec`, top down) when
 * they are equal pairwise, or equal after dropping one level from either
 * side (an eliminated container appeared or disappeared). `rec_pin`
 * (may be NULL) gives, per recorded level, the identity a pinned level
 * must keep; `live_idents` the live identities.
 */
int
cua_locate_chain_ok(const struct cua_fingerprint *live,
		    const char *const *live_idents, size_t n_live,
		    const struct cua_fingerprint *rec,
		    const char *const *rec_pin, size_t n_rec);

/* A resolved element. */
struct cua_located {
	struct cua_raw_snapshot *snap; /* owns everything below */
	struct cua_raw_node *app;      /* live application node */
	struct cua_raw_node *window;   /* live toplevel */
	uint32_t window_index;         /* its index among the toplevels */
	uint64_t x11_window;           /* its window-system id, 0 unknown */
	struct cua_raw_node *node;     /* the element (for synthetic rows:
					 * the row's first cell) */
	const struct cua_element *element;
	int refetched;        /* found by the equivalence refetch */
	int direct_ref;       /* popup direct reference
					 * (docs/identity.md §3.5) */
	int identity_changed; /* the cached identity was outdated */
	uint32_t steps;       /* steps walked */
};

/*
 * Re-resolves element `e` of the published tree `t` of `app` (docs/identity.md
 * §4), then reads the resolved node with the pieces in `want`. On failure
 * the thread-local message is the model-facing sentence (E-INVALID,
 * E-REFETCH-START, E-REFETCH-FINISH) and the result CUA_ERROR_STALE, or a
 * backend error (CUA_ERROR_TIMEOUT, …). `strict` is
 * locator_strict_siblings. Release `out` with cua_located_clear().
 */
cua_result
cua_locate(struct cua_backend *b, const struct cua_app_info *app,
	   const struct cua_tree *t, const struct cua_element *e, uint32_t want,
	   int strict, struct cua_located *out);

void
cua_located_clear(struct cua_located *loc);

/* The live ancestor chain of a located node: depth from the window
 * (window = 0). */
size_t
cua_located_depth(const struct cua_raw_node *n);

#endif
