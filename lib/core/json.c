/*
 * Trees as JSON: the structured form of an observation (docs/tools.md §3.3)
 * and, with internal fields, the persisted form the CLI reloads.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "render.h"
#include "roles.h"
#include "session.h"
#include "strbuf.h"

static json_t *
jstr(const char *s)
{
	return json_string(s ? s : "");
}

static json_t *
rect_json(const struct cua_rect *r)
{
	return json_pack("{s:i,s:i,s:i,s:i}", "x", r->x, "y", r->y, "width",
			 r->w, "height", r->h);
}

static json_t *
traits_json(uint32_t t)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ CUA_TRAIT_SELECTED, "selected" },
		{ CUA_TRAIT_SELECTABLE, "selectable" },
		{ CUA_TRAIT_EXPANDED, "expanded" },
		{ CUA_TRAIT_COLLAPSED, "collapsed" },
		{ CUA_TRAIT_DISABLED, "disabled" },
		{ CUA_TRAIT_SETTABLE, "settable" },
		{ CUA_TRAIT_STRING, "string" },
		{ CUA_TRAIT_FLOAT, "float" },
		{ CUA_TRAIT_BOOLEAN, "boolean" },
	};
	json_t *a = json_array();

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (t & names[i].bit)
			json_array_append_new(a, json_string(names[i].name));
	return a;
}

static json_t *
element_json(const struct cua_tree *t, const struct cua_element *e,
	     int internal)
{
	json_t *o = json_object(), *acts = json_array();

	json_object_set_new(o, "id", json_integer(e->id));
	json_object_set_new(o, "parent",
			    e->parent >= 0 ?
				    json_integer(t->elements[e->parent].id) :
				    json_null());
	json_object_set_new(o, "depth", json_integer(e->depth));
	json_object_set_new(o, "role", jstr(e->role_text));
	json_object_set_new(o, "raw_role", jstr(cua_role_name(e->role)));
	json_object_set_new(o, "title", jstr(e->title));
	json_object_set_new(o, "description", jstr(e->description));
	json_object_set_new(o, "value", jstr(e->value));
	json_object_set_new(o, "traits", traits_json(e->traits));
	for (size_t i = 0; i < e->n_actions; i++)
		json_array_append_new(acts, jstr(e->actions[i]));
	json_object_set_new(o, "secondary_actions", acts);
	json_object_set_new(o, "frame",
			    e->has_frame ? rect_json(&e->frame) : json_null());
	json_object_set_new(o, "focused",
			    json_boolean(t->focused == (int32_t)e->index));
	if (e->flags & CUA_ELEM_FOCUS_ONLY)
		json_object_set_new(o, "pruned", json_true());
	if (e->path) {
		json_t *path = json_array();

		for (uint32_t i = 0; i < e->path_len; i++)
			json_array_append_new(path, json_integer(e->path[i]));
		json_object_set_new(o, "locator",
				    json_pack("{s:i,s:o}", "window",
					      (int)cua_element_window_index(e),
					      "path", path));
	}
	if (!internal)
		return o;
	json_object_set_new(o, "raw_role_id", json_integer(e->role));
	json_object_set_new(o, "traits_bits", json_integer(e->traits));
	json_object_set_new(o, "flags", json_integer(e->flags));
	json_object_set_new(o, "help", jstr(e->help));
	json_object_set_new(o, "details", jstr(e->details));
	json_object_set_new(o, "placeholder", jstr(e->placeholder));
	json_object_set_new(o, "url", jstr(e->url));
	json_object_set_new(o, "identifier", jstr(e->identifier));
	if (e->has_summary)
		json_object_set_new(
			o, "summary",
			json_pack("[i,i,i]", e->sum_a, e->sum_b, e->sum_n));
	{
		json_t *raw = json_array();

		for (size_t i = 0; i < e->n_actions; i++)
			json_array_append_new(
				raw, e->raw_actions[i] ?
					     json_string(e->raw_actions[i]) :
					     json_null());
		json_object_set_new(o, "raw_actions", raw);
	}
	json_object_set_new(o, "skel", json_integer(e->skel));
	if (e->shift_x || e->shift_y)
		json_object_set_new(o, "shift",
				    json_pack("[i,i]", e->shift_x, e->shift_y));
	json_object_set_new(o, "row_index", json_integer(e->row_index));
	return o;
}

static double
ms(int64_t us)
{
	return (double)((us + 50) / 100) / 10.0;
}

/* "screenshot", "screenshot_error" and "timings_ms" (docs/tools.md §3.3); the
 * internal form keeps the geometry (not the image) for coordinate actions
 * in a later process. */
