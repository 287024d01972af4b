/*
 * The platform-neutral key grammar of `press_key` (docs/actions.md §7): parses
 * xdotool `key` syntax into X11 keysym numbers. No X11 headers are used:
 * the keysym values are the public protocol numbers, from our own table.
 * The backend realises the keysyms on its keymap (docs/actions.md §7.5).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_KEYS_H
#define CUA_CORE_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "cua/cua.h"

/* Modifier bits of a chord (which kinds of modifier are held). */
#define CUA_MOD_SHIFT (1u << 0)
#define CUA_MOD_CONTROL (1u << 1)
#define CUA_MOD_ALT (1u << 2)
#define CUA_MOD_SUPER (1u << 3) /* the real Super key only */
#define CUA_MOD_META (1u << 4)
#define CUA_MOD_HYPER (1u << 5)
#define CUA_MOD_LEVEL3 (1u << 6) /* ISO_Level3_Shift (AltGr) */

/* Distinct modifier keysyms (Shift/Control/Alt/Super/Meta/Hyper L and R,
 * ISO_Level3_Shift); repeats in a combo are pressed once. */
#define CUA_KEY_MAX_MODS 13

/* At most this many combos in one argument. */
#define CUA_KEYS_MAX_CHORDS 1000

/* The Menu key (a right click from the keyboard). */
#define CUA_KEYSYM_MENU 0xff67u

/* Flags of cua_keys_parse(). */
/* super_alias = "super": `super`, `cmd`, `command` send Super_L instead
 * of Control_L (docs/actions.md §7.3, §13). */
#define CUA_KEYS_SUPER_IS_SUPER (1u << 0)
/* Skip the built-in system-shortcut check (docs/actions.md §7.6), for a caller
 * that applies its own `press_key_denylist` with cua_keys_refusal(). */
#define CUA_KEYS_NO_DENYLIST (1u << 1)

/*
 * One combo: press mod_keysyms[0..n_mods) in that order, press keysym,
 * release keysym, release the modifiers in reverse order.
 */
struct cua_key_chord {
	uint32_t mods; /* CUA_MOD_* of the held modifiers */
	uint32_t mod_keysyms[CUA_KEY_MAX_MODS]; /* in the order written */
	size_t n_mods;
	uint32_t keysym;    /* the key (may itself be a modifier) */
	uint32_t codepoint; /* the character it types, else 0 */
	int implied_shift;  /* capital letter or shifted US symbol */
};

/* Combos in the order written (`ctrl+a BackSpace` is two). */
struct cua_key_seq {
	struct cua_key_chord *chords;
	size_t n;
};

/*
 * Parses the whole `press_key` argument (docs/actions.md §7.1–§7.4, §7.6) with
 * CUA_KEYS_* `flags`. On success fills `out` (free with cua_keys_free());
 * on failure `out` is empty and cua_error_get() holds the model-facing
 * detail naming the offending token (sanitised, at most 64 characters):
 *
 * - CUA_ERROR_INVALID_ARGUMENT: `Missing required argument: key` for NULL
 *   or white space only (the MCP server checks this first, E-INVALID-ARGS);
 *   otherwise a text starting with `keyNotFound("<token>")`, which the MCP
 *   server shows as E-UNKNOWN-KEY (the library text has no
 *   `Computer Use server error -10005: ` prefix);
 * - CUA_ERROR_PERMISSION: a refused system shortcut, E-KEY-NOT-ALLOWED
 *   (`press_key refused '<combo>': it is a system shortcut that <what>,
 *   which Computer Use may not send.`);
 * - CUA_ERROR_NOMEM.
 *
 * Nothing has to be sent to know any of these: the whole string is parsed
 * before a key is pressed.
 */
cua_result
cua_keys_parse(const char *key, uint32_t flags, struct cua_key_seq *out);

/*
 * Chords typing `text` (docs/actions.md §7.2 step 5): one per character, \n
 * and \r\n -> Return, \t -> Tab, other control characters dropped,
 * Latin-1 as its keysym, the rest as Unicode keysyms; an ill-formed byte
 * types U+FFFD. *n gets the count. malloc'd (free()); NULL when out of
 * memory.
 */
struct cua_key_chord *
cua_keys_from_text(const char *text, size_t *n);

/* Frees the chords and empties `seq`; accepts NULL and an empty seq. */
void
cua_keys_free(struct cua_key_seq *seq);

/*
 * The `<what>` of E-KEY-NOT-ALLOWED when the chord is a built-in refused
 * system shortcut (docs/actions.md §7.6), else NULL. Static string.
 */
const char *
cua_keys_refusal(const struct cua_key_chord *chord);

/*
 * The X keysym name for logs and outcomes (`Return`, `Prior`, `a`,
 * `XF86AudioPlay`); `U20AC` for an unnamed Unicode keysym, `0x%08x`
 * otherwise. Never NULL; a static string, or a thread-local buffer valid
 * until the next call on this thread.
 */
const char *
cua_keysym_name(uint32_t keysym);

/*
 * The keysym for one X keysym name, exactly as written (`Return`, `a`,
 * `KP_0`, `U20AC`), or 0. No aliases and no case folding.
 */
uint32_t
cua_keysym_from_name(const char *name);

#endif
