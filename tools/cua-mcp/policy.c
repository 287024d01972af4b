/*
 * cua-mcp: app policy and per-app approval (docs/safety.md §2, §3).
 *
 * Decided on the canonical target that libcua resolved, never on the
 * model's string: forbidden (the data file, configuration additions, this
 * server and every ancestor process: the agent host and its terminal) →
 * E-NOT-ALLOWED; denied by configuration → E-BLOCKED; otherwise the user's
 * approval, for this session or always, asked through MCP elicitation.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "approvals.h"
#include "mcp.h"

/* docs/safety.md §3.2: offered the session scope only. */
static const char *const high_risk[] = { "firefox",
					 "org.mozilla.firefox",
					 "firefox-esr",
					 "chromium",
					 "google-chrome",
					 "brave-browser",
					 "microsoft-edge",
					 "org.gnome.Epiphany",
					 "thunderbird",
					 "org.gnome.Evolution",
					 "org.gnome.Geary",
					 "slack",
					 "discord",
					 "signal-desktop",
					 "org.telegram.desktop",
					 "element-desktop",
					 "org.gnome.Nautilus",
					 "org.kde.dolphin",
					 "thunar",
					 "nemo",
					 "pcmanfm",
					 "org.gnome.Settings",
					 "gnome-control-center",
					 "systemsettings",
					 "org.gnome.Software",
					 "org.kde.discover",
					 "synaptic",
					 "nm-connection-editor",
					 NULL };

enum approval_mode { MODE_PROMPT, MODE_ALLOW_ALL, MODE_ALLOWLIST };

static struct {
	char **forbidden;
	size_t n_forbidden;
	int64_t *ancestors; /* this process and its ancestors */
	size_t n_ancestors;

	char *config_path;
	char *approvals_path;
	json_t *config;
	int enabled;
	int default_deny;
	int allow_persistent;
	enum approval_mode mode;
	int diff_off;

	char **session; /* approved for this server session */
	size_t n_session;
} pol;

/* ---- string sets -------------------------------------------------------- */

static int
set_has(char **set, size_t n, const char *s)
{
	for (size_t i = 0; s && *s && i < n; i++)
		if (strcmp(set[i], s) == 0)
			return 1;
	return 0;
}

static void
set_add(char ***set, size_t *n, const char *s)
{
	char **grown;

	if (!s || !*s || set_has(*set, *n, s))
		return;
	grown = realloc(*set, (*n + 1) * sizeof(**set));
	if (!grown)
		return;
	*set = grown;
	if (((*set)[*n] = strdup(s)))
		(*n)++;
}

static void
set_remove(char **set, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(set[i], s) == 0) {
			free(set[i]);
			set[i] = set[--*n];
			return;
		}
}

/* ---- paths -------------------------------------------------------------- */

static char *
xdg_dir(const char *var, const char *fallback)
{
	const char *v = getenv(var), *home = getenv("HOME");
	char *p = NULL;

	if (v && v[0] == '/')
		str_addf(&p, "%s", v);
	else if (home && *home)
		str_addf(&p, "%s/%s", home, fallback);
	return p;
}

const char *
policy_approvals_path(void)
{
	return pol.approvals_path;
}

const char *
policy_config_path(void)
{
	return pol.config_path ? pol.config_path :
				 "~/.config/libcua/config.json";
}

int
policy_diff_off(void)
{
	return pol.diff_off;
}

/* ---- loading ------------------------------------------------------------ */

