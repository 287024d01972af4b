/*
 * White-box tests of the AT-SPI backend's pure Linux helpers: /proc
 * parsing, desktop entries, Exec splitting and the app-id choice
 * (docs/state-text.md §11.8).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/atspi/linux.h"
#include "core/arena.h"

/* ------------------------------------------------------------------ */
/* /proc                                                               */

static void
test_stat_plain(void **state)
{
	static const char line[] =
		"1234 (gtk3-widget-fac) S 1 1234 1234 0 -1 4194560 2000 0 "
		"0 0 10 5 0 0 20 0 4 0 987654 300000000 5000 "
		"18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 2 0 0 "
		"0 0 0\n";
	uint64_t start = 0;
	int64_t ppid = 0;
	char st = 0;

	(void)state;
	assert_int_equal(
		procinfo_parse_stat(line, strlen(line), &st, &ppid, &start), 0);
	assert_int_equal(st, 'S');
	assert_int_equal(ppid, 1);
	assert_int_equal(start, 987654);
}

static void
test_stat_odd_comm(void **state)
{
	/* comm may hold spaces and parentheses: only the last ')' counts */
	static const char line[] = "42 (a) (b c)) Z 7 42 42 0 -1 0 0 0 0 0 0 "
				   "0 0 0 20 0 1 0 5555 0 0";
	uint64_t start = 0;
	int64_t ppid = 0;
	char st = 0;

	(void)state;
	assert_int_equal(
		procinfo_parse_stat(line, strlen(line), &st, &ppid, &start), 0);
	assert_int_equal(st, 'Z');
	assert_int_equal(ppid, 7);
	assert_int_equal(start, 5555);
}

static void
test_stat_malformed(void **state)
{
	static const char no_paren[] = "42 comm S 1 2 3";
	static const char short_line[] = "42 (x) S 1 2 3 4 5";
	uint64_t start = 0;

	(void)state;
	assert_int_equal(procinfo_parse_stat(no_paren, strlen(no_paren), NULL,
					     NULL, &start),
			 -1);
	assert_int_equal(procinfo_parse_stat(short_line, strlen(short_line),
					     NULL, NULL, &start),
			 -1);
	assert_int_equal(procinfo_parse_stat("", 0, NULL, NULL, &start), -1);
}

static void
test_environ_find(void **state)
{
	static const char env[] = "PATH=/bin\0GIO_LAUNCHED_DESKTOP_FILE_PID=9"
				  "\0GIO_LAUNCHED_DESKTOP_FILE=/a/b.desktop\0"
				  "EMPTY=\0LAST=x";
	size_t len = sizeof(env) - 1, vlen = 0;
	const char *v;

	(void)state;
	v = procinfo_environ_find(env, len, "GIO_LAUNCHED_DESKTOP_FILE", &vlen);
	assert_non_null(v);
	assert_int_equal(vlen, strlen("/a/b.desktop"));
	assert_memory_equal(v, "/a/b.desktop", vlen);
	v = procinfo_environ_find(env, len, "GIO_LAUNCHED_DESKTOP_FILE_PID",
				  &vlen);
	assert_non_null(v);
	assert_memory_equal(v, "9", 1);
	assert_int_equal(vlen, 1);
	/* the block need not end with a NUL */
	v = procinfo_environ_find(env, len, "LAST", &vlen);
	assert_non_null(v);
	assert_int_equal(vlen, 1);
	v = procinfo_environ_find(env, len, "EMPTY", &vlen);
	assert_non_null(v);
	assert_int_equal(vlen, 0);
	assert_null(procinfo_environ_find(env, len, "PAT", &vlen));
	assert_null(procinfo_environ_find(env, len, "SNAP_NAME", &vlen));
}

static void
test_flatpak_info(void **state)
{
	static const char info[] = "[Instance]\nname=org.wrong.One\n\n"
				   "[Application]\nruntime=runtime/x\n"
				   "name = org.gnome.TextEditor\n";
	char *id;

	(void)state;
	id = procinfo_parse_flatpak_info(info, strlen(info));
	assert_non_null(id);
	assert_string_equal(id, "org.gnome.TextEditor");
	free(id);
	assert_null(procinfo_parse_flatpak_info("[Application]\n", 14));
}

/* ------------------------------------------------------------------ */
/* Locales and desktop entries                                         */

