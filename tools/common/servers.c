/*
 * The running cua-mcp servers of this user (servers.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "servers.h"

static char registered[512];

static int
dir_path(char *buf, size_t size)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	int n;

	if (rt && *rt)
		n = snprintf(buf, size, "%s/cua-mcp", rt);
	else
		n = snprintf(buf, size, "/tmp/cua-mcp-%u", (unsigned)getuid());
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int
servers_register(const char *display)
{
	char dir[400], tmp[520];
	FILE *f;

	if (dir_path(dir, sizeof(dir)) < 0 ||
	    (mkdir(dir, 0700) < 0 && errno != EEXIST))
		return -1;
	snprintf(registered, sizeof(registered), "%s/%ld", dir, (long)getpid());
	snprintf(tmp, sizeof(tmp), "%s.tmp", registered);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", display ? display : "");
	if (fclose(f) != 0 || rename(tmp, registered) < 0) {
		unlink(tmp);
		registered[0] = '\0';
		return -1;
	}
	return 0;
}

void
servers_unregister(void)
{
	if (registered[0])
		unlink(registered);
	registered[0] = '\0';
}

/* A cua-mcp process of this user with that pid. */
static int
is_server(pid_t pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (kill(pid, 0) < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, "cua-mcp") == 0;
}

int
servers_list(struct server **out, size_t *n)
{
	char dir[400], path[700];
	struct server *v = NULL, *nv;
	struct dirent *e;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (dir_path(dir, sizeof(dir)) < 0)
		return -1;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		FILE *f;

		if (pid <= 0 || *end)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!is_server((pid_t)pid)) {
			unlink(path); /* a server that died without cleaning up */
			continue;
		}
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		memset(&v[*n], 0, sizeof(v[*n]));
		v[*n].pid = (pid_t)pid;
		f = fopen(path, "r");
		if (f) {
			if (fgets(v[*n].display, sizeof(v[*n].display), f))
				v[*n].display[strcspn(v[*n].display, "\n")] =
					'\0';
			fclose(f);
		}
		(*n)++;
	}
	closedir(d);
	*out = v;
	return 0;
}
