/*
 * Window-system facts from X11 (Xlib): client windows and their
 * properties, the active window, the window manager, the AT_SPI_BUS root
 * property (matching AT-SPI toplevels to X11 windows is in match.c).
 *
 * Windows vanish between any two requests. Xlib's default error handler
 * exits the process, so handlers that only record the error (per thread)
 * are installed once for our connections; every request that can fail on
 * a vanished window is a round trip whose status is checked, and one-way
 * requests are followed by XSync. A broken connection (the X server went
 * away) marks the connection dead instead of exiting (libX11 >= 1.7
 * XSetIOErrorExitHandler).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <glib.h>

#include "x11.h"

#define PROP_MAX_LONGS (1L << 16) /* 256 KiB of property data */

enum x11_atom {
	A_NET_ACTIVE_WINDOW,
	A_NET_CLIENT_LIST,
	A_NET_SUPPORTING_WM_CHECK,
	A_NET_WM_PID,
	A_NET_WM_NAME,
	A_UTF8_STRING,
	A_WM_STATE,
	A_GTK_APPLICATION_ID,
	A_GTK_FRAME_EXTENTS,
	A_NET_FRAME_EXTENTS,
	A_NET_WM_STATE,
	A_NET_WM_STATE_HIDDEN,
	A_AT_SPI_BUS,
	A_OPENBOX_PID,
	A_COMPOUND_TEXT,
	A_COUNT,
};

static const char *const atom_names[A_COUNT] = {
	"_NET_ACTIVE_WINDOW", "_NET_CLIENT_LIST",    "_NET_SUPPORTING_WM_CHECK",
	"_NET_WM_PID",        "_NET_WM_NAME",        "UTF8_STRING",
	"WM_STATE",           "_GTK_APPLICATION_ID", "_GTK_FRAME_EXTENTS",
	"_NET_FRAME_EXTENTS", "_NET_WM_STATE",       "_NET_WM_STATE_HIDDEN",
	"AT_SPI_BUS",         "_OPENBOX_PID",        "COMPOUND_TEXT",
};

struct x11 {
	Display *dpy;
	Window root;
	int dead; /* the connection broke */
	Atom atom[A_COUNT];
	Window helper; /* unmapped window for server timestamps, or 0 */
	int xres;      /* x11_xres_usable: 1, -1 not, 0 not asked yet */
};

/*
 * Xlib's error handlers are process-wide. Ours are installed once and
 * act only for our own connections, which carry a marker in their
 * extension data; errors on any other connection go to the handlers that
 * were installed before (the host program's, or Xlib's defaults).
 *
 * The last X error on our connections is recorded per thread: Xlib runs
 * the handler on the thread that reads the reply, i.e. the thread making
 * the call, and one struct x11 is used by one thread at a time.
 */
#define CUA_X11_MARK 0x6c637561 /* "lcua" */

static _Thread_local int x11_last_error;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
/* written once, under handler_once */
static XErrorHandler prev_error_handler;
static XIOErrorHandler prev_io_error_handler;

static int
is_ours(Display *dpy)
{
	XEDataObject obj;

	obj.display = dpy;
	return XFindOnExtensionList(XEHeadOfExtensionList(obj), CUA_X11_MARK) !=
	       NULL;
}

static int
record_error(Display *dpy, XErrorEvent *ev)
{
	if (!is_ours(dpy) && prev_error_handler)
		return prev_error_handler(dpy, ev);
	x11_last_error = ev->error_code ? ev->error_code : -1;
	return 0;
}

static int
io_error(Display *dpy)
{
	/* for our connections, returning lets io_error_exit run */
	if (!is_ours(dpy) && prev_io_error_handler)
		return prev_io_error_handler(dpy);
	return 0;
}

static void
install_error_handler(void)
{
	prev_error_handler = XSetErrorHandler(record_error);
	prev_io_error_handler = XSetIOErrorHandler(io_error);
}

static void
io_error_exit(Display *dpy, void *data)
{
	struct x11 *x = data;

	/* returning (instead of exit()) leaves the connection failing every
	 * request; we stop using it */
	x->dead = 1;
	/*
	 * Xlib runs the I/O error handlers holding the display's user lock
	 * (XLockDisplay) for this thread, and never releases it, as it
	 * expects the process to exit. Kept, it makes every other thread
	 * that touches the connection afterwards wait forever — XCloseDisplay
	 * included, when the connection is closed by another thread than the
	 * one that met the broken connection (the person watcher's). Xlib
	 * calls the handlers with its internal lock released, so that they
	 * may call it again: the user lock is given back here, on the thread
	 * that took it, once per error.
	 */
	XUnlockDisplay(dpy);
}

