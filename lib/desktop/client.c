/*
 * Headless desktops, the library's side. A desktop is owned by a
 * supervisor process, the cua-desktop helper (helper.c), which libcua
 * starts with fork + exec: a library cannot fork and go on running GLib
 * in the child once the caller has threads (a Python program, a server
 * with open sessions). This file finds the helper, starts it, reads its
 * reports, and stops a desktop, cleaning up after a supervisor that died.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client.h"
#include "core/ctx.h"
#include "core/errors.h"
#include "desktop.h"

struct desktop_client {
	int64_t pid;  /* the supervisor while it runs (atomic) */
	int child;    /* it is our child: reap it */
	int owner_fd; /* our end of the owner pipe, -1 */
	int started;  /* started or attached, not stopped */
	int owned;    /* started here, stops with this process */
	char *dir;
	char *kind;
	char *vars[VAR_COUNT];
};

struct desktop_client *
desktop_client_new(void)
{
	struct desktop_client *c = calloc(1, sizeof(*c));

	if (c)
		c->owner_fd = -1;
	return c;
}

static void
client_forget(struct desktop_client *c)
{
	int i;

	if (c->owner_fd >= 0)
		close(c->owner_fd);
	c->owner_fd = -1;
	__atomic_store_n(&c->pid, 0, __ATOMIC_SEQ_CST);
	c->child = c->started = c->owned = 0;
	for (i = 0; i < VAR_COUNT; i++) {
		g_free(c->vars[i]);
		c->vars[i] = NULL;
	}
}

void
desktop_client_free(struct desktop_client *c)
{
	if (!c)
		return;
	client_forget(c);
	g_free(c->dir);
	g_free(c->kind);
	free(c);
}

int
desktop_client_kind_known(const char *name)
{
	return desktop_kind_find(name) != NULL;
}

const char *
desktop_client_kind_name(size_t index)
{
	return desktop_kind_name(index);
}

int
desktop_client_valid_screen(const char *screen)
{
	return desktop_valid_screen(screen);
}

int
desktop_client_started(const struct desktop_client *c)
{
	return c->started;
}

int
desktop_client_owned(const struct desktop_client *c)
{
	return c->started && c->owned;
}

int64_t
desktop_client_pid(const struct desktop_client *c)
{
	return __atomic_load_n(&c->pid, __ATOMIC_SEQ_CST);
}

const char *
desktop_client_state_dir(const struct desktop_client *c)
{
	return c->started ? c->dir : NULL;
}

size_t
desktop_client_env_count(void)
{
	return VAR_COUNT;
}

const char *
desktop_client_env_name(size_t index)
{
	return index < VAR_COUNT ? desktop_var_names[index] : NULL;
}

const char *
desktop_client_env(const struct desktop_client *c, const char *name)
{
	int i;

	for (i = 0; i < VAR_COUNT; i++)
		if (!strcmp(desktop_var_names[i], name))
			return c->vars[i];
	return NULL;
}

char *
desktop_client_env_text(const struct desktop_client *c)
{
	char *text, *out;

	if (!c->started)
		return NULL;
	text = desktop_env_text(c->vars);
	out = strdup(text);
	g_free(text);
	return out;
}

/* ---- the helper ----------------------------------------------------- */

static int
executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

/*
 * The cua-desktop of this libcua: beside the library in a build tree,
 * else in libexecdir relative to the library (an installation moved as a
 * whole, or staged with DESTDIR), else where it was installed.
 */
static char *
helper_path(void)
{
	Dl_info info;
	char *lib, *dir, *path;

	if (dladdr((void *)helper_path, &info) && info.dli_fname &&
	    (lib = realpath(info.dli_fname, NULL))) {
		dir = g_path_get_dirname(lib);
		free(lib);
		path = g_build_filename(dir, SUPERVISOR_NAME, NULL);
		if (executable(path)) {
			g_free(dir);
			return path;
		}
		g_free(path);
		if (CUA_LIBEXEC_FROM_LIBDIR[0]) {
			path = g_build_filename(dir, CUA_LIBEXEC_FROM_LIBDIR,
						SUPERVISOR_NAME, NULL);
			if (executable(path)) {
				g_free(dir);
				return path;
			}
			g_free(path);
		}
		g_free(dir);
	}
	path = g_build_filename(CUA_LIBEXECDIR, SUPERVISOR_NAME, NULL);
	if (executable(path))
		return path;
	g_free(path);
	return NULL;
}

