/*
 * The wlroots building blocks against a real headless sway with a real
 * GTK3 app (tests/desktop/fixture-gtk3.c as a native Wayland client):
 * typed text arrives exactly, keys edit, clicks and wheel steps land
 * where they were aimed, captures hold the window's pixels, the window
 * list is true, and a missing protocol is reported with its reason.
 * Effects are read back through the fixture's own output and AT-SPI.
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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "display/wlroots/sway-ipc.h"
#include "display/wlroots/wlr.h"

#include "wl-harness.h"

/* The node, and the window where it is now (read again every time, as
 * a driver does before it acts). */
static void
find(const char *role, const char *name, struct wl_node *n)
{
	if (probe_find(&wl_test_env.probe, FIXTURE_APP, role, name, n) < 0)
		fail_msg("no %s '%s': %s", role, name, n->error);
	if (wl_test_env.ops.window(wl_test_env.ops.data, FIXTURE_APP,
				   &wl_test_env.win) < 0)
		fail_msg("the fixture's window is gone");
}

static void
click_node(const char *role, const char *name)
{
	struct wl_node n;
	double x, y;

	find(role, name, &n);
	node_centre(&wl_test_env.win, &n, &x, &y);
	assert_int_equal(wl_test_env.ops.click(wl_test_env.ops.data, x, y), 0);
}

/* Clicks the entry, selects its text and types `text` over it; checks
 * that exactly `text` arrived, through the app's output (read first: the
 * app prints a line per character and blocks when its pipe is full) and
 * AT-SPI. */
static void
type_into_entry(const char *text)
{
	struct wl_node n;
	char line[1200], want[1200];

	click_node("text", "*");
	assert_int_equal(
		wl_test_env.ops.press_key(wl_test_env.ops.data, "ctrl+a"), 0);
	assert_int_equal(wl_test_env.ops.type_text(wl_test_env.ops.data, text),
			 0);
	snprintf(want, sizeof(want), "entry %s", text);
	if (app_wait_line(&wl_test_env.app, want, 10000, line, sizeof(line)) <
	    0)
		line[0] = '\0';
	if (probe_wait_text(&wl_test_env.probe, FIXTURE_APP, "text", "*", text,
			    5000, &n) < 0 &&
	    (wl_debug_shot(&wl_test_env.ops, "type"), 1))
		fail_msg("the entry holds '%s', not '%s' (%s)", n.text, text,
			 n.error);
	assert_string_equal(line, want);
}

static void
expect_entry(const char *want)
{
	struct wl_node n;

	if (probe_wait_text(&wl_test_env.probe, FIXTURE_APP, "text", "*", want,
			    5000, &n) < 0)
		fail_msg("the entry holds '%s', not '%s' (%s)", n.text, want,
			 n.error);
}

/* ---- capabilities -------------------------------------------------------- */

static void
test_features(void **state)
{
	struct cua_wlr *w;

	assert_int_equal(cua_wlr_open(&w, NULL), CUA_OK);
	for (int f = 0; f < CUA_WLR_N_FEATURES; f++) {
		if (!cua_wlr_has(w, (enum cua_wlr_feature)f))
			fail_msg("%s: %s", cua_wlr_feature_name(f),
				 cua_wlr_feature_reason(w, f));
		assert_null(cua_wlr_feature_reason(w, f));
	}
	cua_wlr_close(w);
}

/* A compositor without screencopy and without foreign toplevels (the
 * globals left unbound), and a session without sway's IPC: each missing
 * piece is named, the calls that need it say so, the rest works. */
