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

#include <gio/gio.h>

#include "atspi.h"
#include "linux.h"
#include "core/sanitize.h"

#define ROOT_PATH "/org/a11y/atspi/accessible/root"
#define NULL_PATH "/org/a11y/atspi/null"

#define IF_ACCESSIBLE "org.a11y.atspi.Accessible"
#define IF_ACTION "org.a11y.atspi.Action"
#define IF_COLLECTION "org.a11y.atspi.Collection"
#define IF_COMPONENT "org.a11y.atspi.Component"
#define IF_HYPERLINK "org.a11y.atspi.Hyperlink"
#define IF_SELECTION "org.a11y.atspi.Selection"
#define IF_TABLE "org.a11y.atspi.Table"
#define IF_TEXT "org.a11y.atspi.Text"
#define IF_VALUE "org.a11y.atspi.Value"

/* AT-SPI protocol constants (atspi-constants.h). */
#define COORD_SCREEN 0u         /* ATSPI_COORD_TYPE_SCREEN */
#define COORD_WINDOW 1u         /* ATSPI_COORD_TYPE_WINDOW */
#define RELATION_LABELLED_BY 2u /* ATSPI_RELATION_LABELLED_BY */
#define MATCH_ALL 1             /* ATSPI_Collection_MATCH_ALL */
#define SORT_CANONICAL 1u       /* ATSPI_Collection_SORT_ORDER_CANONICAL */

/* Calls in flight per batch. The app answers them one after the other;
 * more in flight mostly lets both sides batch their socket I/O (GTK 4:
 * 256 -> 512 was ~10 % faster, 1024 no better). */
#define IN_FLIGHT 512
#define TEXT_CAP 100000   /* characters of Text read per node */
#define RANGE_FALLBACK 50 /* children read when hit-testing fails */
#define RANGE_MAX 200     /* most children of a visible range */
#define HIT_INSET 3       /* pixels inside the container's corners */
#define HIT_MAX_STEPS 16  /* Parent steps from a hit to the child */
/* A container this large makes Collection.GetMatches expensive for the
 * app (the ATK adaptor visits every descendant), so focus is then taken
 * from the walk only. */
#define HUGE_CONTAINER 5000

/* Capability bits of this file in be->caps, next to enum atspi_cap. */
#define CAP_NO_VALUE_TEXT (1u << 16)
/* GTK 4 has no screen coordinates: asked for them it answers with window
 * coordinates and logs "Screen coordinates not supported" on every call
 * (9,806 lines for a dozen walks of gtk4-widget-factory). Ask for window
 * coordinates, which are the same numbers, without the log. */
#define CAP_WINDOW_COORDS (1u << 20)

enum stage {
	STAGE_BASIC,
	STAGE_DETAILS,
	STAGE_CHILDREN,
	STAGE_DONE,
};

enum kind {
	K_ROLE,
	K_STATE,
	K_IFACES,
	K_NAME,
	K_EXTENTS,
	K_DESC,
	K_ATTRS,
	K_ACTIONS,
	K_ACTION_NAME,
	K_VAL_CUR,
	K_VAL_MIN,
	K_VAL_MAX,
	K_VAL_STEP,
	K_VAL_TEXT,
	K_TEXT_COUNT,
	K_TEXT_GET,
	K_TSEL_N,
	K_TSEL_GET,
	K_RELSET,
	K_LABEL_NAME,
	K_LINK,
	K_SELCHILD,
	K_SELCHILD_NAME,
	K_ID,
	K_HELP,
	K_TABLE_ROW,
	K_TABLE_NROWS,
	K_CHILD_COUNT,
	K_CHILDREN,
	K_CHILD_AT,
	K_NCOLS,
	K_HIT,
	K_HIT_PARENT,
	K_HIT_INDEX,
	K_MATCHES,
};

/* Basic calls that answered (struct fnode.basic_ok). */
#define B_ROLE (1u << 0)
#define B_STATE (1u << 1)
#define B_IFACES (1u << 2)
#define B_NAME (1u << 3)

struct ref {
	const char *bus;
	const char *path;
};

struct job;

/* Walk state of one node (scratch, lives in job->tmp). */
struct fnode {
	struct job *job;
	struct cua_raw_node *n;
	const char *bus;
	const char *path;
	int depth;
	enum stage stage;
	int pending; /* calls of the current stage not answered */
	uint32_t basic_ok;
	uint32_t want; /* details asked for */
	int descend;   /* -1 unknown, 0, 1 */
	int dup;       /* the same object is already in the tree */
	int count_ok;  /* ChildCount answered */

	int32_t n_sel; /* Text.GetNSelections, -1 unknown */
	int32_t sel_start, sel_end;
	int sel_ok;

	/* children being read: slots[i] is child child_first + i */
	struct ref *slots;
	size_t n_slots;
	size_t child_first;
	int ranged;      /* visible-range read */
	int range_phase; /* 1 while hit-testing */
	int32_t hit[3];  /* child index hit at the top, bottom and
	                  * below the top (past a header); -1 none */
	int32_t ncols;   /* Table.NColumns for ranged tables */
};

/* One call in flight: which node, what for. */
struct req {
	struct fnode *fn;
	enum kind kind;
	int aux;
	const char *bus; /* K_HIT_*: the object being walked up */
	const char *path;
};

struct job {
	struct atspi_be *be;
	struct cua_raw_snapshot *snap;
	const struct cua_fetch_policy *pol;
	struct dbatch *batch;
	struct cua_arena *tmp;
	GHashTable *seen; /* ident -> struct fnode */
	int open_mode;    /* atspi_open_app: toplevels only */
	int max_depth;
	size_t max_nodes;
	int range_threshold;
	int range_list_threshold;
	uint64_t n_ok;       /* replies that succeeded */
	uint64_t n_timeouts; /* calls that timed out */
	int64_t last_ok_us;  /* when the last successful reply came */
	int timeout_ms;      /* per call */
	int hung;            /* the app stopped answering: no new calls */
	int gone;            /* the app left the bus (quit, crashed) */
	const char *app_bus; /* the app's own bus name */
	int node_cap_hit;
	int huge_seen;
	int oom;
	/* focus */
	const char *focus_ident;
	int focus_root; /* index of the root that matched */
};


static void
on_reply(struct dbatch *batch, GVariant *reply, const GError *error,
         void *data);
static void
advance(struct fnode *fn);

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static char *
sdup(struct job *job, const char *s)
{
	char *r = atspi_strdup_capped(job->snap->arena, s); /* 1 MiB */

	if (s && !r)
		job->oom = 1;
	return r;
}

