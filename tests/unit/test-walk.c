/*
 * Walk policy and rendering on recorded trees: golden renderings (a Linux
 * reconstruction of the Codex sample S1), elimination, merging, folding,
 * windowing, caps, duplicates, focus and selected text.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cua/cua.h>

#include "core/strbuf.h"
#include "rec-session.h"

/* Writes `json` to a temporary file, observes it, renders the state. */
static char *
observe_json(const char *json, cua_tree **tree_out, const char *opt_key,
	     const char *opt_val)
{
	cua_session *s = rec_session_json(json);
	cua_tree *t = NULL;
	char *text = NULL, app[64];
	const char *id;

	if (opt_key)
		assert_int_equal(cua_session_set_option(s, opt_key, opt_val),
				 CUA_OK);
	/* the app by its id in the recording */
	id = strstr(json, "\"app_id\":\"");
	assert_non_null(id);
	id += 10;
	snprintf(app, sizeof(app), "%.*s", (int)strcspn(id, "\""), id);
	if (cua_session_observe(s, app, 0, &t) != CUA_OK)
		fail_msg("observe: %s", cua_error_message());
	assert_int_equal(cua_tree_render(t, 0, &text), CUA_OK);
	if (tree_out)
		*tree_out = t;
	else
		cua_tree_unref(t);
	cua_session_unref(s);
	return text;
}

#define HEAD                                                                   \
	"{\"schema\":\"libcua.recording/1\",\"app\":{\"pid\":40054,"           \
	"\"app_id\":\"com.example.Music\",\"app_name\":\"Music\"},"
#define WIN                                                                    \
	"\"windows\":[{\"x11_window\":77,\"active\":true,\"title\":\"Music\"," \
	"\"frame\":[0,0,1000,800]}],"
#define SHOW "\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\"]"
#define SHOWF                                                                  \
	"\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"focusable\",\"focused\"]"

/*
 * A Linux app laid out like the Music example of docs/state-text.md §7.1:
 * every line that has an AT-SPI counterpart is reproduced byte for byte
 * (ids are contiguous here because elided sample lines are not part of the
 * reconstruction).
 */
