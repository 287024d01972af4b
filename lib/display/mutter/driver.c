/*
 * The mutter display driver (GNOME on Wayland, without the shell's
 * private interfaces): one org.gnome.Mutter.RemoteDesktop session per
 * libcua session, with a ScreenCast session attached that records the
 * window holding keyboard focus when it starts (RecordWindow), and that
 * stream's frames read from PipeWire for the whole session.
 *
 * Windows: mutter lists no windows over D-Bus. What the driver knows of
 * a window comes from the accessibility tree (match_toplevels: the pid,
 * the toplevel's AT-SPI window extents) and from the stream: the
 * recorded window is the toplevel whose AT-SPI window size is the
 * stream's frame size. A handle is (pid << 16 | toplevel index + 1).
 * Global coordinates are the stream's, which are the recorded window's
 * AT-SPI window coordinates (measured), so its origin is (0, 0). Only
 * that window can be captured, clicked or typed into; for any other,
 * focus_window() and window_at() name the recorded one, and the core
 * words the refusal. activate_window() of another window starts a new
 * session, which records the window mutter focuses then, and confirms
 * only when that is the one asked for.
 *
 * Keyboard: NotifyKeyboardKeysym sends only keysyms that exist in
 * mutter's keymap (else mutter drops them). Characters whose keysym is
 * not in the keymap (the default one, evdev/pc105/us, checked with
 * libxkbcommon) are typed with the toolkit's Unicode entry
 * (ctrl+shift+u, the hex code point, space: GTK's input method), and
 * refused for a Qt app, which does not read it; the core's type_text
 * inserts text through EditableText before it falls back to keys
 * (docs/wayland.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xkbcommon/xkbcommon.h>

#include "core/errors.h"
#include "core/keys.h"
#include "core/roles.h"
#include "core/utf8.h"
#include "display/display.h"
#include "mutter.h"

#define SESSION_TIMEOUT_MS 3000
#define WARMUP_MS 250
#define FIRST_FRAME_MS 2000
#define MAX_SEEN 32
#define CAST_RETRY_MS 200
#define MOTION_SETTLE_MS 40
#define ACTIVE_POLL_MS 25
#define CYCLE_WAIT_MS 400
#define REASK_MS 10000

struct mutter_driver {
	struct cua_display base;
	const struct rd_ops *rd; /* mutter's interfaces or the portal's */
	struct rd_session *s;
	struct mutter_pw *pw;
	char why[256]; /* why there is no session, "" when unknown */
	int no_focus;  /* no cast: no window had keyboard focus */
	int64_t cast_tried_us;
	int64_t opened_us;  /* when the session with a cast started */
	int64_t moved_us;   /* the last pointer motion, 0 none pending */
	int64_t refused_us; /* when the portal refused, 0 it did not */
	cua_result refused;
	int pressed[4];
	/* the toplevels match_toplevels saw, newest first */
	struct {
		uint64_t window;
		int64_t pid;
		int32_t w, h;
		struct cua_rect content; /* the visible window in it */
		char title[128];
		char ident[160];  /* the toplevel's accessible, "bus:path" */
		char toolkit[32]; /* its app's toolkit, "" unknown */
	} seen[MAX_SEEN];
	uint64_t recorded; /* the recorded window's handle, 0 unknown */
	uint32_t frame_w, frame_h;
	uint64_t damage_serial; /* frames reported as damage */
	uint64_t frames;        /* frames received (loop thread, atomic) */
	int64_t frame_us;       /* arrival of the last one (atomic) */
	struct xkb_context *xkb;
	struct xkb_keymap *keymap;
};

static struct mutter_driver *
mdrv(struct cua_display *d)
{
	return (struct mutter_driver *)d;
}

static void
on_frame(void *data)
{
	struct mutter_driver *md = data;

	__atomic_store_n(&md->frame_us, cua_now_us(), __ATOMIC_RELAXED);
	__atomic_add_fetch(&md->frames, 1, __ATOMIC_RELEASE);
	if (md->base.hooks.wake)
		md->base.hooks.wake(md->base.hooks.wake_data);
}

static void
session_drop(struct mutter_driver *md)
{
	mutter_pw_close(md->pw);
	md->pw = NULL;
	rd_close(md->s);
	md->s = NULL;
	md->recorded = 0;
	md->frame_w = md->frame_h = 0;
}

/* The one toplevel seen, or 0 when there are none or several: the
 * stream shows which window had focus only by its pixels. */
static uint64_t
seen_only(const struct mutter_driver *md)
{
	uint64_t found = 0;

	for (size_t i = 0; i < MAX_SEEN; i++) {
		if (!md->seen[i].window)
			continue;
		if (found && found != md->seen[i].window)
			return 0;
		found = md->seen[i].window;
	}
	return found;
}

