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
#include "core/keysyms.h"
#include "core/strbuf.h"
#include "core/utf8.h"

/*
 * The element's text now (*orig) and what it is once `text` replaced its
 * selection, or went in at its caret (out); *start is where it goes
 * (characters). *ok = 0 when the element did not answer.
 */
static cua_result
splice_at_caret(struct cua_act *a, const char *ident, const char *text,
		char **orig, size_t *start, struct strbuf *out, int *ok)
{
	struct cua_live_call g = { .op = CUA_LIVE_GET_TEXT, .ident = ident };
	struct cua_live_call sel = { .op = CUA_LIVE_GET_SELECTION,
				     .ident = ident };
	size_t caret, end;
	cua_result r;

	*orig = NULL;
	r = act_ask_call(a, &g, ok);
	if (r != CUA_OK || !*ok || !g.ret_text) {
		*ok = 0;
		goto out;
	}
	caret = g.ret[1] >= 0 ? (size_t)g.ret[1] : cua_utf8_len(g.ret_text);
	*start = end = caret;
	r = act_ask_call(a, &sel, ok);
	if (r != CUA_OK)
		goto out;
	if (*ok && sel.ret[0] > 0 && sel.ret[1] != sel.ret[2] &&
	    sel.ret[1] >= 0) {
		/* typing replaces the selection */
		*start = (size_t)MIN(sel.ret[1], sel.ret[2]);
		end = (size_t)MAX(sel.ret[1], sel.ret[2]);
	}
	*ok = 1;
	sb_addn(out, g.ret_text, cua_utf8_offset(g.ret_text, *start));
	sb_add(out, text);
	sb_add(out, g.ret_text + cua_utf8_offset(g.ret_text, end));
	*orig = g.ret_text;
	g.ret_text = NULL;
out:
	act_call_clear(&g);
	act_call_clear(&sel);
	return r;
}

/* How many times `needle` occurs in `s` (overlapping ones included). */
static size_t
occurrences(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/*
 * The text the chords (none a Return: type_keys stops before it) put
 * into `focus`, malloc'd, or NULL when their effect cannot be read back
 * there: no editable text element, a password field (it shows no text),
 * or a Tab (it may move the focus on).
 */
static char *
expected_text(const struct cua_raw_node *focus, const struct cua_key_chord *c,
	      size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char u[8];

	if (!focus || !(focus->ifaces & CUA_IFACE_TEXT) ||
	    !CUA_HAS_STATE(focus, CUA_STATE_EDITABLE) ||
	    focus->role == CUA_ROLE_PASSWORD_TEXT)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (c[i].keysym == KS_Tab) {
			sb_free(&sb);
			return NULL;
		}
		sb_addn(&sb, u, cua_utf8_encode(u, c[i].codepoint));
	}
	return sb_steal(&sb);
}

/*
 * `s` as its words alone, malloc'd: letters and digits, ASCII ones in
 * lower case, without spaces, ASCII punctuation or typographic quotes
 * and dashes (U+2000–U+206F, guillemets, no-break space). NULL when out
 * of memory.
 */
static char *
words_of(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	char u[8];

	while (*s) {
		uint32_t cp = cua_utf8_next(&s);

		if (cp < 0x80) {
			if ((cp >= '0' && cp <= '9') ||
			    (cp >= 'a' && cp <= 'z'))
				sb_addc(&sb, (char)cp);
			else if (cp >= 'A' && cp <= 'Z')
				sb_addc(&sb, (char)(cp - 'A' + 'a'));
		} else if (!(cp >= 0x2000 && cp <= 0x206f) && cp != 0xa0 &&
			   cp != 0xab && cp != 0xbb) {
			sb_addn(&sb, u, cua_utf8_encode(u, cp));
		}
	}
	return sb_steal(&sb);
}

/* As text_shows(), on the words alone (words_of). */
static int
words_show(const char *got, const char *orig, const char *want,
	   const char *typed)
{
	char *g = words_of(got), *o = words_of(orig), *w = words_of(want),
	     *t = words_of(typed);
	int shown = 0;

	if (g && o && w && t && *t)
		shown = strcmp(g, w) == 0 ||
			occurrences(g, t) > occurrences(o, t);
	free(g);
	free(o);
	free(w);
	free(t);
	return shown;
}

/*
 * Whether the element's text `got` shows what was typed: it is `want`
 * (the element's text `orig` with `typed` in place of the selection, or
 * at the caret), or it holds `typed` once more than `before`, where the
 * app moved the caret meanwhile. An app that corrects what is typed (a
 * capital at the start of a sentence, typographic quotes and dashes)
 * changes its case and punctuation: the same comparison on the words
 * alone (words_of) accepts that, and still finds a lost letter or digit
 * (a lost space or punctuation mark it cannot tell from a correction).
 */
