/*
 * A bump allocator: many small allocations, freed all at once.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_ARENA_H
#define CUA_CORE_ARENA_H

#include <stddef.h>

struct cua_arena;

struct cua_arena *
cua_arena_new(void);
void
cua_arena_free(struct cua_arena *arena);

/* Zeroed memory, aligned for any type; NULL on allocation failure. */
void *
cua_arena_alloc(struct cua_arena *arena, size_t size);
/* Copies of strings (NULL in, NULL out). */
char *
cua_arena_strdup(struct cua_arena *arena, const char *s);
char *
cua_arena_strndup(struct cua_arena *arena, const char *s, size_t n);
/* Total bytes handed out (for statistics). */
size_t
cua_arena_used(const struct cua_arena *arena);
/* Total bytes the arena holds from the allocator: what it costs. */
size_t
cua_arena_held(const struct cua_arena *arena);

#endif
