/*
 * The xwd route of window capture (xwd.c, used by capture.c): running
 * `xwd -silent` and decoding what it writes. No Xlib types, so unit tests
 * can include it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_X11_XWD_H
#define CUA_DISPLAY_X11_XWD_H

#include <stddef.h>
#include <stdint.h>

#include "core/ctx.h"
#include "core/image.h"
#include "display/display.h"

/*
 * Decodes an XWD file (as `xwd -silent` writes it: ZPixmap, TrueColor or
 * DirectColor) into pixels (data malloc'd). Returns 0 or -1.
 */
int
xwd_decode(const uint8_t *buf, size_t len, struct cua_pixels *out);

/*
 * Captures `window` of X display `display` (NULL: ":0") with xwd within
 * timeout_ms, cropping the CSD margins `ext` (left, right, top, bottom;
 * NULL: none). CUA_CAPTURE_OK with *out (route CUA_CAPTURE_SUBPROCESS,
 * frame at 0,0: xwd does not say where the window is), else
 * CUA_CAPTURE_TIMEOUT.
 */
enum cua_capture_status
capture_xwd(const char *display, struct cua_ctx *ctx, uint64_t window,
	    int timeout_ms, const int32_t ext[4], struct cua_capture **out);

#endif
