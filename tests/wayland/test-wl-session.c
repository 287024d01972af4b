/*
 * A libcua session on headless sway through the public API, with the
 * wlroots display driver: the driver is chosen and reports its
 * capabilities, the screenshot holds the window, a click at the
 * screenshot pixel of an element's centre lands on that element, typed
 * text (non-ASCII too) and keys arrive, and a desktop without window
 * positions refuses what needs them with its sentence. Effects are read
 * back through the fixture's own output and AT-SPI (atspi-probe), not
 * through libcua.
 *
 * Run by meson inside tests/wayland/sway-session (suite `wayland`).
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

#include "core/image.h"
#include "display/display.h"
#include "display/wlroots/sway-ipc.h"
#include "display/wlroots/wlr.h"

#include "wl-harness.h"

#define APP FIXTURE_APP

struct env {
	struct wl_env wl;
	cua_session *s;
	char stderr_path[64];
	int saved_stderr;
};

static struct env E;

/* Everything libcua writes to stderr goes to a file while the session
 * lives: a Wayland session prints no X11 noise. */
static void
capture_stderr(void)
{
	int fd;

	snprintf(E.stderr_path, sizeof(E.stderr_path),
		 "/tmp/cua-wl-session-stderr.XXXXXX");
	fd = mkstemp(E.stderr_path);
	if (fd < 0)
		return;
	fflush(stderr);
	E.saved_stderr = dup(2);
	dup2(fd, 2);
	close(fd);
}

static void
restore_stderr(char *buf, size_t size)
{
	FILE *f;
	size_t n = 0;

	buf[0] = '\0';
	if (E.saved_stderr <= 0)
		return;
	fflush(stderr);
	dup2(E.saved_stderr, 2);
	close(E.saved_stderr);
	E.saved_stderr = 0;
	f = fopen(E.stderr_path, "r");
	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	unlink(E.stderr_path);
}

static int
setup(void **state)
{
	if (wl_env_start(&E.wl) < 0)
		return -1;
	E.s = test_session();
	return 0;
}

static int
teardown(void **state)
{
	E.s = cua_session_unref(E.s);
	wl_env_stop(&E.wl);
	return 0;
}

static json_t *
display_info(cua_session *s)
{
	char *text = NULL;
	json_t *j;

	assert_int_equal(cua_session_get_display_info(s, &text), CUA_OK);
	j = json_loads(text, 0, NULL);
	cua_free(text);
	assert_non_null(j);
	return j;
}

static const char *
jstr(json_t *j, const char *path1, const char *path2, const char *key)
{
	if (path1)
		j = json_object_get(j, path1);
	if (path2)
		j = json_object_get(j, path2);
	return json_string_value(json_object_get(j, key));
}

/* The driver was chosen from the environment, and every capability is
 * there. */
static void
test_display_info(void **state)
{
	static const char *const caps[] = { "windows", "geometry", "screenshot",
					    "pointer", "keyboard" };
	json_t *j = display_info(E.s);
	json_t *c = json_object_get(j, "capabilities");

	(void)state;
	assert_string_equal(jstr(j, NULL, NULL, "driver"), "wlroots");
	assert_string_equal(jstr(j, NULL, NULL, "session"), "wayland");
	assert_string_equal(jstr(j, NULL, NULL, "chosen_by"), "auto");
	assert_string_equal(jstr(j, NULL, NULL, "display"),
			    getenv("WAYLAND_DISPLAY"));
	assert_int_equal(strncmp(jstr(j, NULL, NULL, "server"), "sway ", 5), 0);
	for (size_t i = 0; i < sizeof(caps) / sizeof(*caps); i++) {
		json_t *ci = json_object_get(c, caps[i]);

		if (!json_is_true(json_object_get(ci, "available")))
			fail_msg("%s unavailable: %s", caps[i],
				 json_string_value(
					 json_object_get(ci, "reason")));
	}
	json_decref(j);
}

/* The observation's screenshot: the window's size under the scaling
 * rule, and its pixels (not one flat colour). */
