/*
 * Damage watches: whether anything was drawn on an output under a captured
 * region since the capture (docs/screenshots.md §2.1).
 *
 * zwlr_screencopy_frame_v1.copy_with_damage (version 2) completes only
 * once the output has damage: wlroots keeps the damage of each output per
 * screencopy manager instance, from that instance's last with-damage copy
 * on, and sends its extents before `ready`. A watch is such a frame of
 * the captured region, left pending:
 *
 *  - A stamped capture (cua_wlr_capture_watched) makes a with-damage frame
 *    D of the region on the watch's own manager instance just before the
 *    capture's plain frame P; their copy requests leave together, D's
 *    first, so D's events of a commit come before P's. When the output had
 *    damage since the instance's last with-damage copy, D completes on
 *    P's commit (`ready` gives both the same time), and that copy clears
 *    the record: D is made again at once. Otherwise D stays pending.
 *    Either way what waits now completes only on damage committed after
 *    the captured pixels, and the capture gets a new stamp. D completed
 *    on a later commit than P's (a change right after the capture): no
 *    stamp.
 *  - A check (cua_wlr_unchanged) first makes the compositor repaint what
 *    is pending (a client's new buffer reaches the output only at its next
 *    repaint) with a plain copy of one pixel of the output, and waits for
 *    it: any damage pending is drawn in that commit, and the watch's
 *    events of that commit come before the copy's. Still pending then:
 *    nothing was drawn on the output since the capture.
 *
 * Damage elsewhere on the output (another window, a title bar) leaves the
 * region unchanged: a frame that completed with damage outside the region
 * (in output buffer pixels, and in the frame's own pixels, for a
 * compositor that counts from the region) is made again at the next
 * check; the instance keeps what came in between.
 *
 * Each watch has a manager instance of its own, since a with-damage copy
 * clears its instance's record for every other frame of the instance.
 * There are WATCH_MAX watches, least recently used replaced first; a
 * replaced or dropped watch's stamp is no longer known, so its region is
 * captured again.
 *
 * Memory: each watch keeps shared memory of its region's size for its
 * frames, which the compositor writes when a frame completes (once per
 * change of the output, at most once per capture or check); it is kept,
 * as the capture's own is, so that the pages are not made anew each time
 * (that cost the compositor tens of milliseconds per 1280 x 800 frame on
 * a loaded machine). At most WATCH_MAX regions' worth, freed with the
 * connection.
 *
 * What else makes a stamp unknown (the region is captured): the output
 * changed (mode, scale, transform, place) or went away, the connection
 * was dropped (the compositor restarted), a frame failed, the region is
 * another one, a compositor without copy_with_damage (version 1).
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

#define WATCH_MAX 4

enum watch_state {
	W_IDLE = 0, /* no frame */
	W_OFFER,    /* frame made, its buffer parameters awaited */
	W_ARMED,    /* copy_with_damage sent, waiting for damage */
	W_FIRED,    /* completed: the output had damage */
	W_FAILED,   /* the compositor failed the frame */
};

struct wlr_watch {
	struct cua_wlr *w;
	struct zwlr_screencopy_manager_v1 *mgr; /* this watch's instance */
	struct zwlr_screencopy_frame_v1 *frame;
	enum watch_state state;
	int settled; /* state is no longer W_OFFER */
	/* its copy request waits for the capture's (wlr_watch_release) */
	int hold, offered;

	/* what is watched */
	struct wlr_output *output;  /* NULL: none */
	struct cua_wlr_output info; /* the output as it was */
	struct cua_rect box;        /* the region, global logical */
	uint64_t stamp;
	uint64_t used; /* LRU: larger is newer */
	/* damage the frame reported hits the region */
	int hit;
	uint64_t when_ns; /* its `ready` time */

	/* the offer of the frame in flight, and the buffer kept */
	int have_shm;
	uint32_t format, width, height, stride;
	uint32_t b_format, b_width, b_height, b_stride;
	int fd;
	uint8_t *mem;
	size_t mem_size;
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;
};

