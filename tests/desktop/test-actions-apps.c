/*
 * Actions on real applications: gtk3-widget-factory, gtk4-widget-factory
 * (started by libcua from their desktop entries), FeatherPad (Qt 5) and
 * Chromium on tests/data/form.html. Every effect is read back through a
 * fresh observation (the apps have no output of their own), polling where
 * the toolkit applies actions late (Chromium).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common.h"
#include "covers.h"
#include "guard.h"

static const char *app; /* the app under test */

static const char unicode_text[] =
	"h\xc3\xa9llo w\xc3\xb6rld \xc3\x9f \xe2\x82\xac "
	"\xe4\xb8\xad\xe6\x96\x87 \xe2\x9c\x93";

static void
wait_value(uint32_t id, const char *value, int timeout_ms)
{
	struct want_value w = { id, value };
	cua_tree *t =
		observe_until_pred(session, app, timeout_ms, has_value, &w);

	if (!t) {
		cua_tree *now = observe_until(session, app, 5000);
		cua_element *e = now ? cua_tree_find_element(now, id) : NULL;

		fail_msg("element %u never had the value '%s' (now '%s')", id,
			 value, e ? cua_element_get_value(e) : "(gone)");
	}
	cua_tree_unref(t);
}

/* observe_until_pred(): element *(uint32_t *)data is not in the tree */
static int
element_gone(cua_tree *t, void *data)
{
	return cua_tree_find_element(t, *(uint32_t *)data) == NULL;
}

/* ctrl+Home in the text `editor`, its scroll bar `bar` back at 0, then
 * one page of scroll in `dir` by the wheel route; the outcome (cua_free) */
static char *
scroll_from_top(uint32_t editor, uint32_t bar, const char *dir)
{
	char *out = NULL;

	ACT(cua_session_press_key(session, app, "ctrl+Home", NULL));
	wait_value(bar, "0", 5000);
	ACT(cua_session_scroll(session, app, editor, dir, 1, &out));
	assert_route(NULL, out, "wheel");
	return out;
}

/* The scroll's outcome says the content was at its end and nothing was
 * turned: the axis' scroll bar said so before any click. */
static void
assert_scrolled_nothing(const char *out)
{
	if (!strstr(out, "\"at_limit\":true") ||
	    !strstr(out, "\"wheel_clicks\":0,"))
		fail_msg("a scroll with nothing to scroll: %s", out);
}

static int
has_text(cua_tree *t, void *data)
{
	char *text = render(t);
	int r = strstr(text, data) != NULL;

	cua_free(text);
	return r;
}

static void
wait_text(const char *needle, int timeout_ms)
{
	cua_tree *t = observe_until_pred(session, app, timeout_ms, has_text,
					 (void *)needle);

	if (!t) {
		cua_tree *now = observe_until(session, app, 5000);
		char *text = now ? render(now) : NULL;

		fail_msg("'%s' never appeared in:\n%s", needle,
			 text ? text : "");
	}
	cua_tree_unref(t);
}

/* A field: focus it, ctrl+a BackSpace empties it, then the Unicode text
 * is typed (by the route the toolkit allows, or with keys). */
static void
type_cycle(uint32_t field, int keys, const char *route, int timeout_ms)
{
	cua_tree *t = observe_until(session, app, 5000);
	struct want_value old = { field, NULL };
	char *out = NULL;

	assert_int_equal(cua_session_set_option(session, "type_text_keys",
						keys ? "1" : "0"),
			 CUA_OK);
	ACT(cua_session_click(session, app, field, CUA_BUTTON_LEFT, 1, NULL));
	ACT(cua_session_press_key(session, app, "ctrl+a", &out));
	assert_route(NULL, out, "keys");
	cua_free(out);
	ACT(cua_session_press_key(session, app, "BackSpace", NULL));
	/* emptied (Chromium's empty field renders its label as the value,
	 * a walk matter: there the text typed next proves it) */
	assert_non_null(t);
	old.value =
		strdup(cua_element_get_value(cua_tree_find_element(t, field)));
	cua_tree_unref(t);
	if (strcmp(app, "chromium") != 0) {
		wait_value(field, "", timeout_ms);
	} else {
		t = observe_until_pred(session, app, timeout_ms, value_is_not,
				       &old);
		assert_non_null(t);
		cua_tree_unref(t);
	}
	free((char *)old.value);
	ACT(cua_session_type_text(session, app, unicode_text, &out));
	assert_route(NULL, out, route);
	cua_free(out);
	wait_value(field, unicode_text, timeout_ms);
	assert_int_equal(cua_session_set_option(session, "type_text_keys", "0"),
			 CUA_OK);
}

