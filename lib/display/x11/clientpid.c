/*
 * The process behind an X11 window that does not say (docs/screenshots.md
 * §1.1): toolkits older than EWMH (Xt and Athena, Motif) set no
 * _NET_WM_PID. The X server knows the process of every local connection;
 * the X-Resource extension (1.2, XResQueryClientIds with the
 * LocalClientPID mask) names the one that created the window.
 *
 * The answer is taken only when it is a pid of this machine in this
 * process's pid namespace: the server must report this process's own
 * connection as getpid() (a server in another container, or one reached
 * over TCP, reports another number or none), and the window's
 * WM_CLIENT_MACHINE, when set, must be this host (a client forwarded over
 * ssh connects through the local ssh process).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/extensions/XRes.h>

#include "x11.h"

/* The LocalClientPID of the connection that owns resource `xid`, 0 when
 * the server does not know it. */
static int64_t
owner_pid(struct x11 *x, XID xid)
{
	Display *dpy = x11_display(x);
	XResClientIdSpec spec = { .client = xid,
				  .mask = XRES_CLIENT_ID_PID_MASK };
	XResClientIdValue *vals = NULL;
	long n = 0;
	int64_t pid = 0;

	if (!dpy)
		return 0;
	x11_trap_begin();
	if (XResQueryClientIds(dpy, 1, &spec, &n, &vals) != Success ||
	    x11_trap_end(x)) {
		if (vals)
			XResClientIdsDestroy(n, vals);
		return 0;
	}
	for (long i = 0; i < n && !pid; i++) {
		pid_t p = XResGetClientPid(&vals[i]);

		if (p > 0)
			pid = p;
	}
	XResClientIdsDestroy(n, vals);
	return pid;
}

int
x11_xres_usable(struct x11 *x)
{
	Display *dpy = x11_display(x);
	int ev, err, major = 0, minor = 0;

	if (!dpy || !XResQueryExtension(dpy, &ev, &err) ||
	    !XResQueryVersion(dpy, &major, &minor) ||
	    (major < 1 || (major == 1 && minor < 2)))
		return 0;
	/* any XID of this connection names it: a fresh one will do */
	return owner_pid(x, XAllocID(dpy)) == (int64_t)getpid();
}

int64_t
x11_xres_window_pid(struct x11 *x, uint64_t w, const char *client_machine)
{
	char host[HOST_NAME_MAX + 1];

	if (client_machine && *client_machine) {
		if (gethostname(host, sizeof(host)) != 0)
			return 0;
		host[sizeof(host) - 1] = '\0';
		if (strcmp(client_machine, host) != 0)
			return 0;
	}
	return owner_pid(x, (XID)w);
}
