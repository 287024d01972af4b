/*
 * The Wayland connection of the wlroots building blocks: connect, bind the
 * globals, keep the output list, wait for the compositor with a deadline,
 * drop the connection on failure and connect again on the next call.
 *
 * libwayland's own wl_display_roundtrip() and wl_display_dispatch() wait
 * without limit; everything here waits with poll() and a deadline
 * instead, and reads events with the prepare_read / read_events protocol,
 * so that a compositor that stops answering costs a call at most its
 * timeout. libwayland (1.21) treats a full socket while it queues a
 * request as fatal, so long runs of requests are flushed by the caller
 * (wlr_flush(), which waits for the socket to drain).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <wayland-client.h>

#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"

#include "sway-ipc.h"
#include "wlr-private.h"

#define DEFAULT_TIMEOUT_MS 1000
#define DEFAULT_CAPTURE_TIMEOUT_MS 2500
#define DEFAULT_KEYMAP_DELAY_MS 50
#define DEFAULT_WARMUP_MS 50

const char *const cua_wlr_interface_name[CUA_WLR_N_FEATURES] = {
	[CUA_WLR_KEYBOARD] = "zwp_virtual_keyboard_manager_v1",
	[CUA_WLR_POINTER] = "zwlr_virtual_pointer_manager_v1",
	[CUA_WLR_CAPTURE] = "zwlr_screencopy_manager_v1",
	[CUA_WLR_TOPLEVELS] = "zwlr_foreign_toplevel_manager_v1",
	[CUA_WLR_GEOMETRY] = "sway IPC",
};

static const char *const feature_name[CUA_WLR_N_FEATURES] = {
	[CUA_WLR_KEYBOARD] = "keyboard", [CUA_WLR_POINTER] = "pointer",
	[CUA_WLR_CAPTURE] = "capture",   [CUA_WLR_TOPLEVELS] = "toplevels",
	[CUA_WLR_GEOMETRY] = "geometry",
};

static const char *const protocol_phrase[CUA_WLR_N_FEATURES] = {
	[CUA_WLR_KEYBOARD] = "the virtual keyboard protocol",
	[CUA_WLR_POINTER] = "the wlroots virtual pointer protocol",
	[CUA_WLR_CAPTURE] = "the wlroots screencopy protocol",
	[CUA_WLR_TOPLEVELS] =
		"the wlroots foreign toplevel management protocol",
	[CUA_WLR_GEOMETRY] = "",
};

void
cua_wlr_options_default(struct cua_wlr_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->timeout_ms = DEFAULT_TIMEOUT_MS;
	opt->capture_timeout_ms = DEFAULT_CAPTURE_TIMEOUT_MS;
	opt->keymap_delay_ms = DEFAULT_KEYMAP_DELAY_MS;
	opt->warmup_ms = DEFAULT_WARMUP_MS;
}

const char *
cua_wlr_feature_name(enum cua_wlr_feature f)
{
	return f < CUA_WLR_N_FEATURES ? feature_name[f] : "?";
}

uint32_t
wlr_time_ms(void)
{
	return (uint32_t)(cua_now_us() / 1000);
}

/* ---- outputs ------------------------------------------------------- */

static void
output_update_rect(struct wlr_output *o)
{
	int32_t s = o->info.scale > 0 ? o->info.scale : 1;

	if (o->have_logical)
		return;
	/* no xdg-output: the mode in logical pixels at 0,0 (the only place
	 * wl_output can say for sure) */
	if (o->info.transform % 2) {
		o->info.rect.w = o->info.height / s;
		o->info.rect.h = o->info.width / s;
	} else {
		o->info.rect.w = o->info.width / s;
		o->info.rect.h = o->info.height / s;
	}
}

static void
wl_output_geometry(void *data, struct wl_output *wl, int32_t x, int32_t y,
		   int32_t pw, int32_t ph, int32_t subpixel, const char *make,
		   const char *model, int32_t transform)
{
	struct wlr_output *o = data;

	o->info.transform = transform;
	output_update_rect(o);
}

