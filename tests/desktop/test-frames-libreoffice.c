/*
 * Desktop test of element frames in LibreOffice Calc with the gtk3 VCL
 * plugin, maximised under openbox (title bar and native GTK menu bar
 * above the VCL widgets). LibreOffice reports its VCL widgets' positions
 * from the client area's top (25 px too high) after start-up and after
 * its window is configured, and where they are after pointer input; each
 * phase checks, from the raw tree, which of the two it is in. Read back
 * from Calc itself: a click at the screenshot pixel of a cell, a drag
 * between two cells' frame centres and clicks at cells through the
 * pointer route, with the Name Box saying which cell or range was hit.
 * The sheet is read as the grid it shows: the cells with text and the
 * cell cursor, not the empty ones.
 * One Calc for the whole test (it takes 30-60 s to start here).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "covers.h"
#include "xwin.h"

#define APP "libreoffice-calc"

/* ------------------------------------------------------------------ */
/* Reading Calc                                                        */

/* A cell reference or range: A1, $C$3, A1:C1. */
static int
is_cell_ref(const char *s)
{
	int letters = 0, digits = 0;

	for (; *s; s++) {
		if (*s == '$')
			continue;
		if (*s == ':') {
			if (!letters || !digits)
				return 0;
			letters = digits = 0;
		} else if (isupper((unsigned char)*s) && !digits) {
			letters++;
		} else if (isdigit((unsigned char)*s) && letters) {
			digits++;
		} else {
			return 0;
		}
	}
	return letters && digits;
}

/* The Name Box: the text field showing the selected cell or range. */
static const char *
name_box(cua_tree *t)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (strcmp(cua_element_get_role(e), "text field") == 0 &&
		    is_cell_ref(cua_element_get_value(e)))
			return cua_element_get_value(e);
	}
	return NULL;
}

static int
calc_ready(cua_tree *t, void *data)
{
	return find_element(t, "cell", "A1") && name_box(t);
}

static int
name_box_is(cua_tree *t, void *data)
{
	const char *v = name_box(t);

	return v && strcmp(v, data) == 0;
}

/* Observes Calc once its cells and Name Box are in the tree. */
static cua_tree *
observe_calc(const char *what)
{
	cua_tree *t = observe_until_pred(session, APP, 30000, calc_ready, NULL);
	char *text;

	if (t)
		return t;
	t = observe_until(session, APP, 5000);
	if (!t)
		fail_msg("%s: %s", what, cua_error_message());
	text = render(t);
	fail_msg("%s: no cell A1 or Name Box in Calc's state:\n%.3000s", what,
		 text);
	return NULL;
}

/* Waits until the Name Box reads `want`. */
static void
expect_name_box(const char *want, const char *what)
{
	cua_tree *t = observe_until_pred(session, APP, 30000, name_box_is,
					 (void *)want);
	const char *got;

	if (t) {
		cua_tree_unref(t);
		return;
	}
	t = observe_until(session, APP, 5000);
	got = t ? name_box(t) : NULL;
	fail_msg("%s: the Name Box reads %s, expected %s", what,
		 got ? got : "(none)", want);
}

/* The raw tree's first node of role `role` and its parent. */
static int
find_raw(json_t *n, json_t *parent, const char *role, json_t **out,
	 json_t **out_parent)
{
	json_t *kids = json_object_get(n, "children"), *k;
	size_t i;

	if (json_is_string(json_object_get(n, "role")) &&
	    strcmp(json_string_value(json_object_get(n, "role")), role) == 0) {
		*out = n;
		*out_parent = parent;
		return 1;
	}
	json_array_foreach(
		kids, i, k) if (find_raw(k, n, role, out, out_parent)) return 1;
	return 0;
}

/* Where Calc reports its VCL root pane against the native widget hosting
 * it: 1 when above it (measured from the client area's top), 0 when at
 * it. */
