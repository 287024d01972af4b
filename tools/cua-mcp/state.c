/*
 * cua-mcp: the libcua session, target resolution and the get_app_state
 * envelope (docs/tools.md §3): banner, per-app instructions, <app_state>, the
 * notes after it, the JPEG image block and the structured content.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call.h"
#include "doctor.h"

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static cua_session *session;
/* the same, for the thread that handles signals */
static _Atomic(cua_session *) shared_session;
/* a stop that came before the session existed */
static atomic_int stop_pending;

/* App ids observed in this server session (docs/identity.md §5 row 7), and
 * those whose latest observation never reached the client (a cancelled
 * call): their next observation is a full tree, because the diff
 * baseline moved to a tree the model has not seen. Worker thread only. */
static char **observed, **undelivered;
static size_t n_observed, n_undelivered;

static int
in_set(char **set, size_t n, const char *id)
{
	for (size_t i = 0; id && i < n; i++)
		if (strcmp(set[i], id) == 0)
			return 1;
	return 0;
}

static void
add_to_set(char ***set, size_t *n, const char *id)
{
	char **grown;

	if (!id || in_set(*set, *n, id))
		return;
	grown = realloc(*set, (*n + 1) * sizeof(**set));
	if (!grown)
		return;
	*set = grown;
	if (((*set)[*n] = strdup(id)))
		(*n)++;
}

static void
remove_from_set(char **set, size_t *n, const char *id)
{
	for (size_t i = 0; id && i < *n; i++)
		if (strcmp(set[i], id) == 0) {
			free(set[i]);
			set[i] = set[--*n];
			return;
		}
}

/* ---- the session -------------------------------------------------------- */

cua_session *
session_get(struct mcp_error *err)
{
	cua_result r;

	if (session) {
		cua_session_set_log_level(session, mcp_log_threshold());
		return session;
	}
	if (desktop_env_problem()) {
		mcp_fail(err, E_PERMISSIONS_NOT_GRANTED, "%s",
			 desktop_env_problem());
		return NULL;
	}
	r = cua_session_new(&session, 0);
	if (r != CUA_OK) {
		mcp_fail_library(err, r);
		if (err->id == E_INTERNAL)
			err->id = E_PERMISSIONS_NOT_GRANTED;
		session = NULL;
		return NULL;
	}
	atomic_store(&shared_session, session);
	if (atomic_load(&stop_pending))
		cua_session_set_stopped(session, 1);
	cua_session_set_log_handler(session, mcp_libcua_log, NULL);
	cua_session_set_log_level(session, mcp_log_threshold());
	/* the library's messages name the tools of this server */
	if (cua_session_set_option(session, "vocabulary", "mcp") != CUA_OK)
		LOG_WARN("cannot set the message vocabulary: %s",
			 cua_error_message());
	if ((mcp_opt.no_diff || policy_diff_off()) &&
	    cua_session_set_option(session, "diff_mode", "off") != CUA_OK)
		LOG_WARN("cannot switch diffs off: %s", cua_error_message());
	LOG_INFO("connected to the desktop (DISPLAY %s)",
		 getenv("DISPLAY") ? getenv("DISPLAY") : "unset");
	return session;
}

void
session_log_desktop(void)
{
	struct mcp_error err = { 0 };
	cua_session *s;
	json_t *facts;
	char *line = NULL;

	/* the facts cost a session and a list of the bus's apps: only for
	 * someone who reads them */
	if (mcp_log_threshold() < CUA_LOG_INFO)
		return;
	s = session_get(&err);
	facts = doctor_facts(s, s ? NULL : err.detail);
	free(err.detail);
	if (facts)
		line = doctor_line(facts);
	json_decref(facts);
	if (line)
		LOG_INFO("%s", line);
	free(line);
}

void
session_new_turn(void)
{
	while (n_observed)
		free(observed[--n_observed]);
	/* a new turn lifts the person's stop (docs/safety.md §8) */
	atomic_store(&stop_pending, 0);
	if (session) {
		cua_session_expire_baselines(session);
		cua_session_set_stopped(session, 0);
	}
}

void
session_user_stop(void)
{
	cua_session *s = atomic_load(&shared_session);

	LOG_INFO("stopped by the user (cua stop)");
	atomic_store(&stop_pending, 1);
	if (s)
		cua_session_set_stopped(s, 1);
}

void
session_turn_active(int active)
{
	static int held = -1;
	struct mcp_error err = { 0 };

	/* the stop hotkey is held while a turn is active */
	if (held == active)
		return;
	if (!session_get(&err)) {
		mcp_error_clear(&err);
		return;
	}
	if (cua_session_set_option(session, "stop_hotkey",
				   active ? "on" : "off") == CUA_OK)
		held = active;
}