static void
add_options(GPtrArray *argv, const struct desktop_client_options *o)
{
	g_ptr_array_add(argv, g_strdup("--kind"));
	g_ptr_array_add(argv, g_strdup(o->kind ? o->kind : "x11"));
	if (o->screen) {
		g_ptr_array_add(argv, g_strdup("--screen"));
		g_ptr_array_add(argv, g_strdup(o->screen));
	}
	if (o->state_dir) {
		g_ptr_array_add(argv, g_strdup("--dir"));
		g_ptr_array_add(argv, g_strdup(o->state_dir));
	}
	if (o->no_wm)
		g_ptr_array_add(argv, g_strdup("--no-wm"));
}

/*
 * Starts the helper with the report pipe as its fd 3 and, when owner_fd
 * is not NULL, the read end of an owner pipe as fd 4 (*owner_fd gets the
 * write end). Returns the pid (0 when detached), or -1 with the message
 * set; *report_fd gets the read end of the report pipe.
 */
static pid_t
start_helper(char **argv, const struct spawn_opts *how, int *report_fd,
	     int *owner_fd)
{
	struct spawn_opts opts = *how;
	int rp[2], op[2] = { -1, -1 }, error = 0;
	pid_t pid;

	if (pipe2(rp, O_CLOEXEC) < 0) {
		cua_error(CUA_ERROR_BACKEND, "cannot start a desktop: pipe: %s",
			  strerror(errno));
		return -1;
	}
	if (owner_fd && pipe2(op, O_CLOEXEC) < 0) {
		cua_error(CUA_ERROR_BACKEND, "cannot start a desktop: pipe: %s",
			  strerror(errno));
		close(rp[0]);
		close(rp[1]);
		return -1;
	}
	opts.fd3 = rp[1];
	opts.fd4 = op[0];
	pid = spawn(argv[0], argv, environ, &opts, &error);
	close(rp[1]);
	if (op[0] >= 0)
		close(op[0]);
	if (pid < 0) {
		cua_error(CUA_ERROR_BACKEND,
			  "cannot start a desktop: cannot run %s: %s", argv[0],
			  strerror(error));
		close(rp[0]);
		if (op[1] >= 0)
			close(op[1]);
		return -1;
	}
	*report_fd = rp[0];
	if (owner_fd)
		*owner_fd = op[1];
	return pid;
}

enum { REPORT_NONE, REPORT_READY, REPORT_ERROR, REPORT_EOF, REPORT_TIMEOUT };

struct reader {
	int fd;
	GString *buf;
	size_t used;
	int ready;
	char *error; /* the first 'E' record */
	int error_after_ready;
};

/*
 * Reads records until one of 'R' or 'E' (with stop_at_result), EOF or the
 * deadline (deadline_ms < 0: none). 'P' sets the client's pid, 'W' goes to
 * warn, 'R' fills the client's variables.
 */
