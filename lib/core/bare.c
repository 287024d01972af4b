/*
 * The read of an app that shows a window but is not on the accessibility
 * bus (docs/safety.md §7 "Degraded", docs/state-text.md §11.10): one
 * window node built from the window system's facts (its title, frame and
 * focus), with no elements inside, so an observation renders the one-line
 * tree, takes the window's screenshot and carries the
 * `Accessibility unavailable:` note; pixel clicks and keys reach the
 * window.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "bare.h"
#include "errors.h"

/* The app's window to show: its focused one, else its topmost mapped one
 * that is not minimised, else its topmost mapped one. */
static const struct cua_display_window *
choose(const struct cua_display_window_list *l, int64_t pid)
{
	const struct cua_display_window *best = NULL;
	int best_rank = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct cua_display_window *w = &l->w[i];
		int rank;

		if (w->win.pid != pid || !w->win.mapped ||
		    w->win.override_redirect)
			continue;
		rank = w->focused ? 3 : !w->win.iconified ? 2 : 1;
		/* bottom to top: a later one of equal rank is above */
		if (rank >= best_rank) {
			best = w;
			best_rank = rank;
		}
	}
	return best;
}

cua_result
cua_bare_snapshot(struct cua_backend *b, const struct cua_app_info *app,
		  const char *who, struct cua_raw_snapshot **out)
{
	struct cua_display *d = b->ops->display ? b->ops->display(b) : NULL;
	struct cua_display_window_list *l = NULL;
	const struct cua_display_window *w;
	struct cua_raw_snapshot *snap;
	struct cua_raw_node *an, *top;
	struct cua_raw_window_info *info;

	*out = NULL;
	if (!d || !d->ops->list_windows || app->pid <= 0 ||
	    d->ops->list_windows(d, &l) != CUA_OK) {
		cua_display_window_list_free(l);
		return cua_err(CUA_MSG_NOT_ACCESSIBLE, { "name", who });
	}
	w = choose(l, app->pid);
	if (!w) {
		cua_display_window_list_free(l);
		return cua_err(CUA_MSG_NOT_ACCESSIBLE, { "name", who });
	}
	snap = cua_raw_snapshot_new();
	an = snap ? cua_raw_node_new(snap) : NULL;
	top = an ? cua_raw_node_new(snap) : NULL;
	if (top) {
		an->children =
			cua_arena_alloc(snap->arena, sizeof(*an->children));
		snap->windows = cua_arena_alloc(snap->arena, sizeof(*info));
	}
	if (!top || !an->children || !snap->windows) {
		cua_display_window_list_free(l);
		cua_raw_snapshot_free(snap);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	snap->app = an;
	an->role = CUA_ROLE_APPLICATION;
	an->name = cua_arena_strdup(snap->arena, who);
	an->have = CUA_HAVE_BASIC | CUA_HAVE_CHILDREN;
	an->children[0] = top;
	an->n_children = 1;
	an->child_count = 1;
	top->parent = an;
	top->role = CUA_ROLE_FRAME;
	top->name = cua_arena_strdup(snap->arena, w->title ? w->title : "");
	top->states = (1ull << CUA_STATE_SHOWING) |
		      (1ull << CUA_STATE_VISIBLE) |
		      (w->focused ? 1ull << CUA_STATE_ACTIVE : 0);
	/* no geometry of its own: nothing inside it can be located */
	top->have = CUA_HAVE_BASIC | CUA_HAVE_CHILDREN;
	top->x11_window = w->win.window;
	info = snap->windows;
	memset(info, 0, sizeof(*info));
	info->x11_window = w->win.window;
	info->x11_active = w->focused;
	info->x11_mapped = w->win.mapped;
	info->x11_title = top->name;
	info->x11_frame = w->win.frame;
	info->x11_surface = w->win.origin;
	info->x11_outer = w->win.outer;
	info->has_x11_frame = 1;
	info->x11_transient = w->win.transient_for != 0;
	cua_display_window_list_free(l);
	*out = snap;
	return CUA_OK;
}