static void
test_missing_protocols(void **state)
{
	struct cua_wlr_options opt;
	struct cua_wlr *w;
	struct cua_wlr_shot shot;
	struct cua_wlr_toplevel *tops;
	size_t n;
	const char *why;

	cua_wlr_options_default(&opt);
	opt.skip = 1u << CUA_WLR_CAPTURE | 1u << CUA_WLR_TOPLEVELS;
	opt.swaysock = "";
	assert_int_equal(cua_wlr_open(&w, &opt), CUA_OK);

	assert_false(cua_wlr_has(w, CUA_WLR_CAPTURE));
	why = cua_wlr_feature_reason(w, CUA_WLR_CAPTURE);
	assert_non_null(why);
	assert_non_null(strstr(why, "screencopy protocol"));
	assert_non_null(strstr(why, "zwlr_screencopy_manager_v1"));
	assert_int_equal(cua_wlr_capture(w, NULL, 0, &shot),
			 CUA_ERROR_UNSUPPORTED);
	assert_non_null(strstr(cua_error_get(), "no screen capture: "));
	assert_non_null(strstr(cua_error_get(), "zwlr_screencopy_manager_v1"));

	assert_false(cua_wlr_has(w, CUA_WLR_TOPLEVELS));
	assert_non_null(strstr(cua_wlr_feature_reason(w, CUA_WLR_TOPLEVELS),
			       "zwlr_foreign_toplevel_manager_v1"));
	assert_int_equal(cua_wlr_toplevels(w, &tops, &n),
			 CUA_ERROR_UNSUPPORTED);
	assert_non_null(strstr(cua_error_get(), "no window list: "));

	assert_false(cua_wlr_has(w, CUA_WLR_GEOMETRY));
	why = cua_wlr_feature_reason(w, CUA_WLR_GEOMETRY);
	assert_non_null(strstr(why, "no window positions"));
	assert_non_null(strstr(why, "SWAYSOCK is not set"));
	assert_null(cua_wlr_sway_socket(w));

	/* what is there still works */
	assert_true(cua_wlr_has(w, CUA_WLR_KEYBOARD));
	assert_true(cua_wlr_has(w, CUA_WLR_POINTER));
	assert_int_equal(cua_wlr_roundtrip(w), CUA_OK);
	cua_wlr_close(w);

	/* a socket that is not sway's */
	cua_wlr_options_default(&opt);
	opt.swaysock = "/nonexistent/sway-ipc.sock";
	assert_int_equal(cua_wlr_open(&w, &opt), CUA_OK);
	assert_false(cua_wlr_has(w, CUA_WLR_GEOMETRY));
	why = cua_wlr_feature_reason(w, CUA_WLR_GEOMETRY);
	assert_non_null(strstr(why, "/nonexistent/sway-ipc.sock"));
	cua_wlr_close(w);
}

/* ---- keyboard ---------------------------------------------------------- */

static void
test_type_ascii(void **state)
{
	type_into_entry("Hello, world 42! ~`@#$%^&*()_+-={}[]|\\:;\"'<>?,./");
}

static void
test_type_unicode(void **state)
{
	type_into_entry("h\xc3\xa9llo w\xc3\xb6rld");
	type_into_entry("Gr\xc3\xbc\xc3\x9f"
			"e \xe4\xb8\x96\xe7\x95\x8c "
			"\xf0\x9f\x98\x80 \xe2\x82\xac \xc5\x93 \xd0\x96");
}

/* More different characters off the keyboard than there are spare
 * keycodes (256): typed in runs, with a new keymap between them. */
