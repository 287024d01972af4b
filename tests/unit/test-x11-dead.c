/*
 * An X connection whose server went away (lib/display/x11/x11.c): the
 * thread that meets the broken connection is not the one that closes it.
 *
 * The person watcher (user.c) reads its connection on a thread of its
 * own, and the session closes that connection from the caller's thread.
 * Xlib takes the display's user lock on the thread that meets the I/O
 * error and never gives it back by itself; kept, that lock made the
 * closing thread wait forever. A private Xvfb is started and killed here,
 * so the error always lands on the reading thread.
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
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "display/x11/x11.h"

extern char **environ;

static pid_t xvfb_pid;
static char display[32];

/* An Xvfb on the first free display; its number from -displayfd. */
static void
start_xvfb(void)
{
	const char *argv[] = { "Xvfb",     "-displayfd", "3",         "-screen",
			       "0",        "320x240x24", "-nolisten", "tcp",
			       "-noreset", NULL };
	posix_spawn_file_actions_t fa;
	char buf[16] = "";
	size_t got = 0;
	int fds[2];

	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 3);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&xvfb_pid, "Xvfb", &fa, NULL, (char **)argv,
			 environ) != 0)
		fail_msg("cannot run Xvfb (%s): install the xvfb package",
			 strerror(errno));
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	while (!strchr(buf, '\n') && got < sizeof(buf) - 1) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 15000) <= 0)
			break;
		n = read(fds[0], buf + got, sizeof(buf) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		buf[got] = '\0';
	}
	close(fds[0]);
	if (!strchr(buf, '\n'))
		fail_msg("Xvfb did not say which display it took");
	snprintf(display, sizeof(display), ":%d", atoi(buf));
}

static void
kill_xvfb(void)
{
	if (xvfb_pid <= 0)
		return;
	kill(xvfb_pid, SIGKILL);
	waitpid(xvfb_pid, NULL, 0);
	xvfb_pid = 0;
}

/* Round trips on `x` until it is marked dead (or about two seconds). */
static void
read_until_dead(struct x11 *x)
{
	for (int i = 0; i < 200 && x11_display(x); i++) {
		(void)x11_active_window(x);
		usleep(10 * 1000);
	}
}

/*
 * The reading thread stays alive until the close was tried: a thread
 * started after it ended could get its id, and Xlib would take it for
 * the lock's owner.
 */
struct reader {
	struct x11 *x;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done, release;
};

static void *
reader_main(void *data)
{
	struct reader *r = data;

	read_until_dead(r->x);
	pthread_mutex_lock(&r->mu);
	r->done = 1;
	pthread_cond_broadcast(&r->cv);
	while (!r->release)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

static void
reader_start(struct reader *r, struct x11 *x)
{
	memset(r, 0, sizeof(*r));
	r->x = x;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	assert_int_equal(pthread_create(&r->th, NULL, reader_main, r), 0);
	pthread_mutex_lock(&r->mu);
	while (!r->done)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
}

static void
reader_end(struct reader *r)
{
	pthread_mutex_lock(&r->mu);
	r->release = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->th, NULL);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
}

static void *
closer_main(void *data)
{
	x11_close(data);
	return NULL;
}

/* Runs fn(data) on a thread; 0 when it returned within timeout_ms. */
static int
run_bounded(void *(*fn)(void *), void *data, int timeout_ms)
{
	struct timespec until;
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, fn, data), 0);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	if (pthread_timedjoin_np(th, NULL, &until) != 0) {
		pthread_detach(th);
		return -1;
	}
	return 0;
}

static void
test_close_after_error_on_another_thread(void **state)
{
	struct x11 *x, *again;
	struct reader r;
	int closed;

	(void)state;
	start_xvfb();
	x = x11_open(display);
	assert_non_null(x);
	/* the connection works */
	assert_non_null(x11_display(x));
	(void)x11_active_window(x);
	assert_non_null(x11_display(x));

	kill_xvfb();
	/* the reading thread meets the broken connection first */
	reader_start(&r, x);
	assert_null(x11_display(x));

	/* another thread can still ask (an answer without a server) ... */
	assert_int_equal(x11_active_window(x), 0);
	assert_int_equal(x11_check_alive(x), -1);
	/* ... and close it, without waiting for the reader's lock */
	closed = run_bounded(closer_main, x, 5000) == 0;
	reader_end(&r);
	if (!closed)
		fail_msg("closing a dead X connection from another thread "
			 "than the one that met the error did not return "
			 "within 5 s");

	/* a new server on a display: connections work again */
	start_xvfb();
	again = x11_open(display);
	assert_non_null(again);
	(void)x11_active_window(again);
	assert_non_null(x11_display(again));
	x11_close(again);
	kill_xvfb();
}

/* The thread that met the error closes the connection itself. */
struct own_close {
	struct x11 *x;
	int met; /* the error was met before the close */
};

static void *
read_then_close(void *data)
{
	struct own_close *c = data;

	read_until_dead(c->x);
	c->met = x11_display(c->x) == NULL;
	x11_close(c->x);
	return NULL;
}

static void
test_close_on_the_same_thread(void **state)
{
	struct own_close c = { 0 };

	(void)state;
	start_xvfb();
	c.x = x11_open(display);
	assert_non_null(c.x);
	kill_xvfb();
	assert_int_equal(run_bounded(read_then_close, &c, 10000), 0);
	assert_true(c.met);
}

static int
teardown(void **state)
{
	(void)state;
	kill_xvfb();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_close_after_error_on_another_thread, teardown),
		cmocka_unit_test_teardown(test_close_on_the_same_thread,
					  teardown),
	};

	return cmocka_run_group_tests_name("x11-dead", tests, NULL, NULL);
}
