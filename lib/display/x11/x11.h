/*
 * The x11 display driver: internal interfaces shared by its files
 * (driver.c, x11.c, input.c, capture.c). Only lib/display/x11/ includes
 * Xlib.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_X11_H
#define CUA_DISPLAY_X11_H

#include <stddef.h>
#include <stdint.h>

#include <X11/Xlib.h>

#include "display/display.h"

struct x11;
struct shots;

/* The driver (struct cua_display first). */
struct x11_driver {
	struct cua_display base;
	struct x11 *x;       /* NULL while no X server answers */
	struct shots *shots; /* capture worker; NULL without X */
	/* Spare keycodes input.c left mapped until the app has read the
	 * keys typed with them (keys_restore; at the latest on destroy). */
	unsigned char kept_keycodes[64];
	size_t n_kept;
	int have_xtest;          /* of the current connection */
	struct user_watch *user; /* user.c; NULL until user_watch() */
	/* the display the session started with when no server answered
	 * then (malloc'd), for messages; NULL: DISPLAY was unset */
	char *wanted;
};

static inline struct x11_driver *
x11_driver(struct cua_display *d)
{
	return (struct x11_driver *)d;
}

/* ------------------------------------------------------------------ */
/* x11.c — window-system facts (Xlib)                                  */

struct x11 *
x11_open(const char *display_name); /* NULL if unreachable */
void
x11_close(struct x11 *x);
/* Root-window AT_SPI_BUS property (malloc'd) or NULL. */
char *
x11_get_atspi_bus(struct x11 *x);
int
x11_set_atspi_bus(struct x11 *x, const char *address);

/* The active toplevel (_NET_ACTIVE_WINDOW, else the focus window walked up
 * to its toplevel); 0 when none. */
uint64_t
x11_active_window(struct x11 *x);
/* The pid owning the window manager's check window, or 0. */
int64_t
x11_wm_pid(struct x11 *x);
/* The window manager's name (_NET_WM_NAME of the check window,
 * malloc'd), or NULL when no EWMH window manager runs. */
char *
x11_wm_name(struct x11 *x);
/* DisplayString of the connection (borrowed), or NULL. */
const char *
x11_display_name(struct x11 *x);
/* 0 while the X connection works; -1 (and marked dead) once the server
 * went away. No round trip. */
int
x11_check_alive(struct x11 *x);

struct x11_client {
	uint64_t window; /* client (managed) window */
	int64_t pid;     /* _NET_WM_PID, 0 if unknown */
	char *title;     /* _NET_WM_NAME or WM_NAME, may be NULL */
	char *wm_class_class, *wm_class_instance;
	char *gtk_app_id;        /* _GTK_APPLICATION_ID */
	struct cua_rect frame;   /* content area in root coordinates */
	struct cua_rect surface; /* the whole client window */
	/* with the window manager's decorations (_NET_FRAME_EXTENTS);
	 * = surface when it declares none (has_outer 0) */
	struct cua_rect outer;
	int has_outer;
	int mapped; /* viewable */
	int iconified;
	struct cua_rect
		frame_extents; /* _GTK_FRAME_EXTENTS l,r,t,b in x,y,w,h */
	int has_frame_extents;
};

/* All client toplevels (_NET_CLIENT_LIST, else WM_STATE windows under the
 * root). Free with x11_clients_free. */
int
x11_list_clients(struct x11 *x, struct x11_client **out, size_t *n);
void
x11_clients_free(struct x11_client *clients, size_t n);

/* The rectangle of the window manager's frame (decorations included)
 * around a reparented client window; 0, or -1 when it is not reparented
 * or vanished. */
int
x11_wm_frame_rect(struct x11 *x, uint64_t client, struct cua_rect *r);
/* The window WM_TRANSIENT_FOR of `window` names, or 0. */
uint64_t
x11_transient_for(struct x11 *x, uint64_t window);

/*
 * match.c: matches the AT-SPI toplevels of one process to X11 windows: for each
 * toplevel (name, role, screen extents), fills info[i] (x11_window 0 when
 * no match). Matching: same pid, then title, then geometry, each X11
 * window used at most once.
 */
void
x11_match_toplevels(struct x11 *x, int64_t pid,
		    const struct cua_display_toplevel_query *tops, size_t n,
		    struct cua_raw_window_info *info, struct cua_arena *arena);