static void
test_type_many_characters(void **state)
{
	char text[300 * 3 + 1];
	size_t k = 0;

	for (uint32_t cp = 0x4e00; cp < 0x4e00 + 300; cp++) {
		text[k++] = (char)(0xe0 | (cp >> 12));
		text[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		text[k++] = (char)(0x80 | (cp & 0x3f));
	}
	text[k] = '\0';
	type_into_entry(text);
	/* and back to characters on the keyboard and the first extras */
	type_into_entry("plain \xc3\xa9 \xe4\xb8\x80");
}

/* keys the application must know by their keycodes: BackSpace, Delete,
 * arrows, and shortcuts (select all, cut, paste) */
static void
test_editing_keys(void **state)
{
	type_into_entry("abcdef");
	assert_int_equal(
		wl_test_env.ops.press_key(wl_test_env.ops.data, "BackSpace"),
		0);
	expect_entry("abcde");
	assert_int_equal(wl_test_env.ops.press_key(wl_test_env.ops.data,
						   "Left Left Delete"),
			 0);
	expect_entry("abce");
	assert_int_equal(wl_test_env.ops.press_key(wl_test_env.ops.data,
						   "Home shift+End ctrl+x"),
			 0);
	expect_entry("");
	assert_int_equal(wl_test_env.ops.press_key(wl_test_env.ops.data,
						   "ctrl+v ctrl+v"),
			 0);
	expect_entry("abceabce");
	assert_int_equal(wl_test_env.ops.press_key(wl_test_env.ops.data,
						   "ctrl+a BackSpace"),
			 0);
	expect_entry("");
	/* capitals and shifted symbols by key name */
	assert_int_equal(wl_test_env.ops.press_key(wl_test_env.ops.data,
						   "A shift+b question"),
			 0);
	expect_entry("AB?");
}

/* A fresh connection (a fresh virtual keyboard, as after a reconnect)
 * does not lose its first key. */
static void
test_first_key(void **state)
{
	for (int i = 0; i < 3; i++) {
		struct wl_ops fresh;
		struct wl_node n;
		double x, y;

		assert_int_equal(wl_ops_wlr(&fresh), 0);
		find("text", "*", &n);
		node_centre(&wl_test_env.win, &n, &x, &y);
		assert_int_equal(fresh.click(fresh.data, x, y), 0);
		assert_int_equal(fresh.press_key(fresh.data, "ctrl+a"), 0);
		assert_int_equal(fresh.type_text(fresh.data, "first"), 0);
		expect_entry("first");
		fresh.close(fresh.data);
	}
}

static int interrupt_calls;

static cua_result
stop_after_three(void *data)
{
	(void)data;
	if (++interrupt_calls > 3)
		return cua_error(CUA_ERROR_INPUT_BLOCKED,
				 "stopped by the test");
	return CUA_OK;
}

/* An action's interrupt stops the keys between chords: what was typed
 * before it stays, nothing after it arrives, no key is left held. */
static void
test_keys_interrupted(void **state)
{
	struct cua_wlr *w;
	struct cua_key_chord *c;
	size_t n;

	type_into_entry("x");
	assert_int_equal(wl_test_env.ops.press_key(wl_test_env.ops.data,
						   "ctrl+a BackSpace"),
			 0);
	expect_entry("");
	assert_int_equal(cua_wlr_open(&w, NULL), CUA_OK);
	c = cua_keys_from_text("abcdefgh", &n);
	assert_non_null(c);
	interrupt_calls = 0;
	cua_wlr_set_interrupt(w, stop_after_three, NULL);
	assert_int_equal(cua_wlr_keys(w, c, n), CUA_ERROR_INPUT_BLOCKED);
	cua_wlr_set_interrupt(w, NULL, NULL);
	assert_int_equal(interrupt_calls, 4);
	expect_entry("abc");
	/* no modifier or key left down: the next keys type as written */
	assert_int_equal(cua_wlr_keys(w, c, n), CUA_OK);
	expect_entry("abcabcdefgh");
	free(c);
	cua_wlr_close(w);
}

/* ---- pointer ------------------------------------------------------------- */

static void
test_click_toggles(void **state)
{
	struct wl_node n;
	char line[256];
	int was;

	find("check box", "Unchecked box", &n);
	was = node_has_state(&n, "checked");
	click_node("check box", "Unchecked box");
	assert_int_equal(app_wait_line(&wl_test_env.app,
				       "toggled Unchecked box", 5000, line,
				       sizeof(line)),
			 0);
	assert_string_equal(line, was ? "toggled Unchecked box off" :
					"toggled Unchecked box on");
	find("check box", "Unchecked box", &n);
	assert_int_equal(node_has_state(&n, "checked"), !was);
}

static void
test_scroll(void **state)
{
	struct wl_node table, bar, after;
	char line[256];
	double x, y;

	/* the wheel over the canvas: a scroll event, direction down */
	find("drawing area", "Canvas", &table);
	node_centre(&wl_test_env.win, &table, &x, &y);
	assert_int_equal(
		wl_test_env.ops.scroll(wl_test_env.ops.data, x, y, 0, 1), 0);
	assert_int_equal(app_wait_line(&wl_test_env.app, "canvas scroll", 5000,
				       line, sizeof(line)),
			 0);
	assert_string_equal(line, "canvas scroll 1"); /* GDK_SCROLL_DOWN */
	/* and sideways. GTK 3.24.38's Wayland backend names discrete
	 * horizontal steps the wrong way round: a step left arrives as
	 * axis 1, value -15, discrete -1 (WAYLAND_DEBUG=1 shows it) and
	 * GTK reports GDK_SCROLL_RIGHT (3); vertical steps are named
	 * right. */
	assert_int_equal(
		wl_test_env.ops.scroll(wl_test_env.ops.data, x, y, -1, 0), 0);
	assert_int_equal(app_wait_line(&wl_test_env.app, "canvas scroll", 5000,
				       line, sizeof(line)),
			 0);
	assert_string_equal(line, "canvas scroll 3");
	assert_int_equal(
		wl_test_env.ops.scroll(wl_test_env.ops.data, x, y, 1, 0), 0);
	assert_int_equal(app_wait_line(&wl_test_env.app, "canvas scroll", 5000,
				       line, sizeof(line)),
			 0);
	assert_string_equal(line, "canvas scroll 2");

	/* three steps over the list of items scroll it down */
	find("table", "*", &table);
	assert_int_equal(probe_find_state(&wl_test_env.probe, FIXTURE_APP,
					  "scroll bar", "*", "vertical", &bar),
			 0);
	assert_true(bar.has_value);
	assert_true(bar.ext.x >= table.ext.x &&
		    bar.ext.x < table.ext.x + table.ext.w + 20);
	node_centre(&wl_test_env.win, &table, &x, &y);
	assert_int_equal(
		wl_test_env.ops.scroll(wl_test_env.ops.data, x, y, 0, 3), 0);
	for (int i = 0; i < 50; i++) {
		probe_find_state(&wl_test_env.probe, FIXTURE_APP, "scroll bar",
				 "*", "vertical", &after);
		if (after.value > bar.value)
			break;
		usleep(100 * 1000);
	}
	if (!(after.value > bar.value))
		fail_msg("the list did not scroll (%g, then %g)", bar.value,
			 after.value);
	/* and back up */
	assert_int_equal(
		wl_test_env.ops.scroll(wl_test_env.ops.data, x, y, 0, -3), 0);
	for (int i = 0; i < 50; i++) {
		probe_find_state(&wl_test_env.probe, FIXTURE_APP, "scroll bar",
				 "*", "vertical", &after);
		if (after.value < bar.value + 0.5)
			break;
		usleep(100 * 1000);
	}
	if (!(after.value < bar.value + 0.5))
		fail_msg("the list did not scroll back (%g, then %g)",
			 bar.value, after.value);
}

/* A click at the screenshot pixel of a button's centre lands on that
 * button: AT-SPI extents, capture pixels and pointer positions agree. */
static void
test_click_at_screenshot_pixel(void **state)
{
	struct cua_rgb img;
	struct wl_node beta;
	char line[256];
	int px, py;
	const uint8_t *p;

	find("push button", "Beta", &beta);
	assert_int_equal(wl_test_env.ops.capture(wl_test_env.ops.data,
						 &wl_test_env.win.content,
						 &img),
			 0);
	/* the button's centre in the screenshot: capture origin = the
	 * window's visible area = the surface (no shadow when tiled) */
	px = beta.ext.x + beta.ext.w / 2;
	py = beta.ext.y + beta.ext.h / 2;
	assert_true(px < (int)img.width && py < (int)img.height);
	/* the label is drawn there: dark text on the light button face */
	{
		int dark = 0;

		for (int y = beta.ext.y; y < beta.ext.y + beta.ext.h; y++)
			for (int x = beta.ext.x; x < beta.ext.x + beta.ext.w;
			     x++) {
				p = img.data + ((size_t)y * img.width + x) * 3;
				dark += p[0] < 100 && p[1] < 100 && p[2] < 100;
			}
		assert_true(dark > 10);
	}
	assert_int_equal(
		wl_test_env.ops.click(wl_test_env.ops.data,
				      wl_test_env.win.content.x + px + 0.5,
				      wl_test_env.win.content.y + py + 0.5),
		0);
	assert_int_equal(app_wait_line(&wl_test_env.app, "clicked", 5000, line,
				       sizeof(line)),
			 0);
	assert_string_equal(line, "clicked Beta #2");
	cua_rgb_free(&img);
}

/* ---- capture -------------------------------------------------------------- */

static double
luma_variance(const struct cua_rgb *img)
{
	double sum = 0, sq = 0;
	size_t n = (size_t)img->width * img->height;

	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = img->data + 3 * i;
		double l = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];

		sum += l;
		sq += l * l;
	}
	return sq / n - (sum / n) * (sum / n);
}

