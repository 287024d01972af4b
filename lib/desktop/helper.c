/*
 * cua-desktop: the supervisor of a headless desktop. libcua starts it
 * (cua_desktop_start(), cua_desktop_run(); client.c) and speaks to it
 * through two pipes; it is not meant to be run by hand, and its arguments
 * are an agreement between libcua and the cua-desktop of the same build:
 *
 *   cua-desktop start --report-fd N [--owner-fd N] [OPTIONS]
 *   cua-desktop run --report-fd N --owner-fd N [OPTIONS] -- PATH ARG0...
 *   cua-desktop apply-fixes
 *   cua-desktop hold-pointer
 *
 * OPTIONS: --kind KIND, --dir DIR, --screen WxHxD, --no-wm.
 *
 * The report pipe carries records of a tag and a NUL-terminated text:
 * 'P' the supervisor's pid (first), 'W' a warning, 'E' an error, 'R'
 * ready, with the export lines. The desktop stops when every copy of the
 * other end of the owner pipe is closed (its owner exited), as on
 * SIGTERM, SIGINT or SIGHUP.
 *
 * start: a new session, stdio on /dev/null, then its own log; once the
 *        desktop is ready it closes the report pipe and runs until asked
 *        to stop. Exit status 0, or 1 when the desktop did not start.
 * run:   in the caller's session, with its stdio, in a process group of
 *        its own (libcua puts it there: a kill of the caller's group, a
 *        test runner's timeout, must leave it to tear the desktop down);
 *        runs the command in the caller's group once the desktop is
 *        ready, then tears the desktop down. It keeps the report pipe open until it exits, and exits
 *        with the command's status (128 + N when signal N ended the
 *        command or stopped the desktop), 1 when the desktop did not
 *        start, 126 or 127 when the command could not be run.
 * apply-fixes: opens a libcua session on the desktop its environment
 *        names, which applies libcua's accessibility fixes; exit 0 when
 *        the session opened.
 * hold-pointer: sway runs it (kind "sway", sway.c): holds a virtual
 *        pointer on the seat of the Wayland display its environment
 *        names until that display goes away.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cua/cua.h"
#include "core/fileio.h"
#include "desktop.h"
#if HAVE_WLROOTS
#include "display/wlroots/wlr.h"
#endif

static int
report(struct desktop *d, char tag, const char *text)
{
	GString *s = g_string_new(NULL);
	int r;

	g_string_append_c(s, tag);
	g_string_append(s, text);
	g_string_append_c(s, '\0');
	r = cua_write_all(d->report_fd, s->str, s->len);
	g_string_free(s, TRUE);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

/* Warnings go to the process that started the desktop while it listens,
 * then to our log. */
static void
report_warning(struct desktop *d, const char *message, void *data)
{
	(void)data;
	if (d->report_fd < 0 || report(d, 'W', message) < 0)
		fprintf(stderr, "%s: warning: %s\n", SUPERVISOR_NAME, message);
}

static void
report_pid(struct desktop *d)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	report(d, 'P', pid);
}

/* Blocks until a stop signal or the owner's exit. */
static void
wait_for_stop(struct desktop *d)
{
	while (handle_signals(d) == 0) {
		struct pollfd pfd[2] = {
			{ .fd = d->sigfd, .events = POLLIN },
			{ .fd = d->owner_fd, .events = POLLIN },
		};

		poll(pfd, 2, -1);
	}
}

static int
supervise(struct desktop *d)
{
	char *log, *text, sig[32];
	int fd;

	setsid();
	prctl(PR_SET_NAME, SUPERVISOR_NAME, 0, 0, 0);
	report_pid(d);
	if (become_supervisor(d) == 0 && make_state_dir(d) == 0) {
		log = g_build_filename(d->dir, "supervisor.log", NULL);
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		g_free(log);
		d->verbose = 1;
		note(d, "supervisor pid %d", (int)getpid());
	}
	if (d->err || desktop_start(d) < 0) {
		desktop_teardown(d);
		report(d, 'E', d->err ? d->err : "unknown error");
		return 1;
	}
	text = desktop_env_text(d->vars);
	if (report(d, 'R', text) < 0) {
		/* the caller is gone: nobody knows about this desktop */
		note(d, "cannot report readiness: %s", strerror(errno));
		g_free(text);
		desktop_teardown(d);
		return 1;
	}
	g_free(text);
	close(d->report_fd);
	d->report_fd = -1;
	d->ready = 1;
	note(d, "ready on %s", d->vars[VAR_DISPLAY]);
	wait_for_stop(d);
	note(d, "stopping on %s",
	     signal_name(d->stop_signal, sig, sizeof(sig)));
	desktop_teardown(d);
	return 0;
}

