/*
 * Synthetic input with XTEST (docs/actions.md §1.5, §2.4, §6, §7.5) and the
 * window operations behind input acceptance (§1.4, §2.3).
 *
 * All events go through XTEST on libcua's own connection (never
 * XSendEvent, which many toolkits ignore). No delays between events: each
 * is flushed, the gesture is synced at the end. The shared core pointer is
 * put back where it was unless the user moved it meanwhile
 * (docs/differences.md D11).
 *
 * Keys are realised on the current XKB keymap in its current group: a
 * keysym found on a key at level 1 gets Shift, at level 2 ISO_Level3_Shift
 * (AltGr), at level 3 both. A keysym on no key is written into a spare
 * keycode (one without keysyms, taken from the highest down) with
 * XChangeKeyboardMapping; clients must see the MappingNotify and fetch
 * the new map before the key arrives, hence a short wait after each
 * remapping (docs/actions.md §7.5). Spare keycodes are reused as a pool and
 * restored once at the end. The user's layout and group are never
 * changed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <glib.h>

#include "core/keys.h"
#include "x11.h"

#define POOL_MAX 64

static cua_result
no_x11(void)
{
	return cua_error(CUA_ERROR_BACKEND,
			 "no X11 display: synthetic input needs an X server");
}

static int
have_xtest(Display *d)
{
	int ev, er, maj, min;

	return XTestQueryExtension(d, &ev, &er, &maj, &min);
}

/* ------------------------------------------------------------------ */
/* Windows                                                             */

cua_result
x11d_window_query(struct cua_display *d, uint64_t window, struct cua_win *out)
{
	struct x11_driver *xd = x11_driver(d);

	if (!xd->x)
		return no_x11();
	if (x11_window_info(xd->x, window, out) < 0)
		return cua_error(CUA_ERROR_NOT_FOUND, "window 0x%llx is gone",
				 (unsigned long long)window);
	return CUA_OK;
}

cua_result
x11d_window_at(struct cua_display *d, int32_t x, int32_t y, struct cua_win *out)
{
	struct x11_driver *xd = x11_driver(d);

	if (!xd->x)
		return no_x11();
	if (x11_window_at(xd->x, x, y, out) < 0)
		memset(out, 0, sizeof(*out));
	return CUA_OK;
}

cua_result
x11d_focus_window(struct cua_display *d, struct cua_win *out)
{
	struct x11_driver *xd = x11_driver(d);

	if (!xd->x)
		return no_x11();
	if (x11_focus_toplevel(xd->x, out) < 0)
		memset(out, 0, sizeof(*out));
	return CUA_OK;
}

cua_result
x11d_activate_window(struct cua_display *d, uint64_t window, int timeout_ms,
		     int *confirmed)
{
	struct x11_driver *xd = x11_driver(d);
	int r;

	*confirmed = 0;
	if (!xd->x)
		return no_x11();
	r = x11_activate(xd->x, window, timeout_ms);
	if (r < 0)
		return cua_error(CUA_ERROR_NOT_FOUND,
				 "window 0x%llx cannot be activated",
				 (unsigned long long)window);
	*confirmed = r;
	return CUA_OK;
}

/* ------------------------------------------------------------------ */
/* Pointer                                                             */

/*
 * A window manager's focus-click grab (openbox, xfwm4 on an inactive
 * window) freezes the pointer at a press until it replays the event;
 * events sent meanwhile are delivered later with the pointer's position
 * at that time, so a drag's moves and even a click's release would be
 * reported at the end point. Wait, bounded, until the server has
 * processed the press (its button shows down, `down` 1) or the release
 * (up, `down` 0) before the next event. This is a confirmation wait, not
 * a delay: unfrozen, the first query already shows the button.
 */
