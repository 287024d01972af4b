/*
 * The immutable observation: elements (rendered lines), the skeleton of raw
 * nodes behind them (fingerprints for locators and id inheritance), and the
 * app and window it shows.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_TREE_H
#define CUA_CORE_TREE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cua/cua.h"
#include "arena.h"
#include "geometry.h"
#include "raw.h"

#define CUA_NO_ID UINT32_MAX

struct cua_delta;

/* A fingerprint (docs/identity.md §3.2). Strings are raw (unsanitised). */
struct cua_fingerprint {
	uint32_t role;
	uint8_t value_kind; /* enum cua_value_kind */
	/* "" when none; NULL unknown: the node answered an empty attribute
	 * set (Gecko's first answers about a document), which compares
	 * equal to any subrole (cua_subrole_eq); also NULL for a node read
	 * without details (hidden: cua_raw_details_unknown) */
	const char *subrole;
	/* "" when none; NULL unknown (read without details), which compares
	 * equal to any identifier */
	const char *identifier;
	const char *title; /* "" when none */
};

/* One raw node the walk saw: the window's subtree down to (and including
 * the siblings of) every rendered element. */
struct cua_skel {
	int32_t parent;        /* skeleton index; -1 for a toplevel */
	uint32_t index;        /* absolute index in the parent's children
				  * (for a toplevel: its window index) */
	uint32_t child_count;  /* reported child count */
	uint32_t first_child;  /* skeleton index of the first fetched child */
	uint32_t n_fetched;    /* fetched children (contiguous in skel) */
	uint32_t child_offset; /* absolute index of the first fetched child */
	int32_t element;       /* element index, or -1 */
	struct cua_fingerprint fp;
	const char *ident; /* object identity, NULL if synthetic */
	int pinned;        /* fp not unique among siblings
				  * (docs/differences.md D4) */
};

enum cua_elem_flags {
	CUA_ELEM_FOCUS_ONLY = 1u << 0,    /* pruned focused element
					  * (docs/differences.md D26) */
	CUA_ELEM_COMPACT_LINK = 1u << 1,  /* `<id> link <text>`
					  * (docs/state-text.md §9.7) */
	CUA_ELEM_SECURE = 1u << 2,        /* password field: no value */
	CUA_ELEM_VALUE_BARE_OK = 1u << 3, /* value may print bare
					  * (docs/state-text.md §7.3) */
	CUA_ELEM_SYNTHETIC_ROW = 1u << 4,
	CUA_ELEM_POPUP = 1u << 5, /* from the popup pass */
	CUA_ELEM_MENU_BAR_ITEM = 1u << 6,
};

struct cua_element {
	struct cua_tree *tree;
	uint32_t id;    /* CUA_NO_ID until ids are assigned */
	uint32_t index; /* position in tree->elements */
	int32_t parent; /* element index or -1 */
	uint32_t depth;
	uint32_t *children; /* element indices */
	size_t n_children;

	uint32_t role; /* raw role (enum cua_role) */
	const char *role_text;
	uint32_t traits; /* enum cua_trait bits */
	uint32_t flags;  /* enum cua_elem_flags */

	/* Sanitised (docs/state-text.md §5 steps 1–6), not truncated;
	 * "" = none. */
	const char *title;
	const char *description;
	const char *help;
	const char *value;
	const char *details;
	const char *placeholder;
	const char *url;
	const char *identifier;

	int has_summary; /* (showing a-b of n items) */
	uint32_t sum_a, sum_b, sum_n;

	/* Secondary actions: pretty names (sanitised) and, for each, the raw
	 * action name (NULL for actions libcua synthesizes). */
	const char **actions;
	const char **raw_actions;
	size_t n_actions;

	struct cua_rect frame; /* window-relative, points */
	int has_frame;
	/* what the frame was moved by beyond the window's origin because its
	 * toolkit measured it from another origin (frames.h); live extents
	 * of the element take the same move */
	int32_t shift_x, shift_y;

