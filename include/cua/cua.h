/*
 * libcua — computer use for AI agents: read an application's accessibility
 * tree as compact numbered text and act on it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CUA_H
#define CUA_CUA_H

#include <stddef.h>
#include <stdint.h>

#include <cua/cua-errors.h>
#include <cua/cua-version.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @file cua.h
 * @brief The public API of libcua.
 *
 * @mainpage libcua
 *
 * libcua opens the accessibility tree of a running desktop application,
 * renders it as the compact, numbered text that Codex Computer Use prints
 * (the "state text"), and lets a caller act on the elements it numbered.
 *
 * @section handles Handles and ownership
 * - Opaque, reference-counted handles: ::cua_session, ::cua_tree and
 *   ::cua_element, and ::cua_desktop for a headless desktop. `*_ref()` returns its argument; `*_unref()` accepts NULL
 *   and always returns NULL, so `t = cua_tree_unref(t);` is always safe.
 * - A ::cua_tree is an immutable snapshot of one observation. It owns its
 *   elements. An element reference (cua_element_ref()) keeps its tree alive.
 * - A function that returns a pointer is a getter: the result is
 *   **borrowed** and valid as long as the object it came from lives.
 * - A function that fills a `**out` parameter hands over ownership. Owned
 *   strings are released with cua_free(), never with libc free().
 * - `*out` is set to NULL on entry and to a value only on ::CUA_OK.
 *
 * @section errors Errors
 * Every fallible call returns a ::cua_result: 0 (::CUA_OK) or a stable
 * negative code. cua_result_to_string() names a code. For the last failed
 * call **on this thread**, cua_error_code() gives a finer stable code (a
 * ::cua_errcode, such as ::CUA_E_NOT_ACTIVE or ::CUA_E_REFETCH_START) and
 * cua_error_message() the detailed message. Programs switch on the codes;
 * the messages are for people and models and may be reworded. For calls
 * that a model drives (observing an app, acting on an element) the
 * message says what was wrong and what to do next, naming the next step
 * in the words of the caller's vocabulary (the session option
 * `vocabulary` of cua_session_set_option(): neutral words by default).
 *
 * @section threads Thread rules
 * libcua is thread-agnostic. Only one thread may operate on a given
 * ::cua_session at any given time. Different threads may use the same
 * session at different times. Independent sessions may be used from
 * different threads in parallel.
 *
 * A ::cua_tree and its elements are immutable once created: any number of
 * threads may read or render the same tree at the same time. `_ref` and
 * `_unref` are atomic.
 *
 * cua_error_code() and cua_error_message() are per thread. libcua has no mutable global state
 * apart from a one-time lazy initialisation. It reads the environment only
 * in cua_session_new() and in the calls that start or attach to a headless
 * desktop, and never calls setenv(). Objects must not be used in a child
 * process after fork().
 *
 * @section env Environment variables
 * Read once by cua_session_new():
 * - `CUA_BACKEND`: `atspi` (default) or `recorded:<path>` to replay a tree
 *   recorded with `cua record`.
 * - `CUA_LOG_LEVEL`: `error`, `warning` (default), `info`, `debug`,
 *   `trace` or a number.
 * - `DISPLAY`, `DBUS_SESSION_BUS_ADDRESS`, `AT_SPI_BUS_ADDRESS`: the desktop
 *   the AT-SPI backend connects to.
 *
 * @section abi ABI policy
 * The soname is `libcua.so.0` and is never bumped. Symbols are versioned
 * (`LIBCUA_0.1`, …); a symbol never changes its signature or its node.
 * There are no public struct layouts: configuration goes through flags and
 * setters. @ref abi_guard describes how `meson test --suite abi` holds
 * the library to this.
 *
 * @section bindings Other languages
 * @ref python wraps this API with ctypes; any language with a C FFI can
 * do the same (owned strings are freed with cua_free()).
 */

/**
 * @def CUA_EXPORT
 * Marks a symbol exported from libcua.
 * @since 0.1
 */
#if defined(__GNUC__) && __GNUC__ >= 4
#define CUA_EXPORT __attribute__((visibility("default")))
#else
#define CUA_EXPORT
#endif

/**
 * A connection to a desktop, holding one app session per observed app
 * (ids, locators, last observation).
 * @since 0.1
 */
typedef struct cua_session cua_session;

/**
 * An immutable snapshot of one observation of one app window: the rendered
 * elements, their ids, frames and locators.
 * @since 0.1
 */
typedef struct cua_tree cua_tree;

/**
 * One rendered element (one line of the state text) of a ::cua_tree.
 * @since 0.1
 */
typedef struct cua_element cua_element;

/**
 * Result codes. Values are stable and never renumbered; new codes may be
 * added. Treat an unknown negative value as a generic error.
 * @since 0.1
 */
typedef enum cua_result {
	/** Success. */
	CUA_OK = 0,
	/** Unspecified failure. */
	CUA_ERROR = -1,
	/** Out of memory. */
	CUA_ERROR_NOMEM = -2,
	/** An argument was invalid (NULL handle, malformed string, …). */
	CUA_ERROR_INVALID_ARGUMENT = -3,
	/** The app, window or element asked for does not exist. */
	CUA_ERROR_NOT_FOUND = -4,
	/** An element or observation is no longer valid. */
	CUA_ERROR_STALE = -5,
	/** The operation is not supported by this backend or element. */
	CUA_ERROR_UNSUPPORTED = -6,
	/** The desktop (X11, D-Bus, AT-SPI) is unavailable or failed. */
	CUA_ERROR_BACKEND = -7,
	/** The application or desktop did not answer in time. */
	CUA_ERROR_TIMEOUT = -8,
	/** The operation is not allowed. */
	CUA_ERROR_PERMISSION = -9,
	/** The app string matches several apps. */
	CUA_ERROR_AMBIGUOUS = -10,
	/** The app has no window to observe. */
	CUA_ERROR_NO_WINDOW = -11,
	/** The app could not be started. */
	CUA_ERROR_LAUNCH = -12,
	/** Reading or writing a file failed. */
	CUA_ERROR_IO = -13,
	/** An action on an app that no observation in this session started
	 *  (call cua_session_observe() first). */
	CUA_ERROR_NO_SESSION = -14,
	/** The observed app's process is gone or was replaced. */
	CUA_ERROR_PROCESS_GONE = -15,
	/** Input cannot reach the target: its window is covered, minimised
	 *  or off-screen, or it did not take keyboard focus. */
	CUA_ERROR_INPUT_BLOCKED = -16,
} cua_result;

/**
 * Log levels, spaced so that levels can be inserted later.
 * @since 0.1
 */
typedef enum cua_log_level {
	CUA_LOG_ERROR = 10,   /**< errors */
	CUA_LOG_WARNING = 20, /**< warnings (the default threshold) */
	CUA_LOG_INFO = 30,    /**< informational messages */
	CUA_LOG_DEBUG = 40,   /**< debugging messages */
	CUA_LOG_TRACE = 50,   /**< per-call tracing */
} cua_log_level;

