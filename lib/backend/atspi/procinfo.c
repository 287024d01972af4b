/*
 * /proc facts about one process: start time, executable, command name,
 * the desktop file it was launched from, Flatpak and Snap ids.
 *
 * Processes vanish at any moment and other users' processes deny most
 * reads, so every piece is optional except the stat line; the stat line is
 * read again at the end so that a pid reused meanwhile is noticed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atspi.h"
#include "linux.h"

#define STAT_MAX 4096
#define ENVIRON_MAX (4 * 1024 * 1024)
#define FLATPAK_INFO_MAX (256 * 1024)

int
procinfo_parse_stat(const char *buf, size_t len, char *state, int64_t *ppid,
		    uint64_t *start_time)
{
	const char *p = NULL, *end = buf + len;
	const char *q;
	unsigned long long v;
	int field;
	char *e;

	/* the last ')' ends the command name, whatever it contains */
	for (q = buf; q < end; q++) {
		if (*q == ')')
			p = q;
	}
	if (!p || p + 2 >= end || p[1] != ' ')
		return -1;
	p += 2;
	/* p is at field 3 (state) */
	if (state)
		*state = *p;
	for (field = 3; field < 22; field++) {
		while (p < end && *p != ' ')
			p++;
		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			return -1;
		if (field + 1 == 4 || field + 1 == 22) {
			char num[32];
			size_t n = 0;

			while (p + n < end && p[n] >= '0' && p[n] <= '9' &&
			       n < sizeof(num) - 1) {
				num[n] = p[n];
				n++;
			}
			if (n == 0)
				return -1;
			num[n] = '\0';
			errno = 0;
			v = strtoull(num, &e, 10);
			if (errno)
				return -1;
			if (field + 1 == 4 && ppid)
				*ppid = (int64_t)v;
			if (field + 1 == 22 && start_time)
				*start_time = (uint64_t)v;
		}
	}
	return 0;
}

const char *
procinfo_environ_find(const char *env, size_t len, const char *name,
		      size_t *value_len)
{
	size_t nlen = strlen(name);
	size_t i = 0;

	while (i < len) {
		const char *s = env + i;
		const char *z = memchr(s, '\0', len - i);
		size_t slen = z ? (size_t)(z - s) : len - i;

		if (slen > nlen && memcmp(s, name, nlen) == 0 &&
		    s[nlen] == '=') {
			if (value_len)
				*value_len = slen - nlen - 1;
			return s + nlen + 1;
		}
		i += slen + 1;
	}
	return NULL;
}

char *
procinfo_parse_flatpak_info(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int in_app = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *le = eol ? eol : end;
		const char *ls = p;

		while (ls < le && (*ls == ' ' || *ls == '\t'))
			ls++;
		while (le > ls &&
		       (le[-1] == '\r' || le[-1] == ' ' || le[-1] == '\t'))
			le--;
		if (ls < le && *ls == '[') {
			in_app = (size_t)(le - ls) == 13 &&
				 memcmp(ls, "[Application]", 13) == 0;
		} else if (in_app && (size_t)(le - ls) > 5 &&
			   memcmp(ls, "name", 4) == 0) {
			const char *q = ls + 4;

			while (q < le && (*q == ' ' || *q == '\t'))
				q++;
			if (q < le && *q == '=') {
				q++;
				while (q < le && (*q == ' ' || *q == '\t'))
					q++;
				if (q < le)
					return strndup(q, (size_t)(le - q));
			}
		}
		p = eol ? eol + 1 : end;
	}
	return NULL;
}

