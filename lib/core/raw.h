/*
 * Raw accessibility nodes: what a backend reads, before walk policy.
 *
 * Platform-neutral. Role and state numbers are the AT-SPI2 D-Bus protocol
 * values (they travel over the bus as integers, so they are protocol
 * constants, not a libatspi detail); a future backend maps its own roles
 * onto them. The AT-SPI backend checks the numbering against libatspi's
 * headers at compile time.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_RAW_H
#define CUA_CORE_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* Roles (AT-SPI numbering). Only the ones the core names are listed. */
enum cua_role {
	CUA_ROLE_INVALID = 0,
	CUA_ROLE_ACCELERATOR_LABEL = 1,
	CUA_ROLE_ALERT = 2,
	CUA_ROLE_ANIMATION = 3,
	CUA_ROLE_ARROW = 4,
	CUA_ROLE_CALENDAR = 5,
	CUA_ROLE_CANVAS = 6,
	CUA_ROLE_CHECK_BOX = 7,
	CUA_ROLE_CHECK_MENU_ITEM = 8,
	CUA_ROLE_COLOR_CHOOSER = 9,
	CUA_ROLE_COLUMN_HEADER = 10,
	CUA_ROLE_COMBO_BOX = 11,
	CUA_ROLE_DATE_EDITOR = 12,
	CUA_ROLE_DESKTOP_ICON = 13,
	CUA_ROLE_DESKTOP_FRAME = 14,
	CUA_ROLE_DIAL = 15,
	CUA_ROLE_DIALOG = 16,
	CUA_ROLE_DIRECTORY_PANE = 17,
	CUA_ROLE_DRAWING_AREA = 18,
	CUA_ROLE_FILE_CHOOSER = 19,
	CUA_ROLE_FILLER = 20,
	CUA_ROLE_FOCUS_TRAVERSABLE = 21,
	CUA_ROLE_FONT_CHOOSER = 22,
	CUA_ROLE_FRAME = 23,
	CUA_ROLE_GLASS_PANE = 24,
	CUA_ROLE_HTML_CONTAINER = 25,
	CUA_ROLE_ICON = 26,
	CUA_ROLE_IMAGE = 27,
	CUA_ROLE_INTERNAL_FRAME = 28,
	CUA_ROLE_LABEL = 29,
	CUA_ROLE_LAYERED_PANE = 30,
	CUA_ROLE_LIST = 31,
	CUA_ROLE_LIST_ITEM = 32,
	CUA_ROLE_MENU = 33,
	CUA_ROLE_MENU_BAR = 34,
	CUA_ROLE_MENU_ITEM = 35,
	CUA_ROLE_OPTION_PANE = 36,
	CUA_ROLE_PAGE_TAB = 37,
	CUA_ROLE_PAGE_TAB_LIST = 38,
	CUA_ROLE_PANEL = 39,
	CUA_ROLE_PASSWORD_TEXT = 40,
	CUA_ROLE_POPUP_MENU = 41,
	CUA_ROLE_PROGRESS_BAR = 42,
	CUA_ROLE_PUSH_BUTTON = 43,
	CUA_ROLE_RADIO_BUTTON = 44,
	CUA_ROLE_RADIO_MENU_ITEM = 45,
	CUA_ROLE_ROOT_PANE = 46,
	CUA_ROLE_ROW_HEADER = 47,
	CUA_ROLE_SCROLL_BAR = 48,
	CUA_ROLE_SCROLL_PANE = 49,
	CUA_ROLE_SEPARATOR = 50,
	CUA_ROLE_SLIDER = 51,
	CUA_ROLE_SPIN_BUTTON = 52,
	CUA_ROLE_SPLIT_PANE = 53,
	CUA_ROLE_STATUS_BAR = 54,
	CUA_ROLE_TABLE = 55,
	CUA_ROLE_TABLE_CELL = 56,
	CUA_ROLE_TABLE_COLUMN_HEADER = 57,
	CUA_ROLE_TABLE_ROW_HEADER = 58,
	CUA_ROLE_TEAROFF_MENU_ITEM = 59,
	CUA_ROLE_TERMINAL = 60,
	CUA_ROLE_TEXT = 61,
	CUA_ROLE_TOGGLE_BUTTON = 62,
	CUA_ROLE_TOOL_BAR = 63,
	CUA_ROLE_TOOL_TIP = 64,
	CUA_ROLE_TREE = 65,
	CUA_ROLE_TREE_TABLE = 66,
	CUA_ROLE_UNKNOWN = 67,
	CUA_ROLE_VIEWPORT = 68,
	CUA_ROLE_WINDOW = 69,
	CUA_ROLE_EXTENDED = 70,
	CUA_ROLE_HEADER = 71,
	CUA_ROLE_FOOTER = 72,
	CUA_ROLE_PARAGRAPH = 73,
	CUA_ROLE_RULER = 74,
	CUA_ROLE_APPLICATION = 75,
	CUA_ROLE_AUTOCOMPLETE = 76,
	CUA_ROLE_EDITBAR = 77,
	CUA_ROLE_EMBEDDED = 78,
	CUA_ROLE_ENTRY = 79,
	CUA_ROLE_CHART = 80,
	CUA_ROLE_CAPTION = 81,
	CUA_ROLE_DOCUMENT_FRAME = 82,
	CUA_ROLE_HEADING = 83,
	CUA_ROLE_PAGE = 84,
	CUA_ROLE_SECTION = 85,
	CUA_ROLE_REDUNDANT_OBJECT = 86,
	CUA_ROLE_FORM = 87,
	CUA_ROLE_LINK = 88,
	CUA_ROLE_INPUT_METHOD_WINDOW = 89,
	CUA_ROLE_TABLE_ROW = 90,
	CUA_ROLE_TREE_ITEM = 91,
	CUA_ROLE_DOCUMENT_SPREADSHEET = 92,
	CUA_ROLE_DOCUMENT_PRESENTATION = 93,
	CUA_ROLE_DOCUMENT_TEXT = 94,
	CUA_ROLE_DOCUMENT_WEB = 95,
	CUA_ROLE_DOCUMENT_EMAIL = 96,
	CUA_ROLE_COMMENT = 97,
	CUA_ROLE_LIST_BOX = 98,
	CUA_ROLE_GROUPING = 99,
	CUA_ROLE_IMAGE_MAP = 100,
	CUA_ROLE_NOTIFICATION = 101,
	CUA_ROLE_INFO_BAR = 102,
	CUA_ROLE_LEVEL_BAR = 103,
	CUA_ROLE_TITLE_BAR = 104,
	CUA_ROLE_BLOCK_QUOTE = 105,
	CUA_ROLE_AUDIO = 106,
	CUA_ROLE_VIDEO = 107,
	CUA_ROLE_DEFINITION = 108,
	CUA_ROLE_ARTICLE = 109,
	CUA_ROLE_LANDMARK = 110,
	CUA_ROLE_LOG = 111,
	CUA_ROLE_MARQUEE = 112,
	CUA_ROLE_MATH = 113,
	CUA_ROLE_RATING = 114,
	CUA_ROLE_TIMER = 115,
	CUA_ROLE_STATIC = 116,
	CUA_ROLE_MATH_FRACTION = 117,
	CUA_ROLE_MATH_ROOT = 118,
	CUA_ROLE_SUBSCRIPT = 119,
	CUA_ROLE_SUPERSCRIPT = 120,
	CUA_ROLE_DESCRIPTION_LIST = 121,
	CUA_ROLE_DESCRIPTION_TERM = 122,
	CUA_ROLE_DESCRIPTION_VALUE = 123,
	CUA_ROLE_FOOTNOTE = 124,
	CUA_ROLE_CONTENT_DELETION = 125,
	CUA_ROLE_CONTENT_INSERTION = 126,
	CUA_ROLE_MARK = 127,
	CUA_ROLE_SUGGESTION = 128,
	CUA_ROLE_PUSH_BUTTON_MENU = 129,
	CUA_ROLE_SWITCH = 130, /* newer at-spi2-core */
	CUA_ROLE_COUNT = 131,
};