static int
read_reports(struct desktop_client *c, struct reader *rd, long long deadline,
	     int stop_at_result, const struct desktop_client_options *o)
{
	char chunk[4096];
	ssize_t n;
	size_t len;
	int left;

	for (;;) {
		while ((len = strnlen(rd->buf->str + rd->used,
				      rd->buf->len - rd->used)) <
		       rd->buf->len - rd->used) {
			const char *rec = rd->buf->str + rd->used;

			rd->used += len + 1;
			switch (rec[0]) {
			case 'P':
				__atomic_store_n(&c->pid, atoll(rec + 1),
						 __ATOMIC_SEQ_CST);
				break;
			case 'W':
				if (o->warn)
					o->warn(rec + 1, o->warn_data);
				break;
			case 'E':
				if (!rd->error) {
					rd->error = g_strdup(rec + 1);
					rd->error_after_ready = rd->ready;
				}
				if (stop_at_result)
					return REPORT_ERROR;
				break;
			case 'R':
				desktop_env_parse(c->vars, rec + 1);
				rd->ready = 1;
				if (stop_at_result)
					return REPORT_READY;
				break;
			}
		}
		left = -1;
		if (deadline >= 0) {
			left = (int)(deadline - now_ms());
			if (left <= 0)
				return REPORT_TIMEOUT;
		}
		{
			struct pollfd pfd = { .fd = rd->fd, .events = POLLIN };

			if (poll(&pfd, 1, left) <= 0)
				continue;
		}
		n = read(rd->fd, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return REPORT_EOF;
		g_string_append_len(rd->buf, chunk, n);
	}
}

static int
wait_child(pid_t pid)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1; /* reaped by someone else */
	}
	return status;
}

/* The supervisor's command line for `verb` (start, run): its reports on
 * fd 3, with `owned` its owner's pipe on fd 4, then the options; the
 * caller adds the rest and the NULL. */
static cua_result
helper_argv(const char *verb, int owned, const struct desktop_client_options *o,
	    GPtrArray **argv)
{
	char *helper = helper_path();

	*argv = NULL;
	if (!helper)
		return cua_err(CUA_MSG_DESKTOP_NO_HELPER,
			       { "helper", SUPERVISOR_NAME },
			       { "dir", CUA_LIBEXECDIR });
	*argv = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(*argv, helper);
	g_ptr_array_add(*argv, g_strdup(verb));
	g_ptr_array_add(*argv, g_strdup("--report-fd"));
	g_ptr_array_add(*argv, g_strdup("3"));
	if (owned) {
		g_ptr_array_add(*argv, g_strdup("--owner-fd"));
		g_ptr_array_add(*argv, g_strdup("4"));
	}
	add_options(*argv, o);
	return CUA_OK;
}

cua_result
desktop_client_start(struct desktop_client *c,
		     const struct desktop_client_options *o)
{
	/* it starts a session of its own */
	const struct spawn_opts start_opts = { .null_stdio = 1,
					       .detach = o->detached };
	GPtrArray *argv;
	struct reader rd = { .fd = -1 };
	char st[64];
	int r, status, owner = -1;
	cua_result res;
	pid_t pid;

	res = helper_argv("start", !o->detached, o, &argv);
	if (res != CUA_OK)
		return res;
	g_ptr_array_add(argv, NULL);
	pid = start_helper((char **)argv->pdata, &start_opts, &rd.fd,
			   o->detached ? NULL : &owner);
	g_ptr_array_free(argv, TRUE);
	if (pid < 0)
		return CUA_ERROR_BACKEND;
	rd.buf = g_string_new(NULL);
	r = read_reports(c, &rd, now_ms() + START_WAIT_MS, 1, o);
	close(rd.fd);
	g_string_free(rd.buf, TRUE);
	if (r == REPORT_READY) {
		g_free(rd.error);
		c->started = 1;
		c->owned = !o->detached;
		c->child = pid > 0;
		c->owner_fd = owner;
		g_free(c->dir);
		c->dir = g_strdup(c->vars[VAR_DESKTOP_DIR]);
		g_free(c->kind);
		c->kind = g_strdup(o->kind ? o->kind : "x11");
		return CUA_OK;
	}
	if (owner >= 0)
		close(owner); /* a desktop still starting stops */
	if (r == REPORT_TIMEOUT && desktop_client_pid(c) > 0)
		kill((pid_t)desktop_client_pid(c), SIGTERM);
	status = pid > 0 ? wait_child(pid) : 0;
	if (r == REPORT_ERROR)
		res = cua_error(CUA_ERROR_BACKEND, "%s", rd.error);
	else if (r == REPORT_TIMEOUT)
		res = cua_err(CUA_MSG_DESKTOP_START_TIMEOUT,
			      { "s", CUA_NUM("%d", START_WAIT_MS / 1000) });
	else if (pid > 0)
		res = cua_err(
			CUA_MSG_DESKTOP_EXITED_EARLY,
			{ "status", describe_status(status, st, sizeof(st)) });
	else
		res = cua_err(CUA_MSG_DESKTOP_LOST_EARLY);
	g_free(rd.error);
	client_forget(c);
	return res;
}

