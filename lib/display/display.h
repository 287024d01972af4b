/*
 * The display seam: everything that touches the window system.
 *
 * The accessibility layer (lib/backend/atspi: the tree, element actions,
 * accessibility events, app discovery) is the same on every Linux
 * desktop. A display driver answers the rest: which toplevel windows
 * exist (pid, title, app id, geometry, focus), which window is at a point,
 * focus and activation, synthetic pointer and keyboard input, window
 * capture and the damage that drives the settle. One driver is chosen when
 * a session starts (cua_display_choose) and serves the whole session:
 *
 *   x11      Xlib: window properties, XTEST, XComposite, XDamage
 *   wlroots  virtual keyboard and pointer, screencopy, foreign-toplevel,
 *            sway's IPC for geometry
 *   mutter   org.gnome.Mutter.RemoteDesktop and ScreenCast, PipeWire
 *   portal   the same through xdg-desktop-portal
 *   none     no window system: the tree and element actions still work
 *
 * A driver that lacks something says so (capabilities()) with a phrase
 * naming the missing piece; it never guesses a window or a coordinate.
 * No platform header is included here: a driver keeps its own to
 * lib/display/<name>/.
 *
 * Threads: a driver is used by one thread at a time (the session's),
 * except hooks.wake, which it may call from any thread.
 *
 * Coordinates
 * -----------
 * Global coordinates: one pixel grid for the whole desktop, in device
 * pixels, the pixels a capture returns. Window geometry (cua_win.origin,
 * cua_win.frame), window_at(), pointer events and capture frames are all
 * global.
 *  - x11: root-window pixels.
 *  - wlroots: the compositor's layout coordinates times the output scale,
 *    so one capture pixel is one global unit; a driver that spans outputs
 *    of different scales defines the mapping and documents it.
 *  - mutter, portal: the coordinates of the stream the driver captures
 *    and moves the pointer on.
 *
 * AT-SPI coordinates: what the accessibility layer reports as extents.
 *  - On X11 toolkits report global coordinates ("screen" coordinates are
 *    root pixels); GTK 4 reports its windows at (0, 0), which the core
 *    handles (core/geometry.h, cua_geom_element_origin).
 *  - On Wayland a client does not know where its surface is: extents are
 *    relative to the app's own surface, in logical pixels, and for GTK 3
 *    that surface includes the invisible client-side shadow (a frame
 *    reported as (0, 0, 1467, 784) showed its visible window from about
 *    (26, 23) inside it).
 * A driver says which applies to each window (cua_win.atspi_space) and
 * where the window's surface (cua_win.origin) and its visible content
 * (cua_win.frame) lie in global coordinates; cua_win_atspi_to_global()
 * maps a point, and the content inset is frame.xy - origin.xy.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_H
#define CUA_DISPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "cua/cua.h"
#include "core/arena.h"
#include "core/ctx.h"
#include "core/image.h"
#include "core/raw.h"

struct cua_display;
struct cua_key_chord; /* core/keys.h */

/* ------------------------------------------------------------------ */
/* Windows                                                             */

/* Where the AT-SPI extents of a window's elements live. */
enum cua_atspi_space {
	CUA_ATSPI_GLOBAL = 0,  /* global coordinates (X11) */
	CUA_ATSPI_SURFACE = 1, /* logical pixels from origin.x, origin.y
				* (Wayland) */
};

/* A toplevel window as the window system sees it. */
struct cua_win {
	uint64_t window;  /* driver-defined handle; 0 = none */
	int64_t pid;      /* 0 unknown */
	char process[64]; /* process name (comm), "" unknown */
	/* The window's own surface, invisible client-side shadows included
	 * (X11: the client window), global coordinates. */
	struct cua_rect origin;
	/* Its visible content (shadows removed), global coordinates. */
	struct cua_rect frame;
	/* The surface with what the window manager or compositor draws
	 * around it (server-side title bar and borders; X11:
	 * _NET_FRAME_EXTENTS, else the reparenting parent), global
	 * coordinates; = origin when nothing is drawn around it. Toolkits
	 * report their window's extents as any of the three (see
	 * core/geometry.h, cua_geom_element_origin). */
	struct cua_rect outer;
	int mapped;
	int iconified;
	int override_redirect; /* menus, drop-downs, tooltips */
	uint64_t transient_for;
	/* How this window's AT-SPI extents map to global coordinates:
	 * global = origin.xy + extents * scale for CUA_ATSPI_SURFACE,
	 * global = extents for CUA_ATSPI_GLOBAL. scale 0 means 1. */
	enum cua_atspi_space atspi_space;
	double scale;
};

