/*
 * Live access for actions (backend.h "Acting"): re-reading objects and
 * their children for re-resolution (docs/identity.md §4), and the one-object
 * requests the action ladders use (docs/actions.md §3–§10).
 *
 * Reads are pipelined like the walk's (dbus.c batches): every node first
 * answers its basic calls (GetRole, GetState, GetInterfaces, Name,
 * ChildCount), then the detail calls its interfaces allow, so an object is
 * never asked for an interface it does not have (unusual calls crash Qt
 * and Chromium, docs/toolkits.md §1.4). Children are read by the walk's rule
 * (docs/state-text.md §11.5.1): ChildCount + GetChildAtIndex is canonical,
 * GetChildren is used only when its length equals ChildCount.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "atspi.h"
#include "core/sanitize.h"

#define NULL_PATH "/org/a11y/atspi/null"
#define IF_ACCESSIBLE "org.a11y.atspi.Accessible"
#define IF_ACTION "org.a11y.atspi.Action"
#define IF_COLLECTION "org.a11y.atspi.Collection"
#define IF_COMPONENT "org.a11y.atspi.Component"
#define IF_EDITABLE "org.a11y.atspi.EditableText"
#define IF_SELECTION "org.a11y.atspi.Selection"
#define IF_TABLE "org.a11y.atspi.Table"
#define IF_TEXT "org.a11y.atspi.Text"
#define IF_VALUE "org.a11y.atspi.Value"
#define IF_PROPS "org.freedesktop.DBus.Properties"

#define COORD_SCREEN 0u
#define SCROLL_ANYWHERE 6u /* ATSPI_SCROLL_ANYWHERE */
#define MATCH_ALL 1
#define SORT_CANONICAL 1u
#define TEXT_CAP 100000
#define IN_FLIGHT 128

enum lkind {
	L_ROLE,
	L_STATE,
	L_IFACES,
	L_NAME,
	L_COUNT,
	L_ATTRS,
	L_ID,
	L_DESC,
	L_EXTENTS,
	L_ACTIONS,
	L_VAL_CUR,
	L_VAL_MIN,
	L_VAL_MAX,
	L_VAL_STEP,
	L_TEXT_COUNT,
	L_TEXT_GET,
	L_TSEL_N,
	L_TSEL_GET,
	L_CHILDREN,
	L_CHILD_AT,
	L_ACT_NAME,
};

struct lnode;

struct ljob {
	struct atspi_be *be;
	struct cua_raw_snapshot *snap;
	struct dbatch *batch;
	uint32_t want;
	int oom;
	uint64_t n_ok, n_timeouts;
};

struct lnode {
	struct ljob *job;
	struct cua_raw_node *n;
	char *bus;
	const char *path;
	int pending;
	int stage;     /* 0 basic, 1 details, 2 children refs, 3 done */
	int read_kids; /* read children after the basics */
	uint32_t first, count;
	int count_ok;
	uint32_t basic_ok; /* 1: role answered, 2: state answered */
	int32_t n_sel, sel_a, sel_b;
	int sel_ok;
	/* children being read */
	char **kid_bus;
	char **kid_path;
	size_t n_kids;
};

struct lreq {
	struct lnode *ln;
	enum lkind kind;
	int aux;
};

static void
lreply(struct dbatch *batch, GVariant *reply, const GError *error, void *data);
static void
ladvance(struct lnode *ln);

static int
split(const char *ident, char **bus, const char **path)
{
	const char *slash = ident ? strchr(ident, '/') : NULL;

	if (!slash || slash == ident || slash[-1] != ':')
		return -1;
	*bus = g_strndup(ident, (gsize)(slash - ident - 1));
	*path = slash;
	return 0;
}

static char *
join_ident(const char *bus, const char *path)
{
	return g_strdup_printf("%s:%s", bus, path);
}

static int
is_null_path(const char *path)
{
	return !path || strcmp(path, NULL_PATH) == 0;
}

static const char *
adup(struct ljob *job, const char *s)
{
	char *r;

	if (!s)
		return NULL;
	r = atspi_strdup_capped(job->snap->arena, s); /* 1 MiB */
	if (!r)
		job->oom = 1;
	return r;
}

static void
lcall(struct lnode *ln, enum lkind kind, int aux, const char *iface,
      const char *method, GVariant *args, const char *reply_type)
{
	struct lreq *r = g_new0(struct lreq, 1);

	r->ln = ln;
	r->kind = kind;
	r->aux = aux;
	ln->pending++;
	dbatch_call(ln->job->batch, ln->bus, ln->path, iface, method, args,
		    G_VARIANT_TYPE(reply_type), lreply, r);
}

static void
lprop(struct lnode *ln, enum lkind kind, const char *iface, const char *prop)
{
	struct lreq *r = g_new0(struct lreq, 1);

	r->ln = ln;
	r->kind = kind;
	ln->pending++;
	dbatch_get_property(ln->job->batch, ln->bus, ln->path, iface, prop,
			    lreply, r);
}

