/*
 * Internals shared by the files of the wlroots building blocks: the
 * connection object and the helpers every module uses to talk to the
 * compositor with a deadline. Same thread rules as wlr.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_WLROOTS_WLR_PRIVATE_H
#define CUA_DISPLAY_WLROOTS_WLR_PRIVATE_H

#include <wayland-client.h>

#include "wlr.h"

struct wlr_keyboard;
struct wlr_pointer;
struct wlr_capture;
struct wlr_watches;
struct wlr_toplevels;

struct wlr_output {
	struct wl_list link;
	uint32_t global; /* registry name */
	struct wl_output *wl;
	struct zxdg_output_v1 *xdg;
	struct cua_wlr_output info;
	int have_logical; /* xdg-output gave position and size */
};

/* A round trip in progress (wl_display.sync). */
struct wlr_sync {
	struct cua_wlr *w;
	struct wl_callback *cb;
	int done;
};

struct cua_wlr {
	struct cua_wlr_options opt;
	char display_name[256];
	char swaysock[108]; /* "" none */

	struct wl_display *dpy; /* NULL: not connected */
	struct wl_registry *registry;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct zxdg_output_manager_v1 *xdg_output_manager;
	struct zwp_virtual_keyboard_manager_v1 *vk_manager;
	struct zwlr_virtual_pointer_manager_v1 *vp_manager;
	uint32_t vp_manager_version;
	struct zwlr_screencopy_manager_v1 *screencopy;
	uint32_t screencopy_version;
	uint32_t screencopy_name; /* its registry name (watch.c binds more) */
	struct zwlr_foreign_toplevel_manager_v1 *toplevel_manager;
	int toplevel_manager_failed; /* no memory for its state */
	struct wl_list outputs;      /* struct wlr_output */
	struct wlr_sync *sync;       /* the round trip being waited for */

	/* per-connection state of the modules (NULL until first use) */
	struct wlr_keyboard *kb;
	struct wlr_pointer *ptr;
	struct wlr_capture *cap;
	struct wlr_watches *watch;
	struct wlr_toplevels *top; /* made at connect: events start then */

	/* the keyboard's keymap and lookup tables outlive connections */
	struct wlr_keymap *keymap;

	/* cua_wlr_set_interrupt */
	cua_result (*interrupt)(void *data);
	void *interrupt_data;

	char reason[CUA_WLR_N_FEATURES][160];
};

/* Protocol names as the registry spells them. */
extern const char *const cua_wlr_interface_name[CUA_WLR_N_FEATURES];

/*
 * Dispatches events until *flag becomes non-zero or `timeout_ms` passes
 * (flushing requests first, waiting for the socket to drain when it is
 * full). `what` names the wait in the error message. On timeout, a lost
 * connection or a protocol error the connection is dropped and
 * CUA_ERROR_BACKEND returned.
 */
cua_result
wlr_dispatch_until(struct cua_wlr *w, const int *flag, int timeout_ms,
		   const char *what);
/* The same for an event that may not come: on timeout the connection is
 * kept and CUA_ERROR_TIMEOUT returned. */
cua_result
wlr_wait_event(struct cua_wlr *w, const int *flag, int timeout_ms,
	       const char *what);
/* Sends what is queued, waiting for the socket to drain at most the
 * round-trip timeout. */
cua_result
wlr_flush(struct cua_wlr *w);
/* Drops the connection after a failure, with cua_error() already set. */
void
wlr_drop(struct cua_wlr *w);
/* The error of a dead connection, as CUA_ERROR_BACKEND with a sentence;
 * drops it. */
cua_result
wlr_lost(struct cua_wlr *w, const char *what);
/* A screencopy `ready` time in nanoseconds. */
static inline uint64_t
wlr_frame_time_ns(uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec)
{
	return ((uint64_t)sec_hi << 32 | sec_lo) * UINT64_C(1000000000) + nsec;
}
/* Milliseconds for protocol timestamps. */
uint32_t
wlr_time_ms(void);
/* The output whose rectangle holds (x, y), or NULL. */
struct wlr_output *
wlr_output_at(struct cua_wlr *w, int32_t x, int32_t y);

/* Module hooks called by the connection. *_forget: the connection is
 * gone, free the per-connection state without talking to the
 * compositor; *_destroy: orderly, on close (may send requests). */
cua_result
wlr_toplevels_start(struct cua_wlr *w);
void
wlr_toplevels_forget(struct cua_wlr *w);
/* Makes the virtual keyboard; with `wait`, waits its warm-up. */
cua_result
wlr_keyboard_make(struct cua_wlr *w, int wait);
void
wlr_keyboard_forget(struct cua_wlr *w);
void
wlr_keyboard_destroy(struct cua_wlr *w);
void
wlr_keymap_free(struct wlr_keymap *km);
void
wlr_pointer_forget(struct cua_wlr *w);
void
wlr_pointer_destroy(struct cua_wlr *w);
void
wlr_capture_forget(struct cua_wlr *w);
void
wlr_watch_forget(struct cua_wlr *w);
/* Sends the copy requests of the watches made to go with the capture
 * about to send its own (capture.c calls it right before). */
void
wlr_watch_release(struct cua_wlr *w);
/* Output `o` is going away: the watches of it end. */
void
wlr_watch_output_gone(struct cua_wlr *w, struct wlr_output *o);

#endif
