/*
 * The tree cache (cache.h): the last raw snapshot of each observed app,
 * bounded in memory per app and by a least-recently-used list over apps.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "cache.h"
#include "ctx.h"
#include "strbuf.h"

/* Apps whose snapshots are kept, and the most one snapshot may take. */
#define CACHE_APPS 8
/* Objects marked before only a full read is worth it. */
#define CACHE_MAX_MARKS 256

/*
 * Toolkits measured to announce every change of what the state text shows
 * (children, name, description, value, states, text, bounds of what
 * moves): randomized mutations with the cache and a full read compared
 * after each (tests/desktop/test-cache.c). Not listed: not measured, or
 * measured to miss changes; their apps are read in full every time.
 */
static const struct {
	const char *toolkit;
	const char *major; /* version prefix; NULL: any */
} trusted[] = {
	{ "GTK", "3." },
};

static int
env_on(const char *v)
{
	return v && *v && strcmp(v, "0") != 0 && strcasecmp(v, "off") != 0 &&
	       strcasecmp(v, "no") != 0;
}

enum cua_cache_mode
cua_cache_env_mode(int *verify)
{
	const char *mode = secure_getenv("CUA_TREE_CACHE");

	*verify = env_on(secure_getenv("CUA_CACHE_VERIFY"));
	if (mode && strcasecmp(mode, "all") == 0)
		return CUA_CACHE_ALL;
	if (mode && strcasecmp(mode, "sweep") == 0)
		return CUA_CACHE_SWEEP;
	if (mode && *mode && !env_on(mode))
		return CUA_CACHE_OFF;
	return CUA_CACHE_ON;
}

struct cua_cache *
cua_cache_new(enum cua_cache_mode mode, int verify)
{
	struct cua_cache *c;

	if (mode == CUA_CACHE_OFF)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->mode = mode;
	c->verify = verify;
	return c;
}

cua_result
cua_cache_set_option(struct cua_cache **c, const char *value)
{
	int verify;
	enum cua_cache_mode mode = cua_cache_env_mode(&verify);

	if (strcmp(value, "on") == 0)
		mode = CUA_CACHE_ON;
	else if (strcmp(value, "all") == 0)
		mode = CUA_CACHE_ALL;
	else if (strcmp(value, "sweep") == 0)
		mode = CUA_CACHE_SWEEP;
	else if (strcmp(value, "off") == 0)
		mode = CUA_CACHE_OFF;
	else if (strcmp(value, "auto") != 0)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "option tree_cache: '%s' is not 'auto', "
				 "'on', 'all', 'sweep' or 'off'",
				 value);
	if ((*c ? (*c)->mode : CUA_CACHE_OFF) == mode)
		return CUA_OK;
	cua_cache_free(*c);
	*c = cua_cache_new(mode, verify);
	if (mode != CUA_CACHE_OFF && !*c)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	return CUA_OK;
}

void
cua_cache_marks_clear(struct cua_cache_marks *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->paths[i]);
	free(m->paths);
	free(m->flags);
	free(m->bus_name);
	memset(m, 0, sizeof(*m));
}

static void
free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

static void
carry_clear(struct cua_cache *c)
{
	free_strs(c->carry, c->n_carry);
	c->n_carry = 0;
	free(c->carry_bus);
	c->carry_bus = NULL;
}

static void
entry_clear(struct cua_cache_entry *e)
{
	free(e->app_id);
	free(e->bus_name);
	cua_cache_marks_clear(&e->marks);
	cua_hmap_clear(&e->idents);
	for (size_t i = 0; i < e->n_patches; i++)
		cua_raw_snapshot_free(e->patches[i]);
	free(e->patches);
	cua_raw_snapshot_free(e->snap);
	free_strs(e->restless, e->n_restless);
	memset(e, 0, sizeof(*e));
}

void
cua_cache_free(struct cua_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		entry_clear(&c->e[i]);
	free(c->e);
	cua_cache_marks_clear(&c->reading);
	carry_clear(c);
	free(c);
}

void
cua_cache_drop_for_read(struct cua_cache *c, struct cua_cache_entry *e)
{
	carry_clear(c);
	if (e->n_restless && e->bus_name &&
	    (c->carry_bus = strdup(e->bus_name))) {
		memcpy(c->carry, e->restless,
		       e->n_restless * sizeof(*e->restless));
		c->n_carry = e->n_restless;
		e->n_restless = 0;
	}
	cua_cache_drop(c, e);
}

void
cua_cache_drop(struct cua_cache *c, struct cua_cache_entry *e)
{
	size_t i = (size_t)(e - c->e);

	entry_clear(e);
	memmove(&c->e[i], &c->e[i + 1], (c->n - i - 1) * sizeof(*c->e));
	c->n--;
}

