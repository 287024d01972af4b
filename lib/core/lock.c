/*
 * The lock-screen guard (docs/safety.md §9), with the backend's answer
 * cached for a second: observations and actions ask before they start,
 * the display driver's input loops ask between events (through the
 * action's interrupt, core/guards.c), and an action asks once more,
 * uncached, when it ends, so a lock that starts mid-action ends it with
 * the lock sentence.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "errors.h"
#include "lock.h"

cua_result
cua_lock_guard(struct cua_session *s, enum cua_lock_form form, int fresh)
{
	struct cua_backend *b = s->backend;
	char source[64];
	int64_t now = cua_now_us(), t0;

	if (!b || !b->ops->screen_locked)
		return CUA_OK;
	if (fresh || !s->lock_checked_us ||
	    now - s->lock_checked_us >= (int64_t)CUA_LOCK_TTL_MS * 1000) {
		t0 = now;
		s->lock_locked =
			b->ops->screen_locked(b, source, sizeof(source)) == 1;
		s->lock_checked_us = cua_now_us();
		s->lock_probe_us = s->lock_checked_us - t0;
		cua_debug(&s->ctx, "lock probe: %s (%.3f ms)",
			  s->lock_locked ? source : "unlocked",
			  s->lock_probe_us / 1000.0);
	}
	if (!s->lock_locked)
		return CUA_OK;
	return form == CUA_LOCK_READ ? cua_err(CUA_MSG_SCREEN_LOCKED_READ) :
				       cua_err(CUA_MSG_SCREEN_LOCKED_ACTION);
}
