/*
 * `cua apps`: the running and recently used apps.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>

#include "cli.h"

static int
run(struct cli *cli)
{
	cua_session *s = NULL;
	char *text = NULL;
	cua_result r;
	int status;

	if ((status = cli_plain_session("apps", &s)))
		return status;
	r = cua_session_list_apps(s, cli->json ? CUA_FORMAT_JSON : 0, &text);
	if (r != CUA_OK) {
		cua_session_unref(s);
		return cli_fail("apps", r);
	}
	printf("%s\n", text);
	cua_free(text);
	cua_session_unref(s);
	return 0;
}

#define HELP                                                                   \
	"Lists the running and recently used apps: \"name — id [flags]\"\n"  \
	"lines, or with --json the libcua.apps/1 object.\n"

const struct cli_command cmd_apps = {
	.name = "apps",
	.usage = "cua apps [--json]",
	.help = HELP,
	.flags = CLI_JSON,
	.max_operands = 0,
	.run = run,
};
