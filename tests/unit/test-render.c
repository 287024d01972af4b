/*
 * The state-text renderer (docs/state-text.md §1–§8) on hand-made elements,
 * reproducing the Codex lines docs/state-text.md §3, §7 quotes byte for byte.
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

#include "core/arena.h"
#include "core/render.h"
#include "core/sanitize.h"
#include "core/strbuf.h"
#include "core/tree.h"
#include "util.h"

#define NOTE                                                                   \
	"Note: Pay special attention to the content selected by the "          \
	"user. If the user asks a question or refers to the content they "     \
	"are looking at on-screen, they might be referring to the selected "   \
	"content (but they might be referring to something else that's "       \
	"visible, too)."

#define SEL (CUA_TRAIT_SELECTABLE)
#define SETF (CUA_TRAIT_SETTABLE | CUA_TRAIT_FLOAT)
#define SETS (CUA_TRAIT_SETTABLE | CUA_TRAIT_STRING)

static void
el(struct cua_element *e, uint32_t id, const char *role_text)
{
	memset(e, 0, sizeof(*e));
	e->id = id;
	e->parent = -1;
	e->role_text = role_text;
	e->title = "";
	e->description = "";
	e->help = "";
	e->value = "";
	e->details = "";
	e->placeholder = "";
	e->url = "";
	e->identifier = "";
	e->skel = -1;
}

static void
expect_line(const struct cua_element *e, uint32_t flags, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	cua_render_line(&sb, e, flags);
	assert_false(sb.oom);
	assert_string_equal(sb_str(&sb), want);
	sb_free(&sb);
}

static void
expect_state(const struct cua_tree *tree, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	cua_render_state(&sb, tree);
	assert_false(sb.oom);
	assert_string_equal(sb_str(&sb), want);
	sb_free(&sb);
}

static void
test_codex_lines_music(void **state)
{
	static const char *raise[] = { "Raise" };
	static const char *collapse[] = { "Collapse" };
	static const char *scroll[] = { "Scroll Up", "Scroll Down" };
	static const char *back_actions[] = { "Move next",
					      "Remove from toolbar" };
	struct cua_element e;

	el(&e, 0, "standard window");
	e.title = "Music";
	e.actions = raise;
	e.n_actions = 1;
	expect_line(&e, 0, "0 standard window Music, Secondary Actions: Raise");

	el(&e, 1, "split group");
	expect_line(&e, 0, "1 split group");

	el(&e, 2, "scroll area");
	e.identifier = "sidebarScroller";
	e.actions = scroll;
	e.n_actions = 2;
	expect_line(
		&e, 0,
		"2 scroll area ID: sidebarScroller, Secondary Actions: Scroll Up, Scroll Down");

	el(&e, 3, "outline");
	e.description = "Sidebar";
	e.identifier = "outline";
	expect_line(&e, 0, "3 outline Description: Sidebar, ID: outline");

	/* as a title, and as the only value (printed bare) */
	el(&e, 4, "row");
	e.traits = SEL;
	e.title = "Search";
	expect_line(&e, 0, "4 row (selectable) Search");
	e.title = "";
	e.value = "Search";
	expect_line(&e, 0, "4 row (selectable) Search");

	el(&e, 5, "row");
	e.traits = CUA_TRAIT_SELECTED | CUA_TRAIT_SELECTABLE;
	e.title = "Home";
	expect_line(&e, 0, "5 row (selected) Home");

	el(&e, 6, "row");
	e.traits = SEL;
	e.description = "Grid view";
	e.value = "New";
	expect_line(&e, 0,
		    "6 row (selectable) Description: Grid view, Value: New");

	el(&e, 15, "row");
	e.traits = SEL | CUA_TRAIT_EXPANDED;
	e.value = "Playlists";
	e.actions = collapse;
	e.n_actions = 1;
	expect_line(
		&e, 0,
		"15 row (selectable, expanded) Value: Playlists, Secondary Actions: Collapse");

	el(&e, 59, "scroll bar");
	e.traits = SETF;
	e.value = "0";
	expect_line(&e, 0, "59 scroll bar (settable, float) 0");

	el(&e, 60, "value indicator");
	e.traits = SETF;
	e.value = "0";
	expect_line(&e, 0, "60 value indicator (settable, float) 0");

	el(&e, 65, "button");
	e.description = "Affan The Great";
	e.identifier = "Music.accountButton";
	expect_line(
		&e, 0,
		"65 button Description: Affan The Great, ID: Music.accountButton");

	el(&e, 66, "splitter");
	e.traits = CUA_TRAIT_DISABLED | SETF;
	e.value = "208";
	expect_line(&e, 0, "66 splitter (disabled, settable, float) 208");

	el(&e, 69, "section");
	e.traits = CUA_TRAIT_DISABLED;
	expect_line(&e, 0, "69 section (disabled)");

	el(&e, 70, "unknown");
	e.description = "Saiyaara (From \"Saiyaara\") - Single";
	e.identifier =
		"Music.shelfItem.AlbumDetailHeaderLockup[id=album-detail-header-1817818677,parentId=album-detail-header-section-1817818677]";
	expect_line(
		&e, 0,
		"70 unknown Description: Saiyaara (From \"Saiyaara\") - Single, ID: Music.shelfItem.AlbumDetailHeaderLockup[id=album-detail-header-1817818677,parentId=album-detail-header-section-1817818677]");

	el(&e, 71, "text");
	e.value = "Saiyaara (From \"Saiyaara\") - Single";
	expect_line(&e, 0, "71 text Saiyaara (From \"Saiyaara\") - Single");

	el(&e, 72, "button");
	e.traits = CUA_TRAIT_DISABLED;
	e.title = "Tanishk Bagchi";
	expect_line(&e, 0, "72 button (disabled) Tanishk Bagchi");

	el(&e, 84, "unknown");
	e.identifier =
		"Music.shelfItem.ContainerDetailTracklistFooterLockup[id=tracklist-footer-1817818677,parentId=track-list-section-1817818677]";
	expect_line(
		&e, 0,
		"84 unknown Music.shelfItem.ContainerDetailTracklistFooterLockup[id=tracklist-footer-1817818677,parentId=track-list-section-1817818677]");

	el(&e, 92, "container");
	e.description = "Mini Player";
	e.identifier =
		"Music.miniPlayer.contentView[viewState=mini,isPlaying=false]";
	expect_line(
		&e, 0,
		"92 container Description: Mini Player, ID: Music.miniPlayer.contentView[viewState=mini,isPlaying=false]");

	el(&e, 98, "container");
	e.identifier = "Music.miniPlayer.metadataRegion[state=populated]";
	expect_line(
		&e, 0,
		"98 container Music.miniPlayer.metadataRegion[state=populated]");

	el(&e, 100, "text");
	e.value = "Saiyaara (From \"Saiyaara\")";
	e.identifier = "Music.miniPlayer.title";
	expect_line(
		&e, 0,
		"100 text Value: Saiyaara (From \"Saiyaara\"), ID: Music.miniPlayer.title");

	el(&e, 102, "slider");
	e.traits = SETF;
	e.description = "Track Position";
	e.value = "0.008391891891891892";
	e.details = "Not Playing";
	e.identifier = "Music.miniPlayer.playbackSlider";
	expect_line(
		&e, 0,
		"102 slider (settable, float) Description: Track Position, Value: 0.008391891891891892, Details: Not Playing, ID: Music.miniPlayer.playbackSlider");

	el(&e, 107, "button");
	e.description = "Go Back";
	e.identifier = "backButton";
	e.actions = back_actions;
	e.n_actions = 2;
	expect_line(
		&e, 0,
		"107 button Description: Go Back, ID: backButton, Secondary Actions: Move next, Remove from toolbar");

	{
		static const char *zoom[] = { "zoom the window" };

		el(&e, 111, "full screen button");
		e.help = "this button also has an action to zoom the window";
		e.actions = zoom;
		e.n_actions = 1;
		expect_line(
			&e, 0,
			"111 full screen button Help: this button also has an action to zoom the window, Secondary Actions: zoom the window");
	}

	el(&e, 113, "menu bar");
	expect_line(&e, 0, "113 menu bar");

	/* menu-bar item: empty role text */
	el(&e, 114, "");
	e.title = "Music";
	e.flags = CUA_ELEM_MENU_BAR_ITEM;
	expect_line(&e, 0, "114 Music");

	/* empty role with labelled segments */
	el(&e, 41, "");
	e.description = "Categories";
	e.help = "Display processes in the category specified";
	expect_line(
		&e, 0,
		"41 Description: Categories, Help: Display processes in the category specified");

	el(&e, 156, "search text field");
	e.traits = SETS;
	e.value = "Drake";
	e.placeholder = "Apple Music";
	expect_line(
		&e, 0,
		"156 search text field (settable, string) Value: Drake, Placeholder: Apple Music");

	el(&e, 160, "radio button");
	e.description = "Apple Music";
	e.value = "1";
	expect_line(&e, 0,
		    "160 radio button Description: Apple Music, Value: 1");

	el(&e, 38, "search text field");
	e.traits = SETS;
	e.value = "Codex";
	expect_line(&e, 0, "38 search text field (settable, string) Codex");

	el(&e, 47, "search text field");
	e.traits = SETS;
	expect_line(&e, 0, "47 search text field (settable, string)");
}

