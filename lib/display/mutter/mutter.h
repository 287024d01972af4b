/*
 * The mutter display driver's parts (GNOME on Wayland): a remote-desktop
 * session of org.gnome.Mutter.RemoteDesktop with a screen-cast session
 * attached (session.c), the frames of its stream from PipeWire
 * (pipewire.c) and the driver of the display seam (driver.c).
 *
 * Threads: as display.h; the PipeWire loop runs on a thread of its own
 * and only touches struct mutter_pw under its lock.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_MUTTER_H
#define CUA_DISPLAY_MUTTER_H

#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "core/image.h"

/* ---- session.c -------------------------------------------------------- */

struct mutter_session;

/* Whether mutter's remote-desktop interface answers on the session bus:
 * 1, or 0 with `why`. */
int
mutter_available(char *why, size_t size);

/*
 * Creates a remote-desktop session, with `cast` a screen-cast session that
 * records the focused window (RecordWindow), starts it and waits at most
 * timeout_ms for the stream's PipeWire node. Then taps Shift and waits
 * warmup_ms: the first keys of a fresh session are dropped otherwise.
 * Without `cast` there are keys, buttons and the wheel, but no absolute
 * motion (mutter moves the pointer only on a stream) and no frames.
 * CUA_ERROR_NOT_FOUND: no window has keyboard focus, so there is none to
 * record (a later call may find one).
 */
cua_result
mutter_session_open(int cast, int timeout_ms, int warmup_ms,
		    struct mutter_session **out);
/* 1 when the session has a screen-cast stream. */
int
mutter_session_has_cast(const struct mutter_session *s);
void
mutter_session_close(struct mutter_session *s);
/* The stream's PipeWire node id. */
uint32_t
mutter_session_node(const struct mutter_session *s);
/* 0 when mutter closed the session (it went away or stopped it). */
int
mutter_session_alive(struct mutter_session *s);

cua_result
mutter_keysym(struct mutter_session *s, uint32_t keysym, int pressed);
/* Absolute motion in the stream's coordinates. */
cua_result
mutter_motion(struct mutter_session *s, double x, double y);
/* button: a Linux input code (BTN_LEFT = 0x110 ...). */
cua_result
mutter_button(struct mutter_session *s, int32_t button, int pressed);
/* axis 0: vertical, 1: horizontal; steps > 0: down or right. */
cua_result
mutter_axis(struct mutter_session *s, uint32_t axis, int32_t steps);

/* ---- pipewire.c ------------------------------------------------------- */

struct mutter_pw;

/* Connects a stream to PipeWire node `node`; on_frame is called on the
 * loop thread after each new frame. */
cua_result
mutter_pw_open(uint32_t node, void (*on_frame)(void *data), void *data,
	       struct mutter_pw **out);
void
mutter_pw_close(struct mutter_pw *p);
/* A copy of the last frame newer than serial `after` (0: any), waiting at
 * most timeout_ms for one; *serial: the frame's number. */
cua_result
mutter_pw_frame(struct mutter_pw *p, int timeout_ms, uint64_t after,
		struct cua_pixels *px, uint64_t *serial);
/* 1 while the stream works, else 0 with `why`. */
int
mutter_pw_alive(struct mutter_pw *p, char *why, size_t size);
/* cua_now_us() of the first frame, 0 before it. */
int64_t
mutter_pw_first_frame_us(struct mutter_pw *p);

#endif
