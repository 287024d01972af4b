/*
 * The person at the desktop (docs/safety.md §6). The display driver
 * reports the person's own key and button presses from a thread of its
 * own (display.h, user_watch); they are kept here in a small ring with a
 * running number, which observations remember and actions compare:
 *
 *  - between actions: a press on the app's window since its last
 *    observation refuses the next action with E-USER-CHANGED until the
 *    app is observed again;
 *  - during an action: any press, and during a drag any motion of the
 *    person's pointer, stops it between two synthetic events (the
 *    display interrupt, core/guards.c) and ends it with E-USER-CHANGED,
 *    and the app counts as changed until observed (motion between
 *    actions changes nothing: a pointer that only moves types nothing,
 *    clicks nothing);
 *    an Escape press stops Computer Use instead;
 *  - the stop (the stop hotkey, or cua_session_set_stopped()) refuses
 *    every observation and action with E-USER-STOPPED until it is lifted
 *    (a new turn) or CUA_STOP_MAX_MS passed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "user.h"

#define RING 64
#define CHAIN 8
#define XK_Escape 0xff1b

struct press {
	uint64_t seq;
	int kind;
	uint32_t keysym;
	uint64_t win[CHAIN];
	size_t n_win;
};

struct cua_user {
	pthread_mutex_t mu;
	uint64_t seq; /* presses so far */
	struct press ring[RING];
	atomic_llong stopped_at; /* cua_now_us() of the stop; 0 none */
	atomic_ullong motion;    /* the person's pointer motions so far */
	int started, watching;
	char why[160];
	struct cua_display *d;
	struct cua_ctx *ctx;
};

static struct cua_user *
user_of(struct cua_session *s)
{
	if (!s->user) {
		s->user = calloc(1, sizeof(*s->user));
		if (s->user)
			pthread_mutex_init(&s->user->mu, NULL);
	}
	return s->user;
}

/* The driver's thread. */
static void
on_press(void *data, const struct cua_user_event *ev)
{
	struct cua_user *u = data;
	struct press *p;

	if (ev->kind == CUA_USER_STOP_KEY) {
		atomic_store(&u->stopped_at, (long long)ev->time_us);
		return;
	}
	if (ev->kind == CUA_USER_MOTION) {
		atomic_fetch_add(&u->motion, 1);
		return;
	}
	pthread_mutex_lock(&u->mu);
	p = &u->ring[u->seq % RING];
	memset(p, 0, sizeof(*p));
	p->seq = ++u->seq;
	p->kind = ev->kind;
	p->keysym = ev->keysym;
	p->n_win = ev->n_windows < CHAIN ? ev->n_windows : CHAIN;
	memcpy(p->win, ev->windows, p->n_win * sizeof(p->win[0]));
	pthread_mutex_unlock(&u->mu);
}

int
cua_user_init(struct cua_session *s)
{
	return user_of(s) ? 0 : -1;
}

void
cua_user_start(struct cua_session *s)
{
	struct cua_user *u = user_of(s);
	struct cua_backend *b = s->backend;

	if (!u || u->started)
		return;
	u->started = 1;
	u->ctx = &s->ctx;
	u->d = b && b->ops->display ? b->ops->display(b) : NULL;
	if (!u->d || !u->d->ops->user_watch) {
		snprintf(u->why, sizeof(u->why),
			 "the %s display driver cannot tell a person's input "
			 "from synthetic input",
			 u->d ? u->d->ops->name : "current");
		return;
	}
	u->watching = u->d->ops->user_watch(u->d, on_press, u, u->why,
					    sizeof(u->why));
	if (!u->watching)
		cua_info(&s->ctx, "user intervention is not detected: %s",
			 u->why);
}

void
cua_user_free(struct cua_session *s)
{
	if (!s->user)
		return;
	pthread_mutex_destroy(&s->user->mu);
	free(s->user);
	s->user = NULL;
}

