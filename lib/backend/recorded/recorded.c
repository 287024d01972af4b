/*
 * The recorded backend: replays a raw tree saved as JSON, for unit tests
 * and for replaying a tree recorded from a real app (`cua record`). This
 * file holds the loader and the backend ops; record.c writes the format.
 *
 * Format `libcua.recording/1`
 * ===========================
 * One JSON object. Every key is optional except "schema", "root" and a
 * node's "role". Unknown keys are errors (typos must not pass silently);
 * a "comment" key is allowed, and ignored, in every object.
 *
 *   "schema"   "libcua.recording/1"
 *   "app"      the process (struct cua_app_info):
 *                pid (default 4194304, above any Linux pid), start_time (0),
 *                exe, exe_base (default: basename of exe), bus_name
 *                (default "recorded"), atspi_name (default: the root's
 *                name), desktop_id, desktop_file, desktop_name,
 *                desktop_name_c, wm_class_class, wm_class_instance,
 *                app_id and app_name (default: atspi_name, else
 *                "recorded"), toolkit, toolkit_version: strings;
 *                frontmost: bool (default: some window is active).
 *   "windows"  window-system facts, parallel to root.children (it may be
 *              shorter; missing entries are all zero):
 *                x11_window (0 = not matched), active (false), mapped
 *                (default: x11_window != 0), title, frame [x, y, w, h]
 *                (absent = no frame), activation (serial, 0).
 *   "focused"  the "id" of the focused node, or null.
 *   "root"     the application node; its children are the toplevels.
 *
 * A node:
 *   "id"          object identity (string), or null for a synthetic node.
 *                 Absent: "rec:<path>", the path being the absolute child
 *                 indices from the root ("rec:/" for the root,
 *                 "rec:/0/3/1"), so ids are stable across recordings.
 *   "role"        AT-SPI role name ("push button"), or its number.
 *   "name"        string or null.
 *   "states"      AT-SPI state nicks, libatspi spelling ("showing",
 *                 "multi-line", "manages-descendants", "read-only"), or
 *                 bit numbers 0..63.
 *   "interfaces"  "Action", "Component", "Text", "EditableText", "Value",
 *                 "Selection", "Table", "TableCell", "Hypertext",
 *                 "Hyperlink", "Document", "Image", "Collection". Absent:
 *                 inferred from the keys present: extents → Component,
 *                 value → Value, text or selection → Text, text with
 *                 state "editable" → EditableText, non-empty actions →
 *                 Action, link_uri → Hyperlink, selected_child_name →
 *                 Selection, table_row → TableCell.
 *   "description", "help", "accessible_id", "labelled_by" (name of the
 *                 LABELLED_BY target): string or null.
 *   "attributes"  { "key": "value" or null, … }.
 *   "actions"     [ "click", { "name", "localized", "description" }, … ].
 *   "value"       { "current", "min", "max", "step": number, or "nan",
 *                 "inf", "-inf"; "text": string or null } (absent: 0/null).
 *   "text"        string or null.
 *   "selection"   text selection [start, end].
 *   "extents"     [x, y, w, h], screen coordinates.
 *   "link_uri", "selected_child_name": string or null.
 *   "table_row"   integer.
 *   "children"    array of nodes: children[i] is child child_offset + i.
 *   "child_count" reported child count (default: child_offset + the
 *                 number of children); larger means only a range was read.
 *   "child_offset" absolute index of the first recorded child (0).
 *   "children_partial" bool (default: the children do not cover
 *                 0 .. child_count).
 *   "unread"      pieces that were not read, overriding the rules below:
 *                 "basic", "description", "help", "accessible_id",
 *                 "attributes", "actions", "labelled_by", "children", or
 *                 any key of the second group.
 *
 * What was read (the `have` bits): a recording says what it knows.
 * - Absent means "read, empty" for the basic fields (role, name, states,
 *   interfaces) and for description, help, accessible_id, attributes,
 *   actions and labelled_by: a hand-written node does not have to spell
 *   out that it has no description.
 * - Absent means "not read" for extents, value, text, selection, link_uri,
 *   selected_child_name and table_row: their zero values would be
 *   claims (a 0x0 extent, a value of 0). A key present with null (or any
 *   value) means read.
 * - Absent "children" means read (no children) when child_count is 0,
 *   and not read otherwise.
 * The writer (record.c) uses these rules and "unread" to round-trip every
 * bit exactly.
 *
 * Replay, mirroring the AT-SPI reader (atspi/fetch.c):
 * - open_app() copies the application node and the toplevels (their basic
 *   fields and extents), and the windows.
 * - fetch() copies the recorded subtrees of the requested toplevels
 *   breadth first (toplevels are depth 0). For each node with basic
 *   fields and without state DEFUNCT it asks policy->details() and copies
 *   the pieces both asked for and recorded, then policy->descend(); the
 *   children are copied when the node is above max_raw_depth (<= 0: 64),
 *   descend() agrees and the recording has them. Node creation stops at
 *   max_nodes nodes in the snapshot (stats.node_cap_hit) or at the
 *   deadline (stats.deadline_hit); the cut child list is partial.
 *   The focused node is a fetched node with state FOCUSED (a later root
 *   first), else the recording's "focused" (focused_ident set, focused
 *   the node when it was fetched); its text selection is copied even if
 *   not asked for. No D-Bus: stats.calls stays 0. A NULL policy reads
 *   everything.
 *
 * Limits: files up to 256 MiB, nodes nested up to 256 levels.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "backend/backend.h"
#include "backend/recorded/recording.h"
#include "core/roles.h"

#define REC_MAX_BYTES ((size_t)256 << 20)
#define REC_DEFAULT_PID 4194304 /* PID_MAX_LIMIT: no Linux process has it */
#define REC_PATH_MAX 4096       /* 256 levels of "/2147483647" fit */

const char *const cua_rec_state_nicks[CUA_STATE_COUNT] = {
	[0] = "invalid",
	[CUA_STATE_ACTIVE] = "active",
	[CUA_STATE_ARMED] = "armed",
	[CUA_STATE_BUSY] = "busy",
	[CUA_STATE_CHECKED] = "checked",
	[CUA_STATE_COLLAPSED] = "collapsed",
	[CUA_STATE_DEFUNCT] = "defunct",
	[CUA_STATE_EDITABLE] = "editable",
	[CUA_STATE_ENABLED] = "enabled",
	[CUA_STATE_EXPANDABLE] = "expandable",
	[CUA_STATE_EXPANDED] = "expanded",
	[CUA_STATE_FOCUSABLE] = "focusable",
	[CUA_STATE_FOCUSED] = "focused",
	[CUA_STATE_HAS_TOOLTIP] = "has-tooltip",
	[CUA_STATE_HORIZONTAL] = "horizontal",
	[CUA_STATE_ICONIFIED] = "iconified",
	[CUA_STATE_MODAL] = "modal",
	[CUA_STATE_MULTI_LINE] = "multi-line",
	[CUA_STATE_MULTISELECTABLE] = "multiselectable",
	[CUA_STATE_OPAQUE] = "opaque",
	[CUA_STATE_PRESSED] = "pressed",
	[CUA_STATE_RESIZABLE] = "resizable",
	[CUA_STATE_SELECTABLE] = "selectable",
	[CUA_STATE_SELECTED] = "selected",
	[CUA_STATE_SENSITIVE] = "sensitive",
	[CUA_STATE_SHOWING] = "showing",
	[CUA_STATE_SINGLE_LINE] = "single-line",
	[CUA_STATE_STALE] = "stale",
	[CUA_STATE_TRANSIENT] = "transient",
	[CUA_STATE_VERTICAL] = "vertical",
	[CUA_STATE_VISIBLE] = "visible",
	[CUA_STATE_MANAGES_DESCENDANTS] = "manages-descendants",
	[CUA_STATE_INDETERMINATE] = "indeterminate",
	[CUA_STATE_REQUIRED] = "required",
	[CUA_STATE_TRUNCATED] = "truncated",
	[CUA_STATE_ANIMATED] = "animated",
	[CUA_STATE_INVALID_ENTRY] = "invalid-entry",
	[CUA_STATE_SUPPORTS_AUTOCOMPLETION] = "supports-autocompletion",
	[CUA_STATE_SELECTABLE_TEXT] = "selectable-text",
	[CUA_STATE_IS_DEFAULT] = "is-default",
	[CUA_STATE_VISITED] = "visited",
	[CUA_STATE_CHECKABLE] = "checkable",
	[CUA_STATE_HAS_POPUP] = "has-popup",
	[CUA_STATE_READ_ONLY] = "read-only",
};

