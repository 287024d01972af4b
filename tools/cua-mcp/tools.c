/*
 * cua-mcp: the tools — the list, argument validation (docs/tools.md §2) and the
 * handlers of list_apps, get_app_state, the eight actions and sequence.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "call.h"
#include "tool-list.h"

#define SEQUENCE_DEADLINE_MS 60000

static json_t *tools; /* the tools/list array */

static const char turn_ended_text[] =
	"Computer Use is unavailable because the current turn ended. It will work again after the next user message.";

int
tools_init(void)
{
	tools = tool_list_new();
	if (!tools) {
		fprintf(stderr, "cua-mcp: out of memory\n");
		return -1;
	}
	if (mcp_opt.no_sequence)
		json_array_remove(tools, json_array_size(tools) - 1);
	return 0;
}

json_t *
tools_list(void)
{
	return tools;
}

static json_t *
tool_def(const char *name)
{
	size_t i;
	json_t *t;

	json_array_foreach(
		tools, i,
		t) if (strcmp(json_string_value(json_object_get(t, "name")),
			      name) == 0) return t;
	return NULL;
}

int
tools_exists(const char *name)
{
	return tool_def(name) != NULL;
}

/* ---- validation --------------------------------------------------------- */

static const char *
type_phrase(const char *type)
{
	if (strcmp(type, "string") == 0)
		return "a string";
	if (strcmp(type, "number") == 0)
		return "a number";
	if (strcmp(type, "integer") == 0)
		return "an integer";
	if (strcmp(type, "boolean") == 0)
		return "a boolean";
	if (strcmp(type, "array") == 0)
		return "an array";
	return "an object";
}

static int
has_type(json_t *v, const char *type)
{
	if (strcmp(type, "string") == 0)
		return json_is_string(v);
	if (strcmp(type, "number") == 0)
		return json_is_number(v);
	if (strcmp(type, "integer") == 0)
		return json_is_integer(v) ||
		       (json_is_real(v) &&
			json_real_value(v) == floor(json_real_value(v)));
	if (strcmp(type, "boolean") == 0)
		return json_is_boolean(v);
	if (strcmp(type, "array") == 0)
		return json_is_array(v);
	return json_is_object(v);
}

/* "Invalid arguments for <tool>: " as every libcua-specific text starts */
static char *
invalid(const char *tool, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *
invalid(const char *tool, const char *fmt, ...)
{
	char *tail = NULL, *m = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&tail, fmt, ap) < 0)
		tail = NULL;
	va_end(ap);
	str_addf(&m, "Invalid arguments for %s: %s", tool, tail ? tail : "");
	free(tail);
	return m;
}

static int
blank(const char *s)
{
	return strspn(s, " \t\r\n") == strlen(s);
}

static const char *
trimmed(const char *s)
{
	return s + strspn(s, " \t\r\n");
}

/* docs/tools.md §2.3: decimal digits in a string, or an integer >= 0. */
static int
parse_element(json_t *v, uint32_t *out)
{
	unsigned long long n = 0;
	const char *s;

	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0 ||
		    json_integer_value(v) > UINT32_MAX)
			return -1;
		*out = (uint32_t)json_integer_value(v);
		return 0;
	}
	if (!json_is_string(v))
		return -1;
	s = trimmed(json_string_value(v));
	if (!*s)
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		n = n * 10 + (unsigned)(*s - '0');
		if (n > UINT32_MAX)
			return -1;
	}
	if (!blank(s))
		return -1;
	*out = (uint32_t)n;
	return 0;
}

/* Case-insensitive match against a list of names, each with its one-letter
 * alias (docs/tools.md §2.4); returns the canonical name or NULL. */
static const char *
lenient(const char *value, const char *const names[])
{
	const char *v = trimmed(value);
	size_t len = strlen(v);

	while (len && strchr(" \t\r\n", v[len - 1]))
		len--;
	for (int i = 0; names[i]; i++)
		if ((len == strlen(names[i]) &&
		     strncasecmp(v, names[i], len) == 0) ||
		    (len == 1 && tolower((unsigned char)v[0]) == names[i][0]))
			return names[i];
	return NULL;
}

