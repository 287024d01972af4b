/*
 * `cua type APP TEXT`: types TEXT into APP's focused element.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "cli.h"

static int
run(struct cli *cli)
{
	return cli_act_text(cli, "type", "text", cua_session_type_text);
}

static const char *const operands[] = { "app", "text", NULL };

const struct cli_command cmd_type = {
	.name = "type",
	.usage = "cua type APP TEXT [--json]",
	.help = "Types TEXT into APP's focused element (a newline is Return, "
		"a\ntab is Tab). Put -- before a TEXT that starts with '-'.\n",
	.flags = CLI_JSON,
	.operands = operands,
	.max_operands = 2,
	.too_many_hint = "quote TEXT",
	.run = run,
};
