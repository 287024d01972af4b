/*
 * Screenshot geometry and images (docs/screenshots.md §3–§5): the scaling rule,
 * devicePixelsPerPoint, the element origin of GTK 3 / GTK 4 / decorated
 * windows, pixel -> point -> screen with fractional factors, the
 * area-averaging resampler, JPEG round trips, marks drawing, the XWD
 * decoder and AT-SPI event names.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/geometry.h"
#include "core/image.h"
#if HAVE_ATSPI_BACKEND
#include "backend/atspi/events.h"
#endif
#if HAVE_DISPLAY_X11
#include "display/x11/xwd.h"
#endif

static void
scale(double wp, double hp, double *s, uint32_t *w, uint32_t *h)
{
	cua_geom_scale(wp, hp, 2048, 768, s, w, h);
}

static void
test_scale_rule(void **state)
{
	double s;
	uint32_t w, h;

	/* the contract's example: scaling, not cropping */
	scale(1398, 769, &s, &w, &h);
	assert_int_equal(w, 1397);
	assert_int_equal(h, 768);
	assert_true(fabs(s - 768.0 / 769.0) < 1e-12);

	/* small windows are never upscaled */
	scale(1024, 700, &s, &w, &h);
	assert_true(s == 1.0);
	assert_int_equal(w, 1024);
	assert_int_equal(h, 700);
	scale(300, 200, &s, &w, &h);
	assert_true(s == 1.0);
	assert_int_equal(w, 300);
	assert_int_equal(h, 200);
	scale(1, 1, &s, &w, &h);
	assert_int_equal(w, 1);
	assert_int_equal(h, 1);

	/* both limits */
	scale(2560, 1440, &s, &w, &h);
	assert_true(fabs(s - 768.0 / 1440.0) < 1e-12);
	assert_int_equal(w, 1366);
	assert_int_equal(h, 768);
	scale(1920, 1080, &s, &w, &h);
	assert_int_equal(w, 1366);
	assert_int_equal(h, 768);
	scale(1280, 1024, &s, &w, &h);
	assert_int_equal(w, 960);
	assert_int_equal(h, 768);

	/* portrait: the short edge is the width */
	scale(769, 1398, &s, &w, &h);
	assert_int_equal(w, 768);
	assert_int_equal(h, 1397);
}

static void
test_scale_extreme(void **state)
{
	double s;
	uint32_t w, h;

	/* a very wide strip: the long edge limit wins */
	scale(8000, 100, &s, &w, &h);
	assert_true(fabs(s - 2048.0 / 8000.0) < 1e-12);
	assert_int_equal(w, 2048);
	assert_int_equal(h, 26); /* 25.6 rounded up */
	/* a very tall one */
	scale(30, 10000, &s, &w, &h);
	assert_int_equal(h, 2048);
	assert_int_equal(w, 7); /* 6.144 rounded up */
	/* thinner than a pixel after scaling: still 1 */
	scale(100000, 1, &s, &w, &h);
	assert_int_equal(w, 2048);
	assert_int_equal(h, 1);
	/* exactly at the limits: unchanged */
	scale(2048, 768, &s, &w, &h);
	assert_true(s == 1.0);
	assert_int_equal(w, 2048);
	assert_int_equal(h, 768);
	/* the epsilon keeps exact products from rounding up */
	scale(2049, 769, &s, &w, &h);
	assert_int_equal(h, 768);
	assert_true(w <= 2048);
}

static void
test_device_ppp(void **state)
{
	assert_true(cua_geom_device_ppp(1366, 1366, 1366) == 1.0);
	assert_true(cua_geom_device_ppp(2732, 2732, 1366) == 2.0);
	assert_true(cua_geom_device_ppp(1708, 1708, 1366) == 1.25);
	/* unknown AT-SPI width */
	assert_true(cua_geom_device_ppp(800, 800, 0) == 1.0);
	/* an AT-SPI window that includes CSD shadows: not below 1 */
	assert_true(cua_geom_device_ppp(300, 346, 346) == 1.0);
}

/* The window system's rectangles: the frame c, the whole window s (w 0:
 * unknown), the window manager's frame o (w 0: unknown). */
