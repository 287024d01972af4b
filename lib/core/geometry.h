/*
 * Screenshot geometry (docs/screenshots.md §3–§4, docs/actions.md §2.1): the
 * scaling rule, and the one mapping between screenshot pixels, window
 * points, element frames and root (screen) pixels.
 *
 * Coordinate spaces:
 *  - screenshot pixels: the image returned with an observation, origin at
 *    its top-left corner;
 *  - window points: the window's frame (the client window minus CSD
 *    shadow margins) in logical points, origin at the frame's top-left
 *    corner, which is also the image's; pixel = point * pixels_per_point;
 *  - element frames (struct cua_element.frame): window points too. The
 *    walk measures them from the accessibility window's own origin; the
 *    observation then moves them by cua_geom_element_origin() (0 for GTK 3
 *    with CSD, Qt and Chromium; GTK 4's undeclared 5 px resize margin; the
 *    title bar of a GTK 3 window that the window manager decorates), so a
 *    published tree's frames share the image's origin and elem_dx/elem_dy
 *    are 0 (tree->frames_normalised); subtrees measured from another
 *    origin are moved too (rule 5 below, frames.h). For live AT-SPI
 *    extents, compute the offset with cua_geom_element_origin() against
 *    the live frame, and the subtree's move with
 *    cua_frames_chain_shift();
 *  - root pixels: X11 root-window coordinates; root = frame origin +
 *    window point * device_pixels_per_point.
 *
 * For the actions (click --at, drag, coordinate scroll): check
 * the pixel with cua_geom_pixel_in_image(), then map it with
 * cua_geom_pixel_to_root(), passing the window's *current* frame origin
 * (a window that moved is fine: coordinates are window-relative).
 *
 * Platform-neutral; no I/O.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_GEOMETRY_H
#define CUA_CORE_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "raw.h"

/* The geometry of one screenshot, stored with the observation. */
struct cua_shot_geom {
	uint64_t x11_window;     /* the captured window */
	struct cua_rect frame;   /* its frame at capture time, root pixels */
	double device_ppp;       /* devicePixelsPerPoint: 1, 1.25, 2, ... */
	double ppp;              /* pixelsPerPoint: points -> image pixels */
	uint32_t width, height;  /* image size in pixels */
	double elem_dx, elem_dy; /* element-frame origin, in window points */
};

/* Default limits (docs/screenshots.md §10). */
#define CUA_SHOT_MAX_LONG_EDGE 2048
#define CUA_SHOT_MAX_SHORT_EDGE 768

/*
 * The scaling rule of docs/screenshots.md §4 for a window of wp x hp points:
 * s = min(1, max_long / long edge, max_short / short edge); the image is
 * ceil(wp * s - 1e-6) x ceil(hp * s - 1e-6) pixels (at least 1 x 1).
 * 1398 x 769 -> s = 768/769, 1397 x 768.
 */
void
cua_geom_scale(double wp, double hp, uint32_t max_long, uint32_t max_short,
	       double *s, uint32_t *w, uint32_t *h);

/*
 * devicePixelsPerPoint: the frame's width in pixels over the
 * accessibility window's width in points, rounded to the nearest 0.25
 * and at least 1. `full_px` is the whole X window's width (CSD shadows
 * included), tried too because some toolkits report that; the candidate
 * closer to a multiple of 0.25 wins. 1 when the width is unknown (<= 0).
 */
double
cua_geom_device_ppp(int32_t frame_px, int32_t full_px, int32_t atspi_w);

/* Where a window lies, as the window system says (root pixels). */
struct cua_geom_window {
	struct cua_rect frame;   /* its content: CSD shadows removed */
	struct cua_rect surface; /* the whole client window; w 0: unknown */
	/* with the window manager's decorations (title bar, borders);
	 * w 0: unknown */
	struct cua_rect outer;
};

