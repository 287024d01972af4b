/*
 * The portal display driver through the real xdg-desktop-portal frontend,
 * on the headless GNOME desktop: the frontend runs in front of a test
 * backend (portal-backend.py) that grants every request and does the work
 * through mutter's own RemoteDesktop and ScreenCast. The driver reads and
 * drives the GTK 3 fixture through the portal (a screenshot showing the
 * window's pixels, a click at a pixel and typed keys, read back from the
 * fixture's own output), the consent it was given is kept or not as the
 * frontend's version allows, and a cancelled dialog gives the model a
 * sentence saying what to do.
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>

#include "common.h"
#include "covers.h"

#define APP "fixture-gtk3"

static char dir[] = "/tmp/cua-portal-XXXXXX";
static struct app_proc backend = { 0 }, frontend = { 0 };

/* The portal's RemoteDesktop version, once the frontend owns its name on
 * the session bus (at most 10 s). */
static uint32_t
frontend_version(void)
{
	GDBusConnection *c = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
	uint32_t ver = 0;

	assert_non_null(c);
	for (int i = 0; i < 200 && !ver; i++) {
		GVariant *r = g_dbus_connection_call_sync(
			c, "org.freedesktop.portal.Desktop",
			"/org/freedesktop/portal/desktop",
			"org.freedesktop.DBus.Properties", "Get",
			g_variant_new("(ss)",
				      "org.freedesktop.portal.RemoteDesktop",
				      "version"),
			G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
			1000, NULL, NULL);

		if (r) {
			GVariant *v;

			g_variant_get(r, "(v)", &v);
			ver = g_variant_get_uint32(v);
			g_variant_unref(v);
			g_variant_unref(r);
		} else {
			usleep(50 * 1000);
		}
	}
	g_object_unref(c);
	return ver;
}

static int
setup(void **state)
{
	const char *const back[] = { "/usr/bin/python3", PORTAL_BACKEND, dir,
				     NULL };
	const char *const front[] = { "/usr/libexec/xdg-desktop-portal", NULL };
	char path[256], state_home[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/cuatest.portal", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "[portal]\n"
		   "DBusName=org.freedesktop.impl.portal.desktop.cuatest\n"
		   "Interfaces=org.freedesktop.impl.portal.RemoteDesktop;"
		   "org.freedesktop.impl.portal.ScreenCast;\n"
		   "UseIn=cuatest\n");
	fclose(f);
	snprintf(state_home, sizeof(state_home), "%s/state", dir);
	setenv("XDG_STATE_HOME", state_home, 1);
	if (app_start(&backend, back, 1) < 0 ||
	    app_wait_line(&backend, "ready", 15000, NULL, 0) < 0)
		fail_msg("the test portal backend did not start");
	/* the frontend before any app: a GTK app would otherwise start one
	 * by D-Bus activation, without the test's backend */
	setenv("XDG_DESKTOP_PORTAL_DIR", dir, 1);
	setenv("XDG_CURRENT_DESKTOP", "cuatest", 1);
	if (app_start(&frontend, front, 0) < 0)
		fail_msg("xdg-desktop-portal did not start");
	setenv("CUA_DISPLAY", "portal", 1);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[300];

	(void)state;
	app_stop(&frontend);
	app_stop(&backend);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return 0;
}

/* The backend's next line starting with `prefix`, whole, in `line`. */
static void
backend_line(const char *prefix, char *line, size_t size)
{
	if (app_wait_line(&backend, prefix, 10000, line, size) < 0)
		fail_msg("the portal backend never printed '%s'", prefix);
}

static int
ready_fixture(cua_tree *t, void *data)
{
	(void)data;
	return find_element(t, "checkbox", "Unchecked box") != NULL;
}

/* The fixture's window, with a screenshot showing it drawn (the first
 * sessions may find no window with focus yet while the window maps, and
 * a window just mapped may not have drawn its check box yet). */
static int
ready_shot(cua_tree *t, void *data)
{
	const void *d;
	size_t size;
	const char *mime;
	cua_element *checked = find_element(t, "checkbox", "Check me");

	if (!ready_fixture(t, data) || !checked ||
	    cua_tree_get_screenshot(t, &d, &size, &mime, NULL, NULL, NULL) !=
		    CUA_OK)
		return 0;
	return box_is_blue(t, checked);
}

/* A session through the portal, its first observation of the fixture
 * with a screenshot, and what the backend was asked. */
static cua_session *
portal_session(cua_tree **t, char *devices, char *start, size_t size)
{
	cua_session *s = test_session();

	*t = observe_until_pred(s, APP, 15000, ready_shot, NULL);
	if (!*t) {
		ACT(cua_session_observe(s, APP, 0, t));
		fail_msg("no screenshot through the portal: %s",
			 cua_tree_get_screenshot_error(*t));
	}
	backend_line("select-devices ", devices, size);
	backend_line("start ", start, size);
	return s;
}