/* A number element's value dropped below `limit`. */
static int
value_below(cua_tree *t, void *data)
{
	struct want_value *w = data;
	cua_element *e = cua_tree_find_element(t, w->id);

	return e && *cua_element_get_value(e) &&
	       atof(cua_element_get_value(e)) < atof(w->value);
}

static int
value_at_least(cua_tree *t, void *data)
{
	struct want_value *w = data;
	cua_element *e = cua_tree_find_element(t, w->id);

	return e && *cua_element_get_value(e) &&
	       atof(cua_element_get_value(e)) >= atof(w->value);
}

/* The observation's pixels per point (screenshot pixels = frame points
 * times this: element frames share the screenshot's origin). */
static double
pixels_per_point(cua_tree *t)
{
	char *json = NULL, *p;
	double ppp = 1;

	assert_int_equal(cua_tree_to_json(t, 0, &json), CUA_OK);
	p = strstr(json, "\"pixels_per_point\":");
	if (p)
		ppp = atof(p + strlen("\"pixels_per_point\":"));
	cua_free(json);
	return ppp;
}

/* Drags a horizontal slider from its middle to its left end, in
 * screenshot pixels; its value must drop below `below`. */
static void
drag_slider_left(uint32_t id, const char *below)
{
	cua_tree *t = observe_until(session, app, 5000);
	cua_element *e = cua_tree_find_element(t, id);
	struct want_value w = { id, below };
	int32_t x, y, wd, h;
	double ppp = pixels_per_point(t), my;
	char *out = NULL;
	cua_tree *t2;

	assert_non_null(e);
	assert_int_equal(cua_element_get_frame(e, &x, &y, &wd, &h), 1);
	my = (y + h / 2.0) * ppp;
	ACT(cua_session_drag(session, app, (x + wd / 2.0) * ppp, my,
			     (x + 2) * ppp, my, &out));
	assert_route(NULL, out, "synthetic");
	cua_free(out);
	t2 = observe_until_pred(session, app, 5000, value_below, &w);
	if (!t2)
		fail_msg("the drag did not move slider %u below %s", id, below);
	cua_tree_unref(t2);
	cua_tree_unref(t);
}

/* The widget factory's slider (at 50) set to 77, then dragged below 30,
 * and its spin button (at 50) set to 33, each value read back; with
 * `receipt`, the set's receipt says the value before and after. The guard
 * `g` allows the changes of the slider and the spin button (over `scope`)
 * and of the level bar and progress bars the factory ties to the slider. */
static void
set_slider_and_spin(cua_tree *t, int receipt, struct guard *g, int scope)
{
	uint32_t id = enabled_id(NULL, t, "slider", "", "50");
	char *out = NULL;

	ACT(cua_session_set_value(session, app, id, "77",
				  receipt ? &out : NULL));
	if (receipt)
		assert_non_null(
			strstr(out, "\"before\":\"50\",\"after\":\"77\""));
	cua_free(out);
	wait_value(id, "77", 5000);
	/* a drag moves it (GTK moves the knob to the press, then drags) */
	drag_slider_left(id, "30");
	id = enabled_id(NULL, t, "stepper", NULL, "50");
	ACT(cua_session_set_value(session, app, id, "33", NULL));
	wait_value(id, "33", 5000);
	guard_allow(g, "slider", NULL, scope);
	guard_allow(g, "spin button", NULL, scope);
	guard_allow(g, "level bar", NULL, GUARD_NODE);
	guard_allow(g, "progress bar", NULL, GUARD_NODE);
}

