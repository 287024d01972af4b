/*
 * sway's IPC (the i3 IPC protocol on the socket named by SWAYSOCK): the
 * window tree with geometry and process ids, which no Wayland protocol
 * gives a client, and commands (focus a window).
 *
 * Coordinates are sway's layout coordinates, the global logical space of
 * wlr.h. For each window:
 *   rect      the container, decorations (title bar, borders) included;
 *   content   where the window's visible area is: rect moved by sway's
 *             window_rect offset, with window_rect's size;
 *   geometry  the window geometry as sway 1.7 reports it: the size the
 *             client asked for, with x = y = 0, not the offset of its
 *             visible area inside its own surface. A client with
 *             client-side decorations and shadows (GTK3 floating
 *             windows with a header bar) has a surface larger than its
 *             visible area, and where that area lies inside it is
 *             in no reply (driver.c says what the driver does then).
 *
 * Threads: the functions keep no state and may be called from any thread.
 * Failure: CUA_ERROR_BACKEND with a sentence naming the socket when sway
 * cannot be reached or answers something else than the protocol; every
 * call waits at most `timeout_ms` in all (connect, send, receive).
 * Strings are as sway reports them (UTF-8, app-controlled, not
 * sanitised).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_WLROOTS_SWAY_IPC_H
#define CUA_DISPLAY_WLROOTS_SWAY_IPC_H

#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "core/raw.h"

struct cua_sway_window {
	int64_t con_id;      /* sway's container id */
	int32_t pid;         /* 0 when sway does not know it */
	char *app_id;        /* Wayland app id, or the X11 class; "" */
	char *instance;      /* the X11 instance (WM_CLASS); "" */
	char *name;          /* the title; "" */
	char *shell;         /* "xdg_shell", "xwayland", ... */
	uint32_t x11_window; /* X11 window id of an Xwayland window, or 0 */
	char *workspace;     /* name of its workspace; "" (scratchpad) */
	char *output;        /* name of its output; "" */
	struct cua_rect rect;
	struct cua_rect content;
	struct cua_rect geometry;
	int focused; /* it has keyboard focus */
	int visible; /* sway shows it */
	int floating;
};

/* $SWAYSOCK, or NULL when unset or empty. */
const char *
cua_sway_socket(void);

/*
 * Asks sway for its version (GET_VERSION): CUA_OK when the socket
 * answers as sway. `version` (may be NULL) gets "1.7" or similar.
 */
cua_result
cua_sway_version(const char *socket_path, int timeout_ms, char *version,
		 size_t size);

/* The windows of GET_TREE, in tree order (tiled before floating per
 * workspace). Free with cua_sway_windows_free(). */
cua_result
cua_sway_windows(const char *socket_path, int timeout_ms,
		 struct cua_sway_window **out, size_t *n);
void
cua_sway_windows_free(struct cua_sway_window *list, size_t n);

/* Runs one sway command (RUN_COMMAND); CUA_ERROR_BACKEND with sway's own
 * error text when it fails. */
cua_result
cua_sway_command(const char *socket_path, int timeout_ms, const char *command);
/* Focuses the window with container id `con_id`. */
cua_result
cua_sway_focus(const char *socket_path, int timeout_ms, int64_t con_id);

#endif
