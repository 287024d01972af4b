/*
 * Screenshot benchmark: capture + scale + encode of a 1280x1024
 * and a 1920x1080 window (median of N), the driver's answer that such a
 * window is unchanged since its capture (docs/screenshots.md §2.1), and
 * the settle time and screenshot time of the observation of an idle app
 * (its image reused) and after an action.
 *
 *   meson compile -C build bench-screenshot:run
 * runs it in a fresh headless desktop; by hand:
 *   cua desktop run --screen 2048x1536x24 -- build/tools/bench-screenshot \
 *       build/tests/desktop/fixture-shot
 *
 * The windows are our own, painted like a busy UI (text, boxes,
 * gradients); the idle app is the fixture of the desktop tests.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "backend/backend.h"
#include "core/session.h"
#include "core/shot.h"

#define ROUNDS 30

extern char **environ;

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static double
median_ms(int64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_i64);
	return v[n / 2] / 1000.0;
}

/* A window painted like a busy UI. */
static Window
ui_window(Display *dpy, int w, int h)
{
	int scr = DefaultScreen(dpy);
	Window win = XCreateSimpleWindow(dpy, RootWindow(dpy, scr), 0, 0,
					 (unsigned)w, (unsigned)h, 0, 0,
					 WhitePixel(dpy, scr));
	XSetWindowAttributes swa;
	XWindowAttributes wa;
	GC gc;

	swa.backing_store = NotUseful;
	XChangeWindowAttributes(dpy, win, CWBackingStore, &swa);
	XStoreName(dpy, win, "bench");
	XMapWindow(dpy, win);
	/* until it is viewable (a MapNotify can be missed while the window
	 * manager is starting: ask again once a second) */
	for (int i = 0;; i++) {
		XSync(dpy, False);
		if (XGetWindowAttributes(dpy, win, &wa) &&
		    wa.map_state == IsViewable)
			break;
		if (i == 100) {
			fprintf(stderr,
				"bench-screenshot: the %dx%d window was "
				"not shown within 10 s\n",
				w, h);
			exit(1);
		}
		if (i % 10 == 9)
			XMapWindow(dpy, win);
		usleep(100 * 1000);
	}
	gc = XCreateGC(dpy, win, 0, NULL);
	for (int y = 0; y < h; y += 4) {
		XSetForeground(dpy, gc,
			       0xf0f0f0 - (unsigned long)(y % 64) * 0x010101);
		XFillRectangle(dpy, win, gc, 0, y, (unsigned)w, 4);
	}
	for (int y = 10, i = 0; y < h - 20; y += 24, i++) {
		for (int x = 10; x < w - 200; x += 260) {
			char text[64];

			XSetForeground(dpy, gc,
				       0x3060c0 + (unsigned long)i * 0x050301);
			XDrawRectangle(dpy, win, gc, x, y, 240, 20);
			XSetForeground(dpy, gc, 0x202020);
			snprintf(text, sizeof(text),
				 "Item %d, column %d: lorem ipsum", i, x / 260);
			XDrawString(dpy, win, gc, x + 6, y + 15, text,
				    (int)strlen(text));
		}
	}
	XFreeGC(dpy, gc);
	XSync(dpy, False);
	return win;
}

