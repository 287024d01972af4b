/*
 * The recorded backend's ops on a loaded recording: listing and opening
 * the app, fetch under the walk policy, the focused node, and recordings
 * written by the writer and read back (round trips), and the golden
 * recordings of real apps rendered byte for byte.
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
#include <unistd.h>

#include <cua/cua.h>

#include "backend/backend.h"
#include "core/roles.h"
#include "core/session.h"
#include "rec-backend.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static int
never(void *ud, const struct cua_raw_node *n, int depth)
{
	return 0;
}

/* Records what the backend replays (everything fetched). */
static char *
record_backend(struct cua_backend *b)
{
	struct cua_app_list *apps = NULL;
	struct cua_raw_snapshot *snap = open_fetch(b, &everything, &apps);
	char *json = NULL;

	assert_int_equal(cua_record_to_json(&apps->apps[0], snap, &json),
			 CUA_OK);
	assert_non_null(json);
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	return json;
}

/* Loads JSON produced by the writer (double quotes already). */
static struct cua_backend *
load_json_text(const char *json)
{
	struct cua_backend *b = NULL;
	char *path = write_tmp(json, 0);

	if (cua_backend_recorded_new(&test_ctx, path, &b) != CUA_OK)
		fail_msg("load failed: %s", cua_error_get());
	unlink(path);
	free(path);
	return b;
}

static void
assert_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void
assert_same_double(double a, double b)
{
	if (isnan(a))
		assert_true(isnan(b));
	else
		assert_true(a == b);
}

