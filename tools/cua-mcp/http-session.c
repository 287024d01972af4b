/*
 * cua-mcp over HTTP: the sessions (http.h). Each one is a child cua-mcp on
 * stdio, an event log of what it wrote and the streams those events belong
 * to.
 *
 * Locks: `reg.lock` (the session list) before a session's `lock`; a
 * session's `write_lock` (the child's input) alone.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "mcp.h"

extern char **environ;

/* The longest line a child may write (its results stay under 8 MiB). */
#define MAX_CHILD_LINE (64u << 20)
/* Keep-alive comments on idle event streams, in seconds. */
#define KEEPALIVE_S 15
/* How long a JSON response may take before the client gets an error. */
#define JSON_WAIT_S 600
/* Streams kept per session (ended ones are dropped first). */
#define MAX_STREAMS 256
/* How long a session process may leave its input full. */
#define WRITE_WAIT_MS 10000
/* A terminated child gets SIGKILL after this long. */
#define KILL_AFTER_S 8

struct hevent {
	uint64_t seq;
	unsigned long stream;
	char *frame; /* "id: S-N\nevent: message\ndata: JSON\n\n" */
	size_t len;
	size_t json_off; /* the JSON inside frame */
	size_t json_len;
	int response; /* ends its stream */
	struct hevent *next;
};

struct hstream {
	unsigned long no;
	char *key;      /* the request id (compact JSON); NULL: standalone */
	char *progress; /* its progress token (compact JSON) or NULL */
	int tools_call;
	int initialize;
	int json;      /* answered as application/json: no events */
	int done;      /* its response is in the log */
	int cancelled; /* the client cancelled it: no response will come */
	int attached;  /* a connection reads it */
	unsigned gen;  /* which one: a resumption takes a stream over */
	uint64_t sent; /* the last event handed to a connection */
	struct hstream *next;
};

struct hsession {
	char id[33];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int refs;
	int ended; /* terminated, or the child went away */
	pid_t pid;
	time_t ended_at;
	int to_child;
	int from_child;
	pthread_mutex_t write_lock;
	char version[32];
	time_t last_active;
	struct hevent *events, **events_tail;
	size_t log_bytes;
	uint64_t next_seq;
	struct hstream *streams;
	unsigned long next_stream;
	struct hsession *next;
	struct hsession *idle_next; /* the reaper's list */
};

struct hs_reader {
	struct hsession *s;
	struct hstream *st;
	uint64_t pos; /* last event fully written */
	size_t off;   /* bytes of event pos+… already written */
	uint64_t cur; /* the event being written (0: none) */
	int json;
	int fd;
	unsigned gen;
	int primed;
	char prime[64];
	size_t prime_len, prime_off;
	time_t since;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct hsession *list;
	struct hs_limits lim;
	char **argv;
	char **envp;
	atomic_uint live; /* sessions not ended */
	int stopping;
	pthread_t reaper;
	int reaper_started;
} reg = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

/* ---- helpers ------------------------------------------------------------ */

static void
cond_wait_s(pthread_cond_t *c, pthread_mutex_t *m, int seconds)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += seconds;
	pthread_cond_timedwait(c, m, &ts);
}

static void
cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
}

