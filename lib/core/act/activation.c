/*
 * When an activation is done (docs/actions.md §3.4). Action.DoAction answers
 * when the toolkit accepted the request, which is not always when the
 * element's effect happened:
 *
 * - GTK 4 buttons: the `click` action runs gtk_widget_activate(), which
 *   arms the button and emits "clicked" 250 ms later; activations inside
 *   that window are dropped, and nothing on the button shows it.
 * - Qt buttons: `Press` animates a click, the button shows PRESSED until
 *   it emits "clicked" 100 ms later; a press meanwhile restarts the
 *   animation and one click is lost.
 * - Apps that release a toggle themselves (a calculator's keys): the
 *   toggle shows CHECKED until the app releases it, and a press before
 *   that releases it instead of pressing it.
 *
 * So an activation ends only once its effect can have happened, and a
 * repeated activation of the same element waits until the element is
 * back in the state it was in before the previous one.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common.h"
#include "core/roles.h"
#include "core/walk.h"

/* GTK 4's ACTIVATE_TIMEOUT, and the margin for the timer to run */
#define GTK4_ACTIVATE_MS 250
#define GTK4_ACTIVATE_MARGIN_MS 15
/* how long a pressed look may last (Qt animates 100 ms) */
#define PRESS_ANIMATION_MAX_US (1000 * 1000)
/* how long after an activation its element may still be held by the
 * app (a calculator's key comes up about 100 ms after it went down): the
 * next activation of the element waits for the release until then, and
 * one still held after that stays so */
#define REARM_HOLD_MAX_US (500 * 1000)
#define POLL_STEP_US (10 * 1000)

#define TRANSIENT_STATES                                                       \
	((1ull << CUA_STATE_PRESSED) | (1ull << CUA_STATE_ARMED))
#define HELD_STATES (TRANSIENT_STATES | (1ull << CUA_STATE_CHECKED))

/* Elements whose CHECKED is their value (a check box, a radio button, a
 * switch, their menu items): the activation set it, and no app takes it
 * back on its own; only a button's CHECKED can be a key held down. */
static uint64_t
held_states(const struct cua_raw_node *n)
{
	switch (n->role) {
	case CUA_ROLE_CHECK_BOX:
	case CUA_ROLE_CHECK_MENU_ITEM:
	case CUA_ROLE_RADIO_BUTTON:
	case CUA_ROLE_RADIO_MENU_ITEM:
	case CUA_ROLE_SWITCH:
		return TRANSIENT_STATES;
	default:
		return HELD_STATES;
	}
}

/* GTK 4 gives `click` to GtkButton and GtkModelButton; model buttons are
 * the items of its menus and fire at once, buttons of every role (push,
 * toggle, link, menu button) arm for 250 ms. */
static int
is_gtk4_button(const struct cua_raw_node *n)
{
	return !(cua_role_info(n->role)->flags & CUA_RF_MENU_ITEM);
}

static int
is_gtk4(const struct cua_app_info *app)
{
	return app->toolkit && strcasecmp(app->toolkit, "GTK") == 0 &&
	       app->toolkit_version && app->toolkit_version[0] == '4';
}

/* The element's states now; 0 and *gone when it is gone. */
static cua_result
live_states(struct cua_act *a, struct cua_located *loc,
	    const struct cua_raw_node *n, uint64_t *states)
{
	struct cua_raw_node *m = cua_raw_node_new(loc->snap);
	cua_result r;

	*states = 0;
	if (!m)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	m->ident = n->ident;
	r = act_reread(a, loc, m, 0);
	if (r == CUA_OK && (m->have & CUA_HAVE_BASIC))
		*states = m->states;
	return r;
}

static int
applies(const struct cua_act *a, const struct cua_raw_node *n)
{
	return n->ident && a->as && a->as->proc &&
	       !act_is_async_toolkit(a->app);
}

/* The latest activation of the element `ident`, or NULL. */
static struct cua_activation *
find_activation(struct cua_proc_session *p, const char *ident)
{
	for (int i = 0; i < CUA_ACTIVATION_MEMORY; i++)
		if (p->acts[i].ident && strcmp(p->acts[i].ident, ident) == 0)
			return &p->acts[i];
	return NULL;
}

