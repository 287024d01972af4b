/*
 * The desktop's input lock (inputlock.h): flock(2) on a file per display,
 * holding the pid of the process that has it (for the error a waiter
 * gives up with). The descriptor is close-on-exec, so an app launched
 * meanwhile never inherits it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "inputlock.h"

/* A private directory of this user: created 0700, refused when it is
 * not ours or is not a directory. */
static int
own_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -1;
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != getuid())
		return -1;
	return 0;
}

char *
cua_input_lock_path(const char *display_name)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char dir[512], name[128], *path = NULL;
	size_t j = 0;

	const char *colon, *end;

	if (!display_name || !*display_name)
		return NULL;
	/* an X display "[host]:N[.S]" is one server whatever its screen, and
	 * the host "unix" is the local one: ":1", ":1.0" and "unix:1.0"
	 * share one lock (a Wayland socket name is taken as it is) */
	end = display_name + strlen(display_name);
	colon = strrchr(display_name, ':');
	if (colon) {
		const char *dot = strchr(colon, '.');

		if (dot)
			end = dot;
		if (colon - display_name == 4 &&
		    !strncmp(display_name, "unix", 4))
			display_name = colon;
	}
	/* only [A-Za-z0-9._-] reach the path */
	for (const char *c = display_name; c < end && j + 1 < sizeof(name); c++)
		name[j++] = (*c >= 'a' && *c <= 'z') ||
					    (*c >= 'A' && *c <= 'Z') ||
					    (*c >= '0' && *c <= '9') ||
					    *c == '.' || *c == '-' ?
				    *c :
				    '_';
	name[j] = '\0';
	if (rt && *rt == '/')
		snprintf(dir, sizeof(dir), "%s/libcua", rt);
	else
		snprintf(dir, sizeof(dir), "/tmp/libcua-%ld", (long)getuid());
	if (own_dir(dir) < 0)
		return NULL;
	if (asprintf(&path, "%s/input-%s.lock", dir, name) < 0)
		return NULL;
	return path;
}

static long
holder_of(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

int
cua_input_lock_take(const char *path, int wait_ms, long *holder)
{
	struct timespec nap = { 0, 5 * 1000 * 1000 };
	int64_t end = cua_now_us() + (int64_t)wait_ms * 1000;
	char pid[32];
	int fd, n;

	*holder = 0;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return 0;
	if (fd == 0) { /* 0 means "no lock" to the callers */
		int again = fcntl(fd, F_DUPFD_CLOEXEC, 1);

		close(fd);
		if (again < 0)
			return 0;
		fd = again;
	}
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			close(fd);
			return 0;
		}
		if (cua_now_us() >= end) {
			*holder = holder_of(fd);
			close(fd);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) != n)
		(void)0; /* the pid only names the holder in an error */
	return fd;
}

void
cua_input_lock_release(int fd)
{
	if (fd > 0)
		close(fd); /* drops the flock */
}

cua_result
cua_input_lock_action(const char *app_name, int *fd)
{
	/* one lock per desktop: a Wayland desktop is its compositor's
	 * socket, whether a process also has the DISPLAY of its Xwayland */
	const char *name = getenv("WAYLAND_DISPLAY");
	char *path;
	long holder;
	int r;

	*fd = 0;
	if (!name || !*name)
		name = getenv("DISPLAY");
	path = cua_input_lock_path(name);
	if (!path)
		return CUA_OK;
	r = cua_input_lock_take(path, CUA_INPUT_LOCK_WAIT_MS, &holder);
	free(path);
	if (r >= 0) {
		*fd = r;
		return CUA_OK;
	}
	return cua_err(CUA_MSG_INPUT_BUSY, { "pid", CUA_NUM("%ld", holder) },
		       { "s", CUA_NUM("%d", CUA_INPUT_LOCK_WAIT_MS / 1000) },
		       { "name", app_name });
}