static int
supervise_run(struct desktop *d, const char *path, char **cmd_argv)
{
	/* the command goes where the caller is: its job, its terminal */
	struct spawn_opts in_caller_group = {
		.fd3 = -1, .fd4 = -1, .keep_fds = 1, .pgrp = getpgid(getppid())
	};
	char **envp, *text, sig[32];
	int error = 0, status = 1;

	d->verbose = getenv("CUA_DESKTOP_DEBUG") != NULL;
	report_pid(d);
	if (become_supervisor(d) < 0 || desktop_start(d) < 0) {
		desktop_teardown(d);
		report(d, 'E', d->err ? d->err : "unknown error");
		return d->stop_signal ? 128 + d->stop_signal : 1;
	}
	d->ready = 1;
	text = desktop_env_text(d->vars);
	report(d, 'R', text);
	g_free(text);

	envp = desktop_envp(d);
	d->cmd.pid = spawn(path, cmd_argv, envp, &in_caller_group, &error);
	g_strfreev(envp);
	if (d->cmd.pid < 0) {
		d->cmd.pid = 0;
		text = g_strdup_printf("cannot run %s: %s", path,
				       strerror(error));
		report(d, 'E', text);
		g_free(text);
		status = error == ENOENT ? 127 : 126;
	} else {
		d->cmd.child = 1;
		for (;;) {
			struct pollfd pfd[2] = {
				{ .fd = d->sigfd, .events = POLLIN },
				{ .fd = d->owner_fd, .events = POLLIN },
			};

			/* handle_signals() reaps: check cmd after it */
			if (handle_signals(d) < 0 || d->cmd.reaped)
				break;
			poll(pfd, 2, -1);
		}
		if (!d->cmd.reaped)
			note(d, "stopping on %s",
			     signal_name(d->stop_signal, sig, sizeof(sig)));
	}
	desktop_teardown(d);
	if (d->cmd.reaped) {
		if (WIFEXITED(d->cmd.status))
			status = WEXITSTATUS(d->cmd.status);
		else if (WIFSIGNALED(d->cmd.status))
			status = 128 + WTERMSIG(d->cmd.status);
	} else if (d->stop_signal) {
		status = 128 + d->stop_signal;
	}
	return status;
}

/* A session on the desktop our environment names: cua_session_new()
 * applies the fixes that desktop lacks. */
static int
apply_fixes(void)
{
	cua_session *s = NULL;
	cua_result r;

	setenv("CUA_BACKEND", "atspi", 1);
	if (!getenv("CUA_LOG_LEVEL"))
		setenv("CUA_LOG_LEVEL", "info", 1);
	r = cua_session_new(&s, 0);
	if (r != CUA_OK) {
		fprintf(stderr, "%s apply-fixes: %s\n", SUPERVISOR_NAME,
			*cua_error_message() ? cua_error_message() :
					       cua_result_to_string(r));
		return 1;
	}
	cua_session_unref(s);
	return 0;
}

/*
 * Keeps a virtual pointer on the seat for as long as the compositor runs,
 * so that the seat never loses its pointer when a libcua session closes
 * its own. sway 1.7 (wlroots 0.15) crashes when a client asks for the
 * relative pointer of a wl_pointer made while the seat had none, which
 * Xwayland does when a pointer comes and goes quickly (measured: 3 of
 * 10 starts of a desktop test under load, none with the pointer held).
 */
static int
hold_pointer(void)
{
#if HAVE_WLROOTS
	struct cua_wlr *w = NULL;

	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (cua_wlr_open(&w, NULL) != CUA_OK) {
		fprintf(stderr, "%s hold-pointer: %s\n", SUPERVISOR_NAME,
			cua_error_message());
		return 1;
	}
	/* read what the compositor sends, once a second, until it is gone */
	while (cua_wlr_pointer_prepare(w) == CUA_OK &&
	       cua_wlr_roundtrip(w) == CUA_OK)
		sleep(1);
	cua_wlr_close(w);
	return 0;
#else
	fprintf(stderr, "%s hold-pointer: built without wlroots\n",
		SUPERVISOR_NAME);
	return 1;
#endif
}

static int
fd_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 0 || v > 1024)
		return -1;
	/* not for the programs this one starts */
	if (fcntl((int)v, F_SETFD, FD_CLOEXEC) < 0)
		return -1;
	return (int)v;
}

static int
usage_error(const char *what)
{
	fprintf(stderr,
		"%s: %s\n%s is started by libcua (cua_desktop_start(), "
		"`cua desktop`); it is not meant to be run by hand.\n",
		SUPERVISOR_NAME, what, SUPERVISOR_NAME);
	return 2;
}

int
main(int argc, char **argv)
{
	struct desktop d;
	const char *mode, *arg, *value;
	int i, r;

	if (argc < 2)
		return usage_error("no mode given");
	mode = argv[1];
	if (!strcmp(mode, "apply-fixes"))
		return apply_fixes();
	if (!strcmp(mode, "hold-pointer"))
		return hold_pointer();
	if (strcmp(mode, "start") != 0 && strcmp(mode, "run") != 0)
		return usage_error("unknown mode");
	desktop_init(&d);
	d.run_mode = !strcmp(mode, "run");
	d.warn_fn = report_warning;
	for (i = 2; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "--"))
			break;
		if (!strcmp(arg, "--no-wm")) {
			d.no_wm = 1;
			continue;
		}
		if (i + 1 >= argc) {
			desktop_free(&d);
			return usage_error("an option without its value");
		}
		value = argv[++i];
		if (!strcmp(arg, "--report-fd")) {
			d.report_fd = fd_arg(value);
		} else if (!strcmp(arg, "--owner-fd")) {
			d.owner_fd = fd_arg(value);
		} else if (!strcmp(arg, "--kind")) {
			d.kind = desktop_kind_find(value);
		} else if (!strcmp(arg, "--dir")) {
			g_free(d.dir);
			d.dir = g_strdup(value);
			d.user_dir = 1;
		} else if (!strcmp(arg, "--screen") &&
			   desktop_valid_screen(value)) {
			g_free(d.screen);
			d.screen = g_strdup(value);
		} else {
			desktop_free(&d);
			return usage_error("unknown option or bad value");
		}
	}
	if (d.report_fd < 0 || !d.kind || (d.run_mode && argc - i < 3)) {
		desktop_free(&d);
		return usage_error("missing arguments");
	}
	signal(SIGPIPE, SIG_IGN);
	if (d.run_mode)
		r = supervise_run(&d, argv[i + 1], argv + i + 2);
	else
		r = supervise(&d);
	if (d.report_fd >= 0)
		close(d.report_fd);
	desktop_free(&d);
	return r;
}
