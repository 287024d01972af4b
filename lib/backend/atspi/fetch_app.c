/*
 * Jobs of the pipelined AT-SPI reader (fetch.c): opening an app (its
 * toplevels), reading a window's tree, and finding the focused element.
 * Live re-reads are in fetch_live.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fetch_int.h"
#include "core/sanitize.h"
#include "core/walk.h"

/* ------------------------------------------------------------------ */
/* Jobs                                                                */

void
fetch_job_init(struct job *job, struct atspi_be *be,
	       struct cua_raw_snapshot *snap, enum read_mode mode,
	       int timeout_ms, int64_t deadline_us)
{
	memset(job, 0, sizeof(*job));
	job->be = be;
	job->snap = snap;
	job->mode = mode;
	job->tmp = cua_arena_new();
	job->seen = g_hash_table_new(g_str_hash, g_str_equal);
	job->batch = dbatch_new(be, timeout_ms,
				mode == READ_LIVE ? IN_FLIGHT_LIVE : IN_FLIGHT,
				deadline_us);
	job->timeout_ms = timeout_ms > 0 ? timeout_ms : 1000;
	job->last_ok_us = cua_now_us();
	job->max_depth = 64;
	job->focus_root = -1;
}

void
fetch_job_finish(struct job *job, int64_t t0)
{
	struct cua_raw_stats *st = &job->snap->stats;

	st->calls += dbatch_calls(job->batch);
	st->call_errors += dbatch_errors(job->batch);
	dbatch_free(job->batch);
	st->elapsed_us += (uint64_t)(cua_now_us() - t0);
	g_hash_table_destroy(job->seen);
	cua_arena_free(job->tmp);
}

static int
seconds_of(int64_t us)
{
	int s = (int)((us + 500000) / 1000000);

	return s < 1 ? 1 : s;
}

static cua_result
timeout_error(const char *who, int64_t waited_us)
{
	int s = seconds_of(waited_us);

	return cua_error_quoting(
		CUA_ERROR_TIMEOUT, "The app '", who,
		"' did not answer accessibility requests within %d second%s; it may be busy or hung.",
		s, s == 1 ? "" : "s");
}

/* The app left the bus during the read (session.c words the message). */
static cua_result
gone_error(const char *who)
{
	return cua_error_quoting(CUA_ERROR_PROCESS_GONE, "The app '", who,
				 "' quit while it was being read.");
}

#define ENVIRON_MAX (1024 * 1024)

static int
env_is(const char *v, size_t len, const char *s)
{
	return len == strlen(s) && memcmp(v, s, len) == 0;
}

/* "en", "en_GB.UTF-8", "en@boldquot" */
static int
env_is_english(const char *v, size_t len)
{
	return len >= 2 && v[0] == 'e' && v[1] == 'n' &&
	       (len == 2 || v[2] == '_' || v[2] == '.' || v[2] == '@' ||
		v[2] == ':');
}

/* The value of `name` in an environment block, NULL when unset or empty. */
static const char *
env_get(const char *env, size_t len, const char *name, size_t *vlen)
{
	const char *v = procinfo_environ_find(env, len, name, vlen);

	return v && *vlen ? v : NULL;
}

/*
 * Whether the app shows untranslated (English) messages, from its
 * environment as gettext reads it: a C/POSIX or unset locale (LC_ALL, else
 * LC_MESSAGES, else LANG) never translates; otherwise LANGUAGE's first
 * entry, else the locale, names the language. Unknown counts as not
 * English (the raw action names are then read one by one).
 */
