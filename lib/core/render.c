/*
 * The state-text renderer (docs/state-text.md §1–§8): element lines, the
 * header lines, truncation markers and the trailer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "sanitize.h"
#include "utf8.h"

#define SHORT_URL_MAX 60
#define SHORT_URL_THRESHOLD 8000

static const char selected_note[] =
	"Note: Pay special attention to the content selected by the user. "
	"If the user asks a question or refers to the content they are "
	"looking at on-screen, they might be referring to the selected "
	"content (but they might be referring to something else that's "
	"visible, too).";

static const char *
str(const char *s)
{
	return s ? s : "";
}

static int
nonempty(const char *s)
{
	return s && *s;
}

static int
str_eq(const char *a, const char *b)
{
	return strcmp(str(a), str(b)) == 0;
}

static int
is_link(const struct cua_element *e)
{
	return e->role == CUA_ROLE_LINK ||
	       strcmp(str(e->role_text), "link") == 0;
}

static int
is_generic_container(const struct cua_element *e)
{
	const char *r = str(e->role_text);

	return strcmp(r, "container") == 0 || strcmp(r, "unknown") == 0;
}

static const char *
printable_id(const struct cua_element *e)
{
	const char *id = str(e->identifier);

	/* generated identifiers are never printed (docs/state-text.md §7.2) */
	return *id && !cua_raw_is_generated_id(id) ? id : "";
}

/* A URL as rendered (docs/state-text.md §9.7): without a leading http:// or
 * https://. */
static const char *
strip_scheme(const char *url)
{
	if (strncmp(url, "https://", 8) == 0)
		return url + 8;
	if (strncmp(url, "http://", 7) == 0)
		return url + 7;
	return url;
}

static void
add_url(struct strbuf *sb, const char *url, uint32_t flags)
{
	cua_add_truncated(sb, strip_scheme(url),
			  (flags & CUA_LINE_SHORT_URLS) ? SHORT_URL_MAX :
							  CUA_FIELD_MAX);
}

static void
add_traits(struct strbuf *sb, uint32_t t)
{
	const char *names[5];
	size_t n = 0, i;

	if (t & CUA_TRAIT_SELECTED)
		names[n++] = "selected";
	else if (t & CUA_TRAIT_SELECTABLE)
		names[n++] = "selectable";
	if (t & CUA_TRAIT_EXPANDED)
		names[n++] = "expanded";
	else if (t & CUA_TRAIT_COLLAPSED)
		names[n++] = "collapsed";
	if (t & CUA_TRAIT_DISABLED)
		names[n++] = "disabled";
	if (t & CUA_TRAIT_SETTABLE) {
		names[n++] = "settable";
		if (t & CUA_TRAIT_STRING)
			names[n++] = "string";
		else if (t & CUA_TRAIT_FLOAT)
			names[n++] = "float";
		else if (t & CUA_TRAIT_BOOLEAN)
			names[n++] = "boolean";
	}
	if (!n)
		return;
	sb_add(sb, " (");
	for (i = 0; i < n; i++) {
		if (i)
			sb_add(sb, ", ");
		sb_add(sb, names[i]);
	}
	sb_addc(sb, ')');
}

/* Starts a segment: ", " after the head or an earlier segment, else the
 * single space that separates the body from the role and traits. */
static void
begin_segment(struct strbuf *sb, int *in_body)
{
	sb_add(sb, *in_body ? ", " : " ");
	*in_body = 1;
}

static void
add_labelled(struct strbuf *sb, int *in_body, const char *label,
	     const char *text)
{
	begin_segment(sb, in_body);
	sb_add(sb, label);
	cua_add_truncated(sb, text, CUA_FIELD_MAX);
}

static void
render_compact_link(struct strbuf *sb, const struct cua_element *e)
{
	sb_add(sb, " link");
	if (nonempty(e->title)) {
		sb_addc(sb, ' ');
		cua_add_truncated(sb, e->title, CUA_FIELD_MAX);
	}
}

