/*
 * cua-mcp: the MCP transport — newline-delimited JSON-RPC 2.0 on stdio
 * (docs/mcp.md §1), lifecycle, logging, cancellation, progress and the
 * server→client requests of elicitation.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "mcp.h"
#include "servers.h"

/* docs/tools.md §2.6: the largest inbound message, without its newline. */
#define MAX_MESSAGE 8388608
/* How long the main thread waits for a running tool at shutdown. */
#define SHUTDOWN_WAIT_MS 3000

static const char *const supported_versions[] = { "2025-11-25", "2025-06-18",
						  "2025-03-26", "2024-11-05",
						  NULL };

/* MCP log levels (RFC 5424 order). */
static const char *const mcp_levels[] = { "debug",   "info",      "notice",
					  "warning", "error",     "critical",
					  "alert",   "emergency", NULL };

static struct {
	pthread_mutex_t out_lock; /* stdout: one message at a time */
	int out_broken;

	pthread_mutex_t lock; /* everything below */
	pthread_cond_t cond;
	int initialize_done;  /* initialize answered */
	int initialized;      /* notifications/initialized received */
	char version[32];     /* negotiated protocol version */
	int elicitation_form; /* the client declared form elicitation */
	int client_level;     /* index in mcp_levels, -1: no setLevel yet */
	int stopping;         /* a signal or a broken stdout: cancel, stop */
	int draining;         /* stdin closed: finish what was asked, stop */
	struct job *queue, **queue_tail;
	struct job *running;
	struct pending *pending; /* our requests waiting for a reply */
	unsigned long next_request;
	char turn_id[128];  /* the current turn, "" before any */
	unsigned long turn; /* its number, 0 before any */
	int turn_ended;

	int event_fd; /* wakes the main thread: EOF or a broken pipe */
} rpc = {
	.out_lock = PTHREAD_MUTEX_INITIALIZER,
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.client_level = -1,
	.event_fd = -1,
};

struct pending {
	char id[32];
	json_t *reply; /* the whole response message, once it arrived */
	struct pending *next;
};

/* ---- output ------------------------------------------------------------- */

static void
wake_main(void)
{
	uint64_t one = 1;

	if (rpc.event_fd >= 0 && write(rpc.event_fd, &one, sizeof(one)) < 0) {
		/* the counter cannot overflow in practice */
	}
}

static void
write_line(char *text);

/* Sends one message (steals msg): compact JSON and one newline. */
static void
send_message(json_t *msg)
{
	char *text;

	if (!msg)
		return;
	json_object_set_new(msg, "jsonrpc", json_string("2.0"));
	text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	write_line(text);
}

/* Writes a serialised message (frees it). */
static void
write_line(char *text)
{
	if (!text) {
		fprintf(stderr, "cua-mcp: error: cannot serialise a message\n");
		return;
	}
	pthread_mutex_lock(&rpc.out_lock);
	if (!rpc.out_broken) {
		size_t len = strlen(text);
		int r;

		/* one write of line + newline keeps messages whole */
		text[len] = '\n';
		r = cua_write_all(STDOUT_FILENO, text, len + 1);
		if (r < 0) {
			rpc.out_broken = 1;
			fprintf(stderr,
				"cua-mcp: stdout closed (%s); stopping\n",
				strerror(-r));
			wake_main();
		}
		text[len] = '\0';
	}
	pthread_mutex_unlock(&rpc.out_lock);
	free(text);
}

static json_t *
message_with_id(json_t *id)
{
	json_t *m = json_object();

	/* the id keeps its JSON type; an unknown id is left out, never
	 * null (docs/mcp.md §1.2) */
	if (id)
		json_object_set(m, "id", id);
	return m;
}

static void
send_result(json_t *id, json_t *result)
{
	json_t *m = message_with_id(id);

	json_object_set_new(m, "result", result ? result : json_object());
	send_message(m);
}

