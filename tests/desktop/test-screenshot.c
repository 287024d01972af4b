/*
 * Desktop tests of screenshots, settle and pixel coordinates
 * (docs/screenshots.md): a fixture window painted with a known pattern is
 * captured and its pixels checked, also covered by another window and
 * hanging off the screen edge; the settle waits for a delayed change and
 * a busy app; a capture that hangs (the app grabbed the X server and was
 * stopped) times out while the text still returns; the screenshots and
 * marks of real apps (GTK 3, GTK 4, Qt, Chromium) are sane.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <turbojpeg.h>

#include "common.h"

/* the fixture, by pid (a second instance covers it in one test) */
static char APP[32];

/* The colour at (x, y) is within 48 of `want` (JPEG at quality 80). */
#define assert_colour(im, x, y, r_, g_, b_)                                    \
	do {                                                                   \
		int c_[3];                                                     \
		img_pixel((im), (x), (y), c_);                                 \
		if (abs(c_[0] - (r_)) > 48 || abs(c_[1] - (g_)) > 48 ||        \
		    abs(c_[2] - (b_)) > 48)                                    \
			fail_msg("pixel (%d,%d) is %d,%d,%d, want %d,%d,%d",   \
				 (x), (y), c_[0], c_[1], c_[2], (r_), (g_),    \
				 (b_));                                        \
	} while (0)

struct fx {
	struct app_proc app;
	cua_session *s;
	unsigned long xid;
};

static struct fx fx;

static int
has_pattern(cua_tree *t, void *data)
{
	return find_element(t, NULL, "Pattern") != NULL &&
	       find_element(t, "button", "Press") != NULL;
}

static int
start_fixture(struct app_proc *p, const char *const *extra, unsigned long *xid)
{
	const char *argv[8] = { FIXTURE_SHOT };
	char line[256];
	int n = 1;

	for (; extra && *extra && n < 7; extra++)
		argv[n++] = *extra;
	argv[n] = NULL;
	if (app_start(p, argv, 1) < 0 ||
	    app_wait_line(p, "ready", 10000, line, sizeof(line)) < 0)
		return -1;
	if (xid)
		*xid = strtoul(line + 6, NULL, 16);
	return 0;
}

static int
setup(void **state)
{
	cua_tree *t;

	memset(&fx, 0, sizeof(fx));
	*state = &fx; /* the teardown ends what a failed start left */
	if (start_fixture(&fx.app, NULL, &fx.xid) < 0)
		return -1;
	snprintf(APP, sizeof(APP), "pid:%d", (int)fx.app.pid);
	fx.s = test_session();
	t = observe_until_pred(fx.s, APP, 10000, has_pattern, NULL);
	if (!t)
		return -1;
	cua_tree_unref(t);
	return 0;
}

static int
teardown(void **state)
{
	cua_session_unref(fx.s);
	app_stop(&fx.app);
	return 0;
}

static void
move_to(struct app_proc *p, int x, int y)
{
	char cmd[64], line[64];

	snprintf(cmd, sizeof(cmd), "move %d %d", x, y);
	assert_int_equal(app_send(p, cmd), 0);
	assert_int_equal(app_wait_line(p, "moved", 5000, line, sizeof(line)),
			 0);
	usleep(200 * 1000); /* the window manager applies the move */
}

/* Observes the fixture and checks the pattern's four quadrants in the
 * screenshot, at the element frame of "Pattern". */
