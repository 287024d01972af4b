/*
 * Key names of the press_key grammar (docs/actions.md §7.2-§7.4): single
 * characters, X keysym names, keypad and function keys, the modifier
 * names and aliases, case folding, Unicode names, keysym names both
 * ways, and the chords that type a text.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include <X11/XF86keysym.h>
#include <X11/keysym.h>

#include "core/keys.h"
#include "keys-check.h"

/* The expected keysyms come from the X protocol headers, not from a copy
 * of the library's own table: a name and the value X gives it. */
#define XK(name)                                                               \
	{                                                                      \
#name, XK_##name                                               \
	}
#define XF86(name)                                                             \
	{                                                                      \
		"XF86" #name, XF86XK_##name                                    \
	}

static void
test_single_characters(void **state)
{
	static const struct {
		const char *key;
		uint32_t keysym, codepoint;
		int shift;
	} cases[] = {
		{ "a", 0x61, 'a', 0 },
		{ "z", 0x7a, 'z', 0 },
		{ "A", 0x41, 'A', 1 },
		{ "Z", 0x5a, 'Z', 1 },
		{ "0", 0x30, '0', 0 },
		{ "9", 0x39, '9', 0 },
		{ ";", 0x3b, ';', 0 },
		{ ",", 0x2c, ',', 0 },
		{ ".", 0x2e, '.', 0 },
		{ "/", 0x2f, '/', 0 },
		{ "=", 0x3d, '=', 0 },
		{ "-", 0x2d, '-', 0 },
		{ "[", 0x5b, '[', 0 },
		{ "]", 0x5d, ']', 0 },
		{ "\\", 0x5c, '\\', 0 },
		{ "'", 0x27, '\'', 0 },
		{ "`", 0x60, '`', 0 },
		{ "!", 0x21, '!', 1 },
		{ "@", 0x40, '@', 1 },
		{ "#", 0x23, '#', 1 },
		{ "$", 0x24, '$', 1 },
		{ "%", 0x25, '%', 1 },
		{ "^", 0x5e, '^', 1 },
		{ "&", 0x26, '&', 1 },
		{ "*", 0x2a, '*', 1 },
		{ "(", 0x28, '(', 1 },
		{ ")", 0x29, ')', 1 },
		{ "_", 0x5f, '_', 1 },
		{ "{", 0x7b, '{', 1 },
		{ "}", 0x7d, '}', 1 },
		{ "|", 0x7c, '|', 1 },
		{ ":", 0x3a, ':', 1 },
		{ "\"", 0x22, '"', 1 },
		{ "<", 0x3c, '<', 1 },
		{ ">", 0x3e, '>', 1 },
		{ "?", 0x3f, '?', 1 },
		{ "~", 0x7e, '~', 1 },
		{ "+", 0x2b, '+', 1 },
		/* Latin-1: the keysym is the code point */
		{ "é", 0xe9, 0xe9, 0 },
		{ "É", 0xc9, 0xc9, 1 },
		{ "ß", 0xdf, 0xdf, 0 },
		{ "×", 0xd7, 0xd7, 0 },
		{ "ÿ", 0xff, 0xff, 0 },
		{ "\xc2\xa0", 0xa0, 0xa0, 0 }, /* no-break space */
		/* beyond Latin-1: 0x01000000 + code point */
		{ "€", 0x010020ac, 0x20ac, 0 },
		{ "中", 0x01004e2d, 0x4e2d, 0 },
		{ "ж", 0x01000436, 0x0436, 0 },
		{ "😀", 0x0101f600, 0x1f600, 0 },
		{ "\xe2\x80\x8b", 0x0100200b, 0x200b, 0 }, /* ZWSP */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cua_key_seq seq = parse_ok(cases[i].key, 0);

		assert_int_equal(seq.n, 1);
		if (seq.chords[0].keysym != cases[i].keysym)
			fail_msg("'%s': 0x%x", cases[i].key,
				 seq.chords[0].keysym);
		assert_int_equal(seq.chords[0].codepoint, cases[i].codepoint);
		if (seq.chords[0].implied_shift != cases[i].shift)
			fail_msg("'%s': implied_shift %d", cases[i].key,
				 seq.chords[0].implied_shift);
		assert_int_equal(seq.chords[0].n_mods, 0);
		assert_int_equal(seq.chords[0].mods, 0);
		cua_keys_free(&seq);
	}
}

