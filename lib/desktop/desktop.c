/*
 * Headless desktops: the start sequence and the teardown.
 *
 *   display server (Xvfb) -> dbus-daemon --session -> at-spi-bus-launcher
 *   -> at-spi2-registryd -> libcua's accessibility fixes -> window manager
 *
 * A kind whose compositor offers its interfaces on the session bus
 * (mutter) starts the bus first; its start_display also starts PipeWire
 * and WirePlumber.
 *
 * Each step waits for its daemon with a deadline. The accessibility fixes
 * (the root window's AT_SPI_BUS property, org.a11y.Status.IsEnabled) are
 * the ones every libcua session applies to a desktop that lacks them: a
 * short-lived process opens a session on the new desktop, and the start
 * reads back that they took effect. The teardown stops every client of
 * the desktop's two buses, then its daemons in reverse order, and removes
 * the state directory.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "desktop.h"

static const struct daemon_info bus_daemons[] = {
	[DAEMON_DBUS] = { "dbus", "dbus-daemon", "dbus-daemon", "dbus",
			  "dbus.log" },
	[DAEMON_LAUNCHER] = { "launcher", "at-spi-bus-launcher",
			      "/usr/libexec/at-spi-bus-launcher",
			      "at-spi2-core", "launcher.log" },
	[DAEMON_REGISTRYD] = { "registryd", "at-spi2-registryd",
			       "/usr/libexec/at-spi2-registryd", "at-spi2-core",
			       "registryd.log" },
	[DAEMON_PIPEWIRE] = { "pipewire", "pipewire", "pipewire",
			      "pipewire-bin", "pipewire.log" },
	[DAEMON_WIREPLUMBER] = { "wireplumber", "wireplumber", "wireplumber",
				 "wireplumber", "wireplumber.log" },
};

static const struct desktop_kind *const kinds[] = {
	&desktop_kind_x11,
	&desktop_kind_sway,
	&desktop_kind_mutter,
};

const struct desktop_kind *
desktop_kind_find(const char *name)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(kinds); i++)
		if (!strcmp(kinds[i]->name, name))
			return kinds[i];
	return NULL;
}

const char *
desktop_kind_name(size_t index)
{
	return index < G_N_ELEMENTS(kinds) ? kinds[index]->name : NULL;
}

const struct daemon_info *
desktop_daemon(const struct desktop *d, enum daemon_id id)
{
	if (id == DAEMON_DISPLAY)
		return &d->kind->display;
	if (id == DAEMON_WM)
		return &d->kind->wm;
	return &bus_daemons[id];
}

int
desktop_valid_screen(const char *s)
{
	unsigned int w, h, depth;
	char end;

	return sscanf(s, "%ux%ux%u%c", &w, &h, &depth, &end) == 3 && w > 0 &&
	       h > 0 && w <= 32767 && h <= 32767 && depth > 0 && depth <= 32 &&
	       strspn(s, "0123456789x") == strlen(s);
}

void
desktop_init(struct desktop *d)
{
	memset(d, 0, sizeof(*d));
	d->kind = &desktop_kind_x11;
	d->screen = g_strdup("1280x1024x24");
	d->sigfd = -1;
	d->owner_fd = -1;
	d->report_fd = -1;
	d->helper_fd = -1;
}

void
desktop_free(struct desktop *d)
{
	int i;

	if (d->kind && d->kind->disconnect)
		d->kind->disconnect(d);
	bus_close(d, &d->a11y_bus);
	bus_close(d, &d->session_bus);
	g_free(d->dir);
	g_free(d->screen);
	for (i = 0; i < DAEMON_COUNT; i++)
		g_free(d->programs[i]);
	for (i = 0; i < VAR_COUNT; i++)
		g_free(d->vars[i]);
	g_free(d->err);
	if (d->ctx)
		g_main_context_unref(d->ctx);
	if (d->sigfd >= 0)
		close(d->sigfd);
	if (d->owner_fd >= 0)
		close(d->owner_fd);
	if (d->helper_fd >= 0)
		close(d->helper_fd);
	memset(d, 0, sizeof(*d));
	d->sigfd = d->owner_fd = d->report_fd = d->helper_fd = -1;
}

/* ---- start sequence --------------------------------------------------- */

static int
has_wm(const struct desktop *d)
{
	return !d->no_wm && d->kind->wm.program;
}

