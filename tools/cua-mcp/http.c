/*
 * cua-mcp over MCP Streamable HTTP (protocol revisions 2025-06-18 and
 * 2025-11-25): the HTTP front end on libmicrohttpd, one thread per
 * connection, so a slow or silent client holds its own thread only.
 *
 * One endpoint, /mcp: POST carries one JSON-RPC message (a request gets
 * its response as application/json, or as text/event-stream for tools/call
 * so that elicitation and progress travel with it); GET opens the
 * session's stream of server requests and notifications, or resumes any
 * stream from Last-Event-ID; DELETE ends the session. Every request needs
 * the bearer token; a browser's foreign Origin is refused.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "approvals.h"
#include "core/fileio.h"
#include "http.h"
#include "mcp.h"
#include "servers.h"

#define ENDPOINT "/mcp"
/* How far past the bound a body is still read (and dropped). */
#define DRAIN_MAX (64u << 20)

static const char *const known_versions[] = { "2025-11-25", "2025-06-18",
					      "2025-03-26", "2024-11-05",
					      NULL };

static struct {
	char token[128];
	size_t token_len;
	size_t max_body;
} http;

struct req {
	char *body;
	size_t len;
	int too_big;
};

/* ---- connection slots ----------------------------------------------------- */

/*
 * At most `limit` connections at once. A connection is trusted once it has
 * sent a request with the token; when one more arrives at the bound, the
 * oldest connection that is not trusted is shut down (a client that
 * connects and sends nothing, or half a request, holds a slot only until
 * someone else needs it), and only when every connection is trusted is the
 * new one refused. MHD's own bound, twice ours, leaves room for
 * connections shut down but not yet closed.
 */
struct slot {
	int fd;
	int trusted, evicted;
	struct slot *prev, *next; /* in order of arrival */
};

static struct {
	pthread_mutex_t lock;
	struct slot *head, *tail;
	unsigned live, limit;
} slots = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void
slot_unlink(struct slot *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		slots.head = s->next;
	if (s->next)
		s->next->prev = s->prev;
	else
		slots.tail = s->prev;
}

static void
notify_connection(void *cls, struct MHD_Connection *c, void **socket_context,
		  enum MHD_ConnectionNotificationCode code)
{
	const union MHD_ConnectionInfo *ci;
	struct slot *s = *socket_context;

	(void)cls;
	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (!s)
			return;
		pthread_mutex_lock(&slots.lock);
		slot_unlink(s);
		if (!s->evicted)
			slots.live--;
		pthread_mutex_unlock(&slots.lock);
		free(s);
		*socket_context = NULL;
		return;
	}
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	s = calloc(1, sizeof(*s));
	if (!s || !ci) {
		free(s);
		return;
	}
	s->fd = ci->connect_fd;
	pthread_mutex_lock(&slots.lock);
	s->prev = slots.tail;
	if (slots.tail)
		slots.tail->next = s;
	else
		slots.head = s;
	slots.tail = s;
	if (++slots.live > slots.limit) {
		struct slot *old = slots.head;

		while (old && (old->trusted || old->evicted))
			old = old->next;
		if (old) { /* at least the new one is not trusted */
			LOG_DEBUG(
				"http: %u connections: closing one that sent no request with the token",
				slots.live);
			old->evicted = 1;
			slots.live--;
			shutdown(old->fd, SHUT_RDWR);
		}
	}
	pthread_mutex_unlock(&slots.lock);
	*socket_context = s;
}

/* Connection `c` sent the token. */
static void
slot_trust(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct slot *s = ci ? ci->socket_context : NULL;

	if (!s)
		return;
	pthread_mutex_lock(&slots.lock);
	s->trusted = 1;
	pthread_mutex_unlock(&slots.lock);
}

/* ---- the token ---------------------------------------------------------- */

/* $XDG_STATE_HOME/cua/mcp-token, beside the approvals file. */
static char *
default_token_path(void)
{
	char *p = approvals_default_path(), *slash;

	if (p && (slash = strrchr(p, '/')))
		strcpy(slash + 1, "mcp-token");
	return p;
}

