/*
 * Reading raw nodes over AT-SPI2, pipelined (atspi.h, "fetch.c").
 *
 * Every node goes through stages, each one a set of calls that are all in
 * flight together; when the last reply of a stage is in, the node moves
 * on, independently of the other nodes:
 *
 *   BASIC     GetRole, GetState, GetInterfaces, Name
 *   DETAILS   what policy->details() asks for (Description, extents,
 *             attributes, actions, value, text, relations, ...), plus
 *             ChildCount when the node may be descended into
 *   CHILDREN  GetChildren (fast path, used only when its length equals
 *             ChildCount), else GetChildAtIndex for every index; for large
 *             or managed containers only the visible index range, found by
 *             hit-testing the container's inner corners
 *
 * Children start their own BASIC stage as soon as their references are
 * known, so the whole tree is in flight at once, bounded by the batch's
 * cap on calls in flight. The walk stops at the policy's deadline and
 * returns what was read.
 *
 * The same stages serve every read mode (fetch_int.h, enum read_mode):
 * opening an app stops after BASIC (plus extents or ChildCount); a live
 * re-read adds ChildCount to BASIC, then either DETAILS (job->want) or
 * CHILDREN (a range of them, each read as a live node), never deeper.
 * Hidden nodes get no details in any mode: the walk's policy says so,
 * and a live read applies the same visibility rule to the nodes it finds.
 *
 * Only methods libatspi itself uses are called, and properties are read
 * one by one (never Properties.GetAll, which crashes Qt and Chromium).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fetch_int.h"
#include "core/sanitize.h"
#include "core/walk.h"

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

char *
fetch_sdup(struct job *job, const char *s)
{
	char *r = atspi_strdup_capped(job->snap->arena, s); /* 1 MiB */

	if (s && !r)
		job->oom = 1;
	return r;
}

static void *
tmp_alloc(struct job *job, size_t size)
{
	void *p = cua_arena_alloc(job->tmp, size);

	if (!p) {
		job->oom = 1;
		abort(); /* the walk cannot continue without its state */
	}
	return p;
}

const char *
fetch_tmp_strdup(struct job *job, const char *s)
{
	char *r = cua_arena_strdup(job->tmp, s);

	if (!r)
		abort();
	return r;
}

char *
fetch_make_ident(struct job *job, const char *bus, const char *path)
{
	size_t lb = strlen(bus), lp = strlen(path);
	char *s = cua_arena_alloc(job->snap->arena, lb + lp + 2);

	if (!s) {
		job->oom = 1;
		return NULL;
	}
	memcpy(s, bus, lb);
	s[lb] = ':';
	memcpy(s + lb + 1, path, lp + 1);
	return s;
}

/* A node's bus name and path, split out of its identity. */
int
fetch_split_ident(struct job *job, const char *ident, const char **bus,
		  const char **path)
{
	const char *slash = ident ? strchr(ident, '/') : NULL;
	char *b;

	if (!slash || slash == ident || slash[-1] != ':')
		return 0;
	b = (char *)fetch_tmp_strdup(job, ident);
	b[slash - ident - 1] = '\0';
	*bus = b;
	*path = slash;
	return 1;
}

static int
is_list_role(uint32_t role)
{
	return role == CUA_ROLE_TABLE || role == CUA_ROLE_TREE ||
	       role == CUA_ROLE_TREE_TABLE || role == CUA_ROLE_LIST ||
	       role == CUA_ROLE_LIST_BOX;
}

static int
is_text_role(uint32_t role)
{
	return role == CUA_ROLE_LABEL || role == CUA_ROLE_TEXT ||
	       role == CUA_ROLE_STATIC || role == CUA_ROLE_PARAGRAPH ||
	       role == CUA_ROLE_CAPTION || role == CUA_ROLE_HEADING;
}

/* docs/state-text.md §10: extents of (INT32_MIN, INT32_MIN) (hidden GTK menus),
 * or of zero or 1x1 size on a non-text node, are no geometry. */
int
fetch_is_hidden_geometry(const struct cua_raw_node *n)
{
	const struct cua_rect *r = &n->extents;

	if (r->x == INT32_MIN || r->y == INT32_MIN)
		return 1;
	if (is_text_role(n->role) || (n->ifaces & CUA_IFACE_TEXT))
		return 0;
	return r->w <= 0 || r->h <= 0 || (r->w == 1 && r->h == 1);
}

/* ------------------------------------------------------------------ */
/* Issuing calls                                                       */

