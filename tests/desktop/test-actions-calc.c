/*
 * Calculators: repeated activations and typed line breaks on real apps,
 * read back from each app's own display (docs/actions.md §3.4, §9).
 *
 * - galculator (GTK 3): its keys are toggle buttons the app releases
 *   about 100 ms after they went down; AC 7 7 + 8 = as a cua-mcp
 *   sequence reads 85, and five separate clicks on 1 read 11111.
 * - GNOME Calculator (GTK 4): a button fires 250 ms after its click
 *   action; 1 1 1 as separate calls reads 111, + 2 = as a sequence 113.
 * - SpeedCrunch (Qt 5): "6*7\n" typed into its input line evaluates; a
 *   click on the Settings menu title opens that menu and nothing else
 *   (no dialog, no radio item changed), and so does its Angle Unit
 *   submenu title.
 *
 * Every action runs inside the wrong-element guard (guard.h).
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

#include "common.h"
#include "guard.h"

static const char *app;

/* Starts `app` through libcua (its desktop entry) and observes it until
 * `ready` holds. */
static cua_tree *
launch(const char *name, int (*ready)(cua_tree *t, void *data), void *data)
{
	cua_tree *t = NULL;

	app = name;
	if (cua_session_observe(session, app, 0, &t) != CUA_OK)
		fail_msg("launch %s: %s", app, cua_error_message());
	cua_tree_unref(t);
	t = observe_until_pred(session, app, 30000, ready, data);
	if (!t)
		fail_msg("%s did not come up", app);
	return t;
}

static int
has(cua_tree *t, void *data)
{
	const char *const *rt = data;

	return find_element(t, rt[0], rt[1]) != NULL;
}

struct want_display {
	uint32_t id;
	const char *value;
	int contains;
};

static int
value_is(cua_tree *t, void *data)
{
	struct want_display *w = data;
	cua_element *e = cua_tree_find_element(t, w->id);

	if (!e)
		return 0;
	return w->contains ?
		       strstr(cua_element_get_value(e), w->value) != NULL :
		       strcmp(cua_element_get_value(e), w->value) == 0;
}

/* Waits until element `id` shows `value` (contains: somewhere in it). */
static void
wait_value(uint32_t id, const char *value, int contains)
{
	struct want_display w = { id, value, contains };
	cua_tree *t = observe_until_pred(session, app, 5000, value_is, &w);

	if (!t) {
		cua_tree *now = observe_until(session, app, 5000);
		cua_element *e = now ? cua_tree_find_element(now, id) : NULL;

		fail_msg("%s: element %u never showed '%s' (now '%s')", app, id,
			 value, e ? cua_element_get_value(e) : "(gone)");
	}
	cua_tree_unref(t);
}

/* One click per element, as separate calls, back to back. */
static void
clicks(const uint32_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ACT(cua_session_click(session, app, ids[i], CUA_BUTTON_LEFT, 1,
				      NULL));
}

/* The same clicks as one cua-mcp sequence; `tails` end the lines of the
 * buttons in the answer of get_app_state (JSON-escaped). */
static void
mcp_sequence(const char *const *tails, size_t n)
{
	const char *args[] = { "--trust-apps", "--no-structured-content",
			       NULL };
	struct app_proc mcp;
	char req[4096], *line, want[64];
	size_t k;

	assert_int_equal(mcp_start(&mcp, CUA_MCP_EXE, args), 0);
	snprintf(req, sizeof(req),
		 "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
		 "\"params\":{\"name\":\"get_app_state\",\"arguments\":"
		 "{\"app\":\"%s\"}}}",
		 app);
	line = mcp_call(&mcp, req, 2);
	assert_non_null(line);
	k = (size_t)snprintf(
		req, sizeof(req),
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
		"\"params\":{\"name\":\"sequence\",\"arguments\":"
		"{\"app\":\"%s\",\"steps\":[",
		app);
	for (size_t i = 0; i < n; i++) {
		const char *p = strstr(line, tails[i]);

		if (!p)
			fail_msg("no '%s' in %s", tails[i], line);
		while (p > line && p[-1] >= '0' && p[-1] <= '9')
			p--;
		k += (size_t)snprintf(req + k, sizeof(req) - k,
				      "%s{\"tool\":\"click\",\"arguments\":"
				      "{\"element_index\":\"%d\"}}",
				      i ? "," : "", atoi(p));
	}
	snprintf(req + k, sizeof(req) - k, "]}}}");
	free(line);
	line = mcp_call(&mcp, req, 3);
	assert_non_null(line);
	snprintf(want, sizeof(want), "Completed %zu of %zu steps.", n, n);
	if (!strstr(line, want))
		fail_msg("the sequence: %s", line);
	free(line);
	app_stop(&mcp);
}