static void
test_capture_window(void **state)
{
	struct cua_rgb img, crop;
	struct wl_node check;
	struct cua_rect r;
	int blue = 0;

	find("check box", "Check me", &check);
	/* the window at rest: two captures in a row the same (GTK animates
	 * focus and hover changes of the previous tests for a while) */
	assert_int_equal(wl_test_env.ops.capture(wl_test_env.ops.data,
						 &wl_test_env.win.content,
						 &img),
			 0);
	for (int i = 0; i < 40; i++) {
		struct cua_rgb again;
		int same;

		usleep(50 * 1000);
		assert_int_equal(wl_test_env.ops.capture(
					 wl_test_env.ops.data,
					 &wl_test_env.win.content, &again),
				 0);
		same = again.width == img.width && again.height == img.height &&
		       memcmp(again.data, img.data,
			      (size_t)img.width * img.height * 3) == 0;
		cua_rgb_free(&img);
		img = again;
		if (same)
			break;
	}
	assert_int_equal(img.width, wl_test_env.win.content.w);
	assert_int_equal(img.height, wl_test_env.win.content.h);
	/* a window with widgets and text, not a blank */
	assert_true(luma_variance(&img) > 100.0);

	/* the checked box is drawn in the theme's blue */
	for (int y = check.ext.y; y < check.ext.y + check.ext.h; y++)
		for (int x = check.ext.x; x < check.ext.x + 24; x++) {
			const uint8_t *p =
				img.data + ((size_t)y * img.width + x) * 3;

			blue += p[2] > 150 && p[2] > p[0] + 60;
		}
	assert_true(blue > 20);

	/* a capture of the check box alone is the same pixels */
	r.x = wl_test_env.win.content.x + check.ext.x;
	r.y = wl_test_env.win.content.y + check.ext.y;
	r.w = check.ext.w;
	r.h = check.ext.h;
	assert_int_equal(
		wl_test_env.ops.capture(wl_test_env.ops.data, &r, &crop), 0);
	assert_int_equal(crop.width, r.w);
	assert_int_equal(crop.height, r.h);
	for (int y = 0; y < r.h; y++)
		assert_memory_equal(
			crop.data + (size_t)y * crop.width * 3,
			img.data + (((size_t)(check.ext.y + y) * img.width) +
				    (size_t)check.ext.x) *
					   3,
			(size_t)crop.width * 3);
	cua_rgb_free(&crop);
	cua_rgb_free(&img);
}