struct req *
fetch_new_req(struct fnode *fn, enum kind kind, int aux)
{
	struct req *r = tmp_alloc(fn->job, sizeof(*r));

	r->fn = fn;
	r->kind = kind;
	r->aux = aux;
	return r;
}

void
fetch_call_on(struct fnode *fn, struct req *r, const char *bus,
	      const char *path, const char *iface, const char *method,
	      GVariant *args, const char *reply_type)
{
	if (fn->job->hung) {
		if (args)
			g_variant_unref(g_variant_ref_sink(args));
		return;
	}
	fn->pending++;
	dbatch_call(fn->job->batch, bus, path, iface, method, args,
		    G_VARIANT_TYPE(reply_type), fetch_on_reply, r);
}

void
fetch_call(struct fnode *fn, enum kind kind, int aux, const char *iface,
	   const char *method, GVariant *args, const char *reply_type)
{
	fetch_call_on(fn, fetch_new_req(fn, kind, aux), fn->bus, fn->path,
		      iface, method, args, reply_type);
}

void
fetch_get_prop_on(struct fnode *fn, struct req *r, const char *bus,
		  const char *path, const char *iface, const char *prop)
{
	if (fn->job->hung)
		return;
	fn->pending++;
	dbatch_get_property(fn->job->batch, bus, path, iface, prop,
			    fetch_on_reply, r);
}

static void
get_prop(struct fnode *fn, enum kind kind, const char *iface, const char *prop)
{
	fetch_get_prop_on(fn, fetch_new_req(fn, kind, 0), fn->bus, fn->path,
			  iface, prop);
}

/* ------------------------------------------------------------------ */
/* Node creation and the stages                                        */

static uint32_t
coord_type(struct fnode *fn)
{
	return (atspi_caps_of(fn->job->be, fn->bus) & CAP_WINDOW_COORDS) ?
		       COORD_WINDOW :
		       COORD_SCREEN;
}

static int
node_cap_reached(struct job *job)
{
	return job->max_nodes && job->snap->stats.nodes >= job->max_nodes;
}

struct fnode *
fetch_new_fnode(struct job *job, struct cua_raw_node *n, const char *bus,
		const char *path, int depth)
{
	struct fnode *fn = tmp_alloc(job, sizeof(*fn));

	fn->job = job;
	fn->n = n;
	fn->bus = bus;
	fn->path = path;
	fn->depth = depth;
	fn->descend = -1;
	fn->n_sel = -1;
	fn->hit[0] = fn->hit[1] = fn->hit[2] = fn->hit[3] = -1;
	if (n->ident) {
		if (g_hash_table_contains(job->seen, n->ident))
			fn->dup = 1;
		else
			g_hash_table_insert(job->seen, (gpointer)n->ident, fn);
	}
	return fn;
}

/* READ_SWEEP: what the walk asks of a container read by visible range
 * before it chooses the range (start_children()); fetch_advance() then
 * chooses it without reading it. Its parent is the cached one, whose
 * extents clip the rectangle hit-tested, as in the walk. */
static void
start_range_compare(struct fnode *fn)
{
	struct cua_raw_node *n = fn->n;

	fn->ranged = 1;
	fn->range_phase = 1;
	if (n->ifaces & CUA_IFACE_TABLE) {
		get_prop(fn, K_NCOLS, IF_TABLE, "NColumns");
		get_prop(fn, K_TABLE_NROWS, IF_TABLE, "NRows");
	}
	if (n->ifaces & CUA_IFACE_COMPONENT)
		fetch_call(fn, K_EXTENTS, 1, IF_COMPONENT, "GetExtents",
			   g_variant_new("(u)", coord_type(fn)), "((iiii))");
}

/* The node's actions: GetActions, or where its entries are unusable or
 * unsafe (ATSPI_CAP_ACTIONS_BY_INDEX), their count, then each name by
 * GetName(i) (fetch_reply.c). */
static void
fetch_actions(struct fnode *fn)
{
	if (atspi_caps_of(fn->job->be, fn->bus) & ATSPI_CAP_ACTIONS_BY_INDEX)
		get_prop(fn, K_NACTIONS, IF_ACTION, "NActions");
	else
		fetch_call(fn, K_ACTIONS, 0, IF_ACTION, "GetActions", NULL,
			   "(a(sss))");
}

