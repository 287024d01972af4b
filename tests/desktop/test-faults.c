/*
 * Environment faults (robustness): the desktop's services going away in
 * the middle of a call and coming back, and two `cua` processes acting on
 * one app at once.
 *
 *  - The AT-SPI bus: its dbus-daemon is first stopped (a hung bus), then
 *    killed while a call waits on it; later the new one is killed while
 *    it runs (a crash). at-spi-bus-launcher exits with its bus; the bus
 *    comes back the way it does in a real session, by D-Bus activation of
 *    org.a11y.Bus on the session bus (the same socket, a new guid). The
 *    app lost its connection with the old bus and is restarted.
 *  - The X server: the desktop's Xvfb is killed while calls run (openbox,
 *    the registry daemon and the GTK app die with it), then a new Xvfb is
 *    started on the same display (kept meanwhile through its lock file),
 *    with openbox and the app.
 *
 * In both, every call made through the fault must end within a bound
 * with a clear error (no hang, no abort, no exit from Xlib), and once the
 * service is back the same session, and a fresh one, must work again:
 * observations (with screenshots), AT-SPI events, and actions whose
 * effects the fixture prints. The time from the fault to the first clear
 * error is printed (`# fault …` lines) and bounded. A `cua watch` waiting
 * for events when the bus goes away must end with a sentence, not wait
 * forever.
 *
 *  - Two and three `cua` processes at once (click, set, type, state) on
 *    the fixture, many rounds, with a `cua watch` running: each one
 *    succeeds on the right element (the fixture's output) or fails with a
 *    sentence; the state file stays readable and the final state shows
 *    the effects. A command that holds the state lock for good makes the
 *    others fail after a bound, with a sentence naming it.
 *
 * Runs inside `cua desktop run`; it kills and restarts parts of that
 * desktop, so it runs alone (the desktop suite is serial anyway).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define APP "fixture-gtk3"

extern char **environ;

static struct app_proc app;

/* ------------------------------------------------------------------ */
/* The fixture                                                          */

static void
start_gtk3(void)
{
	if (fixture_start(&app, FIXTURE_GTK3, NULL, 15000, NULL, 0) < 0)
		fail_msg("the fixture did not start");
}

/* The centre of an element in screenshot pixels. */
static void
centre_px(cua_tree *t, uint32_t id, double *x, double *y)
{
	int32_t ex, ey, ew, eh;
	double ppp = 1;
	const void *data;
	const char *mime;
	size_t size;

	assert_int_equal(cua_tree_get_screenshot(t, &data, &size, &mime, NULL,
						 NULL, &ppp),
			 CUA_OK);
	assert_true(cua_element_get_frame(cua_tree_find_element(t, id), &ex,
					  &ey, &ew, &eh));
	*x = (ex + ew / 2.0) * ppp;
	*y = (ey + eh / 2.0) * ppp;
}

/*
 * The session works on the fixture: an observation with a screenshot, an
 * element click, a value set and (with `pointer`) a click at a screenshot
 * pixel, each effect read back from the fixture.
 */
static void
check_works(cua_session *s, int pointer)
{
	cua_tree *t = observe_until(s, APP, 15000);
	uint32_t beta, entry, gamma;
	double x, y;
	const void *data;
	const char *mime;
	size_t size;

	if (!t)
		fail_msg("the fixture cannot be observed: %s",
			 cua_error_message());
	if (cua_tree_get_screenshot(t, &data, &size, &mime, NULL, NULL, NULL) !=
	    CUA_OK)
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	beta = id_of(t, "button", "Beta");
	gamma = id_of(t, "button", "Gamma");
	entry = id_of(t, "text field", NULL);
	fixture_drain(&app, "the fixture", NULL, 0);
	/* AT-SPI events reach the session (the settle and `cua watch` wait
	 * on them) */
	{
		int changed = 0;

		assert_int_equal(app_send(&app, "toggle Unchecked box"), 0);
		ACT(cua_session_wait_for_change(s, t, 5000, &changed));
		assert_int_equal(changed, 1);
		fixture_drain(&app, "the fixture", NULL, 0);
	}
	ACT(cua_session_click(s, APP, beta, CUA_BUTTON_LEFT, 1, NULL));
	fixture_expect_line(&app, "clicked Beta");
	{
		static int n;
		char value[32], line[64];

		snprintf(value, sizeof(value), "back again %d", ++n);
		snprintf(line, sizeof(line), "entry %s", value);
		ACT(cua_session_set_value(s, APP, entry, value, NULL));
		fixture_expect_line(&app, line);
	}
	if (pointer) {
		centre_px(t, gamma, &x, &y);
		ACT(cua_session_click_at(s, APP, x, y, CUA_BUTTON_LEFT, 1,
					 NULL));
		fixture_expect_line(&app, "clicked Gamma");
	}
	cua_tree_unref(t);
}