/* Reads the stream's frame size and names the recorded window. */
static void
identify(struct mutter_driver *md)
{
	struct cua_pixels px;
	uint64_t serial;

	if (md->pw && !md->frame_w) {
		if (mutter_pw_frame(md->pw, FIRST_FRAME_MS, 0, &px, &serial) !=
		    CUA_OK) {
			cua_error_clear();
			return;
		}
		md->frame_w = px.width;
		md->frame_h = px.height;
		free(px.data);
	}
	if (!md->recorded) {
		md->recorded = seen_only(md);
		cua_debug(md->base.ctx,
			  "%s: the stream's frames are %ux%u: window "
			  "0x%llx",
			  md->rd->name, md->frame_w, md->frame_h,
			  (unsigned long long)md->recorded);
	}
}

/* The frames of a session with a screen cast. */
static void
stream_open(struct mutter_driver *md)
{
	md->why[0] = '\0';
	md->no_focus = 0;
	md->opened_us = cua_now_us();
	if (mutter_pw_open(md->s->node, md->s->pw_fd, on_frame, md, &md->pw) !=
	    CUA_OK) {
		/* input works without frames */
		snprintf(md->why, sizeof(md->why), "%s", cua_error_get());
		cua_error_clear();
		md->pw = NULL;
	}
	cua_info(md->base.ctx, "%s: remote-desktop session started",
		 md->rd->name);
}

/*
 * A new session with a screen cast in place of the current one: it
 * records the window that has keyboard focus now. The old session is
 * closed only after the new one started, so the seat never lacks a
 * keyboard (without one no window is ACTIVE). 0, or -1 with the reason in
 * md->why and the old session kept.
 */
static int
session_renew(struct mutter_driver *md)
{
	struct rd_session *n;

	md->cast_tried_us = cua_now_us();
	if (rd_open(md->rd, 1, SESSION_TIMEOUT_MS, WARMUP_MS, &n) != CUA_OK) {
		snprintf(md->why, sizeof(md->why), "%s has no screen cast: %s",
			 md->rd->name, cua_error_get());
		cua_error_clear();
		return -1;
	}
	session_drop(md);
	md->s = n;
	stream_open(md);
	return 0;
}

/*
 * A session without a screen cast because no window had keyboard focus
 * (the session was made before the app showed its window): once
 * CAST_RETRY_MS have passed since the last try, a new session with a
 * cast replaces it when a window has focus now.
 */
static void
cast_retry(struct mutter_driver *md)
{
	if (md->no_focus &&
	    cua_now_us() - md->cast_tried_us >= CAST_RETRY_MS * 1000)
		(void)session_renew(md);
}

static const struct cua_display_ops portal_ops;

/*
 * mutter refused its remote-desktop interface (AccessDenied: a GNOME that
 * keeps it to its own services): the desktop portal instead, when it
 * offers RemoteDesktop; from then on the driver is the portal driver.
 * `r` (with its sentence) when the portal is not there either.
 */
static cua_result
portal_instead(struct mutter_driver *md, cua_result r)
{
	char mutter_why[512], why[256];

	snprintf(mutter_why, sizeof(mutter_why), "%s", cua_error_get());
	if (!rd_portal_ops.available(why, sizeof(why))) {
		cua_error(r, "%s (the desktop portal is no way either: %s)",
			  mutter_why, why);
		return r;
	}
	cua_info(md->base.ctx, "%s; going through the desktop portal",
		 mutter_why);
	md->rd = &rd_portal_ops;
	md->base.ops = &portal_ops;
	return rd_open(md->rd, 1, SESSION_TIMEOUT_MS, WARMUP_MS, &md->s);
}

/* The session, made when there is none; NULL with cua_error() set. */
static struct rd_session *
session(struct mutter_driver *md)
{
	cua_result r;

	if (md->s && !rd_alive(md->s)) {
		cua_info(md->base.ctx, "%s: the session was closed",
			 md->rd->name);
		session_drop(md);
	}
	if (md->s) {
		cast_retry(md);
		return md->s;
	}
	if (md->refused_us &&
	    cua_now_us() - md->refused_us <
		    (md->refused == CUA_ERROR_PERMISSION ||
				     md->refused == CUA_ERROR_TIMEOUT ?
			     REASK_MS :
			     CAST_RETRY_MS) *
			    1000LL) {
		/* a refusal stands for a while: no dialog at every call */
		cua_error(md->refused, "%s", md->why);
		return NULL;
	}
	md->refused_us = 0;
	md->cast_tried_us = cua_now_us();
	r = rd_open(md->rd, 1, SESSION_TIMEOUT_MS, WARMUP_MS, &md->s);
	if (r == CUA_ERROR_PERMISSION && md->rd == &rd_mutter_ops)
		r = portal_instead(md, r);
	if (r != CUA_OK && md->rd == &rd_portal_ops) {
		/* the portal asks the person at the desktop: asking again
		 * for less (no screen cast) would show the dialog again.
		 * After a refusal or no answer the next try waits REASK_MS;
		 * after a failure (the backend's response 2, as for "no
		 * window has focus yet") CAST_RETRY_MS. */
		snprintf(md->why, sizeof(md->why), "%s", cua_error_get());
		md->refused = r;
		md->refused_us = cua_now_us();
		return NULL;
	}
	if (r != CUA_OK) {
		/* no screen cast (PipeWire is not running, or no window has
		 * focus yet): keys, buttons and the wheel still work */
		md->no_focus = r == CUA_ERROR_NOT_FOUND;
		snprintf(md->why, sizeof(md->why), "%s has no screen cast: %s",
			 md->rd->name, cua_error_get());
		cua_error_clear();
		r = rd_open(md->rd, 0, SESSION_TIMEOUT_MS, WARMUP_MS, &md->s);
		if (r != CUA_OK) {
			snprintf(md->why, sizeof(md->why), "%s",
				 cua_error_get());
			return NULL;
		}
		cua_info(md->base.ctx,
			 "%s: remote-desktop session without a screen "
			 "cast: %s",
			 md->rd->name, md->why);
		return md->s;
	}
	stream_open(md);
	return md->s;
}