/* A tools/call result, serialised once; one over the frame limit loses
 * its structured content, then its image (docs/tools.md §2.6). */
static void
send_tool_result(json_t *id, json_t *result)
{
	json_t *m = message_with_id(id);
	char *text;

	json_object_set_new(m, "jsonrpc", json_string("2.0"));
	json_object_set(m, "result", result);
	text = json_dumps(m, JSON_COMPACT);
	if (text && strlen(text) >= MAX_MESSAGE) {
		free(text);
		result_limit_size(result);
		text = json_dumps(m, JSON_COMPACT);
	}
	json_decref(m);
	json_decref(result);
	write_line(text);
}

static void
send_error(json_t *id, int code, const char *message, json_t *data)
{
	json_t *m = message_with_id(id);
	json_t *e = json_pack("{s:i,s:s}", "code", code, "message", message);

	if (data)
		json_object_set_new(e, "data", data);
	json_object_set_new(m, "error", e);
	send_message(m);
}

static void
send_notification(const char *method, json_t *params)
{
	json_t *m = json_pack("{s:s}", "method", method);

	if (params)
		json_object_set_new(m, "params", params);
	send_message(m);
}

/* ---- logging ------------------------------------------------------------ */

static const char *
level_name(int level)
{
	if (level <= CUA_LOG_ERROR)
		return "error";
	if (level <= CUA_LOG_WARNING)
		return "warning";
	if (level <= CUA_LOG_INFO)
		return "info";
	return "debug";
}

/* Index of a libcua level in mcp_levels. */
static int
level_rank(int level)
{
	if (level <= CUA_LOG_ERROR)
		return 4;
	if (level <= CUA_LOG_WARNING)
		return 3;
	if (level <= CUA_LOG_INFO)
		return 1;
	return 0;
}

int
mcp_log_threshold(void)
{
	int level = mcp_opt.log_level, client;

	pthread_mutex_lock(&rpc.lock);
	client = rpc.client_level;
	pthread_mutex_unlock(&rpc.lock);
	if (client >= 0) {
		int wanted = client <= 0 ? CUA_LOG_DEBUG :
			     client <= 2 ? CUA_LOG_INFO :
			     client <= 3 ? CUA_LOG_WARNING :
					   CUA_LOG_ERROR;

		if (wanted > level)
			level = wanted;
	}
	return level;
}

static void
log_message(int level, const char *logger, const char *text)
{
	int client;

	if (level <= mcp_opt.log_level)
		fprintf(stderr, "%s: %s: %s\n", logger, level_name(level),
			text);
	pthread_mutex_lock(&rpc.lock);
	client = rpc.client_level;
	pthread_mutex_unlock(&rpc.lock);
	if (client >= 0 && level_rank(level) >= client)
		send_notification("notifications/message",
				  json_pack("{s:s,s:s,s:s}", "level",
					    mcp_levels[level_rank(level)],
					    "logger", logger, "data", text));
}

void
mcp_log(int level, const char *logger, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log_message(level, logger, buf);
}

void
mcp_libcua_log(cua_session *s, cua_log_level level, const char *message,
	       void *data)
{
	log_message(level, "libcua", message);
}

/* ---- state queries ------------------------------------------------------ */

const char *
rpc_protocol_version(void)
{
	return rpc.version; /* written once, before any tool runs */
}

int
rpc_structured_content(void)
{
	return !mcp_opt.no_structured && rpc.version[0] &&
	       strcmp(rpc.version, "2025-06-18") >= 0;
}

int
rpc_client_can_elicit(void)
{
	int r;

	pthread_mutex_lock(&rpc.lock);
	r = rpc.elicitation_form && rpc.initialized;
	pthread_mutex_unlock(&rpc.lock);
	return r;
}

int
rpc_cancelled(struct job *job)
{
	int stopping;

	pthread_mutex_lock(&rpc.lock);
	stopping = rpc.stopping;
	pthread_mutex_unlock(&rpc.lock);
	return stopping || atomic_load(&job->cancelled);
}

