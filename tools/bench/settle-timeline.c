/*
 * settle-timeline: what an app sends after a click, in time: its AT-SPI
 * events and its window's damage, in ms after the click returned, as the
 * settle sees them (docs/screenshots.md §6.2). For choosing the settle's
 * rule from recorded timelines, not from one app.
 *
 * Each run clicks the element (role, title), then observes with a long
 * quiet interval (settle_quiet_ms = settle_answered_ms = QUIET, 600 unless
 * given) so that everything the click caused arrives inside the settle,
 * and prints the settle's trace lines.
 *   settle-timeline APP ROLE TITLE [RUNS [QUIET]]   (in a desktop: cua
 *   desktop run -- ...); TITLE "" is any title.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cua/cua.h>

#include "bench-util.h"

static int printing;

static void
on_log(cua_session *s, cua_log_level level, const char *msg, void *data)
{
	(void)s;
	(void)level;
	(void)data;
	if (printing && strncmp(msg, "settle ", 7) == 0)
		printf("  %s\n", msg);
}

int
main(int argc, char **argv)
{
	const char *app, *role, *title, *quiet;
	int runs;
	cua_session *s = NULL;
	cua_tree *t;

	if (argc < 4) {
		fprintf(stderr,
			"usage: settle-timeline APP ROLE TITLE [RUNS [QUIET]]\n");
		return 2;
	}
	app = argv[1];
	role = argv[2];
	title = *argv[3] ? argv[3] : NULL;
	runs = argc > 4 ? atoi(argv[4]) : 5;
	quiet = argc > 5 ? argv[5] : "600";
	if (cua_session_new(&s, 0) != CUA_OK ||
	    cua_session_set_option(s, "settle_cap_ms", "3000") != CUA_OK ||
	    cua_session_set_option(s, "settle_quiet_ms", quiet) != CUA_OK ||
	    cua_session_set_option(s, "settle_answered_ms", quiet) != CUA_OK) {
		fprintf(stderr, "%s\n", cua_error_message());
		return 1;
	}
	cua_session_set_log_handler(s, on_log, NULL);
	cua_session_set_log_level(s, CUA_LOG_TRACE);
	if (cua_session_observe(s, app, 0, &t) != CUA_OK) {
		fprintf(stderr, "%s\n", cua_error_message());
		return 1;
	}
	cua_tree_unref(t);
	t = bench_observe_stable(s, app, 30000);
	if (!t) {
		fprintf(stderr, "%s: not stable\n", app);
		return 1;
	}
	for (int i = 0; i < runs; i++) {
		cua_element *e = bench_find(t, role, title);
		char *outcome = NULL;
		cua_tree *t2 = NULL;

		if (!e) {
			fprintf(stderr, "no %s %s\n", role, title ? title : "");
			break;
		}
		printf("%s: click %d on %s %s\n", app, i + 1, role,
		       title ? title : "");
		if (cua_session_click(s, app, cua_element_get_id(e), 1, 1,
				      &outcome) != CUA_OK) {
			fprintf(stderr, "click: %s\n", cua_error_message());
			break;
		}
		printf("  %s\n", outcome);
		cua_free(outcome);
		printing = 1;
		if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t2) !=
		    CUA_OK) {
			fprintf(stderr, "observe: %s\n", cua_error_message());
			break;
		}
		printing = 0;
		cua_tree_unref(t);
		t = t2;
	}
	cua_tree_unref(t);
	bench_stop_app(s, app);
	cua_session_unref(s);
	return 0;
}