void
cua_render_line(struct strbuf *sb, const struct cua_element *e, uint32_t flags)
{
	const char *title = str(e->title);
	const char *desc = "", *help = "", *value = "", *details = "";
	const char *placeholder = "", *url = "", *id = printable_id(e);
	int summary = e->has_summary && (flags & CUA_LINE_SUMMARY);
	int in_body = 0, others;
	size_t i, n_actions = 0;

	if (flags & CUA_LINE_INDENT) {
		for (i = 0; i < e->depth; i++)
			sb_addc(sb, '\t');
	}
	sb_addf(sb, "%" PRIu32, e->id);

	if (e->flags & CUA_ELEM_COMPACT_LINK) {
		render_compact_link(sb, e);
		return;
	}

	if (nonempty(e->role_text)) {
		sb_addc(sb, ' ');
		sb_add(sb, e->role_text);
	}
	add_traits(sb, e->traits);

	/* which pieces are printed (docs/state-text.md §7.2) */
	if (!*title && !nonempty(e->description) && *id &&
	    is_generic_container(e)) {
		title = id;
		id = "";
	}
	if (nonempty(e->description) && !str_eq(e->description, title))
		desc = e->description;
	if (nonempty(e->help) && !str_eq(e->help, title) &&
	    !str_eq(e->help, e->description))
		help = e->help;
	if (!(e->flags & CUA_ELEM_SECURE)) {
		value = str(e->value);
		details = str(e->details);
	}
	/* a label's name is its text: print one copy, the title
	 * (docs/state-text.md §7.3) */
	if (*value && strcmp(str(e->role_text), "text") == 0 &&
	    strcmp(value, title) == 0)
		value = "";
	if (nonempty(e->placeholder) && !str_eq(e->placeholder, title) &&
	    !str_eq(e->placeholder, e->description) &&
	    !str_eq(e->placeholder, value))
		placeholder = e->placeholder;
	url = str(e->url);
	if (!*strip_scheme(url))
		url = "";
	if (is_link(e) && !*strip_scheme(value))
		value = "";
	for (i = 0; i < e->n_actions; i++)
		n_actions += nonempty(e->actions[i]);

	/* head: title, then the row-window summary
	 * (docs/state-text.md §3, §9.8) */
	if (*title) {
		sb_addc(sb, ' ');
		cua_add_truncated(sb, title, CUA_FIELD_MAX);
		in_body = 1;
	}
	if (summary) {
		sb_addf(sb,
			" (showing %" PRIu32 "-%" PRIu32 " of %" PRIu32
			" items)",
			e->sum_a, e->sum_b, e->sum_n);
		in_body = 1;
	}

	/* segments (docs/state-text.md §7.1) */
	if (*desc)
		add_labelled(sb, &in_body, "Description: ", desc);
	if (*help)
		add_labelled(sb, &in_body, "Help: ", help);
	if (*value) {
		/* bare when it is the only piece after role and traits */
		others = in_body || *details || *placeholder || *url || *id ||
			 n_actions;
		begin_segment(sb, &in_body);
		if (others)
			sb_add(sb, "Value: ");
		if (is_link(e))
			add_url(sb, value, flags);
		else
			cua_add_truncated(sb, value, CUA_FIELD_MAX);
	}
	if (*details)
		add_labelled(sb, &in_body, "Details: ", details);
	if (*placeholder)
		add_labelled(sb, &in_body, "Placeholder: ", placeholder);
	if (*url) {
		begin_segment(sb, &in_body);
		sb_add(sb, "URL: ");
		add_url(sb, url, flags);
	}
	if (*id)
		add_labelled(sb, &in_body, "ID: ", id);
	if (n_actions) {
		int first = 1;

		begin_segment(sb, &in_body);
		sb_add(sb, "Secondary Actions: ");
		for (i = 0; i < e->n_actions; i++) {
			if (!nonempty(e->actions[i]))
				continue;
			if (!first)
				sb_add(sb, ", ");
			first = 0;
			cua_add_truncated(sb, e->actions[i], CUA_FIELD_MAX);
		}
	}
}

void
cua_render_app_line(struct strbuf *sb, const struct cua_tree *tree)
{
	sb_add(sb, "App=");
	cua_add_truncated(sb, str(tree->app_id), CUA_FIELD_MAX);
	sb_addf(sb, " (pid %" PRId64 ")", tree->pid);
}

/* Inserts U+200B after the first backtick of every run of three or more,
 * repeatedly, so that no run of three remains to close the fence. */
static void
add_fenced_text(struct strbuf *sb, const char *s)
{
	const char *p = s;

	while (*p) {
		const char *tick = strchr(p, '`');
		size_t run;

		if (!tick) {
			sb_add(sb, p);
			return;
		}
		sb_addn(sb, p, (size_t)(tick - p));
		for (run = 0; tick[run] == '`'; run++)
			;
		p = tick + run;
		for (; run >= 3; run--)
			sb_add(sb, "`\xe2\x80\x8b");
		sb_addn(sb, "``", run);
	}
}

static uint32_t
line_url_flags(const struct cua_tree *tree)
{
	return cua_render_needs_short_urls(tree) ? CUA_LINE_SHORT_URLS : 0;
}

