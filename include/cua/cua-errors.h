/*
 * libcua — stable error codes.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CUA_ERRORS_H
#define CUA_CUA_ERRORS_H

/**
 * @file cua-errors.h
 * The error codes of cua_error_code(). Included by <cua/cua.h>; do not
 * include it on its own.
 */

/**
 * What went wrong in the last failed call on this thread, finer than its
 * ::cua_result: cua_error_code() returns it beside cua_error_message().
 *
 * The values are stable: a code is never renumbered or reused, and new
 * codes may be added (in groups of a hundred: the library's own
 * conditions below 100, apps from 100, elements from 200, windows, points
 * and input from 300). Treat an unknown value like ::CUA_E_INTERNAL.
 *
 * Most codes are the rows of the error catalogue that an MCP server shows
 * a model (`docs/tools.md` §11 of the libcua sources; the catalogue id is
 * the code's name with `E-` for `CUA_E_` and `-` for `_`). The message of
 * cua_error_message() may be reworded between releases; the code is what
 * a program should switch on.
 * @since 0.2
 */
typedef enum cua_errcode {
	/** No error: the last call on this thread that returns a
	 *  ::cua_result succeeded, or none was made yet. */
	CUA_E_OK = 0,

	/** An unexpected failure inside libcua or the desktop (E-INTERNAL). */
	CUA_E_INTERNAL = 1,
	/** Out of memory. */
	CUA_E_NOMEM = 2,
	/** An argument is missing or malformed (E-INVALID-ARGS). */
	CUA_E_INVALID_ARGS = 3,
	/** Reading or writing a file failed. */
	CUA_E_IO = 4,
	/** The desktop (X11, D-Bus, AT-SPI, the compositor) is unavailable
	 *  or failed. */
	CUA_E_BACKEND = 5,
	/** This backend, display driver or build cannot do the operation. */
	CUA_E_UNSUPPORTED = 6,
	/** Something the call needs is not there: the observation's
	 *  screenshot or diff baseline, a window, a program to launch. */
	CUA_E_UNAVAILABLE = 7,

	/** No running or installed app matches the app string
	 *  (E-APP-NOT-FOUND). */
	CUA_E_APP_NOT_FOUND = 100,
	/** The app string matches several running apps (E-AMBIGUOUS-APP). */
	CUA_E_AMBIGUOUS_APP = 101,
	/** An action on an app that no observation of this session started
	 *  (E-NOT-ACTIVE). */
	CUA_E_NOT_ACTIVE = 102,
	/** The observed app quit, or was replaced by another process
	 *  (E-RUNNING-APP-NOT-FOUND). */
	CUA_E_RUNNING_APP_NOT_FOUND = 103,
	/** The app could not be started, or showed no window in time
	 *  (E-LAUNCH-FAILED). */
	CUA_E_LAUNCH_FAILED = 104,
	/** The app has no window to observe (E-NO-WINDOWS). */
	CUA_E_NO_WINDOWS = 105,
	/** The app is not on the accessibility bus, so its elements cannot be
	 *  read (screenshot coordinates and keys still reach it). */
	CUA_E_NOT_ACCESSIBLE = 106,
	/** The accessibility bus is not running or went away
	 *  (E-PERMISSIONS-NOT-GRANTED). */
	CUA_E_PERMISSIONS_NOT_GRANTED = 107,
	/** The app or the accessibility bus did not answer in time; after an
	 *  action, its result is unknown (E-TIMEOUT). */
	CUA_E_TIMEOUT = 108,
	/** The screen is locked: nothing is read or sent until the user
	 *  unlocks it (E-SCREEN-LOCKED). */
	CUA_E_SCREEN_LOCKED = 109,
	/** The person used the app (a key or button press of their own)
	 *  since it was last observed, or while the action ran: observe it
	 *  again (E-USER-CHANGED). */
	CUA_E_USER_CHANGED = 110,
	/** The person stopped Computer Use (cua_session_set_stopped(), the
	 *  stop hotkey, or Escape during an action) (E-USER-STOPPED). */
	CUA_E_USER_STOPPED = 111,
	/** The app started moments ago and is not on the accessibility bus
	 *  yet: call again shortly (E-PERMISSIONS-PENDING). */
	CUA_E_PERMISSIONS_PENDING = 112,

	/** The element id was never issued for this app (E-NOTFOUND). */
	CUA_E_NOTFOUND = 200,
	/** The element is gone from the app (E-INVALID). */
	CUA_E_INVALID = 201,
	/** The element changed and several candidates match it
	 *  (E-REFETCH-START). */
	CUA_E_REFETCH_START = 202,
	/** The element changed and several candidates match it, found late
	 *  in the search (E-REFETCH-FINISH). */
	CUA_E_REFETCH_FINISH = 203,
	/** The element takes no value (E-NOT-SETTABLE). */
	CUA_E_NOT_SETTABLE = 204,
	/** The value is not one the element takes (E-BAD-VALUE). */
	CUA_E_BAD_VALUE = 205,
	/** The element has no such secondary action (E-BAD-SECONDARY). */
	CUA_E_BAD_SECONDARY = 206,
	/** The element has no text to select (E-NOT-TEXT). */
	CUA_E_NOT_TEXT = 207,
	/** The text to select is not in the element (E-TEXT-NOT-FOUND). */
	CUA_E_TEXT_NOT_FOUND = 208,
	/** The text to select occurs more than once (E-TEXT-AMBIGUOUS). */
	CUA_E_TEXT_AMBIGUOUS = 209,
	/** The element offers no way to do the action, or the app did not
	 *  take it (E-ACTION-FAILED). */
	CUA_E_ACTION_FAILED = 210,

	/** The point is outside the observation's screenshot
	 *  (E-OUT-OF-BOUNDS). */
	CUA_E_OUT_OF_BOUNDS = 300,
	/** The observation has no screenshot to take coordinates from
	 *  (E-NO-SCREENSHOT). */
	CUA_E_NO_SCREENSHOT = 301,
	/** The window changed size or closed since the screenshot
	 *  (E-WINDOW-CHANGED). */
	CUA_E_WINDOW_CHANGED = 302,
	/** Pointer input cannot reach the window: it is minimised, hidden or
	 *  off-screen, or the desktop has no pointer input
	 *  (E-WINDOW-UNAVAILABLE). */
	CUA_E_WINDOW_UNAVAILABLE = 303,
	/** Another window covers the point (E-POINT-COVERED). */
	CUA_E_POINT_COVERED = 304,
	/** The app did not take keyboard focus, or the desktop has no
	 *  keyboard input (E-INPUT-NOT-ACCEPTED). */
	CUA_E_INPUT_NOT_ACCEPTED = 305,
	/** A key name is not known (E-UNKNOWN-KEY). */
	CUA_E_UNKNOWN_KEY = 306,
	/** The key combination is a refused system shortcut
	 *  (E-KEY-NOT-ALLOWED). */
	CUA_E_KEY_NOT_ALLOWED = 307,
	/** Input would reach a system security process (E-SECURITY-PROCESS). */
	CUA_E_SECURITY_PROCESS = 308,
} cua_errcode;

#endif
