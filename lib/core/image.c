/*
 * Window images: resampling, JPEG/PNG, drawing (image.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <turbojpeg.h>
#if HAVE_LIBPNG
#include <png.h>
#endif

#include "image.h"

void
cua_rgb_free(struct cua_rgb *img)
{
	if (!img)
		return;
	free(img->data);
	img->data = NULL;
	img->width = img->height = 0;
}

/* ------------------------------------------------------------------ */
/* Pixel formats                                                        */

struct chan {
	uint32_t mask;
	int shift; /* right shift to bring the channel's top bit to bit 7 */
	int bits;
};

static void
chan_init(struct chan *c, uint32_t mask)
{
	int lo = 0, bits = 0;

	c->mask = mask;
	if (!mask) {
		c->shift = 0;
		c->bits = 0;
		return;
	}
	while (!(mask & (1u << lo)))
		lo++;
	while (lo + bits < 32 && (mask & (1u << (lo + bits))))
		bits++;
	c->bits = bits;
	c->shift = lo + bits - 8; /* may be negative */
}

static inline uint32_t
chan_get(const struct chan *c, uint32_t px)
{
	uint32_t v = px & c->mask;

	if (c->bits == 0)
		return 0;
	if (c->shift >= 0)
		v >>= c->shift;
	else
		v <<= -c->shift;
	/* replicate the top bits into the low ones (5 -> 8 bits etc.) */
	if (c->bits < 8)
		v |= v >> c->bits;
	return v & 0xff;
}