void
fetch_start_basic(struct fnode *fn)
{
	fn->stage = STAGE_BASIC;
	if (fn->job->mode == READ_SWEEP) {
		fetch_call(fn, K_STATE, 0, IF_ACCESSIBLE, "GetState", NULL,
			   "(au)");
		get_prop(fn, K_NAME, IF_ACCESSIBLE, "Name");
		/* the count of children that were read (the caller says
		 * which by a count of 0 rather than -1) */
		if (fn->n->child_count >= 0)
			get_prop(fn, K_CHILD_COUNT, IF_ACCESSIBLE,
				 "ChildCount");
		/* and the value of those whose value was read */
		if (fn->n->ifaces & CUA_IFACE_VALUE) {
			get_prop(fn, K_VAL_CUR, IF_VALUE, "CurrentValue");
			get_prop(fn, K_VAL_MIN, IF_VALUE, "MinimumValue");
			get_prop(fn, K_VAL_MAX, IF_VALUE, "MaximumValue");
		}
		/* and its place among its siblings, when asked (0) */
		if (fn->n->index_in_parent >= 0) {
			fn->n->index_in_parent = -2;
			fetch_call(fn, K_INDEX, 0, IF_ACCESSIBLE,
				   "GetIndexInParent", NULL, "(i)");
		}
		/* and the visible range a walk would read now */
		if (fn->n->sweep_ask & CUA_SWEEP_RANGE)
			start_range_compare(fn);
		/* and its children's identities */
		if (fn->n->sweep_ask & CUA_SWEEP_CHILDREN)
			fetch_call(fn, K_CHILDREN, 0, IF_ACCESSIBLE,
				   "GetChildren", NULL, "(a(so))");
		/* and its description, its actions */
		if (fn->n->sweep_ask & CUA_SWEEP_DESCRIPTION)
			get_prop(fn, K_DESC, IF_ACCESSIBLE, "Description");
		if (fn->n->sweep_ask & CUA_SWEEP_ACTIONS)
			fetch_actions(fn);
		return;
	}
	fetch_call(fn, K_ROLE, 0, IF_ACCESSIBLE, "GetRole", NULL, "(u)");
	fetch_call(fn, K_STATE, 0, IF_ACCESSIBLE, "GetState", NULL, "(au)");
	fetch_call(fn, K_IFACES, 0, IF_ACCESSIBLE, "GetInterfaces", NULL,
		   "(as)");
	get_prop(fn, K_NAME, IF_ACCESSIBLE, "Name");
	if (fn->job->mode == READ_LIVE || fn->job->mode == READ_REFRESH)
		get_prop(fn, K_CHILD_COUNT, IF_ACCESSIBLE, "ChildCount");
	/* a refreshed object (or the root of a subtree read again) may have
	 * moved among its siblings without an event of its parent (GTK 3
	 * reorders a box's children so) */
	if (fn->job->mode == READ_REFRESH ||
	    (fn->job->mode == READ_WALK && fn->named))
		fetch_call(fn, K_INDEX, 0, IF_ACCESSIBLE, "GetIndexInParent",
			   NULL, "(i)");
	if (fn->job->mode == READ_OPEN) {
		/* toplevels: extents too (windows are Components; an
		 * error is harmless); for the app and its toplevels their
		 * ChildCount (a toplevel's own children may change without
		 * an event: the cache compares them) */
		if (fn->depth == 0)
			fetch_call(fn, K_EXTENTS, 0, IF_COMPONENT, "GetExtents",
				   g_variant_new("(u)", coord_type(fn)),
				   "((iiii))");
		get_prop(fn, K_CHILD_COUNT, IF_ACCESSIBLE, "ChildCount");
	}
}

static int
policy_descend(struct fnode *fn)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;

	if (fn->dup || !(n->have & CUA_HAVE_BASIC) ||
	    CUA_HAS_STATE(n, CUA_STATE_DEFUNCT) || fn->depth >= job->max_depth)
		return 0;
	if (!job->pol->descend)
		return 1;
	return job->pol->descend(job->pol->user_data, n, fn->depth) != 0;
}

/* A node a live read found (not one it was asked for) that the walk
 * would not show: it gets no details, as in the walk's policy. */
static int
live_hidden(const struct fnode *fn)
{
	uint32_t caps = atspi_caps_of(fn->job->be, fn->bus);

	return !fn->named &&
	       !cua_walk_is_visible(fn->n, (caps & CAP_VIS_VISIBLE) ?
						   CUA_VIS_VISIBLE :
						   CUA_VIS_SHOWING);
}

/* The details to ask of a node whose basic fields are in. */
static uint32_t
details_wanted(struct fnode *fn)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;

	if (!(n->have & CUA_HAVE_BASIC) || CUA_HAS_STATE(n, CUA_STATE_DEFUNCT))
		return 0;
	if (job->mode == READ_LIVE)
		return live_hidden(fn) ? 0 : job->want;
	if (!job->pol->details)
		return 0;
	/* toplevels come with their extents */
	return job->pol->details(job->pol->user_data, n, fn->depth) & ~n->have;
}

