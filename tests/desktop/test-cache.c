/*
 * The tree cache (docs/concurrency.md §6): randomized UI mutations on the
 * fixtures, each followed by an observation with the cache in verify mode
 * (CUA_CACHE_VERIFY=1, set here before the session is opened, with
 * CUA_TREE_CACHE=all so that every toolkit's app is served from the
 * cache): a cached observation is also read in full and an error names
 * the first line where the two differ. There must be none, and the cache
 * must have served a share of the observations (it is not merely read in
 * full every time). The fallback rate per fixture is printed.
 *
 * Mutations: renames, check boxes toggled, the window retitled, the entry
 * focused and its text selected, buttons inserted, appended, removed,
 * moved and reversed, a panel of nested widgets opened and closed (GTK 3),
 * and observations with no change at all. Observations served with
 * subtrees read again (children added or removed) and the reasons of
 * full reads are counted and printed. A second case moves a GTK 3 tree
 * view's selection from row to row (announced by the view, not by the row
 * that gains it).
 * CUA_CACHE_TEST_MODE=sweep serves them swept instead (every cached
 * node's states, name and child count compared at each observation).
 * CUA_CACHE_MUTATIONS=N per fixture (default 60); CUA_CACHE_FIXTURES a
 * comma-separated subset of gtk3, gtk4, qt5, chromium, firefox (default
 * gtk3: the toolkit the cache trusts by default, docs/concurrency.md).
 * The browsers show tests/data/cache-page.html, whose keys make the same kinds of
 * change (and hide a list, add and remove its items, change a text, a
 * button's description, and grow the page past its view and back, which
 * gives and takes the document's scroll actions).
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
#include <unistd.h>

#include "common.h"

struct fixture {
	const char *key, *app, *exe, *arg; /* exe NULL: a browser, arg page */
};

static const struct fixture fixtures[] = {
	{ "gtk3", "fixture-gtk3", FIXTURE_GTK3, "--small" },
	{ "gtk4", "fixture-gtk4", FIXTURE_GTK4, NULL },
	{ "qt5", "fixture-qt5", FIXTURE_QT5, NULL },
	{ "chromium", "chromium", NULL, "cache-page.html" },
	{ "firefox", "firefox-esr", NULL, "cache-page.html" },
};

static struct app_proc app;
static struct web_browser browser;

/* what the cache said about each observation (its debug lines) */
static int hits, fulls, excused, spliced;
/* its waits for values moved without an event: ended at rest, ended
 * still moving, not made (the values still moving at the last one) */
static int rested, gave_up, unwaited;

/* why observations were read in full: the reasons and their counts */
#define N_REASONS 24
static char reasons[N_REASONS][96];
static int reason_n[N_REASONS];

static void
tally_reason(const char *msg)
{
	const char *a = strstr(msg, "read in full (");
	size_t len, i;

	if (!a)
		return;
	a += strlen("read in full (");
	len = strcspn(a, ")");
	if (len >= sizeof(reasons[0]))
		len = sizeof(reasons[0]) - 1;
	for (i = 0; i < N_REASONS && reasons[i][0]; i++)
		if (strlen(reasons[i]) == len &&
		    strncmp(reasons[i], a, len) == 0)
			break;
	if (i == N_REASONS)
		return;
	if (!reasons[i][0])
		memcpy(reasons[i], a, len);
	reason_n[i]++;
}

static void
on_log(cua_session *s, cua_log_level level, const char *msg, void *data)
{
	(void)s;
	(void)data;
	if (strstr(msg, "tree cache: ") &&
	    strstr(msg, "served from the cache")) {
		hits++;
		if (!strstr(msg, ", 0 subtrees read again"))
			spliced++;
	} else if (strstr(msg, "tree cache: ") && strstr(msg, "read in full")) {
		fulls++;
		tally_reason(msg);
	} else if (strstr(msg, "tree cache verify: ") &&
		   strstr(msg, "changed during the check"))
		excused++;
	else if (strstr(msg, "tree cache sweep: ") &&
		 strstr(msg, "moved without an event")) {
		rested += strstr(msg, "; at rest after") != NULL;
		gave_up += strstr(msg, "; still moving after") != NULL;
		unwaited += strstr(msg, "not waited for") != NULL;
	}
	if (getenv("CUA_CACHE_TRACE") && strstr(msg, "tree cache"))
		fprintf(stderr, "libcua: %s\n", msg);
	if (level >= CUA_LOG_WARNING)
		fprintf(stderr, "libcua: %s\n", msg);
}

