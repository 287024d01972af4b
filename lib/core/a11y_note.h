/*
 * The `Accessibility unavailable:` note (a11y_note.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_A11Y_NOTE_H
#define CUA_CORE_A11Y_NOTE_H

#include <stdint.h>

/* The toolkit name given to a process of the X Toolkit (Xt: Athena,
 * Motif), which has no accessibility bridge. */
#define CUA_A11Y_TOOLKIT_XT "Xt"

/* 1 when the app's toolkit (as for cua_a11y_remedy) has no way onto the
 * accessibility bus at all, so there is nothing to wait for. */
int
cua_a11y_never_registers(const char *toolkit, int64_t pid);

/* What would make the app's elements readable, from its toolkit (the
 * app's toolkit attribute; when unknown, the libraries the process has
 * mapped), executable and process: a static string; NULL when nothing
 * would (an X Toolkit app). */
const char *
cua_a11y_remedy(const char *toolkit, const char *exe, int64_t pid);

/* The note line for app `name` (sanitised here); malloc'd, NULL when out
 * of memory. */
char *
cua_a11y_note(const char *name, const char *toolkit, const char *exe,
	      int64_t pid);

#endif
