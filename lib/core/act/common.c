/*
 * What every action shares: the live calls and their failures, the
 * primary action, the window checks and input acceptance (docs/actions.md
 * §1.3, §1.4, §2.2, §2.3), the keyboard target, and the end of a call.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common.h"
#include "core/caps.h"
#include "core/roles.h"
#include "core/sanitize.h"
#include "core/strbuf.h"
#include "core/walk.h"

/* ------------------------------------------------------------------ */
/* Live calls                                                          */

cua_result
act_unsupported(const struct cua_act *a)
{
	return cua_error(CUA_ERROR_UNSUPPORTED,
			 "the %s backend cannot act on apps", a->b->ops->name);
}

cua_result
act_live(struct cua_act *a, struct cua_live_call *c)
{
	if (!a->b->ops->call)
		return act_unsupported(a);
	return a->b->ops->call(a->b, c);
}

void
act_call_clear(struct cua_live_call *c)
{
	free(c->ret_text);
	free(c->ret_ident);
	free(c->ret_ints);
	c->ret_text = c->ret_ident = NULL;
	c->ret_ints = NULL;
	c->n_ret_ints = 0;
}

static cua_result
timeout(const struct cua_act *a)
{
	return cua_err(
		CUA_MSG_TIMEOUT_ACTION, { "name", cua_act_app_name(a) },
		{ "s", CUA_NUM("%g", a->s->ctx.opt.call_timeout_ms / 1000.0) });
}

/* The app quit or crashed during the action (E-RUNNING-APP-NOT-FOUND,
 * with the cause): no other route is tried, the point it was at may now
 * belong to another window. */
static cua_result
app_gone(const struct cua_act *a)
{
	return cua_err(CUA_MSG_QUIT_WHILE_ACTING,
		       { "name", cua_act_app_name(a) });
}

/*
 * A press action not answered while the app answered a call sent after it
 * (c->running): its handler runs, in a loop (Qt answers an action once
 * the handler returned, and a modal dialog's loop runs inside it). Done
 * when the app shows it within the call's timeout: any event of the app
 * since the action (the dialog's window, the focus moving into it). An
 * app that holds the action and shows nothing is not taken at its word:
 * the result is unknown, as for an action that timed out.
 */
static cua_result
action_running(struct cua_act *a, struct cua_live_call *c, int watched,
	       uint64_t gen0, int64_t t0)
{
	int64_t limit = t0 + (int64_t)a->s->ctx.opt.call_timeout_ms * 1000;
	uint64_t gen;

	while (watched &&
	       cua_settle_generation(a->s, a->app->bus_name, &gen) == 0) {
		if (gen != gen0) {
			cua_debug(&a->s->ctx,
				  "%s: the action's handler runs a loop "
				  "(%s answered a later call, and changed "
				  "after %.0f ms): done",
				  a->tool, cua_act_app_name(a),
				  (cua_now_us() - t0) / 1000.0);
			c->ok = 1;
			return CUA_OK;
		}
		if (cua_now_us() >= limit)
			break;
		usleep(10 * 1000);
	}
	return CUA_ERROR_TIMEOUT;
}

/* A request whose answer is c->ok (0 on an error reply). Returns only
 * errors that must end the action (timeouts and an app that left: the
 * result is unknown, and nothing is ever replayed). */
cua_result
act_ask_call(struct cua_act *a, struct cua_live_call *c, int *ok)
{
	uint64_t gen0 = 0;
	int watched = c->op == CUA_LIVE_DO_ACTION && a->app &&
		      a->app->bus_name &&
		      cua_settle_generation(a->s, a->app->bus_name, &gen0) == 0;
	int64_t t0 = cua_now_us();
	cua_result r = act_live(a, c);

	if (r == CUA_OK && c->running)
		r = action_running(a, c, watched, gen0, t0);

	*ok = r == CUA_OK && c->ok;
	if (r == CUA_ERROR_TIMEOUT)
		return timeout(a);
	if (r == CUA_ERROR_PROCESS_GONE)
		return app_gone(a);
	if (r == CUA_ERROR_UNSUPPORTED && !a->b->ops->call)
		return r;
	return CUA_OK;
}

cua_result
act_ask(struct cua_act *a, enum cua_live_op op, const char *ident, int32_t x,
	int32_t y, int32_t z, int *ok)
{
	struct cua_live_call c = {
		.op = op, .ident = ident, .a = x, .b = y, .c = z
	};
	cua_result r = act_ask_call(a, &c, ok);

	act_call_clear(&c);
	return r;
}

