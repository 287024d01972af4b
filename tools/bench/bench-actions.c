/*
 * bench-actions: how long actions take, re-resolution included.
 *
 * For gtk3-widget-factory and LibreOffice Writer (SAL_USE_VCLPLUGIN=gtk3):
 * the median (and min, max) wall time of a click by element index, each
 * one re-resolving its element in the live tree from the application root
 * (identity.md §4), and of typing 100 characters: through EditableText
 * where the toolkit takes it, and with XTEST key events.
 *
 * Run inside a headless desktop:  meson compile -C build bench-actions:run
 * (or: cua desktop run -- build/tools/bench-actions [ROUNDS])
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

static const char text100[] =
	"The quick brown fox jumps over the lazy dog, then naps in the sun. "
	"Pack my box with five dozen jugs!";

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
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

static void
stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	for (int i = 0; i < 50 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		usleep(100 * 1000);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Observes until the raw node count was stable twice in a row. */
static cua_tree *
observe_stable(cua_session *s, const char *app, int timeout_ms)
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
			if (stable >= 2 && n > 10)
				return t;
			cua_tree_unref(t);
		}
		usleep(500 * 1000);
	}
	return NULL;
}

static cua_element *
find(cua_tree *t, const char *role, const char *title)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (role && strcmp(cua_element_get_role(e), role) != 0)
			continue;
		if (title && strcmp(cua_element_get_title(e), title) != 0)
			continue;
		if (cua_element_get_traits(e) & CUA_TRAIT_DISABLED)
			continue;
		return e;
	}
	return NULL;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
report(const char *app, const char *what, double *ms, int n)
{
	if (n <= 0) {
		printf("%-22s %-34s   (no samples)\n", app, what);
		return;
	}
	qsort(ms, (size_t)n, sizeof(*ms), cmp);
	printf("%-22s %-34s median %7.1f ms  min %7.1f  max %7.1f  (n=%d)\n",
	       app, what, ms[n / 2], ms[0], ms[n - 1], n);
}

/* Median of `rounds` clicks on element `e` (after one warm-up click). */
static void
bench_click(cua_session *s, const char *app, cua_element *e, int rounds,
	    const char *what)
{
	double ms[200];
	int n = 0;
	char *out = NULL;

	if (!e) {
		printf("%-22s %-34s   (element not found)\n", app, what);
		return;
	}
	cua_session_click(s, app, cua_element_get_id(e), CUA_BUTTON_LEFT, 1, NULL);
	for (int i = 0; i < rounds && n < 200; i++) {
		double t0 = now_ms();
		cua_result r = cua_session_click(s, app, cua_element_get_id(e),
						 CUA_BUTTON_LEFT, 1,
						 i == 0 ? &out : NULL);

		if (r != CUA_OK) {
			printf("%-22s %-34s   failed: %s\n", app, what,
			       cua_error_message());
			return;
		}
		ms[n++] = now_ms() - t0;
	}
	report(app, what, ms, n);
	if (out) {
		const char *route = strstr(out, "\"route\":");

		printf("%-22s %-34s   route %.*s\n", app, "", route ?
		       (int)strcspn(route + 8, ",") : 0, route ? route + 8 : "");
		cua_free(out);
	}
}

/* Median of `rounds` type_text calls of 100 characters. `clear`: the
 * element emptied before each round (not timed). */
static void
bench_type(cua_session *s, const char *app, cua_element *field, int keys,
	   int rounds, const char *what)
{
	double ms[100];
	int n = 0;

	cua_session_set_option(s, "type_text_keys", keys ? "1" : "0");
	if (field)
		cua_session_click(s, app, cua_element_get_id(field),
				  CUA_BUTTON_LEFT, 1, NULL);
	for (int i = 0; i < rounds && n < 100; i++) {
		double t0;
		cua_result r;

		cua_session_press_key(s, app, "ctrl+a BackSpace", NULL);
		t0 = now_ms();
		r = cua_session_type_text(s, app, text100, NULL);
		if (r != CUA_OK) {
			printf("%-22s %-34s   failed: %s\n", app, what,
			       cua_error_message());
			break;
		}
		ms[n++] = now_ms() - t0;
	}
	cua_session_set_option(s, "type_text_keys", "0");
	report(app, what, ms, n);
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 30;
	cua_session *s = NULL;
	cua_tree *t;
	pid_t pid;
	char lo[256];

	if (cua_session_new(&s, 0) != CUA_OK) {
		fprintf(stderr, "bench-actions: %s\n", cua_error_message());
		return 1;
	}
	if (sizeof(text100) - 1 != 100) {
		fprintf(stderr, "bench-actions: the text is not 100 characters\n");
		return 1;
	}
	printf("libcua %s, %d rounds; wall time of each call (guards, live "
	       "re-resolution, route)\n\n", cua_version_string(), rounds);

	{
		const char *av[] = { "gtk3-widget-factory", NULL };
		const char *app = "gtk3-widget-factory";

		pid = spawn(av);
		t = observe_stable(s, app, 20000);
		if (!t) {
			printf("%s: not observable: %s\n", app, cua_error_message());
		} else {
			bench_click(s, app, find(t, "toggle button", "togglebutton"),
				    rounds, "click by index (toggle button)");
			bench_click(s, app, find(t, "checkbox", "checkbutton"),
				    rounds, "click by index (check box)");
			bench_type(s, app, find(t, "text field", NULL), 0,
				   rounds / 3 + 1, "type 100 chars (EditableText)");
			bench_type(s, app, find(t, "text field", NULL), 1,
				   rounds / 3 + 1, "type 100 chars (XTEST keys)");
			cua_tree_unref(t);
		}
		stop(pid);
	}

	snprintf(lo, sizeof(lo),
		 "-env:UserInstallation=file:///tmp/cua-bench-actions-lo-%d",
		 (int)getpid());
	setenv("SAL_USE_VCLPLUGIN", "gtk3", 1);
	{
		const char *av[] = { "soffice", "--writer", "--norestore",
				     "--nologo", lo, NULL };
		const char *app = "libreoffice-writer";
		cua_element *bold;

		pid = spawn(av);
		t = observe_stable(s, app, 60000);
		if (!t) {
			printf("%s: not observable: %s\n", app, cua_error_message());
		} else {
			bold = find(t, "toggle button", "Bold");
			if (!bold)
				bold = find(t, "button", "Bold");
			bench_click(s, app, bold, rounds,
				    "click by index (Bold)");
			bench_type(s, app, NULL, 0, rounds / 3 + 1,
				   "type 100 chars (EditableText)");
			bench_type(s, app, NULL, 1, rounds / 3 + 1,
				   "type 100 chars (XTEST keys)");
			cua_tree_unref(t);
		}
		/* soffice hands over to soffice.bin, which `cua desktop run`
		 * ends with the desktop */
		stop(pid);
	}
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf /tmp/cua-bench-actions-lo-%d",
			 (int)getpid());
		if (system(cmd) != 0)
			fprintf(stderr, "bench-actions: could not remove %s\n",
				cmd + 7);
	}
	cua_session_unref(s);
	return 0;
}