static const char *
str_arg(json_t *args, const char *key)
{
	return json_string_value(json_object_get(args, key));
}

static int
present(json_t *args, const char *key)
{
	json_t *v = json_object_get(args, key);

	/* null is "not given"; an empty optional string too (Codex treats
	 * empty as missing) */
	return v && !json_is_null(v) &&
	       !(json_is_string(v) && blank(json_string_value(v)));
}

/* "Invalid WHAT: VALUE Use CHOICES." for the argument key that names none
 * of its choices (the value sanitised). */
static char *
invalid_choice(json_t *args, const char *key, const char *what,
	       const char *choices)
{
	char *clean = sanitized(str_arg(args, key), 64), *m = NULL;

	str_addf(&m, "Invalid %s: %s Use %s.", what, clean, choices);
	free(clean);
	return m;
}

static char *
validate_steps(json_t *steps);

char *
validate_args(const char *tool, json_t *args, int step, struct call_args *a)
{
	static const char *const buttons[] = { "left", "right", "middle",
					       NULL };
	static const char *const directions[] = { "up", "down", "left", "right",
						  NULL };
	static const char *const selections[] = { "text", "cursor_before",
						  "cursor_after", NULL };
	json_t *def = tool_def(tool), *props, *required, *v;
	const char *key, *name = step ? "sequence" : tool;
	char *clean, *m = NULL;
	size_t i;

	memset(a, 0, sizeof(*a));
	a->tool = tool;
	a->click_count = 1;
	a->button = "left";
	a->selection = "text";
	a->pages = 1;
	if (!def)
		return invalid(name, "unknown tool '%s'.", tool);
	props = json_object_get(json_object_get(def, "inputSchema"),
				"properties");
	required = json_object_get(json_object_get(def, "inputSchema"),
				   "required");

	/* unknown parameters: never silently ignored (docs/tools.md §1.4) */
	json_object_foreach(args, key, v)
	{
		char *list = NULL;
		const char *p;
		json_t *pv;

		if (step && strcmp(key, "app") == 0)
			return invalid(
				"sequence",
				"step %d must not contain app; the batch app applies to every step.",
				step);
		if (json_object_get(props, key))
			continue;
		json_object_foreach(props, p,
				    pv) if (!(step && strcmp(p, "app") == 0))
			str_addf(&list, "%s%s", list ? ", " : "", p);
		clean = sanitized(key, 64);
		m = invalid(tool,
			    "unknown parameter '%s'. Valid parameters: %s.",
			    clean, list ? list : "none");
		free(clean);
		free(list);
		return m;
	}
	/* types, in schema order */
	json_object_foreach(props, key, v)
	{
		json_t *arg = json_object_get(args, key);
		const char *type =
			json_string_value(json_object_get(v, "type"));

		if (!arg || json_is_null(arg))
			continue;
		if (strcmp(key, "element_index") == 0) {
			if (json_is_string(arg) &&
			    blank(json_string_value(arg)))
				continue; /* empty = not given */
			if (parse_element(arg, &a->element) < 0)
				return invalid(
					tool,
					"'element_index' must be an element number from the latest get_app_state, such as \"12\".");
			a->has_element = 1;
			continue;
		}
		if (!has_type(arg, type))
			return invalid(tool, "'%s' must be %s.", key,
				       type_phrase(type));
	}
	/* required, and empty strings as missing (except set_value's value) */
	json_array_foreach(required, i, v)
	{
		const char *r = json_string_value(v);
		json_t *arg = json_object_get(args, r);

		if (step && strcmp(r, "app") == 0)
			continue;
		if (!arg || json_is_null(arg) ||
		    (json_is_string(arg) && strcmp(r, "value") != 0 &&
		     (strcmp(r, "text") == 0 ?
			      !*json_string_value(arg) :
			      blank(json_string_value(arg))))) {
			str_addf(&m, "Missing required argument: %s", r);
			return m;
		}
	}

	a->app = str_arg(args, "app");
	a->action = str_arg(args, "action");
	a->value = str_arg(args, "value");
	a->key = str_arg(args, "key");
	a->text = str_arg(args, "text");
	a->prefix = str_arg(args, "prefix");
	a->suffix = str_arg(args, "suffix");
	a->disable_diff = json_is_true(json_object_get(args, "disable_diff"));
	if (present(args, "mouse_button")) {
		a->button = lenient(str_arg(args, "mouse_button"), buttons);
		if (!a->button)
			return invalid_choice(args, "mouse_button",
					      "mouse button",
					      "left, right or middle");
	}
	if (present(args, "direction")) {
		a->direction = lenient(str_arg(args, "direction"), directions);
		if (!a->direction)
			return invalid_choice(args, "direction",
					      "scroll direction",
					      "up, down, left or right");
	}
	if (present(args, "selection")) {
		const char *s = trimmed(str_arg(args, "selection"));

		a->selection = NULL;
		for (i = 0; selections[i]; i++)
			if (strncasecmp(s, selections[i],
					strlen(selections[i])) == 0 &&
			    blank(s + strlen(selections[i])))
				a->selection = selections[i];
		if (!a->selection)
			return invalid_choice(
				args, "selection", "text selection mode",
				"text, cursor_before or cursor_after");
	}
	if (present(args, "click_count")) {
		double c =
			json_number_value(json_object_get(args, "click_count"));

		if (c < 1 || c > 100)
			return invalid(
				tool,
				"'click_count' must be between 1 and 100.");
		a->click_count = (int)c;
	}
	if (present(args, "pages")) {
		a->pages = json_number_value(json_object_get(args, "pages"));
		if (!(a->pages > 0) || !isfinite(a->pages)) {
			str_addf(&m, "pages must be > 0");
			return m;
		}
	}
	if (strcmp(tool, "drag") == 0) {
		a->from_x = json_number_value(json_object_get(args, "from_x"));
		a->from_y = json_number_value(json_object_get(args, "from_y"));
		a->to_x = json_number_value(json_object_get(args, "to_x"));
		a->to_y = json_number_value(json_object_get(args, "to_y"));
	}
	if (strcmp(tool, "click") == 0 || strcmp(tool, "scroll") == 0) {
		int hx = present(args, "x"), hy = present(args, "y");

		if (hx != hy && !a->has_element)
			return invalid(tool, "x and y must be given together.");
		if (!hx && !a->has_element)
			return invalid(
				tool,
				"pass element_index, or x and y from the screenshot.");
		if (hx && hy && a->has_element)
			a->warning =
				"coordinates ignored because element_index was given";
		else if (hx && hy) {
			a->has_xy = 1;
			a->x = json_number_value(json_object_get(args, "x"));
			a->y = json_number_value(json_object_get(args, "y"));
		}
	}
	if (strcmp(tool, "sequence") == 0) {
		a->steps = json_object_get(args, "steps");
		return validate_steps(a->steps);
	}
	return NULL;
}

