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
 *
 * Prints "ready" once set up and "done" after each command; removes the
 * master when stdin closes.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#define NAME "cua-test-person"

static Display *d;
static int kbd = -1, ptr = -1;

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

int
main(void)
{
	static char name[] = NAME;
	XIAddMasterInfo add = { XIAddMaster, name, True, True };
	char line[512];
	int op, ev, er, major = 2, minor = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	d = XOpenDisplay(NULL);
	if (!d || !XQueryExtension(d, "XInputExtension", &op, &ev, &er) ||
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
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, "follow") == 0) {
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
					usleep((useconds_t)ms * 1000);
				}
		} else if (strncmp(line, "wiggle ", 7) == 0) {
			int n, ms;

			if (sscanf(line + 7, "%d %d", &n, &ms) == 2)
				for (int i = 0; i < n; i++) {
					XTestFakeRelativeMotionEvent(
						d, i % 2 ? -4 : 4, 0,
						CurrentTime);
					XSync(d, False);
					usleep((useconds_t)ms * 1000);
				}
		}
		printf("done\n");
	}
	{
		XIRemoveMasterInfo rm = { XIRemoveMaster, kbd, XIFloating, 0,
					  0 };

		XIChangeHierarchy(d, (XIAnyHierarchyChangeInfo *)&rm, 1);
		XSync(d, False);
	}
	XCloseDisplay(d);
	return 0;
}
