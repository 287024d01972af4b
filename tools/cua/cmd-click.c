/*
 * `cua click APP INDEX` and `cua click APP --at X,Y`: a click on an
 * element of the latest state, or at a pixel of the latest screenshot.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "cli.h"

enum { OPT_COUNT, OPT_BUTTON, OPT_AT };

struct options {
	uint32_t button;
	uint32_t count;
	char *at;
	uint32_t index;
	double x, y;
};

static int
option(struct cli *cli, int id, const char *value)
{
	struct options *o = cli->data;
	double v;

	switch (id) {
	case OPT_COUNT:
		if (cli_parse_number(cli, "click", "click_count", value, &v) <
		    0)
			return 2;
		if (v < 1 || v > 100 || v != (uint32_t)v)
			return cli_usage_error(
				cli,
				"Invalid arguments for click: "
				"'click_count' must be between 1 and 100.");
		o->count = (uint32_t)v;
		break;
	case OPT_BUTTON:
		if (!strcasecmp(value, "left") || !strcasecmp(value, "l"))
			o->button = CUA_BUTTON_LEFT;
		else if (!strcasecmp(value, "right") || !strcasecmp(value, "r"))
			o->button = CUA_BUTTON_RIGHT;
		else if (!strcasecmp(value, "middle") ||
			 !strcasecmp(value, "m"))
			o->button = CUA_BUTTON_MIDDLE;
		else
			return cli_usage_error(
				cli,
				"Invalid mouse button: %s Use left, "
				"right or middle.",
				value);
		break;
	case OPT_AT:
		o->at = (char *)value; /* an argv string */
		break;
	}
	return 0;
}

static cua_result
act(struct cli *cli, cua_session *s, const void *ctx, char **outcome)
{
	struct options *o = cli->data;

	if (o->at)
		return cua_session_click_at(s, cli->argv[0], o->x, o->y,
					    o->button, o->count, outcome);
	return cua_session_click(s, cli->argv[0], o->index, o->button, o->count,
				 outcome);
}

static int
run(struct cli *cli)
{
	struct options *o = cli->data;
	char *comma;

	if (o->at) {
		if (cli->argc != 1)
			return cli_usage_error(cli, "cua click: with --at, "
						    "give no element number");
		comma = strchr(o->at, ',');
		if (!comma)
			return cli_usage_error(cli, "Invalid arguments for "
						    "click: x and y must be "
						    "given together.");
		*comma = '\0';
		if (cli_parse_number(cli, "click", "x", o->at, &o->x) < 0 ||
		    cli_parse_number(cli, "click", "y", comma + 1, &o->y) < 0)
			return 2;
	} else {
		if (cli->argc < 2)
			return cli_usage_error(cli,
					       "Invalid arguments for "
					       "click: pass element_index, "
					       "or x and y from the "
					       "screenshot.");
		if (cli_parse_index(cli, "click", cli->argv[1], &o->index) < 0)
			return 2;
	}
	return cli_act(cli, "click", act, NULL);
}

static const struct cli_option options[] = {
	{ "count", 'c', "N", OPT_COUNT },
	{ "button", 'b', "left|right|middle", OPT_BUTTON },
	{ "at", 'a', "X,Y", OPT_AT },
	{ NULL },
};

static const struct options defaults = { CUA_BUTTON_LEFT, 1, NULL, 0, 0, 0 };

#define USAGE                                                                     \
	"cua click APP INDEX [--count N] [--button left|right|middle] [--json]\n" \
	"cua click APP --at X,Y [--count N] [--button B] [--json]"

#define HELP                                                                   \
	"Clicks element INDEX of the latest state of APP, or a pixel of\n"     \
	"its latest screenshot.\n"

const struct cli_command cmd_click = {
	.name = "click",
	.usage = USAGE,
	.help = HELP,
	.flags = CLI_JSON,
	.options = options,
	.operands = cli_app_operand,
	.max_operands = 2,
	.option = option,
	.run = run,
	.data_size = sizeof(struct options),
	.defaults = &defaults,
};
