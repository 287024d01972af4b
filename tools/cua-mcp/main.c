/*
 * cua-mcp — the MCP server of libcua: the Codex Computer Use tools over
 * stdio, for any MCP host (Codex, Claude Code, …).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "http.h"
#include "mcp.h"

struct mcp_options mcp_opt = {
	.log_level = CUA_LOG_WARNING,
	.max_sessions = 16,
	.session_timeout = 600,
	.max_request_bytes = 8388608,
};

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: cua-mcp [OPTIONS]\n"
		"\n"
		"The MCP server of libcua: lets an AI agent read desktop apps'\n"
		"accessibility trees and screenshots and act on them, with the tools and\n"
		"habits of Codex Computer Use. It speaks MCP (JSON-RPC 2.0, one message per\n"
		"line) on standard input and output; its logs go to standard error. An MCP\n"
		"host starts it; see README.md (\"Using cua-mcp with Codex and Claude\n"
		"Code\").\n"
		"\n"
		"Tools, in this order: list_apps, get_app_state, click,\n"
		"perform_secondary_action, set_value, select_text, scroll, drag,\n"
		"press_key, type_text, and sequence (several actions in one call).\n"
		"\n"
		"Options:\n"
		"  --headless           when there is no desktop (DISPLAY unset and no X\n"
		"                       server of this user found), start a private headless\n"
		"                       one (Xvfb, D-Bus, AT-SPI, openbox: `cua desktop`) and\n"
		"                       stop it when the server exits\n"
		"  --app-dir DIR        read per-app instructions (<app-id>.md) from DIR\n"
		"                       before the ones installed with libcua\n"
		"  --data-dir DIR       read forbidden-apps.txt and app-instructions/ from DIR\n"
		"                       (default %s)\n"
		"  --config FILE        the configuration file (default\n"
		"                       $XDG_CONFIG_HOME/libcua/config.json)\n"
		"  --no-sequence        do not offer the sequence tool\n"
		"  --no-diff            get_app_state always returns the full tree, never a\n"
		"                       diff against the previous call (config diff_mode)\n"
		"  --no-structured-content\n"
		"                       never send structuredContent (for hosts that show it\n"
		"                       to the model instead of the text)\n"
		"  --no-error-prefix    errors never start with \"Computer Use server error\n"
		"                       <code>: \"\n"
		"  --no-instructions    send no server instructions in initialize\n"
		"  --plain-receipt      actions return the sentence \"Action completed. …\"\n"
		"                       without the version banner\n"
		"  --trust-apps         approve every app that is not forbidden or denied\n"
		"                       without asking (config approval_mode \"allow_all\"):\n"
		"                       for tests and CI, never for a user's desktop\n"
		"  --listen HOST:PORT   speak MCP Streamable HTTP on http://HOST:PORT/mcp\n"
		"                       instead of stdio (HOST defaults to 127.0.0.1; a\n"
		"                       bearer token is always required; docs/remote.md)\n"
		"  --token-file PATH    the token file (default $XDG_STATE_HOME/cua/mcp-token,\n"
		"                       created with a new token, mode 0600, on first start)\n"
		"  --max-sessions N     at most N MCP sessions at once over HTTP (default 16)\n"
		"  --session-timeout S  end an HTTP session idle for S seconds (default 600)\n"
		"  --max-request-bytes N  the largest HTTP message accepted (default 8 MiB)\n"
		"  --allow-origin ORIGIN  also accept browser requests from ORIGIN (e.g.\n"
		"                       https://app.example); other web origins than the\n"
		"                       local host's own pages get 403\n"
		"  --log-level LEVEL    what goes to standard error: error, warning (default),\n"
		"                       info, debug or trace (also $CUA_LOG_LEVEL); at info,\n"
		"                       a line at start-up says what works on the desktop\n"
		"                       and why not (the facts of `cua doctor`)\n"
		"  --version            print the version and exit\n"
		"  -h, --help           print this help and exit\n"
		"\n"
		"Safety:\n"
		"  Every call that targets an app resolves it to one process first. Apps on\n"
		"  the forbidden list (terminals, password managers, polkit and keyring\n"
		"  prompts, screen lockers, this server and the processes that started it)\n"
		"  are refused. Other apps need the user's approval on first use, asked\n"
		"  through MCP elicitation (\"for this session\" or \"always\"); \"always\" is\n"
		"  kept in $XDG_STATE_HOME/cua/approvals.json (mode 0600). A host that\n"
		"  cannot ask gets an error naming `cua approve APP-ID`, unless the app is\n"
		"  approved already or configured \"allow\". list_apps is never gated.\n"
		"\n"
		"Configuration ($XDG_CONFIG_HOME/libcua/config.json, every key optional):\n"
		"  enabled                    false: every targeted tool is refused\n"
		"  default_app_access         \"allow\" (approval applies) or \"deny\" (only\n"
		"                             apps configured \"allow\" are usable)\n"
		"  allow_persistent_approval  false: \"always\" is never offered\n"
		"  apps                       { \"<app-id>\": \"allow\" | \"deny\" }\n"
		"  approval_mode              \"prompt\" (default), \"allow_all\", \"allowlist\"\n"
		"  forbidden_apps_add         [ \"<app-id or executable>\", … ]\n"
		"  forbidden_apps_remove      [ … ] (built-in entries; only here, never via MCP)\n"
		"  diff_mode                  \"auto\" (default) or \"off\"\n"
		"\n"
		"Turns: a host that sends a turn id (params._meta \"libcua/turn_id\" or Codex's\n"
		"\"x-codex-turn-metadata\".turn_id on tools/call) or the notifications\n"
		"notifications/libcua/turn_started and turn_ended ({\"turn_id\": …}) gets\n"
		"Codex's turn rules: once a turn ended, every tool but list_apps fails until\n"
		"the next turn; in each turn an app must be observed with get_app_state\n"
		"before it is acted on, and that first observation is a full tree.\n"
		"\n"
		"Per-app instructions: Markdown files named <app-id>.md, delivered with the\n"
		"first get_app_state of that app in a server session, from\n"
		"$XDG_CONFIG_HOME/libcua/app-instructions/, then --app-dir, then\n"
		"<data dir>/app-instructions/.\n"
		"\n"
		"Environment:\n"
		"  DISPLAY, DBUS_SESSION_BUS_ADDRESS  the desktop to work on. MCP hosts often\n"
		"                       start servers without them: pass them in the host's\n"
		"                       server configuration. Without DISPLAY, cua-mcp uses the\n"
		"                       user's X server if exactly one is found in\n"
		"                       /tmp/.X11-unix, with the bus at $XDG_RUNTIME_DIR/bus.\n"
		"  CUA_LOG_LEVEL        as --log-level\n"
		"  XDG_CONFIG_HOME, XDG_STATE_HOME  where the user's files are\n"
		"\n"
		"Exit status: 0 when standard input closes or on SIGTERM, SIGINT or SIGHUP;\n"
		"1 when the server cannot start; 2 for a usage error.\n",
		CUA_DATADIR);
}

static int
parse_level(const char *s)
{
	static const struct {
		const char *name;
		int level;
	} levels[] = {
		{ "error", CUA_LOG_ERROR }, { "warning", CUA_LOG_WARNING },
		{ "info", CUA_LOG_INFO },   { "debug", CUA_LOG_DEBUG },
		{ "trace", CUA_LOG_TRACE },
	};
	char *end;
	long n;

	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (strcasecmp(s, levels[i].name) == 0)
			return levels[i].level;
	n = strtol(s, &end, 10);
	return *s && !*end && n > 0 ? (int)n : -1;
}

/* The installed data, or the source tree's when running from a build
 * directory before installation. */