int
cua_cache_same_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

int
cua_cache_object_area(struct cua_cache *c, const char *bus, const char *path,
		      struct cua_rect *area)
{
	char ident[256];
	int64_t v;
	const struct cua_raw_node *n;

	for (size_t i = 0; c && bus && i < c->n; i++) {
		struct cua_cache_entry *e = &c->e[i];

		if (!cua_cache_same_str(e->bus_name, bus))
			continue;
		if (snprintf(ident, sizeof(ident), "%s:%s", bus, path) >=
		    (int)sizeof(ident))
			return -1;
		/* the read holds every object that shows in the window
		 * (hidden ones get no details: cache_observe.c) */
		if (!cua_hmap_get(&e->idents, ident, &v))
			return 0;
		n = (const struct cua_raw_node *)(intptr_t)v;
		if (!(n->have & CUA_HAVE_BASIC) ||
		    !CUA_HAS_STATE(n, CUA_STATE_SHOWING))
			return 0;
		if (!(n->have & CUA_HAVE_EXTENTS) || n->extents.w <= 0 ||
		    n->extents.h <= 0)
			return -1;
		*area = n->extents;
		return 1;
	}
	return -1;
}

struct cua_cache_entry *
cua_cache_find(struct cua_cache *c, const struct cua_app_info *app)
{
	if (!c || !app->app_id)
		return NULL;
	for (size_t i = 0; i < c->n; i++) {
		struct cua_cache_entry *e = &c->e[i];

		if (strcmp(e->app_id, app->app_id) != 0)
			continue;
		if (e->pid != app->pid || e->start_time != app->start_time ||
		    !cua_cache_same_str(e->bus_name, app->bus_name)) {
			/* restarted, or back on the bus under a new name */
			cua_cache_drop(c, e);
			return NULL;
		}
		e->used = ++c->tick;
		return e;
	}
	return NULL;
}

/*
 * LibreOffice's toolkit (VCL) gives its gtk3 plug-in's toolkit name, GTK
 * 3, but its toolbars, status bar and documents are its own accessible
 * objects, and they do not announce every change (measured in verify
 * mode: a toolbar button turned insensitive, the status bar's word
 * count, a scroll bar's value): it is swept. So is Qt, which announces
 * even less (in random walks over FeatherPad the sweep found about one
 * change without an event per click) and moves widgets among their
 * siblings silently (its sweep compares places, cache_observe.c). And
 * GTK 4, which says nothing when it scrolls a list or lays it out anew
 * (a visible range, a scroll bar's value, which it animates), fills a
 * list after it shows it, and shows a scroll bar silently: its sweep
 * compares visible ranges and waits for moving values (cache_sweep.c).
 * And Chromium (Electron apps too), whose events come from another
 * process than the one that changed (often after the observation), that
 * puts another document in a tab's place silently and gives a page its
 * scroll actions as its layout changes: its sweep compares children,
 * descriptions and scroll actions too. And Gecko (Firefox), which gives
 * an element a description without an event: its sweep compares
 * descriptions.
 */
static int
is_gtk4(const struct cua_app_info *app)
{
	return app->toolkit && strcasecmp(app->toolkit, "GTK") == 0 &&
	       app->toolkit_version &&
	       strncmp(app->toolkit_version, "4.", 2) == 0;
}

static int
is_browser(const struct cua_app_info *app)
{
	return cua_toolkit_is_chromium(app->toolkit) ||
	       cua_toolkit_is_gecko(app->toolkit);
}

enum cua_cache_trust
cua_cache_toolkit_trusted(const struct cua_cache *c,
			  const struct cua_app_info *app)
{
	if (c->mode == CUA_CACHE_ALL)
		return CUA_TRUST_EVENTS;
	if (c->mode == CUA_CACHE_SWEEP)
		return CUA_TRUST_SWEEP;
	if (cua_app_is_libreoffice(app) || cua_toolkit_is_qt(app->toolkit) ||
	    is_gtk4(app) || is_browser(app))
		return CUA_TRUST_SWEEP;
	if (!app->toolkit)
		return CUA_TRUST_NONE;
	for (size_t i = 0; i < sizeof(trusted) / sizeof(trusted[0]); i++) {
		if (strcasecmp(app->toolkit, trusted[i].toolkit) != 0)
			continue;
		if (!trusted[i].major ||
		    (app->toolkit_version &&
		     strncmp(app->toolkit_version, trusted[i].major,
			     strlen(trusted[i].major)) == 0))
			return CUA_TRUST_EVENTS;
	}
	return CUA_TRUST_NONE;
}

