/*
 * Small open-addressing hash tables for the hot paths of the walk and the
 * lineage: pointer → int, and string → int.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_HASHMAP_H
#define CUA_CORE_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

struct cua_hmap {
	struct cua_hslot *slots;
	size_t cap; /* power of two */
	size_t n;
	int strings; /* keys are C strings (compared by content) */
};

void
cua_hmap_init(struct cua_hmap *m, int strings);
void
cua_hmap_clear(struct cua_hmap *m);
/* Inserts or replaces; returns 0, or -1 when out of memory. The key is
 * not copied. */
int
cua_hmap_put(struct cua_hmap *m, const void *key, int64_t value);
/* Returns 1 and sets *value when found. */
int
cua_hmap_get(const struct cua_hmap *m, const void *key, int64_t *value);

uint64_t
cua_hash_str(const char *s);

#endif