static void
trap_begin(void)
{
	x11_last_error = 0;
}

/* 0 when no error happened since trap_begin. */
static int
trap_end(struct x11 *x)
{
	if (!x->dead)
		XSync(x->dpy, False);
	return x->dead ? -1 : x11_last_error;
}

struct x11 *
x11_open(const char *display_name)
{
	struct x11 *x;
	Display *dpy;
	XExtData *mark;
	XEDataObject obj;

	pthread_once(&handler_once, install_error_handler);
	dpy = XOpenDisplay(display_name);
	if (!dpy)
		return NULL;
	x = calloc(1, sizeof(*x));
	if (!x) {
		XCloseDisplay(dpy);
		return NULL;
	}
	mark = calloc(1, sizeof(*mark));
	if (!mark) {
		free(x);
		XCloseDisplay(dpy);
		return NULL;
	}
	/* freed by XCloseDisplay */
	mark->number = CUA_X11_MARK;
	obj.display = dpy;
	XAddToExtensionList(XEHeadOfExtensionList(obj), mark);
	x->dpy = dpy;
	x->root = DefaultRootWindow(dpy);
	XSetIOErrorExitHandler(dpy, io_error_exit, x);
	if (!XInternAtoms(dpy, (char **)atom_names, A_COUNT, False, x->atom)) {
		x11_close(x);
		return NULL;
	}
	return x;
}

void
x11_close(struct x11 *x)
{
	if (!x)
		return;
	if (x->dpy)
		XCloseDisplay(x->dpy);
	free(x);
}

