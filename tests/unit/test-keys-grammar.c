/*
 * The press_key grammar (docs/actions.md §7; docs/tools.md §11 E-UNKNOWN-KEY
 * and E-KEY-NOT-ALLOWED): combos and sequences, the plus key, missing and
 * unknown keys, refused system shortcuts, and hostile and random input.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/keys.h"
#include "keys-check.h"
#include "util.h"

#define PLUS_HINT                                                              \
	" (a + must be followed by a key name: write plus for "                \
	"the + key and space for the space bar, as in ctrl+plus or "           \
	"ctrl+space)"
#define ORDER_HINT                                                             \
	" (only modifiers such as ctrl, shift, alt or super "                  \
	"may come before the last key of a combo, as in ctrl+shift+t; to "     \
	"press keys one after another, separate them with spaces, as in "      \
	"Down Down Return)"

static void
check_refused_f(const char *key, uint32_t flags, const char *combo,
		const char *what)
{
	char msg[1024];

	snprintf(msg, sizeof(msg),
		 "press_key refused '%s': it is a system shortcut that %s, "
		 "which Computer Use may not send.",
		 combo, what);
	check_err(key, flags, CUA_ERROR_PERMISSION, msg);
}

#define check_refused(key, what) check_refused_f((key), 0, (key), (what))

static void
test_whitespace_around_plus(void **state)
{
	(void)state;
	check_chord("ctrl + c", 0, 'c', 1, Control_L);
	check_chord("ctrl+ c", 0, 'c', 1, Control_L);
	check_chord("ctrl +c", 0, 'c', 1, Control_L);
	check_chord("  ctrl\t+\tshift +  t  ", 0, 't', 2, Control_L, Shift_L);
	check_chord("ctrl\n+\nc", 0, 'c', 1, Control_L);
}

static void
test_sequences(void **state)
{
	struct cua_key_seq seq;

	(void)state;
	seq = parse_ok("ctrl+a BackSpace", 0);
	assert_int_equal(seq.n, 2);
	assert_int_equal(seq.chords[0].keysym, 'a');
	assert_int_equal(seq.chords[0].n_mods, 1);
	assert_int_equal(seq.chords[0].mod_keysyms[0], Control_L);
	assert_int_equal(seq.chords[1].keysym, 0xff08);
	assert_int_equal(seq.chords[1].n_mods, 0);
	assert_int_equal(seq.chords[1].mods, 0);
	cua_keys_free(&seq);

	seq = parse_ok("Down Down Return", 0);
	assert_int_equal(seq.n, 3);
	assert_int_equal(seq.chords[0].keysym, 0xff54);
	assert_int_equal(seq.chords[1].keysym, 0xff54);
	assert_int_equal(seq.chords[2].keysym, 0xff0d);
	cua_keys_free(&seq);

	/* embedded line breaks and tabs separate combos too */
	seq = parse_ok("ctrl+c\nctrl+v\r\n\tTab", 0);
	assert_int_equal(seq.n, 3);
	assert_int_equal(seq.chords[0].keysym, 'c');
	assert_int_equal(seq.chords[1].keysym, 'v');
	assert_int_equal(seq.chords[2].keysym, 0xff09);
	cua_keys_free(&seq);

	/* white space without + separates: `ctrl a` is two combos */
	seq = parse_ok("ctrl a", 0);
	assert_int_equal(seq.n, 2);
	assert_int_equal(seq.chords[0].keysym, Control_L);
	assert_int_equal(seq.chords[1].keysym, 'a');
	assert_int_equal(seq.chords[1].n_mods, 0);
	cua_keys_free(&seq);

	/* an error in a later combo rejects the whole argument */
	check_unknown("ctrl+a BackSpac", "BackSpac");
}

