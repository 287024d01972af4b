/*
 * The wlroots building blocks when the compositor stops answering or
 * dies: every call ends within its timeout with a sentence that says
 * what happened, and the next call connects again.
 *
 * The wlroots display driver over the same faults: its calls end in time
 * with the screenshot status and sentence that apply, it reconnects, and
 * its capabilities name a compositor that is gone.
 *
 * Runs inside tests/wayland/sway-session and starts a second headless
 * sway (another sway-session) that it can stop, continue and kill
 * without disturbing the first.
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
#include <sys/wait.h>
#include <unistd.h>

#include "core/keys.h"
#include "display/display.h"
#include "display/wlroots/sway-ipc.h"
#include "display/wlroots/wlr.h"

#include "wl-harness.h"

#define TIMEOUT_MS 500

static struct app_proc session;
static char display[4096], swaysock[4096];

static int
setup(void **state)
{
	const char *argv[] = {
		SWAY_SESSION,
		"--size",
		"640x480",
		"--",
		"sh",
		"-c",
		"printf '%s\\n%s\\n' \"$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY\" "
		"\"$SWAYSOCK\"; exec sleep 600",
		NULL
	};

	if (app_start(&session, argv, 1) < 0 ||
	    app_wait_line(&session, "/", 30000, display, sizeof(display)) < 0 ||
	    app_wait_line(&session, "/", 5000, swaysock, sizeof(swaysock)) <
		    0) {
		fprintf(stderr, "the second sway session did not start\n");
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	int status;

	/* SIGTERM: it tears its desktop down, which may take some seconds
	 * on a loaded machine; app_stop() would not wait that long */
	kill(session.pid, SIGTERM);
	for (int i = 0; i < 300; i++) {
		if (waitpid(session.pid, &status, WNOHANG) == session.pid) {
			session.pid = 0;
			break;
		}
		usleep(100 * 1000);
	}
	app_stop(&session);
	return 0;
}

static struct cua_wlr *
connect_second(void)
{
	struct cua_wlr_options opt;
	struct cua_wlr *w = NULL;

	cua_wlr_options_default(&opt);
	opt.display = display;
	opt.swaysock = swaysock;
	opt.timeout_ms = TIMEOUT_MS;
	opt.capture_timeout_ms = TIMEOUT_MS;
	assert_int_equal(cua_wlr_open(&w, &opt), CUA_OK);
	return w;
}

static cua_result
type(struct cua_wlr *w, const char *text)
{
	size_t n;
	struct cua_key_chord *c = cua_keys_from_text(text, &n);
	cua_result r;

	assert_non_null(c);
	r = cua_wlr_keys(w, c, n);
	free(c);
	return r;
}

/* A compositor that stops answering (SIGSTOP): calls fail within their
 * timeout and say so; once it runs again, the next call reconnects and
 * everything works, with a new keyboard. */
static void
test_hung_compositor(void **state)
{
	struct cua_wlr *w = connect_second();
	struct cua_wlr_shot shot;
	int32_t pid = cua_wlr_compositor_pid(w);
	char comm[64] = "";
	FILE *f;
	int64_t t0;

	assert_true(pid > 0);
	snprintf(comm, sizeof(comm), "/proc/%d/comm", (int)pid);
	f = fopen(comm, "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	assert_string_equal(comm, "sway\n");
	assert_int_equal(type(w, "x"), CUA_OK);

	assert_int_equal(kill(pid, SIGSTOP), 0);
	t0 = now_ms();
	assert_int_equal(cua_wlr_roundtrip(w), CUA_ERROR_BACKEND);
	assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
	assert_non_null(
		strstr(cua_error_get(), "did not answer within 500 ms"));
	assert_non_null(
		strstr(cua_error_get(), "the next call connects again"));
	/* while it is stopped, a reconnect fails the same way, in time */
	t0 = now_ms();
	assert_int_equal(cua_wlr_capture(w, NULL, 0, &shot), CUA_ERROR_BACKEND);
	assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
	assert_int_equal(cua_wlr_compositor_pid(w), 0);

	assert_int_equal(kill(pid, SIGCONT), 0);
	assert_int_equal(cua_wlr_roundtrip(w), CUA_OK);
	assert_int_equal(cua_wlr_compositor_pid(w), pid);
	assert_int_equal(type(w, "y"), CUA_OK);
	assert_int_equal(cua_wlr_capture(w, NULL, 0, &shot), CUA_OK);
	assert_int_equal(shot.px.width, 640);
	free(shot.px.data);
	cua_wlr_close(w);
}

/* A compositor that dies: the call that meets it fails with a sentence
 * saying the connection is gone, later calls fail at connect, none
 * waits; the IPC says sway is not there. */
static void
test_dead_compositor(void **state)
{
	struct cua_wlr *w = connect_second();
	struct cua_sway_window *wins;
	size_t n;
	int32_t pid = cua_wlr_compositor_pid(w);
	int64_t t0;
	cua_result r;

	assert_true(pid > 0);
	assert_int_equal(cua_wlr_pointer_move(w, 10, 10), CUA_OK);
	assert_int_equal(cua_sway_windows(swaysock, TIMEOUT_MS, &wins, &n),
			 CUA_OK);
	cua_sway_windows_free(wins, n);

	assert_int_equal(kill(pid, SIGKILL), 0);
	for (int i = 0; i < 50 && kill(pid, 0) == 0; i++)
		usleep(20 * 1000);
	t0 = now_ms();
	r = cua_wlr_pointer_move(w, 20, 20);
	assert_int_equal(r, CUA_ERROR_BACKEND);
	assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
	/* lost on this call, or found gone at once on reconnect */
	assert_true(strstr(cua_error_get(), "was lost") ||
		    strstr(cua_error_get(), "cannot connect"));
	t0 = now_ms();
	assert_int_equal(type(w, "z"), CUA_ERROR_BACKEND);
	assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
	assert_non_null(strstr(cua_error_get(), "cannot connect to the "
						"Wayland display"));
	assert_non_null(strstr(cua_error_get(), "is the compositor running"));
	assert_false(cua_wlr_has(w, CUA_WLR_KEYBOARD));

	assert_int_equal(cua_sway_windows(swaysock, TIMEOUT_MS, &wins, &n),
			 CUA_ERROR_BACKEND);
	assert_non_null(strstr(cua_error_get(), "is sway running"));
	cua_wlr_close(w);
}

/* ---- the display driver ------------------------------------------------ */

static struct cua_ctx drv_ctx;

static struct cua_display *
driver_second(void)
{
	struct cua_wlr_options opt;
	struct cua_display *d = NULL;

	memset(&drv_ctx, 0, sizeof(drv_ctx));
	cua_options_default(&drv_ctx.opt);
	drv_ctx.log_level = CUA_LOG_ERROR;
	cua_wlr_options_default(&opt);
	opt.display = display;
	opt.swaysock = swaysock;
	opt.timeout_ms = TIMEOUT_MS;
	opt.capture_timeout_ms = TIMEOUT_MS;
	assert_int_equal(cua_display_wlroots_open(&drv_ctx, &opt, &d), CUA_OK);
	return d;
}

static void
all_caps(struct cua_display *d, int ok, const char *why)
{
	struct cua_display_caps caps;

	d->ops->capabilities(d, &caps);
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++) {
		if (caps.cap[i].ok != ok ||
		    (why && !strstr(caps.cap[i].why, why)))
			fail_msg("%s: %s (%s)", cua_display_cap_name(i),
				 caps.cap[i].ok ? "available" : "unavailable",
				 caps.cap[i].why);
	}
}

