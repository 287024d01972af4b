/*
 * Walk policy: raw nodes → rendered elements (docs/state-text.md §9, §11).
 *
 * Three passes over the fetched raw tree of the root window (and of each
 * popup):
 *   1. build a "proto" tree of the nodes that will be rendered: invisible
 *      nodes dropped, generic containers that carry nothing eliminated
 *      (their children take their place), links swallow their content,
 *      row containers windowed to their visible rows;
 *   2. per proto: merge runs of pure-text siblings, fold a single pure-text
 *      child into a titleless parent;
 *   3. emit in depth-first pre-order, applying the depth and element caps,
 *      computing each element's role text, traits, segments and actions.
 * The skeleton (every fetched raw node with its fingerprint) is recorded
 * for locators and id inheritance.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "render.h"
#include "roles.h"
#include "sanitize.h"
#include "strbuf.h"
#include "utf8.h"
#include "walk.h"

#define FFFC "\xef\xbf\xbc"

/* ------------------------------------------------------------------ */
/* Actions                                                              */

void
cua_action_normalise(char *dst, size_t size, const char *name)
{
	size_t j = 0;

	if (!size)
		return;
	for (const char *p = name ? name : ""; *p && j + 1 < size; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == ' ' || c == '_' || c == '-')
			continue;
		dst[j++] = (char)tolower(c);
	}
	dst[j] = '\0';
}

static const char *const primary_verbs[] = {
	"click", "press", "activate", "jump", "open", "toggle", "check",
	"uncheck", "select", "clickancestor", "dodefault", NULL,
};

int
cua_action_is_primary(const char *norm, uint32_t role)
{
	if (strcmp(norm, "activate") == 0 &&
	    (cua_role_info(role)->flags & CUA_RF_TEXT_ENTRY))
		return 0;
	if (strcmp(norm, "activate") == 0 && role == CUA_ROLE_COMBO_BOX)
		return 0;
	for (size_t i = 0; primary_verbs[i]; i++)
		if (strcmp(norm, primary_verbs[i]) == 0)
			return 1;
	return 0;
}

int
cua_action_is_hidden(const char *norm)
{
	static const char *const hidden[] = {
		"setfocus", "focus", "scrolltovisible", "scrollintoview",
		"scrollto", NULL,
	};

	for (size_t i = 0; hidden[i]; i++)
		if (strcmp(norm, hidden[i]) == 0)
			return 1;
	return 0;
}

/*
 * GTK 4 exposes a widget's GAction muxer as AT-SPI actions: detailed names
 * such as `clipboard.copy`, `win.print`, `menu.popup` on every label and
 * window. They are menu plumbing, not accessibility actions, and would add
 * a dozen names to most lines; they are hidden like focus plumbing.
 */
static int
is_gaction_name(const char *raw)
{
	const char *dot = strchr(raw, '.');

	if (!dot || dot == raw || !dot[1] || strchr(dot + 1, '.'))
		return 0;
	for (const char *p = raw; *p; p++)
		if (!islower((unsigned char)*p) && *p != '.' && *p != '-' &&
		    !isdigit((unsigned char)*p))
			return 0;
	return 1;
}

/* Fixed labels for known verbs (docs/state-text.md §11.6 table); NULL if
 * none. */
static const char *
known_label(const char *norm, int expanded)
{
	static const struct {
		const char *norm;
		const char *label;
	} table[] = {
		{ "showcontextmenu", "Show Menu" },
		{ "showmenu", "Show Menu" },
		{ "menu", "Show Menu" },
		{ "popup", "Show Menu" },
		{ "contextmenu", "Show Menu" },
		{ "expand", "Expand" },
		{ "collapse", "Collapse" },
		{ "increase", "Increment" },
		{ "increment", "Increment" },
		{ "decrease", "Decrement" },
		{ "decrement", "Decrement" },
		{ "scrollup", "Scroll Up" },
		{ "scrolldown", "Scroll Down" },
		{ "scrollleft", "Scroll Left" },
		{ "scrollright", "Scroll Right" },
		{ "edit", "Edit" },
		{ "customize", "Customize" },
		{ "clear", "Clear" },
		{ "peek", "Peek" },
		{ "cancel", "Cancel" },
		{ "dismiss", "Dismiss" },
		{ "close", "Close" },
	};

	if (strcmp(norm, "expandorcontract") == 0 ||
	    strcmp(norm, "expandorcollapse") == 0 ||
	    strcmp(norm, "toggleexpanded") == 0)
		return expanded ? "Collapse" : "Expand";
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(norm, table[i].norm) == 0)
			return table[i].label;
	return NULL;
}

/* `activate-primary-icon` → `Activate primary icon`; `ShowMenu` → `Show menu`. */
static void
prettify_raw(struct strbuf *sb, const char *raw)
{
	struct strbuf tmp = STRBUF_INIT;
	int prev_lower = 0, space = 0;

	for (const char *p = raw; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '_' || c == '-' || isspace(c)) {
			space = 1;
			prev_lower = 0;
			continue;
		}
		if (isupper(c) && prev_lower)
			space = 1;
		if (space && tmp.len)
			sb_addc(&tmp, ' ');
		space = 0;
		sb_addc(&tmp, (char)(tmp.len == 0 ? toupper(c) :
					(isupper(c) ? tolower(c) : c)));
		prev_lower = islower(c) || isdigit(c);
	}
	sb_add(sb, sb_str(&tmp));
	sb_free(&tmp);
}

/* ------------------------------------------------------------------ */
/* Visibility and classification                                        */

enum cua_visibility
cua_walk_visibility_for(const char *toolkit, const char *version)
{
	if (toolkit && (strcasecmp(toolkit, "GTK") == 0 ||
			strcasecmp(toolkit, "gtk") == 0) &&
	    version && version[0] == '4')
		return CUA_VIS_VISIBLE;
	if (toolkit && (strcasestr(toolkit, "chrom") ||
			strcasestr(toolkit, "gecko") ||
			strcasestr(toolkit, "firefox") ||
			strcasestr(toolkit, "electron")))
		return CUA_VIS_VISIBLE;
	return CUA_VIS_SHOWING;
}

static int
is_visible(const struct cua_raw_node *n, enum cua_visibility vis)
{
	if (CUA_HAS_STATE(n, CUA_STATE_DEFUNCT))
		return 0;
	if (vis == CUA_VIS_VISIBLE)
		return CUA_HAS_STATE(n, CUA_STATE_VISIBLE) ||
		       CUA_HAS_STATE(n, CUA_STATE_SHOWING);
	return CUA_HAS_STATE(n, CUA_STATE_SHOWING);
}

struct walk;
static int walk_uses_enabled(const struct walk *w);

/*
 * Missing ENABLED or SENSITIVE means disabled (docs/state-text.md §11.3) — for
 * toolkits that set ENABLED at all: GTK 4.8 never sets it and marks disabled
 * widgets only by the missing SENSITIVE. Whether the toolkit uses ENABLED is
 * read from the window, which every toolkit that uses it marks enabled.
 */
static int
is_disabled(const struct walk *w, const struct cua_raw_node *n)
{
	if (!CUA_HAS_STATE(n, CUA_STATE_SENSITIVE))
		return 1;
	return walk_uses_enabled(w) && !CUA_HAS_STATE(n, CUA_STATE_ENABLED);
}

static int
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
static int
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

static const char *
raw_identifier(const struct cua_raw_node *n)
{
	if (nonempty(n->accessible_id))
		return n->accessible_id;
	return cua_raw_attr(n, "id");
}

/* Context-menu verbs: Chromium offers showContextMenu on every node. */
static int
is_menu_action(const char *norm)
{
	return strcmp(norm, "showcontextmenu") == 0 ||
	       strcmp(norm, "showmenu") == 0 || strcmp(norm, "menu") == 0 ||
	       strcmp(norm, "contextmenu") == 0 || strcmp(norm, "popup") == 0;
}

/*
 * Does the node have an action that makes it interactive? A context-menu
 * verb or doDefault alone does not (Chromium gives both to every text run
 * and wrapper), nor does focus/scroll plumbing or GTK 4's GAction muxer.
 */
static int
has_action_iface_actions(const struct cua_raw_node *n)
{
	char norm[64];

	for (size_t i = 0; i < n->n_actions; i++) {
		const char *a = n->actions[i].name;

		if (!nonempty(a) || is_gaction_name(a))
			continue;
		cua_action_normalise(norm, sizeof(norm), a);
		/* Chromium gives doDefault to every node and click-ancestor
		 * to text inside links: neither makes a node interactive */
		if (strcmp(norm, "dodefault") == 0 ||
		    strcmp(norm, "clickancestor") == 0)
			continue;
		if (!is_menu_action(norm) && !cua_action_is_hidden(norm))
			return 1;
	}
	return 0;
}

static int
is_secure(const struct cua_raw_node *n)
{
	const char *t;

	if (n->role == CUA_ROLE_PASSWORD_TEXT)
		return 1;
	t = cua_raw_attr(n, "input-type");
	return t && strcasecmp(t, "password") == 0;
}

static int
is_pure_text_node(const struct cua_raw_node *n)
{
	const struct cua_role_info *ri = cua_role_info(n->role);

	if (!(ri->flags & CUA_RF_TEXT))
		return 0;
	if (has_action_iface_actions(n))
		return 0;
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSABLE) ||
	    CUA_HAS_STATE(n, CUA_STATE_SELECTABLE) ||
	    CUA_HAS_STATE(n, CUA_STATE_EDITABLE))
		return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Fetch policy                                                         */

