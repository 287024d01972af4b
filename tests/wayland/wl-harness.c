/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/keys.h"
#include "display/wlroots/sway-ipc.h"
#include "display/wlroots/wlr.h"

#include "wl-harness.h"

/* ---- AT-SPI probe ------------------------------------------------------ */

int
probe_start(struct probe *p)
{
	const char *argv[] = { "/usr/bin/python3", ATSPI_PROBE, NULL };

	return app_start(&p->p, argv, 1);
}

void
probe_stop(struct probe *p)
{
	if (p->p.pid > 0)
		app_send(&p->p, "quit");
	app_stop(&p->p);
}

static void
copy_str(char *dst, size_t size, json_t *v)
{
	snprintf(dst, size, "%s",
		 json_string_value(v) ? json_string_value(v) : "");
}

static void
parse_node(json_t *o, struct wl_node *n)
{
	json_t *ext = json_object_get(o, "extents"), *st, *v;
	size_t i;

	copy_str(n->name, sizeof(n->name), json_object_get(o, "name"));
	copy_str(n->role, sizeof(n->role), json_object_get(o, "role"));
	snprintf(n->states, sizeof(n->states), " ");
	json_array_foreach(json_object_get(o, "states"), i, st)
	{
		strncat(n->states, json_string_value(st),
			sizeof(n->states) - strlen(n->states) - 2);
		strcat(n->states, " ");
	}
	if (json_array_size(ext) == 4) {
		n->ext.x = (int32_t)json_integer_value(json_array_get(ext, 0));
		n->ext.y = (int32_t)json_integer_value(json_array_get(ext, 1));
		n->ext.w = (int32_t)json_integer_value(json_array_get(ext, 2));
		n->ext.h = (int32_t)json_integer_value(json_array_get(ext, 3));
	}
	v = json_object_get(o, "text");
	n->has_text = json_is_string(v);
	copy_str(n->text, sizeof(n->text), v);
	v = json_object_get(o, "value");
	n->has_value = json_is_number(v);
	n->value = json_number_value(v);
}

/* One request (fields separated by TABs), its reply object. */
static json_t *
probe_call(struct probe *p, const char *request, struct wl_node *n)
{
	char line[8192];
	json_t *o;

	memset(n, 0, sizeof(*n));
	if (app_send(&p->p, request) < 0 ||
	    app_wait_line(&p->p, "{", 10000, line, sizeof(line)) < 0) {
		snprintf(n->error, sizeof(n->error),
			 "the AT-SPI probe did "
			 "not answer '%s'",
			 request);
		return NULL;
	}
	o = json_loads(line, 0, NULL);
	if (!o) {
		snprintf(n->error, sizeof(n->error), "bad probe reply: %.200s",
			 line);
		return NULL;
	}
	if (!json_is_true(json_object_get(o, "ok"))) {
		copy_str(n->error, sizeof(n->error),
			 json_object_get(o, "error"));
		json_decref(o);
		return NULL;
	}
	return o;
}

/* One request whose reply is a node, parsed into n: 0, or -1 with
 * n->error. */
static int
probe_node(struct probe *p, const char *request, struct wl_node *n)
{
	json_t *o = probe_call(p, request, n);

	if (!o)
		return -1;
	parse_node(o, n);
	json_decref(o);
	return 0;
}

int
probe_find(struct probe *p, const char *app, const char *role, const char *name,
	   struct wl_node *n)
{
	return probe_find_state(p, app, role, name, NULL, n);
}

int
probe_find_state(struct probe *p, const char *app, const char *role,
		 const char *name, const char *state, struct wl_node *n)
{
	char req[1024];

	snprintf(req, sizeof(req), "find\t%s\t%s\t%s%s%s", app, role, name,
		 state ? "\t" : "", state ? state : "");
	return probe_node(p, req, n);
}

int
probe_focused(struct probe *p, const char *app, struct wl_node *n)
{
	char req[512];

	snprintf(req, sizeof(req), "focused\t%s", app);
	return probe_node(p, req, n);
}