/* ------------------------------------------------------------------ */

static void
test_galculator(void **state)
{
	const char *ready[] = { "toggle button", "AC" };
	cua_tree *t = launch("galculator", has, ready);
	pid_t pid = (pid_t)cua_tree_get_pid(t);
	uint32_t display = cua_element_get_id(
		need_element(app, t, "text entry area", NULL));
	uint32_t ac =
		cua_element_get_id(need_element(app, t, "toggle button", "AC"));
	uint32_t one =
		cua_element_get_id(need_element(app, t, "toggle button", "1"));
	uint32_t five_ones[] = { ac, one, one, one, one, one };
	/* the buttons the sequence presses (see the first guard) */
	static const char *const pressed[] = { "AC", "7", "+", "8", "=" };
	const char *const seq[] = {
		" toggle button AC,", " toggle button 7,", " toggle button 7,",
		" toggle button +,",  " toggle button 8,", " toggle button =,",
	};
	struct guard *g;

	/* separate calls: AC, then 1 five times */
	g = guard_begin(pid);
	clicks(five_ones, 6);
	wait_value(display, "11111", 0);
	guard_allow(g, "text", NULL, GUARD_NODE); /* the display */
	/* a button is CHECKED while pressed and let go a moment after the
	 * display shows its digit: the clicked buttons themselves may be
	 * caught pressed, any other change is still a stray effect */
	guard_allow(g, "toggle button", "AC", GUARD_NODE);
	guard_allow(g, "toggle button", "1", GUARD_NODE);
	guard_end(g);

	/* a sequence: AC 7 7 + 8 = */
	g = guard_begin(pid);
	mcp_sequence(seq, 6);
	wait_value(display, "85", 0);
	guard_allow(g, "text", NULL, GUARD_NODE);
	for (size_t i = 0; i < sizeof(pressed) / sizeof(pressed[0]); i++)
		guard_allow(g, "toggle button", pressed[i], GUARD_NODE);
	guard_end(g);
	stop_pid(pid);
	cua_tree_unref(t);
}

static void
test_gnome_calculator(void **state)
{
	const char *ready[] = { "button", "1" };
	cua_tree *t = launch("gnome-calculator", has, ready);
	pid_t pid = (pid_t)cua_tree_get_pid(t);
	uint32_t input = cua_element_get_id(
		need_element(app, t, "text entry area", NULL));
	uint32_t one = cua_element_get_id(need_element(app, t, "button", "1"));
	uint32_t ones[] = { one, one, one };
	const char *const seq[] = {
		" button +,",
		" button 2\\n",
		" button =,",
	};
	struct guard *g;

	/* separate calls: 1 1 1 */
	g = guard_begin(pid);
	clicks(ones, 3);
	wait_value(input, "111", 0);
	/* the input, and what typing enables (Undo) */
	guard_allow(g, "text", NULL, GUARD_NODE);
	guard_allow(g, "push button", "Undo", GUARD_NODE);
	guard_end(g);

	/* a sequence: + 2 = */
	g = guard_begin(pid);
	mcp_sequence(seq, 3);
	wait_value(input, "113", 0);
	/* the input, and the history the result goes to */
	guard_allow(g, "text", NULL, GUARD_NODE);
	guard_allow(g, "push button", "Undo", GUARD_NODE);
	guard_allow(g, "list", NULL, GUARD_SUBTREE);
	guard_allow(g, "scroll bar", NULL, GUARD_SUBTREE);
	guard_end(g);
	stop_pid(pid);
	cua_tree_unref(t);
}