static int
app_is_english(int64_t pid)
{
	char path[64];
	char *env;
	ssize_t n, got = 0;
	size_t vlen, llen;
	const char *v, *lang;
	int fd, english = 0;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%" PRId64 "/environ", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	env = g_malloc(ENVIRON_MAX);
	while (got < ENVIRON_MAX &&
	       (n = read(fd, env + got, ENVIRON_MAX - got)) > 0)
		got += n;
	close(fd);
	if (got <= 0) {
		g_free(env);
		return 0;
	}
	v = env_get(env, (size_t)got, "LC_ALL", &vlen);
	if (!v)
		v = env_get(env, (size_t)got, "LC_MESSAGES", &vlen);
	if (!v)
		v = env_get(env, (size_t)got, "LANG", &vlen);
	if (!v || env_is(v, vlen, "C") || env_is(v, vlen, "POSIX") ||
	    (vlen > 2 && v[0] == 'C' && v[1] == '.')) {
		english = 1;
	} else {
		lang = env_get(env, (size_t)got, "LANGUAGE", &llen);
		english = lang ? env_is_english(lang, llen) :
				 env_is_english(v, vlen);
	}
	g_free(env);
	return english;
}

/* What the app's process and toolkit tell about its answers. */
static void
note_app(struct atspi_be *be, const struct cua_app_info *app)
{
	uint32_t caps = atspi_caps_of(be, app->bus_name);

	if (!(caps & (ATSPI_CAP_ACTIONS_RAW | ATSPI_CAP_ACTIONS_LOCALIZED)))
		atspi_caps_add(be, app->bus_name,
			       app_is_english(app->pid) ?
				       ATSPI_CAP_ACTIONS_RAW :
				       ATSPI_CAP_ACTIONS_LOCALIZED);
	if (cua_toolkit_is_gecko(app->toolkit))
		atspi_caps_add(be, app->bus_name, ATSPI_CAP_ACTIONS_BY_INDEX);
	if (app->toolkit && g_ascii_strcasecmp(app->toolkit, "gtk") == 0 &&
	    app->toolkit_version && app->toolkit_version[0] == '4')
		atspi_caps_add(be, app->bus_name, CAP_WINDOW_COORDS);
	if (cua_walk_visibility_for(app->toolkit, app->toolkit_version) ==
	    CUA_VIS_VISIBLE)
		atspi_caps_add(be, app->bus_name, CAP_VIS_VISIBLE);
}

/*
 * The children's extents of the toplevels, for a display driver that asks
 * (ops->match_wants_content): on Wayland a window's extents cover its
 * whole surface, a client-side shadow included, and the rectangle its
 * children fill is the visible window. One GetChildren per toplevel, then
 * GetExtents (in the toplevel's coordinates) per child, the first
 * CONTENT_CHILDREN of each; children without a geometry are left out. A
 * toplevel whose children did not all answer gets no content.
 */
#define CONTENT_CHILDREN 16

struct content_read {
	struct cua_display_toplevel_query *q;
	uint32_t coord;
	int failed;
};

static void
on_child_extents(struct dbatch *batch, GVariant *reply, const GError *error,
		 void *data)
{
	struct content_read *c = data;
	struct cua_rect r, *u = &c->q->content;
	int32_t x1, y1;

	(void)batch;
	(void)error;
	if (!reply) {
		c->failed = 1;
		return;
	}
	g_variant_get(reply, "((iiii))", &r.x, &r.y, &r.w, &r.h);
	if (r.x == INT32_MIN || r.y == INT32_MIN || r.w <= 0 || r.h <= 0 ||
	    (r.w == 1 && r.h == 1))
		return;
	if (!c->q->has_content) {
		*u = r;
		c->q->has_content = 1;
		return;
	}
	x1 = u->x + u->w > r.x + r.w ? u->x + u->w : r.x + r.w;
	y1 = u->y + u->h > r.y + r.h ? u->y + u->h : r.y + r.h;
	u->x = u->x < r.x ? u->x : r.x;
	u->y = u->y < r.y ? u->y : r.y;
	u->w = x1 - u->x;
	u->h = y1 - u->y;
}

