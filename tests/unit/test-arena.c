/*
 * The bump allocator (lib/core/arena.c): aligned, zeroed memory that
 * stays put; what an arena holds against what it handed out, for a
 * small arena (a read the tree cache keeps for as long as it keeps the
 * app), a large one and one with big allocations among small ones.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "util.h"

#include "core/arena.h"

/* what one chunk's bookkeeping may take */
#define HEADER 64

static void
test_small_holds_little(void **state)
{
	struct cua_arena *a = cua_arena_new();

	(void)state;
	assert_non_null(a);
	for (int i = 0; i < 20; i++)
		assert_non_null(cua_arena_alloc(a, 40));
	assert_int_equal(cua_arena_used(a), 20 * 48);
	/* a read of a few objects holds about what it uses (its first
	 * chunk, 1 KiB), not a whole chunk of 64 KiB */
	assert_true(cua_arena_held(a) <= 1024 + HEADER);
	cua_arena_free(a);
}

static void
test_aligned_zeroed_kept(void **state)
{
	struct cua_arena *a = cua_arena_new();
	unsigned char *p[2000];

	(void)state;
	assert_non_null(a);
	for (int i = 0; i < 2000; i++) {
		size_t n = 1 + (size_t)(i * 37) % 300;

		p[i] = cua_arena_alloc(a, n);
		assert_non_null(p[i]);
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		for (size_t k = 0; k < n; k++)
			assert_int_equal(p[i][k], 0);
		memset(p[i], i & 0xff, n);
	}
	/* nothing written later moved or overwrote what came before */
	for (int i = 0; i < 2000; i++) {
		size_t n = 1 + (size_t)(i * 37) % 300;

		for (size_t k = 0; k < n; k++)
			assert_int_equal(p[i][k], i & 0xff);
	}
	cua_arena_free(a);
}

static void
test_large_wastes_little(void **state)
{
	struct cua_arena *a = cua_arena_new();
	size_t used, held;

	(void)state;
	assert_non_null(a);
	for (int i = 0; i < 20000; i++)
		assert_non_null(cua_arena_alloc(a, 100));
	used = cua_arena_used(a);
	held = cua_arena_held(a);
	assert_int_equal(used, 20000 * 112);
	assert_true(held >= used);
	/* at most the last chunk's unused part, and each chunk's tail */
	assert_true(held <= used + 64 * 1024 + used / 100);
	cua_arena_free(a);
}

static void
test_big_behind(void **state)
{
	struct cua_arena *a = cua_arena_new();
	size_t before;
	char *small, *big, *after;

	(void)state;
	assert_non_null(a);
	small = cua_arena_alloc(a, 32);
	assert_non_null(small);
	before = cua_arena_held(a);
	big = cua_arena_alloc(a, 100 * 1024);
	assert_non_null(big);
	/* a chunk of its own, of its size */
	assert_true(cua_arena_held(a) - before >= 100 * 1024);
	assert_true(cua_arena_held(a) - before <= 100 * 1024 + HEADER);
	memset(big, 0x5a, 100 * 1024);
	/* the small ones still go to the first chunk */
	before = cua_arena_held(a);
	after = cua_arena_alloc(a, 32);
	assert_non_null(after);
	assert_int_equal(cua_arena_held(a), before);
	assert_ptr_equal(after, small + 32);
	cua_arena_free(a);
}

static void
test_strings(void **state)
{
	struct cua_arena *a = cua_arena_new();
	char *x, *y, *z;

	(void)state;
	assert_non_null(a);
	assert_null(cua_arena_strdup(a, NULL));
	assert_null(cua_arena_strndup(a, NULL, 3));
	x = cua_arena_strdup(a, "window");
	y = cua_arena_strndup(a, "button", 3);
	z = cua_arena_alloc(a, 0);
	assert_string_equal(x, "window");
	assert_string_equal(y, "but");
	assert_non_null(z);
	assert_ptr_not_equal(z, y);
	cua_arena_free(a);
	cua_arena_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_holds_little),
		cmocka_unit_test(test_aligned_zeroed_kept),
		cmocka_unit_test(test_large_wastes_little),
		cmocka_unit_test(test_big_behind),
		cmocka_unit_test(test_strings),
	};

	return cmocka_run_group_tests_name("arena", tests, NULL, NULL);
}
