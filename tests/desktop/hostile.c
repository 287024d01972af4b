/*
 * The shared part of the desktop tests on the hostile app (hostile.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostile.h"

struct fx fx;

void
report(const char *what, int64_t ms, int64_t bound)
{
	printf("# %s: %lld ms (bound %lld ms)\n", what, (long long)ms,
	       (long long)bound);
	fflush(stdout);
}

void
cmd(const char *command)
{
	char line[256];

	assert_int_equal(app_send(&fx.app, command), 0);
	assert_int_equal(app_wait_line(&fx.app, "ok", 5000, line, sizeof(line)),
			 0);
}

int
has_window(cua_tree *t, void *data)
{
	const char *title = cua_tree_get_window_title(t);

	(void)data;
	return title && strcmp(title, "libcua hostile") == 0;
}

/* Starts a fresh instance (after a crash, a new process). */
void
start_fixture(void)
{
	const char *argv[] = { FIXTURE_HOSTILE, NULL };
	char line[256];
	cua_tree *t;

	assert_int_equal(app_start(&fx.app, argv, 1), 0);
	assert_int_equal(
		app_wait_line(&fx.app, "ready", 10000, line, sizeof(line)), 0);
	snprintf(fx.app_id, sizeof(fx.app_id), "pid:%lld",
		 (long long)fx.app.pid);
	t = observe_until_pred(fx.s, fx.app_id, 10000, has_window, NULL);
	assert_non_null(t);
	cua_tree_unref(t);
}

/* A new session, so that ids start at 0 again, and a well-behaved app
 * (whatever an earlier failed test left switched on). */
void
new_session(void)
{
	cua_session_unref(fx.s);
	fx.s = test_session();
	cmd("hang-all off");
	cmd("hang-action off");
	cmd("lie off");
	cmd("types right");
	cmd("title plain");
	cmd("appname plain");
	cmd("slow 0");
	cmd("hang-one on");
	cmd("peer off");
	cmd("silent-name -");
	cmd("silent-disable off");
	cmd("mode strings");
}

cua_result
observe(cua_tree **t, int64_t *ms)
{
	int64_t t0 = now_ms();
	cua_result r;

	*t = NULL;
	r = cua_session_observe(fx.s, fx.app_id, CUA_OBSERVE_NO_LAUNCH, t);
	*ms = now_ms() - t0;
	if (r != CUA_OK)
		printf("# observe: %s\n", cua_error_message());
	return r;
}

/* The app works again: a plain observation of the strings mode. */
void
assert_observable(void)
{
	cua_tree *t;

	cmd("mode strings");
	t = observe_until_pred(fx.s, fx.app_id, 5000, has_window, NULL);
	assert_non_null(t);
	assert_non_null(find_element(t, "slider", "Volume"));
	cua_tree_unref(t);
}

/* The end of a test on an observation: frees it and its text, and the
 * app works again. */
void
done_with(cua_tree *t, char *text)
{
	cua_free(text);
	cua_tree_unref(t);
	assert_observable();
}

/* Clicks element e of the latest observation; the result, and the time
 * it took in *ms. */
cua_result
timed_click(cua_element *e, char **outcome, int64_t *ms)
{
	int64_t t0 = now_ms();
	cua_result r = cua_session_click(fx.s, fx.app_id, cua_element_get_id(e),
					 CUA_BUTTON_LEFT, 1, outcome);

	*ms = now_ms() - t0;
	return r;
}

/* Waits until the process has exited (it crashes on purpose); reaps it. */
void
assert_exited(void)
{
	int status;

	for (int i = 0; i < 250; i++) {
		if (waitpid(fx.app.pid, &status, WNOHANG) == fx.app.pid) {
			fx.app.pid = 0;
			app_stop(&fx.app); /* closes the pipes */
			return;
		}
		usleep(20000);
	}
	fail_msg("the fixture did not exit");
}

/* After a crash: a new instance (another process) is observable. */
void
restart_and_assert_observable(void)
{
	assert_exited();
	start_fixture();
	assert_observable();
}

void
assert_gone_error(cua_result r)
{
	assert_int_equal(r, CUA_ERROR_PROCESS_GONE);
	assert_non_null(strstr(cua_error_message(),
			       "Running application not found: "
			       "fixture-hostile. It quit while it was being "
			       "read"));
}

int
hostile_setup(void **state)
{
	(void)state;
	memset(&fx, 0, sizeof(fx));
	fx.s = test_session();
	start_fixture();
	return 0;
}

int
hostile_teardown(void **state)
{
	(void)state;
	cua_session_unref(fx.s);
	app_stop(&fx.app);
	return 0;
}

void
assert_observe_times_out(const char *what)
{
	cua_tree *t;
	int64_t ms;

	assert_int_equal(observe(&t, &ms), CUA_ERROR_TIMEOUT);
	report(what, ms, WALK_DEADLINE_MS + SLACK_MS);
	assert_null(t);
	assert_true(ms < WALK_DEADLINE_MS + SLACK_MS);
	assert_non_null(strstr(cua_error_message(), "timeoutReached"));
	assert_non_null(strstr(cua_error_message(),
			       "'fixture-hostile' did not answer"));
}
