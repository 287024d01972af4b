/*
 * set_value (docs/actions.md §4): a number through Value, a string through
 * EditableText, verified by reading it back.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "core/render.h"
#include "core/sanitize.h"
#include "core/strbuf.h"

enum vkind { VK_NONE, VK_STRING, VK_FLOAT };

static enum vkind
value_kind(const struct cua_raw_node *n)
{
	if ((n->ifaces & CUA_IFACE_VALUE) && (n->have & CUA_HAVE_VALUE) &&
	    n->role != CUA_ROLE_PROGRESS_BAR && n->role != CUA_ROLE_LEVEL_BAR &&
	    !CUA_HAS_STATE(n, CUA_STATE_READ_ONLY) &&
	    n->value_max > n->value_min)
		return VK_FLOAT;
	if (CUA_HAS_STATE(n, CUA_STATE_EDITABLE) &&
	    (n->ifaces & CUA_IFACE_EDITABLE_TEXT) &&
	    !CUA_HAS_STATE(n, CUA_STATE_READ_ONLY))
		return VK_STRING;
	return VK_NONE;
}

/* Locale-independent decimal number; 0 when `s` is not one. */
static int
parse_number(const char *s, double *out)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	char *end;
	double v;

	if (!c)
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	v = strtod_l(s, &end, c);
	freelocale(c);
	if (end == s)
		return 0;
	while (isspace((unsigned char)*end))
		end++;
	if (*end || !isfinite(v))
		return 0;
	*out = v;
	return 1;
}

static char *
value_string(const struct cua_raw_node *n, enum vkind k)
{
	char buf[64];

	if (k == VK_FLOAT) {
		cua_format_number(buf, sizeof(buf), n->value);
		return strdup(buf);
	}
	return strdup(n->text ? n->text : "");
}

cua_result
cua_do_set_value(struct cua_session *s, const char *app, uint32_t id,
		 const char *value, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	struct cua_raw_node *n;
	enum vkind kind;
	char *before = NULL, *after = NULL;
	double v = 0;
	int ok, secure;
	cua_result r;

	if (!value)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "value" });
	r = cua_act_begin(&a, s, "set_value", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CUA_HAVE_VALUE | CUA_HAVE_TEXT,
				    &loc);
	if (r != CUA_OK)
		goto out;
	n = loc.node;
	kind = value_kind(n);
	secure = (loc.element->flags & CUA_ELEM_SECURE) ||
		 n->role == CUA_ROLE_PASSWORD_TEXT;
	if (kind == VK_NONE) {
		r = cua_err(CUA_MSG_NOT_SETTABLE, { "id", CUA_NUM("%u", id) },
			    { "role", *loc.element->role_text ?
					      loc.element->role_text :
					      "element" });
		goto out;
	}
	if (kind == VK_FLOAT) {
		char lo[64], hi[64];

		cua_format_number(lo, sizeof(lo), n->value_min);
		cua_format_number(hi, sizeof(hi), n->value_max);
		if (!parse_number(value, &v) || v < n->value_min ||
		    v > n->value_max) {
			r = cua_err(CUA_MSG_BAD_VALUE, { "value", value },
				    { "id", CUA_NUM("%u", id) },
				    { "role", loc.element->role_text },
				    { "min", lo }, { "max", hi });
			goto out;
		}
	}
	before = value_string(n, kind);
	{
		struct cua_live_call c = { .op = kind == VK_FLOAT ?
							 CUA_LIVE_SET_VALUE :
							 CUA_LIVE_SET_TEXT,
					   .ident = n->ident,
					   .v = v,
					   .text = value };

		/* no focus change, no key events (docs/actions.md §4 step 5) */
		r = act_ask_call(&a, &c, &ok);
		act_call_clear(&c);
		if (r != CUA_OK)
			goto out;
	}
	/* re-read, polling while it still equals `before` (async toolkits) */
	for (int64_t t0 = cua_now_us(), wait = 5000;; wait *= 2) {
		r = act_reread(&a, &loc, n, CUA_HAVE_VALUE | CUA_HAVE_TEXT);
		if (r != CUA_OK)
			goto out;
		free(after);
		after = value_string(n, kind);
		if (strcmp(after, before) != 0 ||
		    cua_now_us() - t0 >= POLL_MAX_US)
			break;
		if (kind == VK_FLOAT ? fabs(n->value - v) < 1e-9 :
				       strcmp(after, value) == 0)
			break;
		usleep((useconds_t)MIN(wait, 200000));
	}
	if (strcmp(after, before) == 0 &&
	    (kind == VK_FLOAT ? fabs(n->value - v) >= 1e-9 :
				strcmp(after, value) != 0)) {
		r = cua_err(CUA_MSG_VALUE_NOT_TAKEN,
			    { "name", cua_act_app_name(&a) },
			    { "id", CUA_NUM("%u", id) },
			    { "before", secure ? "(hidden)" : before });
		goto out;
	}
	(void)ok;
	cua_act_route(&a, "value");
	if (secure) {
		json_object_set_new(a.outcome, "before", json_null());
		json_object_set_new(a.outcome, "after", json_null());
	} else {
		char *sb = cua_sanitize(loc.snap->arena, before);
		char *sa = cua_sanitize(loc.snap->arena, after);

		json_object_set_new(a.outcome, "before",
				    json_string(sb ? sb : ""));
		json_object_set_new(a.outcome, "after",
				    json_string(sa ? sa : ""));
	}
out:
	free(before);
	free(after);
	cua_located_clear(&loc);
	return act_finish(&a, r, outcome);
}