/* Every field the format carries, recursively. */
static void
assert_nodes_equal(const struct cua_raw_node *a, const struct cua_raw_node *b)
{
	size_t i;

	assert_str(a->ident, b->ident);
	assert_int_equal(a->role, b->role);
	assert_int_equal(a->states, b->states);
	assert_int_equal(a->ifaces, b->ifaces);
	assert_int_equal(a->have, b->have);
	assert_str(a->name, b->name);
	if (a->have & CUA_HAVE_DESCRIPTION)
		assert_str(a->description, b->description);
	if (a->have & CUA_HAVE_HELP)
		assert_str(a->help, b->help);
	if (a->have & CUA_HAVE_ID)
		assert_str(a->accessible_id, b->accessible_id);
	if (a->have & CUA_HAVE_ATTRIBUTES) {
		assert_int_equal(a->n_attrs, b->n_attrs);
		for (i = 0; i < a->n_attrs; i++) {
			assert_str(a->attrs[i].key, b->attrs[i].key);
			assert_str(a->attrs[i].value, b->attrs[i].value);
		}
	}
	if (a->have & CUA_HAVE_ACTIONS) {
		assert_int_equal(a->n_actions, b->n_actions);
		for (i = 0; i < a->n_actions; i++) {
			assert_str(a->actions[i].name, b->actions[i].name);
			assert_str(a->actions[i].localized,
				   b->actions[i].localized);
			assert_str(a->actions[i].description,
				   b->actions[i].description);
		}
	}
	if (a->have & CUA_HAVE_VALUE) {
		assert_same_double(a->value, b->value);
		assert_same_double(a->value_min, b->value_min);
		assert_same_double(a->value_max, b->value_max);
		assert_same_double(a->value_step, b->value_step);
		assert_str(a->value_text, b->value_text);
	}
	if (a->have & CUA_HAVE_TEXT)
		assert_str(a->text, b->text);
	if (a->have & CUA_HAVE_TEXT_SELECTION) {
		assert_int_equal(a->sel_start, b->sel_start);
		assert_int_equal(a->sel_end, b->sel_end);
	}
	if (a->have & CUA_HAVE_EXTENTS)
		assert_memory_equal(&a->extents, &b->extents,
				    sizeof(a->extents));
	if (a->have & CUA_HAVE_RELATIONS)
		assert_str(a->labelled_by, b->labelled_by);
	if (a->have & CUA_HAVE_LINK)
		assert_str(a->link_uri, b->link_uri);
	if (a->have & CUA_HAVE_SELECTION)
		assert_str(a->selected_child_name, b->selected_child_name);
	if (a->have & CUA_HAVE_TABLE_ROW)
		assert_int_equal(a->table_row, b->table_row);
	assert_int_equal(a->child_count, b->child_count);
	assert_int_equal(a->child_offset, b->child_offset);
	assert_int_equal(a->children_partial, b->children_partial);
	assert_int_equal(a->index_in_parent, b->index_in_parent);
	assert_int_equal(a->x11_window, b->x11_window);
	assert_int_equal(a->n_children, b->n_children);
	for (i = 0; i < a->n_children; i++) {
		assert_ptr_equal(b->children[i]->parent, b);
		assert_nodes_equal(a->children[i], b->children[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Listing and opening                                                 */

static void
test_other_ops(void **state)
{
	struct cua_backend *b = load_ok(
		"{ 'schema': 'libcua.recording/1', 'app': { 'pid': 7, 'start_time': 9 },"
		"  'root': { 'role': 'application', 'children': [ { 'role': 'frame' } ] } }");
	struct cua_installed_list *inst = NULL;
	struct cua_installed_app ia = { .desktop_id = "org.example.App" };
	struct cua_app_info other = { .pid = 8, .start_time = 9 };
	struct cua_raw_snapshot *snap = (struct cua_raw_snapshot *)1;
	struct cua_raw_snapshot *s2 = NULL;
	struct cua_raw_node *foreign;
	int64_t pid = 99;

	assert_string_equal(b->ops->name, "recorded");
	assert_int_equal(b->ops->list_installed(b, &inst), CUA_OK);
	assert_non_null(inst);
	assert_int_equal(inst->n, 0);
	cua_installed_list_free(inst);

	assert_int_equal(b->ops->launch(b, &ia, &pid), CUA_ERROR_UNSUPPORTED);
	assert_non_null(strstr(cua_error_get(), "org.example.App"));

	assert_int_equal(b->ops->process_alive(b, 7, 9), 1);
	assert_int_equal(b->ops->process_alive(b, 7, 10), 0);

	assert_int_equal(b->ops->open_app(b, &other, &snap),
			 CUA_ERROR_NOT_FOUND);
	assert_null(snap);

	/* A root that is not a toplevel of the snapshot. */
	other.pid = 7;
	assert_int_equal(b->ops->open_app(b, &other, &s2), CUA_OK);
	foreign = cua_raw_node_new(s2);
	assert_int_equal(b->ops->fetch(b, s2, &foreign, 1, &everything),
			 CUA_ERROR_INVALID_ARGUMENT);
	cua_raw_snapshot_free(s2);
	b->ops->destroy(b);
}

/* open_app: toplevels carry basic fields and extents only; the
 * snapshots are independent copies. */
static void
test_open_app_copies(void **state)
{
	struct cua_backend *b = NULL;
	struct cua_app_list *apps = NULL;
	struct cua_raw_snapshot *s1 = NULL, *s2 = NULL;
	const struct cua_raw_node *t;

	assert_int_equal(
		cua_backend_recorded_new(&test_ctx,
					 data_path("recorded-gedit.json"), &b),
		CUA_OK);
	assert_int_equal(b->ops->list_apps(b, &apps), CUA_OK);
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &s1), CUA_OK);
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &s2), CUA_OK);
	assert_int_equal(s1->app->n_children, 2);
	t = s1->app->children[0];
	assert_int_equal(t->have, CUA_HAVE_BASIC | CUA_HAVE_EXTENTS);
	assert_int_equal(t->n_children, 0);
	assert_int_equal(t->child_count, 3);
	assert_string_equal(t->name, "Untitled Document 1 - gedit");
	assert_string_equal(s1->windows[0].x11_title,
			    "Untitled Document 1 - gedit");
	assert_true(s1->windows[0].x11_title != s2->windows[0].x11_title);
	assert_true(t->name != s2->app->children[0]->name);
	assert_null(s1->focused_ident);
	assert_int_equal(s1->stats.nodes, 3);
	cua_raw_snapshot_free(s1);
	/* s2 survives s1 */
	assert_string_equal(s2->app->children[1]->ident,
			    "gedit:/org/a11y/atspi/accessible/90");
	cua_raw_snapshot_free(s2);
	cua_app_list_free(apps);
	b->ops->destroy(b);
}

/* ------------------------------------------------------------------ */
/* Fetch and the walk policy                                           */

struct probe {
	int calls_details, calls_descend;
	int last_depth; /* details calls come level by level */
	int order_ok;
	uint32_t details;    /* what details() answers */
	int no_descend_role; /* descend() says no for this role */
	int max_depth_seen;
};

static uint32_t
probe_details(void *ud, const struct cua_raw_node *n, int depth)
{
	struct probe *p = ud;

	p->calls_details++;
	if (depth < p->last_depth)
		p->order_ok = 0;
	p->last_depth = depth;
	if (depth > p->max_depth_seen)
		p->max_depth_seen = depth;
	/* Only basic fields are known when details() is asked. */
	if (n->have & ~CUA_HAVE_BASIC & ~CUA_HAVE_EXTENTS)
		p->order_ok = 0;
	return p->details;
}

