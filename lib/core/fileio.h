/*
 * Writing files: the one write loop and the one atomic file replace of the
 * library and of the tools (cua, cua-mcp), which compile fileio.c too.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_FILEIO_H
#define CUA_CORE_FILEIO_H

#include <stddef.h>

/*
 * Writes all `len` bytes of `buf` to `fd`, again after EINTR and short
 * writes. Returns 0, or -errno (-EIO when the descriptor takes nothing).
 * Async-signal-safe: usable between fork() and exec().
 */
int
cua_write_all(int fd, const void *buf, size_t len);

/*
 * Replaces the file at `path` with `data` atomically: writes a temporary
 * file beside it (never following a link) with exactly `mode`, fsyncs it
 * and renames it over `path`.
 * Returns 0, or -errno with the old file left in place.
 */
int
cua_write_file_atomic(const char *path, const char *data, size_t len, int mode);

/*
 * cua_write_file_atomic() without the fsync: readers see the old file or
 * the new one, never a part, but a crash of the machine may lose the
 * new one. For records rewritten at every observation (the usage file),
 * whose loss costs nothing and whose fsync costs milliseconds each time.
 */
int
cua_write_file_replace(const char *path, const char *data, size_t len,
		       int mode);

/*
 * An exclusive lock on the file `path`.lock (created 0600), for a
 * read-modify-write of `path` by several processes at once: its
 * descriptor (close it to unlock), or -errno.
 */
int
cua_lock_beside(const char *path);

/* Makes directory `dir` and its missing parents with `mode`: 0, or -1
 * with errno. */
int
cua_mkdir_p(const char *dir, int mode);

#endif
