/*
 * Checks shared by the tests of the press_key grammar (test-keys-names.c,
 * test-keys-grammar.c): a key that parses to one chord, an error with its
 * exact message, and the keysyms of the modifiers by name.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_KEYS_CHECK_H
#define CUA_TEST_KEYS_CHECK_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "core/ctx.h"
#include "core/errors.h"
#include "core/keys.h"

#define HINT                                                                   \
	" (use xdotool key names such as Return, Tab, BackSpace, "             \
	"Delete, Escape, Up, Page_Down, F5, KP_0, or a single character, "     \
	"joined with + as in ctrl+shift+t)"

#define Control_L 0xffe3
#define Control_R 0xffe4
#define Shift_L 0xffe1
#define Shift_R 0xffe2
#define Alt_L 0xffe9
#define Alt_R 0xffea
#define Super_L 0xffeb
#define Super_R 0xffec
#define Meta_L 0xffe7
#define Meta_R 0xffe8
#define Hyper_L 0xffed
#define Hyper_R 0xffee
#define Level3 0xfe03

/* Parses `key`, which must succeed. */
static inline struct cua_key_seq
parse_ok(const char *key, uint32_t flags)
{
	struct cua_key_seq seq = { (void *)1, 99 };
	cua_result r = cua_keys_parse(key, flags, &seq);

	if (r != CUA_OK)
		fail_msg("'%s': %d %s", key, r, cua_error_get());
	assert_non_null(seq.chords);
	assert_true(seq.n > 0);
	return seq;
}

/* `key` is one chord: the key keysym after the given modifier keysyms. */
static inline void
check_chord(const char *key, uint32_t flags, uint32_t keysym, size_t n_mods,
	    ...)
{
	struct cua_key_seq seq = parse_ok(key, flags);
	va_list ap;
	size_t i;

	if (seq.n != 1)
		fail_msg("'%s': %zu chords", key, seq.n);
	if (seq.chords[0].keysym != keysym)
		fail_msg("'%s': keysym 0x%x (%s), want 0x%x", key,
			 seq.chords[0].keysym,
			 cua_keysym_name(seq.chords[0].keysym), keysym);
	if (seq.chords[0].n_mods != n_mods)
		fail_msg("'%s': %zu modifiers, want %zu", key,
			 seq.chords[0].n_mods, n_mods);
	va_start(ap, n_mods);
	for (i = 0; i < n_mods; i++) {
		uint32_t want = va_arg(ap, uint32_t);

		if (seq.chords[0].mod_keysyms[i] != want)
			fail_msg("'%s': modifier %zu is 0x%x, want 0x%x", key,
				 i, seq.chords[0].mod_keysyms[i], want);
	}
	va_end(ap);
	cua_keys_free(&seq);
	assert_null(seq.chords);
	assert_int_equal(seq.n, 0);
}

#define check_key(key, keysym) check_chord((key), 0, (keysym), 0)

static inline void
check_err(const char *key, uint32_t flags, cua_result code, const char *msg)
{
	struct cua_key_seq seq = { (void *)1, 99 };
	cua_result r;

	cua_error_clear();
	r = cua_keys_parse(key, flags, &seq);
	if (r != code)
		fail_msg("'%s': result %d, want %d (%s)", key ? key : "(null)",
			 r, code, cua_error_get());
	assert_null(seq.chords);
	assert_int_equal(seq.n, 0);
	assert_string_equal(cua_error_get(), msg);
}

/* keyNotFound("<echo>") + the standard hint. */
static inline void
check_unknown(const char *key, const char *echo)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "keyNotFound(\"%s\")%s", echo, HINT);
	check_err(key, 0, CUA_ERROR_INVALID_ARGUMENT, msg);
}

#endif
