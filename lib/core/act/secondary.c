/*
 * perform_secondary_action (docs/actions.md §8): the element's own actions,
 * Raise, Scroll <direction>, Expand and Collapse.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common.h"
#include "core/sanitize.h"
#include "core/strbuf.h"
#include "core/walk.h"

static int
match_action(const struct cua_element *e, const struct cua_raw_node *n,
	     const char *want)
{
	char nw[128], nr[128];
	size_t i;

	for (i = 0; i < e->n_actions; i++)
		if (strcmp(e->actions[i], want) == 0)
			return (int)i;
	for (i = 0; i < e->n_actions; i++)
		if (strcasecmp(e->actions[i], want) == 0)
			return (int)i;
	cua_action_normalise(nw, sizeof(nw), want);
	for (i = 0; i < e->n_actions; i++) {
		if (!e->raw_actions[i])
			continue;
		cua_action_normalise(nr, sizeof(nr), e->raw_actions[i]);
		if (strcmp(nr, nw) == 0)
			return (int)i;
		for (size_t k = 0; k < n->n_actions; k++)
			if (n->actions[k].name &&
			    strcmp(n->actions[k].name, e->raw_actions[i]) ==
				    0 &&
			    n->actions[k].localized) {
				cua_action_normalise(nr, sizeof(nr),
						     n->actions[k].localized);
				if (strcmp(nr, nw) == 0)
					return (int)i;
			}
	}
	return -1;
}

static cua_result
bad_secondary(const struct cua_element *e, const char *action, uint32_t id)
{
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	if (!e->n_actions)
		return cua_err(CUA_MSG_NO_SECONDARY, { "action", action },
			       { "id", CUA_NUM("%u", id) });
	for (size_t i = 0; i < e->n_actions; i++) {
		if (i)
			sb_add(&sb, ", ");
		sb_add(&sb, e->actions[i]);
	}
	r = cua_err(CUA_MSG_BAD_SECONDARY, { "action", action },
		    { "id", CUA_NUM("%u", id) }, { "actions", sb_str(&sb) });
	sb_free(&sb);
	return r;
}

/* Expand / Collapse (docs/actions.md §8.2): the element's own action `own` (the
 * one the element listed under that name), else GTK3 synthetic rows use their
 * first cell's `expand or contract` action, others their primary action;
 * then the EXPANDED state must have changed. */
static cua_result
expand_collapse(struct cua_act *a, struct cua_located *loc, int expand, int own)
{
	static const char *const verbs[] = { "expandorcontract",
					     "expandorcollapse",
					     "toggleexpanded", NULL };
	struct cua_raw_node *n = loc->node;
	const char *raw = NULL;
	int was = (int)CUA_HAS_STATE(n, CUA_STATE_EXPANDED), i, ok;
	cua_result r;

	if (was == expand) {
		cua_act_route(a, "action:none");
		json_object_set_new(a->outcome, "already", json_true());
		return CUA_OK;
	}
	i = own;
	if (i >= 0)
		raw = n->actions[i].name;
	if (i < 0)
		i = act_find_action(n, verbs, &raw);
	if (i < 0) {
		static const char *const ec[] = { "expand", "collapse", NULL };

		i = act_find_action(n, ec, &raw);
		if (i >= 0) {
			char norm[32];

			cua_action_normalise(norm, sizeof(norm), raw);
			if (strcmp(norm, expand ? "expand" : "collapse") != 0)
				i = -1;
		}
	}
	if (i < 0)
		i = act_primary_action(n, &raw);
	if (i < 0)
		return cua_err(CUA_MSG_NO_EXPAND,
			       { "id", CUA_NUM("%u", a->element) },
			       { "role", loc->element->role_text });
	r = act_do_action(a, n->ident, i, &ok);
	if (r != CUA_OK)
		return r;
	if (!ok)
		return cua_err(CUA_MSG_EXPAND_FAILED,
			       { "action", expand ? "Expand" : "Collapse" },
			       { "id", CUA_NUM("%u", a->element) });
	cua_act_route(a, "action:%s", raw);
	if (act_is_async_toolkit(a->app))
		return CUA_OK;
	for (int64_t t0 = cua_now_us(); cua_now_us() - t0 < 500000;) {
		r = act_reread(a, loc, n, 0);
		if (r != CUA_OK)
			return r;
		if ((int)CUA_HAS_STATE(n, CUA_STATE_EXPANDED) == expand)
			return CUA_OK;
		usleep(10000);
	}
	return cua_err(CUA_MSG_DID_NOT_EXPAND,
		       { "id", CUA_NUM("%u", a->element) },
		       { "verb", expand ? "expand" : "collapse" });
}

