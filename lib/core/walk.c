/*
 * Walk policy: raw nodes → rendered elements (docs/state-text.md §9, §11);
 * this file holds passes 1 and 2, walk_emit.c pass 3 and the entry point,
 * walk_actions.c the actions, walk_policy.c the fetch policy and the
 * window choice.
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

#include "render.h"
#include "sanitize.h"
#include "utf8.h"
#include "walk_int.h"

/* ------------------------------------------------------------------ */
/* Classification                                                      */

/*
 * Does the node have an action that makes it interactive? A context-menu
 * verb or doDefault alone does not (Chromium gives both to every text run
 * and wrapper), nor does focus/scroll plumbing or GTK 4's GAction muxer.
 */
int
cua_walk_has_actions(const struct cua_raw_node *n)
{
	char norm[64];

	for (size_t i = 0; i < n->n_actions; i++) {
		const char *a = n->actions[i].name;

		if (cua_action_name_is_junk(a, n->actions[i].description) ||
		    cua_action_is_gaction(a))
			continue;
		cua_action_normalise(norm, sizeof(norm), a);
		/* Chromium gives doDefault to every node and click-ancestor
		 * to text inside links: neither makes a node interactive */
		if (strcmp(norm, "dodefault") == 0 ||
		    strcmp(norm, "clickancestor") == 0)
			continue;
		if (!cua_action_is_menu(norm) && !cua_action_is_hidden(norm))
			return 1;
	}
	return 0;
}

static int
is_pure_text_node(const struct cua_raw_node *n)
{
	const struct cua_role_info *ri = cua_role_info(n->role);

	if (!(ri->flags & CUA_RF_TEXT))
		return 0;
	if (cua_walk_has_actions(n))
		return 0;
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSABLE) ||
	    CUA_HAS_STATE(n, CUA_STATE_SELECTABLE) ||
	    CUA_HAS_STATE(n, CUA_STATE_EDITABLE))
		return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Pass 1: the proto tree                                               */

struct proto *
cua_walk_proto_new(struct walk *w, const struct cua_raw_node *raw)
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
void
cua_walk_plain_text(const struct cua_raw_node *n, struct strbuf *sb, int depth)
{
	if (depth > 16)
		return;
	if (n->role == CUA_ROLE_LINK) {
		struct strbuf t = STRBUF_INIT;
		const char *uri = n->link_uri;

		cua_walk_link_text(n, &t);
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
					cua_walk_plain_text(c, sb, depth + 1);
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
		cua_walk_plain_text(n->children[i], sb, depth + 1);
		if (sb->len == before + 1)
			sb->s[--sb->len] = '\0';
	}
}

/* The text of a link: its name, else its content. */
const char *
cua_walk_link_text(const struct cua_raw_node *n, struct strbuf *sb)
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
		cua_walk_plain_text(n->children[i], sb, 1);
	}
	return sb_str(sb);
}