static struct lnode *
lnode_new(struct ljob *job, struct cua_raw_node *n)
{
	struct lnode *ln = g_new0(struct lnode, 1);

	ln->job = job;
	ln->n = n;
	ln->n_sel = -1;
	if (split(n->ident, &ln->bus, &ln->path) < 0) {
		ln->stage = 3;
		return ln;
	}
	return ln;
}

static void
lnode_free(struct lnode *ln)
{
	if (!ln)
		return;
	for (size_t i = 0; i < ln->n_kids; i++) {
		g_free(ln->kid_bus[i]);
		g_free(ln->kid_path[i]);
	}
	g_free(ln->kid_bus);
	g_free(ln->kid_path);
	g_free(ln->bus);
	g_free(ln);
}

static void
start_basic(struct lnode *ln)
{
	if (ln->stage == 3)
		return;
	ln->stage = 0;
	lcall(ln, L_ROLE, 0, IF_ACCESSIBLE, "GetRole", NULL, "(u)");
	lcall(ln, L_STATE, 0, IF_ACCESSIBLE, "GetState", NULL, "(au)");
	lcall(ln, L_IFACES, 0, IF_ACCESSIBLE, "GetInterfaces", NULL, "(as)");
	lprop(ln, L_NAME, IF_ACCESSIBLE, "Name");
	lprop(ln, L_COUNT, IF_ACCESSIBLE, "ChildCount");
}

static void
start_details(struct lnode *ln)
{
	struct cua_raw_node *n = ln->n;
	uint32_t want = ln->job->want;
	uint32_t caps = atspi_caps_of(ln->job->be, ln->bus);

	ln->stage = 1;
	if (!(n->have & CUA_HAVE_BASIC) || CUA_HAS_STATE(n, CUA_STATE_DEFUNCT))
		want = 0;
	if (want & CUA_HAVE_ATTRIBUTES)
		lcall(ln, L_ATTRS, 0, IF_ACCESSIBLE, "GetAttributes", NULL,
		      "(a{ss})");
	if ((want & CUA_HAVE_ID) && !(caps & ATSPI_CAP_NO_ACCESSIBLE_ID))
		lprop(ln, L_ID, IF_ACCESSIBLE, "AccessibleId");
	if (want & CUA_HAVE_DESCRIPTION)
		lprop(ln, L_DESC, IF_ACCESSIBLE, "Description");
	if ((want & CUA_HAVE_EXTENTS) && (n->ifaces & CUA_IFACE_COMPONENT))
		lcall(ln, L_EXTENTS, 0, IF_COMPONENT, "GetExtents",
		      g_variant_new("(u)", COORD_SCREEN), "((iiii))");
	if ((want & CUA_HAVE_ACTIONS) && (n->ifaces & CUA_IFACE_ACTION))
		lcall(ln, L_ACTIONS, 0, IF_ACTION, "GetActions", NULL,
		      "(a(sss))");
	if ((want & CUA_HAVE_VALUE) && (n->ifaces & CUA_IFACE_VALUE)) {
		lprop(ln, L_VAL_CUR, IF_VALUE, "CurrentValue");
		lprop(ln, L_VAL_MIN, IF_VALUE, "MinimumValue");
		lprop(ln, L_VAL_MAX, IF_VALUE, "MaximumValue");
		lprop(ln, L_VAL_STEP, IF_VALUE, "MinimumIncrement");
	}
	if ((want & CUA_HAVE_TEXT) && (n->ifaces & CUA_IFACE_TEXT))
		lprop(ln, L_TEXT_COUNT, IF_TEXT, "CharacterCount");
	if ((want & CUA_HAVE_TEXT_SELECTION) && (n->ifaces & CUA_IFACE_TEXT)) {
		lcall(ln, L_TSEL_N, 0, IF_TEXT, "GetNSelections", NULL, "(i)");
		lcall(ln, L_TSEL_GET, 0, IF_TEXT, "GetSelection",
		      g_variant_new("(i)", 0), "(ii)");
	}
	if (ln->pending == 0)
		ladvance(ln);
}

