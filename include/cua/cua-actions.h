/*
 * libcua — actions on an observed app
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CUA_ACTIONS_H
#define CUA_CUA_ACTIONS_H

/**
 * @file cua-actions.h
 * @brief Actions on an observed app: clicks, typing, keys, scrolling,
 * dragging, values, secondary actions and text selection.
 *
 * Included by <cua/cua.h>, which declares the handles, ::cua_result and
 * #CUA_EXPORT that it uses; include <cua/cua.h>, not this file.
 */

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
cua_session_click_at(cua_session *session, const char *app, double x, double y,
		     uint32_t button, uint32_t click_count, char **outcome);

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
cua_session_type_text(cua_session *session, const char *app, const char *text,
		      char **outcome);

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
cua_session_press_key(cua_session *session, const char *app, const char *key,
		      char **outcome);

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
cua_session_scroll(cua_session *session, const char *app, uint32_t element_id,
		   const char *direction, double pages, char **outcome);

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
cua_session_scroll_at(cua_session *session, const char *app, double x, double y,
		      const char *direction, double pages, char **outcome);

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

#endif /* CUA_CUA_ACTIONS_H */