static int
menu_shows(cua_tree *t, void *data)
{
	return find_element(t, "menu item", data) != NULL;
}

static void
test_speedcrunch(void **state)
{
	const char *ready[] = { NULL, "Settings" };
	cua_tree *t = launch("speedcrunch", has, ready), *t2;
	pid_t pid = (pid_t)cua_tree_get_pid(t);
	struct guard *g;
	char *out = NULL;

	/* a line break typed is Return: the expression is evaluated */
	g = guard_begin(pid);
	ACT(cua_session_type_text(session, app, "6*7\n", &out));
	if (!strstr(out, "\"route\":\"keys\""))
		fail_msg("type_text: %s", out);
	cua_free(out);
	{
		cua_element *display = NULL;

		for (int i = 0; i < 50 && !display; i++) {
			t2 = observe_until(session, app, 5000);
			display = find_element(t2, "text entry area", NULL);
			if (display &&
			    !strstr(cua_element_get_value(display), "= 42"))
				display = NULL;
			if (!display) {
				cua_tree_unref(t2);
				usleep(100 * 1000);
			}
		}
		if (!display)
			fail_msg("SpeedCrunch did not evaluate 6*7");
		cua_tree_unref(t2);
	}
	/* the display, the input line, and the hint that previews the
	 * result while one types */
	guard_allow(g, "text", NULL, GUARD_NODE);
	guard_allow(g, "label", "Type an expression here", GUARD_NODE);
	guard_end(g);

	/* the menu title opens its menu; nothing is pressed */
	g = guard_begin(pid);
	ACT(cua_session_click(
		session, app,
		cua_element_get_id(need_element(app, t, NULL, "Settings")),
		CUA_BUTTON_LEFT, 1, &out));
	if (!strstr(out, "\"route\":\"action:ShowMenu\""))
		fail_msg("click Settings: %s", out);
	cua_free(out);
	t2 = observe_until_pred(session, app, 5000, menu_shows,
				(void *)"Angle Unit");
	if (!t2)
		fail_msg("the Settings menu did not open");
	guard_allow(g, "menu item", "Settings", GUARD_SUBTREE);
	guard_end(g);

	/* its submenu title too: the angle units stay as they were */
	g = guard_begin(pid);
	ACT(cua_session_click(session, app,
			      cua_element_get_id(need_element(
				      app, t2, "menu item", "Angle Unit")),
			      CUA_BUTTON_LEFT, 1, &out));
	if (!strstr(out, "\"route\":\"action:ShowMenu\""))
		fail_msg("click Angle Unit: %s", out);
	cua_free(out);
	cua_tree_unref(t2);
	t2 = observe_until_pred(session, app, 5000, menu_shows,
				(void *)"Radian");
	if (!t2)
		fail_msg("the Angle Unit menu did not open");
	cua_tree_unref(t2);
	/* SHOWING and VISIBLE under the titles; CHECKED nowhere */
	guard_allow_states(g, (1ull << GUARD_STATE_SHOWING) |
				      (1ull << GUARD_STATE_VISIBLE) |
				      (1ull << GUARD_STATE_SELECTED));
	guard_allow(g, "popup menu", NULL, GUARD_NODE);
	guard_end(g);
	ACT(cua_session_press_key(session, app, "Escape", NULL));
	ACT(cua_session_press_key(session, app, "Escape", NULL));
	stop_pid(pid);
	cua_tree_unref(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_galculator),
		cmocka_unit_test(test_gnome_calculator),
		cmocka_unit_test(test_speedcrunch),
	};

	return run_test_group("actions-calc", tests, session_setup,
			      session_teardown);
}
