/*
 * The store of persisted app approvals (safety.md §3.2; README D21).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "approvals.h"

char *
approvals_default_path(void)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char *p = NULL;

	if (state && state[0] == '/') {
		if (asprintf(&p, "%s/cua/approvals.json", state) < 0)
			p = NULL;
	} else if (home && *home) {
		if (asprintf(&p, "%s/.local/state/cua/approvals.json", home) < 0)
			p = NULL;
	}
	return p;
}

int
approvals_has(const char *path, const char *id)
{
	json_t *store = json_load_file(path, 0, NULL);
	json_t *app = json_object_get(json_object_get(store, "apps"), id);
	const char *scope = json_string_value(json_object_get(app, "scope"));
	int ok = scope && strcmp(scope, "always") == 0;

	json_decref(store);
	return ok;
}

static int
mkdir_p(char *dir)
{
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
				*p = '/';
				return -1;
			}
			*p = '/';
		}
	return mkdir(dir, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* All of buf, across short writes (a disk filling up writes part of it,
 * then fails with ENOSPC); 0, or -1 with errno. */
static int
write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes text to path through a temporary file and rename(); on failure
 * the old file is untouched and the temporary file is removed. */
static int
replace_file(const char *path, const char *text)
{
	char *tmp = NULL;
	size_t len = strlen(text);
	int fd, r = -1, saved;

	if (asprintf(&tmp, "%s.tmp-%d", path, (int)getpid()) < 0)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd >= 0) {
		if (write_all(fd, text, len) == 0 &&
		    fchmod(fd, 0600) == 0 && fsync(fd) == 0) {
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

int
approvals_add(const char *path, const char *id)
{
	char *dir = strdup(path), *slash, *text, stamp[32];
	json_t *store, *apps;
	time_t now = time(NULL);
	struct tm tm;
	int r = -1;

	if (!dir)
		return -1;
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir_p(dir) < 0) {
			free(dir);
			return -1;
		}
	}
	free(dir);
	store = json_load_file(path, 0, NULL);
	if (!json_is_object(store)) {
		json_decref(store);
		store = json_object();
	}
	json_object_set_new(store, "version", json_integer(1));
	apps = json_object_get(store, "apps");
	if (!json_is_object(apps)) {
		apps = json_object();
		json_object_set_new(store, "apps", apps);
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(apps, id, json_pack("{s:s,s:s}", "scope", "always",
						"granted_at", stamp));
	text = json_dumps(store, JSON_INDENT(2));
	json_decref(store);
	if (text) {
		char *line = NULL;

		if (asprintf(&line, "%s\n", text) >= 0) {
			r = replace_file(path, line);
			free(line);
		}
		free(text);
	}
	return r;
}
