/*
 * observe — libcua from C: observe a real app, save its screenshot, click
 * an element by its name, and print what changed.
 *
 *   make                       # pkg-config --cflags --libs cua
 *   cua desktop run -- ./observe gtk3-widget-factory checkbutton shot.jpg
 *
 * Usage: observe [APP [TITLE [SCREENSHOT]]]
 *   APP         app name, id, desktop-file id, executable or pid:N
 *               (default gtk3-widget-factory; launched if installed and
 *               not running)
 *   TITLE       click the first enabled element with this title
 *               (default checkbutton)
 *   SCREENSHOT  write the observation's screenshot (JPEG) to this file
 *
 * Exit status: 0 when the click changed the app's tree, 3 when it changed
 * nothing, 1 on an error (libcua's message on stderr), 2 for bad usage.
 *
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cua/cua.h>

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int
fail(const char *what, cua_result r)
{
	/* the detailed message of the last failed call on this thread */
	fprintf(stderr, "observe: %s: %s: %s\n", what, cua_result_to_string(r),
		cua_error_message());
	return 1;
}

/* The first enabled element titled `title` (borrowed from `t`). */
static cua_element *
find_enabled(cua_tree *t, const char *title)
{
	size_t n = cua_tree_get_element_count(t);

	for (size_t i = 0; i < n; i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (strcmp(cua_element_get_title(e), title) == 0 &&
		    !(cua_element_get_traits(e) & CUA_TRAIT_DISABLED))
			return e;
	}
	return NULL;
}

/* Observes `app` until it shows an element titled `title`: a freshly
 * launched app takes a moment to register and to fill its window. */
static cua_result
observe_until(cua_session *s, const char *app, const char *title,
	      int timeout_ms, cua_tree **out)
{
	long long deadline = now_ms() + timeout_ms;
	cua_result r;

	for (;;) {
		r = cua_session_observe(s, app, 0, out);
		if (r == CUA_OK && find_enabled(*out, title))
			return CUA_OK;
		if (r == CUA_OK)
			*out = cua_tree_unref(*out);
		else if (r != CUA_ERROR_NOT_FOUND && r != CUA_ERROR_NO_WINDOW &&
			 r != CUA_ERROR_TIMEOUT)
			return r;
		if (now_ms() > deadline)
			return r == CUA_OK ? CUA_ERROR_TIMEOUT : r;
		sleep_ms(500);
	}
}

static int
save_screenshot(cua_tree *t, const char *path)
{
	const void *data;
	size_t size;
	const char *mime;
	uint32_t w, h;
	double ppp;
	cua_result r;
	FILE *f;

	/* `data` is borrowed: valid while the tree lives */
	r = cua_tree_get_screenshot(t, &data, &size, &mime, &w, &h, &ppp);
	if (r != CUA_OK)
		return fail("screenshot", r);
	printf("--- screenshot: %ux%u %s, %zu bytes, %.3f px/pt\n", w, h, mime,
	       size, ppp);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	printf("saved %s\n", path);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *app = argc > 1 ? argv[1] : "gtk3-widget-factory";
	const char *title = argc > 2 ? argv[2] : "checkbutton";
	const char *shot = argc > 3 ? argv[3] : NULL;
	cua_session *s = NULL;
	cua_tree *before = NULL, *after = NULL;
	cua_tree_diff *diff = NULL;
	cua_element *target;
	char *text = NULL, *outcome = NULL;
	const uint32_t *ids;
	size_t n;
	uint32_t target_id;
	long long deadline;
	cua_result r;
	int status = 1;

	if (argc > 4 || (argc > 1 && argv[1][0] == '-')) {
		fprintf(stderr, "Usage: observe [APP [TITLE [SCREENSHOT]]]\n");
		return 2;
	}
	printf("libcua %s (headers %s)\n", cua_version_string(), CUA_VERSION);

	r = cua_session_new(&s, 0);
	if (r != CUA_OK)
		return fail("session", r);

	r = observe_until(s, app, title, 30000, &before);
	if (r != CUA_OK) {
		fail(app, r);
		goto out;
	}
	r = cua_tree_render(before, 0, &text);
	if (r != CUA_OK) {
		fail("render", r);
		goto out;
	}
	printf("--- state of %s (pid %lld), %zu elements\n%s\n",
	       cua_tree_get_app_id(before), (long long)cua_tree_get_pid(before),
	       cua_tree_get_element_count(before), text);
	cua_free(text);
	text = NULL;

	if (shot && save_screenshot(before, shot) != 0)
		goto out;

	/* Click it by number; the number is stable across observations. */
	target = find_enabled(before, title);
	target_id = cua_element_get_id(target);
	if (cua_element_render(target, &text) == CUA_OK)
		printf("--- click %s\n", text);
	cua_free(text);
	text = NULL;
	r = cua_session_click(s, cua_tree_get_app_id(before), target_id,
			      CUA_BUTTON_LEFT, 1, &outcome);
	if (r != CUA_OK) {
		fail("click", r);
		goto out;
	}
	printf("outcome: %s\n", outcome);
	cua_free(outcome);

	/* libcua does not wait for the redraw: observe until the app shows
	 * the effect, or the time runs out. */
	deadline = now_ms() + 10000;
	for (;;) {
		r = cua_session_observe(s, cua_tree_get_app_id(before), 0,
					&after);
		if (r != CUA_OK) {
			fail("observe", r);
			goto out;
		}
		r = cua_tree_diff_new(before, after, 0, &diff);
		if (r != CUA_OK) {
			fail("diff", r);
			goto out;
		}
		if (!cua_tree_diff_is_empty(diff) || now_ms() > deadline)
			break;
		diff = cua_tree_diff_unref(diff);
		after = cua_tree_unref(after);
		sleep_ms(250);
	}

	n = cua_tree_diff_get_changed(diff, &ids);
	printf("--- changed:");
	for (size_t i = 0; i < n; i++)
		printf(" %u", ids[i]);
	printf(", added %zu, removed %zu\n",
	       cua_tree_diff_get_added(diff, NULL),
	       cua_tree_diff_get_removed(diff, NULL));
	r = cua_tree_diff_render(diff, 0, &text);
	if (r != CUA_OK) {
		fail("diff render", r);
		goto out;
	}
	printf("%s\n", text);
	if (cua_tree_diff_is_empty(diff)) {
		fprintf(stderr, "observe: the click changed nothing\n");
		status = 3;
	} else {
		status = 0;
	}
out:
	cua_free(text);
	cua_tree_diff_unref(diff);
	cua_tree_unref(after);
	cua_tree_unref(before);
	cua_session_unref(s);
	return status;
}
