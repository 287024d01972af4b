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
 * @brief The public API of libcua: the handles, results, logging, version,
 * errors and memory here; the rest in the headers it includes
 * (cua-session.h, cua-tree.h, cua-actions.h, cua-desktop.h, cua-errors.h).
 *
 * @mainpage libcua
 *
 * libcua opens the accessibility tree of a running desktop application,
 * renders it as the compact, numbered text that Codex Computer Use prints
 * (the "state text"), and lets a caller act on the elements it numbered.
 *
 * @section handles Handles and ownership
 * - Opaque, reference-counted handles: ::cua_session, ::cua_tree and
 *   ::cua_element, and ::cua_desktop for a headless desktop. `*_ref()`
 *   returns its argument; `*_unref()` accepts NULL and always returns
 *   NULL, so `t = cua_tree_unref(t);` is always safe.
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
 * cua_error_code() and cua_error_message() are per thread. libcua has no
 * mutable global state apart from a one-time lazy initialisation. It reads
 * the environment only in cua_session_new() and in the calls that start or
 * attach to a headless desktop, and never calls setenv(). Objects must not
 * be used in a child process after fork().
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

/* the API by topic (each file documents its own part) */
#include <cua/cua-session.h>
#include <cua/cua-tree.h>
#include <cua/cua-actions.h>
#include <cua/cua-desktop.h>

#ifdef __cplusplus
}
#endif

#endif /* CUA_CUA_H */