static int
probe_descend(void *ud, const struct cua_raw_node *n, int depth)
{
	struct probe *p = ud;

	p->calls_descend++;
	return (int)n->role != p->no_descend_role;
}

static const struct cua_raw_node *
find(const struct cua_raw_node *n, const char *name)
{
	const struct cua_raw_node *r;
	size_t i;

	if (n->name && strcmp(n->name, name) == 0)
		return n;
	for (i = 0; i < n->n_children; i++)
		if ((r = find(n->children[i], name)))
			return r;
	return NULL;
}

static void
test_fetch_policy(void **state)
{
	struct probe p = { .order_ok = 1,
			   .no_descend_role = CUA_ROLE_MENU,
			   .details = CUA_HAVE_ACTIONS | CUA_HAVE_TEXT };
	struct cua_fetch_policy pol = {
		.details = probe_details,
		.descend = probe_descend,
		.user_data = &p,
		.max_raw_depth = 64,
		.max_nodes = 20000,
	};
	struct cua_backend *b = NULL;
	struct cua_app_list *apps = NULL;
	struct cua_raw_snapshot *snap;
	const struct cua_raw_node *n;

	assert_int_equal(
		cua_backend_recorded_new(&test_ctx,
					 data_path("recorded-gedit.json"), &b),
		CUA_OK);
	snap = open_fetch(b, &pol, &apps);
	assert_true(p.order_ok);
	/* 2 toplevels + 12 under the frame + the menu under the popup */
	assert_int_equal(p.calls_details, 15);
	assert_int_equal(p.calls_descend, 15);
	assert_int_equal(snap->stats.calls, 0);
	assert_int_equal(snap->stats.nodes, 3 + 13);
	assert_int_equal(snap->stats.node_cap_hit, 0);
	assert_int_equal(snap->stats.deadline_hit, 0);

	/* asked-for pieces are there, the others are not */
	n = find(snap->app, "New");
	assert_non_null(n);
	assert_int_equal(n->have,
			 CUA_HAVE_BASIC | CUA_HAVE_ACTIONS | CUA_HAVE_CHILDREN);
	assert_int_equal(n->n_actions, 1);
	assert_null(n->description);
	assert_int_equal(n->extents.w, 0);
	n = find(snap->app, "Tab Width: 8");
	assert_null(n->selected_child_name);
	assert_null(n->labelled_by);
	n = snap->focused;
	assert_non_null(n);
	assert_string_equal(n->ident, "gedit:/org/a11y/atspi/accessible/42");
	assert_string_equal(n->text, "Hello, world.\nSecond line.");
	/* the focused node's selection comes without being asked for */
	assert_true(n->have & CUA_HAVE_TEXT_SELECTION);
	assert_int_equal(n->sel_end, 5);
	assert_false(find(snap->app, "Open")->have & CUA_HAVE_TEXT_SELECTION);
	assert_int_equal(n->n_attrs, 0);
	/* toplevels keep the extents open_app read */
	assert_true(snap->app->children[0]->have & CUA_HAVE_EXTENTS);

	/* descend() said no for the menu: child count, no children */
	n = snap->app->children[1]->children[0];
	assert_int_equal(n->role, CUA_ROLE_MENU);
	assert_int_equal(n->child_count, 3);
	assert_int_equal(n->n_children, 0);
	assert_false(n->have & CUA_HAVE_CHILDREN);
	cua_raw_snapshot_free(snap);

	/* max_raw_depth: depth-1 nodes exist, their children do not */
	memset(&p, 0, sizeof(p));
	p.order_ok = 1;
	p.details = ~0u;
	pol.max_raw_depth = 1;
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &snap), CUA_OK);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children, 1, &pol),
			 CUA_OK);
	assert_int_equal(p.max_depth_seen, 1);
	assert_int_equal(snap->app->children[0]->n_children, 3);
	n = snap->app->children[0]->children[0];
	assert_int_equal(n->n_children, 0);
	assert_int_equal(n->child_count, 5);
	assert_false(n->have & CUA_HAVE_CHILDREN);
	/* the second toplevel was not asked for */
	assert_int_equal(snap->app->children[1]->n_children, 0);
	/* the focused node is deeper than the walk went */
	assert_string_equal(snap->focused_ident,
			    "gedit:/org/a11y/atspi/accessible/42");
	assert_null(snap->focused);
	cua_raw_snapshot_free(snap);

	/* max_nodes counts the snapshot (3 from open_app): creation stops,
	 * the cap is reported */
	pol.max_raw_depth = 64;
	pol.max_nodes = 7;
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &snap), CUA_OK);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children,
				       snap->app->n_children, &pol),
			 CUA_OK);
	assert_int_equal(snap->stats.node_cap_hit, 1);
	assert_int_equal(count_nodes(snap->app), 3 + 4);
	/* breadth first: the frame's 3 children and the popup's menu */
	assert_int_equal(snap->app->children[0]->n_children, 3);
	assert_int_equal(snap->app->children[1]->n_children, 1);
	cua_raw_snapshot_free(snap);

	/* the cap in the middle of a child list: a partial range */
	pol.max_nodes = 5;
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &snap), CUA_OK);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children,
				       snap->app->n_children, &pol),
			 CUA_OK);
	assert_int_equal(snap->stats.node_cap_hit, 1);
	assert_int_equal(snap->app->children[0]->n_children, 2);
	assert_int_equal(snap->app->children[0]->children_partial, 1);
	assert_int_equal(snap->app->children[0]->child_count, 3);
	assert_int_equal(snap->app->children[1]->n_children, 0);
	assert_int_equal(snap->app->children[1]->children_partial, 1);
	cua_raw_snapshot_free(snap);

	/* a deadline in the past: nothing below the roots */
	pol.max_nodes = 0;
	pol.deadline_us = 1;
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &snap), CUA_OK);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children,
				       snap->app->n_children, &pol),
			 CUA_OK);
	assert_int_equal(snap->stats.deadline_hit, 1);
	assert_int_equal(count_nodes(snap->app), 3);
	assert_null(snap->focused);
	assert_null(snap->focused_ident);
	cua_raw_snapshot_free(snap);

	/* fetching twice replaces the subtree; no policy = everything */
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &snap), CUA_OK);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children, 1, NULL),
			 CUA_OK);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children, 1, NULL),
			 CUA_OK);
	assert_int_equal(count_nodes(snap->app), 3 + 12);
	assert_non_null(snap->focused);
	assert_int_equal(snap->focused->sel_end, 5);
	assert_true(snap->focused->parent->parent == snap->app->children[0]);
	cua_raw_snapshot_free(snap);

	cua_app_list_free(apps);
	b->ops->destroy(b);
}