	int32_t skel;       /* skeleton index of the raw node, -1 none */
	uint32_t row_index; /* synthetic rows: the table row */

	/* Locator path: child indices from the window down
	 * (docs/identity.md §3). */
	const uint32_t *path;
	uint32_t path_len;
};

struct cua_marker {
	size_t after;     /* printed after this many element lines */
	const char *text; /* the marker line, at depth 0 */
};

struct cua_tree {
	atomic_int refcount;
	struct cua_arena *arena;

	/* app */
	const char *app_id;   /* sanitised */
	const char *app_name; /* sanitised */
	int64_t pid;
	uint64_t start_time;
	const char *exe;
	const char *toolkit;
	const char *toolkit_version;

	/* window */
	const char *window_title; /* sanitised */
	uint32_t window_index;
	uint64_t x11_window;
	struct cua_rect window_frame; /* screen coordinates */
	/* the whole X window and the window manager's frame around it, when
	 * known (w 0: unknown): cua_geom_element_origin() */
	struct cua_rect window_surface, window_outer;
	int has_window_frame;

	uint32_t revision;
	/* the revision that first showed this content: the previous
	 * revision's when nothing changed (docs/identity.md §7.3) */
	uint32_t content_revision;

	struct cua_element *elements;
	size_t n_elements;         /* all elements */
	size_t n_lines;            /* elements[0 .. n_lines) are tree lines */
	int32_t focused;           /* element index or -1 */
	const char *selected_text; /* sanitised; NULL = none */
	/* the `Accessibility unavailable:` note of a tree that is only a
	 * skeleton (walk_emit.c); NULL = none */
	const char *a11y_note;

	struct cua_skel *skel;
	size_t n_skel;

	struct cua_marker *markers;
	size_t n_markers;
	int truncated;

	/* Against the diff baseline (docs/identity.md §7), set when published:
	 * the previous published revision of the same window, if any. */
	const struct cua_delta *delta; /* in arena; NULL = no baseline */
	uint8_t full_reason;           /* enum cua_full_reason */
	uint8_t root_changed; /* the previous revision had another root */
	uint32_t diff_opts;   /* CUA_DIFF_* from the session options */

	/* The screenshot taken right after the walk (docs/screenshots.md): the
	 * encoded image in the arena, or the reason there is none. */
	const void *shot_data; /* NULL: no image */
	size_t shot_size;
	const char *shot_mime;     /* "image/jpeg" */
	struct cua_shot_geom shot; /* valid when has_shot */
	int has_shot;              /* geometry known (also after reloading
				    * saved state, without the bytes) */
	const char *shot_error;    /* docs/screenshots.md §7 reason, no final
				    * period; or NULL */
	struct cua_rect atspi_window; /* the window's own extents (AT-SPI) */
	int has_atspi_window;
	int frames_normalised; /* element frames are relative to the
				    * frame (image) origin, see session.c */

	struct {
		int64_t settle_us, warmup_us, capture_us, encode_us;
		int settle_capped;
		/* 1: the image is the one kept from an earlier capture of the
		 * unchanged window (shot.c) */
		int reused;
	} shot_stats;

	struct {
		int64_t raw_nodes, calls, call_errors, walk_us, build_us;
		int64_t diff_us; /* computing the delta (part of build_us) */
	} stats;
};

struct cua_tree *
cua_tree_alloc(void);
void
cua_tree_destroy(struct cua_tree *tree);

/* Takes a reference to a published tree; returns `tree` (NULL stays
 * NULL). */
struct cua_tree *
cua_tree_retain(struct cua_tree *tree);

/* Drops a reference; the last one destroys the tree. Accepts NULL. */
void
cua_tree_release(struct cua_tree *tree);

/* The index of the window (toplevel) an element belongs to. */
uint32_t
cua_element_window_index(const struct cua_element *e);

int
cua_fingerprint_equal(const struct cua_fingerprint *a,
		      const struct cua_fingerprint *b);
/* Subroles compare equal when either is unknown (NULL). */
int
cua_subrole_eq(const char *a, const char *b);

#endif
