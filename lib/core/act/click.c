/*
 * click by element (docs/actions.md §3): the left single-click ladder, the
 * right click, the middle click and multi-clicks.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "core/roles.h"

#define CLICK_WANT                                                             \
	(CUA_HAVE_EXTENTS | CUA_HAVE_ACTIONS | CUA_HAVE_TEXT_SELECTION)

static int
is_text_entry(const struct cua_raw_node *n)
{
	if (cua_role_info(n->role)->flags & CUA_RF_TEXT_ENTRY)
		return 1;
	if (n->role == CUA_ROLE_COMBO_BOX &&
	    CUA_HAS_STATE(n, CUA_STATE_EDITABLE))
		return 1;
	if (n->role == CUA_ROLE_ENTRY || n->role == CUA_ROLE_PASSWORD_TEXT)
		return 1;
	return (n->ifaces & CUA_IFACE_EDITABLE_TEXT) &&
	       CUA_HAS_STATE(n, CUA_STATE_EDITABLE) &&
	       (n->role == CUA_ROLE_TEXT || n->role == CUA_ROLE_PARAGRAPH);
}

static int
is_menu_item(const struct cua_located *loc)
{
	const struct cua_raw_node *n = loc->node;

	return (cua_role_info(n->role)->flags & CUA_RF_MENU_ITEM) ||
	       (loc->element &&
		(loc->element->flags &
		 (CUA_ELEM_MENU_BAR_ITEM | CUA_ELEM_POPUP)) &&
		(n->role == CUA_ROLE_MENU_ITEM ||
		 n->role == CUA_ROLE_CHECK_MENU_ITEM ||
		 n->role == CUA_ROLE_RADIO_MENU_ITEM ||
		 n->role == CUA_ROLE_MENU));
}

static int
is_row_like(const struct cua_located *loc)
{
	const struct cua_raw_node *n = loc->node;

	if (loc->element && (loc->element->flags & CUA_ELEM_SYNTHETIC_ROW))
		return 1;
	switch (n->role) {
	case CUA_ROLE_LIST_ITEM:
	case CUA_ROLE_TABLE_ROW:
	case CUA_ROLE_TREE_ITEM:
	case CUA_ROLE_TABLE_CELL:
	case CUA_ROLE_PAGE_TAB:
		return 1;
	default:
		return 0;
	}
}

static int
is_window_role(uint32_t role)
{
	return role == CUA_ROLE_FRAME || role == CUA_ROLE_WINDOW ||
	       role == CUA_ROLE_DIALOG || role == CUA_ROLE_ALERT;
}

/* docs/actions.md §3.1: a focus change that selected the whole text is
 * collapsed to a caret at the end. */
static void
collapse_select_all(struct cua_act *a, struct cua_located *loc,
		    struct cua_raw_node *n, int had_sel, int32_t old_a,
		    int32_t old_b)
{
	struct cua_live_call c = { .op = CUA_LIVE_GET_SELECTION,
				   .ident = n->ident };
	struct cua_live_call t = { .op = CUA_LIVE_GET_TEXT, .ident = n->ident };
	int ok;

	if (!(n->ifaces & CUA_IFACE_TEXT))
		return;
	if (act_live(a, &c) != CUA_OK || act_live(a, &t) != CUA_OK) {
		act_call_clear(&c);
		act_call_clear(&t);
		return;
	}
	if (c.ret[0] > 0 && t.ret[0] > 0 && MIN(c.ret[1], c.ret[2]) == 0 &&
	    MAX(c.ret[1], c.ret[2]) == t.ret[0] &&
	    !(had_sel && MIN(old_a, old_b) == 0 &&
	      MAX(old_a, old_b) == t.ret[0]))
		act_ask(a, CUA_LIVE_SET_CARET, n->ident, t.ret[0], 0, 0, &ok);
	act_call_clear(&c);
	act_call_clear(&t);
	(void)loc;
}

static cua_result
focus_route(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct cua_raw_node *n = loc->node;
	int had_sel = (n->have & CUA_HAVE_TEXT_SELECTION) && n->sel_start >= 0;
	int32_t sa = n->sel_start, sb = n->sel_end;
	cua_result r;

	*done = 0;
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSED)) {
		cua_act_route(a, "focus");
		*done = 1;
		return CUA_OK;
	}
	r = act_grab_focus(a, loc, n, CUA_HAVE_TEXT_SELECTION);
	if (r != CUA_OK)
		return r;
	if (!CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return CUA_OK;
	collapse_select_all(a, loc, n, had_sel, sa, sb);
	cua_act_route(a, "focus");
	*done = 1;
	return CUA_OK;
}