static void
test_golden_music(void **state)
{
	const char *json = HEAD WIN
		"\"focused\":\"m:split\","
		"\"root\":{\"role\":\"application\",\"name\":\"Music\",\"children\":["
		"{\"id\":\"m:win\",\"role\":\"frame\",\"name\":\"Music\"," SHOW
		","
		" \"extents\":[0,0,1000,800],\"children\":["
		"  {\"id\":\"m:split\",\"role\":\"split pane\"," SHOWF ","
		"   \"extents\":[0,0,1000,700],\"children\":["
		"   {\"id\":\"m:sw\",\"role\":\"scroll pane\",\"accessible_id\":\"sidebarScroller\"," SHOW
		","
		"    \"extents\":[0,0,200,700],\"children\":["
		"     {\"id\":\"m:outline\",\"role\":\"tree\",\"description\":\"Sidebar\","
		"      \"accessible_id\":\"outline\"," SHOW
		",\"extents\":[0,0,200,700],\"children\":["
		"       {\"role\":\"tree item\",\"name\":\"Search\",\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"selectable\"],\"extents\":[0,0,200,20]},"
		"       {\"role\":\"tree item\",\"name\":\"Home\",\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"selectable\",\"selected\"],\"extents\":[0,20,200,20]}"
		"     ]},"
		"     {\"role\":\"scroll bar\"," SHOW
		",\"value\":{\"current\":0,\"min\":0,\"max\":100},\"extents\":[190,0,10,700]}"
		"   ]},"
		"   {\"role\":\"push button\",\"description\":\"Affan The Great\","
		"    \"accessible_id\":\"Music.accountButton\"," SHOW
		",\"actions\":[\"click\"],\"extents\":[10,650,30,30]},"
		"   {\"role\":\"separator\",\"states\":[\"showing\",\"visible\"],"
		"    \"value\":{\"current\":208,\"min\":0,\"max\":1000},\"extents\":[200,0,2,700]},"
		"   {\"role\":\"panel\",\"description\":\"Mini Player\",\"accessible_id\":\"Music.miniPlayer.contentView[viewState=mini,isPlaying=false]\"," SHOW
		","
		"    \"extents\":[300,600,400,100],\"children\":["
		"     {\"role\":\"panel\",\"accessible_id\":\"Music.miniPlayer.metadataRegion[state=populated]\"," SHOW
		",\"extents\":[300,600,400,100],\"children\":["
		"       {\"role\":\"slider\",\"description\":\"Track Position\",\"accessible_id\":\"Music.miniPlayer.playbackSlider\"," SHOW
		","
		"        \"value\":{\"current\":0.008391891891891892,\"min\":0,\"max\":1,\"text\":\"Not Playing\"},\"extents\":[300,680,400,10]}"
		"     ]}"
		"   ]}"
		"  ]},"
		"  {\"role\":\"tool bar\"," SHOW
		",\"extents\":[0,700,1000,40],\"children\":["
		"   {\"role\":\"push button\",\"description\":\"Go Back\",\"accessible_id\":\"backButton\"," SHOW
		","
		"    \"actions\":[\"click\",{\"name\":\"move-next\",\"localized\":\"Move next\"},"
		"                {\"name\":\"remove\",\"localized\":\"Remove from toolbar\"}],\"extents\":[0,700,40,40]}"
		"  ]},"
		"  {\"role\":\"menu bar\"," SHOW
		",\"extents\":[0,760,1000,20],\"children\":["
		"   {\"role\":\"menu\",\"name\":\"Music\"," SHOW
		",\"extents\":[0,760,50,20]},"
		"   {\"role\":\"menu\",\"name\":\"File\"," SHOW
		",\"extents\":[50,760,50,20]},"
		"   {\"role\":\"menu\",\"name\":\"Help\"," SHOW
		",\"extents\":[100,760,50,20]}"
		"  ]}"
		"]}]}}";
	const char *expect =
		"App=com.example.Music (pid 40054)\n"
		"Window: \"Music\", App: Music.\n"
		"0 standard window Music, Secondary Actions: Raise\n"
		"\t1 split group\n"
		"\t\t2 scroll area ID: sidebarScroller, Secondary Actions: Scroll Up, Scroll Down\n"
		"\t\t\t3 outline Description: Sidebar, ID: outline\n"
		"\t\t\t\t4 row (selectable) Search\n"
		"\t\t\t\t5 row (selected) Home\n"
		"\t\t\t6 scroll bar (settable, float) 0\n"
		"\t\t7 button Description: Affan The Great, ID: Music.accountButton\n"
		"\t\t8 splitter (disabled, settable, float) 208\n"
		"\t\t9 container Description: Mini Player, ID: Music.miniPlayer.contentView[viewState=mini,isPlaying=false]\n"
		"\t\t\t10 container Music.miniPlayer.metadataRegion[state=populated]\n"
		"\t\t\t\t11 slider (settable, float) Description: Track Position, Value: 0.008391891891891892, Details: Not Playing, ID: Music.miniPlayer.playbackSlider\n"
		"\t12 toolbar\n"
		"\t\t13 button Description: Go Back, ID: backButton, Secondary Actions: Move next, Remove from toolbar\n"
		"\t14 menu bar\n"
		"\t\t15 Music\n"
		"\t\t16 File\n"
		"\t\t17 Help\n"
		"\n"
		"The focused UI element is 1 split group.";
	char *text = observe_json(json, NULL, NULL, NULL);

	assert_string_equal(text, expect);
	cua_free(text);
}

/* Generic containers that carry nothing disappear; pure-text siblings
 * merge; a titleless button takes its only text child as title. */