const char *const cua_rec_iface_names[CUA_REC_N_IFACES] = {
	"Action", "Component", "Text", "EditableText", "Value", "Selection",
	"Table", "TableCell", "Hypertext", "Hyperlink", "Document", "Image",
	"Collection",
};

const struct cua_rec_piece cua_rec_pieces[CUA_REC_N_PIECES] = {
	{ CUA_HAVE_BASIC, "basic" },
	{ CUA_HAVE_DESCRIPTION, "description" },
	{ CUA_HAVE_HELP, "help" },
	{ CUA_HAVE_ID, "accessible_id" },
	{ CUA_HAVE_ATTRIBUTES, "attributes" },
	{ CUA_HAVE_ACTIONS, "actions" },
	{ CUA_HAVE_RELATIONS, "labelled_by" },
	{ CUA_HAVE_CHILDREN, "children" },
	{ CUA_HAVE_EXTENTS, "extents" },
	{ CUA_HAVE_VALUE, "value" },
	{ CUA_HAVE_TEXT, "text" },
	{ CUA_HAVE_TEXT_SELECTION, "selection" },
	{ CUA_HAVE_LINK, "link_uri" },
	{ CUA_HAVE_SELECTION, "selected_child_name" },
	{ CUA_HAVE_TABLE_ROW, "table_row" },
};

#define NODE_STR(key, bit, field) \
	{ key, bit, offsetof(struct cua_raw_node, field) }
const struct cua_rec_string cua_rec_node_strings[CUA_REC_N_NODE_STRINGS] = {
	NODE_STR("name", CUA_HAVE_BASIC, name),
	NODE_STR("description", CUA_HAVE_DESCRIPTION, description),
	NODE_STR("help", CUA_HAVE_HELP, help),
	NODE_STR("accessible_id", CUA_HAVE_ID, accessible_id),
	NODE_STR("text", CUA_HAVE_TEXT, text),
	NODE_STR("labelled_by", CUA_HAVE_RELATIONS, labelled_by),
	NODE_STR("link_uri", CUA_HAVE_LINK, link_uri),
	NODE_STR("selected_child_name", CUA_HAVE_SELECTION,
		 selected_child_name),
};

#define APP_STR(field) { #field, 0, offsetof(struct cua_app_info, field) }
const struct cua_rec_string cua_rec_app_strings[CUA_REC_N_APP_STRINGS] = {
	APP_STR(exe), APP_STR(exe_base), APP_STR(bus_name),
	APP_STR(atspi_name), APP_STR(desktop_id), APP_STR(desktop_file),
	APP_STR(desktop_name), APP_STR(desktop_name_c),
	APP_STR(wm_class_class), APP_STR(wm_class_instance), APP_STR(app_id),
	APP_STR(app_name), APP_STR(toolkit), APP_STR(toolkit_version),
};

#define FIELD(base, off) (*(const char **)((char *)(base) + (off)))

struct rec_backend {
	struct cua_backend base;
	struct cua_raw_snapshot *rec; /* the whole recording */
	struct cua_app_info app;      /* strings in rec->arena */
};

/* ------------------------------------------------------------------ */
/* Loading                                                             */

struct loader {
	const char *file;
	struct cua_raw_snapshot *rec;
	const char *what;        /* "app", "windows[2]"; NULL = node at path */
	char path[REC_PATH_MAX]; /* "/0/3" ("" = the root) */
	size_t path_len;
	char what_buf[64];
	int oom; /* the error is CUA_ERROR_NOMEM, whatever callers return */
};