void
session_close(void)
{
	atomic_store(&shared_session, NULL);
	session = cua_session_unref(session);
}

/* ---- targets ------------------------------------------------------------ */

void
target_clear(struct target *t)
{
	json_decref(t->info);
	free(t->query);
	memset(t, 0, sizeof(*t));
}

/* Fills t from a libcua.app/1 object (stolen). */
static void
target_set(struct target *t, json_t *info)
{
	const char *file;

	target_clear(t);
	t->info = info;
	t->id = json_string_value(json_object_get(info, "id"));
	t->name = json_string_value(json_object_get(info, "name"));
	if (!t->id)
		t->id = "";
	if (!t->name)
		t->name = t->id;
	t->running = json_is_true(json_object_get(info, "running"));
	t->pid = json_integer_value(json_object_get(info, "pid"));
	file = json_string_value(json_object_get(info, "desktop_file"));
	/* freeze the target: later calls name the process, or the exact
	 * desktop entry to launch, never the model's string again */
	if (t->running)
		str_addf(&t->query, "pid:%" PRId64, t->pid);
	else
		t->query = strdup(file ? file : t->id);
}

static int
resolve(const char *app, struct target *t, struct mcp_error *err)
{
	char *json = NULL;
	json_t *info;
	cua_result r;

	r = cua_session_resolve_app(session, app, 0, &json);
	if (r != CUA_OK)
		return mcp_fail_library(err, r);
	info = json_loads(json, 0, NULL);
	cua_free(json);
	if (!json_is_object(info)) {
		json_decref(info);
		return mcp_fail(
			err, E_INTERNAL,
			"libcua returned an unreadable app description.");
	}
	target_set(t, info);
	return 0;
}

int
target_acquire(struct job *job, const char *app, struct target *t,
	       struct mcp_error *err)
{
	memset(t, 0, sizeof(*t));
	if (!session_get(err))
		return -1;
	if (policy_enabled(err) < 0)
		return -1;
	if (resolve(app, t, err) < 0)
		return -1;
	return policy_check(job, t, err);
}

int
target_require_active(const struct target *t, const char *app,
		      struct mcp_error *err)
{
	char *clean;
	int r;

	if (in_set(observed, n_observed, t->id))
		return 0;
	clean = sanitized(app, 160);
	r = mcp_fail(
		err, E_NOT_ACTIVE,
		"Computer Use is not active for '%s'. You first must call `get_app_state` to get the latest state before doing other Computer Use actions.",
		clean);
	free(clean);
	return r;
}

/* ---- images ------------------------------------------------------------- */

