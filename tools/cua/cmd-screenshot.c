/*
 * `cua screenshot APP -o FILE`: APP's window as JPEG or PNG, optionally
 * with each element's box and id.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>

#include "cli.h"

enum { OPT_OUTPUT, OPT_MARKS, OPT_NO_LAUNCH };

struct options {
	const char *output;
	int marks;
	uint32_t observe_flags;
};

static int
option(struct cli *cli, int id, const char *value)
{
	struct options *o = cli->data;

	if (id == OPT_OUTPUT)
		o->output = value;
	else if (id == OPT_MARKS)
		o->marks = 1;
	else
		o->observe_flags |= CUA_OBSERVE_NO_LAUNCH;
	return 0;
}

static int
run(struct cli *cli)
{
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	struct options *o = cli->data;
	cua_session *s = NULL;
	cua_tree *t = NULL;
	int status;

	if (!o->output)
		return cli_usage_error(cli, "Missing required option: -o FILE");
	/* an observation like `cua state`: the ids drawn are the ids that
	 * the next command accepts */
	status = cli_observe(cli, "screenshot", o->observe_flags, &s, &sf, &t);
	if (status)
		return status;
	status = cli_save_screenshot(t, o->output, o->marks);
	cua_tree_unref(t);
	return cli_close_session(s, &sf, status);
}

static const struct cli_option options[] = {
	{ "output", 'o', "FILE", OPT_OUTPUT },
	{ "marks", 'm', NULL, OPT_MARKS },
	{ "no-launch", 'n', NULL, OPT_NO_LAUNCH },
	{ NULL },
};

const struct cli_command cmd_screenshot = {
	.name = "screenshot",
	.usage = "cua screenshot APP -o FILE [--marks] [--no-launch]",
	.help = "FILE ending in .png is written as PNG, anything else as JPEG.\n",
	.options = options,
	.operands = cli_app_operand,
	.max_operands = 1,
	.option = option,
	.run = run,
	.data_size = sizeof(struct options),
};
