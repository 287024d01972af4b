/*
 * The one UTF-8 decoder of the library. It is strict: overlong forms,
 * UTF-16 surrogates (U+D800–U+DFFF) and values above U+10FFFF are
 * ill-formed, as are stray continuation bytes and truncated sequences.
 *
 * What ill-formed input becomes: each maximal ill-formed subsequence
 * (the longest start of a well-formed sequence that is there, else the
 * one byte that cannot start any) is one U+FFFD, and the byte that broke
 * a sequence is decoded again on its own. That is the Unicode standard's
 * recommended practice, which the WHATWG encoding standard also follows;
 * the sanitiser, type_text and the key grammar all see the same
 * characters in the same bytes.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_UTF8_H
#define CUA_CORE_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define CUA_UTF8_REPLACEMENT 0xfffdu

/*
 * Decodes the character at the start of s[0 .. len). Returns the number
 * of bytes it covers: 1–4, or 0 when len is 0. *cp receives the scalar
 * value, or U+FFFD for a maximal ill-formed subsequence (1–3 bytes). A
 * NUL byte is never part of a sequence, so a NUL-terminated string may be
 * passed with len = SIZE_MAX: decoding never reads past its NUL.
 */
size_t
cua_utf8_decode(const char *s, size_t len, uint32_t *cp);

/* The character at *p in a NUL-terminated string (not at its NUL), as
 * cua_utf8_decode(); advances *p past it. */
uint32_t
cua_utf8_next(const char **p);

/* 1 when s[0 .. len) is well-formed UTF-8, else 0. */
int
cua_utf8_valid(const char *s, size_t len);

/* UTF-8 encoding of scalar value `cp` into out[0..4); returns its length. */
size_t
cua_utf8_encode(char *out, uint32_t cp);

/* Number of characters of a NUL-terminated string (each maximal
 * ill-formed subsequence counts as one); 0 for NULL. */
size_t
cua_utf8_len(const char *s);

/* Byte offset of character `index` of a NUL-terminated string, counted
 * as cua_utf8_len() counts; strlen(s) when it has fewer characters. */
size_t
cua_utf8_offset(const char *s, size_t index);

/*
 * The start of the character that contains byte `off` of well-formed
 * text: `off` moved back over at most three continuation bytes (never
 * below 0). Used to cut text at a character boundary.
 */
size_t
cua_utf8_floor(const char *s, size_t off);

#endif
