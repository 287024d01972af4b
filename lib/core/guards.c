/*
 * The staleness guards of every action (docs/identity.md §5), in their order:
 *
 *   2  the person did not stop Computer Use (core/user.c)
 *   3  `app` resolves to exactly one running target
 *   6  the screen is not locked (core/lock.c; again while the action
 *      runs and when it ends)
 *   7  a session exists for it (observed by get_app_state)
 *   8  its process identity is unchanged
 *   9  the person did not use the app since (core/user.c; their presses
 *      while the action runs stop it)
 *  10  (element actions) the element id resolves in the live tree
 *
 * Rows 1 and 4 (turns, policy and approval) belong to the MCP server; 5
 * to the backend and the server. The first failing check produces the error; nothing is sent.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "act.h"
#include "errors.h"
#include "inputlock.h"
#include "lock.h"
#include "user.h"

const char *
cua_act_app_name(const struct cua_act *a)
{
	if (a->app && a->app->app_name && *a->app->app_name)
		return a->app->app_name;
	if (a->as && a->as->app_name && *a->as->app_name)
		return a->as->app_name;
	return a->query ? a->query : "";
}

void
cua_act_route(struct cua_act *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->route, sizeof(a->route), fmt, ap);
	va_end(ap);
}

static struct cua_app_session *
find_session(struct cua_session *s, const char *app_id)
{
	for (size_t i = 0; i < s->n_apps; i++)
		if (strcmp(s->apps[i]->app_id, app_id) == 0)
			return s->apps[i];
	return NULL;
}

/* An app session the query names (by id or name), when the query matches
 * no running app: its process went away. */
static struct cua_app_session *
session_named(struct cua_session *s, const char *query)
{
	for (size_t i = 0; i < s->n_apps; i++) {
		struct cua_app_session *as = s->apps[i];

		if (!as->proc && !as->proc_gone)
			continue;
		if (strcasecmp(as->app_id, query) == 0 ||
		    (as->app_name && strcasecmp(as->app_name, query) == 0))
			return as;
	}
	return NULL;
}

/* Polled by the display driver between synthetic events of an action. */
static cua_result
act_interrupt(void *data)
{
	struct cua_act *a = data;
	cua_result r;

	r = cua_user_guard_during(a->s, a->user_seq, a->motion_seq,
				  a->app->app_id, 0);
	if (r != CUA_OK) {
		if (a->as->proc)
			a->as->proc->user_intervened = 1;
		return r;
	}
	return cua_lock_guard(a->s, CUA_LOCK_ACTION, 0);
}

static cua_result
running_app_not_found(const char *query)
{
	return cua_err(CUA_MSG_RUNNING_APP_NOT_FOUND, { "app", query });
}

static cua_result
not_active(const char *query)
{
	return cua_err(CUA_MSG_NOT_ACTIVE, { "app", query });
}

static const char *
trimmed(const char *q)
{
	while (*q == ' ' || *q == '\t')
		q++;
	return q;
}

cua_result
cua_act_begin(struct cua_act *a, struct cua_session *s, const char *tool,
	      const char *query)
{
	struct cua_resolved res;
	struct cua_proc_session *p;
	cua_result r;

	memset(a, 0, sizeof(*a));
	a->s = s;
	a->b = s->backend;
	a->tool = tool;
	a->query = query;
	a->element = CUA_NO_ID;
	a->t0 = cua_now_us();
	a->outcome = json_object();
	if (!a->outcome)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");

	/* 3: exactly one running target (actions never launch) */
	r = a->b->ops->list_apps(a->b, &a->apps);
	if (r != CUA_OK)
		return r;
	r = cua_resolve_app(query, a->apps, NULL, s, &res);
	if (r == CUA_ERROR_NOT_FOUND) {
		struct cua_app_session *gone = session_named(s, trimmed(query));

		if (gone) {
			cua_app_session_drop_process(gone);
			return running_app_not_found(query);
		}
		return r;
	}
	if (r != CUA_OK)
		return r;
	a->app = res.app;

	/* 2: the person did not stop Computer Use */
	cua_user_start(s);
	r = cua_user_guard_stop(s);
	if (r != CUA_OK)
		return r;

	/* 6: the screen is not locked */
	r = cua_lock_guard(s, CUA_LOCK_ACTION, 0);
	if (r != CUA_OK)
		return r;

	/* 7: a session observed this app */
	a->as = find_session(s, a->app->app_id);
	if (!a->as || (!a->as->proc && !a->as->proc_gone))
		return not_active(query);
	/* 8: the same process */
	p = a->as->proc;
	if (!p)
		return running_app_not_found(query);
	if (p->pid != a->app->pid || p->start_time != a->app->start_time ||
	    strcmp(p->exe ? p->exe : "", a->app->exe ? a->app->exe : "") != 0) {
		cua_app_session_drop_process(a->as);
		return running_app_not_found(query);
	}
	if (!p->latest)
		return not_active(query);
	/* 9: the person did not use the app since it was observed */
	r = cua_user_guard_between(s, p->user_seq, p->latest->x11_window,
				   p->user_intervened, a->app->app_id);
	if (r != CUA_OK)
		return r;
	/* one process at a time sends input to the desktop
	 * (docs/concurrency.md): taken last, so a refused action never
	 * waits for another's */
	r = cua_input_lock_action(cua_act_app_name(a), &a->input_lock);
	if (r != CUA_OK)
		return r;
	a->user_seq = cua_user_seq(s);
	/* a drag is the action the person's pointer motion disturbs
	 * (docs/safety.md §6) */
	a->motion_seq = strcmp(tool, "drag") == 0 ? cua_user_motion(s) :
						    CUA_USER_NO_MOTION;
	a->t = p->latest;
	cua_tree_retain(a->t);
	a->t_guards = cua_now_us();
	/* the guards that can end an action midway (docs/safety.md §6, §9) */
	a->d = a->b->ops->display ? a->b->ops->display(a->b) : NULL;
	if (a->d) {
		a->d->interrupt = act_interrupt;
		a->d->interrupt_data = a;
	}
	return CUA_OK;
}

