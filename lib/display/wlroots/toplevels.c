/*
 * Toplevel windows (zwlr_foreign_toplevel_manager_v1): title, app id,
 * state (activated, maximized, minimized, fullscreen), parent, and the
 * activation request.
 *
 * The manager is bound when the connection is made, so the compositor
 * sends every toplevel at once and updates as they happen; the events
 * are read whenever the connection is (any call). A handle's events are
 * applied together when its `done` arrives, and a handle is listed only
 * after its first `done`. The protocol has no window geometry and no
 * process id: sway-ipc.h has those on sway.
 *
 * Same thread and failure rules as wlr.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"

#include "wlr-private.h"

struct handle_state {
	char *title, *app_id;
	int activated, maximized, minimized, fullscreen;
	struct zwlr_foreign_toplevel_handle_v1 *parent;
};

struct handle {
	struct wl_list link;
	struct wlr_toplevels *top;
	struct zwlr_foreign_toplevel_handle_v1 *h;
	uint32_t id;
	struct handle_state cur, pending;
	int listed; /* a `done` arrived */
};

struct wlr_toplevels {
	struct wl_list handles; /* oldest first */
	uint32_t next_id;
	int finished;
	/* activation being waited for */
	uint32_t want_active;
	int active_seen;
};

static void
state_free(struct handle_state *s)
{
	free(s->title);
	free(s->app_id);
	s->title = s->app_id = NULL;
}

static void
handle_free(struct handle *hd)
{
	wl_list_remove(&hd->link);
	if (hd->h)
		wl_proxy_destroy((struct wl_proxy *)hd->h);
	state_free(&hd->cur);
	state_free(&hd->pending);
	free(hd);
}

static void
set_str(char **dst, const char *s)
{
	char *c = strdup(s ? s : "");

	if (!c)
		return; /* out of memory: keep the old value */
	free(*dst);
	*dst = c;
}

static void
h_title(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
	const char *title)
{
	struct handle *hd = data;

	set_str(&hd->pending.title, title);
}

static void
h_app_id(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
	 const char *app_id)
{
	struct handle *hd = data;

	set_str(&hd->pending.app_id, app_id);
}

static void
h_output_enter(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
	       struct wl_output *o)
{
}

static void
h_output_leave(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
	       struct wl_output *o)
{
}

static void
h_state(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
	struct wl_array *state)
{
	struct handle *hd = data;
	uint32_t *s;

	hd->pending.activated = hd->pending.maximized = 0;
	hd->pending.minimized = hd->pending.fullscreen = 0;
	wl_array_for_each(s, state)
	{
		switch (*s) {
		case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED:
			hd->pending.activated = 1;
			break;
		case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED:
			hd->pending.maximized = 1;
			break;
		case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED:
			hd->pending.minimized = 1;
			break;
		case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN:
			hd->pending.fullscreen = 1;
			break;
		}
	}
}

static void
h_done(void *data, struct zwlr_foreign_toplevel_handle_v1 *h)
{
	struct handle *hd = data;
	struct handle_state *p = &hd->pending, *c = &hd->cur;

	if (p->title)
		set_str(&c->title, p->title);
	if (p->app_id)
		set_str(&c->app_id, p->app_id);
	c->activated = p->activated;
	c->maximized = p->maximized;
	c->minimized = p->minimized;
	c->fullscreen = p->fullscreen;
	c->parent = p->parent;
	hd->listed = 1;
	if (hd->top->want_active == hd->id && c->activated)
		hd->top->active_seen = 1;
}

static void
h_closed(void *data, struct zwlr_foreign_toplevel_handle_v1 *h)
{
	struct handle *hd = data;

	zwlr_foreign_toplevel_handle_v1_destroy(hd->h);
	hd->h = NULL;
	handle_free(hd);
}

static void
h_parent(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
	 struct zwlr_foreign_toplevel_handle_v1 *parent)
{
	struct handle *hd = data;

	hd->pending.parent = parent;
}

static const struct zwlr_foreign_toplevel_handle_v1_listener handle_listener = {
	.title = h_title,
	.app_id = h_app_id,
	.output_enter = h_output_enter,
	.output_leave = h_output_leave,
	.state = h_state,
	.done = h_done,
	.closed = h_closed,
	.parent = h_parent,
};

static void
m_toplevel(void *data, struct zwlr_foreign_toplevel_manager_v1 *m,
	   struct zwlr_foreign_toplevel_handle_v1 *h)
{
	struct cua_wlr *w = data;
	struct handle *hd = calloc(1, sizeof(*hd));

	if (!hd) {
		zwlr_foreign_toplevel_handle_v1_destroy(h);
		return;
	}
	hd->top = w->top;
	hd->h = h;
	hd->id = ++w->top->next_id;
	wl_list_insert(w->top->handles.prev, &hd->link);
	zwlr_foreign_toplevel_handle_v1_add_listener(h, &handle_listener, hd);
}

