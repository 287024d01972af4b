/*
 * Waiting for an app's tree to change (`cua watch`): the backend's event
 * watch (AT-SPI events of the app, the facility the settle uses), never
 * polling the tree.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "session.h"

struct wait_state {
	int changed;
};

/* Events that can change what the tree shows: structure, names,
 * descriptions, values, states, text, windows. */
static int
on_event(void *data, const struct cua_event *ev)
{
	struct wait_state *w = data;

	/* and "atspi:bus-lost": no event will come any more; observing
	 * again reconnects or says what is wrong */
	if (!ev->type || (strncmp(ev->type, "object:", 7) != 0 &&
			  strncmp(ev->type, "window:", 7) != 0 &&
			  strcmp(ev->type, "atspi:bus-lost") != 0))
		return 0;
	w->changed = 1;
	return 1;
}

static struct cua_proc_session *
proc_of(struct cua_session *s, const struct cua_tree *t)
{
	for (size_t i = 0; i < s->n_apps; i++) {
		struct cua_proc_session *p = s->apps[i]->proc;

		if (p && strcmp(s->apps[i]->app_id, t->app_id) == 0 &&
		    p->pid == t->pid && p->start_time == t->start_time)
			return p;
	}
	return NULL;
}

cua_result
cua_session_wait_internal(struct cua_session *s, const struct cua_tree *t,
			  int timeout_ms, int *changed)
{
	struct cua_backend *b = s->backend;
	const struct cua_backend_ops *ops = b->ops;
	struct cua_proc_session *p = proc_of(s, t);
	struct wait_state w = { 0 };
	int64_t deadline;
	uint32_t id = 0;
	cua_result r;

	*changed = 0;
	if (!ops->watch_add || !ops->watch_dispatch || !ops->watch_remove)
		return cua_error(CUA_ERROR_UNSUPPORTED,
				 "the %s backend cannot watch apps for changes",
				 ops->name);
	if (!p || !p->bus_name || !ops->process_alive(b, t->pid, t->start_time))
		return cua_error(CUA_ERROR_NOT_FOUND,
				 "the observed process (pid %lld) is gone",
				 (long long)t->pid);
	r = ops->watch_add(b, p->bus_name, 0, on_event, &w, &id);
	if (r != CUA_OK)
		return r;
	deadline = timeout_ms < 0 ? INT64_MAX :
				    cua_now_us() + (int64_t)timeout_ms * 1000;
	/* events queued since the observation count: dispatch delivers
	 * them first */
	while (!w.changed) {
		int64_t now = cua_now_us(), until;

		if (now >= deadline)
			break;
		/* wake up once a second to notice a process that exited */
		until = deadline - now > 1000000 ? now + 1000000 : deadline;
		ops->watch_dispatch(b, until);
		if (!w.changed &&
		    !ops->process_alive(b, t->pid, t->start_time)) {
			ops->watch_remove(b, id);
			return cua_error(
				CUA_ERROR_NOT_FOUND,
				"the observed process (pid %lld) exited",
				(long long)t->pid);
		}
	}
	ops->watch_remove(b, id);
	*changed = w.changed;
	return CUA_OK;
}
