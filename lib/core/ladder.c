/*
 * The action ladders (actions.md §2–§10), written against backend
 * primitives only. Each action: validate its arguments, run the guards
 * (guards.c), resolve its element in the live tree (locate.c), then try
 * the routes of its ladder in order; the first that applies and succeeds
 * ends the call. Synthetic input is sent only after input acceptance
 * proved it reaches the target (§1.3, §1.4, §2.3); nothing ever falls
 * back to another element, window or app.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <strings.h>
#include <unistd.h>

#include "act.h"
#include "caps.h"
#include "geometry.h"
#include "keys.h"
#include "render.h"
#include "roles.h"
#include "sanitize.h"
#include "strbuf.h"
#include "walk.h"

#define XK_MENU 0xff67u

#define POLL_MAX_US (2000 * 1000) /* decisions.md §5 */

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static cua_result
unsupported(const struct cua_act *a)
{
	return cua_error(CUA_ERROR_UNSUPPORTED,
			 "the %s backend cannot act on apps", a->b->ops->name);
}

static cua_result
live(struct cua_act *a, struct cua_live_call *c)
{
	if (!a->b->ops->call)
		return unsupported(a);
	return a->b->ops->call(a->b, c);
}

static void
call_clear(struct cua_live_call *c)
{
	free(c->ret_text);
	free(c->ret_ident);
	c->ret_text = c->ret_ident = NULL;
}

static cua_result
timeout(const struct cua_act *a)
{
	return cua_error_quoting(CUA_ERROR_TIMEOUT, "timeoutReached ('",
				 cua_act_app_name(a),
				 "' did not respond within %g seconds; the "
				 "result of the action is unknown. Call "
				 "get_app_state to check before retrying.)",
				 a->s->ctx.opt.call_timeout_ms / 1000.0);
}

/* The app quit or crashed during the action (E-RUNNING-APP-NOT-FOUND,
 * with the cause): no other route is tried, the point it was at may now
 * belong to another window. */
static cua_result
app_gone(const struct cua_act *a)
{
	return cua_error_quoting(CUA_ERROR_PROCESS_GONE,
				 "Running application not found: ",
				 cua_act_app_name(a),
				 ". It quit while the action ran; the result of "
				 "the action is unknown. Call `get_app_state` to "
				 "start it again, or choose another app from "
				 "`list_apps`.");
}

/* A request whose answer is c->ok (0 on an error reply). Returns only
 * errors that must end the action (timeouts and an app that left: the
 * result is unknown, and nothing is ever replayed). */
static cua_result
ask_call(struct cua_act *a, struct cua_live_call *c, int *ok)
{
	cua_result r = live(a, c);

	*ok = r == CUA_OK && c->ok;
	if (r == CUA_ERROR_TIMEOUT)
		return timeout(a);
	if (r == CUA_ERROR_PROCESS_GONE)
		return app_gone(a);
	if (r == CUA_ERROR_UNSUPPORTED && !a->b->ops->call)
		return r;
	return CUA_OK;
}

static cua_result
ask(struct cua_act *a, enum cua_live_op op, const char *ident, int32_t x,
    int32_t y, int32_t z, int *ok)
{
	struct cua_live_call c = { .op = op, .ident = ident, .a = x, .b = y,
				   .c = z };
	cua_result r = ask_call(a, &c, ok);

	call_clear(&c);
	return r;
}

static int
is_async_toolkit(const struct cua_app_info *app)
{
	const char *t = app->toolkit;

	return t && (strcasestr(t, "chrom") || strcasestr(t, "gecko") ||
		     strcasestr(t, "firefox") || strcasestr(t, "electron") ||
		     strcasestr(t, "mozilla"));
}

static int
is_gtk(const struct cua_app_info *app)
{
	return app->toolkit && strcasecmp(app->toolkit, "GTK") == 0;
}

static int
is_qt(const struct cua_app_info *app)
{
	return app->toolkit && strncasecmp(app->toolkit, "Qt", 2) == 0;
}

static int
is_text_entry(const struct cua_raw_node *n)
{
	if (cua_role_info(n->role)->flags & CUA_RF_TEXT_ENTRY)
		return 1;
	if (n->role == CUA_ROLE_COMBO_BOX && CUA_HAS_STATE(n, CUA_STATE_EDITABLE))
		return 1;
	if (n->role == CUA_ROLE_ENTRY || n->role == CUA_ROLE_PASSWORD_TEXT)
		return 1;
	return (n->ifaces & CUA_IFACE_EDITABLE_TEXT) &&
	       CUA_HAS_STATE(n, CUA_STATE_EDITABLE) &&
	       (n->role == CUA_ROLE_TEXT || n->role == CUA_ROLE_PARAGRAPH);
}

static int
is_menu_item(const struct cua_located *loc)
{
	const struct cua_raw_node *n = loc->node;

	return (cua_role_info(n->role)->flags & CUA_RF_MENU_ITEM) ||
	       (loc->element && (loc->element->flags & (CUA_ELEM_MENU_BAR_ITEM |
							CUA_ELEM_POPUP)) &&
		(n->role == CUA_ROLE_MENU_ITEM ||
		 n->role == CUA_ROLE_CHECK_MENU_ITEM ||
		 n->role == CUA_ROLE_RADIO_MENU_ITEM || n->role == CUA_ROLE_MENU));
}

static int
is_row_like(const struct cua_located *loc)
{
	const struct cua_raw_node *n = loc->node;

	if (loc->element && (loc->element->flags & CUA_ELEM_SYNTHETIC_ROW))
		return 1;
	switch (n->role) {
	case CUA_ROLE_LIST_ITEM:
	case CUA_ROLE_TABLE_ROW:
	case CUA_ROLE_TREE_ITEM:
	case CUA_ROLE_TABLE_CELL:
	case CUA_ROLE_PAGE_TAB:
		return 1;
	default:
		return 0;
	}
}

static int
is_window_role(uint32_t role)
{
	return role == CUA_ROLE_FRAME || role == CUA_ROLE_WINDOW ||
	       role == CUA_ROLE_DIALOG || role == CUA_ROLE_ALERT;
}

/* The primary action (state-text.md §11.6 order), or -1. */
static int
primary_action(const struct cua_raw_node *n, const char **raw)
{
	static const char *const order[] = {
		"click", "press", "activate", "jump", "open", "toggle",
		"check", "uncheck", "select", "clickancestor", "dodefault",
	};
	char norm[64];

	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
		for (size_t i = 0; i < n->n_actions; i++) {
			if (!n->actions[i].name || !*n->actions[i].name)
				continue;
			cua_action_normalise(norm, sizeof(norm), n->actions[i].name);
			if (strcmp(norm, order[o]) != 0 ||
			    !cua_action_is_primary(norm, n->role))
				continue;
			if (raw)
				*raw = n->actions[i].name;
			return (int)i;
		}
	return -1;
}

static int
find_action(const struct cua_raw_node *n, const char *const *norms,
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

static cua_result
reread(struct cua_act *a, struct cua_located *loc, struct cua_raw_node *n,
       uint32_t want)
{
	return a->b->ops->read_nodes(a->b, loc->snap, &n, 1, want);
}

static int
has_extent(const struct cua_raw_node *n)
{
	return (n->have & CUA_HAVE_EXTENTS) && n->extents.w > 0 &&
	       n->extents.h > 0 && n->extents.x > -1000000 &&
	       n->extents.y > -1000000;
}

static size_t
utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Byte offset of character `ci` (clamped to the end). */
static size_t
utf8_byte_of(const char *s, size_t ci)
{
	size_t i = 0, c = 0;

	while (s[i]) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (c == ci)
				return i;
			c++;
		}
		i++;
	}
	return i;
}

