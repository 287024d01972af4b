/*
 * A person at a test desktop. Xvfb has no input device of its own, so
 * this program makes a second master device, "cua-test-person", and
 * types through its XTEST keyboard; cua-mcp started with
 * CUA_TEST_PERSON_MASTER=cua-test-person counts that keyboard as a
 * person's (lib/display/x11/user.c). Commands on stdin, one per line:
 *
 *   follow               the person's keyboard focus goes where the core
 *                        keyboard's is (the app libcua acts on)
 *   type TEXT            types TEXT (ASCII letters, digits, space)
 *   key COMBO            presses one combo: ctrl+alt+shift+Escape
 *   burst C N MS         types character C N times, MS ms apart
 *   wiggle N MS          moves the person's own pointer (not the core
 *                        pointer libcua drives) 4 px right and back, N
 *                        times, MS ms apart
 *   nudge on|off         while on, the person moves their pointer (4 px
 *                        right and back) each time the core pointer's
 *                        button 1 goes down, before the core pointer's
 *                        next event: a synchronous XI2 grab of that
 *                        button holds the core pointer until the motion
 *                        is done, then replays the press to its window.
 *                        So a drag certainly overlaps the person's
 *                        motion, however short the drag and however this
 *                        program is scheduled (a wiggle alone has gaps of
 *                        5 ms and more, longer than a drag can take)
 *
 * Prints "ready" once set up and "done" after each command; removes the
 * master when stdin closes.
 *
 * SPDX-License-Identifier: MIT
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#define NAME "cua-test-person"

#define CORE_POINTER 2 /* the Virtual core pointer, libcua's */

static Display *d;
static int kbd = -1, ptr = -1, xi_op, nudging;

static void
find_master(void)
{
	XIDeviceInfo *info;
	int n;

	info = XIQueryDevice(d, XIAllMasterDevices, &n);
	for (int i = 0; i < n; i++) {
		if (strcmp(info[i].name, NAME " pointer") == 0)
			ptr = info[i].deviceid;
		if (strcmp(info[i].name, NAME " keyboard") == 0)
			kbd = info[i].deviceid;
	}
	XIFreeDeviceInfo(info);
}

static void
tap(KeySym ks, int down_only_mods)
{
	KeyCode kc = XKeysymToKeycode(d, ks);

	(void)down_only_mods;
	if (!kc)
		return;
	XTestFakeKeyEvent(d, kc, True, CurrentTime);
	XTestFakeKeyEvent(d, kc, False, CurrentTime);
	XSync(d, False);
}

static KeySym
sym_of(char c)
{
	char s[2] = { c, 0 };

	return c == ' ' ? XK_space : XStringToKeysym(s);
}

static void
combo(char *spec)
{
	KeyCode held[8];
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(spec, "+", &save); tok;
	     tok = strtok_r(NULL, "+", &save)) {
		KeySym ks = strcmp(tok, "ctrl") == 0  ? XK_Control_L :
			    strcmp(tok, "alt") == 0   ? XK_Alt_L :
			    strcmp(tok, "shift") == 0 ? XK_Shift_L :
							XStringToKeysym(tok);
		KeyCode kc = XKeysymToKeycode(d, ks);

		if (kc && n < 8) {
			XTestFakeKeyEvent(d, kc, True, CurrentTime);
			held[n++] = kc;
		}
	}
	while (n > 0)
		XTestFakeKeyEvent(d, held[--n], False, CurrentTime);
	XSync(d, False);
}

static void
nudge(int on)
{
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = { CORE_POINTER, sizeof(bits), bits };
	XIGrabModifiers any = { XIAnyModifier, 0 };

	if (on == nudging)
		return;
	if (on) {
		XISetMask(bits, XI_ButtonPress);
		XISetMask(bits, XI_ButtonRelease);
		XIGrabButton(d, CORE_POINTER, 1, DefaultRootWindow(d), None,
			     XIGrabModeSync, XIGrabModeAsync, False, &mask, 1,
			     &any);
	} else {
		XIUngrabButton(d, CORE_POINTER, 1, DefaultRootWindow(d), 1,
			       &any);
	}
	XSync(d, False);
	nudging = on;
}

/* Handles the events read or readable now: a press of the core pointer
 * under the nudge grab. */
