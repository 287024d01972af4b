/*
 * Actions of the walk (docs/state-text.md §11.6): normalised names, the
 * primary and hidden verbs, and the secondary actions an element lists
 * with their pretty names.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "walk_int.h"

/* ------------------------------------------------------------------ */
/* Actions                                                              */

void
cua_action_normalise(char *dst, size_t size, const char *name)
{
	size_t j = 0;

	if (!size)
		return;
	for (const char *p = name ? name : ""; *p && j + 1 < size; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == ' ' || c == '_' || c == '-')
			continue;
		dst[j++] = (char)tolower(c);
	}
	dst[j] = '\0';
}

static const char *const primary_verbs[] = {
	"click", "press",   "activate", "jump",          "open",      "toggle",
	"check", "uncheck", "select",   "clickancestor", "dodefault", NULL,
};

int
cua_action_is_primary(const char *norm, uint32_t role)
{
	if (strcmp(norm, "activate") == 0 &&
	    (cua_role_info(role)->flags & CUA_RF_TEXT_ENTRY))
		return 0;
	if (strcmp(norm, "activate") == 0 && role == CUA_ROLE_COMBO_BOX)
		return 0;
	for (size_t i = 0; primary_verbs[i]; i++)
		if (strcmp(norm, primary_verbs[i]) == 0)
			return 1;
	return 0;
}

int
cua_action_is_hidden(const char *norm)
{
	static const char *const hidden[] = {
		"setfocus",       "focus",    "scrolltovisible",
		"scrollintoview", "scrollto", NULL,
	};

	for (size_t i = 0; hidden[i]; i++)
		if (strcmp(norm, hidden[i]) == 0)
			return 1;
	return 0;
}

/*
 * GTK 4 exposes a widget's GAction muxer as AT-SPI actions: detailed names
 * such as `clipboard.copy`, `win.print`, `menu.popup` on every label and
 * window. They are menu plumbing, not accessibility actions, and would add
 * a dozen names to most lines; they are hidden like focus plumbing.
 */
int
cua_action_is_gaction(const char *raw)
{
	const char *dot = strchr(raw, '.');

	if (!dot || dot == raw || !dot[1] || strchr(dot + 1, '.'))
		return 0;
	for (const char *p = raw; *p; p++)
		if (!islower((unsigned char)*p) && *p != '.' && *p != '-' &&
		    !isdigit((unsigned char)*p))
			return 0;
	return 1;
}

/* Fixed labels for known verbs (docs/state-text.md §11.6 table); NULL if
 * none. */
static const char *
known_label(const char *norm, int expanded)
{
	static const struct {
		const char *norm;
		const char *label;
	} table[] = {
		{ "showcontextmenu", "Show Menu" },
		{ "showmenu", "Show Menu" },
		{ "menu", "Show Menu" },
		{ "popup", "Show Menu" },
		{ "contextmenu", "Show Menu" },
		{ "expand", "Expand" },
		{ "collapse", "Collapse" },
		{ "increase", "Increment" },
		{ "increment", "Increment" },
		{ "decrease", "Decrement" },
		{ "decrement", "Decrement" },
		{ "scrollup", "Scroll Up" },
		{ "scrolldown", "Scroll Down" },
		{ "scrollleft", "Scroll Left" },
		{ "scrollright", "Scroll Right" },
		{ "edit", "Edit" },
		{ "customize", "Customize" },
		{ "clear", "Clear" },
		{ "peek", "Peek" },
		{ "cancel", "Cancel" },
		{ "dismiss", "Dismiss" },
		{ "close", "Close" },
	};

	if (strcmp(norm, "expandorcontract") == 0 ||
	    strcmp(norm, "expandorcollapse") == 0 ||
	    strcmp(norm, "toggleexpanded") == 0)
		return expanded ? "Collapse" : "Expand";
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(norm, table[i].norm) == 0)
			return table[i].label;
	return NULL;
}

