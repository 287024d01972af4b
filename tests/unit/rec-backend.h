/*
 * Helpers for the tests of the recorded backend (test-recorded-load.c,
 * test-recorded-replay.c): loading recordings written with ' for ",
 * fetching a whole app, and the recording with every field of the
 * format.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_REC_BACKEND_H
#define CUA_TEST_REC_BACKEND_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"

#define HEAD "{ 'schema': 'libcua.recording/1', "

static struct cua_ctx test_ctx = { .log_level = CUA_LOG_WARNING };

/* Writes text (single quotes → double quotes when `quotes`) to a new
 * temporary file; returns its malloc'd path. */
static inline char *
write_tmp(const char *text, int quotes)
{
	char *path = strdup("/tmp/test-recorded-XXXXXX");
	size_t i, n = strlen(text);
	FILE *f;
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < n; i++)
		fputc(quotes && text[i] == '\'' ? '"' : text[i], f);
	assert_int_equal(fclose(f), 0);
	return path;
}

static inline cua_result
load_str(const char *json, struct cua_backend **b)
{
	char *path = write_tmp(json, 1);
	cua_result r = cua_backend_recorded_new(&test_ctx, path, b);

	unlink(path);
	free(path);
	return r;
}

static inline struct cua_backend *
load_ok(const char *json)
{
	struct cua_backend *b = NULL;

	if (load_str(json, &b) != CUA_OK)
		fail_msg("load failed: %s", cua_error_get());
	assert_non_null(b);
	return b;
}

static inline uint32_t
all_details(void *ud, const struct cua_raw_node *n, int depth)
{
	return ~0u;
}

static inline int
always(void *ud, const struct cua_raw_node *n, int depth)
{
	return 1;
}

static const struct cua_fetch_policy everything = {
	.details = all_details,
	.descend = always,
	.max_raw_depth = 1000,
	.max_nodes = 1000000,
};

/* The app, opened and with every toplevel fetched under `pol`. */
static inline struct cua_raw_snapshot *
open_fetch(struct cua_backend *b, const struct cua_fetch_policy *pol,
	   struct cua_app_list **apps)
{
	struct cua_raw_snapshot *snap = NULL;

	assert_int_equal(b->ops->list_apps(b, apps), CUA_OK);
	assert_int_equal((*apps)->n, 1);
	assert_int_equal(b->ops->open_app(b, &(*apps)->apps[0], &snap), CUA_OK);
	assert_non_null(snap);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children,
				       snap->app->n_children, pol),
			 CUA_OK);
	return snap;
}

static inline const struct cua_raw_node *
child(const struct cua_raw_node *n, size_t i)
{
	assert_true(i < n->n_children);
	return n->children[i];
}

static inline size_t
count_nodes(const struct cua_raw_node *n)
{
	size_t i, c = 1;

	for (i = 0; i < n->n_children; i++)
		c += count_nodes(n->children[i]);
	return c;
}

/* Every key of the format, for the loader and for a round trip. */
static const char full_json[] =
	"{ 'schema': 'libcua.recording/1',\n"
	"  'comment': 'every key',\n"
	"  'app': { 'pid': 4242, 'start_time': 123, 'exe': '/usr/bin/gedit',\n"
	"           'app_id': 'org.gnome.gedit', 'app_name': 'Text Editor',\n"
	"           'atspi_name': 'gedit', 'desktop_id': 'org.gnome.gedit',\n"
	"           'desktop_file': '/usr/share/applications/org.gnome.gedit.desktop',\n"
	"           'desktop_name': 'Texteditor', 'desktop_name_c': 'Text Editor',\n"
	"           'wm_class_class': 'Gedit', 'wm_class_instance': 'gedit',\n"
	"           'bus_name': ':1.42',\n"
	"           'toolkit': 'GTK', 'toolkit_version': '3.24.38', 'frontmost': true },\n"
	"  'windows': [ { 'x11_window': 4194310, 'active': true, 'mapped': true,\n"
	"                 'title': 'Untitled - gedit', 'frame': [80, 60, 1024, 700],\n"
	"                 'activation': 3 },\n"
	"               { 'x11_window': 77 } ],\n"
	"  'focused': 'obj:entry',\n"
	"  'root': { 'role': 'application', 'name': 'gedit', 'children': [\n"
	"    { 'id': 'obj:frame', 'role': 'frame', 'name': 'Untitled - gedit',\n"
	"      'states': ['active', 'showing', 'visible', 'enabled', 'sensitive'],\n"
	"      'extents': [80, 60, 1024, 700], 'children': [\n"
	"        { 'id': 'obj:entry', 'role': 'text', 'name': 'Body',\n"
	"          'description': 'the text', 'help': 'type here',\n"
	"          'accessible_id': 'body-view',\n"
	"          'states': ['editable', 'focused', 'multi-line', 'manages-descendants', 'read-only', 'has-tooltip', 'supports-autocompletion', 5, 50],\n"
	"          'attributes': { 'placeholder-text': 'Type', 'level': null },\n"
	"          'actions': ['activate', { 'name': 'copy', 'localized': 'Copy', 'description': 'Copies' }, { 'localized': 'Only localized' }],\n"
	"          'text': 'Hello world', 'selection': [0, 5],\n"
	"          'extents': [90, 100, 500, 300], 'labelled_by': 'Body label' },\n"
	"        { 'role': 'slider', 'value': { 'current': 2.5, 'min': 0, 'max': 10, 'step': 0.5, 'text': 'two and a half' } },\n"
	"        { 'role': 'link', 'link_uri': 'https://example.org/' },\n"
	"        { 'role': 'combo box', 'selected_child_name': 'Medium', 'interfaces': ['Action', 'Selection'] },\n"
	"        { 'role': 'table cell', 'table_row': 7, 'interfaces': [] },\n"
	"        { 'role': 'tree', 'child_count': 100, 'child_offset': 10, 'children': [\n"
	"            { 'role': 'tree item', 'name': 'ten' },\n"
	"            { 'role': 'tree item', 'name': 'eleven', 'id': null } ] },\n"
	"        { 'role': 'list', 'child_count': 2, 'children': [ { 'role': 'list item' } ],\n"
	"          'children_partial': false },\n"
	"        { 'role': 'panel', 'child_count': 4 },\n"
	"        { 'role': 'label', 'unread': ['description', 'children'] },\n"
	"        { 'role': 3, 'unread': ['basic'], 'help': 'h' },\n"
	"        { 'role': 'unknown', 'value': { 'current': 'nan', 'max': 'inf', 'min': '-inf' } }\n"
	"      ] },\n"
	"    { 'role': 'window', 'states': ['iconified'] } ] } }\n";

#endif