static void
on_children(struct dbatch *batch, GVariant *reply, const GError *error,
	    void *data)
{
	struct content_read *c = data;
	GVariantIter *it;
	const char *bus, *path;
	size_t k = 0;

	(void)error;
	if (!reply) {
		c->failed = 1;
		return;
	}
	g_variant_get(reply, "(a(so))", &it);
	while (k < CONTENT_CHILDREN &&
	       g_variant_iter_next(it, "(&s&o)", &bus, &path)) {
		if (strcmp(path, NULL_PATH) == 0)
			continue;
		dbatch_call(batch, bus, path, IF_COMPONENT, "GetExtents",
			    g_variant_new("(u)", c->coord),
			    G_VARIANT_TYPE("((iiii))"), on_child_extents, c);
		k++;
	}
	g_variant_iter_free(it);
}

static void
read_content(struct atspi_be *be, const char *bus, struct cua_raw_node **tops,
	     struct cua_display_toplevel_query *q, size_t n, int timeout_ms)
{
	struct content_read *c = g_new0(struct content_read, n);
	struct dbatch *b;
	uint32_t coord = (atspi_caps_of(be, bus) & CAP_WINDOW_COORDS) ?
				 COORD_WINDOW :
				 COORD_SCREEN;

	b = dbatch_new(be, timeout_ms, IN_FLIGHT,
		       cua_now_us() + (int64_t)timeout_ms * 1000 + 250 * 1000);
	for (size_t i = 0; i < n; i++) {
		c[i] = (struct content_read){ &q[i], coord, 0 };
		const char *id = tops[i]->ident;
		size_t lb = strlen(bus);

		/* the toplevel's identity is "bus:path" */
		if (!q[i].has_extents || !id || strncmp(id, bus, lb) != 0 ||
		    id[lb] != ':' || id[lb + 1] != '/')
			continue;
		dbatch_call(b, bus, id + lb + 1, IF_ACCESSIBLE, "GetChildren",
			    NULL, G_VARIANT_TYPE("(a(so))"), on_children,
			    &c[i]);
	}
	if (dbatch_run(b) < 0)
		for (size_t i = 0; i < n; i++)
			c[i].failed = 1;
	dbatch_free(b);
	for (size_t i = 0; i < n; i++)
		if (c[i].failed)
			q[i].has_content = 0;
	g_free(c);
}

cua_result
atspi_open_app(struct cua_backend *b, const struct cua_app_info *app,
	       struct cua_raw_snapshot **out)
{
	struct atspi_be *be = (struct atspi_be *)b;
	const struct cua_options *opt = &b->ctx->opt;
	const char *who;
	struct cua_raw_snapshot *snap;
	struct cua_raw_node *an;
	struct cua_display_toplevel_query *tops;
	struct fnode *fn;
	struct job job;
	int64_t t0 = cua_now_us();
	int r, complete = 1;
	size_t i, answered = 0;

