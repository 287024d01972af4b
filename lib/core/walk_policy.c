/*
 * What the walk reads and from which window (docs/state-text.md §9.1,
 * §9.6, §11.9): how visibility is read per toolkit, the fetch policy, and
 * the choice of the root window and its popups.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "walk_int.h"

/* ------------------------------------------------------------------ */
/* Visibility                                                          */

enum cua_visibility
cua_walk_visibility_for(const char *toolkit, const char *version)
{
	if (toolkit &&
	    (strcasecmp(toolkit, "GTK") == 0 ||
	     strcasecmp(toolkit, "gtk") == 0) &&
	    version && version[0] == '4')
		return CUA_VIS_VISIBLE;
	if (cua_toolkit_is_chromium(toolkit) || cua_toolkit_is_gecko(toolkit))
		return CUA_VIS_VISIBLE;
	return CUA_VIS_SHOWING;
}

/* ------------------------------------------------------------------ */
/* Fetch policy                                                         */

static uint32_t
policy_details(void *ud, const struct cua_raw_node *n, int depth)
{
	struct cua_walk_policy *st = ud;
	const struct cua_role_info *ri = cua_role_info(n->role);
	uint32_t want;

	if (st->want_everything)
		return ~0u;
	/* hidden nodes get no details; live reads of the nodes around an
	 * element leave them out alike (backend.h read_children), so that
	 * their fingerprints still compare */
	if (depth > 0 && !is_visible(n, st->vis) && n != st->root)
		return 0;
	want = CUA_HAVE_ATTRIBUTES | CUA_HAVE_ID | CUA_HAVE_DESCRIPTION |
	       CUA_HAVE_EXTENTS;
	if (n->ifaces & CUA_IFACE_ACTION)
		want |= CUA_HAVE_ACTIONS;
	/* a cell with Text and Value shows its text, not the number
	 * (walk_emit.c) */
	if (n->role == CUA_ROLE_TABLE_CELL && (n->ifaces & CUA_IFACE_VALUE) &&
	    (n->ifaces & CUA_IFACE_TEXT))
		want |= CUA_HAVE_TEXT;
	else if ((n->ifaces & CUA_IFACE_VALUE) && !cua_walk_value_is_state(n))
		/* a button's or a menu's Value (LibreOffice gives its
		 * buttons one) is never rendered: its states say it */
		want |= CUA_HAVE_VALUE;
	if (n->ifaces & CUA_IFACE_TEXT) {
		if ((ri->flags & (CUA_RF_TEXT_ENTRY)) ||
		    n->role == CUA_ROLE_COMBO_BOX || !nonempty(n->name))
			want |= CUA_HAVE_TEXT;
	}
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSED) && (n->ifaces & CUA_IFACE_TEXT))
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

/*
 * A menu of a menu bar or of another menu that is not open: its items are
 * hidden, so none of them is rendered, and reading them was most of the
 * read of an app with a menu bar (LibreOffice Writer: 300 of 557 nodes,
 * 30 hidden items under each of its menus). An open one is SELECTED (GTK 3,
 * LibreOffice), EXPANDED (Gecko) or holds the focus (Qt's menu bars hold
 * menu items, not menus, and are not concerned); but a menu that says
 * whether it is open (EXPANDABLE) is closed when not EXPANDED, focused or
 * not: Gecko's menu keeps the focus after Escape closed it, and its
 * items stay SHOWING. When the menu opens, the tree cache sees the node
 * descended differently and reads afresh (cache_observe.c).
 */
static int
is_closed_submenu(const struct cua_raw_node *n)
{
	if (n->role != CUA_ROLE_MENU || !n->parent ||
	    (n->parent->role != CUA_ROLE_MENU_BAR &&
	     n->parent->role != CUA_ROLE_MENU))
		return 0;
	return !CUA_HAS_STATE(n, CUA_STATE_SELECTED) &&
	       !CUA_HAS_STATE(n, CUA_STATE_EXPANDED) &&
	       !CUA_HAS_STATE(n, CUA_STATE_ARMED) &&
	       (!CUA_HAS_STATE(n, CUA_STATE_FOCUSED) ||
		CUA_HAS_STATE(n, CUA_STATE_EXPANDABLE));
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
	if (!is_visible(n, st->vis) || is_background_document(n))
		return 0;
	/* GTK 4 keeps the pages of a stack VISIBLE when they are not shown;
	 * their geometry says so (no extents): do not read them */
	if (st->prune_hidden_geometry && (n->ifaces & CUA_IFACE_COMPONENT) &&
	    !(n->have & CUA_HAVE_EXTENTS))
		return 0;
	if (is_sizeless_menu_bar(n))
		return 0;
	if (is_closed_submenu(n))
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
	pol->grid_rows = opt->max_rows;
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
	return cua_role_is_popup_toplevel(n->role);
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
