/*
 * Pass 3 of the walk (walk.c): proto nodes become elements (role text,
 * traits, segments, actions, frames) in depth-first pre-order under the
 * caps; then the skeleton of every fetched raw node is recorded for
 * locators, and cua_walk_build() runs the three passes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "a11y_note.h"
#include "render.h"
#include "sanitize.h"
#include "utf8.h"
#include "walk_int.h"

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

/* The node's text, when it has some, as its value. */
static void
text_value(struct walk *w, struct cua_element *e, const struct cua_raw_node *n)
{
	struct strbuf t = STRBUF_INIT;

	if (!(n->have & CUA_HAVE_TEXT) || !n->text || !*n->text)
		return;
	cua_walk_plain_text(n, &t, 0);
	e->value = san(w, sb_str(&t));
	sb_free(&t);
}

static const char *
url_for(const struct cua_raw_node *n)
{
	const char *u;

	if (n->role != CUA_ROLE_DOCUMENT_WEB &&
	    n->role != CUA_ROLE_DOCUMENT_FRAME)
		return NULL;
	u = cua_raw_attr(n, "DocURL");
	if (!u)
		u = cua_raw_attr(n, "URL");
	if (!u)
		u = cua_raw_attr(n, "docurl");
	return u;
}

/*
 * A table cell with Text and Value shows its text: LibreOffice gives every
 * spreadsheet cell an unbounded Value, 0 for text and empty cells, so the
 * number is what the cell shows only when it holds one.
 */
static int
value_is_cell_text(const struct cua_raw_node *n)
{
	return n->role == CUA_ROLE_TABLE_CELL &&
	       (n->ifaces & CUA_IFACE_VALUE) && (n->ifaces & CUA_IFACE_TEXT) &&
	       (n->have & CUA_HAVE_TEXT);
}