static void
test_portal(void **state)
{
	char devices[256], start[256], log[4096] = "", token[4096], *info,
				       *out = NULL;
	struct app_proc fx = { 0 };
	uint32_t version = frontend_version(), iw, ih, id;
	cua_session *s;
	cua_tree *t;
	cua_element *box, *checked;
	int32_t x, y, w, h;
	double ppp;
	const void *data;
	size_t size;
	const char *mime;
	struct stat st;

	(void)state;
	if (!version)
		fail_msg("xdg-desktop-portal offers no RemoteDesktop");
	if (fixture_start(&fx, FIXTURE_GTK3, NULL, 15000, NULL, 0) < 0)
		fail_msg("the GTK 3 fixture did not start");

	/* the first start: the consent the backend grants */
	s = portal_session(&t, devices, start, sizeof(devices));
	ACT(cua_session_get_display_info(s, &info));
	if (!strstr(info, "\"driver\": \"portal\""))
		fail_msg("not the portal driver: %s", info);
	cua_free(info);
	if (!strstr(start, "devices=3 streams=1"))
		fail_msg("the backend granted: %s", start);

	/* a screenshot of the window through the portal's PipeWire remote:
	 * the checked box blue, the unchecked one white */
	if (cua_tree_get_screenshot(t, &data, &size, &mime, &iw, &ih, &ppp) !=
	    CUA_OK)
		fail_msg("no screenshot: %s", cua_tree_get_screenshot_error(t));
	box = find_enabled(t, "checkbox", "Unchecked box", "off");
	checked = find_element(t, "checkbox", "Check me");
	assert_non_null(checked);
	assert_int_equal(box_is_blue(t, checked), 1);
	assert_int_equal(box_is_blue(t, box), 0);

	/* a click at the screenshot pixel of the box: the pointer's absolute
	 * motion on the granted stream, then a button */
	id = cua_element_get_id(box);
	assert_int_equal(cua_element_get_frame(box, &x, &y, &w, &h), 1);
	ACT(cua_session_click_at(s, APP, floor((x + w / 2.0) * ppp),
				 floor((y + h / 2.0) * ppp), CUA_BUTTON_LEFT, 1,
				 &out));
	assert_route(NULL, out, "synthetic");
	cua_free(out);
	fixture_expect_line(&fx, "toggled Unchecked box on");
	cua_tree_unref(t);
	t = observe_until_pred(s, APP, 5000, has_value,
			       &(struct want_value){ id, "on" });
	if (!t)
		fail_msg("the check box at the clicked pixel was not checked");

	/* keys through the portal's keyboard */
	ACT(cua_session_set_option(s, "type_text_keys", "1"));
	ACT(cua_session_click(s, APP, id_of(t, "text field", "Name:"),
			      CUA_BUTTON_LEFT, 1, NULL));
	ACT(cua_session_press_key(s, APP, "ctrl+a BackSpace", &out));
	assert_route(NULL, out, "keys");
	cua_free(out);
	fixture_expect_line(&fx, "entry ");
	ACT(cua_session_type_text(s, APP, "portal ok", &out));
	assert_route(NULL, out, "keys");
	cua_free(out);
	fixture_wait_line(&fx, "entry portal ok", log, sizeof(log));
	cua_tree_unref(t);
	cua_session_unref(s);
	backend_line("closed", log, sizeof(log));

	/* the consent kept: the restore token in the state directory
	 * (version 2 on), or nothing asked for (version 1, whose frontend
	 * refuses persistence for remote-desktop sessions) */
	snprintf(token, sizeof(token), "%s/state/libcua/portal-restore-token",
		 dir);
	if (version >= 2) {
		assert_string_equal(devices,
				    "select-devices persist=2 restore=no");
		assert_int_equal(stat(token, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0600);
	} else {
		assert_string_equal(devices,
				    "select-devices persist=0 restore=no");
		assert_true(stat(token, &st) < 0 && errno == ENOENT);
	}

	/* the second start: with the token the backend gets its restore
	 * data back; without, it is asked again */
	s = portal_session(&t, devices, start, sizeof(devices));
	if (version >= 2) {
		assert_string_equal(devices,
				    "select-devices persist=2 restore=yes");
		assert_non_null(strstr(start, "start restore=yes"));
	} else {
		assert_string_equal(devices,
				    "select-devices persist=0 restore=no");
		assert_non_null(strstr(start, "start restore=no"));
	}
	assert_int_equal(
		cua_tree_get_screenshot(t, &data, &size, &mime, &iw, &ih, &ppp),
		CUA_OK);
	cua_tree_unref(t);
	cua_session_unref(s);
	backend_line("closed", log, sizeof(log));

	/* the dialog cancelled: the model is told what happened and what to
	 * do, and nothing is clicked */
	snprintf(token, sizeof(token), "%s/cancel", dir);
	assert_int_equal(close(creat(token, 0600)), 0);
	s = test_session();
	t = observe_until_pred(s, APP, 15000, ready_fixture, NULL);
	assert_non_null(t);
	backend_line("cancelled", log, sizeof(log));
	assert_null(strstr(log, "start "));
	if (!strstr(cua_tree_get_screenshot_error(t),
		    "consent dialog for remote control was cancelled"))
		fail_msg("screenshot error: %s",
			 cua_tree_get_screenshot_error(t));
	if (cua_session_click_at(s, APP, 10, 10, CUA_BUTTON_LEFT, 1, NULL) ==
		    CUA_OK ||
	    !strstr(cua_error_message(), "Share / Allow"))
		fail_msg("a click after the cancelled dialog: %s",
			 cua_error_message());
	cua_tree_unref(t);
	cua_session_unref(s);
	app_stop(&fx);
	COVERS("GTK 3", "get_app_state click press_key type_text");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_portal),
	};

	return cmocka_run_group_tests_name("portal", tests, setup, teardown);
}