static void
test_chord_structure(void **state)
{
	struct cua_key_seq seq;

	(void)state;
	/* modifiers in the order written */
	check_chord("shift+ctrl+a", 0, 'a', 2, Shift_L, Control_L);
	check_chord("ctrl+alt+shift+super+Super_L+meta+hyper+altgr+x", 0, 'x',
		    7, Control_L, Alt_L, Shift_L, Super_L, Meta_L, Hyper_L,
		    Level3);
	/* repeats press once; `super` and `ctrl` are both Control_L */
	check_chord("ctrl+ctrl+a", 0, 'a', 1, Control_L);
	check_chord("ctrl+Control_L+CTRL+super+a", 0, 'a', 1, Control_L);
	check_chord("ctrl+Control_R+a", 0, 'a', 2, Control_L, Control_R);
	/* modifier-only combos */
	check_chord("ctrl+ctrl", 0, Control_L, 0);
	check_chord("ctrl+shift", 0, Shift_L, 1, Control_L);
	check_chord("Super_L", 0, Super_L, 0);

	seq = parse_ok("ctrl+alt+shift+t", 0);
	assert_int_equal(seq.chords[0].mods,
			 CUA_MOD_CONTROL | CUA_MOD_ALT | CUA_MOD_SHIFT);
	cua_keys_free(&seq);

	seq = parse_ok("ctrl+shift", 0);
	assert_int_equal(seq.chords[0].mods, CUA_MOD_CONTROL);
	cua_keys_free(&seq);

	/* only modifiers may come before the key */
	check_err("a+b", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"a+b\")" ORDER_HINT);
	check_err("ctrl+a+b", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"ctrl+a+b\")" ORDER_HINT);
	check_err("Return + ctrl", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"Return + ctrl\")" ORDER_HINT);
	check_err("Tab Down+Down", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"Down+Down\")" ORDER_HINT);
	/* an unknown name is reported before the order */
	check_unknown("foo+ctrl+a", "foo");
	check_unknown("ctrl+foo+a", "foo");
}

/* docs/actions.md §7.1: the plus key. */
static void
test_plus(void **state)
{
	struct cua_key_seq seq;

	(void)state;
	check_key("+", 0x2b);
	check_key(" + ", 0x2b);
	check_key("plus", 0x2b);
	check_key("PLUS", 0x2b);
	check_chord("ctrl++", 0, 0x2b, 1, Control_L);
	check_chord("ctrl+ +", 0, 0x2b, 1, Control_L);
	check_chord("ctrl + +", 0, 0x2b, 1, Control_L);
	check_chord("ctrl+plus", 0, 0x2b, 1, Control_L);
	check_chord("ctrl+shift++", 0, 0x2b, 2, Control_L, Shift_L);
	check_chord("ctrl+minus", 0, 0x2d, 1, Control_L);
	check_chord("ctrl+-", 0, 0x2d, 1, Control_L);
	check_chord("ctrl+=", 0, 0x3d, 1, Control_L);

	seq = parse_ok("ctrl++ ctrl+-", 0);
	assert_int_equal(seq.n, 2);
	assert_int_equal(seq.chords[0].keysym, 0x2b);
	assert_int_equal(seq.chords[1].keysym, 0x2d);
	cua_keys_free(&seq);
}

static void
test_plus_errors(void **state)
{
	(void)state;
	check_err("ctrl+", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"ctrl+\")" PLUS_HINT);
	check_err("ctrl +  ", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"ctrl +\")" PLUS_HINT);
	check_err("ctrl+++", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"ctrl+++\")" PLUS_HINT);
	check_err("++", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"++\")" PLUS_HINT);
	check_err("+ +", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"+ +\")" PLUS_HINT);
	check_err("a ctrl+", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"ctrl+\")" PLUS_HINT);
	/* `+++` is plus+plus: the first plus is not a modifier */
	check_err("+++", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "keyNotFound(\"+++\")" ORDER_HINT);
	/* a + glued to a name at the start of a combo */
	check_unknown("+a", "+a");
	check_unknown("ctrl+ +a", "+a");
}

