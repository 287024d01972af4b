/*
 * The error registry (lib/core/errors.def) against what depends on it:
 * every message renders in every vocabulary with every slot filled; the
 * command line's and the C API's words name no MCP tool; the MCP wording
 * is the text docs/tools.md §11 gives, where it gives one exactly; the
 * catalogue rows are the ones that table lists; and the public header's
 * codes are the registry's, names and values.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "core/errors.h"
#include "core/strbuf.h"
#include "util.h"

/* ---- the registry, read again ------------------------------------------ */

static const struct row {
	const char *row, *id, *name;
	int code, prefix;
} rows[] = {
#define CUA_ROW(row, id, mcp_name, mcp_code, prefix)                           \
	{ #row, id, mcp_name, mcp_code, prefix },
#include "core/errors.def"
};

static const struct code {
	const char *name;
	int header_value; /* the constant of <cua/cua-errors.h> */
	int value;        /* the registry's */
	const char *row;
} codes[] = {
#define CUA_CODE(code, value, row) { #code, CUA_E_##code, value, #row },
#include "core/errors.def"
};

static const struct term {
	const char *name, *mcp, *cli, *api;
} terms[] = {
#define CUA_TERM(term, mcp, cli, api) { #term, mcp, cli, api },
#include "core/errors.def"
};

/* Tool and parameter names of the MCP server: never in the command
 * line's or the C API's words. */
static const char *const mcp_words[] = {
	"get_app_state", "list_apps",
	"element_index", "perform_secondary_action",
	"set_value",     "select_text",
	"type_text",     "press_key",
	"click_count",
};

static const char *const vocab_names[] = { "api", "mcp", "cli" };

static const struct code *
code_named(const char *name)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(codes[i].name, name) == 0)
			return &codes[i];
	return NULL;
}

static const struct code *
code_of(cua_errcode c)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].header_value == (int)c)
			return &codes[i];
	return NULL;
}

static const struct row *
row_named(const char *name)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].row, name) == 0)
			return &rows[i];
	return NULL;
}

static char *
read_source(const char *rel)
{
	const char *data = getenv("CUA_TEST_DATA");
	char path[4096];
	char *buf;

	assert_non_null(data);
	/* CUA_TEST_DATA is <source>/tests/data */
	snprintf(path, sizeof(path), "%s/../../%s", data, rel);
	buf = read_whole_file(path);
	if (!buf)
		fail_msg("cannot read %s", path);
	return buf;
}

/* ---- filling a template ------------------------------------------------ */

/* What docs/tools.md §11 writes for a slot. */
static const char *
placeholder(const char *slot)
{
	static const char *const map[][2] = {
		{ "id", "<n>" },
		{ "app_id", "<id>" },
		{ "w", "<W>" },
		{ "h", "<H>" },
		{ "w2", "<W'>" },
		{ "h2", "<H'>" },
		{ "how", "<minimized|hidden|off-screen>" },
		{ "cover", "<process name or \"another window\">" },
		{ "process", "<process name>" },
		{ "actions", "<a>, <b>" },
		{ "candidates",
		  "<name> \xe2\x80\x94 <id> (pid <n>), \xe2\x80\xa6" },
	};
	static char buf[8][64];
	static int next;
	char *b;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i][0], slot) == 0)
			return map[i][1];
	b = buf[next++ % 8];
	snprintf(b, sizeof(buf[0]), "<%s>", slot);
	return b;
}

struct fill {
	char names[16][32];
	struct cua_slot slots[16];
	size_t n;
};

/* One slot per distinct `{name}` / `{name:N}` of the template. */
static void
fill_slots(const char *template, struct fill *f)
{
	const char *p = template, *open, *close;

	memset(f, 0, sizeof(*f));
	while ((open = strchr(p, '{')) && (close = strchr(open, '}'))) {
		size_t len = strcspn(open + 1, ":}");
		int seen = 0;

		p = close + 1;
		if (open[1] == '@')
			continue;
		assert_true(len > 0 && len < sizeof(f->names[0]));
		for (size_t i = 0; i < f->n; i++)
			seen |= strlen(f->names[i]) == len &&
				memcmp(f->names[i], open + 1, len) == 0;
		if (seen)
			continue;
		assert_true(f->n < 16);
		memcpy(f->names[f->n], open + 1, len);
		f->slots[f->n].name = f->names[f->n];
		f->slots[f->n].value = placeholder(f->names[f->n]);
		f->n++;
	}
}

static char *
render(enum cua_msg m, enum cua_vocab v, const struct fill *f)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned problems = cua_err_render(&sb, m, v, f->slots, f->n);

	if (problems)
		fail_msg("%s (%s): problems 0x%x in \"%s\"",
			 cua_msg_info(m)->name, vocab_names[v], problems,
			 sb_str(&sb));
	return sb_steal(&sb);
}

