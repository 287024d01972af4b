/*
 * The canonical id and name of a running app (docs/state-text.md §11.8):
 * appid_choose() matches a process's launch environment, window class and
 * executable against the installed desktop entries. Pure: no I/O, no
 * environment (tests/unit/test-linux.c exercises it).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "linux.h"

static int
nonempty(const char *s)
{
	return s && s[0];
}

/* Programs that run other programs: their path says nothing about the
 * app (python3 runs every Python app; Flatpak exports run `flatpak`). */
static int
is_interpreter(const char *prog)
{
	static const char *const exact[] = {
		"sh",      "bash", "dash", "zsh",      "ksh",      "env", "gjs",
		"flatpak", "snap", "mono", "xdg-open", "exo-open", "gio", NULL,
	};
	static const char *const prefix[] = {
		"python",   "perl", "ruby",  "node", "java", "wine",
		"electron", "lua",  "tclsh", "wish", NULL,
	};
	const char *b = atspi_base_name(prog);
	size_t i;

	for (i = 0; exact[i]; i++) {
		if (strcmp(b, exact[i]) == 0)
			return 1;
	}
	for (i = 0; prefix[i]; i++) {
		if (strncmp(b, prefix[i], strlen(prefix[i])) == 0)
			return 1;
	}
	return 0;
}

static int
program_matches(const char *prog, const char *exe, appid_resolve_fn resolve,
		void *resolve_data)
{
	const char *real;

	if (!prog || !prog[0] || is_interpreter(prog))
		return 0;
	if (strcmp(prog, exe) == 0 ||
	    strcmp(atspi_base_name(prog), atspi_base_name(exe)) == 0)
		return 1;
	if (resolve) {
		real = resolve(resolve_data, prog);
		if (real && strcmp(real, exe) == 0)
			return 1;
	}
	return 0;
}

/* Of several entries matching one rule: the one whose id is the
 * executable's name, else a visible one, else the first. */
static int
better_entry(const struct desktop_entry *cand, const struct desktop_entry *best,
	     const char *exe_base)
{
	int ci, bi;

	if (!best)
		return 1;
	ci = exe_base && strcasecmp(cand->app.desktop_id, exe_base) == 0;
	bi = exe_base && strcasecmp(best->app.desktop_id, exe_base) == 0;
	if (ci != bi)
		return ci;
	return !cand->app.no_display && best->app.no_display;
}

const struct desktop_entry *
appid_match_wm_class(const struct desktop_entry *entries, size_t n,
		     const char *klass, const char *instance)
{
	const char *vals[2] = { klass, instance };
	size_t v, i;

	/* StartupWMClass first, then ids; class before instance */
	for (v = 0; v < 2; v++) {
		if (!nonempty(vals[v]))
			continue;
		for (i = 0; i < n; i++) {
			if (entries[i].app.startup_wm_class &&
			    strcasecmp(entries[i].app.startup_wm_class,
				       vals[v]) == 0)
				return &entries[i];
		}
	}
	for (v = 0; v < 2; v++) {
		if (!nonempty(vals[v]))
			continue;
		for (i = 0; i < n; i++) {
			if (strcasecmp(entries[i].app.desktop_id, vals[v]) == 0)
				return &entries[i];
		}
	}
	return NULL;
}

static const struct desktop_entry *
match_exec(const struct desktop_entry *entries, size_t n, const char *exe,
	   appid_resolve_fn resolve, void *resolve_data)
{
	const struct desktop_entry *best = NULL;
	const char *exe_base;
	size_t i;

	if (!nonempty(exe) || is_interpreter(exe))
		return NULL;
	exe_base = atspi_base_name(exe);
	for (i = 0; i < n; i++) {
		const struct desktop_entry *e = &entries[i];
		char *prog;
		int m;

		/* Terminal=true programs draw in a terminal's window */
		if (e->terminal)
			continue;
		m = program_matches(e->app.try_exec, exe, resolve,
				    resolve_data);
		if (!m && e->app.exec) {
			prog = desktop_exec_program(e->app.exec);
			m = program_matches(prog, exe, resolve, resolve_data);
			free(prog);
		}
		if (m && better_entry(e, best, exe_base))
			best = e;
	}
	return best;
}

