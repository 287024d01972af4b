/*
 * Element frames a toolkit measured from another origin than their
 * container's (geometry.h rule 5): found on the raw nodes of the observed
 * window, so that it holds whatever the walk prunes, and applied to the
 * published elements of the affected subtrees only.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_FRAMES_H
#define CUA_CORE_FRAMES_H

#include <stdint.h>

#include "raw.h"
#include "tree.h"

/*
 * Moves the frames of the elements of window `root` of `snap` (the
 * snapshot `t` was built from) whose raw nodes lie in a subtree measured
 * from another origin, and records the move in their shift_x/shift_y.
 * `a` is the accessibility window's extents the walk measured frames
 * from, (ix, iy) the origin move already applied to every frame
 * (cua_geom_element_origin()). Returns the number of elements moved, or
 * -1 when out of memory (the frames are then left as they were).
 */
int
cua_frames_fix_origins(struct cua_tree *t, const struct cua_raw_snapshot *snap,
		       uint32_t root, const struct cua_rect *a, int32_t ix,
		       int32_t iy);

/*
 * The other system's shift of the window `t` observes: (ox, oy) of
 * an element the observation moved. 0 when it moved none.
 */
int
cua_frames_moved(const struct cua_tree *t, int32_t *ox, int32_t *oy);

/*
 * The same rule on one live ancestor chain, for actions at a node re-read
 * after the observation: LibreOffice reports true positions again after
 * pointer input over its widgets and the offset ones after the window
 * moves, so the observation's move for an element can be out of date.
 * `chain` runs from the window down to the node (n >= 1), each with its
 * live extents; (ox, oy) is the other system (cua_frames_moved()). Sets
 * the node's shift, (0, 0) or (ox, oy).
 */
void
cua_frames_chain_shift(const struct cua_raw_node *const *chain, size_t n,
		       int32_t ox, int32_t oy, int32_t *sx, int32_t *sy);

#endif