void
rpc_progress(struct job *job, const char *message)
{
	json_t *p;

	if (!job->progress_token || rpc_cancelled(job))
		return;
	job->progress += 1;
	p = json_pack("{s:O,s:f}", "progressToken", job->progress_token,
		      "progress", job->progress);
	if (message)
		json_object_set_new(p, "message", json_string(message));
	send_notification("notifications/progress", p);
}

/* ---- turns -------------------------------------------------------------- */

/* A turn id as text: a string, or an integer. */
static char *
turn_id_of(json_t *v)
{
	char buf[32];

	if (json_is_string(v) && json_string_length(v) > 0)
		return strndup(json_string_value(v), 127);
	if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(v));
		return strdup(buf);
	}
	return NULL;
}

/* Under rpc.lock: a turn id that differs from the current one, or any id
 * after the current turn ended, starts a new turn. */
static void
turn_start_locked(const char *id)
{
	if (!id || (strcmp(id, rpc.turn_id) == 0 && !rpc.turn_ended))
		return;
	snprintf(rpc.turn_id, sizeof(rpc.turn_id), "%s", id);
	rpc.turn++;
	rpc.turn_ended = 0;
}

unsigned long
rpc_turn_begin(struct job *job, int *ended)
{
	unsigned long turn;

	pthread_mutex_lock(&rpc.lock);
	if (job->turn_id && strcmp(job->turn_id, rpc.turn_id) != 0)
		turn_start_locked(job->turn_id);
	turn = rpc.turn;
	*ended = rpc.turn_ended;
	pthread_mutex_unlock(&rpc.lock);
	return turn;
}

int
rpc_turn_ended(void)
{
	int ended;

	pthread_mutex_lock(&rpc.lock);
	ended = rpc.turn_ended;
	pthread_mutex_unlock(&rpc.lock);
	return ended;
}

static void
handle_turn(const char *method, json_t *params)
{
	char *id = turn_id_of(json_object_get(params, "turn_id"));

	pthread_mutex_lock(&rpc.lock);
	if (strcmp(method, "notifications/libcua/turn_started") == 0) {
		if (id)
			turn_start_locked(id);
	} else if (!id || strcmp(id, rpc.turn_id) == 0) {
		/* an old turn's end does not end the current one */
		rpc.turn_ended = 1;
		if (!rpc.turn) /* turns were not tracked so far */
			rpc.turn = 1;
	}
	pthread_mutex_unlock(&rpc.lock);
	LOG_INFO("%s %s", method + strlen("notifications/libcua/"),
		 id ? id : "(no id)");
	free(id);
}

/* ---- server → client requests ------------------------------------------- */

json_t *
rpc_client_request(struct job *job, const char *method, json_t *params,
		   int *error_code)
{
	struct pending me, **pp;
	json_t *msg, *result = NULL, *err;

	*error_code = 0;
	memset(&me, 0, sizeof(me));
	pthread_mutex_lock(&rpc.lock);
	snprintf(me.id, sizeof(me.id), "cua-%lu", ++rpc.next_request);
	me.next = rpc.pending;
	rpc.pending = &me;
	pthread_mutex_unlock(&rpc.lock);

	msg = json_pack("{s:s,s:s,s:o}", "id", me.id, "method", method,
			"params", params);
	send_message(msg);

	pthread_mutex_lock(&rpc.lock);
	while (!me.reply && !rpc.stopping && !atomic_load(&job->cancelled))
		pthread_cond_wait(&rpc.cond, &rpc.lock);
	for (pp = &rpc.pending; *pp; pp = &(*pp)->next)
		if (*pp == &me) {
			*pp = me.next;
			break;
		}
	pthread_mutex_unlock(&rpc.lock);

	if (!me.reply)
		return NULL; /* cancelled or stopping: *error_code = 0 */
	result = json_object_get(me.reply, "result");
	err = json_object_get(me.reply, "error");
	if (json_is_object(result)) {
		json_incref(result);
	} else {
		result = NULL;
		*error_code = json_is_integer(json_object_get(err, "code")) ?
				      (int)json_integer_value(
					      json_object_get(err, "code")) :
				      -32603;
		if (*error_code == 0)
			*error_code = -32603;
	}
	json_decref(me.reply);
	return result;
}

