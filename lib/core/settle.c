/*
 * UI settle before an observation (docs/screenshots.md §6.2): bounded,
 * adaptive and driven by the backend's events (AT-SPI events of the app,
 * damage of its window), never by fixed sleeps.
 *
 * One watch per app (bus name) lives as long as the session, so an idle
 * app that was observed before is recognised without waiting: no event
 * during the last quiet interval and no action since the previous
 * observation -> no wait at all. An app seen for the first time in this
 * session is given a short probe (settle_probe_ms) instead of a whole
 * quiet interval, which keeps a one-shot `cua state` fast. The probe runs
 * while the tree is read (cua_settle_probe_end): an event in its span
 * settles the app as a known one and the tree is read again.
 *
 * After an action, an app that has answered is given a short quiet
 * interval (settle_answered_ms) instead of settle_quiet_ms: it reacted
 * (a signal arrived since the previous observation), its window drew a
 * frame after its last accessibility event (damage of any size, an
 * animation's included: GTK and Qt paint everything invalidated so far
 * in one frame, so the screenshot shows what the tree says), and a
 * round trip to it after that quiet (backend app_sync: it has read the
 * input, and what it emitted before its answer has arrived) brought
 * nothing new. A frame still to come ends the long wait as soon as it
 * arrives. Only where the display driver reports damage (X11, mutter);
 * sway keeps the long interval. Damage can arrive ahead of events the
 * app emitted before drawing (Qt sends them from another thread:
 * FeatherPad's check box): that app waits for its next frame (a caret
 * blink) or the long interval, whichever comes first. An action without a
 * visible reaction keeps the long quiet interval: its effect may be
 * slow, or not announced at all. Apps whose accessibility answers come
 * from another thread or process than the one that handles the input
 * (browsers, Java) keep it too.
 *
 * Shorter still (settle_drawn_ms): when the window drew again where each
 * object the events named lies (all_drawn: damage after the object's
 * last event over its place in the tree cache), since frames elsewhere
 * say nothing of a toolbar drawn later. While it waits, the settle makes
 * the tree cache's sweep the observation would make (cache_sweep.c).
 *
 * What this rests on, recorded with tools/bench/settle-timeline.c (the
 * arrival of each event and damage after a click): GTK 3 check boxes
 * (gtk3-widget-factory, Mousepad's preferences) draw 6 to 24 ms after
 * their CHECKED event, a click on the same box again within 2 s as
 * damage the noise filter drops (its repaint animates); GTK 4 draws 7
 * to 21 ms after its last event; galculator its display 0.3 to 10 ms
 * after; LibreOffice Writer its document 1 to 7 ms after, and its
 * toolbar (the Bold button) 6 to 25 ms later still, inside the quiet
 * interval that follows. FeatherPad's damage came 0.2 ms before its
 * event.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"
#include "session.h"

/* Damage smaller than this (a blinking caret, a spinner) is not a sign
 * that the UI is still changing. */
#define SMALL_DAMAGE_AREA (32 * 32)

/* A source (object and event type, or a screen area) that fires this
 * often is an animation (a spinner, a pulsing progress bar): its events
 * say nothing about the UI settling and are not counted. */
#define NOISE_COUNT 8
#define NOISE_WINDOW_US (1000 * 1000)
#define NOISE_HOLD_US (2000 * 1000)
#define NOISE_SLOTS 64

/* The cache's comparison of objects is made during the wait for quiet
 * when at least this much of it is left. */
#define PRESWEEP_MIN_US (5 * 1000)

/* The drawn rule (cua_settle): the objects named by the events since the
 * previous settle, and the window's latest frames. More events than fit,
 * or one whose place is not known, leave the rule out. */
#define DRAW_EVENTS 32
#define DRAW_FRAMES 32
#define DRAW_PATH 96
/* An object's cached place may be measured from a slightly other origin
 * than the window's (LibreOffice's toolbars: 25 px, frames.h) */
