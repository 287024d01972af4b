/*
 * Sessions: the backend, options, and one app session per observed app
 * (docs/identity.md §1).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_SESSION_H
#define CUA_CORE_SESSION_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdint.h>

#include "backend/backend.h"
#include "ctx.h"
#include "tree.h"
#include "walk.h"

#define CUA_WINDOW_MEMORY 8
#define CUA_ACTIVATION_MEMORY 8

/* The per-process part of an app session. */
struct cua_proc_session {
	int64_t pid;
	uint64_t start_time;
	char *exe;
	char *bus_name;          /* AT-SPI bus name at the last observation */
	uint32_t revision;       /* next revision number */
	struct cua_tree *latest; /* latest published observation */
	int64_t latest_at_us;    /* when it was published (CLOCK_REALTIME) */
	int baseline_expired;    /* a new turn began since
				      * (docs/identity.md §7.4 4) */
	/* last revision per root window, for id survival
	 * (docs/identity.md §2.3), least recently published first */
	struct cua_tree *windows[CUA_WINDOW_MEMORY];
	int warmed_up;
	int point_recovered; /* a covered window was raised once
				      * (docs/actions.md §2.3) */
	/* the latest activations of elements (docs/actions.md §3.4), one
	 * per element, the oldest replaced: its identity, when it ended, its
	 * states before and after. Several, because a key of a calculator
	 * may still be held when it is pressed again after other keys. */
	struct cua_activation {
		char *ident;
		int64_t us;
		uint64_t before, after;
	} acts[CUA_ACTIVATION_MEMORY];
	/* the person's presses (user.c) when the latest observation began,
	 * and whether they pressed anything during an action since */
	uint64_t user_seq;
	int user_intervened;
};

/* Everything libcua keeps for one app id. */
struct cua_app_session {
	char *app_id;
	char *app_name;
	uint32_t next_id; /* ids are never reused for this app id */
	struct cua_proc_session *proc; /* NULL when no live process bound */
	int proc_gone;                 /* the bound process went away (the next
				      * action says so, docs/identity.md §1) */
};

struct cua_session {
	atomic_int refcount;
	struct cua_ctx ctx;
	struct cua_backend *backend;
	struct cua_app_session **apps;
	size_t n_apps;
	char *usage_path;          /* NULL: don't record usage */
	int usage_warned;          /* a failed usage write was logged once */
	struct cua_settle *settle; /* per-app event watches (settle.c) */
	/* the lock-screen guard's last answer (lock.c) */
	int64_t lock_checked_us, lock_probe_us;
	int lock_locked;
	struct cua_user *user; /* the person at the desktop (user.c) */
	/* the process E-PERMISSIONS-PENDING was last answered for, and how
	 * often in a row (pending.c) */
	int64_t pending_pid;
	uint64_t pending_start;
	int pending_count;
	struct cua_cache *cache; /* the tree cache (cache.h); NULL: off */
	/* the last images of a few windows, for reuse (shot.c); NULL until
	 * the first image worth keeping */
	struct cua_shot_cache *shots;
};

/* Opens the app (or takes `opened`, the app opened already: owned), chooses
 * its windows and reads them (walk policy). */
cua_result
cua_observe_snapshot(struct cua_session *s, const struct cua_app_info *app,
		     struct cua_raw_snapshot *opened,
		     struct cua_raw_snapshot **snap_out, uint32_t *root,
		     uint32_t *popups, size_t *n_popups,
		     enum cua_visibility *vis, int want_everything);
/* The walk's policy for reading `app` from its window `root` of `snap`
 * (`st` holds its state and must outlive `pol`). */
void
cua_observe_policy(struct cua_session *s, const struct cua_app_info *app,
		   const struct cua_raw_snapshot *snap, uint32_t root,
		   enum cua_visibility vis, int want_everything,
		   struct cua_walk_policy *st, struct cua_fetch_policy *pol);
/* The app's part of a tree (ids, names, process). */
void
cua_fill_tree_app(struct cua_tree *t, const struct cua_app_info *app);
/* Observe (cua_session_observe); publishes the tree. */
cua_result
cua_session_observe_internal(struct cua_session *s, const char *app,
			     uint32_t flags, struct cua_tree **out);
/* The raw tree as JSON (cua_session_record). */
cua_result
cua_session_record_internal(struct cua_session *s, const char *app, char **out);
/* The target `app` resolves to, as JSON (cua_session_resolve_app). */
cua_result
cua_session_resolve_internal(struct cua_session *s, const char *app,
			     char **out);
cua_result
cua_session_list_apps_internal(struct cua_session *s, uint32_t flags,
			       char **out);
cua_result
cua_session_save_state_internal(struct cua_session *s, char **out);
cua_result
cua_session_load_state_internal(struct cua_session *s, const char *json);
void
cua_session_expire_baselines_internal(struct cua_session *s);
/* The app's event generation (settle.c): a number that grows with every
 * AT-SPI event of the app and with every loss of events, after the
 * events that arrived so far were dispatched. -1 when the app is not
 * watched (no settle for it yet). */
int
cua_settle_generation(struct cua_session *s, const char *bus_name,
		      uint64_t *gen);