/* A response from the client: hand it to the waiting request. */
static void
route_response(json_t *msg)
{
	json_t *id = json_object_get(msg, "id");
	struct pending *p;
	int found = 0;

	pthread_mutex_lock(&rpc.lock);
	for (p = rpc.pending; p && json_is_string(id); p = p->next)
		if (strcmp(p->id, json_string_value(id)) == 0 && !p->reply) {
			p->reply = json_incref(msg);
			found = 1;
			pthread_cond_broadcast(&rpc.cond);
			break;
		}
	pthread_mutex_unlock(&rpc.lock);
	if (!found)
		LOG_DEBUG("ignoring a response to no pending request");
}

/* ---- the job queue ------------------------------------------------------ */

static void
job_free(struct job *j)
{
	if (!j)
		return;
	json_decref(j->id);
	json_decref(j->args);
	json_decref(j->meta);
	json_decref(j->progress_token);
	free(j->turn_id);
	free(j->tool);
	free(j);
}

static int
same_id(json_t *a, json_t *b)
{
	if (json_is_string(a) && json_is_string(b))
		return strcmp(json_string_value(a), json_string_value(b)) == 0;
	return json_is_integer(a) && json_is_integer(b) &&
	       json_integer_value(a) == json_integer_value(b);
}

static void
cancel_request(json_t *request_id)
{
	struct job **pp, *drop = NULL;

	pthread_mutex_lock(&rpc.lock);
	if (rpc.running && same_id(rpc.running->id, request_id)) {
		atomic_store(&rpc.running->cancelled, 1);
		pthread_cond_broadcast(&rpc.cond);
	} else {
		for (pp = &rpc.queue; *pp; pp = &(*pp)->next)
			if (same_id((*pp)->id, request_id)) {
				drop = *pp;
				*pp = drop->next;
				if (!*pp)
					rpc.queue_tail = pp;
				break;
			}
	}
	pthread_mutex_unlock(&rpc.lock);
	if (drop)
		LOG_INFO("request cancelled before it started (%s)",
			 drop->tool);
	job_free(drop);
}

static void
enqueue(struct job *j)
{
	pthread_mutex_lock(&rpc.lock);
	*rpc.queue_tail = j;
	rpc.queue_tail = &j->next;
	pthread_cond_broadcast(&rpc.cond);
	pthread_mutex_unlock(&rpc.lock);
}

static void *
worker_main(void *arg)
{
	struct job *j;
	json_t *result;
	int cancelled;

	session_log_desktop();
	for (;;) {
		pthread_mutex_lock(&rpc.lock);
		while (!rpc.queue && !rpc.stopping && !rpc.draining)
			pthread_cond_wait(&rpc.cond, &rpc.lock);
		if (rpc.stopping || !rpc.queue) {
			pthread_mutex_unlock(&rpc.lock);
			break;
		}
		j = rpc.queue;
		rpc.queue = j->next;
		if (!rpc.queue)
			rpc.queue_tail = &rpc.queue;
		j->next = NULL;
		rpc.running = j;
		pthread_mutex_unlock(&rpc.lock);

		result = tools_call(j);

		pthread_mutex_lock(&rpc.lock);
		rpc.running = NULL;
		cancelled = atomic_load(&j->cancelled) || rpc.stopping;
		pthread_mutex_unlock(&rpc.lock);
		/* a cancelled request gets no response (docs/mcp.md §1.10) */
		if (result && !cancelled) {
			send_tool_result(j->id, result);
		} else {
			json_decref(result);
			if (cancelled)
				LOG_INFO("%s cancelled; no response sent",
					 j->tool);
		}
		job_free(j);
	}
	tools_shutdown();
	return NULL;
}

