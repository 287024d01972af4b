/*
 * Helpers for the desktop tests: they run inside `cua desktop run`, start
 * real applications, and observe them through the public API only.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_HARNESS_H
#define CUA_TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <cua/cua.h>

struct app_proc {
	pid_t pid;
	int in_fd;  /* its stdin, or -1 */
	int out_fd; /* its stdout, or -1 */
	char buf[8192];
	size_t len;
};

/* Starts argv[0] (searched in PATH) in the background. With `pipes`, its
 * stdin and stdout are connected to the test. */
int
app_start(struct app_proc *p, const char *const argv[], int pipes);
/* Reads the app's stdout until a line starts with `prefix`; copies the
 * line to `line`. Returns 0, or -1 on timeout/EOF. */
int
app_wait_line(struct app_proc *p, const char *prefix, int timeout_ms,
	      char *line, size_t size);
/* Reads the app's stdout until a line starts with `until` (NULL: until
 * the timeout); every line read, the matching one included, is appended
 * to `log` (may be NULL) while it fits. Returns 0 when found, -1 on
 * timeout/EOF. */
int
app_read_until(struct app_proc *p, const char *until, int timeout_ms, char *log,
	       size_t size);
int
app_send(struct app_proc *p, const char *command);
/* SIGTERM, then SIGKILL after a grace period; reaps. */
void
app_stop(struct app_proc *p);

/* Runs argv (argv[0] a path) to its end with its stdout in `out` (as much
 * as fits, NUL-terminated; stderr is the test's). Returns its exit
 * status, or -1 when it did not exit. */
int
run_command(const char *const argv[], char *out, size_t size);
/* run_command() with before_exec(data) called in the child first (it
 * may only set the environment: the child is single-threaded there and
 * only execs). */
int
run_command_with(const char *const argv[], void (*before_exec)(void *),
		 void *data, char *out, size_t size);

/* Sends one JSON-RPC line to cua-mcp (`mcp` started with pipes) and
 * reads lines until the answer to `id`, which it returns (malloc'd); NULL
 * after 15 s. Lines longer than the buffer keep their head only. */
char *
mcp_call(struct app_proc *mcp, const char *request, int id);
/* Starts cua-mcp (`exe`, then `args`, NULL terminated) on pipes and
 * initializes the MCP session. Returns 0, or -1. */
int
mcp_start(struct app_proc *mcp, const char *exe, const char *const *args);

/*
 * The kind of desktop the test runs in: what CUA_TEST_DESKTOP_KIND names
 * ("x11", "sway" or "mutter": meson's desktop-sway and desktop-mutter
 * suites run the test inside `cua desktop run --wayland sway|mutter`),
 * asserting that the environment is that kind's (a Wayland display for
 * sway and mutter, with or without Xwayland's DISPLAY; no Wayland display
 * for x11), so that a
 * test never runs on another desktop than the one its suite names.
 * Without the variable: "sway" in a Wayland environment, else "x11".
 * test_session() checks it.
 */
const char *
test_desktop_kind(void);

/* A session on the test desktop (asserts). */
cua_session *
test_session(void);
/* Observes `app` until it succeeds or `timeout_ms` passes (apps take a
 * moment to register); returns NULL and leaves the error message when it
 * never succeeds. */
cua_tree *
observe_until(cua_session *s, const char *app, int timeout_ms);
/* Observes until `pred(tree)` holds or the timeout passes. */
cua_tree *
observe_until_pred(cua_session *s, const char *app, int timeout_ms,
		   int (*pred)(cua_tree *t, void *data), void *data);
/* observe_until_pred() predicate: the observation's window is titled
 * `data` (a string). */
int
window_titled(cua_tree *t, void *data);
char *
render(cua_tree *t); /* owned; cua_free */

/* What the tree cache said of a session's observations (its debug lines,
 * docs/concurrency.md §6), counted by cache_tally_log. */
struct cache_tally {
	int hits;       /* served from the cache */
	int swept_hits; /* of them, with objects compared (a sweep) */
	int found;      /* objects a sweep found changed without an event */
	int fulls;      /* read in full (the reasons printed as TAP comments) */
	int untrusted;  /* of them, because the toolkit is not trusted */
};

/* A session log handler (data: struct cache_tally *); the session's log
 * level must be CUA_LOG_DEBUG. */
void
cache_tally_log(cua_session *s, cua_log_level level, const char *msg,
		void *data);

/* First element with this role text and title (NULL: any). */
cua_element *
find_element(cua_tree *t, const char *role, const char *title);
/* First element whose title starts with `prefix`. */
cua_element *
find_element_prefix(cua_tree *t, const char *role, const char *prefix);
/* The element's line (without indentation); owned, cua_free. */
char *
element_line(cua_element *e);
/* 1 if `text` contains `needle` as a whole line (after leading TABs). */
int
has_line(const char *text, const char *needle);

/* Path of a file in tests/data. */
const char *
data_path(const char *name);
int64_t
now_ms(void);

/* Runs a libcua call that must succeed; fails the test with its error. */
#define ACT(call)                                                              \
	do {                                                                   \
		cua_result r_ = (call);                                        \
		if (r_ != CUA_OK)                                              \
			fail_msg("%s: %s", #call, cua_error_message());        \
	} while (0)

#endif
