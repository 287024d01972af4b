/*
 * The display seam on a real desktop: with
 * CUA_DISPLAY=none the fixture's tree is read and actions by element
 * work, while screenshots, input at positions and keys refuse with a
 * sentence naming what is unavailable and what still works, and the
 * fixture sees nothing of them; the session option `display` switches
 * the driver of a live session, and cua_session_get_display_info()
 * reports it; `cua doctor` prints the same facts.
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

#include <jansson.h>

#include "common.h"
#include "doctor-lines.h"
#include "guard.h"

#define APP "fixture-gtk3"
#define OFF_ENV "the display driver is turned off by CUA_DISPLAY=none"
#define OFF_OPTION                                                             \
	"the display driver is turned off by the session option display=none"
#define SHOT_ERROR(why)                                                        \
	"screen capture is unavailable on this desktop: " why "; the element " \
	"tree and element actions still work"

static struct app_proc app;

/* The message of the last error, which must start with `prefix` and
 * contain each of the NULL-terminated `parts`. */
static void
assert_message(const char *prefix, ...)
{
	const char *m = cua_error_message();
	const char *part;
	va_list ap;

	if (strncmp(m, prefix, strlen(prefix)) != 0)
		fail_msg("message\n  %s\ndoes not start with\n  %s", m, prefix);
	va_start(ap, prefix);
	while ((part = va_arg(ap, const char *)))
		if (!strstr(m, part))
			fail_msg("message\n  %s\nlacks\n  %s", m, part);
	va_end(ap);
	/* never the wording of a window that merely is not visible */
	assert_null(strstr(m, "hidden"));
	assert_null(strstr(m, "did not take keyboard focus"));
	assert_null(strstr(m, "X server"));
}

/* The JSON of cua_session_get_display_info(). */
static json_t *
display_info(void)
{
	char *s = NULL;
	json_error_t err;
	json_t *j;

	ACT(cua_session_get_display_info(session, &s));
	j = json_loads(s, 0, &err);
	if (!j)
		fail_msg("display info is no JSON: %s\n%s", err.text, s);
	cua_free(s);
	return j;
}

static const char *
jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	if (!s)
		fail_msg("no string '%s' in the display info", key);
	return s;
}

static int
setup(void **state)
{
	/* the teardown stops whatever a failed start left */
	*state = &app;
	if (fixture_start(&app, FIXTURE_GTK3, NULL, 10000, NULL, 0) < 0)
		return -1;
	/* the session's display driver is off from the start */
	setenv("CUA_DISPLAY", "none", 1);
	session = test_session();
	unsetenv("CUA_DISPLAY");
	return 0;
}

/* ------------------------------------------------------------------ */

/* The tree and the actions by element work without a window system. */
static void
test_none_reads_and_acts(void **state)
{
	cua_tree *t = need_observation(APP, 10000);
	const void *data = NULL;
	size_t size = 0;
	const char *mime = NULL;
	json_t *j, *caps;
	struct guard *g;
	char *text = render(t);

	(void)state;
	assert_non_null(strstr(text, "checkbox Unchecked box"));
	assert_non_null(strstr(text, "button Alpha"));
	cua_free(text);
	assert_int_equal(cua_tree_get_screenshot(t, &data, &size, &mime, NULL,
						 NULL, NULL),
			 CUA_ERROR_NOT_FOUND);
	assert_string_equal(cua_tree_get_screenshot_error(t),
			    SHOT_ERROR(OFF_ENV));

	g = guard_begin(app.pid);
	ACT(cua_session_click(session, APP,
			      id_of(t, "checkbox", "Unchecked box"),
			      CUA_BUTTON_LEFT, 1, NULL));
	fixture_expect_line(&app, "toggled Unchecked box on");
	ACT(cua_session_click(session, APP,
			      id_of(t, "checkbox", "Unchecked box"),
			      CUA_BUTTON_LEFT, 1, NULL));
	fixture_expect_line(&app, "toggled Unchecked box off");
	ACT(cua_session_set_value(session, APP, id_of(t, "text field", NULL),
				  "set without a display", NULL));
	fixture_expect_line(&app, "entry set without a display");
	guard_allow(g, "check box", "Unchecked box", GUARD_NODE);
	guard_allow(g, "text", "", GUARD_NODE); /* the entry */
	guard_end(g);
	cua_tree_unref(t);

	j = display_info();
	assert_string_equal(jstr(j, "driver"), "none");
	assert_string_equal(jstr(j, "chosen_by"), "CUA_DISPLAY");
	assert_string_equal(jstr(j, "session"), "x11");
	caps = json_object_get(j, "capabilities");
	for (const char *const *k =
		     (const char *const[]){ "windows", "geometry", "screenshot",
					    "pointer", "keyboard", NULL };
	     *k; k++) {
		json_t *c = json_object_get(caps, *k);

		assert_true(json_is_false(json_object_get(c, "available")));
		assert_string_equal(jstr(c, "reason"), OFF_ENV);
	}
	json_decref(j);
}