static void
test_codex_lines_other(void **state)
{
	static const char *raise[] = { "Raise" };
	struct cua_element e;

	el(&e, 0, "standard window");
	e.title = "open-codex-computer-use";
	e.identifier = "FinderWindow";
	e.actions = raise;
	e.n_actions = 1;
	expect_line(
		&e, 0,
		"0 standard window open-codex-computer-use, ID: FinderWindow, Secondary Actions: Raise");

	el(&e, 64, "switch");
	e.value = "on";
	e.identifier = "Codex Computer Use_Toggle";
	expect_line(&e, 0,
		    "64 switch Value: on, ID: Codex Computer Use_Toggle");

	el(&e, 24, "splitter");
	e.traits = CUA_TRAIT_DISABLED | SETF;
	e.value = "185";
	expect_line(&e, 0, "24 splitter (disabled, settable, float) 185");

	el(&e, 25, "scroll bar");
	e.traits = SETF;
	e.value = "0.1371493880660984";
	expect_line(&e, 0,
		    "25 scroll bar (settable, float) 0.1371493880660984");

	el(&e, 19, "standard window");
	e.title = "codex-gorev-raporu.txt";
	e.url = "file:///Users/red/Documents/claude-codex-computer-use/docs/codex-gorev-raporu.txt";
	expect_line(
		&e, 0,
		"19 standard window codex-gorev-raporu.txt, URL: file:///Users/red/Documents/claude-codex-computer-use/docs/codex-gorev-raporu.txt");

	el(&e, 440, "text entry area");
	e.traits = SETS;
	e.value = "Message to dev";
	expect_line(&e, 0,
		    "440 text entry area (settable, string) Message to dev");

	el(&e, 8, "text entry area");
	e.traits = SETS;
	e.value = "Dear team,\\nthe build is green.";
	expect_line(
		&e, 0,
		"8 text entry area (settable, string) Dear team,\\nthe build is green.");

	el(&e, 4, "toggle button");
	e.description = "Main Menu";
	e.value = "off";
	expect_line(&e, 0,
		    "4 toggle button Description: Main Menu, Value: off");

	el(&e, 6, "tab");
	e.traits = CUA_TRAIT_SELECTED;
	e.title = "Untitled Document 1";
	expect_line(&e, 0, "6 tab (selected) Untitled Document 1");

	el(&e, 1, "heading");
	e.title = "logo Ant Design";
	e.value = "1";
	expect_line(&e, 0, "1 heading logo Ant Design, Value: 1");
}