#define DRAW_MARGIN 32

struct draw_event {
	char path[DRAW_PATH];
	int64_t at; /* arrival of its last event */
};

struct draw_frame {
	struct cua_rect area; /* window pixels */
	int64_t at;
};

struct noise {
	uint64_t key;
	int64_t start_us, last_us, noisy_until;
	int count;
};

struct cua_settle {
	struct cua_settle *next;
	struct cua_session *s;
	char *bus_name;
	uint32_t watch_id;
	uint64_t window;          /* the window in the watch, 0 none */
	int64_t last_event_us;    /* arrival of the last counted event */
	int64_t last_atspi_us;    /* ... of the last counted AT-SPI event */
	int64_t last_frame_us;    /* ... of the last damage, of any size */
	int waiting_frame;        /* a settle waits for a frame */
	int64_t last_children_us; /* ... of the last children-changed */
	int64_t n_events;
	/* every AT-SPI event of the app, noise included, and every loss of
	 * events: what the tree cache compares (cache.h) */
	uint64_t gen;
	int busy;           /* state BUSY announced and not withdrawn */
	int acted;          /* input sent since the last settle */
	int64_t acted_us;   /* end of the last action, 0 none */
	int64_t settled_us; /* end of the previous settle */
	/* the first-sight probe while the walk runs: counted events that
	 * arrived before probe_until */
	int64_t probe_until, probe_hits;
	struct noise noise[NOISE_SLOTS];
	/* the drawn rule: objects named since the previous settle (none
	 * when draw_unknown), the latest frames (a ring) */
	struct draw_event draw_ev[DRAW_EVENTS];
	int n_draw_ev, draw_unknown;
	struct draw_frame draw_fr[DRAW_FRAMES];
	uint64_t n_draw_fr;
};

static uint64_t
hash_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* 1 when the event belongs to an animation. */
static int
is_noise(struct cua_settle *st, const struct cua_event *ev)
{
	uint64_t key = 14695981039346656037ull;
	struct noise *n = NULL, *oldest = &st->noise[0];

	if (ev->bus_name) {
		key = hash_str(key, ev->path);
		key = hash_str(key, ev->type);
	} else {
		/* damage: the same area, give or take a few pixels */
		key = (key ^ ev->window) * 1099511628211ull;
		key = (key ^ (uint64_t)((ev->area.x + ev->area.w / 2) / 32)) *
		      1099511628211ull;
		key = (key ^ (uint64_t)((ev->area.y + ev->area.h / 2) / 32)) *
		      1099511628211ull;
		key = (key ^ (uint64_t)(ev->area.w / 64)) * 1099511628211ull;
		key = (key ^ (uint64_t)(ev->area.h / 64)) * 1099511628211ull;
	}
	for (int i = 0; i < NOISE_SLOTS && !n; i++) {
		if (st->noise[i].key == key && st->noise[i].last_us)
			n = &st->noise[i];
		else if (st->noise[i].last_us < oldest->last_us)
			oldest = &st->noise[i];
	}
	if (!n) {
		n = oldest;
		memset(n, 0, sizeof(*n));
		n->key = key;
		n->start_us = ev->time_us;
	}
	if (ev->time_us - n->start_us > NOISE_WINDOW_US) {
		n->start_us = ev->time_us;
		n->count = 0;
	}
	n->count++;
	n->last_us = ev->time_us;
	if (n->count >= NOISE_COUNT)
		n->noisy_until = ev->time_us + NOISE_HOLD_US;
	return ev->time_us < n->noisy_until;
}

/* The timeline of what the settle saw: arrival times in ms after the
 * end of the last action (or, before any, of the previous settle). */