static void
m_finished(void *data, struct zwlr_foreign_toplevel_manager_v1 *m)
{
	struct cua_wlr *w = data;

	w->top->finished = 1;
}

static const struct zwlr_foreign_toplevel_manager_v1_listener
	manager_listener = {
		.toplevel = m_toplevel,
		.finished = m_finished,
	};

cua_result
wlr_toplevels_start(struct cua_wlr *w)
{
	w->top = calloc(1, sizeof(*w->top));
	if (!w->top)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	wl_list_init(&w->top->handles);
	zwlr_foreign_toplevel_manager_v1_add_listener(w->toplevel_manager,
						      &manager_listener, w);
	return CUA_OK;
}

void
wlr_toplevels_forget(struct cua_wlr *w)
{
	struct handle *hd, *tmp;

	if (!w->top)
		return;
	wl_list_for_each_safe(hd, tmp, &w->top->handles, link) handle_free(hd);
	free(w->top);
	w->top = NULL;
}

static cua_result
toplevels_ready(struct cua_wlr *w)
{
	cua_result r = cua_wlr_ensure(w);

	if (r != CUA_OK)
		return r;
	if (w->reason[CUA_WLR_TOPLEVELS][0])
		return cua_error(CUA_ERROR_UNSUPPORTED, "no window list: %s",
				 w->reason[CUA_WLR_TOPLEVELS]);
	if (w->top->finished)
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "no window list: the compositor stopped "
				 "sending toplevel windows (`finished`)");
	return CUA_OK;
}

static struct handle *
find(struct cua_wlr *w, uint32_t id)
{
	struct handle *hd;

	wl_list_for_each(hd, &w->top->handles,
			 link) if (hd->id == id && hd->listed) return hd;
	return NULL;
}

cua_result
cua_wlr_toplevels(struct cua_wlr *w, struct cua_wlr_toplevel **out, size_t *n)
{
	struct cua_wlr_toplevel *list;
	struct handle *hd;
	size_t k = 0, count = 0;
	cua_result r;

	*out = NULL;
	*n = 0;
	r = toplevels_ready(w);
	if (r == CUA_OK)
		r = cua_wlr_roundtrip(w);
	if (r == CUA_OK)
		r = toplevels_ready(w);
	if (r != CUA_OK)
		return r;
	wl_list_for_each(hd, &w->top->handles, link) count += hd->listed;
	list = calloc(count ? count : 1, sizeof(*list));
	if (!list)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	wl_list_for_each(hd, &w->top->handles, link)
	{
		struct cua_wlr_toplevel *t = &list[k];
		struct handle *p;

		if (!hd->listed)
			continue;
		t->id = hd->id;
		t->title = strdup(hd->cur.title ? hd->cur.title : "");
		t->app_id = strdup(hd->cur.app_id ? hd->cur.app_id : "");
		k++;
		if (!t->title || !t->app_id) {
			cua_wlr_toplevels_free(list, k);
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
		t->activated = hd->cur.activated;
		t->maximized = hd->cur.maximized;
		t->minimized = hd->cur.minimized;
		t->fullscreen = hd->cur.fullscreen;
		wl_list_for_each(p, &w->top->handles,
				 link) if (hd->cur.parent &&
					   p->h == hd->cur.parent) t->parent =
			p->id;
	}
	*out = list;
	*n = k;
	return CUA_OK;
}

void
cua_wlr_toplevels_free(struct cua_wlr_toplevel *list, size_t n)
{
	if (!list)
		return;
	for (size_t i = 0; i < n; i++) {
		free(list[i].title);
		free(list[i].app_id);
	}
	free(list);
}

cua_result
cua_wlr_toplevel_activate(struct cua_wlr *w, uint32_t id, int timeout_ms,
			  int *confirmed)
{
	struct handle *hd;
	cua_result r;

	*confirmed = 0;
	r = toplevels_ready(w);
	if (r != CUA_OK)
		return r;
	if (!w->seat)
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "cannot activate a window: the compositor "
				 "offers no seat (wl_seat)");
	r = cua_wlr_roundtrip(w);
	if (r != CUA_OK)
		return r;
	hd = find(w, id);
	if (!hd)
		return cua_error(CUA_ERROR_NOT_FOUND,
				 "the window (toplevel %u) is gone", id);
	if (hd->cur.activated) {
		*confirmed = 1;
		return CUA_OK;
	}
	w->top->want_active = id;
	w->top->active_seen = 0;
	zwlr_foreign_toplevel_handle_v1_activate(hd->h, w->seat);
	r = wlr_wait_event(w, &w->top->active_seen, timeout_ms,
			   "waiting for a window to be activated");
	if (w->top)
		w->top->want_active = 0;
	if (r == CUA_OK)
		*confirmed = 1;
	/* not activated in time is an answer (*confirmed = 0) */
	if (r == CUA_ERROR_TIMEOUT)
		r = CUA_OK;
	return r;
}