char *
act_ask_ident(struct cua_act *a, enum cua_live_op op, const char *ident,
	      int32_t x, int32_t y)
{
	struct cua_live_call c = { .op = op, .ident = ident, .a = x, .b = y };
	char *found = NULL;

	if (act_live(a, &c) == CUA_OK) {
		found = c.ret_ident;
		c.ret_ident = NULL;
	}
	act_call_clear(&c);
	return found;
}

cua_result
act_do_action(struct cua_act *a, const char *ident, int index, int *ok)
{
	return act_ask(a, CUA_LIVE_DO_ACTION, ident, index, 0, 0, ok);
}

cua_result
act_reread(struct cua_act *a, struct cua_located *loc, struct cua_raw_node *n,
	   uint32_t want)
{
	return a->b->ops->read_nodes(a->b, loc->snap, &n, 1, want);
}

/* GTK 3 can set FOCUSED about 100 ms after its GrabFocus answered true
 * (which also presents the window to the window manager) */
#define FOCUS_WAIT_US (POLL_MAX_US / 4)

cua_result
act_grab_focus(struct cua_act *a, struct cua_located *loc,
	       struct cua_raw_node *n, uint32_t want)
{
	int64_t t0;
	int ok;
	cua_result r = act_ask(a, CUA_LIVE_GRAB_FOCUS, n->ident, 0, 0, 0, &ok);

	if (r != CUA_OK)
		return r;
	for (t0 = cua_now_us();; usleep(10 * 1000)) {
		r = act_reread(a, loc, n, want);
		if (r != CUA_OK || CUA_HAS_STATE(n, CUA_STATE_FOCUSED) || !ok ||
		    act_is_async_toolkit(a->app) ||
		    cua_now_us() - t0 >= FOCUS_WAIT_US)
			return r;
	}
}

/* ------------------------------------------------------------------ */
/* Elements                                                            */

int
act_is_async_toolkit(const struct cua_app_info *app)
{
	const char *t = app->toolkit;

	return t && (strcasestr(t, "chrom") || strcasestr(t, "gecko") ||
		     strcasestr(t, "firefox") || strcasestr(t, "electron") ||
		     strcasestr(t, "mozilla"));
}

/* The primary action (docs/state-text.md §11.6 order), or -1. */
int
act_primary_action(const struct cua_raw_node *n, const char **raw)
{
	static const char *const order[] = {
		"click",  "press",         "activate",  "jump",
		"open",   "toggle",        "check",     "uncheck",
		"select", "clickancestor", "dodefault",
	};
	char norm[64];

	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
		for (size_t i = 0; i < n->n_actions; i++) {
			if (!n->actions[i].name || !*n->actions[i].name)
				continue;
			cua_action_normalise(norm, sizeof(norm),
					     n->actions[i].name);
			if (strcmp(norm, order[o]) != 0 ||
			    !cua_action_is_primary(norm, n->role))
				continue;
			if (raw)
				*raw = n->actions[i].name;
			return (int)i;
		}
	return -1;
}

int
act_is_row_role(uint32_t role)
{
	return role == CUA_ROLE_LIST_ITEM || role == CUA_ROLE_TABLE_ROW ||
	       role == CUA_ROLE_TREE_ITEM || role == CUA_ROLE_TABLE_CELL;
}

int
act_click_action(const struct cua_raw_node *n, const char **raw)
{
	const char *r = NULL;
	int i = act_primary_action(n, &r);
	char norm[64];

	if (i < 0 || !act_is_row_role(n->role))
		goto out;
	cua_action_normalise(norm, sizeof(norm), r);
	if (strcmp(norm, "activate") == 0) {
		/* the next primary verb after it, if any */
		static const char *const rest[] = {
			"jump",          "open",      "toggle",
			"check",         "uncheck",   "select",
			"clickancestor", "dodefault", NULL,
		};

		i = act_find_action(n, rest, &r);
	}
out:
	if (raw)
		*raw = i >= 0 ? r : NULL;
	return i;
}

