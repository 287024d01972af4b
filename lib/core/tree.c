/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tree.h"

struct cua_tree *
cua_tree_alloc(void)
{
	struct cua_tree *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->arena = cua_arena_new();
	if (!t->arena) {
		free(t);
		return NULL;
	}
	atomic_init(&t->refcount, 1);
	t->focused = -1;
	t->app_id = t->app_name = t->exe = "";
	return t;
}

void
cua_tree_destroy(struct cua_tree *t)
{
	if (!t)
		return;
	cua_arena_free(t->arena);
	free(t);
}

struct cua_tree *
cua_tree_retain(struct cua_tree *t)
{
	if (t)
		atomic_fetch_add(&t->refcount, 1);
	return t;
}

void
cua_tree_release(struct cua_tree *t)
{
	if (t && atomic_fetch_sub(&t->refcount, 1) == 1)
		cua_tree_destroy(t);
}

static int
str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

int
cua_subrole_eq(const char *a, const char *b)
{
	return !a || !b || strcmp(a, b) == 0;
}

int
cua_fingerprint_equal(const struct cua_fingerprint *a,
		      const struct cua_fingerprint *b)
{
	return a->role == b->role && a->value_kind == b->value_kind &&
	       cua_subrole_eq(a->subrole, b->subrole) &&
	       cua_subrole_eq(a->identifier, b->identifier) &&
	       str_eq(a->title, b->title);
}

uint32_t
cua_element_window_index(const struct cua_element *e)
{
	const struct cua_tree *t = e->tree;
	int32_t k = e->skel;

	if (k < 0 || !t->skel)
		return t->window_index;
	while (t->skel[k].parent >= 0)
		k = t->skel[k].parent;
	return t->skel[k].index;
}
