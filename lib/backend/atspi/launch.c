/*
 * Launching desktop entries (docs/actions.md §12): the program and its
 * environment, started detached in a session of its own.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* close_range, pipe2 */
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
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>

#include "atspi.h"
#include "core/fileio.h"
#include "linux.h"

extern char **environ;

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
	const char *b = atspi_base_name(prog);

	return strncmp(b, "libreoffice", 11) == 0 ||
	       strncmp(b, "soffice", 7) == 0 || strcmp(b, "localc") == 0 ||
	       strcmp(b, "lowriter") == 0 || strcmp(b, "loimpress") == 0 ||
	       (app->desktop_id &&
		strncmp(app->desktop_id, "libreoffice", 11) == 0);
}

static int
is_chromium(const char *prog)
{
	const char *b = atspi_base_name(prog);

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
				 app && app->desktop_id ? app->desktop_id :
							  "(null)");
	argv = desktop_exec_to_argv(app->exec, app->name, NULL, app->path);
	if (!argv)
		return cua_error(CUA_ERROR, "cannot parse Exec of %s: %s",
				 app->desktop_id ? app->desktop_id : "?",
				 app->exec);

	/* the environment: ours, accessibility switched on
	 * (docs/actions.md §12) */
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
		/* docs/actions.md §12: its default X11 plugin has no AT-SPI
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
				g_ptr_array_add(env,
						g_strconcat(names[i], "=",
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
		rc = cua_error(r == -ENOENT || r == -EACCES ?
				       CUA_ERROR_NOT_FOUND :
				       CUA_ERROR,
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
