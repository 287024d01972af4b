/*
 * type_text (docs/actions.md §9): inserting through EditableText where the
 * toolkit allows it, else key events after input acceptance.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "core/strbuf.h"
#include "core/utf8.h"

/*
 * Typing with key events into `focus` (may be NULL): when characters went
 * through spare keycodes, their mapping is restored only once the typed
 * text shows in the element (at most 2 s; docs/actions.md §1.6's bound):
 * toolkits translate a key with the mapping of the moment they process
 * it, and Chromium does so well after its accessibility answers.
 */
static cua_result
type_keys(struct cua_act *a, const struct cua_key_chord *c, size_t n,
	  struct cua_raw_node *focus, const char *typed)
{
	struct cua_live_call g = { .op = CUA_LIVE_GET_TEXT };
	int kept = 0, ok;
	cua_result r;

	if (!a->b->ops->keys || !a->b->ops->keys_restore)
		return act_unsupported(a);
	if (!focus || !(focus->ifaces & CUA_IFACE_TEXT) ||
	    strchr(typed, '\t') || strchr(typed, '\r') || strchr(typed, '\n'))
		return act_send_keys(a, c, n);
	r = a->b->ops->keys(a->b, c, n, a->s->ctx.opt.keymap_delay_ms,
			    a->app->bus_name, &kept);
	if (r != CUA_OK || !kept)
		return r;
	g.ident = focus->ident;
	for (int64_t t0 = cua_now_us(), wait = 2000;;
	     wait = MIN(wait * 2, 50000)) {
		if (act_live(a, &g) == CUA_OK && g.ret_text &&
		    strstr(g.ret_text, typed))
			break;
		act_call_clear(&g);
		if (cua_now_us() - t0 >= POLL_MAX_US)
			break;
		usleep((useconds_t)wait);
	}
	act_call_clear(&g);
	(void)ok;
	return a->b->ops->keys_restore(a->b);
}