cua_result
cua_act_after(struct cua_act *a, cua_result r)
{
	cua_result g;
	int64_t t0 = cua_now_us();

	if (!a->t)
		return r; /* the guards failed: nothing was sent */
	/* a lock that started while the action ran ends it with the lock
	 * sentence, whatever else happened */
	g = cua_lock_guard(a->s, CUA_LOCK_ACTION, 1);
	if (g != CUA_OK)
		return g;
	/* the person's presses while it ran (docs/safety.md §6): the model
	 * is told, and observes before the next action */
	g = cua_user_guard_during(a->s, a->user_seq, a->motion_seq,
				  a->app->app_id, 1);
	cua_debug(&a->s->ctx, "%s: the guards after the action took %.3f ms",
		  a->tool, (cua_now_us() - t0) / 1000.0);
	if (g != CUA_OK) {
		if (a->as->proc)
			a->as->proc->user_intervened = 1;
		return g;
	}
	return r;
}

static cua_result
invalid_id(const struct cua_act *a, uint32_t id)
{
	return cua_err(CUA_MSG_NOTFOUND, { "id", CUA_NUM("%u", id) },
		       { "app", a->query });
}

cua_result
cua_act_element(struct cua_act *a, uint32_t id, uint32_t want,
		struct cua_located *loc)
{
	struct cua_element *e = NULL;
	cua_result r;

	memset(loc, 0, sizeof(*loc));
	a->element = id;
	/* degraded apps (no accessibility tree) have no elements
	 * (docs/identity.md §5) */
	if (!a->app->bus_name || !a->app->accessible)
		return invalid_id(a, id);
	for (size_t i = 0; i < a->t->n_elements; i++)
		if (a->t->elements[i].id == id) {
			e = &a->t->elements[i];
			break;
		}
	if (!e) {
		/* never issued in this app's id space, or issued and gone */
		if (id >= a->as->next_id)
			return invalid_id(a, id);
		return cua_err(CUA_MSG_INVALID);
	}
	r = cua_locate(a->b, a->app, a->t, e, want,
		       a->s->ctx.opt.locator_strict_siblings, loc);
	a->t_resolve = cua_now_us();
	if (r != CUA_OK) {
		if (r == CUA_ERROR_TIMEOUT)
			return cua_err(
				CUA_MSG_TIMEOUT_ACTION,
				{ "name", cua_act_app_name(a) },
				{ "s",
				  CUA_NUM("%g", a->s->ctx.opt.walk_deadline_ms /
							1000.0) });
		return r;
	}
	a->refetched = loc->refetched;
	if (loc->identity_changed)
		cua_debug(&a->s->ctx,
			  "%s: element %u: the cached object was "
			  "replaced by %s",
			  a->tool, id, loc->node->ident);
	return CUA_OK;
}

cua_result
cua_act_outcome(struct cua_act *a, char **out)
{
	json_t *o = json_object(), *it;
	const char *k;
	int64_t now = cua_now_us();

	*out = NULL;
	if (!o)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	json_object_set_new(o, "schema", json_string("libcua.action/1"));
	json_object_set_new(o, "tool", json_string(a->tool));
	json_object_set_new(o, "app",
			    json_pack("{s:s,s:I}", "id",
				      a->app ? a->app->app_id : "", "pid",
				      (json_int_t)(a->app ? a->app->pid : 0)));
	json_object_set_new(o, "element",
			    a->element == CUA_NO_ID ? json_null() :
						      json_integer(a->element));
	json_object_set_new(o, "route", json_string(a->route));
	json_object_set_new(o, "refetched", json_boolean(a->refetched));
	json_object_foreach(a->outcome, k, it) json_object_set(o, k, it);
	json_object_set_new(
		o, "timings_ms",
		json_pack("{s:f,s:f,s:f}", "guards",
			  a->t_guards ? (a->t_guards - a->t0) / 1000.0 : 0.0,
			  "resolve",
			  a->t_resolve && a->t_guards ?
				  (a->t_resolve - a->t_guards) / 1000.0 :
				  0.0,
			  "total", (now - a->t0) / 1000.0));
	*out = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(o);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}

void
cua_act_end(struct cua_act *a)
{
	cua_input_lock_release(a->input_lock);
	a->input_lock = 0;
	if (a->d) {
		a->d->interrupt = NULL;
		a->d->interrupt_data = NULL;
		a->d = NULL;
	}
	cua_tree_release(a->t);
	a->t = NULL;
	cua_app_list_free(a->apps);
	a->apps = NULL;
	json_decref(a->outcome);
	a->outcome = NULL;
}
