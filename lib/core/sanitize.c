/*
 * The sanitiser (docs/state-text.md §5). Every app-controlled string passes
 * through cua_sanitize() before it can reach model-visible text, and every
 * printed field through cua_add_truncated().
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sanitize.h"
#include "utf8.h"

/* Unicode White_Space, minus what steps 2–4 already replaced or removed. */
static int
is_space(uint32_t cp)
{
	return cp == 0x20 || cp == 0xa0 || cp == 0x1680 ||
	       (cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f || cp == 0x205f ||
	       cp == 0x3000;
}

/* Step 4: dropped code points (C0/C1 controls other than the ones steps
 * 2–3 map, U+FFFC, bidi overrides and isolates). */
static int
is_removed(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0xfffc ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Step 5: the tag names after `<` whose `<` is neutralised. */
static const char *const envelope_tags[] = {
	"app_state",
	"/app_state",
	"app_specific_instructions",
	"/app_specific_instructions",
};

static int
ascii_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* 1 when s[0..len) starts with `tag`, ASCII case-insensitively. */
static int
has_prefix_ci(const char *s, size_t len, const char *tag)
{
	size_t i;

	for (i = 0; tag[i]; i++) {
		if (i >= len || ascii_lower((unsigned char)s[i]) != tag[i])
			return 0;
	}
	return 1;
}

static int
is_envelope_tag(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(envelope_tags) / sizeof(envelope_tags[0]); i++) {
		if (has_prefix_ci(s, len, envelope_tags[i]))
			return 1;
	}
	return 0;
}

/* Room for `len` bytes in the map; -1 when out of memory. */
static int
map_reserve(struct cua_sanitize_map *m, size_t len)
{
	size_t cap;
	int32_t *v;

	if (len <= m->cap)
		return 0;
	cap = len * 2;
	v = realloc(m->start, cap * sizeof(*v));
	if (!v)
		return -1;
	m->start = v;
	v = realloc(m->end, cap * sizeof(*v));
	if (!v)
		return -1;
	m->end = v;
	m->cap = cap;
	return 0;
}

/*
 * Notes where the bytes sb->s[at .. sb->len) came from, `base` being where
 * the sanitised text starts: all from characters [from, to), or with
 * `each`, byte k from character from + k alone. Does nothing without a map.
 */
static void
map_note(struct strbuf *sb, struct cua_sanitize_map *m, size_t base, size_t at,
	 size_t from, size_t to, int each)
{
	if (!m || sb->oom || sb->len == at)
		return;
	if (map_reserve(m, sb->len - base) < 0) {
		sb->oom = 1;
		return;
	}
	for (size_t k = 0; k < sb->len - at; k++) {
		m->start[at - base + k] = (int32_t)(each ? from + k : from);
		m->end[at - base + k] = (int32_t)(each ? from + k + 1 : to);
	}
}

/* Appends copy[i .. i + n) and, with a map, its entries from ms/me. */
static void
add_copied(struct strbuf *sb, struct cua_sanitize_map *m, size_t start,
	   const char *copy, const int32_t *ms, const int32_t *me, size_t i,
	   size_t n)
{
	size_t at = sb->len;

	sb_addn(sb, copy + i, n);
	if (!m || sb->oom || !n)
		return;
	if (map_reserve(m, sb->len - start) < 0) {
		sb->oom = 1;
		return;
	}
	memcpy(m->start + (at - start), ms + i, n * sizeof(*ms));
	memcpy(m->end + (at - start), me + i, n * sizeof(*me));
}

/*
 * Step 5 on sb->s[start .. sb->len): rewrites the region when it holds a
 * forged envelope tag. Only called when the region contains a `<`. With a
 * map, the U+2039 that replaces a `<` comes from the `<`'s character.
 */
static void
neutralise_tags(struct strbuf *sb, size_t start, struct cua_sanitize_map *m)
{
	size_t len = sb->len - start, i, run;
	int32_t *ms = NULL, *me = NULL;
	char *copy;
	const char *r;

	r = memchr(sb->s + start, '<', len);
	while (r &&
	       !is_envelope_tag(r + 1, len - (size_t)(r + 1 - (sb->s + start))))
		r = memchr(r + 1, '<', len - (size_t)(r + 1 - (sb->s + start)));
	if (!r)
		return;

	copy = malloc(len);
	if (copy && m) {
		ms = malloc(len * sizeof(*ms));
		me = malloc(len * sizeof(*me));
		if (ms && me) {
			memcpy(ms, m->start, len * sizeof(*ms));
			memcpy(me, m->end, len * sizeof(*me));
		}
	}
	if (!copy || (m && (!ms || !me))) {
		/* cannot rewrite: drop the region rather than leak a tag */
		free(copy);
		free(ms);
		free(me);
		sb->oom = 1;
		sb->len = start;
		sb->s[start] = '\0';
		return;
	}
	memcpy(copy, sb->s + start, len);
	sb->len = start;
	sb->s[start] = '\0';
	for (i = 0; i < len; i += run) {
		const char *lt = memchr(copy + i, '<', len - i);
		size_t at;

		if (!lt) {
			add_copied(sb, m, start, copy, ms, me, i, len - i);
			break;
		}
		run = (size_t)(lt - (copy + i));
		add_copied(sb, m, start, copy, ms, me, i, run);
		at = sb->len;
		if (is_envelope_tag(lt + 1, len - (i + run) - 1)) {
			sb_add(sb, "\xe2\x80\xb9"); /* U+2039 */
			if (m)
				map_note(sb, m, start, at, (size_t)ms[i + run],
					 (size_t)me[i + run], 0);
		} else {
			add_copied(sb, m, start, copy, ms, me, i + run, 1);
		}
		run++;
	}
	free(copy);
	free(ms);
	free(me);
}

/*
 * Steps 1–6 on `s`, appended to sb. With a map `m`, notes where each
 * appended byte came from and hands each U+FFFC to m->object.
 */
static void
sanitize(struct strbuf *sb, const char *s, struct cua_sanitize_map *m)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t start = sb->len;
	size_t keep = start; /* end of the last non-white output */
	size_t ci = 0;       /* characters of `s` read */
	size_t objects = 0;  /* U+FFFC read */
	int saw_lt = 0;

	if (!s)
		return;
	while (*p) {
		const unsigned char *q;
		char enc[4];
		uint32_t cp;
		size_t n, at = sb->len;

		if (*p >= 0x20 && *p < 0x7f) {
			/* printable ASCII run, copied in one go */
			if (sb->len == start)
				for (; *p == ' '; p++)
					ci++;
			for (q = p; *q >= 0x20 && *q < 0x7f; q++)
				if (*q == '<')
					saw_lt = 1;
			if (q == p)
				continue;
			sb_addn(sb, (const char *)p, (size_t)(q - p));
			map_note(sb, m, start, at, ci, 0, 1);
			ci += (size_t)(q - p);
			for (n = (size_t)(q - p); n > 0 && p[n - 1] == ' '; n--)
				;
			if (n > 0)
				keep = sb->len - (size_t)(q - p) + n;
			p = q;
			continue;
		}

		n = cua_utf8_decode((const char *)p, SIZE_MAX, &cp);
		p += n;
		if (cp == '\r' || cp == '\n' || cp == 0x85 || cp == 0x2028 ||
		    cp == 0x2029) {
			size_t chars = 1;

			if (cp == '\r' && *p == '\n') {
				p++;
				chars = 2;
			}
			sb_addn(sb, "\\n", 2);
			map_note(sb, m, start, at, ci, ci + chars, 0);
			ci += chars;
			keep = sb->len;
			continue;
		}
		if (cp == '\t' || cp == 0x0b || cp == 0x0c) {
			if (sb->len != start)
				sb_addc(sb, ' ');
		} else if (cp == 0xfffc && m && m->object) {
			m->object(m->ud, objects++, sb);
			if (sb->len > at) {
				keep = sb->len;
				if (memchr(sb->s + at, '<', sb->len - at))
					saw_lt = 1;
			}
		} else if (is_removed(cp)) {
			/* dropped */
		} else if (is_space(cp)) {
			if (sb->len != start)
				sb_addn(sb, enc, cua_utf8_encode(enc, cp));
		} else {
			sb_addn(sb, enc, cua_utf8_encode(enc, cp));
			keep = sb->len;
		}
		map_note(sb, m, start, at, ci, ci + 1, 0);
		ci++;
	}
	if (!sb->s)
		return;
	if (sb->oom) {
		/* contents are incomplete: keep nothing half-sanitised */
		sb->len = start;
		sb->s[start] = '\0';
		return;
	}
	sb->len = keep;
	sb->s[keep] = '\0';
	if (saw_lt)
		neutralise_tags(sb, start, m);
}

