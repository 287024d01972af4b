/*
 * libcua — observations
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CUA_TREE_H
#define CUA_CUA_TREE_H

/**
 * @file cua-tree.h
 * @brief Observations: trees, their diffs and screenshots, and their
 * elements.
 *
 * Included by <cua/cua.h>, which declares the handles, ::cua_result and
 * #CUA_EXPORT that it uses; include <cua/cua.h>, not this file.
 */

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
 * The content revision of this observation: the revision number of the
 * observation that first showed what this one shows. An app whose tree
 * did not change since the previous observation of the same window (the
 * no-change case of a diff: the same ids, lines, focus and selected text)
 * keeps the previous observation's content revision; any change, another
 * root window or a truncated tree gives this observation's own revision
 * number. A caller holding an earlier tree compares the two numbers to
 * know whether it is still current.
 * @since 0.2
 */
CUA_EXPORT uint32_t
cua_tree_get_content_revision(cua_tree *tree);

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
	/** 1 when the screenshot is the image kept from an earlier capture
	 *  of the window, which the display driver proved unchanged since
	 *  (docs/screenshots.md §2.1), else 0. @since 0.2 */
	CUA_STAT_SCREENSHOT_REUSED = 25,
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
cua_tree_render_marks(cua_tree *tree, uint32_t flags, void **out, size_t *size);

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

#endif /* CUA_CUA_TREE_H */
