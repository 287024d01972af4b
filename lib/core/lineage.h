/*
 * Element ids: inheritance from the previous revision, fresh ids from a
 * counter that never goes back (docs/identity.md §2).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_LINEAGE_H
#define CUA_CORE_LINEAGE_H

#include <stdint.h>

#include "tree.h"

/*
 * Assigns ids to every element of `next`: inherited from `prev` (may be
 * NULL) by object identity (synthetic rows: row index + first cell), then
 * by structure (LCS over fingerprints under parents that inherited; rows
 * only at the same row index; look-alike siblings with different object
 * identities never), else fresh from *counter, which is advanced.
 * Returns 0, or -1 when out of memory.
 */
int
cua_lineage_assign(const struct cua_tree *prev, struct cua_tree *next,
		   uint32_t *counter);

#endif
