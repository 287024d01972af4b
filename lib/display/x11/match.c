/*
 * Matching the AT-SPI toplevels of a process to X11 client windows
 * (docs/screenshots.md §1.1, §3): by pid, then title, then geometry, each
 * window used at most once.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "x11.h"

#define MATCH_SLACK 32 /* px summed over x, y, w, h */

/* Hidden GTK menus report (INT32_MIN, INT32_MIN) or a 1 x 1 size: no
 * geometry */
static int
rect_hidden(const struct cua_rect *r)
{
	return r->x == INT32_MIN || r->y == INT32_MIN || r->w <= 1 || r->h <= 1;
}

static int64_t
iabs64(int64_t v)
{
	return v < 0 ? -v : v;
}

static int64_t
rect_distance(const struct cua_rect *a, const struct cua_rect *b,
	      int use_position)
{
	int64_t d = iabs64((int64_t)a->w - b->w) + iabs64((int64_t)a->h - b->h);

	if (use_position)
		d += iabs64((int64_t)a->x - b->x) +
		     iabs64((int64_t)a->y - b->y);
	return d;
}

/*
 * Distance between an AT-SPI toplevel extent and an X11 client: the
 * smallest one against the content frame, against the whole X window
 * (CSD shadows included) and against the window manager's frame, so any
 * of these conventions matches. GTK 4 reports its
 * windows at (0,0) whatever their position (docs/toolkits.md §3.2): an
 * extent at the origin compares sizes only.
 */
static int64_t
client_distance(const struct cua_display_toplevel_query *q,
		const struct x11_client *c, const struct cua_rect *wm_frame)
{
	int use_pos = !(q->extents.x == 0 && q->extents.y == 0);
	int64_t d = rect_distance(&q->extents, &c->frame, use_pos);

	/* LibreOffice reports its frame with the WM's decorations */
	if (wm_frame) {
		int64_t d3 = rect_distance(&q->extents, wm_frame, use_pos);

		if (d3 < d)
			d = d3;
	}

	if (c->has_frame_extents) {
		struct cua_rect outer = c->frame;
		int64_t d2;

		outer.x -= c->frame_extents.x;
		outer.y -= c->frame_extents.w;
		outer.w += c->frame_extents.x + c->frame_extents.y;
		outer.h += c->frame_extents.w + c->frame_extents.h;
		d2 = rect_distance(&q->extents, &outer, use_pos);
		if (d2 < d)
			d = d2;
	}
	return d;
}

static int
is_popup_role(uint32_t role)
{
	return role == CUA_ROLE_MENU || role == CUA_ROLE_POPUP_MENU ||
	       role == CUA_ROLE_TOOL_TIP || role == CUA_ROLE_LIST ||
	       role == CUA_ROLE_COMBO_BOX;
}

static int
usable_extents(const struct cua_display_toplevel_query *q)
{
	return q->has_extents && !rect_hidden(&q->extents);
}

void
x11_match_toplevels(struct x11 *x, int64_t pid,
		    const struct cua_display_toplevel_query *tops, size_t n,
		    struct cua_raw_window_info *info, struct cua_arena *arena)
{
	struct x11_client *cl = NULL;
	size_t ncl = 0, i, j;
	int *cand = NULL, *used = NULL, *has_wmf = NULL;
	struct cua_rect *wmf = NULL;
	ssize_t *match = NULL;
	size_t ncand = 0;
	int any_pid = 0;
	uint64_t active;

	for (i = 0; i < n; i++) {
		info[i].x11_window = 0;
		info[i].x11_active = 0;
		info[i].x11_mapped = 0;
		info[i].x11_title = NULL;
		memset(&info[i].x11_frame, 0, sizeof(info[i].x11_frame));
		memset(&info[i].x11_surface, 0, sizeof(info[i].x11_surface));
		memset(&info[i].x11_outer, 0, sizeof(info[i].x11_outer));
		info[i].has_x11_frame = 0;
		info[i].x11_transient = 0;
	}
	if (!x || !x11_display(x) || n == 0)
		return;
	if (x11_list_clients(x, &cl, &ncl) < 0 || ncl == 0)
		goto out;
	cand = calloc(ncl, sizeof(*cand));
	used = calloc(ncl, sizeof(*used));
	match = calloc(n, sizeof(*match));
	if (!cand || !used || !match)
		goto out;
	for (j = 0; j < ncl; j++) {
		if (pid > 0 && cl[j].pid == pid)
			cand[ncand++] = (int)j;
	}
	if (ncand == 0) {
		/* unknown or namespaced (Flatpak) _NET_WM_PID: only a
		 * unique title identifies a window
		 * (docs/screenshots.md §1.1) */
		any_pid = 1;
		for (j = 0; j < ncl; j++)
			cand[ncand++] = (int)j;
	}
	for (i = 0; i < n; i++)
		match[i] = -1;