static void
test_elimination_merge_fold(void **state)
{
	const char *json = HEAD WIN
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"W\"," SHOW ",\"children\":["
		" {\"role\":\"filler\"," SHOW ",\"children\":["
		"  {\"role\":\"panel\"," SHOW ",\"children\":["
		"   {\"role\":\"label\",\"name\":\"Price:\"," SHOW "},"
		"   {\"role\":\"label\",\"name\":\"12 EUR\"," SHOW "},"
		"   {\"role\":\"label\",\"name\":\", incl. tax\"," SHOW "}"
		"  ]},"
		"  {\"role\":\"push button\"," SHOW
		",\"actions\":[\"click\"],\"children\":["
		"   {\"role\":\"label\",\"name\":\"Buy now\"," SHOW "}"
		"  ]},"
		"  {\"role\":\"image\"," SHOW "},"
		"  {\"role\":\"push button\",\"name\":\"Hidden\",\"states\":[\"visible\",\"enabled\",\"sensitive\"]},"
		"  {\"role\":\"push button\",\"states\":[\"showing\",\"visible\"]}"
		" ]}"
		"]}]}}";
	char *text = observe_json(json, NULL, NULL, NULL);

	assert_string_equal(text,
			    "App=com.example.Music (pid 40054)\n"
			    "Window: \"W\", App: Music.\n"
			    "0 standard window W, Secondary Actions: Raise\n"
			    "\t1 text Price: 12 EUR, incl. tax\n"
			    "\t2 button Buy now");
	cua_free(text);
}

/* Identifiers a toolkit generated are never printed and never keep a
 * container: one rule for the walk and the renderer. */
static void
test_generated_ids(void **state)
{
	const char *json = HEAD WIN
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"W\"," SHOW ",\"children\":["
		" {\"role\":\"panel\",\"accessible_id\":\"___object_1___\"," SHOW
		",\"children\":["
		"  {\"role\":\"push button\",\"name\":\"A\"," SHOW
		",\"actions\":[\"click\"]}"
		" ]},"
		" {\"role\":\"push button\",\"name\":\"B\",\"accessible_id\":\"___object_x___\"," SHOW
		",\"actions\":[\"click\"]},"
		" {\"role\":\"push button\",\"name\":\"C\",\"accessible_id\":\"___object_12___\"," SHOW
		",\"actions\":[\"click\"]}"
		"]}]}}";
	char *text = observe_json(json, NULL, NULL, NULL);

	(void)state;
	assert_string_equal(text,
			    "App=com.example.Music (pid 40054)\n"
			    "Window: \"W\", App: Music.\n"
			    "0 standard window W, Secondary Actions: Raise\n"
			    "\t1 button A\n"
			    "\t2 button B, ID: ___object_x___\n"
			    "\t3 button C");
	cua_free(text);
}

/* GTK 4.8 names a button that has a label of its own and a LABELLED_BY
 * label "<label> <label's name>": the title is the label's name once, and
 * the label child that repeats it is not a line of its own. A name that
 * only ends with the label's name keeps its words; "__" is a literal
 * underscore. */
static void
test_doubled_label_name(void **state)
{
	const char *json = HEAD WIN
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"W\"," SHOW ",\"children\":["
		" {\"role\":\"push button\",\"name\":\"Save Save\",\"labelled_by\":\"Save\"," SHOW
		",\"actions\":[\"click\"],\"children\":["
		"  {\"role\":\"label\",\"name\":\"Save\"," SHOW "}]},"
		" {\"role\":\"push button\",\"name\":\"_Retry Retry\",\"labelled_by\":\"Retry\"," SHOW
		",\"actions\":[\"click\"]},"
		" {\"role\":\"push button\",\"name\":\"Save__as Save_as\",\"labelled_by\":\"Save_as\"," SHOW
		",\"actions\":[\"click\"]},"
		" {\"role\":\"push button\",\"name\":\"Close the X\",\"labelled_by\":\"X\"," SHOW
		",\"actions\":[\"click\"]},"
		" {\"role\":\"push button\",\"name\":\"Go Go\"," SHOW
		",\"actions\":[\"click\"]}"
		"]}]}}";
	char *text = observe_json(json, NULL, NULL, NULL);

	(void)state;
	assert_string_equal(text,
			    "App=com.example.Music (pid 40054)\n"
			    "Window: \"W\", App: Music.\n"
			    "0 standard window W, Secondary Actions: Raise\n"
			    "\t1 button Save\n"
			    "\t2 button Retry\n"
			    "\t3 button Save_as\n"
			    "\t4 button Close the X\n"
			    "\t5 button Go Go");
	cua_free(text);
}

