/*
 * `cua doctor`: what works on this desktop and, where something does
 * not, why (the session type, the compositor or window manager, the
 * display driver and each capability).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "doctor.h"

static int
run(struct cli *cli)
{
	cua_session *s = NULL;
	json_t *facts;
	char *text;
	int works;

	/* a session that cannot open is a finding: its message is on
	 * stderr and in the report */
	if (cli_plain_session("doctor", &s))
		s = NULL;
	facts = doctor_facts(s, s ? NULL : cua_error_message());
	cua_session_unref(s);
	if (!facts) {
		fprintf(stderr, "cua doctor: out of memory\n");
		return 1;
	}
	works = doctor_tree_works(facts);
	if (cli->json) {
		text = json_dumps(facts, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (text)
			printf("%s\n", text);
		free(text);
	} else {
		doctor_print(stdout, facts);
	}
	json_decref(facts);
	return works ? 0 : 1;
}

#define HELP                                                                    \
	"Says what works on this desktop: the session type (x11, wayland),\n"   \
	"the window manager or compositor, the display driver libcua chose\n"   \
	"and why, and for each capability (the accessibility tree, element\n"   \
	"actions, screenshots, pointer, keyboard, the window list and window\n" \
	"geometry) whether it works and, if not, why. --json prints the\n"      \
	"libcua.display/1 object with an \"accessibility\" member (tree,\n"     \
	"element_actions, apps).\n"                                             \
	"\n"                                                                    \
	"Exit status: 0 when the accessibility tree works (the accessibility\n" \
	"bus answers), 1 when it does not, 2 for a usage error.\n"

const struct cli_command cmd_doctor = {
	.name = "doctor",
	.usage = "cua doctor [--json]",
	.help = HELP,
	.flags = CLI_JSON,
	.max_operands = 0,
	.run = run,
};
