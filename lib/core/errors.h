/*
 * Raising errors: the messages of the registry (errors.def), their codes,
 * and the vocabulary they are worded in.
 *
 * A model-facing failure is raised with
 *
 *     return cua_err(CUA_MSG_NOTFOUND, { "id", CUA_NUM("%u", id) },
 *                    { "app", query });
 *
 * which records the code, the rendered message and returns the message's
 * cua_result. Every slot of the template must be given; values are
 * sanitised when rendered. Internal failures that no model or user acts
 * on keep cua_error() (ctx.h), which records a plain message and the
 * code the registry gives its cua_result (CUA_GENERIC).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_ERRORS_H
#define CUA_CORE_ERRORS_H

#include <stddef.h>

#include "cua/cua.h"

#include "strbuf.h"

enum cua_msg {
#define CUA_MSG(msg, code, result, doc, template) CUA_MSG_##msg,
#include "errors.def"
	CUA_MSG_COUNT
};

/* Who reads the messages (cua_session_set_option() "vocabulary"). */
enum cua_vocab {
	CUA_VOCAB_API, /* the default: neutral words */
	CUA_VOCAB_MCP, /* the MCP tools (cua-mcp) */
	CUA_VOCAB_CLI, /* the `cua` commands */
	CUA_VOCAB_COUNT
};

/* The vocabulary named `name` ("api", "mcp", "cli"), or -1. */
int
cua_vocab_from_name(const char *name);

/* One named value of a message. */
struct cua_slot {
	const char *name;
	const char *value;
};

/* A printf-formatted slot value (a number), valid until the end of the
 * enclosing block. */
#define CUA_NUM(fmt, ...) cua_slot_fmt((char[64]){ 0 }, 64, fmt, __VA_ARGS__)
const char *
cua_slot_fmt(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define CUA_SLOTS_(...)                                                        \
	((const struct cua_slot[]){ { NULL, NULL }, ##__VA_ARGS__ })
/* cua_err(CUA_MSG_X, { "name", value }, ...): raises message X. */
#define cua_err(msg, ...)                                                      \
	cua_err_slots(                                                         \
		(msg), CUA_SLOTS_(__VA_ARGS__) + 1,                            \
		sizeof(CUA_SLOTS_(__VA_ARGS__)) / sizeof(struct cua_slot) - 1)
cua_result
cua_err_slots(enum cua_msg msg, const struct cua_slot *slots, size_t n);

/* The vocabulary of this thread's messages; entry points of a session set
 * the session's (api.c). */
void
cua_err_set_vocab(enum cua_vocab v);

/* The public code of this thread's last error (CUA_E_OK when none). */
cua_errcode
cua_err_code(void);

/* The longest message kept (longer ones are cut). */
#define CUA_ERR_MAX 4096

/* A copy of this thread's error and the result it came with, to raise
 * again with cua_err_restore() after calls that may overwrite it. */
struct cua_err_saved {
	cua_errcode code;
	cua_result result;
	char message[CUA_ERR_MAX];
};
void
cua_err_save(struct cua_err_saved *saved, cua_result result);
cua_result
cua_err_restore(const struct cua_err_saved *saved);

/* ---- the registry, for cua-mcp's table and the tests ------------------- */

struct cua_msg_info {
	const char *name; /* "NOTFOUND" */
	cua_errcode code;
	cua_result result;
	int doc; /* docs/tools.md §11 gives the MCP text exactly */
	const char *template;
};
const struct cua_msg_info *
cua_msg_info(enum cua_msg msg);

/* The code of a plain message with result `r` (CUA_GENERIC). */
cua_errcode
cua_errcode_of_result(cua_result r);

/* Problems cua_err_render() found (bits). */
#define CUA_RENDER_MISSING_SLOT (1u << 0) /* a template slot not given */
#define CUA_RENDER_UNUSED_SLOT (1u << 1)  /* a given slot not in it */
#define CUA_RENDER_BAD_TEMPLATE (1u << 2) /* an unknown term, a lone brace */

/* Renders message `msg` in vocabulary `v`; returns the problems (0). */
unsigned
cua_err_render(struct strbuf *out, enum cua_msg msg, enum cua_vocab v,
	       const struct cua_slot *slots, size_t n);

#endif