static void
wait_delivered(Display *d, Window root, uint32_t button, int down)
{
	static const unsigned int masks[] = { 0,           Button1Mask,
					      Button2Mask, Button3Mask,
					      Button4Mask, Button5Mask };
	int64_t end = cua_now_us() + 250 * 1000;
	Window rr, cr;
	int x, y, wx, wy;
	unsigned int mask;

	if (button >= G_N_ELEMENTS(masks) || !masks[button])
		return;
	while (XQueryPointer(d, root, &rr, &cr, &x, &y, &wx, &wy, &mask) &&
	       !!(mask & masks[button]) != down && cua_now_us() < end)
		g_usleep(500);
}

/*
 * While a grab freezes the pointer, the server queues our moves and
 * merges consecutive ones (only the last position survives), so a drag's
 * midpoint would be lost. A move is processed when the pointer shows it:
 * wait for that (bounded) before the next event.
 */
static void
wait_moved(Display *d, Window root, int32_t x, int32_t y)
{
	int64_t end = cua_now_us() + 250 * 1000;
	Window rr, cr;
	int px, py, wx, wy;
	unsigned int mask;

	while (XQueryPointer(d, root, &rr, &cr, &px, &py, &wx, &wy, &mask) &&
	       (px != x || py != y) && cua_now_us() < end)
		g_usleep(500);
}

cua_result
x11d_pointer(struct cua_display *dp, const struct cua_pointer_event *ev,
	     size_t n, int restore)
{
	struct x11_driver *xd = x11_driver(dp);
	Display *d = xd->x ? x11_display(xd->x) : NULL;
	Window root, rr, cr;
	int ox = 0, oy = 0, lx = -1, ly = -1, wx, wy, have_orig = 0;
	unsigned int mask;
	uint32_t pressed = 0; /* bit per button */
	int failed = 0;
	cua_result stopped = CUA_OK;

	if (!d)
		return no_x11();
	if (!have_xtest(d))
		return cua_error(CUA_ERROR_BACKEND,
				 "the X server has no XTEST extension");
	root = DefaultRootWindow(d);
	x11_trap_begin();
	if (XQueryPointer(d, root, &rr, &cr, &ox, &oy, &wx, &wy, &mask))
		have_orig = 1;
	for (size_t i = 0; i < n && !failed; i++) {
		if (dp->interrupt &&
		    (stopped = dp->interrupt(dp->interrupt_data)) != CUA_OK)
			break;
		switch (ev[i].kind) {
		case CUA_POINTER_MOVE:
			XTestFakeMotionEvent(d, -1, ev[i].x, ev[i].y,
					     CurrentTime);
			XFlush(d);
			if (i > 0 && (ev[i].x != lx || ev[i].y != ly))
				wait_moved(d, root, ev[i].x, ev[i].y);
			lx = ev[i].x;
			ly = ev[i].y;
			break;
		case CUA_POINTER_PRESS:
			XTestFakeButtonEvent(d, ev[i].button, True,
					     CurrentTime);
			pressed |= 1u << (ev[i].button & 31);
			XFlush(d);
			wait_delivered(d, root, ev[i].button, 1);
			break;
		case CUA_POINTER_RELEASE:
			XTestFakeButtonEvent(d, ev[i].button, False,
					     CurrentTime);
			pressed &= ~(1u << (ev[i].button & 31));
			/* a multi-click's next press only once the server
			 * shows this release: sent at once, on a loaded
			 * desktop under openbox the app missed the second
			 * press of 5 in 40 double clicks (GTK 3 fixture);
			 * with the wait, of none in 100 */
			if (i + 1 < n && ev[i + 1].kind == CUA_POINTER_PRESS) {
				XFlush(d);
				wait_delivered(d, root, ev[i].button, 0);
			}
			break;
		}
		XFlush(d);
		if (x11_display(xd->x) == NULL)
			failed = 1;
	}
	/* never leave a button pressed */
	for (uint32_t bt = 1; bt < 32; bt++)
		if (pressed & (1u << bt))
			XTestFakeButtonEvent(d, bt, False, CurrentTime);
	XSync(d, False);
	if (restore && have_orig && lx >= 0) {
		int px, py;
		int64_t end = cua_now_us() + 250 * 1000;

		/*
		 * A window manager's focus-click grab freezes the pointer at
		 * the press until it replays the event; a restoring move
		 * queued behind would then be where the release is reported
		 * (a GTK button would see the release outside itself and not
		 * click). Wait, bounded, until the server shows no button
		 * down, i.e. the gesture has been delivered.
		 */
		while (XQueryPointer(d, root, &rr, &cr, &px, &py, &wx, &wy,
				     &mask) &&
		       (mask & (Button1Mask | Button2Mask | Button3Mask |
				Button4Mask | Button5Mask)) &&
		       cua_now_us() < end)
			g_usleep(1000);

		/* put it back unless the user moved it meanwhile
		 * (docs/differences.md D11) */
		if (XQueryPointer(d, root, &rr, &cr, &px, &py, &wx, &wy,
				  &mask) &&
		    px == lx && py == ly) {
			XTestFakeMotionEvent(d, -1, ox, oy, CurrentTime);
			XSync(d, False);
		}
	}
	if (x11_trap_end(xd->x) < 0 || failed)
		return cua_error(CUA_ERROR_BACKEND,
				 "the X server connection failed during input");
	return stopped;
}

