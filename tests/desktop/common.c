/*
 * What the desktop test programs share beyond the harness (common.h).
 *
 * SPDX-License-Identifier: MIT
 */
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

#include <turbojpeg.h>

#include "chromium-flags.h"
#include "firefox-prefs.h"
#include "common.h"

int
desktop_run_tests(const char *name, const struct CMUnitTest *tests, size_t n,
		  CMFixtureFunction setup, CMFixtureFunction teardown)
{
	const char *filter = getenv("CUA_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return _cmocka_run_group_tests(name, tests, n, setup, teardown);
}

cua_session *session;

int
session_setup(void **state)
{
	(void)state;
	session = test_session();
	return 0;
}

int
session_teardown(void **state)
{
	(void)state;
	session = cua_session_unref(session);
	return 0;
}

int
app_session_teardown(void **state)
{
	session_teardown(state);
	app_stop(*state);
	return 0;
}

int
fixture_start(struct app_proc *p, const char *exe, const char *arg,
	      int timeout_ms, char *line, size_t size)
{
	const char *argv[] = { exe, arg, NULL };
	char own[256];

	if (!line) {
		line = own;
		size = sizeof(own);
	}
	if (app_start(p, argv, 1) < 0 ||
	    app_wait_line(p, "ready", timeout_ms, line, size) < 0)
		return -1;
	return 0;
}

void
fixture_switch(struct app_proc *p, const char *app, const char *exe,
	       const char *arg)
{
	app_stop(p);
	if (fixture_start(p, exe, arg, 15000, NULL, 0) < 0)
		fail_msg("%s did not start", app);
}

cua_tree *
launch_until(const char *app, int (*pred)(cua_tree *t, void *data))
{
	cua_tree *t = NULL;

	if (cua_session_observe(session, app, 0, &t) != CUA_OK)
		fail_msg("launch and observe %s: %s", app, cua_error_message());
	cua_tree_unref(t);
	t = observe_until_pred(session, app, 15000, pred, NULL);
	assert_non_null(t);
	return t;
}

static int
has_buttons(cua_tree *t, void *data)
{
	(void)data;
	return find_element(t, "button", "Gamma") != NULL;
}

cua_tree *
gtk3_fixture_observed(struct app_proc *p, const char *exe, cua_session **s)
{
	if (fixture_start(p, exe, NULL, 10000, NULL, 0) < 0)
		return NULL;
	*s = test_session();
	return observe_until_pred(*s, "fixture-gtk3", 10000, has_buttons, NULL);
}

void
fixture_command(struct app_proc *p, const char *who, const char *cmd, char *log,
		size_t size)
{
	char done[128];
	const char *sp = strchr(cmd, ' ');

	snprintf(done, sizeof(done), "done %.*s",
		 (int)(sp ? (size_t)(sp - cmd) : strlen(cmd)), cmd);
	assert_int_equal(app_send(p, cmd), 0);
	if (app_read_until(p, done, 5000, log, size) < 0)
		fail_msg("%s did not answer '%s'", who, cmd);
}

void
fixture_drain(struct app_proc *p, const char *who, char *log, size_t size)
{
	if (log)
		log[0] = '\0';
	fixture_command(p, who, "title libcua fixture", log, size);
}

void
fixture_wait_line(struct app_proc *p, const char *prefix, char *log,
		  size_t size)
{
	if (app_read_until(p, prefix, 5000, log, size) < 0)
		fail_msg("the fixture never printed '%s'; it printed:\n%s",
			 prefix, log ? log : "");
}

void
fixture_expect_line(struct app_proc *p, const char *prefix)
{
	char log[8192] = "";

	fixture_wait_line(p, prefix, log, sizeof(log));
}

cua_tree *
need_observation(const char *app, int timeout_ms)
{
	cua_tree *t = observe_until(session, app, timeout_ms);

	if (!t)
		fail_msg("no observation of %s: %s", app, cua_error_message());
	return t;
}

int
has_value(cua_tree *t, void *want_value)
{
	struct want_value *w = want_value;
	cua_element *e = cua_tree_find_element(t, w->id);

	return e && strcmp(cua_element_get_value(e), w->value) == 0;
}

int
value_is_not(cua_tree *t, void *want_value)
{
	struct want_value *w = want_value;
	cua_element *e = cua_tree_find_element(t, w->id);

	return e && strcmp(cua_element_get_value(e), w->value) != 0;
}

void
chromium_run(struct app_proc *p, const char *profile, const char *url)
{
	char dirarg[128];
	const char *argv[] = {
		"chromium", CHROMIUM_TEST_FLAGS, dirarg, url, NULL,
	};

	snprintf(dirarg, sizeof(dirarg), "--user-data-dir=%s", profile);
	assert_int_equal(app_start(p, argv, 0), 0);
}

/* A browser started by `run` at tests/data/`page`, in a new profile
 * directory named after `name`. */
static void
web_browser_start(struct web_browser *c, const char *name,
		  void (*run)(struct app_proc *, const char *, const char *),
		  const char *page)
{
	char url[4096];

	snprintf(c->profile, sizeof(c->profile), "/tmp/cua-%s-XXXXXX", name);
	assert_non_null(mkdtemp(c->profile));
	snprintf(url, sizeof(url), "file://%s", data_path(page));
	run(&c->proc, c->profile, url);
}

void
chromium_start(struct web_browser *c, const char *page)
{
	web_browser_start(c, "chromium", chromium_run, page);
}

void
firefox_run(struct app_proc *p, const char *profile, const char *url)
{
	const char *argv[] = { FIREFOX_TEST_COMMAND, profile, url, NULL };
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/user.js", profile);
	f = fopen(path, "we");
	assert_non_null(f);
	fputs(FIREFOX_TEST_PREFS, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(app_start(p, argv, 0), 0);
}

void
firefox_start(struct web_browser *c, const char *page)
{
	web_browser_start(c, "firefox", firefox_run, page);
}

int
web_browser_stop(struct web_browser *c)
{
	char cmd[256];

	app_stop(&c->proc);
	/* Chromium's helper processes may write into the profile for a moment
	 * after the browser is gone ("rm: cannot remove ...: Directory not
	 * empty", seen once under the sanitizers): removed again until gone */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' 2>/dev/null", c->profile);
	for (int i = 0; i < 50; i++) {
		if (system(cmd) == 0 && access(c->profile, F_OK) != 0)
			return 0;
		usleep(100 * 1000);
	}
	return -1;
}

void
stop_pid(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGTERM);
		for (int i = 0; i < 50 && kill(pid, 0) == 0; i++)
			usleep(100 * 1000);
		kill(pid, SIGKILL);
	}
}