static struct cua_geom_window
gwin(struct cua_rect c, struct cua_rect s, struct cua_rect o)
{
	struct cua_geom_window w = { c, s, o };

	return w;
}

static void
test_element_origin(void **state)
{
	const struct cua_rect none = { 0, 0, 0, 0 };
	struct cua_geom_window w;
	struct cua_rect a, c;
	double dx, dy;

	/* GTK 3 with client-side decorations: the same rectangle */
	a = (struct cua_rect){ 0, 768, 310, 256 };
	w = gwin(a, none, none);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 0 && dy == 0);
	/* GTK 4: window-relative, a 5 px resize margin on every side
	 * (measured: 1342x832 X window, 1332x822 accessible window) */
	a = (struct cua_rect){ 0, 0, 1332, 822 };
	c = (struct cua_rect){ 0, 0, 1342, 832 };
	w = gwin(c, c, c);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 5 && dy == 5);
	c = (struct cua_rect){ 200, 150, 1342, 832 };
	w = gwin(c, c, c);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 5 && dy == 5);
	/* GTK 4 with _GTK_FRAME_EXTENTS already cut from the frame */
	c = (struct cua_rect){ 200, 150, 1332, 822 };
	w = gwin(c, none, none);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 0 && dy == 0);
	/* GTK 3 with server-side decorations: the accessible window is the
	 * window manager's frame, title bar included */
	a = (struct cua_rect){ 99, 76, 402, 300 };
	c = (struct cua_rect){ 100, 100, 400, 275 };
	w = gwin(c, c, (struct cua_rect){ 99, 76, 402, 300 });
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == -1 && dy == -24);
	w = gwin(c, none, none); /* the same without the manager's frame */
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == -1 && dy == -24);
	/* ... maximised: the manager's frame is at the root's origin, which
	 * is no sign of window-relative coordinates (measured under openbox:
	 * LibreOffice and galculator, _NET_FRAME_EXTENTS 0, 0, 19, 0) */
	a = (struct cua_rect){ 0, 0, 1280, 1024 };
	c = (struct cua_rect){ 0, 19, 1280, 1005 };
	w = gwin(c, c, (struct cua_rect){ 0, 0, 1280, 1024 });
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 0 && dy == -19);
	/* Qt and Firefox maximised: the client window */
	a = c;
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 0 && dy == 0);
	/* Chromium: the whole X window, CSD shadows (4, 4, 0, 4) included */
	a = (struct cua_rect){ 10, 10, 1050, 1004 };
	c = (struct cua_rect){ 14, 10, 1042, 1000 };
	w = gwin(c, a, a);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == -4 && dy == 0);
	/* ... maximised at the origin, no shadows */
	a = (struct cua_rect){ 0, 0, 1280, 1024 };
	w = gwin(a, a, a);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 0 && dy == 0);
	/* GTK 4 maximised: still 5 px less than the window, window-relative */
	a = (struct cua_rect){ 0, 0, 1270, 1014 };
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 5 && dy == 5);
	/* HiDPI: root-pixel differences become points */
	a = (struct cua_rect){ 200, 100, 800, 600 };
	c = (struct cua_rect){ 200, 140, 1600, 1200 };
	w = gwin(c, none, none);
	cua_geom_element_origin(&a, &w, 2.0, &dx, &dy);
	assert_true(dx == 0 && dy == -20);
	/* Wayland, GTK 3 with a header bar floating on sway: extents are
	 * relative to the surface, whose shadow is 26, 23, 26, 29 px
	 * (measured); the driver knows the surface from the children */
	a = (struct cua_rect){ 0, 0, 1467, 784 };
	c = (struct cua_rect){ 0, 0, 1415, 732 };
	w = gwin(c, (struct cua_rect){ -26, -23, 1467, 784 }, none);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == -26 && dy == -23);
	/* ... placed where the surface starts at the root's origin */
	c = (struct cua_rect){ 26, 23, 1415, 732 };
	w = gwin(c, (struct cua_rect){ 0, 0, 1467, 784 }, none);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == -26 && dy == -23);
	/* ... at output scale 2 (global units are device pixels) */
	c = (struct cua_rect){ 200, 100, 2830, 1464 };
	w = gwin(c, (struct cua_rect){ 148, 54, 2934, 1568 }, none);
	cua_geom_element_origin(&a, &w, 2.0, &dx, &dy);
	assert_true(dx == -26 && dy == -23);
	/* ... its surface unknown: window-relative, nothing to centre */
	w = gwin((struct cua_rect){ 0, 0, 1415, 732 }, none, none);
	cua_geom_element_origin(&a, &w, 1.0, &dx, &dy);
	assert_true(dx == 0 && dy == 0);
}