/* Focus as the live reader finds it: state FOCUSED first (a later root
 * wins), else the recorded id. */
static void
test_focus(void **state)
{
	static const char json[] = HEAD
		"'focused': 'rec:/0/0', 'root': { 'role': 'application', 'children': [\n"
		"  { 'role': 'frame', 'children': [\n"
		"      { 'role': 'label', 'name': 'a' },\n"
		"      { 'role': 'entry', 'name': 'b', 'states': ['focused'],\n"
		"        'text': 'xyz', 'selection': [1, 2] } ] },\n"
		"  { 'role': 'window', 'children': [\n"
		"      { 'role': 'menu', 'name': 'c', 'states': ['focused'] } ] } ] } }";
	static const char json2[] = HEAD
		"'focused': 'rec:/0/0', 'root': { 'role': 'application', 'children': [\n"
		"  { 'role': 'frame', 'children': [ { 'role': 'label', 'name': 'a' } ] } ] } }";
	struct cua_fetch_policy pol = { .details = all_details };
	struct cua_backend *b = load_ok(json);
	struct cua_app_list *apps = NULL;
	struct cua_raw_snapshot *snap;

	snap = open_fetch(b, &pol, &apps);
	assert_string_equal(snap->focused->name, "c");
	assert_string_equal(snap->focused_ident, "rec:/1/0");
	/* a fetch cut short by the deadline forgets the old focus */
	pol.deadline_us = 1;
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children, 2, &pol),
			 CUA_OK);
	assert_null(snap->focused);
	assert_null(snap->focused_ident);
	pol.deadline_us = 0;
	cua_raw_snapshot_free(snap);

	/* only the frame: its focused node beats the recorded id */
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &snap), CUA_OK);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children, 1, &pol),
			 CUA_OK);
	assert_string_equal(snap->focused->name, "b");
	assert_int_equal(snap->focused->sel_start, 1);
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	b->ops->destroy(b);

	/* no focused state: the recorded id */
	b = load_ok(json2);
	snap = open_fetch(b, &pol, &apps);
	assert_string_equal(snap->focused->name, "a");
	assert_string_equal(snap->focused_ident, "rec:/0/0");
	cua_raw_snapshot_free(snap);
	/* not fetched: the id alone */
	pol.max_raw_depth = -1;
	pol.descend = never;
	assert_int_equal(b->ops->open_app(b, &apps->apps[0], &snap), CUA_OK);
	assert_int_equal(b->ops->fetch(b, snap, snap->app->children, 1, &pol),
			 CUA_OK);
	assert_null(snap->focused);
	assert_string_equal(snap->focused_ident, "rec:/0/0");
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	b->ops->destroy(b);
}

