/*
 * SPDX-License-Identifier: MIT
 *
 * `cua desktop`: a private headless desktop for running real applications
 * with accessibility enabled.
 *
 * A supervisor process owns the desktop. It is a child subreaper, starts
 *   Xvfb -> dbus-daemon --session -> at-spi-bus-launcher ->
 *   at-spi2-registryd -> (AT_SPI_BUS root property, IsEnabled) -> openbox
 * and waits for each with a deadline. On SIGTERM/SIGINT/SIGHUP it stops
 * every client of its two private buses, then its own daemons in reverse
 * order, reaps everything, kills any descendant left and removes its state
 * directory.
 *
 *   start: forks the supervisor, which reports readiness (or an error)
 *          through a pipe; the caller prints the export lines.
 *   stop:  SIGTERMs the supervisor named by --dir or $CUA_DESKTOP_DIR.
 *   run:   the calling process is the supervisor and runs the command.
 *
 * State directory layout:
 *   env             the export lines (also printed by `start`)
 *   supervisor.pid  pid of the supervisor
 *   pids            "<key> <pid> <starttime>" per process started, so that
 *                   `stop` can clean up after a supervisor that was killed
 *   keep            written by `stop`: pids that must not be killed
 *   *.log           output of each daemon and of the supervisor
 *   xdg/            private XDG_RUNTIME_DIR (a11y bus socket, ...)
 *   home/{config,data,cache,state}  private XDG_*_HOME
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gio/gio.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include "desktop.h"

#define STEP_TIMEOUT_MS 10000 /* each daemon must be ready within this */
#define CALL_TIMEOUT_MS 2000  /* a single D-Bus call */
#define POLL_MS 20            /* polling interval while waiting */
#define TERM_WAIT_MS 2000     /* SIGTERM -> SIGKILL */
#define KILL_WAIT_MS 1000     /* SIGKILL -> give up */
#define SWEEP_MS 3000         /* final sweep of leftover descendants */
#define STOP_WAIT_MS 15000    /* `stop` waits this long for the supervisor */
#define START_WAIT_MS 120000  /* `start` waits this long for readiness */

#define SUPERVISOR_NAME "cua-desktop"

enum daemon_id {
	DAEMON_XVFB,
	DAEMON_DBUS,
	DAEMON_LAUNCHER,
	DAEMON_REGISTRYD,
	DAEMON_WM,
	DAEMON_COUNT
};

struct daemon_info {
	const char *key;     /* name in DIR/pids */
	const char *name;    /* name in messages */
	const char *program; /* absolute path, or looked up in PATH */
	const char *package; /* Debian package providing it */
	const char *log;     /* log file in the state directory */
};

static const struct daemon_info daemon_info[DAEMON_COUNT] = {
	{ "xvfb", "Xvfb", "Xvfb", "xvfb", "xvfb.log" },
	{ "dbus", "dbus-daemon", "dbus-daemon", "dbus", "dbus.log" },
	{ "launcher", "at-spi-bus-launcher", "/usr/libexec/at-spi-bus-launcher",
	  "at-spi2-core", "launcher.log" },
	{ "registryd", "at-spi2-registryd", "/usr/libexec/at-spi2-registryd",
	  "at-spi2-core", "registryd.log" },
	{ "wm", "openbox", "openbox", "openbox", "wm.log" },
};

/*
 * Variables the desktop sets or unsets in its children's environment, in
 * the order of the export lines. Those without a value are unset.
 */
static const char *const managed_vars[] = {
	"DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS",
	"XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
	"XDG_STATE_HOME", "GSK_RENDERER", "CUA_DESKTOP_DIR",
	/* unset: they stop GTK's AT-SPI registration */
	"NO_AT_BRIDGE", "GTK_A11Y",
	/* unset: apps would escape to the caller's own desktop */
	"WAYLAND_DISPLAY", "SESSION_MANAGER", NULL
};

struct proc {
	pid_t pid;                /* 0: none */
	unsigned long long start; /* starttime from /proc/<pid>/stat */
	int child;                /* ours: reaped with waitpid() */
	int reaped;
	int status; /* wait status, once reaped */
};

struct desktop {
	/* options */
	char *dir;
	int user_dir;  /* --dir given */
	int dir_ready; /* ours to remove at teardown */
	const char *screen;
	int no_wm;
	int run_mode;
	pid_t owner; /* start_owned: the supervisor dies with this process */

	/* paths */
	char *xdg_runtime;
	char *xdg_config;
	char *xdg_data;
	char *xdg_cache;
	char *xdg_state;
	char *programs[DAEMON_COUNT]; /* resolved; NULL if missing */

	/* runtime */
	int sigfd;     /* signalfd, -1 if none */
	int report_fd; /* `start`: pipe to the caller */
	int verbose;   /* notes on stderr (supervisor log) */
	int ready;
	int tearing_down;
	int keep_logs;   /* on failure: keep DIR/ *.log */
	int stop_signal; /* the signal that asked us to stop */
	char *display;
	char *session_addr;
	char *a11y_addr;
	GMainContext *ctx; /* for connecting, with a deadline */
	GDBusConnection *session_bus;
	GDBusConnection *a11y_bus;
	Display *x;
	struct proc daemon[DAEMON_COUNT];
	struct proc cmd;
	char *err; /* first error */
};

/* ---- small helpers ----------------------------------------------------- */

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *
signal_name(int sig, char *buf, size_t size)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else
		snprintf(buf, size, "signal %d", sig);
	return buf;
}

static const char *
describe_status(int status, char *buf, size_t size)
{
	char sig[32];

	if (WIFEXITED(status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by %s",
		         signal_name(WTERMSIG(status), sig, sizeof(sig)));
	else
		snprintf(buf, size, "wait status %#x", status);
	return buf;
}

static int
write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void
close_fds_from(unsigned int first, unsigned int last)
{
	unsigned int fd;

	if (first > last)
		return;
	if (close_range(first, last, 0) == 0)
		return;
	/* kernels older than 5.9 */
	for (fd = first; fd <= last && fd < 65536; fd++)
		close((int)fd);
}

/* Writes DIR/name atomically (through name.tmp), mode 0600. */
static int
write_state_file(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	char *tmp = g_strconcat(path, ".tmp", NULL);
	int fd, r = -1;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		r = write_all(fd, text, strlen(text));
		if (close(fd) < 0)
			r = -1;
		if (r == 0)
			r = rename(tmp, path);
		if (r < 0)
			unlink(tmp);
	}
	g_free(tmp);
	g_free(path);
	return r;
}

