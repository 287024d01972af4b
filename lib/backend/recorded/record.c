/*
 * The recording writer: a raw snapshot as `libcua.recording/1` JSON (the
 * format is described at the top of load.c). Every field the loader
 * reads survives a write and a load unchanged, `have` bits included.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "backend/backend.h"
#include "backend/recorded/recording.h"
#include "core/roles.h"

/* cua_rec_node_strings written before the states: name, description,
 * help, accessible_id. */
#define LEADING_STRINGS 4

struct writer {
	cua_result r;    /* first error */
	char path[4096]; /* node path, "" = the root */
	size_t path_len;
};

static void
wfail(struct writer *w, cua_result code, const char *what)
{
	if (w->r)
		return;
	if (code == CUA_ERROR_NOMEM)
		w->r = cua_error(code, "recording: out of memory");
	else
		w->r = cua_error(code, "recording: node %s: %s",
				 w->path_len ? w->path : "/", what);
}

/* Sets obj[key] = v, taking v; a NULL v means an error was recorded. */
static void
wset(struct writer *w, json_t *obj, const char *key, json_t *v)
{
	if (!v) {
		wfail(w, CUA_ERROR_NOMEM, NULL);
		return;
	}
	if (json_object_set_new(obj, key, v))
		wfail(w, CUA_ERROR_NOMEM, NULL);
}

static void
wappend(struct writer *w, json_t *arr, json_t *v)
{
	if (!v || json_array_append_new(arr, v))
		wfail(w, CUA_ERROR_NOMEM, NULL);
}

/* A string or null. Invalid UTF-8 is an error naming the field. */
static json_t *
wstr(struct writer *w, const char *field, const char *s)
{
	char what[128];
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	j = json_string_nocheck(s);
	if (!j)
		return NULL;
	json_decref(j);
	snprintf(what, sizeof(what), "\"%s\" is not valid UTF-8", field);
	wfail(w, CUA_ERROR_INVALID_ARGUMENT, what);
	return NULL;
}

static json_t *
wnum(double v)
{
	if (isnan(v))
		return json_string("nan");
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return json_real(v);
}

static json_t *
wrect(const struct cua_rect *r)
{
	return json_pack("[iiii]", (int)r->x, (int)r->y, (int)r->w, (int)r->h);
}

static json_t *
write_states(struct writer *w, uint64_t states)
{
	json_t *a = json_array();
	unsigned b;

	for (b = 0; a && b < 64; b++) {
		if (!((states >> b) & 1))
			continue;
		if (b < CUA_STATE_COUNT)
			wappend(w, a, json_string(cua_rec_state_nicks[b]));
		else
			wappend(w, a, json_integer(b));
	}
	return a;
}

static json_t *
write_ifaces(struct writer *w, uint32_t ifaces)
{
	json_t *a = json_array();
	unsigned b;

	for (b = 0; a && b < CUA_REC_N_IFACES; b++)
		if (ifaces & (1u << b))
			wappend(w, a, json_string(cua_rec_iface_names[b]));
	return a;
}

static json_t *
write_attrs(struct writer *w, const struct cua_raw_node *n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && i < n->n_attrs; i++) {
		if (!n->attrs[i].key)
			continue;
		/* keys must be valid UTF-8 too */
		json_decref(wstr(w, "attributes", n->attrs[i].key));
		wset(w, o, n->attrs[i].key,
		     wstr(w, "attributes", n->attrs[i].value));
	}
	return o;
}

static json_t *
write_actions(struct writer *w, const struct cua_raw_node *n)
{
	const struct cua_raw_action *a;
	json_t *arr = json_array(), *o;
	size_t i;

	for (i = 0; arr && i < n->n_actions; i++) {
		a = &n->actions[i];
		if (a->name && !a->localized && !a->description) {
			wappend(w, arr, wstr(w, "actions", a->name));
			continue;
		}
		o = json_object();
		if (o && a->name)
			wset(w, o, "name", wstr(w, "actions", a->name));
		if (o && a->localized)
			wset(w, o, "localized",
			     wstr(w, "actions", a->localized));
		if (o && a->description)
			wset(w, o, "description",
			     wstr(w, "actions", a->description));
		wappend(w, arr, o);
	}
	return arr;
}

