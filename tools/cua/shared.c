/*
 * What the cua commands share once their arguments are parsed: the
 * session and its state file, libcua's errors, element numbers and
 * numbers, action receipts.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* APP as a shell word for the command line's sentences: as typed when it
 * needs no quoting, in single quotes when it has none of its own, else
 * NULL (the sentence keeps the placeholder APP). */
static char *
app_word(const char *app)
{
	int plain = app && *app;
	char *w;

	if (!app || !*app)
		return NULL;
	for (const char *c = app; plain && *c; c++)
		plain = strchr("abcdefghijklmnopqrstuvwxyz"
			       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+/:@",
			       *c) != NULL;
	if (plain)
		return strdup(app);
	if (strchr(app, '\''))
		return NULL;
	w = malloc(strlen(app) + 3);
	if (w)
		sprintf(w, "'%s'", app);
	return w;
}

/* The receipt in the command line's words: the contract's sentence names
 * the MCP tool, which a shell does not have. */
static void
print_receipt(const char *app)
{
	char *w = app_word(app);

	printf("Action completed. Run `cua state %s` to see the updated UI "
	       "state.\n",
	       w ? w : "APP");
	free(w);
}

void
cli_print_message(FILE *f, const char *msg, const char *app)
{
	char *w = app_word(app);
	int quoted = 0; /* inside a `...` span */

	/* the library's command-line words name the app as APP inside a
	 * quoted command (`cua state APP`); the person typed the app */
	for (const char *c = msg; *c; c++) {
		if (*c == '`')
			quoted = !quoted;
		if (w && quoted && c > msg && c[-1] == ' ' &&
		    !strncmp(c, "APP", 3) && (c[3] == ' ' || c[3] == '`')) {
			fputs(w, f);
			c += 2;
			continue;
		}
		fputc(*c, f);
	}
	fputc('\n', f);
	free(w);
}

int
cli_fail_app(const char *what, cua_result r, const char *app)
{
	const char *msg = cua_error_message();

	if (msg && *msg)
		cli_print_message(stderr, msg, app);
	else
		fprintf(stderr, "cua: %s: %s\n", what, cua_result_to_string(r));
	return r == CUA_ERROR_INVALID_ARGUMENT ? 2 : 1;
}

int
cli_fail(const char *what, cua_result r)
{
	return cli_fail_app(what, r, NULL);
}

int
cli_plain_session(const char *what, cua_session **s)
{
	cua_result r = cua_session_new(s, 0);

	if (r != CUA_OK)
		return cli_fail(what, r);
	/* every session of the command: messages name `cua state`, not
	 * the MCP tools */
	r = cua_session_set_option(*s, "vocabulary", "cli");
	/* one observation per process: nothing to keep a tree cache for
	 * (`cua watch` turns it back on) */
	if (r == CUA_OK)
		r = cua_session_set_option(*s, "tree_cache", "off");
	if (r != CUA_OK) {
		*s = cua_session_unref(*s);
		return cli_fail(what, r);
	}
	return 0;
}

int
cli_open_session(cua_session **s, struct cua_state_file *sf)
{
	cua_result r;
	int status;

	if ((status = cli_plain_session("session", s)))
		return status;
	if (cua_state_open(sf) < 0) {
		*s = cua_session_unref(*s);
		return 1;
	}
	if (sf->json) {
		r = cua_session_load_state(*s, sf->json);
		if (r != CUA_OK)
			fprintf(stderr,
				"cua: ignoring unreadable state %s: %s\n",
				sf->path, cua_error_message());
	}
	return 0;
}

int
cli_close_session(cua_session *s, struct cua_state_file *sf, int status)
{
	char *json = NULL;

	if (s && cua_session_save_state(s, &json) == CUA_OK) {
		if (cua_state_save(sf, json) < 0 && status == 0)
			status = 1;
		cua_free(json);
	}
	cua_state_close(sf);
	cua_session_unref(s);
	return status;
}

/* element_index: decimal digits, surrounding white space ignored
 * (docs/tools.md §2.3). */
int
cli_parse_index(const struct cli *cli, const char *tool, const char *s,
		uint32_t *out)
{
	const char *p = s;
	unsigned long long v = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v > UINT32_MAX - 1)
			goto bad;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p)
		goto bad;
	*out = (uint32_t)v;
	return 0;