/* The command name of process `pid` (/proc/PID/comm) into buf; "" when
 * unknown. For cua_win.process. */
void
cua_display_proc_comm(int64_t pid, char *buf, size_t size);

/* An AT-SPI point of an element of window `w` -> global coordinates
 * (rounded down). */
void
cua_win_atspi_to_global(const struct cua_win *w, double ax, double ay,
			int32_t *gx, int32_t *gy);

/* One entry of list_windows(). Strings live in the list's arena. */
struct cua_display_window {
	struct cua_win win; /* window, pid, origin, frame, mapped, ... */
	const char *title;  /* NULL unknown */
	/* X11: WM_CLASS's class; Wayland: the toplevel's app_id. */
	const char *app_id;
	const char *app_instance; /* X11: WM_CLASS's instance; else NULL */
	const char *gtk_app_id;   /* X11: _GTK_APPLICATION_ID; else NULL */
	int focused;              /* the active (keyboard focus) window */
};

struct cua_display_window_list {
	struct cua_arena *arena;
	struct cua_display_window *w; /* bottom to top when known */
	size_t n;
};

void
cua_display_window_list_free(struct cua_display_window_list *l);

/* What the accessibility layer knows of one toplevel of a process, for
 * match_toplevels(). */
struct cua_display_toplevel_query {
	const char *name;        /* Accessible.Name */
	uint32_t role;           /* enum cua_role */
	struct cua_rect extents; /* AT-SPI extents */
	int has_extents;
	/* With has_content: the smallest rectangle holding the extents of
	 * the toplevel's children (those with a geometry), in the same
	 * coordinates as `extents`; read only for a driver that sets
	 * ops->match_wants_content. */
	struct cua_rect content;
	int has_content;
	/* The toplevel's AT-SPI state has ACTIVE (its window holds
	 * keyboard focus, as the toolkit knows it). */
	int active;
	/* The toplevel's accessible, "bus:path" (for hooks.toplevel_active) */
	const char *ident;
	/* The app's toolkit (AT-SPI ToolkitName), NULL when unknown */
	const char *toolkit;
};

/* The window manager or compositor, when it runs as a process of its own
 * that may show up on the accessibility bus, where it is no app. */
struct cua_display_shell {
	int64_t pid;    /* 0 unknown */
	char name[128]; /* filled only when pid is unknown; "" unknown */
};

/* ------------------------------------------------------------------ */
/* Input                                                               */

enum cua_pointer_kind {
	CUA_POINTER_MOVE = 1,
	CUA_POINTER_PRESS = 2,
	CUA_POINTER_RELEASE = 3,
};

/*
 * Buttons 1..3 are left, middle and right; 4..7 are one discrete scroll
 * step up, down, left and right (X11's wheel buttons; a Wayland driver
 * sends one axis step per press and ignores the release).
 */
struct cua_pointer_event {
	enum cua_pointer_kind kind;
	int32_t x, y;    /* MOVE: global coordinates */
	uint32_t button; /* PRESS/RELEASE: 1..7 */
};

/* What a Wayland driver sends for button b of a cua_pointer_event:
 * returns 1 for a button, with its evdev code in *code; 0 for a wheel
 * step, with *axis (0 vertical, 1 horizontal) and *dir (-1 up or left,
 * 1 down or right); -1 for a number that is no button. */
int
cua_display_evdev_button(uint32_t b, uint32_t *code, int *axis, int *dir);

/* What a Wayland driver does with each pointer event: `data` is the
 * driver. move: to (x, y), global coordinates; button: press (down 1) or
 * release an evdev button; wheel: one step as cua_display_evdev_button
 * gives it. Each returns CUA_OK or an error with its message set. */
