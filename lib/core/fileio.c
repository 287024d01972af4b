/*
 * Writing files (fileio.h). Self-contained (libc only): the tools compile
 * this same source into their common library.
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
#include <unistd.h>

#include "fileio.h"

int
cua_write_all(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = write(fd, (const char *)buf + done, len - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		done += (size_t)r;
	}
	return 0;
}

static int
write_file(const char *path, const char *data, size_t len, int mode,
	   int durable)
{
	char *tmp = NULL;
	int fd, r;

	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0)
		return -ENOMEM;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  mode);
	if (fd < 0) {
		r = -errno;
		free(tmp);
		return r;
	}
	r = cua_write_all(fd, data, len);
	if (!r && (fchmod(fd, (mode_t)mode) < 0 || (durable && fsync(fd) < 0)))
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r)
		unlink(tmp);
	free(tmp);
	return r;
}

int
cua_write_file_atomic(const char *path, const char *data, size_t len, int mode)
{
	return write_file(path, data, len, mode, 1);
}

int
cua_write_file_replace(const char *path, const char *data, size_t len, int mode)
{
	return write_file(path, data, len, mode, 0);
}

int
cua_lock_beside(const char *path)
{
	char *lp = NULL;
	int fd, e;

	if (asprintf(&lp, "%s.lock", path) < 0)
		return -ENOMEM;
	fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	e = errno;
	free(lp);
	if (fd < 0)
		return -e;
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			e = errno;
			close(fd);
			return -e;
		}
	return fd;
}

int
cua_mkdir_p(const char *dir, int mode)
{
	char buf[4096];
	size_t n = strlen(dir);

	if (n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i < n; i++)
		if (buf[i] == '/') {
			buf[i] = '\0';
			mkdir(buf, (mode_t)mode);
			buf[i] = '/';
		}
	return mkdir(buf, (mode_t)mode) == 0 || errno == EEXIST ? 0 : -1;
}