static int
mkdir_parents(const char *path)
{
	char *d = strdup(path), *p;

	if (!d)
		return -1;
	for (p = d + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(d, 0700) < 0 && errno != EEXIST) {
			free(d);
			return -1;
		}
		*p = '/';
	}
	free(d);
	return 0;
}

/* Reads the token file, or creates it with a new token (printed once). */
static int
load_token(const char *given)
{
	char *path = given ? strdup(given) : default_token_path();
	char buf[256];
	struct stat st;
	ssize_t n;
	int fd, r = -1;

	if (!path) {
		fprintf(stderr,
			"cua-mcp: --listen: no place for the token file: set XDG_STATE_HOME or HOME, or pass --token-file PATH\n");
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT) {
		unsigned char raw[32];
		char hex[65];

		if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
			fprintf(stderr, "cua-mcp: cannot make a token: %s\n",
				strerror(errno));
			goto out;
		}
		for (size_t i = 0; i < sizeof(raw); i++)
			sprintf(hex + 2 * i, "%02x", raw[i]);
		hex[64] = '\n';
		r = mkdir_parents(path) < 0 ?
			    -errno :
			    cua_write_file_atomic(path, hex, 65, 0600);
		if (r < 0) {
			fprintf(stderr,
				"cua-mcp: cannot write the token file %s: %s\n",
				path, strerror(-r));
			goto out;
		}
		hex[64] = '\0';
		fprintf(stderr,
			"cua-mcp: a new bearer token was written to %s (mode 0600); clients send it as\n"
			"  Authorization: Bearer %s\n"
			"(it is not printed again)\n",
			path, hex);
		memcpy(http.token, hex, 64);
		http.token_len = 64;
		r = 0;
		goto out;
	}
	if (fd < 0) {
		fprintf(stderr, "cua-mcp: cannot read the token file %s: %s\n",
			path, strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != getuid() || (st.st_mode & 077)) {
		fprintf(stderr,
			"cua-mcp: the token file %s must be a regular file of this user that no one else can read (chmod 600 %s)\n",
			path, path);
		close(fd);
		goto out;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' ||
			 buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	if (n < 16 || (size_t)n >= sizeof(http.token) ||
	    strspn(buf,
		   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=") !=
		    (size_t)n) {
		fprintf(stderr,
			"cua-mcp: the token file %s must hold one token of 16 to 127 visible characters (letters, digits, -._~+/=); delete it to get a new one\n",
			path);
		goto out;
	}
	memcpy(http.token, buf, (size_t)n + 1);
	http.token_len = (size_t)n;
	LOG_INFO("bearer token from %s", path);
	r = 0;
out:
	free(path);
	return r;
}

static int
token_ok(const char *authorization)
{
	const char *t;
	size_t len;
	unsigned char diff = 0;

	if (!authorization || strncasecmp(authorization, "Bearer ", 7) != 0)
		return 0;
	t = authorization + 7;
	while (*t == ' ')
		t++;
	len = strlen(t);
	/* the same work whatever the token's first difference */
	for (size_t i = 0; i < http.token_len; i++)
		diff |= (unsigned char)(http.token[i] ^ (i < len ? t[i] : 0));
	return diff == 0 && len == http.token_len;
}

/* ---- request checks ----------------------------------------------------- */

static const char *
header(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* An Origin is a browser's: only the local host's own pages, or the
 * origins named with --allow-origin, may reach the server (DNS
 * rebinding). */
static int
origin_ok(const char *origin)
{
	static const char *const local[] = { "localhost", "127.0.0.1", "[::1]",
					     NULL };
	const char *host;
	size_t n;

	if (!origin)
		return 1;
	for (size_t i = 0; i < mcp_opt.n_allow_origins; i++)
		if (strcmp(origin, mcp_opt.allow_origins[i]) == 0)
			return 1;
	if (strncmp(origin, "http://", 7) == 0)
		host = origin + 7;
	else if (strncmp(origin, "https://", 8) == 0)
		host = origin + 8;
	else
		return 0;
	for (size_t i = 0; local[i]; i++) {
		n = strlen(local[i]);
		if (strncmp(host, local[i], n) == 0 &&
		    (host[n] == '\0' || (host[n] == ':' && host[n + 1] &&
					 strspn(host + n + 1, "0123456789") ==
						 strlen(host + n + 1))))
			return 1;
	}
	return 0;
}

static int
accepts(const char *accept, const char *type)
{
	return !accept || strstr(accept, type) || strstr(accept, "*/*");
}

/* ---- responses ---------------------------------------------------------- */

static enum MHD_Result
reply(struct MHD_Connection *c, unsigned status, const char *type,
      const char *body, const char *session_id)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	if (type)
		MHD_add_response_header(r, "Content-Type", type);
	if (session_id)
		MHD_add_response_header(r, "Mcp-Session-Id", session_id);
	if (status == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(r, "WWW-Authenticate",
					"Bearer realm=\"cua-mcp\"");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, POST, DELETE");
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
		MHD_add_response_header(r, "Retry-After", "5");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* An HTTP error with a JSON-RPC error body (id left out, as for a message
 * that could not be read); `fmt` says what was wrong and what to do. */
static enum MHD_Result
reply_error(struct MHD_Connection *c, unsigned status, int code,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static enum MHD_Result
reply_error(struct MHD_Connection *c, unsigned status, int code,
	    const char *fmt, ...)
{
	char msg[512], *body;
	json_t *m;
	va_list ap;
	enum MHD_Result ret;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	m = json_pack("{s:s,s:{s:i,s:s}}", "jsonrpc", "2.0", "error", "code",
		      code, "message", msg);
	body = json_dumps(m, JSON_COMPACT);
	json_decref(m);
	ret = reply(c, status, "application/json", body ? body : "{}", NULL);
	free(body);
	return ret;
}

static enum MHD_Result
reply_stream(struct MHD_Connection *c, struct hs_reader *reader, int json,
	     const char *session_id)
{
	struct MHD_Response *r = MHD_create_response_from_callback(
		MHD_SIZE_UNKNOWN, 65536, hs_read, reader, hs_reader_free);
	enum MHD_Result ret;

	if (!r) {
		hs_reader_free(reader);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type",
				json ? "application/json" :
				       "text/event-stream");
	MHD_add_response_header(r, "Cache-Control", "no-cache");
	if (session_id)
		MHD_add_response_header(r, "Mcp-Session-Id", session_id);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static int
connection_fd(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

	return i ? i->connect_fd : -1;
}

/* ---- methods ------------------------------------------------------------ */

static struct hsession *
session_of(struct MHD_Connection *c, enum MHD_Result *ret)
{
	const char *id = header(c, "Mcp-Session-Id");
	struct hsession *s;

	if (!id) {
		*ret = reply_error(
			c, MHD_HTTP_BAD_REQUEST, -32600,
			"Bad Request: the Mcp-Session-Id header is missing; start a session with initialize and send the id it returned");
		return NULL;
	}
	s = hs_find(id);
	if (!s)
		*ret = reply_error(
			c, MHD_HTTP_NOT_FOUND, -32001,
			"Session not found: it ended or never existed; start a new one with initialize");
	return s;
}

/* The MCP-Protocol-Version header must be one this server speaks and the
 * session's own (a client without it is taken to speak 2025-03-26). */
static int
version_ok(struct MHD_Connection *c, struct hsession *s, enum MHD_Result *ret)
{
	const char *v = header(c, "MCP-Protocol-Version");
	char negotiated[32];
	size_t i;

	if (!v)
		return 1;
	for (i = 0; known_versions[i]; i++)
		if (strcmp(v, known_versions[i]) == 0)
			break;
	hs_version(s, negotiated, sizeof(negotiated));
	if (known_versions[i] && (!*negotiated || strcmp(v, negotiated) == 0))
		return 1;
	*ret = reply_error(
		c, MHD_HTTP_BAD_REQUEST, -32600,
		"Bad Request: MCP-Protocol-Version '%.40s' is not the version of this session (%s)",
		v, *negotiated ? negotiated : "none yet");
	return 0;
}

static enum MHD_Result
do_post(struct MHD_Connection *c, struct req *rq)
{
	json_error_t err;
	json_t *msg = json_loadb(rq->body ? rq->body : "", rq->len, 0, &err);
	json_t *id, *params;
	const char *method;
	struct hsession *s = NULL;
	struct hs_reader *reader;
	enum MHD_Result ret = MHD_NO;
	char *key = NULL, *progress = NULL, *line = NULL;
	int initialize, tools_call, json_mode, full;
	long stream;

	if (!msg)
		return reply_error(c, MHD_HTTP_BAD_REQUEST, -32700,
				   "Parse error: %s (line %d, column %d)",
				   err.text, err.line, err.column);
	if (!json_is_object(msg)) {
		json_decref(msg);
		return reply_error(
			c, MHD_HTTP_BAD_REQUEST, -32600,
			"Invalid Request: send one JSON-RPC message per POST (batches are not supported)");
	}
	id = json_object_get(msg, "id");
	method = json_string_value(json_object_get(msg, "method"));
	params = json_object_get(msg, "params");
	initialize = method && id && strcmp(method, "initialize") == 0;
	line = json_dumps(msg, JSON_COMPACT);
	if (!line)
		goto out;

	if (initialize) {
		if (header(c, "Mcp-Session-Id")) {
			ret = reply_error(
				c, MHD_HTTP_BAD_REQUEST, -32600,
				"Bad Request: initialize starts a session; send it without Mcp-Session-Id");
			goto out;
		}
		s = hs_create(&full);
		if (!s) {
			ret = full ? reply_error(
					     c, MHD_HTTP_SERVICE_UNAVAILABLE,
					     -32000,
					     "Too many sessions: this server holds at most %u; end one (DELETE) or wait for idle ones to time out",
					     mcp_opt.max_sessions) :
				     reply_error(
					     c, MHD_HTTP_INTERNAL_SERVER_ERROR,
					     -32603,
					     "the session process could not start; see the server's log");
			goto out;
		}
	} else {
		s = session_of(c, &ret);
		if (!s || !version_ok(c, s, &ret))
			goto out;
	}

	if (!method || !id) {
		/* a notification or a response (an elicitation's answer) */
		if (hs_send(s, line, strlen(line)) < 0) {
			ret = reply_error(
				c, MHD_HTTP_NOT_FOUND, -32001,
				"Session not found: it ended; start a new one with initialize");
			goto out;
		}
		if (method && strcmp(method, "notifications/cancelled") == 0) {
			key = json_dumps(json_object_get(params, "requestId"),
					 JSON_COMPACT | JSON_ENCODE_ANY);
			if (key)
				hs_cancelled(s, key);
		}
		ret = reply(c, MHD_HTTP_ACCEPTED, NULL, "", NULL);
		goto out;
	}
	if (!json_is_string(id) && !json_is_integer(id)) {
		ret = reply_error(
			c, MHD_HTTP_BAD_REQUEST, -32600,
			"Invalid Request: the id must be a string or an integer");
		goto out;
	}
	tools_call = strcmp(method, "tools/call") == 0;
	json_mode = !tools_call || !accepts(header(c, MHD_HTTP_HEADER_ACCEPT),
					    "text/event-stream");
	key = json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY);
	progress = json_dumps(json_object_get(json_object_get(params, "_meta"),
					      "progressToken"),
			      JSON_COMPACT | JSON_ENCODE_ANY);
	stream = key ? hs_open_request(s, key, progress, tools_call, initialize,
				       json_mode) :
		       -1;
	if (stream == 0) {
		ret = reply_error(
			c, MHD_HTTP_BAD_REQUEST, -32600,
			"Invalid Request: a request with id %.64s is still open in this session; use a new id",
			key);
		goto out;
	}
	if (stream < 0 || hs_send(s, line, strlen(line)) < 0 ||
	    hs_attach(s, (unsigned long)stream, 0, 0, json_mode,
		      connection_fd(c), &reader) != HS_ATTACHED) {
		ret = reply_error(
			c, MHD_HTTP_NOT_FOUND, -32001,
			"Session not found: it ended; start a new one with initialize");
		if (initialize)
			hs_terminate(s);
		goto out;
	}
	ret = reply_stream(c, reader, json_mode, initialize ? hs_id(s) : NULL);
out:
	free(key);
	free(progress);
	free(line);
	json_decref(msg);
	hs_unref(s);
	return ret;
}

static enum MHD_Result
do_get(struct MHD_Connection *c)
{
	const char *last = header(c, "Last-Event-ID");
	struct hsession *s;
	struct hs_reader *reader;
	enum MHD_Result ret = MHD_NO;
	unsigned long stream = 0;
	uint64_t after = 0;
	enum hs_attach a;

	if (!accepts(header(c, MHD_HTTP_HEADER_ACCEPT), "text/event-stream"))
		return reply_error(
			c, MHD_HTTP_NOT_ACCEPTABLE, -32600,
			"Not Acceptable: GET opens an event stream; send Accept: text/event-stream");
	s = session_of(c, &ret);
	if (!s || !version_ok(c, s, &ret)) {
		hs_unref(s);
		return ret;
	}
	if (last && hs_parse_event_id(last, &stream, &after) < 0) {
		ret = reply_error(
			c, MHD_HTTP_BAD_REQUEST, -32600,
			"Bad Request: Last-Event-ID '%.40s' is not an event id of this server",
			last);
		hs_unref(s);
		return ret;
	}
	a = hs_attach(s, stream, after, last != NULL, 0, connection_fd(c),
		      &reader);
	if (a == HS_ATTACHED)
		ret = reply_stream(c, reader, 0, NULL);
	else if (a == HS_BUSY)
		ret = reply_error(
			c, MHD_HTTP_CONFLICT, -32600,
			"Conflict: another connection already reads this stream; close it first");
	else
		ret = reply_error(
			c, MHD_HTTP_NOT_FOUND, -32600,
			"Not Found: the stream of event %.40s is no longer kept; its messages cannot be replayed",
			last);
	hs_unref(s);
	return ret;
}

static enum MHD_Result
do_delete(struct MHD_Connection *c)
{
	enum MHD_Result ret = MHD_NO;
	struct hsession *s = session_of(c, &ret);

	if (!s)
		return ret;
	LOG_INFO("http session %.8s: ended by the client", hs_id(s));
	hs_terminate(s);
	hs_unref(s);
	return reply(c, MHD_HTTP_OK, NULL, "", NULL);
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
       const char *version, const char *upload, size_t *upload_size,
       void **con_cls)
{
	struct req *rq = *con_cls;
	const char *len;

	(void)cls;
	(void)version;
	if (!rq) {
		/* the headers: everything that can be refused before the
		 * body is refused now */
		rq = calloc(1, sizeof(*rq));
		if (!rq)
			return MHD_NO;
		*con_cls = rq;
		if (strcmp(url, ENDPOINT) != 0)
			return reply_error(
				c, MHD_HTTP_NOT_FOUND, -32600,
				"Not Found: the MCP endpoint is " ENDPOINT);
		if (!origin_ok(header(c, "Origin"))) {
			LOG_WARN("http: refused a request from Origin %.80s",
				 header(c, "Origin"));
			return reply_error(
				c, MHD_HTTP_FORBIDDEN, -32600,
				"Forbidden: requests from the web origin '%.80s' are not allowed (start the server with --allow-origin ORIGIN to allow it)",
				header(c, "Origin"));
		}
		if (!token_ok(header(c, MHD_HTTP_HEADER_AUTHORIZATION)))
			return reply_error(
				c, MHD_HTTP_UNAUTHORIZED, -32600,
				"Unauthorized: send the server's token as 'Authorization: Bearer TOKEN' (the token is in the server's token file)");
		slot_trust(c);
		if (strcmp(method, "POST") != 0 && strcmp(method, "GET") != 0 &&
		    strcmp(method, "DELETE") != 0)
			return reply_error(
				c, MHD_HTTP_METHOD_NOT_ALLOWED, -32600,
				"Method Not Allowed: use POST, GET or DELETE");
		if (strcmp(method, "POST") == 0) {
			const char *type =
				header(c, MHD_HTTP_HEADER_CONTENT_TYPE);

			/* a body a little over the bound is read and dropped,
			 * so that the client, still sending, sees the 413;
			 * a far larger one is refused at once */
			len = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
			if (len &&
			    strtoull(len, NULL, 10) > http.max_body + DRAIN_MAX)
				return reply_error(
					c, MHD_HTTP_CONTENT_TOO_LARGE, -32600,
					"Payload Too Large: a message may have at most %zu bytes; this one has %.20s",
					http.max_body, len);
			if (!type ||
			    strncasecmp(type, "application/json", 16) != 0)
				return reply_error(
					c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
					-32600,
					"Unsupported Media Type: POST a JSON-RPC message as Content-Type: application/json");
			if (!accepts(header(c, MHD_HTTP_HEADER_ACCEPT),
				     "application/json") &&
			    !accepts(header(c, MHD_HTTP_HEADER_ACCEPT),
				     "text/event-stream"))
				return reply_error(
					c, MHD_HTTP_NOT_ACCEPTABLE, -32600,
					"Not Acceptable: send Accept: application/json, text/event-stream");
		}
		return MHD_YES;
	}
	if (*upload_size) {
		if (!rq->too_big && rq->len + *upload_size <= http.max_body) {
			char *nb =
				realloc(rq->body, rq->len + *upload_size + 1);

			if (!nb)
				return MHD_NO;
			rq->body = nb;
			memcpy(rq->body + rq->len, upload, *upload_size);
			rq->len += *upload_size;
		} else {
			/* over the bound: read on, keep nothing, up to a
			 * point */
			if (!rq->too_big) {
				free(rq->body);
				rq->body = NULL;
				rq->too_big = 1;
			}
			rq->len += *upload_size;
			if (rq->len > http.max_body + DRAIN_MAX)
				return MHD_NO;
		}
		*upload_size = 0;
		return MHD_YES;
	}
	if (rq->too_big)
		return reply_error(
			c, MHD_HTTP_CONTENT_TOO_LARGE, -32600,
			"Payload Too Large: a message may have at most %zu bytes",
			http.max_body);
	if (strcmp(method, "POST") == 0)
		return do_post(c, rq);
	if (strcmp(method, "GET") == 0)
		return do_get(c);
	return do_delete(c);
}

static void
completed(void *cls, struct MHD_Connection *c, void **con_cls,
	  enum MHD_RequestTerminationCode toe)
{
	struct req *rq = *con_cls;

	(void)cls;
	(void)c;
	(void)toe;
	if (rq) {
		free(rq->body);
		free(rq);
		*con_cls = NULL;
	}
}

static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	LOG_DEBUG("http: %s", msg);
}

/* ---- the user's directories --------------------------------------------- */

static const char *const user_dirs[] = { "XDG_CONFIG_HOME", "XDG_STATE_HOME",
					 NULL };

void
http_user_dirs(enum http_dirs phase)
{
	static char *saved[2];
	static int swapped;
	char name[64];

	if (phase == HTTP_DIRS_NONE)
		return;
	for (size_t i = 0; user_dirs[i]; i++) {
		const char *now = getenv(user_dirs[i]), *user;

		snprintf(name, sizeof(name), "CUA_MCP_USER_%s", user_dirs[i]);
		if (phase == HTTP_DIRS_USE && !getenv(HTTP_CHILD_ENV)) {
			/* the server: "" stands for unset */
			setenv(name, now ? now : "", 1);
		} else if (phase == HTTP_DIRS_USE) {
			user = getenv(name);
			if (!user)
				continue;
			saved[i] = now ? strdup(now) : NULL;
			if (*user)
				setenv(user_dirs[i], user, 1);
			else
				unsetenv(user_dirs[i]);
			unsetenv(name); /* not for the apps */
			swapped = 1;
		} else if (swapped) {
			if (saved[i])
				setenv(user_dirs[i], saved[i], 1);
			else
				unsetenv(user_dirs[i]);
			free(saved[i]);
			saved[i] = NULL;
		}
	}
}

/* ---- the listening address ---------------------------------------------- */

static int
parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *len,
	     int *loopback)
{
	char host[256];
	const char *colon = strrchr(spec, ':'), *h = spec;
	size_t hl;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV },
			*ai = NULL;
	int r;

	if (!colon || !colon[1]) {
		fprintf(stderr,
			"cua-mcp: --listen '%s': give HOST:PORT (for example 127.0.0.1:8765, [::1]:8765, or :0 for any free port on 127.0.0.1)\n",
			spec);
		return -1;
	}
	hl = (size_t)(colon - spec);
	if (hl >= 2 && spec[0] == '[' && spec[hl - 1] == ']') {
		h = spec + 1;
		hl -= 2;
	}
	if (hl >= sizeof(host))
		return -1;
	memcpy(host, h, hl);
	host[hl] = '\0';
	if (!*host)
		strcpy(host, "127.0.0.1");
	r = getaddrinfo(host, colon + 1, &hints, &ai);
	if (r != 0 || !ai) {
		fprintf(stderr, "cua-mcp: --listen '%s': %s\n", spec,
			gai_strerror(r));
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	if (ss->ss_family == AF_INET)
		*loopback =
			(ntohl(((struct sockaddr_in *)ss)->sin_addr.s_addr) >>
			 24) == 127;
	else
		*loopback = IN6_IS_ADDR_LOOPBACK(
			&((struct sockaddr_in6 *)ss)->sin6_addr);
	return 0;
}

int
http_run(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct hs_limits lim = {
		.max_sessions = mcp_opt.max_sessions,
		.idle_timeout = mcp_opt.session_timeout,
	};
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	char addr[INET6_ADDRSTRLEN];
	sigset_t set;
	int loopback, sig, fd;
	unsigned port;

	(void)argc;
	http.max_body = mcp_opt.max_request_bytes;
	/* the events kept for resumption: 256 MiB over all sessions, from
	 * 4 to 32 MiB each */
	lim.max_log_bytes = (256u << 20) / mcp_opt.max_sessions;
	if (lim.max_log_bytes < (4u << 20))
		lim.max_log_bytes = 4u << 20;
	if (lim.max_log_bytes > (32u << 20))
		lim.max_log_bytes = 32u << 20;
	if (parse_listen(mcp_opt.listen, &ss, &sslen, &loopback) < 0 ||
	    load_token(mcp_opt.token_file) < 0)
		return 1;
	if (!loopback)
		LOG_WARN(
			"listening on a non-loopback address: the token protects the server, but HTTP is plain text; put a TLS reverse proxy in front (docs/remote.md)");

	/* SIGUSR1, the person's stop, is passed on to every session's
	 * process */
	rpc_block_signals(&set);
	slots.limit = (unsigned)(mcp_opt.max_sessions * 4 + 8);
	if (hs_init(&lim, argv) < 0) {
		fprintf(stderr, "cua-mcp: cannot start the session reaper\n");
		return 1;
	}
	d = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD |
			MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG |
			(ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
		0, NULL, NULL, handle, NULL, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT,
		2 * slots.limit, MHD_OPTION_NOTIFY_CONNECTION,
		notify_connection, NULL, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)60, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536,
		MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
		MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_END);
	if (!d) {
		fprintf(stderr,
			"cua-mcp: --listen %s: cannot listen there (%s)\n",
			mcp_opt.listen, strerror(errno));
		hs_shutdown();
		return 1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_LISTEN_FD);
	fd = info ? info->listen_fd : -1;
	sslen = sizeof(ss);
	if (fd < 0 || getsockname(fd, (struct sockaddr *)&ss, &sslen) < 0) {
		fprintf(stderr, "cua-mcp: cannot read the listening address\n");
		MHD_stop_daemon(d);
		hs_shutdown();
		return 1;
	}
	if (ss.ss_family == AF_INET) {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, addr,
			  sizeof(addr));
		port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		fprintf(stderr,
			"cua-mcp: listening on http://%s:%u" ENDPOINT "\n",
			addr, port);
	} else {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
			  addr, sizeof(addr));
		port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
		fprintf(stderr,
			"cua-mcp: listening on http://[%s]:%u" ENDPOINT "\n",
			addr, port);
	}
	fflush(stderr);
	if (servers_register(getenv("DISPLAY")) < 0)
		LOG_WARN("cannot register for `cua stop`: %s", strerror(errno));

	for (;;) {
		if (sigwait(&set, &sig) != 0)
			continue;
		if (sig != SIGUSR1)
			break;
		LOG_INFO("stopped by the user (cua stop): %u session(s)",
			 hs_signal(SIGUSR1));
	}
	servers_unregister();
	LOG_INFO("stopping on signal %d", sig);
	/* the sessions first: their readers see the end and return, so
	 * that the connection threads MHD joins finish */
	hs_shutdown();
	MHD_stop_daemon(d);
	desktop_env_teardown();
	return 0;
}
