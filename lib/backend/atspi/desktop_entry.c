/*
 * XDG desktop entries (Desktop Entry Specification 1.5): the installed
 * applications, for app ids, display names and launching.
 *
 * Only the `[Desktop Entry]` group is read. Values of string type are
 * unescaped (\s \n \t \r \\); Exec is then split by the spec's quoting
 * rules, leniently (single quotes and backslashes outside quotes are
 * accepted as a shell would, as GLib does), with field codes expanded for
 * a launch without files.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv */
#endif
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "atspi.h"
#include "linux.h"

#define DESKTOP_FILE_MAX (1024 * 1024)
#define SCAN_MAX_DEPTH 4

void
desktop_strv_free(char **v)
{
	char **p;

	if (!v)
		return;
	for (p = v; *p; p++)
		free(*p);
	free(v);
}

/* A growable NULL-terminated vector of malloc'd strings. */
struct strv {
	char **v;
	size_t n, cap;
	int oom;
};

static void
strv_push_owned(struct strv *sv, char *s)
{
	if (sv->oom || !s) {
		free(s);
		sv->oom = 1;
		return;
	}
	if (sv->n + 2 > sv->cap) {
		size_t cap = sv->cap ? sv->cap * 2 : 8;
		char **nv = realloc(sv->v, cap * sizeof(*nv));

		if (!nv) {
			free(s);
			sv->oom = 1;
			return;
		}
		sv->v = nv;
		sv->cap = cap;
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

static void
strv_push(struct strv *sv, const char *s, size_t len)
{
	strv_push_owned(sv, strndup(s, len));
}

static int
strv_has(const struct strv *sv, const char *s)
{
	size_t i;

	for (i = 0; i < sv->n; i++) {
		if (strcmp(sv->v[i], s) == 0)
			return 1;
	}
	return 0;
}

/* Returns the finished vector (never NULL unless out of memory). */
static char **
strv_finish(struct strv *sv)
{
	if (sv->oom) {
		if (sv->v) {
			sv->v[sv->n] = NULL;
			desktop_strv_free(sv->v);
		}
		return NULL;
	}
	if (!sv->v) {
		sv->v = calloc(1, sizeof(*sv->v));
		if (!sv->v)
			return NULL;
	}
	return sv->v;
}

/* ------------------------------------------------------------------ */
/* Locales                                                             */

static void
locale_variants(struct strv *sv, const char *loc, size_t len)
{
	char buf[128];
	const char *us, *dot, *at, *end = loc + len;
	size_t lang_len, terr_len = 0, mod_len = 0;
	const char *terr = NULL, *mod = NULL;

	if (len == 0 || len >= sizeof(buf))
		return;
	if ((len == 1 && loc[0] == 'C') ||
	    (len == 5 && memcmp(loc, "POSIX", 5) == 0) ||
	    (len > 2 && loc[0] == 'C' && loc[1] == '.'))
		return;
	at = memchr(loc, '@', len);
	dot = memchr(loc, '.', (size_t)((at ? at : end) - loc));
	us = memchr(loc, '_', (size_t)((dot ? dot : at ? at : end) - loc));
	lang_len = (size_t)((us ? us : dot ? dot : at ? at : end) - loc);
	if (lang_len == 0)
		return;
	if (us) {
		terr = us + 1;
		terr_len = (size_t)((dot ? dot : at ? at : end) - terr);
	}
	if (at) {
		mod = at + 1;
		mod_len = (size_t)(end - mod);
	}
	/* ll_CC@MOD, ll_CC, ll@MOD, ll */
	if (terr_len && mod_len) {
		snprintf(buf, sizeof(buf), "%.*s_%.*s@%.*s", (int)lang_len, loc,
			 (int)terr_len, terr, (int)mod_len, mod);
		if (!strv_has(sv, buf))
			strv_push(sv, buf, strlen(buf));
	}
	if (terr_len) {
		snprintf(buf, sizeof(buf), "%.*s_%.*s", (int)lang_len, loc,
			 (int)terr_len, terr);
		if (!strv_has(sv, buf))
			strv_push(sv, buf, strlen(buf));
	}
	if (mod_len) {
		snprintf(buf, sizeof(buf), "%.*s@%.*s", (int)lang_len, loc,
			 (int)mod_len, mod);
		if (!strv_has(sv, buf))
			strv_push(sv, buf, strlen(buf));
	}
	snprintf(buf, sizeof(buf), "%.*s", (int)lang_len, loc);
	if (!strv_has(sv, buf))
		strv_push(sv, buf, strlen(buf));
}

char **
desktop_locale_keys(const char *language, const char *lc_all,
		    const char *lc_messages, const char *lang)
{
	const char *vals[4] = { language, lc_all, lc_messages, lang };
	struct strv sv = { 0 };
	const char *v = NULL;
	size_t i;

	/* the first non-empty one, as GLib's g_get_language_names() */
	for (i = 0; i < 4; i++) {
		if (vals[i] && vals[i][0]) {
			v = vals[i];
			break;
		}
	}
	while (v && *v) {
		const char *colon = strchr(v, ':');
		size_t len = colon ? (size_t)(colon - v) : strlen(v);

		locale_variants(&sv, v, len);
		v = colon ? colon + 1 : NULL;
	}
	return strv_finish(&sv);
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

/* The string-type escapes: \s \n \t \r \\; other sequences are kept. */
static char *
unescape(struct cua_arena *arena, const char *s, size_t len)
{
	char *out = cua_arena_alloc(arena, len + 1);
	size_t i, o = 0;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len) {
			char c = s[i + 1];

			switch (c) {
			case 's':
				out[o++] = ' ';
				i++;
				continue;
			case 'n':
				out[o++] = '\n';
				i++;
				continue;
			case 't':
				out[o++] = '\t';
				i++;
				continue;
			case 'r':
				out[o++] = '\r';
				i++;
				continue;
			case '\\':
				out[o++] = '\\';
				i++;
				continue;
			default:
				break;
			}
		}
		out[o++] = s[i];
	}
	out[o] = '\0';
	return out;
}

static int
parse_bool(const char *v, size_t len)
{
	return (len == 4 && memcmp(v, "true", 4) == 0) ||
	       (len == 1 && v[0] == '1');
}

static int
key_is(const char *key, size_t klen, const char *name)
{
	return strlen(name) == klen && memcmp(key, name, klen) == 0;
}

/* Bits for keys already seen (the first occurrence wins). */
enum {
	SEEN_TYPE = 1 << 0,
	SEEN_NAME = 1 << 1,
	SEEN_EXEC = 1 << 2,
	SEEN_TRY_EXEC = 1 << 3,
	SEEN_WM_CLASS = 1 << 4,
	SEEN_NO_DISPLAY = 1 << 5,
	SEEN_HIDDEN = 1 << 6,
	SEEN_TERMINAL = 1 << 7,
	SEEN_ICON = 1 << 8,
	SEEN_DBUS = 1 << 9,
};

int
desktop_entry_parse(const char *text, size_t len, const char *const *locales,
		    struct cua_arena *arena, struct desktop_entry *out)
{
	const char *p = text, *end = text + len;
	int group = 0; /* 0 before any group, 1 Desktop Entry, 2 other */
	int had_group = 0, is_app = 0;
	unsigned seen = 0;
	size_t best_rank = (size_t)-1;
	const char *loc_name = NULL;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *ls = p, *le = eol ? eol : end;
		const char *eq, *ke, *vs, *br;
		size_t klen, vlen;

		p = eol ? eol + 1 : end;
		while (ls < le && (*ls == ' ' || *ls == '\t'))
			ls++;
		while (le > ls &&
		       (le[-1] == '\r' || le[-1] == ' ' || le[-1] == '\t'))
			le--;
		if (ls == le || *ls == '#')
			continue;
		if (*ls == '[') {
			const char *rb = memchr(ls, ']', (size_t)(le - ls));

			if (rb && (size_t)(rb - ls - 1) == 13 &&
			    memcmp(ls + 1, "Desktop Entry", 13) == 0 &&
			    !had_group) {
				group = 1;
				had_group = 1;
			} else {
				group = 2;
			}
			continue;
		}
		if (group != 1)
			continue;
		eq = memchr(ls, '=', (size_t)(le - ls));
		if (!eq)
			continue;
		ke = eq;
		while (ke > ls && (ke[-1] == ' ' || ke[-1] == '\t'))
			ke--;
		vs = eq + 1;
		while (vs < le && (*vs == ' ' || *vs == '\t'))
			vs++;
		vlen = (size_t)(le - vs);
		klen = (size_t)(ke - ls);
		br = memchr(ls, '[', klen);
		if (br) {
			/* Name[locale] */
			const char *lb = br + 1;
			const char *rb = memchr(lb, ']', (size_t)(ke - lb));
			size_t r;

			if (!rb || !key_is(ls, (size_t)(br - ls), "Name") ||
			    !locales)
				continue;
			for (r = 0; r < best_rank && locales[r]; r++) {
				if (strlen(locales[r]) == (size_t)(rb - lb) &&
				    memcmp(locales[r], lb, (size_t)(rb - lb)) ==
					    0) {
					loc_name = unescape(arena, vs, vlen);
					if (!loc_name)
						return -1;
					best_rank = r;
					break;
				}
			}
			continue;
		}
#define TAKE_STRING(bit, field)                                                \
	do {                                                                   \
		if (!(seen & (bit))) {                                         \
			seen |= (bit);                                         \
			(field) = unescape(arena, vs, vlen);                   \
			if (!(field))                                          \
				return -1;                                     \
		}                                                              \
	} while (0)
		if (key_is(ls, klen, "Type")) {
			if (!(seen & SEEN_TYPE)) {
				seen |= SEEN_TYPE;
				is_app = vlen == 11 &&
					 memcmp(vs, "Application", 11) == 0;
			}
		} else if (key_is(ls, klen, "Name")) {
			TAKE_STRING(SEEN_NAME, out->app.name_c);
		} else if (key_is(ls, klen, "Exec")) {
			TAKE_STRING(SEEN_EXEC, out->app.exec);
		} else if (key_is(ls, klen, "TryExec")) {
			TAKE_STRING(SEEN_TRY_EXEC, out->app.try_exec);
		} else if (key_is(ls, klen, "StartupWMClass")) {
			TAKE_STRING(SEEN_WM_CLASS, out->app.startup_wm_class);
		} else if (key_is(ls, klen, "Icon")) {
			TAKE_STRING(SEEN_ICON, out->icon);
		} else if (key_is(ls, klen, "NoDisplay")) {
			if (!(seen & SEEN_NO_DISPLAY)) {
				seen |= SEEN_NO_DISPLAY;
				out->app.no_display = parse_bool(vs, vlen);
			}
		} else if (key_is(ls, klen, "Hidden")) {
			if (!(seen & SEEN_HIDDEN)) {
				seen |= SEEN_HIDDEN;
				out->hidden = parse_bool(vs, vlen);
			}
		} else if (key_is(ls, klen, "Terminal")) {
			if (!(seen & SEEN_TERMINAL)) {
				seen |= SEEN_TERMINAL;
				out->terminal = parse_bool(vs, vlen);
			}
		} else if (key_is(ls, klen, "DBusActivatable")) {
			if (!(seen & SEEN_DBUS)) {
				seen |= SEEN_DBUS;
				out->dbus_activatable = parse_bool(vs, vlen);
			}
		}
#undef TAKE_STRING
	}
	if (!had_group || !is_app || !out->app.name_c || !out->app.name_c[0])
		return 0;
	out->app.name = loc_name && loc_name[0] ? loc_name : out->app.name_c;
	if (out->app.exec && !out->app.exec[0])
		out->app.exec = NULL;
	if (out->app.try_exec && !out->app.try_exec[0])
		out->app.try_exec = NULL;
	if (out->app.startup_wm_class && !out->app.startup_wm_class[0])
		out->app.startup_wm_class = NULL;
	if (out->hidden)
		out->app.no_display = 1;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Exec                                                                */

struct argbuf {
	char *s;
	size_t len, cap;
	int oom;
};

static void
ab_add(struct argbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *ns;

		while (cap < b->len + n + 1)
			cap *= 2;
		ns = realloc(b->s, cap);
		if (!ns) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

char **
desktop_exec_to_argv(const char *exec, const char *name, const char *icon,
		     const char *desktop_path)
{
	struct strv sv = { 0 };
	struct argbuf cur = { 0 };
	int in_tok = 0, quoted = 0;
	char quote = 0; /* '"' or '\'' while inside quotes */
	const char *p;

	if (!exec)
		return NULL;
	for (p = exec;; p++) {
		char c = *p;

		if (c == '\0' || (!quote && (c == ' ' || c == '\t' ||
					     c == '\n' || c == '\r'))) {
			/* an unquoted argument made only of file codes
			 * vanishes; a quoted one stays, maybe empty */
			if (in_tok && (cur.len > 0 || quoted))
				strv_push(&sv, cur.s ? cur.s : "", cur.len);
			cur.len = 0;
			in_tok = quoted = 0;
			if (c == '\0')
				break;
			continue;
		}
		in_tok = 1;
		if (quote == '\'') {
			if (c == '\'')
				quote = 0;
			else
				ab_add(&cur, p, 1);
			continue;
		}
		if (quote == '"' && c == '\\' && p[1] &&
		    strchr("\"`$\\", p[1])) {
			ab_add(&cur, p + 1, 1);
			p++;
			continue;
		}
		if (!quote && c == '\\' && p[1]) {
			ab_add(&cur, p + 1, 1);
			p++;
			continue;
		}
		if (c == '"' || (!quote && c == '\'')) {
			if (quote == c) {
				quote = 0;
			} else if (!quote) {
				quote = c;
				quoted = 1;
			}
			continue;
		}
		if (c == '%') {
			char code = p[1];

			if (code)
				p++;
			switch (code) {
			case '%':
				ab_add(&cur, "%", 1);
				break;
			case 'c':
				if (name)
					ab_add(&cur, name, strlen(name));
				break;
			case 'k':
				if (desktop_path)
					ab_add(&cur, desktop_path,
					       strlen(desktop_path));
				break;
			case 'i':
				/* "--icon" <icon> as two arguments */
				if (icon && icon[0]) {
					if (cur.len > 0)
						strv_push(&sv, cur.s, cur.len);
					cur.len = 0;
					strv_push(&sv, "--icon", 6);
					strv_push(&sv, icon, strlen(icon));
					quoted = 0;
				}
				break;
			case '\0':
				/* a lone '%' at the end: dropped */
				break;
			default:
				/* %f %F %u %U, deprecated %d %D %n %N %v %m
				 * and unknown codes: nothing for a launch
				 * without files */
				break;
			}
			continue;
		}
		ab_add(&cur, p, 1);
	}
	free(cur.s);
	if (cur.oom)
		sv.oom = 1;
	if (quote || sv.n == 0 || sv.oom) {
		sv.oom = 1;
		strv_finish(&sv);
		return NULL;
	}
	return strv_finish(&sv);
}

const char *
atspi_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

char *
desktop_exec_program(const char *exec)
{
	char **argv = desktop_exec_to_argv(exec, NULL, NULL, NULL);
	char *prog = NULL;
	size_t i = 0;

	if (!argv)
		return NULL;
	if (strcmp(atspi_base_name(argv[0]), "env") == 0) {
		for (i = 1; argv[i]; i++) {
			if (strcmp(argv[i], "-u") == 0 ||
			    strcmp(argv[i], "-C") == 0) {
				if (argv[i + 1])
					i++;
				continue;
			}
			if (argv[i][0] == '-' || strchr(argv[i], '='))
				continue;
			break;
		}
	}
	if (argv[i])
		prog = strdup(argv[i]);
	desktop_strv_free(argv);
	return prog;
}

char *
desktop_id_from_relpath(const char *relpath)
{
	size_t len = strlen(relpath);
	char *id, *s;

	if (len <= 8 || strcmp(relpath + len - 8, ".desktop") != 0)
		return NULL;
	id = strndup(relpath, len - 8);
	if (!id)
		return NULL;
	for (s = id; *s; s++) {
		if (*s == '/')
			*s = '-';
	}
	return id;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static char **
env_locale_keys(void)
{
	return desktop_locale_keys(
		secure_getenv("LANGUAGE"), secure_getenv("LC_ALL"),
		secure_getenv("LC_MESSAGES"), secure_getenv("LANG"));
}

/* The `applications` directories, most important first. */
static char **
application_dirs(void)
{
	struct strv sv = { 0 };
	const char *home = secure_getenv("HOME");
	const char *data_home = secure_getenv("XDG_DATA_HOME");
	const char *data_dirs = secure_getenv("XDG_DATA_DIRS");
	char buf[PATH_MAX];
	struct passwd pw, *pwp = NULL;
	char pwbuf[1024];

	if (!home || home[0] != '/') {
		if (getpwuid_r(getuid(), &pw, pwbuf, sizeof(pwbuf), &pwp) ==
			    0 &&
		    pwp && pwp->pw_dir)
			home = pwp->pw_dir;
		else
			home = NULL;
	}
	/* relative paths in these variables are invalid and ignored */
	if (data_home && data_home[0] == '/') {
		snprintf(buf, sizeof(buf), "%s/applications", data_home);
		strv_push(&sv, buf, strlen(buf));
	} else if (home) {
		snprintf(buf, sizeof(buf), "%s/.local/share/applications",
			 home);
		strv_push(&sv, buf, strlen(buf));
	}
	if (!data_dirs || !data_dirs[0])
		data_dirs = "/usr/local/share/:/usr/share/";
	while (*data_dirs) {
		const char *colon = strchr(data_dirs, ':');
		size_t len =
			colon ? (size_t)(colon - data_dirs) : strlen(data_dirs);

		while (len > 1 && data_dirs[len - 1] == '/')
			len--;
		if (len > 0 && data_dirs[0] == '/' && len < sizeof(buf) - 16) {
			snprintf(buf, sizeof(buf), "%.*s/applications",
				 (int)len, data_dirs);
			if (!strv_has(&sv, buf))
				strv_push(&sv, buf, strlen(buf));
		}
		if (!colon)
			break;
		data_dirs = colon + 1;
	}
	return strv_finish(&sv);
}

static int
read_small_file(const char *path, char **text, size_t *len, struct stat *st)
{
	gsize glen = 0;
	gchar *contents = NULL;

	*text = NULL;
	*len = 0;
	st->st_mode = 0;
	/* only regular files: a FIFO would block the read */
	if (stat(path, st) < 0) {
		st->st_mode = 0;
		return -1;
	}
	if (!S_ISREG(st->st_mode) || st->st_size > DESKTOP_FILE_MAX)
		return -1;
	if (!g_file_get_contents(path, &contents, &glen, NULL))
		return -1;
	*text = contents;
	*len = glen;
	return 0;
}

/* What a directory or file read by the loader was: a later read that
 * finds every one of them the same finds the same entries. */
struct desktop_stamp {
	char *path; /* g_malloc'd */
	int present;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

struct loader {
	struct cua_arena *arena;
	char **locales;
	GHashTable *seen; /* ids already decided */
	GArray *entries;  /* struct desktop_entry */
	GArray *stamps;   /* struct desktop_stamp, or NULL */
	int oom;
};

static void
stamp(struct loader *ld, const char *path, const struct stat *st)
{
	struct desktop_stamp sp = { 0 };

	if (!ld->stamps)
		return;
	sp.path = g_strdup(path);
	if (st) {
		sp.present = 1;
		sp.dev = st->st_dev;
		sp.ino = st->st_ino;
		sp.size = st->st_size;
		sp.mtime = st->st_mtim;
	}
	g_array_append_val(ld->stamps, sp);
}

/* The path is as it was stamped. */
static int
stamp_holds(const struct desktop_stamp *sp)
{
	struct stat st;

	if (stat(sp->path, &st) < 0)
		return !sp->present;
	return sp->present && st.st_dev == sp->dev && st.st_ino == sp->ino &&
	       st.st_size == sp->size &&
	       st.st_mtim.tv_sec == sp->mtime.tv_sec &&
	       st.st_mtim.tv_nsec == sp->mtime.tv_nsec;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
load_one(struct loader *ld, const char *path, const char *id)
{
	struct desktop_entry e;
	struct stat st;
	char *text;
	size_t len;
	int r;

	if (g_hash_table_contains(ld->seen, id))
		return;
	r = read_small_file(path, &text, &len, &st);
	stamp(ld, path, st.st_mode ? &st : NULL);
	if (r < 0)
		return;
	r = desktop_entry_parse(text, len, (const char *const *)ld->locales,
				ld->arena, &e);
	g_free(text);
	if (r < 0) {
		ld->oom = 1;
		return;
	}
	/* a readable file decides its id, even when it is not an
	 * application or is Hidden (the spec's way to delete an entry) */
	g_hash_table_add(ld->seen, g_strdup(id));
	if (r == 0 || e.hidden)
		return;
	e.app.desktop_id = cua_arena_strdup(ld->arena, id);
	e.app.path = cua_arena_strdup(ld->arena, path);
	if (!e.app.desktop_id || !e.app.path) {
		ld->oom = 1;
		return;
	}
	g_array_append_val(ld->entries, e);
}

static void
scan_dir(struct loader *ld, const char *dir, const char *rel, int depth)
{
	struct strv names = { 0 };
	struct dirent *de;
	DIR *d;
	size_t i;

	{
		struct stat st;

		stamp(ld, dir, stat(dir, &st) == 0 ? &st : NULL);
	}
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		strv_push(&names, de->d_name, strlen(de->d_name));
	}
	closedir(d);
	if (names.oom) {
		ld->oom = 1;
		strv_finish(&names);
		return;
	}
	/* readdir order is arbitrary; sorting makes ties deterministic */
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_names);
	for (i = 0; i < names.n && !ld->oom; i++) {
		char path[PATH_MAX], relpath[PATH_MAX];
		const char *nm = names.v[i];
		size_t nlen = strlen(nm);
		struct stat st;

		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, nm) >=
			    sizeof(path) ||
		    (size_t)snprintf(relpath, sizeof(relpath), "%s%s", rel,
				     nm) >= sizeof(relpath))
			continue;
		if (nlen > 8 && strcmp(nm + nlen - 8, ".desktop") == 0) {
			char *id = desktop_id_from_relpath(relpath);

			if (id)
				load_one(ld, path, id);
			free(id);
			continue;
		}
		if (depth < SCAN_MAX_DEPTH && stat(path, &st) == 0 &&
		    S_ISDIR(st.st_mode)) {
			char sub[PATH_MAX];

			if ((size_t)snprintf(sub, sizeof(sub), "%s/", relpath) <
			    sizeof(sub))
				scan_dir(ld, path, sub, depth + 1);
		}
	}
	desktop_strv_free(strv_finish(&names));
}

static int
load_entries(struct cua_arena *arena, GArray *stamps,
	     struct desktop_entry **out, size_t *n_out)
{
	struct loader ld = { 0 };
	char **dirs;
	size_t i;
	int r = 0;

	*out = NULL;
	*n_out = 0;
	ld.arena = arena;
	ld.stamps = stamps;
	ld.locales = env_locale_keys();
	dirs = application_dirs();
	if (!ld.locales || !dirs) {
		desktop_strv_free(ld.locales);
		desktop_strv_free(dirs);
		return -ENOMEM;
	}
	ld.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	ld.entries = g_array_new(FALSE, TRUE, sizeof(struct desktop_entry));
	for (i = 0; dirs[i] && !ld.oom; i++)
		scan_dir(&ld, dirs[i], "", 0);
	if (ld.oom) {
		r = -ENOMEM;
	} else if (ld.entries->len > 0) {
		size_t sz = ld.entries->len * sizeof(struct desktop_entry);

		*out = cua_arena_alloc(arena, sz);
		if (!*out) {
			r = -ENOMEM;
		} else {
			memcpy(*out, ld.entries->data, sz);
			*n_out = ld.entries->len;
		}
	}
	g_array_free(ld.entries, TRUE);
	g_hash_table_destroy(ld.seen);
	desktop_strv_free(ld.locales);
	desktop_strv_free(dirs);
	return r;
}

int
desktop_entries_load(struct cua_arena *arena, struct desktop_entry **out,
		     size_t *n_out)
{
	return load_entries(arena, NULL, out, n_out);
}

struct desktop_cache {
	struct cua_arena *arena; /* the entries' */
	struct desktop_entry *entries;
	size_t n;
	char *key;       /* the directories and locales they were read for */
	GArray *stamps;  /* struct desktop_stamp */
	unsigned reused; /* for the debug log */
};

static void
clear_stamps(GArray *stamps)
{
	for (guint i = 0; i < stamps->len; i++)
		g_free(g_array_index(stamps, struct desktop_stamp, i).path);
	g_array_set_size(stamps, 0);
}

struct desktop_cache *
desktop_cache_new(void)
{
	struct desktop_cache *c = g_new0(struct desktop_cache, 1);

	c->stamps = g_array_new(FALSE, TRUE, sizeof(struct desktop_stamp));
	return c;
}

void
desktop_cache_free(struct desktop_cache *c)
{
	if (!c)
		return;
	clear_stamps(c->stamps);
	g_array_free(c->stamps, TRUE);
	cua_arena_free(c->arena);
	g_free(c->key);
	g_free(c);
}

/* What the entries depend on besides the files: the directories searched
 * and the locale keys (both from the environment). */
static char *
cache_key(void)
{
	char **dirs = application_dirs(), **loc = env_locale_keys();
	GString *k = g_string_new(NULL);

	for (size_t i = 0; dirs && dirs[i]; i++)
		g_string_append_printf(k, "%s\n", dirs[i]);
	g_string_append_c(k, '\n');
	for (size_t i = 0; loc && loc[i]; i++)
		g_string_append_printf(k, "%s\n", loc[i]);
	desktop_strv_free(dirs);
	desktop_strv_free(loc);
	return g_string_free(k, FALSE);
}

int
desktop_entries_cached(struct desktop_cache *c, struct desktop_entry **out,
		       size_t *n_out, int *reused)
{
	char *key = cache_key();
	struct cua_arena *arena;
	guint i;
	int r;

	*reused = 0;
	if (c->arena && c->key && strcmp(key, c->key) == 0) {
		for (i = 0; i < c->stamps->len; i++)
			if (!stamp_holds(&g_array_index(
				    c->stamps, struct desktop_stamp, i)))
				break;
		if (i == c->stamps->len) {
			g_free(key);
			*out = c->entries;
			*n_out = c->n;
			*reused = 1;
			return 0;
		}
	}
	arena = cua_arena_new();
	if (!arena) {
		g_free(key);
		return -ENOMEM;
	}
	clear_stamps(c->stamps);
	r = load_entries(arena, c->stamps, &c->entries, &c->n);
	cua_arena_free(c->arena);
	g_free(c->key);
	c->arena = arena;
	c->key = key;
	if (r < 0) {
		/* nothing kept: the next call reads again */
		cua_arena_free(c->arena);
		c->arena = NULL;
		c->entries = NULL;
		c->n = 0;
		return r;
	}
	*out = c->entries;
	*n_out = c->n;
	return 0;
}

int
desktop_entry_load_file(const char *path, const char *id,
			struct cua_arena *arena, struct desktop_entry *out)
{
	char **locales;
	char *text, *derived = NULL;
	size_t len;
	struct stat st;
	int r;

	memset(out, 0, sizeof(*out));
	if (read_small_file(path, &text, &len, &st) < 0)
		return 0;
	locales = env_locale_keys();
	if (!locales) {
		g_free(text);
		return -1;
	}
	r = desktop_entry_parse(text, len, (const char *const *)locales, arena,
				out);
	g_free(text);
	desktop_strv_free(locales);
	if (r <= 0)
		return r;
	if (!id) {
		derived = desktop_id_from_relpath(atspi_base_name(path));
		if (!derived)
			return 0;
		id = derived;
	}
	out->app.desktop_id = cua_arena_strdup(arena, id);
	out->app.path = cua_arena_strdup(arena, path);
	free(derived);
	if (!out->app.desktop_id || !out->app.path)
		return -1;
	return 1;
}

static int
id_equal(const char *id, const char *want, size_t want_len)
{
	return strlen(id) == want_len && memcmp(id, want, want_len) == 0;
}

static size_t
id_len(const char *id)
{
	size_t len = strlen(id);

	if (len > 8 && strcmp(id + len - 8, ".desktop") == 0)
		len -= 8;
	return len;
}

const struct desktop_entry *
desktop_entries_find(const struct desktop_entry *entries, size_t n,
		     const char *id)
{
	size_t i, len;

	if (!id)
		return NULL;
	len = id_len(id);
	for (i = 0; i < n; i++) {
		if (id_equal(entries[i].app.desktop_id, id, len))
			return &entries[i];
	}
	return NULL;
}

const struct cua_installed_app *
atspi_installed_find(const struct cua_installed_list *list, const char *id)
{
	size_t i, len;

	if (!list || !id)
		return NULL;
	len = id_len(id);
	for (i = 0; i < list->n; i++) {
		if (id_equal(list->apps[i].desktop_id, id, len))
			return &list->apps[i];
	}
	return NULL;
}

cua_result
atspi_list_installed(struct cua_backend *b, struct cua_installed_list **out)
{
	struct cua_installed_list *list;
	struct desktop_entry *entries;
	size_t n, i;
	int64_t t0 = cua_now_us();

	*out = NULL;
	list = calloc(1, sizeof(*list));
	if (!list)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	list->arena = cua_arena_new();
	if (!list->arena ||
	    desktop_entries_load(list->arena, &entries, &n) < 0) {
		cua_installed_list_free(list);
		return cua_error(CUA_ERROR_NOMEM,
				 "out of memory reading desktop entries");
	}
	if (n > 0) {
		list->apps =
			cua_arena_alloc(list->arena, n * sizeof(*list->apps));
		if (!list->apps) {
			cua_installed_list_free(list);
			return cua_error(CUA_ERROR_NOMEM, "out of memory");
		}
		for (i = 0; i < n; i++)
			list->apps[i] = entries[i].app;
	}
	list->n = n;
	cua_debug(b->ctx, "desktop entries: %zu applications in %lld us", n,
		  (long long)(cua_now_us() - t0));
	*out = list;
	return CUA_OK;
}