static uint32_t
utf8_next(const char **p)
{
	const unsigned char *s = (const unsigned char *)*p;
	uint32_t cp;
	int n;

	if (s[0] < 0x80) {
		cp = s[0];
		n = 1;
	} else if ((s[0] & 0xe0) == 0xc0 && s[1]) {
		cp = ((uint32_t)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
		n = 2;
	} else if ((s[0] & 0xf0) == 0xe0 && s[1] && s[2]) {
		cp = ((uint32_t)(s[0] & 0x0f) << 12) |
		     ((uint32_t)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
		n = 3;
	} else if ((s[0] & 0xf8) == 0xf0 && s[1] && s[2] && s[3]) {
		cp = ((uint32_t)(s[0] & 0x07) << 18) |
		     ((uint32_t)(s[1] & 0x3f) << 12) |
		     ((uint32_t)(s[2] & 0x3f) << 6) | (s[3] & 0x3f);
		n = 4;
	} else {
		cp = 0xfffd;
		n = 1;
	}
	*p += n;
	return cp;
}

/* ------------------------------------------------------------------ */
/* Windows, points and input acceptance (§1.4, §2.2, §2.3)             */

enum unavailable { UNAV_MINIMIZED, UNAV_HIDDEN, UNAV_OFFSCREEN };

static cua_result
window_unavailable(const struct cua_act *a, enum unavailable why)
{
	static const char *const what[] = { "minimized", "hidden", "off-screen" };
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	/* a desktop without window positions or pointer input says so */
	r = cua_caps_refuse_pointer(a->b, cua_act_app_name(a));
	if (r != CUA_OK)
		return r;
	sb_add(&sb, "cannotClickOffscreenElement (the window of '");
	cua_sanitize_sb(&sb, cua_act_app_name(a));
	sb_addf(&sb, "' is %s, so pointer and keyboard input cannot reach it. "
		     "Element actions \xe2\x80\x94 click by element_index, "
		     "set_value, perform_secondary_action, select_text, scroll "
		     "by element_index \xe2\x80\x94 still work; or ask the user "
		     "to bring the window back.)", what[why]);
	r = cua_error(CUA_ERROR_INPUT_BLOCKED, "%s", sb_str(&sb));
	sb_free(&sb);
	return r;
}

/* Processes that never receive synthetic input (safety.md §2.2:
 * privilege and authentication prompts, lockers). */
static int
is_security_process(const char *comm)
{
	static const char *const names[] = {
		"polkit-gnome-au", "polkit-kde-auth", "polkit-mate-aut",
		"lxpolkit", "lxqt-policykit-", "xfce-polkit", "pkexec", "gksu",
		"gksudo", "kdesu", "gcr-prompter", "pinentry",
		"pinentry-gnome3", "pinentry-gtk-2", "pinentry-qt",
		"pinentry-fltk", "ssh-askpass", "ssh-askpass-gno", "ksshaskpass",
		"x11-ssh-askpass", "gnome-screensav", "xscreensaver",
		"light-locker", "i3lock", "xsecurelock", "slock", "xlock",
		"kscreenlocker_g", "lightdm-gtk-gre", "sddm-greeter",
		"gdm-session-wor", "gnome-shell", NULL,
	};

	if (!comm || !*comm)
		return 0;
	for (size_t i = 0; names[i]; i++)
		if (strcmp(comm, names[i]) == 0)
			return 1;
	return 0;
}

static cua_result
security_process(const char *comm)
{
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	sb_add(&sb, "Computer use actions are not allowed for system security "
		    "process: ");
	cua_sanitize_sb(&sb, comm);
	r = cua_error(CUA_ERROR_PERMISSION, "%s", sb_str(&sb));
	sb_free(&sb);
	return r;
}

static int
belongs(const struct cua_win *w, uint64_t target, int64_t pid)
{
	return w->window &&
	       (w->window == target || (pid > 0 && w->pid == pid));
}

/*
 * §2.2 items 4–5 for root point (rx, ry) of `target`: mapped, not
 * iconified, on a screen, and the point belongs to the target (else one
 * recovery per session, then E-POINT-COVERED). (px, py) name the point in
 * the message.
 */
static cua_result
point_ok(struct cua_act *a, uint64_t target, int32_t rx, int32_t ry,
	 double px, double py)
{
	struct cua_backend *b = a->b;
	struct cua_win tw, w;
	cua_result r;
	int confirmed;

	if (!b->ops->window_query || !b->ops->window_at)
		return unsupported(a);
	if (!target || b->ops->window_query(b, target, &tw) != CUA_OK)
		return window_unavailable(a, UNAV_HIDDEN);
	if (tw.iconified)
		return window_unavailable(a, UNAV_MINIMIZED);
	if (!tw.mapped)
		return window_unavailable(a, UNAV_HIDDEN);
	for (int attempt = 0;; attempt++) {
		r = b->ops->window_at(b, rx, ry, &w);
		if (r != CUA_OK)
			return r;
		if (!w.window)
			return window_unavailable(a, UNAV_OFFSCREEN);
		if (belongs(&w, target, a->app->pid))
			return CUA_OK;
		if (is_security_process(w.process))
			return security_process(w.process);
		if (attempt > 0 || !a->as->proc || a->as->proc->point_recovered ||
		    !b->ops->activate_window)
			break;
		/* covered: raise the target once per session (§2.3) */
		a->as->proc->point_recovered = 1;
		r = b->ops->activate_window(b, target,
					    a->s->ctx.opt.focus_timeout_ms,
					    &confirmed);
		if (r != CUA_OK)
			break;
	}
	{
		struct strbuf sb = STRBUF_INIT;

		sb_addf(&sb, "windowNotFoundAtPosition((%g, %g)) (that point of '",
			px, py);
		cua_sanitize_sb(&sb, cua_act_app_name(a));
		sb_add(&sb, "' is covered by ");
		cua_sanitize_sb(&sb, *w.process ? w.process : "another window");
		sb_add(&sb, ", so the click would land there. Computer Use raised "
			    "the window once and it is covered again. Ask the user "
			    "to move the other window, or use element_index.)");
		r = cua_error(CUA_ERROR_INPUT_BLOCKED, "%s", sb_str(&sb));
		sb_free(&sb);
	}
	return r;
}

static cua_result
input_not_accepted(const struct cua_act *a)
{
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	/* a desktop without keyboard input says so */
	r = cua_caps_refuse_keys(a->b, cua_act_app_name(a));
	if (r != CUA_OK)
		return r;
	sb_add(&sb, "'");
	cua_sanitize_sb(&sb, cua_act_app_name(a));
	sb_add(&sb, "' did not take keyboard focus, so the keys were not sent. "
		    "Click a text field of '");
	cua_sanitize_sb(&sb, cua_act_app_name(a));
	sb_add(&sb, "' first, or ask the user to bring its window to the "
		    "front.");
	r = cua_error(CUA_ERROR_INPUT_BLOCKED, "%s", sb_str(&sb));
	sb_free(&sb);
	return r;
}

/*
 * Keyboard input acceptance (§1.4): the target window (or a window of the
 * same app) holds X input focus; otherwise activate it and wait for the
 * confirmation. `active` is the AT-SPI ACTIVE state of the target window
 * when known (-1 unknown).
 */
static cua_result
keyboard_ready(struct cua_act *a, uint64_t target, int active)
{
	struct cua_backend *b = a->b;
	struct cua_win f, tw;
	int confirmed = 0;
	cua_result r;

	if (!b->ops->focus_window || !b->ops->activate_window ||
	    !b->ops->window_query)
		return unsupported(a);
	if (!target || b->ops->window_query(b, target, &tw) != CUA_OK ||
	    (tw.pid > 0 && tw.pid != a->app->pid))
		return input_not_accepted(a);
	if (tw.iconified)
		return window_unavailable(a, UNAV_MINIMIZED);
	r = b->ops->focus_window(b, &f);
	if (r != CUA_OK)
		return r;
	if (f.window && is_security_process(f.process))
		return security_process(f.process);
	if (belongs(&f, target, a->app->pid) && active != 0)
		return CUA_OK; /* established focus is reused, no wait */
	r = b->ops->activate_window(b, target, a->s->ctx.opt.focus_timeout_ms,
				    &confirmed);
	if (r != CUA_OK || !confirmed)
		return input_not_accepted(a);
	return CUA_OK;
}

/* The live root pixel of a node's centre (actions.md §2.1; screenshots.md
 * §3): through the screenshot geometry when the observation has one for
 * this window, else through X11 origin - accessibility window origin. */
static int
center_root(struct cua_act *a, const struct cua_located *loc,
	    const struct cua_raw_node *n, int32_t *rx, int32_t *ry,
	    struct cua_win *win)
{
	const struct cua_raw_node *w = loc->window;
	struct cua_shot_geom g;
	struct cua_rect e;

	if (!has_extent(n) || !loc->x11_window || !a->b->ops->window_query ||
	    a->b->ops->window_query(a->b, loc->x11_window, win) != CUA_OK)
		return -1;
	if (!w || !(w->have & CUA_HAVE_EXTENTS)) {
		*rx = n->extents.x + n->extents.w / 2;
		*ry = n->extents.y + n->extents.h / 2;
		return 0;
	}
	/* window-relative, as the tree's frames; then the screenshot rule
	 * (screenshots.md §3) on the live window: where the accessibility
	 * window's origin lies in the frame (0 for GTK3, Qt and Chromium
	 * without decorations, the window manager's title bar for GTK3
	 * under a reparenting manager, GTK4's resize margin) */
	e.x = n->extents.x - w->extents.x;
	e.y = n->extents.y - w->extents.y;
	e.w = n->extents.w;
	e.h = n->extents.h;
	memset(&g, 0, sizeof(g));
	g.x11_window = loc->x11_window;
	g.frame = win->frame;
	g.device_ppp = a->t->has_shot && a->t->shot.device_ppp > 0 ?
			       a->t->shot.device_ppp : 1;
	g.ppp = 1;
	cua_geom_element_origin(&w->extents, &win->frame, g.device_ppp,
				&g.elem_dx, &g.elem_dy);
	cua_geom_element_center_to_root(&g, win->frame.x, win->frame.y, &e, rx,
					ry);
	return 0;
}

static cua_result
send_pointer(struct cua_act *a, const struct cua_pointer_event *ev, size_t n)
{
	if (!a->b->ops->pointer)
		return unsupported(a);
	return a->b->ops->pointer(a->b, ev, n, a->s->ctx.opt.restore_pointer);
}

static cua_result
click_at_root(struct cua_act *a, int32_t rx, int32_t ry, uint32_t button,
	      uint32_t count)
{
	struct cua_pointer_event ev[1 + 2 * 100];
	size_t n = 0;

	ev[n++] = (struct cua_pointer_event){ CUA_POINTER_MOVE, rx, ry, 0 };
	for (uint32_t i = 0; i < count && i < 100; i++) {
		ev[n++] = (struct cua_pointer_event){ CUA_POINTER_PRESS, 0, 0,
						      button };
		ev[n++] = (struct cua_pointer_event){ CUA_POINTER_RELEASE, 0, 0,
						      button };
	}
	return send_pointer(a, ev, n);
}

/* Route 7: a synthetic click at the element's centre (§3 route 7). */
static cua_result
synthetic_click(struct cua_act *a, struct cua_located *loc,
		struct cua_raw_node *n, uint32_t button, uint32_t count)
{
	struct cua_win win;
	int32_t rx, ry;
	int ok;
	cua_result r;

	if (!has_extent(n))
		return cua_act_failed("element %u (%s) has no position on "
				      "screen. Try perform_secondary_action, "
				      "or call get_app_state again",
				      a->element, loc->element->role_text);
	/* outside the visible part of its window: scroll it into view */
	if (loc->window && (loc->window->have & CUA_HAVE_EXTENTS) &&
	    (n->extents.x + n->extents.w / 2 < loc->window->extents.x ||
	     n->extents.y + n->extents.h / 2 < loc->window->extents.y ||
	     n->extents.x + n->extents.w / 2 >=
		     loc->window->extents.x + loc->window->extents.w ||
	     n->extents.y + n->extents.h / 2 >=
		     loc->window->extents.y + loc->window->extents.h)) {
		r = ask(a, CUA_LIVE_SCROLL_TO, n->ident, 0, 0, 0, &ok);
		if (r != CUA_OK)
			return r;
		r = reread(a, loc, n, CUA_HAVE_EXTENTS);
		if (r != CUA_OK)
			return r;
		if (!has_extent(n))
			return cua_act_failed("element %u (%s) is not visible on "
					      "screen. Scroll it into view first",
					      a->element,
					      loc->element->role_text);
	}
	if (center_root(a, loc, n, &rx, &ry, &win) < 0)
		return window_unavailable(a, UNAV_HIDDEN);
	r = point_ok(a, loc->x11_window, rx, ry, rx - win.frame.x,
		     ry - win.frame.y);
	if (r != CUA_OK)
		return r;
	r = click_at_root(a, rx, ry, button, count);
	if (r == CUA_OK)
		cua_act_route(a, "synthetic");
	return r;
}

static cua_result
do_action(struct cua_act *a, const char *ident, int index, int *ok)
{
	return ask(a, CUA_LIVE_DO_ACTION, ident, index, 0, 0, ok);
}

/* ------------------------------------------------------------------ */
/* click (§3)                                                          */

/* decisions.md §1: a focus change that selected the whole text is
 * collapsed to a caret at the end. */
static void
collapse_select_all(struct cua_act *a, struct cua_located *loc,
		    struct cua_raw_node *n, int had_sel, int32_t old_a,
		    int32_t old_b)
{
	struct cua_live_call c = { .op = CUA_LIVE_GET_SELECTION,
				   .ident = n->ident };
	struct cua_live_call t = { .op = CUA_LIVE_GET_TEXT, .ident = n->ident };
	int ok;

	if (!(n->ifaces & CUA_IFACE_TEXT))
		return;
	if (live(a, &c) != CUA_OK || live(a, &t) != CUA_OK) {
		call_clear(&c);
		call_clear(&t);
		return;
	}
	if (c.ret[0] > 0 && t.ret[0] > 0 &&
	    MIN(c.ret[1], c.ret[2]) == 0 && MAX(c.ret[1], c.ret[2]) == t.ret[0] &&
	    !(had_sel && MIN(old_a, old_b) == 0 && MAX(old_a, old_b) == t.ret[0]))
		ask(a, CUA_LIVE_SET_CARET, n->ident, t.ret[0], 0, 0, &ok);
	call_clear(&c);
	call_clear(&t);
	(void)loc;
}

static cua_result
focus_route(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct cua_raw_node *n = loc->node;
	int ok, had_sel = (n->have & CUA_HAVE_TEXT_SELECTION) && n->sel_start >= 0;
	int32_t sa = n->sel_start, sb = n->sel_end;
	cua_result r;

	*done = 0;
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSED)) {
		cua_act_route(a, "focus");
		*done = 1;
		return CUA_OK;
	}
	r = ask(a, CUA_LIVE_GRAB_FOCUS, n->ident, 0, 0, 0, &ok);
	if (r != CUA_OK)
		return r;
	r = reread(a, loc, n, CUA_HAVE_TEXT_SELECTION);
	if (r != CUA_OK)
		return r;
	if (!CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return CUA_OK;
	collapse_select_all(a, loc, n, had_sel, sa, sb);
	cua_act_route(a, "focus");
	*done = 1;
	return CUA_OK;
}

static cua_result
selection_route(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct cua_raw_node *n = loc->node, *c = n->parent;
	int synthetic = loc->element &&
			(loc->element->flags & CUA_ELEM_SYNTHETIC_ROW);
	int ok;
	cua_result r;

	*done = 0;
	if (!c || !(c->have & CUA_HAVE_BASIC) ||
	    !(c->ifaces & (synthetic ? CUA_IFACE_TABLE : CUA_IFACE_SELECTION)))
		return CUA_OK;
	if (!synthetic && !(c->ifaces & CUA_IFACE_SELECTION))
		return CUA_OK;
	if (CUA_HAS_STATE(n, CUA_STATE_SELECTED)) {
		cua_act_route(a, "selection");
		*done = 1;
		return CUA_OK;
	}
	if (CUA_HAS_STATE(c, CUA_STATE_MULTISELECTABLE) &&
	    (c->ifaces & CUA_IFACE_SELECTION)) {
		r = ask(a, CUA_LIVE_CLEAR_SELECTION, c->ident, 0, 0, 0, &ok);
		if (r != CUA_OK)
			return r;
	}
	if (synthetic)
		r = ask(a, CUA_LIVE_ADD_ROW_SELECTION, c->ident,
			(int32_t)loc->element->row_index, 0, 0, &ok);
	else
		r = ask(a, CUA_LIVE_SELECT_CHILD, c->ident, n->index_in_parent,
			0, 0, &ok);
	if (r != CUA_OK)
		return r;
	if (!ok)
		return CUA_OK;
	if (is_async_toolkit(a->app)) {
		/* dispatched: the next observation shows it (decisions §5) */
		cua_act_route(a, "selection");
		*done = 1;
		return CUA_OK;
	}
	r = reread(a, loc, n, 0);
	if (r != CUA_OK)
		return r;
	if (CUA_HAS_STATE(n, CUA_STATE_SELECTED)) {
		cua_act_route(a, "selection");
		*done = 1;
	}
	return CUA_OK;
}

static cua_result
primary_route(struct cua_act *a, struct cua_located *loc,
	      struct cua_raw_node *n, const char *route, int *done)
{
	const char *raw = NULL;
	int i = primary_action(n, &raw), ok;
	cua_result r;

	*done = 0;
	cua_debug(&a->s->ctx, "%s: element %u: %s has %zu actions (have 0x%x), "
			      "primary %d", a->tool, a->element, n->ident,
		  n->n_actions, n->have, i);
	if (i < 0)
		return CUA_OK;
	r = do_action(a, n->ident, i, &ok);
	if (r != CUA_OK)
		return r;
	cua_debug(&a->s->ctx, "%s: element %u: %s on %s answered %d",
		  a->tool, a->element, raw, n->ident, ok);
	if (ok) {
		if (route)
			cua_act_route(a, "%s", route);
		else
			cua_act_route(a, "action:%s", raw);
		*done = 1;
	}
	(void)loc;
	return CUA_OK;
}

static int
contains(const struct cua_rect *r, int32_t x, int32_t y)
{
	return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

/* Route 4: a descendant with a primary action (3 levels). */
static cua_result
descendant_route(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct cua_raw_node *n = loc->node, *level[512], *next[512];
	struct cua_raw_node *first = NULL, *hit = NULL;
	size_t nl = 1, nn;
	int32_t cx = n->extents.x + n->extents.w / 2;
	int32_t cy = n->extents.y + n->extents.h / 2;
	cua_result r;

	*done = 0;
	level[0] = n;
	for (int depth = 0; depth < 3 && nl && !hit; depth++) {
		struct cua_raw_node *parents[512];
		size_t np = 0;

		for (size_t i = 0; i < nl; i++)
			if ((level[i]->have & CUA_HAVE_BASIC) &&
			    level[i]->child_count > 0)
				parents[np++] = level[i];
		if (!np)
			break;
		r = a->b->ops->read_children(a->b, loc->snap, parents, np, 0,
					     64, CUA_HAVE_EXTENTS |
						     CUA_HAVE_ACTIONS);
		if (r != CUA_OK)
			return r;
		nn = 0;
		for (size_t i = 0; i < np; i++)
			for (size_t k = 0; k < parents[i]->n_children && nn < 512;
			     k++) {
				struct cua_raw_node *c = parents[i]->children[k];

				if (!(c->have & CUA_HAVE_BASIC) ||
				    CUA_HAS_STATE(c, CUA_STATE_DEFUNCT))
					continue;
				next[nn++] = c;
				if (primary_action(c, NULL) < 0)
					continue;
				if (!first)
					first = c;
				if (!hit && has_extent(n) && has_extent(c) &&
				    contains(&c->extents, cx, cy))
					hit = c;
			}
		memcpy(level, next, nn * sizeof(*next));
		nl = nn;
	}
	if (!hit)
		hit = first;
	if (!hit)
		return CUA_OK;
	return primary_route(a, loc, hit, "descendant", done);
}

/* 1 when `x` is `n` or one of its live ancestors. */
static int
in_chain(const struct cua_raw_node *n, const char *ident)
{
	for (; n; n = n->parent)
		if (n->ident && ident && strcmp(n->ident, ident) == 0)
			return 1;
	return 0;
}

/* Route 5: hit test at the element's centre. */
static cua_result
hit_test_route(struct cua_act *a, struct cua_located *loc, int *done)
{
	struct cua_raw_node *n = loc->node, *h;
	char *cur = NULL;
	int32_t cx, cy;
	int related = 0;
	cua_result r = CUA_OK;

	*done = 0;
	if (!loc->window || !has_extent(n))
		return CUA_OK;
	cx = n->extents.x + n->extents.w / 2;
	cy = n->extents.y + n->extents.h / 2;
	cur = strdup(loc->window->ident);
	for (int depth = 0; cur && depth < 64; depth++) {
		struct cua_live_call c = { .op = CUA_LIVE_HIT_TEST, .ident = cur,
					   .a = cx, .b = cy };

		if (live(a, &c) != CUA_OK || !c.ret_ident ||
		    strcmp(c.ret_ident, cur) == 0) {
			call_clear(&c);
			break;
		}
		free(cur);
		cur = c.ret_ident;
		c.ret_ident = NULL;
		call_clear(&c);
	}
	if (!cur || strcmp(cur, loc->window->ident) == 0) {
		free(cur);
		return CUA_OK;
	}
	/* the element, one of its ancestors, or one of its descendants */
	if (in_chain(n, cur)) {
		related = 1;
	} else {
		char *up = strdup(cur);

		for (int depth = 0; up && depth < 64 && !related; depth++) {
			struct cua_live_call c = { .op = CUA_LIVE_PARENT, .ident = up };

			if (live(a, &c) != CUA_OK || !c.ret_ident) {
				call_clear(&c);
				break;
			}
			free(up);
			up = c.ret_ident;
			c.ret_ident = NULL;
			call_clear(&c);
			if (strcmp(up, n->ident) == 0)
				related = 1;
			else if (strcmp(up, loc->window->ident) == 0)
				break;
		}
		free(up);
	}
	if (related) {
		h = cua_raw_node_new(loc->snap);
		if (!h) {
			free(cur);
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
		h->ident = cua_arena_strdup(loc->snap->arena, cur);
		r = reread(a, loc, h, CUA_HAVE_ACTIONS);
		if (r == CUA_OK && (h->have & CUA_HAVE_BASIC))
			r = primary_route(a, loc, h, "hit-test", done);
	}
	free(cur);
	return r;
}

static cua_result
no_way_to_click(const struct cua_act *a, const struct cua_located *loc)
{
	return cua_act_failed("element %u (%s) offers no way to be clicked: it "
			      "has no selectable container, no press action, "
			      "and is not visible on screen. Try "
			      "perform_secondary_action, or click its position "
			      "in the screenshot.",
			      a->element, loc->element->role_text);
}

/* The left single-click ladder (§3 routes 1–7). */
static cua_result
click_ladder(struct cua_act *a, struct cua_located *loc)
{
	struct cua_raw_node *n = loc->node;
	int done = 0, menu = is_menu_item(loc), confirmed;
	cua_result r, synth = CUA_OK;

	if (a->s->ctx.opt.always_simulate_click && !menu) {
		synth = synthetic_click(a, loc, n, 1, 1);
		if (synth == CUA_OK)
			return CUA_OK;
	}
	if (!menu && is_row_like(loc)) {
		r = selection_route(a, loc, &done);
		if (r != CUA_OK || done)
			return r;
	}
	if (!menu && is_text_entry(n)) {
		r = focus_route(a, loc, &done);
		if (r != CUA_OK || done)
			return r;
		return synthetic_click(a, loc, n, 1, 1);
	}
	r = primary_route(a, loc, n, NULL, &done);
	if (r != CUA_OK || done)
		return r;
	r = descendant_route(a, loc, &done);
	if (r != CUA_OK || done)
		return r;
	r = hit_test_route(a, loc, &done);
	if (r != CUA_OK || done)
		return r;
	if (is_window_role(n->role) && loc->node == loc->window &&
	    loc->x11_window && a->b->ops->activate_window) {
		r = a->b->ops->activate_window(a->b, loc->x11_window,
					       a->s->ctx.opt.focus_timeout_ms,
					       &confirmed);
		if (r == CUA_OK && confirmed) {
			cua_act_route(a, "activate-window");
			return CUA_OK;
		}
	}
	if (menu)
		return no_way_to_click(a, loc);
	if (a->s->ctx.opt.always_simulate_click && synth != CUA_OK)
		return synth;
	if (!has_extent(n))
		return no_way_to_click(a, loc);
	return synthetic_click(a, loc, n, 1, 1);
}

static cua_result
right_click(struct cua_act *a, struct cua_located *loc)
{
	static const char *const menu_verbs[] = {
		"showcontextmenu", "showmenu", "menu", "popup", "contextmenu",
		NULL,
	};
	struct cua_raw_node *n = loc->node;
	const char *raw = NULL;
	int i = find_action(n, menu_verbs, &raw), ok;
	cua_result r;

	if (i >= 0) {
		r = do_action(a, n->ident, i, &ok);
		if (r != CUA_OK)
			return r;
		if (ok) {
			cua_act_route(a, "action:%s", raw);
			return CUA_OK;
		}
	}
	if (!is_menu_item(loc) && has_extent(n)) {
		r = synthetic_click(a, loc, n, 3, 1);
		if (r == CUA_OK || r == CUA_ERROR_TIMEOUT ||
		    r == CUA_ERROR_PERMISSION)
			return r;
	}
	/* the keyboard: focus it, then the Menu key */
	r = ask(a, CUA_LIVE_GRAB_FOCUS, n->ident, 0, 0, 0, &ok);
	if (r != CUA_OK)
		return r;
	r = reread(a, loc, n, 0);
	if (r != CUA_OK)
		return r;
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSED) && a->b->ops->keys) {
		struct cua_key_chord menu_key;

		memset(&menu_key, 0, sizeof(menu_key));
		menu_key.keysym = XK_MENU;
		r = keyboard_ready(a, loc->x11_window, -1);
		if (r != CUA_OK)
			return r;
		r = a->b->ops->keys(a->b, &menu_key, 1,
				    a->s->ctx.opt.keymap_delay_ms,
				    a->app->bus_name, NULL);
		if (r == CUA_OK)
			cua_act_route(a, "menu-key");
		return r;
	}
	return cua_act_failed("element %u (%s) has no context menu action, is "
			      "not visible on screen and cannot take keyboard "
			      "focus. Try perform_secondary_action",
			      a->element, loc->element->role_text);
}

static cua_result
check_button(uint32_t button, uint32_t count, const char *tool)
{
	if (button < 1 || button > 3)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Invalid mouse button: %u Use left, right or middle.",
				 button);
	if (count < 1 || count > 100)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Invalid arguments for %s: 'click_count' must be between 1 and 100.",
				 tool);
	return CUA_OK;
}