const char *
x11_display_name(struct x11 *x)
{
	if (!x || !x->dpy)
		return NULL;
	return DisplayString(x->dpy);
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

/* Reads a property of `type` (AnyPropertyType: any). Returns 0 with
 * *data (free with XFree; NUL-terminated by Xlib) or -1. */
static int
get_prop(struct x11 *x, Window w, Atom prop, Atom type, Atom *type_out,
	 int *format_out, unsigned char **data, unsigned long *n)
{
	Atom actual = None;
	int format = 0, r;
	unsigned long nitems = 0, after = 0;
	unsigned char *d = NULL;

	*data = NULL;
	*n = 0;
	if (x->dead || !w || !prop)
		return -1;
	trap_begin();
	r = XGetWindowProperty(x->dpy, w, prop, 0, PROP_MAX_LONGS, False, type,
			       &actual, &format, &nitems, &after, &d);
	if (r != Success || x11_last_error || x->dead || actual == None ||
	    (type != AnyPropertyType && actual != type)) {
		if (d)
			XFree(d);
		return -1;
	}
	if (type_out)
		*type_out = actual;
	if (format_out)
		*format_out = format;
	*data = d;
	*n = nitems;
	return 0;
}

/* First item of a format-32 property (WINDOW, CARDINAL), or 0. */
static unsigned long
get_long(struct x11 *x, Window w, Atom prop, Atom type, int *found)
{
	unsigned char *d;
	unsigned long n, v = 0;
	int format;

	if (found)
		*found = 0;
	if (get_prop(x, w, prop, type, NULL, &format, &d, &n) < 0)
		return 0;
	if (format == 32 && n >= 1) {
		v = ((unsigned long *)(void *)d)[0];
		if (found)
			*found = 1;
	}
	XFree(d);
	return v;
}

static int
has_prop(struct x11 *x, Window w, Atom prop)
{
	unsigned char *d;
	unsigned long n;

	if (get_prop(x, w, prop, AnyPropertyType, NULL, NULL, &d, &n) < 0)
		return 0;
	XFree(d);
	return 1;
}

static char *
latin1_to_utf8(const unsigned char *s, size_t len)
{
	char *out = malloc(len * 2 + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < len && s[i]; i++) {
		if (s[i] < 0x80) {
			*o++ = (char)s[i];
		} else {
			*o++ = (char)(0xc0 | (s[i] >> 6));
			*o++ = (char)(0x80 | (s[i] & 0x3f));
		}
	}
	*o = '\0';
	return out;
}

/* Valid UTF-8 copy (malloc'd) of possibly invalid bytes. */
static char *
utf8_dup(const char *s, size_t len)
{
	const char *end;
	char *valid, *out;

	if (g_utf8_validate(s, (gssize)len, &end) && (size_t)(end - s) == len)
		return strndup(s, len);
	valid = g_utf8_make_valid(s, (gssize)len);
	out = valid ? strdup(valid) : NULL;
	g_free(valid);
	return out;
}

/* A text property as UTF-8 (malloc'd), or NULL. */
static char *
get_text(struct x11 *x, Window w, Atom prop)
{
	unsigned char *d;
	unsigned long n;
	Atom type;
	int format;
	char *out = NULL;

	if (get_prop(x, w, prop, AnyPropertyType, &type, &format, &d, &n) < 0)
		return NULL;
	if (format != 8) {
		XFree(d);
		return NULL;
	}
	if (type == x->atom[A_UTF8_STRING]) {
		out = utf8_dup((const char *)d, strnlen((char *)d, n));
	} else if (type == XA_STRING) {
		out = latin1_to_utf8(d, n);
	} else if (type == x->atom[A_COMPOUND_TEXT]) {
		XTextProperty tp = { d, type, format, n };
		char **list = NULL;
		int count = 0;

		if (Xutf8TextPropertyToTextList(x->dpy, &tp, &list, &count) >=
			    Success &&
		    list && count > 0 && list[0])
			out = utf8_dup(list[0], strlen(list[0]));
		if (list)
			XFreeStringList(list);
	}
	XFree(d);
	if (out && !out[0]) {
		free(out);
		out = NULL;
	}
	return out;
}

static void
get_wm_class(struct x11 *x, Window w, char **instance, char **klass)
{
	unsigned char *d;
	unsigned long n;
	int format;
	size_t ilen;

	*instance = *klass = NULL;
	if (get_prop(x, w, XA_WM_CLASS, XA_STRING, NULL, &format, &d, &n) < 0)
		return;
	if (format == 8 && n > 0) {
		/* "instance\0class\0" */
		ilen = strnlen((char *)d, n);
		if (ilen > 0)
			*instance = latin1_to_utf8(d, ilen);
		if (ilen + 1 < n) {
			size_t clen =
				strnlen((char *)d + ilen + 1, n - ilen - 1);

			if (clen > 0)
				*klass = latin1_to_utf8(d + ilen + 1, clen);
		}
	}
	XFree(d);
}

/* The window manager's check window when an EWMH window manager runs
 * (the property on the root names a window that names itself). */
static Window
wm_check_window(struct x11 *x)
{
	Window w, w2;

	w = get_long(x, x->root, x->atom[A_NET_SUPPORTING_WM_CHECK], XA_WINDOW,
		     NULL);
	if (!w)
		return 0;
	w2 = get_long(x, w, x->atom[A_NET_SUPPORTING_WM_CHECK], XA_WINDOW,
		      NULL);
	return w2 == w ? w : 0;
}

char *
x11_get_atspi_bus(struct x11 *x)
{
	unsigned char *d;
	unsigned long n;
	int format;
	char *out = NULL;

	if (!x)
		return NULL;
	if (get_prop(x, x->root, x->atom[A_AT_SPI_BUS], XA_STRING, NULL,
		     &format, &d, &n) < 0)
		return NULL;
	if (format == 8 && n > 0)
		out = strndup((char *)d, strnlen((char *)d, n));
	XFree(d);
	return out;
}

int
x11_set_atspi_bus(struct x11 *x, const char *address)
{
	if (!x || x->dead || !address)
		return -1;
	trap_begin();
	XChangeProperty(x->dpy, x->root, x->atom[A_AT_SPI_BUS], XA_STRING, 8,
			PropModeReplace, (const unsigned char *)address,
			(int)strlen(address));
	return trap_end(x) ? -1 : 0;
}

int64_t
x11_wm_pid(struct x11 *x)
{
	Window check;
	unsigned long pid;
	int found;

	if (!x || x->dead)
		return 0;
	check = wm_check_window(x);
	if (!check)
		return 0;
	pid = get_long(x, check, x->atom[A_NET_WM_PID], XA_CARDINAL, &found);
	if (!found || !pid) {
		/* openbox sets no _NET_WM_PID on its check window */
		pid = get_long(x, x->root, x->atom[A_OPENBOX_PID], XA_CARDINAL,
			       &found);
	}
	return found && pid <= INT64_MAX ? (int64_t)pid : 0;
}

char *
x11_wm_name(struct x11 *x)
{
	Window check;
	char *name;

	if (!x || x->dead)
		return NULL;
	check = wm_check_window(x);
	if (!check)
		return NULL;
	name = get_text(x, check, x->atom[A_NET_WM_NAME]);
	if (!name)
		name = get_text(x, check, XA_WM_NAME);
	return name;
}

/* ------------------------------------------------------------------ */
/* Window tree                                                         */

/* Parent and children of w (children: XFree); 0 or -1 (vanished). */
static int
query_tree(struct x11 *x, Window w, Window *parent, Window **children,
	   unsigned int *n)
{
	Window root_ret = 0, par = 0, *kids = NULL;
	unsigned int nk = 0;
	Status s;

	if (children)
		*children = NULL;
	*n = 0;
	if (x->dead)
		return -1;
	trap_begin();
	s = XQueryTree(x->dpy, w, &root_ret, &par, &kids, &nk);
	if (!s || x11_last_error || x->dead) {
		if (kids)
			XFree(kids);
		return -1;
	}
	if (parent)
		*parent = par;
	if (children)
		*children = kids;
	else if (kids)
		XFree(kids);
	*n = nk;
	return 0;
}

/* The client window (one with WM_STATE) at or below w, depth-first up to
 * `depth` levels, or 0. */
static Window
find_client_below(struct x11 *x, Window w, int depth)
{
	Window *kids, found = 0;
	unsigned int n, i;

	if (has_prop(x, w, x->atom[A_WM_STATE]))
		return w;
	if (depth <= 0 || query_tree(x, w, NULL, &kids, &n) < 0)
		return 0;
	/* topmost first */
	for (i = n; i-- > 0 && !found;)
		found = find_client_below(x, kids[i], depth - 1);
	if (kids)
		XFree(kids);
	return found;
}

/* The root's child that holds `w` (walked up at most 64 levels): it, or
 * 0 when the tree cannot be read or `w` is not below the root. */
static Window
root_child_of(struct x11 *x, Window w)
{
	Window parent = 0, *kids;
	unsigned int nk;

	for (int i = 0; i < 64; i++) {
		if (query_tree(x, w, &parent, &kids, &nk) < 0)
			return 0;
		if (kids)
			XFree(kids);
		if (parent == x->root || parent == 0)
			break;
		w = parent;
	}
	return parent == x->root ? w : 0;
}

uint64_t
x11_active_window(struct x11 *x)
{
	Window focus = 0, w, client;
	int revert, found;
	unsigned long active;

	if (!x || x->dead)
		return 0;
	if (wm_check_window(x)) {
		active = get_long(x, x->root, x->atom[A_NET_ACTIVE_WINDOW],
				  XA_WINDOW, &found);
		if (found)
			return active;
	}
	/* no EWMH window manager: the X focus, which is often a child
	 * (GTK's focus proxy), walked up to the root's child */
	trap_begin();
	XGetInputFocus(x->dpy, &focus, &revert);
	if (x11_last_error || x->dead || focus == None ||
	    focus == PointerRoot || focus == x->root)
		return 0;
	w = root_child_of(x, focus);
	if (!w)
		return 0;
	/* down to the client window when a (non-EWMH) WM reparented it */
	client = find_client_below(x, w, 3);
	return client ? client : w;
}

static int
window_attrs(struct x11 *x, Window w, XWindowAttributes *attr)
{
	Status s;

	if (x->dead)
		return -1;
	trap_begin();
	s = XGetWindowAttributes(x->dpy, w, attr);
	return (!s || x11_last_error || x->dead) ? -1 : 0;
}

/* Candidate client windows, bottom-to-top or in _NET_CLIENT_LIST order;
 * malloc'd. */
static Window *
client_windows(struct x11 *x, size_t *n_out)
{
	Window *out = NULL, *kids = NULL, *sub;
	unsigned char *d;
	unsigned long n;
	unsigned int nk, ns, i, j;
	int format;
	size_t cnt = 0, cap;

	*n_out = 0;
	if (wm_check_window(x) &&
	    get_prop(x, x->root, x->atom[A_NET_CLIENT_LIST], XA_WINDOW, NULL,
		     &format, &d, &n) == 0) {
		if (format == 32 && n > 0) {
			out = calloc(n, sizeof(*out));
			if (out) {
				for (i = 0; i < n; i++)
					out[i] =
						((unsigned long *)(void *)d)[i];
				*n_out = n;
			}
		}
		XFree(d);
		return out;
	}
	/* no _NET_CLIENT_LIST: the root's children (or their children,
	 * under a reparenting WM) that carry WM_STATE */
	if (query_tree(x, x->root, NULL, &kids, &nk) < 0)
		return NULL;
	cap = (size_t)nk + 16;
	out = calloc(cap, sizeof(*out));
	if (!out) {
		if (kids)
			XFree(kids);
		return NULL;
	}
	for (i = 0; i < nk; i++) {
		if (has_prop(x, kids[i], x->atom[A_WM_STATE])) {
			out[cnt++] = kids[i];
		} else if (query_tree(x, kids[i], NULL, &sub, &ns) == 0) {
			for (j = 0; j < ns; j++) {
				if (!has_prop(x, sub[j], x->atom[A_WM_STATE]))
					continue;
				if (cnt == cap) {
					Window *nw = realloc(
						out, cap * 2 * sizeof(*out));

					if (!nw)
						break;
					out = nw;
					cap *= 2;
				}
				out[cnt++] = sub[j];
			}
			if (sub)
				XFree(sub);
		}
	}
	if (cnt == 0) {
		/* no window manager at all (nobody sets WM_STATE): mapped,
		 * managed-looking toplevels */
		for (i = 0; i < nk; i++) {
			XWindowAttributes attr;

			if (window_attrs(x, kids[i], &attr) < 0 ||
			    attr.override_redirect ||
			    attr.class != InputOutput ||
			    attr.map_state != IsViewable)
				continue;
			if (!has_prop(x, kids[i], XA_WM_CLASS) &&
			    !has_prop(x, kids[i], x->atom[A_NET_WM_PID]))
				continue;
			out[cnt++] = kids[i];
		}
	}
	if (kids)
		XFree(kids);
	*n_out = cnt;
	return out;
}

/* The pid of a window without _NET_WM_PID (Xt, Athena, Motif), from the
 * server's record of its connection (clientpid.c); 0 when unknown. */
static int64_t
pid_from_server(struct x11 *x, Window w)
{
	char *machine;
	int64_t pid;

	if (!x->xres)
		x->xres = x11_xres_usable(x) ? 1 : -1;
	if (x->xres < 0)
		return 0;
	machine = get_text(x, w, XA_WM_CLIENT_MACHINE);
	pid = x11_xres_window_pid(x, w, machine);
	free(machine);
	return pid;
}

static int
read_client(struct x11 *x, Window w, struct x11_client *c)
{
	XWindowAttributes attr;
	Window child;
	int rx = 0, ry = 0, found, iconic = 0;
	unsigned char *d;
	unsigned long n, i, pid;
	int format;

	memset(c, 0, sizeof(*c));
	if (window_attrs(x, w, &attr) < 0)
		return -1;
	trap_begin();
	if (!XTranslateCoordinates(x->dpy, w, x->root, 0, 0, &rx, &ry,
				   &child) ||
	    x11_last_error || x->dead)
		return -1;
	c->window = w;
	c->mapped = attr.map_state == IsViewable;
	pid = get_long(x, w, x->atom[A_NET_WM_PID], XA_CARDINAL, &found);
	c->pid = found && pid <= INT64_MAX ? (int64_t)pid : 0;
	if (!found)
		c->pid = pid_from_server(x, w);
	c->title = get_text(x, w, x->atom[A_NET_WM_NAME]);
	if (!c->title)
		c->title = get_text(x, w, XA_WM_NAME);
	get_wm_class(x, w, &c->wm_class_instance, &c->wm_class_class);
	c->gtk_app_id = get_text(x, w, x->atom[A_GTK_APPLICATION_ID]);

	c->frame.x = rx;
	c->frame.y = ry;
	c->frame.w = attr.width;
	c->frame.h = attr.height;
	c->surface = c->frame;
	c->outer = c->frame;
	/* what a reparenting window manager draws around the window (its
	 * title bar and borders): left, right, top, bottom */
	if (get_prop(x, w, x->atom[A_NET_FRAME_EXTENTS], XA_CARDINAL, NULL,
		     &format, &d, &n) == 0) {
		if (format == 32 && n >= 4) {
			unsigned long *e = (unsigned long *)(void *)d;

			if (e[0] <= 4096 && e[1] <= 4096 && e[2] <= 4096 &&
			    e[3] <= 4096) {
				c->outer.x -= (int32_t)e[0];
				c->outer.y -= (int32_t)e[2];
				c->outer.w += (int32_t)(e[0] + e[1]);
				c->outer.h += (int32_t)(e[2] + e[3]);
				c->has_outer = 1;
			}
		}
		XFree(d);
	}
	if (get_prop(x, w, x->atom[A_GTK_FRAME_EXTENTS], XA_CARDINAL, NULL,
		     &format, &d, &n) == 0) {
		if (format == 32 && n >= 4) {
			unsigned long *e = (unsigned long *)(void *)d;

			/* left, right, top, bottom */
			if (e[0] <= INT_MAX / 4 && e[1] <= INT_MAX / 4 &&
			    e[2] <= INT_MAX / 4 && e[3] <= INT_MAX / 4 &&
			    (long)(e[0] + e[1]) < attr.width &&
			    (long)(e[2] + e[3]) < attr.height) {
				c->frame_extents.x = (int32_t)e[0];
				c->frame_extents.y = (int32_t)e[1];
				c->frame_extents.w = (int32_t)e[2];
				c->frame_extents.h = (int32_t)e[3];
				c->has_frame_extents = 1;
				c->frame.x += (int32_t)e[0];
				c->frame.y += (int32_t)e[2];
				c->frame.w -= (int32_t)(e[0] + e[1]);
				c->frame.h -= (int32_t)(e[2] + e[3]);
			}
		}
		XFree(d);
	}

	/* iconic: ICCCM WM_STATE, or EWMH _NET_WM_STATE_HIDDEN */
	if (get_prop(x, w, x->atom[A_WM_STATE], x->atom[A_WM_STATE], NULL,
		     &format, &d, &n) == 0) {
		if (format == 32 && n >= 1 &&
		    ((unsigned long *)(void *)d)[0] == IconicState)
			iconic = 1;
		XFree(d);
	}
	if (!iconic && get_prop(x, w, x->atom[A_NET_WM_STATE], XA_ATOM, NULL,
				&format, &d, &n) == 0) {
		for (i = 0; format == 32 && i < n; i++) {
			if (((unsigned long *)(void *)d)[i] ==
			    x->atom[A_NET_WM_STATE_HIDDEN])
				iconic = 1;
		}
		XFree(d);
	}
	c->iconified = iconic;
	return 0;
}

static void
client_clear(struct x11_client *c)
{
	free(c->title);
	free(c->wm_class_class);
	free(c->wm_class_instance);
	free(c->gtk_app_id);
}

int
x11_list_clients(struct x11 *x, struct x11_client **out, size_t *n_out)
{
	Window *wins;
	struct x11_client *cl;
	size_t nw, i, cnt = 0;

	*out = NULL;
	*n_out = 0;
	if (!x || x->dead)
		return -1;
	wins = client_windows(x, &nw);
	if (!wins)
		return x->dead ? -1 : 0;
	cl = calloc(nw ? nw : 1, sizeof(*cl));
	if (!cl) {
		free(wins);
		return -1;
	}
	for (i = 0; i < nw; i++) {
		/* a window that vanished meanwhile is left out */
		if (read_client(x, wins[i], &cl[cnt]) == 0)
			cnt++;
		else
			client_clear(&cl[cnt]);
	}
	free(wins);
	if (x->dead) {
		x11_clients_free(cl, cnt);
		return -1;
	}
	*out = cl;
	*n_out = cnt;
	return 0;
}

void
x11_clients_free(struct x11_client *clients, size_t n)
{
	size_t i;

	if (!clients)
		return;
	for (i = 0; i < n; i++)
		client_clear(&clients[i]);
	free(clients);
}

/* ------------------------------------------------------------------ */
/* The window manager's frame (match.c)                                */

/*
 * The rectangle of the root's child holding client window w (the window
 * manager's frame, decorations included) when w is reparented; 0 or -1.
 */
int
x11_wm_frame_rect(struct x11 *x, uint64_t client, struct cua_rect *r)
{
	XWindowAttributes attr;
	Window w = (Window)client, parent = 0, *kids;
	unsigned int nk;
	int i;

	for (i = 0; i < 16; i++) {
		if (query_tree(x, w, &parent, &kids, &nk) < 0)
			return -1;
		if (kids)
			XFree(kids);
		if (parent == x->root || parent == 0)
			break;
		w = parent;
	}
	if (i == 0 || parent != x->root || window_attrs(x, w, &attr) < 0)
		return -1;
	r->x = attr.x;
	r->y = attr.y;
	r->w = attr.width + 2 * attr.border_width;
	r->h = attr.height + 2 * attr.border_width;
	return 0;
}

uint64_t
x11_transient_for(struct x11 *x, uint64_t window)
{
	Window tf = 0;

	if (!x || x->dead || !window)
		return 0;
	trap_begin();
	if (!XGetTransientForHint(x->dpy, (Window)window, &tf) ||
	    x11_last_error)
		return 0;
	return tf;
}

/* ------------------------------------------------------------------ */
/* Input support (input.c, driver.c; docs/actions.md §1.4, §2.3)     */

Display *
x11_display(struct x11 *x)
{
	return x && !x->dead ? x->dpy : NULL;
}

/*
 * Whether the connection still works, without a round trip: a server
 * that went away (killed, crashed, restarted) leaves the socket at end of
 * file, which Xlib only notices on the next request. Peeking at the
 * socket spots it before a caller relies on the connection, so that the
 * backend can open a new one first (atspi_reconnect). Marks the
 * connection dead and returns -1 then; 0 otherwise.
 */
int
x11_check_alive(struct x11 *x)
{
	struct pollfd pfd;
	char c;

	if (!x || x->dead)
		return -1;
	pfd.fd = ConnectionNumber(x->dpy);
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) > 0 &&
	    ((pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) ||
	     ((pfd.revents & POLLIN) &&
	      recv(pfd.fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0)))
		x->dead = 1;
	return x->dead ? -1 : 0;
}

