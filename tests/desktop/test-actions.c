/*
 * Acting on our GTK3 fixture (actions.md, identity.md §4–§5): each action's
 * effect read back from the fixture's own output (one line per effect) or
 * from a fresh observation; the staleness run (randomised mutations
 * between observation and action, counting wrong-element clicks by the
 * buttons' serial numbers); bad input (exact errors, nothing sent);
 * covered windows and keyboard focus.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define APP "fixture-gtk3"
#define INVALID_MSG                                                          \
	"The element ID is no longer valid. Try to get the on-screen content " \
	"again and see if that resolves the issue."
#define FINISH_MSG                                                           \
	"The element was invalidated, and an attempt was made to refetch it, " \
	"but the refetch couldn't be finished because multiple elements were " \
	"found that match the criteria. Try to get the on-screen content "    \
	"again and see if that resolves the issue."
#define START_MSG                                                            \
	"The element was invalidated, and an attempt was made to refetch it, " \
	"but the refetch couldn't be started because multiple elements were " \
	"found that match the criteria. Try to get the on-screen content "    \
	"again and see if that resolves the issue."

static struct app_proc app;
static cua_session *session;

/* ------------------------------------------------------------------ */
/* The fixture's output                                                 */

/* Reads lines until one starts with `until` (or the timeout); every line
 * read is appended to `log` (may be NULL). 0 when found. */
static int
read_until(const char *until, int timeout_ms, char *log, size_t size)
{
	return app_read_until(&app, until, timeout_ms, log, size);
}

/* Sends a command and waits for its "done"; lines before it go to log. */
static void
command(const char *cmd, char *log, size_t size)
{
	char done[128];
	const char *sp = strchr(cmd, ' ');

	snprintf(done, sizeof(done), "done %.*s",
		 (int)(sp ? (size_t)(sp - cmd) : strlen(cmd)), cmd);
	assert_int_equal(app_send(&app, cmd), 0);
	if (read_until(done, 5000, log, size) < 0)
		fail_msg("the fixture did not answer '%s'", cmd);
}

/* Everything the fixture printed until now (after a round trip). */
static void
drain(char *log, size_t size)
{
	if (log)
		log[0] = '\0';
	command("title libcua fixture", log, size);
}

/* Pointer input reaches the app through the X server (and the window
 * manager's focus-click grab), so it can arrive after a command sent
 * later: wait for the line itself. */
static void
wait_log(const char *prefix, char *log, size_t size)
{
	if (read_until(prefix, 5000, log, size) < 0)
		fail_msg("the fixture never printed '%s'; it printed:\n%s", prefix,
			 log ? log : "");
}

static void
expect_line(const char *prefix)
{
	char log[8192] = "";

	if (read_until(prefix, 5000, log, sizeof(log)) < 0)
		fail_msg("the fixture never printed '%s'; it printed:\n%s",
			 prefix, log);
}

static cua_tree *
observe(void)
{
	cua_tree *t = observe_until(session, APP, 10000);

	assert_non_null(t);
	return t;
}

static uint32_t
id_of(cua_tree *t, const char *role, const char *title)
{
	cua_element *e = find_element(t, role, title);

	if (!e)
		fail_msg("no %s '%s'", role, title ? title : "");
	return cua_element_get_id(e);
}

/* The outcome's route. */
static void
assert_route(const char *outcome, const char *route)
{
	char want[128];

	snprintf(want, sizeof(want), "\"route\":\"%s\"", route);
	if (!outcome || !strstr(outcome, want))
		fail_msg("route %s expected, outcome %s", route,
			 outcome ? outcome : "(none)");
}