static void
test_children_moved(void **state)
{
	/* LibreOffice's VCL root pane: reported at the client area's top,
	 * its host 25 px lower (window points) */
	const struct cua_rect host = { 0, 25, 1280, 980 };
	struct cua_rect kids[3] = { { 0, 0, 1280, 980 } };

	assert_true(cua_geom_children_moved(&host, kids, 1, 0, 0, 0, 25));
	/* reported where it is: nothing to move */
	kids[0].y = 25;
	assert_false(cua_geom_children_moved(&host, kids, 1, 0, 0, 0, 25));
	/* a native island below a moved VCL panel: back to 0 */
	kids[0] = (struct cua_rect){ 4, 105, 162, 34 };
	assert_true(cua_geom_children_moved(
		&(struct cua_rect){ 4, 105, 162, 34 }, kids, 1, 0, 25, 0, 0));
	/* one child inside already: the others scrolled, not moved */
	kids[0] = (struct cua_rect){ 0, 10, 300, 40 };
	kids[1] = (struct cua_rect){ 0, 50, 300, 40 };
	assert_false(cua_geom_children_moved(
		&(struct cua_rect){ 0, 40, 300, 200 }, kids, 2, 0, 0, 0, 40));
	/* outside either way */
	kids[0] = (struct cua_rect){ 0, 0, 300, 400 };
	assert_false(cua_geom_children_moved(
		&(struct cua_rect){ 0, 40, 300, 200 }, kids, 1, 0, 0, 0, 40));
	/* no children, or no other system */
	assert_false(cua_geom_children_moved(&host, kids, 0, 0, 0, 0, 25));
	assert_false(cua_geom_children_moved(&host, kids, 1, 0, 25, 0, 25));
}