static void
test_screenshot(void **state)
{
	cua_tree *t = observe_until(E.s, APP, 15000);
	const void *data;
	size_t size;
	const char *mime;
	uint32_t w, h;
	double ppp, sum = 0, sum2 = 0, mean, var;
	struct cua_rgb img;
	size_t n;

	(void)state;
	assert_non_null(t);
	if (cua_tree_get_screenshot(t, &data, &size, &mime, &w, &h, &ppp) !=
	    CUA_OK)
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	assert_string_equal(mime, "image/jpeg");
	/* the window is tiled over the output (1280 wide, less sway's title
	 * bar), scaled to at most 768 pixels high */
	assert_true(ppp > 0 && ppp <= 1);
	assert_true(fabs(w - E.wl.win.content.w * ppp) <= 1.0);
	assert_true(fabs(h - E.wl.win.content.h * ppp) <= 1.0);
	assert_int_equal(cua_image_decode_jpeg(&img, data, size), 0);
	assert_int_equal(img.width, w);
	assert_int_equal(img.height, h);
	n = (size_t)w * h;
	for (size_t i = 0; i < n * 3; i++) {
		sum += img.data[i];
		sum2 += (double)img.data[i] * img.data[i];
	}
	mean = sum / (n * 3);
	var = sum2 / (n * 3) - mean * mean;
	cua_rgb_free(&img);
	/* widgets, text and borders: far from one flat colour */
	assert_true(var > 100);
	cua_tree_unref(t);
}

/* The screenshot pixel of an element's centre. */
static void
element_pixel(cua_tree *t, const char *role, const char *title, double *px,
	      double *py)
{
	cua_element *e = find_element(t, role, title);
	int32_t x, y, w, h;
	const void *data;
	size_t size;
	const char *mime;
	double ppp;

	if (!e)
		fail_msg("no %s '%s' in the tree", role, title);
	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	assert_int_equal(cua_tree_get_screenshot(t, &data, &size, &mime, NULL,
						 NULL, &ppp),
			 CUA_OK);
	*px = (x + w / 2.0) * ppp;
	*py = (y + h / 2.0) * ppp;
}

/* Element frames, screenshot pixels and pointer positions agree: a
 * click at the pixel of a check box's centre toggles that check box. */
static void
test_click_at_element_pixel(void **state)
{
	cua_tree *t = observe_until(E.s, APP, 15000);
	struct wl_node n;
	char line[256];
	double px, py;

	(void)state;
	assert_non_null(t);
	element_pixel(t, "checkbox", "Unchecked box", &px, &py);
	if (cua_session_click_at(E.s, APP, px, py, CUA_BUTTON_LEFT, 1, NULL) !=
	    CUA_OK)
		fail_msg("click_at %g,%g: %s", px, py, cua_error_message());
	assert_int_equal(
		app_wait_line(&E.wl.app, "toggled", 5000, line, sizeof(line)),
		0);
	assert_string_equal(line, "toggled Unchecked box on");
	assert_int_equal(
		probe_find(&E.wl.probe, APP, "check box", "Unchecked box", &n),
		0);
	assert_true(node_has_state(&n, "checked"));
	cua_tree_unref(t);
}

/* A click by element through the pointer (always_simulate_click): the
 * button reports the click. */
static void
test_click_element_pointer(void **state)
{
	cua_tree *t = observe_until(E.s, APP, 15000);
	cua_element *e;
	char line[256];

	(void)state;
	assert_non_null(t);
	e = find_element(t, "button", "Beta");
	assert_non_null(e);
	assert_int_equal(
		cua_session_set_option(E.s, "always_simulate_click", "1"),
		CUA_OK);
	if (cua_session_click(E.s, APP, cua_element_get_id(e), CUA_BUTTON_LEFT,
			      1, NULL) != CUA_OK)
		fail_msg("click: %s", cua_error_message());
	assert_int_equal(
		cua_session_set_option(E.s, "always_simulate_click", "0"),
		CUA_OK);
	assert_int_equal(
		app_wait_line(&E.wl.app, "clicked", 5000, line, sizeof(line)),
		0);
	assert_int_equal(strncmp(line, "clicked Beta", 12), 0);
	cua_tree_unref(t);
}

/* Wheel steps at a screenshot pixel (pointer buttons 4 and 5 as axis
 * steps): the canvas under that pixel reports them, down then up. */
