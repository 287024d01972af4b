/*
 * `cua record APP`: APP's raw tree as JSON, for replay without a desktop
 * (CUA_BACKEND=recorded:FILE) and for tests.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

enum { OPT_OUTPUT };

static int
option(struct cli *cli, int id, const char *value)
{
	*(const char **)cli->data = value;
	(void)id;
	return 0;
}

static int
run(struct cli *cli)
{
	const char *output = *(const char **)cli->data;
	cua_session *s = NULL;
	char *json = NULL;
	int status;
	cua_result r;
	FILE *f;

	if ((status = cli_plain_session("record", &s)))
		return status;
	r = cua_session_record(s, cli->argv[0], 0, &json);
	if (r != CUA_OK) {
		status = cli_fail_app("record", r, cli->argv[0]);
	} else if (output) {
		f = fopen(output, "we");
		if (!f || fprintf(f, "%s\n", json) < 0 || fclose(f) != 0) {
			fprintf(stderr, "cua: cannot write %s: %s\n", output,
				strerror(errno));
			status = 1;
		}
	} else {
		printf("%s\n", json);
	}
	cua_free(json);
	cua_session_unref(s);
	return status;
}

static const struct cli_option options[] = {
	{ "output", 'o', "FILE", OPT_OUTPUT },
	{ NULL },
};

#define HELP                                                                   \
	"The recording is JSON (libcua.recording/1; --json changes\n"          \
	"nothing); replay it with CUA_BACKEND=recorded:FILE.\n"

const struct cli_command cmd_record = {
	.name = "record",
	.usage = "cua record APP [-o FILE]",
	.help = HELP,
	.flags = CLI_JSON,
	.options = options,
	.operands = cli_app_operand,
	.max_operands = 1,
	.option = option,
	.run = run,
	.data_size = sizeof(const char *),
};