struct cua_pointer_sink {
	cua_result (*move)(void *data, int32_t x, int32_t y);
	cua_result (*button)(void *data, uint32_t code, int down);
	cua_result (*wheel)(void *data, int axis, int dir);
	/* 1: poll d->interrupt before each event */
	int polls_interrupt;
};

/* Sends the n events of a pointer call through `sink`, up to the first
 * error, which it returns (the caller then releases what is held). A
 * wheel step is sent once per press, its release ignored. pressed[1..3]
 * record the buttons held down. */
cua_result
cua_display_pointer_send(struct cua_display *d,
			 const struct cua_pointer_event *ev, size_t n,
			 const struct cua_pointer_sink *sink, void *data,
			 int *pressed);

/* Releases the buttons pressed[1..3] marks as held and clears the marks.
 * sink NULL (the device is gone): only clears them. Best effort. */
void
cua_display_pointer_release(const struct cua_pointer_sink *sink, void *data,
			    int *pressed);

/* The caller's round trip to the app the keys are for: returns once the
 * app has processed what it received before the call (one accessibility
 * request answered from its main loop). fn NULL: no app to wait for. */
struct cua_display_sync {
	void (*fn)(void *data);
	void *data;
};

/* ------------------------------------------------------------------ */
/* The person at the desktop (docs/safety.md §6)                       */

enum cua_user_input {
	CUA_USER_KEY = 1,  /* a key press of a person's keyboard */
	CUA_USER_BUTTON,   /* a button press of a person's pointer */
	CUA_USER_STOP_KEY, /* the stop hotkey, while it is grabbed */
	CUA_USER_MOTION,   /* a person's pointer moved (no windows) */
};

struct cua_user_event {
	enum cua_user_input kind;
	uint32_t keysym; /* KEY: the key's unshifted keysym */
	/* KEY: the window with that keyboard's focus and its ancestors;
	 * BUTTON: the windows under that pointer, top-level first. Valid
	 * during the call. */
	const uint64_t *windows;
	size_t n_windows;
	int64_t time_us; /* cua_now_us() when it arrived */
};

/* Called from the driver's own thread: must be cheap and thread-safe. */
typedef void (*cua_user_fn)(void *data, const struct cua_user_event *ev);

/* ------------------------------------------------------------------ */
/* Capture                                                             */

/* A captured window (docs/screenshots.md §2): the pixels of the window's frame
 * (its visible content, shadows removed) as the window system holds
 * them. */
struct cua_capture {
	struct cua_pixels px;   /* owned; free with cua_capture_free */
	struct cua_rect frame;  /* global position of px's pixel (0,0) and its
				 * size: the content frame */
	struct cua_rect window; /* the whole surface, global coordinates */
	int64_t capture_us;     /* time spent capturing */
	int route;              /* enum cua_capture_route */
	/* how many of the app's open popups (menus, drop-downs, tooltips)
	 * were composited onto px (cua_capture_request.popups) */
	int popups;
	/* Nonzero: the driver can later prove whether the window changed
	 * since these pixels were read (cua_capture_request.unchanged_since);
	 * 0: it cannot (no damage tracking, popups pasted, a fallback
	 * route). */
	uint64_t stamp;
	/* 1: the answer to unchanged_since: nothing in the window changed
	 * since the capture with that stamp; px is empty, frame, window
	 * and stamp are the window's now (docs/screenshots.md §2.1). */
	int unchanged;
	/* 1: the answer to cua_capture_request.geometry_only: px is empty,
	 * frame and window are the window's now */
	int geometry_only;
};

enum cua_capture_route {
	CUA_CAPTURE_COMPOSITE = 0,  /* the window's own pixels */
	CUA_CAPTURE_SUBPROCESS = 1, /* a helper program after a hung capture
				    * (x11: xwd) */
};

/* Why there is no capture (the core words the reason: docs/screenshots.md
 * §7). */