void
fetch_start_details(struct fnode *fn)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;
	uint32_t caps = atspi_caps_of(job->be, fn->bus);
	uint32_t want = details_wanted(fn);

	fn->stage = STAGE_DETAILS;
	want &= ~(uint32_t)(CUA_HAVE_BASIC | CUA_HAVE_CHILDREN);
	if (!(n->ifaces & CUA_IFACE_COMPONENT))
		want &= ~(uint32_t)CUA_HAVE_EXTENTS;
	if (!(n->ifaces & CUA_IFACE_ACTION))
		want &= ~(uint32_t)CUA_HAVE_ACTIONS;
	if (!(n->ifaces & CUA_IFACE_VALUE))
		want &= ~(uint32_t)CUA_HAVE_VALUE;
	if (!(n->ifaces & CUA_IFACE_TEXT))
		want &= ~(uint32_t)(CUA_HAVE_TEXT | CUA_HAVE_TEXT_SELECTION);
	if (!(n->ifaces & CUA_IFACE_HYPERLINK))
		want &= ~(uint32_t)CUA_HAVE_LINK;
	if (!(n->ifaces & CUA_IFACE_SELECTION))
		want &= ~(uint32_t)CUA_HAVE_SELECTION;
	if (caps & ATSPI_CAP_NO_ACCESSIBLE_ID)
		want &= ~(uint32_t)CUA_HAVE_ID;
	if (caps & ATSPI_CAP_NO_HELP_TEXT)
		want &= ~(uint32_t)CUA_HAVE_HELP;
	if (!(n->ifaces & CUA_IFACE_TABLE) &&
	    (!n->parent || !(n->parent->ifaces & CUA_IFACE_TABLE) ||
	     n->index_in_parent < 0))
		want &= ~(uint32_t)CUA_HAVE_TABLE_ROW;
	fn->want = want;

	if (want & CUA_HAVE_DESCRIPTION)
		get_prop(fn, K_DESC, IF_ACCESSIBLE, "Description");
	if (want & CUA_HAVE_EXTENTS)
		fetch_call(fn, K_EXTENTS, 0, IF_COMPONENT, "GetExtents",
			   g_variant_new("(u)", coord_type(fn)), "((iiii))");
	if (want & CUA_HAVE_ATTRIBUTES)
		fetch_call(fn, K_ATTRS, 0, IF_ACCESSIBLE, "GetAttributes", NULL,
			   "(a{ss})");
	/* a web document's address is a document attribute, not an object
	 * attribute (docs/state-text.md §11.2): Gecko's `DocURL`, Chromium's
	 * `URI` */
	if ((want & CUA_HAVE_ATTRIBUTES) && (n->ifaces & CUA_IFACE_DOCUMENT) &&
	    (n->role == CUA_ROLE_DOCUMENT_WEB ||
	     n->role == CUA_ROLE_DOCUMENT_FRAME))
		fetch_call(fn, K_DOCURL, 0, IF_DOCUMENT, "GetAttributes", NULL,
			   "(a{ss})");
	if (want & CUA_HAVE_ACTIONS)
		fetch_actions(fn);
	if (want & CUA_HAVE_VALUE) {
		get_prop(fn, K_VAL_CUR, IF_VALUE, "CurrentValue");
		get_prop(fn, K_VAL_MIN, IF_VALUE, "MinimumValue");
		get_prop(fn, K_VAL_MAX, IF_VALUE, "MaximumValue");
		get_prop(fn, K_VAL_STEP, IF_VALUE, "MinimumIncrement");
		if (!(caps & CAP_NO_VALUE_TEXT))
			get_prop(fn, K_VAL_TEXT, IF_VALUE, "Text");
	}
	if (want & CUA_HAVE_TEXT)
		get_prop(fn, K_TEXT_COUNT, IF_TEXT, "CharacterCount");
	if (want & CUA_HAVE_TEXT_SELECTION) {
		/* both at once: the selection is used only when
		 * GetNSelections says there is one */
		fetch_call(fn, K_TSEL_N, 0, IF_TEXT, "GetNSelections", NULL,
			   "(i)");
		fetch_call(fn, K_TSEL_GET, 0, IF_TEXT, "GetSelection",
			   g_variant_new("(i)", 0), "(ii)");
	}
	if (want & CUA_HAVE_RELATIONS)
		fetch_call(fn, K_RELSET, 0, IF_ACCESSIBLE, "GetRelationSet",
			   NULL, "(a(ua(so)))");
	if (want & CUA_HAVE_LINK)
		fetch_call(fn, K_LINK, 0, IF_HYPERLINK, "GetURI",
			   g_variant_new("(i)", 0), "(s)");
	if (want & CUA_HAVE_SELECTION)
		fetch_call(fn, K_SELCHILD, 0, IF_SELECTION, "GetSelectedChild",
			   g_variant_new("(i)", 0), "((so))");
	if (want & CUA_HAVE_ID)
		get_prop(fn, K_ID, IF_ACCESSIBLE, "AccessibleId");
	if (want & CUA_HAVE_HELP)
		get_prop(fn, K_HELP, IF_ACCESSIBLE, "HelpText");
	if ((want & CUA_HAVE_TABLE_ROW) && (n->ifaces & CUA_IFACE_TABLE))
		get_prop(fn, K_TABLE_NROWS, IF_TABLE, "NRows");
	if ((want & CUA_HAVE_TABLE_ROW) && n->parent &&
	    (n->parent->ifaces & CUA_IFACE_TABLE) && n->index_in_parent >= 0) {
		struct req *r = fetch_new_req(fn, K_TABLE_ROW, 0);

		/* the cell's row, asked of its table */
		if (fetch_split_ident(job, n->parent->ident, &r->bus, &r->path))
			fetch_call_on(fn, r, r->bus, r->path, IF_TABLE,
				      "GetRowAtIndex",
				      g_variant_new("(i)", n->index_in_parent),
				      "(i)");
	}

	/* ChildCount when the node may be descended into. A node with no
	 * details is decided right away; otherwise after the details. A
	 * live read or a refresh goes no deeper (its ChildCount came with
	 * the basics). */
	if (job->mode == READ_LIVE || job->mode == READ_REFRESH)
		fn->descend = 0;
	else if (want == 0)
		fn->descend = policy_descend(fn);
	if ((want != 0 && fn->descend != 0 && !fn->dup &&
	     !CUA_HAS_STATE(n, CUA_STATE_DEFUNCT) &&
	     fn->depth < job->max_depth) ||
	    fn->descend == 1)
		get_prop(fn, K_CHILD_COUNT, IF_ACCESSIBLE, "ChildCount");

	if (fn->pending == 0)
		fetch_advance(fn);
}

