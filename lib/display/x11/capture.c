/*
 * Window capture for screenshots (docs/screenshots.md §2, §7, §8).
 *
 * All X11 work for screenshots runs on one worker thread with its own X
 * connection, kept open for the life of the session:
 *  - a tracked window is redirected with XCompositeRedirectWindow(…,
 *    CompositeRedirectAutomatic) — visually a no-op; the redirect lasts as
 *    long as this connection, which is why the connection stays open
 *    (docs/toolkits.md §4) — and gets a Damage object, whose events both
 *    feed the settle (events.c) and tell when a window redirected just
 *    now has repainted its pixmap (a fresh pixmap is black until then);
 *  - a capture names the window's pixmap and reads it with XGetImage: the
 *    window's own pixels even where other windows cover it or it hangs
 *    past the screen edge. The colour masks come from the window's
 *    visual (an image of a pixmap has none).
 * Nothing here raises, maps, moves or focuses a window
 * (docs/differences.md D23).
 *
 * Reuse (docs/screenshots.md §2.1): every tracked window keeps the stamp
 * of its last damage or structure event, apart from the damage queue the
 * settle drains; still_unchanged() answers from it.
 *
 * The session thread waits for a capture at most capture_timeout_ms. On
 * timeout the worker is abandoned — it frees itself and closes its
 * connection when it returns — and `xwd -silent -id <window>` is run with
 * capture_fallback_timeout_ms (SIGTERM, then SIGKILL a second later).
 * While an abandoned worker still runs, captures go straight to xwd.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xcomposite.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xdamage.h>

#include "x11.h"
#include "xwd.h"

#define MAX_TRACKED 32
#define DAMAGE_QUEUE 512
/* A redirect made just now starts the window's pixmap from what the
 * screen shows: right where the window is visible, black where it is
 * covered or off-screen, until the app repaints the parts the server
 * exposed. For such a window, wait for the app's damage (after the
 * server's own, which comes at once), then for REPAINT_QUIET_US of quiet,
 * at most REPAINT_CAP_US. A wholly visible window needs no wait. */
#define REPAINT_SERVER_US (3 * 1000)
#define REPAINT_QUIET_US (30 * 1000)
#define REPAINT_CAP_US (400 * 1000)

struct tracked {
	Window w;
	Damage damage; /* 0: none */
	int64_t redirected_at;
	int64_t last_damage;
	int fresh;          /* redirected by us, not yet repainted */
	int64_t app_damage; /* last damage after the server's, or 0 */
	int app_full;       /* the app repainted most of the window */
	int64_t area;       /* the window's area */
	int32_t ext[4];     /* _GTK_FRAME_EXTENTS l, r, t, b (last seen) */
	/* the stamp of the last change seen (damage, configure, map,
	 * unmap), or of the tracking's start: for reuse, never drained */
	uint64_t changed;
};

struct worker {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int refs;      /* the owner and the thread */
	int abandoned; /* the owner gave up on it */
	int quit;
	int finished; /* the thread returned */
	int dead;     /* no X connection */
	int efd;
	/* the owner's hook, called when damage arrives while the owner
	 * still listens (not quit, not abandoned; under mu) */
	void (*wake)(void *data);
	void *wake_data;
	char *display_name;
	struct cua_ctx *ctx; /* only for debug logs while not abandoned */

	/* requests (under mu) */
	Window track_q[MAX_TRACKED];
	size_t n_track;
	int cap_pending;
	Window cap_window;
	int cap_popups;     /* cua_capture_request.popups */
	uint64_t cap_since; /* cua_capture_request.unchanged_since */
	int cap_geometry;   /* cua_capture_request.geometry_only */
	int cap_done;
	struct cua_capture *cap_out;
	enum cua_capture_status cap_status;

	/* damage for the event stream (under mu) */
	struct cua_display_damage dmg[DAMAGE_QUEUE];
	size_t dmg_head, dmg_len;
	/* frame extents per tracked window, for the xwd route (under mu) */
	struct {
		Window w;
		int32_t ext[4];
	} ext_cache[MAX_TRACKED];
	size_t n_ext;

	/* thread only */
	struct x11 *x;
	Display *dpy;
	int have_composite, have_damage, damage_event;
	Atom a_frame_extents, a_wm_state, a_wm_pid;
	struct tracked tr[MAX_TRACKED];
	size_t n_tr;
	char why[96]; /* the step that failed last (debug logs) */
	/* MIT-SHM: the image comes through shared memory, not the socket */
	int have_shm;
	XShmSegmentInfo shm;
	size_t shm_size; /* 0: no segment */
};

struct shots {
	struct x11_driver *xd;
	struct worker *w;         /* NULL until first needed, or after a hang */
	struct worker *abandoned; /* a hung worker, until it returns */
	int64_t abandoned_at;
};