	*out = NULL;
	if (!app)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "open_app: no app");
	who = app->app_name;
	if (!who || !*who)
		who = app->exe_base;
	if (!who || !*who)
		who = app->bus_name ? app->bus_name : "?";
	if (!app->bus_name)
		return cua_err(CUA_MSG_NOT_ACCESSIBLE, { "name", who });
	snap = cua_raw_snapshot_new();
	if (!snap)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	note_app(be, app);

	fetch_job_init(&job, be, snap, READ_OPEN, opt->call_timeout_ms,
		       t0 + (int64_t)opt->walk_deadline_ms * 1000);
	job.app_bus = app->bus_name;
	an = cua_raw_node_new(snap);
	if (!an) {
		fetch_job_finish(&job, t0);
		cua_raw_snapshot_free(snap);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	snap->app = an;
	an->ident = fetch_make_ident(&job, app->bus_name, ROOT_PATH);
	fn = fetch_new_fnode(&job, an, fetch_tmp_strdup(&job, app->bus_name),
			     ROOT_PATH, -1);
	fetch_start_basic(fn);
	r = dbatch_run(job.batch);
	if (job.gone) {
		fetch_job_finish(&job, t0);
		cua_raw_snapshot_free(snap);
		return gone_error(who);
	}

	/* the app object must have answered; its toplevels too, unless
	 * the deadline cut the read short */
	if (r < 0 || !(an->have & CUA_HAVE_BASIC)) {
		int timed_out = r < 0 || job.n_timeouts > 0;
		int64_t waited = cua_now_us() - t0;

		fetch_job_finish(&job, t0);
		cua_raw_snapshot_free(snap);
		/* not the app: the bus went away under the read */
		if (atspi_bus_gone(be))
			return cua_err(CUA_MSG_ACCESSIBILITY_BUS_GONE);
		if (timed_out)
			return timeout_error(who, waited);
		return cua_error_quoting(
			CUA_ERROR_STALE, "'", who,
			"' no longer answers on the accessibility bus (%s)",
			app->bus_name);
	}
	an->role = CUA_ROLE_APPLICATION;
	if (!an->name)
		an->name = fetch_sdup(&job, app->atspi_name);
	for (i = 0; i < an->n_children; i++) {
		struct cua_raw_node *t = an->children[i];

		if (!(t->have & CUA_HAVE_BASIC))
			complete = 0;
		else
			answered++;
		if ((t->have & CUA_HAVE_EXTENTS) &&
		    (!(t->ifaces & CUA_IFACE_COMPONENT) ||
		     fetch_is_hidden_geometry(t)))
			t->have &= ~(uint32_t)CUA_HAVE_EXTENTS;
	}
	/* no toplevel (or the list of them) answered in time: the app is
	 * too slow, not windowless, which is what the caller would
	 * conclude */
	if (answered == 0 && job.n_timeouts > 0) {
		int64_t waited = cua_now_us() - t0;

		fetch_job_finish(&job, t0);
		cua_raw_snapshot_free(snap);
		return timeout_error(who, waited);
	}
	if (!complete)
		cua_debug(b->ctx, "atspi: %s: some toplevels did not answer",
			  who);

	snap->windows = cua_arena_alloc(snap->arena,
					(an->n_children ? an->n_children : 1) *
						sizeof(*snap->windows));
	if (!snap->windows)
		job.oom = 1;
	if (be->display->ops->match_toplevels && snap->windows &&
	    an->n_children) {
		tops = g_new0(struct cua_display_toplevel_query,
			      an->n_children);
		for (i = 0; i < an->n_children; i++) {
			const struct cua_raw_node *t = an->children[i];

			tops[i].name = t->name;
			tops[i].role = t->role;
			tops[i].extents = t->extents;
			tops[i].has_extents = (t->have & CUA_HAVE_EXTENTS) != 0;
			tops[i].active = (t->have & CUA_HAVE_BASIC) &&
					 CUA_HAS_STATE(t, CUA_STATE_ACTIVE);
			tops[i].ident = t->ident;
			tops[i].toolkit = app->toolkit;
		}
		if (be->display->ops->match_wants_content)
			read_content(be, app->bus_name, an->children, tops,
				     an->n_children, opt->call_timeout_ms);
		be->display->ops->match_toplevels(be->display, app->pid, tops,
						  an->n_children, snap->windows,
						  snap->arena);
		for (i = 0; i < an->n_children; i++)
			an->children[i]->x11_window =
				snap->windows[i].x11_window;
		g_free(tops);
	}
	fetch_job_finish(&job, t0);
	if (job.oom) {
		cua_raw_snapshot_free(snap);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	cua_debug(b->ctx,
		  "atspi: opened %s: %zu toplevels, %" G_GUINT64_FORMAT
		  " calls, %" G_GUINT64_FORMAT " us",
		  who, an->n_children, snap->stats.calls,
		  snap->stats.elapsed_us);
	*out = snap;
	return CUA_OK;
}

/* A job of the walk's policy (the walk, a refresh). */
static void
policy_job_init(struct job *job, struct atspi_be *be,
		struct cua_raw_snapshot *snap, enum read_mode mode,
		const struct cua_fetch_policy *policy)
{
	fetch_job_init(job, be, snap, mode,
		       policy->call_timeout_ms > 0 ?
			       policy->call_timeout_ms :
			       be->base.ctx->opt.call_timeout_ms,
		       policy->deadline_us);
	job->pol = policy;
}

/*
 * The focused node (docs/state-text.md §11.7). The walk usually has it already
 * (its state came in with this walk); otherwise one Collection.GetMatches
 * per root (state FOCUSED, count 1). A later root wins: popups come after
 * the window and hold the focus while they are open.
 */
static void
fetch_focus(struct job *job, struct cua_raw_node **roots, size_t n_roots,
	    struct fnode **rfn)
{
	struct cua_raw_snapshot *snap = job->snap;
	struct cua_raw_node *focus = NULL;
	struct fnode *fn;
	size_t i;
	int asked = 0;

	for (i = n_roots; i-- > 0 && !focus;)
		focus = cua_raw_find_focused(roots[i]);
	if (!focus && !job->huge_seen) {
		for (i = 0; i < n_roots; i++) {
			if (!rfn[i] ||
			    !(roots[i]->ifaces & CUA_IFACE_COLLECTION))
				continue;
			fetch_call(
				rfn[i], K_MATCHES, (int)i, IF_COLLECTION,
				"GetMatches",
				g_variant_new(
					"((@aii@a{ss}i@aii@asib)uib)",
					g_variant_new_fixed_array(
						G_VARIANT_TYPE_INT32,
						(int32_t[]){
							1 << CUA_STATE_FOCUSED,
							0 },
						2, sizeof(int32_t)),
					MATCH_ALL,
					g_variant_new_array(
						G_VARIANT_TYPE("{ss}"), NULL,
						0),
					MATCH_ALL,
					g_variant_new_fixed_array(
						G_VARIANT_TYPE_INT32,
						(int32_t[]){ 0, 0, 0, 0 }, 4,
						sizeof(int32_t)),
					MATCH_ALL,
					g_variant_new_array(
						G_VARIANT_TYPE_STRING, NULL, 0),
					MATCH_ALL, FALSE, SORT_CANONICAL, 1,
					TRUE),
				"(a(so))");
			asked = 1;
		}
		if (asked && dbatch_run(job->batch) < 0)
			return;
		if (job->focus_ident) {
			snap->focused_ident = job->focus_ident;
			fn = g_hash_table_lookup(job->seen, job->focus_ident);
			if (fn && (fn->n->have & CUA_HAVE_BASIC))
				focus = fn->n;
		}
	}
	if (!focus)
		return;
	snap->focused = focus;
	snap->focused_ident = focus->ident;

	/* its text selection (the trailer's selected text,
	 * docs/state-text.md §8.2) */
	fn = g_hash_table_lookup(job->seen, focus->ident);
	if (!fn || fn->n != focus || !(focus->ifaces & CUA_IFACE_TEXT) ||
	    (focus->have & CUA_HAVE_TEXT_SELECTION))
		return;
	fn->want |= CUA_HAVE_TEXT_SELECTION;
	fn->n_sel = -1;
	fn->sel_ok = 0;
	fetch_call(fn, K_TSEL_N, 0, IF_TEXT, "GetNSelections", NULL, "(i)");
	fetch_call(fn, K_TSEL_GET, 0, IF_TEXT, "GetSelection",
		   g_variant_new("(i)", 0), "(ii)");
	if (dbatch_run(job->batch) == 0)
		fetch_finish_details(fn);
}

cua_result
atspi_fetch(struct cua_backend *b, struct cua_raw_snapshot *snap,
	    struct cua_raw_node **roots, size_t n_roots,
	    const struct cua_fetch_policy *policy)
{
	struct atspi_be *be = (struct atspi_be *)b;
	const char *who, *bus, *path;
	struct fnode **rfn;
	struct job job;
	int64_t t0 = cua_now_us();
	uint64_t calls;
	int r, answered;
	size_t i;

	if (!snap || !policy || (n_roots && !roots))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "fetch: missing snapshot, roots or policy");
	who = snap->app && snap->app->name ? snap->app->name : "?";

	policy_job_init(&job, be, snap, READ_WALK, policy);
	if (policy->max_raw_depth > 0)
		job.max_depth = policy->max_raw_depth;
	job.max_nodes = policy->max_nodes;
	job.range_threshold =
		policy->range_threshold > 0 ? policy->range_threshold : 200;
	job.range_list_threshold = policy->range_list_threshold > 0 ?
					   policy->range_list_threshold :
					   20;

	/* the app's own socket, when it has one (libatspi does the same):
	 * kept from an earlier read, or asked for, and then that first
	 * question also tells whether the app answers at all */
	if (n_roots && roots[0] &&
	    fetch_split_ident(&job, roots[0]->ident, &bus, &path)) {
		int64_t left = policy->deadline_us ? policy->deadline_us - t0 :
						     INT64_MAX;
		int ms = (int)MIN((int64_t)job.timeout_ms, left / 1000);
		int timed_out = 0;

		job.app_bus = bus;
		if (ms > 0)
			atspi_peer_get(be, bus, ms, &snap->stats.calls,
				       &timed_out);
		if (timed_out) {
			fetch_job_finish(&job, t0);
			snap->stats.deadline_hit = 1;
			return timeout_error(who, cua_now_us() - t0);
		}
	}
	rfn = g_new0(struct fnode *, n_roots ? n_roots : 1);
	for (i = 0; i < n_roots; i++) {
		if (!roots[i] ||
		    !fetch_split_ident(&job, roots[i]->ident, &bus, &path))
			continue;
		rfn[i] = fetch_new_fnode(&job, roots[i], bus, path, 0);
	}
	/* started after all roots are known, so that a root reached again
	 * from another one is treated as a duplicate */
	for (i = 0; i < n_roots; i++)
		if (rfn[i])
			fetch_start_details(rfn[i]);
	r = dbatch_run(job.batch);
	/* a hung app cut the walk short just like the deadline */
	if (r < 0 || job.hung)
		snap->stats.deadline_hit = 1;
	else
		fetch_focus(&job, roots, n_roots, rfn); /* the tree is whole
		                                         * even if this fails */
	if (job.node_cap_hit)
		snap->stats.node_cap_hit = 1;
	answered = job.n_ok > 0;
	calls = dbatch_calls(job.batch);
	fetch_job_finish(&job, t0);
	g_free(rfn);

	if (job.oom)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (job.gone) /* what was read is a torn part of the tree */
		return gone_error(who);
	if (!answered && calls > 0 && atspi_bus_gone(be))
		return cua_err(CUA_MSG_ACCESSIBILITY_BUS_GONE);
	if (!answered && calls > 0 && (r < 0 || job.hung || job.n_timeouts > 0))
		return timeout_error(who, cua_now_us() - t0);
	cua_debug(b->ctx,
		  "atspi: fetched %s: %" G_GUINT64_FORMAT
		  " nodes, %" G_GUINT64_FORMAT " calls (%" G_GUINT64_FORMAT
		  " failed), %" G_GUINT64_FORMAT " us%s%s",
		  who, snap->stats.nodes, snap->stats.calls,
		  snap->stats.call_errors, snap->stats.elapsed_us,
		  snap->stats.deadline_hit ? ", deadline hit" : "",
		  snap->stats.node_cap_hit ? ", node cap hit" : "");
	return CUA_OK;
}