int
probe_app(struct probe *p, const char *app, struct wl_node *frame)
{
	char req[512];
	json_t *o, *wins;
	int pid;

	snprintf(req, sizeof(req), "app\t%s", app);
	o = probe_call(p, req, frame);
	if (!o)
		return -1;
	pid = (int)json_integer_value(json_object_get(o, "pid"));
	wins = json_object_get(o, "windows");
	if (json_array_size(wins) == 0) {
		snprintf(frame->error, sizeof(frame->error), "%s has no window",
			 app);
		json_decref(o);
		return -1;
	}
	parse_node(json_array_get(wins, 0), frame);
	frame->pid = pid;
	json_decref(o);
	return 0;
}

int
node_has_state(const struct wl_node *n, const char *state)
{
	char want[80];

	snprintf(want, sizeof(want), " %s ", state);
	return strstr(n->states, want) != NULL;
}

int
probe_wait_text(struct probe *p, const char *app, const char *role,
		const char *name, const char *want, int timeout_ms,
		struct wl_node *n)
{
	int64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		if (probe_find(p, app, role, name, n) == 0 &&
		    strcmp(n->text, want) == 0)
			return 0;
		if (now_ms() > deadline)
			return -1;
		usleep(50 * 1000);
	}
}

/* ---- operations over the wlroots building blocks ------------------------ */

struct wlr_ops {
	struct cua_wlr *w;
};

static int
wlr_fail(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, cua_error_get());
	return -1;
}

static int
wlr_type_text(void *data, const char *text)
{
	struct wlr_ops *o = data;
	struct cua_key_chord *c;
	size_t n;
	cua_result r;

	c = cua_keys_from_text(text, &n);
	if (!c)
		return -1;
	r = cua_wlr_keys(o->w, c, n);
	free(c);
	return r == CUA_OK ? 0 : wlr_fail("type_text");
}

static int
wlr_press_key(void *data, const char *keys)
{
	struct wlr_ops *o = data;
	struct cua_key_seq seq;
	cua_result r;

	if (cua_keys_parse(keys, 0, &seq) != CUA_OK)
		return wlr_fail("press_key (parse)");
	r = cua_wlr_keys(o->w, seq.chords, seq.n);
	cua_keys_free(&seq);
	return r == CUA_OK ? 0 : wlr_fail("press_key");
}

static int
wlr_click(void *data, double x, double y)
{
	struct wlr_ops *o = data;

	return cua_wlr_pointer_click(o->w, x, y, CUA_WLR_BTN_LEFT, 1) ==
			       CUA_OK ?
		       0 :
		       wlr_fail("click");
}

static int
wlr_scroll(void *data, double x, double y, int dx, int dy)
{
	struct wlr_ops *o = data;

	if (cua_wlr_pointer_move(o->w, x, y) != CUA_OK)
		return wlr_fail("scroll (move)");
	return cua_wlr_pointer_scroll(o->w, dx, dy) == CUA_OK ?
		       0 :
		       wlr_fail("scroll");
}

static int
wlr_capture(void *data, const struct cua_rect *r, struct cua_rgb *out)
{
	struct wlr_ops *o = data;
	struct cua_wlr_shot shot;
	int ret = 0;

	if (cua_wlr_capture(o->w, r, 0, &shot) != CUA_OK)
		return wlr_fail("capture");
	if (cua_image_scale(out, &shot.px, (uint32_t)shot.rect.w,
			    (uint32_t)shot.rect.h) < 0)
		ret = -1;
	free(shot.px.data);
	return ret;
}

static int
wlr_window(void *data, const char *app_id, struct wl_window *out)
{
	struct wlr_ops *o = data;
	struct cua_sway_window *list;
	const char *sock = cua_wlr_sway_socket(o->w);
	size_t n;
	int found = -1;

	if (!sock) {
		fprintf(stderr, "no window geometry: %s\n",
			cua_wlr_feature_reason(o->w, CUA_WLR_GEOMETRY));
		return -1;
	}
	if (cua_sway_windows(sock, 1000, &list, &n) != CUA_OK)
		return wlr_fail("sway windows");
	for (size_t i = 0; i < n; i++) {
		if (strcmp(list[i].app_id, app_id) != 0)
			continue;
		memset(out, 0, sizeof(*out));
		out->pid = list[i].pid;
		snprintf(out->app_id, sizeof(out->app_id), "%s",
			 list[i].app_id);
		snprintf(out->title, sizeof(out->title), "%s", list[i].name);
		out->content = list[i].content;
		out->focused = list[i].focused;
		found = 0;
		break;
	}
	cua_sway_windows_free(list, n);
	return found;
}