void
fetch_finish_details(struct fnode *fn)
{
	struct cua_raw_node *n = fn->n;

	if ((n->have & CUA_HAVE_EXTENTS) && fetch_is_hidden_geometry(n))
		n->have &= ~(uint32_t)CUA_HAVE_EXTENTS;
	if (fn->doc_url && (n->have & CUA_HAVE_ATTRIBUTES) &&
	    !cua_raw_attr(n, "DocURL")) {
		/* kept with the object attributes, as recordings keep it */
		struct cua_raw_attr *a = cua_arena_alloc(
			fn->job->snap->arena, (n->n_attrs + 1) * sizeof(*a));

		if (!a) {
			fn->job->oom = 1;
		} else {
			if (n->n_attrs)
				memcpy(a, n->attrs, n->n_attrs * sizeof(*a));
			a[n->n_attrs].key = "DocURL";
			a[n->n_attrs].value = fn->doc_url;
			n->attrs = a;
			n->n_attrs++;
		}
	}
	if (fn->want & CUA_HAVE_TEXT_SELECTION) {
		if (fn->n_sel > 0 && fn->sel_ok) {
			n->sel_start = fn->sel_start;
			n->sel_end = fn->sel_end;
			n->have |= CUA_HAVE_TEXT_SELECTION;
		} else if (fn->n_sel == 0) {
			n->sel_start = n->sel_end = -1;
			n->have |= CUA_HAVE_TEXT_SELECTION;
		}
	}
}

/* Creates the children from fn->slots and starts reading them. */
static void
make_children(struct fnode *fn)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;
	size_t k = 0, i;

	/* a failed GetChildAtIndex ends the (contiguous) list */
	while (k < fn->n_slots && fn->slots[k].path)
		k++;
	n->children = cua_arena_alloc(job->snap->arena,
				      (k ? k : 1) * sizeof(*n->children));
	if (!n->children) {
		job->oom = 1;
		return;
	}
	n->child_offset = fn->child_first;
	for (i = 0; i < k; i++) {
		struct cua_raw_node *c;
		struct fnode *cf;

		if (node_cap_reached(job)) {
			job->node_cap_hit = 1;
			break;
		}
		c = cua_raw_node_new(job->snap);
		if (!c) {
			job->oom = 1;
			break;
		}
		c->ident = fetch_make_ident(job, fn->slots[i].bus,
					    fn->slots[i].path);
		c->parent = n;
		c->index_in_parent = (int32_t)(fn->child_first + i);
		c->table_row = -1;
		if (fn->slot_index)
			fetch_table_place_cell(fn, c, i);
		n->children[i] = c;
		cf = fetch_new_fnode(job, c, fn->slots[i].bus,
				     fn->slots[i].path, fn->depth + 1);
		fetch_start_basic(cf);
	}
	n->n_children = i;
	n->have |= CUA_HAVE_CHILDREN;
	if (fn->child_first > 0 ||
	    (int64_t)(fn->child_first + i) < (int64_t)n->child_count)
		n->children_partial = 1;
}