/* A string, or NULL when it is empty. */
static const char *
sdup_nonempty(struct job *job, const char *s)
{
	return s && *s ? sdup(job, s) : NULL;
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

static const char *
tmp_strdup(struct job *job, const char *s)
{
	char *r = cua_arena_strdup(job->tmp, s);

	if (!r)
		abort();
	return r;
}

static char *
make_ident(struct job *job, const char *bus, const char *path)
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

static const char *
clean_name(struct job *job, const char *s)
{
	if (!s || !*s || atspi_is_gtype_name(s))
		return NULL;
	return sdup(job, s);
}

/* A node's bus name and path, split out of its identity. */
static int
split_ident(struct job *job, const char *ident, const char **bus,
            const char **path)
{
	const char *slash = ident ? strchr(ident, '/') : NULL;
	char *b;

	if (!slash || slash == ident || slash[-1] != ':')
		return 0;
	b = (char *)tmp_strdup(job, ident);
	b[slash - ident - 1] = '\0';
	*bus = b;
	*path = slash;
	return 1;
}

static int
is_null_ref(const char *path)
{
	return !path || strcmp(path, NULL_PATH) == 0;
}

static const char *
prop_string(struct job *job, GVariant *reply, int nonempty)
{
	GVariant *v = atspi_prop_value(reply, G_VARIANT_TYPE_STRING);
	const char *s, *r;

	if (!v)
		return NULL;
	s = g_variant_get_string(v, NULL);
	r = nonempty ? sdup_nonempty(job, s) : sdup(job, s);
	g_variant_unref(v);
	return r;
}

static int
prop_int(GVariant *reply, int32_t *out)
{
	GVariant *v = atspi_prop_value(reply, G_VARIANT_TYPE_INT32);

	if (!v)
		return 0;
	*out = g_variant_get_int32(v);
	g_variant_unref(v);
	return 1;
}

static int
prop_double(GVariant *reply, double *out)
{
	GVariant *v = atspi_prop_value(reply, G_VARIANT_TYPE_DOUBLE);

	if (!v)
		return 0;
	*out = g_variant_get_double(v);
	g_variant_unref(v);
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
static int
is_hidden_geometry(const struct cua_raw_node *n)
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

static struct req *
new_req(struct fnode *fn, enum kind kind, int aux)
{
	struct req *r = tmp_alloc(fn->job, sizeof(*r));

	r->fn = fn;
	r->kind = kind;
	r->aux = aux;
	return r;
}

static void
call_on(struct fnode *fn, struct req *r, const char *bus, const char *path,
        const char *iface, const char *method, GVariant *args,
        const char *reply_type)
{
	if (fn->job->hung) {
		if (args)
			g_variant_unref(g_variant_ref_sink(args));
		return;
	}
	fn->pending++;
	dbatch_call(fn->job->batch, bus, path, iface, method, args,
	            G_VARIANT_TYPE(reply_type), on_reply, r);
}

static void
call(struct fnode *fn, enum kind kind, int aux, const char *iface,
     const char *method, GVariant *args, const char *reply_type)
{
	call_on(fn, new_req(fn, kind, aux), fn->bus, fn->path, iface, method,
	        args, reply_type);
}

static void
get_prop_on(struct fnode *fn, struct req *r, const char *bus, const char *path,
            const char *iface, const char *prop)
{
	if (fn->job->hung)
		return;
	fn->pending++;
	dbatch_get_property(fn->job->batch, bus, path, iface, prop, on_reply,
	                    r);
}

static void
get_prop(struct fnode *fn, enum kind kind, const char *iface, const char *prop)
{
	get_prop_on(fn, new_req(fn, kind, 0), fn->bus, fn->path, iface, prop);
}

/* ------------------------------------------------------------------ */
/* Node creation and the stages                                        */

static uint32_t
coord_type(struct fnode *fn)
{
	return (atspi_caps_of(fn->job->be, fn->bus) & CAP_WINDOW_COORDS)
	               ? COORD_WINDOW
	               : COORD_SCREEN;
}

static int
node_cap_reached(struct job *job)
{
	return job->max_nodes && job->snap->stats.nodes >= job->max_nodes;
}

static struct fnode *
new_fnode(struct job *job, struct cua_raw_node *n, const char *bus,
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
	fn->hit[0] = fn->hit[1] = fn->hit[2] = -1;
	if (n->ident) {
		if (g_hash_table_contains(job->seen, n->ident))
			fn->dup = 1;
		else
			g_hash_table_insert(job->seen, (gpointer)n->ident, fn);
	}
	return fn;
}

static void
start_basic(struct fnode *fn)
{
	fn->stage = STAGE_BASIC;
	call(fn, K_ROLE, 0, IF_ACCESSIBLE, "GetRole", NULL, "(u)");
	call(fn, K_STATE, 0, IF_ACCESSIBLE, "GetState", NULL, "(au)");
	call(fn, K_IFACES, 0, IF_ACCESSIBLE, "GetInterfaces", NULL, "(as)");
	get_prop(fn, K_NAME, IF_ACCESSIBLE, "Name");
	if (fn->job->open_mode) {
		/* toplevels: extents too (windows are Components; an
		 * error is harmless), and for the app its ChildCount */
		if (fn->depth == 0)
			call(fn, K_EXTENTS, 0, IF_COMPONENT, "GetExtents",
			     g_variant_new("(u)", coord_type(fn)), "((iiii))");
		else
			get_prop(fn, K_CHILD_COUNT, IF_ACCESSIBLE,
			         "ChildCount");
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

static void
start_details(struct fnode *fn)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;
	uint32_t caps = atspi_caps_of(job->be, fn->bus);
	uint32_t want = 0;

	fn->stage = STAGE_DETAILS;
	if ((n->have & CUA_HAVE_BASIC) &&
	    !CUA_HAS_STATE(n, CUA_STATE_DEFUNCT) && job->pol->details)
		want = job->pol->details(job->pol->user_data, n, fn->depth);
	want &= ~(uint32_t)(CUA_HAVE_BASIC | CUA_HAVE_CHILDREN);
	want &= ~n->have; /* toplevels come with their extents */
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
		call(fn, K_EXTENTS, 0, IF_COMPONENT, "GetExtents",
		     g_variant_new("(u)", coord_type(fn)), "((iiii))");
	if (want & CUA_HAVE_ATTRIBUTES)
		call(fn, K_ATTRS, 0, IF_ACCESSIBLE, "GetAttributes", NULL,
		     "(a{ss})");
	if (want & CUA_HAVE_ACTIONS)
		call(fn, K_ACTIONS, 0, IF_ACTION, "GetActions", NULL,
		     "(a(sss))");
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
		call(fn, K_TSEL_N, 0, IF_TEXT, "GetNSelections", NULL, "(i)");
		call(fn, K_TSEL_GET, 0, IF_TEXT, "GetSelection",
		     g_variant_new("(i)", 0), "(ii)");
	}
	if (want & CUA_HAVE_RELATIONS)
		call(fn, K_RELSET, 0, IF_ACCESSIBLE, "GetRelationSet", NULL,
		     "(a(ua(so)))");
	if (want & CUA_HAVE_LINK)
		call(fn, K_LINK, 0, IF_HYPERLINK, "GetURI",
		     g_variant_new("(i)", 0), "(s)");
	if (want & CUA_HAVE_SELECTION)
		call(fn, K_SELCHILD, 0, IF_SELECTION, "GetSelectedChild",
		     g_variant_new("(i)", 0), "((so))");
	if (want & CUA_HAVE_ID)
		get_prop(fn, K_ID, IF_ACCESSIBLE, "AccessibleId");
	if (want & CUA_HAVE_HELP)
		get_prop(fn, K_HELP, IF_ACCESSIBLE, "HelpText");
	if ((want & CUA_HAVE_TABLE_ROW) && (n->ifaces & CUA_IFACE_TABLE))
		get_prop(fn, K_TABLE_NROWS, IF_TABLE, "NRows");
	if ((want & CUA_HAVE_TABLE_ROW) && n->parent &&
	    (n->parent->ifaces & CUA_IFACE_TABLE) && n->index_in_parent >= 0) {
		struct req *r = new_req(fn, K_TABLE_ROW, 0);

		/* the cell's row, asked of its table */
		if (split_ident(job, n->parent->ident, &r->bus, &r->path))
			call_on(fn, r, r->bus, r->path, IF_TABLE,
			        "GetRowAtIndex",
			        g_variant_new("(i)", n->index_in_parent),
			        "(i)");
	}

	/* ChildCount when the node may be descended into. A node with no
	 * details is decided right away; otherwise after the details. */
	if (want == 0)
		fn->descend = policy_descend(fn);
	if ((want != 0 && !fn->dup && !CUA_HAS_STATE(n, CUA_STATE_DEFUNCT) &&
	     fn->depth < job->max_depth) ||
	    fn->descend == 1)
		get_prop(fn, K_CHILD_COUNT, IF_ACCESSIBLE, "ChildCount");

	if (fn->pending == 0)
		advance(fn);
}

static void
finish_details(struct fnode *fn)
{
	struct cua_raw_node *n = fn->n;

	if ((n->have & CUA_HAVE_EXTENTS) && is_hidden_geometry(n))
		n->have &= ~(uint32_t)CUA_HAVE_EXTENTS;
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
		c->ident = make_ident(job, fn->slots[i].bus, fn->slots[i].path);
		c->parent = n;
		c->index_in_parent = (int32_t)(fn->child_first + i);
		c->table_row = -1;
		n->children[i] = c;
		cf = new_fnode(job, c, fn->slots[i].bus, fn->slots[i].path,
		               fn->depth + 1);
		start_basic(cf);
	}
	n->n_children = i;
	n->have |= CUA_HAVE_CHILDREN;
	if (fn->child_first > 0 ||
	    (int64_t)(fn->child_first + i) < (int64_t)n->child_count)
		n->children_partial = 1;
}

static void
alloc_slots(struct fnode *fn, size_t first, size_t count)
{
	fn->child_first = first;
	fn->n_slots = count;
	fn->slots =
	        tmp_alloc(fn->job, (count ? count : 1) * sizeof(*fn->slots));
}

static void
read_indexed(struct fnode *fn, size_t first, size_t count)
{
	if (count > ATSPI_CHILDREN_MAX)
		count = ATSPI_CHILDREN_MAX;
	alloc_slots(fn, first, count);
	for (size_t i = 0; i < count; i++)
		call(fn, K_CHILD_AT, (int)i, IF_ACCESSIBLE, "GetChildAtIndex",
		     g_variant_new("(i)", (int32_t)(first + i)), "((so))");
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

static void
start_hit_tests(struct fnode *fn)
{
	struct cua_rect r;
	int32_t x, y[3];

	fn->range_phase = 1;
	if (!visible_rect(fn->n, &r))
		return; /* advance() falls back */
	x = r.x + HIT_INSET;
	y[0] = r.y + HIT_INSET;
	y[1] = r.y + r.h - 1 - HIT_INSET;
	y[2] = r.y + MIN(HIT_BELOW_HEADER, r.h / 3);
	for (int i = 0; i < 3; i++)
		call(fn, K_HIT, i, IF_COMPONENT, "GetAccessibleAtPoint",
		     g_variant_new("(iiu)", x, y[i], coord_type(fn)), "((so))");
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
	if (!job->open_mode && is_large(fn)) {
		fn->ranged = 1;
		if (n->ifaces & CUA_IFACE_TABLE) {
			get_prop(fn, K_NCOLS, IF_TABLE, "NColumns");
			if (!(n->have & CUA_HAVE_TABLE_ROW))
				get_prop(fn, K_TABLE_NROWS, IF_TABLE, "NRows");
		}
		if (n->ifaces & CUA_IFACE_COMPONENT) {
			if (n->have & CUA_HAVE_EXTENTS) {
				start_hit_tests(fn);
			} else {
				/* extents first; hit tests follow */
				fn->range_phase = 1;
				call(fn, K_EXTENTS, 1, IF_COMPONENT,
				     "GetExtents",
				     g_variant_new("(u)", coord_type(fn)),
				     "((iiii))");
			}
		} else {
			fn->range_phase = 1;
		}
	} else {
		call(fn, K_CHILDREN, 0, IF_ACCESSIBLE, "GetChildren", NULL,
		     "(a(so))");
	}
	if (fn->pending == 0)
		advance(fn);
}

/* The hit tests are in: read the visible index range. */
static void
read_range(struct fnode *fn)
{
	int64_t count = fn->n->child_count;
	int64_t a = fn->hit[0], b = fn->hit[1], c = fn->hit[2];
	int64_t ncols = MAX(fn->ncols, 1), first, last;

	/* the top hit is trusted when the lower one agrees with it (a row
	 * or two apart); otherwise it was a header or a gap */
	if (c >= 0 && (a < 0 || a > c || c - a > 2 * ncols))
		a = c;
	if (a < 0 && b < 0) {
		first = 0;
		last = RANGE_FALLBACK - 1;
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
	fn->range_phase = 0;
	cua_debug(fn->job->be->base.ctx,
	          "atspi: %s: %d children, reading %" G_GINT64_FORMAT
	          "-%" G_GINT64_FORMAT " (hits %d, %d, %d)",
	          fn->n->ident, fn->n->child_count, first, last, fn->hit[0],
	          fn->hit[2], fn->hit[1]);
	read_indexed(fn, (size_t)first, (size_t)(last - first + 1));
}

static void
node_done(struct fnode *fn)
{
	fn->stage = STAGE_DONE;
}

/* The last reply of the node's current stage is in. */
static void
advance(struct fnode *fn)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;

	switch (fn->stage) {
	case STAGE_BASIC:
		if ((fn->basic_ok & (B_ROLE | B_STATE)) == (B_ROLE | B_STATE))
			n->have |= CUA_HAVE_BASIC;
		if (job->open_mode) {
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
		start_details(fn);
		return;
	case STAGE_DETAILS:
		finish_details(fn);
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
			read_range(fn);
			if (fn->pending == 0)
				advance(fn);
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

/* ------------------------------------------------------------------ */
/* Replies                                                             */

/* An error meaning "this object does not have that member" (as opposed
 * to a timeout or a vanished object; GTK 4 answers UnknownMethod for
 * both, saying "Object does not exist at path" for the latter). */
static int
is_missing_member(const GError *error)
{
	if (strstr(error->message, "does not exist at path"))
		return 0;
	return g_error_matches(error, G_DBUS_ERROR,
	                       G_DBUS_ERROR_UNKNOWN_METHOD) ||
	       g_error_matches(error, G_DBUS_ERROR,
	                       G_DBUS_ERROR_INVALID_ARGS) ||
	       g_error_matches(error, G_DBUS_ERROR,
	                       G_DBUS_ERROR_UNKNOWN_PROPERTY) ||
	       g_error_matches(error, G_DBUS_ERROR,
	                       G_DBUS_ERROR_UNKNOWN_INTERFACE) ||
	       g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED);
}

/* An error meaning that the app is no longer on the bus: the bus daemon
 * answers NoReply for calls in flight when it disconnects, and
 * ServiceUnknown / NameHasNoOwner for calls sent after; a closed
 * connection is the app's peer-to-peer one, unless the bus itself went
 * away (not the app's doing). */
static int
is_gone_error(struct job *job, const GError *error)
{
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CLOSED))
		return job->be->a11y &&
		       !g_dbus_connection_is_closed(job->be->a11y);
	return g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
	       g_error_matches(error, G_DBUS_ERROR,
	                       G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	       g_error_matches(error, G_DBUS_ERROR,
	                       G_DBUS_ERROR_NAME_HAS_NO_OWNER);
}

static void
on_error(struct req *r, const GError *error)
{
	struct fnode *fn = r->fn;
	struct job *job = fn->job;

	switch (r->kind) {
	case K_ID:
		if (is_missing_member(error))
			atspi_caps_add(job->be, fn->bus,
			               ATSPI_CAP_NO_ACCESSIBLE_ID);
		break;
	case K_HELP:
		if (is_missing_member(error))
			atspi_caps_add(job->be, fn->bus, ATSPI_CAP_NO_HELP_TEXT);
		break;
	case K_VAL_TEXT:
		if (is_missing_member(error))
			atspi_caps_add(job->be, fn->bus, CAP_NO_VALUE_TEXT);
		break;
	case K_CHILDREN:
		/* no fast path: indexed reads */
		if (fn->count_ok && fn->n->child_count > 0)
			read_indexed(fn, 0, (size_t)fn->n->child_count);
		break;
	default:
		break;
	}
}

static void
on_attrs(struct job *job, struct cua_raw_node *n, GVariant *reply)
{
	if (atspi_decode_attrs(job->snap->arena, n, reply) < 0)
		job->oom = 1;
}

/* Actions: decoded in decode.c (shared with live.c); names the reply did
 * not give are read with GetName(i). */
static void
on_actions(struct fnode *fn, GVariant *reply)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;

	if (atspi_decode_actions(job->be, fn->bus, job->snap->arena, n,
	                         reply) < 0)
		job->oom = 1;
	for (size_t k = 0; k < n->n_actions; k++)
		if (!n->actions[k].name)
			call(fn, K_ACTION_NAME, (int)k, IF_ACTION, "GetName",
			     g_variant_new("(i)", (int32_t)k), "(s)");
}

static void
on_relations(struct req *r, GVariant *reply)
{
	struct fnode *fn = r->fn;
	GVariantIter *it, *targets;
	uint32_t type;
	const char *bus, *path;
	int found = 0;

	fn->n->have |= CUA_HAVE_RELATIONS;
	g_variant_get(reply, "(a(ua(so)))", &it);
	while (!found && g_variant_iter_next(it, "(ua(so))", &type, &targets)) {
		if (type == RELATION_LABELLED_BY &&
		    g_variant_iter_next(targets, "(&s&o)", &bus, &path) &&
		    !is_null_ref(path)) {
			struct req *q = new_req(fn, K_LABEL_NAME, 0);

			q->bus = tmp_strdup(fn->job, bus);
			q->path = tmp_strdup(fn->job, path);
			get_prop_on(fn, q, q->bus, q->path, IF_ACCESSIBLE,
			            "Name");
			found = 1;
		}
		g_variant_iter_free(targets);
	}
	g_variant_iter_free(it);
}

static void
on_children(struct fnode *fn, GVariant *reply)
{
	struct job *job = fn->job;
	GVariant *arr = g_variant_get_child_value(reply, 0);
	size_t len = g_variant_n_children(arr), i = 0;
	GVariantIter it;
	const char *bus, *path;

	if (!fn->count_ok || (int64_t)len != (int64_t)fn->n->child_count) {
		/* docs/state-text.md §11.5.1: ChildCount + GetChildAtIndex is
		 * canonical; GTK 4.8's GetChildren can disagree */
		cua_debug(job->be->base.ctx,
		          "atspi: %s: GetChildren has %zu, ChildCount %d",
		          fn->n->ident, len, fn->n->child_count);
		g_variant_unref(arr);
		if (fn->count_ok && fn->n->child_count > 0)
			read_indexed(fn, 0, (size_t)fn->n->child_count);
		return;
	}
	if (len > ATSPI_CHILDREN_MAX)
		len = ATSPI_CHILDREN_MAX;
	alloc_slots(fn, 0, len);
	g_variant_iter_init(&it, arr);
	while (i < len && g_variant_iter_next(&it, "(&s&o)", &bus, &path)) {
		if (!is_null_ref(path)) {
			fn->slots[i].bus = tmp_strdup(job, bus);
			fn->slots[i].path = tmp_strdup(job, path);
		}
		i++;
	}
	g_variant_unref(arr);
}

static int
same_object(const char *bus, const char *path, const struct fnode *fn)
{
	return strcmp(path, fn->path) == 0 && strcmp(bus, fn->bus) == 0;
}

/* A hit test (or one step up from it) answered with `bus`/`path`:
 * `from` is the object the step started at (NULL for the hit itself). */
static void
hit_step(struct req *r, const char *bus, const char *path)
{
	struct fnode *fn = r->fn;
	int which = r->aux & 3;
	int steps = r->aux >> 2;
	struct req *q;

	if (r->kind == K_HIT) {
		if (is_null_ref(path) || same_object(bus, path, fn))
			return; /* nothing there, or the container itself */
		q = new_req(fn, K_HIT_PARENT, which);
		q->bus = tmp_strdup(fn->job, bus);
		q->path = tmp_strdup(fn->job, path);
		get_prop_on(fn, q, q->bus, q->path, IF_ACCESSIBLE, "Parent");
		return;
	}
	/* K_HIT_PARENT: `bus`/`path` is the parent of r->bus/r->path */
	if (is_null_ref(path))
		return;
	if (same_object(bus, path, fn)) {
		q = new_req(fn, K_HIT_INDEX, which);
		call_on(fn, q, r->bus, r->path, IF_ACCESSIBLE,
		        "GetIndexInParent", NULL, "(i)");
		return;
	}
	if (steps + 1 >= HIT_MAX_STEPS)
		return;
	q = new_req(fn, K_HIT_PARENT, which | ((steps + 1) << 2));
	q->bus = tmp_strdup(fn->job, bus);
	q->path = tmp_strdup(fn->job, path);
	get_prop_on(fn, q, q->bus, q->path, IF_ACCESSIBLE, "Parent");
}

static void
on_success(struct req *r, GVariant *reply)
{
	struct fnode *fn = r->fn;
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;
	const char *s, *bus, *path;
	uint32_t u;
	int32_t i, j;
	GVariant *v;

	switch (r->kind) {
	case K_ROLE:
		g_variant_get(reply, "(u)", &u);
		n->role = u;
		fn->basic_ok |= B_ROLE;
		break;
	case K_STATE:
		n->states = atspi_decode_states(reply);
		fn->basic_ok |= B_STATE;
		break;
	case K_IFACES:
		n->ifaces = atspi_decode_ifaces(reply);
		fn->basic_ok |= B_IFACES;
		break;
	case K_NAME:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_STRING);
		if (v) {
			n->name =
			        clean_name(job, g_variant_get_string(v, NULL));
			g_variant_unref(v);
		}
		fn->basic_ok |= B_NAME;
		break;
	case K_EXTENTS:
		g_variant_get(reply, "((iiii))", &n->extents.x, &n->extents.y,
		              &n->extents.w, &n->extents.h);
		n->have |= CUA_HAVE_EXTENTS;
		if (r->aux == 1) {
			/* a ranged container's extents: now hit-test */
			if (is_hidden_geometry(n))
				n->have &= ~(uint32_t)CUA_HAVE_EXTENTS;
			start_hit_tests(fn);
		}
		break;
	case K_DESC:
		n->description = prop_string(job, reply, 1);
		n->have |= CUA_HAVE_DESCRIPTION;
		break;
	case K_ATTRS:
		on_attrs(job, n, reply);
		break;
	case K_ACTIONS:
		on_actions(fn, reply);
		break;
	case K_ACTION_NAME:
		g_variant_get(reply, "(&s)", &s);
		if ((size_t)r->aux < n->n_actions)
			n->actions[r->aux].name = sdup_nonempty(job, s);
		break;
	case K_VAL_CUR:
		if (prop_double(reply, &n->value))
			n->have |= CUA_HAVE_VALUE;
		break;
	case K_VAL_MIN:
		prop_double(reply, &n->value_min);
		break;
	case K_VAL_MAX:
		prop_double(reply, &n->value_max);
		break;
	case K_VAL_STEP:
		prop_double(reply, &n->value_step);
		break;
	case K_VAL_TEXT:
		n->value_text = prop_string(job, reply, 1);
		break;
	case K_TEXT_COUNT:
		if (!prop_int(reply, &i))
			break;
		if (i <= 0) {
			n->text = sdup(job, "");
			n->have |= CUA_HAVE_TEXT;
			break;
		}
		call(fn, K_TEXT_GET, 0, IF_TEXT, "GetText",
		     g_variant_new("(ii)", 0, MIN(i, TEXT_CAP)), "(s)");
		break;
	case K_TEXT_GET:
		g_variant_get(reply, "(&s)", &s);
		n->text = sdup(job, s);
		n->have |= CUA_HAVE_TEXT;
		break;
	case K_TSEL_N:
		g_variant_get(reply, "(i)", &fn->n_sel);
		break;
	case K_TSEL_GET:
		g_variant_get(reply, "(ii)", &i, &j);
		fn->sel_start = MIN(i, j);
		fn->sel_end = MAX(i, j);
		fn->sel_ok = 1;
		break;
	case K_RELSET:
		on_relations(r, reply);
		break;
	case K_LABEL_NAME:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_STRING);
		if (v) {
			n->labelled_by =
			        clean_name(job, g_variant_get_string(v, NULL));
			g_variant_unref(v);
		}
		break;
	case K_LINK:
		g_variant_get(reply, "(&s)", &s);
		n->link_uri = sdup_nonempty(job, s);
		n->have |= CUA_HAVE_LINK;
		break;
	case K_SELCHILD:
		g_variant_get(reply, "((&s&o))", &bus, &path);
		n->have |= CUA_HAVE_SELECTION;
		if (!is_null_ref(path)) {
			struct req *q = new_req(fn, K_SELCHILD_NAME, 0);

			q->bus = tmp_strdup(job, bus);
			q->path = tmp_strdup(job, path);
			get_prop_on(fn, q, q->bus, q->path, IF_ACCESSIBLE,
			            "Name");
		}
		break;
	case K_SELCHILD_NAME:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_STRING);
		if (v) {
			n->selected_child_name =
			        clean_name(job, g_variant_get_string(v, NULL));
			g_variant_unref(v);
		}
		break;
	case K_ID:
		n->accessible_id = prop_string(job, reply, 1);
		n->have |= CUA_HAVE_ID;
		break;
	case K_HELP:
		n->help = prop_string(job, reply, 1);
		n->have |= CUA_HAVE_HELP;
		break;
	case K_TABLE_ROW:
		g_variant_get(reply, "(i)", &n->table_row);
		n->have |= CUA_HAVE_TABLE_ROW;
		break;
	case K_TABLE_NROWS:
		if (prop_int(reply, &i)) {
			n->table_nrows = MAX(i, 0);
			n->have |= CUA_HAVE_TABLE_ROW;
		}
		break;
	case K_CHILD_COUNT:
		if (prop_int(reply, &i)) {
			n->child_count = MAX(i, 0);
			fn->count_ok = 1;
		}
		break;
	case K_CHILDREN:
		on_children(fn, reply);
		break;
	case K_CHILD_AT:
		g_variant_get(reply, "((&s&o))", &bus, &path);
		if (!is_null_ref(path) && (size_t)r->aux < fn->n_slots) {
			fn->slots[r->aux].bus = tmp_strdup(job, bus);
			fn->slots[r->aux].path = tmp_strdup(job, path);
		}
		break;
	case K_NCOLS:
		prop_int(reply, &fn->ncols);
		break;
	case K_HIT:
		g_variant_get(reply, "((&s&o))", &bus, &path);
		hit_step(r, bus, path);
		break;
	case K_HIT_PARENT:
		v = atspi_prop_value(reply, G_VARIANT_TYPE("(so)"));
		if (v) {
			g_variant_get(v, "(&s&o)", &bus, &path);
			hit_step(r, bus, path);
			g_variant_unref(v);
		}
		break;
	case K_HIT_INDEX:
		g_variant_get(reply, "(i)", &i);
		if (i >= 0 && i < n->child_count)
			fn->hit[r->aux & 3] = i;
		break;
	case K_MATCHES: {
		GVariantIter *it;

		g_variant_get(reply, "(a(so))", &it);
		if (g_variant_iter_next(it, "(&s&o)", &bus, &path) &&
		    !is_null_ref(path) &&
		    (!job->focus_ident || r->aux >= job->focus_root)) {
			job->focus_ident = make_ident(job, bus, path);
			job->focus_root = r->aux;
		}
		g_variant_iter_free(it);
		break;
	}
	}
}

