/*
 * Fuzzes the recorded-tree loader (`libcua.recording/1`), the walk, the
 * renderer, the recorder and the diff: the input is a recording. It is
 * loaded and observed, rendered as text and JSON, recorded back (what the
 * recorder writes must load, and replay as the same text), then observed
 * twice more in the same session: unchanged (the diff must be empty) and
 * after one edit of the recording chosen from the input (a state, a
 * name, a removed or duplicated node, the focus), each rendered as a
 * diff. Last, one action on an element finds it again in the recording
 * (actuation itself fails: a recording cannot be acted on).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <inttypes.h>
#include <jansson.h>

#include <cua/cua.h>

#include "backend/backend.h"
#include "core/session.h"
#include "fuzz-common.h"

#define MAX_NODES 4096

struct node_ref {
	json_t *node;
	json_t *parent_children; /* NULL for the root */
	size_t index;
};

static void
collect(json_t *node, json_t *parent_children, size_t index,
	struct node_ref *refs, size_t *n, int depth)
{
	json_t *kids, *kid;
	size_t i;

	if (!json_is_object(node) || *n >= MAX_NODES || depth > 300)
		return;
	refs[*n].node = node;
	refs[*n].parent_children = parent_children;
	refs[*n].index = index;
	(*n)++;
	kids = json_object_get(node, "children");
	json_array_foreach(kids, i, kid)
		collect(kid, kids, i, refs, n, depth + 1);
}

/* Toggles one state nick in a node's "states". */
static void
toggle_state(json_t *node, const char *nick)
{
	json_t *states = json_object_get(node, "states"), *v;
	size_t i;

	if (!states) {
		json_object_set_new(node, "states", json_pack("[s]", nick));
		return;
	}
	if (!json_is_array(states))
		return;
	json_array_foreach(states, i,
			   v) if (json_is_string(v) &&
				  strcmp(json_string_value(v), nick) == 0)
	{
		json_array_remove(states, i);
		return;
	}
	json_array_append_new(states, json_string(nick));
}

/* The recording with one edit chosen by `h`, serialised, or NULL. */
static char *
edited(const uint8_t *data, size_t size, uint32_t h)
{
	json_t *top = json_loadb((const char *)data, size, 0, NULL);
	struct node_ref *refs;
	struct node_ref *r;
	const char *name;
	char *out = NULL, buf[300];
	size_t n = 0;

	if (!json_is_object(top)) {
		json_decref(top);
		return NULL;
	}
	refs = calloc(MAX_NODES, sizeof(*refs));
	if (!refs)
		abort();
	collect(json_object_get(top, "root"), NULL, 0, refs, &n, 0);
	if (n == 0)
		goto out;
	r = &refs[h % n];
	switch ((h >> 16) % 6) {
	case 0:
		toggle_state(r->node, "checked");
		break;
	case 1:
		name = json_string_value(json_object_get(r->node, "name"));
		snprintf(buf, sizeof(buf), "%.200s (edited)", name ? name : "");
		json_object_set_new(r->node, "name", json_string(buf));
		break;
	case 2:
		if (r->parent_children)
			json_array_remove(r->parent_children, r->index);
		else
			toggle_state(r->node, "showing");
		break;
	case 3:
		if (r->parent_children)
			json_array_append_new(r->parent_children,
					      json_deep_copy(r->node));
		else
			toggle_state(r->node, "focused");
		break;
	case 4:
		toggle_state(r->node, "focused");
		if (json_is_string(json_object_get(r->node, "id")))
			json_object_set(top, "focused",
					json_object_get(r->node, "id"));
		break;
	default:
		json_object_set_new(r->node, "text",
				    json_string("edited text"));
		toggle_state(r->node, "selected");
		break;
	}
	out = json_dumps(top, JSON_COMPACT);
out:
	free(refs);
	json_decref(top);
	return out;
}

static void
render_all(cua_tree *t)
{
	static const uint32_t flags[] = {
		0,
		CUA_RENDER_DIFF,
		CUA_RENDER_DIFF | CUA_DIFF_REMOVED_LINES,
		CUA_RENDER_DIFF | CUA_DIFF_IGNORE_LINE_BUDGET,
	};
	cua_tree_diff *d = NULL;
	char *text = NULL;

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (cua_tree_render(t, flags[i], &text) == CUA_OK)
			cua_free(text);
		text = NULL;
	}
	if (cua_tree_to_json(t, CUA_RENDER_DIFF, &text) == CUA_OK)
		cua_free(text);
	text = NULL;
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (cua_tree_find_element(t, cua_element_get_id(e)) != e)
			abort();
	}
	(void)cua_tree_get_focused(t);
	if (cua_tree_get_diff(t, &d) == CUA_OK) {
		if (cua_tree_diff_render(d, 0, &text) == CUA_OK)
			cua_free(text);
		cua_tree_diff_unref(d);
	}
}

/* One action on an element chosen by `h`: the element is found again in
 * the recording (re-resolution), then actuation fails, since a recording
 * cannot be acted on. */
static void
act(cua_session *s, const char *app, cua_tree *t, uint32_t h)
{
	size_t n = cua_tree_get_element_count(t);
	char *outcome = NULL;
	uint32_t id;

	if (n == 0)
		return;
	id = cua_element_get_id(cua_tree_get_element(t, h % n));
	switch ((h >> 8) % 5) {
	case 0:
		(void)cua_session_click(s, app, id, CUA_BUTTON_LEFT, 1,
					&outcome);
		break;
	case 1:
		(void)cua_session_set_value(s, app, id, "42", &outcome);
		break;
	case 2:
		(void)cua_session_perform_action(s, app, id, "Expand",
						 &outcome);
		break;
	case 3:
		(void)cua_session_select_text(s, app, id, "e", NULL, NULL,
					      CUA_SELECTION_TEXT, &outcome);
		break;
	default:
		(void)cua_session_scroll(s, app, id, "down", 1, &outcome);
		break;
	}
	cua_free(outcome);
}