/* A window handle the second desktop does not have (it runs no app). */
#define NO_WINDOW (UINT64_C(1) << 48 | 424242)

/* The driver over a compositor that stops answering: a capture and a
 * pointer event end in time, the capture with the compositor's status;
 * once it runs again the driver reconnects and works. */
static void
test_driver_hung(void **state)
{
	struct cua_display *d = driver_second();
	struct cua_display_shell shell;
	struct cua_capture_request req = { NO_WINDOW, TIMEOUT_MS, TIMEOUT_MS };
	struct cua_capture *c = NULL;
	struct cua_pointer_event ev = { CUA_POINTER_MOVE, 20, 20, 0 };
	enum cua_capture_status st;
	int64_t t0;

	all_caps(d, 1, NULL);
	d->ops->shell(d, &shell);
	assert_true(shell.pid > 0);

	assert_int_equal(kill((pid_t)shell.pid, SIGSTOP), 0);
	t0 = now_ms();
	assert_int_not_equal(d->ops->capture(d, &req, &c, &st), CUA_OK);
	assert_null(c);
	assert_int_equal(st, CUA_CAPTURE_COMPOSITOR_FAILED);
	assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
	t0 = now_ms();
	assert_int_equal(d->ops->pointer(d, &ev, 1, 0), CUA_ERROR_BACKEND);
	assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
	assert_non_null(strstr(cua_error_get(), "did not answer within"));

	assert_int_equal(kill((pid_t)shell.pid, SIGCONT), 0);
	assert_int_equal(d->ops->reconnect(d), 1);
	all_caps(d, 1, NULL);
	assert_int_not_equal(d->ops->capture(d, &req, &c, &st), CUA_OK);
	assert_int_equal(st, CUA_CAPTURE_NOT_LISTED);
	assert_int_equal(d->ops->pointer(d, &ev, 1, 0), CUA_OK);
	cua_display_close(d);
}

/* The driver once the compositor is gone: every capability names it, a
 * capture fails at once with the compositor's status. */
static void
test_driver_dead(void **state)
{
	struct cua_display *d = driver_second();
	struct cua_capture_request req = { NO_WINDOW, TIMEOUT_MS, TIMEOUT_MS };
	struct cua_capture *c = NULL;
	enum cua_capture_status st;
	int64_t t0;

	all_caps(d, 0, "cannot connect to the Wayland display");
	assert_int_equal(d->ops->reconnect(d), -1);
	t0 = now_ms();
	assert_int_not_equal(d->ops->capture(d, &req, &c, &st), CUA_OK);
	assert_int_equal(st, CUA_CAPTURE_COMPOSITOR_FAILED);
	assert_true(now_ms() - t0 < 3 * TIMEOUT_MS);
	cua_display_close(d);
}

int
main(void)
{
	if (system("command -v sway >/dev/null 2>&1") != 0) {
		printf("1..0 # SKIP sway is not installed\n");
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hung_compositor),
		cmocka_unit_test(test_driver_hung),
		/* kills the second compositor */
		cmocka_unit_test(test_dead_compositor),
		cmocka_unit_test(test_driver_dead),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