static uint32_t
policy_details(void *ud, const struct cua_raw_node *n, int depth)
{
	struct cua_walk_policy *st = ud;
	const struct cua_role_info *ri = cua_role_info(n->role);
	uint32_t want = CUA_HAVE_ATTRIBUTES | CUA_HAVE_ID;

	if (st->want_everything)
		return ~0u;
	if (depth > 0 && !is_visible(n, st->vis) && n != st->root)
		return want;
	want |= CUA_HAVE_DESCRIPTION | CUA_HAVE_EXTENTS;
	if (n->ifaces & CUA_IFACE_ACTION)
		want |= CUA_HAVE_ACTIONS;
	if (n->ifaces & CUA_IFACE_VALUE)
		want |= CUA_HAVE_VALUE;
	if (n->ifaces & CUA_IFACE_TEXT) {
		if ((ri->flags & (CUA_RF_TEXT_ENTRY)) ||
		    n->role == CUA_ROLE_COMBO_BOX ||
		    !nonempty(n->name))
			want |= CUA_HAVE_TEXT;
	}
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSED) &&
	    (n->ifaces & CUA_IFACE_TEXT))
		want |= CUA_HAVE_TEXT | CUA_HAVE_TEXT_SELECTION;
	if ((ri->flags & CUA_RF_INTERACTIVE) &&
	    (!nonempty(n->name) || cua_raw_name_may_be_doubled(n->name)))
		want |= CUA_HAVE_RELATIONS;
	if (n->role == CUA_ROLE_LINK)
		want |= CUA_HAVE_LINK;
	if (n->role == CUA_ROLE_COMBO_BOX && (n->ifaces & CUA_IFACE_SELECTION))
		want |= CUA_HAVE_SELECTION;
	if (n->role == CUA_ROLE_TABLE_CELL && n->parent &&
	    (n->parent->ifaces & CUA_IFACE_TABLE) &&
	    (cua_role_info(n->parent->role)->flags & CUA_RF_ROWS))
		want |= CUA_HAVE_TABLE_ROW;
	return want;
}

static int
policy_descend(void *ud, const struct cua_raw_node *n, int depth)
{
	struct cua_walk_policy *st = ud;

	if (CUA_HAS_STATE(n, CUA_STATE_DEFUNCT))
		return 0;
	if (cua_role_info(n->role)->flags & CUA_RF_HIDDEN &&
	    n->role != CUA_ROLE_APPLICATION)
		return 0;
	/* cycle guard: a node equal to one of its ancestors
	 * (docs/state-text.md §9.3) */
	if (n->ident)
		for (const struct cua_raw_node *a = n->parent; a; a = a->parent)
			if (a->ident && strcmp(a->ident, n->ident) == 0)
				return 0;
	if (n == st->root || depth == 0)
		return 1;
	if (st->want_everything)
		return 1;
	/* a combo box's (hidden) list holds its selected value */
	if (n->role == CUA_ROLE_COMBO_BOX ||
	    (n->parent && n->parent->role == CUA_ROLE_COMBO_BOX &&
	     n->child_count <= 200))
		return 1;
	if (!is_visible(n, st->vis))
		return 0;
	/* GTK 4 keeps the pages of a stack VISIBLE when they are not shown;
	 * their geometry says so (no extents): do not read them */
	if (st->prune_hidden_geometry && (n->ifaces & CUA_IFACE_COMPONENT) &&
	    !(n->have & CUA_HAVE_EXTENTS))
		return 0;
	return 1;
}

void
cua_walk_fetch_policy(struct cua_fetch_policy *pol,
		      struct cua_walk_policy *state,
		      const struct cua_options *opt, enum cua_visibility vis)
{
	memset(pol, 0, sizeof(*pol));
	state->vis = vis;
	pol->details = policy_details;
	pol->descend = policy_descend;
	pol->user_data = state;
	pol->max_raw_depth = opt->max_raw_depth;
	pol->max_nodes = (size_t)opt->max_raw_nodes;
	pol->deadline_us = cua_now_us() + (int64_t)opt->walk_deadline_ms * 1000;
	pol->call_timeout_ms = opt->call_timeout_ms;
	pol->range_threshold = 200;
	pol->range_list_threshold = 20;
}

/* ------------------------------------------------------------------ */
/* Window choice (docs/state-text.md §9.1) and popups (§9.6)            */

/* Child i of the application object may be the rendered root: a window
 * role, or any role when the backend matched it to a mapped client window
 * of the window system (GTK 4.8 gives its file chooser's toplevel the role
 * filler); not minimised either way. */
static int
is_window_candidate(const struct cua_raw_snapshot *snap, size_t i)
{
	const struct cua_raw_node *n = snap->app->children[i];

	if (CUA_HAS_STATE(n, CUA_STATE_ICONIFIED))
		return 0;
	return (cua_role_info(n->role)->flags & CUA_RF_TOPLEVEL) ||
	       (snap->windows && snap->windows[i].x11_window &&
		snap->windows[i].x11_mapped);
}

static int
is_popup_toplevel(const struct cua_raw_node *n)
{
	switch (n->role) {
	case CUA_ROLE_POPUP_MENU:
	case CUA_ROLE_MENU:
	case CUA_ROLE_TOOL_TIP:
		return 1;
	case CUA_ROLE_WINDOW:
		/* undecorated toplevels: menus, drop-downs, tooltips */
		return 1;
	default:
		return 0;
	}
}