/* ---- ops -------------------------------------------------------------- */

static void
m_destroy(struct cua_display *d)
{
	struct mutter_driver *md = mdrv(d);

	session_drop(md);
	if (md->keymap)
		xkb_keymap_unref(md->keymap);
	if (md->xkb)
		xkb_context_unref(md->xkb);
	free(md);
}

static void
m_capabilities(struct cua_display *d, struct cua_display_caps *out)
{
	struct mutter_driver *md = mdrv(d);
	char pw_why[200];
	const char *no = NULL;

	memset(out, 0, sizeof(*out));
	if (!session(md)) {
		cua_error_clear();
		no = md->why;
	}
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++)
		cua_display_cap_set(out, i, no);
	if (no)
		return;
	if (!rd_has_cast(md->s)) {
		/* absolute motion needs a stream; so do frames and the
		 * recorded window's geometry */
		cua_display_cap_set(out, CUA_DISPLAY_CAP_SCREENSHOT, md->why);
		cua_display_cap_set(out, CUA_DISPLAY_CAP_POINTER, md->why);
		cua_display_cap_set(out, CUA_DISPLAY_CAP_GEOMETRY, md->why);
	} else if (!md->pw) {
		cua_display_cap_set(out, CUA_DISPLAY_CAP_SCREENSHOT, md->why);
	} else if (!mutter_pw_alive(md->pw, pw_why, sizeof(pw_why))) {
		char why[260];

		snprintf(why, sizeof(why), "the PipeWire stream stopped: %s",
			 pw_why);
		cua_display_cap_set(out, CUA_DISPLAY_CAP_SCREENSHOT, why);
	}
}

static int
m_reconnect(struct cua_display *d)
{
	struct mutter_driver *md = mdrv(d);
	int had = md->s != NULL;

	if (!session(md)) {
		cua_error_clear();
		return -1;
	}
	return had ? 0 : 1;
}

static void
m_describe(struct cua_display *d, char *display, size_t dsize, char *server,
	   size_t ssize)
{
	const char *wd = secure_getenv("WAYLAND_DISPLAY");

	snprintf(display, dsize, "%s", wd ? wd : "");
	snprintf(server, ssize, "%s", mdrv(d)->rd->name);
}

static void
seen_note(struct mutter_driver *md, uint64_t window, int64_t pid,
	  const struct cua_display_toplevel_query *q)
{
	int32_t w = q->extents.w, h = q->extents.h;
	struct cua_rect c = { 0, 0, w, h };
	size_t i;

	for (i = 0; i < MAX_SEEN - 1 && md->seen[i].window != window; i++)
		;
	memmove(&md->seen[1], &md->seen[0], i * sizeof(md->seen[0]));
	md->seen[0].window = window;
	md->seen[0].pid = pid;
	md->seen[0].w = w;
	md->seen[0].h = h;
	/* GTK 3's client-side shadow: the children fill the visible
	 * window, inside the surface */
	if (q->has_content && q->content.w > 0 && q->content.h > 0 &&
	    q->content.x >= q->extents.x && q->content.y >= q->extents.y &&
	    q->content.x + q->content.w <= q->extents.x + w &&
	    q->content.y + q->content.h <= q->extents.y + h)
		c = (struct cua_rect){ q->content.x - q->extents.x,
				       q->content.y - q->extents.y,
				       q->content.w, q->content.h };
	md->seen[0].content = c;
	snprintf(md->seen[0].title, sizeof(md->seen[0].title), "%s",
		 q->name ? q->name : "");
	snprintf(md->seen[0].ident, sizeof(md->seen[0].ident), "%s",
		 q->ident ? q->ident : "");
	snprintf(md->seen[0].toolkit, sizeof(md->seen[0].toolkit), "%s",
		 q->toolkit ? q->toolkit : "");
}

static ssize_t
seen_find(const struct mutter_driver *md, uint64_t window)
{
	for (size_t i = 0; i < MAX_SEEN; i++)
		if (window && md->seen[i].window == window)
			return (ssize_t)i;
	return -1;
}

