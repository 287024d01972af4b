/*
 * Benchmark of the wlroots building blocks on headless sway, with
 * fixture-gtk3 as a native Wayland client:
 *
 *   capture      screencopy of the whole 1280x800 output and of the
 *                window's area (the crop is done by the compositor),
 *                alone, then with the scaling and JPEG encoding a
 *                screenshot adds (2048 x 768 rule, quality 80);
 *   watch        the window's area captured plainly and watched for
 *                damage (watch.c), in turns, with the window unchanged
 *                and after the app changed it by itself (a check box
 *                toggled from its command channel), and the check of the
 *                watch in both cases;
 *   typing       100 characters: the call (the compositor has sent every
 *                event when it returns), and until the app's entry holds
 *                them all (AT-SPI); ASCII and non-ASCII;
 *   click        cua_wlr_pointer_click on a check box: the call, and
 *                until the app reports the toggle;
 *   first key    fresh connections (a new virtual keyboard each) with
 *                several warm-ups: how often the first character is lost.
 *
 *   meson compile -C build bench-sway
 * runs it in a fresh headless sway; by hand:
 *   tests/wayland/sway-session -- build/tests/wayland/bench-wlroots
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/keys.h"
#include "display/wlroots/sway-ipc.h"
#include "display/wlroots/wlr.h"

#include "wl-harness.h"

#define ROUNDS 30

static const char text100[] =
	"The quick brown fox jumps over the lazy dog 0123456789 "
	"pack my box with five dozen liquor jugs! abcd";
/* 100 characters, 34 of them off the US keymap */
static const char text100_intl[] =
	"Gr\xc3\xbc\xc3\x9f"
	"e aus K\xc3\xb6ln, \xc3\xa9t\xc3\xa9 \xc3\xa0 "
	"Z\xc3\xbcrich: \xe4\xb8\x96\xe7\x95\x8c \xe4\xbd\xa0\xe5\xa5\xbd "
	"\xf0\x9f\x98\x80\xf0\x9f\x8e\x89 \xce\xb1\xce\xb2\xce\xb3 "
	"\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 \xe2\x82\xac 42 "
	"\xc5\x93\xc3\xb8\xc3\xa5 na\xc3\xafve caf\xc3\xa9 r\xc3\xa9sum\xc3\xa9 "
	"\xc3\xb1"
	"and\xc3\xba \xc3\xa7"
	"a va fin. \xce\xa9mega!";

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
report(const char *what, double *ms, int n)
{
	if (n <= 0) {
		printf("%-46s (no samples)\n", what);
		return;
	}
	qsort(ms, (size_t)n, sizeof(*ms), cmp);
	printf("%-46s median %7.2f ms  min %7.2f  max %7.2f  (n=%d)\n", what,
	       ms[n / 2], ms[0], ms[n - 1], n);
}

static double
ms_since(int64_t t0_us)
{
	return (cua_now_us() - t0_us) / 1000.0;
}

