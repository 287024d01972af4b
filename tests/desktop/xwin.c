/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include "harness.h"
#include "xwin.h"

static Display *
dpy(void)
{
	static Display *d;

	if (!d)
		d = XOpenDisplay(NULL);
	return d;
}

/* A CARDINAL/WINDOW/ATOM property as an array of longs (XFree it). */
static unsigned long *
prop_longs(Display *d, Window w, const char *name, Atom type, unsigned long *n)
{
	Atom actual;
	int format;
	unsigned long after;
	unsigned char *data = NULL;

	*n = 0;
	if (XGetWindowProperty(d, w, XInternAtom(d, name, False), 0, 4096,
			       False, type, &actual, &format, n, &after,
			       &data) != Success ||
	    format != 32 || !data) {
		if (data)
			XFree(data);
		*n = 0;
		return NULL;
	}
	return (unsigned long *)(void *)data;
}

int
xwin_geometry(unsigned long w, int *x, int *y, int *width, int *height)
{
	Display *d = dpy();
	XWindowAttributes a;
	Window child;

	if (!d || !XGetWindowAttributes(d, w, &a) ||
	    !XTranslateCoordinates(d, w, DefaultRootWindow(d), 0, 0, x, y,
				   &child))
		return -1;
	*width = a.width;
	*height = a.height;
	return 0;
}

unsigned long
xwin_find(pid_t pid, int timeout_ms)
{
	Display *d = dpy();
	int64_t deadline = now_ms() + timeout_ms;

	while (d) {
		unsigned long n = 0, *list, best = 0;
		long best_area = 0;

		list = prop_longs(d, DefaultRootWindow(d), "_NET_CLIENT_LIST",
				  XA_WINDOW, &n);
		for (unsigned long i = 0; i < n; i++) {
			unsigned long np = 0, *p;
			XWindowAttributes a;

			p = prop_longs(d, list[i], "_NET_WM_PID", XA_CARDINAL,
				       &np);
			if (p && np >= 1 && (pid_t)p[0] == pid &&
			    XGetWindowAttributes(d, list[i], &a) &&
			    a.map_state == IsViewable &&
			    (long)a.width * a.height > best_area) {
				best = list[i];
				best_area = (long)a.width * a.height;
			}
			if (p)
				XFree(p);
		}
		if (list)
			XFree(list);
		if (best || now_ms() > deadline)
			return best;
		usleep(100 * 1000);
	}
	return 0;
}

unsigned long
xwin_find_title(const char *part, int timeout_ms, pid_t *pid)
{
	Display *d = dpy();
	int64_t deadline = now_ms() + timeout_ms;
	Atom utf8 = d ? XInternAtom(d, "UTF8_STRING", False) : 0;

	*pid = 0;
	while (d) {
		unsigned long n = 0, *list, found = 0;

		list = prop_longs(d, DefaultRootWindow(d), "_NET_CLIENT_LIST",
				  XA_WINDOW, &n);
		for (unsigned long i = 0; i < n && !found; i++) {
			Atom actual;
			int format;
			unsigned long len, after, np = 0, *p;
			unsigned char *title = NULL;
			XWindowAttributes a;

			if (XGetWindowProperty(
				    d, list[i],
				    XInternAtom(d, "_NET_WM_NAME", False), 0,
				    1024, False, utf8, &actual, &format, &len,
				    &after, &title) != Success)
				continue;
			if (title && format == 8 &&
			    strstr((const char *)title, part) &&
			    XGetWindowAttributes(d, list[i], &a) &&
			    a.map_state == IsViewable) {
				found = list[i];
				p = prop_longs(d, list[i], "_NET_WM_PID",
					       XA_CARDINAL, &np);
				if (p && np >= 1)
					*pid = (pid_t)p[0];
				if (p)
					XFree(p);
			}
			if (title)
				XFree(title);
		}
		if (list)
			XFree(list);
		if (found || now_ms() > deadline)
			return found;
		usleep(100 * 1000);
	}
	return 0;
}

static int
is_maximized(Display *d, Window w)
{
	Atom v = XInternAtom(d, "_NET_WM_STATE_MAXIMIZED_VERT", False);
	Atom h = XInternAtom(d, "_NET_WM_STATE_MAXIMIZED_HORZ", False);
	unsigned long n = 0,
		      *st = prop_longs(d, w, "_NET_WM_STATE", XA_ATOM, &n);
	int found = 0;

	for (unsigned long i = 0; i < n; i++)
		if (st[i] == v || st[i] == h)
			found++;
	if (st)
		XFree(st);
	return found == 2;
}

int
xwin_maximize(unsigned long w, int on, int timeout_ms)
{
	Display *d = dpy();
	XEvent ev;
	int64_t deadline = now_ms() + timeout_ms, stable = 0;
	int g[4] = { 0 }, prev[4] = { -1, -1, -1, -1 };

	if (!d)
		return -1;
	memset(&ev, 0, sizeof(ev));
	ev.xclient.type = ClientMessage;
	ev.xclient.send_event = True;
	ev.xclient.display = d;
	ev.xclient.window = w;
	ev.xclient.message_type = XInternAtom(d, "_NET_WM_STATE", False);
	ev.xclient.format = 32;
	ev.xclient.data.l[0] = on ? 1 : 0; /* _NET_WM_STATE_ADD / REMOVE */
	ev.xclient.data.l[1] =
		(long)XInternAtom(d, "_NET_WM_STATE_MAXIMIZED_VERT", False);
	ev.xclient.data.l[2] =
		(long)XInternAtom(d, "_NET_WM_STATE_MAXIMIZED_HORZ", False);
	ev.xclient.data.l[3] = 1; /* a normal application */
	XSendEvent(d, DefaultRootWindow(d), False,
		   SubstructureRedirectMask | SubstructureNotifyMask, &ev);
	XFlush(d);
	while (now_ms() < deadline) {
		usleep(50 * 1000);
		if (is_maximized(d, w) != on ||
		    xwin_geometry(w, &g[0], &g[1], &g[2], &g[3]) < 0) {
			stable = 0;
			continue;
		}
		if (memcmp(g, prev, sizeof(g)) != 0) {
			memcpy(prev, g, sizeof(g));
			stable = now_ms();
		} else if (now_ms() - stable >= 300) {
			return 0;
		}
	}
	return -1;
}

int
xwin_pointer(int *x, int *y)
{
	Display *d = dpy();
	Window root, child;
	int wx, wy;
	unsigned int mask;

	if (!d || !XQueryPointer(d, DefaultRootWindow(d), &root, &child, x, y,
				 &wx, &wy, &mask))
		return -1;
	return 0;
}

/* A window that went away while it was read is not counted. */
static int
ignore_error(Display *d, XErrorEvent *e)
{
	(void)d;
	(void)e;
	return 0;
}

int
xwin_popups(void)
{
	Display *d = dpy();
	Window root, parent, *kids = NULL;
	unsigned int n = 0;
	int count = 0;
	int (*old)(Display *, XErrorEvent *);

	if (!d ||
	    !XQueryTree(d, DefaultRootWindow(d), &root, &parent, &kids, &n))
		return -1;
	XSync(d, False);
	old = XSetErrorHandler(ignore_error);
	for (unsigned int i = 0; i < n; i++) {
		XWindowAttributes a;

		if (XGetWindowAttributes(d, kids[i], &a) &&
		    a.override_redirect && a.map_state == IsViewable)
			count++;
	}
	XSync(d, False);
	XSetErrorHandler(old);
	if (kids)
		XFree(kids);
	return count;
}
