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
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cua/cua.h>

#include "../cua-mcp/approvals.h"
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
	cua_session_set_option(*s, "vocabulary", "cli");
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
	cua_session_set_option(s, "vocabulary", "cli");
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

/* 1 when `path` ends in ".png" (any case). */
static int
is_png_path(const char *path)
{
	size_t n = strlen(path);

	return n >= 4 && strcasecmp(path + n - 4, ".png") == 0;
}

static int
write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "we");

	if (!f || fwrite(data, 1, size, f) != size) {
		fprintf(stderr, "cua: cannot write %s: %s\n", path,
			strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "cua: cannot write %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	return 0;
}

/* Writes the observation's screenshot (JPEG, or PNG by extension),
 * optionally with marks. Prints the reason when there is none. */
static int
save_screenshot(cua_tree *t, const char *path, int marks)
{
	uint32_t flags = (marks ? CUA_SCREENSHOT_MARKS : 0) |
			 (is_png_path(path) ? CUA_SCREENSHOT_PNG : 0);
	void *img = NULL;
	size_t size = 0;
	cua_result r;
	int status;

	r = cua_tree_render_screenshot(t, flags, &img, &size);
	if (r != CUA_OK)
		return fail("screenshot", r);
	status = write_file(path, img, size);
	cua_free(img);
	return status;
}

static int
cmd_screenshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "marks", no_argument, NULL, 'm' },
		{ "no-launch", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	const char *output = NULL;
	cua_session *s = NULL;
	cua_tree *t = NULL;
	uint32_t flags = 0;
	int marks = 0, status = 0, c;
	cua_result r;

	while ((c = getopt_long(argc, argv, "o:mnh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'm':
			marks = 1;
			break;
		case 'n':
			flags |= CUA_OBSERVE_NO_LAUNCH;
			break;
		case 'h':
			printf("Usage: cua screenshot APP -o FILE [--marks] "
			       "[--no-launch]\n"
			       "FILE ending in .png is written as PNG, anything "
			       "else as JPEG.\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind != argc - 1 || !output) {
		fprintf(stderr, "%s\nUsage: cua screenshot APP -o FILE [--marks]\n",
			optind != argc - 1 ? "Missing required argument: app"
					   : "Missing required option: -o FILE");
		return 2;
	}
	if ((status = open_session(&s, &sf)))
		return status;
	/* an observation like `cua state`: the ids drawn are the ids that
	 * the next command accepts */
	r = cua_session_observe(s, argv[optind], flags, &t);
	if (r != CUA_OK) {
		status = fail("screenshot", r);
		return close_session(s, &sf, status);
	}
	status = save_screenshot(t, output, marks);
	cua_tree_unref(t);
	return close_session(s, &sf, status);
}

static int
cmd_state(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "no-launch", no_argument, NULL, 'n' },
		{ "stats", no_argument, NULL, 's' },
		{ "screenshot", required_argument, NULL, 'S' },
		{ "diff", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	cua_session *s = NULL;
	cua_tree *t = NULL;
	char *text = NULL;
	uint32_t flags = 0, render_flags = 0;
	const char *shot_path = NULL;
	int json = 0, stats = 0, status = 0, c;
	cua_result r;

	while ((c = getopt_long(argc, argv, "jnshS:d", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'd':
			render_flags |= CUA_RENDER_DIFF;
			break;
		case 'n':
			flags |= CUA_OBSERVE_NO_LAUNCH;
			break;
		case 's':
			stats = 1;
			break;
		case 'S':
			shot_path = optarg;
			break;
		case 'h':
			printf("Usage: cua state APP [--json] [--no-launch] [--stats] "
			       "[--screenshot FILE] [--diff]\n"
			       "--diff prints what changed since the previous "
			       "observation of APP\n(by any cua command), or the "
			       "full tree when there is none to compare\nwith "
			       "(first look, another window, older than 5 "
			       "minutes).\n");
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
	r = json ? cua_tree_to_json(t, render_flags, &text) :
		   cua_tree_render(t, render_flags, &text);
	if (r != CUA_OK) {
		status = fail("state", r);
	} else {
		printf("%s\n", text);
		cua_free(text);
	}
	if (shot_path && status == 0) {
		if (cua_tree_get_screenshot_error(t)) {
			fprintf(stderr, "Screenshot unavailable: %s.\n",
				cua_tree_get_screenshot_error(t));
			status = 1;
		} else {
			status = save_screenshot(t, shot_path, 0);
		}
	}
	if (stats)
		fprintf(stderr,
			"settle %.1f ms%s, capture %.1f ms, encode %.1f ms, ",
			cua_tree_get_stat(t, CUA_STAT_SETTLE_US) / 1000.0,
			cua_tree_get_stat(t, CUA_STAT_SETTLE_CAPPED) ? " (cap)" : "",
			cua_tree_get_stat(t, CUA_STAT_CAPTURE_US) / 1000.0,
			cua_tree_get_stat(t, CUA_STAT_ENCODE_US) / 1000.0);
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

/* Takes the state file's lock and, when another cua command changed the
 * state since we saved it (`*saved`), reloads it, so that ids issued
 * meanwhile are known before observing. */
static int
relock_state(cua_session *s, struct cua_state_file *sf, const char *saved)
{
	if (cua_state_open(sf) < 0)
		return -1;
	if (sf->json && (!saved || strcmp(sf->json, saved) != 0) &&
	    cua_session_load_state(s, sf->json) != CUA_OK)
		fprintf(stderr, "cua: ignoring unreadable state %s: %s\n",
			sf->path, cua_error_message());
	return 0;
}

/* Saves the state (remembered in *saved) and releases the lock; the
 * session stays open. */
static void
unlock_state(cua_session *s, struct cua_state_file *sf, char **saved)
{
	char *json = NULL;

	if (cua_session_save_state(s, &json) == CUA_OK &&
	    cua_state_save(sf, json) == 0) {
		cua_free(*saved);
		*saved = json;
	} else {
		cua_free(json);
	}
	cua_state_close(sf);
}

/*
 * `cua watch APP`: the full tree once, then, each time the app reports a
 * change (AT-SPI events through cua_session_wait_for_change(), no
 * polling), the diff against the previous observation. Observations that
 * show no change print nothing. The state file is locked only while
 * observing, so other cua commands run meanwhile and see the same ids.
 */
static int
cmd_watch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-launch", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	cua_session *s = NULL;
	cua_tree *t = NULL;
	char *saved = NULL;
	uint32_t flags = 0;
	int status = 0, c;
	cua_result r;

	while ((c = getopt_long(argc, argv, "nh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			flags |= CUA_OBSERVE_NO_LAUNCH;
			break;
		case 'h':
			printf("Usage: cua watch APP [--no-launch]\n"
			       "Prints APP's tree, then what changed each time it "
			       "changes (~ changed,\n+ added, removed ids), until "
			       "interrupted.\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "Missing required argument: app\n"
				"Usage: cua watch APP\n");
		return 2;
	}
	r = cua_session_new(&s, 0);
	if (r != CUA_OK)
		return fail("watch", r);
	cua_session_set_option(s, "vocabulary", "cli");
	/* the reader saw every change: no baseline expires while watching */
	cua_session_set_option(s, "diff_baseline_max_age_s", "31536000");
	for (int first = 1;; first = 0) {
		cua_tree *next = NULL;
		cua_tree_diff *d = NULL;
		char *text = NULL;
		int changed = 0, quiet;

		if (relock_state(s, &sf, saved) < 0) {
			status = 1;
			break;
		}
		r = cua_session_observe(s, argv[optind],
					flags | (first ? CUA_OBSERVE_DISABLE_DIFF : 0),
					&next);
		if (r != CUA_OK) {
			status = fail("watch", r);
			unlock_state(s, &sf, &saved);
			break;
		}
		unlock_state(s, &sf, &saved);
		quiet = cua_tree_get_diff(next, &d) == CUA_OK &&
			cua_tree_diff_is_empty(d) && !first;
		cua_tree_diff_unref(d);
		if (!quiet && cua_tree_render(next, CUA_RENDER_DIFF, &text) == CUA_OK) {
			printf("%s%s\n", first ? "" : "\n", text);
			fflush(stdout);
			cua_free(text);
		}
		cua_tree_unref(t);
		t = next;
		r = cua_session_wait_for_change(s, t, -1, &changed);
		if (r != CUA_OK) {
			status = fail("watch", r);
			break;
		}
	}
	cua_tree_unref(t);
	cua_free(saved);
	cua_session_unref(s);
	return status;
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
	cua_session_set_option(s, "vocabulary", "cli");
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

/* ------------------------------------------------------------------ */
/* Actions                                                              */

#define RECEIPT "Action completed. Call `get_app_state` to fetch the updated UI state."

/* Prints the receipt (or, with json, the outcome) and saves the state. */
static int
act_done(cua_session *s, struct cua_state_file *sf, const char *what,
	 cua_result r, char *outcome, int json)
{
	int status = 0;

	if (r != CUA_OK) {
		status = fail(what, r);
	} else if (json) {
		printf("%s\n", outcome ? outcome : "{}");
	} else {
		const char *route = outcome ? strstr(outcome, "\"route\":\"") : NULL;

		printf("%s\n", RECEIPT);
		if (route) {
			route += 9;
			printf("route: %.*s\n", (int)strcspn(route, "\""), route);
		}
	}
	cua_free(outcome);
	/* the action happened: a state that cannot be saved is reported
	 * (close_session) but does not turn it into a failure that a script
	 * would retry, acting twice */
	if (r == CUA_OK) {
		close_session(s, sf, status);
		return status;
	}
	return close_session(s, sf, status);
}

static int
missing(const char *name, const char *usage_line)
{
	fprintf(stderr, "Missing required argument: %s\nUsage: %s\n", name,
		usage_line);
	return 2;
}

/* element_index: decimal digits, surrounding white space ignored
 * (tools.md §2.3). */
static int
parse_index(const char *tool, const char *s, uint32_t *out)
{
	const char *p = s;
	unsigned long long v = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v > UINT32_MAX - 1)
			goto bad;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p)
		goto bad;
	*out = (uint32_t)v;
	return 0;
bad:
	fprintf(stderr,
		"Invalid arguments for %s: 'element_index' must be an element "
		"number from the latest get_app_state, such as \"12\".\n",
		tool);
	return -1;
}

static int
parse_number(const char *tool, const char *name, const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v != v || v > 1e300 || v < -1e300) {
		fprintf(stderr, "Invalid arguments for %s: '%s' must be a number.\n",
			tool, name);
		return -1;
	}
	*out = v;
	return 0;
}

/* Positional arguments of the commands without options: --help, and a
 * leading `--` that ends options (so TEXT may start with '-'). */
static int
positional(int argc, char **argv, const char *usage_line, int *first)
{
	*first = 1;
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
			 strcmp(argv[1], "-h") == 0)) {
		printf("Usage: %s\n", usage_line);
		return 1;
	}
	if (argc > 1 && strcmp(argv[1], "--") == 0)
		*first = 2;
	return 0;
}

static int
json_flag(int *argc, char **argv)
{
	for (int i = 1; i < *argc; i++)
		if (strcmp(argv[i], "--json") == 0) {
			memmove(&argv[i], &argv[i + 1],
				(size_t)(*argc - i) * sizeof(*argv));
			(*argc)--;
			return 1;
		}
	return 0;
}

static int
cmd_click(int argc, char **argv)
{
	static const char *const use =
		"cua click APP INDEX [--count N] [--button left|right|middle]\n"
		"       cua click APP --at X,Y [--count N] [--button B]";
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "button", required_argument, NULL, 'b' },
		{ "at", required_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	const char *at = NULL;
	uint32_t button = CUA_BUTTON_LEFT, count = 1, index = 0;
	double x = 0, y = 0, v;
	cua_session *s = NULL;
	char *outcome = NULL;
	int c, json = 0, status;
	cua_result r;

	while ((c = getopt_long(argc, argv, "c:b:a:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_number("click", "click_count", optarg, &v) < 0)
				return 2;
			if (v < 1 || v > 100 || v != (uint32_t)v) {
				fprintf(stderr, "Invalid arguments for click: "
						"'click_count' must be between 1 and 100.\n");
				return 2;
			}
			count = (uint32_t)v;
			break;
		case 'b':
			if (strcasecmp(optarg, "left") == 0 || strcasecmp(optarg, "l") == 0)
				button = CUA_BUTTON_LEFT;
			else if (strcasecmp(optarg, "right") == 0 ||
				 strcasecmp(optarg, "r") == 0)
				button = CUA_BUTTON_RIGHT;
			else if (strcasecmp(optarg, "middle") == 0 ||
				 strcasecmp(optarg, "m") == 0)
				button = CUA_BUTTON_MIDDLE;
			else {
				fprintf(stderr, "Invalid mouse button: %s Use left, "
						"right or middle.\n", optarg);
				return 2;
			}
			break;
		case 'a':
			at = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			printf("Usage: %s\n", use);
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc)
		return missing("app", use);
	if (at) {
		char *comma = strchr(at, ',');

		if (optind + 1 != argc) {
			fprintf(stderr, "Usage: %s\n", use);
			return 2;
		}
		if (!comma) {
			fprintf(stderr, "Invalid arguments for click: x and y must "
					"be given together.\n");
			return 2;
		}
		*comma = '\0';
		if (parse_number("click", "x", at, &x) < 0 ||
		    parse_number("click", "y", comma + 1, &y) < 0)
			return 2;
	} else {
		if (optind + 1 >= argc) {
			fprintf(stderr, "Invalid arguments for click: pass "
					"element_index, or x and y from the "
					"screenshot.\nUsage: %s\n", use);
			return 2;
		}
		if (optind + 2 != argc) {
			fprintf(stderr, "Usage: %s\n", use);
			return 2;
		}
		if (parse_index("click", argv[optind + 1], &index) < 0)
			return 2;
	}
	if ((status = open_session(&s, &sf)))
		return status;
	if (at)
		r = cua_session_click_at(s, argv[optind], x, y, button, count,
					 &outcome);
	else
		r = cua_session_click(s, argv[optind], index, button, count,
				      &outcome);
	return act_done(s, &sf, "click", r, outcome, json);
}

static int
cmd_set(int argc, char **argv)
{
	static const char *const use = "cua set APP INDEX VALUE";
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	int json = json_flag(&argc, argv), first, status;
	cua_session *s = NULL;
	char *outcome = NULL;
	uint32_t index;
	cua_result r;

	if (positional(argc, argv, use, &first))
		return 0;
	if (argc - first < 1)
		return missing("app", use);
	if (argc - first < 2)
		return missing("element_index", use);
	if (argc - first < 3)
		return missing("value", use);
	if (argc - first > 3) {
		fprintf(stderr, "Usage: %s\n", use);
		return 2;
	}
	if (parse_index("set_value", argv[first + 1], &index) < 0)
		return 2;
	if ((status = open_session(&s, &sf)))
		return status;
	r = cua_session_set_value(s, argv[first], index, argv[first + 2],
				  &outcome);
	return act_done(s, &sf, "set", r, outcome, json);
}

static int
cmd_type(int argc, char **argv)
{
	static const char *const use = "cua type APP TEXT";
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	int json = json_flag(&argc, argv), first, status;
	cua_session *s = NULL;
	char *outcome = NULL;
	cua_result r;

	if (positional(argc, argv, use, &first))
		return 0;
	if (argc - first < 1)
		return missing("app", use);
	if (argc - first < 2 || !*argv[first + 1])
		return missing("text", use);
	if (argc - first > 2) {
		fprintf(stderr, "Usage: %s (quote TEXT)\n", use);
		return 2;
	}
	if ((status = open_session(&s, &sf)))
		return status;
	r = cua_session_type_text(s, argv[first], argv[first + 1], &outcome);
	return act_done(s, &sf, "type", r, outcome, json);
}

static int
cmd_key(int argc, char **argv)
{
	static const char *const use = "cua key APP KEY";
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	int json = json_flag(&argc, argv), first, status;
	cua_session *s = NULL;
	char *outcome = NULL;
	cua_result r;

	if (positional(argc, argv, use, &first))
		return 0;
	if (argc - first < 1)
		return missing("app", use);
	if (argc - first < 2 || !*argv[first + 1])
		return missing("key", use);
	if (argc - first > 2) {
		fprintf(stderr, "Usage: %s (quote a KEY with spaces)\n", use);
		return 2;
	}
	if ((status = open_session(&s, &sf)))
		return status;
	r = cua_session_press_key(s, argv[first], argv[first + 1], &outcome);
	return act_done(s, &sf, "key", r, outcome, json);
}

static int
cmd_scroll(int argc, char **argv)
{
	static const char *const use =
		"cua scroll APP INDEX up|down|left|right [PAGES]";
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	int json = json_flag(&argc, argv), first, status;
	cua_session *s = NULL;
	char *outcome = NULL;
	uint32_t index;
	double pages = 1;
	cua_result r;

	if (positional(argc, argv, use, &first))
		return 0;
	if (argc - first < 1)
		return missing("app", use);
	if (argc - first < 2)
		return missing("element_index", use);
	if (argc - first < 3)
		return missing("direction", use);
	if (argc - first > 4) {
		fprintf(stderr, "Usage: %s\n", use);
		return 2;
	}
	if (parse_index("scroll", argv[first + 1], &index) < 0)
		return 2;
	if (argc - first == 4) {
		char *end;

		pages = strtod(argv[first + 3], &end);
		if (end == argv[first + 3] || *end || !(pages > 0) ||
		    pages > 1e9) {
			fprintf(stderr, "pages must be > 0\n");
			return 2;
		}
	}
	if ((status = open_session(&s, &sf)))
		return status;
	r = cua_session_scroll(s, argv[first], index, argv[first + 2], pages,
			       &outcome);
	return act_done(s, &sf, "scroll", r, outcome, json);
}

static int
cmd_drag(int argc, char **argv)
{
	static const char *const use = "cua drag APP X1 Y1 X2 Y2";
	static const char *const names[] = { "from_x", "from_y", "to_x", "to_y" };
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	int json = json_flag(&argc, argv), first, status;
	cua_session *s = NULL;
	char *outcome = NULL;
	double v[4];
	cua_result r;

	if (positional(argc, argv, use, &first))
		return 0;
	if (argc - first < 1)
		return missing("app", use);
	for (int i = 0; i < 4; i++) {
		if (argc - first < 2 + i)
			return missing(names[i], use);
		if (parse_number("drag", names[i], argv[first + 1 + i], &v[i]) < 0)
			return 2;
	}
	if (argc - first > 5) {
		fprintf(stderr, "Usage: %s\n", use);
		return 2;
	}
	if ((status = open_session(&s, &sf)))
		return status;
	r = cua_session_drag(s, argv[first], v[0], v[1], v[2], v[3], &outcome);
	return act_done(s, &sf, "drag", r, outcome, json);
}

static int
cmd_action(int argc, char **argv)
{
	static const char *const use = "cua action APP INDEX NAME";
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	int json = json_flag(&argc, argv), first, status;
	cua_session *s = NULL;
	char *outcome = NULL;
	uint32_t index;
	cua_result r;

	if (positional(argc, argv, use, &first))
		return 0;
	if (argc - first < 1)
		return missing("app", use);
	if (argc - first < 2)
		return missing("element_index", use);
	if (argc - first < 3 || !*argv[first + 2])
		return missing("action", use);
	if (argc - first > 3) {
		fprintf(stderr, "Usage: %s (quote a NAME with spaces)\n", use);
		return 2;
	}
	if (parse_index("perform_secondary_action", argv[first + 1], &index) < 0)
		return 2;
	if ((status = open_session(&s, &sf)))
		return status;
	r = cua_session_perform_action(s, argv[first], index, argv[first + 2],
				       &outcome);
	return act_done(s, &sf, "action", r, outcome, json);
}

static int
cmd_select(int argc, char **argv)
{
	static const char *const use =
		"cua select APP INDEX TEXT [--prefix P] [--suffix S] "
		"[--mode text|cursor_before|cursor_after]";
	static const struct option opts[] = {
		{ "prefix", required_argument, NULL, 'p' },
		{ "suffix", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	const char *prefix = NULL, *suffix = NULL;
	uint32_t mode = CUA_SELECTION_TEXT, index;
	cua_session *s = NULL;
	char *outcome = NULL;
	int c, json = 0, status;
	cua_result r;

	while ((c = getopt_long(argc, argv, "p:s:m:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			prefix = optarg;
			break;
		case 's':
			suffix = optarg;
			break;
		case 'm':
			if (strcmp(optarg, "text") == 0)
				mode = CUA_SELECTION_TEXT;
			else if (strcmp(optarg, "cursor_before") == 0)
				mode = CUA_SELECTION_CURSOR_BEFORE;
			else if (strcmp(optarg, "cursor_after") == 0)
				mode = CUA_SELECTION_CURSOR_AFTER;
			else {
				fprintf(stderr, "Invalid text selection mode: %s Use "
						"text, cursor_before or cursor_after.\n",
					optarg);
				return 2;
			}
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			printf("Usage: %s\n", use);
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc)
		return missing("app", use);
	if (optind + 1 >= argc)
		return missing("element_index", use);
	if (optind + 2 >= argc || !*argv[optind + 2])
		return missing("text", use);
	if (optind + 3 != argc) {
		fprintf(stderr, "Usage: %s\n", use);
		return 2;
	}
	if (parse_index("select_text", argv[optind + 1], &index) < 0)
		return 2;
	if ((status = open_session(&s, &sf)))
		return status;
	r = cua_session_select_text(s, argv[optind], index, argv[optind + 2],
				    prefix, suffix, mode, &outcome);
	return act_done(s, &sf, "select", r, outcome, json);
}

/* `cua approve ID...`: the "always" approval that cua-mcp asks for
 * through MCP elicitation, for hosts that cannot ask (safety.md §3.2). */
static int
cmd_approve(int argc, char **argv)
{
	char *path;
	int i, status = 0;

	if (argc < 2 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0) {
		fprintf(argc < 2 ? stderr : stdout,
			"Usage: cua approve APP-ID...\n"
			"Lets cua-mcp use the apps (canonical ids, as its messages\n"
			"and `cua apps` print them) without asking, in every session.\n"
			"Forbidden apps stay forbidden.\n");
		return argc < 2 ? 2 : 0;
	}
	path = approvals_default_path();
	if (!path) {
		fprintf(stderr, "cua approve: neither XDG_STATE_HOME nor HOME is set\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (!argv[i][0] || strchr(argv[i], '/')) {
			fprintf(stderr, "cua approve: '%s' is not an app id\n", argv[i]);
			status = 2;
		} else if (approvals_add(path, argv[i]) < 0) {
			/* the old store is kept as it was (atomic replace) */
			fprintf(stderr, "cua approve: cannot write %s: %s; %s is not approved (the file is unchanged). Free some space or make the directory writable (or set XDG_STATE_HOME), then try again.\n",
				path, strerror(errno), argv[i]);
			status = 1;
		} else {
			printf("approved %s (%s)\n", argv[i], path);
		}
	}
	free(path);
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
	if (strcmp(cmd, "approve") == 0)
		return cmd_approve(argc - 1, argv + 1);
	if (strcmp(cmd, "apps") == 0)
		return cmd_apps(argc - 1, argv + 1);
	if (strcmp(cmd, "state") == 0)
		return cmd_state(argc - 1, argv + 1);
	if (strcmp(cmd, "record") == 0)
		return cmd_record(argc - 1, argv + 1);
	if (strcmp(cmd, "watch") == 0)
		return cmd_watch(argc - 1, argv + 1);
	if (strcmp(cmd, "screenshot") == 0)
		return cmd_screenshot(argc - 1, argv + 1);
	if (strcmp(cmd, "click") == 0)
		return cmd_click(argc - 1, argv + 1);
	if (strcmp(cmd, "set") == 0)
		return cmd_set(argc - 1, argv + 1);
	if (strcmp(cmd, "type") == 0)
		return cmd_type(argc - 1, argv + 1);
	if (strcmp(cmd, "key") == 0)
		return cmd_key(argc - 1, argv + 1);
	if (strcmp(cmd, "scroll") == 0)
		return cmd_scroll(argc - 1, argv + 1);
	if (strcmp(cmd, "drag") == 0)
		return cmd_drag(argc - 1, argv + 1);
	if (strcmp(cmd, "action") == 0)
		return cmd_action(argc - 1, argv + 1);
	if (strcmp(cmd, "select") == 0)
		return cmd_select(argc - 1, argv + 1);
	fprintf(stderr, "cua: unknown command '%s'\n\n", cmd);
	usage(stderr);
	return 2;
}