void
x11_trap_begin(void)
{
	trap_begin();
}

int
x11_trap_end(struct x11 *x)
{
	return trap_end(x);
}

int
x11_has_wm(struct x11 *x)
{
	return x && !x->dead && wm_check_window(x) != 0;
}

/* Facts about a client (or override-redirect) window; 0 or -1. */
int
x11_window_info(struct x11 *x, uint64_t window, struct cua_win *out)
{
	struct x11_client c;
	XWindowAttributes attr;
	int rx = 0, ry = 0;
	Window child;

	memset(out, 0, sizeof(*out));
	if (!x || x->dead || !window)
		return -1;
	if (window_attrs(x, (Window)window, &attr) < 0)
		return -1;
	if (read_client(x, (Window)window, &c) < 0)
		return -1;
	trap_begin();
	if (!XTranslateCoordinates(x->dpy, (Window)window, x->root, 0, 0, &rx,
				   &ry, &child) ||
	    x11_last_error || x->dead) {
		client_clear(&c);
		return -1;
	}
	out->window = window;
	out->pid = c.pid;
	out->origin.x = rx;
	out->origin.y = ry;
	out->origin.w = attr.width;
	out->origin.h = attr.height;
	out->frame = c.frame;
	out->outer = c.outer;
	if (!c.has_outer)
		x11_wm_frame_rect(x, window, &out->outer);
	out->mapped = c.mapped;
	out->iconified = c.iconified;
	out->override_redirect = attr.override_redirect ? 1 : 0;
	out->transient_for = x11_transient_for(x, window);
	cua_display_proc_comm(out->pid, out->process, sizeof(out->process));
	client_clear(&c);
	return 0;
}

