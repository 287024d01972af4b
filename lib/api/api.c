/*
 * Public entry points: argument checks, reference counts, results and the
 * thread-local message. Everything else lives in the core.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cua/cua.h"
#include "core/a11y_note.h"
#include "core/act.h"
#include "core/cache.h"
#include "core/diff.h"
#include "core/errors.h"
#include "core/render.h"
#include "core/roles.h"
#include "core/sanitize.h"
#include "core/session.h"
#include "core/shot.h"
#include "core/strbuf.h"
#include "core/user.h"

#define CHECK_ARG(cond, ...)                                                   \
	do {                                                                   \
		if (!(cond))                                                   \
			return cua_error(CUA_ERROR_INVALID_ARGUMENT,           \
					 __VA_ARGS__);                         \
	} while (0)

/* An argument a model or a user gives (E-INVALID-ARGS). */
#define CHECK_GIVEN(cond, arg)                                                 \
	do {                                                                   \
		if (!(cond))                                                   \
			return cua_err(CUA_MSG_MISSING_ARG, { "arg", arg });   \
	} while (0)

/* Every entry point that returns a cua_result starts with no error on
 * the thread, and a session's calls word their messages in its
 * vocabulary. */
#define ENTER(session)                                                         \
	do {                                                                   \
		const struct cua_session *entered_ = (session);                \
		cua_error_clear();                                             \
		if (entered_)                                                  \
			cua_err_set_vocab(entered_->ctx.opt.vocabulary);       \
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
	case CUA_ERROR_NO_SESSION:
		return "no active session";
	case CUA_ERROR_PROCESS_GONE:
		return "process gone";
	case CUA_ERROR_INPUT_BLOCKED:
		return "input blocked";
	}
	return "unknown error";
}

CUA_EXPORT const char *
cua_error_message(void)
{
	return cua_error_get();
}

CUA_EXPORT cua_errcode
cua_error_code(void)
{
	return cua_err_code();
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
		{ "error", CUA_LOG_ERROR }, { "warning", CUA_LOG_WARNING },
		{ "info", CUA_LOG_INFO },   { "debug", CUA_LOG_DEBUG },
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
	s->ctx.log_level =
		parse_level(secure_getenv("CUA_LOG_LEVEL"), CUA_LOG_WARNING);
	cua_options_default(&s->ctx.opt);
	/* on unless CUA_TREE_CACHE=0 (NULL: off) */
	if (cua_cache_set_option(&s->cache, "auto") != CUA_OK ||
	    cua_user_init(s) < 0) {
		cua_cache_free(s->cache);
		free(s);
		return NULL;
	}
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
	cua_cache_free(s->cache);
	cua_shot_cache_free(s);
	cua_settle_free_all(s);
	if (s->backend)
		s->backend->ops->destroy(s->backend);
	/* after the display driver: its thread reports the person's input */
	cua_user_free(s);
	free(s->usage_path);
	free(s);
}

