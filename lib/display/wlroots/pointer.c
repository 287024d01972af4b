/*
 * The virtual pointer (zwlr_virtual_pointer_v1).
 *
 * One pointer per connection, made on first use and kept. As with the
 * keyboard, events sent in the same burst as a new pointer are lost on
 * sway (3 of 5 clicks, measured); after a round trip none was. A
 * client binds its wl_pointer only when it has read the seat's new
 * capability: a busy client (gtk3-widget-factory animating its spinners
 * on a loaded machine) took over 50 ms, and every event sent before it
 * is lost to it. So the pointer is made with the connection
 * (cua_wlr_pointer_prepare) and its first event waits until
 * SETTLE_MS have passed since it was made (none when warmup_ms < 0).
 *
 * The keyboard is made first when the compositor offers one: a client
 * has keyboard focus only while the seat has a keyboard, and GTK does not
 * move its focus to a clicked entry in a window without keyboard focus,
 * so a click alone would not focus a text field.
 *
 * Positions are absolute: motion_absolute with the bounding box of the
 * outputs as the extent, which is how wlroots maps an absolute pointer
 * that is not tied to one output (the compositor scales x / x_extent to
 * the layout box). Coordinates are sent in 1/SUBPIXEL pixel units.
 * Every call ends with a frame, a flush and a round trip: when it
 * returns, the compositor has delivered the events to the client under
 * the pointer.
 *
 * Same thread and failure rules as wlr.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

#include "wlr-private.h"

#define SUBPIXEL 16
/* one wheel notch in wl_pointer.axis units */
#define AXIS_PER_STEP 15

#define SETTLE_MS 250

struct wlr_pointer {
	struct zwlr_virtual_pointer_v1 *vp;
	int64_t ready_us; /* events from then on reach every client */
	uint32_t held[8];
	size_t n_held;
};

void
wlr_pointer_forget(struct cua_wlr *w)
{
	if (!w->ptr)
		return;
	if (w->ptr->vp)
		wl_proxy_destroy((struct wl_proxy *)w->ptr->vp);
	free(w->ptr);
	w->ptr = NULL;
}

static void
release_all(struct wlr_pointer *p)
{
	if (p->n_held == 0)
		return;
	while (p->n_held > 0)
		zwlr_virtual_pointer_v1_button(
			p->vp, wlr_time_ms(), p->held[--p->n_held],
			WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_virtual_pointer_v1_frame(p->vp);
}

void
wlr_pointer_destroy(struct cua_wlr *w)
{
	if (!w->ptr)
		return;
	if (w->ptr->vp) {
		release_all(w->ptr);
		zwlr_virtual_pointer_v1_destroy(w->ptr->vp);
		w->ptr->vp = NULL;
	}
	wlr_pointer_forget(w);
}

/* Makes the pointer (and the keyboard before it) without waiting. */
static cua_result
pointer_make(struct cua_wlr *w)
{
	int ms = w->opt.warmup_ms < 0         ? 0 :
		 w->opt.warmup_ms > SETTLE_MS ? w->opt.warmup_ms :
						SETTLE_MS;
	cua_result r = cua_wlr_ensure(w);

	if (r != CUA_OK)
		return r;
	if (w->reason[CUA_WLR_POINTER][0])
		return cua_error(CUA_ERROR_UNSUPPORTED, "no pointer input: %s",
				 w->reason[CUA_WLR_POINTER]);
	if (w->ptr)
		return CUA_OK;
	/* both made before one round trip and one warm-up */
	if (!w->kb && !w->reason[CUA_WLR_KEYBOARD][0]) {
		r = wlr_keyboard_make(w, 0);
		if (r != CUA_OK)
			return r;
	}
	w->ptr = calloc(1, sizeof(*w->ptr));
	if (!w->ptr)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	w->ptr->vp = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(
		w->vp_manager, w->seat);
	w->ptr->ready_us = cua_now_us() + (int64_t)ms * 1000;
	return cua_wlr_roundtrip(w);
}

cua_result
cua_wlr_pointer_prepare(struct cua_wlr *w)
{
	return pointer_make(w);
}

static cua_result
pointer_ready(struct cua_wlr *w)
{
	cua_result r = pointer_make(w);
	int64_t wait;

	if (r != CUA_OK)
		return r;
	wait = w->ptr->ready_us - cua_now_us();
	if (wait > 0) {
		struct timespec ts = { (time_t)(wait / 1000000),
				       (long)(wait % 1000000) * 1000L };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	return CUA_OK;
}

/* Queues a motion to (x, y) after checking it is on an output. */
static cua_result
queue_motion(struct cua_wlr *w, double x, double y)
{
	struct cua_rect box;
	cua_result r = cua_wlr_layout(w, &box);

	if (r != CUA_OK)
		return r;
	if (!isfinite(x) || !isfinite(y) || x < box.x || y < box.y ||
	    x >= (double)box.x + box.w || y >= (double)box.y + box.h)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "the point (%.1f, %.1f) is outside the "
				 "screen, which spans %d,%d to %d,%d",
				 isfinite(x) ? x : -1.0, isfinite(y) ? y : -1.0,
				 box.x, box.y, box.x + box.w - 1,
				 box.y + box.h - 1);
	/* on no output (a hole in an L-shaped layout) the compositor would
	 * move to the nearest output instead */
	if (!wlr_output_at(w, (int32_t)floor(x), (int32_t)floor(y)))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "the point (%.1f, %.1f) is on no output", x,
				 y);
	zwlr_virtual_pointer_v1_motion_absolute(
		w->ptr->vp, wlr_time_ms(),
		(uint32_t)lround((x - box.x) * SUBPIXEL),
		(uint32_t)lround((y - box.y) * SUBPIXEL),
		(uint32_t)box.w * SUBPIXEL, (uint32_t)box.h * SUBPIXEL);
	zwlr_virtual_pointer_v1_frame(w->ptr->vp);
	return CUA_OK;
}