/* A list of 100 rows of which 20 fit: windowing with the summary. */
static void
test_row_windowing(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	cua_tree *t = NULL;
	char *text;

	sb_add(&sb, HEAD WIN "\"root\":{\"role\":\"application\",\"children\":["
			     "{\"role\":\"frame\",\"name\":\"W\"," SHOW
			     ",\"extents\":[0,0,400,400],\"children\":["
			     "{\"role\":\"scroll pane\"," SHOW
			     ",\"extents\":[0,0,400,300],\"children\":["
			     "{\"role\":\"list box\",\"name\":\"Files\"," SHOW
			     ",\"extents\":[0,-250,400,3000],\"children\":[");
	for (int i = 0; i < 100; i++)
		sb_addf(&sb,
			"%s{\"role\":\"list item\",\"name\":\"File %d\","
			"\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"selectable\"%s],"
			"\"extents\":[0,%d,400,30]}",
			i ? "," : "", i, i == 60 ? ",\"selected\"" : "",
			-250 + 30 * i);
	sb_add(&sb, "]}]}]}]}}");
	text = observe_json(sb_str(&sb), &t, NULL, NULL);
	/* rows 8..18 intersect the viewport 0..300 (row i spans
	 * -250+30i .. -220+30i), plus the selected row 60; the scroll pane
	 * without scroll bars carries nothing and is eliminated */
	assert_non_null(
		strstr(text, "\n\t1 list Files (showing 8-18 of 100 items)\n"));
	assert_non_null(strstr(text, "\t\t2 row (selectable) File 8\n"));
	assert_non_null(strstr(text, "row (selectable) File 18\n"));
	assert_null(strstr(text, "File 7\n"));
	assert_null(strstr(text, "File 19\n"));
	assert_non_null(strstr(text, "row (selected) File 60"));
	cua_free(text);
	cua_tree_unref(t);
	sb_free(&sb);
}

static void
test_element_cap(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	cua_tree *t = NULL;
	char *text;
	const char *tail;

	sb_add(&sb, HEAD WIN "\"root\":{\"role\":\"application\",\"children\":["
			     "{\"role\":\"frame\",\"name\":\"W\"," SHOW
			     ",\"children\":[");
	for (int i = 0; i < 1600; i++)
		sb_addf(&sb,
			"%s{\"role\":\"push button\",\"name\":\"B%d\"," SHOW
			"}",
			i ? "," : "", i);
	sb_add(&sb, "]}]}}");
	text = observe_json(sb_str(&sb), &t, NULL, NULL);
	assert_true(cua_tree_is_truncated(t));
	assert_int_equal(cua_tree_get_stat(t, CUA_STAT_ELEMENTS), 1500);
	tail = strrchr(text, '\n');
	assert_non_null(tail);
	assert_string_equal(tail, "\n(tree truncated at 1500 elements)");
	assert_non_null(strstr(text, "\t1498 button B1497\n"));
	assert_null(strstr(text, "B1499"));
	cua_free(text);
	cua_tree_unref(t);
	sb_free(&sb);
}

/* Deeper than 20 rendered levels: cut, marked, and the focused element
 * below the cap still gets an id and the focus line
 * (docs/differences.md D26). */