static cua_result
lerr(struct loader *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static cua_result
lerr(struct loader *l, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (l->what)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recording %s: %s: %s", l->file, l->what, msg);
	return cua_error(CUA_ERROR_INVALID_ARGUMENT,
			 "recording %s: node %s: %s", l->file,
			 l->path_len ? l->path : "/", msg);
}

static cua_result
lnomem(struct loader *l)
{
	l->oom = 1;
	return cua_error(CUA_ERROR_NOMEM, "recording %s: out of memory",
			 l->file);
}

/* Unknown keys are errors; `name` names a nested object (NULL = the
 * object of l->what / the node itself). */
static cua_result
check_keys(struct loader *l, const char *name, json_t *obj,
	   const char *const *known)
{
	const char *key;
	json_t *v;
	size_t i;

	if (!json_is_object(obj))
		return name ? lerr(l, "\"%s\" must be an object", name)
			    : lerr(l, "must be an object");
	json_object_foreach(obj, key, v) {
		if (strcmp(key, "comment") == 0)
			continue;
		for (i = 0; known[i]; i++)
			if (strcmp(key, known[i]) == 0)
				break;
		if (known[i])
			continue;
		if (name)
			return lerr(l, "\"%s\": unknown key \"%s\"", name, key);
		return lerr(l, "unknown key \"%s\"", key);
	}
	return CUA_OK;
}

static cua_result
get_str(struct loader *l, const char *key, json_t *v, const char **out)
{
	if (json_is_null(v)) {
		*out = NULL;
		return CUA_OK;
	}
	if (!json_is_string(v))
		return lerr(l, "\"%s\" must be a string or null", key);
	*out = cua_arena_strdup(l->rec->arena, json_string_value(v));
	return *out ? CUA_OK : lnomem(l);
}

static cua_result
get_int(struct loader *l, const char *key, json_t *v, int64_t min,
	int64_t max, int64_t *out)
{
	if (!json_is_integer(v))
		return lerr(l, "\"%s\" must be an integer", key);
	if (json_integer_value(v) < min || json_integer_value(v) > max)
		return lerr(l, "\"%s\" must be from %lld to %lld", key,
			    (long long)min, (long long)max);
	*out = json_integer_value(v);
	return CUA_OK;
}

static cua_result
get_int32(struct loader *l, const char *key, json_t *v, int32_t *out)
{
	int64_t x = 0;

	if (get_int(l, key, v, INT32_MIN, INT32_MAX, &x))
		return CUA_ERROR_INVALID_ARGUMENT;
	*out = (int32_t)x;
	return CUA_OK;
}

/* 64-bit unsigned values (X11 ids, start times, serials); values above
 * 2^63 travel as their two's complement. */
static cua_result
get_u64(struct loader *l, const char *key, json_t *v, uint64_t *out)
{
	if (!json_is_integer(v))
		return lerr(l, "\"%s\" must be an integer", key);
	*out = (uint64_t)json_integer_value(v);
	return CUA_OK;
}

static cua_result
get_bool(struct loader *l, const char *key, json_t *v, int *out)
{
	if (!json_is_boolean(v))
		return lerr(l, "\"%s\" must be true or false", key);
	*out = json_is_true(v);
	return CUA_OK;
}

static cua_result
get_num(struct loader *l, const char *key, json_t *v, double *out)
{
	const char *s = json_string_value(v);

	if (json_is_number(v))
		*out = json_number_value(v);
	else if (s && strcmp(s, "nan") == 0)
		*out = NAN;
	else if (s && strcmp(s, "inf") == 0)
		*out = INFINITY;
	else if (s && strcmp(s, "-inf") == 0)
		*out = -INFINITY;
	else
		return lerr(l, "\"%s\" must be a number, \"nan\", \"inf\" or \"-inf\"",
			    key);
	return CUA_OK;
}

static cua_result
get_rect(struct loader *l, const char *key, json_t *v, struct cua_rect *out)
{
	int32_t f[4];
	size_t i;

	if (!json_is_array(v) || json_array_size(v) != 4)
		return lerr(l, "\"%s\" must be [x, y, width, height]", key);
	for (i = 0; i < 4; i++)
		if (get_int32(l, key, json_array_get(v, i), &f[i]))
			return CUA_ERROR_INVALID_ARGUMENT;
	out->x = f[0];
	out->y = f[1];
	out->w = f[2];
	out->h = f[3];
	return CUA_OK;
}

static cua_result
parse_role(struct loader *l, json_t *v, uint32_t *role)
{
	int64_t x = 0;
	int r;

	if (!v)
		return lerr(l, "\"role\" is missing");
	if (json_is_integer(v)) {
		if (get_int(l, "role", v, 0, UINT32_MAX, &x))
			return CUA_ERROR_INVALID_ARGUMENT;
		*role = (uint32_t)x;
		return CUA_OK;
	}
	if (!json_is_string(v))
		return lerr(l, "\"role\" must be an AT-SPI role name");
	r = cua_role_from_name(json_string_value(v));
	if (r < 0)
		return lerr(l, "unknown role \"%s\"", json_string_value(v));
	*role = (uint32_t)r;
	return CUA_OK;
}

static cua_result
parse_states(struct loader *l, json_t *v, uint64_t *states)
{
	json_t *s;
	size_t i;
	int64_t bit;
	int b;

	if (!json_is_array(v))
		return lerr(l, "\"states\" must be an array");
	json_array_foreach(v, i, s) {
		if (json_is_integer(s)) {
			if (get_int(l, "states", s, 0, 63, &bit))
				return CUA_ERROR_INVALID_ARGUMENT;
			*states |= UINT64_C(1) << bit;
			continue;
		}
		if (!json_is_string(s))
			return lerr(l, "\"states\" must hold state names");
		for (b = 0; b < CUA_STATE_COUNT; b++)
			if (strcmp(cua_rec_state_nicks[b],
				   json_string_value(s)) == 0)
				break;
		if (b == CUA_STATE_COUNT)
			return lerr(l, "unknown state \"%s\"",
				    json_string_value(s));
		*states |= UINT64_C(1) << b;
	}
	return CUA_OK;
}

static cua_result
parse_ifaces(struct loader *l, json_t *v, uint32_t *ifaces)
{
	json_t *s;
	size_t i;
	int b;

	if (!json_is_array(v))
		return lerr(l, "\"interfaces\" must be an array");
	json_array_foreach(v, i, s) {
		if (!json_is_string(s))
			return lerr(l, "\"interfaces\" must hold interface names");
		for (b = 0; b < CUA_REC_N_IFACES; b++)
			if (strcmp(cua_rec_iface_names[b],
				   json_string_value(s)) == 0)
				break;
		if (b == CUA_REC_N_IFACES)
			return lerr(l, "unknown interface \"%s\"",
				    json_string_value(s));
		*ifaces |= 1u << b;
	}
	return CUA_OK;
}

static cua_result
parse_unread(struct loader *l, json_t *v, uint32_t *have)
{
	json_t *s;
	size_t i;
	int p;

	if (!json_is_array(v))
		return lerr(l, "\"unread\" must be an array");
	json_array_foreach(v, i, s) {
		for (p = 0; p < CUA_REC_N_PIECES; p++)
			if (json_is_string(s) &&
			    strcmp(cua_rec_pieces[p].key,
				   json_string_value(s)) == 0)
				break;
		if (p == CUA_REC_N_PIECES)
			return lerr(l, "\"unread\": unknown piece %s",
				    json_is_string(s) ? json_string_value(s)
						      : "(not a string)");
		*have &= ~cua_rec_pieces[p].bit;
	}
	return CUA_OK;
}

static cua_result
parse_attributes(struct loader *l, json_t *v, struct cua_raw_node *n)
{
	const char *key;
	json_t *x;
	size_t i = 0;

	if (!json_is_object(v))
		return lerr(l, "\"attributes\" must be an object");
	if (json_object_size(v) == 0)
		return CUA_OK;
	n->attrs = cua_arena_alloc(l->rec->arena,
				   json_object_size(v) * sizeof(*n->attrs));
	if (!n->attrs)
		return lnomem(l);
	json_object_foreach(v, key, x) {
		n->attrs[i].key = cua_arena_strdup(l->rec->arena, key);
		if (!n->attrs[i].key)
			return lnomem(l);
		if (get_str(l, "attributes", x, &n->attrs[i].value))
			return CUA_ERROR_INVALID_ARGUMENT;
		i++;
	}
	n->n_attrs = i;
	return CUA_OK;
}

static cua_result
parse_actions(struct loader *l, json_t *v, struct cua_raw_node *n)
{
	static const char *const keys[] = { "name", "localized",
					    "description", NULL };
	struct cua_raw_action *a;
	json_t *x, *f;
	size_t i;

	if (!json_is_array(v))
		return lerr(l, "\"actions\" must be an array");
	if (json_array_size(v) == 0)
		return CUA_OK;
	n->actions = cua_arena_alloc(l->rec->arena,
				     json_array_size(v) * sizeof(*n->actions));
	if (!n->actions)
		return lnomem(l);
	json_array_foreach(v, i, x) {
		a = &n->actions[i];
		if (json_is_string(x)) {
			if (get_str(l, "actions", x, &a->name))
				return CUA_ERROR_INVALID_ARGUMENT;
			continue;
		}
		if (!json_is_object(x))
			return lerr(l, "\"actions\" must hold names or {name, localized, description}");
		if (check_keys(l, "actions", x, keys))
			return CUA_ERROR_INVALID_ARGUMENT;
		if (((f = json_object_get(x, "name")) &&
		     get_str(l, "name", f, &a->name)) ||
		    ((f = json_object_get(x, "localized")) &&
		     get_str(l, "localized", f, &a->localized)) ||
		    ((f = json_object_get(x, "description")) &&
		     get_str(l, "description", f, &a->description)))
			return CUA_ERROR_INVALID_ARGUMENT;
	}
	n->n_actions = json_array_size(v);
	return CUA_OK;
}

static cua_result
parse_value(struct loader *l, json_t *v, struct cua_raw_node *n)
{
	static const char *const keys[] = { "current", "min", "max", "step",
					    "text", NULL };
	json_t *f;

	if (check_keys(l, "value", v, keys))
		return CUA_ERROR_INVALID_ARGUMENT;
	if (((f = json_object_get(v, "current")) &&
	     get_num(l, "current", f, &n->value)) ||
	    ((f = json_object_get(v, "min")) &&
	     get_num(l, "min", f, &n->value_min)) ||
	    ((f = json_object_get(v, "max")) &&
	     get_num(l, "max", f, &n->value_max)) ||
	    ((f = json_object_get(v, "step")) &&
	     get_num(l, "step", f, &n->value_step)) ||
	    ((f = json_object_get(v, "text")) &&
	     get_str(l, "text", f, &n->value_text)))
		return CUA_ERROR_INVALID_ARGUMENT;
	return CUA_OK;
}

static uint32_t
infer_ifaces(const struct cua_raw_node *n, uint32_t keys)
{
	uint32_t ifaces = 0;

	if (keys & CUA_HAVE_EXTENTS)
		ifaces |= CUA_IFACE_COMPONENT;
	if (keys & CUA_HAVE_VALUE)
		ifaces |= CUA_IFACE_VALUE;
	if (keys & (CUA_HAVE_TEXT | CUA_HAVE_TEXT_SELECTION))
		ifaces |= CUA_IFACE_TEXT;
	if ((keys & CUA_HAVE_TEXT) && CUA_HAS_STATE(n, CUA_STATE_EDITABLE))
		ifaces |= CUA_IFACE_EDITABLE_TEXT;
	if (n->n_actions)
		ifaces |= CUA_IFACE_ACTION;
	if (keys & CUA_HAVE_LINK)
		ifaces |= CUA_IFACE_HYPERLINK;
	if (keys & CUA_HAVE_SELECTION)
		ifaces |= CUA_IFACE_SELECTION;
	if (keys & CUA_HAVE_TABLE_ROW)
		ifaces |= CUA_IFACE_TABLE_CELL;
	return ifaces;
}

static cua_result
parse_node(struct loader *l, json_t *j, struct cua_raw_node *n, int depth);

static cua_result
parse_children(struct loader *l, json_t *v, struct cua_raw_node *n,
	       int depth)
{
	struct cua_raw_node *c;
	size_t i, saved = l->path_len;
	json_t *x;
	cua_result r;

	if (!json_is_array(v))
		return lerr(l, "\"children\" must be an array");
	if (json_array_size(v) == 0)
		return CUA_OK;
	if (depth >= CUA_REC_MAX_DEPTH)
		return lerr(l, "nodes are nested deeper than %d levels",
			    CUA_REC_MAX_DEPTH);
	n->children = cua_arena_alloc(l->rec->arena,
				      json_array_size(v) * sizeof(c));
	if (!n->children)
		return lnomem(l);
	json_array_foreach(v, i, x) {
		c = cua_raw_node_new(l->rec);
		if (!c)
			return lnomem(l);
		c->parent = n;
		c->index_in_parent = (int32_t)(n->child_offset + i);
		n->children[i] = c;
		n->n_children = i + 1;
		snprintf(l->path + saved, sizeof(l->path) - saved, "/%zu",
			 n->child_offset + i);
		l->path_len = strlen(l->path);
		r = parse_node(l, x, c, depth + 1);
		l->path_len = saved;
		l->path[saved] = '\0';
		if (r)
			return r;
	}
	return CUA_OK;
}

static cua_result
parse_node(struct loader *l, json_t *j, struct cua_raw_node *n, int depth)
{
	static const char *const keys[] = {
		"id", "role", "name", "description", "help", "accessible_id",
		"states", "interfaces", "attributes", "actions", "value",
		"text", "selection", "extents", "labelled_by", "link_uri",
		"selected_child_name", "table_row", "child_count",
		"child_offset", "children_partial", "children", "unread", NULL
	};
	const struct cua_rec_string *s;
	uint32_t keys_have = 0;
	int64_t offset = 0;
	json_t *v, *children;
	size_t i;

	if (check_keys(l, NULL, j, keys))
		return CUA_ERROR_INVALID_ARGUMENT;

	v = json_object_get(j, "id");
	if (v) {
		if (get_str(l, "id", v, &n->ident))
			return CUA_ERROR_INVALID_ARGUMENT;
	} else {
		n->ident = cua_arena_alloc(l->rec->arena,
					   sizeof(CUA_REC_ID_PREFIX) + 1 +
					   l->path_len);
		if (!n->ident)
			return lnomem(l);
		sprintf((char *)n->ident, "%s%s", CUA_REC_ID_PREFIX,
			l->path_len ? l->path : "/");
	}
	if (parse_role(l, json_object_get(j, "role"), &n->role))
		return CUA_ERROR_INVALID_ARGUMENT;

	for (i = 0; i < CUA_REC_N_NODE_STRINGS; i++) {
		s = &cua_rec_node_strings[i];
		v = json_object_get(j, s->key);
		if (!v)
			continue;
		if (get_str(l, s->key, v, &FIELD(n, s->offset)))
			return CUA_ERROR_INVALID_ARGUMENT;
		keys_have |= s->bit;
	}
	if ((v = json_object_get(j, "states")) &&
	    parse_states(l, v, &n->states))
		return CUA_ERROR_INVALID_ARGUMENT;
	if ((v = json_object_get(j, "attributes")) &&
	    parse_attributes(l, v, n))
		return CUA_ERROR_INVALID_ARGUMENT;
	if ((v = json_object_get(j, "actions")) && parse_actions(l, v, n))
		return CUA_ERROR_INVALID_ARGUMENT;
	if ((v = json_object_get(j, "value"))) {
		if (parse_value(l, v, n))
			return CUA_ERROR_INVALID_ARGUMENT;
		keys_have |= CUA_HAVE_VALUE;
	}
	if ((v = json_object_get(j, "selection"))) {
		if (!json_is_array(v) || json_array_size(v) != 2 ||
		    get_int32(l, "selection", json_array_get(v, 0),
			      &n->sel_start) ||
		    get_int32(l, "selection", json_array_get(v, 1),
			      &n->sel_end))
			return lerr(l, "\"selection\" must be [start, end]");
		keys_have |= CUA_HAVE_TEXT_SELECTION;
	}
	if ((v = json_object_get(j, "extents"))) {
		if (get_rect(l, "extents", v, &n->extents))
			return CUA_ERROR_INVALID_ARGUMENT;
		keys_have |= CUA_HAVE_EXTENTS;
	}
	if ((v = json_object_get(j, "table_row"))) {
		if (get_int32(l, "table_row", v, &n->table_row))
			return CUA_ERROR_INVALID_ARGUMENT;
		keys_have |= CUA_HAVE_TABLE_ROW;
	}

	if ((v = json_object_get(j, "child_offset")) &&
	    get_int(l, "child_offset", v, 0, INT32_MAX, &offset))
		return CUA_ERROR_INVALID_ARGUMENT;
	n->child_offset = (size_t)offset;
	children = json_object_get(j, "children");
	if (children) {
		if (parse_children(l, children, n, depth))
			return CUA_ERROR_INVALID_ARGUMENT;
		keys_have |= CUA_HAVE_CHILDREN;
	}
	if (n->child_offset + n->n_children > INT32_MAX)
		return lerr(l, "too many children");
	n->child_count = (int32_t)(n->child_offset + n->n_children);
	if ((v = json_object_get(j, "child_count")) &&
	    get_int32(l, "child_count", v, &n->child_count))
		return CUA_ERROR_INVALID_ARGUMENT;
	n->children_partial = cua_rec_default_partial(
		n->child_offset, n->n_children, n->child_count);
	if ((v = json_object_get(j, "children_partial")) &&
	    get_bool(l, "children_partial", v, &n->children_partial))
		return CUA_ERROR_INVALID_ARGUMENT;

	if ((v = json_object_get(j, "interfaces"))) {
		if (parse_ifaces(l, v, &n->ifaces))
			return CUA_ERROR_INVALID_ARGUMENT;
	} else {
		n->ifaces = infer_ifaces(n, keys_have);
	}

	n->have = keys_have | CUA_REC_READ_WHEN_ABSENT;
	if (n->child_count == 0)
		n->have |= CUA_HAVE_CHILDREN;
	if ((v = json_object_get(j, "unread")) &&
	    parse_unread(l, v, &n->have))
		return CUA_ERROR_INVALID_ARGUMENT;
	return CUA_OK;
}

static cua_result
parse_window(struct loader *l, json_t *j, struct cua_raw_window_info *w)
{
	static const char *const keys[] = { "x11_window", "active", "mapped",
					    "title", "frame", "surface",
					    "outer", "transient", "activation",
					    NULL };
	json_t *v;

	if (check_keys(l, NULL, j, keys))
		return CUA_ERROR_INVALID_ARGUMENT;
	if ((v = json_object_get(j, "x11_window")) &&
	    get_u64(l, "x11_window", v, &w->x11_window))
		return CUA_ERROR_INVALID_ARGUMENT;
	w->x11_mapped = w->x11_window != 0;
	if (((v = json_object_get(j, "active")) &&
	     get_bool(l, "active", v, &w->x11_active)) ||
	    ((v = json_object_get(j, "mapped")) &&
	     get_bool(l, "mapped", v, &w->x11_mapped)) ||
	    ((v = json_object_get(j, "title")) &&
	     get_str(l, "title", v, &w->x11_title)) ||
	    ((v = json_object_get(j, "transient")) &&
	     get_bool(l, "transient", v, &w->x11_transient)) ||
	    ((v = json_object_get(j, "activation")) &&
	     get_u64(l, "activation", v, &w->activation_serial)))
		return CUA_ERROR_INVALID_ARGUMENT;
	if ((v = json_object_get(j, "frame"))) {
		if (get_rect(l, "frame", v, &w->x11_frame))
			return CUA_ERROR_INVALID_ARGUMENT;
		w->has_x11_frame = 1;
	}
	if (((v = json_object_get(j, "surface")) &&
	     get_rect(l, "surface", v, &w->x11_surface)) ||
	    ((v = json_object_get(j, "outer")) &&
	     get_rect(l, "outer", v, &w->x11_outer)))
		return CUA_ERROR_INVALID_ARGUMENT;
	return CUA_OK;
}

static cua_result
parse_windows(struct loader *l, json_t *v)
{
	struct cua_raw_node *app = l->rec->app;
	json_t *x;
	size_t i;

	if (app->n_children) {
		l->rec->windows = cua_arena_alloc(l->rec->arena,
						  app->n_children *
						  sizeof(*l->rec->windows));
		if (!l->rec->windows)
			return lnomem(l);
	}
	if (v) {
		l->what = "windows";
		if (!json_is_array(v))
			return lerr(l, "must be an array");
		if (json_array_size(v) > app->n_children)
			return lerr(l, "%zu entries for %zu toplevels",
				    json_array_size(v), app->n_children);
		json_array_foreach(v, i, x) {
			snprintf(l->what_buf, sizeof(l->what_buf),
				 "windows[%zu]", i);
			l->what = l->what_buf;
			if (parse_window(l, x, &l->rec->windows[i]))
				return CUA_ERROR_INVALID_ARGUMENT;
		}
	}
	for (i = 0; i < app->n_children; i++)
		app->children[i]->x11_window = l->rec->windows[i].x11_window;
	return CUA_OK;
}

static const char *
first_nonempty(const char *a, const char *b, const char *c)
{
	if (a && *a)
		return a;
	if (b && *b)
		return b;
	return c;
}

static cua_result
parse_app(struct loader *l, json_t *j, struct cua_app_info *app)
{
	static const char *const keys[] = {
		"pid", "start_time", "exe", "exe_base", "bus_name",
		"atspi_name", "desktop_id", "desktop_file", "desktop_name",
		"desktop_name_c", "wm_class_class", "wm_class_instance",
		"app_id", "app_name", "toolkit", "toolkit_version",
		"frontmost", NULL
	};
	const struct cua_rec_string *s;
	const char *slash;
	json_t *v;
	size_t i;

	l->what = "app";
	app->pid = REC_DEFAULT_PID;
	for (i = 0; i < l->rec->app->n_children; i++)
		app->frontmost |= l->rec->windows[i].x11_active;
	if (j) {
		if (check_keys(l, NULL, j, keys))
			return CUA_ERROR_INVALID_ARGUMENT;
		if (((v = json_object_get(j, "pid")) &&
		     get_int(l, "pid", v, INT64_MIN, INT64_MAX, &app->pid)) ||
		    ((v = json_object_get(j, "start_time")) &&
		     get_u64(l, "start_time", v, &app->start_time)) ||
		    ((v = json_object_get(j, "frontmost")) &&
		     get_bool(l, "frontmost", v, &app->frontmost)))
			return CUA_ERROR_INVALID_ARGUMENT;
		for (i = 0; i < CUA_REC_N_APP_STRINGS; i++) {
			s = &cua_rec_app_strings[i];
			v = json_object_get(j, s->key);
			if (v && get_str(l, s->key, v, &FIELD(app, s->offset)))
				return CUA_ERROR_INVALID_ARGUMENT;
		}
	}
	if (!app->exe_base && app->exe) {
		slash = strrchr(app->exe, '/');
		app->exe_base = slash ? slash + 1 : app->exe;
	}
	if (!app->bus_name)
		app->bus_name = "recorded";
	if (!app->atspi_name)
		app->atspi_name = l->rec->app->name;
	if (!app->app_id)
		app->app_id = first_nonempty(app->atspi_name,
					     l->rec->app->name, "recorded");
	if (!app->app_name)
		app->app_name = first_nonempty(app->atspi_name,
					       l->rec->app->name, "recorded");
	app->n_windows = (int)l->rec->app->n_children;
	app->accessible = 1;
	return CUA_OK;
}

static cua_result
read_file(const char *path, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL, *p;
	ssize_t got;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cua_error(CUA_ERROR_IO, "recording %s: %s", path,
				 strerror(errno));
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64 * 1024;
			if (cap > REC_MAX_BYTES + 1)
				cap = REC_MAX_BYTES + 1;
			if (n == cap) {
				free(buf);
				close(fd);
				return cua_error(CUA_ERROR_INVALID_ARGUMENT,
						 "recording %s: larger than %zu MiB",
						 path, REC_MAX_BYTES >> 20);
			}
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				close(fd);
				return cua_error(CUA_ERROR_NOMEM,
						 "recording %s: out of memory",
						 path);
			}
			buf = p;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = errno;
			free(buf);
			close(fd);
			return cua_error(CUA_ERROR_IO, "recording %s: %s",
					 path, strerror(err));
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	*out = buf;
	*len = n;
	return CUA_OK;
}

