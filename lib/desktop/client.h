/*
 * Headless desktops, the library's side: starting the cua-desktop
 * supervisor, running a command in a fresh desktop, attaching to a
 * running desktop by its state directory, stopping one. The public entry
 * points (lib/api/desktop.c) check arguments and keep the handle; this
 * header uses no GLib or X11 type.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DESKTOP_CLIENT_H
#define CUA_DESKTOP_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "cua/cua.h"

struct desktop_client;

struct desktop_client_options {
	const char *kind;      /* "x11" */
	const char *screen;    /* "WxHxD" */
	const char *state_dir; /* NULL: the default */
	int no_wm;
	int detached; /* outlives the calling process */
	/* warnings of the supervisor, while starting or stopping */
	void (*warn)(const char *message, void *data);
	void *warn_data;
};

struct desktop_client *
desktop_client_new(void);
void
desktop_client_free(struct desktop_client *c);

/* 1 when name is a kind of desktop ("x11"); the known names by index
 * (NULL past the last). */
int
desktop_client_kind_known(const char *name);
const char *
desktop_client_kind_name(size_t index);
int
desktop_client_valid_screen(const char *screen);

cua_result
desktop_client_start(struct desktop_client *c,
		     const struct desktop_client_options *o);
cua_result
desktop_client_run(struct desktop_client *c,
		   const struct desktop_client_options *o,
		   const char *const *argv, int *exit_status);
cua_result
desktop_client_attach(struct desktop_client *c, const char *state_dir);
cua_result
desktop_client_stop(struct desktop_client *c,
		    void (*warn)(const char *message, void *data),
		    void *warn_data);

/* 1 after a start or an attach until a stop. */
int
desktop_client_started(const struct desktop_client *c);
/* 1 when this process started the desktop and it stops with it. */
int
desktop_client_owned(const struct desktop_client *c);
/* The supervisor's pid while it runs, else 0; async-signal-safe. */
int64_t
desktop_client_pid(const struct desktop_client *c);
const char *
desktop_client_state_dir(const struct desktop_client *c);

size_t
desktop_client_env_count(void);
const char *
desktop_client_env_name(size_t index);
/* The value of a variable the desktop manages; NULL: unset it. */
const char *
desktop_client_env(const struct desktop_client *c, const char *name);
/* The export lines (malloc'd), NULL before a start or attach. */
char *
desktop_client_env_text(const struct desktop_client *c);

#endif /* CUA_DESKTOP_CLIENT_H */