/* Input at positions and keys refuse, and nothing reaches the app. */
static void
test_none_refuses(void **state)
{
	cua_tree *t = need_observation(APP, 10000);
	struct guard *g = guard_begin(app.pid);
	char log[8192] = "";

	(void)state;
	/* the canvas has no action: a click needs the pointer */
	assert_int_equal(cua_session_click(session, APP,
					   id_of(t, "canvas", "Canvas"),
					   CUA_BUTTON_LEFT, 1, NULL),
			 CUA_ERROR_INPUT_BLOCKED);
	assert_message("cannotClickOffscreenElement (pointer input is "
		       "unavailable on this desktop: " OFF_ENV ", so a click, "
		       "scroll or drag at a position cannot reach '",
		       "'. Element actions still work: click by element_index "
		       "on elements that have an action, set_value, "
		       "perform_secondary_action, select_text, and scroll by "
		       "element_index.)",
		       NULL);

	/* screenshot coordinates: there is no screenshot to use */
	assert_int_equal(cua_session_click_at(session, APP, 20, 20,
					      CUA_BUTTON_LEFT, 1, NULL),
			 CUA_ERROR_INPUT_BLOCKED);
	assert_message(
		"The last get_app_state of '",
		"' has no screenshot (" SHOT_ERROR(
			OFF_ENV) "), so "
				 "screenshot coordinates cannot be used. Use "
				 "element_index, or call get_app_state again.",
		NULL);
	assert_int_equal(cua_session_drag(session, APP, 20, 20, 60, 20, NULL),
			 CUA_ERROR_INPUT_BLOCKED);
	assert_message("The last get_app_state of '", SHOT_ERROR(OFF_ENV),
		       NULL);
	assert_int_equal(
		cua_session_scroll_at(session, APP, 20, 20, "down", 0.5, NULL),
		CUA_ERROR_INPUT_BLOCKED);
	assert_message("The last get_app_state of '", SHOT_ERROR(OFF_ENV),
		       NULL);

	/* keys: into the focused entry */
	fixture_command(&app, "the fixture", "focus-entry", NULL, 0);
	assert_int_equal(cua_session_press_key(session, APP, "ctrl+a", NULL),
			 CUA_ERROR_INPUT_BLOCKED);
	assert_message(
		"Keys cannot be sent to '",
		"': keyboard input is unavailable on this desktop: " OFF_ENV
		". Element actions still work: set_value to "
		"replace a text field's text, select_text, click by "
		"element_index, and perform_secondary_action.",
		NULL);
	ACT(cua_session_set_option(session, "type_text_keys", "1"));
	assert_int_equal(cua_session_type_text(session, APP, "typed", NULL),
			 CUA_ERROR_INPUT_BLOCKED);
	assert_message("Keys cannot be sent to '", OFF_ENV, NULL);
	ACT(cua_session_set_option(session, "type_text_keys", "0"));

	/* the fixture saw none of it (the entry has the focus the fixture
	 * gave it) */
	guard_end(g);
	fixture_command(&app, "the fixture", "title after the refusals", log,
			sizeof(log));
	assert_null(strstr(log, "canvas"));
	assert_null(strstr(log, "entry"));
	cua_tree_unref(t);
}