enum cua_capture_status {
	CUA_CAPTURE_OK = 0,
	CUA_CAPTURE_MINIMIZED,
	CUA_CAPTURE_HIDDEN,
	CUA_CAPTURE_OFFSCREEN,
	CUA_CAPTURE_COVERED,
	CUA_CAPTURE_UNIDENTIFIED,
	CUA_CAPTURE_TIMEOUT,
	CUA_CAPTURE_REFUSED,
	CUA_CAPTURE_NO_DISPLAY,
	/* Wayland: where the window's content lies inside its surface is
	 * unknown (a client-side shadow), so pixels cannot be matched to
	 * element frames */
	CUA_CAPTURE_NO_ORIGIN,
	/* Wayland: the window is not among the compositor's windows */
	CUA_CAPTURE_NOT_LISTED,
	/* Wayland: the compositor failed the capture or went away */
	CUA_CAPTURE_COMPOSITOR_FAILED,
};

struct cua_capture_request {
	uint64_t window;         /* the window handle (tree->x11_window) */
	int timeout_ms;          /* capture_timeout_ms: 2500 */
	int fallback_timeout_ms; /* capture_fallback_timeout_ms: 3000 */
	/* 1: composite the app's open popups that overlap the window onto
	 * the image, at their places (docs/screenshots.md §1), where the
	 * driver can; the frame stays the window's */
	int popups;
	/* Nonzero: the stamp of an earlier capture of this window. A driver
	 * that can prove nothing in the window changed since (no damage,
	 * the same geometry, no popups) answers with an empty capture whose
	 * `unchanged` is 1; otherwise, and when it cannot tell, it captures.
	 * Drivers without damage tracking ignore it. */
	uint64_t unchanged_since;
	/* 1: only where the image would lie (frame and window), no pixels:
	 * a driver that can tell them without capturing answers with an
	 * empty capture whose `geometry_only` is 1 (the same frame and
	 * window a capture now would have, and the same failures where they
	 * are known without the pixels); others capture. */
	int geometry_only;
};

void
cua_capture_free(struct cua_capture *c);

/* Damage on a tracked window (delivered to the core as "x11:damage"
 * events, whatever the driver). */
struct cua_display_damage {
	uint64_t window;
	struct cua_rect area; /* the damaged box, window pixels */
	int64_t time_us;      /* cua_now_us() when it arrived */
};

/* ------------------------------------------------------------------ */
/* Capabilities                                                        */

enum cua_display_cap {
	CUA_DISPLAY_CAP_WINDOWS = 0, /* the window list: pids, titles, app
				      * ids, focus, activation */
	CUA_DISPLAY_CAP_GEOMETRY,    /* where each window is */
	CUA_DISPLAY_CAP_SCREENSHOT,  /* window capture */
	CUA_DISPLAY_CAP_POINTER,     /* synthetic pointer input */
	CUA_DISPLAY_CAP_KEYBOARD,    /* synthetic keys, any Unicode text */
	CUA_DISPLAY_CAP_COUNT
};

/* The JSON key of a capability ("windows", "geometry", "screenshot",
 * "pointer", "keyboard"). */
const char *
cua_display_cap_name(enum cua_display_cap cap);

struct cua_display_caps {
	struct {
		int ok;
		/* when !ok: a phrase naming the missing piece, without a
		 * final period, e.g. "the X server :1 has no XTEST
		 * extension" */
		char why[320];
	} cap[CUA_DISPLAY_CAP_COUNT];
};

/* Sets capability c of `out`: there when why is NULL, else missing for
 * `why`. */
void
cua_display_cap_set(struct cua_display_caps *out, enum cua_display_cap c,
		    const char *why);

/* ------------------------------------------------------------------ */
/* The driver                                                          */

/*
 * Every member may be NULL except name, destroy and capabilities; a NULL
 * member behaves as a capability that is missing. Members that act on a
 * window take the handle list_windows(), match_toplevels(), window_at()
 * or focus_window() gave.
 */
struct cua_display_ops {
	const char *name; /* "x11", "wlroots", "mutter", "portal", "none" */
	void (*destroy)(struct cua_display *d);