/* States (AT-SPI bit numbers in the 64-bit state set). */
enum cua_state {
	CUA_STATE_ACTIVE = 1,
	CUA_STATE_ARMED = 2,
	CUA_STATE_BUSY = 3,
	CUA_STATE_CHECKED = 4,
	CUA_STATE_COLLAPSED = 5,
	CUA_STATE_DEFUNCT = 6,
	CUA_STATE_EDITABLE = 7,
	CUA_STATE_ENABLED = 8,
	CUA_STATE_EXPANDABLE = 9,
	CUA_STATE_EXPANDED = 10,
	CUA_STATE_FOCUSABLE = 11,
	CUA_STATE_FOCUSED = 12,
	CUA_STATE_HAS_TOOLTIP = 13,
	CUA_STATE_HORIZONTAL = 14,
	CUA_STATE_ICONIFIED = 15,
	CUA_STATE_MODAL = 16,
	CUA_STATE_MULTI_LINE = 17,
	CUA_STATE_MULTISELECTABLE = 18,
	CUA_STATE_OPAQUE = 19,
	CUA_STATE_PRESSED = 20,
	CUA_STATE_RESIZABLE = 21,
	CUA_STATE_SELECTABLE = 22,
	CUA_STATE_SELECTED = 23,
	CUA_STATE_SENSITIVE = 24,
	CUA_STATE_SHOWING = 25,
	CUA_STATE_SINGLE_LINE = 26,
	CUA_STATE_STALE = 27,
	CUA_STATE_TRANSIENT = 28,
	CUA_STATE_VERTICAL = 29,
	CUA_STATE_VISIBLE = 30,
	CUA_STATE_MANAGES_DESCENDANTS = 31,
	CUA_STATE_INDETERMINATE = 32,
	CUA_STATE_REQUIRED = 33,
	CUA_STATE_TRUNCATED = 34,
	CUA_STATE_ANIMATED = 35,
	CUA_STATE_INVALID_ENTRY = 36,
	CUA_STATE_SUPPORTS_AUTOCOMPLETION = 37,
	CUA_STATE_SELECTABLE_TEXT = 38,
	CUA_STATE_IS_DEFAULT = 39,
	CUA_STATE_VISITED = 40,
	CUA_STATE_CHECKABLE = 41,
	CUA_STATE_HAS_POPUP = 42,
	CUA_STATE_READ_ONLY = 43,
	CUA_STATE_COUNT = 44,
};