static cua_result
load(struct loader *l, json_t *top, struct cua_app_info *app)
{
	static const char *const keys[] = { "schema", "app", "windows",
					    "focused", "root", NULL };
	json_t *v;

	l->what = "top level";
	if (check_keys(l, NULL, top, keys))
		return CUA_ERROR_INVALID_ARGUMENT;
	v = json_object_get(top, "schema");
	if (!json_is_string(v) ||
	    strcmp(json_string_value(v), CUA_REC_SCHEMA) != 0)
		return lerr(l, "\"schema\" must be \"%s\"", CUA_REC_SCHEMA);
	v = json_object_get(top, "focused");
	if (v && get_str(l, "focused", v, &l->rec->focused_ident))
		return CUA_ERROR_INVALID_ARGUMENT;
	v = json_object_get(top, "root");
	if (!v)
		return lerr(l, "\"root\" is missing");

	l->what = NULL;
	l->rec->app = cua_raw_node_new(l->rec);
	if (!l->rec->app)
		return lnomem(l);
	if (parse_node(l, v, l->rec->app, 0))
		return CUA_ERROR_INVALID_ARGUMENT;
	if (parse_windows(l, json_object_get(top, "windows")))
		return CUA_ERROR_INVALID_ARGUMENT;
	return parse_app(l, json_object_get(top, "app"), app);
}