/* ------------------------------------------------------------------ */
/* Keys                                                                */

struct realised {
	KeyCode code;
	int level; /* 0..3 */
};

struct keymap {
	Display *d;
	XkbDescPtr xkb;
	int group;
	int min_kc, max_kc;
	GHashTable *where; /* keysym -> (keycode << 2 | level) + 1 */
	/* spare keycodes */
	KeyCode spare[POOL_MAX];
	size_t n_spare;
	uint32_t spare_ks[POOL_MAX]; /* 0: free */
	int touched[POOL_MAX];       /* remapped at least once */
	int remapped;                /* some spare keycode holds a keysym */
};

static int
keymap_load(struct keymap *km, Display *d)
{
	XkbStateRec st;
	int min_kc, max_kc;

	memset(km, 0, sizeof(*km));
	km->d = d;
	XDisplayKeycodes(d, &min_kc, &max_kc);
	km->min_kc = min_kc;
	km->max_kc = max_kc;
	km->xkb = XkbGetMap(d, XkbAllClientInfoMask, XkbUseCoreKbd);
	if (!km->xkb)
		return -1;
	if (XkbGetState(d, XkbUseCoreKbd, &st) == Success)
		km->group = st.group;
	km->where = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (int kc = max_kc; kc >= min_kc; kc--) {
		int groups = XkbKeyNumGroups(km->xkb, kc), g, width, any = 0;

		g = groups ? (km->group < groups ? km->group : 0) : 0;
		width = groups ? XkbKeyGroupWidth(km->xkb, kc, g) : 0;
		for (int gg = 0; gg < groups; gg++)
			for (int l = 0; l < XkbKeyGroupWidth(km->xkb, kc, gg);
			     l++)
				if (XkbKeySymEntry(km->xkb, kc, l, gg) !=
				    NoSymbol)
					any = 1;
		if (!any) {
			if (km->n_spare < POOL_MAX)
				km->spare[km->n_spare++] = (KeyCode)kc;
			continue;
		}
		for (int l = 0; l < width && l < 4; l++) {
			KeySym ks = XkbKeySymEntry(km->xkb, kc, l, g);
			gpointer key = GUINT_TO_POINTER((guint)ks);
			guint val = ((guint)kc << 2 | (guint)l) + 1;
			gpointer old;

			if (ks == NoSymbol)
				continue;
			old = g_hash_table_lookup(km->where, key);
			/* prefer the lowest level, then the lowest keycode
			 * (keycodes are visited from the highest down) */
			if (!old || (int)((GPOINTER_TO_UINT(old) - 1) & 3) >= l)
				g_hash_table_insert(km->where, key,
						    GUINT_TO_POINTER(val));
		}
	}
	return 0;
}

/*
 * Writes the spare keycodes' current keysyms (spare_ks, NoSymbol when 0)
 * in ONE XChangeKeyboardMapping over the range they span (keycodes in
 * between keep their keysyms): each call makes every client reload its
 * keymap, and Chromium drops keys while it reloads several times in a
 * row.
 */