static inline uint32_t
read_word(const uint8_t *p, uint32_t bpp, int msb)
{
	switch (bpp) {
	case 32:
		return msb ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
				       (uint32_t)p[2] << 8 | p[3] :
			     (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
				       (uint32_t)p[1] << 8 | p[0];
	case 24:
		return msb ? (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2] :
			     (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
	default:
		return msb ? (uint32_t)p[0] << 8 | p[1] :
			     (uint32_t)p[1] << 8 | p[0];
	}
}

/* ------------------------------------------------------------------ */
/* Area-averaging resampling                                            */

/* The hot loops below are simple enough for GCC to vectorise. */
#if defined(__GNUC__) && !defined(__clang__)
#define HOT __attribute__((optimize("O3")))
#else
#define HOT
#endif

/*
 * Each source pixel i of a line of n pixels falls into output pixel o[i]
 * and, when it straddles a boundary, partly into o[i] + 1. Weights are in
 * 1/256 of an output pixel and add up to exactly 256 per output pixel
 * (cumulative rounding), so a flat colour stays exactly flat.
 */
struct span {
	uint32_t o;
	uint16_t wa, wb;
};

static struct span *
spans_new(uint32_t n, uint32_t m)
{
	struct span *sp = calloc(n ? n : 1, sizeof(*sp));
	uint64_t N = n, M = m;

	if (!sp)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		/* source pixel i spans [i*m, (i+1)*m) in units where an
		 * output pixel is n units wide */
		uint64_t a = i * M, b = (i + 1) * M;
		uint32_t o = (uint32_t)(a / N);
		uint64_t edge = (o + 1) * N, base = o * N;
		/* cumulative weight at position p within output o */
#define CUM(p, base) ((uint32_t)((((p) - (base)) * 256 + N / 2) / N))
		if (b <= edge) {
			sp[i].o = o;
			sp[i].wa = (uint16_t)(CUM(b, base) - CUM(a, base));
			sp[i].wb = 0;
		} else {
			sp[i].o = o;
			sp[i].wa = (uint16_t)(256 - CUM(a, base));
			sp[i].wb = (uint16_t)CUM(b, edge);
		}
#undef CUM
	}
	return sp;
}

/* Source row y as 4 bytes per pixel: B, G, R, A (A = 255 when opaque);
 * `tmp` (width * 4 bytes) is used when the format needs converting. */
static const uint8_t *
row_bgra(const struct cua_pixels *src, uint32_t y, uint8_t *tmp)
{
	const uint8_t *row = src->data + (size_t)y * src->stride;
	uint32_t bpp = src->bits_per_pixel, step = bpp / 8, x;
	struct chan r, g, b, a;

	if (bpp == 32 && !src->msb_first && src->red_mask == 0xff0000 &&
	    src->green_mask == 0xff00 && src->blue_mask == 0xff &&
	    (src->alpha_mask == 0xff000000u || src->alpha_mask == 0))
		return row; /* the common case: used as it is */
	chan_init(&r, src->red_mask);
	chan_init(&g, src->green_mask);
	chan_init(&b, src->blue_mask);
	chan_init(&a, src->alpha_mask);
	for (x = 0; x < src->width; x++, row += step) {
		uint32_t px = read_word(row, bpp, src->msb_first);

		tmp[x * 4 + 0] = (uint8_t)chan_get(&b, px);
		tmp[x * 4 + 1] = (uint8_t)chan_get(&g, px);
		tmp[x * 4 + 2] = (uint8_t)chan_get(&r, px);
		tmp[x * 4 + 3] =
			src->alpha_mask ? (uint8_t)chan_get(&a, px) : 255;
	}
	return tmp;
}

static HOT void
vacc(uint16_t *restrict acc, const uint8_t *restrict p, uint32_t w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		acc[i] = (uint16_t)(acc[i] + w * p[i]);
}

/* Adds each input pixel's first n channels to the one or two output
 * pixels it covers (weights wa and wb). wb is 0 for pixels inside one
 * output pixel; adding 0 to the next slot (allocated) is cheaper than a
 * branch. */
static inline void
haccumulate(uint32_t *restrict acc, const uint16_t *restrict v,
	    const struct span *restrict hs, uint32_t W, unsigned int n)
{
	for (uint32_t x = 0; x < W; x++) {
		uint32_t *q = acc + (size_t)hs[x].o * 4;
		uint32_t wa = hs[x].wa, wb = hs[x].wb;
		const uint16_t *p = v + (size_t)x * 4;

		for (unsigned int c = 0; c < n; c++) {
			q[c] += wa * p[c];
			q[4 + c] += wb * p[c];
		}
	}
}

/* One output row from a vertically averaged row (values x256). */
static HOT void
hpass(uint8_t *restrict out, const uint16_t *restrict v,
      const struct span *restrict hs, uint32_t W, uint32_t w, int opaque,
      uint32_t *restrict acc)
{
	uint32_t x;

	memset(acc, 0, ((size_t)w + 1) * 4 * sizeof(*acc));
	/* the opaque case skips alpha; n is a constant in each call, so the
	 * inner loop unrolls */
	if (opaque)
		haccumulate(acc, v, hs, W, 3);
	else
		haccumulate(acc, v, hs, W, 4);
	for (x = 0; x < w; x++) {
		const uint32_t *q = acc + (size_t)x * 4;
		uint32_t bb = (q[0] + 32768) >> 16, gg = (q[1] + 32768) >> 16,
			 rr = (q[2] + 32768) >> 16;

		if (!opaque) {
			/* premultiplied: flattening onto white is linear, so
			 * it can follow the averaging */
			uint32_t na = 255 - ((q[3] + 32768) >> 16);

			bb = bb + na > 255 ? 255 : bb + na;
			gg = gg + na > 255 ? 255 : gg + na;
			rr = rr + na > 255 ? 255 : rr + na;
		}
		*out++ = (uint8_t)rr;
		*out++ = (uint8_t)gg;
		*out++ = (uint8_t)bb;
	}
}

static HOT void
bgra_to_rgb(uint8_t *restrict out, const uint8_t *restrict p, uint32_t n,
	    int opaque)
{
	for (uint32_t x = 0; x < n; x++, p += 4) {
		uint32_t na = opaque ? 0 : 255u - p[3];
		uint32_t rr = p[2] + na, gg = p[1] + na, bb = p[0] + na;

		*out++ = (uint8_t)(rr > 255 ? 255 : rr);
		*out++ = (uint8_t)(gg > 255 ? 255 : gg);
		*out++ = (uint8_t)(bb > 255 ? 255 : bb);
	}
}

int
cua_image_scale(struct cua_rgb *out, const struct cua_pixels *src, uint32_t w,
		uint32_t h)
{
	uint32_t W = src->width, H = src->height, y;
	int opaque = src->alpha_mask == 0;
	struct span *hs = NULL, *vs = NULL;
	uint8_t *tmp = NULL, *dst;
	uint16_t *v0 = NULL, *v1 = NULL, *t;
	uint32_t *hacc = NULL, cur = 0;
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (!src->data || W == 0 || H == 0 ||
	    (src->bits_per_pixel != 16 && src->bits_per_pixel != 24 &&
	     src->bits_per_pixel != 32))
		return -1;
	if (w == 0 || w > W)
		w = W;
	if (h == 0 || h > H)
		h = H;
	dst = malloc((size_t)w * h * 3);
	tmp = malloc((size_t)W * 4);
	if (!dst || !tmp)
		goto out;
	if (w == W && h == H) {
		for (y = 0; y < H; y++)
			bgra_to_rgb(dst + (size_t)y * W * 3,
				    row_bgra(src, y, tmp), W, opaque);
		goto done;
	}
	hs = spans_new(W, w);
	vs = spans_new(H, h);
	v0 = calloc((size_t)W * 4, sizeof(*v0));
	v1 = calloc((size_t)W * 4, sizeof(*v1));
	/* one spare output pixel: hpass adds wb = 0 past the last one */
	hacc = malloc(((size_t)w + 1) * 4 * sizeof(*hacc));
	if (!hs || !vs || !v0 || !v1 || !hacc)
		goto out;
	for (y = 0; y < H; y++) {
		const uint8_t *p = row_bgra(src, y, tmp);
		const struct span *v = &vs[y];

		/* rows are produced in order: v->o is cur or cur + 1 */
		while (v->o > cur) {
			hpass(dst + (size_t)cur * w * 3, v0, hs, W, w, opaque,
			      hacc);
			t = v0;
			v0 = v1;
			v1 = t;
			memset(v1, 0, (size_t)W * 4 * sizeof(*v1));
			cur++;
		}
		vacc(v0, p, v->wa, (size_t)W * 4);
		if (v->wb && v->o + 1 < h)
			vacc(v1, p, v->wb, (size_t)W * 4);
	}
	for (; cur < h; cur++) {
		hpass(dst + (size_t)cur * w * 3, v0, hs, W, w, opaque, hacc);
		t = v0;
		v0 = v1;
		v1 = t;
		memset(v1, 0, (size_t)W * 4 * sizeof(*v1));
	}
done:
	out->data = dst;
	out->width = w;
	out->height = h;
	dst = NULL;
	r = 0;
out:
	free(dst);
	free(tmp);
	free(hs);
	free(vs);
	free(v0);
	free(v1);
	free(hacc);
	return r;
}

/* ------------------------------------------------------------------ */
/* Pasting one image onto another                                       */

static inline uint32_t
chan_put(const struct chan *c, uint32_t v8)
{
	int lo = c->shift - c->bits + 8; /* the channel's lowest bit */

	if (c->bits == 0)
		return 0;
	if (c->bits <= 8)
		return ((v8 >> (8 - c->bits)) << lo) & c->mask;
	return ((v8 << (c->bits - 8)) << lo) & c->mask;
}

static inline void
write_word(uint8_t *p, uint32_t bpp, int msb, uint32_t v)
{
	uint32_t n = bpp / 8;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t sh = msb ? 8 * (n - 1 - i) : 8 * i;

		p[i] = (uint8_t)(v >> sh);
	}
}

