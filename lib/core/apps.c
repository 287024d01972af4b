/*
 * Apps: resolving the model's `app` string to exactly one target
 * (docs/safety.md §1) and the list_apps text (docs/tools.md §5.1).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "fileio.h"
#include "sanitize.h"
#include "session.h"
#include "strbuf.h"

static int
ieq(const char *a, const char *b)
{
	return a && b && *a && strcasecmp(a, b) == 0;
}

static int
ieq_desktop(const char *id, const char *q)
{
	size_t n;

	if (!id || !*id)
		return 0;
	if (ieq(id, q))
		return 1;
	n = strlen(q);
	return n > 8 && strcasecmp(q + n - 8, ".desktop") == 0 &&
	       strlen(id) == n - 8 && strncasecmp(id, q, n - 8) == 0;
}

static int
app_matches(const struct cua_app_info *a, const char *q)
{
	if (q[0] == '/')
		return (a->exe && strcmp(a->exe, q) == 0) ||
		       (a->desktop_file && strcmp(a->desktop_file, q) == 0);
	return ieq_desktop(a->desktop_id, q) || ieq_desktop(a->app_id, q) ||
	       ieq(a->app_name, q) || ieq(a->desktop_name, q) ||
	       ieq(a->desktop_name_c, q) || ieq(a->atspi_name, q) ||
	       ieq(a->wm_class_class, q) || ieq(a->wm_class_instance, q) ||
	       ieq(a->exe_base, q);
}

/* The program of an Exec= line: its first word's basename. */
static void
exec_program(const char *exec, char *buf, size_t size)
{
	size_t j = 0;
	const char *p = exec ? exec : "";

	while (*p == ' ')
		p++;
	if (*p == '"')
		p++;
	for (; *p && *p != ' ' && *p != '"' && j + 1 < size; p++)
		buf[j++] = *p;
	buf[j] = '\0';
	if (strchr(buf, '/'))
		memmove(buf, strrchr(buf, '/') + 1, strlen(strrchr(buf, '/')));
	/* `env VAR=x prog` */
	if (strcmp(buf, "env") == 0 && exec) {
		const char *q = strstr(exec, "env ") + 4;

		while (*q) {
			while (*q == ' ')
				q++;
			if (!strchr(q, '=') ||
			    (strchr(q, ' ') && strchr(q, '=') > strchr(q, ' ')))
				break;
			q = strchr(q, ' ');
			if (!q)
				return;
		}
		exec_program(q, buf, size);
	}
}

static int
entry_matches(const struct cua_installed_app *e, const char *q)
{
	char prog[256];

	if (q[0] == '/')
		return e->path && strcmp(e->path, q) == 0;
	exec_program(e->exec, prog, sizeof(prog));
	return ieq_desktop(e->desktop_id, q) || ieq(e->name, q) ||
	       ieq(e->name_c, q) || ieq(prog, q) || ieq(e->startup_wm_class, q);
}

/* Processes that never receive synthetic input (docs/safety.md §2.2:
 * privilege and authentication prompts, lockers). */
int
cua_is_security_process(const char *comm)
{
	static const char *const names[] = {
		"polkit-gnome-au",
		"polkit-kde-auth",
		"polkit-mate-aut",
		"lxpolkit",
		"lxqt-policykit-",
		"xfce-polkit",
		"pkexec",
		"gksu",
		"gksudo",
		"kdesu",
		"gcr-prompter",
		"pinentry",
		"pinentry-gnome3",
		"pinentry-gtk-2",
		"pinentry-qt",
		"pinentry-fltk",
		"ssh-askpass",
		"ssh-askpass-gno",
		"ksshaskpass",
		"x11-ssh-askpass",
		"gnome-screensav",
		"xscreensaver",
		"light-locker",
		"i3lock",
		"xsecurelock",
		"slock",
		"xlock",
		"kscreenlocker_g",
		"lightdm-gtk-gre",
		"sddm-greeter",
		"gdm-session-wor",
		"gnome-shell",
		NULL,
	};

	if (!comm || !*comm)
		return 0;
	for (size_t i = 0; names[i]; i++)
		if (strcmp(comm, names[i]) == 0)
			return 1;
	return 0;
}