CUA_EXPORT cua_result
cua_session_new(cua_session **out, uint32_t flags)
{
	struct cua_session *s;
	const char *backend;
	cua_result r;

	ENTER(NULL);
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

	ENTER(NULL);
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
cua_session_set_log_handler(cua_session *s, cua_log_fn handler, void *user_data)
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
		{ "walk_deadline_ms",
		  offsetof(struct cua_options, walk_deadline_ms), 1, 600000 },
		{ "atspi_call_timeout_ms",
		  offsetof(struct cua_options, call_timeout_ms), 1, 600000 },
		{ "max_elements", offsetof(struct cua_options, max_elements), 1,
		  1000000 },
		{ "max_depth", offsetof(struct cua_options, max_depth), 1,
		  1000 },
		{ "max_rows", offsetof(struct cua_options, max_rows), 1,
		  100000 },
		{ "launch_timeout_ms",
		  offsetof(struct cua_options, launch_timeout_ms), 1, 600000 },
		{ "settle_quiet_ms",
		  offsetof(struct cua_options, settle_quiet_ms), 0, 60000 },
		{ "settle_cap_ms", offsetof(struct cua_options, settle_cap_ms),
		  0, 600000 },
		{ "settle_busy_cap_ms",
		  offsetof(struct cua_options, settle_busy_cap_ms), 0, 600000 },
		{ "settle_probe_ms",
		  offsetof(struct cua_options, settle_probe_ms), 0, 60000 },
		{ "settle_answered_ms",
		  offsetof(struct cua_options, settle_answered_ms), 0, 60000 },
		{ "settle_drawn_ms",
		  offsetof(struct cua_options, settle_drawn_ms), 0, 60000 },
		{ "warmup_cap_ms", offsetof(struct cua_options, warmup_cap_ms),
		  0, 600000 },
		{ "capture_timeout_ms",
		  offsetof(struct cua_options, capture_timeout_ms), 1, 600000 },
		{ "capture_fallback_timeout_ms",
		  offsetof(struct cua_options, capture_fallback_timeout_ms), 1,
		  600000 },
		{ "screenshot_max_long_edge",
		  offsetof(struct cua_options, shot_max_long_edge), 16, 65536 },
		{ "screenshot_max_short_edge",
		  offsetof(struct cua_options, shot_max_short_edge), 16,
		  65536 },
		{ "jpeg_quality", offsetof(struct cua_options, jpeg_quality), 1,
		  100 },
		{ "screenshot_reuse", offsetof(struct cua_options, shot_reuse),
		  0, 1 },
		{ "diff_baseline_max_age_s",
		  offsetof(struct cua_options, diff_max_age_s), 0,
		  86400 * 365 },
		{ "ignore_difference_line_budget",
		  offsetof(struct cua_options, diff_ignore_budget), 0, 1 },
		{ "locator_strict_siblings",
		  offsetof(struct cua_options, locator_strict_siblings), 0, 1 },
		{ "focus_timeout_ms",
		  offsetof(struct cua_options, focus_timeout_ms), 1, 60000 },
		{ "restore_pointer",
		  offsetof(struct cua_options, restore_pointer), 0, 1 },
		{ "always_simulate_click",
		  offsetof(struct cua_options, always_simulate_click), 0, 1 },
		{ "keymap_delay_ms",
		  offsetof(struct cua_options, keymap_delay_ms), 0, 5000 },
		{ "type_text_keys",
		  offsetof(struct cua_options, type_text_keys), 0, 1 },
	};
	/* keywords: value 0 for the first word, 1 for the second */
	static const struct {
		const char *key, *words[2];
		size_t off;
	} kw[] = {
		{ "diff_mode",
		  { "auto", "off" },
		  offsetof(struct cua_options, diff_off) },
		{ "diff_removed_style",
		  { "ranges", "lines" },
		  offsetof(struct cua_options, diff_removed_lines) },
	};
	char *end;
	long v;

	ENTER(s);
	CHECK_ARG(s && key && value, "cua_session_set_option: NULL argument");
	if (strcmp(key, "vocabulary") == 0) {
		int vocab = cua_vocab_from_name(value);

		CHECK_ARG(
			vocab >= 0,
			"option vocabulary: '%s' is not 'api', 'mcp' or 'cli'",
			value);
		s->ctx.opt.vocabulary = vocab;
		return CUA_OK;
	}
	if (strcmp(key, "stop_hotkey") == 0) {
		CHECK_ARG(strcmp(value, "on") == 0 || strcmp(value, "off") == 0,
			  "option stop_hotkey: '%s' is neither 'on' nor 'off'",
			  value);
		cua_user_stop_key(s, strcmp(value, "on") == 0);
		return CUA_OK;
	}
	if (strcmp(key, "tree_cache") == 0)
		return cua_cache_set_option(&s->cache, value);
	if (strcmp(key, "display") == 0) {
		if (!s->backend->ops->set_display)
			return cua_error(CUA_ERROR_UNSUPPORTED,
					 "option display: the %s backend has "
					 "no window system to choose a display "
					 "driver for",
					 s->backend->ops->name);
		return s->backend->ops->set_display(s->backend, value);
	}
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		if (strcmp(key, kw[i].key) != 0)
			continue;
		for (int w = 0; w < 2; w++)
			if (strcmp(value, kw[i].words[w]) == 0) {
				*(int *)((char *)&s->ctx.opt + kw[i].off) = w;
				return CUA_OK;
			}
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "option %s: '%s' is neither '%s' nor '%s'",
				 key, value, kw[i].words[0], kw[i].words[1]);
	}
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (strcmp(key, opts[i].key) != 0)
			continue;
		v = strtol(value, &end, 10);
		CHECK_ARG(
			*value && !*end && v >= opts[i].min && v <= opts[i].max,
			"option %s: '%s' is not an integer between %ld and %ld",
			key, value, opts[i].min, opts[i].max);
		*(int *)((char *)&s->ctx.opt + opts[i].off) = (int)v;
		return CUA_OK;
	}
	return cua_error(CUA_ERROR_INVALID_ARGUMENT, "unknown option '%s'",
			 key);
}