static void
wl_output_mode(void *data, struct wl_output *wl, uint32_t flags, int32_t w,
	       int32_t h, int32_t refresh)
{
	struct wlr_output *o = data;

	if (flags & WL_OUTPUT_MODE_CURRENT) {
		o->info.width = w;
		o->info.height = h;
		output_update_rect(o);
	}
}

static void
wl_output_done(void *data, struct wl_output *wl)
{
}

static void
wl_output_scale(void *data, struct wl_output *wl, int32_t factor)
{
	struct wlr_output *o = data;

	o->info.scale = factor;
	output_update_rect(o);
}

static void
wl_output_name(void *data, struct wl_output *wl, const char *name)
{
	struct wlr_output *o = data;

	snprintf(o->info.name, sizeof(o->info.name), "%s", name);
}

static void
wl_output_description(void *data, struct wl_output *wl, const char *d)
{
}

static const struct wl_output_listener output_listener = {
	.geometry = wl_output_geometry,
	.mode = wl_output_mode,
	.done = wl_output_done,
	.scale = wl_output_scale,
	.name = wl_output_name,
	.description = wl_output_description,
};

static void
xdg_output_position(void *data, struct zxdg_output_v1 *x, int32_t px,
		    int32_t py)
{
	struct wlr_output *o = data;

	o->have_logical = 1;
	o->info.rect.x = px;
	o->info.rect.y = py;
}

static void
xdg_output_size(void *data, struct zxdg_output_v1 *x, int32_t w, int32_t h)
{
	struct wlr_output *o = data;

	o->have_logical = 1;
	o->info.rect.w = w;
	o->info.rect.h = h;
}

static void
xdg_output_done(void *data, struct zxdg_output_v1 *x)
{
}

static void
xdg_output_name(void *data, struct zxdg_output_v1 *x, const char *name)
{
	struct wlr_output *o = data;

	if (!o->info.name[0])
		snprintf(o->info.name, sizeof(o->info.name), "%s", name);
}

static void
xdg_output_description(void *data, struct zxdg_output_v1 *x, const char *d)
{
}

static const struct zxdg_output_v1_listener xdg_output_listener = {
	.logical_position = xdg_output_position,
	.logical_size = xdg_output_size,
	.done = xdg_output_done,
	.name = xdg_output_name,
	.description = xdg_output_description,
};

static void
output_start_xdg(struct cua_wlr *w, struct wlr_output *o)
{
	if (!w->xdg_output_manager || o->xdg)
		return;
	o->xdg = zxdg_output_manager_v1_get_xdg_output(w->xdg_output_manager,
						       o->wl);
	zxdg_output_v1_add_listener(o->xdg, &xdg_output_listener, o);
}

static void
output_free(struct wlr_output *o)
{
	wl_list_remove(&o->link);
	if (o->xdg)
		wl_proxy_destroy((struct wl_proxy *)o->xdg);
	wl_proxy_destroy((struct wl_proxy *)o->wl);
	free(o);
}

struct wlr_output *
wlr_output_at(struct cua_wlr *w, int32_t x, int32_t y)
{
	struct wlr_output *o;

	wl_list_for_each(o, &w->outputs, link)
	{
		const struct cua_rect *r = &o->info.rect;

		if (x >= r->x && y >= r->y && x < r->x + r->w &&
		    y < r->y + r->h)
			return o;
	}
	return NULL;
}

size_t
cua_wlr_outputs(struct cua_wlr *w, struct cua_wlr_output *out, size_t max)
{
	struct wlr_output *o;
	size_t n = 0;

	if (!w->dpy)
		return 0;
	wl_list_for_each_reverse(o, &w->outputs, link)
	{
		if (n < max)
			out[n] = o->info;
		n++;
	}
	return n;
}