static void
test_pixel_to_screen(void **state)
{
	struct cua_shot_geom g;
	double wx, wy;
	int32_t rx, ry;
	double s;

	memset(&g, 0, sizeof(g));
	/* 1398 x 769 points at (80, 60), scaled by 768/769 */
	g.frame = (struct cua_rect){ 80, 60, 1398, 769 };
	g.device_ppp = 1.0;
	cua_geom_scale(1398, 769, 2048, 768, &s, &g.width, &g.height);
	g.ppp = s;
	assert_true(cua_geom_pixel_in_image(&g, 0, 0));
	assert_true(cua_geom_pixel_in_image(&g, 1396, 767));
	assert_false(cua_geom_pixel_in_image(&g, 1397, 0));
	assert_false(cua_geom_pixel_in_image(&g, 0, 768));
	assert_false(cua_geom_pixel_in_image(&g, -1, 5));
	cua_geom_pixel_to_point(&g, 768, 384, &wx, &wy);
	assert_true(fabs(wx - 769) < 1e-9);
	assert_true(fabs(wy - 384.5) < 1e-9);
	/* one factor for both axes: the far corner maps inside the window */
	cua_geom_pixel_to_root(&g, g.frame.x, g.frame.y, 1396, 767, &rx, &ry);
	assert_int_equal(rx, 80 + 1397); /* 1396 * 769/768 = 1397.8 */
	assert_int_equal(ry, 60 + 767);  /* 767 * 769/768 = 767.999 */
	/* the window moved: the current origin is used */
	cua_geom_pixel_to_root(&g, 500, 400, 0, 0, &rx, &ry);
	assert_int_equal(rx, 500);
	assert_int_equal(ry, 400);

	/* 2560 x 1440 at s = 0.5333: pixel 683 -> point 1280.6 */
	g.frame = (struct cua_rect){ 0, 0, 2560, 1440 };
	cua_geom_scale(2560, 1440, 2048, 768, &s, &g.width, &g.height);
	g.ppp = s;
	cua_geom_pixel_to_root(&g, 0, 0, 683, 384, &rx, &ry);
	assert_int_equal(rx, 1280);
	assert_int_equal(ry, 720);

	/* HiDPI: 2 device pixels per point */
	g.frame = (struct cua_rect){ 100, 50, 2800, 1600 };
	g.device_ppp = 2.0;
	cua_geom_scale(1400, 800, 2048, 768, &s, &g.width, &g.height);
	g.ppp = s; /* 0.96 */
	assert_int_equal(g.width, 1344);
	cua_geom_pixel_to_root(&g, 100, 50, 96, 48, &rx, &ry);
	assert_int_equal(rx, 100 + 200);
	assert_int_equal(ry, 50 + 100);

	/* element frames -> pixels and their centre -> root */
	{
		struct cua_rect e = { 10, 20, 100, 30 };
		double x, y, w, h;

		g.frame = (struct cua_rect){ 300, 200, 1342, 832 };
		g.device_ppp = 1.0;
		g.ppp = 768.0 / 832.0;
		g.elem_dx = 5;
		g.elem_dy = 5;
		cua_geom_element_to_pixels(&g, &e, &x, &y, &w, &h);
		assert_true(fabs(x - 15 * g.ppp) < 1e-9);
		assert_true(fabs(y - 25 * g.ppp) < 1e-9);
		assert_true(fabs(w - 100 * g.ppp) < 1e-9);
		/* the far edge of the image stays in the window */
		cua_geom_pixel_to_root(&g, 300, 200, g.width - 0.01, 0, &rx,
				       &ry);
		assert_int_equal(rx, 300 + 1341);
		cua_geom_element_center_to_root(&g, 300, 200, &e, &rx, &ry);
		assert_int_equal(rx, 300 + 5 + 10 + 50);
		assert_int_equal(ry, 200 + 5 + 20 + 15);
	}
}

/* ---- images ---- */

static struct cua_pixels
pixels_new(uint32_t w, uint32_t h, uint32_t (*fn)(uint32_t x, uint32_t y))
{
	struct cua_pixels p;

	memset(&p, 0, sizeof(p));
	p.width = w;
	p.height = h;
	p.stride = (size_t)w * 4 + 8; /* padded rows */
	p.bits_per_pixel = 32;
	p.red_mask = 0xff0000;
	p.green_mask = 0xff00;
	p.blue_mask = 0xff;
	p.data = calloc(p.stride, h);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t v = fn(x, y);

			memcpy(p.data + y * p.stride + x * 4, &v, 4);
		}
	return p;
}

/* One row of `n` 16-bit 565 pixels. */
static struct cua_pixels
pixels_565(uint16_t *row, uint32_t n)
{
	struct cua_pixels q;

	memset(&q, 0, sizeof(q));
	q.data = (uint8_t *)row;
	q.width = n;
	q.height = 1;
	q.stride = (size_t)n * 2;
	q.bits_per_pixel = 16;
	q.red_mask = 0xf800;
	q.green_mask = 0x07e0;
	q.blue_mask = 0x001f;
	return q;
}

static uint32_t
flat(uint32_t x, uint32_t y)
{
	return 0x336699;
}

static uint32_t
halves(uint32_t x, uint32_t y)
{
	return x < 100 ? 0xff0000 : 0x0000ff;
}

static uint32_t
stripes(uint32_t x, uint32_t y)
{
	return (x & 1) ? 0xffffff : 0x000000;
}

static uint32_t
argb_half(uint32_t x, uint32_t y)
{
	/* premultiplied: 50 % black, fully transparent, opaque red */
	return x < 10 ? 0x80000000u : x < 20 ? 0x00000000u : 0xffff0000u;
}

static const uint8_t *
px(const struct cua_rgb *img, uint32_t x, uint32_t y)
{
	return img->data + ((size_t)y * img->width + x) * 3;
}

