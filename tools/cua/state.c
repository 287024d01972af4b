/*
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
#include <unistd.h>

#include "core/fileio.h"
#include "state.h"

static char *
join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s/%s", a, b);
	return s;
}

static int
ensure_private_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		fprintf(stderr,
			"cua: cannot create %s: %s. cua keeps its element "
			"ids there; set XDG_RUNTIME_DIR to a writable "
			"directory.\n",
			dir, strerror(errno));
		return -1;
	}
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		fprintf(stderr, "cua: %s is not a directory owned by you\n",
			dir);
		return -1;
	}
	if ((st.st_mode & 0077) && chmod(dir, 0700) < 0) {
		fprintf(stderr, "cua: cannot make %s private: %s\n", dir,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * How long a command waits for the state lock. Every libcua call is
 * bounded, and the longest command (an observation that launches an app)
 * holds the lock well under this, so a holder past it is stuck (stopped,
 * say): fail with a sentence rather than wait forever.
 */
#define LOCK_WAIT_MS 60000

/* Takes the lock within LOCK_WAIT_MS and writes our pid into the lock
 * file (for the message of a command that gives up waiting). 0, or -1
 * with errno (EWOULDBLOCK: still held by another command). */
static int
lock_bounded(int fd)
{
	long waited_us = 0, step_us = 2000;
	char pid[32];
	int n;

	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK ||
		    waited_us >= (long)LOCK_WAIT_MS * 1000)
			return -1;
		usleep((useconds_t)step_us);
		waited_us += step_us;
		if (step_us < 50000)
			step_us *= 2;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) < 0) {
		/* only informative */
	}
	return 0;
}

/* The pid the lock holder wrote, or "?". */
static void
lock_holder(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		snprintf(buf, size, "?");
}

static int
state_open(struct cua_state_file *sf)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char buf[64], *lock;
	FILE *f;
	int locked;

	if (rt && *rt) {
		if (ensure_private_dir(rt) < 0 && access(rt, W_OK) < 0)
			return -1;
		sf->dir = join(rt, "cua");
	} else {
		snprintf(buf, sizeof(buf), "/tmp/cua-%u", (unsigned)geteuid());
		sf->dir = strdup(buf);
	}
	if (!sf->dir || ensure_private_dir(sf->dir) < 0)
		return -1;
	sf->path = join(sf->dir, "session.json");
	lock = join(sf->dir, "session.lock");
	if (!sf->path || !lock) {
		free(lock);
		return -1;
	}
	sf->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(lock);
	locked = sf->lock_fd >= 0 && lock_bounded(sf->lock_fd) == 0;
	if (!locked && sf->lock_fd >= 0 && errno == EWOULDBLOCK) {
		lock_holder(sf->lock_fd, buf, sizeof(buf));
		fprintf(stderr,
			"cua: another cua command (pid %s) has held the state "
			"lock in %s for %d seconds; it may be stuck or stopped. "
			"Wait for it to finish or end it, then try again.\n",
			buf, sf->dir, LOCK_WAIT_MS / 1000);
		close(sf->lock_fd);
		sf->lock_fd = -1;
		return -1;
	}
	if (!locked) {
		fprintf(stderr,
			"cua: cannot lock the state in %s: %s. cua keeps its "
			"element ids there; make it writable (or set "
			"XDG_RUNTIME_DIR to a writable directory).\n",
			sf->dir, strerror(errno));
		return -1;
	}
	f = fopen(sf->path, "re");
	if (f) {
		size_t cap = 0, len = 0, n;
		char *s = NULL;

		do {
			char *ns;

			if (len + 65536 + 1 > cap) {
				cap = cap ? cap * 2 : 131072;
				ns = realloc(s, cap);
				if (!ns) {
					free(s);
					s = NULL;
					break;
				}
				s = ns;
			}
			n = fread(s + len, 1, cap - len - 1, f);
			len += n;
		} while (n > 0 && len < (64u << 20));
		if (s)
			s[len] = '\0';
		fclose(f);
		sf->json = s;
	}
	return 0;
}

int
cua_state_open(struct cua_state_file *sf)
{
	if (state_open(sf) == 0)
		return 0;
	/* the paths and the lock of a half-done open */
	cua_state_close(sf);
	return -1;
}

int
cua_state_save(struct cua_state_file *sf, const char *json)
{
	int r;

	if (!sf->path)
		return -1;
	r = cua_write_file_atomic(sf->path, json, strlen(json), 0600);
	if (r < 0) {
		/* the rename never happened: the old file is intact */
		fprintf(stderr,
			"cua: cannot save the state to %s: %s. The old state is "
			"kept, so element ids first printed by this command "
			"are not remembered. Free some space or make %s "
			"writable (or set XDG_RUNTIME_DIR).\n",
			sf->path, strerror(-r), sf->dir);
		return -1;
	}
	return 0;
}

void
cua_state_close(struct cua_state_file *sf)
{
	if (sf->lock_fd >= 0)
		close(sf->lock_fd);
	free(sf->dir);
	free(sf->path);
	free(sf->json);
	sf->dir = sf->path = sf->json = NULL;
	sf->lock_fd = -1;
}