static void
check_pattern(cua_session *s)
{
	cua_tree *t = observe_until_pred(s, APP, 5000, has_pattern, NULL);
	cua_element *e;
	const void *data;
	size_t size;
	const char *mime;
	uint32_t w, h;
	double ppp;
	int32_t fx_, fy, fw, fh;
	struct img im;
	int cx[2], cy[2];

	assert_non_null(t);
	if (cua_tree_get_screenshot(t, &data, &size, &mime, &w, &h, &ppp) !=
	    CUA_OK)
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	assert_null(cua_tree_get_screenshot_error(t));
	assert_string_equal(mime, "image/jpeg");
	assert_true(size > 1000);
	/* small windows are not scaled */
	assert_true(ppp == 1.0);
	assert_int_equal(jpeg_decode(data, size, &im), 0);
	assert_int_equal(im.w, (int)w);
	assert_int_equal(im.h, (int)h);
	e = find_element(t, NULL, "Pattern");
	assert_non_null(e);
	assert_true(cua_element_get_frame(e, &fx_, &fy, &fw, &fh));
	assert_int_equal(fw, 400);
	assert_int_equal(fh, 240);
	assert_true(fx_ >= 0 && fy >= 0 && fx_ + fw <= (int)w &&
		    fy + fh <= (int)h);
	cx[0] = fx_ + fw / 4;
	cx[1] = fx_ + fw * 3 / 4;
	cy[0] = fy + fh / 4;
	cy[1] = fy + fh * 3 / 4;
	assert_colour(&im, cx[0], cy[0], 255, 0, 0);
	assert_colour(&im, cx[1], cy[0], 0, 255, 0);
	assert_colour(&im, cx[0], cy[1], 0, 0, 255);
	assert_colour(&im, cx[1], cy[1], 255, 255, 0);
	/* the quadrant edges are where the frame says, to a pixel */
	assert_colour(&im, fx_ + 2, fy + 2, 255, 0, 0);
	assert_colour(&im, fx_ + fw - 3, fy + fh - 3, 255, 255, 0);
	free(im.px);
	cua_tree_unref(t);
}

static void
test_pattern(void **state)
{
	move_to(&fx.app, 100, 100);
	check_pattern(fx.s);
}

/* CUA_OBSERVE_SCREENSHOT_GEOMETRY: no image, and each pixel maps to the
 * screen point a captured screenshot's pixel maps to (docs/screenshots.md
 * §2.2), wherever the window is. */
static void
test_geometry_only(void **state)
{
	static const int at[2][2] = { { 100, 100 }, { 260, 170 } };
	const void *data;
	size_t size;
	const char *mime;
	uint32_t w, h;
	double ppp;

	(void)state;
	for (int k = 0; k < 2; k++) {
		cua_tree *t, *g;
		int32_t sx, sy, gx, gy;

		move_to(&fx.app, at[k][0], at[k][1]);
		t = observe_until_pred(fx.s, APP, 5000, has_pattern, NULL);
		assert_non_null(t);
		if (cua_tree_get_screenshot(t, &data, &size, &mime, &w, &h,
					    &ppp) != CUA_OK)
			fail_msg("no screenshot: %s",
				 cua_tree_get_screenshot_error(t));
		assert_int_equal(
			cua_session_observe(
				fx.s, APP, CUA_OBSERVE_SCREENSHOT_GEOMETRY, &g),
			CUA_OK);
		assert_int_not_equal(cua_tree_get_screenshot(g, &data, &size,
							     &mime, NULL, NULL,
							     NULL),
				     CUA_OK);
		for (int i = 0; i < 3; i++) {
			double x = i == 0 ? 0 : i == 1 ? w - 1 : w / 2.0;
			double y = i == 0 ? 0 : i == 1 ? h - 1 : h / 3.0;

			assert_int_equal(cua_tree_screenshot_to_screen(
						 t, x, y, &sx, &sy),
					 CUA_OK);
			assert_int_equal(cua_tree_screenshot_to_screen(
						 g, x, y, &gx, &gy),
					 CUA_OK);
			if (sx != gx || sy != gy)
				fail_msg("window at %d,%d: pixel %.0f,%.0f is "
					 "%d,%d captured, %d,%d from the "
					 "geometry alone",
					 at[k][0], at[k][1], x, y, sx, sy, gx,
					 gy);
		}
		/* the image it would be has the same size */
		assert_int_equal(
			cua_tree_screenshot_to_screen(g, w + 1, 0, &gx, &gy),
			CUA_ERROR_INVALID_ARGUMENT);
		cua_tree_unref(g);
		cua_tree_unref(t);
	}
}

/* The share (0..1) of the fixture window's area that shows magenta on the
 * screen (the root window): how much of it the cover hides. */
