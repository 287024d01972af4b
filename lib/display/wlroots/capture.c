/*
 * Output capture (zwlr_screencopy_manager_v1) into shared memory.
 *
 * A capture asks for the region of one output (capture_output_region,
 * or capture_output for the whole output), takes the buffer parameters
 * the compositor offers (wl_shm format, size, stride), copies into a
 * wl_shm buffer and waits for `ready` or `failed`. The memory (a memfd
 * mapped once) and the wl_buffer are kept for the next capture: the
 * wl_buffer is reused while the parameters stay the same, the memory
 * while it is large enough. The pixels are copied out into memory the
 * caller owns, rows flipped when the compositor says the image is
 * y-inverted. A damage watch made to go with a capture (watch.c) sends
 * its copy request right before the capture's, in the same flush.
 *
 * Outputs with a transform (rotated, flipped) are refused: their pixels
 * would come back in the output's buffer orientation.
 *
 * Formats: the 8-bit-per-channel 32-bit formats (XRGB8888, ARGB8888,
 * XBGR8888, ABGR8888), read as opaque. Others fail with the format's
 * name in the message.
 *
 * Same thread and failure rules as wlr.h; a capture waits at most
 * capture_timeout_ms.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wlr-screencopy-unstable-v1-client-protocol.h"

#include "wlr-private.h"

struct wlr_capture {
	/* kept between captures */
	int fd;
	uint8_t *mem;
	size_t mem_size;
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;
	uint32_t b_format, b_width, b_height, b_stride;

	/* the capture in progress */
	struct zwlr_screencopy_frame_v1 *frame;
	int have_shm; /* a `buffer` event with shm parameters */
	uint32_t format, width, height, stride;
	int copied; /* copy request sent */
	int y_invert;
	uint64_t when_ns; /* `ready`'s time of the output's frame */
	int done;         /* 1 ready, -1 failed */
	char why[160];
};

static void
capture_free_buffer(struct wlr_capture *c)
{
	if (c->buffer)
		wl_proxy_destroy((struct wl_proxy *)c->buffer);
	c->buffer = NULL;
}

void
wlr_capture_forget(struct cua_wlr *w)
{
	struct wlr_capture *c = w->cap;

	if (!c)
		return;
	if (c->frame)
		wl_proxy_destroy((struct wl_proxy *)c->frame);
	capture_free_buffer(c);
	if (c->pool)
		wl_proxy_destroy((struct wl_proxy *)c->pool);
	if (c->mem)
		munmap(c->mem, c->mem_size);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
	w->cap = NULL;
}

static int
format_masks(uint32_t format, struct cua_pixels *px)
{
	switch (format) {
	case WL_SHM_FORMAT_XRGB8888:
	case WL_SHM_FORMAT_ARGB8888:
		px->red_mask = 0x00ff0000;
		px->green_mask = 0x0000ff00;
		px->blue_mask = 0x000000ff;
		break;
	case WL_SHM_FORMAT_XBGR8888:
	case WL_SHM_FORMAT_ABGR8888:
		px->red_mask = 0x000000ff;
		px->green_mask = 0x0000ff00;
		px->blue_mask = 0x00ff0000;
		break;
	default:
		return -1;
	}
	px->bits_per_pixel = 32;
	px->msb_first = 0; /* wl_shm formats are little-endian words */
	px->alpha_mask = 0;
	return 0;
}

static const char *
format_name(uint32_t format, char *buf, size_t size)
{
	if (format == WL_SHM_FORMAT_ARGB8888)
		return "ARGB8888";
	if (format == WL_SHM_FORMAT_XRGB8888)
		return "XRGB8888";
	snprintf(buf, size, "%c%c%c%c (0x%08x)", (char)(format & 0x7f),
		 (char)((format >> 8) & 0x7f), (char)((format >> 16) & 0x7f),
		 (char)((format >> 24) & 0x7f), format);
	return buf;
}

/* Memory and a wl_buffer for the parameters of the frame. */
static int
prepare_buffer(struct cua_wlr *w, struct wlr_capture *c)
{
	size_t need = (size_t)c->stride * c->height;

	if (c->buffer && c->b_format == c->format && c->b_width == c->width &&
	    c->b_height == c->height && c->b_stride == c->stride)
		return 0;
	capture_free_buffer(c);
	if (need > c->mem_size) {
		if (c->pool)
			wl_proxy_destroy((struct wl_proxy *)c->pool);
		c->pool = NULL;
		if (c->mem)
			munmap(c->mem, c->mem_size);
		c->mem = NULL;
		c->mem_size = 0;
		if (c->fd < 0)
			c->fd = memfd_create("cua-capture", MFD_CLOEXEC);
		if (c->fd < 0 || ftruncate(c->fd, (off_t)need) < 0) {
			snprintf(c->why, sizeof(c->why),
				 "cannot make %zu bytes of shared memory (%s)",
				 need, strerror(errno));
			return -1;
		}
		c->mem = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED,
			      c->fd, 0);
		if (c->mem == MAP_FAILED) {
			c->mem = NULL;
			snprintf(c->why, sizeof(c->why),
				 "cannot map %zu bytes of shared memory (%s)",
				 need, strerror(errno));
			return -1;
		}
		c->mem_size = need;
		c->pool = wl_shm_create_pool(w->shm, c->fd, (int32_t)need);
	}
	c->buffer = wl_shm_pool_create_buffer(c->pool, 0, (int32_t)c->width,
					      (int32_t)c->height,
					      (int32_t)c->stride, c->format);
	c->b_format = c->format;
	c->b_width = c->width;
	c->b_height = c->height;
	c->b_stride = c->stride;
	return 0;
}