/* ------------------------------------------------------------------ */
/* Copies                                                              */

static int
copy_str(struct cua_arena *a, const char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = cua_arena_strdup(a, src);
	return *dst ? 0 : -1;
}

/* Identity, role, states, interfaces, name and child count. */
static int
copy_basic(struct cua_arena *a, struct cua_raw_node *dst,
	   const struct cua_raw_node *src)
{
	dst->role = src->role;
	dst->states = src->states;
	dst->ifaces = src->ifaces;
	dst->child_count = src->child_count;
	dst->index_in_parent = src->index_in_parent;
	dst->x11_window = src->x11_window;
	dst->have |= src->have & CUA_HAVE_BASIC;
	return copy_str(a, &dst->ident, src->ident) ||
	       copy_str(a, &dst->name, src->name);
}

/* The pieces of `mask` that src has, except basic fields and children. */
static int
copy_pieces(struct cua_arena *a, struct cua_raw_node *dst,
	    const struct cua_raw_node *src, uint32_t mask)
{
	const struct cua_rec_string *s;
	uint32_t m = src->have & mask & ~(CUA_HAVE_BASIC | CUA_HAVE_CHILDREN);
	size_t i;

	dst->have |= m;
	for (i = 0; i < CUA_REC_N_NODE_STRINGS; i++) {
		s = &cua_rec_node_strings[i];
		if ((m & s->bit) && copy_str(a, &FIELD(dst, s->offset),
					     FIELD(src, s->offset)))
			return -1;
	}
	if ((m & CUA_HAVE_ATTRIBUTES) && src->n_attrs) {
		dst->attrs = cua_arena_alloc(a, src->n_attrs *
					     sizeof(*dst->attrs));
		if (!dst->attrs)
			return -1;
		dst->n_attrs = src->n_attrs;
		for (i = 0; i < src->n_attrs; i++)
			if (copy_str(a, &dst->attrs[i].key,
				     src->attrs[i].key) ||
			    copy_str(a, &dst->attrs[i].value,
				     src->attrs[i].value))
				return -1;
	}
	if ((m & CUA_HAVE_ACTIONS) && src->n_actions) {
		dst->actions = cua_arena_alloc(a, src->n_actions *
					       sizeof(*dst->actions));
		if (!dst->actions)
			return -1;
		dst->n_actions = src->n_actions;
		for (i = 0; i < src->n_actions; i++)
			if (copy_str(a, &dst->actions[i].name,
				     src->actions[i].name) ||
			    copy_str(a, &dst->actions[i].localized,
				     src->actions[i].localized) ||
			    copy_str(a, &dst->actions[i].description,
				     src->actions[i].description))
				return -1;
	}
	if (m & CUA_HAVE_VALUE) {
		dst->value = src->value;
		dst->value_min = src->value_min;
		dst->value_max = src->value_max;
		dst->value_step = src->value_step;
		if (copy_str(a, &dst->value_text, src->value_text))
			return -1;
	}
	if (m & CUA_HAVE_TEXT_SELECTION) {
		dst->sel_start = src->sel_start;
		dst->sel_end = src->sel_end;
	}
	if (m & CUA_HAVE_EXTENTS)
		dst->extents = src->extents;
	if (m & CUA_HAVE_TABLE_ROW)
		dst->table_row = src->table_row;
	return 0;
}

