/*
 * bench-display: what the session's display driver costs on the desktop it
 * runs in (X11, headless sway or headless GNOME), through the public API,
 * with the GTK 3 fixture's window at 1280 x 800:
 *
 *   first frame  a new session's first observation with its screenshot:
 *                the whole call (the driver's set-up included: on GNOME
 *                the remote-desktop and screen-cast sessions and the
 *                stream's first frame) and its capture alone;
 *   screenshot   capture, and scale + encode, in a running session
 *                (CUA_STAT_CAPTURE_US, CUA_STAT_ENCODE_US), how many of
 *                these images of the unchanged window were reused
 *                (CUA_STAT_SCREENSHOT_REUSED), and the whole observation;
 *                then the same after the app changed its window by itself
 *                (a check box toggled from its command channel: no
 *                action), which must be captured anew;
 *   typing       type_text of 100 characters with key events: the call
 *                (which reads the typed text back before it returns), and
 *                until the app printed the whole text;
 *   click        a click at a screenshot pixel (a check box's centre):
 *                the call, and until the app reported the toggle.
 *
 *   meson compile -C build bench-display-x11
 *   meson compile -C build bench-display-sway
 *   meson compile -C build bench-display-mutter
 * or by hand: cua desktop run [--wayland KIND] -- \
 *       build/tests/desktop/bench-display FIXTURE [ROUNDS]
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cua/cua.h>

#include "bench-util.h"
#include "common.h"

#define APP "fixture-gtk3"

static const char text100[] =
	"The quick brown fox jumps over the lazy dog 0123456789 "
	"pack my box with five dozen liquor jugs! abcd";

/* The observation's screenshot: CUA_OK and its size and scale, or why
 * not. */
static cua_result
shot(cua_tree *t, uint32_t *w, uint32_t *h, double *ppp)
{
	const void *data;
	size_t size;
	const char *mime;

	return cua_tree_get_screenshot(t, &data, &size, &mime, w, h, ppp);
}

static void
die(const char *what)
{
	fprintf(stderr, "bench-display: %s: %s\n", what, cua_error_message());
	exit(1);
}

/* An observation of the fixture once its window took the size asked for
 * (1280 x 800 inside; the window's frame may add its decorations). */
static cua_tree *
observe_sized(cua_session *s)
{
	int64_t deadline = now_ms() + 10000;

	for (;;) {
		cua_tree *t = observe_until(s, APP, 10000);
		int32_t w = 0, h = 0;

		if (!t)
			die("observe");
		if (cua_element_get_frame(cua_tree_get_element(t, 0), NULL,
					  NULL, &w, &h) &&
		    w >= 1280 && h >= 800) {
			printf("window %dx%d points\n", w, h);
			return t;
		}
		cua_tree_unref(t);
		if (now_ms() > deadline) {
			fprintf(stderr,
				"bench-display: the window is %dx%d, not "
				"1280x800 or more (is the screen large "
				"enough?)\n",
				w, h);
			exit(1);
		}
		usleep(100000);
	}
}

