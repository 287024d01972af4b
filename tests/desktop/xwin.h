/*
 * The window system as the desktop tests see it, independently of libcua
 * (plain Xlib): find an app's window, ask the window manager to maximise
 * or restore it, read where the pointer is. A test reads back with these
 * what libcua did.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_XWIN_H
#define CUA_TEST_XWIN_H

#include <sys/types.h>

/* The largest viewable client window (_NET_CLIENT_LIST) of process
 * `pid`, waiting up to timeout_ms for one; 0 when there is none. */
unsigned long
xwin_find(pid_t pid, int timeout_ms);

/* A viewable client window whose title (_NET_WM_NAME) contains `part`,
 * waiting up to timeout_ms; its pid in *pid (0 unknown). 0 when there is
 * none. */
unsigned long
xwin_find_title(const char *part, int timeout_ms, pid_t *pid);

/* How many override-redirect windows (menus, tooltips) are viewable on
 * the root window now; -1 when it cannot be read. */
int
xwin_popups(void);

/* Asks the window manager to maximise (on = 1) or restore (on = 0)
 * window `w` (_NET_WM_STATE), then waits until its state says so and its
 * geometry has stayed the same for 300 ms. 0, or -1 on timeout. */
int
xwin_maximize(unsigned long w, int on, int timeout_ms);

/* The client window's rectangle in root coordinates. 0 or -1. */
int
xwin_geometry(unsigned long w, int *x, int *y, int *width, int *height);

/* The pointer's position on the root window. 0 or -1. */
int
xwin_pointer(int *x, int *y);

#endif