static void
start_children(struct lnode *ln)
{
	struct cua_raw_node *n = ln->n;
	int64_t total = n->child_count, last;

	ln->stage = 2;
	if (!(n->have & CUA_HAVE_BASIC) || !ln->count_ok ||
	    CUA_HAS_STATE(n, CUA_STATE_DEFUNCT)) {
		ladvance(ln);
		return;
	}
	n->have |= CUA_HAVE_CHILDREN;
	n->child_offset = ln->first;
	if ((int64_t)ln->first >= total) {
		ladvance(ln);
		return;
	}
	last = ln->count == UINT32_MAX ?
		       total - 1 :
		       MIN(total - 1, (int64_t)ln->first + ln->count - 1);
	/* "all children" of a node whose ChildCount grew to 2^31 - 1 since
	 * it was observed (a hostile app) must not mean 2^31 slots and
	 * calls: read at most ATSPI_CHILDREN_MAX of them */
	if (last - (int64_t)ln->first + 1 > ATSPI_CHILDREN_MAX)
		last = (int64_t)ln->first + ATSPI_CHILDREN_MAX - 1;
	ln->n_kids = (size_t)(last - ln->first + 1);
	ln->kid_bus = g_new0(char *, ln->n_kids);
	ln->kid_path = g_new0(char *, ln->n_kids);
	if (ln->first == 0 && (int64_t)ln->n_kids == total)
		lcall(ln, L_CHILDREN, 0, IF_ACCESSIBLE, "GetChildren", NULL,
		      "(a(so))");
	else
		for (size_t i = 0; i < ln->n_kids; i++)
			lcall(ln, L_CHILD_AT, (int)i, IF_ACCESSIBLE,
			      "GetChildAtIndex",
			      g_variant_new("(i)", (int32_t)(ln->first + i)),
			      "((so))");
	if (ln->pending == 0)
		ladvance(ln);
}

/* The children refs are in: create the child nodes and read them. */
static void
make_children(struct lnode *ln)
{
	struct ljob *job = ln->job;
	struct cua_raw_node *n = ln->n;
	size_t k = 0;

	/* a failed GetChildAtIndex ends the (contiguous) list */
	while (k < ln->n_kids && ln->kid_path[k])
		k++;
	n->children = cua_arena_alloc(job->snap->arena,
				      (k ? k : 1) * sizeof(*n->children));
	if (!n->children) {
		job->oom = 1;
		return;
	}
	for (size_t i = 0; i < k; i++) {
		struct cua_raw_node *c = cua_raw_node_new(job->snap);
		char *id;
		struct lnode *cl;

		if (!c) {
			job->oom = 1;
			return;
		}
		id = join_ident(ln->kid_bus[i], ln->kid_path[i]);
		c->ident = adup(job, id);
		g_free(id);
		c->parent = n;
		c->index_in_parent = (int32_t)(ln->first + i);
		n->children[i] = c;
		n->n_children = i + 1;
		cl = lnode_new(job, c);
		start_basic(cl);
		if (cl->stage == 3)
			lnode_free(cl);
	}
	if ((int64_t)(ln->first + n->n_children) < n->child_count ||
	    ln->first > 0)
		n->children_partial = 1;
}

static void
ladvance(struct lnode *ln)
{
	switch (ln->stage) {
	case 0:
		if (ln->read_kids && (ln->n->have & CUA_HAVE_BASIC)) {
			start_children(ln);
			return;
		}
		start_details(ln);
		return;
	case 1:
		if (ln->job->want & CUA_HAVE_TEXT_SELECTION) {
			if (ln->n_sel > 0 && ln->sel_ok) {
				ln->n->sel_start = MIN(ln->sel_a, ln->sel_b);
				ln->n->sel_end = MAX(ln->sel_a, ln->sel_b);
				ln->n->have |= CUA_HAVE_TEXT_SELECTION;
			} else if (ln->n_sel == 0) {
				ln->n->sel_start = ln->n->sel_end = -1;
				ln->n->have |= CUA_HAVE_TEXT_SELECTION;
			}
		}
		ln->stage = 3;
		lnode_free(ln);
		return;
	case 2:
		make_children(ln);
		ln->stage = 3;
		lnode_free(ln);
		return;
	default:
		return;
	}
}

static void
on_attrs(struct ljob *job, struct cua_raw_node *n, GVariant *reply)
{
	if (atspi_decode_attrs(job->snap->arena, n, reply) < 0)
		job->oom = 1;
}

static void
lcall(struct lnode *ln, enum lkind kind, int aux, const char *iface,
      const char *method, GVariant *args, const char *reply_type);

/* Actions: decoded exactly as the walk decodes them (decode.c); names the
 * reply did not give are read with GetName(i). */
static void
on_actions(struct lnode *ln, struct cua_raw_node *n, GVariant *reply)
{
	struct ljob *job = ln->job;

	if (atspi_decode_actions(job->be, ln->bus, job->snap->arena, n, reply) <
	    0)
		job->oom = 1;
	for (size_t k = 0; k < n->n_actions; k++)
		if (!n->actions[k].name)
			lcall(ln, L_ACT_NAME, (int)k, IF_ACTION, "GetName",
			      g_variant_new("(i)", (int32_t)k), "(s)");
}

