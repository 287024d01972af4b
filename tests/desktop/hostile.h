/*
 * What the desktop tests on the hostile app (fixture-hostile.c) share:
 * the running fixture and its session, its command channel, observations
 * of it by pid, and the checks that it works again after a fault
 * (test-hostile.c, test-hostile-cache.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_HOSTILE_H
#define CUA_TEST_HOSTILE_H

#include <stdint.h>

#include "common.h"

/* The documented bounds (defaults of cua_session_set_option). */
#define WALK_DEADLINE_MS 5000
#define CALL_TIMEOUT_MS 1000
/* Slack for settling, window matching and a loaded machine. */
#define SLACK_MS 2000

struct fx {
	struct app_proc app;
	cua_session *s;
	char app_id[32]; /* "pid:N" */
};

extern struct fx fx;

/* Prints a measured time and its bound as a TAP comment. */
void
report(const char *what, int64_t ms, int64_t bound);
/* Sends a command line to the fixture and waits for its "ok". */
void
cmd(const char *command);
/* The observation shows the fixture's window (observe_until_pred). */
int
has_window(cua_tree *t, void *data);
/* Starts a fresh instance (after a crash, a new process). */
void
start_fixture(void);
/* A new session, so that ids start at 0 again, and a well-behaved app. */
void
new_session(void);
/* Observes the fixture by pid; the time it took in *ms. */
cua_result
observe(cua_tree **t, int64_t *ms);
/* The app works again: a plain observation of the strings mode. */
void
assert_observable(void);
/* Frees an observation and its text; the app works again. */
void
done_with(cua_tree *t, char *text);
/* Clicks element e of the latest observation; the time in *ms. */
cua_result
timed_click(cua_element *e, char **outcome, int64_t *ms);
/* Waits until the fixture has exited (it crashes on purpose); reaps it. */
void
assert_exited(void);
/* After a crash: a new instance (another process) is observable. */
void
restart_and_assert_observable(void);
/* An observation of the hung fixture: timeoutReached, "did not answer",
 * within the walk deadline; reported as "<what>". */
void
assert_observe_times_out(const char *what);
/* The sentence of an app that quit while it was being read. */
void
assert_gone_error(cua_result r);

/* cmocka group setup and teardown: a session and a running fixture. */
int
hostile_setup(void **state);
int
hostile_teardown(void **state);

#endif