static void
on_reply(struct dbatch *batch, GVariant *reply, const GError *error, void *data)
{
	struct req *r = data;
	struct fnode *fn = r->fn;
	struct job *job = fn->job;

	(void)batch;
	if (!reply && !job->gone && job->app_bus && is_gone_error(job, error) &&
	    strcmp(r->bus ? r->bus : fn->bus, job->app_bus) == 0) {
		/* the app quit or crashed: nothing more will answer */
		job->gone = 1;
		dbatch_cancel(job->batch);
		cua_debug(job->be->base.ctx, "atspi: %s left the bus: %s",
		          fn->bus, error->message);
	}
	if (reply) {
		job->n_ok++;
		job->last_ok_us = cua_now_us();
		on_success(r, reply);
	} else {
		if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT)) {
			job->n_timeouts++;
			/* nothing else came back for half a timeout either:
			 * the app is stopped or hung, so ask nothing more
			 * (one slow method alone does not stop the walk) */
			if (!job->hung &&
			    cua_now_us() - job->last_ok_us >=
			            (int64_t)job->timeout_ms * 500) {
				job->hung = 1;
				dbatch_cancel(job->batch);
				cua_debug(job->be->base.ctx,
				          "atspi: %s stopped answering",
				          fn->bus);
			}
		}
		on_error(r, error);
	}
	if (--fn->pending == 0)
		advance(fn);
}

