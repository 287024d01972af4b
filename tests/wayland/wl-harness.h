/*
 * Helpers for the Wayland tests. They run inside tests/wayland/sway-session
 * (headless sway, private session and accessibility buses) and check
 * effects through two channels that do not go through the code under
 * test: the fixture app's own output (tests/desktop/fixture-gtk3.c prints
 * every change) and AT-SPI read by tests/wayland/atspi-probe (pyatspi).
 *
 * The display operations a test drives go through struct wl_ops, so the
 * same test bodies can run over the wlroots building blocks (wl_ops_wlr)
 * and, later, over a display driver.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_WL_HARNESS_H
#define CUA_TEST_WL_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "core/image.h"
#include "core/raw.h"

#include "harness.h" /* struct app_proc: apps with pipes */

/* ---- AT-SPI, independently of libcua ------------------------------- */

struct probe {
	struct app_proc p;
};

struct wl_node {
	char name[256];
	char role[64];
	char states[512];    /* space-separated, with a space at each end */
	struct cua_rect ext; /* window coordinates */
	char text[1024];
	int has_text;
	double value;
	int has_value;
	int pid; /* of the app (app requests only) */
	char error[256];
};

int
probe_start(struct probe *p);
void
probe_stop(struct probe *p);
/* The first node of `app` with `role` and `name` ("*" = any). 0 or -1
 * (n->error says why). */
int
probe_find(struct probe *p, const char *app, const char *role, const char *name,
	   struct wl_node *n);
/* The same, among the nodes with the state `state` ("vertical"). */
int
probe_find_state(struct probe *p, const char *app, const char *role,
		 const char *name, const char *state, struct wl_node *n);
/* The node with the focused state. */
int
probe_focused(struct probe *p, const char *app, struct wl_node *n);
/* The app's first window (frame) and pid. */
int
probe_app(struct probe *p, const char *app, struct wl_node *frame);
int
node_has_state(const struct wl_node *n, const char *state);
/* Polls probe_find() until the node's text is `want` or timeout_ms
 * passes; returns 0 when it is, else -1 with the last text in n. */
int
probe_wait_text(struct probe *p, const char *app, const char *role,
		const char *name, const char *want, int timeout_ms,
		struct wl_node *n);

/* ---- display operations ---------------------------------------------- */

struct wl_window {
	int pid;
	char app_id[128];
	char title[256];
	struct cua_rect content; /* the visible window, global */
	int focused;
};

struct wl_ops {
	const char *name;
	void *data;
	/* 0 on success, else -1 with a message on stderr */
	int (*type_text)(void *data, const char *text);
	int (*press_key)(void *data, const char *keys);
	int (*click)(void *data, double x, double y); /* global */
	/* wheel steps at (x, y): dy > 0 down, dx > 0 right */
	int (*scroll)(void *data, double x, double y, int dx, int dy);
	/* packed RGB of a global rectangle, scaled to its logical size */
	int (*capture)(void *data, const struct cua_rect *r,
		       struct cua_rgb *out);
	/* the window of the app with this app id */
	int (*window)(void *data, const char *app_id, struct wl_window *out);
	void (*close)(void *data);
};

/* The operations over the wlroots building blocks (a connection of its
 * own to $WAYLAND_DISPLAY, windows from sway's IPC). */
int
wl_ops_wlr(struct wl_ops *ops);

/* With CUA_TEST_SHOT_DIR set, saves a PNG of the whole first output as
 * DIR/NAME.png (for failures). */
void
wl_debug_shot(const struct wl_ops *ops, const char *name);

/* ---- the fixture --------------------------------------------------------- */

#define FIXTURE_APP "fixture-gtk3"

/* Starts fixture-gtk3 as a native Wayland client and waits until it is
 * ready and visible to AT-SPI and to the display. */
int
fixture_start(struct app_proc *app, struct probe *pr, const struct wl_ops *ops,
	      struct wl_window *win);

/* What a test program runs against: the wlroots operations, the AT-SPI
 * probe, and the fixture with its window. */
struct wl_env {
	struct wl_ops ops;
	struct probe probe;
	struct app_proc app;
	struct wl_window win;
};

/* Opens the operations, starts the probe and the fixture: 0, or -1. */
int
wl_env_start(struct wl_env *e);

/* Stops what wl_env_start() started. */
void
wl_env_stop(struct wl_env *e);

/* The environment of a test program that runs all its tests against one,
 * and its cmocka group setup and teardown (wl_env_start/stop on it). */
extern struct wl_env wl_test_env;

int
wl_test_env_start(void **state);

int
wl_test_env_stop(void **state);

/* Global position of the centre of a node, from its window coordinates
 * and the window's content rectangle. */
void
node_centre(const struct wl_window *win, const struct wl_node *n, double *x,
	    double *y);

#endif
