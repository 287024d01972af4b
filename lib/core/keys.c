/*
 * The `press_key` grammar (docs/actions.md §7): xdotool `key` syntax read into
 * chords, and the refused system shortcuts (§7.6). The key names, with
 * the libcua aliases (docs/differences.md deviation D16), and their lookup are
 * in keysyms.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "errors.h"
#include "keys.h"
#include "keysyms.h"
#include "sanitize.h"
#include "strbuf.h"
#include "utf8.h"

/* Longest echo of a token or combo in a message, in characters. */
#define ECHO_MAX 64

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static uint32_t
modifier_bit(uint32_t ks)
{
	switch (ks) {
	case KS_Shift_L:
	case KS_Shift_R:
		return CUA_MOD_SHIFT;
	case KS_Control_L:
	case KS_Control_R:
		return CUA_MOD_CONTROL;
	case KS_Alt_L:
	case KS_Alt_R:
		return CUA_MOD_ALT;
	case KS_Super_L:
	case KS_Super_R:
		return CUA_MOD_SUPER;
	case KS_Meta_L:
	case KS_Meta_R:
		return CUA_MOD_META;
	case KS_Hyper_L:
	case KS_Hyper_R:
		return CUA_MOD_HYPER;
	case KS_ISO_Level3_Shift:
		return CUA_MOD_LEVEL3;
	default:
		return 0;
	}
}

/* The character a keysym types, or 0 (keypad and function keys give 0). */
static uint32_t
keysym_codepoint(uint32_t ks)
{
	if ((ks >= 0x20 && ks <= 0x7e) || (ks >= 0xa0 && ks <= 0xff))
		return ks;
	if (ks == KS_EuroSign)
		return 0x20ac;
	if (ks >= KS_UNICODE + 0x100 && ks <= KS_UNICODE + 0x10ffff)
		return ks - KS_UNICODE;
	return 0;
}

/* Capital letters and the shifted symbols of the US layout; a hint, the
 * backend's keymap decides (docs/actions.md §7.5). */
static int
keysym_implies_shift(uint32_t ks)
{
	if (ks >= 'A' && ks <= 'Z')
		return 1;
	if (ks >= 0xc0 && ks <= 0xde && ks != 0xd7)
		return 1;
	return ks >= 0x21 && ks <= 0x7e &&
	       strchr("~!@#$%^&*()_+{}|:\"<>?", (int)ks) != NULL;
}

/* What a keysym contributes to the system-shortcut check
 * (docs/actions.md §7.6). */
enum {
	DENY_BACKSPACE = 1u << 0,
	DENY_DELETE = 1u << 1,
	DENY_F1_F12 = 1u << 2,
	DENY_L = 1u << 3,
	DENY_PRINT = 1u << 4,
	DENY_ZAP = 1u << 5,
	DENY_VT = 1u << 6,
	DENY_LOCK = 1u << 7,
	DENY_POWER = 1u << 8,
	DENY_SYSRQ = 1u << 9,
};

static uint32_t
deny_bits(uint32_t ks)
{
	switch (ks) {
	case KS_BackSpace:
		return DENY_BACKSPACE;
	case KS_Delete:
	case KS_KP_Delete:
		return DENY_DELETE;
	case KS_l:
	case KS_L:
		return DENY_L;
	case KS_Print:
		return DENY_PRINT;
	case KS_Terminate_Server:
		return DENY_ZAP;
	case KS_XF86ScreenSaver:
		return DENY_LOCK;
	case KS_XF86PowerOff:
	case KS_XF86Sleep:
	case KS_XF86Suspend:
	case KS_XF86Hibernate:
	case KS_XF86Standby:
	case KS_XF86LogOff:
		return DENY_POWER;
	case KS_Sys_Req:
		return DENY_SYSRQ;
	default:
		break;
	}
	if (ks >= KS_F1 && ks <= KS_F12)
		return DENY_F1_F12;
	if (ks >= KS_XF86Switch_VT_1 && ks <= KS_XF86Switch_VT_12)
		return DENY_VT;
	return 0;
}

/*
 * The built-in list of docs/actions.md §7.6. It sees through the keymap's
 * shared modifiers: Meta counts as Alt (both are Mod1 in the default keymaps)
 * and Hyper as Super (both Mod4).
 */