static void
test_resample(void **state)
{
	struct cua_pixels p = pixels_new(200, 150, flat);
	struct cua_rgb out;

	/* a flat colour stays exactly flat at any ratio */
	assert_int_equal(cua_image_scale(&out, &p, 137, 101), 0);
	assert_int_equal(out.width, 137);
	assert_int_equal(out.height, 101);
	for (uint32_t y = 0; y < out.height; y++)
		for (uint32_t x = 0; x < out.width; x++) {
			const uint8_t *c = px(&out, x, y);

			assert_true(c[0] == 0x33 && c[1] == 0x66 &&
				    c[2] == 0x99);
		}
	cua_rgb_free(&out);
	free(p.data);

	/* an edge lands where the ratio puts it */
	p = pixels_new(200, 10, halves);
	assert_int_equal(cua_image_scale(&out, &p, 100, 5), 0);
	assert_true(px(&out, 49, 2)[0] == 255 && px(&out, 49, 2)[2] == 0);
	assert_true(px(&out, 50, 2)[0] == 0 && px(&out, 50, 2)[2] == 255);
	cua_rgb_free(&out);
	free(p.data);

	/* area averaging: 1-pixel stripes halved become grey */
	p = pixels_new(64, 4, stripes);
	assert_int_equal(cua_image_scale(&out, &p, 32, 2), 0);
	for (uint32_t x = 0; x < 32; x++)
		assert_true(abs(px(&out, x, 1)[1] - 128) <= 1);
	cua_rgb_free(&out);
	free(p.data);

	/* never upscaled: a larger size is clamped */
	p = pixels_new(20, 10, flat);
	assert_int_equal(cua_image_scale(&out, &p, 40, 40), 0);
	assert_int_equal(out.width, 20);
	assert_int_equal(out.height, 10);
	cua_rgb_free(&out);
	free(p.data);
}

static void
test_alpha_and_formats(void **state)
{
	struct cua_pixels p = pixels_new(30, 2, argb_half);
	struct cua_rgb out;
	uint16_t rgb565[4] = { 0xf800, 0x07e0, 0x001f, 0xffff };
	struct cua_pixels q;

	p.alpha_mask = 0xff000000u;
	assert_int_equal(cua_image_scale(&out, &p, 30, 2), 0);
	/* 50 % black over white is grey; transparent is white */
	assert_true(abs(px(&out, 5, 0)[0] - 127) <= 1);
	assert_true(px(&out, 15, 0)[0] == 255 && px(&out, 15, 0)[1] == 255);
	assert_true(px(&out, 25, 0)[0] == 255 && px(&out, 25, 0)[1] == 0);
	cua_rgb_free(&out);
	/* the same when scaled (flattening commutes with averaging) */
	assert_int_equal(cua_image_scale(&out, &p, 15, 1), 0);
	assert_true(abs(px(&out, 2, 0)[0] - 127) <= 1);
	assert_true(px(&out, 7, 0)[0] == 255 && px(&out, 7, 0)[2] == 255);
	cua_rgb_free(&out);
	free(p.data);

	/* 16-bit 565 */
	q = pixels_565(rgb565, 4);
	assert_int_equal(cua_image_scale(&out, &q, 4, 1), 0);
	assert_true(px(&out, 0, 0)[0] == 255 && px(&out, 0, 0)[1] == 0);
	assert_true(px(&out, 1, 0)[1] == 255 && px(&out, 1, 0)[2] == 0);
	assert_true(px(&out, 2, 0)[2] == 255 && px(&out, 2, 0)[0] == 0);
	assert_true(px(&out, 3, 0)[0] == 255 && px(&out, 3, 0)[2] == 255);
	cua_rgb_free(&out);
}

/* A popup pasted onto a window (docs/screenshots.md §1): clipped to the
 * window, converted between pixel formats, alpha composited over it. */
