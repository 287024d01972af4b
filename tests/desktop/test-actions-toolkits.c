/*
 * Clicks that do exactly what they report, on the GTK 3, GTK 4 and Qt 5
 * fixtures (docs/actions.md §3, §3.4, §9): the same button clicked N times in
 * a row, as separate calls and as a cua-mcp sequence, gives N clicks;
 * a menu title opens its menu and presses nothing; a click on a row or a
 * cell leaves exactly that row selected and activates nothing; a line
 * break typed is the Return key. Every effect is read back from the
 * fixture's own output, and every action runs inside the wrong-element
 * guard (guard.h): nothing else in the app changed. A click on the
 * window itself brings it to the front and presses nothing in it.
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
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "covers.h"
#include "guard.h"

#define REPEAT 5

struct fixture {
	const char *app; /* the app id libcua gives it */
	const char *exe, *arg;
	const char *title_role; /* AT-SPI role of its menu-bar titles */
	const char *list_item;  /* the role text of its list rows */
	const char *toolkit;    /* its row in docs/coverage.md */
};

static const struct fixture gtk3 = { "fixture-gtk3", FIXTURE_GTK3, "--extras",
				     "menu",         "row",        "GTK 3" };
static const struct fixture gtk4 = { "fixture-gtk4", FIXTURE_GTK4, NULL,
				     "menu item",    "row",        "GTK 4" };
static const struct fixture qt5 = { "fixture-qt5", FIXTURE_QT5, "--extras",
				    "menu item",   "row",       "Qt 5" };

static const struct fixture *fx;
static struct app_proc proc;

/* Makes `f` the fixture under test (one runs at a time: their windows
 * would cover each other); nothing to do when it already is. */
static void
use(const struct fixture *f)
{
	if (fx == f)
		return;
	fx = f;
	fixture_switch(&proc, f->app, f->exe, f->arg);
}

/* The group setup: the session, and the fixture for
 * app_session_teardown() to stop. */
static int
setup(void **state)
{
	*state = &proc;
	return session_setup(state);
}

/* Sends a command and waits for its "done"; lines before it go to log. */
static void
command(const char *cmd, char *log, size_t size)
{
	fixture_command(&proc, fx->app, cmd, log, size);
}

/* ------------------------------------------------------------------ */
/* The fixture                                                          */

/* Everything the fixture printed from now until `ms` have passed with
 * nothing new; appended to log. */
static void
quiet(int ms, char *log, size_t size)
{
	size_t len;

	do {
		len = strlen(log);
		app_read_until(&proc, NULL, ms, log, size);
	} while (strlen(log) != len);
}

static int
count(const char *log, const char *prefix)
{
	int n = 0;

	for (const char *p = log; p && *p;
	     p = strchr(p, '\n'), p = p ? p + 1 : p)
		n += strncmp(p, prefix, strlen(prefix)) == 0;
	return n;
}

