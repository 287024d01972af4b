/*
 * The display seam's shared part: helpers every driver and the core use.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "display.h"

void
cua_capture_free(struct cua_capture *c)
{
	if (!c)
		return;
	free(c->px.data);
	free(c);
}

void
cua_display_window_list_free(struct cua_display_window_list *l)
{
	if (!l)
		return;
	cua_arena_free(l->arena);
	free(l);
}

/* floor(v) clamped to int32_t; NaN gives INT32_MIN. */
static int32_t
floor_to_i32(double v)
{
	double f = floor(v);

	if (!(f >= INT32_MIN))
		return INT32_MIN;
	if (f > INT32_MAX)
		return INT32_MAX;
	return (int32_t)f;
}

void
cua_win_atspi_to_global(const struct cua_win *w, double ax, double ay,
			int32_t *gx, int32_t *gy)
{
	double s = w->scale > 0 ? w->scale : 1;

	if (w->atspi_space == CUA_ATSPI_SURFACE) {
		*gx = floor_to_i32(w->origin.x + ax * s);
		*gy = floor_to_i32(w->origin.y + ay * s);
	} else {
		*gx = floor_to_i32(ax);
		*gy = floor_to_i32(ay);
	}
}

void
cua_display_capabilities(struct cua_display *d, const char *why,
			 struct cua_display_caps *out)
{
	if (d) {
		d->ops->capabilities(d, out);
		return;
	}
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++) {
		out->cap[i].ok = 0;
		snprintf(out->cap[i].why, sizeof(out->cap[i].why), "%s",
			 why ? why : "there is no window system");
	}
}