static void
test_links(void **state)
{
	struct cua_element e;

	el(&e, 32, "link");
	e.role = CUA_ROLE_LINK;
	e.value = "https://youtube.com/";
	e.identifier = "logo";
	expect_line(&e, 0, "32 link Value: youtube.com/, ID: logo");

	el(&e, 4, "link");
	e.description = "logo Ant Design";
	e.value = "https://ant.design/";
	expect_line(&e, 0,
		    "4 link Description: logo Ant Design, Value: ant.design/");

	/* a lone link value is bare, like any value */
	el(&e, 5, "link");
	e.value = "http://example.com/a?b=c";
	expect_line(&e, 0, "5 link example.com/a?b=c");

	/* other schemes are kept */
	e.value = "mailto:someone@example.com";
	expect_line(&e, 0, "5 link mailto:someone@example.com");

	/* nothing left after the scheme: nothing printed */
	e.value = "https://";
	expect_line(&e, 0, "5 link");

	/* the URL segment of a document */
	el(&e, 9, "HTML content");
	e.title = "Ant Design";
	e.url = "https://ant.design/components/form";
	expect_line(
		&e, 0,
		"9 HTML content Ant Design, URL: ant.design/components/form");

	/* compact link inside hypertext: title only
	 * (docs/state-text.md §9.7) */
	el(&e, 12, "link");
	e.flags = CUA_ELEM_COMPACT_LINK;
	e.title = "the docs";
	e.value = "https://example.com/docs";
	e.url = "https://example.com/docs";
	e.identifier = "docs-link";
	e.depth = 3;
	expect_line(&e, 0, "12 link the docs");
	expect_line(&e, CUA_LINE_INDENT, "\t\t\t12 link the docs");

	/* shortened: 60 characters + "..." */
	el(&e, 7, "link");
	e.title = "Watch";
	e.value =
		"https://youtube.com/watch?v=0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ";
	expect_line(
		&e, 0,
		"7 link Watch, Value: youtube.com/watch?v=0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ");
	expect_line(
		&e, CUA_LINE_SHORT_URLS,
		"7 link Watch, Value: youtube.com/watch?v=0123456789abcdefghijklmnopqrstuvwxyzABCD...");
}

static void
test_summary(void **state)
{
	struct cua_element e;

	el(&e, 2, "outline");
	e.title = "Processes";
	e.has_summary = 1;
	e.sum_a = 0;
	e.sum_b = 19;
	e.sum_n = 161;
	expect_line(&e, CUA_LINE_SUMMARY,
		    "2 outline Processes (showing 0-19 of 161 items)");
	expect_line(&e, 0, "2 outline Processes");

	el(&e, 3, "outline");
	e.description = "Sidebar";
	e.has_summary = 1;
	e.sum_a = 12;
	e.sum_b = 31;
	e.sum_n = 240;
	expect_line(
		&e, CUA_LINE_SUMMARY,
		"3 outline (showing 12-31 of 240 items), Description: Sidebar");
	expect_line(&e, 0, "3 outline Description: Sidebar");

	/* a summary makes a value labelled */
	el(&e, 4, "list");
	e.value = "Item 3";
	e.has_summary = 1;
	e.sum_a = 0;
	e.sum_b = 19;
	e.sum_n = 50;
	expect_line(&e, CUA_LINE_SUMMARY,
		    "4 list (showing 0-19 of 50 items), Value: Item 3");
	expect_line(&e, 0, "4 list Item 3");
}