int
main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 20;
	struct app_proc app;
	cua_session *s;
	double *first, *first_cap, *cap, *enc, *both, *obs, *type_call,
		*type_seen, *click_call, *click_seen, *ch_cap, *ch_both;
	int n_first = 0, n_shot = 0, n_type = 0, n_click = 0, reused = 0,
	    n_changed = 0, ch_reused = 0;
	uint32_t w = 0, h = 0;
	char line[512], want[160];

	if (argc < 2) {
		fprintf(stderr, "usage: bench-display FIXTURE [ROUNDS]\n");
		return 2;
	}
	if (rounds <= 0 || rounds > 1000)
		rounds = 20;
	if (fixture_start(&app, argv[1], NULL, 20000, NULL, 0) < 0) {
		fprintf(stderr, "bench-display: %s did not start\n", argv[1]);
		return 1;
	}
	first = calloc((size_t)rounds, sizeof(double));
	first_cap = calloc((size_t)rounds, sizeof(double));
	cap = calloc((size_t)rounds, sizeof(double));
	enc = calloc((size_t)rounds, sizeof(double));
	both = calloc((size_t)rounds, sizeof(double));
	obs = calloc((size_t)rounds, sizeof(double));
	type_call = calloc((size_t)rounds, sizeof(double));
	type_seen = calloc((size_t)rounds, sizeof(double));
	click_call = calloc((size_t)rounds, sizeof(double));
	click_seen = calloc((size_t)rounds, sizeof(double));
	ch_cap = calloc((size_t)rounds, sizeof(double));
	ch_both = calloc((size_t)rounds, sizeof(double));
	if (!first || !first_cap || !cap || !enc || !both || !obs ||
	    !type_call || !type_seen || !click_call || !click_seen || !ch_cap ||
	    !ch_both)
		return 1;
	if (app_send(&app, "resize 1280 800") < 0 ||
	    app_wait_line(&app, "done resize", 5000, NULL, 0) < 0) {
		fprintf(stderr, "bench-display: the fixture did not resize\n");
		return 1;
	}
	s = test_session();
	cua_tree_unref(observe_sized(s));
	cua_session_unref(s);
	printf("desktop %s, driver as chosen by the session, %d rounds\n",
	       test_desktop_kind(), rounds);

	/* a new session's first observation, screenshot included */
	for (int i = 0; i < rounds; i++) {
		cua_tree *t = NULL;
		int64_t t0 = now_ms();

		s = test_session();
		if (cua_session_observe(s, APP, CUA_OBSERVE_NO_LAUNCH, &t) !=
		    CUA_OK)
			die("first observation");
		if (shot(t, NULL, NULL, NULL) == CUA_OK) {
			first[n_first] = (double)(now_ms() - t0);
			first_cap[n_first++] =
				cua_tree_get_stat(t, CUA_STAT_CAPTURE_US) /
				1000.0;
		} else {
			fprintf(stderr, "no first screenshot: %s\n",
				cua_tree_get_screenshot_error(t));
		}
		cua_tree_unref(t);
		cua_session_unref(s);
	}

	/* screenshots in a running session */
	s = test_session();
	for (int i = 0; i < rounds; i++) {
		cua_tree *t = NULL;
		int64_t t0 = now_ms();

		if (cua_session_observe(s, APP, CUA_OBSERVE_NO_LAUNCH, &t) !=
		    CUA_OK)
			die("observe");
		if (shot(t, &w, &h, NULL) == CUA_OK) {
			obs[n_shot] = (double)(now_ms() - t0);
			reused += cua_tree_get_stat(
					  t, CUA_STAT_SCREENSHOT_REUSED) == 1;
			cap[n_shot] =
				cua_tree_get_stat(t, CUA_STAT_CAPTURE_US) /
				1000.0;
			enc[n_shot] = cua_tree_get_stat(t, CUA_STAT_ENCODE_US) /
				      1000.0;
			both[n_shot] = cap[n_shot] + enc[n_shot];
			n_shot++;
		} else {
			fprintf(stderr, "no screenshot: %s\n",
				cua_tree_get_screenshot_error(t));
		}
		cua_tree_unref(t);
	}
	printf("screenshot image %ux%u\n", w, h);

	/* screenshots after the app changed its window by itself */
	for (int i = 0; i < rounds; i++) {
		cua_tree *t = NULL;

		if (app_send(&app, "toggle Unchecked box") < 0 ||
		    app_wait_line(&app, "toggled Unchecked box", 5000, NULL,
				  0) < 0)
			die("the app did not toggle its check box");
		if (cua_session_observe(s, APP, CUA_OBSERVE_NO_LAUNCH, &t) !=
		    CUA_OK)
			die("observe");
		if (shot(t, NULL, NULL, NULL) == CUA_OK) {
			ch_reused +=
				cua_tree_get_stat(
					t, CUA_STAT_SCREENSHOT_REUSED) == 1;
			ch_cap[n_changed] =
				cua_tree_get_stat(t, CUA_STAT_CAPTURE_US) /
				1000.0;
			ch_both[n_changed] =
				ch_cap[n_changed] +
				cua_tree_get_stat(t, CUA_STAT_ENCODE_US) /
					1000.0;
			n_changed++;
		} else {
			fprintf(stderr, "no screenshot: %s\n",
				cua_tree_get_screenshot_error(t));
		}
		cua_tree_unref(t);
	}

	/* typing into the entry with key events */
	snprintf(want, sizeof(want), "entry %s", text100);
	cua_session_set_option(s, "type_text_keys", "1");
	for (int i = 0; i < rounds; i++) {
		cua_tree *t = observe_until(s, APP, 10000);
		cua_element *e = t ? find_element(t, "text field", NULL) : NULL;
		int64_t t0;

		if (!e ||
		    cua_session_click(s, APP, cua_element_get_id(e),
				      CUA_BUTTON_LEFT, 1, NULL) != CUA_OK ||
		    cua_session_press_key(s, APP, "ctrl+a BackSpace", NULL) !=
			    CUA_OK)
			die("preparing the entry");
		cua_tree_unref(t);
		if (app_wait_line(&app, "entry ", 5000, NULL, 0) < 0)
			fprintf(stderr, "the entry was not emptied\n");
		/* what the app printed before the text is typed */
		while (app_wait_line(&app, "entry", 100, NULL, 0) == 0)
			;
		t0 = now_ms();
		if (cua_session_type_text(s, APP, text100, NULL) != CUA_OK)
			die("type_text");
		type_call[n_type] = (double)(now_ms() - t0);
		if (app_wait_line(&app, want, 10000, line, sizeof(line)) == 0)
			type_seen[n_type++] = (double)(now_ms() - t0);
		else
			fprintf(stderr, "the entry never held the text\n");
	}
	cua_session_set_option(s, "type_text_keys", "0");

	/* clicks at a screenshot pixel: the check box's centre */
	for (int i = 0; i < rounds; i++) {
		cua_tree *t = observe_until(s, APP, 10000);
		cua_element *e =
			t ? find_element(t, "checkbox", "Unchecked box") : NULL;
		int32_t x, y, ew, eh;
		double ppp = 1;
		int64_t t0;

		if (!e || !cua_element_get_frame(e, &x, &y, &ew, &eh) ||
		    shot(t, NULL, NULL, &ppp) != CUA_OK)
			die("the check box and the screenshot");
		t0 = now_ms();
		if (cua_session_click_at(s, APP, (x + ew / 2.0) * ppp,
					 (y + eh / 2.0) * ppp, CUA_BUTTON_LEFT,
					 1, NULL) != CUA_OK)
			die("click at a pixel");
		click_call[n_click] = (double)(now_ms() - t0);
		cua_tree_unref(t);
		if (app_wait_line(&app, "toggled Unchecked box", 5000, line,
				  sizeof(line)) == 0)
			click_seen[n_click++] = (double)(now_ms() - t0);
		else
			fprintf(stderr, "the click was not reported\n");
	}

	bench_report("first observation of a new session", first, n_first);
	bench_report("  its capture (CUA_STAT_CAPTURE_US)", first_cap, n_first);
	bench_report("capture (CUA_STAT_CAPTURE_US)", cap, n_shot);
	bench_report("scale + encode (CUA_STAT_ENCODE_US)", enc, n_shot);
	bench_report("capture + scale + encode", both, n_shot);
	printf("  images reused (the window unchanged)      %d of %d\n", reused,
	       n_shot);
	bench_report("observation in a running session", obs, n_shot);
	bench_report("after the app changed: capture", ch_cap, n_changed);
	bench_report("  capture + scale + encode", ch_both, n_changed);
	printf("  images reused (the window changed)        %d of %d\n",
	       ch_reused, n_changed);
	bench_report("type_text 100 chars, keys: the call", type_call, n_type);
	bench_report("  ... until the app printed them", type_seen, n_type);
	bench_report("click at a pixel: the call", click_call, n_click);
	bench_report("  ... until the app reported the toggle", click_seen,
		     n_click);

	cua_session_unref(s);
	app_stop(&app);
	free(first);
	free(first_cap);
	free(obs);
	free(cap);
	free(enc);
	free(both);
	free(type_call);
	free(type_seen);
	free(click_call);
	free(click_seen);
	free(ch_cap);
	free(ch_both);
	return n_first == rounds && n_shot == rounds && n_type == rounds &&
			       n_click == rounds && n_changed == rounds &&
			       ch_reused == 0 ?
		       0 :
		       1;
}
