/*
 * Window images: pixel formats as window systems deliver them, the one
 * resampling step of docs/screenshots.md §4 (area averaging, alpha flattened
 * onto white), JPEG and PNG encoding, and the little drawing the marks
 * picture needs (boxes and digits from a built-in bitmap font).
 *
 * Platform-neutral: a backend fills struct cua_pixels; everything else
 * works on packed 8-bit RGB.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_IMAGE_H
#define CUA_CORE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* Pixels as a window system holds them (an X11 ZPixmap image): one
 * 16, 24 or 32-bit word per pixel, channels named by masks. With an alpha
 * mask the colour is premultiplied (X11 ARGB visuals). */
struct cua_pixels {
	uint8_t *data; /* malloc'd when owned by a cua_capture */
	size_t stride; /* bytes per row */
	uint32_t width, height;
	uint32_t bits_per_pixel; /* 16, 24 or 32 */
	int msb_first;           /* byte order of a pixel word */
	uint32_t red_mask, green_mask, blue_mask;
	uint32_t alpha_mask; /* 0: opaque */
};

/* Packed RGB, 3 bytes per pixel, rows of width * 3 bytes. */
struct cua_rgb {
	uint8_t *data; /* malloc'd */
	uint32_t width, height;
};

void
cua_rgb_free(struct cua_rgb *img);

/*
 * Resamples `src` to w x h (w <= src width, h <= src height: never
 * upscaled; larger sizes are clamped) with an area-averaging (box)
 * filter, flattening alpha onto white. Returns 0 or -1 (out of memory,
 * unsupported pixel format).
 */
int
cua_image_scale(struct cua_rgb *out, const struct cua_pixels *src, uint32_t w,
		uint32_t h);

/*
 * Draws `src` onto `dst` with src's pixel (0, 0) at dst's (x, y), clipped
 * to dst, converting between their pixel formats; a src with alpha is
 * composited over what dst holds there (both premultiplied). Returns 0 or
 * -1 (out of memory, unsupported pixel format).
 */
int
cua_image_paste(struct cua_pixels *dst, const struct cua_pixels *src, int x,
		int y);

/* JPEG (baseline, 4:2:0, JFIF, no other metadata) of `img` at `quality`
 * (1..100); *out is malloc'd. Returns 0 or -1. */
int
cua_image_encode_jpeg(void **out, size_t *size, const struct cua_rgb *img,
		      int quality);
/* PNG (8-bit RGB, zlib level 1); *out is malloc'd. Returns 0 or -1, also
 * when libcua was built without libpng. */
int
cua_image_encode_png(void **out, size_t *size, const struct cua_rgb *img);
/* Decodes a JPEG to RGB. Returns 0 or -1. */
int
cua_image_decode_jpeg(struct cua_rgb *out, const void *data, size_t size);

/* Drawing (clipped to the image). Colours are 0xRRGGBB. */
void
cua_image_fill(struct cua_rgb *img, int x, int y, int w, int h, uint32_t rgb);
/* The outline of a box, `t` pixels thick, inside (x, y, w, h). */
void
cua_image_box(struct cua_rgb *img, int x, int y, int w, int h, int t,
	      uint32_t rgb);
/* Width and height of `text` (digits, '#', '-', ' ') in the built-in 5x7
 * font at `scale`. */
void
cua_image_text_size(const char *text, int scale, int *w, int *h);
/* Draws `text` with its top-left corner at (x, y). */
void
cua_image_text(struct cua_rgb *img, int x, int y, const char *text, int scale,
	       uint32_t rgb);

#endif