static void
test_locale_keys(void **state)
{
	char **k;

	(void)state;
	k = desktop_locale_keys(NULL, NULL, NULL, "de_DE.UTF-8@euro");
	assert_non_null(k);
	assert_string_equal(k[0], "de_DE@euro");
	assert_string_equal(k[1], "de_DE");
	assert_string_equal(k[2], "de@euro");
	assert_string_equal(k[3], "de");
	assert_null(k[4]);
	desktop_strv_free(k);

	/* LANGUAGE wins, as a list; LC_ALL over LANG */
	k = desktop_locale_keys("fr_CA:de", "sv_SE.UTF-8", NULL, "en_US");
	assert_string_equal(k[0], "fr_CA");
	assert_string_equal(k[1], "fr");
	assert_string_equal(k[2], "de");
	assert_null(k[3]);
	desktop_strv_free(k);

	k = desktop_locale_keys("", "", "pt_BR.UTF-8", "en_US.UTF-8");
	assert_string_equal(k[0], "pt_BR");
	assert_string_equal(k[1], "pt");
	assert_null(k[2]);
	desktop_strv_free(k);

	k = desktop_locale_keys(NULL, "C.UTF-8", NULL, NULL);
	assert_non_null(k);
	assert_null(k[0]);
	desktop_strv_free(k);
	k = desktop_locale_keys(NULL, NULL, NULL, NULL);
	assert_non_null(k);
	assert_null(k[0]);
	desktop_strv_free(k);
}

/* ------------------------------------------------------------------ */
/* The desktop entries kept between app lists                          */

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The name of entry `id`, or NULL. */
static const char *
name_of(struct desktop_entry *e, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(e[i].app.desktop_id, id) == 0)
			return e[i].app.name;
	return NULL;
}

static void
cached(struct desktop_cache *c, struct desktop_entry **e, size_t *n,
       int want_reused)
{
	int reused = -1;

	assert_int_equal(desktop_entries_cached(c, e, n, &reused), 0);
	assert_int_equal(reused, want_reused);
}

/* Read again exactly when a directory or file read, the directories
 * searched or the locale changed; the same entries otherwise. */
static void
test_entries_cached(void **state)
{
	char dir[] = "/tmp/cua-entries-XXXXXX", home[64], apps[96], sub[128],
	     a[128], b[160], none[64];
	struct timespec later[2] = { { 0, UTIME_OMIT }, { 0, 0 } };
	struct desktop_cache *c;
	struct desktop_entry *e, *e1;
	size_t n;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(apps, sizeof(apps), "%s/applications", home);
	snprintf(sub, sizeof(sub), "%s/sub", apps);
	snprintf(a, sizeof(a), "%s/a.desktop", apps);
	snprintf(b, sizeof(b), "%s/b.desktop", sub);
	snprintf(none, sizeof(none), "%s/none", dir);
	assert_int_equal(mkdir(home, 0700), 0);
	assert_int_equal(mkdir(apps, 0700), 0);
	setenv("XDG_DATA_HOME", home, 1);
	setenv("XDG_DATA_DIRS", none, 1);
	unsetenv("LANGUAGE");
	unsetenv("LC_ALL");
	unsetenv("LC_MESSAGES");
	setenv("LANG", "C", 1);
	put(a, "[Desktop Entry]\nType=Application\nName=Alpha\n"
	       "Name[de]=Alfa\nExec=alpha\n");

	c = desktop_cache_new();
	cached(c, &e, &n, 0);
	assert_int_equal(n, 1);
	assert_string_equal(name_of(e, n, "a"), "Alpha");
	cached(c, &e1, &n, 1);
	assert_ptr_equal(e1, e);

	/* changed in place, to the same size: its time tells */
	put(a, "[Desktop Entry]\nType=Application\nName=Alphb\n"
	       "Name[de]=Alfa\nExec=alpha\n");
	assert_int_equal(stat(a, &st), 0);
	later[1].tv_sec = st.st_mtim.tv_sec + 5;
	assert_int_equal(utimensat(AT_FDCWD, a, later, 0), 0);
	cached(c, &e, &n, 0);
	assert_string_equal(name_of(e, n, "a"), "Alphb");

	/* a new entry in a new directory */
	assert_int_equal(mkdir(sub, 0700), 0);
	put(b, "[Desktop Entry]\nType=Application\nName=Beta\nExec=beta\n");
	cached(c, &e, &n, 0);
	assert_int_equal(n, 2);
	assert_string_equal(name_of(e, n, "sub-b"), "Beta");
	cached(c, &e, &n, 1);

	/* another locale */
	setenv("LANG", "de_DE.UTF-8", 1);
	cached(c, &e, &n, 0);
	assert_string_equal(name_of(e, n, "a"), "Alfa");
	cached(c, &e, &n, 1);

	/* removed */
	assert_int_equal(unlink(b), 0);
	cached(c, &e, &n, 0);
	assert_int_equal(n, 1);

	/* another directory searched */
	setenv("XDG_DATA_HOME", none, 1);
	cached(c, &e, &n, 0);
	assert_int_equal(n, 0);

	desktop_cache_free(c);
	setenv("LANG", "C", 1);
	unsetenv("XDG_DATA_HOME");
	unsetenv("XDG_DATA_DIRS");
	assert_int_equal(unlink(a), 0);
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(rmdir(apps), 0);
	assert_int_equal(rmdir(home), 0);
	assert_int_equal(rmdir(dir), 0);
}