/* ------------------------------------------------------------------ */
/* Jobs                                                                */

static void
job_init(struct job *job, struct atspi_be *be, struct cua_raw_snapshot *snap,
         int timeout_ms, int64_t deadline_us)
{
	memset(job, 0, sizeof(*job));
	job->be = be;
	job->snap = snap;
	job->tmp = cua_arena_new();
	job->seen = g_hash_table_new(g_str_hash, g_str_equal);
	job->batch = dbatch_new(be, timeout_ms, IN_FLIGHT, deadline_us);
	job->timeout_ms = timeout_ms > 0 ? timeout_ms : 1000;
	job->last_ok_us = cua_now_us();
	job->max_depth = 64;
	job->focus_root = -1;
}

static void
job_finish(struct job *job, int64_t t0)
{
	struct cua_raw_stats *st = &job->snap->stats;

	st->calls += dbatch_calls(job->batch);
	st->call_errors += dbatch_errors(job->batch);
	dbatch_free(job->batch);
	st->elapsed_us += (uint64_t)(cua_now_us() - t0);
	g_hash_table_destroy(job->seen);
	cua_arena_free(job->tmp);
}

static int
seconds_of(int64_t us)
{
	int s = (int)((us + 500000) / 1000000);

	return s < 1 ? 1 : s;
}

