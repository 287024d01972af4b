/*
 * AT-SPI2 backend: Linux desktop helpers shared by apps.c, appid.c,
 * launch.c, desktop_entry.c and procinfo.c (and white-box tests).
 *
 * The pure functions here (no I/O, no environment) are what
 * tests/unit/test-linux.c exercises: desktop-entry parsing, Exec
 * splitting, /proc/<pid>/stat parsing and the app-id choice of
 * docs/state-text.md §11.8.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_BACKEND_ATSPI_LINUX_H
#define CUA_BACKEND_ATSPI_LINUX_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"

/* ------------------------------------------------------------------ */
/* procinfo.c                                                          */

/*
 * Parses the contents of /proc/<pid>/stat. The command name (field 2) may
 * hold spaces and parentheses, so fields are counted after the last ')'.
 * Any out pointer may be NULL. Returns 0, or -1 when the line is malformed.
 */
int
procinfo_parse_stat(const char *buf, size_t len, char *state, int64_t *ppid,
		    uint64_t *start_time);

/* Reads and parses /proc/<pid>/stat. Returns 0, -ESRCH when the process
 * does not exist, or another -errno. */
int
procinfo_read_stat(int64_t pid, char *state, int64_t *ppid,
		   uint64_t *start_time);

/*
 * Finds `name` in a NUL-separated environment block (/proc/<pid>/environ).
 * Returns a pointer to the value inside `env` (NUL-terminated only when
 * the block is), with *value_len set, or NULL.
 */
const char *
procinfo_environ_find(const char *env, size_t len, const char *name,
		      size_t *value_len);

/* `name=` of the `[Application]` group of a .flatpak-info text
 * (malloc'd), or NULL. */
char *
procinfo_parse_flatpak_info(const char *text, size_t len);

/* ------------------------------------------------------------------ */
/* desktop_entry.c                                                     */

/* One parsed desktop entry: the backend's public view plus what only the
 * backend needs. Strings live in the arena the entry was parsed into. */
struct desktop_entry {
	struct cua_installed_app app;
	const char *icon;
	int terminal; /* Terminal=true */
	int hidden;   /* Hidden=true: "deleted", masks later dirs */
	int dbus_activatable;
};

/*
 * Locale keys to try for `Name[...]`, best first, from the values of
 * LANGUAGE, LC_ALL, LC_MESSAGES and LANG (any may be NULL): the first
 * non-empty one is used (LANGUAGE is a ':'-separated list), and each
 * locale `ll_CC.ENC@MOD` yields ll_CC@MOD, ll_CC, ll@MOD, ll. "C" and
 * "POSIX" yield nothing. Returns a NULL-terminated vector (free with
 * desktop_strv_free), never NULL unless out of memory.
 */
char **
desktop_locale_keys(const char *language, const char *lc_all,
		    const char *lc_messages, const char *lang);

void
desktop_strv_free(char **v);

/*
 * Parses the `[Desktop Entry]` group of a desktop file's text. `locales`
 * is a desktop_locale_keys() vector (may be NULL). Fills *out (id and path
 * left NULL; strings in `arena`). Returns 1 for an entry of
 * Type=Application that has a Name, 0 for anything else (wrong type, no
 * group, no name), -1 when out of memory. out->hidden is valid whenever the
 * group exists, so a hidden entry can still mask later ones.
 */
int
desktop_entry_parse(const char *text, size_t len, const char *const *locales,
		    struct cua_arena *arena, struct desktop_entry *out);

/*
 * Splits an Exec value (already unescaped by desktop_entry_parse) into an
 * argument vector following the Desktop Entry Specification's quoting
 * rules, expanding field codes for a launch without files or URLs: %f %F
 * %u %U %d %D %n %N %v %m vanish (an argument made only of them is
 * dropped), %i becomes "--icon" <icon> (nothing without an icon), %c the
 * name, %k the desktop file path, %% a '%'. Returns a NULL-terminated
 * vector (free with desktop_strv_free) with at least one element, or NULL
 * on a syntax error (unterminated quote, reserved character outside
 * quotes) or an empty command.
 */
char **
desktop_exec_to_argv(const char *exec, const char *name, const char *icon,
		     const char *desktop_path);

/*
 * The program an Exec (or TryExec) value runs: its first word, skipping an
 * `env` wrapper and its VAR=value words. Malloc'd, or NULL.
 */
char *
desktop_exec_program(const char *exec);

/* Desktop-file id of a path relative to an `applications` directory:
 * `a/b.desktop` -> `a-b` (malloc'd), or NULL without the suffix. */
char *
desktop_id_from_relpath(const char *relpath);