/* The recording at `path`, replayed in a new session, renders as t. */
static void
same_text(cua_tree *t, const char *app, const char *path)
{
	cua_session *s = NULL;
	cua_tree *t2 = NULL;
	char *a = NULL, *b = NULL;

	if (cua_session_new_recorded(&s, path, 0) != CUA_OK ||
	    cua_session_set_option(s, "warmup_cap_ms", "0") != CUA_OK ||
	    cua_session_observe(
		    s, app, CUA_OBSERVE_NO_SCREENSHOT | CUA_OBSERVE_NO_LAUNCH,
		    &t2) != CUA_OK ||
	    cua_tree_render(t, 0, &a) != CUA_OK ||
	    cua_tree_render(t2, 0, &b) != CUA_OK) {
		fprintf(stderr, "a written recording does not replay: %s\n",
			cua_error_message());
		abort();
	}
	if (strcmp(a, b) != 0) {
		fprintf(stderr,
			"a written recording replays differently:\n"
			"%s\n---\n%s\n",
			a, b);
		abort();
	}
	cua_free(a);
	cua_free(b);
	cua_tree_unref(t2);
	cua_session_unref(s);
}

/* Replaces the recording by `json` and observes; NULL on failure. */
static cua_tree *
next(cua_session *s, const char *app, const char *path, const char *json)
{
	cua_tree *t = NULL;

	fuzz_write(path, json, strlen(json));
	if (cua_backend_recorded_replace(s->backend, path) != CUA_OK)
		return NULL;
	if (cua_session_observe(
		    s, app, CUA_OBSERVE_NO_SCREENSHOT | CUA_OBSERVE_NO_LAUNCH,
		    &t) != CUA_OK)
		return NULL;
	render_all(t);
	return t;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_private_home();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_path("recording.json"), *json = NULL, *rec = NULL;
	struct cua_app_list *apps = NULL;
	cua_session *s = NULL;
	cua_tree *t1 = NULL, *t2 = NULL, *t3 = NULL;
	cua_tree_diff *d = NULL;
	char app[64], *text = NULL;

	fuzz_write(path, data, size);
	if (cua_session_new_recorded(&s, path, 0) != CUA_OK)
		goto out;
	cua_session_set_log_level(s, CUA_LOG_ERROR);
	/* a recording never changes: no warm-up sampling */
	if (cua_session_set_option(s, "warmup_cap_ms", "0") != CUA_OK)
		abort();
	if (cua_session_list_apps(s, CUA_FORMAT_JSON, &text) == CUA_OK)
		cua_free(text);
	text = NULL;
	if (s->backend->ops->list_apps(s->backend, &apps) != CUA_OK ||
	    apps->n == 0)
		goto out;
	snprintf(app, sizeof(app), "pid:%" PRId64, apps->apps[0].pid);
	if (cua_session_resolve_app(s, app, 0, &text) == CUA_OK)
		cua_free(text);
	text = NULL;
	if (cua_session_observe(
		    s, app, CUA_OBSERVE_NO_SCREENSHOT | CUA_OBSERVE_NO_LAUNCH,
		    &t1) != CUA_OK)
		goto out;
	render_all(t1);

	/* what the recorder writes loads again */
	if (cua_session_record(s, app, 0, &rec) == CUA_OK) {
		char *path2 = fuzz_path("recorded.json");
		struct cua_backend *b = NULL;
		struct cua_ctx ctx = { .log_level = CUA_LOG_ERROR };

		fuzz_write(path2, rec, strlen(rec));
		if (cua_backend_recorded_new(&ctx, path2, &b) != CUA_OK) {
			fprintf(stderr,
				"a written recording does not load: %s\n%s\n",
				cua_error_message(), rec);
			abort();
		}
		b->ops->destroy(b);
		same_text(t1, app, path2);
		free(path2);
		cua_free(rec);
	}

	/* the same recording again: nothing changed */
	{
		char *same = fuzz_strndup(data, size);

		t2 = next(s, app, path, same);
		free(same);
		if (t2 && cua_tree_get_diff(t2, &d) == CUA_OK) {
			if (!cua_tree_diff_is_empty(d)) {
				fprintf(stderr, "the same recording observed "
						"again is not an empty diff\n");
				abort();
			}
			d = cua_tree_diff_unref(d);
		}
	}
	json = edited(data, size, fuzz_hash(data, size));
	if (json && t2)
		t3 = next(s, app, path, json);
	if (t3)
		act(s, app, t3, fuzz_hash(data, size) >> 3);
	if (t3 && cua_tree_diff_new(t1, t3, 0, &d) == CUA_OK) {
		const uint32_t *ids;

		(void)cua_tree_diff_get_changed(d, &ids);
		(void)cua_tree_diff_get_added(d, &ids);
		(void)cua_tree_diff_get_removed(d, &ids);
		(void)cua_tree_diff_is_empty(d);
		if (cua_tree_diff_render(d, CUA_DIFF_REMOVED_LINES, &text) ==
		    CUA_OK)
			cua_free(text);
		cua_tree_diff_unref(d);
	}
out:
	free(json);
	cua_tree_unref(t3);
	cua_tree_unref(t2);
	cua_tree_unref(t1);
	cua_app_list_free(apps);
	cua_session_unref(s);
	free(path);
	return 0;
}
