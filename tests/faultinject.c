/*
 * A file-system fault injector for tests, loaded with LD_PRELOAD: makes
 * the calls that create, write, sync and rename files under one path
 * prefix fail as a full disk, an unwritable directory or a read-only
 * file system would. Directory modes do not stop root, and tests run as
 * root in CI, so the faults are injected in the process itself.
 *
 * Environment (read at every call; without CUA_FAULT_PREFIX the calls
 * pass through untouched):
 *   CUA_FAULT_PREFIX  absolute path; files at or below it are affected
 *   CUA_FAULT_OPS     comma-separated: open (open/creat for writing),
 *                     mkdir, write, fsync (fsync, fdatasync), rename,
 *                     or all; default "write"
 *   CUA_FAULT_ERRNO   ENOSPC (default), EACCES, EROFS, EDQUOT, EIO, EPERM
 *   CUA_FAULT_SPACE   bytes that may still be written under the prefix
 *                     before write fails (default 0): the write that
 *                     crosses the limit is short, as on a full disk
 *   CUA_FAULT_LOG     a file that gets one line "<op> <path> <errno>" per
 *                     injected fault, so a test can check that it fired
 *
 * SPDX-License-Identifier: MIT
 */
/* the wrappers must define the plain symbols: no 64-bit-offset redirects
 * (open -> open64) or fortified inline wrappers */
#undef _FILE_OFFSET_BITS
#undef _FORTIFY_SOURCE
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static atomic_long written; /* bytes written under the prefix so far */

static const char *
prefix(void)
{
	const char *p = getenv("CUA_FAULT_PREFIX");

	return p && p[0] == '/' ? p : NULL;
}