static int
resolve_programs(struct desktop *d)
{
	const struct daemon_info *info;
	int i;

	for (i = 0; i < DAEMON_COUNT; i++) {
		if (i == DAEMON_WM && !has_wm(d))
			continue;
		if ((i == DAEMON_PIPEWIRE || i == DAEMON_WIREPLUMBER) &&
		    !d->kind->media)
			continue;
		info = desktop_daemon(d, i);
		d->programs[i] = g_find_program_in_path(info->program);
		if (!d->programs[i] && i != DAEMON_WM)
			return fail(d,
				    "%s is not installed (apt-get install %s)",
				    info->name, info->package);
	}
	return 0;
}

int
spawn_daemon(struct desktop *d, enum daemon_id id, const char *const argv[],
	     int fd3)
{
	const struct daemon_info *info = desktop_daemon(d, id);
	char *log = g_build_filename(d->dir, info->log, NULL);
	struct spawn_opts opts = { .log_path = log, .fd3 = fd3, .fd4 = -1 };
	char **envp = desktop_envp(d);
	int error = 0;
	pid_t pid;

	pid = spawn(d->programs[id], (char *const *)argv, envp, &opts, &error);
	g_strfreev(envp);
	g_free(log);
	if (pid < 0) {
		if (error == ENOENT)
			return fail(d,
				    "%s is not installed (apt-get install %s)",
				    info->name, info->package);
		return fail(d, "cannot run %s: %s", d->programs[id],
			    strerror(error));
	}
	proc_init(&d->daemon[id], pid, 1);
	write_pids(d);
	note(d, "started %s (pid %d)", info->name, (int)pid);
	return 0;
}

/* Reads the first line a daemon writes to fd (its readiness message). */
int
read_ready_line(struct desktop *d, int fd, enum daemon_id id, char **line)
{
	long long deadline = now_ms() + STEP_TIMEOUT_MS;
	const char *name = desktop_daemon(d, id)->name;
	GString *buf = g_string_new(NULL);
	struct pollfd pfd[3];
	char chunk[256], st[64], *nl;
	ssize_t n;
	int left;

	for (;;) {
		left = (int)(deadline - now_ms());
		if (left <= 0) {
			fail_daemon(d, id, "%s did not start within %d s", name,
				    STEP_TIMEOUT_MS / 1000);
			break;
		}
		pfd[0] = (struct pollfd){ .fd = fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = d->sigfd, .events = POLLIN };
		pfd[2] = (struct pollfd){ .fd = d->owner_fd, .events = POLLIN };
		if (poll(pfd, 3, left) < 0 && errno != EINTR) {
			fail(d, "poll: %s", strerror(errno));
			break;
		}
		if (handle_signals(d) < 0) {
			fail_interrupted(d);
			break;
		}
		if (!pfd[0].revents)
			continue;
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n > 0) {
			g_string_append_len(buf, chunk, n);
			nl = strchr(buf->str, '\n');
			if (!nl)
				continue;
			*nl = '\0';
			*line = g_strdup(g_strstrip(buf->str));
			g_string_free(buf, TRUE);
			return 0;
		}
		/* EOF: it exited (or closed the fd) without a word */
		wait_gone(d, &d->daemon[id], 1000);
		if (d->daemon[id].reaped)
			fail_daemon(d, id, "%s exited during startup (%s)",
				    name,
				    describe_status(d->daemon[id].status, st,
						    sizeof(st)));
		else
			fail_daemon(
				d, id,
				"%s closed its readiness pipe without writing to it",
				name);
		break;
	}
	g_string_free(buf, TRUE);
	return -1;
}

/*
 * libcua's accessibility fixes, applied by the library's own code: a
 * short-lived `cua-desktop apply-fixes` opens a session on the new
 * desktop (its environment names it), which sets what is missing. A
 * separate process, because this one already runs GDBus threads and the
 * session reads the desktop from its environment.
 */