static char *
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
static void
rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* The last few lines of a log file, indented; NULL if it is empty. */
static char *
log_tail(const char *path)
{
	GString *out;
	char buf[4096], *p, *line, *save = NULL;
	char *lines[6];
	int fd, n = 0, i;
	ssize_t len;
	off_t size;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size = lseek(fd, 0, SEEK_END);
	if (size > (off_t)sizeof(buf) - 1)
		lseek(fd, size - (off_t)sizeof(buf) + 1, SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return NULL;
	buf[len] = '\0';
	for (p = buf; (line = strtok_r(p, "\n", &save)); p = NULL) {
		if (n == G_N_ELEMENTS(lines))
			memmove(lines, lines + 1, sizeof(lines[0]) * --n);
		lines[n++] = line;
	}
	if (n == 0)
		return NULL;
	out = g_string_new(NULL);
	for (i = 0; i < n; i++)
		g_string_append_printf(out, "%s  | %s", i ? "\n" : "",
		                       lines[i]);
	return g_string_free(out, FALSE);
}

/* ---- /proc ------------------------------------------------------------- */

static int
proc_stat(pid_t pid, char *state, pid_t *ppid, unsigned long long *start)
{
	char path[64], buf[1024], *p, *tok, *save = NULL;
	int fd, field;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* the comm field can contain spaces and parentheses */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* fields after the comm: 3 state, 4 ppid, ..., 22 starttime */
	for (field = 3, p += 1; (tok = strtok_r(p, " ", &save));
	     field++, p = NULL) {
		if (field == 3 && state)
			*state = tok[0];
		else if (field == 4 && ppid)
			*ppid = (pid_t)atoi(tok);
		else if (field == 22) {
			if (start)
				*start = strtoull(tok, NULL, 10);
			return 0;
		}
	}
	return -1;
}

static char *
proc_comm(pid_t pid)
{
	char path[64], *text = NULL;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	g_strchomp(text);
	return text;
}

/* Is pid running the same executable as we are? */
static int
proc_same_exe(pid_t pid)
{
	char path[64];
	struct stat a, b;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if (stat(path, &a) < 0 || stat("/proc/self/exe", &b) < 0)
		return 0;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Has p exited (or been replaced by another process with its pid)? */
static int
proc_gone(const struct proc *p)
{
	unsigned long long start;
	char state;

	if (p->pid <= 0)
		return 1;
	if (p->child)
		return p->reaped;
	if (proc_stat(p->pid, &state, NULL, &start) < 0)
		return 1;
	/* a zombie counts as gone: its parent (not us) has to reap it */
	return state == 'Z' || state == 'X' || start != p->start;
}

static void
proc_init(struct proc *p, pid_t pid, int child)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->child = child;
	if (proc_stat(pid, NULL, NULL, &p->start) < 0)
		p->start = 0;
}

static void
proc_kill(const struct proc *p, int sig)
{
	if (p->pid > 1 && p->pid != getpid() && !proc_gone(p))
		kill(p->pid, sig);
}

/* pid array helpers */
static int
pid_in(const GArray *pids, pid_t pid)
{
	guint i;

	for (i = 0; i < pids->len; i++)
		if (g_array_index(pids, pid_t, i) == pid)
			return 1;
	return 0;
}

/* Appends our own pid and those of all our ancestors. */
static void
add_self_and_ancestors(GArray *pids)
{
	pid_t pid = getpid(), ppid;
	int depth;

	for (depth = 0; pid > 1 && depth < 256; depth++) {
		g_array_append_val(pids, pid);
		if (proc_stat(pid, NULL, &ppid, NULL) < 0)
			break;
		pid = ppid;
	}
}

/* ---- error reporting ------------------------------------------------- */

static int G_GNUC_PRINTF(2, 3) fail(struct desktop *d, const char *fmt, ...)
{
	va_list ap;

	if (d->err) /* the first error is the cause */
		return -1;
	va_start(ap, fmt);
	d->err = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return -1;
}

/* An error about a daemon: adds where its log is and how it ends. */
static int G_GNUC_PRINTF(3, 4)
        fail_daemon(struct desktop *d, enum daemon_id id, const char *fmt, ...)
{
	char *msg, *path, *tail;
	va_list ap;

	if (d->err)
		return -1;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	path = g_build_filename(d->dir, daemon_info[id].log, NULL);
	tail = log_tail(path);
	if (tail) {
		d->keep_logs = 1;
		d->err = g_strdup_printf("%s\nits log %s (kept) ends with:\n%s",
		                         msg, path, tail);
	} else {
		d->err = g_strdup_printf("%s (its log %s is empty)", msg,
		                         daemon_info[id].log);
	}
	g_free(tail);
	g_free(path);
	g_free(msg);
	return -1;
}

static int
report(struct desktop *d, char tag, const char *text)
{
	GString *s = g_string_new(NULL);
	int r;

	g_string_append_c(s, tag);
	g_string_append(s, text);
	g_string_append_c(s, '\0');
	r = write_all(d->report_fd, s->str, s->len);
	g_string_free(s, TRUE);
	return r;
}

static void G_GNUC_PRINTF(2, 3) warn(struct desktop *d, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (d->report_fd < 0 || report(d, 'W', msg) < 0)
		fprintf(stderr, "cua desktop: warning: %s\n", msg);
	g_free(msg);
}

/* Progress notes: only in the supervisor's log. */
static void G_GNUC_PRINTF(2, 3) note(struct desktop *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

/* ---- children and signals ------------------------------------------- */

static void
reap_children(struct desktop *d)
{
	char buf[64];
	pid_t pid;
	int status, i;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == d->cmd.pid && d->cmd.child && !d->cmd.reaped) {
			d->cmd.reaped = 1;
			d->cmd.status = status;
			continue;
		}
		for (i = 0; i < DAEMON_COUNT; i++) {
			struct proc *p = &d->daemon[i];

			if (p->pid != pid || !p->child || p->reaped)
				continue;
			p->reaped = 1;
			p->status = status;
			if (d->ready && !d->tearing_down)
				warn(d, "%s (pid %d) exited unexpectedly (%s)",
				     daemon_info[i].name, (int)pid,
				     describe_status(status, buf, sizeof(buf)));
		}
	}
}

/*
 * Drains the signalfd and reaps children. Returns -1 once a stop signal
 * (SIGTERM, SIGINT, SIGHUP) has arrived.
 */
static int
handle_signals(struct desktop *d)
{
	struct signalfd_siginfo si;

	while (d->sigfd >= 0 &&
	       read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo != SIGCHLD && !d->stop_signal)
			d->stop_signal = (int)si.ssi_signo;
	}
	reap_children(d);
	return d->stop_signal ? -1 : 0;
}

/* Sleeps up to ms, waking up for signals. -1 if asked to stop. */
static int
pause_ms(struct desktop *d, int ms)
{
	struct pollfd pfd = { .fd = d->sigfd, .events = POLLIN };

	if (ms > 50)
		ms = 50;
	if (ms > 0)
		poll(&pfd, d->sigfd >= 0 ? 1 : 0, ms);
	return handle_signals(d);
}

static int
fail_interrupted(struct desktop *d)
{
	char sig[32];

	return fail(d, "interrupted by %s",
	            signal_name(d->stop_signal, sig, sizeof(sig)));
}

/* Waits until p is gone; 0 if it is, -1 on timeout. */
static int
wait_gone(struct desktop *d, const struct proc *p, int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;

	for (;;) {
		reap_children(d);
		if (proc_gone(p))
			return 0;
		if (now_ms() >= deadline)
			return -1;
		pause_ms(d, 10);
	}
}

/* SIGTERM, then SIGKILL after TERM_WAIT_MS. */
static void
stop_proc(struct desktop *d, struct proc *p, int sig, const char *what)
{
	char buf[64];

	if (proc_gone(p))
		return;
	proc_kill(p, sig);
	if (wait_gone(d, p, TERM_WAIT_MS) < 0) {
		note(d, "%s (pid %d) ignored %s; sending SIGKILL", what,
		     (int)p->pid, signal_name(sig, buf, sizeof(buf)));
		proc_kill(p, SIGKILL);
		wait_gone(d, p, KILL_WAIT_MS);
	}
	note(d, "stopped %s (pid %d)", what, (int)p->pid);
}

/*
 * fork + execve. With log_path (a daemon): new session, stdin from
 * /dev/null, stdout and stderr to log_path, fd3 (if >= 0) as fd 3, every
 * other fd closed. Without (the user's command): stdio and inherited fds
 * are kept. Returns the pid, or -1 with *error set to the errno of the
 * failed fork or exec.
 */