CUA_EXPORT void
cua_session_set_stopped(cua_session *s, int stopped)
{
	if (s)
		cua_user_set_stopped(s, stopped);
}

CUA_EXPORT int
cua_session_is_stopped(cua_session *s)
{
	return s ? cua_user_stopped(s) : 0;
}

CUA_EXPORT cua_result
cua_session_get_display_info(cua_session *s, char **json)
{
	struct cua_display *d = NULL;
	char why[128];

	ENTER(s);
	CHECK_ARG(json, "cua_session_get_display_info: json is NULL");
	*json = NULL;
	CHECK_ARG(s, "cua_session_get_display_info: session is NULL");
	if (s->backend->ops->display)
		d = s->backend->ops->display(s->backend);
	snprintf(why, sizeof(why), "the %s backend has no window system",
		 s->backend->ops->name);
	return cua_display_info_json(d, why, json);
}

CUA_EXPORT cua_result
cua_session_list_apps(cua_session *s, uint32_t flags, char **out)
{
	ENTER(s);
	CHECK_ARG(out, "cua_session_list_apps: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_list_apps: session is NULL");
	return cua_session_list_apps_internal(s, flags, out);
}

CUA_EXPORT cua_result
cua_session_observe(cua_session *s, const char *app, uint32_t flags,
		    cua_tree **out)
{
	ENTER(s);
	CHECK_ARG(out, "cua_session_observe: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_observe: session is NULL");
	CHECK_GIVEN(app && *app, "app");
	return cua_session_observe_internal(s, app, flags, out);
}

CUA_EXPORT cua_result
cua_sanitize_text(const char *text, size_t max_chars, char **out)
{
	struct strbuf clean = STRBUF_INIT, cut = STRBUF_INIT;

	ENTER(NULL);
	CHECK_ARG(out, "cua_sanitize_text: out is NULL");
	*out = NULL;
	CHECK_ARG(text, "cua_sanitize_text: text is NULL");
	cua_sanitize_sb(&clean, text);
	if (max_chars) {
		cua_add_truncated(&cut, sb_str(&clean), max_chars);
		sb_free(&clean);
		clean = cut;
	}
	*out = sb_steal(&clean);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}

CUA_EXPORT cua_result
cua_session_resolve_app(cua_session *s, const char *app, uint32_t flags,
			char **out)
{
	ENTER(s);
	CHECK_ARG(out, "cua_session_resolve_app: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_resolve_app: session is NULL");
	CHECK_GIVEN(app && *app, "app");
	return cua_session_resolve_internal(s, app, out);
}

CUA_EXPORT cua_result
cua_session_record(cua_session *s, const char *app, uint32_t flags, char **out)
{
	ENTER(s);
	CHECK_ARG(out, "cua_session_record: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_record: session is NULL");
	CHECK_GIVEN(app && *app, "app");
	return cua_session_record_internal(s, app, out);
}

CUA_EXPORT cua_result
cua_session_save_state(cua_session *s, char **out)
{
	ENTER(s);
	CHECK_ARG(out, "cua_session_save_state: out is NULL");
	*out = NULL;
	CHECK_ARG(s, "cua_session_save_state: session is NULL");
	return cua_session_save_state_internal(s, out);
}

CUA_EXPORT cua_result
cua_session_load_state(cua_session *s, const char *json)
{
	ENTER(s);
	CHECK_ARG(s && json, "cua_session_load_state: NULL argument");
	return cua_session_load_state_internal(s, json);
}

CUA_EXPORT void
cua_session_expire_baselines(cua_session *s)
{
	if (s)
		cua_session_expire_baselines_internal(s);
}

CUA_EXPORT cua_result
cua_session_wait_for_change(cua_session *s, cua_tree *t, int timeout_ms,
			    int *changed)
{
	ENTER(s);
	CHECK_ARG(changed, "cua_session_wait_for_change: changed is NULL");
	*changed = 0;
	CHECK_ARG(s && t, "cua_session_wait_for_change: NULL argument");
	return cua_session_wait_internal(s, t, timeout_ms, changed);
}