static const char *
default_data_dir(void)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/forbidden-apps.txt", CUA_DATADIR);
	if (access(path, R_OK) == 0)
		return CUA_DATADIR;
#ifdef CUA_MCP_SOURCE_DATADIR
	snprintf(path, sizeof(path), "%s/forbidden-apps.txt",
		 CUA_MCP_SOURCE_DATADIR);
	if (access(path, R_OK) == 0)
		return CUA_MCP_SOURCE_DATADIR;
#endif
	return CUA_DATADIR;
}

int
main(int argc, char **argv)
{
	enum {
		OPT_APP_DIR = 256,
		OPT_DATA_DIR,
		OPT_CONFIG,
		OPT_LOG_LEVEL,
		OPT_VERSION,
		OPT_LISTEN,
		OPT_TOKEN_FILE,
		OPT_MAX_SESSIONS,
		OPT_SESSION_TIMEOUT,
		OPT_MAX_REQUEST,
		OPT_ALLOW_ORIGIN,
	};
	/* the flags are set by getopt_long() itself */
	static const struct option opts[] = {
		{ "headless", no_argument, &mcp_opt.headless, 1 },
		{ "no-sequence", no_argument, &mcp_opt.no_sequence, 1 },
		{ "no-diff", no_argument, &mcp_opt.no_diff, 1 },
		{ "no-structured-content", no_argument, &mcp_opt.no_structured,
		  1 },
		{ "no-error-prefix", no_argument, &mcp_opt.no_error_prefix, 1 },
		{ "no-instructions", no_argument, &mcp_opt.no_instructions, 1 },
		{ "plain-receipt", no_argument, &mcp_opt.plain_receipt, 1 },
		{ "trust-apps", no_argument, &mcp_opt.trust_apps, 1 },
		{ "app-dir", required_argument, NULL, OPT_APP_DIR },
		{ "data-dir", required_argument, NULL, OPT_DATA_DIR },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "token-file", required_argument, NULL, OPT_TOKEN_FILE },
		{ "max-sessions", required_argument, NULL, OPT_MAX_SESSIONS },
		{ "session-timeout", required_argument, NULL,
		  OPT_SESSION_TIMEOUT },
		{ "max-request-bytes", required_argument, NULL,
		  OPT_MAX_REQUEST },
		{ "allow-origin", required_argument, NULL, OPT_ALLOW_ORIGIN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* the options whose value is kept as given */
	static const struct {
		int id;
		const char **value;
	} strings[] = {
		{ OPT_APP_DIR, &mcp_opt.app_dir },
		{ OPT_DATA_DIR, &mcp_opt.data_dir },
		{ OPT_CONFIG, &mcp_opt.config },
		{ OPT_LISTEN, &mcp_opt.listen },
		{ OPT_TOKEN_FILE, &mcp_opt.token_file },
	};
	size_t i;
	const char *env_level = getenv("CUA_LOG_LEVEL");
	int c;

	if (env_level && parse_level(env_level) > 0)
		mcp_opt.log_level = parse_level(env_level);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 0: /* a flag */
			break;
		case OPT_LOG_LEVEL:
			mcp_opt.log_level = parse_level(optarg);
			if (mcp_opt.log_level < 0) {
				fprintf(stderr,
					"cua-mcp: unknown log level '%s' (error, warning, info, debug, trace)\n",
					optarg);
				return 2;
			}
			break;
		case OPT_MAX_SESSIONS:
		case OPT_SESSION_TIMEOUT:
		case OPT_MAX_REQUEST: {
			char *end;
			unsigned long long n = strtoull(optarg, &end, 10);

			if (!*optarg || *end || n == 0 || n > 1ull << 30) {
				fprintf(stderr,
					"cua-mcp: '%s' is not a positive number\n",
					optarg);
				return 2;
			}
			if (c == OPT_MAX_SESSIONS)
				mcp_opt.max_sessions = (unsigned)n;
			else if (c == OPT_SESSION_TIMEOUT)
				mcp_opt.session_timeout = (unsigned)n;
			else
				mcp_opt.max_request_bytes = (size_t)n;
			break;
		}
		case OPT_ALLOW_ORIGIN:
			if (mcp_opt.n_allow_origins == 8) {
				fprintf(stderr,
					"cua-mcp: at most 8 --allow-origin\n");
				return 2;
			}
			mcp_opt.allow_origins[mcp_opt.n_allow_origins++] =
				optarg;
			break;
		case OPT_VERSION:
			printf("cua-mcp %s (libcua %s)\n", CUA_VERSION,
			       cua_version_string());
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			for (i = 0; i < sizeof(strings) / sizeof(strings[0]);
			     i++)
				if (c == strings[i].id)
					break;
			if (i == sizeof(strings) / sizeof(strings[0])) {
				fprintf(stderr, "Try 'cua-mcp --help'.\n");
				return 2;
			}
			*strings[i].value = optarg;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"cua-mcp: unexpected argument '%s'\nTry 'cua-mcp --help'.\n",
			argv[optind]);
		return 2;
	}
	if (!mcp_opt.data_dir)
		mcp_opt.data_dir = default_data_dir();

	/* the user's files first: --headless moves the XDG_* variables to
	 * the private desktop's directories for the apps it runs (an HTTP
	 * session's process gets the user's back for this) */
	http_user_dirs(mcp_opt.listen ? HTTP_DIRS_USE : HTTP_DIRS_NONE);
	if (tools_init() < 0 || policy_init() < 0)
		return 1;
	instructions_init();
	http_user_dirs(HTTP_DIRS_RESTORE);
	if (desktop_env_setup() < 0)
		return 1;
	LOG_INFO("cua-mcp %s ready (data %s)", cua_version_string(),
		 mcp_opt.data_dir);
	/* an HTTP session's process speaks stdio to the HTTP server */
	if (mcp_opt.listen && !getenv(HTTP_CHILD_ENV))
		return http_run(argc, argv);
	/* `cua stop` reaches it through its --listen server (http.c) */
	mcp_opt.http_session = mcp_opt.listen != NULL;
	unsetenv(HTTP_CHILD_ENV);
	return rpc_run();
}