/* Stamps for reuse: process-wide, so that no record made by a later
 * worker (after a hang or a reconnect) can look older than a capture made
 * by an earlier one. */
static uint64_t stamp_seq;

static uint64_t
next_stamp(void)
{
	return __atomic_add_fetch(&stamp_seq, 1, __ATOMIC_SEQ_CST);
}

static void
worker_unref_locked(struct worker *w, int *freed)
{
	*freed = 0;
	if (--w->refs > 0)
		return;
	*freed = 1;
}

static void
worker_destroy(struct worker *w)
{
	cua_capture_free(w->cap_out);
	if (w->efd >= 0)
		close(w->efd);
	free(w->display_name);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}

static void
worker_unref(struct worker *w)
{
	int freed;

	pthread_mutex_lock(&w->mu);
	worker_unref_locked(w, &freed);
	pthread_mutex_unlock(&w->mu);
	if (freed)
		worker_destroy(w);
}

static void
worker_kick(struct worker *w)
{
	uint64_t one = 1;
	ssize_t r;

	do
		r = write(w->efd, &one, sizeof(one));
	while (r < 0 && errno == EINTR);
}

/* ------------------------------------------------------------------ */
/* Worker thread                                                        */

static struct tracked *
find_tracked(struct worker *w, Window win)
{
	for (size_t i = 0; i < w->n_tr; i++)
		if (w->tr[i].w == win)
			return &w->tr[i];
	return NULL;
}

static void
forget_tracked(struct worker *w, struct tracked *t)
{
	size_t i = (size_t)(t - w->tr);

	memmove(&w->tr[i], &w->tr[i + 1], (w->n_tr - i - 1) * sizeof(*t));
	w->n_tr--;
}

/* Up to `max` 32-bit items of property `prop` (of type `type`) of `win`;
 * the number read, 0 when it is not there. */
static int
card_prop(struct worker *w, Window win, Atom prop, Atom type,
	  unsigned long *out, int max)
{
	Atom got = None;
	int format = 0, n_out = 0;
	unsigned long n = 0, after = 0;
	unsigned char *d = NULL;

	x11_trap_begin();
	if (XGetWindowProperty(w->dpy, win, prop, 0, max, False, type, &got,
			       &format, &n, &after, &d) == Success &&
	    got == type && format == 32)
		for (; n_out < max && (unsigned long)n_out < n; n_out++)
			out[n_out] = ((unsigned long *)(void *)d)[n_out];
	if (d)
		XFree(d);
	x11_trap_end(w->x);
	return n_out;
}

static void
read_extents(struct worker *w, Window win, int32_t ext[4])
{
	unsigned long e[4];
	int ok = card_prop(w, win, w->a_frame_extents, XA_CARDINAL, e, 4) == 4;

	for (int i = 0; i < 4; i++)
		ext[i] = ok && e[i] < 4096 ? (int32_t)e[i] : 0;
}

static void
remember_extents(struct worker *w, Window win, const int32_t ext[4])
{
	size_t i;

	pthread_mutex_lock(&w->mu);
	for (i = 0; i < w->n_ext && w->ext_cache[i].w != win; i++)
		;
	if (i == w->n_ext) {
		if (w->n_ext == MAX_TRACKED) {
			memmove(&w->ext_cache[0], &w->ext_cache[1],
				(MAX_TRACKED - 1) * sizeof(w->ext_cache[0]));
			w->n_ext--;
		}
		i = w->n_ext++;
	}
	w->ext_cache[i].w = win;
	memcpy(w->ext_cache[i].ext, ext, sizeof(w->ext_cache[i].ext));
	pthread_mutex_unlock(&w->mu);
}

/* Redirects `win` and creates its Damage object, once. */
static struct tracked *
track(struct worker *w, Window win)
{
	struct tracked *t = find_tracked(w, win);

	if (t || !win || w->dead)
		return t;
	if (w->n_tr == MAX_TRACKED) {
		/* forget the oldest; its redirect lasts until we close */
		if (w->tr[0].damage) {
			x11_trap_begin();
			XDamageDestroy(w->dpy, w->tr[0].damage);
			x11_trap_end(w->x);
		}
		forget_tracked(w, &w->tr[0]);
	}
	t = &w->tr[w->n_tr];
	memset(t, 0, sizeof(*t));
	t->w = win;
	t->changed = next_stamp();
	if (w->have_composite) {
		x11_trap_begin();
		XCompositeRedirectWindow(w->dpy, win,
					 CompositeRedirectAutomatic);
		if (x11_trap_end(w->x) != 0)
			return NULL; /* gone, or not redirectable */
		t->redirected_at = cua_now_us();
		t->fresh = !x11_wholly_visible(w->x, w->dpy, win, &t->area);
	}
	if (w->have_damage) {
		x11_trap_begin();
		t->damage =
			XDamageCreate(w->dpy, win, XDamageReportRawRectangles);
		if (x11_trap_end(w->x) != 0)
			t->damage = 0;
	}
	/* DestroyNotify: window ids are reused by later clients */
	x11_trap_begin();
	XSelectInput(w->dpy, win, StructureNotifyMask);
	x11_trap_end(w->x);
	read_extents(w, win, t->ext);
	remember_extents(w, win, t->ext);
	w->n_tr++;
	return t;
}

