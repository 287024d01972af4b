/*
 * The read of an app with a window but no accessibility registration
 * (bare.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_BARE_H
#define CUA_CORE_BARE_H

#include "backend/backend.h"

/* A snapshot of `app` (not on the accessibility bus) holding one window
 * node made from its window on the display: title, frame, focus, no
 * children. `who` names the app in messages. CUA_MSG_NOT_ACCESSIBLE when
 * the display shows no window of its process. */
cua_result
cua_bare_snapshot(struct cua_backend *b, const struct cua_app_info *app,
		  const char *who, struct cua_raw_snapshot **out);

#endif