/* The name of the first selected item in a combo box's list. */
const char *
cua_walk_selected_name(const struct cua_raw_node *n, int depth)
{
	if (depth > 2)
		return NULL;
	for (size_t i = 0; i < n->n_children; i++) {
		const struct cua_raw_node *c = n->children[i];
		const char *r;

		if (!c)
			continue;
		if (depth > 0 || c->role != CUA_ROLE_TEXT) {
			if (CUA_HAS_STATE(c, CUA_STATE_SELECTED) &&
			    nonempty(c->name))
				return c->name;
		}
		r = cua_walk_selected_name(c, depth + 1);
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

	if (nonempty(node_name(w, n)) || nonempty(n->description) ||
	    nonempty(n->help) || nonempty(n->labelled_by))
		return 1;
	if (id && nonempty(id) && !cua_raw_is_generated_id(id))
		return 1;
	if ((n->have & CUA_HAVE_VALUE) && n->value_max > n->value_min &&
	    !cua_walk_value_is_state(n))
		return 1;
	if (cua_walk_has_actions(n))
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
		if (a->role == CUA_ROLE_SCROLL_PANE ||
		    a->role == CUA_ROLE_VIEWPORT || a == container) {
			if (cua_raw_has_area(a) && a->role != CUA_ROLE_TABLE &&
			    a->role != CUA_ROLE_TREE_TABLE &&
			    a->role != CUA_ROLE_TREE &&
			    a->role != CUA_ROLE_LIST &&
			    a->role != CUA_ROLE_LIST_BOX)
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
			cua_walk_build_children(w, c, container, raw_depth + 1),
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
			row = cua_walk_proto_new(w, NULL);
			if (!row)
				return;
			row->flags |= P_SYNTH_ROW;
			row->row_index = cur_row;
			row->cells = cua_arena_alloc(w->tmp,
						     n * sizeof(*row->cells));
			proto_add(w, container, row);
		} else if (!row) {
			continue;
		}
		if (row && row->cells) {
			struct proto *cell;

			row->cells[row->n_cells++] = c;
			if (!is_visible(c, w->vis) || is_empty_sheet_cell(c))
				continue;
			cell = cua_walk_proto_new(w, c);
			proto_add(w, row, cell);
			if (cell && c->n_children)
				cua_walk_build_children(w, c, cell,
							raw_depth + 1);
		}
	}
	/* only a range may have been read: the total comes from the table's
	 * row count, else from the child count and the cells per row */
	if (raw->table_nrows > 0 && (uint32_t)raw->table_nrows > total_rows) {
		total_rows = (uint32_t)raw->table_nrows;
	} else if (raw->children_partial && raw->child_count > 0 && emitted) {
		size_t cells = 0, headers = 0;

		for (size_t i = 0; i < n; i++)
			if (raw->children[i] &&
			    raw->children[i]->table_row >= 0)
				cells++;
			else if (raw->children[i])
				headers++;
		if (cells && (uint32_t)raw->child_count > headers) {
			size_t per_row = (cells + total_rows - 1) / total_rows;
			uint32_t est = (uint32_t)(((size_t)raw->child_count -
						   headers) /
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
				cua_walk_build_children(w, c, container,
							raw_depth + 1);
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
		cua_walk_build_children(w, c, container, raw_depth + 1);
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

/* The focused node is `n` or inside it. */
static int
contains_focus(const struct walk *w, const struct cua_raw_node *n)
{
	for (const struct cua_raw_node *f = w->focused; f; f = f->parent)
		if (f == n)
			return 1;
	return 0;
}

/* Adds the node (or, if eliminated, its children) under `parent`. */
void
cua_walk_build_children(struct walk *w, const struct cua_raw_node *raw,
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
	if (raw != w->root && is_background_document(raw) &&
	    !contains_focus(w, raw))
		return;
	if (raw != w->root && is_sizeless_menu_bar(raw))
		return;
	if (is_empty_sheet_cell(raw))
		return;
	/* a separator is rendered only as a draggable divider: one with a
	 * Value that is a position, not an item's state */
	if (raw->role == CUA_ROLE_SEPARATOR &&
	    (!(raw->ifaces & CUA_IFACE_VALUE) || cua_walk_value_is_state(raw)))
		return;
	if (!seen_add(w, raw))
		return;

	if (((ri->flags & CUA_RF_ELIDE) && !carries_something(w, raw)) ||
	    ((ri->flags & CUA_RF_IMAGE) && !nonempty(raw->name) &&
	     !nonempty(raw->description) && !cua_walk_has_actions(raw))) {
		if ((ri->flags & CUA_RF_ELIDE) && has_own_text(raw)) {
			/* web text container: render as text */
			p = cua_walk_proto_new(w, raw);
			if (!p)
				return;
			p->flags |= P_AS_TEXT;
			proto_add(w, parent, p);
			goto embedded;
		}
		for (size_t i = 0; i < raw->n_children; i++)
			cua_walk_build_children(w, raw->children[i], parent,
						raw_depth + 1);
		return;
	}
	/* disabled elements that carry nothing else are pruned */
	if (!(ri->flags & CUA_RF_TOPLEVEL) && is_disabled(w, raw) &&
	    (ri->flags & CUA_RF_INTERACTIVE) && !nonempty(raw->name) &&
	    !nonempty(raw->description) && !has_real_text(raw->text) &&
	    !(raw->have & CUA_HAVE_VALUE) &&
	    !((raw->ifaces & CUA_IFACE_VALUE) &&
	      cua_walk_value_is_state(raw)) &&
	    raw->n_children == 0 && !cua_raw_is_toggle_role(raw->role))
		return;

	p = cua_walk_proto_new(w, raw);
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

			if (c &&
			    (cua_role_info(c->role)->flags & CUA_RF_TEXT_ENTRY))
				cua_walk_build_children(w, c, p, raw_depth + 1);
		}
		return;
	}
	if (ri->flags & CUA_RF_ROWS) {
		build_rows(w, raw, p, raw_depth);
		return;
	}
	/* GTK 4's scroll bar has no value of its own: its range child, a
	 * filler, has it; the value is the scroll bar's (walk_emit.c) and
	 * the child is not a line of its own */
	if (raw->role == CUA_ROLE_SCROLL_BAR &&
	    !(raw->ifaces & CUA_IFACE_VALUE))
		return;
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
				struct proto *l = cua_walk_proto_new(w, c);

				if (!l)
					return;
				if (!seen_add(w, c))
					continue;
				l->flags |= P_LINK_COMPACT;
				proto_add(w, p, l);
			} else if (!is_pure_text_node(c) &&
				   !((cua_role_info(c->role)->flags &
				      CUA_RF_ELIDE) &&
				     !carries_something(w, c))) {
				cua_walk_build_children(w, c, p, raw_depth + 1);
			}
		}
		p->flags |= P_AS_TEXT;
		return;
	}
	for (size_t i = 0; i < raw->n_children; i++)
		cua_walk_build_children(w, raw->children[i], p, raw_depth + 1);
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
		cua_walk_plain_text(p->raw, &sb, 0);
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

