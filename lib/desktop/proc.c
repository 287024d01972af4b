/*
 * Headless desktops: processes and signals. /proc lookups that survive
 * pid reuse (a pid and its start time name one process), fork + exec with
 * only async-signal-safe calls in between, and the supervisor's signal and
 * reaping loop.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "desktop.h"

long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *
signal_name(int sig, char *buf, size_t size)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else
		snprintf(buf, size, "signal %d", sig);
	return buf;
}

const char *
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

void
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

/* ---- /proc ------------------------------------------------------------- */

int
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

char *
proc_comm(pid_t pid)
{
	char path[64], *text = NULL;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	g_strchomp(text);
	return text;
}

/* Has p exited (or been replaced by another process with its pid)? */
int
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

void
proc_init(struct proc *p, pid_t pid, int child)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->child = child;
	if (proc_stat(pid, NULL, NULL, &p->start) < 0)
		p->start = 0;
}

void
proc_kill(const struct proc *p, int sig)
{
	if (p->pid > 1 && p->pid != getpid() && !proc_gone(p))
		kill(p->pid, sig);
}

int
pid_in(const GArray *pids, pid_t pid)
{
	guint i;

	for (i = 0; i < pids->len; i++)
		if (g_array_index(pids, pid_t, i) == pid)
			return 1;
	return 0;
}

/* Appends our own pid and those of all our ancestors. */
void
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

/* ---- children and signals ------------------------------------------- */

/*
 * Reaps the supervisor's children. Elsewhere (a stop in a library
 * caller) nothing is reaped: the caller's other children are not ours.
 */
void
reap_children(struct desktop *d)
{
	char buf[64];
	pid_t pid;
	int status, i;

	if (!d->supervisor)
		return;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == d->cmd.pid && d->cmd.child && !d->cmd.reaped) {
			d->cmd.reaped = 1;
			d->cmd.status = status;
			continue;
		}
		if (pid == d->fixes.pid && d->fixes.child && !d->fixes.reaped) {
			d->fixes.reaped = 1;
			d->fixes.status = status;
			continue;
		}
		if (pid == d->helper.pid && d->helper.child &&
		    !d->helper.reaped) {
			d->helper.reaped = 1;
			d->helper.status = status;
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
				     desktop_daemon(d, i)->name, (int)pid,
				     describe_status(status, buf, sizeof(buf)));
		}
	}
}

/* Has the owner (the process the desktop stops with) gone? */
static int
owner_gone(struct desktop *d)
{
	struct pollfd pfd = { .fd = d->owner_fd, .events = POLLIN };
	char c;

	if (d->owner_fd < 0 || poll(&pfd, 1, 0) <= 0)
		return 0;
	if ((pfd.revents & POLLIN) && read(d->owner_fd, &c, 1) > 0)
		return 0; /* nobody writes to it; ignore */
	/* every copy of the other end is closed: stop once, and poll it no
	 * more (a hung-up pipe would wake every poll at once) */
	close(d->owner_fd);
	d->owner_fd = -1;
	return 1;
}

/*
 * Drains the signalfd, checks the owner and reaps children. Returns -1
 * once a stop signal (SIGTERM, SIGINT, SIGHUP) has arrived or the owner
 * has gone (which counts as SIGTERM).
 */
int
handle_signals(struct desktop *d)
{
	struct signalfd_siginfo si;

	while (d->sigfd >= 0 &&
	       read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo != SIGCHLD && !d->stop_signal)
			d->stop_signal = (int)si.ssi_signo;
	}
	if (owner_gone(d)) {
		note(d, "the process that owns the desktop has exited");
		if (!d->stop_signal)
			d->stop_signal = SIGTERM;
	}
	reap_children(d);
	return d->stop_signal ? -1 : 0;
}

/* Sleeps up to ms, waking up for signals. -1 if asked to stop. */
int
pause_ms(struct desktop *d, int ms)
{
	struct pollfd pfd[2] = {
		{ .fd = d->sigfd, .events = POLLIN },
		{ .fd = d->owner_fd, .events = POLLIN },
	};

	if (ms > 50)
		ms = 50;
	if (ms > 0)
		poll(pfd, 2, ms);
	return handle_signals(d);
}

