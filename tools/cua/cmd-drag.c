/*
 * `cua drag APP X1 Y1 X2 Y2`: drags between two screenshot pixels.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "cli.h"

static const char *const operands[] = { "app",  "from_x", "from_y",
					"to_x", "to_y",   NULL };

static cua_result
act(struct cli *cli, cua_session *s, const void *ctx, char **outcome)
{
	const double *v = cli->data;

	return cua_session_drag(s, cli->argv[0], v[0], v[1], v[2], v[3],
				outcome);
}

static int
run(struct cli *cli)
{
	double *v = cli->data;
	int i;

	for (i = 0; i < 4; i++)
		if (cli_parse_number(cli, "drag", operands[i + 1],
				     cli->argv[i + 1], &v[i]) < 0)
			return 2;
	return cli_act(cli, "drag", act, NULL);
}

const struct cli_command cmd_drag = {
	.name = "drag",
	.usage = "cua drag APP X1 Y1 X2 Y2 [--json]",
	.help = "Drags with the left button between two screenshot pixels.\n",
	.flags = CLI_JSON,
	.operands = operands,
	.max_operands = 5,
	.run = run,
	.data_size = 4 * sizeof(double),
};