static int
write_spares(struct keymap *km)
{
	int lo = 256, hi = -1, per = 0, count;
	KeySym *syms;

	for (size_t i = 0; i < km->n_spare; i++)
		if (km->touched[i]) {
			lo = km->spare[i] < lo ? km->spare[i] : lo;
			hi = km->spare[i] > hi ? km->spare[i] : hi;
		}
	if (hi < lo)
		return 0;
	count = hi - lo + 1;
	syms = XGetKeyboardMapping(km->d, (KeyCode)lo, count, &per);
	if (!syms || per < 1)
		return -1;
	if (per < 2) {
		/* room for two levels: rewrite with a wider table */
		KeySym *w = calloc((size_t)count * 2, sizeof(*w));

		if (!w) {
			XFree(syms);
			return -1;
		}
		for (int k = 0; k < count; k++)
			w[k * 2] = syms[k];
		XFree(syms);
		syms = w;
		per = 2;
		for (size_t i = 0; i < km->n_spare; i++)
			if (km->touched[i]) {
				int k = km->spare[i] - lo;

				syms[k * per] = km->spare_ks[i] ?
							km->spare_ks[i] :
							NoSymbol;
				syms[k * per + 1] = syms[k * per];
			}
		XChangeKeyboardMapping(km->d, lo, per, syms, count);
		free(syms);
		return 0;
	}
	for (size_t i = 0; i < km->n_spare; i++)
		if (km->touched[i]) {
			int k = km->spare[i] - lo;
			KeySym ks =
				km->spare_ks[i] ? km->spare_ks[i] : NoSymbol;

			for (int l = 0; l < per; l++)
				syms[k * per + l] = l < 2 ? ks : NoSymbol;
		}
	XChangeKeyboardMapping(km->d, lo, per, syms, count);
	XFree(syms);
	return 0;
}

static void
keymap_restore(struct keymap *km)
{
	if (!km->remapped)
		return;
	for (size_t i = 0; i < km->n_spare; i++)
		km->spare_ks[i] = 0;
	write_spares(km);
	for (size_t i = 0; i < km->n_spare; i++)
		km->touched[i] = 0;
	XSync(km->d, False);
	km->remapped = 0;
}

static void
keymap_free(struct keymap *km)
{
	if (km->where)
		g_hash_table_destroy(km->where);
	if (km->xkb)
		XkbFreeKeyboard(km->xkb, 0, True);
}

static int
lookup(struct keymap *km, uint32_t ks, struct realised *out)
{
	gpointer v = g_hash_table_lookup(km->where, GUINT_TO_POINTER(ks));
	guint x;

	if (v) {
		x = GPOINTER_TO_UINT(v) - 1;
		out->code = (KeyCode)(x >> 2);
		out->level = (int)(x & 3);
		return 1;
	}
	for (size_t i = 0; i < km->n_spare; i++)
		if (km->spare_ks[i] == ks) {
			out->code = km->spare[i];
			out->level = 0;
			return 1;
		}
	return 0;
}

/* Maps the keysyms `need` (not on the keymap) into free spare keycodes.
 * Returns how many fit; the caller lets the clients see it. */
static size_t
map_spares(struct keymap *km, const uint32_t *need, size_t n)
{
	size_t done = 0;

	for (size_t k = 0; k < n; k++) {
		size_t i;

		for (i = 0; i < km->n_spare && km->spare_ks[i]; i++)
			;
		if (i == km->n_spare)
			break;
		km->spare_ks[i] = need[k];
		km->touched[i] = 1;
		km->remapped = 1;
		done++;
	}
	if (done && write_spares(km) < 0)
		return 0;
	return done;
}

static void
free_spares(struct keymap *km)
{
	for (size_t i = 0; i < km->n_spare; i++)
		km->spare_ks[i] = 0;
}