/* The client window inside the root's child `top` (or `top` itself when
 * it is override-redirect or carries no client). */
static Window
client_of_toplevel(struct x11 *x, Window top)
{
	XWindowAttributes attr;
	Window client;

	if (window_attrs(x, top, &attr) == 0 && attr.override_redirect)
		return top;
	client = find_client_below(x, top, 3);
	return client ? client : top;
}

int
x11_window_at(struct x11 *x, int32_t rx, int32_t ry, struct cua_win *out)
{
	Window child = 0;
	int dx, dy;

	memset(out, 0, sizeof(*out));
	if (!x || x->dead)
		return -1;
	trap_begin();
	if (!XTranslateCoordinates(x->dpy, x->root, x->root, rx, ry, &dx, &dy,
				   &child) ||
	    x11_last_error || x->dead)
		return -1;
	if (!child)
		return 0; /* the bare root: nothing there */
	return x11_window_info(x, client_of_toplevel(x, child), out);
}

int
x11_focus_toplevel(struct x11 *x, struct cua_win *out)
{
	Window focus = 0, w;
	int revert;

	memset(out, 0, sizeof(*out));
	if (!x || x->dead)
		return -1;
	trap_begin();
	XGetInputFocus(x->dpy, &focus, &revert);
	if (x11_last_error || x->dead)
		return -1;
	if (focus == None || focus == PointerRoot || focus == x->root)
		return 0;
	w = root_child_of(x, focus);
	if (!w)
		return 0;
	return x11_window_info(x, client_of_toplevel(x, w), out);
}