static void
on_success(struct lreq *r, GVariant *reply)
{
	struct lnode *ln = r->ln;
	struct ljob *job = ln->job;
	struct cua_raw_node *n = ln->n;
	GVariant *v;
	const char *s, *bus, *path;
	uint32_t u;
	int32_t i, j;

	switch (r->kind) {
	case L_ROLE:
		g_variant_get(reply, "(u)", &u);
		n->role = u;
		ln->basic_ok |= 1;
		break;
	case L_STATE:
		n->states = atspi_decode_states(reply);
		ln->basic_ok |= 2;
		break;
	case L_IFACES:
		n->ifaces = atspi_decode_ifaces(reply);
		break;
	case L_NAME:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_STRING);
		if (v) {
			s = g_variant_get_string(v, NULL);
			n->name = (*s && !atspi_is_gtype_name(s)) ?
					  adup(job, s) :
					  NULL;
			g_variant_unref(v);
		}
		break;
	case L_COUNT:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_INT32);
		if (v) {
			n->child_count = MAX(g_variant_get_int32(v), 0);
			ln->count_ok = 1;
			g_variant_unref(v);
		}
		break;
	case L_ATTRS:
		on_attrs(job, n, reply);
		break;
	case L_ID:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_STRING);
		if (v) {
			s = g_variant_get_string(v, NULL);
			n->accessible_id = *s ? adup(job, s) : NULL;
			n->have |= CUA_HAVE_ID;
			g_variant_unref(v);
		}
		break;
	case L_DESC:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_STRING);
		if (v) {
			s = g_variant_get_string(v, NULL);
			n->description = *s ? adup(job, s) : NULL;
			n->have |= CUA_HAVE_DESCRIPTION;
			g_variant_unref(v);
		}
		break;
	case L_EXTENTS:
		g_variant_get(reply, "((iiii))", &n->extents.x, &n->extents.y,
			      &n->extents.w, &n->extents.h);
		if (n->extents.x != INT32_MIN && n->extents.y != INT32_MIN)
			n->have |= CUA_HAVE_EXTENTS;
		break;
	case L_ACTIONS:
		on_actions(ln, n, reply);
		break;
	case L_ACT_NAME:
		g_variant_get(reply, "(&s)", &s);
		if (*s && (size_t)r->aux < n->n_actions)
			n->actions[r->aux].name = adup(job, s);
		break;
	case L_VAL_CUR:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_DOUBLE);
		if (v) {
			n->value = g_variant_get_double(v);
			n->have |= CUA_HAVE_VALUE;
			g_variant_unref(v);
		}
		break;
	case L_VAL_MIN:
	case L_VAL_MAX:
	case L_VAL_STEP:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_DOUBLE);
		if (v) {
			double d = g_variant_get_double(v);

			if (r->kind == L_VAL_MIN)
				n->value_min = d;
			else if (r->kind == L_VAL_MAX)
				n->value_max = d;
			else
				n->value_step = d;
			g_variant_unref(v);
		}
		break;
	case L_TEXT_COUNT:
		v = atspi_prop_value(reply, G_VARIANT_TYPE_INT32);
		if (!v)
			break;
		i = g_variant_get_int32(v);
		g_variant_unref(v);
		if (i <= 0) {
			n->text = adup(job, "");
			n->have |= CUA_HAVE_TEXT;
			break;
		}
		lcall(ln, L_TEXT_GET, 0, IF_TEXT, "GetText",
		      g_variant_new("(ii)", 0, MIN(i, TEXT_CAP)), "(s)");
		break;
	case L_TEXT_GET:
		g_variant_get(reply, "(&s)", &s);
		n->text = adup(job, s);
		n->have |= CUA_HAVE_TEXT;
		break;
	case L_TSEL_N:
		g_variant_get(reply, "(i)", &ln->n_sel);
		break;
	case L_TSEL_GET:
		g_variant_get(reply, "(ii)", &i, &j);
		ln->sel_a = i;
		ln->sel_b = j;
		ln->sel_ok = 1;
		break;
	case L_CHILDREN: {
		GVariant *arr = g_variant_get_child_value(reply, 0);
		size_t len = g_variant_n_children(arr), x = 0;
		GVariantIter ai;

		if ((int64_t)len != n->child_count) {
			/* docs/state-text.md §11.5.1: indexed reads are
			 * canonical */
			g_variant_unref(arr);
			for (size_t q = 0; q < ln->n_kids; q++)
				lcall(ln, L_CHILD_AT, (int)q, IF_ACCESSIBLE,
				      "GetChildAtIndex",
				      g_variant_new("(i)",
						    (int32_t)(ln->first + q)),
				      "((so))");
			break;
		}
		g_variant_iter_init(&ai, arr);
		while (x < ln->n_kids &&
		       g_variant_iter_next(&ai, "(&s&o)", &bus, &path)) {
			if (!is_null_path(path)) {
				ln->kid_bus[x] = g_strdup(bus);
				ln->kid_path[x] = g_strdup(path);
			}
			x++;
		}
		g_variant_unref(arr);
		break;
	}
	case L_CHILD_AT:
		g_variant_get(reply, "((&s&o))", &bus, &path);
		if (!is_null_path(path) && (size_t)r->aux < ln->n_kids) {
			ln->kid_bus[r->aux] = g_strdup(bus);
			ln->kid_path[r->aux] = g_strdup(path);
		}
		break;
	}
}