/* ---- requests ----------------------------------------------------------- */

static int
is_known_method(const char *m)
{
	static const char *const known[] = { "initialize",       "ping",
					     "tools/list",       "tools/call",
					     "logging/setLevel", NULL };

	for (int i = 0; known[i]; i++)
		if (strcmp(m, known[i]) == 0)
			return 1;
	return 0;
}

static void
handle_initialize(json_t *id, json_t *params)
{
	const char *asked =
		json_string_value(json_object_get(params, "protocolVersion"));
	json_t *caps, *elic, *result;
	const char *version = supported_versions[0];
	int form = 0;

	if (!json_is_object(params) || !asked) {
		send_error(
			id, -32602,
			"Invalid params: initialize needs params.protocolVersion (a string)",
			NULL);
		return;
	}
	for (int i = 0; supported_versions[i]; i++)
		if (strcmp(asked, supported_versions[i]) == 0)
			version = supported_versions[i];
	caps = json_object_get(params, "capabilities");
	elic = json_object_get(caps, "elicitation");
	if (json_is_object(elic) && strcmp(version, "2025-06-18") >= 0) {
		/* {} means form; 2025-11-25 may list modes explicitly */
		form = json_object_size(elic) == 0 ||
		       json_object_get(elic, "form") != NULL;
	}

	pthread_mutex_lock(&rpc.lock);
	if (rpc.initialize_done) {
		pthread_mutex_unlock(&rpc.lock);
		send_error(
			id, -32600,
			"Invalid Request: the session is already initialized",
			NULL);
		return;
	}
	rpc.initialize_done = 1;
	snprintf(rpc.version, sizeof(rpc.version), "%s", version);
	rpc.elicitation_form = form;
	pthread_mutex_unlock(&rpc.lock);

	result = json_pack("{s:s,s:{s:{s:b},s:{}},s:{s:s,s:s,s:s}}",
			   "protocolVersion", version, "capabilities", "tools",
			   "listChanged", 0, "logging", "serverInfo", "name",
			   "cua-mcp", "title", "Computer Use", "version",
			   cua_version_string());
	if (!mcp_opt.no_instructions)
		json_object_set_new(result, "instructions",
				    json_string(instructions_server()));
	LOG_INFO(
		"initialize: protocol %s (asked %s), client %s, elicitation %s",
		version, asked,
		json_string_value(json_object_get(json_object_get(params, "clientInfo"), "name")) ?:
			"?",
		form ? "yes" : "no");
	send_result(id, result);
}

static void
handle_set_level(json_t *id, json_t *params)
{
	const char *level = json_string_value(json_object_get(params, "level"));

	for (int i = 0; level && mcp_levels[i]; i++)
		if (strcmp(level, mcp_levels[i]) == 0) {
			pthread_mutex_lock(&rpc.lock);
			rpc.client_level = i;
			pthread_mutex_unlock(&rpc.lock);
			send_result(id, json_object());
			return;
		}
	send_error(
		id, -32602,
		"Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency",
		NULL);
}