static int
setup(void **state)
{
	const char *mode = getenv("CUA_CACHE_TEST_MODE");

	setenv("CUA_TREE_CACHE", mode ? mode : "all", 1);
	setenv("CUA_CACHE_VERIFY", "1", 1);
	*state = &app;
	if (session_setup(state) != 0)
		return -1;
	cua_session_set_log_handler(session, on_log, NULL);
	cua_session_set_log_level(session, CUA_LOG_DEBUG);
	return 0;
}

static int
teardown(void **state)
{
	if (browser.proc.pid > 0)
		web_browser_stop(&browser);
	return app_session_teardown(state);
}

/* the fixture has the in-window sheet (GTK 3), and it shows */
static int has_sheet, sheet_shown;

static const char *const labels[] = {
	"Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta",
};
#define N_LABELS (sizeof(labels) / sizeof(labels[0]))

/* The fixture's button row, as the commands left it. */
struct row {
	char label[16][16];
	int n;
};

static void
row_remove(struct row *r, int i)
{
	memmove(r->label[i], r->label[i + 1], (size_t)(r->n - i - 1) * 16);
	r->n--;
}

static void
row_insert(struct row *r, int i, const char *l)
{
	memmove(r->label[i + 1], r->label[i], (size_t)(r->n - i) * 16);
	snprintf(r->label[i], 16, "%s", l);
	r->n++;
}

static int
row_last(const struct row *r, const char *l)
{
	for (int i = r->n - 1; i >= 0; i--)
		if (strcmp(r->label[i], l) == 0)
			return i;
	return -1;
}

/* One random mutation (or none), as a fixture command; "" for none. */
static void
mutate(struct row *r, char *cmd, size_t size)
{
	int op = rand() % 12, i = r->n ? rand() % r->n : 0;
	const char *l = labels[(size_t)rand() % N_LABELS];

	if ((op == 3 && r->n <= 2) || (op == 4 && r->n >= 10))
		op = 0;
	switch (op) {
	case 0:
	case 1: /* rename: one element's name */
		snprintf(cmd, size, "rename %s %s", r->label[i], l);
		snprintf(r->label[row_last(r, r->label[i])], 16, "%s", l);
		break;
	case 2: /* a state */
		snprintf(cmd, size, "toggle %s",
			 rand() % 2 ? "Check me" : "Unchecked box");
		break;
	case 3: /* remove */
		snprintf(cmd, size, "remove %s", r->label[i]);
		row_remove(r, row_last(r, r->label[i]));
		break;
	case 4: /* insert or append */
		if (rand() % 2) {
			snprintf(cmd, size, "insert %s", l);
			row_insert(r, 0, l);
		} else {
			snprintf(cmd, size, "append %s", l);
			row_insert(r, r->n, l);
		}
		break;
	case 5: { /* move */
		int to = rand() % r->n, from = row_last(r, r->label[i]);
		char moved[16];

		snprintf(cmd, size, "move %s %d", r->label[i], to);
		snprintf(moved, sizeof(moved), "%s", r->label[from]);
		row_remove(r, from);
		row_insert(r, to > r->n ? r->n : to, moved);
		break;
	}
	case 6: /* the window's title */
		snprintf(cmd, size, "title libcua fixture %d", rand() % 100);
		break;
	case 7: /* focus and selection */
		snprintf(cmd, size, "focus-entry");
		break;
	case 8:
		snprintf(cmd, size, "select-entry %d %d", rand() % 3,
			 3 + rand() % 5);
		break;
	case 9: /* reverse */
		snprintf(cmd, size, "reverse");
		for (int a = 0, b = r->n - 1; a < b; a++, b--) {
			char t[16];

			memcpy(t, r->label[a], 16);
			memcpy(r->label[a], r->label[b], 16);
			memcpy(r->label[b], t, 16);
		}
		break;
	case 10: /* a panel of nested widgets comes or goes */
		if (has_sheet) {
			snprintf(cmd, size, "%s",
				 sheet_shown ? "sheet-close" : "sheet-open");
			sheet_shown = !sheet_shown;
			break;
		}
		/* fall through */
	default: /* nothing: the unchanged app */
		cmd[0] = '\0';
		break;
	}
}

/* One random key of the cache page (or none), into `key`; "" for none. */
static void
mutate_page(char *key, size_t size)
{
	static const char keys[] = "rrtdaimvnfshlcg";
	int op = rand() % 18;

	if (op < (int)sizeof(keys) - 1)
		snprintf(key, size, "%c", keys[op]);
	else
		key[0] = '\0';
}

