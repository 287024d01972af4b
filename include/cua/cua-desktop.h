/*
 * libcua — headless desktops
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CUA_DESKTOP_H
#define CUA_CUA_DESKTOP_H

/**
 * @file cua-desktop.h
 * @brief Headless desktops (::cua_desktop).
 *
 * Included by <cua/cua.h>, which declares the handles, ::cua_result and
 * #CUA_EXPORT that it uses; include <cua/cua.h>, not this file.
 */

/**
 * @name Headless desktops
 *
 * A private desktop without a screen, for running real applications with
 * accessibility enabled: tests, CI, a server, a container, or an MCP
 * server started with nowhere to show windows. A desktop of kind `x11`
 * is an Xvfb server, a private D-Bus session bus, the AT-SPI bus launcher
 * and registry daemon, and the openbox window manager, with the fixes
 * real toolkits need to register with AT-SPI: the root window's
 * `AT_SPI_BUS` property (Qt), `org.a11y.Status.IsEnabled` (Chromium),
 * both applied by the same code as in cua_session_new(), and
 * `GSK_RENDERER=cairo` in its environment (GTK 4 on Xvfb). A desktop of
 * kind `sway` is a headless sway (a Wayland compositor) with the same
 * buses and fixes; its apps are Wayland clients. A desktop of kind
 * `mutter` is a headless mutter with the same buses and fixes, and
 * PipeWire and WirePlumber.
 *
 * A supervisor process (libcua's `cua-desktop` helper, started with fork
 * and exec) owns the desktop. Stopping it stops every client of the
 * desktop's two buses (the apps), then its daemons, reaps them and any
 * descendant left, and removes its state directory; a stop also cleans up
 * after a supervisor that was killed.
 *
 * Apps run in the desktop when their environment is the desktop's: the
 * variables cua_desktop_get_env_name() lists, set to
 * cua_desktop_get_env() (NULL: unset). A ::cua_session opened in a
 * process with that environment works on the desktop.
 *
 * Thread rules as for sessions: one thread at a time per ::cua_desktop.
 * cua_desktop_start(), cua_desktop_run() and cua_desktop_attach() read
 * the environment (`PATH`, `XDG_RUNTIME_DIR`, `CUA_DESKTOP_DIR`) and pass
 * it on to the processes they start. libcua installs no signal handler
 * and reaps only its own children, by pid.
 */
/** @{ */

/**
 * A headless desktop: options, then a running desktop that this process
 * started or attached to.
 * @since 0.2
 */
typedef struct cua_desktop cua_desktop;

/**
 * A desktop's log handler, for the warnings of its supervisor (a window
 * manager that is not installed, a daemon that exited unexpectedly).
 * @p message is already formatted, UTF-8, without a trailing newline, and
 * valid only during the call.
 * @since 0.2
 */
typedef void (*cua_desktop_log_fn)(cua_desktop *desktop, cua_log_level level,
				   const char *message, void *user_data);

/**
 * Desktop flag: the desktop outlives this handle and this process, until
 * cua_desktop_stop() here or on a handle from cua_desktop_attach() (what
 * `cua desktop start` and `cua desktop stop` do). Without it, the desktop
 * stops with the handle's last reference or when this process exits,
 * even when it is killed.
 * @since 0.2
 */
#define CUA_DESKTOP_DETACHED (1u << 0)

/**
 * Creates a desktop handle with the default options; nothing is started
 * yet.
 *
 * @param[out] out new reference, release with cua_desktop_unref().
 * @param flags 0 or ::CUA_DESKTOP_DETACHED.
 * @return ::CUA_OK, ::CUA_ERROR_INVALID_ARGUMENT for unknown flags,
 *         ::CUA_ERROR_NOMEM.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_desktop_new(cua_desktop **out, uint32_t flags);

/**
 * Attaches to a running desktop started by another process, by its
 * state directory (its `CUA_DESKTOP_DIR`), to read its environment or to
 * stop it. A desktop whose supervisor died can be attached and stopped:
 * the stop cleans up what it left.
 *
 * @param[out] out new reference, release with cua_desktop_unref() (which
 *        does not stop the desktop).
 * @param state_dir the state directory; NULL or "" for
 *        `$CUA_DESKTOP_DIR`.
 * @return ::CUA_OK; ::CUA_ERROR_INVALID_ARGUMENT when no directory is
 *         given; ::CUA_ERROR_NOT_FOUND when it holds no desktop;
 *         ::CUA_ERROR_UNSUPPORTED in a libcua without the AT-SPI2 + X11
 *         backend.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_desktop_attach(cua_desktop **out, const char *state_dir);

/**
 * Takes a reference.
 * @return @p desktop.
 * @since 0.2
 */
