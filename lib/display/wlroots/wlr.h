/*
 * Building blocks of the wlroots display driver: one Wayland connection
 * to a compositor that offers the wlroots protocols (sway and others),
 * and synthetic input, output capture and the list of toplevel windows
 * through it.
 *
 *   protocol                          what it gives       feature
 *   zwp_virtual_keyboard_manager_v1   key events          CUA_WLR_KEYBOARD
 *   zwlr_virtual_pointer_manager_v1   pointer events      CUA_WLR_POINTER
 *   zwlr_screencopy_manager_v1        output pixels       CUA_WLR_CAPTURE
 *   zwlr_foreign_toplevel_manager_v1  titles, app ids,    CUA_WLR_TOPLEVELS
 *                                     activation
 *   sway's IPC (SWAYSOCK)             window geometry,    CUA_WLR_GEOMETRY
 *                                     process ids
 * Window geometry is in none of the protocols; only sway's IPC has it
 * (sway-ipc.h). Without it, nothing here guesses where a window is.
 *
 * Coordinates are global layout coordinates in logical pixels: the space
 * outputs are placed in (zxdg_output_v1 logical position and size, or the
 * wl_output mode divided by its scale when the compositor has no
 * xdg-output), the space sway's IPC reports window rectangles in.
 *
 * Threads: a struct cua_wlr belongs to one thread at a time; the caller
 * serialises calls (different connections are independent). Nothing here
 * starts a thread or installs a signal handler.
 *
 * Failure: every call returns a cua_result and sets cua_error() to a
 * sentence that says what went wrong. No call blocks longer than its
 * timeout: every round trip to the compositor is bounded by
 * cua_wlr_options.timeout_ms (a capture by capture_timeout_ms). When the
 * compositor closes the connection, sends a protocol error or does not
 * answer in time, the call fails with CUA_ERROR_BACKEND and the
 * connection is dropped; the next call connects again (and makes a new
 * virtual keyboard and pointer). A feature the compositor does not offer
 * fails with CUA_ERROR_UNSUPPORTED and the reason of
 * cua_wlr_feature_reason().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_WLROOTS_WLR_H
#define CUA_DISPLAY_WLROOTS_WLR_H

#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "core/image.h"
#include "core/keys.h"
#include "core/raw.h"

struct cua_wlr;

enum cua_wlr_feature {
	CUA_WLR_KEYBOARD,
	CUA_WLR_POINTER,
	CUA_WLR_CAPTURE,
	CUA_WLR_TOPLEVELS,
	CUA_WLR_GEOMETRY,
	CUA_WLR_N_FEATURES
};

struct cua_wlr_options {
	/* The display to connect to: a socket name in XDG_RUNTIME_DIR or an
	 * absolute path. NULL: $WAYLAND_DISPLAY, read once by cua_wlr_open
	 * (reconnects use the same name). */
	const char *display;
	/* sway's IPC socket. NULL: $SWAYSOCK, read once by cua_wlr_open;
	 * "": none. */
	const char *swaysock;
	int timeout_ms;         /* one round trip: 1000 */
	int capture_timeout_ms; /* one capture: 2500 */
	/* After a new keymap reached the compositor, before the first key
	 * that needs it (see keyboard.c). 0: the default (50 ms). */
	int keymap_delay_ms;
	/* After a new virtual keyboard or pointer: a round trip, then this
	 * long before its first event (clients bind their wl_keyboard /
	 * wl_pointer only after the seat announced it). 0: the default
	 * (50 ms); -1: not even the round trip (for measurements). */
	int warmup_ms;
	/* Bit (1 << feature): leave that global unbound, as if the
	 * compositor did not offer it (tests of the capability report). */
	uint32_t skip;
	const struct cua_ctx *ctx; /* logging; may be NULL */
};

/* Fills `opt` with the defaults. */
void
cua_wlr_options_default(struct cua_wlr_options *opt);

/*
 * Connects to the compositor and binds what it offers. Fails with
 * CUA_ERROR_BACKEND when there is no Wayland display to connect to (the
 * message names it) or it does not answer; a compositor without some of
 * the wlroots protocols is not an error (see cua_wlr_has()). `opt` may be
 * NULL (defaults); it is copied.
 */
cua_result
cua_wlr_open(struct cua_wlr **out, const struct cua_wlr_options *opt);
/* Releases held keys and buttons, destroys the virtual devices and
 * disconnects. Accepts NULL. */
void
cua_wlr_close(struct cua_wlr *w);

/* Connects again if the connection was dropped. Every call below does
 * this first. */
cua_result
cua_wlr_ensure(struct cua_wlr *w);

