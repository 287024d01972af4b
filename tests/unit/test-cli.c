/*
 * The cua CLI's argument handling: the shared option parser (tools/cua/
 * cli.c) on commands made up here, then every real command through the
 * built `cua` (its path in CUA_EXE): --help on stdout with exit 0, an
 * unknown option, a missing argument and --json where there is no JSON
 * output on stderr with the usage and exit 2. Nothing here needs a
 * desktop: these all end before a session is opened.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

/* ---- the parser ------------------------------------------------------ */

struct seen {
	int runs;
	int json;
	int count;
	const char *name;
	int flag;
	int argc;
	char *argv[8];
};

enum { OPT_NAME, OPT_FLAG, OPT_COUNT };

static struct seen last; /* what the last run saw */

static int
option(struct cli *cli, int id, const char *value)
{
	struct seen *s = cli->data;

	if (id == OPT_NAME)
		s->name = value;
	else if (id == OPT_FLAG)
		s->flag = 1;
	else if (!strcmp(value, "bad"))
		return cli_usage_error(cli, "a bad count");
	else
		s->count = atoi(value);
	return 0;
}

static int
run(struct cli *cli)
{
	struct seen *s = cli->data;
	int i;

	s->runs++;
	s->json = cli->json;
	s->argc = cli->argc;
	for (i = 0; i < cli->argc && i < 8; i++)
		s->argv[i] = cli->argv[i];
	last = *s;
	return 0;
}

static const struct cli_option options[] = {
	{ "name", 'n', "NAME", OPT_NAME },
	{ "flag", 'f', NULL, OPT_FLAG },
	{ "count", 'c', "N", OPT_COUNT },
	{ NULL },
};

static const char *const operands[] = { "app", "thing", NULL };

static const struct cli_command plain = {
	.name = "plain",
	.usage = "cua plain APP THING [EXTRA] [--name NAME] [--flag]",
	.help = "more words\n",
	.flags = CLI_JSON,
	.options = options,
	.operands = operands,
	.max_operands = 3,
	.too_many_hint = "quote it",
	.option = option,
	.run = run,
	.data_size = sizeof(struct seen),
};

static const struct cli_command nojson = {
	.name = "nojson",
	.usage = "cua nojson",
	.max_operands = -1,
	.option = option,
	.run = run,
	.data_size = sizeof(struct seen),
};

static const struct cli_command runner = {
	.name = "runner",
	.usage = "cua runner [--flag] CMD...",
	.flags = CLI_OPERANDS_END_OPTIONS,
	.options = options,
	.max_operands = -1,
	.option = option,
	.run = run,
	.data_size = sizeof(struct seen),
};

/* Runs the parser with stdout and stderr captured. */
static int
parse(const struct cli_command *cmd, struct seen *s, char *out, char *err, ...)
{
	char *argv[16];
	FILE *fo = tmpfile(), *fe = tmpfile();
	int argc = 0, saved_out, saved_err, r;
	size_t n;
	va_list ap;

	memset(&last, 0, sizeof(last));
	argv[argc++] = (char *)cmd->name;
	va_start(ap, err);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	r = cli_run(cmd, argc, argv);
	*s = last;
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	rewind(fo);
	rewind(fe);
	n = fread(out, 1, 4095, fo);
	out[n] = '\0';
	n = fread(err, 1, 4095, fe);
	err[n] = '\0';
	fclose(fo);
	fclose(fe);
	return r;
}

