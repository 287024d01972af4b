/*
 * The lock-screen guard (docs/safety.md §9): nothing is read from or sent
 * to an app while the screen is locked.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_LOCK_H
#define CUA_CORE_LOCK_H

#include "session.h"

/* How long an answer of the backend is trusted (docs/safety.md §9). */
#define CUA_LOCK_TTL_MS 1000

enum cua_lock_form {
	CUA_LOCK_READ,   /* an observation: "... before reading ..." */
	CUA_LOCK_ACTION, /* an action: "... Ask the user to unlock it ..." */
};

/*
 * CUA_OK when the screen is not locked; else raises E-SCREEN-LOCKED in
 * `form`. The backend's answer is reused for CUA_LOCK_TTL_MS unless
 * `fresh`. A backend that cannot tell is never locked.
 */
cua_result
cua_lock_guard(struct cua_session *s, enum cua_lock_form form, int fresh);

#endif
