/*
 * The one UTF-8 decoder (lib/core/utf8.c): strictness, what ill-formed
 * input becomes, and the counting and cutting built on it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/arena.h"
#include "core/keys.h"
#include "core/sanitize.h"
#include "core/utf8.h"

#define R "\xef\xbf\xbd" /* U+FFFD */

/*
 * Decodes all of `s` (its sizeof - 1 bytes, NULs included) with
 * cua_utf8_decode(): the values, encoded again, must spell `want`, and
 * the bytes each one covered must be the digits of `sizes`.
 */
#define CHECK(s, want, sizes)                                                  \
	check((s), sizeof(s) - 1, (want), sizeof(want) - 1, (sizes))

static void
check(const char *s, size_t len, const char *want, size_t want_len,
      const char *sizes)
{
	char got[64], got_sizes[32];
	size_t off = 0, g = 0, k = 0;

	while (off < len) {
		uint32_t cp = 0x12345678;
		size_t used = cua_utf8_decode(s + off, len - off, &cp);

		assert_true(used >= 1 && used <= 4);
		assert_true(cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff));
		assert_true(g + 4 < sizeof(got) && k + 1 < sizeof(got_sizes));
		g += cua_utf8_encode(got + g, cp);
		got_sizes[k++] = (char)('0' + used);
		off += used;
	}
	got_sizes[k] = '\0';
	assert_int_equal(off, len);
	assert_int_equal(g, want_len);
	assert_memory_equal(got, want, want_len);
	assert_string_equal(got_sizes, sizes);
}

static uint32_t
value_of(const char *s)
{
	uint32_t cp;

	assert_int_equal(cua_utf8_decode(s, strlen(s), &cp), strlen(s));
	return cp;
}

static void
test_well_formed(void **state)
{
	(void)state;
	CHECK("a", "a", "1");
	CHECK("caf\xc3\xa9", "caf\xc3\xa9", "1112");
	CHECK("\xf0\x9f\x98\x80!", "\xf0\x9f\x98\x80!", "41");
	CHECK(R, R, "3"); /* a real U+FFFD is well-formed */
	assert_int_equal(value_of("\x7f"), 0x7f);
	assert_int_equal(value_of("\xc2\x80"), 0x80); /* smallest 2-byte */
	assert_int_equal(value_of("\xdf\xbf"), 0x7ff);
	assert_int_equal(value_of("\xe0\xa0\x80"), 0x800); /* smallest 3-byte */
	assert_int_equal(value_of("\xed\x9f\xbf"), 0xd7ff); /* below D800 */
	assert_int_equal(value_of("\xee\x80\x80"), 0xe000); /* above DFFF */
	assert_int_equal(value_of("\xef\xbf\xbf"), 0xffff);
	assert_int_equal(value_of("\xf0\x90\x80\x80"), 0x10000);
	assert_int_equal(value_of("\xf4\x8f\xbf\xbf"), 0x10ffff); /* max */
	assert_int_equal(cua_utf8_valid("", 0), 1);
	assert_int_equal(cua_utf8_valid(R "caf\xc3\xa9", 8), 1);
}

static void
test_overlong(void **state)
{
	(void)state;
	/* C0 and C1 start nothing: "/" in two bytes is two U+FFFD */
	CHECK("\xc0\xaf", R R, "11");
	CHECK("\xc1\xbf", R R, "11");
	CHECK("\xc0\x80", R R, "11"); /* NUL in two bytes */
	/* E0 needs A0..BF next, F0 needs 90..BF */
	CHECK("\xe0\x80\xaf", R R R, "111");
	CHECK("\xe0\x9f\xbf", R R R, "111");
	CHECK("\xf0\x80\x80\xaf", R R R R, "1111");
	CHECK("\xf0\x8f\xbf\xbf", R R R R, "1111");
	assert_int_equal(cua_utf8_valid("\xc0\xaf", 2), 0);
	assert_int_equal(cua_utf8_valid("\xe0\x80\xaf", 3), 0);
	assert_int_equal(cua_utf8_valid("\xf0\x80\x80\xaf", 4), 0);
}