static cua_result
timeout_error(const char *who, int64_t waited_us)
{
	int s = seconds_of(waited_us);

	return cua_error_quoting(
	        CUA_ERROR_TIMEOUT, "The app '", who,
	        "' did not answer accessibility requests within %d second%s; it may be busy or hung.",
	        s, s == 1 ? "" : "s");
}

/* The app left the bus during the read (session.c words the message). */
static cua_result
gone_error(const char *who)
{
	return cua_error_quoting(CUA_ERROR_PROCESS_GONE, "The app '", who,
	                         "' quit while it was being read.");
}

#define ENVIRON_MAX (1024 * 1024)

static int
env_is(const char *v, size_t len, const char *s)
{
	return len == strlen(s) && memcmp(v, s, len) == 0;
}

/* "en", "en_GB.UTF-8", "en@boldquot" */
static int
env_is_english(const char *v, size_t len)
{
	return len >= 2 && v[0] == 'e' && v[1] == 'n' &&
	       (len == 2 || v[2] == '_' || v[2] == '.' || v[2] == '@' ||
	        v[2] == ':');
}

/* The value of `name` in an environment block, NULL when unset or empty. */
static const char *
env_get(const char *env, size_t len, const char *name, size_t *vlen)
{
	const char *v = procinfo_environ_find(env, len, name, vlen);

	return v && *vlen ? v : NULL;
}