cua_result
cua_do_perform_action(struct cua_session *s, const char *app, uint32_t id,
		      const char *action, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	const struct cua_element *e;
	char want[256];
	const char *raw;
	int k, ok, confirmed;
	size_t len;
	cua_result r;

	if (!action)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "action" });
	while (isspace((unsigned char)*action))
		action++;
	len = strlen(action);
	while (len && isspace((unsigned char)action[len - 1]))
		len--;
	if (!len)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "action" });
	snprintf(want, sizeof(want), "%.*s", (int)MIN(len, sizeof(want) - 1),
		 action);
	r = cua_act_begin(&a, s, "perform_secondary_action", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id,
				    CUA_HAVE_ACTIONS | CUA_HAVE_EXTENTS |
					    CUA_HAVE_VALUE,
				    &loc);
	if (r != CUA_OK)
		goto out;
	e = loc.element;
	k = match_action(e, loc.node, want);
	if (k < 0) {
		r = bad_secondary(e, want, id);
		goto out;
	}
	raw = e->raw_actions[k];
	json_object_set_new(a.outcome, "action", json_string(e->actions[k]));
	if (raw) {
		int idx = -1;

		for (size_t i = 0; i < loc.node->n_actions; i++)
			if (loc.node->actions[i].name &&
			    strcmp(loc.node->actions[i].name, raw) == 0) {
				idx = (int)i;
				break;
			}
		if (idx < 0) {
			r = cua_err(CUA_MSG_ACTION_GONE,
				    { "id", CUA_NUM("%u", id) },
				    { "action", e->actions[k] });
			goto out;
		}
		/* an expandable element's own Expand or Collapse: done when
		 * the state says so (docs/actions.md §8.2) */
		if (CUA_HAS_STATE(loc.node, CUA_STATE_EXPANDABLE) &&
		    (strcmp(e->actions[k], "Expand") == 0 ||
		     strcmp(e->actions[k], "Collapse") == 0)) {
			r = expand_collapse(
				&a, &loc, strcmp(e->actions[k], "Expand") == 0,
				idx);
			goto out;
		}
		r = act_do_action(&a, loc.node->ident, idx, &ok);
		if (r == CUA_OK && !ok)
			r = cua_err(CUA_MSG_NAMED_ACTION_FAILED,
				    { "action", e->actions[k] },
				    { "id", CUA_NUM("%u", id) });
		if (r == CUA_OK)
			cua_act_route(&a, "action:%s", raw);
		goto out;
	}
	if (strcmp(e->actions[k], "Raise") == 0) {
		r = CUA_ERROR_UNSUPPORTED;
		if (loc.x11_window && a.b->ops->activate_window)
			r = a.b->ops->activate_window(
				a.b, loc.x11_window,
				s->ctx.opt.focus_timeout_ms, &confirmed);
		if (r != CUA_OK || !confirmed)
			r = cua_err(CUA_MSG_NOT_RAISED,
				    { "name", cua_act_app_name(&a) });
		else
			cua_act_route(&a, "raise");
	} else if (strncmp(e->actions[k], "Scroll ", 7) == 0) {
		enum dir d;
		double page;

		act_parse_direction(e->actions[k] + 7, &d);
		page = act_vertical(d) ? loc.node->extents.h :
					 loc.node->extents.w;
		if (!cua_raw_has_extent(loc.node)) {
			r = cua_err(CUA_MSG_NO_SIZE_TO_SCROLL,
				    { "id", CUA_NUM("%u", id) },
				    { "role", e->role_text });
			goto out;
		}
		/* one page: the scroll area's visible extent
		 * (docs/actions.md §8.2) */
		r = act_scroll_by(&a, &loc, d, page, page);
	} else if (strcmp(e->actions[k], "Expand") == 0 ||
		   strcmp(e->actions[k], "Collapse") == 0) {
		r = expand_collapse(&a, &loc,
				    strcmp(e->actions[k], "Expand") == 0, -1);
	} else {
		r = bad_secondary(e, want, id);
	}
out:
	cua_located_clear(&loc);
	return act_finish(&a, r, outcome);
}