static void
describe_candidate(struct strbuf *sb, const struct cua_app_info *a)
{
	cua_sanitize_sb(sb, a->app_name);
	sb_add(sb, " \xe2\x80\x94 ");
	cua_sanitize_sb(sb, a->app_id);
	sb_addf(sb, " (pid %lld)", (long long)a->pid);
}

static cua_result
not_found(const char *query)
{
	return cua_err(CUA_MSG_APP_NOT_FOUND, { "app", query });
}

cua_result
cua_resolve_app(const char *query, const struct cua_app_list *apps,
		const struct cua_installed_list *installed,
		struct cua_session *s, struct cua_resolved *out)
{
	const struct cua_app_info *match[64];
	size_t n = 0;
	char *end;

	memset(out, 0, sizeof(*out));
	while (*query == ' ' || *query == '\t')
		query++;
	if (!*query)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "app" });

	/* pid:<N> (docs/differences.md D17) */
	if (strncasecmp(query, "pid:", 4) == 0) {
		long long pid = strtoll(query + 4, &end, 10);

		if (end == query + 4 || *end || pid <= 0)
			return cua_err(CUA_MSG_BAD_PID_APP, { "app", query });
		for (size_t i = 0; apps && i < apps->n; i++)
			if (apps->apps[i].pid == pid) {
				out->kind = CUA_RESOLVED_RUNNING;
				out->app = &apps->apps[i];
				return CUA_OK;
			}
		return not_found(query);
	}

	/* an app session whose process still runs wins (sticky binding) */
	for (size_t k = 0; s && k < s->n_apps; k++) {
		struct cua_app_session *as = s->apps[k];

		if (!as->proc ||
		    !(ieq(as->app_id, query) || ieq(as->app_name, query)))
			continue;
		for (size_t i = 0; apps && i < apps->n; i++)
			if (apps->apps[i].pid == as->proc->pid &&
			    apps->apps[i].start_time == as->proc->start_time) {
				out->kind = CUA_RESOLVED_RUNNING;
				out->app = &apps->apps[i];
				return CUA_OK;
			}
	}

	for (size_t i = 0; apps && i < apps->n; i++)
		if (app_matches(&apps->apps[i], query) &&
		    n < sizeof(match) / sizeof(match[0]))
			match[n++] = &apps->apps[i];
	if (n == 1) {
		out->kind = CUA_RESOLVED_RUNNING;
		out->app = match[0];
		return CUA_OK;
	}
	if (n > 1) {
		struct strbuf sb = STRBUF_INIT;
		cua_result r;

		for (size_t i = 0; i < n; i++) {
			if (i)
				sb_add(&sb, ", ");
			describe_candidate(&sb, match[i]);
		}
		r = cua_err(CUA_MSG_AMBIGUOUS_APP, { "app", query },
			    { "candidates", sb_str(&sb) });
		sb_free(&sb);
		return r;
	}

	for (size_t i = 0; installed && i < installed->n; i++) {
		const struct cua_installed_app *e = &installed->apps[i];

		if (entry_matches(e, query)) {
			out->kind = CUA_RESOLVED_INSTALLED;
			out->entry = e;
			return CUA_OK;
		}
	}
	return not_found(query);
}

static json_t *
sanitized_json(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (!s || !*s)
		return json_null();
	cua_sanitize_sb(&sb, s);
	j = json_string(sb_str(&sb));
	sb_free(&sb);
	return j ? j : json_null();
}