static void
handle_event(struct worker *w, XEvent *ev)
{
	XDamageNotifyEvent *dn;
	struct tracked *t;
	int64_t now;

	if (ev->type == DestroyNotify) {
		t = find_tracked(w, ev->xdestroywindow.window);
		if (t && ev->xdestroywindow.window == ev->xdestroywindow.event)
			forget_tracked(w, t);
		return;
	}
	if (ev->type == ConfigureNotify || ev->type == MapNotify ||
	    ev->type == UnmapNotify || ev->type == ReparentNotify ||
	    ev->type == GravityNotify) {
		/* moved, resized, restacked, shown or hidden: no reuse */
		t = find_tracked(w, ev->xany.window);
		if (t)
			t->changed = next_stamp();
		return;
	}
	if (!w->have_damage || ev->type != w->damage_event + XDamageNotify)
		return;
	dn = (XDamageNotifyEvent *)ev;
	t = find_tracked(w, dn->drawable);
	if (!t)
		return;
	now = cua_now_us();
	t->last_damage = now;
	t->changed = next_stamp();
	if (t->fresh && now - t->redirected_at > REPAINT_SERVER_US) {
		t->app_damage = now;
		if ((int64_t)dn->area.width * dn->area.height * 2 >= t->area)
			t->app_full = 1;
	}
	pthread_mutex_lock(&w->mu);
	{
		size_t i = (w->dmg_head + w->dmg_len) % DAMAGE_QUEUE;

		if (w->dmg_len == DAMAGE_QUEUE) {
			w->dmg_head = (w->dmg_head + 1) % DAMAGE_QUEUE;
			w->dmg_len--;
		}
		w->dmg[i].window = dn->drawable;
		w->dmg[i].area.x = dn->area.x;
		w->dmg[i].area.y = dn->area.y;
		w->dmg[i].area.w = dn->area.width;
		w->dmg[i].area.h = dn->area.height;
		w->dmg[i].time_us = now;
		w->dmg_len++;
		if (w->wake && !w->quit && !w->abandoned)
			w->wake(w->wake_data);
	}
	pthread_mutex_unlock(&w->mu);
}

static void
pump_events(struct worker *w)
{
	XEvent ev;

	while (!w->dead && XPending(w->dpy) > 0) {
		XNextEvent(w->dpy, &ev);
		handle_event(w, &ev);
	}
}

/* A window redirected just now: wait until the app has repainted. */
static void
wait_repaint(struct worker *w, struct tracked *t)
{
	struct pollfd pfd = { ConnectionNumber(w->dpy), POLLIN, 0 };

	if (!t->fresh || !w->have_damage || !t->damage)
		return;
	for (;;) {
		int64_t now;

		pump_events(w);
		if (w->dead)
			return;
		now = cua_now_us();
		/* a repaint of most of the window is complete when its
		 * damage arrives; smaller ones may come in several parts
		 * (an app that animates never goes quiet: the cap) */
		if (now - t->redirected_at >= REPAINT_CAP_US || t->app_full ||
		    (t->app_damage && now - t->app_damage >= REPAINT_QUIET_US))
			break;
		poll(&pfd, 1,
		     t->app_damage ? (int)(REPAINT_QUIET_US / 1000 + 1) :
				     (int)((t->redirected_at + REPAINT_CAP_US -
					    now) / 1000 +
					   1));
	}
	t->fresh = 0;
}

static int
is_iconic(struct worker *w, Window win)
{
	unsigned long st;

	return card_prop(w, win, w->a_wm_state, w->a_wm_state, &st, 1) == 1 &&
	       st == IconicState;
}

static uint32_t
mask32(unsigned long m)
{
	return (uint32_t)(m & 0xffffffffu);
}

static void
shm_release(struct worker *w)
{
	if (!w->shm_size)
		return;
	x11_trap_begin();
	XShmDetach(w->dpy, &w->shm);
	x11_trap_end(w->x);
	shmdt(w->shm.shmaddr);
	w->shm_size = 0;
}

/* A shared segment of at least `size` bytes attached to the server; 0 or
 * -1 (then XGetImage is used, and MIT-SHM is not tried again). */
