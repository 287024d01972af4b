/*
 * cua-mcp: the MCP server of libcua (docs/tools.md, docs/safety.md).
 *
 * Threads (docs/tools.md §8): a reader thread reads stdin and answers
 * everything that is cheap (initialize, ping, tools/list,
 * logging/setLevel, cancellation, replies to our own requests); one
 * worker thread runs tool calls one at a time; the main thread waits for
 * the end (stdin EOF, a broken stdout, SIGTERM/SIGINT/SIGHUP).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_MCP_H
#define CUA_MCP_H

#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <cua/cua.h>

/* ---- options (main.c) --------------------------------------------------- */

struct mcp_options {
	int headless;         /* start a private desktop when there is none */
	int no_sequence;      /* hide the sequence tool */
	int no_diff;          /* always full trees (diff_mode = off) */
	int no_structured;    /* never send structuredContent */
	int no_error_prefix;  /* never "Computer Use server error N: " */
	int no_instructions;  /* no server instructions in initialize */
	int plain_receipt;    /* the receipt's second line alone */
	int trust_apps;       /* approval_mode = allow_all */
	const char *app_dir;  /* extra per-app instructions directory */
	const char *data_dir; /* forbidden-apps.txt, app-instructions/ */
	const char *config;   /* config.json path */
	int log_level;        /* stderr threshold, CUA_LOG_* */
	/* MCP Streamable HTTP (http.c) */
	const char *listen; /* HOST:PORT, NULL: stdio */
	int http_session;   /* a session process of a --listen server */
	const char *token_file;
	unsigned max_sessions;
	unsigned session_timeout; /* seconds */
	size_t max_request_bytes;
	const char *allow_origins[8];
	size_t n_allow_origins;
};

extern struct mcp_options mcp_opt;

/* ---- logging (rpc.c) ---------------------------------------------------- */

/* Logs to stderr and, after logging/setLevel, to the client as
 * notifications/message. Never writes to stdout directly. */
