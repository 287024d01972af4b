/*
 * Screenshots on the headless sway desktop: a repeat observation of a
 * window nothing was drawn over reuses the previous image; what the
 * compositor drew there since (the app's own change, a window over it)
 * and a move or a resize are captured anew, and the pixels show it
 * (docs/screenshots.md §2.1: the wlroots driver's damage watches). The
 * fixture is fixture-shot as a native Wayland client; windows are moved,
 * resized and stacked through sway's IPC (swaymsg).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define PATTERN_W 400
#define PATTERN_H 240

static char app[32]; /* "pid:N" of the fixture */

static int
has_text(cua_tree *t, void *text)
{
	char *s = render(t);
	int r = strstr(s, text) != NULL;

	cua_free(s);
	return r;
}

static void
start_shot(struct app_proc *p, const char *const *extra)
{
	const char *argv[8] = { FIXTURE_SHOT };
	int n = 1;

	for (; extra && *extra && n < 7; extra++)
		argv[n++] = *extra;
	argv[n] = NULL;
	if (app_start(p, argv, 1) < 0 ||
	    app_wait_line(p, "ready", 10000, NULL, 0) < 0)
		fail_msg("fixture-shot did not start");
}

/* `swaymsg '[pid=PID] COMMAND'`, which must succeed. */
static void
sway_do(pid_t pid, const char *command)
{
	char cmd[160], out[4096];
	const char *argv[] = { "/usr/bin/swaymsg", cmd, NULL };

	snprintf(cmd, sizeof(cmd), "[pid=%d] %s", (int)pid, command);
	if (run_command(argv, out, sizeof(out)) != 0 ||
	    !strstr(out, "\"success\": true"))
		fail_msg("swaymsg %s: %s", cmd, out);
}

static int
reused(cua_tree *t)
{
	return (int)cua_tree_get_stat(t, CUA_STAT_SCREENSHOT_REUSED);
}

/* Observes the fixture with no action since its last observation. */
static cua_tree *
observe_idle(void)
{
	cua_tree *t = NULL;

	if (cua_session_observe(session, app, 0, &t) != CUA_OK)
		fail_msg("observe: %s", cua_error_message());
	if (cua_tree_get_screenshot_error(t))
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	return t;
}

/* 1 when the colour at (x, y) is within 48 of (r, g, b) (JPEG). */
static int
colour_is(const struct img *im, int x, int y, int r, int g, int b)
{
	int c[3];

	assert_true(x >= 0 && y >= 0 && x < im->w && y < im->h);
	img_pixel(im, x, y, c);
	return abs(c[0] - r) <= 48 && abs(c[1] - g) <= 48 &&
	       abs(c[2] - b) <= 48;
}

/* The pattern's four quadrants where the element frame of "Pattern" says,
 * in the screenshot of `t`: 1 when all are there. */
static int
pattern_shown(cua_tree *t)
{
	cua_element *e = find_element(t, NULL, "Pattern");
	int32_t x, y, w, h;
	struct img im;
	double ppp;
	int ok;

	assert_non_null(e);
	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	/* (it fills the window's width) */
	if (w < PATTERN_W || h != PATTERN_H)
		fail_msg("the pattern is %dx%d at %d,%d, not %dx%d", w, h, x, y,
			 PATTERN_W, PATTERN_H);
	ppp = shot_decode(t, &im);
	assert_true(ppp == 1.0);
	ok = colour_is(&im, x + w / 4, y + h / 4, 255, 0, 0) &&
	     colour_is(&im, x + w * 3 / 4, y + h / 4, 0, 255, 0) &&
	     colour_is(&im, x + w / 4, y + h * 3 / 4, 0, 0, 255) &&
	     colour_is(&im, x + w * 3 / 4, y + h * 3 / 4, 255, 255, 0) &&
	     /* the quadrant edges are where the frame says, to a pixel */
	     colour_is(&im, x + 2, y + 2, 255, 0, 0) &&
	     colour_is(&im, x + w - 3, y + h - 3, 255, 255, 0);
	free(im.px);
	return ok;
}

/* The window's frame (the root element's), its screenshot's size. */
static void
frame_and_size(cua_tree *t, int32_t *fw, int32_t *fh, uint32_t *iw,
	       uint32_t *ih)
{
	int32_t x, y;
	const void *data;
	size_t size;
	const char *mime;
	double ppp;

	assert_true(cua_element_get_frame(cua_tree_find_element(t, 0), &x, &y,
					  fw, fh));
	assert_int_equal(
		cua_tree_get_screenshot(t, &data, &size, &mime, iw, ih, &ppp),
		CUA_OK);
}

