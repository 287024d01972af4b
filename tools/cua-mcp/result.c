/*
 * cua-mcp: tool results — the error catalogue (tools.md §11), the receipt
 * (§6), and the size guard of §2.6.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp.h"

/* Outbound results stay below the inbound frame limit (tools.md §2.6). */
#define MAX_RESULT 8388608

struct catalogue_row {
	const char *id;
	const char *name;
	int code;
	int prefix; /* "Computer Use server error <code>: " */
};

static const struct catalogue_row catalogue[E_COUNT] = {
	[E_INVALID_ARGS] = { "E-INVALID-ARGS", "invalidArguments", -11001, 0 },
	[E_APP_NOT_FOUND] = { "E-APP-NOT-FOUND", "invalidApp", -10010, 0 },
	[E_AMBIGUOUS_APP] = { "E-AMBIGUOUS-APP", "ambiguousApp", -10018, 1 },
	[E_NOT_ALLOWED] = { "E-NOT-ALLOWED", "appNotAllowed", -10006, 0 },
	[E_SECURITY_PROCESS] = { "E-SECURITY-PROCESS", "appNotAllowed", -10006, 1 },
	[E_BLOCKED] = { "E-BLOCKED", "appNotAllowed", -10006, 0 },
	[E_DISABLED] = { "E-DISABLED", "appNotAllowed", -10006, 0 },
	[E_APPROVAL_DENIED] = { "E-APPROVAL-DENIED", "approvalDenied", -11015, 0 },
	[E_APPROVAL_CANCELED] = { "E-APPROVAL-CANCELED", "approvalCanceled", -11025, 0 },
	[E_APPROVAL_UNAVAILABLE] = { "E-APPROVAL-UNAVAILABLE", "approvalUnavailable", -11016, 0 },
	[E_NOT_ACTIVE] = { "E-NOT-ACTIVE", "noActiveSession", -10011, 1 },
	[E_RUNNING_APP_NOT_FOUND] = { "E-RUNNING-APP-NOT-FOUND", "runningApplicationNotFound", -10007, 1 },
	[E_USER_CHANGED] = { "E-USER-CHANGED", "userIntervened", -10016, 1 },
	[E_USER_STOPPED] = { "E-USER-STOPPED", "userStoppedSession", -10012, 1 },
	[E_TURN_ENDED] = { "E-TURN-ENDED", "turnEnded", -10021, 1 },
	[E_PERMISSIONS_PENDING] = { "E-PERMISSIONS-PENDING", "permissionsPending", -10014, 1 },
	[E_PERMISSIONS_NOT_GRANTED] = { "E-PERMISSIONS-NOT-GRANTED", "permissionsNotGranted", -10009, 1 },
	[E_SCREEN_LOCKED] = { "E-SCREEN-LOCKED", "screenLocked", -10020, 1 },
	[E_LAUNCH_FAILED] = { "E-LAUNCH-FAILED", "launchFailed", -11024, 0 },
	[E_NO_WINDOWS] = { "E-NO-WINDOWS", "unknownError", -10005, 1 },
	[E_NOTFOUND] = { "E-NOTFOUND", "unknownError", -10005, 1 },
	[E_INVALID] = { "E-INVALID", "unknownError", -10005, 1 },
	[E_REFETCH_START] = { "E-REFETCH-START", "unknownError", -10005, 1 },
	[E_REFETCH_FINISH] = { "E-REFETCH-FINISH", "unknownError", -10005, 1 },
	[E_NOT_SETTABLE] = { "E-NOT-SETTABLE", "unknownError", -10005, 1 },
	[E_BAD_VALUE] = { "E-BAD-VALUE", "invalidValue", -11021, 0 },
	[E_BAD_SECONDARY] = { "E-BAD-SECONDARY", "unknownError", -10005, 1 },
	[E_NOT_TEXT] = { "E-NOT-TEXT", "unknownError", -10005, 1 },
	[E_TEXT_NOT_FOUND] = { "E-TEXT-NOT-FOUND", "unknownError", -10005, 1 },
	[E_TEXT_AMBIGUOUS] = { "E-TEXT-AMBIGUOUS", "textAmbiguous", -11008, 0 },
	[E_OUT_OF_BOUNDS] = { "E-OUT-OF-BOUNDS", "coordinatesOutOfBounds", -11009, 0 },
	[E_NO_SCREENSHOT] = { "E-NO-SCREENSHOT", "noScreenshot", -11023, 0 },
	[E_WINDOW_CHANGED] = { "E-WINDOW-CHANGED", "windowChanged", -11011, 0 },
	[E_WINDOW_UNAVAILABLE] = { "E-WINDOW-UNAVAILABLE", "unknownError", -10005, 1 },
	[E_POINT_COVERED] = { "E-POINT-COVERED", "unknownError", -10005, 1 },
	[E_INPUT_NOT_ACCEPTED] = { "E-INPUT-NOT-ACCEPTED", "inputNotAccepted", -11012, 0 },
	[E_UNKNOWN_KEY] = { "E-UNKNOWN-KEY", "unknownError", -10005, 1 },
	[E_KEY_NOT_ALLOWED] = { "E-KEY-NOT-ALLOWED", "keyComboNotAllowed", -11014, 0 },
	[E_ACTION_FAILED] = { "E-ACTION-FAILED", "accessibilityError", -10008, 1 },
	[E_TIMEOUT] = { "E-TIMEOUT", "unknownError", -10005, 1 },
	[E_PASTE_CONFLICT] = { "E-PASTE-CONFLICT", "unknownError", -10005, 1 },
	[E_SEQUENCE_STEP] = { "E-SEQUENCE-STEP", "sequenceStepFailed", -11017, 0 },
	[E_SEQUENCE_DEADLINE] = { "E-SEQUENCE-DEADLINE", "sequenceDeadline", -11018, 0 },
	[E_INTERNAL] = { "E-INTERNAL", "unknownError", -10005, 1 },
};