static int
shm_reserve(struct worker *w, size_t size)
{
	if (w->shm_size >= size)
		return 0;
	shm_release(w);
	size = (size + 0xfffff) & ~(size_t)0xfffff; /* whole MiB: fewer redos */
	memset(&w->shm, 0, sizeof(w->shm));
	w->shm.shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
	if (w->shm.shmid < 0)
		goto fail;
	w->shm.shmaddr = shmat(w->shm.shmid, NULL, 0);
	if (w->shm.shmaddr == (char *)-1) {
		shmctl(w->shm.shmid, IPC_RMID, NULL);
		goto fail;
	}
	w->shm.readOnly = False;
	x11_trap_begin();
	XShmAttach(w->dpy, &w->shm);
	/* removed now, freed when both sides detach (or exit) */
	if (x11_trap_end(w->x) != 0) {
		shmdt(w->shm.shmaddr);
		shmctl(w->shm.shmid, IPC_RMID, NULL);
		goto fail;
	}
	shmctl(w->shm.shmid, IPC_RMID, NULL);
	w->shm_size = size;
	return 0;
fail:
	w->have_shm = 0; /* a remote server, or no SysV IPC */
	return -1;
}

/* The image of (x, y, width, height) of `d`: through MIT-SHM when it
 * works, else XGetImage. The data is malloc'd either way. */
static XImage *
read_image(struct worker *w, Drawable d, const XWindowAttributes *a, int x,
	   int y, int width, int height)
{
	XImage *im;

	if (w->have_shm) {
		im = XShmCreateImage(w->dpy, a->visual, (unsigned)a->depth,
				     ZPixmap, NULL, &w->shm, (unsigned)width,
				     (unsigned)height);
		if (im &&
		    shm_reserve(w, (size_t)im->bytes_per_line * height) == 0) {
			int ok;
			char *copy;

			im->data = w->shm.shmaddr;
			x11_trap_begin();
			ok = XShmGetImage(w->dpy, d, im, x, y, AllPlanes);
			if (x11_trap_end(w->x) != 0)
				ok = 0;
			copy = ok ? malloc((size_t)im->bytes_per_line *
					   height) :
				    NULL;
			if (copy)
				memcpy(copy, im->data,
				       (size_t)im->bytes_per_line * height);
			im->data = copy;
			if (copy)
				return im;
			XDestroyImage(im);
			return NULL;
		}
		if (im) {
			im->data = NULL;
			XDestroyImage(im);
		}
	}
	x11_trap_begin();
	im = XGetImage(w->dpy, d, x, y, (unsigned)width, (unsigned)height,
		       AllPlanes, ZPixmap);
	if (x11_trap_end(w->x) != 0 && im) {
		XDestroyImage(im);
		im = NULL;
	}
	return im;
}

/* The frame within the window: the window less its CSD shadow margins
 * (docs/screenshots.md §3), or all of it when they leave nothing. */
static void
frame_in_window(const int32_t ext[4], int width, int height, int *x, int *y,
		int *w, int *h)
{
	*x = ext[0];
	*y = ext[2];
	*w = width - ext[0] - ext[1];
	*h = height - ext[2] - ext[3];
	if (*w <= 0 || *h <= 0) {
		*x = *y = 0;
		*w = width;
		*h = height;
	}
}

/* A composite capture's place: the window at (rx, ry) on the root, its
 * frame at (fx, fy) in it. */
static void
place(struct cua_capture *c, int rx, int ry, const XWindowAttributes *a, int fx,
      int fy, int fw, int fh)
{
	c->frame = (struct cua_rect){ rx + fx, ry + fy, fw, fh };
	c->window = (struct cua_rect){ rx, ry, a->width, a->height };
	c->route = CUA_CAPTURE_COMPOSITE;
}

/* The attributes of `win` and its origin on the root; 0 when it is gone. */
static int
locate(struct worker *w, Window win, XWindowAttributes *a, int *rx, int *ry)
{
	Window child;
	int ok;

	x11_trap_begin();
	ok = XGetWindowAttributes(w->dpy, win, a) &&
	     XTranslateCoordinates(w->dpy, win, DefaultRootWindow(w->dpy), 0, 0,
				   rx, ry, &child);
	return (x11_trap_end(w->x) == 0) & ok;
}

/* The window's attributes and root origin, when it can be shown: what a
 * capture and a geometry answer both start from. */
static enum cua_capture_status
viewable(struct worker *w, Window win, XWindowAttributes *a, int *rx, int *ry)
{
	if (w->dead)
		return CUA_CAPTURE_NO_DISPLAY;
	if (!locate(w, win, a, rx, ry))
		return CUA_CAPTURE_UNIDENTIFIED;
	if (a->map_state != IsViewable)
		return is_iconic(w, win) ? CUA_CAPTURE_MINIMIZED :
					   CUA_CAPTURE_HIDDEN;
	return CUA_CAPTURE_OK;
}

static enum cua_capture_status
do_capture_once(struct worker *w, Window win, struct cua_capture **out);

/* A window that is being resized (an app that just mapped its window)
 * can change size between reading its geometry and its pixels: one more
 * try. */