static void
test_options_anywhere(void **state)
{
	char out[4096], err[4096];
	struct seen s;

	(void)state;
	assert_int_equal(parse(&plain, &s, out, err, "--flag", "app", "-j",
			       "thing", "--name=x", "-c", "3", NULL),
			 0);
	assert_int_equal(s.runs, 1);
	assert_true(s.flag);
	assert_true(s.json);
	assert_string_equal(s.name, "x");
	assert_int_equal(s.count, 3);
	assert_int_equal(s.argc, 2);
	assert_string_equal(s.argv[0], "app");
	assert_string_equal(s.argv[1], "thing");
	assert_string_equal(out, "");
	assert_string_equal(err, "");
	/* -xVALUE, --name VALUE, --json */
	assert_int_equal(parse(&plain, &s, out, err, "app", "thing", "-nfoo",
			       "--count", "4", "--json", NULL),
			 0);
	assert_string_equal(s.name, "foo");
	assert_int_equal(s.count, 4);
	assert_true(s.json);
}

static void
test_operands(void **state)
{
	char out[4096], err[4096];
	struct seen s;

	(void)state;
	/* negative numbers and a lone '-' are operands */
	assert_int_equal(parse(&plain, &s, out, err, "app", "-5", "-", NULL),
			 0);
	assert_int_equal(s.argc, 3);
	assert_string_equal(s.argv[1], "-5");
	assert_string_equal(s.argv[2], "-");
	/* -- ends the options */
	assert_int_equal(
		parse(&plain, &s, out, err, "app", "--", "--flag", "-x", NULL),
		0);
	assert_false(s.flag);
	assert_int_equal(s.argc, 3);
	assert_string_equal(s.argv[1], "--flag");
	assert_string_equal(s.argv[2], "-x");
	/* missing, then too many */
	assert_int_equal(parse(&plain, &s, out, err, "app", NULL), 2);
	assert_int_equal(s.runs, 0);
	assert_string_equal(err, "Missing required argument: thing\n"
				 "Usage: cua plain APP THING [EXTRA] "
				 "[--name NAME] [--flag]\n");
	assert_string_equal(out, "");
	assert_int_equal(parse(&plain, &s, out, err, "a", "b", "c", "d", NULL),
			 2);
	assert_non_null(strstr(err, "cua plain: unexpected argument 'd' "
				    "(quote it)\nUsage: cua plain"));
	/* the first operand ends the options where a command line follows */
	assert_int_equal(parse(&runner, &s, out, err, "--flag", "sh", "-c",
			       "exit 3", NULL),
			 0);
	assert_true(s.flag);
	assert_int_equal(s.argc, 3);
	assert_string_equal(s.argv[1], "-c");
}

static void
test_errors(void **state)
{
	char out[4096], err[4096];
	struct seen s;

	(void)state;
	assert_int_equal(parse(&plain, &s, out, err, "a", "b", "--bogus", NULL),
			 2);
	assert_int_equal(s.runs, 0);
	assert_string_equal(out, "");
	assert_string_equal(err, "cua plain: unknown option '--bogus'\n"
				 "Usage: cua plain APP THING [EXTRA] "
				 "[--name NAME] [--flag]\n");
	assert_int_equal(
		parse(&plain, &s, out, err, "a", "b", "--bogus=1", NULL), 2);
	assert_non_null(strstr(err, "unknown option '--bogus'\n"));
	/* text that looks like an option says how to pass it */
	assert_int_equal(parse(&plain, &s, out, err, "a", "-hello", NULL), 2);
	assert_non_null(strstr(err, "cua plain: unknown option '-hello' (put "
				    "-- before an argument that starts with "
				    "'-')\n"));
	assert_int_equal(parse(&plain, &s, out, err, "a", "b", "--name", NULL),
			 2);
	assert_non_null(strstr(err, "option '--name' needs a value (NAME)"));
	assert_int_equal(
		parse(&plain, &s, out, err, "a", "b", "--flag=1", NULL), 2);
	assert_non_null(strstr(err, "option '--flag' takes no value"));
	assert_int_equal(
		parse(&plain, &s, out, err, "a", "b", "--json=yes", NULL), 2);
	/* an option's own check */
	assert_int_equal(
		parse(&plain, &s, out, err, "a", "b", "-c", "bad", NULL), 2);
	assert_string_equal(err, "a bad count\nUsage: cua plain APP THING "
				 "[EXTRA] [--name NAME] [--flag]\n");
	/* --json where there is no JSON output */
	assert_int_equal(parse(&nojson, &s, out, err, "--json", NULL), 2);
	assert_non_null(strstr(err, "cua nojson: --json is not available: "
				    "this command has no JSON output\n"));
	assert_int_equal(parse(&nojson, &s, out, err, "-j", NULL), 2);
}