static void
trace(struct cua_settle *st, const char *what, const struct cua_event *ev)
{
	int64_t since =
		st->acted_us > st->settled_us ? st->acted_us : st->settled_us;

	if (st->s->ctx.log_level < CUA_LOG_TRACE)
		return;
	if (ev->bus_name)
		cua_log(&st->s->ctx, CUA_LOG_TRACE,
			"settle %s %+.1f ms %s %s %d %d", what,
			(ev->time_us - since) / 1000.0, ev->type,
			ev->path ? ev->path : "", ev->detail1, ev->detail2);
	else
		cua_log(&st->s->ctx, CUA_LOG_TRACE,
			"settle %s %+.1f ms %s %dx%d+%d+%d", what,
			(ev->time_us - since) / 1000.0, ev->type, ev->area.w,
			ev->area.h, ev->area.x, ev->area.y);
}

/*
 * Events whose change an app draws inside the object's own area: its
 * states (but coming into view or leaving it), name, description, value,
 * text, caret, selection. Others (children added or removed, moves,
 * windows) may draw anywhere.
 */
static int
draws_in_place(const char *type)
{
	static const char *const in_place[] = {
		"object:state-changed:",
		"object:property-change:accessible-name",
		"object:property-change:accessible-description",
		"object:property-change:accessible-value",
		"object:value-changed",
		"object:text-",
		"object:visible-data-changed",
		"object:selection-changed",
		"object:active-descendant-changed",
	};

	if (strcmp(type, "object:state-changed:showing") == 0 ||
	    strcmp(type, "object:state-changed:visible") == 0 ||
	    strcmp(type, "object:state-changed:defunct") == 0 ||
	    strcmp(type, "object:state-changed:iconified") == 0)
		return 0;
	for (size_t i = 0; i < sizeof(in_place) / sizeof(*in_place); i++)
		if (strncmp(type, in_place[i], strlen(in_place[i])) == 0)
			return 1;
	return 0;
}

/* A counted accessibility event: its object is one the window must draw
 * again before the drawn rule holds. */
static void
note_draw(struct cua_settle *st, const struct cua_event *ev)
{
	struct draw_event *d = NULL;

	if (st->draw_unknown)
		return;
	if (!ev->path || !draws_in_place(ev->type) ||
	    strlen(ev->path) >= DRAW_PATH) {
		st->draw_unknown = 1;
		return;
	}
	for (int i = 0; i < st->n_draw_ev && !d; i++)
		if (strcmp(st->draw_ev[i].path, ev->path) == 0)
			d = &st->draw_ev[i];
	if (!d) {
		if (st->n_draw_ev == DRAW_EVENTS) {
			st->draw_unknown = 1;
			return;
		}
		d = &st->draw_ev[st->n_draw_ev++];
		strcpy(d->path, ev->path);
	}
	if (ev->time_us > d->at)
		d->at = ev->time_us;
}