static void
queue_button(struct wlr_pointer *p, uint32_t button, int pressed)
{
	if (pressed) {
		for (size_t i = 0; i < p->n_held; i++)
			if (p->held[i] == button)
				return; /* held already */
		if (p->n_held == sizeof(p->held) / sizeof(p->held[0]))
			return;
		p->held[p->n_held++] = button;
	} else {
		size_t i;

		for (i = 0; i < p->n_held && p->held[i] != button; i++)
			;
		if (i < p->n_held) {
			memmove(p->held + i, p->held + i + 1,
				(p->n_held - i - 1) * sizeof(p->held[0]));
			p->n_held--;
		}
	}
	zwlr_virtual_pointer_v1_button(
		p->vp, wlr_time_ms(), button,
		pressed ? WL_POINTER_BUTTON_STATE_PRESSED :
			  WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_virtual_pointer_v1_frame(p->vp);
}

static cua_result
check_button(uint32_t button)
{
	/* BTN_MOUSE .. BTN_TASK: the mouse buttons */
	if (button < 0x110 || button > 0x117)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "%u is not a mouse button code (0x110 left, "
				 "0x111 right, 0x112 middle ... 0x117)",
				 button);
	return CUA_OK;
}

/* Sends what is queued and waits for the compositor; on failure buttons
 * held are released if the connection still stands. */
static cua_result
finish(struct cua_wlr *w, cua_result r)
{
	if (r == CUA_OK)
		r = cua_wlr_roundtrip(w);
	if (r != CUA_OK && w->dpy && w->ptr) {
		cua_result e;

		release_all(w->ptr);
		e = wlr_flush(w);
		(void)e;
	}
	return r;
}

cua_result
cua_wlr_pointer_move(struct cua_wlr *w, double x, double y)
{
	cua_result r = pointer_ready(w);

	if (r != CUA_OK)
		return r;
	return finish(w, queue_motion(w, x, y));
}

cua_result
cua_wlr_pointer_button(struct cua_wlr *w, uint32_t button, int pressed)
{
	cua_result r = check_button(button);

	if (r == CUA_OK)
		r = pointer_ready(w);
	if (r != CUA_OK)
		return r;
	queue_button(w->ptr, button, pressed);
	return finish(w, CUA_OK);
}

cua_result
cua_wlr_pointer_click(struct cua_wlr *w, double x, double y, uint32_t button,
		      int count)
{
	cua_result r = check_button(button);

	if (r == CUA_OK && (count < 1 || count > 3))
		r = cua_error(CUA_ERROR_INVALID_ARGUMENT,
			      "a click is 1 to 3 presses, not %d", count);
	if (r == CUA_OK)
		r = pointer_ready(w);
	if (r == CUA_OK)
		r = queue_motion(w, x, y);
	if (r != CUA_OK)
		return r;
	for (int i = 0; i < count; i++) {
		queue_button(w->ptr, button, 1);
		queue_button(w->ptr, button, 0);
	}
	return finish(w, CUA_OK);
}

static void
queue_axis(struct wlr_pointer *p, uint32_t axis, int steps)
{
	zwlr_virtual_pointer_v1_axis_source(p->vp,
					    WL_POINTER_AXIS_SOURCE_WHEEL);
	zwlr_virtual_pointer_v1_axis_discrete(
		p->vp, wlr_time_ms(), axis,
		wl_fixed_from_int(steps * AXIS_PER_STEP), steps);
	zwlr_virtual_pointer_v1_frame(p->vp);
}

cua_result
cua_wlr_pointer_scroll(struct cua_wlr *w, int dx, int dy)
{
	cua_result r;

	if (dx < -1000 || dx > 1000 || dy < -1000 || dy > 1000)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "at most 1000 wheel steps at once (got %d, "
				 "%d)",
				 dx, dy);
	r = pointer_ready(w);
	if (r != CUA_OK)
		return r;
	/* one notch per frame, as a wheel sends them; flushed now and
	 * then (libwayland's buffer holds 4 KiB) */
	for (int i = 0; r == CUA_OK && i < abs(dy) + abs(dx); i++) {
		if (i < abs(dy))
			queue_axis(w->ptr, WL_POINTER_AXIS_VERTICAL_SCROLL,
				   dy > 0 ? 1 : -1);
		else
			queue_axis(w->ptr, WL_POINTER_AXIS_HORIZONTAL_SCROLL,
				   dx > 0 ? 1 : -1);
		if (i % 32 == 31)
			r = wlr_flush(w);
	}
	return finish(w, r);
}