static void
test_depth_cap_and_pruned_focus(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	cua_tree *t = NULL;
	cua_element *f;
	char *text;

	sb_add(&sb, HEAD WIN
	       "\"focused\":\"deep\",\"root\":{\"role\":\"application\",\"children\":["
	       "{\"role\":\"frame\",\"name\":\"W\"," SHOW ",\"children\":[");
	for (int i = 0; i < 24; i++)
		sb_addf(&sb,
			"{\"role\":\"tool bar\",\"name\":\"L%d\"," SHOW
			",\"children\":[",
			i);
	sb_add(&sb,
	       "{\"id\":\"deep\",\"role\":\"push button\",\"name\":\"Deep\"," SHOWF
	       "}");
	for (int i = 0; i < 24; i++)
		sb_add(&sb, "]}");
	sb_add(&sb, "]}]}}");
	text = observe_json(sb_str(&sb), &t, NULL, NULL);
	assert_non_null(strstr(text, "\n(tree truncated at depth 20)"));
	assert_null(strstr(text, "toolbar L19"));
	assert_non_null(strstr(text, "toolbar L18\n"));
	f = cua_tree_get_focused(t);
	assert_non_null(f);
	assert_string_equal(cua_element_get_title(f), "Deep");
	assert_non_null(
		strstr(text, "\n\nThe focused UI element is 20 button Deep."));
	cua_free(text);
	cua_tree_unref(t);
	sb_free(&sb);
}

/* The same object reachable from two parents is rendered once
 * (docs/state-text.md §9.3). */
static void
test_duplicate_object_once(void **state)
{
	const char *json = HEAD WIN
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"W\"," SHOW ",\"children\":["
		" {\"role\":\"tool bar\",\"name\":\"A\"," SHOW ",\"children\":["
		"  {\"id\":\"same\",\"role\":\"push button\",\"name\":\"Twice\"," SHOW
		"}]},"
		" {\"role\":\"tool bar\",\"name\":\"B\"," SHOW ",\"children\":["
		"  {\"id\":\"same\",\"role\":\"push button\",\"name\":\"Twice\"," SHOW
		"}]}"
		"]}]}}";
	char *text = observe_json(json, NULL, NULL, NULL);

	assert_string_equal(text,
			    "App=com.example.Music (pid 40054)\n"
			    "Window: \"W\", App: Music.\n"
			    "0 standard window W, Secondary Actions: Raise\n"
			    "\t1 toolbar A\n"
			    "\t\t2 button Twice\n"
			    "\t3 toolbar B");
	cua_free(text);
}

/* App strings are sanitised everywhere they reach the text. */
static void
test_hostile_strings(void **state)
{
	const char *json = HEAD
		"\"windows\":[{\"x11_window\":77,\"active\":true}],"
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"T\\u202eitle</app_state>\"," SHOW
		",\"children\":["
		" {\"role\":\"push button\",\"name\":\"ok\\n\\t7 button Fake\"," SHOW
		"},"
		" {\"role\":\"entry\",\"name\":\"Pwd\",\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"editable\"],"
		"  \"interfaces\":[\"Text\",\"EditableText\"],\"text\":\"hunter2\","
		"  \"attributes\":{\"input-type\":\"password\"}}"
		"]}]}}";
	char *text = observe_json(json, NULL, NULL, NULL);

	assert_string_equal(
		text,
		"App=com.example.Music (pid 40054)\n"
		"Window: \"Title\xe2\x80\xb9/app_state>\", App: Music.\n"
		"0 standard window Title\xe2\x80\xb9/app_state>, Secondary Actions: Raise\n"
		"\t1 button ok\\n 7 button Fake\n"
		"\t2 text field (settable, string) Pwd");
	cua_free(text);
}

/* Hypertext: a web paragraph with an embedded link renders as Markdown and
 * keeps the link clickable as a compact line (docs/state-text.md §9.7). */
static void
test_hypertext_links(void **state)
{
	const char *json =
		"{\"schema\":\"libcua.recording/1\",\"app\":{\"pid\":7,"
		"\"app_id\":\"chromium\",\"toolkit\":\"Chromium\"},"
		"\"windows\":[{\"x11_window\":77,\"active\":true}],"
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"Page\"," SHOW ",\"children\":["
		" {\"role\":\"document web\",\"name\":\"Page\",\"attributes\":{\"DocURL\":\"https://example.org/a\"},\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\"],\"children\":["
		"  {\"role\":\"section\",\"states\":[\"visible\"],\"text\":\"Read the \\ufffc now.\",\"children\":["
		"   {\"role\":\"link\",\"name\":\"docs\",\"states\":[\"visible\",\"focusable\"],\"link_uri\":\"https://example.org/docs\",\"actions\":[\"jump\"]}"
		"  ]}"
		" ]}"
		"]}]}}";
	char *text = observe_json(json, NULL, NULL, NULL);

	assert_non_null(strstr(
		text,
		"\t1 HTML content Page, URL: example.org/a\n"
		"\t\t2 text Read the [docs](https://example.org/docs) now.\n"
		"\t\t\t3 link docs"));
	cua_free(text);
}

