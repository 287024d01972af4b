/*
 * Running apps (tools.md §5.1), their canonical ids and names
 * (state-text.md §11.8), launching desktop entries (actions.md §12) and
 * process liveness.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* close_range, secure_getenv */
#endif
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>

#include "atspi.h"
#include "core/fileio.h"
#include "linux.h"

#define REGISTRY_BUS "org.a11y.atspi.Registry"
#define ROOT_PATH "/org/a11y/atspi/accessible/root"
#define IFACE_ACCESSIBLE "org.a11y.atspi.Accessible"
#define IFACE_APPLICATION "org.a11y.atspi.Application"

extern char **environ;

/* ------------------------------------------------------------------ */
/* App id choice (pure)                                                */

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int
nonempty(const char *s)
{
	return s && s[0];
}

/* Programs that run other programs: their path says nothing about the
 * app (python3 runs every Python app; Flatpak exports run `flatpak`). */
static int
is_interpreter(const char *prog)
{
	static const char *const exact[] = {
		"sh",      "bash", "dash", "zsh",      "ksh",      "env", "gjs",
		"flatpak", "snap", "mono", "xdg-open", "exo-open", "gio", NULL,
	};
	static const char *const prefix[] = {
		"python",   "perl", "ruby",  "node", "java", "wine",
		"electron", "lua",  "tclsh", "wish", NULL,
	};
	const char *b = base_name(prog);
	size_t i;

	for (i = 0; exact[i]; i++) {
		if (strcmp(b, exact[i]) == 0)
			return 1;
	}
	for (i = 0; prefix[i]; i++) {
		if (strncmp(b, prefix[i], strlen(prefix[i])) == 0)
			return 1;
	}
	return 0;
}

static int
program_matches(const char *prog, const char *exe, appid_resolve_fn resolve,
                void *resolve_data)
{
	const char *real;

	if (!prog || !prog[0] || is_interpreter(prog))
		return 0;
	if (strcmp(prog, exe) == 0 ||
	    strcmp(base_name(prog), base_name(exe)) == 0)
		return 1;
	if (resolve) {
		real = resolve(resolve_data, prog);
		if (real && strcmp(real, exe) == 0)
			return 1;
	}
	return 0;
}

/* Of several entries matching one rule: the one whose id is the
 * executable's name, else a visible one, else the first. */
static int
better_entry(const struct desktop_entry *cand, const struct desktop_entry *best,
             const char *exe_base)
{
	int ci, bi;

	if (!best)
		return 1;
	ci = exe_base && strcasecmp(cand->app.desktop_id, exe_base) == 0;
	bi = exe_base && strcasecmp(best->app.desktop_id, exe_base) == 0;
	if (ci != bi)
		return ci;
	return !cand->app.no_display && best->app.no_display;
}

static const struct desktop_entry *
match_wm_class(const struct desktop_entry *entries, size_t n, const char *klass,
               const char *instance)
{
	const char *vals[2] = { klass, instance };
	size_t v, i;

	/* StartupWMClass first, then ids; class before instance */
	for (v = 0; v < 2; v++) {
		if (!nonempty(vals[v]))
			continue;
		for (i = 0; i < n; i++) {
			if (entries[i].app.startup_wm_class &&
			    strcasecmp(entries[i].app.startup_wm_class,
			               vals[v]) == 0)
				return &entries[i];
		}
	}
	for (v = 0; v < 2; v++) {
		if (!nonempty(vals[v]))
			continue;
		for (i = 0; i < n; i++) {
			if (strcasecmp(entries[i].app.desktop_id, vals[v]) == 0)
				return &entries[i];
		}
	}
	return NULL;
}

static const struct desktop_entry *
match_exec(const struct desktop_entry *entries, size_t n, const char *exe,
           appid_resolve_fn resolve, void *resolve_data)
{
	const struct desktop_entry *best = NULL;
	const char *exe_base;
	size_t i;

	if (!nonempty(exe) || is_interpreter(exe))
		return NULL;
	exe_base = base_name(exe);
	for (i = 0; i < n; i++) {
		const struct desktop_entry *e = &entries[i];
		char *prog;
		int m;

		/* Terminal=true programs draw in a terminal's window */
		if (e->terminal)
			continue;
		m = program_matches(e->app.try_exec, exe, resolve,
		                    resolve_data);
		if (!m && e->app.exec) {
			prog = desktop_exec_program(e->app.exec);
			m = program_matches(prog, exe, resolve, resolve_data);
			free(prog);
		}
		if (m && better_entry(e, best, exe_base))
			best = e;
	}
	return best;
}