/* ------------------------------------------------------------------ */
/* Trees                                                                */

CUA_EXPORT cua_tree *
cua_tree_ref(cua_tree *t)
{
	return cua_tree_retain(t);
}

CUA_EXPORT cua_tree *
cua_tree_unref(cua_tree *t)
{
	cua_tree_release(t);
	return NULL;
}

CUA_EXPORT cua_result
cua_tree_render(cua_tree *t, uint32_t flags, char **out)
{
	struct strbuf sb = STRBUF_INIT;

	ENTER(NULL);
	CHECK_ARG(out, "cua_tree_render: out is NULL");
	*out = NULL;
	CHECK_ARG(t, "cua_tree_render: tree is NULL");
	cua_render_observation(&sb, t, flags);
	*out = sb_steal(&sb);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}

CUA_EXPORT cua_result
cua_tree_to_json(cua_tree *t, uint32_t flags, char **out)
{
	ENTER(NULL);
	CHECK_ARG(out, "cua_tree_to_json: out is NULL");
	*out = NULL;
	CHECK_ARG(t, "cua_tree_to_json: tree is NULL");
	return cua_tree_json(t, 0, flags, out);
}

/* ------------------------------------------------------------------ */
/* Diffs                                                                */

struct cua_tree_diff {
	atomic_int refcount;
	struct cua_tree *tree; /* the newer tree (a reference) */
	const struct cua_delta *delta;
	struct cua_arena *arena; /* owns delta; NULL: delta is the tree's */
};

static cua_tree_diff *
diff_alloc(struct cua_tree *t)
{
	cua_tree_diff *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	atomic_init(&d->refcount, 1);
	d->tree = cua_tree_ref(t);
	return d;
}

