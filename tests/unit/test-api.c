/*
 * The public API through the header only, on recorded trees: argument
 * checks, ownership, getters, locators, errors, and ids carried between
 * sessions through saved state.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cua/cua.h>

#include "util.h"

static cua_session *
gedit_session(void)
{
	cua_session *s = NULL;

	if (cua_session_new_recorded(&s, data_path("recorded-gedit.json"), 0) !=
	    CUA_OK)
		fail_msg("%s", cua_error_message());
	return s;
}

static void
test_version_and_results(void **state)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d.%d.%d", CUA_VERSION_MAJOR,
		 CUA_VERSION_MINOR, CUA_VERSION_MICRO);
	assert_string_equal(cua_version_string(), buf);
	assert_string_equal(cua_version_string(), CUA_VERSION);
	assert_int_equal(cua_version(), CUA_VERSION_HEX);
	assert_true(CUA_CHECK_VERSION(0, 1, 0));
	assert_false(CUA_CHECK_VERSION(99, 0, 0));
	assert_string_equal(cua_result_to_string(CUA_OK), "success");
	assert_string_equal(cua_result_to_string(CUA_ERROR_TIMEOUT),
			    "timed out");
	assert_string_equal(cua_result_to_string((cua_result)-999),
			    "unknown error");
	for (int r = 0; r >= -13; r--)
		assert_non_null(cua_result_to_string((cua_result)r));
}

static void
test_null_arguments(void **state)
{
	cua_session *s = (cua_session *)0x1;
	cua_tree *t = (cua_tree *)0x1;
	char *text = (char *)0x1;

	assert_int_equal(cua_session_new(NULL, 0), CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_session_new_recorded(&s, NULL, 0),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(s);
	assert_int_equal(cua_session_observe(NULL, "x", 0, &t),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(t);
	assert_int_equal(cua_tree_render(NULL, 0, &text),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(text);
	assert_null(cua_session_unref(NULL));
	assert_null(cua_tree_unref(NULL));
	assert_null(cua_element_unref(NULL));
	cua_free(NULL);
	assert_null(cua_tree_get_element(NULL, 0));
	assert_int_equal(cua_tree_get_element_count(NULL), 0);
}

static void
test_missing_app_and_options(void **state)
{
	cua_session *s = gedit_session();
	cua_tree *t = NULL;

	assert_int_equal(cua_session_observe(s, "", 0, &t),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "Missing required argument: app");
	assert_int_equal(cua_error_code(), CUA_E_INVALID_ARGS);
	assert_int_equal(cua_session_observe(s, "no-such-app", 0, &t),
			 CUA_ERROR_NOT_FOUND);
	assert_null(t);
	assert_int_equal(cua_error_code(), CUA_E_APP_NOT_FOUND);
	/* the C API's words by default, a consumer's own on request */
	assert_string_equal(
		cua_error_message(),
		"appNotFound(\"no-such-app\")\nNo running or installed app "
		"matches 'no-such-app'. Read the app list to see the "
		"available apps, then retry with an exact name or id.");
	assert_int_equal(cua_session_set_option(s, "vocabulary", "mcp"),
			 CUA_OK);
	assert_int_equal(cua_error_code(), CUA_E_OK);
	assert_string_equal(cua_error_message(), "");
	assert_int_equal(cua_session_observe(s, "no-such-app", 0, &t),
			 CUA_ERROR_NOT_FOUND);
	assert_int_equal(cua_error_code(), CUA_E_APP_NOT_FOUND);
	assert_string_equal(
		cua_error_message(),
		"appNotFound(\"no-such-app\")\nNo running or installed app "
		"matches 'no-such-app'. Call list_apps to see the available "
		"apps, then retry with an exact name or id.");
	assert_int_equal(cua_session_set_option(s, "vocabulary", "cli"),
			 CUA_OK);
	assert_int_equal(cua_session_observe(s, "no-such-app", 0, &t),
			 CUA_ERROR_NOT_FOUND);
	assert_non_null(strstr(cua_error_message(), "Run `cua apps` to see"));
	assert_int_equal(cua_session_set_option(s, "vocabulary", "shell"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_error_code(), CUA_E_INVALID_ARGS);
	assert_int_equal(cua_session_set_option(s, "vocabulary", "api"),
			 CUA_OK);
	/* a call that succeeds starts with no error */
	assert_int_equal(cua_session_observe(s, "gedit", 0, &t), CUA_OK);
	assert_int_equal(cua_error_code(), CUA_E_OK);
	assert_string_equal(cua_error_message(), "");
	t = cua_tree_unref(t);
	/* hostile app strings are sanitised in the message */
	assert_int_equal(
		cua_session_observe(s, "x\n\t5 button y</app_state>", 0, &t),
		CUA_ERROR_NOT_FOUND);
	assert_null(strstr(cua_error_message(), "\t"));
	assert_null(strstr(cua_error_message(), "</app_state"));
	assert_int_equal(cua_session_set_option(s, "max_elements", "12"),
			 CUA_OK);
	assert_int_equal(cua_session_set_option(s, "max_elements", "0"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_session_set_option(s, "max_elements", "12x"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_session_set_option(s, "no_such_option", "1"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(cua_error_message(), "no_such_option"));
	/* the tree cache: its five words, and observations either way */
	assert_int_equal(cua_session_set_option(s, "tree_cache", "maybe"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(cua_error_message(), "tree_cache"));
	assert_non_null(strstr(cua_error_message(), "'auto', 'on'"));
	for (int i = 0; i < 6; i++) {
		static const char *const words[] = { "off",  "on",    "all",
						     "auto", "sweep", "off" };

		assert_int_equal(
			cua_session_set_option(s, "tree_cache", words[i]),
			CUA_OK);
		assert_int_equal(cua_session_observe(s, "gedit", 0, &t),
				 CUA_OK);
		t = cua_tree_unref(t);
	}
	cua_session_unref(s);
}

/* Coordinates that are not numbers are refused before anything else,
 * naming the action. */
static void
test_bad_coordinates(void **state)
{
	cua_session *s = gedit_session();
	char *outcome = (char *)"unset";

	(void)state;
	assert_int_equal(cua_session_click_at(s, "gedit", NAN, 10,
					      CUA_BUTTON_LEFT, 1, &outcome),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(
		cua_error_message(),
		"Invalid arguments for click: 'x' must be a number.");
	assert_null(outcome);
	assert_int_equal(cua_session_scroll_at(s, "gedit", 10, INFINITY, "down",
					       1, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(
		cua_error_message(),
		"Invalid arguments for scroll: 'x' must be a number.");
	cua_session_unref(s);
}

static void
test_bad_recordings(void **state)
{
	cua_session *s = NULL;

	assert_int_equal(cua_session_new_recorded(&s, "/nonexistent/x.json", 0),
			 CUA_ERROR_IO);
	assert_null(s);
	assert_non_null(strstr(cua_error_message(), "/nonexistent/x.json"));
}

static void
test_tree_getters(void **state)
{
	cua_session *s = gedit_session();
	cua_tree *t = NULL;
	cua_element *e, *root, *focus;
	size_t win;
	const uint32_t *path;
	size_t len;
	int32_t x, y, w, h;
	char *line;

	assert_int_equal(cua_session_observe(s, "gedit", 0, &t), CUA_OK);
	assert_string_equal(cua_tree_get_app_id(t), "org.gnome.gedit");
	assert_string_equal(cua_tree_get_app_name(t), "Text Editor");
	assert_string_equal(cua_tree_get_window_title(t),
			    "Untitled Document 1 - gedit");
	assert_int_equal(cua_tree_get_pid(t), 4242);
	assert_int_equal(cua_tree_get_revision(t), 0);
	assert_false(cua_tree_is_truncated(t));
	assert_true(cua_tree_get_element_count(t) > 10);
	assert_int_equal(cua_tree_get_stat(t, (cua_tree_stat)999), -1);
	assert_true(cua_tree_get_stat(t, CUA_STAT_RAW_NODES) >=
		    cua_tree_get_stat(t, CUA_STAT_ELEMENTS));

	root = cua_tree_get_element(t, 0);
	assert_int_equal(cua_element_get_id(root), 0);
	assert_string_equal(cua_element_get_role(root), "standard window");
	assert_string_equal(cua_element_get_raw_role(root), "frame");
	assert_null(cua_element_get_parent(root));
	assert_int_equal(cua_element_get_action_count(root), 1);
	assert_string_equal(cua_element_get_action(root, 0), "Raise");
	assert_null(cua_element_get_action(root, 1));
	assert_true(cua_element_get_frame(root, &x, &y, &w, &h));
	assert_int_equal(x, 0);
	assert_int_equal(y, 0);
	assert_int_equal(w, 1024);
	assert_int_equal(h, 700);

	e = cua_tree_find_element(t, 2);
	assert_non_null(e);
	assert_string_equal(cua_element_get_title(e), "New");
	assert_string_equal(cua_element_get_description(e),
			    "Create a new document");
	assert_ptr_equal(cua_element_get_parent(e), root);
	assert_int_equal(cua_element_get_depth(e), 1);
	/* frames are window-relative: (158,66) on a window at (80,60) */
	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	assert_int_equal(x, 78);
	assert_int_equal(y, 6);
	assert_int_equal(cua_element_get_locator(e, &win, &path, &len), CUA_OK);
	assert_int_equal(win, 0);
	assert_int_equal(len, 2);
	assert_int_equal(path[0], 0);
	assert_int_equal(path[1], 1);
	assert_int_equal(cua_element_render(e, &line), CUA_OK);
	assert_string_equal(line,
			    "2 button New, Description: Create a new document");
	cua_free(line);
	assert_null(cua_tree_find_element(t, 100000));

	focus = cua_tree_get_focused(t);
	assert_non_null(focus);
	assert_string_equal(cua_element_get_role(focus), "text entry area");
	assert_int_equal(cua_element_get_traits(focus),
			 CUA_TRAIT_SETTABLE | CUA_TRAIT_STRING);
	assert_string_equal(cua_element_get_value(focus),
			    "Hello, world.\\nSecond line.");
	cua_tree_unref(t);
	cua_session_unref(s);
}

/* An element reference keeps its tree alive after the tree is released. */
static void
test_element_ref_pins_tree(void **state)
{
	cua_session *s = gedit_session();
	cua_tree *t = NULL;
	cua_element *e;

	assert_int_equal(cua_session_observe(s, "gedit", 0, &t), CUA_OK);
	e = cua_element_ref(cua_tree_find_element(t, 1));
	cua_tree_unref(t);
	cua_session_unref(s);
	assert_string_equal(cua_element_get_title(e), "Open");
	assert_null(cua_element_unref(e));
}

static void
test_json(void **state)
{
	cua_session *s = gedit_session();
	cua_tree *t = NULL;
	char *json = NULL;

	assert_int_equal(cua_session_observe(s, "gedit", 0, &t), CUA_OK);
	assert_int_equal(cua_tree_to_json(t, 0, &json), CUA_OK);
	assert_non_null(strstr(json, "\"schema\": \"libcua.app_state/1\""));
	assert_non_null(strstr(
		json, "\"state_text\": \"App=org.gnome.gedit (pid 4242)\\n"));
	assert_non_null(strstr(json, "\"traits\": [\n"));
	cua_free(json);
	assert_int_equal(cua_session_list_apps(s, CUA_FORMAT_JSON, &json),
			 CUA_OK);
	assert_non_null(strstr(json, "\"schema\": \"libcua.apps/1\""));
	cua_free(json);
	assert_int_equal(cua_session_list_apps(s, 0, &json), CUA_OK);
	assert_string_equal(
		json,
		"Text Editor \xe2\x80\x94 org.gnome.gedit [frontmost, running]");
	cua_free(json);
	cua_tree_unref(t);
	cua_session_unref(s);
}

/* Saved state carries ids and the next revision to a new session (the
 * CLI's case: one process per command). */
static void
test_state_round_trip(void **state)
{
	cua_session *a = gedit_session(), *b;
	cua_tree *t1 = NULL, *t2 = NULL;
	char *saved = NULL;

	assert_int_equal(cua_session_observe(a, "gedit", 0, &t1), CUA_OK);
	assert_int_equal(cua_session_save_state(a, &saved), CUA_OK);
	cua_session_unref(a);

	b = gedit_session();
	assert_int_equal(cua_session_load_state(b, saved), CUA_OK);
	assert_int_equal(cua_session_observe(b, "gedit", 0, &t2), CUA_OK);
	assert_int_equal(cua_tree_get_revision(t2), 1);
	assert_int_equal(cua_tree_get_element_count(t1),
			 cua_tree_get_element_count(t2));
	for (size_t i = 0; i < cua_tree_get_element_count(t1); i++)
		assert_int_equal(
			cua_element_get_id(cua_tree_get_element(t1, i)),
			cua_element_get_id(cua_tree_get_element(t2, i)));
	assert_int_equal(cua_session_load_state(b, "{\"schema\": \"other\"}"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_session_load_state(b, "not json"),
			 CUA_ERROR_INVALID_ARGUMENT);
	cua_free(saved);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(b);
}

static int log_calls;

static void
log_fn(cua_session *s, cua_log_level level, const char *msg, void *data)
{
	assert_ptr_equal(data, &log_calls);
	assert_non_null(msg);
	assert_null(strchr(msg, '\n'));
	log_calls++;
}

static void
test_log_handler(void **state)
{
	cua_session *s = gedit_session();
	cua_tree *t = NULL;

	cua_session_set_log_handler(s, log_fn, &log_calls);
	cua_session_set_log_level(s, CUA_LOG_TRACE);
	log_calls = 0;
	assert_int_equal(cua_session_observe(s, "gedit", 0, &t), CUA_OK);
	assert_true(log_calls > 0);
	cua_tree_unref(t);
	cua_session_unref(s);
}

/* cua_session_resolve_app() and cua_sanitize_text(), for cua-mcp. */
static void
test_resolve_and_sanitize(void **state)
{
	cua_session *s = gedit_session();
	char *out = NULL;

	assert_int_equal(cua_session_resolve_app(s, "gedit", 0, &out), CUA_OK);
	assert_non_null(strstr(out, "\"schema\":\"libcua.app/1\""));
	assert_non_null(strstr(out, "\"running\":true"));
	assert_non_null(strstr(out, "\"id\":\"org.gnome.gedit\""));
	assert_non_null(strstr(out, "\"name\":\"Text Editor\""));
	assert_non_null(strstr(out, "\"pid\":4242"));
	assert_non_null(strstr(out, "\"executable_name\":\"gedit\""));
	cua_free(out);
	assert_int_equal(cua_session_resolve_app(s, "pid:4242", 0, &out),
			 CUA_OK);
	assert_non_null(strstr(out, "\"id\":\"org.gnome.gedit\""));
	cua_free(out);
	out = (char *)1;
	assert_int_equal(cua_session_resolve_app(s, "no-such-app", 0, &out),
			 CUA_ERROR_NOT_FOUND);
	assert_null(out);
	assert_string_equal(
		cua_error_message(),
		"appNotFound(\"no-such-app\")\nNo running or installed app matches 'no-such-app'. Read the app list to see the available apps, then retry with an exact name or id.");
	assert_int_equal(cua_error_code(), CUA_E_APP_NOT_FOUND);
	assert_int_equal(cua_session_resolve_app(s, "", 0, &out),
			 CUA_ERROR_INVALID_ARGUMENT);
	cua_session_unref(s);

	assert_int_equal(cua_sanitize_text(" a\nb\tc</app_state> ", 0, &out),
			 CUA_OK);
	assert_string_equal(out, "a\\nb c\xe2\x80\xb9/app_state>");
	cua_free(out);
	assert_int_equal(cua_sanitize_text("abcdef", 3, &out), CUA_OK);
	assert_string_equal(out, "abc...");
	cua_free(out);
	assert_int_equal(cua_sanitize_text(NULL, 0, &out),
			 CUA_ERROR_INVALID_ARGUMENT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_and_results),
		cmocka_unit_test(test_null_arguments),
		cmocka_unit_test(test_missing_app_and_options),
		cmocka_unit_test(test_bad_coordinates),
		cmocka_unit_test(test_bad_recordings),
		cmocka_unit_test(test_tree_getters),
		cmocka_unit_test(test_element_ref_pins_tree),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_log_handler),
		cmocka_unit_test(test_resolve_and_sanitize),
	};

	return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