/**
 * A log handler. @p message is already formatted, UTF-8, without a trailing
 * newline, and valid only during the call.
 * @since 0.1
 */
typedef void (*cua_log_fn)(cua_session *session, cua_log_level level,
			   const char *message, void *user_data);

/** @name Version, errors and memory */
/** @{ */

/**
 * The running library's version as "MAJOR.MINOR.MICRO".
 * @return a static string.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_version_string(void);

/**
 * The running library's version as `0xMMmmuu` (see ::CUA_VERSION_HEX).
 * @since 0.1
 */
CUA_EXPORT uint32_t
cua_version(void);

/**
 * A short English name for a result code.
 * @return a static string, never NULL ("unknown error" for unknown codes).
 * @since 0.1
 */
CUA_EXPORT const char *
cua_result_to_string(cua_result result);

/**
 * The detailed message of the last failed libcua call on this thread.
 *
 * Meaningful only right after a call that returned an error. Since 0.2,
 * every call that returns a ::cua_result clears it when it starts, so it
 * is empty after such a call succeeded; calls that return other types
 * leave it alone.
 * @return borrowed, valid until the next libcua call on this thread; never
 *         NULL (empty when nothing was recorded).
 * @since 0.1
 */
CUA_EXPORT const char *
cua_error_message(void);

/**
 * The stable code of the last failed libcua call on this thread: what
 * went wrong, finer than its ::cua_result (see ::cua_errcode).
 *
 * Every call that returns a ::cua_result sets it to ::CUA_E_OK when it
 * starts and to a code other than ::CUA_E_OK when it fails; calls that
 * return other types leave it alone. Read it right after the failed call,
 * with cua_error_message().
 * @return the code; ::CUA_E_OK when the last such call succeeded or none
 *         was made on this thread.
 * @since 0.2
 */
CUA_EXPORT cua_errcode
cua_error_code(void);

/**
 * Frees memory that libcua handed over (owned strings). NULL is allowed.
 * @since 0.1
 */
CUA_EXPORT void
cua_free(void *ptr);

/**
 * Sanitises a string for model-visible text, the way libcua treats every
 * app-controlled string (docs/state-text.md §5): invalid UTF-8 becomes U+FFFD,
 * line breaks a literal `\n`, other controls, U+FFFC and bidi overrides
 * are dropped, envelope tags are neutralised, the ends are trimmed; then
 * it is cut to @p max_chars characters followed by `...` (0: no cut).
 * For callers that echo text to a model (for example an MCP server
 * quoting the model's own arguments in an error).
 *
 * @param[out] out owned string, free with cua_free().
 * @return ::CUA_OK, ::CUA_ERROR_INVALID_ARGUMENT, ::CUA_ERROR_NOMEM.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_sanitize_text(const char *text, size_t max_chars, char **out);

/** @} */

/** @name Sessions */
/** @{ */

/**
 * Session flag: do not modify the desktop's accessibility settings
 * (the root-window `AT_SPI_BUS` property and `org.a11y.Status.IsEnabled`),
 * which the AT-SPI backend otherwise sets when they are missing so that Qt
 * and Chromium apps register.
 * @since 0.1
 */
#define CUA_SESSION_NO_DESKTOP_FIXES (1u << 0)

/**
 * Creates a session on the desktop named by the environment (see
 * @ref env). With `CUA_BACKEND=recorded:<path>` the session replays a
 * recorded tree instead.
 *
 * @param[out] out new reference, release with cua_session_unref().
 * @param flags 0 or ::CUA_SESSION_NO_DESKTOP_FIXES.
 * @return ::CUA_OK, ::CUA_ERROR_BACKEND when no desktop is reachable
 *         (the message says which part is missing), ::CUA_ERROR_NOMEM.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_new(cua_session **out, uint32_t flags);

/**
 * Creates a session that replays a raw tree recorded with `cua record`
 * (or cua_session_record()). No desktop is needed.
 *
 * @param[out] out new reference, release with cua_session_unref().
 * @param path the JSON file.
 * @param flags 0.
 * @return ::CUA_OK, ::CUA_ERROR_IO, ::CUA_ERROR_INVALID_ARGUMENT when the
 *         file is not a valid recording.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_new_recorded(cua_session **out, const char *path,
			 uint32_t flags);

/**
 * Takes a reference.
 * @return @p session.
 * @since 0.1
 */
CUA_EXPORT cua_session *
cua_session_ref(cua_session *session);

/**
 * Releases a reference; the last one closes the session. NULL is allowed.
 * @return NULL.
 * @since 0.1
 */
CUA_EXPORT cua_session *
cua_session_unref(cua_session *session);

/**
 * Installs a log handler. NULL restores the default, which writes
 * `libcua: <level>: <message>` to stderr. libcua never writes to stdout.
 * @since 0.1
 */
CUA_EXPORT void
cua_session_set_log_handler(cua_session *session, cua_log_fn handler,
			    void *user_data);

/**
 * Sets the lowest level passed to the log handler.
 * @since 0.1
 */
CUA_EXPORT void
cua_session_set_log_level(cua_session *session, cua_log_level level);

/**
 * Sets a configuration option by name. Known keys (integers in decimal):
 * `walk_deadline_ms` (5000), `atspi_call_timeout_ms` (1000),
 * `max_elements` (1500), `max_depth` (20), `max_rows` (20),
 * `launch_timeout_ms` (10000).
 *
 * Screenshot and settle keys (docs/screenshots.md §10): `settle_quiet_ms`
 * (250), `settle_cap_ms` (1000), `settle_busy_cap_ms` (5000),
 * `settle_probe_ms` (40), `warmup_cap_ms` (1200), `capture_timeout_ms`
 * (2500), `capture_fallback_timeout_ms` (3000),
 * `screenshot_max_long_edge` (2048), `screenshot_max_short_edge` (768),
 * `jpeg_quality` (80).
 *
 * Diff keys (docs/identity.md §7; they apply to observations made after the
 * call): `diff_mode` (`auto`: ::CUA_RENDER_DIFF renders a diff when a
 * valid baseline exists; `off`: it always renders the full tree),
 * `diff_removed_style` (`ranges`: removed elements as
 * `Removed element IDs:` ranges; `lines`: as `-` lines, see
 * ::CUA_DIFF_REMOVED_LINES), `diff_baseline_max_age_s` (300; a baseline
 * older than this many seconds is not diffed against),
 * `ignore_difference_line_budget` (0 or 1, see
 * ::CUA_DIFF_IGNORE_LINE_BUDGET; not for models).
 *
 * Action keys: `locator_strict_siblings` (0 or 1), `focus_timeout_ms`
 * (500), `restore_pointer` (1), `always_simulate_click` (0),
 * `keymap_delay_ms` (50), `type_text_keys` (0); see cua_session_click().
 *
 * Vocabulary key (since 0.2): `vocabulary`, how messages name the next
 * step (cua_error_message()): `api` (the default: neutral words, such as
 * "observe the app again"), `mcp` (the tools of an MCP server, such as
 * "call get_app_state") or `cli` (the `cua` commands, such as
 * "run `cua state APP`"). It applies to the calls that take the session.
 *
 * Display key (since 0.2): `display`, the display driver through which
 * the session reaches the window system: `auto` (chosen from
 * `WAYLAND_DISPLAY`, `DISPLAY` and `XDG_SESSION_TYPE`, ignoring
 * `CUA_DISPLAY`), `x11`, `wlroots`, `mutter`, `portal` or `none` (no
 * window system: the tree and element actions still work; screenshots
 * and input at positions refuse with a sentence saying so). It overrides
 * the `CUA_DISPLAY` environment variable and applies at once; see
 * cua_session_get_display_info().
 *
 * Stop key (since 0.2): `stop_hotkey`, `on` or `off` (the default):
 * whether the session holds the person's stop hotkey,
 * Ctrl+Alt+Shift+Escape (X11: a passive grab on the root window; other
 * display drivers have none); pressing it stops the session as
 * cua_session_set_stopped() does. Presses sent by XTEST (synthetic
 * input) are ignored.
 *
 * @return ::CUA_OK, ::CUA_ERROR_INVALID_ARGUMENT for an unknown key or a
 *         malformed value; for `display`, ::CUA_ERROR_UNSUPPORTED for a
 *         driver this libcua was built without or a session without a
 *         window system (a recording).
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_set_option(cua_session *session, const char *key,
		       const char *value);

/**
 * Stops (stopped = 1) or lets go again (0): while the person's stop
 * holds, every observation and action of the session fails with
 * ::CUA_E_USER_STOPPED and nothing is sent; an action that is running
 * stops between two of its synthetic events. The person's stop hotkey
 * (session option `stop_hotkey`) and an Escape press of their own during
 * an action stop the session the same way. A stop ends when this is
 * called with 0 (for example when the host starts a new turn) or after
 * five minutes.
 *
 * Safe to call from any thread, and from a thread other than the one
 * running a call on the session.
 *
 * @since 0.2
 */
