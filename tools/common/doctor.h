/*
 * The facts `cua doctor` prints and cua-mcp logs at start-up: the
 * session's display driver (cua_session_get_display_info()) and what the
 * accessibility bus gives (the tree, element actions).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TOOLS_DOCTOR_H
#define CUA_TOOLS_DOCTOR_H

#include <stdio.h>

#include <jansson.h>

#include <cua/cua.h>

/*
 * The facts of session s: the libcua.display/1 object with an
 * "accessibility" member ({"tree": {"available", "reason"?},
 * "element_actions": {...}, "apps": N}). With s NULL (no session could
 * be opened), `error` says why: the display members are null and the
 * tree is unavailable for that reason. Asks the accessibility bus for
 * its apps (one list_apps). NULL when out of memory.
 */
json_t *
doctor_facts(cua_session *s, const char *error);

/* 1 when the facts say the accessibility tree works. */
int
doctor_tree_works(const json_t *facts);

/* The facts for people, one line each. */
void
doctor_print(FILE *f, const json_t *facts);

/* The facts on one line (for a log), malloc'd; NULL when out of memory. */
char *
doctor_line(const json_t *facts);

#endif /* CUA_TOOLS_DOCTOR_H */