static void
fill_traits(struct walk *w, struct cua_element *e, const struct cua_raw_node *n,
	    int has_actions_any)
{
	uint32_t f = cua_role_info(n->role)->flags;
	uint32_t t = 0;

	if (CUA_HAS_STATE(n, CUA_STATE_SELECTED) && (f & CUA_RF_SELECTABLE))
		t |= CUA_TRAIT_SELECTED;
	else if (CUA_HAS_STATE(n, CUA_STATE_SELECTABLE) &&
		 (f & CUA_RF_SELECTABLE))
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
	    !cua_walk_value_is_state(n) && !value_is_cell_text(n) &&
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
	if (is_disabled(w, n) && ((f & CUA_RF_INTERACTIVE) || has_actions_any ||
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
		    (par->role == CUA_ROLE_MENU ||
		     par->role == CUA_ROLE_POPUP_MENU))
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
	if (n == w->root && !(ri->flags & CUA_RF_TOPLEVEL) && w->snap->windows)
		return w->snap->windows[w->tree->window_index].x11_transient ?
			       "dialog" :
			       "standard window";
	switch (n->role) {
	case CUA_ROLE_LIST_ITEM:
		if (!CUA_HAS_STATE(n, CUA_STATE_SELECTABLE)) {
			for (const struct cua_raw_node *a = par; a;
			     a = a->parent)
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
				e->traits |=
					CUA_HAS_STATE(c0, CUA_STATE_EXPANDED) ?
						CUA_TRAIT_EXPANDED :
						CUA_TRAIT_COLLAPSED;
			for (size_t i = 0; i < p->n_cells; i++) {
				const struct cua_raw_node *c = p->cells[i];

				if (!(c->have & CUA_HAVE_EXTENTS) ||
				    c->extents.w <= 0)
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
					x1 = e->frame.x + e->frame.w >
							     r.x + r.w ?
						     e->frame.x + e->frame.w :
						     r.x + r.w;
					y1 = e->frame.y + e->frame.h >
							     r.y + r.h ?
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
		cua_walk_plain_text(n, &sb, 0);
		title = sb_str(&sb);
	} else if (n->role == CUA_ROLE_LINK) {
		cua_walk_link_text(n, &sb);
		title = sb_str(&sb);
	} else if (nonempty(node_name(w, n))) {
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
		   CUA_HAS_STATE(n, CUA_STATE_CHECKABLE) ||
		   (n->role == CUA_ROLE_TABLE_CELL &&
		    cua_walk_has_action_norm(n, "toggle"))) {
		/* a GTK 3 toggle cell (a check box in a tree view) is a
		 * cell with a toggle action, CHECKED when on and never
		 * CHECKABLE */
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
	} else if (value_is_cell_text(n)) {
		text_value(w, e, n);
	} else if (n->role == CUA_ROLE_HEADING) {
		e->value = san(w, cua_raw_attr(n, "level"));
	} else if (n->role == CUA_ROLE_COMBO_BOX) {
		const char *v = n->selected_child_name;

		if (!nonempty(v))
			v = cua_walk_selected_name(n, 0);

		if (!nonempty(v) && has_real_text(n->text))
			v = n->text;
		if (!nonempty(v))
			v = NULL;
		e->value = san(w, v);
		if (v && strcmp(e->value, e->title) == 0)
			e->title = "";
	} else if (n->role == CUA_ROLE_SCROLL_BAR &&
		   !(n->ifaces & CUA_IFACE_VALUE)) {
		/* GTK 4: the value is on the scroll bar's range child */
		for (size_t i = 0; i < n->n_children; i++) {
			const struct cua_raw_node *c = n->children[i];

			if (c && (c->ifaces & CUA_IFACE_VALUE) &&
			    (c->have & CUA_HAVE_VALUE)) {
				number_value(w, e, c->value);
				break;
			}
		}
	} else if ((n->have & CUA_HAVE_VALUE) &&
		   (n->ifaces & CUA_IFACE_VALUE) &&
		   ((ri->flags & CUA_RF_NUMERIC) ||
		    n->value_max > n->value_min) &&
		   !cua_walk_value_is_state(n)) {
		char buf[64];

		number_value(w, e, n->value);
		cua_format_number(buf, sizeof(buf), n->value);
		if (nonempty(n->value_text) && strcmp(n->value_text, buf) != 0)
			e->details = san(w, n->value_text);
	} else if ((ri->flags & CUA_RF_TEXT_ENTRY) ||
		   ((n->ifaces & CUA_IFACE_EDITABLE_TEXT) &&
		    CUA_HAS_STATE(n, CUA_STATE_EDITABLE))) {
		/* an empty field has no value: its name is not its text
		 * (Chromium and Gecko name a field after its label) */
		text_value(w, e, n);
	}

	/* GTK describes sliders by their value text: not a description */
	if (*e->description && strcmp(e->description, e->value) == 0)
		e->description = "";
	fill_traits(w, e, n, cua_walk_has_actions(n));
	cua_walk_fill_actions(w, e, n, n == w->root);
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
	/* a node read without details (hidden) has neither: unknown */
	s->fp.subrole = cua_raw_attrs_unknown(n) || cua_raw_details_unknown(n) ?
				NULL :
				cua_arena_strdup(a, subrole ? subrole : "");
	s->fp.identifier = cua_raw_details_unknown(n) ?
				   NULL :
				   cua_arena_strdup(a, id ? id : "");
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
			if (skel_push(
				    sb, c, (int32_t)head,
				    (uint32_t)(c->index_in_parent >= 0 ?
						       c->index_in_parent :
						       (int32_t)(n->child_offset +
								 i))) < 0)
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
				struct cua_skel *y =
					&t->skel[p->first_child + b];

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
	struct cua_marker *m =
		cua_arena_alloc(t->arena, (t->n_markers + 1) * sizeof(*m));

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

/*
 * A browser window whose page is one empty document: Chromium and Electron
 * started without renderer accessibility expose the window and an empty
 * document, a tree that looks normal but holds nothing of the page
 * (docs/toolkits.md §1.2). Found by toolkit (the app's toolkit attribute)
 * and by the document: shown, no children at all.
 */
static int
empty_document_in(const struct walk *w, const struct cua_raw_node *n, int depth)
{
	if (!n || depth > 64)
		return 0;
	if ((n->role == CUA_ROLE_DOCUMENT_WEB ||
	     n->role == CUA_ROLE_DOCUMENT_FRAME) &&
	    is_visible(n, w->vis) && n->child_count == 0 &&
	    n->n_children == 0 && !has_real_text(n->text))
		return 1;
	for (size_t i = 0; i < n->n_children; i++)
		if (empty_document_in(w, n->children[i], depth + 1))
			return 1;
	return 0;
}

static int
is_skeleton(const struct walk *w, const struct cua_raw_node *root)
{
	const char *tk = w->tree->toolkit;

	if (!cua_toolkit_is_chromium(tk))
		return 0;
	return empty_document_in(w, root, 0);
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
	w.gtk4 = tree->toolkit && strcasecmp(tree->toolkit, "GTK") == 0 &&
		 tree->toolkit_version && tree->toolkit_version[0] == '4';
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
	top = cua_walk_proto_new(&w, NULL);
	if (!top)
		goto oom;
	cua_walk_build_children(&w, rootn, top, 0);
	cua_walk_merge_and_fold(&w, top);
	for (size_t i = 0; i < n_popups; i++) {
		const struct cua_raw_node *pn = snap->app->children[popups[i]];

		popup_tops[i] = cua_walk_proto_new(&w, NULL);
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
			cua_walk_build_children(&w, pn->children[0],
						popup_tops[i], 1);
			w.root = saved;
		} else {
			const struct cua_raw_node *saved = w.root;

			w.root = pn;
			cua_walk_build_children(&w, pn, popup_tops[i], 0);
			w.root = saved;
		}
		cua_walk_merge_and_fold(&w, popup_tops[i]);
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
		add_marker(&w,
			   "(tree truncated: the app was too slow to read)");
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
		if (focus_el < 0 &&
		    !(w.focused->role == CUA_ROLE_APPLICATION)) {
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
				struct proto *fp =
					cua_walk_proto_new(&w, w.focused);
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
	tree->elements = cua_arena_alloc(
		tree->arena, (w.n_els ? w.n_els : 1) * sizeof(*tree->elements));
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
			e->children = cua_arena_alloc(
				tree->arena, e->n_children * sizeof(uint32_t));
			if (!e->children)
				goto oom;
			e->n_children = 0;
		}
	}
	for (size_t i = 0; i < w.n_els; i++)
		if (w.els[i].parent >= 0 &&
		    !(w.els[i].flags & CUA_ELEM_FOCUS_ONLY)) {
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
		for (int32_t k = s; tree->skel[k].parent >= 0;
		     k = tree->skel[k].parent)
			depth++;
		path = cua_arena_alloc(tree->arena,
				       (depth ? depth : 1) * sizeof(*path));
		if (!path)
			goto oom;
		e->path_len = depth;
		for (int32_t k = s; tree->skel[k].parent >= 0;
		     k = tree->skel[k].parent)
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

	if (is_skeleton(&w, rootn)) {
		char *note = cua_a11y_note(tree->app_name, tree->toolkit,
					   tree->exe, tree->pid);

		tree->a11y_note =
			note ? cua_arena_strdup(tree->arena, note) : NULL;
		if (!tree->a11y_note)
			w.failed = 1;
		free(note);
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