static pid_t
spawn(const char *path, char *const argv[], char *const envp[],
      const char *log_path, int fd3, int *error)
{
	int ep[2], err = 0, efd, nul, lfd;
	sigset_t none;
	ssize_t n;
	pid_t pid;

	sigemptyset(&none);
	if (pipe2(ep, O_CLOEXEC) < 0) {
		*error = errno;
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		*error = errno;
		close(ep[0]);
		close(ep[1]);
		return -1;
	}
	if (pid == 0) {
		/* child: async-signal-safe calls only (GDBus has threads) */
		efd = fcntl(ep[1], F_DUPFD_CLOEXEC, 10);
		if (efd < 0)
			goto fail;
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (log_path) {
			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			signal(SIGHUP, SIG_DFL);
			setsid();
			if (fd3 == 3)
				fcntl(3, F_SETFD, 0);
			else if (fd3 >= 0 && dup2(fd3, 3) < 0)
				goto fail;
			nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
			lfd = open(log_path,
			           O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			           0600);
			if (nul < 0 || lfd < 0 || dup2(nul, 0) < 0 ||
			    dup2(lfd, 1) < 0 || dup2(lfd, 2) < 0)
				goto fail;
			close_fds_from(fd3 >= 0 ? 4 : 3, (unsigned int)efd - 1);
			close_fds_from((unsigned int)efd + 1, ~0U);
		}
		execve(path, argv, envp);
	fail:
		err = errno;
		n = write(efd >= 0 ? efd : ep[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(ep[1]);
	do
		n = read(ep[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(ep[0]);
	if (n == (ssize_t)sizeof(err)) {
		waitpid(pid, NULL, 0);
		*error = err;
		return -1;
	}
	return pid;
}

/* ---- environment ------------------------------------------------------ */

static const char *
var_value(const struct desktop *d, const char *name)
{
	if (!strcmp(name, "DISPLAY"))
		return d->display;
	if (!strcmp(name, "DBUS_SESSION_BUS_ADDRESS"))
		return d->session_addr;
	if (!strcmp(name, "AT_SPI_BUS_ADDRESS"))
		return d->a11y_addr;
	if (!strcmp(name, "XDG_RUNTIME_DIR"))
		return d->xdg_runtime;
	if (!strcmp(name, "XDG_CONFIG_HOME"))
		return d->xdg_config;
	if (!strcmp(name, "XDG_DATA_HOME"))
		return d->xdg_data;
	if (!strcmp(name, "XDG_CACHE_HOME"))
		return d->xdg_cache;
	if (!strcmp(name, "XDG_STATE_HOME"))
		return d->xdg_state;
	if (!strcmp(name, "GSK_RENDERER"))
		return "cairo"; /* GTK4's GL renderer starves a11y on Xvfb */
	if (!strcmp(name, "CUA_DESKTOP_DIR"))
		return d->dir;
	return NULL;
}

static int
is_managed(const char *entry)
{
	size_t len;
	int i;

	for (i = 0; managed_vars[i]; i++) {
		len = strlen(managed_vars[i]);
		if (!strncmp(entry, managed_vars[i], len) && entry[len] == '=')
			return 1;
	}
	return 0;
}

/* The environment for children: ours, with the desktop's variables. */
static char **
build_envp(const struct desktop *d)
{
	GPtrArray *env = g_ptr_array_new();
	const char *value;
	char **e;
	int i;

	for (e = environ; *e; e++)
		if (!is_managed(*e))
			g_ptr_array_add(env, g_strdup(*e));
	for (i = 0; managed_vars[i]; i++) {
		value = var_value(d, managed_vars[i]);
		if (value)
			g_ptr_array_add(env, g_strconcat(managed_vars[i], "=",
			                                 value, NULL));
	}
	g_ptr_array_add(env, NULL);
	return (char **)g_ptr_array_free(env, FALSE);
}

static void
append_export(GString *s, const char *name, const char *value)
{
	const char *p;

	g_string_append_printf(s, "export %s='", name);
	for (p = value; *p; p++) {
		if (*p == '\'')
			g_string_append(s, "'\\''");
		else
			g_string_append_c(s, *p);
	}
	g_string_append(s, "'\n");
}

/* The lines for `eval`: export NAME='value' ..., then one unset line. */
static char *
env_text(const struct desktop *d)
{
	GString *s = g_string_new(NULL);
	const char *value;
	int i, unset = 0;

	for (i = 0; managed_vars[i]; i++) {
		value = var_value(d, managed_vars[i]);
		if (value)
			append_export(s, managed_vars[i], value);
	}
	for (i = 0; managed_vars[i]; i++) {
		if (var_value(d, managed_vars[i]))
			continue;
		g_string_append(s, unset++ ? " " : "unset ");
		g_string_append(s, managed_vars[i]);
	}
	if (unset)
		g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

/* Parses DIR/env back (for cleaning up after a dead supervisor). */
static void
load_env(struct desktop *d)
{
	char *text = read_state_file(d->dir, "env");
	char **lines, **l, *eq, *value;

	if (!text)
		return;
	lines = g_strsplit(text, "\n", -1);
	for (l = lines; *l; l++) {
		if (!g_str_has_prefix(*l, "export "))
			continue;
		eq = strchr(*l, '=');
		if (!eq)
			continue;
		*eq = '\0';
		value = g_shell_unquote(eq + 1, NULL);
		if (!value)
			continue;
		if (!strcmp(*l + 7, "DISPLAY"))
			g_free(d->display), d->display = value;
		else if (!strcmp(*l + 7, "DBUS_SESSION_BUS_ADDRESS"))
			g_free(d->session_addr), d->session_addr = value;
		else if (!strcmp(*l + 7, "AT_SPI_BUS_ADDRESS"))
			g_free(d->a11y_addr), d->a11y_addr = value;
		else
			g_free(value);
	}
	g_strfreev(lines);
	g_free(text);
}

/* ---- state directory -------------------------------------------------- */

static void
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
			        s, "%s %d %llu\n", daemon_info[i].key,
			        (int)d->daemon[i].pid, d->daemon[i].start);
	if (write_state_file(d->dir, "pids", s->str) < 0)
		warn(d, "cannot write %s/pids: %s", d->dir, strerror(errno));
	g_string_free(s, TRUE);
}

/* Reads DIR/pids. Returns the supervisor's entry in *sup. */
static void
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
			if (strcmp(key, daemon_info[i].key) != 0)
				continue;
			d->daemon[i].pid = pid;
			d->daemon[i].start = start;
			d->daemon[i].child = 0;
		}
	}
	g_strfreev(lines);
	g_free(text);
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
static int
supervisor_alive(const char *dir, pid_t *pid_out)
{
	char *text = read_state_file(dir, "supervisor.pid");
	struct desktop tmp = { .dir = (char *)dir, .sigfd = -1 };
	struct proc sup, p;
	char *comm;
	int pid, alive = 0;

	*pid_out = 0;
	if (!text)
		return 0;
	pid = atoi(text);
	g_free(text);
	if (pid <= 1)
		return 0;
	*pid_out = pid;
	load_pids(&tmp, &sup);
	proc_init(&p, pid, 0);
	if (proc_gone(&p) || (sup.pid == pid && sup.start != p.start))
		return 0;
	/* `start` names its supervisor; `run` is the cua binary itself */
	comm = proc_comm(pid);
	alive = (comm && !strcmp(comm, SUPERVISOR_NAME)) || proc_same_exe(pid);
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

/*
 * Creates the state directory: --dir (created, or existing and empty), or
 * $XDG_RUNTIME_DIR/cua/desktop-<pid>, or /tmp/cua-desktop-<uid>-<pid>.
 */
static int
make_state_dir(struct desktop *d)
{
	const char *runtime = base_runtime_dir();
	char *path, *base, *home, *real;
	struct stat st;
	pid_t sup;
	int err;

	if (d->dir_ready)
		return 0;
	if (d->user_dir) {
		path = g_strdup(d->dir);
		if (g_mkdir_with_parents(path, 0700) < 0) {
			fail(d, "cannot create %s: %s", path, strerror(errno));
			g_free(path);
			return -1;
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
			return -1;
		}
	} else {
		if (runtime) {
			base = g_build_filename(runtime, "cua", NULL);
			if (mkdir(base, 0700) < 0 && errno != EEXIST) {
				fail(d, "cannot create %s: %s", base,
				     strerror(errno));
				g_free(base);
				return -1;
			}
			path = g_strdup_printf("%s/desktop-%d", base,
			                       (int)getpid());
			g_free(base);
		} else {
			path = g_strdup_printf("/tmp/cua-desktop-%u-%d",
			                       (unsigned int)getuid(),
			                       (int)getpid());
		}
		if (mkdir(path, 0700) < 0) {
			/* a leftover of an earlier desktop with our pid */
			err = errno;
			if (err != EEXIST || lstat(path, &st) < 0 ||
			    !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
			    supervisor_alive(path, &sup)) {
				fail(d, "cannot create %s: %s", path,
				     strerror(err));
				g_free(path);
				return -1;
			}
			rm_tree(path);
			if (mkdir(path, 0700) < 0) {
				fail(d, "cannot create %s: %s", path,
				     strerror(errno));
				g_free(path);
				return -1;
			}
		}
	}
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

	d->xdg_runtime = g_build_filename(d->dir, "xdg", NULL);
	home = g_build_filename(d->dir, "home", NULL);
	d->xdg_config = g_build_filename(home, "config", NULL);
	d->xdg_data = g_build_filename(home, "data", NULL);
	d->xdg_cache = g_build_filename(home, "cache", NULL);
	d->xdg_state = g_build_filename(home, "state", NULL);
	if (make_subdir(d, d->xdg_runtime) < 0 || make_subdir(d, home) < 0 ||
	    make_subdir(d, d->xdg_config) < 0 ||
	    make_subdir(d, d->xdg_data) < 0 ||
	    make_subdir(d, d->xdg_cache) < 0 ||
	    make_subdir(d, d->xdg_state) < 0) {
		g_free(home);
		return -1;
	}
	g_free(home);
	return 0;
}

/* Removes the state directory, or everything in it but the logs. */
static void
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
			fprintf(stderr,
			        "cua desktop: warning: could not remove %s\n",
			        d->dir);
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

/* ---- D-Bus ------------------------------------------------------------ */

struct connect_op {
	GDBusConnection *conn;
	GError *error;
	int done;
};

static void
connect_done(GObject *source, GAsyncResult *res, gpointer data)
{
	struct connect_op *op = data;

	(void)source;
	op->conn = g_dbus_connection_new_for_address_finish(res, &op->error);
	op->done = 1;
}

static gboolean
connect_timeout(gpointer data)
{
	g_cancellable_cancel(data);
	return G_SOURCE_REMOVE;
}

/*
 * g_dbus_connection_new_for_address_sync() with a deadline: a hung daemon
 * must not hang the teardown.
 */
static GDBusConnection *
bus_connect(struct desktop *d, const char *address, int timeout_ms,
            GError **error)
{
	struct connect_op op = { NULL, NULL, 0 };
	GCancellable *cancel = g_cancellable_new();
	GMainContext *ctx;
	GSource *timer;

	if (!d->ctx)
		d->ctx = g_main_context_new();
	ctx = d->ctx;
	g_main_context_push_thread_default(ctx);
	timer = g_timeout_source_new((guint)timeout_ms);
	g_source_set_callback(timer, connect_timeout, cancel, NULL);
	g_source_attach(timer, ctx);
	g_dbus_connection_new_for_address(
	        address,
	        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
	                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
	        NULL, cancel, connect_done, &op);
	while (!op.done)
		g_main_context_iteration(ctx, TRUE);
	g_source_destroy(timer);
	g_source_unref(timer);
	g_main_context_pop_thread_default(ctx);
	g_object_unref(cancel);
	if (!op.conn)
		g_propagate_error(error, op.error);
	return op.conn;
}

static void
bus_close(struct desktop *d, GDBusConnection **conn)
{
	if (!*conn)
		return;
	g_dbus_connection_close_sync(*conn, NULL, NULL);
	g_object_unref(*conn);
	*conn = NULL;
	/* dispatch the "closed" emission, which holds the last reference */
	while (d->ctx && g_main_context_iteration(d->ctx, FALSE))
		;
}

/* A call that never starts a service by activation. */
static GVariant *
bus_call(GDBusConnection *conn, const char *dest, const char *path,
         const char *iface, const char *method, GVariant *args,
         const char *reply_type, GError **error)
{
	return g_dbus_connection_call_sync(
	        conn, dest, path, iface, method, args,
	        reply_type ? G_VARIANT_TYPE(reply_type) : NULL,
	        G_DBUS_CALL_FLAGS_NO_AUTO_START, CALL_TIMEOUT_MS, NULL, error);
}

static GVariant *
bus_driver_call(GDBusConnection *conn, const char *method, GVariant *args,
                const char *reply_type, GError **error)
{
	return bus_call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus",
	                "org.freedesktop.DBus", method, args, reply_type,
	                error);
}

/* Polls GetNameOwner (which never activates) until name has an owner. */
static int
wait_name_owner(struct desktop *d, GDBusConnection *conn, const char *name,
                const char *bus, enum daemon_id id)
{
	long long deadline = now_ms() + STEP_TIMEOUT_MS;
	GError *error = NULL;
	GVariant *r;
	char buf[64];

	for (;;) {
		r = bus_driver_call(conn, "GetNameOwner",
		                    g_variant_new("(s)", name), "(s)", &error);
		if (r) {
			g_variant_unref(r);
			return 0;
		}
		if (d->daemon[id].reaped) {
			fail_daemon(d, id, "%s exited during startup (%s)",
			            daemon_info[id].name,
			            describe_status(d->daemon[id].status, buf,
			                            sizeof(buf)));
			break;
		}
		if (now_ms() >= deadline) {
			fail_daemon(
			        d, id,
			        "%s did not start within %d s: %s has no owner on the %s bus (%s)",
			        daemon_info[id].name, STEP_TIMEOUT_MS / 1000,
			        name, bus, error->message);
			break;
		}
		g_clear_error(&error);
		if (pause_ms(d, POLL_MS) < 0) {
			fail_interrupted(d);
			break;
		}
	}
	g_clear_error(&error);
	return -1;
}

/*
 * The pids of every connection on the bus at address (apps, activated
 * services), added to pids if not already in it or in exclude.
 */
static void
collect_bus_clients(struct desktop *d, const char *address,
                    const GArray *exclude, GArray *pids)
{
	GError *error = NULL;
	GDBusConnection *conn;
	GVariantIter *iter;
	GVariant *r, *p;
	const char *name;
	guint32 pid;

	conn = bus_connect(d, address, CALL_TIMEOUT_MS, &error);
	if (!conn) {
		note(d, "cannot list the clients of %s: %s", address,
		     error->message);
		g_error_free(error);
		return;
	}
	r = bus_driver_call(conn, "ListNames", NULL, "(as)", &error);
	if (!r) {
		note(d, "ListNames on %s failed: %s", address, error->message);
		g_error_free(error);
		bus_close(d, &conn);
		return;
	}
	g_variant_get(r, "(as)", &iter);
	while (g_variant_iter_next(iter, "&s", &name)) {
		if (name[0] != ':')
			continue;
		p = bus_driver_call(conn, "GetConnectionUnixProcessID",
		                    g_variant_new("(s)", name), "(u)", NULL);
		if (!p)
			continue;
		g_variant_get(p, "(u)", &pid);
		g_variant_unref(p);
		if (pid > 1 && !pid_in(exclude, (pid_t)pid) &&
		    !pid_in(pids, (pid_t)pid))
			g_array_append_val(pids, pid);
	}
	g_variant_iter_free(iter);
	g_variant_unref(r);
	bus_close(d, &conn);
}

/* ---- X11 ---------------------------------------------------------------- */

static int
x_error(Display *dpy, XErrorEvent *ev)
{
	(void)dpy;
	(void)ev;
	return 0; /* checked by reading back */
}

static int
x_io_error(Display *dpy)
{
	(void)dpy;
	return 0;
}

static void
x_io_exit(Display *dpy, void *data)
{
	/* returning marks the connection dead instead of calling exit() */
	(void)dpy;
	(void)data;
}

static int
x_open(struct desktop *d)
{
	XSetErrorHandler(x_error);
	XSetIOErrorHandler(x_io_error);
	d->x = XOpenDisplay(d->display);
	if (!d->x)
		return fail_daemon(d, DAEMON_XVFB, "cannot open X display %s",
		                   d->display);
	XSetIOErrorExitHandler(d->x, x_io_exit, NULL);
	return 0;
}

static void
x_close(struct desktop *d)
{
	if (d->x) {
		XCloseDisplay(d->x);
		d->x = NULL;
	}
}

/* The root window property, as a string (NULL if unset). */
static char *
x_root_property(Display *x, const char *name, Atom type)
{
	unsigned long n, after;
	unsigned char *data = NULL;
	Atom prop, actual;
	char *value = NULL;
	int format;

	prop = XInternAtom(x, name, False);
	if (XGetWindowProperty(x, DefaultRootWindow(x), prop, 0, 4096, False,
	                       type, &actual, &format, &n, &after,
	                       &data) != Success)
		return NULL;
	if (actual == type && n > 0) {
		if (format == 8)
			value = g_strndup((const char *)data, n);
		else
			value = g_strdup("set");
	}
	if (data)
		XFree(data);
	return value;
}

/* ---- start sequence --------------------------------------------------- */

static int
resolve_programs(struct desktop *d)
{
	int i;

	for (i = 0; i < DAEMON_COUNT; i++) {
		if (i == DAEMON_WM && d->no_wm)
			continue;
		d->programs[i] = g_find_program_in_path(daemon_info[i].program);
		if (!d->programs[i] && i != DAEMON_WM)
			return fail(
			        d, "%s is not installed (apt-get install %s)",
			        daemon_info[i].name, daemon_info[i].package);
	}
	return 0;
}

static int
spawn_daemon(struct desktop *d, enum daemon_id id, const char *const argv[],
	     int fd3)
{
	char *log = g_build_filename(d->dir, daemon_info[id].log, NULL);
	char **envp = build_envp(d);
	int error = 0;
	pid_t pid;

	pid = spawn(d->programs[id], (char *const *)argv, envp, log, fd3, &error);
	g_strfreev(envp);
	g_free(log);
	if (pid < 0) {
		if (error == ENOENT)
			return fail(
			        d, "%s is not installed (apt-get install %s)",
			        daemon_info[id].name, daemon_info[id].package);
		return fail(d, "cannot run %s: %s", d->programs[id],
		            strerror(error));
	}
	proc_init(&d->daemon[id], pid, 1);
	write_pids(d);
	note(d, "started %s (pid %d)", daemon_info[id].name, (int)pid);
	return 0;
}

/* Reads the first line a daemon writes to fd (its readiness message). */
static int
read_ready_line(struct desktop *d, int fd, enum daemon_id id, char **line)
{
	long long deadline = now_ms() + STEP_TIMEOUT_MS;
	GString *buf = g_string_new(NULL);
	struct pollfd pfd[2];
	char chunk[256], st[64], *nl;
	ssize_t n;
	int left;

	for (;;) {
		left = (int)(deadline - now_ms());
		if (left <= 0) {
			fail_daemon(d, id, "%s did not start within %d s",
			            daemon_info[id].name,
			            STEP_TIMEOUT_MS / 1000);
			break;
		}
		pfd[0] = (struct pollfd){ .fd = fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = d->sigfd, .events = POLLIN };
		if (poll(pfd, 2, left) < 0 && errno != EINTR) {
			fail(d, "poll: %s", strerror(errno));
			break;
		}
		if (handle_signals(d) < 0) {
			fail_interrupted(d);
			break;
		}
		if (!pfd[0].revents)
			continue;
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n > 0) {
			g_string_append_len(buf, chunk, n);
			nl = strchr(buf->str, '\n');
			if (!nl)
				continue;
			*nl = '\0';
			*line = g_strdup(g_strstrip(buf->str));
			g_string_free(buf, TRUE);
			return 0;
		}
		/* EOF: it exited (or closed the fd) without a word */
		wait_gone(d, &d->daemon[id], 1000);
		if (d->daemon[id].reaped)
			fail_daemon(d, id, "%s exited during startup (%s)",
			            daemon_info[id].name,
			            describe_status(d->daemon[id].status, st,
			                            sizeof(st)));
		else
			fail_daemon(
			        d, id,
			        "%s closed its readiness pipe without writing to it",
			        daemon_info[id].name);
		break;
	}
	g_string_free(buf, TRUE);
	return -1;
}

static int
start_xvfb(struct desktop *d)
{
	const char *argv[] = { "Xvfb", "-displayfd", "3", "-screen", "0",
		         (char *)d->screen, "-nolisten", "tcp",
		         /* keep root properties when the last client leaves */
		         "-noreset", NULL };
	char *line = NULL;
	int fds[2], r;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return fail(d, "pipe: %s", strerror(errno));
	r = spawn_daemon(d, DAEMON_XVFB, argv, fds[1]);
	close(fds[1]);
	if (r == 0)
		r = read_ready_line(d, fds[0], DAEMON_XVFB, &line);
	close(fds[0]);
	if (r < 0 || !line)
		return -1;
	if (!line[0] || strspn(line, "0123456789") != strlen(line)) {
		r = fail_daemon(d, DAEMON_XVFB,
		                "Xvfb wrote \"%s\" instead of a display number",
		                line);
		g_free(line);
		return r;
	}
	d->display = g_strconcat(":", line, NULL);
	g_free(line);
	return 0;
}

static int
start_dbus(struct desktop *d)
{
	const char *argv[] = { "dbus-daemon", "--session",         "--nofork",
		         "--nopidfile", "--print-address=3", NULL };
	GError *error = NULL;
	int fds[2], r;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return fail(d, "pipe: %s", strerror(errno));
	r = spawn_daemon(d, DAEMON_DBUS, argv, fds[1]);
	close(fds[1]);
	if (r == 0)
		r = read_ready_line(d, fds[0], DAEMON_DBUS, &d->session_addr);
	close(fds[0]);
	if (r < 0)
		return -1;
	d->session_bus =
	        bus_connect(d, d->session_addr, STEP_TIMEOUT_MS, &error);
	if (!d->session_bus) {
		r = fail_daemon(d, DAEMON_DBUS,
		                "cannot connect to the session bus %s: %s",
		                d->session_addr, error->message);
		g_error_free(error);
		return r;
	}
	return 0;
}

static int
start_launcher(struct desktop *d)
{
	const char *argv[] = { "at-spi-bus-launcher", "--launch-immediately", NULL };
	GError *error = NULL;
	GVariant *r;

	if (spawn_daemon(d, DAEMON_LAUNCHER, argv, -1) < 0 ||
	    wait_name_owner(d, d->session_bus, "org.a11y.Bus", "session",
	                    DAEMON_LAUNCHER) < 0)
		return -1;
	r = bus_call(d->session_bus, "org.a11y.Bus", "/org/a11y/bus",
	             "org.a11y.Bus", "GetAddress", NULL, "(s)", &error);
	if (!r) {
		fail_daemon(d, DAEMON_LAUNCHER,
		            "org.a11y.Bus.GetAddress failed: %s",
		            error->message);
		g_error_free(error);
		return -1;
	}
	g_variant_get(r, "(s)", &d->a11y_addr);
	g_variant_unref(r);
	/* Exported and published without its guid: when the bus dies,
	 * at-spi-bus-launcher is started again (D-Bus activation) on the
	 * same socket with a new guid, and libdbus refuses an address whose
	 * guid does not match, so apps started after that could never
	 * register. */
	if (!strchr(d->a11y_addr, ';')) {
		char *g = strstr(d->a11y_addr, ",guid=");
		char *end = g ? strchr(g + 1, ',') : NULL;

		if (g && end)
			memmove(g, end, strlen(end) + 1);
		else if (g)
			*g = '\0';
	}
	if (!d->a11y_addr[0])
		return fail_daemon(
		        d, DAEMON_LAUNCHER,
		        "at-spi-bus-launcher has no accessibility bus (GetAddress returned \"\")");
	d->a11y_bus = bus_connect(d, d->a11y_addr, STEP_TIMEOUT_MS, &error);
	if (!d->a11y_bus) {
		fail_daemon(d, DAEMON_LAUNCHER,
		            "cannot connect to the accessibility bus %s: %s",
		            d->a11y_addr, error->message);
		g_error_free(error);
		return -1;
	}
	return 0;
}

static int
start_registryd(struct desktop *d)
{
	const char *argv[] = { "at-spi2-registryd", NULL };

	if (spawn_daemon(d, DAEMON_REGISTRYD, argv, -1) < 0)
		return -1;
	return wait_name_owner(d, d->a11y_bus, "org.a11y.atspi.Registry",
	                       "accessibility", DAEMON_REGISTRYD);
}

/*
 * Qt 5 needs AT_SPI_BUS on the root window (or it races and may never
 * register), Chromium needs org.a11y.Status.IsEnabled, and services the
 * session bus activates should know the a11y bus too.
 */
static int
publish_a11y(struct desktop *d)
{
	GError *error = NULL;
	GVariantBuilder env;
	GVariant *r;
	char *back;
	Atom prop;

	if (!d->x && x_open(d) < 0)
		return -1;
	prop = XInternAtom(d->x, "AT_SPI_BUS", False);
	XChangeProperty(d->x, DefaultRootWindow(d->x), prop, XA_STRING, 8,
	                PropModeReplace, (unsigned char *)d->a11y_addr,
	                (int)strlen(d->a11y_addr));
	XSync(d->x, False);
	back = x_root_property(d->x, "AT_SPI_BUS", XA_STRING);
	if (!back || strcmp(back, d->a11y_addr) != 0) {
		g_free(back);
		return fail_daemon(
		        d, DAEMON_XVFB,
		        "cannot set the AT_SPI_BUS property on the root window of %s",
		        d->display);
	}
	g_free(back);

	r = bus_call(d->session_bus, "org.a11y.Bus", "/org/a11y/bus",
	             "org.freedesktop.DBus.Properties", "Set",
	             g_variant_new("(ssv)", "org.a11y.Status", "IsEnabled",
	                           g_variant_new_boolean(TRUE)),
	             NULL, &error);
	if (!r) {
		fail_daemon(d, DAEMON_LAUNCHER,
		            "cannot set org.a11y.Status.IsEnabled: %s",
		            error->message);
		g_error_free(error);
		return -1;
	}
	g_variant_unref(r);

	g_variant_builder_init(&env, G_VARIANT_TYPE("a{ss}"));
	g_variant_builder_add(&env, "{ss}", "AT_SPI_BUS_ADDRESS", d->a11y_addr);
	r = bus_driver_call(d->session_bus, "UpdateActivationEnvironment",
	                    g_variant_new("(a{ss})", &env), NULL, &error);
	if (r) {
		g_variant_unref(r);
	} else {
		warn(d, "UpdateActivationEnvironment failed: %s",
		     error->message);
		g_error_free(error);
	}
	return 0;
}

static int
start_wm(struct desktop *d)
{
	const char *argv[] = { "openbox", "--sm-disable", NULL };
	long long deadline;
	char *check, st[64];

	if (!d->programs[DAEMON_WM]) {
		warn(d,
		     "openbox is not installed (apt-get install openbox); continuing without a window manager");
		return 0;
	}
	if (spawn_daemon(d, DAEMON_WM, argv, -1) < 0)
		return -1;
	deadline = now_ms() + STEP_TIMEOUT_MS;
	for (;;) {
		check = x_root_property(d->x, "_NET_SUPPORTING_WM_CHECK",
		                        XA_WINDOW);
		if (check) {
			g_free(check);
			return 0;
		}
		if (d->daemon[DAEMON_WM].reaped)
			return fail_daemon(
			        d, DAEMON_WM,
			        "openbox exited during startup (%s)",
			        describe_status(d->daemon[DAEMON_WM].status, st,
			                        sizeof(st)));
		if (now_ms() >= deadline)
			return fail_daemon(
			        d, DAEMON_WM,
			        "openbox did not start within %d s (no _NET_SUPPORTING_WM_CHECK on the root window)",
			        STEP_TIMEOUT_MS / 1000);
		if (pause_ms(d, POLL_MS) < 0)
			return fail_interrupted(d);
	}
}

static int
desktop_start(struct desktop *d)
{
	char *text, pid[32];
	int r;

	if (resolve_programs(d) < 0 || make_state_dir(d) < 0)
		return -1;
	note(d, "state directory %s", d->dir);
	write_pids(d);
	r = start_xvfb(d);
	if (r == 0)
		r = start_dbus(d);
	if (r == 0)
		r = start_launcher(d);
	if (r == 0)
		r = start_registryd(d);
	if (r == 0)
		r = publish_a11y(d);
	if (r == 0 && !d->no_wm)
		r = start_wm(d);
	/* the connections are not needed while the desktop runs */
	x_close(d);
	bus_close(d, &d->a11y_bus);
	bus_close(d, &d->session_bus);
	if (r < 0)
		return -1;

	text = env_text(d);
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (write_state_file(d->dir, "env", text) < 0 ||
	    write_state_file(d->dir, "supervisor.pid", pid) < 0)
		r = fail(d,
		         "cannot write to %s: %s (free some space, or set "
		         "XDG_RUNTIME_DIR to a writable directory)",
		         d->dir, strerror(errno));
	g_free(text);
	return r;
}

/* ---- teardown --------------------------------------------------------- */

/* Every client of both buses, except our daemons and those to keep. */
static void
stop_bus_clients(struct desktop *d)
{
	GArray *exclude = g_array_new(FALSE, FALSE, sizeof(pid_t));
	GArray *pids = g_array_new(FALSE, FALSE, sizeof(pid_t));
	struct proc *victims;
	char *keep, **lines, **l, *comm;
	long long deadline;
	guint i, left;
	pid_t pid;
	int j;

	for (j = 0; j < DAEMON_COUNT; j++)
		if (d->daemon[j].pid > 0)
			g_array_append_val(exclude, d->daemon[j].pid);
	add_self_and_ancestors(exclude);
	/* `stop` lists itself and its ancestors: a test harness may be a
	 * client of the buses and still want to live after `stop` */
	keep = read_state_file(d->dir, "keep");
	if (keep) {
		lines = g_strsplit(keep, "\n", -1);
		for (l = lines; *l; l++) {
			pid = (pid_t)atoi(*l);
			if (pid > 1)
				g_array_append_val(exclude, pid);
		}
		g_strfreev(lines);
		g_free(keep);
	}

	if (d->a11y_addr)
		collect_bus_clients(d, d->a11y_addr, exclude, pids);
	if (d->session_addr)
		collect_bus_clients(d, d->session_addr, exclude, pids);

	victims = g_new0(struct proc, pids->len ? pids->len : 1);
	for (i = 0; i < pids->len; i++) {
		proc_init(&victims[i], g_array_index(pids, pid_t, i), 0);
		comm = proc_comm(victims[i].pid);
		note(d, "stopping bus client %d (%s)", (int)victims[i].pid,
		     comm ? comm : "?");
		g_free(comm);
		proc_kill(&victims[i], SIGTERM);
	}
	/* those that are our children (orphans reparented to us) turn
	 * into zombies, which proc_gone() counts as gone; reap_children()
	 * collects them */
	deadline = now_ms() + TERM_WAIT_MS;
	for (;;) {
		reap_children(d);
		left = 0;
		for (i = 0; i < pids->len; i++)
			if (!proc_gone(&victims[i]))
				left++;
		if (!left || now_ms() >= deadline)
			break;
		pause_ms(d, 10);
	}
	for (i = 0; i < pids->len; i++) {
		if (proc_gone(&victims[i]))
			continue;
		note(d, "bus client %d ignored SIGTERM; sending SIGKILL",
		     (int)victims[i].pid);
		proc_kill(&victims[i], SIGKILL);
	}
	for (i = 0; i < pids->len; i++)
		wait_gone(d, &victims[i], 200);
	g_free(victims);
	g_array_free(pids, TRUE);
	g_array_free(exclude, TRUE);
}

/* SIGKILLs and reaps every remaining child (orphans come to us). */
static void
sweep_children(struct desktop *d)
{
	long long deadline = now_ms() + SWEEP_MS;
	struct dirent *e;
	pid_t self = getpid(), pid, ppid;
	char state;
	int found;
	DIR *proc;

	for (;;) {
		reap_children(d);
		found = 0;
		proc = opendir("/proc");
		if (!proc)
			break;
		while ((e = readdir(proc))) {
			pid = (pid_t)atoi(e->d_name);
			if (pid <= 1 || pid == self ||
			    proc_stat(pid, &state, &ppid, NULL) < 0 ||
			    ppid != self)
				continue;
			found++;
			if (state != 'Z') {
				char *comm = proc_comm(pid);

				note(d, "killing leftover process %d (%s)",
				     (int)pid, comm ? comm : "?");
				g_free(comm);
				kill(pid, SIGKILL);
			}
		}
		closedir(proc);
		if (!found || now_ms() >= deadline)
			break;
		pause_ms(d, 10);
	}
	reap_children(d);
}

static void
desktop_teardown(struct desktop *d)
{
	static const enum daemon_id order[] = { DAEMON_WM, DAEMON_REGISTRYD,
		                                DAEMON_LAUNCHER, DAEMON_DBUS,
		                                DAEMON_XVFB };
	size_t i;
	int own = d->sigfd >= 0; /* the supervisor, not `stop` */

	d->tearing_down = 1;
	x_close(d);
	bus_close(d, &d->a11y_bus);
	bus_close(d, &d->session_bus);
	if (d->cmd.pid > 0)
		stop_proc(d, &d->cmd, d->stop_signal ? d->stop_signal : SIGTERM,
		          "command");
	if (d->session_addr || d->a11y_addr)
		stop_bus_clients(d);
	for (i = 0; i < G_N_ELEMENTS(order); i++)
		stop_proc(d, &d->daemon[order[i]], SIGTERM,
		          daemon_info[order[i]].name);
	if (own)
		sweep_children(d);
	remove_state_dir(d);
}

static void
desktop_free(struct desktop *d)
{
	int i;

	g_free(d->dir);
	g_free(d->xdg_runtime);
	g_free(d->xdg_config);
	g_free(d->xdg_data);
	g_free(d->xdg_cache);
	g_free(d->xdg_state);
	for (i = 0; i < DAEMON_COUNT; i++)
		g_free(d->programs[i]);
	g_free(d->display);
	g_free(d->session_addr);
	g_free(d->a11y_addr);
	g_free(d->err);
	if (d->ctx)
		g_main_context_unref(d->ctx);
	if (d->sigfd >= 0)
		close(d->sigfd);
}

/*
 * Makes this process a supervisor: child subreaper, with the stop signals
 * and SIGCHLD delivered through a signalfd. Must run before any thread
 * exists (GDBus starts one), so that every thread blocks them.
 */
static int
become_supervisor(struct desktop *d)
{
	sigset_t set;

	/* an inherited SIG_IGN would discard them even while blocked */
	signal(SIGTERM, SIG_DFL);
	if (!d->run_mode) {
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return fail(d, "sigprocmask: %s", strerror(errno));
	d->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->sigfd < 0)
		return fail(d, "signalfd: %s", strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return fail(d, "prctl(PR_SET_CHILD_SUBREAPER): %s",
		            strerror(errno));
	return 0;
}

/* ---- subcommands ------------------------------------------------------- */

static void
usage(FILE *f)
{
	fputs("usage: cua desktop start [--dir DIR] [--screen WxHxD] [--no-wm]\n"
	      "       cua desktop stop [--dir DIR]\n"
	      "       cua desktop run [--dir DIR] [--screen WxHxD] [--no-wm] -- CMD [ARG...]\n"
	      "\n"
	      "start  starts a headless desktop (Xvfb, private D-Bus session bus,\n"
	      "       AT-SPI, openbox) and prints export lines for eval:\n"
	      "         eval \"$(cua desktop start)\"\n"
	      "stop   stops the desktop in DIR or $CUA_DESKTOP_DIR, with every\n"
	      "       client of its buses, and removes DIR\n"
	      "run    runs CMD in a fresh desktop, tears it down afterwards and\n"
	      "       exits with CMD's status\n"
	      "\n"
	      "  --dir DIR        state directory (default $XDG_RUNTIME_DIR/cua/desktop-PID\n"
	      "                   or /tmp/cua-desktop-UID-PID); must be new or empty\n"
	      "  --screen WxHxD   screen size and depth (default 1280x1024x24)\n"
	      "  --no-wm          do not start a window manager\n",
	      f);
}

static int
valid_screen(const char *s)
{
	unsigned int w, h, depth;
	char end;

	return sscanf(s, "%ux%ux%u%c", &w, &h, &depth, &end) == 3 && w > 0 &&
	       h > 0 && w <= 32767 && h <= 32767 && depth > 0 && depth <= 32 &&
	       strspn(s, "0123456789x") == strlen(s);
}

/*
 * Parses options up to "--" or the first operand. Returns the index of the
 * first operand, -1 after printing a usage error, -2 after printing help.
 */
static int
parse_options(struct desktop *d, int argc, char **argv, int allow_start)
{
	const char *arg, *value;
	size_t len;
	int i;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-')
			break;
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			return -2;
		}
		if (allow_start && !strcmp(arg, "--no-wm")) {
			d->no_wm = 1;
			continue;
		}
		value = NULL;
		if (!strncmp(arg, "--dir", 5))
			len = 5;
		else if (allow_start && !strncmp(arg, "--screen", 8))
			len = 8;
		else
			len = 0;
		if (len && arg[len] == '=')
			value = arg + len + 1;
		else if (len && arg[len] == '\0' && i + 1 < argc)
			value = argv[++i];
		else if (len && arg[len] == '\0') {
			fprintf(stderr, "cua desktop %s: %s needs a value\n",
			        argv[0], arg);
			return -1;
		} else {
			fprintf(stderr, "cua desktop %s: unknown option '%s'\n",
			        argv[0], arg);
			return -1;
		}
		if (len == 5) {
			if (!value[0]) {
				fprintf(stderr, "cua desktop %s: empty --dir\n",
				        argv[0]);
				return -1;
			}
			g_free(d->dir);
			d->dir = g_strdup(value);
			d->user_dir = 1;
		} else {
			if (!valid_screen(value)) {
				fprintf(stderr,
				        "cua desktop %s: bad --screen '%s' (expected WxHxD, e.g. 1280x1024x24)\n",
				        argv[0], value);
				return -1;
			}
			d->screen = value;
		}
	}
	return i;
}