/*
 * Whether the app shows untranslated (English) messages, from its
 * environment as gettext reads it: a C/POSIX or unset locale (LC_ALL, else
 * LC_MESSAGES, else LANG) never translates; otherwise LANGUAGE's first
 * entry, else the locale, names the language. Unknown counts as not
 * English (the raw action names are then read one by one).
 */
static int
app_is_english(int64_t pid)
{
	char path[64];
	char *env;
	ssize_t n, got = 0;
	size_t vlen, llen;
	const char *v, *lang;
	int fd, english = 0;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%" PRId64 "/environ", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	env = g_malloc(ENVIRON_MAX);
	while (got < ENVIRON_MAX &&
	       (n = read(fd, env + got, ENVIRON_MAX - got)) > 0)
		got += n;
	close(fd);
	if (got <= 0) {
		g_free(env);
		return 0;
	}
	v = env_get(env, (size_t)got, "LC_ALL", &vlen);
	if (!v)
		v = env_get(env, (size_t)got, "LC_MESSAGES", &vlen);
	if (!v)
		v = env_get(env, (size_t)got, "LANG", &vlen);
	if (!v || env_is(v, vlen, "C") || env_is(v, vlen, "POSIX") ||
	    (vlen > 2 && v[0] == 'C' && v[1] == '.')) {
		english = 1;
	} else {
		lang = env_get(env, (size_t)got, "LANGUAGE", &llen);
		english = lang ? env_is_english(lang, llen)
		               : env_is_english(v, vlen);
	}
	g_free(env);
	return english;
}