static void
test_scroll_at_pixel(void **state)
{
	cua_tree *t = observe_until(E.s, APP, 15000);
	char line[256];
	double px, py;

	(void)state;
	assert_non_null(t);
	element_pixel(t, NULL, "Canvas", &px, &py);
	if (cua_session_scroll_at(E.s, APP, px, py, "down", 0.1, NULL) !=
	    CUA_OK)
		fail_msg("scroll_at down: %s", cua_error_message());
	assert_int_equal(app_wait_line(&E.wl.app, "canvas scroll", 5000, line,
				       sizeof(line)),
			 0);
	assert_string_equal(line, "canvas scroll 1"); /* GDK_SCROLL_DOWN */
	while (app_wait_line(&E.wl.app, "canvas scroll", 300, line,
			     sizeof(line)) == 0)
		;
	if (cua_session_scroll_at(E.s, APP, px, py, "up", 0.1, NULL) != CUA_OK)
		fail_msg("scroll_at up: %s", cua_error_message());
	assert_int_equal(app_wait_line(&E.wl.app, "canvas scroll", 5000, line,
				       sizeof(line)),
			 0);
	assert_string_equal(line, "canvas scroll 0"); /* GDK_SCROLL_UP */
	cua_tree_unref(t);
}

/* A drag between screenshot pixels (press, motion, release) moves the
 * slider under it from near its left end to near its right end. */
static void
test_drag_slider(void **state)
{
	cua_tree *t = observe_until(E.s, APP, 15000);
	cua_element *e;
	int32_t x, y, w, h;
	const void *data;
	size_t size;
	const char *mime;
	double ppp, first = -1, value = -1;
	char line[256];

	(void)state;
	assert_non_null(t);
	e = find_element(t, "slider", NULL);
	assert_non_null(e);
	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	assert_int_equal(cua_tree_get_screenshot(t, &data, &size, &mime, NULL,
						 NULL, &ppp),
			 CUA_OK);
	if (cua_session_drag(E.s, APP, (x + w * 0.15) * ppp,
			     (y + h / 2.0) * ppp, (x + w * 0.95) * ppp,
			     (y + h / 2.0) * ppp, NULL) != CUA_OK)
		fail_msg("drag: %s", cua_error_message());
	/* the press put the slider near its left end (GTK warps it to the
	 * pointer), the motion took it near the right end: a drag, not two
	 * clicks */
	while (app_wait_line(&E.wl.app, "scale ", value < 0 ? 5000 : 500, line,
			     sizeof(line)) == 0) {
		value = atof(line + 6);
		if (first < 0)
			first = value;
	}
	if (!(first >= 0 && first < 40 && value > 80))
		fail_msg("the slider went from %g to %g, not from its left end "
			 "to its right end",
			 first, value);
	cua_tree_unref(t);
}

/* Focus the entry, select all, type over it with key events: the text
 * arrives exactly, non-ASCII included; then keys edit it. */
static void
test_type_and_keys(void **state)
{
	static const char text[] = "Grüße 世界 ok";
	cua_tree *t = observe_until(E.s, APP, 15000);
	cua_element *e;
	struct wl_node n;

	(void)state;
	assert_non_null(t);
	e = find_element(t, "text field", NULL);
	assert_non_null(e);
	if (cua_session_click(E.s, APP, cua_element_get_id(e), CUA_BUTTON_LEFT,
			      1, NULL) != CUA_OK)
		fail_msg("click on the entry: %s", cua_error_message());
	cua_tree_unref(t);
	t = observe_until(E.s, APP, 15000);
	cua_tree_unref(t);
	assert_int_equal(cua_session_set_option(E.s, "type_text_keys", "1"),
			 CUA_OK);
	if (cua_session_press_key(E.s, APP, "ctrl+a", NULL) != CUA_OK)
		fail_msg("press_key ctrl+a: %s", cua_error_message());
	if (cua_session_type_text(E.s, APP, text, NULL) != CUA_OK)
		fail_msg("type_text: %s", cua_error_message());
	if (probe_wait_text(&E.wl.probe, APP, "text", "*", text, 5000, &n) < 0)
		fail_msg("the entry holds '%s', not '%s' (%s)", n.text, text,
			 n.error);
	/* keys: BackSpace twice removes "ok", Home then Delete the "G" */
	if (cua_session_press_key(E.s, APP, "BackSpace BackSpace Home Delete",
				  NULL) != CUA_OK)
		fail_msg("press_key: %s", cua_error_message());
	if (probe_wait_text(&E.wl.probe, APP, "text", "*", "rüße 世界 ", 5000,
			    &n) < 0)
		fail_msg("the entry holds '%s' after the keys (%s)", n.text,
			 n.error);
	assert_int_equal(cua_session_set_option(E.s, "type_text_keys", "0"),
			 CUA_OK);
}

