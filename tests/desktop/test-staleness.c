/*
 * The staleness fuzz (docs/identity.md §4–§5, docs/actions.md §1.3) on the GTK 3,
 * GTK 4 and Qt 5 fixtures: observe, mutate the window at random (rename,
 * remove, insert, append, move and reverse the buttons of a row, toggle
 * check boxes, retitle the window), then click a button by the id the
 * observation gave it. The click must land on that object (or, through
 * the equivalence refetch, on the one button that now carries its label;
 * or, when the row reads exactly as observed, on the object that took the
 * observed one's place with its label) or refuse with a stale sentence; anything else is a wrong-element
 * action, and there must be none. The fixtures print which object was
 * clicked (its serial number); on sampled iterations the wrong-element
 * guard (guard.h) also checks that nothing else in the app changed.
 *
 * Bounded for CI (CUA_STALENESS_SECONDS per toolkit, default 80 s, at
 * most 400 iterations); CUA_STALENESS_ITERATIONS=N runs N iterations per
 * toolkit whatever the time, and CUA_STALENESS_GUARD_EVERY=K guards every
 * K-th iteration (default 4).
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

#include "common.h"
#include "guard.h"

#define INVALID_MSG                                                            \
	"The element ID is no longer valid. Try to get the on-screen content " \
	"again and see if that resolves the issue."
#define START_MSG                                                              \
	"The element was invalidated, and an attempt was made to refetch it, " \
	"but the refetch couldn't be started because multiple elements were "  \
	"found that match the criteria. Try to get the on-screen content "     \
	"again and see if that resolves the issue."
#define FINISH_MSG                                                             \
	"The element was invalidated, and an attempt was made to refetch it, " \
	"but the refetch couldn't be finished because multiple elements were " \
	"found that match the criteria. Try to get the on-screen content "     \
	"again and see if that resolves the issue."

struct fixture {
	const char *app, *exe, *arg;
};

static const struct fixture gtk3 = { "fixture-gtk3", FIXTURE_GTK3, "--small" };
static const struct fixture gtk4 = { "fixture-gtk4", FIXTURE_GTK4, NULL };
static const struct fixture qt5 = { "fixture-qt5", FIXTURE_QT5, NULL };

static const struct fixture *fx;
static struct app_proc app;

/* Makes `f` the fixture under test (one runs at a time: their windows
 * would cover each other). */
static void
use(const struct fixture *f)
{
	fx = f;
	fixture_switch(&app, f->app, f->exe, f->arg);
}

/* The group setup: the session, and the fixture for
 * app_session_teardown() to stop. */
static int
setup(void **state)
{
	*state = &app;
	return session_setup(state);
}

/* Sends a command and waits for its "done"; lines before it go to log. */
static void
command(const char *cmd, char *log, size_t size)
{
	fixture_command(&app, fx->app, cmd, log, size);
}

/* ------------------------------------------------------------------ */
/* The model of the button row                                          */

#define POOL 8
static const char *const labels[POOL] = {
	"Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta",
};

struct model {
	char label[32][16];
	int serial[32];
	int n;
	int next_serial;
};

/* The same labels in the same order (the row reads the same). */
static int
same_labels(const struct model *a, const struct model *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->label[i], b->label[i]) != 0)
			return 0;
	return 1;
}

static int
model_count(const struct model *m, const char *label)
{
	int n = 0;

	for (int i = 0; i < m->n; i++)
		n += strcmp(m->label[i], label) == 0;
	return n;
}

static int
model_find_last(const struct model *m, const char *label)
{
	for (int i = m->n - 1; i >= 0; i--)
		if (strcmp(m->label[i], label) == 0)
			return i;
	return -1;
}

static void
model_remove(struct model *m, int i)
{
	memmove(&m->label[i], &m->label[i + 1], (size_t)(m->n - i - 1) * 16);
	memmove(&m->serial[i], &m->serial[i + 1],
		(size_t)(m->n - i - 1) * sizeof(int));
	m->n--;
}

static void
model_insert(struct model *m, int i, const char *label, int serial)
{
	memmove(&m->label[i + 1], &m->label[i], (size_t)(m->n - i) * 16);
	memmove(&m->serial[i + 1], &m->serial[i],
		(size_t)(m->n - i) * sizeof(int));
	snprintf(m->label[i], 16, "%s", label);
	m->serial[i] = serial;
	m->n++;
}

