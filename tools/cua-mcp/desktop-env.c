/*
 * cua-mcp: which desktop to work on.
 *
 * MCP hosts often start servers with a stripped environment (no DISPLAY,
 * no bus address). With DISPLAY unset, cua-mcp looks for the user's X
 * server (exactly one usable socket in /tmp/.X11-unix) and session bus
 * ($XDG_RUNTIME_DIR/bus) — decisions §16. With --headless and no desktop,
 * it starts a private one (`cua desktop`) and stops it on exit.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <X11/Xlib.h>

#include "../cua/desktop.h"
#include "mcp.h"

#define X11_SOCKET_DIR "/tmp/.X11-unix"

static char *owned_dir;     /* CUA_DESKTOP_DIR of the desktop we started */
static char problem[1024];  /* why there is no display */

const char *
desktop_env_problem(void)
{
	return problem[0] ? problem : NULL;
}

static int
socket_connects(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, ok;

	if (strlen(path) >= sizeof(sa.sun_path))
		return 0;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

static int
display_usable(const char *name)
{
	Display *d = XOpenDisplay(name);

	if (!d)
		return 0;
	XCloseDisplay(d);
	return 1;
}

/* The user's X displays: ":N" for each usable socket; returns the count
 * and the first one in `first`, all of them in `list`. */
static int
find_displays(char *first, size_t first_size, char *list, size_t list_size)
{
	DIR *dir = opendir(X11_SOCKET_DIR);
	struct dirent *e;
	int n = 0;

	list[0] = first[0] = '\0';
	if (!dir)
		return 0;
	while ((e = readdir(dir))) {
		char path[300], name[32];
		struct stat st;
		char *end;
		long num;

		if (e->d_name[0] != 'X')
			continue;
		num = strtol(e->d_name + 1, &end, 10);
		if (end == e->d_name + 1 || *end || num < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", X11_SOCKET_DIR, e->d_name);
		if (stat(path, &st) < 0 || !S_ISSOCK(st.st_mode) ||
		    !socket_connects(path))
			continue;
		snprintf(name, sizeof(name), ":%ld", num);
		if (!display_usable(name))
			continue;
		if (n++ == 0)
			snprintf(first, first_size, "%s", name);
		if (strlen(list) + strlen(name) + 3 < list_size)
			snprintf(list + strlen(list), list_size - strlen(list),
				 "%s%s", n > 1 ? ", " : "", name);
	}
	closedir(dir);
	return n;
}

/* $XDG_RUNTIME_DIR/bus (or /run/user/UID/bus) when it answers. */
static int
find_session_bus(char *addr, size_t size)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char path[300];

	if (rt && *rt)
		snprintf(path, sizeof(path), "%s/bus", rt);
	else
		snprintf(path, sizeof(path), "/run/user/%u/bus",
			 (unsigned)getuid());
	if (!socket_connects(path))
		return 0;
	snprintf(addr, size, "unix:path=%s", path);
	return 1;
}

/* Applies `export NAME='value'` and `unset A B` lines. */
static void
apply_env(const char *text)
{
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *l = strndup(line, len);

		if (l && strncmp(l, "export ", 7) == 0 && strchr(l, '=')) {
			char *name = l + 7, *eq = strchr(l, '='), *v, *out;

			*eq = '\0';
			v = eq + 1;
			out = v;
			int quoted = 0;

			/* 'a'\''b' → a'b */
			while (*v) {
				if (*v == '\'') {
					quoted = !quoted;
					v++;
					continue;
				}
				if (!quoted && *v == '\\' && v[1]) {
					*out++ = v[1];
					v += 2;
					continue;
				}
				*out++ = *v++;
			}
			*out = '\0';
			setenv(name, eq + 1, 1);
		} else if (l && strncmp(l, "unset ", 6) == 0) {
			char *save = NULL, *w;

			for (w = strtok_r(l + 6, " ", &save); w;
			     w = strtok_r(NULL, " ", &save))
				unsetenv(w);
		}
		free(l);
		line = end ? end + 1 : NULL;
	}
}

static int
start_headless(void)
{
	char *env = NULL;
	const char *dir;

	LOG_INFO("no desktop found: starting a headless one");
	if (cua_desktop_start_owned(&env) < 0) {
		fprintf(stderr, "cua-mcp: --headless: the headless desktop did not start\n");
		return -1;
	}
	apply_env(env);
	free(env);
	dir = getenv("CUA_DESKTOP_DIR");
	owned_dir = dir ? strdup(dir) : NULL;
	LOG_INFO("headless desktop on %s (%s)", getenv("DISPLAY"),
		 owned_dir ? owned_dir : "?");
	return 0;
}

int
desktop_env_setup(void)
{
	const char *display = getenv("DISPLAY");
	char first[32], list[256], bus[320], found[400];
	int n, have_bus;

	if (display && *display)
		return 0;
	n = find_displays(first, sizeof(first), list, sizeof(list));
	have_bus = getenv("DBUS_SESSION_BUS_ADDRESS") ||
		   find_session_bus(bus, sizeof(bus));
	if (n == 1 && (have_bus || !mcp_opt.headless)) {
		setenv("DISPLAY", first, 1);
		if (!getenv("DBUS_SESSION_BUS_ADDRESS") && have_bus)
			setenv("DBUS_SESSION_BUS_ADDRESS", bus, 1);
		LOG_INFO("DISPLAY was unset: using the X server %s and %s",
			 first, getenv("DBUS_SESSION_BUS_ADDRESS") ?
				 getenv("DBUS_SESSION_BUS_ADDRESS") :
				 "no session bus");
		return 0;
	}
	if (mcp_opt.headless)
		return start_headless();
	if (n == 0)
		snprintf(found, sizeof(found),
			 "cua-mcp found no X server of this user in %s.",
			 X11_SOCKET_DIR);
	else
		snprintf(found, sizeof(found),
			 "cua-mcp found several X servers (%s) and cannot tell which one is the user's.",
			 list);
	snprintf(problem, sizeof(problem),
		 "Computer Use permissions are not granted. No X11 display is available (DISPLAY is unset or unreachable); Wayland-only sessions are not supported yet. %s Ask the user to pass DISPLAY (and DBUS_SESSION_BUS_ADDRESS) to this server in the MCP host's configuration, for example env = { DISPLAY = \":0\" } in Codex's config.toml or \"env\": { \"DISPLAY\": \":0\" } in .mcp.json, or to start cua-mcp with --headless.",
		 found);
	LOG_WARN("%s", problem);
	return 0;
}

void
desktop_env_teardown(void)
{
	if (!owned_dir)
		return;
	LOG_INFO("stopping the headless desktop");
	cua_desktop_stop_dir(owned_dir);
	free(owned_dir);
	owned_dir = NULL;
}
