/*
 * The state-text renderer (docs/state-text.md §1–§8).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_RENDER_H
#define CUA_CORE_RENDER_H

#include "strbuf.h"
#include "tree.h"

enum cua_line_flags {
	CUA_LINE_INDENT = 1u << 0,     /* prefix depth TABs */
	CUA_LINE_SUMMARY = 1u << 1,    /* include "(showing a-b of n items)" */
	CUA_LINE_SHORT_URLS = 1u << 2, /* cut URLs to 60 chars + "..." */
};

/* One element line: [indent] id [role] [(traits)] [body]. */
void
cua_render_line(struct strbuf *sb, const struct cua_element *e, uint32_t flags);

/* The full state body: App= line, Window: line, element lines (with
 * truncation markers), and the trailer. No trailing newline. */
void
cua_render_state(struct strbuf *sb, const struct cua_tree *tree);

/* The App= line only (no newline). */
void
cua_render_app_line(struct strbuf *sb, const struct cua_tree *tree);

/* "\n\n" + the focus line or the selected-text block, or nothing. */
void
cua_render_trailer(struct strbuf *sb, const struct cua_tree *tree);

/* 1 when the total URL length of the tree's lines exceeds 8,000
 * characters, so URLs are shortened (docs/state-text.md §9.7). */
int
cua_render_needs_short_urls(const struct cua_tree *tree);

/* Shortest decimal that round-trips a double, integral values without
 * ".0" (docs/state-text.md §7.4). buf >= 32 bytes. */
void
cua_format_number(char *buf, size_t size, double v);

#endif
