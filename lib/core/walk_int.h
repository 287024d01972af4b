/*
 * Walk internals shared by the walk's files (walk.h): the proto tree of
 * pass 1, the walk state, and small node predicates.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_WALK_INT_H
#define CUA_CORE_WALK_INT_H

#include <ctype.h>
#include <string.h>

#include "hashmap.h"
#include "roles.h"
#include "strbuf.h"
#include "walk.h"

#define FFFC "\xef\xbf\xbc"

enum proto_flags {
	P_MERGED_TEXT = 1u << 0,  /* a merged run of pure text */
	P_LINK_COMPACT = 1u << 1, /* an embedded link of a text container */
	P_SYNTH_ROW = 1u << 2,
	P_FOCUS_ONLY = 1u << 3,
	P_TEXT_AS_TITLE = 1u << 4, /* proto->text is the title */
	P_POPUP = 1u << 5,
	P_AS_TEXT = 1u << 6, /* a container with own text renders as text */
	P_EMPTY = 1u << 7,   /* text with no text: dropped */
};

struct proto {
	const struct cua_raw_node *raw; /* NULL for synthetic rows */
	struct proto **kids;
	size_t n_kids, cap_kids;
	const char *text; /* merged or folded title (raw, unsanitised) */
	uint32_t flags;
	int has_summary;
	uint32_t sum_a, sum_b, sum_n;
	/* synthetic row */
	const struct cua_raw_node **cells;
	size_t n_cells;
	int32_t row_index;
};

struct walk {
	const struct cua_options *opt;
	int uses_enabled; /* the toolkit sets ENABLED (see is_disabled) */
	int gtk4;         /* GTK 4: widget type names stand in for names */
	const struct cua_raw_snapshot *snap;
	struct cua_tree *tree;
	struct cua_arena *tmp; /* protos and scratch */
	enum cua_visibility vis;
	const struct cua_raw_node *root;
	int32_t origin_x, origin_y; /* root frame origin, screen */
	int have_origin;
	const struct cua_raw_node *focused;
	/* emission */
	size_t cap; /* max element lines for the current part */
	size_t emitted;
	int depth_hit;
	int count_hit;
	/* rendered raw nodes, to render an object once
	 * (docs/state-text.md §9.3) */
	struct cua_hmap seen;
	struct cua_element *els;
	const struct proto **el_proto; /* parallel to els */
	size_t n_els, cap_els;
	int failed;
};

static inline int
is_visible(const struct cua_raw_node *n, enum cua_visibility vis)
{
	return cua_walk_is_visible(n, vis);
}

/*
 * A menu bar of no size (its extents were asked for and came back empty)
 * shows no menus, whatever its items claim: LibreOffice's VCL keeps a
 * zero-height one SHOWING behind the GTK menu bar it really shows, with
 * the same items. It is neither read further nor rendered.
 */
static inline int
is_sizeless_menu_bar(const struct cua_raw_node *n)
{
	return n->role == CUA_ROLE_MENU_BAR &&
	       (n->ifaces & CUA_IFACE_COMPONENT) &&
	       !(n->have & CUA_HAVE_EXTENTS);
}

/*
 * A web document that is not on screen: a background tab, or a page a
 * browser keeps loaded behind the shown one. Gecko leaves them VISIBLE
 * but not SHOWING (only the shown document is SHOWING, in Chromium too),
 * so the VISIBLE reading of visibility that browsers need keeps them
 * (docs/state-text.md §11.3). They are neither read nor rendered.
 */
static inline int
is_background_document(const struct cua_raw_node *n)
{
	return (n->role == CUA_ROLE_DOCUMENT_WEB ||
		n->role == CUA_ROLE_DOCUMENT_FRAME) &&
	       !CUA_HAS_STATE(n, CUA_STATE_SHOWING) &&
	       !CUA_HAS_STATE(n, CUA_STATE_FOCUSED);
}

/*
 * A Value that is a state, not a number to set (docs/state-text.md §7.4,
 * §11.3). LibreOffice gives its buttons, menus and menu items a Value from
 * 0 to 1: their pressed or open state. Its tool bars give every item one,
 * the item's checked state, also the separators between button groups and
 * the panels holding a tool bar's boxes (Name Box, font name): in a tool
 * bar, a Value is a number only on a numeric control (a slider, a spin
 * button), not on a separator.
 */
static inline int
cua_walk_value_is_state(const struct cua_raw_node *n)
{
	switch (n->role) {
	case CUA_ROLE_PUSH_BUTTON:
	case CUA_ROLE_TOGGLE_BUTTON:
	case CUA_ROLE_CHECK_BOX:
	case CUA_ROLE_RADIO_BUTTON:
	case CUA_ROLE_MENU:
	case CUA_ROLE_MENU_ITEM:
	case CUA_ROLE_CHECK_MENU_ITEM:
	case CUA_ROLE_RADIO_MENU_ITEM:
		return 1;
	default:
		return n->parent && n->parent->role == CUA_ROLE_TOOL_BAR &&
		       (n->role == CUA_ROLE_SEPARATOR ||
			!(cua_role_info(n->role)->flags & CUA_RF_NUMERIC));
	}
}