/* The server's current time: a zero-length append to a property of our
 * own unmapped window, read back from its PropertyNotify. */
static Time
server_time(struct x11 *x)
{
	XSetWindowAttributes swa;
	Atom prop = XInternAtom(x->dpy, "_LIBCUA_TIMESTAMP", False);
	XEvent ev;
	int64_t end;

	if (!x->helper) {
		memset(&swa, 0, sizeof(swa));
		swa.override_redirect = True;
		swa.event_mask = PropertyChangeMask;
		trap_begin();
		x->helper =
			XCreateWindow(x->dpy, x->root, -10, -10, 1, 1, 0,
				      CopyFromParent, InputOnly, CopyFromParent,
				      CWOverrideRedirect | CWEventMask, &swa);
		if (trap_end(x)) {
			x->helper = 0;
			return CurrentTime;
		}
	}
	XChangeProperty(x->dpy, x->helper, prop, XA_STRING, 8, PropModeAppend,
			NULL, 0);
	XFlush(x->dpy);
	end = cua_now_us() + 200 * 1000;
	while (cua_now_us() < end && !x->dead) {
		if (XCheckTypedWindowEvent(x->dpy, x->helper, PropertyNotify,
					   &ev))
			return ev.xproperty.time;
		XSync(x->dpy, False);
		if (XCheckTypedWindowEvent(x->dpy, x->helper, PropertyNotify,
					   &ev))
			return ev.xproperty.time;
		g_usleep(1000);
	}
	return CurrentTime;
}

