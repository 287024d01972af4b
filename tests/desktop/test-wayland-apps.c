/*
 * Real applications on the headless Wayland desktops in what only a
 * Wayland desktop has: a window wider than its output (gtk3-widget-factory
 * is about 1,415 px wide on the 1,280 px output), whose screenshot keeps
 * the whole frame and whose part on the output takes pixel clicks (sway
 * and mutter); and an X11 app under the sway desktop's Xwayland (the GTK
 * 3 fixture with GDK_BACKEND=x11), driven through the compositor like a
 * native one. An open menu leaves the window its screenshot; on sway the
 * menu is in it (the capture is the output's region, where the compositor
 * shows the popup over the window). Effects are read back through fresh observations and
 * the apps' own output.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

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

static int
has_menu_item(cua_tree *t, void *title)
{
	return find_element(t, "menu item", title) != NULL;
}

static int
no_menu_item(cua_tree *t, void *title)
{
	return !has_menu_item(t, title);
}

/* Is the screenshot pixel at (fx, fy) points of `t` the selection's blue
 * (Adwaita's highlighted menu item)? */
static int
blue_at(cua_tree *t, double fx, double fy)
{
	struct img im;
	double ppp = shot_decode(t, &im);
	int px = (int)(fx * ppp), py = (int)(fy * ppp), blue;
	const unsigned char *p;

	assert_true(px >= 0 && py >= 0 && px < im.w && py < im.h);
	p = im.px + ((size_t)py * im.w + px) * 3;
	blue = p[2] > 150 && p[0] < 120;
	free(im.px);
	return blue;
}

/* An open menu: the window keeps its screenshot while the menu holds the
 * keyboard focus. On sway the menu is in it, over the pop up button that
 * opened it, with the window's scale and origin (the selected item's
 * blue covers the button's face); mutter's window stream has the window's
 * own pixels only. */
static void
menu_in_screenshot(cua_tree *t, int composited)
{
	cua_element *b = find_enabled(t, "pop up button", NULL, "Left");
	int32_t x, y, w, h;
	cua_tree *m;

	if (!b)
		fail_msg("no pop up button Left in:\n%s", render(t));
	assert_int_equal(cua_element_get_frame(b, &x, &y, &w, &h), 1);
	assert_false(blue_at(t, x + w * 0.6, y + h / 2.0));
	ACT(cua_session_click(session, app, cua_element_get_id(b),
			      CUA_BUTTON_LEFT, 1, NULL));
	m = observe_until_pred(session, app, 5000, has_menu_item,
			       (void *)"Middle");
	if (!m)
		fail_msg("the pop up button's menu did not open");
	if (blue_at(m, x + w * 0.6, y + h / 2.0) != composited)
		fail_msg("the open menu is %sin the window's screenshot",
			 composited ? "not " : "");
	cua_tree_unref(m);
	/* the keys reach the app while its menu holds the focus: Escape
	 * closes the menu */
	ACT(cua_session_press_key(session, app, "Escape", NULL));
	m = observe_until_pred(session, app, 5000, no_menu_item,
			       (void *)"Middle");
	if (!m)
		fail_msg("Escape did not close the menu");
	cua_tree_unref(m);
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
	menu_in_screenshot(t, strcmp(test_desktop_kind(), "sway") == 0);
	stop_pid((pid_t)cua_tree_get_pid(t));
	cua_tree_unref(t);
	COVERS("GTK 3", "get_app_state click");
}

/* The shell of sway's window of process `pid` ("xwayland", "xdg_shell"),
 * from sway's own IPC: "" when it has none. */
static void
sway_shell_of(pid_t pid, char *shell, size_t size)
{
	static const char *const argv[] = { "/usr/bin/swaymsg", "-r", "-t",
					    "get_tree", NULL };
	static char out[1 << 20];
	json_t *stack[64], *tree;
	size_t n = 0;

	shell[0] = '\0';
	assert_int_equal(run_command(argv, out, sizeof(out)), 0);
	tree = json_loads(out, 0, NULL);
	assert_non_null(tree);
	stack[n++] = tree;
	while (n > 0) {
		json_t *node = stack[--n], *kid;
		const char *kinds[] = { "nodes", "floating_nodes" };
		size_t i;

		if (json_integer_value(json_object_get(node, "pid")) == pid &&
		    json_string_value(json_object_get(node, "shell")))
			snprintf(shell, size, "%s",
				 json_string_value(
					 json_object_get(node, "shell")));
		for (int k = 0; k < 2; k++)
			json_array_foreach(json_object_get(node, kinds[k]), i,
					   kid) if (n < 64) stack[n++] = kid;
	}
	json_decref(tree);
}

static int
ready_fixture(cua_tree *t, void *data)
{
	(void)data;
	return find_enabled(t, "checkbox", "Unchecked box", "off") != NULL;
}

static int
entry_is(cua_tree *t, void *text)
{
	cua_element *e = find_element(t, "text field", "Name:");

	return e && strcmp(cua_element_get_value(e), text) == 0;
}

/*
 * An X11 app under the desktop's Xwayland (sway's IPC says so): its
 * window is found by its process, captured through the compositor and
 * driven by the virtual pointer and keyboard, and nothing of libcua's
 * goes to X11 (no XTEST, no Xlib message on stderr).
 */