/* ---- docs/tools.md §11 ------------------------------------------------- */

struct doc_row {
	char id[64], name[64];
	char *codes; /* the "C API code" column */
	int code, prefix;
	char *variants[8]; /* the exact texts of the detail column */
	size_t n_variants;
};

static struct doc_row doc_rows[64];
static size_t n_doc_rows;

/* The cells of a table line, split at unescaped `|`. */
static size_t
split_cells(char *line, char **cells, size_t max)
{
	size_t n = 0;
	char *start = line + 1; /* after the leading '|' */

	for (char *p = start; *p && n < max; p++) {
		if (*p == '\\' && p[1] == '|') {
			p++;
			continue;
		}
		if (*p != '|')
			continue;
		*p = '\0';
		cells[n++] = start;
		start = p + 1;
	}
	return n;
}

/* The code spans of a cell; spans joined by exactly " + " are one text,
 * and a span `\n` is a line break. */
static void
parse_variants(const char *cell, struct doc_row *r)
{
	struct strbuf cur = STRBUF_INIT;
	const char *p = cell;
	int open = 0;

	while (*p) {
		size_t run = strspn(p, "`"), len;
		const char *end, *q;

		if (!run) {
			if (open && strncmp(p, " + `", 4) == 0) {
				p += 3; /* joins the next span */
				continue;
			}
			if (open) {
				assert_true(r->n_variants < 8);
				r->variants[r->n_variants++] = sb_steal(&cur);
				open = 0;
			}
			p++;
			continue;
		}
		/* the closing run of the same length */
		for (end = p + run;; end += strspn(end, "`")) {
			end = strchr(end, '`');
			assert_non_null(end);
			if (strspn(end, "`") == run)
				break;
		}
		q = p + run;
		len = (size_t)(end - q);
		if (len >= 2 && q[0] == ' ' && q[len - 1] == ' ') {
			q++;
			len -= 2;
		}
		if (len == 2 && memcmp(q, "\\n", 2) == 0) {
			sb_addc(&cur, '\n');
		} else {
			for (size_t i = 0; i < len; i++) {
				if (q[i] == '\\' && i + 1 < len &&
				    q[i + 1] == '|')
					continue;
				sb_addc(&cur, q[i]);
			}
		}
		open = 1;
		p = end + run;
	}
	if (open) {
		assert_true(r->n_variants < 8);
		r->variants[r->n_variants++] = sb_steal(&cur);
	}
	sb_free(&cur);
}

static void
load_doc(void)
{
	char *text = read_source("docs/tools.md"), *sec, *line, *next;

	sec = strstr(text, "\n## 11. Error catalogue");
	assert_non_null(sec);
	for (line = sec + 1; line && *line; line = next) {
		char *cells[8], *name, *minus;
		struct doc_row *r;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line != sec + 1 && strncmp(line, "## ", 3) == 0)
			break;
		if (strncmp(line, "| E-", 4) != 0)
			continue;
		/* id | C API code | name / code | prefix | detail | origin */
		assert_int_equal(split_cells(line, cells, 8), 6);
		assert_true(n_doc_rows <
			    sizeof(doc_rows) / sizeof(doc_rows[0]));
		r = &doc_rows[n_doc_rows++];
		assert_int_equal(sscanf(cells[0], " %63s", r->id), 1);
		r->codes = strdup(cells[1]);
		/* `name` / −code (U+2212 minus) */
		name = strchr(cells[2], '`');
		assert_non_null(name);
		assert_int_equal(sscanf(name, "`%63[^`]`", r->name), 1);
		minus = strstr(cells[2], "\xe2\x88\x92");
		assert_non_null(minus);
		r->code = -atoi(minus + 3);
		r->prefix = strstr(cells[3], "yes") != NULL;
		parse_variants(cells[4], r);
	}
	free(text);
	assert_true(n_doc_rows > 40);
}

static const struct doc_row *
doc_row(const char *id)
{
	for (size_t i = 0; i < n_doc_rows; i++)
		if (strcmp(doc_rows[i].id, id) == 0)
			return &doc_rows[i];
	return NULL;
}

/* ---- tests ------------------------------------------------------------- */

/* Every message, every vocabulary: all slots filled, nothing left over,
 * and no MCP tool outside the MCP words. */