struct wlr_watches {
	struct wlr_watch k[WATCH_MAX];
	uint64_t clock;
};

static uint64_t stamp_seq;

static uint64_t
next_stamp(void)
{
	return __atomic_add_fetch(&stamp_seq, 1, __ATOMIC_SEQ_CST);
}

static void
watch_free_memory(struct wlr_watch *k)
{
	if (k->buffer)
		wl_proxy_destroy((struct wl_proxy *)k->buffer);
	if (k->pool)
		wl_proxy_destroy((struct wl_proxy *)k->pool);
	if (k->mem)
		munmap(k->mem, k->mem_size);
	if (k->fd >= 0)
		close(k->fd);
	k->buffer = NULL;
	k->pool = NULL;
	k->mem = NULL;
	k->mem_size = 0;
	k->fd = -1;
}

/* Ends the frame (the compositor is told when `tell`); the watch keeps
 * its instance and memory and forgets its stamp. */
static void
watch_end(struct wlr_watch *k, int tell)
{
	if (k->frame) {
		if (tell)
			zwlr_screencopy_frame_v1_destroy(k->frame);
		else
			wl_proxy_destroy((struct wl_proxy *)k->frame);
	}
	k->frame = NULL;
	k->state = W_IDLE;
	k->settled = 1;
	k->hold = k->offered = 0;
	k->stamp = 0;
	k->hit = 0;
}

void
wlr_watch_forget(struct cua_wlr *w)
{
	struct wlr_watches *ws = w->watch;

	if (!ws)
		return;
	for (size_t i = 0; i < WATCH_MAX; i++) {
		watch_end(&ws->k[i], 0);
		watch_free_memory(&ws->k[i]);
		if (ws->k[i].mgr)
			wl_proxy_destroy((struct wl_proxy *)ws->k[i].mgr);
	}
	free(ws);
	w->watch = NULL;
}

void
wlr_watch_output_gone(struct cua_wlr *w, struct wlr_output *o)
{
	struct wlr_watches *ws = w->watch;

	for (size_t i = 0; ws && i < WATCH_MAX; i++)
		if (ws->k[i].output == o) {
			watch_end(&ws->k[i], 1);
			watch_free_memory(&ws->k[i]);
			ws->k[i].output = NULL;
		}
}

/* ---- the frame's events ---------------------------------------------- */

/* A wl_buffer of the offered parameters, on memory kept from earlier
 * frames when it is large enough. */
static int
prepare_buffer(struct wlr_watch *k)
{
	size_t need = (size_t)k->stride * k->height;

	if (k->buffer && k->b_format == k->format && k->b_width == k->width &&
	    k->b_height == k->height && k->b_stride == k->stride)
		return 0;
	if (k->buffer)
		wl_proxy_destroy((struct wl_proxy *)k->buffer);
	k->buffer = NULL;
	if (need > k->mem_size) {
		watch_free_memory(k);
		k->fd = memfd_create("cua-watch", MFD_CLOEXEC);
		if (k->fd < 0 || ftruncate(k->fd, (off_t)need) < 0)
			return -1;
		k->mem = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED,
			      k->fd, 0);
		if (k->mem == MAP_FAILED) {
			k->mem = NULL;
			return -1;
		}
		k->mem_size = need;
		k->pool = wl_shm_create_pool(k->w->shm, k->fd, (int32_t)need);
	}
	k->buffer = wl_shm_pool_create_buffer(k->pool, 0, (int32_t)k->width,
					      (int32_t)k->height,
					      (int32_t)k->stride, k->format);
	k->b_format = k->format;
	k->b_width = k->width;
	k->b_height = k->height;
	k->b_stride = k->stride;
	return 0;
}