/* A session of its own, start to end, writes nothing to stderr: no
 * Xlib messages on Wayland (DISPLAY is unset here; the x11 driver is
 * never opened). */
static void
test_no_x11_noise(void **state)
{
	char err[4096];
	cua_session *s;
	cua_tree *t;
	char *info = NULL;

	(void)state;
	capture_stderr();
	s = test_session();
	t = observe_until(s, APP, 15000);
	cua_session_get_display_info(s, &info);
	cua_free(info);
	cua_tree_unref(t);
	cua_session_unref(s);
	restore_stderr(err, sizeof(err));
	assert_non_null(t);
	if (strstr(err, "Authorization") || strstr(err, "Xlib") ||
	    strstr(err, "X11") || strstr(err, "X server") ||
	    strstr(err, "DISPLAY"))
		fail_msg("X11 noise on stderr: %s", err);
}

/* Without sway's IPC the driver knows no window positions: it says so,
 * and the screenshot and a pixel click refuse with that sentence, while
 * the tree still reads. */
static void
test_no_geometry(void **state)
{
	char *sock = strdup(getenv("SWAYSOCK"));
	cua_session *s;
	cua_tree *t;
	json_t *j;
	const char *why, *err;
	cua_result r;

	(void)state;
	unsetenv("SWAYSOCK");
	s = test_session();
	j = display_info(s);
	assert_string_equal(jstr(j, NULL, NULL, "driver"), "wlroots");
	why = jstr(j, "capabilities", "geometry", "reason");
	assert_non_null(why);
	assert_non_null(strstr(why, "the compositor gives no window "
				    "positions"));
	assert_non_null(strstr(why, "SWAYSOCK is not set"));
	assert_false(json_is_true(json_object_get(
		json_object_get(json_object_get(j, "capabilities"),
				"screenshot"),
		"available")));
	/* the keyboard does not need positions */
	assert_true(json_is_true(json_object_get(
		json_object_get(json_object_get(j, "capabilities"), "keyboard"),
		"available")));
	t = observe_until(s, APP, 15000);
	assert_non_null(t);
	assert_true(cua_tree_get_element_count(t) > 10);
	err = cua_tree_get_screenshot_error(t);
	assert_non_null(err);
	assert_non_null(strstr(err, "SWAYSOCK is not set"));
	r = cua_session_click_at(s, APP, 10, 10, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_not_equal(r, CUA_OK);
	if (!strstr(cua_error_message(), "unavailable on this desktop") ||
	    !strstr(cua_error_message(), "SWAYSOCK is not set"))
		fail_msg("click_at without positions: %s", cua_error_message());
	cua_tree_unref(t);
	json_decref(j);
	cua_session_unref(s);
	setenv("SWAYSOCK", sock, 1);
	free(sock);
}

/* A compositor without a protocol (left unbound on request, as the
 * compositor not offering it looks to a client): its capability names
 * the protocol, the others stay. */
static void
test_missing_protocol(void **state)
{
	struct cua_wlr_options opt;
	struct cua_display *d = NULL;
	struct cua_display_caps caps;
	struct cua_ctx ctx;

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	cua_options_default(&ctx.opt);
	ctx.log_level = CUA_LOG_WARNING;
	cua_wlr_options_default(&opt);
	opt.skip = 1u << CUA_WLR_KEYBOARD | 1u << CUA_WLR_CAPTURE;
	assert_int_equal(cua_display_wlroots_open(&ctx, &opt, &d), CUA_OK);
	d->ops->capabilities(d, &caps);
	assert_false(caps.cap[CUA_DISPLAY_CAP_KEYBOARD].ok);
	assert_string_equal(caps.cap[CUA_DISPLAY_CAP_KEYBOARD].why,
			    "the compositor does not offer the virtual "
			    "keyboard protocol (zwp_virtual_keyboard_manager_"
			    "v1), left unbound on request");
	assert_false(caps.cap[CUA_DISPLAY_CAP_SCREENSHOT].ok);
	assert_non_null(strstr(caps.cap[CUA_DISPLAY_CAP_SCREENSHOT].why,
			       "zwlr_screencopy_manager_v1"));
	assert_true(caps.cap[CUA_DISPLAY_CAP_POINTER].ok);
	assert_true(caps.cap[CUA_DISPLAY_CAP_GEOMETRY].ok);
	assert_true(caps.cap[CUA_DISPLAY_CAP_WINDOWS].ok);
	cua_display_close(d);
}

/* Observes `app` until its screenshot error contains `want` (NULL: until
 * it has a screenshot); returns the tree, or fails with the last error. */
static cua_tree *
observe_shot(cua_session *s, const char *app, const char *want)
{
	int64_t deadline = now_ms() + 20000;
	char last[512] = "";

	for (;;) {
		cua_tree *t = NULL;
		const char *err;

		if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t) ==
		    CUA_OK) {
			err = cua_tree_get_screenshot_error(t);
			if (want ? err && strstr(err, want) : !err)
				return t;
			snprintf(last, sizeof(last), "%s",
				 err ? err : "(a screenshot)");
			cua_tree_unref(t);
		} else {
			snprintf(last, sizeof(last), "%s", cua_error_message());
		}
		if (now_ms() > deadline)
			fail_msg("%s: wanted %s, last: %s", app,
				 want ? want : "a screenshot", last);
		usleep(300 * 1000);
	}
}