/*
 * Missing ENABLED or SENSITIVE means disabled (docs/state-text.md §11.3) — for
 * toolkits that set ENABLED at all: GTK 4.8 never sets it and marks disabled
 * widgets only by the missing SENSITIVE. Whether the toolkit uses ENABLED is
 * read from the window, which every toolkit that uses it marks enabled.
 * Where the toolkit uses ENABLED, ENABLED alone decides: LibreOffice marks
 * its document paragraphs ENABLED but never SENSITIVE, and the ATK, Qt and
 * browser bridges drop the two together.
 */
static inline int
is_disabled(const struct walk *w, const struct cua_raw_node *n)
{
	if (w->uses_enabled)
		return !CUA_HAS_STATE(n, CUA_STATE_ENABLED);
	return !CUA_HAS_STATE(n, CUA_STATE_SENSITIVE);
}

static inline int
nonempty(const char *s)
{
	if (!s)
		return 0;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 1;
	return 0;
}

/* Text with U+FFFC and white space removed is non-empty. */
static inline int
has_real_text(const char *s)
{
	if (!s)
		return 0;
	while (*s) {
		if (strncmp(s, FFFC, 3) == 0) {
			s += 3;
			continue;
		}
		if (!isspace((unsigned char)*s))
			return 1;
		s++;
	}
	return 0;
}

/*
 * An empty spreadsheet cell (docs/state-text.md §11.5.3): LibreOffice gives
 * every cell of a sheet Text and an unbounded Value, and a sheet read as
 * the grid it shows has mostly empty ones. A cell with no text, no
 * children, neither focused (the cell cursor) nor selected is not
 * rendered; its row keeps it for its identity.
 */
static inline int
is_empty_sheet_cell(const struct cua_raw_node *n)
{
	return n->role == CUA_ROLE_TABLE_CELL &&
	       (n->ifaces & CUA_IFACE_VALUE) && (n->ifaces & CUA_IFACE_TEXT) &&
	       (n->have & CUA_HAVE_TEXT) && n->n_children == 0 &&
	       !has_real_text(n->text) && !nonempty(n->description) &&
	       !CUA_HAS_STATE(n, CUA_STATE_FOCUSED) &&
	       !CUA_HAS_STATE(n, CUA_STATE_SELECTED);
}

static inline const char *
raw_identifier(const struct cua_raw_node *n)
{
	if (nonempty(n->accessible_id))
		return n->accessible_id;
	return cua_raw_attr(n, "id");
}

static inline int
is_secure(const struct cua_raw_node *n)
{
	const char *t;

	if (n->role == CUA_ROLE_PASSWORD_TEXT)
		return 1;
	t = cua_raw_attr(n, "input-type");
	return t && strcasecmp(t, "password") == 0;
}

/*
 * GTK 4 names a widget that has no accessible name after its type
 * (`AdwGizmo`, `AdwLeaflet`, an app's own `HistoryView`): one CamelCase
 * identifier on a generic container. Such a name is no title
 * (docs/state-text.md §11.10).
 */
static inline int
is_type_name(const struct walk *w, const struct cua_raw_node *n)
{
	const char *s = n->name;
	int humps = 0;

	if (!w->gtk4 || !s || !isupper((unsigned char)s[0]) ||
	    !(cua_role_info(n->role)->flags & CUA_RF_ELIDE))
		return 0;
	for (const char *p = s; *p; p++) {
		if (!isalnum((unsigned char)*p))
			return 0;
		if (p > s && isupper((unsigned char)*p) &&
		    islower((unsigned char)p[-1]))
			humps++;
	}
	return humps > 0;
}

/* The node's own name, unless it is no name (is_type_name). */
static inline const char *
node_name(const struct walk *w, const struct cua_raw_node *n)
{
	return is_type_name(w, n) ? NULL : n->name;
}

/* walk_actions.c */
int
cua_action_is_gaction(const char *raw);
int
cua_action_is_menu(const char *norm);
int
cua_action_name_is_junk(const char *name, const char *description);
int
cua_walk_has_action_norm(const struct cua_raw_node *n, const char *norm);
void
cua_walk_fill_actions(struct walk *w, struct cua_element *e,
		      const struct cua_raw_node *n, int is_root);

/* walk.c: pass 1 and 2 */
int
cua_walk_has_actions(const struct cua_raw_node *n);
void
cua_walk_plain_text(const struct cua_raw_node *n, struct strbuf *sb, int depth);
const char *
cua_walk_link_text(const struct cua_raw_node *n, struct strbuf *sb);
const char *
cua_walk_selected_name(const struct cua_raw_node *n, int depth);
struct proto *
cua_walk_proto_new(struct walk *w, const struct cua_raw_node *raw);
void
cua_walk_build_children(struct walk *w, const struct cua_raw_node *raw,
			struct proto *parent, int raw_depth);
void
cua_walk_merge_and_fold(struct walk *w, struct proto *p);

#endif