static cua_result
finish_act(struct cua_act *a, cua_result r, char **outcome)
{
	if (r == CUA_OK && a->app && a->app->bus_name)
		cua_settle_note_action(a->s, a->app->bus_name);
	if (r == CUA_OK && outcome)
		r = cua_act_outcome(a, outcome);
	cua_act_end(a);
	return r;
}

#define CLICK_WANT                                                         \
	(CUA_HAVE_EXTENTS | CUA_HAVE_ACTIONS | CUA_HAVE_TEXT_SELECTION)

cua_result
cua_do_click(struct cua_session *s, const char *app, uint32_t id,
	     uint32_t button, uint32_t count, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	cua_result r;

	r = check_button(button, count, "click");
	if (r != CUA_OK)
		return r;
	r = cua_act_begin(&a, s, "click", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CLICK_WANT, &loc);
	if (r != CUA_OK) {
		cua_located_clear(&loc);
		cua_act_end(&a);
		return r;
	}
	json_object_set_new(a.outcome, "click_count", json_integer(count));
	json_object_set_new(a.outcome, "mouse_button",
			    json_string(button == 1 ? "left" :
					button == 2 ? "middle" : "right"));
	if (button == 3) {
		r = right_click(&a, &loc);
	} else if (button == 2) {
		r = synthetic_click(&a, &loc, loc.node, 2, count);
	} else if (count == 1) {
		r = click_ladder(&a, &loc);
	} else {
		/* §3.3: a real multi-click where the pointer can reach it */
		r = is_menu_item(&loc) ? CUA_ERROR_INPUT_BLOCKED :
					 synthetic_click(&a, &loc, loc.node, 1,
							 count);
		if (r != CUA_OK && r != CUA_ERROR_TIMEOUT &&
		    r != CUA_ERROR_PERMISSION) {
			const char *const act_verb[] = { "activate", NULL };
			const char *raw = NULL;
			int i = find_action(loc.node, act_verb, &raw), ok;

			if (count == 2 && is_row_like(&loc) && i >= 0) {
				r = do_action(&a, loc.node->ident, i, &ok);
				if (r == CUA_OK && !ok)
					r = no_way_to_click(&a, &loc);
				if (r == CUA_OK)
					cua_act_route(&a, "action:%s", raw);
			} else {
				r = CUA_OK;
				for (uint32_t k = 0; k < count && r == CUA_OK; k++) {
					if (k) {
						r = reread(&a, &loc, loc.node,
							   CLICK_WANT);
						if (r != CUA_OK)
							break;
					}
					r = click_ladder(&a, &loc);
				}
			}
		}
	}
	cua_located_clear(&loc);
	return finish_act(&a, r, outcome);
}