static void
bench_capture(struct cua_wlr *w, const struct wl_window *win)
{
	double cap[ROUNDS], reg[ROUNDS], scale[ROUNDS], enc[ROUNDS];
	int n = 0, k = 0;
	struct cua_wlr_shot shot;

	/* one unmeasured capture: buffers are made on the first */
	if (cua_wlr_capture(w, NULL, 0, &shot) == CUA_OK) {
		printf("capture format: wl_shm 0x%08x, %ux%u, scale %.2f\n",
		       shot.format, shot.px.width, shot.px.height, shot.scale);
		free(shot.px.data);
	}
	for (int i = 0; i < ROUNDS; i++) {
		int64_t t0 = cua_now_us();
		struct cua_rgb rgb;
		void *jpg;
		size_t size;

		if (cua_wlr_capture(w, NULL, 0, &shot) != CUA_OK) {
			printf("capture failed: %s\n", cua_error_get());
			return;
		}
		cap[n] = ms_since(t0);
		/* 1280x800 -> 1229x768: the short edge to 768 */
		t0 = cua_now_us();
		if (cua_image_scale(&rgb, &shot.px, 1229, 768) < 0)
			return;
		scale[n] = ms_since(t0);
		t0 = cua_now_us();
		if (cua_image_encode_jpeg(&jpg, &size, &rgb, 80) < 0)
			return;
		enc[n] = ms_since(t0);
		n++;
		free(jpg);
		cua_rgb_free(&rgb);
		free(shot.px.data);
		usleep(20 * 1000); /* not in step with the output's frames */
	}
	{
		double b2b[ROUNDS];

		for (int i = 0; i < ROUNDS; i++) {
			int64_t t0 = cua_now_us();

			if (cua_wlr_capture(w, NULL, 0, &shot) != CUA_OK)
				return;
			b2b[i] = ms_since(t0);
			free(shot.px.data);
		}
		report("capture 1280x800 output, back to back", b2b, ROUNDS);
	}
	for (int i = 0; i < ROUNDS; i++) {
		int64_t t0 = cua_now_us();

		if (cua_wlr_capture(w, &win->content, 0, &shot) != CUA_OK) {
			printf("capture failed: %s\n", cua_error_get());
			return;
		}
		reg[k++] = ms_since(t0);
		free(shot.px.data);
		usleep(20 * 1000);
	}
	{
		double total[ROUNDS];

		for (int i = 0; i < n; i++)
			total[i] = cap[i] + scale[i] + enc[i];
		report("capture 1280x800 output", cap, n);
		report("capture window area (crop by compositor)", reg, k);
		report("scale 1280x800 -> 1229x768", scale, n);
		report("JPEG q80 1229x768", enc, n);
		report("capture + scale + encode", total, n);
	}
}

static void
bench_watch(struct cua_wlr *w, const struct wl_window *win,
	    struct app_proc *app)
{
	double plain[ROUNDS], watched[ROUNDS], same[ROUNDS], changed[ROUNDS],
		after[ROUNDS], after_plain[ROUNDS];
	int n = 0, said_changed = 0, said_same = 0;
	uint64_t stamp = 0;
	struct cua_wlr_shot shot;

	if (cua_wlr_capture_watched(w, &win->content, &shot, &stamp) != CUA_OK)
		goto failed;
	free(shot.px.data);
	for (int i = 0; i < ROUNDS; i++) {
		int unchanged = 0;
		int64_t t0;

		/* the app changes its window by itself; its new frame is on
		 * the screen well within 300 ms */
		if (app_send(app, "toggle Unchecked box") < 0 ||
		    app_wait_line(app, "toggled Unchecked box", 5000, NULL, 0) <
			    0)
			goto failed;
		usleep(300 * 1000);
		t0 = cua_now_us();
		if (cua_wlr_unchanged(w, &win->content, stamp, &unchanged) !=
		    CUA_OK)
			goto failed;
		changed[n] = ms_since(t0);
		said_same += unchanged;
		t0 = cua_now_us();
		if (cua_wlr_capture_watched(w, &win->content, &shot, &stamp) !=
		    CUA_OK)
			goto failed;
		after[n] = ms_since(t0);
		free(shot.px.data);
		/* the same change, captured plainly */
		if (app_send(app, "toggle Unchecked box") < 0 ||
		    app_wait_line(app, "toggled Unchecked box", 5000, NULL, 0) <
			    0)
			goto failed;
		usleep(300 * 1000);
		t0 = cua_now_us();
		if (cua_wlr_capture(w, &win->content, 0, &shot) != CUA_OK)
			goto failed;
		after_plain[n] = ms_since(t0);
		free(shot.px.data);
		usleep(300 * 1000);
		/* the window unchanged: plain and watched captures in turns,
		 * and the check of the watch */
		t0 = cua_now_us();
		if (cua_wlr_capture(w, &win->content, 0, &shot) != CUA_OK)
			goto failed;
		plain[n] = ms_since(t0);
		free(shot.px.data);
		usleep(20 * 1000);
		t0 = cua_now_us();
		if (cua_wlr_capture_watched(w, &win->content, &shot, &stamp) !=
			    CUA_OK ||
		    !stamp)
			goto failed;
		watched[n] = ms_since(t0);
		free(shot.px.data);
		usleep(20 * 1000);
		t0 = cua_now_us();
		if (cua_wlr_unchanged(w, &win->content, stamp, &unchanged) !=
		    CUA_OK)
			goto failed;
		same[n] = ms_since(t0);
		said_changed += !unchanged;
		n++;
	}
	report("capture window area, plain", plain, n);
	report("capture window area, watched", watched, n);
	report("watch check, window unchanged", same, n);
	report("watch check, after the app changed", changed, n);
	report("capture watched, after the app changed", after, n);
	report("capture plain, after the app changed", after_plain, n);
	/* the first is the app drawing on its own (a caret, an animation);
	 * the second is a wrong answer */
	printf("window unchanged, the check said changed: %d of %d\n",
	       said_changed, n);
	printf("window changed, the check said unchanged: %d of %d\n",
	       said_same, n);
	return;
failed:
	printf("watch: %s\n", cua_error_get());
}

