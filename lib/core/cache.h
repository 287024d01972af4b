/*
 * The tree cache (docs/concurrency.md §6): the last raw snapshot of each
 * observed app, kept up to date from the app's accessibility events, so
 * that an observation in a long-lived session reads again only what the
 * events named.
 *
 * On by default; CUA_TREE_CACHE=0 in the environment when the session is
 * created, or the session option `tree_cache` (`off`), turns it off. The
 * one-shot `cua` commands turn it off (they observe once). The settle's
 * watch (settle.c)
 * hands every event of an app to cua_cache_note(), which marks the
 * object it names in that app's entry (and in the read in progress);
 * an observation opens the app again, reads the marked objects again
 * (cache_observe.c), reads the subtree of an object whose children were
 * added or removed again and splices it in, and serves the rest from the
 * snapshot. A document loaded, lost events, a restart, a toolkit not
 * known to announce its changes and the other cases of
 * docs/concurrency.md §6 make it a full read.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_CACHE_H
#define CUA_CORE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "hashmap.h"
#include "raw.h"
#include "walk.h"

struct cua_session;
struct strbuf;

/* The most one app's snapshot (with what hits patched in) may take, and
 * the hits patched in before the app is read afresh. */
#define CUA_CACHE_APP_BYTES (32u << 20)
/* Values a sweep waits for to rest, at most (cache_sweep.c). */
#define CUA_CACHE_RESTLESS 8
#define CUA_CACHE_MAX_PATCHES 256

enum cua_cache_mode {
	CUA_CACHE_OFF = 0,
	CUA_CACHE_ON = 1,    /* toolkits known to announce every change */
	CUA_CACHE_ALL = 2,   /* every toolkit (for measuring) */
	CUA_CACHE_SWEEP = 3, /* every toolkit, each observation swept
			      * (CUA_TRUST_SWEEP; for measuring) */
};

/* Why an observation was not served from the cache. */
enum cua_cache_miss {
	CUA_CACHE_HIT = 0,
	CUA_CACHE_MISS_FIRST,     /* nothing cached for this process */
	CUA_CACHE_MISS_TOOLKIT,   /* the toolkit is not trusted */
	CUA_CACHE_MISS_EVENTS,    /* the app announced a change */
	CUA_CACHE_MISS_PROBE,     /* the toplevels read differently */
	CUA_CACHE_MISS_UNWATCHED, /* no event watch on the app */
	CUA_CACHE_MISS_CHANGE,    /* a change only a full read follows */
	CUA_CACHE_MISS_COUNT,
};

/* What a node's events ask of it (struct cua_cache_marks). */
enum cua_cache_mark {
	CUA_MARK_DETAILS = 1u << 0,  /* read its fields again */
	CUA_MARK_FOCUS = 1u << 1,    /* and find the focus again */
	CUA_MARK_BOUNDS = 1u << 2,   /* its geometry changed */
	CUA_MARK_CHILDREN = 1u << 3, /* children added or removed: read its
				      * subtree again */
	CUA_MARK_PARENT = 1u << 4,   /* given another parent: read its old
				      * parent's subtree; find it again */
};

/* The changes an app announced since a read began: the objects to read
 * again, or `full` with the reason when only a full read will do. */
struct cua_cache_marks {
	char *bus_name; /* NULL: not recording */
	char **paths;
	uint8_t *flags;
	size_t n, cap;
	const char *full; /* static reason; NULL: the marks suffice */
};

struct cua_cache_entry {
	char *app_id;
	char *bus_name;
	int64_t pid;
	uint64_t start_time;
	struct cua_raw_snapshot *snap; /* owned */
	uint32_t root, popups[CUA_MAX_POPUPS];
	size_t n_popups;
	enum cua_visibility vis;
	size_t bytes;  /* held: the snapshot's and the patches' arenas */
	uint64_t used; /* LRU tick */
	struct cua_cache_marks marks; /* since the read began */
	struct cua_hmap idents;       /* ident -> node of snap */
	int dups;   /* an object appears twice: no partial reads */
	int ranged; /* a container was read by visible range: idem */
	/* the sweep made while the settle waited (cua_cache_presweep):
	 * it stands while the app's event generation is presweep_gen */
	int presweep;
	uint64_t presweep_gen;
	const char *presweep_detail;
	size_t presweep_swept, presweep_found;
	/* snapshots that hold what partial reads patched in */
	struct cua_raw_snapshot **patches;
	size_t n_patches;
	/* values that were still moving when the last sweep stopped waiting
	 * for them (cache_sweep.c): not waited for again while they move */
	char *restless[CUA_CACHE_RESTLESS];
	size_t n_restless;
};