static int
op_enabled(const char *op)
{
	const char *ops = getenv("CUA_FAULT_OPS");
	size_t n = strlen(op);

	if (!ops || !*ops)
		ops = "write";
	for (const char *p = ops; *p;) {
		size_t len = strcspn(p, ",");

		if ((len == n && strncmp(p, op, n) == 0) ||
		    (len == 3 && strncmp(p, "all", 3) == 0))
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int
fault_errno(void)
{
	static const struct {
		const char *name;
		int value;
	} names[] = {
		{ "ENOSPC", ENOSPC }, { "EACCES", EACCES }, { "EROFS", EROFS },
		{ "EDQUOT", EDQUOT }, { "EIO", EIO },       { "EPERM", EPERM },
	};
	const char *e = getenv("CUA_FAULT_ERRNO");

	for (size_t i = 0; e && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(e, names[i].name) == 0)
			return names[i].value;
	return ENOSPC;
}

static int
under_prefix(const char *path)
{
	const char *p = prefix();
	size_t n;

	if (!p || !path)
		return 0;
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	return strncmp(path, p, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The path behind a descriptor, or behind dirfd + a relative name. */
static int
fd_path(int fd, const char *name, char *out, size_t size)
{
	char link[64];
	ssize_t n;

	if (name && name[0] == '/') {
		snprintf(out, size, "%s", name);
		return 0;
	}
	if (fd == AT_FDCWD) {
		if (!getcwd(out, size))
			return -1;
	} else {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, out, size - 1);
		if (n < 0)
			return -1;
		out[n] = '\0';
	}
	if (name) {
		size_t len = strlen(out);

		snprintf(out + len, size - len, "/%s", name);
	}
	return 0;
}

static void
log_fault(const char *op, const char *path, int err)
{
	const char *log = getenv("CUA_FAULT_LOG");
	char line[PATH_MAX + 64];
	int fd, n;

	if (!log)
		return;
	n = snprintf(line, sizeof(line), "%s %s %d\n", op, path, err);
	fd = (int)syscall(SYS_openat, AT_FDCWD, log,
			  O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (syscall(SYS_write, fd, line, (size_t)n) < 0) {
		/* nothing to do: the log is best effort */
	}
	syscall(SYS_close, fd);
}

/* 1 (errno set) when `op` on `path` is to fail. */
static int
inject(const char *op, const char *path)
{
	int err;

	if (!under_prefix(path) || !op_enabled(op))
		return 0;
	err = fault_errno();
	log_fault(op, path, err);
	errno = err;
	return 1;
}

/* clang-format off */
#define REAL(name)                                                     \
	static __typeof__(name) *real_##name;                          \
	if (!real_##name)                                              \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)
/* clang-format on */

static int
writing(int flags)
{
	return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0;
}

static int
open_fault(int dirfd, const char *name, int flags)
{
	char path[PATH_MAX];

	return writing(flags) && prefix() &&
	       fd_path(dirfd, name, path, sizeof(path)) == 0 &&
	       inject("open", path);
}

/* clang-format off */
/* A wrapper that fails (-1, errno set) when `fault` holds and otherwise
 * calls the real function with args. */
#define WRAP(fn, params, fault, args)                                  \
	int fn params                                                  \
	{                                                              \
		REAL(fn);                                              \
		if (fault)                                             \
			return -1;                                     \
		return real_##fn args;                                 \
	}

/* open, open64 and openat: the mode argument is there when the flags
 * create a file */
#define WRAP_OPEN(fn, params, dirfd, args)                             \
	int fn params                                                  \
	{                                                              \
		mode_t mode = 0;                                       \
		va_list ap;                                            \
		REAL(fn);                                              \
                                                                       \
		if (flags & (O_CREAT | O_TMPFILE)) {                   \
			va_start(ap, flags);                           \
			mode = va_arg(ap, mode_t);                     \
			va_end(ap);                                    \
		}                                                      \
		if (open_fault(dirfd, name, flags))                    \
			return -1;                                     \
		return real_##fn args;                                 \
	}
/* clang-format on */

WRAP_OPEN(open, (const char *name, int flags, ...), AT_FDCWD,
	  (name, flags, mode))
WRAP_OPEN(open64, (const char *name, int flags, ...), AT_FDCWD,
	  (name, flags, mode))
WRAP_OPEN(openat, (int dirfd, const char *name, int flags, ...), dirfd,
	  (dirfd, name, flags, mode))
WRAP(creat, (const char *name, mode_t mode),
     open_fault(AT_FDCWD, name, O_CREAT | O_WRONLY | O_TRUNC), (name, mode))

int
mkdir(const char *name, mode_t mode)
{
	char path[PATH_MAX];
	REAL(mkdir);

	/* an existing directory gives EEXIST first, as in the kernel */
	if (prefix() && fd_path(AT_FDCWD, name, path, sizeof(path)) == 0 &&
	    access(path, F_OK) < 0 && inject("mkdir", path))
		return -1;
	return real_mkdir(name, mode);
}

ssize_t
write(int fd, const void *buf, size_t len)
{
	char path[PATH_MAX];
	long budget, used;
	const char *space;
	REAL(write);

	if (!prefix() || !op_enabled("write") ||
	    fd_path(fd, NULL, path, sizeof(path)) < 0 || !under_prefix(path))
		return real_write(fd, buf, len);
	space = getenv("CUA_FAULT_SPACE");
	budget = space ? atol(space) : 0;
	used = atomic_load(&written);
	if (len > 0 && used < budget) {
		/* room for part or all of it: a short write, as on a disk
		 * that fills up while writing */
		size_t room = (size_t)(budget - used);
		ssize_t n = real_write(fd, buf, len < room ? len : room);

		if (n > 0)
			atomic_fetch_add(&written, (long)n);
		return n;
	}
	if (len == 0)
		return real_write(fd, buf, len);
	inject("write", path);
	return -1;
}

static int
sync_fault(int fd)
{
	char path[PATH_MAX];

	return prefix() && fd_path(fd, NULL, path, sizeof(path)) == 0 &&
	       inject("fsync", path);
}

WRAP(fsync, (int fd), sync_fault(fd), (fd))
WRAP(fdatasync, (int fd), sync_fault(fd), (fd))

static int
rename_fault(int olddirfd, const char *from, int newdirfd, const char *to)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (!prefix())
		return 0;
	if (fd_path(newdirfd, to, b, sizeof(b)) == 0 && under_prefix(b))
		return inject("rename", b);
	return fd_path(olddirfd, from, a, sizeof(a)) == 0 &&
	       inject("rename", a);
}

WRAP(rename, (const char *from, const char *to),
     rename_fault(AT_FDCWD, from, AT_FDCWD, to), (from, to))
WRAP(renameat, (int olddirfd, const char *from, int newdirfd, const char *to),
     rename_fault(olddirfd, from, newdirfd, to), (olddirfd, from, newdirfd, to))
WRAP(renameat2,
     (int olddirfd, const char *from, int newdirfd, const char *to,
      unsigned int flags),
     rename_fault(olddirfd, from, newdirfd, to),
     (olddirfd, from, newdirfd, to, flags))