CUA_EXPORT void
cua_session_set_stopped(cua_session *session, int stopped);

/**
 * Whether the person's stop holds (cua_session_set_stopped()).
 *
 * @return 1 or 0; 0 for a NULL session. Safe from any thread.
 * @since 0.2
 */
CUA_EXPORT int
cua_session_is_stopped(cua_session *session);

/**
 * Describes the session's display driver as JSON (schema
 * `libcua.display/1`), for diagnostics such as `cua doctor`:
 *
 * - `driver`: `x11`, `wlroots`, `mutter`, `portal` or `none`;
 * - `chosen_by`: `auto`, `CUA_DISPLAY`, `the session option display`, or
 *   `backend` (a session without a window system, such as a recording);
 * - `why`: why this driver, in words;
 * - `session`: `x11`, `wayland` or `none`, as the environment shows it;
 * - `display`, `server`: the display's name (`:1`, `wayland-1`) and the
 *   window manager's or compositor's, or null when unknown;
 * - `capabilities`: for each of `windows`, `geometry`, `screenshot`,
 *   `pointer` and `keyboard`, `available` and, when it is false, a
 *   `reason` naming what is missing;
 * - `tried`: the Wayland drivers tried and not taken, each with its
 *   `driver` and `reason`;
 * - `user_input` (since 0.2): `available` when the driver can tell the
 *   person's own key and button presses from synthetic input and hold
 *   the stop hotkey (the user guards; x11: XInput2), else a `reason`.
 *
 * The accessibility tree and element actions do not depend on the
 * display driver.
 *
 * @param[out] json owned string, free with cua_free().
 * @return ::CUA_OK, ::CUA_ERROR_INVALID_ARGUMENT, ::CUA_ERROR_NOMEM.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_session_get_display_info(cua_session *session, char **json);

/**
 * Output flag: JSON instead of text.
 * @since 0.1
 */
#define CUA_FORMAT_JSON (1u << 0)

/**
 * Lists the apps of the desktop: the text of the `list_apps` tool (one
 * `<name> — <id> [<flags>]` line per app), or with ::CUA_FORMAT_JSON the
 * structured form (`libcua.apps/1`).
 *
 * @param[out] out owned string, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_list_apps(cua_session *session, uint32_t flags, char **out);

/**
 * Observe flag: fail with ::CUA_ERROR_NOT_FOUND instead of launching an
 * installed app that is not running.
 * @since 0.1
 */
#define CUA_OBSERVE_NO_LAUNCH (1u << 0)

/**
 * Observe flag (`disable_diff`): this observation renders as the full
 * tree even with ::CUA_RENDER_DIFF. Ids are still inherited and the
 * observation becomes the next diff baseline as usual.
 * @since 0.1
 */
#define CUA_OBSERVE_DISABLE_DIFF (1u << 1)

/**
 * Observe flag: take no screenshot (the text and the element frames only;
 * cua_tree_get_screenshot() then fails).
 * @since 0.1
 */
#define CUA_OBSERVE_NO_SCREENSHOT (1u << 8)

/**
 * Observe flag: the caller sent input to the app since the previous
 * observation by its own means (libcua's own actions are known), so the
 * UI settle waits for the quiet interval even if no event announced a
 * change yet.
 * @since 0.1
 */
#define CUA_OBSERVE_AFTER_ACTION (1u << 9)