void
cua_sanitize_sb(struct strbuf *sb, const char *s)
{
	sanitize(sb, s, NULL);
}

int
cua_sanitize_mapped(struct strbuf *sb, const char *s,
		    struct cua_sanitize_map *map)
{
	sanitize(sb, s ? s : "", map);
	return sb->oom ? -1 : 0;
}

void
cua_sanitize_map_free(struct cua_sanitize_map *map)
{
	free(map->start);
	free(map->end);
	map->start = map->end = NULL;
	map->cap = 0;
}

/* 1 when s needs no change at all: printable ASCII without `<`, not
 * starting or ending with a space. The common case, copied directly. */
static int
is_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (*p == ' ')
		return 0;
	for (; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f || *p == '<')
			return 0;
	}
	return p == (const unsigned char *)s || p[-1] != ' ';
}

char *
cua_sanitize(struct cua_arena *arena, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *out;

	if (!s)
		s = "";
	if (is_clean(s))
		return cua_arena_strdup(arena, s);
	cua_sanitize_sb(&sb, s);
	if (sb.oom) {
		sb_free(&sb);
		return NULL;
	}
	out = cua_arena_strndup(arena, sb_str(&sb), sb.len);
	sb_free(&sb);
	return out;
}

/*
 * A code point that continues the grapheme cluster before it: combining
 * marks, variation selectors, ZWJ, emoji modifiers and emoji tag
 * characters. A cut is never placed just before one of them.
 */