/* The session option switches the driver of a live session. */
static void
test_option_switches(void **state)
{
	cua_tree *t;
	const void *data = NULL;
	size_t size = 0;
	const char *mime = NULL;
	char log[8192] = "";
	json_t *j;

	(void)state;
	/* a wrong name changes nothing */
	assert_int_equal(cua_session_set_option(session, "display", "X11"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "the session option display=X11: no display "
			    "driver has this name; use auto, x11, wlroots, "
			    "mutter, portal or none");
	/* (a known driver left out of the build is refused too: the unit
	 * test test-display, since every driver is built here) */
	j = display_info();
	assert_string_equal(jstr(j, "driver"), "none");
	json_decref(j);

	/* auto: this desktop's X server */
	ACT(cua_session_set_option(session, "display", "auto"));
	j = display_info();
	assert_string_equal(jstr(j, "driver"), "x11");
	assert_string_equal(jstr(j, "chosen_by"), "auto");
	assert_string_equal(jstr(j, "display"), getenv("DISPLAY"));
	assert_true(json_is_true(json_object_get(
		json_object_get(json_object_get(j, "capabilities"), "pointer"),
		"available")));
	json_decref(j);
	t = need_observation(APP, 10000);
	assert_int_equal(cua_tree_get_screenshot(t, &data, &size, &mime, NULL,
						 NULL, NULL),
			 CUA_OK);
	assert_true(size > 0);
	fixture_command(&app, "the fixture", "title pointer again", NULL, 0);
	ACT(cua_session_click(session, APP, id_of(t, "canvas", "Canvas"),
			      CUA_BUTTON_LEFT, 1, NULL));
	if (app_read_until(&app, "canvas release 1 ", 5000, log, sizeof(log)) <
	    0)
		fail_msg("the canvas saw no click; it printed:\n%s", log);
	cua_tree_unref(t);

	/* and off again, by the option this time */
	ACT(cua_session_set_option(session, "display", "none"));
	j = display_info();
	assert_string_equal(jstr(j, "driver"), "none");
	assert_string_equal(jstr(j, "chosen_by"), "the session option display");
	json_decref(j);
	t = need_observation(APP, 10000);
	assert_string_equal(cua_tree_get_screenshot_error(t),
			    SHOT_ERROR(OFF_OPTION));
	assert_int_equal(cua_session_click(session, APP,
					   id_of(t, "canvas", "Canvas"),
					   CUA_BUTTON_LEFT, 1, NULL),
			 CUA_ERROR_INPUT_BLOCKED);
	assert_message("cannotClickOffscreenElement (pointer input is "
		       "unavailable on this desktop: " OFF_OPTION,
		       NULL);
	cua_tree_unref(t);
}

/* `cua doctor` on this desktop: the x11 driver, every capability
 * working, the accessibility bus answering with the fixture on it; and
 * with the driver turned off, each capability's reason while the tree
 * and element actions still work. */
static void
test_doctor(void **state)
{
	const char *text_argv[] = { CUA_EXE, "doctor", NULL };
	static const char *const caps[] = { "windows", "geometry", "screenshot",
					    "pointer", "keyboard" };
	char out[16384], why[256];
	json_t *j, *a11y;

	(void)state;
	assert_int_equal(run_command(text_argv, out, sizeof(out)), 0);
	assert_doctor_line(out, "Session:", "x11\n");
	assert_doctor_line(out, "Display:", getenv("DISPLAY"));
	assert_doctor_line(out, "Window manager:", "Openbox\n");
	snprintf(why, sizeof(why),
		 "x11, chosen from the environment: DISPLAY=%s names an X "
		 "server",
		 getenv("DISPLAY"));
	assert_doctor_line(out, "Driver:", why);
	assert_doctor_all_work(out);

	j = doctor_json("x11", "x11");
	assert_string_equal(jstr(j, "schema"), "libcua.display/1");
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		assert_true(json_is_true(json_object_get(
			json_object_get(json_object_get(j, "capabilities"),
					caps[i]),
			"available")));
	a11y = json_object_get(j, "accessibility");
	assert_true(json_is_true(json_object_get(
		json_object_get(a11y, "element_actions"), "available")));
	json_decref(j);

	/* cua-mcp says the same in one line at start-up (info level) */
	{
		const char *mcp_argv[] = {
			"/bin/sh", "-c",
			"sleep 3 | \"$0\" --log-level info 2>&1 >/dev/null",
			CUA_MCP_EXE, NULL
		};

		assert_int_equal(run_command(mcp_argv, out, sizeof(out)), 0);
		if (!strstr(out, "cua-mcp: info: desktop: session x11, "
				 "display ") ||
		    !strstr(out, "driver x11 (") ||
		    !strstr(out, "; tree: works, element actions: works, "
				 "screenshot: works, pointer: works, "
				 "keyboard: works, windows: works, "
				 "geometry: works\n"))
			fail_msg("cua-mcp logged no line of the desktop's "
				 "facts:\n%s",
				 out);
	}

	/* the driver off: each capability says why, the tree still works */
	setenv("CUA_DISPLAY", "none", 1);
	assert_int_equal(run_command(text_argv, out, sizeof(out)), 0);
	unsetenv("CUA_DISPLAY");
	assert_doctor_line(out, "Driver:", "none, forced: " OFF_ENV "\n");
	assert_doctor_line(out, "Tree:", "works: ");
	assert_doctor_line(out, "Element actions:", "works\n");
	for (size_t i = 0;
	     i < sizeof(doctor_display_labels) / sizeof(*doctor_display_labels);
	     i++)
		assert_doctor_line(out, doctor_display_labels[i],
				   "unavailable: " OFF_ENV "\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none_reads_and_acts),
		cmocka_unit_test(test_none_refuses),
		cmocka_unit_test(test_option_switches),
		cmocka_unit_test(test_doctor),
	};

	return run_test_group("display", tests, setup, app_session_teardown);
}
