/*
 * Keysym names: the modifier names and aliases of the press_key grammar
 * and the X keysym names, and the lookups on them: one name of the
 * grammar to a keysym (for keys.c), cua_keysym_from_name() and
 * cua_keysym_name(); and the chords that type a text,
 * cua_keys_from_text().
 *
 * Keysym values are the public X11 protocol numbers (X Window System
 * Protocol, Appendix A; keysymdef.h and XF86keysym.h). They are listed
 * here so that the core does not include X11 headers.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "keysyms.h"
#include "utf8.h"

/* In the modifier table: what `super`, `cmd`, `command` send depends on
 * the super_alias option. Not a keysym. */
#define KS_SUPER_ALIAS 0xffffffff

struct key_name {
	const char *name;
	uint32_t keysym;
};

/* docs/actions.md §7.3, case-insensitive. */
static const struct key_name modifier_names[] = {
	{ "ctrl", KS_Control_L },
	{ "control", KS_Control_L },
	{ "ctl", KS_Control_L },
	{ "Control_L", KS_Control_L },
	{ "Control_R", KS_Control_R },
	{ "shift", KS_Shift_L },
	{ "Shift_L", KS_Shift_L },
	{ "Shift_R", KS_Shift_R },
	{ "alt", KS_Alt_L },
	{ "option", KS_Alt_L },
	{ "opt", KS_Alt_L },
	{ "Alt_L", KS_Alt_L },
	{ "Alt_R", KS_Alt_R },
	{ "super", KS_SUPER_ALIAS },
	{ "cmd", KS_SUPER_ALIAS },
	{ "command", KS_SUPER_ALIAS },
	{ "Super_L", KS_Super_L },
	{ "Super_R", KS_Super_R },
	{ "win", KS_Super_L },
	{ "windows", KS_Super_L },
	{ "logo", KS_Super_L },
	{ "meta", KS_Meta_L },
	{ "Meta_L", KS_Meta_L },
	{ "Meta_R", KS_Meta_R },
	{ "hyper", KS_Hyper_L },
	{ "Hyper_L", KS_Hyper_L },
	{ "Hyper_R", KS_Hyper_R },
	{ "altgr", KS_ISO_Level3_Shift },
	{ "ISO_Level3_Shift", KS_ISO_Level3_Shift },
};

/* docs/actions.md §7.4, case-insensitive. */
static const struct key_name alias_names[] = {
	{ "enter", KS_Return },
	{ "return", KS_Return },
	{ "ret", KS_Return },
	{ "kp_enter", KS_KP_Enter },
	{ "esc", KS_Escape },
	{ "escape", KS_Escape },
	{ "backspace", KS_BackSpace },
	{ "bs", KS_BackSpace },
	{ "delete", KS_Delete },
	{ "del", KS_Delete },
	{ "insert", KS_Insert },
	{ "ins", KS_Insert },
	{ "pageup", KS_Prior },
	{ "page_up", KS_Prior },
	{ "pgup", KS_Prior },
	{ "prior", KS_Prior },
	{ "pagedown", KS_Next },
	{ "page_down", KS_Next },
	{ "pgdn", KS_Next },
	{ "next", KS_Next },
	{ "up", KS_Up },
	{ "arrowup", KS_Up },
	{ "down", KS_Down },
	{ "arrowdown", KS_Down },
	{ "left", KS_Left },
	{ "arrowleft", KS_Left },
	{ "right", KS_Right },
	{ "arrowright", KS_Right },
	{ "home", KS_Home },
	{ "end", KS_End },
	{ "tab", KS_Tab },
	{ "space", KS_space },
	{ "spacebar", KS_space },
	{ "menu", KS_Menu },
	{ "apps", KS_Menu },
	{ "contextmenu", KS_Menu },
	{ "print", KS_Print },
	{ "printscreen", KS_Print },
	{ "prtsc", KS_Print },
	{ "capslock", KS_Caps_Lock },
	{ "numlock", KS_Num_Lock },
	{ "scrolllock", KS_Scroll_Lock },
	{ "pause", KS_Pause },
	{ "plus", KS_plus },
	{ "minus", KS_minus },
};

/*
 * X keysym names (what XStringToKeysym accepts), case-sensitive. Where a
 * keysym has several names the first one is its canonical name
 * (XKeysymToString). Scripts beyond Latin-1 have no names here: their
 * characters are given literally (`é`, `ж`, `中`) or as `U0436`.
 */
