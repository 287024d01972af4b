/*
 * Desktop tests of where elements are (docs/screenshots.md §3,
 * docs/actions.md §2) in normal and maximised windows under openbox, a
 * reparenting window manager that draws title bars: element frames, the
 * screenshot, the marks picture and clicks (at an element, and at a screenshot
 * pixel) agree within a pixel. Read back from the apps: a GTK 3 pattern window
 * prints where each press landed; a GTK 4 check box and a Qt tool button
 * are clicked 3 pixels inside their corners, so that a click off by more
 * misses them.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <turbojpeg.h>

#include "common.h"
#include "xwin.h"

/* The colour at (x, y) is within 48 of (r, g, b) (JPEG at quality 80). */
static int
colour_is(const struct img *im, int x, int y, int r, int g, int b)
{
	const unsigned char *p;

	if (x < 0 || y < 0 || x >= im->w || y >= im->h)
		return 0;
	p = im->px + ((size_t)y * im->w + x) * 3;
	return abs(p[0] - r) <= 48 && abs(p[1] - g) <= 48 &&
	       abs(p[2] - b) <= 48;
}

static int
setup(void **state)
{
	session_setup(state);
	assert_int_equal(
		cua_session_set_option(session, "restore_pointer", "0"),
		CUA_OK);
	return 0;
}

/* The marks picture outlines element `e` where its frame is: it differs
 * from the screenshot along the frame's left and top edges (within a
 * pixel) and not 6 pixels further in. */
static void
check_marks(cua_tree *t, cua_element *e, const char *what)
{
	struct img im, mk;
	void *marks = NULL;
	size_t msize;
	double ppp = shot_decode(t, &im);
	int32_t x, y, w, h;
	int edge_x = 0, edge_y = 0;

	assert_int_equal(cua_tree_render_marks(t, 0, &marks, &msize), CUA_OK);
	assert_int_equal(jpeg_decode(marks, msize, &mk), 0);
	assert_int_equal(mk.w, im.w);
	assert_int_equal(mk.h, im.h);
	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	for (int d = -1; d <= 1; d++) {
		int ly = (int)((y + h / 2.0) * ppp),
		    lx = (int)(x * ppp + 0.5) + d;
		int tx = (int)((x + w / 2.0) * ppp),
		    ty = (int)(y * ppp + 0.5) + d;

		for (int c = 0; c < 3; c++) {
			if (lx >= 0 && lx < im.w && ly >= 0 && ly < im.h)
				edge_x +=
					abs(im.px[((size_t)ly * im.w + lx) * 3 +
						  c] -
					    mk.px[((size_t)ly * mk.w + lx) * 3 +
						  c]);
			if (tx >= 0 && tx < im.w && ty >= 0 && ty < im.h)
				edge_y +=
					abs(im.px[((size_t)ty * im.w + tx) * 3 +
						  c] -
					    mk.px[((size_t)ty * mk.w + tx) * 3 +
						  c]);
		}
	}
	if (edge_x < 60 || edge_y < 60)
		fail_msg(
			"%s: no mark along the frame (%d,%d %dx%d) of the element "
			"(left %d, top %d)",
			what, x, y, w, h, edge_x, edge_y);
	free(im.px);
	free(mk.px);
	cua_free(marks);
}

/* ------------------------------------------------------------------ */
/* GTK 3 (server-side decorations): the pattern window                 */

static int
has_pattern(cua_tree *t, void *data)
{
	return find_element(t, NULL, "Pattern") != NULL;
}

/* The next "pressed X Y" of the fixture is (x, y) within a pixel. */
static void
expect_press(struct app_proc *p, double x, double y, const char *what)
{
	char line[64];
	double px, py;

	if (app_wait_line(p, "pressed", 3000, line, sizeof(line)) < 0)
		fail_msg("%s: the pattern was not pressed", what);
	assert_int_equal(sscanf(line, "pressed %lf %lf", &px, &py), 2);
	if (fabs(px - x) > 1 || fabs(py - y) > 1)
		fail_msg("%s: pressed at (%.0f, %.0f) of the pattern, meant "
			 "(%.0f, %.0f)",
			 what, px, py, x, y);
}

