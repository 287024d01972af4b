/*
 * Headless Wayland desktops through the public API: cua_desktop_* with
 * the option kind=sway, real sway, D-Bus and AT-SPI daemons. Runs outside
 * any desktop: it starts its own. What it proves: the desktop's clients
 * get a Wayland environment (WAYLAND_DISPLAY, SWAYSOCK) whose compositor
 * has one output of the asked size and whose accessibility bus is
 * enabled, and DISPLAY naming sway's Xwayland, which admits them (as
 * root too, while sway and Xwayland run as uid 65534); a libcua session
 * there chooses the wlroots driver all the same; a stop, the end of a run
 * and a stop after the supervisor was killed leave nothing behind (no
 * process, Xwayland included, no state directory, no runtime directory
 * of sway's, no socket, no X11 socket or lock file).
 *
 * `test-wl-desktop probe` runs inside the desktop's environment.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>

#include <cua/cua.h>

#include "common.h"

static char *self_exe;

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Running, and not a zombie. */
static int
running(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	return p && p[2] != 'Z' && p[2] != 'X';
}

/* The processes of DIR/pids. */
static int
read_pids(const char *dir, pid_t *pids, int max)
{
	char path[4096], key[32];
	unsigned long long start;
	int n = 0, pid;
	FILE *f;

	snprintf(path, sizeof(path), "%s/pids", dir);
	f = fopen(path, "re");
	assert_non_null(f);
	while (n < max && fscanf(f, "%31s %d %llu", key, &pid, &start) == 3)
		pids[n++] = pid;
	fclose(f);
	return n;
}

/* What a stop must remove: the state directory, sway's runtime
 * directory (as root, outside it), every recorded process, Xwayland's
 * socket and lock file. */
struct leftovers {
	char dir[1200];
	char runtime[1024];
	char x_socket[64], x_lock[64];
	pid_t x_pid; /* the pid in Xwayland's lock file: sway's */
	pid_t pids[17];
	int n;
};

/* The pid of the process running `Xwayland :N`, or 0. */
static pid_t
xwayland_pid(int n)
{
	char path[64], cmd[256], want[32];
	int len, pid, found = 0;
	FILE *f;

	len = snprintf(want, sizeof(want), "Xwayland%c:%d%c", 0, n, 0);
	for (pid = 2; pid < 4194304 && !found; pid++) {
		size_t got;

		snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		got = fread(cmd, 1, sizeof(cmd), f);
		fclose(f);
		found = got >= (size_t)len && memcmp(cmd, want, len) == 0;
	}
	return found ? pid - 1 : 0;
}

/* Xwayland of DISPLAY `display` (":N"): its socket, its lock file and
 * its process are among what must go. wlroots writes the compositor's
 * pid into the lock file. */
static void
record_x(struct leftovers *l, const char *display)
{
	char pid[32] = "";
	FILE *f;

	assert_non_null(display);
	assert_int_equal(display[0], ':');
	snprintf(l->x_socket, sizeof(l->x_socket), "/tmp/.X11-unix/X%d",
		 atoi(display + 1));
	snprintf(l->x_lock, sizeof(l->x_lock), "/tmp/.X%d-lock",
		 atoi(display + 1));
	f = fopen(l->x_lock, "re");
	assert_non_null(f);
	assert_non_null(fgets(pid, sizeof(pid), f));
	fclose(f);
	assert_int_equal(atoi(pid), l->pids[1]); /* sway's */
	l->x_pid = atoi(pid);
	l->pids[l->n] = xwayland_pid(atoi(display + 1));
	assert_true(l->pids[l->n++] > 1);
}

/* Xwayland's lock file or socket is left. Once both are gone, another X
 * server of this machine may take the display number: a lock file that
 * names another process, or a socket of another owner than sway's uid
 * (Xvfb's, which may have no lock file), is not ours. */
static int
x_left(const struct leftovers *l)
{
	char pid[32] = "";
	struct stat st;
	FILE *f;

	if (!l->x_lock[0])
		return 0;
	f = fopen(l->x_lock, "re");
	if (!f)
		return getuid() == 0 && stat(l->x_socket, &st) == 0 &&
		       st.st_uid == 65534;
	if (!fgets(pid, sizeof(pid), f))
		pid[0] = '\0';
	fclose(f);
	return atoi(pid) == l->x_pid;
}

static void
record(const char *dir, struct leftovers *l)
{
	char path[2048];
	FILE *f;

