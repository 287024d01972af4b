/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

/* Chunks grow from ARENA_FIRST to ARENA_CHUNK, doubling: a small
 * snapshot holds about what it uses, not a whole chunk of 64 KiB. The
 * reads of an observation served from the tree cache are kept as long
 * as the app's cache entry (up to CUA_CACHE_MAX_PATCHES of them) and
 * use 0.3 to 3 KiB, most about 850 bytes; with 64 KiB chunks each one
 * left ~25 KiB resident, 19 MB over three apps in a soak. */
#define ARENA_FIRST 1024
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
	size_t total;     /* handed out */
	size_t held;      /* allocated, chunk headers included */
	size_t next_size; /* of the next chunk for small allocations */
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
		/* a big allocation goes behind the current chunk, in one of
		 * its own, so that the current one keeps serving small ones */
		int behind = need > ARENA_CHUNK / 4 && arena->head;
		size_t sz = arena->next_size ? arena->next_size : ARENA_FIRST;

		if (behind || need > sz)
			sz = need;
		else if (arena->next_size < ARENA_CHUNK)
			arena->next_size = sz * 2;
		c = malloc(sizeof(*c) + sz);
		if (!c)
			return NULL;
		c->size = sz;
		c->used = 0;
		arena->held += sizeof(*c) + sz;
		if (behind) {
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

size_t
cua_arena_held(const struct cua_arena *arena)
{
	return arena->held;
}
