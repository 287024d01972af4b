/*
 * What the benchmarks share: a monotonic clock, starting and stopping the
 * app under test, waiting for its tree to be complete, finding an element,
 * and the median of a sample.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_BENCH_UTIL_H
#define CUA_BENCH_UTIL_H

#include <sys/types.h>

#include <cua/cua.h>

/* Milliseconds on the monotonic clock. */
double
bench_now_ms(void);

/* Sleeps until bench_now_ms() reaches `ms` (at once when it has). */
void
bench_sleep_until(double ms);

/* Starts argv[0] (looked up in PATH) with stdin, stdout and stderr on
 * /dev/null; -1 when it cannot start. */
pid_t
bench_spawn(const char *const argv[]);

/* SIGTERM, five seconds' grace, then SIGKILL; reaps it. pid <= 0: none. */
void
bench_stop(pid_t pid);

/* Ends the process of the app libcua knows as `app`, if it observes. */
void
bench_stop_app(cua_session *s, const char *app);

/* Observes `app` every half second until its raw node count (over 10)
 * has been the same three times in a row; the last tree (the caller
 * owns it), or NULL when timeout_ms passed first. */
cua_tree *
bench_observe_stable(cua_session *s, const char *app, int timeout_ms);

/* bench_observe_stable() without the tree: 0 when it became stable, -1
 * when timeout_ms passed first. */
int
bench_wait_stable(cua_session *s, const char *app, int timeout_ms);

/* The first enabled element with this role (NULL: any role) and title
 * (NULL or "": any title), or NULL. Borrowed from t. */
cua_element *
bench_find(cua_tree *t, const char *role, const char *title);

/* Sorts v[0..n) ascending and returns its median (the mean of the middle
 * two for an even n); 0 for n <= 0. */
double
bench_median(double *v, int n);

/* Prints one line: what, then the median, min and max of ms[0..n) (which
 * it sorts) in milliseconds, or "no samples". */
void
bench_report(const char *what, double *ms, int n);

#endif
