/*
 * The person at the desktop (docs/safety.md §6): a thread with an X
 * connection of its own reads XInput2 raw events (key and button
 * presses, pointer motion) from every device except the XTEST ones — the synthetic input
 * of libcua and of any other program — and, while the core asks for it,
 * holds a passive XI2 grab on the stop hotkey (Ctrl+Alt+Shift+Escape),
 * whose presses from an XTEST device are ignored too.
 *
 * For each press it reports the windows involved, innermost first: for a
 * key the window with that keyboard's focus and its ancestors, for a
 * button the windows under that pointer from the top-level down (the core
 * asks whether the app's window is among them).
 *
 * Test desktops (Xvfb) have no physical device. CUA_TEST_PERSON_MASTER
 * names a master device whose XTEST slaves count as a person's (a test
 * creates that master and types through it); it is for tests only.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/keysym.h>

#include "x11.h"

#define MAX_DEVICES 128
#define MAX_CHAIN 8

struct user_watch {
	struct x11 *x;
	pthread_t thread;
	int wake[2]; /* pipe: commands to the thread */
	pthread_mutex_t mu;
	pthread_cond_t cond;
	unsigned long synced; /* sync requests answered */
	int want_grab, grabbed;
	int xi_opcode;
	int xtest[MAX_DEVICES]; /* device ids that are XTEST slaves */
	size_t n_xtest;
	/* master keyboards and the master pointer each is paired with */
	int kbd[MAX_DEVICES], paired[MAX_DEVICES];
	size_t n_kbd;
	cua_user_fn fn;
	void *data;
	struct cua_ctx *ctx;
};

static int
is_xtest(const struct user_watch *w, int id)
{
	for (size_t i = 0; i < w->n_xtest; i++)
		if (w->xtest[i] == id)
			return 1;
	return 0;
}

/* Which slaves are XTEST devices ("… XTEST keyboard", "… XTEST pointer"),
 * minus the test person's. */
static void
load_devices(struct user_watch *w, Display *d)
{
	const char *person = secure_getenv("CUA_TEST_PERSON_MASTER");
	XIDeviceInfo *info;
	int n;

	w->n_xtest = 0;
	w->n_kbd = 0;
	info = XIQueryDevice(d, XIAllDevices, &n);
	for (int i = 0; info && i < n && w->n_xtest < MAX_DEVICES; i++) {
		const char *name = info[i].name ? info[i].name : "";

		if (info[i].use == XIMasterKeyboard && w->n_kbd < MAX_DEVICES) {
			w->kbd[w->n_kbd] = info[i].deviceid;
			w->paired[w->n_kbd++] = info[i].attachment;
		}
		if (info[i].use == XIMasterPointer ||
		    info[i].use == XIMasterKeyboard || !strstr(name, " XTEST "))
			continue;
		if (person && *person &&
		    strncmp(name, person, strlen(person)) == 0 &&
		    strncmp(name + strlen(person), " XTEST ", 7) == 0)
			continue;
		w->xtest[w->n_xtest++] = info[i].deviceid;
	}
	if (info)
		XIFreeDeviceInfo(info);
}

/* The window `start` and its ancestors below the root. */
static size_t
ancestors(Display *d, Window start, uint64_t *out)
{
	Window w = start, root, parent, *kids;
	unsigned int nk;
	size_t n = 0;

	while (w && w != DefaultRootWindow(d) && n < MAX_CHAIN) {
		out[n++] = w;
		if (!XQueryTree(d, w, &root, &parent, &kids, &nk))
			break;
		if (kids)
			XFree(kids);
		w = parent;
	}
	return n;
}

/* The windows under master pointer `dev`, from the top-level down. */
static size_t
under_pointer(Display *d, int dev, uint64_t *out)
{
	Window w = DefaultRootWindow(d), root, child;
	double rx, ry, wx, wy;
	XIButtonState b;
	XIModifierState m;
	XIGroupState g;
	size_t n = 0;

	while (n < MAX_CHAIN) {
		memset(&b, 0, sizeof(b));
		if (!XIQueryPointer(d, dev, w, &root, &child, &rx, &ry, &wx,
				    &wy, &b, &m, &g))
			break;
		free(b.mask);
		if (!child)
			break;
		out[n++] = child;
		w = child;
	}
	return n;
}

/* The master pointer paired with master keyboard `kbd`, or -1. */
static int
paired_pointer(const struct user_watch *w, int kbd)
{
	for (size_t i = 0; i < w->n_kbd; i++)
		if (w->kbd[i] == kbd)
			return w->paired[i];
	return -1;
}

