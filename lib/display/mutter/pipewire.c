/*
 * Frames of one screen-cast stream, read from PipeWire (libpipewire-0.3)
 * on a loop thread of its own. The stream lives as long as the driver's
 * remote-desktop session: every new frame replaces the last one kept, and
 * a screenshot copies the last frame, so no screenshot waits for a stream
 * to start. Only memory buffers are asked for (MemPtr, MemFd), in one of
 * the 32-bit BGRx/RGBx formats, so a frame is read without a GPU.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/buffers.h>

#include "core/errors.h"
#include "mutter.h"

struct mutter_pw {
	struct pw_thread_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_stream *stream;
	struct spa_hook stream_listener;
	struct spa_video_info_raw format;
	int have_format;
	int failed; /* the stream or the connection broke */
	char error[160];

	/* the last frame, under the loop's lock */
	uint8_t *frame;
	size_t frame_size;
	uint32_t width, height, stride;
	uint32_t spa_format;
	uint64_t serial; /* frames received */
	int64_t first_us;

	void (*on_frame)(void *data);
	void *on_frame_data;
};

static void
on_process(void *data)
{
	struct mutter_pw *p = data;
	struct pw_buffer *b = pw_stream_dequeue_buffer(p->stream);
	struct spa_buffer *buf;
	struct spa_data *d;
	uint32_t stride, h, offset, size;

	if (!b)
		return;
	buf = b->buffer;
	d = &buf->datas[0];
	if (!d->data || !d->chunk || !p->have_format ||
	    (d->chunk->flags & SPA_CHUNK_FLAG_CORRUPTED) || d->chunk->size == 0)
		goto done;
	h = p->format.size.height;
	stride = d->chunk->stride > 0 ? (uint32_t)d->chunk->stride :
					p->format.size.width * 4;
	offset = d->chunk->offset % d->maxsize;
	size = d->chunk->size;
	if ((uint64_t)stride * h > size ||
	    offset + (uint64_t)size > d->maxsize ||
	    stride < p->format.size.width * 4)
		goto done;
	if (p->frame_size < (size_t)stride * h) {
		uint8_t *n = realloc(p->frame, (size_t)stride * h);

		if (!n)
			goto done;
		p->frame = n;
		p->frame_size = (size_t)stride * h;
	}
	memcpy(p->frame, (uint8_t *)d->data + offset, (size_t)stride * h);
	p->width = p->format.size.width;
	p->height = h;
	p->stride = stride;
	p->spa_format = p->format.format;
	if (!p->serial++)
		p->first_us = cua_now_us();
	if (p->on_frame)
		p->on_frame(p->on_frame_data);
	pw_thread_loop_signal(p->loop, false);
done:
	pw_stream_queue_buffer(p->stream, b);
}

static void
on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	struct mutter_pw *p = data;
	uint8_t buffer[512];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
	const struct spa_pod *params[1];

	if (!param || id != SPA_PARAM_Format)
		return;
	if (spa_format_video_raw_parse(param, &p->format) < 0)
		return;
	p->have_format = 1;
	params[0] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
		SPA_PARAM_BUFFERS_dataType,
		SPA_POD_Int((1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd)));
	pw_stream_update_params(p->stream, params, 1);
}

static void
on_state_changed(void *data, enum pw_stream_state old,
		 enum pw_stream_state state, const char *error)
{
	struct mutter_pw *p = data;

	(void)old;
	if (state == PW_STREAM_STATE_ERROR ||
	    state == PW_STREAM_STATE_UNCONNECTED) {
		p->failed = 1;
		snprintf(p->error, sizeof(p->error), "%s",
			 error ? error :
				 "the PipeWire stream was disconnected");
		pw_thread_loop_signal(p->loop, false);
	}
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state_changed,
	.param_changed = on_param_changed,
	.process = on_process,
};

static void
on_core_error(void *data, uint32_t id, int seq, int res, const char *message)
{
	struct mutter_pw *p = data;

	(void)seq;
	(void)res;
	if (id != PW_ID_CORE)
		return;
	p->failed = 1;
	snprintf(p->error, sizeof(p->error), "PipeWire: %s",
		 message ? message : "connection error");
	pw_thread_loop_signal(p->loop, false);
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.error = on_core_error,
};