static void
bench_capture(struct cua_backend *b, const struct cua_options *opt,
	      Display *dpy, int w, int h)
{
	Window win = ui_window(dpy, w, h);
	struct cua_capture_request req = { (uint64_t)win, 2500, 3000 };
	int64_t cap[ROUNDS], enc[ROUNDS], tot[ROUNDS];
	size_t bytes = 0;
	uint32_t ow = 0, oh = 0;

	usleep(300 * 1000);
	b->ops->track_window(b, (uint64_t)win);
	usleep(300 * 1000);
	for (int i = 0; i < ROUNDS; i++) {
		struct cua_capture *c = NULL;
		enum cua_capture_status st;
		struct cua_tree *t = cua_tree_alloc();
		int64_t t0 = cua_now_us(), t1;

		if (b->ops->capture(b, &req, &c, &st) != CUA_OK) {
			fprintf(stderr, "capture failed (%d): %s\n", (int)st,
				cua_error_get());
			exit(1);
		}
		t1 = cua_now_us();
		t->x11_window = (uint64_t)win;
		if (cua_shot_encode(t, c, opt) < 0) {
			fprintf(stderr, "encode failed\n");
			exit(1);
		}
		cap[i] = t1 - t0;
		enc[i] = cua_now_us() - t1;
		tot[i] = cap[i] + enc[i];
		bytes = t->shot_size;
		ow = t->shot.width;
		oh = t->shot.height;
		cua_capture_free(c);
		cua_tree_destroy(t);
	}
	printf("window %dx%d -> %ux%u JPEG (%zu KB): capture %.2f ms, "
	       "scale+encode %.2f ms, total %.2f ms (median of %d)\n",
	       w, h, ow, oh, bytes / 1024, median_ms(cap, ROUNDS),
	       median_ms(enc, ROUNDS), median_ms(tot, ROUNDS), ROUNDS);
	{
		/* the unchanged window: the driver's check instead */
		struct cua_capture *c = NULL;
		enum cua_capture_status st;
		int same = 0;

		if (b->ops->capture(b, &req, &c, &st) == CUA_OK && c)
			req.unchanged_since = c->stamp;
		cua_capture_free(c);
		for (int i = 0; i < ROUNDS && req.unchanged_since; i++) {
			int64_t t0 = cua_now_us();

			c = NULL;
			if (b->ops->capture(b, &req, &c, &st) != CUA_OK)
				exit(1);
			cap[i] = cua_now_us() - t0;
			same += c && c->unchanged;
			cua_capture_free(c);
		}
		if (req.unchanged_since)
			printf("  unchanged since its capture: %.2f ms to tell "
			       "(%d of %d answered unchanged, median)\n",
			       median_ms(cap, ROUNDS), same, ROUNDS);
		else
			printf("  this driver cannot tell whether the window "
			       "changed\n");
	}
	XDestroyWindow(dpy, win);
	XSync(dpy, False);
}