static double
magenta_on_screen(unsigned long xid)
{
	Display *dpy = XOpenDisplay(NULL);
	Window child;
	XWindowAttributes wa;
	XImage *im;
	int rx, ry, x0, y0, x1, y1, n = 0, all = 0;

	assert_non_null(dpy);
	assert_true(XGetWindowAttributes(dpy, (Window)xid, &wa));
	assert_true(XTranslateCoordinates(dpy, (Window)xid, wa.root, 0, 0, &rx,
					  &ry, &child));
	x0 = rx < 0 ? 0 : rx;
	y0 = ry < 0 ? 0 : ry;
	x1 = rx + wa.width;
	y1 = ry + wa.height;
	if (x1 > DisplayWidth(dpy, DefaultScreen(dpy)))
		x1 = DisplayWidth(dpy, DefaultScreen(dpy));
	if (y1 > DisplayHeight(dpy, DefaultScreen(dpy)))
		y1 = DisplayHeight(dpy, DefaultScreen(dpy));
	assert_true(x1 > x0 && y1 > y0);
	im = XGetImage(dpy, wa.root, x0, y0, (unsigned)(x1 - x0),
		       (unsigned)(y1 - y0), AllPlanes, ZPixmap);
	assert_non_null(im);
	for (int y = 0; y < y1 - y0; y += 4)
		for (int x = 0; x < x1 - x0; x += 4) {
			unsigned long p = XGetPixel(im, x, y);

			all++;
			n += (p & 0xff0000) >> 16 > 200 &&
			     (p & 0xff00) >> 8 < 60 && (p & 0xff) > 200;
		}
	XDestroyImage(im);
	XCloseDisplay(dpy);
	return all ? (double)n / all : 0;
}

static void
test_covered(void **state)
{
	struct app_proc cover;
	const char *args[] = { "--cover", "--title", "cover", NULL };
	cua_tree *t;
	double hidden;

	move_to(&fx.app, 100, 100);
	assert_int_equal(start_fixture(&cover, args, NULL), 0);
	move_to(&cover, 80, 80);
	assert_int_equal(app_send(&cover, "raise"), 0);
	usleep(300 * 1000);
	/* the cover is on top now: on the screen, most of the fixture's
	 * window is the cover's magenta */
	hidden = magenta_on_screen(fx.xid);
	fprintf(stderr, "# %.0f%% of the fixture's window is covered\n",
		hidden * 100);
	if (hidden < 0.4)
		fail_msg("the cover hides only %.0f%% of the fixture's window",
			 hidden * 100);
	/* the fixture's own pixels still come: the pattern, no magenta */
	check_pattern(fx.s);
	/* and the cover itself shows magenta where its pattern would be */
	{
		char q[32];
		const void *data;
		size_t size;
		const char *mime;
		struct img im;
		cua_element *e;
		int32_t x, y, w, h;

		snprintf(q, sizeof(q), "pid:%d", (int)cover.pid);
		t = observe_until_pred(fx.s, q, 5000, has_pattern, NULL);
		assert_non_null(t);
		assert_int_equal(cua_tree_get_screenshot(t, &data, &size, &mime,
							 NULL, NULL, NULL),
				 CUA_OK);
		assert_int_equal(jpeg_decode(data, size, &im), 0);
		e = find_element(t, NULL, "Pattern");
		assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
		assert_colour(&im, x + w / 4, y + h / 4, 255, 0, 255);
		free(im.px);
		cua_tree_unref(t);
	}
	app_stop(&cover);
}

static void
test_offscreen(void **state)
{
	/* 1280x1024 screen: most of the window hangs past both edges */
	move_to(&fx.app, 1100, 900);
	check_pattern(fx.s);
	move_to(&fx.app, -250, 100);
	check_pattern(fx.s);
	move_to(&fx.app, 100, 100);
}

static int
has_label(cua_tree *t, const char *text)
{
	char *s = render(t);
	int r = strstr(s, text) != NULL;

	cua_free(s);
	return r;
}