CUA_EXPORT cua_desktop *
cua_desktop_ref(cua_desktop *desktop);

/**
 * Releases a reference. The last one of a desktop this handle started
 * without ::CUA_DESKTOP_DETACHED stops it first, as cua_desktop_stop()
 * (its errors go to the log handler). NULL is allowed.
 * @return NULL.
 * @since 0.2
 */
CUA_EXPORT cua_desktop *
cua_desktop_unref(cua_desktop *desktop);

/**
 * Installs a log handler. NULL restores the default, which writes
 * `libcua: warning: <message>` to stderr.
 * @since 0.2
 */
CUA_EXPORT void
cua_desktop_set_log_handler(cua_desktop *desktop, cua_desktop_log_fn handler,
			    void *user_data);

/**
 * Sets an option by name, before cua_desktop_start() or
 * cua_desktop_run(). Known keys:
 * - `kind`: the kind of desktop: `x11` (the default: Xvfb and openbox)
 *   or `sway` (since 0.2: a headless Wayland desktop, sway on wlroots'
 *   headless backend with one output of the screen's size and no input
 *   devices; apps run as native Wayland clients, or as X11 clients under
 *   sway's Xwayland, and sessions in it use the `wlroots` display driver
 *   for both; as root, sway runs as uid 65534 with a runtime directory of
 *   its own, since it refuses to run as root), or
 *   `mutter` (since 0.2: a headless GNOME compositor, `mutter --headless
 *   --wayland --no-x11` with one virtual monitor of the screen's size,
 *   and PipeWire and WirePlumber for its screen casts; sessions in it use
 *   the `mutter` display driver).
 * - `screen`: `WxHxD`, the screen size and depth (`1280x1024x24`); a
 *   `sway` desktop's output and a `mutter` desktop's monitor take the size (its depth is 24 whatever D
 *   says).
 * - `window_manager`: `openbox` (the default; without it installed the
 *   desktop starts without one, with a warning) or `none`. A `sway`
 *   desktop has no other window manager: sway is one (mutter likewise).
 * - `state_dir`: the state directory, new or empty (default
 *   `$XDG_RUNTIME_DIR/cua/desktop-<pid>`, or
 *   `/tmp/cua-desktop-<uid>-<pid>`); removed when the desktop stops.
 *
 * @return ::CUA_OK; ::CUA_ERROR_INVALID_ARGUMENT for an unknown key, a
 *         bad value or a desktop already running.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_desktop_set_option(cua_desktop *desktop, const char *key,
		       const char *value);

/**
 * Starts the desktop and waits until it is ready (at most two minutes;
 * each daemon gets ten seconds).
 *
 * @return ::CUA_OK; ::CUA_ERROR_BACKEND when it did not start (the
 *         message names the daemon, with the end of its log, or the
 *         missing package to install); ::CUA_ERROR_TIMEOUT;
 *         ::CUA_ERROR_UNSUPPORTED when the `cua-desktop` helper is not
 *         installed or libcua was built without the AT-SPI2 + X11
 *         backend; ::CUA_ERROR_INVALID_ARGUMENT when it is running
 *         already.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_desktop_start(cua_desktop *desktop);

/**
 * Starts the desktop, runs a command in it, waits for the command, stops
 * the desktop and gives the command's exit status (what
 * `cua desktop run` does). The command runs with this process's standard
 * input and output, in its process group, with the desktop's
 * environment; processes it leaves behind are stopped with the desktop.
 * The desktop also stops when this process exits (its supervisor has a
 * process group of its own, so a kill of this process's group still
 * lets it clean up), and when the supervisor gets SIGTERM, SIGINT or
 * SIGHUP (cua_desktop_get_pid()), which it passes on to the command.
 *
 * @param argv the command and its arguments, NULL-terminated; argv[0]
 *        without a slash is looked up in `PATH`.
 * @param[out] exit_status the command's exit status, 128 + N when signal
 *        N ended it or stopped the desktop first; 127 when the command is
 *        not found, 126 when it cannot be run, 1 when the desktop did not
 *        start.
 * @return ::CUA_OK when the command ran (whatever its status);
 *         ::CUA_ERROR_NOT_FOUND or ::CUA_ERROR_LAUNCH when it could not
 *         be run; ::CUA_ERROR_BACKEND when the desktop did not start;
 *         ::CUA_ERROR_INVALID_ARGUMENT for a desktop already running or
 *         created with ::CUA_DESKTOP_DETACHED.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_desktop_run(cua_desktop *desktop, const char *const *argv,
		int *exit_status);

/**
 * Stops the desktop (one this handle started or attached to) with every
 * client of its buses, except this process and its ancestors, and
 * removes its state directory. Waits for the supervisor at most 15
 * seconds, then kills it and cleans up itself.
 *
 * @return ::CUA_OK; ::CUA_ERROR_NOT_FOUND when the desktop was not
 *         running any more (what its supervisor left is cleaned up);
 *         ::CUA_ERROR_TIMEOUT when the supervisor had to be killed;
 *         ::CUA_ERROR_INVALID_ARGUMENT when nothing was started or
 *         attached.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_desktop_stop(cua_desktop *desktop);

/**
 * The process id of the desktop's supervisor while it runs (during
 * cua_desktop_run() too), else 0. Async-signal-safe: a program can pass a
 * signal it receives on to the supervisor.
 * @since 0.2
 */