/* `activate-primary-icon` → `Activate primary icon`; `ShowMenu` → `Show menu`. */
static void
prettify_raw(struct strbuf *sb, const char *raw)
{
	struct strbuf tmp = STRBUF_INIT;
	int prev_lower = 0, space = 0;

	for (const char *p = raw; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '_' || c == '-' || isspace(c)) {
			space = 1;
			prev_lower = 0;
			continue;
		}
		if (isupper(c) && prev_lower)
			space = 1;
		if (space && tmp.len)
			sb_addc(&tmp, ' ');
		space = 0;
		sb_addc(&tmp,
			(char)(tmp.len == 0 ? toupper(c) :
					      (isupper(c) ? tolower(c) : c)));
		prev_lower = islower(c) || isdigit(c);
	}
	sb_add(sb, sb_str(&tmp));
	sb_free(&tmp);
}

/* Context-menu verbs: Chromium offers showContextMenu on every node. */
int
cua_action_is_menu(const char *norm)
{
	return strcmp(norm, "showcontextmenu") == 0 ||
	       strcmp(norm, "showmenu") == 0 || strcmp(norm, "menu") == 0 ||
	       strcmp(norm, "contextmenu") == 0 || strcmp(norm, "popup") == 0;
}

/*
 * A name that names no action (docs/state-text.md §11.6): empty, a key
 * binding given in its place (`<alt>f`; the ATK adaptor's
 * `mnemonic;sequence;shortcut` triple, which Gecko answers as `;;`), or
 * the action's own description given as its name (GTK 3's boolean tree
 * cells name the actions they inherit by their descriptions, "Expands or
 * contracts the row in the tree view containing this cell").
 */
int
cua_action_name_is_junk(const char *name, const char *description)
{
	if (!nonempty(name))
		return 1;
	if (strchr(name, ';'))
		return 1;
	while (isspace((unsigned char)*name))
		name++;
	if (name[0] == '<' && strchr(name, '>'))
		return 1;
	return description && strchr(name, ' ') &&
	       strcmp(name, description) == 0;
}

/* n has an action whose normalised name is `norm` */
int
cua_walk_has_action_norm(const struct cua_raw_node *n, const char *norm)
{
	char buf[64];

	for (size_t i = 0; i < n->n_actions; i++) {
		if (cua_action_name_is_junk(n->actions[i].name,
					    n->actions[i].description))
			continue;
		cua_action_normalise(buf, sizeof(buf), n->actions[i].name);
		if (strcmp(buf, norm) == 0)
			return 1;
	}
	return 0;
}

