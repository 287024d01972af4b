/*
 * Running apps (docs/tools.md §5.1): the applications on the AT-SPI bus and
 * the processes the display driver shows windows of, each with its
 * canonical id and name (appid.c); and process liveness.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv */
#endif
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <gio/gio.h>

#include "atspi.h"
#include "linux.h"

#define REGISTRY_BUS "org.a11y.atspi.Registry"
#define ROOT_PATH "/org/a11y/atspi/accessible/root"
#define IFACE_ACCESSIBLE "org.a11y.atspi.Accessible"
#define IFACE_APPLICATION "org.a11y.atspi.Application"

/* ------------------------------------------------------------------ */
/* Listing                                                             */

/* One application object on the AT-SPI bus. */
struct probe {
	char *bus;
	char *path;
	int64_t pid;
	char *name;
	char *toolkit;
	char *version;
	int32_t child_count;
	int have_pid;
	int have_count;
};

/* One process in the result. */
struct proc {
	int64_t pid;
	struct probe *probe; /* NULL: not on the AT-SPI bus */
	/* the window whose app id (WM_CLASS) speaks for it, or NULL */
	const struct cua_display_window *rep;
	const char *gtk_app_id;
	int rep_known; /* rep's app id names a desktop entry */
	int n_windows; /* toplevels the display driver lists */
	int frontmost;
};

/* Whether window c should speak for process p rather than p->rep (which
 * may be NULL). A window whose app id names an installed desktop entry
 * wins over one whose app id names none, so that a dialog with a generic
 * class (a suite's own "soffice" beside "libreoffice-calc") does not
 * change the app's id while it has the focus; then the active window,
 * then a mapped one over an unmapped one. Records c's knownness when it
 * wins. */
static int
better_rep(struct proc *p, const struct cua_display_window *c, int is_active,
	   int known)
{
	int better;

	if (!p->rep)
		better = 1;
	else if (known != p->rep_known)
		better = known;
	else
		better = is_active || (!p->frontmost && !p->rep->win.mapped &&
				       c->win.mapped);
	if (better)
		p->rep_known = known;
	return better;
}

static void
probe_pid_cb(struct dbatch *batch, GVariant *reply, const GError *error,
	     void *data)
{
	struct probe *p = data;
	guint32 pid;

	(void)batch;
	(void)error;
	if (!reply || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(u)")))
		return;
	g_variant_get(reply, "(u)", &pid);
	p->pid = pid;
	p->have_pid = pid > 0;
}

/* The unwrapped value of a Properties.Get reply, or NULL (unref). */
static GVariant *
prop_value(GVariant *reply)
{
	GVariant *v = NULL;

	if (!reply || !g_variant_is_of_type(reply, G_VARIANT_TYPE("(v)")))
		return NULL;
	g_variant_get(reply, "(v)", &v);
	return v;
}

static char *
prop_string(GVariant *reply)
{
	GVariant *v = prop_value(reply);
	char *s = NULL;

	if (!v)
		return NULL;
	if (g_variant_is_of_type(v, G_VARIANT_TYPE_STRING))
		s = g_variant_dup_string(v, NULL);
	g_variant_unref(v);
	return s;
}

static void
probe_name_cb(struct dbatch *batch, GVariant *reply, const GError *error,
	      void *data)
{
	struct probe *p = data;

	(void)batch;
	(void)error;
	g_free(p->name);
	p->name = prop_string(reply);
}

static void
probe_toolkit_cb(struct dbatch *batch, GVariant *reply, const GError *error,
		 void *data)
{
	struct probe *p = data;

	(void)batch;
	(void)error;
	g_free(p->toolkit);
	p->toolkit = prop_string(reply);
}

static void
probe_version_cb(struct dbatch *batch, GVariant *reply, const GError *error,
		 void *data)
{
	struct probe *p = data;

	(void)batch;
	(void)error;
	g_free(p->version);
	p->version = prop_string(reply);
}

static void
probe_count_cb(struct dbatch *batch, GVariant *reply, const GError *error,
	       void *data)
{
	struct probe *p = data;
	GVariant *v = prop_value(reply);

	(void)batch;
	(void)error;
	if (!v)
		return;
	if (g_variant_is_of_type(v, G_VARIANT_TYPE_INT32)) {
		p->child_count = g_variant_get_int32(v);
		p->have_count = 1;
	}
	g_variant_unref(v);
}

static void
probes_free(struct probe *probes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		g_free(probes[i].bus);
		g_free(probes[i].path);
		g_free(probes[i].name);
		g_free(probes[i].toolkit);
		g_free(probes[i].version);
	}
	g_free(probes);
}

