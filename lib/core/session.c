/*
 * Observing apps: resolve → (launch) → open → choose windows → fetch →
 * walk → ids → publish (architecture "observe" flow).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "a11y_note.h"
#include "bare.h"
#include "diff.h"
#include "errors.h"
#include "frames.h"
#include "lineage.h"
#include "lock.h"
#include "pending.h"
#include "user.h"
#include "roles.h"
#include "sanitize.h"
#include "session.h"
#include "cache.h"
#include "strbuf.h"
#include "walk.h"

static void
proc_free(struct cua_proc_session *p)
{
	if (!p)
		return;
	free(p->exe);
	free(p->bus_name);
	for (int i = 0; i < CUA_ACTIVATION_MEMORY; i++)
		free(p->acts[i].ident);
	cua_tree_release(p->latest);
	for (int i = 0; i < CUA_WINDOW_MEMORY; i++)
		cua_tree_release(p->windows[i]);
	free(p);
}

void
cua_app_session_drop_process(struct cua_app_session *as)
{
	if (!as || !as->proc)
		return;
	proc_free(as->proc);
	as->proc = NULL;
	as->proc_gone = 1;
}

void
cua_session_free_apps(struct cua_session *s)
{
	for (size_t i = 0; i < s->n_apps; i++) {
		proc_free(s->apps[i]->proc);
		free(s->apps[i]->app_id);
		free(s->apps[i]->app_name);
		free(s->apps[i]);
	}
	free(s->apps);
	s->apps = NULL;
	s->n_apps = 0;
}

static struct cua_app_session *
app_session_get(struct cua_session *s, const char *app_id, int create)
{
	struct cua_app_session *as, **n;

	for (size_t i = 0; i < s->n_apps; i++)
		if (strcmp(s->apps[i]->app_id, app_id) == 0)
			return s->apps[i];
	if (!create)
		return NULL;
	as = calloc(1, sizeof(*as));
	n = realloc(s->apps, (s->n_apps + 1) * sizeof(*n));
	if (!as || !n) {
		free(as);
		if (n)
			s->apps = n;
		return NULL;
	}
	s->apps = n;
	as->app_id = strdup(app_id);
	if (!as->app_id) {
		free(as);
		return NULL;
	}
	s->apps[s->n_apps++] = as;
	return as;
}

/* The toplevel identity of a tree's root window (skeleton entry 0). */
static const char *
tree_window_key(const struct cua_tree *t)
{
	return t && t->n_skel ? t->skel[0].ident : NULL;
}

static struct cua_tree *
previous_for_window(struct cua_proc_session *p, const char *key)
{
	if (!p || !key)
		return NULL;
	for (int i = 0; i < CUA_WINDOW_MEMORY; i++) {
		const char *k = tree_window_key(p->windows[i]);

		if (k && strcmp(k, key) == 0)
			return p->windows[i];
	}
	return NULL;
}

static int64_t
realtime_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Appends t to the window memory, most recently published last: the
 * window's previous revision leaves its slot, and when all slots are
 * taken the least recently published window is forgotten. */
static void
remember_window(struct cua_proc_session *p, struct cua_tree *t)
{
	const char *key = tree_window_key(t);
	int n = 0;

	for (int i = 0; i < CUA_WINDOW_MEMORY; i++) {
		const char *k = tree_window_key(p->windows[i]);

		if (p->windows[i] && (!key || !k || strcmp(k, key) != 0))
			p->windows[n++] = p->windows[i];
		else
			cua_tree_release(p->windows[i]);
	}
	for (int i = n; i < CUA_WINDOW_MEMORY; i++)
		p->windows[i] = NULL;
	if (n == CUA_WINDOW_MEMORY) {
		cua_tree_release(p->windows[0]);
		memmove(&p->windows[0], &p->windows[1],
			(CUA_WINDOW_MEMORY - 1) * sizeof(p->windows[0]));
		n--;
	}
	p->windows[n] = cua_tree_retain(t);
}

static void
publish(struct cua_proc_session *p, struct cua_tree *t)
{
	cua_tree_release(p->latest);
	p->latest = cua_tree_retain(t);
	p->latest_at_us = realtime_us();
	p->user_intervened = 0;
	p->baseline_expired = 0;
	remember_window(p, t);
}

/* The diff baseline of t (docs/identity.md §7.4): the delta against the
 * previous published revision when it shows the same window, and why the
 * diff rendering is a full tree anyway, if it is. */
static cua_result
set_baseline(struct cua_session *s, struct cua_proc_session *p,
	     struct cua_tree *t, uint32_t flags)
{
	const struct cua_options *o = &s->ctx.opt;
	const struct cua_tree *prev = p->latest;
	const char *pk = tree_window_key(prev), *nk = tree_window_key(t);
	int same_root = pk && nk && strcmp(pk, nk) == 0;
	int64_t age = prev ? realtime_us() - p->latest_at_us : 0;