/* The id a desktop-file path stands for when no loaded entry has it. */
static const char *
id_from_path(const char *path, char *buf, size_t size)
{
	const char *b = atspi_base_name(path);
	size_t len = strlen(b);

	if (len > 8 && strcmp(b + len - 8, ".desktop") == 0)
		len -= 8;
	if (len == 0 || len >= size)
		return NULL;
	memcpy(buf, b, len);
	buf[len] = '\0';
	return buf;
}

static const char appid_unknown[] = "unknown";

void
appid_choose(const struct appid_input *in, const struct desktop_entry *entries,
	     size_t n, appid_resolve_fn resolve, void *resolve_data,
	     struct appid_choice *out)
{
	const struct desktop_entry *e = NULL;
	const char *exe_base =
		nonempty(in->exe) ? atspi_base_name(in->exe) : NULL;
	size_t i;

	memset(out, 0, sizeof(*out));

	/* 1. GIO_LAUNCHED_DESKTOP_FILE */
	if (nonempty(in->launched_desktop_file)) {
		for (i = 0; i < n && !e; i++) {
			if (entries[i].app.path &&
			    strcmp(entries[i].app.path,
				   in->launched_desktop_file) == 0)
				e = &entries[i];
		}
		if (!e) {
			const char *id =
				id_from_path(in->launched_desktop_file,
					     out->id_buf, sizeof(out->id_buf));

			e = desktop_entries_find(entries, n, id);
			if (!e && id) {
				out->rule = APPID_RULE_LAUNCHED;
				out->app_id = id;
				goto name;
			}
		}
		if (e) {
			out->rule = APPID_RULE_LAUNCHED;
			goto found;
		}
	}
	/* 2. _GTK_APPLICATION_ID, when it names an installed entry */
	if (nonempty(in->gtk_app_id)) {
		e = desktop_entries_find(entries, n, in->gtk_app_id);
		if (e) {
			out->rule = APPID_RULE_GTK_APP_ID;
			goto found;
		}
	}
	/* 3. Flatpak id (always a desktop id), Snap name */
	if (nonempty(in->flatpak_id)) {
		out->rule = APPID_RULE_SANDBOX;
		e = desktop_entries_find(entries, n, in->flatpak_id);
		if (e)
			goto found;
		out->app_id = in->flatpak_id;
		goto name;
	}
	if (nonempty(in->snap_name)) {
		size_t sl = strlen(in->snap_name);

		out->rule = APPID_RULE_SANDBOX;
		e = desktop_entries_find(entries, n, in->snap_name);
		/* snapd exports <snap>_<app>.desktop */
		for (i = 0; i < n && !e; i++) {
			const char *id = entries[i].app.desktop_id;

			if (strncmp(id, in->snap_name, sl) == 0 &&
			    id[sl] == '_')
				e = &entries[i];
		}
		if (e)
			goto found;
		out->app_id = in->snap_name;
		goto name;
	}
	/* 4. WM_CLASS */
	e = appid_match_wm_class(entries, n, in->wm_class_class,
				 in->wm_class_instance);
	if (e) {
		out->rule = APPID_RULE_WM_CLASS;
		goto found;
	}
	/* 5. the executable */
	e = match_exec(entries, n, in->exe, resolve, resolve_data);
	if (e) {
		out->rule = APPID_RULE_EXEC;
		goto found;
	}
	out->rule = APPID_RULE_NONE;
	if (nonempty(in->atspi_name))
		out->app_id = in->atspi_name;
	else if (exe_base && exe_base[0])
		out->app_id = exe_base;
	else if (nonempty(in->comm))
		out->app_id = in->comm;
	else
		out->app_id = appid_unknown;
	goto name;

found:
	out->entry = e;
	out->app_id = e->app.desktop_id;
name:
	if (out->entry && nonempty(out->entry->app.name))
		out->app_name = out->entry->app.name;
	else if (nonempty(in->atspi_name))
		out->app_name = in->atspi_name;
	else if (exe_base && exe_base[0])
		out->app_name = exe_base;
	else if (nonempty(in->comm))
		out->app_name = in->comm;
	else
		out->app_name = appid_unknown;
}