static void
handle_tools_call(json_t *id, json_t *params)
{
	const char *name = json_string_value(json_object_get(params, "name"));
	json_t *args = json_object_get(params, "arguments");
	json_t *meta = json_object_get(params, "_meta");
	struct job *j;
	char msg[256];

	if (!json_is_object(params) || !name) {
		send_error(
			id, -32602,
			"Invalid params: tools/call needs params.name (a string)",
			NULL);
		return;
	}
	if (!tools_exists(name)) {
		char *clean = sanitized(name, 64);

		snprintf(msg, sizeof(msg), "Unknown tool: %s", clean);
		free(clean);
		send_error(id, -32602, msg, NULL);
		return;
	}
	if (args && !json_is_object(args) && !json_is_null(args)) {
		send_error(
			id, -32602,
			"Invalid params: tools/call arguments must be an object",
			NULL);
		return;
	}
	j = calloc(1, sizeof(*j));
	if (!j) {
		send_error(id, -32603, "Internal error: out of memory", NULL);
		return;
	}
	j->id = json_incref(id);
	j->tool = strdup(name);
	j->args = json_is_object(args) ? json_deep_copy(args) : json_object();
	if (json_is_object(meta)) {
		json_t *tok = json_object_get(meta, "progressToken");

		j->meta = json_incref(meta);
		if (json_is_string(tok) || json_is_integer(tok))
			j->progress_token = json_incref(tok);
		j->turn_id =
			turn_id_of(json_object_get(meta, "libcua/turn_id"));
		if (!j->turn_id)
			j->turn_id = turn_id_of(json_object_get(
				json_object_get(meta, "x-codex-turn-metadata"),
				"turn_id"));
	}
	enqueue(j);
}

static void
handle_request(json_t *id, const char *method, json_t *params)
{
	int ready;

	if (strcmp(method, "ping") == 0) {
		send_result(id, json_object());
		return;
	}
	if (strcmp(method, "initialize") == 0) {
		handle_initialize(id, params);
		return;
	}
	if (!is_known_method(method)) {
		char msg[200], *clean = sanitized(method, 64);

		snprintf(msg, sizeof(msg), "Method not found: %s", clean);
		free(clean);
		send_error(id, -32601, msg, NULL);
		return;
	}
	pthread_mutex_lock(&rpc.lock);
	ready = rpc.initialize_done;
	pthread_mutex_unlock(&rpc.lock);
	if (!ready) {
		send_error(
			id, -32600,
			"Invalid Request: the server is not initialized; send initialize first",
			NULL);
		return;
	}
	if (strcmp(method, "tools/list") == 0) {
		if (json_object_get(params, "cursor")) {
			send_error(id, -32602, "Invalid params: invalid cursor",
				   NULL);
			return;
		}
		send_result(id, json_pack("{s:O}", "tools", tools_list()));
	} else if (strcmp(method, "logging/setLevel") == 0) {
		handle_set_level(id, params);
	} else {
		handle_tools_call(id, params);
	}
}

static void
handle_notification(const char *method, json_t *params)
{
	if (strcmp(method, "notifications/initialized") == 0) {
		pthread_mutex_lock(&rpc.lock);
		rpc.initialized = 1;
		pthread_mutex_unlock(&rpc.lock);
	} else if (strcmp(method, "notifications/libcua/turn_started") == 0 ||
		   strcmp(method, "notifications/libcua/turn_ended") == 0) {
		handle_turn(method, params);
	} else if (strcmp(method, "notifications/cancelled") == 0) {
		json_t *rid = json_object_get(params, "requestId");

		if (json_is_string(rid) || json_is_integer(rid))
			cancel_request(rid);
	}
	/* other notifications need nothing from us */
}

/* A valid request id: a string or an integer (never null, bool or real). */
static int
valid_id(json_t *id)
{
	return json_is_string(id) || json_is_integer(id);
}