static enum cua_capture_status
do_capture(struct worker *w, Window win, struct cua_capture **out)
{
	enum cua_capture_status st = do_capture_once(w, win, out);

	for (int i = 0; i < 3 && st == CUA_CAPTURE_REFUSED && !w->dead; i++) {
		usleep(100 * 1000);
		pump_events(w);
		st = do_capture_once(w, win, out);
	}
	return st;
}

static enum cua_capture_status
do_capture_once(struct worker *w, Window win, struct cua_capture **out)
{
	XWindowAttributes a;
	struct tracked *t;
	struct cua_capture *c;
	XImage *im = NULL;
	int rx = 0, ry = 0, cx, cy, cw, ch;
	int32_t ext[4];
	int64_t t0 = cua_now_us();
	Pixmap pix = 0;
	uint64_t stamp = 0;
	enum cua_capture_status st;

	*out = NULL;
	if ((st = viewable(w, win, &a, &rx, &ry)) != CUA_CAPTURE_OK)
		return st;

	t = track(w, win);
	read_extents(w, win, ext);
	if (t && memcmp(ext, t->ext, sizeof(ext)) != 0) {
		memcpy(t->ext, ext, sizeof(ext));
		remember_extents(w, win, ext);
	}
	frame_in_window(ext, a.width, a.height, &cx, &cy, &cw, &ch);

	if (w->have_composite && t) {
		wait_repaint(w, t);
		int err;

		x11_trap_begin();
		pix = XCompositeNameWindowPixmap(w->dpy, win);
		if ((err = x11_trap_end(w->x)) != 0) {
			snprintf(w->why, sizeof(w->why),
				 "NameWindowPixmap: X error %d", err);
			pix = 0;
			/* not (or no longer) redirected by us: redo it on
			 * the next try */
			if (t->damage) {
				x11_trap_begin();
				XDamageDestroy(w->dpy, t->damage);
				x11_trap_end(w->x);
			}
			forget_tracked(w, t);
			t = NULL;
		}
		if (pix) {
			/* before the read: every change stamped after this
			 * may be missing from the image */
			stamp = t && t->damage && !t->fresh ? next_stamp() : 0;
			im = read_image(w, pix, &a, cx, cy, cw, ch);
			if (!im)
				snprintf(
					w->why, sizeof(w->why),
					"reading %dx%d+%d+%d of a %dx%d depth %d "
					"window failed",
					cw, ch, cx, cy, a.width, a.height,
					a.depth);
			x11_trap_begin();
			XFreePixmap(w->dpy, pix);
			x11_trap_end(w->x);
		}
	} else {
		/* no Composite: only a window wholly on the screen can be
		 * read (covered parts come back as whatever covers them) */
		if (rx + cx < 0 || ry + cy < 0 ||
		    rx + cx + cw >
			    DisplayWidth(w->dpy, DefaultScreen(w->dpy)) ||
		    ry + cy + ch > DisplayHeight(w->dpy, DefaultScreen(w->dpy)))
			return CUA_CAPTURE_OFFSCREEN;
		im = read_image(w, win, &a, cx, cy, cw, ch);
	}
	if (!im)
		return w->dead ? CUA_CAPTURE_NO_DISPLAY : CUA_CAPTURE_REFUSED;
	if (im->bits_per_pixel != 16 && im->bits_per_pixel != 24 &&
	    im->bits_per_pixel != 32) {
		XDestroyImage(im);
		return CUA_CAPTURE_REFUSED;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		XDestroyImage(im);
		return CUA_CAPTURE_REFUSED;
	}
	/* take the pixel data (Xlib allocated it with malloc) */
	c->px.data = (uint8_t *)im->data;
	im->data = NULL;
	c->px.stride = (size_t)im->bytes_per_line;
	c->px.width = (uint32_t)im->width;
	c->px.height = (uint32_t)im->height;
	c->px.bits_per_pixel = (uint32_t)im->bits_per_pixel;
	c->px.msb_first = im->byte_order == MSBFirst;
	c->px.red_mask = mask32(a.visual->red_mask);
	c->px.green_mask = mask32(a.visual->green_mask);
	c->px.blue_mask = mask32(a.visual->blue_mask);
	if (a.depth == 32)
		c->px.alpha_mask =
			~(c->px.red_mask | c->px.green_mask | c->px.blue_mask);
	XDestroyImage(im);
	place(c, rx, ry, &a, cx, cy, cw, ch);
	c->stamp = stamp;
	c->capture_us = cua_now_us() - t0;
	*out = c;
	return CUA_CAPTURE_OK;
}

/* The answer to cua_capture_request.geometry_only: the frame and window
 * do_capture_once() would give, without redirecting or reading the
 * window. */
