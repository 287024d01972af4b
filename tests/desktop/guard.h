/*
 * The wrong-element guard of the desktop tests: a snapshot of an app's
 * accessible state (role, name, states, value and text of every node of
 * every window), read through AT-SPI over GDBus, independently of libcua,
 * before and after an action. guard_end() fails the test when anything
 * changed that the call did not allow.
 *
 *   struct guard *g = guard_begin(pid);
 *   ACT(cua_session_click(...));          // the action
 *   expect_line("clicked Beta #2");       // its effect, seen by the app
 *   guard_allow(g, "push button", "Beta", GUARD_NODE);
 *   guard_end(g);                         // nothing else changed
 *
 * Allowances are explicit per call. Always ignored, everywhere: the
 * states FOCUSED and ACTIVE (a click moves keyboard focus and activates
 * the window, as a person's click does) and tool tips (they come and go
 * with the pointer).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_GUARD_H
#define CUA_TEST_GUARD_H

#include <sys/types.h>

struct guard;

enum guard_flags {
	GUARD_NODE = 0,    /* the matching nodes themselves */
	GUARD_SUBTREE = 1, /* ... and every node under them, including
			       * nodes added or removed there */
};

/* Snapshots the app with process id `pid` (fails the test when it is not
 * on the AT-SPI bus). */
struct guard *
guard_begin(pid_t pid);

/* Allows changes on the nodes whose AT-SPI role name is `role` (NULL:
 * any) and whose name is `name` (NULL: any) before or after the action;
 * a name ending in '*' matches as a prefix. */
void
guard_allow(struct guard *g, const char *role, const char *name, int flags);

/* Allows changes of these AT-SPI state bits anywhere (1 << state). */
void
guard_allow_states(struct guard *g, unsigned long long mask);

/* Allows new nodes anywhere (an action that opens a new view); the nodes
 * that were there before are still compared. */
void
guard_allow_added(struct guard *g);

/* Snapshots again and fails the test, listing every change nothing
 * allowed; frees `g`. Returns the number of nodes compared. */
int
guard_end(struct guard *g);

/* The same comparison without failing: the number of disallowed changes
 * (their description in *report when not NULL, malloc'd); frees `g`. */
int
guard_end_count(struct guard *g, char **report);

/* Returns once nothing in the app changed for `ms` (at most
 * `timeout_ms`, then fails the test with the last changes seen): what an
 * app still does by itself (layout, a late mapping) must not be taken for
 * an action's effect. */
void
guard_settle(pid_t pid, int ms, int timeout_ms);

/* AT-SPI state numbers the tests name. */
#define GUARD_STATE_CHECKED 4
#define GUARD_STATE_ENABLED 8
#define GUARD_STATE_EXPANDED 10
#define GUARD_STATE_PRESSED 20
#define GUARD_STATE_SELECTED 23
#define GUARD_STATE_SENSITIVE 24
#define GUARD_STATE_SHOWING 25
#define GUARD_STATE_VISIBLE 30

#endif