static void
test_settle_delayed_change(void **state)
{
	cua_tree *t = NULL;
	char line[128];

	/* within the quiet interval after an action */
	assert_int_equal(app_send(&fx.app, "label later-150 150"), 0);
	assert_int_equal(
		cua_session_observe(fx.s, APP, CUA_OBSERVE_AFTER_ACTION, &t),
		CUA_OK);
	assert_true(has_label(t, "later-150"));
	assert_true(cua_tree_get_stat(t, CUA_STAT_SETTLE_US) >= 150 * 1000);
	assert_true(cua_tree_get_stat(t, CUA_STAT_SETTLE_US) < 1000 * 1000);
	cua_tree_unref(t);
	assert_int_equal(
		app_wait_line(&fx.app, "label", 2000, line, sizeof(line)), 0);

	/* 300 ms later, while the app says it is busy */
	assert_int_equal(app_send(&fx.app, "busy-label later-300 300"), 0);
	assert_int_equal(
		cua_session_observe(fx.s, APP, CUA_OBSERVE_AFTER_ACTION, &t),
		CUA_OK);
	assert_true(has_label(t, "later-300"));
	assert_true(cua_tree_get_stat(t, CUA_STAT_SETTLE_US) >= 300 * 1000);
	assert_true(cua_tree_get_stat(t, CUA_STAT_SETTLE_US) < 2000 * 1000);
	cua_tree_unref(t);
	assert_int_equal(
		app_wait_line(&fx.app, "label", 2000, line, sizeof(line)), 0);
}

static void
test_settle_idle(void **state)
{
	cua_tree *t = NULL;
	int64_t settle;

	/* observed before and idle since: no wait */
	t = observe_until(fx.s, APP, 5000);
	cua_tree_unref(t);
	usleep(300 * 1000);
	assert_int_equal(cua_session_observe(fx.s, APP, 0, &t), CUA_OK);
	settle = cua_tree_get_stat(t, CUA_STAT_SETTLE_US);
	fprintf(stderr, "# settle of an idle app: %.1f ms\n", settle / 1000.0);
	assert_true(settle < 50 * 1000);
	cua_tree_unref(t);
}

/* ---- reuse of an unchanged window's image ---- */

/* Observes without an action since the last observation. */
static cua_tree *
observe_idle(void)
{
	cua_tree *t = NULL;

	assert_int_equal(cua_session_observe(fx.s, APP, 0, &t), CUA_OK);
	return t;
}

/* A second observation of the unchanged window reuses the first one's
 * image; a change the app makes on its own (no action: only the window's
 * damage tells) and a move are captured anew, with the pixels of the
 * change (docs/screenshots.md §2.1). */