static int
is_extender(uint32_t cp)
{
	return (cp >= 0x0300 && cp <= 0x036f) ||
	       (cp >= 0x1ab0 && cp <= 0x1aff) ||
	       (cp >= 0x1dc0 && cp <= 0x1dff) ||
	       (cp >= 0x20d0 && cp <= 0x20ff) ||
	       (cp >= 0xfe20 && cp <= 0xfe2f) ||
	       (cp >= 0xfe00 && cp <= 0xfe0f) ||
	       (cp >= 0xe0100 && cp <= 0xe01ef) || cp == 0x200d ||
	       (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
	       (cp >= 0xe0020 && cp <= 0xe007f);
}

static int
is_regional_indicator(uint32_t cp)
{
	return cp >= 0x1f1e6 && cp <= 0x1f1ff;
}

/* Start of the scalar value that ends just before s + off (off > 0). */
static size_t
prev_start(const char *s, size_t off)
{
	return cua_utf8_floor(s, off - 1);
}

static uint32_t
decode_at(const char *s, size_t off)
{
	uint32_t cp;

	cua_utf8_decode(s + off, SIZE_MAX, &cp);
	return cp;
}

/* 1 when a grapheme cluster boundary lies at s + off (0 < off, s[off]
 * not NUL). */
static int
is_boundary(const char *s, size_t off)
{
	size_t prev = prev_start(s, off);
	uint32_t cur = decode_at(s, off), before = decode_at(s, prev);
	size_t n = 0;

	if (is_extender(cur) || before == 0x200d)
		return 0;
	if (!is_regional_indicator(cur) || !is_regional_indicator(before))
		return 1;
	/* inside a flag when an odd number of indicators precede */
	for (;;) {
		n++;
		if (prev == 0)
			break;
		prev = prev_start(s, prev);
		if (!is_regional_indicator(decode_at(s, prev)))
			break;
	}
	return n % 2 == 0;
}

void
cua_add_truncated(struct strbuf *sb, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t count = 0, cut, off;

	if (!s)
		return;
	/* find the byte offset after `max` scalar values */
	while (*p && count < max) {
		uint32_t cp;

		p += cua_utf8_decode((const char *)p, SIZE_MAX, &cp);
		count++;
	}
	if (!*p) {
		sb_addn(sb, s, (size_t)(p - (const unsigned char *)s));
		return;
	}
	cut = (size_t)(p - (const unsigned char *)s);
	/* move the cut back to the start of the cluster it falls in; a
	 * cluster longer than the whole budget is cut hard instead */
	off = cut;
	while (off > 0 && !is_boundary(s, off))
		off = prev_start(s, off);
	if (off > 0)
		cut = off;
	/* never split the two-character line-break escape "\\n" */
	if (cut > 0 && s[cut - 1] == '\\' && s[cut] == 'n') {
		size_t run = 0;

		while (run < cut && s[cut - 1 - run] == '\\')
			run++;
		if (run % 2 == 1)
			cut--;
	}
	sb_addn(sb, s, cut);
	sb_addn(sb, "...", 3);
}

cua_result
cua_error_quoting(cua_result code, const char *before, const char *name,
		  const char *after, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	sb_add(&sb, before);
	cua_sanitize_sb(&sb, name);
	va_start(ap, after);
	sb_vaddf(&sb, after, ap);
	va_end(ap);
	code = cua_error(code, "%s", sb_str(&sb));
	sb_free(&sb);
	return code;
}
