/*
 * The screenshot of an observation (docs/screenshots.md §2–§5, §7): capture
 * through the backend, one resampling to the size of §4, JPEG at quality
 * 80, and the reason when there is no image. Also the marks picture (each
 * rendered element's box and id drawn on the screenshot).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "image.h"
#include "session.h"
#include "shot.h"

/* 1 unless the session's display driver is x11 (Wayland drivers, none). */
static int
not_x11(struct cua_backend *b)
{
	struct cua_display *d =
		b && b->ops->display ? b->ops->display(b) : NULL;

	return d && strcmp(d->ops->name, "x11") != 0;
}

const char *
cua_shot_reason(struct cua_backend *b, int status)
{
	/* the X server's reasons, in the words of a Wayland desktop */
	if (not_x11(b)) {
		switch ((enum cua_capture_status)status) {
		case CUA_CAPTURE_COVERED:
			return "the window is fully covered by another window "
			       "and the compositor cannot capture covered "
			       "windows";
		case CUA_CAPTURE_UNIDENTIFIED:
			return cua_shot_reason(b, CUA_CAPTURE_NOT_LISTED);
		case CUA_CAPTURE_NO_DISPLAY:
			return "the display driver cannot capture windows";
		case CUA_CAPTURE_REFUSED:
			return "the compositor refused the capture";
		default:
			break;
		}
	}
	switch ((enum cua_capture_status)status) {
	case CUA_CAPTURE_MINIMIZED:
		return "the window is minimized";
	case CUA_CAPTURE_HIDDEN:
		return "the window is hidden";
	case CUA_CAPTURE_OFFSCREEN:
		return "the window is off-screen";
	case CUA_CAPTURE_COVERED:
		return "the window is fully covered by another window and this "
		       "X server cannot capture covered windows";
	case CUA_CAPTURE_UNIDENTIFIED:
		return "the window could not be identified on the X server";
	case CUA_CAPTURE_TIMEOUT:
		return "the capture timed out";
	case CUA_CAPTURE_NO_DISPLAY:
		return "no X11 display is available";
	case CUA_CAPTURE_NO_ORIGIN:
		return "the compositor does not say where the window's content "
		       "lies inside its surface (the app draws a shadow of its "
		       "own around it), so its pixels cannot be matched to its "
		       "elements";
	case CUA_CAPTURE_NOT_LISTED:
		return "the window could not be found among the compositor's "
		       "windows";
	case CUA_CAPTURE_COMPOSITOR_FAILED:
		return "the compositor did not deliver the window's pixels";
	case CUA_CAPTURE_OK:
	case CUA_CAPTURE_REFUSED:
		break;
	}
	return "the X server refused the capture";
}

/* Resamples and encodes a capture into the tree
 * (docs/screenshots.md §4, §5). */
int
cua_shot_encode(struct cua_tree *t, const struct cua_capture *c,
		const struct cua_options *opt)
{
	struct cua_shot_geom g;
	struct cua_rgb rgb;
	void *jpeg = NULL;
	size_t size = 0;
	void *copy;

	memset(&g, 0, sizeof(g));
	g.x11_window = t->x11_window;
	g.frame = c->frame;
	g.device_ppp = cua_geom_device_ppp(
		c->frame.w, c->window.w,
		t->has_atspi_window ? t->atspi_window.w : 0);
	cua_geom_scale(c->frame.w / g.device_ppp, c->frame.h / g.device_ppp,
		       (uint32_t)opt->shot_max_long_edge,
		       (uint32_t)opt->shot_max_short_edge, &g.ppp, &g.width,
		       &g.height);
	if (t->has_atspi_window && !t->frames_normalised) {
		struct cua_geom_window gw;

		gw.frame = c->frame;
		gw.surface = c->window;
		gw.outer = t->window_outer;
		cua_geom_element_origin(&t->atspi_window, &gw, g.device_ppp,
					&g.elem_dx, &g.elem_dy);
	}
	if (cua_image_scale(&rgb, &c->px, g.width, g.height) < 0)
		return -1;
	/* the scaler never upscales; keep what it produced */
	g.width = rgb.width;
	g.height = rgb.height;
	if (cua_image_encode_jpeg(&jpeg, &size, &rgb, opt->jpeg_quality) < 0) {
		cua_rgb_free(&rgb);
		return -1;
	}
	cua_rgb_free(&rgb);
	copy = cua_arena_alloc(t->arena, size);
	if (!copy) {
		free(jpeg);
		return -1;
	}
	memcpy(copy, jpeg, size);
	free(jpeg);
	t->shot_data = copy;
	t->shot_size = size;
	t->shot_mime = "image/jpeg";
	t->shot = g;
	t->has_shot = 1;
	t->shot_error = NULL;
	return 0;
}

