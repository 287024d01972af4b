/*
 * Real applications on the headless sway desktop in what only a Wayland
 * desktop has: a window wider than its output (gtk3-widget-factory is
 * about 1,415 px wide on the 1,280 px output), whose screenshot keeps the
 * whole frame and whose part on the output takes pixel clicks. Effects
 * are read back through fresh observations.
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

#include "common.h"
#include "covers.h"

#define OUTPUT_W 1280 /* cua desktop's default screen: 1280x800 */

static const char *app; /* the app under test */

static int
ready_checkbox(cua_tree *t, void *data)
{
	(void)data;
	return find_enabled(t, "checkbox", "checkbutton", "off") != NULL;
}

/* The screenshot's size and scale; CUA_OK or the error. */
static cua_result
shot_size(cua_tree *t, uint32_t *w, uint32_t *h, double *ppp)
{
	const void *data;
	size_t size;
	const char *mime;

	return cua_tree_get_screenshot(t, &data, &size, &mime, w, h, ppp);
}

/* Clicks the screenshot pixel at the centre of element `e` of `t`. */
static void
click_pixel_of(cua_tree *t, cua_element *e)
{
	int32_t x, y, w, h;
	double ppp;
	char *out = NULL;

	assert_int_equal(cua_element_get_frame(e, &x, &y, &w, &h), 1);
	assert_int_equal(shot_size(t, NULL, NULL, &ppp), CUA_OK);
	if (cua_session_click_at(session, app, floor((x + w / 2.0) * ppp),
				 floor((y + h / 2.0) * ppp), CUA_BUTTON_LEFT, 1,
				 &out) != CUA_OK)
		fail_msg("click at the pixel of '%s': %s",
			 cua_element_get_title(e), cua_error_message());
	assert_route(NULL, out, "synthetic");
	cua_free(out);
}

static void
test_wider_than_output(void **state)
{
	cua_tree *t;
	cua_element *root, *box;
	int32_t x, y, w, h;
	uint32_t iw, ih, id;
	double ppp;
	const char *msg;

	(void)state;
	app = "gtk3-widget-factory";
	/* the first observation starts it */
	t = NULL;
	if (cua_session_observe(session, app, 0, &t) != CUA_OK &&
	    cua_error_code() != CUA_E_TIMEOUT)
		fail_msg("launch: %s", cua_error_message());
	cua_tree_unref(t);
	t = observe_until_pred(session, app, 15000, ready_checkbox, NULL);
	assert_non_null(t);
	root = cua_tree_find_element(t, 0);
	assert_non_null(root);
	assert_int_equal(cua_element_get_frame(root, &x, &y, &w, &h), 1);
	if (w <= OUTPUT_W)
		fail_msg("the window is %d points wide: this case needs one "
			 "wider than the %d px output",
			 w, OUTPUT_W);
	/* the image is the whole window, not the part on the output */
	if (shot_size(t, &iw, &ih, &ppp) != CUA_OK)
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	/* (the window element's frame is its surface: the content and the
	 * client-side shadow around it) */
	if (iw <= ceil(OUTPUT_W * ppp) || iw > ceil(w * ppp) ||
	    ih > ceil(h * ppp))
		fail_msg("a %ux%u screenshot of a %dx%d window (shadow "
			 "included) wider than the %d px output",
			 iw, ih, w, h, OUTPUT_W);

	/* a pixel on the output clicks what it shows */
	box = find_enabled(t, "checkbox", "checkbutton", "off");
	id = cua_element_get_id(box);
	click_pixel_of(t, box);
	cua_tree_unref(t);
	t = observe_until_pred(session, app, 5000, has_value,
			       &(struct want_value){ id, "on" });
	if (!t)
		fail_msg("the check box at the clicked pixel was not checked");

	/* a pixel beyond the output: refused, saying why */
	assert_int_equal(shot_size(t, &iw, &ih, &ppp), CUA_OK);
	assert_int_equal(cua_session_click_at(session, app, iw - 5, ih / 2.0,
					      CUA_BUTTON_LEFT, 1, NULL),
			 CUA_ERROR_INPUT_BLOCKED);
	assert_int_equal(cua_error_code(), CUA_E_WINDOW_UNAVAILABLE);
	msg = cua_error_message();
	if (!strstr(msg, "beyond the edge of the screen"))
		fail_msg("refusal: %s", msg);
	/* the element's state is as the first click left it */
	assert_string_equal(cua_element_get_value(cua_tree_find_element(t, id)),
			    "on");
	stop_pid((pid_t)cua_tree_get_pid(t));
	cua_tree_unref(t);
	COVERS("GTK 3", "get_app_state click");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wider_than_output),
	};

	if (getenv("CUA_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUA_TEST_FILTER"));
	return cmocka_run_group_tests_name("wayland-apps", tests, session_setup,
					   session_teardown);
}