/* ------------------------------------------------------------------ */
/* Processes                                                            */

/* The first process whose command line has all of `words` (NUL-separated
 * arguments, each matched as a substring of one argument), or 0. */
static pid_t
find_process(const char *w1, const char *w2)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		char path[300], buf[4096];
		int fd, h1 = 0, h2 = !w2;
		ssize_t n;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		for (char *a = buf; a < buf + n; a += strlen(a) + 1) {
			h1 |= strstr(a, w1) != NULL;
			if (w2)
				h2 |= strstr(a, w2) != NULL;
		}
		if (h1 && h2)
			found = (pid_t)atoi(de->d_name);
	}
	closedir(d);
	return found;
}

/* Whether pid is gone (or a zombie). */
static int
gone(pid_t pid)
{
	char path[64], buf[512], *p;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return !p || p[2] == 'Z' || p[2] == 'X';
}

static int
wait_gone(pid_t pid, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;

	while (!gone(pid)) {
		if (now_ms() > deadline)
			return -1;
		/* our own children are reaped here */
		waitpid(pid, NULL, WNOHANG);
		usleep(20 * 1000);
	}
	return 0;
}

/* Whether pid no longer exists at all (a zombie still does). */
static int
wait_reaped(pid_t pid, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;

	while (kill(pid, 0) == 0 || errno != ESRCH) {
		if (now_ms() > deadline)
			return -1;
		usleep(20 * 1000);
	}
	return 0;
}

/* The pid the desktop recorded under `key` in $CUA_DESKTOP_DIR/pids. */
static pid_t
desktop_pid(const char *key)
{
	const char *dir = getenv("CUA_DESKTOP_DIR");
	char path[4096], k[64];
	long pid;
	pid_t found = 0;
	FILE *f;

	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/pids", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fscanf(f, "%63s %ld %*s", k, &pid) == 2)
		if (strcmp(k, key) == 0)
			found = (pid_t)pid;
	fclose(f);
	return found;
}

/* Runs argv with stdin from /dev/null and stdout + stderr into the files
 * out and err (NULL: /dev/null); extra_fd, when >= 0, becomes fd 3. */
static pid_t
spawn(const char *const argv[], const char *out, const char *err, int extra_fd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid = 0;
	int r;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&fa, 2, err ? err : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (extra_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, extra_fd, 3);
	r = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv,
			 environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0)
		fail_msg("cannot start %s: %s", argv[0], strerror(r));
	return pid;
}

