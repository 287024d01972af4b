/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

int
tool_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
tool_replace_file(const char *path, const void *data, size_t len, mode_t mode)
{
	char *tmp = NULL;
	int fd, r = -1, saved;

	if (asprintf(&tmp, "%s.tmp-%d", path, (int)getpid()) < 0)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  mode);
	if (fd >= 0) {
		if (tool_write_all(fd, data, len) == 0 &&
		    fchmod(fd, mode) == 0 && fsync(fd) == 0) {
			r = close(fd);
			fd = -1;
			if (r == 0)
				r = rename(tmp, path);
		}
		saved = errno;
		if (fd >= 0)
			close(fd);
		if (r < 0)
			unlink(tmp);
		errno = saved;
	}
	free(tmp);
	return r;
}