static int
sway_pid_window(int pid, struct cua_sway_window *out)
{
	struct cua_sway_window *sw = NULL;
	size_t n = 0;
	int found = 0;

	if (cua_sway_windows(getenv("SWAYSOCK"), 2000, &sw, &n) != CUA_OK)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (sw[i].pid == pid) {
			*out = sw[i];
			out->app_id = out->name = out->shell = NULL;
			out->instance = NULL;
			out->workspace = out->output = NULL;
			found = 1;
		}
	}
	cua_sway_windows_free(sw, n);
	return found;
}

/* The n-th element (0 first) titled `title`, in the tree's order. */
static cua_element *
nth_titled(cua_tree *t, const char *title, int n)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);
		const char *et = cua_element_get_title(e);

		if (et && strcmp(et, title) == 0 && n-- == 0)
			return e;
	}
	return NULL;
}

/* A floating GTK 3 window with a header bar draws its own shadow around
 * its content (26, 23, 26, 29 px), of a size sway does not tell: its
 * accessibility frame is larger than its content on every side, and the
 * rectangle the frame's children fill is the content. The screenshot is
 * the content, and a click at the screenshot pixel of the first toggle
 * button's centre toggles that button (read back through AT-SPI): off by
 * the shadow, the pointer would land in the gap below it. Tiled, the
 * window has no shadow and gets its screenshot. */