static void
test_render_all(void **state)
{
	(void)state;
	for (int m = 0; m < CUA_MSG_COUNT; m++) {
		const struct cua_msg_info *mi = cua_msg_info(m);
		struct fill f;

		assert_non_null(mi);
		assert_non_null(code_of(mi->code));
		assert_true(mi->result < 0);
		fill_slots(mi->template, &f);
		for (int v = 0; v < CUA_VOCAB_COUNT; v++) {
			char *s = render(m, v, &f);

			if (strchr(s, '{') || strchr(s, '}'))
				fail_msg("%s (%s): left over: %s", mi->name,
					 vocab_names[v], s);
			for (size_t k = 0;
			     v != CUA_VOCAB_MCP &&
			     k < sizeof(mcp_words) / sizeof(mcp_words[0]);
			     k++)
				if (strstr(s, mcp_words[k]))
					fail_msg("%s (%s) names %s: %s",
						 mi->name, vocab_names[v],
						 mcp_words[k], s);
			free(s);
		}
	}
}

/* Raising a message sets the thread's code and message and returns its
 * result, in the thread's vocabulary. */
static void
test_raise_all(void **state)
{
	(void)state;
	for (int v = 0; v < CUA_VOCAB_COUNT; v++) {
		cua_err_set_vocab(v);
		for (int m = 0; m < CUA_MSG_COUNT; m++) {
			const struct cua_msg_info *mi = cua_msg_info(m);
			struct fill f;
			char *s;

			fill_slots(mi->template, &f);
			s = render(m, v, &f);
			cua_error_clear();
			assert_int_equal(cua_err_code(), CUA_E_OK);
			assert_int_equal(cua_err_slots(m, f.slots, f.n),
					 mi->result);
			assert_int_equal(cua_err_code(), mi->code);
			assert_string_equal(cua_error_get(), s);
			free(s);
		}
	}
	cua_err_set_vocab(CUA_VOCAB_API);
	/* a plain message gets the code of its result */
	assert_int_equal(cua_error(CUA_ERROR_NOMEM, "out of %s", "memory"),
			 CUA_ERROR_NOMEM);
	assert_int_equal(cua_err_code(), CUA_E_NOMEM);
	assert_string_equal(cua_error_get(), "out of memory");
	for (int r = CUA_ERROR; r >= CUA_ERROR_INPUT_BLOCKED; r--)
		assert_non_null(code_of(cua_errcode_of_result(r)));
	assert_int_equal(cua_errcode_of_result(CUA_OK), CUA_E_OK);
	cua_error_clear();
}

/* The MCP wording is the catalogue's where it gives the text exactly, and
 * the rows are the catalogue's rows. */
static void
test_docs_catalogue(void **state)
{
	size_t compared = 0;

	(void)state;
	load_doc();
	/* every row of the table is a registry row, and back */
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct doc_row *d = doc_row(rows[i].id);

		if (!d)
			fail_msg("%s is not in docs/tools.md §11", rows[i].id);
		assert_string_equal(d->name, rows[i].name);
		assert_int_equal(d->code, rows[i].code);
		assert_int_equal(d->prefix, rows[i].prefix);
	}
	assert_int_equal(n_doc_rows, sizeof(rows) / sizeof(rows[0]));
	/* the "C API code" column lists exactly the codes shown under it */
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		const struct doc_row *d = doc_row(row_named(codes[i].row)->id);
		char want[96];

		snprintf(want, sizeof(want), "`CUA_E_%s` (%d)", codes[i].name,
			 codes[i].value);
		if (!strstr(d->codes, want))
			fail_msg("docs/tools.md §11, %s: %s is missing", d->id,
				 want);
	}
	for (size_t k = 0; k < n_doc_rows; k++) {
		size_t listed = 0, own = 0;

		for (const char *p = doc_rows[k].codes;
		     (p = strstr(p, "CUA_E_")); p++)
			listed++;
		for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
			own += strcmp(row_named(codes[i].row)->id,
				      doc_rows[k].id) == 0;
		if (listed != own)
			fail_msg("docs/tools.md §11, %s lists %zu codes, the "
				 "registry %zu",
				 doc_rows[k].id, listed, own);
	}
	for (int m = 0; m < CUA_MSG_COUNT; m++) {
		const struct cua_msg_info *mi = cua_msg_info(m);
		const struct row *r = row_named(code_of(mi->code)->row);
		const struct doc_row *d;
		struct fill f;
		char *s;
		int found = 0;

		assert_non_null(r);
		if (!mi->doc)
			continue;
		d = doc_row(r->id);
		assert_non_null(d);
		fill_slots(mi->template, &f);
		s = render(m, CUA_VOCAB_MCP, &f);
		for (size_t k = 0; k < d->n_variants; k++)
			found |= strcmp(d->variants[k], s) == 0;
		if (!found) {
			for (size_t k = 0; k < d->n_variants; k++)
				print_message("docs: %s\n", d->variants[k]);
			fail_msg("%s: its MCP text is not in docs/tools.md §11 "
				 "(%s):\n%s",
				 mi->name, r->id, s);
		}
		free(s);
		compared++;
	}
	print_message("# %zu messages have the catalogue's exact text\n",
		      compared);
	assert_true(compared >= 30);
	for (size_t k = 0; k < n_doc_rows; k++) {
		free(doc_rows[k].codes);
		for (size_t i = 0; i < doc_rows[k].n_variants; i++)
			free(doc_rows[k].variants[i]);
	}
	n_doc_rows = 0;
}