static const struct key_name keysym_names[] = {
	/* XK_MISCELLANY: TTY and misc functions, motion, keypad, F1–F35,
	 * modifiers */
	{ "BackSpace", 0xff08 },
	{ "Tab", 0xff09 },
	{ "Linefeed", 0xff0a },
	{ "Clear", 0xff0b },
	{ "Return", 0xff0d },
	{ "Pause", 0xff13 },
	{ "Scroll_Lock", 0xff14 },
	{ "Sys_Req", 0xff15 },
	{ "Escape", 0xff1b },
	{ "Delete", 0xffff },
	{ "Multi_key", 0xff20 },
	{ "Codeinput", 0xff37 },
	{ "SingleCandidate", 0xff3c },
	{ "MultipleCandidate", 0xff3d },
	{ "PreviousCandidate", 0xff3e },
	{ "Kanji", 0xff21 },
	{ "Muhenkan", 0xff22 },
	{ "Henkan_Mode", 0xff23 },
	{ "Henkan", 0xff23 },
	{ "Romaji", 0xff24 },
	{ "Hiragana", 0xff25 },
	{ "Katakana", 0xff26 },
	{ "Hiragana_Katakana", 0xff27 },
	{ "Zenkaku", 0xff28 },
	{ "Hankaku", 0xff29 },
	{ "Zenkaku_Hankaku", 0xff2a },
	{ "Touroku", 0xff2b },
	{ "Massyo", 0xff2c },
	{ "Kana_Lock", 0xff2d },
	{ "Kana_Shift", 0xff2e },
	{ "Eisu_Shift", 0xff2f },
	{ "Eisu_toggle", 0xff30 },
	{ "Kanji_Bangou", 0xff37 },
	{ "Zen_Koho", 0xff3d },
	{ "Mae_Koho", 0xff3e },
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
	{ "KP_Space", 0xff80 },
	{ "KP_Tab", 0xff89 },
	{ "KP_Enter", 0xff8d },
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
	{ "KP_Delete", 0xff9f },
	{ "KP_Equal", 0xffbd },
	{ "KP_Multiply", 0xffaa },
	{ "KP_Add", 0xffab },
	{ "KP_Separator", 0xffac },
	{ "KP_Subtract", 0xffad },
	{ "KP_Decimal", 0xffae },
	{ "KP_Divide", 0xffaf },
	{ "KP_0", 0xffb0 },
	{ "KP_1", 0xffb1 },
	{ "KP_2", 0xffb2 },
	{ "KP_3", 0xffb3 },
	{ "KP_4", 0xffb4 },
	{ "KP_5", 0xffb5 },
	{ "KP_6", 0xffb6 },
	{ "KP_7", 0xffb7 },
	{ "KP_8", 0xffb8 },
	{ "KP_9", 0xffb9 },
	{ "F1", 0xffbe },
	{ "F2", 0xffbf },
	{ "F3", 0xffc0 },
	{ "F4", 0xffc1 },
	{ "F5", 0xffc2 },
	{ "F6", 0xffc3 },
	{ "F7", 0xffc4 },
	{ "F8", 0xffc5 },
	{ "F9", 0xffc6 },
	{ "F10", 0xffc7 },
	{ "F11", 0xffc8 },
	{ "L1", 0xffc8 },
	{ "F12", 0xffc9 },
	{ "L2", 0xffc9 },
	{ "F13", 0xffca },
	{ "L3", 0xffca },
	{ "F14", 0xffcb },
	{ "L4", 0xffcb },
	{ "F15", 0xffcc },
	{ "L5", 0xffcc },
	{ "F16", 0xffcd },
	{ "L6", 0xffcd },
	{ "F17", 0xffce },
	{ "L7", 0xffce },
	{ "F18", 0xffcf },
	{ "L8", 0xffcf },
	{ "F19", 0xffd0 },
	{ "L9", 0xffd0 },
	{ "F20", 0xffd1 },
	{ "L10", 0xffd1 },
	{ "F21", 0xffd2 },
	{ "R1", 0xffd2 },
	{ "F22", 0xffd3 },
	{ "R2", 0xffd3 },
	{ "F23", 0xffd4 },
	{ "R3", 0xffd4 },
	{ "F24", 0xffd5 },
	{ "R4", 0xffd5 },
	{ "F25", 0xffd6 },
	{ "R5", 0xffd6 },
	{ "F26", 0xffd7 },
	{ "R6", 0xffd7 },
	{ "F27", 0xffd8 },
	{ "R7", 0xffd8 },
	{ "F28", 0xffd9 },
	{ "R8", 0xffd9 },
	{ "F29", 0xffda },
	{ "R9", 0xffda },
	{ "F30", 0xffdb },
	{ "R10", 0xffdb },
	{ "F31", 0xffdc },
	{ "R11", 0xffdc },
	{ "F32", 0xffdd },
	{ "R12", 0xffdd },
	{ "F33", 0xffde },
	{ "R13", 0xffde },
	{ "F34", 0xffdf },
	{ "R14", 0xffdf },
	{ "F35", 0xffe0 },
	{ "R15", 0xffe0 },
	{ "Shift_L", 0xffe1 },
	{ "Shift_R", 0xffe2 },
	{ "Control_L", 0xffe3 },
	{ "Control_R", 0xffe4 },
	{ "Caps_Lock", 0xffe5 },
	{ "Shift_Lock", 0xffe6 },
	{ "Meta_L", 0xffe7 },
	{ "Meta_R", 0xffe8 },
	{ "Alt_L", 0xffe9 },
	{ "Alt_R", 0xffea },
	{ "Super_L", 0xffeb },
	{ "Super_R", 0xffec },
	{ "Hyper_L", 0xffed },
	{ "Hyper_R", 0xffee },
	/* XK_XKB_KEYS, a subset: no group, lock, latch, virtual-screen,
	 * pointer or AccessX keysyms, which change keyboard state */
	{ "ISO_Level3_Shift", 0xfe03 },
	{ "ISO_Left_Tab", 0xfe20 },
	{ "ISO_Enter", 0xfe34 },
	{ "dead_grave", 0xfe50 },
	{ "dead_acute", 0xfe51 },
	{ "dead_circumflex", 0xfe52 },
	{ "dead_tilde", 0xfe53 },
	{ "dead_perispomeni", 0xfe53 },
	{ "dead_macron", 0xfe54 },
	{ "dead_breve", 0xfe55 },
	{ "dead_abovedot", 0xfe56 },
	{ "dead_diaeresis", 0xfe57 },
	{ "dead_abovering", 0xfe58 },
	{ "dead_doubleacute", 0xfe59 },
	{ "dead_caron", 0xfe5a },
	{ "dead_cedilla", 0xfe5b },
	{ "dead_ogonek", 0xfe5c },
	{ "dead_iota", 0xfe5d },
	{ "dead_voiced_sound", 0xfe5e },
	{ "dead_semivoiced_sound", 0xfe5f },
	{ "dead_belowdot", 0xfe60 },
	{ "dead_hook", 0xfe61 },
	{ "dead_horn", 0xfe62 },
	{ "dead_stroke", 0xfe63 },
	{ "dead_abovecomma", 0xfe64 },
	{ "dead_psili", 0xfe64 },
	{ "dead_abovereversedcomma", 0xfe65 },
	{ "dead_dasia", 0xfe65 },
	{ "dead_doublegrave", 0xfe66 },
	{ "dead_belowring", 0xfe67 },
	{ "dead_belowmacron", 0xfe68 },
	{ "dead_belowcircumflex", 0xfe69 },
	{ "dead_belowtilde", 0xfe6a },
	{ "dead_belowbreve", 0xfe6b },
	{ "dead_belowdiaeresis", 0xfe6c },
	{ "dead_invertedbreve", 0xfe6d },
	{ "dead_belowcomma", 0xfe6e },
	{ "dead_currency", 0xfe6f },
	{ "dead_lowline", 0xfe90 },
	{ "dead_aboveverticalline", 0xfe91 },
	{ "dead_belowverticalline", 0xfe92 },
	{ "dead_longsolidusoverlay", 0xfe93 },
	{ "dead_a", 0xfe80 },
	{ "dead_A", 0xfe81 },
	{ "dead_e", 0xfe82 },
	{ "dead_E", 0xfe83 },
	{ "dead_i", 0xfe84 },
	{ "dead_I", 0xfe85 },
	{ "dead_o", 0xfe86 },
	{ "dead_O", 0xfe87 },
	{ "dead_u", 0xfe88 },
	{ "dead_U", 0xfe89 },
	{ "dead_small_schwa", 0xfe8a },
	{ "dead_capital_schwa", 0xfe8b },
	{ "dead_greek", 0xfe8c },
	{ "Terminate_Server", 0xfed5 },
	/* XK_LATIN1: the keysym is the code point */
	{ "space", 0x20 },
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
	{ "0", 0x30 },
	{ "1", 0x31 },
	{ "2", 0x32 },
	{ "3", 0x33 },
	{ "4", 0x34 },
	{ "5", 0x35 },
	{ "6", 0x36 },
	{ "7", 0x37 },
	{ "8", 0x38 },
	{ "9", 0x39 },
	{ "colon", 0x3a },
	{ "semicolon", 0x3b },
	{ "less", 0x3c },
	{ "equal", 0x3d },
	{ "greater", 0x3e },
	{ "question", 0x3f },
	{ "at", 0x40 },
	{ "A", 0x41 },
	{ "B", 0x42 },
	{ "C", 0x43 },
	{ "D", 0x44 },
	{ "E", 0x45 },
	{ "F", 0x46 },
	{ "G", 0x47 },
	{ "H", 0x48 },
	{ "I", 0x49 },
	{ "J", 0x4a },
	{ "K", 0x4b },
	{ "L", 0x4c },
	{ "M", 0x4d },
	{ "N", 0x4e },
	{ "O", 0x4f },
	{ "P", 0x50 },
	{ "Q", 0x51 },
	{ "R", 0x52 },
	{ "S", 0x53 },
	{ "T", 0x54 },
	{ "U", 0x55 },
	{ "V", 0x56 },
	{ "W", 0x57 },
	{ "X", 0x58 },
	{ "Y", 0x59 },
	{ "Z", 0x5a },
	{ "bracketleft", 0x5b },
	{ "backslash", 0x5c },
	{ "bracketright", 0x5d },
	{ "asciicircum", 0x5e },
	{ "underscore", 0x5f },
	{ "grave", 0x60 },
	{ "quoteleft", 0x60 },
	{ "a", 0x61 },
	{ "b", 0x62 },
	{ "c", 0x63 },
	{ "d", 0x64 },
	{ "e", 0x65 },
	{ "f", 0x66 },
	{ "g", 0x67 },
	{ "h", 0x68 },
	{ "i", 0x69 },
	{ "j", 0x6a },
	{ "k", 0x6b },
	{ "l", 0x6c },
	{ "m", 0x6d },
	{ "n", 0x6e },
	{ "o", 0x6f },
	{ "p", 0x70 },
	{ "q", 0x71 },
	{ "r", 0x72 },
	{ "s", 0x73 },
	{ "t", 0x74 },
	{ "u", 0x75 },
	{ "v", 0x76 },
	{ "w", 0x77 },
	{ "x", 0x78 },
	{ "y", 0x79 },
	{ "z", 0x7a },
	{ "braceleft", 0x7b },
	{ "bar", 0x7c },
	{ "braceright", 0x7d },
	{ "asciitilde", 0x7e },
	{ "nobreakspace", 0xa0 },
	{ "exclamdown", 0xa1 },
	{ "cent", 0xa2 },
	{ "sterling", 0xa3 },
	{ "currency", 0xa4 },
	{ "yen", 0xa5 },
	{ "brokenbar", 0xa6 },
	{ "section", 0xa7 },
	{ "diaeresis", 0xa8 },
	{ "copyright", 0xa9 },
	{ "ordfeminine", 0xaa },
	{ "guillemotleft", 0xab },
	{ "notsign", 0xac },
	{ "hyphen", 0xad },
	{ "registered", 0xae },
	{ "macron", 0xaf },
	{ "degree", 0xb0 },
	{ "plusminus", 0xb1 },
	{ "twosuperior", 0xb2 },
	{ "threesuperior", 0xb3 },
	{ "acute", 0xb4 },
	{ "mu", 0xb5 },
	{ "paragraph", 0xb6 },
	{ "periodcentered", 0xb7 },
	{ "cedilla", 0xb8 },
	{ "onesuperior", 0xb9 },
	{ "masculine", 0xba },
	{ "guillemotright", 0xbb },
	{ "onequarter", 0xbc },
	{ "onehalf", 0xbd },
	{ "threequarters", 0xbe },
	{ "questiondown", 0xbf },
	{ "Agrave", 0xc0 },
	{ "Aacute", 0xc1 },
	{ "Acircumflex", 0xc2 },
	{ "Atilde", 0xc3 },
	{ "Adiaeresis", 0xc4 },
	{ "Aring", 0xc5 },
	{ "AE", 0xc6 },
	{ "Ccedilla", 0xc7 },
	{ "Egrave", 0xc8 },
	{ "Eacute", 0xc9 },
	{ "Ecircumflex", 0xca },
	{ "Ediaeresis", 0xcb },
	{ "Igrave", 0xcc },
	{ "Iacute", 0xcd },
	{ "Icircumflex", 0xce },
	{ "Idiaeresis", 0xcf },
	{ "ETH", 0xd0 },
	{ "Eth", 0xd0 },
	{ "Ntilde", 0xd1 },
	{ "Ograve", 0xd2 },
	{ "Oacute", 0xd3 },
	{ "Ocircumflex", 0xd4 },
	{ "Otilde", 0xd5 },
	{ "Odiaeresis", 0xd6 },
	{ "multiply", 0xd7 },
	{ "Oslash", 0xd8 },
	{ "Ooblique", 0xd8 },
	{ "Ugrave", 0xd9 },
	{ "Uacute", 0xda },
	{ "Ucircumflex", 0xdb },
	{ "Udiaeresis", 0xdc },
	{ "Yacute", 0xdd },
	{ "THORN", 0xde },
	{ "Thorn", 0xde },
	{ "ssharp", 0xdf },
	{ "agrave", 0xe0 },
	{ "aacute", 0xe1 },
	{ "acircumflex", 0xe2 },
	{ "atilde", 0xe3 },
	{ "adiaeresis", 0xe4 },
	{ "aring", 0xe5 },
	{ "ae", 0xe6 },
	{ "ccedilla", 0xe7 },
	{ "egrave", 0xe8 },
	{ "eacute", 0xe9 },
	{ "ecircumflex", 0xea },
	{ "ediaeresis", 0xeb },
	{ "igrave", 0xec },
	{ "iacute", 0xed },
	{ "icircumflex", 0xee },
	{ "idiaeresis", 0xef },
	{ "eth", 0xf0 },
	{ "ntilde", 0xf1 },
	{ "ograve", 0xf2 },
	{ "oacute", 0xf3 },
	{ "ocircumflex", 0xf4 },
	{ "otilde", 0xf5 },
	{ "odiaeresis", 0xf6 },
	{ "division", 0xf7 },
	{ "oslash", 0xf8 },
	{ "ooblique", 0xf8 },
	{ "ugrave", 0xf9 },
	{ "uacute", 0xfa },
	{ "ucircumflex", 0xfb },
	{ "udiaeresis", 0xfc },
	{ "yacute", 0xfd },
	{ "thorn", 0xfe },
	{ "ydiaeresis", 0xff },
	/* XK_CURRENCY */
	{ "EcuSign", 0x10020a0 },
	{ "ColonSign", 0x10020a1 },
	{ "CruzeiroSign", 0x10020a2 },
	{ "FFrancSign", 0x10020a3 },
	{ "LiraSign", 0x10020a4 },
	{ "MillSign", 0x10020a5 },
	{ "NairaSign", 0x10020a6 },
	{ "PesetaSign", 0x10020a7 },
	{ "RupeeSign", 0x10020a8 },
	{ "WonSign", 0x10020a9 },
	{ "NewSheqelSign", 0x10020aa },
	{ "DongSign", 0x10020ab },
	{ "EuroSign", 0x20ac },
	/* XF86keysym.h, 0x1008FExx and 0x1008FFxx. Left out: the X server
	 * actions Ungrab, ClearGrab, Next_VMode, Prev_VMode, LogWindowTree,
	 * LogGrabInfo */
	{ "XF86ModeLock", 0x1008ff01 },
	{ "XF86MonBrightnessUp", 0x1008ff02 },
	{ "XF86MonBrightnessDown", 0x1008ff03 },
	{ "XF86KbdLightOnOff", 0x1008ff04 },
	{ "XF86KbdBrightnessUp", 0x1008ff05 },
	{ "XF86KbdBrightnessDown", 0x1008ff06 },
	{ "XF86MonBrightnessCycle", 0x1008ff07 },
	{ "XF86Standby", 0x1008ff10 },
	{ "XF86AudioLowerVolume", 0x1008ff11 },
	{ "XF86AudioMute", 0x1008ff12 },
	{ "XF86AudioRaiseVolume", 0x1008ff13 },
	{ "XF86AudioPlay", 0x1008ff14 },
	{ "XF86AudioStop", 0x1008ff15 },
	{ "XF86AudioPrev", 0x1008ff16 },
	{ "XF86AudioNext", 0x1008ff17 },
	{ "XF86HomePage", 0x1008ff18 },
	{ "XF86Mail", 0x1008ff19 },
	{ "XF86Start", 0x1008ff1a },
	{ "XF86Search", 0x1008ff1b },
	{ "XF86AudioRecord", 0x1008ff1c },
	{ "XF86Calculator", 0x1008ff1d },
	{ "XF86Memo", 0x1008ff1e },
	{ "XF86ToDoList", 0x1008ff1f },
	{ "XF86Calendar", 0x1008ff20 },
	{ "XF86PowerDown", 0x1008ff21 },
	{ "XF86ContrastAdjust", 0x1008ff22 },
	{ "XF86RockerUp", 0x1008ff23 },
	{ "XF86RockerDown", 0x1008ff24 },
	{ "XF86RockerEnter", 0x1008ff25 },
	{ "XF86Back", 0x1008ff26 },
	{ "XF86Forward", 0x1008ff27 },
	{ "XF86Stop", 0x1008ff28 },
	{ "XF86Refresh", 0x1008ff29 },
	{ "XF86PowerOff", 0x1008ff2a },
	{ "XF86WakeUp", 0x1008ff2b },
	{ "XF86Eject", 0x1008ff2c },
	{ "XF86ScreenSaver", 0x1008ff2d },
	{ "XF86WWW", 0x1008ff2e },
	{ "XF86Sleep", 0x1008ff2f },
	{ "XF86Favorites", 0x1008ff30 },
	{ "XF86AudioPause", 0x1008ff31 },
	{ "XF86AudioMedia", 0x1008ff32 },
	{ "XF86MyComputer", 0x1008ff33 },
	{ "XF86VendorHome", 0x1008ff34 },
	{ "XF86LightBulb", 0x1008ff35 },
	{ "XF86Shop", 0x1008ff36 },
	{ "XF86History", 0x1008ff37 },
	{ "XF86OpenURL", 0x1008ff38 },
	{ "XF86AddFavorite", 0x1008ff39 },
	{ "XF86HotLinks", 0x1008ff3a },
	{ "XF86BrightnessAdjust", 0x1008ff3b },
	{ "XF86Finance", 0x1008ff3c },
	{ "XF86Community", 0x1008ff3d },
	{ "XF86AudioRewind", 0x1008ff3e },
	{ "XF86BackForward", 0x1008ff3f },
	{ "XF86Launch0", 0x1008ff40 },
	{ "XF86Launch1", 0x1008ff41 },
	{ "XF86Launch2", 0x1008ff42 },
	{ "XF86Launch3", 0x1008ff43 },
	{ "XF86Launch4", 0x1008ff44 },
	{ "XF86Launch5", 0x1008ff45 },
	{ "XF86Launch6", 0x1008ff46 },
	{ "XF86Launch7", 0x1008ff47 },
	{ "XF86Launch8", 0x1008ff48 },
	{ "XF86Launch9", 0x1008ff49 },
	{ "XF86LaunchA", 0x1008ff4a },
	{ "XF86LaunchB", 0x1008ff4b },
	{ "XF86LaunchC", 0x1008ff4c },
	{ "XF86LaunchD", 0x1008ff4d },
	{ "XF86LaunchE", 0x1008ff4e },
	{ "XF86LaunchF", 0x1008ff4f },
	{ "XF86ApplicationLeft", 0x1008ff50 },
	{ "XF86ApplicationRight", 0x1008ff51 },
	{ "XF86Book", 0x1008ff52 },
	{ "XF86CD", 0x1008ff53 },
	{ "XF86Calculater", 0x1008ff54 },
	{ "XF86Clear", 0x1008ff55 },
	{ "XF86Close", 0x1008ff56 },
	{ "XF86Copy", 0x1008ff57 },
	{ "XF86Cut", 0x1008ff58 },
	{ "XF86Display", 0x1008ff59 },
	{ "XF86DOS", 0x1008ff5a },
	{ "XF86Documents", 0x1008ff5b },
	{ "XF86Excel", 0x1008ff5c },
	{ "XF86Explorer", 0x1008ff5d },
	{ "XF86Game", 0x1008ff5e },
	{ "XF86Go", 0x1008ff5f },
	{ "XF86iTouch", 0x1008ff60 },
	{ "XF86LogOff", 0x1008ff61 },
	{ "XF86Market", 0x1008ff62 },
	{ "XF86Meeting", 0x1008ff63 },
	{ "XF86MenuKB", 0x1008ff65 },
	{ "XF86MenuPB", 0x1008ff66 },
	{ "XF86MySites", 0x1008ff67 },
	{ "XF86New", 0x1008ff68 },
	{ "XF86News", 0x1008ff69 },
	{ "XF86OfficeHome", 0x1008ff6a },
	{ "XF86Open", 0x1008ff6b },
	{ "XF86Option", 0x1008ff6c },
	{ "XF86Paste", 0x1008ff6d },
	{ "XF86Phone", 0x1008ff6e },
	{ "XF86Q", 0x1008ff70 },
	{ "XF86Reply", 0x1008ff72 },
	{ "XF86Reload", 0x1008ff73 },
	{ "XF86RotateWindows", 0x1008ff74 },
	{ "XF86RotationPB", 0x1008ff75 },
	{ "XF86RotationKB", 0x1008ff76 },
	{ "XF86Save", 0x1008ff77 },
	{ "XF86ScrollUp", 0x1008ff78 },
	{ "XF86ScrollDown", 0x1008ff79 },
	{ "XF86ScrollClick", 0x1008ff7a },
	{ "XF86Send", 0x1008ff7b },
	{ "XF86Spell", 0x1008ff7c },
	{ "XF86SplitScreen", 0x1008ff7d },
	{ "XF86Support", 0x1008ff7e },
	{ "XF86TaskPane", 0x1008ff7f },
	{ "XF86Terminal", 0x1008ff80 },
	{ "XF86Tools", 0x1008ff81 },
	{ "XF86Travel", 0x1008ff82 },
	{ "XF86UserPB", 0x1008ff84 },
	{ "XF86User1KB", 0x1008ff85 },
	{ "XF86User2KB", 0x1008ff86 },
	{ "XF86Video", 0x1008ff87 },
	{ "XF86WheelButton", 0x1008ff88 },
	{ "XF86Word", 0x1008ff89 },
	{ "XF86Xfer", 0x1008ff8a },
	{ "XF86ZoomIn", 0x1008ff8b },
	{ "XF86ZoomOut", 0x1008ff8c },
	{ "XF86Away", 0x1008ff8d },
	{ "XF86Messenger", 0x1008ff8e },
	{ "XF86WebCam", 0x1008ff8f },
	{ "XF86MailForward", 0x1008ff90 },
	{ "XF86Pictures", 0x1008ff91 },
	{ "XF86Music", 0x1008ff92 },
	{ "XF86Battery", 0x1008ff93 },
	{ "XF86Bluetooth", 0x1008ff94 },
	{ "XF86WLAN", 0x1008ff95 },
	{ "XF86UWB", 0x1008ff96 },
	{ "XF86AudioForward", 0x1008ff97 },
	{ "XF86AudioRepeat", 0x1008ff98 },
	{ "XF86AudioRandomPlay", 0x1008ff99 },
	{ "XF86Subtitle", 0x1008ff9a },
	{ "XF86AudioCycleTrack", 0x1008ff9b },
	{ "XF86CycleAngle", 0x1008ff9c },
	{ "XF86FrameBack", 0x1008ff9d },
	{ "XF86FrameForward", 0x1008ff9e },
	{ "XF86Time", 0x1008ff9f },
	{ "XF86Select", 0x1008ffa0 },
	{ "XF86View", 0x1008ffa1 },
	{ "XF86TopMenu", 0x1008ffa2 },
	{ "XF86Red", 0x1008ffa3 },
	{ "XF86Green", 0x1008ffa4 },
	{ "XF86Yellow", 0x1008ffa5 },
	{ "XF86Blue", 0x1008ffa6 },
	{ "XF86Suspend", 0x1008ffa7 },
	{ "XF86Hibernate", 0x1008ffa8 },
	{ "XF86TouchpadToggle", 0x1008ffa9 },
	{ "XF86TouchpadOn", 0x1008ffb0 },
	{ "XF86TouchpadOff", 0x1008ffb1 },
	{ "XF86AudioMicMute", 0x1008ffb2 },
	{ "XF86Keyboard", 0x1008ffb3 },
	{ "XF86WWAN", 0x1008ffb4 },
	{ "XF86RFKill", 0x1008ffb5 },
	{ "XF86AudioPreset", 0x1008ffb6 },
	{ "XF86RotationLockToggle", 0x1008ffb7 },
	{ "XF86FullScreen", 0x1008ffb8 },
	{ "XF86Switch_VT_1", 0x1008fe01 },
	{ "XF86Switch_VT_2", 0x1008fe02 },
	{ "XF86Switch_VT_3", 0x1008fe03 },
	{ "XF86Switch_VT_4", 0x1008fe04 },
	{ "XF86Switch_VT_5", 0x1008fe05 },
	{ "XF86Switch_VT_6", 0x1008fe06 },
	{ "XF86Switch_VT_7", 0x1008fe07 },
	{ "XF86Switch_VT_8", 0x1008fe08 },
	{ "XF86Switch_VT_9", 0x1008fe09 },
	{ "XF86Switch_VT_10", 0x1008fe0a },
	{ "XF86Switch_VT_11", 0x1008fe0b },
	{ "XF86Switch_VT_12", 0x1008fe0c },
};

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