	memset(l, 0, sizeof(*l));
	snprintf(l->dir, sizeof(l->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/sway-runtime", dir);
	f = fopen(path, "re");
	if (getuid() == 0) {
		assert_non_null(f);
		assert_non_null(fgets(l->runtime, sizeof(l->runtime), f));
		l->runtime[strcspn(l->runtime, "\n")] = '\0';
		assert_true(exists(l->runtime));
	}
	if (f)
		fclose(f);
	l->n = read_pids(dir, l->pids, 16);
	/* the supervisor, then sway, dbus, launcher, registryd */
	assert_true(l->n >= 5);
	assert_true(l->pids[1] > 0);
}

static void
assert_nothing_left(const struct leftovers *l)
{
	int i, tries, left = 1;

	for (tries = 0; tries < 50 && left; tries++) {
		left = exists(l->dir) ||
		       (l->runtime[0] && exists(l->runtime)) || x_left(l);
		for (i = 0; i < l->n; i++)
			left |= running(l->pids[i]);
		if (left)
			sleep_ms(100);
	}
	assert_false(exists(l->dir));
	if (l->runtime[0])
		assert_false(exists(l->runtime));
	if (x_left(l))
		fail_msg("Xwayland's %s or %s is left", l->x_lock, l->x_socket);
	for (i = 0; i < l->n; i++)
		if (running(l->pids[i])) {
			fprintf(stderr, "# pid %d still runs\n",
				(int)l->pids[i]);
			fail();
		}
}

static cua_desktop *
new_sway(const char *dir, const char *screen)
{
	cua_desktop *d = NULL;

	assert_int_equal(cua_desktop_new(&d, 0), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "kind", "sway"), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "screen", screen), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "state_dir", dir), CUA_OK);
	return d;
}

/* `test-wl-desktop probe`: what a client of the desktop sees. */
static int
probe_main(void)
{
	char cmd[4096], line[256];
	cua_session *s = NULL;
	char *info = NULL;
	FILE *p;

	Display *x;

	printf("DISPLAY %s\n", getenv("DISPLAY") ? "set" : "unset");
	/* Xwayland admits the desktop's user */
	x = XOpenDisplay(NULL);
	printf("X11 %s\n", x ? "opens" : "refused");
	if (x)
		XCloseDisplay(x);
	/* the compositor's output, from sway's IPC */
	snprintf(cmd, sizeof(cmd),
		 "swaymsg -s '%s' -t get_outputs -r | "
		 "sed -n 's/^ *\"current_mode\": {/mode/p; "
		 "s/^ *\"\\(width\\|height\\)\": \\([0-9]*\\),*$/\\1 \\2/p'",
		 getenv("SWAYSOCK") ? getenv("SWAYSOCK") : "");
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p))
		fputs(line, stdout);
	if (p)
		pclose(p);
	/* no fixes of its own: the desktop must have them already */
	if (cua_session_new(&s, CUA_SESSION_NO_DESKTOP_FIXES) != CUA_OK) {
		printf("session: %s\n", cua_error_message());
		return 1;
	}
	if (cua_session_get_display_info(s, &info) == CUA_OK)
		printf("info %s\n", info);
	cua_free(info);
	cua_session_unref(s);
	return 0;
}

static void
test_start_stop(void **state)
{
	char base[] = "/tmp/cua-test-wl-desktop-XXXXXX", dir[1100];
	char out[16384], uid[64], path[4096];
	const char *wl, *sock;
	struct leftovers l;
	cua_desktop *d;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(base));
	snprintf(dir, sizeof(dir), "%s/desktop", base);
	d = new_sway(dir, "1024x700x24");
	assert_int_equal(cua_desktop_start(d), CUA_OK);
	record(dir, &l);
	/* the environment of a Wayland desktop, with Xwayland */
	record_x(&l, cua_desktop_get_env(d, "DISPLAY"));
	wl = cua_desktop_get_env(d, "WAYLAND_DISPLAY");
	sock = cua_desktop_get_env(d, "SWAYSOCK");
	assert_non_null(wl);
	assert_non_null(sock);
	assert_string_equal(cua_desktop_get_env(d, "XDG_SESSION_TYPE"),
			    "wayland");
	assert_string_equal(cua_desktop_get_env(d, "GDK_BACKEND"), "wayland");
	snprintf(path, sizeof(path), "%s/%s",
		 cua_desktop_get_env(d, "XDG_RUNTIME_DIR"), wl);
	assert_true(exists(path)); /* the link to sway's socket */
	/* as root, sway runs as uid 65534 */
	snprintf(path, sizeof(path), "/proc/%d/status", (int)l.pids[1]);
	f = fopen(path, "re");
	assert_non_null(f);
	while (fgets(uid, sizeof(uid), f) && strncmp(uid, "Uid:", 4))
		;
	fclose(f);
	if (getuid() == 0)
		assert_int_equal(atoi(uid + 4), 65534);
	else
		assert_int_equal(atoi(uid + 4), (int)getuid());

	assert_int_equal(desktop_probe(d, self_exe, out, sizeof(out)), 0);
	if (!strstr(out, "DISPLAY set\nX11 opens\n"))
		fail_msg("the desktop's client: %s", out);
	/* Xwayland runs as sway does */
	snprintf(path, sizeof(path), "/proc/%d/status", (int)l.pids[l.n - 1]);
	f = fopen(path, "re");
	assert_non_null(f);
	while (fgets(uid, sizeof(uid), f) && strncmp(uid, "Uid:", 4))
		;
	fclose(f);
	assert_int_equal(atoi(uid + 4), getuid() == 0 ? 65534 : (int)getuid());
	assert_non_null(strstr(out, "mode\nwidth 1024\nheight 700\n"));
	if (!strstr(out, "\"driver\": \"wlroots\""))
		fprintf(stderr, "# probe: %s\n", out);
	assert_non_null(strstr(out, "\"driver\": \"wlroots\""));
	assert_non_null(strstr(out, "sway"));

	assert_int_equal(cua_desktop_stop(d), CUA_OK);
	assert_nothing_left(&l);
	cua_desktop_unref(d);
	rmdir(base);
}