/* A range recorded by visible rows, ids generated from absolute
 * indices, and a toplevel that was never fetched. */
static void
test_files_recording(void **state)
{
	struct cua_backend *b = NULL;
	struct cua_app_list *apps = NULL;
	struct cua_raw_snapshot *snap;
	const struct cua_raw_node *table, *n;

	assert_int_equal(
		cua_backend_recorded_new(&test_ctx,
					 data_path("recorded-files.json"), &b),
		CUA_OK);
	snap = open_fetch(b, &everything, &apps);
	assert_string_equal(apps->apps[0].app_id, "files");
	assert_string_equal(apps->apps[0].exe_base, "files");
	table = find(snap->app, "Files");
	assert_non_null(table);
	assert_int_equal(table->child_count, 480);
	assert_int_equal(table->child_offset, 100);
	assert_int_equal(table->children_partial, 1);
	assert_int_equal(table->ifaces, CUA_IFACE_COMPONENT |
						CUA_IFACE_SELECTION |
						CUA_IFACE_TABLE);
	n = snap->focused;
	assert_non_null(n);
	assert_string_equal(n->name, "Downloads");
	assert_string_equal(n->ident, "rec:/0/1/0/101");
	assert_int_equal(n->index_in_parent, 101);
	assert_int_equal(n->table_row, 50);
	assert_true(n->ifaces & CUA_IFACE_TABLE_CELL);
	n = find(snap->app, "Zoom");
	assert_string_equal(n->value_text, "150%");
	assert_true(n->value_step == 0.25);
	n = find(snap->app, "Help");
	assert_string_equal(n->link_uri, "https://help.example.org/files");
	n = snap->app->children[1];
	assert_int_equal(n->child_count, 2);
	assert_false(n->have & CUA_HAVE_CHILDREN);
	assert_int_equal(snap->windows[1].x11_mapped, 0);
	assert_int_equal(snap->windows[1].has_x11_frame, 0);
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	b->ops->destroy(b);
}

/* ------------------------------------------------------------------ */
/* Round trips                                                         */

static void
round_trip_file(const char *path)
{
	struct cua_backend *b = NULL, *b2, *b3;
	char *j1, *j2, *j3;

	assert_int_equal(cua_backend_recorded_new(&test_ctx, path, &b), CUA_OK);
	j1 = record_backend(b);
	b2 = load_json_text(j1);
	j2 = record_backend(b2);
	assert_string_equal(j1, j2);
	b3 = load_json_text(j2);
	j3 = record_backend(b3);
	assert_string_equal(j2, j3);
	free(j1);
	free(j2);
	free(j3);
	b->ops->destroy(b);
	b2->ops->destroy(b2);
	b3->ops->destroy(b3);
}

static void
test_round_trip_files(void **state)
{
	char *path = write_tmp(full_json, 1);

	round_trip_file(data_path("recorded-gedit.json"));
	round_trip_file(data_path("recorded-files.json"));
	round_trip_file(path);
	unlink(path);
	free(path);
}

static struct cua_raw_node *
mk(struct cua_raw_snapshot *s, struct cua_raw_node *parent, const char *ident,
   uint32_t role, const char *name, uint32_t have)
{
	struct cua_raw_node *n = cua_raw_node_new(s);
	struct cua_raw_node **kids;

	assert_non_null(n);
	n->ident = ident;
	n->role = role;
	n->name = name;
	n->have = have | CUA_HAVE_BASIC;
	if (!parent)
		return n;
	kids = cua_arena_alloc(s->arena,
			       (parent->n_children + 1) * sizeof(*kids));
	if (parent->n_children)
		memcpy(kids, parent->children,
		       parent->n_children * sizeof(*kids));
	n->parent = parent;
	n->index_in_parent =
		(int32_t)(parent->child_offset + parent->n_children);
	kids[parent->n_children++] = n;
	parent->children = kids;
	parent->child_count =
		(int32_t)(parent->child_offset + parent->n_children);
	parent->have |= CUA_HAVE_CHILDREN;
	return n;
}

/* A snapshot as the live backend makes them, with every corner the
 * format must carry. */