/*
 * All installed application entries from $XDG_DATA_HOME/applications and
 * each $XDG_DATA_DIRS/applications, recursively; an id found in an
 * earlier directory wins, and Hidden=true entries are left out but still
 * mask later ones. Strings and the array live in `arena`. Returns 0 or
 * -ENOMEM.
 */
int
desktop_entries_load(struct cua_arena *arena, struct desktop_entry **out,
		     size_t *n_out);

/*
 * desktop_entries_load() kept between calls: the entries of the previous
 * call while the directories and locales searched are the same and every
 * directory and desktop file it read has the same device, inode, size and
 * modification time (one stat each, about a tenth of reading them
 * again), else read again. The entries are the cache's, valid until the
 * next call; *reused says which. One thread at a time per cache. Returns
 * 0 or -ENOMEM (nothing kept).
 */
struct desktop_cache;

struct desktop_cache *
desktop_cache_new(void);

void
desktop_cache_free(struct desktop_cache *c);

int
desktop_entries_cached(struct desktop_cache *c, struct desktop_entry **out,
		       size_t *n_out, int *reused);

/* Loads one desktop file (any path); `id` may be NULL (then derived from
 * the path). Returns 1, 0 (not an application / unreadable) or -1. */
int
desktop_entry_load_file(const char *path, const char *id,
			struct cua_arena *arena, struct desktop_entry *out);

/* Entry by id, with or without ".desktop" (case-sensitive); NULL when
 * none. */
const struct desktop_entry *
desktop_entries_find(const struct desktop_entry *entries, size_t n,
		     const char *id);
const struct cua_installed_app *
atspi_installed_find(const struct cua_installed_list *list, const char *id);

/* The part of `path` after its last '/' (all of it without one). */
const char *
atspi_base_name(const char *path);

/* ------------------------------------------------------------------ */
/* appid.c — the app-id choice of docs/state-text.md §11.8             */

struct appid_input {
	int64_t pid;
	const char *launched_desktop_file; /* GIO_LAUNCHED_DESKTOP_FILE */
	const char *gtk_app_id;            /* _GTK_APPLICATION_ID */
	const char *flatpak_id;
	const char *snap_name;
	const char *wm_class_class;
	const char *wm_class_instance;
	const char *exe;        /* /proc/<pid>/exe */
	const char *atspi_name; /* Accessible.Name of the app */
	const char *comm;       /* /proc/<pid>/comm */
};

enum appid_rule {
	APPID_RULE_NONE = 0,       /* fallback: AT-SPI name, exe, comm */
	APPID_RULE_LAUNCHED = 1,   /* GIO_LAUNCHED_DESKTOP_FILE */
	APPID_RULE_GTK_APP_ID = 2, /* _GTK_APPLICATION_ID */
	APPID_RULE_SANDBOX = 3,    /* Flatpak / Snap */
	APPID_RULE_WM_CLASS = 4,   /* WM_CLASS */
	APPID_RULE_EXEC = 5,       /* /proc exe vs TryExec / Exec */
};

struct appid_choice {
	const struct desktop_entry *entry; /* NULL when none matched */
	const char *app_id;   /* borrowed (input or entry); never NULL */
	const char *app_name; /* borrowed; never NULL */
	enum appid_rule rule;
	char id_buf[256]; /* app_id may point here (rule 1) */
};

/*
 * The entry a window's WM_CLASS names (rule 4): StartupWMClass, then the
 * desktop id, equal to `klass` then `instance` ignoring case (either may
 * be NULL or empty); NULL when none.
 */
const struct desktop_entry *
appid_match_wm_class(const struct desktop_entry *entries, size_t n,
		     const char *klass, const char *instance);

/*
 * Optional resolver for rule 5: the canonical path of an Exec program
 * (PATH search + realpath), or NULL; the result must stay valid until
 * appid_choose returns (e.g. kept in `data`).
 */
typedef const char *(*appid_resolve_fn)(void *data, const char *program);

/*
 * Chooses the canonical app id and name of one process (docs/state-text.md
 * §11.8): GIO_LAUNCHED_DESKTOP_FILE, _GTK_APPLICATION_ID (only when an
 * installed entry has that id), Flatpak id / Snap name, WM_CLASS (class,
 * then instance) against StartupWMClass then against ids, the executable
 * against TryExec/Exec programs (Terminal=true entries and interpreters
 * excluded); otherwise the AT-SPI name, the executable basename, comm, or
 * "unknown". The name is the entry's localized Name, else the AT-SPI name,
 * else the executable basename (comm, "unknown").
 */
void
appid_choose(const struct appid_input *in, const struct desktop_entry *entries,
	     size_t n, appid_resolve_fn resolve, void *resolve_data,
	     struct appid_choice *out);

#endif
