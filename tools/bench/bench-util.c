/*
 * What the benchmarks share (bench-util.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-util.h"

extern char **environ;

double
bench_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

void
bench_sleep_until(double ms)
{
	double left;

	while ((left = ms - bench_now_ms()) > 0) {
		struct timespec ts = {
			(time_t)(left / 1000),
			(long)((left - (double)(time_t)(left / 1000) * 1000) *
			       1e6)
		};

		nanosleep(&ts, NULL);
	}
}

pid_t
bench_spawn(const char *const argv[])
{
	posix_spawn_file_actions_t fa;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", 0, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv,
			 environ) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

void
bench_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	for (int i = 0; i < 50 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		usleep(100 * 1000);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

void
bench_stop_app(cua_session *s, const char *app)
{
	cua_tree *t = NULL;

	if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t) == CUA_OK) {
		kill((pid_t)cua_tree_get_pid(t), SIGTERM);
		cua_tree_unref(t);
		usleep(500 * 1000);
	}
}

cua_tree *
bench_observe_stable(cua_session *s, const char *app, int timeout_ms)
{
	double end = bench_now_ms() + timeout_ms;
	int64_t last = -1;
	int stable = 0;

	while (bench_now_ms() < end) {
		cua_tree *t = NULL;

		if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t) ==
		    CUA_OK) {
			int64_t n = cua_tree_get_stat(t, CUA_STAT_RAW_NODES);

			stable = n == last ? stable + 1 : 0;
			last = n;
			if (stable >= 2 && n > 10)
				return t;
			cua_tree_unref(t);
		}
		usleep(500 * 1000);
	}
	return NULL;
}

int
bench_wait_stable(cua_session *s, const char *app, int timeout_ms)
{
	cua_tree *t = bench_observe_stable(s, app, timeout_ms);

	if (!t)
		return -1;
	cua_tree_unref(t);
	return 0;
}

cua_element *
bench_find(cua_tree *t, const char *role, const char *title)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (role && strcmp(cua_element_get_role(e), role) != 0)
			continue;
		if (title && *title &&
		    strcmp(cua_element_get_title(e), title) != 0)
			continue;
		if (cua_element_get_traits(e) & CUA_TRAIT_DISABLED)
			continue;
		return e;
	}
	return NULL;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
bench_median(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
bench_report(const char *what, double *ms, int n)
{
	double median;

	if (n <= 0) {
		printf("%-46s no samples\n", what);
		return;
	}
	median = bench_median(ms, n); /* sorts ms */
	printf("%-46s median %7.1f ms  min %7.1f  max %7.1f  (n=%d)\n", what,
	       median, ms[0], ms[n - 1], n);
}