cua_result
cua_wlr_layout(struct cua_wlr *w, struct cua_rect *box)
{
	struct wlr_output *o;
	int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
	int any = 0;
	cua_result r = cua_wlr_ensure(w);

	if (r != CUA_OK)
		return r;
	wl_list_for_each(o, &w->outputs, link)
	{
		const struct cua_rect *q = &o->info.rect;

		if (q->w <= 0 || q->h <= 0)
			continue;
		if (!any || q->x < x0)
			x0 = q->x;
		if (!any || q->y < y0)
			y0 = q->y;
		if (!any || q->x + q->w > x1)
			x1 = q->x + q->w;
		if (!any || q->y + q->h > y1)
			y1 = q->y + q->h;
		any = 1;
	}
	if (!any)
		return cua_error(CUA_ERROR_BACKEND,
				 "the Wayland compositor at '%s' has no output "
				 "(no wl_output with a current mode)",
				 w->display_name);
	box->x = x0;
	box->y = y0;
	box->w = x1 - x0;
	box->h = y1 - y0;
	return CUA_OK;
}

/* ---- registry ------------------------------------------------------- */

static int
skipped(struct cua_wlr *w, enum cua_wlr_feature f)
{
	return (w->opt.skip >> f) & 1;
}

static uint32_t
min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void
registry_global(void *data, struct wl_registry *reg, uint32_t name,
		const char *iface, uint32_t version)
{
	struct cua_wlr *w = data;

	if (strcmp(iface, wl_shm_interface.name) == 0 && !w->shm) {
		w->shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	} else if (strcmp(iface, wl_seat_interface.name) == 0 && !w->seat) {
		w->seat = wl_registry_bind(reg, name, &wl_seat_interface, 1);
	} else if (strcmp(iface, wl_output_interface.name) == 0) {
		struct wlr_output *o = calloc(1, sizeof(*o));

		if (!o)
			return;
		o->global = name;
		o->info.scale = 1;
		o->wl = wl_registry_bind(reg, name, &wl_output_interface,
					 min_u32(version, 4));
		wl_output_add_listener(o->wl, &output_listener, o);
		wl_list_insert(&w->outputs, &o->link);
		output_start_xdg(w, o);
	} else if (strcmp(iface, zxdg_output_manager_v1_interface.name) == 0 &&
		   !w->xdg_output_manager) {
		struct wlr_output *o;

		w->xdg_output_manager = wl_registry_bind(
			reg, name, &zxdg_output_manager_v1_interface,
			min_u32(version, 3));
		wl_list_for_each(o, &w->outputs, link) output_start_xdg(w, o);
	} else if (strcmp(iface, cua_wlr_interface_name[CUA_WLR_KEYBOARD]) ==
		   0) {
		if (!skipped(w, CUA_WLR_KEYBOARD) && !w->vk_manager)
			w->vk_manager = wl_registry_bind(
				reg, name,
				&zwp_virtual_keyboard_manager_v1_interface, 1);
	} else if (strcmp(iface, cua_wlr_interface_name[CUA_WLR_POINTER]) ==
		   0) {
		if (!skipped(w, CUA_WLR_POINTER) && !w->vp_manager) {
			w->vp_manager_version = min_u32(version, 2);
			w->vp_manager = wl_registry_bind(
				reg, name,
				&zwlr_virtual_pointer_manager_v1_interface,
				w->vp_manager_version);
		}
	} else if (strcmp(iface, cua_wlr_interface_name[CUA_WLR_CAPTURE]) ==
		   0) {
		if (!skipped(w, CUA_WLR_CAPTURE) && !w->screencopy) {
			w->screencopy_version = min_u32(version, 3);
			w->screencopy_name = name;
			w->screencopy = wl_registry_bind(
				reg, name,
				&zwlr_screencopy_manager_v1_interface,
				w->screencopy_version);
		}
	} else if (strcmp(iface, cua_wlr_interface_name[CUA_WLR_TOPLEVELS]) ==
		   0) {
		if (!skipped(w, CUA_WLR_TOPLEVELS) && !w->toplevel_manager) {
			w->toplevel_manager = wl_registry_bind(
				reg, name,
				&zwlr_foreign_toplevel_manager_v1_interface,
				min_u32(version, 3));
			/* the windows come right after the bind */
			if (wlr_toplevels_start(w) != CUA_OK)
				w->toplevel_manager_failed = 1;
		}
	}
}

