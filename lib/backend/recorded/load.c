/*
 * The recording format `libcua.recording/1`: its description, the name
 * tables it shares with the writer (record.c), and the loader, which
 * reads a file into a raw snapshot for the recorded backend (recorded.c).
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
 *   "table_nrows" a table's Table.NRows (with table_row, -1 on a table),
 *                 which bounds the rows of a table read as a grid.
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
	"Action",    "Component", "Text",       "EditableText", "Value",
	"Selection", "Table",     "TableCell",  "Hypertext",    "Hyperlink",
	"Document",  "Image",     "Collection",
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

#define NODE_STR(key, bit, field)                                              \
	{                                                                      \
		key, bit, offsetof(struct cua_raw_node, field)                 \
	}
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

#define APP_STR(field)                                                         \
	{                                                                      \
#field, 0, offsetof(struct cua_app_info, field)                \
	}
const struct cua_rec_string cua_rec_app_strings[CUA_REC_N_APP_STRINGS] = {
	APP_STR(exe),
	APP_STR(exe_base),
	APP_STR(bus_name),
	APP_STR(atspi_name),
	APP_STR(desktop_id),
	APP_STR(desktop_file),
	APP_STR(desktop_name),
	APP_STR(desktop_name_c),
	APP_STR(wm_class_class),
	APP_STR(wm_class_instance),
	APP_STR(app_id),
	APP_STR(app_name),
	APP_STR(toolkit),
	APP_STR(toolkit_version),
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
		return name ? lerr(l, "\"%s\" must be an object", name) :
			      lerr(l, "must be an object");
	json_object_foreach(obj, key, v)
	{
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
get_int(struct loader *l, const char *key, json_t *v, int64_t min, int64_t max,
	int64_t *out)
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
		return lerr(
			l,
			"\"%s\" must be a number, \"nan\", \"inf\" or \"-inf\"",
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

/* The index of the name `s` in names[0..n) (the values of `field`, each
 * the name of a `what`), or an error. */
static cua_result
name_index(struct loader *l, json_t *s, const char *const *names, int n,
	   const char *field, const char *what, int *index)
{
	if (!json_is_string(s))
		return lerr(l, "\"%s\" must hold %s names", field, what);
	for (*index = 0; *index < n; (*index)++)
		if (strcmp(names[*index], json_string_value(s)) == 0)
			return CUA_OK;
	return lerr(l, "unknown %s \"%s\"", what, json_string_value(s));
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
	json_array_foreach(v, i, s)
	{
		if (json_is_integer(s)) {
			if (get_int(l, "states", s, 0, 63, &bit))
				return CUA_ERROR_INVALID_ARGUMENT;
			*states |= UINT64_C(1) << bit;
			continue;
		}
		if (name_index(l, s, cua_rec_state_nicks, CUA_STATE_COUNT,
			       "states", "state", &b))
			return CUA_ERROR_INVALID_ARGUMENT;
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
	json_array_foreach(v, i, s)
	{
		if (name_index(l, s, cua_rec_iface_names, CUA_REC_N_IFACES,
			       "interfaces", "interface", &b))
			return CUA_ERROR_INVALID_ARGUMENT;
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
	json_array_foreach(v, i, s)
	{
		for (p = 0; p < CUA_REC_N_PIECES; p++)
			if (json_is_string(s) &&
			    strcmp(cua_rec_pieces[p].key,
				   json_string_value(s)) == 0)
				break;
		if (p == CUA_REC_N_PIECES)
			return lerr(l, "\"unread\": unknown piece %s",
				    json_is_string(s) ? json_string_value(s) :
							"(not a string)");
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
	json_object_foreach(v, key, x)
	{
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
	static const char *const keys[] = { "name", "localized", "description",
					    NULL };
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
	json_array_foreach(v, i, x)
	{
		a = &n->actions[i];
		if (json_is_string(x)) {
			if (get_str(l, "actions", x, &a->name))
				return CUA_ERROR_INVALID_ARGUMENT;
			continue;
		}
		if (!json_is_object(x))
			return lerr(
				l,
				"\"actions\" must hold names or {name, localized, description}");
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
	static const char *const keys[] = { "current", "min",  "max",
					    "step",    "text", NULL };
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
parse_children(struct loader *l, json_t *v, struct cua_raw_node *n, int depth)
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
	n->children =
		cua_arena_alloc(l->rec->arena, json_array_size(v) * sizeof(c));
	if (!n->children)
		return lnomem(l);
	json_array_foreach(v, i, x)
	{
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
	static const char *const keys[] = { "id",
					    "role",
					    "name",
					    "description",
					    "help",
					    "accessible_id",
					    "states",
					    "interfaces",
					    "attributes",
					    "actions",
					    "value",
					    "text",
					    "selection",
					    "extents",
					    "labelled_by",
					    "link_uri",
					    "selected_child_name",
					    "table_row",
					    "table_nrows",
					    "child_count",
					    "child_offset",
					    "children_partial",
					    "children",
					    "unread",
					    NULL };
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
		if (get_str(l, s->key, v, &CUA_REC_FIELD(n, s->offset)))
			return CUA_ERROR_INVALID_ARGUMENT;
		keys_have |= s->bit;
	}
	if ((v = json_object_get(j, "states")) &&
	    parse_states(l, v, &n->states))
		return CUA_ERROR_INVALID_ARGUMENT;
	if ((v = json_object_get(j, "attributes")) && parse_attributes(l, v, n))
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
	if ((v = json_object_get(j, "table_nrows"))) {
		int64_t rows;

		if (get_int(l, "table_nrows", v, 0, INT32_MAX, &rows))
			return CUA_ERROR_INVALID_ARGUMENT;
		n->table_nrows = (int32_t)rows;
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
	if ((v = json_object_get(j, "unread")) && parse_unread(l, v, &n->have))
		return CUA_ERROR_INVALID_ARGUMENT;
	return CUA_OK;
}

static cua_result
parse_window(struct loader *l, json_t *j, struct cua_raw_window_info *w)
{
	static const char *const keys[] = {
		"x11_window", "active", "mapped",    "title",      "frame",
		"surface",    "outer",  "transient", "activation", NULL
	};
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
		l->rec->windows = cua_arena_alloc(
			l->rec->arena,
			app->n_children * sizeof(*l->rec->windows));
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
		json_array_foreach(v, i, x)
		{
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
	static const char *const keys[] = { "pid",
					    "start_time",
					    "exe",
					    "exe_base",
					    "bus_name",
					    "atspi_name",
					    "desktop_id",
					    "desktop_file",
					    "desktop_name",
					    "desktop_name_c",
					    "wm_class_class",
					    "wm_class_instance",
					    "app_id",
					    "app_name",
					    "toolkit",
					    "toolkit_version",
					    "frontmost",
					    NULL };
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
			if (v && get_str(l, s->key, v,
					 &CUA_REC_FIELD(app, s->offset)))
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
		app->app_id = first_nonempty(app->atspi_name, l->rec->app->name,
					     "recorded");
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
				return cua_error(
					CUA_ERROR_INVALID_ARGUMENT,
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
			return cua_error(CUA_ERROR_IO, "recording %s: %s", path,
					 strerror(err));
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
	static const char *const keys[] = { "schema",  "app",  "windows",
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

/* Loads a recording into a new snapshot; *app's strings live in it. */
cua_result
cua_rec_load(const char *path, struct cua_raw_snapshot **rec_out,
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
