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
 * - Three opaque, reference-counted handles: ::cua_session, ::cua_tree and
 *   ::cua_element. `*_ref()` returns its argument; `*_unref()` accepts NULL
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
 * negative code. cua_result_to_string() names a code; cua_error_message()
 * returns the detailed message of the last failed call **on this thread**.
 * For calls that a model drives (observing an app, acting on an element) the
 * message is the model-facing sentence of the libcua specification: it says
 * what was wrong and what to do next.
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
 * cua_error_message() is per thread. libcua has no mutable global state
 * apart from a one-time lazy initialisation. It reads the environment only
 * in cua_session_new() and never calls setenv(). Objects must not be used in
 * a child process after fork().
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
 * setters.
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
 * Meaningful only right after a call that returned an error; it may hold
 * stale text after a call that succeeded.
 * @return borrowed, valid until the next libcua call on this thread; never
 *         NULL (empty when nothing was recorded).
 * @since 0.1
 */
CUA_EXPORT const char *
cua_error_message(void);

/**
 * Frees memory that libcua handed over (owned strings). NULL is allowed.
 * @since 0.1
 */
CUA_EXPORT void
cua_free(void *ptr);

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
 * @return ::CUA_OK, ::CUA_ERROR_INVALID_ARGUMENT for an unknown key or a
 *         malformed value.
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_session_set_option(cua_session *session, const char *key,
		       const char *value);

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
 * Observes an app: resolves @p app to exactly one running app (launching an
 * installed one in the background unless ::CUA_OBSERVE_NO_LAUNCH), chooses
 * its window, reads its tree, assigns element ids (inherited from the
 * previous observation of the same app in this session, never reused) and
 * publishes the result as the session's latest observation of that app.
 *
 * @param app an app name, app id, desktop-file id, executable or `pid:N`.
 * @param flags 0 or ::CUA_OBSERVE_NO_LAUNCH.
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
 * Renders the state text of the observation (the body inside
 * `<app_state>`): the `App=` and `Window:` lines, one line per element,
 * and the focus or selected-text trailer.
 *
 * @param flags 0.
 * @param[out] out owned string, free with cua_free().
 * @since 0.1
 */
CUA_EXPORT cua_result
cua_tree_render(cua_tree *tree, uint32_t flags, char **out);

/**
 * The structured form of the observation (`libcua.app_state/1`): app,
 * window, revision, the state text and every element with its traits,
 * frame and locator.
 *
 * @param flags 0.
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

#ifdef __cplusplus
}
#endif

#endif /* CUA_CUA_H */
