/*
 * cua — the libcua command line.
 *
 * Each invocation loads the session state (element ids, locators, last
 * observations) from a private runtime directory, runs one command and
 * saves the state again, so `cua state` in one process and an action by
 * element number in the next agree on the numbers.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cua/cua.h>

#include "desktop.h"
#include "state.h"

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
		"  state APP [--json]       print APP's state text (its focused\n"
		"                           window's accessibility tree)\n"
		"  record APP [-o FILE]     dump APP's raw tree as JSON (replay it\n"
		"                           with CUA_BACKEND=recorded:FILE)\n"
		"  desktop start|stop|run   a headless desktop (Xvfb, D-Bus,\n"
		"                           AT-SPI, openbox); see cua desktop --help\n"
		"  version                  print the library version\n"
		"\n"
		"APP is an app name, app id, desktop-file id, executable name or\n"
		"pid:N. Element numbers stay valid between invocations: the state\n"
		"is kept in $XDG_RUNTIME_DIR/cua/ (mode 0700).\n"
		"\n"
		"Environment: CUA_BACKEND (atspi or recorded:FILE), CUA_LOG_LEVEL,\n"
		"DISPLAY, DBUS_SESSION_BUS_ADDRESS, AT_SPI_BUS_ADDRESS.\n");
}

static int
fail(const char *what, cua_result r)
{
	const char *msg = cua_error_message();

	if (msg && *msg)
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "cua: %s: %s\n", what, cua_result_to_string(r));
	return r == CUA_ERROR_INVALID_ARGUMENT ? 2 : 1;
}

static int
open_session(cua_session **s, struct cua_state_file *sf)
{
	cua_result r = cua_session_new(s, 0);

	if (r != CUA_OK)
		return fail("session", r);
	if (cua_state_open(sf) < 0) {
		*s = cua_session_unref(*s);
		return 1;
	}
	if (sf->json) {
		r = cua_session_load_state(*s, sf->json);
		if (r != CUA_OK)
			fprintf(stderr, "cua: ignoring unreadable state %s: %s\n",
				sf->path, cua_error_message());
	}
	return 0;
}

static int
close_session(cua_session *s, struct cua_state_file *sf, int status)
{
	char *json = NULL;

	if (s && cua_session_save_state(s, &json) == CUA_OK) {
		if (cua_state_save(sf, json) < 0 && status == 0)
			status = 1;
		cua_free(json);
	}
	cua_state_close(sf);
	cua_session_unref(s);
	return status;
}

static int
cmd_apps(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t flags = 0;
	cua_session *s = NULL;
	char *text = NULL;
	cua_result r;
	int c;

	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		if (c == 'j')
			flags |= CUA_FORMAT_JSON;
		else if (c == 'h') {
			printf("Usage: cua apps [--json]\n");
			return 0;
		} else
			return 2;
	}
	r = cua_session_new(&s, 0);
	if (r != CUA_OK)
		return fail("apps", r);
	r = cua_session_list_apps(s, flags, &text);
	if (r != CUA_OK) {
		cua_session_unref(s);
		return fail("apps", r);
	}
	printf("%s\n", text);
	cua_free(text);
	cua_session_unref(s);
	return 0;
}

static int
cmd_state(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "no-launch", no_argument, NULL, 'n' },
		{ "stats", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	cua_session *s = NULL;
	cua_tree *t = NULL;
	char *text = NULL;
	uint32_t flags = 0;
	int json = 0, stats = 0, status = 0, c;
	cua_result r;

	while ((c = getopt_long(argc, argv, "jnsh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'n':
			flags |= CUA_OBSERVE_NO_LAUNCH;
			break;
		case 's':
			stats = 1;
			break;
		case 'h':
			printf("Usage: cua state APP [--json] [--no-launch] [--stats]\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "Missing required argument: app\n"
				"Usage: cua state APP [--json]\n");
		return 2;
	}
	if ((status = open_session(&s, &sf)))
		return status;
	r = cua_session_observe(s, argv[optind], flags, &t);
	if (r != CUA_OK) {
		status = fail("state", r);
		return close_session(s, &sf, status);
	}
	r = json ? cua_tree_to_json(t, 0, &text) : cua_tree_render(t, 0, &text);
	if (r != CUA_OK) {
		status = fail("state", r);
	} else {
		printf("%s\n", text);
		cua_free(text);
	}
	if (stats)
		fprintf(stderr,
			"raw nodes %lld, elements %lld, calls %lld (%.2f/node), "
			"errors %lld, walk %.1f ms, build %.1f ms\n",
			(long long)cua_tree_get_stat(t, CUA_STAT_RAW_NODES),
			(long long)cua_tree_get_stat(t, CUA_STAT_ELEMENTS),
			(long long)cua_tree_get_stat(t, CUA_STAT_CALLS),
			cua_tree_get_stat(t, CUA_STAT_RAW_NODES) ?
				(double)cua_tree_get_stat(t, CUA_STAT_CALLS) /
					(double)cua_tree_get_stat(t, CUA_STAT_RAW_NODES) :
				0.0,
			(long long)cua_tree_get_stat(t, CUA_STAT_CALL_ERRORS),
			cua_tree_get_stat(t, CUA_STAT_WALK_US) / 1000.0,
			cua_tree_get_stat(t, CUA_STAT_BUILD_US) / 1000.0);
	cua_tree_unref(t);
	return close_session(s, &sf, status);
}

static int
cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	cua_session *s = NULL;
	char *json = NULL;
	cua_result r;
	int c, status = 0;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			output = optarg;
		else if (c == 'h') {
			printf("Usage: cua record APP [-o FILE]\n");
			return 0;
		} else
			return 2;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "Missing required argument: app\n"
				"Usage: cua record APP [-o FILE]\n");
		return 2;
	}
	r = cua_session_new(&s, 0);
	if (r != CUA_OK)
		return fail("record", r);
	r = cua_session_record(s, argv[optind], 0, &json);
	if (r != CUA_OK) {
		status = fail("record", r);
	} else if (output) {
		FILE *f = fopen(output, "we");

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

int
main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 ||
	    strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("cua %s (libcua %s)\n", CUA_VERSION, cua_version_string());
		return 0;
	}
	if (strcmp(cmd, "desktop") == 0)
		return cua_desktop_main(argc - 1, argv + 1);
	if (strcmp(cmd, "apps") == 0)
		return cmd_apps(argc - 1, argv + 1);
	if (strcmp(cmd, "state") == 0)
		return cmd_state(argc - 1, argv + 1);
	if (strcmp(cmd, "record") == 0)
		return cmd_record(argc - 1, argv + 1);
	fprintf(stderr, "cua: unknown command '%s'\n\n", cmd);
	usage(stderr);
	return 2;
}
