/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define ARENA_CHUNK (64 * 1024)
#define ARENA_ALIGN 16

struct chunk {
	struct chunk *next;
	size_t size;
	size_t used;
	/* data follows, aligned */
	max_align_t data[];
};

struct cua_arena {
	struct chunk *head;
	size_t total;
};

struct cua_arena *
cua_arena_new(void)
{
	return calloc(1, sizeof(struct cua_arena));
}

void
cua_arena_free(struct cua_arena *arena)
{
	struct chunk *c, *next;

	if (!arena)
		return;
	for (c = arena->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(arena);
}

void *
cua_arena_alloc(struct cua_arena *arena, size_t size)
{
	struct chunk *c = arena->head;
	size_t need = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	void *p;

	if (need == 0)
		need = ARENA_ALIGN;
	if (!c || c->size - c->used < need) {
		size_t sz = need > ARENA_CHUNK ? need : ARENA_CHUNK;

		c = malloc(sizeof(*c) + sz);
		if (!c)
			return NULL;
		c->size = sz;
		c->used = 0;
		/* a big allocation goes behind the current chunk so that the
		 * current one keeps serving small ones */
		if (need > ARENA_CHUNK / 4 && arena->head) {
			c->next = arena->head->next;
			arena->head->next = c;
		} else {
			c->next = arena->head;
			arena->head = c;
		}
	}
	p = (char *)c->data + c->used;
	c->used += need;
	arena->total += need;
	memset(p, 0, size);
	return p;
}

char *
cua_arena_strndup(struct cua_arena *arena, const char *s, size_t n)
{
	char *d;

	if (!s)
		return NULL;
	d = cua_arena_alloc(arena, n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *
cua_arena_strdup(struct cua_arena *arena, const char *s)
{
	return s ? cua_arena_strndup(arena, s, strlen(s)) : NULL;
}

size_t
cua_arena_used(const struct cua_arena *arena)
{
	return arena->total;
}
