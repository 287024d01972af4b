/*
 * The recording format `libcua.recording/1`, shared by the writer
 * (record.c), the loader (load.c) and the backend (recorded.c). The format
 * itself is described at the top of load.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_BACKEND_RECORDING_H
#define CUA_BACKEND_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "core/raw.h"

#define CUA_REC_SCHEMA "libcua.recording/1"
#define CUA_REC_ID_PREFIX "rec:" /* generated ids: "rec:/0/3/1" */
#define CUA_REC_MAX_DEPTH 256    /* node nesting, root = 0 */
#define CUA_REC_N_IFACES 13

/* AT-SPI state nicks (libatspi spelling), indexed by state bit; NULL for
 * bit 0 ("invalid", written as the number 0). */
extern const char *const cua_rec_state_nicks[CUA_STATE_COUNT];

/* Interface names, indexed by bit number of enum cua_iface. */
extern const char *const cua_rec_iface_names[CUA_REC_N_IFACES];

/*
 * The pieces a node's `have` bits cover, by the name a node's "unread"
 * list gives them (the key that holds each).
 */
struct cua_rec_piece {
	uint32_t bit;
	const char *key;
};

/*
 * Pieces that count as read (and empty) when their key is absent; the
 * others count as not read. CUA_HAVE_CHILDREN is neither: an absent
 * "children" means read when the child count is 0, not read otherwise.
 */
#define CUA_REC_READ_WHEN_ABSENT                                               \
	(CUA_HAVE_BASIC | CUA_HAVE_DESCRIPTION | CUA_HAVE_HELP | CUA_HAVE_ID | \
	 CUA_HAVE_ATTRIBUTES | CUA_HAVE_ACTIONS | CUA_HAVE_RELATIONS)

#define CUA_REC_N_PIECES 15
extern const struct cua_rec_piece cua_rec_pieces[CUA_REC_N_PIECES];

/* Node string keys: the have bit that covers each and its offset in
 * struct cua_raw_node. */
struct cua_rec_string {
	const char *key;
	uint32_t bit;
	size_t offset;
};

#define CUA_REC_N_NODE_STRINGS 8
extern const struct cua_rec_string cua_rec_node_strings[CUA_REC_N_NODE_STRINGS];

/* String keys of the "app" object: offsets in struct cua_app_info. */
#define CUA_REC_N_APP_STRINGS 14
extern const struct cua_rec_string cua_rec_app_strings[CUA_REC_N_APP_STRINGS];

/* The string at byte offset `off` of a struct (a cua_rec_string field). */
#define CUA_REC_FIELD(base, off) (*(const char **)((char *)(base) + (off)))

/* The default of a node's "children_partial": a range that does not cover
 * all reported children. */
static inline int
cua_rec_default_partial(size_t child_offset, size_t n_children,
			int32_t child_count)
{
	return child_offset > 0 ||
	       (int64_t)(child_offset + n_children) < (int64_t)child_count;
}

/* Loads a recording into a new snapshot; *app's strings live in it. */
cua_result
cua_rec_load(const char *path, struct cua_raw_snapshot **rec_out,
	     struct cua_app_info *app);

#endif