static void
test_reuse_unchanged(void **state)
{
	cua_tree *t1, *t2, *t3, *t4;
	void *b1, *b2, *b3, *b4;
	size_t n1, n2, n3, n4;
	struct img i2, i3;
	cua_element *e;
	int32_t lx, ly, lw, lh, px, py, pw, ph;
	char line[128];

	assert_int_equal(app_send(&fx.app, "label reuse-before 0"), 0);
	assert_int_equal(
		app_wait_line(&fx.app, "label", 2000, line, sizeof(line)), 0);
	t1 = observe_until_pred(fx.s, APP, 5000, has_pattern, NULL);
	assert_non_null(t1);
	assert_true(has_label(t1, "reuse-before"));
	cua_tree_unref(t1);
	usleep(500 * 1000); /* the app has drawn the label */

	/* unchanged: the second image is the first one */
	t1 = observe_idle();
	b1 = shot_copy(t1, &n1);
	t2 = observe_idle();
	b2 = shot_copy(t2, &n2);
	fprintf(stderr,
		"# capture %.1f ms (reused %d), then %.1f ms (reused "
		"%d)\n",
		cua_tree_get_stat(t1, CUA_STAT_CAPTURE_US) / 1000.0,
		(int)cua_tree_get_stat(t1, CUA_STAT_SCREENSHOT_REUSED),
		cua_tree_get_stat(t2, CUA_STAT_CAPTURE_US) / 1000.0,
		(int)cua_tree_get_stat(t2, CUA_STAT_SCREENSHOT_REUSED));
	assert_int_equal(cua_tree_get_stat(t2, CUA_STAT_SCREENSHOT_REUSED), 1);
	assert_int_equal(cua_tree_get_stat(t2, CUA_STAT_ENCODE_US), 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(b1, b2, n1);

	/* the app changes its label by itself */
	assert_int_equal(app_send(&fx.app, "label REUSE-AFTER-WWW 0"), 0);
	assert_int_equal(
		app_wait_line(&fx.app, "label", 2000, line, sizeof(line)), 0);
	t3 = observe_until_pred(fx.s, APP, 5000, has_pattern, NULL);
	assert_non_null(t3);
	assert_true(has_label(t3, "REUSE-AFTER-WWW"));
	assert_int_equal(cua_tree_get_stat(t3, CUA_STAT_SCREENSHOT_REUSED), 0);
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
		"# label box %dx%d+%d+%d: difference %.1f; pattern "
		"%.1f\n",
		lw, lh, lx, ly, img_box_difference(&i2, &i3, lx, ly, lw, lh),
		img_box_difference(&i2, &i3, px, py, pw, ph));
	assert_true(img_box_difference(&i2, &i3, lx, ly, lw, lh) > 2.0);
	assert_true(img_box_difference(&i2, &i3, px, py, pw, ph) < 1.0);
	free(i2.px);
	free(i3.px);

	/* unchanged again: the new image is kept */
	usleep(300 * 1000);
	t4 = observe_idle();
	b4 = shot_copy(t4, &n4);
	if (!cua_tree_get_stat(t4, CUA_STAT_SCREENSHOT_REUSED)) {
		/* the first observation after the change may catch the
		 * last of its drawing; the next one must not */
		cua_tree_unref(t4);
		free(b4);
		free(b3);
		t4 = observe_idle();
		b3 = shot_copy(t4, &n3);
		cua_tree_unref(t4);
		t4 = observe_idle();
		b4 = shot_copy(t4, &n4);
	}
	assert_int_equal(cua_tree_get_stat(t4, CUA_STAT_SCREENSHOT_REUSED), 1);
	assert_int_equal(n3, n4);
	assert_memory_equal(b3, b4, n3);
	cua_tree_unref(t4);

	/* moved: captured anew, the pattern where the frame says */
	move_to(&fx.app, 60, 70);
	t4 = observe_idle();
	assert_int_equal(cua_tree_get_stat(t4, CUA_STAT_SCREENSHOT_REUSED), 0);
	cua_tree_unref(t4);
	check_pattern(fx.s);

	free(b1);
	free(b2);
	free(b3);
	free(b4);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_tree_unref(t3);
}

/* ---- a hung capture ---- */

static int grab_armed;

static void
grab_on_capture(cua_session *s, cua_log_level level, const char *msg,
		void *data)
{
	char line[64];

	if (!grab_armed || strncmp(msg, "capture: window", 15) != 0)
		return;
	grab_armed = 0;
	/* the app grabs the X server and stops: every other X client,
	 * the capture included, now waits forever */
	if (app_send(&fx.app, "grab") == 0 &&
	    app_wait_line(&fx.app, "grabbed", 5000, line, sizeof(line)) == 0)
		kill(fx.app.pid, SIGSTOP);
}