static int
overlaps(const struct cua_rect *a, const struct cua_rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

/*
 * The drawn rule: every object the events since the previous settle named
 * lies where a frame of the window drew after its last event (or does not
 * show). Its place is the tree cache's (screen coordinates, made window
 * pixels with `win`, the window's frame on the screen); an object the
 * cache does not know, or an event that may draw anywhere, leaves the
 * rule out (-1); 0: not drawn yet, 1: drawn, *drawn_at the last frame
 * that drew where one of them lies (an animation of it goes on).
 */
static int
all_drawn(struct cua_settle *st, const struct cua_rect *win, int64_t *drawn_at)
{
	uint64_t first =
		st->n_draw_fr > DRAW_FRAMES ? st->n_draw_fr - DRAW_FRAMES : 0;

	if (!win || !st->s->cache || st->draw_unknown || !st->n_draw_ev) {
		cua_log(&st->s->ctx, CUA_LOG_TRACE, "settle drawn: %s",
			!win             ? "no window frame" :
			!st->s->cache    ? "no cache" :
			st->draw_unknown ? "an event may draw anywhere" :
					   "no event");
		return -1;
	}
	for (int i = 0; i < st->n_draw_ev; i++) {
		const struct draw_event *d = &st->draw_ev[i];
		struct cua_rect a;
		int k = cua_cache_object_area(st->s->cache, st->bus_name,
					      d->path, &a),
		    found = 0;

		if (k < 0) {
			cua_log(&st->s->ctx, CUA_LOG_TRACE,
				"settle drawn: %s: its place is not known",
				d->path);
			return -1;
		}
		if (k == 0)
			continue; /* not showing: nothing to draw */
		a.x -= win->x + DRAW_MARGIN;
		a.y -= win->y + DRAW_MARGIN;
		a.w += 2 * DRAW_MARGIN;
		a.h += 2 * DRAW_MARGIN;
		for (uint64_t j = first; j < st->n_draw_fr; j++) {
			const struct draw_frame *f =
				&st->draw_fr[j % DRAW_FRAMES];

			if (f->at > d->at && overlaps(&f->area, &a)) {
				found = 1;
				if (f->at > *drawn_at)
					*drawn_at = f->at;
			}
		}
		if (!found) {
			cua_log(&st->s->ctx, CUA_LOG_TRACE,
				"settle drawn: %s (%dx%d%+d%+d) not drawn yet",
				d->path, a.w, a.h, a.x, a.y);
			return 0;
		}
	}
	return 1;
}

static int
on_event(void *data, const struct cua_event *ev)
{
	struct cua_settle *st = data;

	if (ev->bus_name || strncmp(ev->type, "atspi:", 6) == 0) {
		st->gen++;
		cua_cache_note(st->s->cache, st->bus_name, ev);
		cua_log(&st->s->ctx, CUA_LOG_TRACE, "cache event %s %s %d %d",
			ev->type, ev->path ? ev->path : "", ev->detail1,
			ev->detail2);
	}
	if (strcmp(ev->type, "atspi:events-lost") == 0)
		return 0;
	if (strcmp(ev->type, "x11:damage") == 0) {
		/* any repaint, even a small one or an animation's frame, is
		 * a frame the window drew: everything the app had invalidated
		 * is in it */
		int frame =
			st->waiting_frame && ev->time_us > st->last_atspi_us;

		if (ev->time_us > st->last_frame_us)
			st->last_frame_us = ev->time_us;
		st->draw_fr[st->n_draw_fr % DRAW_FRAMES].area = ev->area;
		st->draw_fr[st->n_draw_fr++ % DRAW_FRAMES].at = ev->time_us;
		if (frame)
			st->waiting_frame = 0;
		if ((int64_t)ev->area.w * ev->area.h < SMALL_DAMAGE_AREA) {
			trace(st, "small", ev);
			return frame;
		}
		if (is_noise(st, ev)) {
			trace(st, "noise", ev);
			return frame;
		}
		trace(st, "event", ev);
		if (ev->time_us > st->last_event_us)
			st->last_event_us = ev->time_us;
		st->n_events++;
		return frame;
	} else if (strcmp(ev->type, "object:state-changed:busy") == 0) {
		st->busy = ev->detail1 != 0;
	}
	if (is_noise(st, ev)) {
		trace(st, "noise", ev);
		return 0;
	}
	trace(st, "event", ev);
	if (ev->time_us > st->last_event_us)
		st->last_event_us = ev->time_us;
	if (ev->time_us > st->last_atspi_us)
		st->last_atspi_us = ev->time_us;
	if (strncmp(ev->type, "object:children-changed", 23) == 0)
		st->last_children_us = ev->time_us;
	note_draw(st, ev);
	st->n_events++;
	if (ev->time_us <= st->probe_until)
		st->probe_hits++;
	return 0;
}

static struct cua_settle *
find(struct cua_session *s, const char *bus_name)
{
	for (struct cua_settle *st = s->settle; st; st = st->next)
		if (strcmp(st->bus_name, bus_name) == 0)
			return st;
	return NULL;
}

static void
settle_free(struct cua_session *s, struct cua_settle *st)
{
	if (st->watch_id && s->backend && s->backend->ops->watch_remove)
		s->backend->ops->watch_remove(s->backend, st->watch_id);
	free(st->bus_name);
	free(st);
}

void
cua_settle_free_all(struct cua_session *s)
{
	struct cua_settle *st = s->settle, *n;

	for (; st; st = n) {
		n = st->next;
		settle_free(s, st);
	}
	s->settle = NULL;
}

static int
watch(struct cua_session *s, struct cua_settle *st, uint64_t window)
{
	const struct cua_backend_ops *ops = s->backend->ops;

	if (st->watch_id)
		ops->watch_remove(s->backend, st->watch_id);
	st->watch_id = 0;
	st->window = window;
	return ops->watch_add(s->backend, st->bus_name, window, on_event, st,
			      &st->watch_id) == CUA_OK ?
		       0 :
		       -1;
}

static void
dispatch(struct cua_session *s, int64_t deadline_us)
{
	s->backend->ops->watch_dispatch(s->backend, deadline_us);
}

void
cua_settle_note_action(struct cua_session *s, const char *bus_name)
{
	struct cua_settle *st;

	if (!s || !bus_name)
		return;
	st = find(s, bus_name);
	if (st) {
		st->acted = 1;
		st->acted_us = cua_now_us();
	}
	/* an app not watched yet is settled by the probe; the action is
	 * remembered once it is */
}

int
cua_settle_recent_children(struct cua_session *s, const char *bus_name, int ms)
{
	struct cua_settle *st = bus_name ? find(s, bus_name) : NULL;

	if (!st)
		return 0;
	dispatch(s, 0);
	return st->last_children_us &&
	       cua_now_us() - st->last_children_us < (int64_t)ms * 1000;
}

int
cua_settle_generation(struct cua_session *s, const char *bus_name,
		      uint64_t *gen)
{
	struct cua_settle *st = bus_name ? find(s, bus_name) : NULL;

	if (!st || !st->watch_id)
		return -1;
	dispatch(s, 0);
	*gen = st->gen;
	return 0;
}

/*
 * Toolkits whose accessibility requests are answered by the main loop
 * that also handles the app's input: an answer means that the input was
 * handled. GTK and Qt (LibreOffice's VCL announces itself through them).
 */
static int
answers_in_input_loop(const char *toolkit)
{
	return toolkit &&
	       (strcasecmp(toolkit, "GTK") == 0 || cua_toolkit_is_qt(toolkit));
}

/* The app's answer to a round trip within what is left of the cap, and
 * within the long quiet interval: an app slower than that to answer is
 * settled the long way. */
static int
app_answered(struct cua_session *s, struct cua_settle *st, int64_t t0,
	     int64_t cap)
{
	int64_t left_ms = (t0 + cap - cua_now_us()) / 1000;

	if (left_ms > s->ctx.opt.settle_quiet_ms)
		left_ms = s->ctx.opt.settle_quiet_ms;

	if (left_ms < 1 || !s->backend->ops->app_sync)
		return 0;
	if (s->backend->ops->app_sync(s->backend, st->bus_name, (int)left_ms) <
	    0)
		return 0;
	dispatch(s, 0);
	if (st->acted_us)
		cua_log(&s->ctx, CUA_LOG_TRACE, "settle answered %+.1f ms",
			(cua_now_us() - st->acted_us) / 1000.0);
	return 1;
}

void
cua_settle(struct cua_session *s, const struct cua_app_info *app,
	   uint64_t window, const struct cua_rect *frame, int acted,
	   struct cua_settle_result *res)
{
	const struct cua_backend_ops *ops = s->backend->ops;
	const struct cua_options *opt = &s->ctx.opt;
	const char *bus_name = app->bus_name, *toolkit = app->toolkit;
	struct cua_settle *st;
	int64_t t0 = cua_now_us(), q = (int64_t)opt->settle_quiet_ms * 1000;
	int64_t qa = (int64_t)opt->settle_answered_ms * 1000;
	int64_t qd = (int64_t)opt->settle_drawn_ms * 1000;
	int64_t n0, now, ref, qq, drawn_at;
	int fresh = 0, short_ok = 0, reacted, drawn, answered, swept = 0,
	    by_drawn = 0, rule;

	memset(res, 0, sizeof(*res));
	if (!bus_name || !*bus_name || !ops->watch_add || !ops->watch_dispatch)
		return;
	st = find(s, bus_name);
	if (!st) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return;
		st->s = s;
		st->bus_name = strdup(bus_name);
		/* the window's damage is watched from the next settle on:
		 * tracking it now redirects it, and the repaint that follows
		 * is ours, not the app's (capture.c waits for it) */
		if (!st->bus_name || watch(s, st, 0) < 0) {
			free(st->bus_name);
			free(st);
			return;
		}
		st->next = s->settle;
		s->settle = st;
		fresh = 1;
		if (window && ops->track_window)
			ops->track_window(s->backend, window);
	} else if (window && window != st->window) {
		watch(s, st, window);
	}
	n0 = st->n_events;
	dispatch(s, 0);
	acted = acted || st->acted;
	st->acted = 0;

	if (fresh && !acted && st->n_events == n0) {
		/* first sight: a short probe for activity, during the walk
		 * (cua_settle_probe_end) */
		res->probe_open = 1;
		res->probe_t0 = t0;
		res->probe_n0 = n0;
		st->probe_until = t0 + (int64_t)opt->settle_probe_ms * 1000;
		st->probe_hits = 0;
		goto done;
	} else if (fresh && !acted) {
		/* first sight, and events already */
	} else if (!acted && !st->busy &&
		   (st->last_event_us == 0 ||
		    cua_now_us() - st->last_event_us >= q)) {
		goto done;
	}
	/* the short quiet interval: after an action, for an app whose
	 * answer says it handled the input */
	short_ok = acted && qa < q && answers_in_input_loop(toolkit) &&
		   app_answered(s, st, t0, (int64_t)opt->settle_cap_ms * 1000);
	for (;;) {
		int64_t cap = (int64_t)(st->busy ? opt->settle_busy_cap_ms :
						   opt->settle_cap_ms) *
			      1000;

		now = cua_now_us();
		if (now - t0 >= cap) {
			res->capped = 1;
			break;
		}
		ref = st->last_event_us;
		if (acted && t0 > ref)
			ref = t0;
		/* it reacted (a signal since the previous observation), and
		 * its window drew a frame after the last accessibility
		 * event: the screenshot shows what the tree says. Without
		 * damage of the window, as on drivers that report none, the
		 * long interval; a frame still to come ends that wait. */
		reacted = st->last_event_us > st->settled_us;
		drawn = st->last_frame_us > st->settled_us &&
			st->last_frame_us > st->last_atspi_us;
		answered = short_ok && reacted && drawn;
		qq = answered ? qa : q;
		/* and each object its events named was drawn again: the
		 * drawn interval (only where the answered one applies: not
		 * because settle_answered_ms was set equal to q) */
		drawn_at = 0;
		rule = answered && qd < qa ? all_drawn(st, frame, &drawn_at) :
					     -1;
		/* quiet where they lie for the drawn interval (a check
		 * mark's animation draws on), within the answered one */
		by_drawn = rule == 1 && drawn_at + qd < ref + qa;
		if (by_drawn) {
			qq = qd;
			if (drawn_at > ref)
				ref = drawn_at;
		}
		/* a frame still to come ends the wait for it (each one,
		 * while the drawn rule weighs them) */
		st->waiting_frame =
			short_ok && reacted && (!drawn || rule >= 0);
		/* the wait for quiet reads what the observation will: the
		 * cache's comparison of objects, if the app sends nothing
		 * from here on (cua_cache_presweep). At once, frames still
		 * to come or not: measured on Writer, the app draws them
		 * a little later, but the whole ends sooner than a sweep
		 * after them */
		if (!swept && short_ok && reacted && drawn && !st->busy &&
		    ref + qq - now >= PRESWEEP_MIN_US) {
			swept = 1;
			cua_cache_presweep(s, app);
			res->presweep_us = cua_now_us() - now;
			continue;
		}
		if (now - ref >= qq && !st->busy) {
			int64_t n1 = st->n_events;

			if (qq == q)
				break;
			/* quiet for the short interval: one more answer
			 * brings whatever the app emitted meanwhile */
			if (!app_answered(s, st, t0, cap)) {
				short_ok = 0;
				continue;
			}
			if (st->n_events == n1)
				break;
			res->rounds++;
			continue;
		}
		if (st->busy)
			dispatch(s, t0 + cap < now + qq ? t0 + cap : now + qq);
		else
			dispatch(s, ref + qq < t0 + cap ? ref + qq : t0 + cap);
	}
done:
	st->waiting_frame = 0;
	/* the drawn rule starts afresh with the next events */
	st->n_draw_ev = 0;
	st->draw_unknown = 0;
	res->busy = st->busy;
	res->events = (int)(st->n_events - n0);
	res->settle_us = cua_now_us() - t0;
	if (acted && st->acted_us)
		cua_log(&s->ctx, CUA_LOG_TRACE, "settle end %+.1f ms",
			(cua_now_us() - st->acted_us) / 1000.0);
	st->settled_us = cua_now_us();
	if (res->probe_open)
		return;
	if (res->settle_us > 1000 || res->events) {
		char swept_note[64] = "";

		if (res->presweep_us)
			snprintf(swept_note, sizeof(swept_note),
				 ", %lld us of it sweeping the cache",
				 (long long)res->presweep_us);
		cua_debug(&s->ctx, "settle %s: %lld us, %d events%s%s%s%s%s%s",
			  bus_name, (long long)res->settle_us, res->events,
			  acted ? ", after an action" : "",
			  short_ok ? ", answered" : "",
			  by_drawn ? ", drawn" : "", res->busy ? ", busy" : "",
			  res->capped ? ", capped" : "", swept_note);
	}
}

