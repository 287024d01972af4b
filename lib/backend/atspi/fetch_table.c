/*
 * A table wider and taller than its view, read as the grid of cells it
 * shows (fetch_int.h): LibreOffice Calc's sheet reports 2^31 - 1 children
 * (1,048,576 rows of 16,384 cells), so the visible range of a flat index
 * list would be a part of row 1. The hit tests of the walk give the cells
 * at the view's top-left, bottom-left and top-right corners; their rows
 * and columns bound the cells asked of the table one by one with
 * Table.GetAccessibleAt.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>

#include "fetch_int.h"

/* Most cells of a visible grid; rows beyond it are left out. */
#define GRID_MAX 600

/* The grid of cells the hit tests bound: rows r0..r1, columns c0..c1;
 * 0 when the flat visible range serves. */
static int
grid_of(struct fnode *fn, int64_t *r0, int64_t *r1, int64_t *c0, int64_t *c1)
{
	int64_t ncols = fn->ncols;
	int64_t a = fn->hit[0], b = fn->hit[1], c = fn->hit[2], d = fn->hit[3];
	int64_t width;

	if (!(fn->n->ifaces & CUA_IFACE_TABLE) || ncols <= 1 || b < 0 || d < 0)
		return 0;
	/* cell i is row i / ncols, column i % ncols only when the children
	 * are the cells alone (GTK 3 tree views put their column headers
	 * first); the count is clamped to what an int32 holds */
	if (fn->n->table_nrows <= 0 ||
	    fn->n->child_count !=
		    MIN((int64_t)fn->n->table_nrows * ncols, INT32_MAX))
		return 0;
	/* as for a flat range: the top hit may have been a header */
	if (c >= 0 && (a < 0 || a > c || c - a > 2 * ncols))
		a = c;
	if (a < 0)
		return 0;
	*r0 = a / ncols;
	*c0 = a % ncols;
	*r1 = b / ncols;
	*c1 = d % ncols;
	/* every column is in view: whole rows, read as a flat range */
	if (*r1 < *r0 || *c1 < *c0 || (*c0 == 0 && *c1 == ncols - 1))
		return 0;
	if (fn->job->pol->grid_rows > 0 &&
	    *r1 - *r0 + 1 > fn->job->pol->grid_rows)
		*r1 = *r0 + fn->job->pol->grid_rows - 1;
	width = *c1 - *c0 + 1;
	if (width > GRID_MAX) {
		width = GRID_MAX;
		*c1 = *c0 + width - 1;
	}
	if ((*r1 - *r0 + 1) * width > GRID_MAX)
		*r1 = *r0 + GRID_MAX / width - 1;
	/* the cells' indices must be ones the table can report */
	while (*r1 >= *r0 && *r1 * ncols + *c1 > INT32_MAX)
		(*r1)--;
	return *r1 >= *r0;
}

int
fetch_table_grid_range(struct fnode *fn, int64_t *first, int64_t *last)
{
	int64_t r0, r1, c0, c1;

	if (!grid_of(fn, &r0, &r1, &c0, &c1))
		return 0;
	*first = r0 * fn->ncols + c0;
	*last = r1 * fn->ncols + c1;
	return 1;
}

int
fetch_table_read_grid(struct fnode *fn)
{
	int64_t ncols = fn->ncols;
	int64_t r0, r1, c0, c1, count, i = 0;
	int32_t *index;

	if (!grid_of(fn, &r0, &r1, &c0, &c1))
		return 0;
	count = (r1 - r0 + 1) * (c1 - c0 + 1);
	index = cua_arena_alloc(fn->job->tmp, (size_t)count * sizeof(*index));
	if (!index)
		abort(); /* the walk cannot continue without its state */
	fetch_alloc_slots(fn, (size_t)(r0 * ncols + c0), (size_t)count);
	fn->slot_index = index;
	cua_debug(fn->job->be->base.ctx,
		  "atspi: %s: reading rows %" G_GINT64_FORMAT
		  "-%" G_GINT64_FORMAT ", columns %" G_GINT64_FORMAT
		  "-%" G_GINT64_FORMAT " of %" G_GINT64_FORMAT,
		  fn->n->ident, r0, r1, c0, c1, ncols);
	for (int64_t row = r0; row <= r1; row++)
		for (int64_t col = c0; col <= c1; col++, i++) {
			index[i] = (int32_t)(row * ncols + col);
			fetch_call(fn, K_CHILD_AT, (int)i, IF_TABLE,
				   "GetAccessibleAt",
				   g_variant_new("(ii)", (int32_t)row,
						 (int32_t)col),
				   "((so))");
		}
	return 1;
}

void
fetch_table_place_cell(struct fnode *fn, struct cua_raw_node *c, size_t i)
{
	/* the row is known: the table is not asked again (GetRowAtIndex) */
	c->index_in_parent = fn->slot_index[i];
	c->table_row = (int32_t)(fn->slot_index[i] / fn->ncols);
	c->have |= CUA_HAVE_TABLE_ROW;
}
