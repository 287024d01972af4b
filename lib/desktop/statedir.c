/*
 * Headless desktops: the state directory (layout in desktop.h). Files are
 * replaced atomically (mode 0600) with the library's one helper for it;
 * the directory is 0700 and removed at teardown, logs excepted when a
 * daemon failed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "desktop.h"

/* Writes DIR/name atomically, mode 0600; 0, or -1 with errno. */
int
write_state_file(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	int r = cua_write_file_atomic(path, text, strlen(text), 0600);

	g_free(path);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

char *
read_state_file(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		text = NULL;
	g_free(path);
	return text;
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* rm -rf, without following symlinks or crossing file systems */
void
rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

void
write_pids(struct desktop *d)
{
	GString *s = g_string_new(NULL);
	unsigned long long start = 0;
	int i;

	proc_stat(getpid(), NULL, NULL, &start);
	g_string_append_printf(s, "supervisor %d %llu\n", (int)getpid(), start);
	for (i = 0; i < DAEMON_COUNT; i++)
		if (d->daemon[i].pid > 0)
			g_string_append_printf(
				s, "%s %d %llu\n", desktop_daemon(d, i)->key,
				(int)d->daemon[i].pid, d->daemon[i].start);
	if (write_state_file(d->dir, "pids", s->str) < 0)
		warn(d, "cannot write %s/pids: %s", d->dir, strerror(errno));
	g_string_free(s, TRUE);
}

/* Reads DIR/pids. Returns the supervisor's entry in *sup. */
void
load_pids(struct desktop *d, struct proc *sup)
{
	char *text = read_state_file(d->dir, "pids");
	char **lines, **l, key[32];
	unsigned long long start;
	int pid, i;

	memset(sup, 0, sizeof(*sup));
	if (!text)
		return;
	lines = g_strsplit(text, "\n", -1);
	for (l = lines; *l; l++) {
		if (sscanf(*l, "%31s %d %llu", key, &pid, &start) != 3 ||
		    pid <= 1)
			continue;
		if (!strcmp(key, "supervisor")) {
			sup->pid = pid;
			sup->start = start;
		}
		for (i = 0; i < DAEMON_COUNT; i++) {
			if (strcmp(key, desktop_daemon(d, i)->key) != 0)
				continue;
			d->daemon[i].pid = pid;
			d->daemon[i].start = start;
			d->daemon[i].child = 0;
		}
	}
	g_strfreev(lines);
	g_free(text);
}

/* Lists the calling process and its ancestors in DIR/keep: the supervisor
 * leaves them alone when it stops the clients of its buses (a test
 * harness may be a client and still want to live after a stop). */
void
write_keep(struct desktop *d)
{
	GArray *self = g_array_new(FALSE, FALSE, sizeof(pid_t));
	GString *keep = g_string_new(NULL);
	guint i;

	add_self_and_ancestors(self);
	for (i = 0; i < self->len; i++)
		g_string_append_printf(keep, "%d\n",
				       (int)g_array_index(self, pid_t, i));
	if (write_state_file(d->dir, "keep", keep->str) < 0)
		warn(d, "cannot write %s/keep: %s", d->dir, strerror(errno));
	g_string_free(keep, TRUE);
	g_array_free(self, TRUE);
}

/* Adds the pids of DIR/keep to exclude. */
void
read_keep(struct desktop *d, GArray *exclude)
{
	char *keep = read_state_file(d->dir, "keep");
	char **lines, **l;
	pid_t pid;

	if (!keep)
		return;
	lines = g_strsplit(keep, "\n", -1);
	for (l = lines; *l; l++) {
		pid = (pid_t)atoi(*l);
		if (pid > 1)
			g_array_append_val(exclude, pid);
	}
	g_strfreev(lines);
	g_free(keep);
}

static int
dir_is_empty(const char *path)
{
	struct dirent *e;
	DIR *dir = opendir(path);
	int empty = 1;

	if (!dir)
		return 0;
	while (empty && (e = readdir(dir)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = 0;
	closedir(dir);
	return empty;
}

/* Is a supervisor running for this state directory? */
int
supervisor_alive(const char *dir, pid_t *pid_out)
{
	char *text = read_state_file(dir, "supervisor.pid");
	struct desktop tmp;
	struct proc sup, p;
	char *comm;
	int pid, alive;

	*pid_out = 0;
	if (!text)
		return 0;
	pid = atoi(text);
	g_free(text);
	if (pid <= 1)
		return 0;
	*pid_out = pid;
	desktop_init(&tmp);
	tmp.dir = g_strdup(dir);
	load_pids(&tmp, &sup);
	desktop_free(&tmp);
	proc_init(&p, pid, 0);
	if (proc_gone(&p) || (sup.pid == pid && sup.start != p.start))
		return 0;
	comm = proc_comm(pid);
	alive = comm && !strcmp(comm, SUPERVISOR_NAME);
	g_free(comm);
	return alive;
}

static int
make_subdir(struct desktop *d, const char *path)
{
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return fail(d, "cannot create %s: %s", path, strerror(errno));
	return 0;
}

/*
 * $XDG_RUNTIME_DIR, unless it is unusable or a desktop's private one (in a
 * shell that ran `eval "$(cua desktop start)"`: it goes away with `stop`).
 */
static const char *
base_runtime_dir(void)
{
	const char *runtime = secure_getenv("XDG_RUNTIME_DIR");
	const char *other = secure_getenv("CUA_DESKTOP_DIR");
	struct stat st;
	size_t len;

	if (!runtime || runtime[0] != '/' || stat(runtime, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return NULL;
	if (other && other[0] == '/') {
		len = strlen(other);
		while (len > 1 && other[len - 1] == '/')
			len--;
		if (!strncmp(runtime, other, len) &&
		    (runtime[len] == '/' || runtime[len] == '\0'))
			return NULL;
	}
	return runtime;
}

/* The given state directory: created, or existing and empty. */
static char *
user_state_dir(struct desktop *d)
{
	char *path = g_strdup(d->dir);
	pid_t sup;

	if (g_mkdir_with_parents(path, 0700) < 0) {
		fail(d, "cannot create %s: %s", path, strerror(errno));
		g_free(path);
		return NULL;
	}
	if (!dir_is_empty(path)) {
		if (supervisor_alive(path, &sup))
			fail(d,
			     "a desktop is already running in %s (supervisor pid %d)",
			     path, (int)sup);
		else
			fail(d,
			     "%s is not empty; give an empty or new directory",
			     path);
		g_free(path);
		return NULL;
	}
	return path;
}

/* $XDG_RUNTIME_DIR/cua/desktop-<pid> or /tmp/cua-desktop-<uid>-<pid>. */
static char *
default_state_dir(struct desktop *d)
{
	const char *runtime = base_runtime_dir();
	char *path, *base;
	struct stat st;
	pid_t sup;
	int err;

	if (runtime) {
		base = g_build_filename(runtime, "cua", NULL);
		if (mkdir(base, 0700) < 0 && errno != EEXIST) {
			fail(d, "cannot create %s: %s", base, strerror(errno));
			g_free(base);
			return NULL;
		}
		path = g_strdup_printf("%s/desktop-%d", base, (int)getpid());
		g_free(base);
	} else {
		path = g_strdup_printf("/tmp/cua-desktop-%u-%d",
				       (unsigned int)getuid(), (int)getpid());
	}
	if (mkdir(path, 0700) == 0)
		return path;
	/* a leftover of an earlier desktop with our pid */
	err = errno;
	if (err != EEXIST || lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != getuid() || supervisor_alive(path, &sup)) {
		fail(d, "cannot create %s: %s", path, strerror(err));
		g_free(path);
		return NULL;
	}
	rm_tree(path);
	if (mkdir(path, 0700) < 0) {
		fail(d, "cannot create %s: %s", path, strerror(errno));
		g_free(path);
		return NULL;
	}
	return path;
}

/* Creates the state directory and the private XDG directories in it. */
int
make_state_dir(struct desktop *d)
{
	static const enum desktop_var sub[] = { VAR_XDG_CONFIG_HOME,
						VAR_XDG_DATA_HOME,
						VAR_XDG_CACHE_HOME,
						VAR_XDG_STATE_HOME };
	static const char *const sub_name[] = { "config", "data", "cache",
						"state" };
	char *path, *home, *real;
	size_t i;

	if (d->dir_ready)
		return 0;
	path = d->user_dir ? user_state_dir(d) : default_state_dir(d);
	if (!path)
		return -1;
	if (chmod(path, 0700) < 0 || !(real = realpath(path, NULL))) {
		fail(d, "cannot use %s: %s", path, strerror(errno));
		g_free(path);
		return -1;
	}
	g_free(path);
	g_free(d->dir);
	d->dir = g_strdup(real);
	free(real);
	d->dir_ready = 1; /* from here on, teardown removes d->dir */
	g_free(d->vars[VAR_DESKTOP_DIR]);
	d->vars[VAR_DESKTOP_DIR] = g_strdup(d->dir);

	d->vars[VAR_XDG_RUNTIME_DIR] = g_build_filename(d->dir, "xdg", NULL);
	home = g_build_filename(d->dir, "home", NULL);
	if (make_subdir(d, d->vars[VAR_XDG_RUNTIME_DIR]) < 0 ||
	    make_subdir(d, home) < 0) {
		g_free(home);
		return -1;
	}
	for (i = 0; i < G_N_ELEMENTS(sub); i++) {
		d->vars[sub[i]] = g_build_filename(home, sub_name[i], NULL);
		if (make_subdir(d, d->vars[sub[i]]) < 0) {
			g_free(home);
			return -1;
		}
	}
	g_free(home);
	return 0;
}

/* Removes the state directory, or everything in it but the logs. */
void
remove_state_dir(struct desktop *d)
{
	struct dirent *e;
	char *path;
	DIR *dir;

	if (!d->dir || !d->dir_ready)
		return;
	if (!d->keep_logs) {
		rm_tree(d->dir);
		if (access(d->dir, F_OK) == 0)
			warn(d, "could not remove %s", d->dir);
		return;
	}
	dir = opendir(d->dir);
	if (!dir)
		return;
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    g_str_has_suffix(e->d_name, ".log"))
			continue;
		path = g_build_filename(d->dir, e->d_name, NULL);
		rm_tree(path);
		g_free(path);
	}
	closedir(dir);
}
