/*
 * The thread's error: its code and message, set from the registry
 * (errors.def) or as a plain message (cua_error()).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "errors.h"
#include "sanitize.h"

static _Thread_local char err_msg[CUA_ERR_MAX];
static _Thread_local cua_errcode err_code;
static _Thread_local enum cua_vocab err_vocab;

static const struct cua_msg_info msgs[CUA_MSG_COUNT] = {
#define CUA_MSG(msg, code, result, doc, template)                              \
	[CUA_MSG_##msg] = { #msg, CUA_E_##code, result, doc, template },
#include "errors.def"
};

static const struct {
	const char *name;
	const char *words[CUA_VOCAB_COUNT];
} terms[] = {
#define CUA_TERM(term, mcp, cli, api)                                          \
	{ #term,                                                               \
	  { [CUA_VOCAB_API] = api,                                             \
	    [CUA_VOCAB_MCP] = mcp,                                             \
	    [CUA_VOCAB_CLI] = cli } },
#include "errors.def"
};

static const char *const vocab_names[CUA_VOCAB_COUNT] = {
	[CUA_VOCAB_API] = "api",
	[CUA_VOCAB_MCP] = "mcp",
	[CUA_VOCAB_CLI] = "cli",
};

int
cua_vocab_from_name(const char *name)
{
	for (int v = 0; name && v < CUA_VOCAB_COUNT; v++)
		if (strcmp(name, vocab_names[v]) == 0)
			return v;
	return -1;
}

const struct cua_msg_info *
cua_msg_info(enum cua_msg msg)
{
	return (unsigned)msg < CUA_MSG_COUNT ? &msgs[msg] : NULL;
}

cua_errcode
cua_errcode_of_result(cua_result r)
{
	switch (r) {
	case CUA_OK:
		return CUA_E_OK;
#define CUA_GENERIC(result, code)                                              \
	case result:                                                           \
		return CUA_E_##code;
#include "errors.def"
	}
	return CUA_E_INTERNAL;
}

const char *
cua_slot_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return buf;
}

/* ---- rendering --------------------------------------------------------- */

static const char *
term_words(const char *name, size_t len, enum cua_vocab v)
{
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++)
		if (strlen(terms[i].name) == len &&
		    memcmp(terms[i].name, name, len) == 0)
			return terms[i].words[v];
	return NULL;
}

/* One `{…}` of a template (without the braces). */
static unsigned
render_field(struct strbuf *out, const char *f, size_t len, enum cua_vocab v,
	     const struct cua_slot *slots, size_t n, unsigned char *used)
{
	struct strbuf clean = STRBUF_INIT;
	const char *colon;
	size_t name_len, max = 0;

	if (len && f[0] == '@') {
		int upper = len > 1 && f[1] == '^';
		const char *w = term_words(f + 1 + upper, len - 1 - upper, v);

		if (!w)
			return CUA_RENDER_BAD_TEMPLATE;
		if (upper && *w >= 'a' && *w <= 'z') {
			sb_addc(out, (char)(*w - 'a' + 'A'));
			w++;
		}
		sb_add(out, w);
		return 0;
	}
	colon = memchr(f, ':', len);
	name_len = colon ? (size_t)(colon - f) : len;
	if (colon) {
		char *end;

		max = strtoul(colon + 1, &end, 10);
		if (end != f + len || !max)
			return CUA_RENDER_BAD_TEMPLATE;
	}
	for (size_t i = 0; i < n; i++) {
		if (!slots[i].name || strlen(slots[i].name) != name_len ||
		    memcmp(slots[i].name, f, name_len) != 0)
			continue;
		used[i] = 1;
		if (!max) {
			cua_sanitize_sb(out,
					slots[i].value ? slots[i].value : "");
			return 0;
		}
		cua_sanitize_sb(&clean, slots[i].value ? slots[i].value : "");
		cua_add_truncated(out, sb_str(&clean), max);
		sb_free(&clean);
		return 0;
	}
	/* shown as written, so that a test sees it */
	sb_addc(out, '{');
	sb_addn(out, f, len);
	sb_addc(out, '}');
	return CUA_RENDER_MISSING_SLOT;
}

unsigned
cua_err_render(struct strbuf *out, enum cua_msg msg, enum cua_vocab v,
	       const struct cua_slot *slots, size_t n)
{
	unsigned char used[64] = { 0 };
	const char *p, *open, *close;
	unsigned problems = 0;

	if ((unsigned)msg >= CUA_MSG_COUNT || (unsigned)v >= CUA_VOCAB_COUNT ||
	    n > sizeof(used))
		return CUA_RENDER_BAD_TEMPLATE;
	for (p = msgs[msg].template; (open = strchr(p, '{')); p = close + 1) {
		close = strchr(open, '}');
		if (!close ||
		    memchr(open + 1, '{', (size_t)(close - open - 1))) {
			problems |= CUA_RENDER_BAD_TEMPLATE;
			break;
		}
		sb_addn(out, p, (size_t)(open - p));
		problems |=
			render_field(out, open + 1, (size_t)(close - open - 1),
				     v, slots, n, used);
	}
	sb_add(out, p);
	if (strchr(p, '}'))
		problems |= CUA_RENDER_BAD_TEMPLATE;
	for (size_t i = 0; i < n; i++)
		if (!used[i])
			problems |= CUA_RENDER_UNUSED_SLOT;
	return problems;
}

/* ---- the thread's error ------------------------------------------------ */

static void
set_message(const char *s)
{
	snprintf(err_msg, sizeof(err_msg), "%s", s);
}

cua_result
cua_err_slots(enum cua_msg msg, const struct cua_slot *slots, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned problems;

	assert((unsigned)msg < CUA_MSG_COUNT);
	problems = cua_err_render(&sb, msg, err_vocab, slots, n);
	/* a call site that does not fill its template is a bug */
	assert(problems == 0);
	(void)problems;
	set_message(sb.oom ? "out of memory" : sb_str(&sb));
	sb_free(&sb);
	err_code = msgs[msg].code;
	return msgs[msg].result;
}

cua_result
cua_error(cua_result code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_msg, sizeof(err_msg), fmt, ap);
	va_end(ap);
	err_code = cua_errcode_of_result(code);
	return code;
}

void
cua_error_clear(void)
{
	err_msg[0] = '\0';
	err_code = CUA_E_OK;
}

const char *
cua_error_get(void)
{
	return err_msg;
}

cua_errcode
cua_err_code(void)
{
	return err_code;
}

void
cua_err_set_vocab(enum cua_vocab v)
{
	if ((unsigned)v < CUA_VOCAB_COUNT)
		err_vocab = v;
}

void
cua_err_save(struct cua_err_saved *saved, cua_result result)
{
	saved->code = err_code;
	saved->result = result;
	memcpy(saved->message, err_msg, sizeof(saved->message));
}

cua_result
cua_err_restore(const struct cua_err_saved *saved)
{
	memcpy(err_msg, saved->message, sizeof(err_msg));
	err_code = saved->code;
	return saved->result;
}