static void
test_traits(void **state)
{
	struct cua_element e;

	el(&e, 1, "row");
	e.traits = CUA_TRAIT_SELECTED | CUA_TRAIT_COLLAPSED;
	expect_line(&e, 0, "1 row (selected, collapsed)");
	e.traits = CUA_TRAIT_SELECTABLE | CUA_TRAIT_EXPANDED;
	expect_line(&e, 0, "1 row (selectable, expanded)");
	e.traits = CUA_TRAIT_SELECTED | SETS;
	expect_line(&e, 0, "1 row (selected, settable, string)");
	e.traits = CUA_TRAIT_SETTABLE | CUA_TRAIT_BOOLEAN;
	expect_line(&e, 0, "1 row (settable, boolean)");
	/* every trait at once, in the fixed order */
	e.traits = CUA_TRAIT_SELECTED | CUA_TRAIT_SELECTABLE |
		   CUA_TRAIT_EXPANDED | CUA_TRAIT_COLLAPSED |
		   CUA_TRAIT_DISABLED | SETF;
	expect_line(&e, 0,
		    "1 row (selected, expanded, disabled, settable, float)");
	/* a value type without settable is not printed */
	e.traits = CUA_TRAIT_FLOAT;
	expect_line(&e, 0, "1 row");
	e.traits = 0;
	expect_line(&e, 0, "1 row");
}

static void
test_segment_rules(void **state)
{
	static const char *acts[] = { "Show Menu", "", "Edit" };
	struct cua_element e;

	/* description equal to the title is dropped; help equal to either
	 * is dropped; placeholder equal to title/description/value too */
	el(&e, 1, "button");
	e.title = "Open";
	e.description = "Open";
	e.help = "Open";
	expect_line(&e, 0, "1 button Open");
	e.description = "Open a file";
	e.help = "Open a file";
	expect_line(&e, 0, "1 button Open, Description: Open a file");
	e.help = "Ctrl+O";
	expect_line(&e, 0,
		    "1 button Open, Description: Open a file, Help: Ctrl+O");

	el(&e, 2, "text field");
	e.traits = SETS;
	e.value = "Name";
	e.placeholder = "Name";
	expect_line(&e, 0, "2 text field (settable, string) Name");
	e.placeholder = "Your name";
	expect_line(
		&e, 0,
		"2 text field (settable, string) Value: Name, Placeholder: Your name");
	e.value = "";
	expect_line(&e, 0,
		    "2 text field (settable, string) Placeholder: Your name");
	e.title = "Your name";
	expect_line(&e, 0, "2 text field (settable, string) Your name");

	/* the full segment order */
	el(&e, 3, "HTML content");
	e.title = "T";
	e.description = "D";
	e.help = "H";
	e.value = "V";
	e.details = "X";
	e.placeholder = "P";
	e.url = "https://u.example/";
	e.identifier = "I";
	e.actions = acts;
	e.n_actions = 3;
	expect_line(
		&e, 0,
		"3 HTML content T, Description: D, Help: H, Value: V, Details: X, Placeholder: P, URL: u.example/, ID: I, Secondary Actions: Show Menu, Edit");
	e.title = "";
	expect_line(
		&e, 0,
		"3 HTML content Description: D, Help: H, Value: V, Details: X, Placeholder: P, URL: u.example/, ID: I, Secondary Actions: Show Menu, Edit");

	/* a value is labelled when any other piece follows */
	el(&e, 4, "slider");
	e.value = "5";
	e.details = "five";
	expect_line(&e, 0, "4 slider Value: 5, Details: five");
	e.details = "";
	e.actions = acts + 2;
	e.n_actions = 1;
	expect_line(&e, 0, "4 slider Value: 5, Secondary Actions: Edit");
	e.n_actions = 0;
	e.identifier = "vol";
	expect_line(&e, 0, "4 slider Value: 5, ID: vol");

	/* generated identifiers are not printed */
	el(&e, 5, "button");
	e.title = "OK";
	e.identifier = "___object_12___";
	expect_line(&e, 0, "5 button OK");
	e.identifier = "_NS:42";
	expect_line(&e, 0, "5 button OK");
	e.identifier = "___object_x___";
	expect_line(&e, 0, "5 button OK, ID: ___object_x___");
	el(&e, 6, "container");
	e.identifier = "___object_7___";
	expect_line(&e, 0, "6 container");

	/* the bare identifier is only for generic containers without a
	 * title and description */
	el(&e, 7, "container");
	e.title = "Sidebar";
	e.identifier = "side";
	expect_line(&e, 0, "7 container Sidebar, ID: side");
	el(&e, 8, "toolbar");
	e.identifier = "main-toolbar";
	expect_line(&e, 0, "8 toolbar ID: main-toolbar");
	el(&e, 9, "container");
	e.identifier = "region";
	e.help = "Help text";
	expect_line(&e, 0, "9 container region, Help: Help text");

	/* a label's name is its text: one copy */
	el(&e, 10, "text");
	e.title = "Plain Text";
	e.value = "Plain Text";
	expect_line(&e, 0, "10 text Plain Text");

	/* raw commas and labels inside values are not escaped */
	el(&e, 121, "button");
	e.traits = CUA_TRAIT_DISABLED;
	e.title = "Honestly, Nevermind";
	expect_line(&e, 0, "121 button (disabled) Honestly, Nevermind");
}