static int
format_ok(const struct cua_pixels *p)
{
	return p->data && (p->bits_per_pixel == 16 || p->bits_per_pixel == 24 ||
			   p->bits_per_pixel == 32);
}

int
cua_image_paste(struct cua_pixels *dst, const struct cua_pixels *src, int x,
		int y)
{
	struct chan r, g, b, a;
	uint32_t dstep = dst->bits_per_pixel / 8;
	int64_t x0 = x < 0 ? -(int64_t)x : 0, y0 = y < 0 ? -(int64_t)y : 0;
	int64_t x1 = src->width, y1 = src->height;
	uint8_t *tmp;

	if (!format_ok(dst) || !format_ok(src))
		return -1;
	if ((int64_t)x + x1 > dst->width)
		x1 = (int64_t)dst->width - x;
	if ((int64_t)y + y1 > dst->height)
		y1 = (int64_t)dst->height - y;
	if (x0 >= x1 || y0 >= y1)
		return 0;
	tmp = malloc((size_t)src->width * 4);
	if (!tmp)
		return -1;
	chan_init(&r, dst->red_mask);
	chan_init(&g, dst->green_mask);
	chan_init(&b, dst->blue_mask);
	chan_init(&a, dst->alpha_mask);
	for (int64_t sy = y0; sy < y1; sy++) {
		const uint8_t *sp = row_bgra(src, (uint32_t)sy, tmp) + x0 * 4;
		uint8_t *dp = dst->data + (size_t)(sy + y) * dst->stride +
			      (size_t)(x0 + x) * dstep;

		for (int64_t sx = x0; sx < x1; sx++, sp += 4, dp += dstep) {
			/* premultiplied `over`: out = src + dst * (1 - a) */
			uint32_t na = src->alpha_mask ? 255u - sp[3] : 0;
			uint32_t px = 0, v[4] = { sp[2], sp[1], sp[0], 255 };

			if (na) {
				uint32_t d = read_word(dp, dst->bits_per_pixel,
						       dst->msb_first);
				uint32_t dv[4] = {
					chan_get(&r, d), chan_get(&g, d),
					chan_get(&b, d),
					dst->alpha_mask ? chan_get(&a, d) : 255
				};

				v[3] = sp[3];
				for (int i = 0; i < 4; i++) {
					v[i] += (dv[i] * na + 127) / 255;
					if (v[i] > 255)
						v[i] = 255;
				}
			}
			px = chan_put(&r, v[0]) | chan_put(&g, v[1]) |
			     chan_put(&b, v[2]) | chan_put(&a, v[3]);
			write_word(dp, dst->bits_per_pixel, dst->msb_first, px);
		}
	}
	free(tmp);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Encoding                                                             */

int
cua_image_encode_jpeg(void **out, size_t *size, const struct cua_rgb *img,
		      int quality)
{
	tjhandle tj;
	unsigned char *buf = NULL;
	unsigned long len = 0;
	int r;

	*out = NULL;
	*size = 0;
	if (!img->data || !img->width || !img->height)
		return -1;
	tj = tjInitCompress();
	if (!tj)
		return -1;
	r = tjCompress2(tj, img->data, (int)img->width, 0, (int)img->height,
			TJPF_RGB, &buf, &len, TJSAMP_420,
			quality < 1   ? 1 :
			quality > 100 ? 100 :
					quality,
			TJFLAG_FASTDCT);
	tjDestroy(tj);
	if (r != 0 || !buf) {
		tjFree(buf);
		return -1;
	}
	/* into our own allocation, so cua_free() frees it */
	*out = malloc(len);
	if (*out)
		memcpy(*out, buf, len);
	tjFree(buf);
	if (!*out)
		return -1;
	*size = len;
	return 0;
}

int
cua_image_decode_jpeg(struct cua_rgb *out, const void *data, size_t size)
{
	tjhandle tj;
	int w = 0, h = 0, sub = 0, cs = 0, r;

	memset(out, 0, sizeof(*out));
	tj = tjInitDecompress();
	if (!tj)
		return -1;
	r = tjDecompressHeader3(tj, data, (unsigned long)size, &w, &h, &sub,
				&cs);
	if (r == 0 && w > 0 && h > 0) {
		out->data = malloc((size_t)w * h * 3);
		if (!out->data)
			r = -1;
		else
			r = tjDecompress2(tj, data, (unsigned long)size,
					  out->data, w, 0, h, TJPF_RGB, 0);
	} else {
		r = -1;
	}
	tjDestroy(tj);
	if (r != 0) {
		cua_rgb_free(out);
		return -1;
	}
	out->width = (uint32_t)w;
	out->height = (uint32_t)h;
	return 0;
}

#if HAVE_LIBPNG
struct membuf {
	uint8_t *data;
	size_t len, cap;
	int failed;
};

static void
png_write(png_structp png, png_bytep data, png_size_t len)
{
	struct membuf *m = png_get_io_ptr(png);

	if (m->failed)
		return;
	if (m->len + len > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 65536;
		uint8_t *n;

		while (cap < m->len + len)
			cap *= 2;
		n = realloc(m->data, cap);
		if (!n) {
			m->failed = 1;
			return;
		}
		m->data = n;
		m->cap = cap;
	}
	memcpy(m->data + m->len, data, len);
	m->len += len;
}

static void
png_flush(png_structp png)
{
	(void)png;
}

int
cua_image_encode_png(void **out, size_t *size, const struct cua_rgb *img)
{
	struct membuf m = { NULL, 0, 0, 0 };
	png_structp png;
	png_infop info;
	png_bytep *rows = NULL;

	*out = NULL;
	*size = 0;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (!png)
		return -1;
	info = png_create_info_struct(png);
	rows = malloc(sizeof(*rows) * (img->height ? img->height : 1));
	if (!info || !rows || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, info ? &info : NULL);
		free(rows);
		free(m.data);
		return -1;
	}
	for (uint32_t y = 0; y < img->height; y++)
		rows[y] = img->data + (size_t)y * img->width * 3;
	png_set_write_fn(png, &m, png_write, png_flush);
	png_set_compression_level(png, 1);
	png_set_IHDR(png, info, img->width, img->height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	png_write_image(png, rows);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(rows);
	if (m.failed) {
		free(m.data);
		return -1;
	}
	*out = m.data;
	*size = m.len;
	return 0;
}
#else
int
cua_image_encode_png(void **out, size_t *size, const struct cua_rgb *img)
{
	(void)img;
	*out = NULL;
	*size = 0;
	return -1;
}
#endif

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

void
cua_image_fill(struct cua_rgb *img, int x, int y, int w, int h, uint32_t rgb)
{
	int x1 = x + w, y1 = y + h;

	if (x < 0)
		x = 0;
	if (y < 0)
		y = 0;
	if (x1 > (int)img->width)
		x1 = (int)img->width;
	if (y1 > (int)img->height)
		y1 = (int)img->height;
	for (int j = y; j < y1; j++) {
		uint8_t *p =
			img->data + ((size_t)j * img->width + (size_t)x) * 3;

		for (int i = x; i < x1; i++) {
			*p++ = (uint8_t)(rgb >> 16);
			*p++ = (uint8_t)(rgb >> 8);
			*p++ = (uint8_t)rgb;
		}
	}
}

void
cua_image_box(struct cua_rgb *img, int x, int y, int w, int h, int t,
	      uint32_t rgb)
{
	if (w <= 0 || h <= 0)
		return;
	if (t > w / 2)
		t = w / 2 ? w / 2 : 1;
	if (t > h / 2)
		t = h / 2 ? h / 2 : 1;
	cua_image_fill(img, x, y, w, t, rgb);
	cua_image_fill(img, x, y + h - t, w, t, rgb);
	cua_image_fill(img, x, y, t, h, rgb);
	cua_image_fill(img, x + w - t, y, t, h, rgb);
}

/* 5x7 glyphs, one byte per row, bit 4 = leftmost column. */
static const uint8_t font5x7[][7] = {
	{ 0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e }, /* 0 */
	{ 0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e }, /* 1 */
	{ 0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f }, /* 2 */
	{ 0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e }, /* 3 */
	{ 0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02 }, /* 4 */
	{ 0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e }, /* 5 */
	{ 0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e }, /* 6 */
	{ 0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 }, /* 7 */
	{ 0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e }, /* 8 */
	{ 0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c }, /* 9 */
	{ 0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a }, /* # */
	{ 0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00 }, /* - */
	{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 }, /* space */
};

static const uint8_t *
glyph(char ch)
{
	if (ch >= '0' && ch <= '9')
		return font5x7[ch - '0'];
	if (ch == '#')
		return font5x7[10];
	if (ch == '-')
		return font5x7[11];
	return font5x7[12];
}

void
cua_image_text_size(const char *text, int scale, int *w, int *h)
{
	size_t n = strlen(text);

	*w = n ? (int)(n * 6 - 1) * scale : 0;
	*h = 7 * scale;
}

void
cua_image_text(struct cua_rgb *img, int x, int y, const char *text, int scale,
	       uint32_t rgb)
{
	for (; *text; text++, x += 6 * scale) {
		const uint8_t *g = glyph(*text);

		for (int row = 0; row < 7; row++)
			for (int col = 0; col < 5; col++)
				if (g[row] & (0x10 >> col))
					cua_image_fill(img, x + col * scale,
						       y + row * scale, scale,
						       scale, rgb);
	}
}