static cua_result
copy_app_info(struct cua_arena *a, struct cua_app_info *dst,
	      const struct cua_app_info *src)
{
	size_t i;

	*dst = *src;
	for (i = 0; i < CUA_REC_N_APP_STRINGS; i++)
		if (copy_str(a, &FIELD(dst, cua_rec_app_strings[i].offset),
			     FIELD(src, cua_rec_app_strings[i].offset)))
			return CUA_ERROR_NOMEM;
	return CUA_OK;
}

/* ------------------------------------------------------------------ */
/* Backend ops                                                         */

static void
rec_destroy(struct cua_backend *b)
{
	struct rec_backend *be = (struct rec_backend *)b;

	if (!be)
		return;
	cua_raw_snapshot_free(be->rec);
	free(be);
}

static cua_result
rec_list_apps(struct cua_backend *b, struct cua_app_list **out)
{
	struct rec_backend *be = (struct rec_backend *)b;
	struct cua_app_list *list;

	*out = NULL;
	list = calloc(1, sizeof(*list));
	if (!list || !(list->arena = cua_arena_new()))
		goto nomem;
	list->apps = cua_arena_alloc(list->arena, sizeof(*list->apps));
	if (!list->apps ||
	    copy_app_info(list->arena, list->apps, &be->app) != CUA_OK)
		goto nomem;
	list->n = 1;
	*out = list;
	return CUA_OK;
nomem:
	cua_app_list_free(list);
	return cua_error(CUA_ERROR_NOMEM, "recorded backend: out of memory");
}

static cua_result
rec_list_installed(struct cua_backend *b, struct cua_installed_list **out)
{
	struct cua_installed_list *list;

	*out = NULL;
	list = calloc(1, sizeof(*list));
	if (!list || !(list->arena = cua_arena_new())) {
		free(list);
		return cua_error(CUA_ERROR_NOMEM,
				 "recorded backend: out of memory");
	}
	*out = list;
	return CUA_OK;
}

static cua_result
rec_open_app(struct cua_backend *b, const struct cua_app_info *app,
	     struct cua_raw_snapshot **out)
{
	struct rec_backend *be = (struct rec_backend *)b;
	const struct cua_raw_node *src = be->rec->app;
	struct cua_raw_snapshot *snap;
	struct cua_raw_node *a, *t;
	size_t i, n = src->n_children;

	*out = NULL;
	if (!app)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recorded backend: no app given");
	if (app->pid != be->app.pid || app->start_time != be->app.start_time)
		return cua_error(CUA_ERROR_NOT_FOUND,
				 "recorded backend: the recording holds pid %lld, not %lld",
				 (long long)be->app.pid, (long long)app->pid);
	snap = cua_raw_snapshot_new();
	if (!snap)
		goto nomem;
	a = snap->app = cua_raw_node_new(snap);
	if (!a || copy_basic(snap->arena, a, src) ||
	    copy_pieces(snap->arena, a, src, ~0u))
		goto nomem;
	if (n) {
		a->children = cua_arena_alloc(snap->arena,
					      n * sizeof(*a->children));
		snap->windows = cua_arena_alloc(snap->arena,
						n * sizeof(*snap->windows));
		if (!a->children || !snap->windows)
			goto nomem;
	}
	for (i = 0; i < n; i++) {
		t = cua_raw_node_new(snap);
		if (!t || copy_basic(snap->arena, t, src->children[i]) ||
		    copy_pieces(snap->arena, t, src->children[i],
				CUA_HAVE_EXTENTS))
			goto nomem;
		t->parent = a;
		a->children[i] = t;
		snap->windows[i] = be->rec->windows[i];
		if (copy_str(snap->arena, &snap->windows[i].x11_title,
			     be->rec->windows[i].x11_title))
			goto nomem;
	}
	a->n_children = n;
	a->child_offset = src->child_offset;
	a->children_partial = src->children_partial;
	a->have |= src->have & CUA_HAVE_CHILDREN;
	*out = snap;
	return CUA_OK;
nomem:
	cua_raw_snapshot_free(snap);
	return cua_error(CUA_ERROR_NOMEM, "recorded backend: out of memory");
}