void
fetch_alloc_slots(struct fnode *fn, size_t first, size_t count)
{
	fn->child_first = first;
	fn->n_slots = count;
	fn->slots =
		tmp_alloc(fn->job, (count ? count : 1) * sizeof(*fn->slots));
}

void
fetch_read_indexed(struct fnode *fn, size_t first, size_t count)
{
	if (count > ATSPI_CHILDREN_MAX)
		count = ATSPI_CHILDREN_MAX;
	fetch_alloc_slots(fn, first, count);
	for (size_t i = 0; i < count; i++)
		fetch_call(fn, K_CHILD_AT, (int)i, IF_ACCESSIBLE,
			   "GetChildAtIndex",
			   g_variant_new("(i)", (int32_t)(first + i)),
			   "((so))");
}

/* The container's visible rectangle: its extents clipped by every
 * ancestor's known extents. 0 when empty or unknown. */
static int
visible_rect(const struct cua_raw_node *n, struct cua_rect *out)
{
	int64_t x0, y0, x1, y1;
	const struct cua_raw_node *a;

	if (!(n->have & CUA_HAVE_EXTENTS))
		return 0;
	x0 = n->extents.x;
	y0 = n->extents.y;
	x1 = x0 + n->extents.w;
	y1 = y0 + n->extents.h;
	for (a = n->parent; a; a = a->parent) {
		if (!(a->have & CUA_HAVE_EXTENTS) || a->extents.w <= 0 ||
		    a->extents.h <= 0)
			continue;
		x0 = MAX(x0, a->extents.x);
		y0 = MAX(y0, a->extents.y);
		x1 = MIN(x1, (int64_t)a->extents.x + a->extents.w);
		y1 = MIN(y1, (int64_t)a->extents.y + a->extents.h);
	}
	if (x1 - x0 <= 2 * HIT_INSET || y1 - y0 <= 2 * HIT_INSET)
		return 0;
	out->x = (int32_t)x0;
	out->y = (int32_t)y0;
	out->w = (int32_t)(x1 - x0);
	out->h = (int32_t)(y1 - y0);
	return 1;
}

/*
 * Hit-tests the container's visible rectangle a few pixels inside its
 * top-left and bottom-left corners, and once more a little lower than the
 * top one: the top point often lands on a column header (GTK 3 tree
 * views), whose index says nothing about the scroll position.
 */
#define HIT_BELOW_HEADER 32

void
fetch_start_hit_tests(struct fnode *fn)
{
	struct cua_rect r;
	int32_t x, y[3];

	fn->range_phase = 1;
	if (!visible_rect(fn->n, &r))
		return; /* fetch_advance() falls back */
	fn->hit_tested = 1;
	x = r.x + HIT_INSET;
	y[0] = r.y + HIT_INSET;
	y[1] = r.y + r.h - 1 - HIT_INSET;
	y[2] = r.y + MIN(HIT_BELOW_HEADER, r.h / 3);
	for (int i = 0; i < 3; i++)
		fetch_call(fn, K_HIT, i, IF_COMPONENT, "GetAccessibleAtPoint",
			   g_variant_new("(iiu)", x, y[i], coord_type(fn)),
			   "((so))");
	/* a table's last visible column (fetch_table.c) */
	if (fn->n->ifaces & CUA_IFACE_TABLE)
		fetch_call(fn, K_HIT, 3, IF_COMPONENT, "GetAccessibleAtPoint",
			   g_variant_new("(iiu)", r.x + r.w - 1 - HIT_INSET,
					 y[2], coord_type(fn)),
			   "((so))");
}

static int
is_large(struct fnode *fn)
{
	struct job *job = fn->job;
	const struct cua_raw_node *n = fn->n;

	if (n->child_count > job->range_threshold)
		return 1;
	if (n->child_count > job->range_list_threshold &&
	    (is_list_role(n->role) ||
	     CUA_HAS_STATE(n, CUA_STATE_MANAGES_DESCENDANTS)))
		return 1;
	return 0;
}