static json_t *
write_value(struct writer *w, const struct cua_raw_node *n)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	wset(w, o, "current", wnum(n->value));
	wset(w, o, "min", wnum(n->value_min));
	wset(w, o, "max", wnum(n->value_max));
	wset(w, o, "step", wnum(n->value_step));
	if (n->value_text)
		wset(w, o, "text", wstr(w, "value", n->value_text));
	return o;
}

static json_t *
write_node(struct writer *w, const struct cua_raw_node *n, int depth);

static json_t *
write_children(struct writer *w, const struct cua_raw_node *n, int depth)
{
	json_t *a = json_array();
	size_t i, saved = w->path_len;

	for (i = 0; a && !w->r && i < n->n_children; i++) {
		snprintf(w->path + saved, sizeof(w->path) - saved, "/%zu",
			 n->child_offset + i);
		w->path_len = strlen(w->path);
		wappend(w, a, write_node(w, n->children[i], depth + 1));
		w->path_len = saved;
		w->path[saved] = '\0';
	}
	return a;
}

/* Strings first..end of cua_rec_node_strings: those read when absent
 * only when they hold something, the others whenever they were read
 * (null included); the name always. */
static void
write_strings(struct writer *w, json_t *o, const struct cua_raw_node *n,
	      size_t first, size_t end)
{
	const struct cua_rec_string *s;
	const char *val;
	size_t i;

	for (i = first; i < end; i++) {
		s = &cua_rec_node_strings[i];
		val = *(const char *const *)((const char *)n + s->offset);
		if (s->bit == CUA_HAVE_BASIC ?
			    val != NULL :
			    (n->have & s->bit) &&
				    (val ||
				     !(s->bit & CUA_REC_READ_WHEN_ABSENT)))
			wset(w, o, s->key, wstr(w, s->key, val));
	}
}

/* The id, unless it is the one the loader generates for this path. */
static void
write_id(struct writer *w, json_t *o, const struct cua_raw_node *n)
{
	const char *p = w->path_len ? w->path : "/";
	size_t len = strlen(CUA_REC_ID_PREFIX);

	if (n->ident && strncmp(n->ident, CUA_REC_ID_PREFIX, len) == 0 &&
	    strcmp(n->ident + len, p) == 0)
		return;
	wset(w, o, "id", wstr(w, "id", n->ident));
}

static json_t *
write_node(struct writer *w, const struct cua_raw_node *n, int depth)
{
	uint32_t have = n->have;
	int write_kids;
	json_t *o, *unread;
	size_t i;

	if (depth > CUA_REC_MAX_DEPTH) {
		wfail(w, CUA_ERROR_INVALID_ARGUMENT,
		      "nodes are nested too deep (a cycle?)");
		return NULL;
	}
	o = json_object();
	if (!o)
		return NULL;
	write_id(w, o, n);
	if (n->role < CUA_ROLE_COUNT)
		wset(w, o, "role", json_string(cua_role_name(n->role)));
	else
		wset(w, o, "role", json_integer(n->role));

	write_strings(w, o, n, 0, LEADING_STRINGS);
	if (n->states)
		wset(w, o, "states", write_states(w, n->states));
	wset(w, o, "interfaces", write_ifaces(w, n->ifaces));
	if ((have & CUA_HAVE_ATTRIBUTES) && n->n_attrs)
		wset(w, o, "attributes", write_attrs(w, n));
	if ((have & CUA_HAVE_ACTIONS) && n->n_actions)
		wset(w, o, "actions", write_actions(w, n));
	if (have & CUA_HAVE_VALUE)
		wset(w, o, "value", write_value(w, n));
	if (have & CUA_HAVE_TEXT_SELECTION)
		wset(w, o, "selection",
		     json_pack("[ii]", (int)n->sel_start, (int)n->sel_end));
	if (have & CUA_HAVE_EXTENTS)
		wset(w, o, "extents", wrect(&n->extents));
	write_strings(w, o, n, LEADING_STRINGS, CUA_REC_N_NODE_STRINGS);
	if (have & CUA_HAVE_TABLE_ROW)
		wset(w, o, "table_row", json_integer(n->table_row));
	if ((have & CUA_HAVE_TABLE_ROW) && n->table_nrows > 0)
		wset(w, o, "table_nrows", json_integer(n->table_nrows));

	if ((int64_t)(n->child_offset + n->n_children) != n->child_count)
		wset(w, o, "child_count", json_integer(n->child_count));
	if (n->child_offset)
		wset(w, o, "child_offset",
		     json_integer((json_int_t)n->child_offset));
	if (!n->children_partial != !cua_rec_default_partial(n->child_offset,
							     n->n_children,
							     n->child_count))
		wset(w, o, "children_partial",
		     json_boolean(n->children_partial));

	/* Pieces the loader would count as read but were not. */
	write_kids = n->n_children > 0 ||
		     ((have & CUA_HAVE_CHILDREN) && n->child_count != 0);
	unread = json_array();
	for (i = 0; unread && i < CUA_REC_N_PIECES; i++) {
		if (have & cua_rec_pieces[i].bit)
			continue;
		if (cua_rec_pieces[i].bit == CUA_HAVE_CHILDREN ?
			    write_kids || n->child_count == 0 :
			    cua_rec_pieces[i].bit & CUA_REC_READ_WHEN_ABSENT)
			wappend(w, unread, json_string(cua_rec_pieces[i].key));
	}
	if (unread && json_array_size(unread))
		wset(w, o, "unread", unread);
	else
		json_decref(unread);

	if (write_kids)
		wset(w, o, "children", write_children(w, n, depth));
	return o;
}

