/*
 * The recorded backend's loader: every field of `libcua.recording/1`
 * lands in the raw nodes, the app's defaults, and the errors of bad and
 * hostile recordings.
 *
 * JSON in this file is written with single quotes, turned into double
 * quotes before loading (no test string contains an apostrophe).
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

#include "backend/backend.h"
#include "core/roles.h"
#include "rec-backend.h"

/* Loads json, expects `code` and an error message containing each of
 * the NULL-terminated needles. */
static void
expect_error(const char *json, cua_result code, ...)
{
	struct cua_backend *b = (struct cua_backend *)1;
	const char *needle;
	va_list ap;

	assert_int_equal(load_str(json, &b), code);
	assert_null(b);
	va_start(ap, code);
	while ((needle = va_arg(ap, const char *)))
		if (!strstr(cua_error_get(), needle))
			fail_msg("error \"%s\" lacks \"%s\"", cua_error_get(),
				 needle);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Loading: every field lands in the raw nodes                         */

static void
test_load_every_field(void **state)
{
	struct cua_backend *b = load_ok(full_json);
	struct cua_app_list *apps = NULL;
	struct cua_raw_snapshot *snap = open_fetch(b, &everything, &apps);
	const struct cua_raw_node *app = snap->app, *frame, *n;
	const struct cua_app_info *ai = &apps->apps[0];

	/* app */
	assert_int_equal(ai->pid, 4242);
	assert_int_equal(ai->start_time, 123);
	assert_string_equal(ai->exe, "/usr/bin/gedit");
	assert_string_equal(ai->exe_base, "gedit");
	assert_string_equal(ai->bus_name, ":1.42");
	assert_string_equal(ai->app_id, "org.gnome.gedit");
	assert_string_equal(ai->app_name, "Text Editor");
	assert_string_equal(ai->atspi_name, "gedit");
	assert_string_equal(ai->desktop_id, "org.gnome.gedit");
	assert_string_equal(ai->desktop_file,
			    "/usr/share/applications/org.gnome.gedit.desktop");
	assert_string_equal(ai->desktop_name, "Texteditor");
	assert_string_equal(ai->desktop_name_c, "Text Editor");
	assert_string_equal(ai->wm_class_class, "Gedit");
	assert_string_equal(ai->wm_class_instance, "gedit");
	assert_string_equal(ai->toolkit, "GTK");
	assert_string_equal(ai->toolkit_version, "3.24.38");
	assert_int_equal(ai->frontmost, 1);
	assert_int_equal(ai->accessible, 1);
	assert_int_equal(ai->n_windows, 2);

	/* windows */
	assert_non_null(snap->windows);
	assert_int_equal(snap->windows[0].x11_window, 4194310);
	assert_int_equal(snap->windows[0].x11_active, 1);
	assert_int_equal(snap->windows[0].x11_mapped, 1);
	assert_string_equal(snap->windows[0].x11_title, "Untitled - gedit");
	assert_int_equal(snap->windows[0].has_x11_frame, 1);
	assert_int_equal(snap->windows[0].x11_frame.x, 80);
	assert_int_equal(snap->windows[0].x11_frame.h, 700);
	assert_int_equal(snap->windows[0].activation_serial, 3);
	assert_int_equal(snap->windows[1].x11_window, 77);
	assert_int_equal(snap->windows[1].x11_active, 0);
	assert_int_equal(snap->windows[1].x11_mapped, 1); /* x11_window set */
	assert_null(snap->windows[1].x11_title);
	assert_int_equal(snap->windows[1].has_x11_frame, 0);

	/* application node */
	assert_string_equal(app->ident, "rec:/");
	assert_int_equal(app->role, CUA_ROLE_APPLICATION);
	assert_string_equal(app->name, "gedit");
	assert_int_equal(app->n_children, 2);
	assert_int_equal(app->child_count, 2);
	assert_int_equal(app->index_in_parent, -1);
	assert_true(app->have & CUA_HAVE_CHILDREN);

	/* toplevel */
	frame = child(app, 0);
	assert_string_equal(frame->ident, "obj:frame");
	assert_int_equal(frame->role, CUA_ROLE_FRAME);
	assert_ptr_equal(frame->parent, app);
	assert_int_equal(frame->index_in_parent, 0);
	assert_int_equal(frame->x11_window, 4194310);
	assert_int_equal(frame->states,
			 (UINT64_C(1) << CUA_STATE_ACTIVE) |
				 (UINT64_C(1) << CUA_STATE_SHOWING) |
				 (UINT64_C(1) << CUA_STATE_VISIBLE) |
				 (UINT64_C(1) << CUA_STATE_ENABLED) |
				 (UINT64_C(1) << CUA_STATE_SENSITIVE));
	assert_int_equal(frame->ifaces, CUA_IFACE_COMPONENT);
	assert_int_equal(frame->extents.w, 1024);
	assert_int_equal(frame->n_children, 11);
	assert_int_equal(child(app, 1)->x11_window, 77);
	assert_string_equal(child(app, 1)->ident, "rec:/1");
	assert_true(CUA_HAS_STATE(child(app, 1), CUA_STATE_ICONIFIED));

	/* the text entry: every string piece */
	n = child(frame, 0);
	assert_ptr_equal(snap->focused, n);
	assert_string_equal(snap->focused_ident, "obj:entry");
	assert_int_equal(n->role, CUA_ROLE_TEXT);
	assert_string_equal(n->name, "Body");
	assert_string_equal(n->description, "the text");
	assert_string_equal(n->help, "type here");
	assert_string_equal(n->accessible_id, "body-view");
	assert_string_equal(n->text, "Hello world");
	assert_string_equal(n->labelled_by, "Body label");
	assert_int_equal(n->sel_start, 0);
	assert_int_equal(n->sel_end, 5);
	assert_int_equal(n->extents.x, 90);
	assert_int_equal(n->extents.y, 100);
	assert_int_equal(n->extents.w, 500);
	assert_int_equal(n->extents.h, 300);
	assert_true(CUA_HAS_STATE(n, CUA_STATE_EDITABLE));
	assert_true(CUA_HAS_STATE(n, CUA_STATE_FOCUSED));
	assert_true(CUA_HAS_STATE(n, CUA_STATE_MULTI_LINE));
	assert_true(CUA_HAS_STATE(n, CUA_STATE_MANAGES_DESCENDANTS));
	assert_true(CUA_HAS_STATE(n, CUA_STATE_READ_ONLY));
	assert_true(CUA_HAS_STATE(n, CUA_STATE_HAS_TOOLTIP));
	assert_true(CUA_HAS_STATE(n, CUA_STATE_SUPPORTS_AUTOCOMPLETION));
	assert_true(CUA_HAS_STATE(n, CUA_STATE_COLLAPSED)); /* bit 5 */
	assert_true((n->states >> 50) & 1);
	assert_false(CUA_HAS_STATE(n, CUA_STATE_SHOWING));
	/* inferred: extents, text, editable text, actions */
	assert_int_equal(n->ifaces, CUA_IFACE_COMPONENT | CUA_IFACE_TEXT |
					    CUA_IFACE_EDITABLE_TEXT |
					    CUA_IFACE_ACTION);
	assert_int_equal(n->n_attrs, 2);
	assert_string_equal(n->attrs[0].key, "placeholder-text");
	assert_string_equal(n->attrs[0].value, "Type");
	assert_string_equal(n->attrs[1].key, "level");
	assert_null(n->attrs[1].value);
	assert_int_equal(n->n_actions, 3);
	assert_string_equal(n->actions[0].name, "activate");
	assert_null(n->actions[0].localized);
	assert_null(n->actions[0].description);
	assert_string_equal(n->actions[1].name, "copy");
	assert_string_equal(n->actions[1].localized, "Copy");
	assert_string_equal(n->actions[1].description, "Copies");
	assert_null(n->actions[2].name);
	assert_string_equal(n->actions[2].localized, "Only localized");
	assert_int_equal(n->have,
			 CUA_HAVE_BASIC | CUA_HAVE_DESCRIPTION | CUA_HAVE_HELP |
				 CUA_HAVE_ID | CUA_HAVE_ATTRIBUTES |
				 CUA_HAVE_ACTIONS | CUA_HAVE_RELATIONS |
				 CUA_HAVE_CHILDREN | CUA_HAVE_TEXT |
				 CUA_HAVE_TEXT_SELECTION | CUA_HAVE_EXTENTS);
	assert_int_equal(n->table_row, -1);
	assert_int_equal(n->index_in_parent, 0);
	assert_string_equal(cua_raw_attr(n, "placeholder-text"), "Type");

	/* value, generated ids, defaults of a minimal node */
	n = child(frame, 1);
	assert_string_equal(n->ident, "rec:/0/1");
	assert_int_equal(n->role, CUA_ROLE_SLIDER);
	assert_null(n->name);
	assert_null(n->description);
	assert_int_equal(n->states, 0);
	assert_int_equal(n->ifaces, CUA_IFACE_VALUE);
	assert_true(n->value == 2.5);
	assert_true(n->value_min == 0);
	assert_true(n->value_max == 10);
	assert_true(n->value_step == 0.5);
	assert_string_equal(n->value_text, "two and a half");
	assert_int_equal(n->have,
			 CUA_HAVE_BASIC | CUA_HAVE_DESCRIPTION | CUA_HAVE_HELP |
				 CUA_HAVE_ID | CUA_HAVE_ATTRIBUTES |
				 CUA_HAVE_ACTIONS | CUA_HAVE_RELATIONS |
				 CUA_HAVE_CHILDREN | CUA_HAVE_VALUE);
	assert_int_equal(cua_raw_value_kind(n), CUA_VALUE_NUMBER);

	n = child(frame, 2);
	assert_string_equal(n->link_uri, "https://example.org/");
	assert_int_equal(n->ifaces, CUA_IFACE_HYPERLINK);
	assert_true(n->have & CUA_HAVE_LINK);

	n = child(frame, 3);
	assert_string_equal(n->selected_child_name, "Medium");
	assert_int_equal(n->ifaces, CUA_IFACE_ACTION | CUA_IFACE_SELECTION);
	assert_true(n->have & CUA_HAVE_SELECTION);

	n = child(frame, 4);
	assert_int_equal(n->table_row, 7);
	assert_int_equal(n->ifaces, 0); /* explicit [] beats inference */
	assert_true(n->have & CUA_HAVE_TABLE_ROW);

	/* a range of children */
	n = child(frame, 5);
	assert_int_equal(n->child_count, 100);
	assert_int_equal(n->child_offset, 10);
	assert_int_equal(n->n_children, 2);
	assert_int_equal(n->children_partial, 1);
	assert_true(n->have & CUA_HAVE_CHILDREN);
	assert_string_equal(child(n, 0)->ident, "rec:/0/5/10");
	assert_int_equal(child(n, 0)->index_in_parent, 10);
	assert_null(child(n, 1)->ident); /* "id": null: synthetic */
	assert_int_equal(child(n, 1)->index_in_parent, 11);

	n = child(frame, 6);
	assert_int_equal(n->child_count, 2);
	assert_int_equal(n->n_children, 1);
	assert_int_equal(n->children_partial, 0); /* explicit */

	/* children not read: child_count without children */
	n = child(frame, 7);
	assert_int_equal(n->child_count, 4);
	assert_int_equal(n->n_children, 0);
	assert_false(n->have & CUA_HAVE_CHILDREN);

	n = child(frame, 8);
	assert_int_equal(n->have, CUA_HAVE_BASIC | CUA_HAVE_HELP | CUA_HAVE_ID |
					  CUA_HAVE_ATTRIBUTES |
					  CUA_HAVE_ACTIONS |
					  CUA_HAVE_RELATIONS);

	/* no basic fields: like live, no details are read */
	n = child(frame, 9);
	assert_int_equal(n->role, CUA_ROLE_ANIMATION);
	assert_int_equal(n->have, 0);
	assert_null(n->help);

	n = child(frame, 10);
	assert_int_equal(n->role, CUA_ROLE_UNKNOWN);
	assert_true(isnan(n->value));
	assert_true(isinf(n->value_max) && n->value_max > 0);
	assert_true(isinf(n->value_min) && n->value_min < 0);
	assert_true(n->value_step == 0);
	assert_null(n->value_text);

	assert_int_equal(snap->stats.calls, 0);
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	b->ops->destroy(b);
}

static void
test_app_defaults(void **state)
{
	struct cua_backend *b;
	struct cua_app_list *apps = NULL;
	const struct cua_app_info *ai;

	b = load_ok("{ 'schema': 'libcua.recording/1',"
		    "  'root': { 'role': 'application', 'name': 'calc',"
		    "            'children': [ { 'role': 'frame' } ] } }");
	assert_int_equal(b->ops->list_apps(b, &apps), CUA_OK);
	ai = &apps->apps[0];
	assert_string_equal(ai->app_id, "calc");
	assert_string_equal(ai->app_name, "calc");
	assert_string_equal(ai->atspi_name, "calc");
	assert_int_equal(ai->pid, 4194304);
	assert_int_equal(ai->start_time, 0);
	assert_int_equal(ai->n_windows, 1);
	assert_int_equal(ai->accessible, 1);
	assert_int_equal(ai->frontmost, 0);
	assert_null(ai->exe);
	assert_null(ai->exe_base);
	assert_non_null(ai->bus_name);
	assert_int_equal(b->ops->process_alive(b, 4194304, 0), 1);
	assert_int_equal(b->ops->process_alive(b, 4194304, 1), 0);
	assert_int_equal(b->ops->process_alive(b, 1, 0), 0);
	cua_app_list_free(apps);
	b->ops->destroy(b);

	/* No name anywhere: "recorded"; an active window makes it
	 * frontmost. */
	b = load_ok("{ 'schema': 'libcua.recording/1',"
		    "  'windows': [ { 'x11_window': 5, 'active': true } ],"
		    "  'root': { 'role': 'application',"
		    "            'children': [ { 'role': 'frame' } ] } }");
	assert_int_equal(b->ops->list_apps(b, &apps), CUA_OK);
	assert_string_equal(apps->apps[0].app_id, "recorded");
	assert_string_equal(apps->apps[0].app_name, "recorded");
	assert_int_equal(apps->apps[0].frontmost, 1);
	cua_app_list_free(apps);
	b->ops->destroy(b);
}

/* ------------------------------------------------------------------ */
/* Errors and hostile recordings                                       */

static void
test_load_errors(void **state)
{
	struct cua_backend *b = (struct cua_backend *)1;

	assert_int_equal(cua_backend_recorded_new(&test_ctx,
						  "/nonexistent/rec.json", &b),
			 CUA_ERROR_IO);
	assert_null(b);
	assert_non_null(strstr(cua_error_get(), "/nonexistent/rec.json"));
	assert_non_null(strstr(cua_error_get(), "No such file"));
	assert_int_equal(cua_backend_recorded_new(&test_ctx, "/tmp", &b),
			 CUA_ERROR_IO);
	assert_non_null(strstr(cua_error_get(), "directory"));

	expect_error(
		"{\n 'schema': 'libcua.recording/1',\n 'root': {\n  'role': 'frame',,\n }\n}",
		CUA_ERROR_INVALID_ARGUMENT, "line 4", "column", NULL);
	expect_error("", CUA_ERROR_INVALID_ARGUMENT, "line 1", NULL);
	expect_error("[]", CUA_ERROR_INVALID_ARGUMENT, "top level", NULL);
	expect_error(
		"{ 'schema': 'libcua.recording/2', 'root': { 'role': 'frame' } }",
		CUA_ERROR_INVALID_ARGUMENT, "schema", "libcua.recording/1",
		NULL);
	expect_error("{ 'root': { 'role': 'frame' } }",
		     CUA_ERROR_INVALID_ARGUMENT, "schema", NULL);
	expect_error(HEAD "'roots': {} }", CUA_ERROR_INVALID_ARGUMENT,
		     "unknown key \"roots\"", NULL);
	expect_error(HEAD "'focused': 'x' }", CUA_ERROR_INVALID_ARGUMENT,
		     "\"root\" is missing", NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'children': [ { 'name': 'x' } ] } }",
		CUA_ERROR_INVALID_ARGUMENT, "node /0:", "role", NULL);
	expect_error(HEAD
		     "'root': { 'role': 'application', 'children': ["
		     "{ 'role': 'frame' }, { 'role': 'frame', 'children': ["
		     "{ 'role': 'push_button' } ] } ] } }",
		     CUA_ERROR_INVALID_ARGUMENT,
		     "node /1/0:", "unknown role \"push_button\"", NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'children': ["
		"{ 'role': 'frame', 'states': ['showing', 'multiline'] } ] } }",
		CUA_ERROR_INVALID_ARGUMENT,
		"node /0:", "unknown state \"multiline\"", NULL);
	expect_error(HEAD "'root': { 'role': 'application', 'states': [64] } }",
		     CUA_ERROR_INVALID_ARGUMENT, "node /:", "states", NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'interfaces': ['Text', 'Txt'] } }",
		CUA_ERROR_INVALID_ARGUMENT, "unknown interface \"Txt\"", NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'state': ['showing'] } }",
		CUA_ERROR_INVALID_ARGUMENT, "unknown key \"state\"", NULL);
	expect_error(HEAD "'root': { 'role': 'application', 'name': 5 } }",
		     CUA_ERROR_INVALID_ARGUMENT, "\"name\" must be a string",
		     NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'extents': [1, 2, 3] } }",
		CUA_ERROR_INVALID_ARGUMENT, "extents", NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'extents': [1, 2, 3, 4294967296] } }",
		CUA_ERROR_INVALID_ARGUMENT, "extents", NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'value': { 'curent': 1 } } }",
		CUA_ERROR_INVALID_ARGUMENT, "unknown key \"curent\"", NULL);
	expect_error(HEAD
		     "'root': { 'role': 'application', 'actions': [ 3 ] } }",
		     CUA_ERROR_INVALID_ARGUMENT, "actions", NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'unread': ['colour'] } }",
		CUA_ERROR_INVALID_ARGUMENT, "colour", NULL);
	expect_error(HEAD
		     "'root': { 'role': 'application', 'child_offset': -1 } }",
		     CUA_ERROR_INVALID_ARGUMENT, "child_offset", NULL);
	expect_error(
		HEAD
		"'windows': [ {}, {} ], 'root': { 'role': 'application', 'children': [ { 'role': 'frame' } ] } }",
		CUA_ERROR_INVALID_ARGUMENT, "windows", "2 entries for 1", NULL);
	expect_error(
		HEAD
		"'windows': [ { 'x11_window': 'big' } ], 'root': { 'role': 'application', 'children': [ { 'role': 'frame' } ] } }",
		CUA_ERROR_INVALID_ARGUMENT, "windows[0]", "x11_window", NULL);
	expect_error(
		HEAD
		"'app': { 'pid': 'one' }, 'root': { 'role': 'application' } }",
		CUA_ERROR_INVALID_ARGUMENT, "app:", "pid", NULL);
	expect_error(
		HEAD
		"'root': { 'role': 'application', 'name': 'a', 'name': 'b' } }",
		CUA_ERROR_INVALID_ARGUMENT, "duplicate", NULL);
	expect_error(HEAD
		     "'root': { 'role': 'application', 'name': 'a\\u0000b' } }",
		     CUA_ERROR_INVALID_ARGUMENT, "line 1", NULL);
}

