/*
 * Headless desktops, kind "sway": letting the desktop's user reach
 * Xwayland when sway runs under another uid.
 *
 * Xwayland, started by sway (wlroots starts it on the first X11
 * connection), runs as sway's uid and gets no authorization file: it
 * admits local connections of its own uid only. A root supervisor runs
 * sway as uid 65534 while the desktop's apps run as root, so its X11
 * clients would be turned away ("Authorization required"). A child of
 * the supervisor therefore takes sway's uid, connects to the X server
 * and adds the supervisor's user to its access list (the X11
 * ChangeHosts request, family ServerInterpreted, "localuser" and the
 * user name: what `xhost +si:localuser:NAME` sends). That first
 * connection also starts Xwayland; the desktop waits for the child's
 * word before it reports ready, after the buses started meanwhile.
 *
 * The child stays connected while the desktop runs: Xwayland runs with
 * -terminate and ends when its last client leaves, and one started again
 * has an access list without the user. (Measured: with a child that left
 * at once, X11 clients were turned away in 2 of 6 starts.) It reads and
 * drops what the server sends (MappingNotify reaches every client) and
 * exits when the server closes the connection, at the desktop's end.
 *
 * The child only makes system calls (the supervisor may have threads):
 * everything it sends is built before the fork. It writes one of the
 * GRANT_* codes below to a pipe, or exits with it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fileio.h"
#include "desktop.h"

enum {
	GRANT_OK = 0,
	GRANT_UID = 10,     /* could not take sway's uid */
	GRANT_CONNECT = 11, /* no socket answered */
	GRANT_SETUP = 12,   /* the connection setup was refused */
	GRANT_REFUSED = 13, /* ChangeHosts got an error */
	GRANT_TIMEOUT = 14, /* no answer in time */
	GRANT_CLOSED = 15,  /* the server closed the connection */
};

#define X11_CHANGE_HOSTS 109
#define X11_GET_INPUT_FOCUS 43
#define X11_FAMILY_SERVER_INTERPRETED 5

/* What the child sends and where, built before the fork. */
struct grant {
	uid_t uid;
	gid_t gid;
	struct sockaddr_un abstract, path;
	socklen_t abstract_len, path_len;
	unsigned char setup[12];
	unsigned char request[8 + 64 + 4]; /* ChangeHosts, GetInputFocus */
	size_t request_len;
	long long deadline_ms; /* now_ms() */
	int report; /* the pipe to the supervisor (fd 3 in the child) */
};

static void
put16(unsigned char *p, uint16_t v)
{
	memcpy(p, &v, 2); /* the byte order the setup announces: ours */
}