#define CUA_HAS_STATE(node, s) ((((node)->states) >> (s)) & 1u)

/* Interfaces a node implements. */
enum cua_iface {
	CUA_IFACE_ACTION = 1u << 0,
	CUA_IFACE_COMPONENT = 1u << 1,
	CUA_IFACE_TEXT = 1u << 2,
	CUA_IFACE_EDITABLE_TEXT = 1u << 3,
	CUA_IFACE_VALUE = 1u << 4,
	CUA_IFACE_SELECTION = 1u << 5,
	CUA_IFACE_TABLE = 1u << 6,
	CUA_IFACE_TABLE_CELL = 1u << 7,
	CUA_IFACE_HYPERTEXT = 1u << 8,
	CUA_IFACE_HYPERLINK = 1u << 9,
	CUA_IFACE_DOCUMENT = 1u << 10,
	CUA_IFACE_IMAGE = 1u << 11,
	CUA_IFACE_COLLECTION = 1u << 12,
};

/* What a raw node's value is, for fingerprints (docs/identity.md §3.2). */
enum cua_value_kind {
	CUA_VALUE_NONE = 0,
	CUA_VALUE_STRING = 1,
	CUA_VALUE_NUMBER = 2,
	CUA_VALUE_TOGGLE = 3,
};

/* Which optional pieces of a node were read (cua_raw_node.have). */
enum cua_raw_have {
	CUA_HAVE_BASIC = 1u << 0, /* role, states, interfaces, name */
	CUA_HAVE_DESCRIPTION = 1u << 1,
	CUA_HAVE_EXTENTS = 1u << 2,
	CUA_HAVE_ATTRIBUTES = 1u << 3,
	CUA_HAVE_ACTIONS = 1u << 4,
	CUA_HAVE_VALUE = 1u << 5,
	CUA_HAVE_TEXT = 1u << 6,
	CUA_HAVE_CHILDREN = 1u << 7,
	CUA_HAVE_RELATIONS = 1u << 8,
	CUA_HAVE_LINK = 1u << 9,
	CUA_HAVE_SELECTION = 1u << 10, /* selected child name (combo boxes) */
	CUA_HAVE_TEXT_SELECTION = 1u << 11,
	CUA_HAVE_TABLE_ROW = 1u << 12, /* table_row of a cell */
	CUA_HAVE_HELP = 1u << 13,
	CUA_HAVE_ID = 1u << 14,
};