/* Observes until the window's frame is no longer `w` x `h` points and the
 * screenshot has the new frame's size and shows the pattern where the
 * tree says (a resize reaches the app, and its new buffer the screen, a
 * moment after sway's IPC and the app's tree have it: until then the
 * image shows the old buffer, and the buffer's arrival is damage that
 * the next observation captures); fails after 5 s. */
static cua_tree *
observe_resized(int32_t w, int32_t h)
{
	int32_t fw = 0, fh = 0;
	uint32_t iw = 0, ih = 0;
	int fresh = 0;

	for (int i = 0; i < 50; i++) {
		cua_tree *t = observe_idle();

		frame_and_size(t, &fw, &fh, &iw, &ih);
		fresh += !reused(t);
		if ((fw != w || fh != h) && iw == (uint32_t)fw &&
		    ih == (uint32_t)fh && pattern_shown(t)) {
			fprintf(stderr,
				"# resized to %dx%d: shown after %d "
				"observations, %d captured\n",
				fw, fh, i + 1, fresh);
			return t;
		}
		cua_tree_unref(t);
		usleep(100 * 1000);
	}
	fail_msg("the window of %dx%d points is now %dx%d, its image %ux%u "
		 "(%d captured)",
		 w, h, fw, fh, iw, ih, fresh);
	return NULL;
}

/* Observes until the image is a reused one (the first observation after a
 * change may still catch the last of the app's drawing; a quiet window is
 * reused by the second or third); fails otherwise. */
static cua_tree *
observe_reused(const char *what)
{
	for (int i = 0; i < 3; i++) {
		cua_tree *t;

		usleep(300 * 1000);
		t = observe_idle();
		if (reused(t))
			return t;
		cua_tree_unref(t);
	}
	fail_msg("the image of the quiet window was not reused %s", what);
	return NULL;
}