cua_element *
need_element(const char *who, cua_tree *t, const char *role, const char *title)
{
	cua_element *e = find_element(t, role, title);

	if (!e) {
		char *text = render(t);

		fail_msg("%s%sno %s '%s' in:\n%s", who ? who : "",
			 who ? ": " : "", role ? role : "element",
			 title ? title : "", text);
	}
	return e;
}

uint32_t
id_of(cua_tree *t, const char *role, const char *title)
{
	return cua_element_get_id(need_element(NULL, t, role, title));
}

cua_element *
find_enabled(cua_tree *t, const char *role, const char *title,
	     const char *value)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (strcmp(cua_element_get_role(e), role) != 0 ||
		    (title && strcmp(cua_element_get_title(e), title) != 0) ||
		    (value && strcmp(cua_element_get_value(e), value) != 0) ||
		    (cua_element_get_traits(e) & CUA_TRAIT_DISABLED))
			continue;
		return e;
	}
	return NULL;
}

uint32_t
enabled_id(const char *who, cua_tree *t, const char *role, const char *title,
	   const char *value)
{
	cua_element *e = find_enabled(t, role, title, value);

	if (!e) {
		char *text = render(t);

		fail_msg("%s%sno enabled %s '%s' with value '%s' in:\n%s",
			 who ? who : "", who ? ": " : "", role,
			 title ? title : "*", value ? value : "*", text);
	}
	return cua_element_get_id(e);
}

void
assert_route(const char *who, const char *outcome, const char *route)
{
	char want[128];

	snprintf(want, sizeof(want), "\"route\":\"%s\"", route);
	if (!outcome || !strstr(outcome, want))
		fail_msg("%s%sroute %s expected, outcome %s", who ? who : "",
			 who ? ": " : "", route, outcome ? outcome : "(none)");
}

