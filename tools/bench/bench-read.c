/*
 * bench-read: how fast libcua reads and renders real apps.
 *
 * For each app: start it (through libcua's own launcher, or directly for
 * the browsers and LibreOffice, which need flags), wait until its tree is
 * complete, then observe and render it N times and report the raw nodes,
 * rendered elements, D-Bus calls per node, the median and best time of
 * reading the tree alone (walk and ids, from the tree's statistics), and
 * separately the medians of rendering, settling, the screenshot (capture
 * and encoding) and the whole observation.
 * Run it inside a headless desktop:  meson compile -C build bench
 * Arguments: [DATA-DIR [RUNS [APPS [KEY=VALUE...]]]], APPS a
 * comma-separated subset of gtk3, gtk4, featherpad, chromium,
 * chromium-long (a generated page of some 3,000 objects), firefox (Firefox
 * ESR on the form page, in a new profile), writer (default: all); KEY=VALUE session options (settle_answered_ms=250: the
 * settle before the short quiet interval after an action).
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
#include "chromium-flags.h"
#include "firefox-prefs.h"

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
	if (bench_wait_stable(s, app, 30000) < 0) {
		printf("%-28s  not ready: %s\n", label, cua_error_message());
		goto out;
	}
	for (int i = 0; i < runs; i++) {
		cua_tree *t = NULL;
		char *text = NULL;
		double t0 = bench_now_ms(), t1, t2;

		if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t) !=
		    CUA_OK) {
			printf("%-28s  failed: %s\n", label,
			       cua_error_message());
			goto out;
		}
		t1 = bench_now_ms();
		if (cua_tree_render(t, 0, &text) != CUA_OK) {
			printf("%-28s  render failed: %s\n", label,
			       cua_error_message());
			cua_tree_unref(t);
			goto out;
		}
		t2 = bench_now_ms();
		read[n] = (double)(cua_tree_get_stat(t, CUA_STAT_WALK_US) +
				   cua_tree_get_stat(t, CUA_STAT_BUILD_US)) /
			  1000.0;
		rend[n] = t2 - t1;
		settle[n] = (double)cua_tree_get_stat(t, CUA_STAT_SETTLE_US) /
			    1000.0;
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
		double read_med = bench_median(read, n), read_best = read[0];

		printf("%-28s %6lld %8lld %8.2f %8.2f %9.1f %9.1f %9.2f %9.1f %9.1f %9.1f\n",
		       label, (long long)nodes, (long long)elements,
		       nodes ? (double)calls / (double)nodes : 0.0,
		       elements ? (double)calls / (double)elements : 0.0,
		       read_med, read_best, bench_median(rend, n),
		       bench_median(settle, n), bench_median(shot, n),
		       bench_median(wall, n));
	}
	fflush(stdout);
out:
	free(read);
	free(rend);
	free(settle);
	free(shot);
	free(wall);
}

/*
 * Observation after a click: an element of `app` with this role and
 * (alternately) one of the two titles (NULL: any) clicked, then the app
 * observed (screenshot included): a check box or a toggle button (one
 * element changes), a tab (another page of widgets shows). Reports
 * the medians of reading the tree (walk + ids), the settle that follows
 * an action, the screenshot (capture + encoding) and the whole
 * observation. With the tree cache (on unless
 * CUA_TREE_CACHE=0) the read is the cache's: the clicked box read again,
 * the rest from the cache. Clicks come CLICK_PACE_MS apart at the
 * closest (an agent's pace is seconds).
 */
#define CLICK_PACE_MS 500
static void
bench_click(cua_session *s, const char *label, const char *app, int runs,
	    const char *role, const char *const *titles, const char *what)
{
	double *read = calloc((size_t)runs, sizeof(double));
	double *settle = calloc((size_t)runs, sizeof(double));
	double *wall = calloc((size_t)runs, sizeof(double));
	double *shot = calloc((size_t)runs, sizeof(double));
	cua_tree *t = NULL;
	double last = 0;
	int n = 0;

	if (!read || !settle || !wall || !shot ||
	    cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t) != CUA_OK)
		goto out;
	for (int i = 0; i < runs; i++) {
		cua_element *e = bench_find(t, role, titles[i % 2]);
		char *outcome = NULL;
		cua_tree *t2 = NULL;
		double t0;

		if (!e) {
			printf("%-28s  no %s %s to click\n", label, role,
			       titles[i % 2] ? titles[i % 2] : "");
			goto out;
		}
		/* at an agent's pace, not faster: a source that fires
		 * eight times a second is taken for an animation (settle.c) */
		if (i > 0)
			bench_sleep_until(last + CLICK_PACE_MS);
		last = bench_now_ms();
		if (cua_session_click(s, app, cua_element_get_id(e), 1, 1,
				      &outcome) != CUA_OK) {
			printf("%-28s  click failed: %s\n", label,
			       cua_error_message());
			goto out;
		}
		cua_free(outcome);
		t0 = bench_now_ms();
		if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t2) !=
		    CUA_OK) {
			printf("%-28s  failed: %s\n", label,
			       cua_error_message());
			goto out;
		}
		wall[n] = bench_now_ms() - t0;
		read[n] = (double)(cua_tree_get_stat(t2, CUA_STAT_WALK_US) +
				   cua_tree_get_stat(t2, CUA_STAT_BUILD_US)) /
			  1000.0;
		settle[n] = (double)cua_tree_get_stat(t2, CUA_STAT_SETTLE_US) /
			    1000.0;
		shot[n] = (double)(cua_tree_get_stat(t2, CUA_STAT_CAPTURE_US) +
				   cua_tree_get_stat(t2, CUA_STAT_ENCODE_US)) /
			  1000.0;
		n++;
		cua_tree_unref(t);
		t = t2;
	}
	printf("%-28s  after %s: read %.1f ms, settle %.1f ms, shot %.1f ms, "
	       "observe %.1f ms (medians of %d)\n",
	       label, what, bench_median(read, n), bench_median(settle, n),
	       bench_median(shot, n), bench_median(wall, n), n);
	fflush(stdout);