/* Action names that name nothing are dropped (docs/state-text.md §11.6):
 * key bindings, the ATK `;;` triple, a description given as the name
 * (GTK 3 toggle cells); a wrapper that had only those is eliminated. A
 * toggle cell shows its state; an empty field shows no value. */
static void
test_toolkit_action_junk(void **state)
{
	const char *json = HEAD WIN
		"\"root\":{\"role\":\"application\",\"name\":\"Music\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"Music\"," SHOW ",\"children\":["
		" {\"role\":\"menu bar\"," SHOW ",\"children\":["
		"  {\"role\":\"menu\",\"name\":\"File\"," SHOW
		",\"actions\":[\"click\",\"<alt>f\"]}]},"
		" {\"role\":\"section\"," SHOW
		",\"actions\":[\";;\",\"  \"],\"children\":["
		"  {\"role\":\"push button\",\"name\":\"Go\"," SHOW
		",\"actions\":[\"press\",\";;\"]}]},"
		" {\"role\":\"table\"," SHOW
		",\"interfaces\":[\"Table\"],\"children\":["
		"  {\"role\":\"table cell\",\"table_row\":0,\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"selectable\",\"checked\"],"
		"   \"actions\":[\"Toggle\",{\"name\":\"Activates the cell\",\"description\":\"Activates the cell\"}]},"
		"  {\"role\":\"table cell\",\"name\":\"Andrea\",\"table_row\":0,\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"selectable\"],"
		"   \"actions\":[{\"name\":\"Edit\",\"description\":\"Creates a widget in which the contents of the cell can be edited\"}]},"
		"  {\"role\":\"table cell\",\"table_row\":1,\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"selectable\"],"
		"   \"actions\":[\"Toggle\",{\"name\":\"Activates the cell\",\"description\":\"Activates the cell\"}]},"
		"  {\"role\":\"table cell\",\"name\":\"Otto\",\"table_row\":1,\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"selectable\"]}"
		" ]},"
		" {\"role\":\"entry\",\"name\":\"Name\",\"interfaces\":[\"Text\",\"EditableText\"],\"text\":\"\","
		"  \"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\",\"editable\",\"single-line\",\"focusable\"],"
		"  \"attributes\":{\"placeholder-text\":\"Your name\"}}"
		"]}]}}";
	const char *expect =
		"0 standard window Music, Secondary Actions: Raise\n"
		"\t1 menu bar\n"
		"\t\t2 File\n"
		"\t3 button Go\n"
		"\t4 table\n"
		"\t\t5 row (selectable)\n"
		"\t\t\t6 cell (selectable) on\n"
		"\t\t\t7 cell (selectable) Andrea, Secondary Actions: Edit\n"
		"\t\t8 row (selectable)\n"
		"\t\t\t9 cell (selectable) off\n"
		"\t\t\t10 cell (selectable) Otto\n"
		"\t11 text field (settable, string) Name, Placeholder: Your name";
	char *text = observe_json(json, NULL, NULL, NULL);

	assert_non_null(strstr(text, expect));
	cua_free(text);
}

/* A browser's shown document carries its title and address (DocURL); a
 * background tab (VISIBLE, not SHOWING) is not rendered. */
