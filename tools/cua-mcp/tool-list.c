/*
 * cua-mcp: the tools of tools/list, in wire order (docs/tools.md §1): names,
 * descriptions, input schemas and annotations, as docs/tools.md gives them.
 * tests/mcp-clients/tools-list.test.mjs compares the served list with
 * docs/tools.md itself and with tests/mcp-clients/expected-tools.json.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tool-list.h"

#define APP_DESCRIPTION                                                        \
	"App name, full app path, or unambiguous bundle identifier"

/* A JSON array of the strings `v` (NULL-terminated). */
static json_t *
strings(const char *const *v)
{
	json_t *a = json_array();

	for (; *v; v++)
		json_array_append_new(a, json_string(*v));
	return a;
}

/* One property of an input schema. */
static json_t *
prop(const char *type, const char *description)
{
	return json_pack("{s:s,s:s}", "type", type, "description", description);
}

/* A string property that takes one of `values`. */
static json_t *
prop_enum(const char *description, const char *const *values)
{
	json_t *p = prop("string", description);

	json_object_set_new(p, "enum", strings(values));
	return p;
}

/* The app property of every tool but list_apps. */
static json_t *
app(void)
{
	return prop("string", APP_DESCRIPTION);
}

/* A closed object schema: its properties, and those it requires (NULL:
 * none). */
static json_t *
object_schema(json_t *properties, const char *const *required)
{
	json_t *s = json_pack("{s:s,s:o}", "type", "object", "properties",
			      properties);

	if (required)
		json_object_set_new(s, "required", strings(required));
	json_object_set_new(s, "additionalProperties", json_false());
	return s;
}

/* Appends a tool: an observation (read-only and idempotent) or an
 * action. None of them destroys anything or reaches past the desktop. */
static void
add(json_t *list, const char *name, const char *description, json_t *properties,
    const char *const *required, int observation)
{
	json_array_append_new(
		list,
		json_pack("{s:s,s:s,s:o,s:{s:b,s:b,s:b,s:b}}", "name", name,
			  "description", description, "inputSchema",
			  object_schema(properties, required), "annotations",
			  "readOnlyHint", observation, "destructiveHint", 0,
			  "idempotentHint", observation, "openWorldHint", 0));
}

/* The names of the tools in `list` from `first` on, as a JSON array. */
static json_t *
names_from(json_t *list, size_t first)
{
	json_t *a = json_array();

	for (size_t i = first; i < json_array_size(list); i++)
		json_array_append(
			a, json_object_get(json_array_get(list, i), "name"));
	return a;
}