void
cua_walk_fill_actions(struct walk *w, struct cua_element *e,
		      const struct cua_raw_node *n, int is_root)
{
	uint32_t rf = cua_role_info(n->role)->flags;
	int text_like = (rf & (CUA_RF_TEXT | CUA_RF_ELIDE | CUA_RF_IMAGE)) ||
			n->role == CUA_ROLE_HEADING ||
			n->role == CUA_ROLE_DOCUMENT_WEB ||
			n->role == CUA_ROLE_DOCUMENT_FRAME ||
			strcmp(e->role_text, "text") == 0;
	struct cua_arena *a = w->tree->arena;
	const char *labels[64];
	const char *raws[64];
	size_t k = 0;
	int has_expand_action = 0, has_vscroll = 0, has_hscroll = 0;
	int expanded = CUA_HAS_STATE(n, CUA_STATE_EXPANDED);
	char norm[64];

	if (is_root && w->tree->x11_window)
		labels[k] = "Raise", raws[k++] = NULL;
	for (size_t i = 0; i < n->n_actions && k < 60; i++) {
		const char *raw = n->actions[i].name;
		const char *loc = n->actions[i].localized;
		const char *lab;
		struct strbuf sb = STRBUF_INIT;

		if (cua_action_name_is_junk(raw, n->actions[i].description))
			continue;
		cua_action_normalise(norm, sizeof(norm), raw);
		if (cua_action_is_primary(norm, n->role) ||
		    cua_action_is_hidden(norm) || cua_action_is_gaction(raw))
			continue;
		/* text and wrappers: a context menu is not what they are for */
		if (cua_action_is_menu(norm) && text_like)
			continue;
		if (strcmp(norm, "expand") == 0 ||
		    strcmp(norm, "collapse") == 0 ||
		    strcmp(norm, "expandorcontract") == 0 ||
		    strcmp(norm, "expandorcollapse") == 0 ||
		    strcmp(norm, "toggleexpanded") == 0) {
			/* GTK3 offers "expand or contract" on every tree cell;
			 * it means something only on expandable ones */
			if (!CUA_HAS_STATE(n, CUA_STATE_EXPANDABLE))
				continue;
			has_expand_action = 1;
		}
		lab = known_label(norm, expanded);
		/* a lone `expand` or `collapse` toggles (Gecko keeps calling
		 * an open summary's action `expand`): named by the state */
		if ((strcmp(norm, "expand") == 0 &&
		     !cua_walk_has_action_norm(n, "collapse")) ||
		    (strcmp(norm, "collapse") == 0 &&
		     !cua_walk_has_action_norm(n, "expand")))
			lab = expanded ? "Collapse" : "Expand";
		if (!lab) {
			if (!cua_action_name_is_junk(
				    loc, n->actions[i].description) &&
			    strcmp(loc, raw) != 0)
				sb_add(&sb, loc);
			else
				prettify_raw(&sb, raw);
			lab = sb_str(&sb);
		}
		labels[k] = cua_sanitize(a, lab);
		raws[k] = cua_arena_strdup(a, raw);
		sb_free(&sb);
		/* duplicate labels get the raw name appended */
		for (size_t j = 0; j < k; j++)
			if (labels[j] && strcmp(labels[j], labels[k]) == 0) {
				struct strbuf d = STRBUF_INIT;

				sb_addf(&d, "%s (%s)", labels[k], raw);
				labels[k] = cua_sanitize(a, sb_str(&d));
				sb_free(&d);
				break;
			}
		k++;
	}
	/* synthesized: scroll actions on scroll areas, expand/collapse */
	if (n->role == CUA_ROLE_SCROLL_PANE) {
		for (size_t i = 0; i < n->n_children; i++) {
			const struct cua_raw_node *c = n->children[i];

			if (!c || c->role != CUA_ROLE_SCROLL_BAR ||
			    !is_visible(c, w->vis))
				continue;
			if (CUA_HAS_STATE(c, CUA_STATE_HORIZONTAL))
				has_hscroll = 1;
			else
				has_vscroll = 1;
		}
		if (has_vscroll && k < 62) {
			labels[k] = "Scroll Up", raws[k++] = NULL;
			labels[k] = "Scroll Down", raws[k++] = NULL;
		}
		if (has_hscroll && k < 62) {
			labels[k] = "Scroll Left", raws[k++] = NULL;
			labels[k] = "Scroll Right", raws[k++] = NULL;
		}
	}
	if (CUA_HAS_STATE(n, CUA_STATE_EXPANDABLE) && !has_expand_action &&
	    n->role != CUA_ROLE_COMBO_BOX &&
	    !(cua_role_info(n->role)->flags & CUA_RF_MENU_ITEM) && k < 63)
		labels[k] = expanded ? "Collapse" : "Expand", raws[k++] = NULL;
	if (!k)
		return;
	e->actions = cua_arena_alloc(a, k * sizeof(char *));
	e->raw_actions = cua_arena_alloc(a, k * sizeof(char *));
	if (!e->actions || !e->raw_actions) {
		w->failed = 1;
		return;
	}
	memcpy(e->actions, labels, k * sizeof(char *));
	memcpy(e->raw_actions, raws, k * sizeof(char *));
	e->n_actions = k;
}