/* Keysyms of chords [from, to) that no key or spare produces, distinct. */
static size_t
missing(struct keymap *km, const struct cua_key_chord *c, size_t from,
	size_t to, uint32_t *out, size_t cap, size_t *stop)
{
	size_t n = 0, i;
	struct realised r;

	for (i = from; i < to; i++) {
		uint32_t syms[CUA_KEY_MAX_MODS + 1];
		size_t ns = 0;

		for (size_t m = 0; m < c[i].n_mods; m++)
			syms[ns++] = c[i].mod_keysyms[m];
		syms[ns++] = c[i].keysym;
		for (size_t s = 0; s < ns; s++) {
			size_t k;

			if (lookup(km, syms[s], &r))
				continue;
			for (k = 0; k < n && out[k] != syms[s]; k++)
				;
			if (k < n)
				continue;
			if (n == cap) {
				*stop = i;
				return n;
			}
			out[n++] = syms[s];
		}
	}
	*stop = to;
	return n;
}

struct presser {
	Display *d;
	KeyCode down[64];
	size_t n_down;
};

static void
press(struct presser *p, KeyCode code)
{
	for (size_t i = 0; i < p->n_down; i++)
		if (p->down[i] == code)
			return; /* held already */
	XTestFakeKeyEvent(p->d, code, True, CurrentTime);
	if (p->n_down < G_N_ELEMENTS(p->down))
		p->down[p->n_down++] = code;
}

static void
release_all(struct presser *p)
{
	while (p->n_down > 0)
		XTestFakeKeyEvent(p->d, p->down[--p->n_down], False,
				  CurrentTime);
}

static int
type_chord(struct keymap *km, struct presser *p, const struct cua_key_chord *c)
{
	struct realised r, shift, l3;
	int need_shift, need_l3;

	for (size_t m = 0; m < c->n_mods; m++) {
		if (!lookup(km, c->mod_keysyms[m], &r))
			return -1;
		press(p, r.code);
	}
	if (!lookup(km, c->keysym, &r))
		return -1;
	need_shift = r.level == 1 || r.level == 3;
	need_l3 = r.level >= 2;
	if (need_shift) {
		if (!lookup(km, XK_Shift_L, &shift))
			return -1;
		press(p, shift.code);
	}
	if (need_l3) {
		if (!lookup(km, XK_ISO_Level3_Shift, &l3))
			return -1;
		press(p, l3.code);
	}
	XTestFakeKeyEvent(p->d, r.code, True, CurrentTime);
	XTestFakeKeyEvent(p->d, r.code, False, CurrentTime);
	release_all(p);
	return 0;
}

/*
 * Toolkits fetch a changed keymap lazily, when they translate the next
 * key event (GDK's XkbGetUpdatedMap, Qt's xkbcommon on the notify): a
 * mapping restored before the app read our keys makes it translate them
 * with the restored map, and the characters are lost. So before the
 * spare keycodes are restored or reused: XSync (the app's key events
 * are in its socket), then the caller's round trip to the app, answered
 * from the same main loop that reads its X events.
 */
static void
app_caught_up(Display *d, const struct cua_display_sync *sync)
{
	XSync(d, False);
	if (sync && sync->fn)
		sync->fn(sync->data);
}

/* Restoring too early loses keys; without a confirmation from the
 * caller this grace period follows the app's answers. */
#define RESTORE_GRACE_MS 100

cua_result
x11d_keys_restore(struct cua_display *dp)
{
	struct x11_driver *xd = x11_driver(dp);
	Display *d = xd->x ? x11_display(xd->x) : NULL;
	struct keymap km;

	if (!xd->n_kept)
		return CUA_OK;
	if (!d) {
		xd->n_kept = 0;
		return no_x11();
	}
	memset(&km, 0, sizeof(km));
	km.d = d;
	for (size_t i = 0; i < xd->n_kept && i < POOL_MAX; i++) {
		km.spare[km.n_spare] = xd->kept_keycodes[i];
		km.touched[km.n_spare++] = 1;
	}
	km.remapped = 1;
	x11_trap_begin();
	keymap_restore(&km);
	xd->n_kept = 0;
	if (x11_trap_end(xd->x) < 0)
		return cua_error(CUA_ERROR_BACKEND,
				 "the X server connection failed");
	return CUA_OK;
}