/*
 * The supervisor forked by `start`. Reports through report_fd: records of
 * a tag ('W' warning, 'E' error, 'R' ready with the export lines) and a
 * NUL-terminated text.
 */
static int
supervisor_main(struct desktop *d, int report_fd)
{
	char *log, *text, sig[32];
	int nul, fd;

	setsid();
	prctl(PR_SET_NAME, SUPERVISOR_NAME, 0, 0, 0);
	if (d->owner) {
		/* the owner's exit (even SIGKILL) stops the desktop */
		prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
		if (getppid() != d->owner)
			return 1;
	}
	/* our stdout is the caller's $(...): let go of it at once */
	d->report_fd = fcntl(report_fd, F_DUPFD_CLOEXEC, 3);
	nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (d->report_fd < 0 || nul < 0)
		return 1;
	dup2(nul, 0);
	dup2(nul, 1);
	dup2(nul, 2);
	close_fds_from(3, (unsigned int)d->report_fd - 1);
	close_fds_from((unsigned int)d->report_fd + 1, ~0U);

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
	text = env_text(d);
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
	note(d, "ready on %s", d->display);

	while (handle_signals(d) == 0) {
		struct pollfd pfd = { .fd = d->sigfd, .events = POLLIN };

		poll(&pfd, 1, -1);
	}
	note(d, "stopping on %s",
	     signal_name(d->stop_signal, sig, sizeof(sig)));
	desktop_teardown(d);
	return 0;
}

