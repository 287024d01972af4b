/*
 * press_key (docs/actions.md §7): the whole argument is parsed, then sent to
 * the target window after input acceptance.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "common.h"

cua_result
cua_do_press_key(struct cua_session *s, const char *app, const char *key,
		 char **outcome)
{
	struct cua_act a;
	struct act_target_window tw = { 0 };
	struct cua_key_seq seq = { NULL, 0 };
	cua_result r;

	if (!key || !*key)
		return cua_err(CUA_MSG_MISSING_ARG, { "arg", "key" });
	r = cua_act_begin(&a, s, "press_key", app);
	if (r != CUA_OK)
		goto out;
	/* the whole argument is parsed before anything is pressed */
	r = cua_keys_parse(key, 0, &seq);
	if (r != CUA_OK)
		goto out;
	if (a.app->bus_name) {
		r = act_find_target_window(&a, &tw);
		if (r != CUA_OK)
			goto out;
	}
	r = act_keyboard_ready_for(&a, &tw);
	if (r == CUA_OK)
		r = act_send_keys(&a, seq.chords, seq.n);
	if (r == CUA_OK) {
		json_t *names = json_array();

		cua_act_route(&a, "keys");
		for (size_t i = 0; i < seq.n; i++)
			json_array_append_new(names,
					      json_string(cua_keysym_name(
						      seq.chords[i].keysym)));
		json_object_set_new(a.outcome, "keys", names);
	}
out:
	cua_keys_free(&seq);
	cua_raw_snapshot_free(tw.snap);
	return act_finish(&a, r, outcome);
}