/*
 * Where the accessibility window's origin lies in window points, from its
 * reported extents `a` (AT-SPI "screen" coordinates) and where the window
 * system has the window, both measured at the same observation. The
 * decision rests on which rectangle `a` is, never on its value alone:
 *  1. `a` equals the frame, the whole client window or the window
 *     manager's frame in position and size (1 px of slack): root
 *     coordinates, origin a - frame (GTK 3 and LibreOffice report the
 *     window manager's frame, title bar included, also when maximised at
 *     (0, 0); Chromium the whole window with its shadows; Qt and Firefox
 *     the client window);
 *  2. otherwise `a` at (0, 0) with the size of the whole client window
 *     (known, and placed apart from the frame): surface-relative
 *     coordinates (Wayland, a client-side shadow around the frame), origin
 *     surface - frame;
 *  3. otherwise `a` at (0, 0): window-relative coordinates (GTK 4,
 *     docs/toolkits.md): its content is centred in the frame by a symmetric
 *     margin (GTK 4's resize border, which it does not declare in
 *     _GTK_FRAME_EXTENTS), 0 when that does not fit;
 *  4. otherwise root coordinates, a - frame.
 *
 * A 5th rule corrects parts of a window rather than its origin: see
 * cua_geom_children_moved() and frames.h.
 */
void
cua_geom_element_origin(const struct cua_rect *a,
			const struct cua_geom_window *w, double device_ppp,
			double *dx, double *dy);

/* `in` lies inside `out`, with 1 px of slack on each side. */
int
cua_geom_rect_within(const struct cua_rect *in, const struct cua_rect *out);

/*
 * Rule 4: descendants measured from another origin than their container's.
 * LibreOffice's VCL widgets under the gtk3 plugin report screen positions
 * as if their native host widget began at the window's client top-left:
 * below a native GTK menu bar (25 px) every VCL widget lies that much too
 * high, above its own container's top. VCL in turn hosts native GTK islands
 * (the Name Box, the sidebar's tab bar) that report where they are. So a
 * subtree can use one of two systems: the true one (shift 0) and one
 * offset by the host's position within the client area (shift o).
 *
 * `parent` is a container's frame in window points, already corrected;
 * `kids` its children's frames as reported (window points, n >= 1), and
 * (cx, cy) the shift the parent's subtree uses. The children move to the
 * other system (ax, ay) exactly when every one of them lies outside the
 * parent with the current shift and inside it with the other one. Toolkits
 * that report correctly have their children inside their containers, and
 * a fixed LibreOffice no longer lies outside: both keep shift 0.
 */
int
cua_geom_children_moved(const struct cua_rect *parent,
			const struct cua_rect *kids, size_t n, int32_t cx,
			int32_t cy, int32_t ax, int32_t ay);

/* 1 when (px, py) lies inside the image: 0 <= px < width, 0 <= py <
 * height. */
int
cua_geom_pixel_in_image(const struct cua_shot_geom *g, double px, double py);

/* Screenshot pixel -> window point: (px / ppp, py / ppp). */
void
cua_geom_pixel_to_point(const struct cua_shot_geom *g, double px, double py,
			double *wx, double *wy);

/*
 * Window point -> root pixel, through the frame origin (ox, oy) in root
 * pixels (the current one; g->frame.x/y at capture time): the pixel under
 * the point (rounded down), kept inside the frame.
 */
void
cua_geom_point_to_root(const struct cua_shot_geom *g, int32_t ox, int32_t oy,
		       double wx, double wy, int32_t *rx, int32_t *ry);

/* Screenshot pixel -> root pixel (the two steps above). */
void
cua_geom_pixel_to_root(const struct cua_shot_geom *g, int32_t ox, int32_t oy,
		       double px, double py, int32_t *rx, int32_t *ry);

/* An element frame (window-relative points, as stored in the tree) ->
 * its box in screenshot pixels (fractional). */
void
cua_geom_element_to_pixels(const struct cua_shot_geom *g,
			   const struct cua_rect *e, double *x, double *y,
			   double *w, double *h);

/* The centre of an element frame -> root pixel, through the frame origin
 * (ox, oy). */
void
cua_geom_element_center_to_root(const struct cua_shot_geom *g, int32_t ox,
				int32_t oy, const struct cua_rect *e,
				int32_t *rx, int32_t *ry);

#endif
