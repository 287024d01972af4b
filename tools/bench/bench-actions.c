/*
 * bench-actions: how long actions take, re-resolution included.
 *
 * For gtk3-widget-factory and LibreOffice Writer (SAL_USE_VCLPLUGIN=gtk3):
 * the median (and min, max) wall time of a click by element index, each
 * one re-resolving its element in the live tree from the application root
 * (docs/identity.md §4), and of typing 100 characters: through EditableText
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

#include "bench-util.h"

static const char text100[] =
	"The quick brown fox jumps over the lazy dog, then naps in the sun. "
	"Pack my box with five dozen jugs!";

static void
report(const char *app, const char *what, double *ms, int n)
{
	if (n <= 0) {
		printf("%-22s %-34s   (no samples)\n", app, what);
		return;
	}
	double med = bench_median(ms, n);

	printf("%-22s %-34s median %7.1f ms  min %7.1f  max %7.1f  (n=%d)\n",
	       app, what, med, ms[0], ms[n - 1], n);
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
	cua_session_click(s, app, cua_element_get_id(e), CUA_BUTTON_LEFT, 1,
			  NULL);
	for (int i = 0; i < rounds && n < 200; i++) {
		double t0 = bench_now_ms();
		cua_result r = cua_session_click(s, app, cua_element_get_id(e),
						 CUA_BUTTON_LEFT, 1,
						 i == 0 ? &out : NULL);

		if (r != CUA_OK) {
			printf("%-22s %-34s   failed: %s\n", app, what,
			       cua_error_message());
			return;
		}
		ms[n++] = bench_now_ms() - t0;
	}
	report(app, what, ms, n);
	if (out) {
		const char *route = strstr(out, "\"route\":");

		printf("%-22s %-34s   route %.*s\n", app, "",
		       route ? (int)strcspn(route + 8, ",") : 0,
		       route ? route + 8 : "");
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
		t0 = bench_now_ms();
		r = cua_session_type_text(s, app, text100, NULL);
		if (r != CUA_OK) {
			printf("%-22s %-34s   failed: %s\n", app, what,
			       cua_error_message());
			break;
		}
		ms[n++] = bench_now_ms() - t0;
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
		fprintf(stderr,
			"bench-actions: the text is not 100 characters\n");
		return 1;
	}
	printf("libcua %s, %d rounds; wall time of each call (guards, live "
	       "re-resolution, route)\n\n",
	       cua_version_string(), rounds);

	{
		const char *av[] = { "gtk3-widget-factory", NULL };
		const char *app = "gtk3-widget-factory";

		pid = bench_spawn(av);
		t = bench_observe_stable(s, app, 20000);
		if (!t) {
			printf("%s: not observable: %s\n", app,
			       cua_error_message());
		} else {
			bench_click(
				s, app,
				bench_find(t, "toggle button", "togglebutton"),
				rounds, "click by index (toggle button)");
			bench_click(s, app,
				    bench_find(t, "checkbox", "checkbutton"),
				    rounds, "click by index (check box)");
			bench_type(s, app, bench_find(t, "text field", NULL), 0,
				   rounds / 3 + 1,
				   "type 100 chars (EditableText)");
			bench_type(s, app, bench_find(t, "text field", NULL), 1,
				   rounds / 3 + 1,
				   "type 100 chars (XTEST keys)");
			cua_tree_unref(t);
		}
		bench_stop(pid);
	}

	snprintf(lo, sizeof(lo),
		 "-env:UserInstallation=file:///tmp/cua-bench-actions-lo-%d",
		 (int)getpid());
	setenv("SAL_USE_VCLPLUGIN", "gtk3", 1);
	{
		const char *av[] = { "soffice",  "--writer", "--norestore",
				     "--nologo", lo,         NULL };
		const char *app = "libreoffice-writer";
		cua_element *bold;

		pid = bench_spawn(av);
		t = bench_observe_stable(s, app, 60000);
		if (!t) {
			printf("%s: not observable: %s\n", app,
			       cua_error_message());
		} else {
			bold = bench_find(t, "toggle button", "Bold");
			if (!bold)
				bold = bench_find(t, "button", "Bold");
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
		bench_stop(pid);
	}
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd),
			 "rm -rf /tmp/cua-bench-actions-lo-%d", (int)getpid());
		if (system(cmd) != 0)
			fprintf(stderr, "bench-actions: could not remove %s\n",
				cmd + 7);
	}
	cua_session_unref(s);
	return 0;
}