/* The buffer parameters are known: copy when damaged. */
static void
watch_copy(struct wlr_watch *k)
{
	if (k->state != W_OFFER)
		return;
	if (k->hold) {
		k->offered = 1;
		return;
	}
	if (!k->have_shm || k->width == 0 || k->height == 0 ||
	    k->stride < k->width * 4 || prepare_buffer(k) < 0) {
		watch_free_memory(k);
		k->state = W_FAILED;
		k->settled = 1;
		return;
	}
	zwlr_screencopy_frame_v1_copy_with_damage(k->frame, k->buffer);
	k->state = W_ARMED;
	k->settled = 1;
}

static void
watch_buffer(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t format,
	     uint32_t width, uint32_t height, uint32_t stride)
{
	struct wlr_watch *k = data;

	if (!k->have_shm) {
		k->have_shm = 1;
		k->format = format;
		k->width = width;
		k->height = height;
		k->stride = stride;
	}
	if (k->w->screencopy_version < 3)
		watch_copy(k);
}

static void
watch_buffer_done(void *data, struct zwlr_screencopy_frame_v1 *f)
{
	watch_copy(data);
}

static void
watch_flags(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t flags)
{
}

static int
overlaps(int64_t ax, int64_t ay, int64_t aw, int64_t ah, int64_t bx, int64_t by,
	 int64_t bw, int64_t bh)
{
	return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
}

/* Damage (x, y, width, height): wlroots counts in the output's buffer
 * pixels; a compositor might count from the region, in the frame's own
 * pixels. It hits the region when either reading puts it there. */
static void
watch_damage(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t x,
	     uint32_t y, uint32_t width, uint32_t height)
{
	struct wlr_watch *k = data;
	int64_t s = k->info.scale > 0 ? k->info.scale : 1;

	if (width == 0 || height == 0)
		return;
	if (overlaps(x, y, width, height, (k->box.x - k->info.rect.x) * s,
		     (k->box.y - k->info.rect.y) * s, k->box.w * s,
		     k->box.h * s) ||
	    overlaps(x, y, width, height, 0, 0, k->width, k->height))
		k->hit = 1;
}

static void
watch_ready(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t sec_hi,
	    uint32_t sec_lo, uint32_t nsec)
{
	struct wlr_watch *k = data;

	/* (the pixels the compositor wrote are not read) */
	zwlr_screencopy_frame_v1_destroy(k->frame);
	k->frame = NULL;
	k->when_ns = wlr_frame_time_ns(sec_hi, sec_lo, nsec);
	k->state = W_FIRED;
	k->settled = 1;
}

static void
watch_failed(void *data, struct zwlr_screencopy_frame_v1 *f)
{
	struct wlr_watch *k = data;

	zwlr_screencopy_frame_v1_destroy(k->frame);
	k->frame = NULL;
	k->state = W_FAILED;
	k->settled = 1;
}

static void
watch_dmabuf(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t format,
	     uint32_t width, uint32_t height)
{
}

static const struct zwlr_screencopy_frame_v1_listener watch_listener = {
	.buffer = watch_buffer,
	.flags = watch_flags,
	.ready = watch_ready,
	.failed = watch_failed,
	.damage = watch_damage,
	.linux_dmabuf = watch_dmabuf,
	.buffer_done = watch_buffer_done,
};

void
wlr_watch_release(struct cua_wlr *w)
{
	struct wlr_watches *ws = w->watch;

	for (size_t i = 0; ws && i < WATCH_MAX; i++) {
		struct wlr_watch *k = &ws->k[i];

		if (!k->hold)
			continue;
		k->hold = 0;
		if (k->offered)
			watch_copy(k);
	}
}

/* ---- arming ---------------------------------------------------------- */

/* Makes the watch's with-damage frame of its box; its copy request goes
 * out once the buffer parameters arrive, with `hold` not before the
 * capture's (wlr_watch_release). 0, or -1 with nothing made. */
