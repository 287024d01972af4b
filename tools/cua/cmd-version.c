/*
 * `cua version`: the versions of cua and of the libcua it runs with.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>

#include "cli.h"

static int
run(struct cli *cli)
{
	if (cli->json)
		printf("{\"cua\":\"%s\",\"libcua\":\"%s\"}\n", CUA_VERSION,
		       cua_version_string());
	else
		printf("cua %s (libcua %s)\n", CUA_VERSION,
		       cua_version_string());
	return 0;
}

const struct cli_command cmd_version = {
	.name = "version",
	.usage = "cua version [--json]",
	.flags = CLI_JSON,
	.max_operands = 0,
	.run = run,
};
