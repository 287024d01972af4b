/*
 * `cua select APP INDEX TEXT`: selects text, or places the caret.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "cli.h"

enum { OPT_PREFIX, OPT_SUFFIX, OPT_MODE };

struct options {
	const char *prefix;
	const char *suffix;
	uint32_t mode;
	uint32_t index;
};

static int
option(struct cli *cli, int id, const char *value)
{
	struct options *o = cli->data;

	if (id == OPT_PREFIX) {
		o->prefix = value;
	} else if (id == OPT_SUFFIX) {
		o->suffix = value;
	} else if (!strcmp(value, "text")) {
		o->mode = CUA_SELECTION_TEXT;
	} else if (!strcmp(value, "cursor_before")) {
		o->mode = CUA_SELECTION_CURSOR_BEFORE;
	} else if (!strcmp(value, "cursor_after")) {
		o->mode = CUA_SELECTION_CURSOR_AFTER;
	} else {
		return cli_usage_error(cli,
				       "Invalid text selection mode: %s Use "
				       "text, cursor_before or "
				       "cursor_after.",
				       value);
	}
	return 0;
}

static cua_result
act(struct cli *cli, cua_session *s, const void *ctx, char **outcome)
{
	struct options *o = cli->data;

	return cua_session_select_text(s, cli->argv[0], o->index, cli->argv[2],
				       o->prefix, o->suffix, o->mode, outcome);
}

static int
run(struct cli *cli)
{
	struct options *o = cli->data;

	if (!cli->argv[2][0])
		return cli_missing(cli, "text");
	if (cli_parse_index(cli, "select_text", cli->argv[1], &o->index) < 0)
		return 2;
	return cli_act(cli, "select", act, NULL);
}

static const struct cli_option options[] = {
	{ "prefix", 'p', "P", OPT_PREFIX },
	{ "suffix", 's', "S", OPT_SUFFIX },
	{ "mode", 'm', "text|cursor_before|cursor_after", OPT_MODE },
	{ NULL },
};

static const char *const operands[] = { "app", "element_index", "text", NULL };

static const struct options defaults = { NULL, NULL, CUA_SELECTION_TEXT, 0 };

#define USAGE                                                                  \
	"cua select APP INDEX TEXT [--prefix P] [--suffix S] "                 \
	"[--mode text|cursor_before|cursor_after] [--json]"

#define HELP                                                                   \
	"Selects TEXT in a text element, or with --mode cursor_before or\n"    \
	"cursor_after puts the caret before or after it; --prefix and\n"       \
	"--suffix choose among several occurrences.\n"

const struct cli_command cmd_select = {
	.name = "select",
	.usage = USAGE,
	.help = HELP,
	.flags = CLI_JSON,
	.options = options,
	.operands = operands,
	.max_operands = 3,
	.too_many_hint = "quote a TEXT with spaces",
	.option = option,
	.run = run,
	.data_size = sizeof(struct options),
	.defaults = &defaults,
};
