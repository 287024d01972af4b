/*
 * The display seam (lib/display/display.h): which driver a session gets
 * for which environment, forced choices and their errors, what the none
 * driver reports, the JSON of cua_session_get_display_info(), and the
 * mapping of AT-SPI coordinates to global ones.
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

#include <jansson.h>

#include "backend/backend.h"
#include "core/ctx.h"
#include "core/session.h"
#include "display/display.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* A probe whose answers the test decides                               */

struct fake_probe {
	const char *works[4]; /* drivers that work; NULL-terminated */
	char asked[8][16];    /* drivers asked about, in order */
	size_t n_asked;
};

static int
fake_probe(void *data, const char *name, const struct cua_display_env *env,
	   char *why, size_t size)
{
	struct fake_probe *p = data;

	(void)env;
	if (p->n_asked < 8)
		snprintf(p->asked[p->n_asked++], sizeof(p->asked[0]), "%s",
			 name);
	for (size_t i = 0; p->works[i]; i++)
		if (strcmp(p->works[i], name) == 0)
			return 1;
	snprintf(why, size, "the compositor offers nothing %s needs", name);
	return 0;
}

static struct cua_display_env
env_of(const char *wayland, const char *display, const char *type,
       const char *forced)
{
	struct cua_display_env e;

	memset(&e, 0, sizeof(e));
	e.wayland_display = wayland;
	e.display = display;
	e.session_type = type;
	e.forced = forced;
	e.forced_by = "CUA_DISPLAY";
	return e;
}

static void
choose_ok(const struct cua_display_env *e, struct fake_probe *p,
	  struct cua_display_choice *c)
{
	cua_result r = cua_display_choose(e, p ? fake_probe : NULL, p, c);

	if (r != CUA_OK)
		fail_msg("cua_display_choose: %s", cua_error_message());
	assert_non_null(c->driver);
}

/* ------------------------------------------------------------------ */
/* Automatic choice                                                     */

static void
test_no_window_system(void **state)
{
	struct cua_display_choice c;
	struct cua_display_env e = env_of(NULL, NULL, NULL, NULL);

	(void)state;
	choose_ok(&e, NULL, &c);
	assert_string_equal(c.driver, "none");
	assert_int_equal(c.session, CUA_DISPLAY_SESSION_NONE);
	assert_int_equal(c.forced, 0);
	assert_string_equal(c.why, "there is no window system: neither "
				   "WAYLAND_DISPLAY nor DISPLAY is set");
	/* empty values are unset ones */
	e = env_of("", "", "", "");
	choose_ok(&e, NULL, &c);
	assert_string_equal(c.driver, "none");
	assert_int_equal(c.session, CUA_DISPLAY_SESSION_NONE);
	/* an X11 login without DISPLAY in this process */
	e = env_of(NULL, NULL, "x11", NULL);
	choose_ok(&e, NULL, &c);
	assert_string_equal(c.driver, "none");
}

static void
test_x11_session(void **state)
{
	struct cua_display_choice c;
	struct cua_display_env e = env_of(NULL, ":7", "x11", NULL);
	struct fake_probe p = { { NULL } };

	(void)state;
	choose_ok(&e, &p, &c);
	assert_int_equal(c.session, CUA_DISPLAY_SESSION_X11);
	/* no probing on X11: the x11 driver connects (or says why not) */
	assert_int_equal(p.n_asked, 0);
	assert_int_equal(c.n_tried, 0);
#if HAVE_DISPLAY_X11
	assert_string_equal(c.driver, "x11");
	assert_non_null(strstr(c.why, "DISPLAY=:7 names an X server"));
#else
	assert_string_equal(c.driver, "none");
	assert_non_null(strstr(c.why, "built without the x11 display driver"));
#endif
	/* a headless X server started inside a Wayland login (its
	 * environment names the X server and no Wayland display) */
	e = env_of(NULL, ":99", "wayland", NULL);
	choose_ok(&e, &p, &c);
	assert_int_equal(c.session, CUA_DISPLAY_SESSION_X11);
	assert_int_equal(p.n_asked, 0);
#if HAVE_DISPLAY_X11
	assert_string_equal(c.driver, "x11");
#endif
}

