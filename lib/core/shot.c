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

/* The geometry of a capture's image in the tree (docs/screenshots.md §3,
 * §4): its size before the scaler has had its say. */
static void
shot_geometry(const struct cua_tree *t, const struct cua_capture *c,
	      const struct cua_options *opt, struct cua_shot_geom *out)
{
	struct cua_shot_geom g;

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
	*out = g;
}

/* Stores an encoded image in the tree's arena. */
static int
shot_store(struct cua_tree *t, const void *jpeg, size_t size,
	   const struct cua_shot_geom *g)
{
	void *copy = cua_arena_alloc(t->arena, size);

	if (!copy)
		return -1;
	memcpy(copy, jpeg, size);
	t->shot_data = copy;
	t->shot_size = size;
	t->shot_mime = "image/jpeg";
	t->shot = *g;
	t->has_shot = 1;
	t->shot_error = NULL;
	return 0;
}

/* Resamples and encodes a capture into the tree (docs/screenshots.md
 * §4, §5); the encoded bytes also go to *kept (malloc'd) when kept is not
 * NULL. */
static int
shot_encode(struct cua_tree *t, const struct cua_capture *c,
	    const struct cua_options *opt, void **kept, size_t *kept_size)
{
	struct cua_shot_geom g;
	struct cua_rgb rgb;
	void *jpeg = NULL;
	size_t size = 0;

	shot_geometry(t, c, opt, &g);
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
	if (shot_store(t, jpeg, size, &g) < 0) {
		free(jpeg);
		return -1;
	}
	if (kept) {
		*kept = jpeg;
		*kept_size = size;
	} else {
		free(jpeg);
	}
	return 0;
}