/* The objects a refresh starts from, each its own root at its depth in
 * the walk's tree; `start`: their basic stage at once. */
static void
add_roots(struct job *job, struct cua_raw_node **nodes, const int *depths,
	  size_t n, int start)
{
	for (size_t i = 0; i < n; i++) {
		const char *bus, *path;
		struct fnode *fn;

		nodes[i]->have = 0;
		if (!fetch_split_ident(job, nodes[i]->ident, &bus, &path))
			continue;
		if (!job->app_bus)
			job->app_bus = bus;
		fn = fetch_new_fnode(job, nodes[i], bus, path, depths[i]);
		fn->named = 1;
		if (start)
			fetch_start_basic(fn);
	}
}

/* The outcome of a refresh whose batch ran (`r`: dbatch_run()'s). */
static cua_result
refresh_result(struct job *job, const char *who, int r)
{
	if (job->oom)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (job->gone)
		return gone_error(who);
	if (job->n_ok == 0 && atspi_bus_gone(job->be))
		return cua_err(CUA_MSG_ACCESSIBILITY_BUS_GONE);
	/* a slow method, a stopped app or the deadline: what was read again
	 * is incomplete, which the caller learns from the stats (the cache
	 * reads in full then, and the walk tells a hung app from one object
	 * that never answers) */
	if (r < 0 || job->hung || job->n_timeouts > 0)
		job->snap->stats.deadline_hit = 1;
	return CUA_OK;
}

