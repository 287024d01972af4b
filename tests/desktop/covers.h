/*
 * The evidence behind docs/coverage.md (tools/coverage): a case that has
 * checked the effects of some tools on an app of one toolkit says so,
 * after its last assertion, with COVERS("GTK 3", "click type_text"). A
 * case that fails never gets there, so it prints nothing. Tool names are
 * cua-mcp's; toolkit names are the rows of tools/coverage.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_COVERS_H
#define CUA_TEST_COVERS_H

#include <stdio.h>

#define COVERS(toolkit, tools)                                                 \
	do {                                                                   \
		printf("# covers %s: %s (%s)\n", (toolkit), (tools),           \
		       __func__);                                              \
		fflush(stdout);                                                \
	} while (0)

#endif
