/*
 * cua — the libcua command line: finds the command and runs it. Each
 * command is a file of its own (cmd-*.c) and parses its arguments with the
 * shared parser (cli.c).
 *
 * Each invocation that reads or acts on an app loads the session state
 * (element ids, locators, last observations) from a private runtime
 * directory, runs one command and saves the state again, so `cua state`
 * in one process and an action by element number in the next agree on the
 * numbers.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct cli_command *const commands[] = {
	&cmd_apps,   &cmd_state,   &cmd_screenshot, &cmd_watch,   &cmd_record,
	&cmd_click,  &cmd_set,     &cmd_type,       &cmd_key,     &cmd_scroll,
	&cmd_drag,   &cmd_action,  &cmd_select,     &cmd_approve, &cmd_desktop,
	&cmd_doctor, &cmd_version, &cmd_stop,
};

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: cua COMMAND [ARGS]\n"
		"\n"
		"Read desktop applications the way an AI agent does.\n"
		"\n"
		"Commands:\n"
		"  apps [--json]            list running and recently used apps\n"
		"  state APP [--json] [--screenshot FILE]\n"
		"                           print APP's state text (its focused\n"
		"                           window's accessibility tree); write\n"
		"                           the observation's screenshot to FILE\n"
		"  screenshot APP -o FILE [--marks]\n"
		"                           APP's window as JPEG (PNG for a .png\n"
		"                           FILE); --marks draws element ids\n"
		"  state APP --diff         what changed since the previous\n"
		"                           observation of APP (~ changed,\n"
		"                           + added, removed ids)\n"
		"  watch APP                print what changes in APP each time\n"
		"                           it changes, until interrupted\n"
		"  record APP [-o FILE]     dump APP's raw tree as JSON (replay it\n"
		"                           with CUA_BACKEND=recorded:FILE)\n"
		"  click APP INDEX [--count N] [--button left|right|middle]\n"
		"  click APP --at X,Y [--count N] [--button B]\n"
		"                           click element INDEX of the latest\n"
		"                           state of APP, or a screenshot pixel\n"
		"  set APP INDEX VALUE      set a text field's text or a slider's\n"
		"                           number\n"
		"  type APP TEXT            type TEXT into APP's focused element\n"
		"  key APP KEY              press keys in xdotool syntax\n"
		"                           (Return, ctrl+a, ctrl+shift+t)\n"
		"  scroll APP INDEX up|down|left|right [PAGES]\n"
		"  drag APP X1 Y1 X2 Y2     drag between screenshot pixels\n"
		"  action APP INDEX NAME    a secondary action (Show Menu, Expand)\n"
		"  select APP INDEX TEXT [--prefix P] [--suffix S]\n"
		"         [--mode text|cursor_before|cursor_after]\n"
		"                           select text, or place the caret\n"
		"                           (actions print a receipt and the\n"
		"                           route; --json prints the outcome)\n"
		"  approve APP-ID...        let cua-mcp use these apps without\n"
		"                           asking (kept in\n"
		"                           $XDG_STATE_HOME/cua/approvals.json)\n"
		"  desktop start|stop|run   a headless desktop (Xvfb, D-Bus,\n"
		"                           AT-SPI, openbox); see cua desktop --help\n"
		"  doctor [APP] [--json]    what works on this desktop (tree,\n"
		"                           element actions, screenshots, input)\n"
		"                           and, where something does not, why;\n"
		"                           with APP, why its elements cannot be\n"
		"                           read and the likely fix\n"
		"  version                  print the library version\n"
		"\n"
		"Every command takes --help; `cua help COMMAND` is the same.\n"
		"APP is an app name, app id, desktop-file id, executable name or\n"
		"pid:N. Element numbers stay valid between invocations: the state\n"
		"is kept in $XDG_RUNTIME_DIR/cua/ (mode 0700).\n"
		"\n"
		"Environment: CUA_BACKEND (atspi or recorded:FILE), CUA_DISPLAY,\n"
		"CUA_LOG_LEVEL, DISPLAY, WAYLAND_DISPLAY, SWAYSOCK,\n"
		"DBUS_SESSION_BUS_ADDRESS, AT_SPI_BUS_ADDRESS.\n");
}

static const struct cli_command *
find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

int
main(int argc, char **argv)
{
	const struct cli_command *cmd;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version"))
		return cli_run(&cmd_version, 1, argv + 1);
	if (!strcmp(argv[1], "help")) {
		/* `cua help CMD`: what CMD --help prints */
		cmd = find(argv[2]);
		if (cmd && argc == 3) {
			cli_help(cmd);
			return 0;
		}
		if (cmd)
			fprintf(stderr, "cua help: give one command\n\n");
		else
			fprintf(stderr, "cua help: unknown command '%s'\n\n",
				argv[2]);
		usage(stderr);
		return 2;
	}
	cmd = find(argv[1]);
	if (cmd)
		return cli_run(cmd, argc - 1, argv + 1);
	fprintf(stderr, "cua: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
