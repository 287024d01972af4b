/*
 * `cua scroll APP INDEX DIRECTION [PAGES]`: scrolls an element.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>

#include "cli.h"

struct args {
	uint32_t index;
	double pages;
};

static cua_result
act(struct cli *cli, cua_session *s, const void *ctx, char **outcome)
{
	struct args *a = cli->data;

	return cua_session_scroll(s, cli->argv[0], a->index, cli->argv[2],
				  a->pages, outcome);
}

static int
run(struct cli *cli)
{
	struct args *a = cli->data;
	char *end;

	if (cli_parse_index(cli, "scroll", cli->argv[1], &a->index) < 0)
		return 2;
	a->pages = 1;
	if (cli->argc == 4) {
		a->pages = strtod(cli->argv[3], &end);
		if (end == cli->argv[3] || *end || !(a->pages > 0) ||
		    a->pages > 1e9)
			return cli_usage_error(cli, "pages must be > 0");
	}
	return cli_act(cli, "scroll", act, NULL);
}

static const char *const operands[] = { "app", "element_index", "direction",
					NULL };

#define HELP                                                                   \
	"Scrolls the element by PAGES (default 1, fractions allowed)\n"        \
	"times its height or width.\n"

const struct cli_command cmd_scroll = {
	.name = "scroll",
	.usage = "cua scroll APP INDEX up|down|left|right [PAGES] [--json]",
	.help = HELP,
	.flags = CLI_JSON,
	.operands = operands,
	.max_operands = 4,
	.run = run,
	.data_size = sizeof(struct args),
};
