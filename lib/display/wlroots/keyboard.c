/*
 * The virtual keyboard (zwp_virtual_keyboard_v1).
 *
 * Keymap. The base is the standard keymap libxkbcommon compiles from the
 * rules evdev / pc105 / us, so the keys have the keycodes and keysyms
 * applications expect: BackSpace, Delete, Return, ctrl+a... behave as on
 * a real keyboard (a keymap made of nothing but the characters to type
 * loses them). Keysyms the base lacks (é, 世, emoji, keysyms of other
 * layouts) go on spare keycodes, one level each: keycodes without symbols
 * in the base, those up to 255 first (the range X11 clients can see). The
 * extra keysyms stay on the keymap for later text; a new keymap is
 * uploaded only when a chord needs a keysym it lacks, and when the pool of
 * spare keycodes is full the keymap is rebuilt with the newest keysyms.
 * The keymap text is the base as libxkbcommon prints it, with the extra
 * keycode names and keys inserted, compiled again here before upload (the
 * lookup tables come from the compiled keymap, so what is sent is what
 * is looked up).
 *
 * Modifiers. wlroots does not derive the modifier state of a virtual
 * keyboard from its keys: the client sends it. An xkb_state mirrors the
 * keys held, and its serialised masks are sent whenever they change. A
 * keysym on a shifted level (A, question, KP_1) gets that level's
 * modifiers for its own press only. Meta and Hyper, which the base has
 * only on shifted levels, are pressed as the keys that carry their
 * modifier there (Alt, Super).
 *
 * Warm-up. On sway, keys sent in the same burst as a new keyboard and its
 * keymap are lost (all of them, measured: tools/bench/bench-wlroots.c);
 * after a round trip none is. So the keyboard is made once per
 * connection and kept, and after making it come a round trip and
 * warmup_ms (a margin: each client binds its wl_keyboard only after the
 * seat announced the capability, which it does when the first keyboard
 * appears). A keymap change on an existing keyboard reaches the focused
 * client in order with the keys that follow it; it still gets a round
 * trip and keymap_delay_ms.
 *
 * Same thread and failure rules as wlr.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon.h>

#include "core/strbuf.h"

#include "virtual-keyboard-unstable-v1-client-protocol.h"

#include "wlr-private.h"

/* spare keycodes used at most (each holds one extra keysym) */
#define POOL_MAX 256
/* requests queued before a flush (libwayland's buffer holds 4 KiB) */
#define FLUSH_EVERY 48

struct sym_entry {
	uint32_t keysym;
	xkb_keycode_t code;
	xkb_mod_mask_t mask; /* modifiers of the level, 0 on level 1 */
	uint32_t level;
};

struct spare {
	xkb_keycode_t code;
	int named; /* the base names it already (no symbols, though) */
};

struct wlr_keymap {
	struct xkb_context *ctx;
	char *base_text;
	size_t keycodes_at; /* insertion point in the keycodes section */
	size_t symbols_at;  /* insertion point in the symbols section */
	struct spare spare[POOL_MAX];
	size_t n_spare;
	/* extra keysyms, extra[i] on spare[i] */
	uint32_t extra[POOL_MAX];
	size_t n_extra;
	/* the base's keysyms (the table of the keymap without extras) */
	struct sym_entry *base_table;
	size_t n_base;
	/* the keymap made of base + extras */
	struct xkb_keymap *map;
	char *text;
	size_t text_len;
	unsigned serial; /* bumped on every rebuild */
	struct sym_entry *table;
	size_t n_table;
};

struct wlr_keyboard {
	struct zwp_virtual_keyboard_v1 *vk;
	unsigned keymap_serial; /* of the keymap uploaded */
	struct xkb_state *state;
	xkb_mod_mask_t sent[4]; /* depressed, latched, locked, group */
	xkb_keycode_t held[64]; /* keys pressed here, in order */
	size_t n_held;
	int queued; /* requests since the last flush */
};

/* ---- keymap ---------------------------------------------------------- */

void
wlr_keymap_free(struct wlr_keymap *km)
{
	if (!km)
		return;
	xkb_keymap_unref(km->map);
	xkb_context_unref(km->ctx);
	free(km->base_text);
	free(km->text);
	free(km->table);
	free(km->base_table);
	free(km);
}

static int
cmp_entry(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;

	if (x->keysym != y->keysym)
		return x->keysym < y->keysym ? -1 : 1;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x->code < y->code ? -1 : x->code > y->code;
}