int
cua_settle_probe_end(struct cua_session *s, const struct cua_app_info *app,
		     struct cua_settle_result *res)
{
	const char *bus_name = app->bus_name;
	struct cua_settle *st = bus_name ? find(s, bus_name) : NULL;
	int64_t t0 = cua_now_us(), waited;
	struct cua_settle_result more;

	if (!res->probe_open)
		return 0;
	res->probe_open = 0;
	if (!st)
		return 0;
	dispatch(s, st->probe_until);
	waited = cua_now_us() - t0;
	st->settled_us = cua_now_us();
	st->probe_until = 0;
	/* the events of the probe's span, as the probe before the read
	 * counted them; later ones may be the read's own doing (GTK 3
	 * announces states and bounds of objects as they are first read)
	 * and are the next observation's to weigh */
	if (st->probe_hits == 0) {
		res->settle_us += waited;
		return 0;
	}
	/* it changed while it was read: settle it as a known app, from
	 * its last event on, and read again */
	cua_settle(s, app, st->window, NULL, 0, &more);
	cua_debug(&s->ctx,
		  "settle %s: %lld events in the first %d ms of the read: "
		  "read again",
		  bus_name, (long long)st->probe_hits,
		  s->ctx.opt.settle_probe_ms);
	res->settle_us += waited + more.settle_us;
	res->capped = more.capped;
	res->busy = more.busy;
	res->events = (int)(st->n_events - res->probe_n0);
	res->rounds = more.rounds;
	return 1;
}
