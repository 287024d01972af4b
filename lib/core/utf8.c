/*
 * The one UTF-8 decoder (see utf8.h for what ill-formed input becomes).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "utf8.h"

/*
 * Decodes at p[0 .. len) (len > 0). The bounds of the second byte follow
 * the table of well-formed byte sequences: after E0 it must be A0..BF
 * (no overlong), after ED 80..9F (no surrogate), after F0 90..BF (no
 * overlong), after F4 80..8F (nothing above U+10FFFF); C0, C1 and F5..FF
 * start nothing. Sets *bad for ill-formed input.
 */
static size_t
decode(const unsigned char *p, size_t len, uint32_t *cp, int *bad)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t need, i;
	uint32_t v;

	*bad = 0;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		*bad = 1;
		*cp = CUA_UTF8_REPLACEMENT;
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= len || p[i] < lo || p[i] > hi) {
			*bad = 1;
			*cp = CUA_UTF8_REPLACEMENT;
			return i;
		}
		v = (v << 6) | (p[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return need + 1;
}

size_t
cua_utf8_decode(const char *s, size_t len, uint32_t *cp)
{
	int bad;

	if (len == 0) {
		*cp = 0;
		return 0;
	}
	return decode((const unsigned char *)s, len, cp, &bad);
}

uint32_t
cua_utf8_next(const char **p)
{
	uint32_t cp;
	int bad;

	*p += decode((const unsigned char *)*p, SIZE_MAX, &cp, &bad);
	return cp;
}

int
cua_utf8_valid(const char *s, size_t len)
{
	size_t i = 0;
	uint32_t cp;
	int bad;

	while (i < len) {
		i += decode((const unsigned char *)s + i, len - i, &cp, &bad);
		if (bad)
			return 0;
	}
	return 1;
}

size_t
cua_utf8_encode(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t
cua_utf8_len(const char *s)
{
	size_t n = 0;

	if (!s)
		return 0;
	while (*s) {
		cua_utf8_next(&s);
		n++;
	}
	return n;
}

size_t
cua_utf8_offset(const char *s, size_t index)
{
	const char *p = s;

	for (size_t i = 0; i < index && *p; i++)
		cua_utf8_next(&p);
	return (size_t)(p - s);
}

size_t
cua_utf8_floor(const char *s, size_t off)
{
	size_t i = off;

	while (i > 0 && off - i < 3 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}