static void
test_secure(void **state)
{
	struct cua_element e;

	el(&e, 3, "secure text field");
	e.traits = SETS;
	e.flags = CUA_ELEM_SECURE;
	e.title = "Password";
	e.value = "hunter2";
	e.details = "hunter2 details";
	expect_line(&e, 0, "3 secure text field (settable, string) Password");
	e.title = "";
	expect_line(&e, 0, "3 secure text field (settable, string)");
	/* a placeholder equal to the hidden value does not reveal it */
	e.placeholder = "hunter2";
	expect_line(
		&e, 0,
		"3 secure text field (settable, string) Placeholder: hunter2");
}

static void
test_indent_and_truncation(void **state)
{
	static const char *acts[2];
	char *long_title = repeat("T", 10000);
	char *long_desc = repeat("\xc3\xa9", 300);
	char *long_act = repeat("a", 200);
	char *t160 = repeat("T", 160);
	char *d160 = repeat("\xc3\xa9", 160);
	char *a160 = repeat("a", 160);
	char want[4096];
	struct cua_element e;

	el(&e, 12, "button");
	e.depth = 2;
	e.title = "Go";
	expect_line(&e, CUA_LINE_INDENT, "\t\t12 button Go");
	expect_line(&e, 0, "12 button Go");
	e.depth = 0;
	expect_line(&e, CUA_LINE_INDENT, "12 button Go");

	/* each field truncated separately */
	acts[0] = long_act;
	acts[1] = "Short";
	e.title = long_title;
	e.description = long_desc;
	e.actions = acts;
	e.n_actions = 2;
	snprintf(
		want, sizeof(want),
		"12 button %s..., Description: %s..., Secondary Actions: %s..., Short",
		t160, d160, a160);
	expect_line(&e, 0, want);

	/* bare value truncated too */
	el(&e, 13, "text");
	e.value = long_title;
	snprintf(want, sizeof(want), "13 text %s...", t160);
	expect_line(&e, 0, want);

	free(long_title);
	free(long_desc);
	free(long_act);
	free(t160);
	free(d160);
	free(a160);
}