static int
page_loaded(cua_tree *t, void *data)
{
	(void)data;
	return find_element(t, "button", "Gamma") != NULL;
}

/* The browser on the cache page, the page holding the keyboard focus. */
static void
browser_start(const struct fixture *f)
{
	cua_tree *t;
	cua_element *e;
	char *outcome = NULL;

	app_stop(&app);
	if (strcmp(f->key, "firefox") == 0)
		firefox_start(&browser, f->arg);
	else
		chromium_start(&browser, f->arg);
	/* a page still loading may change between the look and the click
	 * (Gecko describes a document to a new client in steps): the
	 * click is refused as stale, and made again after a new look */
	for (int i = 0;; i++) {
		cua_result r;

		t = observe_until_pred(session, f->app, 30000, page_loaded,
				       NULL);
		assert_non_null(t);
		e = find_element(t, "heading", "Cache page");
		assert_non_null(e);
		r = cua_session_click(session, f->app, cua_element_get_id(e),
				      CUA_BUTTON_LEFT, 1, &outcome);
		cua_tree_unref(t);
		if (r == CUA_OK)
			break;
		if (r != CUA_ERROR_STALE || i == 4)
			fail_msg("click the heading: %s", cua_error_message());
		usleep(500 * 1000);
	}
	cua_free(outcome);
}

static void
run(const struct fixture *f, unsigned seed)
{
	const char *env_n = getenv("CUA_CACHE_MUTATIONS");
	int n = env_n && atoi(env_n) > 0 ? atoi(env_n) : 60;
	int divergences = 0, observed = 0, mutations = 0;
	struct row r = { { "Alpha", "Beta", "Gamma" }, 3 };
	int64_t t0 = now_ms();
	cua_tree *t;

	has_sheet = strcmp(f->key, "gtk3") == 0;
	sheet_shown = 0;
	if (f->exe) {
		fixture_switch(&app, f->app, f->exe, f->arg);
		t = need_observation(f->app, 15000);
		cua_tree_unref(t);
	} else {
		browser_start(f);
	}
	hits = fulls = excused = spliced = 0;
	memset(reasons, 0, sizeof(reasons));
	memset(reason_n, 0, sizeof(reason_n));
	srand(seed);
	for (int it = 0; it < n; it++) {
		char cmd[96];
		cua_result rc;

		if (!f->exe) {
			char *outcome = NULL;

			mutate_page(cmd, sizeof(cmd));
			if (cmd[0] &&
			    cua_session_press_key(session, f->app, cmd,
						  &outcome) != CUA_OK)
				fail_msg("press %s: %s", cmd,
					 cua_error_message());
			cua_free(outcome);
			mutations += cmd[0] != '\0';
		} else {
			mutate(&r, cmd, sizeof(cmd));
			if (cmd[0]) {
				fixture_command(&app, f->app, cmd, NULL, 0);
				mutations++;
			}
		}
		t = NULL;
		rc = cua_session_observe(
			session, f->app,
			CUA_OBSERVE_NO_LAUNCH | CUA_OBSERVE_NO_SCREENSHOT, &t);
		observed++;
		if (rc != CUA_OK) {
			/* the verify error names the first differing line */
			fprintf(stderr, "%s: after \"%s\": %s\n", f->app, cmd,
				cua_error_message());
			if (strstr(cua_error_message(), "tree cache verify"))
				divergences++;
			else
				fail_msg("observe %s: %s", f->app,
					 cua_error_message());
		}
		cua_tree_unref(t);
	}
	fprintf(stderr,
		"cache %s: %d observations after %d mutations, %d served "
		"from the cache (%d with subtrees read again), %d read in "
		"full (fallback rate %.0f %%), %d checks excused (the app "
		"changed during the check), %d divergences, %lld s\n",
		f->app, observed, mutations, hits, spliced, fulls,
		hits + fulls ? 100.0 * fulls / (hits + fulls) : 0.0, excused,
		divergences, (long long)(now_ms() - t0) / 1000);
	for (size_t i = 0; i < N_REASONS && reasons[i][0]; i++)
		fprintf(stderr, "cache %s: read in full %d times: %s\n", f->app,
			reason_n[i], reasons[i]);
	if (!f->exe)
		web_browser_stop(&browser);
	assert_int_equal(divergences, 0);
	/* every observation went through the cache, and it served some */
	assert_int_equal(hits + fulls, observed);
	assert_true(hits >= observed / 5);
	/* children added and removed were read as subtrees (GTK 3 announces
	 * them), not in full */
	if (strcmp(f->key, "gtk3") == 0 && mutations >= 20)
		assert_true(spliced > 0);
}

