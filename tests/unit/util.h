/*
 * Helpers the unit tests share.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_UTIL_H
#define CUA_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n copies of unit, malloc'd */
static inline char *
repeat(const char *unit, size_t n)
{
	size_t len = strlen(unit), i;
	char *s = malloc(len * n + 1);

	assert_non_null(s);
	for (i = 0; i < n; i++)
		memcpy(s + i * len, unit, len);
	s[len * n] = '\0';
	return s;
}

/* The path of a file in tests/data (CUA_TEST_DATA), in a static
 * buffer. */
static inline const char *
data_path(const char *name)
{
	static char buf[4096];
	const char *dir = getenv("CUA_TEST_DATA");

	snprintf(buf, sizeof(buf), "%s/%s", dir ? dir : "tests/data", name);
	return buf;
}

/* The whole file at path, malloc'd and NUL-terminated, or NULL when it
 * cannot be opened. */
static inline char *
read_whole_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		return NULL;
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

#endif
