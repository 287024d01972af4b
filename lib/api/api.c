/*
 * Public entry points: argument checks, reference counts, results and the
 * thread-local message. Everything else lives in the core.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cua/cua.h"
#include "core/render.h"
#include "core/roles.h"
#include "core/session.h"
#include "core/strbuf.h"

#define CHECK_ARG(cond, ...)                                                 \
	do {                                                                 \
		if (!(cond))                                                 \
			return cua_error(CUA_ERROR_INVALID_ARGUMENT,         \
					 __VA_ARGS__);                       \
	} while (0)

CUA_EXPORT const char *
cua_version_string(void)
{
	return CUA_VERSION_STRING;
}

CUA_EXPORT uint32_t
cua_version(void)
{
	return CUA_VERSION_HEX;
}

CUA_EXPORT const char *
cua_result_to_string(cua_result result)
{
	switch (result) {
	case CUA_OK:
		return "success";
	case CUA_ERROR:
		return "error";
	case CUA_ERROR_NOMEM:
		return "out of memory";
	case CUA_ERROR_INVALID_ARGUMENT:
		return "invalid argument";
	case CUA_ERROR_NOT_FOUND:
		return "not found";
	case CUA_ERROR_STALE:
		return "stale";
	case CUA_ERROR_UNSUPPORTED:
		return "unsupported";
	case CUA_ERROR_BACKEND:
		return "desktop unavailable";
	case CUA_ERROR_TIMEOUT:
		return "timed out";
	case CUA_ERROR_PERMISSION:
		return "not allowed";
	case CUA_ERROR_AMBIGUOUS:
		return "ambiguous";
	case CUA_ERROR_NO_WINDOW:
		return "no window";
	case CUA_ERROR_LAUNCH:
		return "launch failed";
	case CUA_ERROR_IO:
		return "input/output error";
	}
	return "unknown error";
}

CUA_EXPORT const char *
cua_error_message(void)
{
	return cua_error_get();
}

CUA_EXPORT void
cua_free(void *ptr)
{
	free(ptr);
}

/* ------------------------------------------------------------------ */
/* Sessions                                                             */

static cua_log_level
parse_level(const char *s, cua_log_level dflt)
{
	static const struct {
		const char *name;
		cua_log_level level;
	} names[] = {
		{ "error", CUA_LOG_ERROR },   { "warning", CUA_LOG_WARNING },
		{ "info", CUA_LOG_INFO },     { "debug", CUA_LOG_DEBUG },
		{ "trace", CUA_LOG_TRACE },
	};
	char *end;
	long v;

	if (!s || !*s)
		return dflt;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(s, names[i].name) == 0)
			return names[i].level;
	v = strtol(s, &end, 10);
	return *end ? dflt : (cua_log_level)v;
}

static struct cua_session *
session_alloc(void)
{
	struct cua_session *s = calloc(1, sizeof(*s));
	const char *state;

	if (!s)
		return NULL;
	atomic_init(&s->refcount, 1);
	s->ctx.session = s;
	s->ctx.log_level = parse_level(secure_getenv("CUA_LOG_LEVEL"),
				       CUA_LOG_WARNING);
	cua_options_default(&s->ctx.opt);
	state = secure_getenv("XDG_STATE_HOME");
	{
		struct strbuf sb = STRBUF_INIT;

		if (state && *state)
			sb_addf(&sb, "%s/libcua/usage.json", state);
		else if (secure_getenv("HOME"))
			sb_addf(&sb, "%s/.local/state/libcua/usage.json",
				secure_getenv("HOME"));
		s->usage_path = sb.len ? sb_steal(&sb) : NULL;
		sb_free(&sb);
	}
	return s;
}

static void
session_destroy(struct cua_session *s)
{
	cua_session_free_apps(s);
	if (s->backend)
		s->backend->ops->destroy(s->backend);
	free(s->usage_path);
	free(s);
}