static int
load_forbidden(void)
{
	char *path = NULL, line[512];
	FILE *f;

	str_addf(&path, "%s/forbidden-apps.txt", mcp_opt.data_dir);
	f = path ? fopen(path, "re") : NULL;
	if (!f) {
		fprintf(stderr,
			"cua-mcp: cannot read the forbidden-apps list %s: %s\n"
			"cua-mcp: refusing to start without it (pass --data-dir DIR)\n",
			path ? path : "?", strerror(errno));
		free(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *e;

		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strcspn(s, "#\r\n");
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		*e = '\0';
		set_add(&pol.forbidden, &pol.n_forbidden, s);
	}
	fclose(f);
	LOG_DEBUG("%zu forbidden apps from %s", pol.n_forbidden, path);
	free(path);
	return 0;
}

static void
load_ancestors(void)
{
	int64_t pid = getpid();

	/* the server, the MCP host that started it, the terminal the host
	 * runs in, … up to (not including) init */
	while (pid > 1 && pol.n_ancestors < 64) {
		int64_t *grown = realloc(pol.ancestors, (pol.n_ancestors + 1) *
								sizeof(*grown));
		char path[64], buf[1024], *close_paren;
		long long ppid = 0;
		FILE *f;
		size_t n;

		if (!grown)
			break;
		pol.ancestors = grown;
		pol.ancestors[pol.n_ancestors++] = pid;
		snprintf(path, sizeof(path), "/proc/%lld/stat", (long long)pid);
		f = fopen(path, "re");
		if (!f)
			break;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		close_paren = strrchr(buf, ')');
		if (!close_paren ||
		    sscanf(close_paren + 1, " %*c %lld", &ppid) != 1)
			break;
		pid = ppid;
	}
}

static int
string_list(json_t *v, const char *key)
{
	size_t i;
	json_t *item;

	if (!v)
		return 0;
	if (!json_is_array(v))
		return -1;
	json_array_foreach(v, i, item) if (!json_is_string(item)) return -1;
	(void)key;
	return 0;
}

static int
load_config(void)
{
	json_error_t jerr;
	json_t *c, *v;
	const char *s;
	size_t i;

	if (mcp_opt.config) {
		pol.config_path = strdup(mcp_opt.config);
	} else {
		char *dir = xdg_dir("XDG_CONFIG_HOME", ".config");

		if (dir)
			str_addf(&pol.config_path, "%s/libcua/config.json",
				 dir);
		free(dir);
	}
	pol.enabled = 1;
	pol.allow_persistent = 1;
	pol.mode = MODE_PROMPT;
	if (!pol.config_path || access(pol.config_path, F_OK) != 0) {
		if (mcp_opt.config) {
			fprintf(stderr, "cua-mcp: cannot read %s: %s\n",
				mcp_opt.config, strerror(errno));
			return -1;
		}
		pol.config = json_object();
		return 0;
	}
	c = json_load_file(pol.config_path, 0, &jerr);
	if (!json_is_object(c)) {
		fprintf(stderr,
			"cua-mcp: %s: line %d: %s\ncua-mcp: fix or remove the configuration file\n",
			pol.config_path, jerr.line,
			c ? "not a JSON object" : jerr.text);
		json_decref(c);
		return -1;
	}
	pol.config = c;
#define BAD(key, what)                                                         \
	do {                                                                   \
		fprintf(stderr, "cua-mcp: %s: '%s' must be %s\n",              \
			pol.config_path, key, what);                           \
		return -1;                                                     \
	} while (0)
	v = json_object_get(c, "enabled");
	if (v && !json_is_boolean(v))
		BAD("enabled", "true or false");
	pol.enabled = !json_is_false(v);
	v = json_object_get(c, "allow_persistent_approval");
	if (v && !json_is_boolean(v))
		BAD("allow_persistent_approval", "true or false");
	pol.allow_persistent = !json_is_false(v);
	s = json_string_value(json_object_get(c, "default_app_access"));
	if (json_object_get(c, "default_app_access") &&
	    (!s || (strcmp(s, "allow") && strcmp(s, "deny"))))
		BAD("default_app_access", "\"allow\" or \"deny\"");
	pol.default_deny = s && strcmp(s, "deny") == 0;
	s = json_string_value(json_object_get(c, "approval_mode"));
	if (json_object_get(c, "approval_mode")) {
		if (s && strcmp(s, "prompt") == 0)
			pol.mode = MODE_PROMPT;
		else if (s && strcmp(s, "allow_all") == 0)
			pol.mode = MODE_ALLOW_ALL;
		else if (s && strcmp(s, "allowlist") == 0)
			pol.mode = MODE_ALLOWLIST;
		else
			BAD("approval_mode",
			    "\"prompt\", \"allow_all\" or \"allowlist\"");
	}
	s = json_string_value(json_object_get(c, "diff_mode"));
	if (json_object_get(c, "diff_mode") &&
	    (!s || (strcmp(s, "auto") && strcmp(s, "off"))))
		BAD("diff_mode", "\"auto\" or \"off\"");
	pol.diff_off = s && strcmp(s, "off") == 0;
	v = json_object_get(c, "apps");
	if (v) {
		const char *key;
		json_t *a;

		if (!json_is_object(v))
			BAD("apps",
			    "an object of app id: \"allow\" | \"deny\"");
		json_object_foreach(v, key, a)
		{
			s = json_string_value(a);
			if (!s || (strcmp(s, "allow") && strcmp(s, "deny")))
				BAD("apps",
				    "an object of app id: \"allow\" | \"deny\"");
		}
	}
	if (string_list(json_object_get(c, "forbidden_apps_add"), NULL) < 0)
		BAD("forbidden_apps_add", "an array of strings");
	if (string_list(json_object_get(c, "forbidden_apps_remove"), NULL) < 0)
		BAD("forbidden_apps_remove", "an array of strings");
#undef BAD
	json_array_foreach(json_object_get(c, "forbidden_apps_add"), i, v)
		set_add(&pol.forbidden, &pol.n_forbidden, json_string_value(v));
	json_array_foreach(json_object_get(c, "forbidden_apps_remove"), i, v)
		set_remove(pol.forbidden, &pol.n_forbidden,
			   json_string_value(v));
	LOG_INFO("configuration from %s", pol.config_path);
	return 0;
}

int
policy_init(void)
{
	pol.approvals_path = approvals_default_path();
	if (load_forbidden() < 0 || load_config() < 0)
		return -1;
	load_ancestors();
	if (mcp_opt.trust_apps)
		pol.mode = MODE_ALLOW_ALL;
	if (pol.mode == MODE_ALLOW_ALL)
		LOG_WARN(
			"every app that is not forbidden or denied is approved without asking (--trust-apps / approval_mode allow_all): use this for tests and CI only");
	return 0;
}

/* ---- decisions ---------------------------------------------------------- */

int
policy_enabled(struct mcp_error *err)
{
	if (pol.enabled)
		return 0;
	return mcp_fail(err, E_DISABLED,
			"Computer Use is disabled by your configuration.");
}

static const char *
info_str(const struct target *t, const char *key)
{
	return json_string_value(json_object_get(t->info, key));
}

static int
is_forbidden(const struct target *t)
{
	static const char *const keys[] = { "id", "executable_name",
					    "atspi_name", "desktop_id", NULL };

	for (int i = 0; keys[i]; i++)
		if (set_has(pol.forbidden, pol.n_forbidden,
			    info_str(t, keys[i])))
			return 1;
	for (size_t i = 0; t->running && i < pol.n_ancestors; i++)
		if (pol.ancestors[i] == t->pid)
			return 1;
	return 0;
}

static const char *
configured(const char *id)
{
	return json_string_value(
		json_object_get(json_object_get(pol.config, "apps"), id));
}

static int
is_high_risk(const struct target *t)
{
	for (int i = 0; high_risk[i]; i++)
		if (strcmp(t->id, high_risk[i]) == 0 ||
		    (info_str(t, "executable_name") &&
		     strcmp(info_str(t, "executable_name"), high_risk[i]) == 0))
			return 1;
	return 0;
}

static int
persisted(const char *id)
{
	return pol.approvals_path && approvals_has(pol.approvals_path, id);
}

static void
approve_session(const char *id)
{
	set_add(&pol.session, &pol.n_session, id);
}

/* Asks the user through elicitation/create (docs/safety.md §3.2). */
static int
ask(struct job *job, const struct target *t, struct mcp_error *err)
{
	int high = is_high_risk(t), always_ok = !high && pol.allow_persistent;
	const char *scope = "session", *action, *path;
	char *message = NULL;
	json_t *params, *reply, *persist;
	int code;

	str_addf(
		&message,
		"Allow Computer Use to use %s (%s)?\n\n"
		"Allowing Computer Use to use this app introduces new risks, including prompt injection attacks that could lead to data theft or loss. It will be able to read %s's window, take screenshots of it, and click, type and press keys in it. Keep an eye on what it does.",
		t->name, t->id, t->name);
	if (high)
		str_addf(
			&message,
			" %s can act on your accounts and data, for example sending messages or deleting files.",
			t->name);
	params = json_pack(
		"{s:s,s:{s:s,s:{s:{s:s,s:s,s:o,s:o}},s:[s]},s:{s:o}}",
		"message", message ? message : "", "requestedSchema", "type",
		"object", "properties", "scope", "type", "string", "title",
		"Allow", "enum",
		always_ok ? json_pack("[s,s]", "session", "always") :
			    json_pack("[s]", "session"),
		"enumNames",
		always_ok ? json_pack("[s,s]", "For this session", "Always") :
			    json_pack("[s]", "For this session"),
		"required", "scope", "_meta", "persist",
		always_ok ? json_pack("[s,s]", "session", "always") :
			    json_pack("[s]", "session"));
	free(message);
	if (strcmp(rpc_protocol_version(), "2025-11-25") >= 0)
		json_object_set_new(params, "mode", json_string("form"));
	LOG_INFO("asking the user to approve %s", t->id);
	reply = rpc_client_request(job, "elicitation/create", params, &code);
	if (!reply) {
		if (code == 0)
			return -2; /* cancelled while waiting */
		LOG_WARN("elicitation/create failed with %d", code);
		return mcp_fail(
			err, E_APPROVAL_UNAVAILABLE,
			"Computer Use needs the user's approval to use '%s', but this MCP client cannot ask for it. Ask the user to approve it with: cua approve %s (or add it to %s).",
			t->name, t->id, policy_config_path());
	}
	action = json_string_value(json_object_get(reply, "action"));
	if (!action || strcmp(action, "accept") != 0) {
		int declined = action && strcmp(action, "decline") == 0;

		json_decref(reply);
		LOG_INFO("approval of %s %s", t->id,
			 declined ? "declined" : "cancelled");
		if (declined)
			return mcp_fail(
				err, E_APPROVAL_DENIED,
				"Computer Use approval denied via MCP elicitation for app '%s'. Do not retry; tell the user you need their permission to use %s.",
				t->id, t->name);
		return mcp_fail(
			err, E_APPROVAL_CANCELED,
			"Computer Use permission request canceled for app '%s'. Ask the user whether Computer Use may use %s, then try again.",
			t->id, t->name);
	}
	/* docs/safety.md §3.2: the form field, else a Codex-style persist
	 * value */
	persist = json_object_get(json_object_get(reply, "_meta"), "persist");
	if (json_is_string(json_object_get(json_object_get(reply, "content"),
					   "scope")))
		scope = json_string_value(json_object_get(
			json_object_get(reply, "content"), "scope"));
	else if (json_is_string(persist))
		scope = json_string_value(persist);
	else if (json_is_string(json_object_get(reply, "persist")))
		scope = json_string_value(json_object_get(reply, "persist"));
	approve_session(t->id);
	if (strcmp(scope, "always") == 0 && always_ok) {
		path = policy_approvals_path();
		/* docs/safety.md §3.2: a failed write keeps the session
		 * approval (the call goes on) and says what to do about it */
		if (!path)
			LOG_WARN(
				"could not save the approval of %s: neither XDG_STATE_HOME nor HOME is set; it holds for this session only",
				t->id);
		else if (approvals_add(path, t->id) < 0)
			LOG_WARN(
				"could not save the approval of %s in %s (%s); it holds for this session only. Free some space or make the directory writable, then run: cua approve %s",
				t->id, path, strerror(errno), t->id);
		else
			LOG_INFO("%s approved always (%s)", t->id, path);
	} else {
		LOG_INFO("%s approved for this session", t->id);
	}
	json_decref(reply);
	return 0;
}

int
policy_check(struct job *job, const struct target *t, struct mcp_error *err)
{
	const char *conf = configured(t->id);

	if (policy_enabled(err) < 0)
		return -1;
	if (is_forbidden(t)) {
		LOG_INFO("refused forbidden app %s", t->id);
		return mcp_fail(
			err, E_NOT_ALLOWED,
			"Computer Use is not allowed to use the app '%s' for safety reasons.",
			t->id);
	}
	if ((conf && strcmp(conf, "deny") == 0) ||
	    ((pol.default_deny || pol.mode == MODE_ALLOWLIST) &&
	     !(conf && strcmp(conf, "allow") == 0)))
		return mcp_fail(
			err, E_BLOCKED,
			"Computer Use is blocked from using the app '%s' by your configuration. Ask the user to allow it in %s if it should be usable.",
			t->id, policy_config_path());
	if ((conf && strcmp(conf, "allow") == 0) ||
	    set_has(pol.session, pol.n_session, t->id) ||
	    pol.mode == MODE_ALLOW_ALL)
		return 0;
	if (persisted(t->id)) {
		approve_session(t->id); /* read the store once per app */
		return 0;
	}
	if (rpc_client_can_elicit())
		return ask(job, t, err);
	return mcp_fail(
		err, E_APPROVAL_UNAVAILABLE,
		"Computer Use needs the user's approval to use '%s', but this MCP client cannot ask for it. Ask the user to approve it with: cua approve %s (or add it to %s).",
		t->name, t->id, policy_config_path());
}