/* Reads what the app printed (its stdout is a pipe: unread, it fills
 * and blocks the app). */
static void
drain(struct app_proc *app)
{
	app_read_until(app, NULL, 1, NULL, 0);
}

static int
focus_entry(struct cua_wlr *w, struct probe *pr)
{
	struct wl_node n;
	struct wl_window win;
	struct cua_sway_window *list;
	size_t count;
	double x, y;

	if (probe_find(pr, FIXTURE_APP, "text", "*", &n) < 0 ||
	    cua_sway_windows(cua_wlr_sway_socket(w), 1000, &list, &count) !=
		    CUA_OK)
		return -1;
	memset(&win, 0, sizeof(win));
	for (size_t i = 0; i < count; i++)
		if (strcmp(list[i].app_id, FIXTURE_APP) == 0)
			win.content = list[i].content;
	cua_sway_windows_free(list, count);
	node_centre(&win, &n, &x, &y);
	return cua_wlr_pointer_click(w, x, y, CUA_WLR_BTN_LEFT, 1) == CUA_OK ?
		       0 :
		       -1;
}

static int
press(struct cua_wlr *w, const char *keys)
{
	struct cua_key_seq seq;
	int r;

	if (cua_keys_parse(keys, 0, &seq) != CUA_OK)
		return -1;
	r = cua_wlr_keys(w, seq.chords, seq.n) == CUA_OK ? 0 : -1;
	cua_keys_free(&seq);
	return r;
}

static void
bench_type(struct cua_wlr *w, struct probe *pr, struct app_proc *app,
	   const char *text, const char *what, int rounds)
{
	double call[20], seen[20];
	int n = 0;
	size_t count;
	struct cua_key_chord *c = cua_keys_from_text(text, &count);
	char label[128], line[1024];

	if (!c || focus_entry(w, pr) < 0) {
		printf("%s: cannot focus the entry\n", what);
		free(c);
		return;
	}
	for (int i = 0; i < rounds && i < 20; i++) {
		struct wl_node node;
		int64_t t0;

		drain(app);
		press(w, "ctrl+a BackSpace");
		if (probe_wait_text(pr, FIXTURE_APP, "text", "*", "", 5000,
				    &node) < 0)
			break;
		t0 = cua_now_us();
		if (cua_wlr_keys(w, c, count) != CUA_OK) {
			printf("%s: %s\n", what, cua_error_get());
			break;
		}
		call[n] = ms_since(t0);
		snprintf(line, sizeof(line), "entry %s", text);
		if (app_wait_line(app, line, 10000, NULL, 0) < 0) {
			probe_find(pr, FIXTURE_APP, "text", "*", &node);
			printf("%s: the entry holds '%s' (%s)\n", what,
			       node.text, node.error);
			break;
		}
		seen[n++] = ms_since(t0);
	}
	free(c);
	snprintf(label, sizeof(label), "type %zu chars, %s: call", count, what);
	report(label, call, n);
	snprintf(label, sizeof(label),
		 "type %zu chars, %s: until the app has all", count, what);
	report(label, seen, n);
}