	/* What works right now, and why not. Cheap (no round trip per
	 * call beyond a liveness check); the core asks before it words a
	 * refusal, and cua_session_get_display_info() prints it. */
	void (*capabilities)(struct cua_display *d,
			     struct cua_display_caps *out);
	/* Replaces a connection the window system closed (its server
	 * died and a new one took its place) and, for a driver chosen
	 * while its server was not running, makes the first one. Called at
	 * the start of every app resolution. 1: a new connection was made
	 * (what hung off the old one is gone: tracked windows, spare
	 * keycodes); 0: nothing changed; -1: still not connected. */
	int (*reconnect)(struct cua_display *d);
	/* The display's name for people and logs (":1", "wayland-1"),
	 * and the window manager's or compositor's name; either may be
	 * "" when unknown. */
	void (*describe)(struct cua_display *d, char *display, size_t dsize,
			 char *server, size_t ssize);

	/* ---- Windows ---- */

	/* All toplevel windows (no menus or tooltips). */
	cua_result (*list_windows)(struct cua_display *d,
				   struct cua_display_window_list **out);
	/* Matches the AT-SPI toplevels of process `pid` to windows: fills
	 * info[i] for tops[i] (window 0 when no match; each window used at
	 * most once; strings in `arena`). Never fails: what is unknown
	 * stays 0. */
	void (*match_toplevels)(struct cua_display *d, int64_t pid,
				const struct cua_display_toplevel_query *tops,
				size_t n, struct cua_raw_window_info *info,
				struct cua_arena *arena);
	/* 1: match_toplevels() wants each query's `content` (Wayland: the
	 * children of a window show where its visible part lies inside a
	 * surface with a client-side shadow). */
	int match_wants_content;
	/* Live facts of one window; CUA_ERROR_NOT_FOUND when it is gone. */
	cua_result (*window_query)(struct cua_display *d, uint64_t window,
				   struct cua_win *out);
	/* The topmost window (client or override-redirect) at a global
	 * point; window 0 when there is none. */
	cua_result (*window_at)(struct cua_display *d, int32_t x, int32_t y,
				struct cua_win *out);
	/* The toplevel holding keyboard focus (window 0 when none). */
	cua_result (*focus_window)(struct cua_display *d, struct cua_win *out);
	/* Brings `window` forward with keyboard focus and waits at most
	 * timeout_ms for the confirmation; *confirmed = 1 once it holds
	 * focus. */
	cua_result (*activate_window)(struct cua_display *d, uint64_t window,
				      int timeout_ms, int *confirmed);
	/* The window manager or compositor process. */
	void (*shell)(struct cua_display *d, struct cua_display_shell *out);

	/* ---- Input ---- */

	/* Synthetic pointer events, no delays. With `restore`, the pointer
	 * goes back where it was unless the user moved it meanwhile.
	 * Buttons pressed here are released on error. */
	cua_result (*pointer)(struct cua_display *d,
			      const struct cua_pointer_event *ev, size_t n,
			      int restore);
	/* Synthetic key chords (core/keys.h): a keysym, its modifiers and
	 * the character it types, any Unicode. A driver whose keymap lacks
	 * a keysym makes room for it (x11: spare keycodes) and calls
	 * `sync` before the keys that need it, then waits keymap_delay_ms;
	 * toolkits translate a key with the keymap of the moment they
	 * process it, so such a keymap change stays until the app has
	 * read the keys: with `kept` NULL it is undone after `sync` and a
	 * short grace period; otherwise it stays (*kept = 1) until
	 * keys_restore(), which the caller calls once it saw the keys'
	 * effect. Keys pressed here are released on error. */
	cua_result (*keys)(struct cua_display *d,
			   const struct cua_key_chord *chords, size_t n,
			   int keymap_delay_ms,
			   const struct cua_display_sync *sync, int *kept);
	cua_result (*keys_restore)(struct cua_display *d);
	/* Optional: refuses, before any key is sent, chords this driver
	 * cannot deliver to the recorded window's app (a character only
	 * an input method the app does not read would type); keys() makes
	 * the same check. NULL: every chord can be sent. */
	cua_result (*keys_check)(struct cua_display *d,
				 const struct cua_key_chord *chords, size_t n);

	/* ---- The person at the desktop (docs/safety.md §6) ---- */

