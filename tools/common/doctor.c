/*
 * The facts `cua doctor` prints and cua-mcp logs at start-up (doctor.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "doctor.h"

/* The display capabilities, in the order people read them, with their
 * names in the text. */
static const struct {
	const char *key;
	const char *label;
} display_caps[] = {
	{ "screenshot", "Screenshot" }, { "pointer", "Pointer" },
	{ "keyboard", "Keyboard" },     { "windows", "Window list" },
	{ "geometry", "Geometry" },
};

static json_t *
capability(int ok, const char *reason)
{
	json_t *c = json_object();

	json_object_set_new(c, "available", json_boolean(ok));
	if (!ok)
		json_object_set_new(c, "reason", json_string(reason));
	return c;
}

/* The session type as the environment shows it, for when no session
 * could be opened to say it (the same rule as the library's choice:
 * WAYLAND_DISPLAY first, then DISPLAY). */
static const char *
env_session(void)
{
	const char *wl = getenv("WAYLAND_DISPLAY"), *x = getenv("DISPLAY");
	const char *type = getenv("XDG_SESSION_TYPE");

	if ((wl && *wl) || (type && !strcmp(type, "wayland")))
		return "wayland";
	if ((x && *x) || (type && !strcmp(type, "x11")))
		return "x11";
	return "none";
}

/* The running apps the accessibility bus lists, or -1 with *why. */
static long
bus_apps(cua_session *s, const char **why)
{
	char *text = NULL;
	json_t *j, *app;
	size_t i;
	long n = 0;

	if (cua_session_list_apps(s, CUA_FORMAT_JSON, &text) != CUA_OK) {
		*why = cua_error_message();
		return -1;
	}
	j = json_loads(text, 0, NULL);
	cua_free(text);
	json_array_foreach(
		json_object_get(j, "apps"), i,
		app) if (json_is_true(json_object_get(app, "running")) &&
			 json_is_true(json_object_get(app, "accessible"))) n++;
	json_decref(j);
	return n;
}

json_t *
doctor_facts(cua_session *s, const char *error)
{
	json_t *facts = NULL, *a11y;
	const char *why = error;
	char *text = NULL;
	long apps = -1;

	if (s && cua_session_get_display_info(s, &text) == CUA_OK) {
		facts = json_loads(text, 0, NULL);
		cua_free(text);
	}
	if (!facts) {
		/* no session: what the environment says, and why not */
		facts = json_pack("{s:s, s:n, s:n, s:n, s:s, s:n, s:n, s:n, "
				  "s:[]}",
				  "schema", "libcua.display/1", "driver",
				  "chosen_by", "why", "session", env_session(),
				  "display", "server", "capabilities", "tried");
		if (!facts)
			return NULL;
	}
	if (s)
		apps = bus_apps(s, &why);
	if (!why || !*why)
		why = "no session could be opened";
	a11y = json_object();
	json_object_set_new(a11y, "tree", capability(apps >= 0, why));
	json_object_set_new(
		a11y, "element_actions",
		capability(apps >= 0,
			   "element actions need the accessibility tree"));
	json_object_set_new(a11y, "apps",
			    apps >= 0 ? json_integer(apps) : json_null());
	json_object_set_new(facts, "accessibility", a11y);
	return facts;
}

int
doctor_tree_works(const json_t *facts)
{
	return json_is_true(json_object_get(
		json_object_get(json_object_get(facts, "accessibility"),
				"tree"),
		"available"));
}

/* "works", or "unavailable: REASON". */
static const char *
state(const json_t *cap, const char **reason)
{
	*reason = NULL;
	if (json_is_true(json_object_get(cap, "available")))
		return "works";
	*reason = json_string_value(json_object_get(cap, "reason"));
	if (!*reason)
		*reason = "unknown";
	return "unavailable";
}

static const char *
str(const json_t *facts, const char *key, const char *otherwise)
{
	const char *v = json_string_value(json_object_get(facts, key));

	return v && *v ? v : otherwise;
}