cua_result
desktop_client_run(struct desktop_client *c,
		   const struct desktop_client_options *o,
		   const char *const *cmd, int *exit_status)
{
	/* a process group of its own, out of reach of a kill of the
	 * caller's group (a test runner's timeout); the command joins the
	 * caller's group, and the desktop stops when the caller is gone */
	const struct spawn_opts run_opts = { .pgrp = -1 };
	GPtrArray *argv;
	struct reader rd = { .fd = -1 };
	char *path, st[64];
	int status, owner = -1;
	cua_result res;
	pid_t pid;
	size_t i;

	*exit_status = 1;
	if (strchr(cmd[0], '/'))
		path = g_strdup(cmd[0]);
	else
		path = g_find_program_in_path(cmd[0]);
	if (!path) {
		*exit_status = 127;
		return cua_err(CUA_MSG_COMMAND_NOT_FOUND,
			       { "command", cmd[0] });
	}
	res = helper_argv("run", 1, o, &argv);
	if (res != CUA_OK) {
		g_free(path);
		return res;
	}
	g_ptr_array_add(argv, g_strdup("--"));
	g_ptr_array_add(argv, path);
	for (i = 0; cmd[i]; i++)
		g_ptr_array_add(argv, g_strdup(cmd[i]));
	g_ptr_array_add(argv, NULL);
	pid = start_helper((char **)argv->pdata, &run_opts, &rd.fd, &owner);
	g_ptr_array_free(argv, TRUE);
	if (pid < 0)
		return CUA_ERROR_BACKEND;
	__atomic_store_n(&c->pid, (int64_t)pid, __ATOMIC_SEQ_CST);
	c->child = 1;
	c->owner_fd = owner;
	rd.buf = g_string_new(NULL);
	read_reports(c, &rd, -1, 0, o);
	close(rd.fd);
	g_string_free(rd.buf, TRUE);
	status = wait_child(pid);
	if (status < 0)
		status = 0;
	if (WIFEXITED(status))
		*exit_status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		*exit_status = 128 + WTERMSIG(status);
	if (rd.error)
		res = cua_error(rd.error_after_ready ? CUA_ERROR_LAUNCH :
						       CUA_ERROR_BACKEND,
				"%s", rd.error);
	else if (WIFSIGNALED(status))
		res = cua_err(
			CUA_MSG_DESKTOP_SUPERVISOR_KILLED,
			{ "pid", CUA_NUM("%d", (int)pid) },
			{ "status", describe_status(status, st, sizeof(st)) });
	else if (!rd.ready)
		res = cua_err(
			CUA_MSG_DESKTOP_EXITED_EARLY,
			{ "status", describe_status(status, st, sizeof(st)) });
	else
		res = CUA_OK;
	g_free(rd.error);
	client_forget(c);
	return res;
}

cua_result
desktop_client_attach(struct desktop_client *c, const char *state_dir)
{
	const char *dir = state_dir;
	char *text, *kind;
	struct stat st;
	pid_t pid;

	if (!dir || !*dir)
		dir = secure_getenv("CUA_DESKTOP_DIR");
	if (!dir || !*dir)
		return cua_err(CUA_MSG_NO_DESKTOP_GIVEN);
	errno = 0;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return cua_err(CUA_MSG_NO_DESKTOP_IN, { "dir", dir },
			       { "reason", strerror(errno ? errno : ENOTDIR) });
	text = read_state_file(dir, "supervisor.pid");
	if (!text)
		return cua_err(CUA_MSG_NO_DESKTOP_PID, { "dir", dir });
	g_free(text);
	client_forget(c);
	g_free(c->dir);
	c->dir = g_strdup(dir);
	kind = read_state_file(dir, "kind");
	g_free(c->kind);
	c->kind = g_strdup(kind && desktop_kind_find(g_strstrip(kind)) ? kind :
									 "x11");
	g_free(kind);
	text = read_state_file(dir, "env");
	if (text)
		desktop_env_parse(c->vars, text);
	g_free(text);
	if (supervisor_alive(dir, &pid))
		__atomic_store_n(&c->pid, (int64_t)pid, __ATOMIC_SEQ_CST);
	c->started = 1;
	return CUA_OK;
}

