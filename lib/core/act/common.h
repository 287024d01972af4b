/*
 * The action ladders (docs/actions.md §2–§10), written against backend
 * primitives only, one file per action family. Each action: validate its
 * arguments, run the guards (guards.c), resolve its element in the live
 * tree (locate.c), then try the routes of its ladder in order; the first
 * that applies and succeeds ends the call. Synthetic input is sent only
 * after input acceptance proved it reaches the target (§1.3, §1.4,
 * §2.3); nothing ever falls back to another element, window or app.
 *
 * This header is shared by the files of lib/core/act/ only.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_ACT_COMMON_H
#define CUA_CORE_ACT_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/param.h>

#include "core/act.h"
#include "core/keys.h"

#define POLL_MAX_US (2000 * 1000) /* docs/actions.md §1.6 */

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

/* ------------------------------------------------------------------ */
/* Live calls (common.c)                                               */

/* CUA_ERROR_UNSUPPORTED: the backend cannot act. */
cua_result
act_unsupported(const struct cua_act *a);

/* One live call on the backend. */
cua_result
act_live(struct cua_act *a, struct cua_live_call *c);

/* Frees the strings a live call returned. */
void
act_call_clear(struct cua_live_call *c);

/* A request whose answer is c->ok (0 on an error reply). Returns only
 * errors that must end the action (timeouts and an app that left: the
 * result is unknown, and nothing is ever replayed). */
cua_result
act_ask_call(struct cua_act *a, struct cua_live_call *c, int *ok);

/* act_ask_call() on a call built from `op`, `ident` and three numbers. */
cua_result
act_ask(struct cua_act *a, enum cua_live_op op, const char *ident, int32_t x,
	int32_t y, int32_t z, int *ok);

/* The node a live call answers about `ident` (the one at (x, y), the
 * parent, the focused one), malloc'd; NULL when there is none. */
char *
act_ask_ident(struct cua_act *a, enum cua_live_op op, const char *ident,
	      int32_t x, int32_t y);

/* Runs action `index` of the node `ident`. */
cua_result
act_do_action(struct cua_act *a, const char *ident, int index, int *ok);

/* Reads `n` again (in the located snapshot) with `want`. */
cua_result
act_reread(struct cua_act *a, struct cua_located *loc, struct cua_raw_node *n,
	   uint32_t want);

/* Component.GrabFocus on `n`, then reads it again with `want` until it
 * is FOCUSED (bounded; not when GrabFocus answered false, nor for the
 * toolkits that only dispatch requests): the caller checks FOCUSED. */
cua_result
act_grab_focus(struct cua_act *a, struct cua_located *loc,
	       struct cua_raw_node *n, uint32_t want);

/* ------------------------------------------------------------------ */
/* Elements (common.c)                                                 */

/* Chromium, Firefox, Electron: requests are dispatched, not done. */
int
act_is_async_toolkit(const struct cua_app_info *app);

/* The primary action (docs/state-text.md §11.6 order), or -1; its raw name in
 * *raw when not NULL. */
int
act_primary_action(const struct cua_raw_node *n, const char **raw);

/* The first action whose normalised name is one of `norms` (NULL
 * terminated), or -1. */
int
act_find_action(const struct cua_raw_node *n, const char *const *norms,
		const char **raw);

/* 1 for the roles of rows and what is in them: list and tree items, table
 * rows and cells. */
int
act_is_row_role(uint32_t role);

/* The action a single click may run: the primary action, except
 * `activate` on rows and cells (that is a double click, docs/actions.md
 * §3.3); -1 when
 * there is none. */
int
act_click_action(const struct cua_raw_node *n, const char **raw);

/* ------------------------------------------------------------------ */
/* Windows, points and input acceptance (common.c)                     */

enum unavailable { UNAV_MINIMIZED, UNAV_HIDDEN, UNAV_OFFSCREEN };

/* E-INPUT-BLOCKED: the window is minimised, hidden or off-screen. */
cua_result
act_window_unavailable(const struct cua_act *a, enum unavailable why);

/*
 * docs/actions.md §2.2 items 4–5 for root point (rx, ry) of `target`: mapped,
 * not iconified, on a screen, and the point belongs to the target (else one
 * recovery per session, then E-POINT-COVERED). (px, py) name the point in
 * the message.
 */
cua_result
act_point_ok(struct cua_act *a, uint64_t target, int32_t rx, int32_t ry,
	     double px, double py);

/*
 * Keyboard input acceptance (docs/actions.md §1.4): the target window (or a
 * window of the same app) holds X input focus; otherwise activate it and wait
 * for the confirmation. `active` is the AT-SPI ACTIVE state of the target
 * window when known (-1 unknown).
 */
cua_result
act_keyboard_ready(struct cua_act *a, uint64_t target, int active);

/* The live toplevel the observation showed, and its X window. */
struct act_target_window {
	struct cua_raw_snapshot *snap;
	struct cua_raw_node *node; /* NULL when it is gone */
	uint64_t x11_window;
};