/* The last line starting with `prefix` (in a static buffer), or "". */
static const char *
last_line(const char *log, const char *prefix)
{
	static char line[512];
	const char *found = NULL;

	line[0] = '\0';
	for (const char *p = log; p && *p;
	     p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			found = p;
	if (found)
		snprintf(line, sizeof(line), "%.*s",
			 (int)(strchrnul(found, '\n') - found), found);
	return line;
}

/* Reads lines until `n` of them start with `prefix` (at most 10 s), then
 * until the fixture is quiet; everything read is in log. */
static void
wait_count(const char *prefix, int n, char *log, size_t size)
{
	int64_t deadline = now_ms() + 10000;

	while (count(log, prefix) < n && now_ms() < deadline)
		app_read_until(&proc, NULL, 100, log, size);
	quiet(400, log, size);
}

static pid_t
pid(void)
{
	return proc.pid;
}

/* ------------------------------------------------------------------ */
/* The same button, N times in a row                                    */

/* GTK 4 fires a button 250 ms after the activation and drops the ones in
 * between; Qt animates a press for 100 ms and restarts it on the next.
 * Every click reported done is a click. */
static void
test_repeat_calls(void **state)
{
	cua_tree *t = need_observation(fx->app, 15000);
	uint32_t beta =
		cua_element_get_id(need_element(fx->app, t, "button", "Beta"));
	struct guard *g;
	char log[8192] = "", *out = NULL;
	int64_t t0, ms;

	command("title libcua fixture", NULL, 0);
	g = guard_begin(pid());
	t0 = now_ms();
	for (int i = 0; i < REPEAT; i++) {
		ACT(cua_session_click(session, fx->app, beta, CUA_BUTTON_LEFT,
				      1, &out));
		if (!strstr(out, "\"route\":\"action:"))
			fail_msg("click %d: %s", i + 1, out);
		cua_free(out);
	}
	ms = now_ms() - t0;
	wait_count("clicked Beta", REPEAT, log, sizeof(log));
	if (count(log, "clicked Beta") != REPEAT)
		fail_msg("%s: %d clicks reported done, the app saw:\n%s",
			 fx->app, REPEAT, log);
	guard_allow(g, "push button", "Beta", GUARD_SUBTREE);
	guard_end(g);
	fprintf(stderr,
		"%s: %d clicks on one button as separate calls: "
		"%lld ms\n",
		fx->app, REPEAT, (long long)ms);
	cua_tree_unref(t);
}

/* The element number of `title` in a get_app_state answer of cua-mcp. */
static int
mcp_id(const char *answer, const char *line_tail)
{
	const char *p = strstr(answer, line_tail);

	if (!p)
		return -1;
	while (p > answer && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return atoi(p);
}

static void
test_repeat_sequence(void **state)
{
	const char *args[] = { "--trust-apps", "--no-structured-content",
			       NULL };
	struct app_proc mcp;
	char req[4096], *line, log[8192] = "";
	size_t k;
	int id;
	struct guard *g;
	int64_t t0, ms;

	assert_int_equal(mcp_start(&mcp, CUA_MCP_EXE, args), 0);
	snprintf(req, sizeof(req),
		 "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
		 "\"params\":{\"name\":\"get_app_state\",\"arguments\":"
		 "{\"app\":\"%s\"}}}",
		 fx->app);
	line = mcp_call(&mcp, req, 2);
	assert_non_null(line);
	id = mcp_id(line, " button Beta\\n");
	if (id < 0)
		fail_msg("no Beta in %s", line);
	free(line);
	command("title libcua fixture", NULL, 0);
	g = guard_begin(pid());
	k = (size_t)snprintf(
		req, sizeof(req),
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
		"\"params\":{\"name\":\"sequence\",\"arguments\":"
		"{\"app\":\"%s\",\"steps\":[",
		fx->app);
	for (int i = 0; i < REPEAT; i++)
		k += (size_t)snprintf(req + k, sizeof(req) - k,
				      "%s{\"tool\":\"click\",\"arguments\":"
				      "{\"element_index\":\"%d\"}}",
				      i ? "," : "", id);
	snprintf(req + k, sizeof(req) - k, "]}}}");
	t0 = now_ms();
	line = mcp_call(&mcp, req, 3);
	ms = now_ms() - t0;
	assert_non_null(line);
	if (!strstr(line, "Completed 5 of 5 steps."))
		fail_msg("the sequence: %s", line);
	free(line);
	wait_count("clicked Beta", REPEAT, log, sizeof(log));
	if (count(log, "clicked Beta") != REPEAT)
		fail_msg("%s: a sequence of %d clicks, the app saw:\n%s",
			 fx->app, REPEAT, log);
	guard_allow(g, "push button", "Beta", GUARD_SUBTREE);
	guard_end(g);
	fprintf(stderr,
		"%s: a sequence of %d clicks on one button: %lld ms "
		"(with the observation at its end)\n",
		fx->app, REPEAT, (long long)ms);
	app_stop(&mcp);
}

/* A key the app releases 100 ms after it went down (GTK 3 fixture): a
 * press while it is down would release it instead. */
static void
test_momentary_toggle(void **state)
{
	cua_tree *t = need_observation(fx->app, 15000);
	uint32_t id = cua_element_get_id(
		need_element(fx->app, t, "toggle button", "Momentary"));
	struct guard *g;
	char log[8192] = "";

	command("title libcua fixture", NULL, 0);
	g = guard_begin(pid());
	for (int i = 0; i < REPEAT; i++)
		ACT(cua_session_click(session, fx->app, id, CUA_BUTTON_LEFT, 1,
				      NULL));
	wait_count("pressed Momentary", REPEAT, log, sizeof(log));
	if (count(log, "pressed Momentary") != REPEAT)
		fail_msg("%d presses reported done, the app saw:\n%s", REPEAT,
			 log);
	guard_allow(g, "toggle button", "Momentary", GUARD_NODE);
	guard_end(g);
	cua_tree_unref(t);
}

/* A click on the window brings it to the front and presses nothing of
 * what lies in it. */
static void
test_window_click(void **state)
{
	cua_tree *t = need_observation(fx->app, 15000);
	struct guard *g = guard_begin(pid());
	char log[4096] = "", *out = NULL;

	ACT(cua_session_click(session, fx->app,
			      cua_element_get_id(cua_tree_get_element(t, 0)),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_route(fx->app, out, "activate-window");
	cua_free(out);
	quiet(400, log, sizeof(log));
	if (*log)
		fail_msg("%s: a click on the window did:\n%s", fx->app, log);
	guard_end(g);
	cua_tree_unref(t);
}

/* Clicks the element named `name` in `t` once and checks the route the
 * receipt names. */
static void
click_by_name(cua_tree *t, const char *name, const char *route)
{
	char *out = NULL;

	ACT(cua_session_click(
		session, fx->app,
		cua_element_get_id(need_element(fx->app, t, NULL, name)),
		CUA_BUTTON_LEFT, 1, &out));
	assert_route(fx->app, out, route);
	cua_free(out);
}

/* A container with no action around a button: the click presses the
 * shown button inside it (route 4). */
static void
test_descendant(void **state)
{
	cua_tree *t = need_observation(fx->app, 15000);
	struct guard *g = guard_begin(pid());
	char log[4096] = "";

	click_by_name(t, "Card", "descendant");
	wait_count("clicked Inside", 1, log, sizeof(log));
	if (count(log, "clicked ") != 1 || count(log, "clicked Inside") != 1)
		fail_msg("%s: a click on the card did:\n%s", fx->app, log);
	guard_allow(g, "push button", "Inside", GUARD_NODE);
	guard_end(g);
	cua_tree_unref(t);
}

/* ------------------------------------------------------------------ */
/* Menu titles                                                          */

static int
has_element(cua_tree *t, void *data)
{
	return find_element(t, NULL, data) != NULL;
}

static int
is_expanded(cua_tree *t, void *data)
{
	cua_element *e = find_element(t, NULL, data);

	return e && (cua_element_get_traits(e) & CUA_TRAIT_EXPANDED);
}

/* Clicks a menu title: its menu shows, the fixture prints nothing (no
 * item was pressed, no radio item changed). */
static void
click_title(const char *title, const char *shows)
{
	cua_tree *t = need_observation(fx->app, 15000), *t2;
	cua_element *e = need_element(fx->app, t, NULL, title);
	struct guard *g;
	char log[4096] = "", *out = NULL;

	g = guard_begin(pid());
	ACT(cua_session_click(session, fx->app, cua_element_get_id(e),
			      CUA_BUTTON_LEFT, 1, &out));
	fprintf(stderr, "%s: menu title %s: %s\n", fx->app, title, out);
	cua_free(out);
	quiet(500, log, sizeof(log));
	if (*log)
		fail_msg("%s: a click on the menu title '%s' did:\n%s", fx->app,
			 title, log);
	/* the title and its menu; GTK 3 and Qt show the menu's items,
	 * GTK 4 adds a popover under the title */
	guard_allow(g, fx->title_role, title, GUARD_SUBTREE);
	guard_allow_states(g, 1ull << GUARD_STATE_SELECTED);
	guard_end(g);
	t2 = shows ? observe_until_pred(session, fx->app, 5000, has_element,
					(void *)shows) :
		     observe_until_pred(session, fx->app, 5000, is_expanded,
					(void *)title);
	if (!t2)
		fail_msg("%s: the menu of '%s' did not open", fx->app, title);
	cua_tree_unref(t2);
	cua_tree_unref(t);
}

static void
close_menus(void)
{
	char log[4096] = "";

	ACT(cua_session_press_key(session, fx->app, "Escape", NULL));
	ACT(cua_session_press_key(session, fx->app, "Escape", NULL));
	quiet(300, log, sizeof(log));
	if (*log)
		fail_msg("closing the menus printed:\n%s", log);
}

static void
test_menu_titles(void **state)
{
	if (fx == &gtk4) {
		/* GTK 4.8 menu-bar titles have no action; the popover's
		 * items are not in the tree libcua reads */
		click_title("Settings", NULL);
	} else {
		click_title("Settings", "Language...");
		/* a submenu title inside the open menu */
		click_title("Angle Unit", "Radian");
	}
	close_menus();
}

/* ------------------------------------------------------------------ */
/* Rows                                                                 */

/* Clicks `id`; afterwards the fixture's selection is `want` exactly, and
 * nothing was activated. */
static void
click_row(uint32_t id, const char *want, const char *route)
{
	struct guard *g = guard_begin(pid());
	char log[8192] = "", *out = NULL;

	ACT(cua_session_click(session, fx->app, id, CUA_BUTTON_LEFT, 1, &out));
	assert_route(fx->app, out, route);
	cua_free(out);
	quiet(400, log, sizeof(log));
	if (strstr(log, "row-activated") || strstr(log, "chooser response"))
		fail_msg("%s: a click on a row activated it:\n%s", fx->app,
			 log);
	if (strcmp(last_line(log, "selection"), want) != 0)
		fail_msg("%s: '%s' expected, the app printed:\n%s", fx->app,
			 want, log);
	/* the rows' selected states (and GTK 3's cells) */
	guard_allow_states(g, 1ull << GUARD_STATE_SELECTED);
	guard_end(g);
}

static void
test_list_rows(void **state)
{
	cua_tree *t;

	command("select-row 1", NULL, 0);
	t = need_observation(fx->app, 15000);
	click_row(cua_element_get_id(
			  need_element(fx->app, t, fx->list_item, "Row 04")),
		  "selection 4", "selection");
	click_row(cua_element_get_id(
			  need_element(fx->app, t, fx->list_item, "Row 07")),
		  "selection 7", "selection");
	cua_tree_unref(t);
}

/* The row element holding cell `name` (GTK 3 tree views nest cells). */
static cua_element *
row_of(cua_tree *t, const char *name)
{
	cua_element *e = need_element(fx->app, t, "cell", name);

	while (e && strcmp(cua_element_get_role(e), "row") != 0)
		e = cua_element_get_parent(e);
	assert_non_null(e);
	return e;
}

/* GTK 3's tree view: multi-select without saying so, and a name cell
 * nested two cells deep whose `activate` is the row's activation. */
static void
test_tree_rows(void **state)
{
	cua_tree *t;
	char log[1024] = "";

	command("select-file 0", log, sizeof(log));
	t = need_observation(fx->app, 15000);
	click_row(cua_element_get_id(
			  need_element(fx->app, t, "cell", "report.txt")),
		  "selection report.txt", "selection");
	click_row(cua_element_get_id(row_of(t, "notes.txt")),
		  "selection notes.txt", "selection");
	cua_tree_unref(t);
}

struct chooser_state {
	const char *name;
	int selected; /* cells selected among the four files */
	int target_selected;
};

static int
chooser_ready(cua_tree *t, void *data)
{
	struct chooser_state *c = data;
	static const char *const files[] = {
		"budget-2025.txt",
		"notes.txt",
		"report.txt",
		"todo.txt",
	};

	c->selected = 0;
	c->target_selected = 0;
	for (size_t i = 0; i < 4; i++) {
		cua_element *e = find_element(t, "cell", files[i]);

		if (!e)
			return 0;
		if (cua_element_get_traits(e) & CUA_TRAIT_SELECTED) {
			c->selected++;
			if (strcmp(files[i], c->name) == 0)
				c->target_selected = 1;
		}
	}
	return 1;
}

static int
one_selected(cua_tree *t, void *data)
{
	struct chooser_state *c = data;

	return chooser_ready(t, data) && c->selected == 1 && c->target_selected;
}

/* A real GTK 3 file chooser: clicking a file selects it (and only it);
 * the dialog stays open until Open is clicked. */
static void
test_file_chooser(void **state)
{
	char dir[] = "/tmp/cua-chooser-XXXXXX", path[256], cmd[300];
	char log[8192] = "", *out = NULL;
	static const char *const files[] = {
		"budget-2025.txt",
		"notes.txt",
		"report.txt",
		"todo.txt",
	};
	struct chooser_state cs = { "report.txt", 0, 0 };
	cua_tree *t;
	struct guard *g;

	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < 4; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "content of %s\n", files[i]);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "chooser %s", dir);
	command(cmd, NULL, 0);
	t = observe_until_pred(session, fx->app, 15000, chooser_ready, &cs);
	assert_non_null(t);
	/* the chooser fills its places sidebar after it shows, rebuilding
	 * the rows each time: act once it has stopped */
	guard_settle(pid(), 1000, 15000);
	g = guard_begin(pid());
	ACT(cua_session_click(session, fx->app,
			      cua_element_get_id(need_element(
				      fx->app, t, "cell", "report.txt")),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_route(fx->app, out, "selection");
	cua_free(out);
	quiet(500, log, sizeof(log));
	if (strstr(log, "chooser response"))
		fail_msg("the click on a file closed the chooser:\n%s", log);
	/* the file list's selection, and what the chooser shows about the
	 * chosen file (its name in the location bar) */
	guard_allow(g, "table", NULL, GUARD_SUBTREE);
	guard_allow(g, "text", NULL, GUARD_NODE);
	/* the places sidebar rebuilds all its rows by itself whenever GTK's
	 * file and volume monitors report (seen seconds after the settle
	 * under load); a click in the file list cannot reach it */
	guard_allow(g, "scroll pane", "Places", GUARD_SUBTREE);
	guard_end(g);
	cua_tree_unref(t);
	t = observe_until_pred(session, fx->app, 5000, one_selected, &cs);
	if (!t)
		fail_msg("%d files selected after the click, report.txt %s",
			 cs.selected,
			 cs.target_selected ? "among them" : "not");
	ACT(cua_session_click(
		session, fx->app,
		cua_element_get_id(need_element(fx->app, t, "button", "Open")),
		CUA_BUTTON_LEFT, 1, NULL));
	wait_count("chooser response", 1, log, sizeof(log));
	if (strcmp(last_line(log, "chooser response"),
		   "chooser response -3 report.txt") != 0)
		fail_msg("the chooser answered:\n%s", log);
	cua_tree_unref(t);
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* ------------------------------------------------------------------ */
/* A line break typed is Return                                         */

static void
test_type_newline(void **state)
{
	cua_tree *t = need_observation(fx->app, 15000);
	uint32_t notes = cua_element_get_id(
		need_element(fx->app, t, "text entry area", "Notes"));
	cua_element *entry = find_element_prefix(t, "text field", "Name");
	uint32_t name;
	struct guard *g;
	char log[8192] = "", *out = NULL;
	const char *want, *typed = "a!\n\u20ac?b";

	assert_non_null(entry);
	name = cua_element_get_id(entry);
	/* a multi-line editor: Return, and the line break it makes; a
	 * click focuses it (GTK 4.8's GrabFocus fails: a pointer click) */
	ACT(cua_session_click(session, fx->app, notes, CUA_BUTTON_LEFT, 1,
			      &out));
	assert_route(fx->app, out, fx == &gtk4 ? "synthetic" : "focus");
	cua_free(out);
	quiet(300, log, sizeof(log));
	log[0] = '\0';
	g = guard_begin(pid());
	/* with punctuation (Shift) and a character on no key (a spare
	 * keycode); the action is done only once the text shows. mutter
	 * has no spare keycodes: a character its keymap lacks goes as
	 * GTK's Unicode entry (ctrl+shift+u, hex, space), which Qt 5 does
	 * not read (docs/wayland.md, Known gaps): Qt 5 there types the
	 * rest */
	if (fx == &qt5 && strcmp(test_desktop_kind(), "mutter") == 0)
		typed = "a!\n?b";
	ACT(cua_session_type_text(session, fx->app, typed, &out));
	assert_route(fx->app, out, "keys");
	cua_free(out);
	/* GTK's log escapes non-ASCII bytes in octal, Qt's does not */
	if (fx == &qt5)
		want = strcmp(typed, "a!\n?b") == 0 ? "text a!\\n?b" :
						      "text a!\\n\u20ac?b";
	else
		want = "text a!\\n\\342\\202\\254?b";
	wait_count(want, 1, log, sizeof(log));
	if (count(log, "key Return") != 1 ||
	    strcmp(last_line(log, "text "), want) != 0)
		fail_msg("%s: typing '%s' into the editor:\n%s", fx->app, typed,
			 log);
	if (strcmp(typed, "a!\n?b") == 0) {
		/* the euro sign as keys is refused before any key is sent,
		 * never typed as its hex digits, and nothing of the text
		 * before it is typed either (its first line is typed and
		 * read back before the rest is sent) */
		assert_int_equal(cua_session_type_text(session, fx->app,
						       "x\n\u20ac", NULL),
				 CUA_ERROR_UNSUPPORTED);
		assert_non_null(strstr(cua_error_message(),
				       "'\u20ac' (U+20AC) is on no key of "
				       "mutter's keymap, and Qt apps"));
		log[0] = '\0';
		quiet(500, log, sizeof(log));
		if (log[0])
			fail_msg("%s: a refused text changed the editor:\n%s",
				 fx->app, log);
	}
	guard_allow(g, "text", "Notes", GUARD_SUBTREE);
	guard_end(g);

	/* an input line: Return submits it */
	ACT(cua_session_set_value(session, fx->app, name, "", NULL));
	ACT(cua_session_click(session, fx->app, name, CUA_BUTTON_LEFT, 1,
			      &out));
	assert_route(fx->app, out, fx == &gtk4 ? "synthetic" : "focus");
	cua_free(out);
	log[0] = '\0';
	quiet(300, log, sizeof(log));
	log[0] = '\0';
	g = guard_begin(pid());
	ACT(cua_session_type_text(session, fx->app, "xyz\n", &out));
	assert_route(fx->app, out, "keys");
	cua_free(out);
	wait_count("activate entry", 1, log, sizeof(log));
	if (strcmp(last_line(log, "activate entry"), "activate entry xyz") != 0)
		fail_msg("%s: typing 'xyz\\n' into the entry:\n%s", fx->app,
			 log);
	/* GTK 3's entry is named by a label relation only */
	guard_allow(g, "text", fx == &gtk3 ? "" : "Name", GUARD_SUBTREE);
	guard_end(g);
	cua_tree_unref(t);
}

static int
not_titled(cua_tree *t, void *data)
{
	return !window_titled(t, data);
}

/* GTK 3, a handler in a modal dialog's loop: a key now would deadlock the
 * app's accessibility bridge: refused, nothing sent, and the app still
 * answers. Returns the dialog read again. */
static cua_tree *
keys_refused_in_loop(cua_tree *d, char *log, size_t size)
{
	assert_int_equal(
		cua_session_press_key(session, fx->app, "Escape", NULL),
		CUA_ERROR_INPUT_BLOCKED);
	assert_non_null(strstr(cua_error_message(), "would hang the app"));
	cua_tree_unref(d);
	d = observe_until_pred(session, fx->app, 5000, window_titled,
			       (void *)"Question");
	assert_non_null(d);
	quiet(300, log, size);
	if (count(log, "asked"))
		fail_msg("%s: the refused key reached the dialog:\n%s", fx->app,
			 log);
	return d;
}

/* A button whose handler asks in a modal dialog and waits for the answer
 * (GTK 3 presses a button inside its press action's accessibility call,
 * and gtk_dialog_run's loop runs there; Qt answers the press action only
 * once the handler returned): the click is done at once, the dialog is
 * read and answered while the handler waits, and the answer reaches the
 * handler. In GTK 3 keys meanwhile are refused (they would deadlock the
 * app's ATK bridge, docs/actions.md §3), and go again after. */
static void
test_modal_handler(void **state)
{
	cua_tree *t = need_observation(fx->app, 15000), *d;
	char log[4096] = "";

	(void)state;
	click_by_name(t, "Ask", fx == &qt5 ? "action:Press" : "action:Click");
	cua_tree_unref(t);
	wait_count("asking", 1, log, sizeof(log));
	if (count(log, "asking") != 1)
		fail_msg("%s: the click on Ask did:\n%s", fx->app, log);
	d = observe_until_pred(session, fx->app, 15000, window_titled,
			       (void *)"Question");
	if (!d)
		fail_msg("%s: the Question dialog was not read: %s", fx->app,
			 cua_error_message());
	if (fx == &gtk3)
		d = keys_refused_in_loop(d, log, sizeof(log));
	ACT(cua_session_click(
		session, fx->app,
		cua_element_get_id(need_element(fx->app, d, "button", "Yes")),
		CUA_BUTTON_LEFT, 1, NULL));
	cua_tree_unref(d);
	wait_count("asked", 1, log, sizeof(log));
	if (strcmp(last_line(log, "asked"), "asked yes") != 0)
		fail_msg("%s: the dialog answered:\n%s", fx->app, log);
	t = observe_until_pred(session, fx->app, 15000, not_titled,
			       (void *)"Question");
	assert_non_null(t);
	cua_tree_unref(t);
	/* the handler returned: keys go again */
	ACT(cua_session_press_key(session, fx->app, "Escape", NULL));
}

/* test_<toolkit>_<what>: test_<what> on that toolkit's fixture; the
 * tools whose effects test_<what> checks (docs/coverage.md) */
#define ON(tk, what)                                                           \
	static void test_##tk##_##what(void **state)                           \
	{                                                                      \
		use(&tk);                                                      \
		test_##what(state);                                            \
		COVERS(tk.toolkit, covers_##what);                             \
	}
static const char covers_repeat_calls[] = "click";
static const char covers_repeat_sequence[] = "get_app_state sequence";
static const char covers_momentary_toggle[] = "click";
static const char covers_window_click[] = "click";
static const char covers_descendant[] = "click";
static const char covers_menu_titles[] = "click";
static const char covers_tree_rows[] = "click";
static const char covers_list_rows[] = "click";
static const char covers_file_chooser[] = "click";
static const char covers_modal_handler[] = "get_app_state click";
static const char covers_type_newline[] = "click set_value type_text";
ON(gtk3, repeat_calls)
ON(gtk3, repeat_sequence)
ON(gtk3, momentary_toggle)
ON(gtk3, window_click)
ON(gtk3, descendant)
ON(gtk3, menu_titles)
ON(gtk3, tree_rows)
ON(gtk3, file_chooser)
ON(gtk3, modal_handler)
ON(gtk3, type_newline)
ON(gtk4, repeat_calls)
ON(gtk4, repeat_sequence)
ON(gtk4, window_click)
ON(gtk4, descendant)
ON(gtk4, menu_titles)
ON(gtk4, list_rows)
ON(gtk4, type_newline)
ON(qt5, repeat_calls)
ON(qt5, repeat_sequence)
ON(qt5, window_click)
ON(qt5, descendant)
ON(qt5, menu_titles)
ON(qt5, list_rows)
ON(qt5, type_newline)
ON(qt5, modal_handler)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gtk3_repeat_calls),
		cmocka_unit_test(test_gtk3_repeat_sequence),
		cmocka_unit_test(test_gtk3_momentary_toggle),
		cmocka_unit_test(test_gtk3_window_click),
		cmocka_unit_test(test_gtk3_descendant),
		cmocka_unit_test(test_gtk3_menu_titles),
		cmocka_unit_test(test_gtk3_tree_rows),
		cmocka_unit_test(test_gtk3_file_chooser),
		cmocka_unit_test(test_gtk3_modal_handler),
		cmocka_unit_test(test_gtk3_type_newline),
		cmocka_unit_test(test_gtk4_repeat_calls),
		cmocka_unit_test(test_gtk4_repeat_sequence),
		cmocka_unit_test(test_gtk4_window_click),
		cmocka_unit_test(test_gtk4_descendant),
		cmocka_unit_test(test_gtk4_menu_titles),
		cmocka_unit_test(test_gtk4_list_rows),
		cmocka_unit_test(test_gtk4_type_newline),
		cmocka_unit_test(test_qt5_repeat_calls),
		cmocka_unit_test(test_qt5_repeat_sequence),
		cmocka_unit_test(test_qt5_window_click),
		cmocka_unit_test(test_qt5_descendant),
		cmocka_unit_test(test_qt5_menu_titles),
		cmocka_unit_test(test_qt5_list_rows),
		cmocka_unit_test(test_qt5_type_newline),
		cmocka_unit_test(test_qt5_modal_handler),
	};

	return run_test_group("actions-toolkits", tests, setup,
			      app_session_teardown);
}
