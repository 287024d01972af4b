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
		fprintf(stderr, "cua: cannot create %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		fprintf(stderr, "cua: %s is not a directory owned by you\n", dir);
		return -1;
	}
	if ((st.st_mode & 0077) && chmod(dir, 0700) < 0) {
		fprintf(stderr, "cua: cannot make %s private: %s\n", dir,
			strerror(errno));
		return -1;
	}
	return 0;
}

int
cua_state_open(struct cua_state_file *sf)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char buf[64], *lock;
	FILE *f;

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
	if (sf->lock_fd < 0 || flock(sf->lock_fd, LOCK_EX) < 0) {
		fprintf(stderr, "cua: cannot lock the state in %s: %s\n",
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
cua_state_save(struct cua_state_file *sf, const char *json)
{
	char *tmp;
	size_t len = strlen(json), off = 0;
	int fd, r = 0;

	if (!sf->path)
		return -1;
	tmp = join(sf->dir, "session.json.tmp");
	if (!tmp)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		r = -1;
	while (!r && off < len) {
		ssize_t w = write(fd, json + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			r = -1;
		else
			off += (size_t)w;
	}
	if (!r && fsync(fd) < 0)
		r = -1;
	if (fd >= 0 && close(fd) < 0)
		r = -1;
	if (!r && rename(tmp, sf->path) < 0)
		r = -1;
	if (r) {
		fprintf(stderr, "cua: cannot save the state to %s: %s (the old "
				"state is kept)\n", sf->path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return r;
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