static char *
validate_steps(json_t *steps)
{
	static const char *const step_tools[] = {
		"click",     "perform_secondary_action",
		"set_value", "select_text",
		"scroll",    "drag",
		"press_key", "type_text",
		NULL
	};
	size_t i, n = json_array_size(steps);
	json_t *s;

	if (n < 1 || n > SEQUENCE_MAX_STEPS)
		return invalid("sequence",
			       "'steps' must have between 1 and %d items.",
			       SEQUENCE_MAX_STEPS);
	json_array_foreach(steps, i, s)
	{
		int k = (int)i + 1, known = 0;
		const char *key, *tool;
		struct call_args sub;
		json_t *v, *args;
		char *m, *clean;

		if (!json_is_object(s))
			return invalid(
				"sequence",
				"step %d must be an object with tool and arguments.",
				k);
		json_object_foreach(s, key,
				    v) if (strcmp(key, "tool") != 0 &&
					   strcmp(key, "arguments") != 0)
		{
			clean = sanitized(key, 64);
			m = invalid(
				"sequence",
				"step %d: unknown parameter '%s'. Valid parameters: tool, arguments.",
				k, clean);
			free(clean);
			return m;
		}
		tool = json_string_value(json_object_get(s, "tool"));
		args = json_object_get(s, "arguments");
		for (int t = 0; tool && step_tools[t]; t++)
			known |= strcmp(tool, step_tools[t]) == 0;
		if (!known)
			return invalid(
				"sequence",
				"step %d: 'tool' must be one of click, perform_secondary_action, set_value, select_text, scroll, drag, press_key, type_text.",
				k);
		if (!json_is_object(args))
			return invalid(
				"sequence",
				"step %d: 'arguments' must be an object (the tool's arguments without app).",
				k);
		m = validate_args(tool, args, k, &sub);
		if (m) {
			char *wrapped = NULL;

			if (strncmp(m, "Invalid arguments for sequence:", 31) ==
			    0)
				return m;
			str_addf(
				&wrapped,
				"Invalid arguments for sequence: step %d (%s): %s",
				k, tool, m);
			free(m);
			return wrapped;
		}
	}
	return NULL;
}

