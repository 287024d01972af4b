/*
 * `cua watch APP`: the full tree once, then, each time the app reports a
 * change (AT-SPI events through cua_session_wait_for_change(), no
 * polling), the diff against the previous observation. Observations that
 * show no change print nothing. The state file is locked only while
 * observing, so other cua commands run meanwhile and see the same ids.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

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

static int
option(struct cli *cli, int id, const char *value)
{
	*(uint32_t *)cli->data |= CUA_OBSERVE_NO_LAUNCH;
	(void)id;
	(void)value;
	return 0;
}

/* Prints the first tree, then each non-empty diff. */
static void
print_change(cua_tree *t, int first)
{
	cua_tree_diff *d = NULL;
	char *text = NULL;
	int quiet;

	quiet = !first && cua_tree_get_diff(t, &d) == CUA_OK &&
		cua_tree_diff_is_empty(d);
	cua_tree_diff_unref(d);
	if (!quiet && cua_tree_render(t, CUA_RENDER_DIFF, &text) == CUA_OK) {
		printf("%s%s\n", first ? "" : "\n", text);
		fflush(stdout);
		cua_free(text);
	}
}

static int
run(struct cli *cli)
{
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	uint32_t flags = *(uint32_t *)cli->data;
	cua_session *s = NULL;
	cua_tree *t = NULL, *next;
	char *saved = NULL;
	int status = 0, changed;
	cua_result r;

	if ((status = cli_plain_session("watch", &s)))
		return status;
	/* the reader saw every change: no baseline expires while watching */
	cua_session_set_option(s, "diff_baseline_max_age_s", "31536000");
	/* observes again and again: the tree cache as the environment says
	 * (on unless CUA_TREE_CACHE=0) */
	cua_session_set_option(s, "tree_cache", "auto");
	for (int first = 1;; first = 0) {
		next = NULL;
		if (relock_state(s, &sf, saved) < 0) {
			status = 1;
			break;
		}
		r = cua_session_observe(
			s, cli->argv[0],
			flags | (first ? CUA_OBSERVE_DISABLE_DIFF : 0), &next);
		if (r != CUA_OK) {
			status = cli_fail_app("watch", r, cli->argv[0]);
			unlock_state(s, &sf, &saved);
			break;
		}
		unlock_state(s, &sf, &saved);
		print_change(next, first);
		cua_tree_unref(t);
		t = next;
		changed = 0;
		r = cua_session_wait_for_change(s, t, -1, &changed);
		if (r != CUA_OK) {
			status = cli_fail_app("watch", r, cli->argv[0]);
			break;
		}
	}
	cua_tree_unref(t);
	cua_free(saved);
	cua_session_unref(s);
	return status;
}

static const struct cli_option options[] = {
	{ "no-launch", 'n', NULL, 0 },
	{ NULL },
};

#define HELP                                                                      \
	"Prints APP's tree, then what changed each time it changes (~ changed,\n" \
	"+ added, removed ids), until interrupted.\n"

const struct cli_command cmd_watch = {
	.name = "watch",
	.usage = "cua watch APP [--no-launch]",
	.help = HELP,
	.options = options,
	.operands = cli_app_operand,
	.max_operands = 1,
	.option = option,
	.run = run,
	.data_size = sizeof(uint32_t),
};
