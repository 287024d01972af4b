/*
 * `cua set APP INDEX VALUE`: a text field's text or a slider's number.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "cli.h"

static int
run(struct cli *cli)
{
	/* an empty VALUE empties a text field */
	return cli_act_element_text(cli, "set", "set_value", NULL,
				    cua_session_set_value);
}

static const char *const operands[] = { "app", "element_index", "value", NULL };

const struct cli_command cmd_set = {
	.name = "set",
	.usage = "cua set APP INDEX VALUE [--json]",
	.help = "Sets a text field's text or a slider's, spin button's or "
		"scroll\nbar's number, without focusing or typing.\n",
	.flags = CLI_JSON,
	.operands = operands,
	.max_operands = 3,
	.too_many_hint = "quote a VALUE with spaces",
	.run = run,
};