static void
on_failure(struct lreq *r, const GError *error)
{
	struct lnode *ln = r->ln;

	if (r->kind == L_CHILDREN) {
		for (size_t q = 0; q < ln->n_kids; q++)
			lcall(ln, L_CHILD_AT, (int)q, IF_ACCESSIBLE,
			      "GetChildAtIndex",
			      g_variant_new("(i)", (int32_t)(ln->first + q)),
			      "((so))");
	}
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
		ln->job->n_timeouts++;
}

static void
lreply(struct dbatch *batch, GVariant *reply, const GError *error, void *data)
{
	struct lreq *r = data;
	struct lnode *ln = r->ln;

	(void)batch;
	if (reply) {
		ln->job->n_ok++;
		on_success(r, reply);
	} else {
		on_failure(r, error);
	}
	g_free(r);
	if (--ln->pending == 0) {
		if (ln->stage == 0 && ln->basic_ok == 3)
			ln->n->have |= CUA_HAVE_BASIC;
		ladvance(ln);
	}
}

static cua_result
run_job(struct ljob *job, struct atspi_be *be, int64_t t0)
{
	int r = dbatch_run(job->batch);

	job->snap->stats.calls += dbatch_calls(job->batch);
	job->snap->stats.call_errors += dbatch_errors(job->batch);
	dbatch_free(job->batch);
	job->snap->stats.elapsed_us += (uint64_t)(cua_now_us() - t0);
	if (job->oom)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	/* nothing answered because the bus went away under the read: not
	 * a stale element */
	if (job->n_ok == 0 && atspi_bus_gone(be))
		return cua_err(CUA_MSG_ACCESSIBILITY_BUS_GONE);
	if (job->n_ok == 0 && (r < 0 || job->n_timeouts))
		return cua_error(
			CUA_ERROR_TIMEOUT,
			"the app did not answer accessibility requests in time");
	return CUA_OK;
}

static int
deadline_ms(struct atspi_be *be)
{
	int ms = be->base.ctx->opt.walk_deadline_ms;

	return ms > 0 ? ms : 5000;
}

static int
call_ms(struct atspi_be *be)
{
	int ms = be->base.ctx->opt.call_timeout_ms;

	return ms > 0 ? ms : 1000;
}

cua_result
atspi_read_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
		 struct cua_raw_node **nodes, size_t n, uint32_t want)
{
	struct atspi_be *be = (struct atspi_be *)b;
	struct ljob job;
	int64_t t0 = cua_now_us();

	memset(&job, 0, sizeof(job));
	job.be = be;
	job.snap = snap;
	job.want = want & ~(uint32_t)CUA_HAVE_CHILDREN;
	job.batch = dbatch_new(be, call_ms(be), IN_FLIGHT,
			       t0 + (int64_t)deadline_ms(be) * 1000);
	for (size_t i = 0; i < n; i++) {
		struct lnode *ln = lnode_new(&job, nodes[i]);

		nodes[i]->have &= ~(uint32_t)CUA_HAVE_BASIC;
		start_basic(ln);
		if (ln->stage == 3)
			lnode_free(ln);
	}
	return run_job(&job, be, t0);
}

cua_result
atspi_read_children(struct cua_backend *b, struct cua_raw_snapshot *snap,
		    struct cua_raw_node **parents, size_t n, uint32_t first,
		    uint32_t count, uint32_t want)
{
	struct atspi_be *be = (struct atspi_be *)b;
	struct ljob job;
	int64_t t0 = cua_now_us();

	memset(&job, 0, sizeof(job));
	job.be = be;
	job.snap = snap;
	job.want = want & ~(uint32_t)CUA_HAVE_CHILDREN;
	job.batch = dbatch_new(be, call_ms(be), IN_FLIGHT,
			       t0 + (int64_t)deadline_ms(be) * 1000);
	for (size_t i = 0; i < n; i++) {
		struct lnode *ln = lnode_new(&job, parents[i]);
		struct cua_raw_node *p = parents[i];

		p->children = NULL;
		p->n_children = 0;
		p->children_partial = 0;
		p->have &= ~(uint32_t)(CUA_HAVE_CHILDREN | CUA_HAVE_BASIC);
		ln->read_kids = 1;
		ln->first = first;
		ln->count = count;
		start_basic(ln);
		if (ln->stage == 3)
			lnode_free(ln);
	}
	return run_job(&job, be, t0);
}

/* ------------------------------------------------------------------ */
/* One-object requests                                                 */