static void
handle_events(void)
{
	XEvent e;

	while (XPending(d)) {
		XNextEvent(d, &e);
		if (e.type != GenericEvent || e.xcookie.extension != xi_op ||
		    !XGetEventData(d, &e.xcookie))
			continue;
		if (e.xcookie.evtype == XI_ButtonPress) {
			/* the motion is processed before the core pointer
			 * is let go (the sync) */
			XTestFakeRelativeMotionEvent(d, 4, 0, CurrentTime);
			XTestFakeRelativeMotionEvent(d, -4, 0, CurrentTime);
			XSync(d, False);
			XIAllowEvents(d, CORE_POINTER, XIReplayDevice,
				      CurrentTime);
			XFlush(d);
		}
		XFreeEventData(d, &e.xcookie);
	}
}

/* Waits up to `ms` ms for a line on stdin (ms < 0: no limit), handling X
 * events meanwhile; 1 when a line is in `line`, 0 on timeout, -1 at the
 * end of stdin. */
static int
wait_line(char *line, size_t size, int ms)
{
	static char buf[512];
	static size_t have;
	struct pollfd p[2] = { { 0, POLLIN, 0 },
			       { ConnectionNumber(d), POLLIN, 0 } };
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		char *nl = memchr(buf, '\n', have);
		int left = ms;
		ssize_t n;

		if (nl && line) {
			size_t len = (size_t)(nl - buf);

			if (len >= size)
				len = size - 1;
			memcpy(line, buf, len);
			line[len] = '\0';
			have -= (size_t)(nl - buf) + 1;
			memmove(buf, nl + 1, have);
			return 1;
		}
		handle_events();
		if (ms >= 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			left = ms - (int)((t.tv_sec - t0.tv_sec) * 1000 +
					  (t.tv_nsec - t0.tv_nsec) / 1000000);
			if (left <= 0)
				return 0;
		}
		p[0].fd = line ? 0 : -1;
		if (poll(p, 2, left) < 0)
			continue;
		if (line && (p[0].revents & (POLLIN | POLLHUP))) {
			n = read(0, buf + have, sizeof(buf) - 1 - have);
			if (n <= 0)
				return -1;
			have += (size_t)n;
		}
	}
}

int
main(void)
{
	static char name[] = NAME;
	XIAddMasterInfo add = { XIAddMaster, name, True, True };
	char line[512];
	int ev, er, major = 2, minor = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	d = XOpenDisplay(NULL);
	if (!d || !XQueryExtension(d, "XInputExtension", &xi_op, &ev, &er) ||
	    XIQueryVersion(d, &major, &minor) != Success) {
		fprintf(stderr, "person: no X display with XInput2\n");
		return 1;
	}
	find_master();
	if (kbd < 0) {
		XIChangeHierarchy(d, (XIAnyHierarchyChangeInfo *)&add, 1);
		XSync(d, False);
		find_master();
	}
	if (kbd < 0 || ptr < 0) {
		fprintf(stderr, "person: cannot make the master device\n");
		return 1;
	}
	/* this client's XTEST input goes through the person's devices */
	XISetClientPointer(d, None, ptr);
	XSync(d, False);
	printf("ready\n");
	while (wait_line(line, sizeof(line), -1) == 1) {
		if (strcmp(line, "nudge on") == 0 ||
		    strcmp(line, "nudge off") == 0) {
			nudge(strcmp(line, "nudge on") == 0);
		} else if (strcmp(line, "follow") == 0) {
			Window w = 0;

			XIGetFocus(d, 3 /* the core keyboard */, &w);
			XISetFocus(d, kbd, w, CurrentTime);
			XSync(d, False);
		} else if (strncmp(line, "type ", 5) == 0) {
			for (const char *p = line + 5; *p; p++)
				tap(sym_of(*p), 0);
		} else if (strncmp(line, "key ", 4) == 0) {
			combo(line + 4);
		} else if (strncmp(line, "burst ", 6) == 0) {
			char c;
			int n, ms;

			if (sscanf(line + 6, "%c %d %d", &c, &n, &ms) == 3)
				for (int i = 0; i < n; i++) {
					tap(sym_of(c), 0);
					wait_line(NULL, 0, ms);
				}
		} else if (strncmp(line, "wiggle ", 7) == 0) {
			int n, ms;

			if (sscanf(line + 7, "%d %d", &n, &ms) == 2)
				for (int i = 0; i < n; i++) {
					XTestFakeRelativeMotionEvent(
						d, i % 2 ? -4 : 4, 0,
						CurrentTime);
					XSync(d, False);
					wait_line(NULL, 0, ms);
				}
		}
		printf("done\n");
	}
	nudge(0);
	{
		XIRemoveMasterInfo rm = { XIRemoveMaster, kbd, XIFloating, 0,
					  0 };

		XIChangeHierarchy(d, (XIAnyHierarchyChangeInfo *)&rm, 1);
		XSync(d, False);
	}
	XCloseDisplay(d);
	return 0;
}