static void
test_paste(void **state)
{
	struct cua_pixels win = pixels_new(20, 10, flat);
	struct cua_pixels pop = pixels_new(30, 2, argb_half);
	uint16_t rgb565[2] = { 0xf800, 0x001f };
	struct cua_pixels q;
	struct cua_rgb out;

	/* an opaque 16-bit popup hanging off the right and bottom edges */
	q = pixels_565(rgb565, 2);
	assert_int_equal(cua_image_paste(&win, &q, 19, 9), 0);
	/* off the left and top edges: only its second pixel lands */
	assert_int_equal(cua_image_paste(&win, &q, -1, 0), 0);
	/* wholly outside: nothing */
	assert_int_equal(cua_image_paste(&win, &q, 20, 0), 0);
	assert_int_equal(cua_image_paste(&win, &q, 0, -1), 0);
	/* a premultiplied ARGB popup: 50 % black, transparent, opaque red */
	pop.alpha_mask = 0xff000000u;
	assert_int_equal(cua_image_paste(&win, &pop, -8, 4), 0);
	assert_int_equal(cua_image_scale(&out, &win, 20, 10), 0);
	assert_true(px(&out, 19, 9)[0] == 255 && px(&out, 19, 9)[2] == 0);
	assert_true(px(&out, 0, 0)[2] == 255 && px(&out, 0, 0)[0] == 0);
	assert_true(px(&out, 1, 0)[0] == 0x33 && px(&out, 1, 0)[2] == 0x99);
	/* 50 % black over 33 66 99 halves it */
	assert_true(abs(px(&out, 1, 4)[1] - 0x33) <= 1);
	assert_true(abs(px(&out, 1, 5)[2] - 0x4c) <= 1);
	/* transparent leaves the window; opaque red replaces it */
	assert_true(px(&out, 5, 4)[0] == 0x33 && px(&out, 5, 4)[1] == 0x66);
	assert_true(px(&out, 15, 5)[0] == 255 && px(&out, 15, 5)[1] == 0);
	/* rows 6 and below were never touched */
	assert_true(px(&out, 15, 6)[0] == 0x33);
	cua_rgb_free(&out);
	/* a format it cannot read */
	q.bits_per_pixel = 8;
	assert_int_equal(cua_image_paste(&win, &q, 0, 0), -1);
	free(win.data);
	free(pop.data);
}

static void
test_jpeg_roundtrip(void **state)
{
	struct cua_pixels p = pixels_new(200, 10, halves);
	struct cua_rgb img, back;
	void *jpeg = NULL, *png = NULL;
	size_t size = 0, psize = 0;

	assert_int_equal(cua_image_scale(&img, &p, 200, 10), 0);
	assert_int_equal(cua_image_encode_jpeg(&jpeg, &size, &img, 80), 0);
	assert_true(size > 100);
	assert_true(((uint8_t *)jpeg)[0] == 0xff &&
		    ((uint8_t *)jpeg)[1] == 0xd8);
	assert_int_equal(cua_image_decode_jpeg(&back, jpeg, size), 0);
	assert_int_equal(back.width, 200);
	assert_int_equal(back.height, 10);
	assert_true(px(&back, 20, 5)[0] > 200 && px(&back, 20, 5)[2] < 60);
	assert_true(px(&back, 180, 5)[2] > 200 && px(&back, 180, 5)[0] < 60);
#if HAVE_LIBPNG
	assert_int_equal(cua_image_encode_png(&png, &psize, &img), 0);
	assert_memory_equal(png, "\x89PNG", 4);
#endif
	free(png);
	free(jpeg);
	cua_rgb_free(&back);
	cua_rgb_free(&img);
	free(p.data);
}

static void
test_draw(void **state)
{
	struct cua_rgb img;
	int w, h;

	img.width = 40;
	img.height = 20;
	img.data = calloc(40 * 20, 3);
	cua_image_box(&img, 2, 3, 10, 8, 1, 0xff0000);
	assert_true(px(&img, 2, 3)[0] == 255);
	assert_true(px(&img, 11, 10)[0] == 255);
	assert_true(px(&img, 5, 6)[0] == 0); /* inside: untouched */
	/* clipped, no crash */
	cua_image_box(&img, -5, -5, 100, 100, 2, 0x00ff00);
	cua_image_text_size("123", 1, &w, &h);
	assert_int_equal(w, 17);
	assert_int_equal(h, 7);
	memset(img.data, 0, 40 * 20 * 3);
	cua_image_text(&img, 0, 0, "1", 1, 0xffffff);
	/* '1': the top row has its middle pixel set */
	assert_true(px(&img, 2, 0)[0] == 255);
	assert_true(px(&img, 0, 0)[0] == 0);
	cua_image_text(&img, 38, 18, "8", 2, 0xffffff); /* clipped */
	cua_rgb_free(&img);
}