/**
 * Observes an app: resolves @p app to exactly one running app (launching an
 * installed one in the background unless ::CUA_OBSERVE_NO_LAUNCH), chooses
 * its window, reads its tree, assigns element ids (inherited from the
 * previous observation of the same app in this session, never reused) and
 * publishes the result as the session's latest observation of that app.
 *
 * The observation remembers its diff baseline: the previous published
 * observation of the same window of the same process, so that
 * cua_tree_render() with ::CUA_RENDER_DIFF renders what changed since then.
 *
 * Before reading, the UI is given time to settle: until the app has sent
 * no accessibility event and its window no damage for `settle_quiet_ms`
 * (250), at most `settle_cap_ms` (1000), `settle_busy_cap_ms` (5000)
 * while the app says it is busy; an idle app that was observed before is
 * read at once. Right after the tree, the same window is captured (see
 * cua_tree_get_screenshot()); a failed capture never fails the
 * observation.
 *
 * @param app an app name, app id, desktop-file id, executable or `pid:N`.
 * @param flags 0, ::CUA_OBSERVE_NO_LAUNCH, ::CUA_OBSERVE_DISABLE_DIFF,
 *        ::CUA_OBSERVE_NO_SCREENSHOT, ::CUA_OBSERVE_AFTER_ACTION.
 * @param[out] out new reference, release with cua_tree_unref().
 * @return ::CUA_OK; ::CUA_ERROR_NOT_FOUND, ::CUA_ERROR_AMBIGUOUS,
 *         ::CUA_ERROR_NO_WINDOW, ::CUA_ERROR_TIMEOUT, ::CUA_ERROR_LAUNCH,
 *         ::CUA_ERROR_BACKEND with the model-facing sentence in
 *         cua_error_message().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_observe(cua_session *session, const char *app, uint32_t flags,
		    cua_tree **out);

/**
 * Resolves @p app to exactly one target, the way cua_session_observe()
 * does, without launching or reading anything else: a running app (an
 * app of this session whose process still runs, then every running app by
 * desktop-file id, name, AT-SPI name, `WM_CLASS` or executable), else an
 * installed desktop entry. A caller decides its app policy on this
 * result and then observes the same process with `pid:N` (or launches the
 * entry by its desktop-file path), so that nothing is re-resolved by name.
 *
 * The result is a JSON object (`libcua.app/1`); every app-controlled
 * string is sanitised:
 * - `running` (boolean);
 * - `id` (canonical app id), `name` (display name);
 * - running apps: `pid`, `start_time`, `executable` (path),
 *   `executable_name` (its basename), `atspi_name`, `desktop_id`,
 *   `desktop_file`, `wm_class` (`[class, instance]`), `toolkit`,
 *   `accessible`, `windows`;
 * - installed entries: `desktop_id`, `desktop_file`, `executable_name`
 *   (the program of its `Exec=` line).
 * Absent strings are `null`.
 *
 * @param app an app name, app id, desktop-file id, executable, absolute
 *        path or `pid:N`.
 * @param flags 0.
 * @param[out] out owned string, free with cua_free().
 * @return ::CUA_OK; ::CUA_ERROR_NOT_FOUND, ::CUA_ERROR_AMBIGUOUS,
 *         ::CUA_ERROR_INVALID_ARGUMENT, ::CUA_ERROR_BACKEND with the
 *         model-facing sentence in cua_error_message().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_resolve_app(cua_session *session, const char *app,
			uint32_t flags, char **out);

/**
 * Reads the raw accessibility tree of @p app's observed window and popups
 * as JSON in the format cua_session_new_recorded() replays.
 *
 * @param[out] out owned string, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_record(cua_session *session, const char *app, uint32_t flags,
		   char **out);

/**
 * Serialises the session's per-app state (id counters, latest observations
 * with locators) as JSON, so that another process can continue with the
 * same element ids (the `cua` CLI keeps it between invocations).
 *
 * @param[out] out owned string, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_save_state(cua_session *session, char **out);

/**
 * Restores state saved by cua_session_save_state(). App sessions whose
 * process no longer exists (pid, start time or executable changed) keep
 * their id counters only, so ids are still never reused.
 *
 * @return ::CUA_OK, ::CUA_ERROR_INVALID_ARGUMENT for malformed state.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_load_state(cua_session *session, const char *json);

/**
 * Expires the diff baseline of every app session, as at the start of a new
 * turn of the host conversation (docs/identity.md §7.4): the next observation
 * of each app renders as the full tree under ::CUA_RENDER_DIFF. Lineages and
 * element ids are kept. The mark survives cua_session_save_state().
 * @since 0.1
 */
CUA_EXPORT void
cua_session_expire_baselines(cua_session *session);

/**
 * Waits until the app that @p tree observed reports a change of its
 * accessibility tree (an AT-SPI event: children, names, values, states,
 * text, windows), or until @p timeout_ms passes. Nothing is polled; events
 * that arrived since the observation count. Observe again (with
 * ::CUA_RENDER_DIFF) to see what changed; an event does not guarantee a
 * visible change. This is what `cua watch` runs.
 *
 * @param tree an observation made by this session.
 * @param timeout_ms the longest wait; -1 waits without limit.
 * @param[out] changed 1 when an event arrived, 0 when the time ran out.
 * @return ::CUA_OK; ::CUA_ERROR_NOT_FOUND when the observed process is
 *         gone or was not observed by this session;
 *         ::CUA_ERROR_UNSUPPORTED when the backend cannot watch apps
 *         (recorded trees).
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_wait_for_change(cua_session *session, cua_tree *tree,
			    int timeout_ms, int *changed);

/** @} */

/** @name Trees */
/** @{ */

/**
 * Takes a reference.
 * @return @p tree.
 * @since 0.1
 */
CUA_EXPORT cua_tree *
cua_tree_ref(cua_tree *tree);

/**
 * Releases a reference. NULL is allowed.
 * @return NULL.
 * @since 0.1
 */
CUA_EXPORT cua_tree *
cua_tree_unref(cua_tree *tree);

/**
 * Render flag: render the observation as a diff against its baseline (the
 * previous published observation of the same window in the same app
 * session), as `get_app_state` does by default: the
 * `The following is a diff from the previous accessibility tree …`
 * sentence, `Removed element IDs:` ranges, `~` (changed) and `+` (added)
 * lines, and the trailer; or `There has been no change …` when nothing
 * changed. The full tree is rendered instead (ids still inherited) on the
 * first observation, with ::CUA_OBSERVE_DISABLE_DIFF, when the root window
 * changed, when the baseline expired (cua_session_expire_baselines(),
 * `diff_baseline_max_age_s`), when either tree is truncated, with
 * `diff_mode` `off`, and when the diff has more lines than the full tree
 * (the line budget).
 * @since 0.1
 */
#define CUA_RENDER_DIFF (1u << 0)

/**
 * Diff flag: print removed elements as `-` lines (their previous lines, in
 * the previous tree's order, before the `~`/`+` lines) instead of the
 * `Removed element IDs:` ranges. Also set by the session option
 * `diff_removed_style` = `lines`.
 * @since 0.1
 */
#define CUA_DIFF_REMOVED_LINES (1u << 1)

/**
 * Diff flag: render the diff even when it has more lines than the full
 * tree. Also set by the session option `ignore_difference_line_budget`.
 * @since 0.1
 */
#define CUA_DIFF_IGNORE_LINE_BUDGET (1u << 2)

/**
 * Renders the state text of the observation (the body inside
 * `<app_state>`): the `App=` and `Window:` lines, one line per element,
 * and the focus or selected-text trailer; with ::CUA_RENDER_DIFF the diff
 * against the observation's baseline when one applies.
 *
 * @param flags 0 (the full tree), or ::CUA_RENDER_DIFF with optionally
 *        ::CUA_DIFF_REMOVED_LINES and ::CUA_DIFF_IGNORE_LINE_BUDGET.
 * @param[out] out owned string, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_render(cua_tree *tree, uint32_t flags, char **out);

/**
 * The structured form of the observation (`libcua.app_state/1`): app,
 * window, revision (`number`, `kind`: `full`, `diff` or `no_change`,
 * `root_changed`, `truncated`), the state text and every element with its
 * traits, frame and locator, and `removed_ids` (the ids the diff reports
 * removed; empty for a full tree).
 *
 * @param flags as for cua_tree_render(): they choose `state_text` and
 *        `revision.kind`.
 * @param[out] out owned string, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_to_json(cua_tree *tree, uint32_t flags, char **out);

/**
 * The canonical app id (`App=` line). @return borrowed.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_tree_get_app_id(cua_tree *tree);

/**
 * The app's display name. @return borrowed.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_tree_get_app_name(cua_tree *tree);

/**
 * The observed window's title (sanitised, untruncated). @return borrowed.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_tree_get_window_title(cua_tree *tree);

/**
 * The process id of the observed app.
 * @since 0.1
 */
