/*
 * Fuzzes the CLI's session state (tools/cua/state.c and the library's
 * cua_session_load_state()): the input is the state file
 * $XDG_RUNTIME_DIR/cua/session.json, read under the lock as `cua` reads
 * it and loaded into a session replaying a small recorded app
 * (pid 4242, start time 99: a state naming that process is restored).
 * An element of the loaded state is clicked, by number and at a point
 * (found again in the recording; actuation fails). The app is then
 * observed (ids and diffs continue from the loaded trees; an id must
 * name one element), and the state is saved as `cua` saves it; what was
 * saved must load again.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <sys/stat.h>

#include <cua/cua.h>

#include "fuzz-common.h"
#include "state.h"

static const char app_recording[] =
	FUZZ_FORM_RECORDING("\"pid\":4242,\"start_time\":99,");

static char *state_path;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *rec = fuzz_path("app.json"), *dir = fuzz_path("cua"),
	     backend[4200];

	(void)argc;
	(void)argv;
	fuzz_private_home();
	fuzz_write(rec, app_recording, strlen(app_recording));
	snprintf(backend, sizeof(backend), "recorded:%s", rec);
	setenv("CUA_BACKEND", backend, 1);
	free(rec);
	if (mkdir(dir, 0700) < 0)
		abort();
	free(dir);
	state_path = fuzz_path("cua/session.json");
	return 0;
}

/* Ids are unique in a tree: an element number names one element. */
static void
check_ids(cua_tree *t)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (cua_tree_find_element(t, cua_element_get_id(e)) != e) {
			fprintf(stderr, "element id %u is used twice\n",
				cua_element_get_id(e));
			abort();
		}
	}
}

static cua_session *
new_session(void)
{
	cua_session *s = NULL;

	if (cua_session_new(&s, 0) != CUA_OK)
		abort();
	cua_session_set_log_level(s, CUA_LOG_ERROR);
	if (cua_session_set_option(s, "warmup_cap_ms", "0") != CUA_OK)
		abort();
	/* every loaded baseline counts as expired whatever its time, so
	 * that the clock plays no part (its diff is still computed) */
	if (cua_session_set_option(s, "diff_baseline_max_age_s", "0") != CUA_OK)
		abort();
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cua_state_file sf = CUA_STATE_FILE_INIT;
	cua_session *s = new_session(), *s2;
	cua_tree *t = NULL;
	cua_tree_diff *d = NULL;
	char *saved = NULL, *text = NULL;
	uint32_t h;

	fuzz_write(state_path, data, size);
	if (cua_state_open(&sf) < 0)
		abort();
	if (sf.json)
		(void)cua_session_load_state(s, sf.json);
	/* `cua click APP N` right after loading: the element is found again
	 * from the loaded tree's locator (actuation itself fails: a
	 * recording cannot be acted on) */
	h = fuzz_hash(data, size);
	if (cua_session_click(s, "pid:4242", h % 8, CUA_BUTTON_LEFT, 1,
			      &text) == CUA_OK)
		cua_free(text);
	text = NULL;
	if (cua_session_click_at(s, "pid:4242", (double)(h >> 8 & 511),
				 (double)(h >> 17 & 511), CUA_BUTTON_LEFT, 1,
				 &text) == CUA_OK)
		cua_free(text);
	text = NULL;
	if (cua_session_observe(s, "pid:4242",
				CUA_OBSERVE_NO_SCREENSHOT |
					CUA_OBSERVE_NO_LAUNCH,
				&t) == CUA_OK) {
		check_ids(t);
		if (cua_tree_render(t, CUA_RENDER_DIFF, &text) == CUA_OK)
			cua_free(text);
		text = NULL;
		if (cua_tree_render(t, CUA_RENDER_DIFF | CUA_DIFF_REMOVED_LINES,
				    &text) == CUA_OK)
			cua_free(text);
		text = NULL;
		if (cua_tree_to_json(t, CUA_RENDER_DIFF, &text) == CUA_OK)
			cua_free(text);
		text = NULL;
		if (cua_tree_get_diff(t, &d) == CUA_OK) {
			if (cua_tree_diff_render(d, CUA_DIFF_REMOVED_LINES,
						 &text) == CUA_OK)
				cua_free(text);
			text = NULL;
			cua_tree_diff_unref(d);
		}
		cua_tree_unref(t);
	}
	if (cua_session_save_state(s, &saved) != CUA_OK)
		abort();
	if (cua_state_save(&sf, saved) < 0)
		abort();
	cua_state_close(&sf);

	/* what was saved loads again */
	s2 = new_session();
	if (cua_session_load_state(s2, saved) != CUA_OK) {
		fprintf(stderr, "saved state does not load: %s\n%s\n",
			cua_error_message(), saved);
		abort();
	}
	cua_session_unref(s2);
	cua_free(saved);
	cua_session_unref(s);
	return 0;
}