	t->diff_opts =
		(o->diff_removed_lines ? CUA_DIFF_REMOVED_LINES : 0) |
		(o->diff_ignore_budget ? CUA_DIFF_IGNORE_LINE_BUDGET : 0);
	t->root_changed = prev && !same_root;
	if (same_root) {
		int64_t t0 = cua_now_us();

		t->delta = cua_delta_compute(prev, t, t->arena);
		if (!t->delta)
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		t->stats.diff_us = cua_now_us() - t0;
	}
	if (!prev)
		t->full_reason = CUA_FULL_FIRST;
	else if (!same_root)
		t->full_reason = CUA_FULL_ROOT_CHANGED;
	else if (flags & CUA_OBSERVE_DISABLE_DIFF)
		t->full_reason = CUA_FULL_DISABLED;
	else if (p->baseline_expired || age < 0 ||
		 age > (int64_t)o->diff_max_age_s * 1000000)
		t->full_reason = CUA_FULL_EXPIRED;
	else if (t->delta->truncated)
		t->full_reason = CUA_FULL_TRUNCATED;
	else if (o->diff_off)
		t->full_reason = CUA_FULL_MODE_OFF;
	if (t->full_reason == CUA_FULL_NONE)
		/* logs docs/identity.md §7.5 */
		cua_observation_kind(t, CUA_RENDER_DIFF, &s->ctx);
	return CUA_OK;
}

/* Whether t shows exactly what the previous published revision showed:
 * the no-change case of docs/identity.md §7.3, with the same focus and
 * selected text; t then keeps its content revision. */
static int
same_content(const struct cua_tree *prev, const struct cua_tree *t)
{
	uint32_t fa, fb;

	if (!prev || !t->delta || t->root_changed || t->delta->truncated ||
	    t->truncated || prev->truncated || !cua_delta_is_empty(t->delta))
		return 0;
	fa = prev->focused >= 0 ? prev->elements[prev->focused].id : 0;
	fb = t->focused >= 0 ? t->elements[t->focused].id : 0;
	if ((prev->focused >= 0) != (t->focused >= 0) || fa != fb)
		return 0;
	if (!prev->selected_text || !t->selected_text)
		return !prev->selected_text && !t->selected_text;
	return strcmp(prev->selected_text, t->selected_text) == 0;
}

static const char *
app_display_name(const struct cua_app_info *a)
{
	return a->app_name && *a->app_name ? a->app_name : a->app_id;
}

static cua_result
timeout_error(const struct cua_app_info *app, int64_t waited_us)
{
	/* the time actually waited: the per-call timeout or the walk
	 * deadline, whichever ended the read */
	return cua_err(CUA_MSG_TIMEOUT_READ, { "name", app_display_name(app) },
		       { "s", CUA_NUM("%.1f", (double)waited_us / 1e6) });
}

/* The app left the accessibility bus (quit or crashed) while it was being
 * read (E-RUNNING-APP-NOT-FOUND, with the cause). */
static cua_result
gone_error(const struct cua_app_info *app)
{
	return cua_err(CUA_MSG_QUIT_WHILE_READ,
		       { "name", app_display_name(app) });
}

/* The app is on the bus but its application object answers nothing
 * usable (errors, or replies of the wrong type). The backend's own text
 * would echo the app's name unsanitised. */
static cua_result
unreadable_error(const struct cua_app_info *app)
{
	return cua_err(CUA_MSG_UNREADABLE, { "name", app_display_name(app) });
}

/* The error of a failed open or fetch, in the model's words. */
static cua_result
read_error(cua_result r, const struct cua_app_info *app, int64_t t0)
{
	if (r == CUA_ERROR_TIMEOUT)
		return timeout_error(app, cua_now_us() - t0);
	if (r == CUA_ERROR_PROCESS_GONE)
		return gone_error(app);
	if (r == CUA_ERROR_STALE)
		return unreadable_error(app);
	return r;
}

/* Waits for an app matching the launched entry to show up
 * (docs/actions.md §12). */
static cua_result
launch_and_wait(struct cua_session *s, const struct cua_installed_app *entry,
		const char *query, struct cua_app_list **apps_io)
{
	struct cua_backend *b = s->backend;
	int64_t pid = 0, deadline;
	cua_result r;

	r = b->ops->launch(b, entry, &pid);
	if (r != CUA_OK)
		return cua_err(CUA_MSG_LAUNCH_FAILED,
			       { "name", entry->name ? entry->name :
						       entry->desktop_id },
			       { "reason", cua_error_get() });
	cua_info(&s->ctx, "launched %s (pid %lld)", entry->desktop_id,
		 (long long)pid);
	/* Wait for the app to register on the accessibility bus with a
	 * window. An app that only shows an X11 window is taken at the
	 * deadline (degraded: coordinates and keys only). Matching is by
	 * desktop id, pid or the query, not only the spawned pid: wrapper
	 * scripts and single-instance apps hand over to another process. */
	deadline = cua_now_us() + (int64_t)s->ctx.opt.launch_timeout_ms * 1000;
	for (;;) {
		struct cua_app_list *apps = NULL;
		struct cua_resolved res;
		int last = cua_now_us() >= deadline, found = 0;

		if (b->ops->list_apps(b, &apps) == CUA_OK) {
			for (size_t i = 0; i < apps->n && !found; i++) {
				const struct cua_app_info *a = &apps->apps[i];

				if (!((a->desktop_id && entry->desktop_id &&
				       strcmp(a->desktop_id,
					      entry->desktop_id) == 0) ||
				      a->pid == pid ||
				      (cua_resolve_app(query, apps, NULL, NULL,
						       &res) == CUA_OK &&
				       res.app == a)))
					continue;
				if (a->n_windows > 0 && (a->accessible || last))
					found = 1;
			}
			if (found) {
				cua_app_list_free(*apps_io);
				*apps_io = apps;
				return CUA_OK;
			}
			cua_app_list_free(apps);
		}
		if (last)
			break;
		usleep(100 * 1000);
	}
	return cua_err(
		CUA_MSG_LAUNCH_NO_WINDOW,
		{ "name", entry->name ? entry->name : entry->desktop_id },
		{ "s", CUA_NUM("%d", s->ctx.opt.launch_timeout_ms / 1000) });
}

