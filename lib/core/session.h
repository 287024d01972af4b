/*
 * Sessions: the backend, options, and one app session per observed app
 * (identity.md §1).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_SESSION_H
#define CUA_CORE_SESSION_H

#include <stdatomic.h>
#include <stdint.h>

#include "backend/backend.h"
#include "ctx.h"
#include "tree.h"

#define CUA_WINDOW_MEMORY 8

/* The per-process part of an app session. */
struct cua_proc_session {
	int64_t pid;
	uint64_t start_time;
	char *exe;
	uint32_t revision;           /* next revision number */
	struct cua_tree *latest;     /* latest published observation */
	/* last revision per root window, for id survival (§2.3) */
	struct cua_tree *windows[CUA_WINDOW_MEMORY];
	int warmed_up;
};

/* Everything libcua keeps for one app id. */
struct cua_app_session {
	char *app_id;
	char *app_name;
	uint32_t next_id;            /* ids are never reused for this app id */
	struct cua_proc_session *proc; /* NULL when no live process bound */
};

struct cua_session {
	atomic_int refcount;
	struct cua_ctx ctx;
	struct cua_backend *backend;
	struct cua_app_session **apps;
	size_t n_apps;
	char *usage_path;  /* NULL: don't record usage */
};

/* Observe (cua_session_observe); publishes the tree. */
cua_result cua_session_observe_internal(struct cua_session *s,
					const char *app, uint32_t flags,
					struct cua_tree **out);
/* The raw tree as JSON (cua_session_record). */
cua_result cua_session_record_internal(struct cua_session *s,
				       const char *app, char **out);
cua_result cua_session_list_apps_internal(struct cua_session *s,
					  uint32_t flags, char **out);
cua_result cua_session_save_state_internal(struct cua_session *s,
					   char **out);
cua_result cua_session_load_state_internal(struct cua_session *s,
					   const char *json);
void cua_session_free_apps(struct cua_session *s);

/* apps.c: resolving the model's app string (safety.md §1). */
enum cua_resolve_kind {
	CUA_RESOLVED_RUNNING = 1,
	CUA_RESOLVED_INSTALLED = 2,
};

struct cua_resolved {
	enum cua_resolve_kind kind;
	const struct cua_app_info *app;          /* RUNNING */
	const struct cua_installed_app *entry;   /* INSTALLED */
};

/*
 * Resolves `query` against the running apps (and, when `installed` is
 * not NULL and nothing runs, the installed entries). `sticky` names the
 * (pid, start) of a process bound to an app session whose id or name
 * matches, preferred over others. Fills the thread-local error with the
 * model-facing sentence on failure.
 */
cua_result cua_resolve_app(const char *query, const struct cua_app_list *apps,
			   const struct cua_installed_list *installed,
			   struct cua_session *s, struct cua_resolved *out);

/* list_apps text and JSON (tools.md §5.1). */
cua_result cua_format_app_list(const struct cua_app_list *apps,
			       const struct cua_installed_list *installed,
			       const char *usage_json, int json,
			       char **out);

/* Usage store ($XDG_STATE_HOME/libcua/usage.json). */
void cua_usage_record(const char *path, const char *app_id);
char *cua_usage_load(const char *path); /* malloc'd JSON or NULL */

/* json.c */
cua_result cua_tree_json(const struct cua_tree *t, int with_internal,
			 char **out);
/* jansson-free API for session state: */
struct json_t;
struct json_t *cua_tree_to_jansson(const struct cua_tree *t,
				   int with_internal);
struct cua_tree *cua_tree_from_jansson(struct json_t *j);

/* Atomic file replace (write to a temp file, fsync, rename). */
int cua_write_file_atomic(const char *path, const char *data, size_t len,
			  int mode);

#endif