/* 1 when the compositor offers `f` (as of the last connection), else 0
 * and cua_wlr_feature_reason() says why. */
int
cua_wlr_has(struct cua_wlr *w, enum cua_wlr_feature f);
/* A phrase saying why `f` is unavailable ("the compositor does not offer
 * the virtual keyboard protocol (zwp_virtual_keyboard_manager_v1)"), or
 * NULL when it is available. Valid until the next call on `w`. */
const char *
cua_wlr_feature_reason(struct cua_wlr *w, enum cua_wlr_feature f);
/* The feature's name for reports ("keyboard", "pointer", ...). */
const char *
cua_wlr_feature_name(enum cua_wlr_feature f);

/* The compositor's process id (the peer of the connection), or 0 when
 * not connected or not known. */
int32_t
cua_wlr_compositor_pid(struct cua_wlr *w);

/* sway's IPC socket when CUA_WLR_GEOMETRY is available, else NULL. */
const char *
cua_wlr_sway_socket(struct cua_wlr *w);

/* A round trip: every request sent before it has been processed by the
 * compositor. */
cua_result
cua_wlr_roundtrip(struct cua_wlr *w);

/* ---- Outputs ------------------------------------------------------- */

struct cua_wlr_output {
	char name[64];         /* "HEADLESS-1", "" when unknown */
	struct cua_rect rect;  /* logical, global */
	int32_t width, height; /* current mode, in buffer pixels */
	int32_t scale;         /* wl_output integer scale */
	int32_t transform;     /* wl_output transform */
};

/* The outputs as of the last round trip (at most `max`); returns how
 * many there are. */
size_t
cua_wlr_outputs(struct cua_wlr *w, struct cua_wlr_output *out, size_t max);
/* The bounding box of all outputs (global logical coordinates). Fails
 * with CUA_ERROR_BACKEND when there is no output. */
cua_result
cua_wlr_layout(struct cua_wlr *w, struct cua_rect *box);

/* ---- Keyboard (keyboard.c) -------------------------------------------
 *
 * One zwp_virtual_keyboard_v1 for the life of the connection, made on
 * first use, with a keymap built by libxkbcommon from the standard
 * evdev/pc105/us rules (so BackSpace, Delete, Return and shortcuts such
 * as ctrl+x are the keys applications know) plus one extra key per
 * keysym the standard keymap lacks (any Unicode character, keysyms of
 * other layouts). A new keymap is uploaded only when a chord needs a
 * keysym not on the current one.
 */

/*
 * Presses the chords in order (struct cua_key_chord: modifiers pressed
 * in the order written, the key pressed and released, the modifiers
 * released in reverse order), with the modifier state the compositor
 * forwards to clients kept equal to the keys held. A keysym on a shifted
 * level gets Shift for that key only. Returns after a round trip, when
 * the compositor has dispatched every event to the focused client.
 * CUA_ERROR_INVALID_ARGUMENT for keysym 0. Keys are released on error.
 */
cua_result
cua_wlr_keys(struct cua_wlr *w, const struct cua_key_chord *chords, size_t n);

/*
 * Sets (fn non-NULL) or clears the function cua_wlr_keys calls before
 * each chord: a result other than CUA_OK (its message set by fn) stops
 * the keys there, every key released, and is returned. The display
 * driver sets the action's interrupt (display.h) for one call.
 */
void
cua_wlr_set_interrupt(struct cua_wlr *w, cua_result (*fn)(void *data),
		      void *data);

/* Makes the virtual keyboard now (and waits the warm-up) instead of on
 * the first key; on sway a window is shown as active only while a
 * keyboard exists. */
cua_result
cua_wlr_keyboard_prepare(struct cua_wlr *w);

/* ---- Pointer (pointer.c) --------------------------------------------- */

/* Makes the virtual pointer now instead of on the first event, which
 * then waits only for what is left of its settling time (pointer.c). */
cua_result
cua_wlr_pointer_prepare(struct cua_wlr *w);

/* Linux input button codes (BTN_LEFT ...). */
#define CUA_WLR_BTN_LEFT 0x110
#define CUA_WLR_BTN_RIGHT 0x111
#define CUA_WLR_BTN_MIDDLE 0x112

/* Moves the pointer to (x, y), global logical coordinates inside the
 * layout (CUA_ERROR_INVALID_ARGUMENT outside it, naming the layout). */
cua_result
cua_wlr_pointer_move(struct cua_wlr *w, double x, double y);
/* Presses (pressed = 1) or releases a button where the pointer is. */
cua_result
cua_wlr_pointer_button(struct cua_wlr *w, uint32_t button, int pressed);
/* Moves to (x, y) and clicks `count` times (1..3). */
cua_result
cua_wlr_pointer_click(struct cua_wlr *w, double x, double y, uint32_t button,
		      int count);