static void
win_fill(const struct mutter_driver *md, size_t k, struct cua_win *out)
{
	memset(out, 0, sizeof(*out));
	out->window = md->seen[k].window;
	out->pid = md->seen[k].pid;
	cua_display_proc_comm(out->pid, out->process, sizeof(out->process));
	out->origin = (struct cua_rect){ 0, 0, md->seen[k].w, md->seen[k].h };
	out->frame = md->seen[k].content;
	out->outer = out->origin;
	out->mapped = 1;
	out->atspi_space = CUA_ATSPI_SURFACE;
	out->scale = 1;
}

/*
 * The stream records the window that had keyboard focus when the session
 * started. When the accessibility tree shows another of the toplevels
 * seen as the active one (a dialog opened over its window, another app
 * came forward), a new session records that window; the toplevel the
 * tree shows active then is the recorded one. Without an active toplevel
 * (focus is in an app not read now) nothing changes.
 */
static void
follow_focus(struct mutter_driver *md, int64_t pid,
	     const struct cua_display_toplevel_query *tops, size_t n,
	     int64_t since_us)
{
	uint64_t active = 0;

	for (size_t i = 0; i < n && i < 0xffff; i++) {
		uint64_t h = ((uint64_t)pid << 16) | (i + 1);

		/* an open menu or drop-down holds the keyboard focus, but
		 * it is shown over the recorded window, which stays the one
		 * observed (docs/wayland.md) */
		if (cua_role_is_popup_toplevel(tops[i].role))
			continue;
		if (tops[i].active && seen_find(md, h) >= 0) {
			if (active)
				return; /* two active windows: no answer */
			active = h;
		}
	}
	if (!active || active == md->recorded || !md->s || !rd_has_cast(md->s))
		return;
	/* a session started during this read records the window active
	 * now; an older one may record another */
	if (md->opened_us < since_us) {
		cua_debug(md->base.ctx,
			  "mutter: focus moved from window 0x%llx to 0x%llx: "
			  "a new session records it",
			  (unsigned long long)md->recorded,
			  (unsigned long long)active);
		if (session_renew(md) < 0)
			return;
		identify(md);
	}
	md->recorded = active;
}

static void
m_match_toplevels(struct cua_display *d, int64_t pid,
		  const struct cua_display_toplevel_query *tops, size_t n,
		  struct cua_raw_window_info *info, struct cua_arena *arena)
{
	struct mutter_driver *md = mdrv(d);
	int64_t t0 = cua_now_us();

	for (size_t i = 0; i < n && i < 0xffff; i++) {
		uint64_t h = ((uint64_t)pid << 16) | (i + 1);

		if (!tops[i].has_extents || tops[i].extents.w <= 1 ||
		    tops[i].extents.h <= 1)
			continue;
		seen_note(md, h, pid, &tops[i]);
	}
	if (session(md))
		identify(md);
	else
		cua_error_clear();
	follow_focus(md, pid, tops, n, t0);
	for (size_t i = 0; i < n && i < 0xffff; i++) {
		uint64_t h = ((uint64_t)pid << 16) | (i + 1);
		ssize_t k = seen_find(md, h);

		if (k < 0)
			continue;
		info[i].x11_window = h;
		info[i].x11_active = h == md->recorded;
		info[i].x11_mapped = 1;
		info[i].x11_title =
			arena && tops[i].name ?
				cua_arena_strdup(arena, tops[i].name) :
				NULL;
		info[i].x11_frame = md->seen[k].content;
		info[i].has_x11_frame = h == md->recorded;
		if (md->seen[k].content.x || md->seen[k].content.y)
			info[i].x11_surface =
				(struct cua_rect){ 0, 0, md->seen[k].w,
						   md->seen[k].h };
	}
}

/* mutter lists no windows to clients: these are the toplevels the
 * accessibility tree showed, of processes still running. */
static cua_result
m_list_windows(struct cua_display *d, struct cua_display_window_list **out)
{
	struct mutter_driver *md = mdrv(d);
	struct cua_display_window_list *l = calloc(1, sizeof(*l));

	*out = NULL;
	if (!l || !(l->arena = cua_arena_new()) ||
	    !(l->w = cua_arena_alloc(l->arena, MAX_SEEN * sizeof(*l->w)))) {
		cua_display_window_list_free(l);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < MAX_SEEN; i++) {
		struct cua_display_window *w = &l->w[l->n];

		if (!md->seen[i].window ||
		    (kill((pid_t)md->seen[i].pid, 0) < 0 && errno == ESRCH))
			continue;
		memset(w, 0, sizeof(*w));
		win_fill(md, i, &w->win);
		w->title = cua_arena_strdup(l->arena, md->seen[i].title);
		w->focused = md->seen[i].window == md->recorded;
		l->n++;
	}
	*out = l;
	return CUA_OK;
}

