/*
 * `cua action APP INDEX NAME`: one of an element's secondary actions.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "cli.h"

static int
run(struct cli *cli)
{
	return cli_act_element_text(cli, "action", "perform_secondary_action",
				    "action", cua_session_perform_action);
}

static const char *const operands[] = { "app", "element_index", "action",
					NULL };

const struct cli_command cmd_action = {
	.name = "action",
	.usage = "cua action APP INDEX NAME [--json]",
	.help = "Performs one of the element's secondary actions, named as "
		"its\nline shows them (Show Menu, Expand, Scroll Down, ...).\n",
	.flags = CLI_JSON,
	.operands = operands,
	.max_operands = 3,
	.too_many_hint = "quote a NAME with spaces",
	.run = run,
};