static void
shot_json(json_t *o, const struct cua_tree *t, int internal)
{
	const struct cua_shot_geom *g = &t->shot;

	if (t->shot_data && !internal)
		json_object_set_new(o, "screenshot",
				    json_pack("{s:s,s:i,s:i,s:f}", "mime_type",
					      t->shot_mime, "width",
					      (int)g->width, "height",
					      (int)g->height,
					      "pixels_per_point", g->ppp));
	else if (!internal)
		json_object_set_new(o, "screenshot", json_null());
	if (!internal)
		json_object_set_new(o, "screenshot_error",
				    t->shot_data || !t->shot_error ?
					    json_null() :
					    json_string(t->shot_error));
	if (internal && t->has_shot)
		json_object_set_new(
			o, "screenshot_geometry",
			json_pack("{s:I,s:o,s:f,s:f,s:i,s:i,s:f,s:f}",
				  "x11_window", (json_int_t)g->x11_window,
				  "frame", rect_json(&g->frame), "device_ppp",
				  g->device_ppp, "ppp", g->ppp, "width",
				  (int)g->width, "height", (int)g->height,
				  "elem_dx", g->elem_dx, "elem_dy",
				  g->elem_dy));
	if (!internal)
		json_object_set_new(
			o, "timings_ms",
			json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}", "settle",
				  ms(t->shot_stats.settle_us), "warmup",
				  ms(t->shot_stats.warmup_us), "walk",
				  ms(t->stats.walk_us), "build",
				  ms(t->stats.build_us), "capture",
				  ms(t->shot_stats.capture_us), "encode",
				  ms(t->shot_stats.encode_us)));
}

static void
shot_from_json(struct cua_tree *t, json_t *g)
{
	json_t *f;

	if (!json_is_object(g))
		return;
	f = json_object_get(g, "frame");
	t->shot.x11_window =
		(uint64_t)json_integer_value(json_object_get(g, "x11_window"));
	if (json_is_object(f)) {
		t->shot.frame.x =
			(int32_t)json_integer_value(json_object_get(f, "x"));
		t->shot.frame.y =
			(int32_t)json_integer_value(json_object_get(f, "y"));
		t->shot.frame.w = (int32_t)json_integer_value(
			json_object_get(f, "width"));
		t->shot.frame.h = (int32_t)json_integer_value(
			json_object_get(f, "height"));
	}
	t->shot.device_ppp =
		json_number_value(json_object_get(g, "device_ppp"));
	t->shot.ppp = json_number_value(json_object_get(g, "ppp"));
	t->shot.width =
		(uint32_t)json_integer_value(json_object_get(g, "width"));
	t->shot.height =
		(uint32_t)json_integer_value(json_object_get(g, "height"));
	t->shot.elem_dx = json_number_value(json_object_get(g, "elem_dx"));
	t->shot.elem_dy = json_number_value(json_object_get(g, "elem_dy"));
	t->has_shot = t->shot.ppp > 0 && t->shot.width && t->shot.height;
}

