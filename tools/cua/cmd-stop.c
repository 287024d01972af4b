/*
 * `cua stop`: the person's stop (docs/safety.md §6). Reaches the running
 * cua-mcp servers of this desktop (or one, by --pid), which then refuse
 * every tool with the explicit-stop sentence until the host starts a new
 * turn.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "servers.h"

enum { OPT_PID = 1, OPT_ALL };

static const struct cli_option options[] = {
	{ "pid", 0, "PID", OPT_PID },
	{ "all", 0, NULL, OPT_ALL },
	{ NULL, 0, NULL, 0 },
};

struct stop_opts {
	long pid;
	int all;
};

static struct stop_opts opts;

static int
option(struct cli *cli, int id, const char *value)
{
	char *end;

	if (id == OPT_ALL) {
		opts.all = 1;
		return 0;
	}
	opts.pid = strtol(value, &end, 10);
	if (opts.pid <= 0 || *end)
		return cli_usage_error(
			cli, "--pid needs a process id, such as --pid 4242");
	return 0;
}

static int
run(struct cli *cli)
{
	const char *display = getenv("DISPLAY");
	struct server *v;
	size_t n, hit = 0;

	(void)cli;
	if (servers_list(&v, &n) < 0) {
		fprintf(stderr,
			"cua stop: cannot read the list of running servers\n");
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (opts.pid ? v[i].pid != opts.pid :
			       !opts.all && strcmp(v[i].display,
						   display ? display : "") != 0)
			continue;
		if (kill(v[i].pid, SIGUSR1) < 0) {
			perror("cua stop: kill");
			continue;
		}
		printf("stopped cua-mcp (pid %ld, display %s)\n",
		       (long)v[i].pid,
		       v[i].display[0] ? v[i].display : "unknown");
		hit++;
	}
	free(v);
	if (!hit) {
		if (opts.pid)
			fprintf(stderr,
				"cua stop: no cua-mcp server of yours has pid %ld\n",
				opts.pid);
		else
			fprintf(stderr,
				"cua stop: no cua-mcp server runs on display %s "
				"(--all stops those of every display)\n",
				display ? display : "(DISPLAY unset)");
		return 1;
	}
	return 0;
}

#define HELP                                                                   \
	"Stops Computer Use: every running cua-mcp server of this desktop\n"   \
	"(DISPLAY), of every desktop with --all, or the one with --pid,\n"     \
	"refuses every tool with the explicit-stop sentence until its host\n"  \
	"starts a new turn (or for five minutes when the host reports no\n"    \
	"turns); an action that is running stops between two of its input\n"   \
	"events. The same as pressing Ctrl+Alt+Shift+Escape during a turn.\n"  \
	"\n"                                                                   \
	"Exit status: 0 when a server was stopped, 1 when none was found.\n"

const struct cli_command cmd_stop = {
	.name = "stop",
	.usage = "cua stop [--pid PID | --all]",
	.help = HELP,
	.options = options,
	.option = option,
	.max_operands = 0,
	.run = run,
};