static void
check_pattern_window(struct app_proc *p, const char *app, const char *what)
{
	cua_tree *t = observe_until_pred(session, app, 5000, has_pattern, NULL);
	cua_element *e;
	struct img im;
	double ppp;
	int32_t x, y, w, h;
	char *out = NULL;

	assert_non_null(t);
	e = find_element(t, NULL, "Pattern");
	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	assert_true(w >= 400); /* maximised it spans the window's width */
	assert_int_equal(h, 240);

	/* the screenshot shows the pattern where the frame says */
	ppp = shot_decode(t, &im);
	if (!colour_is(&im, (int)((x + 2) * ppp), (int)((y + 2) * ppp), 255, 0,
		       0) ||
	    !colour_is(&im, (int)((x + w - 3) * ppp), (int)((y + h - 3) * ppp),
		       255, 255, 0) ||
	    colour_is(&im, (int)((x + 2) * ppp), (int)((y - 3) * ppp), 255, 0,
		      0) ||
	    colour_is(&im, (int)((x + w - 3) * ppp), (int)((y + h + 2) * ppp),
		      255, 255, 0))
		fail_msg("%s: the pattern is not at its frame (%d,%d %dx%d) in "
			 "the screenshot",
			 what, x, y, w, h);
	free(im.px);
	check_marks(t, e, what);

	/* a click at the element lands at its centre */
	assert_int_equal(
		cua_session_set_option(session, "always_simulate_click", "1"),
		CUA_OK);
	ACT(cua_session_click(session, app, cua_element_get_id(e),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_non_null(strstr(out, "\"route\":\"synthetic\""));
	cua_free(out);
	assert_int_equal(
		cua_session_set_option(session, "always_simulate_click", "0"),
		CUA_OK);
	expect_press(p, w / 2.0, h / 2.0, what);

	/* a click at a screenshot pixel lands on that pixel */
	ACT(cua_session_click_at(session, app, (x + 50) * ppp, (y + 30) * ppp,
				 CUA_BUTTON_LEFT, 1, NULL));
	expect_press(p, 50, 30, what);
	cua_tree_unref(t);
}

static void
test_gtk3_decorated(void **state)
{
	const char *argv[] = { FIXTURE_SHOT, "--resizable", NULL };
	struct app_proc p;
	char line[64], app[32];
	unsigned long xid;

	assert_int_equal(app_start(&p, argv, 1), 0);
	assert_int_equal(app_wait_line(&p, "ready", 10000, line, sizeof(line)),
			 0);
	xid = strtoul(line + 6, NULL, 16);
	snprintf(app, sizeof(app), "pid:%d", (int)p.pid);
	check_pattern_window(&p, app, "GTK 3 window");
	assert_int_equal(xwin_maximize(xid, 1, 5000), 0);
	check_pattern_window(&p, app, "GTK 3 maximised");
	assert_int_equal(xwin_maximize(xid, 0, 5000), 0);
	check_pattern_window(&p, app, "GTK 3 restored");
	app_stop(&p);
}

/* ------------------------------------------------------------------ */
/* GTK 4 (client-side decorations, window-relative coordinates) and Qt */

/* Clicks screenshot pixels 3 points inside the top-left, then the
 * bottom-right corner of element `id`: before each click `note` records
 * the app's state, after it `changed` must become true. */
static void
corner_clicks(const char *app, uint32_t id,
	      void (*note)(cua_tree *t, void *data),
	      int (*changed)(cua_tree *t, void *data), void *data,
	      const char *what)
{
	for (int corner = 0; corner < 2; corner++) {
		cua_tree *t = observe_until(session, app, 5000), *t2;
		cua_element *e = cua_tree_find_element(t, id);
		int32_t x, y, w, h;
		double ppp = 0, px, py;
		const void *d;
		size_t size;
		const char *mime;

		assert_non_null(e);
		if (corner == 0)
			check_marks(t, e, what);
		note(t, data);
		assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
		assert_int_equal(cua_tree_get_screenshot(t, &d, &size, &mime,
							 NULL, NULL, &ppp),
				 CUA_OK);
		px = (corner ? x + w - 3 : x + 3) * ppp;
		py = (corner ? y + h - 3 : y + 3) * ppp;
		ACT(cua_session_click_at(session, app, px, py, CUA_BUTTON_LEFT,
					 1, NULL));
		t2 = observe_until_pred(session, app, 5000, changed, data);
		if (!t2)
			fail_msg(
				"%s: the click %s corner (%.0f, %.0f) of %d,%d "
				"%dx%d missed the element",
				what,
				corner ? "inside the bottom-right" :
					 "inside the top-left",
				px, py, x, y, w, h);
		cua_tree_unref(t2);
		cua_tree_unref(t);
	}
}

struct noted_value {
	uint32_t id;
	char value[32];
};

static void
note_value(cua_tree *t, void *data)
{
	struct noted_value *w = data;
	cua_element *e = cua_tree_find_element(t, w->id);

	assert_non_null(e);
	snprintf(w->value, sizeof(w->value), "%s", cua_element_get_value(e));
}

static int
value_differs(cua_tree *t, void *data)
{
	struct noted_value *w = data;
	cua_element *e = cua_tree_find_element(t, w->id);

	return e && strcmp(cua_element_get_value(e), w->value) != 0;
}

/* A GTK 4 check box toggles at each corner click; an element click
 * (synthetic: GTK 4.8 check boxes have no actions) toggles it too. */
static void
check_gtk4(const char *app, uint32_t id, const char *what)
{
	struct noted_value w = { id, "" };
	cua_tree *t;
	char *out = NULL;

	corner_clicks(app, id, note_value, value_differs, &w, what);
	t = observe_until(session, app, 5000);
	note_value(t, &w);
	cua_tree_unref(t);
	ACT(cua_session_click(session, app, id, CUA_BUTTON_LEFT, 1, &out));
	assert_non_null(strstr(out, "\"route\":\"synthetic\""));
	cua_free(out);
	t = observe_until_pred(session, app, 5000, value_differs, &w);
	if (!t)
		fail_msg("%s: the element click missed the check box", what);
	cua_tree_unref(t);
}

static int
ready_checkbox(cua_tree *t, void *data)
{
	return find_element(t, "checkbox", "checkbutton") != NULL;
}

static void
test_gtk4(void **state)
{
	const char *argv[] = { "gtk4-widget-factory", NULL };
	struct app_proc p;
	char app[32];
	cua_tree *t;
	unsigned long xid;
	uint32_t id;

	assert_int_equal(app_start(&p, argv, 0), 0);
	snprintf(app, sizeof(app), "pid:%d", (int)p.pid);
	t = observe_until_pred(session, app, 20000, ready_checkbox, NULL);
	assert_non_null(t);
	id = cua_element_get_id(find_element(t, "checkbox", "checkbutton"));
	cua_tree_unref(t);
	xid = xwin_find(p.pid, 5000);
	assert_true(xid != 0);
	check_gtk4(app, id, "GTK 4 window");
	assert_int_equal(xwin_maximize(xid, 1, 5000), 0);
	check_gtk4(app, id, "GTK 4 maximised");
	assert_int_equal(xwin_maximize(xid, 0, 5000), 0);
	check_gtk4(app, id, "GTK 4 restored");
	app_stop(&p);
}

static int
featherpad_ready(cua_tree *t, void *data)
{
	return find_element(t, "button", "New") != NULL;
}

static size_t
count_tabs(cua_tree *t)
{
	size_t n = 0;

	for (size_t i = 0; i < cua_tree_get_element_count(t); i++)
		if (strcmp(cua_element_get_role(cua_tree_get_element(t, i)),
			   "tab") == 0)
			n++;
	return n;
}

static void
note_tabs(cua_tree *t, void *data)
{
	*(size_t *)data = count_tabs(t);
}

static int
more_tabs(cua_tree *t, void *data)
{
	return count_tabs(t) > *(size_t *)data;
}

/* The New tool button of FeatherPad opens a tab at each click. */
static void
check_qt(const char *app, const char *what)
{
	cua_tree *t =
		observe_until_pred(session, app, 5000, featherpad_ready, NULL);
	uint32_t id;
	size_t tabs;
	char *out = NULL;

	assert_non_null(t);
	id = cua_element_get_id(find_element(t, "button", "New"));
	cua_tree_unref(t);
	corner_clicks(app, id, note_tabs, more_tabs, &tabs, what);
	t = observe_until(session, app, 5000);
	note_tabs(t, &tabs);
	cua_tree_unref(t);
	assert_int_equal(
		cua_session_set_option(session, "always_simulate_click", "1"),
		CUA_OK);
	ACT(cua_session_click(session, app, id, CUA_BUTTON_LEFT, 1, &out));
	assert_int_equal(
		cua_session_set_option(session, "always_simulate_click", "0"),
		CUA_OK);
	assert_non_null(strstr(out, "\"route\":\"synthetic\""));
	cua_free(out);
	t = observe_until_pred(session, app, 5000, more_tabs, &tabs);
	if (!t)
		fail_msg("%s: the element click missed New", what);
	cua_tree_unref(t);
}

static void
test_qt(void **state)
{
	const char *argv[] = { "featherpad", NULL };
	struct app_proc p;
	char app[32];
	cua_tree *t;
	unsigned long xid;

	assert_int_equal(app_start(&p, argv, 0), 0);
	snprintf(app, sizeof(app), "pid:%d", (int)p.pid);
	t = observe_until_pred(session, app, 20000, featherpad_ready, NULL);
	assert_non_null(t);
	cua_tree_unref(t);
	xid = xwin_find(p.pid, 5000);
	assert_true(xid != 0);
	check_qt(app, "Qt window");
	assert_int_equal(xwin_maximize(xid, 1, 5000), 0);
	check_qt(app, "Qt maximised");
	assert_int_equal(xwin_maximize(xid, 0, 5000), 0);
	check_qt(app, "Qt restored");
	app_stop(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gtk3_decorated),
		cmocka_unit_test(test_gtk4),
		cmocka_unit_test(test_qt),
	};

	return run_test_group("frames", tests, setup, session_teardown);
}