/* Reads exactly n bytes before the deadline; 0 or a GRANT_* code. */
static int
read_full(int fd, unsigned char *buf, size_t n, long long deadline_ms)
{
	while (n > 0) {
		struct pollfd p = { fd, POLLIN, 0 };
		long long left = deadline_ms - now_ms();
		ssize_t got;

		if (left <= 0)
			return GRANT_TIMEOUT;
		if (poll(&p, 1, (int)left) <= 0) {
			if (errno == EINTR)
				continue;
			return GRANT_TIMEOUT;
		}
		got = read(fd, buf, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return GRANT_CLOSED;
		buf += got;
		n -= (size_t)got;
	}
	return 0;
}

/* The child: system calls only. */
static void __attribute__((noreturn)) grant_child(const struct grant *g)
{
	unsigned char buf[4096];
	uint16_t extra;
	size_t left;
	int fd, r;

	/* nothing of the supervisor's: its pipes end when it closes them
	 * (the report pipe first: /dev/null may come as fd 3) */
	if (dup2(g->report, 3) < 0)
		_exit(GRANT_CLOSED);
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(GRANT_CLOSED);
	close_fds_from(4, ~0U);
	/* raw calls: the C library's versions act on every thread */
	if (syscall(SYS_setgroups, 0, NULL) < 0 ||
	    syscall(SYS_setresgid, g->gid, g->gid, g->gid) < 0 ||
	    syscall(SYS_setresuid, g->uid, g->uid, g->uid) < 0)
		_exit(GRANT_UID);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		_exit(GRANT_CONNECT);
	if (connect(fd, (const struct sockaddr *)&g->abstract,
		    g->abstract_len) < 0 &&
	    connect(fd, (const struct sockaddr *)&g->path, g->path_len) < 0)
		_exit(GRANT_CONNECT);
	/* setup: success (1), then 2 + 2 + 2 bytes and the rest's length
	 * in 4-byte units */
	r = cua_write_all(fd, g->setup, sizeof(g->setup)) ? GRANT_CLOSED : 0;
	if (!r)
		r = read_full(fd, buf, 8, g->deadline_ms);
	if (r)
		_exit(r);
	if (buf[0] != 1)
		_exit(GRANT_SETUP);
	memcpy(&extra, buf + 6, 2);
	for (left = (size_t)extra * 4; left > 0;) {
		size_t n = left < sizeof(buf) ? left : sizeof(buf);

		r = read_full(fd, buf, n, g->deadline_ms);
		if (r)
			_exit(r);
		left -= n;
	}
	/* ChangeHosts has no reply: an error (0) comes before the reply
	 * (1) of the GetInputFocus that follows it; events (2 and up, 32
	 * bytes each) may come between */
	r = cua_write_all(fd, g->request, g->request_len) ? GRANT_CLOSED : 0;
	do
		r = r ? r : read_full(fd, buf, 32, g->deadline_ms);
	while (!r && buf[0] > 1);
	if (!r && buf[0] == 0)
		r = GRANT_REFUSED;
	buf[0] = (unsigned char)r;
	if (r || write(3, buf, 1) != 1)
		_exit(r);
	close(3);
	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf));

		if (got == 0 || (got < 0 && errno != EINTR))
			_exit(0);
	}
}

/* Display ":N" (or ":N.S") -> N, or -1. */
static int
display_number(const char *display)
{
	char *end;
	long n;

	if (!display || display[0] != ':' || !g_ascii_isdigit(display[1]))
		return -1;
	n = strtol(display + 1, &end, 10);
	if ((*end && *end != '.') || n > 65535)
		return -1;
	return (int)n;
}

static int
build(struct grant *g, const char *display, uid_t uid, const char *user)
{
	size_t ulen = strlen(user), alen = strlen("localuser") + 1 + ulen;
	size_t pad = (4 - alen % 4) % 4;
	unsigned char *q = g->request;
	uint16_t one = 1;
	int n = display_number(display);

	if (n < 0 || alen + pad > 64)
		return -1;
	memset(g, 0, sizeof(*g));
	g->uid = uid;
	g->gid = uid;
	g->abstract.sun_family = g->path.sun_family = AF_UNIX;
	snprintf(g->path.sun_path, sizeof(g->path.sun_path),
		 "/tmp/.X11-unix/X%d", n);
	memcpy(g->abstract.sun_path + 1, g->path.sun_path,
	       strlen(g->path.sun_path));
	g->path_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				  strlen(g->path.sun_path) + 1);
	g->abstract_len = g->path_len;
	/* byte order, unused, protocol 11.0, no authorization */
	g->setup[0] = *(unsigned char *)&one ? 'l' : 'B';
	put16(g->setup + 2, 11);
	/* ChangeHosts: Insert, ServerInterpreted "localuser\0USER" */
	q[0] = X11_CHANGE_HOSTS;
	q[1] = 0;
	put16(q + 2, (uint16_t)(2 + (alen + pad) / 4));
	q[4] = X11_FAMILY_SERVER_INTERPRETED;
	put16(q + 6, (uint16_t)alen);
	memcpy(q + 8, "localuser", strlen("localuser") + 1);
	memcpy(q + 8 + strlen("localuser") + 1, user, ulen);
	q += 8 + alen + pad;
	q[0] = X11_GET_INPUT_FOCUS;
	put16(q + 2, 1);
	g->request_len = (size_t)(q + 4 - g->request);
	g->deadline_ms = now_ms() + STEP_TIMEOUT_MS;
	return 0;
}