struct fetch_item {
	struct cua_raw_node *dst;
	const struct cua_raw_node *src;
	int depth;
};

/* The nodes of one fetch, breadth first; items stay in the queue after
 * they are processed. */
struct fetch {
	struct cua_raw_snapshot *snap;
	const struct cua_fetch_policy *pol;
	int max_depth;
	struct fetch_item *q;
	size_t head, n, cap;
};

static int
fetch_push(struct fetch *f, struct cua_raw_node *dst,
	   const struct cua_raw_node *src, int depth)
{
	struct fetch_item *q;
	size_t cap;

	if (f->n == f->cap) {
		cap = f->cap ? f->cap * 2 : 256;
		q = realloc(f->q, cap * sizeof(*q));
		if (!q)
			return -1;
		f->q = q;
		f->cap = cap;
	}
	f->q[f->n].dst = dst;
	f->q[f->n].src = src;
	f->q[f->n].depth = depth;
	f->n++;
	return 0;
}

static int
deadline_passed(struct fetch *f)
{
	if (f->pol->deadline_us && cua_now_us() >= f->pol->deadline_us) {
		f->snap->stats.deadline_hit = 1;
		return 1;
	}
	return 0;
}

/* A node the policy may be asked about (the live reader skips the
 * others). */
static int
readable(const struct cua_raw_node *n)
{
	return (n->have & CUA_HAVE_BASIC) &&
	       !CUA_HAS_STATE(n, CUA_STATE_DEFUNCT);
}

/* Copies the pieces the policy asks for, then the children when it
 * wants them. Returns -1 when out of memory, 1 when the deadline passed. */
static int
fetch_node(struct fetch *f, const struct fetch_item *it)
{
	const struct cua_fetch_policy *pol = f->pol;
	struct cua_raw_snapshot *snap = f->snap;
	struct cua_raw_node *dst = it->dst, *c;
	const struct cua_raw_node *src = it->src;
	uint32_t want = ~0u;
	size_t i;

	if (!readable(dst))
		return 0;
	if (pol->details)
		want = pol->details(pol->user_data, dst, it->depth);
	if (copy_pieces(snap->arena, dst, src, want))
		return -1;
	if (it->depth >= f->max_depth ||
	    (pol->descend && !pol->descend(pol->user_data, dst, it->depth)) ||
	    !(src->have & CUA_HAVE_CHILDREN))
		return 0;
	dst->have |= CUA_HAVE_CHILDREN;
	dst->child_offset = src->child_offset;
	dst->children_partial = src->children_partial;
	if (!src->n_children)
		return 0;
	dst->children = cua_arena_alloc(snap->arena,
					src->n_children * sizeof(c));
	if (!dst->children)
		return -1;
	for (i = 0; i < src->n_children; i++) {
		if (pol->max_nodes && snap->stats.nodes >= pol->max_nodes) {
			snap->stats.node_cap_hit = 1;
			dst->children_partial = 1;
			return 0;
		}
		if (deadline_passed(f)) {
			dst->children_partial = 1;
			return 1;
		}
		c = cua_raw_node_new(snap);
		if (!c || copy_basic(snap->arena, c, src->children[i]) ||
		    fetch_push(f, c, src->children[i], it->depth + 1))
			return -1;
		c->parent = dst;
		dst->children[dst->n_children++] = c;
	}
	return 0;
}

static struct cua_raw_node *
find_focused(struct cua_raw_node *n)
{
	struct cua_raw_node *r;
	size_t i;

	if ((n->have & CUA_HAVE_BASIC) && CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return n;
	for (i = 0; i < n->n_children; i++)
		if ((r = find_focused(n->children[i])))
			return r;
	return NULL;
}

static struct cua_raw_node *
find_ident(struct cua_raw_node *n, const char *ident)
{
	struct cua_raw_node *r;
	size_t i;

	if (n->ident && strcmp(n->ident, ident) == 0)
		return n;
	for (i = 0; i < n->n_children; i++)
		if ((r = find_ident(n->children[i], ident)))
			return r;
	return NULL;
}

/*
 * The focused node, as the live reader finds it: a fetched node with
 * state FOCUSED (a later root wins: popups hold the focus while open),
 * else the recorded focus (what Collection.GetMatches answers), fetched
 * or not. The focused node's text selection is read even when the policy
 * did not ask for it.
 */
static int
fetch_focus(struct fetch *f, struct cua_raw_node **roots, size_t n_roots,
	    const char *rec_focus)
{
	struct cua_raw_snapshot *snap = f->snap;
	struct cua_raw_node *focus = NULL;
	size_t i;

	for (i = n_roots; i-- > 0 && !focus;)
		focus = find_focused(roots[i]);
	if (!focus && rec_focus) {
		snap->focused_ident = cua_arena_strdup(snap->arena, rec_focus);
		if (!snap->focused_ident)
			return -1;
		for (i = 0; i < n_roots && !focus; i++)
			focus = find_ident(roots[i], rec_focus);
	}
	if (!focus)
		return 0;
	snap->focused = focus;
	snap->focused_ident = focus->ident;
	if (!(focus->ifaces & CUA_IFACE_TEXT))
		return 0;
	for (i = 0; i < f->n; i++)
		if (f->q[i].dst == focus)
			return copy_pieces(snap->arena, focus, f->q[i].src,
					   CUA_HAVE_TEXT_SELECTION);
	return 0;
}

/* Index of root among the toplevels of snap (n_children if not one). */
static size_t
toplevel_index(const struct cua_raw_snapshot *snap,
	       const struct cua_raw_node *root)
{
	size_t i;

	for (i = 0; i < snap->app->n_children; i++)
		if (snap->app->children[i] == root)
			break;
	return i;
}

static cua_result
rec_fetch(struct cua_backend *b, struct cua_raw_snapshot *snap,
	  struct cua_raw_node **roots, size_t n_roots,
	  const struct cua_fetch_policy *policy)
{
	static const struct cua_fetch_policy everything;
	struct rec_backend *be = (struct rec_backend *)b;
	const struct cua_raw_node *rec_app = be->rec->app;
	struct fetch f = { .snap = snap, .pol = policy ? policy : &everything };
	struct cua_raw_node *root;
	struct fetch_item it;
	int64_t t0 = cua_now_us();
	size_t i, k;
	int r = 0;

	if (!snap || !snap->app || (n_roots && !roots))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recorded backend: fetch without a snapshot");
	for (k = 0; k < n_roots; k++)
		if (toplevel_index(snap, roots[k]) >= rec_app->n_children)
			return cua_error(CUA_ERROR_INVALID_ARGUMENT,
					 "recorded backend: fetch root %zu is not a toplevel of the recording",
					 k);
	f.max_depth = f.pol->max_raw_depth > 0 ? f.pol->max_raw_depth : 64;
	snap->focused = NULL;
	snap->focused_ident = NULL;
	for (k = 0; k < n_roots; k++) {
		root = roots[k];
		i = toplevel_index(snap, root);
		root->children = NULL;
		root->n_children = 0;
		root->children_partial = 0;
		root->have &= ~CUA_HAVE_CHILDREN;
		if (fetch_push(&f, root, rec_app->children[i], 0))
			goto nomem;
	}
	while (r == 0 && f.head < f.n) {
		it = f.q[f.head++]; /* fetch_node() may move the queue */
		r = deadline_passed(&f) ? 1 : fetch_node(&f, &it);
	}
	if (r == 0)
		r = fetch_focus(&f, roots, n_roots, be->rec->focused_ident);
	if (r < 0)
		goto nomem;
	free(f.q);
	snap->stats.elapsed_us += (uint64_t)(cua_now_us() - t0);
	return CUA_OK;
nomem:
	free(f.q);
	return cua_error(CUA_ERROR_NOMEM, "recorded backend: out of memory");
}

static cua_result
rec_launch(struct cua_backend *b, const struct cua_installed_app *app,
	   int64_t *pid)
{
	*pid = 0;
	return cua_error(CUA_ERROR_UNSUPPORTED,
			 "the recorded backend cannot launch %s: it only replays a recorded tree",
			 app && app->desktop_id ? app->desktop_id : "apps");
}

static int
rec_process_alive(struct cua_backend *b, int64_t pid, uint64_t start_time)
{
	struct rec_backend *be = (struct rec_backend *)b;

	return pid == be->app.pid && start_time == be->app.start_time;
}

/* Live reads for actions (re-resolution on recorded trees): the
 * recording plays the live app. */
static cua_result
rec_read_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
	       struct cua_raw_node **nodes, size_t n, uint32_t want)
{
	struct rec_backend *be = (struct rec_backend *)b;