json_t *
tool_list_new(void)
{
	static const char *const app_only[] = { "app", NULL };
	json_t *list = json_array(), *step;
	size_t first_action;

	add(list, "list_apps",
	    "List the apps on this computer. Returns the set of apps that are currently running, as well as any that have been used in the last 14 days, including details on usage frequency",
	    json_object(), NULL, 1);
	add(list, "get_app_state",
	    "Start an app use session if needed, then get the state of the app's key window and return a screenshot and accessibility tree. This must be called once per assistant turn before interacting with the app",
	    json_pack(
		    "{s:o,s:o}", "app", app(), "disable_diff",
		    prop("boolean",
			 "Return the full accessibility tree instead of a diff against your previous get_app_state call for this app. Pass true when you no longer have that previous result in context (for example at the start of a new turn or after it was summarized), or when a diff lacks the context you need.")),
	    app_only, 1);

	first_action = json_array_size(list);
	add(list, "click",
	    "Click an element by index or pixel coordinates from screenshot",
	    json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "app", app(),
		      "element_index", prop("string", "Element index to click"),
		      "x",
		      prop("number",
			   "X coordinate in screenshot pixel coordinates"),
		      "y",
		      prop("number",
			   "Y coordinate in screenshot pixel coordinates"),
		      "click_count",
		      prop("integer", "Number of clicks. Defaults to 1"),
		      "mouse_button",
		      prop_enum("Mouse button to click. Defaults to left.",
				(const char *const[]){ "left", "right",
						       "middle", NULL })),
	    app_only, 0);
	add(list, "perform_secondary_action",
	    "Invoke a secondary accessibility action exposed by an element",
	    json_pack("{s:o,s:o,s:o}", "app", app(), "element_index",
		      prop("string", "Element identifier"), "action",
		      prop("string", "Secondary accessibility action name")),
	    (const char *const[]){ "app", "element_index", "action", NULL }, 0);
	add(list, "set_value",
	    "Set the value of a settable accessibility element",
	    json_pack("{s:o,s:o,s:o}", "app", app(), "element_index",
		      prop("string", "Element identifier"), "value",
		      prop("string", "Value to assign")),
	    (const char *const[]){ "app", "element_index", "value", NULL }, 0);
	add(list, "select_text",
	    "Select text inside a text element, or place the text cursor before or after it. Provide text exactly as it appears in the accessibility tree, including any Markdown formatting. If the text is not unique, provide surrounding prefix or suffix text to disambiguate it.",
	    json_pack(
		    "{s:o,s:o,s:o,s:o,s:o,s:o}", "app",
		    prop("string", "App name or bundle identifier"),
		    "element_index", prop("string", "Text element identifier"),
		    "text",
		    prop("string",
			 "Target text as shown in the accessibility tree"),
		    "prefix",
		    prop("string",
			 "Optional text immediately before the target, used to disambiguate repeated matches"),
		    "suffix",
		    prop("string",
			 "Optional text immediately after the target, used to disambiguate repeated matches"),
		    "selection",
		    prop_enum(
			    "Whether to select the text or place the cursor before or after it. Defaults to text.",
			    (const char *const[]){ "text", "cursor_before",
						   "cursor_after", NULL })),
	    (const char *const[]){ "app", "element_index", "text", NULL }, 0);
	add(list, "scroll",
	    "Scroll an element in a direction by a number of pages",
	    json_pack(
		    "{s:o,s:o,s:o,s:o,s:o,s:o}", "app", app(), "element_index",
		    prop("string", "Element identifier"), "direction",
		    prop("string",
			 "Scroll direction: up, down, left, or right"),
		    "pages",
		    prop("number",
			 "Number of pages to scroll. Fractional values are supported. Defaults to 1"),
		    "x",
		    prop("number",
			 "X coordinate in screenshot pixel coordinates"),
		    "y",
		    prop("number",
			 "Y coordinate in screenshot pixel coordinates")),
	    (const char *const[]){ "app", "direction", NULL }, 0);
	add(list, "drag",
	    "Drag from one point to another using pixel coordinates",
	    json_pack("{s:o,s:o,s:o,s:o,s:o}", "app", app(), "from_x",
		      prop("number", "Start X coordinate"), "from_y",
		      prop("number", "Start Y coordinate"), "to_x",
		      prop("number", "End X coordinate"), "to_y",
		      prop("number", "End Y coordinate")),
	    (const char *const[]){ "app", "from_x", "from_y", "to_x", "to_y",
				   NULL },
	    0);
	add(list, "press_key",
	    "Press a key or key-combination on the keyboard, including modifier and navigation keys.\n  - This supports xdotool's `key` syntax.\n  - Examples: \"a\", \"Return\", \"Tab\", \"super+c\", \"Up\", \"KP_0\" (for the numpad 0 key).",
	    json_pack("{s:o,s:o}", "app", app(), "key",
		      prop("string", "Key or key combination to press")),
	    (const char *const[]){ "app", "key", NULL }, 0);
	add(list, "type_text", "Type literal text using keyboard input",
	    json_pack("{s:o,s:o}", "app", app(), "text",
		      prop("string", "Literal text to type")),
	    (const char *const[]){ "app", "text", NULL }, 0);

	/* a step: one of the actions above, with its arguments */
	step = json_pack("{s:s,s:{s:{s:s,s:o},s:o}}", "type", "object",
			 "properties", "tool", "type", "string", "enum",
			 names_from(list, first_action), "arguments",
			 prop("object", "The tool's arguments, without app"));
	json_object_set_new(
		step, "required",
		strings((const char *const[]){ "tool", "arguments", NULL }));
	json_object_set_new(step, "additionalProperties", json_false());
	add(list, "sequence",
	    "Run several Computer Use actions on one app, in order, in a single call, then return the app state once at the end. Use it only when the UI will not change in ways that affect later steps (for example repeated drags on a canvas, or typing into a field you already focused); after opening menus, dialogs or switching windows, observe again before acting. Stops at the first failing step and reports which steps completed.",
	    json_pack(
		    "{s:o,s:{s:s,s:s,s:i,s:i,s:o},s:o}", "app", app(), "steps",
		    "type", "array", "description",
		    "Actions to run in order (at most 256). Each step names a tool and gives that tool's arguments without app.",
		    "minItems", 1, "maxItems", SEQUENCE_MAX_STEPS, "items",
		    step, "disable_diff",
		    prop("boolean",
			 "Return the full accessibility tree at the end instead of a diff.")),
	    (const char *const[]){ "app", "steps", NULL }, 0);
	return list;
}
