/*
 * A growable string buffer.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_STRBUF_H
#define CUA_CORE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *s; /* always NUL-terminated once anything was added */
	size_t len;
	size_t cap;
	int oom; /* an allocation failed; contents are truncated */
};

#define STRBUF_INIT                                                            \
	{                                                                      \
		NULL, 0, 0, 0                                                  \
	}

void
sb_add(struct strbuf *sb, const char *s);
void
sb_addn(struct strbuf *sb, const char *s, size_t n);
void
sb_addc(struct strbuf *sb, char c);
void
sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void
sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Returns the string (never NULL unless out of memory) and resets sb. */
char *
sb_steal(struct strbuf *sb);
void
sb_free(struct strbuf *sb);
const char *
sb_str(const struct strbuf *sb); /* "" when empty */

#endif
