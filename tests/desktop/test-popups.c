/*
 * What the screenshot shows beyond the window's own pixels, and apps
 * without a tree (docs/screenshots.md §1, docs/safety.md §7):
 *  - an open GTK 3 combo drop-down (gtk3-widget-factory) and an open menu
 *    with its submenu (the GTK 3 fixture) are in the screenshot where the
 *    screen shows them, read back against the X server's own picture of
 *    the screen, and a click at the screenshot pixel of one of their
 *    items chooses that item, read back through the accessibility tree;
 *  - a GTK 3 app started without its accessibility bridge is observed as
 *    its one-line window with the `Accessibility unavailable:` note and a
 *    real screenshot, and a click at a pixel and a key reach it;
 *  - an X Toolkit app (xcalc: no _NET_WM_PID, no accessibility bridge) is
 *    listed under its pid from the first observation on, without the
 *    "call again" wait, with the note that its toolkit has none.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "common.h"
#include "covers.h"

/* ------------------------------------------------------------------ */
/* Pixels                                                              */

/* The screenshot of `t`, decoded; its pixels per point must be 1 (the
 * windows here are smaller than the screenshot's size limit). */
static void
shot_of(cua_tree *t, struct img *im)
{
	assert_true(shot_decode(t, im) == 1.0);
}

/* The root position of the screenshot's pixel (0, 0): the window frame
 * of the observation's structured form. */
static void
shot_origin(cua_tree *t, int *x, int *y)
{
	char *js = NULL;
	json_t *j, *f;

	assert_int_equal(cua_tree_to_json(t, 0, &js), CUA_OK);
	j = json_loads(js, 0, NULL);
	cua_free(js);
	f = json_object_get(json_object_get(j, "window"), "frame");
	assert_non_null(f);
	*x = (int)json_integer_value(json_object_get(f, "x"));
	*y = (int)json_integer_value(json_object_get(f, "y"));
	json_decref(j);
}

/* The screen's pixels (root window, as the X server shows them) of
 * (x, y, w, h) as RGB rows; malloc'd. */
static unsigned char *
screen_rgb(int x, int y, int w, int h)
{
	Display *dpy = XOpenDisplay(NULL);
	unsigned char *out, *p;
	XImage *im;

	assert_non_null(dpy);
	im = XGetImage(dpy, DefaultRootWindow(dpy), x, y, (unsigned)w,
		       (unsigned)h, AllPlanes, ZPixmap);
	assert_non_null(im);
	out = p = malloc((size_t)w * h * 3);
	assert_non_null(out);
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++) {
			unsigned long v = XGetPixel(im, i, j);

			*p++ = (unsigned char)((v & im->red_mask) >> 16);
			*p++ = (unsigned char)((v & im->green_mask) >> 8);
			*p++ = (unsigned char)(v & im->blue_mask);
		}
	XDestroyImage(im);
	XCloseDisplay(dpy);
	return out;
}

/* Mean difference per channel between the screenshot `im` over the
 * element's frame (less a 2-point margin) and the screen there. */
static double
diff_to_screen(cua_tree *t, cua_element *e, const struct img *im)
{
	int32_t ex, ey, ew, eh;
	int ox, oy;
	unsigned char *scr;
	double sum = 0;

	assert_true(cua_element_get_frame(e, &ex, &ey, &ew, &eh));
	ex += 2;
	ey += 2;
	ew -= 4;
	eh -= 4;
	assert_true(ew > 4 && eh > 4 && ex >= 0 && ey >= 0 &&
		    ex + ew <= im->w && ey + eh <= im->h);
	shot_origin(t, &ox, &oy);
	scr = screen_rgb(ox + ex, oy + ey, ew, eh);
	for (int j = 0; j < eh; j++)
		for (int i = 0; i < ew * 3; i++)
			sum += abs((int)im->px[((size_t)(ey + j) * im->w + ex) *
						       3 +
					       i] -
				   (int)scr[(size_t)j * ew * 3 + i]);
	free(scr);
	return sum / ((double)ew * eh * 3);
}

/* The popup item `e` of `t` is in t's screenshot as on the screen, and
 * `before` (the screenshot before it opened) differs there: what shows
 * is the popup, not the window's own pixels. */
static void
assert_popup_shown(cua_tree *t, cua_element *e, cua_tree *before)
{
	struct img now, then;
	double d_now, d_then;

	shot_of(t, &now);
	shot_of(before, &then);
	assert_int_equal(now.w, then.w);
	assert_int_equal(now.h, then.h);
	d_now = diff_to_screen(t, e, &now);
	d_then = diff_to_screen(t, e, &then);
	fprintf(stderr, "# %s: %.1f from the screen, %.1f before it opened\n",
		cua_element_get_title(e), d_now, d_then);
	/* JPEG at quality 80 stays within a few levels on flat menus */
	if (d_now > 8 || d_then < 3 * d_now + 8)
		fail_msg("'%s' is not in the screenshot: %.1f from the screen "
			 "(%.1f before it opened)",
			 cua_element_get_title(e), d_now, d_then);
	free(now.px);
	free(then.px);
}

