/*
 * Screenshot geometry (geometry.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "geometry.h"

void
cua_geom_scale(double wp, double hp, uint32_t max_long, uint32_t max_short,
	       double *s_out, uint32_t *w_out, uint32_t *h_out)
{
	double lo = wp < hp ? wp : hp, hi = wp < hp ? hp : wp;
	double s = 1.0, w, h;

	if (max_long == 0)
		max_long = CUA_SHOT_MAX_LONG_EDGE;
	if (max_short == 0)
		max_short = CUA_SHOT_MAX_SHORT_EDGE;
	if (hi > 0 && (double)max_long / hi < s)
		s = (double)max_long / hi;
	if (lo > 0 && (double)max_short / lo < s)
		s = (double)max_short / lo;
	w = ceil(wp * s - 1e-6);
	h = ceil(hp * s - 1e-6);
	*s_out = s;
	*w_out = w < 1 ? 1 : (uint32_t)w;
	*h_out = h < 1 ? 1 : (uint32_t)h;
}

static double
quarter(double v)
{
	return floor(v * 4 + 0.5) / 4;
}

double
cua_geom_device_ppp(int32_t frame_px, int32_t full_px, int32_t atspi_w)
{
	double r1, r2, best;

	if (atspi_w <= 0 || frame_px <= 0)
		return 1.0;
	r1 = (double)frame_px / atspi_w;
	best = r1;
	if (full_px > 0) {
		r2 = (double)full_px / atspi_w;
		if (fabs(r2 - quarter(r2)) < fabs(r1 - quarter(r1)))
			best = r2;
	}
	best = quarter(best);
	return best < 1.0 ? 1.0 : best > 8.0 ? 8.0 : best;
}

/* The largest margin taken for an undeclared resize border, per side. */
#define MAX_MARGIN_PT 64

/* a and r are the same rectangle, within 1 px each way */
static int
same_rect(const struct cua_rect *a, const struct cua_rect *r)
{
	return r->w > 0 && r->h > 0 && llabs((long long)a->x - r->x) <= 1 &&
	       llabs((long long)a->y - r->y) <= 1 &&
	       llabs((long long)a->w - r->w) <= 1 &&
	       llabs((long long)a->h - r->h) <= 1;
}

int
cua_geom_rect_within(const struct cua_rect *in, const struct cua_rect *out)
{
	return in->x >= (int64_t)out->x - 1 && in->y >= (int64_t)out->y - 1 &&
	       (int64_t)in->x + in->w <= (int64_t)out->x + out->w + 1 &&
	       (int64_t)in->y + in->h <= (int64_t)out->y + out->h + 1;
}

int
cua_geom_children_moved(const struct cua_rect *parent,
			const struct cua_rect *kids, size_t n, int32_t cx,
			int32_t cy, int32_t ax, int32_t ay)
{
	if (n == 0 || (cx == ax && cy == ay))
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct cua_rect now = kids[i], alt = kids[i];

		now.x += cx;
		now.y += cy;
		alt.x += ax;
		alt.y += ay;
		if (cua_geom_rect_within(&now, parent) ||
		    !cua_geom_rect_within(&alt, parent))
			return 0;
	}
	return 1;
}

void
cua_geom_element_origin(const struct cua_rect *a,
			const struct cua_geom_window *w, double dppp,
			double *dx, double *dy)
{
	const struct cua_rect *c = &w->frame;
	double mw = (c->w / dppp - a->w) / 2, mh = (c->h / dppp - a->h) / 2;

	if (!same_rect(a, &w->frame) && !same_rect(a, &w->surface) &&
	    !same_rect(a, &w->outer) && a->x == 0 && a->y == 0) {
		const struct cua_rect *sf = &w->surface;

		/* surface-relative coordinates (Wayland): the frame lies at
		 * its offset inside the surface */
		if (sf->w > 0 && sf->h > 0 &&
		    (sf->x != c->x || sf->y != c->y) &&
		    fabs(a->w * dppp - sf->w) <= 1 &&
		    fabs(a->h * dppp - sf->h) <= 1) {
			*dx = (sf->x - c->x) / dppp;
			*dy = (sf->y - c->y) / dppp;
			return;
		}
		/* window-relative coordinates (GTK 4): the accessible window
		 * is the frame, or the frame less a symmetric margin */
		if (mw >= 0 && mh >= 0 && mw <= MAX_MARGIN_PT &&
		    mh <= MAX_MARGIN_PT) {
			*dx = mw;
			*dy = mh;
		} else {
			*dx = *dy = 0;
		}
		return;
	}
	/* root coordinates */
	*dx = (a->x - c->x) / dppp;
	*dy = (a->y - c->y) / dppp;
}

int
cua_geom_pixel_in_image(const struct cua_shot_geom *g, double px, double py)
{
	return px >= 0 && py >= 0 && px < g->width && py < g->height;
}

void
cua_geom_pixel_to_point(const struct cua_shot_geom *g, double px, double py,
			double *wx, double *wy)
{
	double s = g->ppp > 0 ? g->ppp : 1.0;

	*wx = px / s;
	*wy = py / s;
}

void
cua_geom_point_to_root(const struct cua_shot_geom *g, int32_t ox, int32_t oy,
		       double wx, double wy, int32_t *rx, int32_t *ry)
{
	double d = g->device_ppp > 0 ? g->device_ppp : 1.0;
	double x = floor(wx * d + 1e-6), y = floor(wy * d + 1e-6);

	/* the root pixel under the point, kept inside the frame */
	if (g->frame.w > 0 && x > g->frame.w - 1)
		x = g->frame.w - 1;
	if (g->frame.h > 0 && y > g->frame.h - 1)
		y = g->frame.h - 1;
	*rx = (int32_t)(ox + (x < 0 ? 0 : x));
	*ry = (int32_t)(oy + (y < 0 ? 0 : y));
}

void
cua_geom_pixel_to_root(const struct cua_shot_geom *g, int32_t ox, int32_t oy,
		       double px, double py, int32_t *rx, int32_t *ry)
{
	double wx, wy;

	cua_geom_pixel_to_point(g, px, py, &wx, &wy);
	cua_geom_point_to_root(g, ox, oy, wx, wy, rx, ry);
}

void
cua_geom_element_to_pixels(const struct cua_shot_geom *g,
			   const struct cua_rect *e, double *x, double *y,
			   double *w, double *h)
{
	double s = g->ppp > 0 ? g->ppp : 1.0;

	*x = (e->x + g->elem_dx) * s;
	*y = (e->y + g->elem_dy) * s;
	*w = e->w * s;
	*h = e->h * s;
}

void
cua_geom_element_center_to_root(const struct cua_shot_geom *g, int32_t ox,
				int32_t oy, const struct cua_rect *e,
				int32_t *rx, int32_t *ry)
{
	cua_geom_point_to_root(g, ox, oy, e->x + g->elem_dx + e->w / 2.0,
			       e->y + g->elem_dy + e->h / 2.0, rx, ry);
}
