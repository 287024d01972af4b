/*
 * Route 1 of the click ladder (docs/actions.md §3): a click on a row, a list or
 * tree item, a cell (also a cell inside a cell) or a tab leaves exactly
 * that row selected, as a person's click does. The container is the
 * nearest ancestor with the Table or Selection interface; what it reports
 * as MULTISELECTABLE does not matter (GTK 3's tree view is multi-select
 * without saying so): the row is selected, the others are deselected,
 * and the result is checked. A row's `activate` is never used here: it is
 * the double click (docs/actions.md §3.3).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common.h"

struct row_unit {
	struct cua_raw_node *unit; /* the container's child */
	struct cua_raw_node *container;
	int32_t row; /* Table row, -1 when none */
	int table;   /* select through Table */
};

static int
has_iface(const struct cua_raw_node *n, uint32_t iface)
{
	return n && (n->have & CUA_HAVE_BASIC) && (n->ifaces & iface);
}

/* The container and the unit of the clicked element (0: none). */
static cua_result
find_unit(struct cua_act *a, struct cua_located *loc, struct row_unit *u,
	  int *found)
{
	struct cua_raw_node *cur = loc->node;

	*found = 0;
	memset(u, 0, sizeof(*u));
	u->row = -1;
	if (loc->element && (loc->element->flags & CUA_ELEM_SYNTHETIC_ROW)) {
		/* a row the walk made of a table's cells (the node is its
		 * first cell) */
		if (!has_iface(cur->parent, CUA_IFACE_TABLE))
			return CUA_OK;
		u->unit = cur;
		u->container = cur->parent;
		u->row = (int32_t)loc->element->row_index;
		u->table = 1;
		*found = 1;
		return CUA_OK;
	}
	if (!act_is_row_role(cur->role) && cur->role != CUA_ROLE_PAGE_TAB)
		return CUA_OK;
	for (int depth = 0; depth < 4 && cur->parent; depth++) {
		struct cua_raw_node *p = cur->parent;

		if (!(p->have & CUA_HAVE_BASIC))
			return CUA_OK;
		if (p->ifaces & (CUA_IFACE_TABLE | CUA_IFACE_SELECTION)) {
			u->unit = cur;
			u->container = p;
			break;
		}
		if (!act_is_row_role(p->role))
			return CUA_OK;
		cur = p;
	}
	if (!u->container)
		return CUA_OK;
	if (has_iface(u->container, CUA_IFACE_TABLE)) {
		struct cua_live_call c = { .op = CUA_LIVE_ROW_AT_INDEX,
					   .ident = u->container->ident,
					   .a = u->unit->index_in_parent };
		int ok;
		cua_result r = act_ask_call(a, &c, &ok);

		act_call_clear(&c);
		if (r != CUA_OK)
			return r;
		if (ok) {
			u->row = c.ret[0];
			u->table = 1;
		}
	}
	*found = u->table || has_iface(u->container, CUA_IFACE_SELECTION);
	return CUA_OK;
}

/* The container's selected rows; *n = -1 when it cannot tell. */
static cua_result
selected_rows(struct cua_act *a, const struct row_unit *u,
	      struct cua_live_call *c, int *ok)
{
	memset(c, 0, sizeof(*c));
	c->op = CUA_LIVE_SELECTED_ROWS;
	c->ident = u->container->ident;
	return act_ask_call(a, c, ok);
}

static int
has_row(const struct cua_live_call *c, int32_t row)
{
	for (size_t i = 0; i < c->n_ret_ints; i++)
		if (c->ret_ints[i] == row)
			return 1;
	return 0;
}

/* Through Table: add the row, remove the others. *exact = 1 when the
 * selection is that row alone afterwards (or, asynchronous toolkits, when
 * every request was dispatched). *applied = 0 when Table refused. */
