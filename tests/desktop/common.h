/*
 * What the desktop test programs share beyond the harness: the session
 * every test of a program uses, the line protocol of the fixtures (a
 * command on stdin, "done <verb>" on stdout), stopping an app by pid,
 * looking elements up or failing, and the route an outcome took.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_COMMON_H
#define CUA_TEST_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/types.h>
#include <cmocka.h>

#include <cua/cua.h>

#include "harness.h"

/* Runs the program's tests as the group `name`; CUA_TEST_FILTER (a
 * test's name, such as test_qt) runs only the tests it matches. */
int
desktop_run_tests(const char *name, const struct CMUnitTest *tests, size_t n,
		  CMFixtureFunction setup, CMFixtureFunction teardown);
#define run_test_group(name, tests, setup, teardown)                           \
	desktop_run_tests(name, tests, sizeof(tests) / sizeof((tests)[0]),     \
			  setup, teardown)

/* The session of the test program: session_setup() opens it on the test
 * desktop, session_teardown() releases it. */
extern cua_session *session;
int
session_setup(void **state);
int
session_teardown(void **state);
/* The group teardown of a program whose tests share one app (the
 * struct app_proc in *state, which its group setup sets):
 * session_teardown(), then app_stop(). */
int
app_session_teardown(void **state);

/* Starts the fixture `exe` (with `arg`, may be NULL) on pipes and waits
 * up to `timeout_ms` for its "ready" line (copied to `line`, may be
 * NULL). Returns 0, or -1. */
int
fixture_start(struct app_proc *p, const char *exe, const char *arg,
	      int timeout_ms, char *line, size_t size);
/* For a program that tests several fixtures one at a time (their
 * windows would cover each other): stops the fixture running in `p`, if
 * any, and starts `exe` with `arg` (may be NULL), up to 15 s for its
 * ready line. Fails the test, naming `app`, when it does not start. With
 * *state = p in the group setup, app_session_teardown() stops the last. */
void
fixture_switch(struct app_proc *p, const char *app, const char *exe,
	       const char *arg);
/* Launches `app` by observing it in `session` (from its desktop entry
 * when it is not running), then observes it until pred holds (15 s):
 * the tree. Fails the test when either does not happen. */
cua_tree *
launch_until(const char *app, int (*pred)(cua_tree *t, void *data));
/* Starts the GTK 3 fixture `exe` (FIXTURE_GTK3) with a session of its
 * own (*s), and observes it until its buttons show (10 s): the tree, or
 * NULL. */
cua_tree *
gtk3_fixture_observed(struct app_proc *p, const char *exe, cua_session **s);
/* Sends `cmd` to the fixture and waits for its "done <first word of
 * cmd>"; the lines before it go to `log` (may be NULL). Fails the test,
 * naming the fixture `who`, when it does not answer within 5 s. */
void
fixture_command(struct app_proc *p, const char *who, const char *cmd, char *log,
		size_t size);
/* Everything the fixture printed until now, after a round trip (a title
 * command); `log` is emptied first. */
void
fixture_drain(struct app_proc *p, const char *who, char *log, size_t size);
/* Fails the test unless the fixture prints a line starting with `prefix`
 * within 5 s; the lines read go to `log` (may be NULL). */
void
fixture_wait_line(struct app_proc *p, const char *prefix, char *log,
		  size_t size);
/* fixture_wait_line() with a log of its own. */
void
fixture_expect_line(struct app_proc *p, const char *prefix);

/* Observes `app` in `session` until it succeeds (observe_until()); fails
 * the test with the error when it does not within `timeout_ms`. */
cua_tree *
need_observation(const char *app, int timeout_ms);

/* observe_until_pred() predicates on element `id`'s value. */
struct want_value {
	uint32_t id;
	const char *value;
};
/* The element is there and its value is `value`. */
int
has_value(cua_tree *t, void *want_value);
/* The element is there and its value is not `value`. */
int
value_is_not(cua_tree *t, void *want_value);

/* A browser (Chromium with accessibility on, or Firefox ESR) showing the
 * page tests/data/`page` in a profile of its own (a new temporary
 * directory). */
struct web_browser {
	struct app_proc proc;
	char profile[32];
};
/* Starts Chromium so (asserts). */
void
chromium_start(struct web_browser *c, const char *page);
/* Starts Chromium with accessibility on at `url`, with the profile
 * directory `profile` (asserts). */
void
chromium_run(struct app_proc *p, const char *profile, const char *url);
/* Starts Firefox ESR so (asserts). */
void
firefox_start(struct web_browser *c, const char *page);
/* Starts Firefox ESR at `url` with the profile directory `profile`,
 * given preferences that open no first-run page nor ask to be the
 * default browser (asserts). */
void
firefox_run(struct app_proc *p, const char *profile, const char *url);
/* Stops it and removes its profile; 0, or -1 when the profile could not
 * be removed. */
int
web_browser_stop(struct web_browser *c);

/* SIGTERM to `pid` (when > 0), up to 5 s for it to go, then SIGKILL. */
void
stop_pid(pid_t pid);

/* The first element with this role text and title (NULL: any); fails
 * the test with the rendered tree, prefixed by `who` (may be NULL), when
 * there is none. */
cua_element *
need_element(const char *who, cua_tree *t, const char *role, const char *title);
/* need_element()'s id. */
uint32_t
id_of(cua_tree *t, const char *role, const char *title);
/* The first element that is not disabled with this role text, title
 * (NULL: any) and value (NULL: any), or NULL. */
cua_element *
find_enabled(cua_tree *t, const char *role, const char *title,
	     const char *value);
/* find_enabled()'s id; fails the test with the rendered tree, prefixed
 * by `who` (may be NULL), when there is none. */
uint32_t
enabled_id(const char *who, cua_tree *t, const char *role, const char *title,
	   const char *value);

/* A decoded screenshot: RGB rows, `w` by `h` pixels. */
struct img {
	unsigned char *px; /* malloc'd; free() */
	int w, h;
};

/* Decodes the JPEG `data`; 0, or -1 (nothing to free). */
int
jpeg_decode(const void *data, size_t size, struct img *out);

/* The screenshot of `t` decoded (fails the test when there is none), and
 * its pixels per point. */
double
shot_decode(cua_tree *t, struct img *out);

/* The screenshot's bytes of `t`, malloc'd (the tree keeps its own); fails
 * the test when there is none. */
void *
shot_copy(cua_tree *t, size_t *size);

/* The colour of pixel (x, y). */
void
img_pixel(const struct img *im, int x, int y, int rgb[3]);

/* The mean difference of the two images' channels over the box. */
double
img_box_difference(const struct img *a, const struct img *b, int x, int y,
		   int w, int h);

/* 1 when the screenshot of `t` shows the box of check box `e` blue (GTK
 * 3's Adwaita draws a checked box blue, an unchecked one white). */
int
box_is_blue(cua_tree *t, cua_element *e);

/* Fails the test unless the action outcome (JSON) names `route`; the
 * message starts with `who` when it is not NULL. */
void
assert_route(const char *who, const char *outcome, const char *route);

/* Runs `exe probe` (a test program's own probe mode) in desktop `d`'s
 * environment; its output goes to `out`. Returns its exit status, -1 when
 * it did not exit. */
int
desktop_probe(cua_desktop *d, const char *exe, char *out, size_t size);

#endif
