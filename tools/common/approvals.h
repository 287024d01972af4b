/*
 * The store of persisted app approvals ("always"), shared by cua-mcp and
 * `cua approve`: $XDG_STATE_HOME/cua/approvals.json, mode 0600, replaced
 * atomically: { "version": 1, "apps": { "<id>": { "scope": "always",
 * "granted_at": "<RFC 3339>" } } }.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_MCP_APPROVALS_H
#define CUA_MCP_APPROVALS_H

/* $XDG_STATE_HOME/cua/approvals.json (~/.local/state/…); malloc'd, NULL
 * when neither XDG_STATE_HOME nor HOME is set. */
char *
approvals_default_path(void);
/* 1 when `id` has a persisted approval in the store at `path`. */
int
approvals_has(const char *path, const char *id);
/* Adds `id` (creating the directories, mode 0700); 0, or -1 with errno. */
int
approvals_add(const char *path, const char *id);

#endif
