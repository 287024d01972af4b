/*
 * cua-mcp: the eight actions, each one call of libcua's action API on the
 * frozen target (`pid:N`), and the receipt's structured content
 * (docs/tools.md §6). libcua runs the staleness guards, re-resolves elements in
 * the live tree and proves that input reaches the target; its error
 * sentences are the catalogue's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"

static uint32_t
button_of(const char *name)
{
	if (strcmp(name, "right") == 0)
		return CUA_BUTTON_RIGHT;
	if (strcmp(name, "middle") == 0)
		return CUA_BUTTON_MIDDLE;
	return CUA_BUTTON_LEFT;
}

static uint32_t
selection_of(const char *name)
{
	if (strcmp(name, "cursor_before") == 0)
		return CUA_SELECTION_CURSOR_BEFORE;
	if (strcmp(name, "cursor_after") == 0)
		return CUA_SELECTION_CURSOR_AFTER;
	return CUA_SELECTION_TEXT;
}

int
action_run(struct job *job, const struct target *t, const struct call_args *a,
	   struct action_outcome *out, struct mcp_error *err)
{
	cua_session *s = session_get(err);
	const char *app = t->query, *tool = a->tool;
	char *outcome = NULL;
	cua_result r;

	memset(out, 0, sizeof(*out));
	if (!s)
		return -1;
	if (strcmp(tool, "click") == 0) {
		if (a->has_element)
			r = cua_session_click(
				s, app, a->element, button_of(a->button),
				(uint32_t)a->click_count, &outcome);
		else
			r = cua_session_click_at(
				s, app, a->x, a->y, button_of(a->button),
				(uint32_t)a->click_count, &outcome);
	} else if (strcmp(tool, "perform_secondary_action") == 0) {
		r = cua_session_perform_action(s, app, a->element, a->action,
					       &outcome);
	} else if (strcmp(tool, "set_value") == 0) {
		r = cua_session_set_value(s, app, a->element, a->value,
					  &outcome);
	} else if (strcmp(tool, "select_text") == 0) {
		r = cua_session_select_text(
			s, app, a->element, a->text, a->prefix, a->suffix,
			selection_of(a->selection), &outcome);
	} else if (strcmp(tool, "scroll") == 0) {
		if (a->has_element)
			r = cua_session_scroll(s, app, a->element, a->direction,
					       a->pages, &outcome);
		else
			r = cua_session_scroll_at(s, app, a->x, a->y,
						  a->direction, a->pages,
						  &outcome);
	} else if (strcmp(tool, "drag") == 0) {
		r = cua_session_drag(s, app, a->from_x, a->from_y, a->to_x,
				     a->to_y, &outcome);
	} else if (strcmp(tool, "press_key") == 0) {
		r = cua_session_press_key(s, app, a->key, &outcome);
	} else if (strcmp(tool, "type_text") == 0) {
		r = cua_session_type_text(s, app, a->text, &outcome);
	} else {
		return mcp_fail(err, E_INTERNAL, "%s is not an action.", tool);
	}
	if (r != CUA_OK) {
		cua_free(outcome);
		mcp_fail_library(err, r);
		mcp_error_rename(err, app, a->app);
		return -1;
	}
	out->structured = outcome ? json_loads(outcome, 0, NULL) : NULL;
	cua_free(outcome);
	if (!json_is_object(out->structured)) {
		json_decref(out->structured);
		out->structured = json_pack("{s:s}", "tool", tool);
	}
	if (!json_object_get(out->structured, "schema"))
		json_object_set_new(out->structured, "schema",
				    json_string("libcua.action/1"));
	return 0;
}