bad:
	cli_usage_error(cli,
			"Invalid arguments for %s: 'element_index' must be an "
			"element number from the latest `cua state`, such as "
			"\"12\".",
			tool);
	return -1;
}

int
cli_parse_number(const struct cli *cli, const char *tool, const char *name,
		 const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v != v || v > 1e300 || v < -1e300) {
		cli_usage_error(
			cli, "Invalid arguments for %s: '%s' must be a number.",
			tool, name);
		return -1;
	}
	*out = v;
	return 0;
}

int
cli_observe(struct cli *cli, const char *what, uint32_t flags, cua_session **s,
	    struct cua_state_file *sf, cua_tree **t)
{
	cua_result r;
	int status;

	if ((status = cli_open_session(s, sf)))
		return status;
	r = cua_session_observe(*s, cli->argv[0], flags, t);
	if (r != CUA_OK)
		return cli_close_session(*s, sf,
					 cli_fail_app(what, r, cli->argv[0]));
	return 0;
}

int
cli_act(struct cli *cli, const char *what,
	cua_result (*act)(struct cli *cli, cua_session *s, const void *ctx,
			  char **outcome),
	const void *ctx)
{
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	cua_session *s = NULL;
	char *outcome = NULL;
	const char *route;
	int status;
	cua_result r;

	if ((status = cli_open_session(&s, &sf)))
		return status;
	r = act(cli, s, ctx, &outcome);
	if (r != CUA_OK) {
		status = cli_fail_app(what, r,
				      cli->argc > 0 ? cli->argv[0] : NULL);
	} else if (cli->json) {
		printf("%s\n", outcome ? outcome : "{}");
	} else {
		route = outcome ? strstr(outcome, "\"route\":\"") : NULL;
		print_receipt(cli->argc > 0 ? cli->argv[0] : NULL);
		if (route) {
			route += 9;
			printf("route: %.*s\n", (int)strcspn(route, "\""),
			       route);
		}
	}
	cua_free(outcome);
	/* the action happened: a state that cannot be saved is reported
	 * (cli_close_session) but does not turn it into a failure that a
	 * script would retry, acting twice */
	if (r == CUA_OK) {
		cli_close_session(s, &sf, status);
		return status;
	}
	return cli_close_session(s, &sf, status);
}

struct text_act {
	cli_text_fn text;
	cli_element_text_fn element_text;
	uint32_t index;
};

static cua_result
act_text(struct cli *cli, cua_session *s, const void *ctx, char **outcome)
{
	const struct text_act *a = ctx;

	if (a->text)
		return a->text(s, cli->argv[0], cli->argv[1], outcome);
	return a->element_text(s, cli->argv[0], a->index, cli->argv[2],
			       outcome);
}

int
cli_act_text(struct cli *cli, const char *what, const char *operand,
	     cli_text_fn fn)
{
	struct text_act a = { .text = fn };

	if (!cli->argv[1][0])
		return cli_missing(cli, operand);
	return cli_act(cli, what, act_text, &a);
}

int
cli_act_element_text(struct cli *cli, const char *what, const char *tool,
		     const char *operand, cli_element_text_fn fn)
{
	struct text_act a = { .element_text = fn };

	if (operand && !cli->argv[2][0])
		return cli_missing(cli, operand);
	if (cli_parse_index(cli, tool, cli->argv[1], &a.index) < 0)
		return 2;
	return cli_act(cli, what, act_text, &a);
}

int
cli_write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "we");

	if (!f || fwrite(data, 1, size, f) != size) {
		fprintf(stderr, "cua: cannot write %s: %s\n", path,
			strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "cua: cannot write %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	return 0;
}

/* 1 when `path` ends in ".png" (any case). */
static int
is_png_path(const char *path)
{
	size_t n = strlen(path);

	return n >= 4 && strcasecmp(path + n - 4, ".png") == 0;
}

int
cli_save_screenshot(cua_tree *t, const char *path, int marks)
{
	uint32_t flags = (marks ? CUA_SCREENSHOT_MARKS : 0) |
			 (is_png_path(path) ? CUA_SCREENSHOT_PNG : 0);
	void *img = NULL;
	size_t size = 0;
	cua_result r;
	int status;

	r = cua_tree_render_screenshot(t, flags, &img, &size);
	if (r != CUA_OK)
		return cli_fail("screenshot", r);
	status = cli_write_file(path, img, size);
	cua_free(img);
	return status;
}
