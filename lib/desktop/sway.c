/*
 * Headless desktops, the Wayland kind "sway": sway on wlroots' headless
 * backend (WLR_BACKENDS=headless, WLR_LIBINPUT_NO_DEVICES=1, the pixman
 * renderer), one output HEADLESS-1 of the requested size at 0,0, and
 * Xwayland for the apps that speak only X11 (started by sway on the first
 * X11 connection; its DISPLAY is exported to the desktop's clients). sway
 * is the compositor and the window manager at once. Every window, native
 * or Xwayland, floats at the size its app asks for, placed at the output's
 * top-left corner (whole pixels), as on the X11 desktop: an app has the
 * same size and layout on both kinds of desktop, and windows overlap
 * instead of sharing the output in tiles.
 *
 * sway refuses to run as root. A root supervisor runs it as uid/gid
 * 65534 (setpriv) with a runtime directory of its own, owned by that uid
 * (the state directory is root's and closed to it); the desktop's
 * XDG_RUNTIME_DIR keeps root's and gets a link to sway's Wayland socket.
 * The runtime directory's path is kept in DIR/sway-runtime so that a stop
 * after a dead supervisor removes it too. Not as root, sway runs as the
 * caller with DIR/sway as its runtime directory.
 *
 * Xwayland runs as sway's uid and admits only that uid's clients: as
 * root, the supervisor adds root to its access list (xwayland.c), which
 * starts it, while the buses start. Without the Xwayland program the
 * desktop runs without it, and without DISPLAY, with a warning.
 *
 * Readiness: the last line of sway's configuration writes its
 * WAYLAND_DISPLAY, SWAYSOCK and DISPLAY to fd 3, the supervisor's
 * readiness pipe; sway runs it once its output and sockets exist.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "desktop.h"

#define SWAY_UID 65534 /* nobody */
#define RUNTIME_FILE "sway-runtime"
#define RUNTIME_PREFIX "cua-sway-"

/* A runtime directory outside DIR, owned by the uid sway runs as. */
static char *
make_runtime_dir(struct desktop *d)
{
	char *path;

	if (getuid() != 0) {
		path = g_build_filename(d->dir, "sway", NULL);
		if (mkdir(path, 0700) < 0) {
			fail(d, "cannot create %s: %s", path, strerror(errno));
			g_free(path);
			return NULL;
		}
		return path;
	}
	path = g_build_filename(g_get_tmp_dir(), RUNTIME_PREFIX "XXXXXX", NULL);
	if (!g_mkdtemp_full(path, 0700)) {
		fail(d, "cannot create %s: %s", path, strerror(errno));
		g_free(path);
		return NULL;
	}
	if (write_state_file(d->dir, RUNTIME_FILE, path) < 0 ||
	    chown(path, SWAY_UID, SWAY_UID) < 0) {
		fail(d, "cannot prepare %s for uid %d: %s", path, SWAY_UID,
		     strerror(errno));
		rm_tree(path);
		g_free(path);
		return NULL;
	}
	return path;
}

/* "exec 'SUPERVISOR' hold-pointer" for sway's config (helper.c says why
 * the seat keeps a pointer), or "" when this program's path cannot be
 * quoted for the shell sway runs it with. */
static char *
hold_pointer_line(struct desktop *d)
{
	char *self = g_file_read_link("/proc/self/exe", NULL), *line;

	if (!self || strchr(self, '\'') || strchr(self, '\n')) {
		warn(d,
		     "cannot run %s hold-pointer under sway: sway may crash "
		     "when X11 apps run",
		     SUPERVISOR_NAME);
		g_free(self);
		return g_strdup("");
	}
	line = g_strdup_printf("exec '%s' hold-pointer\n", self);
	g_free(self);
	return line;
}

