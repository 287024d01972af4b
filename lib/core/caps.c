/*
 * Refusals for window-system capabilities this desktop lacks (caps.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>

#include "caps.h"
#include "errors.h"
#include "sanitize.h"

/* What each capability is called in a sentence. */
static const char *const what[CUA_DISPLAY_CAP_COUNT] = {
	[CUA_DISPLAY_CAP_WINDOWS] = "the window list is",
	[CUA_DISPLAY_CAP_GEOMETRY] = "window positions are",
	[CUA_DISPLAY_CAP_SCREENSHOT] = "screen capture is",
	[CUA_DISPLAY_CAP_POINTER] = "pointer input is",
	[CUA_DISPLAY_CAP_KEYBOARD] = "keyboard input is",
};

/* The first of `want` (in order) the display lacks, or -1. */
static int
first_missing(struct cua_backend *b, const enum cua_display_cap *want, size_t n,
	      struct cua_display_caps *caps)
{
	struct cua_display *d;

	if (!b->ops->display)
		return -1;
	d = b->ops->display(b);
	cua_display_capabilities(d, NULL, caps);
	for (size_t i = 0; i < n; i++)
		if (!caps->cap[want[i]].ok)
			return (int)want[i];
	return -1;
}

/* "screen capture is unavailable on this desktop: <why>" */
static void
add_missing(struct strbuf *sb, const struct cua_display_caps *caps, int cap)
{
	sb_add(sb, what[cap]);
	sb_add(sb, " unavailable on this desktop: ");
	cua_sanitize_sb(sb, caps->cap[cap].why);
}

/* CUA_OK when the display has both capabilities; otherwise msg (slots
 * what, why and name) about the first one missing. */
static cua_result
refuse_without(struct cua_backend *b, const char *app_name,
	       enum cua_display_cap first, enum cua_display_cap second,
	       enum cua_msg msg)
{
	const enum cua_display_cap want[] = { first, second };
	struct cua_display_caps caps;
	int cap = first_missing(b, want, 2, &caps);

	if (cap < 0)
		return CUA_OK;
	return cua_err(msg, { "what", what[cap] }, { "why", caps.cap[cap].why },
		       { "name", app_name });
}

cua_result
cua_caps_refuse_pointer(struct cua_backend *b, const char *app_name)
{
	return refuse_without(b, app_name, CUA_DISPLAY_CAP_POINTER,
			      CUA_DISPLAY_CAP_GEOMETRY,
			      CUA_MSG_NO_POINTER_HERE);
}

cua_result
cua_caps_refuse_keys(struct cua_backend *b, const char *app_name)
{
	return refuse_without(b, app_name, CUA_DISPLAY_CAP_KEYBOARD,
			      CUA_DISPLAY_CAP_WINDOWS, CUA_MSG_NO_KEYS_HERE);
}

int
cua_caps_shot_error_sb(struct cua_backend *b, struct strbuf *sb)
{
	static const enum cua_display_cap want[] = {
		CUA_DISPLAY_CAP_SCREENSHOT,
		CUA_DISPLAY_CAP_GEOMETRY,
		CUA_DISPLAY_CAP_WINDOWS,
	};
	struct cua_display_caps caps;
	int cap = first_missing(b, want, 3, &caps);

	if (cap < 0)
		return 0;
	add_missing(sb, &caps, cap);
	sb_add(sb, "; the element tree and element actions still work");
	return 1;
}

const char *
cua_caps_shot_error(struct cua_backend *b, struct cua_arena *arena)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = NULL;

	if (cua_caps_shot_error_sb(b, &sb))
		s = cua_arena_strdup(arena, sb_str(&sb));
	sb_free(&sb);
	return s;
}