/* What the app's process and toolkit tell about its answers. */
static void
note_app(struct atspi_be *be, const struct cua_app_info *app)
{
	uint32_t caps = atspi_caps_of(be, app->bus_name);

	if (!(caps & (ATSPI_CAP_ACTIONS_RAW | ATSPI_CAP_ACTIONS_LOCALIZED)))
		atspi_caps_add(be, app->bus_name,
		         app_is_english(app->pid) ? ATSPI_CAP_ACTIONS_RAW
		                                  : ATSPI_CAP_ACTIONS_LOCALIZED);
	if (app->toolkit && g_ascii_strcasecmp(app->toolkit, "gtk") == 0 &&
	    app->toolkit_version && app->toolkit_version[0] == '4')
		atspi_caps_add(be, app->bus_name, CAP_WINDOW_COORDS);
}

cua_result
atspi_open_app(struct cua_backend *b, const struct cua_app_info *app,
               struct cua_raw_snapshot **out)
{
	struct atspi_be *be = (struct atspi_be *)b;
	const struct cua_options *opt = &b->ctx->opt;
	const char *who;
	struct cua_raw_snapshot *snap;
	struct cua_raw_node *an;
	struct cua_display_toplevel_query *tops;
	struct fnode *fn;
	struct job job;
	int64_t t0 = cua_now_us();
	int r, complete = 1;
	size_t i, answered = 0;