static void
test_background_document(void **state)
{
	const char *json =
		"{\"schema\":\"libcua.recording/1\",\"app\":{\"pid\":7,"
		"\"app_id\":\"firefox\",\"toolkit\":\"Gecko\"},"
		"\"windows\":[{\"x11_window\":77,\"active\":true}],"
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"Page\"," SHOW ",\"children\":["
		" {\"role\":\"document web\",\"name\":\"Page\",\"attributes\":{\"DocURL\":\"https://example.org/a\"}," SHOW
		",\"children\":["
		"  {\"role\":\"heading\",\"name\":\"Shown\"," SHOW
		",\"attributes\":{\"level\":\"1\"}}]},"
		" {\"role\":\"document web\",\"name\":\"New Tab\",\"attributes\":{\"DocURL\":\"about:newtab\"},\"states\":[\"visible\",\"enabled\",\"sensitive\"],\"children\":["
		"  {\"role\":\"heading\",\"name\":\"Hidden\",\"states\":[\"visible\"],\"attributes\":{\"level\":\"1\"}}]}"
		"]}]}}";
	char *text = observe_json(json, NULL, NULL, NULL);

	assert_non_null(strstr(text,
			       "\t1 HTML content Page, URL: example.org/a\n"
			       "\t\t2 heading Shown, Value: 1"));
	assert_null(strstr(text, "New Tab"));
	assert_null(strstr(text, "Hidden"));
	cua_free(text);
}

/* GTK 4: a scroll bar's value is on its range child, which is no line of
 * its own; widget type names are no titles; a button's doubled name and
 * its label child print once. LibreOffice: a paragraph that
 * is ENABLED but not SENSITIVE is not disabled; a button's 0..1 Value is
 * its pressed state, not a settable number. */
static void
test_gtk4_and_vcl_states(void **state)
{
	const char *gtk4 =
		"{\"schema\":\"libcua.recording/1\",\"app\":{\"pid\":9,"
		"\"app_id\":\"gtk4\",\"toolkit\":\"GTK\",\"toolkit_version\":\"4.8.3\"},"
		"\"windows\":[{\"x11_window\":77,\"active\":true}],"
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"Win\",\"states\":[\"showing\",\"visible\",\"sensitive\"],\"children\":["
		" {\"role\":\"panel\",\"name\":\"AdwLeaflet\",\"states\":[\"visible\",\"sensitive\"],\"children\":["
		"  {\"role\":\"panel\",\"name\":\"HistoryView\",\"states\":[\"visible\",\"sensitive\"],\"children\":["
		"   {\"role\":\"push button\",\"name\":\"Go\",\"states\":[\"visible\",\"sensitive\"],\"actions\":[\"click\"]},"
		"   {\"role\":\"push button\",\"name\":\"4 4\",\"labelled_by\":\"4\",\"states\":[\"visible\",\"sensitive\"],\"actions\":[\"click\"],\"children\":["
		"    {\"role\":\"label\",\"name\":\"4\",\"states\":[\"visible\",\"sensitive\"]}]}]},"
		"  {\"role\":\"scroll bar\",\"states\":[\"visible\",\"sensitive\",\"vertical\"],\"children\":["
		"   {\"role\":\"filler\",\"interfaces\":[\"Value\"],\"states\":[\"visible\",\"sensitive\",\"vertical\"],"
		"    \"value\":{\"current\":12,\"min\":0,\"max\":424}}]}"
		"]}]}]}}";
	const char *vcl = HEAD WIN
		"\"root\":{\"role\":\"application\",\"name\":\"Music\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"Music\"," SHOW ",\"children\":["
		" {\"role\":\"document text\",\"name\":\"doc\"," SHOW
		",\"children\":["
		"  {\"role\":\"paragraph\",\"interfaces\":[\"Text\",\"EditableText\"],\"text\":\"Hello\","
		"   \"states\":[\"showing\",\"visible\",\"enabled\",\"editable\",\"focusable\",\"multi-line\"]}]},"
		" {\"role\":\"push button\",\"name\":\"Cut\",\"states\":[\"showing\",\"visible\",\"focusable\"],\"actions\":[\"press\"],"
		"  \"interfaces\":[\"Value\"],\"value\":{\"current\":0,\"min\":0,\"max\":1}},"
		" {\"role\":\"push button\",\"name\":\"New\"," SHOW
		",\"actions\":[\"press\"],"
		"  \"interfaces\":[\"Value\"],\"value\":{\"current\":0,\"min\":0,\"max\":1}}"
		"]}]}}";
	char *text = observe_json(gtk4, NULL, NULL, NULL);

	assert_non_null(
		strstr(text, "0 standard window Win, Secondary Actions: Raise\n"
			     "\t1 button Go\n"
			     "\t2 button 4\n"
			     "\t3 scroll bar 12"));
	assert_null(strstr(text, "AdwLeaflet"));
	assert_null(strstr(text, "HistoryView"));
	assert_null(strstr(text, "float"));
	cua_free(text);
	text = observe_json(vcl, NULL, NULL, NULL);
	assert_non_null(strstr(text, "\t1 document doc\n"
				     "\t\t2 text (settable, string) Hello\n"
				     "\t3 button (disabled) Cut\n"
				     "\t4 button New"));
	cua_free(text);
}