/* What the tree cache's sweep asks of a node beyond its states and name
 * (cua_raw_node.sweep_ask; backend.h sweep_nodes). */
enum cua_sweep_ask {
	/* the visible range a walk would read now (range_first, range_end;
	 * range_end 0 when not found) */
	CUA_SWEEP_RANGE = 1u << 0,
	/* its children's identities (children, n_children: nodes with
	 * nothing but an ident; CUA_HAVE_CHILDREN when they came) */
	CUA_SWEEP_CHILDREN = 1u << 1,
	/* its description (CUA_HAVE_DESCRIPTION when it came) */
	CUA_SWEEP_DESCRIPTION = 1u << 2,
	/* its actions (CUA_HAVE_ACTIONS when they came) */
	CUA_SWEEP_ACTIONS = 1u << 3,
};

struct cua_raw_action {
	const char *name;      /* raw name (`click`, `Press`, …) */
	const char *localized; /* may be NULL */
	const char *description;
};

struct cua_rect {
	int32_t x, y, w, h;
};

struct cua_raw_attr {
	const char *key;
	const char *value;
};

/*
 * One accessibility object. All strings are UTF-8 as the app sent them
 * (unsanitised, possibly NULL) and live in the snapshot's arena.
 */
struct cua_raw_node {
	const char *ident; /* object identity ("bus:path"); NULL = synthetic */
	uint32_t role;   /* enum cua_role; values >= CUA_ROLE_COUNT: unknown */
	uint64_t states; /* bit n set = state n */
	uint32_t ifaces; /* enum cua_iface bits */
	uint32_t have;   /* enum cua_raw_have bits */

	const char *name;
	const char *description;
	const char *help;
	const char *accessible_id; /* Accessible.AccessibleId */

	struct cua_raw_attr *attrs; /* object attributes */
	size_t n_attrs;

	struct cua_raw_action *actions;
	size_t n_actions;

	double value, value_min, value_max, value_step;
	const char *value_text; /* Value.Text when provided */

	const char *text; /* Text.GetText(0, -1) for text roles */
	int32_t sel_start,
		sel_end; /* text selection when HAVE_TEXT_SELECTION */

	struct cua_rect extents; /* screen coordinates; HAVE_EXTENTS */

	const char *labelled_by;         /* name of the LABELLED_BY target */
	const char *link_uri;            /* Hyperlink.GetURI(0) for links */
	const char *selected_child_name; /* combo boxes */

	int32_t table_row;   /* for table cells: Table.GetRowAtIndex; else -1 */
	int32_t table_nrows; /* Table.NRows when read (HAVE_TABLE_ROW on a
			      * table); else 0 */

	/* Children. child_count is what the object reports; children holds
	 * the fetched ones, children[i] being child number child_offset + i
	 * (a contiguous range), plus possibly extra (focused/selected) ones
	 * listed in extra_children with their absolute index. */
	int32_t child_count;
	struct cua_raw_node **children;
	size_t n_children;
	size_t child_offset;
	struct cua_raw_node *parent;
	int32_t index_in_parent; /* absolute index in parent's child list */
	int children_partial;    /* only a range of children was fetched */
	/* A container read by visible range (docs/state-text.md §11.5): the
	 * children range_first .. range_end - 1 its hit tests chose (for a
	 * table read as a grid, its first to its last cell), whether or not
	 * all were read; range_end 0 when it was not read so. */
	int32_t range_first, range_end;
	/* ... and its hit tests, made in its visible area, found no child
	 * (GTK 4 before it has laid a list out): the first ones were read */
	int range_blind;
	unsigned sweep_ask; /* enum cua_sweep_ask */
	/* ChildCount was read (the walk asks it of the nodes it may descend
	 * into): a count of 0 is known, not assumed */
	int count_read;

	/* Set by the backend for toplevels. */
	uint64_t x11_window; /* 0 when unknown */
};