static int
vcl_reported_above(void)
{
	char *rec = NULL;
	json_t *root, *pane = NULL, *host = NULL;
	json_error_t err;
	int above;

	ACT(cua_session_record(session, APP, 0, &rec));
	root = json_loads(rec, 0, &err);
	cua_free(rec);
	assert_non_null(root);
	if (!find_raw(json_object_get(root, "root"), NULL, "root pane", &pane,
		      &host) ||
	    !host || json_array_size(json_object_get(pane, "extents")) != 4 ||
	    json_array_size(json_object_get(host, "extents")) != 4)
		fail_msg("no VCL root pane with extents in Calc's tree");
	above = json_integer_value(
			json_array_get(json_object_get(pane, "extents"), 1)) <
		json_integer_value(
			json_array_get(json_object_get(host, "extents"), 1));
	json_decref(root);
	return above;
}

/* Configures the window (restore, maximise): Calc then reports its VCL
 * widgets from the client area's top again. */
static void
configure(unsigned long xid)
{
	assert_int_equal(xwin_maximize(xid, 0, 10000), 0);
	assert_int_equal(xwin_maximize(xid, 1, 10000), 0);
	for (int64_t t0 = now_ms(); !vcl_reported_above(); usleep(200000))
		if (now_ms() - t0 > 30000)
			fail_msg("Calc reports its VCL widgets where they are "
				 "after a configure: the offset case is not "
				 "reached");
}

/* The screenshot pixel of the centre of element `title`'s frame, moved
 * by `rows` of its heights. */
static void
cell_pixel(cua_tree *t, const char *title, double rows, double *px, double *py)
{
	cua_element *e = find_element(t, "cell", title);
	const void *d;
	size_t size;
	const char *mime;
	double ppp = 0;
	int32_t x, y, w, h;

	assert_non_null(e);
	assert_true(cua_element_get_frame(e, &x, &y, &w, &h));
	assert_int_equal(
		cua_tree_get_screenshot(t, &d, &size, &mime, NULL, NULL, &ppp),
		CUA_OK);
	*px = (x + w / 2.0) * ppp;
	*py = (y + h / 2.0 + rows * h) * ppp;
}

static void
click_element(cua_tree *t, const char *cell)
{
	char *out = NULL;
	cua_element *e = find_element(t, "cell", cell);

	assert_non_null(e);
	/* LibreOffice's elements are clicked through the pointer first
	 * (docs/actions.md §3) */
	ACT(cua_session_click(session, APP, cua_element_get_id(e),
			      CUA_BUTTON_LEFT, 1, &out));
	assert_non_null(strstr(out, "\"route\":\"synthetic\""));
	cua_free(out);
}

static int
is_selected(cua_tree *t, const char *cell)
{
	cua_element *e = find_element(t, "cell", cell);

	assert_non_null(e);
	return (cua_element_get_traits(e) & CUA_TRAIT_SELECTED) != 0;
}

/* The cells of the state that show no value: the empty ones rendered. */
static size_t
empty_cells(cua_tree *t, const char **last)
{
	size_t n = 0;

	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);
		const char *v = cua_element_get_value(e);

		if (strcmp(cua_element_get_role(e), "cell") == 0 &&
		    (!v || !*v)) {
			n++;
			*last = cua_element_get_title(e);
		}
	}
	return n;
}

/* What phase 5 types into rows 1-5, columns A-D: text and numbers. */
static const char *const grid[5][4] = {
	{ "Oslo", "31", "Lima", "Rome" }, { "Kiev", "42", "Baku", "Doha" },
	{ "Riga", "53", "Bern", "Oran" }, { "Lome", "64", "Suva", "Apia" },
	{ "Male", "75", "Nuuk", "Pune" },
};

/* The state text has the line of every cell of `grid` with its text as
 * its value, and nothing after it (no number for a text cell). */
static int
grid_shown(cua_tree *t, void *data)
{
	char *text = render(t), want[64];
	int ok = 1;

	(void)data;
	for (int r = 0; r < 5 && ok; r++)
		for (int c = 0; c < 4 && ok; c++) {
			snprintf(want, sizeof(want), " %c%d, Value: %s\n",
				 'A' + c, r + 1, grid[r][c]);
			ok = strstr(text, want) != NULL;
		}
	cua_free(text);
	return ok;
}

/* ------------------------------------------------------------------ */

/* what the tree cache said of the observations */
static struct cache_tally tally;