static enum cua_capture_status
do_geometry(struct worker *w, Window win, struct cua_capture **out)
{
	XWindowAttributes a;
	struct cua_capture *c;
	int rx = 0, ry = 0, fx, fy, fw, fh;
	int32_t ext[4];
	enum cua_capture_status st;

	*out = NULL;
	if ((st = viewable(w, win, &a, &rx, &ry)) != CUA_CAPTURE_OK)
		return st;
	read_extents(w, win, ext);
	frame_in_window(ext, a.width, a.height, &fx, &fy, &fw, &fh);
	if (!w->have_composite &&
	    (rx + fx < 0 || ry + fy < 0 ||
	     rx + fx + fw > DisplayWidth(w->dpy, DefaultScreen(w->dpy)) ||
	     ry + fy + fh > DisplayHeight(w->dpy, DefaultScreen(w->dpy))))
		return CUA_CAPTURE_OFFSCREEN;
	c = calloc(1, sizeof(*c));
	if (!c)
		return CUA_CAPTURE_REFUSED;
	place(c, rx, ry, &a, fx, fy, fw, fh);
	c->geometry_only = 1;
	*out = c;
	return CUA_CAPTURE_OK;
}

/* The answer to cua_capture_request.unchanged_since: an empty capture
 * with `unchanged` set when the worker can prove that nothing in `win`
 * changed since the capture stamped `since`, else NULL (capture). */
static struct cua_capture *
still_unchanged(struct worker *w, Window win, uint64_t since, int popups)
{
	XWindowAttributes a;
	struct tracked *t;
	struct cua_capture *c;
	int rx = 0, ry = 0, fx, fy, fw, fh;
	int32_t ext[4];

	if (!since || w->dead || !w->have_composite || !w->have_damage)
		return NULL;
	/* every damage the server reported before this is read now */
	XSync(w->dpy, False);
	pump_events(w);
	t = find_tracked(w, win);
	if (w->dead || !t || !t->damage || t->fresh || t->changed > since)
		return NULL;
	if (!locate(w, win, &a, &rx, &ry) || a.map_state != IsViewable)
		return NULL;
	read_extents(w, win, ext);
	if (memcmp(ext, t->ext, sizeof(ext)) != 0)
		return NULL;
	frame_in_window(ext, a.width, a.height, &fx, &fy, &fw, &fh);
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	place(c, rx, ry, &a, fx, fy, fw, fh);
	c->stamp = since;
	c->unchanged = 1;
	/* a popup open over the window now would be in a capture; a change
	 * may have come while we looked */
	if (!(popups &&
	      x11_count_popups(w->x, win, w->a_wm_pid, &c->frame) != 0)) {
		pump_events(w);
		if (!w->dead && find_tracked(w, win) == t &&
		    t->changed <= since)
			return c;
	}
	free(c);
	return NULL;
}

static void *
worker_main(void *data)
{
	struct worker *w = data;
	struct pollfd pfd[2];
	int major = 0, minor = 0, ev_base = 0, err_base = 0, freed;

	w->x = x11_open(w->display_name);
	w->dpy = w->x ? x11_display(w->x) : NULL;
	if (!w->dpy) {
		w->dead = 1;
	} else {
		w->a_frame_extents =
			XInternAtom(w->dpy, "_GTK_FRAME_EXTENTS", False);
		w->a_wm_state = XInternAtom(w->dpy, "WM_STATE", False);
		w->a_wm_pid = XInternAtom(w->dpy, "_NET_WM_PID", False);
		if (XCompositeQueryExtension(w->dpy, &ev_base, &err_base)) {
			major = 0;
			minor = 2;
			if (XCompositeQueryVersion(w->dpy, &major, &minor) &&
			    (major > 0 || minor >= 2))
				w->have_composite = 1;
		}
		if (XDamageQueryExtension(w->dpy, &w->damage_event, &err_base))
			w->have_damage = 1;
		w->have_shm = XShmQueryExtension(w->dpy);
	}
	pfd[0].fd = w->efd;
	pfd[0].events = POLLIN;
	pfd[1].fd = w->dpy ? ConnectionNumber(w->dpy) : -1;
	pfd[1].events = POLLIN;

	for (;;) {
		Window q[MAX_TRACKED];
		size_t nq;
		int cap, popups, geometry;
		uint64_t since;
		Window cw;
		uint64_t junk;

		pthread_mutex_lock(&w->mu);
		if (w->quit || w->abandoned) {
			pthread_mutex_unlock(&w->mu);
			break;
		}
		nq = w->n_track;
		memcpy(q, w->track_q, nq * sizeof(q[0]));
		w->n_track = 0;
		cap = w->cap_pending;
		cw = w->cap_window;
		popups = w->cap_popups;
		since = w->cap_since;
		geometry = w->cap_geometry;
		w->cap_pending = 0;
		pthread_mutex_unlock(&w->mu);

		for (size_t i = 0; i < nq; i++)
			track(w, q[i]);
		if (cap) {
			struct cua_capture *c =
				geometry ?
					NULL :
					still_unchanged(w, cw, since, popups);
			enum cua_capture_status st = CUA_CAPTURE_OK;

			if (geometry) {
				st = do_geometry(w, cw, &c);
			} else if (!c) {
				st = do_capture(w, cw, &c);
				if (st == CUA_CAPTURE_OK && c && popups)
					c->popups = x11_paste_popups(
						w->x, cw, w->a_wm_pid, c);
				/* a popup's own changes are not tracked */
				if (c && c->popups)
					c->stamp = 0;
			}

			pthread_mutex_lock(&w->mu);
			if (w->abandoned) {
				cua_capture_free(c);
			} else {
				w->cap_out = c;
				w->cap_status = st;
				w->cap_done = 1;
				pthread_cond_broadcast(&w->cv);
			}
			pthread_mutex_unlock(&w->mu);
		}
		if (!w->dead)
			pump_events(w);
		if (w->dead) {
			/* nothing to read from; wait for requests only */
			pfd[1].fd = -1;
		}
		if (poll(pfd, 2, -1) > 0 && (pfd[0].revents & POLLIN)) {
			ssize_t r = read(w->efd, &junk, sizeof(junk));

			(void)r;
		}
	}
	if (w->x) {
		shm_release(w);
		x11_close(w->x);
	}
	w->x = NULL;
	w->dpy = NULL;
	pthread_mutex_lock(&w->mu);
	w->finished = 1;
	pthread_cond_broadcast(&w->cv);
	worker_unref_locked(w, &freed);
	pthread_mutex_unlock(&w->mu);
	if (freed)
		worker_destroy(w);
	return NULL;
}