/* Forks the supervisor and waits until it reports; *env_text receives
 * the export lines (g_free). */
static int
start_detached(struct desktop *d, char **env_text)
{
	long long deadline;
	GString *buf = g_string_new(NULL);
	char chunk[4096], st[64];
	int fds[2], status = 0, result = -1;
	size_t used = 0, len;
	pid_t pid;
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		fprintf(stderr, "cua desktop: pipe: %s\n", strerror(errno));
		return 1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "cua desktop: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		close(fds[0]);
		status = supervisor_main(d, fds[1]);
		fflush(stdout);
		fflush(stderr);
		_exit(status);
	}
	close(fds[1]);

	deadline = now_ms() + START_WAIT_MS;
	while (result < 0) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		int left = (int)(deadline - now_ms());

		if (left <= 0) {
			fprintf(stderr,
			        "cua desktop: the desktop did not start within %d s; stopping it\n",
			        START_WAIT_MS / 1000);
			kill(pid, SIGTERM);
			result = 1;
			break;
		}
		if (poll(&pfd, 1, left) <= 0)
			continue;
		n = read(fds[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			waitpid(pid, &status, 0);
			fprintf(stderr,
			        "cua desktop: the desktop supervisor exited before the desktop was ready (%s)\n",
			        describe_status(status, st, sizeof(st)));
			result = 1;
			break;
		}
		g_string_append_len(buf, chunk, n);
		/* complete records */
		while ((len = strnlen(buf->str + used, buf->len - used)) <
		       buf->len - used) {
			const char *rec = buf->str + used;

			used += len + 1;
			if (rec[0] == 'W') {
				fprintf(stderr, "cua desktop: warning: %s\n",
				        rec + 1);
			} else if (rec[0] == 'E') {
				fprintf(stderr, "cua desktop: %s\n", rec + 1);
				waitpid(pid, NULL, 0);
				result = 1;
				break;
			} else if (rec[0] == 'R') {
				*env_text = g_strdup(rec + 1);
				result = 0;
				break;
			}
		}
	}
	close(fds[0]);
	g_string_free(buf, TRUE);
	return result;
}