static int
wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void
stop_child(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	if (wait_gone(pid, 3000) < 0)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* Calls through a fault                                                */

/*
 * A killer thread sends `sig` to `victim` `delay_ms` after it starts;
 * meanwhile the test keeps making calls. Every call is timed, so the one
 * in flight at the fault and those after it can be judged.
 */
struct killer {
	pid_t victim;
	int sig;
	int delay_ms;
	int64_t t_kill; /* now_ms() when sent */
	pthread_t th;
};

static void *
killer_main(void *data)
{
	struct killer *k = data;

	usleep((useconds_t)k->delay_ms * 1000);
	__atomic_store_n(&k->t_kill, now_ms(), __ATOMIC_SEQ_CST);
	kill(k->victim, k->sig);
	return NULL;
}

static void
killer_start(struct killer *k, pid_t victim, int sig, int delay_ms)
{
	k->victim = victim;
	k->sig = sig;
	k->delay_ms = delay_ms;
	k->t_kill = 0;
	assert_int_equal(pthread_create(&k->th, NULL, killer_main, k), 0);
}

static int64_t
killed_at(struct killer *k)
{
	return __atomic_load_n(&k->t_kill, __ATOMIC_SEQ_CST);
}

enum op { OP_OBSERVE, OP_CLICK, OP_SET, OP_CLICK_AT, OP_KEY, OP_LIST, OP_N };
static const char *const op_names[OP_N] = {
	"observe", "click", "set_value", "click_at", "press_key", "list_apps",
};

struct ids {
	uint32_t alpha, entry;
	double ax, ay; /* Alpha's centre in screenshot pixels */
};

static cua_result
do_op(cua_session *s, enum op op, const struct ids *ids)
{
	cua_tree *t = NULL;
	char *out = NULL;
	cua_result r = CUA_OK;

	switch (op) {
	case OP_OBSERVE:
		r = cua_session_observe(s, APP, CUA_OBSERVE_NO_LAUNCH, &t);
		cua_tree_unref(t);
		break;
	case OP_CLICK:
		r = cua_session_click(s, APP, ids->alpha, CUA_BUTTON_LEFT, 1,
				      NULL);
		break;
	case OP_SET:
		r = cua_session_set_value(s, APP, ids->entry, "fault", NULL);
		break;
	case OP_CLICK_AT:
		r = cua_session_click_at(s, APP, ids->ax, ids->ay,
					 CUA_BUTTON_LEFT, 1, NULL);
		break;
	case OP_KEY:
		r = cua_session_press_key(s, APP, "End", NULL);
		break;
	case OP_LIST:
		r = cua_session_list_apps(s, 0, &out);
		cua_free(out);
		break;
	default:
		break;
	}
	return r;
}

struct through {
	int64_t in_flight_ms;   /* the call in flight at the fault: its end
				* minus the fault; -1 when none was */
	int64_t first_error_ms; /* first error ending after the fault */
	int64_t max_call_ms;    /* longest call that ended after the fault */
	int calls, errors;
	char first_error[512];
	int64_t t_kill; /* now_ms() at the fault */
};

/*
 * Keeps calling `ops` in turn from `delay_ms` before the fault until
 * `after_ms` after it; no call may succeed after `fail_after_ms` past the
 * fault (the service is gone), and each must end within `bound_ms`.
 */
static void
calls_through_fault(cua_session *s, const enum op *ops, size_t n_ops,
		    const struct ids *ids, pid_t victim, int sig, int delay_ms,
		    int after_ms, int bound_ms, struct through *th,
		    const char *label)
{
	struct killer k;
	size_t i = 0;

	memset(th, 0, sizeof(*th));
	th->in_flight_ms = th->first_error_ms = -1;
	killer_start(&k, victim, sig, delay_ms);
	for (;;) {
		int64_t t0 = now_ms(), t1, tk;
		enum op op = ops[i++ % n_ops];
		cua_result r = do_op(s, op, ids);
		const char *msg = r == CUA_OK ? "" : cua_error_message();

		t1 = now_ms();
		tk = killed_at(&k);
		if (!tk)
			continue;
		th->calls++;
		if (t0 <= tk && th->in_flight_ms < 0)
			th->in_flight_ms = t1 - tk;
		if (t1 - t0 > th->max_call_ms)
			th->max_call_ms = t1 - t0;
		if (r != CUA_OK) {
			th->errors++;
			/* a clear error: a sentence, never an empty message */
			if (!msg || strlen(msg) < 10)
				fail_msg("%s: %s failed with no message (%s)",
					 label, op_names[op],
					 cua_result_to_string(r));
			if (th->first_error_ms < 0) {
				th->first_error_ms = t1 - tk;
				snprintf(th->first_error,
					 sizeof(th->first_error), "%s: %s",
					 op_names[op], msg);
			}
		}
		fprintf(stderr, "# %s: +%lld ms %s (%lld ms): %s\n", label,
			(long long)(t1 - tk), op_names[op],
			(long long)(t1 - t0), r == CUA_OK ? "ok" : msg);
		if (t1 - t0 > bound_ms)
			fail_msg("%s: %s took %lld ms (bound %d ms)", label,
				 op_names[op], (long long)(t1 - t0), bound_ms);
		if (t1 - tk >= after_ms)
			break;
	}
	pthread_join(k.th, NULL);
	th->t_kill = killed_at(&k);
	fprintf(stderr,
		"# fault %s: in-flight call ended %lld ms after the fault; "
		"first error after %lld ms (%s); longest call %lld ms; "
		"%d calls, %d errors\n",
		label, (long long)th->in_flight_ms,
		(long long)th->first_error_ms, th->first_error,
		(long long)th->max_call_ms, th->calls, th->errors);
}

static void
ids_of(cua_session *s, struct ids *ids)
{
	cua_tree *t = observe_until(s, APP, 15000);

	assert_non_null(t);
	ids->alpha = id_of(t, "button", "Alpha");
	ids->entry = id_of(t, "text field", NULL);
	centre_px(t, ids->alpha, &ids->ax, &ids->ay);
	cua_tree_unref(t);
}

/* ------------------------------------------------------------------ */
/* cua processes                                                        */

static char tmpdir[64];

static char *
slurp(const char *path)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return buf;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* The number before " <role> <title>" on a line of `cua state`. */
static int
cli_id(const char *text, const char *role_title)
{
	char needle[128];
	const char *p;

	snprintf(needle, sizeof(needle), " %s", role_title);
	for (p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
		const char *q = p;

		while (q > text && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (q < p && (q == text || q[-1] == '\t' || q[-1] == '\n'))
			return atoi(q);
	}
	return -1;
}

struct cli {
	pid_t pid;
	char out[128], err[128];
	const char *what;
	const char *effect; /* the fixture line a success prints */
	int status;
};

static void
cli_start(struct cli *c, int slot, const char *const argv[], const char *what,
	  const char *effect)
{
	snprintf(c->out, sizeof(c->out), "%s/out%d", tmpdir, slot);
	snprintf(c->err, sizeof(c->err), "%s/err%d", tmpdir, slot);
	c->what = what;
	c->effect = effect;
	c->pid = spawn(argv, c->out, c->err, -1);
}

/* ------------------------------------------------------------------ */
/* A: the AT-SPI bus goes away and comes back                           */

/* Reaps a child on its own thread, noting when it exited. */
struct reaper {
	pid_t pid;
	int status;
	int64_t t_exit; /* now_ms(), 0 while it runs */
	pthread_t th;
};

static void *
reaper_main(void *data)
{
	struct reaper *r = data;

	while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
		;
	__atomic_store_n(&r->t_exit, now_ms(), __ATOMIC_SEQ_CST);
	return NULL;
}

/* The desktop's accessibility bus daemon (at-spi-bus-launcher's
 * dbus-daemon, listening in our private XDG_RUNTIME_DIR). */
static pid_t
atspi_bus_daemon(void)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char where[4096];

	assert_non_null(rt);
	snprintf(where, sizeof(where), "unix:path=%s/at-spi/", rt);
	return find_process("accessibility.conf", where);
}

/* org.a11y.Bus.GetAddress on the session bus: what any AT-SPI client does
 * to find the bus; D-Bus activates at-spi-bus-launcher when it is gone. */
static int
activate_atspi_bus(void)
{
	const char *argv[] = { "dbus-send",
			       "--session",
			       "--print-reply",
			       "--reply-timeout=10000",
			       "--dest=org.a11y.Bus",
			       "/org/a11y/bus",
			       "org.a11y.Bus.GetAddress",
			       NULL };

	return wait_status(spawn(argv, NULL, NULL, -1));
}

static void
test_atspi_bus_restart(void **state)
{
	static const enum op ops[] = { OP_OBSERVE, OP_CLICK, OP_SET,
				       OP_CLICK_AT, OP_LIST };
	const char *watch_argv[] = { CUA_EXE, "watch", APP, NULL };
	cua_session *s = test_session(), *fresh;
	struct through th;
	struct ids ids;
	struct cli watch;
	struct reaper watch_end = { 0 };
	cua_tree *t = NULL;
	cua_result r;
	pid_t bus, launcher;
	int64_t t0, hung_ms, watch_ms;

	start_gtk3();
	ids_of(s, &ids);
	bus = atspi_bus_daemon();
	assert_true(bus > 0);
	launcher = desktop_pid("launcher");
	/* `cua watch` waits for the app's events on the bus all along */
	assert_non_null(mkdtemp(strcpy(tmpdir, "/tmp/cua-faults-XXXXXX")));
	cli_start(&watch, 0, watch_argv, "watch", NULL);
	{
		int64_t until = now_ms() + 15000;

		/* its first tree is out */
		while (!strstr(slurp(watch.out), "App=" APP) &&
		       now_ms() < until)
			usleep(50 * 1000);
		assert_non_null(strstr(slurp(watch.out), "App=" APP));
	}
	watch_end.pid = watch.pid;
	assert_int_equal(
		pthread_create(&watch_end.th, NULL, reaper_main, &watch_end),
		0);

	/* A hung bus: a bounded timeout, with the sentence. */
	kill(bus, SIGSTOP);
	t0 = now_ms();
	r = cua_session_observe(s, APP, CUA_OBSERVE_NO_LAUNCH, &t);
	hung_ms = now_ms() - t0;
	fprintf(stderr,
		"# fault atspi-bus-stopped: observe ended after "
		"%lld ms: %s\n",
		(long long)hung_ms, cua_error_message());
	assert_int_not_equal(r, CUA_OK);
	assert_null(t);
	assert_true(strlen(cua_error_message()) > 10);
	/* the registry call's timeout (1 s), with slack */
	assert_true(hung_ms < 1000 + 2000);

	/* Killed while calls wait on it (it is still stopped: the call in
	 * flight is waiting for an answer that will never come). */
	calls_through_fault(s, ops, sizeof(ops) / sizeof(ops[0]), &ids, bus,
			    SIGKILL, 300, 3000, 8000, &th, "atspi-bus-killed");
	kill(bus, SIGCONT);
	assert_int_equal(wait_gone(bus, 5000), 0);
	/* the call in flight ends promptly once the bus is gone (it does
	 * not wait for its timeout) */
	assert_true(th.in_flight_ms >= 0 && th.in_flight_ms < 1500);
	assert_true(th.first_error_ms >= 0 && th.first_error_ms < 1500);
	/* at-spi-bus-launcher exits with its bus */
	if (launcher > 0)
		assert_int_equal(wait_gone(launcher, 5000), 0);
	/* the watch does not wait forever for events from a bus that is
	 * gone: it observes again and ends with the sentence (the app is
	 * not on the new bus) */
	while (!__atomic_load_n(&watch_end.t_exit, __ATOMIC_SEQ_CST) &&
	       now_ms() - th.t_kill < 10000)
		usleep(20 * 1000);
	if (!__atomic_load_n(&watch_end.t_exit, __ATOMIC_SEQ_CST)) {
		kill(watch.pid, SIGKILL);
		pthread_join(watch_end.th, NULL);
		fail_msg("cua watch still waits %lld ms after the bus went "
			 "away",
			 (long long)(now_ms() - th.t_kill));
	}
	pthread_join(watch_end.th, NULL);
	watch.status = watch_end.status;
	watch_ms = watch_end.t_exit - th.t_kill;
	fprintf(stderr,
		"# fault atspi-bus-killed: cua watch ended by +%lld "
		"ms, status %d: %s",
		(long long)watch_ms, watch.status, slurp(watch.err));
	assert_true(WIFEXITED(watch.status) && WEXITSTATUS(watch.status) == 1);
	/* a wake-up within a second, then one observation */
	assert_true(watch_ms < 5000);
	assert_true(strlen(slurp(watch.err)) > 10);

	/* The bus comes back by D-Bus activation (if a call of ours has not
	 * brought it back already), and the app is restarted: its
	 * toolkit does not reconnect to a new bus. */
	assert_int_equal(activate_atspi_bus(), 0);
	app_stop(&app);
	start_gtk3();

	/* the same session works again */
	check_works(s, 1);
	/* and a fresh one */
	assert_int_equal(cua_session_new(&fresh, 0), CUA_OK);
	check_works(fresh, 1);
	cua_session_unref(fresh);

	/* Killed again, this time while it runs (a crash), between and in
	 * the middle of calls that succeed. */
	bus = atspi_bus_daemon();
	assert_true(bus > 0);
	ids_of(s, &ids);
	calls_through_fault(s, ops, sizeof(ops) / sizeof(ops[0]), &ids, bus,
			    SIGKILL, 500, 2000, 8000, &th, "atspi-bus-crashed");
	assert_int_equal(wait_gone(bus, 5000), 0);
	/* the call in flight may not need the bus (GTK apps are read over
	 * their own socket) and end as usual; the next ones fail at once */
	assert_true(th.in_flight_ms >= 0 && th.first_error_ms >= 0 &&
		    th.first_error_ms < th.in_flight_ms + 1500);
	assert_int_equal(activate_atspi_bus(), 0);
	app_stop(&app);
	start_gtk3();
	check_works(s, 1);

	cua_session_unref(s);
	app_stop(&app);
}

/* ------------------------------------------------------------------ */
/* B: the X server goes away and comes back                             */

static pid_t our_xvfb, our_wm;

/* The X server's lock file for DISPLAY. */
static void
x_lock_path(char *buf, size_t size)
{
	const char *display = getenv("DISPLAY");

	assert_non_null(display);
	assert_true(display[0] == ':');
	snprintf(buf, size, "/tmp/.X%d-lock", atoi(display + 1));
}

/*
 * Keeps the display number while no server runs on it: other desktops on
 * this machine (`Xvfb -displayfd` takes the first free number) skip a
 * display whose lock file names a live process. The server about to be
 * killed leaves its lock file behind; it is made to name the test.
 */
static void
reserve_display(void)
{
	char path[64], tmp[80], pid[16];
	int fd;

	x_lock_path(path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.cua", path);
	snprintf(pid, sizeof(pid), "%10ld\n", (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, pid, strlen(pid)), (ssize_t)strlen(pid));
	close(fd);
	assert_int_equal(rename(tmp, path), 0);
}

/* A new Xvfb on the display the desktop had (DISPLAY), and openbox. */
static void
restart_x(void)
{
	const char *display = getenv("DISPLAY");
	const char *dir = getenv("CUA_DESKTOP_DIR");
	char log[4096], lock[64], buf[32] = "";
	const char *xargv[] = {
		"Xvfb", display,        "-displayfd", "3",   "-screen",
		"0",    "1280x1024x24", "-nolisten",  "tcp", "-noreset",
		NULL
	};
	const char *wargv[] = { "openbox", "--sm-disable", NULL };
	struct pollfd pfd;
	int fds[2];
	size_t got = 0;
	int64_t deadline = now_ms() + 15000;

	assert_non_null(display);
	snprintf(log, sizeof(log), "%s/xvfb-restarted.log", dir ? dir : "/tmp");
	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	/* the display was kept for us (reserve_display) */
	x_lock_path(lock, sizeof(lock));
	unlink(lock);
	our_xvfb = spawn(xargv, log, log, fds[1]);
	close(fds[1]);
	/* Xvfb writes the display number once it accepts connections */
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	while (!strchr(buf, '\n') && now_ms() < deadline) {
		ssize_t n;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		n = read(fds[0], buf + got, sizeof(buf) - got - 1);
		if (n <= 0)
			break;
		got += (size_t)n;
		buf[got] = '\0';
	}
	close(fds[0]);
	if (!strchr(buf, '\n'))
		fail_msg("the new X server on %s did not start:\n%s", display,
			 slurp(log));
	our_wm = spawn(wargv, NULL, NULL, -1);
}

static void
test_x_server_restart(void **state)
{
	static const enum op ops[] = { OP_OBSERVE, OP_CLICK_AT, OP_KEY,
				       OP_CLICK, OP_LIST };
	cua_session *s = test_session(), *fresh, *during = NULL;
	struct through th;
	struct ids ids;
	char *out = NULL;
	pid_t xvfb = desktop_pid("xvfb");

	assert_true(xvfb > 0 && !gone(xvfb));
	start_gtk3();
	ids_of(s, &ids);
	/* the pointer path works before the fault */
	fixture_drain(&app, "the fixture", NULL, 0);
	ACT(cua_session_click_at(s, APP, ids.ax, ids.ay, CUA_BUTTON_LEFT, 1,
				 NULL));
	fixture_expect_line(&app, "clicked Alpha");

	reserve_display();
	calls_through_fault(s, ops, sizeof(ops) / sizeof(ops[0]), &ids, xvfb,
			    SIGKILL, 300, 3000, 8000, &th, "x-server-killed");
	/* reaped, not only dead: a new server refuses the display while
	 * the old one's pid (in its lock file) still exists */
	assert_int_equal(wait_reaped(xvfb, 5000), 0);
	assert_true(th.in_flight_ms >= 0 && th.in_flight_ms < 3000);
	assert_true(th.first_error_ms >= 0 && th.first_error_ms < 3000);
	/* the app died with its X server */
	assert_int_equal(wait_gone(app.pid, 5000), 0);
	app_stop(&app);

	/* without an X server: the apps on the accessibility bus are still
	 * listed, and observing fails with a sentence */
	ACT(cua_session_list_apps(s, 0, &out));
	cua_free(out);
	/* a session made meanwhile works without X (and gets it later) */
	ACT(cua_session_new(&during, 0));

	/* A new X server on the same display, its window manager and the
	 * app again. */
	restart_x();
	start_gtk3();
	/* the same session works again, pointer included */
	check_works(s, 1);
	/* so does the one made while no X server ran */
	check_works(during, 1);
	cua_session_unref(during);
	/* and a fresh one */
	assert_int_equal(cua_session_new(&fresh, 0), CUA_OK);
	check_works(fresh, 1);
	cua_session_unref(fresh);
	cua_session_unref(s);
	app_stop(&app);
}

/* ------------------------------------------------------------------ */
/* C: two cua processes at once                                         */

static void
test_parallel_cli(void **state)
{
	char state_text[65536], log[16384], idx_a[16], idx_b[16], idx_e[16],
		idx_c[16], val[64], typed[64];
	const char *state_argv[] = { CUA_EXE, "state", APP, NULL };
	const char *watch_argv[] = { CUA_EXE, "watch", APP, NULL };
	struct cli watch;
	int rounds = 24, ok = 0, failed = 0, check_on = 1;
	char last_entry[64] = "";

	assert_non_null(mkdtemp(strcpy(tmpdir, "/tmp/cua-faults-XXXXXX")));
	start_gtk3();
	{
		struct cli c;

		cli_start(&c, 0, state_argv, "state", NULL);
		assert_int_equal(wait_status(c.pid), 0);
		snprintf(state_text, sizeof(state_text), "%s", slurp(c.out));
	}
	snprintf(idx_a, sizeof(idx_a), "%d",
		 cli_id(state_text, "button Alpha"));
	snprintf(idx_b, sizeof(idx_b), "%d", cli_id(state_text, "button Beta"));
	snprintf(idx_e, sizeof(idx_e), "%d",
		 cli_id(state_text, "text field (settable, string) Name:"));
	snprintf(idx_c, sizeof(idx_c), "%d",
		 cli_id(state_text, "checkbox Check me"));
	assert_true(atoi(idx_a) >= 0 && atoi(idx_b) >= 0 && atoi(idx_e) >= 0 &&
		    atoi(idx_c) >= 0);
	/* `cua watch` observes all along, taking the lock at each change */
	cli_start(&watch, 9, watch_argv, "watch", NULL);

	for (int round = 0; round < rounds; round++) {
		struct cli c[3];
		int n = 0;
		const char *click_a[] = { CUA_EXE, "click", APP, idx_a, NULL };
		const char *click_b[] = { CUA_EXE, "click", APP, idx_b, NULL };
		const char *click_c[] = { CUA_EXE, "click", APP, idx_c, NULL };
		const char *set_e[] = { CUA_EXE, "set", APP, idx_e, val, NULL };
		const char *type_t[] = { CUA_EXE, "type", APP, typed, NULL };
		char want[128];

		snprintf(val, sizeof(val), "round %d", round);
		snprintf(typed, sizeof(typed), "t%d", round);
		fixture_drain(&app, "the fixture", NULL, 0);
		if (round % 4 == 3) {
			/* typing goes to the focused element: the entry */
			assert_int_equal(app_send(&app, "focus-entry"), 0);
			assert_int_equal(app_read_until(&app,
							"done focus-entry",
							5000, NULL, 0),
					 0);
		}
		switch (round % 4) {
		case 0:
			cli_start(&c[n++], 1, click_a, "click Alpha",
				  "clicked Alpha");
			cli_start(&c[n++], 2, click_b, "click Beta",
				  "clicked Beta");
			break;
		case 1:
			cli_start(&c[n++], 1, set_e, "set entry", NULL);
			cli_start(&c[n++], 2, state_argv, "state", NULL);
			cli_start(&c[n++], 3, click_a, "click Alpha",
				  "clicked Alpha");
			break;
		case 2:
			cli_start(&c[n++], 1, click_c, "click Check me",
				  "toggled Check me");
			cli_start(&c[n++], 2, click_b, "click Beta",
				  "clicked Beta");
			cli_start(&c[n++], 3, state_argv, "state", NULL);
			break;
		default:
			cli_start(&c[n++], 1, type_t, "type", NULL);
			cli_start(&c[n++], 2, state_argv, "state", NULL);
			break;
		}
		for (int i = 0; i < n; i++)
			c[i].status = wait_status(c[i].pid);
		/* pointer input can arrive after our round trip: wait for
		 * the effects of the successful ones first */
		log[0] = '\0';
		for (int i = 0; i < n; i++)
			if (c[i].status == 0 && c[i].effect &&
			    !strstr(log, c[i].effect) &&
			    app_read_until(&app, c[i].effect, 5000, log,
					   sizeof(log)) < 0)
				fail_msg("round %d: '%s' succeeded but the "
					 "fixture never printed '%s':\n%s",
					 round, c[i].what, c[i].effect, log);
		{
			char rest[8192];

			fixture_drain(&app, "the fixture", rest, sizeof(rest));
			if (strlen(log) + strlen(rest) < sizeof(log))
				strcat(log, rest);
		}
		for (int i = 0; i < n; i++) {
			const char *err = slurp(c[i].err);

			if (c[i].status == 0) {
				ok++;
				continue;
			}
			failed++;
			fprintf(stderr, "# round %d: %s exited %d: %s", round,
				c[i].what, c[i].status, err);
			/* a clear error: one sentence, not a crash */
			if (c[i].status > 2 || strlen(err) < 10)
				fail_msg("round %d: %s exited %d: '%s'", round,
					 c[i].what, c[i].status, err);
			/* and no effect */
			if (c[i].effect && strstr(log, c[i].effect))
				fail_msg("round %d: %s failed but acted:\n%s",
					 round, c[i].what, log);
		}
		/* effects: nothing else was clicked */
		for (const char *p = log; (p = strstr(p, "clicked ")); p++) {
			int expected = 0;

			for (int i = 0; i < n; i++)
				if (c[i].status == 0 && c[i].effect &&
				    strncmp(p, c[i].effect,
					    strlen(c[i].effect)) == 0)
					expected = 1;
			if (!expected)
				fail_msg("round %d: unexpected effect:\n%s",
					 round, log);
		}
		for (int i = 0; i < n; i++) {
			if (c[i].status != 0)
				continue;
			if (strcmp(c[i].what, "click Check me") == 0)
				check_on = !check_on;
			if (strcmp(c[i].what, "set entry") == 0) {
				snprintf(want, sizeof(want), "entry %s", val);
				if (!strstr(log, want))
					fail_msg("round %d: no '%s':\n%s",
						 round, want, log);
				snprintf(last_entry, sizeof(last_entry), "%s",
					 val);
			}
			if (strcmp(c[i].what, "type") == 0) {
				if (!strstr(log, typed))
					fail_msg(
						"round %d: '%s' not typed:\n%s",
						round, typed, log);
				/* typed at the caret of the previous text */
				last_entry[0] = '\0';
			}
			if (strcmp(c[i].what, "state") == 0 &&
			    !strstr(slurp(c[i].out), "App=" APP))
				fail_msg("round %d: state printed:\n%s", round,
					 slurp(c[i].out));
		}
	}
	fprintf(stderr,
		"# parallel cua: %d rounds, %d commands succeeded, "
		"%d failed with a sentence\n",
		rounds, ok, failed);
	/* the watch ran all along, with the same element numbers */
	assert_int_equal(waitpid(watch.pid, NULL, WNOHANG), 0);
	kill(watch.pid, SIGTERM);
	wait_status(watch.pid);
	if (cli_id(slurp(watch.out), "button Alpha") != atoi(idx_a))
		fail_msg("cua watch printed other numbers:\n%s",
			 slurp(watch.out));

	/* the state file is intact: a following `cua state` works and
	 * shows the effects */
	{
		struct cli c;
		char want[128];

		cli_start(&c, 0, state_argv, "state", NULL);
		assert_int_equal(wait_status(c.pid), 0);
		snprintf(state_text, sizeof(state_text), "%s", slurp(c.out));
		snprintf(want, sizeof(want), "checkbox Check me, Value: %s",
			 check_on ? "on" : "off");
		if (!strstr(state_text, want))
			fail_msg("expected '%s' in:\n%s", want, state_text);
		if (last_entry[0]) {
			snprintf(want, sizeof(want), "Value: %s,", last_entry);
			if (!strstr(state_text, want))
				fail_msg("expected '%s' in:\n%s", want,
					 state_text);
		}
		if (strstr(slurp(c.err), "unreadable"))
			fail_msg("the state file was unreadable: %s",
				 slurp(c.err));
	}
	app_stop(&app);
}

/*
 * A cua command that holds the state lock and never finishes (stopped,
 * say; here the test holds it): another command gives up after its bound
 * with a sentence naming the holder, instead of waiting forever.
 */
static void
test_stuck_lock_holder(void **state)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	const char *state_argv[] = { CUA_EXE, "state", APP, NULL };
	char path[4096], want[64];
	struct cli c;
	int fd, status;
	int64_t t0, took;

	assert_non_null(rt);
	assert_non_null(mkdtemp(strcpy(tmpdir, "/tmp/cua-faults-XXXXXX")));
	start_gtk3();
	snprintf(path, sizeof(path), "%s/cua", rt);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/cua/session.lock", rt);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	snprintf(want, sizeof(want), "%ld\n", (long)getpid());
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(pwrite(fd, want, strlen(want), 0),
			 (ssize_t)strlen(want));

	t0 = now_ms();
	cli_start(&c, 0, state_argv, "state", NULL);
	status = wait_status(c.pid);
	took = now_ms() - t0;
	fprintf(stderr,
		"# stuck lock holder: cua state gave up after %lld "
		"ms: %s",
		(long long)took, slurp(c.err));
	assert_int_equal(status, 1);
	snprintf(want, sizeof(want), "another cua command (pid %ld)",
		 (long)getpid());
	assert_non_null(strstr(slurp(c.err), want));
	/* the 60 s bound, with slack */
	assert_true(took >= 59000 && took < 70000);

	/* once the holder is gone, commands work again */
	close(fd);
	cli_start(&c, 0, state_argv, "state", NULL);
	assert_int_equal(wait_status(c.pid), 0);
	assert_non_null(strstr(slurp(c.out), "App=" APP));
	app_stop(&app);
}

static int
teardown(void **state)
{
	char p[128];

	app_stop(&app);
	/* the cua processes' outputs */
	if (tmpdir[0]) {
		for (int i = 0; i < 10; i++) {
			snprintf(p, sizeof(p), "%s/out%d", tmpdir, i);
			unlink(p);
			snprintf(p, sizeof(p), "%s/err%d", tmpdir, i);
			unlink(p);
		}
		rmdir(tmpdir);
		tmpdir[0] = '\0';
	}
	return 0;
}

static int
group_teardown(void **state)
{
	stop_child(our_wm);
	stop_child(our_xvfb);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_parallel_cli, teardown),
		cmocka_unit_test_teardown(test_stuck_lock_holder, teardown),
		cmocka_unit_test_teardown(test_atspi_bus_restart, teardown),
		cmocka_unit_test_teardown(test_x_server_restart, teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return run_test_group("faults", tests, NULL, group_teardown);
}