struct stop_warn {
	void (*fn)(const char *message, void *data);
	void *data;
};

static void
stop_warning(struct desktop *d, const char *message, void *data)
{
	struct stop_warn *w = data;

	(void)d;
	if (w->fn)
		w->fn(message, w->data);
}

cua_result
desktop_client_stop(struct desktop_client *c,
		    void (*warn_fn)(const char *message, void *data),
		    void *warn_data)
{
	struct stop_warn w = { warn_fn, warn_data };
	struct desktop d;
	struct proc sup, recorded;
	long long deadline;
	pid_t pid = 0;
	cua_result res = CUA_OK;
	char *text;

	if (!c->started || !c->dir)
		return cua_err(CUA_MSG_DESKTOP_NOT_RUNNING);
	if (access(c->dir, F_OK) < 0) {
		/* stopped by someone else */
		res = cua_err(CUA_MSG_NO_DESKTOP_IN, { "dir", c->dir },
			      { "reason", strerror(errno) });
		if (c->child && desktop_client_pid(c) > 0) {
			kill((pid_t)desktop_client_pid(c), SIGTERM);
			wait_child((pid_t)desktop_client_pid(c));
		}
		client_forget(c);
		return res;
	}
	desktop_init(&d);
	d.kind = desktop_kind_find(c->kind ? c->kind : "x11");
	if (!d.kind)
		d.kind = &desktop_kind_x11;
	d.dir = g_strdup(c->dir);
	d.warn_fn = stop_warning;
	d.warn_data = &w;
	if (supervisor_alive(c->dir, &pid)) {
		/* ourselves and our ancestors must survive the teardown */
		write_keep(&d);
		proc_init(&sup, pid, 0);
		if (kill(pid, SIGTERM) < 0) {
			res = cua_err(CUA_MSG_DESKTOP_NO_SIGNAL,
				      { "pid", CUA_NUM("%d", (int)pid) },
				      { "reason", strerror(errno) });
			desktop_free(&d);
			return res;
		}
		deadline = now_ms() + STOP_WAIT_MS;
		while (!proc_gone(&sup) && now_ms() < deadline)
			pause_ms(&d, POLL_MS);
		if (!proc_gone(&sup)) {
			kill(pid, SIGKILL);
			wait_gone(&d, &sup, KILL_WAIT_MS);
			res = cua_err(
				CUA_MSG_DESKTOP_STOP_TIMEOUT,
				{ "pid", CUA_NUM("%d", (int)pid) },
				{ "s", CUA_NUM("%d", STOP_WAIT_MS / 1000) });
		}
		if (c->child && pid == (pid_t)desktop_client_pid(c))
			wait_child(pid);
	} else {
		res = cua_err(CUA_MSG_DESKTOP_WAS_GONE, { "dir", c->dir },
			      { "pid", CUA_NUM("%d", (int)pid) });
		if (c->child && desktop_client_pid(c) > 0)
			wait_child((pid_t)desktop_client_pid(c));
	}
	client_forget(c);
	if (access(d.dir, F_OK) == 0) {
		/* clean up after a dead supervisor, from its state files */
		d.dir_ready = 1;
		text = read_state_file(d.dir, "env");
		if (text)
			desktop_env_parse(d.vars, text);
		g_free(text);
		load_pids(&d, &recorded);
		desktop_teardown(&d);
	}
	desktop_free(&d);
	return res;
}