cua_result
mutter_pw_open(uint32_t node, int fd, void (*on_frame)(void *data), void *data,
	       struct mutter_pw **out)
{
	struct mutter_pw *p;
	uint8_t buffer[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
	const struct spa_pod *params[1];
	int r;

	*out = NULL;
	pw_init(NULL, NULL);
	p = calloc(1, sizeof(*p));
	if (!p)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	p->on_frame = on_frame;
	p->on_frame_data = data;
	p->loop = pw_thread_loop_new("cua-pipewire", NULL);
	if (!p->loop)
		goto fail;
	p->context = pw_context_new(pw_thread_loop_get_loop(p->loop), NULL, 0);
	if (!p->context)
		goto fail;
	if (pw_thread_loop_start(p->loop) < 0)
		goto fail;
	pw_thread_loop_lock(p->loop);
	if (fd >= 0) {
		int own = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		/* pw_context_connect_fd() takes the descriptor */
		p->core = own < 0 ? NULL :
				    pw_context_connect_fd(p->context, own, NULL,
							  0);
	} else {
		p->core = pw_context_connect(p->context, NULL, 0);
	}
	if (!p->core) {
		pw_thread_loop_unlock(p->loop);
		mutter_pw_close(p);
		if (fd >= 0)
			return cua_error(CUA_ERROR_BACKEND,
					 "the PipeWire remote the portal "
					 "opened does not answer");
		return cua_error(CUA_ERROR_BACKEND,
				 "PipeWire is not running (no pipewire-0 "
				 "socket in XDG_RUNTIME_DIR)");
	}
	pw_core_add_listener(p->core, &p->core_listener, &core_events, p);
	p->stream = pw_stream_new(
		p->core, "cua-capture",
		pw_properties_new(PW_KEY_MEDIA_TYPE, "Video",
				  PW_KEY_MEDIA_CATEGORY, "Capture",
				  PW_KEY_MEDIA_ROLE, "Screen", NULL));
	if (!p->stream) {
		pw_thread_loop_unlock(p->loop);
		goto fail;
	}
	pw_stream_add_listener(p->stream, &p->stream_listener, &stream_events,
			       p);
	params[0] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
		SPA_FORMAT_VIDEO_format,
		SPA_POD_CHOICE_ENUM_Id(
			5, SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRx,
			SPA_VIDEO_FORMAT_BGRA, SPA_VIDEO_FORMAT_RGBx,
			SPA_VIDEO_FORMAT_RGBA),
		SPA_FORMAT_VIDEO_size,
		SPA_POD_CHOICE_RANGE_Rectangle(&SPA_RECTANGLE(1280, 800),
					       &SPA_RECTANGLE(1, 1),
					       &SPA_RECTANGLE(16384, 16384)),
		SPA_FORMAT_VIDEO_framerate,
		SPA_POD_CHOICE_RANGE_Fraction(&SPA_FRACTION(30, 1),
					      &SPA_FRACTION(0, 1),
					      &SPA_FRACTION(240, 1)));
	r = pw_stream_connect(p->stream, PW_DIRECTION_INPUT, node,
			      PW_STREAM_FLAG_AUTOCONNECT |
				      PW_STREAM_FLAG_MAP_BUFFERS,
			      params, 1);
	pw_thread_loop_unlock(p->loop);
	if (r < 0) {
		mutter_pw_close(p);
		return cua_error(CUA_ERROR_BACKEND,
				 "cannot connect to PipeWire node %u: %s", node,
				 strerror(-r));
	}
	*out = p;
	return CUA_OK;
fail:
	mutter_pw_close(p);
	return cua_error(CUA_ERROR_BACKEND, "cannot set up a PipeWire stream");
}

void
mutter_pw_close(struct mutter_pw *p)
{
	if (!p)
		return;
	if (p->loop)
		pw_thread_loop_stop(p->loop);
	if (p->stream)
		pw_stream_destroy(p->stream);
	if (p->core)
		pw_core_disconnect(p->core);
	if (p->context)
		pw_context_destroy(p->context);
	if (p->loop)
		pw_thread_loop_destroy(p->loop);
	free(p->frame);
	free(p);
}

/* The channel masks of a 32-bit SPA format, little-endian memory order. */
static int
format_masks(uint32_t f, struct cua_pixels *px)
{
	switch (f) {
	case SPA_VIDEO_FORMAT_BGRx:
	case SPA_VIDEO_FORMAT_BGRA:
		px->red_mask = 0x00ff0000;
		px->green_mask = 0x0000ff00;
		px->blue_mask = 0x000000ff;
		return 1;
	case SPA_VIDEO_FORMAT_RGBx:
	case SPA_VIDEO_FORMAT_RGBA:
		px->red_mask = 0x000000ff;
		px->green_mask = 0x0000ff00;
		px->blue_mask = 0x00ff0000;
		return 1;
	default:
		return 0;
	}
}

cua_result
mutter_pw_frame(struct mutter_pw *p, int timeout_ms, uint64_t after,
		struct cua_pixels *px, uint64_t *serial)
{
	int64_t until = cua_now_us() + (int64_t)timeout_ms * 1000;
	cua_result r = CUA_OK;

	memset(px, 0, sizeof(*px));
	pw_thread_loop_lock(p->loop);
	while (!p->failed && p->serial <= after) {
		int64_t left = until - cua_now_us();
		struct timespec ts;

		if (left <= 0)
			break;
		pw_thread_loop_get_time(p->loop, &ts, left * 1000);
		pw_thread_loop_timed_wait_full(p->loop, &ts);
	}
	if (p->failed) {
		r = cua_error(CUA_ERROR_BACKEND, "%s", p->error);
	} else if (p->serial <= after || !p->frame) {
		r = cua_error(CUA_ERROR_TIMEOUT,
			      "no frame arrived from PipeWire within %d ms "
			      "(is wireplumber running?)",
			      timeout_ms);
	} else if (!format_masks(p->spa_format, px)) {
		r = cua_error(CUA_ERROR_BACKEND,
			      "PipeWire delivered frames in format %u, which "
			      "libcua does not read",
			      p->spa_format);
	} else {
		px->data = malloc((size_t)p->stride * p->height);
		if (!px->data) {
			r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		} else {
			memcpy(px->data, p->frame,
			       (size_t)p->stride * p->height);
			px->width = p->width;
			px->height = p->height;
			px->stride = p->stride;
			px->bits_per_pixel = 32;
			*serial = p->serial;
		}
	}
	pw_thread_loop_unlock(p->loop);
	return r;
}

int
mutter_pw_alive(struct mutter_pw *p, char *why, size_t size)
{
	int ok;

	pw_thread_loop_lock(p->loop);
	ok = !p->failed;
	if (!ok)
		snprintf(why, size, "%s", p->error);
	pw_thread_loop_unlock(p->loop);
	return ok;
}

int64_t
mutter_pw_first_frame_us(struct mutter_pw *p)
{
	int64_t t;

	pw_thread_loop_lock(p->loop);
	t = p->serial ? p->first_us : 0;
	pw_thread_loop_unlock(p->loop);
	return t;
}