#define ACT(call)                                                            \
	do {                                                                 \
		cua_result r_ = (call);                                      \
		if (r_ != CUA_OK)                                            \
			fail_msg("%s: %s", #call, cua_error_message());      \
	} while (0)

static int
setup(void **state)
{
	const char *argv[] = { FIXTURE_GTK3, NULL };
	char line[256];

	if (app_start(&app, argv, 1) < 0 ||
	    app_wait_line(&app, "ready", 10000, line, sizeof(line)) < 0)
		return -1;
	session = test_session();
	return 0;
}

static int
teardown(void **state)
{
	session = cua_session_unref(session);
	app_stop(&app);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Each action's effect                                                 */

static void
test_click_button(void **state)
{
	cua_tree *t = observe();
	char *out = NULL;

	ACT(cua_session_click(session, APP, id_of(t, "button", "Beta"),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_route(out, "action:Click");
	assert_non_null(strstr(out, "\"schema\":\"libcua.action/1\""));
	expect_line("clicked Beta #2");
	cua_free(out);
	cua_tree_unref(t);
}

static int
box_on(cua_tree *t, void *data)
{
	return find_element(t, "checkbox", "Unchecked box") &&
	       strcmp(cua_element_get_value(find_element(t, "checkbox",
							 "Unchecked box")),
		      data) == 0;
}

static void
test_checkbox_toggles(void **state)
{
	cua_tree *t = observe(), *t2;

	ACT(cua_session_click(session, APP, id_of(t, "checkbox", "Unchecked box"),
			      CUA_BUTTON_LEFT, 1, NULL));
	expect_line("toggled Unchecked box on");
	t2 = observe_until_pred(session, APP, 5000, box_on, (void *)"on");
	assert_non_null(t2);
	cua_tree_unref(t2);
	ACT(cua_session_click(session, APP, id_of(t, "checkbox", "Unchecked box"),
			      CUA_BUTTON_LEFT, 1, NULL));
	expect_line("toggled Unchecked box off");
	cua_tree_unref(t);
}

static void
test_set_values(void **state)
{
	cua_tree *t = observe(), *t2;
	char *out = NULL;

	ACT(cua_session_set_value(session, APP, id_of(t, "slider", NULL), "77",
				  &out));
	assert_route(out, "value");
	assert_non_null(strstr(out, "\"before\":\"42.5\",\"after\":\"77\""));
	expect_line("scale 77");
	cua_free(out);
	ACT(cua_session_set_value(session, APP, id_of(t, "stepper", NULL), "33",
				  &out));
	assert_non_null(strstr(out, "\"before\":\"7\",\"after\":\"33\""));
	expect_line("spin 33");
	cua_free(out);
	/* out of range, not a number: nothing is set */
	assert_int_equal(cua_session_set_value(session, APP,
					       id_of(t, "stepper", NULL), "5000",
					       NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	{
		char msg[256];

		snprintf(msg, sizeof(msg), "'5000' is not a valid value for "
			 "element %u, a stepper that takes a number between 0 "
			 "and 1000.", id_of(t, "stepper", NULL));
		assert_string_equal(cua_error_message(), msg);
	}
	assert_int_equal(cua_session_set_value(session, APP,
					       id_of(t, "slider", NULL), "lots",
					       NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	/* a button is not settable */
	assert_int_equal(cua_session_set_value(session, APP,
					       id_of(t, "button", "Alpha"), "x",
					       NULL),
			 CUA_ERROR_UNSUPPORTED);
	assert_non_null(strstr(cua_error_message(),
			       "Cannot set a value for an element that is not "
			       "settable. Element "));
	ACT(cua_session_set_value(session, APP,
				  id_of(t, "text field", NULL), "set by value",
				  &out));
	assert_non_null(strstr(out, "\"after\":\"set by value\""));
	expect_line("entry set by value");
	cua_free(out);
	t2 = observe();
	assert_string_equal(cua_element_get_value(find_element(t2, "stepper", NULL)),
			    "33");
	cua_tree_unref(t2);
	cua_tree_unref(t);
}

static const char unicode_text[] = "h\xc3\xa9llo w\xc3\xb6rld \xc3\x9f \xe2\x82\xac "
				   "\xe4\xb8\xad\xe6\x96\x87 \xe2\x9c\x93";

static int
entry_is(cua_tree *t, void *data)
{
	cua_element *e = find_element(t, "text field", NULL);

	return e && strcmp(cua_element_get_value(e), data) == 0;
}

static void
type_into_entry(int keys)
{
	cua_tree *t = observe(), *t2;
	char *out = NULL, expect[256];

	assert_int_equal(cua_session_set_option(session, "type_text_keys",
						keys ? "1" : "0"), CUA_OK);
	ACT(cua_session_click(session, APP, id_of(t, "text field", NULL),
			      CUA_BUTTON_LEFT, 1, NULL));
	/* ctrl+a then BackSpace empties it */
	ACT(cua_session_press_key(session, APP, "ctrl+a", &out));
	assert_route(out, "keys");
	cua_free(out);
	ACT(cua_session_press_key(session, APP, "BackSpace", NULL));
	t2 = observe_until_pred(session, APP, 5000, entry_is, (void *)"");
	assert_non_null(t2);
	cua_tree_unref(t2);
	ACT(cua_session_type_text(session, APP, unicode_text, &out));
	assert_route(out, keys ? "keys" : "editable-text");
	cua_free(out);
	snprintf(expect, sizeof(expect), "entry %s", unicode_text);
	expect_line(expect);
	t2 = observe_until_pred(session, APP, 5000, entry_is, (void *)unicode_text);
	if (!t2)
		fail_msg("the entry does not read '%s'", unicode_text);
	cua_tree_unref(t2);
	assert_int_equal(cua_session_set_option(session, "type_text_keys", "0"),
			 CUA_OK);
	cua_tree_unref(t);
}

static void
test_type_text_editable(void **state)
{
	type_into_entry(0);
}

/* XTEST keys, with spare keycodes for the characters the keymap lacks */
static void
test_type_text_keys(void **state)
{
	type_into_entry(1);
}

static int
has_selection(cua_tree *t, void *data)
{
	char *text = render(t);
	int r = strstr(text, data) != NULL;

	cua_free(text);
	return r;
}

static void
test_select_text(void **state)
{
	cua_tree *t, *t2;
	char *out = NULL, msg[512];
	uint32_t entry;

	t = observe();
	entry = id_of(t, "text field", NULL);
	ACT(cua_session_set_value(session, APP, entry, "one two one two", NULL));
	expect_line("entry one two one two");
	/* ambiguous, then disambiguated by the prefix */
	assert_int_equal(cua_session_select_text(session, APP, entry, "two",
						 NULL, NULL, CUA_SELECTION_TEXT,
						 NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	snprintf(msg, sizeof(msg), "Text 'two' occurs 2 times in element %u. "
		 "Add prefix or suffix text to choose one.", entry);
	assert_string_equal(cua_error_message(), msg);
	ACT(cua_session_select_text(session, APP, entry, "two", "one ", " one",
				    CUA_SELECTION_TEXT, &out));
	assert_route(out, "text-selection");
	assert_non_null(strstr(out, "\"range\":[4,7]"));
	cua_free(out);
	t2 = observe_until_pred(session, APP, 5000, has_selection,
				(void *)"Selected text: ```\ntwo\n```");
	assert_non_null(t2);
	cua_tree_unref(t2);
	assert_int_equal(cua_session_select_text(session, APP, entry, "two",
						 NULL, NULL,
						 CUA_SELECTION_CURSOR_AFTER, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	ACT(cua_session_select_text(session, APP, entry, "one", NULL, " two one",
				    CUA_SELECTION_CURSOR_AFTER, &out));
	assert_non_null(strstr(out, "\"range\":[0,3]"));
	cua_free(out);
	assert_int_equal(cua_session_select_text(session, APP, entry, "three",
						 NULL, NULL, CUA_SELECTION_TEXT,
						 NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	snprintf(msg, sizeof(msg), "Could not find the requested text to "
		 "select in the element. Copy the text exactly as element %u "
		 "shows it in the latest get_app_state, including Markdown.",
		 entry);
	assert_string_equal(cua_error_message(), msg);
	/* a button has no text */
	assert_int_equal(cua_session_select_text(session, APP,
						 id_of(t, "button", "Alpha"),
						 "Alpha", NULL, NULL,
						 CUA_SELECTION_TEXT, NULL),
			 CUA_ERROR_UNSUPPORTED);
	assert_non_null(strstr(cua_error_message(),
			       "Cannot select text for an element that does not "
			       "support a settable selected text range."));
	cua_tree_unref(t);
}

/* "(showing A-B of N items)" of the first table */
static int
table_first_row(cua_tree *t, int *last)
{
	char *line = NULL, *text = render(t), *p;
	int a = -1, b = -1;

	p = strstr(text, " table (showing ");
	if (p)
		sscanf(p, " table (showing %d-%d", &a, &b);
	if (last)
		*last = b;
	cua_free(line);
	cua_free(text);
	return a;
}

static void
test_scroll(void **state)
{
	cua_tree *t = observe(), *t2;
	char *out = NULL;
	int a0, b0, a1, visible;
	uint32_t table = id_of(t, "table", NULL);

	a0 = table_first_row(t, &b0);
	assert_int_equal(a0, 0);
	visible = b0 - a0;
	ACT(cua_session_scroll(session, APP, table, "down", 1, &out));
	assert_route(out, "value");
	assert_non_null(strstr(out, "\"scroll_value\":{\"before\":0"));
	cua_free(out);
	t2 = observe();
	a1 = table_first_row(t2, NULL);
	/* one page = the table's height: the first visible row moves by
	 * about the number of visible rows */
	if (a1 < visible - 2 || a1 > visible + 2)
		fail_msg("scrolled from row %d to %d, %d rows visible", a0, a1,
			 visible);
	cua_tree_unref(t2);
	/* and back up by two pages: at the top again, at its limit */
	ACT(cua_session_scroll(session, APP, table, "u", 2, &out));
	assert_non_null(strstr(out, "\"at_limit\":true"));
	cua_free(out);
	t2 = observe();
	assert_int_equal(table_first_row(t2, NULL), 0);
	cua_tree_unref(t2);
	ACT(cua_session_scroll(session, APP, table, "up", 1, &out));
	assert_non_null(strstr(out, "\"at_limit\":true"));
	assert_non_null(strstr(out, "\"pages_applied\":0"));
	cua_free(out);
	cua_tree_unref(t);
}

static void
test_secondary_expand(void **state)
{
	cua_tree *t = observe(), *t2;
	char *out = NULL;
	uint32_t folder = id_of(t, "cell", "Folder 1");

	assert_int_equal(cua_session_perform_action(session, APP, folder,
						    "Fly", NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	{
		char msg[256];

		snprintf(msg, sizeof(msg), "Fly is not a valid secondary action "
			 "for %u. Its secondary actions are: Expand, Edit.",
			 folder);
		assert_string_equal(cua_error_message(), msg);
	}
	ACT(cua_session_perform_action(session, APP, folder, " expand ", &out));
	assert_route(out, "action:Expand or contract");
	cua_free(out);
	expect_line("expanded Folder 1");
	t2 = observe();
	assert_non_null(find_element(t2, "cell", "File 1.1"));
	ACT(cua_session_perform_action(session, APP,
				       id_of(t2, "cell", "Folder 1"), "Collapse",
				       NULL));
	expect_line("collapsed Folder 1");
	cua_tree_unref(t2);
	cua_tree_unref(t);
}

/* A row is clicked by selecting it (§3 route 1). */
static void
test_select_row(void **state)
{
	cua_tree *t = observe(), *t2;
	char *out = NULL;
	cua_element *cell = find_element(t, "cell", "Item 003");
	uint32_t row = cua_element_get_id(cua_element_get_parent(cell));

	ACT(cua_session_click(session, APP, row, CUA_BUTTON_LEFT, 1, &out));
	assert_route(out, "selection");
	cua_free(out);
	t2 = observe();
	assert_true(cua_element_get_traits(find_element(t2, "cell", "Item 003")) &
		    CUA_TRAIT_SELECTED);
	cua_tree_unref(t2);
	cua_tree_unref(t);
}

/* The canvas has no accessible actions: synthetic pointer input. */
static void
test_canvas_pointer(void **state)
{
	cua_tree *t = observe();
	uint32_t canvas = id_of(t, "canvas", "Canvas");
	char log[4096] = "", *out = NULL;
	int32_t x, y, w, h;
	int b, lx, ly, lx2, ly2;
	double px, py;

	drain(NULL, 0);
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 1, &out));
	assert_route(out, "synthetic");
	cua_free(out);
	wait_log("canvas release 1 ", log, sizeof(log));
	assert_non_null(strstr(log, "canvas press 1 80 60\ncanvas release 1 80 60\n"));
	/* right and middle buttons, and a double click */
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_RIGHT, 1, NULL));
	wait_log("canvas release 3 ", log, sizeof(log));
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_MIDDLE, 1, NULL));
	wait_log("canvas release 2 ", log, sizeof(log));
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 2, NULL));
	wait_log("canvas release 1 ", log, sizeof(log));
	if (read_until("canvas multi-press 1 ", 1000, log, sizeof(log)) < 0) {
		/* the window manager holds each press until it replayed it
		 * (its focus-click grab); on a loaded machine that can
		 * exceed GTK's 400 ms double-click time once */
		ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 2,
				      NULL));
		wait_log("canvas multi-press 1 ", log, sizeof(log));
	}
	wait_log("canvas release 1 ", log, sizeof(log));
	assert_non_null(strstr(log, "canvas press 3 80 60\n"));
	assert_non_null(strstr(log, "canvas press 2 80 60\n"));

	/* screenshot pixels: two clicks 7 and 5 pixels apart land 7 and 5
	 * points apart on the canvas (pixels per point 1 here) */
	assert_int_equal(cua_element_get_frame(find_element(t, "canvas", "Canvas"),
					       &x, &y, &w, &h), 1);
	px = x + w / 2.0 - 5;
	py = y + h / 2.0 - 30;
	log[0] = '\0';
	ACT(cua_session_click_at(session, APP, px, py, CUA_BUTTON_LEFT, 1, &out));
	assert_route(out, "synthetic");
	cua_free(out);
	wait_log("canvas release 1 ", log, sizeof(log));
	assert_int_equal(sscanf(strstr(log, "canvas press "), "canvas press %d %d %d",
				&b, &lx, &ly), 3);
	log[0] = '\0';
	ACT(cua_session_click_at(session, APP, px + 7, py + 5, CUA_BUTTON_LEFT, 1,
				 NULL));
	wait_log("canvas release 1 ", log, sizeof(log));
	assert_int_equal(sscanf(strstr(log, "canvas press "), "canvas press %d %d %d",
				&b, &lx2, &ly2), 3);
	assert_int_equal(lx2 - lx, 7);
	assert_int_equal(ly2 - ly, 5);

	/* a drag: press at the start, motion to the midpoint and the end,
	 * release at the end (actions.md §6) */
	log[0] = '\0';
	ACT(cua_session_drag(session, APP, px, py, px + 40, py + 20, &out));
	cua_free(out);
	wait_log("canvas release 1 ", log, sizeof(log));
	{
		char want[64];

		snprintf(want, sizeof(want), "canvas press 1 %d %d\n", lx, ly);
		if (!strstr(log, want))
			fail_msg("'%s' not in:\n%s", want, log);
		snprintf(want, sizeof(want), "canvas motion %d %d\n", lx + 20,
			 ly + 10);
		if (!strstr(log, want))
			fail_msg("'%s' not in:\n%s", want, log);
		snprintf(want, sizeof(want), "canvas motion %d %d\n", lx + 40,
			 ly + 20);
		assert_non_null(strstr(log, want));
		snprintf(want, sizeof(want), "canvas release 1 %d %d\n", lx + 40,
			 ly + 20);
		assert_non_null(strstr(log, want));
	}
	/* a scroll at a pixel turns the wheel over the canvas (D18): GDK
	 * reports it as a discrete (1 = down, 3 = right) or a smooth (4)
	 * scroll, on the canvas and nowhere else */
	log[0] = '\0';
	ACT(cua_session_scroll_at(session, APP, px, py, "down", 0.2, &out));
	assert_route(out, "wheel");
	assert_non_null(strstr(out, "\"wheel_clicks\":"));
	cua_free(out);
	wait_log("canvas scroll ", log, sizeof(log));
	assert_int_equal(sscanf(strstr(log, "canvas scroll "), "canvas scroll %d",
				&b), 1);
	assert_true(b == 1 || b == 4);
	assert_int_equal(cua_session_scroll_at(session, APP, px, py, "sideways",
					       1, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_session_scroll_at(session, APP, px, py, "down", 0,
					       NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(), "pages must be > 0");
	/* out of the screenshot */
	assert_int_equal(cua_session_click_at(session, APP, -1, 10,
					      CUA_BUTTON_LEFT, 1, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(cua_error_message(), "Point (-1, 10) is outside "
						    "the screenshot of 'fixture-gtk3' ("));
	cua_tree_unref(t);
}

/*
 * Element frames are window points relative to the accessibility window's
 * origin; screenshot pixels start at the window's frame. The offset
 * between them is measured on the canvas, which reports where it was
 * pressed.
 */
static void
frame_offset(cua_tree *t, double *ox, double *oy)
{
	int32_t x, y, w, h;
	int b, lx, ly;
	char log[2048] = "";

	assert_int_equal(cua_element_get_frame(find_element(t, "canvas", "Canvas"),
					       &x, &y, &w, &h), 1);
	drain(NULL, 0);
	ACT(cua_session_click_at(session, APP, x + w / 2.0, y + h / 2.0 - 30,
				 CUA_BUTTON_LEFT, 1, NULL));
	wait_log("canvas release 1 ", log, sizeof(log));
	assert_int_equal(sscanf(strstr(log, "canvas press "),
				"canvas press %d %d %d", &b, &lx, &ly), 3);
	*ox = x + w / 2.0 - lx - x;
	*oy = y + h / 2.0 - 30 - ly - y;
}

/* A drag moves the slider: press on its trough (GTK moves the knob
 * there), drag to the left end. */
static void
test_drag_slider(void **state)
{
	cua_tree *t = observe();
	cua_element *s = find_element(t, "slider", NULL);
	char log[4096] = "";
	int32_t x, y, w, h;
	double ox, oy, v, sx, sy;

	ACT(cua_session_set_value(session, APP, cua_element_get_id(s), "50", NULL));
	expect_line("scale 50");
	frame_offset(t, &ox, &oy);
	assert_int_equal(cua_element_get_frame(s, &x, &y, &w, &h), 1);
	sx = x + w / 2.0 - ox;
	sy = y + h - 10 - oy;
	log[0] = '\0';
	ACT(cua_session_drag(session, APP, sx, sy, x + 2 - ox, sy, NULL));
	wait_log("scale ", log, sizeof(log));
	read_until(NULL, 300, log, sizeof(log));
	{
		char *p = strstr(log, "scale ");

		if (!p)
			fail_msg("the slider did not move:\n%s", log);
		while (strstr(p + 1, "scale "))
			p = strstr(p + 1, "scale ");
		v = atof(p + 6);
	}
	if (!(v < 25))
		fail_msg("the slider did not move left: %g\n%s", v, log);
	cua_tree_unref(t);
}

/* ------------------------------------------------------------------ */
/* Staleness: randomised mutations between observation and action       */

#define POOL 8
static const char *const labels[POOL] = {
	"Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta",
};

struct model {
	char label[32][16];
	int serial[32];
	int n;
	int next_serial;
};

static int
model_count(const struct model *m, const char *label)
{
	int n = 0;

	for (int i = 0; i < m->n; i++)
		n += strcmp(m->label[i], label) == 0;
	return n;
}

static int
model_find_last(const struct model *m, const char *label)
{
	for (int i = m->n - 1; i >= 0; i--)
		if (strcmp(m->label[i], label) == 0)
			return i;
	return -1;
}

static void
model_remove(struct model *m, int i)
{
	memmove(&m->label[i], &m->label[i + 1], (size_t)(m->n - i - 1) * 16);
	memmove(&m->serial[i], &m->serial[i + 1],
		(size_t)(m->n - i - 1) * sizeof(int));
	m->n--;
}

static void
model_insert(struct model *m, int i, const char *label, int serial)
{
	memmove(&m->label[i + 1], &m->label[i], (size_t)(m->n - i) * 16);
	memmove(&m->serial[i + 1], &m->serial[i], (size_t)(m->n - i) * sizeof(int));
	snprintf(m->label[i], 16, "%s", label);
	m->serial[i] = serial;
	m->n++;
}

/* One random mutation, applied to the fixture and to the model. `target`
 * is the observed target's index (mutations favour it and its siblings). */
static void
mutate(struct model *m, int target, char *log, size_t size)
{
	char cmd[96];
	int op = rand() % 7, i = rand() % 3 == 0 && target < m->n ? target :
								       rand() % m->n;
	const char *l = labels[rand() % POOL];

	if (m->n <= 2 && (op == 1))
		op = 2;
	if (m->n >= 10 && (op == 2 || op == 3))
		op = 1;
	switch (op) {
	case 0: /* rename (by label: the last button with it) */
		snprintf(cmd, sizeof(cmd), "rename %s %s", m->label[i], l);
		i = model_find_last(m, m->label[i]);
		snprintf(m->label[i], 16, "%s", l);
		break;
	case 1: /* remove */
		snprintf(cmd, sizeof(cmd), "remove %s", m->label[i]);
		model_remove(m, model_find_last(m, m->label[i]));
		break;
	case 2: /* insert at the start */
		snprintf(cmd, sizeof(cmd), "insert %s", l);
		model_insert(m, 0, l, m->next_serial++);
		break;
	case 3: /* append */
		snprintf(cmd, sizeof(cmd), "append %s", l);
		model_insert(m, m->n, l, m->next_serial++);
		break;
	case 4: { /* move */
		int to = rand() % m->n, from = model_find_last(m, m->label[i]);
		char label[16];
		int serial = m->serial[from];

		snprintf(cmd, sizeof(cmd), "move %s %d", m->label[i], to);
		snprintf(label, sizeof(label), "%s", m->label[from]);
		model_remove(m, from);
		model_insert(m, to > m->n ? m->n : to, label, serial);
		break;
	}
	case 6: /* the window's title (the window is found by identity) */
		snprintf(cmd, sizeof(cmd), "title *libcua fixture %d", rand() % 100);
		break;
	default: /* reverse */
		snprintf(cmd, sizeof(cmd), "reverse");
		for (int a = 0, b = m->n - 1; a < b; a++, b--) {
			char tl[16];
			int ts = m->serial[a];

			memcpy(tl, m->label[a], 16);
			memcpy(m->label[a], m->label[b], 16);
			memcpy(m->label[b], tl, 16);
			m->serial[a] = m->serial[b];
			m->serial[b] = ts;
		}
		break;
	}
	command(cmd, log, size);
}

static int
in_pool(const char *title)
{
	for (int i = 0; i < POOL; i++)
		if (strcmp(title, labels[i]) == 0)
			return 1;
	return 0;
}

struct tally {
	int runs, same, equivalent, wrong, invalid, finish, start, other;
	int refetched; /* successes found by the equivalence refetch */
};

static void
staleness_run(int iterations, int strict, unsigned seed, struct tally *tl)
{
	struct model m = { .n = 0, .next_serial = 1 };
	char log[8192];

	srand(seed);
	assert_int_equal(cua_session_set_option(session, "locator_strict_siblings",
						strict ? "1" : "0"),
			 CUA_OK);
	/* a known row: remove whatever is there, add three */
	{
		cua_tree *t = observe();

		for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
			cua_element *e = cua_tree_get_element(t, i);

			if (strcmp(cua_element_get_role(e), "button") == 0 &&
			    in_pool(cua_element_get_title(e))) {
				char cmd[64];

				snprintf(cmd, sizeof(cmd), "remove %s",
					 cua_element_get_title(e));
				command(cmd, NULL, 0);
			}
		}
		cua_tree_unref(t);
	}
	drain(log, sizeof(log));
	/* serials continue from the fixture's counter: read it back */
	for (int k = 0; k < 3; k++) {
		char cmd[64], line[128];
		int serial = 0;

		snprintf(cmd, sizeof(cmd), "append %s", labels[k]);
		command(cmd, NULL, 0);
		m.n++;
		snprintf(m.label[k], 16, "%s", labels[k]);
		/* learn the serial by clicking it once through the API */
		{
			cua_tree *t = observe();
			cua_element *e = find_element(t, "button", labels[k]);

			ACT(cua_session_click(session, APP, cua_element_get_id(e),
					      CUA_BUTTON_LEFT, 1, NULL));
			snprintf(cmd, sizeof(cmd), "clicked %s #", labels[k]);
			if (app_wait_line(&app, cmd, 5000, line, sizeof(line)) < 0)
				fail_msg("no click of %s", labels[k]);
			serial = atoi(strchr(line, '#') + 1);
			cua_tree_unref(t);
		}
		m.serial[k] = serial;
		m.next_serial = serial + 1;
	}

	for (int it = 0; it < iterations; it++) {
		cua_tree *t = observe();
		cua_element *row[32];
		int n = 0, target, target_serial, nmut;
		char target_label[16], *p, *out = NULL;
		uint32_t id;
		cua_result r;
		int refetched;

		for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
			cua_element *e = cua_tree_get_element(t, i);

			if (strcmp(cua_element_get_role(e), "button") == 0 &&
			    in_pool(cua_element_get_title(e)) && n < 32)
				row[n++] = e;
		}
		if (n != m.n)
			fail_msg("iteration %d: %d buttons rendered, model has %d",
				 it, n, m.n);
		for (int i = 0; i < n; i++)
			if (strcmp(cua_element_get_title(row[i]), m.label[i]) != 0)
				fail_msg("iteration %d: button %d is %s, model %s",
					 it, i, cua_element_get_title(row[i]),
					 m.label[i]);
		target = rand() % n;
		id = cua_element_get_id(row[target]);
		target_serial = m.serial[target];
		snprintf(target_label, sizeof(target_label), "%s", m.label[target]);
		cua_tree_unref(t);

		log[0] = '\0';
		nmut = 1 + rand() % 3;
		for (int k = 0; k < nmut; k++)
			mutate(&m, target < m.n ? target : 0, log, sizeof(log));
		if (m.n == 0) {
			command("append Alpha", log, sizeof(log));
			model_insert(&m, 0, "Alpha", m.next_serial++);
		}
		if (strstr(log, "clicked "))
			fail_msg("iteration %d: a late click:\n%s", it, log);

		r = cua_session_click(session, APP, id, CUA_BUTTON_LEFT, 1, &out);
		drain(log, sizeof(log));
		tl->runs++;
		refetched = r == CUA_OK && strstr(out, "\"refetched\":true");
		tl->refetched += refetched;
		cua_free(out);
		out = NULL;
		p = strstr(log, "clicked ");
		if (r == CUA_OK) {
			char label[16];
			int serial, last = model_find_last(&m, target_label);

			if (!p)
				fail_msg("iteration %d: success but no click", it);
			if (sscanf(p, "clicked %15s #%d", label, &serial) != 2)
				fail_msg("iteration %d: odd output %s", it, p);
			if (strstr(p + 1, "clicked "))
				fail_msg("iteration %d: two clicks:\n%s", it, log);
			/* the observed object, still with the observed label;
			 * or, through the refetch only, the one button that
			 * now has that label (identity.md §4 step 5: the
			 * equivalent element, used only when unique) */
			if (serial == target_serial &&
			    strcmp(label, target_label) == 0)
				tl->same++;
			else if (serial != target_serial && refetched &&
				 strcmp(label, target_label) == 0 &&
				 model_count(&m, target_label) == 1 &&
				 m.serial[last] == serial)
				tl->equivalent++;
			else {
				tl->wrong++;
				fprintf(stderr, "WRONG ELEMENT: iteration %d wanted "
						"%s #%d, clicked %s #%d (%s; %d "
						"buttons %s now)\n",
					it, target_label, target_serial, label,
					serial, refetched ? "refetched" : "located",
					model_count(&m, target_label),
					target_label);
			}
		} else {
			const char *msg = cua_error_message();

			/* nothing may arrive late either */
			read_until(NULL, 100, log, sizeof(log));
			p = strstr(log, "clicked ");
			if (p)
				fail_msg("iteration %d: error '%s' but a click "
					 "happened:\n%s", it, msg, log);
			if (strcmp(msg, INVALID_MSG) == 0)
				tl->invalid++;
			else if (strcmp(msg, FINISH_MSG) == 0)
				tl->finish++;
			else if (strcmp(msg, START_MSG) == 0)
				tl->start++;
			else {
				tl->other++;
				fail_msg("iteration %d: unexpected error: %s", it,
					 msg);
			}
		}
	}
	assert_int_equal(cua_session_set_option(session, "locator_strict_siblings",
						"0"),
			 CUA_OK);
}

static void
test_staleness(void **state)
{
	struct tally d = { 0 }, s = { 0 };
	const char *env = getenv("CUA_STALENESS_ITERATIONS");
	int n = env ? atoi(env) : 220;

	staleness_run(n, 0, 20261130u, &d);
	staleness_run(n / 2, 1, 4242u, &s);
	fprintf(stderr,
		"staleness (D5 siblings): %d runs: %d same object (%d of all "
		"successes through the refetch), %d equivalent object (same "
		"label), %d WRONG, %d invalid, %d ambiguous, %d unlocatable\n",
		d.runs, d.same, d.refetched, d.equivalent, d.wrong, d.invalid,
		d.finish, d.start);
	fprintf(stderr,
		"staleness (strict siblings): %d runs: %d same object (%d "
		"refetched), %d equivalent object, %d WRONG, %d invalid, %d "
		"ambiguous, %d unlocatable\n",
		s.runs, s.same, s.refetched, s.equivalent, s.wrong, s.invalid,
		s.finish, s.start);
	assert_int_equal(d.wrong, 0);
	assert_int_equal(s.wrong, 0);
	assert_true(d.runs >= 200);
	/* not merely refusing everything */
	assert_true(d.same > d.runs / 4);
}

/* ------------------------------------------------------------------ */
/* Bad input: exact errors, nothing sent                                */

static void
test_bad_input(void **state)
{
	cua_tree *t = observe();
	char log[4096] = "";
	uint32_t alpha = id_of(t, "button", "Alpha");
	cua_result r;

	drain(NULL, 0);
	r = cua_session_click(session, APP, 424242, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_NOT_FOUND);
	assert_string_equal(cua_error_message(),
			    "424242 is an invalid element ID. Use an element index "
			    "from the latest get_app_state of 'fixture-gtk3'.");
	r = cua_session_press_key(session, APP, "ctrl+sparkle", NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "keyNotFound(\"sparkle\") (use xdotool key names such "
			    "as Return, Tab, BackSpace, Delete, Escape, Up, "
			    "Page_Down, F5, KP_0, or a single character, joined "
			    "with + as in ctrl+shift+t)");
	r = cua_session_press_key(session, APP, "ctrl+alt+BackSpace", NULL);
	assert_int_equal(r, CUA_ERROR_PERMISSION);
	r = cua_session_scroll(session, APP, alpha, "down", -2, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(), "pages must be > 0");
	r = cua_session_click(session, APP, alpha, CUA_BUTTON_LEFT, 0, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "Invalid arguments for click: 'click_count' must be "
			    "between 1 and 100.");
	r = cua_session_type_text(session, APP, NULL, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(), "Missing required argument: text");
	r = cua_session_set_value(session, APP, alpha, NULL, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(), "Missing required argument: value");
	r = cua_session_perform_action(session, APP, alpha, "  ", NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(), "Missing required argument: action");
	r = cua_session_click(session, NULL, alpha, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(), "Missing required argument: app");
	r = cua_session_click(session, "no-such-app-here", alpha, CUA_BUTTON_LEFT,
			      1, NULL);
	assert_int_equal(r, CUA_ERROR_NOT_FOUND);
	assert_non_null(strstr(cua_error_message(),
			       "appNotFound(\"no-such-app-here\")\nNo running or "
			       "installed app matches 'no-such-app-here'."));
	/* nothing reached the fixture */
	drain(log, sizeof(log));
	if (strstr(log, "clicked") || strstr(log, "entry") || strstr(log, "canvas"))
		fail_msg("input was sent:\n%s", log);
	cua_tree_unref(t);
}

/* The CLI: missing arguments, and an action by number across processes. */
static int
run_cli(const char *const argv[], char *out, size_t size)
{
	int fds[2], status;
	pid_t pid;
	ssize_t n, got = 0;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + got, size - (size_t)got - 1)) > 0)
		got += n;
	out[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void
test_cli(void **state)
{
	char out[8192], idx[16], *p;
	const char *missing_idx[] = { CUA_EXE, "click", APP, NULL };
	const char *missing_text[] = { CUA_EXE, "type", APP, NULL };
	const char *missing_app[] = { CUA_EXE, "key", NULL };
	const char *bad_pages[] = { CUA_EXE, "scroll", APP, "3", "down", "-1", NULL };
	const char *bad_index[] = { CUA_EXE, "click", APP, "x12", NULL };
	const char *state_cmd[] = { CUA_EXE, "state", APP, NULL };
	const char *click[] = { CUA_EXE, "click", APP, idx, NULL };

	assert_int_equal(run_cli(missing_idx, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "Invalid arguments for click: pass "
				    "element_index, or x and y from the screenshot."));
	assert_int_equal(run_cli(missing_text, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "Missing required argument: text"));
	assert_int_equal(run_cli(missing_app, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "Missing required argument: app"));
	assert_int_equal(run_cli(bad_pages, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "pages must be > 0"));
	assert_int_equal(run_cli(bad_index, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "'element_index' must be an element number"));
	/* observe in one process, click by number in the next */
	assert_int_equal(run_cli(state_cmd, out, sizeof(out)), 0);
	p = strstr(out, " button Gamma\n");
	assert_non_null(p);
	while (p > out && p[-1] >= '0' && p[-1] <= '9')
		p--;
	snprintf(idx, sizeof(idx), "%d", atoi(p));
	drain(NULL, 0);
	assert_int_equal(run_cli(click, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "Action completed. Call `get_app_state` to "
				    "fetch the updated UI state.\nroute: "
				    "action:Click\n"));
	expect_line("clicked Gamma");
	/* an error exits non-zero with the sentence */
	snprintf(idx, sizeof(idx), "%d", 987654);
	assert_int_equal(run_cli(click, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "987654 is an invalid element ID."));
	/* in the command line's words, not the MCP server's */
	assert_non_null(strstr(out, "from the latest `cua state` of"));
	assert_null(strstr(out, "get_app_state of"));
}

/* ------------------------------------------------------------------ */
/* Another app: foreign ids, covered points, keyboard focus             */

static void
test_other_app(void **state)
{
	cua_tree *t = observe(), *wf = NULL;
	char log[4096] = "";
	uint32_t foreign = 0, canvas = id_of(t, "canvas", "Canvas");
	cua_result r;

	r = cua_session_observe(session, "gtk3-widget-factory", 0, &wf);
	if (r != CUA_OK)
		fail_msg("gtk3-widget-factory: %s", cua_error_message());
	cua_tree_unref(wf);
	wf = observe_until_pred(session, "gtk3-widget-factory", 15000, NULL, NULL);
	assert_non_null(wf);
	/* an id the fixture never issued (the factory's ids go higher) */
	for (size_t i = 0; i < cua_tree_get_element_count(wf); i++)
		if (cua_element_get_id(cua_tree_get_element(wf, i)) > foreign)
			foreign = cua_element_get_id(cua_tree_get_element(wf, i));
	foreign += 100000;
	r = cua_session_click(session, APP, foreign, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_NOT_FOUND);
	assert_non_null(strstr(cua_error_message(), "is an invalid element ID"));

	/* the factory's window covers the fixture's canvas: the first
	 * synthetic click raises the fixture once (§2.3) */
	ACT(cua_session_perform_action(session, "gtk3-widget-factory", 0, "Raise",
				       NULL));
	drain(NULL, 0);
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 1, NULL));
	wait_log("canvas release 1 ", log, sizeof(log));
	assert_non_null(strstr(log, "canvas press 1 80 60\n"));
	/* buried again: left alone, refused, nothing sent */
	ACT(cua_session_perform_action(session, "gtk3-widget-factory", 0, "Raise",
				       NULL));
	r = cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_INPUT_BLOCKED);
	assert_non_null(strstr(cua_error_message(), "windowNotFoundAtPosition(("));
	assert_non_null(strstr(cua_error_message(), "is covered by "));
	log[0] = '\0';
	read_until(NULL, 500, log, sizeof(log));
	assert_null(strstr(log, "canvas"));
	/* keys: the fixture is activated first, then typed into */
	ACT(cua_session_set_value(session, APP, id_of(t, "text field", NULL), "",
				  NULL));
	command("focus-entry", NULL, 0);
	ACT(cua_session_perform_action(session, "gtk3-widget-factory", 0, "Raise",
				       NULL));
	ACT(cua_session_set_option(session, "type_text_keys", "1"));
	ACT(cua_session_type_text(session, APP, "focus", NULL));
	ACT(cua_session_set_option(session, "type_text_keys", "0"));
	expect_line("entry focus");
	{
		pid_t pid = (pid_t)cua_tree_get_pid(wf);

		kill(pid, SIGTERM);
		for (int i = 0; i < 50 && kill(pid, 0) == 0; i++)
			usleep(100 * 1000);
	}
	/* the process is gone: its session says so */
	r = cua_session_click(session, "gtk3-widget-factory", 0, CUA_BUTTON_LEFT, 1,
			      NULL);
	assert_int_equal(r, CUA_ERROR_PROCESS_GONE);
	assert_string_equal(cua_error_message(),
			    "Running application not found: gtk3-widget-factory. "
			    "It is no longer running; call `get_app_state` to "
			    "start it again, or choose another app from "
			    "`list_apps`.");
	cua_tree_unref(wf);
	cua_tree_unref(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_click_button),
		cmocka_unit_test(test_checkbox_toggles),
		cmocka_unit_test(test_set_values),
		cmocka_unit_test(test_type_text_editable),
		cmocka_unit_test(test_type_text_keys),
		cmocka_unit_test(test_select_text),
		cmocka_unit_test(test_scroll),
		cmocka_unit_test(test_secondary_expand),
		cmocka_unit_test(test_select_row),
		cmocka_unit_test(test_canvas_pointer),
		cmocka_unit_test(test_drag_slider),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_other_app),
		cmocka_unit_test(test_staleness),
	};

	/* CUA_TEST_FILTER=test_staleness runs one test */
	if (getenv("CUA_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUA_TEST_FILTER"));
	return cmocka_run_group_tests_name("actions", tests, setup, teardown);
}
