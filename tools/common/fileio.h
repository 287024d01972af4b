/*
 * File helpers shared by the tools (cua, cua-mcp): one way to write a
 * whole buffer and one way to replace a file atomically.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TOOLS_FILEIO_H
#define CUA_TOOLS_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Writes all of buf to fd, across short writes (a disk filling up writes
 * part of it, then fails with ENOSPC) and EINTR. 0, or -1 with errno.
 */
int
tool_write_all(int fd, const void *buf, size_t len);

/*
 * Replaces path with data through a temporary file beside it (never
 * following a link) and rename(), synced, with the given mode. On failure
 * the old file is untouched, the temporary file is removed and errno
 * says why. 0, or -1 with errno.
 */
int
tool_replace_file(const char *path, const void *data, size_t len, mode_t mode);

#endif /* CUA_TOOLS_FILEIO_H */
