/*
 * libcua — sessions
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CUA_SESSION_H
#define CUA_CUA_SESSION_H

/**
 * @file cua-session.h
 * @brief Sessions: opening one, its options and logs, the apps it sees,
 * observing an app, recording it, and saving its state for another
 * process.
 *
 * Included by <cua/cua.h>, which declares the handles, ::cua_result and
 * #CUA_EXPORT that it uses; include <cua/cua.h>, not this file.
 */

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
cua_session_new_recorded(cua_session **out, const char *path, uint32_t flags);

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
 * `settle_probe_ms` (40), `settle_answered_ms` (30), `settle_drawn_ms`
 * (10; since 0.2), `warmup_cap_ms`
 * (1200), `capture_timeout_ms`
 * (2500), `capture_fallback_timeout_ms` (3000),
 * `screenshot_max_long_edge` (2048), `screenshot_max_short_edge` (768),
 * `jpeg_quality` (80), `screenshot_reuse` (1: the image of a window the
 * display driver proves unchanged since its last capture is reused; 0:
 * every observation captures; since 0.2).
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
 * Tree cache key (since 0.2): `tree_cache`, whether observations are
 * served from the session's tree cache (docs/concurrency.md §6): `auto`
 * (the default: as the `CUA_TREE_CACHE` environment variable says when
 * the session is created, on when it is unset, off for `0`), `on` (the
 * apps of toolkits known to announce their changes, and LibreOffice's,
 * Qt's, GTK 4's, Chromium's and Firefox's with every cached object
 * compared again),
 * `all` (every toolkit, on its
 * events; for measuring), `sweep` (every toolkit, every cached object
 * compared again; for measuring; since 0.2) or `off` (every observation
 * reads the app in full). A change drops what was cached. The text of an
 * observation is the same either way.
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
 * Observe flag: the screenshot's geometry without its pixels. The tree
 * knows where a screenshot of the window would lie and its size in pixels
 * (what coordinate actions and cua_tree_screenshot_to_screen() use, the
 * same as with a screenshot), but holds no image: cua_tree_get_screenshot()
 * fails. Cheaper where the display driver can tell the window's frame
 * without capturing it (X11): no capture, no encoding. For a caller that
 * needs only the text now and may act at pixel coordinates later (a
 * one-shot command line). Ignored with ::CUA_OBSERVE_NO_SCREENSHOT.
 * @since 0.2
 */
#define CUA_OBSERVE_SCREENSHOT_GEOMETRY (1u << 10)

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
 * read at once. After an action the app reacted to (a signal, and a frame
 * of its window drawn after its last event, where the display driver
 * reports damage) and answered for (a round trip confirms it handled the
 * input), `settle_answered_ms`
 * (30) of quiet suffices, `settle_drawn_ms` (10) once the window drew
 * again where each changed object lies (docs/screenshots.md §6.2).
 * Right after the tree,
 * the same window is captured (see
 * cua_tree_get_screenshot()); a failed capture never fails the
 * observation.
 *
 * @param app an app name, app id, desktop-file id, executable or `pid:N`.
 * @param flags 0, ::CUA_OBSERVE_NO_LAUNCH, ::CUA_OBSERVE_DISABLE_DIFF,
 *        ::CUA_OBSERVE_NO_SCREENSHOT, ::CUA_OBSERVE_AFTER_ACTION,
 *        ::CUA_OBSERVE_SCREENSHOT_GEOMETRY.
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
cua_session_resolve_app(cua_session *session, const char *app, uint32_t flags,
			char **out);

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

#endif /* CUA_CUA_SESSION_H */