static const char widget_entry[] = "# a comment\n"
				   "[Desktop Entry]\n"
				   "Type=Application\n"
				   "Name=Text Editor\n"
				   "Name[de]=Texteditor\n"
				   "Name[de_DE]=Texteditor (Deutschland)\n"
				   "Name[fr]=Éditeur de texte\n"
				   "Exec=sh -c \"echo %f\" %U\n"
				   "TryExec = gnome-text-editor\n"
				   "StartupWMClass=Gnome-text-editor\n"
				   "Icon=org.gnome.TextEditor\n"
				   "Name=Ignored Duplicate\n"
				   "\n"
				   "[Desktop Action new-window]\n"
				   "Name=New Window\n"
				   "Exec=gnome-text-editor --new-window\n";

static void
test_entry_localized(void **state)
{
	struct cua_arena *arena = cua_arena_new();
	struct desktop_entry e;
	char **k;

	(void)state;
	k = desktop_locale_keys(NULL, NULL, NULL, "de_DE.UTF-8");
	assert_int_equal(desktop_entry_parse(widget_entry, strlen(widget_entry),
					     (const char *const *)k, arena, &e),
			 1);
	desktop_strv_free(k);
	assert_string_equal(e.app.name, "Texteditor (Deutschland)");
	assert_string_equal(e.app.name_c, "Text Editor");
	assert_string_equal(e.app.exec, "sh -c \"echo %f\" %U");
	assert_string_equal(e.app.try_exec, "gnome-text-editor");
	assert_string_equal(e.app.startup_wm_class, "Gnome-text-editor");
	assert_string_equal(e.icon, "org.gnome.TextEditor");
	assert_int_equal(e.app.no_display, 0);
	assert_int_equal(e.hidden, 0);
	assert_null(e.app.desktop_id);

	/* de_AT falls back to de */
	k = desktop_locale_keys(NULL, NULL, NULL, "de_AT.UTF-8");
	assert_int_equal(desktop_entry_parse(widget_entry, strlen(widget_entry),
					     (const char *const *)k, arena, &e),
			 1);
	desktop_strv_free(k);
	assert_string_equal(e.app.name, "Texteditor");

	/* no matching translation, and no locales at all */
	k = desktop_locale_keys(NULL, NULL, NULL, "ja_JP.UTF-8");
	assert_int_equal(desktop_entry_parse(widget_entry, strlen(widget_entry),
					     (const char *const *)k, arena, &e),
			 1);
	desktop_strv_free(k);
	assert_string_equal(e.app.name, "Text Editor");
	assert_int_equal(desktop_entry_parse(widget_entry, strlen(widget_entry),
					     NULL, arena, &e),
			 1);
	assert_string_equal(e.app.name, "Text Editor");
	cua_arena_free(arena);
}