cua_result
act_find_target_window(struct cua_act *a, struct act_target_window *tw);

/* act_keyboard_ready() for the target window (the observed one when
 * the live one was not found), with its ACTIVE state when known. */
cua_result
act_keyboard_ready_for(struct cua_act *a, const struct act_target_window *tw);

/* Sends key chords to the app. */
cua_result
act_send_keys(struct cua_act *a, const struct cua_key_chord *c, size_t n);

/* Ends the call: notes the action for the settle, fills `outcome`, and
 * releases `a`. */
cua_result
act_finish(struct cua_act *a, cua_result r, char **outcome);

/* ------------------------------------------------------------------ */
/* Pointer (pointer.c)                                                 */

/* The live root pixel of a node's centre, and the checks of any point
 * of the target (docs/actions.md §2.2 items 4–5; the window hidden when it has
 * none). */
cua_result
act_reach_center(struct cua_act *a, const struct cua_located *loc,
		 const struct cua_raw_node *n, int32_t *rx, int32_t *ry);

cua_result
act_send_pointer(struct cua_act *a, const struct cua_pointer_event *ev,
		 size_t n);

/* Moves the pointer to root point (rx, ry), then presses and releases
 * `button` `count` times (at most 500; wheel clicks are buttons 4–7). */
cua_result
act_click_at_root(struct cua_act *a, int32_t rx, int32_t ry, uint32_t button,
		  uint32_t count);

/* Route 7: a synthetic click at the element's centre (docs/actions.md §3
 * route 7). */
cua_result
act_synthetic_click(struct cua_act *a, struct cua_located *loc,
		    struct cua_raw_node *n, uint32_t button, uint32_t count);

/* The geometry of the last observation's screenshot; without one, the
 * window's frame at 1 pixel per point. */
cua_result
act_shot_geometry(struct cua_act *a, struct cua_shot_geom *g);

/* docs/actions.md §2.2 items 1–4 for pixel (px, py); fills the root pixel. */
cua_result
act_map_pixel(struct cua_act *a, const struct cua_shot_geom *g, double px,
	      double py, int32_t *rx, int32_t *ry);

/*
 * Begins an action of `tool` at screenshot pixel (px, py) with all of
 * docs/actions.md §2.2: numbers, the guards, the screenshot's geometry, the
 * root pixel, and the point belongs to the target. End `a` with act_finish()
 * either way.
 */
cua_result
act_begin_at(struct cua_act *a, struct cua_session *s, const char *tool,
	     const char *app, double px, double py, struct cua_shot_geom *g,
	     int32_t *rx, int32_t *ry);

/* The outcome's `point`: the pixel asked for and the root pixel. */
void
act_note_point(struct cua_act *a, double px, double py, int32_t rx, int32_t ry);

/* ------------------------------------------------------------------ */
/* Activations (activation.c, docs/actions.md §3.4)                    */

/* Before activating `n`: when the previous activation of the same
 * element still holds it (pressed, armed or checked by it), waits for
 * the release (bounded). *states = its states now. */
cua_result
act_activation_begin(struct cua_act *a, struct cua_located *loc,
		     const struct cua_raw_node *n, uint64_t *states);

/* After action `raw` of `n` answered true: returns once its effect can
 * have happened (GTK 4's activation window, a pressed look that has to
 * end), and remembers the activation. `before` = act_activation_begin's
 * states. */
cua_result
act_activation_end(struct cua_act *a, struct cua_located *loc,
		   const struct cua_raw_node *n, const char *raw,
		   uint64_t before);

/* ------------------------------------------------------------------ */
/* Rows (rows.c)                                                       */

/* Route 1 of docs/actions.md §3: exactly this row selected, as a person's click leaves
 * it. *done = 1 when the element was a row of a selectable container and
 * the click is done (by the route `selection`, or a synthetic click when
 * the container kept other rows selected). */
cua_result
act_select_row(struct cua_act *a, struct cua_located *loc, int *done);

/* ------------------------------------------------------------------ */
/* click (click.c)                                                     */

/* The mouse button (1–3) and click count (1–100) of `tool`. */
cua_result
act_check_button(uint32_t button, uint32_t count, const char *tool);

/* ------------------------------------------------------------------ */
/* scroll (scroll.c)                                                   */

enum dir { DIR_UP, DIR_DOWN, DIR_LEFT, DIR_RIGHT };

/* `up`, `down`, `left`, `right` or their first letter, any case. */
int
act_parse_direction(const char *d, enum dir *out);

int
act_vertical(enum dir d);

/*
 * Scrolls `distance` points in direction `d`: the Value route on the
 * axis' scroll bar, else the wheel at the node's centre (docs/actions.md §5.2).
 * Reports pages applied relative to `page`.
 */
cua_result
act_scroll_by(struct cua_act *a, struct cua_located *loc, enum dir d,
	      double distance, double page);

#endif