static void
test_capture_bad_rect(void **state)
{
	struct cua_wlr *w;
	struct cua_wlr_shot shot;
	struct cua_rect off = { 5000, 5000, 10, 10 }, empty = { 0, 0, 0, 5 };
	struct cua_rect edge = { 1200, 700, 200, 200 };
	struct cua_rect over = { -100, -50, 300, 100 };

	assert_int_equal(cua_wlr_open(&w, NULL), CUA_OK);
	assert_int_equal(cua_wlr_capture(w, &off, 0, &shot),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(cua_error_get(), "off every screen"));
	assert_int_equal(cua_wlr_capture(w, &empty, 0, &shot),
			 CUA_ERROR_INVALID_ARGUMENT);
	/* partly off the output: cut to it, and said so in shot.rect */
	assert_int_equal(cua_wlr_capture(w, &edge, 0, &shot), CUA_OK);
	assert_int_equal(shot.rect.x, 1200);
	assert_int_equal(shot.rect.w, 80);
	assert_int_equal(shot.rect.h, 100);
	assert_int_equal(shot.px.width, 80);
	free(shot.px.data);
	assert_int_equal(cua_wlr_capture(w, &over, 0, &shot), CUA_OK);
	assert_int_equal(shot.rect.x, 0);
	assert_int_equal(shot.rect.y, 0);
	assert_int_equal(shot.rect.w, 200);
	assert_int_equal(shot.rect.h, 50);
	free(shot.px.data);
	cua_wlr_close(w);
}

/* ---- windows --------------------------------------------------------------- */

