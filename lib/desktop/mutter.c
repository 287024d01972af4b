/*
 * Headless desktops, the Wayland kind "mutter": GNOME's compositor
 * without gnome-shell (`mutter --headless --wayland --no-x11
 * --virtual-monitor WxH`), one virtual monitor of the requested size,
 * no Xwayland, and PipeWire with WirePlumber for its screen casts. Plain
 * mutter, not gnome-shell: the shell needs a system bus, starts in the
 * overview, covers the screen with notifications and costs a core.
 *
 * mutter offers its remote-desktop and screen-cast interfaces
 * (org.gnome.Mutter.RemoteDesktop, org.gnome.Mutter.ScreenCast) on the
 * session bus, so the bus starts first (bus_first). Readiness: the
 * Wayland socket exists in the desktop's XDG_RUNTIME_DIR and mutter owns
 * org.gnome.Mutter.RemoteDesktop. Then pipewire starts (ready when its
 * socket pipewire-0 exists) and wireplumber, without which a screen cast
 * never delivers a frame. mutter runs as root too.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "desktop.h"

#define MUTTER_DISPLAY "wayland-0"
#define REMOTE_DESKTOP_NAME "org.gnome.Mutter.RemoteDesktop"

/* Waits until `name` is a socket in the desktop's runtime directory while
 * daemon `id` runs. */
static int
wait_socket(struct desktop *d, const char *name, enum daemon_id id)
{
	const char *what = desktop_daemon(d, id)->name;
	char *path = g_build_filename(d->vars[VAR_XDG_RUNTIME_DIR], name, NULL);
	long long deadline = now_ms() + STEP_TIMEOUT_MS;
	struct stat st;
	char buf[64];
	int r = 0;

	while (lstat(path, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		reap_children(d);
		if (d->daemon[id].reaped) {
			r = fail_daemon(d, id, "%s exited during startup (%s)",
					what,
					describe_status(d->daemon[id].status,
							buf, sizeof(buf)));
			break;
		}
		if (now_ms() >= deadline) {
			r = fail_daemon(d, id,
					"%s did not create %s within %d s",
					what, path, STEP_TIMEOUT_MS / 1000);
			break;
		}
		if (pause_ms(d, POLL_MS) < 0) {
			r = fail_interrupted(d);
			break;
		}
	}
	g_free(path);
	return r;
}

static int
start_media(struct desktop *d)
{
	const char *pw[] = { "pipewire", NULL };
	const char *wp[] = { "wireplumber", NULL };

	if (spawn_daemon(d, DAEMON_PIPEWIRE, pw, -1) < 0 ||
	    wait_socket(d, "pipewire-0", DAEMON_PIPEWIRE) < 0)
		return -1;
	return spawn_daemon(d, DAEMON_WIREPLUMBER, wp, -1);
}

static int
start_mutter(struct desktop *d)
{
	unsigned int w = 0, h = 0;
	char size[32];
	const char *argv[] = { "mutter",
			       "--headless",
			       "--wayland",
			       "--no-x11",
			       "--virtual-monitor",
			       size,
			       "--wayland-display",
			       MUTTER_DISPLAY,
			       NULL };

	sscanf(d->screen, "%ux%u", &w, &h);
	snprintf(size, sizeof(size), "%ux%u", w, h);
	d->vars[VAR_GSK_RENDERER] = g_strdup("cairo");
	d->vars[VAR_XDG_SESSION_TYPE] = g_strdup("wayland");
	d->vars[VAR_GDK_BACKEND] = g_strdup("wayland");
	if (spawn_daemon(d, DAEMON_DISPLAY, argv, -1) < 0 ||
	    wait_socket(d, MUTTER_DISPLAY, DAEMON_DISPLAY) < 0 ||
	    wait_name_owner(d, d->session_bus, REMOTE_DESKTOP_NAME, "session",
			    DAEMON_DISPLAY) < 0)
		return -1;
	d->vars[VAR_WAYLAND_DISPLAY] = g_strdup(MUTTER_DISPLAY);
	return start_media(d);
}

const struct desktop_kind desktop_kind_mutter = {
	.name = "mutter",
	.display = { "mutter", "mutter", "mutter", "mutter", "mutter.log" },
	.wm = { "wm", NULL, NULL, NULL, NULL },
	.start_display = start_mutter,
	.check_fixes = desktop_no_fixes,
	.start_wm = NULL,
	.disconnect = desktop_no_connection,
	.cleanup = NULL,
	.bus_first = 1,
	.media = 1,
};