json_t *
cua_tree_to_jansson(const struct cua_tree *t, int internal,
		    uint32_t render_flags)
{
	json_t *o = json_object(), *els = json_array(), *removed = json_array();
	struct strbuf sb = STRBUF_INIT;
	enum cua_render_kind kind = cua_observation_kind(t, render_flags, NULL);

	json_object_set_new(
		o, "schema",
		json_string(internal ? "libcua.tree/1" : "libcua.app_state/1"));
	json_object_set_new(
		o, "app",
		json_pack("{s:o,s:o,s:I,s:o,s:o,s:o}", "id", jstr(t->app_id),
			  "name", jstr(t->app_name), "pid", (json_int_t)t->pid,
			  "executable", jstr(t->exe), "toolkit",
			  jstr(t->toolkit), "toolkit_version",
			  jstr(t->toolkit_version)));
	json_object_set_new(
		o, "window",
		json_pack("{s:o,s:i,s:I,s:o}", "title", jstr(t->window_title),
			  "index", (int)t->window_index, "x11_window",
			  (json_int_t)t->x11_window, "frame",
			  t->has_window_frame ? rect_json(&t->window_frame) :
						json_null()));
	json_object_set_new(
		o, "revision",
		json_pack("{s:i,s:i,s:s,s:b,s:b}", "number", (int)t->revision,
			  "content", (int)t->content_revision, "kind",
			  cua_render_kind_name(kind), "root_changed",
			  t->root_changed, "truncated", t->truncated));
	cua_render_observation(&sb, t, render_flags);
	json_object_set_new(o, "state_text", json_string(sb_str(&sb)));
	sb_free(&sb);
	for (size_t i = 0; i < t->n_elements; i++)
		json_array_append_new(
			els, element_json(t, &t->elements[i], internal));
	json_object_set_new(o, "elements", els);
	if (kind != CUA_KIND_FULL)
		for (size_t i = 0; i < t->delta->n_removed; i++)
			json_array_append_new(
				removed, json_integer(t->delta->removed[i]));
	json_object_set_new(o, "removed_ids", removed);
	json_object_set_new(o, "focused_element",
			    t->focused >= 0 ?
				    json_integer(t->elements[t->focused].id) :
				    json_null());
	json_object_set_new(o, "selected_text",
			    t->selected_text ? json_string(t->selected_text) :
					       json_null());
	json_object_set_new(o, "stats",
			    json_pack("{s:I,s:I,s:I,s:I,s:I}", "raw_nodes",
				      (json_int_t)t->stats.raw_nodes, "calls",
				      (json_int_t)t->stats.calls, "call_errors",
				      (json_int_t)t->stats.call_errors,
				      "walk_us", (json_int_t)t->stats.walk_us,
				      "build_us",
				      (json_int_t)t->stats.build_us));
	shot_json(o, t, internal);
	if (internal) {
		json_t *skel = json_array(), *markers = json_array();

		json_object_set_new(o, "start_time",
				    json_integer((json_int_t)t->start_time));
		json_object_set_new(o, "n_lines",
				    json_integer((json_int_t)t->n_lines));
		json_object_set_new(o, "truncated", json_boolean(t->truncated));
		for (size_t i = 0; i < t->n_skel; i++) {
			const struct cua_skel *s = &t->skel[i];

			json_array_append_new(
				skel,
				json_pack(
					"[i,i,i,i,i,i,i,i,i,o,o,s,o,b]",
					s->parent, (int)s->index,
					(int)s->child_count,
					(int)s->first_child, (int)s->n_fetched,
					(int)s->child_offset, s->element,
					(int)s->fp.role, (int)s->fp.value_kind,
					s->fp.subrole ?
						json_string(s->fp.subrole) :
						json_null(),
					s->fp.identifier ?
						json_string(s->fp.identifier) :
						json_null(),
					s->fp.title ? s->fp.title : "",
					s->ident ? json_string(s->ident) :
						   json_null(),
					s->pinned));
		}
		json_object_set_new(o, "skeleton", skel);
		for (size_t i = 0; i < t->n_markers; i++)
			json_array_append_new(
				markers,
				json_pack("[I,s]",
					  (json_int_t)t->markers[i].after,
					  t->markers[i].text));
		json_object_set_new(o, "markers", markers);
	}
	return o;
}