static void
registry_global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
	struct cua_wlr *w = data;
	struct wlr_output *o, *tmp;

	wl_list_for_each_safe(o, tmp, &w->outputs, link)
	{
		if (o->global != name)
			continue;
		wlr_watch_output_gone(w, o);
		output_free(o); /* a capture of it gets `failed` */
	}
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

/* ---- waiting -------------------------------------------------------- */

void
wlr_drop(struct cua_wlr *w)
{
	struct wlr_output *o, *tmp;

	if (!w->dpy)
		return;
	wlr_keyboard_forget(w);
	wlr_pointer_forget(w);
	wlr_capture_forget(w);
	wlr_watch_forget(w);
	wlr_toplevels_forget(w);
	wl_list_for_each_safe(o, tmp, &w->outputs, link) output_free(o);
	if (w->sync) {
		wl_callback_destroy(w->sync->cb);
		w->sync->cb = NULL;
		w->sync = NULL;
	}
#define DROP(p)                                                                \
	do {                                                                   \
		if (p)                                                         \
			wl_proxy_destroy((struct wl_proxy *)(p));              \
		(p) = NULL;                                                    \
	} while (0)
	DROP(w->xdg_output_manager);
	DROP(w->vk_manager);
	DROP(w->vp_manager);
	DROP(w->screencopy);
	w->screencopy_name = 0;
	DROP(w->toplevel_manager);
	DROP(w->seat);
	DROP(w->shm);
	DROP(w->registry);
#undef DROP
	wl_display_disconnect(w->dpy);
	w->toplevel_manager_failed = 0;
	w->dpy = NULL;
}

cua_result
wlr_lost(struct cua_wlr *w, const char *what)
{
	int err = w->dpy ? wl_display_get_error(w->dpy) : 0;
	cua_result r;

	if (err == EPROTO) {
		const struct wl_interface *iface = NULL;
		uint32_t id = 0;
		uint32_t code =
			wl_display_get_protocol_error(w->dpy, &iface, &id);

		r = cua_error(CUA_ERROR_BACKEND,
			      "the Wayland compositor at '%s' ended the "
			      "connection with protocol error %u on %s@%u "
			      "while %s; the next call connects again",
			      w->display_name, code,
			      iface ? iface->name : "an unknown object", id,
			      what);
	} else {
		r = cua_error(CUA_ERROR_BACKEND,
			      "the connection to the Wayland compositor at "
			      "'%s' was lost while %s (%s): the compositor "
			      "exited or closed it; the next call connects "
			      "again",
			      w->display_name, what,
			      strerror(err ? err : EPIPE));
	}
	if (w->opt.ctx)
		cua_warn(w->opt.ctx, "%s", cua_error_get());
	wlr_drop(w);
	return r;
}

static int
remaining_ms(int64_t deadline_us)
{
	int64_t left = deadline_us - cua_now_us();

	if (left <= 0)
		return 0;
	return (int)((left + 999) / 1000);
}

static cua_result
flush_until(struct cua_wlr *w, int64_t deadline_us, const char *what)
{
	int fd = wl_display_get_fd(w->dpy);

	while (wl_display_flush(w->dpy) < 0) {
		struct pollfd pfd = { fd, POLLOUT, 0 };
		int left;

		if (errno != EAGAIN)
			return wlr_lost(w, what);
		left = remaining_ms(deadline_us);
		if (left == 0 || poll(&pfd, 1, left) == 0) {
			cua_error(CUA_ERROR_BACKEND,
				  "the Wayland compositor at '%s' did not "
				  "read its socket within %d ms while %s; the "
				  "connection was closed and the next call "
				  "connects again",
				  w->display_name, w->opt.timeout_ms, what);
			wlr_drop(w);
			return CUA_ERROR_BACKEND;
		}
		if (pfd.revents & (POLLERR | POLLHUP))
			return wlr_lost(w, what);
	}
	return CUA_OK;
}

