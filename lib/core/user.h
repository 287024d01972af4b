/*
 * The person at the desktop (docs/safety.md §6): their own input during
 * and between actions (E-USER-CHANGED), and their stop (E-USER-STOPPED:
 * cua_session_set_stopped(), or the stop hotkey).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_USER_H
#define CUA_CORE_USER_H

#include <stdint.h>

#include "session.h"

/* A stop lasts until it is lifted, at most this long. */
#define CUA_STOP_MAX_MS (5 * 60 * 1000)

struct cua_user;

/* Allocates the session's state (before another thread may stop it);
 * 0 or -1. */
int
cua_user_init(struct cua_session *s);
/* Starts watching (once per session; later calls are cheap). */
void
cua_user_start(struct cua_session *s);
void
cua_user_free(struct cua_session *s);

/* The number of presses seen so far (an observation remembers it). */
uint64_t
cua_user_seq(struct cua_session *s);

/* E-USER-STOPPED while the user's stop holds. */
cua_result
cua_user_guard_stop(struct cua_session *s);
/*
 * E-USER-CHANGED (naming app_id) when, since press number `since`, the
 * person pressed a key while `window` had that keyboard's focus or a
 * button over it, or `intervened` is set.
 */
cua_result
cua_user_guard_between(struct cua_session *s, uint64_t since, uint64_t window,
		       int intervened, const char *app_id);
/* The number of the person's pointer motions seen so far. */
uint64_t
cua_user_motion(struct cua_session *s);
/* `motion_since` for actions in which motion does not count. */
#define CUA_USER_NO_MOTION UINT64_MAX
/* During an action that began at press number `since`: E-USER-STOPPED for
 * a stop or an Escape press, E-USER-CHANGED for any other press, and for
 * the person's pointer motion after motion number `motion_since` (a
 * drag's; CUA_USER_NO_MOTION for other actions). With `sync`, first
 * waits until the window system's input so far was seen. */
cua_result
cua_user_guard_during(struct cua_session *s, uint64_t since,
		      uint64_t motion_since, const char *app_id, int sync);

void
cua_user_set_stopped(struct cua_session *s, int stopped);
int
cua_user_stopped(struct cua_session *s);
/* Grabs or lets go of the stop hotkey (option stop_hotkey). */
void
cua_user_stop_key(struct cua_session *s, int grab);
/* 1 when presses are watched; else 0 with the reason in why. */
int
cua_user_watching(struct cua_session *s, const char **why);

#endif
