/*
 * Diffs on a live GTK3 app (the fixture, changed through its command
 * channel): a toggled check box is exactly one `~` line, a row added to a
 * list gives `+` lines, a closed in-window dialog lists its ids in
 * `Removed element IDs:`, an id taken from a diff line names the same
 * element in the next full tree (and acts on it), ids survive a dialog
 * toplevel round trip, and `cua watch` prints a diff when the app changes.
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

#include "guard.h"
#include "common.h"

#define APP "fixture-gtk3"

struct fx {
	struct app_proc app;
	cua_session *s;
};

static int
setup(void **state)
{
	static struct fx fx;
	cua_tree *t;

	memset(&fx, 0, sizeof(fx));
	*state = &fx; /* the teardown ends what a failed start left */
	t = gtk3_fixture_observed(&fx.app, FIXTURE_GTK3, &fx.s);
	if (!t)
		return -1;
	cua_tree_unref(t);
	return 0;
}

static int
teardown(void **state)
{
	struct fx *fx = *state;

	cua_session_unref(fx->s);
	app_stop(&fx->app);
	return 0;
}

/* Sends a fixture command and waits for its acknowledgement. */
static void
command(struct fx *fx, const char *cmd)
{
	fixture_command(&fx->app, "the fixture", cmd, NULL, 0);
}

static char *
render_flags(cua_tree *t, uint32_t flags)
{
	char *text = NULL;

	assert_int_equal(cua_tree_render(t, flags, &text), CUA_OK);
	return text;
}

/* The marked lines of a diff text (lines starting with ~, + or -). */
static size_t
marked_lines(const char *text, char marks[][512], size_t max)
{
	size_t n = 0;

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if ((*p == '~' || *p == '+' || *p == '-') && n < max) {
			snprintf(marks[n], 512, "%.*s", (int)len, p);
			n++;
		}
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

/* The id printed on a marked line. */
static uint32_t
line_id(const char *line)
{
	const char *p = line + 1;

	while (*p == '\t')
		p++;
	return (uint32_t)strtoul(p, NULL, 10);
}

static int
value_is(cua_tree *t, void *data)
{
	const char *const *want = data;
	cua_element *e = find_element(t, NULL, want[0]);

	return e && strcmp(cua_element_get_value(e), want[1]) == 0;
}

/* Brings the check box to `value` through the command channel, observing
 * until the tree shows it. */
static cua_tree *
set_check(struct fx *fx, const char *name, const char *value)
{
	const char *want[2] = { name, value };
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "toggle %s", name);
	command(fx, cmd);
	return observe_until_pred(fx->s, APP, 5000, value_is, (void *)want);
}

static void
test_toggle_is_one_changed_line(void **state)
{
	struct fx *fx = *state;
	cua_tree *before = observe_until(fx->s, APP, 5000), *after, *full;
	char marks[16][512], *text;
	uint32_t id;

	assert_non_null(before);
	after = set_check(fx, "Unchecked box", "on");
	assert_non_null(after);
	text = render_flags(after, CUA_RENDER_DIFF);
	assert_int_equal(marked_lines(text, marks, 16), 1);
	assert_int_equal(marks[0][0], '~');
	assert_non_null(strstr(marks[0], " Unchecked box"));
	assert_non_null(strstr(marks[0], "Value: on"));
	assert_null(strstr(text, "Removed element IDs"));
	assert_non_null(strstr(
		text, "The following is a diff from the previous "
		      "accessibility tree for Window: \"libcua fixture\""));
	cua_free(text);

	/* the id on the diff line is the same element in the next full tree */
	id = line_id(marks[0]);
	assert_int_equal(id, cua_element_get_id(find_element(before, NULL,
							     "Unchecked box")));
	full = observe_until(fx->s, APP, 5000);
	assert_non_null(full);
	text = render_flags(full, CUA_RENDER_DIFF);
	/* (nothing changed since: the no-change sentence) */
	assert_non_null(strstr(text, "There has been no change"));
	cua_free(text);
	text = render_flags(full, 0);
	/* the diff line, without its marker, is the full tree's line */
	assert_non_null(strstr(text, marks[0] + 1));
	assert_string_equal(
		cua_element_get_title(cua_tree_find_element(full, id)),
		"Unchecked box");
	cua_free(text);

	/* and back: one line again */
	cua_tree_unref(after);
	after = set_check(fx, "Unchecked box", "off");
	assert_non_null(after);
	text = render_flags(after, CUA_RENDER_DIFF);
	assert_int_equal(marked_lines(text, marks, 16), 1);
	assert_int_equal(line_id(marks[0]), id);
	assert_non_null(strstr(marks[0], "Value: off"));
	cua_free(text);
	cua_tree_unref(before);
	cua_tree_unref(after);
	cua_tree_unref(full);
}

/* An id from a diff line acts on the element it names: clicking it by
 * number toggles that check box (the fixture reports it). */