/* ------------------------------------------------------------------ */
/* Coordinates (§2)                                                    */

/* The geometry of the last observation's screenshot; without one, the
 * window's frame at 1 pixel per point. */
static cua_result
shot_geometry(struct cua_act *a, struct cua_shot_geom *g)
{
	const struct cua_tree *t = a->t;

	if (t->has_shot) {
		*g = t->shot;
		if (g->ppp <= 0)
			g->ppp = 1;
		if (g->device_ppp <= 0)
			g->device_ppp = 1;
		return CUA_OK;
	}
	if (t->x11_window && t->has_window_frame && !t->shot_error) {
		memset(g, 0, sizeof(*g));
		g->x11_window = t->x11_window;
		g->frame = t->window_frame;
		g->device_ppp = 1;
		g->ppp = 1;
		g->width = (uint32_t)(t->window_frame.w > 0 ? t->window_frame.w : 0);
		g->height = (uint32_t)(t->window_frame.h > 0 ? t->window_frame.h : 0);
		return CUA_OK;
	}
	{
		struct strbuf sb = STRBUF_INIT;
		cua_result r;

		sb_add(&sb, "The last get_app_state of '");
		cua_sanitize_sb(&sb, cua_act_app_name(a));
		sb_add(&sb, "' has no screenshot (");
		if (t->shot_error)
			cua_sanitize_sb(&sb, t->shot_error);
		else if (!cua_caps_shot_error_sb(a->b, &sb))
			sb_add(&sb, "the window could not be identified on the "
				    "X server");
		sb_add(&sb, "), so screenshot coordinates cannot be used. Use "
			    "element_index, or call get_app_state again.");
		r = cua_error(CUA_ERROR_INPUT_BLOCKED, "%s", sb_str(&sb));
		sb_free(&sb);
		return r;
	}
}

/* §2.2 items 1–4 for pixel (px, py); fills the root pixel. */
static cua_result
map_pixel(struct cua_act *a, const struct cua_shot_geom *g, double px,
	  double py, int32_t *rx, int32_t *ry)
{
	struct cua_win w;
	double wp, hp, wp2, hp2;

	if (!isfinite(px) || !isfinite(py) || !cua_geom_pixel_in_image(g, px, py)) {
		struct strbuf sb = STRBUF_INIT;
		cua_result r;

		sb_addf(&sb, "Point (%g, %g) is outside the screenshot of '", px, py);
		cua_sanitize_sb(&sb, cua_act_app_name(a));
		sb_addf(&sb, "' (%u\xc3\x97%u pixels). Use coordinates inside the "
			     "latest screenshot.", g->width, g->height);
		r = cua_error(CUA_ERROR_INVALID_ARGUMENT, "%s", sb_str(&sb));
		sb_free(&sb);
		return r;
	}
	if (!a->b->ops->window_query)
		return unsupported(a);
	wp = g->frame.w / g->device_ppp;
	hp = g->frame.h / g->device_ppp;
	if (a->b->ops->window_query(a->b, g->x11_window, &w) != CUA_OK)
		return cua_error_quoting(CUA_ERROR_STALE, "The window of '",
					 cua_act_app_name(a),
					 "' changed since the last screenshot (it "
					 "was closed). Call get_app_state to get a "
					 "new screenshot before using screenshot "
					 "coordinates.");
	wp2 = w.frame.w / g->device_ppp;
	hp2 = w.frame.h / g->device_ppp;
	if (fabs(wp2 - wp) > 1 || fabs(hp2 - hp) > 1) {
		struct strbuf sb = STRBUF_INIT;
		cua_result r;

		sb_add(&sb, "The window of '");
		cua_sanitize_sb(&sb, cua_act_app_name(a));
		sb_addf(&sb, "' changed since the last screenshot (it was "
			     "%g\xc3\x97%g and is now %g\xc3\x97%g). Call "
			     "get_app_state to get a new screenshot before using "
			     "screenshot coordinates.",
			round(wp), round(hp), round(wp2), round(hp2));
		r = cua_error(CUA_ERROR_STALE, "%s", sb_str(&sb));
		sb_free(&sb);
		return r;
	}
	if (w.iconified)
		return window_unavailable(a, UNAV_MINIMIZED);
	if (!w.mapped)
		return window_unavailable(a, UNAV_HIDDEN);
	cua_geom_pixel_to_root(g, w.frame.x, w.frame.y, px, py, rx, ry);
	return CUA_OK;
}

cua_result
cua_do_click_at(struct cua_session *s, const char *app, double x, double y,
		uint32_t button, uint32_t count, char **outcome)
{
	struct cua_act a;
	struct cua_shot_geom g;
	int32_t rx, ry;
	cua_result r;

	r = check_button(button, count, "click");
	if (r != CUA_OK)
		return r;
	if (!isfinite(x) || !isfinite(y))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Invalid arguments for click: 'x' must be a number.");
	r = cua_act_begin(&a, s, "click", app);
	if (r == CUA_OK)
		r = shot_geometry(&a, &g);
	if (r == CUA_OK)
		r = map_pixel(&a, &g, x, y, &rx, &ry);
	if (r == CUA_OK)
		r = point_ok(&a, g.x11_window, rx, ry, x, y);
	if (r == CUA_OK)
		r = click_at_root(&a, rx, ry, button, count);
	if (r == CUA_OK) {
		cua_act_route(&a, "synthetic");
		json_object_set_new(a.outcome, "click_count", json_integer(count));
		json_object_set_new(a.outcome, "point",
				    json_pack("{s:f,s:f,s:i,s:i}", "x", x, "y", y,
					      "root_x", rx, "root_y", ry));
	}
	return finish_act(&a, r, outcome);
}

cua_result
cua_do_drag(struct cua_session *s, const char *app, double x1, double y1,
	    double x2, double y2, char **outcome)
{
	struct cua_act a;
	struct cua_shot_geom g;
	int32_t sx, sy, ex, ey;
	struct cua_pointer_event ev[6];
	cua_result r;

	if (!isfinite(x1) || !isfinite(y1) || !isfinite(x2) || !isfinite(y2))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Invalid arguments for drag: 'from_x' must be a number.");
	r = cua_act_begin(&a, s, "drag", app);
	if (r == CUA_OK)
		r = shot_geometry(&a, &g);
	if (r == CUA_OK)
		r = map_pixel(&a, &g, x1, y1, &sx, &sy);
	if (r == CUA_OK)
		r = map_pixel(&a, &g, x2, y2, &ex, &ey);
	/* the start point must belong to the target; the end may lie over
	 * another window (the implicit grab keeps the gesture bound) */
	if (r == CUA_OK)
		r = point_ok(&a, g.x11_window, sx, sy, x1, y1);
	if (r == CUA_OK) {
		/* preparation, then the five events of §6 */
		ev[0] = (struct cua_pointer_event){ CUA_POINTER_MOVE, sx, sy, 0 };
		ev[1] = (struct cua_pointer_event){ CUA_POINTER_PRESS, 0, 0, 1 };
		ev[2] = (struct cua_pointer_event){ CUA_POINTER_MOVE, sx, sy, 0 };
		ev[3] = (struct cua_pointer_event){
			CUA_POINTER_MOVE, (int32_t)lround((sx + ex) / 2.0),
			(int32_t)lround((sy + ey) / 2.0), 0 };
		ev[4] = (struct cua_pointer_event){ CUA_POINTER_MOVE, ex, ey, 0 };
		ev[5] = (struct cua_pointer_event){ CUA_POINTER_RELEASE, 0, 0, 1 };
		r = send_pointer(&a, ev, 6);
	}
	if (r == CUA_OK)
		cua_act_route(&a, "synthetic");
	return finish_act(&a, r, outcome);
}

/* ------------------------------------------------------------------ */
/* set_value (§4)                                                      */

enum vkind { VK_NONE, VK_STRING, VK_FLOAT };

static enum vkind
value_kind(const struct cua_raw_node *n)
{
	if ((n->ifaces & CUA_IFACE_VALUE) && (n->have & CUA_HAVE_VALUE) &&
	    n->role != CUA_ROLE_PROGRESS_BAR && n->role != CUA_ROLE_LEVEL_BAR &&
	    !CUA_HAS_STATE(n, CUA_STATE_READ_ONLY) && n->value_max > n->value_min)
		return VK_FLOAT;
	if (CUA_HAS_STATE(n, CUA_STATE_EDITABLE) &&
	    (n->ifaces & CUA_IFACE_EDITABLE_TEXT) &&
	    !CUA_HAS_STATE(n, CUA_STATE_READ_ONLY))
		return VK_STRING;
	return VK_NONE;
}

/* Locale-independent decimal number; 0 when `s` is not one. */
static int
parse_number(const char *s, double *out)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	char *end;
	double v;

	if (!c)
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	v = strtod_l(s, &end, c);
	freelocale(c);
	if (end == s)
		return 0;
	while (isspace((unsigned char)*end))
		end++;
	if (*end || !isfinite(v))
		return 0;
	*out = v;
	return 1;
}

static char *
value_string(const struct cua_raw_node *n, enum vkind k)
{
	char buf[64];

	if (k == VK_FLOAT) {
		cua_format_number(buf, sizeof(buf), n->value);
		return strdup(buf);
	}
	return strdup(n->text ? n->text : "");
}