/* The focused element of the target window, live (docs/state-text.md §11.7). */
static struct cua_raw_node *
focused_element(struct cua_act *a, struct act_target_window *tw)
{
	struct cua_raw_node *n;
	const char *ident = NULL;
	char *found = NULL;

	if (tw->node)
		found = act_ask_ident(a, CUA_LIVE_FOCUSED, tw->node->ident, 0,
				      0);
	ident = found;
	if (!ident && a->t->focused >= 0 &&
	    a->t->elements[a->t->focused].skel >= 0)
		ident = a->t->skel[a->t->elements[a->t->focused].skel].ident;
	if (!ident)
		return NULL;
	n = cua_raw_node_new(tw->snap);
	if (!n) {
		free(found);
		return NULL;
	}
	n->ident = cua_arena_strdup(tw->snap->arena, ident);
	free(found);
	if (a->b->ops->read_nodes(a->b, tw->snap, &n, 1, CUA_HAVE_ATTRIBUTES) !=
		    CUA_OK ||
	    !(n->have & CUA_HAVE_BASIC) || !CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return NULL;
	return n;
}

/*
 * Route 2 of docs/actions.md §9: insert at the caret through EditableText. The
 * text is spliced into the element's text and set whole (InsertText's length
 * means bytes on GTK3, characters on Qt and nothing on GTK4,
 * docs/toolkits.md §3.3), then the caret is put after the insertion.
 * *done = 1 when it worked; *changed = 1 when something else changed.
 */
static cua_result
editable_route(struct cua_act *a, struct cua_raw_node *n, const char *text,
	       int *done)
{
	struct cua_live_call g = { .op = CUA_LIVE_GET_TEXT, .ident = n->ident };
	struct cua_live_call sel = { .op = CUA_LIVE_GET_SELECTION,
				     .ident = n->ident };
	struct cua_live_call set = { .op = CUA_LIVE_SET_TEXT,
				     .ident = n->ident };
	struct cua_live_call chk = { .op = CUA_LIVE_GET_TEXT,
				     .ident = n->ident };
	struct strbuf sb = STRBUF_INIT;
	size_t len = cua_utf8_len(text), caret, start, end, bs, be;
	char *orig = NULL;
	int ok;
	cua_result r;

	*done = 0;
	r = act_ask_call(a, &g, &ok);
	if (r != CUA_OK || !ok || !g.ret_text)
		goto out;
	orig = g.ret_text;
	g.ret_text = NULL;
	caret = g.ret[1] >= 0 ? (size_t)g.ret[1] : cua_utf8_len(orig);
	start = end = caret;
	r = act_ask_call(a, &sel, &ok);
	if (r != CUA_OK)
		goto out;
	if (ok && sel.ret[0] > 0 && sel.ret[1] != sel.ret[2] &&
	    sel.ret[1] >= 0) {
		/* typing replaces the selection */
		start = (size_t)MIN(sel.ret[1], sel.ret[2]);
		end = (size_t)MAX(sel.ret[1], sel.ret[2]);
	}
	bs = cua_utf8_offset(orig, start);
	be = cua_utf8_offset(orig, end);
	sb_addn(&sb, orig, bs);
	sb_add(&sb, text);
	sb_add(&sb, orig + be);
	set.text = sb_str(&sb);
	r = act_ask_call(a, &set, &ok);
	if (r != CUA_OK || !ok)
		goto out;
	{
		int cok;

		r = act_ask(a, CUA_LIVE_SET_CARET, n->ident,
			    (int32_t)(start + len), 0, 0, &cok);
		if (r != CUA_OK)
			goto out;
	}
	/* verify: the text is there, at the insertion offset */
	r = act_ask_call(a, &chk, &ok);
	if (r != CUA_OK)
		goto out;
	if (ok && chk.ret_text && strcmp(chk.ret_text, sb_str(&sb)) == 0) {
		*done = 1;
	} else if (ok && chk.ret_text && strcmp(chk.ret_text, orig) != 0) {
		r = cua_err(CUA_MSG_TEXT_CHANGED_OTHERWISE);
	}
out:
	act_call_clear(&g);
	act_call_clear(&sel);
	act_call_clear(&set);
	act_call_clear(&chk);
	free(orig);
	sb_free(&sb);
	return r;
}

static int
editable_applies(const struct cua_act *a, const struct cua_raw_node *n,
		 const char *text)
{
	if (!n || !(n->ifaces & CUA_IFACE_EDITABLE_TEXT) ||
	    !(n->ifaces & CUA_IFACE_TEXT) ||
	    !CUA_HAS_STATE(n, CUA_STATE_EDITABLE) ||
	    CUA_HAS_STATE(n, CUA_STATE_READ_ONLY))
		return 0;
	if (act_is_async_toolkit(a->app) || a->s->ctx.opt.type_text_keys)
		return 0;
	/* a line break or a tab is a key (Return, Tab) on every route: an
	 * input line evaluates, a form moves on, as when a person types it */
	if (strchr(text, '\n') || strchr(text, '\t') || strchr(text, '\r'))
		return 0;
	return 1;
}

cua_result
cua_do_type_text(struct cua_session *s, const char *app, const char *text,
		 char **outcome)
{
	struct cua_act a;
	struct act_target_window tw = { 0 };
	struct cua_raw_node *f = NULL;
	struct cua_key_seq seq = { NULL, 0 };
	int done = 0;
	cua_result r;

	if (!text || !*text)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "text" });
	r = cua_act_begin(&a, s, "type_text", app);
	if (r == CUA_OK && !a.app->bus_name)
		goto keys; /* no tree: keys only (docs/actions.md §9) */
	if (r == CUA_OK)
		r = act_find_target_window(&a, &tw);
	if (r != CUA_OK)
		goto out;
	f = focused_element(&a, &tw);
	if (editable_applies(&a, f, text)) {
		r = editable_route(&a, f, text, &done);
		if (r != CUA_OK)
			goto out;
		if (done) {
			cua_act_route(&a, "editable-text");
			goto out;
		}
	}
keys:
	if (r != CUA_OK)
		goto out;
	seq.chords = cua_keys_from_text(text, &seq.n);
	if (!seq.chords) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	r = act_keyboard_ready_for(&a, &tw);
	if (r == CUA_OK)
		r = type_keys(&a, seq.chords, seq.n, f, text);
	if (r == CUA_OK)
		cua_act_route(&a, "keys");
out:
	cua_keys_free(&seq);
	cua_raw_snapshot_free(tw.snap);
	if (r == CUA_OK)
		json_object_set_new(
			a.outcome, "characters",
			json_integer((json_int_t)cua_utf8_len(text)));
	return act_finish(&a, r, outcome);
}