int
xwayland_grant_start(struct desktop *d, const char *display, uid_t server_uid)
{
	struct passwd *pw = getpwuid(getuid());
	struct grant g;
	int fds[2];
	pid_t pid;

	if (!pw || build(&g, display, server_uid, pw->pw_name) < 0)
		return fail(d, "cannot let uid %d reach Xwayland at \"%s\": %s",
			    (int)getuid(), display ? display : "",
			    pw ? "the display is not of the form :N" :
				 "the uid has no user name");
	if (pipe2(fds, O_CLOEXEC) < 0)
		return fail(d, "pipe: %s", strerror(errno));
	g.report = fds[1];
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return fail(d, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		grant_child(&g);
	}
	close(fds[1]);
	d->helper_fd = fds[0];
	proc_init(&d->helper, pid, 1);
	return 0;
}

static const char *
grant_error(int code)
{
	switch (code) {
	case GRANT_UID:
		return "the process that grants it could not take sway's uid";
	case GRANT_CONNECT:
		return "its socket does not answer";
	case GRANT_SETUP:
		return "it refused a connection of sway's own uid";
	case GRANT_REFUSED:
		return "it refused to add the user to its access list";
	case GRANT_TIMEOUT:
		return "it did not answer in time";
	default:
		return "it closed the connection";
	}
}

int
xwayland_grant_wait(struct desktop *d)
{
	long long deadline = now_ms() + STEP_TIMEOUT_MS + KILL_WAIT_MS;
	unsigned char code = GRANT_TIMEOUT;
	char st[64] = "";

	if (d->helper_fd < 0)
		return 0;
	for (;;) {
		struct pollfd p = { d->helper_fd, POLLIN, 0 };

		if (poll(&p, 1, 0) > 0) {
			/* the word, or the end of a child that failed */
			if (read(d->helper_fd, &code, 1) != 1)
				code = GRANT_CLOSED;
			break;
		}
		if (now_ms() >= deadline) {
			proc_kill(&d->helper, SIGKILL);
			break;
		}
		if (pause_ms(d, POLL_MS) < 0)
			return fail_interrupted(d);
	}
	close(d->helper_fd);
	d->helper_fd = -1;
	if (code == GRANT_OK) {
		note(d, "Xwayland %s admits uid %d", d->vars[VAR_DISPLAY],
		     (int)getuid());
		return 0;
	}
	if (code == GRANT_CLOSED) {
		wait_gone(d, &d->helper, KILL_WAIT_MS);
		if (d->helper.reaped && WIFEXITED(d->helper.status))
			code = (unsigned char)WEXITSTATUS(d->helper.status);
		describe_status(d->helper.status, st, sizeof(st));
	}
	/* native Wayland apps still work: the desktop starts without
	 * an X display rather than with one its apps cannot open */
	warn(d,
	     "X11 apps cannot run on this desktop: Xwayland at %s does not "
	     "admit uid %d (%s%s%s); DISPLAY is not set",
	     d->vars[VAR_DISPLAY], (int)getuid(), grant_error(code),
	     st[0] ? ", " : "", st);
	g_free(d->vars[VAR_DISPLAY]);
	d->vars[VAR_DISPLAY] = NULL;
	return 0;
}

void
xwayland_cleanup(struct desktop *d)
{
	const struct proc *sway = &d->daemon[DAEMON_DISPLAY];
	int n = display_number(d->vars[VAR_DISPLAY]);
	char lock[64], socket[64], *text = NULL;

	if (n < 0 || sway->pid <= 1 || !proc_gone(sway))
		return;
	snprintf(lock, sizeof(lock), "/tmp/.X%d-lock", n);
	snprintf(socket, sizeof(socket), "/tmp/.X11-unix/X%d", n);
	/* only the lock of this desktop's sway (wlroots writes its pid) */
	if (!g_file_get_contents(lock, &text, NULL, NULL) ||
	    atoi(g_strstrip(text)) != (int)sway->pid) {
		g_free(text);
		return;
	}
	g_free(text);
	if ((unlink(socket) < 0 && errno != ENOENT) || unlink(lock) < 0)
		warn(d, "cannot remove %s and %s, which sway left: %s", socket,
		     lock, strerror(errno));
	else
		note(d, "removed %s and %s, which sway left", socket, lock);
}