/* ---- handlers ----------------------------------------------------------- */

static json_t *
fail_result(struct mcp_error *err)
{
	json_t *r = result_error(err);

	LOG_DEBUG("error %s", mcp_err_id(err->id));
	mcp_error_clear(err);
	return r;
}

static json_t *
do_list_apps(struct job *job)
{
	struct mcp_error err = { 0 };
	cua_session *s = session_get(&err);
	char *text = NULL, *json = NULL;
	json_t *structured = NULL;
	cua_result r;

	if (!s)
		return fail_result(&err);
	r = cua_session_list_apps(s, 0, &text);
	if (r != CUA_OK) {
		mcp_fail_library(&err, r);
		return fail_result(&err);
	}
	if (rpc_structured_content() &&
	    cua_session_list_apps(s, CUA_FORMAT_JSON, &json) == CUA_OK)
		structured = json_loads(json, 0, NULL);
	cua_free(json);
	{
		json_t *res = result_text(text, structured, 0);

		cua_free(text);
		return res;
	}
}

static json_t *
do_get_app_state(struct job *job, struct call_args *a)
{
	struct mcp_error err = { 0 };
	struct observation obs = { 0 };
	struct target t = { 0 };
	json_t *res;
	int r;

	r = target_acquire(job, a->app, &t, &err);
	if (r == 0)
		r = observe(job, &t, a->app, a->disable_diff, &obs, &err);
	if (r == -2 || rpc_cancelled(job)) {
		observation_clear(&obs);
		target_clear(&t);
		mcp_error_clear(&err);
		return NULL;
	}
	if (r < 0) {
		res = fail_result(&err);
		result_set_app_meta(res, t.id);
		target_clear(&t);
		return res;
	}
	res = observation_result(&obs, NULL, NULL, 0);
	result_set_app_meta(res, obs.app_id);
	observation_clear(&obs);
	target_clear(&t);
	return res;
}

