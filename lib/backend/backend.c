/*
 * Helpers shared by all backends.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"

struct cua_raw_snapshot *
cua_raw_snapshot_new(void)
{
	struct cua_raw_snapshot *snap = calloc(1, sizeof(*snap));

	if (!snap)
		return NULL;
	snap->arena = cua_arena_new();
	if (!snap->arena) {
		free(snap);
		return NULL;
	}
	return snap;
}

void
cua_raw_snapshot_free(struct cua_raw_snapshot *snap)
{
	if (!snap)
		return;
	cua_arena_free(snap->arena);
	free(snap);
}

struct cua_raw_node *
cua_raw_node_new(struct cua_raw_snapshot *snap)
{
	struct cua_raw_node *n = cua_arena_alloc(snap->arena, sizeof(*n));

	if (!n)
		return NULL;
	n->table_row = -1;
	n->index_in_parent = -1;
	n->child_count = 0;
	snap->stats.nodes++;
	return n;
}

int
cua_app_is_libreoffice(const struct cua_app_info *app)
{
	return (app->exe_base && strcmp(app->exe_base, "soffice.bin") == 0) ||
	       (app->atspi_name && strcmp(app->atspi_name, "soffice") == 0);
}

int
cua_toolkit_is_qt(const char *toolkit)
{
	return toolkit && strncasecmp(toolkit, "Qt", 2) == 0;
}

int
cua_toolkit_is_chromium(const char *toolkit)
{
	return toolkit && (strcasestr(toolkit, "chrom") ||
			   strcasestr(toolkit, "electron"));
}

int
cua_toolkit_is_gecko(const char *toolkit)
{
	return toolkit && (strcasestr(toolkit, "gecko") ||
			   strcasestr(toolkit, "firefox") ||
			   strcasestr(toolkit, "mozilla"));
}

void
cua_app_list_free(struct cua_app_list *list)
{
	if (!list)
		return;
	cua_arena_free(list->arena);
	free(list);
}

void
cua_installed_list_free(struct cua_installed_list *list)
{
	if (!list)
		return;
	cua_arena_free(list->arena);
	free(list);
}