/* <cua/cua-errors.h> lists the registry's codes, names and values. */
static void
test_header_codes(void **state)
{
	char *text = read_source("include/cua/cua-errors.h"), *p;
	size_t seen = 0;
	int ok_seen = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		if (codes[i].header_value != codes[i].value)
			fail_msg(
				"CUA_E_%s is %d in the header, %d in the registry",
				codes[i].name, codes[i].header_value,
				codes[i].value);
		assert_non_null(row_named(codes[i].row));
		for (size_t k = 0; k < i; k++)
			assert_int_not_equal(codes[k].value, codes[i].value);
	}
	for (p = text; (p = strstr(p, "\tCUA_E_")); p++) {
		char name[64];
		int value;
		const struct code *c;

		if (sscanf(p, "\tCUA_E_%63[A-Z0-9_] = %d,", name, &value) != 2)
			fail_msg("cannot read the line at: %.40s", p);
		if (strcmp(name, "OK") == 0) {
			assert_int_equal(value, 0);
			ok_seen = 1;
			continue;
		}
		c = code_named(name);
		if (!c)
			fail_msg(
				"CUA_E_%s of the header is not in the registry",
				name);
		if (c->value != value)
			fail_msg(
				"CUA_E_%s is %d in the header, %d in the registry",
				name, value, c->value);
		seen++;
	}
	assert_true(ok_seen);
	assert_int_equal(seen, sizeof(codes) / sizeof(codes[0]));
	free(text);
}

/* Every term has its three wordings, and is used. */
static void
test_terms(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		char ref[80], ref_up[80];
		int used = 0;

		assert_true(*terms[i].mcp && *terms[i].cli && *terms[i].api);
		snprintf(ref, sizeof(ref), "{@%s}", terms[i].name);
		snprintf(ref_up, sizeof(ref_up), "{@^%s}", terms[i].name);
		for (int m = 0; m < CUA_MSG_COUNT; m++)
			used |= strstr(cua_msg_info(m)->template, ref) ||
				strstr(cua_msg_info(m)->template, ref_up);
		if (!used)
			fail_msg("the term %s is not used", terms[i].name);
	}
	assert_int_equal(cua_vocab_from_name("mcp"), CUA_VOCAB_MCP);
	assert_int_equal(cua_vocab_from_name("cli"), CUA_VOCAB_CLI);
	assert_int_equal(cua_vocab_from_name("api"), CUA_VOCAB_API);
	assert_int_equal(cua_vocab_from_name("MCP"), -1);
	assert_int_equal(cua_vocab_from_name(NULL), -1);
}

/* The renderer reports what a call site gets wrong. */
static void
test_render_problems(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const struct cua_slot extra[] = { { "app", "a" }, { "nope", "x" } };
	const struct cua_slot none[] = { { "other", "x" } };

	(void)state;
	assert_int_equal(cua_err_render(&sb, CUA_MSG_NOT_ACTIVE, CUA_VOCAB_MCP,
					extra, 2),
			 CUA_RENDER_UNUSED_SLOT);
	sb_free(&sb);
	assert_int_equal(
		cua_err_render(&sb, CUA_MSG_NOT_ACTIVE, CUA_VOCAB_MCP, none, 1),
		CUA_RENDER_MISSING_SLOT | CUA_RENDER_UNUSED_SLOT);
	assert_non_null(strstr(sb_str(&sb), "'{app}'"));
	sb_free(&sb);
	/* slot values are sanitised and cut, never expanded again */
	{
		const struct cua_slot v[] = {
			{ "value",
			  " {app}\n\xe2\x80\xae"
			  "0123456789012345678901234567890123456789012345678901234567890123456789" },
			{ "id", "7" },
			{ "role", "slider" },
			{ "min", "0" },
			{ "max", "1" },
		};

		assert_int_equal(cua_err_render(&sb, CUA_MSG_BAD_VALUE,
						CUA_VOCAB_API, v, 5),
				 0);
		assert_string_equal(
			sb_str(&sb),
			"'{app}\\n012345678901234567890123456789012345678901234567890123456...' "
			"is not a valid value for element 7, a slider that "
			"takes a number between 0 and 1.");
		sb_free(&sb);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_all),
		cmocka_unit_test(test_raise_all),
		cmocka_unit_test(test_docs_catalogue),
		cmocka_unit_test(test_header_codes),
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_render_problems),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