cua_result
cua_do_set_value(struct cua_session *s, const char *app, uint32_t id,
		 const char *value, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	struct cua_raw_node *n;
	enum vkind kind;
	char *before = NULL, *after = NULL;
	double v = 0;
	int ok, secure;
	cua_result r;

	if (!value)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Missing required argument: value");
	r = cua_act_begin(&a, s, "set_value", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CUA_HAVE_VALUE | CUA_HAVE_TEXT, &loc);
	if (r != CUA_OK)
		goto out;
	n = loc.node;
	kind = value_kind(n);
	secure = (loc.element->flags & CUA_ELEM_SECURE) ||
		 n->role == CUA_ROLE_PASSWORD_TEXT;
	if (kind == VK_NONE) {
		struct strbuf sb = STRBUF_INIT;

		sb_addf(&sb, "Cannot set a value for an element that is not "
			     "settable. Element %u is a ", id);
		cua_sanitize_sb(&sb, *loc.element->role_text ?
				loc.element->role_text : "element");
		sb_add(&sb, "; use click, type_text or select_text instead.");
		r = cua_error(CUA_ERROR_UNSUPPORTED, "%s", sb_str(&sb));
		sb_free(&sb);
		goto out;
	}
	if (kind == VK_FLOAT) {
		char lo[64], hi[64];

		cua_format_number(lo, sizeof(lo), n->value_min);
		cua_format_number(hi, sizeof(hi), n->value_max);
		if (!parse_number(value, &v) || v < n->value_min ||
		    v > n->value_max) {
			struct strbuf sb = STRBUF_INIT;

			sb_add(&sb, "'");
			cua_add_truncated(&sb, value, 64);
			sb_addf(&sb, "' is not a valid value for element %u, a ", id);
			cua_sanitize_sb(&sb, loc.element->role_text);
			sb_addf(&sb, " that takes a number between %s and %s.", lo, hi);
			r = cua_error(CUA_ERROR_INVALID_ARGUMENT, "%s", sb_str(&sb));
			sb_free(&sb);
			goto out;
		}
	}
	before = value_string(n, kind);
	{
		struct cua_live_call c = { .op = kind == VK_FLOAT ?
							 CUA_LIVE_SET_VALUE :
							 CUA_LIVE_SET_TEXT,
					   .ident = n->ident, .v = v,
					   .text = value };

		/* no focus change, no key events (§4 step 5) */
		r = ask_call(&a, &c, &ok);
		call_clear(&c);
		if (r != CUA_OK)
			goto out;
	}
	/* re-read, polling while it still equals `before` (async toolkits) */
	for (int64_t t0 = cua_now_us(), wait = 5000;; wait *= 2) {
		r = reread(&a, &loc, n, CUA_HAVE_VALUE | CUA_HAVE_TEXT);
		if (r != CUA_OK)
			goto out;
		free(after);
		after = value_string(n, kind);
		if (strcmp(after, before) != 0 || cua_now_us() - t0 >= POLL_MAX_US)
			break;
		if (kind == VK_FLOAT ? fabs(n->value - v) < 1e-9 :
				       strcmp(after, value) == 0)
			break;
		usleep((useconds_t)MIN(wait, 200000));
	}
	if (strcmp(after, before) == 0 &&
	    (kind == VK_FLOAT ? fabs(n->value - v) >= 1e-9 :
				strcmp(after, value) != 0)) {
		struct strbuf sb = STRBUF_INIT;

		sb_add(&sb, "Accessibility error: '");
		cua_sanitize_sb(&sb, cua_act_app_name(&a));
		sb_addf(&sb, "' did not accept the new value; element %u still "
			     "shows '", id);
		if (secure)
			sb_add(&sb, "(hidden)");
		else
			cua_add_truncated(&sb, before, 160);
		sb_add(&sb, "'.");
		r = cua_error(CUA_ERROR, "%s", sb_str(&sb));
		sb_free(&sb);
		goto out;
	}
	(void)ok;
	cua_act_route(&a, "value");
	if (secure) {
		json_object_set_new(a.outcome, "before", json_null());
		json_object_set_new(a.outcome, "after", json_null());
	} else {
		char *sb = cua_sanitize(loc.snap->arena, before);
		char *sa = cua_sanitize(loc.snap->arena, after);

		json_object_set_new(a.outcome, "before", json_string(sb ? sb : ""));
		json_object_set_new(a.outcome, "after", json_string(sa ? sa : ""));
	}
out:
	free(before);
	free(after);
	cua_located_clear(&loc);
	return finish_act(&a, r, outcome);
}

/* ------------------------------------------------------------------ */
/* Keyboard: type_text (§9) and press_key (§7)                         */

/* The live toplevel the observation showed, and its X window. */
struct target_window {
	struct cua_raw_snapshot *snap;
	struct cua_raw_node *node; /* NULL when it is gone */
	uint64_t x11_window;
};

static cua_result
find_target_window(struct cua_act *a, struct target_window *tw)
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
			if (tw->snap->windows && tw->snap->windows[i].x11_window)
				tw->x11_window = tw->snap->windows[i].x11_window;
			break;
		}
	}
	return CUA_OK;
}

static int
window_active(const struct target_window *tw)
{
	if (!tw->node || !(tw->node->have & CUA_HAVE_BASIC))
		return -1;
	return CUA_HAS_STATE(tw->node, CUA_STATE_ACTIVE) ? 1 : 0;
}

static cua_result
send_keys(struct cua_act *a, const struct cua_key_chord *c, size_t n)
{
	if (!a->b->ops->keys)
		return unsupported(a);
	return a->b->ops->keys(a->b, c, n, a->s->ctx.opt.keymap_delay_ms,
			       a->app->bus_name, NULL);
}

/*
 * Typing with key events into `focus` (may be NULL): when characters went
 * through spare keycodes, their mapping is restored only once the typed
 * text shows in the element (at most 2 s; decisions.md §5's bound):
 * toolkits translate a key with the mapping of the moment they process
 * it, and Chromium does so well after its accessibility answers.
 */
static cua_result
type_keys(struct cua_act *a, const struct cua_key_chord *c, size_t n,
	  struct cua_raw_node *focus, const char *typed)
{
	struct cua_live_call g = { .op = CUA_LIVE_GET_TEXT };
	int kept = 0, ok;
	cua_result r;

	if (!a->b->ops->keys || !a->b->ops->keys_restore)
		return unsupported(a);
	if (!focus || !(focus->ifaces & CUA_IFACE_TEXT) || strchr(typed, '\t') ||
	    strchr(typed, '\r') || strchr(typed, '\n'))
		return send_keys(a, c, n);
	r = a->b->ops->keys(a->b, c, n, a->s->ctx.opt.keymap_delay_ms,
			    a->app->bus_name, &kept);
	if (r != CUA_OK || !kept)
		return r;
	g.ident = focus->ident;
	for (int64_t t0 = cua_now_us(), wait = 2000;; wait = MIN(wait * 2, 50000)) {
		if (live(a, &g) == CUA_OK && g.ret_text && strstr(g.ret_text, typed))
			break;
		call_clear(&g);
		if (cua_now_us() - t0 >= POLL_MAX_US)
			break;
		usleep((useconds_t)wait);
	}
	call_clear(&g);
	(void)ok;
	return a->b->ops->keys_restore(a->b);
}