CUA_EXPORT cua_result
cua_session_new(cua_session **out, uint32_t flags)
{
	struct cua_session *s;
	const char *backend;
	cua_result r;

	CHECK_ARG(out, "cua_session_new: out is NULL");
	*out = NULL;
	s = session_alloc();
	if (!s)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (flags & CUA_SESSION_NO_DESKTOP_FIXES)
		s->ctx.opt.desktop_fixes = 0;
	backend = secure_getenv("CUA_BACKEND");
	if (backend && strncmp(backend, "recorded:", 9) == 0) {
		r = cua_backend_recorded_new(&s->ctx, backend + 9, &s->backend);
		free(s->usage_path);
		s->usage_path = NULL;
	} else if (!backend || !*backend || strcmp(backend, "atspi") == 0) {
#if HAVE_ATSPI_BACKEND
		r = cua_backend_atspi_new(&s->ctx, flags, &s->backend);
#else
		r = cua_error(CUA_ERROR_UNSUPPORTED,
			      "libcua was built without the AT-SPI backend");
#endif
	} else {
		r = cua_error(CUA_ERROR_INVALID_ARGUMENT,
			      "CUA_BACKEND=%s: use atspi or recorded:<path>",
			      backend);
	}
	if (r != CUA_OK) {
		session_destroy(s);
		return r;
	}
	*out = s;
	return CUA_OK;
}

CUA_EXPORT cua_result
cua_session_new_recorded(cua_session **out, const char *path, uint32_t flags)
{
	struct cua_session *s;
	cua_result r;

	CHECK_ARG(out, "cua_session_new_recorded: out is NULL");
	*out = NULL;
	CHECK_ARG(path && *path, "cua_session_new_recorded: path is empty");
	s = session_alloc();
	if (!s)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	free(s->usage_path);
	s->usage_path = NULL;
	r = cua_backend_recorded_new(&s->ctx, path, &s->backend);
	if (r != CUA_OK) {
		session_destroy(s);
		return r;
	}
	*out = s;
	return CUA_OK;
}

CUA_EXPORT cua_session *
cua_session_ref(cua_session *s)
{
	if (s)
		atomic_fetch_add(&s->refcount, 1);
	return s;
}

CUA_EXPORT cua_session *
cua_session_unref(cua_session *s)
{
	if (s && atomic_fetch_sub(&s->refcount, 1) == 1)
		session_destroy(s);
	return NULL;
}

CUA_EXPORT void
cua_session_set_log_handler(cua_session *s, cua_log_fn handler,
			    void *user_data)
{
	if (!s)
		return;
	s->ctx.log_fn = handler;
	s->ctx.log_data = user_data;
}

CUA_EXPORT void
cua_session_set_log_level(cua_session *s, cua_log_level level)
{
	if (s)
		s->ctx.log_level = level;
}

CUA_EXPORT cua_result
cua_session_set_option(cua_session *s, const char *key, const char *value)
{
	static const struct {
		const char *key;
		size_t off;
		long min, max;
	} opts[] = {
		{ "walk_deadline_ms", offsetof(struct cua_options, walk_deadline_ms), 1, 600000 },
		{ "atspi_call_timeout_ms", offsetof(struct cua_options, call_timeout_ms), 1, 600000 },
		{ "max_elements", offsetof(struct cua_options, max_elements), 1, 1000000 },
		{ "max_depth", offsetof(struct cua_options, max_depth), 1, 1000 },
		{ "max_rows", offsetof(struct cua_options, max_rows), 1, 100000 },
		{ "launch_timeout_ms", offsetof(struct cua_options, launch_timeout_ms), 1, 600000 },
	};
	char *end;
	long v;

	CHECK_ARG(s && key && value, "cua_session_set_option: NULL argument");
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (strcmp(key, opts[i].key) != 0)
			continue;
		v = strtol(value, &end, 10);
		CHECK_ARG(*value && !*end && v >= opts[i].min && v <= opts[i].max,
			  "option %s: '%s' is not an integer between %ld and %ld",
			  key, value, opts[i].min, opts[i].max);
		*(int *)((char *)&s->ctx.opt + opts[i].off) = (int)v;
		return CUA_OK;
	}
	return cua_error(CUA_ERROR_INVALID_ARGUMENT, "unknown option '%s'", key);
}