/*
 * Objects a walk read, read again (the tree cache, backend.h): as
 * READ_REFRESH, each object alone; as READ_WALK, each the root of a
 * subtree read as the walk reads it, started with its basic fields and
 * its live index in its parent once all roots are known (as in the walk).
 */
static cua_result
refresh(struct cua_backend *b, struct cua_raw_snapshot *snap,
	struct cua_raw_node **nodes, const int *depths, size_t n,
	const struct cua_fetch_policy *policy, enum read_mode mode)
{
	struct atspi_be *be = (struct atspi_be *)b;
	const char *who = snap->app && snap->app->name ? snap->app->name : "?";
	struct job job;
	int64_t t0 = cua_now_us();
	int r;

	policy_job_init(&job, be, snap, mode, policy);
	if (mode == READ_WALK) {
		if (policy->max_raw_depth > 0)
			job.max_depth = policy->max_raw_depth;
		job.max_nodes = policy->max_nodes;
		job.range_threshold = policy->range_threshold > 0 ?
					      policy->range_threshold :
					      200;
		job.range_list_threshold =
			policy->range_list_threshold > 0 ?
				policy->range_list_threshold :
				20;
	}
	add_roots(&job, nodes, depths, n, mode != READ_WALK);
	for (size_t i = 0; mode == READ_WALK && i < n; i++) {
		struct fnode *fn =
			nodes[i]->ident ?
				g_hash_table_lookup(job.seen, nodes[i]->ident) :
				NULL;

		if (fn && fn->n == nodes[i])
			fetch_start_basic(fn);
	}
	r = dbatch_run(job.batch);
	if (job.node_cap_hit)
		snap->stats.node_cap_hit = 1;
	fetch_job_finish(&job, t0);
	return refresh_result(&job, who, r);
}

cua_result
atspi_refresh_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
		    struct cua_raw_node **nodes, const int *depths, size_t n,
		    const struct cua_fetch_policy *policy)
{
	return refresh(b, snap, nodes, depths, n, policy, READ_REFRESH);
}

cua_result
atspi_sweep_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
		  struct cua_raw_node **nodes, size_t n,
		  const struct cua_fetch_policy *policy)
{
	struct cua_fetch_policy pol = { .deadline_us = policy->deadline_us,
					.grid_rows = policy->grid_rows };
	int *depths = g_new0(int, n ? n : 1);
	cua_result r;

	r = refresh(b, snap, nodes, depths, n, &pol, READ_SWEEP);
	g_free(depths);
	return r;
}

cua_result
atspi_refresh_subtrees(struct cua_backend *b, struct cua_raw_snapshot *snap,
		       struct cua_raw_node **nodes, const int *depths, size_t n,
		       const struct cua_fetch_policy *policy)
{
	return refresh(b, snap, nodes, depths, n, policy, READ_WALK);
}