static int
watch_arm(struct wlr_watch *k, int hold)
{
	struct cua_wlr *w = k->w;
	const struct cua_rect *o = &k->info.rect;

	watch_end(k, 1);
	if (!k->mgr) {
		k->mgr = wl_registry_bind(w->registry, w->screencopy_name,
					  &zwlr_screencopy_manager_v1_interface,
					  w->screencopy_version);
		if (!k->mgr)
			return -1;
	}
	k->have_shm = 0;
	k->hold = hold;
	k->offered = 0;
	k->frame = zwlr_screencopy_manager_v1_capture_output_region(
		k->mgr, 0, k->output->wl, k->box.x - o->x, k->box.y - o->y,
		k->box.w, k->box.h);
	if (!k->frame)
		return -1;
	zwlr_screencopy_frame_v1_add_listener(k->frame, &watch_listener, k);
	k->state = W_OFFER;
	k->settled = 0;
	return 0;
}

static int
same_output(const struct cua_wlr_output *a, const struct cua_wlr_output *b)
{
	return a->rect.x == b->rect.x && a->rect.y == b->rect.y &&
	       a->rect.w == b->rect.w && a->rect.h == b->rect.h &&
	       a->width == b->width && a->height == b->height &&
	       a->scale == b->scale && a->transform == b->transform &&
	       strcmp(a->name, b->name) == 0;
}

static int
same_box(const struct cua_rect *a, const struct cua_rect *b)
{
	return a->x == b->x && a->y == b->y && a->w == b->w && a->h == b->h;
}

/* The output that holds all of `r`, untransformed; NULL when none. */
static struct wlr_output *
holding_output(struct cua_wlr *w, const struct cua_rect *r)
{
	struct wlr_output *o;

	wl_list_for_each(o, &w->outputs, link)
	{
		const struct cua_rect *q = &o->info.rect;

		if (r->x >= q->x && r->y >= q->y &&
		    r->x + r->w <= q->x + q->w && r->y + r->h <= q->y + q->h)
			return o->info.transform == WL_OUTPUT_TRANSFORM_NORMAL ?
				       o :
				       NULL;
	}
	return NULL;
}

/* The watch for a capture of `r`: the one that watched it, else the least
 * recently used; its frame made. Its index, or -1. */
static int
watch_start(struct cua_wlr *w, const struct cua_rect *r)
{
	struct wlr_output *o;
	struct wlr_watches *ws;
	struct wlr_watch *k = NULL;

	if (w->screencopy_version < 2 || !w->screencopy_name || !w->shm ||
	    r->w <= 0 || r->h <= 0 || !(o = holding_output(w, r)))
		return -1;
	if (!w->watch) {
		w->watch = calloc(1, sizeof(*w->watch));
		if (!w->watch)
			return -1;
		for (size_t i = 0; i < WATCH_MAX; i++) {
			w->watch->k[i].w = w;
			w->watch->k[i].fd = -1;
			w->watch->k[i].settled = 1;
		}
	}
	ws = w->watch;
	for (size_t i = 0; i < WATCH_MAX && !k; i++)
		if (ws->k[i].output == o && same_box(&ws->k[i].box, r))
			k = &ws->k[i];
	for (size_t i = 0; i < WATCH_MAX && !k; i++)
		if (!ws->k[i].output)
			k = &ws->k[i];
	if (!k) {
		k = &ws->k[0];
		for (size_t i = 1; i < WATCH_MAX; i++)
			if (ws->k[i].used < k->used)
				k = &ws->k[i];
	}
	k->output = o;
	k->info = o->info;
	k->box = *r;
	k->used = ++ws->clock;
	if (watch_arm(k, 1) < 0) {
		watch_end(k, 1);
		k->output = NULL;
		return -1;
	}
	return (int)(k - ws->k);
}

/* Watch i after a dispatch, or NULL when the connection was dropped. */
static struct wlr_watch *
watch_at(struct cua_wlr *w, int i)
{
	return w->dpy && w->watch && i >= 0 ? &w->watch->k[i] : NULL;
}

/* Waits until watch i's copy request went out (or it ended). */
static cua_result
watch_settle(struct cua_wlr *w, int i)
{
	struct wlr_watch *k = watch_at(w, i);

	if (!k || k->settled)
		return CUA_OK;
	return wlr_dispatch_until(w, &k->settled, w->opt.timeout_ms,
				  "watching the screen for changes");
}

