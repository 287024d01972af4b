/*
 * The role table (docs/state-text.md §11.1): raw role → role text and the
 * properties the walk policy needs.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_ROLES_H
#define CUA_CORE_ROLES_H

#include <stdint.h>

enum cua_role_flags {
	CUA_RF_ELIDE = 1u << 0, /* generic container (container/unknown) */
	CUA_RF_TEXT = 1u << 1,  /* pure-text candidate
					* (docs/state-text.md §9.5) */
	CUA_RF_INTERACTIVE = 1u << 2, /* may carry the disabled trait */
	CUA_RF_SELECTABLE = 1u << 3,  /* may carry selectable
					* (docs/state-text.md §11.3) */
	CUA_RF_ROW = 1u << 4,         /* a row of a row container */
	CUA_RF_ROWS = 1u << 5,        /* a row container (windowing
					* docs/state-text.md §9.8) */
	CUA_RF_TOPLEVEL = 1u << 6,    /* may be a window root
					* (docs/state-text.md §9.1) */
	CUA_RF_HIDDEN = 1u << 7,      /* never rendered */
	CUA_RF_TEXT_ENTRY = 1u << 8,  /* text field / entry area / stepper */
	CUA_RF_TOGGLE = 1u << 9,      /* two-state value
					* (docs/state-text.md §7.4) */
	CUA_RF_NUMERIC = 1u << 10,    /* numeric value
					* (docs/state-text.md §7.4) */
	CUA_RF_IMAGE = 1u << 11,      /* unnamed images are elided */
	CUA_RF_POPUP = 1u << 12,      /* popup-ish toplevel
					* (docs/state-text.md §9.6) */
	CUA_RF_MENU_ITEM = 1u << 13,  /* menu, menu item */
};

struct cua_role_info {
	const char *name; /* AT-SPI role name ("push button") */
	const char *text; /* role text ("button"); "" for elided defaults */
	uint32_t flags;
};

/* Never NULL: unknown numbers get the "unknown" entry. */
const struct cua_role_info *
cua_role_info(uint32_t role);
/* Role number for an AT-SPI role name, or -1. */
int
cua_role_from_name(const char *name);
const char *
cua_role_name(uint32_t role);
/* A toplevel of this role is a transient popup (docs/state-text.md §9.6):
 * an open menu, drop-down or tooltip, or the undecorated WINDOW holding
 * one. */
int
cua_role_is_popup_toplevel(uint32_t role);

#endif