void
cua_walk_merge_and_fold(struct walk *w, struct proto *p)
{
	size_t out = 0;

	for (size_t i = 0; i < p->n_kids; i++)
		cua_walk_merge_and_fold(w, p->kids[i]);

	/* text without text says nothing */
	for (size_t i = 0; i < p->n_kids; i++) {
		struct proto *k = p->kids[i];

		if (k->raw && !k->n_kids && !(k->flags & P_LINK_COMPACT) &&
		    (cua_role_info(k->raw->role)->flags & CUA_RF_TEXT) &&
		    !cua_walk_has_actions(k->raw) &&
		    !CUA_HAS_STATE(k->raw, CUA_STATE_FOCUSED) &&
		    !nonempty(proto_plain(w, k)))
			k->flags |= P_EMPTY;
		/* a sheet's row of empty cells (docs/state-text.md
		 * §11.5.3) */
		if ((k->flags & P_SYNTH_ROW) && !k->n_kids && k->n_cells) {
			size_t e = 0;

			while (e < k->n_cells &&
			       is_empty_sheet_cell(k->cells[e]))
				e++;
			if (e == k->n_cells)
				k->flags |= P_EMPTY;
		}
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

			/* a cell with a Value (a spreadsheet's: its name is
			 * its address) is not pure text */
			if (c->n_kids || !c->raw ||
			    cua_walk_has_actions(c->raw) ||
			    (c->raw->ifaces &
			     (CUA_IFACE_EDITABLE_TEXT | CUA_IFACE_VALUE))) {
				ok = 0;
				break;
			}
			t = nonempty(c->raw->name) ? c->raw->name :
						     c->raw->text;
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