	/* Starts reporting the person's own key and button presses (never
	 * synthetic input) to fn: 1, or 0 with `why` a phrase naming what
	 * this desktop lacks. Once per driver; the reports stop before
	 * destroy() returns. */
	int (*user_watch)(struct cua_display *d, cua_user_fn fn, void *data,
			  char *why, size_t size);
	/* Holds (grab 1) or lets go of (0) the stop hotkey; its presses
	 * are reported as CUA_USER_STOP_KEY. Needs user_watch. */
	void (*user_stop_key)(struct cua_display *d, int grab);
	/* Returns once every press the window system reported before the
	 * call was passed to fn (at most timeout_ms). */
	void (*user_sync)(struct cua_display *d, int timeout_ms);

	/* ---- Capture and damage ---- */

	/* Starts tracking a window for capture and damage, without
	 * waiting. Cheap; idempotent. */
	void (*track_window)(struct cua_display *d, uint64_t window);
	/* Captures one window. Never raises, maps or otherwise changes it.
	 * CUA_OK with *out, or an error with *status saying why. */
	cua_result (*capture)(struct cua_display *d,
			      const struct cua_capture_request *req,
			      struct cua_capture **out,
			      enum cua_capture_status *status);
	/* Damage on tracked windows since the last call, oldest first;
	 * returns how many were copied. New damage calls hooks.wake. */
	size_t (*take_damage)(struct cua_display *d,
			      struct cua_display_damage *out, size_t max);

	/* ---- The desktop around the apps ---- */

	/* The accessibility bus address the desktop publishes (x11: the
	 * root window's AT_SPI_BUS property), malloc'd, or NULL. */
	char *(*a11y_bus_get)(struct cua_display *d);
	/* Publishes it where toolkits look for it; 0 or -1. */
	int (*a11y_bus_publish)(struct cua_display *d, const char *address);
	/* Variables an app started by libcua needs to reach this display
	 * ("DISPLAY", ":1"), added to its environment unless set there:
	 * fills up to max names and values (the driver's strings, valid
	 * until the next call) and returns how many. */
	size_t (*launch_env)(struct cua_display *d, const char **names,
			     const char **values, size_t max);
};

/* Called by the driver from any thread when damage was queued: must be
 * cheap and thread-safe (the AT-SPI backend wakes its main context). The
 * driver stops calling it before destroy() returns. */
struct cua_display_hooks {
	void (*wake)(void *data);
	void *wake_data;
	/* Reads the AT-SPI state of toplevel `ident` ("bus:path", from a
	 * toplevel query) now: 1 when it is ACTIVE, 0 when not, -1 when it
	 * did not answer. Called on the session's thread; NULL when the
	 * backend offers none. */
	int (*toplevel_active)(void *data, const char *ident);
	void *toplevel_active_data;
};

/* ------------------------------------------------------------------ */
/* Choosing a driver (display.c)                                       */

enum cua_display_session {
	CUA_DISPLAY_SESSION_NONE = 0, /* no window system in sight */
	CUA_DISPLAY_SESSION_X11,
	CUA_DISPLAY_SESSION_WAYLAND,
};

/* What the choice reads (cua_display_env_read fills it from the process
 * environment). Strings are borrowed. */
struct cua_display_env {
	const char *forced;    /* a driver name; NULL, "" or "auto": choose */
	const char *forced_by; /* names it in messages: "CUA_DISPLAY" */
	const char *wayland_display; /* WAYLAND_DISPLAY */
	const char *display;         /* DISPLAY */
	const char *session_type;    /* XDG_SESSION_TYPE */
};

void
cua_display_env_read(struct cua_display_env *env);

#define CUA_DISPLAY_MAX_TRIED 4

struct cua_display_choice {
	const char *driver;    /* a static name: "x11", "none", ... */
	int forced;            /* by env->forced */
	const char *forced_by; /* env->forced_by (static), when forced */
	enum cua_display_session session;
	/* Why this driver: for people and logs, and for "none" the reason
	 * its capabilities give (no final period). */
	char why[320];
	/* Wayland drivers tried and not taken, with why not. */
	struct {
		const char *driver;
		char why[160];
	} tried[CUA_DISPLAY_MAX_TRIED];
	size_t n_tried;
};