/*
 * The library's messages are the catalogue's detail texts; their opening
 * words say which row they are (the cua_result codes are coarser than the
 * catalogue). First match wins; `contains` rows match anywhere.
 */
static const struct {
	const char *text;
	int contains;
	enum mcp_err id;
} message_rows[] = {
	{ "appNotFound(", 0, E_APP_NOT_FOUND },
	{ "Ambiguous app identifier", 0, E_AMBIGUOUS_APP },
	{ "Computer Use is not allowed to use the app", 0, E_NOT_ALLOWED },
	{ "Computer use actions are not allowed for system security process", 0,
	  E_SECURITY_PROCESS },
	{ "Computer Use is not active for", 0, E_NOT_ACTIVE },
	{ "Running application not found", 0, E_RUNNING_APP_NOT_FOUND },
	{ "The user changed '", 0, E_USER_CHANGED },
	{ "This application session has been explicitly stopped", 0,
	  E_USER_STOPPED },
	{ "Computer Use is unavailable because the current turn ended", 0,
	  E_TURN_ENDED },
	{ "Computer Use permissions are still pending", 0, E_PERMISSIONS_PENDING },
	{ "Computer Use permissions are not granted", 0,
	  E_PERMISSIONS_NOT_GRANTED },
	{ "The screen is locked", 0, E_SCREEN_LOCKED },
	{ "Could not start '", 0, E_LAUNCH_FAILED },
	{ "noWindowsAvailable", 0, E_NO_WINDOWS },
	{ " is an invalid element ID", 1, E_NOTFOUND },
	{ "The element ID is no longer valid", 0, E_INVALID },
	{ "The element was invalidated, and an attempt was made to refetch it, "
	  "but the refetch couldn't be started", 0, E_REFETCH_START },
	{ "The element was invalidated, and an attempt was made to refetch it, "
	  "but the refetch couldn't be finished", 0, E_REFETCH_FINISH },
	{ "Cannot set a value for an element that is not settable", 0,
	  E_NOT_SETTABLE },
	{ " is not a valid value for element ", 1, E_BAD_VALUE },
	{ " is not a valid secondary action for ", 1, E_BAD_SECONDARY },
	{ "Cannot select text for an element", 0, E_NOT_TEXT },
	{ "Could not find the requested text to select", 0, E_TEXT_NOT_FOUND },
	{ " times in element ", 1, E_TEXT_AMBIGUOUS },
	{ " is outside the screenshot of ", 1, E_OUT_OF_BOUNDS },
	{ "The last get_app_state of ", 0, E_NO_SCREENSHOT },
	{ " changed since the last screenshot", 1, E_WINDOW_CHANGED },
	{ "cannotClickOffscreenElement", 0, E_WINDOW_UNAVAILABLE },
	{ "windowNotFoundAtPosition", 0, E_POINT_COVERED },
	{ " did not take keyboard focus", 1, E_INPUT_NOT_ACCEPTED },
	{ "keyNotFound(", 0, E_UNKNOWN_KEY },
	{ "press_key refused ", 0, E_KEY_NOT_ALLOWED },
	{ "Accessibility error: ", 0, E_ACTION_FAILED },
	{ "timeoutReached", 0, E_TIMEOUT },
	{ "The user may have conflicted with your paste operation", 0,
	  E_PASTE_CONFLICT },
	{ "Missing required argument: ", 0, E_INVALID_ARGS },
	{ "Invalid arguments for ", 0, E_INVALID_ARGS },
	{ "Invalid mouse button: ", 0, E_INVALID_ARGS },
	{ "Invalid scroll direction: ", 0, E_INVALID_ARGS },
	{ "Invalid text selection mode: ", 0, E_INVALID_ARGS },
	{ "pages must be ", 0, E_INVALID_ARGS },
};