static int
cmd_start(struct desktop *d)
{
	char *text = NULL;

	if (start_detached(d, &text) != 0)
		return 1;
	fputs(text, stdout);
	fflush(stdout);
	g_free(text);
	return 0;
}

static int
cmd_stop(struct desktop *d)
{
	GString *keep;
	GArray *self;
	struct proc sup;
	pid_t pid;
	long long deadline;
	const char *dir = d->dir;
	char *pidfile;
	struct stat st;
	guint i;
	int result = 0;

	if (!dir)
		dir = getenv("CUA_DESKTOP_DIR");
	if (!dir || !dir[0]) {
		fprintf(stderr,
		        "cua desktop stop: no desktop given: pass --dir DIR or set CUA_DESKTOP_DIR\n");
		return 1;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "cua desktop stop: no desktop in %s: %s\n", dir,
		        strerror(errno ? errno : ENOTDIR));
		return 1;
	}
	if (dir != d->dir) {
		g_free(d->dir);
		d->dir = g_strdup(dir);
	}
	pidfile = read_state_file(d->dir, "supervisor.pid");
	if (!pidfile) {
		fprintf(stderr,
		        "cua desktop stop: no desktop in %s (no supervisor.pid)\n",
		        d->dir);
		return 1;
	}
	g_free(pidfile);

	if (supervisor_alive(d->dir, &pid)) {
		/* ourselves and our ancestors must survive the teardown */
		self = g_array_new(FALSE, FALSE, sizeof(pid_t));
		add_self_and_ancestors(self);
		keep = g_string_new(NULL);
		for (i = 0; i < self->len; i++)
			g_string_append_printf(
			        keep, "%d\n",
			        (int)g_array_index(self, pid_t, i));
		write_state_file(d->dir, "keep", keep->str);
		g_string_free(keep, TRUE);
		g_array_free(self, TRUE);

		proc_init(&sup, pid, 0);
		if (kill(pid, SIGTERM) < 0) {
			fprintf(stderr,
			        "cua desktop stop: cannot signal the supervisor (pid %d): %s\n",
			        (int)pid, strerror(errno));
			return 1;
		}
		deadline = now_ms() + STOP_WAIT_MS;
		while (!proc_gone(&sup) && now_ms() < deadline)
			pause_ms(d, POLL_MS);
		if (proc_gone(&sup)) {
			if (access(d->dir, F_OK) < 0)
				return 0;
			/* it died without removing the directory */
		} else {
			fprintf(stderr,
			        "cua desktop stop: the supervisor (pid %d) did not exit within %d s; killing it\n",
			        (int)pid, STOP_WAIT_MS / 1000);
			kill(pid, SIGKILL);
			wait_gone(d, &sup, KILL_WAIT_MS);
			result = 1;
		}
	} else {
		fprintf(stderr,
		        "cua desktop stop: the desktop in %s is not running (supervisor pid %d is gone); cleaning up what it left\n",
		        d->dir, (int)pid);
		result = 1;
	}

	/* clean up after a dead supervisor, from its state files */
	d->dir_ready = 1;
	load_env(d);
	load_pids(d, &sup);
	desktop_teardown(d);
	return result;
}