cua_result
wlr_flush(struct cua_wlr *w)
{
	if (!w->dpy)
		return cua_error(CUA_ERROR_BACKEND, "not connected");
	return flush_until(w, cua_now_us() + (int64_t)w->opt.timeout_ms * 1000,
			   "sending requests");
}

static cua_result
dispatch_until(struct cua_wlr *w, const int *flag, int timeout_ms,
	       const char *what, int soft)
{
	int64_t deadline = cua_now_us() + (int64_t)timeout_ms * 1000;
	int fd;
	cua_result r;

	if (!w->dpy)
		return cua_error(CUA_ERROR_BACKEND, "not connected");
	fd = wl_display_get_fd(w->dpy);
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		int left, n;

		if (wl_display_dispatch_pending(w->dpy) < 0)
			return wlr_lost(w, what);
		if (*flag)
			return CUA_OK;
		r = flush_until(w, deadline, what);
		if (r != CUA_OK)
			return r;
		if (wl_display_prepare_read(w->dpy) != 0)
			continue; /* events queued meanwhile */
		left = remaining_ms(deadline);
		n = left > 0 ? poll(&pfd, 1, left) : 0;
		if (n < 0 && errno == EINTR) {
			wl_display_cancel_read(w->dpy);
			continue;
		}
		if (n <= 0) {
			wl_display_cancel_read(w->dpy);
			if (n < 0)
				return wlr_lost(w, what);
			if (soft)
				return cua_error(
					CUA_ERROR_TIMEOUT,
					"nothing within %d ms while %s",
					timeout_ms, what);
			cua_error(CUA_ERROR_BACKEND,
				  "the Wayland compositor at '%s' did not "
				  "answer within %d ms while %s; the "
				  "connection was closed and the next call "
				  "connects again",
				  w->display_name, timeout_ms, what);
			if (w->opt.ctx)
				cua_warn(w->opt.ctx, "%s", cua_error_get());
			wlr_drop(w);
			return CUA_ERROR_BACKEND;
		}
		if (wl_display_read_events(w->dpy) < 0)
			return wlr_lost(w, what);
	}
}

cua_result
wlr_dispatch_until(struct cua_wlr *w, const int *flag, int timeout_ms,
		   const char *what)
{
	return dispatch_until(w, flag, timeout_ms, what, 0);
}

cua_result
wlr_wait_event(struct cua_wlr *w, const int *flag, int timeout_ms,
	       const char *what)
{
	return dispatch_until(w, flag, timeout_ms, what, 1);
}

static void
sync_done(void *data, struct wl_callback *cb, uint32_t serial)
{
	struct wlr_sync *s = data;

	s->done = 1;
	wl_callback_destroy(cb);
	s->cb = NULL;
	if (s->w->sync == s)
		s->w->sync = NULL;
}

static const struct wl_callback_listener sync_listener = {
	.done = sync_done,
};

static cua_result
roundtrip(struct cua_wlr *w, const char *what)
{
	struct wlr_sync s = { w, NULL, 0 };
	cua_result r;

	s.cb = wl_display_sync(w->dpy);
	if (!s.cb)
		return wlr_lost(w, what);
	wl_callback_add_listener(s.cb, &sync_listener, &s);
	/* dropping the connection destroys the callback */
	w->sync = &s;
	r = wlr_dispatch_until(w, &s.done, w->opt.timeout_ms, what);
	if (w->sync == &s)
		w->sync = NULL;
	return r;
}

cua_result
cua_wlr_roundtrip(struct cua_wlr *w)
{
	cua_result r = cua_wlr_ensure(w);

	if (r != CUA_OK)
		return r;
	return roundtrip(w, "waiting for a round trip");
}

