/*
 * Replies of the pipelined AT-SPI reader (fetch.c): each answer is decoded
 * into its raw node, and the node moves on when its stage is complete.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch_int.h"
#include "core/sanitize.h"

/* ------------------------------------------------------------------ */
/* Reply values                                                        */

/* A string, or NULL when it is empty. */
static const char *
sdup_nonempty(struct job *job, const char *s)
{
	return s && *s ? fetch_sdup(job, s) : NULL;
}

static const char *
clean_name(struct job *job, const char *s)
{
	if (!s || !*s || atspi_is_gtype_name(s))
		return NULL;
	return fetch_sdup(job, s);
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
	r = nonempty ? sdup_nonempty(job, s) : fetch_sdup(job, s);
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
			atspi_caps_add(job->be, fn->bus,
				       ATSPI_CAP_NO_HELP_TEXT);
		break;
	case K_VAL_TEXT:
		if (is_missing_member(error))
			atspi_caps_add(job->be, fn->bus, CAP_NO_VALUE_TEXT);
		break;
	case K_CHILDREN:
		/* no fast path: indexed reads (a sweep compares nothing) */
		if (job->mode != READ_SWEEP && fn->count_ok &&
		    fn->n->child_count > 0)
			fetch_read_indexed(fn, 0, (size_t)fn->n->child_count);
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

/* Actions: decoded in decode.c; names the reply did
 * not give are read with GetName(i). */
static void
on_actions(struct fnode *fn, GVariant *reply)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;

	if (atspi_decode_actions(job->be, fn->bus, job->snap->arena, n, reply) <
	    0)
		job->oom = 1;
	for (size_t k = 0; k < n->n_actions; k++)
		if (!n->actions[k].name)
			fetch_call(fn, K_ACTION_NAME, (int)k, IF_ACTION,
				   "GetName", g_variant_new("(i)", (int32_t)k),
				   "(s)");
}

/* Actions counted (ATSPI_CAP_ACTIONS_BY_INDEX): each name read with
 * GetName(i). At most ACTIONS_MAX of them. */
#define ACTIONS_MAX 64
static void
on_nactions(struct fnode *fn, int32_t count)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;
	size_t k = count < 0 ? 0 : count > ACTIONS_MAX ? ACTIONS_MAX : count;

	/* zeroed: no name until GetName(i) answers */
	n->actions = cua_arena_alloc(job->snap->arena,
				     (k ? k : 1) * sizeof(*n->actions));
	if (!n->actions) {
		job->oom = 1;
		return;
	}
	n->n_actions = k;
	n->have |= CUA_HAVE_ACTIONS;
	for (size_t i = 0; i < k; i++)
		fetch_call(fn, K_ACTION_NAME, (int)i, IF_ACTION, "GetName",
			   g_variant_new("(i)", (int32_t)i), "(s)");
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
			struct req *q = fetch_new_req(fn, K_LABEL_NAME, 0);

			q->bus = fetch_tmp_strdup(fn->job, bus);
			q->path = fetch_tmp_strdup(fn->job, path);
			fetch_get_prop_on(fn, q, q->bus, q->path, IF_ACCESSIBLE,
					  "Name");
			found = 1;
		}
		g_variant_iter_free(targets);
	}
	g_variant_iter_free(it);
}