static int
cmd_run(struct desktop *d, char **cmd_argv)
{
	char **envp, *path, sig[32];
	int error = 0, status = 1;

	if (strchr(cmd_argv[0], '/')) {
		path = g_strdup(cmd_argv[0]);
	} else {
		path = g_find_program_in_path(cmd_argv[0]);
		if (!path) {
			fprintf(stderr,
			        "cua desktop run: %s: command not found\n",
			        cmd_argv[0]);
			return 127;
		}
	}
	d->run_mode = 1;
	d->verbose = getenv("CUA_DESKTOP_DEBUG") != NULL;
	if (become_supervisor(d) < 0 || desktop_start(d) < 0) {
		desktop_teardown(d);
		g_free(path);
		if (d->stop_signal)
			return 128 + d->stop_signal;
		fprintf(stderr, "cua desktop run: %s\n", d->err);
		return 1;
	}
	d->ready = 1;

	envp = build_envp(d);
	d->cmd.pid = spawn(path, cmd_argv, envp, NULL, -1, &error);
	g_strfreev(envp);
	if (d->cmd.pid < 0) {
		d->cmd.pid = 0;
		fprintf(stderr, "cua desktop run: cannot run %s: %s\n", path,
		        strerror(error));
		status = error == ENOENT ? 127 : 126;
	} else {
		d->cmd.child = 1;
		for (;;) {
			struct pollfd pfd = { .fd = d->sigfd,
				              .events = POLLIN };

			/* handle_signals() reaps: check cmd after it */
			if (handle_signals(d) < 0 || d->cmd.reaped)
				break;
			poll(&pfd, 1, -1);
		}
		if (!d->cmd.reaped)
			note(d, "stopping on %s",
			     signal_name(d->stop_signal, sig, sizeof(sig)));
	}
	g_free(path);
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

static void
desktop_init(struct desktop *d)
{
	memset(d, 0, sizeof(*d));
	d->sigfd = -1;
	d->report_fd = -1;
	d->screen = "1280x1024x24";
}

int
cua_desktop_start_owned(char **env)
{
	struct desktop d;
	char *text = NULL;
	int r;

	*env = NULL;
	desktop_init(&d);
	d.owner = getpid();
	r = start_detached(&d, &text);
	desktop_free(&d);
	if (r != 0)
		return -1;
	*env = strdup(text);
	g_free(text);
	return *env ? 0 : -1;
}

int
cua_desktop_stop_dir(const char *dir)
{
	struct desktop d;
	int r;

	desktop_init(&d);
	d.dir = g_strdup(dir);
	d.user_dir = 1;
	r = cmd_stop(&d);
	desktop_free(&d);
	return r == 0 ? 0 : -1;
}

int
cua_desktop_main(int argc, char **argv)
{
	struct desktop d;
	const char *sub;
	int first, r;

	desktop_init(&d);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	sub = argv[1];
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help") ||
	    !strcmp(sub, "help")) {
		usage(stdout);
		return 0;
	}
	if (strcmp(sub, "start") != 0 && strcmp(sub, "stop") != 0 &&
	    strcmp(sub, "run") != 0) {
		fprintf(stderr, "cua desktop: unknown subcommand '%s'\n", sub);
		usage(stderr);
		return 2;
	}
	first = parse_options(&d, argc - 1, argv + 1, strcmp(sub, "stop") != 0);
	if (first < 0) {
		desktop_free(&d);
		return first == -2 ? 0 : 2;
	}
	first += 1; /* index in argv */
	if (!strcmp(sub, "run")) {
		if (first >= argc) {
			fprintf(stderr, "cua desktop run: no command given\n");
			desktop_free(&d);
			return 2;
		}
		r = cmd_run(&d, argv + first);
	} else if (first < argc) {
		fprintf(stderr, "cua desktop %s: unexpected argument '%s'\n",
		        sub, argv[first]);
		desktop_free(&d);
		return 2;
	} else if (!strcmp(sub, "start")) {
		r = cmd_start(&d);
	} else {
		r = cmd_stop(&d);
	}
	desktop_free(&d);
	return r;
}
