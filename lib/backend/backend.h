/*
 * The backend seam: the only way the core reaches a platform.
 *
 * A backend provides primitives (list the apps, read raw nodes, launch an
 * app); all policy (which app a string means, which window is the root,
 * what gets rendered) stays in the core. No platform header (libatspi,
 * GLib, Xlib) is included here.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_BACKEND_H
#define CUA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "cua/cua.h"
#include "core/arena.h"
#include "core/ctx.h"
#include "core/raw.h"

/* One running process that shows an app (state-text.md §11.8). */
struct cua_app_info {
	int64_t pid;
	uint64_t start_time;       /* /proc/<pid>/stat field 22 */
	const char *exe;           /* /proc/<pid>/exe target */
	const char *exe_base;      /* its basename */
	const char *bus_name;      /* AT-SPI bus name; NULL = not registered */
	const char *atspi_name;    /* Accessible.Name of the application */
	const char *desktop_id;    /* desktop-file id without .desktop */
	const char *desktop_file;  /* path of the desktop entry */
	const char *desktop_name;  /* localized Name= */
	const char *desktop_name_c; /* untranslated Name= */
	const char *wm_class_class;
	const char *wm_class_instance;
	const char *app_id;        /* canonical id (never NULL) */
	const char *app_name;      /* display name (never NULL) */
	const char *toolkit;       /* "GTK", "Qt", … when known */
	const char *toolkit_version;
	int n_windows;             /* toplevel windows */
	int frontmost;             /* owns the active X11 window */
	int accessible;            /* registered on the AT-SPI bus */
};

struct cua_app_list {
	struct cua_arena *arena;
	struct cua_app_info *apps;
	size_t n;
};

/* An installed desktop entry (for resolving and launching). */
struct cua_installed_app {
	const char *desktop_id;   /* without .desktop */
	const char *path;         /* the .desktop file */
	const char *name;         /* localized Name= */
	const char *name_c;       /* untranslated Name= */
	const char *exec;         /* Exec= */
	const char *try_exec;
	const char *startup_wm_class;
	int no_display;           /* NoDisplay=true or Hidden=true */
};

struct cua_installed_list {
	struct cua_arena *arena;
	struct cua_installed_app *apps;
	size_t n;
};

/*
 * What the core asks the backend to read. Callbacks run during fetch() on
 * the calling thread; they must be cheap and must not call the backend.
 */
struct cua_fetch_policy {
	/* After a node's basic fields (role, states, interfaces, name) are
	 * known: which other fields to read (enum cua_raw_have bits). */
	uint32_t (*details)(void *user_data, const struct cua_raw_node *node,
			    int raw_depth);
	/* After details are known: read the node's children? */
	int (*descend)(void *user_data, const struct cua_raw_node *node,
		       int raw_depth);
	void *user_data;
	int max_raw_depth;     /* nodes deeper than this are not created */
	size_t max_nodes;      /* stop creating nodes past this count */
	int64_t deadline_us;   /* absolute cua_now_us() deadline; 0 = none */
	int call_timeout_ms;   /* per call */
	/* Containers with more children than this (or list-like containers
	 * with more than range_list_threshold) are read by visible range. */
	int range_threshold;      /* 200 */
	int range_list_threshold; /* 20 */
};

struct cua_backend;

struct cua_backend_ops {
	const char *name;
	void (*destroy)(struct cua_backend *b);

	/* Running apps, one entry per process. */
	cua_result (*list_apps)(struct cua_backend *b,
				struct cua_app_list **out);
	/* Installed desktop entries. */
	cua_result (*list_installed)(struct cua_backend *b,
				     struct cua_installed_list **out);
	/* A snapshot holding the app node and its toplevels (basic fields,
	 * extents and window-system facts), not their subtrees. */
	cua_result (*open_app)(struct cua_backend *b,
			       const struct cua_app_info *app,
			       struct cua_raw_snapshot **out);
	/* Reads the subtrees of the given toplevels of snap (children of
	 * snap->app) according to the policy, and the focused node. */
	cua_result (*fetch)(struct cua_backend *b,
			    struct cua_raw_snapshot *snap,
			    struct cua_raw_node **roots, size_t n_roots,
			    const struct cua_fetch_policy *policy);
	/* Starts an installed app in the background; *pid = spawned pid. */
	cua_result (*launch)(struct cua_backend *b,
			     const struct cua_installed_app *app,
			     int64_t *pid);
	/* 1 if the process with this pid and start time still runs. */
	int (*process_alive)(struct cua_backend *b, int64_t pid,
			     uint64_t start_time);
};

struct cua_backend {
	const struct cua_backend_ops *ops;
	struct cua_ctx *ctx; /* owned by the session */
};

void cua_app_list_free(struct cua_app_list *list);
void cua_installed_list_free(struct cua_installed_list *list);
void cua_raw_snapshot_free(struct cua_raw_snapshot *snap);
struct cua_raw_snapshot *cua_raw_snapshot_new(void);
struct cua_raw_node *cua_raw_node_new(struct cua_raw_snapshot *snap);

/* Backend constructors. */
cua_result cua_backend_atspi_new(struct cua_ctx *ctx, uint32_t flags,
				 struct cua_backend **out);
cua_result cua_backend_recorded_new(struct cua_ctx *ctx, const char *path,
				    struct cua_backend **out);

/* Recording format (recorded backend; also written by cua record). */
cua_result cua_record_to_json(const struct cua_app_info *app,
			      const struct cua_raw_snapshot *snap,
			      char **out);

#endif