static void
test_wayland_session(void **state)
{
	struct cua_display_choice c;
	/* Xwayland present: DISPLAY is set too */
	struct cua_display_env e = env_of("wayland-0", ":0", "wayland", NULL);
	struct fake_probe p = { { NULL } };

	(void)state;
	choose_ok(&e, &p, &c);
	assert_int_equal(c.session, CUA_DISPLAY_SESSION_WAYLAND);
	/* X11 (Xwayland) is never chosen by itself on a Wayland session */
	assert_string_equal(c.driver, "none");
	assert_int_equal(p.n_asked, 3);
	assert_string_equal(p.asked[0], "wlroots");
	assert_string_equal(p.asked[1], "mutter");
	assert_string_equal(p.asked[2], "portal");
	assert_int_equal(c.n_tried, 3);
	assert_string_equal(c.tried[0].driver, "wlroots");
	assert_string_equal(c.tried[0].why,
			    "the compositor offers nothing wlroots needs");
	assert_string_equal(c.tried[2].driver, "portal");
	assert_non_null(strstr(c.why, "Wayland session on "
				      "WAYLAND_DISPLAY=wayland-0"));

	/* the first driver that works with the compositor wins */
	p = (struct fake_probe){ { "mutter", "portal", NULL } };
	choose_ok(&e, &p, &c);
	assert_string_equal(c.driver, "mutter");
	assert_int_equal(c.n_tried, 1);
	assert_string_equal(c.tried[0].driver, "wlroots");
	assert_int_equal(p.n_asked, 2);
	p = (struct fake_probe){ { "wlroots", "mutter", "portal", NULL } };
	choose_ok(&e, &p, &c);
	assert_string_equal(c.driver, "wlroots");
	assert_int_equal(c.n_tried, 0);

	/* XDG_SESSION_TYPE=wayland without WAYLAND_DISPLAY or DISPLAY */
	e = env_of(NULL, NULL, "wayland", NULL);
	p = (struct fake_probe){ { NULL } };
	choose_ok(&e, &p, &c);
	assert_int_equal(c.session, CUA_DISPLAY_SESSION_WAYLAND);
	assert_string_equal(c.driver, "none");
	assert_non_null(strstr(c.why, "XDG_SESSION_TYPE=wayland"));
}

/* With the real probe: the drivers this libcua was built without say
 * so, and the reason the model gets names what is missing. */
static void
test_wayland_real_probe(void **state)
{
	struct cua_display_choice c;
	/* a display no compositor serves */
	struct cua_display_env e =
		env_of("/nonexistent/cua-unit-wayland", ":0", NULL, NULL);

	(void)state;
	assert_int_equal(cua_display_built("mutter"), HAVE_MUTTER);
	/* one driver with two session layers: built together */
	assert_int_equal(cua_display_built("portal"), HAVE_MUTTER);
	assert_true(cua_display_built("none"));
	/* no session bus either: the mutter driver's probe cannot ask for
	 * mutter's interface */
	unsetenv("DBUS_SESSION_BUS_ADDRESS");
	choose_ok(&e, NULL, &c);
	assert_string_equal(c.driver, "none");
	assert_int_equal(c.n_tried, 3);
	assert_string_equal(c.tried[1].driver, "mutter");
#if HAVE_MUTTER
	assert_string_equal(c.tried[1].why,
			    "DBUS_SESSION_BUS_ADDRESS is not set");
	assert_string_equal(c.tried[2].driver, "portal");
	assert_string_equal(c.tried[2].why,
			    "DBUS_SESSION_BUS_ADDRESS is not set");
#else
	assert_string_equal(c.tried[1].why, "not built into this libcua");
	assert_string_equal(c.tried[2].why, "not built into this libcua");
#endif
#if HAVE_WLROOTS
	/* the wlroots driver's probe connects, and says why it could not */
	assert_true(cua_display_built("wlroots"));
	assert_non_null(strstr(c.tried[0].why,
			       "cannot connect to the Wayland display "
			       "'/nonexistent/cua-unit-wayland'"));
	assert_non_null(strstr(c.why,
			       "this is a Wayland session on "
			       "WAYLAND_DISPLAY=/nonexistent/cua-unit-wayland, "
			       "and none of libcua's display drivers works "
			       "with its compositor; wlroots: cannot connect"));
#else
	assert_false(cua_display_built("wlroots"));
	assert_string_equal(c.tried[0].why, "not built into this libcua");
	assert_string_equal(c.why,
			    "this is a Wayland session on "
			    "WAYLAND_DISPLAY=/nonexistent/cua-unit-wayland, "
			    "and this libcua has no display driver for "
			    "Wayland compositors");
#endif
}