static void
bench_click(struct cua_wlr *w, struct probe *pr, struct app_proc *app)
{
	double call[ROUNDS], seen[ROUNDS];
	int n = 0;
	struct wl_node node;
	struct wl_window win;
	struct cua_sway_window *list;
	size_t count;
	double x, y;

	if (probe_find(pr, FIXTURE_APP, "check box", "Unchecked box", &node) <
		    0 ||
	    cua_sway_windows(cua_wlr_sway_socket(w), 1000, &list, &count) !=
		    CUA_OK)
		return;
	memset(&win, 0, sizeof(win));
	for (size_t i = 0; i < count; i++)
		if (strcmp(list[i].app_id, FIXTURE_APP) == 0)
			win.content = list[i].content;
	cua_sway_windows_free(list, count);
	node_centre(&win, &node, &x, &y);
	for (int i = 0; i < ROUNDS; i++) {
		int64_t t0 = cua_now_us();

		if (cua_wlr_pointer_click(w, x, y, CUA_WLR_BTN_LEFT, 1) !=
		    CUA_OK)
			break;
		call[n] = ms_since(t0);
		if (app_wait_line(app, "toggled Unchecked box", 5000, NULL, 0) <
		    0)
			break;
		seen[n++] = ms_since(t0);
		usleep(50 * 1000); /* no double clicks */
		drain(app);
	}
	report("click: call (move, press, release, round trip)", call, n);
	report("click: until the app reports the toggle", seen, n);
}

/* First-key loss: for each warm-up, `trials` fresh connections type
 * "hello" over the selected entry text as their very first key events. */
static void
bench_first_key(struct probe *pr, struct app_proc *app)
{
	/* -1: no round trip either, as a client that sends its keys right
	 * after the keymap */
	static const int warmups[] = { -1, 1, 25, 50, 100, 150 };
	const int trials = 8;

	for (size_t k = 0; k < sizeof(warmups) / sizeof(warmups[0]); k++) {
		int lost = 0, done = 0;
		char example[80] = "";

		for (int t = 0; t < trials; t++) {
			struct cua_wlr_options opt;
			struct cua_wlr *w;
			struct wl_node node;
			size_t count;
			struct cua_key_chord *c;

			drain(app);
			app_send(app, "focus-entry");
			app_send(app, "select-entry 0 -1");
			usleep(200 * 1000);
			cua_wlr_options_default(&opt);
			opt.warmup_ms = warmups[k];
			if (cua_wlr_open(&w, &opt) != CUA_OK)
				continue;
			c = cua_keys_from_text("hello", &count);
			if (c && cua_wlr_keys(w, c, count) == CUA_OK) {
				probe_wait_text(pr, FIXTURE_APP, "text", "*",
						"hello", 1500, &node);
				if (strcmp(node.text, "hello") != 0) {
					lost++;
					snprintf(example, sizeof(example),
						 " (e.g. '%.40s')", node.text);
				}
				done++;
			}
			free(c);
			cua_wlr_close(w);
			usleep(300 * 1000); /* the seat loses the keyboard */
		}
		if (warmups[k] < 0)
			printf("first key, no round trip, no wait:    ");
		else
			printf("first key, round trip + %4d ms wait: ",
			       warmups[k]);
		printf("lost in %d of %d fresh keyboards%s\n", lost, done,
		       example);
	}
}

int
main(void)
{
	struct wl_ops ops;
	struct probe pr;
	struct app_proc app;
	struct wl_window win;
	struct cua_wlr *w;

	if (wl_ops_wlr(&ops) < 0 || probe_start(&pr) < 0 ||
	    fixture_start(&app, &pr, &ops, &win) < 0)
		return 1;
	if (cua_wlr_open(&w, NULL) != CUA_OK) {
		fprintf(stderr, "%s\n", cua_error_get());
		return 1;
	}
	bench_capture(w, &win);
	bench_watch(w, &win, &app);
	bench_type(w, &pr, &app, text100, "ASCII", 10);
	bench_type(w, &pr, &app, text100_intl, "34 off the keymap", 10);
	bench_click(w, &pr, &app);
	cua_wlr_close(w);
	ops.close(ops.data);
	bench_first_key(&pr, &app);
	app_stop(&app);
	probe_stop(&pr);
	return 0;
}