/* The gedit example of docs/state-text.md §1, with a truncation marker. */
static void
test_state_body(void **state)
{
	static const char *raise[] = { "Raise" };
	static const char *scroll[] = { "Scroll Up", "Scroll Down" };
	struct cua_element arr[13];
	struct cua_marker marker;
	struct cua_tree tree;
	size_t i;

	memset(&tree, 0, sizeof(tree));
	tree.arena = cua_arena_new();
	tree.app_id = "org.gnome.gedit";
	tree.app_name = "Text Editor";
	tree.pid = 4242;
	tree.window_title = "Untitled Document 1 - gedit";
	tree.elements = arr;
	tree.n_elements = 13;
	tree.n_lines = 13;
	tree.focused = -1;

	el(&arr[0], 0, "standard window");
	arr[0].title = "Untitled Document 1 - gedit";
	arr[0].actions = raise;
	arr[0].n_actions = 1;
	el(&arr[1], 1, "button");
	arr[1].title = "Open";
	el(&arr[2], 2, "button");
	arr[2].title = "New tab";
	el(&arr[3], 3, "button");
	arr[3].title = "Save";
	arr[3].traits = CUA_TRAIT_DISABLED;
	el(&arr[4], 4, "toggle button");
	arr[4].description = "Main Menu";
	arr[4].value = "off";
	el(&arr[5], 5, "tab group");
	el(&arr[6], 6, "tab");
	arr[6].traits = CUA_TRAIT_SELECTED;
	arr[6].title = "Untitled Document 1";
	el(&arr[7], 7, "scroll area");
	arr[7].actions = scroll;
	arr[7].n_actions = 2;
	el(&arr[8], 8, "text entry area");
	arr[8].traits = SETS;
	arr[8].value = "Dear team,\\nthe build is green.";
	el(&arr[9], 9, "scroll bar");
	arr[9].traits = SETF;
	arr[9].value = "0";
	el(&arr[10], 10, "status bar");
	el(&arr[11], 11, "text");
	arr[11].title = "Plain Text";
	el(&arr[12], 12, "text");
	arr[12].title = "Ln 2, Col 20";
	for (i = 0; i < 13; i++) {
		arr[i].tree = &tree;
		arr[i].index = (uint32_t)i;
	}
	arr[1].depth = arr[2].depth = arr[3].depth = arr[4].depth = 1;
	arr[5].depth = arr[7].depth = arr[10].depth = 1;
	arr[6].depth = arr[8].depth = arr[9].depth = 2;
	arr[11].depth = arr[12].depth = 2;

	/* no focus: no trailer, no trailing newline */
	expect_state(
		&tree,
		"App=org.gnome.gedit (pid 4242)\n"
		"Window: \"Untitled Document 1 - gedit\", App: Text Editor.\n"
		"0 standard window Untitled Document 1 - gedit, Secondary Actions: Raise\n"
		"\t1 button Open\n"
		"\t2 button New tab\n"
		"\t3 button (disabled) Save\n"
		"\t4 toggle button Description: Main Menu, Value: off\n"
		"\t5 tab group\n"
		"\t\t6 tab (selected) Untitled Document 1\n"
		"\t7 scroll area Secondary Actions: Scroll Up, Scroll Down\n"
		"\t\t8 text entry area (settable, string) Dear team,\\nthe build is green.\n"
		"\t\t9 scroll bar (settable, float) 0\n"
		"\t10 status bar\n"
		"\t\t11 text Plain Text\n"
		"\t\t12 text Ln 2, Col 20");

	/* focus trailer: the full line without indentation, then the
	 * period of docs/state-text.md §8.1, also after a line that ends with
	 * one (the §1 example shows a single period there; §8.1's rule is
	 * applied) */
	tree.focused = 8;
	expect_state(
		&tree,
		"App=org.gnome.gedit (pid 4242)\n"
		"Window: \"Untitled Document 1 - gedit\", App: Text Editor.\n"
		"0 standard window Untitled Document 1 - gedit, Secondary Actions: Raise\n"
		"\t1 button Open\n"
		"\t2 button New tab\n"
		"\t3 button (disabled) Save\n"
		"\t4 toggle button Description: Main Menu, Value: off\n"
		"\t5 tab group\n"
		"\t\t6 tab (selected) Untitled Document 1\n"
		"\t7 scroll area Secondary Actions: Scroll Up, Scroll Down\n"
		"\t\t8 text entry area (settable, string) Dear team,\\nthe build is green.\n"
		"\t\t9 scroll bar (settable, float) 0\n"
		"\t10 status bar\n"
		"\t\t11 text Plain Text\n"
		"\t\t12 text Ln 2, Col 20\n"
		"\n"
		"The focused UI element is 8 text entry area (settable, string) Dear team,\\nthe build is green..");

	/* element cap: 10 lines, a marker after them, then the focused
	 * element that was pruned (it is still named in the trailer) */
	tree.n_lines = 10;
	marker.after = 10;
	marker.text = "(tree truncated at 1500 elements)";
	tree.markers = &marker;
	tree.n_markers = 1;
	tree.focused = 11;
	expect_state(
		&tree,
		"App=org.gnome.gedit (pid 4242)\n"
		"Window: \"Untitled Document 1 - gedit\", App: Text Editor.\n"
		"0 standard window Untitled Document 1 - gedit, Secondary Actions: Raise\n"
		"\t1 button Open\n"
		"\t2 button New tab\n"
		"\t3 button (disabled) Save\n"
		"\t4 toggle button Description: Main Menu, Value: off\n"
		"\t5 tab group\n"
		"\t\t6 tab (selected) Untitled Document 1\n"
		"\t7 scroll area Secondary Actions: Scroll Up, Scroll Down\n"
		"\t\t8 text entry area (settable, string) Dear team,\\nthe build is green.\n"
		"\t\t9 scroll bar (settable, float) 0\n"
		"(tree truncated at 1500 elements)\n"
		"\n"
		"The focused UI element is 11 text Plain Text.");

	/* a marker in the middle (window share exhausted before popups) */
	marker.after = 3;
	marker.text = "(tree truncated: the app was too slow to read)";
	tree.n_lines = 5;
	tree.focused = 1;
	expect_state(
		&tree,
		"App=org.gnome.gedit (pid 4242)\n"
		"Window: \"Untitled Document 1 - gedit\", App: Text Editor.\n"
		"0 standard window Untitled Document 1 - gedit, Secondary Actions: Raise\n"
		"\t1 button Open\n"
		"\t2 button New tab\n"
		"(tree truncated: the app was too slow to read)\n"
		"\t3 button (disabled) Save\n"
		"\t4 toggle button Description: Main Menu, Value: off\n"
		"\n"
		"The focused UI element is 1 button Open.");

	cua_arena_free(tree.arena);
}

/* The Finder sample of docs/state-text.md §1, with a row summary that the
 * focus line leaves out. */
static void
test_state_finder(void **state)
{
	static const char *raise[] = { "Raise" };
	static const char *collapse[] = { "Collapse" };
	struct cua_element arr[5];
	struct cua_tree tree;
	size_t i;

	memset(&tree, 0, sizeof(tree));
	tree.arena = cua_arena_new();
	tree.app_id = "com.apple.finder";
	tree.app_name = "Finder";
	tree.pid = 1106;
	tree.window_title = "open-codex-computer-use";
	tree.elements = arr;
	tree.n_elements = tree.n_lines = 5;
	tree.focused = 3;

	el(&arr[0], 0, "standard window");
	arr[0].title = "open-codex-computer-use";
	arr[0].identifier = "FinderWindow";
	arr[0].actions = raise;
	arr[0].n_actions = 1;
	el(&arr[1], 1, "split group");
	arr[1].depth = 1;
	el(&arr[2], 2, "scroll area");
	arr[2].depth = 2;
	el(&arr[3], 3, "outline");
	arr[3].depth = 3;
	arr[3].title = "sidebar";
	arr[3].has_summary = 1;
	arr[3].sum_a = 0;
	arr[3].sum_b = 0;
	arr[3].sum_n = 30;
	el(&arr[4], 4, "row");
	arr[4].depth = 4;
	arr[4].traits = SEL | CUA_TRAIT_EXPANDED;
	arr[4].value = "Favorites";
	arr[4].actions = collapse;
	arr[4].n_actions = 1;
	for (i = 0; i < 5; i++)
		arr[i].tree = &tree;

	expect_state(
		&tree,
		"App=com.apple.finder (pid 1106)\n"
		"Window: \"open-codex-computer-use\", App: Finder.\n"
		"0 standard window open-codex-computer-use, ID: FinderWindow, Secondary Actions: Raise\n"
		"\t1 split group\n"
		"\t\t2 scroll area\n"
		"\t\t\t3 outline sidebar (showing 0-0 of 30 items)\n"
		"\t\t\t\t4 row (selectable, expanded) Value: Favorites, Secondary Actions: Collapse\n"
		"\n"
		"The focused UI element is 3 outline sidebar.");

	/* header fields: empty window title, quotes unescaped, truncation */
	{
		char *long_name = repeat("N", 300);
		char *n160 = repeat("N", 160);
		char want[1024];

		tree.window_title = "";
		tree.n_lines = 0;
		tree.focused = -1;
		expect_state(&tree, "App=com.apple.finder (pid 1106)\n"
				    "Window: \"\", App: Finder.");
		tree.window_title = "say \"hi\"";
		tree.app_name = long_name;
		tree.app_id = long_name;
		snprintf(
			want, sizeof(want),
			"App=%s... (pid 1106)\nWindow: \"say \"hi\"\", App: %s....",
			n160, n160);
		expect_state(&tree, want);
		free(long_name);
		free(n160);
	}

	cua_arena_free(tree.arena);
}