/* One random mutation, applied to the fixture and to the model. `target`
 * is the observed target's index (mutations favour it and its siblings). */
static void
mutate(struct model *m, int target, char *log, size_t size)
{
	char cmd[96];
	int op = rand() % 8,
	    i = rand() % 3 == 0 && target < m->n ? target : rand() % m->n;
	const char *l = labels[rand() % POOL];

	if (m->n <= 2 && op == 1)
		op = 2;
	if (m->n >= 10 && (op == 2 || op == 3))
		op = 1;
	switch (op) {
	case 0: /* rename (by label: the last button with it) */
		snprintf(cmd, sizeof(cmd), "rename %s %s", m->label[i], l);
		i = model_find_last(m, m->label[i]);
		snprintf(m->label[i], 16, "%s", l);
		break;
	case 1: /* remove */
		snprintf(cmd, sizeof(cmd), "remove %s", m->label[i]);
		model_remove(m, model_find_last(m, m->label[i]));
		break;
	case 2: /* insert at the start */
		snprintf(cmd, sizeof(cmd), "insert %s", l);
		model_insert(m, 0, l, m->next_serial++);
		break;
	case 3: /* append */
		snprintf(cmd, sizeof(cmd), "append %s", l);
		model_insert(m, m->n, l, m->next_serial++);
		break;
	case 4: { /* move */
		int to = rand() % m->n, from = model_find_last(m, m->label[i]);
		char label[16];
		int serial = m->serial[from];

		snprintf(cmd, sizeof(cmd), "move %s %d", m->label[i], to);
		snprintf(label, sizeof(label), "%s", m->label[from]);
		model_remove(m, from);
		model_insert(m, to > m->n ? m->n : to, label, serial);
		break;
	}
	case 5: /* a state elsewhere in the window */
		snprintf(cmd, sizeof(cmd), "toggle %s",
			 rand() % 2 ? "Check me" : "Unchecked box");
		break;
	case 6: /* the window's title (the window is found by identity) */
		snprintf(cmd, sizeof(cmd), "title *libcua fixture %d",
			 rand() % 100);
		break;
	default: /* reverse */
		snprintf(cmd, sizeof(cmd), "reverse");
		for (int a = 0, b = m->n - 1; a < b; a++, b--) {
			char tl[16];
			int ts = m->serial[a];

			memcpy(tl, m->label[a], 16);
			memcpy(m->label[a], m->label[b], 16);
			memcpy(m->label[b], tl, 16);
			m->serial[a] = m->serial[b];
			m->serial[b] = ts;
		}
		break;
	}
	command(cmd, log, size);
}

static int
in_pool(const char *title)
{
	for (int i = 0; i < POOL; i++)
		if (strcmp(title, labels[i]) == 0)
			return 1;
	return 0;
}

struct tally {
	int runs, mutations, same, equivalent, wrong, invalid, finish, start;
	int refetched; /* successes found by the equivalence refetch */
	int guarded;   /* iterations checked by the guard */
};

/* A fresh row of three buttons, their serials learnt by clicking each. */
static void
reset_row(struct model *m)
{
	cua_tree *t = need_observation(fx->app, 15000);

	m->n = 0;
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (strcmp(cua_element_get_role(e), "button") == 0 &&
		    in_pool(cua_element_get_title(e))) {
			char cmd[64];

			snprintf(cmd, sizeof(cmd), "remove %s",
				 cua_element_get_title(e));
			command(cmd, NULL, 0);
		}
	}
	cua_tree_unref(t);
	fixture_drain(&app, fx->app, NULL, 0);
	for (int k = 0; k < 3; k++) {
		char cmd[64], line[128];
		cua_element *e;

		snprintf(cmd, sizeof(cmd), "append %s", labels[k]);
		command(cmd, NULL, 0);
		snprintf(m->label[k], 16, "%s", labels[k]);
		m->n++;
		t = need_observation(fx->app, 15000);
		e = find_element(t, "button", labels[k]);
		assert_non_null(e);
		ACT(cua_session_click(session, fx->app, cua_element_get_id(e),
				      CUA_BUTTON_LEFT, 1, NULL));
		snprintf(cmd, sizeof(cmd), "clicked %s #", labels[k]);
		if (app_wait_line(&app, cmd, 5000, line, sizeof(line)) < 0)
			fail_msg("no click of %s", labels[k]);
		m->serial[k] = atoi(strchr(line, '#') + 1);
		m->next_serial = m->serial[k] + 1;
		cua_tree_unref(t);
	}
}

