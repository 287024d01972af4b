/*
 * Desktop tests on real applications: GTK 3 and GTK 4 widget factories
 * (started by libcua itself from their desktop entries, as get_app_state
 * does), FeatherPad (Qt 5) and Chromium on a local form. Each test checks
 * particular elements with their role text, traits and values, that no
 * raw AT-SPI role name leaks, and that the focus trailer names the element
 * each app focuses when it starts.
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
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

/* Asserts that `needle` occurs in `text`, printing the text if not. */
#define assert_contains(text, needle)                                          \
	do {                                                                   \
		if (!strstr((text), (needle)))                                 \
			fail_msg("'%s' not found in:\n%s", (needle), (text));  \
	} while (0)

#define assert_lacks(text, needle)                                             \
	do {                                                                   \
		if (strstr((text), (needle)))                                  \
			fail_msg("'%s' found in:\n%s", (needle), (text));      \
	} while (0)

static void
assert_no_raw_roles(const char *text)
{
	static const char *const raw[] = {
		" push button", " page tab",     " filler",      " panel",
		" check box",   " spin button",  " scroll pane", " table cell",
		" tree table",  " label",        " frame",       " static",
		" section",     " document web",
	};

	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
		/* a role text follows the id: "<tabs><id><raw>" */
		for (const char *p = text; (p = strstr(p, raw[i])); p++) {
			const char *q = p;

			while (q > text && q[-1] >= '0' && q[-1] <= '9')
				q--;
			if (q < p &&
			    (q == text || q[-1] == '\t' || q[-1] == '\n'))
				fail_msg("raw role '%s' leaked:\n%s", raw[i],
					 text);
		}
	}
}

/* The app has keyboard focus on an element whose line (after its id)
 * starts with `want`, and the state text ends with the focus trailer that
 * names it, or with the selected-text block instead (never both). */
static void
assert_focus_trailer(cua_tree *t, const char *text, const char *want)
{
	cua_element *f = cua_tree_get_focused(t);
	char *line, expect[1024];
	const char *rest;
	size_t n, len = strlen(text);

	if (!f)
		fail_msg("no focused element (want '%s ...') in:\n%s", want,
			 text);
	line = element_line(f);
	rest = strchr(line, ' ');
	if (!rest || strncmp(rest + 1, want, strlen(want)) != 0)
		fail_msg("the focused element is '%s', want '<id> %s ...'",
			 line, want);
	if (strstr(text, "\n\nSelected text: ```\n")) {
		assert_lacks(text, "\n\nThe focused UI element is ");
	} else {
		snprintf(expect, sizeof(expect),
			 "\n\nThe focused UI element is %s.", line);
		n = strlen(expect);
		if (len < n || strcmp(text + len - n, expect) != 0)
			fail_msg("the text does not end with '%s':\n%s",
				 expect + 2, text);
	}
	cua_free(line);
}

/* The widget factory (GTK 3 or 4) shows its check button. */
static int
has_checkbutton(cua_tree *t, void *data)
{
	return find_element(t, "checkbox", "checkbutton") != NULL;
}

static void
test_gtk3_widget_factory(void **state)
{
	cua_tree *t;
	char *text;

	/* not running yet: observing launches it from its desktop entry */
	t = launch_until("gtk3-widget-factory", has_checkbutton);
	text = render(t);
	assert_contains(text, "App=gtk3-widget-factory (pid ");
	assert_contains(
		text,
		"\nWindow: \"gtk3-widget-factory\", App: Widget Factory.\n"
		"0 standard window gtk3-widget-factory, Secondary Actions: Raise\n");
	assert_contains(text, " checkbox checkbutton, Value: on\n");
	assert_contains(text, " checkbox checkbutton, Value: off\n");
	assert_contains(text,
			" checkbox (disabled) checkbutton, Value: mixed\n");
	assert_contains(text, " radio button radiobutton, Value: on\n");
	assert_contains(text, " toggle button togglebutton, Value: off\n");
	assert_contains(text, " slider (settable, float) 50\n");
	assert_contains(text, " slider (disabled, settable, float) 50\n");
	assert_contains(text, " text field (settable, string) Value: entry, "
			      "Secondary Actions: Activate\n");
	assert_contains(
		text, " text field (disabled, settable, string) Value: entry");
	assert_contains(text, " tab (selected) page 1\n");
	assert_contains(text, " tab (selectable) page 2\n");
	assert_contains(text,
			" text entry area (settable, string) Lorem ipsum");
	assert_no_raw_roles(text);
	/* the first focusable widget: the combo box's entry */
	assert_focus_trailer(
		t, text, "text field (settable, string) Value: comboboxentry");
	cua_free(text);
	stop_pid((pid_t)cua_tree_get_pid(t));
	cua_tree_unref(t);
}

