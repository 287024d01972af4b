/*
 * bench-read: how fast libcua reads and renders real apps.
 *
 * For each app: start it (through libcua's own launcher, or directly for
 * Chromium and LibreOffice, which need flags), wait until its tree is
 * complete, then observe and render it N times and report the raw nodes,
 * rendered elements, D-Bus calls per node, the median and best time of
 * reading the tree alone (walk and ids, from the tree's statistics), and
 * separately the medians of rendering, settling, the screenshot (capture
 * and encoding) and the whole observation.
 * Run it inside a headless desktop:  meson compile -C build bench
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

#include <cua/cua.h>

extern char **environ;

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static pid_t
spawn(const char *const argv[])
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

/* Observes until the element count has been stable twice in a row. */
static int
wait_complete(cua_session *s, const char *app, int timeout_ms)
{
	double end = now_ms() + timeout_ms;
	int64_t last = -1;
	int stable = 0;

	while (now_ms() < end) {
		cua_tree *t = NULL;

		if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t) == CUA_OK) {
			int64_t n = cua_tree_get_stat(t, CUA_STAT_RAW_NODES);

			stable = n == last ? stable + 1 : 0;
			last = n;
			cua_tree_unref(t);
			if (stable >= 2 && n > 10)
				return 0;
		}
		usleep(500 * 1000);
	}
	return -1;
}

/* Median and best of n values (sorts them). */
static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return v[n / 2];
}

static void
bench(cua_session *s, const char *label, const char *app, int runs)
{
	/* per run: reading the tree (walk + walk policy and ids), rendering
	 * the text, and what an observation does besides: waiting for the UI
	 * to settle, capturing and encoding the screenshot; the whole
	 * observation's wall time */
	double *read = calloc((size_t)runs, sizeof(double));
	double *rend = calloc((size_t)runs, sizeof(double));
	double *settle = calloc((size_t)runs, sizeof(double));
	double *shot = calloc((size_t)runs, sizeof(double));
	double *wall = calloc((size_t)runs, sizeof(double));
	int64_t nodes = 0, elements = 0, calls = 0;
	int n = 0;

	if (!read || !rend || !settle || !shot || !wall) {
		printf("%-28s  out of memory\n", label);
		goto out;
	}
	if (wait_complete(s, app, 30000) < 0) {
		printf("%-28s  not ready: %s\n", label, cua_error_message());
		goto out;
	}
	for (int i = 0; i < runs; i++) {
		cua_tree *t = NULL;
		char *text = NULL;
		double t0 = now_ms(), t1, t2;

		if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t) != CUA_OK) {
			printf("%-28s  failed: %s\n", label, cua_error_message());
			goto out;
		}
		t1 = now_ms();
		if (cua_tree_render(t, 0, &text) != CUA_OK) {
			printf("%-28s  render failed: %s\n", label,
			       cua_error_message());
			cua_tree_unref(t);
			goto out;
		}
		t2 = now_ms();
		read[n] = (double)(cua_tree_get_stat(t, CUA_STAT_WALK_US) +
				   cua_tree_get_stat(t, CUA_STAT_BUILD_US)) /
			  1000.0;
		rend[n] = t2 - t1;
		settle[n] = (double)cua_tree_get_stat(t, CUA_STAT_SETTLE_US) / 1000.0;
		shot[n] = (double)(cua_tree_get_stat(t, CUA_STAT_CAPTURE_US) +
				   cua_tree_get_stat(t, CUA_STAT_ENCODE_US)) /
			  1000.0;
		wall[n] = t1 - t0;
		n++;
		nodes = cua_tree_get_stat(t, CUA_STAT_RAW_NODES);
		elements = cua_tree_get_stat(t, CUA_STAT_ELEMENTS);
		calls = cua_tree_get_stat(t, CUA_STAT_CALLS);
		cua_free(text);
		cua_tree_unref(t);
	}
	{
		double read_med = median(read, n), read_best = read[0];

		printf("%-28s %6lld %8lld %8.2f %8.2f %9.1f %9.1f %9.2f %9.1f %9.1f %9.1f\n",
		       label, (long long)nodes, (long long)elements,
		       nodes ? (double)calls / (double)nodes : 0.0,
		       elements ? (double)calls / (double)elements : 0.0,
		       read_med, read_best, median(rend, n), median(settle, n),
		       median(shot, n), median(wall, n));
	}
	fflush(stdout);