static void
test_entry_kinds(void **state)
{
	static const char link[] = "[Desktop Entry]\nType=Link\nName=Web\n"
				   "URL=https://example.org\n";
	static const char no_group[] = "[Other]\nType=Application\nName=X\n";
	static const char no_name[] = "[Desktop Entry]\nType=Application\n"
				      "Exec=x\n";
	static const char hidden[] = "[Desktop Entry]\r\nType=Application\r\n"
				     "Name=Gone\r\nHidden=true\r\n";
	static const char nodisplay[] =
		"[Desktop Entry]\nType=Application\nName=Tool\\sBox\\\\\n"
		"NoDisplay=true\nTerminal=true\nExec=tool\n";
	struct cua_arena *arena = cua_arena_new();
	struct desktop_entry e;

	(void)state;
	assert_int_equal(
		desktop_entry_parse(link, strlen(link), NULL, arena, &e), 0);
	assert_int_equal(desktop_entry_parse(no_group, strlen(no_group), NULL,
					     arena, &e),
			 0);
	assert_int_equal(
		desktop_entry_parse(no_name, strlen(no_name), NULL, arena, &e),
		0);
	assert_int_equal(
		desktop_entry_parse(hidden, strlen(hidden), NULL, arena, &e),
		1);
	assert_int_equal(e.hidden, 1);
	assert_int_equal(e.app.no_display, 1);
	assert_string_equal(e.app.name, "Gone");
	assert_int_equal(desktop_entry_parse(nodisplay, strlen(nodisplay), NULL,
					     arena, &e),
			 1);
	assert_string_equal(e.app.name, "Tool Box\\");
	assert_int_equal(e.app.no_display, 1);
	assert_int_equal(e.hidden, 0);
	assert_int_equal(e.terminal, 1);
	cua_arena_free(arena);
}

/* ------------------------------------------------------------------ */
/* Exec                                                                */

static void
assert_argv(char **argv, const char *const *want)
{
	size_t i;

	assert_non_null(argv);
	for (i = 0; want[i]; i++) {
		assert_non_null(argv[i]);
		assert_string_equal(argv[i], want[i]);
	}
	assert_null(argv[i]);
	desktop_strv_free(argv);
}

static void
test_exec_field_codes(void **state)
{
	(void)state;
	/* a file code inside a quoted argument expands to nothing; a bare
	 * %U vanishes with its argument */
	assert_argv(
		desktop_exec_to_argv("sh -c \"echo %f\" %U", NULL, NULL, NULL),
		(const char *const[]){ "sh", "-c", "echo ", NULL });
	assert_argv(desktop_exec_to_argv("featherpad %U", NULL, NULL, NULL),
		    (const char *const[]){ "featherpad", NULL });
	assert_argv(desktop_exec_to_argv("libreoffice --writer %U", NULL, NULL,
					 NULL),
		    (const char *const[]){ "libreoffice", "--writer", NULL });
	assert_argv(desktop_exec_to_argv("app %F %u %d %D %n %N %v %m --x",
					 NULL, NULL, NULL),
		    (const char *const[]){ "app", "--x", NULL });
	assert_argv(
		desktop_exec_to_argv("app --file=%f 100%%", NULL, NULL, NULL),
		(const char *const[]){ "app", "--file=", "100%", NULL });
	assert_argv(desktop_exec_to_argv("app %c %k", "My App", "org.x.App",
					 "/usr/share/a.desktop"),
		    (const char *const[]){ "app", "My App",
					   "/usr/share/a.desktop", NULL });
	assert_argv(
		desktop_exec_to_argv("app %i %U", NULL, "org.x.App", NULL),
		(const char *const[]){ "app", "--icon", "org.x.App", NULL });
	assert_argv(desktop_exec_to_argv("app %i", NULL, NULL, NULL),
		    (const char *const[]){ "app", NULL });
	/* a quoted argument stays even when it ends up empty */
	assert_argv(desktop_exec_to_argv("app \"\" \"%f\"", NULL, NULL, NULL),
		    (const char *const[]){ "app", "", "", NULL });
}

static void
test_exec_quoting(void **state)
{
	(void)state;
	/* inside double quotes \" \` \$ \\ are escapes */
	assert_argv(desktop_exec_to_argv(
			    "\"/opt/My App/bin/app\" --title \"say \\\"hi\\\" "
			    "for \\$5 \\\\ \\`x\\`\"",
			    NULL, NULL, NULL),
		    (const char *const[]){ "/opt/My App/bin/app", "--title",
					   "say \"hi\" for $5 \\ `x`", NULL });
	/* lenient like GLib: single quotes, backslashes, tabs */
	assert_argv(
		desktop_exec_to_argv("env  A='x y'\tb\\ c", NULL, NULL, NULL),
		(const char *const[]){ "env", "A=x y", "b c", NULL });
	assert_null(
		desktop_exec_to_argv("app \"unterminated", NULL, NULL, NULL));
	assert_null(desktop_exec_to_argv("", NULL, NULL, NULL));
	assert_null(desktop_exec_to_argv("   %U ", NULL, NULL, NULL));
	assert_null(desktop_exec_to_argv(NULL, NULL, NULL, NULL));
}