/* The widget factory's entry: typed into by both routes, then a word
 * of it selected (its receipt gives the range). */
static void
type_and_select(cua_tree *t)
{
	uint32_t id = enabled_id(NULL, t, "text field", NULL, "entry");
	char *out = NULL;

	type_cycle(id, 0, "editable-text", 5000);
	type_cycle(id, 1, "keys", 5000);
	ACT(cua_session_select_text(session, app, id, "w\xc3\xb6rld", NULL,
				    NULL, CUA_SELECTION_TEXT, &out));
	assert_non_null(strstr(out, "\"range\":[6,11]"));
	cua_free(out);
}

static int
ready_checkbox(cua_tree *t, void *data)
{
	return find_enabled(t, "checkbox", "checkbutton", NULL) != NULL;
}

/* ------------------------------------------------------------------ */

static void
test_gtk3_widget_factory(void **state)
{
	cua_tree *t = NULL;
	struct guard *g;
	char *out = NULL;
	uint32_t id, sb;

	app = "gtk3-widget-factory";
	t = launch_until(app, ready_checkbox);
	g = guard_begin((pid_t)cua_tree_get_pid(t));

	/* a check box and a toggle button toggle (their click action) */
	id = enabled_id(NULL, t, "checkbox", "checkbutton", "off");
	ACT(cua_session_click(session, app, id, CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "action:Click");
	cua_free(out);
	wait_value(id, "on", 5000);
	id = enabled_id(NULL, t, "toggle button", "togglebutton", "off");
	ACT(cua_session_click(session, app, id, CUA_BUTTON_LEFT, 1, NULL));
	wait_value(id, "on", 5000);
	guard_allow(g, "check box", "checkbutton", GUARD_NODE);
	guard_allow(g, "toggle button", "togglebutton", GUARD_NODE);
	guard_end(g);

	/* slider and spin button take a set value */
	g = guard_begin((pid_t)cua_tree_get_pid(t));
	set_slider_and_spin(t, 1, g, GUARD_NODE);
	guard_end(g);

	/* typing, both routes */
	g = guard_begin((pid_t)cua_tree_get_pid(t));
	type_and_select(t);
	wait_text("Selected text: ```\nw\xc3\xb6rld\n```", 5000);

	/* scroll: exactly one page of the text view, through its bar */
	{
		cua_element *area =
			find_enabled(t, "text entry area", NULL, NULL);
		cua_element *parent = cua_element_get_parent(area), *bar = NULL;
		int32_t x, y, w, h;
		char want[64];

		for (size_t i = 0; i < cua_element_get_child_count(parent); i++)
			if (strcmp(cua_element_get_role(
					   cua_element_get_child(parent, i)),
				   "scroll bar") == 0)
				bar = cua_element_get_child(parent, i);
		assert_non_null(bar);
		sb = cua_element_get_id(bar);
		assert_int_equal(cua_element_get_frame(area, &x, &y, &w, &h),
				 1);
		ACT(cua_session_scroll(session, app, cua_element_get_id(area),
				       "down", 0.5, &out));
		assert_route(NULL, out, "value");
		cua_free(out);
		snprintf(want, sizeof(want), "%d", (int)((h + 1) / 2));
		wait_value(sb, want, 5000);

		/* pages 1 on a text long enough: one viewport (±20 %), the
		 * bar's value read back */
		{
			char lines[4096];
			size_t k = 0;
			cua_tree *t2;
			struct want_value at = { sb, "1" };
			int v;

			for (int i = 0; i < 200 && k + 16 < sizeof(lines); i++)
				k += (size_t)snprintf(
					lines + k, sizeof(lines) - k,
					"%sline %d", i ? "\n" : "", i);
			ACT(cua_session_set_value(session, app,
						  cua_element_get_id(area),
						  lines, NULL));
			t2 = observe_until(session, app, 5000);
			v = atoi(cua_element_get_value(
				cua_tree_find_element(t2, sb)));
			cua_tree_unref(t2);
			ACT(cua_session_scroll(session, app,
					       cua_element_get_id(area), "down",
					       1, &out));
			cua_free(out);
			snprintf(want, sizeof(want), "%d", v + h / 2);
			at.value = want;
			t2 = observe_until_pred(session, app, 5000,
						value_at_least, &at);
			assert_non_null(t2);
			v = atoi(cua_element_get_value(
				    cua_tree_find_element(t2, sb))) -
			    v;
			if (abs(v - h) > h / 5)
				fail_msg("pages 1 scrolled %d px; the view is "
					 "%d px high",
					 v, h);
			cua_tree_unref(t2);
		}

		/* a text that fits: GTK hides the bar, its range empty;
		 * the scroll says at once that nothing moves, and the text
		 * is untouched */
		{
			cua_tree *t2;
			uint32_t gone = sb;

			ACT(cua_session_set_value(session, app,
						  cua_element_get_id(area),
						  "short", NULL));
			t2 = observe_until_pred(session, app, 5000,
						element_gone, &gone);
			assert_non_null(t2);
			cua_tree_unref(t2);
			ACT(cua_session_scroll(session, app,
					       cua_element_get_id(area), "down",
					       0.5, &out));
			assert_route(NULL, out, "wheel");
			assert_scrolled_nothing(out);
			cua_free(out);
			wait_value(cua_element_get_id(area), "short", 5000);
		}
	}
	/* the entry and the text view (role text), the view's scroll bar */
	guard_allow(g, "text", NULL, GUARD_NODE);
	guard_allow(g, "scroll bar", NULL, GUARD_NODE);
	guard_end(g);

	/* a tab is clicked by selecting it */
	g = guard_begin((pid_t)cua_tree_get_pid(t));
	id = enabled_id(NULL, t, "tab", "page 2", NULL);
	ACT(cua_session_click(session, app, id, CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "selection");
	cua_free(out);
	{
		cua_tree *t2 = observe_until(session, app, 5000);

		assert_true(
			cua_element_get_traits(cua_tree_find_element(t2, id)) &
			CUA_TRAIT_SELECTED);
		cua_tree_unref(t2);
	}
	/* the tabs, and what the pages show and hide */
	guard_allow(g, "page tab list", NULL, GUARD_SUBTREE);
	guard_allow_states(g, (1ull << GUARD_STATE_SHOWING) |
				      (1ull << GUARD_STATE_VISIBLE));
	guard_end(g);
	stop_pid((pid_t)cua_tree_get_pid(t));
	cua_tree_unref(t);
	COVERS("GTK 3", "get_app_state click set_value select_text scroll");
}

static void
test_gtk4_widget_factory(void **state)
{
	cua_tree *t = NULL;
	struct guard *g;
	char *out = NULL;
	uint32_t id;

	app = "gtk4-widget-factory";
	t = launch_until(app, ready_checkbox);

	/* GTK 4.8 check boxes have no actions: a synthetic click, through
	 * GTK 4's window-relative coordinates */
	g = guard_begin((pid_t)cua_tree_get_pid(t));
	id = enabled_id(NULL, t, "checkbox", "checkbutton", "off");
	ACT(cua_session_click(session, app, id, CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "synthetic");
	cua_free(out);
	wait_value(id, "on", 5000);
	guard_allow(g, "check box", "checkbutton", GUARD_NODE);
	guard_end(g);

	g = guard_begin((pid_t)cua_tree_get_pid(t));
	set_slider_and_spin(t, 0, g, GUARD_SUBTREE);
	/* the label that comments on the spin button's value */
	guard_allow(g, "label", "NEWS!", GUARD_NODE);
	guard_end(g);

	/* GrabFocus fails on GTK 4.8: the click focuses the entry */
	g = guard_begin((pid_t)cua_tree_get_pid(t));
	type_and_select(t);

	/* the text view scrolls through its (sibling) scroll bar's value */
	{
		cua_element *area =
			find_enabled(t, "text entry area", NULL, NULL);

		assert_non_null(area);
		ACT(cua_session_scroll(session, app, cua_element_get_id(area),
				       "down", 0.5, &out));
		assert_route(NULL, out, "value");
		assert_non_null(strstr(out, "\"scroll_value\":{\"before\":0"));
		cua_free(out);
	}
	/* the entry and the text view (role text), the view's scroll bars
	 * and the ranges in them */
	guard_allow(g, "text", NULL, GUARD_NODE);
	guard_allow(g, "scroll bar", NULL, GUARD_SUBTREE);
	guard_end(g);
	stop_pid((pid_t)cua_tree_get_pid(t));
	cua_tree_unref(t);
	COVERS("GTK 4", "get_app_state click set_value select_text scroll");
}

static int
featherpad_ready(cua_tree *t, void *data)
{
	return find_enabled(t, "menu bar", NULL, NULL) != NULL;
}

static int
two_tabs(cua_tree *t, void *data)
{
	int n = 0;

	for (size_t i = 0; i < cua_tree_get_element_count(t); i++)
		if (strcmp(cua_element_get_role(cua_tree_get_element(t, i)),
			   "tab") == 0)
			n++;
	return n == 2;
}

static void
test_featherpad_qt(void **state)
{
	cua_tree *t = NULL, *t2;
	struct guard *g;
	char *out = NULL;
	uint32_t editor, id;
	cua_element *e;

	app = "featherpad";
	if (cua_session_observe(session, app, 0, &t) != CUA_OK)
		fail_msg("launch: %s", cua_error_message());
	cua_tree_unref(t);
	t = observe_until_pred(session, app, 15000, featherpad_ready, NULL);
	assert_non_null(t);

	editor = enabled_id(NULL, t, "text entry area", NULL, NULL);
	g = guard_begin((pid_t)cua_tree_get_pid(t));
	/* typing: Qt's InsertText counts characters; the splice route is
	 * used, then keys */
	ACT(cua_session_click(session, app, editor, CUA_BUTTON_LEFT, 1, NULL));
	ACT(cua_session_type_text(session, app, unicode_text, &out));
	assert_route(NULL, out, "editable-text");
	cua_free(out);
	wait_value(editor, unicode_text, 5000);
	type_cycle(editor, 1, "keys", 5000);

	/* select text (FeatherPad's status bar does not count a selection
	 * made through accessibility; the focus trailer shows it) */
	ACT(cua_session_set_value(session, app, editor, "alpha beta gamma",
				  NULL));
	ACT(cua_session_select_text(session, app, editor, "beta", NULL, NULL,
				    CUA_SELECTION_TEXT, &out));
	assert_non_null(strstr(out, "\"range\":[6,10]"));
	cua_free(out);
	wait_text("Selected text: ```\nbeta\n```", 5000);

	/* scroll: Qt's text editor counts its scroll bar in lines, so one
	 * page is wheel clicks at Qt's step; the bar moves by one viewport
	 * of lines (±20 %): the bar's maximum is the lines that do not fit,
	 * read with ctrl+End */
	{
		struct strbuf_lines {
			char buf[4096];
		} lines;
		size_t k = 0;
		cua_tree *t3;
		cua_element *bar = NULL;

		for (int i = 0; i < 300 && k + 16 < sizeof(lines.buf); i++)
			k += (size_t)snprintf(lines.buf + k,
					      sizeof(lines.buf) - k,
					      "%sline %d", i ? "\n" : "", i);
		ACT(cua_session_set_value(session, app, editor, lines.buf,
					  NULL));
		ACT(cua_session_click(session, app, editor, CUA_BUTTON_LEFT, 1,
				      NULL));
		ACT(cua_session_press_key(session, app, "ctrl+End", NULL));
		t3 = observe_until(session, app, 5000);
		for (size_t i = 0; i < cua_tree_get_element_count(t3); i++)
			if (strcmp(cua_element_get_role(
					   cua_tree_get_element(t3, i)),
				   "scroll bar") == 0 &&
			    !(cua_element_get_traits(
				      cua_tree_get_element(t3, i)) &
			      CUA_TRAIT_DISABLED))
				bar = cua_tree_get_element(t3, i);
		assert_non_null(bar);
		{
			struct want_value w = { cua_element_get_id(bar),
						"100" };
			int v, fit;
			cua_tree *t4 = observe_until_pred(session, app, 5000,
							  value_at_least, &w);

			assert_non_null(t4);
			fit = 300 - atoi(cua_element_get_value(
					    cua_tree_find_element(t4, w.id)));
			cua_tree_unref(t4);
			out = scroll_from_top(editor, w.id, "down");
			/* the editor's children (the scroll bars' holders)
			 * never move: the first click moved the bar, so the
			 * content is not at its end */
			if (strstr(out, "\"at_limit\":true"))
				fail_msg("the end of the text was reported: %s",
					 out);
			fprintf(stderr, "# FeatherPad: %s\n", out);
			cua_free(out);
			w.value = "1";
			t4 = observe_until_pred(session, app, 5000,
						value_at_least, &w);
			assert_non_null(t4);
			v = atoi(cua_element_get_value(
				cua_tree_find_element(t4, w.id)));
			if (abs(v - fit) > fit / 5)
				fail_msg(
					"one page scrolled %d lines; %d fit in "
					"the view",
					v, fit);
			cua_tree_unref(t4);

			/* at the top, up: the bar at its end says so before
			 * any click, and the text stays at its top */
			out = scroll_from_top(editor, w.id, "up");
			assert_scrolled_nothing(out);
			cua_free(out);
			wait_value(w.id, "0", 5000);
		}
		cua_tree_unref(t3);
	}
	/* the editor and its scroll bars, and what shows its text: the
	 * window title and the tab (modified), the status bar */
	guard_allow(g, "text", NULL, GUARD_SUBTREE);
	guard_allow(g, "frame", NULL, GUARD_NODE);
	guard_allow(g, "page tab", NULL, GUARD_NODE);
	guard_allow(g, "page tab list", NULL, GUARD_NODE);
	guard_allow(g, "status bar", NULL, GUARD_SUBTREE);
	/* a changed document enables Save and Undo, and ends the notice
	 * FeatherPad shows when it runs as root */
	guard_allow(g, NULL, "Save", GUARD_NODE);
	guard_allow(g, NULL, "Undo", GUARD_NODE);
	guard_allow(g, "label", "Root Instance", GUARD_NODE);
	guard_allow(g, "filler", "", GUARD_NODE);
	guard_end(g);

	/* Qt's action names: Toggle on a check box */
	t2 = observe_until(session, app, 5000);
	e = NULL;
	for (size_t i = 0; i < cua_tree_get_element_count(t2); i++)
		if (strcmp(cua_element_get_description(
				   cua_tree_get_element(t2, i)),
			   "Match Case (F5)") == 0)
			e = cua_tree_get_element(t2, i);
	assert_non_null(e);
	id = cua_element_get_id(e);
	g = guard_begin((pid_t)cua_tree_get_pid(t));
	ACT(cua_session_click(session, app, id, CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "action:Toggle");
	cua_free(out);
	wait_value(id, "on", 5000);
	guard_allow(g, NULL, cua_element_get_title(e), GUARD_NODE);
	guard_end(g);
	cua_tree_unref(t2);

	/* a button's handler runs: New opens a second tab */
	g = guard_begin((pid_t)cua_tree_get_pid(t));
	ACT(cua_session_click(session, app,
			      enabled_id(NULL, t, "button", "New", NULL),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "action:Press");
	cua_free(out);
	{
		cua_tree *t3 =
			observe_until_pred(session, app, 5000, two_tabs, NULL);

		if (!t3)
			fail_msg("New did not open a second tab");
		cua_tree_unref(t3);
	}
	/* a new tab: its page and editor appear, the first tab's page hides,
	 * the tab commands are enabled, and the window shows the new
	 * document (title, status bar, Save and Undo) */
	guard_allow_added(g);
	guard_allow_states(g, (1ull << GUARD_STATE_SHOWING) |
				      (1ull << GUARD_STATE_VISIBLE) |
				      (1ull << GUARD_STATE_ENABLED) |
				      (1ull << GUARD_STATE_SENSITIVE));
	guard_allow(g, "page tab list", NULL, GUARD_SUBTREE);
	guard_allow(g, "text", NULL, GUARD_SUBTREE);
	guard_allow(g, "frame", NULL, GUARD_NODE);
	guard_allow(g, "status bar", NULL, GUARD_SUBTREE);
	guard_end(g);

	stop_pid((pid_t)cua_tree_get_pid(t));
	cua_tree_unref(t);
	COVERS("Qt 5",
	       "get_app_state click type_text set_value select_text press_key scroll");
}

static int
page_ready(cua_tree *t, void *data)
{
	return find_enabled(t, "button", "Submit order", NULL) != NULL;
}

/* the y of the "Order form" heading */
static int
heading_y(cua_tree *t)
{
	cua_element *h = find_enabled(t, "heading", "Order form", NULL);
	int32_t x, y, w, hh;

	if (!h || !cua_element_get_frame(h, &x, &y, &w, &hh))
		return INT32_MIN;
	return y;
}

static int
scrolled(cua_tree *t, void *data)
{
	int y = heading_y(t);

	return y != INT32_MIN && y < *(int *)data - 100;
}

static void
test_chromium_form(void **state)
{
	struct web_browser chromium;
	cua_tree *t;
	char *out = NULL;
	uint32_t id;

	app = "chromium";
	chromium_start(&chromium, "form.html");
	t = observe_until_pred(session, app, 30000, page_ready, NULL);
	assert_non_null(t);

	/* Chromium applies actions late: the action returns, the next
	 * observations show it (docs/actions.md §1.6) */
	id = enabled_id(NULL, t, "checkbox", "Gift wrap", "on");
	ACT(cua_session_click(session, app, id, CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "action:uncheck"); /* it was checked */
	cua_free(out);
	wait_value(id, "off", 5000);

	/* a button's handler runs */
	ACT(cua_session_click(
		session, app,
		enabled_id(NULL, t, "button", "Submit order", NULL),
		CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "action:press");
	cua_free(out);
	wait_text("Submitted: Alice", 5000);

	/* Chromium has no EditableText: keys, with spare keycodes */
	id = enabled_id(NULL, t, "text field", "Name", NULL);
	type_cycle(id, 0, "keys", 5000);
	ACT(cua_session_select_text(session, app, id, "w\xc3\xb6rld", NULL,
				    NULL, CUA_SELECTION_TEXT, &out));
	assert_non_null(strstr(out, "\"range\":[6,11]"));
	cua_free(out);

	/* a slider takes a value (set late, polled) */
	id = enabled_id(NULL, t, "slider", "Quantity", NULL);
	ACT(cua_session_set_value(session, app, id, "7", &out));
	assert_non_null(strstr(out, "\"after\":\"7\""));
	cua_free(out);
	wait_value(id, "7", 5000);
	drag_slider_left(id, "4");

	/* the page scrolls with the wheel (no scroll bar in the tree) */
	{
		cua_tree *t2 = observe_until(session, app, 5000);
		cua_element *doc =
			find_enabled(t2, "HTML content", "libcua form", NULL);
		int y0 = heading_y(t2);

		assert_non_null(doc);
		assert_true(y0 != INT32_MIN);
		ACT(cua_session_scroll(session, app, cua_element_get_id(doc),
				       "down", 0.5, &out));
		assert_route(NULL, out, "wheel");
		cua_free(out);
		cua_tree_unref(t2);
		t2 = observe_until_pred(session, app, 5000, scrolled, &y0);
		if (!t2)
			fail_msg("the page did not scroll");
		cua_tree_unref(t2);
	}
	cua_tree_unref(t);
	assert_int_equal(web_browser_stop(&chromium), 0);
	COVERS("Chromium",
	       "get_app_state click select_text set_value drag scroll");
}

static int
editor_ready(cua_tree *t, void *data)
{
	return find_enabled(t, "text entry area", NULL, NULL) != NULL;
}

static int
save_dialog_shown(cua_tree *t, void *data)
{
	return strcmp(cua_tree_get_window_title(t), "Save As") == 0 &&
	       find_enabled(t, "text field", "Name:", NULL) != NULL &&
	       find_enabled(t, "button", "Save", NULL) != NULL;
}

static int
saved_title(cua_tree *t, void *data)
{
	return strncmp(cua_tree_get_window_title(t), "saved.txt", 9) == 0;
}

/* A GTK 4 dialog (gnome-text-editor's Save As: GTK 4.8 gives its
 * toplevel the role filler) is the observed window once it is the active
 * one, and it is driven to completion: the file is on disk, the buffer
 * behind the dialog unchanged. Its buttons are titled once ("Save", not
 * GTK 4.8's "Save Save"). */
static void
test_gtk4_save_dialog(void **state)
{
	const char *argv[] = { "gnome-text-editor", "--standalone", NULL };
	char dir[] = "/tmp/cua-gte-XXXXXX", path[128], buf[64], q[32];
	struct app_proc proc;
	cua_tree *t;
	char *out = NULL, *text;
	uint32_t editor, name;
	FILE *f;
	size_t n;
	int64_t t0;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/saved.txt", dir);
	assert_int_equal(app_start(&proc, argv, 0), 0);
	snprintf(q, sizeof(q), "pid:%d", (int)proc.pid);
	app = q;
	t = observe_until_pred(session, app, 20000, editor_ready, NULL);
	assert_non_null(t);
	editor = enabled_id(NULL, t, "text entry area", NULL, NULL);
	cua_tree_unref(t);
	ACT(cua_session_click(session, app, editor, CUA_BUTTON_LEFT, 1, NULL));
	ACT(cua_session_type_text(session, app, "saved by a dialog", NULL));
	wait_value(editor, "saved by a dialog", 5000);
	ACT(cua_session_press_key(session, app, "ctrl+s", NULL));

	t = observe_until_pred(session, app, 5000, save_dialog_shown, NULL);
	if (!t) {
		t = observe_until(session, app, 5000);
		text = t ? render(t) : NULL;
		fail_msg("the Save As dialog is not the observed window:\n%s",
			 text ? text : "");
	}
	text = render(t);
	if (!strstr(text, "dialog Save As"))
		fail_msg("the dialog's root is not a dialog:\n%s", text);
	cua_free(text);
	name = enabled_id(NULL, t, "text field", "Name:", NULL);
	ACT(cua_session_set_value(session, app, name, path, &out));
	assert_route(NULL, out, "value");
	cua_free(out);
	ACT(cua_session_click(session, app,
			      enabled_id(NULL, t, "button", "Save", NULL),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_route(NULL, out, "action:Click");
	cua_free(out);
	cua_tree_unref(t);

	/* written (the file is created before its text is in it: wait
	 * until it has a size that stays for 200 ms), and the editor now
	 * shows the file */
	{
		struct stat st;
		off_t last = -1;
		int same = 0;

		for (t0 = now_ms(); same < 4 && now_ms() - t0 < 5000;) {
			off_t size = stat(path, &st) == 0 ? st.st_size : -1;

			same = size > 0 && size == last ? same + 1 : 0;
			last = size;
			usleep(50 * 1000);
		}
	}
	f = fopen(path, "re");
	if (!f)
		fail_msg("the save did not write %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	assert_string_equal(buf, "saved by a dialog");
	t = observe_until_pred(session, app, 5000, saved_title, NULL);
	assert_non_null(t);
	assert_string_equal(cua_element_get_value(find_enabled(
				    t, "text entry area", NULL, NULL)),
			    "saved by a dialog");
	cua_tree_unref(t);
	app_stop(&proc);
	unlink(path);
	rmdir(dir);
	COVERS("GTK 4", "click type_text press_key set_value");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gtk3_widget_factory),
		cmocka_unit_test(test_gtk4_widget_factory),
		cmocka_unit_test(test_featherpad_qt),
		cmocka_unit_test(test_chromium_form),
		cmocka_unit_test(test_gtk4_save_dialog),
	};

	return run_test_group("actions-apps", tests, session_setup,
			      session_teardown);
}
