/*
 * The cua CLI's option parser: one for every command (rules in cli.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_HELP = -1, OPT_JSON = -2 };

static const struct cli_option help_option = { "help", 'h', NULL, OPT_HELP };
static const struct cli_option json_option = { "json", 'j', NULL, OPT_JSON };

const char *const cli_app_operand[] = { "app", NULL };

static void
print_usage(FILE *f, const struct cli_command *cmd)
{
	const char *line = cmd->usage, *nl;

	fputs("Usage: ", f);
	while ((nl = strchr(line, '\n'))) {
		fprintf(f, "%.*s\n       ", (int)(nl - line), line);
		line = nl + 1;
	}
	fprintf(f, "%s\n", line);
}

void
cli_help(const struct cli_command *cmd)
{
	print_usage(stdout, cmd);
	if (cmd->help)
		fputs(cmd->help, stdout);
}

int
cli_usage_error(const struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_usage(stderr, cli->cmd);
	return 2;
}

int
cli_missing(const struct cli *cli, const char *name)
{
	return cli_usage_error(cli, "Missing required argument: %s", name);
}

static const struct cli_option *
find_long(const struct cli_command *cmd, const char *name, size_t len)
{
	const struct cli_option *o;

	if (len == 4 && !strncmp(name, "help", 4))
		return &help_option;
	if (len == 4 && !strncmp(name, "json", 4))
		return &json_option;
	for (o = cmd->options; o && o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct cli_option *
find_letter(const struct cli_command *cmd, char letter)
{
	const struct cli_option *o;

	if (letter == 'h')
		return &help_option;
	if (letter == 'j')
		return &json_option;
	for (o = cmd->options; o && o->name; o++)
		if (o->letter && o->letter == letter)
			return o;
	return NULL;
}

/* `-` and a letter, or `--` and more: an option. `-5`, `-`: operands. */
static int
is_option(const char *arg)
{
	if (arg[0] != '-')
		return 0;
	if (arg[1] == '-')
		return 1;
	return (arg[1] >= 'a' && arg[1] <= 'z') ||
	       (arg[1] >= 'A' && arg[1] <= 'Z');
}

/*
 * One option at argv[*i]: sets *opt and *value (advancing *i past a
 * separate value). 0, or 2 after a usage error.
 */
static int
parse_option(struct cli *cli, int argc, char **argv, int *i,
	     const struct cli_option **opt, const char **value)
{
	const struct cli_command *cmd = cli->cmd;
	const char *arg = argv[*i], *eq;
	const struct cli_option *o;
	size_t len;

	*value = NULL;
	if (arg[1] == '-') {
		eq = strchr(arg + 2, '=');
		len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
		o = find_long(cmd, arg + 2, len);
		if (!o)
			return cli_usage_error(cli,
					       "cua %s: unknown option '%.*s'",
					       cmd->name, (int)len + 2, arg);
		if (eq)
			*value = eq + 1;
	} else {
		o = find_letter(cmd, arg[1]);
		if (!o || (arg[2] && !o->arg))
			return cli_usage_error(
				cli,
				"cua %s: unknown option '%s' (put -- before an argument that starts with '-')",
				cmd->name, arg);
		if (arg[2])
			*value = arg + 2;
	}
	if (o == &json_option && !(cmd->flags & CLI_JSON))
		return cli_usage_error(
			cli,
			"cua %s: --json is not available: this command has no JSON output",
			cmd->name);
	if (!o->arg && *value)
		return cli_usage_error(cli,
				       "cua %s: option '--%s' takes no value",
				       cmd->name, o->name);
	if (o->arg && !*value) {
		if (*i + 1 >= argc)
			return cli_usage_error(
				cli, "cua %s: option '%s' needs a value (%s)",
				cmd->name, arg, o->arg);
		*value = argv[++*i];
	}
	*opt = o;
	return 0;
}

/* `cua desktop`: the subcommand named by argv[1]. */
static int
run_subcommand(const struct cli_command *cmd, int argc, char **argv)
{
	struct cli cli = { .cmd = cmd };
	const struct cli_command *const *sub;
	size_t len = strlen(cmd->name);

	if (argc < 2)
		return cli_usage_error(&cli, "cua %s: no subcommand given",
				       cmd->name);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		cli_help(cmd);
		return 0;
	}
	for (sub = cmd->subcommands; *sub; sub++)
		if (!strcmp((*sub)->name + len + 1, argv[1]))
			return cli_run(*sub, argc - 1, argv + 1);
	return cli_usage_error(&cli, "cua %s: unknown subcommand '%s'",
			       cmd->name, argv[1]);
}

int
cli_run(const struct cli_command *cmd, int argc, char **argv)
{
	struct cli cli = { .cmd = cmd };
	const struct cli_option *o = NULL;
	const char *value = NULL;
	char **operands;
	int i, k, n = 0, only_operands = 0, r = 0;

	if (cmd->subcommands)
		return run_subcommand(cmd, argc, argv);
	operands = calloc((size_t)argc + 1, sizeof(*operands));
	cli.data = cmd->data_size ? calloc(1, cmd->data_size) : NULL;
	if (!operands || (cmd->data_size && !cli.data)) {
		fprintf(stderr, "cua: out of memory\n");
		free(operands);
		free(cli.data);
		return 1;
	}
	if (cmd->defaults)
		memcpy(cli.data, cmd->defaults, cmd->data_size);
	for (i = 1; i < argc && r == 0; i++) {
		if (only_operands || !is_option(argv[i])) {
			operands[n++] = argv[i];
			if (cmd->flags & CLI_OPERANDS_END_OPTIONS)
				only_operands = 1;
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			only_operands = 1;
			continue;
		}
		r = parse_option(&cli, argc, argv, &i, &o, &value);
		if (r)
			break;
		if (o->id == OPT_HELP) {
			cli_help(cmd);
			free(operands);
			free(cli.data);
			return 0;
		}
		if (o->id == OPT_JSON)
			cli.json = 1;
		else if (cmd->option)
			r = cmd->option(&cli, o->id, value);
	}
	cli.argc = n;
	cli.argv = operands;
	for (k = 0; r == 0 && cmd->operands && cmd->operands[k]; k++)
		if (n <= k)
			r = cli_missing(&cli, cmd->operands[k]);
	if (r == 0 && cmd->max_operands >= 0 && n > cmd->max_operands)
		r = cli_usage_error(
			&cli, "cua %s: unexpected argument '%s'%s%s%s",
			cmd->name, operands[cmd->max_operands],
			cmd->too_many_hint ? " (" : "",
			cmd->too_many_hint ? cmd->too_many_hint : "",
			cmd->too_many_hint ? ")" : "");
	if (r == 0)
		r = cmd->run(&cli);
	free(operands);
	free(cli.data);
	return r;
}