static void
test_app_line_and_trailer(void **state)
{
	struct cua_element arr[1];
	struct cua_tree tree;
	struct strbuf sb = STRBUF_INIT;

	memset(&tree, 0, sizeof(tree));
	tree.app_id = "org.gnome.Calculator";
	tree.pid = 77;
	tree.elements = arr;
	tree.n_elements = tree.n_lines = 1;
	tree.focused = -1;
	el(&arr[0], 2, "outline");
	arr[0].tree = &tree;
	arr[0].depth = 3;

	cua_render_app_line(&sb, &tree);
	assert_string_equal(sb_str(&sb), "App=org.gnome.Calculator (pid 77)");
	sb_free(&sb);

	cua_render_trailer(&sb, &tree);
	assert_string_equal(sb_str(&sb), "");
	tree.focused = 0;
	cua_render_trailer(&sb, &tree);
	assert_string_equal(sb_str(&sb),
			    "\n\nThe focused UI element is 2 outline.");
	sb_free(&sb);
	/* an empty selection is no selection */
	tree.selected_text = "";
	cua_render_trailer(&sb, &tree);
	assert_string_equal(sb_str(&sb),
			    "\n\nThe focused UI element is 2 outline.");
	sb_free(&sb);
}

static void
test_selected_text(void **state)
{
	struct cua_element arr[2];
	struct cua_tree tree;
	struct strbuf sb = STRBUF_INIT;
	char *long_sel = repeat("s", 500);
	char *s160 = repeat("s", 160);
	char want[2048];

	memset(&tree, 0, sizeof(tree));
	tree.arena = cua_arena_new();
	tree.app_id = "com.apple.Music";
	tree.app_name = "Music";
	tree.pid = 40054;
	tree.window_title = "Music";
	tree.elements = arr;
	tree.n_elements = tree.n_lines = 2;
	tree.focused = 1;
	tree.selected_text = "Drake";
	el(&arr[0], 155, "toolbar");
	el(&arr[1], 156, "search text field");
	arr[1].depth = 1;
	arr[1].traits = SETS;
	arr[1].value = "Drake";
	arr[1].placeholder = "Apple Music";
	arr[0].tree = arr[1].tree = &tree;

	expect_state(
		&tree,
		"App=com.apple.Music (pid 40054)\n"
		"Window: \"Music\", App: Music.\n"
		"155 toolbar\n"
		"\t156 search text field (settable, string) Value: Drake, Placeholder: Apple Music\n"
		"\n"
		"Selected text: ```\n"
		"Drake\n"
		"```\n"
		"\n"
		"Note: Pay special attention to the content selected by the user. If the user asks a question or refers to the content they are looking at on-screen, they might be referring to the selected content (but they might be referring to something else that's visible, too).");

	cua_render_trailer(&sb, &tree);
	assert_string_equal(sb_str(&sb),
			    "\n\nSelected text: ```\nDrake\n```\n\n" NOTE);
	sb_free(&sb);

	/* backtick runs cannot close the fence */
	tree.selected_text = "a ``` b `` c ```` d `";
	cua_render_trailer(&sb, &tree);
	assert_string_equal(
		sb_str(&sb),
		"\n\nSelected text: ```\n"
		"a `\xe2\x80\x8b`` b `` c `\xe2\x80\x8b`\xe2\x80\x8b`` d `"
		"\n```\n\n" NOTE);
	sb_free(&sb);
	tree.selected_text = "```";
	cua_render_trailer(&sb, &tree);
	assert_string_equal(
		sb_str(&sb),
		"\n\nSelected text: ```\n`\xe2\x80\x8b``\n```\n\n" NOTE);
	sb_free(&sb);

	/* truncated to 160 + "..." */
	tree.selected_text = long_sel;
	cua_render_trailer(&sb, &tree);
	snprintf(want, sizeof(want),
		 "\n\nSelected text: ```\n%s...\n```\n\n" NOTE, s160);
	assert_string_equal(sb_str(&sb), want);
	sb_free(&sb);

	/* a secure field never shows its value nor the selection */
	arr[1].role_text = "secure text field";
	arr[1].flags = CUA_ELEM_SECURE;
	arr[1].value = "hunter2";
	arr[1].placeholder = "Password";
	tree.selected_text = "hunter2";
	expect_state(
		&tree,
		"App=com.apple.Music (pid 40054)\n"
		"Window: \"Music\", App: Music.\n"
		"155 toolbar\n"
		"\t156 secure text field (settable, string) Placeholder: Password\n"
		"\n"
		"The focused UI element is 156 secure text field (settable, string) Placeholder: Password.");

	free(long_sel);
	free(s160);
	cua_arena_free(tree.arena);
}