static int
index_nodes(struct cua_cache_entry *e, struct cua_raw_node *n);
static void
entry_unindex(struct cua_cache_entry *e);

void
cua_cache_store(struct cua_cache *c, const struct cua_app_info *app,
		struct cua_raw_snapshot *snap, uint32_t root,
		const uint32_t *popups, size_t n_popups,
		enum cua_visibility vis)
{
	struct cua_cache_entry *e = cua_cache_find(c, app), *grown;
	size_t bytes = cua_arena_held(snap->arena);

	if (e)
		cua_cache_drop_for_read(c, e);
	if (bytes > CUA_CACHE_APP_BYTES || !app->app_id ||
	    snap->stats.deadline_hit || snap->stats.node_cap_hit) {
		/* too large, or not a whole read: not worth keeping */
		goto fail;
	}
	if (c->n == CACHE_APPS) {
		struct cua_cache_entry *old = &c->e[0];

		for (size_t i = 1; i < c->n; i++)
			if (c->e[i].used < old->used)
				old = &c->e[i];
		cua_cache_drop(c, old);
	}
	grown = realloc(c->e, (c->n + 1) * sizeof(*c->e));
	if (!grown)
		goto fail;
	c->e = grown;
	e = &c->e[c->n];
	memset(e, 0, sizeof(*e));
	e->app_id = strdup(app->app_id);
	e->bus_name = app->bus_name ? strdup(app->bus_name) : NULL;
	if (!e->app_id || (app->bus_name && !e->bus_name)) {
		free(e->app_id);
		free(e->bus_name);
		goto fail;
	}
	c->n++;
	e->pid = app->pid;
	e->start_time = app->start_time;
	e->snap = snap;
	e->root = root;
	if (n_popups > CUA_MAX_POPUPS)
		n_popups = CUA_MAX_POPUPS;
	memcpy(e->popups, popups, n_popups * sizeof(*popups));
	e->n_popups = n_popups;
	e->vis = vis;
	e->bytes = bytes;
	e->used = ++c->tick;
	/* the same process: its values still moving stay known */
	if (c->carry_bus && app->bus_name &&
	    strcmp(c->carry_bus, app->bus_name) == 0) {
		memcpy(e->restless, c->carry, c->n_carry * sizeof(*c->carry));
		e->n_restless = c->n_carry;
		c->n_carry = 0;
	}
	carry_clear(c);
	/* the marks recorded since the read began are the entry's now */
	e->marks = c->reading;
	memset(&c->reading, 0, sizeof(c->reading));
	cua_hmap_init(&e->idents, 1);
	if (!e->marks.bus_name || strcmp(e->marks.bus_name, e->bus_name) != 0 ||
	    index_nodes(e, snap->app) < 0)
		cua_cache_drop(c, e);
	return;
fail:
	carry_clear(c);
	cua_raw_snapshot_free(snap);
}

const char *
cua_cache_miss_name(enum cua_cache_miss m)
{
	static const char *const names[] = {
		"hit",    "first read",      "toolkit not trusted",
		"events", "windows changed", "not watched",
		"change",
	};

	return (size_t)m < sizeof(names) / sizeof(names[0]) ? names[m] : "?";
}

size_t
cua_cache_first_diff(const char *a, const char *b, const char **la, size_t *na,
		     const char **lb, size_t *nb, size_t *col)
{
	size_t line = 1, k;
	const char *pa = a, *pb = b;

	for (;;) {
		const char *ea = strchr(pa, '\n'), *eb = strchr(pb, '\n');
		size_t ka = ea ? (size_t)(ea - pa) : strlen(pa);
		size_t kb = eb ? (size_t)(eb - pb) : strlen(pb);

		if (ka == kb && memcmp(pa, pb, ka) == 0) {
			const char **p = ea ? &pa : &pb;

			if (!ea && !eb)
				return 0;
			if (ea && eb) {
				pa = ea + 1;
				pb = eb + 1;
				line++;
				continue;
			}
			/* the same line, the last of one text: the other's
			 * next line that is not empty is the difference */
			pa += ka;
			pb += kb;
			while (**p == '\n') {
				++*p;
				line++;
			}
			ka = strcspn(pa, "\n");
			kb = strcspn(pb, "\n");
		}
		for (k = 0; k < ka && k < kb && pa[k] == pb[k]; k++)
			;
		*la = pa;
		*na = ka;
		*lb = pb;
		*nb = kb;
		*col = k + 1;
		return line;
	}
}

/* ------------------------------------------------------------------ */
/* Marks                                                               */