/* A click at the screenshot pixel of e's centre. */
static void
click_at_element(const char *app, cua_element *e)
{
	int32_t x, y, w, h;
	char *outcome = NULL;

	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	ACT(cua_session_click_at(session, app, x + w / 2.0, y + h / 2.0,
				 CUA_BUTTON_LEFT, 1, &outcome));
	assert_route("click_at", outcome, "synthetic");
	cua_free(outcome);
}

/* An element with this role and title that has a frame on screen. */
static int
has_framed(cua_tree *t, void *data)
{
	const char *const *rt = data;
	cua_element *e = find_element(t, rt[0], rt[1]);
	int32_t x, y, w, h;

	return e && cua_element_get_frame(e, &x, &y, &w, &h) && w > 4 && h > 4;
}

static cua_tree *
need_framed(const char *app, const char *role, const char *title)
{
	const char *rt[] = { role, title };
	cua_tree *t = observe_until_pred(session, app, 8000, has_framed, rt);

	if (!t)
		fail_msg("%s: no %s '%s' on screen", app, role, title);
	return t;
}

/* ------------------------------------------------------------------ */
/* Popups                                                              */

/* gtk3-widget-factory's combo box (a `pop up button` showing Andrea):
 * its drop-down list is an override-redirect window of its own. */
static void
test_gtk3_combo_drop_down(void **state)
{
	const char *argv[] = { "gtk3-widget-factory", NULL };
	const char *rt[] = { "pop up button", NULL };
	struct app_proc app;
	struct want_value otto;
	cua_tree *t, *before;
	char q[32];
	char *outcome = NULL;
	uint32_t combo;

	assert_int_equal(app_start(&app, argv, 0), 0);
	snprintf(q, sizeof(q), "pid:%d", (int)app.pid);
	before = observe_until_pred(session, q, 20000, has_framed, rt);
	assert_non_null(before);
	combo = enabled_id(q, before, "pop up button", NULL, "Andrea");
	ACT(cua_session_click(session, q, combo, CUA_BUTTON_LEFT, 1, &outcome));
	cua_free(outcome);
	t = need_framed(q, "menu item", "Otto");
	assert_popup_shown(t, need_element(q, t, "menu item", "Otto"), before);
	click_at_element(q, need_element(q, t, "menu item", "Otto"));
	cua_tree_unref(t);
	/* the combo box shows the item now: read back from its tree */
	otto.id = combo;
	otto.value = "Otto";
	t = observe_until_pred(session, q, 5000, has_value, &otto);
	if (!t)
		fail_msg("the combo box does not show Otto");
	cua_tree_unref(t);
	cua_tree_unref(before);
	app_stop(&app);
	COVERS("GTK 3", "get_app_state click");
}

static int
radian_on(cua_tree *t, void *data)
{
	cua_element *e = find_element(t, "menu item", "Radian");

	return e && strcmp(cua_element_get_value(e), "on") == 0;
}

/* The GTK 3 fixture's Settings menu and its Angle Unit submenu: two
 * popups at once, the second beside the first. */
static void
test_gtk3_menu(void **state)
{
	struct app_proc fx;
	const char *app = "fixture-gtk3";
	cua_tree *t, *before;
	char *outcome = NULL;

	assert_int_equal(
		fixture_start(&fx, FIXTURE_GTK3, "--extras", 15000, NULL, 0),
		0);
	before = need_observation(app, 10000);
	ACT(cua_session_click(session, app, id_of(before, NULL, "Settings"),
			      CUA_BUTTON_LEFT, 1, &outcome));
	cua_free(outcome);
	t = need_framed(app, "menu item", "Angle Unit");
	ACT(cua_session_click(session, app, id_of(t, "menu item", "Angle Unit"),
			      CUA_BUTTON_LEFT, 1, &outcome));
	cua_free(outcome);
	cua_tree_unref(t);
	t = need_framed(app, "menu item", "Radian");
	assert_popup_shown(t, need_element(app, t, "menu item", "Language..."),
			   before);
	assert_popup_shown(t, need_element(app, t, "menu item", "Radian"),
			   before);
	assert_false(radian_on(t, NULL));
	click_at_element(app, need_element(app, t, "menu item", "Radian"));
	cua_tree_unref(t);
	fixture_expect_line(&fx, "angle Radian");
	/* read back through the tree: open the menu again */
	t = need_observation(app, 5000);
	ACT(cua_session_click(session, app, id_of(t, NULL, "Settings"),
			      CUA_BUTTON_LEFT, 1, &outcome));
	cua_free(outcome);
	cua_tree_unref(t);
	t = observe_until_pred(session, app, 5000, radian_on, NULL);
	if (!t)
		fail_msg("Radian is not checked in the tree");
	cua_tree_unref(t);
	cua_tree_unref(before);
	app_stop(&fx);
	COVERS("GTK 3", "get_app_state click");
}

/* ------------------------------------------------------------------ */
/* No tree                                                             */

/* The patterned fixture without its accessibility bridge: never on the
 * accessibility bus, its window still on the screen. */