static char
ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Does (s, len) equal the NUL-terminated name? */
static int
name_eq(const char *s, size_t len, const char *name, int fold)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (name[i] == '\0')
			return 0;
		if (fold ? ascii_lower(s[i]) != ascii_lower(name[i]) :
			   s[i] != name[i])
			return 0;
	}
	return name[len] == '\0';
}

static uint32_t
table_lookup(const struct key_name *t, size_t n, const char *s, size_t len,
	     int fold)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (name_eq(s, len, t[i].name, fold))
			return t[i].keysym;
	return 0;
}

int
cua_keys_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

/* The keysym of one character (docs/actions.md §7.2 step 5), or 0. */
static uint32_t
char_keysym(uint32_t cp)
{
	if (cua_keys_is_control(cp))
		return 0;
	if (cp < 0x100)
		return cp;
	return KS_UNICODE | cp;
}

struct cua_key_chord *
cua_keys_from_text(const char *text, size_t *n)
{
	struct cua_key_chord *c = calloc(strlen(text) + 1, sizeof(*c));
	const char *p = text;
	size_t k = 0;

	*n = 0;
	if (!c)
		return NULL;
	while (*p) {
		uint32_t cp = cua_utf8_next(&p), ks;

		if (cp == '\r') {
			if (*p == '\n')
				continue;
			ks = KS_Return;
		} else if (cp == '\n') {
			ks = KS_Return;
		} else if (cp == '\t') {
			ks = KS_Tab;
		} else if ((ks = char_keysym(cp)) == 0) {
			continue;
		}
		c[k].keysym = ks;
		c[k].codepoint = cp;
		k++;
	}
	*n = k;
	return c;
}