json_t *
cua_resolved_to_jansson(const struct cua_resolved *res)
{
	json_t *o = json_object();

	json_object_set_new(o, "schema", json_string("libcua.app/1"));
	if (res->kind == CUA_RESOLVED_RUNNING) {
		const struct cua_app_info *a = res->app;

		json_object_set_new(o, "running", json_true());
		json_object_set_new(o, "id", sanitized_json(a->app_id));
		json_object_set_new(o, "name", sanitized_json(a->app_name));
		json_object_set_new(o, "pid", json_integer(a->pid));
		json_object_set_new(o, "start_time",
				    json_integer((json_int_t)a->start_time));
		json_object_set_new(o, "executable", sanitized_json(a->exe));
		json_object_set_new(o, "executable_name",
				    sanitized_json(a->exe_base));
		json_object_set_new(o, "atspi_name",
				    sanitized_json(a->atspi_name));
		json_object_set_new(o, "desktop_id",
				    sanitized_json(a->desktop_id));
		json_object_set_new(o, "desktop_file",
				    sanitized_json(a->desktop_file));
		json_object_set_new(
			o, "wm_class",
			json_pack("[o,o]", sanitized_json(a->wm_class_class),
				  sanitized_json(a->wm_class_instance)));
		json_object_set_new(o, "toolkit", sanitized_json(a->toolkit));
		json_object_set_new(o, "accessible",
				    json_boolean(a->accessible));
		json_object_set_new(o, "windows", json_integer(a->n_windows));
	} else {
		const struct cua_installed_app *e = res->entry;
		char prog[256];

		exec_program(e->exec, prog, sizeof(prog));
		json_object_set_new(o, "running", json_false());
		json_object_set_new(o, "id", sanitized_json(e->desktop_id));
		json_object_set_new(
			o, "name",
			sanitized_json(e->name ? e->name : e->desktop_id));
		json_object_set_new(o, "desktop_id",
				    sanitized_json(e->desktop_id));
		json_object_set_new(o, "desktop_file", sanitized_json(e->path));
		json_object_set_new(o, "executable_name", sanitized_json(prog));
	}
	return o;
}

/* ------------------------------------------------------------------ */
/* list_apps                                                            */

struct row {
	const char *id;
	const char *name;
	int running;
	int frontmost;
	int64_t pid; /* > 0 when one line per process */
	int64_t pids[32];
	size_t n_pids;
	const char *last_used; /* YYYY-MM-DD or NULL */
	long long uses;        /* -1 unknown */
	int accessible;
	int windows;
};

static int
row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int c;

	if (a->running != b->running)
		return b->running - a->running;
	if (!a->running) {
		c = strcmp(b->last_used ? b->last_used : "",
			   a->last_used ? a->last_used : "");
		if (c)
			return c;
	}
	if (a->uses != b->uses) {
		if (a->uses < 0)
			return 1;
		if (b->uses < 0)
			return -1;
		return a->uses < b->uses ? 1 : -1;
	}
	c = strcasecmp(a->name, b->name);
	if (c)
		return c;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static void
usage_of(json_t *usage, const char *id, const char **last, long long *uses)
{
	json_t *e =
		usage ? json_object_get(json_object_get(usage, "apps"), id) :
			NULL;

	*last = NULL;
	*uses = -1;
	if (!e)
		return;
	*last = json_string_value(json_object_get(e, "last_used"));
	if (json_is_integer(json_object_get(e, "uses")))
		*uses = json_integer_value(json_object_get(e, "uses"));
}

