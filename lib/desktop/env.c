/*
 * Headless desktops: the environment of the desktop's clients. One list
 * of variables (desktop_var_names) in one order serves the environment
 * of every process the supervisor starts, the export lines that
 * `eval "$(cua desktop start)"` runs (also the state file DIR/env), and
 * reading those lines back.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "desktop.h"

const char *const desktop_var_names[VAR_COUNT] = {
	[VAR_DISPLAY] = "DISPLAY",
	[VAR_SESSION_BUS] = "DBUS_SESSION_BUS_ADDRESS",
	[VAR_A11Y_BUS] = "AT_SPI_BUS_ADDRESS",
	[VAR_XDG_RUNTIME_DIR] = "XDG_RUNTIME_DIR",
	[VAR_XDG_CONFIG_HOME] = "XDG_CONFIG_HOME",
	[VAR_XDG_DATA_HOME] = "XDG_DATA_HOME",
	[VAR_XDG_CACHE_HOME] = "XDG_CACHE_HOME",
	[VAR_XDG_STATE_HOME] = "XDG_STATE_HOME",
	[VAR_GSK_RENDERER] = "GSK_RENDERER",
	[VAR_DESKTOP_DIR] = "CUA_DESKTOP_DIR",
	[VAR_NO_AT_BRIDGE] = "NO_AT_BRIDGE",
	[VAR_GTK_A11Y] = "GTK_A11Y",
	[VAR_WAYLAND_DISPLAY] = "WAYLAND_DISPLAY",
	[VAR_SESSION_MANAGER] = "SESSION_MANAGER",
	[VAR_XDG_SESSION_TYPE] = "XDG_SESSION_TYPE",
	[VAR_GDK_BACKEND] = "GDK_BACKEND",
	[VAR_SWAYSOCK] = "SWAYSOCK",
};

static int
is_managed(const char *entry)
{
	size_t len;
	int i;

	for (i = 0; i < VAR_COUNT; i++) {
		len = strlen(desktop_var_names[i]);
		if (!strncmp(entry, desktop_var_names[i], len) &&
		    entry[len] == '=')
			return 1;
	}
	return 0;
}

/* The environment for children: ours, with the desktop's variables. */
char **
desktop_envp(const struct desktop *d)
{
	GPtrArray *env = g_ptr_array_new();
	char **e;
	int i;

	for (e = environ; *e; e++)
		if (!is_managed(*e))
			g_ptr_array_add(env, g_strdup(*e));
	for (i = 0; i < VAR_COUNT; i++)
		if (d->vars[i])
			g_ptr_array_add(env,
					g_strconcat(desktop_var_names[i], "=",
						    d->vars[i], NULL));
	g_ptr_array_add(env, NULL);
	return (char **)g_ptr_array_free(env, FALSE);
}

static void
append_export(GString *s, const char *name, const char *value)
{
	const char *p;

	g_string_append_printf(s, "export %s='", name);
	for (p = value; *p; p++) {
		if (*p == '\'')
			g_string_append(s, "'\\''");
		else
			g_string_append_c(s, *p);
	}
	g_string_append(s, "'\n");
}

/* The lines for `eval`: export NAME='value' ..., then one unset line. */
char *
desktop_env_text(char *const vars[VAR_COUNT])
{
	GString *s = g_string_new(NULL);
	int i, unset = 0;

	for (i = 0; i < VAR_COUNT; i++)
		if (vars[i])
			append_export(s, desktop_var_names[i], vars[i]);
	for (i = 0; i < VAR_COUNT; i++) {
		if (vars[i])
			continue;
		g_string_append(s, unset++ ? " " : "unset ");
		g_string_append(s, desktop_var_names[i]);
	}
	if (unset)
		g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

/*
 * Reads export lines back into vars (variables they do not export are
 * unset; the old values are freed). Returns 0, or -1 when a managed
 * variable's line cannot be read.
 */
int
desktop_env_parse(char *vars[VAR_COUNT], const char *text)
{
	char **lines, **l, *eq, *value;
	int i, r = 0;

	for (i = 0; i < VAR_COUNT; i++) {
		g_free(vars[i]);
		vars[i] = NULL;
	}
	lines = g_strsplit(text, "\n", -1);
	for (l = lines; *l; l++) {
		if (!g_str_has_prefix(*l, "export "))
			continue;
		eq = strchr(*l, '=');
		if (!eq)
			continue;
		*eq = '\0';
		for (i = 0; i < VAR_COUNT; i++)
			if (!strcmp(*l + 7, desktop_var_names[i]))
				break;
		if (i == VAR_COUNT)
			continue;
		value = g_shell_unquote(eq + 1, NULL);
		if (!value) {
			r = -1;
			continue;
		}
		g_free(vars[i]);
		vars[i] = value;
	}
	g_strfreev(lines);
	return r;
}