double
shot_decode(cua_tree *t, struct img *out)
{
	const void *data;
	size_t size;
	const char *mime;
	double ppp = 0;

	if (cua_tree_get_screenshot(t, &data, &size, &mime, NULL, NULL, &ppp) !=
	    CUA_OK)
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	assert_int_equal(jpeg_decode(data, size, out), 0);
	return ppp;
}

void *
shot_copy(cua_tree *t, size_t *size)
{
	const void *data;
	const char *mime;
	void *copy;

	if (cua_tree_get_screenshot(t, &data, size, &mime, NULL, NULL, NULL) !=
	    CUA_OK)
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	copy = malloc(*size);
	assert_non_null(copy);
	memcpy(copy, data, *size);
	return copy;
}

void
img_pixel(const struct img *im, int x, int y, int rgb[3])
{
	const unsigned char *p = im->px + ((size_t)y * im->w + x) * 3;

	rgb[0] = p[0];
	rgb[1] = p[1];
	rgb[2] = p[2];
}

double
img_box_difference(const struct img *a, const struct img *b, int x, int y,
		   int w, int h)
{
	double sum = 0;
	long n = 0;

	for (int j = y; j < y + h && j < a->h && j < b->h; j++)
		for (int i = x; i < x + w && i < a->w && i < b->w; i++) {
			int ca[3], cb[3];

			img_pixel(a, i, j, ca);
			img_pixel(b, i, j, cb);
			for (int k = 0; k < 3; k++, n++)
				sum += abs(ca[k] - cb[k]);
		}
	return n ? sum / (double)n : 0;
}

int
jpeg_decode(const void *data, size_t size, struct img *out)
{
	tjhandle tj = tjInitDecompress();
	int sub, cs, r;

	memset(out, 0, sizeof(*out));
	r = tjDecompressHeader3(tj, data, (unsigned long)size, &out->w, &out->h,
				&sub, &cs);
	if (r == 0) {
		out->px = malloc((size_t)out->w * out->h * 3);
		r = tjDecompress2(tj, data, (unsigned long)size, out->px,
				  out->w, 0, out->h, TJPF_RGB, 0);
		if (r != 0) {
			free(out->px);
			out->px = NULL;
		}
	}
	tjDestroy(tj);
	return r == 0 ? 0 : -1;
}

/* Sets the desktop's environment (in the child of run_command_with()). */
static void
set_desktop_env(void *data)
{
	cua_desktop *d = data;

	for (size_t i = 0; i < cua_desktop_get_env_count(d); i++) {
		const char *name = cua_desktop_get_env_name(d, i);
		const char *value = cua_desktop_get_env(d, name);

		if (value)
			setenv(name, value, 1);
		else
			unsetenv(name);
	}
}

int
desktop_probe(cua_desktop *d, const char *exe, char *out, size_t size)
{
	const char *argv[] = { exe, "probe", NULL };

	return run_command_with(argv, set_desktop_env, d, out, size);
}

/* 1 when the screenshot of `t` shows the box of check box `e` blue (GTK
 * 3's Adwaita draws a checked box blue with a white tick, an unchecked
 * one white): its blue pixels in the 20 x 16 points at the left of the
 * element's frame, where the box is. */
int
box_is_blue(cua_tree *t, cua_element *e)
{
	struct img im;
	int32_t x, y, w, h;
	double ppp = shot_decode(t, &im);
	int blue = 0;

	assert_int_equal(cua_element_get_frame(e, &x, &y, &w, &h), 1);
	for (int py = (int)((y + h / 2.0 - 8) * ppp);
	     py < (int)((y + h / 2.0 + 8) * ppp); py++)
		for (int px = (int)(x * ppp); px < (int)((x + 20) * ppp);
		     px++) {
			const unsigned char *p;

			assert_true(px >= 0 && py >= 0 && px < im.w &&
				    py < im.h);
			p = im.px + ((size_t)py * im.w + px) * 3;
			blue += p[2] > 150 && p[0] < 120;
		}
	free(im.px);
	return blue > 40;
}
