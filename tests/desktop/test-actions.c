/*
 * Acting on our GTK3 fixture (docs/actions.md, docs/identity.md §4–§5): each
 * action's effect read back from the fixture's own output (one line per effect)
 * or from a fresh observation, each inside the wrong-element guard
 * (guard.h); bad input (exact errors, nothing sent); covered windows and
 * keyboard focus. The staleness run is test-staleness.c.
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

#include "common.h"
#include "covers.h"
#include "guard.h"

#define APP "fixture-gtk3"

static struct app_proc app;

/* ------------------------------------------------------------------ */
/* The fixture, started once for all the tests                          */

static int
setup(void **state)
{
	/* the teardown stops whatever a failed start left */
	*state = &app;
	if (fixture_start(&app, FIXTURE_GTK3, NULL, 10000, NULL, 0) < 0)
		return -1;
	return session_setup(state);
}

/* ------------------------------------------------------------------ */
/* Each action's effect                                                 */

static void
test_click_button(void **state)
{
	cua_tree *t = need_observation(APP, 10000);
	struct guard *g = guard_begin(app.pid);
	char *out = NULL;

	ACT(cua_session_click(session, APP, id_of(t, "button", "Beta"),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "action:Click");
	assert_non_null(strstr(out, "\"schema\":\"libcua.action/1\""));
	fixture_expect_line(&app, "clicked Beta #2");
	guard_allow(g, "push button", "Beta", GUARD_NODE);
	guard_end(g);
	cua_free(out);
	cua_tree_unref(t);
	COVERS("GTK 3", "click");
}

/* A disabled button takes no click, and the call says so; one the app
 * enables a moment later is clicked once it is (docs/actions.md §3). */
static void
test_click_disabled(void **state)
{
	cua_tree *t = need_observation(APP, 10000);
	uint32_t id = id_of(t, "button", "Disabled button");
	struct guard *g = guard_begin(app.pid);
	char log[4096] = "", want[512], *out = NULL;
	cua_result r;

	fixture_drain(&app, "the fixture", NULL, 0);
	r = cua_session_click(session, APP, id, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR);
	snprintf(want, sizeof(want),
		 "Accessibility error: element %u (button) is disabled and "
		 "stayed disabled for a second, so nothing was clicked. Call "
		 "get_app_state to see whether it is enabled now; it may need "
		 "something done first, such as a field filled in or an item "
		 "selected.",
		 id);
	assert_string_equal(cua_error_message(), want);
	fixture_drain(&app, "the fixture", log, sizeof(log));
	if (strstr(log, "clicked Disabled button"))
		fail_msg("the disabled button was clicked:\n%s", log);
	guard_end(g);

	g = guard_begin(app.pid);
	fixture_command(&app, "the fixture", "enable-later 300", NULL, 0);
	ACT(cua_session_click(session, APP, id, CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "action:Click");
	fixture_expect_line(&app, "clicked Disabled button");
	fixture_command(&app, "the fixture", "disable", NULL, 0);
	guard_allow(g, "push button", "Disabled button", GUARD_NODE);
	guard_end(g);
	cua_free(out);
	cua_tree_unref(t);
	COVERS("GTK 3", "click");
}

static int
box_on(cua_tree *t, void *data)
{
	return find_element(t, "checkbox", "Unchecked box") &&
	       strcmp(cua_element_get_value(
			      find_element(t, "checkbox", "Unchecked box")),
		      data) == 0;
}

static void
test_checkbox_toggles(void **state)
{
	cua_tree *t = need_observation(APP, 10000), *t2;
	struct guard *g = guard_begin(app.pid);

	ACT(cua_session_click(session, APP,
			      id_of(t, "checkbox", "Unchecked box"),
			      CUA_BUTTON_LEFT, 1, NULL));
	fixture_expect_line(&app, "toggled Unchecked box on");
	t2 = observe_until_pred(session, APP, 5000, box_on, (void *)"on");
	assert_non_null(t2);
	cua_tree_unref(t2);
	ACT(cua_session_click(session, APP,
			      id_of(t, "checkbox", "Unchecked box"),
			      CUA_BUTTON_LEFT, 1, NULL));
	fixture_expect_line(&app, "toggled Unchecked box off");
	guard_allow(g, "check box", "Unchecked box", GUARD_NODE);
	guard_end(g);
	/* the guard sees a change it was not told about */
	{
		char *report = NULL;

		g = guard_begin(app.pid);
		fixture_command(&app, "the fixture", "toggle Check me", NULL,
				0);
		assert_int_equal(guard_end_count(g, &report), 1);
		if (!strstr(report, "[check box] 'Check me' states on: off: 4"))
			fail_msg("the guard reported:\n%s", report);
		free(report);
		fixture_command(&app, "the fixture", "toggle Check me", NULL,
				0);
	}
	cua_tree_unref(t);
	COVERS("GTK 3", "click");
}

static void
test_set_values(void **state)
{
	cua_tree *t = need_observation(APP, 10000), *t2;
	struct guard *g = guard_begin(app.pid);
	char *out = NULL;

	ACT(cua_session_set_value(session, APP, id_of(t, "slider", NULL), "77",
				  &out));
	assert_route(NULL, out, "value");
	assert_non_null(strstr(out, "\"before\":\"42.5\",\"after\":\"77\""));
	fixture_expect_line(&app, "scale 77");
	cua_free(out);
	ACT(cua_session_set_value(session, APP, id_of(t, "stepper", NULL), "33",
				  &out));
	assert_non_null(strstr(out, "\"before\":\"7\",\"after\":\"33\""));
	fixture_expect_line(&app, "spin 33");
	cua_free(out);
	/* out of range, not a number: nothing is set */
	assert_int_equal(cua_session_set_value(session, APP,
					       id_of(t, "stepper", NULL),
					       "5000", NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	{
		char msg[256];

		snprintf(msg, sizeof(msg),
			 "'5000' is not a valid value for "
			 "element %u, a stepper that takes a number between 0 "
			 "and 1000.",
			 id_of(t, "stepper", NULL));
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
	ACT(cua_session_set_value(session, APP, id_of(t, "text field", NULL),
				  "set by value", &out));
	assert_non_null(strstr(out, "\"after\":\"set by value\""));
	fixture_expect_line(&app, "entry set by value");
	cua_free(out);
	/* the three set, and nothing else (the refused ones included) */
	guard_allow(g, "slider", NULL, GUARD_NODE);
	guard_allow(g, "spin button", NULL, GUARD_NODE);
	guard_allow(g, "text", "", GUARD_NODE);
	guard_end(g);
	t2 = need_observation(APP, 10000);
	assert_string_equal(
		cua_element_get_value(find_element(t2, "stepper", NULL)), "33");
	cua_tree_unref(t2);
	cua_tree_unref(t);
	COVERS("GTK 3", "set_value");
}

static const char unicode_text[] =
	"h\xc3\xa9llo w\xc3\xb6rld \xc3\x9f \xe2\x82\xac "
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
	cua_tree *t = need_observation(APP, 10000), *t2;
	struct guard *g = guard_begin(app.pid);
	char *out = NULL, expect[256];

	assert_int_equal(cua_session_set_option(session, "type_text_keys",
						keys ? "1" : "0"),
			 CUA_OK);
	ACT(cua_session_click(session, APP, id_of(t, "text field", NULL),
			      CUA_BUTTON_LEFT, 1, NULL));
	/* ctrl+a then BackSpace empties it */
	ACT(cua_session_press_key(session, APP, "ctrl+a", &out));
	assert_route(NULL, out, "keys");
	cua_free(out);
	ACT(cua_session_press_key(session, APP, "BackSpace", NULL));
	t2 = observe_until_pred(session, APP, 5000, entry_is, (void *)"");
	assert_non_null(t2);
	cua_tree_unref(t2);
	ACT(cua_session_type_text(session, APP, unicode_text, &out));
	assert_route(NULL, out, keys ? "keys" : "editable-text");
	cua_free(out);
	snprintf(expect, sizeof(expect), "entry %s", unicode_text);
	fixture_expect_line(&app, expect);
	t2 = observe_until_pred(session, APP, 5000, entry_is,
				(void *)unicode_text);
	if (!t2)
		fail_msg("the entry does not read '%s'", unicode_text);
	cua_tree_unref(t2);
	guard_allow(g, "text", "", GUARD_NODE); /* the entry */
	guard_end(g);
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
	COVERS("GTK 3", "click press_key type_text");
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
	struct guard *g;
	char *out = NULL, msg[512];
	uint32_t entry;

	t = need_observation(APP, 10000);
	g = guard_begin(app.pid);
	entry = id_of(t, "text field", NULL);
	ACT(cua_session_set_value(session, APP, entry, "one two one two",
				  NULL));
	fixture_expect_line(&app, "entry one two one two");
	/* ambiguous, then disambiguated by the prefix */
	assert_int_equal(cua_session_select_text(session, APP, entry, "two",
						 NULL, NULL, CUA_SELECTION_TEXT,
						 NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	snprintf(msg, sizeof(msg),
		 "Text 'two' occurs 2 times in element %u. "
		 "Add prefix or suffix text to choose one.",
		 entry);
	assert_string_equal(cua_error_message(), msg);
	ACT(cua_session_select_text(session, APP, entry, "two", "one ", " one",
				    CUA_SELECTION_TEXT, &out));
	assert_route(NULL, out, "text-selection");
	assert_non_null(strstr(out, "\"range\":[4,7]"));
	cua_free(out);
	t2 = observe_until_pred(session, APP, 5000, has_selection,
				(void *)"Selected text: ```\ntwo\n```");
	assert_non_null(t2);
	cua_tree_unref(t2);
	assert_int_equal(
		cua_session_select_text(session, APP, entry, "two", NULL, NULL,
					CUA_SELECTION_CURSOR_AFTER, NULL),
		CUA_ERROR_INVALID_ARGUMENT);
	ACT(cua_session_select_text(session, APP, entry, "one", NULL,
				    " two one", CUA_SELECTION_CURSOR_AFTER,
				    &out));
	assert_non_null(strstr(out, "\"range\":[0,3]"));
	cua_free(out);
	assert_int_equal(cua_session_select_text(session, APP, entry, "three",
						 NULL, NULL, CUA_SELECTION_TEXT,
						 NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	snprintf(msg, sizeof(msg),
		 "Could not find the requested text to "
		 "select in the element. Copy the text exactly as element %u "
		 "shows it in the latest get_app_state, including Markdown.",
		 entry);
	assert_string_equal(cua_error_message(), msg);
	/* a button has no text */
	assert_int_equal(cua_session_select_text(
				 session, APP, id_of(t, "button", "Alpha"),
				 "Alpha", NULL, NULL, CUA_SELECTION_TEXT, NULL),
			 CUA_ERROR_UNSUPPORTED);
	assert_non_null(
		strstr(cua_error_message(),
		       "Cannot select text for an element that does not "
		       "support a settable selected text range."));
	guard_allow(g, "text", "", GUARD_NODE); /* the entry */
	guard_end(g);
	cua_tree_unref(t);
	COVERS("GTK 3", "select_text");
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
	cua_tree *t = need_observation(APP, 10000), *t2;
	char *out = NULL;
	int a0, b0, a1, visible;
	uint32_t table = id_of(t, "table", NULL);
	struct guard *g = guard_begin(app.pid);

	a0 = table_first_row(t, &b0);
	assert_int_equal(a0, 0);
	visible = b0 - a0;
	ACT(cua_session_scroll(session, APP, table, "down", 1, &out));
	assert_route(NULL, out, "value");
	assert_non_null(strstr(out, "\"scroll_value\":{\"before\":0"));
	cua_free(out);
	t2 = need_observation(APP, 10000);
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
	t2 = need_observation(APP, 10000);
	assert_int_equal(table_first_row(t2, NULL), 0);
	cua_tree_unref(t2);
	ACT(cua_session_scroll(session, APP, table, "up", 1, &out));
	assert_non_null(strstr(out, "\"at_limit\":true"));
	assert_non_null(strstr(out, "\"pages_applied\":0"));
	cua_free(out);
	/* the table's rows and its scroll bar (back where it was) */
	guard_allow(g, "table", NULL, GUARD_SUBTREE);
	guard_allow(g, "scroll bar", NULL, GUARD_NODE);
	guard_end(g);
	cua_tree_unref(t);
	COVERS("GTK 3", "scroll");
}

static void
test_secondary_expand(void **state)
{
	cua_tree *t = need_observation(APP, 10000), *t2;
	char *out = NULL;
	uint32_t folder = id_of(t, "cell", "Folder 1");
	struct guard *g = guard_begin(app.pid);

	assert_int_equal(
		cua_session_perform_action(session, APP, folder, "Fly", NULL),
		CUA_ERROR_INVALID_ARGUMENT);
	{
		char msg[256];

		snprintf(msg, sizeof(msg),
			 "Fly is not a valid secondary action "
			 "for %u. Its secondary actions are: Expand, Edit.",
			 folder);
		assert_string_equal(cua_error_message(), msg);
	}
	ACT(cua_session_perform_action(session, APP, folder, " expand ", &out));
	assert_route(NULL, out, "action:Expand or contract");
	cua_free(out);
	fixture_expect_line(&app, "expanded Folder 1");
	t2 = need_observation(APP, 10000);
	assert_non_null(find_element(t2, "cell", "File 1.1"));
	ACT(cua_session_perform_action(
		session, APP, id_of(t2, "cell", "Folder 1"), "Collapse", NULL));
	fixture_expect_line(&app, "collapsed Folder 1");
	/* the folder tree's rows; back to collapsed */
	guard_allow(g, "tree table", NULL, GUARD_SUBTREE);
	guard_end(g);
	cua_tree_unref(t2);
	cua_tree_unref(t);
	COVERS("GTK 3", "perform_secondary_action");
}

/* A row is clicked by selecting it (docs/actions.md §3 route 1). */
static void
test_select_row(void **state)
{
	cua_tree *t = need_observation(APP, 10000), *t2;
	char *out = NULL;
	cua_element *cell = find_element(t, "cell", "Item 003");
	uint32_t row = cua_element_get_id(cua_element_get_parent(cell));
	struct guard *g = guard_begin(app.pid);

	ACT(cua_session_click(session, APP, row, CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "selection");
	cua_free(out);
	guard_allow(g, "table", NULL, GUARD_SUBTREE);
	guard_end(g);
	t2 = need_observation(APP, 10000);
	assert_true(
		cua_element_get_traits(find_element(t2, "cell", "Item 003")) &
		CUA_TRAIT_SELECTED);
	/* that row alone */
	for (size_t i = 0; i < cua_tree_get_element_count(t2); i++) {
		cua_element *e = cua_tree_get_element(t2, i);

		if (strcmp(cua_element_get_role(e), "cell") == 0 &&
		    strncmp(cua_element_get_title(e), "Item ", 5) == 0 &&
		    strcmp(cua_element_get_title(e), "Item 003") != 0 &&
		    (cua_element_get_traits(e) & CUA_TRAIT_SELECTED))
			fail_msg("%s is selected too",
				 cua_element_get_title(e));
	}
	cua_tree_unref(t2);
	cua_tree_unref(t);
}

/* The canvas has no accessible actions: synthetic pointer input. */
static void
test_canvas_pointer(void **state)
{
	cua_tree *t = need_observation(APP, 10000);
	uint32_t canvas = id_of(t, "canvas", "Canvas");
	char log[4096] = "", *out = NULL;
	int32_t x, y, w, h;
	int b, lx, ly, lx2, ly2;
	double px, py;
	struct guard *g;

	fixture_drain(&app, "the fixture", NULL, 0);
	g = guard_begin(app.pid);
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "synthetic");
	cua_free(out);
	fixture_wait_line(&app, "canvas release 1 ", log, sizeof(log));
	assert_non_null(
		strstr(log, "canvas press 1 80 60\ncanvas release 1 80 60\n"));
	/* right and middle buttons, and a double click */
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_RIGHT, 1, NULL));
	fixture_wait_line(&app, "canvas release 3 ", log, sizeof(log));
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_MIDDLE, 1,
			      NULL));
	fixture_wait_line(&app, "canvas release 2 ", log, sizeof(log));
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 2, NULL));
	/* both presses reach the app, the second as a double click (each
	 * press after the server showed the release before it: sent at
	 * once, the second was lost now and then on a loaded desktop) */
	fixture_wait_line(&app, "canvas multi-press 1 ", log, sizeof(log));
	fixture_wait_line(&app, "canvas release 1 ", log, sizeof(log));
	assert_non_null(strstr(log, "canvas press 3 80 60\n"));
	assert_non_null(strstr(log, "canvas press 2 80 60\n"));

	/* screenshot pixels: two clicks 7 and 5 pixels apart land 7 and 5
	 * points apart on the canvas (pixels per point 1 here) */
	assert_int_equal(
		cua_element_get_frame(find_element(t, "canvas", "Canvas"), &x,
				      &y, &w, &h),
		1);
	px = x + w / 2.0 - 5;
	py = y + h / 2.0 - 30;
	log[0] = '\0';
	ACT(cua_session_click_at(session, APP, px, py, CUA_BUTTON_LEFT, 1,
				 &out));
	assert_route(NULL, out, "synthetic");
	cua_free(out);
	fixture_wait_line(&app, "canvas release 1 ", log, sizeof(log));
	assert_int_equal(sscanf(strstr(log, "canvas press "),
				"canvas press %d %d %d", &b, &lx, &ly),
			 3);
	log[0] = '\0';
	ACT(cua_session_click_at(session, APP, px + 7, py + 5, CUA_BUTTON_LEFT,
				 1, NULL));
	fixture_wait_line(&app, "canvas release 1 ", log, sizeof(log));
	assert_int_equal(sscanf(strstr(log, "canvas press "),
				"canvas press %d %d %d", &b, &lx2, &ly2),
			 3);
	assert_int_equal(lx2 - lx, 7);
	assert_int_equal(ly2 - ly, 5);

	/* a drag: press at the start, motion to the midpoint and the end,
	 * release at the end (docs/actions.md §6) */
	log[0] = '\0';
	ACT(cua_session_drag(session, APP, px, py, px + 40, py + 20, &out));
	cua_free(out);
	fixture_wait_line(&app, "canvas release 1 ", log, sizeof(log));
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
		snprintf(want, sizeof(want), "canvas release 1 %d %d\n",
			 lx + 40, ly + 20);
		assert_non_null(strstr(log, want));
	}
	/* a scroll at a pixel turns the wheel over the canvas
	 * (docs/differences.md D18): GDK reports it as a discrete (1 = down,
	 * 3 = right) or a smooth (4) scroll, on the canvas and nowhere else */
	log[0] = '\0';
	ACT(cua_session_scroll_at(session, APP, px, py, "down", 0.2, &out));
	assert_route(NULL, out, "wheel");
	assert_non_null(strstr(out, "\"wheel_clicks\":"));
	cua_free(out);
	fixture_wait_line(&app, "canvas scroll ", log, sizeof(log));
	assert_int_equal(
		sscanf(strstr(log, "canvas scroll "), "canvas scroll %d", &b),
		1);
	assert_true(b == 1 || b == 4);
	assert_int_equal(cua_session_scroll_at(session, APP, px, py, "sideways",
					       1, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(
		cua_session_scroll_at(session, APP, px, py, "down", 0, NULL),
		CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(), "pages must be > 0");
	/* out of the screenshot */
	assert_int_equal(cua_session_click_at(session, APP, -1, 10,
					      CUA_BUTTON_LEFT, 1, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(cua_error_message(),
			       "Point (-1, 10) is outside "
			       "the screenshot of 'fixture-gtk3' ("));
	/* the canvas has no states: nothing anywhere changed */
	guard_end(g);
	cua_tree_unref(t);
	COVERS("GTK 3", "click drag scroll");
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

	assert_int_equal(
		cua_element_get_frame(find_element(t, "canvas", "Canvas"), &x,
				      &y, &w, &h),
		1);
	fixture_drain(&app, "the fixture", NULL, 0);
	ACT(cua_session_click_at(session, APP, x + w / 2.0, y + h / 2.0 - 30,
				 CUA_BUTTON_LEFT, 1, NULL));
	fixture_wait_line(&app, "canvas release 1 ", log, sizeof(log));
	assert_int_equal(sscanf(strstr(log, "canvas press "),
				"canvas press %d %d %d", &b, &lx, &ly),
			 3);
	*ox = x + w / 2.0 - lx - x;
	*oy = y + h / 2.0 - 30 - ly - y;
}

/* A drag moves the slider: press on its trough (GTK moves the knob
 * there), drag to the left end. */
static void
test_drag_slider(void **state)
{
	cua_tree *t = need_observation(APP, 10000);
	cua_element *s = find_element(t, "slider", NULL);
	struct guard *g = guard_begin(app.pid);
	char log[4096] = "";
	int32_t x, y, w, h;
	double ox, oy, v, sx, sy;

	ACT(cua_session_set_value(session, APP, cua_element_get_id(s), "50",
				  NULL));
	fixture_expect_line(&app, "scale 50");
	frame_offset(t, &ox, &oy);
	assert_int_equal(cua_element_get_frame(s, &x, &y, &w, &h), 1);
	sx = x + w / 2.0 - ox;
	sy = y + h - 10 - oy;
	log[0] = '\0';
	ACT(cua_session_drag(session, APP, sx, sy, x + 2 - ox, sy, NULL));
	fixture_wait_line(&app, "scale ", log, sizeof(log));
	app_read_until(&app, NULL, 300, log, sizeof(log));
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
	guard_allow(g, "slider", NULL, GUARD_NODE);
	guard_end(g);
	cua_tree_unref(t);
	COVERS("GTK 3", "drag");
}

/* ------------------------------------------------------------------ */
/* Bad input: exact errors, nothing sent                                */

static void
test_bad_input(void **state)
{
	cua_tree *t = need_observation(APP, 10000);
	char log[4096] = "";
	uint32_t alpha = id_of(t, "button", "Alpha");
	struct guard *g = guard_begin(app.pid);
	cua_result r;

	fixture_drain(&app, "the fixture", NULL, 0);
	r = cua_session_click(session, APP, 424242, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_NOT_FOUND);
	assert_string_equal(
		cua_error_message(),
		"424242 is an invalid element ID. Use an element index "
		"from the latest get_app_state of 'fixture-gtk3'.");
	r = cua_session_press_key(session, APP, "ctrl+sparkle", NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(
		cua_error_message(),
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
	assert_string_equal(
		cua_error_message(),
		"Invalid arguments for click: 'click_count' must be "
		"between 1 and 100.");
	r = cua_session_type_text(session, APP, NULL, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "Missing required argument: text");
	r = cua_session_set_value(session, APP, alpha, NULL, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "Missing required argument: value");
	r = cua_session_perform_action(session, APP, alpha, "  ", NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "Missing required argument: action");
	r = cua_session_click(session, NULL, alpha, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "Missing required argument: app");
	r = cua_session_click(session, "no-such-app-here", alpha,
			      CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_NOT_FOUND);
	assert_non_null(
		strstr(cua_error_message(),
		       "appNotFound(\"no-such-app-here\")\nNo running or "
		       "installed app matches 'no-such-app-here'."));
	/* nothing reached the fixture */
	fixture_drain(&app, "the fixture", log, sizeof(log));
	if (strstr(log, "clicked") || strstr(log, "entry") ||
	    strstr(log, "canvas"))
		fail_msg("input was sent:\n%s", log);
	guard_end(g); /* nothing at all changed */
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
	const char *bad_pages[] = { CUA_EXE, "scroll", APP, "3",
				    "down",  "-1",     NULL };
	const char *bad_index[] = { CUA_EXE, "click", APP, "x12", NULL };
	const char *state_cmd[] = { CUA_EXE, "state", APP, NULL };
	const char *click[] = { CUA_EXE, "click", APP, idx, NULL };
	struct guard *g = guard_begin(app.pid);

	assert_int_equal(run_cli(missing_idx, out, sizeof(out)), 2);
	assert_non_null(
		strstr(out, "Invalid arguments for click: pass "
			    "element_index, or x and y from the screenshot."));
	assert_int_equal(run_cli(missing_text, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "Missing required argument: text"));
	assert_int_equal(run_cli(missing_app, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "Missing required argument: app"));
	assert_int_equal(run_cli(bad_pages, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "pages must be > 0"));
	assert_int_equal(run_cli(bad_index, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "number from the latest `cua state`"));
	/* observe in one process, click by number in the next */
	assert_int_equal(run_cli(state_cmd, out, sizeof(out)), 0);
	p = strstr(out, " button Gamma\n");
	assert_non_null(p);
	while (p > out && p[-1] >= '0' && p[-1] <= '9')
		p--;
	snprintf(idx, sizeof(idx), "%d", atoi(p));
	fixture_drain(&app, "the fixture", NULL, 0);
	assert_int_equal(run_cli(click, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "Action completed. Run `cua state "
				    "fixture-gtk3` to see the updated UI "
				    "state.\nroute: action:Click\n"));
	fixture_expect_line(&app, "clicked Gamma");
	/* a screenshot pixel of that observation, clicked by the next
	 * process: the canvas's centre */
	{
		cua_tree *t = need_observation(APP, 10000);
		int32_t x, y, w, h;
		char at[64], log[2048] = "";
		const char *click_at[] = { CUA_EXE, "click", APP,
					   "--at",  at,      NULL };

		assert_int_equal(cua_element_get_frame(
					 find_element(t, "canvas", "Canvas"),
					 &x, &y, &w, &h),
				 1);
		cua_tree_unref(t);
		snprintf(at, sizeof(at), "%d,%d", x + w / 2, y + h / 2);
		assert_int_equal(run_cli(state_cmd, out, sizeof(out)), 0);
		fixture_drain(&app, "the fixture", NULL, 0);
		assert_int_equal(run_cli(click_at, out, sizeof(out)), 0);
		assert_non_null(strstr(out, "route: synthetic\n"));
		fixture_wait_line(&app, "canvas release 1 ", log, sizeof(log));
		assert_non_null(strstr(log, "canvas press 1 80 60\n"));
	}
	/* an error exits non-zero with the sentence */
	snprintf(idx, sizeof(idx), "%d", 987654);
	assert_int_equal(run_cli(click, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "987654 is an invalid element ID."));
	/* in the command line's words, not the MCP server's */
	assert_non_null(strstr(out, "from the latest `cua state` of"));
	assert_null(strstr(out, "get_app_state of"));
	guard_allow(g, "push button", "Gamma", GUARD_NODE);
	guard_end(g);
}

/* ------------------------------------------------------------------ */
/* Another app: foreign ids, covered points, keyboard focus             */

static void
test_other_app(void **state)
{
	cua_tree *t = need_observation(APP, 10000), *wf = NULL;
	char log[4096] = "";
	uint32_t foreign = 0, canvas = id_of(t, "canvas", "Canvas");
	struct guard *g = guard_begin(app.pid);
	cua_result r;

	r = cua_session_observe(session, "gtk3-widget-factory", 0, &wf);
	if (r != CUA_OK)
		fail_msg("gtk3-widget-factory: %s", cua_error_message());
	cua_tree_unref(wf);
	wf = observe_until_pred(session, "gtk3-widget-factory", 15000, NULL,
				NULL);
	assert_non_null(wf);
	/* an id the fixture never issued (the factory's ids go higher) */
	for (size_t i = 0; i < cua_tree_get_element_count(wf); i++)
		if (cua_element_get_id(cua_tree_get_element(wf, i)) > foreign)
			foreign =
				cua_element_get_id(cua_tree_get_element(wf, i));
	foreign += 100000;
	r = cua_session_click(session, APP, foreign, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_NOT_FOUND);
	assert_non_null(
		strstr(cua_error_message(), "is an invalid element ID"));

	/* the factory's window covers the fixture's canvas: the first
	 * synthetic click raises the fixture once (docs/actions.md §2.3) */
	ACT(cua_session_perform_action(session, "gtk3-widget-factory", 0,
				       "Raise", NULL));
	fixture_drain(&app, "the fixture", NULL, 0);
	ACT(cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 1, NULL));
	fixture_wait_line(&app, "canvas release 1 ", log, sizeof(log));
	assert_non_null(strstr(log, "canvas press 1 80 60\n"));
	/* buried again: left alone, refused, nothing sent */
	ACT(cua_session_perform_action(session, "gtk3-widget-factory", 0,
				       "Raise", NULL));
	r = cua_session_click(session, APP, canvas, CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_INPUT_BLOCKED);
	assert_non_null(
		strstr(cua_error_message(), "windowNotFoundAtPosition(("));
	assert_non_null(strstr(cua_error_message(), "is covered by "));
	log[0] = '\0';
	app_read_until(&app, NULL, 500, log, sizeof(log));
	assert_null(strstr(log, "canvas"));
	/* keys: the fixture is activated first, then typed into */
	ACT(cua_session_set_value(session, APP, id_of(t, "text field", NULL),
				  "", NULL));
	fixture_command(&app, "the fixture", "focus-entry", NULL, 0);
	ACT(cua_session_perform_action(session, "gtk3-widget-factory", 0,
				       "Raise", NULL));
	ACT(cua_session_set_option(session, "type_text_keys", "1"));
	ACT(cua_session_type_text(session, APP, "focus", NULL));
	ACT(cua_session_set_option(session, "type_text_keys", "0"));
	fixture_expect_line(&app, "entry focus");
	/* in the fixture: its entry, nothing else (the other app's clicks
	 * and the refused one included) */
	guard_allow(g, "text", "", GUARD_NODE);
	guard_end(g);
	{
		pid_t pid = (pid_t)cua_tree_get_pid(wf);

		kill(pid, SIGTERM);
		for (int i = 0; i < 50 && kill(pid, 0) == 0; i++)
			usleep(100 * 1000);
	}
	/* the process is gone: its session says so */
	r = cua_session_click(session, "gtk3-widget-factory", 0,
			      CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_PROCESS_GONE);
	assert_string_equal(
		cua_error_message(),
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
		cmocka_unit_test(test_click_disabled),
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
	};

	return run_test_group("actions", tests, setup, app_session_teardown);
}
