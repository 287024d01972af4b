/*
 * Headless desktops, the X11 kind: Xvfb as the display server and openbox
 * as the window manager (without one, there is no _NET_ACTIVE_WINDOW and
 * AT-SPI's ACTIVE state is unreliable).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include "desktop.h"

static int
x_error(Display *dpy, XErrorEvent *ev)
{
	(void)dpy;
	(void)ev;
	return 0; /* checked by reading back */
}

static int
x_io_error(Display *dpy)
{
	(void)dpy;
	return 0;
}

static void
x_io_exit(Display *dpy, void *data)
{
	/* returning marks the connection dead instead of calling exit() */
	(void)dpy;
	(void)data;
}

static Display *
x_open(struct desktop *d)
{
	Display *x;

	if (d->display_conn)
		return d->display_conn;
	XSetErrorHandler(x_error);
	XSetIOErrorHandler(x_io_error);
	x = XOpenDisplay(d->vars[VAR_DISPLAY]);
	if (!x) {
		fail_daemon(d, DAEMON_DISPLAY, "cannot open X display %s",
			    d->vars[VAR_DISPLAY]);
		return NULL;
	}
	XSetIOErrorExitHandler(x, x_io_exit, NULL);
	d->display_conn = x;
	return x;
}

static void
x_disconnect(struct desktop *d)
{
	if (d->display_conn) {
		XCloseDisplay(d->display_conn);
		d->display_conn = NULL;
	}
}

/* The root window property, as a string (NULL if unset). */
static char *
x_root_property(Display *x, const char *name, Atom type)
{
	unsigned long n, after;
	unsigned char *data = NULL;
	Atom prop, actual;
	char *value = NULL;
	int format;

	prop = XInternAtom(x, name, False);
	if (XGetWindowProperty(x, DefaultRootWindow(x), prop, 0, 4096, False,
			       type, &actual, &format, &n, &after,
			       &data) != Success)
		return NULL;
	if (actual == type && n > 0) {
		if (format == 8)
			value = g_strndup((const char *)data, n);
		else
			value = g_strdup("set");
	}
	if (data)
		XFree(data);
	return value;
}

static int
start_xvfb(struct desktop *d)
{
	const char *argv[] = { "Xvfb", "-displayfd", "3", "-screen", "0",
			       d->screen, "-nolisten", "tcp",
			       /* keep root properties when the last client
		                * leaves */
			       "-noreset", NULL };
	char *line = NULL;
	int fds[2], r;

	/* GTK 4's GL renderer starves its accessibility on Xvfb */
	d->vars[VAR_GSK_RENDERER] = g_strdup("cairo");
	d->vars[VAR_XDG_SESSION_TYPE] = g_strdup("x11");
	if (pipe2(fds, O_CLOEXEC) < 0)
		return fail(d, "pipe: %s", strerror(errno));
	r = spawn_daemon(d, DAEMON_DISPLAY, argv, fds[1]);
	close(fds[1]);
	if (r == 0)
		r = read_ready_line(d, fds[0], DAEMON_DISPLAY, &line);
	close(fds[0]);
	if (r < 0 || !line)
		return -1;
	if (!line[0] || strspn(line, "0123456789") != strlen(line)) {
		r = fail_daemon(d, DAEMON_DISPLAY,
				"Xvfb wrote \"%s\" instead of a display number",
				line);
		g_free(line);
		return r;
	}
	d->vars[VAR_DISPLAY] = g_strconcat(":", line, NULL);
	g_free(line);
	return 0;
}

/*
 * Qt 5 registers with AT-SPI reliably only when the root window names the
 * accessibility bus. at-spi-bus-launcher publishes it there (with the
 * bus's guid) when it sees the display, libcua's fixes when nobody did;
 * check that the desktop's bus is named.
 */
static int
check_root_property(struct desktop *d)
{
	Display *x = x_open(d);
	char *back, *bare = NULL;
	int ok;

	if (!x)
		return -1;
	back = x_root_property(x, "AT_SPI_BUS", XA_STRING);
	if (back)
		bare = bus_address_without_guid(back);
	ok = bare && !strcmp(bare, d->vars[VAR_A11Y_BUS]);
	g_free(bare);
	g_free(back);
	if (!ok)
		return fail_daemon(
			d, DAEMON_DISPLAY,
			"cannot set the AT_SPI_BUS property on the root window of %s",
			d->vars[VAR_DISPLAY]);
	return 0;
}

static int
start_openbox(struct desktop *d)
{
	const char *argv[] = { "openbox", "--sm-disable", NULL };
	long long deadline;
	char *check, st[64];
	Display *x;

	if (spawn_daemon(d, DAEMON_WM, argv, -1) < 0)
		return -1;
	x = x_open(d);
	if (!x)
		return -1;
	deadline = now_ms() + STEP_TIMEOUT_MS;
	for (;;) {
		check = x_root_property(x, "_NET_SUPPORTING_WM_CHECK",
					XA_WINDOW);
		if (check) {
			g_free(check);
			return 0;
		}
		if (d->daemon[DAEMON_WM].reaped)
			return fail_daemon(
				d, DAEMON_WM,
				"openbox exited during startup (%s)",
				describe_status(d->daemon[DAEMON_WM].status, st,
						sizeof(st)));
		if (now_ms() >= deadline)
			return fail_daemon(
				d, DAEMON_WM,
				"openbox did not start within %d s (no _NET_SUPPORTING_WM_CHECK on the root window)",
				STEP_TIMEOUT_MS / 1000);
		if (pause_ms(d, POLL_MS) < 0)
			return fail_interrupted(d);
	}
}

const struct desktop_kind desktop_kind_x11 = {
	.name = "x11",
	.display = { "xvfb", "Xvfb", "Xvfb", "xvfb", "xvfb.log" },
	.wm = { "wm", "openbox", "openbox", "openbox", "wm.log" },
	.start_display = start_xvfb,
	.check_fixes = check_root_property,
	.start_wm = start_openbox,
	.disconnect = x_disconnect,
	.cleanup = NULL,
};