/* watch.c (cua_session_wait_for_change) */
cua_result
cua_session_wait_internal(struct cua_session *s, const struct cua_tree *tree,
			  int timeout_ms, int *changed);
void
cua_session_free_apps(struct cua_session *s);
/* Forgets the app session's process (its process identity changed or it
 * is gone); the id counter stays, and proc_gone is set
 * (docs/identity.md §1). */
void
cua_app_session_drop_process(struct cua_app_session *as);

/*
 * settle.c: the UI settle before an observation (docs/screenshots.md §6).
 * Waits, event-driven, until the app has been quiet for settle_quiet_ms
 * (settle_answered_ms after an action it reacted to and answered for,
 * its toolkit permitting; settle_drawn_ms when, besides, its window drew
 * again where each object its events named lies; at most settle_cap_ms,
 * settle_busy_cap_ms while it signals BUSY);
 * returns at once for an app that was watched, idle and not acted on.
 * `window` (0: unknown) also counts its damage; `frame` (NULL: unknown)
 * is that window's frame on the screen. While it waits it may make the
 * tree cache's comparison of objects (cua_cache_presweep).
 */
struct cua_settle_result {
	int64_t settle_us;
	int capped;
	int busy;
	int events;
	int rounds; /* short quiet intervals that brought more events */
	int64_t presweep_us; /* the cache's comparison made while waiting */
	/* the first-sight probe runs during the walk: finish it with
	 * cua_settle_probe_end() once the tree is read */
	int probe_open;
	int64_t probe_t0, probe_n0;
};
void
cua_settle(struct cua_session *s, const struct cua_app_info *app,
	   uint64_t window, const struct cua_rect *frame, int acted,
	   struct cua_settle_result *res);
/* Ends a probe left open by cua_settle() (probe_open): waits for what is
 * left of settle_probe_ms; an event of the app since the probe began
 * means the read may show a changing UI: then the app is settled as a
 * known app is (until it is quiet) and 1 is returned (read again); 0:
 * the read stands. */
int
cua_settle_probe_end(struct cua_session *s, const struct cua_app_info *app,
		     struct cua_settle_result *res);
/* Records that input was sent to the app with this bus name (the next
 * settle waits for the quiet interval). Actions call this. */
void
cua_settle_note_action(struct cua_session *s, const char *bus_name);
/* Whether the app's tree grew or shrank (children-changed events) in the
 * last `ms` (0 when unknown). */
int
cua_settle_recent_children(struct cua_session *s, const char *bus_name, int ms);
void
cua_settle_free_all(struct cua_session *s);

/* shot.c: the screenshot of an observation (docs/screenshots.md §2–§5, §7);
 * never fails: on failure t->shot_error holds the reason. */
void
cua_shot_take(struct cua_session *s, struct cua_tree *t, int geometry_only);
/* Frees the kept images (shot.c). */
void
cua_shot_cache_free(struct cua_session *s);
/* The docs/screenshots.md §7 reason for a capture status (static string),
 * in the words of the session's display (an X server or a compositor). */
const char *
cua_shot_reason(struct cua_backend *b, int status);

/* apps.c: resolving the model's app string (docs/safety.md §1). */
enum cua_resolve_kind {
	CUA_RESOLVED_RUNNING = 1,
	CUA_RESOLVED_INSTALLED = 2,
};

struct cua_resolved {
	enum cua_resolve_kind kind;
	const struct cua_app_info *app;        /* RUNNING */
	const struct cua_installed_app *entry; /* INSTALLED */
};

/* 1 when a process of this name (its kernel comm, at most 15 bytes) is a
 * privilege or authentication prompt or a screen locker: it never
 * receives synthetic input (docs/safety.md §2.2). */
int
cua_is_security_process(const char *comm);

/* The resolved target as a `libcua.app/1` object (sanitised strings). */
json_t *
cua_resolved_to_jansson(const struct cua_resolved *res);

/*
 * Resolves `query` against the running apps (and, when `installed` is
 * not NULL and nothing runs, the installed entries). `sticky` names the
 * (pid, start) of a process bound to an app session whose id or name
 * matches, preferred over others. Fills the thread-local error with the
 * model-facing sentence on failure.
 */
cua_result
cua_resolve_app(const char *query, const struct cua_app_list *apps,
		const struct cua_installed_list *installed,
		struct cua_session *s, struct cua_resolved *out);

/* list_apps text and JSON (docs/tools.md §5.1). */
cua_result
cua_format_app_list(const struct cua_app_list *apps,
		    const struct cua_installed_list *installed,
		    const char *usage_json, int json, char **out);

/* Usage store ($XDG_STATE_HOME/libcua/usage.json). Recording returns 0,
 * or -errno when the file could not be replaced (the old one is kept). */
int
cua_usage_record(const char *path, const char *app_id);
char *
cua_usage_load(const char *path); /* malloc'd JSON or NULL */

/* json.c */
cua_result
cua_tree_json(const struct cua_tree *t, int with_internal,
	      uint32_t render_flags, char **out);
/* jansson-free API for session state: */
struct json_t;
struct json_t *
cua_tree_to_jansson(const struct cua_tree *t, int with_internal,
		    uint32_t render_flags);
struct cua_tree *
cua_tree_from_jansson(struct json_t *j);

#endif