static void
test_missing(void **state)
{
	struct cua_key_seq seq = { (void *)1, 99 };

	(void)state;
	check_err(NULL, 0, CUA_ERROR_INVALID_ARGUMENT,
		  "Missing required argument: key");
	check_err("", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "Missing required argument: key");
	check_err("  ", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "Missing required argument: key");
	check_err("\n", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "Missing required argument: key");
	check_err("\t", 0, CUA_ERROR_INVALID_ARGUMENT,
		  "Missing required argument: key");
	/* a single space is the space bar (docs/actions.md §7.1) */
	check_key(" ", 0x20);
	assert_int_equal(cua_keys_parse("a", 0, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_keys_parse(NULL, 0, &seq),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(seq.chords);
	cua_keys_free(NULL);
}

static void
test_unknown_keys(void **state)
{
	(void)state;
	check_unknown("foo", "foo");
	check_unknown("ctrl+foo", "foo");
	check_unknown("Ctrl+Shift+Tabb", "Tabb");
	check_unknown("ctrl+c foo", "foo");
	check_unknown("Page Down", "Page"); /* two combos: Page, Down */
	check_unknown("KP0", "KP0");
	check_unknown("Supr", "Supr");
	check_unknown("0xff0d", "0xff0d"); /* no raw keysym numbers */
	/* the spec's leniency stops at the tables */
	check_unknown("pgdown", "pgdown");
	check_unknown("escp", "escp");
	/* left-out keysyms that act on the X server or keyboard state */
	check_unknown("XF86Ungrab", "XF86Ungrab");
	check_unknown("XF86ClearGrab", "XF86ClearGrab");
	check_unknown("ISO_Next_Group", "ISO_Next_Group");
	check_unknown("Pointer_Button1", "Pointer_Button1");
	check_unknown("StickyKeys_Enable", "StickyKeys_Enable");
	/* quotes and backslashes are escaped as Swift prints them */
	check_unknown("\"ctrl+c\"", "\\\"ctrl");
	check_unknown("ctrl+c\"", "c\\\"");
	check_unknown("a\\b", "a\\\\b");
	/* control characters are not keys and are shown escaped */
	check_unknown("\x01", "\\u{1}");
	check_unknown("ctrl+\x1b", "\\u{1b}");
	check_unknown("\x7f", "\\u{7f}");
	check_unknown("\xc2\x85", "\\u{85}");
	check_unknown("a\x01z", "a\\u{1}z");
	/* ill-formed UTF-8 */
	check_unknown("\xff", "\xef\xbf\xbd");
	check_unknown("\xc3", "\xef\xbf\xbd");
	check_unknown("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* envelope tags and bidi controls are neutralised */
	check_unknown("<app_state>", "\xe2\x80\xb9"
				     "app_state>");
	check_unknown("x\xe2\x80\xaey", "xy");
}

static void
test_refused(void **state)
{
	static const char *const vt = "switches virtual terminals";
	static const char *const power =
		"changes the power state or ends the session";
	char key[64];
	int i;

	(void)state;
	check_refused("ctrl+alt+BackSpace", "kills the X server");
	check_refused("Terminate_Server", "kills the X server");
	check_refused("ctrl+alt+Delete", "opens the session or reboot menu");
	check_refused("ctrl+alt+del", "opens the session or reboot menu");
	check_refused("alt+ctrl+Delete", "opens the session or reboot menu");
	check_refused("Control_R+Alt_R+Delete",
		      "opens the session or reboot menu");
	check_refused("ctrl+alt+shift+Delete",
		      "opens the session or reboot menu");
	check_refused("ctrl+alt+KP_Delete", "opens the session or reboot menu");
	check_refused("ctrl+meta+Delete", "opens the session or reboot menu");
	check_refused("cmd+option+BackSpace", "kills the X server");
	for (i = 1; i <= 12; i++) {
		snprintf(key, sizeof(key), "ctrl+alt+F%d", i);
		check_refused(key, vt);
		snprintf(key, sizeof(key), "XF86Switch_VT_%d", i);
		check_refused(key, vt);
	}
	check_refused("Super_L+l", "locks the screen");
	check_refused("Super_R+l", "locks the screen");
	check_refused("win+l", "locks the screen");
	check_refused("WIN+L", "locks the screen");
	check_refused("hyper+l", "locks the screen");
	check_refused("XF86ScreenSaver", "locks the screen");
	check_refused_f("super+l", CUA_KEYS_SUPER_IS_SUPER, "super+l",
			"locks the screen");
	check_refused("XF86PowerOff", power);
	check_refused("XF86Sleep", power);
	check_refused("XF86Suspend", power);
	check_refused("XF86Hibernate", power);
	check_refused("XF86Standby", power);
	check_refused("XF86LogOff", power);
	check_refused("shift+XF86PowerOff", power);
	check_refused("Sys_Req", "sends a kernel SysRq command");
	check_refused("alt+Sys_Req+b", "sends a kernel SysRq command");
	check_refused("alt+Print", "sends a kernel SysRq command");
	check_refused("Alt_R+Print", "sends a kernel SysRq command");
	check_refused("alt+prtsc", "sends a kernel SysRq command");
	/* the echo is the combo as written (sanitised) */
	check_refused_f("  ctrl + alt + Delete  ", 0, "ctrl + alt + Delete",
			"opens the session or reboot menu");
	check_refused_f("a b ctrl+alt+BackSpace c", 0, "ctrl+alt+BackSpace",
			"kills the X server");
	check_refused_f("ctrl+alt+Delete foo", 0, "ctrl+alt+Delete",
			"opens the session or reboot menu");

	/* not refused */
	check_chord("ctrl+alt+l", 0, 'l', 2, Control_L, Alt_L);
	check_chord("super+l", 0, 'l', 1, Control_L);
	check_chord("ctrl+alt+F13", 0, 0xffca, 2, Control_L, Alt_L);
	check_chord("alt+F4", 0, 0xffc1, 1, Alt_L);
	check_chord("ctrl+F1", 0, 0xffbe, 1, Control_L);
	check_chord("ctrl+BackSpace", 0, 0xff08, 1, Control_L);
	check_chord("ctrl+shift+Delete", 0, 0xffff, 2, Control_L, Shift_L);
	check_chord("alt+Delete", 0, 0xffff, 1, Alt_L);
	check_key("Print", 0xff61);
	check_chord("ctrl+Print", 0, 0xff61, 1, Control_L);
	check_chord("shift+Print", 0, 0xff61, 1, Shift_L);
	check_key("l", 'l');
	check_chord("Super_L+k", 0, 'k', 1, Super_L);

	/* CUA_KEYS_NO_DENYLIST leaves the check to the caller */
	{
		struct cua_key_seq seq =
			parse_ok("ctrl+alt+Delete", CUA_KEYS_NO_DENYLIST);

		assert_string_equal(cua_keys_refusal(&seq.chords[0]),
				    "opens the session or reboot menu");
		cua_keys_free(&seq);
		seq = parse_ok("Sys_Req", CUA_KEYS_NO_DENYLIST);
		assert_non_null(cua_keys_refusal(&seq.chords[0]));
		cua_keys_free(&seq);
		seq = parse_ok("ctrl+alt+l", 0);
		assert_null(cua_keys_refusal(&seq.chords[0]));
		cua_keys_free(&seq);
		assert_null(cua_keys_refusal(NULL));
	}
}

static void
test_hostile(void **state)
{
	struct cua_key_seq seq;
	char *s, *t;
	size_t i;

	(void)state;
	/* a 10 kB token: echoed capped at 64 characters */
	s = repeat("x", 10000);
	t = repeat("x", 64);
	{
		char want[256];

		snprintf(want, sizeof(want), "keyNotFound(\"%s...\")%s", t,
			 HINT);
		check_err(s, 0, CUA_ERROR_INVALID_ARGUMENT, want);
	}
	free(s);
	free(t);

	/* 10 kB of escapes and multibyte characters stay bounded */
	s = repeat("\x01", 10000);
	cua_keys_parse(s, 0, &seq);
	assert_null(seq.chords);
	assert_true(strlen(cua_error_get()) < 64 * 6 + sizeof(HINT) + 32);
	free(s);
	s = repeat("中", 4000);
	cua_keys_parse(s, 0, &seq);
	assert_true(strlen(cua_error_get()) < 64 * 3 + sizeof(HINT) + 32);
	free(s);

	/* 10 kB of repeated modifiers is one chord */
	s = repeat("ctrl+", 2000);
	t = malloc(strlen(s) + 2);
	assert_non_null(t);
	strcpy(t, s);
	strcat(t, "a");
	seq = parse_ok(t, 0);
	assert_int_equal(seq.n, 1);
	assert_int_equal(seq.chords[0].n_mods, 1);
	cua_keys_free(&seq);
	free(s);
	free(t);

	/* 10 kB of plus signs, of white space, of separators */
	s = repeat("+", 10000);
	cua_keys_parse(s, 0, &seq);
	assert_null(seq.chords);
	assert_int_equal(strncmp(cua_error_get(), "keyNotFound(\"+++", 16), 0);
	free(s);
	s = repeat(" \n\t", 3000);
	check_err(s, 0, CUA_ERROR_INVALID_ARGUMENT,
		  "Missing required argument: key");
	free(s);
	s = repeat(" + ", 3000);
	cua_keys_parse(s, 0, &seq);
	assert_null(seq.chords);
	free(s);

	/* the chord limit */
	s = repeat("a ", CUA_KEYS_MAX_CHORDS);
	seq = parse_ok(s, 0);
	assert_int_equal(seq.n, CUA_KEYS_MAX_CHORDS);
	for (i = 0; i < seq.n; i++)
		assert_int_equal(seq.chords[i].keysym, 'a');
	cua_keys_free(&seq);
	free(s);
	s = repeat("Down ", CUA_KEYS_MAX_CHORDS + 1);
	check_err(s, 0, CUA_ERROR_INVALID_ARGUMENT,
		  "press_key sends at most 1000 key combos in one call; split "
		  "them over several calls, or use type_text to enter text.");
	free(s);
}

/* Random strings over the grammar's alphabet: never a crash, a leak or
 * an inconsistent result. */
static void
test_fuzz(void **state)
{
	static const char *const pieces[] = {
		"ctrl", "+",      " ",  "a",       "A",    "Return",  "\n",
		"alt",  "Delete", "\"", "\\",      "\x01", "\xff",    "é",
		"中",   "super",  "l",  "Super_L", "F1",   "Sys_Req", "U20AC",
		"foo",  "shift",  "\t", "++",      "KP_0",
	};
	uint32_t rng = 12345;
	int round;

	(void)state;
	for (round = 0; round < 20000; round++) {
		char buf[256];
		size_t len = 0;
		int n, k;
		struct cua_key_seq seq;
		cua_result r;

		n = (int)((rng = rng * 1103515245 + 12345) >> 16) % 12;
		buf[0] = '\0';
		for (k = 0; k < n; k++) {
			const char *p;
			size_t pl;

			rng = rng * 1103515245 + 12345;
			p = pieces[(rng >> 16) %
				   (sizeof(pieces) / sizeof(pieces[0]))];
			pl = strlen(p);
			if (len + pl >= sizeof(buf))
				break;
			memcpy(buf + len, p, pl + 1);
			len += pl;
		}
		cua_error_clear();
		r = cua_keys_parse(buf, round & 1, &seq);
		if (r == CUA_OK) {
			size_t i;

			assert_non_null(seq.chords);
			assert_true(seq.n > 0);
			for (i = 0; i < seq.n; i++) {
				assert_true(seq.chords[i].keysym != 0);
				assert_true(seq.chords[i].n_mods <=
					    CUA_KEY_MAX_MODS);
				assert_null(cua_keys_refusal(&seq.chords[i]));
			}
			cua_keys_free(&seq);
		} else {
			assert_true(r == CUA_ERROR_INVALID_ARGUMENT ||
				    r == CUA_ERROR_PERMISSION);
			assert_null(seq.chords);
			assert_true(cua_error_get()[0] != '\0');
			assert_null(strchr(cua_error_get(), '\n'));
			assert_null(strchr(cua_error_get(), '\x01'));
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whitespace_around_plus),
		cmocka_unit_test(test_sequences),
		cmocka_unit_test(test_chord_structure),
		cmocka_unit_test(test_plus),
		cmocka_unit_test(test_plus_errors),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_fuzz),
	};

	/* the messages as cua-mcp shows them */
	cua_err_set_vocab(CUA_VOCAB_MCP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