static void
do_copy(struct cua_wlr *w, struct wlr_capture *c)
{
	struct cua_pixels probe;
	char buf[32];

	if (c->copied || c->done)
		return;
	if (!c->have_shm) {
		snprintf(c->why, sizeof(c->why),
			 "the compositor offered no shared-memory buffer "
			 "format for the capture");
		c->done = -1;
		return;
	}
	if (format_masks(c->format, &probe) < 0) {
		snprintf(c->why, sizeof(c->why),
			 "the compositor offered the pixel format %s, which "
			 "libcua does not read",
			 format_name(c->format, buf, sizeof(buf)));
		c->done = -1;
		return;
	}
	if (c->stride < c->width * 4 || c->width == 0 || c->height == 0) {
		snprintf(c->why, sizeof(c->why),
			 "the compositor offered an unusable buffer (%ux%u, "
			 "stride %u)",
			 c->width, c->height, c->stride);
		c->done = -1;
		return;
	}
	if (prepare_buffer(w, c) < 0) {
		c->done = -1;
		return;
	}
	/* a damage watch's copy first, in the same flush (watch.c) */
	wlr_watch_release(w);
	zwlr_screencopy_frame_v1_copy(c->frame, c->buffer);
	c->copied = 1;
}

static void
frame_buffer(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t format,
	     uint32_t width, uint32_t height, uint32_t stride)
{
	struct cua_wlr *w = data;
	struct wlr_capture *c = w->cap;

	/* the first shm offer is the compositor's preference */
	if (!c->have_shm) {
		c->have_shm = 1;
		c->format = format;
		c->width = width;
		c->height = height;
		c->stride = stride;
	}
	/* before version 3 there is no buffer_done: this is the offer */
	if (w->screencopy_version < 3)
		do_copy(w, c);
}

static void
frame_flags(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t flags)
{
	struct cua_wlr *w = data;

	w->cap->y_invert =
		(flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT) != 0;
}

static void
frame_ready(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t sec_hi,
	    uint32_t sec_lo, uint32_t nsec)
{
	struct cua_wlr *w = data;

	w->cap->when_ns = wlr_frame_time_ns(sec_hi, sec_lo, nsec);
	w->cap->done = 1;
}

static void
frame_failed(void *data, struct zwlr_screencopy_frame_v1 *f)
{
	struct cua_wlr *w = data;

	snprintf(w->cap->why, sizeof(w->cap->why),
		 "the compositor could not copy the output (screencopy "
		 "`failed`)");
	w->cap->done = -1;
}

static void
frame_damage(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t x,
	     uint32_t y, uint32_t width, uint32_t height)
{
}

static void
frame_linux_dmabuf(void *data, struct zwlr_screencopy_frame_v1 *f,
		   uint32_t format, uint32_t width, uint32_t height)
{
}