CUA_EXPORT cua_result
cua_session_list_apps(cua_session *s, uint32_t flags, char **out)
{
	CHECK_ARG(out, "cua_session_list_apps: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_list_apps: session is NULL");
	return cua_session_list_apps_internal(s, flags, out);
}

CUA_EXPORT cua_result
cua_session_observe(cua_session *s, const char *app, uint32_t flags,
		    cua_tree **out)
{
	CHECK_ARG(out, "cua_session_observe: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_observe: session is NULL");
	CHECK_ARG(app && *app, "Missing required argument: app");
	return cua_session_observe_internal(s, app, flags, out);
}

CUA_EXPORT cua_result
cua_session_record(cua_session *s, const char *app, uint32_t flags,
		   char **out)
{
	CHECK_ARG(out, "cua_session_record: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_record: session is NULL");
	CHECK_ARG(app && *app, "Missing required argument: app");
	return cua_session_record_internal(s, app, out);
}

CUA_EXPORT cua_result
cua_session_save_state(cua_session *s, char **out)
{
	CHECK_ARG(out, "cua_session_save_state: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_save_state: session is NULL");
	return cua_session_save_state_internal(s, out);
}

CUA_EXPORT cua_result
cua_session_load_state(cua_session *s, const char *json)
{
	CHECK_ARG(s && json, "cua_session_load_state: NULL argument");
	return cua_session_load_state_internal(s, json);
}

/* ------------------------------------------------------------------ */
/* Trees                                                                */

CUA_EXPORT cua_tree *
cua_tree_ref(cua_tree *t)
{
	if (t)
		atomic_fetch_add(&t->refcount, 1);
	return t;
}

CUA_EXPORT cua_tree *
cua_tree_unref(cua_tree *t)
{
	if (t && atomic_fetch_sub(&t->refcount, 1) == 1)
		cua_tree_destroy(t);
	return NULL;
}

CUA_EXPORT cua_result
cua_tree_render(cua_tree *t, uint32_t flags, char **out)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_ARG(out, "cua_tree_render: out is NULL");
	*out = NULL;
	CHECK_ARG(t, "cua_tree_render: tree is NULL");
	cua_render_state(&sb, t);
	*out = sb_steal(&sb);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}

CUA_EXPORT cua_result
cua_tree_to_json(cua_tree *t, uint32_t flags, char **out)
{
	CHECK_ARG(out, "cua_tree_to_json: out is NULL");
	*out = NULL;
	CHECK_ARG(t, "cua_tree_to_json: tree is NULL");
	return cua_tree_json(t, 0, out);
}

CUA_EXPORT const char *
cua_tree_get_app_id(cua_tree *t)
{
	return t ? t->app_id : NULL;
}

CUA_EXPORT const char *
cua_tree_get_app_name(cua_tree *t)
{
	return t ? t->app_name : NULL;
}

CUA_EXPORT const char *
cua_tree_get_window_title(cua_tree *t)
{
	return t ? (t->window_title ? t->window_title : "") : NULL;
}

CUA_EXPORT int64_t
cua_tree_get_pid(cua_tree *t)
{
	return t ? t->pid : -1;
}

CUA_EXPORT uint32_t
cua_tree_get_revision(cua_tree *t)
{
	return t ? t->revision : 0;
}

CUA_EXPORT int
cua_tree_is_truncated(cua_tree *t)
{
	return t ? t->truncated : 0;
}

CUA_EXPORT int64_t
cua_tree_get_stat(cua_tree *t, cua_tree_stat stat)
{
	if (!t)
		return -1;
	switch (stat) {
	case CUA_STAT_RAW_NODES:
		return t->stats.raw_nodes;
	case CUA_STAT_ELEMENTS:
		return (int64_t)t->n_lines;
	case CUA_STAT_CALLS:
		return t->stats.calls;
	case CUA_STAT_WALK_US:
		return t->stats.walk_us;
	case CUA_STAT_BUILD_US:
		return t->stats.build_us;
	case CUA_STAT_CALL_ERRORS:
		return t->stats.call_errors;
	}
	return -1;
}

CUA_EXPORT size_t
cua_tree_get_element_count(cua_tree *t)
{
	return t ? t->n_elements : 0;
}