static void
test_no_tree(void **state)
{
	const char *argv[] = { FIXTURE_SHOT, NULL };
	const char *note =
		"Accessibility unavailable: 'fixture-shot' exposes no "
		"accessibility tree, so only the screenshot, coordinate clicks "
		"and keys work. To get its elements, the user can restart it "
		"with accessibility enabled (unset NO_AT_BRIDGE).";
	struct app_proc fx;
	struct img im;
	cua_tree *t;
	cua_element *e;
	char q[32], line[64], *text, *outcome = NULL;
	int y, c[3];

	setenv("NO_AT_BRIDGE", "1", 1);
	assert_int_equal(app_start(&fx, argv, 1), 0);
	unsetenv("NO_AT_BRIDGE");
	assert_int_equal(app_wait_line(&fx, "ready", 10000, line, sizeof(line)),
			 0);
	snprintf(q, sizeof(q), "pid:%d", (int)fx.pid);
	/* "call again" while it may still connect, then its window */
	t = observe_until(session, q, 30000);
	if (!t)
		fail_msg("%s: %s", q, cua_error_message());
	text = render(t);
	fprintf(stderr, "# %s\n", text);
	assert_int_equal(cua_tree_get_element_count(t), 1);
	e = cua_tree_get_element(t, 0);
	assert_string_equal(cua_element_get_role(e), "standard window");
	assert_string_equal(cua_element_get_title(e), "libcua shot fixture");
	assert_non_null(
		strstr(text, "\n0 standard window libcua shot fixture"));
	cua_free(text);
	assert_non_null(cua_tree_get_accessibility_note(t));
	assert_string_equal(cua_tree_get_accessibility_note(t), note);
	/* the pattern: red, green over blue, yellow; the Press button under
	 * it, found down the middle of the right half */
	shot_of(t, &im);
	{
		const unsigned char *p = im.px + ((size_t)20 * im.w + 20) * 3;

		assert_true(p[0] > 200 && p[1] < 60 && p[2] < 60);
	}
	for (y = im.h / 2; y < im.h; y++) {
		const unsigned char *p =
			im.px + ((size_t)y * im.w + im.w * 3 / 4) * 3;

		c[0] = p[0];
		c[1] = p[1];
		c[2] = p[2];
		/* past the yellow quadrant */
		if (!(c[0] > 200 && c[1] > 200 && c[2] < 60))
			break;
	}
	assert_true(y < im.h - 12);
	free(im.px);
	ACT(cua_session_click_at(session, q, im.w / 2.0, y + 10.0,
				 CUA_BUTTON_LEFT, 1, &outcome));
	assert_route("click_at", outcome, "synthetic");
	cua_free(outcome);
	assert_int_equal(
		app_wait_line(&fx, "clicked", 5000, line, sizeof(line)), 0);
	/* the button has the keyboard focus now: a key presses it again */
	ACT(cua_session_press_key(session, q, "space", &outcome));
	cua_free(outcome);
	assert_int_equal(
		app_wait_line(&fx, "clicked", 5000, line, sizeof(line)), 0);
	cua_tree_unref(t);
	app_stop(&fx);
	COVERS("GTK 3", "get_app_state click press_key");
}

static void
test_xt_app(void **state)
{
	const char *argv[] = { "xcalc", NULL };
	const char *note =
		"Accessibility unavailable: 'xcalc' exposes no accessibility "
		"tree, so only the screenshot, coordinate clicks and keys "
		"work. Its toolkit, the X Toolkit (Xt), has no accessibility "
		"support: its elements cannot be read.";
	struct app_proc xc;
	struct img im;
	cua_tree *t = NULL;
	cua_element *e;
	char q[32];
	int tries = 0;

	(void)state;
	assert_int_equal(app_start(&xc, argv, 0), 0);
	snprintf(q, sizeof(q), "pid:%d", (int)xc.pid);
	/* the window has no _NET_WM_PID: the app is not found until it is
	 * mapped, and then at once, never "call again" */
	for (;;) {
		cua_result r = cua_session_observe(session, q,
						   CUA_OBSERVE_NO_LAUNCH, &t);

		if (r == CUA_OK)
			break;
		if (cua_error_code() == CUA_E_PERMISSIONS_PENDING)
			fail_msg("%s: %s", q, cua_error_message());
		assert_true(++tries < 100);
		usleep(100 * 1000);
	}
	assert_int_equal(cua_tree_get_element_count(t), 1);
	e = cua_tree_get_element(t, 0);
	assert_string_equal(cua_element_get_role(e), "standard window");
	assert_string_equal(cua_element_get_title(e), "Calculator");
	assert_non_null(cua_tree_get_accessibility_note(t));
	assert_string_equal(cua_tree_get_accessibility_note(t), note);
	shot_of(t, &im);
	assert_true(im.w > 100 && im.h > 100);
	free(im.px);
	cua_tree_unref(t);
	app_stop(&xc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gtk3_combo_drop_down),
		cmocka_unit_test(test_gtk3_menu),
		cmocka_unit_test(test_no_tree),
		cmocka_unit_test(test_xt_app),
	};

	return cmocka_run_group_tests(tests, session_setup, session_teardown);
}