/* Resolves `query` to a running app; launches it when allowed. On success
 * *apps_out holds the list `*app` points into. */
static cua_result
resolve_running(struct cua_session *s, const char *query, uint32_t flags,
		struct cua_app_list **apps_out, const struct cua_app_info **app)
{
	struct cua_backend *b = s->backend;
	struct cua_app_list *apps = NULL;
	struct cua_installed_list *inst = NULL;
	struct cua_resolved res;
	cua_result r;

	*apps_out = NULL;
	*app = NULL;
	r = b->ops->list_apps(b, &apps);
	if (r != CUA_OK)
		return r;
	r = cua_resolve_app(query, apps, NULL, s, &res);
	if (r == CUA_ERROR_NOT_FOUND) {
		struct cua_err_saved saved;

		cua_err_save(&saved, r);
		if (b->ops->list_installed(b, &inst) == CUA_OK &&
		    cua_resolve_app(query, apps, inst, s, &res) == CUA_OK &&
		    res.kind == CUA_RESOLVED_INSTALLED) {
			if (flags & CUA_OBSERVE_NO_LAUNCH) {
				r = cua_err_restore(&saved);
			} else {
				r = launch_and_wait(s, res.entry, query, &apps);
				if (r == CUA_OK)
					r = cua_resolve_app(query, apps, NULL,
							    s, &res);
				if (r == CUA_ERROR_NOT_FOUND) {
					/* launched under another name: take
					 * the entry's id */
					r = cua_resolve_app(
						res.entry ?
							res.entry->desktop_id :
							query,
						apps, NULL, s, &res);
				}
			}
		} else {
			r = cua_err_restore(&saved);
		}
	}
	cua_installed_list_free(inst);
	if (r != CUA_OK) {
		cua_app_list_free(apps);
		return r;
	}
	*apps_out = apps;
	*app = res.app;
	return CUA_OK;
}

void
cua_observe_policy(struct cua_session *s, const struct cua_app_info *app,
		   const struct cua_raw_snapshot *snap, uint32_t root,
		   enum cua_visibility vis, int want_everything,
		   struct cua_walk_policy *st, struct cua_fetch_policy *pol)
{
	memset(st, 0, sizeof(*st));
	st->root = snap->app->children[root];
	st->want_everything = want_everything;
	st->prune_hidden_geometry =
		app->toolkit && strcasecmp(app->toolkit, "GTK") == 0 &&
		app->toolkit_version && app->toolkit_version[0] == '4';
	cua_walk_fetch_policy(pol, st, &s->ctx.opt, vis);
}

cua_result
cua_observe_snapshot(struct cua_session *s, const struct cua_app_info *app,
		     struct cua_raw_snapshot *opened,
		     struct cua_raw_snapshot **snap_out, uint32_t *root,
		     uint32_t *popups, size_t *n_popups,
		     enum cua_visibility *vis, int want_everything)
{
	struct cua_backend *b = s->backend;
	struct cua_raw_snapshot *snap = NULL;
	struct cua_fetch_policy pol;
	struct cua_walk_policy st;
	struct cua_raw_node *roots[1 + CUA_MAX_POPUPS];
	int64_t t0 = cua_now_us();
	cua_result r;

	*snap_out = NULL;
	if (!app->bus_name) {
		/* a window without a tree (docs/safety.md §7) */
		*root = 0;
		*n_popups = 0;
		*vis = cua_walk_visibility_for(NULL, NULL);
		return cua_bare_snapshot(b, app, app_display_name(app),
					 snap_out);
	}
	snap = opened;
	r = snap ? CUA_OK : b->ops->open_app(b, app, &snap);
	if (r != CUA_OK) {
		return read_error(r, app, t0);
	}
	if (cua_walk_choose_windows(snap, root, popups, n_popups) < 0) {
		cua_raw_snapshot_free(snap);
		return cua_err(CUA_MSG_NO_WINDOWS,
			       { "name", app_display_name(app) });
	}
	*vis = cua_walk_visibility_for(app->toolkit, app->toolkit_version);
	cua_observe_policy(s, app, snap, *root, *vis, want_everything, &st,
			   &pol);
	roots[0] = snap->app->children[*root];
	for (size_t i = 0; i < *n_popups; i++)
		roots[1 + i] = snap->app->children[popups[i]];
	r = b->ops->fetch(b, snap, roots, 1 + *n_popups, &pol);
	if (r != CUA_OK) {
		cua_raw_snapshot_free(snap);
		return read_error(r, app, t0);
	}
	*snap_out = snap;
	return CUA_OK;
}