/* READ_SWEEP: the children's identities, as nodes with nothing else. */
static void
on_sweep_children(struct fnode *fn, GVariant *reply)
{
	struct job *job = fn->job;
	struct cua_raw_node *n = fn->n;
	GVariant *arr = g_variant_get_child_value(reply, 0);
	size_t len = g_variant_n_children(arr), i = 0;
	GVariantIter it;
	const char *bus, *path;

	if (len > ATSPI_CHILDREN_MAX)
		len = ATSPI_CHILDREN_MAX;
	n->children = cua_arena_alloc(job->snap->arena,
				      (len ? len : 1) * sizeof(*n->children));
	if (!n->children) {
		job->oom = 1;
		g_variant_unref(arr);
		return;
	}
	g_variant_iter_init(&it, arr);
	while (i < len && g_variant_iter_next(&it, "(&s&o)", &bus, &path)) {
		struct cua_raw_node *c = cua_raw_node_new(job->snap);

		if (!c) {
			job->oom = 1;
			break;
		}
		if (!is_null_ref(path))
			c->ident = fetch_make_ident(job, bus, path);
		n->children[i++] = c;
	}
	n->n_children = i;
	n->have |= CUA_HAVE_CHILDREN;
	g_variant_unref(arr);
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
			fetch_read_indexed(fn, 0, (size_t)fn->n->child_count);
		return;
	}
	if (len > ATSPI_CHILDREN_MAX)
		len = ATSPI_CHILDREN_MAX;
	fetch_alloc_slots(fn, 0, len);
	g_variant_iter_init(&it, arr);
	while (i < len && g_variant_iter_next(&it, "(&s&o)", &bus, &path)) {
		if (!is_null_ref(path)) {
			fn->slots[i].bus = fetch_tmp_strdup(job, bus);
			fn->slots[i].path = fetch_tmp_strdup(job, path);
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
		q = fetch_new_req(fn, K_HIT_PARENT, which);
		q->bus = fetch_tmp_strdup(fn->job, bus);
		q->path = fetch_tmp_strdup(fn->job, path);
		fetch_get_prop_on(fn, q, q->bus, q->path, IF_ACCESSIBLE,
				  "Parent");
		return;
	}
	/* K_HIT_PARENT: `bus`/`path` is the parent of r->bus/r->path */
	if (is_null_ref(path))
		return;
	if (same_object(bus, path, fn)) {
		q = fetch_new_req(fn, K_HIT_INDEX, which);
		fetch_call_on(fn, q, r->bus, r->path, IF_ACCESSIBLE,
			      "GetIndexInParent", NULL, "(i)");
		return;
	}
	if (steps + 1 >= HIT_MAX_STEPS)
		return;
	q = fetch_new_req(fn, K_HIT_PARENT, which | ((steps + 1) << 2));
	q->bus = fetch_tmp_strdup(fn->job, bus);
	q->path = fetch_tmp_strdup(fn->job, path);
	fetch_get_prop_on(fn, q, q->bus, q->path, IF_ACCESSIBLE, "Parent");
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
			if (fetch_is_hidden_geometry(n))
				n->have &= ~(uint32_t)CUA_HAVE_EXTENTS;
			fetch_start_hit_tests(fn);
		}
		break;
	case K_DESC:
		n->description = prop_string(job, reply, 1);
		n->have |= CUA_HAVE_DESCRIPTION;
		break;
	case K_ATTRS:
		on_attrs(job, n, reply);
		break;
	case K_DOCURL: {
		GVariant *dict = g_variant_get_child_value(reply, 0);
		const char *url = NULL, *uri = NULL;

		if (!g_variant_lookup(dict, "DocURL", "&s", &url) || !*url)
			url = NULL;
		if (g_variant_lookup(dict, "URI", "&s", &uri) && *uri && !url)
			url = uri;
		fn->doc_url = sdup_nonempty(job, url);
		g_variant_unref(dict);
		break;
	}
	case K_ACTIONS:
		on_actions(fn, reply);
		break;
	case K_NACTIONS:
		if (prop_int(reply, &i))
			on_nactions(fn, i);
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
			n->text = fetch_sdup(job, "");
			n->have |= CUA_HAVE_TEXT;
			break;
		}
		fetch_call(fn, K_TEXT_GET, 0, IF_TEXT, "GetText",
			   g_variant_new("(ii)", 0, MIN(i, TEXT_CAP)), "(s)");
		break;
	case K_TEXT_GET:
		g_variant_get(reply, "(&s)", &s);
		n->text = fetch_sdup(job, s);
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
			struct req *q = fetch_new_req(fn, K_SELCHILD_NAME, 0);

			q->bus = fetch_tmp_strdup(job, bus);
			q->path = fetch_tmp_strdup(job, path);
			fetch_get_prop_on(fn, q, q->bus, q->path, IF_ACCESSIBLE,
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
			n->count_read = 1;
			fn->count_ok = 1;
		}
		break;
	case K_CHILDREN:
		if (job->mode == READ_SWEEP)
			on_sweep_children(fn, reply);
		else
			on_children(fn, reply);
		break;
	case K_CHILD_AT:
		g_variant_get(reply, "((&s&o))", &bus, &path);
		if (!is_null_ref(path) && (size_t)r->aux < fn->n_slots) {
			fn->slots[r->aux].bus = fetch_tmp_strdup(job, bus);
			fn->slots[r->aux].path = fetch_tmp_strdup(job, path);
		}
		break;
	case K_NCOLS:
		prop_int(reply, &fn->ncols);
		break;
	case K_INDEX:
		g_variant_get(reply, "(i)", &i);
		n->index_in_parent = i;
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
			job->focus_ident = fetch_make_ident(job, bus, path);
			job->focus_root = r->aux;
		}
		g_variant_iter_free(it);
		break;
	}
	}
}

void
fetch_on_reply(struct dbatch *batch, GVariant *reply, const GError *error,
	       void *data)
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
		fetch_advance(fn);
}
