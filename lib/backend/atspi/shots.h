/*
 * AT-SPI2 + X11 backend: window capture (capture.c) and event watching
 * (events.c) for screenshots and settle (screenshots.md).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_BACKEND_ATSPI_SHOTS_H
#define CUA_BACKEND_ATSPI_SHOTS_H

#include <X11/Xlib.h>

#include "atspi.h"

/* From x11.c (also used by the input code). */
Display *x11_display(struct x11 *x);
void x11_trap_begin(void);
int x11_trap_end(struct x11 *x);

/* ------------------------------------------------------------------ */
/* capture.c                                                           */

struct shots;

/* NULL when there is no X display. */
struct shots *shots_new(struct atspi_be *be);
void shots_free(struct shots *sh);
/* Drops the capture worker (its X connection died with the server). */
void shots_reset(struct shots *sh);

void atspi_track_window(struct cua_backend *b, uint64_t window);
cua_result atspi_capture(struct cua_backend *b,
			 const struct cua_capture_request *req,
			 struct cua_capture **out,
			 enum cua_capture_status *status);

/* Damage seen on tracked windows since the last call, oldest first
 * (events.c delivers them); returns how many were copied. */
struct shots_damage {
	uint64_t window;
	struct cua_rect area;
	int64_t time_us;
};
size_t shots_take_damage(struct shots *sh, struct shots_damage *out,
			 size_t max);

/*
 * Decodes an XWD file (as `xwd -silent` writes it: ZPixmap, TrueColor or
 * DirectColor) into pixels (data malloc'd). Returns 0 or -1. Exposed for
 * unit tests.
 */
int xwd_decode(const uint8_t *buf, size_t len, struct cua_pixels *out);

/* ------------------------------------------------------------------ */
/* events.c                                                            */

struct events;

/* Stops the filter; the GDBus worker may still be inside it until the
 * connection is closed, so: events_detach, close the bus, events_free. */
void events_detach(struct events *ev);
void events_free(struct events *ev);
/* Subscribes again on a new accessibility bus connection (after
 * events_detach from the old one); NULL is allowed. */
void events_reattach(struct events *ev);

cua_result atspi_watch_add(struct cua_backend *b, const char *bus_name,
			   uint64_t window, cua_event_fn fn, void *user_data,
			   uint32_t *id_out);
void atspi_watch_remove(struct cua_backend *b, uint32_t id);
int atspi_watch_dispatch(struct cua_backend *b, int64_t deadline_us);

/* "object:state-changed:busy" from interface
 * "org.a11y.atspi.Event.Object", member "StateChanged", minor "busy";
 * writes at most `size` bytes. Exposed for unit tests. */
void events_type_name(const char *iface, const char *member,
		      const char *minor, char *buf, size_t size);

#endif
