/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hashmap.h"

struct cua_hslot {
	const void *key; /* NULL = empty */
	uint64_t hash;
	int64_t value;
};

uint64_t
cua_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t
hash_key(const struct cua_hmap *m, const void *key)
{
	uint64_t h;

	if (m->strings)
		return cua_hash_str(key);
	h = (uint64_t)(uintptr_t)key;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static int
key_eq(const struct cua_hmap *m, const struct cua_hslot *s, const void *key,
       uint64_t h)
{
	if (s->hash != h)
		return 0;
	return m->strings ? strcmp(s->key, key) == 0 : s->key == key;
}

void
cua_hmap_init(struct cua_hmap *m, int strings)
{
	memset(m, 0, sizeof(*m));
	m->strings = strings;
}

void
cua_hmap_clear(struct cua_hmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}

static int
grow(struct cua_hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct cua_hslot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (size_t i = 0; i < m->cap; i++) {
		struct cua_hslot *s = &m->slots[i];
		size_t j;

		if (!s->key)
			continue;
		for (j = s->hash & (cap - 1); slots[j].key;
		     j = (j + 1) & (cap - 1))
			;
		slots[j] = *s;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int
cua_hmap_put(struct cua_hmap *m, const void *key, int64_t value)
{
	uint64_t h;
	size_t j;

	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return -1;
	h = hash_key(m, key);
	for (j = h & (m->cap - 1); m->slots[j].key; j = (j + 1) & (m->cap - 1))
		if (key_eq(m, &m->slots[j], key, h)) {
			m->slots[j].value = value;
			return 0;
		}
	m->slots[j].key = key;
	m->slots[j].hash = h;
	m->slots[j].value = value;
	m->n++;
	return 0;
}

int
cua_hmap_get(const struct cua_hmap *m, const void *key, int64_t *value)
{
	uint64_t h;

	if (!m->cap || !key)
		return 0;
	h = hash_key(m, key);
	for (size_t j = h & (m->cap - 1); m->slots[j].key;
	     j = (j + 1) & (m->cap - 1))
		if (key_eq(m, &m->slots[j], key, h)) {
			if (value)
				*value = m->slots[j].value;
			return 1;
		}
	return 0;
}