/* The focused element of the target window, live (§11.7). */
static struct cua_raw_node *
focused_element(struct cua_act *a, struct target_window *tw)
{
	struct cua_live_call c = { .op = CUA_LIVE_FOCUSED };
	struct cua_raw_node *n;
	const char *ident = NULL;
	char *found = NULL;

	if (tw->node) {
		c.ident = tw->node->ident;
		if (live(a, &c) == CUA_OK && c.ret_ident)
			found = c.ret_ident;
		c.ret_ident = NULL;
		call_clear(&c);
	}
	ident = found;
	if (!ident && a->t->focused >= 0 &&
	    a->t->elements[a->t->focused].skel >= 0)
		ident = a->t->skel[a->t->elements[a->t->focused].skel].ident;
	if (!ident)
		return NULL;
	n = cua_raw_node_new(tw->snap);
	if (!n) {
		free(found);
		return NULL;
	}
	n->ident = cua_arena_strdup(tw->snap->arena, ident);
	free(found);
	if (a->b->ops->read_nodes(a->b, tw->snap, &n, 1,
				  CUA_HAVE_ATTRIBUTES) != CUA_OK ||
	    !(n->have & CUA_HAVE_BASIC) || !CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return NULL;
	return n;
}

/*
 * Route 2 of §9: insert at the caret through EditableText. The text is
 * spliced into the element's text and set whole (InsertText's length
 * means bytes on GTK3, characters on Qt and nothing on GTK4,
 * ../desktop.md §4(c)), then the caret is put after the insertion.
 * *done = 1 when it worked; *changed = 1 when something else changed.
 */
static cua_result
editable_route(struct cua_act *a, struct cua_raw_node *n, const char *text,
	       int *done)
{
	struct cua_live_call g = { .op = CUA_LIVE_GET_TEXT, .ident = n->ident };
	struct cua_live_call sel = { .op = CUA_LIVE_GET_SELECTION,
				     .ident = n->ident };
	struct cua_live_call set = { .op = CUA_LIVE_SET_TEXT, .ident = n->ident };
	struct cua_live_call chk = { .op = CUA_LIVE_GET_TEXT, .ident = n->ident };
	struct strbuf sb = STRBUF_INIT;
	size_t len = utf8_chars(text), caret, start, end, bs, be;
	char *orig = NULL;
	int ok;
	cua_result r;

	*done = 0;
	r = ask_call(a, &g, &ok);
	if (r != CUA_OK || !ok || !g.ret_text)
		goto out;
	orig = g.ret_text;
	g.ret_text = NULL;
	caret = g.ret[1] >= 0 ? (size_t)g.ret[1] : utf8_chars(orig);
	start = end = caret;
	r = ask_call(a, &sel, &ok);
	if (r != CUA_OK)
		goto out;
	if (ok && sel.ret[0] > 0 && sel.ret[1] != sel.ret[2] && sel.ret[1] >= 0) {
		/* typing replaces the selection */
		start = (size_t)MIN(sel.ret[1], sel.ret[2]);
		end = (size_t)MAX(sel.ret[1], sel.ret[2]);
	}
	bs = utf8_byte_of(orig, start);
	be = utf8_byte_of(orig, end);
	sb_addn(&sb, orig, bs);
	sb_add(&sb, text);
	sb_add(&sb, orig + be);
	set.text = sb_str(&sb);
	r = ask_call(a, &set, &ok);
	if (r != CUA_OK || !ok)
		goto out;
	{
		int cok;

		r = ask(a, CUA_LIVE_SET_CARET, n->ident, (int32_t)(start + len), 0,
			0, &cok);
		if (r != CUA_OK)
			goto out;
	}
	/* verify: the text is there, at the insertion offset */
	r = ask_call(a, &chk, &ok);
	if (r != CUA_OK)
		goto out;
	if (ok && chk.ret_text && strcmp(chk.ret_text, sb_str(&sb)) == 0) {
		*done = 1;
	} else if (ok && chk.ret_text && strcmp(chk.ret_text, orig) != 0) {
		r = cua_act_failed("the focused text field changed, but not to "
				   "the expected text. Call get_app_state to "
				   "check it before typing again");
	}
out:
	call_clear(&g);
	call_clear(&sel);
	call_clear(&set);
	call_clear(&chk);
	free(orig);
	sb_free(&sb);
	return r;
}

static int
editable_applies(const struct cua_act *a, const struct cua_raw_node *n,
		 const char *text)
{
	if (!n || !(n->ifaces & CUA_IFACE_EDITABLE_TEXT) ||
	    !(n->ifaces & CUA_IFACE_TEXT) ||
	    !CUA_HAS_STATE(n, CUA_STATE_EDITABLE) ||
	    CUA_HAS_STATE(n, CUA_STATE_READ_ONLY))
		return 0;
	if (is_async_toolkit(a->app) || a->s->ctx.opt.type_text_keys)
		return 0;
	if ((strchr(text, '\n') || strchr(text, '\t') || strchr(text, '\r')) &&
	    !CUA_HAS_STATE(n, CUA_STATE_MULTI_LINE))
		return 0;
	return 1;
}

cua_result
cua_do_type_text(struct cua_session *s, const char *app, const char *text,
		 char **outcome)
{
	struct cua_act a;
	struct target_window tw = { 0 };
	struct cua_raw_node *f = NULL;
	struct cua_key_chord *chords = NULL;
	size_t n = 0;
	int done = 0;
	cua_result r;

	if (!text || !*text)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Missing required argument: text");
	r = cua_act_begin(&a, s, "type_text", app);
	if (r == CUA_OK && !a.app->bus_name)
		goto keys; /* no tree: keys only (decisions.md §7) */
	if (r == CUA_OK)
		r = find_target_window(&a, &tw);
	if (r != CUA_OK)
		goto out;
	f = focused_element(&a, &tw);
	if (editable_applies(&a, f, text)) {
		r = editable_route(&a, f, text, &done);
		if (r != CUA_OK)
			goto out;
		if (done) {
			cua_act_route(&a, "editable-text");
			goto out;
		}
	}
keys:
	if (r != CUA_OK)
		goto out;
	chords = cua_keys_from_text(text, &n);
	if (!chords) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	r = keyboard_ready(&a, tw.x11_window ? tw.x11_window : a.t->x11_window,
			   window_active(&tw));
	if (r == CUA_OK)
		r = type_keys(&a, chords, n, f, text);
	if (r == CUA_OK)
		cua_act_route(&a, "keys");
out:
	free(chords);
	cua_raw_snapshot_free(tw.snap);
	if (r == CUA_OK)
		json_object_set_new(a.outcome, "characters",
				    json_integer((json_int_t)utf8_chars(text)));
	return finish_act(&a, r, outcome);
}

cua_result
cua_do_press_key(struct cua_session *s, const char *app, const char *key,
		 char **outcome)
{
	struct cua_act a;
	struct target_window tw = { 0 };
	struct cua_key_seq seq = { NULL, 0 };
	cua_result r;

	if (!key || !*key)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Missing required argument: key");
	r = cua_act_begin(&a, s, "press_key", app);
	if (r != CUA_OK)
		goto out;
	/* the whole argument is parsed before anything is pressed */
	r = cua_keys_parse(key, 0, &seq);
	if (r != CUA_OK)
		goto out;
	if (a.app->bus_name) {
		r = find_target_window(&a, &tw);
		if (r != CUA_OK)
			goto out;
	}
	r = keyboard_ready(&a, tw.x11_window ? tw.x11_window : a.t->x11_window,
			   window_active(&tw));
	if (r == CUA_OK)
		r = send_keys(&a, seq.chords, seq.n);
	if (r == CUA_OK) {
		json_t *names = json_array();

		cua_act_route(&a, "keys");
		for (size_t i = 0; i < seq.n; i++)
			json_array_append_new(names,
				json_string(cua_keysym_name(seq.chords[i].keysym)));
		json_object_set_new(a.outcome, "keys", names);
	}
out:
	cua_keys_free(&seq);
	cua_raw_snapshot_free(tw.snap);
	return finish_act(&a, r, outcome);
}

/* ------------------------------------------------------------------ */
/* scroll (§5) and the scroll secondary actions (§8.2)                 */

enum dir { DIR_UP, DIR_DOWN, DIR_LEFT, DIR_RIGHT };

static int
parse_direction(const char *d, enum dir *out)
{
	static const struct {
		const char *a, *b;
		enum dir d;
	} map[] = {
		{ "up", "u", DIR_UP },
		{ "down", "d", DIR_DOWN },
		{ "left", "l", DIR_LEFT },
		{ "right", "r", DIR_RIGHT },
	};

	for (size_t i = 0; d && i < 4; i++)
		if (strcasecmp(d, map[i].a) == 0 || strcasecmp(d, map[i].b) == 0) {
			*out = map[i].d;
			return 1;
		}
	return 0;
}

static int
vertical(enum dir d)
{
	return d == DIR_UP || d == DIR_DOWN;
}

static int
scrollbar_axis_ok(const struct cua_raw_node *sb, enum dir d)
{
	if (sb->role != CUA_ROLE_SCROLL_BAR)
		return 0;
	if (CUA_HAS_STATE(sb, CUA_STATE_VERTICAL))
		return vertical(d);
	if (CUA_HAS_STATE(sb, CUA_STATE_HORIZONTAL))
		return !vertical(d);
	if (has_extent(sb))
		return vertical(d) ? sb->extents.h > sb->extents.w :
				     sb->extents.w > sb->extents.h;
	return 0;
}

static int
value_settable(const struct cua_raw_node *n)
{
	return (n->ifaces & CUA_IFACE_VALUE) && (n->have & CUA_HAVE_VALUE) &&
	       n->value_max > n->value_min &&
	       !CUA_HAS_STATE(n, CUA_STATE_READ_ONLY);
}

/* A scroll bar's settable value: its own, or (GTK 4) a child's. */
static cua_result
scrollbar_value(struct cua_act *a, struct cua_located *loc,
		struct cua_raw_node *sb, struct cua_raw_node **out)
{
	cua_result r;

	*out = NULL;
	if (value_settable(sb)) {
		*out = sb;
		return CUA_OK;
	}
	if (sb->child_count <= 0 || sb->child_count > 8)
		return CUA_OK;
	r = a->b->ops->read_children(a->b, loc->snap, &sb, 1, 0, UINT32_MAX,
				     CUA_HAVE_VALUE);
	if (r != CUA_OK)
		return r;
	for (size_t k = 0; k < sb->n_children; k++)
		if ((sb->children[k]->have & CUA_HAVE_BASIC) &&
		    value_settable(sb->children[k])) {
			*out = sb->children[k];
			break;
		}
	return CUA_OK;
}

/* The scroll bar of an axis (§5.2): the node itself, a scroll-bar child
 * of it or of its nearest scroll pane (ancestor-or-self), or one of its
 * siblings (GTK 4 does not mark its scrolled windows as scroll panes). */
static cua_result
find_scrollbar(struct cua_act *a, struct cua_located *loc, enum dir d,
	       struct cua_raw_node **out)
{
	struct cua_raw_node *cands[3] = { loc->node, NULL, NULL };
	cua_result r;

	*out = NULL;
	if (scrollbar_axis_ok(loc->node, d))
		return scrollbar_value(a, loc, loc->node, out);
	for (struct cua_raw_node *p = loc->node; p; p = p->parent)
		if (p->role == CUA_ROLE_SCROLL_PANE) {
			if (p != loc->node)
				cands[1] = p;
			break;
		}
	if (!cands[1] && loc->node->parent && loc->node->parent != loc->window)
		cands[2] = loc->node->parent;
	for (int i = 0; i < 3; i++) {
		struct cua_raw_node *c = cands[i];

		if (!c || !(c->have & CUA_HAVE_BASIC) || c->child_count <= 0 ||
		    c->child_count > 64)
			continue;
		r = a->b->ops->read_children(a->b, loc->snap, &c, 1, 0, UINT32_MAX,
					     CUA_HAVE_VALUE | CUA_HAVE_EXTENTS);
		if (r != CUA_OK)
			return r;
		for (size_t k = 0; k < c->n_children; k++) {
			struct cua_raw_node *sb = c->children[k];

			if (!(sb->have & CUA_HAVE_BASIC) || !scrollbar_axis_ok(sb, d))
				continue;
			r = scrollbar_value(a, loc, sb, out);
			if (r != CUA_OK || *out)
				return r;
		}
	}
	return CUA_OK;
}

static double
wheel_step(const struct cua_app_info *app, double extent)
{
	if (is_gtk(app))
		return pow(extent > 1 ? extent : 1, 2.0 / 3.0);
	if (is_qt(app))
		return 60;
	if (app->toolkit && (strcasestr(app->toolkit, "chrom") ||
			     strcasestr(app->toolkit, "electron")))
		return 120;
	if (app->toolkit && (strcasestr(app->toolkit, "gecko") ||
			     strcasestr(app->toolkit, "mozilla")))
		return 57;
	return 50;
}

/*
 * Scrolls `distance` points in direction `d`: the Value route on the
 * axis' scroll bar, else the wheel at the node's centre (§5.2). Reports
 * pages applied relative to `page`.
 */
static cua_result
scroll_by(struct cua_act *a, struct cua_located *loc, enum dir d,
	  double distance, double page)
{
	struct cua_raw_node *sb, *n = loc->node;
	int sign = (d == DIR_DOWN || d == DIR_RIGHT) ? 1 : -1;
	cua_result r;

	/* Qt's text editors count their scroll bar in lines, not points:
	 * the wheel (Qt's calibrated step) is closer than a Value guess */
	if (is_qt(a->app) && CUA_HAS_STATE(n, CUA_STATE_MULTI_LINE) &&
	    (n->ifaces & CUA_IFACE_TEXT)) {
		sb = NULL;
	} else {
		r = find_scrollbar(a, loc, d, &sb);
		if (r != CUA_OK)
			return r;
	}
	if (sb) {
		double cur = sb->value, nv, upp = 1;
		struct cua_live_call c = { .op = CUA_LIVE_SET_VALUE,
					   .ident = sb->ident };
		int ok;

		/* Qt item views scroll per item: the range is the row count */
		if (is_qt(a->app) && n->role != CUA_ROLE_SCROLL_BAR &&
		    sb->value_max - sb->value_min < 1000 && has_extent(n) &&
		    (sb->value_max - sb->value_min) < (vertical(d) ? n->extents.h :
								      n->extents.w) / 8.0) {
			for (size_t k = 0; k < n->n_children; k++)
				if (has_extent(n->children[k])) {
					upp = 1.0 / (vertical(d) ?
						     n->children[k]->extents.h :
						     n->children[k]->extents.w);
					break;
				}
		}
		nv = cur + sign * distance * upp;
		if (nv < sb->value_min)
			nv = sb->value_min;
		if (nv > sb->value_max)
			nv = sb->value_max;
		if (fabs(nv - cur) < 1e-9) {
			json_object_set_new(a->outcome, "at_limit", json_true());
			json_object_set_new(a->outcome, "pages_applied",
					    json_real(0));
			cua_act_route(a, "value");
			return CUA_OK;
		}
		c.v = nv;
		r = ask_call(a, &c, &ok);
		call_clear(&c);
		if (r != CUA_OK)
			return r;
		if (ok) {
			json_object_set_new(a->outcome, "at_limit",
					    json_boolean(nv == sb->value_min ||
							 nv == sb->value_max));
			json_object_set_new(a->outcome, "pages_applied",
					    json_real(page > 0 ?
							      fabs(nv - cur) / upp / page :
							      0));
			json_object_set_new(a->outcome, "scroll_value",
					    json_pack("{s:f,s:f}", "before", cur,
						      "requested", nv));
			cua_act_route(a, "value");
			return CUA_OK;
		}
		/* the set was refused: the wheel route */
	}
	if (has_extent(n) && loc->x11_window) {
		struct cua_win win;
		struct cua_pointer_event ev[1 + 2 * 500];
		int32_t rx, ry;
		double step = wheel_step(a->app, vertical(d) ? n->extents.h :
							       n->extents.w);
		long clicks = lround(distance / step);
		uint32_t button = d == DIR_UP ? 4 : d == DIR_DOWN ? 5 :
				  d == DIR_LEFT ? 6 : 7;
		size_t k = 0;

		if (clicks < 1)
			clicks = 1;
		if (clicks > 500)
			clicks = 500;
		if (center_root(a, loc, n, &rx, &ry, &win) < 0)
			return window_unavailable(a, UNAV_HIDDEN);
		r = point_ok(a, loc->x11_window, rx, ry, rx - win.frame.x,
			     ry - win.frame.y);
		if (r != CUA_OK)
			return r;
		ev[k++] = (struct cua_pointer_event){ CUA_POINTER_MOVE, rx, ry, 0 };
		for (long i = 0; i < clicks; i++) {
			ev[k++] = (struct cua_pointer_event){ CUA_POINTER_PRESS, 0,
							      0, button };
			ev[k++] = (struct cua_pointer_event){ CUA_POINTER_RELEASE,
							      0, 0, button };
		}
		r = send_pointer(a, ev, k);
		if (r != CUA_OK)
			return r;
		json_object_set_new(a->outcome, "wheel_clicks", json_integer(clicks));
		json_object_set_new(a->outcome, "pages_applied",
				    json_real(page > 0 ? clicks * step / page : 0));
		cua_act_route(a, "wheel");
		return CUA_OK;
	}
	return cua_act_failed("element %u (%s) cannot be scrolled: it has no "
			      "scroll bar and is not visible on screen.",
			      a->element, loc->element->role_text);
}

/* The direction and pages of a scroll (tools.md §2.2, §2.4). */
static cua_result
check_scroll_args(const char *direction, double pages, enum dir *d)
{
	cua_result r;

	if (!direction || !*direction)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Missing required argument: direction");
	if (!parse_direction(direction, d)) {
		struct strbuf sb = STRBUF_INIT;

		sb_add(&sb, "Invalid scroll direction: ");
		cua_add_truncated(&sb, direction, 32);
		sb_add(&sb, " Use up, down, left or right.");
		r = cua_error(CUA_ERROR_INVALID_ARGUMENT, "%s", sb_str(&sb));
		sb_free(&sb);
		return r;
	}
	if (!isfinite(pages) || pages <= 0)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT, "pages must be > 0");
	return CUA_OK;
}

