/*
 * The app's open popups in the capture of one of its windows
 * (docs/screenshots.md §1): menus, drop-downs and tooltips are
 * override-redirect windows of their own, so the window's pixmap does not
 * show them. Each viewable override-redirect window of the window's
 * process (_NET_WM_PID) stacked above it and overlapping its frame is read
 * (the part that overlaps the frame and lies on the screen) and pasted
 * onto the capture at its place; the capture keeps the window's frame, so
 * pixels still map to the window's points.
 *
 * A popup is read from the window itself (XGetImage), not from a
 * redirected pixmap: it is the topmost thing on the screen while it is
 * open, and redirecting it now would give a black pixmap until it
 * repaints.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "x11.h"

static int64_t
window_pid(struct x11 *x, Display *dpy, Window win, Atom a_pid)
{
	Atom type = None;
	int format = 0;
	unsigned long n = 0, after = 0;
	unsigned char *d = NULL;
	int64_t pid = 0;

	x11_trap_begin();
	if (XGetWindowProperty(dpy, win, a_pid, 0, 1, False, XA_CARDINAL, &type,
			       &format, &n, &after, &d) == Success &&
	    format == 32 && n == 1)
		pid = (int64_t)((unsigned long *)(void *)d)[0];
	if (d)
		XFree(d);
	if (x11_trap_end(x) != 0)
		return 0;
	return pid;
}

/* The root's child that holds `win` (a window manager's frame, or win);
 * 0 when it cannot be read. */
static Window
top_of(struct x11 *x, Display *dpy, Window win)
{
	Window root = DefaultRootWindow(dpy), parent = 0, r, top = win;
	Window *kids = NULL;
	unsigned int nk = 0;

	for (int depth = 0; depth < 32; depth++) {
		int ok;

		x11_trap_begin();
		ok = XQueryTree(dpy, top, &r, &parent, &kids, &nk);
		if (x11_trap_end(x) != 0)
			ok = 0;
		if (kids)
			XFree(kids);
		kids = NULL;
		if (!ok || !parent)
			return 0;
		if (parent == root)
			return top;
		top = parent;
	}
	return 0;
}

static int
intersect(struct cua_rect *a, const struct cua_rect *b)
{
	int32_t x0 = a->x > b->x ? a->x : b->x;
	int32_t y0 = a->y > b->y ? a->y : b->y;
	int64_t x1 = (int64_t)a->x + a->w, y1 = (int64_t)a->y + a->h;

	if ((int64_t)b->x + b->w < x1)
		x1 = (int64_t)b->x + b->w;
	if ((int64_t)b->y + b->h < y1)
		y1 = (int64_t)b->y + b->h;
	if (x1 <= x0 || y1 <= y0)
		return 0;
	a->x = x0;
	a->y = y0;
	a->w = (int32_t)(x1 - x0);
	a->h = (int32_t)(y1 - y0);
	return 1;
}

/* Reads `area` (root coordinates) of popup `pop`, whose inside starts at
 * root (px, py), and pastes it onto c. 1 pasted, 0 not. */
static int
paste_one(struct x11 *x, Display *dpy, Window pop, const XWindowAttributes *pa,
	  int px, int py, const struct cua_rect *area, struct cua_capture *c)
{
	struct cua_pixels p;
	XImage *im;
	int ok;

	x11_trap_begin();
	im = XGetImage(dpy, pop, area->x - px, area->y - py, (unsigned)area->w,
		       (unsigned)area->h, AllPlanes, ZPixmap);
	if (x11_trap_end(x) != 0 || !im) {
		if (im)
			XDestroyImage(im);
		return 0;
	}
	memset(&p, 0, sizeof(p));
	p.data = (uint8_t *)im->data;
	p.stride = (size_t)im->bytes_per_line;
	p.width = (uint32_t)im->width;
	p.height = (uint32_t)im->height;
	p.bits_per_pixel = (uint32_t)im->bits_per_pixel;
	p.msb_first = im->byte_order == MSBFirst;
	p.red_mask = (uint32_t)pa->visual->red_mask;
	p.green_mask = (uint32_t)pa->visual->green_mask;
	p.blue_mask = (uint32_t)pa->visual->blue_mask;
	if (pa->depth == 32)
		p.alpha_mask = ~(p.red_mask | p.green_mask | p.blue_mask);
	ok = cua_image_paste(&c->px, &p, area->x - c->frame.x,
			     area->y - c->frame.y) == 0;
	XDestroyImage(im);
	return ok;
}

/* The popups over `frame`: pasted onto c, or only counted when c is
 * NULL. */
static int
popups_over(struct x11 *x, Window win, Atom a_pid, const struct cua_rect *frame,
	    struct cua_capture *c)
{
	Display *dpy = x11_display(x);
	Window root, r, parent, top, *kids = NULL;
	unsigned int nk = 0, i;
	struct cua_rect screen;
	int64_t pid;
	int found = 0, pasted = 0, ok;