/* `U20AC` (XStringToKeysym's Unicode form; `u` accepted too), or 0. */
static uint32_t
unicode_name(const char *s, size_t len)
{
	uint32_t v = 0;
	size_t i;

	if (len < 2 || len > 9 || (s[0] != 'U' && s[0] != 'u'))
		return 0;
	for (i = 1; i < len; i++) {
		char c = ascii_lower(s[i]);

		if (c >= '0' && c <= '9')
			v = (v << 4) | (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = (v << 4) | (uint32_t)(c - 'a' + 10);
		else
			return 0;
		if (v > 0x10ffff)
			return 0;
	}
	if (v >= 0xd800 && v <= 0xdfff)
		return 0;
	return char_keysym(v);
}

/* docs/actions.md §7.2 step 4: a unique case-insensitive match of two or
 * more characters. Names that differ only in case (`Agrave`, `agrave`) are
 * letters whose case matters, so an inexact spelling of them is unknown. */
static uint32_t
folded_keysym_name(const char *s, size_t len)
{
	uint32_t found = 0;
	size_t i;

	if (len < 2)
		return 0;
	for (i = 0; i < N_ELEMENTS(keysym_names); i++) {
		if (!name_eq(s, len, keysym_names[i].name, 1))
			continue;
		if (found && found != keysym_names[i].keysym)
			return 0;
		found = keysym_names[i].keysym;
	}
	return found;
}

/* One name to a keysym (docs/actions.md §7.2), or 0 when unknown. */
uint32_t
cua_keysym_resolve(const char *s, size_t len, uint32_t flags)
{
	uint32_t ks, cp;

	ks = table_lookup(modifier_names, N_ELEMENTS(modifier_names), s, len,
			  1);
	if (ks == KS_SUPER_ALIAS)
		return flags & CUA_KEYS_SUPER_IS_SUPER ? KS_Super_L :
							 KS_Control_L;
	if (ks)
		return ks;
	ks = table_lookup(alias_names, N_ELEMENTS(alias_names), s, len, 1);
	if (ks)
		return ks;
	ks = table_lookup(keysym_names, N_ELEMENTS(keysym_names), s, len, 0);
	if (ks)
		return ks;
	ks = unicode_name(s, len);
	if (ks)
		return ks;
	ks = folded_keysym_name(s, len);
	if (ks)
		return ks;
	if (cua_utf8_decode(s, len, &cp) == len && cua_utf8_valid(s, len))
		return char_keysym(cp);
	return 0;
}

uint32_t
cua_keysym_from_name(const char *name)
{
	size_t len;
	uint32_t ks;

	if (!name)
		return 0;
	len = strlen(name);
	ks = table_lookup(keysym_names, N_ELEMENTS(keysym_names), name, len, 0);
	if (ks)
		return ks;
	if (name[0] == 'U')
		return unicode_name(name, len);
	return 0;
}

const char *
cua_keysym_name(uint32_t keysym)
{
	static _Thread_local char buf[16];
	size_t i;

	for (i = 0; i < N_ELEMENTS(keysym_names); i++)
		if (keysym_names[i].keysym == keysym)
			return keysym_names[i].name;
	if (keysym >= KS_UNICODE + 0x100 && keysym <= KS_UNICODE + 0x10ffff)
		snprintf(buf, sizeof(buf), "U%04X",
			 (unsigned)(keysym - KS_UNICODE));
	else
		snprintf(buf, sizeof(buf), "0x%08x", (unsigned)keysym);
	return buf;
}