static void
test_windows(void **state)
{
	struct cua_wlr *w;
	struct cua_wlr_toplevel *tops;
	struct wl_node frame;
	struct wl_window win;
	size_t n;
	int found = 0;

	assert_int_equal(cua_wlr_open(&w, NULL), CUA_OK);
	assert_int_equal(cua_wlr_toplevels(w, &tops, &n), CUA_OK);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(tops[i].app_id, FIXTURE_APP) != 0)
			continue;
		found++;
		assert_string_equal(tops[i].title, "libcua fixture");
		assert_true(tops[i].activated);
		assert_int_equal(tops[i].parent, 0);
	}
	assert_int_equal(found, 1);
	cua_wlr_toplevels_free(tops, n);

	/* pid, title and geometry from sway's IPC agree with AT-SPI */
	assert_int_equal(
		wl_test_env.ops.window(wl_test_env.ops.data, FIXTURE_APP, &win),
		0);
	assert_int_equal(win.pid, wl_test_env.app.pid);
	assert_string_equal(win.title, "libcua fixture");
	assert_true(win.focused);
	assert_int_equal(probe_app(&wl_test_env.probe, FIXTURE_APP, &frame), 0);
	assert_int_equal(frame.pid, wl_test_env.app.pid);
	assert_int_equal(frame.ext.w, win.content.w);
	assert_int_equal(frame.ext.h, win.content.h);
	cua_wlr_close(w);
}

/* The title changes and the list follows; a second window appears with
 * its parent, and activation moves between them. */
static void
test_window_changes(void **state)
{
	struct cua_wlr *w;
	struct cua_wlr_toplevel *tops = NULL;
	size_t n = 0;
	uint32_t main_id = 0, dialog_id = 0;
	int confirmed;

	assert_int_equal(cua_wlr_open(&w, NULL), CUA_OK);
	assert_int_equal(app_send(&wl_test_env.app, "title Renamed fixture"),
			 0);
	assert_int_equal(app_send(&wl_test_env.app, "dialog-open"), 0);
	for (int i = 0; i < 100 && !dialog_id; i++) {
		cua_wlr_toplevels_free(tops, n);
		assert_int_equal(cua_wlr_toplevels(w, &tops, &n), CUA_OK);
		for (size_t k = 0; k < n; k++) {
			if (strcmp(tops[k].title, "Renamed fixture") == 0)
				main_id = tops[k].id;
			if (strcmp(tops[k].title, "Settings") == 0)
				dialog_id = tops[k].id;
		}
		if (!dialog_id)
			usleep(100 * 1000);
	}
	assert_true(main_id != 0);
	assert_true(dialog_id != 0);
	/* sway 1.7 does not send the dialog's parent: not checked */
	cua_wlr_toplevels_free(tops, n);

	assert_int_equal(
		cua_wlr_toplevel_activate(w, main_id, 2000, &confirmed),
		CUA_OK);
	assert_true(confirmed);
	assert_int_equal(
		cua_wlr_toplevel_activate(w, dialog_id, 2000, &confirmed),
		CUA_OK);
	assert_true(confirmed);
	assert_int_equal(cua_wlr_toplevel_activate(w, 99999, 500, &confirmed),
			 CUA_ERROR_NOT_FOUND);

	assert_int_equal(app_send(&wl_test_env.app, "dialog-close"), 0);
	assert_int_equal(app_send(&wl_test_env.app, "title libcua fixture"), 0);
	for (int i = 0; i < 100; i++) {
		int gone = 1;

		assert_int_equal(cua_wlr_toplevels(w, &tops, &n), CUA_OK);
		for (size_t k = 0; k < n; k++)
			gone &= tops[k].id != dialog_id;
		cua_wlr_toplevels_free(tops, n);
		if (gone)
			break;
		usleep(100 * 1000);
	}
	cua_wlr_close(w);
	/* the fixture's window has the focus again for the next tests */
	assert_int_equal(wl_test_env.ops.window(wl_test_env.ops.data,
						FIXTURE_APP, &wl_test_env.win),
			 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_missing_protocols),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_type_ascii),
		cmocka_unit_test(test_type_unicode),
		cmocka_unit_test(test_type_many_characters),
		cmocka_unit_test(test_editing_keys),
		cmocka_unit_test(test_first_key),
		cmocka_unit_test(test_keys_interrupted),
		cmocka_unit_test(test_click_toggles),
		cmocka_unit_test(test_scroll),
		cmocka_unit_test(test_click_at_screenshot_pixel),
		cmocka_unit_test(test_capture_window),
		cmocka_unit_test(test_capture_bad_rect),
		cmocka_unit_test(test_window_changes),
	};

	return cmocka_run_group_tests(tests, wl_test_env_start,
				      wl_test_env_stop);
}