CUA_EXPORT int64_t
cua_tree_get_pid(cua_tree *tree);

/**
 * The revision number of this observation within its app session
 * (0 for the first).
 * @since 0.1
 */
CUA_EXPORT uint32_t
cua_tree_get_revision(cua_tree *tree);

/**
 * Non-zero when the tree was cut by the element cap, the depth cap or the
 * walk deadline (the state text then ends with a truncation marker).
 * @since 0.1
 */
CUA_EXPORT int
cua_tree_is_truncated(cua_tree *tree);

/**
 * The `Accessibility unavailable:` note of this observation, or NULL. It is
 * set when the tree is only a skeleton: a Chromium or Electron window
 * started without renderer accessibility shows one empty document, a tree
 * that looks normal but holds nothing of the page. The note names the
 * likely cause's fix; `cua-mcp` prints it after `</app_state>` and
 * `cua doctor APP` prints it.
 * @return borrowed (sanitised), or NULL.
 * @since 0.2
 */
CUA_EXPORT const char *
cua_tree_get_accessibility_note(cua_tree *tree);

/**
 * The `Accessibility unavailable:` note for an app whose elements cannot be
 * read (it has a window but is not registered on the accessibility bus, or
 * its tree is a skeleton): one line naming the app and the likely fix,
 * chosen from its toolkit and process — Chromium/Electron
 * `--force-renderer-accessibility`, Qt `QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1`
 * and the `AT_SPI_BUS` root-window property, Java the ATK wrapper, a
 * Flatpak sandbox whose registration carries another pid than its window.
 * @param app_name the app's name (sanitised here); NULL: "the app".
 * @param toolkit the app's toolkit (the `toolkit` of cua_session_list_apps()
 *        JSON), or NULL.
 * @param exe the app's executable path or name, or NULL.
 * @param pid the app's process id, or 0.
 * @return owned string, free with cua_free(); NULL when out of memory.
 * @since 0.2
 */
CUA_EXPORT char *
cua_accessibility_note(const char *app_name, const char *toolkit,
		       const char *exe, int64_t pid);

/**
 * Statistic keys for cua_tree_get_stat().
 * @since 0.1
 */
typedef enum cua_tree_stat {
	CUA_STAT_RAW_NODES = 1,   /**< raw accessibility objects read */
	CUA_STAT_ELEMENTS = 2,    /**< rendered elements */
	CUA_STAT_CALLS = 3,       /**< backend round trips (D-Bus calls) */
	CUA_STAT_WALK_US = 4,     /**< time spent reading the tree, µs */
	CUA_STAT_BUILD_US = 5,    /**< time spent in walk policy and ids, µs */
	CUA_STAT_CALL_ERRORS = 6, /**< backend calls that failed */
	/** time spent comparing the tree with its diff baseline, µs (part of
	 *  ::CUA_STAT_BUILD_US) */
	CUA_STAT_DIFF_US = 7,
	/** time spent waiting for the UI to settle before reading, µs */
	CUA_STAT_SETTLE_US = 20,
	/** time spent in the once-per-process warm-up, µs */
	CUA_STAT_WARMUP_US = 21,
	/** time spent capturing the screenshot, µs */
	CUA_STAT_CAPTURE_US = 22,
	/** time spent scaling and encoding the screenshot, µs */
	CUA_STAT_ENCODE_US = 23,
	/** 1 when the settle stopped at its cap, else 0 */
	CUA_STAT_SETTLE_CAPPED = 24,
} cua_tree_stat;

/**
 * A statistic of how the tree was obtained.
 * @return the value, or -1 for an unknown key.
 * @since 0.1
 */
CUA_EXPORT int64_t
cua_tree_get_stat(cua_tree *tree, cua_tree_stat stat);

/**
 * Number of elements (element lines, plus the focused element when it was
 * pruned from the lines).
 * @since 0.1
 */
CUA_EXPORT size_t
cua_tree_get_element_count(cua_tree *tree);

/**
 * The element at position @p i in depth-first render order.
 * @return borrowed, valid while @p tree lives; NULL when out of range.
 * @since 0.1
 */
CUA_EXPORT cua_element *
cua_tree_get_element(cua_tree *tree, size_t i);

/**
 * The element with element id @p id.
 * @return borrowed, valid while @p tree lives; NULL when absent.
 * @since 0.1
 */
CUA_EXPORT cua_element *
cua_tree_find_element(cua_tree *tree, uint32_t id);

/**
 * The element with keyboard focus.
 * @return borrowed, valid while @p tree lives; NULL when nothing in the
 *         observed window has focus.
 * @since 0.1
 */
CUA_EXPORT cua_element *
cua_tree_get_focused(cua_tree *tree);

/** @} */

/** @name Diffs */
/** @{ */

/**
 * The difference between two observations of one app session: elements
 * whose line changed or that moved (`~`), elements with fresh ids (`+`)
 * and ids that are no longer shown (removed), docs/identity.md §7. Immutable
 * and reference-counted; it keeps the newer tree alive.
 * @since 0.1
 */
typedef struct cua_tree_diff cua_tree_diff;

/**
 * Compares @p new_tree with @p old_tree. Elements are matched by element
 * id, so both trees should come from one app session (ids are inherited
 * along its lineage and never reused); @p old_tree is usually an earlier
 * observation of the same window.
 *
 * @param flags 0.
 * @param[out] out new reference, release with cua_tree_diff_unref().
 * @return ::CUA_OK, ::CUA_ERROR_INVALID_ARGUMENT, ::CUA_ERROR_NOMEM.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_diff_new(cua_tree *old_tree, cua_tree *new_tree, uint32_t flags,
		  cua_tree_diff **out);

/**
 * The diff of an observation against its baseline, the one
 * ::CUA_RENDER_DIFF renders (whether or not a rule of docs/identity.md §7.4
 * makes that rendering a full tree).
 *
 * @param[out] out new reference, release with cua_tree_diff_unref().
 * @return ::CUA_OK; ::CUA_ERROR_NOT_FOUND when the observation has no
 *         baseline (first observation of its process, or its root window
 *         differs from the previous observation's).
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_get_diff(cua_tree *tree, cua_tree_diff **out);

/**
 * Takes a reference.
 * @return @p diff.
 * @since 0.1
 */
CUA_EXPORT cua_tree_diff *
cua_tree_diff_ref(cua_tree_diff *diff);

/**
 * Releases a reference. NULL is allowed.
 * @return NULL.
 * @since 0.1
 */
CUA_EXPORT cua_tree_diff *
cua_tree_diff_unref(cua_tree_diff *diff);

/**
 * The newer tree of the diff. @return borrowed, valid while @p diff lives.
 * @since 0.1
 */
CUA_EXPORT cua_tree *
cua_tree_diff_get_tree(cua_tree_diff *diff);

/**
 * Ids of the changed elements (`~`: line changed, or moved to another
 * parent, depth or sibling position), in the newer tree's order.
 *
 * @param[out] ids borrowed array, valid while @p diff lives (may be NULL
 *             when the count is 0); NULL is allowed.
 * @return the number of ids.
 * @since 0.1
 */