/* Wheel steps where the pointer is: dy > 0 scrolls down, dx > 0 right
 * (one step = one notch, 15 units of wl_pointer.axis). */
cua_result
cua_wlr_pointer_scroll(struct cua_wlr *w, int dx, int dy);

/* ---- Capture (capture.c) ----------------------------------------------
 *
 * zwlr_screencopy_manager_v1 into wl_shm buffers that are kept for the
 * next capture (one pool per output, grown when too small).
 */

struct cua_wlr_shot {
	/* Owned by the caller (free px.data). 32 bits per pixel, the
	 * channel masks of the format the compositor chose; alpha_mask is
	 * always 0: an output's pixels are opaque. */
	struct cua_pixels px;
	struct cua_rect rect; /* what was captured: the request cut to the
			       * output, global logical coordinates */
	double scale;         /* buffer pixels per logical pixel */
	uint32_t format;      /* wl_shm format */
	int64_t capture_us;   /* request to pixels in memory */
	/* the time the compositor gave the output frame the pixels were
	 * copied from (screencopy `ready`), ns on its clock */
	uint64_t when_ns;
};

/*
 * Captures `rect` (global logical coordinates; NULL: the whole first
 * output). The rectangle is cut to the output that holds most of it;
 * CUA_ERROR_INVALID_ARGUMENT when it is empty or on no output. `overlay_cursor`: draw the pointer too.
 */
cua_result
cua_wlr_capture(struct cua_wlr *w, const struct cua_rect *rect,
		int overlay_cursor, struct cua_wlr_shot *out);

/* ---- Damage watches (watch.c) -------------------------------------------
 *
 * Whether the pixels of a captured region are still the ones captured,
 * from the compositor's damage (copy_with_damage, screencopy version 2).
 */

/*
 * Captures `rect` as cua_wlr_capture() does (no pointer) and, when the
 * rectangle lies wholly on one untransformed output and the compositor
 * has copy_with_damage, watches that output for damage from the captured
 * pixels on: *stamp is then nonzero, else 0 (the capture alone).
 */
cua_result
cua_wlr_capture_watched(struct cua_wlr *w, const struct cua_rect *rect,
			struct cua_wlr_shot *out, uint64_t *stamp);
/*
 * *unchanged = 1 when nothing was drawn on the output under `rect` since
 * the capture that gave `stamp`, after the compositor repainted what was
 * pending (one frame of the output at most; a capture of one pixel);
 * 0 when something was, or it cannot tell (another rectangle, the output
 * changed or went away, a stamp of an earlier connection or replaced by
 * newer watches). CUA_OK, or an error when the connection failed.
 */
cua_result
cua_wlr_unchanged(struct cua_wlr *w, const struct cua_rect *rect,
		  uint64_t stamp, int *unchanged);

/* ---- Toplevels (toplevels.c) ------------------------------------------ */

struct cua_wlr_toplevel {
	uint32_t id;  /* ours, stable while the window exists */
	char *title;  /* UTF-8 as the app set it (not sanitised); "" */
	char *app_id; /* "" when unset */
	int activated, maximized, minimized, fullscreen;
	uint32_t parent; /* id of the parent toplevel, 0 = none */
};

/* The toplevel windows after a round trip, in the order the compositor
 * announced them. Free with cua_wlr_toplevels_free(). */
cua_result
cua_wlr_toplevels(struct cua_wlr *w, struct cua_wlr_toplevel **out, size_t *n);
void
cua_wlr_toplevels_free(struct cua_wlr_toplevel *list, size_t n);
/* Asks the compositor to activate (focus, raise) the toplevel `id` and
 * waits at most `timeout_ms` until it reports it activated; *confirmed
 * says whether it did. CUA_ERROR_NOT_FOUND when `id` is gone. */
cua_result
cua_wlr_toplevel_activate(struct cua_wlr *w, uint32_t id, int timeout_ms,
			  int *confirmed);

/* ---- The display driver (driver.c) -------------------------------------
 *
 * The wlroots driver of the display seam (display/display.h), over one
 * connection made with `opt` (NULL: the defaults; tests pass `skip`).
 * Opens even when the compositor does not answer yet: its capabilities
 * say so and every call tries again.
 */
struct cua_display;
struct cua_display_env;
cua_result
cua_display_wlroots_open(struct cua_ctx *ctx, const struct cua_wlr_options *opt,
			 struct cua_display **out);

#endif