#if HAVE_DISPLAY_X11
static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void
test_xwd(void **state)
{
	uint8_t buf[104 + 12 + 2 * 2 * 4];
	struct cua_pixels p;
	struct cua_rgb out;

	memset(buf, 0, sizeof(buf));
	put32(buf + 0, 104); /* header size (with a 4-byte name) */
	put32(buf + 4, 7);   /* version */
	put32(buf + 8, 2);   /* ZPixmap */
	put32(buf + 12, 24); /* depth */
	put32(buf + 16, 2);  /* width */
	put32(buf + 20, 2);  /* height */
	put32(buf + 28, 0);  /* LSBFirst */
	put32(buf + 44, 32); /* bits per pixel */
	put32(buf + 48, 8);  /* bytes per line */
	put32(buf + 52, 4);  /* TrueColor */
	put32(buf + 56, 0xff0000);
	put32(buf + 60, 0xff00);
	put32(buf + 64, 0xff);
	put32(buf + 76, 1); /* one colour entry */
	/* pixels: red, green / blue, white (LSB first: B G R X) */
	memcpy(buf + 116,
	       "\x00\x00\xff\x00\x00\xff\x00\x00"
	       "\xff\x00\x00\x00\xff\xff\xff\x00",
	       16);
	assert_int_equal(xwd_decode(buf, sizeof(buf), &p), 0);
	assert_int_equal(p.width, 2);
	assert_int_equal(p.height, 2);
	assert_int_equal(cua_image_scale(&out, &p, 2, 2), 0);
	assert_true(px(&out, 0, 0)[0] == 255 && px(&out, 0, 0)[1] == 0);
	assert_true(px(&out, 1, 0)[1] == 255);
	assert_true(px(&out, 0, 1)[2] == 255 && px(&out, 0, 1)[0] == 0);
	assert_true(px(&out, 1, 1)[0] == 255 && px(&out, 1, 1)[2] == 255);
	cua_rgb_free(&out);
	free(p.data);
	/* truncated */
	assert_int_equal(xwd_decode(buf, sizeof(buf) - 1, &p), -1);
	assert_int_equal(xwd_decode(buf, 50, &p), -1);
}
#endif

#if HAVE_ATSPI_BACKEND
static void
test_event_names(void **state)
{
	char b[96];

	events_type_name("org.a11y.atspi.Event.Object", "StateChanged", "busy",
			 b, sizeof(b));
	assert_string_equal(b, "object:state-changed:busy");
	events_type_name("org.a11y.atspi.Event.Object", "ChildrenChanged",
			 "add", b, sizeof(b));
	assert_string_equal(b, "object:children-changed:add");
	events_type_name("org.a11y.atspi.Event.Window", "Activate", "", b,
			 sizeof(b));
	assert_string_equal(b, "window:activate");
	events_type_name("org.a11y.atspi.Event.Object", "BoundsChanged", NULL,
			 b, sizeof(b));
	assert_string_equal(b, "object:bounds-changed");
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale_rule),
		cmocka_unit_test(test_scale_extreme),
		cmocka_unit_test(test_device_ppp),
		cmocka_unit_test(test_element_origin),
		cmocka_unit_test(test_children_moved),
		cmocka_unit_test(test_pixel_to_screen),
		cmocka_unit_test(test_resample),
		cmocka_unit_test(test_alpha_and_formats),
		cmocka_unit_test(test_paste),
		cmocka_unit_test(test_jpeg_roundtrip),
		cmocka_unit_test(test_draw),
#if HAVE_DISPLAY_X11
		cmocka_unit_test(test_xwd),
#endif
#if HAVE_ATSPI_BACKEND
		cmocka_unit_test(test_event_names),
#endif
	};

	return cmocka_run_group_tests_name("geometry", tests, NULL, NULL);
}