static int
text_shows(const char *got, const char *orig, const char *want,
	   const char *typed, size_t before)
{
	if (strcmp(got, want) == 0 || occurrences(got, typed) > before)
		return 1;
	return strcmp(got, orig) != 0 && words_show(got, orig, want, typed);
}

/*
 * Typing with key events into `focus` (may be NULL), read back: the
 * typed text must show in the element (text_shows). The poll lasts at
 * most 2 s (docs/actions.md §1.6's bound); a key lost on the way ends
 * the action with an error, never a success. When characters went
 * through spare keycodes, their mapping is restored only after that
 * read-back: toolkits translate a key with the mapping of the moment
 * they process it, and Chromium does so well after its accessibility
 * answers.
 */
static cua_result
type_checked(struct cua_act *a, const struct cua_key_chord *c, size_t n,
	     struct cua_raw_node *focus)
{
	struct cua_live_call g = { .op = CUA_LIVE_GET_TEXT };
	struct strbuf want = STRBUF_INIT;
	char *typed, *orig = NULL;
	size_t start, before = 0;
	int kept = 0, ok = 0, shown = 0;
	cua_result r, rr;

	typed = expected_text(focus, c, n);
	if (!typed || !*typed) {
		free(typed);
		return act_send_keys(a, c, n);
	}
	r = splice_at_caret(a, focus->ident, typed, &orig, &start, &want, &ok);
	if (r != CUA_OK || !ok) {
		free(typed);
		sb_free(&want);
		return r != CUA_OK ? r : act_send_keys(a, c, n);
	}
	before = occurrences(orig, typed);
	r = a->b->ops->keys(a->b, c, n, a->s->ctx.opt.keymap_delay_ms,
			    a->app->bus_name, &kept);
	g.ident = focus->ident;
	for (int64_t t0 = cua_now_us(), wait = 2000; r == CUA_OK;
	     wait = MIN(wait * 2, 50000)) {
		if (act_live(a, &g) == CUA_OK && g.ret_text &&
		    text_shows(g.ret_text, orig, sb_str(&want), typed, before))
			shown = 1;
		act_call_clear(&g);
		if (shown || cua_now_us() - t0 >= POLL_MAX_US)
			break;
		usleep((useconds_t)wait);
	}
	act_call_clear(&g);
	rr = kept ? a->b->ops->keys_restore(a->b) : CUA_OK;
	if (r == CUA_OK)
		r = rr;
	/* asynchronous toolkits may show it later (docs/actions.md §1.6) */
	if (r == CUA_OK && !shown && !act_is_async_toolkit(a->app))
		r = cua_err(CUA_MSG_TYPED_TEXT_NOT_SHOWN);
	free(typed);
	free(orig);
	sb_free(&want);
	return r;
}

/*
 * The text up to its first line break is typed and read back
 * (type_checked) before the Return is pressed: a Return may submit or
 * clear the field (a calculator, a chat box, a command line) or move the
 * caret to an element of its own (LibreOffice's paragraphs), so what it
 * and the keys after it do is not read back.
 */
static cua_result
type_keys(struct cua_act *a, const struct cua_key_chord *c, size_t n,
	  struct cua_raw_node *focus)
{
	size_t k = 0;
	cua_result r = CUA_OK;

	if (!a->b->ops->keys || !a->b->ops->keys_restore)
		return act_unsupported(a);
	/* the whole text, before its first part is typed: a refusal leaves
	 * nothing half typed */
	if (a->b->ops->keys_check) {
		r = a->b->ops->keys_check(a->b, c, n);
		if (r != CUA_OK)
			return r;
	}
	while (k < n && c[k].keysym != KS_Return)
		k++;
	if (k > 0)
		r = type_checked(a, c, k, focus);
	if (r == CUA_OK && k < n)
		r = act_send_keys(a, c + k, n - k);
	return r;
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
	struct cua_live_call set = { .op = CUA_LIVE_SET_TEXT,
				     .ident = n->ident };
	struct cua_live_call chk = { .op = CUA_LIVE_GET_TEXT,
				     .ident = n->ident };
	struct strbuf sb = STRBUF_INIT;
	size_t len = cua_utf8_len(text), start = 0;
	char *orig = NULL;
	int ok;
	cua_result r;

	*done = 0;
	r = splice_at_caret(a, n->ident, text, &orig, &start, &sb, &ok);
	if (r != CUA_OK || !ok)
		goto out;
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
		r = type_keys(&a, seq.chords, seq.n, f);
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