static void
test_run(void **state)
{
	char base[] = "/tmp/cua-test-wl-desktop-XXXXXX", dir[1100];
	char script[4096], copy[1200];
	const char *argv[] = { "sh", "-c", script, NULL };
	struct leftovers l;
	cua_desktop *d;
	int status = -1;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(base));
	snprintf(dir, sizeof(dir), "%s/desktop", base);
	snprintf(copy, sizeof(copy), "%s/pids.copy", base);
	/* the command copies what a stop must remove, then leaves a
	 * Wayland client behind */
	snprintf(
		script, sizeof(script),
		"test -S \"$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY\" || exit 1; "
		"cp \"$CUA_DESKTOP_DIR/pids\" '%s' && "
		"{ cat \"$CUA_DESKTOP_DIR/sway-runtime\" 2>/dev/null; echo; } > '%s.rt'; "
		"{ echo \"$DISPLAY\"; cat \"/tmp/.X${DISPLAY#:}-lock\"; } > '%s.x'; "
		"swaymsg -t get_version >/dev/null || exit 2; exit 7",
		copy, copy, copy);
	d = new_sway(dir, "800x600x24");
	assert_int_equal(cua_desktop_run(d, argv, &status), CUA_OK);
	assert_int_equal(status, 7);
	memset(&l, 0, sizeof(l));
	snprintf(l.dir, sizeof(l.dir), "%s", dir);
	{
		char path[1300];
		int pid;
		unsigned long long start;
		char key[32];

		f = fopen(copy, "re");
		assert_non_null(f);
		while (l.n < 16 &&
		       fscanf(f, "%31s %d %llu", key, &pid, &start) == 3)
			l.pids[l.n++] = pid;
		fclose(f);
		snprintf(path, sizeof(path), "%s.rt", copy);
		f = fopen(path, "re");
		assert_non_null(f);
		if (fgets(l.runtime, sizeof(l.runtime), f))
			l.runtime[strcspn(l.runtime, "\n")] = '\0';
		fclose(f);
		unlink(path);
		/* DISPLAY and the pid in Xwayland's lock file (sway's) */
		snprintf(path, sizeof(path), "%s.x", copy);
		f = fopen(path, "re");
		assert_non_null(f);
		assert_non_null(fgets(key, sizeof(key), f));
		assert_int_equal(fscanf(f, "%d", &pid), 1);
		fclose(f);
		l.x_pid = pid;
		unlink(path);
		assert_int_equal(key[0], ':');
		snprintf(l.x_socket, sizeof(l.x_socket), "/tmp/.X11-unix/X%d",
			 atoi(key + 1));
		snprintf(l.x_lock, sizeof(l.x_lock), "/tmp/.X%d-lock",
			 atoi(key + 1));
	}
	unlink(copy);
	assert_true(l.n >= 5);
	assert_nothing_left(&l);
	cua_desktop_unref(d);
	rmdir(base);
}

static void
test_dead_supervisor(void **state)
{
	char base[] = "/tmp/cua-test-wl-desktop-XXXXXX", dir[1100];
	struct leftovers l;
	cua_desktop *d, *a = NULL;
	int64_t pid;

	(void)state;
	assert_non_null(mkdtemp(base));
	snprintf(dir, sizeof(dir), "%s/desktop", base);
	assert_int_equal(cua_desktop_new(&d, CUA_DESKTOP_DETACHED), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "kind", "sway"), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "state_dir", dir), CUA_OK);
	assert_int_equal(cua_desktop_start(d), CUA_OK);
	record(dir, &l);
	record_x(&l, cua_desktop_get_env(d, "DISPLAY"));
	pid = cua_desktop_get_pid(d);
	assert_true(pid > 1);
	cua_desktop_unref(d); /* detached: it keeps running */
	assert_int_equal(kill((pid_t)pid, SIGKILL), 0);
	while (running((pid_t)pid))
		sleep_ms(20);
	/* sway and the buses are orphans now; a stop cleans up */
	assert_true(running(l.pids[1]));
	assert_int_equal(cua_desktop_attach(&a, dir), CUA_OK);
	assert_int_equal(cua_desktop_stop(a), CUA_ERROR_NOT_FOUND);
	assert_nothing_left(&l);
	cua_desktop_unref(a);
	rmdir(base);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_stop),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_dead_supervisor),
	};

	self_exe = realpath(argv[0], NULL);
	if (argc > 1 && !strcmp(argv[1], "probe"))
		return probe_main();
	unsetenv("CUA_DESKTOP_DIR");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