/* ---- connecting ----------------------------------------------------- */

/* Window positions come only from sway's IPC. */
static void
check_geometry(struct cua_wlr *w)
{
	char *why = w->reason[CUA_WLR_GEOMETRY];
	size_t size = sizeof(w->reason[CUA_WLR_GEOMETRY]);

	why[0] = '\0';
	if (skipped(w, CUA_WLR_GEOMETRY)) {
		snprintf(why, size,
			 "the compositor gives no window positions (sway's "
			 "IPC left unused on request)");
		return;
	}
	if (!w->swaysock[0]) {
		snprintf(why, size,
			 "the compositor gives no window positions: the "
			 "Wayland protocols it offers carry none, and "
			 "SWAYSOCK is not set (sway's IPC has them)");
		return;
	}
	if (cua_sway_version(w->swaysock, w->opt.timeout_ms, NULL, 0) != CUA_OK)
		snprintf(why, size,
			 "the compositor gives no window positions: %s",
			 cua_error_get());
}

int32_t
cua_wlr_compositor_pid(struct cua_wlr *w)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (!w || !w->dpy ||
	    getsockopt(wl_display_get_fd(w->dpy), SOL_SOCKET, SO_PEERCRED,
		       &cred, &len) < 0)
		return 0;
	return cred.pid;
}

const char *
cua_wlr_sway_socket(struct cua_wlr *w)
{
	return cua_wlr_has(w, CUA_WLR_GEOMETRY) ? w->swaysock : NULL;
}

static void
set_reasons(struct cua_wlr *w)
{
	const void *have[CUA_WLR_N_FEATURES] = {
		[CUA_WLR_KEYBOARD] = w->vk_manager,
		[CUA_WLR_POINTER] = w->vp_manager,
		[CUA_WLR_CAPTURE] = w->screencopy,
		[CUA_WLR_TOPLEVELS] = w->toplevel_manager,
	};

	for (int f = 0; f < CUA_WLR_GEOMETRY; f++) {
		w->reason[f][0] = '\0';
		if (have[f])
			continue;
		snprintf(w->reason[f], sizeof(w->reason[f]),
			 "the compositor does not offer %s (%s)%s",
			 protocol_phrase[f], cua_wlr_interface_name[f],
			 skipped(w, f) ? ", left unbound on request" : "");
	}
	/* a keyboard needs a seat to be made on; a capture needs shared
	 * memory */
	if (w->vk_manager && !w->seat)
		snprintf(w->reason[CUA_WLR_KEYBOARD],
			 sizeof(w->reason[CUA_WLR_KEYBOARD]),
			 "the compositor offers no seat (wl_seat) for a "
			 "virtual keyboard");
	if (w->screencopy && !w->shm)
		snprintf(w->reason[CUA_WLR_CAPTURE],
			 sizeof(w->reason[CUA_WLR_CAPTURE]),
			 "the compositor offers no shared memory (wl_shm) "
			 "for captures");
	check_geometry(w);
}

static cua_result
connect_display(struct cua_wlr *w)
{
	cua_result r;

	wl_list_init(&w->outputs);
	w->dpy = wl_display_connect(w->display_name);
	if (!w->dpy)
		return cua_error(CUA_ERROR_BACKEND,
				 "cannot connect to the Wayland display '%s' "
				 "(%s): is the compositor running, and are "
				 "WAYLAND_DISPLAY and XDG_RUNTIME_DIR those of "
				 "its session?",
				 w->display_name, strerror(errno));
	w->registry = wl_display_get_registry(w->dpy);
	wl_registry_add_listener(w->registry, &registry_listener, w);
	/* the globals, then what the output objects send when bound */
	r = roundtrip(w, "reading the compositor's globals");
	if (r == CUA_OK)
		r = roundtrip(w, "reading the outputs");
	if (r == CUA_OK && w->toplevel_manager_failed)
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (r != CUA_OK) {
		wlr_drop(w); /* a half-made connection is no connection */
		return r;
	}
	set_reasons(w);
	if (w->opt.ctx)
		cua_debug(
			w->opt.ctx,
			"wayland: connected to '%s' (keyboard %s, pointer %s, "
			"capture %s, toplevels %s)",
			w->display_name, w->vk_manager ? "yes" : "no",
			w->vp_manager ? "yes" : "no",
			w->screencopy ? "yes" : "no",
			w->toplevel_manager ? "yes" : "no");
	return CUA_OK;
}