static void
bench_settle(const char *fixture)
{
	const char *argv[] = { fixture, NULL };
	int64_t idle[ROUNDS], acted[ROUNDS / 3], first = -1;
	int64_t shot[ROUNDS], captured[ROUNDS / 3];
	int reused = 0, k = 0;
	char query[32];
	posix_spawn_file_actions_t fa;
	cua_session *s;
	pid_t pid;
	int n = 0, m = 0, failed = 0, in[2], r;

	/* the fixture reads commands on stdin and quits at its end: keep a
	 * pipe open */
	if (pipe(in) < 0)
		return;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	r = posix_spawn(&pid, fixture, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	if (r != 0) {
		fprintf(stderr, "cannot start %s\n", fixture);
		return;
	}
	snprintf(query, sizeof(query), "pid:%d", (int)pid);
	if (cua_session_new(&s, 0) != CUA_OK) {
		fprintf(stderr, "%s\n", cua_error_message());
		exit(1);
	}
	/* wait for it to register */
	for (int i = 0; i < 100; i++) {
		cua_tree *t = NULL;

		if (cua_session_observe(s, query, CUA_OBSERVE_NO_LAUNCH, &t) ==
		    CUA_OK) {
			first = cua_tree_get_stat(t, CUA_STAT_SETTLE_US);
			cua_tree_unref(t);
			break;
		}
		usleep(100 * 1000);
	}
	for (int i = 0; i < ROUNDS; i++) {
		cua_tree *t = NULL;

		usleep(300 * 1000); /* idle since the last observation */
		if (cua_session_observe(s, query, CUA_OBSERVE_NO_LAUNCH, &t) !=
		    CUA_OK) {
			fprintf(stderr, "observation failed: %s\n",
				cua_error_message());
			failed++;
			continue;
		}
		shot[n] = cua_tree_get_stat(t, CUA_STAT_CAPTURE_US) +
			  cua_tree_get_stat(t, CUA_STAT_ENCODE_US);
		reused += cua_tree_get_stat(t, CUA_STAT_SCREENSHOT_REUSED) == 1;
		idle[n++] = cua_tree_get_stat(t, CUA_STAT_SETTLE_US);
		cua_tree_unref(t);
	}
	/* the same without reuse: every observation captures */
	cua_session_set_option(s, "screenshot_reuse", "0");
	for (int i = 0; i < ROUNDS / 3; i++) {
		cua_tree *t = NULL;

		usleep(300 * 1000);
		if (cua_session_observe(s, query, CUA_OBSERVE_NO_LAUNCH, &t) !=
		    CUA_OK) {
			failed++;
			continue;
		}
		captured[k++] = cua_tree_get_stat(t, CUA_STAT_CAPTURE_US) +
				cua_tree_get_stat(t, CUA_STAT_ENCODE_US);
		cua_tree_unref(t);
	}
	cua_session_set_option(s, "screenshot_reuse", "1");
	for (int i = 0; i < ROUNDS / 3; i++) {
		cua_tree *t = NULL;

		usleep(300 * 1000);
		if (cua_session_observe(s, query,
					CUA_OBSERVE_NO_LAUNCH |
						CUA_OBSERVE_AFTER_ACTION,
					&t) != CUA_OK) {
			fprintf(stderr, "observation failed: %s\n",
				cua_error_message());
			failed++;
			continue;
		}
		acted[m++] = cua_tree_get_stat(t, CUA_STAT_SETTLE_US);
		cua_tree_unref(t);
	}
	/* only the observations that succeeded are counted */
	if (first < 0)
		printf("settle, first sight in a new session: the fixture never "
		       "registered\n");
	else
		printf("settle, first sight in a new session: %.2f ms\n",
		       first / 1000.0);
	if (n) {
		double med =
			median_ms(idle, n); /* sorts: then the max is last */

		printf("settle, idle app observed again: median %.2f ms (max "
		       "%.2f ms, %d observations)\n",
		       med, idle[n - 1] / 1000.0, n);
		printf("screenshot (capture + encode), idle app observed again: "
		       "median %.2f ms (%d of %d images reused)\n",
		       median_ms(shot, n), reused, n);
	}
	if (k) {
		printf("screenshot (capture + encode), the same with "
		       "screenshot_reuse 0: median %.2f ms (%d observations)\n",
		       median_ms(captured, k), k);
	}
	if (m)
		printf("settle after an action (quiet interval 250 ms): median "
		       "%.2f ms (%d observations)\n",
		       median_ms(acted, m), m);
	if (failed)
		printf("%d observations failed and are not counted\n", failed);
	cua_session_unref(s);
	close(in[1]);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

int
main(int argc, char **argv)
{
	struct cua_ctx ctx;
	struct cua_backend *b = NULL;
	Display *dpy;

	memset(&ctx, 0, sizeof(ctx));
	ctx.log_level = CUA_LOG_WARNING;
	cua_options_default(&ctx.opt);
	dpy = XOpenDisplay(NULL);
	if (!dpy || cua_backend_atspi_new(&ctx, 0, &b) != CUA_OK ||
	    !b->ops->capture) {
		fprintf(stderr,
			"bench-screenshot: needs a desktop (run it under "
			"`cua desktop run`): %s\n",
			cua_error_get());
		return 77;
	}
	bench_capture(b, &ctx.opt, dpy, 1280, 1024);
	bench_capture(b, &ctx.opt, dpy, 1920, 1080);
	b->ops->destroy(b);
	XCloseDisplay(dpy);
	if (argc > 1)
		bench_settle(argv[1]);
	return 0;
}