static void
start_children(struct fnode *fn)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;

	fn->stage = STAGE_CHILDREN;
	if (n->child_count > HUGE_CONTAINER)
		job->huge_seen = 1;
	if (job->mode == READ_WALK && is_large(fn)) {
		fn->ranged = 1;
		if (n->ifaces & CUA_IFACE_TABLE) {
			get_prop(fn, K_NCOLS, IF_TABLE, "NColumns");
			if (!(n->have & CUA_HAVE_TABLE_ROW))
				get_prop(fn, K_TABLE_NROWS, IF_TABLE, "NRows");
		}
		if (n->ifaces & CUA_IFACE_COMPONENT) {
			if (n->have & CUA_HAVE_EXTENTS) {
				fetch_start_hit_tests(fn);
			} else {
				/* extents first; hit tests follow */
				fn->range_phase = 1;
				fetch_call(fn, K_EXTENTS, 1, IF_COMPONENT,
					   "GetExtents",
					   g_variant_new("(u)", coord_type(fn)),
					   "((iiii))");
			}
		} else {
			fn->range_phase = 1;
		}
	} else {
		fetch_call(fn, K_CHILDREN, 0, IF_ACCESSIBLE, "GetChildren",
			   NULL, "(a(so))");
	}
	if (fn->pending == 0)
		fetch_advance(fn);
}

/* Rows a range estimated from the geometry takes beyond the view. */
#define ESTIMATE_MARGIN 2

/*
 * No hit test found a child (GTK 4.8's list boxes answer none): a list
 * taller than its view, scrolled inside it, whose rows are alike, shows
 * the rows at its offset in the view over the row pitch (its height over
 * its children). 0 when the geometry does not say.
 */
static int
estimate_range(const struct cua_raw_node *n, int64_t *first, int64_t *last)
{
	struct cua_rect v;
	int64_t count = n->child_count, top, bottom;
	double pitch;

	if (count <= 0 || !visible_rect(n, &v) || n->extents.h <= v.h)
		return 0;
	pitch = (double)n->extents.h / (double)count;
	if (pitch < 1.0)
		return 0;
	top = (int64_t)v.y - n->extents.y;
	bottom = top + v.h;
	*first = MAX(0, (int64_t)(top / pitch) - ESTIMATE_MARGIN);
	*last = MIN(count - 1, (int64_t)(bottom / pitch) + ESTIMATE_MARGIN);
	return *first <= *last;
}

/* The visible index range the hit tests give (first..last), the cells
 * of a grid (fetch_table.c) from its first to its last one; 1 for a
 * grid. */
static int
choose_range(struct fnode *fn, int64_t *first_out, int64_t *last_out)
{
	int64_t count = fn->n->child_count;
	int64_t a = fn->hit[0], b = fn->hit[1], c = fn->hit[2];
	int64_t ncols = MAX(fn->ncols, 1), first, last;

	if (fetch_table_grid_range(fn, first_out, last_out))
		return 1;
	/* the top hit is trusted when the lower one agrees with it (a row
	 * or two apart); otherwise it was a header or a gap */
	if (c >= 0 && (a < 0 || a > c || c - a > 2 * ncols))
		a = c;
	if (a < 0 && b < 0) {
		if (!estimate_range(fn->n, &first, &last)) {
			first = 0;
			last = RANGE_FALLBACK - 1;
			/* in view, yet nothing there: still being laid out? */
			fn->n->range_blind = fn->hit_tested;
		}
	} else if (a < 0) {
		first = MAX(0, b - (RANGE_FALLBACK - 1));
		last = b;
	} else if (b < 0) {
		first = a;
		last = a + RANGE_FALLBACK - 1;
	} else {
		first = MIN(a, b);
		last = MAX(a, b);
	}
	/* flat tables (GTK 3 tree views): the hits are the first cells of
	 * the first and last visible rows; take both rows whole */
	if (ncols > 1)
		last += ncols - 1;
	if (last - first + 1 > RANGE_MAX)
		last = first + RANGE_MAX - 1;
	if (last > count - 1)
		last = count - 1;
	if (first > last)
		first = last;
	*first_out = first;
	*last_out = last;
	return 0;
}

/* The hit tests are in: the range they give, kept on the node (the tree
 * cache's sweep compares it, READ_SWEEP), and read unless `compare`. */