static void
test_capture_timeout(void **state)
{
	cua_session *s = test_session();
	cua_tree *t = NULL;
	int64_t t0;
	char *text;
	cua_result r;

	assert_int_equal(
		cua_session_set_option(s, "capture_timeout_ms", "1000"),
		CUA_OK);
	assert_int_equal(cua_session_set_option(
				 s, "capture_fallback_timeout_ms", "1000"),
			 CUA_OK);
	t = observe_until_pred(s, APP, 5000, has_pattern, NULL);
	assert_non_null(t);
	cua_tree_unref(t);
	cua_session_set_log_level(s, CUA_LOG_DEBUG);
	cua_session_set_log_handler(s, grab_on_capture, NULL);
	grab_armed = 1;
	t0 = now_ms();
	r = cua_session_observe(s, APP, 0, &t);
	kill(fx.app.pid, SIGCONT);
	assert_int_equal(app_send(&fx.app, "ungrab"), 0);
	cua_session_set_log_handler(s, NULL, NULL);
	cua_session_set_log_level(s, CUA_LOG_WARNING);
	assert_int_equal(r, CUA_OK);
	assert_int_equal(grab_armed, 0);
	/* capture 1 s, xwd 1 s (+1 s from SIGTERM to SIGKILL), with slack */
	assert_true(now_ms() - t0 < 1000 + 1000 + 1000 + 1500);
	assert_string_equal(cua_tree_get_screenshot_error(t),
			    "the capture timed out");
	text = render(t);
	assert_non_null(strstr(text, " button Press"));
	cua_free(text);
	cua_tree_unref(t);
	/* a later observation (the hung capture returned meanwhile, or xwd
	 * takes over) has its image again: the window's own pixels */
	usleep(300 * 1000);
	check_pattern(s);
	cua_session_unref(s);
}

/* ---- coordinate clicks at the screenshot pixel of an element ---- */

static int
has_el(cua_tree *t, void *data)
{
	const char *const *rt = data;

	return find_element(t, rt[0], rt[1]) != NULL;
}

/* The centre of an element's box in screenshot pixels (what the marks
 * picture shows). */
static void
element_pixel(cua_tree *t, cua_element *e, double *px, double *py)
{
	const void *data;
	size_t size;
	const char *mime;
	double ppp = 0;
	int32_t x, y, w, h;

	assert_int_equal(cua_tree_get_screenshot(t, &data, &size, &mime, NULL,
						 NULL, &ppp),
			 CUA_OK);
	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	*px = (x + w / 2.0) * ppp;
	*py = (y + h / 2.0) * ppp;
}

static void
test_click_at_gtk3(void **state)
{
	cua_tree *t;
	double px, py;
	char line[64], *outcome = NULL;

	move_to(&fx.app, 100, 100);
	t = observe_until_pred(fx.s, APP, 5000, has_pattern, NULL);
	assert_non_null(t);
	element_pixel(t, find_element(t, "button", "Press"), &px, &py);
	if (cua_session_click_at(fx.s, APP, px, py, CUA_BUTTON_LEFT, 1,
				 &outcome) != CUA_OK)
		fail_msg("click_at: %s", cua_error_message());
	cua_free(outcome);
	assert_int_equal(
		app_wait_line(&fx.app, "clicked", 3000, line, sizeof(line)), 0);
	cua_tree_unref(t);
}

static const char *
value_of(cua_tree *t, uint32_t id)
{
	cua_element *e = cua_tree_find_element(t, id);

	return e ? cua_element_get_value(e) : "";
}

static void
test_click_at_gtk4(void **state)
{
	const char *argv[] = { "gtk4-widget-factory", NULL };
	const char *rt[] = { "checkbox", "checkbutton" };
	struct app_proc app;
	cua_tree *t, *t2;
	cua_element *e;
	char q[32], before[32], *outcome = NULL;
	double px, py;
	uint32_t id;

	assert_int_equal(app_start(&app, argv, 0), 0);
	snprintf(q, sizeof(q), "pid:%d", (int)app.pid);
	t = observe_until_pred(fx.s, q, 20000, has_el, rt);
	assert_non_null(t);
	/* an enabled check box */
	e = NULL;
	for (size_t i = 0; i < cua_tree_get_element_count(t) && !e; i++) {
		cua_element *c = cua_tree_get_element(t, i);

		if (strcmp(cua_element_get_role(c), "checkbox") == 0 &&
		    !(cua_element_get_traits(c) & CUA_TRAIT_DISABLED))
			e = c;
	}
	assert_non_null(e);
	id = cua_element_get_id(e);
	snprintf(before, sizeof(before), "%s", cua_element_get_value(e));
	element_pixel(t, e, &px, &py);
	if (cua_session_click_at(fx.s, q, px, py, CUA_BUTTON_LEFT, 1,
				 &outcome) != CUA_OK)
		fail_msg("click_at: %s", cua_error_message());
	cua_free(outcome);
	t2 = NULL;
	for (int i = 0; i < 20; i++) {
		cua_tree_unref(t2);
		t2 = observe_until(fx.s, q, 5000);
		if (t2 && strcmp(value_of(t2, id), before) != 0)
			break;
		usleep(100 * 1000);
	}
	assert_non_null(t2);
	if (strcmp(value_of(t2, id), before) == 0)
		fail_msg(
			"check box %u still '%s' after the click at (%.1f, %.1f)",
			id, before, px, py);
	cua_tree_unref(t2);
	cua_tree_unref(t);
	app_stop(&app);
}

