/*
 * Desktop tests of what a session keeps about a hostile app
 * (fixture-hostile.c, the shared part in hostile.h): the app's own
 * socket, kept between reads (connections counted by the fixture), and
 * the tree cache's sweep of an app that changes without saying so (names
 * and states changed with no event): served from the cache, the change is
 * found; trusted on its events alone, it would not be.
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
#include <unistd.h>

#include "hostile.h"

/* The connections made to the app's own socket so far, and the calls
 * answered there (command peers); returns the connections still open. */
static unsigned
peer_counts(unsigned *conns, int *calls)
{
	char line[256];
	unsigned open;

	assert_int_equal(app_send(&fx.app, "peers"), 0);
	assert_int_equal(
		app_wait_line(&fx.app, "peers", 5000, line, sizeof(line)), 0);
	assert_int_equal(sscanf(line, "peers %u %d %u", conns, calls, &open),
			 3);
	return open;
}

/* A new session on the app offering a socket of its own, read once: one
 * connection made there, the walk's calls answered there. Returns the
 * counts after that read. */
static void
peer_session(unsigned *conns, int *calls)
{
	cua_tree *t;
	unsigned c0;
	int n0;
	int64_t ms;

	new_session();
	peer_counts(&c0, &n0);
	cmd("peer on");
	assert_int_equal(observe(&t, &ms), CUA_OK);
	assert_non_null(find_element(t, "slider", "Volume"));
	cua_tree_unref(t);
	peer_counts(conns, calls);
	assert_int_equal(*conns, c0 + 1);
	assert_true(*calls > n0 + 20); /* the walk went there */
}

/*
 * An app with a socket of its own (as ATK-bridge apps have): a session
 * connects once and sends every later read there, the walks and the live
 * re-reads before an action; the press action goes over a connection of
 * its own, closed once its handler returned (a handler may run a modal
 * dialog's loop inside it, docs/actions.md §3).
 */
static void
test_peer_kept(void **state)
{
	cua_tree *t;
	cua_element *e;
	char *outcome = NULL, line[256];
	unsigned conns, conns1;
	int calls, calls1;
	int64_t ms;

	(void)state;
	peer_session(&conns, &calls);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(observe(&t, &ms), CUA_OK);
		cua_tree_unref(t);
	}
	assert_int_equal(observe(&t, &ms), CUA_OK);
	e = find_element_prefix(t, "button", "OK");
	assert_non_null(e);
	assert_int_equal(timed_click(e, &outcome, &ms), CUA_OK);
	assert_int_equal(
		app_wait_line(&fx.app, "action 10 0", 5000, line, sizeof(line)),
		0);
	cua_free(outcome);
	cua_tree_unref(t);
	/* the action's connection is kept until the app answered a Ping
	 * sent behind the action (its handler returned), and let go at the
	 * next read; then only the kept one is open (the app sees the other
	 * closed a moment later) */
	assert_int_equal(observe(&t, &ms), CUA_OK);
	cua_tree_unref(t);
	for (int i = 0; peer_counts(&conns1, &calls1) != 1; i++) {
		assert_true(i < 50);
		usleep(100 * 1000);
	}
	assert_int_equal(conns1, conns + 1);
	assert_true(calls1 > calls + 20);
	assert_int_equal(observe(&t, &ms), CUA_OK);
	cua_tree_unref(t);
	assert_int_equal(peer_counts(&conns1, &calls), 1);
	assert_int_equal(conns1, conns + 1); /* reads: the kept one */
}

/* The app dies while it is read over its own socket, which the session
 * kept from an earlier read: the same sentence as on the bus, and its next
 * instance is read. */
static void
test_peer_crash_mid_walk(void **state)
{
	cua_tree *t;
	unsigned conns;
	int calls;
	int64_t ms;

	(void)state;
	peer_session(&conns, &calls);
	cmd("crash-walk 2 kill");
	assert_gone_error(observe(&t, &ms));
	assert_null(t);
	report("crash over the app's socket", ms, WALK_DEADLINE_MS + SLACK_MS);
	assert_true(ms < WALK_DEADLINE_MS + SLACK_MS);
	/* the session lets go of the dead one's socket and reads the next
	 * instance */
	assert_exited();
	start_fixture();
	assert_observable();
	assert_observable();
}