static void
read_range(struct fnode *fn, int compare)
{
	int64_t first, last;
	int grid;

	fn->range_phase = 0;
	grid = choose_range(fn, &first, &last);
	if (first < 0 || last >= INT32_MAX) {
		first = 0;
		last = -1;
	}
	fn->n->range_first = (int32_t)first;
	fn->n->range_end = (int32_t)(last + 1);
	if (compare)
		return;
	if (grid) {
		fetch_table_read_grid(fn);
		return;
	}
	cua_debug(fn->job->be->base.ctx,
		  "atspi: %s: %d children, reading %" G_GINT64_FORMAT
		  "-%" G_GINT64_FORMAT " (hits %d, %d, %d)",
		  fn->n->ident, fn->n->child_count, first, last, fn->hit[0],
		  fn->hit[2], fn->hit[1]);
	fetch_read_indexed(fn, (size_t)first, (size_t)(last - first + 1));
}

static void
node_done(struct fnode *fn)
{
	fn->stage = STAGE_DONE;
}

/* READ_LIVE: children kids_first .. kids_first + kids_count - 1 (to the
 * end for UINT32_MAX) by the walk's rule (docs/state-text.md §11.5.1):
 * GetChildren only when it covers them all and its length equals
 * ChildCount, else GetChildAtIndex. */
static void
start_live_children(struct fnode *fn)
{
	struct cua_raw_node *n = fn->n;
	int64_t total = n->child_count, first = fn->kids_first, last;

	fn->stage = STAGE_CHILDREN;
	if (!fn->count_ok || CUA_HAS_STATE(n, CUA_STATE_DEFUNCT)) {
		node_done(fn);
		return;
	}
	last = fn->kids_count == UINT32_MAX ?
		       total - 1 :
		       MIN(total - 1, first + (int64_t)fn->kids_count - 1);
	/* "all children" of a node whose ChildCount grew to 2^31 - 1 since
	 * it was observed (a hostile app) must not mean 2^31 slots and
	 * calls */
	if (last - first + 1 > ATSPI_CHILDREN_MAX)
		last = first + ATSPI_CHILDREN_MAX - 1;
	if (last < first)
		fetch_alloc_slots(fn, (size_t)first, 0);
	else if (first == 0 && last == total - 1) {
		fetch_alloc_slots(fn, 0, (size_t)total);
		fetch_call(fn, K_CHILDREN, 0, IF_ACCESSIBLE, "GetChildren",
			   NULL, "(a(so))");
	} else {
		fetch_read_indexed(fn, (size_t)first,
				   (size_t)(last - first + 1));
	}
	if (fn->pending == 0)
		fetch_advance(fn);
}

/* The last reply of the node's current stage is in. */
void
fetch_advance(struct fnode *fn)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;

	switch (fn->stage) {
	case STAGE_BASIC:
		if ((fn->basic_ok & (B_ROLE | B_STATE)) == (B_ROLE | B_STATE))
			n->have |= CUA_HAVE_BASIC;
		if (job->mode == READ_SWEEP) {
			/* what was compared: states and name (a gone object
			 * answers neither) */
			if ((fn->basic_ok & (B_STATE | B_NAME)) ==
			    (B_STATE | B_NAME))
				n->have |= CUA_HAVE_BASIC;
			if (fn->ranged && fn->count_ok)
				read_range(fn, 1);
			node_done(fn);
			return;
		}
		if (job->mode == READ_OPEN) {
			/* the app object goes on to its toplevels */
			if (fn->depth < 0 && fn->count_ok) {
				fn->stage = STAGE_CHILDREN;
				start_children(fn);
			} else {
				node_done(fn);
			}
			return;
		}
		if (!(n->have & CUA_HAVE_BASIC)) {
			node_done(fn);
			return;
		}
		if (fn->read_kids) {
			start_live_children(fn);
			return;
		}
		fetch_start_details(fn);
		return;
	case STAGE_DETAILS:
		fetch_finish_details(fn);
		if (fn->descend < 0)
			fn->descend = policy_descend(fn);
		if (!fn->descend || !fn->count_ok || n->child_count <= 0) {
			node_done(fn);
			return;
		}
		if (node_cap_reached(job)) {
			job->node_cap_hit = 1;
			node_done(fn);
			return;
		}
		start_children(fn);
		return;
	case STAGE_CHILDREN:
		if (fn->range_phase) {
			/* hit tests done (or impossible): read the range */
			read_range(fn, 0);
			if (fn->pending == 0)
				fetch_advance(fn);
			return;
		}
		if (fn->slots)
			make_children(fn);
		node_done(fn);
		return;
	case STAGE_DONE:
		return;
	}
}