static void
test_exec_program(void **state)
{
	char *p;

	(void)state;
	p = desktop_exec_program("env FOO=1 -u BAR BAZ=2 mousepad %F");
	assert_string_equal(p, "mousepad");
	free(p);
	p = desktop_exec_program("/usr/bin/foo --x %U");
	assert_string_equal(p, "/usr/bin/foo");
	free(p);
	p = desktop_exec_program("\"/opt/A B/app\"");
	assert_string_equal(p, "/opt/A B/app");
	free(p);
	assert_null(desktop_exec_program("env A=1"));
}

static void
test_desktop_ids(void **state)
{
	char *id;

	(void)state;
	id = desktop_id_from_relpath("kde4/okular.desktop");
	assert_string_equal(id, "kde4-okular");
	free(id);
	id = desktop_id_from_relpath("org.gtk.WidgetFactory4.desktop");
	assert_string_equal(id, "org.gtk.WidgetFactory4");
	free(id);
	assert_null(desktop_id_from_relpath("readme.txt"));
	assert_null(desktop_id_from_relpath(".desktop"));
}

/* ------------------------------------------------------------------ */
/* App id choice                                                       */

static struct desktop_entry *
make_entries(size_t *n)
{
	static struct desktop_entry e[9];

	memset(e, 0, sizeof(e));
	e[0].app.desktop_id = "libreoffice-writer";
	e[0].app.path = "/usr/share/applications/libreoffice-writer.desktop";
	e[0].app.name = "LibreOffice Writer";
	e[0].app.name_c = "LibreOffice Writer";
	e[0].app.exec = "libreoffice --writer %U";
	e[0].app.startup_wm_class = "libreoffice-writer";
	e[1].app.desktop_id = "libreoffice-startcenter";
	e[1].app.path = "/usr/share/applications/"
			"libreoffice-startcenter.desktop";
	e[1].app.name = "LibreOffice";
	e[1].app.name_c = "LibreOffice";
	e[1].app.exec = "libreoffice %U";
	e[1].app.startup_wm_class = "libreoffice-startcenter";
	e[2].app.desktop_id = "gtk3-widget-factory";
	e[2].app.path = "/usr/share/applications/gtk3-widget-factory.desktop";
	e[2].app.name = "Widget Factory";
	e[2].app.name_c = "Widget Factory";
	e[2].app.exec = "gtk3-widget-factory";
	e[2].app.no_display = 1;
	e[3].app.desktop_id = "org.gtk.WidgetFactory4";
	e[3].app.path = "/usr/share/applications/"
			"org.gtk.WidgetFactory4.desktop";
	e[3].app.name = "Fabrique";
	e[3].app.name_c = "Widget Factory";
	e[3].app.exec = "gtk4-widget-factory";
	e[4].app.desktop_id = "featherpad";
	e[4].app.path = "/usr/share/applications/featherpad.desktop";
	e[4].app.name = "FeatherPad";
	e[4].app.name_c = "FeatherPad";
	e[4].app.exec = "featherpad %U";
	e[5].app.desktop_id = "python3.11";
	e[5].app.path = "/usr/share/applications/python3.11.desktop";
	e[5].app.name = "Python (v3.11)";
	e[5].app.name_c = "Python (v3.11)";
	e[5].app.exec = "/usr/bin/python3.11";
	e[5].terminal = 1;
	e[6].app.desktop_id = "org.xfce.mousepad";
	e[6].app.path = "/usr/share/applications/org.xfce.mousepad.desktop";
	e[6].app.name = "Mousepad";
	e[6].app.name_c = "Mousepad";
	e[6].app.exec = "env GDK_BACKEND=x11 mousepad %F";
	e[7].app.desktop_id = "firefox_firefox";
	e[7].app.path = "/var/lib/snapd/desktop/applications/"
			"firefox_firefox.desktop";
	e[7].app.name = "Firefox";
	e[7].app.name_c = "Firefox";
	e[7].app.exec = "/snap/bin/firefox %u";
	e[8].app.desktop_id = "foo";
	e[8].app.path = "/usr/share/applications/foo.desktop";
	e[8].app.name = "Foo";
	e[8].app.name_c = "Foo";
	e[8].app.exec = "foo";
	*n = 9;
	return e;
}