static struct cua_raw_snapshot *
live_like_snapshot(void)
{
	struct cua_raw_snapshot *s = cua_raw_snapshot_new();
	struct cua_raw_node *app, *frame, *n, *list, *dlg;
	struct cua_raw_attr *attrs;
	struct cua_raw_action *acts;

	app = s->app = mk(s, NULL, ":1.42:/org/a11y/atspi/accessible/root",
			  CUA_ROLE_APPLICATION, "gedit", 0);
	frame = mk(s, app, ":1.42:/1", CUA_ROLE_FRAME, "Doc - gedit",
		   CUA_HAVE_EXTENTS | CUA_HAVE_DESCRIPTION | CUA_HAVE_ACTIONS |
			   CUA_HAVE_ATTRIBUTES);
	frame->states = (UINT64_C(1) << CUA_STATE_ACTIVE) |
			(UINT64_C(1) << CUA_STATE_SHOWING);
	frame->ifaces = CUA_IFACE_COMPONENT;
	frame->extents = (struct cua_rect){ 80, 60, 1024, 700 };
	frame->x11_window = 4194310;
	frame->description = "";

	/* every piece, with a localized-only action and a NULL value */
	n = mk(s, frame, ":1.42:/2", CUA_ROLE_TEXT, "Body", 0x7fff);
	n->states = (UINT64_C(1) << CUA_STATE_EDITABLE) | (UINT64_C(1) << 0) |
		    (UINT64_C(1) << 47) | (UINT64_C(1) << 63);
	n->ifaces = CUA_IFACE_TEXT | CUA_IFACE_EDITABLE_TEXT |
		    CUA_IFACE_COLLECTION | CUA_IFACE_DOCUMENT;
	n->description = "desc";
	n->help = "help";
	n->accessible_id = "body";
	attrs = cua_arena_alloc(s->arena, 2 * sizeof(*attrs));
	attrs[0] = (struct cua_raw_attr){ "toolkit", "gtk" };
	attrs[1] = (struct cua_raw_attr){ "empty", NULL };
	n->attrs = attrs;
	n->n_attrs = 2;
	acts = cua_arena_alloc(s->arena, 3 * sizeof(*acts));
	acts[0] = (struct cua_raw_action){ "activate", NULL, NULL };
	acts[1] = (struct cua_raw_action){ NULL, "Localized", NULL };
	acts[2] = (struct cua_raw_action){ "x", "X", "does x" };
	n->actions = acts;
	n->n_actions = 3;
	n->value = 0.1;
	n->value_min = -1e300;
	n->value_max = NAN;
	n->value_step = 1.0 / 3.0;
	n->text = "line 1\nline 2 \"quoted\" \xc3\xa9\t";
	n->sel_start = 2;
	n->sel_end = 4;
	n->extents = (struct cua_rect){ -5, INT32_MIN, INT32_MAX, 0 };
	n->labelled_by = NULL;
	n->link_uri = "";
	n->selected_child_name = NULL;
	n->table_row = -1;

	/* read but empty: value and text with no value */
	n = mk(s, frame, ":1.42:/3", CUA_ROLE_PUSH_BUTTON, NULL,
	       CUA_HAVE_TEXT | CUA_HAVE_VALUE | CUA_HAVE_SELECTION);
	/* nothing but basic fields; a role beyond the table */
	n = mk(s, frame, NULL, 200, "", 0);
	n->child_count = 7;
	/* a leaf whose children were read; one whose children were not */
	mk(s, frame, ":1.42:/5", CUA_ROLE_LABEL, "read leaf",
	   CUA_HAVE_CHILDREN);
	mk(s, frame, ":1.42:/6", CUA_ROLE_LABEL, "unread leaf", 0);
	/* a visible range: rows 40..41 of 500 */
	list = mk(s, frame, "rec:/0/5", CUA_ROLE_LIST, "range", 0);
	list->child_offset = 40;
	mk(s, list, "rec:/0/5/40", CUA_ROLE_LIST_ITEM, "forty",
	   CUA_HAVE_TABLE_ROW)
		->table_row = 3;
	mk(s, list, ":1.42:/41", CUA_ROLE_LIST_ITEM, "forty-one", 0);
	list->child_count = 500;
	list->children_partial = 1;
	/* more children than the count says (GTK4), not partial */
	list = mk(s, frame, ":1.42:/8", CUA_ROLE_LIST, "odd", 0);
	mk(s, list, ":1.42:/9", CUA_ROLE_LIST_ITEM, "a", 0);
	mk(s, list, ":1.42:/10", CUA_ROLE_LIST_ITEM, "b", 0);
	list->child_count = 1;
	/* children read with an empty result although the count is 3 */
	list = mk(s, frame, ":1.42:/11", CUA_ROLE_LIST, "empty", 0);
	list->child_count = 3;
	list->have |= CUA_HAVE_CHILDREN;

	/* an unfetched dialog: basic and extents only */
	dlg = mk(s, app, ":1.42:/20", CUA_ROLE_DIALOG, "Save?",
		 CUA_HAVE_EXTENTS);
	dlg->child_count = 4;
	dlg->extents = (struct cua_rect){ 1, 2, 3, 4 };
	dlg->x11_window = UINT64_MAX - 1;

	s->windows = cua_arena_alloc(s->arena, 2 * sizeof(*s->windows));
	s->windows[0] = (struct cua_raw_window_info){
		.x11_window = 4194310,
		.x11_active = 1,
		.x11_mapped = 1,
		.x11_title = "Doc - gedit",
		.x11_frame = { 80, 60, 1024, 700 },
		.has_x11_frame = 1,
		.activation_serial = 17,
	};
	s->windows[1] = (struct cua_raw_window_info){
		.x11_window = UINT64_MAX - 1,
		.x11_mapped = 0,
		.activation_serial = UINT64_MAX,
	};
	s->focused_ident = ":1.42:/2";
	return s;
}