/* The id a desktop-file path stands for when no loaded entry has it. */
static const char *
id_from_path(const char *path, char *buf, size_t size)
{
	const char *b = base_name(path);
	size_t len = strlen(b);

	if (len > 8 && strcmp(b + len - 8, ".desktop") == 0)
		len -= 8;
	if (len == 0 || len >= size)
		return NULL;
	memcpy(buf, b, len);
	buf[len] = '\0';
	return buf;
}

static const char appid_unknown[] = "unknown";

void
appid_choose(const struct appid_input *in, const struct desktop_entry *entries,
             size_t n, appid_resolve_fn resolve, void *resolve_data,
             struct appid_choice *out)
{
	const struct desktop_entry *e = NULL;
	const char *exe_base = nonempty(in->exe) ? base_name(in->exe) : NULL;
	size_t i;

	memset(out, 0, sizeof(*out));

	/* 1. GIO_LAUNCHED_DESKTOP_FILE */
	if (nonempty(in->launched_desktop_file)) {
		for (i = 0; i < n && !e; i++) {
			if (entries[i].app.path &&
			    strcmp(entries[i].app.path,
			           in->launched_desktop_file) == 0)
				e = &entries[i];
		}
		if (!e) {
			const char *id =
			        id_from_path(in->launched_desktop_file,
			                     out->id_buf, sizeof(out->id_buf));

			e = desktop_entries_find(entries, n, id);
			if (!e && id) {
				out->rule = APPID_RULE_LAUNCHED;
				out->app_id = id;
				goto name;
			}
		}
		if (e) {
			out->rule = APPID_RULE_LAUNCHED;
			goto found;
		}
	}
	/* 2. _GTK_APPLICATION_ID, when it names an installed entry */
	if (nonempty(in->gtk_app_id)) {
		e = desktop_entries_find(entries, n, in->gtk_app_id);
		if (e) {
			out->rule = APPID_RULE_GTK_APP_ID;
			goto found;
		}
	}
	/* 3. Flatpak id (always a desktop id), Snap name */
	if (nonempty(in->flatpak_id)) {
		out->rule = APPID_RULE_SANDBOX;
		e = desktop_entries_find(entries, n, in->flatpak_id);
		if (e)
			goto found;
		out->app_id = in->flatpak_id;
		goto name;
	}
	if (nonempty(in->snap_name)) {
		size_t sl = strlen(in->snap_name);

		out->rule = APPID_RULE_SANDBOX;
		e = desktop_entries_find(entries, n, in->snap_name);
		/* snapd exports <snap>_<app>.desktop */
		for (i = 0; i < n && !e; i++) {
			const char *id = entries[i].app.desktop_id;

			if (strncmp(id, in->snap_name, sl) == 0 &&
			    id[sl] == '_')
				e = &entries[i];
		}
		if (e)
			goto found;
		out->app_id = in->snap_name;
		goto name;
	}
	/* 4. WM_CLASS */
	e = match_wm_class(entries, n, in->wm_class_class,
	                   in->wm_class_instance);
	if (e) {
		out->rule = APPID_RULE_WM_CLASS;
		goto found;
	}
	/* 5. the executable */
	e = match_exec(entries, n, in->exe, resolve, resolve_data);
	if (e) {
		out->rule = APPID_RULE_EXEC;
		goto found;
	}
	out->rule = APPID_RULE_NONE;
	if (nonempty(in->atspi_name))
		out->app_id = in->atspi_name;
	else if (exe_base && exe_base[0])
		out->app_id = exe_base;
	else if (nonempty(in->comm))
		out->app_id = in->comm;
	else
		out->app_id = appid_unknown;
	goto name;

found:
	out->entry = e;
	out->app_id = e->app.desktop_id;
name:
	if (out->entry && nonempty(out->entry->app.name))
		out->app_name = out->entry->app.name;
	else if (nonempty(in->atspi_name))
		out->app_name = in->atspi_name;
	else if (exe_base && exe_base[0])
		out->app_name = exe_base;
	else if (nonempty(in->comm))
		out->app_name = in->comm;
	else
		out->app_name = appid_unknown;
}

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
	struct probe *probe;          /* NULL: not on the AT-SPI bus */
	/* the window whose app id (WM_CLASS) speaks for it, or NULL */
	const struct cua_display_window *rep;
	const char *gtk_app_id;
	int n_windows;                /* toplevels the display driver lists */
	int frontmost;
};

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