static void
handle_line(char *line, size_t len)
{
	json_error_t jerr;
	json_t *msg, *id, *method;
	const char *version;

	while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' ||
		       line[len - 1] == '\t'))
		len--;
	if (strspn(line, " \t") >= len)
		return; /* blank line */
	msg = json_loadb(line, len, JSON_DECODE_ANY, &jerr);
	if (!msg) {
		char text[300];

		snprintf(text, sizeof(text), "Parse error: %s", jerr.text);
		send_error(NULL, -32700, text, NULL);
		return;
	}
	if (json_is_array(msg)) {
		send_error(NULL, -32600,
			   "Invalid Request: batches are not supported", NULL);
		goto out;
	}
	if (!json_is_object(msg)) {
		send_error(NULL, -32600,
			   "Invalid Request: a message must be a JSON object",
			   NULL);
		goto out;
	}
	id = json_object_get(msg, "id");
	method = json_object_get(msg, "method");
	version = json_string_value(json_object_get(msg, "jsonrpc"));
	if (!version || strcmp(version, "2.0") != 0) {
		send_error(valid_id(id) ? id : NULL, -32600,
			   "Invalid Request: jsonrpc must be \"2.0\"", NULL);
		goto out;
	}
	if (!method) {
		if (valid_id(id) && (json_object_get(msg, "result") ||
				     json_object_get(msg, "error")))
			route_response(msg);
		else
			send_error(valid_id(id) ? id : NULL, -32600,
				   "Invalid Request: no method", NULL);
		goto out;
	}
	if (!json_is_string(method)) {
		send_error(valid_id(id) ? id : NULL, -32600,
			   "Invalid Request: method must be a string", NULL);
		goto out;
	}
	if (id && !valid_id(id)) {
		send_error(NULL, -32600,
			   "Invalid Request: id must be a string or an integer",
			   NULL);
		goto out;
	}
	if (json_object_get(msg, "params") &&
	    !json_is_object(json_object_get(msg, "params"))) {
		if (id)
			send_error(id, -32602,
				   "Invalid params: params must be an object",
				   NULL);
		goto out;
	}
	if (id)
		handle_request(id, json_string_value(method),
			       json_object_get(msg, "params"));
	else
		handle_notification(json_string_value(method),
				    json_object_get(msg, "params"));
out:
	json_decref(msg);
}

static void
too_large(void)
{
	char text[200];

	snprintf(text, sizeof(text),
		 "Invalid Request: the message exceeds the limit of %d bytes",
		 MAX_MESSAGE);
	send_error(NULL, -32600, text, NULL);
}