/* ---- small string helpers ----------------------------------------------- */

void
str_addf(char **s, const char *fmt, ...)
{
	char *add = NULL, *joined;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (!*s) {
		*s = add;
		return;
	}
	if (asprintf(&joined, "%s%s", *s, add) < 0)
		joined = NULL;
	free(add);
	if (joined) {
		free(*s);
		*s = joined;
	}
}

char *
sanitized(const char *text, size_t max)
{
	char *clean = NULL, *copy;

	if (cua_sanitize_text(text ? text : "", max, &clean) != CUA_OK)
		return strdup("");
	copy = strdup(clean);
	cua_free(clean);
	return copy ? copy : strdup("");
}

/* ---- errors ------------------------------------------------------------- */

int
mcp_fail(struct mcp_error *e, enum mcp_err id, const char *fmt, ...)
{
	va_list ap;

	free(e->detail);
	e->detail = NULL;
	e->id = id;
	va_start(ap, fmt);
	if (vasprintf(&e->detail, fmt, ap) < 0)
		e->detail = NULL;
	va_end(ap);
	return -1;
}

int
mcp_fail_library(struct mcp_error *e, cua_result r)
{
	const char *msg = cua_error_message();
	enum mcp_err id;
	size_t i;

	if (!msg || !*msg)
		return mcp_fail(e, E_INTERNAL, "libcua failed: %s",
				cua_result_to_string(r));
	for (i = 0; i < sizeof(message_rows) / sizeof(message_rows[0]); i++) {
		const char *t = message_rows[i].text;

		if (message_rows[i].contains ? strstr(msg, t) != NULL :
					       strncmp(msg, t, strlen(t)) == 0)
			return mcp_fail(e, message_rows[i].id, "%s", msg);
	}
	switch (r) {
	case CUA_ERROR_INVALID_ARGUMENT:
		id = E_INVALID_ARGS;
		break;
	case CUA_ERROR_NOT_FOUND:
		id = E_APP_NOT_FOUND;
		break;
	case CUA_ERROR_AMBIGUOUS:
		id = E_AMBIGUOUS_APP;
		break;
	case CUA_ERROR_NO_WINDOW:
		id = E_NO_WINDOWS;
		break;
	case CUA_ERROR_LAUNCH:
		id = E_LAUNCH_FAILED;
		break;
	case CUA_ERROR_TIMEOUT:
		id = E_TIMEOUT;
		break;
	case CUA_ERROR_PERMISSION:
		id = E_NOT_ALLOWED;
		break;
	case CUA_ERROR_STALE:
		id = E_INVALID;
		break;
	case CUA_ERROR_NO_SESSION:
		id = E_NOT_ACTIVE;
		break;
	case CUA_ERROR_PROCESS_GONE:
		id = E_RUNNING_APP_NOT_FOUND;
		break;
	case CUA_ERROR_INPUT_BLOCKED:
		id = E_INPUT_NOT_ACCEPTED;
		break;
	case CUA_ERROR:
	case CUA_ERROR_UNSUPPORTED:
		id = E_ACTION_FAILED;
		break;
	default:
		id = E_INTERNAL;
		break;
	}
	return mcp_fail(e, id, "%s", msg);
}