void
doctor_print(FILE *f, const json_t *facts)
{
	const json_t *caps = json_object_get(facts, "capabilities");
	const json_t *a11y = json_object_get(facts, "accessibility");
	const json_t *t;
	const char *session = str(facts, "session", "none"), *reason, *st;
	const char *chosen = str(facts, "chosen_by", NULL);
	long apps = (long)json_integer_value(json_object_get(a11y, "apps"));
	size_t i;

	fprintf(f, "Session:          %s\n", session);
	fprintf(f, "Display:          %s\n", str(facts, "display", "unknown"));
	fprintf(f, "%-18s%s\n",
		!strcmp(session, "wayland") ? "Compositor:" : "Window manager:",
		str(facts, "server", "unknown"));
	if (json_is_string(json_object_get(facts, "driver")))
		fprintf(f, "Driver:           %s, %s: %s\n",
			str(facts, "driver", "none"),
			!chosen || !strcmp(chosen, "auto") ?
				"chosen from the environment" :
			!strcmp(chosen, "backend") ? "no window system" :
						     "forced",
			str(facts, "why", "no reason given"));
	else
		fprintf(f, "Driver:           unknown: no session could be "
			   "opened\n");
	json_array_foreach(json_object_get(facts, "tried"), i, t)
		fprintf(f, "Tried:            %s: %s\n", str(t, "driver", "?"),
			str(t, "reason", "?"));

	st = state(json_object_get(a11y, "tree"), &reason);
	if (reason)
		fprintf(f, "Tree:             %s: %s\n", st, reason);
	else
		fprintf(f,
			"Tree:             works: the accessibility bus "
			"answers (%ld running app%s on it)\n",
			apps, apps == 1 ? "" : "s");
	st = state(json_object_get(a11y, "element_actions"), &reason);
	fprintf(f, "Element actions:  %s%s%s\n", st, reason ? ": " : "",
		reason ? reason : "");
	for (i = 0; i < sizeof(display_caps) / sizeof(display_caps[0]); i++) {
		char label[32];

		snprintf(label, sizeof(label), "%s:", display_caps[i].label);
		if (!json_is_object(caps)) {
			fprintf(f, "%-18sunknown: no session\n", label);
			continue;
		}
		st = state(json_object_get(caps, display_caps[i].key), &reason);
		fprintf(f, "%-18s%s%s%s\n", label, st, reason ? ": " : "",
			reason ? reason : "");
	}
	if (json_is_object(json_object_get(facts, "user_input"))) {
		st = state(json_object_get(facts, "user_input"), &reason);
		fprintf(f, "%-18s%s%s%s\n", "User input:", st,
			reason ? ": " : "", reason ? reason : "");
	}
}

char *
doctor_line(const json_t *facts)
{
	const json_t *caps = json_object_get(facts, "capabilities");
	const json_t *a11y = json_object_get(facts, "accessibility");
	const char *reason, *st;
	size_t size = 0, i;
	char *line = NULL;
	FILE *f = open_memstream(&line, &size);

	if (!f)
		return NULL;
	fprintf(f, "desktop: session %s, display %s, %s %s, driver %s (%s)",
		str(facts, "session", "none"), str(facts, "display", "unknown"),
		!strcmp(str(facts, "session", ""), "wayland") ?
			"compositor" :
			"window manager",
		str(facts, "server", "unknown"), str(facts, "driver", "none"),
		str(facts, "why", "no reason given"));
	st = state(json_object_get(a11y, "tree"), &reason);
	fprintf(f, "; tree: %s", st);
	if (reason)
		fprintf(f, " (%s)", reason);
	st = state(json_object_get(a11y, "element_actions"), &reason);
	fprintf(f, ", element actions: %s", st);
	for (i = 0; json_is_object(caps) &&
		    i < sizeof(display_caps) / sizeof(display_caps[0]);
	     i++) {
		st = state(json_object_get(caps, display_caps[i].key), &reason);
		fprintf(f, ", %s: %s", display_caps[i].key, st);
		if (reason)
			fprintf(f, " (%s)", reason);
	}
	if (fclose(f) != 0) {
		free(line);
		return NULL;
	}
	return line;
}