static void
test_diff_id_acts_on_element(void **state)
{
	struct fx *fx = *state;
	cua_tree *before = observe_until(fx->s, APP, 5000), *after;
	char marks[16][512], *text, line[256], *outcome = NULL;
	struct guard *g;
	uint32_t id;

	assert_non_null(before);
	after = set_check(fx, "Check me", "off");
	assert_non_null(after);
	text = render_flags(after, CUA_RENDER_DIFF);
	assert_int_equal(marked_lines(text, marks, 16), 1);
	cua_free(text);
	id = line_id(marks[0]);
	g = guard_begin(fx->app.pid);
	if (cua_session_click(fx->s, APP, id, CUA_BUTTON_LEFT, 1, &outcome) !=
	    CUA_OK)
		fail_msg("click %u: %s", (unsigned)id, cua_error_message());
	cua_free(outcome);
	assert_int_equal(app_wait_line(&fx->app, "toggled Check me", 5000, line,
				       sizeof(line)),
			 0);
	assert_string_equal(line, "toggled Check me on");
	guard_allow(g, "check box", "Check me", GUARD_NODE);
	guard_end(g);
	cua_tree_unref(before);
	cua_tree_unref(after);
	before = observe_until(fx->s, APP, 5000);
	cua_tree_unref(before);
}

static int
has_row(cua_tree *t, void *data)
{
	return find_element(t, NULL, data) != NULL;
}

static void
test_add_row(void **state)
{
	struct fx *fx = *state;
	cua_tree *before = observe_until(fx->s, APP, 5000), *after;
	char marks[64][512], *text;
	size_t n, plus = 0;

	assert_non_null(before);
	command(fx, "add-row Fresh row");
	after = observe_until_pred(fx->s, APP, 5000, has_row,
				   (void *)"Fresh row");
	assert_non_null(after);
	text = render_flags(after, CUA_RENDER_DIFF);
	n = marked_lines(text, marks, 64);
	assert_true(n >= 1);
	for (size_t i = 0; i < n; i++) {
		assert_true(marks[i][0] == '~' || marks[i][0] == '+');
		if (marks[i][0] == '+') {
			plus++;
			/* fresh ids, above everything seen before */
			assert_null(cua_tree_find_element(before,
							  line_id(marks[i])));
		}
	}
	assert_true(plus >= 1);
	assert_non_null(strstr(text, "Fresh row"));
	for (size_t i = 0; i < n; i++)
		if (strstr(marks[i], "Fresh row"))
			assert_int_equal(marks[i][0], '+');
	/* the list's row window now counts 101 items: its line changed */
	assert_non_null(strstr(text, "of 101 items)"));
	cua_free(text);
	cua_tree_unref(before);
	cua_tree_unref(after);
}

static int
has_confirm(cua_tree *t, void *data)
{
	return (find_element(t, NULL, "Confirm") != NULL) == (data != NULL);
}

/* 1 when `line` (starting with "\n") is in text and ends a line there. */
static int
has_whole_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if (p[n] == '\n' || p[n] == '\0')
			return 1;
	return 0;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* A dialog inside the main window (a sheet): closing it lists its ids in
 * `Removed element IDs:`, and nothing else is marked. */
static void
test_close_sheet(void **state)
{
	struct fx *fx = *state;
	cua_tree *open, *closed;
	cua_element *sheet;
	uint32_t ids[32];
	size_t n = 0;
	char expect[512], *text, marks[64][512];
	size_t n_marks;
	int len;

	command(fx, "sheet-open");
	open = observe_until_pred(fx->s, APP, 5000, has_confirm, (void *)1);
	assert_non_null(open);
	text = render_flags(open, CUA_RENDER_DIFF);
	assert_non_null(strstr(text, "dialog Confirm"));
	cua_free(text);
	/* the sheet and everything below it */
	sheet = find_element(open, NULL, "Confirm");
	assert_non_null(sheet);
	for (size_t i = 0; i < cua_tree_get_element_count(open); i++) {
		cua_element *e = cua_tree_get_element(open, i);

		for (cua_element *a = e; a; a = cua_element_get_parent(a))
			if (a == sheet) {
				assert_true(n < 32);
				ids[n++] = cua_element_get_id(e);
				break;
			}
	}
	assert_true(n >= 3); /* the dialog, its text, Yes, No */
	qsort(ids, n, sizeof(ids[0]), cmp_u32);
	len = snprintf(expect, sizeof(expect), "\nRemoved element IDs: ");
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		len += snprintf(expect + len, sizeof(expect) - (size_t)len,
				"%s%u", i ? ", " : "", (unsigned)ids[i]);
		if (j > i)
			len += snprintf(expect + len,
					sizeof(expect) - (size_t)len, "-%u",
					(unsigned)ids[j]);
		i = j + 1;
	}

	command(fx, "sheet-close");
	closed = observe_until_pred(fx->s, APP, 5000, has_confirm, NULL);
	assert_non_null(closed);
	text = render_flags(closed, CUA_RENDER_DIFF);
	/* the whole line */
	assert_true(has_whole_line(text, expect));
	/* the lists below grew into the space (rows may be added), but no
	 * line names the sheet */
	n_marks = marked_lines(text, marks, 64);
	for (size_t i = 0; i < n_marks; i++) {
		assert_null(strstr(marks[i], "Confirm"));
		assert_null(strstr(marks[i], "Delete all items?"));
		assert_null(bsearch(&(uint32_t){ line_id(marks[i]) }, ids, n,
				    sizeof(ids[0]), cmp_u32));
	}
	cua_free(text);
	cua_tree_unref(open);
	cua_tree_unref(closed);
}