static void
test_appid_libreoffice(void **state)
{
	struct appid_input in = { 0 };
	struct appid_choice ch;
	struct desktop_entry *e;
	size_t n;

	(void)state;
	e = make_entries(&n);
	/* what LibreOffice's gtk3 plugin shows: _GTK_APPLICATION_ID
	 * org.libreoffice (no such entry), WM_CLASS libreoffice /
	 * libreoffice-writer */
	in.gtk_app_id = "org.libreoffice";
	in.wm_class_instance = "libreoffice";
	in.wm_class_class = "libreoffice-writer";
	in.exe = "/usr/lib/libreoffice/program/soffice.bin";
	in.atspi_name = "soffice";
	in.comm = "soffice.bin";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_WM_CLASS);
	assert_string_equal(ch.app_id, "libreoffice-writer");
	assert_string_equal(ch.app_name, "LibreOffice Writer");
	assert_ptr_equal(ch.entry, &e[0]);

	/* the X11 plugin's WM_CLASS: the instance matches StartupWMClass */
	in.gtk_app_id = NULL;
	in.wm_class_instance = "libreoffice-writer";
	in.wm_class_class = "Soffice";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_WM_CLASS);
	assert_string_equal(ch.app_id, "libreoffice-writer");
}

static void
test_appid_gtk(void **state)
{
	struct appid_input in = { 0 };
	struct appid_choice ch;
	struct desktop_entry *e;
	size_t n;

	(void)state;
	e = make_entries(&n);
	in.gtk_app_id = "org.gtk.WidgetFactory4";
	in.wm_class_instance = "gtk4-widget-factory";
	in.wm_class_class = "gtk4-widget-factory";
	in.exe = "/usr/bin/gtk4-widget-factory";
	in.atspi_name = "gtk4-widget-factory";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_GTK_APP_ID);
	assert_string_equal(ch.app_id, "org.gtk.WidgetFactory4");
	assert_string_equal(ch.app_name, "Fabrique"); /* localized */

	/* gtk3-widget-factory's GApplication id has no entry: WM_CLASS
	 * class against the desktop ids, case-insensitively */
	memset(&in, 0, sizeof(in));
	in.gtk_app_id = "org.gtk.WidgetFactory";
	in.wm_class_instance = "gtk3-widget-factory";
	in.wm_class_class = "Gtk3-widget-factory";
	in.exe = "/usr/bin/gtk3-widget-factory";
	in.atspi_name = "gtk3-widget-factory";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_WM_CLASS);
	assert_string_equal(ch.app_id, "gtk3-widget-factory");
	assert_string_equal(ch.app_name, "Widget Factory");

	/* Qt: WM_CLASS class FeatherPad */
	memset(&in, 0, sizeof(in));
	in.wm_class_instance = "featherpad";
	in.wm_class_class = "FeatherPad";
	in.exe = "/usr/bin/featherpad";
	in.atspi_name = "FeatherPad";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_WM_CLASS);
	assert_string_equal(ch.app_id, "featherpad");
}

static void
test_appid_launched(void **state)
{
	struct appid_input in = { 0 };
	struct appid_choice ch;
	struct desktop_entry *e;
	size_t n;

	(void)state;
	e = make_entries(&n);
	/* rule 1 beats everything else */
	in.launched_desktop_file =
		"/usr/share/applications/libreoffice-writer.desktop";
	in.gtk_app_id = "org.gtk.WidgetFactory4";
	in.wm_class_class = "FeatherPad";
	in.atspi_name = "soffice";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_LAUNCHED);
	assert_string_equal(ch.app_id, "libreoffice-writer");

	/* same id, another directory: found by id */
	in.launched_desktop_file =
		"/home/u/.local/share/applications/featherpad.desktop";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_LAUNCHED);
	assert_ptr_equal(ch.entry, &e[4]);

	/* a file no loaded entry knows: its basename, the AT-SPI name */
	in.launched_desktop_file = "/opt/thing/share/org.thing.Thing.desktop";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_LAUNCHED);
	assert_null(ch.entry);
	assert_string_equal(ch.app_id, "org.thing.Thing");
	assert_string_equal(ch.app_name, "soffice");
}