static char *
base64(const unsigned char *data, size_t len)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = malloc((len + 2) / 3 * 4 + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16 |
			     (uint32_t)data[i + 1] << 8 | data[i + 2];

		*o++ = tab[v >> 18 & 63];
		*o++ = tab[v >> 12 & 63];
		*o++ = tab[v >> 6 & 63];
		*o++ = tab[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)data[i] << 16 |
			     (i + 1 < len ? (uint32_t)data[i + 1] << 8 : 0);

		*o++ = tab[v >> 18 & 63];
		*o++ = tab[v >> 12 & 63];
		*o++ = i + 1 < len ? tab[v >> 6 & 63] : '=';
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

/* The screenshot of the observation, as an image block and its
 * structured description; or the reason there is none. */
static void
attach_screenshot(struct observation *obs, json_t *structured)
{
	const void *data = NULL;
	const char *mime = NULL, *why;
	uint32_t w = 0, h = 0;
	double ppp = 1;
	size_t size = 0;
	char *b64;

	if (cua_tree_get_screenshot(obs->tree, &data, &size, &mime, &w, &h,
				    &ppp) == CUA_OK &&
	    (b64 = base64(data, size))) {
		obs->image = json_pack("{s:s,s:s,s:s}", "type", "image", "data",
				       b64, "mimeType", mime);
		free(b64);
		json_object_set_new(structured, "screenshot",
				    json_pack("{s:s,s:i,s:i,s:f}", "mime_type",
					      mime, "width", (int)w, "height",
					      (int)h, "pixels_per_point", ppp));
		json_object_set_new(structured, "screenshot_error",
				    json_null());
		return;
	}
	why = cua_tree_get_screenshot_error(obs->tree);
	if (!why)
		why = "the capture failed";
	json_object_set_new(structured, "screenshot", json_null());
	json_object_set_new(structured, "screenshot_error", json_string(why));
	str_addf(&obs->notes, "%sScreenshot unavailable: %s.",
		 obs->notes ? "\n" : "", why);
}

/* ---- observations ------------------------------------------------------- */

void
observation_clear(struct observation *obs)
{
	cua_tree_unref(obs->tree);
	cua_free(obs->body);
	free(obs->instructions);
	free(obs->notes);
	json_decref(obs->structured);
	json_decref(obs->image);
	free(obs->app_id);
	memset(obs, 0, sizeof(*obs));
}

int
observe(struct job *job, struct target *t, const char *app, int disable_diff,
	struct observation *obs, struct mcp_error *err)
{
	uint32_t flags = 0, rflags = mcp_opt.no_diff ? 0 : CUA_RENDER_DIFF;
	char *json = NULL, *note;
	const char *id;
	cua_result r;

	double t0 = now_ms(), t1, t2;

	memset(obs, 0, sizeof(*obs));
	if (disable_diff || in_set(undelivered, n_undelivered, t->id))
		flags |= CUA_OBSERVE_DISABLE_DIFF;
	rpc_progress(job, "reading the accessibility tree");
	r = cua_session_observe(session, t->query, flags, &obs->tree);
	if (r != CUA_OK) {
		mcp_fail_library(err, r);
		mcp_error_rename(err, t->query, app);
		return -1;
	}
	id = cua_tree_get_app_id(obs->tree);
	obs->app_id = strdup(id ? id : t->id);
	add_to_set(&undelivered, &n_undelivered, obs->app_id);
	if (rpc_cancelled(job))
		return -2;
	if (!t->running || strcmp(obs->app_id, t->id) != 0) {
		/* launched: decide again on the process that showed up */
		char query[48];
		int rc;

		snprintf(query, sizeof(query), "pid:%" PRId64,
			 cua_tree_get_pid(obs->tree));
		if (resolve(query, t, err) < 0)
			return -1;
		rc = policy_check(job, t, err);
		if (rc < 0)
			return rc;
	}
	add_to_set(&observed, &n_observed, obs->app_id);

	t1 = now_ms();
	r = cua_tree_render(obs->tree, rflags, &obs->body);
	if (r == CUA_OK)
		r = cua_tree_to_json(obs->tree, rflags, &json);
	if (r != CUA_OK)
		return mcp_fail_library(err, r);
	obs->structured = json_loads(json, 0, NULL);
	cua_free(json);
	if (!json_is_object(obs->structured)) {
		json_decref(obs->structured);
		obs->structured = json_object();
	}
	json_object_set_new(obs->structured, "state_text",
			    json_string(obs->body));
	/* docs/safety.md §7: an app without an accessibility tree, or with
	 * only a skeleton of one */
	note = NULL;
	if (json_is_false(json_object_get(t->info, "accessible")))
		note = cua_accessibility_note(
			t->name,
			json_string_value(json_object_get(t->info, "toolkit")),
			json_string_value(
				json_object_get(t->info, "executable")),
			cua_tree_get_pid(obs->tree));
	else if (cua_tree_get_accessibility_note(obs->tree))
		note = strdup(cua_tree_get_accessibility_note(obs->tree));
	if (note)
		str_addf(&obs->notes, "%s", note);
	free(note);
	t2 = now_ms();
	attach_screenshot(obs, obs->structured);
	obs->instructions = instructions_for(obs->app_id);
	/* observe: settle, walk, capture and JPEG in libcua; render: text
	 * and structured form; encode: base64 */
	json_object_set_new(obs->structured, "timings_ms",
			    json_pack("{s:f,s:f,s:f,s:f}", "observe", t1 - t0,
				      "render", t2 - t1, "encode",
				      now_ms() - t2, "total", now_ms() - t0));
	return 0;
}

json_t *
observation_result(struct observation *obs, const char *report,
		   json_t *structured_override, int is_error)
{
	json_t *res, *content, *structured;
	char *text = NULL;

	if (report)
		str_addf(&text, "%s\n\n", report);
	str_addf(&text, "%s", result_banner());
	if (obs->instructions)
		str_addf(
			&text,
			"\n<app_specific_instructions>\n%s\n</app_specific_instructions>",
			obs->instructions);
	str_addf(&text, "\n<app_state>\n%s\n</app_state>", obs->body);
	if (obs->notes)
		str_addf(&text, "\n%s", obs->notes);

	json_object_set_new(obs->structured, "instructions_delivered",
			    json_boolean(obs->instructions != NULL));
	structured = structured_override ? structured_override :
					   json_incref(obs->structured);
	res = result_text(text, structured, is_error);
	free(text);
	content = json_object_get(res, "content");
	if (obs->image)
		json_array_append(content, obs->image);

	/* the observation reached the model: its baseline is the one the
	 * next diff is made against, and its instructions are delivered */
	remove_from_set(undelivered, &n_undelivered, obs->app_id);
	if (obs->instructions)
		instructions_delivered(obs->app_id);
	return res;
}