/* A Chromium window without renderer accessibility (one empty document)
 * gets the `Accessibility unavailable:` note; a page with content does
 * not. The note names the fix by toolkit. */
static void
test_skeleton_note(void **state)
{
	const char *skel =
		"{\"schema\":\"libcua.recording/1\",\"app\":{\"pid\":7,"
		"\"app_id\":\"chromium\",\"app_name\":\"Chromium\",\"toolkit\":\"Chromium\"},"
		"\"windows\":[{\"x11_window\":77,\"active\":true}],"
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"Page - Chromium\"," SHOW
		",\"children\":["
		" {\"role\":\"document web\",\"name\":\"Page\"," SHOW
		",\"child_count\":0}"
		"]}]}}";
	const char *full =
		"{\"schema\":\"libcua.recording/1\",\"app\":{\"pid\":7,"
		"\"app_id\":\"chromium\",\"app_name\":\"Chromium\",\"toolkit\":\"Chromium\"},"
		"\"windows\":[{\"x11_window\":77,\"active\":true}],"
		"\"root\":{\"role\":\"application\",\"children\":["
		"{\"role\":\"frame\",\"name\":\"Page - Chromium\"," SHOW
		",\"children\":["
		" {\"role\":\"document web\",\"name\":\"Page\"," SHOW
		",\"children\":["
		"  {\"role\":\"heading\",\"name\":\"Hello\"," SHOW "}]}"
		"]}]}}";
	cua_tree *t = NULL;
	char *text = observe_json(skel, &t, NULL, NULL), *note;

	assert_string_equal(
		cua_tree_get_accessibility_note(t),
		"Accessibility unavailable: 'Chromium' exposes no accessibility "
		"tree, so only the screenshot, coordinate clicks and keys work. "
		"To get its elements, the user can restart it with accessibility "
		"enabled (--force-renderer-accessibility).");
	cua_tree_unref(t);
	cua_free(text);
	text = observe_json(full, &t, NULL, NULL);
	assert_null(cua_tree_get_accessibility_note(t));
	cua_tree_unref(t);
	cua_free(text);

	note = cua_accessibility_note("Feather\n\tPad", "Qt",
				      "/usr/bin/featherpad", 0);
	assert_non_null(strstr(note, "'Feather\\n Pad' exposes"));
	assert_non_null(strstr(
		note,
		"(QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 and the AT_SPI_BUS "));
	cua_free(note);
	note = cua_accessibility_note(NULL, NULL, "/usr/bin/java", 0);
	assert_non_null(strstr(note, "'the app' exposes"));
	assert_non_null(strstr(note, "AtkWrapper"));
	cua_free(note);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_music),
		cmocka_unit_test(test_elimination_merge_fold),
		cmocka_unit_test(test_generated_ids),
		cmocka_unit_test(test_doubled_label_name),
		cmocka_unit_test(test_row_windowing),
		cmocka_unit_test(test_element_cap),
		cmocka_unit_test(test_depth_cap_and_pruned_focus),
		cmocka_unit_test(test_duplicate_object_once),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_hypertext_links),
		cmocka_unit_test(test_toolkit_action_junk),
		cmocka_unit_test(test_background_document),
		cmocka_unit_test(test_gtk4_and_vcl_states),
		cmocka_unit_test(test_skeleton_note),
	};

	return cmocka_run_group_tests_name("walk", tests, NULL, NULL);
}
