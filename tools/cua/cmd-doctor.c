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
#include <strings.h>

#include "cli.h"
#include "doctor.h"

/* The pid of the running app the query names (by id or name), or 0. */
static int64_t
app_pid(cua_session *s, const char *query)
{
	char *out = NULL;
	json_t *root, *apps, *a;
	size_t i;
	int64_t pid = 0;

	if (cua_session_list_apps(s, CUA_FORMAT_JSON, &out) != CUA_OK)
		return 0;
	root = json_loads(out, 0, NULL);
	cua_free(out);
	apps = json_object_get(root, "apps");
	json_array_foreach(apps, i, a)
	{
		const char *id = json_string_value(json_object_get(a, "id"));
		const char *name =
			json_string_value(json_object_get(a, "name"));
		json_t *pids = json_object_get(a, "pids");

		if (pid || !json_is_true(json_object_get(a, "running")))
			continue;
		if ((id && strcasecmp(id, query) == 0) ||
		    (name && strcasecmp(name, query) == 0))
			pid = (int64_t)json_integer_value(
				json_array_get(pids, 0));
	}
	json_decref(root);
	return pid;
}

/*
 * `cua doctor APP`: whether APP's elements can be read, and if not, the
 * `Accessibility unavailable:` note with the likely fix (docs/safety.md
 * §7): APP is not on the accessibility bus, or shows only a skeleton.
 */
static int
diagnose(const char *app)
{
	cua_session *s = NULL;
	cua_tree *t = NULL;
	char *note = NULL;
	int status = 0;
	cua_result r;

	if (cli_plain_session("doctor", &s))
		return 1;
	r = cua_session_observe(
		s, app, CUA_OBSERVE_NO_LAUNCH | CUA_OBSERVE_NO_SCREENSHOT, &t);
	if (r == CUA_OK) {
		const char *n = cua_tree_get_accessibility_note(t);

		/* a window without a tree has only its one line */
		if (!n || cua_tree_get_element_count(t) > 1)
			printf("%s: %zu elements in its accessibility tree.\n",
			       cua_tree_get_app_name(t),
			       cua_tree_get_element_count(t));
		if (n) {
			printf("%s\n", n);
			status = 1;
		}
		cua_tree_unref(t);
	} else if (cua_error_code() == CUA_E_NOT_ACCESSIBLE) {
		note = cua_accessibility_note(app, NULL, NULL, app_pid(s, app));
		printf("%s\n", note ? note : "out of memory");
		cua_free(note);
		status = 1;
	} else {
		status = cli_fail_app("doctor", r, app);
	}
	cua_session_unref(s);
	return status;
}

static int
run(struct cli *cli)
{
	cua_session *s = NULL;
	json_t *facts;
	char *text;
	int works;

	if (cli->argc == 1)
		return diagnose(cli->argv[0]);
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
	"\n"                                                                    \
	"With APP: whether APP's elements can be read; when they cannot (APP\n" \
	"is not on the accessibility bus, or shows only a skeleton, like a\n"   \
	"Chromium or Electron window without renderer accessibility), the\n"    \
	"Accessibility unavailable: note that cua-mcp gives, with the likely\n" \
	"fix.\n"                                                                \
	"\n"                                                                    \
	"Exit status: 0 when the accessibility tree works (the accessibility\n" \
	"bus answers; with APP, its elements can be read), 1 when it does\n"    \
	"not, 2 for a usage error.\n"

const struct cli_command cmd_doctor = {
	.name = "doctor",
	.usage = "cua doctor [APP] [--json]",
	.help = HELP,
	.flags = CLI_JSON,
	.max_operands = 1,
	.run = run,
};