/* ------------------------------------------------------------------ */
/* Forced choice                                                        */

static void
test_forced(void **state)
{
	struct cua_display_choice c;
	struct cua_display_env e = env_of(NULL, ":3", "x11", "none");
	struct fake_probe p = { { NULL } };

	(void)state;
	choose_ok(&e, &p, &c);
	assert_string_equal(c.driver, "none");
	assert_int_equal(c.forced, 1);
	assert_string_equal(c.forced_by, "CUA_DISPLAY");
	assert_int_equal(c.session, CUA_DISPLAY_SESSION_X11);
	assert_string_equal(
		c.why, "the display driver is turned off by CUA_DISPLAY=none");
	assert_int_equal(p.n_asked, 0);

#if HAVE_DISPLAY_X11
	/* x11 forced on a Wayland session (for Xwayland apps) */
	e = env_of("wayland-0", ":0", "wayland", "x11");
	choose_ok(&e, &p, &c);
	assert_string_equal(c.driver, "x11");
	assert_int_equal(c.forced, 1);
	assert_int_equal(c.session, CUA_DISPLAY_SESSION_WAYLAND);
	assert_int_equal(p.n_asked, 0);
#endif

	/* "auto" is no forcing at all */
	e = env_of(NULL, NULL, NULL, "auto");
	choose_ok(&e, &p, &c);
	assert_string_equal(c.driver, "none");
	assert_int_equal(c.forced, 0);

	/* the session option names itself in its messages */
	e = env_of(NULL, ":3", NULL, "none");
	e.forced_by = "the session option display";
	choose_ok(&e, &p, &c);
	assert_string_equal(c.why, "the display driver is turned off by the "
				   "session option display=none");
}

static void
test_forced_errors(void **state)
{
	struct cua_display_choice c;
	struct cua_display_env e = env_of(NULL, ":3", NULL, "wayland");

	(void)state;
	assert_int_equal(cua_display_choose(&e, NULL, NULL, &c),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "CUA_DISPLAY=wayland: no display driver has this "
			    "name; use auto, x11, wlroots, mutter, portal or "
			    "none");
	/* case matters, as for every other name */
	e.forced = "X11";
	assert_int_equal(cua_display_choose(&e, NULL, NULL, &c),
			 CUA_ERROR_INVALID_ARGUMENT);
	e.forced = "portal";
#if HAVE_MUTTER
	/* forced: chosen without a probe */
	assert_int_equal(cua_display_choose(&e, NULL, NULL, &c), CUA_OK);
	assert_string_equal(c.driver, "portal");
	assert_true(c.forced);
#else
	/* known, but not in this build */
	assert_int_equal(cua_display_choose(&e, NULL, NULL, &c),
			 CUA_ERROR_UNSUPPORTED);
	assert_non_null(strstr(cua_error_message(),
			       "CUA_DISPLAY=portal: this libcua was built "
			       "without the portal display driver (it has "));
	assert_non_null(strstr(cua_error_message(), "choose one of those, or "
						    "auto"));
#endif
}

/* ------------------------------------------------------------------ */
/* The none driver and the facts for people                             */

static void
test_none_driver(void **state)
{
	struct cua_ctx ctx;
	struct cua_display_choice c;
	struct cua_display_env e = env_of(NULL, NULL, NULL, "none");
	struct cua_display *d = NULL;
	struct cua_display_caps caps;
	json_t *j, *cap;
	json_error_t err;
	char *s = NULL;

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	cua_options_default(&ctx.opt);
	ctx.log_level = CUA_LOG_WARNING;
	choose_ok(&e, NULL, &c);
	assert_int_equal(cua_display_open(&ctx, &c, NULL, &d), CUA_OK);
	assert_string_equal(d->ops->name, "none");
	cua_display_capabilities(d, NULL, &caps);
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++) {
		assert_false(caps.cap[i].ok);
		assert_string_equal(caps.cap[i].why, "the display driver is "
						     "turned off by "
						     "CUA_DISPLAY=none");
	}
	/* nothing to act through */
	assert_null(d->ops->pointer);
	assert_null(d->ops->keys);
	assert_null(d->ops->capture);
	assert_null(d->ops->window_query);

	assert_int_equal(cua_display_info_json(d, NULL, &s), CUA_OK);
	j = json_loads(s, 0, &err);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "schema")),
			    "libcua.display/1");
	assert_string_equal(json_string_value(json_object_get(j, "driver")),
			    "none");
	assert_string_equal(json_string_value(json_object_get(j, "chosen_by")),
			    "CUA_DISPLAY");
	assert_string_equal(json_string_value(json_object_get(j, "session")),
			    "none");
	assert_true(json_is_null(json_object_get(j, "display")));
	cap = json_object_get(json_object_get(j, "capabilities"), "screenshot");
	assert_true(json_is_false(json_object_get(cap, "available")));
	assert_string_equal(
		json_string_value(json_object_get(cap, "reason")),
		"the display driver is turned off by CUA_DISPLAY=none");
	assert_int_equal(json_object_size(json_object_get(j, "capabilities")),
			 CUA_DISPLAY_CAP_COUNT);
	assert_int_equal(json_array_size(json_object_get(j, "tried")), 0);
	json_decref(j);
	free(s);
	cua_display_close(d);

	/* no driver at all (a recording): everything missing, for why */
	assert_int_equal(
		cua_display_info_json(NULL, "no window system here", &s),
		CUA_OK);
	j = json_loads(s, 0, &err);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "chosen_by")),
			    "backend");
	cap = json_object_get(json_object_get(j, "capabilities"), "pointer");
	assert_string_equal(json_string_value(json_object_get(cap, "reason")),
			    "no window system here");
	json_decref(j);
	free(s);
}

