/*
 * `cua approve APP-ID...`: the "always" approval that cua-mcp asks for
 * through MCP elicitation, for hosts that cannot ask (docs/safety.md §3.2).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "approvals.h"
#include "cli.h"

static int
run(struct cli *cli)
{
	char *path = approvals_default_path();
	int i, status = 0;

	if (!path) {
		fprintf(stderr,
			"cua approve: neither XDG_STATE_HOME nor HOME is set\n");
		return 1;
	}
	for (i = 0; i < cli->argc; i++) {
		if (!cli->argv[i][0] || strchr(cli->argv[i], '/')) {
			fprintf(stderr, "cua approve: '%s' is not an app id\n",
				cli->argv[i]);
			status = 2;
		} else if (approvals_add(path, cli->argv[i]) < 0) {
			/* the old store is kept as it was (atomic replace) */
			fprintf(stderr,
				"cua approve: cannot write %s: %s; %s is not approved (the file is unchanged). Free some space or make the directory writable (or set XDG_STATE_HOME), then try again.\n",
				path, strerror(errno), cli->argv[i]);
			status = 1;
		} else {
			printf("approved %s (%s)\n", cli->argv[i], path);
		}
	}
	free(path);
	return status;
}

static const char *const operands[] = { "app_id", NULL };

#define HELP                                                                   \
	"Lets cua-mcp use the apps (canonical ids, as its messages\n"          \
	"and `cua apps` print them) without asking, in every session.\n"       \
	"Forbidden apps stay forbidden.\n"

const struct cli_command cmd_approve = {
	.name = "approve",
	.usage = "cua approve APP-ID...",
	.help = HELP,
	.operands = operands,
	.max_operands = -1,
	.run = run,
};