static const char *
refusal(uint32_t mods, uint32_t deny)
{
	int alt = (mods & (CUA_MOD_ALT | CUA_MOD_META)) != 0;
	int ctrl_alt = alt && (mods & CUA_MOD_CONTROL);
	int super = (mods & (CUA_MOD_SUPER | CUA_MOD_HYPER)) != 0;

	if ((deny & DENY_ZAP) || (ctrl_alt && (deny & DENY_BACKSPACE)))
		return "kills the X server";
	if (ctrl_alt && (deny & DENY_DELETE))
		return "opens the session or reboot menu";
	if ((deny & DENY_VT) || (ctrl_alt && (deny & DENY_F1_F12)))
		return "switches virtual terminals";
	if ((deny & DENY_LOCK) || (super && (deny & DENY_L)))
		return "locks the screen";
	if (deny & DENY_POWER)
		return "changes the power state or ends the session";
	if ((deny & DENY_SYSRQ) || (alt && (deny & DENY_PRINT)))
		return "sends a kernel SysRq command";
	return NULL;
}

const char *
cua_keys_refusal(const struct cua_key_chord *chord)
{
	uint32_t mods, deny;
	size_t i;

	if (!chord)
		return NULL;
	mods = chord->mods | modifier_bit(chord->keysym);
	deny = deny_bits(chord->keysym);
	for (i = 0; i < chord->n_mods && i < CUA_KEY_MAX_MODS; i++) {
		mods |= modifier_bit(chord->mod_keysyms[i]);
		deny |= deny_bits(chord->mod_keysyms[i]);
	}
	return refusal(mods, deny);
}

/*
 * Appends (s, len) for a message: control characters as `\u{1}`, and in
 * quoted form `"` and `\` escaped (as Swift prints Codex's
 * `keyNotFound("…")`); then sanitised and cut to ECHO_MAX characters.
 */
static void
add_echo(struct strbuf *out, const char *s, size_t len, int quoted)
{
	struct strbuf raw = STRBUF_INIT, clean = STRBUF_INIT;
	size_t i = 0, n;
	uint32_t cp;

	while (i < len) {
		/* ill-formed: U+FFFD, as the sanitiser shows it */
		n = cua_utf8_decode(s + i, len - i, &cp);
		if (cua_keys_is_control(cp))
			sb_addf(&raw, "\\u{%x}", (unsigned)cp);
		else if (quoted && (cp == '"' || cp == '\\'))
			sb_addf(&raw, "\\%c", (char)cp);
		else
			sb_addn(&raw, s + i, n);
		i += n;
	}
	cua_sanitize_sb(&clean, sb_str(&raw));
	cua_add_truncated(out, sb_str(&clean), ECHO_MAX);
	sb_free(&raw);
	sb_free(&clean);
}

/* Raises `keyNotFound("<s>")<hint>`: message `msg`, one of UNKNOWN_KEY,
 * TRAILING_PLUS, MISPLACED_KEY. */
