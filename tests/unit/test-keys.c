/*
 * The press_key grammar (actions.md §7; tools.md §11 E-UNKNOWN-KEY and
 * E-KEY-NOT-ALLOWED).
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

#include "core/ctx.h"
#include "core/errors.h"
#include "core/keys.h"

#define HINT                                                               \
	" (use xdotool key names such as Return, Tab, BackSpace, "         \
	"Delete, Escape, Up, Page_Down, F5, KP_0, or a single character, " \
	"joined with + as in ctrl+shift+t)"
#define PLUS_HINT                                                    \
	" (a + must be followed by a key name: write plus for "      \
	"the + key and space for the space bar, as in ctrl+plus or " \
	"ctrl+space)"
#define ORDER_HINT                                                         \
	" (only modifiers such as ctrl, shift, alt or super "              \
	"may come before the last key of a combo, as in ctrl+shift+t; to " \
	"press keys one after another, separate them with spaces, as in "  \
	"Down Down Return)"

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
static struct cua_key_seq
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
static void
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

static void
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
static void
check_unknown(const char *key, const char *echo)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "keyNotFound(\"%s\")%s", echo, HINT);
	check_err(key, 0, CUA_ERROR_INVALID_ARGUMENT, msg);
}

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

static char *
repeat(const char *unit, size_t n)
{
	size_t len = strlen(unit), i;
	char *s = malloc(len * n + 1);

	assert_non_null(s);
	for (i = 0; i < n; i++)
		memcpy(s + i * len, unit, len);
	s[len * n] = '\0';
	return s;
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
	/* codex-contract §2.4, editing and navigation */
	static const struct {
		const char *key;
		uint32_t keysym;
	} cases[] = {
		{ "BackSpace", 0xff08 },
		{ "Tab", 0xff09 },
		{ "Linefeed", 0xff0a },
		{ "Clear", 0xff0b },
		{ "Return", 0xff0d },
		{ "Pause", 0xff13 },
		{ "Scroll_Lock", 0xff14 },
		{ "Escape", 0xff1b },
		{ "Delete", 0xffff },
		{ "Home", 0xff50 },
		{ "Left", 0xff51 },
		{ "Up", 0xff52 },
		{ "Right", 0xff53 },
		{ "Down", 0xff54 },
		{ "Prior", 0xff55 },
		{ "Page_Up", 0xff55 },
		{ "Next", 0xff56 },
		{ "Page_Down", 0xff56 },
		{ "End", 0xff57 },
		{ "Begin", 0xff58 },
		{ "Select", 0xff60 },
		{ "Print", 0xff61 },
		{ "Execute", 0xff62 },
		{ "Insert", 0xff63 },
		{ "Undo", 0xff65 },
		{ "Redo", 0xff66 },
		{ "Menu", 0xff67 },
		{ "Find", 0xff68 },
		{ "Cancel", 0xff69 },
		{ "Help", 0xff6a },
		{ "Break", 0xff6b },
		{ "Mode_switch", 0xff7e },
		{ "script_switch", 0xff7e },
		{ "Num_Lock", 0xff7f },
		{ "Caps_Lock", 0xffe5 },
		{ "Shift_Lock", 0xffe6 },
		{ "space", 0x20 },
		{ "Multi_key", 0xff20 },
		{ "ISO_Left_Tab", 0xfe20 },
		{ "dead_acute", 0xfe51 },
		{ "EuroSign", 0x20ac },
		/* media keys (§7.4) */
		{ "XF86AudioPlay", 0x1008ff14 },
		{ "XF86AudioPause", 0x1008ff31 },
		{ "XF86AudioStop", 0x1008ff15 },
		{ "XF86AudioNext", 0x1008ff17 },
		{ "XF86AudioPrev", 0x1008ff16 },
		{ "XF86AudioMute", 0x1008ff12 },
		{ "XF86AudioRaiseVolume", 0x1008ff13 },
		{ "XF86AudioLowerVolume", 0x1008ff11 },
		{ "XF86MonBrightnessUp", 0x1008ff02 },
		{ "XF86Calculator", 0x1008ff1d },
		/* keypad */
		{ "KP_Delete", 0xff9f },
		{ "KP_Enter", 0xff8d },
		{ "KP_Equal", 0xffbd },
		{ "KP_Multiply", 0xffaa },
		{ "KP_Add", 0xffab },
		{ "KP_Subtract", 0xffad },
		{ "KP_Decimal", 0xffae },
		{ "KP_Divide", 0xffaf },
		{ "KP_Space", 0xff80 },
		{ "KP_Tab", 0xff89 },
		{ "KP_F1", 0xff91 },
		{ "KP_F2", 0xff92 },
		{ "KP_F3", 0xff93 },
		{ "KP_F4", 0xff94 },
		{ "KP_Home", 0xff95 },
		{ "KP_Left", 0xff96 },
		{ "KP_Up", 0xff97 },
		{ "KP_Right", 0xff98 },
		{ "KP_Down", 0xff99 },
		{ "KP_Prior", 0xff9a },
		{ "KP_Page_Up", 0xff9a },
		{ "KP_Next", 0xff9b },
		{ "KP_Page_Down", 0xff9b },
		{ "KP_End", 0xff9c },
		{ "KP_Begin", 0xff9d },
		{ "KP_Insert", 0xff9e },
		{ "KP_Separator", 0xffac },
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
		{ "exclam", 0x21 },
		{ "quotedbl", 0x22 },
		{ "numbersign", 0x23 },
		{ "dollar", 0x24 },
		{ "percent", 0x25 },
		{ "ampersand", 0x26 },
		{ "apostrophe", 0x27 },
		{ "quoteright", 0x27 },
		{ "parenleft", 0x28 },
		{ "parenright", 0x29 },
		{ "asterisk", 0x2a },
		{ "plus", 0x2b },
		{ "comma", 0x2c },
		{ "minus", 0x2d },
		{ "period", 0x2e },
		{ "slash", 0x2f },
		{ "colon", 0x3a },
		{ "semicolon", 0x3b },
		{ "less", 0x3c },
		{ "equal", 0x3d },
		{ "greater", 0x3e },
		{ "question", 0x3f },
		{ "at", 0x40 },
		{ "bracketleft", 0x5b },
		{ "backslash", 0x5c },
		{ "bracketright", 0x5d },
		{ "asciicircum", 0x5e },
		{ "underscore", 0x5f },
		{ "grave", 0x60 },
		{ "quoteleft", 0x60 },
		{ "braceleft", 0x7b },
		{ "bar", 0x7c },
		{ "braceright", 0x7d },
		{ "asciitilde", 0x7e },
		{ "nobreakspace", 0xa0 },
		{ "eacute", 0xe9 },
		{ "Eacute", 0xc9 },
		{ "ssharp", 0xdf },
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

	seq = parse_ok("ctrl+A", 0); /* Control+Shift+a (§7.5) */
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

/* §7.3: every modifier name in several spellings, before `a`. */
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
		/* D16 habit mapping: Control by default */
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
	/* Codex spellings (codex-contract §2.4) */
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

/* §7.4: every alias, in three spellings. */
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
	/* Codex failures that D16 accepts */
	check_key("ESC", 0xff1b);
	check_key("SPACE", 0x20);
	check_key("Enter", 0xff0d);
	/* Delete and BackSpace are never aliases of each other */
	check_key("Delete", 0xffff);
	check_key("BackSpace", 0xff08);
}