cua_result
cua_wlr_capture_watched(struct cua_wlr *w, const struct cua_rect *rect,
			struct cua_wlr_shot *out, uint64_t *stamp)
{
	struct wlr_watch *k;
	int i = -1;
	cua_result r;

	*stamp = 0;
	memset(out, 0, sizeof(*out));
	r = cua_wlr_ensure(w);
	if (r != CUA_OK)
		return r;
	if (rect && !w->reason[CUA_WLR_CAPTURE][0])
		i = watch_start(w, rect);
	r = cua_wlr_capture(w, rect, 0, out);
	if (r != CUA_OK || i < 0) {
		if ((k = watch_at(w, i)))
			watch_end(k, 1);
		return r;
	}
	k = watch_at(w, i);
	if (!k || k->state == W_OFFER || k->state == W_IDLE ||
	    (k->state == W_FIRED && k->when_ns > out->when_ns)) {
		/* D completed on a later commit than the capture's (a
		 * change after the pixels), or it was not sent in time */
		if (k)
			watch_end(k, 1);
		return CUA_OK;
	}
	/* D completed on the capture's commit (damage before it), or
	 * failed: what waits for damage after the capture is made now */
	if (k->state == W_FIRED || k->state == W_FAILED) {
		if (watch_arm(k, 0) < 0 || watch_settle(w, i) != CUA_OK)
			goto lost;
	}
	k = watch_at(w, i);
	if (k && k->state == W_ARMED) {
		k->stamp = next_stamp();
		k->hit = 0;
		*stamp = k->stamp;
	}
	return CUA_OK;
lost:
	/* the pixels are good; only the watch is not */
	cua_error_clear();
	if ((k = watch_at(w, i)))
		watch_end(k, 1);
	return CUA_OK;
}

cua_result
cua_wlr_unchanged(struct cua_wlr *w, const struct cua_rect *rect,
		  uint64_t stamp, int *unchanged)
{
	struct wlr_watch *k = NULL;
	struct wlr_output *o;
	struct cua_wlr_shot one;
	struct cua_rect px;
	int i = -1, found = 0;
	cua_result r;

	*unchanged = 0;
	r = cua_wlr_ensure(w);
	if (r != CUA_OK)
		return r;
	if (!stamp || !w->watch)
		return CUA_OK;
	for (i = 0; i < WATCH_MAX; i++)
		if (w->watch->k[i].stamp == stamp) {
			k = &w->watch->k[i];
			break;
		}
	if (!k || !k->output || !same_box(&k->box, rect))
		return CUA_OK;
	wl_list_for_each(o, &w->outputs, link) found |= o == k->output;
	if (!found || !same_output(&k->info, &k->output->info))
		return CUA_OK;
	if (k->state == W_FIRED && !k->hit) {
		/* damaged elsewhere: watch again (what came since is kept) */
		if (watch_arm(k, 0) < 0) {
			watch_end(k, 1);
			return CUA_OK;
		}
		k->stamp = stamp;
		r = watch_settle(w, i);
		if (r != CUA_OK)
			return r;
		k = watch_at(w, i);
	}
	if (!k || k->state != W_ARMED)
		return CUA_OK;
	/* the repaint of what is pending, and its commit's events (and the
	 * output changes the compositor sent: the capture reads them) */
	px.x = k->output->info.rect.x;
	px.y = k->output->info.rect.y;
	px.w = px.h = 1;
	r = cua_wlr_capture(w, &px, 0, &one);
	if (r != CUA_OK)
		return r;
	free(one.px.data);
	k = watch_at(w, i);
	*unchanged = k && k->stamp == stamp && k->output &&
		     same_output(&k->info, &k->output->info) &&
		     (k->state == W_ARMED || (k->state == W_FIRED && !k->hit));
	return CUA_OK;
}