cua_result
x11d_keys(struct cua_display *dp, const struct cua_key_chord *chords, size_t n,
	  int delay_ms, const struct cua_display_sync *sync, int *kept)
{
	struct x11_driver *xd = x11_driver(dp);
	Display *d = xd->x ? x11_display(xd->x) : NULL;
	struct keymap km;
	struct presser p;
	uint32_t need[POOL_MAX];
	size_t i = 0, stop, nn;
	cua_result res = CUA_OK;

	if (kept)
		*kept = 0;
	if (!d)
		return no_x11();
	if (!have_xtest(d))
		return cua_error(CUA_ERROR_BACKEND,
				 "the X server has no XTEST extension");
	/* a mapping an earlier call kept goes now */
	x11d_keys_restore(dp);
	x11_trap_begin();
	if (keymap_load(&km, d) < 0) {
		x11_trap_end(xd->x);
		return cua_error(CUA_ERROR_BACKEND, "cannot read the X keymap");
	}
	memset(&p, 0, sizeof(p));
	p.d = d;
	while (i < n && res == CUA_OK) {
		/* the next run whose unmapped keysyms fit in the pool */
		nn = missing(&km, chords, i, n, need, km.n_spare, &stop);
		if (nn && map_spares(&km, need, nn) < nn) {
			res = cua_error(CUA_ERROR_BACKEND,
					"no spare keycode to type a character");
			break;
		}
		if (nn) {
			/* the app must have the new map before the keys
			 * arrive: its loop has read the MappingNotify, then
			 * the short wait of docs/actions.md §7.5 for toolkits
			 * that fetch it asynchronously */
			app_caught_up(d, sync);
			if (delay_ms > 0)
				g_usleep((gulong)delay_ms * 1000);
			for (size_t k = 0; k < km.n_spare; k++)
				if (km.spare_ks[k])
					cua_debug(dp->ctx,
						  "x11: keycode %d types %s",
						  km.spare[k],
						  cua_keysym_name(
							  km.spare_ks[k]));
		}
		if (stop == i) {
			/* a single chord needs more than the pool */
			res = cua_error(CUA_ERROR_BACKEND,
					"too many unmapped keys in one chord");
			break;
		}
		for (; i < stop; i++) {
			if (dp->interrupt &&
			    (res = dp->interrupt(dp->interrupt_data)) != CUA_OK)
				break;
			if (type_chord(&km, &p, &chords[i]) < 0) {
				res = cua_error(
					CUA_ERROR_BACKEND,
					"key %s cannot be realised on the keymap",
					cua_keysym_name(chords[i].keysym));
				break;
			}
			if ((i & 63) == 63)
				XFlush(d);
		}
		XSync(d, False);
		if (i < n && res == CUA_OK) {
			/* more distinct characters than spare keycodes: the
			 * pool is reused once the app had time to read the
			 * keys typed with it (no confirmation possible here) */
			app_caught_up(d, sync);
			g_usleep(RESTORE_GRACE_MS * 1000);
			free_spares(&km);
		}
	}
	release_all(&p);
	XSync(d, False);
	if (km.remapped && kept && res == CUA_OK) {
		/* the caller restores once it saw the keys' effect */
		xd->n_kept = 0;
		for (size_t k = 0; k < km.n_spare; k++)
			if (km.touched[k] &&
			    xd->n_kept < sizeof(xd->kept_keycodes))
				xd->kept_keycodes[xd->n_kept++] =
					(unsigned char)km.spare[k];
		*kept = 1;
		km.remapped = 0;
	} else if (km.remapped) {
		app_caught_up(d, sync);
		g_usleep(RESTORE_GRACE_MS * 1000);
	}
	keymap_restore(&km);
	keymap_free(&km);
	if (x11_trap_end(xd->x) < 0 && res == CUA_OK)
		res = cua_error(CUA_ERROR_BACKEND,
				"the X server connection failed during input");
	return res;
}