static void
test_gtk4_widget_factory(void **state)
{
	cua_tree *t;
	char *text;

	t = launch_until("gtk4-widget-factory", has_checkbutton);
	text = render(t);
	assert_contains(text, "App=org.gtk.WidgetFactory4 (pid ");
	assert_contains(
		text,
		"0 standard window GTK Widget Factory, Secondary Actions: Raise\n");
	/* GTK 4.8 marks enabled widgets only with SENSITIVE */
	assert_contains(text, " checkbox checkbutton, Value: on\n");
	assert_contains(text, " checkbox (disabled) checkbutton, Value: off\n");
	assert_contains(text, " slider (settable, float) 50\n");
	assert_contains(text, " stepper (settable, float) 50\n");
	assert_contains(text, " text field (settable, string) Value: entry, "
			      "Secondary Actions: Activate\n");
	assert_contains(text, " secure text field (settable, string) "
			      "Placeholder: Password");
	/* GType names and GAction plumbing do not reach the text */
	assert_lacks(text, " Gtk");
	assert_lacks(text, "Clipboard.copy");
	assert_lacks(text, "Win.");
	assert_no_raw_roles(text);
	assert_focus_trailer(
		t, text, "text field (settable, string) Value: comboboxentry");
	cua_free(text);
	stop_pid((pid_t)cua_tree_get_pid(t));
	cua_tree_unref(t);
}

static int
featherpad_ready(cua_tree *t, void *data)
{
	return find_element(t, "menu bar", NULL) != NULL;
}

static void
test_featherpad_qt(void **state)
{
	cua_tree *t = NULL;
	char *text;

	if (cua_session_observe(session, "featherpad", 0, &t) != CUA_OK)
		fail_msg("launch and observe: %s", cua_error_message());
	cua_tree_unref(t);
	t = observe_until_pred(session, "featherpad", 15000, featherpad_ready,
			       NULL);
	assert_non_null(t);
	text = render(t);
	assert_contains(text, "App=featherpad (pid ");
	assert_contains(text, "\nWindow: \"Untitled\", App: FeatherPad.\n");
	assert_contains(text, " button New, Description: New tab\n");
	assert_contains(
		text,
		" button (disabled) Save, Description: Save the current tab\n");
	/* menu-bar items have no role text (docs/state-text.md §4.3); Qt's
	 * ShowMenu action */
	assert_contains(text, " File, Secondary Actions: Show Menu\n");
	assert_contains(text,
			" checkbox Description: Match Case (F5), Value: off\n");
	assert_contains(text, " text entry area (settable, string)");
	assert_no_raw_roles(text);
	/* the editor */
	assert_focus_trailer(t, text, "text entry area (settable, string)");
	cua_free(text);
	stop_pid((pid_t)cua_tree_get_pid(t));
	cua_tree_unref(t);
}

/* The page is in the tree and its title in the window's (Chromium sets
 * the window title a moment after the page's accessibility tree). */
static int
page_ready(cua_tree *t, void *data)
{
	const char *title = cua_tree_get_window_title(t);

	return find_element(t, "button", "Submit order") != NULL && title &&
	       strcmp(title, "libcua form - Chromium") == 0;
}

static void
test_chromium_form(void **state)
{
	struct web_browser chromium;
	cua_tree *t;
	char *text;

	chromium_start(&chromium, "form.html");
	/* Chromium builds its tree after accessibility is enabled */
	t = observe_until_pred(session, "chromium", 30000, page_ready, NULL);
	assert_non_null(t);
	text = render(t);
	assert_contains(text, "\nWindow: \"libcua form - Chromium\", App: ");
	/* the page's address, from the Document interface's `URI` */
	assert_contains(text, " HTML content libcua form, URL: file://");
	assert_contains(text, "/form.html");
	assert_contains(text, " heading Order form, Value: 1\n");
	/* links in text become Markdown and stay clickable; Chromium's
	 * universal doDefault and context-menu verbs do not stop text and
	 * wrappers from merging and disappearing */
	assert_contains(text,
			" text Read the [terms](https://example.org/terms) "
			"before ordering.\n");
	assert_contains(text, " link terms\n");
	assert_contains(text, " text field Name, Value: Alice, ID: name, "
			      "Secondary Actions: Activate, Show Menu\n");
	assert_contains(text, " checkbox Gift wrap, Value: on, ID: gift, "
			      "Secondary Actions: Show Menu\n");
	assert_contains(
		text, " slider (settable, float) Quantity, Value: 3, ID: qty, "
		      "Secondary Actions: Show Menu, Decrement, Increment\n");
	assert_contains(
		text,
		" pop up button (collapsed) Color, Value: Green, ID: color, "
		"Secondary Actions: Show Menu\n");
	assert_contains(text,
			" button Submit order, Secondary Actions: Show Menu\n");
	assert_contains(text, " button (disabled) Cancel order, "
			      "Secondary Actions: Show Menu\n");
	assert_contains(text,
			" column header Fruit, Secondary Actions: Show Menu\n");
	assert_contains(text, " cell Apple, Secondary Actions: Show Menu\n");
	assert_no_raw_roles(text);
	/* the page itself */
	assert_focus_trailer(t, text, "HTML content libcua form");
	cua_free(text);
	cua_tree_unref(t);
	assert_int_equal(web_browser_stop(&chromium), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gtk3_widget_factory),
		cmocka_unit_test(test_gtk4_widget_factory),
		cmocka_unit_test(test_featherpad_qt),
		cmocka_unit_test(test_chromium_form),
	};

	return run_test_group("apps", tests, session_setup, session_teardown);
}