static int
has_menu_item(cua_tree *t, void *data)
{
	return find_element(t, "menu item", NULL) != NULL;
}

static void
test_click_at_qt(void **state)
{
	const char *argv[] = { "featherpad", NULL };
	/* Qt menu bar items carry no role text: "16 Edit, Secondary ..." */
	const char *rt[] = { "", "Edit" };
	struct app_proc app;
	cua_tree *t, *t2;
	char q[32], *outcome = NULL;
	double px, py;

	assert_int_equal(app_start(&app, argv, 0), 0);
	snprintf(q, sizeof(q), "pid:%d", (int)app.pid);
	t = observe_until_pred(fx.s, q, 20000, has_el, rt);
	if (!t) {
		/* the menu bar item's role text, whatever it is */
		t = observe_until(fx.s, q, 5000);
		assert_non_null(t);
		fail_msg("no menu bar item Edit in:\n%s", render(t));
	}
	assert_null(find_element(t, "menu item", NULL));
	element_pixel(t, find_element(t, rt[0], rt[1]), &px, &py);
	if (cua_session_click_at(fx.s, q, px, py, CUA_BUTTON_LEFT, 1,
				 &outcome) != CUA_OK)
		fail_msg("click_at: %s", cua_error_message());
	cua_free(outcome);
	/* the Edit menu opened */
	t2 = observe_until_pred(fx.s, q, 5000, has_menu_item, NULL);
	assert_non_null(t2);
	cua_tree_unref(t2);
	cua_tree_unref(t);
	app_stop(&app);
}

/* ---- real apps ---- */

/* Non-blank: enough distinct colours. */
static int
colourful(const struct img *im)
{
	int seen[64] = { 0 }, n = 0;

	for (int y = 0; y < im->h; y += 7)
		for (int x = 0; x < im->w; x += 7) {
			const unsigned char *p =
				im->px + ((size_t)y * im->w + x) * 3;
			int k = (p[0] >> 6) << 4 | (p[1] >> 6) << 2 |
				(p[2] >> 6);

			if (!seen[k]++)
				n++;
		}
	return n;
}

/* Observes `app`, checks its screenshot and that marks are drawn on the
 * frame of the element (role, title); writes both images to
 * $CUA_TEST_OUT (when set) for a person to look at. */