static void
wlr_close(void *data)
{
	struct wlr_ops *o = data;

	cua_wlr_close(o->w);
	free(o);
}

int
wl_ops_wlr(struct wl_ops *ops)
{
	struct wlr_ops *o = calloc(1, sizeof(*o));

	if (!o)
		return -1;
	if (cua_wlr_open(&o->w, NULL) != CUA_OK) {
		free(o);
		return wlr_fail("cua_wlr_open");
	}
	memset(ops, 0, sizeof(*ops));
	ops->name = "wlroots";
	ops->data = o;
	ops->type_text = wlr_type_text;
	ops->press_key = wlr_press_key;
	ops->click = wlr_click;
	ops->scroll = wlr_scroll;
	ops->capture = wlr_capture;
	ops->window = wlr_window;
	ops->close = wlr_close;
	return 0;
}

void
wl_debug_shot(const struct wl_ops *ops, const char *name)
{
	const char *dir = getenv("CUA_TEST_SHOT_DIR");
	struct cua_rect r = { 0, 0, 1 << 20, 1 << 20 };
	struct cua_rgb img;
	char path[4096];
	void *png;
	size_t size;
	FILE *f;

	if (!dir || ops->capture(ops->data, &r, &img) < 0)
		return;
	if (cua_image_encode_png(&png, &size, &img) == 0) {
		snprintf(path, sizeof(path), "%s/%s.png", dir, name);
		f = fopen(path, "wb");
		if (f) {
			fwrite(png, 1, size, f);
			fclose(f);
			fprintf(stderr, "screenshot: %s\n", path);
		}
		free(png);
	}
	cua_rgb_free(&img);
}

/* ---- the fixture ------------------------------------------------------- */

int
fixture_start(struct app_proc *app, struct probe *pr, const struct wl_ops *ops,
	      struct wl_window *win)
{
	const char *argv[] = { FIXTURE_GTK3, NULL };
	struct wl_node frame;
	struct cua_rect last;
	int64_t deadline;

	if (app_start(app, argv, 1) < 0 ||
	    app_wait_line(app, "ready", 20000, NULL, 0) < 0) {
		fprintf(stderr, "fixture-gtk3 did not start\n");
		return -1;
	}
	/* on screen at its final place and size (sway tiles it after its
	 * first commit and adds the title bar), registered with AT-SPI at
	 * that size, and the same twice in a row */
	deadline = now_ms() + 20000;
	memset(&last, 0, sizeof(last));
	for (;;) {
		if (ops->window(ops->data, FIXTURE_APP, win) == 0 &&
		    probe_app(pr, FIXTURE_APP, &frame) == 0 &&
		    frame.ext.w == win->content.w &&
		    frame.ext.h == win->content.h) {
			if (memcmp(&last, &win->content, sizeof(last)) == 0)
				return 0;
			last = win->content;
		}
		if (now_ms() > deadline) {
			fprintf(stderr,
				"fixture-gtk3 never showed its window "
				"(%s)\n",
				frame.error);
			return -1;
		}
		usleep(200 * 1000);
	}
}

void
node_centre(const struct wl_window *win, const struct wl_node *n, double *x,
	    double *y)
{
	*x = win->content.x + n->ext.x + n->ext.w / 2.0;
	*y = win->content.y + n->ext.y + n->ext.h / 2.0;
}

int
wl_env_start(struct wl_env *e)
{
	if (wl_ops_wlr(&e->ops) < 0 || probe_start(&e->probe) < 0 ||
	    fixture_start(&e->app, &e->probe, &e->ops, &e->win) < 0)
		return -1;
	return 0;
}

void
wl_env_stop(struct wl_env *e)
{
	app_stop(&e->app);
	probe_stop(&e->probe);
	if (e->ops.close)
		e->ops.close(e->ops.data);
}

struct wl_env wl_test_env;

int
wl_test_env_start(void **state)
{
	(void)state;
	return wl_env_start(&wl_test_env);
}

int
wl_test_env_stop(void **state)
{
	(void)state;
	wl_env_stop(&wl_test_env);
	return 0;
}