int
act_find_action(const struct cua_raw_node *n, const char *const *norms,
		const char **raw)
{
	char norm[64];

	for (size_t i = 0; i < n->n_actions; i++) {
		if (!n->actions[i].name)
			continue;
		cua_action_normalise(norm, sizeof(norm), n->actions[i].name);
		for (size_t k = 0; norms[k]; k++)
			if (strcmp(norm, norms[k]) == 0) {
				if (raw)
					*raw = n->actions[i].name;
				return (int)i;
			}
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* Windows, points and input acceptance (docs/actions.md §1.4, §2.2, §2.3)    */

cua_result
act_window_unavailable(const struct cua_act *a, enum unavailable why)
{
	static const char *const what[] = { "minimized", "hidden",
					    "off-screen" };
	/* a desktop without window positions or pointer input says so */
	cua_result r = cua_caps_refuse_pointer(a->b, cua_act_app_name(a));

	if (r != CUA_OK)
		return r;
	return cua_err(CUA_MSG_WINDOW_UNAVAILABLE,
		       { "name", cua_act_app_name(a) }, { "how", what[why] });
}

static cua_result
security_process(const char *comm)
{
	return cua_err(CUA_MSG_SECURITY_PROCESS, { "process", comm });
}

static int
belongs(const struct cua_win *w, uint64_t target, int64_t pid)
{
	return w->window && (w->window == target || (pid > 0 && w->pid == pid));
}

/*
 * docs/actions.md §2.2 items 4–5 for root point (rx, ry) of `target`: mapped,
 * not iconified, on a screen, and the point belongs to the target (else one
 * recovery per session, then E-POINT-COVERED). (px, py) name the point in
 * the message.
 */
cua_result
act_point_ok(struct cua_act *a, uint64_t target, int32_t rx, int32_t ry,
	     double px, double py)
{
	struct cua_backend *b = a->b;
	struct cua_win tw, w;
	cua_result r;
	int confirmed;

	if (!b->ops->window_query || !b->ops->window_at)
		return act_unsupported(a);
	if (!target || b->ops->window_query(b, target, &tw) != CUA_OK)
		return act_window_unavailable(a, UNAV_HIDDEN);
	if (tw.iconified)
		return act_window_unavailable(a, UNAV_MINIMIZED);
	if (!tw.mapped)
		return act_window_unavailable(a, UNAV_HIDDEN);
	for (int attempt = 0;; attempt++) {
		r = b->ops->window_at(b, rx, ry, &w);
		if (r != CUA_OK)
			return r;
		/* a window wider than the screen: this part of it is on
		 * no screen */
		if (!w.window && tw.frame.w > 0 && rx >= tw.frame.x &&
		    ry >= tw.frame.y && rx - tw.frame.x < tw.frame.w &&
		    ry - tw.frame.y < tw.frame.h)
			return cua_err(CUA_MSG_POINT_OFF_SCREEN,
				       { "x", CUA_NUM("%g", px) },
				       { "y", CUA_NUM("%g", py) },
				       { "name", cua_act_app_name(a) });
		if (!w.window)
			return act_window_unavailable(a, UNAV_OFFSCREEN);
		if (belongs(&w, target, a->app->pid))
			return CUA_OK;
		if (cua_is_security_process(w.process))
			return security_process(w.process);
		if (attempt > 0 || !a->as->proc ||
		    a->as->proc->point_recovered || !b->ops->activate_window)
			break;
		/* covered: raise the target once per session
		 * (docs/actions.md §2.3) */
		a->as->proc->point_recovered = 1;
		r = b->ops->activate_window(
			b, target, a->s->ctx.opt.focus_timeout_ms, &confirmed);
		if (r != CUA_OK)
			break;
	}
	return cua_err(CUA_MSG_POINT_COVERED, { "x", CUA_NUM("%g", px) },
		       { "y", CUA_NUM("%g", py) },
		       { "name", cua_act_app_name(a) },
		       { "cover", *w.process ? w.process : "another window" });
}

static cua_result
input_not_accepted(const struct cua_act *a)
{
	/* a desktop without keyboard input says so */
	cua_result r = cua_caps_refuse_keys(a->b, cua_act_app_name(a));

	if (r != CUA_OK)
		return r;
	return cua_err(CUA_MSG_INPUT_NOT_ACCEPTED,
		       { "name", cua_act_app_name(a) });
}

/*
 * Keyboard input acceptance (docs/actions.md §1.4): the target window (or a
 * window of the same app) holds X input focus; otherwise activate it and wait
 * for the confirmation. `active` is the AT-SPI ACTIVE state of the target
 * window when known (-1 unknown).
 */
cua_result
act_keyboard_ready(struct cua_act *a, uint64_t target, int active)
{
	struct cua_backend *b = a->b;
	struct cua_win f, tw;
	int confirmed = 0;
	cua_result r;

	if (!b->ops->focus_window || !b->ops->activate_window ||
	    !b->ops->window_query)
		return act_unsupported(a);
	if (!target || b->ops->window_query(b, target, &tw) != CUA_OK ||
	    (tw.pid > 0 && tw.pid != a->app->pid))
		return input_not_accepted(a);
	if (tw.iconified)
		return act_window_unavailable(a, UNAV_MINIMIZED);
	r = b->ops->focus_window(b, &f);
	if (r != CUA_OK)
		return r;
	if (f.window && cua_is_security_process(f.process))
		return security_process(f.process);
	if (belongs(&f, target, a->app->pid) && active != 0)
		return CUA_OK; /* established focus is reused, no wait */
	r = b->ops->activate_window(b, target, a->s->ctx.opt.focus_timeout_ms,
				    &confirmed);
	if (r != CUA_OK || !confirmed)
		return input_not_accepted(a);
	return CUA_OK;
}

cua_result
act_find_target_window(struct cua_act *a, struct act_target_window *tw)
{
	const char *key = a->t->n_skel ? a->t->skel[0].ident : NULL;
	cua_result r;

	memset(tw, 0, sizeof(*tw));
	tw->x11_window = a->t->x11_window;
	r = a->b->ops->open_app(a->b, a->app, &tw->snap);
	if (r != CUA_OK)
		return r;
	for (size_t i = 0; key && i < tw->snap->app->n_children; i++) {
		struct cua_raw_node *w = tw->snap->app->children[i];

		if (w->ident && strcmp(w->ident, key) == 0) {
			tw->node = w;
			if (tw->snap->windows &&
			    tw->snap->windows[i].x11_window)
				tw->x11_window =
					tw->snap->windows[i].x11_window;
			break;
		}
	}
	return CUA_OK;
}

/* The target window's ACTIVE state: 1, 0, or -1 when unknown. An open
 * popup of the app (a menu or drop-down: on Wayland it takes the focus
 * and its window is no longer ACTIVE) that is ACTIVE counts as the
 * window's (docs/actions.md §1.4). */
static int
window_active(const struct act_target_window *tw)
{
	if (!tw->node || !(tw->node->have & CUA_HAVE_BASIC))
		return -1;
	if (CUA_HAS_STATE(tw->node, CUA_STATE_ACTIVE))
		return 1;
	for (size_t i = 0; i < tw->snap->app->n_children; i++) {
		const struct cua_raw_node *w = tw->snap->app->children[i];

		if (w && w != tw->node && (w->have & CUA_HAVE_BASIC) &&
		    cua_role_is_popup_toplevel(w->role) &&
		    CUA_HAS_STATE(w, CUA_STATE_SHOWING) &&
		    CUA_HAS_STATE(w, CUA_STATE_ACTIVE))
			return 1;
	}
	return 0;
}

cua_result
act_keyboard_ready_for(struct cua_act *a, const struct act_target_window *tw)
{
	return act_keyboard_ready(
		a, tw->x11_window ? tw->x11_window : a->t->x11_window,
		window_active(tw));
}

cua_result
act_send_keys(struct cua_act *a, const struct cua_key_chord *c, size_t n)
{
	if (!a->b->ops->keys)
		return act_unsupported(a);
	return a->b->ops->keys(a->b, c, n, a->s->ctx.opt.keymap_delay_ms,
			       a->app->bus_name, NULL);
}

cua_result
act_finish(struct cua_act *a, cua_result r, char **outcome)
{
	/* A read that timed out anywhere in an action (the re-read before
	 * it, a confirmation after it) leaves its result unknown, as a
	 * request that timed out does: the model gets that sentence, never
	 * a bare backend message. */
	if (r == CUA_ERROR_TIMEOUT)
		r = timeout(a);
	r = cua_act_after(a, r);
	if (r == CUA_OK && a->app && a->app->bus_name)
		cua_settle_note_action(a->s, a->app->bus_name);
	if (r == CUA_OK && outcome)
		r = cua_act_outcome(a, outcome);
	cua_act_end(a);
	return r;
}