static cua_result
m_window_query(struct cua_display *d, uint64_t window, struct cua_win *out)
{
	struct mutter_driver *md = mdrv(d);
	ssize_t k = seen_find(md, window);

	memset(out, 0, sizeof(*out));
	if (k < 0)
		return cua_error(CUA_ERROR_NOT_FOUND, "window 0x%llx is gone",
				 (unsigned long long)window);
	win_fill(md, (size_t)k, out);
	return CUA_OK;
}

/* The recorded window, or window 0. */
static void
recorded(struct mutter_driver *md, struct cua_win *out)
{
	ssize_t k;

	memset(out, 0, sizeof(*out));
	if (session(md))
		identify(md);
	else
		cua_error_clear();
	k = seen_find(md, md->recorded);
	if (k >= 0)
		win_fill(md, (size_t)k, out);
}

static cua_result
m_window_at(struct cua_display *d, int32_t x, int32_t y, struct cua_win *out)
{
	struct mutter_driver *md = mdrv(d);

	recorded(md, out);
	/* the stream's edge is the monitor's: mutter moves no pointer
	 * beyond it */
	if (out->window && !(x >= out->frame.x && y >= out->frame.y &&
			     x - out->frame.x < out->frame.w &&
			     y - out->frame.y < out->frame.h &&
			     (!md->frame_w || ((uint32_t)x < md->frame_w &&
					       (uint32_t)y < md->frame_h))))
		memset(out, 0, sizeof(*out));
	return CUA_OK;
}

static cua_result
m_focus_window(struct cua_display *d, struct cua_win *out)
{
	recorded(mdrv(d), out);
	return CUA_OK;
}

/* The AT-SPI state of seen window k: 1 ACTIVE, 0 not, -1 unknown. */
static int
seen_active(struct mutter_driver *md, size_t k)
{
	const struct cua_display_hooks *h = &md->base.hooks;

	if (!h->toplevel_active || !md->seen[k].ident[0])
		return -1;
	return h->toplevel_active(h->toplevel_active_data, md->seen[k].ident);
}

/* Waits at most ms for seen window k to become ACTIVE: 1 once it is. */
static int
wait_active(struct mutter_driver *md, size_t k, int ms)
{
	int64_t until = cua_now_us() + (int64_t)ms * 1000;

	for (;;) {
		if (seen_active(md, k) == 1)
			return 1;
		if (cua_now_us() >= until)
			return 0;
		cua_sleep_ms(ACTIVE_POLL_MS);
	}
}

/* The windows seen whose processes still run. */
static size_t
seen_alive(const struct mutter_driver *md)
{
	size_t n = 0;

	for (size_t i = 0; i < MAX_SEEN; i++)
		if (md->seen[i].window &&
		    !(kill((pid_t)md->seen[i].pid, 0) < 0 && errno == ESRCH))
			n++;
	return n;
}

/* mutter's cycle-windows-backward key binding (shift+alt+Escape): it
 * activates the window used longest ago. */
static cua_result
cycle_back(struct rd_session *s)
{
	static const uint32_t chord[] = { 0xffe1, 0xffe9, 0xff1b };
	cua_result r = CUA_OK;
	size_t m = 0;

	for (; r == CUA_OK && m < 3; m++)
		r = rd_keysym(s, chord[m], 1);
	while (m > 0)
		(void)rd_keysym(s, chord[--m], 0);
	return r;
}

/*
 * mutter offers clients no request to focus a window, but it runs its
 * own key bindings on the session's keyboard. shift+alt+Escape
 * (cycle-windows-backward) activates the window used longest ago, so
 * pressing it at most once per window goes through them all, each once,
 * until the accessibility tree shows the target ACTIVE (the toolkit's
 * own word that its window holds keyboard focus). Then a new session
 * records it. Windows in between are activated on the way; none is
 * clicked or typed into. Without the tree's answer, a new session
 * records the window mutter focuses now, and the target is confirmed
 * only when it is the one the stream showed it to be before.
 */
static cua_result
m_activate_window(struct cua_display *d, uint64_t window, int timeout_ms,
		  int *confirmed)
{
	struct mutter_driver *md = mdrv(d);
	ssize_t k = seen_find(md, window);
	int64_t until = cua_now_us() + (int64_t)timeout_ms * 1000;
	struct rd_session *s;
	struct cua_win w;
	size_t tries;

	*confirmed = 0;
	if (k < 0)
		return cua_error(CUA_ERROR_NOT_FOUND, "window 0x%llx is gone",
				 (unsigned long long)window);
	if (seen_active(md, (size_t)k) < 0) {
		recorded(md, &w);
		if (w.window != window && md->s) {
			session_drop(md);
			recorded(md, &w);
		}
		*confirmed = w.window == window;
		return CUA_OK;
	}
	if (!(s = session(md)))
		return CUA_ERROR_BACKEND;
	tries = seen_alive(md) + 1;
	for (size_t i = 0; !*confirmed; i++) {
		if (seen_active(md, (size_t)k) == 1) {
			*confirmed = 1;
			break;
		}
		if (i >= tries || cua_now_us() >= until)
			break;
		if (cycle_back(s) != CUA_OK)
			return CUA_ERROR_BACKEND;
		*confirmed = wait_active(md, (size_t)k, CYCLE_WAIT_MS);
	}
	if (!*confirmed) {
		cua_debug(d->ctx, "mutter: window 0x%llx did not become active",
			  (unsigned long long)window);
		return CUA_OK;
	}
	if (md->recorded != window && rd_has_cast(md->s) &&
	    session_renew(md) < 0)
		return CUA_OK; /* focused, but the stream shows another */
	if (md->s && rd_has_cast(md->s))
		md->recorded = window;
	return CUA_OK;
}