static void
test_round_trip_live(void **state)
{
	struct cua_app_info app = {
		.pid = 31337,
		.start_time = UINT64_C(18446744073709551000),
		.exe = "/usr/bin/gedit",
		.exe_base = "gedit",
		.bus_name = ":1.42",
		.atspi_name = "gedit",
		.desktop_id = "org.gnome.gedit",
		.app_id = "org.gnome.gedit",
		.app_name = "Text Editor",
		.toolkit = "GTK",
		.toolkit_version = "3.24.38",
		.n_windows = 2,
		.frontmost = 1,
		.accessible = 1,
	};
	struct cua_raw_snapshot *live = live_like_snapshot(), *replay;
	struct cua_app_list *apps = NULL;
	struct cua_backend *b;
	char *j1 = NULL, *j2;
	size_t i;

	assert_int_equal(cua_record_to_json(&app, live, &j1), CUA_OK);
	b = load_json_text(j1);
	replay = open_fetch(b, &everything, &apps);
	assert_nodes_equal(live->app, replay->app);
	for (i = 0; i < 2; i++) {
		assert_int_equal(live->windows[i].x11_window,
				 replay->windows[i].x11_window);
		assert_int_equal(live->windows[i].x11_active,
				 replay->windows[i].x11_active);
		assert_int_equal(live->windows[i].x11_mapped,
				 replay->windows[i].x11_mapped);
		assert_str(live->windows[i].x11_title,
			   replay->windows[i].x11_title);
		assert_int_equal(live->windows[i].has_x11_frame,
				 replay->windows[i].has_x11_frame);
		assert_memory_equal(&live->windows[i].x11_frame,
				    &replay->windows[i].x11_frame,
				    sizeof(struct cua_rect));
		assert_int_equal(live->windows[i].activation_serial,
				 replay->windows[i].activation_serial);
	}
	assert_string_equal(replay->focused_ident, ":1.42:/2");
	assert_ptr_equal(replay->focused,
			 replay->app->children[0]->children[0]);
	assert_int_equal(apps->apps[0].pid, 31337);
	assert_true(apps->apps[0].start_time == app.start_time);

	j2 = NULL;
	assert_int_equal(cua_record_to_json(&apps->apps[0], replay, &j2),
			 CUA_OK);
	assert_string_equal(j1, j2);
	/* the generated ids were left out, the others kept */
	assert_null(strstr(j1, "\"rec:/0/5\""));
	assert_null(strstr(j1, "\"rec:/0/5/40\""));
	assert_non_null(strstr(j1, "\"id\": null"));
	assert_non_null(strstr(j1, "\"unread\""));

	free(j1);
	free(j2);
	cua_raw_snapshot_free(replay);
	cua_app_list_free(apps);
	b->ops->destroy(b);
	cua_raw_snapshot_free(live);
}