/* Reasons quote the environment; the JSON stays valid UTF-8. */
static void
test_info_sanitised(void **state)
{
	struct cua_ctx ctx;
	struct cua_display_choice c;
	struct cua_display_env e = env_of("w\xff\x01y", NULL, NULL, NULL);
	struct cua_display *d = NULL;
	json_error_t err;
	json_t *j;
	char *s = NULL;

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	cua_options_default(&ctx.opt);
	choose_ok(&e, NULL, &c);
	assert_string_equal(c.driver, "none");
	assert_int_equal(cua_display_open(&ctx, &c, NULL, &d), CUA_OK);
	assert_int_equal(cua_display_info_json(d, NULL, &s), CUA_OK);
	j = json_loads(s, 0, &err);
	assert_non_null(j);
	assert_non_null(strstr(json_string_value(json_object_get(j, "why")),
			       "WAYLAND_DISPLAY=w\xef\xbf\xbdy"));
	json_decref(j);
	free(s);
	cua_display_close(d);
}

/* ------------------------------------------------------------------ */
/* Through the public API                                               */

/* A recording has no window system: the info says so, and the option
 * cannot choose a driver for it. */
static void
test_api_recorded(void **state)
{
	cua_session *s = NULL;
	json_error_t err;
	json_t *j, *cap;
	char *out = NULL;

	(void)state;
	assert_int_equal(cua_session_new_recorded(
				 &s, data_path("recorded-gedit.json"), 0),
			 CUA_OK);
	assert_int_equal(cua_session_get_display_info(s, &out), CUA_OK);
	j = json_loads(out, 0, &err);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "driver")),
			    "none");
	assert_string_equal(json_string_value(json_object_get(j, "chosen_by")),
			    "backend");
	cap = json_object_get(json_object_get(j, "capabilities"), "keyboard");
	assert_string_equal(json_string_value(json_object_get(cap, "reason")),
			    "the recorded backend has no window system");
	json_decref(j);
	cua_free(out);
	assert_int_equal(cua_session_set_option(s, "display", "none"),
			 CUA_ERROR_UNSUPPORTED);
	assert_string_equal(cua_error_message(),
			    "option display: the recorded backend has no "
			    "window system to choose a display driver for");
	assert_int_equal(cua_session_get_display_info(s, NULL),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_int_equal(cua_session_get_display_info(NULL, &out),
			 CUA_ERROR_INVALID_ARGUMENT);
	assert_null(out);
	cua_session_unref(s);
}

/* An unknown CUA_DISPLAY fails the session with the sentence, before
 * anything is connected. */
