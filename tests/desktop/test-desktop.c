/*
 * Headless desktops through the public API (cua_desktop_*), with real
 * Xvfb, D-Bus and AT-SPI daemons. Runs outside any desktop: it starts its
 * own. What it proves: a started desktop is usable (its display has the
 * asked size, the accessibility fixes are in place, a libcua session opens
 * in its environment); a stop, the end of a run, the death of the owning
 * process and a stop after the supervisor was killed all leave nothing
 * behind (no daemon, no leftover process, no state directory); a run
 * gives the command's status; bad options and misuse are refused with a
 * sentence.
 *
 * The program is also its own probe: `test-desktop probe` runs inside a
 * desktop's environment, `test-desktop own DIR` owns a desktop until it
 * is killed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gio/gio.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include <cua/cua.h>

#include "common.h"

static char *self_exe;

static int64_t
ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static char *
temp_dir(void)
{
	char tmpl[] = "/tmp/cua-test-desktop-XXXXXX";
	char *dir = mkdtemp(tmpl);

	assert_non_null(dir);
	return strdup(dir);
}

static int
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* pid and start time from /proc/<pid>/stat; 0 when gone. */
static unsigned long long
start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	int field;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return 0;
	}
	fclose(f);
	p = strrchr(buf, ')');
	if (!p || p[2] == 'Z' || p[2] == 'X')
		return 0; /* a zombie counts as gone */
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
}

struct recorded {
	int n;
	char key[16][32];
	pid_t pid[16];
	unsigned long long start[16];
};

/* The processes the desktop recorded in DIR/pids (the supervisor too). */
static void
read_pids(const char *dir, struct recorded *r)
{
	char path[4096];
	FILE *f;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/pids", dir);
	f = fopen(path, "re");
	assert_non_null(f);
	while (r->n < 16 && fscanf(f, "%31s %d %llu", r->key[r->n],
				   &r->pid[r->n], &r->start[r->n]) == 3)
		r->n++;
	fclose(f);
}

/* How many of them still run (the same process: pid and start time). */
static int
alive(const struct recorded *r)
{
	int i, n = 0;

	for (i = 0; i < r->n; i++)
		if (start_time(r->pid[i]) == r->start[i])
			n++;
	return n;
}

/* Waits up to ms for the directory to go and the processes to end. */
static int
all_gone(const char *dir, const struct recorded *r, int ms)
{
	int64_t end = ms_now() + ms;

	while (ms_now() < end) {
		if (!exists(dir) && alive(r) == 0)
			return 1;
		sleep_ms(100);
	}
	return 0;
}

/* `test-desktop probe`: what a client of the desktop sees. */
static int
probe_main(void)
{
	GDBusConnection *bus;
	GVariant *r, *v = NULL;
	unsigned char *data = NULL;
	unsigned long n, after;
	Atom actual;
	int format;
	cua_session *s = NULL;
	Display *x = XOpenDisplay(NULL);

	if (!x) {
		printf("no display\n");
		return 1;
	}
	printf("screen %dx%d\n", DisplayWidth(x, 0), DisplayHeight(x, 0));
	XGetWindowProperty(x, DefaultRootWindow(x),
			   XInternAtom(x, "AT_SPI_BUS", False), 0, 4096, False,
			   XA_STRING, &actual, &format, &n, &after, &data);
	printf("AT_SPI_BUS %s\n", data && n ? (char *)data : "(none)");
	if (data)
		XFree(data);
	XCloseDisplay(x);
	bus = g_dbus_connection_new_for_address_sync(
		getenv("DBUS_SESSION_BUS_ADDRESS"),
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL, NULL, NULL);
	r = bus ? g_dbus_connection_call_sync(
			  bus, "org.a11y.Bus", "/org/a11y/bus",
			  "org.freedesktop.DBus.Properties", "Get",
			  g_variant_new("(ss)", "org.a11y.Status", "IsEnabled"),
			  G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NONE, 5000,
			  NULL, NULL) :
		  NULL;
	if (r)
		g_variant_get(r, "(v)", &v);
	printf("IsEnabled %s\n",
	       v && g_variant_get_boolean(v) ? "true" : "false");
	if (v)
		g_variant_unref(v);
	if (r)
		g_variant_unref(r);
	if (bus)
		g_object_unref(bus);
	/* no fixes of its own: the desktop must have them already */
	if (cua_session_new(&s, CUA_SESSION_NO_DESKTOP_FIXES) != CUA_OK) {
		printf("session: %s\n", cua_error_message());
		return 1;
	}
	printf("session ok\n");
	cua_session_unref(s);
	return 0;
}

