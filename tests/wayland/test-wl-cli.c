/*
 * The cua command line on headless sway: `cua doctor` reports the
 * wlroots driver and what works (and, without sway's IPC, why window
 * geometry does not); `cua apps` and cua_session_resolve_app() give
 * native Wayland apps the same ids and names as on X11 (the ids the X11
 * desktop tests expect: gtk3-widget-factory, org.xfce.mousepad,
 * fixture-gtk3), where no window carries WM_CLASS or
 * _GTK_APPLICATION_ID.
 *
 * Run by meson inside tests/wayland/sway-session (suite `wayland`).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "doctor-lines.h"
#include "wl-harness.h"

#define NO_POSITIONS "the compositor gives no window positions"

/* On sway with its IPC: the wlroots driver, everything works. */
static void
test_doctor(void **state)
{
	const char *text_argv[] = { CUA_EXE, "doctor", NULL };
	char out[16384], want[256];

	(void)state;
	assert_int_equal(run_command(text_argv, out, sizeof(out)), 0);
	assert_doctor_line(out, "Session:", "wayland\n");
	snprintf(want, sizeof(want), "%s\n", getenv("WAYLAND_DISPLAY"));
	assert_doctor_line(out, "Display:", want);
	assert_doctor_line(out, "Compositor:", "sway ");
	snprintf(want, sizeof(want),
		 "wlroots, chosen from the environment: a Wayland session on "
		 "WAYLAND_DISPLAY=%s",
		 getenv("WAYLAND_DISPLAY"));
	assert_doctor_line(out, "Driver:", want);
	assert_doctor_all_work(out);

	json_decref(doctor_json("wlroots", "wayland"));
}

/* Without SWAYSOCK: geometry, and what needs it, say why; the tree and
 * the keyboard still work. */
static void
test_doctor_no_geometry(void **state)
{
	const char *text_argv[] = { CUA_EXE, "doctor", NULL };
	char *sock = strdup(getenv("SWAYSOCK"));
	char out[16384];
	int status;

	(void)state;
	unsetenv("SWAYSOCK");
	status = run_command(text_argv, out, sizeof(out));
	setenv("SWAYSOCK", sock, 1);
	free(sock);
	assert_int_equal(status, 0);
	assert_doctor_line(out, "Driver:", "wlroots, ");
	assert_doctor_line(out, "Tree:", "works: ");
	assert_doctor_line(out, "Element actions:", "works\n");
	assert_doctor_line(out, "Keyboard:", "works\n");
	assert_doctor_line(out, "Geometry:", "unavailable: " NO_POSITIONS);
	assert_doctor_line(out, "Screenshot:", "unavailable: " NO_POSITIONS);
	assert_doctor_line(out, "Pointer:", "unavailable: " NO_POSITIONS);
	assert_non_null(strstr(out, "SWAYSOCK is not set"));
}

/* ---- app identity ----------------------------------------------------- */

static const struct {
	const char *exe;  /* started as a native Wayland client */
	const char *id;   /* its id on X11 */
	const char *name; /* and its name */
} apps[] = {
	{ "gtk3-widget-factory", "gtk3-widget-factory", "Widget Factory" },
	/* a GApplication whose executable two desktop entries run (the
	 * editor and its settings dialog) */
	{ "mousepad", "org.xfce.mousepad", "Mousepad" },
};

/* The running app with this pid in `cua apps --json`, or NULL. */
static json_t *
app_of_pid(json_t *list, int pid)
{
	json_t *a, *p;
	size_t i, k;

	json_array_foreach(json_object_get(list, "apps"), i, a)
		json_array_foreach(json_object_get(a, "pids"), k,
				   p) if (json_integer_value(p) ==
					  pid) return a;
	return NULL;
}

static void
test_app_ids(void **state)
{
	const char *apps_argv[] = { CUA_EXE, "apps", "--json", NULL };
	struct app_proc procs[sizeof(apps) / sizeof(*apps)];
	char out[65536];
	json_t *list = NULL, *a;
	cua_session *s;
	int64_t deadline;
	size_t i, found = 0;

	(void)state;
	for (i = 0; i < sizeof(apps) / sizeof(*apps); i++) {
		const char *argv[] = { apps[i].exe, NULL };
		char path[64];

		snprintf(path, sizeof(path), "/usr/bin/%s", apps[i].exe);
		if (access(path, X_OK) != 0)
			fail_msg("%s is not installed (tools/setup-debian "
				 "installs it)",
				 apps[i].exe);
		assert_int_equal(app_start(&procs[i], argv, 0), 0);
	}
	/* until every app is on the accessibility bus with a window */
	deadline = now_ms() + 20000;
	while (found < sizeof(apps) / sizeof(*apps) + 1 &&
	       now_ms() < deadline) {
		json_decref(list);
		list = NULL;
		if (run_command(apps_argv, out, sizeof(out)) != 0 ||
		    !(list = json_loads(out, 0, NULL)))
			fail_msg("`cua apps --json` failed:\n%s", out);
		found = 0;
		for (i = 0; i < sizeof(apps) / sizeof(*apps); i++) {
			a = app_of_pid(list, procs[i].pid);
			found += a &&
				 json_is_true(json_object_get(a, "accessible"));
		}
		found += app_of_pid(list, wl_test_env.app.pid) != NULL;
		if (found < sizeof(apps) / sizeof(*apps) + 1)
			usleep(200000);
	}
	for (i = 0; i < sizeof(apps) / sizeof(*apps); i++) {
		a = app_of_pid(list, procs[i].pid);
		if (!a)
			fail_msg("%s (pid %d) is not listed:\n%s", apps[i].exe,
				 (int)procs[i].pid, out);
		assert_string_equal(json_string_value(json_object_get(a, "id")),
				    apps[i].id);
		assert_string_equal(
			json_string_value(json_object_get(a, "name")),
			apps[i].name);
	}
	/* an app without a desktop entry: its AT-SPI name, as on X11 */
	a = app_of_pid(list, wl_test_env.app.pid);
	assert_non_null(a);
	assert_string_equal(json_string_value(json_object_get(a, "id")),
			    FIXTURE_APP);
	json_decref(list);

	/* the library resolves the executable's name to the same app */
	s = test_session();
	for (i = 0; i < sizeof(apps) / sizeof(*apps); i++) {
		char *text = NULL;
		json_t *j;

		if (cua_session_resolve_app(s, apps[i].exe, 0, &text) != CUA_OK)
			fail_msg("resolve %s: %s", apps[i].exe,
				 cua_error_message());
		j = json_loads(text, 0, NULL);
		cua_free(text);
		assert_non_null(j);
		assert_string_equal(json_string_value(json_object_get(j, "id")),
				    apps[i].id);
		assert_int_equal(json_integer_value(json_object_get(j, "pid")),
				 procs[i].pid);
		json_decref(j);
	}
	cua_session_unref(s);
	for (i = 0; i < sizeof(apps) / sizeof(*apps); i++)
		app_stop(&procs[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doctor),
		cmocka_unit_test(test_doctor_no_geometry),
		cmocka_unit_test(test_app_ids),
	};

	return cmocka_run_group_tests(tests, wl_test_env_start,
				      wl_test_env_stop);
}
