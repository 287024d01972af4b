/*
 * What this desktop lacks, in the model's words: the refusals for a
 * window-system capability the session's display driver does not have
 * (display/display.h). Each names what is unavailable, the driver's
 * reason, and what still works. A backend without a display member
 * (recorded trees) refuses nothing here.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_CAPS_H
#define CUA_CORE_CAPS_H

#include "backend/backend.h"
#include "strbuf.h"

/* Pointer input at a position (click, scroll, drag): CUA_OK when the
 * pointer and window geometry work, else the refusal for `app_name`. */
cua_result
cua_caps_refuse_pointer(struct cua_backend *b, const char *app_name);

/* Keys for `app_name`: CUA_OK when the keyboard and the window list
 * (focus) work, else the refusal. */
cua_result
cua_caps_refuse_keys(struct cua_backend *b, const char *app_name);

/* A screenshot: NULL when capture, window geometry and the window list
 * work; else the reason for the observation (no final period, in
 * `arena`; NULL too when out of memory). */
const char *
cua_caps_shot_error(struct cua_backend *b, struct cua_arena *arena);

/* The same reason appended to sb; 0 (nothing appended) when nothing is
 * missing. */
int
cua_caps_shot_error_sb(struct cua_backend *b, struct strbuf *sb);

#endif