static void
test_api_unknown_env(void **state)
{
	cua_session *s = NULL;
	char *old =
		getenv("CUA_DISPLAY") ? strdup(getenv("CUA_DISPLAY")) : NULL;

	(void)state;
	setenv("CUA_DISPLAY", "sway", 1);
#if HAVE_ATSPI_BACKEND
	assert_int_equal(cua_session_new(&s, 0), CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(
		cua_error_message(),
		"CUA_DISPLAY=sway: no display driver has this name; "
		"use auto, x11, wlroots, mutter, portal or none");
#else
	assert_int_equal(cua_session_new(&s, 0), CUA_ERROR_UNSUPPORTED);
#endif
	assert_null(s);
	if (old)
		setenv("CUA_DISPLAY", old, 1);
	else
		unsetenv("CUA_DISPLAY");
	free(old);
}

/* ------------------------------------------------------------------ */
/* Coordinates                                                          */

static void
test_atspi_to_global(void **state)
{
	struct cua_win w;
	int32_t x, y;

	(void)state;
	memset(&w, 0, sizeof(w));
	/* X11: AT-SPI extents are root coordinates already */
	w.origin = (struct cua_rect){ 100, 50, 800, 600 };
	w.atspi_space = CUA_ATSPI_GLOBAL;
	cua_win_atspi_to_global(&w, 130.6, 70.2, &x, &y);
	assert_int_equal(x, 130);
	assert_int_equal(y, 70);
	/* Wayland: relative to the surface, CSD shadow included; the
	 * content inset is frame - origin */
	w.atspi_space = CUA_ATSPI_SURFACE;
	w.origin = (struct cua_rect){ 200, 100, 1467, 784 };
	w.frame = (struct cua_rect){ 226, 123, 1415, 738 };
	cua_win_atspi_to_global(&w, 26, 23, &x, &y);
	assert_int_equal(x, w.frame.x);
	assert_int_equal(y, w.frame.y);
	/* scale 2: logical surface pixels to device pixels */
	w.scale = 2;
	cua_win_atspi_to_global(&w, 10.5, -3, &x, &y);
	assert_int_equal(x, 221);
	assert_int_equal(y, 94);
	/* nonsense stays inside int32_t */
	cua_win_atspi_to_global(&w, 1e12, -1e12, &x, &y);
	assert_int_equal(x, INT32_MAX);
	assert_int_equal(y, INT32_MIN);
}

/* Screenshot refusals name the X server on X11 only; on a Wayland
 * desktop they name the compositor. */
static struct cua_display *shot_display;

static struct cua_display *
display_of(struct cua_backend *b)
{
	(void)b;
	return shot_display;
}

static void
test_shot_reasons(void **state)
{
	static const struct cua_display_ops x11_ops = { .name = "x11" };
	static const struct cua_display_ops wl_ops = { .name = "wlroots" };
	static const struct cua_backend_ops b_ops = { .name = "fake",
						      .display = display_of };
	static const int statuses[] = { CUA_CAPTURE_COVERED,
					CUA_CAPTURE_UNIDENTIFIED,
					CUA_CAPTURE_REFUSED,
					CUA_CAPTURE_NO_DISPLAY };
	struct cua_display x11 = { .ops = &x11_ops }, wl = { .ops = &wl_ops };
	struct cua_backend b = { .ops = &b_ops };

	(void)state;
	shot_display = &x11;
	assert_string_equal(
		cua_shot_reason(&b, CUA_CAPTURE_UNIDENTIFIED),
		"the window could not be identified on the X server");
	assert_string_equal(cua_shot_reason(&b, CUA_CAPTURE_REFUSED),
			    "the X server refused the capture");
	shot_display = &wl;
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
		const char *why = cua_shot_reason(&b, statuses[i]);

		assert_null(strstr(why, "X server"));
		assert_null(strstr(why, "X11"));
	}
	assert_string_equal(cua_shot_reason(&b, CUA_CAPTURE_UNIDENTIFIED),
			    "the window could not be found among the "
			    "compositor's windows");
	assert_string_equal(cua_shot_reason(&b, CUA_CAPTURE_REFUSED),
			    "the compositor refused the capture");
	/* statuses of both kinds keep their words */
	assert_string_equal(cua_shot_reason(&b, CUA_CAPTURE_MINIMIZED),
			    "the window is minimized");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_window_system),
		cmocka_unit_test(test_x11_session),
		cmocka_unit_test(test_wayland_session),
		cmocka_unit_test(test_wayland_real_probe),
		cmocka_unit_test(test_forced),
		cmocka_unit_test(test_forced_errors),
		cmocka_unit_test(test_none_driver),
		cmocka_unit_test(test_info_sanitised),
		cmocka_unit_test(test_api_recorded),
		cmocka_unit_test(test_api_unknown_env),
		cmocka_unit_test(test_atspi_to_global),
		cmocka_unit_test(test_shot_reasons),
	};

	return cmocka_run_group_tests_name("display", tests, NULL, NULL);
}