static int
apply_fixes(struct desktop *d)
{
	char *log = g_build_filename(d->dir, "fixes.log", NULL);
	const char *argv[] = { SUPERVISOR_NAME, "apply-fixes", NULL };
	struct spawn_opts opts = { .log_path = log, .fd3 = -1, .fd4 = -1 };
	char **envp = desktop_envp(d);
	long long deadline;
	int error = 0;
	char st[64];
	pid_t pid;

	pid = spawn("/proc/self/exe", (char *const *)argv, envp, &opts, &error);
	g_strfreev(envp);
	g_free(log);
	if (pid < 0)
		return fail(d, "cannot run %s apply-fixes: %s", SUPERVISOR_NAME,
			    strerror(error));
	proc_init(&d->fixes, pid, 1);
	deadline = now_ms() + STEP_TIMEOUT_MS;
	while (!d->fixes.reaped) {
		if (now_ms() >= deadline) {
			proc_kill(&d->fixes, SIGKILL);
			wait_gone(d, &d->fixes, KILL_WAIT_MS);
			return fail_log(
				d, "fixes.log",
				"libcua's accessibility fixes did not finish within %d s",
				STEP_TIMEOUT_MS / 1000);
		}
		if (pause_ms(d, POLL_MS) < 0)
			return fail_interrupted(d);
	}
	if (!WIFEXITED(d->fixes.status) || WEXITSTATUS(d->fixes.status) != 0)
		return fail_log(
			d, "fixes.log",
			"libcua could not apply its accessibility fixes to the desktop (%s)",
			describe_status(d->fixes.status, st, sizeof(st)));
	note(d, "applied libcua's accessibility fixes (pid %d)", (int)pid);
	if (d->kind->check_fixes(d) < 0 || check_a11y_enabled(d) < 0)
		return -1;
	publish_activation_env(d);
	return 0;
}

static int
start_wm(struct desktop *d)
{
	if (!has_wm(d))
		return 0;
	if (!d->programs[DAEMON_WM]) {
		warn(d,
		     "%s is not installed (apt-get install %s); continuing without a window manager",
		     d->kind->wm.name, d->kind->wm.package);
		return 0;
	}
	return d->kind->start_wm(d);
}

int
desktop_start(struct desktop *d)
{
	char *text, pid[32];
	int r;

	if (resolve_programs(d) < 0 || make_state_dir(d) < 0)
		return -1;
	note(d, "state directory %s", d->dir);
	write_pids(d);
	text = g_strconcat(d->kind->name, "\n", NULL);
	if (write_state_file(d->dir, "kind", text) < 0)
		warn(d, "cannot write %s/kind: %s", d->dir, strerror(errno));
	g_free(text);
	if (d->kind->bus_first) {
		r = start_dbus(d);
		if (r == 0)
			r = d->kind->start_display(d);
	} else {
		r = d->kind->start_display(d);
		if (r == 0)
			r = start_dbus(d);
	}
	if (r == 0)
		r = start_launcher(d);
	if (r == 0)
		r = start_registryd(d);
	if (r == 0)
		r = apply_fixes(d);
	if (r == 0)
		r = start_wm(d);
	/* the connections are not needed while the desktop runs */
	d->kind->disconnect(d);
	bus_close(d, &d->a11y_bus);
	bus_close(d, &d->session_bus);
	if (r < 0)
		return -1;

	text = desktop_env_text(d->vars);
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (write_state_file(d->dir, "env", text) < 0 ||
	    write_state_file(d->dir, "supervisor.pid", pid) < 0)
		r = fail(d,
			 "cannot write to %s: %s (free some space, or set "
			 "XDG_RUNTIME_DIR to a writable directory)",
			 d->dir, strerror(errno));
	g_free(text);
	return r;
}

/* ---- teardown --------------------------------------------------------- */

void
desktop_teardown(struct desktop *d)
{
	static const enum daemon_id order[] = {
		DAEMON_WM,        DAEMON_WIREPLUMBER, DAEMON_PIPEWIRE,
		DAEMON_REGISTRYD, DAEMON_LAUNCHER,    DAEMON_DBUS,
		DAEMON_DISPLAY,
	};
	size_t i;

	d->tearing_down = 1;
	d->kind->disconnect(d);
	bus_close(d, &d->a11y_bus);
	bus_close(d, &d->session_bus);
	if (d->cmd.pid > 0)
		stop_proc(d, &d->cmd, d->stop_signal ? d->stop_signal : SIGTERM,
			  "command");
	if (d->fixes.pid > 0)
		stop_proc(d, &d->fixes, SIGKILL, "apply-fixes");
	if (d->vars[VAR_SESSION_BUS] || d->vars[VAR_A11Y_BUS])
		stop_bus_clients(d);
	for (i = 0; i < G_N_ELEMENTS(order); i++)
		stop_proc(d, &d->daemon[order[i]], SIGTERM,
			  desktop_daemon(d, order[i])->name);
	if (d->supervisor)
		sweep_children(d);
	if (d->kind->cleanup)
		d->kind->cleanup(d);
	remove_state_dir(d);
}