/* Input support. */
Display *
x11_display(struct x11 *x); /* NULL when dead */
void
x11_trap_begin(void);
int
x11_trap_end(struct x11 *x); /* 0: no X error since begin */
int
x11_has_wm(struct x11 *x);
int
x11_window_info(struct x11 *x, uint64_t window, struct cua_win *out);
/* The client (or override-redirect) window at a root point; window 0 when
 * only the root is there. 0 or -1. */
int
x11_window_at(struct x11 *x, int32_t rx, int32_t ry, struct cua_win *out);
/* The client window of the toplevel holding input focus (window 0 when
 * none). 0 or -1. */
int
x11_focus_toplevel(struct x11 *x, struct cua_win *out);
/* 1 when `window` or another window of `pid` holds input focus (and is
 * the active window under an EWMH window manager). */
int
x11_focus_holds(struct x11 *x, uint64_t window, int64_t pid);
/* Activates (docs/actions.md §1.4 step 2) and waits for the confirmation:
 * 1 confirmed, 0 not within timeout_ms, -1 error. */
int
x11_activate(struct x11 *x, uint64_t window, int timeout_ms);

/* ------------------------------------------------------------------ */
/* clientpid.c — the process of a window without _NET_WM_PID          */

/* 1 when the X-Resource extension (1.2) reports this process's own
 * connection as getpid(): its pids are this machine's and this pid
 * namespace's. */
int
x11_xres_usable(struct x11 *x);
/* The pid of the local connection that created `window`; 0 when unknown
 * or when `client_machine` (its WM_CLIENT_MACHINE, may be NULL) names
 * another host. Only after x11_xres_usable said 1. */
int64_t
x11_xres_window_pid(struct x11 *x, uint64_t window, const char *client_machine);

/* ------------------------------------------------------------------ */
/* input.c — XTEST input and window operations                         */

cua_result
x11d_window_query(struct cua_display *d, uint64_t window, struct cua_win *out);
cua_result
x11d_window_at(struct cua_display *d, int32_t x, int32_t y,
	       struct cua_win *out);
cua_result
x11d_focus_window(struct cua_display *d, struct cua_win *out);
cua_result
x11d_activate_window(struct cua_display *d, uint64_t window, int timeout_ms,
		     int *confirmed);
cua_result
x11d_pointer(struct cua_display *d, const struct cua_pointer_event *ev,
	     size_t n, int restore);
cua_result
x11d_keys(struct cua_display *d, const struct cua_key_chord *chords, size_t n,
	  int keymap_delay_ms, const struct cua_display_sync *sync, int *kept);
cua_result
x11d_keys_restore(struct cua_display *d);

/* ------------------------------------------------------------------ */
/* user.c — the person's own input (docs/safety.md §6)                 */

int
x11d_user_watch(struct cua_display *d, cua_user_fn fn, void *data, char *why,
		size_t size);
void
x11d_user_stop_key(struct cua_display *d, int grab);
void
x11d_user_sync(struct cua_display *d, int timeout_ms);
void
x11_user_free(struct x11_driver *xd);

/* ------------------------------------------------------------------ */
/* capture.c — window capture and damage (docs/screenshots.md §2, §6, §8)   */

/* NULL when there is no X display. */
struct shots *
shots_new(struct x11_driver *xd);
void
shots_free(struct shots *sh);
/* Drops the capture worker (its X connection died with the server). */
void
shots_reset(struct shots *sh);

void
x11d_track_window(struct cua_display *d, uint64_t window);
cua_result
x11d_capture(struct cua_display *d, const struct cua_capture_request *req,
	     struct cua_capture **out, enum cua_capture_status *status);
size_t
x11d_take_damage(struct cua_display *d, struct cua_display_damage *out,
		 size_t max);

/* ------------------------------------------------------------------ */
/* popups.c — the app's open popups in a window's capture               */

/* Pastes the viewable override-redirect windows of win's process
 * (_NET_WM_PID, atom a_pid) stacked above win onto c, where they overlap
 * its frame on the screen; returns how many. */
int
x11_paste_popups(struct x11 *x, Window win, Atom a_pid, struct cua_capture *c);
/* 1 when no other window covers `win` and it lies within the screen (on
 * connection `dpy`, errors trapped through `xs`). */
int
x11_wholly_visible(struct x11 *xs, Display *dpy, Window win, int64_t *area);
/* How many popups x11_paste_popups() would paste over `frame` now. */
int
x11_count_popups(struct x11 *x, Window win, Atom a_pid,
		 const struct cua_rect *frame);

#endif