static void
test_calc(void **state)
{
	char profile[] = "/tmp/cua-test-lo-XXXXXX", env[64], out[64];
	const char *rm[] = { "/bin/rm", "-rf", profile, NULL };
	const char *argv[] = { "soffice",  "--calc", "--norestore",
			       "--nologo", env,      NULL };
	struct app_proc p;
	unsigned long xid;
	cua_tree *t;
	double x1, y1, x2, y2;

	assert_non_null(mkdtemp(profile));
	snprintf(env, sizeof(env), "-env:UserInstallation=file://%s", profile);
	setenv("SAL_USE_VCLPLUGIN", "gtk3", 1);
	assert_int_equal(app_start(&p, argv, 0), 0);
	t = observe_until_pred(session, APP, 150000, calc_ready, NULL);
	if (!t)
		fail_msg("Calc did not come up: %s", cua_error_message());
	xid = xwin_find((pid_t)cua_tree_get_pid(t), 10000);
	cua_tree_unref(t);
	assert_true(xid != 0);

	/* LibreOffice's toolkit reports GTK 3's name, but it does not
	 * announce every change: served from the tree cache only with every
	 * cached object compared again (the sweep) */
	cua_session_set_log_handler(session, cache_tally_log, &tally);
	cua_session_set_log_level(session, CUA_LOG_DEBUG);
	/* (Calc may still be changing a moment after it came up: those
	 * observations are read in full for it) */
	for (int i = 0; i < 30 && tally.hits < 2; i++) {
		t = NULL;
		assert_int_equal(
			cua_session_observe(session, APP,
					    CUA_OBSERVE_NO_LAUNCH |
						    CUA_OBSERVE_NO_SCREENSHOT,
					    &t),
			CUA_OK);
		cua_tree_unref(t);
	}
	cua_session_set_log_level(session, CUA_LOG_WARNING);
	cua_session_set_log_handler(session, NULL, NULL);
	assert_int_equal(tally.untrusted, 0);
	assert_true(tally.hits >= 2);
	assert_int_equal(tally.swept_hits, tally.hits);
	assert_int_equal(xwin_maximize(xid, 1, 10000), 0);

	/* 0. the sheet's visible grid: a table of 2^31 - 1 children whose
	 * rows 1-5 are read cell by cell, each with its text; the empty
	 * cells around them are not rendered, but the cell cursor is, empty
	 * as it is (keys only: the positions stay offset) */
	ACT(cua_session_press_key(session, APP, "ctrl+Home", NULL));
	expect_name_box("A1", "ctrl+Home");
	for (int r = 0; r < 5; r++) {
		char line[64];

		snprintf(line, sizeof(line), "%s\t%s\t%s\t%s\n", grid[r][0],
			 grid[r][1], grid[r][2], grid[r][3]);
		ACT(cua_session_type_text(session, APP, line, NULL));
	}
	expect_name_box("A6", "typing rows 1-5");
	t = observe_until_pred(session, APP, 30000, grid_shown, NULL);
	if (!t) {
		char *text;

		t = observe_until(session, APP, 5000);
		assert_non_null(t);
		text = render(t);
		fail_msg("rows 1-5 are not in Calc's state:\n%.6000s", text);
	}
	{
		char *text = render(t);
		const char *empty = NULL;

		/* the window of rows is summarised, 0-based */
		assert_non_null(strstr(text, "(showing 0-"));
		assert_non_null(strstr(text, " of 1048576 items)"));
		if (empty_cells(t, &empty) != 1 || strcmp(empty, "A6") != 0)
			fail_msg("empty cells other than the cursor's A6 are "
				 "rendered:\n%.6000s",
				 text);
		cua_free(text);
	}
	cua_tree_unref(t);
	if (!vcl_reported_above())
		configure(xid);

	/* 1. offset positions: a click at the screenshot pixel of C3's
	 * centre (C1's frame two rows down) */
	t = observe_calc("before phase 1");
	cell_pixel(t, "C1", 2, &x1, &y1);
	cua_tree_unref(t);
	ACT(cua_session_click_at(session, APP, x1, y1, CUA_BUTTON_LEFT, 1,
				 NULL));
	expect_name_box("C3", "click at C3's pixel");

	/* 2. offset positions again: a drag from A1's frame centre to
	 * C1's selects A1:C1 (not columns A:C, which a drag from the column
	 * header would) */
	configure(xid);
	t = observe_calc("after a configure (phase 2)");
	cell_pixel(t, "A1", 0, &x1, &y1);
	cell_pixel(t, "C1", 0, &x2, &y2);
	cua_tree_unref(t);
	ACT(cua_session_drag(session, APP, x1, y1, x2, y2, NULL));
	expect_name_box("A1:C1", "drag from A1 to C1");
	t = observe_until(session, APP, 5000);
	assert_non_null(t);
	assert_true(is_selected(t, "A1") && is_selected(t, "B1") &&
		    is_selected(t, "C1"));
	assert_false(is_selected(t, "A2"));
	cua_tree_unref(t);

	/* 3. a click by element through the pointer route while the
	 * positions are offset */
	configure(xid);
	t = observe_calc("after a configure (phase 3)");
	click_element(t, "B1");
	cua_tree_unref(t);
	expect_name_box("B1", "click at element B1");

	/* 4. an observation made with offset positions, then pointer input
	 * (a click on column B's header) after which Calc reports where its
	 * widgets are: a click at an element of that observation lands on
	 * it, not 25 px lower */
	configure(xid);
	t = observe_calc("after a configure (phase 4)");
	cell_pixel(t, "B1", -1, &x1, &y1);
	ACT(cua_session_click_at(session, APP, x1, y1, CUA_BUTTON_LEFT, 1,
				 NULL));
	for (int64_t t0 = now_ms(); vcl_reported_above(); usleep(200000))
		if (now_ms() - t0 > 30000)
			fail_msg("Calc still reports offset positions after "
				 "pointer input");
	click_element(t, "C1");
	cua_tree_unref(t);
	expect_name_box("C1", "click at element C1 of an older observation");

	/* 5. a click at an element of row 4 of the grid lands on that
	 * cell */
	t = observe_until_pred(session, APP, 30000, grid_shown, NULL);
	assert_non_null(t);
	{
		cua_element *e = find_element(t, "cell", "C4");

		assert_non_null(e);
		ACT(cua_session_click(session, APP, cua_element_get_id(e),
				      CUA_BUTTON_LEFT, 1, NULL));
	}
	cua_tree_unref(t);
	expect_name_box("C4", "click at element C4");

	/* 6. a toolbar button that opens a modal dialog (Hyperlink): clicked
	 * through the pointer, the click is done at once and the dialog is
	 * read (its press action, run inside the accessibility call, left
	 * the click unanswered past the call timeout, and at times the app
	 * answered nothing more) */
	t = observe_calc("before the Hyperlink button");
	{
		cua_element *e = find_element(t, "toggle button", "Hyperlink");
		char *outcome = NULL;

		assert_non_null(e);
		ACT(cua_session_click(session, APP, cua_element_get_id(e),
				      CUA_BUTTON_LEFT, 1, &outcome));
		assert_non_null(strstr(outcome, "\"route\":\"synthetic\""));
		cua_free(outcome);
	}
	cua_tree_unref(t);
	t = observe_until_pred(session, APP, 15000, window_titled,
			       (void *)"Hyperlink");
	if (!t)
		fail_msg("the Hyperlink dialog was not read: %s",
			 cua_error_message());
	cua_tree_unref(t);
	ACT(cua_session_press_key(session, APP, "Escape", NULL));
	t = observe_until_pred(session, APP, 15000, window_titled,
			       (void *)"Untitled 1 - LibreOffice Calc");
	assert_non_null(t);
	cua_tree_unref(t);
	COVERS("LibreOffice", "get_app_state click type_text press_key");

	ACT(cua_session_press_key(session, APP, "ctrl+q", NULL));
	app_stop(&p);
	assert_int_equal(run_command(rm, out, sizeof(out)), 0);
}

static int
setup(void **state)
{
	session = test_session();
	assert_int_equal(
		cua_session_set_option(session, "restore_pointer", "0"),
		CUA_OK);
	return 0;
}

static int
teardown(void **state)
{
	session = cua_session_unref(session);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calc),
	};

	return run_test_group("frames-libreoffice", tests, setup, teardown);
}