static struct worker *
worker_start(struct shots *sh)
{
	struct worker *w = calloc(1, sizeof(*w));
	const char *name = x11_display_name(sh->xd->x);
	pthread_attr_t attr;
	pthread_t th;
	sigset_t all, old;
	int r;

	if (!w)
		return NULL;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	w->display_name = name ? strdup(name) : NULL;
	w->wake = sh->xd->base.hooks.wake;
	w->wake_data = sh->xd->base.hooks.wake_data;
	w->refs = 2;
	if (w->efd < 0 || (name && !w->display_name)) {
		w->refs = 1;
		worker_unref(w);
		return NULL;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* the worker takes no signals: the host program's stay on its own
	 * threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&th, &attr, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (r != 0) {
		w->refs = 1;
		worker_unref(w);
		return NULL;
	}
	return w;
}

/* The live worker, starting one when none runs. NULL when a hung one is
 * still running (xwd route) or no thread can be started. */
static struct worker *
get_worker(struct shots *sh)
{
	if (sh->abandoned) {
		int done;

		pthread_mutex_lock(&sh->abandoned->mu);
		done = sh->abandoned->finished;
		pthread_mutex_unlock(&sh->abandoned->mu);
		if (!done)
			return NULL;
		worker_unref(sh->abandoned);
		sh->abandoned = NULL;
	}
	if (!sh->w)
		sh->w = worker_start(sh);
	return sh->w;
}

struct shots *
shots_new(struct x11_driver *xd)
{
	struct shots *sh;

	if (!xd->x)
		return NULL;
	sh = calloc(1, sizeof(*sh));
	if (sh)
		sh->xd = xd;
	return sh;
}

static void
worker_release(struct worker *w, int quit)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	if (quit)
		w->quit = 1;
	pthread_mutex_unlock(&w->mu);
	worker_kick(w);
	if (quit) {
		/* Let the worker close its X connection before we return: a
		 * process that exits while the worker is inside XCloseDisplay
		 * races libXext's teardown and crashes. Bounded, so a hung
		 * worker still cannot hang the caller. */
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 500 * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&w->mu);
		while (!w->finished &&
		       pthread_cond_timedwait(&w->cv, &w->mu, &until) == 0)
			;
		pthread_mutex_unlock(&w->mu);
	}
	worker_unref(w);
}

void
shots_free(struct shots *sh)
{
	if (!sh)
		return;
	worker_release(sh->w, 1);
	if (sh->abandoned)
		worker_unref(sh->abandoned);
	free(sh);
}

/*
 * After the X server went away and the driver opened a connection to the
 * new one (reconnect): the worker's own connection is dead for good,
 * so let it go; the next capture starts a worker on the new server.
 */
void
shots_reset(struct shots *sh)
{
	if (!sh)
		return;
	worker_release(sh->w, 1);
	sh->w = NULL;
}

size_t
x11d_take_damage(struct cua_display *d, struct cua_display_damage *out,
		 size_t max)
{
	struct shots *sh = x11_driver(d)->shots;
	struct worker *w = sh ? sh->w : NULL;
	size_t n = 0;

	if (!w)
		return 0;
	pthread_mutex_lock(&w->mu);
	while (n < max && w->dmg_len > 0) {
		out[n++] = w->dmg[w->dmg_head];
		w->dmg_head = (w->dmg_head + 1) % DAMAGE_QUEUE;
		w->dmg_len--;
	}
	pthread_mutex_unlock(&w->mu);
	return n;
}

