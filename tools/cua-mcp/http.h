/*
 * cua-mcp over MCP Streamable HTTP (docs/remote.md): the HTTP front end
 * (http.c) and its sessions (http-session.c).
 *
 * Every MCP session is one child process: cua-mcp itself, run on stdio
 * (CUA_MCP_HTTP_SESSION set), with its own libcua session, element ids,
 * approvals for the session and turn state. The front end forwards each
 * POSTed message to the child's standard input as one line and files every
 * line the child writes as an event of one stream: the response to a
 * request ends that request's stream; server requests and notifications go
 * to the stream of the tools/call they belong to, else to the session's
 * standalone stream (GET). Events are kept, within bounds, so that a client
 * whose connection dropped resumes with Last-Event-ID.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_MCP_HTTP_H
#define CUA_MCP_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The variable that makes a cua-mcp process an HTTP session's child. */
#define HTTP_CHILD_ENV "CUA_MCP_HTTP_SESSION"

/*
 * The user's XDG_CONFIG_HOME and XDG_STATE_HOME, where the configuration,
 * the approvals and the user's app instructions are, reach a session's
 * process even when --headless moved them to the private desktop's:
 * HTTP_DIRS_USE records them in the server (before desktop_env_setup) and,
 * in a session's process, puts them in place for policy_init();
 * HTTP_DIRS_RESTORE then gives that process the desktop's back, for the
 * apps it starts.
 */
enum http_dirs { HTTP_DIRS_NONE, HTTP_DIRS_USE, HTTP_DIRS_RESTORE };
void
http_user_dirs(enum http_dirs phase);

/* Runs the HTTP server until SIGTERM, SIGINT or SIGHUP; argv is the
 * server's own command line, reused for every session's child. Returns
 * the exit status. */
int
http_run(int argc, char **argv);

/* ---- sessions (http-session.c) ------------------------------------------ */

struct hsession;

struct hs_limits {
	unsigned max_sessions;
	unsigned idle_timeout; /* seconds without a request or a reader */
	size_t max_log_bytes;  /* the events kept for resumption, per session */
};

/* Sets the limits and the child's command line; starts the reaper. */
int
hs_init(const struct hs_limits *limits, char **argv);
/* Ends every session and waits (a while) for their children. */
void
hs_shutdown(void);
/* Sends `sig` to the process of every live session; how many. */
unsigned
hs_signal(int sig);

/*
 * A new session with its child started, referenced once for the caller.
 * NULL when the session limit is reached (*full set) or the child could
 * not start.
 */
struct hsession *
hs_create(int *full);
/* The live session with this id, referenced; NULL when there is none. */
struct hsession *
hs_find(const char *id);
void
hs_unref(struct hsession *s);
/* Ends the session (DELETE, a failed initialize): the child's input is
 * closed, readers see the end, the id is forgotten. */
void
hs_terminate(struct hsession *s);

const char *
hs_id(const struct hsession *s);
/* The negotiated protocol version ("" before initialize answered). */
void
hs_version(struct hsession *s, char *buf, size_t size);

/*
 * Opens the stream of a request whose id is `key` (compact JSON);
 * `progress` is its progress token (compact JSON) or NULL; `json`: it is
 * answered as application/json (then nothing but its response goes to
 * it, and the response is not kept once sent). Returns the
 * stream number, 0 when a request with this id is still open (-1: the
 * session ended).
 */
long
hs_open_request(struct hsession *s, const char *key, const char *progress,
		int tools_call, int initialize, int json);
/* The client cancelled the request `key` (notifications/cancelled): its
 * stream gets no response, and no error when the session ends; it stays
 * open until the client closes it. */
void
hs_cancelled(struct hsession *s, const char *key);
/* Writes one message line to the child; 0 or -1 (the session ended). */
int
hs_send(struct hsession *s, const char *text, size_t len);

/* A reader of one stream, for one HTTP response. */
struct hs_reader;

enum hs_attach {
	HS_ATTACHED,
	HS_BUSY,      /* another connection reads that stream */
	HS_NO_STREAM, /* no such stream (or its events are gone) */
};

/*
 * Attaches a reader: to a request's stream (`stream` from
 * hs_open_request) or to the standalone stream (`stream` 0), from the
 * first event not yet sent; or, with `resume`, to any stream again after
 * event `after` (Last-Event-ID), taking it over from a connection that
 * this end may not have seen drop yet. `json` readers return
 * the response alone, as application/json. `fd` is the connection's
 * socket, watched for a hang-up while waiting.
 */
enum hs_attach
hs_attach(struct hsession *s, unsigned long stream, uint64_t after, int resume,
	  int json, int fd, struct hs_reader **out);
/* Parses a Last-Event-ID ("<stream>-<event>"); 0 or -1. */
int
hs_parse_event_id(const char *text, unsigned long *stream, uint64_t *seq);
/* The MHD content reader: copies the next bytes, waiting for them. */
ssize_t
hs_read(void *reader, uint64_t pos, char *buf, size_t max);
/* The MHD content reader's destructor: detaches and frees. */
void
hs_reader_free(void *reader);

#endif /* CUA_MCP_HTTP_H */