static void
set_grab(struct user_watch *w, Display *d, int on)
{
	static const int extra[] = { 0, Mod2Mask, LockMask,
				     Mod2Mask | LockMask };
	XIGrabModifiers mods[4];
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { XIAllMasterDevices, sizeof(bits), bits };
	KeyCode kc = XKeysymToKeycode(d, XK_Escape);

	if (!kc || on == w->grabbed)
		return;
	for (int i = 0; i < 4; i++) {
		mods[i].modifiers =
			ControlMask | Mod1Mask | ShiftMask | extra[i];
		mods[i].status = 0;
	}
	x11_trap_begin();
	if (on) {
		XISetMask(bits, XI_KeyPress);
		XIGrabKeycode(d, XIAllMasterDevices, kc, DefaultRootWindow(d),
			      XIGrabModeAsync, XIGrabModeAsync, False, &mask, 4,
			      mods);
	} else {
		XIUngrabKeycode(d, XIAllMasterDevices, kc, DefaultRootWindow(d),
				4, mods);
	}
	XSync(d, False);
	if (x11_trap_end(w->x) == 0)
		w->grabbed = on;
	else
		cua_warn(w->ctx,
			 "x11: cannot %s the stop hotkey "
			 "Ctrl+Alt+Shift+Escape (another program holds it)",
			 on ? "grab" : "release");
}

static void
handle(struct user_watch *w, Display *d, XGenericEventCookie *c)
{
	struct cua_user_event ev;
	uint64_t chain[MAX_CHAIN];

	memset(&ev, 0, sizeof(ev));
	ev.time_us = cua_now_us();
	ev.windows = chain;
	switch (c->evtype) {
	case XI_HierarchyChanged:
		load_devices(w, d);
		return;
	case XI_RawKeyPress:
	case XI_RawButtonPress: {
		XIRawEvent *r = c->data;
		Window focus = 0;

		if (is_xtest(w, r->sourceid))
			return;
		if (c->evtype == XI_RawKeyPress) {
			ev.kind = CUA_USER_KEY;
			ev.keysym = (uint32_t)XkbKeycodeToKeysym(d, r->detail,
								 0, 0);
			x11_trap_begin();
			if (!XIGetFocus(d, r->deviceid, &focus))
				focus = 0;
			if (focus <= PointerRoot) {
				/* no focus of that keyboard's own: the core
				 * keyboard's */
				int revert;

				XGetInputFocus(d, &focus, &revert);
			}
			if (focus > PointerRoot) {
				ev.n_windows = ancestors(d, focus, chain);
			} else if (focus == PointerRoot &&
				   paired_pointer(w, r->deviceid) > 0) {
				/* keys go to the window under the pointer */
				ev.n_windows = under_pointer(
					d, paired_pointer(w, r->deviceid),
					chain);
			}
			x11_trap_end(w->x);
		} else {
			int pointer = r->deviceid;

			if (r->detail >= 4 && r->detail <= 7)
				return; /* wheel steps are no intervention */
			ev.kind = CUA_USER_BUTTON;
			x11_trap_begin();
			ev.n_windows = under_pointer(d, pointer, chain);
			x11_trap_end(w->x);
		}
		break;
	}
	case XI_RawMotion:
		/* the core counts it during drags only (docs/safety.md §6):
		 * no window is asked for, it comes often */
		if (is_xtest(w, ((XIRawEvent *)c->data)->sourceid))
			return;
		ev.kind = CUA_USER_MOTION;
		break;
	case XI_KeyPress: {
		XIDeviceEvent *k = c->data;

		/* the grabbed stop hotkey */
		if (is_xtest(w, k->sourceid))
			return;
		ev.kind = CUA_USER_STOP_KEY;
		ev.keysym = XK_Escape;
		break;
	}
	default:
		return;
	}
	w->fn(w->data, &ev);
}

/* Handles the events the connection has read or can read now. */
static void
handle_pending(struct user_watch *w, Display *d)
{
	XEvent e;

	while (XPending(d)) {
		XNextEvent(d, &e);
		if (e.type == GenericEvent &&
		    e.xcookie.extension == w->xi_opcode &&
		    XGetEventData(d, &e.xcookie)) {
			handle(w, d, &e.xcookie);
			XFreeEventData(d, &e.xcookie);
		}
	}
}