static int
title_is(cua_tree *t, void *data)
{
	return strcmp(cua_tree_get_window_title(t), data) == 0;
}

/* A dialog toplevel: the renderings around it are full trees (another
 * root window), and the main window's ids survive the round trip. */
static void
test_dialog_round_trip(void **state)
{
	struct fx *fx = *state;
	cua_tree *before = observe_until(fx->s, APP, 5000), *dlg, *after;
	char *text;

	assert_non_null(before);
	command(fx, "dialog-open");
	dlg = observe_until_pred(fx->s, APP, 5000, title_is,
				 (void *)"Settings");
	assert_non_null(dlg);
	text = render_flags(dlg, CUA_RENDER_DIFF);
	assert_non_null(strstr(text, "\nWindow: \"Settings\", App: "));
	assert_null(cua_tree_find_element(
		before, cua_element_get_id(find_element(dlg, "button", "OK"))));
	cua_free(text);
	command(fx, "dialog-close");
	after = observe_until_pred(fx->s, APP, 5000, title_is,
				   (void *)"libcua fixture");
	assert_non_null(after);
	text = render_flags(after, CUA_RENDER_DIFF);
	assert_non_null(strstr(text, "\nWindow: \"libcua fixture\", App: "));
	cua_free(text);
	assert_int_equal(
		cua_element_get_id(find_element(after, "button", "Beta")),
		cua_element_get_id(find_element(before, "button", "Beta")));
	assert_int_equal(
		cua_element_get_id(find_element(after, NULL, "Check me")),
		cua_element_get_id(find_element(before, NULL, "Check me")));
	cua_tree_unref(before);
	cua_tree_unref(dlg);
	cua_tree_unref(after);
}

/* cua_session_wait_for_change() wakes up on the app's events. */
static void
test_wait_for_change(void **state)
{
	struct fx *fx = *state;
	cua_tree *t = observe_until(fx->s, APP, 5000), *t2;
	int changed = 0;
	int64_t t0;

	assert_non_null(t);
	command(fx, "toggle Unchecked box");
	t0 = now_ms();
	assert_int_equal(cua_session_wait_for_change(fx->s, t, 5000, &changed),
			 CUA_OK);
	assert_true(changed);
	assert_true(now_ms() - t0 < 5000);
	t2 = observe_until(fx->s, APP, 5000);
	cua_tree_unref(t2);
	command(fx, "toggle Unchecked box");
	cua_tree_unref(t);
	t = observe_until(fx->s, APP, 5000);
	cua_tree_unref(t);
}

/* `cua watch` prints the full tree, then a diff line when the app
 * changes. */
static void
test_cua_watch(void **state)
{
	struct fx *fx = *state;
	const char *argv[] = { CUA_EXE, "watch", APP, NULL };
	struct app_proc w;
	char line[512];

	assert_int_equal(app_start(&w, argv, 1), 0);
	assert_int_equal(app_wait_line(&w, "App=fixture-gtk3", 15000, line,
				       sizeof(line)),
			 0);
	assert_int_equal(app_wait_line(&w, "0 standard window libcua fixture",
				       5000, line, sizeof(line)),
			 0);
	command(fx, "toggle Unchecked box");
	assert_int_equal(app_wait_line(&w, "The following is a diff", 10000,
				       line, sizeof(line)),
			 0);
	assert_int_equal(app_wait_line(&w, "~", 5000, line, sizeof(line)), 0);
	assert_non_null(strstr(line, " Unchecked box"));
	assert_non_null(strstr(line, "Value: on"));
	app_stop(&w);
	command(fx, "toggle Unchecked box");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toggle_is_one_changed_line),
		cmocka_unit_test(test_add_row),
		cmocka_unit_test(test_close_sheet),
		cmocka_unit_test(test_dialog_round_trip),
		cmocka_unit_test(test_wait_for_change),
		cmocka_unit_test(test_cua_watch),
		cmocka_unit_test(test_diff_id_acts_on_element),
	};

	return run_test_group("diff", tests, setup, teardown);
}