/* Reads a whole (small) file; NUL-terminated; returns length or -errno. */
static ssize_t
read_file(const char *path, size_t max, char **out)
{
	size_t cap = 4096, len = 0;
	char *buf, *nb;
	int fd, saved;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r;

		if (len + 1 >= cap) {
			if (cap >= max) {
				break; /* truncated: the caller gets max bytes
				        */
			}
			cap = cap * 2 > max ? max : cap * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			free(buf);
			close(fd);
			return -saved;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return (ssize_t)len;
}

int
procinfo_read_stat(int64_t pid, char *state, int64_t *ppid,
		   uint64_t *start_time)
{
	char path[64];
	char *buf;
	ssize_t n;
	int r;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/stat", pid);
	n = read_file(path, STAT_MAX, &buf);
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	r = procinfo_parse_stat(buf, (size_t)n, state, ppid, start_time);
	free(buf);
	return r < 0 ? -EINVAL : 0;
}

static char *
read_exe(int64_t pid)
{
	char path[64];
	char buf[PATH_MAX];
	ssize_t n;
	size_t len;
	static const char deleted[] = " (deleted)";

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/exe", pid);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	len = (size_t)n;
	buf[len] = '\0';
	/* the binary was replaced (an upgrade) since the process started */
	if (len > sizeof(deleted) - 1 &&
	    strcmp(buf + len - (sizeof(deleted) - 1), deleted) == 0)
		buf[len - (sizeof(deleted) - 1)] = '\0';
	return strdup(buf);
}

static char *
read_comm(int64_t pid)
{
	char path[64];
	char *buf;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/comm", pid);
	n = read_file(path, 256, &buf);
	if (n < 0)
		return NULL;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	if (n == 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char *
env_dup(const char *env, size_t len, const char *name)
{
	size_t vlen;
	const char *v = procinfo_environ_find(env, len, name, &vlen);

	if (!v || vlen == 0)
		return NULL;
	return strndup(v, vlen);
}

/*
 * GIO_LAUNCHED_DESKTOP_FILE is inherited by every descendant of the
 * launched process (a terminal's shells and what they start), so GLib
 * pairs it with GIO_LAUNCHED_DESKTOP_FILE_PID. Accept it for the launched
 * process itself and for its direct child (wrapper scripts that fork the
 * real program: soffice -> oosplash -> soffice.bin).
 */
static void
read_environ(struct procinfo *info, int64_t ppid)
{
	char path[64];
	char *env;
	ssize_t n;
	char *dpid;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/environ", info->pid);
	n = read_file(path, ENVIRON_MAX, &env);
	if (n <= 0) {
		free(env);
		return;
	}
	info->launched_desktop_file =
		env_dup(env, (size_t)n, "GIO_LAUNCHED_DESKTOP_FILE");
	dpid = env_dup(env, (size_t)n, "GIO_LAUNCHED_DESKTOP_FILE_PID");
	if (info->launched_desktop_file && dpid) {
		char *e;
		long long p;

		errno = 0;
		p = strtoll(dpid, &e, 10);
		if (errno || *e || (p != info->pid && p != ppid)) {
			free(info->launched_desktop_file);
			info->launched_desktop_file = NULL;
		}
	}
	free(dpid);
	info->snap_name = env_dup(env, (size_t)n, "SNAP_NAME");
	free(env);
}

static void
read_flatpak(struct procinfo *info)
{
	char path[64];
	char *text;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/root/.flatpak-info",
		 info->pid);
	n = read_file(path, FLATPAK_INFO_MAX, &text);
	if (n <= 0) {
		free(text);
		return;
	}
	info->flatpak_id = procinfo_parse_flatpak_info(text, (size_t)n);
	free(text);
}

int
procinfo_read(int64_t pid, struct procinfo *out)
{
	uint64_t start = 0, again = 0;
	int64_t ppid = 0;
	char state = 0;
	int r;

	memset(out, 0, sizeof(*out));
	out->pid = pid;
	if (pid <= 0)
		return -EINVAL;
	r = procinfo_read_stat(pid, &state, &ppid, &start);
	if (r < 0)
		return r;
	if (state == 'Z' || state == 'X')
		return -ESRCH;
	out->start_time = start;
	out->exe = read_exe(pid);
	out->comm = read_comm(pid);
	read_environ(out, ppid);
	read_flatpak(out);
	/* the pid may have been reused while we read */
	r = procinfo_read_stat(pid, NULL, NULL, &again);
	if (r < 0 || again != start) {
		procinfo_clear(out);
		out->pid = pid;
		return -ESRCH;
	}
	return 0;
}

void
procinfo_clear(struct procinfo *info)
{
	if (!info)
		return;
	free(info->exe);
	free(info->comm);
	free(info->launched_desktop_file);
	free(info->flatpak_id);
	free(info->snap_name);
	memset(info, 0, sizeof(*info));
}