static void
test_surrogates(void **state)
{
	(void)state;
	CHECK("\xed\xa0\x80", R R R, "111"); /* U+D800 */
	CHECK("\xed\xbf\xbf", R R R, "111"); /* U+DFFF */
	/* a CESU-8 pair for U+10000 */
	CHECK("\xed\xa0\x80\xed\xb0\x80", R R R R R R, "111111");
	assert_int_equal(cua_utf8_valid("\xed\xa0\x80", 3), 0);
	assert_int_equal(cua_utf8_valid("\xed\x9f\xbf", 3), 1);
}

static void
test_above_max(void **state)
{
	(void)state;
	CHECK("\xf4\x90\x80\x80", R R R R, "1111"); /* U+110000 */
	CHECK("\xf5\x80\x80\x80", R R R R, "1111");
	CHECK("\xf7\xbf\xbf\xbf", R R R R, "1111");
	/* the old five- and six-byte forms */
	CHECK("\xf8\x88\x80\x80\x80", R R R R R, "11111");
	CHECK("\xfc\x84\x80\x80\x80\x80", R R R R R R, "111111");
	CHECK("\xfe\xff", R R, "11");
	assert_int_equal(cua_utf8_valid("\xf4\x90\x80\x80", 4), 0);
	assert_int_equal(cua_utf8_valid("\xf4\x8f\xbf\xbf", 4), 1);
}

static void
test_truncated(void **state)
{
	uint32_t cp;

	(void)state;
	/* a sequence cut short is one U+FFFD for all of it that is there */
	CHECK("\xc3", R, "1");
	CHECK("a\xc3", "a" R, "11");
	CHECK("\xe2\x82", R, "2");
	CHECK("\xe2\x82"
	      "x",
	      R "x", "21");
	CHECK("\xf0\x9f\x98", R, "3");
	CHECK("\xf0\x9f\x98"
	      "x",
	      R "x", "31");
	/* the byte that broke it is decoded again, here as a new sequence */
	CHECK("\xe2\x82\xc3\xa9", R "\xc3\xa9", "22");
	/* stray continuation bytes, one U+FFFD each */
	CHECK("\x80\xbf"
	      "a\x80",
	      R R "a" R, "1111");
	/* a NUL is never a continuation byte */
	CHECK("\xe2\x82\0x", R "\0x", "211");
	/* the length limit cuts a sequence */
	assert_int_equal(cua_utf8_decode("\xc3\xa9", 1, &cp), 1);
	assert_int_equal(cp, CUA_UTF8_REPLACEMENT);
	assert_int_equal(cua_utf8_decode("\xf0\x9f\x98\x80", 3, &cp), 3);
	assert_int_equal(cp, CUA_UTF8_REPLACEMENT);
	assert_int_equal(cua_utf8_decode("x", 0, &cp), 0);
	assert_int_equal(cua_utf8_valid("\xc3\xa9", 1), 0);
	assert_int_equal(cua_utf8_valid("a\xc3\xa9", 3), 1);
}

/* With len = SIZE_MAX the NUL ends every sequence: nothing is read past
 * it, though the bytes after it would continue the sequence. */
static void
test_nul_terminated(void **state)
{
	static const char buf[] = { '\xe2', '\x82', '\0', '\xac', '\0' };
	const char *p = buf;
	uint32_t cp;

	(void)state;
	assert_int_equal(cua_utf8_decode(buf, SIZE_MAX, &cp), 2);
	assert_int_equal(cp, CUA_UTF8_REPLACEMENT);
	assert_int_equal(cua_utf8_next(&p), CUA_UTF8_REPLACEMENT);
	assert_ptr_equal(p, buf + 2);
	p = "\xe2\x82\xac!";
	assert_int_equal(cua_utf8_next(&p), 0x20ac);
	assert_int_equal(cua_utf8_next(&p), '!');
	assert_int_equal(*p, '\0');
}