CUA_EXPORT cua_result
cua_tree_diff_new(cua_tree *old_tree, cua_tree *new_tree, uint32_t flags,
		  cua_tree_diff **out)
{
	cua_tree_diff *d;

	ENTER(NULL);
	CHECK_ARG(out, "cua_tree_diff_new: out is NULL");
	*out = NULL;
	CHECK_ARG(old_tree && new_tree, "cua_tree_diff_new: tree is NULL");
	d = diff_alloc(new_tree);
	if (!d || !(d->arena = cua_arena_new()) ||
	    !(d->delta = cua_delta_compute(old_tree, new_tree, d->arena))) {
		cua_tree_diff_unref(d);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	*out = d;
	return CUA_OK;
}

CUA_EXPORT cua_result
cua_tree_get_diff(cua_tree *t, cua_tree_diff **out)
{
	cua_tree_diff *d;

	ENTER(NULL);
	CHECK_ARG(out, "cua_tree_get_diff: out is NULL");
	*out = NULL;
	CHECK_ARG(t, "cua_tree_get_diff: tree is NULL");
	if (!t->delta)
		return cua_error(CUA_ERROR_NOT_FOUND,
				 "the observation has no diff baseline");
	d = diff_alloc(t);
	if (!d)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	d->delta = t->delta;
	*out = d;
	return CUA_OK;
}

CUA_EXPORT cua_tree_diff *
cua_tree_diff_ref(cua_tree_diff *d)
{
	if (d)
		atomic_fetch_add(&d->refcount, 1);
	return d;
}

CUA_EXPORT cua_tree_diff *
cua_tree_diff_unref(cua_tree_diff *d)
{
	if (d && atomic_fetch_sub(&d->refcount, 1) == 1) {
		cua_tree_release(d->tree);
		cua_arena_free(d->arena);
		free(d);
	}
	return NULL;
}

CUA_EXPORT cua_tree *
cua_tree_diff_get_tree(cua_tree_diff *d)
{
	return d ? d->tree : NULL;
}

static size_t
id_list(const uint32_t *a, size_t n, const uint32_t **ids)
{
	if (ids)
		*ids = n ? a : NULL;
	return n;
}

CUA_EXPORT size_t
cua_tree_diff_get_changed(cua_tree_diff *d, const uint32_t **ids)
{
	return d ? id_list(d->delta->changed, d->delta->n_changed, ids) :
		   id_list(NULL, 0, ids);
}

CUA_EXPORT size_t
cua_tree_diff_get_added(cua_tree_diff *d, const uint32_t **ids)
{
	return d ? id_list(d->delta->added, d->delta->n_added, ids) :
		   id_list(NULL, 0, ids);
}

CUA_EXPORT size_t
cua_tree_diff_get_removed(cua_tree_diff *d, const uint32_t **ids)
{
	return d ? id_list(d->delta->removed, d->delta->n_removed, ids) :
		   id_list(NULL, 0, ids);
}

CUA_EXPORT int
cua_tree_diff_is_empty(cua_tree_diff *d)
{
	return d ? cua_delta_is_empty(d->delta) : 0;
}

CUA_EXPORT cua_result
cua_tree_diff_render(cua_tree_diff *d, uint32_t flags, char **out)
{
	struct strbuf sb = STRBUF_INIT;

	ENTER(NULL);
	CHECK_ARG(out, "cua_tree_diff_render: out is NULL");
	*out = NULL;
	CHECK_ARG(d, "cua_tree_diff_render: diff is NULL");
	cua_render_delta(&sb, d->tree, d->delta, flags);
	*out = sb_steal(&sb);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
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

CUA_EXPORT uint32_t
cua_tree_get_content_revision(cua_tree *t)
{
	return t ? t->content_revision : 0;
}

CUA_EXPORT int
cua_tree_is_truncated(cua_tree *t)
{
	return t ? t->truncated : 0;
}

CUA_EXPORT const char *
cua_tree_get_accessibility_note(cua_tree *t)
{
	return t ? t->a11y_note : NULL;
}

CUA_EXPORT char *
cua_accessibility_note(const char *app_name, const char *toolkit,
		       const char *exe, int64_t pid)
{
	return cua_a11y_note(app_name, toolkit, exe, pid);
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
	case CUA_STAT_DIFF_US:
		return t->stats.diff_us;
	case CUA_STAT_SETTLE_US:
		return t->shot_stats.settle_us;
	case CUA_STAT_WARMUP_US:
		return t->shot_stats.warmup_us;
	case CUA_STAT_CAPTURE_US:
		return t->shot_stats.capture_us;
	case CUA_STAT_ENCODE_US:
		return t->shot_stats.encode_us;
	case CUA_STAT_SETTLE_CAPPED:
		return t->shot_stats.settle_capped;
	case CUA_STAT_SCREENSHOT_REUSED:
		return t->shot_stats.reused;
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
	ENTER(NULL);
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

	ENTER(NULL);
	CHECK_ARG(out, "cua_element_render: out is NULL");
	*out = NULL;
	CHECK_ARG(e, "cua_element_render: element is NULL");
	cua_render_line(&sb, e, 0);
	*out = sb_steal(&sb);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Screenshots                                                          */

CUA_EXPORT cua_result
cua_tree_get_screenshot(cua_tree *t, const void **data, size_t *size,
			const char **mime_type, uint32_t *width,
			uint32_t *height, double *pixels_per_point)
{
	ENTER(NULL);
	CHECK_ARG(t && data && size && mime_type,
		  "cua_tree_get_screenshot: NULL argument");
	*data = NULL;
	*size = 0;
	*mime_type = NULL;
	if (!t->shot_data)
		return cua_error(CUA_ERROR_NOT_FOUND,
				 "Screenshot unavailable: %s.",
				 t->shot_error ? t->shot_error :
						 "no screenshot was taken");
	*data = t->shot_data;
	*size = t->shot_size;
	*mime_type = t->shot_mime;
	if (width)
		*width = t->shot.width;
	if (height)
		*height = t->shot.height;
	if (pixels_per_point)
		*pixels_per_point = t->shot.ppp;
	return CUA_OK;
}

CUA_EXPORT const char *
cua_tree_get_screenshot_error(cua_tree *t)
{
	if (!t || t->shot_data)
		return NULL;
	return t->shot_error ? t->shot_error : "no screenshot was taken";
}

CUA_EXPORT cua_result
cua_tree_render_screenshot(cua_tree *t, uint32_t flags, void **out,
			   size_t *size)
{
	ENTER(NULL);
	CHECK_ARG(out && size, "cua_tree_render_screenshot: out is NULL");
	*out = NULL;
	*size = 0;
	CHECK_ARG(t, "cua_tree_render_screenshot: tree is NULL");
	CHECK_ARG(!(flags & ~(CUA_SCREENSHOT_MARKS | CUA_SCREENSHOT_PNG)),
		  "cua_tree_render_screenshot: unknown flags 0x%x",
		  (unsigned)flags);
	return cua_shot_render(t, (flags & CUA_SCREENSHOT_MARKS) != 0,
			       (flags & CUA_SCREENSHOT_PNG) != 0, out, size);
}

CUA_EXPORT cua_result
cua_tree_render_marks(cua_tree *t, uint32_t flags, void **out, size_t *size)
{
	ENTER(NULL);
	return cua_tree_render_screenshot(t, flags | CUA_SCREENSHOT_MARKS, out,
					  size);
}

CUA_EXPORT cua_result
cua_tree_screenshot_to_screen(cua_tree *t, double x, double y,
			      int32_t *screen_x, int32_t *screen_y)
{
	ENTER(NULL);
	CHECK_ARG(t && screen_x && screen_y,
		  "cua_tree_screenshot_to_screen: NULL argument");
	if (!t->has_shot)
		return cua_error(CUA_ERROR_NOT_FOUND,
				 "Screenshot unavailable: %s.",
				 t->shot_error ? t->shot_error :
						 "no screenshot was taken");
	CHECK_ARG(cua_geom_pixel_in_image(&t->shot, x, y),
		  "(%g, %g) is outside the %ux%u screenshot", x, y,
		  t->shot.width, t->shot.height);
	cua_geom_pixel_to_root(&t->shot, t->shot.frame.x, t->shot.frame.y, x, y,
			       screen_x, screen_y);
	return CUA_OK;
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

#define ACT_ARGS(fn)                                                           \
	do {                                                                   \
		if (outcome)                                                   \
			*outcome = NULL;                                       \
		CHECK_ARG(s, #fn ": session is NULL");                         \
		CHECK_GIVEN(app &&*app, "app");                                \
	} while (0)

CUA_EXPORT cua_result
cua_session_click(cua_session *s, const char *app, uint32_t element_id,
		  uint32_t button, uint32_t click_count, char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_click);
	return cua_do_click(s, app, element_id, button, click_count, outcome);
}

CUA_EXPORT cua_result
cua_session_click_at(cua_session *s, const char *app, double x, double y,
		     uint32_t button, uint32_t click_count, char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_click_at);
	return cua_do_click_at(s, app, x, y, button, click_count, outcome);
}

CUA_EXPORT cua_result
cua_session_set_value(cua_session *s, const char *app, uint32_t element_id,
		      const char *value, char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_set_value);
	CHECK_GIVEN(value, "value");
	return cua_do_set_value(s, app, element_id, value, outcome);
}

CUA_EXPORT cua_result
cua_session_type_text(cua_session *s, const char *app, const char *text,
		      char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_type_text);
	CHECK_GIVEN(text && *text, "text");
	return cua_do_type_text(s, app, text, outcome);
}

CUA_EXPORT cua_result
cua_session_press_key(cua_session *s, const char *app, const char *key,
		      char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_press_key);
	CHECK_GIVEN(key && *key, "key");
	return cua_do_press_key(s, app, key, outcome);
}