static cua_result
key_not_found(const char *s, size_t len, enum cua_msg msg)
{
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	add_echo(&sb, s, len, 1);
	if (sb.oom) {
		sb_free(&sb);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	r = cua_err(msg, { "token", sb_str(&sb) });
	sb_free(&sb);
	return r;
}

static cua_result
refused(const char *s, size_t len, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	add_echo(&sb, s, len, 0);
	if (sb.oom) {
		sb_free(&sb);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	r = cua_err(CUA_MSG_KEY_NOT_ALLOWED, { "combo", sb_str(&sb) },
		    { "what", what });
	sb_free(&sb);
	return r;
}

/*
 * Length of the name at p (p[0] is neither NUL nor white space). A `+`
 * followed by white space, `+` or the end is the plus key; otherwise a
 * name runs to the next white space or `+`.
 */
static size_t
name_len(const char *p)
{
	size_t n = 0;

	if (p[0] == '+') {
		if (p[1] == '\0' || p[1] == '+' || is_space(p[1]))
			return 1;
		n = 1;
	}
	while (p[n] != '\0' && p[n] != '+' && !is_space(p[n]))
		n++;
	return n;
}

/* The combo being read. */
struct combo {
	/* mod_keysyms holds the modifiers before `last` */
	struct cua_key_chord chord;
	uint32_t last;     /* the latest name */
	uint32_t mods_all; /* modifier bits of every name */
	uint32_t deny;     /* deny_bits of every name */
	int misplaced;     /* a non-modifier before the last name */
};

static void
combo_add(struct combo *c, uint32_t ks)
{
	struct cua_key_chord *ch = &c->chord;
	size_t i;

	if (c->last) {
		if (!modifier_bit(c->last)) {
			c->misplaced = 1;
		} else {
			for (i = 0; i < ch->n_mods; i++)
				if (ch->mod_keysyms[i] == c->last)
					break;
			/* at most CUA_KEY_MAX_MODS distinct modifiers */
			if (i == ch->n_mods && i < CUA_KEY_MAX_MODS)
				ch->mod_keysyms[ch->n_mods++] = c->last;
		}
	}
	c->last = ks;
	c->mods_all |= modifier_bit(ks);
	c->deny |= deny_bits(ks);
}

/* The chord of a finished, well-formed combo. */
static void
combo_finish(struct combo *c)
{
	struct cua_key_chord *ch = &c->chord;
	size_t i, j = 0;

	/* `ctrl+ctrl` presses Control_L once */
	for (i = 0; i < ch->n_mods; i++)
		if (ch->mod_keysyms[i] != c->last)
			ch->mod_keysyms[j++] = ch->mod_keysyms[i];
	ch->n_mods = j;
	ch->mods = 0;
	for (i = 0; i < ch->n_mods; i++)
		ch->mods |= modifier_bit(ch->mod_keysyms[i]);
	ch->keysym = c->last;
	ch->codepoint = keysym_codepoint(c->last);
	ch->implied_shift = keysym_implies_shift(c->last);
}

static int
seq_push(struct cua_key_seq *seq, size_t *cap, const struct cua_key_chord *ch)
{
	if (seq->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		struct cua_key_chord *n;

		n = realloc(seq->chords, ncap * sizeof(*n));
		if (!n)
			return -1;
		seq->chords = n;
		*cap = ncap;
	}
	seq->chords[seq->n++] = *ch;
	return 0;
}

static int
blank(const char *s)
{
	while (is_space(*s))
		s++;
	return *s == '\0';
}

void
cua_keys_free(struct cua_key_seq *seq)
{
	if (!seq)
		return;
	free(seq->chords);
	seq->chords = NULL;
	seq->n = 0;
}

cua_result
cua_keys_parse(const char *key, uint32_t flags, struct cua_key_seq *out)
{
	struct cua_key_seq seq = { NULL, 0 };
	size_t cap = 0;
	const char *p = key;
	cua_result r;

	if (!out)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "cua_keys_parse: out is NULL");
	out->chords = NULL;
	out->n = 0;
	if (!key || (blank(key) && strcmp(key, " ") != 0))
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "key" });
	if (strcmp(key, " ") == 0)
		p = "space"; /* docs/actions.md §7.1: a lone space is the space
			      * bar */

	for (;;) {
		struct combo c;
		const char *start, *end = p, *q;
		const char *what;
		size_t len;
		uint32_t ks;

		while (is_space(*p))
			p++;
		if (*p == '\0')
			break;
		if (seq.n == CUA_KEYS_MAX_CHORDS) {
			r = cua_err(
				CUA_MSG_TOO_MANY_COMBOS,
				{ "max", CUA_NUM("%d", CUA_KEYS_MAX_CHORDS) });
			goto fail;
		}
		memset(&c, 0, sizeof(c));
		start = p;
		for (;;) {
			len = name_len(p);
			ks = cua_keysym_resolve(p, len, flags);
			if (!ks) {
				r = key_not_found(p, len, CUA_MSG_UNKNOWN_KEY);
				goto fail;
			}
			combo_add(&c, ks);
			p += len;
			q = p;
			while (is_space(*q))
				q++;
			if (*q != '+') {
				end = p;
				p = q;
				break;
			}
			p = q + 1;
			while (is_space(*p))
				p++;
			if (*p == '\0') {
				r = key_not_found(start,
						  (size_t)(q + 1 - start),
						  CUA_MSG_TRAILING_PLUS);
				goto fail;
			}
		}
		what = flags & CUA_KEYS_NO_DENYLIST ?
			       NULL :
			       refusal(c.mods_all, c.deny);
		if (what) {
			r = refused(start, (size_t)(end - start), what);
			goto fail;
		}
		if (c.misplaced) {
			r = key_not_found(start, (size_t)(end - start),
					  CUA_MSG_MISPLACED_KEY);
			goto fail;
		}
		combo_finish(&c);
		if (seq_push(&seq, &cap, &c.chord) < 0) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			goto fail;
		}
	}
	*out = seq;
	return CUA_OK;

fail:
	cua_keys_free(&seq);
	return r;
}