cua_result
cua_wlr_ensure(struct cua_wlr *w)
{
	if (!w)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT, "no connection");
	if (w->dpy)
		return CUA_OK;
	return connect_display(w);
}

cua_result
cua_wlr_open(struct cua_wlr **out, const struct cua_wlr_options *opt)
{
	struct cua_wlr *w;
	const char *name;
	cua_result r;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	if (opt)
		w->opt = *opt;
	else
		cua_wlr_options_default(&w->opt);
	if (w->opt.timeout_ms <= 0)
		w->opt.timeout_ms = DEFAULT_TIMEOUT_MS;
	if (w->opt.capture_timeout_ms <= 0)
		w->opt.capture_timeout_ms = DEFAULT_CAPTURE_TIMEOUT_MS;
	if (w->opt.keymap_delay_ms <= 0)
		w->opt.keymap_delay_ms = DEFAULT_KEYMAP_DELAY_MS;
	if (w->opt.warmup_ms == 0)
		w->opt.warmup_ms = DEFAULT_WARMUP_MS;
	wl_list_init(&w->outputs);
	name = w->opt.display ? w->opt.display : getenv("WAYLAND_DISPLAY");
	if (!name || !*name) {
		free(w);
		return cua_error(CUA_ERROR_BACKEND,
				 "WAYLAND_DISPLAY is not set: this is not a "
				 "Wayland session (or the variable was not "
				 "passed on)");
	}
	if (strlen(name) >= sizeof(w->display_name)) {
		free(w);
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "the Wayland display name is too long (%zu "
				 "bytes)",
				 strlen(name));
	}
	snprintf(w->display_name, sizeof(w->display_name), "%s", name);
	w->opt.display = NULL; /* not kept: the caller's string */
	name = w->opt.swaysock ? w->opt.swaysock : cua_sway_socket();
	if (name && strlen(name) >= sizeof(w->swaysock)) {
		free(w);
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "the sway IPC socket path is too long (%zu "
				 "bytes)",
				 strlen(name));
	}
	snprintf(w->swaysock, sizeof(w->swaysock), "%s", name ? name : "");
	w->opt.swaysock = NULL;
	r = connect_display(w);
	if (r != CUA_OK) {
		wlr_drop(w);
		free(w);
		return r;
	}
	*out = w;
	return CUA_OK;
}

void
cua_wlr_close(struct cua_wlr *w)
{
	if (!w)
		return;
	if (w->dpy) {
		wlr_keyboard_destroy(w);
		wlr_pointer_destroy(w);
		/* best effort: the releases reach the compositor */
		if (wl_display_flush(w->dpy) < 0 && errno == EAGAIN)
			(void)wlr_flush(w);
	}
	wlr_drop(w);
	wlr_keymap_free(w->keymap);
	free(w);
}

int
cua_wlr_has(struct cua_wlr *w, enum cua_wlr_feature f)
{
	if (f >= CUA_WLR_N_FEATURES || cua_wlr_ensure(w) != CUA_OK)
		return 0;
	return w->reason[f][0] == '\0';
}

const char *
cua_wlr_feature_reason(struct cua_wlr *w, enum cua_wlr_feature f)
{
	if (f >= CUA_WLR_N_FEATURES)
		return "no such feature";
	if (cua_wlr_ensure(w) != CUA_OK)
		return cua_error_get();
	return w->reason[f][0] ? w->reason[f] : NULL;
}