static void
test_record_errors(void **state)
{
	struct cua_raw_snapshot *s = cua_raw_snapshot_new();
	struct cua_raw_node *app, *bad;
	char *out = (char *)1;

	assert_int_equal(cua_record_to_json(NULL, NULL, &out),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(out);
	app = s->app = mk(s, NULL, "a", CUA_ROLE_APPLICATION, "x", 0);
	mk(s, app, "b", CUA_ROLE_FRAME, "ok", 0);
	bad = mk(s, app, "c", CUA_ROLE_FRAME, "ok", CUA_HAVE_DESCRIPTION);
	bad->description = "bad \xff utf-8";
	assert_int_equal(cua_record_to_json(NULL, s, &out),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(out);
	assert_non_null(strstr(cua_error_get(), "node /1"));
	assert_non_null(strstr(cua_error_get(), "description"));

	/* a cycle in a broken snapshot is caught by the depth cap */
	bad->description = "fine";
	bad->children = &app;
	bad->n_children = 1;
	assert_int_equal(cua_record_to_json(NULL, s, &out),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(cua_error_get(), "deep"));
	bad->children = NULL;
	bad->n_children = 0;

	assert_int_equal(cua_record_to_json(NULL, s, &out), CUA_OK);
	assert_non_null(strstr(out, "\"schema\": \"libcua.recording/1\""));
	free(out);
	cua_raw_snapshot_free(s);
}

/* ------------------------------------------------------------------ */
/* Golden recordings of real apps                                      */

/*
 * tests/data/golden/NAME.json is a real app recorded by
 * tools/record-goldens; NAME.txt is its full state text. NAME.next.json
 * is the same app one step later; NAME.next.txt is the diff between the
 * two, observed in one session. CUA_GOLDEN_UPDATE=1 writes the texts
 * instead of comparing (tools/record-goldens does, after recording).
 */
static const char *const goldens[] = {
	"gtk3-widget-factory",
	"gtk4-widget-factory",
	"featherpad",
	"gtk3-file-chooser",
	"writer",
	"calc",
	"firefox",
	"chromium",
	NULL,
};

static void
golden_check(const char *name, const char *suffix, const char *text)
{
	char path[8192], dir[4096];
	char *want;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", data_path("golden"));
	snprintf(path, sizeof(path), "%s/%s%s.txt", dir, name, suffix);
	if (getenv("CUA_GOLDEN_UPDATE")) {
		f = fopen(path, "w");
		assert_non_null(f);
		assert_true(fprintf(f, "%s\n", text) >= 0);
		assert_int_equal(fclose(f), 0);
		return;
	}
	want = read_whole_file(path);
	if (!want)
		fail_msg("%s: missing (tools/record-goldens writes it)", path);
	assert_true(strlen(want) > 0 && want[strlen(want) - 1] == '\n');
	want[strlen(want) - 1] = '\0';
	if (strcmp(want, text) != 0) {
		fprintf(stderr, "# %s%s renders:\n%s\n", name, suffix, text);
		fail_msg("%s%s.txt differs from the rendering", name, suffix);
	}
	free(want);
}

static void
test_goldens(void **state)
{
	for (size_t i = 0; goldens[i]; i++) {
		char json[8192], next[8192], app[64];
		char *rec, *text = NULL;
		const char *pid;
		cua_session *s = NULL;
		cua_tree *t = NULL;

		char dir[4096];

		snprintf(dir, sizeof(dir), "%s", data_path("golden"));
		snprintf(json, sizeof(json), "%s/%s.json", dir, goldens[i]);
		snprintf(next, sizeof(next), "%s/%s.next.json", dir,
			 goldens[i]);
		rec = read_whole_file(json);
		if (!rec)
			fail_msg(
				"%s: missing (tools/record-goldens records it)",
				json);
		pid = strstr(rec, "\"pid\":");
		assert_non_null(pid);
		snprintf(app, sizeof(app), "pid:%ld",
			 strtol(pid + 6, NULL, 10));
		free(rec);

		if (cua_session_new_recorded(&s, json, 0) != CUA_OK)
			fail_msg("%s: %s", json, cua_error_message());
		assert_int_equal(
			cua_session_set_option(s, "warmup_cap_ms", "0"),
			CUA_OK);
		if (cua_session_observe(s, app, 0, &t) != CUA_OK)
			fail_msg("%s: %s", goldens[i], cua_error_message());
		assert_int_equal(cua_tree_render(t, 0, &text), CUA_OK);
		golden_check(goldens[i], "", text);
		cua_free(text);
		cua_tree_unref(t);

		if (cua_backend_recorded_replace(s->backend, next) != CUA_OK)
			fail_msg("%s: %s", next, cua_error_message());
		if (cua_session_observe(s, app, 0, &t) != CUA_OK)
			fail_msg("%s next: %s", goldens[i],
				 cua_error_message());
		assert_int_equal(cua_tree_render(t, CUA_RENDER_DIFF, &text),
				 CUA_OK);
		golden_check(goldens[i], ".next", text);
		cua_free(text);
		cua_tree_unref(t);
		cua_session_unref(s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_other_ops),
		cmocka_unit_test(test_open_app_copies),
		cmocka_unit_test(test_fetch_policy),
		cmocka_unit_test(test_focus),
		cmocka_unit_test(test_files_recording),
		cmocka_unit_test(test_round_trip_files),
		cmocka_unit_test(test_round_trip_live),
		cmocka_unit_test(test_record_errors),
		cmocka_unit_test(test_goldens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