static void
test_url_shortening(void **state)
{
	enum { N = 101 };
	struct cua_element *arr = calloc(N, sizeof(*arr));
	struct cua_tree tree;
	struct strbuf sb = STRBUF_INIT;
	/* 80 characters after the scheme */
	const char *url =
		"https://example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	const char *doc = "https://example.com/page";
	const char *line;
	size_t i;

	assert_non_null(arr);
	assert_int_equal(strlen(url) - 8, 80);
	memset(&tree, 0, sizeof(tree));
	tree.app_id = "firefox";
	tree.app_name = "Firefox";
	tree.pid = 1;
	tree.window_title = "Page";
	tree.elements = arr;
	tree.n_elements = N;
	tree.focused = N - 1;
	el(&arr[0], 0, "HTML content");
	arr[0].title = "Page";
	arr[0].url = doc; /* 16 characters */
	for (i = 1; i < N; i++) {
		el(&arr[i], (uint32_t)i, "link");
		arr[i].depth = 1;
		arr[i].title = "L";
		arr[i].value = url;
	}
	for (i = 0; i < N; i++)
		arr[i].tree = &tree;

	/* 16 + 99 × 80 = 7,936: not shortened */
	tree.n_lines = 100;
	assert_int_equal(cua_render_needs_short_urls(&tree), 0);
	cua_render_state(&sb, &tree);
	line = strstr(sb_str(&sb), "\n\t1 link ");
	assert_non_null(line);
	assert_int_equal(
		strncmp(line,
			"\n\t1 link L, Value: example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
			100),
		0);
	sb_free(&sb);

	/* 16 + 100 × 80 = 8,016 > 8,000: every URL cut to 60 + "..." */
	tree.n_lines = N;
	assert_int_equal(cua_render_needs_short_urls(&tree), 1);
	cua_render_state(&sb, &tree);
	line = strstr(sb_str(&sb), "\n\t1 link ");
	assert_non_null(line);
	assert_int_equal(
		strncmp(line,
			"\n\t1 link L, Value: example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\n",
			83),
		0);
	/* the document URL is short already; the focus line is shortened */
	assert_non_null(strstr(
		sb_str(&sb), "\n0 HTML content Page, URL: example.com/page\n"));
	line = strstr(sb_str(&sb), "\n\nThe focused UI element is ");
	assert_non_null(line);
	assert_string_equal(
		line,
		"\n\nThe focused UI element is 100 link L, Value: example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa....");
	sb_free(&sb);

	/* compact links print no URL and do not count */
	for (i = 1; i < N; i++)
		arr[i].flags = CUA_ELEM_COMPACT_LINK;
	assert_int_equal(cua_render_needs_short_urls(&tree), 0);

	free(arr);
}

static void
check_number(double v, const char *want)
{
	char buf[64];

	cua_format_number(buf, sizeof(buf), v);
	assert_string_equal(buf, want);
}

static void
test_numbers(void **state)
{
	check_number(0, "0");
	check_number(-0.0, "0");
	check_number(208, "208");
	check_number(-3, "-3");
	check_number(0.1, "0.1");
	check_number(77.5, "77.5");
	check_number(0.008391891891891892, "0.008391891891891892");
	check_number(0.9999999999999994, "0.9999999999999994");
	check_number(0.1371493880660984, "0.1371493880660984");
	check_number(1.0 / 3.0, "0.3333333333333333");
	check_number(1e20, "1e+20");
	check_number(1e15, "1e+15");
	check_number(999999999999999.0, "999999999999999");
	check_number(123456789012.5, "123456789012.5");
	check_number(1e-7, "1e-07");
	check_number(-2.5e-7, "-2.5e-07");
	/* below 1e-4 %g would use an exponent: printed plain down to 1e-6 */
	check_number(0.00001234, "0.00001234");
	check_number(-0.00005, "-0.00005");
	check_number(1e-6, "0.000001");
	check_number(0.0001, "0.0001");
	check_number(1.0 / 0.0, "0");
	check_number(-1.0 / 0.0, "0");
	check_number(0.0 / 0.0, "0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codex_lines_music),
		cmocka_unit_test(test_codex_lines_other),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_traits),
		cmocka_unit_test(test_segment_rules),
		cmocka_unit_test(test_secure),
		cmocka_unit_test(test_indent_and_truncation),
		cmocka_unit_test(test_state_body),
		cmocka_unit_test(test_state_finder),
		cmocka_unit_test(test_app_line_and_trailer),
		cmocka_unit_test(test_selected_text),
		cmocka_unit_test(test_url_shortening),
		cmocka_unit_test(test_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