static cua_result
primary_route(struct cua_act *a, struct cua_located *loc,
	      struct cua_raw_node *n, const char *route, int *done)
{
	const char *raw = NULL;
	int i = act_click_action(n, &raw), ok;
	uint64_t before;
	cua_result r;

	*done = 0;
	cua_debug(&a->s->ctx,
		  "%s: element %u: %s has %zu actions (have 0x%x), "
		  "primary %d",
		  a->tool, a->element, n->ident, n->n_actions, n->have, i);
	if (i < 0)
		return CUA_OK;
	r = act_activation_begin(a, loc, n, &before);
	if (r != CUA_OK)
		return r;
	r = act_do_action(a, n->ident, i, &ok);
	if (r != CUA_OK)
		return r;
	cua_debug(&a->s->ctx, "%s: element %u: %s on %s answered %d", a->tool,
		  a->element, raw, n->ident, ok);
	if (!ok)
		return CUA_OK;
	r = act_activation_end(a, loc, n, raw, before);
	if (r != CUA_OK)
		return r;
	if (route)
		cua_act_route(a, "%s", route);
	else
		cua_act_route(a, "action:%s", raw);
	*done = 1;
	return CUA_OK;
}

static int
contains(const struct cua_rect *r, int32_t x, int32_t y)
{
	return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

static int
meets(const struct cua_rect *a, const struct cua_rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

/*
 * A node inside the clicked element `n` that is shown: VISIBLE; SHOWING
 * too when `n` is (GTK 4 never sets SHOWING; the toolkits that do keep it
 * on what is shown); and, when it has a Component, an extent that meets
 * the element's. A closed popup menu under a Qt menu title, or the items
 * of a closed combo list parked at (0, y), fail this: they are never a
 * click target (docs/actions.md §3 route 4).
 */
static int
shown_inside(const struct cua_raw_node *c, const struct cua_raw_node *n)
{
	if (!CUA_HAS_STATE(c, CUA_STATE_VISIBLE))
		return 0;
	if (CUA_HAS_STATE(n, CUA_STATE_SHOWING) &&
	    !CUA_HAS_STATE(c, CUA_STATE_SHOWING))
		return 0;
	if (!(c->ifaces & CUA_IFACE_COMPONENT))
		return 1;
	return cua_raw_has_extent(c) && meets(&c->extents, &n->extents);
}

/* Route 4: a shown descendant with a primary action (3 levels). */
static cua_result
descendant_route(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct cua_raw_node *n = loc->node, *level[512], *next[512];
	struct cua_raw_node *first = NULL, *hit = NULL;
	size_t nl = 1, nn;
	int32_t cx = n->extents.x + n->extents.w / 2;
	int32_t cy = n->extents.y + n->extents.h / 2;
	cua_result r;

	*done = 0;
	if (!cua_raw_has_extent(n))
		return CUA_OK; /* nothing of it is on screen to press */
	level[0] = n;
	for (int depth = 0; depth < 3 && nl && !hit; depth++) {
		struct cua_raw_node *parents[512];
		size_t np = 0;

		for (size_t i = 0; i < nl; i++)
			if ((level[i]->have & CUA_HAVE_BASIC) &&
			    level[i]->child_count > 0)
				parents[np++] = level[i];
		if (!np)
			break;
		r = a->b->ops->read_children(
			a->b, loc->snap, parents, np, 0, 64,
			CUA_HAVE_EXTENTS | CUA_HAVE_ACTIONS);
		if (r != CUA_OK)
			return r;
		nn = 0;
		for (size_t i = 0; i < np; i++)
			for (size_t k = 0;
			     k < parents[i]->n_children && nn < 512; k++) {
				struct cua_raw_node *c =
					parents[i]->children[k];

				if (!(c->have & CUA_HAVE_BASIC) ||
				    CUA_HAS_STATE(c, CUA_STATE_DEFUNCT) ||
				    !shown_inside(c, n))
					continue;
				next[nn++] = c;
				if (act_click_action(c, NULL) < 0 ||
				    !cua_raw_has_extent(c))
					continue;
				if (!first)
					first = c;
				if (!hit && contains(&c->extents, cx, cy))
					hit = c;
			}
		memcpy(level, next, nn * sizeof(*next));
		nl = nn;
	}
	if (!hit)
		hit = first;
	if (!hit)
		return CUA_OK;
	return primary_route(a, loc, hit, "descendant", done);
}

/* 1 when `x` is `n` or one of its live ancestors. */
static int
in_chain(const struct cua_raw_node *n, const char *ident)
{
	for (; n; n = n->parent)
		if (n->ident && ident && strcmp(n->ident, ident) == 0)
			return 1;
	return 0;
}

/* Route 5: hit test at the element's centre. */
static cua_result
hit_test_route(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct cua_raw_node *n = loc->node, *h;
	char *cur = NULL;
	int32_t cx, cy;
	int related = 0;
	cua_result r = CUA_OK;

	*done = 0;
	if (!loc->window || !cua_raw_has_extent(n))
		return CUA_OK;
	cx = n->extents.x + n->extents.w / 2;
	cy = n->extents.y + n->extents.h / 2;
	cur = strdup(loc->window->ident);
	for (int depth = 0; cur && depth < 64; depth++) {
		char *next = act_ask_ident(a, CUA_LIVE_HIT_TEST, cur, cx, cy);

		if (!next || strcmp(next, cur) == 0) {
			free(next);
			break;
		}
		free(cur);
		cur = next;
	}
	if (!cur || strcmp(cur, loc->window->ident) == 0) {
		free(cur);
		return CUA_OK;
	}
	/* the element, one of its ancestors, or one of its descendants */
	if (in_chain(n, cur)) {
		related = 1;
	} else {
		char *up = strdup(cur);

		for (int depth = 0; up && depth < 64 && !related; depth++) {
			char *next =
				act_ask_ident(a, CUA_LIVE_PARENT, up, 0, 0);

			if (!next)
				break;
			free(up);
			up = next;
			if (strcmp(up, n->ident) == 0)
				related = 1;
			else if (strcmp(up, loc->window->ident) == 0)
				break;
		}
		free(up);
	}
	if (related) {
		h = cua_raw_node_new(loc->snap);
		if (!h) {
			free(cur);
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
		h->ident = cua_arena_strdup(loc->snap->arena, cur);
		r = act_reread(a, loc, h, CUA_HAVE_ACTIONS | CUA_HAVE_EXTENTS);
		if (r == CUA_OK && (h->have & CUA_HAVE_BASIC) &&
		    CUA_HAS_STATE(h, CUA_STATE_VISIBLE) &&
		    (!(h->ifaces & CUA_IFACE_COMPONENT) ||
		     contains(&h->extents, cx, cy)))
			r = primary_route(a, loc, h, "hit-test", done);
	}
	free(cur);
	return r;
}

/* ------------------------------------------------------------------ */
/* Menu titles (docs/actions.md §3.5)                                  */

static const char *const show_menu_verbs[] = {
	"showmenu", "menu", "popup", "showcontextmenu", "contextmenu", NULL,
};

/* A menu title: clicking it shows its menu. A GTK 3 `menu`, an item of a
 * menu bar, an item that owns a menu, or an item whose only way in is a
 * show-menu action (Qt). */
static int
is_menu_title(const struct cua_raw_node *n)
{
	if (n->role == CUA_ROLE_MENU)
		return 1;
	if (n->parent && (n->parent->have & CUA_HAVE_BASIC) &&
	    n->parent->role == CUA_ROLE_MENU_BAR)
		return 1;
	for (size_t i = 0; i < n->n_children; i++)
		if (n->children[i]->role == CUA_ROLE_MENU ||
		    n->children[i]->role == CUA_ROLE_POPUP_MENU)
			return 1;
	return act_click_action(n, NULL) < 0 &&
	       act_find_action(n, show_menu_verbs, NULL) >= 0;
}

/* Its menu is shown: the title is EXPANDED, or a menu or menu item
 * under it is shown with an area (SHOWING, or VISIBLE where the toolkit
 * never sets SHOWING on the title either). */
static cua_result
menu_is_open(struct cua_act *a, struct cua_located *loc, struct cua_raw_node *n,
	     int *open)
{
	cua_result r;

	*open = 0;
	r = act_reread(a, loc, n, CUA_HAVE_EXTENTS);
	if (r != CUA_OK)
		return r;
	if (CUA_HAS_STATE(n, CUA_STATE_EXPANDED)) {
		*open = 1;
		return CUA_OK;
	}
	if (n->child_count <= 0)
		return CUA_OK;
	r = a->b->ops->read_children(a->b, loc->snap, &n, 1, 0, 64,
				     CUA_HAVE_EXTENTS);
	if (r != CUA_OK)
		return r;
	for (size_t i = 0; i < n->n_children && !*open; i++) {
		const struct cua_raw_node *c = n->children[i];

		*open = (c->have & CUA_HAVE_BASIC) &&
			(c->role == CUA_ROLE_MENU ||
			 c->role == CUA_ROLE_POPUP_MENU ||
			 (cua_role_info(c->role)->flags & CUA_RF_MENU_ITEM)) &&
			CUA_HAS_STATE(c, CUA_HAS_STATE(n, CUA_STATE_SHOWING) ?
						 CUA_STATE_SHOWING :
						 CUA_STATE_VISIBLE) &&
			cua_raw_has_area(c);
	}
	return CUA_OK;
}

/*
 * Clicking a menu title shows its menu, and nothing else: the title's
 * click action (GTK 3), its show-menu action (Qt: its only one; what is
 * under the title is the closed menu and is never pressed), or, for a
 * menu-bar title with no action (GTK 4), a synthetic click; then its
 * menu must be shown. A title whose menu is shown already is left so.
 */
static cua_result
menu_title_route(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct cua_raw_node *n = loc->node;
	const char *raw = NULL;
	int i, ok, open;
	int64_t t0;
	cua_result r;

	*done = 0;
	if (n->child_count > 0 && !(n->have & CUA_HAVE_CHILDREN)) {
		r = a->b->ops->read_children(a->b, loc->snap, &n, 1, 0, 64, 0);
		if (r != CUA_OK)
			return r;
	}
	if (!is_menu_title(n))
		return CUA_OK;
	r = menu_is_open(a, loc, n, &open);
	if (r != CUA_OK)
		return r;
	if (open && !act_is_async_toolkit(a->app)) {
		cua_act_route(a, "action:none");
		json_object_set_new(a->outcome, "already", json_true());
		*done = 1;
		return CUA_OK;
	}
	i = act_click_action(n, &raw);
	if (i < 0)
		i = act_find_action(n, show_menu_verbs, &raw);
	if (i >= 0) {
		r = act_do_action(a, n->ident, i, &ok);
		if (r != CUA_OK || !ok)
			return r;
		cua_act_route(a, "action:%s", raw);
	} else if (n->parent && n->parent->role == CUA_ROLE_MENU_BAR &&
		   cua_raw_has_extent(n)) {
		/* a menu bar is part of the window, not a grabbed popup */
		r = act_synthetic_click(a, loc, n, 1, 1);
		if (r != CUA_OK)
			return r;
	} else {
		return CUA_OK;
	}
	*done = 1;
	if (act_is_async_toolkit(a->app))
		return CUA_OK; /* dispatched (docs/actions.md §1.6) */
	for (t0 = cua_now_us();; usleep(10 * 1000)) {
		r = menu_is_open(a, loc, n, &open);
		if (r != CUA_OK || open)
			return r;
		if (cua_now_us() - t0 >= POLL_MAX_US / 2)
			break;
	}
	return cua_err(CUA_MSG_MENU_NOT_OPENED,
		       { "id", CUA_NUM("%u", a->element) },
		       { "role", loc->element->role_text });
}

static cua_result
no_way_to_click(const struct cua_act *a, const struct cua_located *loc)
{
	return cua_err(CUA_MSG_NO_WAY_TO_CLICK,
		       { "id", CUA_NUM("%u", a->element) },
		       { "role", loc->element->role_text });
}

/* Both ENABLED and SENSITIVE missing: disabled in every toolkit's use of
 * them (docs/state-text.md §11.3 decides per toolkit which one counts; each
 * toolkit that sets either drops it on a disabled widget). Only for the
 * elements the state text may mark disabled. */
static int
is_disabled_now(const struct cua_located *loc, const struct cua_raw_node *n)
{
	if (!(n->have & CUA_HAVE_BASIC) ||
	    CUA_HAS_STATE(n, CUA_STATE_ENABLED) ||
	    CUA_HAS_STATE(n, CUA_STATE_SENSITIVE))
		return 0;
	return (cua_role_info(n->role)->flags & CUA_RF_INTERACTIVE) ||
	       n->n_actions > 0 || (loc->element->traits & CUA_TRAIT_SETTABLE);
}

/*
 * A disabled element takes no click: toolkits ignore input to it, and
 * GTK 3 even answers true to its press action and does nothing. Apps often
 * enable an element a moment after the input that makes it valid (a file
 * chooser's Save button once it has looked at the typed folder), so wait
 * for it a while (docs/actions.md §3); still disabled, nothing is sent and
 * the caller is told.
 */
static cua_result
wait_enabled(struct cua_act *a, struct cua_located *loc)
{
	struct cua_raw_node *n = loc->node;
	int64_t t0 = cua_now_us();
	cua_result r;

	while (is_disabled_now(loc, n)) {
		if (cua_now_us() - t0 >= POLL_MAX_US / 2)
			return cua_err(CUA_MSG_ELEMENT_DISABLED,
				       { "id", CUA_NUM("%u", a->element) },
				       { "role", loc->element->role_text });
		usleep(20 * 1000);
		r = act_reread(a, loc, n, CLICK_WANT | CUA_HAVE_BASIC);
		if (r != CUA_OK)
			return r;
		if (!(n->have & CUA_HAVE_BASIC))
			return cua_err(CUA_MSG_INVALID);
	}
	if (cua_now_us() - t0 > 20 * 1000)
		cua_debug(&a->s->ctx,
			  "%s: element %u was enabled after %.0f ms", a->tool,
			  a->element, (cua_now_us() - t0) / 1000.0);
	return CUA_OK;
}

/*
 * Whether route 7 comes first (docs/actions.md §3): asked for
 * (always_simulate_click), or LibreOffice, which runs a button's handler
 * inside its press action: a handler that opens a modal dialog runs the
 * dialog's loop there, and keys into that dialog would deadlock the app's
 * accessibility bridge (they are refused meanwhile); its dialogs are
 * typed into. Through the pointer, keys are safe.
 */
static int
pointer_first(const struct cua_act *a)
{
	return a->s->ctx.opt.always_simulate_click ||
	       cua_app_is_libreoffice(a->app);
}

/* The left single-click ladder (docs/actions.md §3 routes 1–7). */
static cua_result
click_ladder(struct cua_act *a, struct cua_located *loc)
{
	struct cua_raw_node *n = loc->node;
	int done = 0, menu = is_menu_item(loc), confirmed;
	/* the window itself: a click brings it to the front; what lies at
	 * its centre or under it is not what was clicked */
	int root = is_window_role(n->role) && loc->node == loc->window;
	cua_result r, synth = CUA_OK;

	if (pointer_first(a) && !menu && !root) {
		synth = act_synthetic_click(a, loc, n, 1, 1);
		if (synth == CUA_OK)
			return CUA_OK;
	}
	if (menu) {
		r = menu_title_route(a, loc, &done);
		if (r != CUA_OK || done)
			return r;
	}
	if (!menu && is_row_like(loc)) {
		r = act_select_row(a, loc, &done);
		if (r != CUA_OK || done)
			return r;
	}
	if (!menu && is_text_entry(n)) {
		r = focus_route(a, loc, &done);
		if (r != CUA_OK || done)
			return r;
		return act_synthetic_click(a, loc, n, 1, 1);
	}
	r = primary_route(a, loc, n, NULL, &done);
	if (r != CUA_OK || done)
		return r;
	if (!menu && !root) {
		/* a menu item's descendants are its closed menu */
		r = descendant_route(a, loc, &done);
		if (r != CUA_OK || done)
			return r;
	}
	if (!root) {
		r = hit_test_route(a, loc, &done);
		if (r != CUA_OK || done)
			return r;
	}
	if (root) {
		r = CUA_ERROR_UNSUPPORTED;
		if (loc->x11_window && a->b->ops->activate_window)
			r = a->b->ops->activate_window(
				a->b, loc->x11_window,
				a->s->ctx.opt.focus_timeout_ms, &confirmed);
		if (r != CUA_OK || !confirmed)
			return cua_err(CUA_MSG_NOT_RAISED,
				       { "name", cua_act_app_name(a) });
		cua_act_route(a, "activate-window");
		return CUA_OK;
	}
	if (menu)
		return no_way_to_click(a, loc);
	if (pointer_first(a) && synth != CUA_OK)
		return synth;
	if (!cua_raw_has_extent(n))
		return no_way_to_click(a, loc);
	return act_synthetic_click(a, loc, n, 1, 1);
}

static cua_result
right_click(struct cua_act *a, struct cua_located *loc)
{
	static const char *const menu_verbs[] = {
		"showcontextmenu", "showmenu",    "menu",
		"popup",           "contextmenu", NULL,
	};
	struct cua_raw_node *n = loc->node;
	const char *raw = NULL;
	int i = act_find_action(n, menu_verbs, &raw), ok;
	cua_result r;

	if (i >= 0) {
		r = act_do_action(a, n->ident, i, &ok);
		if (r != CUA_OK)
			return r;
		if (ok) {
			cua_act_route(a, "action:%s", raw);
			return CUA_OK;
		}
	}
	if (!is_menu_item(loc) && cua_raw_has_extent(n)) {
		r = act_synthetic_click(a, loc, n, 3, 1);
		if (r == CUA_OK || r == CUA_ERROR_TIMEOUT ||
		    r == CUA_ERROR_PERMISSION)
			return r;
	}
	/* the keyboard: focus it, then the Menu key */
	r = act_grab_focus(a, loc, n, 0);
	if (r != CUA_OK)
		return r;
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSED) && a->b->ops->keys) {
		struct cua_key_chord menu_key;

		memset(&menu_key, 0, sizeof(menu_key));
		menu_key.keysym = CUA_KEYSYM_MENU;
		r = act_keyboard_ready(a, loc->x11_window, -1);
		if (r != CUA_OK)
			return r;
		r = a->b->ops->keys(a->b, &menu_key, 1,
				    a->s->ctx.opt.keymap_delay_ms,
				    a->app->bus_name, NULL);
		if (r == CUA_OK)
			cua_act_route(a, "menu-key");
		return r;
	}
	return cua_err(CUA_MSG_NO_CONTEXT_MENU,
		       { "id", CUA_NUM("%u", a->element) },
		       { "role", loc->element->role_text });
}

cua_result
act_check_button(uint32_t button, uint32_t count, const char *tool)
{
	if (button < 1 || button > 3)
		return cua_err(CUA_MSG_BAD_BUTTON,
			       { "button", CUA_NUM("%u", button) });
	if (count < 1 || count > 100)
		return cua_err(CUA_MSG_BAD_CLICK_COUNT, { "tool", tool });
	return CUA_OK;
}

cua_result
cua_do_click(struct cua_session *s, const char *app, uint32_t id,
	     uint32_t button, uint32_t count, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	cua_result r;

	r = act_check_button(button, count, "click");
	if (r != CUA_OK)
		return r;
	r = cua_act_begin(&a, s, "click", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CLICK_WANT, &loc);
	if (r != CUA_OK) {
		cua_located_clear(&loc);
		cua_act_end(&a);
		return r;
	}
	/* the window itself is not a control; other buttons than the left
	 * one open menus and paste, which disabled elements may offer */
	if (button == 1 &&
	    !(is_window_role(loc.node->role) && loc.node == loc.window))
		r = wait_enabled(&a, &loc);
	if (r != CUA_OK) {
		cua_located_clear(&loc);
		return act_finish(&a, r, outcome);
	}
	json_object_set_new(a.outcome, "click_count", json_integer(count));
	json_object_set_new(a.outcome, "mouse_button",
			    json_string(button == 1 ? "left" :
					button == 2 ? "middle" :
						      "right"));
	if (button == 3) {
		r = right_click(&a, &loc);
	} else if (button == 2) {
		r = act_synthetic_click(&a, &loc, loc.node, 2, count);
	} else if (count == 1) {
		r = click_ladder(&a, &loc);
	} else {
		/* docs/actions.md §3.3: a real multi-click where the pointer
		 * can reach it */
		r = is_menu_item(&loc) ?
			    CUA_ERROR_INPUT_BLOCKED :
			    act_synthetic_click(&a, &loc, loc.node, 1, count);
		if (r != CUA_OK && r != CUA_ERROR_TIMEOUT &&
		    r != CUA_ERROR_PERMISSION) {
			const char *const act_verb[] = { "activate", NULL };
			const char *raw = NULL;
			int i = act_find_action(loc.node, act_verb, &raw), ok;

			if (count == 2 && is_row_like(&loc) && i >= 0) {
				r = act_do_action(&a, loc.node->ident, i, &ok);
				if (r == CUA_OK && !ok)
					r = no_way_to_click(&a, &loc);
				if (r == CUA_OK)
					cua_act_route(&a, "action:%s", raw);
			} else {
				r = CUA_OK;
				for (uint32_t k = 0; k < count && r == CUA_OK;
				     k++) {
					if (k) {
						r = act_reread(&a, &loc,
							       loc.node,
							       CLICK_WANT);
						if (r != CUA_OK)
							break;
					}
					r = click_ladder(&a, &loc);
				}
			}
		}
	}
	cua_located_clear(&loc);
	return act_finish(&a, r, outcome);
}