static time_t
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int
random_hex(char *out, size_t bytes)
{
	unsigned char b[32];

	if (bytes > sizeof(b) || getrandom(b, bytes, 0) != (ssize_t)bytes)
		return -1;
	for (size_t i = 0; i < bytes; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	return 0;
}

static char *
compact(json_t *v)
{
	return v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

/* ---- streams and events (session lock held) ----------------------------- */

static struct hstream *
stream_find(struct hsession *s, unsigned long no)
{
	for (struct hstream *st = s->streams; st; st = st->next)
		if (st->no == no)
			return st;
	return NULL;
}

static void
stream_free(struct hstream *st)
{
	free(st->key);
	free(st->progress);
	free(st);
}

/* Drops ended, unread streams beyond MAX_STREAMS, oldest first. */
static void
streams_trim(struct hsession *s)
{
	size_t n = 0;

	for (struct hstream *st = s->streams; st; st = st->next)
		n++;
	for (struct hstream **p = &s->streams; *p && n > MAX_STREAMS;) {
		struct hstream *st = *p;

		if (st->key && st->done && !st->attached) {
			*p = st->next;
			stream_free(st);
			n--;
		} else {
			p = &st->next;
		}
	}
}

/* Keeps the log under its byte bound: events already handed out go first,
 * then the oldest. */
static void
log_trim(struct hsession *s)
{
	for (int pass = 0; pass < 2 && s->log_bytes > reg.lim.max_log_bytes;
	     pass++) {
		struct hevent **p = &s->events;

		while (*p && s->log_bytes > reg.lim.max_log_bytes) {
			struct hevent *e = *p;
			struct hstream *st = stream_find(s, e->stream);

			if (pass == 0 && st && e->seq > st->sent) {
				p = &e->next;
				continue;
			}
			*p = e->next;
			s->log_bytes -= e->len;
			free(e->frame);
			free(e);
		}
		s->events_tail = &s->events;
		while (*s->events_tail)
			s->events_tail = &(*s->events_tail)->next;
	}
}

static void
log_drop(struct hsession *s, struct hevent *gone)
{
	for (struct hevent **p = &s->events; *p; p = &(*p)->next)
		if (*p == gone) {
			*p = gone->next;
			if (s->events_tail == &gone->next)
				s->events_tail = p;
			s->log_bytes -= gone->len;
			free(gone->frame);
			free(gone);
			return;
		}
}

static void
log_add(struct hsession *s, struct hstream *st, const char *json, size_t len,
	int response)
{
	struct hevent *e = calloc(1, sizeof(*e));
	char head[64];
	int hl;

	if (!e)
		return;
	e->seq = ++s->next_seq;
	e->stream = st->no;
	e->response = response;
	hl = snprintf(head, sizeof(head),
		      "id: %lu-%" PRIu64 "\nevent: message\ndata: ", st->no,
		      e->seq);
	e->len = (size_t)hl + len + 2;
	e->frame = malloc(e->len + 1);
	if (!e->frame) {
		free(e);
		return;
	}
	memcpy(e->frame, head, (size_t)hl);
	memcpy(e->frame + hl, json, len);
	memcpy(e->frame + hl + len, "\n\n", 3);
	e->json_off = (size_t)hl;
	e->json_len = len;
	*s->events_tail = e;
	s->events_tail = &e->next;
	s->log_bytes += e->len;
	if (response)
		st->done = 1;
	log_trim(s);
	pthread_cond_broadcast(&s->cond);
}

/* The stream a server message belongs to: the request it answers, the
 * request whose progress it reports, the tools/call running (the child
 * runs them one at a time, in order), else the standalone stream. */
static struct hstream *
route(struct hsession *s, json_t *msg, int *response)
{
	json_t *id = json_object_get(msg, "id");
	const char *method = json_string_value(json_object_get(msg, "method"));
	struct hstream *st, *standalone = NULL;
	char *key = NULL;

	*response = 0;
	if (!method && id) {
		key = compact(id);
		for (st = s->streams; st && key; st = st->next)
			if (st->key && !st->done && strcmp(st->key, key) == 0)
				break;
		free(key);
		*response = st != NULL;
		if (st)
			return st;
	}
	if (method && strcmp(method, "notifications/progress") == 0) {
		key = compact(json_object_get(json_object_get(msg, "params"),
					      "progressToken"));
		for (st = s->streams; st && key; st = st->next)
			if (st->progress && !st->done && !st->json &&
			    strcmp(st->progress, key) == 0)
				break;
		free(key);
		if (st)
			return st;
	}
	for (st = s->streams; st; st = st->next) {
		if (!st->key)
			standalone = st;
		else if (st->tools_call && !st->done && !st->json)
			return st;
	}
	return standalone;
}

/* Ends a request's stream with a JSON-RPC error in place of the
 * response that will not come. */
static void
stream_fail(struct hsession *s, struct hstream *st, const char *message)
{
	json_t *id = json_loads(st->key, JSON_DECODE_ANY, NULL);
	json_t *m = json_pack("{s:s,s:o,s:{s:i,s:s}}", "jsonrpc", "2.0", "id",
			      id ? id : json_null(), "error", "code", -32603,
			      "message", message);
	char *text = compact(m);

	if (text)
		log_add(s, st, text, strlen(text), 1);
	free(text);
	json_decref(m);
}

/* ---- the child ---------------------------------------------------------- */

static void
session_end_locked(struct hsession *s)
{
	if (!s->ended) {
		s->ended = 1;
		s->ended_at = now_s();
		atomic_fetch_sub(&reg.live, 1);
		for (struct hstream *st = s->streams; st; st = st->next)
			if (st->key && !st->done && !st->cancelled)
				stream_fail(
					s, st,
					"the MCP session ended before this request was answered; start a new session (initialize)");
	}
	pthread_cond_broadcast(&s->cond);
}

/* One line from the child. */
static void
child_line(struct hsession *s, const char *line, size_t len)
{
	json_error_t err;
	json_t *msg = json_loadb(line, len, 0, &err);
	struct hstream *st;
	int response, failed_init = 0;

	if (!json_is_object(msg)) {
		LOG_WARN(
			"http session %.8s: the session process wrote a line that is not a message",
			s->id);
		json_decref(msg);
		return;
	}
	pthread_mutex_lock(&s->lock);
	st = route(s, msg, &response);
	if (response && st->initialize) {
		const char *v = json_string_value(json_object_get(
			json_object_get(msg, "result"), "protocolVersion"));

		if (v)
			snprintf(s->version, sizeof(s->version), "%s", v);
		else
			failed_init = 1;
	}
	if (st)
		log_add(s, st, line, len, response);
	pthread_mutex_unlock(&s->lock);
	json_decref(msg);
	/* an initialize that failed leaves no session (its answer is
	 * delivered all the same) */
	if (failed_init)
		hs_terminate(s);
}

static void *
child_reader(void *data)
{
	struct hsession *s = data;
	size_t cap = 65536, used = 0, start = 0;
	char *buf = malloc(cap);
	int status;

	while (buf) {
		ssize_t n;
		char *nl;

		if (used == cap) {
			char *nb;

			if (cap >= MAX_CHILD_LINE) {
				LOG_WARN(
					"http session %.8s: a message over %u bytes; ending the session",
					s->id, MAX_CHILD_LINE);
				break;
			}
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(s->from_child, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		while ((nl = memchr(buf + start, '\n', used - start))) {
			child_line(s, buf + start,
				   (size_t)(nl - (buf + start)));
			start = (size_t)(nl - buf) + 1;
		}
		memmove(buf, buf + start, used - start);
		used -= start;
		start = 0;
	}
	free(buf);
	/* the child exits once its input closed; the reaper kills one that
	 * does not */
	hs_terminate(s);
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	LOG_INFO("http session %.8s ended", s->id);
	pthread_mutex_lock(&reg.lock);
	for (struct hsession **p = &reg.list; *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
	pthread_cond_broadcast(&reg.cond);
	pthread_mutex_unlock(&reg.lock);
	hs_unref(s); /* the registry's */
	hs_unref(s); /* this thread's */
	return NULL;
}

static int
spawn_child(struct hsession *s)
{
	int in[2], out[2];
	posix_spawn_file_actions_t fa;
	int r;

	if (pipe2(in, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	r = posix_spawn(&s->pid, "/proc/self/exe", &fa, NULL, reg.argv,
			reg.envp);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	if (r != 0) {
		LOG_ERROR("cannot start a session process: %s", strerror(r));
		close(in[1]);
		close(out[0]);
		return -1;
	}
	s->to_child = in[1];
	s->from_child = out[0];
	fcntl(s->to_child, F_SETFL, fcntl(s->to_child, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* ---- the registry ------------------------------------------------------- */

static void *
reaper_main(void *data)
{
	(void)data;
	pthread_mutex_lock(&reg.lock);
	while (!reg.stopping) {
		time_t t = now_s();

		struct hsession *idle_list = NULL;

		for (struct hsession *s = reg.list; s; s = s->next) {
			int idle, kill_it;

			pthread_mutex_lock(&s->lock);
			idle = !s->ended &&
			       t - s->last_active >
				       (time_t)reg.lim.idle_timeout;
			for (struct hstream *st = s->streams; st && idle;
			     st = st->next)
				if (st->attached)
					idle = 0;
			kill_it = s->ended && t - s->ended_at > KILL_AFTER_S;
			if (idle) {
				s->refs++;
				s->idle_next = idle_list;
				idle_list = s;
			}
			pthread_mutex_unlock(&s->lock);
			if (kill_it)
				kill(s->pid, SIGKILL);
		}
		/* ended without the list's lock: a session process that
		 * reads nothing must not hold up the others */
		pthread_mutex_unlock(&reg.lock);
		while (idle_list) {
			struct hsession *s = idle_list;

			idle_list = s->idle_next;
			LOG_INFO("http session %.8s: idle for %u s; ending it",
				 s->id, reg.lim.idle_timeout);
			hs_terminate(s);
			hs_unref(s);
		}
		pthread_mutex_lock(&reg.lock);
		cond_wait_s(&reg.cond, &reg.lock, 1);
	}
	pthread_mutex_unlock(&reg.lock);
	return NULL;
}

int
hs_init(const struct hs_limits *limits, char **argv)
{
	static char child_env[] = HTTP_CHILD_ENV "=1";
	size_t n = 0;

	reg.lim = *limits;
	reg.argv = argv;
	while (environ[n])
		n++;
	reg.envp = calloc(n + 2, sizeof(char *));
	if (!reg.envp)
		return -1;
	memcpy(reg.envp, environ, n * sizeof(char *));
	reg.envp[n] = child_env;
	cond_init_monotonic(&reg.cond);
	if (pthread_create(&reg.reaper, NULL, reaper_main, NULL) != 0)
		return -1;
	reg.reaper_started = 1;
	return 0;
}

struct hsession *
hs_create(int *full)
{
	struct hsession *s;
	struct hstream *standalone;
	pthread_t t;

	*full = 0;
	pthread_mutex_lock(&reg.lock);
	if (reg.stopping || atomic_load(&reg.live) >= reg.lim.max_sessions) {
		*full = !reg.stopping;
		pthread_mutex_unlock(&reg.lock);
		return NULL;
	}
	atomic_fetch_add(&reg.live, 1);
	pthread_mutex_unlock(&reg.lock);

	s = calloc(1, sizeof(*s));
	standalone = calloc(1, sizeof(*standalone));
	if (!s || !standalone || random_hex(s->id, 16) < 0)
		goto fail;
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->write_lock, NULL);
	cond_init_monotonic(&s->cond);
	s->events_tail = &s->events;
	s->streams = standalone;
	s->next_stream = 1;
	s->last_active = now_s();
	s->to_child = s->from_child = -1;
	if (spawn_child(s) < 0)
		goto fail;
	s->refs = 3; /* the registry, the reader thread, the caller */
	if (pthread_create(&t, NULL, child_reader, s) != 0) {
		close(s->to_child);
		close(s->from_child);
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
		goto fail;
	}
	pthread_detach(t);
	pthread_mutex_lock(&reg.lock);
	s->next = reg.list;
	reg.list = s;
	pthread_mutex_unlock(&reg.lock);
	LOG_INFO("http session %.8s started (process %d)", s->id, (int)s->pid);
	return s;
fail:
	free(standalone);
	free(s);
	atomic_fetch_sub(&reg.live, 1);
	return NULL;
}

struct hsession *
hs_find(const char *id)
{
	struct hsession *s;

	pthread_mutex_lock(&reg.lock);
	for (s = reg.list; s; s = s->next)
		if (strcmp(s->id, id) == 0)
			break;
	if (s) {
		pthread_mutex_lock(&s->lock);
		if (s->ended) {
			pthread_mutex_unlock(&s->lock);
			s = NULL;
		} else {
			s->refs++;
			s->last_active = now_s();
			pthread_mutex_unlock(&s->lock);
		}
	}
	pthread_mutex_unlock(&reg.lock);
	return s;
}

void
hs_unref(struct hsession *s)
{
	int last;

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	last = --s->refs == 0;
	pthread_mutex_unlock(&s->lock);
	if (!last)
		return;
	while (s->events) {
		struct hevent *e = s->events;

		s->events = e->next;
		free(e->frame);
		free(e);
	}
	while (s->streams) {
		struct hstream *st = s->streams;

		s->streams = st->next;
		stream_free(st);
	}
	if (s->to_child >= 0)
		close(s->to_child);
	if (s->from_child >= 0)
		close(s->from_child);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->write_lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}

void
hs_terminate(struct hsession *s)
{
	pthread_mutex_lock(&s->write_lock);
	pthread_mutex_lock(&s->lock);
	if (s->to_child >= 0) {
		close(s->to_child);
		s->to_child = -1;
	}
	session_end_locked(s);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->write_lock);
}

void
hs_shutdown(void)
{
	time_t until = now_s() + KILL_AFTER_S + 3;

	/* the children stop between steps once their input closes; the
	 * reaper kills those that do not */
	pthread_mutex_lock(&reg.lock);
	for (struct hsession *s = reg.list; s; s = s->next)
		hs_terminate(s);
	while (reg.list && now_s() < until)
		cond_wait_s(&reg.cond, &reg.lock, 1);
	reg.stopping = 1;
	pthread_cond_broadcast(&reg.cond);
	pthread_mutex_unlock(&reg.lock);
	if (reg.reaper_started)
		pthread_join(reg.reaper, NULL);
	reg.reaper_started = 0;
	free(reg.envp);
	reg.envp = NULL;
}

unsigned
hs_signal(int sig)
{
	unsigned n = 0;

	pthread_mutex_lock(&reg.lock);
	for (struct hsession *s = reg.list; s; s = s->next) {
		pthread_mutex_lock(&s->lock);
		if (!s->ended && s->pid > 0 && kill(s->pid, sig) == 0)
			n++;
		pthread_mutex_unlock(&s->lock);
	}
	pthread_mutex_unlock(&reg.lock);
	return n;
}

const char *
hs_id(const struct hsession *s)
{
	return s->id;
}

void
hs_version(struct hsession *s, char *buf, size_t size)
{
	pthread_mutex_lock(&s->lock);
	snprintf(buf, size, "%s", s->version);
	pthread_mutex_unlock(&s->lock);
}

long
hs_open_request(struct hsession *s, const char *key, const char *progress,
		int tools_call, int initialize, int json)
{
	struct hstream *st, **tail;
	long no;

	pthread_mutex_lock(&s->lock);
	if (s->ended) {
		pthread_mutex_unlock(&s->lock);
		return -1;
	}
	for (tail = &s->streams; *tail; tail = &(*tail)->next)
		if ((*tail)->key && !(*tail)->done &&
		    strcmp((*tail)->key, key) == 0) {
			pthread_mutex_unlock(&s->lock);
			return 0;
		}
	st = calloc(1, sizeof(*st));
	if (!st || !(st->key = strdup(key)) ||
	    (progress && !(st->progress = strdup(progress)))) {
		if (st)
			stream_free(st);
		pthread_mutex_unlock(&s->lock);
		return -1;
	}
	st->no = s->next_stream++;
	st->tools_call = tools_call;
	st->initialize = initialize;
	st->json = json;
	*tail = st;
	no = (long)st->no;
	s->last_active = now_s();
	streams_trim(s);
	pthread_mutex_unlock(&s->lock);
	return no;
}

/* Writes all of buf to the non-blocking fd, waiting at most
 * WRITE_WAIT_MS for room each time; 0 or -1 (*stuck: timed out). */
static int
write_within(int fd, const char *buf, size_t len, int *stuck)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		struct pollfd p = { .fd = fd, .events = POLLOUT };

		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			return -1;
		if (poll(&p, 1, WRITE_WAIT_MS) == 0) {
			*stuck = 1;
			return -1;
		}
	}
	return 0;
}

int
hs_send(struct hsession *s, const char *text, size_t len)
{
	int r = -1;

	int stuck = 0;

	pthread_mutex_lock(&s->write_lock);
	if (s->to_child >= 0) {
		char *line = malloc(len + 1);

		if (line) {
			memcpy(line, text, len);
			line[len] = '\n';
			r = write_within(s->to_child, line, len + 1, &stuck);
			free(line);
		}
	}
	pthread_mutex_unlock(&s->write_lock);
	if (stuck) {
		LOG_WARN(
			"http session %.8s: the session process reads no input; ending the session",
			s->id);
		hs_terminate(s);
	}
	return r;
}

void
hs_cancelled(struct hsession *s, const char *key)
{
	pthread_mutex_lock(&s->lock);
	for (struct hstream *st = s->streams; st; st = st->next)
		if (st->key && !st->done && strcmp(st->key, key) == 0)
			st->cancelled = 1;
	pthread_mutex_unlock(&s->lock);
}

/* ---- readers ------------------------------------------------------------ */

int
hs_parse_event_id(const char *text, unsigned long *stream, uint64_t *seq)
{
	char *end;

	if (!text || *text < '0' || *text > '9')
		return -1;
	errno = 0;
	*stream = strtoul(text, &end, 10);
	if (errno || *end != '-' || end[1] < '0' || end[1] > '9')
		return -1;
	*seq = strtoull(end + 1, &end, 10);
	return errno || *end ? -1 : 0;
}

enum hs_attach
hs_attach(struct hsession *s, unsigned long stream, uint64_t after, int resume,
	  int json, int fd, struct hs_reader **out)
{
	struct hs_reader *r;
	struct hstream *st;

	pthread_mutex_lock(&s->lock);
	st = stream_find(s, stream);
	if (!st) {
		pthread_mutex_unlock(&s->lock);
		return HS_NO_STREAM;
	}
	/* a client resuming (Last-Event-ID) lost its connection, even if
	 * this end has not noticed yet: the old reader gives way */
	if (st->attached && !resume) {
		pthread_mutex_unlock(&s->lock);
		return HS_BUSY;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		pthread_mutex_unlock(&s->lock);
		return HS_NO_STREAM;
	}
	st->attached = 1;
	r->gen = ++st->gen;
	pthread_cond_broadcast(&s->cond);
	s->refs++;
	r->s = s;
	r->st = st;
	r->json = json;
	r->fd = fd;
	r->since = now_s();
	r->pos = resume ? after : st->sent;
	/* a primer: the event id to resume from, and how soon to retry
	 * (2025-11-25 and later) */
	if (!json && strcmp(s->version, "2025-11-25") >= 0) {
		r->prime_len = (size_t)snprintf(r->prime, sizeof(r->prime),
						"id: %lu-%" PRIu64
						"\nretry: 500\ndata: \n\n",
						st->no, r->pos);
	} else {
		r->primed = 1;
	}
	pthread_mutex_unlock(&s->lock);
	*out = r;
	return HS_ATTACHED;
}

static struct hevent *
next_event(struct hs_reader *r)
{
	for (struct hevent *e = r->s->events; e; e = e->next)
		if (e->stream == r->st->no && e->seq > r->pos)
			return e;
	return NULL;
}

static int
peer_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };

	return fd >= 0 && poll(&p, 1, 0) > 0 &&
	       (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

ssize_t
hs_read(void *data, uint64_t pos, char *buf, size_t max)
{
	struct hs_reader *r = data;
	struct hsession *s = r->s;
	ssize_t n = -1; /* MHD_CONTENT_READER_END_OF_STREAM */
	int waited = 0;

	(void)pos;
	if (!r->primed) {
		size_t k = r->prime_len - r->prime_off;

		if (k > max)
			k = max;
		memcpy(buf, r->prime + r->prime_off, k);
		r->prime_off += k;
		r->primed = r->prime_off == r->prime_len;
		return (ssize_t)k;
	}
	pthread_mutex_lock(&s->lock);
	for (;;) {
		struct hevent *e;

		if (r->gen != r->st->gen)
			break; /* taken over */
		e = next_event(r);

		if (e && (!r->json || e->response)) {
			const char *src =
				r->json ? e->frame + e->json_off : e->frame;
			size_t total = r->json ? e->json_len : e->len, k;

			if (r->cur != e->seq) {
				r->cur = e->seq;
				r->off = 0;
			}
			k = total - r->off;
			if (k > max)
				k = max;
			memcpy(buf, src + r->off, k);
			r->off += k;
			if (r->off == total) {
				r->pos = e->seq;
				r->cur = 0;
				if (e->seq > r->st->sent)
					r->st->sent = e->seq;
				/* a JSON response cannot be asked for again */
				if (r->json)
					log_drop(s, e);
			}
			s->last_active = now_s();
			n = (ssize_t)k;
			break;
		}
		if (e) { /* a JSON reader skips what is not the response */
			r->pos = e->seq;
			continue;
		}
		if (r->cur) { /* the event being written was dropped */
			n = -2;
			break;
		}
		if (r->st->done || s->ended || peer_gone(r->fd))
			break;
		if (r->json && now_s() - r->since > JSON_WAIT_S) {
			LOG_WARN("http session %.8s: no response within %d s",
				 s->id, JSON_WAIT_S);
			stream_fail(
				s, r->st,
				"no response within the time limit; ask again, or accept text/event-stream for long calls");
			continue;
		}
		if (!r->json && waited >= KEEPALIVE_S) {
			static const char ka[] = ": keep-alive\n\n";

			if (max >= sizeof(ka) - 1) {
				memcpy(buf, ka, sizeof(ka) - 1);
				n = sizeof(ka) - 1;
				break;
			}
		}
		cond_wait_s(&s->cond, &s->lock, 1);
		waited++;
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}

void
hs_reader_free(void *data)
{
	struct hs_reader *r = data;

	if (!r)
		return;
	pthread_mutex_lock(&r->s->lock);
	if (r->gen == r->st->gen)
		r->st->attached = 0;
	r->s->last_active = now_s();
	pthread_mutex_unlock(&r->s->lock);
	hs_unref(r->s);
	free(r);
}