	for (size_t i = 0; i < n; i++) {
		struct cua_raw_node *dst = nodes[i];
		const struct cua_raw_node *src =
			dst->ident ? find_ident(be->rec->app, dst->ident) : NULL;

		dst->have &= ~(uint32_t)CUA_HAVE_BASIC;
		if (!src)
			continue;
		if (copy_basic(snap->arena, dst, src) ||
		    copy_pieces(snap->arena, dst, src,
				want & ~(uint32_t)CUA_HAVE_CHILDREN))
			return cua_error(CUA_ERROR_NOMEM,
					 "recorded backend: out of memory");
	}
	return CUA_OK;
}

static cua_result
rec_read_children(struct cua_backend *b, struct cua_raw_snapshot *snap,
		  struct cua_raw_node **parents, size_t n, uint32_t first,
		  uint32_t count, uint32_t want)
{
	struct rec_backend *be = (struct rec_backend *)b;

	for (size_t i = 0; i < n; i++) {
		struct cua_raw_node *dst = parents[i];
		const struct cua_raw_node *src =
			dst->ident ? find_ident(be->rec->app, dst->ident) : NULL;
		size_t k, lo, hi, got = 0;

		dst->have &= ~(uint32_t)(CUA_HAVE_BASIC | CUA_HAVE_CHILDREN);
		dst->children = NULL;
		dst->n_children = 0;
		if (!src)
			continue;
		if (copy_basic(snap->arena, dst, src))
			goto nomem;
		if (!(src->have & CUA_HAVE_CHILDREN))
			continue;
		dst->have |= CUA_HAVE_CHILDREN;
		dst->child_offset = first;
		/* what the recording holds of first .. first + count - 1 */
		lo = first;
		hi = count == UINT32_MAX ? SIZE_MAX : (size_t)first + count;
		dst->children = cua_arena_alloc(snap->arena,
						(src->n_children ? src->n_children : 1) *
							sizeof(*dst->children));
		if (!dst->children)
			goto nomem;
		for (k = 0; k < src->n_children; k++) {
			size_t abs = src->child_offset + k;
			struct cua_raw_node *c;

			if (abs < lo || abs >= hi)
				continue;
			if (got == 0)
				dst->child_offset = abs;
			c = cua_raw_node_new(snap);
			if (!c || copy_basic(snap->arena, c, src->children[k]) ||
			    copy_pieces(snap->arena, c, src->children[k],
					want & ~(uint32_t)CUA_HAVE_CHILDREN))
				goto nomem;
			c->parent = dst;
			c->index_in_parent = (int32_t)abs;
			dst->children[got++] = c;
		}
		dst->n_children = got;
		dst->children_partial = dst->child_offset > 0 ||
					(int64_t)(dst->child_offset + got) <
						dst->child_count;
	}
	return CUA_OK;
nomem:
	return cua_error(CUA_ERROR_NOMEM, "recorded backend: out of memory");
}

static const struct cua_backend_ops rec_ops = {
	.name = "recorded",
	.destroy = rec_destroy,
	.list_apps = rec_list_apps,
	.list_installed = rec_list_installed,
	.open_app = rec_open_app,
	.fetch = rec_fetch,
	.launch = rec_launch,
	.process_alive = rec_process_alive,
	.read_nodes = rec_read_nodes,
	.read_children = rec_read_children,
};

/* Loads a recording into a new snapshot; *app's strings live in it. */
static cua_result
load_recording(const char *path, struct cua_raw_snapshot **rec_out,
	       struct cua_app_info *app)
{
	struct loader l = { .file = path };
	json_error_t jerr;
	json_t *top = NULL;
	size_t len = 0;
	char *buf = NULL;
	cua_result r;

	*rec_out = NULL;
	memset(app, 0, sizeof(*app));
	if (!path)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recorded backend: no recording path");
	r = read_file(path, &buf, &len);
	if (r)
		return r;
	top = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	free(buf);
	if (!top)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recording %s: line %d, column %d: %s", path,
				 jerr.line, jerr.column, jerr.text);
	l.rec = cua_raw_snapshot_new();
	if (!l.rec) {
		json_decref(top);
		return cua_error(CUA_ERROR_NOMEM, "recording %s: out of memory",
				 path);
	}
	r = load(&l, top, app);
	json_decref(top);
	if (r) {
		if (l.oom)
			r = CUA_ERROR_NOMEM;
		cua_raw_snapshot_free(l.rec);
		memset(app, 0, sizeof(*app));
		return r;
	}
	*rec_out = l.rec;
	return CUA_OK;
}

cua_result
cua_backend_recorded_new(struct cua_ctx *ctx, const char *path,
			 struct cua_backend **out)
{
	struct rec_backend *be = NULL;
	cua_result r;

	if (!out)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "recorded backend: no output pointer");
	*out = NULL;
	be = calloc(1, sizeof(*be));
	if (!be)
		return cua_error(CUA_ERROR_NOMEM, "recording %s: out of memory",
				 path ? path : "");
	r = load_recording(path, &be->rec, &be->app);
	if (r) {
		free(be);
		return r;
	}
	be->base.ops = &rec_ops;
	be->base.ctx = ctx;
	cua_debug(ctx, "recording %s: %llu nodes, %zu toplevels", path,
		  (unsigned long long)be->rec->stats.nodes,
		  be->rec->app->n_children);
	*out = &be->base;
	return CUA_OK;
}

cua_result
cua_backend_recorded_replace(struct cua_backend *b, const char *path)
{
	struct rec_backend *be = (struct rec_backend *)b;
	struct cua_raw_snapshot *rec;
	struct cua_app_info app;
	cua_result r;

	if (!b || b->ops != &rec_ops)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "not a recorded backend");
	r = load_recording(path, &rec, &app);
	if (r)
		return r;
	cua_raw_snapshot_free(be->rec);
	be->rec = rec;
	be->app = app;
	cua_debug(b->ctx, "recording replaced by %s: %llu nodes", path,
		  (unsigned long long)rec->stats.nodes);
	return CUA_OK;
}