CUA_EXPORT cua_element *
cua_tree_get_element(cua_tree *t, size_t i)
{
	return t && i < t->n_elements ? &t->elements[i] : NULL;
}

CUA_EXPORT cua_element *
cua_tree_find_element(cua_tree *t, uint32_t id)
{
	if (!t)
		return NULL;
	for (size_t i = 0; i < t->n_elements; i++)
		if (t->elements[i].id == id)
			return &t->elements[i];
	return NULL;
}

CUA_EXPORT cua_element *
cua_tree_get_focused(cua_tree *t)
{
	return t && t->focused >= 0 ? &t->elements[t->focused] : NULL;
}

/* ------------------------------------------------------------------ */
/* Elements                                                             */

CUA_EXPORT cua_element *
cua_element_ref(cua_element *e)
{
	if (e)
		cua_tree_ref(e->tree);
	return e;
}

CUA_EXPORT cua_element *
cua_element_unref(cua_element *e)
{
	if (e)
		cua_tree_unref(e->tree);
	return NULL;
}

CUA_EXPORT uint32_t
cua_element_get_id(cua_element *e)
{
	return e ? e->id : CUA_NO_ID;
}

CUA_EXPORT uint32_t
cua_element_get_depth(cua_element *e)
{
	return e ? e->depth : 0;
}

CUA_EXPORT cua_element *
cua_element_get_parent(cua_element *e)
{
	return e && e->parent >= 0 ? &e->tree->elements[e->parent] : NULL;
}

CUA_EXPORT size_t
cua_element_get_child_count(cua_element *e)
{
	return e ? e->n_children : 0;
}

CUA_EXPORT cua_element *
cua_element_get_child(cua_element *e, size_t i)
{
	return e && i < e->n_children ? &e->tree->elements[e->children[i]] :
					 NULL;
}

CUA_EXPORT const char *
cua_element_get_role(cua_element *e)
{
	return e ? e->role_text : NULL;
}

CUA_EXPORT const char *
cua_element_get_raw_role(cua_element *e)
{
	return e ? cua_role_name(e->role) : NULL;
}

CUA_EXPORT const char *
cua_element_get_title(cua_element *e)
{
	return e ? e->title : NULL;
}

CUA_EXPORT const char *
cua_element_get_description(cua_element *e)
{
	return e ? e->description : NULL;
}

CUA_EXPORT const char *
cua_element_get_value(cua_element *e)
{
	if (!e)
		return NULL;
	return (e->flags & CUA_ELEM_SECURE) ? "" : e->value;
}

CUA_EXPORT uint32_t
cua_element_get_traits(cua_element *e)
{
	return e ? e->traits : 0;
}

CUA_EXPORT size_t
cua_element_get_action_count(cua_element *e)
{
	return e ? e->n_actions : 0;
}

CUA_EXPORT const char *
cua_element_get_action(cua_element *e, size_t i)
{
	return e && i < e->n_actions ? e->actions[i] : NULL;
}

CUA_EXPORT int
cua_element_get_frame(cua_element *e, int32_t *x, int32_t *y, int32_t *w,
		      int32_t *h)
{
	if (!e || !e->has_frame)
		return 0;
	if (x)
		*x = e->frame.x;
	if (y)
		*y = e->frame.y;
	if (w)
		*w = e->frame.w;
	if (h)
		*h = e->frame.h;
	return 1;
}

CUA_EXPORT cua_result
cua_element_get_locator(cua_element *e, size_t *window_index,
			const uint32_t **path, size_t *path_len)
{
	CHECK_ARG(e && window_index && path && path_len,
		  "cua_element_get_locator: NULL argument");
	*window_index = cua_element_window_index(e);
	*path = e->path;
	*path_len = e->path_len;
	return CUA_OK;
}

CUA_EXPORT cua_result
cua_element_render(cua_element *e, char **out)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_ARG(out, "cua_element_render: out is NULL");
	*out = NULL;
	CHECK_ARG(e, "cua_element_render: element is NULL");
	cua_render_line(&sb, e, 0);
	*out = sb_steal(&sb);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}