cua_result
act_activation_begin(struct cua_act *a, struct cua_located *loc,
		     const struct cua_raw_node *n, uint64_t *states)
{
	struct cua_activation *last;
	int64_t t0 = cua_now_us();
	uint64_t held, cur;
	cua_result r;

	*states = n->states;
	if (!applies(a, n))
		return CUA_OK;
	/* the element's own previous activation, even with others since
	 * (3, 8, +, 3 on a calculator's keys that come up by themselves) */
	last = find_activation(a->as->proc, n->ident);
	if (!last || t0 - last->us >= REARM_HOLD_MAX_US)
		return CUA_OK;
	held = (last->before ^ last->after) & held_states(n);
	if (!held)
		return CUA_OK;
	/* still showing what the previous activation did: wait for the
	 * release, or go on (a toggle that stays is clicked again) */
	for (;;) {
		r = live_states(a, loc, n, &cur);
		if (r != CUA_OK)
			return r;
		*states = cur;
		if ((cur & held) == (last->before & held))
			break;
		if (cua_now_us() - last->us >= REARM_HOLD_MAX_US) {
			cua_debug(&a->s->ctx,
				  "%s: element %u stayed held; "
				  "activating it again",
				  a->tool, a->element);
			break;
		}
		usleep(POLL_STEP_US);
	}
	cua_debug(&a->s->ctx, "%s: element %u waited %lld ms for its release",
		  a->tool, a->element, (long long)(cua_now_us() - t0) / 1000);
	return CUA_OK;
}

cua_result
act_activation_end(struct cua_act *a, struct cua_located *loc,
		   const struct cua_raw_node *n, const char *raw,
		   uint64_t before)
{
	struct cua_proc_session *p;
	struct cua_activation *slot;
	int64_t t_reply = cua_now_us(), t;
	uint64_t after;
	char norm[64];
	cua_result r;

	if (!applies(a, n))
		return CUA_OK;
	cua_action_normalise(norm, sizeof(norm), raw);
	if (is_gtk4(a->app) && strcmp(norm, "click") == 0 &&
	    is_gtk4_button(n)) {
		/* the button fires when its activation window ends; nothing
		 * shows it, so the window is waited out */
		int64_t until =
			t_reply +
			(GTK4_ACTIVATE_MS + GTK4_ACTIVATE_MARGIN_MS) * 1000;

		while ((t = cua_now_us()) < until)
			usleep((useconds_t)MIN(until - t, 50000));
	}
	/* one round trip after the wait: the app's main loop ran past it */
	r = live_states(a, loc, n, &after);
	if (r != CUA_OK)
		return r;
	if ((after & ~before) & TRANSIENT_STATES) {
		/* a pressed look: the toolkit is still animating the press */
		int64_t t0 = cua_now_us();

		while ((after & TRANSIENT_STATES & ~before) &&
		       cua_now_us() - t0 < PRESS_ANIMATION_MAX_US) {
			usleep(POLL_STEP_US);
			r = live_states(a, loc, n, &after);
			if (r != CUA_OK)
				return r;
		}
		cua_debug(&a->s->ctx,
			  "%s: element %u: the press ended after "
			  "%lld ms",
			  a->tool, a->element,
			  (long long)(cua_now_us() - t0) / 1000);
	}
	p = a->as->proc;
	slot = find_activation(p, n->ident);
	for (int i = 0; !slot && i < CUA_ACTIVATION_MEMORY; i++)
		if (!p->acts[i].ident)
			slot = &p->acts[i];
	if (!slot) {
		/* all taken: the oldest goes */
		slot = &p->acts[0];
		for (int i = 1; i < CUA_ACTIVATION_MEMORY; i++)
			if (p->acts[i].us < slot->us)
				slot = &p->acts[i];
	}
	if (!slot->ident || strcmp(slot->ident, n->ident) != 0) {
		char *ident = strdup(n->ident);

		if (!ident)
			return CUA_OK; /* only a later wait is lost */
		free(slot->ident);
		slot->ident = ident;
	}
	slot->us = cua_now_us();
	slot->before = before;
	slot->after = after;
	return CUA_OK;
}