static void
m_shell(struct cua_display *d, struct cua_display_shell *out)
{
	(void)d;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "mutter");
}

/* ---- input ------------------------------------------------------------ */

static cua_result
m_move(void *data, int32_t x, int32_t y)
{
	struct mutter_driver *md = data;
	cua_result r;

	if (!rd_has_cast(md->s))
		return cua_error(CUA_ERROR_UNSUPPORTED, "%s", md->why);
	/* whole pixels, as on X11: an app sees the same coordinates */
	r = rd_motion(md->s, x, y);
	md->moved_us = cua_now_us();
	return r;
}

/*
 * mutter moves its pointer focus to the surface under the pointer when it
 * next picks (at a frame): a button sent right after a motion went to the
 * surface under the old position (GTK saw the release of a first click
 * but not its press). A button or wheel step waits until MOTION_SETTLE_MS
 * have passed since the last motion.
 */
static void
settle(struct mutter_driver *md)
{
	int64_t left = md->moved_us + MOTION_SETTLE_MS * 1000 - cua_now_us();

	if (md->moved_us && left > 0)
		cua_sleep_ms((int)((left + 999) / 1000));
	md->moved_us = 0;
}

static cua_result
m_button(void *data, uint32_t code, int down)
{
	struct mutter_driver *md = data;

	settle(md);
	return rd_button(md->s, (int32_t)code, down);
}

static cua_result
m_wheel(void *data, int axis, int dir)
{
	struct mutter_driver *md = data;

	settle(md);
	return rd_axis(md->s, (uint32_t)axis, dir);
}

static const struct cua_pointer_sink m_sink = {
	.move = m_move,
	.button = m_button,
	.wheel = m_wheel,
	.polls_interrupt = 1,
};

static void
release_buttons(struct mutter_driver *md)
{
	cua_display_pointer_release(md->s ? &m_sink : NULL, md, md->pressed);
}

static cua_result
m_pointer(struct cua_display *d, const struct cua_pointer_event *ev, size_t n,
	  int restore)
{
	struct mutter_driver *md = mdrv(d);
	cua_result r;

	(void)restore;
	if (!session(md))
		return CUA_ERROR_BACKEND;
	r = cua_display_pointer_send(d, ev, n, &m_sink, md, md->pressed);
	if (r != CUA_OK)
		release_buttons(md);
	return r;
}