static void
mark(struct cua_cache_marks *m, const struct cua_event *ev)
{
	const char *t = ev->type;
	uint8_t f = CUA_MARK_DETAILS;

	if (!m->bus_name || m->full || strcmp(t, "x11:damage") == 0)
		return;
	if (strncmp(t, "atspi:", 6) == 0) {
		m->full = "events were lost";
		return;
	}
	/* a document loaded: only a walk sees what came */
	if (strncmp(t, "document:", 9) == 0) {
		m->full = "a document loaded";
		return;
	}
	if (!ev->path) {
		m->full = "an event without an object";
		return;
	}
	/* children added or removed: the object's subtree is read again;
	 * an object given another parent: its old parent's subtree, and
	 * it must turn up where the reads find it (cache_observe.c) */
	if (strncmp(t, "object:children-changed", 23) == 0)
		f |= CUA_MARK_CHILDREN;
	/* the container's selected children changed: GTK 3's tree views
	 * send state-changed:selected for the row that lost the selection
	 * and nothing for the one that gained it, so its children are read
	 * again */
	if (strcmp(t, "object:selection-changed") == 0)
		f |= CUA_MARK_CHILDREN;
	if (strcmp(t, "object:property-change:accessible-parent") == 0)
		f |= CUA_MARK_PARENT;
	if (strcmp(t, "object:state-changed:focused") == 0)
		f |= CUA_MARK_FOCUS;
	if (strcmp(t, "object:bounds-changed") == 0 ||
	    strcmp(t, "object:visible-data-changed") == 0)
		f |= CUA_MARK_BOUNDS;
	cua_cache_mark_path(m, ev->path, f);
}

uint8_t
cua_cache_marked(const struct cua_cache_marks *m, const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->paths[i], path) == 0)
			return m->flags[i];
	return 0;
}

void
cua_cache_mark_path(struct cua_cache_marks *m, const char *path, uint8_t f)
{
	char **paths;
	uint8_t *flags;

	if (m->full)
		return;
	for (size_t i = 0; i < m->n; i++) {
		if (strcmp(m->paths[i], path) == 0) {
			m->flags[i] |= f;
			return;
		}
	}
	if (m->n == CACHE_MAX_MARKS) {
		m->full = "too many changes";
		return;
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;

		paths = realloc(m->paths, cap * sizeof(*paths));
		if (paths)
			m->paths = paths;
		flags = realloc(m->flags, cap * sizeof(*flags));
		if (flags)
			m->flags = flags;
		if (!paths || !flags) {
			m->full = "out of memory";
			return;
		}
		m->cap = cap;
	}
	m->paths[m->n] = strdup(path);
	if (!m->paths[m->n]) {
		m->full = "out of memory";
		return;
	}
	m->flags[m->n++] = f;
}

void
cua_cache_note(struct cua_cache *c, const char *bus, const struct cua_event *ev)
{
	if (!c || !bus)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].bus_name && strcmp(c->e[i].bus_name, bus) == 0)
			mark(&c->e[i].marks, ev);
	if (c->reading.bus_name && strcmp(c->reading.bus_name, bus) == 0)
		mark(&c->reading, ev);
}

void
cua_cache_marks_start(struct cua_cache *c, const char *bus)
{
	cua_cache_marks_clear(&c->reading);
	c->reading.bus_name = strdup(bus);
	if (!c->reading.bus_name)
		c->reading.full = "out of memory";
}

int
cua_cache_hold(struct cua_cache_entry *e, struct cua_raw_snapshot *snap)
{
	struct cua_raw_snapshot **p =
		realloc(e->patches, (e->n_patches + 1) * sizeof(*p));

	if (!p) {
		cua_raw_snapshot_free(snap);
		return -1;
	}
	e->patches = p;
	e->patches[e->n_patches++] = snap;
	e->bytes += cua_arena_held(snap->arena);
	return 0;
}

/* The snapshot's objects by identity; duplicates and ranged reads are
 * noted (partial reads then give way to full ones). */
static int
index_nodes(struct cua_cache_entry *e, struct cua_raw_node *n)
{
	int64_t v;

	if (n->children_partial)
		e->ranged = 1;
	if (n->ident) {
		if (cua_hmap_get(&e->idents, n->ident, &v))
			e->dups = 1;
		else if (cua_hmap_put(&e->idents, n->ident,
				      (int64_t)(intptr_t)n) < 0)
			return -1;
	}
	for (size_t i = 0; i < n->n_children; i++)
		if (index_nodes(e, n->children[i]) < 0)
			return -1;
	return 0;
}

static void
entry_unindex(struct cua_cache_entry *e)
{
	cua_hmap_clear(&e->idents);
	cua_hmap_init(&e->idents, 1);
	e->dups = 0;
	e->ranged = 0;
}

int
cua_cache_reindex(struct cua_cache_entry *e)
{
	entry_unindex(e);
	return index_nodes(e, e->snap->app);
}