struct cua_cache {
	enum cua_cache_mode mode;
	int verify;
	struct cua_cache_entry *e;
	size_t n;
	uint64_t tick;
	/* the marks of the read in progress (the next entry's) */
	struct cua_cache_marks reading;
	/* the values still moving of an entry dropped for a full read
	 * (cua_cache_drop_for_read), for the entry that read stores; any
	 * store clears it */
	char *carry_bus;
	char *carry[CUA_CACHE_RESTLESS];
	size_t n_carry;
};

/* The mode the environment asks for: CUA_TREE_CACHE unset, empty or
 * `1`/`on`: on (the default); `0`/`off`/`no`: off; `all`: every toolkit.
 * *verify: CUA_CACHE_VERIFY is set (not 0/off/no). */
enum cua_cache_mode
cua_cache_env_mode(int *verify);
/* A cache in `mode` (verify mode when `verify`); NULL when the mode is
 * off (or out of memory). */
struct cua_cache *
cua_cache_new(enum cua_cache_mode mode, int verify);
void
cua_cache_free(struct cua_cache *c);
/* The session option `tree_cache`: `auto` (the environment's mode, on
 * when CUA_TREE_CACHE is unset), `on`, `all` or `off`, into *c (NULL:
 * off); a change of mode drops what was cached. Verify mode is always
 * the environment's. CUA_ERROR_INVALID_ARGUMENT for another word. */
cua_result
cua_cache_set_option(struct cua_cache **c, const char *value);

/* The entry of this very process (pid, start time, bus name), or NULL;
 * an entry of an earlier process of the app id is dropped. */
struct cua_cache_entry *
cua_cache_find(struct cua_cache *c, const struct cua_app_info *app);
/* How far an app's AT-SPI events are trusted to announce every change
 * of what is rendered (by its toolkit; docs/concurrency.md §6). */
enum cua_cache_trust {
	CUA_TRUST_NONE = 0,   /* read in full each time */
	CUA_TRUST_EVENTS = 1, /* its events name every change */
	CUA_TRUST_SWEEP = 2,  /* its events name most changes; the states,
			       * names, child counts and values of every
			       * cached node are compared at each
			       * observation */
};

enum cua_cache_trust
cua_cache_toolkit_trusted(const struct cua_cache *c,
			  const struct cua_app_info *app);
/* Marks the object at `path` (of the entry's app) as an event would
 * (enum cua_cache_mark flags). */
void
cua_cache_mark_path(struct cua_cache_marks *m, const char *path, uint8_t flags);
/* The marks on the object at `path` so far (0: none). */
uint8_t
cua_cache_marked(const struct cua_cache_marks *m, const char *path);
/* Keeps `snap` (takes ownership; frees it when it is too large) as the
 * app's snapshot; the least recently used app beyond the bound goes. */
void
cua_cache_store(struct cua_cache *c, const struct cua_app_info *app,
		struct cua_raw_snapshot *snap, uint32_t root,
		const uint32_t *popups, size_t n_popups,
		enum cua_visibility vis);
void
cua_cache_drop(struct cua_cache *c, struct cua_cache_entry *e);
/* The same, for a full read of its app that follows (or the store of
 * one): what the entry knew of values still moving goes to the entry
 * that read stores. */
void
cua_cache_drop_for_read(struct cua_cache *c, struct cua_cache_entry *e);
/* An event of the app with accessibility bus name `bus` (settle.c
 * hands every one over): marks the objects it names in that app's entry
 * and in the read in progress; never another app's. */