static void
render_trailer(struct strbuf *sb, const struct cua_tree *tree,
	       uint32_t url_flags)
{
	const struct cua_element *e;
	struct strbuf sel = STRBUF_INIT;

	if (tree->focused < 0 || (size_t)tree->focused >= tree->n_elements)
		return;
	e = &tree->elements[tree->focused];
	if (nonempty(tree->selected_text) && !(e->flags & CUA_ELEM_SECURE)) {
		cua_add_truncated(&sel, tree->selected_text, CUA_FIELD_MAX);
		sb_add(sb, "\n\nSelected text: ```\n");
		add_fenced_text(sb, sb_str(&sel));
		sb_add(sb, "\n```\n\n");
		sb_add(sb, selected_note);
		if (sel.oom)
			sb->oom = 1;
		sb_free(&sel);
		return;
	}
	sb_add(sb, "\n\nThe focused UI element is ");
	cua_render_line(sb, e, url_flags);
	sb_addc(sb, '.');
}

void
cua_render_trailer(struct strbuf *sb, const struct cua_tree *tree)
{
	render_trailer(sb, tree, line_url_flags(tree));
}

static void
add_markers(struct strbuf *sb, const struct cua_tree *tree, size_t after,
	    int last)
{
	size_t i;

	for (i = 0; i < tree->n_markers; i++) {
		const struct cua_marker *m = &tree->markers[i];

		if (m->after == after || (last && m->after > after)) {
			sb_addc(sb, '\n');
			sb_add(sb, str(m->text));
		}
	}
}

void
cua_render_state(struct strbuf *sb, const struct cua_tree *tree)
{
	uint32_t url_flags = line_url_flags(tree);
	size_t i;

	cua_render_app_line(sb, tree);
	sb_add(sb, "\nWindow: \"");
	cua_add_truncated(sb, str(tree->window_title), CUA_FIELD_MAX);
	sb_add(sb, "\", App: ");
	cua_add_truncated(sb, str(tree->app_name), CUA_FIELD_MAX);
	sb_addc(sb, '.');
	for (i = 0; i < tree->n_lines; i++) {
		add_markers(sb, tree, i, 0);
		sb_addc(sb, '\n');
		cua_render_line(sb, &tree->elements[i],
				CUA_LINE_INDENT | CUA_LINE_SUMMARY | url_flags);
	}
	add_markers(sb, tree, tree->n_lines, 1);
	render_trailer(sb, tree, url_flags);
}

int
cua_render_needs_short_urls(const struct cua_tree *tree)
{
	size_t total = 0, i;

	for (i = 0; i < tree->n_lines; i++) {
		const struct cua_element *e = &tree->elements[i];

		if (e->flags & CUA_ELEM_COMPACT_LINK)
			continue;
		if (nonempty(e->url))
			total += cua_utf8_len(strip_scheme(e->url));
		if (is_link(e) && nonempty(e->value) &&
		    !(e->flags & CUA_ELEM_SECURE))
			total += cua_utf8_len(strip_scheme(e->value));
		if (total > SHORT_URL_THRESHOLD)
			return 1;
	}
	return 0;
}

/*
 * Rewrites a %g result with an exponent ("-1.234e-05") as a plain
 * decimal ("-0.00001234") into buf.
 */
static void
exp_to_plain(char *buf, size_t size, const char *g)
{
	char digits[32], out[64];
	size_t nd = 0, o = 0;
	const char *p = g;
	long ex;
	long i;

	if (*p == '-')
		out[o++] = *p++;
	for (; *p && *p != 'e'; p++) {
		if (*p >= '0' && *p <= '9' && nd < sizeof(digits))
			digits[nd++] = *p;
	}
	ex = *p == 'e' ? strtol(p + 1, NULL, 10) : 0;
	/* value = 0.d1d2d3… × 10^(ex + 1) */
	if (ex < 0) {
		out[o++] = '0';
		out[o++] = '.';
		for (i = -1; i > ex && o < sizeof(out) - 2; i--)
			out[o++] = '0';
		for (i = 0; i < (long)nd && o < sizeof(out) - 1; i++)
			out[o++] = digits[i];
	} else {
		for (i = 0; i <= ex && o < sizeof(out) - 2; i++)
			out[o++] = i < (long)nd ? digits[i] : '0';
		if ((long)nd > ex + 1) {
			out[o++] = '.';
			for (i = ex + 1; i < (long)nd && o < sizeof(out) - 1;
			     i++)
				out[o++] = digits[i];
		}
	}
	out[o] = '\0';
	snprintf(buf, size, "%s", out);
}

void
cua_format_number(char *buf, size_t size, double v)
{
	char tmp[40];
	double a;
	int prec;

	if (!size)
		return;
	if (!isfinite(v) || v == 0) {
		snprintf(buf, size, "0");
		return;
	}
	a = fabs(v);
	if (a < 1e15 && v == trunc(v)) {
		snprintf(buf, size, "%.0f", v);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	if (strchr(tmp, 'e') && a < 1e15 && a >= 1e-6)
		exp_to_plain(buf, size, tmp);
	else
		snprintf(buf, size, "%s", tmp);
}
