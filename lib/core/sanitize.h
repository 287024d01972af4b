/*
 * The sanitiser every app-controlled string passes through before it can
 * reach a model (docs/state-text.md §5; docs/differences.md deviation D6).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_SANITIZE_H
#define CUA_CORE_SANITIZE_H

#include <stddef.h>
#include <stdint.h>

#include "cua/cua.h"

#include "arena.h"
#include "strbuf.h"

#define CUA_FIELD_MAX 160

/*
 * Steps 1–6: decode UTF-8 (invalid → U+FFFD), line breaks → literal "\n",
 * TAB/VT/FF → space, drop other C0/C1 controls, U+FFFC and bidi
 * overrides/isolates, neutralise envelope tags (`<` → U+2039), trim.
 * Returns a string in `arena` ("" for NULL; never NULL unless out of
 * memory).
 */
char *
cua_sanitize(struct cua_arena *arena, const char *s);

/* Same, into a strbuf (appends). */
void
cua_sanitize_sb(struct strbuf *sb, const char *s);

/*
 * Where the bytes of a sanitised text came from (select_text finds the
 * model's text in the sanitised text, then selects the characters of the
 * app's text it came from). Byte i of the appended text came from the
 * input's characters [start[i], end[i]), counted as cua_utf8_len()
 * counts them: one character each, a CR LF line break spans two, a
 * U+2039 that replaced a `<` comes from the `<`.
 */
struct cua_sanitize_map {
	int32_t *start;
	int32_t *end;
	size_t cap;
	/* When not NULL: called for the k-th U+FFFC (an embedded object) of
	 * the input, to append that object's text, already sanitised, in its
	 * place; all of it comes from the U+FFFC. Otherwise U+FFFC is
	 * dropped, as always. */
	void (*object)(void *ud, size_t k, struct strbuf *out);
	void *ud;
};

/*
 * cua_sanitize_sb() (the same steps, trim included) that fills `map` for
 * every appended byte. Returns 0, or -1 when out of memory (nothing is
 * appended then). Free the map with cua_sanitize_map_free().
 */
int
cua_sanitize_mapped(struct strbuf *sb, const char *s,
		    struct cua_sanitize_map *map);
void
cua_sanitize_map_free(struct cua_sanitize_map *map);

/*
 * Step 7: appends `s` (already sanitised) to sb, cut to at most `max`
 * Unicode scalar values followed by "..." when longer; never splits a
 * UTF-8 sequence and cuts before a combining mark / ZWJ sequence rather
 * than inside a grapheme cluster.
 */
void
cua_add_truncated(struct strbuf *sb, const char *s, size_t max);

/*
 * cua_error() with the message `before`, then `name` sanitised (an app's
 * or the model's string), then `after` (a printf format): how a plain
 * message (an internal failure) quotes a name it does not control. The
 * messages of the error registry sanitise their slots themselves
 * (cua_err(), errors.h).
 */
cua_result
cua_error_quoting(cua_result code, const char *before, const char *name,
		  const char *after, ...) __attribute__((format(printf, 4, 5)));

#endif