void
cua_fill_tree_app(struct cua_tree *t, const struct cua_app_info *app)
{
	struct cua_arena *a = t->arena;

	t->app_id = cua_sanitize(a, app->app_id);
	t->app_name = cua_sanitize(a, app_display_name(app));
	t->pid = app->pid;
	t->start_time = app->start_time;
	t->exe = cua_arena_strdup(a, app->exe ? app->exe : "");
	t->toolkit = cua_arena_strdup(a, app->toolkit ? app->toolkit : "");
	t->toolkit_version = cua_arena_strdup(
		a, app->toolkit_version ? app->toolkit_version : "");
}

/* The live process session of `app`, if this session has one. */
static struct cua_proc_session *
live_proc(struct cua_session *s, const struct cua_app_info *app)
{
	struct cua_app_session *as = app_session_get(s, app->app_id, 0);
	struct cua_proc_session *p = as ? as->proc : NULL;

	if (p && p->pid == app->pid && p->start_time == app->start_time)
		return p;
	return NULL;
}

/*
 * A web document the toolkit has not finished describing
 * (docs/screenshots.md §6.3): no children yet (Chromium builds its tree after
 * the first query), or, while showing, no size or no attributes (Gecko
 * answers a new client's first requests about a document with extents
 * (-1, -1, -1, -1) and an empty attribute set; recorded as they are, a
 * first observation would describe a document that the next read no
 * longer matches).
 */
static int
raw_has_unready_document(const struct cua_raw_node *n, int depth)
{
	if (!n || depth > 64)
		return 0;
	if ((n->role == CUA_ROLE_DOCUMENT_WEB ||
	     n->role == CUA_ROLE_DOCUMENT_FRAME) &&
	    (((n->have & CUA_HAVE_CHILDREN) && n->n_children == 0) ||
	     (CUA_HAS_STATE(n, CUA_STATE_SHOWING) &&
	      (((n->ifaces & CUA_IFACE_COMPONENT) &&
		(n->have & CUA_HAVE_EXTENTS) &&
		(n->extents.w <= 0 || n->extents.h <= 0)) ||
	       cua_raw_attrs_unknown(n)))))
		return 1;
	for (size_t i = 0; i < n->n_children; i++)
		if (raw_has_unready_document(n->children[i], depth + 1))
			return 1;
	return 0;
}

static int
looks_like_shell(const struct cua_tree *t, const struct cua_raw_snapshot *snap,
		 uint32_t root)
{
	return t->n_lines < 6 ||
	       raw_has_unready_document(snap->app->children[root], 0);
}

static void
note_atspi_window(struct cua_tree *t, const struct cua_raw_snapshot *snap,
		  uint32_t root)
{
	const struct cua_raw_node *w = snap->app->children[root];

	if ((w->have & CUA_HAVE_EXTENTS) && w->extents.w > 0 &&
	    w->extents.h > 0) {
		t->atspi_window = w->extents;
		t->has_atspi_window = 1;
	}
}

/*
 * Element frames in window points relative to the window's frame, the
 * image's origin (docs/screenshots.md §3): the walk measured them from the
 * accessibility window's own origin, which is the frame for GTK 3 (CSD),
 * Qt and Chromium, the frame less an undeclared resize margin for GTK 4,
 * and the window manager's frame for GTK 3 windows with server-side
 * decorations. Then the subtrees a toolkit measured from another origin
 * than their container's are moved (frames.h).
 */
static int
normalise_frames(struct cua_session *s, struct cua_tree *t,
		 const struct cua_raw_snapshot *snap, uint32_t root)
{
	struct cua_geom_window gw;
	double dppp, dx, dy;
	int32_t ix, iy, ox, oy;
	int moved;

	if (!t->has_atspi_window || !t->has_window_frame || !t->x11_window)
		return 0;
	dppp = cua_geom_device_ppp(t->window_frame.w, 0, t->atspi_window.w);
	gw.frame = t->window_frame;
	gw.surface = t->window_surface;
	gw.outer = t->window_outer;
	cua_geom_element_origin(&t->atspi_window, &gw, dppp, &dx, &dy);
	ix = (int32_t)(dx < 0 ? dx - 0.5 : dx + 0.5);
	iy = (int32_t)(dy < 0 ? dy - 0.5 : dy + 0.5);
	t->frames_normalised = 1;
	for (size_t i = 0; (ix || iy) && i < t->n_elements; i++) {
		if (!t->elements[i].has_frame)
			continue;
		t->elements[i].frame.x += ix;
		t->elements[i].frame.y += iy;
	}
	moved = cua_frames_fix_origins(t, snap, root, &t->atspi_window, ix, iy);
	if (moved > 0 && cua_frames_moved(t, &ox, &oy))
		cua_debug(&s->ctx,
			  "%s: %d element frames measured from another origin "
			  "moved by (%d, %d)",
			  t->app_id, moved, (int)ox, (int)oy);
	return moved < 0 ? -1 : 0;
}

