/*
 * `cua state APP`: the state text (or its JSON form, or a diff) of APP's
 * focused window, optionally with its screenshot and read statistics.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>

#include "cli.h"

enum { OPT_NO_LAUNCH, OPT_STATS, OPT_SCREENSHOT, OPT_DIFF };

struct options {
	uint32_t observe_flags;
	uint32_t render_flags;
	int stats;
	const char *shot_path;
};

static int
option(struct cli *cli, int id, const char *value)
{
	struct options *o = cli->data;

	switch (id) {
	case OPT_NO_LAUNCH:
		o->observe_flags |= CUA_OBSERVE_NO_LAUNCH;
		break;
	case OPT_STATS:
		o->stats = 1;
		break;
	case OPT_SCREENSHOT:
		o->shot_path = value;
		break;
	case OPT_DIFF:
		o->render_flags |= CUA_RENDER_DIFF;
		break;
	}
	return 0;
}

static void
print_stats(cua_tree *t)
{
	double nodes = (double)cua_tree_get_stat(t, CUA_STAT_RAW_NODES);

	fprintf(stderr, "settle %.1f ms%s, capture %.1f ms%s, encode %.1f ms, ",
		cua_tree_get_stat(t, CUA_STAT_SETTLE_US) / 1000.0,
		cua_tree_get_stat(t, CUA_STAT_SETTLE_CAPPED) ? " (cap)" : "",
		cua_tree_get_stat(t, CUA_STAT_CAPTURE_US) / 1000.0,
		cua_tree_get_stat(t, CUA_STAT_SCREENSHOT_REUSED) ? " (reused)" :
								   "",
		cua_tree_get_stat(t, CUA_STAT_ENCODE_US) / 1000.0);
	fprintf(stderr,
		"raw nodes %lld, elements %lld, calls %lld (%.2f/node), "
		"errors %lld, walk %.1f ms, build %.1f ms\n",
		(long long)cua_tree_get_stat(t, CUA_STAT_RAW_NODES),
		(long long)cua_tree_get_stat(t, CUA_STAT_ELEMENTS),
		(long long)cua_tree_get_stat(t, CUA_STAT_CALLS),
		nodes ? (double)cua_tree_get_stat(t, CUA_STAT_CALLS) / nodes :
			0.0,
		(long long)cua_tree_get_stat(t, CUA_STAT_CALL_ERRORS),
		cua_tree_get_stat(t, CUA_STAT_WALK_US) / 1000.0,
		cua_tree_get_stat(t, CUA_STAT_BUILD_US) / 1000.0);
}

static int
run(struct cli *cli)
{
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	struct options *o = cli->data;
	cua_session *s = NULL;
	cua_tree *t = NULL;
	char *text = NULL;
	int status;
	cua_result r;

	/* the text alone: the screenshot's geometry for a later `click
	 * --at` (kept in the state file), not its pixels */
	if (!o->shot_path && !cli->json)
		o->observe_flags |= CUA_OBSERVE_SCREENSHOT_GEOMETRY;
	status = cli_observe(cli, "state", o->observe_flags, &s, &sf, &t);
	if (status)
		return status;
	r = cli->json ? cua_tree_to_json(t, o->render_flags, &text) :
			cua_tree_render(t, o->render_flags, &text);
	if (r != CUA_OK) {
		status = cli_fail_app("state", r, cli->argv[0]);
	} else {
		printf("%s\n", text);
		cua_free(text);
	}
	if (o->shot_path && status == 0) {
		if (cua_tree_get_screenshot_error(t)) {
			fprintf(stderr, "Screenshot unavailable: %s.\n",
				cua_tree_get_screenshot_error(t));
			status = 1;
		} else {
			status = cli_save_screenshot(t, o->shot_path, 0);
		}
	}
	if (o->stats)
		print_stats(t);
	cua_tree_unref(t);
	return cli_close_session(s, &sf, status);
}

static const struct cli_option options[] = {
	{ "no-launch", 'n', NULL, OPT_NO_LAUNCH },
	{ "stats", 's', NULL, OPT_STATS },
	{ "screenshot", 'S', "FILE", OPT_SCREENSHOT },
	{ "diff", 'd', NULL, OPT_DIFF },
	{ NULL },
};

#define USAGE                                                                  \
	"cua state APP [--json] [--no-launch] [--stats] "                      \
	"[--screenshot FILE] [--diff]"

#define HELP                                                                     \
	"--diff prints what changed since the previous observation of APP\n"     \
	"(by any cua command), or the full tree when there is none to compare\n" \
	"with (first look, another window, older than 5 minutes).\n"

const struct cli_command cmd_state = {
	.name = "state",
	.usage = USAGE,
	.help = HELP,
	.flags = CLI_JSON,
	.options = options,
	.operands = cli_app_operand,
	.max_operands = 1,
	.option = option,
	.run = run,
	.data_size = sizeof(struct options),
};
