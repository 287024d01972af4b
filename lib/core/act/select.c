/*
 * select_text (docs/actions.md §10): the text as the tree shows it, the one
 * match, then the selection or caret set and read back.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "common.h"
#include "core/sanitize.h"
#include "core/strbuf.h"

/* The embedded objects of the element whose text select_text reads. */
struct objects {
	struct cua_act *a;
	struct cua_located *loc;
	int children_read;
};

/* The text of the k-th embedded object in place of its U+FFFC: links as
 * Markdown. */
static void
object_text(void *ud, size_t k, struct strbuf *out)
{
	struct objects *o = ud;
	struct cua_act *a = o->a;
	struct cua_raw_node *n = o->loc->node, *c;
	struct strbuf e = STRBUF_INIT;
	const char *t;

	if (!o->children_read && n->child_count > 0) {
		o->children_read = 1;
		if (a->b->ops->read_children(a->b, o->loc->snap, &n, 1, 0, 256,
					     CUA_HAVE_TEXT) != CUA_OK)
			n->n_children = 0;
	}
	if (k >= n->n_children)
		return;
	c = n->children[k];
	t = c->name && *c->name ? c->name : c->text ? c->text : "";
	if (c->role == CUA_ROLE_LINK) {
		sb_add(&e, "[");
		cua_sanitize_sb(&e, t);
		sb_add(&e, "](");
		/* the URL is not read here; links are selected by their text */
		sb_add(&e, ")");
	} else {
		cua_sanitize_sb(&e, t);
	}
	sb_addn(out, sb_str(&e), e.len);
	if (e.oom)
		out->oom = 1;
	sb_free(&e);
}