struct cua_raw_stats {
	uint64_t calls;       /* round trips */
	uint64_t call_errors; /* calls that failed */
	uint64_t nodes;       /* nodes created */
	uint64_t elapsed_us;  /* time spent fetching */
	int deadline_hit;     /* the walk deadline passed */
	int node_cap_hit;     /* the raw node cap was reached */
};

/*
 * One read of one app: the application node with its toplevels as children,
 * and, after a fetch, the deep subtrees of the toplevels that were fetched.
 */
struct cua_raw_snapshot {
	struct cua_arena *arena;
	struct cua_raw_node *app; /* role APPLICATION; children = toplevels */

	/* X11 / window-system facts about the toplevels, parallel to
	 * app->children (n = app->n_children). */
	struct cua_raw_window_info *windows;

	const char *focused_ident; /* identity of the focused node, or NULL */
	struct cua_raw_node *focused; /* the node, when it was fetched */

	struct cua_raw_stats stats;
};

struct cua_raw_window_info {
	uint64_t x11_window;   /* 0 when not matched */
	int x11_active;        /* the window manager's (or X) focus window */
	int x11_mapped;        /* viewable */
	const char *x11_title; /* _NET_WM_NAME / WM_NAME */
	struct cua_rect x11_frame; /* root coordinates, content area */
	/* With has_x11_frame: the whole X window (client-side shadows
	 * included) and the window manager's frame around it (decorations
	 * included; = the whole window when undecorated). A zero size:
	 * unknown (recordings made before they were kept). */
	struct cua_rect x11_surface, x11_outer;
	int has_x11_frame;
	int x11_transient;          /* WM_TRANSIENT_FOR names another window */
	uint64_t activation_serial; /* higher = more recently activated */
};

/* Helpers (raw.c). */
const char *
cua_raw_attr(const struct cua_raw_node *node, const char *key);
/* The attributes were read and the set was empty: an element that has
 * none, or a toolkit that has not built them yet (Gecko answers a new
 * client's first requests about a document with none). What they would
 * say is unknown. */
int
cua_raw_attrs_unknown(const struct cua_raw_node *node);
/* 1 when the node was read without details (neither attributes nor an
 * identifier: hidden nodes), so its subrole and identifier are unknown
 * and match any in a fingerprint. */
int
cua_raw_details_unknown(const struct cua_raw_node *node);
enum cua_value_kind
cua_raw_value_kind(const struct cua_raw_node *node);
int
cua_raw_is_toggle_role(uint32_t role);

/*
 * Geometry: two questions about a node's extents, with two answers.
 *
 * - cua_raw_has_extent(): the node is somewhere on screen: extents read,
 *   a positive size, and not parked a million pixels away. An element has
 *   a frame, and a pointer action may aim at its centre, exactly then; a
 *   1-pixel separator or caret-wide text run counts.
 * - cua_raw_has_area(): the node can show something: more than one pixel
 *   each way. Window choice and row windowing (the visible part of a
 *   scrolled list) ask this of windows and viewports, where a 1-pixel
 *   strip is a placeholder.
 */
int
cua_raw_has_extent(const struct cua_raw_node *node);
int
cua_raw_has_area(const struct cua_raw_node *node);

/* The first node of the subtree (depth first) whose state says FOCUSED,
 * or NULL: how a walk finds the focus among what it read. */
struct cua_raw_node *
cua_raw_find_focused(struct cua_raw_node *n);

/* 1 for an identifier a toolkit generated rather than the app's author
 * chose (never printed, never a reason to keep a container): macOS
 * `_NS:…`, GtkBuilder `___object_<digits>___`; also for NULL. */
int
cua_raw_is_generated_id(const char *id);

/* The element's name (NULL when it has none), with a doubled name undone:
 * GTK 4.8 names a widget that has both a label of its own and a
 * LABELLED_BY label "<own label> <labelling label's name>" ("Save Save",
 * "_Retry Retry"). When the part before the last space is the labelling
 * label's name again (mnemonic underscores aside), the name is that
 * label's name alone; any other name is returned as it is. */
const char *
cua_raw_name(const struct cua_raw_node *node);
/* 1 when `name` reads "<A> <B>" with A being B once mnemonic underscores
 * are taken out: a name worth checking against its LABELLED_BY label. */
int
cua_raw_name_may_be_doubled(const char *name);

#endif