static char *
write_config(struct desktop *d, const char *rt, unsigned int w, unsigned int h,
	     int xwayland)
{
	char *path = g_build_filename(rt, "config", NULL);
	char *hold = xwayland ? hold_pointer_line(d) : g_strdup("");
	char *text = g_strdup_printf(
		"output HEADLESS-1 mode --custom %ux%u@60Hz position 0 0\n"
		"xwayland %s\n"
		"for_window [app_id=\".*\"] floating enable, move position 0 0\n"
		"for_window [shell=\"xwayland\"] floating enable, "
		"move position 0 0\n"
		"%s"
		"exec printf '%%s\\t%%s\\t%%s\\n' \"$WAYLAND_DISPLAY\" "
		"\"$SWAYSOCK\" \"$DISPLAY\" >&3\n",
		w, h, xwayland ? "enable" : "disable", hold);
	int r = write_state_file(rt, "config", text);

	g_free(hold);
	g_free(text);
	if (r < 0 || (getuid() == 0 && chown(path, SWAY_UID, SWAY_UID) < 0)) {
		fail(d, "cannot write %s: %s", path, strerror(errno));
		g_free(path);
		return NULL;
	}
	return path;
}

static int
spawn_sway(struct desktop *d, const char *rt, const char *config, int fd3)
{
	const struct daemon_info *info = desktop_daemon(d, DAEMON_DISPLAY);
	char *log = g_build_filename(d->dir, info->log, NULL);
	struct spawn_opts opts = { .log_path = log, .fd3 = fd3, .fd4 = -1 };
	char *path_var = g_strconcat(
		"PATH=", g_getenv("PATH") ? g_getenv("PATH") : "/usr/bin:/bin",
		NULL);
	char *home = g_strconcat("HOME=", rt, NULL);
	char *xdg = g_strconcat("XDG_RUNTIME_DIR=", rt, NULL);
	const char *const envp[] = { path_var,
				     home,
				     xdg,
				     "WLR_BACKENDS=headless",
				     "WLR_LIBINPUT_NO_DEVICES=1",
				     "WLR_RENDERER=pixman",
				     NULL };
	char uid[32], gid[32], *setpriv = NULL;
	const char *argv[10];
	const char *program = d->programs[DAEMON_DISPLAY];
	int n = 0, error = 0, r = 0;
	pid_t pid;

	if (getuid() == 0) {
		setpriv = g_find_program_in_path("setpriv");
		if (!setpriv) {
			r = fail(
				d,
				"setpriv is not installed (apt-get install util-linux); "
				"it runs sway as uid %d, since sway refuses to run as root",
				SWAY_UID);
			goto out;
		}
		snprintf(uid, sizeof(uid), "--reuid=%d", SWAY_UID);
		snprintf(gid, sizeof(gid), "--regid=%d", SWAY_UID);
		argv[n++] = "setpriv";
		argv[n++] = uid;
		argv[n++] = gid;
		argv[n++] = "--clear-groups";
		argv[n++] = "--";
		argv[n++] = program;
		program = setpriv;
	} else {
		argv[n++] = "sway";
	}
	argv[n++] = "-c";
	argv[n++] = config;
	argv[n] = NULL;
	pid = spawn(program, (char *const *)argv, (char *const *)envp, &opts,
		    &error);
	if (pid < 0) {
		r = fail(d, "cannot run %s: %s", program, strerror(error));
		goto out;
	}
	proc_init(&d->daemon[DAEMON_DISPLAY], pid, 1);
	write_pids(d);
	note(d, "started sway (pid %d)", (int)pid);
out:
	g_free(setpriv);
	g_free(path_var);
	g_free(home);
	g_free(xdg);
	g_free(log);
	return r;
}

/* Links sway's socket into the desktop's runtime directory; the line is
 * WAYLAND_DISPLAY, SWAYSOCK and DISPLAY (empty without Xwayland). */