/* The per-call timeout in seconds, for messages. */
static double
timeout_s(const struct atspi_be *be)
{
	int ms = be->base.ctx->opt.call_timeout_ms;

	return (ms > 0 ? ms : 1000) / 1000.0;
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
	if (is_infrastructure(pi.exe ? base_name(pi.exe) : NULL, pi.comm)) {
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
	a->exe_base =
	        pi.exe ? cua_arena_strdup(arena, base_name(pi.exe)) : NULL;
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
	a->n_windows = p->n_windows > 0 ? p->n_windows
	               : p->probe && p->probe->have_count
	                       ? p->probe->child_count
	                       : 0;
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
	if (desktop_entries_load(tmp, &entries, &n_entries) < 0) {
		rc = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto done;
	}

	procs = g_array_new(FALSE, TRUE, sizeof(struct proc));
	for (i = 0; i < n_probes; i++) {
		struct probe *pr = &probes[i];
		struct proc *p;

		if (!pr->have_pid || pr->pid == self || pr->pid == wm_pid)
			continue;
		/* decisions.md §13 when the WM's pid is unknown: its name */
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
		if (!p->rep || is_active ||
		    (!p->frontmost && !p->rep->win.mapped && c->win.mapped))
			p->rep = c;
		if (!p->gtk_app_id || (is_active && c->gtk_app_id))
			p->gtk_app_id = c->gtk_app_id;
	}

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
	          "%zu desktop entries) in %lld us",
	          list->n, n_probes, n_clients, n_entries,
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

/* ------------------------------------------------------------------ */
/* Launching                                                           */

static int
env_name_is(const char *entry, const char *name)
{
	size_t len = strlen(name);

	return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

static const char *
env_lookup(char **env, const char *name)
{
	size_t len = strlen(name);

	for (; env && *env; env++) {
		if (env_name_is(*env, name))
			return *env + len + 1;
	}
	return NULL;
}

static const char *
env_array_lookup(GPtrArray *env, const char *name)
{
	size_t len = strlen(name);
	guint i;

	for (i = 0; i < env->len; i++) {
		const char *e = g_ptr_array_index(env, i);

		if (e && env_name_is(e, name))
			return e + len + 1;
	}
	return NULL;
}

static int
is_libreoffice(const struct cua_installed_app *app, const char *prog)
{
	const char *b = base_name(prog);

	return strncmp(b, "libreoffice", 11) == 0 ||
	       strncmp(b, "soffice", 7) == 0 || strcmp(b, "localc") == 0 ||
	       strcmp(b, "lowriter") == 0 || strcmp(b, "loimpress") == 0 ||
	       (app->desktop_id &&
	        strncmp(app->desktop_id, "libreoffice", 11) == 0);
}

static int
is_chromium(const char *prog)
{
	const char *b = base_name(prog);

	return strncmp(b, "chromium", 8) == 0 ||
	       strncmp(b, "google-chrome", 13) == 0 || strcmp(b, "chrome") == 0;
}

/* The program's path, searched in `path_env` (malloc'd), or NULL. */
static char *
find_program(const char *prog, const char *path_env)
{
	char buf[PATH_MAX];
	const char *p;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? strdup(prog) : NULL;
	if (!path_env)
		path_env = "/usr/local/bin:/usr/bin:/bin";
	for (p = path_env; p && *p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		struct stat st;

		if (len > 0 &&
		    (size_t)snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, p,
		                     prog) < sizeof(buf) &&
		    stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(buf, X_OK) == 0)
			return strdup(buf);
		p = colon ? colon + 1 : NULL;
	}
	return NULL;
}

static ssize_t
read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* async-signal-safe: writes the decimal of v at s (NUL-terminated). */
static void
put_decimal(char *s, long v)
{
	char tmp[24];
	int n = 0;

	if (v <= 0) {
		s[0] = '0';
		s[1] = '\0';
		return;
	}
	while (v > 0 && n < (int)sizeof(tmp)) {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	}
	while (n > 0)
		*s++ = tmp[--n];
	*s = '\0';
}

/*
 * Starts `prog` detached: a double fork with setsid in between, so the
 * program is reparented to init (or a subreaper), never our zombie, and
 * in its own session and process group. A CLOEXEC pipe brings back the
 * grandchild's pid and, if exec failed, its errno. Between fork and exec
 * only async-signal-safe calls are made.
 */
static int
spawn_detached(const char *prog, char *const argv[], char *const envp[],
               char *pid_slot, int64_t *pid_out)
{
	int fds[2];
	pid_t child;
	int64_t msg = 0, err = 0;
	ssize_t r;
	int status;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	child = fork();
	if (child < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (child == 0) {
		pid_t gc;
		int64_t v;

		close(fds[0]);
		setsid();
		gc = fork();
		if (gc != 0) {
			v = gc < 0 ? -(int64_t)errno : (int64_t)gc;
			(void)cua_write_all(fds[1], &v, sizeof(v));
			_exit(0);
		} else {
			struct sigaction sa;
			sigset_t none;
			int s, devnull;

			if (pid_slot)
				put_decimal(pid_slot, (long)getpid());
			devnull = open("/dev/null", O_RDWR);
			if (devnull >= 0) {
				dup2(devnull, 0);
				dup2(devnull, 1);
				dup2(devnull, 2);
				if (devnull > 2)
					close(devnull);
			}
			/* ignored signals stay ignored across exec */
			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = SIG_DFL;
			for (s = 1; s < NSIG; s++) {
				if (s != SIGKILL && s != SIGSTOP)
					sigaction(s, &sa, NULL);
			}
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			/* descriptors the host leaked without CLOEXEC */
			if (fds[1] > 3)
				close_range(3, (unsigned)fds[1] - 1, 0);
			close_range((unsigned)fds[1] + 1, ~0U, 0);
			execve(prog, argv, envp);
			v = -(int64_t)errno;
			(void)cua_write_all(fds[1], &v, sizeof(v));
			_exit(127);
		}
	}
	close(fds[1]);
	r = read_full(fds[0], &msg, sizeof(msg));
	if (r == (ssize_t)sizeof(msg) && msg > 0) {
		r = read_full(fds[0], &err, sizeof(err));
		if (r != (ssize_t)sizeof(err))
			err = 0; /* EOF: exec succeeded */
	} else if (r == (ssize_t)sizeof(msg)) {
		err = msg;
	} else {
		err = -EIO;
	}
	close(fds[0]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (err < 0)
		return (int)err;
	*pid_out = msg;
	return 0;
}

cua_result
atspi_launch(struct cua_backend *b, const struct cua_installed_app *app,
             int64_t *pid)
{
	struct atspi_be *be = (struct atspi_be *)b;
	GPtrArray *env = NULL, *args = NULL;
	char **argv = NULL, *prog = NULL, *pid_var = NULL;
	const char *path_env;
	char **e;
	cua_result rc = CUA_OK;
	int r, lo;
	size_t i;
	static const char pid_name[] = "GIO_LAUNCHED_DESKTOP_FILE_PID=";
	static const char *const drop[] = {
		"NO_AT_BRIDGE",
		"GIO_LAUNCHED_DESKTOP_FILE",
		"GIO_LAUNCHED_DESKTOP_FILE_PID",
		"DESKTOP_STARTUP_ID",
		NULL,
	};

	*pid = 0;
	if (!app || !app->exec)
		return cua_error(CUA_ERROR_UNSUPPORTED,
		                 "the desktop entry %s has no Exec line",
		                 app && app->desktop_id ? app->desktop_id
		                                        : "(null)");
	argv = desktop_exec_to_argv(app->exec, app->name, NULL, app->path);
	if (!argv)
		return cua_error(CUA_ERROR, "cannot parse Exec of %s: %s",
		                 app->desktop_id ? app->desktop_id : "?",
		                 app->exec);

	/* the environment: ours, accessibility switched on (actions.md §12) */
	env = g_ptr_array_new_with_free_func(g_free);
	for (e = environ; e && *e; e++) {
		int skip = 0;

		for (i = 0; drop[i]; i++)
			skip |= env_name_is(*e, drop[i]);
		if (env_name_is(*e, "GTK_A11Y") && strcmp(*e + 9, "none") == 0)
			skip = 1;
		if (!skip)
			g_ptr_array_add(env, g_strdup(*e));
	}
	lo = is_libreoffice(app, argv[0]);
	if (app->path)
		g_ptr_array_add(env, g_strconcat("GIO_LAUNCHED_DESKTOP_FILE=",
		                                 app->path, NULL));
	/* filled in by the launched process itself (its pid) */
	pid_var = g_malloc0(sizeof(pid_name) + 24);
	memcpy(pid_var, pid_name, sizeof(pid_name) - 1);
	g_ptr_array_add(env, pid_var);
	g_ptr_array_add(env, g_strdup("QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1"));
	g_ptr_array_add(env, g_strdup("QT_ACCESSIBILITY=1"));
	g_ptr_array_add(env, g_strdup("ACCESSIBILITY_ENABLED=1"));
	if (!env_array_lookup(env, "GSK_RENDERER"))
		g_ptr_array_add(env, g_strdup("GSK_RENDERER=cairo"));
	if (lo) {
		/* decisions.md §6: its default X11 plugin has no AT-SPI
		 * bridge */
		const char *v = env_lookup(environ, "SAL_USE_VCLPLUGIN");

		if (!v || !v[0] || strcmp(v, "gen") == 0 ||
		    strcmp(v, "x11") == 0) {
			for (i = 0; i < env->len; i++) {
				if (env_name_is(env->pdata[i],
				                "SAL_USE_VCLPLUGIN")) {
					g_ptr_array_remove_index(env, (guint)i);
					break;
				}
			}
			g_ptr_array_add(env,
			                g_strdup("SAL_USE_VCLPLUGIN=gtk3"));
		}
	}
	/* timestamp 0: a focus-stealing-prevention WM leaves the user's
	 * window on top */
	g_ptr_array_add(env, g_strdup_printf("DESKTOP_STARTUP_ID=libcua-%d-"
	                                     "%lld_TIME0",
	                                     (int)getpid(),
	                                     (long long)cua_now_us()));
	if (be->a11y_address && !env_lookup(environ, "AT_SPI_BUS_ADDRESS"))
		g_ptr_array_add(env, g_strconcat("AT_SPI_BUS_ADDRESS=",
		                                 be->a11y_address, NULL));
	if (be->display->ops->launch_env) {
		const char *names[4], *values[4];
		size_t nv = be->display->ops->launch_env(be->display, names,
		                                         values, 4);

		for (i = 0; i < nv; i++)
			if (!env_lookup(environ, names[i]))
				g_ptr_array_add(env, g_strconcat(names[i], "=",
				                                 values[i], NULL));
	}
	g_ptr_array_add(env, NULL);

	args = g_ptr_array_new();
	for (i = 0; argv[i]; i++)
		g_ptr_array_add(args, argv[i]);
	if (is_chromium(argv[0])) {
		int have = 0;

		for (i = 1; argv[i]; i++)
			have |= strcmp(argv[i], "--force-renderer-"
			                        "accessibility") == 0;
		if (!have)
			g_ptr_array_insert(args, 1,
			                   (char *)"--force-renderer-"
			                           "accessibility");
	}
	g_ptr_array_add(args, NULL);

	path_env = env_array_lookup(env, "PATH");
	prog = find_program(argv[0], path_env);
	if (!prog) {
		rc = cua_error(CUA_ERROR_NOT_FOUND,
		               "cannot launch %s: program %s not found",
		               app->desktop_id ? app->desktop_id : "?",
		               argv[0]);
		goto out;
	}
	r = spawn_detached(prog, (char *const *)args->pdata,
	                   (char *const *)env->pdata,
	                   pid_var + sizeof(pid_name) - 1, pid);
	if (r < 0) {
		rc = cua_error(r == -ENOENT || r == -EACCES
		                       ? CUA_ERROR_NOT_FOUND
		                       : CUA_ERROR,
		               "cannot launch %s (%s): %s",
		               app->desktop_id ? app->desktop_id : "?", prog,
		               g_strerror(-r));
		goto out;
	}
	cua_debug(b->ctx, "launched %s as pid %" PRId64 " (%s)",
	          app->desktop_id ? app->desktop_id : "?", *pid, prog);
out:
	free(prog);
	if (args)
		g_ptr_array_free(args, TRUE);
	if (env)
		g_ptr_array_free(env, TRUE);
	desktop_strv_free(argv);
	return rc;
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