static void
frame_buffer_done(void *data, struct zwlr_screencopy_frame_v1 *f)
{
	struct cua_wlr *w = data;

	do_copy(w, w->cap);
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = {
	.buffer = frame_buffer,
	.flags = frame_flags,
	.ready = frame_ready,
	.failed = frame_failed,
	.damage = frame_damage,
	.linux_dmabuf = frame_linux_dmabuf,
	.buffer_done = frame_buffer_done,
};

static struct wlr_output *
first_output(struct cua_wlr *w)
{
	struct wlr_output *o;

	/* the list is newest first */
	wl_list_for_each_reverse(o, &w->outputs,
				 link) if (o->info.rect.w > 0 &&
					   o->info.rect.h > 0) return o;
	return NULL;
}

static cua_result
pick_region(struct cua_wlr *w, const struct cua_rect *rect,
	    struct wlr_output **out, struct cua_rect *region)
{
	struct wlr_output *o;
	const struct cua_rect *orect;
	int32_t x0, y0, x1, y1;

	if (!rect) {
		o = first_output(w);
		if (!o)
			return cua_error(CUA_ERROR_BACKEND,
					 "the compositor has no output to "
					 "capture");
		*out = o;
		*region = o->info.rect;
		return CUA_OK;
	}
	if (rect->w <= 0 || rect->h <= 0)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "cannot capture an empty rectangle (%dx%d)",
				 rect->w, rect->h);
	/* the output that holds most of it */
	*out = NULL;
	wl_list_for_each(o, &w->outputs, link)
	{
		int64_t area;

		orect = &o->info.rect;
		x0 = rect->x > orect->x ? rect->x : orect->x;
		y0 = rect->y > orect->y ? rect->y : orect->y;
		x1 = rect->x + rect->w < orect->x + orect->w ?
			     rect->x + rect->w :
			     orect->x + orect->w;
		y1 = rect->y + rect->h < orect->y + orect->h ?
			     rect->y + rect->h :
			     orect->y + orect->h;
		if (x1 <= x0 || y1 <= y0)
			continue;
		area = (int64_t)(x1 - x0) * (y1 - y0);
		if (!*out || area > (int64_t)region->w * region->h) {
			*out = o;
			region->x = x0;
			region->y = y0;
			region->w = x1 - x0;
			region->h = y1 - y0;
		}
	}
	if (!*out)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "the rectangle %dx%d at %d,%d is off every "
				 "screen",
				 rect->w, rect->h, rect->x, rect->y);
	return CUA_OK;
}

cua_result
cua_wlr_capture(struct cua_wlr *w, const struct cua_rect *rect,
		int overlay_cursor, struct cua_wlr_shot *out)
{
	struct wlr_output *o = NULL;
	struct cua_rect region;
	struct wlr_capture *c;
	int64_t t0 = cua_now_us();
	size_t row;
	cua_result r;

	memset(out, 0, sizeof(*out));
	r = cua_wlr_ensure(w);
	if (r != CUA_OK)
		return r;
	if (w->reason[CUA_WLR_CAPTURE][0])
		return cua_error(CUA_ERROR_UNSUPPORTED, "no screen capture: %s",
				 w->reason[CUA_WLR_CAPTURE]);
	/* the output changes (a new mode, a new output) the compositor sent
	 * since the last call (waiting at most 1 ms): the region is cut to the
	 * outputs as they are */
	r = wlr_wait_event(w, &(const int){ 0 }, 1, "reading output changes");
	if (r == CUA_ERROR_TIMEOUT)
		cua_error_clear();
	else if (r != CUA_OK)
		return r;
	r = pick_region(w, rect, &o, &region);
	if (r != CUA_OK)
		return r;
	if (o->info.transform != WL_OUTPUT_TRANSFORM_NORMAL)
		return cua_error(
			CUA_ERROR_UNSUPPORTED,
			"no screen capture of output %s: it is rotated "
			"or flipped (wl_output transform %d), which "
			"libcua does not undo yet",
			o->info.name[0] ? o->info.name : "(unnamed)",
			o->info.transform);
	if (!w->cap) {
		w->cap = calloc(1, sizeof(*w->cap));
		if (!w->cap)
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		w->cap->fd = -1;
	}
	c = w->cap;
	c->have_shm = c->copied = c->y_invert = c->done = 0;
	c->why[0] = '\0';
	if (region.x == o->info.rect.x && region.y == o->info.rect.y &&
	    region.w == o->info.rect.w && region.h == o->info.rect.h)
		c->frame = zwlr_screencopy_manager_v1_capture_output(
			w->screencopy, overlay_cursor ? 1 : 0, o->wl);
	else
		c->frame = zwlr_screencopy_manager_v1_capture_output_region(
			w->screencopy, overlay_cursor ? 1 : 0, o->wl,
			region.x - o->info.rect.x, region.y - o->info.rect.y,
			region.w, region.h);
	zwlr_screencopy_frame_v1_add_listener(c->frame, &frame_listener, w);
	r = wlr_dispatch_until(w, &c->done, w->opt.capture_timeout_ms,
			       "capturing the screen");
	if (r != CUA_OK)
		return r; /* the connection is gone, and the frame with it */
	zwlr_screencopy_frame_v1_destroy(c->frame);
	c->frame = NULL;
	if (c->done < 0)
		return cua_error(CUA_ERROR_BACKEND, "screen capture failed: %s",
				 c->why);

	row = (size_t)c->width * 4;
	out->px.data = malloc(row * c->height);
	if (!out->px.data)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	for (uint32_t y = 0; y < c->height; y++) {
		uint32_t from = c->y_invert ? c->height - 1 - y : y;

		memcpy(out->px.data + row * y,
		       c->mem + (size_t)c->stride * from, row);
	}
	format_masks(c->format, &out->px);
	out->px.stride = row;
	out->px.width = c->width;
	out->px.height = c->height;
	out->rect = region;
	out->scale = (double)c->width / region.w;
	out->format = c->format;
	out->when_ns = c->when_ns;
	out->capture_us = cua_now_us() - t0;
	return CUA_OK;
}