/*
 * The once-per-process warm-up (docs/screenshots.md §6.3): toolkits that build
 * their tree after the first query (Chromium) are sampled every 100 ms
 * until two samples agree and the window is no longer an empty shell, or
 * warmup_cap_ms passed. Replaces *snap and *t with the last sample.
 */
static cua_result
warm_up(struct cua_session *s, const struct cua_app_info *app,
	struct cua_raw_snapshot **snap, struct cua_tree **t, uint32_t *root,
	uint32_t *popups, size_t *n_popups, enum cua_visibility *vis)
{
	int64_t t0 = cua_now_us(),
		cap = (int64_t)s->ctx.opt.warmup_cap_ms * 1000;
	size_t prev = (*t)->n_elements;
	struct cua_backend *b = s->backend;
	cua_result r = CUA_OK;

	if (!looks_like_shell(*t, *snap, *root) &&
	    !cua_settle_recent_children(s, app->bus_name, 100))
		return CUA_OK;
	while (cua_now_us() - t0 < cap) {
		struct cua_raw_snapshot *snap2 = NULL;
		struct cua_tree *t2;
		uint32_t root2, popups2[CUA_MAX_POPUPS];
		size_t n2;
		enum cua_visibility vis2;
		int64_t next = cua_now_us() + 100 * 1000;

		if (b->ops->watch_dispatch)
			b->ops->watch_dispatch(b, next);
		else
			usleep(100 * 1000);
		r = cua_observe_snapshot(s, app, NULL, &snap2, &root2, popups2,
					 &n2, &vis2, 0);
		if (r != CUA_OK)
			break;
		t2 = cua_tree_alloc();
		if (!t2) {
			cua_raw_snapshot_free(snap2);
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
		cua_fill_tree_app(t2, app);
		r = cua_walk_build(t2, snap2, root2, popups2, n2, &s->ctx.opt,
				   vis2);
		if (r != CUA_OK) {
			cua_tree_destroy(t2);
			cua_raw_snapshot_free(snap2);
			break;
		}
		cua_tree_destroy(*t);
		cua_raw_snapshot_free(*snap);
		*t = t2;
		*snap = snap2;
		*root = root2;
		memcpy(popups, popups2, n2 * sizeof(*popups));
		*n_popups = n2;
		*vis = vis2;
		/* two equal samples, and no web document still unready */
		if (t2->n_elements == prev &&
		    !raw_has_unready_document(snap2->app->children[root2], 0))
			break;
		prev = t2->n_elements;
	}
	cua_debug(&s->ctx, "warm-up %s: %lld us, %zu elements", app->app_id,
		  (long long)(cua_now_us() - t0), (*t)->n_elements);
	/* a walk that failed during the warm-up keeps the first sample */
	return CUA_OK;
}

/* The X window's place on the screen, what its damage is measured from
 * (the whole window, client-side shadows included), or NULL. Only the x11
 * driver's damage says where the window drew (mutter's is every frame
 * whole), which the settle's drawn rule needs. */
static const struct cua_rect *
damage_origin(struct cua_session *s, const struct cua_tree *t)
{
	struct cua_display *d = s->backend->ops->display ?
					s->backend->ops->display(s->backend) :
					NULL;

	if (!d || strcmp(d->ops->name, "x11") != 0 || !t || !t->x11_window ||
	    !t->has_window_frame)
		return NULL;
	return t->window_surface.w > 0 ? &t->window_surface : &t->window_frame;
}

cua_result
cua_session_observe_internal(struct cua_session *s, const char *query,
			     uint32_t flags, struct cua_tree **out)
{
	struct cua_app_list *apps = NULL;
	const struct cua_app_info *app;
	struct cua_raw_snapshot *snap = NULL;
	struct cua_app_session *as;
	struct cua_proc_session *proc;
	struct cua_tree *t = NULL;
	uint32_t root, popups[CUA_MAX_POPUPS];
	size_t n_popups;
	enum cua_visibility vis;
	struct cua_settle_result settled;
	struct cua_cache_read cr;
	int64_t t0, t_warm;
	int warmed;
	uint64_t user_seq;
	cua_result r;

	*out = NULL;
	memset(&cr, 0, sizeof(cr));
	/* the person's stop holds for observations too (docs/safety.md §6) */
	cua_user_start(s);
	r = cua_user_guard_stop(s);
	if (r != CUA_OK)
		return r;
	user_seq = cua_user_seq(s);
	r = resolve_running(s, query, flags, &apps, &app);
	if (r != CUA_OK)
		return r;
	/* nothing is read while the screen is locked (docs/safety.md §9) */
	r = cua_lock_guard(s, CUA_LOCK_READ, 0);
	if (r != CUA_OK)
		goto out;
	/* an app still connecting to the accessibility bus
	 * (docs/safety.md §7) */
	r = cua_pending_guard(s, app);
	if (r != CUA_OK)
		goto out;
	/* settle -> walk -> capture (docs/screenshots.md §6.2); the
	 * first-sight probe overlaps the walk */
	proc = live_proc(s, app);
	cua_settle(s, app, proc && proc->latest ? proc->latest->x11_window : 0,
		   proc ? damage_origin(s, proc->latest) : NULL,
		   (flags & CUA_OBSERVE_AFTER_ACTION) != 0, &settled);
	warmed = proc && proc->warmed_up;
	r = cua_cache_observe(s, app, warmed, &cr);
	/* an app seen for the first time is probed during the read: if it
	 * changed meanwhile, it is settled and read again */
	if (r == CUA_OK && cua_settle_probe_end(s, app, &settled)) {
		if (!cr.cached)
			cua_raw_snapshot_free(cr.snap);
		r = cua_cache_observe(s, app, warmed, &cr);
	}
	if (r != CUA_OK)
		goto out;
	snap = cr.snap;
	root = cr.root;
	memcpy(popups, cr.popups, cr.n_popups * sizeof(*popups));
	n_popups = cr.n_popups;
	vis = cr.vis;

	t0 = cua_now_us();
	t = cua_tree_alloc();
	if (!t) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	cua_fill_tree_app(t, app);
	r = cua_walk_build(t, snap, root, popups, n_popups, &s->ctx.opt, vis);
	if (r != CUA_OK)
		goto out;
	if (cr.cached) {
		/* what this observation cost, not the read it reuses */
		t->stats.calls = cr.calls;
		t->stats.call_errors = 0;
		t->stats.walk_us = cr.walk_us;
	}
	if (!app->bus_name) {
		/* the one-line tree of a window without one: say why */
		char *note = cua_a11y_note(app_display_name(app), app->toolkit,
					   app->exe, app->pid);

		t->a11y_note = note ? cua_arena_strdup(t->arena, note) : NULL;
		free(note);
		if (!t->a11y_note) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			goto out;
		}
		warmed = 1; /* nothing to wait for */
	}
	t_warm = cua_now_us();
	if (!warmed) {
		r = warm_up(s, app, &snap, &t, &root, popups, &n_popups, &vis);
		if (r != CUA_OK)
			goto out;
	}
	t->shot_stats.warmup_us = cua_now_us() - t_warm;
	t->shot_stats.settle_us = settled.settle_us;
	t->shot_stats.settle_capped = settled.capped;
	note_atspi_window(t, snap, root);
	if (normalise_frames(s, t, snap, root) < 0) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	if (!(flags & CUA_OBSERVE_NO_SCREENSHOT))
		cua_shot_take(s, t,
			      (flags & CUA_OBSERVE_SCREENSHOT_GEOMETRY) != 0);

	as = app_session_get(s, app->app_id, 1);
	if (!as) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	free(as->app_name);
	as->app_name = strdup(app_display_name(app));
	proc = as->proc;
	if (proc &&
	    (proc->pid != app->pid || proc->start_time != app->start_time ||
	     strcmp(proc->exe ? proc->exe : "", app->exe ? app->exe : "") !=
		     0)) {
		/* a new process: a new lineage; ids still never reused */
		proc_free(proc);
		proc = as->proc = NULL;
	}
	if (!proc) {
		proc = calloc(1, sizeof(*proc));
		if (!proc) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
			goto out;
		}
		proc->pid = app->pid;
		proc->start_time = app->start_time;
		proc->exe = strdup(app->exe ? app->exe : "");
		as->proc = proc;
		as->proc_gone = 0;
	}
	proc->warmed_up = 1;
	if (app->bus_name &&
	    (!proc->bus_name || strcmp(proc->bus_name, app->bus_name) != 0)) {
		free(proc->bus_name);
		proc->bus_name = strdup(app->bus_name);
	}
	if (cua_lineage_assign(previous_for_window(proc, tree_window_key(t)), t,
			       &as->next_id) < 0) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	r = set_baseline(s, proc, t, flags);
	if (r != CUA_OK)
		goto out;
	t->revision = proc->revision++;
	t->content_revision = same_content(proc->latest, t) ?
				      proc->latest->content_revision :
				      t->revision;
	/* the warm-up and the screenshot are counted on their own */
	t->stats.build_us = cua_now_us() - t0 - t->shot_stats.warmup_us -
			    t->shot_stats.capture_us - t->shot_stats.encode_us;
	publish(proc, t);
	proc->user_seq = user_seq;
	/* the usage store only ranks list_apps: a failed write never fails
	 * the observation, and is logged once per session, not per look */
	if (s->usage_path) {
		int ur = cua_usage_record(s->usage_path, app->app_id);

		if (ur < 0 && !s->usage_warned) {
			s->usage_warned = 1;
			cua_warn(&s->ctx,
				 "cannot update %s: %s (the old file is kept; "
				 "list_apps may miss recent use). Free some "
				 "space or make the directory writable (or set "
				 "XDG_STATE_HOME).",
				 s->usage_path, strerror(-ur));
		}
	}
	cua_debug(&s->ctx,
		  "observed %s: %lld raw nodes, %zu elements, %lld calls, "
		  "walk %lld us, build %lld us",
		  t->app_id, (long long)t->stats.raw_nodes, t->n_elements,
		  (long long)t->stats.calls, (long long)t->stats.walk_us,
		  (long long)t->stats.build_us);
	*out = t;
	t = NULL;
	/* the snapshot is the cache's now, or was the cache's already */
	cua_cache_keep(s, app, &cr, snap, root, popups, n_popups, vis);
	snap = NULL;