static void
test_named_keys(void **state)
{
	/* docs/actions.md §7.3, §7.4, editing and navigation */
	static const struct {
		const char *key;
		uint32_t keysym;
	} cases[] = {
		XK(BackSpace),
		XK(Tab),
		XK(Linefeed),
		XK(Clear),
		XK(Return),
		XK(Pause),
		XK(Scroll_Lock),
		XK(Escape),
		XK(Delete),
		XK(Home),
		XK(Left),
		XK(Up),
		XK(Right),
		XK(Down),
		XK(Prior),
		XK(Page_Up),
		XK(Next),
		XK(Page_Down),
		XK(End),
		XK(Begin),
		XK(Select),
		XK(Print),
		XK(Execute),
		XK(Insert),
		XK(Undo),
		XK(Redo),
		XK(Menu),
		XK(Find),
		XK(Cancel),
		XK(Help),
		XK(Break),
		XK(Mode_switch),
		XK(script_switch),
		XK(Num_Lock),
		XK(Caps_Lock),
		XK(Shift_Lock),
		XK(space),
		XK(Multi_key),
		XK(ISO_Left_Tab),
		XK(dead_acute),
		XK(EuroSign),
		/* media keys (docs/actions.md §7.4) */
		XF86(AudioPlay),
		XF86(AudioPause),
		XF86(AudioStop),
		XF86(AudioNext),
		XF86(AudioPrev),
		XF86(AudioMute),
		XF86(AudioRaiseVolume),
		XF86(AudioLowerVolume),
		XF86(MonBrightnessUp),
		XF86(Calculator),
		/* keypad */
		XK(KP_Delete),
		XK(KP_Enter),
		XK(KP_Equal),
		XK(KP_Multiply),
		XK(KP_Add),
		XK(KP_Subtract),
		XK(KP_Decimal),
		XK(KP_Divide),
		XK(KP_Space),
		XK(KP_Tab),
		XK(KP_F1),
		XK(KP_F2),
		XK(KP_F3),
		XK(KP_F4),
		XK(KP_Home),
		XK(KP_Left),
		XK(KP_Up),
		XK(KP_Right),
		XK(KP_Down),
		XK(KP_Prior),
		XK(KP_Page_Up),
		XK(KP_Next),
		XK(KP_Page_Down),
		XK(KP_End),
		XK(KP_Begin),
		XK(KP_Insert),
		XK(KP_Separator),
		/* modifier keysyms alone: press and release that key */
		{ "Shift_L", Shift_L },
		{ "Shift_R", Shift_R },
		{ "Control_L", Control_L },
		{ "Control_R", Control_R },
		{ "Meta_L", Meta_L },
		{ "Meta_R", Meta_R },
		{ "Alt_L", Alt_L },
		{ "Alt_R", Alt_R },
		{ "Super_L", Super_L },
		{ "Super_R", Super_R },
		{ "Hyper_L", Hyper_L },
		{ "Hyper_R", Hyper_R },
		{ "ISO_Level3_Shift", Level3 },
		{ "shift", Shift_L },
		{ "ctrl", Control_L },
		/* symbol names */
		XK(exclam),
		XK(quotedbl),
		XK(numbersign),
		XK(dollar),
		XK(percent),
		XK(ampersand),
		XK(apostrophe),
		XK(quoteright),
		XK(parenleft),
		XK(parenright),
		XK(asterisk),
		XK(plus),
		XK(comma),
		XK(minus),
		XK(period),
		XK(slash),
		XK(colon),
		XK(semicolon),
		XK(less),
		XK(equal),
		XK(greater),
		XK(question),
		XK(at),
		XK(bracketleft),
		XK(backslash),
		XK(bracketright),
		XK(asciicircum),
		XK(underscore),
		XK(grave),
		XK(quoteleft),
		XK(braceleft),
		XK(bar),
		XK(braceright),
		XK(asciitilde),
		XK(nobreakspace),
		XK(eacute),
		XK(Eacute),
		XK(ssharp),
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_key(cases[i].key, cases[i].keysym);
}

static void
test_shift_and_codepoint_of_names(void **state)
{
	struct cua_key_seq seq;

	(void)state;
	seq = parse_ok("question", 0);
	assert_int_equal(seq.chords[0].codepoint, '?');
	assert_true(seq.chords[0].implied_shift);
	cua_keys_free(&seq);

	seq = parse_ok("asciitilde", 0);
	assert_true(seq.chords[0].implied_shift);
	cua_keys_free(&seq);

	seq = parse_ok("slash", 0);
	assert_false(seq.chords[0].implied_shift);
	assert_int_equal(seq.chords[0].codepoint, '/');
	cua_keys_free(&seq);

	/* Control+Shift+a (docs/actions.md §7.5) */
	seq = parse_ok("ctrl+A", 0);
	assert_int_equal(seq.chords[0].keysym, 'A');
	assert_true(seq.chords[0].implied_shift);
	assert_int_equal(seq.chords[0].mods, CUA_MOD_CONTROL);
	cua_keys_free(&seq);

	seq = parse_ok("Return", 0);
	assert_int_equal(seq.chords[0].codepoint, 0);
	assert_false(seq.chords[0].implied_shift);
	cua_keys_free(&seq);

	seq = parse_ok("KP_0", 0);
	assert_int_equal(seq.chords[0].codepoint, 0);
	cua_keys_free(&seq);

	seq = parse_ok("space", 0);
	assert_int_equal(seq.chords[0].codepoint, ' ');
	cua_keys_free(&seq);

	seq = parse_ok("EuroSign", 0);
	assert_int_equal(seq.chords[0].codepoint, 0x20ac);
	cua_keys_free(&seq);
}

static void
test_keypad_and_function_keys(void **state)
{
	char name[16];
	int i;

	(void)state;
	for (i = 0; i <= 9; i++) {
		snprintf(name, sizeof(name), "KP_%d", i);
		check_key(name, 0xffb0 + (uint32_t)i);
		snprintf(name, sizeof(name), "kp_%d", i);
		check_key(name, 0xffb0 + (uint32_t)i);
	}
	for (i = 1; i <= 35; i++) {
		snprintf(name, sizeof(name), "F%d", i);
		check_key(name, 0xffbe + (uint32_t)(i - 1));
		snprintf(name, sizeof(name), "f%d", i);
		check_key(name, 0xffbe + (uint32_t)(i - 1));
	}
	check_key("L1", 0xffc8);  /* F11 */
	check_key("R15", 0xffe0); /* F35 */
	check_unknown("F36", "F36");
	check_unknown("F0", "F0");
	check_unknown("KP_10", "KP_10");
}

/* docs/actions.md §7.3: every modifier name in several spellings, before
 * `a`. */
static void
test_modifier_aliases(void **state)
{
	static const struct {
		const char *name;
		uint32_t keysym, bit;
	} cases[] = {
		{ "ctrl", Control_L, CUA_MOD_CONTROL },
		{ "control", Control_L, CUA_MOD_CONTROL },
		{ "ctl", Control_L, CUA_MOD_CONTROL },
		{ "Control_L", Control_L, CUA_MOD_CONTROL },
		{ "Control_R", Control_R, CUA_MOD_CONTROL },
		{ "shift", Shift_L, CUA_MOD_SHIFT },
		{ "Shift_L", Shift_L, CUA_MOD_SHIFT },
		{ "Shift_R", Shift_R, CUA_MOD_SHIFT },
		{ "alt", Alt_L, CUA_MOD_ALT },
		{ "option", Alt_L, CUA_MOD_ALT },
		{ "opt", Alt_L, CUA_MOD_ALT },
		{ "Alt_L", Alt_L, CUA_MOD_ALT },
		{ "Alt_R", Alt_R, CUA_MOD_ALT },
		/* docs/differences.md D16 habit mapping: Control by default */
		{ "super", Control_L, CUA_MOD_CONTROL },
		{ "cmd", Control_L, CUA_MOD_CONTROL },
		{ "command", Control_L, CUA_MOD_CONTROL },
		/* the real Super key */
		{ "Super_L", Super_L, CUA_MOD_SUPER },
		{ "Super_R", Super_R, CUA_MOD_SUPER },
		{ "win", Super_L, CUA_MOD_SUPER },
		{ "windows", Super_L, CUA_MOD_SUPER },
		{ "logo", Super_L, CUA_MOD_SUPER },
		{ "meta", Meta_L, CUA_MOD_META },
		{ "Meta_L", Meta_L, CUA_MOD_META },
		{ "Meta_R", Meta_R, CUA_MOD_META },
		{ "hyper", Hyper_L, CUA_MOD_HYPER },
		{ "Hyper_L", Hyper_L, CUA_MOD_HYPER },
		{ "Hyper_R", Hyper_R, CUA_MOD_HYPER },
		{ "altgr", Level3, CUA_MOD_LEVEL3 },
		{ "ISO_Level3_Shift", Level3, CUA_MOD_LEVEL3 },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char spell[3][64], key[80];

		snprintf(spell[0], sizeof(spell[0]), "%s", cases[i].name);
		for (j = 0; cases[i].name[j]; j++) {
			char c = cases[i].name[j];

			spell[1][j] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
			spell[2][j] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
		}
		spell[1][j] = spell[2][j] = '\0';
		for (j = 0; j < 3; j++) {
			struct cua_key_seq seq;

			snprintf(key, sizeof(key), "%.63s+a", spell[j]);
			check_chord(key, 0, 'a', 1, cases[i].keysym);
			seq = parse_ok(key, 0);
			if (seq.chords[0].mods != cases[i].bit)
				fail_msg("'%s': mods 0x%x", key,
					 seq.chords[0].mods);
			cua_keys_free(&seq);
		}
	}
	/* Codex spellings (docs/actions.md §7.3, §7.4) */
	check_chord("Command+c", 0, 'c', 1, Control_L);
	check_chord("CMD+v", 0, 'v', 1, Control_L);
	check_chord("Ctrl+Shift+t", 0, 't', 2, Control_L, Shift_L);
	/* super_alias = "super" */
	check_chord("super+a", CUA_KEYS_SUPER_IS_SUPER, 'a', 1, Super_L);
	check_chord("cmd+a", CUA_KEYS_SUPER_IS_SUPER, 'a', 1, Super_L);
	check_chord("COMMAND+a", CUA_KEYS_SUPER_IS_SUPER, 'a', 1, Super_L);
	check_chord("ctrl+a", CUA_KEYS_SUPER_IS_SUPER, 'a', 1, Control_L);
	check_chord("super", 0, Control_L, 0);
	check_chord("super", CUA_KEYS_SUPER_IS_SUPER, Super_L, 0);
}

/* docs/actions.md §7.4: every alias, in three spellings. */
static void
test_key_aliases(void **state)
{
	static const struct {
		const char *name;
		uint32_t keysym;
	} cases[] = {
		{ "enter", 0xff0d },     { "return", 0xff0d },
		{ "ret", 0xff0d },       { "kp_enter", 0xff8d },
		{ "esc", 0xff1b },       { "escape", 0xff1b },
		{ "backspace", 0xff08 }, { "bs", 0xff08 },
		{ "delete", 0xffff },    { "del", 0xffff },
		{ "insert", 0xff63 },    { "ins", 0xff63 },
		{ "pageup", 0xff55 },    { "page_up", 0xff55 },
		{ "pgup", 0xff55 },      { "prior", 0xff55 },
		{ "pagedown", 0xff56 },  { "page_down", 0xff56 },
		{ "pgdn", 0xff56 },      { "next", 0xff56 },
		{ "up", 0xff52 },        { "arrowup", 0xff52 },
		{ "down", 0xff54 },      { "arrowdown", 0xff54 },
		{ "left", 0xff51 },      { "arrowleft", 0xff51 },
		{ "right", 0xff53 },     { "arrowright", 0xff53 },
		{ "home", 0xff50 },      { "end", 0xff57 },
		{ "tab", 0xff09 },       { "space", 0x20 },
		{ "spacebar", 0x20 },    { "menu", 0xff67 },
		{ "apps", 0xff67 },      { "contextmenu", 0xff67 },
		{ "print", 0xff61 },     { "printscreen", 0xff61 },
		{ "prtsc", 0xff61 },     { "capslock", 0xffe5 },
		{ "numlock", 0xff7f },   { "scrolllock", 0xff14 },
		{ "pause", 0xff13 },     { "plus", 0x2b },
		{ "minus", 0x2d },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char up[64], mixed[64];

		for (j = 0; cases[i].name[j]; j++) {
			char c = cases[i].name[j];

			up[j] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
			mixed[j] = j == 0 ? up[j] : c;
		}
		up[j] = mixed[j] = '\0';
		check_key(cases[i].name, cases[i].keysym);
		check_key(up, cases[i].keysym);
		check_key(mixed, cases[i].keysym);
	}
	/* Codex failures that docs/differences.md D16 accepts */
	check_key("ESC", 0xff1b);
	check_key("SPACE", 0x20);
	check_key("Enter", 0xff0d);
	/* Delete and BackSpace are never aliases of each other */
	check_key("Delete", 0xffff);
	check_key("BackSpace", 0xff08);
}

/* docs/actions.md §7.2 step 4 and the limits of leniency. */
static void
test_case_folding(void **state)
{
	(void)state;
	check_key("page_down", 0xff56);
	check_key("PAGE_DOWN", 0xff56);
	check_key("kp_add", 0xffab);
	check_key("KP_ADD", 0xffab);
	check_key("xf86audioplay", 0x1008ff14);
	check_key("EXCLAM", 0x21);
	check_key("scroll_lock", 0xff14);
	check_key("SUPER_L", Super_L);
	check_key("super_r", Super_R);
	/* single letters keep their case */
	check_key("a", 'a');
	check_key("A", 'A');
	/* names that differ only in case are exact only */
	check_key("agrave", 0xe0);
	check_key("Agrave", 0xc0);
	check_unknown("AGRAVE", "AGRAVE");
	check_unknown("aGrave", "aGrave");
	check_key("ETH", 0xd0);
	check_key("Eth", 0xd0);
	check_key("eth", 0xf0);
	check_unknown("eTH", "eTH");
	/* a name with a single case-insensitive match */
	check_key("SSHARP", 0xdf);
	check_key("EUROSIGN", 0x20ac);
}

static void
test_unicode_names(void **state)
{
	(void)state;
	check_key("U20AC", 0x010020ac);
	check_key("u20ac", 0x010020ac);
	check_key("U00E9", 0xe9);
	check_key("U0041", 0x41);
	check_key("U1F600", 0x0101f600);
	check_chord("ctrl+é", 0, 0xe9, 1, Control_L);
	check_chord("ctrl+shift+ж", 0, 0x01000436, 2, Control_L, Shift_L);
	check_unknown("U0001", "U0001");
	check_unknown("U007F", "U007F");
	check_unknown("U0085", "U0085");
	check_unknown("UD800", "UD800");
	check_unknown("U110000", "U110000");
	check_unknown("U12345678", "U12345678");
	check_unknown("UZZ", "UZZ");
	/* several code points are not one key */
	check_unknown("e\xcc\x81", "e\xcc\x81");
	check_unknown("中文", "中文");
	check_unknown("ab", "ab");
	assert_int_equal(cua_keysym_from_name("Return"), 0xff0d);
	assert_int_equal(cua_keysym_from_name("U20AC"), 0x010020ac);
	assert_int_equal(cua_keysym_from_name("return"), 0);
	assert_int_equal(cua_keysym_from_name("enter"), 0);
	assert_int_equal(cua_keysym_from_name(""), 0);
	assert_int_equal(cua_keysym_from_name(NULL), 0);
}

static void
test_keysym_names(void **state)
{
	(void)state;
	assert_string_equal(cua_keysym_name(0xff0d), "Return");
	assert_string_equal(cua_keysym_name(0xff08), "BackSpace");
	assert_string_equal(cua_keysym_name(0xff55), "Prior");
	assert_string_equal(cua_keysym_name(0xff56), "Next");
	assert_string_equal(cua_keysym_name(0x61), "a");
	assert_string_equal(cua_keysym_name(0x41), "A");
	assert_string_equal(cua_keysym_name(0x20), "space");
	assert_string_equal(cua_keysym_name(0x27), "apostrophe");
	assert_string_equal(cua_keysym_name(0xe9), "eacute");
	assert_string_equal(cua_keysym_name(0xffbe), "F1");
	assert_string_equal(cua_keysym_name(0xffe0), "F35");
	assert_string_equal(cua_keysym_name(0xffb0), "KP_0");
	assert_string_equal(cua_keysym_name(Control_L), "Control_L");
	assert_string_equal(cua_keysym_name(Level3), "ISO_Level3_Shift");
	assert_string_equal(cua_keysym_name(0x1008ff14), "XF86AudioPlay");
	assert_string_equal(cua_keysym_name(0x20ac), "EuroSign");
	assert_string_equal(cua_keysym_name(0x010020ac), "U20AC");
	assert_string_equal(cua_keysym_name(0x01004e2d), "U4E2D");
	assert_string_equal(cua_keysym_name(0x0101f600), "U1F600");
	assert_string_equal(cua_keysym_name(0x12345), "0x00012345");
	assert_string_equal(cua_keysym_name(0), "0x00000000");
}

/* The chords of type_text: line breaks, tabs, controls, Latin-1,
 * Unicode keysyms, and ill-formed UTF-8 as U+FFFD. */
static void
test_for_text(void **state)
{
	static const struct {
		uint32_t keysym, codepoint;
	} want[] = {
		{ 'a', 'a' },           { 0xff0d, '\n' },
		{ 0xff0d, '\n' },       { 0xff0d, '\r' },
		{ 0xff09, '\t' },       { 0xe9, 0xe9 },
		{ 0x010020ac, 0x20ac }, { 0x0101f600, 0x1f600 },
		{ 0x0100fffd, 0xfffd }, { 0x0100fffd, 0xfffd },
		{ 'z', 'z' },
	};
	struct cua_key_seq seq;

	(void)state;
	/* LF, CR LF, CR, TAB; BEL, DEL and U+0085 dropped; é, €, 😀; an
	 * overlong "/" is two U+FFFD */
	seq.chords = cua_keys_from_text("a\n\r\n\r\t\a\x7f\xc2\x85"
					"\xc3\xa9\xe2\x82\xac"
					"\xf0\x9f\x98\x80\xc0\xafz",
					&seq.n);
	assert_non_null(seq.chords);
	assert_int_equal(seq.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < seq.n; i++) {
		assert_int_equal(seq.chords[i].keysym, want[i].keysym);
		assert_int_equal(seq.chords[i].codepoint, want[i].codepoint);
		assert_int_equal(seq.chords[i].n_mods, 0);
	}
	cua_keys_free(&seq);
	assert_null(seq.chords);
}

/* type_text's characters as chords: one per character, line breaks and
 * tabs as keys, controls dropped, an ill-formed byte as U+FFFD */
static void
test_from_text(void **state)
{
	static const struct {
		uint32_t keysym, codepoint;
	} want[] = {
		{ 'h', 'h' },           { 0xe9, 0xe9 },        /* é: Latin-1 */
		{ 0xff0d, '\n' },                              /* \r\n: one */
		{ 0xff09, '\t' },       { 0x1004e16, 0x4e16 }, /* 世 */
		{ 0x101f600, 0x1f600 },                        /* emoji */
		{ 0xff0d, '\n' },       { 0xff0d, '\r' },      /* \n, \r */
		{ 0x100fffd, 0xfffd },  { 'x', 'x' },          /* bad byte */
	};
	struct cua_key_chord *c;
	size_t n = 99;

	c = cua_keys_from_text("h\xc3\xa9\r\n\t\xe4\xb8\x96\xf0\x9f\x98\x80"
			       "\n\x01\x7f\r\xffx",
			       &n);
	assert_non_null(c);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(c[i].keysym, want[i].keysym);
		assert_int_equal(c[i].codepoint, want[i].codepoint);
		assert_int_equal(c[i].n_mods, 0);
	}
	free(c);
	c = cua_keys_from_text("", &n);
	assert_non_null(c);
	assert_int_equal(n, 0);
	free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_characters),
		cmocka_unit_test(test_named_keys),
		cmocka_unit_test(test_shift_and_codepoint_of_names),
		cmocka_unit_test(test_keypad_and_function_keys),
		cmocka_unit_test(test_modifier_aliases),
		cmocka_unit_test(test_key_aliases),
		cmocka_unit_test(test_case_folding),
		cmocka_unit_test(test_unicode_names),
		cmocka_unit_test(test_keysym_names),
		cmocka_unit_test(test_for_text),
		cmocka_unit_test(test_from_text),
	};

	/* the messages as cua-mcp shows them */
	cua_err_set_vocab(CUA_VOCAB_MCP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
