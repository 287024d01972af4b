/*
 * One libcua process at a time sends input to a desktop (docs/concurrency.md):
 * an action holds an exclusive lock on a file named after the display,
 * from its first synthetic event (window activation included) to its
 * end, so that two cua-mcp servers or a `cua` command acting at the same
 * time never interleave their keys, clicks or focus changes.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_INPUTLOCK_H
#define CUA_CORE_INPUTLOCK_H

#include "ctx.h"

/* How long an action waits for another process's action to end. */
#define CUA_INPUT_LOCK_WAIT_MS 60000

/*
 * The lock file of the desktop of `display_name` (":1", "wayland-1"):
 * $XDG_RUNTIME_DIR/libcua/input-<name>.lock, else
 * /tmp/libcua-<uid>/input-<name>.lock. Malloc'd, or NULL without a name.
 */
char *
cua_input_lock_path(const char *display_name);

/*
 * Takes the lock of `path`, waiting up to `wait_ms` for the process that
 * holds it. Returns the lock's descriptor (> 0), or 0 when the lock
 * cannot be used (no directory for it: the action goes on unlocked, as a
 * lone process would), or a negative value after `wait_ms` with the pid
 * of the holder in *holder (0 when unknown).
 */
int
cua_input_lock_take(const char *path, int wait_ms, long *holder);

/* Releases a lock cua_input_lock_take() returned (> 0). */
void
cua_input_lock_release(int fd);

/*
 * For an action on `app_name`: takes the lock of this process's desktop
 * (DISPLAY, else WAYLAND_DISPLAY); CUA_OK with *fd (0 when there is
 * none), or the E-TIMEOUT message that names the holder.
 */
cua_result
cua_input_lock_action(const char *app_name, int *fd);

#endif