static void *
run(void *arg)
{
	struct user_watch *w = arg;
	Display *d = x11_display(w->x);
	struct pollfd p[2];
	char cmd;

	p[0].fd = ConnectionNumber(d);
	p[0].events = POLLIN;
	p[1].fd = w->wake[0];
	p[1].events = POLLIN;
	for (;;) {
		int want_sync = 0;

		handle_pending(w, d);
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents & (POLLERR | POLLHUP))
			break; /* the X server went away */
		if (!(p[1].revents & POLLIN))
			continue;
		if (read(w->wake[0], &cmd, 1) != 1 || cmd == 'q')
			break;
		if (cmd == 's')
			want_sync = 1;
		pthread_mutex_lock(&w->mu);
		int grab = w->want_grab;
		pthread_mutex_unlock(&w->mu);
		set_grab(w, d, grab);
		if (want_sync) {
			/* everything the server sent before now is handled */
			XSync(d, False);
			handle_pending(w, d);
			pthread_mutex_lock(&w->mu);
			w->synced++;
			pthread_cond_broadcast(&w->cond);
			pthread_mutex_unlock(&w->mu);
		}
	}
	pthread_mutex_lock(&w->mu);
	w->synced = (unsigned long)-1; /* nobody waits for a dead thread */
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int
x11d_user_watch(struct cua_display *dp, cua_user_fn fn, void *data, char *why,
		size_t size)
{
	struct x11_driver *xd = x11_driver(dp);
	struct user_watch *w;
	Display *d;
	int ev, er, major = 2, minor = 2;
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { XIAllMasterDevices, sizeof(bits), bits };
	unsigned char hbits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask hmask = { XIAllDevices, sizeof(hbits), hbits };

	if (xd->user)
		return 1;
	if (!xd->x) {
		snprintf(why, size, "no X server answers");
		return 0;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(why, size, "out of memory");
		return 0;
	}
	w->ctx = dp->ctx;
	w->fn = fn;
	w->data = data;
	w->x = x11_open(x11_display_name(xd->x));
	d = w->x ? x11_display(w->x) : NULL;
	if (!d ||
	    !XQueryExtension(d, "XInputExtension", &w->xi_opcode, &ev, &er) ||
	    XIQueryVersion(d, &major, &minor) != Success ||
	    (major * 100 + minor) < 202) {
		snprintf(why, size, "the X server has no XInput 2.2 extension");
		if (w->x)
			x11_close(w->x);
		free(w);
		return 0;
	}
	load_devices(w, d);
	XISetMask(bits, XI_RawKeyPress);
	XISetMask(bits, XI_RawButtonPress);
	XISetMask(bits, XI_RawMotion);
	XISetMask(hbits, XI_HierarchyChanged);
	x11_trap_begin();
	XISelectEvents(d, DefaultRootWindow(d), &mask, 1);
	XISelectEvents(d, DefaultRootWindow(d), &hmask, 1);
	XSync(d, False);
	if (x11_trap_end(w->x) != 0 || pipe(w->wake) < 0) {
		snprintf(why, size, "the X server refused XInput2 raw events");
		x11_close(w->x);
		free(w);
		return 0;
	}
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, run, w) != 0) {
		snprintf(why, size, "cannot start a thread");
		close(w->wake[0]);
		close(w->wake[1]);
		x11_close(w->x);
		free(w);
		return 0;
	}
	xd->user = w;
	return 1;
}

static void
command(struct user_watch *w, char c)
{
	while (write(w->wake[1], &c, 1) < 0 && errno == EINTR)
		;
}

void
x11d_user_stop_key(struct cua_display *dp, int grab)
{
	struct user_watch *w = x11_driver(dp)->user;

	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->want_grab = grab ? 1 : 0;
	pthread_mutex_unlock(&w->mu);
	command(w, 'g');
}

void
x11d_user_sync(struct cua_display *dp, int timeout_ms)
{
	struct user_watch *w = x11_driver(dp)->user;
	struct timespec until;
	unsigned long want;

	if (!w)
		return;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)timeout_ms * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&w->mu);
	want = w->synced + 1;
	command(w, 's');
	while (w->synced < want &&
	       pthread_cond_timedwait(&w->cond, &w->mu, &until) == 0)
		;
	pthread_mutex_unlock(&w->mu);
}

void
x11_user_free(struct x11_driver *xd)
{
	struct user_watch *w = xd->user;

	if (!w)
		return;
	command(w, 'q');
	pthread_join(w->thread, NULL);
	close(w->wake[0]);
	close(w->wake[1]);
	x11_close(w->x);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cond);
	free(w);
	xd->user = NULL;
}