void
mcp_error_rename(struct mcp_error *e, const char *query, const char *app)
{
	char *clean, *out = NULL, *p, *hit;
	size_t qlen = strlen(query);

	if (!e->detail || !qlen || strcmp(query, app) == 0 ||
	    !strstr(e->detail, query))
		return;
	clean = sanitized(app, 160);
	for (p = e->detail; (hit = strstr(p, query)); p = hit + qlen)
		str_addf(&out, "%.*s%s", (int)(hit - p), p, clean);
	str_addf(&out, "%s", p);
	free(clean);
	if (out) {
		free(e->detail);
		e->detail = out;
	}
}

void
mcp_error_clear(struct mcp_error *e)
{
	free(e->detail);
	e->detail = NULL;
}

const char *
mcp_err_id(enum mcp_err id)
{
	return catalogue[id].id;
}

char *
mcp_error_message(const struct mcp_error *e)
{
	const struct catalogue_row *row = &catalogue[e->id];
	const char *detail = e->detail ? e->detail : "";
	char *m = NULL;

	if (row->prefix && !mcp_opt.no_error_prefix)
		str_addf(&m, "Computer Use server error %d: %s", row->code,
			 detail);
	else
		m = strdup(detail);
	return m;
}

json_t *
mcp_error_json(const struct mcp_error *e)
{
	const struct catalogue_row *row = &catalogue[e->id];
	char *message = mcp_error_message(e);
	json_t *j;

	j = json_pack("{s:s,s:s,s:i,s:s,s:s}", "id", row->id, "name", row->name,
		      "code", row->code, "detail", e->detail ? e->detail : "",
		      "message", message ? message : "");
	free(message);
	return j;
}

json_t *
result_text(const char *text, json_t *structured, int is_error)
{
	json_t *r = json_pack("{s:[{s:s,s:s}]}", "content", "type", "text",
			      "text", text ? text : "");

	if (!r) {
		/* text was not valid UTF-8: never happens with libcua's
		 * sanitised strings, but never send nothing */
		r = json_pack("{s:[{s:s,s:s}]}", "content", "type", "text",
			      "text", "(unprintable text)");
	}
	if (structured && rpc_structured_content())
		json_object_set_new(r, "structuredContent", structured);
	else
		json_decref(structured);
	if (is_error)
		json_object_set_new(r, "isError", json_true());
	return r;
}

json_t *
result_error(const struct mcp_error *e)
{
	char *message = mcp_error_message(e);
	json_t *r;

	r = result_text(message, json_pack("{s:o}", "error", mcp_error_json(e)),
			1);
	free(message);
	return r;
}

/* ---- banner and receipt ------------------------------------------------- */

const char *
result_banner(void)
{
	static char banner[96];

	if (!banner[0])
		snprintf(banner, sizeof(banner),
			 "Computer Use state (CUA App Version: %s)",
			 cua_version_string());
	return banner;
}

char *
result_receipt_text(void)
{
	static const char sentence[] =
		"Action completed. Call `get_app_state` to fetch the updated UI state.";
	char *t = NULL;

	if (mcp_opt.plain_receipt)
		return strdup(sentence);
	str_addf(&t, "%s\n%s", result_banner(), sentence);
	return t;
}

void
result_set_app_meta(json_t *result, const char *app_id)
{
	if (result && app_id)
		json_object_set_new(result, "_meta",
				    json_pack("{s:s}", "libcua/app", app_id));
}

static size_t
serialized_size(json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT);
	size_t n = s ? strlen(s) : 0;

	free(s);
	return n;
}

void
result_limit_size(json_t *result)
{
	json_t *content = json_object_get(result, "content"), *block;
	size_t i;

	LOG_WARN("a result exceeds %d bytes; dropping structured content",
		 MAX_RESULT);
	json_object_del(result, "structuredContent");
	if (serialized_size(result) < MAX_RESULT)
		return;
	json_array_foreach(content, i, block) {
		if (strcmp(json_string_value(json_object_get(block, "type")) ?: "",
			   "image") == 0) {
			json_array_remove(content, i);
			break;
		}
	}
	block = json_array_get(content, 0);
	if (json_is_string(json_object_get(block, "text"))) {
		char *t = NULL;

		str_addf(&t, "%s\nScreenshot unavailable: the result would exceed the %d-byte message limit.",
			 json_string_value(json_object_get(block, "text")),
			 MAX_RESULT);
		if (t)
			json_object_set_new(block, "text", json_string(t));
		free(t);
	}
}