/* The app stops answering on its own socket: the calls' own timeouts and
 * the walk's deadline hold as on the bus. */
static void
test_peer_never_answers(void **state)
{
	unsigned conns, conns1;
	int calls;

	(void)state;
	peer_session(&conns, &calls);
	cmd("hang-all on");
	assert_observe_times_out("app never answers on its socket");
	cmd("hang-all off");
	assert_observable();
	/* the socket with calls left unanswered was given up: a new one */
	peer_counts(&conns1, &calls);
	assert_int_equal(conns1, conns + 1);
}

/* what the tree cache said of the observations */
static struct cache_tally tally;

/* An observation of mode hang (every node answers), served from the
 * cache: its text, malloc'd. */
static char *
cached_text(void)
{
	cua_tree *t;
	char *text;
	int64_t ms;
	int hits = tally.hits;

	assert_int_equal(observe(&t, &ms), CUA_OK);
	assert_int_equal(tally.hits, hits + 1);
	text = render(t);
	assert_non_null(text);
	cua_tree_unref(t);
	return text;
}

/* A session on mode hang with the cache in `mode`, and the tree cached. */
static void
cache_session(const char *mode)
{
	cua_tree *t;
	int64_t ms;
	const char *v = getenv("CUA_CACHE_VERIFY");
	char *verify = v ? strdup(v) : NULL;

	new_session();
	/* trusted on its events alone, the cache is meant to lie here:
	 * verify mode (the suites' run with it on) would fail the lie */
	if (strcmp(mode, "all") == 0)
		unsetenv("CUA_CACHE_VERIFY");
	assert_int_equal(cua_session_set_option(fx.s, "tree_cache", mode),
			 CUA_OK);
	if (verify)
		setenv("CUA_CACHE_VERIFY", verify, 1);
	free(verify);
	cua_session_set_log_handler(fx.s, cache_tally_log, &tally);
	cua_session_set_log_level(fx.s, CUA_LOG_DEBUG);
	cmd("hang-one off");
	cmd("mode hang");
	memset(&tally, 0, sizeof(tally));
	for (int i = 0; i < 20 && !tally.hits; i++) {
		assert_int_equal(observe(&t, &ms), CUA_OK);
		assert_non_null(find_element(t, "button", "After hang"));
		cua_tree_unref(t);
	}
	assert_true(tally.hits > 0);
}

/*
 * An app renames a button and disables another without an event. Trusted
 * on its events alone (tree_cache `all`), the cache serves the old tree:
 * the fixture is silent indeed. Swept (tree_cache `sweep`, what
 * LibreOffice gets), the observation is still served from the cache, and
 * shows both changes.
 */
static void
test_cache_sweep_silent_changes(void **state)
{
	char *text;

	(void)state;
	cache_session("all");
	cmd("silent-name Renamed");
	text = cached_text();
	assert_non_null(strstr(text, " button After hang"));
	assert_null(strstr(text, "Renamed"));
	cua_free(text);

	cache_session("sweep");
	text = cached_text();
	assert_int_equal(tally.found, 0); /* nothing changed yet */
	cua_free(text);
	cmd("silent-name Swept");
	cmd("silent-disable on");
	text = cached_text();
	printf("# swept: %d found changed\n", tally.found);
	assert_int_equal(tally.found, 2);
	assert_non_null(strstr(text, " button Swept"));
	assert_null(strstr(text, "After hang"));
	assert_non_null(strstr(text, " button (disabled) Before hang"));
	cua_free(text);
	/* and back, as silently */
	cmd("silent-name -");
	cmd("silent-disable off");
	text = cached_text();
	assert_int_equal(tally.found, 4);
	assert_non_null(strstr(text, " button After hang"));
	assert_non_null(strstr(text, " button Before hang"));
	cua_free(text);
	cua_session_set_log_handler(fx.s, NULL, NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer_kept),
		cmocka_unit_test(test_peer_crash_mid_walk),
		cmocka_unit_test(test_peer_never_answers),
		cmocka_unit_test(test_cache_sweep_silent_changes),
	};

	return run_test_group("hostile-cache", tests, hostile_setup,
			      hostile_teardown);
}
