/*
 * The fixtures' side of the line protocol the desktop tests read: one
 * line on stdout per event, flushed at once.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_FIXTURE_SAY_H
#define CUA_TEST_FIXTURE_SAY_H

#include <stdarg.h>
#include <stdio.h>

/* Prints the formatted line and a newline, and flushes stdout. */
static inline void
say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

#endif