	if (!dpy)
		return 0;
	pid = window_pid(x, dpy, win, a_pid);
	top = top_of(x, dpy, win);
	if (pid <= 0 || !top)
		return 0;
	root = DefaultRootWindow(dpy);
	screen.x = 0;
	screen.y = 0;
	screen.w = DisplayWidth(dpy, DefaultScreen(dpy));
	screen.h = DisplayHeight(dpy, DefaultScreen(dpy));
	x11_trap_begin();
	ok = XQueryTree(dpy, root, &r, &parent, &kids, &nk);
	if (x11_trap_end(x) != 0 || !ok) {
		if (kids)
			XFree(kids);
		return 0;
	}
	/* children come bottom to top: the popups over the window come
	 * after it */
	for (i = 0; i < nk; i++) {
		XWindowAttributes pa;
		struct cua_rect area;
		int read;

		if (kids[i] == top) {
			found = 1;
			continue;
		}
		if (!found)
			continue;
		x11_trap_begin();
		read = XGetWindowAttributes(dpy, kids[i], &pa);
		if (x11_trap_end(x) != 0 || !read || !pa.override_redirect ||
		    pa.map_state != IsViewable || pa.class != InputOutput)
			continue;
		area.x = pa.x + pa.border_width;
		area.y = pa.y + pa.border_width;
		area.w = pa.width;
		area.h = pa.height;
		/* what shows of it inside the window's frame, on the screen
		 * (a window's image must lie on the screen) */
		if (!intersect(&area, frame) || !intersect(&area, &screen))
			continue;
		if (window_pid(x, dpy, kids[i], a_pid) != pid)
			continue;
		pasted += !c ? 1 :
			       paste_one(x, dpy, kids[i], &pa,
					 pa.x + pa.border_width,
					 pa.y + pa.border_width, &area, c);
	}
	if (kids)
		XFree(kids);
	return pasted;
}

int
x11_paste_popups(struct x11 *x, Window win, Atom a_pid, struct cua_capture *c)
{
	if (!c || !c->px.data)
		return 0;
	return popups_over(x, win, a_pid, &c->frame, c);
}

int
x11_count_popups(struct x11 *x, Window win, Atom a_pid,
		 const struct cua_rect *frame)
{
	return popups_over(x, win, a_pid, frame, NULL);
}

/* ---- Stacking: whether a window is wholly on screen and uncovered (the
 * capture's sign that a fresh redirect's pixmap needs no repaint wait) */

static int
rects_meet(int ax, int ay, int aw, int ah, int bx, int by, int bw, int bh)
{
	return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
}

int
x11_wholly_visible(struct x11 *xs, Display *dpy, Window win, int64_t *area)
{
	Window root = DefaultRootWindow(dpy), parent = 0, r, top = win;
	Window *kids = NULL, child;
	unsigned int nk = 0, i;
	XWindowAttributes a;
	int x = 0, y = 0, found = 0, visible = 1;

	x11_trap_begin();
	if (!XGetWindowAttributes(dpy, win, &a) ||
	    !XTranslateCoordinates(dpy, win, root, 0, 0, &x, &y, &child)) {
		x11_trap_end(xs);
		return 0;
	}
	/* the root's child that holds it (a window manager's frame) */
	for (int depth = 0; depth < 32; depth++) {
		if (!XQueryTree(dpy, top, &r, &parent, &kids, &nk))
			break;
		if (kids)
			XFree(kids);
		kids = NULL;
		if (parent == root || !parent)
			break;
		top = parent;
	}
	*area = (int64_t)a.width * a.height;
	if (x11_trap_end(xs) != 0 || parent != root)
		return 0;
	if (x < 0 || y < 0 ||
	    x + a.width > DisplayWidth(dpy, DefaultScreen(dpy)) ||
	    y + a.height > DisplayHeight(dpy, DefaultScreen(dpy)))
		return 0;
	x11_trap_begin();
	if (!XQueryTree(dpy, root, &r, &parent, &kids, &nk)) {
		x11_trap_end(xs);
		return 0;
	}
	/* children come bottom to top: everything after `top` is above */
	for (i = 0; i < nk && visible; i++) {
		XWindowAttributes k;

		if (kids[i] == top) {
			found = 1;
			continue;
		}
		if (!found || !XGetWindowAttributes(dpy, kids[i], &k) ||
		    k.map_state != IsViewable || k.class == InputOnly)
			continue;
		if (rects_meet(x, y, a.width, a.height, k.x, k.y,
			       k.width + 2 * k.border_width,
			       k.height + 2 * k.border_width))
			visible = 0;
	}
	if (kids)
		XFree(kids);
	if (x11_trap_end(xs) != 0)
		return 0;
	return found && visible;
}