	*out = NULL;
	if (!app)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
		                 "open_app: no app");
	who = app->app_name;
	if (!who || !*who)
		who = app->exe_base;
	if (!who || !*who)
		who = app->bus_name ? app->bus_name : "?";
	if (!app->bus_name)
		return cua_err(CUA_MSG_NOT_ACCESSIBLE, { "name", who });
	snap = cua_raw_snapshot_new();
	if (!snap)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	note_app(be, app);

	job_init(&job, be, snap, opt->call_timeout_ms,
	         t0 + (int64_t)opt->walk_deadline_ms * 1000);
	job.open_mode = 1;
	job.app_bus = app->bus_name;
	an = cua_raw_node_new(snap);
	if (!an) {
		job_finish(&job, t0);
		cua_raw_snapshot_free(snap);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	snap->app = an;
	an->ident = make_ident(&job, app->bus_name, ROOT_PATH);
	fn = new_fnode(&job, an, tmp_strdup(&job, app->bus_name), ROOT_PATH,
	               -1);
	start_basic(fn);
	r = dbatch_run(job.batch);
	if (job.gone) {
		job_finish(&job, t0);
		cua_raw_snapshot_free(snap);
		return gone_error(who);
	}

	/* the app object must have answered; its toplevels too, unless
	 * the deadline cut the read short */
	if (r < 0 || !(an->have & CUA_HAVE_BASIC)) {
		int timed_out = r < 0 || job.n_timeouts > 0;
		int64_t waited = cua_now_us() - t0;

		job_finish(&job, t0);
		cua_raw_snapshot_free(snap);
		/* not the app: the bus went away under the read */
		if (atspi_bus_gone(be))
			return cua_err(CUA_MSG_ACCESSIBILITY_BUS_GONE);
		if (timed_out)
			return timeout_error(who, waited);
		return cua_error_quoting(
		        CUA_ERROR_STALE, "'", who,
		        "' no longer answers on the accessibility bus (%s)",
		        app->bus_name);
	}
	an->role = CUA_ROLE_APPLICATION;
	if (!an->name)
		an->name = sdup(&job, app->atspi_name);
	for (i = 0; i < an->n_children; i++) {
		struct cua_raw_node *t = an->children[i];

		if (!(t->have & CUA_HAVE_BASIC))
			complete = 0;
		else
			answered++;
		if ((t->have & CUA_HAVE_EXTENTS) &&
		    (!(t->ifaces & CUA_IFACE_COMPONENT) ||
		     is_hidden_geometry(t)))
			t->have &= ~(uint32_t)CUA_HAVE_EXTENTS;
	}
	/* no toplevel (or the list of them) answered in time: the app is
	 * too slow, not windowless, which is what the caller would
	 * conclude */
	if (answered == 0 && job.n_timeouts > 0) {
		int64_t waited = cua_now_us() - t0;

		job_finish(&job, t0);
		cua_raw_snapshot_free(snap);
		return timeout_error(who, waited);
	}
	if (!complete)
		cua_debug(b->ctx, "atspi: %s: some toplevels did not answer",
		          who);

	snap->windows = cua_arena_alloc(snap->arena,
	                                (an->n_children ? an->n_children : 1) *
	                                        sizeof(*snap->windows));
	if (!snap->windows)
		job.oom = 1;
	if (be->display->ops->match_toplevels && snap->windows &&
	    an->n_children) {
		tops = g_new0(struct cua_display_toplevel_query,
		              an->n_children);
		for (i = 0; i < an->n_children; i++) {
			const struct cua_raw_node *t = an->children[i];

			tops[i].name = t->name;
			tops[i].role = t->role;
			tops[i].extents = t->extents;
			tops[i].has_extents = (t->have & CUA_HAVE_EXTENTS) != 0;
		}
		be->display->ops->match_toplevels(be->display, app->pid, tops,
		                                  an->n_children, snap->windows,
		                                  snap->arena);
		for (i = 0; i < an->n_children; i++)
			an->children[i]->x11_window =
			        snap->windows[i].x11_window;
		g_free(tops);
	}
	job_finish(&job, t0);
	if (job.oom) {
		cua_raw_snapshot_free(snap);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	cua_debug(b->ctx,
	          "atspi: opened %s: %zu toplevels, %" G_GUINT64_FORMAT
	          " calls, %" G_GUINT64_FORMAT " us",
	          who, an->n_children, snap->stats.calls,
	          snap->stats.elapsed_us);
	*out = snap;
	return CUA_OK;
}

static struct cua_raw_node *
find_focused(struct cua_raw_node *n)
{
	struct cua_raw_node *f;

	if ((n->have & CUA_HAVE_BASIC) && CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return n;
	for (size_t i = 0; i < n->n_children; i++)
		if ((f = find_focused(n->children[i])))
			return f;
	return NULL;
}

/*
 * The focused node (docs/state-text.md §11.7). The walk usually has it already
 * (its state came in with this walk); otherwise one Collection.GetMatches
 * per root (state FOCUSED, count 1). A later root wins: popups come after
 * the window and hold the focus while they are open.
 */
static void
fetch_focus(struct job *job, struct cua_raw_node **roots, size_t n_roots,
            struct fnode **rfn)
{
	struct cua_raw_snapshot *snap = job->snap;
	struct cua_raw_node *focus = NULL;
	struct fnode *fn;
	size_t i;
	int asked = 0;

	for (i = n_roots; i-- > 0 && !focus;)
		focus = find_focused(roots[i]);
	if (!focus && !job->huge_seen) {
		for (i = 0; i < n_roots; i++) {
			if (!rfn[i] ||
			    !(roots[i]->ifaces & CUA_IFACE_COLLECTION))
				continue;
			call(rfn[i], K_MATCHES, (int)i, IF_COLLECTION,
			     "GetMatches",
			     g_variant_new(
			             "((@aii@a{ss}i@aii@asib)uib)",
			             g_variant_new_fixed_array(
			                     G_VARIANT_TYPE_INT32,
			                     (int32_t[]){
			                             1 << CUA_STATE_FOCUSED,
			                             0 },
			                     2, sizeof(int32_t)),
			             MATCH_ALL,
			             g_variant_new_array(G_VARIANT_TYPE("{ss}"),
			                                 NULL, 0),
			             MATCH_ALL,
			             g_variant_new_fixed_array(
			                     G_VARIANT_TYPE_INT32,
			                     (int32_t[]){ 0, 0, 0, 0 }, 4,
			                     sizeof(int32_t)),
			             MATCH_ALL,
			             g_variant_new_array(G_VARIANT_TYPE_STRING,
			                                 NULL, 0),
			             MATCH_ALL, FALSE, SORT_CANONICAL, 1, TRUE),
			     "(a(so))");
			asked = 1;
		}
		if (asked && dbatch_run(job->batch) < 0)
			return;
		if (job->focus_ident) {
			snap->focused_ident = job->focus_ident;
			fn = g_hash_table_lookup(job->seen, job->focus_ident);
			if (fn && (fn->n->have & CUA_HAVE_BASIC))
				focus = fn->n;
		}
	}
	if (!focus)
		return;
	snap->focused = focus;
	snap->focused_ident = focus->ident;

	/* its text selection (the trailer's selected text,
	 * docs/state-text.md §8.2) */
	fn = g_hash_table_lookup(job->seen, focus->ident);
	if (!fn || fn->n != focus || !(focus->ifaces & CUA_IFACE_TEXT) ||
	    (focus->have & CUA_HAVE_TEXT_SELECTION))
		return;
	fn->want |= CUA_HAVE_TEXT_SELECTION;
	fn->n_sel = -1;
	fn->sel_ok = 0;
	call(fn, K_TSEL_N, 0, IF_TEXT, "GetNSelections", NULL, "(i)");
	call(fn, K_TSEL_GET, 0, IF_TEXT, "GetSelection",
	     g_variant_new("(i)", 0), "(ii)");
	if (dbatch_run(job->batch) == 0)
		finish_details(fn);
}

cua_result
atspi_fetch(struct cua_backend *b, struct cua_raw_snapshot *snap,
            struct cua_raw_node **roots, size_t n_roots,
            const struct cua_fetch_policy *policy)
{
	struct atspi_be *be = (struct atspi_be *)b;
	const char *who, *bus, *path;
	struct fnode **rfn;
	struct job job;
	int64_t t0 = cua_now_us();
	uint64_t calls;
	int r, answered;
	size_t i;

	if (!snap || !policy || (n_roots && !roots))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
		                 "fetch: missing snapshot, roots or policy");
	who = snap->app && snap->app->name ? snap->app->name : "?";

	job_init(&job, be, snap,
	         policy->call_timeout_ms > 0 ? policy->call_timeout_ms
	                                     : b->ctx->opt.call_timeout_ms,
	         policy->deadline_us);
	job.pol = policy;
	if (policy->max_raw_depth > 0)
		job.max_depth = policy->max_raw_depth;
	job.max_nodes = policy->max_nodes;
	job.range_threshold =
	        policy->range_threshold > 0 ? policy->range_threshold : 200;
	job.range_list_threshold = policy->range_list_threshold > 0
	                                   ? policy->range_list_threshold
	                                   : 20;

	/* the app's own socket, when it has one (libatspi does the same);
	 * its first question also tells whether the app answers at all */
	if (n_roots && roots[0] &&
	    split_ident(&job, roots[0]->ident, &bus, &path)) {
		int64_t left = policy->deadline_us ? policy->deadline_us - t0
		                                   : INT64_MAX;
		int ms = (int)MIN((int64_t)job.timeout_ms, left / 1000);
		int timed_out = 0;
		GDBusConnection *peer = NULL;

		job.app_bus = bus;
		if (ms > 0)
			peer = atspi_peer_connect(
			        be, bus, ms, &snap->stats.calls, &timed_out);
		if (peer) {
			/* the batch keeps it and closes it when freed */
			dbatch_set_peer(job.batch, bus, peer);
			g_object_unref(peer);
		}
		if (timed_out) {
			job_finish(&job, t0);
			snap->stats.deadline_hit = 1;
			return timeout_error(who, cua_now_us() - t0);
		}
	}
	rfn = g_new0(struct fnode *, n_roots ? n_roots : 1);
	for (i = 0; i < n_roots; i++) {
		if (!roots[i] ||
		    !split_ident(&job, roots[i]->ident, &bus, &path))
			continue;
		rfn[i] = new_fnode(&job, roots[i], bus, path, 0);
	}
	/* started after all roots are known, so that a root reached again
	 * from another one is treated as a duplicate */
	for (i = 0; i < n_roots; i++)
		if (rfn[i])
			start_details(rfn[i]);
	r = dbatch_run(job.batch);
	/* a hung app cut the walk short just like the deadline */
	if (r < 0 || job.hung)
		snap->stats.deadline_hit = 1;
	else
		fetch_focus(&job, roots, n_roots, rfn); /* the tree is whole
		                                         * even if this fails */
	if (job.node_cap_hit)
		snap->stats.node_cap_hit = 1;
	answered = job.n_ok > 0;
	calls = dbatch_calls(job.batch);
	job_finish(&job, t0);
	g_free(rfn);

	if (job.oom)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (job.gone) /* what was read is a torn part of the tree */
		return gone_error(who);
	if (!answered && calls > 0 && atspi_bus_gone(be))
		return cua_err(CUA_MSG_ACCESSIBILITY_BUS_GONE);
	if (!answered && calls > 0 && (r < 0 || job.hung || job.n_timeouts > 0))
		return timeout_error(who, cua_now_us() - t0);
	cua_debug(b->ctx,
	          "atspi: fetched %s: %" G_GUINT64_FORMAT
	          " nodes, %" G_GUINT64_FORMAT " calls (%" G_GUINT64_FORMAT
	          " failed), %" G_GUINT64_FORMAT " us%s%s",
	          who, snap->stats.nodes, snap->stats.calls,
	          snap->stats.call_errors, snap->stats.elapsed_us,
	          snap->stats.deadline_hit ? ", deadline hit" : "",
	          snap->stats.node_cap_hit ? ", node cap hit" : "");
	return CUA_OK;
}