static void
test_appid_sandbox(void **state)
{
	struct appid_input in = { 0 };
	struct appid_choice ch;
	struct desktop_entry *e;
	size_t n;

	(void)state;
	e = make_entries(&n);
	in.flatpak_id = "org.gnome.TextEditor";
	in.wm_class_class = "FeatherPad";
	in.atspi_name = "gnome-text-editor";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_SANDBOX);
	assert_null(ch.entry);
	assert_string_equal(ch.app_id, "org.gnome.TextEditor");
	assert_string_equal(ch.app_name, "gnome-text-editor");

	memset(&in, 0, sizeof(in));
	in.snap_name = "firefox";
	in.exe = "/snap/firefox/1/usr/lib/firefox/firefox";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_SANDBOX);
	assert_string_equal(ch.app_id, "firefox_firefox");
	assert_string_equal(ch.app_name, "Firefox");
}

static const char *
fake_resolve(void *data, const char *program)
{
	(void)data;
	if (strcmp(program, "foo") == 0)
		return "/usr/lib/foo/foo-bin";
	return NULL;
}

static void
test_appid_exec(void **state)
{
	struct appid_input in = { 0 };
	struct appid_choice ch;
	struct desktop_entry *e;
	size_t n;

	(void)state;
	e = make_entries(&n);
	/* Exec behind an env wrapper, matched by program name */
	in.exe = "/usr/bin/mousepad";
	in.atspi_name = "mousepad";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_EXEC);
	assert_string_equal(ch.app_id, "org.xfce.mousepad");
	assert_string_equal(ch.app_name, "Mousepad");

	/* through the resolver (symlinks, PATH) */
	in.exe = "/usr/lib/foo/foo-bin";
	in.atspi_name = NULL;
	appid_choose(&in, e, n, fake_resolve, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_EXEC);
	assert_string_equal(ch.app_id, "foo");
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_NONE);
	assert_string_equal(ch.app_id, "foo-bin");
	assert_string_equal(ch.app_name, "foo-bin");

	/* an interpreter is nobody's app (python3.11.desktop is also a
	 * Terminal entry) */
	in.exe = "/usr/bin/python3.11";
	in.atspi_name = "my-tool";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_int_equal(ch.rule, APPID_RULE_NONE);
	assert_string_equal(ch.app_id, "my-tool");
	assert_string_equal(ch.app_name, "my-tool");
}

static void
test_appid_fallbacks(void **state)
{
	struct appid_input in = { 0 };
	struct appid_choice ch;
	struct desktop_entry *e;
	size_t n;

	(void)state;
	e = make_entries(&n);
	in.comm = "xeyes";
	appid_choose(&in, e, n, NULL, NULL, &ch);
	assert_string_equal(ch.app_id, "xeyes");
	assert_string_equal(ch.app_name, "xeyes");
	in.comm = NULL;
	appid_choose(&in, NULL, 0, NULL, NULL, &ch);
	assert_string_equal(ch.app_id, "unknown");
	assert_string_equal(ch.app_name, "unknown");
	assert_null(ch.entry);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_plain),
		cmocka_unit_test(test_stat_odd_comm),
		cmocka_unit_test(test_stat_malformed),
		cmocka_unit_test(test_environ_find),
		cmocka_unit_test(test_flatpak_info),
		cmocka_unit_test(test_locale_keys),
		cmocka_unit_test(test_entry_localized),
		cmocka_unit_test(test_entries_cached),
		cmocka_unit_test(test_entry_kinds),
		cmocka_unit_test(test_exec_field_codes),
		cmocka_unit_test(test_exec_quoting),
		cmocka_unit_test(test_exec_program),
		cmocka_unit_test(test_desktop_ids),
		cmocka_unit_test(test_appid_libreoffice),
		cmocka_unit_test(test_appid_gtk),
		cmocka_unit_test(test_appid_launched),
		cmocka_unit_test(test_appid_sandbox),
		cmocka_unit_test(test_appid_exec),
		cmocka_unit_test(test_appid_fallbacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