/* "<what>: <middle><the error's text>": an error reply's text comes from
 * the app, so it is sanitised like any string the app controls. */
static cua_result
gerror_message(cua_result code, const char *what, const char *middle,
	       const GError *e)
{
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	sb_addf(&sb, "%s: %s", what, middle);
	r = cua_error_quoting(code, sb_str(&sb), e->message, "%s", "");
	sb_free(&sb);
	return r;
}

static cua_result
gerror_result(const GError *e, const char *what)
{
	if (g_error_matches(e, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
		return cua_error(CUA_ERROR_TIMEOUT, "%s: no answer in time",
				 what);
	if (g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
	    g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_INTERFACE) ||
	    g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED))
		return gerror_message(CUA_ERROR_UNSUPPORTED, what, "", e);
	/* the app quit or crashed: NoReply for the call in flight when it
	 * left the bus, ServiceUnknown / NameHasNoOwner for calls after (a
	 * closed connection here is the bus itself, not the app) */
	if (g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
	    g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	    g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
		return gerror_message(CUA_ERROR_PROCESS_GONE, what,
				      "the app left the bus: ", e);
	if (g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT))
		return gerror_message(CUA_ERROR_STALE, what, "", e);
	return gerror_message(CUA_ERROR_BACKEND, what, "", e);
}

static GVariant *
sync_call(struct atspi_be *be, const char *bus, const char *path,
	  const char *iface, const char *method, GVariant *args,
	  const char *reply_type, cua_result *res)
{
	GError *e = NULL;
	GVariant *r;

	r = atspi_call_sync(be, bus, path, iface, method, args,
			    reply_type ? G_VARIANT_TYPE(reply_type) : NULL,
			    call_ms(be), &e);
	if (!r) {
		*res = gerror_result(e, method);
		g_error_free(e);
		return NULL;
	}
	*res = CUA_OK;
	return r;
}

static cua_result
bool_call(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	  const char *path, const char *iface, const char *method,
	  GVariant *args)
{
	cua_result res;
	GVariant *r =
		sync_call(be, bus, path, iface, method, args, "(b)", &res);
	gboolean ok = FALSE;

	if (!r)
		return res;
	g_variant_get(r, "(b)", &ok);
	g_variant_unref(r);
	c->ok = ok ? 1 : 0;
	return CUA_OK;
}

static cua_result
ref_call(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	 const char *path, const char *iface, const char *method,
	 GVariant *args)
{
	cua_result res;
	GVariant *r =
		sync_call(be, bus, path, iface, method, args, "((so))", &res);
	const char *rb, *rp;

	if (!r)
		return res;
	g_variant_get(r, "((&s&o))", &rb, &rp);
	c->ret_ident = is_null_path(rp) ? NULL : join_ident(rb, rp);
	c->ok = c->ret_ident != NULL;
	g_variant_unref(r);
	return CUA_OK;
}

static cua_result
int_array_call(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	       const char *path, const char *iface, const char *method)
{
	cua_result res;
	GVariant *r =
		sync_call(be, bus, path, iface, method, NULL, "(ai)", &res);
	GVariant *arr;
	const int32_t *v;
	gsize n = 0;

	if (!r)
		return res;
	arr = g_variant_get_child_value(r, 0);
	v = g_variant_get_fixed_array(arr, &n, sizeof(int32_t));
	c->ret_ints = n ? malloc(n * sizeof(int32_t)) : NULL;
	if (c->ret_ints)
		memcpy(c->ret_ints, v, n * sizeof(int32_t));
	c->n_ret_ints = c->ret_ints ? n : 0;
	c->ok = 1;
	g_variant_unref(arr);
	g_variant_unref(r);
	return CUA_OK;
}

static GVariant *
get_prop(struct atspi_be *be, const char *bus, const char *path,
	 const char *iface, const char *prop, const GVariantType *t,
	 cua_result *res)
{
	GVariant *r = sync_call(be, bus, path, IF_PROPS, "Get",
				g_variant_new("(ss)", iface, prop), "(v)", res);
	GVariant *v;

	if (!r)
		return NULL;
	v = atspi_prop_value(r, t);
	g_variant_unref(r);
	if (!v)
		*res = cua_error(CUA_ERROR_BACKEND, "%s.%s: unexpected type",
				 iface, prop);
	return v;
}