void
mcp_log(int level, const char *logger, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define LOG_ERROR(...) mcp_log(CUA_LOG_ERROR, "cua-mcp", __VA_ARGS__)
#define LOG_WARN(...) mcp_log(CUA_LOG_WARNING, "cua-mcp", __VA_ARGS__)
#define LOG_INFO(...) mcp_log(CUA_LOG_INFO, "cua-mcp", __VA_ARGS__)
#define LOG_DEBUG(...) mcp_log(CUA_LOG_DEBUG, "cua-mcp", __VA_ARGS__)

/* The lowest level anyone (stderr, the client) wants. */
int
mcp_log_threshold(void);
/* The libcua log handler, forwarding to mcp_log(). */
void
mcp_libcua_log(cua_session *s, cua_log_level level, const char *message,
	       void *data);

/* ---- protocol (rpc.c) --------------------------------------------------- */

/* One tools/call, owned by the worker while it runs. */
struct job {
	json_t *id;             /* the request id, as sent */
	char *tool;             /* the tool name */
	json_t *args;           /* arguments (an object, never NULL) */
	json_t *meta;           /* params._meta or NULL */
	json_t *progress_token; /* params._meta.progressToken or NULL */
	double progress;        /* last progress value sent */
	char *turn_id;        /* _meta "libcua/turn_id" (or Codex's), or NULL */
	atomic_int cancelled; /* notifications/cancelled arrived */
	struct job *next;
};

/* Runs the server until stdin closes or a signal arrives; returns the
 * exit status. */
int
rpc_run(void);

/* Ignores SIGPIPE and blocks, in *set too, the signals the server takes
 * (TERM, INT, HUP: quit; USR1: the person's stop, `cua stop`). Called
 * before any thread or child process exists, so that all of them start
 * with the signals blocked. */
void
rpc_block_signals(sigset_t *set);

/* In-process use without threads (the fuzz harness): handles one message
 * line as the reader thread does, except that a tools/call is only queued;
 * rpc_next_job() takes the next queued call (or NULL), rpc_job_free()
 * frees it, and rpc_reset() drops the queue and forgets the session
 * (initialize, log level, turns). Replies go to stdout as usual. */
void
rpc_handle_message(char *line, size_t len);
struct job *
rpc_next_job(void);
void
rpc_job_free(struct job *j);
void
rpc_reset(void);

/* The negotiated protocol version ("" before initialize). */
const char *
rpc_protocol_version(void);
/* Non-zero when the negotiated version has structuredContent
 * (2025-06-18 and later) and it is not switched off. */
int
rpc_structured_content(void);
/* Non-zero when the client can answer form-mode elicitation/create and
 * has sent notifications/initialized. */
int
rpc_client_can_elicit(void);

/* Non-zero once the job was cancelled or the server is stopping. */
int
rpc_cancelled(struct job *job);
/*
 * Turns (docs/safety.md §8, docs/differences.md D15), from `_meta` turn ids on
 * tools/call and the notifications notifications/libcua/turn_started and
 * _ended. Applies the job's turn id (a different one starts a new turn) and
 * returns the number of the current turn (0: the host sends no turn
 * information); *ended is set when the current turn has ended.
 */
unsigned long
rpc_turn_begin(struct job *job, int *ended);
/* Non-zero when the current turn has ended (checked between steps). */
int
rpc_turn_ended(void);
/* notifications/progress for the job, when the client asked for it. */
void
rpc_progress(struct job *job, const char *message);

/*
 * Sends a request to the client and waits for its answer (for
 * elicitation/create). Returns the result object (new reference), or NULL
 * with *error_code set: the JSON-RPC error code of an error reply, or 0
 * when the job was cancelled or the server is stopping.
 */
json_t *
rpc_client_request(struct job *job, const char *method, json_t *params,
		   int *error_code);

/* ---- tools (tools.c) ---------------------------------------------------- */

/* Builds the tool list; 0 or -1. */
int
tools_init(void);
/* The tools/list "tools" array (borrowed). */
json_t *
tools_list(void);
/* Non-zero when `name` is a tool of tools/list. */
int
tools_exists(const char *name);
/* Runs a call on the worker thread; returns the CallToolResult (new
 * reference), or NULL when the job was cancelled (no response). */
json_t *
tools_call(struct job *job);
/* Releases the libcua session (worker thread, at exit). */
void
tools_shutdown(void);
/* The person's stop (SIGUSR1 from `cua stop`; any thread): every tool
 * then fails with E-USER-STOPPED until a new turn (state.c). */
void
session_user_stop(void);
/* Holds the stop hotkey while a turn is active (worker thread). */
void
session_turn_active(int active);
/* Logs what works on the desktop (the facts of `cua doctor`) in one line
 * at info level, opening the session; nothing when no one reads info
 * (state.c; worker thread, before the first call). */
void
session_log_desktop(void);

/* ---- results (result.c) ------------------------------------------------- */

/* The error catalogue of docs/tools.md §11: the rows of the library's error
 * registry (lib/core/errors.def), E_<row>. */
enum mcp_err {
#define CUA_ROW(row, id, mcp_name, mcp_code, prefix) E_##row,
#include "core/errors.def"
	E_COUNT
};

/* A failure before or during a call: a catalogue id and its detail text
 * (without prefix). */
struct mcp_error {
	enum mcp_err id;
	cua_errcode code; /* the library's, or CUA_E_OK (cua-mcp's own) */
	char *detail;     /* malloc'd */
};

/* Fills e; returns -1 (for `return mcp_fail(...)`). */
int
mcp_fail(struct mcp_error *e, enum mcp_err id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Fills e from a failed libcua call: the row of cua_error_code() and the
 * text of cua_error_message(). */
int
mcp_fail_library(struct mcp_error *e, cua_result r);
/* Replaces the query libcua was given (`pid:N`, a desktop file) by the
 * model's own app string in e's detail, as the catalogue's <app> is: only
 * for a library error whose registry message has an {app} slot. */
void
mcp_error_rename(struct mcp_error *e, const char *query, const char *app);
void
mcp_error_clear(struct mcp_error *e);
/* The catalogue id's name ("E-NOT-ALLOWED"). */
const char *
mcp_err_id(enum mcp_err id);
/* The model-visible message of e (with the prefix where the catalogue
 * says so); malloc'd. */
char *
mcp_error_message(const struct mcp_error *e);
/* The error's structured form {id,name,code,detail,message}. */
json_t *
mcp_error_json(const struct mcp_error *e);
/* An isError CallToolResult for e. */
json_t *
result_error(const struct mcp_error *e);
/* A CallToolResult with one text block (and structuredContent when
 * allowed; `structured` is stolen, may be NULL). */
json_t *
result_text(const char *text, json_t *structured, int is_error);
/* The first line of every envelope. */
const char *
result_banner(void);
/* The receipt text of a successful action (malloc'd). */
char *
result_receipt_text(void);
/* Adds _meta {"libcua/app": id} to a result. */
void
result_set_app_meta(json_t *result, const char *app_id);
/* For a result whose serialised form reached the frame limit: drops, in
 * order, structuredContent and the image, with a note. */
void
result_limit_size(json_t *result);

/* Appends printf-style text to a malloc'd string (*s may be NULL). */
void
str_addf(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A sanitised copy of model- or app-provided text, cut at `max`
 * characters (0: not cut). Never NULL. */
char *
sanitized(const char *text, size_t max);

/* ---- policy and approval (policy.c) ------------------------------------- */

/* The canonical target of a call (docs/safety.md §1). */
struct target {
	json_t *info;     /* libcua.app/1 from cua_session_resolve_app */
	const char *id;   /* canonical id (borrowed from info) */
	const char *name; /* display name (borrowed) */
	int running;
	int64_t pid; /* running apps */
	char *query; /* what to hand to libcua: pid:N or a path */
};

/* Loads the forbidden list and the configuration and fixes the paths of
 * the user's files (call before desktop_env_setup); 0 or -1. */
int
policy_init(void);
/* E-DISABLED when computer use is switched off in the configuration. */
int
policy_enabled(struct mcp_error *err);
/*
 * Decides policy (forbidden / denied) on a resolved target and obtains the
 * user's approval (asking through elicitation when needed). Returns 0 when
 * the call may proceed, -1 with err filled, or -2 when the job was
 * cancelled while waiting for the user.
 */
int
policy_check(struct job *job, const struct target *t, struct mcp_error *err);
/* The approvals file ($XDG_STATE_HOME/cua/approvals.json, fixed by
 * policy_init()). */
const char *
policy_approvals_path(void);
/* The configuration file path (for messages). */
const char *
policy_config_path(void);
int
policy_diff_off(void);

/* ---- instructions (instructions.c) -------------------------------------- */

/* Fixes the user's instructions directory (before desktop_env_setup). */
void
instructions_init(void);
/* The server instructions of initialize (docs/tools.md §7). */
const char *
instructions_server(void);
/* The per-app instructions to deliver with this observation of app_id
 * (first successful observation in this server session), or NULL.
 * malloc'd. Call instructions_delivered() once it was sent. */
char *
instructions_for(const char *app_id);
void
instructions_delivered(const char *app_id);

/* ---- the desktop (desktop-env.c) ---------------------------------------- */

/* Finds the user's desktop when DISPLAY is unset (docs/tools.md §8) or
 * starts a private one with --headless. 0, or -1 when --headless failed. */
int
desktop_env_setup(void);
/* Stops the private desktop, if one was started. */
void
desktop_env_teardown(void);
/* When no X display is known: the not-granted explanation (static). */
const char *
desktop_env_problem(void);

#endif /* CUA_MCP_H */