static void
one_iteration(struct model *m, int it, int guarded, struct tally *tl)
{
	cua_tree *t = need_observation(fx->app, 15000);
	cua_element *row[32];
	int n = 0, target, target_serial, nmut, refetched;
	struct model observed; /* the row as the observation showed it */
	char target_label[16], *p, *out = NULL, log[8192];
	struct guard *g = NULL;
	uint32_t id;
	cua_result r;

	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (strcmp(cua_element_get_role(e), "button") == 0 &&
		    in_pool(cua_element_get_title(e)) && n < 32)
			row[n++] = e;
	}
	if (n != m->n)
		fail_msg("%s iteration %d: %d buttons rendered, model has %d",
			 fx->app, it, n, m->n);
	for (int i = 0; i < n; i++)
		if (strcmp(cua_element_get_title(row[i]), m->label[i]) != 0)
			fail_msg("%s iteration %d: button %d is %s, model %s",
				 fx->app, it, i, cua_element_get_title(row[i]),
				 m->label[i]);
	target = rand() % n;
	observed = *m;
	id = cua_element_get_id(row[target]);
	target_serial = m->serial[target];
	snprintf(target_label, sizeof(target_label), "%s", m->label[target]);
	cua_tree_unref(t);

	log[0] = '\0';
	nmut = 1 + rand() % 3;
	for (int k = 0; k < nmut; k++)
		mutate(m, target < m->n ? target : 0, log, sizeof(log));
	tl->mutations += nmut;
	if (m->n == 0) {
		command("append Alpha", log, sizeof(log));
		model_insert(m, 0, "Alpha", m->next_serial++);
	}
	if (strstr(log, "clicked "))
		fail_msg("%s iteration %d: a late click:\n%s", fx->app, it,
			 log);

	if (guarded) {
		/* the mutations' layout must be over before the snapshot */
		guard_settle(app.pid, 300, 5000);
		g = guard_begin(app.pid);
	}
	r = cua_session_click(session, fx->app, id, CUA_BUTTON_LEFT, 1, &out);
	if (g) {
		char *report = NULL;

		/* a push button's click changes nothing in its states; the
		 * clicked one is allowed anyway */
		guard_allow(g, "push button", target_label, GUARD_NODE);
		if (guard_end_count(g, &report)) {
			tl->wrong++;
			fprintf(stderr,
				"WRONG ELEMENT: %s iteration %d changed "
				"other nodes:\n%s",
				fx->app, it, report);
		}
		free(report);
		tl->guarded++;
	}
	fixture_drain(&app, fx->app, log, sizeof(log));
	tl->runs++;
	refetched = r == CUA_OK && strstr(out, "\"refetched\":true");
	tl->refetched += refetched;
	cua_free(out);
	p = strstr(log, "clicked ");
	if (r == CUA_OK) {
		char label[16];
		int serial, last = model_find_last(m, target_label);

		if (!p)
			fail_msg("%s iteration %d: success but no click",
				 fx->app, it);
		if (sscanf(p, "clicked %15s #%d", label, &serial) != 2)
			fail_msg("%s iteration %d: odd output %s", fx->app, it,
				 p);
		if (strstr(p + 1, "clicked "))
			fail_msg("%s iteration %d: two clicks:\n%s", fx->app,
				 it, log);
		/* the observed object, still with the observed label; or,
		 * through the refetch only, the one button that now has that
		 * label (docs/identity.md §4 step 5: the equivalent element, used
		 * only when unique) */
		if (serial == target_serial &&
		    strcmp(label, target_label) == 0) {
			tl->same++;
		} else if (serial != target_serial && refetched &&
			   strcmp(label, target_label) == 0 &&
			   model_count(m, target_label) == 1 &&
			   m->serial[last] == serial) {
			tl->equivalent++;
		} else if (serial != target_serial && !refetched &&
			   strcmp(label, target_label) == 0 &&
			   same_labels(m, &observed) &&
			   m->serial[target] == serial) {
			/* another object where the observed one was, in a row
			 * that reads exactly as observed: every step of the
			 * locator holds, and the resolved object wins
			 * (docs/identity.md §4 step 4) */
			tl->equivalent++;
		} else {
			tl->wrong++;
			fprintf(stderr,
				"WRONG ELEMENT: %s iteration %d wanted %s "
				"#%d, clicked %s #%d (%s)\n",
				fx->app, it, target_label, target_serial, label,
				serial, refetched ? "refetched" : "located");
		}
	} else {
		const char *msg = cua_error_message();

		/* nothing may arrive late either */
		app_read_until(&app, NULL, 100, log, sizeof(log));
		if (strstr(log, "clicked "))
			fail_msg("%s iteration %d: error '%s' but a click "
				 "happened:\n%s",
				 fx->app, it, msg, log);
		if (strcmp(msg, INVALID_MSG) == 0)
			tl->invalid++;
		else if (strcmp(msg, FINISH_MSG) == 0)
			tl->finish++;
		else if (strcmp(msg, START_MSG) == 0)
			tl->start++;
		else
			fail_msg("%s iteration %d: unexpected error: %s",
				 fx->app, it, msg);
	}
}