/* keysym -> the key and level that type it: level 1 before shifted
 * levels, then the lowest keycode; layout 1 only */
static int
build_table(struct wlr_keymap *km)
{
	struct xkb_keymap *m = km->map;
	size_t cap = 1024, n = 0;
	struct sym_entry *t = malloc(cap * sizeof(*t));

	if (!t)
		return -1;
	for (xkb_keycode_t k = xkb_keymap_min_keycode(m);
	     k <= xkb_keymap_max_keycode(m); k++) {
		if (xkb_keymap_num_layouts_for_key(m, k) == 0)
			continue;
		for (xkb_level_index_t l = 0;
		     l < xkb_keymap_num_levels_for_key(m, k, 0); l++) {
			const xkb_keysym_t *syms;
			xkb_mod_mask_t masks[4];

			if (xkb_keymap_key_get_syms_by_level(m, k, 0, l,
							     &syms) != 1)
				continue;
			if (xkb_keymap_key_get_mods_for_level(m, k, 0, l, masks,
							      4) < 1)
				continue;
			if (n == cap) {
				struct sym_entry *g =
					realloc(t, 2 * cap * sizeof(*t));

				if (!g) {
					free(t);
					return -1;
				}
				t = g;
				cap *= 2;
			}
			t[n].keysym = syms[0];
			t[n].code = k;
			t[n].mask = masks[0];
			t[n].level = l;
			n++;
		}
	}
	qsort(t, n, sizeof(*t), cmp_entry);
	/* keep the first (best) entry of each keysym */
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || t[k - 1].keysym != t[i].keysym)
			t[k++] = t[i];
	free(km->table);
	km->table = t;
	km->n_table = k;
	return 0;
}

static const struct sym_entry *
search(const struct sym_entry *t, size_t n, uint32_t keysym)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t[mid].keysym == keysym)
			return &t[mid];
		if (t[mid].keysym < keysym)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct sym_entry *
lookup(const struct wlr_keymap *km, uint32_t keysym)
{
	return search(km->table, km->n_table, keysym);
}

/* 1 when the keysym needs an extra key (it is not on the base) */
static int
needs_extra(const struct wlr_keymap *km, uint32_t keysym)
{
	return !search(km->base_table, km->n_base, keysym);
}

static void
spare_name(const struct wlr_keymap *km, size_t i, char *buf, size_t size)
{
	const char *name =
		km->spare[i].named ?
			xkb_keymap_key_get_name(km->map, km->spare[i].code) :
			NULL;

	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "Z%03u", (unsigned)km->spare[i].code);
}