static cua_result
get_text(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	 const char *path)
{
	cua_result res;
	GVariant *v, *r;
	int32_t count, caret = -1;
	const char *s;

	v = get_prop(be, bus, path, IF_TEXT, "CharacterCount",
		     G_VARIANT_TYPE_INT32, &res);
	if (!v)
		return res;
	count = g_variant_get_int32(v);
	g_variant_unref(v);
	v = get_prop(be, bus, path, IF_TEXT, "CaretOffset",
		     G_VARIANT_TYPE_INT32, &res);
	if (v) {
		caret = g_variant_get_int32(v);
		g_variant_unref(v);
	}
	c->ret[0] = count;
	c->ret[1] = caret;
	if (count <= 0) {
		c->ret_text = g_strdup("");
		return CUA_OK;
	}
	r = sync_call(be, bus, path, IF_TEXT, "GetText",
		      g_variant_new("(ii)", 0, MIN(count, TEXT_CAP)), "(s)",
		      &res);
	if (!r)
		return res;
	g_variant_get(r, "(&s)", &s);
	c->ret_text = g_strdup(s);
	g_variant_unref(r);
	return CUA_OK;
}

static cua_result
focused_of(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	   const char *path)
{
	cua_result res;
	GVariant *r, *args;
	GVariantIter *it;
	const char *rb, *rp;

	args = g_variant_new(
		"((@aii@a{ss}i@aii@asib)uib)",
		g_variant_new_fixed_array(
			G_VARIANT_TYPE_INT32,
			(int32_t[]){ 1 << CUA_STATE_FOCUSED, 0 }, 2,
			sizeof(int32_t)),
		MATCH_ALL, g_variant_new_array(G_VARIANT_TYPE("{ss}"), NULL, 0),
		MATCH_ALL,
		g_variant_new_fixed_array(G_VARIANT_TYPE_INT32,
					  (int32_t[]){ 0, 0, 0, 0 }, 4,
					  sizeof(int32_t)),
		MATCH_ALL, g_variant_new_array(G_VARIANT_TYPE_STRING, NULL, 0),
		MATCH_ALL, FALSE, SORT_CANONICAL, 1, TRUE);
	r = sync_call(be, bus, path, IF_COLLECTION, "GetMatches", args,
		      "(a(so))", &res);
	if (!r)
		return res;
	g_variant_get(r, "(a(so))", &it);
	if (g_variant_iter_next(it, "(&s&o)", &rb, &rp) && !is_null_path(rp))
		c->ret_ident = join_ident(rb, rp);
	g_variant_iter_free(it);
	g_variant_unref(r);
	c->ok = c->ret_ident != NULL;
	return CUA_OK;
}

