/*
 * What the wlroots driver (driver.c) and its window views (views.c)
 * share: the driver's state, and a view of the windows as sway's IPC and
 * the foreign-toplevel list give them in one call (driver.c's top
 * comment explains the handles, the coordinates and the shadows).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_WLROOTS_DRIVER_INT_H
#define CUA_DISPLAY_WLROOTS_DRIVER_INT_H

#include <sys/types.h>

#include "display/display.h"
#include "sway-ipc.h"
#include "wlr-private.h"

#define WLR_H_SWAY (UINT64_C(1) << 48)
#define WLR_H_TOPLEVEL (UINT64_C(1) << 49)
#define WLR_H_MASK (WLR_H_SWAY - 1)

struct wlr_driver {
	struct cua_display base;
	struct cua_wlr *w; /* NULL: not connected yet */
	struct cua_wlr_options opt;
	char display[256]; /* WAYLAND_DISPLAY as read at open */
	int pressed[8];    /* buttons held (1..3) */
	/* the size of each window's accessibility frame, as match_toplevels
	 * last saw it (logical pixels), newest first, and with `offset` where
	 * its content starts inside it */
	struct {
		uint64_t window;
		int32_t w, h;
		int offset;
		int32_t ox, oy;
	} seen[32];
};

/* Everything one call needs to know of the windows. */
struct wlr_view {
	struct cua_sway_window *sw; /* NULL without sway's IPC */
	size_t n_sw;
	struct cua_wlr_toplevel *tl;
	size_t n_tl;
	ssize_t *sw_tl;              /* sw[i] -> index into tl, or -1 */
	int geometry;                /* sw is usable */
	int scale;                   /* global units per logical pixel */
	const struct wlr_driver *wd; /* for the shadows seen */
};

/* Frees what wlr_view_read() read and zeroes the view. */
void
wlr_view_free(struct wlr_view *v);
/* The sway window of each toplevel: same app id and title, in order. */
void
wlr_view_pair(struct wlr_view *v);
/* `r` times `s`. */
struct cua_rect
wlr_scaled(struct cua_rect r, int s);
/* The index of `window` among the accessibility frames seen, or -1. */
ssize_t
wlr_seen_find(const struct wlr_driver *wd, uint64_t window);
/* Facts of sway window i. */
void
wlr_sway_win(const struct wlr_view *v, size_t i, struct cua_win *out);
/* Number of windows of the view. */
size_t
wlr_view_count(const struct wlr_view *v);
/* The facts, title, app id and focus of window k of the view. */
void
wlr_view_win(const struct wlr_view *v, size_t k, struct cua_win *out,
	     const char **title, const char **app_id, int *focused);
/* The view index of handle `h`, or -1. */
ssize_t
wlr_view_find(const struct wlr_view *v, uint64_t h);
/* Remembers the size of a window's accessibility frame and, offset = 1,
 * where its content starts inside it. */
void
wlr_seen_note(struct wlr_driver *wd, uint64_t window, int32_t w, int32_t h,
	      int offset, int32_t ox, int32_t oy);
/* 1 when the window has a client-side shadow of unknown size. */
int
wlr_shadowed(const struct wlr_driver *wd, const struct cua_win *win);
/* Where the content of a window starts inside the surface of a
 * toplevel query: 1 with *ox, *oy, or 0. */
int
wlr_content_offset(const struct cua_display_toplevel_query *q,
		   const struct cua_rect *frame, int s, int32_t *ox,
		   int32_t *oy);

#endif
