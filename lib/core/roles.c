/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "raw.h"
#include "roles.h"

#define E CUA_RF_ELIDE
#define T CUA_RF_TEXT
#define I CUA_RF_INTERACTIVE
#define S CUA_RF_SELECTABLE
#define R CUA_RF_ROW
#define RS CUA_RF_ROWS
#define TL CUA_RF_TOPLEVEL
#define H CUA_RF_HIDDEN
#define TE CUA_RF_TEXT_ENTRY
#define TG CUA_RF_TOGGLE
#define N CUA_RF_NUMERIC
#define IM CUA_RF_IMAGE
#define P CUA_RF_POPUP
#define MI CUA_RF_MENU_ITEM

static const struct cua_role_info roles[CUA_ROLE_COUNT] = {
	[CUA_ROLE_INVALID] = { "invalid", "unknown", E },
	[CUA_ROLE_ACCELERATOR_LABEL] = { "accelerator label", "text", T },
	[CUA_ROLE_ALERT] = { "alert", "alert", TL },
	[CUA_ROLE_ANIMATION] = { "animation", "image", IM },
	[CUA_ROLE_ARROW] = { "arrow", "image", IM },
	[CUA_ROLE_CALENDAR] = { "calendar", "container", E },
	[CUA_ROLE_CANVAS] = { "canvas", "canvas", 0 },
	[CUA_ROLE_CHECK_BOX] = { "check box", "checkbox", I | TG },
	[CUA_ROLE_CHECK_MENU_ITEM] = { "check menu item", "menu item",
				       I | TG | S | MI },
	[CUA_ROLE_COLOR_CHOOSER] = { "color chooser", "color well", I },
	[CUA_ROLE_COLUMN_HEADER] = { "column header", "column header", I },
	[CUA_ROLE_COMBO_BOX] = { "combo box", "pop up button", I },
	[CUA_ROLE_DATE_EDITOR] = { "date editor", "container", E },
	[CUA_ROLE_DESKTOP_ICON] = { "desktop icon", "image", IM },
	[CUA_ROLE_DESKTOP_FRAME] = { "desktop frame", "", H },
	[CUA_ROLE_DIAL] = { "dial", "slider", I | N },
	[CUA_ROLE_DIALOG] = { "dialog", "dialog", TL },
	[CUA_ROLE_DIRECTORY_PANE] = { "directory pane", "container", E },
	[CUA_ROLE_DRAWING_AREA] = { "drawing area", "canvas", 0 },
	[CUA_ROLE_FILE_CHOOSER] = { "file chooser", "container", E | TL },
	[CUA_ROLE_FILLER] = { "filler", "container", E },
	[CUA_ROLE_FOCUS_TRAVERSABLE] = { "focus traversable", "container", E },
	[CUA_ROLE_FONT_CHOOSER] = { "font chooser", "container", E },
	[CUA_ROLE_FRAME] = { "frame", "standard window", TL },
	[CUA_ROLE_GLASS_PANE] = { "glass pane", "container", E },
	[CUA_ROLE_HTML_CONTAINER] = { "html container", "container", E },
	[CUA_ROLE_ICON] = { "icon", "image", IM },
	[CUA_ROLE_IMAGE] = { "image", "image", IM },
	[CUA_ROLE_INTERNAL_FRAME] = { "internal frame", "container", E },
	[CUA_ROLE_LABEL] = { "label", "text", T },
	[CUA_ROLE_LAYERED_PANE] = { "layered pane", "container", E },
	[CUA_ROLE_LIST] = { "list", "list", RS },
	[CUA_ROLE_LIST_ITEM] = { "list item", "row", I | S | R },
	[CUA_ROLE_MENU] = { "menu", "menu", I | MI | P },
	[CUA_ROLE_MENU_BAR] = { "menu bar", "menu bar", 0 },
	[CUA_ROLE_MENU_ITEM] = { "menu item", "menu item", I | S | MI },
	[CUA_ROLE_OPTION_PANE] = { "option pane", "container", E },
	[CUA_ROLE_PAGE_TAB] = { "page tab", "tab", I | S },
	[CUA_ROLE_PAGE_TAB_LIST] = { "page tab list", "tab group", 0 },
	[CUA_ROLE_PANEL] = { "panel", "container", E },
	[CUA_ROLE_PASSWORD_TEXT] = { "password text", "secure text field",
				     I | TE },
	[CUA_ROLE_POPUP_MENU] = { "popup menu", "menu", P },
	[CUA_ROLE_PROGRESS_BAR] = { "progress bar", "progress indicator", N },
	[CUA_ROLE_PUSH_BUTTON] = { "push button", "button", I },
	[CUA_ROLE_RADIO_BUTTON] = { "radio button", "radio button", I | TG },
	[CUA_ROLE_RADIO_MENU_ITEM] = { "radio menu item", "menu item",
				       I | TG | S | MI },
	[CUA_ROLE_ROOT_PANE] = { "root pane", "container", E },
	[CUA_ROLE_ROW_HEADER] = { "row header", "row header", I },
	[CUA_ROLE_SCROLL_BAR] = { "scroll bar", "scroll bar", I | N },
	[CUA_ROLE_SCROLL_PANE] = { "scroll pane", "scroll area", E },
	[CUA_ROLE_SEPARATOR] = { "separator", "splitter", N },
	[CUA_ROLE_SLIDER] = { "slider", "slider", I | N },
	[CUA_ROLE_SPIN_BUTTON] = { "spin button", "stepper", I | N | TE },
	[CUA_ROLE_SPLIT_PANE] = { "split pane", "split group", N },
	[CUA_ROLE_STATUS_BAR] = { "status bar", "status bar", 0 },
	[CUA_ROLE_TABLE] = { "table", "table", RS },
	[CUA_ROLE_TABLE_CELL] = { "table cell", "cell", I | S },
	[CUA_ROLE_TABLE_COLUMN_HEADER] = { "table column header",
					   "column header", I },
	[CUA_ROLE_TABLE_ROW_HEADER] = { "table row header", "row header", I },
	[CUA_ROLE_TEAROFF_MENU_ITEM] = { "tearoff menu item", "menu item",
					 I | S | MI },
	[CUA_ROLE_TERMINAL] = { "terminal", "terminal", 0 },
	[CUA_ROLE_TEXT] = { "text", "text field", I | TE },
	[CUA_ROLE_TOGGLE_BUTTON] = { "toggle button", "toggle button", I | TG },
	[CUA_ROLE_TOOL_BAR] = { "tool bar", "toolbar", 0 },
	[CUA_ROLE_TOOL_TIP] = { "tool tip", "help tag", P },
	[CUA_ROLE_TREE] = { "tree", "outline", RS },
	[CUA_ROLE_TREE_TABLE] = { "tree table", "outline", RS },
	[CUA_ROLE_UNKNOWN] = { "unknown", "unknown", E },
	[CUA_ROLE_VIEWPORT] = { "viewport", "container", E },
	[CUA_ROLE_WINDOW] = { "window", "window", TL | P },
	[CUA_ROLE_EXTENDED] = { "extended", "container", E },
	[CUA_ROLE_HEADER] = { "header", "container", E },
	[CUA_ROLE_FOOTER] = { "footer", "container", E },
	[CUA_ROLE_PARAGRAPH] = { "paragraph", "text", T },
	[CUA_ROLE_RULER] = { "ruler", "container", E },
	[CUA_ROLE_APPLICATION] = { "application", "", H },
	[CUA_ROLE_AUTOCOMPLETE] = { "autocomplete", "container", E },
	[CUA_ROLE_EDITBAR] = { "editbar", "text field", I | TE },
	[CUA_ROLE_EMBEDDED] = { "embedded", "container", E },
	[CUA_ROLE_ENTRY] = { "entry", "text field", I | TE },
	[CUA_ROLE_CHART] = { "chart", "container", E },
	[CUA_ROLE_CAPTION] = { "caption", "text", T },
	[CUA_ROLE_DOCUMENT_FRAME] = { "document frame", "HTML content", 0 },
	[CUA_ROLE_HEADING] = { "heading", "heading", 0 },
	[CUA_ROLE_PAGE] = { "page", "container", E },
	[CUA_ROLE_SECTION] = { "section", "container", E },
	[CUA_ROLE_REDUNDANT_OBJECT] = { "redundant object", "", H },
	[CUA_ROLE_FORM] = { "form", "container", E },
	[CUA_ROLE_LINK] = { "link", "link", I },
	[CUA_ROLE_INPUT_METHOD_WINDOW] = { "input method window", "", H },
	[CUA_ROLE_TABLE_ROW] = { "table row", "row", I | S | R },
	[CUA_ROLE_TREE_ITEM] = { "tree item", "row", I | S | R },
	[CUA_ROLE_DOCUMENT_SPREADSHEET] = { "document spreadsheet", "table",
					    RS },
	[CUA_ROLE_DOCUMENT_PRESENTATION] = { "document presentation",
					     "document", 0 },
	[CUA_ROLE_DOCUMENT_TEXT] = { "document text", "document", 0 },
	[CUA_ROLE_DOCUMENT_WEB] = { "document web", "HTML content", 0 },
	[CUA_ROLE_DOCUMENT_EMAIL] = { "document email", "document", 0 },
	[CUA_ROLE_COMMENT] = { "comment", "text", T },
	[CUA_ROLE_LIST_BOX] = { "list box", "list", RS },
	[CUA_ROLE_GROUPING] = { "grouping", "container", E },
	[CUA_ROLE_IMAGE_MAP] = { "image map", "image", IM },
	[CUA_ROLE_NOTIFICATION] = { "notification", "alert", 0 },
	[CUA_ROLE_INFO_BAR] = { "info bar", "alert", 0 },
	[CUA_ROLE_LEVEL_BAR] = { "level bar", "level indicator", N },
	[CUA_ROLE_TITLE_BAR] = { "title bar", "container", E },
	[CUA_ROLE_BLOCK_QUOTE] = { "block quote", "text", T },
	[CUA_ROLE_AUDIO] = { "audio", "container", E },
	[CUA_ROLE_VIDEO] = { "video", "container", E },
	[CUA_ROLE_DEFINITION] = { "definition", "text", T },
	[CUA_ROLE_ARTICLE] = { "article", "container", E },
	[CUA_ROLE_LANDMARK] = { "landmark", "container", E },
	[CUA_ROLE_LOG] = { "log", "container", E },
	[CUA_ROLE_MARQUEE] = { "marquee", "container", E },
	[CUA_ROLE_MATH] = { "math", "container", E },
	[CUA_ROLE_RATING] = { "rating", "container", E },
	[CUA_ROLE_TIMER] = { "timer", "container", E },
	[CUA_ROLE_STATIC] = { "static", "text", T },
	[CUA_ROLE_MATH_FRACTION] = { "math fraction", "text", T },
	[CUA_ROLE_MATH_ROOT] = { "math root", "text", T },
	[CUA_ROLE_SUBSCRIPT] = { "subscript", "text", T },
	[CUA_ROLE_SUPERSCRIPT] = { "superscript", "text", T },
	[CUA_ROLE_DESCRIPTION_LIST] = { "description list", "list", 0 },
	[CUA_ROLE_DESCRIPTION_TERM] = { "description term", "text", T },
	[CUA_ROLE_DESCRIPTION_VALUE] = { "description value", "text", T },
	[CUA_ROLE_FOOTNOTE] = { "footnote", "text", T },
	[CUA_ROLE_CONTENT_DELETION] = { "content deletion", "text", T },
	[CUA_ROLE_CONTENT_INSERTION] = { "content insertion", "text", T },
	[CUA_ROLE_MARK] = { "mark", "text", T },
	[CUA_ROLE_SUGGESTION] = { "suggestion", "text", T },
	[CUA_ROLE_PUSH_BUTTON_MENU] = { "push button menu", "menu button", I },
	[CUA_ROLE_SWITCH] = { "switch", "switch", I | TG },
};

const struct cua_role_info *
cua_role_info(uint32_t role)
{
	if (role >= CUA_ROLE_COUNT || !roles[role].name)
		return &roles[CUA_ROLE_UNKNOWN];
	return &roles[role];
}

int
cua_role_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < CUA_ROLE_COUNT; i++)
		if (roles[i].name && strcmp(roles[i].name, name) == 0)
			return i;
	return -1;
}

const char *
cua_role_name(uint32_t role)
{
	return cua_role_info(role)->name;
}

int
cua_role_is_popup_toplevel(uint32_t role)
{
	switch (role) {
	case CUA_ROLE_POPUP_MENU:
	case CUA_ROLE_MENU:
	case CUA_ROLE_TOOL_TIP:
		return 1;
	case CUA_ROLE_WINDOW:
		/* undecorated toplevels: menus, drop-downs, tooltips */
		return 1;
	default:
		return 0;
	}
}
