/*
 * Headless desktops: errors, warnings and progress notes. The first error
 * is the cause and is kept; an error about a daemon quotes the end of its
 * log and keeps the log.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "desktop.h"

int
fail(struct desktop *d, const char *fmt, ...)
{
	va_list ap;

	if (d->err) /* the first error is the cause */
		return -1;
	va_start(ap, fmt);
	d->err = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return -1;
}

/* The last few lines of a log file, indented; NULL if it is empty. */
char *
log_tail(const char *path)
{
	GString *out;
	char buf[4096], *p, *line, *save = NULL;
	char *lines[6];
	int fd, n = 0, i;
	ssize_t len;
	off_t size;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size = lseek(fd, 0, SEEK_END);
	if (size > (off_t)sizeof(buf) - 1)
		lseek(fd, size - (off_t)sizeof(buf) + 1, SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return NULL;
	buf[len] = '\0';
	for (p = buf; (line = strtok_r(p, "\n", &save)); p = NULL) {
		if (n == G_N_ELEMENTS(lines))
			memmove(lines, lines + 1, sizeof(lines[0]) * --n);
		lines[n++] = line;
	}
	if (n == 0)
		return NULL;
	out = g_string_new(NULL);
	for (i = 0; i < n; i++)
		g_string_append_printf(out, "%s  | %s", i ? "\n" : "",
				       lines[i]);
	return g_string_free(out, FALSE);
}

static int
fail_log_v(struct desktop *d, const char *log, const char *fmt, va_list ap)
{
	char *msg, *path, *tail;

	if (d->err)
		return -1;
	msg = g_strdup_vprintf(fmt, ap);
	path = g_build_filename(d->dir, log, NULL);
	tail = log_tail(path);
	if (tail) {
		d->keep_logs = 1;
		d->err = g_strdup_printf("%s\nits log %s (kept) ends with:\n%s",
					 msg, path, tail);
	} else {
		d->err = g_strdup_printf("%s (its log %s is empty)", msg, log);
	}
	g_free(tail);
	g_free(path);
	g_free(msg);
	return -1;
}

/* An error about a process that logs to DIR/log: adds where its log is
 * and how it ends. */
int
fail_log(struct desktop *d, const char *log, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = fail_log_v(d, log, fmt, ap);
	va_end(ap);
	return r;
}

int
fail_daemon(struct desktop *d, enum daemon_id id, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = fail_log_v(d, desktop_daemon(d, id)->log, fmt, ap);
	va_end(ap);
	return r;
}

int
fail_interrupted(struct desktop *d)
{
	char sig[32];

	return fail(d, "interrupted by %s",
		    signal_name(d->stop_signal, sig, sizeof(sig)));
}

void
warn(struct desktop *d, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (d->warn_fn)
		d->warn_fn(d, msg, d->warn_data);
	else
		fprintf(stderr, "cua-desktop: warning: %s\n", msg);
	g_free(msg);
}

/* Progress notes: only in the supervisor's log. */
void
note(struct desktop *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}
