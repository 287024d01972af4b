/*
 * The tree cache's verify mode names where a cached rendering and a full
 * read differ (cua_cache_first_diff, lib/core/cache.c): the line and
 * column of the first difference, and where one rendering ends and the
 * other goes on (a focus line only one of them has), the line only the
 * longer has.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "util.h"

#include "core/cache.h"

struct diff {
	size_t line, col;
	char a[128], b[128];
};

static struct diff
first_diff(const char *a, const char *b)
{
	struct diff d = { 0 };
	const char *la = NULL, *lb = NULL;
	size_t na = 0, nb = 0;

	d.line = cua_cache_first_diff(a, b, &la, &na, &lb, &nb, &d.col);
	if (d.line) {
		assert_true(na < sizeof(d.a) && nb < sizeof(d.b));
		memcpy(d.a, la, na);
		memcpy(d.b, lb, nb);
	}
	return d;
}

static void
test_equal(void **state)
{
	(void)state;
	assert_int_equal(first_diff("", "").line, 0);
	assert_int_equal(first_diff("one\ntwo", "one\ntwo").line, 0);
	assert_int_equal(first_diff("one\ntwo\n", "one\ntwo\n").line, 0);
}

static void
test_within_a_line(void **state)
{
	struct diff d;

	(void)state;
	d = first_diff("App\n\tbutton OK\n\tcheck box on", "App\n\tbutton OK\n"
							   "\tcheck box off");
	assert_int_equal(d.line, 3);
	assert_int_equal(d.col, 13);
	assert_string_equal(d.a, "\tcheck box on");
	assert_string_equal(d.b, "\tcheck box off");

	/* one line longer than the other */
	d = first_diff("a\nname\nz", "a\nname (disabled)\nz");
	assert_int_equal(d.line, 2);
	assert_int_equal(d.col, 5);
	assert_string_equal(d.a, "name");
	assert_string_equal(d.b, "name (disabled)");

	d = first_diff("x", "y");
	assert_int_equal(d.line, 1);
	assert_int_equal(d.col, 1);
}

/* what verify mode met on galculator: the cached tree named a focused
 * element that the full read did not have; the texts are the same up to
 * the end of the shorter, and the difference is the line after the
 * blank one */
static void
test_one_ends(void **state)
{
	const char *tree = "App\n\tmenu bar\n\ttext entry area 0";
	char longer[128];
	struct diff d;

	(void)state;
	snprintf(longer, sizeof(longer), "%s%s", tree,
		 "\n\nThe focused UI element is 4 text entry area 0.");
	d = first_diff(longer, tree);
	assert_int_equal(d.line, 5);
	assert_int_equal(d.col, 1);
	assert_string_equal(d.a,
			    "The focused UI element is 4 text entry area 0.");
	assert_string_equal(d.b, "");

	d = first_diff(tree, longer);
	assert_int_equal(d.line, 5);
	assert_string_equal(d.a, "");
	assert_string_equal(d.b,
			    "The focused UI element is 4 text entry area 0.");

	/* a line more */
	d = first_diff("a\nb", "a\nb\nc");
	assert_int_equal(d.line, 3);
	assert_string_equal(d.a, "");
	assert_string_equal(d.b, "c");

	/* only a trailing newline */
	d = first_diff("a\nb\n", "a\nb");
	assert_int_equal(d.line, 3);
	assert_string_equal(d.a, "");
	assert_string_equal(d.b, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_within_a_line),
		cmocka_unit_test(test_one_ends),
	};

	return cmocka_run_group_tests_name("cache-diff", tests, NULL, NULL);
}
