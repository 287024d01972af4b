/*
 * Public entry points of headless desktops (cua_desktop_*): argument
 * checks, options, the reference count and the log handler. The work is
 * in lib/desktop/ (client.c), built with the AT-SPI2 + X11 backend.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cua/cua.h"
#include "core/ctx.h"
#include "core/errors.h"
#include "desktop/client.h"

#define CHECK_ARG(cond, ...)                                                   \
	do {                                                                   \
		if (!(cond))                                                   \
			return cua_error(CUA_ERROR_INVALID_ARGUMENT,           \
					 __VA_ARGS__);                         \
	} while (0)

#define UNSUPPORTED cua_err(CUA_MSG_NO_HEADLESS_DESKTOPS)

struct cua_desktop {
	atomic_int refcount;
	uint32_t flags;
	char *kind;
	char *screen;
	char *state_dir;
	int no_wm;
	cua_desktop_log_fn log_fn;
	void *log_data;
	struct desktop_client *client;
};

static cua_desktop *
desktop_alloc(uint32_t flags)
{
	cua_desktop *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	atomic_init(&d->refcount, 1);
	d->flags = flags;
#if HAVE_HEADLESS_DESKTOP
	d->client = desktop_client_new();
	if (!d->client) {
		free(d);
		return NULL;
	}
#endif
	return d;
}

/* Warnings of the supervisor go to the desktop's log handler. */
static void
log_warning(const char *message, void *data)
{
	cua_desktop *d = data;

	if (d->log_fn)
		d->log_fn(d, CUA_LOG_WARNING, message, d->log_data);
	else
		fprintf(stderr, "libcua: warning: %s\n", message);
}

CUA_EXPORT cua_result
cua_desktop_new(cua_desktop **out, uint32_t flags)
{
	cua_error_clear(); /* no stale error on this thread */
	CHECK_ARG(out, "cua_desktop_new: out is NULL");
	*out = NULL;
	CHECK_ARG(!(flags & ~CUA_DESKTOP_DETACHED),
		  "cua_desktop_new: unknown flags %#x",
		  (unsigned int)(flags & ~CUA_DESKTOP_DETACHED));
	*out = desktop_alloc(flags);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
}

CUA_EXPORT cua_result
cua_desktop_attach(cua_desktop **out, const char *state_dir)
{
	cua_desktop *d;
	cua_result r;

	cua_error_clear(); /* no stale error on this thread */
	CHECK_ARG(out, "cua_desktop_attach: out is NULL");
	*out = NULL;
#if HAVE_HEADLESS_DESKTOP
	d = desktop_alloc(0);
	if (!d)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	r = desktop_client_attach(d->client, state_dir);
	if (r != CUA_OK) {
		cua_desktop_unref(d);
		return r;
	}
	*out = d;
	return CUA_OK;
#else
	(void)d;
	(void)r;
	(void)state_dir;
	return UNSUPPORTED;
#endif
}

CUA_EXPORT cua_desktop *
cua_desktop_ref(cua_desktop *desktop)
{
	if (desktop)
		atomic_fetch_add(&desktop->refcount, 1);
	return desktop;
}

CUA_EXPORT cua_desktop *
cua_desktop_unref(cua_desktop *desktop)
{
	if (!desktop || atomic_fetch_sub(&desktop->refcount, 1) != 1)
		return NULL;
#if HAVE_HEADLESS_DESKTOP
	if (desktop_client_owned(desktop->client))
		desktop_client_stop(desktop->client, log_warning, desktop);
	desktop_client_free(desktop->client);
#endif
	free(desktop->kind);
	free(desktop->screen);
	free(desktop->state_dir);
	free(desktop);
	return NULL;
}

CUA_EXPORT void
cua_desktop_set_log_handler(cua_desktop *desktop, cua_desktop_log_fn handler,
			    void *user_data)
{
	if (!desktop)
		return;
	desktop->log_fn = handler;
	desktop->log_data = user_data;
}

static int
started(const cua_desktop *d)
{
#if HAVE_HEADLESS_DESKTOP
	return desktop_client_started(d->client);
#else
	(void)d;
	return 0;
#endif
}

static cua_result
replace(char **slot, const char *value)
{
	char *copy = value ? strdup(value) : NULL;

	if (value && !copy)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	free(*slot);
	*slot = copy;
	return CUA_OK;
}

static cua_result
set_kind(cua_desktop *d, const char *value)
{
#if HAVE_HEADLESS_DESKTOP
	char known[256] = "";
	const char *name;
	size_t i, len;

	if (!desktop_client_kind_known(value)) {
		for (i = 0; (name = desktop_client_kind_name(i)); i++) {
			len = strlen(known);
			snprintf(known + len, sizeof(known) - len, "%s%s",
				 i ? ", " : "", name);
		}
		return cua_err(CUA_MSG_DESKTOP_BAD_KIND, { "kind", value },
			       { "known", known });
	}
#endif
	return replace(&d->kind, value);
}