int
cua_walk_choose_windows(const struct cua_raw_snapshot *snap, uint32_t *root,
			uint32_t *popups, size_t *n_popups)
{
	const struct cua_raw_node *app = snap->app;
	int64_t chosen = -1;
	uint64_t best_serial = 0;
	int have_x11 = 0;

	*n_popups = 0;
	if (!app || app->n_children == 0)
		return -1;
	for (size_t i = 0; i < app->n_children; i++)
		if (snap->windows && snap->windows[i].x11_window)
			have_x11 = 1;

	/* 1. the active window */
	for (size_t i = 0; i < app->n_children && chosen < 0; i++) {
		const struct cua_raw_node *w = app->children[i];

		if (!is_window_candidate(snap, i) || is_popup_toplevel(w))
			continue;
		if (have_x11) {
			if (snap->windows[i].x11_active)
				chosen = (int64_t)i;
		} else if (CUA_HAS_STATE(w, CUA_STATE_ACTIVE)) {
			chosen = (int64_t)i;
		}
	}
	/* 2. a showing modal dialog */
	for (size_t i = 0; i < app->n_children && chosen < 0; i++) {
		const struct cua_raw_node *w = app->children[i];

		if (is_window_candidate(snap, i) &&
		    (w->role == CUA_ROLE_DIALOG || w->role == CUA_ROLE_ALERT ||
		     w->role == CUA_ROLE_FILE_CHOOSER) &&
		    CUA_HAS_STATE(w, CUA_STATE_MODAL) &&
		    CUA_HAS_STATE(w, CUA_STATE_SHOWING))
			chosen = (int64_t)i;
	}
	/* 3. the most recently activated window */
	for (size_t i = 0; i < app->n_children && chosen < 0 && snap->windows;
	     i++) {
		const struct cua_raw_node *w = app->children[i];

		if (is_window_candidate(snap, i) && !is_popup_toplevel(w) &&
		    snap->windows[i].activation_serial > best_serial)
			best_serial = snap->windows[i].activation_serial;
	}
	if (chosen < 0 && best_serial) {
		for (size_t i = 0; i < app->n_children; i++)
			if (is_window_candidate(snap, i) &&
			    snap->windows[i].activation_serial == best_serial) {
				chosen = (int64_t)i;
				break;
			}
	}
	/* 4. the first showing, non-minimised window with an extent; real
	 * windows before undecorated ones */
	for (int pass = 0; pass < 2 && chosen < 0; pass++)
		for (size_t i = 0; i < app->n_children && chosen < 0; i++) {
			const struct cua_raw_node *w = app->children[i];

			if (!is_window_candidate(snap, i))
				continue;
			if (pass == 0 && is_popup_toplevel(w))
				continue;
			if (CUA_HAS_STATE(w, CUA_STATE_SHOWING) &&
			    (cua_raw_has_area(w) ||
			     !(w->have & CUA_HAVE_EXTENTS)))
				chosen = (int64_t)i;
		}
	/* 5. minimised, hidden or off-screen: the first window anyway */
	for (size_t i = 0; i < app->n_children && chosen < 0; i++)
		if ((cua_role_info(app->children[i]->role)->flags &
		     CUA_RF_TOPLEVEL) ||
		    (snap->windows && snap->windows[i].x11_window))
			chosen = (int64_t)i;
	if (chosen < 0)
		return -1;
	*root = (uint32_t)chosen;

	for (size_t i = 0; i < app->n_children; i++) {
		const struct cua_raw_node *w = app->children[i];

		if ((int64_t)i == chosen || *n_popups >= CUA_MAX_POPUPS)
			continue;
		if (is_popup_toplevel(w) && CUA_HAS_STATE(w, CUA_STATE_SHOWING))
			popups[(*n_popups)++] = (uint32_t)i;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Pass 1: the proto tree                                               */

enum proto_flags {
	P_MERGED_TEXT = 1u << 0,  /* a merged run of pure text */
	P_LINK_COMPACT = 1u << 1, /* an embedded link of a text container */
	P_SYNTH_ROW = 1u << 2,
	P_FOCUS_ONLY = 1u << 3,
	P_TEXT_AS_TITLE = 1u << 4, /* proto->text is the title */
	P_POPUP = 1u << 5,
	P_AS_TEXT = 1u << 6,      /* a container with own text renders as text */
	P_EMPTY = 1u << 7,        /* text with no text: dropped */
};

struct proto {
	const struct cua_raw_node *raw; /* NULL for synthetic rows */
	struct proto **kids;
	size_t n_kids, cap_kids;
	const char *text;      /* merged or folded title (raw, unsanitised) */
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
	const struct cua_raw_snapshot *snap;
	struct cua_tree *tree;
	struct cua_arena *tmp;   /* protos and scratch */
	enum cua_visibility vis;
	const struct cua_raw_node *root;
	int32_t origin_x, origin_y; /* root frame origin, screen */
	int have_origin;
	const struct cua_raw_node *focused;
	/* emission */
	size_t cap;        /* max element lines for the current part */
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

static int
walk_uses_enabled(const struct walk *w)
{
	return w->uses_enabled;
}

static struct proto *
proto_new(struct walk *w, const struct cua_raw_node *raw)
{
	struct proto *p = cua_arena_alloc(w->tmp, sizeof(*p));

	if (!p) {
		w->failed = 1;
		return NULL;
	}
	p->raw = raw;
	p->row_index = -1;
	return p;
}

static void
proto_add(struct walk *w, struct proto *parent, struct proto *kid)
{
	if (!kid)
		return;
	if (parent->n_kids == parent->cap_kids) {
		size_t cap = parent->cap_kids ? parent->cap_kids * 2 : 8;
		struct proto **k = cua_arena_alloc(w->tmp, cap * sizeof(*k));

		if (!k) {
			w->failed = 1;
			return;
		}
		if (parent->n_kids)
			memcpy(k, parent->kids, parent->n_kids * sizeof(*k));
		parent->kids = k;
		parent->cap_kids = cap;
	}
	parent->kids[parent->n_kids++] = kid;
}

/* 0 if an object with the same identity was already rendered
 * (docs/state-text.md §9.3). */
static int
seen_add(struct walk *w, const struct cua_raw_node *n)
{
	if (!n->ident)
		return 1;
	if (cua_hmap_get(&w->seen, n->ident, NULL))
		return 0;
	if (cua_hmap_put(&w->seen, n->ident, 1) < 0)
		w->failed = 1;
	return 1;
}

static const char *
link_text(const struct cua_raw_node *n, struct strbuf *sb);

/* Text leaves: their text is part of the parent's text, not an embedded
 * object (Chromium exposes them as children beside the embedded ones). */
static int
is_text_leaf(const struct cua_raw_node *c)
{
	return c->n_children == 0 && c->role != CUA_ROLE_LINK &&
	       (c->role == CUA_ROLE_STATIC ||
		(cua_role_info(c->role)->flags & CUA_RF_TEXT));
}

/*
 * The object behind the k-th U+FFFC of a hypertext's text. Toolkits that
 * expose only embedded objects as children map one to one; Chromium also
 * lists text leaves, which own no U+FFFC, so they are skipped when there
 * are more children than placeholders.
 */
static const struct cua_raw_node *
embedded_child(const struct cua_raw_node *n, size_t k)
{
	size_t m = 0, j = 0;

	for (const char *p = n->text; p && (p = strstr(p, FFFC)); p += 3)
		m++;
	if (n->n_children <= m)
		return k < n->n_children ? n->children[k] : NULL;
	for (size_t i = 0; i < n->n_children; i++) {
		const struct cua_raw_node *c = n->children[i];

		if (!c || is_text_leaf(c))
			continue;
		if (j++ == k)
			return c;
	}
	return NULL;
}

/* Plain text of a node for embedding: its name, or its text with embedded
 * objects expanded. */
static void
node_plain_text(const struct cua_raw_node *n, struct strbuf *sb, int depth)
{
	if (depth > 16)
		return;
	if (n->role == CUA_ROLE_LINK) {
		struct strbuf t = STRBUF_INIT;
		const char *uri = n->link_uri;

		link_text(n, &t);
		if (nonempty(uri)) {
			sb_addc(sb, '[');
			sb_add(sb, sb_str(&t));
			sb_add(sb, "](");
			sb_add(sb, uri);
			sb_addc(sb, ')');
		} else {
			sb_add(sb, sb_str(&t));
		}
		sb_free(&t);
		return;
	}
	if (has_real_text(n->text) || (n->text && strstr(n->text, FFFC))) {
		size_t k = 0;

		for (const char *p = n->text; *p;) {
			if (strncmp(p, FFFC, 3) == 0) {
				const struct cua_raw_node *c =
					embedded_child(n, k++);

				if (c)
					node_plain_text(c, sb, depth + 1);
				p += 3;
				continue;
			}
			sb_addc(sb, *p++);
		}
		return;
	}
	if (nonempty(n->name)) {
		sb_add(sb, n->name);
		return;
	}
	for (size_t i = 0; i < n->n_children; i++) {
		size_t before = sb->len;

		if (sb->len && !isspace((unsigned char)sb->s[sb->len - 1]))
			sb_addc(sb, ' ');
		node_plain_text(n->children[i], sb, depth + 1);
		if (sb->len == before + 1)
			sb->s[--sb->len] = '\0';
	}
}

/* The text of a link: its name, else its content. */
static const char *
link_text(const struct cua_raw_node *n, struct strbuf *sb)
{
	if (nonempty(n->name)) {
		sb_add(sb, n->name);
		return sb_str(sb);
	}
	if (has_real_text(n->text)) {
		for (const char *p = n->text; *p;) {
			if (strncmp(p, FFFC, 3) == 0) {
				p += 3;
				continue;
			}
			sb_addc(sb, *p++);
		}
		return sb_str(sb);
	}
	for (size_t i = 0; i < n->n_children; i++) {
		if (sb->len)
			sb_addc(sb, ' ');
		node_plain_text(n->children[i], sb, 1);
	}
	return sb_str(sb);
}

/* The name of the first selected item in a combo box's list. */
static const char *
selected_descendant_name(const struct cua_raw_node *n, int depth)
{
	if (depth > 2)
		return NULL;
	for (size_t i = 0; i < n->n_children; i++) {
		const struct cua_raw_node *c = n->children[i];
		const char *r;

		if (!c)
			continue;
		if (depth > 0 || c->role != CUA_ROLE_TEXT) {
			if (CUA_HAS_STATE(c, CUA_STATE_SELECTED) && nonempty(c->name))
				return c->name;
		}
		r = selected_descendant_name(c, depth + 1);
		if (r)
			return r;
	}
	return NULL;
}

static int
node_is_scroll_container(const struct cua_raw_node *n)
{
	for (size_t i = 0; i < n->n_children; i++)
		if (n->children[i] &&
		    n->children[i]->role == CUA_ROLE_SCROLL_BAR &&
		    CUA_HAS_STATE(n->children[i], CUA_STATE_SHOWING))
			return 1;
	return 0;
}

/* Does a generic container carry anything (docs/state-text.md §9.4)? */
static int
carries_something(const struct walk *w, const struct cua_raw_node *n)
{
	const char *id = raw_identifier(n);

	if (nonempty(n->name) || nonempty(n->description) ||
	    nonempty(n->help) || nonempty(n->labelled_by))
		return 1;
	if (id && nonempty(id) && !cua_raw_is_generated_id(id))
		return 1;
	if ((n->have & CUA_HAVE_VALUE) && n->value_max > n->value_min)
		return 1;
	if (has_action_iface_actions(n))
		return 1;
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSABLE) &&
	    CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return 1;
	if (CUA_HAS_STATE(n, CUA_STATE_SELECTABLE) ||
	    CUA_HAS_STATE(n, CUA_STATE_EXPANDABLE) ||
	    CUA_HAS_STATE(n, CUA_STATE_EDITABLE))
		return 1;
	if (node_is_scroll_container(n))
		return 1;
	(void)w;
	return 0;
}

/* A container whose own text has content beyond embedded objects (web
 * documents: a div holding inline text and links). */
static int
has_own_text(const struct cua_raw_node *n)
{
	return (n->have & CUA_HAVE_TEXT) && has_real_text(n->text);
}

static void build_children(struct walk *w, const struct cua_raw_node *raw,
			   struct proto *parent, int raw_depth);

static int
row_is_visible(const struct walk *w, const struct cua_raw_node *row,
	       const struct cua_rect *view)
{
	const struct cua_rect *r = &row->extents;

	if (!is_visible(row, w->vis))
		return 0;
	if (!view || !(row->have & CUA_HAVE_EXTENTS))
		return 1;
	if (r->w <= 0 || r->h <= 0)
		return 0;
	return r->x < view->x + view->w && r->x + r->w > view->x &&
	       r->y < view->y + view->h && r->y + r->h > view->y;
}

/* The visible extent of the nearest scrolling container
 * (docs/state-text.md §9.8). */
static const struct cua_rect *
row_view(const struct cua_raw_node *container)
{
	for (const struct cua_raw_node *a = container; a; a = a->parent) {
		if (a->role == CUA_ROLE_SCROLL_PANE || a->role == CUA_ROLE_VIEWPORT ||
		    a == container) {
			if (cua_raw_has_area(a) && a->role != CUA_ROLE_TABLE &&
			    a->role != CUA_ROLE_TREE_TABLE && a->role != CUA_ROLE_TREE &&
			    a->role != CUA_ROLE_LIST && a->role != CUA_ROLE_LIST_BOX)
				return &a->extents;
		}
		if (a->role == CUA_ROLE_SCROLL_PANE)
			break;
	}
	if (cua_raw_has_area(container))
		return &container->extents;
	return NULL;
}

static int
row_has_focus_or_selection(const struct walk *w, const struct cua_raw_node *n,
			   int *selected)
{
	*selected = CUA_HAS_STATE(n, CUA_STATE_SELECTED);
	for (const struct cua_raw_node *f = w->focused; f; f = f->parent)
		if (f == n)
			return 1;
	return 0;
}

/* Synthetic rows for tables that expose flat cells
 * (docs/state-text.md §11.5.3). */
static void
build_synthetic_rows(struct walk *w, const struct cua_raw_node *raw,
		     struct proto *container, int raw_depth)
{
	const struct cua_rect *view = row_view(raw);
	size_t n = raw->n_children, max_rows = (size_t)w->opt->max_rows;
	uint32_t emitted = 0, first = UINT32_MAX, last = 0, total_rows = 0;
	int focus_extra = 0, sel_extra = 0;
	struct proto *row = NULL;
	int32_t cur_row = INT32_MIN;

	/* headers first */
	for (size_t i = 0; i < n; i++) {
		const struct cua_raw_node *c = raw->children[i];

		if (c && c->table_row < 0 && is_visible(c, w->vis))
			build_children(w, c, container, raw_depth + 1),
				(void)0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cua_raw_node *c = raw->children[i];
		int focus, sel, vis;

		if (!c || c->table_row < 0)
			continue;
		if (c->table_row != cur_row) {
			cur_row = c->table_row;
			total_rows++;
			row = NULL;
			vis = row_is_visible(w, c, view);
			focus = row_has_focus_or_selection(w, c, &sel);
			if (vis && emitted < max_rows) {
				emitted++;
				if ((uint32_t)cur_row < first)
					first = (uint32_t)cur_row;
				last = (uint32_t)cur_row;
			} else if (focus && !focus_extra) {
				focus_extra = 1;
			} else if (sel && !sel_extra) {
				sel_extra = 1;
			} else {
				continue;
			}
			row = proto_new(w, NULL);
			if (!row)
				return;
			row->flags |= P_SYNTH_ROW;
			row->row_index = cur_row;
			row->cells = cua_arena_alloc(w->tmp, n * sizeof(*row->cells));
			proto_add(w, container, row);
		} else if (!row) {
			continue;
		}
		if (row && row->cells) {
			struct proto *cell;

			row->cells[row->n_cells++] = c;
			if (!is_visible(c, w->vis))
				continue;
			cell = proto_new(w, c);
			proto_add(w, row, cell);
			if (cell && c->n_children)
				build_children(w, c, cell, raw_depth + 1);
		}
	}
	/* only a range may have been read: the total comes from the table's
	 * row count, else from the child count and the cells per row */
	if (raw->table_nrows > 0 && (uint32_t)raw->table_nrows > total_rows) {
		total_rows = (uint32_t)raw->table_nrows;
	} else if (raw->children_partial && raw->child_count > 0 && emitted) {
		size_t cells = 0, headers = 0;

		for (size_t i = 0; i < n; i++)
			if (raw->children[i] && raw->children[i]->table_row >= 0)
				cells++;
			else if (raw->children[i])
				headers++;
		if (cells && (uint32_t)raw->child_count > headers) {
			size_t per_row = (cells + total_rows - 1) / total_rows;
			uint32_t est = (uint32_t)(((size_t)raw->child_count - headers) /
						  (per_row ? per_row : 1));

			if (est > total_rows)
				total_rows = est;
		}
	}
	if (total_rows > emitted && emitted > 0) {
		container->has_summary = 1;
		container->sum_a = first;
		container->sum_b = last;
		container->sum_n = total_rows;
	}
}

static void
build_rows(struct walk *w, const struct cua_raw_node *raw,
	   struct proto *container, int raw_depth)
{
	const struct cua_rect *view = row_view(raw);
	size_t max_rows = (size_t)w->opt->max_rows, emitted = 0;
	uint32_t first = UINT32_MAX, last = 0, total = 0;
	int focus_extra = 0, sel_extra = 0, any_cells = 0;

	for (size_t i = 0; i < raw->n_children; i++)
		if (raw->children[i] && raw->children[i]->table_row >= 0)
			any_cells = 1;
	if (any_cells) {
		build_synthetic_rows(w, raw, container, raw_depth);
		return;
	}
	for (size_t i = 0; i < raw->n_children; i++) {
		const struct cua_raw_node *c = raw->children[i];
		uint32_t abs;
		int sel, focus;

		if (!c)
			continue;
		if (!(cua_role_info(c->role)->flags & CUA_RF_ROW)) {
			/* headers, scroll bars, … */
			if (is_visible(c, w->vis))
				build_children(w, c, container, raw_depth + 1);
			continue;
		}
		total++;
		abs = (uint32_t)(raw->child_offset + i);
		focus = row_has_focus_or_selection(w, c, &sel);
		if (row_is_visible(w, c, view) && emitted < max_rows) {
			emitted++;
			if (abs < first)
				first = abs;
			last = abs;
		} else if (focus && !focus_extra && is_visible(c, w->vis)) {
			focus_extra = 1;
		} else if (sel && !sel_extra && is_visible(c, w->vis)) {
			sel_extra = 1;
		} else {
			continue;
		}
		build_children(w, c, container, raw_depth + 1);
	}
	if (raw->child_count > 0 && (uint32_t)raw->child_count > total)
		total = (uint32_t)raw->child_count;
	if (emitted && total > emitted) {
		container->has_summary = 1;
		container->sum_a = first;
		container->sum_b = last;
		container->sum_n = total;
	}
}

/* Adds the node (or, if eliminated, its children) under `parent`. */
static void
build_children(struct walk *w, const struct cua_raw_node *raw,
	       struct proto *parent, int raw_depth)
{
	const struct cua_role_info *ri;
	struct proto *p;

	if (!raw || w->failed)
		return;
	ri = cua_role_info(raw->role);
	if (raw != w->root && !is_visible(raw, w->vis))
		return;
	if ((ri->flags & CUA_RF_HIDDEN))
		return;
	/* a separator is rendered only as a draggable divider */
	if (raw->role == CUA_ROLE_SEPARATOR && !(raw->ifaces & CUA_IFACE_VALUE))
		return;
	if (!seen_add(w, raw))
		return;

	if (((ri->flags & CUA_RF_ELIDE) && !carries_something(w, raw)) ||
	    ((ri->flags & CUA_RF_IMAGE) && !nonempty(raw->name) &&
	     !nonempty(raw->description) && !has_action_iface_actions(raw))) {
		if ((ri->flags & CUA_RF_ELIDE) && has_own_text(raw)) {
			/* web text container: render as text */
			p = proto_new(w, raw);
			if (!p)
				return;
			p->flags |= P_AS_TEXT;
			proto_add(w, parent, p);
			goto embedded;
		}
		for (size_t i = 0; i < raw->n_children; i++)
			build_children(w, raw->children[i], parent,
				       raw_depth + 1);
		return;
	}
	/* disabled elements that carry nothing else are pruned */
	if (!(ri->flags & CUA_RF_TOPLEVEL) && is_disabled(w, raw) &&
	    (ri->flags & CUA_RF_INTERACTIVE) && !nonempty(raw->name) &&
	    !nonempty(raw->description) && !has_real_text(raw->text) &&
	    !(raw->have & CUA_HAVE_VALUE) && raw->n_children == 0 &&
	    !cua_raw_is_toggle_role(raw->role))
		return;

	p = proto_new(w, raw);
	if (!p)
		return;
	proto_add(w, parent, p);
	if (raw->role == CUA_ROLE_LINK)
		return; /* swallows its children */
	if (raw->role == CUA_ROLE_COMBO_BOX &&
	    !CUA_HAS_STATE(raw, CUA_STATE_EXPANDED)) {
		/* a collapsed combo's list is not shown
		 * (docs/state-text.md §11.5.5), but an editable text child
		 * is */
		for (size_t i = 0; i < raw->n_children; i++) {
			const struct cua_raw_node *c = raw->children[i];

			if (c && (cua_role_info(c->role)->flags & CUA_RF_TEXT_ENTRY))
				build_children(w, c, p, raw_depth + 1);
		}
		return;
	}
	if (ri->flags & CUA_RF_ROWS) {
		build_rows(w, raw, p, raw_depth);
		return;
	}
embedded:
	if ((raw->have & CUA_HAVE_TEXT) && has_real_text(raw->text) &&
	    raw->n_children &&
	    ((ri->flags & (CUA_RF_TEXT | CUA_RF_ELIDE)) ||
	     raw->role == CUA_ROLE_HEADING || raw->role == CUA_ROLE_LIST_ITEM ||
	     raw->role == CUA_ROLE_TABLE_CELL)) {
		/* hypertext: the text carries the children; links stay
		 * clickable as compact lines, interactive children stay */
		for (size_t i = 0; i < raw->n_children; i++) {
			const struct cua_raw_node *c = raw->children[i];

			if (!c || !is_visible(c, w->vis))
				continue;
			if (c->role == CUA_ROLE_LINK) {
				struct proto *l = proto_new(w, c);

				if (!l)
					return;
				if (!seen_add(w, c))
					continue;
				l->flags |= P_LINK_COMPACT;
				proto_add(w, p, l);
			} else if (!is_pure_text_node(c) &&
				   !((cua_role_info(c->role)->flags & CUA_RF_ELIDE) &&
				     !carries_something(w, c))) {
				build_children(w, c, p, raw_depth + 1);
			}
		}
		p->flags |= P_AS_TEXT;
		return;
	}
	for (size_t i = 0; i < raw->n_children; i++)
		build_children(w, raw->children[i], p, raw_depth + 1);
}

/* ------------------------------------------------------------------ */
/* Pass 2: merging and folding                                          */

static int
proto_is_pure_text(const struct proto *p)
{
	if (p->flags & P_MERGED_TEXT)
		return 1;
	if (!p->raw || p->n_kids || (p->flags & (P_LINK_COMPACT | P_AS_TEXT)))
		return 0;
	return is_pure_text_node(p->raw);
}

static const char *
proto_plain(struct walk *w, const struct proto *p)
{
	struct strbuf sb = STRBUF_INIT;
	const char *r;

	if (p->text)
		return p->text;
	if (p->raw)
		node_plain_text(p->raw, &sb, 0);
	r = cua_arena_strdup(w->tmp, sb_str(&sb));
	sb_free(&sb);
	return r;
}

static void
join_text(struct strbuf *sb, const char *piece)
{
	size_t n;

	if (!piece || !*piece)
		return;
	n = sb->len;
	if (n && !isspace((unsigned char)sb->s[n - 1]) &&
	    !isspace((unsigned char)piece[0]) &&
	    !strchr(".,;:!?)]}", piece[0]) && !strchr("([{", sb->s[n - 1]))
		sb_addc(sb, ' ');
	sb_add(sb, piece);
}

static void
merge_and_fold(struct walk *w, struct proto *p)
{
	size_t out = 0;

	for (size_t i = 0; i < p->n_kids; i++)
		merge_and_fold(w, p->kids[i]);

	/* text without text says nothing */
	for (size_t i = 0; i < p->n_kids; i++) {
		struct proto *k = p->kids[i];

		if (k->raw && !k->n_kids && !(k->flags & P_LINK_COMPACT) &&
		    (cua_role_info(k->raw->role)->flags & CUA_RF_TEXT) &&
		    !has_action_iface_actions(k->raw) &&
		    !CUA_HAS_STATE(k->raw, CUA_STATE_FOCUSED) &&
		    !nonempty(proto_plain(w, k)))
			k->flags |= P_EMPTY;
		if (!(k->flags & P_EMPTY))
			p->kids[out++] = k;
	}
	p->n_kids = out;
	out = 0;

	/* merge runs of pure text (docs/state-text.md §9.5) */
	for (size_t i = 0; i < p->n_kids;) {
		size_t j = i;

		while (j < p->n_kids && proto_is_pure_text(p->kids[j]))
			j++;
		if (j - i >= 2) {
			struct strbuf sb = STRBUF_INIT;
			struct proto *m = p->kids[i];

			for (size_t k = i; k < j; k++)
				join_text(&sb, proto_plain(w, p->kids[k]));
			m->text = cua_arena_strdup(w->tmp, sb_str(&sb));
			m->flags |= P_MERGED_TEXT;
			sb_free(&sb);
			p->kids[out++] = m;
			i = j;
		} else if (j > i) {
			p->kids[out++] = p->kids[i];
			i = j;
		} else {
			p->kids[out++] = p->kids[i];
			i++;
		}
	}
	p->n_kids = out;

	/* a single pure-text child that repeats the parent's title is
	 * redundant (a GTK 4 check box and its label) */
	if (p->raw && p->n_kids == 1 && proto_is_pure_text(p->kids[0]) &&
	    nonempty(p->raw->name)) {
		const char *t = proto_plain(w, p->kids[0]);

		if (t && strcmp(t, cua_raw_name(p->raw)) == 0)
			p->n_kids = 0;
	}
	/* fold a single pure-text child into a titleless parent
	 * (docs/state-text.md §9.4) */
	if (p->raw && p->n_kids == 1 && proto_is_pure_text(p->kids[0]) &&
	    !nonempty(p->raw->name) && !nonempty(p->raw->labelled_by) &&
	    !(p->flags & (P_AS_TEXT | P_MERGED_TEXT)) &&
	    !(cua_role_info(p->raw->role)->flags &
	      (CUA_RF_TEXT_ENTRY | CUA_RF_TOPLEVEL | CUA_RF_ROWS)) &&
	    !has_own_text(p->raw) && p->raw->role != CUA_ROLE_COMBO_BOX) {
		p->text = proto_plain(w, p->kids[0]);
		p->flags |= P_TEXT_AS_TITLE;
		p->n_kids = 0;
	}
	/* synthetic rows whose cells are all pure text with one text
	 * (docs/state-text.md §11.5.3) */
	if ((p->flags & P_SYNTH_ROW) && p->n_kids) {
		const char *only = NULL;
		int ok = 1;

		for (size_t i = 0; i < p->n_kids && ok; i++) {
			struct proto *c = p->kids[i];
			const char *t;

			if (c->n_kids || !c->raw ||
			    has_action_iface_actions(c->raw) ||
			    (c->raw->ifaces & CUA_IFACE_EDITABLE_TEXT)) {
				ok = 0;
				break;
			}
			t = nonempty(c->raw->name) ? c->raw->name : c->raw->text;
			if (!nonempty(t))
				continue;
			if (only)
				ok = 0;
			only = t;
		}
		if (ok && only) {
			p->text = only;
			p->n_kids = 0;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Pass 3: elements                                                     */

static const char *
san(struct walk *w, const char *s)
{
	char *r = cua_sanitize(w->tree->arena, s);

	if (!r) {
		w->failed = 1;
		return "";
	}
	return r;
}

static struct cua_element *
el_new(struct walk *w, const struct proto *p)
{
	struct cua_element *e;

	if (w->n_els == w->cap_els) {
		size_t cap = w->cap_els ? w->cap_els * 2 : 256;
		struct cua_element *n = realloc(w->els, cap * sizeof(*n));
		const struct proto **pp;

		if (n)
			w->els = n;
		pp = realloc(w->el_proto, cap * sizeof(*pp));
		if (pp)
			w->el_proto = pp;
		if (!n || !pp) {
			w->failed = 1;
			return NULL;
		}
		w->cap_els = cap;
	}
	w->el_proto[w->n_els] = p;
	e = &w->els[w->n_els];
	memset(e, 0, sizeof(*e));
	e->index = (uint32_t)w->n_els++;
	e->id = CUA_NO_ID;
	e->parent = -1;
	e->skel = -1;
	e->title = e->description = e->help = e->value = e->details = "";
	e->placeholder = e->url = e->identifier = "";
	return e;
}

static void
number_value(struct walk *w, struct cua_element *e, double v)
{
	char buf[64];

	cua_format_number(buf, sizeof(buf), v);
	e->value = cua_arena_strdup(w->tree->arena, buf);
}

static const char *
url_for(const struct cua_raw_node *n)
{
	const char *u;

	if (n->role != CUA_ROLE_DOCUMENT_WEB && n->role != CUA_ROLE_DOCUMENT_FRAME)
		return NULL;
	u = cua_raw_attr(n, "DocURL");
	if (!u)
		u = cua_raw_attr(n, "URL");
	if (!u)
		u = cua_raw_attr(n, "docurl");
	return u;
}

static void
fill_traits(struct walk *w, struct cua_element *e,
	    const struct cua_raw_node *n, int has_actions_any)
{
	uint32_t f = cua_role_info(n->role)->flags;
	uint32_t t = 0;

	if (CUA_HAS_STATE(n, CUA_STATE_SELECTED) && (f & CUA_RF_SELECTABLE))
		t |= CUA_TRAIT_SELECTED;
	else if (CUA_HAS_STATE(n, CUA_STATE_SELECTABLE) && (f & CUA_RF_SELECTABLE))
		t |= CUA_TRAIT_SELECTABLE;
	if (CUA_HAS_STATE(n, CUA_STATE_EXPANDABLE))
		t |= CUA_HAS_STATE(n, CUA_STATE_EXPANDED) ? CUA_TRAIT_EXPANDED :
							    CUA_TRAIT_COLLAPSED;
	/* A settable number (docs/state-text.md §11.3). Indicators (progress,
	 * level) report a Value but setting it has no meaning; a disabled
	 * control is still settable in kind and carries the disabled trait
	 * (Codex: `splitter (disabled, settable, float) 208`). */
	if ((n->ifaces & CUA_IFACE_VALUE) && (n->have & CUA_HAVE_VALUE) &&
	    n->role != CUA_ROLE_PROGRESS_BAR && n->role != CUA_ROLE_LEVEL_BAR &&
	    !CUA_HAS_STATE(n, CUA_STATE_READ_ONLY) &&
	    n->value_max > n->value_min)
		t |= CUA_TRAIT_SETTABLE | CUA_TRAIT_FLOAT;
	else if (CUA_HAS_STATE(n, CUA_STATE_EDITABLE) &&
		 (n->ifaces & CUA_IFACE_EDITABLE_TEXT) &&
		 !CUA_HAS_STATE(n, CUA_STATE_READ_ONLY))
		t |= CUA_TRAIT_SETTABLE | CUA_TRAIT_STRING;
	/* disabled: interactive elements only (docs/state-text.md §11.3); a
	 * settable element is interactive (Codex: `splitter (disabled,
	 * settable, float) 208`) */
	if (is_disabled(w, n) &&
	    ((f & CUA_RF_INTERACTIVE) || has_actions_any ||
	     (t & CUA_TRAIT_SETTABLE)))
		t |= CUA_TRAIT_DISABLED;
	e->traits = t;
}

static const char *
role_text_for(const struct walk *w, const struct proto *p,
	      const struct cua_raw_node *n)
{
	const struct cua_role_info *ri = cua_role_info(n->role);
	const struct cua_raw_node *par = n->parent;

	if (p->flags & P_AS_TEXT)
		return (ri->flags & CUA_RF_ELIDE) ? "text" : ri->text;
	switch (n->role) {
	case CUA_ROLE_MENU:
	case CUA_ROLE_MENU_ITEM:
	case CUA_ROLE_CHECK_MENU_ITEM:
	case CUA_ROLE_RADIO_MENU_ITEM:
		if (par && par->role == CUA_ROLE_MENU_BAR)
			return "";
		if (n->role == CUA_ROLE_MENU && par &&
		    (par->role == CUA_ROLE_MENU || par->role == CUA_ROLE_POPUP_MENU))
			return "menu item";
		return ri->text;
	case CUA_ROLE_COMBO_BOX:
		if (CUA_HAS_STATE(n, CUA_STATE_EDITABLE))
			return "combo box";
		for (size_t i = 0; i < n->n_children; i++)
			if (n->children[i] &&
			    (cua_role_info(n->children[i]->role)->flags &
			     CUA_RF_TEXT_ENTRY))
				return "combo box";
		return ri->text;
	case CUA_ROLE_ENTRY: {
		const char *xr = cua_raw_attr(n, "xml-roles");

		if (xr && strstr(xr, "searchbox"))
			return "search text field";
		return ri->text;
	}
	case CUA_ROLE_TEXT:
		/* GTK 4 and Qt line edits set neither SINGLE_LINE nor
		 * MULTI_LINE: only MULTI_LINE makes an entry area */
		if (CUA_HAS_STATE(n, CUA_STATE_MULTI_LINE) &&
		    !CUA_HAS_STATE(n, CUA_STATE_SINGLE_LINE))
			return "text entry area";
		return "text field";
	case CUA_ROLE_FILE_CHOOSER:
		return n == w->root ? "dialog" : ri->text;
	default:
		break;
	}
	/* a root chosen for its window (docs/state-text.md §9.1) whose role is
	 * no window's (GTK 4.8's file chooser is a filler): the window system
	 * says what it is */
	if (n == w->root && !(ri->flags & CUA_RF_TOPLEVEL) &&
	    w->snap->windows)
		return w->snap->windows[w->tree->window_index].x11_transient
			       ? "dialog"
			       : "standard window";
	switch (n->role) {
	case CUA_ROLE_LIST_ITEM:
		if (!CUA_HAS_STATE(n, CUA_STATE_SELECTABLE)) {
			for (const struct cua_raw_node *a = par; a; a = a->parent)
				if (a->role == CUA_ROLE_DOCUMENT_WEB ||
				    a->role == CUA_ROLE_DOCUMENT_TEXT ||
				    a->role == CUA_ROLE_DOCUMENT_FRAME)
					return "list item";
		}
		return ri->text;
	default:
		return ri->text;
	}
}

/* n has an action whose normalised name is `norm` */
static int
has_action_norm(const struct cua_raw_node *n, const char *norm)
{
	char buf[64];

	for (size_t i = 0; i < n->n_actions; i++) {
		if (!nonempty(n->actions[i].name))
			continue;
		cua_action_normalise(buf, sizeof(buf), n->actions[i].name);
		if (strcmp(buf, norm) == 0)
			return 1;
	}
	return 0;
}

static void
fill_actions(struct walk *w, struct cua_element *e,
	     const struct cua_raw_node *n, int is_root)
{
	uint32_t rf = cua_role_info(n->role)->flags;
	int text_like = (rf & (CUA_RF_TEXT | CUA_RF_ELIDE | CUA_RF_IMAGE)) ||
			n->role == CUA_ROLE_HEADING ||
			n->role == CUA_ROLE_DOCUMENT_WEB ||
			n->role == CUA_ROLE_DOCUMENT_FRAME ||
			strcmp(e->role_text, "text") == 0;
	struct cua_arena *a = w->tree->arena;
	const char *labels[64];
	const char *raws[64];
	size_t k = 0;
	int has_expand_action = 0, has_vscroll = 0, has_hscroll = 0;
	int expanded = CUA_HAS_STATE(n, CUA_STATE_EXPANDED);
	char norm[64];

	if (is_root && w->tree->x11_window)
		labels[k] = "Raise", raws[k++] = NULL;
	for (size_t i = 0; i < n->n_actions && k < 60; i++) {
		const char *raw = n->actions[i].name;
		const char *loc = n->actions[i].localized;
		const char *lab;
		struct strbuf sb = STRBUF_INIT;

		if (!nonempty(raw))
			continue;
		cua_action_normalise(norm, sizeof(norm), raw);
		if (cua_action_is_primary(norm, n->role) ||
		    cua_action_is_hidden(norm) || is_gaction_name(raw))
			continue;
		/* text and wrappers: a context menu is not what they are for */
		if (is_menu_action(norm) && text_like)
			continue;
		if (strcmp(norm, "expand") == 0 || strcmp(norm, "collapse") == 0 ||
		    strcmp(norm, "expandorcontract") == 0 ||
		    strcmp(norm, "expandorcollapse") == 0 ||
		    strcmp(norm, "toggleexpanded") == 0) {
			/* GTK3 offers "expand or contract" on every tree cell;
			 * it means something only on expandable ones */
			if (!CUA_HAS_STATE(n, CUA_STATE_EXPANDABLE))
				continue;
			has_expand_action = 1;
		}
		lab = known_label(norm, expanded);
		/* a lone `expand` or `collapse` toggles (Gecko keeps calling
		 * an open summary's action `expand`): named by the state */
		if ((strcmp(norm, "expand") == 0 &&
		     !has_action_norm(n, "collapse")) ||
		    (strcmp(norm, "collapse") == 0 &&
		     !has_action_norm(n, "expand")))
			lab = expanded ? "Collapse" : "Expand";
		if (!lab) {
			if (nonempty(loc) && strcmp(loc, raw) != 0)
				sb_add(&sb, loc);
			else
				prettify_raw(&sb, raw);
			lab = sb_str(&sb);
		}
		labels[k] = cua_sanitize(a, lab);
		raws[k] = cua_arena_strdup(a, raw);
		sb_free(&sb);
		/* duplicate labels get the raw name appended */
		for (size_t j = 0; j < k; j++)
			if (labels[j] && strcmp(labels[j], labels[k]) == 0) {
				struct strbuf d = STRBUF_INIT;

				sb_addf(&d, "%s (%s)", labels[k], raw);
				labels[k] = cua_sanitize(a, sb_str(&d));
				sb_free(&d);
				break;
			}
		k++;
	}
	/* synthesized: scroll actions on scroll areas, expand/collapse */
	if (n->role == CUA_ROLE_SCROLL_PANE) {
		for (size_t i = 0; i < n->n_children; i++) {
			const struct cua_raw_node *c = n->children[i];

			if (!c || c->role != CUA_ROLE_SCROLL_BAR ||
			    !is_visible(c, w->vis))
				continue;
			if (CUA_HAS_STATE(c, CUA_STATE_HORIZONTAL))
				has_hscroll = 1;
			else
				has_vscroll = 1;
		}
		if (has_vscroll && k < 62) {
			labels[k] = "Scroll Up", raws[k++] = NULL;
			labels[k] = "Scroll Down", raws[k++] = NULL;
		}
		if (has_hscroll && k < 62) {
			labels[k] = "Scroll Left", raws[k++] = NULL;
			labels[k] = "Scroll Right", raws[k++] = NULL;
		}
	}
	if (CUA_HAS_STATE(n, CUA_STATE_EXPANDABLE) && !has_expand_action &&
	    n->role != CUA_ROLE_COMBO_BOX && !(cua_role_info(n->role)->flags &
					      CUA_RF_MENU_ITEM) && k < 63)
		labels[k] = expanded ? "Collapse" : "Expand", raws[k++] = NULL;
	if (!k)
		return;
	e->actions = cua_arena_alloc(a, k * sizeof(char *));
	e->raw_actions = cua_arena_alloc(a, k * sizeof(char *));
	if (!e->actions || !e->raw_actions) {
		w->failed = 1;
		return;
	}
	memcpy(e->actions, labels, k * sizeof(char *));
	memcpy(e->raw_actions, raws, k * sizeof(char *));
	e->n_actions = k;
}

static void
fill_frame(struct walk *w, struct cua_element *e, const struct cua_raw_node *n)
{
	if (!cua_raw_has_extent(n))
		return;
	e->frame = n->extents;
	if (w->have_origin) {
		e->frame.x -= w->origin_x;
		e->frame.y -= w->origin_y;
	}
	e->has_frame = 1;
}

static void
fill_element(struct walk *w, struct cua_element *e, const struct proto *p)
{
	const struct cua_raw_node *n = p->raw;
	const struct cua_role_info *ri;
	struct strbuf sb = STRBUF_INIT;
	const char *title = NULL, *id;
	int secure;

	if (!n) {
		/* synthetic row */
		const struct cua_raw_node *c0 = p->n_cells ? p->cells[0] : NULL;

		e->role = CUA_ROLE_TABLE_ROW;
		e->role_text = "row";
		e->flags |= CUA_ELEM_SYNTHETIC_ROW;
		e->row_index = (uint32_t)p->row_index;
		if (c0) {
			if (CUA_HAS_STATE(c0, CUA_STATE_SELECTED))
				e->traits |= CUA_TRAIT_SELECTED;
			else if (CUA_HAS_STATE(c0, CUA_STATE_SELECTABLE))
				e->traits |= CUA_TRAIT_SELECTABLE;
			if (CUA_HAS_STATE(c0, CUA_STATE_EXPANDABLE))
				e->traits |= CUA_HAS_STATE(c0, CUA_STATE_EXPANDED) ?
						     CUA_TRAIT_EXPANDED :
						     CUA_TRAIT_COLLAPSED;
			for (size_t i = 0; i < p->n_cells; i++) {
				const struct cua_raw_node *c = p->cells[i];

				if (!(c->have & CUA_HAVE_EXTENTS) || c->extents.w <= 0)
					continue;
				if (!e->has_frame) {
					fill_frame(w, e, c);
				} else {
					struct cua_rect r = c->extents;
					int32_t x1, y1;

					if (w->have_origin) {
						r.x -= w->origin_x;
						r.y -= w->origin_y;
					}
					x1 = e->frame.x + e->frame.w > r.x + r.w ?
						     e->frame.x + e->frame.w :
						     r.x + r.w;
					y1 = e->frame.y + e->frame.h > r.y + r.h ?
						     e->frame.y + e->frame.h :
						     r.y + r.h;
					if (r.x < e->frame.x)
						e->frame.x = r.x;
					if (r.y < e->frame.y)
						e->frame.y = r.y;
					e->frame.w = x1 - e->frame.x;
					e->frame.h = y1 - e->frame.y;
				}
			}
		}
		if (p->text)
			e->title = san(w, p->text);
		return;
	}

	ri = cua_role_info(n->role);
	e->role = n->role;
	e->role_text = role_text_for(w, p, n);
	e->has_summary = p->has_summary;
	e->sum_a = p->sum_a;
	e->sum_b = p->sum_b;
	e->sum_n = p->sum_n;
	secure = is_secure(n);
	if (secure)
		e->flags |= CUA_ELEM_SECURE;
	if (p->flags & P_LINK_COMPACT)
		e->flags |= CUA_ELEM_COMPACT_LINK;
	if (p->flags & P_POPUP)
		e->flags |= CUA_ELEM_POPUP;

	/* title */
	if (p->flags & (P_MERGED_TEXT | P_TEXT_AS_TITLE)) {
		title = p->text;
	} else if (p->flags & P_AS_TEXT) {
		node_plain_text(n, &sb, 0);
		title = sb_str(&sb);
	} else if (n->role == CUA_ROLE_LINK) {
		link_text(n, &sb);
		title = sb_str(&sb);
	} else if (nonempty(n->name)) {
		title = cua_raw_name(n);
	} else if (nonempty(n->labelled_by)) {
		title = n->labelled_by;
	} else if ((ri->flags & CUA_RF_TEXT) && has_real_text(n->text)) {
		title = n->text;
	}
	if (n == w->root && !nonempty(title) && w->snap->windows) {
		const struct cua_raw_window_info *wi =
			&w->snap->windows[w->tree->window_index];

		title = wi->x11_title;
	}
	e->title = san(w, title);
	sb_free(&sb);
	if (p->flags & P_MERGED_TEXT) {
		e->role_text = "text";
		fill_frame(w, e, n);
		return;
	}

	e->description = san(w, n->description);
	e->help = san(w, n->help);
	id = raw_identifier(n);
	if (id && !cua_raw_is_generated_id(id))
		e->identifier = san(w, id);
	{
		const char *ph = cua_raw_attr(n, "placeholder-text");

		if (!ph)
			ph = cua_raw_attr(n, "placeholder");
		e->placeholder = san(w, ph);
	}
	e->url = san(w, url_for(n));

	/* value (docs/state-text.md §7.4) */
	if (secure) {
		/* never rendered */
	} else if ((ri->flags & CUA_RF_TOGGLE) ||
		   CUA_HAS_STATE(n, CUA_STATE_CHECKABLE)) {
		if (CUA_HAS_STATE(n, CUA_STATE_INDETERMINATE))
			e->value = "mixed";
		else if (CUA_HAS_STATE(n, CUA_STATE_CHECKED) ||
			 CUA_HAS_STATE(n, CUA_STATE_PRESSED))
			e->value = "on";
		else
			e->value = "off";
	} else if (n->role == CUA_ROLE_LINK) {
		if (!(p->flags & P_LINK_COMPACT))
			e->value = san(w, n->link_uri);
	} else if (n->role == CUA_ROLE_HEADING) {
		e->value = san(w, cua_raw_attr(n, "level"));
	} else if (n->role == CUA_ROLE_COMBO_BOX) {
		const char *v = n->selected_child_name;

		if (!nonempty(v))
			v = selected_descendant_name(n, 0);

		if (!nonempty(v) && has_real_text(n->text))
			v = n->text;
		if (!nonempty(v))
			v = NULL;
		e->value = san(w, v);
		if (v && strcmp(e->value, e->title) == 0)
			e->title = "";
	} else if ((n->have & CUA_HAVE_VALUE) && (n->ifaces & CUA_IFACE_VALUE) &&
		   ((ri->flags & CUA_RF_NUMERIC) || n->value_max > n->value_min)) {
		char buf[64];

		number_value(w, e, n->value);
		cua_format_number(buf, sizeof(buf), n->value);
		if (nonempty(n->value_text) && strcmp(n->value_text, buf) != 0)
			e->details = san(w, n->value_text);
	} else if ((ri->flags & CUA_RF_TEXT_ENTRY) ||
		   ((n->ifaces & CUA_IFACE_EDITABLE_TEXT) &&
		    CUA_HAS_STATE(n, CUA_STATE_EDITABLE))) {
		if (n->have & CUA_HAVE_TEXT) {
			struct strbuf t = STRBUF_INIT;

			node_plain_text(n, &t, 0);
			e->value = san(w, sb_str(&t));
			sb_free(&t);
		}
	}

	/* GTK describes sliders by their value text: not a description */
	if (*e->description && strcmp(e->description, e->value) == 0)
		e->description = "";
	fill_traits(w, e, n, has_action_iface_actions(n));
	fill_actions(w, e, n, n == w->root);
	fill_frame(w, e, n);
}

/* Emits `p` and its subtree at `depth`; returns 0, or -1 when a cap
 * stopped emission. */
static int
emit(struct walk *w, struct proto *p, uint32_t depth, int32_t parent)
{
	struct cua_element *e;
	uint32_t idx;

	if (w->failed)
		return -1;
	if (depth >= (uint32_t)w->opt->max_depth) {
		w->depth_hit = 1;
		return 0;
	}
	if (w->emitted >= w->cap) {
		w->count_hit = 1;
		return -1;
	}
	e = el_new(w, p);
	if (!e)
		return -1;
	idx = e->index;
	e->depth = depth;
	e->parent = parent;
	fill_element(w, e, p);
	/* children may move w->els: use idx from here on */
	w->emitted++;
	for (size_t i = 0; i < p->n_kids; i++)
		if (emit(w, p->kids[i], depth + 1, (int32_t)idx) < 0)
			return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Skeleton                                                              */

struct skel_build {
	struct walk *w;
	struct cua_skel *skel;
	size_t n, cap;
	const struct cua_raw_node **raw; /* parallel: raw node per skel */
	struct cua_hmap index;           /* raw node → skel index */
};

static int
skel_push(struct skel_build *sb, const struct cua_raw_node *n, int32_t parent,
	  uint32_t index)
{
	struct cua_skel *s;
	struct cua_arena *a = sb->w->tree->arena;
	const char *subrole, *id;

	if (sb->n == sb->cap) {
		size_t cap = sb->cap ? sb->cap * 2 : 512;
		struct cua_skel *ns = realloc(sb->skel, cap * sizeof(*ns));
		const struct cua_raw_node **nr =
			realloc(sb->raw, cap * sizeof(*nr));

		if (ns)
			sb->skel = ns;
		if (nr)
			sb->raw = nr;
		if (!ns || !nr)
			return -1;
		sb->cap = cap;
	}
	s = &sb->skel[sb->n];
	memset(s, 0, sizeof(*s));
	s->parent = parent;
	s->index = index;
	s->element = -1;
	s->child_count = n->child_count > 0 ? (uint32_t)n->child_count : 0;
	s->child_offset = (uint32_t)n->child_offset;
	s->fp.role = n->role;
	s->fp.value_kind = (uint8_t)cua_raw_value_kind(n);
	subrole = cua_raw_attr(n, "xml-roles");
	if (!subrole)
		subrole = cua_raw_attr(n, "tag");
	id = n->accessible_id && *n->accessible_id ? n->accessible_id :
						      cua_raw_attr(n, "id");
	s->fp.subrole = cua_raw_attrs_unknown(n) ?
				NULL :
				cua_arena_strdup(a, subrole ? subrole : "");
	s->fp.identifier = cua_arena_strdup(a, id ? id : "");
	s->fp.title = cua_arena_strdup(a, n->name ? n->name : "");
	s->ident = cua_arena_strdup(a, n->ident);
	sb->raw[sb->n] = n;
	if (cua_hmap_put(&sb->index, n, (int64_t)sb->n) < 0)
		return -1;
	sb->n++;
	return 0;
}

/* Breadth-first so that each node's fetched children are contiguous. */
static int
skel_build_window(struct skel_build *sb, const struct cua_raw_node *top,
		  uint32_t window_index)
{
	size_t head = sb->n;

	if (skel_push(sb, top, -1, window_index) < 0)
		return -1;
	while (head < sb->n) {
		const struct cua_raw_node *n = sb->raw[head];
		uint32_t first = (uint32_t)sb->n;

		for (size_t i = 0; i < n->n_children; i++) {
			const struct cua_raw_node *c = n->children[i];

			if (!c)
				continue;
			if (skel_push(sb, c, (int32_t)head,
				      (uint32_t)(c->index_in_parent >= 0 ?
						 c->index_in_parent :
						 (int32_t)(n->child_offset + i))) < 0)
				return -1;
		}
		sb->skel[head].first_child = first;
		sb->skel[head].n_fetched = (uint32_t)(sb->n - first);
		head++;
	}
	return 0;
}

static void
skel_mark_pins(struct cua_tree *t)
{
	for (size_t i = 0; i < t->n_skel; i++) {
		struct cua_skel *p = &t->skel[i];

		for (uint32_t a = 0; a < p->n_fetched; a++) {
			struct cua_skel *x = &t->skel[p->first_child + a];

			for (uint32_t b = a + 1; b < p->n_fetched; b++) {
				struct cua_skel *y = &t->skel[p->first_child + b];

				if (cua_fingerprint_equal(&x->fp, &y->fp))
					x->pinned = y->pinned = 1;
			}
		}
	}
}

static int32_t
skel_find(const struct skel_build *sb, const struct cua_raw_node *n)
{
	int64_t v;

	return cua_hmap_get(&sb->index, n, &v) ? (int32_t)v : -1;
}

/* ------------------------------------------------------------------ */

static void
add_marker(struct walk *w, const char *text)
{
	struct cua_tree *t = w->tree;
	struct cua_marker *m = cua_arena_alloc(t->arena,
					       (t->n_markers + 1) * sizeof(*m));

	if (!m) {
		w->failed = 1;
		return;
	}
	if (t->n_markers)
		memcpy(m, t->markers, t->n_markers * sizeof(*m));
	m[t->n_markers].after = w->n_els;
	m[t->n_markers].text = cua_arena_strdup(t->arena, text);
	t->markers = m;
	t->n_markers++;
	t->truncated = 1;
}

static void
part_markers(struct walk *w)
{
	char buf[96];

	if (w->count_hit) {
		snprintf(buf, sizeof(buf), "(tree truncated at %d elements)",
			 w->opt->max_elements);
		add_marker(w, buf);
	} else if (w->depth_hit) {
		snprintf(buf, sizeof(buf), "(tree truncated at depth %d)",
			 w->opt->max_depth);
		add_marker(w, buf);
	}
	w->count_hit = w->depth_hit = 0;
}

cua_result
cua_walk_build(struct cua_tree *tree, const struct cua_raw_snapshot *snap,
	       uint32_t root, const uint32_t *popups, size_t n_popups,
	       const struct cua_options *opt, enum cua_visibility vis)
{
	struct walk w;
	struct skel_build sb;
	struct proto *top, *popup_tops[CUA_MAX_POPUPS];
	const struct cua_raw_node *rootn;
	int32_t focus_el = -1;
	cua_result r = CUA_OK;
	size_t total_cap, popup_reserve;

	if (!snap->app || root >= snap->app->n_children)
		return cua_error(CUA_ERROR, "walk: no such window %u", root);
	memset(&w, 0, sizeof(w));
	memset(&sb, 0, sizeof(sb));
	sb.w = &w;
	cua_hmap_init(&w.seen, 1);
	cua_hmap_init(&sb.index, 0);
	w.opt = opt;
	w.snap = snap;
	w.tree = tree;
	w.vis = vis;
	w.tmp = cua_arena_new();
	if (!w.tmp)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	rootn = snap->app->children[root];
	w.root = rootn;
	w.uses_enabled = CUA_HAS_STATE(rootn, CUA_STATE_ENABLED);
	w.focused = snap->focused;
	tree->window_index = root;
	if (snap->windows) {
		tree->x11_window = snap->windows[root].x11_window;
		if (snap->windows[root].has_x11_frame) {
			tree->window_frame = snap->windows[root].x11_frame;
			tree->window_surface = snap->windows[root].x11_surface;
			tree->window_outer = snap->windows[root].x11_outer;
			tree->has_window_frame = 1;
		}
	}
	if (rootn->have & CUA_HAVE_EXTENTS) {
		w.origin_x = rootn->extents.x;
		w.origin_y = rootn->extents.y;
		w.have_origin = 1;
		if (!tree->has_window_frame) {
			tree->window_frame = rootn->extents;
			tree->has_window_frame = 1;
		}
	}

	/* pass 1 + 2 */
	top = proto_new(&w, NULL);
	if (!top)
		goto oom;
	build_children(&w, rootn, top, 0);
	merge_and_fold(&w, top);
	for (size_t i = 0; i < n_popups; i++) {
		const struct cua_raw_node *pn = snap->app->children[popups[i]];

		popup_tops[i] = proto_new(&w, NULL);
		if (!popup_tops[i])
			goto oom;
		/* a WINDOW wrapper around a single menu/list is eliminated */
		if (pn->role == CUA_ROLE_WINDOW && pn->n_children == 1 &&
		    pn->children[0] &&
		    (pn->children[0]->role == CUA_ROLE_MENU ||
		     pn->children[0]->role == CUA_ROLE_POPUP_MENU ||
		     pn->children[0]->role == CUA_ROLE_LIST ||
		     pn->children[0]->role == CUA_ROLE_LIST_BOX ||
		     pn->children[0]->role == CUA_ROLE_TOOL_TIP)) {
			const struct cua_raw_node *saved = w.root;

			w.root = pn->children[0];
			build_children(&w, pn->children[0], popup_tops[i], 1);
			w.root = saved;
		} else {
			const struct cua_raw_node *saved = w.root;

			w.root = pn;
			build_children(&w, pn, popup_tops[i], 0);
			w.root = saved;
		}
		merge_and_fold(&w, popup_tops[i]);
		for (size_t k = 0; k < popup_tops[i]->n_kids; k++)
			popup_tops[i]->kids[k]->flags |= P_POPUP;
	}
	if (w.failed)
		goto oom;

	/* pass 3 */
	total_cap = (size_t)opt->max_elements;
	popup_reserve = n_popups ? (size_t)opt->max_popup_share : 0;
	if (popup_reserve > total_cap / 2)
		popup_reserve = total_cap / 2;
	w.cap = total_cap - popup_reserve;
	for (size_t i = 0; i < top->n_kids; i++)
		if (emit(&w, top->kids[i], 0, -1) < 0)
			break;
	part_markers(&w);
	w.cap = total_cap;
	for (size_t i = 0; i < n_popups; i++) {
		for (size_t k = 0; k < popup_tops[i]->n_kids; k++)
			if (emit(&w, popup_tops[i]->kids[k], 0, -1) < 0)
				break;
		part_markers(&w);
	}
	if (snap->stats.deadline_hit) {
		add_marker(&w, "(tree truncated: the app was too slow to read)");
	}
	if (w.failed)
		goto oom;
	tree->n_lines = w.n_els;

	/* the focused element: rendered, or pruned (docs/differences.md D26) */
	if (w.focused) {
		for (size_t i = 0; i < w.n_els; i++)
			if (w.el_proto[i]->raw == w.focused) {
				focus_el = (int32_t)i;
				break;
			}
		if (focus_el < 0 && !(w.focused->role == CUA_ROLE_APPLICATION)) {
			/* is it inside the rendered windows at all? */
			const struct cua_raw_node *a = w.focused;
			int inside = 0;

			for (; a; a = a->parent) {
				if (a == rootn)
					inside = 1;
				for (size_t i = 0; i < n_popups; i++)
					if (a == snap->app->children[popups[i]])
						inside = 1;
			}
			if (inside) {
				struct proto *fp = proto_new(&w, w.focused);
				struct cua_element *e;

				if (!fp)
					goto oom;
				e = el_new(&w, fp);
				if (!e)
					goto oom;
				fill_element(&w, e, fp);
				e->flags |= CUA_ELEM_FOCUS_ONLY;
				focus_el = (int32_t)e->index;
			}
		}
	}

	/* skeleton: the root window and the popups */
	if (skel_build_window(&sb, rootn, root) < 0)
		goto oom;
	for (size_t i = 0; i < n_popups; i++)
		if (skel_build_window(&sb, snap->app->children[popups[i]],
				      popups[i]) < 0)
			goto oom;

	/* finalise elements: children arrays, skeleton links, paths */
	tree->elements = cua_arena_alloc(tree->arena,
					 (w.n_els ? w.n_els : 1) * sizeof(*tree->elements));
	tree->skel = cua_arena_alloc(tree->arena,
				     (sb.n ? sb.n : 1) * sizeof(*tree->skel));
	if (!tree->elements || !tree->skel)
		goto oom;
	memcpy(tree->skel, sb.skel, sb.n * sizeof(*sb.skel));
	tree->n_skel = sb.n;
	skel_mark_pins(tree);
	for (size_t i = 0; i < w.n_els; i++) {
		struct cua_element *e = &w.els[i];
		const struct proto *p = w.el_proto[i];
		const struct cua_raw_node *rn = p->raw;

		if (!rn && p->n_cells)
			rn = p->cells[0]; /* a synthetic row: its first cell */
		if (rn) {
			int32_t s = skel_find(&sb, rn);

			e->skel = s;
			if (s >= 0 && p->raw)
				tree->skel[s].element = (int32_t)i;
		}
	}
	/* children: count, then fill */
	for (size_t i = 0; i < w.n_els; i++)
		if (w.els[i].parent >= 0)
			w.els[w.els[i].parent].n_children++;
	for (size_t i = 0; i < w.n_els; i++) {
		struct cua_element *e = &w.els[i];

		if (e->n_children) {
			e->children = cua_arena_alloc(tree->arena,
						      e->n_children * sizeof(uint32_t));
			if (!e->children)
				goto oom;
			e->n_children = 0;
		}
	}
	for (size_t i = 0; i < w.n_els; i++)
		if (w.els[i].parent >= 0 && !(w.els[i].flags & CUA_ELEM_FOCUS_ONLY)) {
			struct cua_element *pe = &w.els[w.els[i].parent];

			pe->children[pe->n_children++] = (uint32_t)i;
		}
	memcpy(tree->elements, w.els, w.n_els * sizeof(*w.els));
	tree->n_elements = w.n_els;
	for (size_t i = 0; i < tree->n_elements; i++) {
		struct cua_element *e = &tree->elements[i];
		uint32_t depth = 0, *path;
		int32_t s = e->skel;

		e->tree = tree;
		if (s < 0)
			continue;
		for (int32_t k = s; tree->skel[k].parent >= 0; k = tree->skel[k].parent)
			depth++;
		path = cua_arena_alloc(tree->arena, (depth ? depth : 1) * sizeof(*path));
		if (!path)
			goto oom;
		e->path_len = depth;
		for (int32_t k = s; tree->skel[k].parent >= 0; k = tree->skel[k].parent)
			path[--depth] = tree->skel[k].index;
		e->path = path;
	}
	tree->focused = focus_el;

	/* selected text of the focused element
	 * (docs/state-text.md §8.2, §11.7) */
	if (focus_el >= 0 && w.focused &&
	    (w.focused->have & CUA_HAVE_TEXT_SELECTION) &&
	    w.focused->sel_start >= 0 &&
	    w.focused->sel_end > w.focused->sel_start && w.focused->text &&
	    !is_secure(w.focused)) {
		const char *s = w.focused->text;
		size_t b = cua_utf8_offset(s, (size_t)w.focused->sel_start);
		size_t end = cua_utf8_offset(s, (size_t)w.focused->sel_end);

		if (end > b) {
			char *raw = cua_arena_strndup(w.tmp, s + b, end - b);

			tree->selected_text = san(&w, raw);
			if (!*tree->selected_text)
				tree->selected_text = NULL;
		}
	}

	tree->stats.raw_nodes = (int64_t)snap->stats.nodes;
	tree->stats.calls = (int64_t)snap->stats.calls;
	tree->stats.call_errors = (int64_t)snap->stats.call_errors;
	tree->stats.walk_us = (int64_t)snap->stats.elapsed_us;
	if (tree->window_title == NULL) {
		const char *t = rootn->name;

		if (!nonempty(t) && snap->windows)
			t = snap->windows[root].x11_title;
		tree->window_title = san(&w, t);
	}
	if (w.failed)
		goto oom;
	goto out;
oom:
	r = cua_error(CUA_ERROR_NOMEM, "out of memory while building the tree");
out:
	free(w.els);
	free(w.el_proto);
	cua_hmap_clear(&w.seen);
	cua_hmap_clear(&sb.index);
	free(sb.skel);
	free(sb.raw);
	cua_arena_free(w.tmp);
	return r;
}