/* A chain of `levels` nested nodes. */
static char *
nested(int levels)
{
	static const char open[] = "{'role':'panel','children':[";
	size_t len = strlen(HEAD "'root':") +
		     (size_t)levels * (sizeof(open) + 4) + 64;
	char *s = malloc(len), *p = s;
	int i;

	assert_non_null(s);
	p += sprintf(p, HEAD "'root':");
	for (i = 0; i < levels; i++)
		p += sprintf(p, "%s", open);
	p += sprintf(p, "{'role':'label'}");
	for (i = 0; i < levels; i++)
		p += sprintf(p, "]}");
	sprintf(p, "}");
	return s;
}

static void
test_hostile(void **state)
{
	struct cua_backend *b;
	struct cua_app_list *apps = NULL;
	struct cua_fetch_policy pol = { 0 };
	struct cua_raw_snapshot *snap;
	char *s, *big;
	size_t n = 8u << 20;

	/* 10,000 levels: jansson's own depth limit */
	s = nested(10000);
	expect_error(s, CUA_ERROR_INVALID_ARGUMENT, "depth", NULL);
	free(s);
	/* 257 levels below the root: ours, naming the node */
	s = nested(257);
	expect_error(s, CUA_ERROR_INVALID_ARGUMENT, "deeper than 256",
		     "node /0/0/0", NULL);
	free(s);
	/* 256 levels below the root are fine and replay to the end */
	s = nested(256);
	b = load_ok(s);
	free(s);
	snap = open_fetch(b, &everything, &apps);
	assert_int_equal(count_nodes(snap->app), 257);
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	b->ops->destroy(b);

	/* no max_raw_depth: 64 levels below the toplevel, as live */
	s = nested(70);
	b = load_ok(s);
	free(s);
	pol.details = all_details;
	snap = open_fetch(b, &pol, &apps);
	assert_int_equal(count_nodes(snap->app), 1 + 65);
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	b->ops->destroy(b);

	/* an 8 MiB name */
	big = malloc(n + 256);
	assert_non_null(big);
	s = big +
	    sprintf(big, HEAD
		    "'focused': 'dup', 'root': { 'role': 'application', 'children': ["
		    "{ 'id': 'dup', 'role': 'frame', 'name': '");
	memset(s, 'x', n);
	sprintf(s + n, "' }, { 'id': 'dup', 'role': 'frame' } ] } }");
	b = load_ok(big);
	free(big);
	snap = open_fetch(b, &everything, &apps);
	assert_int_equal(strlen(snap->app->children[0]->name), n);
	/* duplicate ids: the first one is the focused node */
	assert_ptr_equal(snap->focused, snap->app->children[0]);
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	b->ops->destroy(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_every_field),
		cmocka_unit_test(test_app_defaults),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
