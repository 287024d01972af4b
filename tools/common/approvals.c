/*
 * The store of persisted app approvals (docs/safety.md §3.2;
 * docs/differences.md D21), shared by cua-mcp and `cua approve`.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "approvals.h"
#include "core/fileio.h"

char *
approvals_default_path(void)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char *p = NULL;

	if (state && state[0] == '/') {
		if (asprintf(&p, "%s/cua/approvals.json", state) < 0)
			p = NULL;
	} else if (home && *home) {
		if (asprintf(&p, "%s/.local/state/cua/approvals.json", home) <
		    0)
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

int
approvals_add(const char *path, const char *id)
{
	char *dir = strdup(path), *slash, *text, stamp[32];
	json_t *store, *apps;
	time_t now = time(NULL);
	struct tm tm;
	int r = -1, lock;

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
	/* two servers (or `cua approve`) adding at once: each reads the
	 * store the other wrote, under the lock of <path>.lock; without
	 * one the store is still written, as a lone writer would */
	lock = cua_lock_beside(path);
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
	json_object_set_new(
		apps, id,
		json_pack("{s:s,s:s}", "scope", "always", "granted_at", stamp));
	text = json_dumps(store, JSON_INDENT(2));
	json_decref(store);
	if (text) {
		char *line = NULL;

		if (asprintf(&line, "%s\n", text) >= 0) {
			r = cua_write_file_atomic(path, line, strlen(line),
						  0600);
			free(line);
			if (r < 0) {
				errno = -r; /* approvals.h: -1 with errno */
				r = -1;
			}
		}
		free(text);
	}
	if (lock >= 0)
		close(lock); /* drops the lock */
	return r;
}