/* §7.2 step 4 and the limits of leniency. */
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

/* §7.1: the plus key. */
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
	/* a single space is the space bar (§7.1) */
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
/* The chords of type_text: line breaks, tabs, controls, Latin-1,
 * Unicode keysyms, and ill-formed UTF-8 as U+FFFD. */
static void
test_for_text(void **state)
{
	static const struct {
		uint32_t keysym, codepoint;
	} want[] = {
		{ 'a', 'a' },       { 0xff0d, '\n' },  { 0xff0d, '\n' },
		{ 0xff0d, '\r' },   { 0xff09, '\t' },  { 0xe9, 0xe9 },
		{ 0x010020ac, 0x20ac }, { 0x0101f600, 0x1f600 },
		{ 0x0100fffd, 0xfffd }, { 0x0100fffd, 0xfffd }, { 'z', 'z' },
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

/* type_text's characters as chords: one per character, line breaks and
 * tabs as keys, controls dropped, an ill-formed byte as U+FFFD */
static void
test_from_text(void **state)
{
	static const struct {
		uint32_t keysym, codepoint;
	} want[] = {
		{ 'h', 'h' }, { 0xe9, 0xe9 },                  /* é: Latin-1 */
		{ 0xff0d, '\n' },                              /* \r\n: one */
		{ 0xff09, '\t' }, { 0x1004e16, 0x4e16 },        /* 世 */
		{ 0x101f600, 0x1f600 },                         /* emoji */
		{ 0xff0d, '\n' }, { 0xff0d, '\r' },             /* \n, \r */
		{ 0x100fffd, 0xfffd }, { 'x', 'x' },            /* bad byte */
	};
	struct cua_key_chord *c;
	size_t n = 99;

	c = cua_keys_from_text("h\xc3\xa9\r\n\t\xe4\xb8\x96\xf0\x9f\x98\x80"
			       "\n\x01\x7f\r\xffx", &n);
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
		cmocka_unit_test(test_whitespace_around_plus),
		cmocka_unit_test(test_sequences),
		cmocka_unit_test(test_chord_structure),
		cmocka_unit_test(test_plus),
		cmocka_unit_test(test_plus_errors),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_keysym_names),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_for_text),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_from_text),
	};

	/* the messages as cua-mcp shows them */
	cua_err_set_vocab(CUA_VOCAB_MCP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
