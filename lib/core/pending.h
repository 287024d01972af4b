/*
 * E-PERMISSIONS-PENDING for apps still connecting to the accessibility
 * bus (docs/safety.md §7).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_PENDING_H
#define CUA_CORE_PENDING_H

#include "session.h"

#define CUA_PENDING_MAX 3    /* answers in a row for one process */
#define CUA_PENDING_AGE_S 15 /* only this long after it started */

/* CUA_OK, or E-PERMISSIONS-PENDING for `app` when it is not on the
 * accessibility bus and started moments ago. */
cua_result
cua_pending_guard(struct cua_session *s, const struct cua_app_info *app);

#endif
