/*
 * Screenshots of observations (shot.c). cua_shot_take() and
 * cua_shot_reason() are declared in session.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_SHOT_H
#define CUA_CORE_SHOT_H

#include <stddef.h>

#include "backend/backend.h"
#include "ctx.h"
#include "tree.h"

/* Resamples a capture to the size of docs/screenshots.md §4 and stores it as
 * JPEG (with its geometry) in the tree. Returns 0 or -1. */
int
cua_shot_encode(struct cua_tree *t, const struct cua_capture *c,
		const struct cua_options *opt);

/* The tree's screenshot, optionally with marks (each rendered element's
 * box and id) and/or as PNG; *out malloc'd. */
cua_result
cua_shot_render(const struct cua_tree *t, int marks, int png, void **out,
		size_t *size);

#endif