static void
test_cache_mutations(void **state)
{
	const char *want = getenv("CUA_CACHE_FIXTURES");
	int ran = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const char *k = fixtures[i].key;
		const char *p = want ? strstr(want, k) : NULL;

		if (want ? !p : strcmp(k, "gtk3") != 0)
			continue;
		run(&fixtures[i], 20261202u + (unsigned)i);
		ran++;
	}
	assert_true(ran > 0);
}

/* The line of the row whose text starts with `label` (its first cell's
 * text or its own name), malloc'd; NULL when none shows. */
static char *
row_line(cua_tree *t, const char *label)
{
	char *text = render(t), *line = NULL, *p, *end;

	for (p = text; p && *p; p = end ? end + 1 : NULL) {
		end = strchr(p, '\n');
		if (end)
			*end = '\0';
		if (strstr(p, label) &&
		    (strstr(p, " row") || strstr(p, " cell"))) {
			line = strdup(p);
			break;
		}
		if (!end)
			break;
	}
	cua_free(text);
	return line;
}

/*
 * A tree view's selection moved from row to row (GTK 3 announces the row
 * that loses it, and only a selection-changed of the view for the one
 * that gains it): the observations are served from the cache, checked
 * against a full read (verify mode), and show the selected row.
 */
static void
test_cache_tree_selection(void **state)
{
	static const char *const files[] = { "budget-2025.txt", "notes.txt",
					     "report.txt", "todo.txt" };
	static const int rows[] = { 1, 3, 0, 2, 1 };
	cua_tree *t;
	int hits0;

	(void)state;
	fixture_switch(&app, "fixture-gtk3", FIXTURE_GTK3, "--extras");
	t = need_observation("fixture-gtk3", 15000);
	cua_tree_unref(t);
	hits0 = hits;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char cmd[32], *line;

		snprintf(cmd, sizeof(cmd), "select-file %d", rows[i]);
		fixture_command(&app, "fixture-gtk3", cmd, NULL, 0);
		t = NULL;
		if (cua_session_observe(session, "fixture-gtk3",
					CUA_OBSERVE_NO_LAUNCH |
						CUA_OBSERVE_NO_SCREENSHOT,
					&t) != CUA_OK)
			fail_msg("after %s: %s", cmd, cua_error_message());
		line = row_line(t, files[rows[i]]);
		if (!line || !strstr(line, "selected") ||
		    strstr(line, "selectable"))
			fail_msg("after %s, %s shows as: %s", cmd,
				 files[rows[i]], line ? line : "(no such row)");
		free(line);
		cua_tree_unref(t);
	}
	/* served from the cache, not read in full each time */
	assert_true(hits - hits0 >= 3);
}

/* The first row the list line of `t` shows ("(showing A-B of N items)"),
 * -1 when the list shows no such summary. */
static int
list_first_row(cua_tree *t, int *total)
{
	char *text = render(t);
	const char *p = strstr(text, " list (showing ");
	int a = -1, b = -1;

	*total = -1;
	if (p &&
	    sscanf(p, " list (showing %d-%d of %d items)", &a, &b, total) != 3)
		a = -1;
	cua_free(text);
	return a;
}

/* The GTK 4 fixture observed at once (after `what`) is what it is
 * 700 ms later: nothing was caught on its way. */
static void
same_later(const char *what)
{
	cua_tree *t = NULL;
	char *now, *later;

	if (cua_session_observe(session, "fixture-gtk4",
				CUA_OBSERVE_NO_LAUNCH |
					CUA_OBSERVE_NO_SCREENSHOT,
				&t) != CUA_OK)
		fail_msg("after %s: %s", what, cua_error_message());
	now = render(t);
	cua_tree_unref(t);
	usleep(700 * 1000);
	t = need_observation("fixture-gtk4", 15000);
	later = render(t);
	cua_tree_unref(t);
	if (strcmp(now, later) != 0)
		fail_msg("after %s, the observation made at once differs "
			 "from one made 700 ms later:\n%s\n---\n%s",
			 what, now, later);
	cua_free(now);
	cua_free(later);
}

/*
 * A value that keeps moving without an event (a glide over 4 s, as a
 * progress shown without events): an observation waits for it to rest
 * and gives up after 400 ms; the observations after that one do not
 * wait for it again while it moves. Once it rests, what is observed at
 * once is what is observed later, and a new glide is waited for again.
 */