out:
	cua_tree_unref(t);
	free(read);
	free(settle);
	free(wall);
	free(shot);
}

/*
 * A long web page for Chromium, written to `path`: a navigation bar of
 * links, a form of check boxes, a table and paragraphs with links, some
 * 3,000 objects, most of them below the fold. Returns 0, or -1 (errno).
 */
static int
write_long_page(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>libcua long page</title></head><body>\n<nav>",
	      f);
	for (int i = 0; i < 60; i++)
		fprintf(f, "<a href=\"#s%d\">Section %d</a> ", i, i);
	fputs("</nav>\n<h1>A long page</h1>\n<form>", f);
	for (int i = 0; i < 40; i++)
		fprintf(f,
			"<label><input type=\"checkbox\"%s> Option %d</label>\n",
			i % 3 ? "" : " checked", i);
	fputs("</form>\n<table><thead><tr><th>Item</th>"
	      "<th>Price</th><th>Stock</th><th>Note</th></tr></thead><tbody>\n",
	      f);
	for (int i = 0; i < 200; i++)
		fprintf(f,
			"<tr><td>Item %d</td><td>%d.%02d</td><td>%d</td>"
			"<td><a href=\"#s%d\">details</a></td></tr>\n",
			i, i % 50, i % 100, (i * 7) % 90, i % 60);
	fputs("</tbody></table>\n", f);
	for (int i = 0; i < 60; i++)
		fprintf(f,
			"<h2 id=\"s%d\">Section %d</h2><p>Paragraph %d of the "
			"long page, with <a href=\"#s%d\">a link</a> and "
			"<b>bold words</b> inside.</p>\n",
			i, i, i, (i + 1) % 60);
	fputs("</body></html>\n", f);
	return fclose(f) == 0 ? 0 : -1;
}

/* A browser started with `argv` on a page: the page unchanged, then
 * clicks on its check box `box`. */
static void
bench_page(cua_session *s, const char *const argv[], const char *label,
	   const char *app, int runs, const char *box)
{
	const char *const titles[] = { box, box };
	pid_t pid = bench_spawn(argv);

	bench(s, label, app, runs);
	bench_click(s, label, app, runs, "checkbox", titles, "a click");
	bench_stop(pid);
}

/*
 * A new Firefox profile in `dir` (a mkdtemp template) with the tests'
 * preferences (firefox-prefs.h). Returns 0, or
 * -1 (errno).
 */
static int
firefox_profile(char *dir)
{
	char path[128];
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/user.js", dir);
	if (!(f = fopen(path, "we")))
		return -1;
	fputs(FIREFOX_TEST_PREFS, f);
	return fclose(f) == 0 ? 0 : -1;
}

/* Removes a directory the bench made, with what is in it. */
static void
remove_tree(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench-read: could not remove %s\n", dir);
}

/* Whether `key` is in the comma-separated list (NULL: every app). */
static int
wanted(const char *list, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = list; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, key, n) == 0 && (p[n] == ',' || !p[n]))
			return 1;
	}
	return list == NULL;
}

