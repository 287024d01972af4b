/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static int
grow(struct strbuf *sb, size_t extra)
{
	size_t need, cap;
	char *s;

	if (sb->oom)
		return -1;
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return 0;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	s = realloc(sb->s, cap);
	if (!s) {
		sb->oom = 1;
		return -1;
	}
	sb->s = s;
	sb->cap = cap;
	return 0;
}

void
sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	if (grow(sb, n) < 0)
		return;
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void
sb_add(struct strbuf *sb, const char *s)
{
	if (s)
		sb_addn(sb, s, strlen(s));
}

void
sb_addc(struct strbuf *sb, char c)
{
	sb_addn(sb, &c, 1);
}

void
sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || grow(sb, (size_t)n) < 0)
		return;
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void
sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *
sb_steal(struct strbuf *sb)
{
	char *s;

	if (sb->oom) {
		sb_free(sb);
		return NULL;
	}
	s = sb->s ? sb->s : strdup("");
	sb->s = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void
sb_free(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
	sb->oom = 0;
}

const char *
sb_str(const struct strbuf *sb)
{
	return sb->s ? sb->s : "";
}
