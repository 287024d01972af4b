/*
 * Benchmark of the wlroots display driver on headless sway, with
 * fixture-gtk3 as a native Wayland client (the screenshot, typing and a
 * click at a pixel through a session: bench-display, run on sway by
 * `meson compile -C build bench-display-sway`):
 *
 *   click        cua_session_click by element on a check box through the
 *                pointer (always_simulate_click = 1): the call (no settle:
 *                the observation after it is not timed), and until the
 *                app reported the toggle;
 *   driver ops   what one call of the driver costs: window_query,
 *                window_at (each reads sway's tree), a pointer move
 *                (with its round trip).
 *
 *   meson compile -C build bench-sway-driver
 * runs it in a fresh headless sway whose output makes the fixture's tiled
 * window 1280 x 800 (1284 x 827: sway's title bar and borders); by hand:
 *   tests/wayland/sway-session --size 1284x827 -- \
 *       build/tests/wayland/bench-wl-driver [ROUNDS]
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cua/cua.h>

#include "core/ctx.h"
#include "display/display.h"
#include "display/wlroots/wlr.h"

#include "bench-util.h"
#include "wl-harness.h"

#define APP FIXTURE_APP

static cua_element *
element(cua_tree *t, const char *role, const char *title)
{
	cua_element *e = find_element(t, role, title);

	if (!e) {
		fprintf(stderr, "no %s '%s'\n", role, title ? title : "*");
		exit(1);
	}
	return e;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	struct wl_ops ops;
	struct probe pr;
	struct app_proc app;
	struct wl_window win;
	cua_session *s;
	double *click_call, *click_seen;
	int n_click = 0;
	char line[256];

	if (rounds <= 0)
		rounds = 20;
	if (wl_ops_wlr(&ops) < 0 || probe_start(&pr) < 0 ||
	    fixture_start(&app, &pr, &ops, &win) < 0)
		return 1;
	click_call = calloc((size_t)rounds, sizeof(double));
	click_seen = calloc((size_t)rounds, sizeof(double));
	if (!click_call || !click_seen)
		return 1;
	s = test_session();
	printf("window %dx%d at %d,%d\n", win.content.w, win.content.h,
	       win.content.x, win.content.y);

	/* clicks by element through the pointer */
	cua_session_set_option(s, "always_simulate_click", "1");
	for (int i = 0; i < rounds; i++) {
		cua_tree *t = observe_until(s, APP, 10000);
		uint32_t id = cua_element_get_id(
			element(t, "checkbox", "Unchecked box"));
		int64_t t0;

		cua_tree_unref(t);
		t0 = now_ms();
		if (cua_session_click(s, APP, id, CUA_BUTTON_LEFT, 1, NULL) !=
		    CUA_OK) {
			fprintf(stderr, "click: %s\n", cua_error_message());
			return 1;
		}
		click_call[n_click] = (double)(now_ms() - t0);
		if (app_wait_line(&app, "toggled Unchecked box", 5000, line,
				  sizeof(line)) == 0)
			click_seen[n_click++] = (double)(now_ms() - t0);
	}

	/* the driver's own calls, on a driver of its own */
	{
		struct cua_ctx ctx;
		struct cua_display *d = NULL;
		struct cua_display_window_list *l = NULL;
		struct cua_pointer_event ev = { CUA_POINTER_MOVE, 0, 0, 0 };
		struct cua_win cw;
		uint64_t handle = 0;
		double *q = calloc((size_t)rounds, sizeof(double));
		double *at = calloc((size_t)rounds, sizeof(double));
		double *mv = calloc((size_t)rounds, sizeof(double));

		memset(&ctx, 0, sizeof(ctx));
		cua_options_default(&ctx.opt);
		ctx.log_level = CUA_LOG_WARNING;
		if (cua_display_wlroots_open(&ctx, NULL, &d) != CUA_OK ||
		    d->ops->list_windows(d, &l) != CUA_OK || l->n == 0) {
			fprintf(stderr, "driver: %s\n", cua_error_message());
			return 1;
		}
		handle = l->w[0].win.window;
		cua_display_window_list_free(l);
		for (int i = 0; i < rounds; i++) {
			int64_t t0 = cua_now_us();

			d->ops->window_query(d, handle, &cw);
			q[i] = (cua_now_us() - t0) / 1000.0;
			t0 = cua_now_us();
			d->ops->window_at(d, win.content.x + 10 + i,
					  win.content.y + 10, &cw);
			at[i] = (cua_now_us() - t0) / 1000.0;
			ev.x = win.content.x + 200 + i;
			ev.y = win.content.y + win.content.h - 5;
			t0 = cua_now_us();
			d->ops->pointer(d, &ev, 1, 0);
			mv[i] = (cua_now_us() - t0) / 1000.0;
		}
		bench_report("driver window_query", q, rounds);
		bench_report("driver window_at", at, rounds);
		bench_report("driver pointer move + round trip", mv, rounds);
		cua_display_close(d);
		free(q);
		free(at);
		free(mv);
	}

	bench_report("click by element (pointer): the call", click_call,
		     n_click);
	bench_report("  ... until the app reported the toggle", click_seen,
		     n_click);

	cua_session_unref(s);
	app_stop(&app);
	probe_stop(&pr);
	ops.close(ops.data);
	free(click_call);
	free(click_seen);
	return 0;
}