cua_result
atspi_live_call(struct cua_backend *b, struct cua_live_call *c)
{
	struct atspi_be *be = (struct atspi_be *)b;
	char *bus = NULL;
	const char *path;
	cua_result res = CUA_OK;
	GVariant *r, *v;

	c->ok = 0;
	c->ret[0] = c->ret[1] = c->ret[2] = 0;
	c->ret_text = c->ret_ident = NULL;
	c->ret_ints = NULL;
	c->n_ret_ints = 0;
	if (split(c->ident, &bus, &path) < 0)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "not an accessible object: %s",
				 c->ident ? c->ident : "(null)");
	switch (c->op) {
	case CUA_LIVE_DO_ACTION:
		res = bool_call(be, c, bus, path, IF_ACTION, "DoAction",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_SET_VALUE:
		r = sync_call(be, bus, path, IF_PROPS, "Set",
			      g_variant_new("(ssv)", "org.a11y.atspi.Value",
					    "CurrentValue",
					    g_variant_new_double(c->v)),
			      NULL, &res);
		if (r) {
			c->ok = 1;
			g_variant_unref(r);
		}
		break;
	case CUA_LIVE_SET_TEXT:
		res = bool_call(be, c, bus, path, IF_EDITABLE,
				"SetTextContents",
				g_variant_new("(s)", c->text ? c->text : ""));
		break;
	case CUA_LIVE_DELETE_TEXT:
		res = bool_call(be, c, bus, path, IF_EDITABLE, "DeleteText",
				g_variant_new("(ii)", c->a, c->b));
		break;
	case CUA_LIVE_GRAB_FOCUS:
		res = bool_call(be, c, bus, path, IF_COMPONENT, "GrabFocus",
				NULL);
		break;
	case CUA_LIVE_SCROLL_TO:
		res = bool_call(be, c, bus, path, IF_COMPONENT, "ScrollTo",
				g_variant_new("(u)", SCROLL_ANYWHERE));
		break;
	case CUA_LIVE_GET_TEXT:
		res = get_text(be, c, bus, path);
		c->ok = res == CUA_OK;
		break;
	case CUA_LIVE_SET_CARET:
		res = bool_call(be, c, bus, path, IF_TEXT, "SetCaretOffset",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_GET_SELECTION:
		r = sync_call(be, bus, path, IF_TEXT, "GetNSelections", NULL,
			      "(i)", &res);
		if (!r)
			break;
		g_variant_get(r, "(i)", &c->ret[0]);
		g_variant_unref(r);
		c->ret[1] = c->ret[2] = -1;
		if (c->ret[0] > 0) {
			r = sync_call(be, bus, path, IF_TEXT, "GetSelection",
				      g_variant_new("(i)", 0), "(ii)", &res);
			if (!r)
				break;
			g_variant_get(r, "(ii)", &c->ret[1], &c->ret[2]);
			g_variant_unref(r);
		}
		c->ok = 1;
		break;
	case CUA_LIVE_ADD_SELECTION:
		res = bool_call(be, c, bus, path, IF_TEXT, "AddSelection",
				g_variant_new("(ii)", c->a, c->b));
		break;
	case CUA_LIVE_SET_SELECTION:
		res = bool_call(be, c, bus, path, IF_TEXT, "SetSelection",
				g_variant_new("(iii)", c->a, c->b, c->c));
		break;
	case CUA_LIVE_SELECT_CHILD:
		res = bool_call(be, c, bus, path, IF_SELECTION, "SelectChild",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_CLEAR_SELECTION:
		res = bool_call(be, c, bus, path, IF_SELECTION,
				"ClearSelection", NULL);
		break;
	case CUA_LIVE_ADD_ROW_SELECTION:
		res = bool_call(be, c, bus, path, IF_TABLE, "AddRowSelection",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_TABLE_CELL:
		res = ref_call(be, c, bus, path, IF_TABLE, "GetAccessibleAt",
			       g_variant_new("(ii)", c->a, c->b));
		break;
	case CUA_LIVE_TEXT_AT_POINT:
		r = sync_call(be, bus, path, IF_TEXT, "GetOffsetAtPoint",
			      g_variant_new("(iiu)", c->a, c->b, COORD_SCREEN),
			      "(i)", &res);
		if (r) {
			g_variant_get(r, "(i)", &c->ret[0]);
			c->ok = c->ret[0] >= 0;
			g_variant_unref(r);
		}
		break;
	case CUA_LIVE_CHAR_EXTENTS: {
		int32_t x, y, w, h;

		r = sync_call(be, bus, path, IF_TEXT, "GetCharacterExtents",
			      g_variant_new("(iu)", c->a, COORD_SCREEN),
			      "(iiii)", &res);
		if (r) {
			g_variant_get(r, "(iiii)", &x, &y, &w, &h);
			c->ret[0] = x;
			c->ret[1] = y;
			c->ret[2] = h;
			c->ok = h > 0 && x != INT32_MIN && y != INT32_MIN;
			g_variant_unref(r);
		}
		break;
	}
	case CUA_LIVE_HIT_TEST:
		res = ref_call(
			be, c, bus, path, IF_COMPONENT, "GetAccessibleAtPoint",
			g_variant_new("(iiu)", c->a, c->b, COORD_SCREEN));
		break;
	case CUA_LIVE_PARENT:
		v = get_prop(be, bus, path, IF_ACCESSIBLE, "Parent",
			     G_VARIANT_TYPE("(so)"), &res);
		if (v) {
			const char *rb, *rp;

			g_variant_get(v, "(&s&o)", &rb, &rp);
			c->ret_ident =
				is_null_path(rp) ? NULL : join_ident(rb, rp);
			c->ok = c->ret_ident != NULL;
			g_variant_unref(v);
		}
		break;
	case CUA_LIVE_FOCUSED:
		res = focused_of(be, c, bus, path);
		break;
	case CUA_LIVE_ROW_AT_INDEX:
		r = sync_call(be, bus, path, IF_TABLE, "GetRowAtIndex",
			      g_variant_new("(i)", c->a), "(i)", &res);
		if (r) {
			g_variant_get(r, "(i)", &c->ret[0]);
			c->ok = c->ret[0] >= 0;
			g_variant_unref(r);
		}
		break;
	case CUA_LIVE_SELECTED_ROWS:
		res = int_array_call(be, c, bus, path, IF_TABLE,
				     "GetSelectedRows");
		break;
	case CUA_LIVE_REMOVE_ROW_SELECTION:
		res = bool_call(be, c, bus, path, IF_TABLE,
				"RemoveRowSelection",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_SELECTED_COUNT:
		v = get_prop(be, bus, path, IF_SELECTION, "NSelectedChildren",
			     G_VARIANT_TYPE_INT32, &res);
		if (v) {
			c->ret[0] = g_variant_get_int32(v);
			c->ok = 1;
			g_variant_unref(v);
		}
		break;
	case CUA_LIVE_SELECTED_CHILD:
		res = ref_call(be, c, bus, path, IF_SELECTION,
			       "GetSelectedChild", g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_DESELECT_SELECTED:
		res = bool_call(be, c, bus, path, IF_SELECTION,
				"DeselectSelectedChild",
				g_variant_new("(i)", c->a));
		break;
	default:
		res = cua_error(CUA_ERROR_INVALID_ARGUMENT,
				"unknown live request %d", (int)c->op);
		break;
	}
	g_free(bus);
	return res;
}