/* `test-desktop run DIR READY`: runs a command in a desktop in DIR that
 * creates READY, then sleeps. */
static int
run_main(const char *dir, const char *ready)
{
	char script[4096];
	const char *argv[] = { "sh", "-c", script, NULL };
	cua_desktop *d = NULL;
	int status = 1;

	snprintf(script, sizeof(script), "touch '%s'; exec sleep 600", ready);
	if (cua_desktop_new(&d, 0) != CUA_OK ||
	    cua_desktop_set_option(d, "state_dir", dir) != CUA_OK ||
	    cua_desktop_run(d, argv, &status) != CUA_OK)
		fprintf(stderr, "run: %s\n", cua_error_message());
	cua_desktop_unref(d);
	return status;
}

/* `test-desktop own DIR`: owns a desktop in DIR until killed. */
static int
own_main(const char *dir)
{
	cua_desktop *d = NULL;

	if (cua_desktop_new(&d, 0) != CUA_OK ||
	    cua_desktop_set_option(d, "state_dir", dir) != CUA_OK ||
	    cua_desktop_set_option(d, "window_manager", "none") != CUA_OK ||
	    cua_desktop_start(d) != CUA_OK) {
		fprintf(stderr, "own: %s\n", cua_error_message());
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}

/* ---- without a desktop ---------------------------------------------- */

static void
test_options(void **state)
{
	cua_desktop *d = NULL;
	char *text = (char *)"x";
	size_t i, n;
	int status = 0;
	const char *none[] = { NULL };

	(void)state;
	assert_int_equal(cua_desktop_new(&d, 1u << 7),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(d);
	assert_int_equal(cua_desktop_new(&d, 0), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "kind", "wayland"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(
		cua_error_message(),
		"unknown kind of desktop 'wayland' (known: x11, sway, mutter)");
	assert_int_equal(cua_desktop_set_option(d, "kind", "x11"), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "screen", "800x600"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(cua_error_message(), "expected WxHxD"));
	assert_int_equal(cua_desktop_set_option(d, "screen", "0x600x24"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_desktop_set_option(d, "window_manager", "xfwm4"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_desktop_set_option(d, "state_dir", ""),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_desktop_set_option(d, "colour", "blue"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(cua_error_message(), "unknown desktop option"));
	/* nothing runs yet */
	assert_int_equal(cua_desktop_get_pid(d), 0);
	assert_null(cua_desktop_get_state_dir(d));
	assert_null(cua_desktop_get_env(d, "DISPLAY"));
	assert_int_equal(cua_desktop_stop(d), CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_desktop_env_to_shell(d, &text),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(text);
	assert_int_equal(cua_desktop_run(d, none, &status),
			 CUA_ERROR_INVALID_ARGUMENT);
	/* the variables it manages, set and unset ones */
	n = cua_desktop_get_env_count(d);
	assert_int_equal(n, 17);
	assert_string_equal(cua_desktop_get_env_name(d, 0), "DISPLAY");
	assert_null(cua_desktop_get_env_name(d, n));
	for (i = 0; i < n; i++)
		if (!strcmp(cua_desktop_get_env_name(d, i), "NO_AT_BRIDGE"))
			break;
	assert_true(i < n);
	cua_desktop_unref(d);
	assert_null(cua_desktop_unref(NULL));
}

static void
test_attach_errors(void **state)
{
	cua_desktop *d = (cua_desktop *)1;
	char *dir = temp_dir();

	(void)state;
	unsetenv("CUA_DESKTOP_DIR");
	assert_int_equal(cua_desktop_attach(&d, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(d);
	assert_int_equal(cua_desktop_attach(&d, "/nonexistent/desktop"),
			 CUA_ERROR_NOT_FOUND);
	assert_string_equal(
		cua_error_message(),
		"no desktop in /nonexistent/desktop: No such file or directory");
	assert_int_equal(cua_desktop_attach(&d, dir), CUA_ERROR_NOT_FOUND);
	assert_non_null(strstr(cua_error_message(), "(no supervisor.pid)"));
	rmdir(dir);
	free(dir);
}

/* ---- with desktops ---------------------------------------------------- */

static void
test_start_probe_stop(void **state)
{
	char *base = temp_dir(), dir[1024], path[4096], out[4096];
	char *shell = NULL;
	cua_desktop *d = NULL;
	struct recorded rec;
	struct stat st;
	const char *files[] = { "env", "pids", "supervisor.pid" };
	size_t i;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/desktop", base);
	assert_int_equal(cua_desktop_new(&d, 0), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "screen", "800x600x24"),
			 CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "state_dir", dir), CUA_OK);
	assert_int_equal(cua_desktop_start(d), CUA_OK);
	assert_int_equal(cua_desktop_start(d), CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_desktop_set_option(d, "screen", "640x480x24"),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_true(cua_desktop_get_pid(d) > 1);
	assert_string_equal(cua_desktop_get_state_dir(d), dir);
	assert_string_equal(cua_desktop_get_env(d, "CUA_DESKTOP_DIR"), dir);
	assert_int_equal(cua_desktop_get_env(d, "DISPLAY")[0], ':');
	assert_string_equal(cua_desktop_get_env(d, "GSK_RENDERER"), "cairo");
	assert_null(cua_desktop_get_env(d, "WAYLAND_DISPLAY"));
	assert_null(
		strstr(cua_desktop_get_env(d, "AT_SPI_BUS_ADDRESS"), "guid="));
	/* its files: a private directory, state files 0600 */
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0600);
	}
	/* the export lines are the state file's */
	assert_int_equal(cua_desktop_env_to_shell(d, &shell), CUA_OK);
	assert_non_null(strstr(shell, "export DISPLAY=':"));
	assert_non_null(strstr(shell,
			       "\nunset NO_AT_BRIDGE GTK_A11Y "
			       "WAYLAND_DISPLAY SESSION_MANAGER GDK_BACKEND "
			       "SWAYSOCK\n"));
	{
		char env[8192];
		size_t len;
		FILE *f;

		snprintf(path, sizeof(path), "%s/env", dir);
		f = fopen(path, "re");
		assert_non_null(f);
		len = fread(env, 1, sizeof(env) - 1, f);
		env[len] = '\0';
		fclose(f);
		assert_string_equal(env, shell);
	}
	cua_free(shell);
	read_pids(dir, &rec);
	assert_int_equal(rec.n, 6); /* supervisor, 4 daemons, openbox */
	assert_int_equal(alive(&rec), 6);

	/* a client sees the asked screen, the fixes, a working AT-SPI */
	assert_int_equal(desktop_probe(d, self_exe, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "screen 800x600\n"));
	assert_non_null(strstr(out, "AT_SPI_BUS unix:path="));
	assert_non_null(strstr(out, "IsEnabled true\n"));
	assert_non_null(strstr(out, "session ok\n"));

	assert_int_equal(cua_desktop_stop(d), CUA_OK);
	assert_int_equal(cua_desktop_get_pid(d), 0);
	assert_false(exists(dir));
	assert_int_equal(alive(&rec), 0);
	assert_int_equal(cua_desktop_stop(d), CUA_ERROR_INVALID_ARGUMENT);
	cua_desktop_unref(d);
	rmdir(base);
	free(base);
}

/* The last unref of an owned desktop stops it. */
static void
test_unref_stops(void **state)
{
	cua_desktop *d = NULL;
	struct recorded rec;
	char *dir;

	(void)state;
	assert_int_equal(cua_desktop_new(&d, 0), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "window_manager", "none"),
			 CUA_OK);
	assert_int_equal(cua_desktop_start(d), CUA_OK);
	dir = strdup(cua_desktop_get_state_dir(d));
	read_pids(dir, &rec);
	assert_int_equal(rec.n, 5); /* no window manager */
	assert_ptr_equal(cua_desktop_ref(d), d);
	cua_desktop_unref(d);
	assert_int_equal(alive(&rec), 5);
	cua_desktop_unref(d);
	assert_true(all_gone(dir, &rec, 1000));
	free(dir);
}

/* A process that owns a desktop is killed: the desktop goes with it. */
static void
test_owner_killed(void **state)
{
	char *base = temp_dir(), dir[1024], line[64];
	struct recorded rec;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/desktop", base);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl(self_exe, self_exe, "own", dir, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	n = read(fds[0], line, sizeof(line) - 1);
	assert_true(n > 0);
	line[n] = '\0';
	assert_string_equal(line, "ready\n");
	read_pids(dir, &rec);
	assert_int_equal(alive(&rec), 5);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(fds[0]);
	assert_true(all_gone(dir, &rec, 20000));
	rmdir(base);
	free(base);
}

/*
 * A test runner's timeout kills the whole process group of a run (what
 * meson does): the caller and the command die at once; the supervisor,
 * in a group of its own, sees its owner gone and tears the desktop down.
 */
static void
test_run_group_killed(void **state)
{
	char *base = temp_dir(), dir[1024], ready[1024];
	struct recorded rec;
	int64_t end;
	int status;
	pid_t pid;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/desktop", base);
	snprintf(ready, sizeof(ready), "%s/ready", base);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		execl(self_exe, self_exe, "run", dir, ready, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	end = ms_now() + 120000;
	while (!exists(ready) && ms_now() < end)
		sleep_ms(50);
	assert_true(exists(ready));
	read_pids(dir, &rec);
	assert_int_equal(alive(&rec), 6);
	assert_int_equal(kill(-pid, SIGKILL), 0);
	waitpid(pid, &status, 0);
	assert_true(WIFSIGNALED(status));
	assert_true(all_gone(dir, &rec, 20000));
	unlink(ready);
	rmdir(base);
	free(base);
}

static void
test_run(void **state)
{
	char *base = temp_dir(), dir[1024], file[1024], script[4096];
	const char *exit7[] = {
		"sh", "-c",
		"test -n \"$DISPLAY\" && test -d \"$CUA_DESKTOP_DIR\" "
		"&& test -z \"$NO_AT_BRIDGE\" && exit 7",
		NULL
	};
	const char *killed[] = { "sh", "-c", "kill -TERM $$", NULL };
	const char *missing[] = { "no-such-command-here", NULL };
	const char *leftover[] = { "sh", "-c", script, NULL };
	cua_desktop *d = NULL;
	pid_t sleeper;
	int status = -1;
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/desktop", base);
	snprintf(file, sizeof(file), "%s/sleeper", base);
	assert_int_equal(cua_desktop_new(&d, 0), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "state_dir", dir), CUA_OK);
	assert_int_equal(cua_desktop_run(d, exit7, &status), CUA_OK);
	assert_int_equal(status, 7);
	assert_false(exists(dir));
	assert_int_equal(cua_desktop_get_pid(d), 0);
	/* the same handle runs again, in a fresh desktop */
	assert_int_equal(cua_desktop_run(d, killed, &status), CUA_OK);
	assert_int_equal(status, 128 + SIGTERM);
	assert_int_equal(cua_desktop_run(d, missing, &status),
			 CUA_ERROR_NOT_FOUND);
	assert_int_equal(status, 127);
	assert_string_equal(cua_error_message(),
			    "no-such-command-here: command not found");
	/* a process the command leaves behind is stopped with the desktop */
	snprintf(script, sizeof(script), "sleep 600 & echo $! > %s", file);
	assert_int_equal(cua_desktop_run(d, leftover, &status), CUA_OK);
	assert_int_equal(status, 0);
	f = fopen(file, "re");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &sleeper), 1);
	fclose(f);
	assert_true(sleeper > 1);
	assert_int_equal(start_time(sleeper), 0);
	unlink(file);
	cua_desktop_unref(d);
	/* a detached desktop cannot run a command and stop with it */
	assert_int_equal(cua_desktop_new(&d, CUA_DESKTOP_DETACHED), CUA_OK);
	assert_int_equal(cua_desktop_run(d, exit7, &status),
			 CUA_ERROR_INVALID_ARGUMENT);
	cua_desktop_unref(d);
	rmdir(base);
	free(base);
}

struct stopper {
	cua_desktop *d;
	const char *ready; /* the command creates it once it runs */
	int sig;
};

static void *
stop_run(void *data)
{
	struct stopper *s = data;
	int64_t end = ms_now() + 60000;

	while (!exists(s->ready) && ms_now() < end)
		sleep_ms(20);
	kill((pid_t)cua_desktop_get_pid(s->d), s->sig);
	return NULL;
}

/* SIGTERM to the supervisor of a run: the command gets it, the desktop
 * stops, the status says so. */
static void
test_run_signal(void **state)
{
	char *base = temp_dir(), ready[1024], script[4096];
	const char *argv[] = { "sh", "-c", script, NULL };
	struct stopper s = { NULL, ready, SIGTERM };
	pthread_t thread;
	int status = -1;

	(void)state;
	snprintf(ready, sizeof(ready), "%s/ready", base);
	snprintf(script, sizeof(script), "touch %s; exec sleep 600", ready);
	assert_int_equal(cua_desktop_new(&s.d, 0), CUA_OK);
	assert_int_equal(pthread_create(&thread, NULL, stop_run, &s), 0);
	assert_int_equal(cua_desktop_run(s.d, argv, &status), CUA_OK);
	pthread_join(thread, NULL);
	assert_int_equal(status, 128 + SIGTERM);
	cua_desktop_unref(s.d);
	unlink(ready);
	rmdir(base);
	free(base);
}

/* A detached desktop outlives its handle; another handle attaches; its
 * supervisor is killed; a stop cleans up what it left. */
static void
test_detached_dead_supervisor(void **state)
{
	cua_desktop *d = NULL, *a = NULL;
	struct recorded rec;
	char dir[4096];
	pid_t sup;

	(void)state;
	assert_int_equal(cua_desktop_new(&d, CUA_DESKTOP_DETACHED), CUA_OK);
	assert_int_equal(cua_desktop_start(d), CUA_OK);
	snprintf(dir, sizeof(dir), "%s", cua_desktop_get_state_dir(d));
	sup = (pid_t)cua_desktop_get_pid(d);
	cua_desktop_unref(d);
	read_pids(dir, &rec);
	assert_int_equal(alive(&rec), 6);

	assert_int_equal(cua_desktop_attach(&a, dir), CUA_OK);
	assert_int_equal(cua_desktop_get_pid(a), sup);
	assert_string_equal(cua_desktop_get_state_dir(a), dir);
	assert_int_equal(cua_desktop_get_env(a, "DISPLAY")[0], ':');
	cua_desktop_unref(a); /* attached: does not stop it */
	assert_int_equal(alive(&rec), 6);

	kill(sup, SIGKILL);
	while (start_time(sup))
		sleep_ms(20);
	assert_int_equal(cua_desktop_attach(&a, dir), CUA_OK);
	assert_int_equal(cua_desktop_get_pid(a), 0);
	assert_int_equal(cua_desktop_stop(a), CUA_ERROR_NOT_FOUND);
	assert_non_null(strstr(cua_error_message(), "cleaned up what it left"));
	assert_false(exists(dir));
	assert_int_equal(alive(&rec), 0);
	cua_desktop_unref(a);
}

/* A state directory that is not empty is refused, and kept as it was. */
static void
test_dir_not_empty(void **state)
{
	char *dir = temp_dir(), path[1024];
	cua_desktop *d = NULL;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/mine", dir);
	f = fopen(path, "we");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(cua_desktop_new(&d, 0), CUA_OK);
	assert_int_equal(cua_desktop_set_option(d, "state_dir", dir), CUA_OK);
	assert_int_equal(cua_desktop_start(d), CUA_ERROR_BACKEND);
	assert_non_null(strstr(cua_error_message(),
			       "is not empty; give an empty or new directory"));
	assert_true(exists(path));
	assert_int_equal(cua_desktop_get_pid(d), 0);
	cua_desktop_unref(d);
	unlink(path);
	rmdir(dir);
	free(dir);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_attach_errors),
		cmocka_unit_test(test_start_probe_stop),
		cmocka_unit_test(test_unref_stops),
		cmocka_unit_test(test_owner_killed),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_run_group_killed),
		cmocka_unit_test(test_run_signal),
		cmocka_unit_test(test_detached_dead_supervisor),
		cmocka_unit_test(test_dir_not_empty),
	};

	self_exe = realpath("/proc/self/exe", NULL);
	(void)argv;
	if (argc > 1 && !strcmp(argv[1], "probe"))
		return probe_main();
	if (argc > 2 && !strcmp(argv[1], "own"))
		return own_main(argv[2]);
	if (argc > 3 && !strcmp(argv[1], "run"))
		return run_main(argv[2], argv[3]);
	/* the desktops' state directories go to /tmp: keep ours apart */
	unsetenv("XDG_RUNTIME_DIR");
	return run_test_group("desktop", tests, NULL, NULL);
}