int
cua_shot_encode(struct cua_tree *t, const struct cua_capture *c,
		const struct cua_options *opt)
{
	return shot_encode(t, c, opt, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Reuse (docs/screenshots.md §2.1)                                     */

/* The last encoded image of a few windows, most recently used last. */
#define SHOT_KEEP 4

struct shot_kept {
	uint64_t window; /* 0: free */
	uint64_t stamp;  /* the driver's stamp of the capture */
	struct cua_rect frame, whole;
	/* what the image was made with: the geometry before the scaler
	 * (size, device pixels per point) and the options */
	struct cua_shot_geom want;
	uint32_t width, height; /* what the scaler made */
	int max_long, max_short, quality;
	void *jpeg;
	size_t size;
	uint64_t used; /* LRU: larger is newer */
};

struct cua_shot_cache {
	struct shot_kept k[SHOT_KEEP];
	uint64_t clock;
};

static void
kept_drop(struct shot_kept *k)
{
	free(k->jpeg);
	memset(k, 0, sizeof(*k));
}

void
cua_shot_cache_free(struct cua_session *s)
{
	if (!s->shots)
		return;
	for (size_t i = 0; i < SHOT_KEEP; i++)
		kept_drop(&s->shots->k[i]);
	free(s->shots);
	s->shots = NULL;
}

static struct shot_kept *
kept_find(struct cua_session *s, uint64_t window)
{
	if (!s->shots || !window)
		return NULL;
	for (size_t i = 0; i < SHOT_KEEP; i++)
		if (s->shots->k[i].window == window)
			return &s->shots->k[i];
	return NULL;
}

static int
same_rect(const struct cua_rect *a, const struct cua_rect *b)
{
	return a->x == b->x && a->y == b->y && a->w == b->w && a->h == b->h;
}

/* 1 when the kept image is the one a capture now would give: the driver
 * said nothing changed, at the same geometry, and the image would be
 * made the same way. */
static int
kept_fits(const struct shot_kept *k, const struct cua_capture *c,
	  const struct cua_shot_geom *g, const struct cua_options *opt)
{
	return c->unchanged && c->stamp == k->stamp && c->popups == 0 &&
	       same_rect(&c->frame, &k->frame) &&
	       same_rect(&c->window, &k->whole) && g->width == k->want.width &&
	       g->height == k->want.height &&
	       g->device_ppp == k->want.device_ppp && g->ppp == k->want.ppp &&
	       opt->shot_max_long_edge == k->max_long &&
	       opt->shot_max_short_edge == k->max_short &&
	       opt->jpeg_quality == k->quality;
}

/* Keeps the image of a capture the driver can vouch for (jpeg: taken),
 * in the place of the window's earlier one or the least recently used. */
static void
kept_store(struct cua_session *s, const struct cua_tree *t,
	   const struct cua_capture *c, const struct cua_shot_geom *want,
	   void *jpeg, size_t size)
{
	struct shot_kept *k = kept_find(s, t->x11_window);

	if (!s->shots && !(s->shots = calloc(1, sizeof(*s->shots)))) {
		free(jpeg);
		return;
	}
	if (!k) {
		k = &s->shots->k[0];
		for (size_t i = 1; i < SHOT_KEEP; i++)
			if (s->shots->k[i].used < k->used)
				k = &s->shots->k[i];
	}
	kept_drop(k);
	k->window = t->x11_window;
	k->stamp = c->stamp;
	k->frame = c->frame;
	k->whole = c->window;
	k->want = *want;
	k->width = t->shot.width;
	k->height = t->shot.height;
	k->max_long = s->ctx.opt.shot_max_long_edge;
	k->max_short = s->ctx.opt.shot_max_short_edge;
	k->quality = s->ctx.opt.jpeg_quality;
	k->jpeg = jpeg;
	k->size = size;
	k->used = ++s->shots->clock;
}

/* The kept image of the window as the tree's, when the driver answered
 * that nothing changed since it was captured: 1 reused, 0 not. */
static int
shot_reuse(struct cua_session *s, struct cua_tree *t, struct shot_kept *k,
	   const struct cua_capture *c)
{
	struct cua_shot_geom g;

	shot_geometry(t, c, &s->ctx.opt, &g);
	if (!kept_fits(k, c, &g, &s->ctx.opt))
		return 0;
	g.width = k->width;
	g.height = k->height;
	if (shot_store(t, k->jpeg, k->size, &g) < 0)
		return 0;
	k->used = ++s->shots->clock;
	t->shot_stats.reused = 1;
	return 1;
}

/* Where the capture `c` lies, without its pixels (geometry_only): the
 * geometry shot_encode() would give the image (the scaler never
 * upscales), no image. */
static void
shot_geometry_only(struct cua_session *s, struct cua_tree *t,
		   const struct cua_capture *c)
{
	struct cua_shot_geom g;
	uint32_t pw = c->px.data ? c->px.width :
				   (uint32_t)(c->frame.w > 0 ? c->frame.w : 0);
	uint32_t ph = c->px.data ? c->px.height :
				   (uint32_t)(c->frame.h > 0 ? c->frame.h : 0);

	shot_geometry(t, c, &s->ctx.opt, &g);
	if (g.width > pw)
		g.width = pw;
	if (g.height > ph)
		g.height = ph;
	t->shot = g;
	t->has_shot = g.width > 0 && g.height > 0;
	t->shot_error = NULL;
	cua_debug(&s->ctx,
		  "capture: geometry of %dx%d px -> %ux%u (ppp %.4f, device "
		  "%.2f), %lld us",
		  c->frame.w, c->frame.h, g.width, g.height, g.ppp,
		  g.device_ppp, (long long)t->shot_stats.capture_us);
}

void
cua_shot_take(struct cua_session *s, struct cua_tree *t, int geometry_only)
{
	struct cua_backend *b = s->backend;
	struct cua_capture_request req;
	struct cua_capture *c = NULL;
	enum cua_capture_status st = CUA_CAPTURE_NO_DISPLAY;
	struct shot_kept *k;
	struct cua_shot_geom want;
	void *jpeg = NULL;
	size_t size = 0;
	int64_t t0;
	cua_result r;

	t->shot_data = NULL;
	t->has_shot = 0;
	t->shot_stats.reused = 0;
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
	k = s->ctx.opt.shot_reuse ? kept_find(s, t->x11_window) : NULL;
	memset(&req, 0, sizeof(req));
	req.window = t->x11_window;
	req.timeout_ms = s->ctx.opt.capture_timeout_ms;
	req.fallback_timeout_ms = s->ctx.opt.capture_fallback_timeout_ms;
	req.popups = 1;
	req.unchanged_since = k && !geometry_only ? k->stamp : 0;
	req.geometry_only = geometry_only;
	cua_debug(&s->ctx, "capture: window 0x%llx",
		  (unsigned long long)req.window);
	t0 = cua_now_us();
	r = b->ops->capture(b, &req, &c, &st);
	if (r == CUA_OK && c && c->unchanged) {
		if (k && shot_reuse(s, t, k, c)) {
			t->shot_stats.capture_us = cua_now_us() - t0;
			t->shot_stats.encode_us = 0;
			cua_debug(&s->ctx,
				  "capture: window 0x%llx unchanged since its "
				  "capture: image reused (%ux%u, %zu bytes, "
				  "check %lld us)",
				  (unsigned long long)req.window, t->shot.width,
				  t->shot.height, t->shot_size,
				  (long long)t->shot_stats.capture_us);
			cua_capture_free(c);
			return;
		}
		/* unchanged, but the image would be made otherwise now (the
		 * options, the window's size in points): capture */
		cua_capture_free(c);
		c = NULL;
		req.unchanged_since = 0;
		r = b->ops->capture(b, &req, &c, &st);
	}
	if (k && !geometry_only)
		kept_drop(k);
	t->shot_stats.capture_us = cua_now_us() - t0;
	if (r != CUA_OK || !c || c->unchanged) {
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
	if (geometry_only) {
		shot_geometry_only(s, t, c);
		cua_capture_free(c);
		return;
	}
	t0 = cua_now_us();
	shot_geometry(t, c, &s->ctx.opt, &want);
	if (shot_encode(t, c, &s->ctx.opt,
			s->ctx.opt.shot_reuse && c->stamp &&
					c->route == CUA_CAPTURE_COMPOSITE &&
					!c->popups ?
				&jpeg :
				NULL,
			&size) < 0)
		t->shot_error = cua_shot_reason(b, CUA_CAPTURE_REFUSED);
	else if (jpeg)
		kept_store(s, t, c, &want, jpeg, size);
	t->shot_stats.encode_us = cua_now_us() - t0;
	cua_debug(
		&s->ctx,
		"capture: %dx%d px, %d popups -> %ux%u (ppp %.4f, device %.2f, "
		"element origin %+.1f%+.1f), %zu bytes, capture %lld us, encode "
		"%lld us%s",
		c->frame.w, c->frame.h, c->popups, t->shot.width,
		t->shot.height, t->shot.ppp, t->shot.device_ppp,
		t->shot.elem_dx, t->shot.elem_dy, t->shot_size,
		(long long)t->shot_stats.capture_us,
		(long long)t->shot_stats.encode_us,
		jpeg ? ", kept for reuse" : "");
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
