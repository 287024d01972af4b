/*
 * cua-mcp: which desktop to work on.
 *
 * MCP hosts often start servers with a stripped environment (no DISPLAY,
 * no bus address). With DISPLAY unset, cua-mcp looks for the user's X
 * server (exactly one usable socket in /tmp/.X11-unix) and session bus
 * ($XDG_RUNTIME_DIR/bus) — docs/tools.md §8. With --headless and no desktop,
 * it starts a private one (libcua's cua_desktop_start(), what `cua desktop`
 * does) and stops it on exit; the desktop also stops when the server is
 * killed.
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

#include "mcp.h"

#define X11_SOCKET_DIR "/tmp/.X11-unix"

static cua_desktop *owned; /* the desktop we started (--headless) */
static char problem[1024]; /* why there is no display */

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
		snprintf(path, sizeof(path), "%s/%s", X11_SOCKET_DIR,
			 e->d_name);
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

/* The headless desktop's warnings (a daemon that exited, ...). */
static void
desktop_log(cua_desktop *desktop, cua_log_level level, const char *message,
	    void *data)
{
	(void)desktop;
	(void)data;
	mcp_log(level, "cua-mcp", "headless desktop: %s", message);
}

static int
start_headless(void)
{
	const char *name, *value;
	cua_result r;
	size_t i;

	LOG_INFO("no desktop found: starting a headless one");
	r = cua_desktop_new(&owned, 0);
	if (r == CUA_OK) {
		cua_desktop_set_log_handler(owned, desktop_log, NULL);
		r = cua_desktop_start(owned);
	}
	if (r != CUA_OK) {
		fprintf(stderr,
			"cua-mcp: --headless: the headless desktop did not start: %s\n",
			cua_error_message());
		owned = cua_desktop_unref(owned);
		return -1;
	}
	/* our own environment is what libcua sessions read; the apps
	 * libcua launches inherit it */
	for (i = 0; i < cua_desktop_get_env_count(owned); i++) {
		name = cua_desktop_get_env_name(owned, i);
		value = cua_desktop_get_env(owned, name);
		if (value)
			setenv(name, value, 1);
		else
			unsetenv(name);
	}
	LOG_INFO("headless desktop on %s (%s)", getenv("DISPLAY"),
		 cua_desktop_get_state_dir(owned));
	return 0;
}

/* WAYLAND_DISPLAY names a socket that answers (a name in
 * $XDG_RUNTIME_DIR, or a path). */
static int
wayland_usable(const char *name)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char path[300];

	if (!name || !*name)
		return 0;
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else if (rt && *rt)
		snprintf(path, sizeof(path), "%s/%s", rt, name);
	else
		return 0;
	return socket_connects(path);
}

int
desktop_env_setup(void)
{
	const char *display = getenv("DISPLAY");
	char first[32], list[256], bus[320], found[400];
	int n, have_bus;

	if (display && *display)
		return 0;
	/* a Wayland session: libcua picks its display driver from it */
	if (wayland_usable(getenv("WAYLAND_DISPLAY"))) {
		LOG_INFO("DISPLAY is unset: using the Wayland display %s",
			 getenv("WAYLAND_DISPLAY"));
		return 0;
	}
	n = find_displays(first, sizeof(first), list, sizeof(list));
	have_bus = getenv("DBUS_SESSION_BUS_ADDRESS") ||
		   find_session_bus(bus, sizeof(bus));
	if (n == 1 && (have_bus || !mcp_opt.headless)) {
		setenv("DISPLAY", first, 1);
		if (!getenv("DBUS_SESSION_BUS_ADDRESS") && have_bus)
			setenv("DBUS_SESSION_BUS_ADDRESS", bus, 1);
		LOG_INFO("DISPLAY was unset: using the X server %s and %s",
			 first,
			 getenv("DBUS_SESSION_BUS_ADDRESS") ?
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
		snprintf(
			found, sizeof(found),
			"cua-mcp found several X servers (%s) and cannot tell which one is the user's.",
			list);
	snprintf(
		problem, sizeof(problem),
		"Computer Use permissions are not granted. No display is available (DISPLAY is unset or unreachable, and WAYLAND_DISPLAY is unset or unreachable). %s Ask the user to pass DISPLAY or WAYLAND_DISPLAY (and DBUS_SESSION_BUS_ADDRESS) to this server in the MCP host's configuration, for example env = { DISPLAY = \":0\" } in Codex's config.toml or \"env\": { \"DISPLAY\": \":0\" } in .mcp.json, or to start cua-mcp with --headless.",
		found);
	LOG_WARN("%s", problem);
	return 0;
}

void
desktop_env_teardown(void)
{
	if (!owned)
		return;
	LOG_INFO("stopping the headless desktop");
	if (cua_desktop_stop(owned) != CUA_OK)
		LOG_WARN("stopping the headless desktop: %s",
			 cua_error_message());
	owned = cua_desktop_unref(owned);
}