/* Why read_registry() read nothing: the bus itself failed. */
enum bus_failure {
	BUS_OK,
	BUS_GONE, /* no connection, or it closed during the call */
	BUS_HUNG, /* no answer within the call timeout */
};

static int
call_timeout_ms(const struct atspi_be *be)
{
	int ms = be->base.ctx->opt.call_timeout_ms;

	return ms > 0 ? ms : 1000;
}

/* The per-call timeout in seconds, for messages. */
static double
timeout_s(const struct atspi_be *be)
{
	return call_timeout_ms(be) / 1000.0;
}

/* The applications registered on the AT-SPI bus, with pid, name, toolkit
 * and toplevel count, read in one pipelined batch; *down says when the
 * bus itself failed. */
static struct probe *
read_registry(struct atspi_be *be, size_t *n_out, enum bus_failure *down)
{
	const struct cua_options *opt = &be->base.ctx->opt;
	struct probe *probes;
	struct dbatch *batch;
	GVariant *reply, *arr;
	GVariantIter it;
	GError *err = NULL;
	const char *bus, *path;
	size_t n, i = 0;
	int timeout = opt->call_timeout_ms > 0 ? opt->call_timeout_ms : 1000;

	*n_out = 0;
	*down = BUS_OK;
	if (!be->a11y) {
		*down = BUS_GONE;
		return NULL;
	}
	reply = atspi_call_sync(be, REGISTRY_BUS, ROOT_PATH, IFACE_ACCESSIBLE,
				"GetChildren", NULL, G_VARIANT_TYPE("(a(so))"),
				timeout, &err);
	if (!reply) {
		cua_debug(be->base.ctx, "registry GetChildren failed: %s",
			  err ? err->message : "?");
		/* the bus (or the registry daemon on it) is gone or hung:
		 * nothing accessible can be read; other errors leave the
		 * X11-only listing */
		if (atspi_bus_gone(be) ||
		    g_error_matches(err, G_IO_ERROR, G_IO_ERROR_CLOSED) ||
		    g_error_matches(err, G_DBUS_ERROR,
				    G_DBUS_ERROR_DISCONNECTED))
			*down = BUS_GONE;
		else if (g_error_matches(err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
			*down = BUS_HUNG;
		g_clear_error(&err);
		return NULL;
	}
	arr = g_variant_get_child_value(reply, 0);
	n = g_variant_n_children(arr);
	probes = g_new0(struct probe, n ? n : 1);
	g_variant_iter_init(&it, arr);
	while (i < n && g_variant_iter_next(&it, "(&s&o)", &bus, &path)) {
		if (!bus[0])
			continue;
		probes[i].bus = g_strdup(bus);
		probes[i].path = g_strdup(path);
		i++;
	}
	n = i;
	g_variant_unref(arr);
	g_variant_unref(reply);

	batch = dbatch_new(be, timeout, 64,
			   cua_now_us() + 2 * (int64_t)timeout * 1000 + 500000);
	if (!batch) {
		probes_free(probes, n);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		struct probe *p = &probes[i];

		dbatch_call(batch, "org.freedesktop.DBus",
			    "/org/freedesktop/DBus", "org.freedesktop.DBus",
			    "GetConnectionUnixProcessID",
			    g_variant_new("(s)", p->bus), G_VARIANT_TYPE("(u)"),
			    probe_pid_cb, p);
		dbatch_get_property(batch, p->bus, p->path, IFACE_ACCESSIBLE,
				    "Name", probe_name_cb, p);
		dbatch_get_property(batch, p->bus, p->path, IFACE_ACCESSIBLE,
				    "ChildCount", probe_count_cb, p);
		dbatch_get_property(batch, p->bus, p->path, IFACE_APPLICATION,
				    "ToolkitName", probe_toolkit_cb, p);
		dbatch_get_property(batch, p->bus, p->path, IFACE_APPLICATION,
				    "Version", probe_version_cb, p);
	}
	if (dbatch_run(batch) < 0)
		cua_debug(be->base.ctx, "app list: deadline hit on the bus");
	dbatch_free(batch);
	*n_out = n;
	return probes;
}

/* AT-SPI infrastructure that may show up as a process of its own. */
static int
is_infrastructure(const char *exe_base, const char *comm)
{
	static const char *const names[] = {
		"at-spi-bus-launcher", "at-spi2-registryd",  "dbus-daemon",
		"dbus-broker",         "dbus-broker-launch", NULL,
	};
	size_t i;

	for (i = 0; names[i]; i++) {
		if ((exe_base && strcmp(exe_base, names[i]) == 0) ||
		    (comm && strcmp(comm, names[i]) == 0))
			return 1;
	}
	return 0;
}

/* PATH search + realpath of Exec programs, memoised (rule 5). */
struct resolver {
	GHashTable *memo; /* program -> real path or "" */
	const char *path_env;
};

static const char *
resolve_program(void *data, const char *prog)
{
	struct resolver *r = data;
	char *hit, buf[PATH_MAX], real[PATH_MAX];
	const char *p;

	hit = g_hash_table_lookup(r->memo, prog);
	if (hit)
		return hit[0] ? hit : NULL;
	real[0] = '\0';
	if (strchr(prog, '/')) {
		if (!realpath(prog, real))
			real[0] = '\0';
	} else {
		for (p = r->path_env; p && *p;) {
			const char *colon = strchr(p, ':');
			size_t len = colon ? (size_t)(colon - p) : strlen(p);

			if (len > 0 &&
			    (size_t)snprintf(buf, sizeof(buf), "%.*s/%s",
					     (int)len, p, prog) < sizeof(buf) &&
			    access(buf, X_OK) == 0 && realpath(buf, real))
				break;
			real[0] = '\0';
			p = colon ? colon + 1 : NULL;
		}
	}
	hit = g_strdup(real);
	g_hash_table_insert(r->memo, g_strdup(prog), hit);
	return hit[0] ? hit : NULL;
}

static struct proc *
proc_get(GArray *procs, int64_t pid, int create)
{
	struct proc np = { 0 };
	guint i;

	for (i = 0; i < procs->len; i++) {
		struct proc *p = &g_array_index(procs, struct proc, i);

		if (p->pid == pid)
			return p;
	}
	if (!create)
		return NULL;
	np.pid = pid;
	g_array_append_val(procs, np);
	return &g_array_index(procs, struct proc, procs->len - 1);
}

/*
 * Rule 2 where windows carry no _GTK_APPLICATION_ID (Wayland): a
 * GApplication owns its application id as a name on the session bus, and
 * a D-Bus-activatable app's desktop id is that name. Each name on the
 * session bus that is the id of an installed desktop entry gives its
 * owner's process that id, unless one of its windows gave one already,
 * so that an app gets the same id on every display.
 */
static void
session_bus_app_ids(struct atspi_be *be, GArray *procs,
		    const struct desktop_entry *entries, size_t n_entries,
		    struct cua_arena *tmp)
{
	GVariant *reply, *owner;
	GVariantIter *it;
	GError *err = NULL;
	const char *name;
	guint32 pid;
	struct proc *p;
	int wanted = 0;

	for (guint i = 0; i < procs->len; i++)
		if (!g_array_index(procs, struct proc, i).gtk_app_id)
			wanted = 1;
	if (!wanted || !be->session || g_dbus_connection_is_closed(be->session))
		return;
	reply = g_dbus_connection_call_sync(
		be->session, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		"org.freedesktop.DBus", "ListNames", NULL,
		G_VARIANT_TYPE("(as)"), G_DBUS_CALL_FLAGS_NONE,
		call_timeout_ms(be), NULL, &err);
	if (!reply) {
		cua_debug(be->base.ctx, "app list: session bus ListNames: %s",
			  err->message);
		g_error_free(err);
		return;
	}
	g_variant_get(reply, "(as)", &it);
	while (g_variant_iter_next(it, "&s", &name)) {
		if (name[0] == ':' ||
		    !desktop_entries_find(entries, n_entries, name))
			continue;
		owner = g_dbus_connection_call_sync(
			be->session, "org.freedesktop.DBus",
			"/org/freedesktop/DBus", "org.freedesktop.DBus",
			"GetConnectionUnixProcessID",
			g_variant_new("(s)", name), G_VARIANT_TYPE("(u)"),
			G_DBUS_CALL_FLAGS_NONE, call_timeout_ms(be), NULL,
			NULL);
		if (!owner)
			continue;
		g_variant_get(owner, "(u)", &pid);
		g_variant_unref(owner);
		p = pid > 0 ? proc_get(procs, pid, 0) : NULL;
		if (p && !p->gtk_app_id)
			p->gtk_app_id = cua_arena_strdup(tmp, name);
	}
	g_variant_iter_free(it);
	g_variant_unref(reply);
}

static int
fill_app(struct atspi_be *be, struct cua_arena *arena, const struct proc *p,
	 const struct desktop_entry *entries, size_t n_entries,
	 struct resolver *res, struct cua_arena *tmp, struct cua_app_info *a)
{
	struct procinfo pi;
	struct appid_input in = { 0 };
	struct appid_choice ch;
	struct desktop_entry launched;
	const struct desktop_entry *e;
	int r;

	r = procinfo_read(p->pid, &pi);
	if (r == -ESRCH || r == -ENOENT || r == -EINVAL) {
		cua_debug(be->base.ctx, "app list: pid %" PRId64 " is gone",
			  p->pid);
		procinfo_clear(&pi);
		return 0;
	}
	/* other errors (permissions): keep what is known */
	if (is_infrastructure(pi.exe ? atspi_base_name(pi.exe) : NULL,
			      pi.comm)) {
		procinfo_clear(&pi);
		return 0;
	}

	in.pid = p->pid;
	in.launched_desktop_file = pi.launched_desktop_file;
	in.gtk_app_id = p->gtk_app_id;
	in.flatpak_id = pi.flatpak_id;
	in.snap_name = pi.snap_name;
	in.wm_class_class = p->rep ? p->rep->app_id : NULL;
	in.wm_class_instance = p->rep ? p->rep->app_instance : NULL;
	in.exe = pi.exe;
	in.atspi_name = p->probe ? p->probe->name : NULL;
	in.comm = pi.comm;
	appid_choose(&in, entries, n_entries, resolve_program, res, &ch);
	e = ch.entry;
	/* a launched desktop file outside the XDG directories */
	if (!e && ch.rule == APPID_RULE_LAUNCHED &&
	    desktop_entry_load_file(pi.launched_desktop_file, ch.app_id, tmp,
				    &launched) == 1) {
		e = &launched;
		ch.app_name = launched.app.name;
	}

	a->pid = p->pid;
	a->start_time = pi.start_time;
	a->exe = cua_arena_strdup(arena, pi.exe);
	a->exe_base = pi.exe ?
			      cua_arena_strdup(arena, atspi_base_name(pi.exe)) :
			      NULL;
	a->bus_name = p->probe ? cua_arena_strdup(arena, p->probe->bus) : NULL;
	a->atspi_name =
		p->probe ? cua_arena_strdup(arena, p->probe->name) : NULL;
	if (e) {
		a->desktop_id = cua_arena_strdup(arena, e->app.desktop_id);
		a->desktop_file = cua_arena_strdup(arena, e->app.path);
		a->desktop_name = cua_arena_strdup(arena, e->app.name);
		a->desktop_name_c = cua_arena_strdup(arena, e->app.name_c);
	}
	if (p->rep) {
		a->wm_class_class = cua_arena_strdup(arena, p->rep->app_id);
		a->wm_class_instance =
			cua_arena_strdup(arena, p->rep->app_instance);
	}
	a->app_id = cua_arena_strdup(arena, ch.app_id);
	a->app_name = cua_arena_strdup(arena, ch.app_name);
	if (p->probe) {
		a->toolkit = cua_arena_strdup(arena, p->probe->toolkit);
		a->toolkit_version = cua_arena_strdup(arena, p->probe->version);
	}
	a->n_windows = p->n_windows > 0 ? p->n_windows :
		       p->probe && p->probe->have_count ?
					  p->probe->child_count :
					  0;
	a->frontmost = p->frontmost;
	a->accessible = p->probe != NULL;
	cua_debug(be->base.ctx,
		  "app pid %" PRId64 ": id %s (rule %d) name \"%s\" exe %s",
		  p->pid, a->app_id, (int)ch.rule, a->app_name,
		  a->exe ? a->exe : "?");
	procinfo_clear(&pi);
	if (!a->app_id || !a->app_name)
		return -1;
	return 1;
}

cua_result
atspi_list_apps(struct cua_backend *b, struct cua_app_list **out)
{
	struct atspi_be *be = (struct atspi_be *)b;
	struct cua_app_list *list = NULL;
	struct cua_arena *tmp = NULL;
	struct probe *probes = NULL;
	struct cua_display_window_list *wins = NULL;
	struct cua_display *d = be->display;
	struct cua_display_shell shell = { 0 };
	struct desktop_entry *entries = NULL;
	struct resolver res = { 0 };
	GArray *procs = NULL;
	size_t n_probes = 0, n_clients = 0, n_entries = 0, i, k;
	int64_t self = getpid(), wm_pid = 0, t0 = cua_now_us();
	const char *wm_name = NULL;
	cua_result rc = CUA_OK;
	enum bus_failure down;
	int entries_reused = 0;

	*out = NULL;
	/* a bus or window system that went away and came back (backend.c) */
	atspi_reconnect(be);
	list = calloc(1, sizeof(*list));
	tmp = cua_arena_new();
	if (!list || !tmp || !(list->arena = cua_arena_new())) {
		rc = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto done;
	}
	if (!be->a11y) {
		struct cua_display_caps caps;

		cua_display_capabilities(d, NULL, &caps);
		if (!caps.cap[CUA_DISPLAY_CAP_WINDOWS].ok) {
			rc = cua_error(CUA_ERROR_BACKEND,
				       "neither the accessibility bus nor the "
				       "X display is reachable");
			goto done;
		}
	}

	probes = read_registry(be, &n_probes, &down);
	if (down == BUS_GONE) {
		rc = cua_err(CUA_MSG_ACCESSIBILITY_BUS_GONE);
		goto done;
	}
	if (down == BUS_HUNG) {
		rc = cua_err(CUA_MSG_TIMEOUT_BUS,
			     { "s", CUA_NUM("%g", timeout_s(be)) });
		goto done;
	}
	if (d->ops->list_windows && d->ops->list_windows(d, &wins) == CUA_OK)
		n_clients = wins->n;
	else
		cua_error_clear();
	if (d->ops->shell) {
		d->ops->shell(d, &shell);
		wm_pid = shell.pid;
		if (!wm_pid && shell.name[0])
			wm_name = shell.name;
	}
	if (!be->desktop_cache)
		be->desktop_cache = desktop_cache_new();
	if (desktop_entries_cached(be->desktop_cache, &entries, &n_entries,
				   &entries_reused) < 0) {
		rc = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto done;
	}

	procs = g_array_new(FALSE, TRUE, sizeof(struct proc));
	for (i = 0; i < n_probes; i++) {
		struct probe *pr = &probes[i];
		struct proc *p;

		if (!pr->have_pid || pr->pid == self || pr->pid == wm_pid)
			continue;
		/* docs/tools.md §5.1 when the WM's pid is unknown: its name */
		if (wm_name && pr->name && strcasecmp(pr->name, wm_name) == 0)
			continue;
		p = proc_get(procs, pr->pid, 1);
		/* one process, several application objects: keep the one
		 * with the most toplevels */
		if (!p->probe || (pr->have_count &&
				  (!p->probe->have_count ||
				   pr->child_count > p->probe->child_count)))
			p->probe = pr;
	}
	for (k = 0; k < n_clients; k++) {
		const struct cua_display_window *c = &wins->w[k];
		struct proc *p;
		int is_active = c->focused;

		if (c->win.pid <= 0 || c->win.pid == self ||
		    c->win.pid == wm_pid)
			continue;
		p = proc_get(procs, c->win.pid, 1);
		p->n_windows++;
		if (is_active)
			p->frontmost = 1;
		if (better_rep(p, c, is_active,
			       appid_match_wm_class(entries, n_entries,
						    c->app_id,
						    c->app_instance) != NULL))
			p->rep = c;
		if (!p->gtk_app_id || (is_active && c->gtk_app_id))
			p->gtk_app_id = c->gtk_app_id;
	}

	session_bus_app_ids(be, procs, entries, n_entries, tmp);

	res.memo =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	res.path_env = secure_getenv("PATH");
	if (!res.path_env)
		res.path_env = "/usr/local/bin:/usr/bin:/bin";
	list->apps =
		cua_arena_alloc(list->arena, (procs->len ? procs->len : 1) *
						     sizeof(*list->apps));
	if (!list->apps) {
		rc = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < procs->len; i++) {
		const struct proc *p = &g_array_index(procs, struct proc, i);
		int r;

		/* no toplevel at all: not an app to show */
		if (p->n_windows == 0 && (!p->probe || !p->probe->have_count ||
					  p->probe->child_count <= 0))
			continue;
		r = fill_app(be, list->arena, p, entries, n_entries, &res, tmp,
			     &list->apps[list->n]);
		if (r < 0) {
			rc = cua_error(CUA_ERROR_NOMEM, "out of memory");
			goto done;
		}
		if (r > 0)
			list->n++;
	}
	cua_debug(be->base.ctx,
		  "app list: %zu apps (%zu on the bus, %zu windows, "
		  "%zu desktop entries%s) in %lld us",
		  list->n, n_probes, n_clients, n_entries,
		  entries_reused ? ", unchanged" : "",
		  (long long)(cua_now_us() - t0));

done:
	if (res.memo)
		g_hash_table_destroy(res.memo);
	if (procs)
		g_array_free(procs, TRUE);
	probes_free(probes, n_probes);
	cua_display_window_list_free(wins);
	cua_arena_free(tmp);
	if (rc != CUA_OK) {
		cua_app_list_free(list);
		return rc;
	}
	*out = list;
	return CUA_OK;
}

int
atspi_process_alive(struct cua_backend *b, int64_t pid, uint64_t start_time)
{
	uint64_t st = 0;
	char state = 0;

	(void)b;
	if (pid <= 0)
		return 0;
	if (procinfo_read_stat(pid, &state, NULL, &st) < 0)
		return 0;
	return st == start_time && state != 'Z' && state != 'X';
}