void
cua_cache_note(struct cua_cache *c, const char *bus,
	       const struct cua_event *ev);
/* Starts recording the marks of a read of the app on `bus`. */
void
cua_cache_marks_start(struct cua_cache *c, const char *bus);
void
cua_cache_marks_clear(struct cua_cache_marks *m);
/* Keeps `snap` (owned) with the entry, for what was patched in from it;
 * -1 (and frees it) on no memory. */
int
cua_cache_hold(struct cua_cache_entry *e, struct cua_raw_snapshot *snap);
/* The entry's index of its snapshot's objects made again (after
 * subtrees were spliced in); -1 on no memory. */
int
cua_cache_reindex(struct cua_cache_entry *e);
const char *
cua_cache_miss_name(enum cua_cache_miss m);
/* Equal strings, NULL being "". */
int
cua_cache_same_str(const char *a, const char *b);
/* Where the cache last read the object at `path` of the app on `bus`: 1
 * and *area (screen coordinates) when it showed, with a size; 0 when it
 * did not show (or the read did not hold it: it holds every object that
 * shows); -1 when nothing of the app is cached, or its place is not
 * known. */
int
cua_cache_object_area(struct cua_cache *c, const char *bus, const char *path,
		      struct cua_rect *area);
/* The first line where `a` and `b` differ (1-based), 0 when equal;
 * *la / *lb point at the lines in a and b, *na / *nb their lengths, *col
 * the first byte that differs (1-based). Where one text ends and the other
 * goes on, the line is the longer's next line that is not empty, and the
 * shorter's is empty (at its end). */
size_t
cua_cache_first_diff(const char *a, const char *b, const char **la, size_t *na,
		     const char **lb, size_t *nb, size_t *col);

/* One observation's read (cache_observe.c). */
struct cua_cache_read {
	struct cua_raw_snapshot *snap; /* the cache's when cached */
	uint32_t root, popups[CUA_MAX_POPUPS];
	size_t n_popups;
	enum cua_visibility vis;
	int cached; /* served from the cache */
	enum cua_cache_miss why;
	const char *detail;        /* static: why a change needs a full read */
	int keep;                  /* keep the snapshot once observed */
	int64_t calls, walk_us;    /* what a hit cost */
	size_t subtrees;           /* subtrees a hit read again */
	size_t swept, sweep_found; /* nodes a sweep compared, found changed */
	int presweep;              /* the sweep was made while settling */
};

/* Reads the app for an observation: from the cache when it may, else in
 * full (cua_observe_snapshot). With verify on, a cached read is checked
 * against a full read and a difference is an error naming the first
 * differing line. `warmed`: the app's session finished its warm-up. */
cua_result
cua_cache_observe(struct cua_session *s, const struct cua_app_info *app,
		  int warmed, struct cua_cache_read *cr);
/* The sweep (cache_sweep.c) of the entry of an app whose toolkit is
 * trusted as CUA_TRUST_SWEEP: every cached object below the toplevels
 * compared with the app's; one that differs is marked as its event would
 * have. cr->detail set: only a full read will do. */
cua_result
cua_cache_sweep(struct cua_session *s, const struct cua_app_info *app,
		struct cua_cache_entry *e, const struct cua_fetch_policy *pol,
		struct cua_cache_read *cr);
/* The sweep of the app's entry made ahead, while the settle waits for the
 * app to be quiet; the next observation uses it when no event of the app
 * came after it began (cache_observe.c). Nothing to do for an app not
 * cached or not swept; a failure leaves the sweep to the observation. */
void
cua_cache_presweep(struct cua_session *s, const struct cua_app_info *app);
/* After a successful observation: hands `snap` (the read's, or the one
 * the warm-up replaced it with) to the cache, or frees it. */
void
cua_cache_keep(struct cua_session *s, const struct cua_app_info *app,
	       struct cua_cache_read *cr, struct cua_raw_snapshot *snap,
	       uint32_t root, const uint32_t *popups, size_t n_popups,
	       enum cua_visibility vis);

#endif