/* base text + the extra keys -> km->text, compiled into km->map */
static cua_result
rebuild(struct wlr_keymap *km)
{
	struct strbuf sb = STRBUF_INIT;
	struct xkb_keymap *m;
	char name[64], sym[64];

	sb_addn(&sb, km->base_text, km->keycodes_at);
	for (size_t i = 0; i < km->n_extra; i++)
		if (!km->spare[i].named)
			sb_addf(&sb, "\t<Z%03u> = %u;\n",
				(unsigned)km->spare[i].code,
				(unsigned)km->spare[i].code);
	sb_addn(&sb, km->base_text + km->keycodes_at,
		km->symbols_at - km->keycodes_at);
	for (size_t i = 0; i < km->n_extra; i++) {
		/* km->map has the base's key names (and maybe ours) */
		spare_name(km, i, name, sizeof(name));
		if (xkb_keysym_get_name(km->extra[i], sym, sizeof(sym)) < 0)
			snprintf(sym, sizeof(sym), "0x%08x",
				 (unsigned)km->extra[i]);
		sb_addf(&sb, "\tkey <%s> { [ %s ] };\n", name, sym);
	}
	sb_add(&sb, km->base_text + km->symbols_at);
	if (sb.oom) {
		sb_free(&sb);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	m = xkb_keymap_new_from_string(km->ctx, sb_str(&sb),
				       XKB_KEYMAP_FORMAT_TEXT_V1,
				       XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!m) {
		sb_free(&sb);
		return cua_error(CUA_ERROR_BACKEND,
				 "the keymap with %zu extra keysyms does not "
				 "compile (libxkbcommon refused it)",
				 km->n_extra);
	}
	xkb_keymap_unref(km->map);
	km->map = m;
	free(km->text);
	km->text_len = sb.len;
	km->text = sb_steal(&sb);
	km->serial++;
	if (build_table(km) < 0)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	return CUA_OK;
}

/* Where the keycodes and symbols sections of a printed keymap end: the
 * line "};" that closes each. */
static int
find_section_end(const char *text, const char *section, size_t *at)
{
	const char *s = strstr(text, section), *e;

	if (!s)
		return -1;
	e = strstr(s, "\n};");
	if (!e)
		return -1;
	*at = (size_t)(e - text) + 1;
	return 0;
}

static cua_result
keymap_new(struct wlr_keymap **out)
{
	struct xkb_rule_names names = { "evdev", "pc105", "us", "", "" };
	struct wlr_keymap *km = calloc(1, sizeof(*km));
	struct xkb_keymap *base;

	if (!km)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	km->ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	base = km->ctx ? xkb_keymap_new_from_names(km->ctx, &names, 0) : NULL;
	if (!base) {
		wlr_keymap_free(km);
		return cua_error(
			CUA_ERROR_BACKEND,
			"libxkbcommon cannot compile the standard "
			"keymap (rules evdev, model pc105, layout us): "
			"are the XKB data files installed "
			"(xkb-data)?");
	}
	km->base_text =
		xkb_keymap_get_as_string(base, XKB_KEYMAP_FORMAT_TEXT_V1);
	if (!km->base_text ||
	    find_section_end(km->base_text, "xkb_keycodes", &km->keycodes_at) ||
	    find_section_end(km->base_text, "xkb_symbols", &km->symbols_at) ||
	    km->symbols_at < km->keycodes_at) {
		xkb_keymap_unref(base);
		wlr_keymap_free(km);
		return cua_error(CUA_ERROR_BACKEND,
				 "cannot read the standard keymap as printed "
				 "by libxkbcommon");
	}
	/* spare keycodes: no symbols in the base; those an X11 client can
	 * see (<= 255) first */
	for (int pass = 0; pass < 2; pass++)
		for (xkb_keycode_t k = xkb_keymap_min_keycode(base);
		     k <= xkb_keymap_max_keycode(base) && k <= 999 &&
		     km->n_spare < POOL_MAX;
		     k++) {
			if ((pass == 0) != (k <= 255) ||
			    xkb_keymap_num_layouts_for_key(base, k) != 0)
				continue;
			km->spare[km->n_spare].code = k;
			km->spare[km->n_spare].named =
				xkb_keymap_key_get_name(base, k) != NULL;
			km->n_spare++;
		}
	km->map = base;
	if (rebuild(km) != CUA_OK) {
		wlr_keymap_free(km);
		return CUA_ERROR_BACKEND;
	}
	km->base_table = malloc(km->n_table * sizeof(*km->base_table));
	if (!km->base_table) {
		wlr_keymap_free(km);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	memcpy(km->base_table, km->table, km->n_table * sizeof(*km->table));
	km->n_base = km->n_table;
	*out = km;
	return CUA_OK;
}

/* Makes sure every keysym of `syms` is on the keymap, rebuilding it when
 * not. At most n_spare of them may need an extra key (the caller cuts
 * its chords into such runs). When the extras would not fit, the ones
 * `syms` needs are kept with the newest of the others. */
static cua_result
keymap_cover(struct wlr_keymap *km, const uint32_t *syms, size_t n)
{
	uint32_t add[POOL_MAX], kept[POOL_MAX];
	unsigned char needed[POOL_MAX] = { 0 };
	size_t n_add = 0, n_kept = 0, n_needed = 0;

	for (size_t i = 0; i < n; i++) {
		int dup = 0;

		if (!needs_extra(km, syms[i])) {
			continue;
		}
		for (size_t k = 0; k < km->n_extra; k++)
			if (km->extra[k] == syms[i] && !needed[k]) {
				needed[k] = 1;
				n_needed++;
			}
		if (lookup(km, syms[i]))
			continue;
		for (size_t k = 0; k < n_add && !dup; k++)
			dup = add[k] == syms[i];
		if (dup)
			continue;
		if (n_add + n_needed >= km->n_spare)
			return cua_error(CUA_ERROR_BACKEND,
					 "more than %zu different characters "
					 "off the keyboard in one run",
					 km->n_spare);
		add[n_add++] = syms[i];
	}
	if (n_add == 0)
		return CUA_OK;
	if (km->n_extra + n_add > km->n_spare) {
		/* the needed ones, and the newest others that fit */
		size_t room = km->n_spare - n_add - n_needed;

		for (size_t k = km->n_extra; k-- > 0;) {
			if (needed[k]) {
				kept[n_kept++] = km->extra[k];
			} else if (room > 0) {
				kept[n_kept++] = km->extra[k];
				room--;
			}
		}
		/* back to oldest first */
		for (size_t k = 0; k < n_kept; k++)
			km->extra[k] = kept[n_kept - 1 - k];
		km->n_extra = n_kept;
	}
	memcpy(km->extra + km->n_extra, add, n_add * sizeof(add[0]));
	km->n_extra += n_add;
	return rebuild(km);
}

/* ---- the device ------------------------------------------------------ */

static cua_result
upload(struct cua_wlr *w)
{
	struct wlr_keyboard *kb = w->kb;
	struct wlr_keymap *km = w->keymap;
	int fd = memfd_create("cua-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	size_t size = km->text_len + 1, off = 0;

	if (fd < 0)
		return cua_error(CUA_ERROR_BACKEND,
				 "cannot make a keymap file (memfd_create: %s)",
				 strerror(errno));
	while (off < size) {
		ssize_t n = write(fd, km->text + off, size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = errno;

			close(fd);
			return cua_error(CUA_ERROR_BACKEND,
					 "cannot write the keymap file (%s)",
					 strerror(n < 0 ? e : ENOSPC));
		}
		off += (size_t)n;
	}
	/* the compositor maps it; nobody may change it afterwards */
	(void)fcntl(fd, F_ADD_SEALS,
		    F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	zwp_virtual_keyboard_v1_keymap(kb->vk, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1,
				       fd, (uint32_t)size);
	close(fd); /* libwayland sent a copy */
	xkb_state_unref(kb->state);
	kb->state = xkb_state_new(km->map);
	if (!kb->state)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	kb->keymap_serial = km->serial;
	memset(kb->sent, 0, sizeof(kb->sent));
	return CUA_OK;
}

void
wlr_keyboard_forget(struct cua_wlr *w)
{
	if (!w->kb)
		return;
	if (w->kb->vk)
		wl_proxy_destroy((struct wl_proxy *)w->kb->vk);
	xkb_state_unref(w->kb->state);
	free(w->kb);
	w->kb = NULL;
}

static void
send_key(struct wlr_keyboard *kb, xkb_keycode_t code, int down)
{
	zwp_virtual_keyboard_v1_key(kb->vk, wlr_time_ms(), code - 8,
				    down ? WL_KEYBOARD_KEY_STATE_PRESSED :
					   WL_KEYBOARD_KEY_STATE_RELEASED);
	kb->queued++;
}

static void
send_mods(struct wlr_keyboard *kb, xkb_mod_mask_t extra)
{
	xkb_mod_mask_t m[4] = {
		xkb_state_serialize_mods(kb->state, XKB_STATE_MODS_DEPRESSED) |
			extra,
		xkb_state_serialize_mods(kb->state, XKB_STATE_MODS_LATCHED),
		xkb_state_serialize_mods(kb->state, XKB_STATE_MODS_LOCKED),
		xkb_state_serialize_layout(kb->state,
					   XKB_STATE_LAYOUT_EFFECTIVE),
	};

	if (memcmp(m, kb->sent, sizeof(m)) == 0)
		return;
	zwp_virtual_keyboard_v1_modifiers(kb->vk, m[0], m[1], m[2], m[3]);
	memcpy(kb->sent, m, sizeof(m));
	kb->queued++;
}

/* Releases every key held here (best effort, on error and close). */
static void
release_all(struct wlr_keyboard *kb)
{
	while (kb->n_held > 0) {
		xkb_keycode_t k = kb->held[--kb->n_held];

		send_key(kb, k, 0);
		xkb_state_update_key(kb->state, k, XKB_KEY_UP);
	}
	send_mods(kb, 0);
}

void
wlr_keyboard_destroy(struct cua_wlr *w)
{
	if (!w->kb)
		return;
	if (w->kb->vk && w->kb->state) {
		release_all(w->kb);
		zwp_virtual_keyboard_v1_destroy(w->kb->vk);
		w->kb->vk = NULL;
	}
	wlr_keyboard_forget(w);
}

static cua_result
keyboard_available(struct cua_wlr *w)
{
	cua_result r = cua_wlr_ensure(w);

	if (r != CUA_OK)
		return r;
	if (w->reason[CUA_WLR_KEYBOARD][0])
		return cua_error(CUA_ERROR_UNSUPPORTED, "no keyboard input: %s",
				 w->reason[CUA_WLR_KEYBOARD]);
	if (!w->keymap)
		return keymap_new(&w->keymap);
	return CUA_OK;
}

cua_result
wlr_keyboard_make(struct cua_wlr *w, int wait)
{
	cua_result r = keyboard_available(w);

	if (r != CUA_OK)
		return r;

	w->kb = calloc(1, sizeof(*w->kb));
	if (!w->kb)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	w->kb->vk = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(
		w->vk_manager, w->seat);
	r = upload(w);
	if (r == CUA_OK && wait && w->opt.warmup_ms >= 0)
		r = cua_wlr_roundtrip(w);
	if (r != CUA_OK) {
		if (w->dpy)
			wlr_keyboard_destroy(w);
		return r;
	}
	/* clients create their wl_keyboard after the seat gained the
	 * capability (see the top of this file) */
	if (wait && w->opt.warmup_ms > 0)
		cua_sleep_ms(w->opt.warmup_ms);
	return CUA_OK;
}

cua_result
cua_wlr_keyboard_prepare(struct cua_wlr *w)
{
	cua_result r = keyboard_available(w);

	if (r != CUA_OK || w->kb)
		return r;
	return wlr_keyboard_make(w, 1);
}

/* The key for keysym `ks` as a modifier of a chord. */
static const struct sym_entry *
modifier_key(const struct wlr_keymap *km, uint32_t ks)
{
	const struct sym_entry *e = lookup(km, ks);

	if (e && e->level == 0)
		return e;
	switch (ks) {
	case XKB_KEY_Meta_L:
		return lookup(km, XKB_KEY_Alt_L);
	case XKB_KEY_Meta_R:
		return lookup(km, XKB_KEY_Alt_R);
	case XKB_KEY_Hyper_L:
		return lookup(km, XKB_KEY_Super_L);
	case XKB_KEY_Hyper_R:
		return lookup(km, XKB_KEY_Super_R);
	default:
		return e;
	}
}

static void
press(struct wlr_keyboard *kb, xkb_keycode_t code)
{
	send_key(kb, code, 1);
	xkb_state_update_key(kb->state, code, XKB_KEY_DOWN);
	if (kb->n_held < sizeof(kb->held) / sizeof(kb->held[0]))
		kb->held[kb->n_held++] = code;
}

static void
release(struct wlr_keyboard *kb, xkb_keycode_t code)
{
	send_key(kb, code, 0);
	xkb_state_update_key(kb->state, code, XKB_KEY_UP);
	for (size_t i = kb->n_held; i-- > 0;)
		if (kb->held[i] == code) {
			memmove(kb->held + i, kb->held + i + 1,
				(kb->n_held - i - 1) * sizeof(kb->held[0]));
			kb->n_held--;
			break;
		}
}

static cua_result
maybe_flush(struct cua_wlr *w)
{
	if (w->kb->queued < FLUSH_EVERY)
		return CUA_OK;
	w->kb->queued = 0;
	return wlr_flush(w);
}

static cua_result
send_chord(struct cua_wlr *w, const struct cua_key_chord *c)
{
	struct wlr_keyboard *kb = w->kb;
	const struct wlr_keymap *km = w->keymap;
	const struct sym_entry *mods[CUA_KEY_MAX_MODS], *key;
	size_t n = c->n_mods < CUA_KEY_MAX_MODS ? c->n_mods : CUA_KEY_MAX_MODS;
	xkb_mod_mask_t have;
	cua_result r;

	for (size_t i = 0; i < n; i++) {
		mods[i] = modifier_key(km, c->mod_keysyms[i]);
		if (!mods[i])
			return cua_error(CUA_ERROR_INVALID_ARGUMENT,
					 "the modifier %s is on no key",
					 cua_keysym_name(c->mod_keysyms[i]));
	}
	key = lookup(km, c->keysym);
	if (!key)
		return cua_error(CUA_ERROR_BACKEND, "%s is on no key",
				 cua_keysym_name(c->keysym));
	for (size_t i = 0; i < n; i++) {
		press(kb, mods[i]->code);
		send_mods(kb, 0);
	}
	/* the level's modifiers for this key only, unless held anyway */
	have = xkb_state_serialize_mods(kb->state, XKB_STATE_MODS_EFFECTIVE);
	send_mods(kb, key->mask & ~have);
	press(kb, key->code);
	send_mods(kb, key->mask & ~have); /* the key may be a modifier */
	release(kb, key->code);
	send_mods(kb, 0);
	for (size_t i = n; i-- > 0;) {
		release(kb, mods[i]->code);
		send_mods(kb, 0);
	}
	r = maybe_flush(w);
	return r;
}

/* The keysyms chord `c` needs on the keymap, into syms; returns how
 * many. */
static size_t
chord_syms(const struct wlr_keymap *km, const struct cua_key_chord *c,
	   uint32_t *syms)
{
	size_t n = 0;

	for (size_t k = 0; k < c->n_mods && k < CUA_KEY_MAX_MODS; k++)
		if (!modifier_key(km, c->mod_keysyms[k]))
			syms[n++] = c->mod_keysyms[k];
	syms[n++] = c->keysym;
	return n;
}

/* The end of the run of chords from `from` whose keysyms off the base
 * keymap fit on the spare keycodes together. */
static size_t
run_end(const struct wlr_keymap *km, const struct cua_key_chord *chords,
	size_t from, size_t n, uint32_t *syms, size_t *n_syms)
{
	size_t distinct = 0, i;

	*n_syms = 0;
	for (i = from; i < n; i++) {
		uint32_t s[CUA_KEY_MAX_MODS + 1];
		size_t m = chord_syms(km, &chords[i], s), fresh = 0;

		for (size_t k = 0; k < m; k++) {
			int seen = 0;

			if (!needs_extra(km, s[k]))
				continue;
			for (size_t j = 0; j < *n_syms && !seen; j++)
				seen = syms[j] == s[k];
			for (size_t j = 0; j < k && !seen; j++)
				seen = s[j] == s[k];
			fresh += !seen;
		}
		if (i > from && distinct + fresh > km->n_spare - 1)
			break;
		distinct += fresh;
		memcpy(syms + *n_syms, s, m * sizeof(*s));
		*n_syms += m;
	}
	return i;
}

void
cua_wlr_set_interrupt(struct cua_wlr *w, cua_result (*fn)(void *data),
		      void *data)
{
	w->interrupt = fn;
	w->interrupt_data = fn ? data : NULL;
}

cua_result
cua_wlr_keys(struct cua_wlr *w, const struct cua_key_chord *chords, size_t n)
{
	uint32_t *syms;
	size_t from = 0;
	cua_result r;

	for (size_t i = 0; i < n; i++)
		if (chords[i].keysym == 0)
			return cua_error(CUA_ERROR_INVALID_ARGUMENT,
					 "chord %zu has no key (keysym 0)",
					 i + 1);
	r = keyboard_available(w);
	if (r != CUA_OK || n == 0)
		return r;
	syms = malloc(n * (CUA_KEY_MAX_MODS + 1) * sizeof(*syms));
	if (!syms)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	/* in runs whose characters fit on the keymap at once; every keysym
	 * of a run is on the keymap before its first key is pressed */
	while (r == CUA_OK && from < n) {
		size_t n_syms,
			to = run_end(w->keymap, chords, from, n, syms, &n_syms);

		r = keymap_cover(w->keymap, syms, n_syms);
		if (r != CUA_OK)
			break;
		if (!w->kb) {
			r = wlr_keyboard_make(w, 1);
		} else if (w->kb->keymap_serial != w->keymap->serial) {
			r = upload(w);
			if (r == CUA_OK)
				r = cua_wlr_roundtrip(w);
			if (r == CUA_OK)
				cua_sleep_ms(w->opt.keymap_delay_ms);
		}
		for (size_t i = from; r == CUA_OK && i < to; i++) {
			if (w->interrupt &&
			    (r = w->interrupt(w->interrupt_data)) != CUA_OK)
				break;
			r = send_chord(w, &chords[i]);
		}
		from = to;
	}
	free(syms);
	if (r != CUA_OK && w->kb && w->dpy) {
		release_all(w->kb);
		(void)wlr_flush(w);
		return r;
	}
	if (r == CUA_OK)
		r = cua_wlr_roundtrip(w);
	return r;
}