CUA_EXPORT size_t
cua_tree_diff_get_changed(cua_tree_diff *diff, const uint32_t **ids);

/**
 * Ids of the added elements (`+`: fresh ids, every element of an added
 * subtree), in the newer tree's order. Same conventions as
 * cua_tree_diff_get_changed().
 * @since 0.1
 */
CUA_EXPORT size_t
cua_tree_diff_get_added(cua_tree_diff *diff, const uint32_t **ids);

/**
 * Ids of the older tree that the newer one no longer shows, ascending.
 * Same conventions as cua_tree_diff_get_changed().
 * @since 0.1
 */
CUA_EXPORT size_t
cua_tree_diff_get_removed(cua_tree_diff *diff, const uint32_t **ids);

/**
 * Non-zero when nothing changed (same ids, same lines, same order); focus
 * moves alone are not changes.
 * @since 0.1
 */
CUA_EXPORT int
cua_tree_diff_is_empty(cua_tree_diff *diff);

/**
 * Renders the diff body (docs/identity.md §7.1): the `App=` line, the diff
 * sentence naming the window, `Removed element IDs:`, the `~`/`+` lines
 * with their indentation, and the newer tree's trailer; or the no-change
 * sentence; or the newer tree's full state text when either tree is
 * truncated or the diff exceeds the full tree's line budget.
 *
 * @param flags 0, ::CUA_DIFF_REMOVED_LINES, ::CUA_DIFF_IGNORE_LINE_BUDGET.
 * @param[out] out owned string, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_diff_render(cua_tree_diff *diff, uint32_t flags, char **out);

/** @} */

/** @name Screenshots */
/** @{ */

/**
 * The observation's screenshot: the observed window alone (covered or
 * partly off-screen windows included, never raised), normalised to its
 * size in points, then scaled so that the long edge is at most 2048 and
 * the short edge at most 768 pixels (never upscaled, sizes rounded up),
 * encoded as JPEG at quality 80.
 *
 * Screenshot pixel (x, y) is window point (x / pixels_per_point,
 * y / pixels_per_point); element frames (cua_element_get_frame()) are in
 * the same window points.
 *
 * @param[out] data borrowed, valid while @p tree lives.
 * @param[out] size bytes.
 * @param[out] mime_type borrowed static string: `image/jpeg`.
 * @param[out] width image width in pixels (may be NULL).
 * @param[out] height image height in pixels (may be NULL).
 * @param[out] pixels_per_point the one scale factor from window points to
 *             image pixels, computed before rounding (may be NULL).
 * @return ::CUA_OK; ::CUA_ERROR_NOT_FOUND when the observation has no
 *         screenshot (cua_tree_get_screenshot_error() says why).
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_get_screenshot(cua_tree *tree, const void **data, size_t *size,
			const char **mime_type, uint32_t *width,
			uint32_t *height, double *pixels_per_point);

/**
 * Why the observation has no screenshot.
 *
 * One of the phrases of the `Screenshot unavailable: <reason>.` line
 * (`the window is minimized`, `the capture timed out`, …), without the
 * final period.
 * @return borrowed; NULL when there is a screenshot.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_tree_get_screenshot_error(cua_tree *tree);

/**
 * Screenshot rendering flag: draw each rendered element's box and id
 * ("set of marks").
 * @since 0.1
 */
#define CUA_SCREENSHOT_MARKS (1u << 0)

/**
 * Screenshot rendering flag: encode as PNG instead of JPEG.
 * @since 0.1
 */
#define CUA_SCREENSHOT_PNG (1u << 1)

/**
 * Renders the observation's screenshot as a new image: with
 * ::CUA_SCREENSHOT_MARKS each rendered element's box and id drawn on it;
 * with ::CUA_SCREENSHOT_PNG as PNG (of the same pixels), else JPEG.
 *
 * @param flags ::CUA_SCREENSHOT_MARKS, ::CUA_SCREENSHOT_PNG.
 * @param[out] out owned buffer, free with cua_free().
 * @param[out] size bytes.
 * @return ::CUA_OK; ::CUA_ERROR_NOT_FOUND without a screenshot,
 *         ::CUA_ERROR_UNSUPPORTED for PNG in a build without libpng.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_render_screenshot(cua_tree *tree, uint32_t flags, void **out,
			   size_t *size);

/**
 * The screenshot with marks: cua_tree_render_screenshot() with
 * ::CUA_SCREENSHOT_MARKS added to @p flags.
 *
 * @param[out] out owned buffer, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_render_marks(cua_tree *tree, uint32_t flags, void **out,
		      size_t *size);

/**
 * Maps a screenshot pixel to a screen (X11 root) pixel through the
 * window's position at capture time: window point = pixel /
 * pixels_per_point; screen = frame origin + point × device pixels per
 * point.
 *
 * @return ::CUA_OK; ::CUA_ERROR_NOT_FOUND without a screenshot,
 *         ::CUA_ERROR_INVALID_ARGUMENT for a pixel outside the image.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_screenshot_to_screen(cua_tree *tree, double x, double y,
			      int32_t *screen_x, int32_t *screen_y);

/** @} */

/** @name Elements */
/** @{ */

/**
 * Element trait bits (cua_element_get_traits()).
 * @since 0.1
 */
enum cua_trait {
	CUA_TRAIT_SELECTED = 1u << 0,   /**< selected */
	CUA_TRAIT_SELECTABLE = 1u << 1, /**< selectable (and not selected) */
	CUA_TRAIT_EXPANDED = 1u << 2,   /**< expanded */
	CUA_TRAIT_COLLAPSED = 1u << 3,  /**< expandable, not expanded */
	CUA_TRAIT_DISABLED = 1u << 4,   /**< interactive and disabled */
	CUA_TRAIT_SETTABLE = 1u << 5,   /**< set_value accepts it */
	CUA_TRAIT_STRING = 1u << 6,     /**< settable as a string */
	CUA_TRAIT_FLOAT = 1u << 7,      /**< settable as a number */
	CUA_TRAIT_BOOLEAN = 1u << 8,    /**< settable as a boolean */
};

/**
 * Takes a reference; it keeps the element's tree alive.
 * @return @p element.
 * @since 0.1
 */
CUA_EXPORT cua_element *
cua_element_ref(cua_element *element);

/**
 * Releases a reference taken with cua_element_ref(). NULL is allowed.
 * @return NULL.
 * @since 0.1
 */
CUA_EXPORT cua_element *
cua_element_unref(cua_element *element);

/**
 * The element id (the number at the start of its line).
 * @since 0.1
 */
CUA_EXPORT uint32_t
cua_element_get_id(cua_element *element);

/**
 * The rendered depth (number of TABs of its line).
 * @since 0.1
 */
CUA_EXPORT uint32_t
cua_element_get_depth(cua_element *element);

/**
 * The rendered parent. @return borrowed, NULL for depth-0 elements.
 * @since 0.1
 */
CUA_EXPORT cua_element *
cua_element_get_parent(cua_element *element);