static void
test_help(void **state)
{
	char out[4096], err[4096];
	struct seen s;

	(void)state;
	/* anywhere, before any check of the operands */
	assert_int_equal(parse(&plain, &s, out, err, "--help", NULL), 0);
	assert_int_equal(s.runs, 0);
	assert_string_equal(out, "Usage: cua plain APP THING [EXTRA] "
				 "[--name NAME] [--flag]\nmore words\n");
	assert_string_equal(err, "");
	assert_int_equal(parse(&plain, &s, out, err, "a", "-h", NULL), 0);
	assert_non_null(strstr(out, "Usage: cua plain"));
	/* but after an error, the error */
	assert_int_equal(parse(&plain, &s, out, err, "--bogus", "--help", NULL),
			 2);
	assert_string_equal(out, "");
}

/* ---- the commands --------------------------------------------------- */

/* Runs cua with args; captures stdout and stderr; returns the status. */
static int
cua(char *out, char *err, ...)
{
	char *argv[16], *dir = getenv("CUA_TEST_TMP");
	int po[2], pe[2], argc = 0, status;
	ssize_t n;
	size_t got;
	pid_t pid;
	va_list ap;

	argv[argc++] = (char *)CUA_EXE;
	va_start(ap, err);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		/* no desktop, no state of the user's */
		unsetenv("DISPLAY");
		unsetenv("CUA_DESKTOP_DIR");
		if (dir)
			setenv("XDG_RUNTIME_DIR", dir, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	for (got = 0;
	     got < 8191 && (n = read(po[0], out + got, 8191 - got)) > 0;)
		got += (size_t)n;
	out[got] = '\0';
	for (got = 0;
	     got < 8191 && (n = read(pe[0], err + got, 8191 - got)) > 0;)
		got += (size_t)n;
	err[got] = '\0';
	close(po[0]);
	close(pe[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const struct {
	const char *args[3]; /* the command (one or two words) */
	const char *missing; /* the first required operand, or NULL */
	int json;            /* it has a --json form */
} commands[] = {
	{ { "apps" }, NULL, 1 },
	{ { "state" }, "app", 1 },
	{ { "screenshot" }, "app", 0 },
	{ { "watch" }, "app", 0 },
	{ { "record" }, "app", 1 },
	{ { "click" }, "app", 1 },
	{ { "set" }, "app", 1 },
	{ { "type" }, "app", 1 },
	{ { "key" }, "app", 1 },
	{ { "scroll" }, "app", 1 },
	{ { "drag" }, "app", 1 },
	{ { "action" }, "app", 1 },
	{ { "select" }, "app", 1 },
	{ { "approve" }, "app_id", 0 },
	{ { "version" }, NULL, 1 },
	{ { "doctor" }, NULL, 1 },
	{ { "desktop", "start" }, NULL, 1 },
	{ { "desktop", "stop" }, NULL, 0 },
	{ { "desktop", "run" }, "command", 0 },
};

static void
test_every_command(void **state)
{
	char out[8192], err[8192], usage[128], name[64];
	const char *a, *b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		a = commands[i].args[0];
		b = commands[i].args[1];
		snprintf(name, sizeof(name), "%s%s%s", a, b ? " " : "",
			 b ? b : "");
		snprintf(usage, sizeof(usage), "Usage: cua %s", name);
		print_message("# cua %s\n", name);

		/* --help: the usage on stdout, exit 0, also via `cua help` */
		assert_int_equal(b ? cua(out, err, a, b, "--help", NULL) :
				     cua(out, err, a, "--help", NULL),
				 0);
		assert_string_equal(err, "");
		assert_true(!strncmp(out, usage, strlen(usage)) ||
			    (b && strstr(out, name)));
		if (!b) {
			char again[8192];

			assert_int_equal(cua(again, err, "help", a, NULL), 0);
			assert_string_equal(again, out);
		}

		/* an unknown option: the sentence and the usage, exit 2 */
		assert_int_equal(b ? cua(out, err, a, b, "--bogus", NULL) :
				     cua(out, err, a, "--bogus", NULL),
				 2);
		assert_string_equal(out, "");
		assert_non_null(strstr(err, "unknown option '--bogus'\n"));
		assert_non_null(strstr(err, "\nUsage: cua "));

		/* a missing argument */
		if (commands[i].missing) {
			char want[128];

			snprintf(want, sizeof(want),
				 "Missing required argument: %s\nUsage: cua ",
				 commands[i].missing);
			assert_int_equal(b ? cua(out, err, a, b, NULL) :
					     cua(out, err, a, NULL),
					 2);
			assert_string_equal(out, "");
			assert_non_null(strstr(err, want));
		}

		/* --json only where there is a JSON form */
		if (!commands[i].json) {
			assert_int_equal(
				b ? cua(out, err, a, b, "--json", NULL) :
				    cua(out, err, a, "x", "--json", NULL),
				2);
			assert_non_null(strstr(err, "--json is not available"));
		}
	}
}

static void
test_command_specifics(void **state)
{
	char out[8192], err[8192];

	(void)state;
	assert_int_equal(cua(out, err, "version", "--json", NULL), 0);
	assert_non_null(strstr(out, "{\"cua\":\""));
	assert_int_equal(cua(out, err, "--version", NULL), 0);
	assert_true(!strncmp(out, "cua ", 4));
	/* doctor takes at most one operand (an app); its exit status is
	 * documented */
	assert_int_equal(cua(out, err, "doctor", "gedit", "x11", NULL), 2);
	assert_non_null(strstr(err, "cua doctor: unexpected argument 'x11'"));
	assert_int_equal(cua(out, err, "doctor", "--help", NULL), 0);
	assert_non_null(strstr(out, "Exit status: 0 when the accessibility "
				    "tree works"));
	assert_int_equal(cua(out, err, "nonsense", NULL), 2);
	assert_non_null(strstr(err, "cua: unknown command 'nonsense'"));
	assert_int_equal(cua(out, err, NULL), 2);
	assert_non_null(strstr(err, "Usage: cua COMMAND"));
	assert_int_equal(cua(out, err, "--help", NULL), 0);
	assert_non_null(strstr(out, "Usage: cua COMMAND"));
	assert_int_equal(cua(out, err, "desktop", NULL), 2);
	assert_non_null(strstr(err, "no subcommand given"));
	assert_int_equal(cua(out, err, "desktop", "pause", NULL), 2);
	assert_non_null(strstr(err, "unknown subcommand 'pause'"));
	/* checks of the operands, before any desktop is needed */
	assert_int_equal(cua(out, err, "click", "app", "x12", NULL), 2);
	assert_non_null(strstr(err, "'element_index' must be an element "
				    "number"));
	assert_int_equal(cua(out, err, "click", "app", NULL), 2);
	assert_non_null(strstr(err, "Invalid arguments for click: pass "
				    "element_index, or x and y from the "
				    "screenshot."));
	assert_int_equal(cua(out, err, "click", "app", "--at", "5", NULL), 2);
	assert_non_null(strstr(err, "x and y must be given together"));
	assert_int_equal(
		cua(out, err, "click", "app", "1", "--count", "0", NULL), 2);
	assert_non_null(strstr(err, "'click_count' must be between 1 and 100"));
	assert_int_equal(
		cua(out, err, "click", "app", "1", "--button", "up", NULL), 2);
	assert_non_null(strstr(err, "Invalid mouse button: up"));
	assert_int_equal(
		cua(out, err, "scroll", "app", "3", "down", "-1", NULL), 2);
	assert_non_null(strstr(err, "pages must be > 0"));
	assert_int_equal(cua(out, err, "type", "app", "", NULL), 2);
	assert_non_null(strstr(err, "Missing required argument: text"));
	assert_int_equal(cua(out, err, "type", "app", "hello", "world", NULL),
			 2);
	assert_non_null(strstr(err, "unexpected argument 'world' (quote "
				    "TEXT)"));
	assert_int_equal(cua(out, err, "drag", "app", "1", "2", "x", "4", NULL),
			 2);
	assert_non_null(strstr(err, "'to_x' must be a number"));
	assert_int_equal(cua(out, err, "select", "app", "1", "t", "--mode",
			     "word", NULL),
			 2);
	assert_non_null(strstr(err, "Invalid text selection mode: word"));
	assert_int_equal(cua(out, err, "screenshot", "app", NULL), 2);
	assert_non_null(strstr(err, "Missing required option: -o FILE"));
	assert_int_equal(cua(out, err, "approve", "a/b", NULL), 2);
	assert_non_null(strstr(err, "'a/b' is not an app id"));
	assert_int_equal(
		cua(out, err, "desktop", "start", "--screen", "big", NULL), 2);
	assert_non_null(strstr(err, "bad screen 'big' (expected WxHxD"));
	assert_int_equal(cua(out, err, "desktop", "run", "--wayland", "weston",
			     "--", "true", NULL),
			 2);
	assert_non_null(strstr(err, "--wayland weston: the headless Wayland "
				    "desktops are sway and mutter "
				    "(--wayland sway, --wayland mutter)"));
	assert_int_equal(cua(out, err, "desktop", "stop", "--dir",
			     "/nonexistent/desktop", NULL),
			 1);
	assert_non_null(strstr(err, "no desktop in /nonexistent/desktop"));
}

/* ---- the app in the command line's sentences ------------------------- */

static void
message_for(const char *msg, const char *app, char *out, size_t size)
{
	FILE *f = tmpfile();
	size_t n;

	assert_non_null(f);
	cli_print_message(f, msg, app);
	rewind(f);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
}

static void
test_app_words(void **state)
{
	const char *msg = "Computer Use is not active for 'x'. You first must "
			  "run `cua state APP` to get the latest state.";
	char out[512];

	(void)state;
	message_for(msg, "gedit", out, sizeof(out));
	assert_string_equal(out, "Computer Use is not active for 'x'. You "
				 "first must run `cua state gedit` to get the "
				 "latest state.\n");
	/* quoted for the shell where it needs it */
	message_for("Run `cua click APP INDEX`.", "My App", out, sizeof(out));
	assert_string_equal(out, "Run `cua click 'My App' INDEX`.\n");
	/* a name that single quotes cannot hold keeps the placeholder */
	message_for("Run `cua state APP`.", "it's", out, sizeof(out));
	assert_string_equal(out, "Run `cua state APP`.\n");
	message_for("Run `cua state APP`.", NULL, out, sizeof(out));
	assert_string_equal(out, "Run `cua state APP`.\n");
	/* only the word APP inside a quoted command */
	message_for("APP and `cua APPLE APP` and `x` APP", "gedit", out,
		    sizeof(out));
	assert_string_equal(out, "APP and `cua APPLE gedit` and `x` APP\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_anywhere),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_every_command),
		cmocka_unit_test(test_command_specifics),
		cmocka_unit_test(test_app_words),
	};
	char dir[] = "/tmp/cua-test-cli-XXXXXX";
	int r;

	if (!mkdtemp(dir))
		return 1;
	setenv("CUA_TEST_TMP", dir, 1);
	r = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return r;
}