out:
	free(read);
	free(rend);
	free(settle);
	free(shot);
	free(wall);
}

static void
stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

static void
stop_app(cua_session *s, const char *app)
{
	cua_tree *t = NULL;

	if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t) == CUA_OK) {
		kill((pid_t)cua_tree_get_pid(t), SIGTERM);
		cua_tree_unref(t);
		usleep(500 * 1000);
	}
}

int
main(int argc, char **argv)
{
	const char *data = argc > 1 ? argv[1] : "tests/data";
	int runs = argc > 2 && atoi(argv[2]) > 0 ? atoi(argv[2]) : 7;
	cua_session *s = NULL;
	char url[4096], prof[128], lo[256];
	cua_tree *t = NULL;
	pid_t pid;

	if (cua_session_new(&s, 0) != CUA_OK) {
		fprintf(stderr, "%s\n", cua_error_message());
		return 1;
	}
	printf("libcua %s — reading a tree, %d observations each (ms; medians "
	       "unless best)\n"
	       "read: reading the tree and building the elements (walk + ids); "
	       "render: the state text;\nsettle, shot (capture + encoding): the "
	       "rest of an observation; observe: its wall time\n",
	       cua_version_string(), runs);
	printf("%-28s %6s %8s %8s %8s %9s %9s %9s %9s %9s %9s\n", "app", "nodes",
	       "elements", "calls/n", "calls/el", "read", "read best", "render",
	       "settle", "shot", "observe");

	/* GTK 3, GTK 4 and Qt apps: libcua starts them from their entries */
	static const char *const launched[][2] = {
		{ "gtk3-widget-factory", "gtk3-widget-factory" },
		{ "gtk4-widget-factory", "gtk4-widget-factory" },
		{ "FeatherPad (Qt 5)", "featherpad" },
	};
	for (size_t i = 0; i < sizeof(launched) / sizeof(launched[0]); i++) {
		if (cua_session_observe(s, launched[i][1], 0, &t) != CUA_OK) {
			printf("%-28s  cannot start: %s\n", launched[i][0],
			       cua_error_message());
			continue;
		}
		t = cua_tree_unref(t);
		bench(s, launched[i][0], launched[i][1], runs);
		stop_app(s, launched[i][1]);
	}

	snprintf(url, sizeof(url), "file://%s/form.html", data);
	snprintf(prof, sizeof(prof), "--user-data-dir=/tmp/cua-bench-chromium-%d",
		 (int)getpid());
	{
		const char *av[] = { "chromium", "--force-renderer-accessibility",
				     "--no-sandbox", "--disable-gpu", "--no-first-run",
				     "--disable-background-networking",
				     "--disable-component-update", "--disable-sync",
				     "--window-size=1000,800", prof, url, NULL };

		pid = spawn(av);
		bench(s, "Chromium (form page)", "chromium", runs);
		stop(pid);
	}

	snprintf(lo, sizeof(lo), "-env:UserInstallation=file:///tmp/cua-bench-lo-%d",
		 (int)getpid());
	{
		const char *av[] = { "soffice", "--writer", "--norestore", "--nologo",
				     lo, NULL };

		setenv("SAL_USE_VCLPLUGIN", "gtk3", 1);
		pid = spawn(av);
		bench(s, "LibreOffice Writer", "libreoffice-writer", runs);
		stop_app(s, "libreoffice-writer");
		stop(pid);
	}
	cua_session_unref(s);
	return 0;
}