static void
test_reuse_unchanged(void **state)
{
	static const char *const resizable[] = { "--resizable", NULL };
	static const char *const cover_args[] = { "--cover", "--title", "cover",
						  NULL };
	struct app_proc fx = { 0 }, cover = { 0 };
	cua_tree *t1, *t2, *t3, *t4;
	void *b1, *b2, *b3, *b4;
	size_t n1, n2, n3, n4;
	struct img i2, i3;
	cua_element *e;
	int32_t lx, ly, lw, lh, px, py, pw, ph, fw, fh;
	uint32_t iw, ih;
	char line[128];

	(void)state;
	start_shot(&fx, resizable);
	snprintf(app, sizeof(app), "pid:%d", (int)fx.pid);
	assert_int_equal(app_send(&fx, "label reuse-before 0"), 0);
	assert_int_equal(app_wait_line(&fx, "label", 2000, line, sizeof(line)),
			 0);
	t1 = observe_until_pred(session, app, 10000, has_text,
				(void *)"reuse-before");
	assert_non_null(t1);
	cua_tree_unref(t1);
	usleep(500 * 1000); /* the app has drawn the label */

	/* unchanged: the second image is the first one */
	t1 = observe_idle();
	b1 = shot_copy(t1, &n1);
	t2 = observe_idle();
	b2 = shot_copy(t2, &n2);
	fprintf(stderr,
		"# capture %.1f ms (reused %d), then %.1f ms (reused %d)\n",
		cua_tree_get_stat(t1, CUA_STAT_CAPTURE_US) / 1000.0, reused(t1),
		cua_tree_get_stat(t2, CUA_STAT_CAPTURE_US) / 1000.0,
		reused(t2));
	assert_int_equal(reused(t2), 1);
	assert_int_equal(cua_tree_get_stat(t2, CUA_STAT_ENCODE_US), 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(b1, b2, n1);
	assert_true(pattern_shown(t2));

	/* the app changes its label by itself: no action, only the
	 * compositor's damage tells */
	assert_int_equal(app_send(&fx, "label REUSE-AFTER-WWW 0"), 0);
	assert_int_equal(app_wait_line(&fx, "label", 2000, line, sizeof(line)),
			 0);
	t3 = observe_until_pred(session, app, 5000, has_text,
				(void *)"REUSE-AFTER-WWW");
	assert_non_null(t3);
	assert_int_equal(reused(t3), 0);
	b3 = shot_copy(t3, &n3);
	assert_int_equal(jpeg_decode(b2, n2, &i2), 0);
	assert_int_equal(jpeg_decode(b3, n3, &i3), 0);
	assert_int_equal(i2.w, i3.w);
	assert_int_equal(i2.h, i3.h);
	/* the label's pixels changed, the pattern's did not */
	e = find_element(t3, NULL, "REUSE-AFTER-WWW");
	assert_non_null(e);
	assert_true(cua_element_get_frame(e, &lx, &ly, &lw, &lh));
	e = find_element(t3, NULL, "Pattern");
	assert_non_null(e);
	assert_true(cua_element_get_frame(e, &px, &py, &pw, &ph));
	fprintf(stderr,
		"# label box %dx%d+%d+%d: difference %.1f; pattern %.1f\n", lw,
		lh, lx, ly, img_box_difference(&i2, &i3, lx, ly, lw, lh),
		img_box_difference(&i2, &i3, px, py, pw, ph));
	assert_true(img_box_difference(&i2, &i3, lx, ly, lw, lh) > 2.0);
	assert_true(img_box_difference(&i2, &i3, px, py, pw, ph) < 1.0);
	free(i2.px);
	free(i3.px);
	cua_tree_unref(t3);
	free(b3);

	/* unchanged again: the new image is kept */
	t3 = observe_reused("after the label");
	b3 = shot_copy(t3, &n3);
	t4 = observe_idle();
	b4 = shot_copy(t4, &n4);
	assert_int_equal(reused(t4), 1);
	assert_int_equal(n3, n4);
	assert_memory_equal(b3, b4, n3);
	cua_tree_unref(t3);
	cua_tree_unref(t4);
	free(b3);
	free(b4);

	/* another window over it (sway places it at the output's corner,
	 * where the fixture is): captured anew, the cover's magenta where
	 * the pattern was */
	start_shot(&cover, cover_args);
	usleep(300 * 1000);
	t4 = observe_idle();
	assert_int_equal(reused(t4), 0);
	assert_false(pattern_shown(t4));
	cua_tree_unref(t4);
	/* moved off it: the pattern again */
	sway_do(cover.pid, "move position 700 0");
	usleep(300 * 1000);
	t4 = observe_idle();
	assert_int_equal(reused(t4), 0);
	assert_true(pattern_shown(t4));
	cua_tree_unref(t4);
	/* drawing elsewhere on the output (the cover's own label) leaves
	 * the fixture's image as it was */
	t4 = observe_reused("with the cover beside it");
	cua_tree_unref(t4);
	assert_int_equal(app_send(&cover, "label elsewhere 0"), 0);
	assert_int_equal(
		app_wait_line(&cover, "label", 2000, line, sizeof(line)), 0);
	usleep(300 * 1000);
	t4 = observe_idle();
	assert_int_equal(reused(t4), 1);
	cua_tree_unref(t4);
	app_stop(&cover);

	/* moved: captured anew, the pattern where the frame says */
	t4 = observe_reused("after the cover left");
	cua_tree_unref(t4);
	sway_do(fx.pid, "move position 60 70");
	t4 = observe_idle();
	assert_int_equal(reused(t4), 0);
	assert_true(pattern_shown(t4));
	frame_and_size(t4, &fw, &fh, &iw, &ih);
	cua_tree_unref(t4);

	/* resized: captured anew at the new size */
	t4 = observe_reused("after the move");
	cua_tree_unref(t4);
	assert_int_equal(iw, (uint32_t)fw);
	assert_int_equal(ih, (uint32_t)fh);
	/* (sway keeps a floating window's centre: placed back on the
	 * output, where the watch can see all of it) */
	sway_do(fx.pid, "resize set 600 450, move position 40 50");
	t4 = observe_resized(fw, fh);
	cua_tree_unref(t4);
	t4 = observe_reused("after the resize");
	assert_true(pattern_shown(t4));
	cua_tree_unref(t4);

	free(b1);
	free(b2);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	app_stop(&fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse_unchanged),
	};

	if (getenv("CUA_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUA_TEST_FILTER"));
	return cmocka_run_group_tests_name("wayland-shot", tests, session_setup,
					   session_teardown);
}