uint64_t
cua_user_seq(struct cua_session *s)
{
	struct cua_user *u = s->user;
	uint64_t n;

	if (!u)
		return 0;
	pthread_mutex_lock(&u->mu);
	n = u->seq;
	pthread_mutex_unlock(&u->mu);
	return n;
}

uint64_t
cua_user_motion(struct cua_session *s)
{
	return s->user ? atomic_load(&s->user->motion) : 0;
}

int
cua_user_stopped(struct cua_session *s)
{
	struct cua_user *u = s->user;
	long long at = u ? atomic_load(&u->stopped_at) : 0;

	if (!at)
		return 0;
	if (cua_now_us() - at > (int64_t)CUA_STOP_MAX_MS * 1000) {
		atomic_store(&u->stopped_at, 0);
		return 0;
	}
	return 1;
}

void
cua_user_set_stopped(struct cua_session *s, int stopped)
{
	struct cua_user *u = user_of(s);

	if (u)
		atomic_store(&u->stopped_at,
			     stopped ? (long long)cua_now_us() : 0);
}

void
cua_user_stop_key(struct cua_session *s, int grab)
{
	struct cua_user *u;

	cua_user_start(s);
	u = s->user;
	if (u && u->watching && u->d->ops->user_stop_key)
		u->d->ops->user_stop_key(u->d, grab);
}

int
cua_user_watching(struct cua_session *s, const char **why)
{
	struct cua_user *u = s->user;

	*why = u && u->why[0] ? u->why : "not started";
	return u && u->watching;
}

cua_result
cua_user_guard_stop(struct cua_session *s)
{
	if (cua_user_stopped(s))
		return cua_err(CUA_MSG_USER_STOPPED);
	return CUA_OK;
}

static cua_result
changed(const char *app_id)
{
	return cua_err(CUA_MSG_USER_CHANGED, { "app_id", app_id });
}

cua_result
cua_user_guard_between(struct cua_session *s, uint64_t since, uint64_t window,
		       int intervened, const char *app_id)
{
	struct cua_user *u = s->user;
	int hit = intervened;

	if (!u || hit)
		return hit ? changed(app_id) : CUA_OK;
	pthread_mutex_lock(&u->mu);
	for (size_t i = 0; i < RING && !hit; i++) {
		const struct press *p = &u->ring[i];

		if (!p->seq || p->seq <= since)
			continue;
		for (size_t k = 0; k < p->n_win; k++)
			if (window && p->win[k] == window)
				hit = 1;
	}
	/* more presses than the ring holds: some went unseen */
	if (u->seq > since + RING)
		hit = 1;
	pthread_mutex_unlock(&u->mu);
	return hit ? changed(app_id) : CUA_OK;
}

cua_result
cua_user_guard_during(struct cua_session *s, uint64_t since,
		      uint64_t motion_since, const char *app_id, int sync)
{
	struct cua_user *u = s->user;
	int escape = 0, any;

	if (cua_user_stopped(s))
		return cua_err(CUA_MSG_USER_STOPPED);
	if (!u || !u->watching)
		return CUA_OK;
	if (sync && u->d->ops->user_sync)
		u->d->ops->user_sync(u->d, 50);
	pthread_mutex_lock(&u->mu);
	any = u->seq > since;
	for (size_t i = 0; i < RING; i++)
		if (u->ring[i].seq > since && u->ring[i].kind == CUA_USER_KEY &&
		    u->ring[i].keysym == XK_Escape)
			escape = 1;
	pthread_mutex_unlock(&u->mu);
	if (motion_since != CUA_USER_NO_MOTION &&
	    atomic_load(&u->motion) > motion_since)
		any = 1;
	if (escape) {
		cua_user_set_stopped(s, 1);
		return cua_err(CUA_MSG_USER_STOPPED);
	}
	return any ? changed(app_id) : CUA_OK;
}