static void
staleness_run(int strict, unsigned seed, int iterations, int64_t deadline,
	      int guard_every, struct tally *tl)
{
	struct model m = { .n = 0, .next_serial = 1 };

	srand(seed);
	ACT(cua_session_set_option(session, "locator_strict_siblings",
				   strict ? "1" : "0"));
	reset_row(&m);
	for (int it = 0; it < iterations && now_ms() < deadline; it++)
		one_iteration(&m, it, guard_every > 0 && it % guard_every == 0,
			      tl);
	ACT(cua_session_set_option(session, "locator_strict_siblings", "0"));
}

static void
report(const char *how, const struct tally *t)
{
	fprintf(stderr,
		"staleness %s (%s): %d actions after %d mutations: %d same "
		"object (%d through the refetch), %d equivalent object, %d "
		"WRONG, %d invalid, %d ambiguous, %d unlocatable; %d checked by "
		"the guard\n",
		fx->app, how, t->runs, t->mutations, t->same, t->refetched,
		t->equivalent, t->wrong, t->invalid, t->finish, t->start,
		t->guarded);
}

static void
fuzz(const struct fixture *f, unsigned seed)
{
	struct tally d = { 0 }, s = { 0 };
	const char *env_n = getenv("CUA_STALENESS_ITERATIONS");
	const char *env_s = getenv("CUA_STALENESS_SECONDS");
	const char *env_g = getenv("CUA_STALENESS_GUARD_EVERY");
	int n = env_n ? atoi(env_n) : 400;
	int64_t budget = (env_n ? 1000000 : env_s ? atoi(env_s) : 80) * 1000LL;
	int guard_every = env_g ? atoi(env_g) : 4;
	int64_t t0 = now_ms();

	use(f);
	/* two thirds with the sibling rule of docs/differences.md D5, a
	 * third with strict siblings */
	staleness_run(0, seed, n - n / 3, t0 + budget * 2 / 3, guard_every, &d);
	staleness_run(1, seed + 1, n / 3, t0 + budget, guard_every, &s);
	report("default siblings", &d);
	report("strict siblings", &s);
	fprintf(stderr, "staleness %s: %lld s\n", f->app,
		(long long)(now_ms() - t0) / 1000);
	assert_int_equal(d.wrong, 0);
	assert_int_equal(s.wrong, 0);
	/* enough to mean something, and not merely refusing everything */
	assert_true(d.runs + s.runs >= (env_n ? n : 40));
	assert_true(d.same > d.runs / 4);
}

static void
test_staleness_gtk3(void **state)
{
	fuzz(&gtk3, 20261130u);
}

static void
test_staleness_gtk4(void **state)
{
	fuzz(&gtk4, 20261201u);
}

static void
test_staleness_qt5(void **state)
{
	fuzz(&qt5, 20261202u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_staleness_gtk3),
		cmocka_unit_test(test_staleness_gtk4),
		cmocka_unit_test(test_staleness_qt5),
	};

	return run_test_group("staleness", tests, setup, app_session_teardown);
}