static cua_result
table_select(struct cua_act *a, const struct row_unit *u, int *applied,
	     int *exact)
{
	struct cua_live_call c;
	int ok, sent;
	cua_result r;

	*applied = *exact = 0;
	r = selected_rows(a, u, &c, &ok);
	if (r != CUA_OK || !ok) {
		act_call_clear(&c);
		return r;
	}
	if (!has_row(&c, u->row)) {
		r = act_ask(a, CUA_LIVE_ADD_ROW_SELECTION, u->container->ident,
			    u->row, 0, 0, &sent);
		if (r != CUA_OK || !sent) {
			act_call_clear(&c);
			return r;
		}
		act_call_clear(&c);
		r = selected_rows(a, u, &c, &ok);
		if (r != CUA_OK) {
			act_call_clear(&c);
			return r;
		}
	}
	*applied = 1;
	for (size_t i = 0; ok && i < c.n_ret_ints && r == CUA_OK; i++)
		if (c.ret_ints[i] != u->row)
			r = act_ask(a, CUA_LIVE_REMOVE_ROW_SELECTION,
				    u->container->ident, c.ret_ints[i], 0, 0,
				    &sent);
	act_call_clear(&c);
	if (r != CUA_OK)
		return r;
	if (act_is_async_toolkit(a->app)) {
		*exact = 1; /* dispatched: the next observation shows it */
		return CUA_OK;
	}
	r = selected_rows(a, u, &c, &ok);
	*exact = r == CUA_OK && ok && c.n_ret_ints == 1 &&
		 c.ret_ints[0] == u->row;
	act_call_clear(&c);
	return r;
}

/* Through Selection: select the child, deselect the others. */
static cua_result
selection_select(struct cua_act *a, struct cua_located *loc,
		 const struct row_unit *u, int *applied, int *exact)
{
	struct cua_live_call c = { .op = CUA_LIVE_SELECTED_COUNT,
				   .ident = u->container->ident };
	int ok, count = -1;
	cua_result r;

	*applied = *exact = 0;
	if (!CUA_HAS_STATE(u->unit, CUA_STATE_SELECTED)) {
		r = act_ask(a, CUA_LIVE_SELECT_CHILD, u->container->ident,
			    u->unit->index_in_parent, 0, 0, &ok);
		if (r != CUA_OK || !ok)
			return r;
	}
	*applied = 1;
	r = act_ask_call(a, &c, &ok);
	if (r != CUA_OK)
		return r;
	if (ok)
		count = c.ret[0];
	act_call_clear(&c);
	/* from the end, so that the indices of the rest stay valid */
	for (int i = count - 1; i >= 0; i--) {
		char *sel = act_ask_ident(a, CUA_LIVE_SELECTED_CHILD,
					  u->container->ident, i, 0);
		int other = sel && strcmp(sel, u->unit->ident) != 0;

		free(sel);
		if (other) {
			r = act_ask(a, CUA_LIVE_DESELECT_SELECTED,
				    u->container->ident, i, 0, 0, &ok);
			if (r != CUA_OK)
				return r;
		}
	}
	if (act_is_async_toolkit(a->app)) {
		*exact = 1;
		return CUA_OK;
	}
	r = act_reread(a, loc, u->unit, 0);
	if (r != CUA_OK || !CUA_HAS_STATE(u->unit, CUA_STATE_SELECTED))
		return r;
	c = (struct cua_live_call){ .op = CUA_LIVE_SELECTED_COUNT,
				    .ident = u->container->ident };
	r = act_ask_call(a, &c, &ok);
	*exact = r == CUA_OK && ok && c.ret[0] == 1;
	act_call_clear(&c);
	return r;
}

cua_result
act_select_row(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct row_unit u;
	int found, applied = 0, exact = 0;
	cua_result r;

	*done = 0;
	r = find_unit(a, loc, &u, &found);
	if (r != CUA_OK || !found)
		return r;
	if (u.table && u.row >= 0)
		r = table_select(a, &u, &applied, &exact);
	if (r == CUA_OK && !applied &&
	    has_iface(u.container, CUA_IFACE_SELECTION))
		r = selection_select(a, loc, &u, &applied, &exact);
	if (r != CUA_OK || !applied)
		return r;
	cua_debug(&a->s->ctx, "%s: element %u: row %d of %s selected%s",
		  a->tool, a->element, u.row, u.container->ident,
		  exact ? " alone" : ", others stayed");
	if (exact) {
		cua_act_route(a, "selection");
		*done = 1;
		return CUA_OK;
	}
	/* the container kept other rows: a person's click leaves one */
	if (!cua_raw_has_extent(loc->node))
		return cua_err(CUA_MSG_ROWS_STAYED_SELECTED,
			       { "id", CUA_NUM("%u", a->element) },
			       { "role", loc->element->role_text });
	*done = 1;
	return act_synthetic_click(a, loc, loc->node, 1, 1);
}