void
cua_shot_take(struct cua_session *s, struct cua_tree *t)
{
	struct cua_backend *b = s->backend;
	struct cua_capture_request req;
	struct cua_capture *c = NULL;
	enum cua_capture_status st = CUA_CAPTURE_NO_DISPLAY;
	int64_t t0;
	cua_result r;

	t->shot_data = NULL;
	t->has_shot = 0;
	/* a desktop without window capture says so */
	t->shot_error = cua_caps_shot_error(b, t->arena);
	if (t->shot_error)
		return;
	if (!b->ops->capture) {
		t->shot_error = cua_shot_reason(b, CUA_CAPTURE_NO_DISPLAY);
		return;
	}
	if (!t->x11_window) {
		t->shot_error = cua_shot_reason(b, CUA_CAPTURE_UNIDENTIFIED);
		return;
	}
	memset(&req, 0, sizeof(req));
	req.window = t->x11_window;
	req.timeout_ms = s->ctx.opt.capture_timeout_ms;
	req.fallback_timeout_ms = s->ctx.opt.capture_fallback_timeout_ms;
	req.popups = 1;
	cua_debug(&s->ctx, "capture: window 0x%llx",
		  (unsigned long long)req.window);
	t0 = cua_now_us();
	r = b->ops->capture(b, &req, &c, &st);
	t->shot_stats.capture_us = cua_now_us() - t0;
	if (r != CUA_OK || !c) {
		t->shot_error = cua_shot_reason(
			b, st == CUA_CAPTURE_OK ? CUA_CAPTURE_REFUSED : st);
		cua_debug(&s->ctx, "capture: no image: %s", t->shot_error);
		cua_capture_free(c);
		cua_error_clear();
		return;
	}
	if (c->route == CUA_CAPTURE_SUBPROCESS && t->has_window_frame) {
		/* xwd does not say where the window is */
		c->frame.x = t->window_frame.x;
		c->frame.y = t->window_frame.y;
		c->window.x = c->frame.x;
		c->window.y = c->frame.y;
	}
	t0 = cua_now_us();
	if (cua_shot_encode(t, c, &s->ctx.opt) < 0)
		t->shot_error = cua_shot_reason(b, CUA_CAPTURE_REFUSED);
	t->shot_stats.encode_us = cua_now_us() - t0;
	cua_debug(
		&s->ctx,
		"capture: %dx%d px, %d popups -> %ux%u (ppp %.4f, device %.2f, "
		"element origin %+.1f%+.1f), %zu bytes, capture %lld us, encode "
		"%lld us",
		c->frame.w, c->frame.h, c->popups, t->shot.width,
		t->shot.height, t->shot.ppp, t->shot.device_ppp,
		t->shot.elem_dx, t->shot.elem_dy, t->shot_size,
		(long long)t->shot_stats.capture_us,
		(long long)t->shot_stats.encode_us);
	cua_capture_free(c);
}

/* ------------------------------------------------------------------ */
/* Marks                                                                */

static const uint32_t palette[] = {
	0xe6194b, 0x3cb44b, 0x4363d8, 0xf58231, 0x911eb4,
	0x008080, 0xf032e6, 0x9a6324, 0x800000, 0x000075,
};

static void
draw_marks(struct cua_rgb *img, const struct cua_tree *t)
{
	const struct cua_shot_geom *g = &t->shot;
	double area = (double)img->width * img->height;

	for (size_t i = 0; i < t->n_lines && i < t->n_elements; i++) {
		const struct cua_element *e = &t->elements[i];
		double x, y, w, h;
		int bx, by, bw, bh, tw, th, thick;
		uint32_t col;
		char label[16];

		if (!e->has_frame || e->id == CUA_NO_ID ||
		    (e->flags & CUA_ELEM_FOCUS_ONLY))
			continue;
		cua_geom_element_to_pixels(g, &e->frame, &x, &y, &w, &h);
		bx = (int)(x + 0.5);
		by = (int)(y + 0.5);
		bw = (int)(x + w + 0.5) - bx;
		bh = (int)(y + h + 0.5) - by;
		if (bw <= 1 || bh <= 1 || bx >= (int)img->width ||
		    by >= (int)img->height || bx + bw <= 0 || by + bh <= 0)
			continue;
		/* the window itself */
		if ((double)bw * bh >= 0.9 * area)
			continue;
		col = palette[e->id % (sizeof(palette) / sizeof(palette[0]))];
		thick = bw >= 12 && bh >= 12 ? 2 : 1;
		cua_image_box(img, bx, by, bw, bh, thick, col);
		snprintf(label, sizeof(label), "%u", e->id);
		cua_image_text_size(label, 1, &tw, &th);
		{
			int lx = bx < 0 ? 0 : bx, ly = by < 0 ? 0 : by;

			if (lx + tw + 3 > (int)img->width)
				lx = (int)img->width - tw - 3;
			if (ly + th + 3 > (int)img->height)
				ly = (int)img->height - th - 3;
			cua_image_fill(img, lx, ly, tw + 3, th + 3, col);
			cua_image_text(img, lx + 2, ly + 2, label, 1, 0xffffff);
		}
	}
}

cua_result
cua_shot_render(const struct cua_tree *t, int marks, int png, void **out,
		size_t *size)
{
	struct cua_rgb img;
	int r;

	*out = NULL;
	*size = 0;
	if (!t->shot_data)
		return cua_error(
			CUA_ERROR_NOT_FOUND, "Screenshot unavailable: %s.",
			t->shot_error ? t->shot_error :
					"this observation has no screenshot");
	if (!marks && !png) {
		*out = malloc(t->shot_size);
		if (!*out)
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		memcpy(*out, t->shot_data, t->shot_size);
		*size = t->shot_size;
		return CUA_OK;
	}
	if (cua_image_decode_jpeg(&img, t->shot_data, t->shot_size) < 0)
		return cua_error(CUA_ERROR, "cannot decode the screenshot");
	if (marks)
		draw_marks(&img, t);
	r = png ? cua_image_encode_png(out, size, &img) :
		  cua_image_encode_jpeg(out, size, &img, 80);
	cua_rgb_free(&img);
	if (r < 0)
		return png ? cua_error(CUA_ERROR_UNSUPPORTED,
				       "PNG encoding failed (libcua may be "
				       "built without libpng)") :
			     cua_error(CUA_ERROR_NOMEM, "JPEG encoding failed");
	return CUA_OK;
}