/* Waits until p is gone; 0 if it is, -1 on timeout. */
int
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

/* sig (SIGTERM), then SIGKILL after TERM_WAIT_MS. */
void
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

/* The child's side of spawn(): async-signal-safe calls only (the parent
 * may have threads). Returns only on failure, with errno set. */
static void
spawn_child(const char *path, char *const argv[], char *const envp[],
	    const struct spawn_opts *o, int efd)
{
	sigset_t none;
	int nul, lfd, keep, a, b;

	sigemptyset(&none);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (o->pgrp) /* best effort: a group that is gone stays ours */
		setpgid(0, o->pgrp > 0 ? o->pgrp : 0);
	if (o->log_path) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		setsid();
		if (o->fd3 == 3)
			fcntl(3, F_SETFD, 0);
		else if (o->fd3 >= 0 && dup2(o->fd3, 3) < 0)
			return;
		nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
		lfd = open(o->log_path,
			   O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		if (nul < 0 || lfd < 0 || dup2(nul, 0) < 0 ||
		    dup2(lfd, 1) < 0 || dup2(lfd, 2) < 0)
			return;
		keep = o->fd3 >= 0 ? 4 : 3;
	} else if (!o->keep_fds) {
		/* out of the way first: either may be 3 or 4 already */
		a = o->fd3 >= 0 ? fcntl(o->fd3, F_DUPFD_CLOEXEC, 10) : -1;
		b = o->fd4 >= 0 ? fcntl(o->fd4, F_DUPFD_CLOEXEC, 10) : -1;
		if ((o->fd3 >= 0 && (a < 0 || dup2(a, 3) < 0)) ||
		    (o->fd4 >= 0 && (b < 0 || dup2(b, 4) < 0)))
			return;
		if (o->null_stdio) {
			nul = open("/dev/null", O_RDWR | O_CLOEXEC);
			if (nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 ||
			    dup2(nul, 2) < 0)
				return;
		}
		keep = o->fd4 >= 0 ? 5 : o->fd3 >= 0 ? 4 : 3;
	} else {
		keep = -1;
	}
	if (keep >= 0) {
		close_fds_from((unsigned int)keep, (unsigned int)efd - 1);
		close_fds_from((unsigned int)efd + 1, ~0U);
	}
	execve(path, argv, envp);
}

pid_t
spawn(const char *path, char *const argv[], char *const envp[],
      const struct spawn_opts *opts, int *error)
{
	static const struct spawn_opts plain = { .fd3 = -1,
						 .fd4 = -1,
						 .keep_fds = 1 };
	const struct spawn_opts *o = opts ? opts : &plain;
	int ep[2], err = 0, efd, status;
	ssize_t n;
	pid_t pid, grandchild;

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
		/* above the descriptors the child sets up */
		efd = fcntl(ep[1], F_DUPFD_CLOEXEC, 10);
		if (efd >= 0 && o->detach) {
			grandchild = fork();
			if (grandchild > 0)
				_exit(0);
			if (grandchild < 0)
				efd = -1;
		}
		if (efd >= 0)
			spawn_child(path, argv, envp, o, efd);
		err = errno;
		n = write(efd >= 0 ? efd : ep[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(ep[1]);
	if (o->detach) /* the intermediate child exits at once */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	do
		n = read(ep[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(ep[0]);
	if (n == (ssize_t)sizeof(err)) {
		if (!o->detach)
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		*error = err;
		return -1;
	}
	return o->detach ? 0 : pid;
}

/* SIGKILLs and reaps every remaining child (orphans come to us). */
void
sweep_children(struct desktop *d)
{
	long long deadline = now_ms() + SWEEP_MS;
	struct dirent *e;
	pid_t self = getpid(), pid, ppid;
	char state, *comm;
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
				comm = proc_comm(pid);
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

/*
 * Makes this process a supervisor: child subreaper, with the stop signals
 * and SIGCHLD delivered through a signalfd. Must run before any thread
 * exists (GDBus starts one), so that every thread blocks them. In run
 * mode, an inherited SIG_IGN of SIGINT or SIGHUP (nohup, a background
 * job) is kept: the command runs under the same rule.
 */
int
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
	d->supervisor = 1;
	return 0;
}