/* 1 when mutter's keymap (the default us layout) has `keysym`. */
static int
in_keymap(struct mutter_driver *md, uint32_t keysym)
{
	xkb_keycode_t min, max;

	if (!md->xkb) {
		struct xkb_rule_names names = { "evdev", "pc105", "us", "",
						"" };

		md->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
		if (md->xkb)
			md->keymap = xkb_keymap_new_from_names(
				md->xkb, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
	}
	if (!md->keymap)
		return 1; /* unknown: let mutter decide */
	min = xkb_keymap_min_keycode(md->keymap);
	max = xkb_keymap_max_keycode(md->keymap);
	for (xkb_keycode_t k = min; k <= max; k++) {
		xkb_layout_index_t nl =
			xkb_keymap_num_layouts_for_key(md->keymap, k);

		for (xkb_layout_index_t l = 0; l < nl; l++) {
			xkb_level_index_t nv =
				xkb_keymap_num_levels_for_key(md->keymap, k, l);

			for (xkb_level_index_t v = 0; v < nv; v++) {
				const xkb_keysym_t *syms;
				int ns = xkb_keymap_key_get_syms_by_level(
					md->keymap, k, l, v, &syms);

				for (int j = 0; j < ns; j++)
					if (syms[j] == keysym)
						return 1;
			}
		}
	}
	return 0;
}

static cua_result
tap(struct rd_session *s, uint32_t keysym)
{
	cua_result r = rd_keysym(s, keysym, 1);

	return r == CUA_OK ? rd_keysym(s, keysym, 0) : r;
}

/* A character without a key: GTK's Unicode entry, ctrl+shift+u, the
 * code point in hex, space. */
static cua_result
unicode_entry(struct rd_session *s, uint32_t cp)
{
	char hex[16];
	cua_result r;

	r = rd_keysym(s, 0xffe3, 1); /* Control_L */
	if (r == CUA_OK)
		r = rd_keysym(s, 0xffe1, 1); /* Shift_L */
	if (r == CUA_OK)
		r = tap(s, 'u');
	(void)rd_keysym(s, 0xffe1, 0);
	(void)rd_keysym(s, 0xffe3, 0);
	snprintf(hex, sizeof(hex), "%x", cp);
	for (const char *c = hex; r == CUA_OK && *c; c++)
		r = tap(s, (uint32_t)(unsigned char)*c);
	if (r == CUA_OK)
		r = tap(s, ' ');
	return r;
}

/* Refuses, before any key is sent, a character that only the Unicode
 * entry types when the recorded window's app is a Qt one: Qt reads no
 * ctrl+shift+u and would get the hex digits as text. */
static cua_result
unicode_entry_check(struct mutter_driver *md,
		    const struct cua_key_chord *chords, size_t n)
{
	ssize_t k = seen_find(md, md->recorded);
	char utf8[8];

	if (k < 0 || !strcasestr(md->seen[k].toolkit, "qt"))
		return CUA_OK;
	for (size_t i = 0; i < n; i++) {
		uint32_t cp = chords[i].codepoint;

		if (!chords[i].keysym || !cp || chords[i].n_mods ||
		    in_keymap(md, chords[i].keysym))
			continue;
		utf8[cua_utf8_encode(utf8, cp)] = '\0';
		return cua_err(
			CUA_MSG_NO_UNICODE_ENTRY, { "char", utf8 },
			{ "codepoint", CUA_NUM("U+%04X", (unsigned)cp) });
	}
	return CUA_OK;
}

static cua_result
m_keys(struct cua_display *d, const struct cua_key_chord *chords, size_t n,
       int keymap_delay_ms, const struct cua_display_sync *sync, int *kept)
{
	struct mutter_driver *md = mdrv(d);
	struct rd_session *s = session(md);
	cua_result r = CUA_OK;

	(void)keymap_delay_ms;
	if (kept)
		*kept = 0;
	if (!s)
		return CUA_ERROR_BACKEND;
	r = unicode_entry_check(md, chords, n);
	if (r != CUA_OK)
		return r;
	for (size_t i = 0; r == CUA_OK && i < n; i++) {
		const struct cua_key_chord *c = &chords[i];
		size_t m = 0;

		if (d->interrupt && (r = d->interrupt(d->interrupt_data)))
			break;
		if (!c->keysym)
			return cua_error(CUA_ERROR_INVALID_ARGUMENT,
					 "no keysym to send");
		if (!in_keymap(md, c->keysym)) {
			if (c->codepoint && !c->n_mods) {
				r = unicode_entry(s, c->codepoint);
				continue;
			}
			return cua_error(
				CUA_ERROR_UNSUPPORTED,
				"mutter's keymap has no key for keysym "
				"0x%x, so it cannot be pressed",
				c->keysym);
		}
		for (; r == CUA_OK && m < c->n_mods; m++)
			r = rd_keysym(s, c->mod_keysyms[m], 1);
		if (r == CUA_OK)
			r = tap(s, c->keysym);
		while (m > 0)
			(void)rd_keysym(s, c->mod_keysyms[--m], 0);
	}
	if (r == CUA_OK && sync && sync->fn)
		sync->fn(sync->data);
	return r;
}

static cua_result
m_keys_restore(struct cua_display *d)
{
	(void)d;
	return CUA_OK;
}

static cua_result
m_keys_check(struct cua_display *d, const struct cua_key_chord *chords,
	     size_t n)
{
	return unicode_entry_check(mdrv(d), chords, n);
}

/* ---- capture ---------------------------------------------------------- */

static cua_result
m_capture(struct cua_display *d, const struct cua_capture_request *req,
	  struct cua_capture **out, enum cua_capture_status *status)
{
	struct mutter_driver *md = mdrv(d);
	struct cua_capture *c;
	struct cua_win w;
	uint64_t serial;
	int64_t t0 = cua_now_us();
	cua_result r;

	*out = NULL;
	*status = CUA_CAPTURE_COMPOSITOR_FAILED;
	if (!session(md))
		return CUA_ERROR_BACKEND;
	if (!md->pw)
		return cua_error(CUA_ERROR_UNSUPPORTED, "%s", md->why);
	recorded(md, &w);
	if (w.window != req->window) {
		*status = CUA_CAPTURE_NOT_LISTED;
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "the window is not the one mutter records "
				 "(the window that had keyboard focus)");
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	r = mutter_pw_frame(md->pw,
			    req->timeout_ms > 0 ? req->timeout_ms : 2500, 0,
			    &c->px, &serial);
	if (r != CUA_OK) {
		*status = r == CUA_ERROR_TIMEOUT ?
				  CUA_CAPTURE_TIMEOUT :
				  CUA_CAPTURE_COMPOSITOR_FAILED;
		free(c);
		return r;
	}
	/* the stream is the monitor's size, with the window's surface at
	 * (0, 0): the whole visible window, its part beyond the stream
	 * black (no pointer reaches it either: m_window_at) */
	{
		struct cua_rect f = w.frame;
		int32_t fw = (int32_t)c->px.width, fh = (int32_t)c->px.height;
		size_t stride = (size_t)f.w * 4;
		uint8_t *img;

		if (f.x >= fw || f.y >= fh || f.w <= 0 || f.h <= 0) {
			cua_capture_free(c);
			*status = CUA_CAPTURE_OFFSCREEN;
			return cua_error(CUA_ERROR_UNSUPPORTED,
					 "the window lies outside the stream");
		}
		img = calloc((size_t)f.h, stride);
		if (!img) {
			cua_capture_free(c);
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
		for (int32_t y = 0; y < f.h && f.y + y < fh; y++)
			memcpy(img + (size_t)y * stride,
			       c->px.data + (size_t)(f.y + y) * c->px.stride +
				       (size_t)f.x * 4,
			       (size_t)(f.x + f.w > fw ? fw - f.x : f.w) * 4);
		if (f.x + f.w > fw || f.y + f.h > fh)
			cua_debug(d->ctx,
				  "mutter: the window (%dx%d) reaches beyond "
				  "the %dx%d stream: that part is black",
				  f.w, f.h, fw - f.x, fh - f.y);
		free(c->px.data);
		c->px.data = img;
		c->px.stride = stride;
		c->px.width = (uint32_t)f.w;
		c->px.height = (uint32_t)f.h;
		c->frame = f;
		c->window = w.origin;
	}
	c->capture_us = cua_now_us() - t0;
	c->route = CUA_CAPTURE_COMPOSITE;
	*status = CUA_CAPTURE_OK;
	*out = c;
	return CUA_OK;
}

static size_t
m_take_damage(struct cua_display *d, struct cua_display_damage *out, size_t max)
{
	struct mutter_driver *md = mdrv(d);
	uint64_t f = __atomic_load_n(&md->frames, __ATOMIC_ACQUIRE);

	if (max < 1 || f == md->damage_serial || !md->recorded)
		return 0;
	md->damage_serial = f;
	out[0].window = md->recorded;
	out[0].area = (struct cua_rect){ 0, 0, (int32_t)md->frame_w,
					 (int32_t)md->frame_h };
	/* when the frame arrived, not now: the settle orders frames and
	 * accessibility events by arrival */
	out[0].time_us = __atomic_load_n(&md->frame_us, __ATOMIC_RELAXED);
	return 1;
}

static size_t
m_launch_env(struct cua_display *d, const char **names, const char **values,
	     size_t max)
{
	const char *wd = secure_getenv("WAYLAND_DISPLAY");

	(void)d;
	if (max < 1 || !wd || !*wd)
		return 0;
	names[0] = "WAYLAND_DISPLAY";
	values[0] = wd;
	return 1;
}

/* One driver, named by its session layer. */
#define DRIVER_OPS(NAME)                                                       \
	{                                                                      \
		.name = NAME, .destroy = m_destroy,                            \
		.capabilities = m_capabilities, .reconnect = m_reconnect,      \
		.describe = m_describe, .list_windows = m_list_windows,        \
		.match_toplevels = m_match_toplevels,                          \
		.match_wants_content = 1, .window_query = m_window_query,      \
		.window_at = m_window_at, .focus_window = m_focus_window,      \
		.activate_window = m_activate_window, .shell = m_shell,        \
		.pointer = m_pointer, .keys = m_keys,                          \
		.keys_restore = m_keys_restore, .keys_check = m_keys_check,    \
		.capture = m_capture, .take_damage = m_take_damage,            \
		.launch_env = m_launch_env,                                    \
	}

static const struct cua_display_ops mutter_ops = DRIVER_OPS("mutter");
static const struct cua_display_ops portal_ops = DRIVER_OPS("portal");

static cua_result
driver_new(struct cua_ctx *ctx, const struct cua_display_ops *ops,
	   const struct rd_ops *rd, struct cua_display **out)
{
	struct mutter_driver *md = calloc(1, sizeof(*md));

	*out = NULL;
	if (!md)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	md->base.ops = ops;
	md->base.ctx = ctx;
	md->rd = rd;
	*out = &md->base;
	return CUA_OK;
}

cua_result
cua_display_mutter_new(struct cua_ctx *ctx, struct cua_display **out)
{
	return driver_new(ctx, &mutter_ops, &rd_mutter_ops, out);
}

cua_result
cua_display_portal_new(struct cua_ctx *ctx, struct cua_display **out)
{
	return driver_new(ctx, &portal_ops, &rd_portal_ops, out);
}

static int
probe(const struct rd_ops *rd, const struct cua_display_env *env, char *why,
      size_t size)
{
	if (!env->wayland_display || !*env->wayland_display) {
		snprintf(why, size, "WAYLAND_DISPLAY is not set");
		return 0;
	}
	return rd->available(why, size);
}

int
cua_display_mutter_probe(const struct cua_display_env *env, char *why,
			 size_t size)
{
	return probe(&rd_mutter_ops, env, why, size);
}

int
cua_display_portal_probe(const struct cua_display_env *env, char *why,
			 size_t size)
{
	return probe(&rd_portal_ops, env, why, size);
}