static json_t *
do_action(struct job *job, struct call_args *a)
{
	struct mcp_error err = { 0 };
	struct action_outcome out = { 0 };
	struct target t = { 0 };
	json_t *res;
	char *receipt;
	int r;

	r = target_acquire(job, a->app, &t, &err);
	if (r == 0)
		r = target_require_active(&t, a->app, &err);
	if (r == 0 && rpc_cancelled(job))
		r = -2;
	if (r == 0)
		r = action_run(job, &t, a, &out, &err);
	if (r == -2) {
		/* cancelled before anything was sent: no response */
		target_clear(&t);
		mcp_error_clear(&err);
		return NULL;
	}
	if (r < 0) {
		res = fail_result(&err);
		result_set_app_meta(res, t.id);
		target_clear(&t);
		return res;
	}
	receipt = result_receipt_text();
	res = result_text(receipt, out.structured, 0);
	result_set_app_meta(res, t.id);
	free(receipt);
	target_clear(&t);
	return res;
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
observes_after(enum mcp_err id)
{
	/* docs/tools.md §10 item 5: no observation after these */
	switch (id) {
	case E_TURN_ENDED:
	case E_USER_STOPPED:
	case E_NOT_ALLOWED:
	case E_SECURITY_PROCESS:
	case E_BLOCKED:
	case E_DISABLED:
	case E_APPROVAL_DENIED:
	case E_APPROVAL_CANCELED:
	case E_APPROVAL_UNAVAILABLE:
	case E_SCREEN_LOCKED:
	case E_RUNNING_APP_NOT_FOUND:
		return 0;
	default:
		return 1;
	}
}

static json_t *
do_sequence(struct job *job, struct call_args *a)
{
	struct mcp_error err = { 0 }, step_err = { 0 };
	struct observation obs = { 0 };
	struct target t = { 0 };
	size_t n = json_array_size(a->steps), i;
	long long start = now_ms();
	json_t *steps_json = json_array(), *failed = json_null(), *res,
	       *structured, *step;
	char *report = NULL;
	int r, completed = 0, failed_at = 0, deadline = 0, turn_over = 0;

	r = target_acquire(job, a->app, &t, &err);
	if (r == 0)
		r = target_require_active(&t, a->app, &err);
	if (r < 0) {
		json_decref(steps_json);
		json_decref(failed);
		target_clear(&t);
		if (r == -2) {
			mcp_error_clear(&err);
			return NULL;
		}
		return fail_result(&err);
	}
	json_array_foreach(a->steps, i, step)
	{
		const char *tool =
			json_string_value(json_object_get(step, "tool"));
		struct action_outcome out = { 0 };
		struct call_args sa;
		long long t0 = now_ms();
		char *m, progress[64];

		if (rpc_cancelled(job))
			break;
		if (t0 - start >= SEQUENCE_DEADLINE_MS) {
			deadline = 1;
			break;
		}
		if (rpc_turn_ended()) {
			/* in-flight work finishes; no next step
			 * (docs/safety.md §8) */
			turn_over = 1;
			break;
		}
		snprintf(progress, sizeof(progress), "step %zu of %zu (%s)",
			 i + 1, n, tool);
		rpc_progress(job, progress);
		m = validate_args(tool, json_object_get(step, "arguments"),
				  (int)i + 1, &sa);
		if (m) { /* validated before; cannot happen */
			mcp_fail(&step_err, E_INVALID_ARGS, "%s", m);
			free(m);
			r = -1;
		} else {
			sa.app = a->app;
			r = action_run(job, &t, &sa, &out, &step_err);
		}
		json_array_append_new(
			steps_json,
			json_pack(
				"{s:I,s:s,s:s,s:o,s:I}", "index",
				(json_int_t)i + 1, "tool", tool, "status",
				r == 0 ? "ok" : "failed", "route",
				json_incref(json_object_get(out.structured, "route")) ?:
					json_null(),
				"ms", (json_int_t)(now_ms() - t0)));
		json_decref(out.structured);
		if (r < 0) {
			char *msg = mcp_error_message(&step_err);

			failed_at = (int)i + 1;
			json_decref(failed);
			failed = json_pack("{s:i,s:s,s:o}", "index", failed_at,
					   "tool", tool, "error",
					   mcp_error_json(&step_err));
			str_addf(&report, "Step %d of %zu (%s) failed: %s\n",
				 failed_at, n, tool, msg ? msg : "");
			free(msg);
			break;
		}
		completed++;
	}
	if (rpc_cancelled(job)) {
		/* no response for a cancelled request (docs/mcp.md §1.10) */
		LOG_INFO("sequence cancelled after %d of %zu steps", completed,
			 n);
		json_decref(steps_json);
		json_decref(failed);
		mcp_error_clear(&step_err);
		target_clear(&t);
		return NULL;
	}
	for (i = json_array_size(steps_json); i < n; i++)
		json_array_append_new(
			steps_json,
			json_pack("{s:I,s:s,s:s,s:n,s:n}", "index",
				  (json_int_t)i + 1, "tool",
				  json_string_value(json_object_get(
					  json_array_get(a->steps, i), "tool")),
				  "status", "not_run", "route", "ms"));
	if (failed_at) {
		char *left = NULL;

		if (failed_at == 2)
			str_addf(&report, "Step 1 completed");
		else if (failed_at > 2)
			str_addf(&report, "Steps 1-%d completed",
				 failed_at - 1);
		else
			str_addf(&report, "No steps completed");
		if (failed_at + 1 == (int)n)
			str_addf(&left, "step %zu was", n);
		else if (failed_at < (int)n)
			str_addf(&left, "steps %d-%zu were", failed_at + 1, n);
		if (left)
			str_addf(&report, "; %s not run", left);
		str_addf(&report, ". Completed actions are not rolled back.");
		free(left);
	} else if (deadline || turn_over) {
		str_addf(&report, "Stopped after step %d of %zu: %s.",
			 completed, n,
			 deadline ? "the 60-second limit was reached" :
				    "the current turn ended");
	} else {
		str_addf(&report, "Completed %zu of %zu steps.", n, n);
	}

	structured = json_pack("{s:s,s:I,s:i,s:o,s:o,s:i,s:n}", "schema",
			       "libcua.sequence/1", "total", (json_int_t)n,
			       "completed", completed, "failed_step", failed,
			       "steps", steps_json, "rejected_before_dispatch",
			       0, "state");
	if (failed_at || deadline || turn_over) {
		struct mcp_error e = { 0 };

		if (turn_over)
			mcp_fail(&e, E_TURN_ENDED, "%s", turn_ended_text);
		else
			mcp_fail(&e,
				 failed_at ? E_SEQUENCE_STEP :
					     E_SEQUENCE_DEADLINE,
				 "%s", report);
		json_object_set_new(structured, "error", mcp_error_json(&e));
		mcp_error_clear(&e);
	}

	/* docs/tools.md §10: observe at the end when at least one step ran */
	if (completed + (failed_at ? 1 : 0) > 0 && !turn_over &&
	    !(failed_at && !observes_after(step_err.id))) {
		r = observe(job, &t, a->app, a->disable_diff, &obs, &err);
		if (r == -2 || rpc_cancelled(job)) {
			json_decref(structured);
			observation_clear(&obs);
			mcp_error_clear(&err);
			mcp_error_clear(&step_err);
			free(report);
			target_clear(&t);
			return NULL;
		}
		if (r == 0) {
			json_object_set(structured, "state", obs.structured);
			res = observation_result(&obs, report, structured,
						 failed_at || deadline);
		} else {
			char *msg = mcp_error_message(&err);

			str_addf(&report,
				 "\n\nThe final get_app_state failed: %s",
				 msg ? msg : "");
			free(msg);
			res = result_text(report, structured, 1);
		}
	} else {
		res = result_text(report, structured,
				  failed_at || deadline || turn_over);
	}
	result_set_app_meta(res, t.id);
	observation_clear(&obs);
	mcp_error_clear(&err);
	mcp_error_clear(&step_err);
	free(report);
	target_clear(&t);
	return res;
}

json_t *
tools_call(struct job *job)
{
	static unsigned long current_turn;
	struct mcp_error err = { 0 };
	struct call_args a;
	unsigned long turn;
	int ended;
	char *m;
	json_t *res;

	LOG_DEBUG("tools/call %s", job->tool);
	m = validate_args(job->tool, job->args, 0, &a);
	if (m) {
		/* arguments are checked before any policy or actuation */
		mcp_fail(&err, E_INVALID_ARGS, "%s", m);
		free(m);
		return fail_result(&err);
	}
	turn = rpc_turn_begin(job, &ended);
	if (turn != current_turn) {
		current_turn = turn;
		session_new_turn();
	}
	/* the stop hotkey is held from a turn's first call to its end
	 * (without turns: from the first call on) */
	if (strcmp(job->tool, "list_apps") != 0)
		session_turn_active(!ended);
	if (ended && strcmp(job->tool, "list_apps") != 0) {
		mcp_fail(&err, E_TURN_ENDED, "%s", turn_ended_text);
		return fail_result(&err);
	}
	if (strcmp(job->tool, "list_apps") == 0)
		return do_list_apps(job);
	if (strcmp(job->tool, "get_app_state") == 0)
		return do_get_app_state(job, &a);
	if (strcmp(job->tool, "sequence") == 0)
		return do_sequence(job, &a);
	res = do_action(job, &a);
	if (res && a.warning &&
	    json_is_object(json_object_get(res, "structuredContent")))
		json_object_set_new(json_object_get(res, "structuredContent"),
				    "warnings", json_pack("[s]", a.warning));
	return res;
}

void
tools_shutdown(void)
{
	session_close();
}