/* Reads stdin line by line until EOF; oversized lines are skipped. */
static void *
reader_main(void *arg)
{
	size_t cap = 65536, len = 0, scanned = 0;
	char *buf = malloc(cap);
	int discarding = 0;

	while (buf) {
		char *nl;
		ssize_t n;

		if (cap - len < 65536) {
			char *b = realloc(buf, cap * 2);

			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
		n = read(STDIN_FILENO, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		while ((nl = memchr(buf + scanned, '\n', len - scanned))) {
			size_t line_len = (size_t)(nl - buf);

			if (discarding) {
				discarding = 0;
				too_large();
			} else if (line_len > MAX_MESSAGE + 1) {
				too_large();
			} else {
				*nl = '\0';
				handle_line(buf, line_len);
			}
			memmove(buf, nl + 1, len - line_len - 1);
			len -= line_len + 1;
			scanned = 0;
		}
		scanned = len;
		if (len > MAX_MESSAGE + 1) {
			/* drop what we have; answer once the line ends */
			discarding = 1;
			len = scanned = 0;
			if (cap > (1u << 20)) {
				char *b = realloc(buf, 65536);

				if (b) {
					buf = b;
					cap = 65536;
				}
			}
		}
	}
	free(buf);
	LOG_DEBUG("stdin closed");
	pthread_mutex_lock(&rpc.lock);
	rpc.draining = 1;
	pthread_cond_broadcast(&rpc.cond);
	pthread_mutex_unlock(&rpc.lock);
	wake_main();
	return NULL;
}

/* ---- main loop ---------------------------------------------------------- */

static int
join_within(pthread_t t, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return pthread_timedjoin_np(t, NULL, &ts) == 0;
}

void
rpc_block_signals(sigset_t *set)
{
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	/* the person's stop (docs/safety.md §6) */
	sigaddset(set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, set, NULL);
}

int
rpc_run(void)
{
	pthread_t reader, worker;
	sigset_t set;
	int sigfd, joined, drain;

	rpc.queue_tail = &rpc.queue;
	rpc_block_signals(&set);
	sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	rpc.event_fd = eventfd(0, EFD_CLOEXEC);
	if (sigfd < 0 || rpc.event_fd < 0) {
		LOG_ERROR("cannot set up signal handling: %s", strerror(errno));
		return 1;
	}
	if (pthread_create(&worker, NULL, worker_main, NULL) != 0 ||
	    pthread_create(&reader, NULL, reader_main, NULL) != 0) {
		LOG_ERROR("cannot start threads");
		return 1;
	}
	pthread_detach(reader);
	if (!mcp_opt.http_session && servers_register(getenv("DISPLAY")) < 0)
		LOG_WARN("cannot register for `cua stop`: %s", strerror(errno));

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = sigfd, .events = POLLIN },
			{ .fd = rpc.event_fd, .events = POLLIN },
		};

		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) != sizeof(si))
				break;
			if (si.ssi_signo == SIGUSR1) {
				session_user_stop();
				continue;
			}
			LOG_INFO("stopping on signal %u", si.ssi_signo);
			break;
		}
		if (pfd[1].revents)
			break;
	}

	/* stdin EOF: the queued calls still run, for a while; a signal or a
	 * broken stdout, or that while running out, cancels the running call
	 * (it stops between steps, so no key or button is left pressed) */
	pthread_mutex_lock(&rpc.lock);
	drain = rpc.draining && !rpc.out_broken;
	pthread_mutex_unlock(&rpc.lock);
	joined = drain && join_within(worker, SHUTDOWN_WAIT_MS);
	if (!joined) {
		pthread_mutex_lock(&rpc.lock);
		rpc.stopping = 1;
		if (rpc.running)
			atomic_store(&rpc.running->cancelled, 1);
		pthread_cond_broadcast(&rpc.cond);
		pthread_mutex_unlock(&rpc.lock);
		joined = join_within(worker, SHUTDOWN_WAIT_MS);
	}
	if (!joined)
		LOG_WARN(
			"a tool call is still running; exiting without waiting for it");
	servers_unregister();
	desktop_env_teardown();
	if (!joined) {
		fflush(stderr);
		_exit(0);
	}
	pthread_mutex_lock(&rpc.lock);
	while (rpc.queue) {
		struct job *j = rpc.queue;

		rpc.queue = j->next;
		job_free(j);
	}
	pthread_mutex_unlock(&rpc.lock);
	close(sigfd);
	return 0;
}

/* ---- in-process use, without threads (tests/fuzz) ----------------------- */

void
rpc_handle_message(char *line, size_t len)
{
	if (!rpc.queue_tail)
		rpc.queue_tail = &rpc.queue;
	handle_line(line, len);
}

struct job *
rpc_next_job(void)
{
	struct job *j;

	pthread_mutex_lock(&rpc.lock);
	if (!rpc.queue_tail)
		rpc.queue_tail = &rpc.queue;
	j = rpc.queue;
	if (j) {
		rpc.queue = j->next;
		if (!rpc.queue)
			rpc.queue_tail = &rpc.queue;
		j->next = NULL;
	}
	pthread_mutex_unlock(&rpc.lock);
	return j;
}

void
rpc_job_free(struct job *j)
{
	job_free(j);
}

void
rpc_reset(void)
{
	struct job *j;

	while ((j = rpc_next_job()))
		job_free(j);
	pthread_mutex_lock(&rpc.lock);
	rpc.initialize_done = 0;
	rpc.initialized = 0;
	rpc.version[0] = '\0';
	rpc.elicitation_form = 0;
	rpc.client_level = -1;
	rpc.next_request = 0;
	rpc.turn_id[0] = '\0';
	rpc.turn = 0;
	rpc.turn_ended = 0;
	pthread_mutex_unlock(&rpc.lock);
}