out:
	if (t)
		cua_tree_destroy(t);
	if (!cr.cached)
		cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	return r;
}

cua_result
cua_session_record_internal(struct cua_session *s, const char *query,
			    char **out)
{
	struct cua_app_list *apps = NULL;
	const struct cua_app_info *app;
	struct cua_raw_snapshot *snap = NULL;
	uint32_t root, popups[CUA_MAX_POPUPS];
	size_t n_popups;
	enum cua_visibility vis;
	cua_result r;

	*out = NULL;
	r = resolve_running(s, query, CUA_OBSERVE_NO_LAUNCH, &apps, &app);
	if (r != CUA_OK)
		return r;
	r = cua_observe_snapshot(s, app, NULL, &snap, &root, popups, &n_popups,
				 &vis, 1);
	if (r == CUA_OK)
		r = cua_record_to_json(app, snap, out);
	cua_raw_snapshot_free(snap);
	cua_app_list_free(apps);
	return r;
}

cua_result
cua_session_resolve_internal(struct cua_session *s, const char *query,
			     char **out)
{
	struct cua_app_list *apps = NULL;
	struct cua_installed_list *inst = NULL;
	struct cua_resolved res;
	json_t *j;
	cua_result r;

	*out = NULL;
	r = s->backend->ops->list_apps(s->backend, &apps);
	if (r != CUA_OK)
		return r;
	r = cua_resolve_app(query, apps, NULL, s, &res);
	if (r == CUA_ERROR_NOT_FOUND) {
		struct cua_err_saved saved;

		cua_err_save(&saved, r);
		if (s->backend->ops->list_installed(s->backend, &inst) ==
		    CUA_OK)
			r = cua_resolve_app(query, apps, inst, s, &res);
		if (r == CUA_ERROR_NOT_FOUND)
			r = cua_err_restore(&saved);
	}
	if (r == CUA_OK) {
		j = cua_resolved_to_jansson(&res);
		*out = j ? json_dumps(j, JSON_COMPACT) : NULL;
		json_decref(j);
		if (!*out)
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	cua_installed_list_free(inst);
	cua_app_list_free(apps);
	return r;
}

cua_result
cua_session_list_apps_internal(struct cua_session *s, uint32_t flags,
			       char **out)
{
	struct cua_app_list *apps = NULL;
	struct cua_installed_list *inst = NULL;
	char *usage;
	cua_result r;

	r = s->backend->ops->list_apps(s->backend, &apps);
	if (r != CUA_OK)
		return r;
	usage = cua_usage_load(s->usage_path);
	if (usage)
		s->backend->ops->list_installed(s->backend, &inst);
	r = cua_format_app_list(apps, inst, usage,
				(flags & CUA_FORMAT_JSON) != 0, out);
	free(usage);
	cua_installed_list_free(inst);
	cua_app_list_free(apps);
	return r;
}

/* ------------------------------------------------------------------ */
/* Persisted state                                                      */

cua_result
cua_session_save_state_internal(struct cua_session *s, char **out)
{
	json_t *root = json_object(), *arr = json_array();

	json_object_set_new(root, "schema", json_string("libcua.session/1"));
	for (size_t i = 0; i < s->n_apps; i++) {
		struct cua_app_session *as = s->apps[i];
		json_t *o = json_object();

		json_object_set_new(o, "app_id", json_string(as->app_id));
		json_object_set_new(
			o, "app_name",
			json_string(as->app_name ? as->app_name : ""));
		json_object_set_new(o, "next_id", json_integer(as->next_id));
		if (!as->proc && as->proc_gone)
			json_object_set_new(o, "process_gone", json_true());
		if (as->proc) {
			json_t *p = json_object(), *wins = json_array();

			json_object_set_new(p, "pid",
					    json_integer(as->proc->pid));
			json_object_set_new(
				p, "start_time",
				json_integer((json_int_t)as->proc->start_time));
			json_object_set_new(p, "exe",
					    json_string(as->proc->exe ?
								as->proc->exe :
								""));
			json_object_set_new(p, "revision",
					    json_integer(as->proc->revision));
			json_object_set_new(
				p, "latest_at_us",
				json_integer(as->proc->latest_at_us));
			json_object_set_new(
				p, "baseline_expired",
				json_boolean(as->proc->baseline_expired));
			/* least recently published first, as in memory */
			for (int w = 0; w < CUA_WINDOW_MEMORY; w++) {
				struct cua_tree *t = as->proc->windows[w];

				if (!t)
					continue;
				json_array_append_new(
					wins,
					json_pack(
						"{s:b,s:o}", "latest",
						t == as->proc->latest, "tree",
						cua_tree_to_jansson(t, 1, 0)));
			}
			json_object_set_new(p, "windows", wins);
			json_object_set_new(o, "process", p);
		}
		json_array_append_new(arr, o);
	}
	json_object_set_new(root, "apps", arr);
	*out = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}

/* Ids a state file may carry: far below the end of the id space, so that
 * the counter never reaches CUA_NO_ID or wraps around. */
#define LOADED_ID_MAX (UINT32_MAX / 2)

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether a loaded tree's ids are usable: each names one element and is
 * below LOADED_ID_MAX. Either way *next_id moves past them, so that a
 * fresh id never repeats one (a state file whose next_id lags behind its
 * trees). */
static int
loaded_ids_ok(const struct cua_tree *t, uint32_t *next_id)
{
	uint32_t *ids = malloc((t->n_elements + 1) * sizeof(*ids));
	size_t n = 0;
	int ok = ids != NULL;

	for (size_t i = 0; ids && i < t->n_elements; i++) {
		if (t->elements[i].id >= LOADED_ID_MAX)
			ok = 0;
		else
			ids[n++] = t->elements[i].id;
	}
	if (n) {
		qsort(ids, n, sizeof(*ids), cmp_u32);
		for (size_t i = 1; i < n; i++)
			if (ids[i] == ids[i - 1])
				ok = 0;
		if (ids[n - 1] >= *next_id)
			*next_id = ids[n - 1] + 1;
	}
	free(ids);
	return ok;
}

void
cua_session_expire_baselines_internal(struct cua_session *s)
{
	for (size_t i = 0; i < s->n_apps; i++)
		if (s->apps[i]->proc)
			s->apps[i]->proc->baseline_expired = 1;
}

cua_result
cua_session_load_state_internal(struct cua_session *s, const char *text)
{
	json_error_t err;
	json_t *root = json_loads(text, 0, &err), *arr, *o;
	size_t i;

	if (!json_is_object(root) ||
	    !json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")),
		   "libcua.session/1") != 0) {
		json_decref(root);
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "not a libcua session state (line %d: %s)",
				 err.line, err.text);
	}
	arr = json_object_get(root, "apps");
	json_array_foreach(arr, i, o)
	{
		const char *id =
			json_string_value(json_object_get(o, "app_id"));
		json_t *p = json_object_get(o, "process"), *wins, *w;
		struct cua_app_session *as;
		size_t k;

		if (!id)
			continue;
		as = app_session_get(s, id, 1);
		if (!as)
			break;
		if (json_integer_value(json_object_get(o, "next_id")) >
			    (json_int_t)as->next_id &&
		    json_integer_value(json_object_get(o, "next_id")) <=
			    LOADED_ID_MAX)
			as->next_id = (uint32_t)json_integer_value(
				json_object_get(o, "next_id"));
		free(as->app_name);
		as->app_name = strdup(
			json_string_value(json_object_get(o, "app_name")) ?
				json_string_value(
					json_object_get(o, "app_name")) :
				"");
		if (json_is_true(json_object_get(o, "process_gone")) &&
		    !as->proc)
			as->proc_gone = 1;
		if (!json_is_object(p))
			continue;
		{
			int64_t pid =
				json_integer_value(json_object_get(p, "pid"));
			uint64_t st = (uint64_t)json_integer_value(
				json_object_get(p, "start_time"));

			/* a process that is gone keeps only its id counter
			 * (and the next action says it is gone) */
			if (!s->backend->ops->process_alive(s->backend, pid,
							    st)) {
				if (!as->proc)
					as->proc_gone = 1;
				continue;
			}
			as->proc_gone = 0;
			proc_free(as->proc);
			as->proc = calloc(1, sizeof(*as->proc));
			if (!as->proc)
				break;
			as->proc->pid = pid;
			as->proc->start_time = st;
			as->proc->exe = strdup(
				json_string_value(json_object_get(p, "exe")) ?
					json_string_value(
						json_object_get(p, "exe")) :
					"");
			as->proc->revision = (uint32_t)json_integer_value(
				json_object_get(p, "revision"));
			as->proc->latest_at_us = json_integer_value(
				json_object_get(p, "latest_at_us"));
			/* a time before 1970 is long ago (and its age must
			 * not overflow) */
			if (as->proc->latest_at_us < 0)
				as->proc->latest_at_us = 0;
			as->proc->baseline_expired = json_is_true(
				json_object_get(p, "baseline_expired"));
		}
		wins = json_object_get(p, "windows");
		json_array_foreach(wins, k, w)
		{
			struct cua_tree *t = cua_tree_from_jansson(
				json_object_get(w, "tree"));

			if (!t)
				continue;
			if (!loaded_ids_ok(t, &as->next_id)) {
				cua_tree_release(t);
				continue;
			}
			if (json_is_true(json_object_get(w, "latest"))) {
				cua_tree_release(as->proc->latest);
				as->proc->latest = cua_tree_retain(t);
			}
			for (int slot = 0; slot < CUA_WINDOW_MEMORY; slot++)
				if (!as->proc->windows[slot]) {
					as->proc->windows[slot] =
						cua_tree_retain(t);
					break;
				}
			cua_tree_release(t);
		}
	}
	json_decref(root);
	return CUA_OK;
}