static int
within_14_days(const char *date)
{
	struct tm tm;
	time_t now = time(NULL), t;

	memset(&tm, 0, sizeof(tm));
	if (!date ||
	    sscanf(date, "%d-%d-%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday) != 3)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_hour = 12;
	t = mktime(&tm);
	return t != (time_t)-1 && now - t <= 15 * 24 * 3600;
}

cua_result
cua_format_app_list(const struct cua_app_list *apps,
		    const struct cua_installed_list *installed,
		    const char *usage_json, int as_json, char **out)
{
	struct row *rows;
	size_t n = 0, cap;
	json_t *usage = usage_json ? json_loads(usage_json, 0, NULL) : NULL;
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	cap = (apps ? apps->n : 0) + (installed ? installed->n : 0) + 1;
	rows = calloc(cap, sizeof(*rows));
	if (!rows) {
		json_decref(usage);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	/* running apps, grouped by id */
	for (size_t i = 0; apps && i < apps->n; i++) {
		const struct cua_app_info *a = &apps->apps[i];
		struct row *r = NULL;

		for (size_t k = 0; k < n; k++)
			if (strcmp(rows[k].id, a->app_id) == 0)
				r = &rows[k];
		if (!r) {
			r = &rows[n++];
			r->id = a->app_id;
			r->name = a->app_name;
			r->running = 1;
			usage_of(usage, a->app_id, &r->last_used, &r->uses);
		}
		if (r->n_pids < sizeof(r->pids) / sizeof(r->pids[0]))
			r->pids[r->n_pids++] = a->pid;
		r->frontmost |= a->frontmost;
		r->accessible |= a->accessible;
		r->windows += a->n_windows;
	}
	/* several processes: one line each */
	for (size_t k = 0, end = n; k < end; k++) {
		if (rows[k].n_pids < 2)
			continue;
		for (size_t p = 1; p < rows[k].n_pids && n < cap; p++) {
			rows[n] = rows[k];
			rows[n].pid = rows[k].pids[p];
			rows[n].frontmost = 0;
			for (size_t i = 0; apps && i < apps->n; i++)
				if (apps->apps[i].pid == rows[n].pid)
					rows[n].frontmost =
						apps->apps[i].frontmost;
			n++;
		}
		rows[k].pid = rows[k].pids[0];
		for (size_t i = 0; apps && i < apps->n; i++)
			if (apps->apps[i].pid == rows[k].pid)
				rows[k].frontmost = apps->apps[i].frontmost;
	}
	/* recently used, not running */
	for (size_t i = 0; usage && installed && i < installed->n; i++) {
		const struct cua_installed_app *e = &installed->apps[i];
		const char *last;
		long long uses;
		int dup = 0;

		usage_of(usage, e->desktop_id, &last, &uses);
		if (!last || !within_14_days(last))
			continue;
		for (size_t k = 0; k < n; k++)
			if (strcmp(rows[k].id, e->desktop_id) == 0)
				dup = 1;
		if (dup || n >= cap)
			continue;
		rows[n].id = e->desktop_id;
		rows[n].name = e->name ? e->name : e->desktop_id;
		rows[n].last_used = last;
		rows[n].uses = uses;
		n++;
	}
	qsort(rows, n, sizeof(*rows), row_cmp);

	if (as_json) {
		json_t *root = json_object(), *arr = json_array();

		json_object_set_new(root, "schema",
				    json_string("libcua.apps/1"));
		for (size_t k = 0; k < n; k++) {
			json_t *o = json_object(), *pids = json_array();

			if (rows[k].pid > 0 && rows[k].n_pids > 1)
				json_array_append_new(
					pids, json_integer(rows[k].pid));
			else
				for (size_t p = 0; p < rows[k].n_pids; p++)
					json_array_append_new(
						pids,
						json_integer(rows[k].pids[p]));
			{
				struct strbuf t = STRBUF_INIT;

				cua_sanitize_sb(&t, rows[k].id);
				json_object_set_new(o, "id",
						    json_string(sb_str(&t)));
				sb_free(&t);
				cua_sanitize_sb(&t, rows[k].name);
				json_object_set_new(o, "name",
						    json_string(sb_str(&t)));
				sb_free(&t);
			}
			json_object_set_new(o, "running",
					    json_boolean(rows[k].running));
			json_object_set_new(o, "frontmost",
					    json_boolean(rows[k].frontmost));
			json_object_set_new(o, "pids", pids);
			json_object_set_new(
				o, "last_used",
				rows[k].last_used ?
					json_string(rows[k].last_used) :
					json_null());
			json_object_set_new(o, "uses",
					    rows[k].uses >= 0 ?
						    json_integer(rows[k].uses) :
						    json_null());
			json_object_set_new(o, "accessible",
					    json_boolean(rows[k].accessible));
			json_object_set_new(o, "windows",
					    json_integer(rows[k].windows));
			json_array_append_new(arr, o);
		}
		json_object_set_new(root, "apps", arr);
		*out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(root);
	} else if (n == 0) {
		sb_add(&sb, "No running or recently used apps were found.");
		*out = sb_steal(&sb);
	} else {
		for (size_t k = 0; k < n; k++) {
			const struct row *r = &rows[k];
			int first = 1;

			if (k)
				sb_addc(&sb, '\n');
			{
				struct strbuf t = STRBUF_INIT;

				cua_sanitize_sb(&t, r->name);
				cua_add_truncated(&sb, sb_str(&t),
						  CUA_FIELD_MAX);
				sb_free(&t);
				sb_add(&sb, " \xe2\x80\x94 ");
				cua_sanitize_sb(&t, r->id);
				cua_add_truncated(&sb, sb_str(&t),
						  CUA_FIELD_MAX);
				sb_free(&t);
			}
			sb_add(&sb, " [");
#define FLAG(...)                                                              \
	do {                                                                   \
		if (!first)                                                    \
			sb_add(&sb, ", ");                                     \
		first = 0;                                                     \
		sb_addf(&sb, __VA_ARGS__);                                     \
	} while (0)
			if (r->frontmost)
				FLAG("frontmost");
			if (r->running)
				FLAG("running");
			if (r->pid > 0)
				FLAG("pid=%lld", (long long)r->pid);
			if (r->last_used)
				FLAG("last-used=%s", r->last_used);
			if (r->uses >= 0)
				FLAG("uses=%lld", r->uses);
#undef FLAG
			sb_addc(&sb, ']');
		}
		*out = sb_steal(&sb);
	}
	free(rows);
	json_decref(usage);
	if (!*out)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	return CUA_OK;
}

/* ------------------------------------------------------------------ */
/* Usage store                                                        */

char *
cua_usage_load(const char *path)
{
	FILE *f;
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;

	if (!path)
		return NULL;
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len < (1u << 20))
		sb_addn(&sb, buf, n);
	fclose(f);
	return sb_steal(&sb);
}

int
cua_usage_record(const char *path, const char *app_id)
{
	char *old, *dump, date[16], dir[4096];
	json_t *root, *apps, *e;
	time_t now = time(NULL);
	struct tm tm;
	const char *slash;
	int r = -ENOMEM, lock;

	if (!path || !app_id)
		return 0;
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	/* the directory's error is the one that explains a failure */
	if (cua_mkdir_p(dir, 0700) < 0)
		return -errno;
	/* several processes (servers, `cua` commands) record at once: each
	 * reads what the other wrote */
	lock = cua_lock_beside(path);
	if (lock < 0)
		return lock;
	old = cua_usage_load(path);
	root = old ? json_loads(old, 0, NULL) : NULL;
	free(old);
	if (!json_is_object(root)) {
		json_decref(root);
		root = json_object();
	}
	apps = json_object_get(root, "apps");
	if (!json_is_object(apps)) {
		apps = json_object();
		json_object_set_new(root, "apps", apps);
	}
	e = json_object_get(apps, app_id);
	if (!json_is_object(e)) {
		e = json_object();
		json_object_set_new(apps, app_id, e);
	}
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	json_object_set_new(e, "last_used", json_string(date));
	json_object_set_new(
		e, "uses",
		json_integer(json_integer_value(json_object_get(e, "uses")) +
			     1));
	json_object_set_new(root, "schema", json_string("libcua.usage/1"));
	dump = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(root);
	if (dump)
		r = cua_write_file_replace(path, dump, strlen(dump), 0600);
	free(dump);
	close(lock);
	return r;
}