int
main(int argc, char **argv)
{
	const char *data = argc > 1 ? argv[1] : "tests/data";
	int runs = argc > 2 && atoi(argv[2]) > 0 ? atoi(argv[2]) : 7;
	const char *apps = argc > 3 ? argv[3] : NULL;
	cua_session *s = NULL;
	char url[4096], prof[128], lo[256], page[64];
	char ffprof[] = "/tmp/cua-bench-firefox-XXXXXX";
	cua_tree *t = NULL;
	pid_t pid;

	if (cua_session_new(&s, 0) != CUA_OK) {
		fprintf(stderr, "%s\n", cua_error_message());
		return 1;
	}
	for (int i = 4; i < argc; i++) {
		char key[64];
		const char *eq = strchr(argv[i], '=');

		if (!eq || (size_t)(eq - argv[i]) >= sizeof(key)) {
			fprintf(stderr, "bench-read: not KEY=VALUE: %s\n",
				argv[i]);
			cua_session_unref(s);
			return 2;
		}
		memcpy(key, argv[i], (size_t)(eq - argv[i]));
		key[eq - argv[i]] = 0;
		if (cua_session_set_option(s, key, eq + 1) != CUA_OK) {
			fprintf(stderr, "bench-read: %s\n",
				cua_error_message());
			cua_session_unref(s);
			return 2;
		}
	}
	printf("libcua %s — reading a tree, %d observations each (ms; medians "
	       "unless best)\n"
	       "read: reading the tree and building the elements (walk + ids); "
	       "render: the state text;\nsettle, shot (capture + encoding): the "
	       "rest of an observation; observe: its wall time\n",
	       cua_version_string(), runs);
	printf("%-28s %6s %8s %8s %8s %9s %9s %9s %9s %9s %9s\n", "app",
	       "nodes", "elements", "calls/n", "calls/el", "read", "read best",
	       "render", "settle", "shot", "observe");

	/* GTK 3, GTK 4 and Qt apps: libcua starts them from their entries */
	static const char *const launched[][3] = {
		{ "gtk3-widget-factory", "gtk3-widget-factory", "gtk3" },
		{ "gtk4-widget-factory", "gtk4-widget-factory", "gtk4" },
		{ "FeatherPad (Qt 5)", "featherpad", "featherpad" },
	};
	for (size_t i = 0; i < sizeof(launched) / sizeof(launched[0]); i++) {
		if (!wanted(apps, launched[i][2]))
			continue;
		if (cua_session_observe(s, launched[i][1], 0, &t) != CUA_OK) {
			printf("%-28s  cannot start: %s\n", launched[i][0],
			       cua_error_message());
			continue;
		}
		t = cua_tree_unref(t);
		bench(s, launched[i][0], launched[i][1], runs);
		if (i == 0) {
			static const char *const any[] = { NULL, NULL };
			static const char *const tabs[] = { "page 2",
							    "page 1" };

			bench_click(s, launched[i][0], launched[i][1], runs,
				    "checkbox", any, "a click");
			/* a tab switch: another page's widgets show */
			bench_click(s, launched[i][0], launched[i][1], runs,
				    "tab", tabs, "a tab switch");
		}
		bench_stop_app(s, launched[i][1]);
	}

	snprintf(url, sizeof(url), "file://%s/form.html", data);
	snprintf(prof, sizeof(prof),
		 "--user-data-dir=/tmp/cua-bench-chromium-%d", (int)getpid());
	if (wanted(apps, "chromium")) {
		const char *av[] = { "chromium", CHROMIUM_TEST_FLAGS, prof, url,
				     NULL };

		bench_page(s, av, "Chromium (form page)", "chromium", runs,
			   "Gift wrap");
	}
	/* a page of some 3,000 objects: what reading (or sweeping) many
	 * nodes costs */
	snprintf(page, sizeof(page), "/tmp/cua-bench-long-%d.html",
		 (int)getpid());
	snprintf(url, sizeof(url), "file://%s", page);
	if (wanted(apps, "chromium-long") && write_long_page(page) == 0) {
		const char *av[] = { "chromium", CHROMIUM_TEST_FLAGS, prof, url,
				     NULL };

		bench_page(s, av, "Chromium (long page)", "chromium", runs,
			   "Option 1");
		unlink(page);
	}
	remove_tree(strchr(prof, '=') + 1);

	snprintf(url, sizeof(url), "file://%s/form.html", data);
	if (wanted(apps, "firefox") && firefox_profile(ffprof) == 0) {
		const char *av[] = { FIREFOX_TEST_COMMAND, ffprof, url, NULL };

		bench_page(s, av, "Firefox (form page)", "firefox", runs,
			   "Gift wrap");
		remove_tree(ffprof);
	}

	snprintf(lo, sizeof(lo),
		 "-env:UserInstallation=file:///tmp/cua-bench-lo-%d",
		 (int)getpid());
	if (wanted(apps, "writer")) {
		const char *av[] = { "soffice",  "--writer", "--norestore",
				     "--nologo", lo,         NULL };

		setenv("SAL_USE_VCLPLUGIN", "gtk3", 1);
		pid = bench_spawn(av);
		bench(s, "LibreOffice Writer", "libreoffice-writer", runs);
		static const char *const bold[] = { "Bold", "Bold" };

		bench_click(s, "LibreOffice Writer", "libreoffice-writer", runs,
			    "toggle button", bold, "a click");
		bench_stop_app(s, "libreoffice-writer");
		bench_stop(pid);
		remove_tree(strstr(lo, "file://") + 7);
	}
	cua_session_unref(s);
	return 0;
}