/* 1 when `window` (or a window of the same process) holds input focus
 * and, under an EWMH window manager, is the active window. */
static int
focus_is(struct x11 *x, uint64_t window, int64_t pid)
{
	struct cua_win f;
	int found;
	unsigned long active;

	if (x11_focus_toplevel(x, &f) < 0 || !f.window)
		return 0;
	if (f.window != window && !(pid > 0 && f.pid == pid))
		return 0;
	if (wm_check_window(x)) {
		active = get_long(x, x->root, x->atom[A_NET_ACTIVE_WINDOW],
				  XA_WINDOW, &found);
		if (found && active != window) {
			struct cua_win a;

			if (!active || x11_window_info(x, active, &a) < 0 ||
			    !(pid > 0 && a.pid == pid))
				return 0;
		}
	}
	return 1;
}

int
x11_activate(struct x11 *x, uint64_t window, int timeout_ms)
{
	struct cua_win info;
	int64_t end;
	int fd;

	if (!x || x->dead || !window)
		return -1;
	if (x11_window_info(x, window, &info) < 0)
		return -1;
	if (wm_check_window(x)) {
		XEvent ev;

		memset(&ev, 0, sizeof(ev));
		ev.xclient.type = ClientMessage;
		ev.xclient.window = (Window)window;
		ev.xclient.message_type = x->atom[A_NET_ACTIVE_WINDOW];
		ev.xclient.format = 32;
		ev.xclient.data.l[0] = 2; /* source: pager (a user request) */
		ev.xclient.data.l[1] = (long)server_time(x);
		ev.xclient.data.l[2] = 0;
		trap_begin();
		XSendEvent(x->dpy, x->root, False,
			   SubstructureRedirectMask | SubstructureNotifyMask,
			   &ev);
		if (trap_end(x))
			return -1;
	} else {
		trap_begin();
		XRaiseWindow(x->dpy, (Window)window);
		XSetInputFocus(x->dpy, (Window)window, RevertToParent,
			       CurrentTime);
		if (trap_end(x))
			return -1;
	}
	/* wait for the confirmation: focus and active-window changes wake
	 * us up; the check itself is the truth */
	XSelectInput(x->dpy, x->root, PropertyChangeMask);
	XSelectInput(x->dpy, (Window)window, FocusChangeMask);
	fd = ConnectionNumber(x->dpy);
	end = cua_now_us() +
	      (int64_t)(timeout_ms > 0 ? timeout_ms : 500) * 1000;
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		int64_t left;

		while (XPending(x->dpy)) {
			XEvent ev;

			XNextEvent(x->dpy, &ev);
		}
		if (focus_is(x, window, info.pid)) {
			XSelectInput(x->dpy, x->root, NoEventMask);
			XSelectInput(x->dpy, (Window)window, NoEventMask);
			XSync(x->dpy, False);
			return 1;
		}
		left = end - cua_now_us();
		if (left <= 0 || x->dead)
			break;
		poll(&pfd, 1, (int)MIN(left / 1000 + 1, 20));
	}
	trap_begin();
	XSelectInput(x->dpy, x->root, NoEventMask);
	XSelectInput(x->dpy, (Window)window, NoEventMask);
	trap_end(x);
	return 0;
}

int
x11_focus_holds(struct x11 *x, uint64_t window, int64_t pid)
{
	return x && !x->dead && focus_is(x, window, pid);
}