/**
 * Number of rendered children.
 * @since 0.1
 */
CUA_EXPORT size_t
cua_element_get_child_count(cua_element *element);

/**
 * The @p i-th rendered child. @return borrowed, NULL when out of range.
 * @since 0.1
 */
CUA_EXPORT cua_element *
cua_element_get_child(cua_element *element, size_t i);

/**
 * The role text (`button`, `standard window`, …; may be empty).
 * @return borrowed, valid while the element's tree lives.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_element_get_role(cua_element *element);

/**
 * The raw platform role name (AT-SPI: `push button`, `frame`, …).
 * @return borrowed.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_element_get_raw_role(cua_element *element);

/**
 * The title (sanitised, untruncated; empty when none). @return borrowed.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_element_get_title(cua_element *element);

/**
 * The description (empty when none). @return borrowed.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_element_get_description(cua_element *element);

/**
 * The value as rendered (`on`, `0.5`, the text of a field; empty when
 * none). @return borrowed.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_element_get_value(cua_element *element);

/**
 * Trait bits, see ::cua_trait.
 * @since 0.1
 */
CUA_EXPORT uint32_t
cua_element_get_traits(cua_element *element);

/**
 * Number of secondary actions (as listed after `Secondary Actions:`).
 * @since 0.1
 */
CUA_EXPORT size_t
cua_element_get_action_count(cua_element *element);

/**
 * The pretty name of the @p i-th secondary action. @return borrowed, NULL
 * when out of range.
 * @since 0.1
 */
CUA_EXPORT const char *
cua_element_get_action(cua_element *element, size_t i);

/**
 * The element's frame relative to its window, in points.
 * @return 1 and fills the out parameters when the element has geometry,
 *         0 otherwise.
 * @since 0.1
 */
CUA_EXPORT int
cua_element_get_frame(cua_element *element, int32_t *x, int32_t *y,
		      int32_t *width, int32_t *height);

/**
 * The element's locator: the index of its window among the app's
 * toplevels and the child index at each raw level below the window.
 *
 * @param[out] window_index the window index.
 * @param[out] path borrowed array of child indices, valid while the tree
 *             lives (may be NULL when @p path_len is 0).
 * @param[out] path_len number of steps.
 * @return ::CUA_OK, ::CUA_ERROR_INVALID_ARGUMENT.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_element_get_locator(cua_element *element, size_t *window_index,
			const uint32_t **path, size_t *path_len);

/**
 * Renders the element's line without indentation (as the focus trailer
 * shows it).
 * @param[out] out owned string, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_element_render(cua_element *element, char **out);

/** @} */

/** @name Actions
 *
 * Acting on an app by element number (from the latest observation of
 * that app in this session) or by screenshot pixel. Every action:
 *
 * - runs the staleness guards first, in order: @p app resolves to exactly
 *   one running app (actions never launch), this session observed it
 *   with cua_session_observe(), and its process is the same one (pid,
 *   start time, executable); then, for element actions, the element is
 *   **found again in the live tree** from the application root with
 *   semantic fingerprint checks (a cached handle is never trusted), or by
 *   an equivalence search that succeeds only on a unique match. The
 *   first failing check is the error and nothing is sent;
 * - never falls back to another element, window or app, and sends
 *   synthetic input only when it can prove it reaches the target (the
 *   point belongs to the app's window; the window holds keyboard focus);
 * - returns without waiting for the app to redraw and never re-observes:
 *   call cua_session_observe() to see the effect. Toolkits that apply
 *   actions late (Chromium, Firefox) show the effect in a later
 *   observation.
 *
 * On failure cua_error_message() holds the model-facing sentence of the
 * libcua specification (for example `The element ID is no longer valid.
 * Try to get the on-screen content again and see if that resolves the
 * issue.`), and the result is one of: ::CUA_ERROR_INVALID_ARGUMENT (bad
 * arguments, unknown key names, text not found), ::CUA_ERROR_NOT_FOUND
 * (no such app, or an element number this app never had),
 * ::CUA_ERROR_AMBIGUOUS, ::CUA_ERROR_NO_SESSION, ::CUA_ERROR_PROCESS_GONE,
 * ::CUA_ERROR_STALE (the element, window or screenshot changed),
 * ::CUA_ERROR_UNSUPPORTED (the element cannot do this, or the backend
 * cannot act), ::CUA_ERROR_INPUT_BLOCKED, ::CUA_ERROR_PERMISSION (a
 * refused system shortcut, or input that would reach a security
 * prompt), ::CUA_ERROR_TIMEOUT (the app did not answer: the result is
 * unknown, nothing is retried) or ::CUA_ERROR (the app refused: an
 * `Accessibility error: …` sentence).
 *
 * @p outcome may be NULL. On success it receives an owned JSON object
 * (`libcua.action/1`, free with cua_free()): `tool`, `app` (`id`, `pid`),
 * `element` (or null), `route` (how the action was carried out:
 * `selection`, `focus`, `action:<raw action name>`, `descendant`,
 * `hit-test`, `activate-window`, `synthetic`, `menu-key`, `value`,
 * `wheel`, `raise`, `editable-text`, `keys`, `text-selection`),
 * `refetched` (the element was found by the equivalence search),
 * `timings_ms`, and per action `before`/`after` (set_value),
 * `pages_applied` and `at_limit` (scroll), `range` (select_text).
 *
 * Options (cua_session_set_option()): `locator_strict_siblings` (0; 1
 * compares every sibling's title at every step), `focus_timeout_ms`
 * (500), `restore_pointer` (1), `always_simulate_click` (0),
 * `keymap_delay_ms` (50; the wait after remapping a spare keycode for a
 * character the keymap lacks), `type_text_keys` (0; 1 types with key
 * events even where the text could be inserted directly).
 */
/** @{ */

/**
 * Mouse buttons for cua_session_click() and cua_session_click_at().
 * @since 0.1
 */
enum cua_mouse_button {
	CUA_BUTTON_LEFT = 1,   /**< the primary button */
	CUA_BUTTON_MIDDLE = 2, /**< the middle button */
	CUA_BUTTON_RIGHT = 3,  /**< the secondary (context menu) button */
};

/**
 * What cua_session_select_text() does with the text it finds.
 * @since 0.1
 */
enum cua_selection_mode {
	CUA_SELECTION_TEXT = 0,          /**< select it */
	CUA_SELECTION_CURSOR_BEFORE = 1, /**< put the caret before it */
	CUA_SELECTION_CURSOR_AFTER = 2,  /**< put the caret after it */
};