cua_result
cua_do_scroll(struct cua_session *s, const char *app, uint32_t id,
	      const char *direction, double pages, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	enum dir d;
	double extent;
	cua_result r;

	r = check_scroll_args(direction, pages, &d);
	if (r != CUA_OK)
		return r;
	r = cua_act_begin(&a, s, "scroll", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CUA_HAVE_EXTENTS | CUA_HAVE_VALUE, &loc);
	if (r != CUA_OK)
		goto out;
	extent = vertical(d) ? loc.node->extents.h : loc.node->extents.w;
	if (!has_extent(loc.node)) {
		r = cua_act_failed("element %u (%s) cannot be scrolled: it has "
				   "no size on screen.",
				   id, loc.element->role_text);
		goto out;
	}
	/* pages × the element's height (width), rounded to whole points */
	r = scroll_by(&a, &loc, d, round(pages * extent), extent);
	json_object_set_new(a.outcome, "pages", json_real(pages));
	json_object_set_new(a.outcome, "direction",
			    json_string(d == DIR_UP ? "up" : d == DIR_DOWN ? "down" :
					d == DIR_LEFT ? "left" : "right"));
out:
	cua_located_clear(&loc);
	return finish_act(&a, r, outcome);
}

/*
 * Scroll at screenshot pixel (x, y) (README deviation D18; actions.md
 * §5.3): the distance comes from the window's extent, the checks are
 * those of any coordinate action (§2.2), and the wheel turns at the
 * point. The Value route through a hit-tested scroll pane is not taken:
 * the wheel reaches whatever scrolls under the point, as for a person.
 */
cua_result
cua_do_scroll_at(struct cua_session *s, const char *app, double x, double y,
		 const char *direction, double pages, char **outcome)
{
	struct cua_act a;
	struct cua_shot_geom g;
	struct cua_pointer_event ev[1 + 2 * 500];
	int32_t rx, ry;
	enum dir d;
	double extent, step;
	long clicks;
	uint32_t button;
	size_t k = 0;
	cua_result r;

	r = check_scroll_args(direction, pages, &d);
	if (r != CUA_OK)
		return r;
	if (!isfinite(x) || !isfinite(y))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Invalid arguments for scroll: 'x' must be a number.");
	r = cua_act_begin(&a, s, "scroll", app);
	if (r == CUA_OK)
		r = shot_geometry(&a, &g);
	if (r == CUA_OK)
		r = map_pixel(&a, &g, x, y, &rx, &ry);
	if (r == CUA_OK)
		r = point_ok(&a, g.x11_window, rx, ry, x, y);
	if (r != CUA_OK)
		return finish_act(&a, r, outcome);
	/* pages × the window's height (width), in points */
	extent = (vertical(d) ? g.frame.h : g.frame.w) / g.device_ppp;
	step = wheel_step(a.app, extent);
	clicks = lround(round(pages * extent) / step);
	if (clicks < 1)
		clicks = 1;
	if (clicks > 500)
		clicks = 500;
	button = d == DIR_UP ? 4 : d == DIR_DOWN ? 5 : d == DIR_LEFT ? 6 : 7;
	ev[k++] = (struct cua_pointer_event){ CUA_POINTER_MOVE, rx, ry, 0 };
	for (long i = 0; i < clicks; i++) {
		ev[k++] = (struct cua_pointer_event){ CUA_POINTER_PRESS, 0, 0,
						      button };
		ev[k++] = (struct cua_pointer_event){ CUA_POINTER_RELEASE, 0, 0,
						      button };
	}
	r = send_pointer(&a, ev, k);
	if (r == CUA_OK) {
		cua_act_route(&a, "wheel");
		json_object_set_new(a.outcome, "wheel_clicks", json_integer(clicks));
		json_object_set_new(a.outcome, "pages", json_real(pages));
		json_object_set_new(a.outcome, "pages_applied",
				    json_real(extent > 0 ? clicks * step / extent : 0));
		json_object_set_new(a.outcome, "direction",
				    json_string(d == DIR_UP ? "up" :
						d == DIR_DOWN ? "down" :
						d == DIR_LEFT ? "left" : "right"));
		json_object_set_new(a.outcome, "point",
				    json_pack("{s:f,s:f,s:i,s:i}", "x", x, "y", y,
					      "root_x", rx, "root_y", ry));
	}
	return finish_act(&a, r, outcome);
}

/* ------------------------------------------------------------------ */
/* perform_secondary_action (§8)                                       */

static int
match_action(const struct cua_element *e, const struct cua_raw_node *n,
	     const char *want)
{
	char nw[128], nr[128];
	size_t i;

	for (i = 0; i < e->n_actions; i++)
		if (strcmp(e->actions[i], want) == 0)
			return (int)i;
	for (i = 0; i < e->n_actions; i++)
		if (strcasecmp(e->actions[i], want) == 0)
			return (int)i;
	cua_action_normalise(nw, sizeof(nw), want);
	for (i = 0; i < e->n_actions; i++) {
		if (!e->raw_actions[i])
			continue;
		cua_action_normalise(nr, sizeof(nr), e->raw_actions[i]);
		if (strcmp(nr, nw) == 0)
			return (int)i;
		for (size_t k = 0; k < n->n_actions; k++)
			if (n->actions[k].name &&
			    strcmp(n->actions[k].name, e->raw_actions[i]) == 0 &&
			    n->actions[k].localized) {
				cua_action_normalise(nr, sizeof(nr),
						     n->actions[k].localized);
				if (strcmp(nr, nw) == 0)
					return (int)i;
			}
	}
	return -1;
}

static cua_result
bad_secondary(const struct cua_element *e, const char *action, uint32_t id)
{
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	cua_add_truncated(&sb, action, 64);
	sb_addf(&sb, " is not a valid secondary action for %u", id);
	if (!e->n_actions) {
		sb_add(&sb, ". It has no secondary actions.");
	} else {
		sb_add(&sb, ". Its secondary actions are: ");
		for (size_t i = 0; i < e->n_actions; i++) {
			if (i)
				sb_add(&sb, ", ");
			sb_add(&sb, e->actions[i]);
		}
		sb_add(&sb, ".");
	}
	r = cua_error(CUA_ERROR_INVALID_ARGUMENT, "%s", sb_str(&sb));
	sb_free(&sb);
	return r;
}

/* Expand / Collapse (§8.2): GTK3 synthetic rows use their first cell's
 * `expand or contract` action, others their primary action; then the
 * EXPANDED state must have changed. */
static cua_result
expand_collapse(struct cua_act *a, struct cua_located *loc, int expand)
{
	static const char *const verbs[] = { "expandorcontract",
					     "expandorcollapse",
					     "toggleexpanded", NULL };
	struct cua_raw_node *n = loc->node;
	const char *raw = NULL;
	int was = (int)CUA_HAS_STATE(n, CUA_STATE_EXPANDED), i, ok;
	cua_result r;

	if (was == expand) {
		cua_act_route(a, "action:none");
		json_object_set_new(a->outcome, "already", json_true());
		return CUA_OK;
	}
	i = find_action(n, verbs, &raw);
	if (i < 0) {
		static const char *const ec[] = { "expand", "collapse", NULL };

		i = find_action(n, ec, &raw);
		if (i >= 0) {
			char norm[32];

			cua_action_normalise(norm, sizeof(norm), raw);
			if (strcmp(norm, expand ? "expand" : "collapse") != 0)
				i = -1;
		}
	}
	if (i < 0)
		i = primary_action(n, &raw);
	if (i < 0)
		return cua_act_failed("element %u (%s) has no action that "
				      "expands or collapses it",
				      a->element, loc->element->role_text);
	r = do_action(a, n->ident, i, &ok);
	if (r != CUA_OK)
		return r;
	if (!ok)
		return cua_act_failed("the %s action of element %u failed. Call "
				      "get_app_state to check it",
				      expand ? "Expand" : "Collapse", a->element);
	cua_act_route(a, "action:%s", raw);
	if (is_async_toolkit(a->app))
		return CUA_OK;
	for (int64_t t0 = cua_now_us(); cua_now_us() - t0 < 500000;) {
		r = reread(a, loc, n, 0);
		if (r != CUA_OK)
			return r;
		if ((int)CUA_HAS_STATE(n, CUA_STATE_EXPANDED) == expand)
			return CUA_OK;
		usleep(10000);
	}
	return cua_act_failed("element %u did not %s. Call get_app_state to "
			      "check it",
			      a->element, expand ? "expand" : "collapse");
}

cua_result
cua_do_perform_action(struct cua_session *s, const char *app, uint32_t id,
		      const char *action, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	const struct cua_element *e;
	char want[256];
	const char *raw;
	int k, ok, confirmed;
	size_t len;
	cua_result r;

	if (!action)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Missing required argument: action");
	while (isspace((unsigned char)*action))
		action++;
	len = strlen(action);
	while (len && isspace((unsigned char)action[len - 1]))
		len--;
	if (!len)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Missing required argument: action");
	snprintf(want, sizeof(want), "%.*s", (int)MIN(len, sizeof(want) - 1),
		 action);
	r = cua_act_begin(&a, s, "perform_secondary_action", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CUA_HAVE_ACTIONS | CUA_HAVE_EXTENTS |
					     CUA_HAVE_VALUE, &loc);
	if (r != CUA_OK)
		goto out;
	e = loc.element;
	k = match_action(e, loc.node, want);
	if (k < 0) {
		r = bad_secondary(e, want, id);
		goto out;
	}
	raw = e->raw_actions[k];
	json_object_set_new(a.outcome, "action", json_string(e->actions[k]));
	if (raw) {
		int idx = -1;

		for (size_t i = 0; i < loc.node->n_actions; i++)
			if (loc.node->actions[i].name &&
			    strcmp(loc.node->actions[i].name, raw) == 0) {
				idx = (int)i;
				break;
			}
		if (idx < 0) {
			r = cua_act_failed("element %u no longer offers '%s'. "
					   "Call get_app_state to see its current "
					   "actions",
					   id, e->actions[k]);
			goto out;
		}
		r = do_action(&a, loc.node->ident, idx, &ok);
		if (r == CUA_OK && !ok)
			r = cua_act_failed("the action '%s' of element %u failed. "
					   "Call get_app_state to check the app "
					   "before trying again",
					   e->actions[k], id);
		if (r == CUA_OK)
			cua_act_route(&a, "action:%s", raw);
		goto out;
	}
	if (strcmp(e->actions[k], "Raise") == 0) {
		r = CUA_ERROR_UNSUPPORTED;
		if (loc.x11_window && a.b->ops->activate_window)
			r = a.b->ops->activate_window(a.b, loc.x11_window,
						      s->ctx.opt.focus_timeout_ms,
						      &confirmed);
		if (r != CUA_OK || !confirmed)
			r = cua_act_failed("the window of '%s' did not come to the "
					   "front. Ask the user to bring it to "
					   "the front",
					   cua_act_app_name(&a));
		else
			cua_act_route(&a, "raise");
	} else if (strncmp(e->actions[k], "Scroll ", 7) == 0) {
		enum dir d;
		double page;

		parse_direction(e->actions[k] + 7, &d);
		page = vertical(d) ? loc.node->extents.h : loc.node->extents.w;
		if (!has_extent(loc.node)) {
			r = cua_act_failed("element %u (%s) cannot be scrolled: it "
					   "has no size on screen.",
					   id, e->role_text);
			goto out;
		}
		/* one page: the scroll area's visible extent (§8.2) */
		r = scroll_by(&a, &loc, d, page, page);
	} else if (strcmp(e->actions[k], "Expand") == 0 ||
		   strcmp(e->actions[k], "Collapse") == 0) {
		r = expand_collapse(&a, &loc, strcmp(e->actions[k], "Expand") == 0);
	} else {
		r = bad_secondary(e, want, id);
	}
out:
	cua_located_clear(&loc);
	return finish_act(&a, r, outcome);
}