CUA_EXPORT cua_result
cua_desktop_set_option(cua_desktop *desktop, const char *key, const char *value)
{
	cua_error_clear(); /* no stale error on this thread */
	CHECK_ARG(desktop && key, "cua_desktop_set_option: NULL argument");
	CHECK_ARG(value, "cua_desktop_set_option: %s: the value is NULL", key);
	CHECK_ARG(!started(desktop),
		  "cua_desktop_set_option: %s: the desktop is already running; "
		  "set options before cua_desktop_start()",
		  key);
	if (!strcmp(key, "kind"))
		return set_kind(desktop, value);
	if (!strcmp(key, "screen")) {
#if HAVE_HEADLESS_DESKTOP
		if (!desktop_client_valid_screen(value))
			return cua_err(CUA_MSG_DESKTOP_BAD_SCREEN,
				       { "screen", value });
#endif
		return replace(&desktop->screen, value);
	}
	if (!strcmp(key, "window_manager")) {
		if (strcmp(value, "openbox") && strcmp(value, "none"))
			return cua_err(CUA_MSG_DESKTOP_BAD_WM, { "wm", value });
		desktop->no_wm = !strcmp(value, "none");
		return CUA_OK;
	}
	if (!strcmp(key, "state_dir")) {
		if (!*value)
			return cua_err(CUA_MSG_DESKTOP_EMPTY_DIR);
		return replace(&desktop->state_dir, value);
	}
	return cua_err(CUA_MSG_DESKTOP_BAD_OPTION, { "key", key });
}

#if HAVE_HEADLESS_DESKTOP
static void
options(cua_desktop *d, struct desktop_client_options *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = d->kind;
	o->screen = d->screen;
	o->state_dir = d->state_dir;
	o->no_wm = d->no_wm;
	o->detached = !!(d->flags & CUA_DESKTOP_DETACHED);
	o->warn = log_warning;
	o->warn_data = d;
}
#endif

CUA_EXPORT cua_result
cua_desktop_start(cua_desktop *desktop)
{
	cua_error_clear(); /* no stale error on this thread */
	CHECK_ARG(desktop, "cua_desktop_start: desktop is NULL");
#if HAVE_HEADLESS_DESKTOP
	struct desktop_client_options o;

	CHECK_ARG(!started(desktop),
		  "cua_desktop_start: the desktop is already running");
	options(desktop, &o);
	return desktop_client_start(desktop->client, &o);
#else
	return UNSUPPORTED;
#endif
}

CUA_EXPORT cua_result
cua_desktop_run(cua_desktop *desktop, const char *const *argv, int *exit_status)
{
	cua_error_clear(); /* no stale error on this thread */
	CHECK_ARG(exit_status, "cua_desktop_run: exit_status is NULL");
	*exit_status = 1;
	CHECK_ARG(desktop, "cua_desktop_run: desktop is NULL");
	CHECK_ARG(argv && argv[0] && argv[0][0],
		  "cua_desktop_run: no command given");
#if HAVE_HEADLESS_DESKTOP
	struct desktop_client_options o;

	CHECK_ARG(!started(desktop),
		  "cua_desktop_run: the desktop is already running; run "
		  "commands in it with its environment "
		  "(cua_desktop_get_env())");
	CHECK_ARG(!(desktop->flags & CUA_DESKTOP_DETACHED),
		  "cua_desktop_run: a detached desktop cannot run a command "
		  "and stop with it");
	options(desktop, &o);
	return desktop_client_run(desktop->client, &o, argv, exit_status);
#else
	return UNSUPPORTED;
#endif
}

CUA_EXPORT cua_result
cua_desktop_stop(cua_desktop *desktop)
{
	cua_error_clear(); /* no stale error on this thread */
	CHECK_ARG(desktop, "cua_desktop_stop: desktop is NULL");
#if HAVE_HEADLESS_DESKTOP
	return desktop_client_stop(desktop->client, log_warning, desktop);
#else
	return UNSUPPORTED;
#endif
}

CUA_EXPORT int64_t
cua_desktop_get_pid(const cua_desktop *desktop)
{
#if HAVE_HEADLESS_DESKTOP
	return desktop ? desktop_client_pid(desktop->client) : 0;
#else
	(void)desktop;
	return 0;
#endif
}

CUA_EXPORT const char *
cua_desktop_get_state_dir(const cua_desktop *desktop)
{
#if HAVE_HEADLESS_DESKTOP
	return desktop ? desktop_client_state_dir(desktop->client) : NULL;
#else
	(void)desktop;
	return NULL;
#endif
}

CUA_EXPORT size_t
cua_desktop_get_env_count(const cua_desktop *desktop)
{
#if HAVE_HEADLESS_DESKTOP
	return desktop ? desktop_client_env_count() : 0;
#else
	(void)desktop;
	return 0;
#endif
}

CUA_EXPORT const char *
cua_desktop_get_env_name(const cua_desktop *desktop, size_t index)
{
#if HAVE_HEADLESS_DESKTOP
	return desktop ? desktop_client_env_name(index) : NULL;
#else
	(void)desktop;
	(void)index;
	return NULL;
#endif
}

CUA_EXPORT const char *
cua_desktop_get_env(const cua_desktop *desktop, const char *name)
{
#if HAVE_HEADLESS_DESKTOP
	return desktop && name ? desktop_client_env(desktop->client, name) :
				 NULL;
#else
	(void)desktop;
	(void)name;
	return NULL;
#endif
}

CUA_EXPORT cua_result
cua_desktop_env_to_shell(const cua_desktop *desktop, char **out)
{
	cua_error_clear(); /* no stale error on this thread */
	CHECK_ARG(out, "cua_desktop_env_to_shell: out is NULL");
	*out = NULL;
	CHECK_ARG(desktop, "cua_desktop_env_to_shell: desktop is NULL");
	CHECK_ARG(started(desktop),
		  "cua_desktop_env_to_shell: the desktop is not running");
#if HAVE_HEADLESS_DESKTOP
	*out = desktop_client_env_text(desktop->client);
	return *out ? CUA_OK : cua_error(CUA_ERROR_NOMEM, "out of memory");
#else
	return UNSUPPORTED;
#endif
}