static void
test_client_side_shadow(void **state)
{
	const char *argv[] = { "gtk3-widget-factory", NULL };
	const char *sock = getenv("SWAYSOCK");
	struct app_proc wf;
	struct cua_sway_window sw;
	struct wl_node first, on;
	char app[32], cmd[96];
	cua_tree *t;
	cua_element *e;
	int32_t x, y, fw, fh;
	int64_t deadline;
	uint32_t w, h;
	const void *data;
	size_t size;
	const char *mime;
	double ppp;

	(void)state;
	if (access("/usr/bin/gtk3-widget-factory", X_OK) != 0)
		fail_msg("gtk3-widget-factory is not installed "
			 "(tools/setup-debian installs gtk-3-examples)");
	assert_int_equal(app_start(&wf, argv, 0), 0);
	deadline = now_ms() + 30000;
	while (!sway_pid_window(wf.pid, &sw)) {
		if (now_ms() > deadline) {
			app_stop(&wf);
			fail_msg("gtk3-widget-factory never showed its window");
		}
		usleep(200 * 1000);
	}
	snprintf(app, sizeof(app), "pid:%d", (int)wf.pid);
	/* floating at the corner of an output it fits in (it is 1415 px
	 * wide; a capture holds only what an output shows) */
	assert_int_equal(cua_sway_command(sock, 2000,
					  "output HEADLESS-1 mode --custom "
					  "1600x900@60Hz"),
			 CUA_OK);
	snprintf(cmd, sizeof(cmd),
		 "[pid=%d] floating enable, move position 0 0", (int)wf.pid);
	assert_int_equal(cua_sway_command(sock, 2000, cmd), CUA_OK);
	/* floating, with its shadow: the AT-SPI frame is larger than the
	 * content on every side */
	deadline = now_ms() + 10000;
	for (;;) {
		struct wl_node frame;

		if (probe_app(&E.wl.probe, "gtk3-widget-factory", &frame) ==
			    0 &&
		    sway_pid_window(wf.pid, &sw) && sw.content.x == 0 &&
		    sw.content.y == 0 && frame.ext.w > sw.content.w &&
		    frame.ext.h > sw.content.h)
			break;
		if (now_ms() > deadline)
			fail_msg("gtk3-widget-factory: no shadow around the "
				 "floating window");
		usleep(200 * 1000);
	}
	t = observe_shot(E.s, app, NULL);
	assert_true(cua_tree_get_element_count(t) > 10);
	assert_int_equal(
		cua_tree_get_screenshot(t, &data, &size, &mime, &w, &h, &ppp),
		CUA_OK);
	/* the content, shadow left out */
	assert_true(sway_pid_window(wf.pid, &sw));
	if (fabs(w - sw.content.w * ppp) > 1.0 ||
	    fabs(h - sw.content.h * ppp) > 1.0)
		fail_msg("screenshot %ux%u at %g, sway's content %dx%d", w, h,
			 ppp, sw.content.w, sw.content.h);

	/* the first toggle button (enabled, off) is not the first one on
	 * (the third) */
	assert_int_equal(probe_find(&E.wl.probe, "gtk3-widget-factory",
				    "toggle button", "togglebutton", &first),
			 0);
	assert_false(node_has_state(&first, "checked"));
	assert_int_equal(probe_find_state(&E.wl.probe, "gtk3-widget-factory",
					  "toggle button", "togglebutton",
					  "checked", &on),
			 0);
	assert_int_not_equal(on.ext.y, first.ext.y);
	e = nth_titled(t, "togglebutton", 0);
	assert_non_null(e);
	assert_true(cua_element_get_frame(e, &x, &y, &fw, &fh));
	assert_int_equal(fw, first.ext.w);
	assert_int_equal(fh, first.ext.h);
	if (cua_session_click_at(E.s, app, (x + fw / 2.0) * ppp,
				 (y + fh / 2.0) * ppp, CUA_BUTTON_LEFT, 1,
				 NULL) != CUA_OK)
		fail_msg("click_at: %s", cua_error_message());
	/* now the first one is on */
	deadline = now_ms() + 5000;
	for (;;) {
		assert_int_equal(
			probe_find_state(&E.wl.probe, "gtk3-widget-factory",
					 "toggle button", "togglebutton",
					 "checked", &on),
			0);
		if (on.ext.x == first.ext.x && on.ext.y == first.ext.y)
			break;
		if (now_ms() > deadline)
			fail_msg("the click at the first toggle button's pixel "
				 "did not toggle it");
		usleep(100 * 1000);
	}
	cua_tree_unref(t);

	/* tiled: no shadow, a screenshot of the tile */
	snprintf(cmd, sizeof(cmd), "[pid=%d] floating disable", (int)wf.pid);
	assert_int_equal(cua_sway_command(sock, 2000, cmd), CUA_OK);
	t = observe_shot(E.s, app, NULL);
	assert_int_equal(
		cua_tree_get_screenshot(t, &data, &size, &mime, &w, &h, &ppp),
		CUA_OK);
	assert_true(sway_pid_window(wf.pid, &sw));
	assert_true(fabs(w - sw.content.w * ppp) <= 1.0);
	assert_true(fabs(h - sw.content.h * ppp) <= 1.0);
	cua_tree_unref(t);
	app_stop(&wf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_display_info),
		cmocka_unit_test(test_screenshot),
		cmocka_unit_test(test_click_at_element_pixel),
		cmocka_unit_test(test_click_element_pointer),
		cmocka_unit_test(test_scroll_at_pixel),
		cmocka_unit_test(test_drag_slider),
		cmocka_unit_test(test_type_and_keys),
		cmocka_unit_test(test_no_x11_noise),
		cmocka_unit_test(test_no_geometry),
		cmocka_unit_test(test_missing_protocol),
		/* last: a second app shares the output with the fixture */
		cmocka_unit_test(test_client_side_shadow),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
