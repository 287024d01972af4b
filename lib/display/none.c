/*
 * The none display driver: no window system. The accessibility tree and
 * element actions still work; every window capability is missing, for the
 * reason the driver choice gave (display.c: DISPLAY and WAYLAND_DISPLAY
 * unset, a Wayland compositor no driver works with, CUA_DISPLAY=none).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "display.h"

static void
none_destroy(struct cua_display *d)
{
	free(d);
}

static void
none_capabilities(struct cua_display *d, struct cua_display_caps *out)
{
	for (int i = 0; i < CUA_DISPLAY_CAP_COUNT; i++) {
		out->cap[i].ok = 0;
		snprintf(out->cap[i].why, sizeof(out->cap[i].why), "%s",
			 d->choice.why[0] ? d->choice.why :
					    "there is no window system");
	}
}

static void
none_describe(struct cua_display *d, char *display, size_t dsize, char *server,
	      size_t ssize)
{
	(void)d;
	if (dsize)
		display[0] = '\0';
	if (ssize)
		server[0] = '\0';
}

static const struct cua_display_ops none_ops = {
	.name = "none",
	.destroy = none_destroy,
	.capabilities = none_capabilities,
	.describe = none_describe,
};

cua_result
cua_display_none_new(struct cua_ctx *ctx, struct cua_display **out)
{
	struct cua_display *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	d->ops = &none_ops;
	d->ctx = ctx;
	*out = d;
	return CUA_OK;
}