/**
 * Clicks an element. The left single click tries, in order: selecting a
 * row, list item, cell or tab through its container; focusing a text
 * field; the element's press action (toolkit names such as `click`,
 * `press`, `Press`, `activate`, `doDefault`, `Toggle`, `check` count); a
 * descendant's press action; the object under its centre; activating a
 * window; and only then a synthetic click at its centre, after checking
 * that the point belongs to the app's window. The right button uses the
 * element's context-menu action, else a right click, else the Menu key;
 * the middle button clicks synthetically. Several clicks are a real
 * double (triple, …) click at the centre where the pointer can reach it.
 *
 * @param app the app as for cua_session_observe().
 * @param element_id an element number of the app's latest observation.
 * @param button a ::cua_mouse_button.
 * @param click_count 1 to 100.
 * @param[out] outcome owned JSON string or NULL (see the Actions group).
 * @return ::CUA_OK or an error, see the group description.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_click(cua_session *session, const char *app, uint32_t element_id,
		  uint32_t button, uint32_t click_count, char **outcome);

/**
 * Clicks at a pixel of the app's latest screenshot (origin at its
 * top-left corner; through its pixels-per-point, or the window's frame at
 * one pixel per point when the observation has no screenshot). Fails when
 * the window changed size since, is minimised, hidden or covered at that
 * point (a covered window is raised once per session), or the point lies
 * outside the screenshot.
 *
 * @param x, y screenshot pixels.
 * @param button a ::cua_mouse_button.
 * @param click_count 1 to 100.
 * @param[out] outcome owned JSON string or NULL.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_click_at(cua_session *session, const char *app, double x,
		     double y, uint32_t button, uint32_t click_count,
		     char **outcome);

/**
 * Sets the value of a settable element: the text of a text field
 * (`value` may be empty) or the number of a slider, spin button or
 * scroll bar (a locale-independent decimal within its range). Never
 * focuses the element and never types. The outcome carries the value
 * `before` and `after` (null for password fields); an app that keeps the
 * old value is an error.
 *
 * @param value UTF-8, not NULL.
 * @param[out] outcome owned JSON string or NULL.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_set_value(cua_session *session, const char *app,
		      uint32_t element_id, const char *value, char **outcome);

/**
 * Types text into the app's focused element: inserted at the caret
 * (replacing a selection) through the accessibility interface where the
 * toolkit supports it, else as key events after making sure the app's
 * window holds keyboard focus. Any Unicode character can be typed: those
 * the keymap lacks are written into a spare keycode for the moment.
 * `\n` is Return, `\t` is Tab.
 *
 * @param text UTF-8, not empty.
 * @param[out] outcome owned JSON string or NULL.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_type_text(cua_session *session, const char *app,
		      const char *text, char **outcome);

/**
 * Presses a key or key combination in xdotool `key` syntax (`Return`,
 * `ctrl+a`, `ctrl+shift+t`, `ctrl+a BackSpace`, `KP_0`, a single
 * character). `super`, `cmd` and `command` mean Control (Linux shortcuts
 * for copy, paste, save…); `Super_L` is the real Super key. Shortcuts
 * that kill the X server, switch terminals, lock the screen or change
 * the power state are refused. Keys are sent only after the app's
 * window holds keyboard focus.
 *
 * @param key the key argument; an unknown name fails with
 *        `keyNotFound("<token>")`.
 * @param[out] outcome owned JSON string or NULL.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_press_key(cua_session *session, const char *app,
		      const char *key, char **outcome);

/**
 * Scrolls an element by @p pages times its height (up, down) or width
 * (left, right): exactly, through its scroll bar's value where it has
 * one, else with wheel clicks at its centre. Scrolling at the end of the
 * range succeeds with `at_limit` in the outcome.
 *
 * @param direction `up`, `down`, `left`, `right` (or `u`, `d`, `l`, `r`;
 *        any case).
 * @param pages a finite number > 0; fractions are kept.
 * @param[out] outcome owned JSON string or NULL.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_scroll(cua_session *session, const char *app,
		   uint32_t element_id, const char *direction, double pages,
		   char **outcome);

/**
 * Scrolls at a screenshot pixel of the last observation's screenshot:
 * wheel clicks at that point, @p pages times the window's height (width
 * for left and right), for windows without an element to scroll (canvas
 * areas, bare trees). The point must lie on the app's window and the
 * window must still have the size it had in the screenshot.
 *
 * @param x, y screenshot pixels.
 * @param direction `up`, `down`, `left` or `right` (or `u`, `d`, `l`, `r`).
 * @param pages a number > 0; fractions are approximated to whole wheel
 *        clicks.
 * @param[out] outcome owned JSON string or NULL.
 * @return ::CUA_OK; ::CUA_ERROR_INVALID_ARGUMENT for a bad direction,
 *         pages or a point outside the screenshot; ::CUA_ERROR_STALE when
 *         the window changed; ::CUA_ERROR_INPUT_BLOCKED when the point is
 *         covered.
 * @since 0.2
 */
CUA_EXPORT cua_result
cua_session_scroll_at(cua_session *session, const char *app, double x,
		      double y, const char *direction, double pages,
		      char **outcome);

/**
 * Drags with the left button from one screenshot pixel to another:
 * press at the start, moves to the start, the midpoint and the end,
 * release at the end. The start must lie on the app's window.
 *
 * @param from_x, from_y, to_x, to_y screenshot pixels.
 * @param[out] outcome owned JSON string or NULL.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_drag(cua_session *session, const char *app, double from_x,
		 double from_y, double to_x, double to_y, char **outcome);

/**
 * Performs one of the element's secondary actions, named as its line
 * shows them after `Secondary Actions:` (`Show Menu`, `Expand`, `Raise`,
 * `Scroll Down`, …; the raw toolkit name is accepted too). An unknown
 * name fails with a sentence listing the valid ones.
 *
 * @param action the action name (surrounding white space ignored).
 * @param[out] outcome owned JSON string or NULL.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_perform_action(cua_session *session, const char *app,
			   uint32_t element_id, const char *action,
			   char **outcome);

/**
 * Selects text in a text element, or puts the caret before or after it.
 * @p text is matched exactly as the element's line shows it (embedded
 * links as Markdown, line breaks as `\n`); when it occurs more than once,
 * @p prefix (text right before it) or @p suffix (right after it) choose
 * the occurrence. The element is focused first.
 *
 * @param text not empty.
 * @param prefix, suffix NULL or "" when not used.
 * @param mode a ::cua_selection_mode.
 * @param[out] outcome owned JSON string or NULL; `range` is the selected
 *        character range.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_select_text(cua_session *session, const char *app,
			uint32_t element_id, const char *text,
			const char *prefix, const char *suffix, uint32_t mode,
			char **outcome);

/** @} */

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
 * buses and fixes; its apps are Wayland clients.
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
 *   devices; apps run as native Wayland clients, and sessions in it use
 *   the `wlroots` display driver; as root, sway runs as uid 65534 with a
 *   runtime directory of its own, since it refuses to run as root).
 * - `screen`: `WxHxD`, the screen size and depth (`1280x1024x24`); a
 *   `sway` desktop's output takes the size (its depth is 24 whatever D
 *   says).
 * - `window_manager`: `openbox` (the default; without it installed the
 *   desktop starts without one, with a warning) or `none`. A `sway`
 *   desktop has no other window manager: sway is one.
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
 * `GDK_BACKEND=wayland` and `SWAYSOCK`, and unsets `DISPLAY`.
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

#ifdef __cplusplus
}
#endif

#endif /* CUA_CUA_H */