static void
test_len_offset_floor(void **state)
{
	const char *s = "a\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80z";

	(void)state;
	assert_int_equal(cua_utf8_len(""), 0);
	assert_int_equal(cua_utf8_len(NULL), 0);
	assert_int_equal(cua_utf8_len("abc"), 3);
	assert_int_equal(cua_utf8_len("caf\xc3\xa9"), 4);
	assert_int_equal(cua_utf8_len("\xe6\x97\xa5\xf0\x9f\x98\x80"), 2);
	assert_int_equal(cua_utf8_len(s), 5);
	/* ill-formed input counts as the decoder sees it */
	assert_int_equal(cua_utf8_len("\xc0\xaf"), 2);
	assert_int_equal(cua_utf8_len("\xe2\x82"
				      "x"),
			 2);

	assert_int_equal(cua_utf8_offset(s, 0), 0);
	assert_int_equal(cua_utf8_offset(s, 1), 1);
	assert_int_equal(cua_utf8_offset(s, 2), 3);
	assert_int_equal(cua_utf8_offset(s, 3), 6);
	assert_int_equal(cua_utf8_offset(s, 4), 10);
	assert_int_equal(cua_utf8_offset(s, 5), 11);
	assert_int_equal(cua_utf8_offset(s, 99), 11); /* clamped */

	assert_int_equal(cua_utf8_floor(s, 0), 0);
	assert_int_equal(cua_utf8_floor(s, 2), 1);
	assert_int_equal(cua_utf8_floor(s, 3), 3);
	assert_int_equal(cua_utf8_floor(s, 5), 3);
	assert_int_equal(cua_utf8_floor(s, 9), 6);
	assert_int_equal(cua_utf8_floor(s, 10), 10);
}

static void
test_encode(void **state)
{
	static const uint32_t cps[] = { 0,      'a',     0x7f,    0x80,
					0x7ff,  0x800,   0xd7ff,  0xe000,
					0xffff, 0x10000, 0x10ffff };
	char enc[4];

	(void)state;
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		size_t n = cua_utf8_encode(enc, cps[i]);
		uint32_t cp;

		assert_int_equal(cua_utf8_decode(enc, n, &cp), n);
		assert_int_equal(cp, cps[i]);
		assert_int_equal(cua_utf8_valid(enc, n), 1);
	}
	assert_int_equal(cua_utf8_encode(enc, 0x10ffff), 4);
	assert_memory_equal(enc, "\xf4\x8f\xbf\xbf", 4);
}

/* Every user of the decoder sees the same characters: the sanitiser
 * shows one U+FFFD where type_text types one. */
static void
test_same_everywhere(void **state)
{
	static const char *const inputs[] = {
		"\xc0\xaf",
		"\xe0\x80\xaf",
		"\xed\xa0\x80",
		"\xf4\x90\x80\x80",
		"\xe2\x82"
		"x",
		"\xf0\x9f\x98"
		"x",
		"\x80"
		"a",
		"caf\xc3\xa9",
	};
	struct cua_arena *arena = cua_arena_new();

	(void)state;
	assert_non_null(arena);
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		const char *clean = cua_sanitize(arena, inputs[i]);
		struct cua_key_seq seq;
		const char *p = clean;
		size_t k = 0;

		seq.chords = cua_keys_from_text(inputs[i], &seq.n);
		assert_non_null(seq.chords);
		assert_int_equal(seq.n, cua_utf8_len(inputs[i]));
		while (*p) {
			assert_true(k < seq.n);
			assert_int_equal(cua_utf8_next(&p),
					 seq.chords[k].codepoint);
			k++;
		}
		assert_int_equal(k, seq.n);
		cua_keys_free(&seq);
	}
	cua_arena_free(arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_well_formed),
		cmocka_unit_test(test_overlong),
		cmocka_unit_test(test_surrogates),
		cmocka_unit_test(test_above_max),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_nul_terminated),
		cmocka_unit_test(test_len_offset_floor),
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_same_everywhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