	/* 1. equal title; among equals the closest geometry, then order */
	for (i = 0; i < n; i++) {
		const char *name = tops[i].name;
		ssize_t best = -1;
		int64_t best_d = INT64_MAX;
		size_t equal = 0;

		if (!name || !name[0])
			continue;
		for (j = 0; j < ncand; j++) {
			const struct x11_client *c = &cl[cand[j]];
			int64_t d;

			if (used[j] || !c->title || strcmp(c->title, name))
				continue;
			equal++;
			d = usable_extents(&tops[i]) ?
				    client_distance(&tops[i], c, NULL) :
				    INT64_MAX - 1;
			if (best < 0 || d < best_d) {
				best = (ssize_t)j;
				best_d = d;
			}
		}
		if (best >= 0 && (!any_pid || equal == 1)) {
			match[i] = best;
			used[best] = 1;
		}
	}
	if (any_pid)
		goto fill;

	/* 2. closest geometry, globally greedy, within MATCH_SLACK */
	wmf = calloc(ncand, sizeof(*wmf));
	has_wmf = calloc(ncand, sizeof(*has_wmf));
	if (!wmf || !has_wmf)
		goto out;
	for (j = 0; j < ncand; j++) {
		if (!used[j])
			has_wmf[j] = x11_wm_frame_rect(x, cl[cand[j]].window,
						       &wmf[j]) == 0;
	}
	for (;;) {
		ssize_t bi = -1, bj = -1;
		int64_t bd = MATCH_SLACK + 1;

		for (i = 0; i < n; i++) {
			if (match[i] >= 0 || !usable_extents(&tops[i]))
				continue;
			for (j = 0; j < ncand; j++) {
				int64_t d;

				if (used[j])
					continue;
				d = client_distance(&tops[i], &cl[cand[j]],
						    has_wmf[j] ? &wmf[j] :
								 NULL);
				if (d < bd) {
					bd = d;
					bi = (ssize_t)i;
					bj = (ssize_t)j;
				}
			}
		}
		if (bi < 0)
			break;
		match[bi] = bj;
		used[bj] = 1;
	}

	/* 3. by order, for windows whose geometry says nothing (GTK 4's
	 * (0,0) or no extents at all), whatever their role but a popup's
	 * (GTK 4.8's file chooser is a filler); hidden geometry means an
	 * unmapped toplevel (popup menus), which has no client window */
	for (i = 0; i < n; i++) {
		if (match[i] >= 0 || is_popup_role(tops[i].role))
			continue;
		if (tops[i].has_extents &&
		    (rect_hidden(&tops[i].extents) || tops[i].extents.x != 0 ||
		     tops[i].extents.y != 0))
			continue;
		for (j = 0; j < ncand; j++) {
			if (!used[j]) {
				match[i] = (ssize_t)j;
				used[j] = 1;
				break;
			}
		}
	}

fill:
	active = x11_active_window(x);
	for (i = 0; i < n; i++) {
		const struct x11_client *c;

		if (match[i] < 0)
			continue;
		c = &cl[cand[match[i]]];
		info[i].x11_window = c->window;
		info[i].x11_active = active && c->window == active;
		info[i].x11_mapped = c->mapped;
		info[i].x11_title = c->title && arena ?
					    cua_arena_strdup(arena, c->title) :
					    NULL;
		info[i].x11_frame = c->frame;
		info[i].x11_surface = c->surface;
		info[i].x11_outer = c->outer;
		if (!c->has_outer)
			x11_wm_frame_rect(x, c->window, &info[i].x11_outer);
		info[i].has_x11_frame = 1;
		info[i].x11_transient = x11_transient_for(x, c->window) != 0;
	}
out:
	free(wmf);
	free(has_wmf);
	free(cand);
	free(used);
	free(match);
	x11_clients_free(cl, ncl);
}