static int
publish_display(struct desktop *d, const char *rt, char *line, int xwayland)
{
	char *tab = strchr(line, '\t'), *x = tab ? strchr(tab + 1, '\t') : NULL;
	char *socket = NULL, *link = NULL;
	struct stat st;
	int r = 0;

	if (!tab || tab == line || memchr(line, '/', (size_t)(tab - line)) ||
	    !x || x == tab + 1 || (xwayland && !x[1]))
		return fail_daemon(
			d, DAEMON_DISPLAY,
			"sway reported \"%s\" instead of its Wayland "
			"display, IPC socket and X11 display",
			line);
	*tab = '\0';
	*x = '\0';
	socket = g_build_filename(rt, line, NULL);
	link = g_build_filename(d->vars[VAR_XDG_RUNTIME_DIR], line, NULL);
	if (lstat(socket, &st) < 0 || !S_ISSOCK(st.st_mode))
		r = fail_daemon(
			d, DAEMON_DISPLAY,
			"sway reported the Wayland display %s, but %s is "
			"not a socket",
			line, socket);
	else if (symlink(socket, link) < 0)
		r = fail(d, "cannot link %s to %s: %s", link, socket,
			 strerror(errno));
	if (r == 0) {
		d->vars[VAR_WAYLAND_DISPLAY] = g_strdup(line);
		d->vars[VAR_SWAYSOCK] = g_strdup(tab + 1);
		if (xwayland)
			d->vars[VAR_DISPLAY] = g_strdup(x + 1);
	}
	g_free(socket);
	g_free(link);
	return r;
}

static int
start_sway(struct desktop *d)
{
	unsigned int w = 0, h = 0;
	char *rt, *config = NULL, *line = NULL;
	char *xwayland = g_find_program_in_path("Xwayland");
	int fds[2], r = -1;

	sscanf(d->screen, "%ux%u", &w, &h);
	if (!xwayland)
		warn(d, "Xwayland is not installed (apt-get install xwayland): "
			"X11 apps cannot run on this desktop");
	d->vars[VAR_GSK_RENDERER] = g_strdup("cairo");
	d->vars[VAR_XDG_SESSION_TYPE] = g_strdup("wayland");
	d->vars[VAR_GDK_BACKEND] = g_strdup("wayland");
	rt = make_runtime_dir(d);
	if (!rt)
		return -1;
	config = write_config(d, rt, w, h, xwayland != NULL);
	if (!config)
		goto out;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		fail(d, "pipe: %s", strerror(errno));
		goto out;
	}
	r = spawn_sway(d, rt, config, fds[1]);
	close(fds[1]);
	if (r == 0)
		r = read_ready_line(d, fds[0], DAEMON_DISPLAY, &line);
	close(fds[0]);
	if (r == 0)
		r = publish_display(d, rt, line, xwayland != NULL);
	/* Xwayland starts on this first connection, while the buses do */
	if (r == 0 && xwayland && getuid() == 0)
		r = xwayland_grant_start(d, d->vars[VAR_DISPLAY], SWAY_UID);
out:
	g_free(xwayland);
	g_free(line);
	g_free(config);
	g_free(rt);
	return r;
}

/* Nothing X11-specific to read back: IsEnabled is checked by the caller. */
int
desktop_no_fixes(struct desktop *d)
{
	(void)d;
	return 0;
}

/* Before the desktop is ready: Xwayland admits the desktop's user. */
static int
sway_check_fixes(struct desktop *d)
{
	return xwayland_grant_wait(d);
}

void
desktop_no_connection(struct desktop *d)
{
	(void)d;
}

/* Removes sway's runtime directory outside DIR (root's case), and what
 * a crashed sway left of Xwayland. */
static void
remove_runtime_dir(struct desktop *d)
{
	char *path = d->dir ? read_state_file(d->dir, RUNTIME_FILE) : NULL;
	char *base;
	struct stat st;

	xwayland_cleanup(d);
	if (!path)
		return;
	g_strstrip(path);
	base = g_path_get_basename(path);
	/* only what make_runtime_dir() makes: a directory cua-sway-XXXXXX */
	if (g_path_is_absolute(path) &&
	    g_str_has_prefix(base, RUNTIME_PREFIX) &&
	    strlen(base) == strlen(RUNTIME_PREFIX) + 6 &&
	    lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		rm_tree(path);
		if (access(path, F_OK) == 0)
			warn(d, "could not remove %s", path);
	}
	g_free(base);
	g_free(path);
}

const struct desktop_kind desktop_kind_sway = {
	.name = "sway",
	.display = { "sway", "sway", "sway", "sway", "sway.log" },
	.wm = { "wm", NULL, NULL, NULL, NULL },
	.start_display = start_sway,
	.check_fixes = sway_check_fixes,
	.start_wm = NULL,
	.disconnect = desktop_no_connection,
	.cleanup = remove_runtime_dir,
};
