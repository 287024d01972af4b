/*
 * cua-mcp: tool results — the error catalogue (docs/tools.md §11, from the
 * library's error registry), the receipt (§6), and the size guard of §2.6.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp.h"

/* Outbound results stay below the inbound frame limit (docs/tools.md §2.6). */
#define MAX_RESULT 8388608

struct catalogue_row {
	const char *id;
	const char *name;
	int code;
	int prefix; /* "Computer Use server error <code>: " */
};

static const struct catalogue_row catalogue[E_COUNT] = {
#define CUA_ROW(row, id, mcp_name, mcp_code, prefix)                           \
	[E_##row] = { id, mcp_name, mcp_code, prefix },
#include "core/errors.def"
};

/* The row a library error code is shown under. */
static enum mcp_err
row_of_code(cua_errcode code)
{
	switch (code) {
#define CUA_CODE(code, value, row)                                             \
	case CUA_E_##code:                                                     \
		return E_##row;
#include "core/errors.def"
	case CUA_E_OK:
		break;
	}
	return E_INTERNAL;
}

/* 1 when the registry's message of `code` shows the app ({app} or
 * {app:N}): the messages whose app string cua-mcp puts back. */
static int
code_shows_app(cua_errcode code)
{
	static const struct {
		cua_errcode code;
		const char *template;
	} messages[] = {
#define CUA_MSG(msg, code, result, doc, template) { CUA_E_##code, template },
#include "core/errors.def"
	};

	if (code == CUA_E_OK)
		return 0;
	for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++)
		if (messages[i].code == code &&
		    (strstr(messages[i].template, "{app}") ||
		     strstr(messages[i].template, "{app:")))
			return 1;
	return 0;
}

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
	e->code = CUA_E_OK;
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

	if (!msg || !*msg)
		return mcp_fail(e, E_INTERNAL, "libcua failed: %s",
				cua_result_to_string(r));
	mcp_fail(e, row_of_code(cua_error_code()), "%s", msg);
	e->code = cua_error_code();
	return -1;
}

void
mcp_error_rename(struct mcp_error *e, const char *query, const char *app)
{
	char *clean, *out = NULL, *p, *hit;
	size_t qlen = strlen(query);

	if (!e->detail || !qlen || strcmp(query, app) == 0 ||
	    !code_shows_app(e->code) || !strstr(e->detail, query))
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
	json_array_foreach(content, i, block)
	{
		if (strcmp(json_string_value(json_object_get(block, "type")) ?:
									       "",
			   "image") == 0) {
			json_array_remove(content, i);
			break;
		}
	}
	block = json_array_get(content, 0);
	if (json_is_string(json_object_get(block, "text"))) {
		char *t = NULL;

		str_addf(
			&t,
			"%s\nScreenshot unavailable: the result would exceed the %d-byte message limit.",
			json_string_value(json_object_get(block, "text")),
			MAX_RESULT);
		if (t)
			json_object_set_new(block, "text", json_string(t));
		free(t);
	}
}