CUA_EXPORT int64_t
cua_desktop_get_pid(const cua_desktop *desktop);

/**
 * The state directory of the running desktop.
 * @return borrowed, valid until the desktop stops; NULL before it
 *         started.
 * @since 0.2
 */
CUA_EXPORT const char *
cua_desktop_get_state_dir(const cua_desktop *desktop);

/**
 * The number of environment variables the desktop manages (set or
 * unset in its clients' environment); the same before it starts.
 * @since 0.2
 */
CUA_EXPORT size_t
cua_desktop_get_env_count(const cua_desktop *desktop);

/**
 * The name of a variable the desktop manages: `DISPLAY`,
 * `DBUS_SESSION_BUS_ADDRESS`, `AT_SPI_BUS_ADDRESS`, `XDG_RUNTIME_DIR`,
 * `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `XDG_CACHE_HOME`, `XDG_STATE_HOME`
 * (private directories in the state directory), `GSK_RENDERER`,
 * `CUA_DESKTOP_DIR`, and those it unsets: `NO_AT_BRIDGE`, `GTK_A11Y`
 * (they stop GTK's accessibility), `WAYLAND_DISPLAY`, `SESSION_MANAGER`
 * (apps would reach the caller's own desktop), then `XDG_SESSION_TYPE`
 * (`x11` or `wayland`), `GDK_BACKEND` and `SWAYSOCK` (sway's IPC socket).
 * A `sway` desktop sets `WAYLAND_DISPLAY`, `XDG_SESSION_TYPE=wayland`,
 * `GDK_BACKEND=wayland`, `SWAYSOCK` and `DISPLAY` (its Xwayland's, for
 * apps that speak only X11; unset when Xwayland is not installed); a
 * `mutter` desktop the same without `SWAYSOCK` and `DISPLAY`.
 * @return a static string; NULL for an index past
 *         cua_desktop_get_env_count().
 * @since 0.2
 */
CUA_EXPORT const char *
cua_desktop_get_env_name(const cua_desktop *desktop, size_t index);

/**
 * The value a client of the running desktop needs for @p name.
 * @return borrowed, valid until the desktop stops; NULL when the variable
 *         must be unset, is not one the desktop manages, or the desktop
 *         is not running.
 * @since 0.2
 */
CUA_EXPORT const char *
cua_desktop_get_env(const cua_desktop *desktop, const char *name);

/**
 * The desktop's environment as POSIX shell commands: one
 * `export NAME='value'` line per variable set, then one `unset ...` line
 * (what `eval "$(cua desktop start)"` runs).
 *
 * @param[out] out owned string, free with cua_free().
 * @return ::CUA_OK; ::CUA_ERROR_INVALID_ARGUMENT when the desktop is not
 *         running; ::CUA_ERROR_NOMEM.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_desktop_env_to_shell(const cua_desktop *desktop, char **out);

/** @} */

#endif /* CUA_CUA_DESKTOP_H */