cua_result
cua_tree_json(const struct cua_tree *t, int internal, uint32_t render_flags,
	      char **out)
{
	json_t *o = cua_tree_to_jansson(t, internal, render_flags);

	*out = o ? json_dumps(o, JSON_INDENT(internal ? 0 : 2) |
					 JSON_PRESERVE_ORDER |
					 JSON_COMPACT * !!internal) :
		   NULL;
	json_decref(o);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Loading (persisted state)                                            */

static const char *
astr(struct cua_arena *a, json_t *j)
{
	const char *s = json_string_value(j);

	return cua_arena_strdup(a, s ? s : "");
}

static int64_t
jint(json_t *j)
{
	return json_is_integer(j) ? json_integer_value(j) : 0;
}

struct cua_tree *
cua_tree_from_jansson(json_t *o)
{
	struct cua_tree *t;
	struct cua_arena *a;
	json_t *app, *win, *els, *skel, *markers, *v;
	size_t i;

	if (!json_is_object(o) ||
	    !json_is_string(json_object_get(o, "schema")) ||
	    strcmp(json_string_value(json_object_get(o, "schema")),
		   "libcua.tree/1") != 0)
		return NULL;
	t = cua_tree_alloc();
	if (!t)
		return NULL;
	a = t->arena;
	app = json_object_get(o, "app");
	win = json_object_get(o, "window");
	els = json_object_get(o, "elements");
	skel = json_object_get(o, "skeleton");
	markers = json_object_get(o, "markers");
	if (!json_is_object(app) || !json_is_object(win) ||
	    !json_is_array(els) || !json_is_array(skel))
		goto bad;
	t->app_id = astr(a, json_object_get(app, "id"));
	t->app_name = astr(a, json_object_get(app, "name"));
	t->pid = jint(json_object_get(app, "pid"));
	t->exe = astr(a, json_object_get(app, "executable"));
	t->toolkit = astr(a, json_object_get(app, "toolkit"));
	t->toolkit_version = astr(a, json_object_get(app, "toolkit_version"));
	t->start_time = (uint64_t)jint(json_object_get(o, "start_time"));
	t->window_title = astr(a, json_object_get(win, "title"));
	t->window_index = (uint32_t)jint(json_object_get(win, "index"));
	t->x11_window = (uint64_t)jint(json_object_get(win, "x11_window"));
	v = json_object_get(win, "frame");
	if (json_is_object(v)) {
		t->has_window_frame = 1;
		t->window_frame.x = (int32_t)jint(json_object_get(v, "x"));
		t->window_frame.y = (int32_t)jint(json_object_get(v, "y"));
		t->window_frame.w = (int32_t)jint(json_object_get(v, "width"));
		t->window_frame.h = (int32_t)jint(json_object_get(v, "height"));
	}
	v = json_object_get(o, "revision");
	t->revision = (uint32_t)jint(json_object_get(v, "number"));
	t->content_revision = (uint32_t)jint(json_object_get(v, "content"));
	t->truncated = json_is_true(json_object_get(o, "truncated"));
	shot_from_json(t, json_object_get(o, "screenshot_geometry"));
	t->n_lines = (size_t)jint(json_object_get(o, "n_lines"));
	v = json_object_get(o, "selected_text");
	t->selected_text = json_is_string(v) ? astr(a, v) : NULL;

	t->n_skel = json_array_size(skel);
	t->skel = cua_arena_alloc(a, (t->n_skel ? t->n_skel : 1) *
					     sizeof(*t->skel));
	if (!t->skel)
		goto bad;
	json_array_foreach(skel, i, v)
	{
		struct cua_skel *s = &t->skel[i];

		if (!json_is_array(v) || json_array_size(v) != 14)
			goto bad;
		s->parent = (int32_t)jint(json_array_get(v, 0));
		s->index = (uint32_t)jint(json_array_get(v, 1));
		s->child_count = (uint32_t)jint(json_array_get(v, 2));
		s->first_child = (uint32_t)jint(json_array_get(v, 3));
		s->n_fetched = (uint32_t)jint(json_array_get(v, 4));
		s->child_offset = (uint32_t)jint(json_array_get(v, 5));
		s->element = (int32_t)jint(json_array_get(v, 6));
		s->fp.role = (uint32_t)jint(json_array_get(v, 7));
		s->fp.value_kind = (uint8_t)jint(json_array_get(v, 8));
		s->fp.subrole = json_is_null(json_array_get(v, 9)) ?
					NULL :
					astr(a, json_array_get(v, 9));
		s->fp.identifier = json_is_null(json_array_get(v, 10)) ?
					   NULL :
					   astr(a, json_array_get(v, 10));
		s->fp.title = astr(a, json_array_get(v, 11));
		s->ident = json_is_string(json_array_get(v, 12)) ?
				   astr(a, json_array_get(v, 12)) :
				   NULL;
		s->pinned = json_is_true(json_array_get(v, 13));
		/* breadth first, as walk.c builds it: a parent comes before
		 * its children, so that no chain of parents or children
		 * runs in a circle */
		if (s->parent < -1 || s->parent >= (int32_t)i ||
		    (s->n_fetched && s->first_child <= i) ||
		    (size_t)s->first_child + s->n_fetched > t->n_skel + 0 ||
		    s->element >= (int32_t)json_array_size(els))
			goto bad;
	}

	t->n_elements = json_array_size(els);
	if (t->n_lines > t->n_elements)
		goto bad;
	t->elements = cua_arena_alloc(a, (t->n_elements ? t->n_elements : 1) *
						 sizeof(*t->elements));
	if (!t->elements)
		goto bad;
	json_array_foreach(els, i, v)
	{
		struct cua_element *e = &t->elements[i];
		json_t *acts, *raws, *path, *sum, *fr;
		int64_t parent_id;

		if (!json_is_object(v))
			goto bad;
		e->tree = t;
		e->index = (uint32_t)i;
		e->id = (uint32_t)jint(json_object_get(v, "id"));
		e->depth = (uint32_t)jint(json_object_get(v, "depth"));
		e->role = (uint32_t)jint(json_object_get(v, "raw_role_id"));
		e->role_text = astr(a, json_object_get(v, "role"));
		e->traits = (uint32_t)jint(json_object_get(v, "traits_bits"));
		e->flags = (uint32_t)jint(json_object_get(v, "flags"));
		e->title = astr(a, json_object_get(v, "title"));
		e->description = astr(a, json_object_get(v, "description"));
		e->value = astr(a, json_object_get(v, "value"));
		e->help = astr(a, json_object_get(v, "help"));
		e->details = astr(a, json_object_get(v, "details"));
		e->placeholder = astr(a, json_object_get(v, "placeholder"));
		e->url = astr(a, json_object_get(v, "url"));
		e->identifier = astr(a, json_object_get(v, "identifier"));
		e->skel = (int32_t)jint(json_object_get(v, "skel"));
		sum = json_object_get(v, "shift");
		if (json_is_array(sum) && json_array_size(sum) == 2) {
			e->shift_x = (int32_t)jint(json_array_get(sum, 0));
			e->shift_y = (int32_t)jint(json_array_get(sum, 1));
		}
		e->row_index = (uint32_t)jint(json_object_get(v, "row_index"));
		/* at most the largest max_depth (1000): a removed element's
		 * line is indented by its depth */
		if (e->skel >= (int32_t)t->n_skel || e->depth > 1000)
			goto bad;
		sum = json_object_get(v, "summary");
		if (json_is_array(sum) && json_array_size(sum) == 3) {
			e->has_summary = 1;
			e->sum_a = (uint32_t)jint(json_array_get(sum, 0));
			e->sum_b = (uint32_t)jint(json_array_get(sum, 1));
			e->sum_n = (uint32_t)jint(json_array_get(sum, 2));
		}
		fr = json_object_get(v, "frame");
		if (json_is_object(fr)) {
			e->has_frame = 1;
			e->frame.x = (int32_t)jint(json_object_get(fr, "x"));
			e->frame.y = (int32_t)jint(json_object_get(fr, "y"));
			e->frame.w =
				(int32_t)jint(json_object_get(fr, "width"));
			e->frame.h =
				(int32_t)jint(json_object_get(fr, "height"));
		}
		acts = json_object_get(v, "secondary_actions");
		raws = json_object_get(v, "raw_actions");
		e->n_actions = json_array_size(acts);
		if (e->n_actions) {
			e->actions = cua_arena_alloc(a, e->n_actions *
								sizeof(char *));
			e->raw_actions = cua_arena_alloc(
				a, e->n_actions * sizeof(char *));
			if (!e->actions || !e->raw_actions)
				goto bad;
			for (size_t k = 0; k < e->n_actions; k++) {
				json_t *r = json_array_get(raws, k);

				e->actions[k] =
					astr(a, json_array_get(acts, k));
				e->raw_actions[k] =
					json_is_string(r) ? astr(a, r) : NULL;
			}
		}
		path = json_object_get(json_object_get(v, "locator"), "path");
		if (json_is_array(path)) {
			uint32_t *p =
				cua_arena_alloc(a, (json_array_size(path) + 1) *
							   sizeof(uint32_t));

			if (!p)
				goto bad;
			e->path_len = (uint32_t)json_array_size(path);
			for (uint32_t k = 0; k < e->path_len; k++)
				p[k] = (uint32_t)jint(json_array_get(path, k));
			e->path = p;
		}
		parent_id = json_is_integer(json_object_get(v, "parent")) ?
				    jint(json_object_get(v, "parent")) :
				    -1;
		e->parent = -1;
		if (parent_id >= 0)
			for (size_t k = 0; k < i; k++)
				if (t->elements[k].id == (uint32_t)parent_id) {
					e->parent = (int32_t)k;
					break;
				}
		if (json_is_true(json_object_get(v, "focused")))
			t->focused = (int32_t)i;
	}
	/* children */
	for (i = 0; i < t->n_elements; i++)
		if (t->elements[i].parent >= 0 &&
		    !(t->elements[i].flags & CUA_ELEM_FOCUS_ONLY))
			t->elements[t->elements[i].parent].n_children++;
	for (i = 0; i < t->n_elements; i++) {
		struct cua_element *e = &t->elements[i];

		if (e->n_children) {
			e->children = cua_arena_alloc(
				a, e->n_children * sizeof(uint32_t));
			if (!e->children)
				goto bad;
			e->n_children = 0;
		}
	}
	for (i = 0; i < t->n_elements; i++)
		if (t->elements[i].parent >= 0 &&
		    !(t->elements[i].flags & CUA_ELEM_FOCUS_ONLY)) {
			struct cua_element *pe =
				&t->elements[t->elements[i].parent];

			pe->children[pe->n_children++] = (uint32_t)i;
		}
	if (json_is_array(markers)) {
		t->n_markers = json_array_size(markers);
		t->markers = cua_arena_alloc(a, (t->n_markers + 1) *
							sizeof(*t->markers));
		if (!t->markers)
			goto bad;
		json_array_foreach(markers, i, v)
		{
			t->markers[i].after =
				(size_t)jint(json_array_get(v, 0));
			t->markers[i].text = astr(a, json_array_get(v, 1));
		}
	}
	return t;
bad:
	cua_tree_destroy(t);
	return NULL;
}