static json_t *
write_app(struct writer *w, const struct cua_app_info *app)
{
	const struct cua_rec_string *s;
	const char *val;
	json_t *o = json_object();
	size_t i;

	if (!o)
		return NULL;
	wset(w, o, "pid", json_integer(app->pid));
	wset(w, o, "start_time", json_integer((json_int_t)app->start_time));
	for (i = 0; i < CUA_REC_N_APP_STRINGS; i++) {
		s = &cua_rec_app_strings[i];
		val = *(const char *const *)((const char *)app + s->offset);
		if (val)
			wset(w, o, s->key, wstr(w, s->key, val));
	}
	wset(w, o, "frontmost", json_boolean(app->frontmost));
	return o;
}

static json_t *
write_windows(struct writer *w, const struct cua_raw_snapshot *snap)
{
	const struct cua_raw_window_info *win;
	json_t *a = json_array(), *o;
	size_t i;

	for (i = 0; a && i < snap->app->n_children; i++) {
		win = &snap->windows[i];
		o = json_object();
		if (o) {
			wset(w, o, "x11_window",
			     json_integer((json_int_t)win->x11_window));
			wset(w, o, "active", json_boolean(win->x11_active));
			wset(w, o, "mapped", json_boolean(win->x11_mapped));
			if (win->x11_title)
				wset(w, o, "title",
				     wstr(w, "title", win->x11_title));
			if (win->has_x11_frame)
				wset(w, o, "frame", wrect(&win->x11_frame));
			if (win->has_x11_frame && win->x11_surface.w > 0)
				wset(w, o, "surface", wrect(&win->x11_surface));
			if (win->has_x11_frame && win->x11_outer.w > 0)
				wset(w, o, "outer", wrect(&win->x11_outer));
			if (win->x11_transient)
				wset(w, o, "transient", json_true());
			if (win->activation_serial)
				wset(w, o, "activation",
				     json_integer((json_int_t)win
							  ->activation_serial));
		}
		wappend(w, a, o);
	}
	return a;
}

cua_result
cua_record_to_json(const struct cua_app_info *app,
		   const struct cua_raw_snapshot *snap, char **out)
{
	struct writer w = { 0 };
	json_t *top;
	char *s;

	if (!out)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recording: no output pointer");
	*out = NULL;
	if (!snap || !snap->app)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recording: no snapshot to record");
	top = json_object();
	if (!top)
		return cua_error(CUA_ERROR_NOMEM, "recording: out of memory");
	wset(&w, top, "schema", json_string(CUA_REC_SCHEMA));
	if (app)
		wset(&w, top, "app", write_app(&w, app));
	if (snap->windows && snap->app->n_children)
		wset(&w, top, "windows", write_windows(&w, snap));
	if (snap->focused_ident)
		wset(&w, top, "focused",
		     wstr(&w, "focused", snap->focused_ident));
	if (!w.r)
		wset(&w, top, "root", write_node(&w, snap->app, 0));
	if (w.r) {
		json_decref(top);
		return w.r;
	}
	s = json_dumps(top, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(top);
	if (!s)
		return cua_error(CUA_ERROR_NOMEM, "recording: out of memory");
	*out = s;
	return CUA_OK;
}
