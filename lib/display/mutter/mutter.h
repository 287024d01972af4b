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

#include <gio/gio.h>

#include "core/ctx.h"
#include "core/image.h"

/* ---- session.c: the remote-desktop session ---------------------------- */

/*
 * A remote-desktop session with, when `cast` was asked for, a screen-cast
 * stream of one window, whose frames come from PipeWire. Two
 * implementations: mutter's own D-Bus interfaces (session.c) and the
 * desktop portal's (portal.c). The driver (driver.c) uses either through
 * rd_ops.
 */
struct rd_session {
	const struct rd_ops *ops;
	uint32_t node; /* the stream's PipeWire node id */
	int have_node; /* 1 when the session has a screen-cast stream */
	int pw_fd;     /* the PipeWire remote to connect to, -1: the default */
	/* a private connection to the session bus whose signals are read
	 * in a main context of its own, here and nowhere else */
	GMainContext *mc;
	GDBusConnection *bus;
	guint sub_closed;
	int closed; /* the other side closed the session */
};

struct rd_ops {
	const char *name; /* "mutter", "portal" */
	/* Whether the interface answers on the session bus: 1, or 0 with
	 * `why`. */
	int (*available)(char *why, size_t size);
	/*
	 * Creates a session, with `cast` a screen-cast stream of one window
	 * (mutter: the focused one), starts it and waits at most timeout_ms
	 * for the stream's PipeWire node. Without `cast` there are keys,
	 * buttons and the wheel, but no absolute motion (mutter moves the
	 * pointer only on a stream) and no frames. CUA_ERROR_NOT_FOUND: no
	 * window has keyboard focus, so there is none to record (a later
	 * call may find one).
	 */
	cua_result (*open)(int cast, int timeout_ms, struct rd_session **out);
	void (*close)(struct rd_session *s);
	cua_result (*keysym)(struct rd_session *s, uint32_t keysym,
			     int pressed);
	/* Absolute motion in the stream's coordinates. */
	cua_result (*motion)(struct rd_session *s, double x, double y);
	/* button: a Linux input code (BTN_LEFT = 0x110 ...). */
	cua_result (*button)(struct rd_session *s, int32_t button, int pressed);
	/* axis 0: vertical, 1: horizontal; steps > 0: down or right. */
	cua_result (*axis)(struct rd_session *s, uint32_t axis, int32_t steps);
};

extern const struct rd_ops rd_mutter_ops;
extern const struct rd_ops rd_portal_ops;

/* portal.c: the portal's restore token, kept between libcua sessions in
 * $XDG_STATE_HOME/libcua/portal-restore-token (else
 * ~/.local/state/libcua/...). Loading gives "" when there is none or the
 * file holds no token; saving replaces the file atomically with mode
 * 0600 (0, or -1 with `why`). */
void
rd_portal_token_load(char *out, size_t size);
int
rd_portal_token_save(const char *token, char *why, size_t size);

/* ops->open, then a key of no keymap (it makes the session's keyboard;
 * no app sees it) and warmup_ms: the first keys of a fresh session are
 * dropped otherwise. */
cua_result
rd_open(const struct rd_ops *ops, int cast, int timeout_ms, int warmup_ms,
	struct rd_session **out);

static inline void
rd_close(struct rd_session *s)
{
	if (s)
		s->ops->close(s);
}

static inline int
rd_has_cast(const struct rd_session *s)
{
	return s->have_node;
}

/* 0 when the other side closed the session (it went away or stopped
 * it). */
int
rd_alive(struct rd_session *s);

static inline cua_result
rd_keysym(struct rd_session *s, uint32_t keysym, int pressed)
{
	return s->ops->keysym(s, keysym, pressed);
}

static inline cua_result
rd_motion(struct rd_session *s, double x, double y)
{
	return s->ops->motion(s, x, y);
}

static inline cua_result
rd_button(struct rd_session *s, int32_t button, int pressed)
{
	return s->ops->button(s, button, pressed);
}

static inline cua_result
rd_axis(struct rd_session *s, uint32_t axis, int32_t steps)
{
	return s->ops->axis(s, axis, steps);
}

/* What the implementations share: a private connection to the session
 * bus (callbacks of its signal subscriptions run in `mc` when given), and
 * a call with a timeout that never starts a service. */
GDBusConnection *
rd_bus_open(GMainContext *mc, char *why, size_t size);
GVariant *
rd_call(GDBusConnection *c, const char *dest, const char *path,
	const char *iface, const char *method, GVariant *args, const char *type,
	GError **err);
/* The base of a new session: its connection, with a main context of its
 * own. 0, or -1 with `why`. */
int
rd_base_open(struct rd_session *s, const struct rd_ops *ops, char *why,
	     size_t size);
/* Marks the session closed when `sender` sends `iface`.Closed on
 * `path`. */
void
rd_watch_closed(struct rd_session *s, const char *sender, const char *iface,
		const char *path);
/* Closes the connection and drains the main context (pending signal
 * callbacks hold the session); the session's own memory stays. */
void
rd_base_release(struct rd_session *s);
/* Whether `name` has an owner on the session bus: 1, or 0 with `why`
 * (`absent`: the sentence when nothing owns it). */
int
rd_name_owned(const char *name, const char *absent, char *why, size_t size);

/* ---- pipewire.c ------------------------------------------------------- */

struct mutter_pw;

/* Connects a stream to PipeWire node `node`, through the remote `fd`
 * (duplicated; -1: PipeWire's default one); on_frame is called on the
 * loop thread after each new frame. */
cua_result
mutter_pw_open(uint32_t node, int fd, void (*on_frame)(void *data), void *data,
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