cua_result
cua_do_select_text(struct cua_session *s, const char *app, uint32_t id,
		   const char *text, const char *prefix, const char *suffix,
		   uint32_t mode, char **outcome)
{
	struct cua_act a;
	struct cua_located loc = { 0 };
	struct cua_live_call g = { .op = CUA_LIVE_GET_TEXT };
	struct strbuf shown = STRBUF_INIT;
	struct objects objs = { &a, &loc, 0 };
	struct cua_sanitize_map map = { .object = object_text, .ud = &objs };
	struct cua_raw_node *n;
	const char *hay, *hit = NULL, *p;
	size_t tl, pl, xl, matches = 0, bs, be;
	int32_t start, end;
	int ok;
	cua_result r;

	if (!text || !*text)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "text" });
	if (mode > CUA_SELECTION_CURSOR_AFTER)
		return cua_err(CUA_MSG_BAD_SELECTION_MODE,
			       { "mode", CUA_NUM("%u", mode) });
	r = cua_act_begin(&a, s, "select_text", app);
	if (r == CUA_OK)
		r = cua_act_element(&a, id, CUA_HAVE_TEXT_SELECTION, &loc);
	if (r != CUA_OK)
		goto out;
	n = loc.node;
	if (!(n->ifaces & CUA_IFACE_TEXT)) {
		r = cua_err(CUA_MSG_NOT_TEXT, { "id", CUA_NUM("%u", id) },
			    { "role", *loc.element->role_text ?
					      loc.element->role_text :
					      "element" });
		goto out;
	}
	g.ident = n->ident;
	r = act_ask_call(&a, &g, &ok);
	if (r != CUA_OK)
		goto out;
	/* the text as the tree shows it, and where each byte came from */
	if (cua_sanitize_mapped(&shown, ok && g.ret_text ? g.ret_text : "",
				&map) < 0) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	hay = sb_str(&shown);
	tl = strlen(text);
	pl = prefix ? strlen(prefix) : 0;
	xl = suffix ? strlen(suffix) : 0;
	for (p = hay; (p = strstr(p, text)); p++) {
		size_t at = (size_t)(p - hay);

		if (pl && (at < pl || strncmp(hay + at - pl, prefix, pl) != 0))
			continue;
		if (xl && strncmp(p + tl, suffix, xl) != 0)
			continue;
		matches++;
		if (!hit)
			hit = p;
	}
	if (!matches) {
		r = cua_err(CUA_MSG_TEXT_NOT_FOUND,
			    { "id", CUA_NUM("%u", id) });
		goto out;
	}
	if (matches > 1) {
		r = cua_err(CUA_MSG_TEXT_AMBIGUOUS, { "text", text },
			    { "k", CUA_NUM("%zu", matches) },
			    { "id", CUA_NUM("%u", id) });
		goto out;
	}
	/* rendered bytes -> character offsets; a boundary inside markup
	 * snaps outward to the whole embedded object */
	bs = (size_t)(hit - hay);
	be = bs + tl;
	start = map.start[bs];
	end = be > bs ? map.end[be - 1] : start;
	/* focus it first, so a following type_text lands here
	 * (docs/actions.md §10 step 5) */
	if (CUA_HAS_STATE(n, CUA_STATE_FOCUSABLE) &&
	    !CUA_HAS_STATE(n, CUA_STATE_FOCUSED)) {
		r = act_grab_focus(&a, &loc, n, CUA_HAVE_EXTENTS);
		if (r != CUA_OK)
			goto out;
		if (!CUA_HAS_STATE(n, CUA_STATE_FOCUSED) &&
		    cua_raw_has_extent(n)) {
			/* GTK 4.8: GrabFocus fails; a click focuses */
			r = act_synthetic_click(&a, &loc, n, 1, 1);
			if (r != CUA_OK)
				goto out;
		}
	}
	if (mode == CUA_SELECTION_TEXT) {
		struct cua_live_call sel = { .op = CUA_LIVE_GET_SELECTION,
					     .ident = n->ident };

		r = act_ask_call(&a, &sel, &ok);
		act_call_clear(&sel);
		if (r != CUA_OK)
			goto out;
		if (ok && sel.ret[0] > 0)
			r = act_ask(&a, CUA_LIVE_SET_SELECTION, n->ident, 0,
				    start, end, &ok);
		else
			r = act_ask(&a, CUA_LIVE_ADD_SELECTION, n->ident, start,
				    end, 0, &ok);
	} else {
		r = act_ask(&a, CUA_LIVE_SET_CARET, n->ident,
			    mode == CUA_SELECTION_CURSOR_BEFORE ? start : end,
			    0, 0, &ok);
	}
	if (r != CUA_OK)
		goto out;
	/* verify by reading it back */
	{
		struct cua_live_call v = {
			.op = mode == CUA_SELECTION_TEXT ?
				      CUA_LIVE_GET_SELECTION :
				      CUA_LIVE_GET_TEXT,
			.ident = n->ident
		};
		int vok, good = 0;

		for (int64_t t0 = cua_now_us();;) {
			r = act_ask_call(&a, &v, &vok);
			if (r != CUA_OK)
				break;
			if (mode == CUA_SELECTION_TEXT)
				good = vok && v.ret[0] > 0 &&
				       MIN(v.ret[1], v.ret[2]) == start &&
				       MAX(v.ret[1], v.ret[2]) == end;
			else
				good = vok &&
				       v.ret[1] ==
					       (mode == CUA_SELECTION_CURSOR_BEFORE ?
							start :
							end);
			act_call_clear(&v);
			if (good || !act_is_async_toolkit(a.app) ||
			    cua_now_us() - t0 >= POLL_MAX_US)
				break;
			usleep(20000);
		}
		act_call_clear(&v);
		if (r != CUA_OK)
			goto out;
		if (!good) {
			r = cua_err(CUA_MSG_SELECTION_NOT_TAKEN,
				    { "id", CUA_NUM("%u", id) },
				    { "what", mode == CUA_SELECTION_TEXT ?
						      "text selection" :
						      "cursor position" });
			goto out;
		}
	}
	cua_act_route(&a, "text-selection");
	json_object_set_new(a.outcome, "range",
			    json_pack("[i,i]", (int)start, (int)end));
out:
	act_call_clear(&g);
	sb_free(&shown);
	cua_sanitize_map_free(&map);
	cua_located_clear(&loc);
	return act_finish(&a, r, outcome);
}
