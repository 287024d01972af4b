/*
 * The xwd route of window capture (capture.c): decoding what `xwd
 * -silent` writes. No Xlib types, so unit tests can include it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DISPLAY_X11_XWD_H
#define CUA_DISPLAY_X11_XWD_H

#include <stddef.h>
#include <stdint.h>

#include "core/image.h"

/*
 * Decodes an XWD file (as `xwd -silent` writes it: ZPixmap, TrueColor or
 * DirectColor) into pixels (data malloc'd). Returns 0 or -1.
 */
int xwd_decode(const uint8_t *buf, size_t len, struct cua_pixels *out);

#endif