static void
check_app(cua_tree *t, const char *name, const char *role, const char *title)
{
	const void *data;
	size_t size, msize;
	const char *mime;
	uint32_t w, h;
	double ppp;
	void *marks = NULL;
	struct img im, mk;
	cua_element *e;
	int32_t ex, ey, ew, eh;
	int bx, by, diff = 0;
	const char *dir = getenv("CUA_TEST_OUT");

	if (cua_tree_get_screenshot(t, &data, &size, &mime, &w, &h, &ppp) !=
	    CUA_OK)
		fail_msg("%s: no screenshot: %s", name,
			 cua_tree_get_screenshot_error(t));
	assert_true(w <= 2048 && h <= 768 + 0 * w);
	assert_true(ppp > 0 && ppp <= 1.0);
	assert_int_equal(jpeg_decode(data, size, &im), 0);
	if (colourful(&im) < 4)
		fail_msg("%s: the screenshot looks blank", name);
	assert_int_equal(cua_tree_render_marks(t, 0, &marks, &msize), CUA_OK);
	assert_int_equal(jpeg_decode(marks, msize, &mk), 0);
	assert_int_equal(mk.w, im.w);
	assert_int_equal(mk.h, im.h);
	e = find_element(t, role, title);
	if (!e)
		fail_msg("%s: no %s '%s'", name, role, title);
	assert_true(cua_element_get_frame(e, &ex, &ey, &ew, &eh));
	/* the box outline runs along the element's frame (window points
	 * x pixels_per_point, within a pixel): the marks picture differs
	 * from the screenshot there */
	by = (int)((ey + eh / 2.0) * ppp);
	for (int dx = -1; dx <= 1; dx++) {
		int a[3], b[3];

		bx = (int)(ex * ppp + 0.5) + dx;
		if (bx < 0 || bx >= im.w || by < 0 || by >= im.h)
			continue;
		img_pixel(&im, bx, by, a);
		img_pixel(&mk, bx, by, b);
		diff += abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]);
	}
	if (diff < 60)
		fail_msg("%s: no mark at the left edge of %s '%s' (%d,%d)",
			 name, role, title, ex, ey);
	if (dir) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.jpg", dir, name);
		if ((f = fopen(path, "we"))) {
			fwrite(data, 1, size, f);
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/%s-marks.jpg", dir, name);
		if ((f = fopen(path, "we"))) {
			fwrite(marks, 1, msize, f);
			fclose(f);
		}
	}
	fprintf(stderr, "# %s: %ux%u, pixels per point %.4f, %zu bytes\n", name,
		w, h, ppp, size);
	free(im.px);
	free(mk.px);
	cua_free(marks);
}

static void
run_app(const char *exe, const char *role, const char *title)
{
	const char *rt[] = { role, title };
	const char *argv[] = { exe, NULL };
	struct app_proc app;
	char q[32];
	cua_tree *t;

	assert_int_equal(app_start(&app, argv, 0), 0);
	snprintf(q, sizeof(q), "pid:%d", (int)app.pid);
	t = observe_until_pred(fx.s, q, 20000, has_el, rt);
	assert_non_null(t);
	check_app(t, exe, role, title);
	cua_tree_unref(t);
	app_stop(&app);
}

static void
test_gtk3_widget_factory(void **state)
{
	run_app("gtk3-widget-factory", "checkbox", "checkbutton");
}

static void
test_gtk4_widget_factory(void **state)
{
	run_app("gtk4-widget-factory", "checkbox", "checkbutton");
}

static void
test_featherpad(void **state)
{
	run_app("featherpad", "menu bar", NULL);
}

static void
test_chromium(void **state)
{
	const char *rt[] = { "button", "Submit order" };
	struct web_browser chromium;
	cua_tree *t;

	chromium_start(&chromium, "form.html");
	t = observe_until_pred(fx.s, "chromium", 30000, has_el, rt);
	if (!t && cua_session_observe(fx.s, "chromium", CUA_OBSERVE_NO_LAUNCH,
				      &t) == CUA_OK) {
		char *text = render(t);

		fail_msg("no Submit order button in:\n%s", text);
	}
	assert_non_null(t);
	check_app(t, "chromium", rt[0], rt[1]);
	cua_tree_unref(t);
	if (web_browser_stop(&chromium) < 0)
		fprintf(stderr, "# could not remove %s\n", chromium.profile);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern),
		cmocka_unit_test(test_geometry_only),
		cmocka_unit_test(test_covered),
		cmocka_unit_test(test_offscreen),
		cmocka_unit_test(test_settle_idle),
		cmocka_unit_test(test_settle_delayed_change),
		cmocka_unit_test(test_reuse_unchanged),
		cmocka_unit_test(test_capture_timeout),
		cmocka_unit_test(test_click_at_gtk3),
		cmocka_unit_test(test_click_at_gtk4),
		cmocka_unit_test(test_click_at_qt),
		cmocka_unit_test(test_gtk3_widget_factory),
		cmocka_unit_test(test_gtk4_widget_factory),
		cmocka_unit_test(test_featherpad),
		cmocka_unit_test(test_chromium),
	};

	return run_test_group("screenshot", tests, setup, teardown);
}