/* The names libcua knows, built or not, NULL-terminated. */
extern const char *const cua_display_names[];
/* 1 when this libcua was built with driver `name`. */
int
cua_display_built(const char *name);

/*
 * Whether driver `name` can work in this session (a Wayland driver: the
 * compositor offers what it needs): 1, or 0 with `why` a phrase naming
 * the missing piece.
 */
typedef int (*cua_display_probe_fn)(void *data, const char *name,
				    const struct cua_display_env *env,
				    char *why, size_t size);

/* The real probe: the built drivers' own checks; "not built into this
 * libcua" for the others. */
int
cua_display_probe(void *data, const char *name,
		  const struct cua_display_env *env, char *why, size_t size);

/*
 * Chooses a driver (pure: what it knows of the system comes from env and
 * probe). A forced name is taken as it is: CUA_ERROR_INVALID_ARGUMENT
 * for a name libcua does not know, CUA_ERROR_UNSUPPORTED for a driver
 * this libcua was built without; the message says what to do.
 */
cua_result
cua_display_choose(const struct cua_display_env *env,
		   cua_display_probe_fn probe, void *probe_data,
		   struct cua_display_choice *out);

/* Opens the chosen driver; a driver whose server does not answer yet
 * opens anyway and says so in its capabilities. */
cua_result
cua_display_open(struct cua_ctx *ctx, const struct cua_display_choice *choice,
		 const struct cua_display_hooks *hooks,
		 struct cua_display **out);
void
cua_display_close(struct cua_display *d);

/* Capabilities of `d`; with d NULL (a backend without a window system,
 * such as a replayed recording) every one is missing, for `why`. */
void
cua_display_capabilities(struct cua_display *d, const char *why,
			 struct cua_display_caps *out);

/*
 * The facts `cua doctor` prints, as JSON (schema "libcua.display/1"):
 * driver, how it was chosen, session type, display, server, each
 * capability with its reason, and the Wayland drivers tried. d NULL: no
 * display, for `why`. *out is malloc'd. CUA_OK or CUA_ERROR_NOMEM.
 */
cua_result
cua_display_info_json(struct cua_display *d, const char *why, char **out);

/* Every driver embeds this first. */
struct cua_display {
	const struct cua_display_ops *ops;
	struct cua_ctx *ctx; /* owned by the session */
	struct cua_display_choice choice;
	struct cua_display_hooks hooks;
	/* Set by the core for the length of one action, NULL otherwise: the
	 * input members (pointer, keys) call it between synthetic events;
	 * a result other than CUA_OK (its message set by it) stops the call
	 * there, and the driver releases what it pressed and returns that
	 * result. The user guards of docs/safety.md §6, §9 stop an action
	 * this way. */
	cua_result (*interrupt)(void *data);
	void *interrupt_data;
};

/* Driver constructors (display.c calls them through its table). */
cua_result
cua_display_none_new(struct cua_ctx *ctx, struct cua_display **out);
cua_result
cua_display_x11_new(struct cua_ctx *ctx, struct cua_display **out);
cua_result
cua_display_wlroots_new(struct cua_ctx *ctx, struct cua_display **out);
/* Whether the compositor of env->wayland_display offers the wlroots
 * protocols: 1, or 0 with `why`. */
int
cua_display_wlroots_probe(const struct cua_display_env *env, char *why,
			  size_t size);
cua_result
cua_display_mutter_new(struct cua_ctx *ctx, struct cua_display **out);
/* Whether mutter's remote-desktop interface answers on the session bus:
 * 1, or 0 with `why`. */
int
cua_display_mutter_probe(const struct cua_display_env *env, char *why,
			 size_t size);
/* The same driver through the desktop portal's RemoteDesktop and
 * ScreenCast (which may ask the person at the desktop). */
cua_result
cua_display_portal_new(struct cua_ctx *ctx, struct cua_display **out);
/* Whether the desktop portal offers RemoteDesktop on the session bus
 * (activating the portal when the bus can start it): 1, or 0 with
 * `why`. */
int
cua_display_portal_probe(const struct cua_display_env *env, char *why,
			 size_t size);

#endif