CUA_EXPORT cua_result
cua_session_scroll(cua_session *s, const char *app, uint32_t element_id,
		   const char *direction, double pages, char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_scroll);
	return cua_do_scroll(s, app, element_id, direction, pages, outcome);
}

CUA_EXPORT cua_result
cua_session_scroll_at(cua_session *s, const char *app, double x, double y,
		      const char *direction, double pages, char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_scroll_at);
	return cua_do_scroll_at(s, app, x, y, direction, pages, outcome);
}

CUA_EXPORT cua_result
cua_session_drag(cua_session *s, const char *app, double from_x, double from_y,
		 double to_x, double to_y, char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_drag);
	return cua_do_drag(s, app, from_x, from_y, to_x, to_y, outcome);
}

CUA_EXPORT cua_result
cua_session_perform_action(cua_session *s, const char *app, uint32_t element_id,
			   const char *action, char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_perform_action);
	return cua_do_perform_action(s, app, element_id, action, outcome);
}

CUA_EXPORT cua_result
cua_session_select_text(cua_session *s, const char *app, uint32_t element_id,
			const char *text, const char *prefix,
			const char *suffix, uint32_t mode, char **outcome)
{
	ENTER(s);
	ACT_ARGS(cua_session_select_text);
	return cua_do_select_text(
		s, app, element_id, text, prefix && *prefix ? prefix : NULL,
		suffix && *suffix ? suffix : NULL, mode, outcome);
}