/* ------------------------------------------------------------------ */
/* select_text (§10)                                                   */

/* The rendered text of a text element with, per rendered byte, the
 * character offset it came from (state-text.md §5 per character). */
struct rendered {
	struct strbuf sb;
	int32_t *map;  /* map[i]: character offset of rendered byte i */
	int32_t *end;  /* end[i]: offset just after that character */
	size_t cap;
};

static int
rmap_push(struct rendered *rt, const char *s, size_t n, int32_t off,
	  int32_t off_end)
{
	if (rt->sb.len + n + 1 > rt->cap) {
		size_t cap = (rt->sb.len + n + 1) * 2;
		int32_t *m = realloc(rt->map, cap * sizeof(*m));
		int32_t *e;

		if (!m)
			return -1;
		rt->map = m;
		e = realloc(rt->end, cap * sizeof(*e));
		if (!e)
			return -1;
		rt->end = e;
		rt->cap = cap;
	}
	for (size_t i = 0; i < n; i++) {
		rt->map[rt->sb.len + i] = off;
		rt->end[rt->sb.len + i] = off_end;
	}
	sb_addn(&rt->sb, s, n);
	return rt->sb.oom ? -1 : 0;
}

static int
is_envelope_lt(const char *p)
{
	static const char *const tags[] = {
		"app_state", "/app_state", "app_specific_instructions",
		"/app_specific_instructions", NULL,
	};

	for (size_t i = 0; tags[i]; i++)
		if (strncasecmp(p, tags[i], strlen(tags[i])) == 0)
			return 1;
	return 0;
}

static cua_result
render_text(struct cua_act *a, struct cua_located *loc, const char *text,
	    struct rendered *rt)
{
	const char *p = text;
	int32_t off = 0;
	size_t embedded = 0;
	int children_read = 0;

	memset(rt, 0, sizeof(*rt));
	while (*p) {
		const char *q = p;
		uint32_t cp = utf8_next(&p);
		int r = 0;

		if (cp == '\r' && *p == '\n') {
			p++;
			r = rmap_push(rt, "\\n", 2, off, off + 2);
			off += 2;
			continue;
		}
		if (cp == '\n' || cp == '\r' || cp == 0x2028 || cp == 0x2029 ||
		    cp == 0x85) {
			r = rmap_push(rt, "\\n", 2, off, off + 1);
		} else if (cp == '\t' || cp == 0x0b || cp == 0x0c) {
			r = rmap_push(rt, " ", 1, off, off + 1);
		} else if (cp == 0xfffc) {
			/* an embedded object: its text, links as Markdown */
			struct cua_raw_node *n = loc->node;

			if (!children_read && n->child_count > 0) {
				children_read = 1;
				if (a->b->ops->read_children(a->b, loc->snap, &n, 1, 0,
							     256, CUA_HAVE_TEXT) != CUA_OK)
					n->n_children = 0;
			}
			if (embedded < n->n_children) {
				struct cua_raw_node *c = n->children[embedded];
				struct strbuf e = STRBUF_INIT;
				const char *t = c->name && *c->name ? c->name :
						c->text ? c->text : "";

				if (c->role == CUA_ROLE_LINK) {
					sb_add(&e, "[");
					cua_sanitize_sb(&e, t);
					sb_add(&e, "](");
					/* the URL is not read here; links are
					 * selected by their text */
					sb_add(&e, ")");
				} else {
					cua_sanitize_sb(&e, t);
				}
				r = rmap_push(rt, sb_str(&e), e.len, off, off + 1);
				sb_free(&e);
			}
			embedded++;
		} else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			   (cp >= 0x202a && cp <= 0x202e) ||
			   (cp >= 0x2066 && cp <= 0x2069)) {
			/* removed */
		} else if (cp == '<' && is_envelope_lt(p)) {
			r = rmap_push(rt, "\xe2\x80\xb9", 3, off, off + 1);
		} else {
			r = rmap_push(rt, q, (size_t)(p - q), off, off + 1);
		}
		if (r < 0)
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		off++;
	}
	if (rmap_push(rt, "", 0, off, off) < 0)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	return CUA_OK;
}

static void
rendered_free(struct rendered *rt)
{
	sb_free(&rt->sb);
	free(rt->map);
	free(rt->end);
}

cua_result
cua_do_select_text(struct cua_session *s, const char *app, uint32_t id,
		   const char *text, const char *prefix, const char *suffix,
		   uint32_t mode, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	struct cua_live_call g = { .op = CUA_LIVE_GET_TEXT };
	struct rendered rt = { STRBUF_INIT, NULL, NULL, 0 };
	struct cua_raw_node *n;
	const char *hay, *hit = NULL, *p;
	size_t tl, pl, xl, matches = 0, bs, be;
	int32_t start, end;
	int ok;
	cua_result r;

	if (!text || !*text)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Missing required argument: text");
	if (mode > CUA_SELECTION_CURSOR_AFTER)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "Invalid text selection mode: %u Use text, cursor_before or cursor_after.",
				 mode);
	r = cua_act_begin(&a, s, "select_text", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CUA_HAVE_TEXT_SELECTION, &loc);
	if (r != CUA_OK)
		goto out;
	n = loc.node;
	if (!(n->ifaces & CUA_IFACE_TEXT)) {
		struct strbuf sb = STRBUF_INIT;

		sb_addf(&sb, "Cannot select text for an element that does not "
			     "support a settable selected text range. Element %u "
			     "is a ", id);
		cua_sanitize_sb(&sb, *loc.element->role_text ?
				loc.element->role_text : "element");
		sb_add(&sb, ".");
		r = cua_error(CUA_ERROR_UNSUPPORTED, "%s", sb_str(&sb));
		sb_free(&sb);
		goto out;
	}
	g.ident = n->ident;
	r = ask_call(&a, &g, &ok);
	if (r != CUA_OK)
		goto out;
	r = render_text(&a, &loc, ok && g.ret_text ? g.ret_text : "", &rt);
	if (r != CUA_OK)
		goto out;
	hay = sb_str(&rt.sb);
	tl = strlen(text);
	pl = prefix ? strlen(prefix) : 0;
	xl = suffix ? strlen(suffix) : 0;
	for (p = hay; (p = strstr(p, text)); p++) {
		size_t at = (size_t)(p - hay);

		if (pl && (at < pl || strncmp(hay + at - pl, prefix, pl) != 0))
			continue;
		if (xl && strncmp(p + tl, suffix, xl) != 0)
			continue;
		matches++;
		if (!hit)
			hit = p;
	}
	if (!matches) {
		struct strbuf sb = STRBUF_INIT;

		sb_addf(&sb, "Could not find the requested text to select in the "
			     "element. Copy the text exactly as element %u shows "
			     "it in the latest get_app_state, including Markdown.",
			id);
		r = cua_error(CUA_ERROR_INVALID_ARGUMENT, "%s", sb_str(&sb));
		sb_free(&sb);
		goto out;
	}
	if (matches > 1) {
		struct strbuf sb = STRBUF_INIT;

		sb_add(&sb, "Text '");
		cua_add_truncated(&sb, text, 64);
		sb_addf(&sb, "' occurs %zu times in element %u. Add prefix or "
			     "suffix text to choose one.", matches, id);
		r = cua_error(CUA_ERROR_INVALID_ARGUMENT, "%s", sb_str(&sb));
		sb_free(&sb);
		goto out;
	}
	/* rendered bytes -> character offsets; a boundary inside markup
	 * snaps outward to the whole embedded object */
	bs = (size_t)(hit - hay);
	be = bs + tl;
	start = rt.map[bs];
	end = be > bs ? rt.end[be - 1] : start;
	/* focus it first, so a following type_text lands here (§10 step 5) */
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSABLE) &&
	    !CUA_HAS_STATE(n, CUA_STATE_FOCUSED)) {
		r = ask(&a, CUA_LIVE_GRAB_FOCUS, n->ident, 0, 0, 0, &ok);
		if (r != CUA_OK)
			goto out;
		r = reread(&a, &loc, n, CUA_HAVE_EXTENTS);
		if (r != CUA_OK)
			goto out;
		if (!CUA_HAS_STATE(n, CUA_STATE_FOCUSED) && has_extent(n)) {
			/* GTK 4.8: GrabFocus fails; a click focuses */
			r = synthetic_click(&a, &loc, n, 1, 1);
			if (r != CUA_OK)
				goto out;
		}
	}
	if (mode == CUA_SELECTION_TEXT) {
		struct cua_live_call sel = { .op = CUA_LIVE_GET_SELECTION,
					     .ident = n->ident };

		r = ask_call(&a, &sel, &ok);
		call_clear(&sel);
		if (r != CUA_OK)
			goto out;
		if (ok && sel.ret[0] > 0)
			r = ask(&a, CUA_LIVE_SET_SELECTION, n->ident, 0, start, end,
				&ok);
		else
			r = ask(&a, CUA_LIVE_ADD_SELECTION, n->ident, start, end, 0,
				&ok);
	} else {
		r = ask(&a, CUA_LIVE_SET_CARET, n->ident,
			mode == CUA_SELECTION_CURSOR_BEFORE ? start : end, 0, 0,
			&ok);
	}
	if (r != CUA_OK)
		goto out;
	/* verify by reading it back */
	{
		struct cua_live_call v = { .op = mode == CUA_SELECTION_TEXT ?
							 CUA_LIVE_GET_SELECTION :
							 CUA_LIVE_GET_TEXT,
					   .ident = n->ident };
		int vok, good = 0;

		for (int64_t t0 = cua_now_us();;) {
			r = ask_call(&a, &v, &vok);
			if (r != CUA_OK)
				break;
			if (mode == CUA_SELECTION_TEXT)
				good = vok && v.ret[0] > 0 &&
				       MIN(v.ret[1], v.ret[2]) == start &&
				       MAX(v.ret[1], v.ret[2]) == end;
			else
				good = vok && v.ret[1] ==
						      (mode == CUA_SELECTION_CURSOR_BEFORE ?
							       start : end);
			call_clear(&v);
			if (good || !is_async_toolkit(a.app) ||
			    cua_now_us() - t0 >= POLL_MAX_US)
				break;
			usleep(20000);
		}
		call_clear(&v);
		if (r != CUA_OK)
			goto out;
		if (!good) {
			r = cua_act_failed("element %u did not take the %s. Call "
					   "get_app_state to check it",
					   id, mode == CUA_SELECTION_TEXT ?
						       "text selection" :
						       "cursor position");
			goto out;
		}
	}
	cua_act_route(&a, "text-selection");
	json_object_set_new(a.outcome, "range",
			    json_pack("[i,i]", (int)start, (int)end));
out:
	call_clear(&g);
	rendered_free(&rt);
	cua_located_clear(&loc);
	return finish_act(&a, r, outcome);
}