void
x11d_track_window(struct cua_display *d, uint64_t window)
{
	struct x11_driver *xd = x11_driver(d);
	struct worker *w;

	if (!xd->shots || !window)
		return;
	w = get_worker(xd->shots);
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	if (w->n_track < MAX_TRACKED)
		w->track_q[w->n_track++] = (Window)window;
	pthread_mutex_unlock(&w->mu);
	worker_kick(w);
}

/* ------------------------------------------------------------------ */

cua_result
x11d_capture(struct cua_display *b, const struct cua_capture_request *req,
	     struct cua_capture **out, enum cua_capture_status *status)
{
	struct shots *sh = x11_driver(b)->shots;
	struct worker *w;
	struct timespec ts;
	int64_t deadline;
	int32_t ext[4] = { 0, 0, 0, 0 };
	int done = 0, rc = 0;

	*out = NULL;
	*status = CUA_CAPTURE_NO_DISPLAY;
	if (!sh)
		return cua_error(CUA_ERROR_UNSUPPORTED, "no X11 display");
	if (!req->window) {
		*status = CUA_CAPTURE_UNIDENTIFIED;
		return cua_error(CUA_ERROR_NOT_FOUND, "no X11 window");
	}
	w = get_worker(sh);
	if (!w && sh->abandoned) {
		/* a hung capture still runs: straight to the subprocess */
		*status = capture_xwd(x11_display_name(sh->xd->x), b->ctx,
				      req->window,
				      req->fallback_timeout_ms > 0 ?
					      req->fallback_timeout_ms :
					      3000,
				      NULL, out);
		return *status == CUA_CAPTURE_OK ?
			       CUA_OK :
			       cua_error(CUA_ERROR_TIMEOUT,
					 "the capture timed out");
	}
	if (!w)
		return cua_error(CUA_ERROR_NOMEM,
				 "cannot start the capture worker");

	deadline =
		cua_now_us() +
		(int64_t)(req->timeout_ms > 0 ? req->timeout_ms : 2500) * 1000;
	pthread_mutex_lock(&w->mu);
	cua_capture_free(w->cap_out);
	w->cap_out = NULL;
	w->cap_done = 0;
	w->cap_pending = 1;
	w->cap_window = (Window)req->window;
	w->cap_popups = req->popups;
	w->cap_since = req->unchanged_since;
	w->cap_geometry = req->geometry_only;
	pthread_mutex_unlock(&w->mu);
	worker_kick(w);

	ts.tv_sec = 0;
	pthread_mutex_lock(&w->mu);
	while (!w->cap_done && !w->finished && rc != ETIMEDOUT) {
		/* pthread_cond_timedwait takes CLOCK_REALTIME */
		struct timespec now;
		int64_t left = deadline - cua_now_us();

		if (left <= 0) {
			rc = ETIMEDOUT;
			break;
		}
		clock_gettime(CLOCK_REALTIME, &now);
		ts.tv_sec = now.tv_sec + (time_t)(left / 1000000);
		ts.tv_nsec = now.tv_nsec + (long)(left % 1000000) * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		rc = pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	}
	done = w->cap_done;
	if (done) {
		*out = w->cap_out;
		*status = w->cap_status;
		w->cap_out = NULL;
		w->cap_done = 0;
		if (*status != CUA_CAPTURE_OK && w->why[0])
			cua_debug(b->ctx, "capture: window 0x%llx: %s",
				  (unsigned long long)req->window, w->why);
		w->why[0] = '\0';
	} else {
		for (size_t i = 0; i < w->n_ext; i++)
			if (w->ext_cache[i].w == (Window)req->window)
				memcpy(ext, w->ext_cache[i].ext, sizeof(ext));
		w->abandoned = 1;
	}
	pthread_mutex_unlock(&w->mu);

	if (!done) {
		/* hung (or the thread died): abandon it; it frees itself */
		cua_debug(b->ctx,
			  "capture: window 0x%llx timed out; trying xwd",
			  (unsigned long long)req->window);
		sh->abandoned = w;
		sh->w = NULL;
		worker_kick(w);
		*status = capture_xwd(x11_display_name(sh->xd->x), b->ctx,
				      req->window,
				      req->fallback_timeout_ms > 0 ?
					      req->fallback_timeout_ms :
					      3000,
				      ext, out);
		if (*status != CUA_CAPTURE_OK)
			return cua_error(CUA_ERROR_TIMEOUT,
					 "the capture timed out");
		return CUA_OK;
	}
	if (*status != CUA_CAPTURE_OK) {
		cua_capture_free(*out);
		*out = NULL;
		return cua_error(CUA_ERROR_BACKEND, "capture failed (%d)",
				 (int)*status);
	}
	return CUA_OK;
}
