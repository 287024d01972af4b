/*
 * `cua key APP KEY`: presses keys in xdotool syntax.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "cli.h"

static int
run(struct cli *cli)
{
	return cli_act_text(cli, "key", "key", cua_session_press_key);
}

static const char *const operands[] = { "app", "key", NULL };

const struct cli_command cmd_key = {
	.name = "key",
	.usage = "cua key APP KEY [--json]",
	.help = "Presses a key or combination in xdotool syntax: Return, "
		"ctrl+a,\nctrl+shift+t, \"ctrl+a BackSpace\".\n",
	.flags = CLI_JSON,
	.operands = operands,
	.max_operands = 2,
	.too_many_hint = "quote a KEY with spaces",
	.run = run,
};