static void
test_xwayland_app(void **state)
{
	static const char text[] = "Grüße 世界 ok";
	struct app_proc fx = { 0 };
	char shell[32], log[4096] = "", want[64], *out = NULL, err[4096];
	const char *display = getenv("DISPLAY");
	cua_session *s;
	char *info = NULL;
	cua_tree *t, *t2;
	cua_element *box, *checked, *canvas;
	uint32_t iw, ih, id;
	int32_t x, y, w, h;
	double ppp;
	int efd = -1, saved = -1;
	ssize_t n;

	(void)state;
	app = "fixture-gtk3";
	if (!display || !*display)
		fail_msg("the sway desktop exported no DISPLAY for Xwayland");
	setenv("GDK_BACKEND", "x11", 1);
	if (fixture_start(&fx, FIXTURE_GTK3, NULL, 15000, NULL, 0) < 0)
		fail_msg("the GTK 3 fixture did not start on Xwayland %s",
			 display);
	setenv("GDK_BACKEND", "wayland", 1);
	/* (its window maps a moment after its "ready") */
	for (int i = 0; i < 50; i++) {
		sway_shell_of(fx.pid, shell, sizeof(shell));
		if (shell[0])
			break;
		usleep(100 * 1000);
	}
	assert_string_equal(shell, "xwayland");

	/* a session of its own, start to end, with DISPLAY set: it reads,
	 * captures and leaves nothing on stderr (the fixture keeps the old
	 * one) */
	saved = dup(2);
	efd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	assert_true(saved >= 0 && efd >= 0 && dup2(efd, 2) == 2);
	s = test_session();
	t = observe_until_pred(s, app, 15000, ready_fixture, NULL);
	if (cua_session_get_display_info(s, &info) == CUA_OK && t)
		(void)shot_size(t, &iw, &ih, &ppp);
	cua_tree_unref(t);
	cua_session_unref(s);
	fflush(stderr);
	n = pread(efd, err, sizeof(err) - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	dup2(saved, 2);
	close(saved);
	close(efd);
	assert_non_null(t);
	assert_non_null(strstr(info, "\"driver\": \"wlroots\""));
	cua_free(info);
	if (strstr(err, "Authorization") || strstr(err, "Xlib") ||
	    strstr(err, "X11") || strstr(err, "X server") ||
	    strstr(err, "DISPLAY"))
		fail_msg("X11 noise on stderr: %s", err);

	/* the tree, and a screenshot of the window's size showing it */
	t = observe_until_pred(session, app, 15000, ready_fixture, NULL);
	assert_non_null(t);
	assert_int_equal(cua_tree_get_pid(t), fx.pid);
	assert_int_equal(cua_element_get_frame(cua_tree_find_element(t, 0), &x,
					       &y, &w, &h),
			 1);
	if (shot_size(t, &iw, &ih, &ppp) != CUA_OK)
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	assert_true(ppp == 1.0 && iw == (uint32_t)w && ih == (uint32_t)h);
	box = find_enabled(t, "checkbox", "Unchecked box", "off");
	checked = find_element(t, "checkbox", "Check me");
	assert_non_null(checked);
	assert_int_equal(box_is_blue(t, checked), 1);
	assert_int_equal(box_is_blue(t, box), 0);

	/* a click by element through the pointer: the canvas has no
	 * accessible action and reports where it was pressed */
	canvas = need_element(NULL, t, "canvas", "Canvas");
	ACT(cua_session_click(session, app, cua_element_get_id(canvas),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "synthetic");
	cua_free(out);
	fixture_wait_line(&fx, "canvas release 1 ", log, sizeof(log));
	assert_non_null(
		strstr(log, "canvas press 1 80 60\ncanvas release 1 80 60\n"));

	/* a click at the screenshot pixel of the check box's centre, read
	 * back from AT-SPI and from the next screenshot */
	id = cua_element_get_id(box);
	click_pixel_of(t, box);
	fixture_expect_line(&fx, "toggled Unchecked box on");
	cua_tree_unref(t);
	t = observe_until_pred(session, app, 5000, has_value,
			       &(struct want_value){ id, "on" });
	if (!t)
		fail_msg("the check box at the clicked pixel was not checked");
	assert_int_equal(box_is_blue(t, cua_tree_find_element(t, id)), 1);

	/* keys through the virtual keyboard: the entry emptied, then a
	 * text with characters off the keymap, then edit keys */
	ACT(cua_session_set_option(session, "type_text_keys", "1"));
	ACT(cua_session_click(session, app, id_of(t, "text field", "Name:"),
			      CUA_BUTTON_LEFT, 1, NULL));
	ACT(cua_session_press_key(session, app, "ctrl+a BackSpace", &out));
	assert_route(NULL, out, "keys");
	cua_free(out);
	fixture_expect_line(&fx, "entry ");
	ACT(cua_session_type_text(session, app, text, &out));
	assert_route(NULL, out, "keys");
	cua_free(out);
	snprintf(want, sizeof(want), "entry %s", text);
	fixture_expect_line(&fx, want);
	ACT(cua_session_press_key(session, app, "BackSpace BackSpace BackSpace",
				  NULL));
	t2 = observe_until_pred(session, app, 5000, entry_is,
				(void *)"Grüße 世界");
	if (!t2)
		fail_msg("the entry does not read 'Grüße 世界' after the keys");
	ACT(cua_session_set_option(session, "type_text_keys", "0"));
	cua_tree_unref(t2);
	cua_tree_unref(t);
	app_stop(&fx);
	COVERS("GTK 3", "get_app_state click press_key type_text");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wider_than_output),
		cmocka_unit_test(test_xwayland_app),
	};

	if (getenv("CUA_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUA_TEST_FILTER"));
	return cmocka_run_group_tests_name("wayland-apps", tests, session_setup,
					   session_teardown);
}