static void
glide_for_good(void)
{
	int64_t end;
	int seen = 0;
	cua_tree *t;

	fixture_command(&app, "fixture-gtk4", "glide-list 1000 4000", NULL, 0);
	end = now_ms() + 3000;
	while (now_ms() < end) {
		int gave_up0 = gave_up, rested0 = rested;

		t = NULL;
		if (cua_session_observe(session, "fixture-gtk4",
					CUA_OBSERVE_NO_LAUNCH |
						CUA_OBSERVE_NO_SCREENSHOT,
					&t) != CUA_OK)
			fail_msg("during a glide: %s", cua_error_message());
		cua_tree_unref(t);
		if (seen && (gave_up > gave_up0 || rested > rested0))
			fail_msg("the observation after one that stopped "
				 "waiting for a moving value waited again");
		if (gave_up > gave_up0)
			seen = 1;
	}
	if (!seen)
		fail_msg("no observation in 3 s of a glide found the value "
			 "still moving after 400 ms (%d waits ended at rest): "
			 "the fixture's frames stalled?",
			 rested);
	assert_true(unwaited > 0);
	usleep(1500 * 1000); /* the glide is over */
	same_later("the end of a long glide");
	/* a short glide after it: waited for again */
	fixture_command(&app, "fixture-gtk4", "glide-list 200 300", NULL, 0);
	same_later("glide-list 200 300, after a long glide");
}

/*
 * A long list read by visible range, scrolled (GTK 4 announces neither
 * the scroll nor the rows it brings into view): served swept, the cache
 * compares the range the list's hit tests give, reads the list again when
 * it moved, and every observation is checked against a full read (verify
 * mode) and starts at the row in view. Then scrolls that glide (GTK 4
 * animates a scroll bar's value without an event): an observation made
 * at once must show the list at rest (the sweep waits for the value to
 * rest; without that it showed the list mid-way). Then a glide that
 * outlasts the wait (glide_for_good()).
 */
static void
test_cache_list_scroll(void **state)
{
	static const int ys[] = { 600, 1000, 0, 800, 300 };
	cua_tree *t;
	int hits0, total, first, last_first = 0;

	(void)state;
	if (cua_session_set_option(session, "tree_cache", "sweep") != CUA_OK)
		fail_msg("tree_cache sweep: %s", cua_error_message());
	fixture_switch(&app, "fixture-gtk4", FIXTURE_GTK4, NULL);
	fixture_command(&app, "fixture-gtk4", "rows 80", NULL, 0);
	t = need_observation("fixture-gtk4", 15000);
	first = list_first_row(t, &total);
	cua_tree_unref(t);
	assert_int_equal(first, 0);
	assert_int_equal(total, 80);
	hits0 = hits;
	for (size_t i = 0; i < sizeof(ys) / sizeof(ys[0]); i++) {
		char cmd[64];
		cua_result rc;

		snprintf(cmd, sizeof(cmd), "scroll-list %d", ys[i]);
		fixture_command(&app, "fixture-gtk4", cmd, NULL, 0);
		t = NULL;
		rc = cua_session_observe(
			session, "fixture-gtk4",
			CUA_OBSERVE_NO_LAUNCH | CUA_OBSERVE_NO_SCREENSHOT, &t);
		if (rc != CUA_OK)
			fail_msg("after %s: %s", cmd, cua_error_message());
		first = list_first_row(t, &total);
		cua_tree_unref(t);
		if (ys[i] == 0 ? first != 0 : first <= 0)
			fail_msg("after %s the list starts at row %d", cmd,
				 first);
		/* further down, later rows */
		if (i > 0 && (ys[i] > ys[i - 1]) != (first > last_first))
			fail_msg("after %s the list starts at row %d, before "
				 "at %d",
				 cmd, first, last_first);
		last_first = first;
	}
	/* the observations with no scroll came from the cache */
	t = need_observation("fixture-gtk4", 15000);
	cua_tree_unref(t);
	assert_true(hits > hits0);
	/* a scroll that glides (300 ms, a frame at a time, no event), as
	 * GTK 4's own: the observation right after it shows the list at
	 * rest, as one made long after does */
	for (int round = 0; round < 2; round++) {
		const char *cmd =
			round ? "glide-list 100 300" : "glide-list 900 300";

		fixture_command(&app, "fixture-gtk4", cmd, NULL, 0);
		same_later(cmd);
	}
	glide_for_good();
	if (cua_session_set_option(session, "tree_cache", "auto") != CUA_OK)
		fail_msg("tree_cache auto: %s", cua_error_message());
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_mutations),
		cmocka_unit_test(test_cache_tree_selection),
		cmocka_unit_test(test_cache_list_scroll),
	};

	return run_test_group("cache", tests, setup, teardown);
}
