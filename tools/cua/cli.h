/*
 * The cua CLI's shared parts: one option parser for every command (the
 * same --help and --json everywhere, the same errors), and what the
 * commands share once parsed (the session and its state file, libcua
 * errors, element numbers, action receipts).
 *
 * Argument rules (cua.1, "ARGUMENTS"): options may come before, between
 * or after the operands; `--name VALUE`, `--name=VALUE`, `-x VALUE` and
 * `-xVALUE`; `--` ends the options. An argument that starts with `-` and
 * a letter is an option; `-` followed by anything else (`-5`, `-0.5`) is
 * an operand. `--json`/`-j` is the JSON form of the output, where a
 * command has one. `--help`/`-h` prints the command's usage on stdout, exit 0;
 * a usage error prints a sentence and the usage on stderr, exit 2.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TOOLS_CLI_H
#define CUA_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include <cua/cua.h>

#include "state.h"

struct cli;

struct cli_option {
	const char *name; /* "count" for --count */
	char letter;      /* 'c' for -c, or 0 */
	const char *arg;  /* the value's name in messages ("N"); NULL: a flag */
	int id;
};

/* The operands of the commands on one app and nothing else (state,
 * screenshot, click, watch, record): { "app", NULL }. */
extern const char *const cli_app_operand[];

/* The command accepts --json (cli->json). */
#define CLI_JSON (1u << 0)
/* The first operand ends the options (a command line to run follows). */
#define CLI_OPERANDS_END_OPTIONS (1u << 1)

struct cli_command {
	const char *name;  /* "click", "desktop start" */
	const char *usage; /* after "Usage: " (more lines after "\n") */
	const char *help;  /* more text for --help, or NULL */
	unsigned int flags;
	const struct cli_option *options; /* ends with { NULL }; or NULL */
	/* operands that must be there, in order ("app", "element_index");
	 * NULL-terminated, or NULL */
	const char *const *operands;
	int max_operands; /* -1: any number */
	/* said after an unexpected argument ("quote TEXT that has spaces") */
	const char *too_many_hint;
	/* one option as parsed: 0, or 2 after cli_usage_error() */
	int (*option)(struct cli *cli, int id, const char *value);
	int (*run)(struct cli *cli);
	/* the command's own options (cli->data): their size and defaults */
	size_t data_size;
	const void *defaults;
	/* a command of subcommands ("desktop start"): NULL-terminated */
	const struct cli_command *const *subcommands;
};

struct cli {
	const struct cli_command *cmd;
	int json; /* --json */
	int argc; /* the operands */
	char **argv;
	void *data; /* the command's own options */
};

/*
 * Parses argv (argv[0] is the command's name) for cmd, or for the
 * subcommand argv[1] names, and runs it. Returns the exit status:
 * cmd->run's, 0 after --help, 2 after a usage error.
 */
int
cli_run(const struct cli_command *cmd, int argc, char **argv);

/* Prints the usage (and the help) of cmd on stdout. */
void
cli_help(const struct cli_command *cmd);

/* Prints the sentence and the usage on stderr; returns 2. */
int
cli_usage_error(const struct cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "Missing required argument: NAME" and the usage; returns 2. */
int
cli_missing(const struct cli *cli, const char *name);

/* ---- once parsed ------------------------------------------------------ */

/* Prints libcua's message for a failed call; returns the exit status (2
 * for an invalid argument, else 1). */
int
cli_fail(const char *what, cua_result r);

/* cli_fail() for a command on APP: the message's `cua state APP` and the
 * like name the app as typed (quoted for the shell where it needs it). */
int
cli_fail_app(const char *what, cua_result r, const char *app);

/* Prints msg and a newline to f, with APP in its `cua ...` commands
 * replaced by app as a shell word (kept when app is NULL or cannot be
 * quoted in single quotes). */
void
cli_print_message(FILE *f, const char *msg, const char *app);

/* A cli_plain_session() with the state file loaded (locked); 0, or the
 * exit status after printing why not. */
int
cli_open_session(cua_session **s, struct cua_state_file *sf);

/* Saves the state, unlocks, releases the session; returns status, or 1
 * when an observation's state cannot be saved. */
int
cli_close_session(cua_session *s, struct cua_state_file *sf, int status);

/* A session without the state file (apps, record, watch), its messages in
 * the command line's words ("run `cua state APP`"); every session of the
 * command is made here. 0, or the exit status after printing why not. */
int
cli_plain_session(const char *what, cua_session **s);

/* Opens the session and observes cli->argv[0]; 0, or the exit status
 * after printing why not (the session is then closed). */
int
cli_observe(struct cli *cli, const char *what, uint32_t flags, cua_session **s,
	    struct cua_state_file *sf, cua_tree **t);

/* An action: opens the session, calls act (with ctx), prints the receipt
 * (or the outcome, or the error) and saves the state; returns the exit
 * status. */
int
cli_act(struct cli *cli, const char *what,
	cua_result (*act)(struct cli *cli, cua_session *s, const void *ctx,
			  char **outcome),
	const void *ctx);

/* The actions on APP and one text (type, key): cli_act() calling
 * fn(session, APP, TEXT); operand names TEXT when it is empty. */
typedef cua_result (*cli_text_fn)(cua_session *s, const char *app,
				  const char *text, char **outcome);
int
cli_act_text(struct cli *cli, const char *what, const char *operand,
	     cli_text_fn fn);

/* The actions on APP, an element number and a text (set, action):
 * fn(session, APP, INDEX, TEXT); tool names the action in messages;
 * operand names TEXT when it must not be empty (NULL: it may). */
typedef cua_result (*cli_element_text_fn)(cua_session *s, const char *app,
					  uint32_t index, const char *text,
					  char **outcome);
int
cli_act_element_text(struct cli *cli, const char *what, const char *tool,
		     const char *operand, cli_element_text_fn fn);

/* An element number (decimal digits, white space around ignored); -1
 * after a usage error naming tool (the MCP tool's name). */
int
cli_parse_index(const struct cli *cli, const char *tool, const char *s,
		uint32_t *out);

/* A finite number; -1 after a usage error naming tool and name. */
int
cli_parse_number(const struct cli *cli, const char *tool, const char *name,
		 const char *s, double *out);

/* Writes data to path; 0, or 1 after printing why not. */
int
cli_write_file(const char *path, const void *data, size_t size);

/* Writes the observation's screenshot (JPEG, or PNG for a .png path),
 * optionally with marks; 0, or the exit status after printing why not. */
int
cli_save_screenshot(cua_tree *t, const char *path, int marks);

/* The commands (cmd-*.c). */
extern const struct cli_command cmd_apps, cmd_state, cmd_screenshot, cmd_watch,
	cmd_record, cmd_click, cmd_set, cmd_type, cmd_key, cmd_scroll, cmd_drag,
	cmd_action, cmd_select, cmd_approve, cmd_desktop, cmd_doctor,
	cmd_version, cmd_stop;

#endif /* CUA_TOOLS_CLI_H */
