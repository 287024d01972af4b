/*
 * Pipelined D-Bus calls on GDBus (atspi.h, "dbus.c").
 *
 * A batch keeps up to max_in_flight method calls outstanding on the
 * accessibility bus and queues the rest. Every call carries the batch's
 * per-call timeout. A batch deadline bounds dbatch_run(): when it passes,
 * what is pending is given up and dbatch_run() returns -1. So a stopped or
 * hung app costs at most the deadline, and a single call at most its
 * timeout. dbatch_cancel() gives up the same way from inside a callback
 * (the reader calls it when an app has stopped answering).
 *
 * Replies do not take GDBus's way back (one task and one idle source on
 * the caller's context per reply, and a wake-up of the calling thread for
 * each): a filter on the connection (struct dwire) takes the replies to
 * the calls it knows by serial, in GDBus's worker thread, queues them and
 * wakes the backend's context (be->mc) once for all that arrive until the
 * batch takes them. The calling thread then decodes them and runs the
 * callbacks in one go. Reading a tree costs about half the CPU time that
 * way (the replies of a walk come in bursts). Timeouts and a connection
 * that closes are the batch's to notice: it fails the calls concerned
 * itself, with G_IO_ERROR_TIMED_OUT and G_IO_ERROR_CLOSED as GDBus would.
 *
 * Calls to an app whose own socket the backend is connected to
 * (atspi_peer_get) go there instead of over the bus, as libatspi does for
 * ATK-bridge apps; that spares the bus daemon two hops per call. That
 * connection is not GDBus's but peer.c's, driven from dbatch_run()
 * itself: the calls queued meanwhile are written in one go, and the
 * answers read in one go, without a thread in between. The backend keeps
 * these connections for the next reads (PEERS_MAX of them, the least
 * recently used going first) until the app closes them. Press actions
 * go over connections of their own, held while their handlers run
 * (held.c).
 *
 * Memory: a call in flight holds a reference on its batch; a batch is
 * stopped before it is freed, which takes its calls back from the
 * connections' filters.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <poll.h>
#include <string.h>

#include <gio/gio.h>

#include "atspi.h"
#include "connect.h"
#include "dbus_int.h"
#include "peer.h"

#define DBATCH_DEFAULT_IN_FLIGHT 256

/* The replies of one connection, shared by every batch that uses it
 * (object data of the connection). `lock` guards pending and done: the
 * filter runs in GDBus's worker thread. */
struct dwire {
	gint refs; /* the connection's data, and its filter */
	GMutex lock;
	GHashTable *pending; /* serial -> struct dcall, sent, not answered */
	GQueue done;         /* struct dcall, answered, not taken yet */
	int woken;           /* be->mc was woken for what is in done */
	GMainContext *mc;
};

struct dcall {
	struct dbatch *batch;
	GDBusConnection *conn; /* borrowed from the backend, or NULL: */
	struct rawconn *raw;   /* the app's own socket (a batch's ref) */
	struct dwire *wire;
	GDBusMessage *msg;
	GVariantType *reply_type; /* NULL: any */
	dbatch_cb cb;
	void *data;
	guint32 serial;
	int64_t sent_us;
	GDBusMessage *reply; /* the answer, from the filter */
	GError *error;       /* or why there is none */
	GList link;          /* in batch->in_flight_list, oldest first */
};

struct dbatch {
	struct atspi_be *be;
	int timeout_ms;
	unsigned int max_in_flight;
	int64_t deadline_us; /* 0: none */
	GQueue queue;        /* struct dcall, not sent yet */
	GQueue sent;         /* struct dcall, in flight (links) */
	unsigned int in_flight;
	uint64_t calls;
	uint64_t errors;
	unsigned int refs;   /* the owner, plus one per call in flight */
	int stopped;         /* no more sends, no more callbacks */
	GPtrArray *raws;     /* struct braw: the apps' sockets used */
	GQueue failed;       /* struct dcall, not sent: answered next */
	struct rawconn *own; /* a connection of the batch's own, used for
			      * every call instead of the kept one */
};

/* A batch's use of one. */
struct braw {
	struct rawconn *rc;
	gpointer tag; /* its descriptor in dbatch_run()'s source */
};

struct rawconn *
dbus_rawconn_new(struct peer *peer)
{
	struct rawconn *rc = g_new0(struct rawconn, 1);

	rc->refs = 1;
	rc->peer = peer;
	rc->pending = g_hash_table_new(NULL, NULL);
	return rc;
}

void
dbus_rawconn_unref(struct rawconn *rc)
{
	if (!rc || --rc->refs > 0)
		return;
	/* batches take their calls back before they go */
	peer_free(rc->peer);
	g_hash_table_destroy(rc->pending);
	g_free(rc);
}

static void
braw_free(gpointer data)
{
	struct braw *r = data;

	dbus_rawconn_unref(r->rc);
	g_free(r);
}

static void
dcall_free(struct dcall *c)
{
	if (c->msg)
		g_object_unref(c->msg);
	if (c->reply)
		g_object_unref(c->reply);
	g_clear_error(&c->error);
	if (c->reply_type)
		g_variant_type_free(c->reply_type);
	g_free(c);
}

static void
dbatch_unref(struct dbatch *b)
{
	struct dcall *c;

	if (--b->refs > 0)
		return;
	while ((c = g_queue_pop_head(&b->queue)))
		dcall_free(c);
	g_ptr_array_unref(b->raws);
	dbus_rawconn_unref(b->own);
	g_free(b);
}

/* ------------------------------------------------------------------ */
/* The connections' reply filters                                      */

static void
wire_unref(gpointer data)
{
	struct dwire *w = data;

	if (!g_atomic_int_dec_and_test(&w->refs))
		return;
	/* batches take their calls back before they go, so nothing is
	 * pending or done here any more */
	g_hash_table_destroy(w->pending);
	g_mutex_clear(&w->lock);
	g_main_context_unref(w->mc);
	g_free(w);
}

/* GDBus's worker thread: every message that arrives. */
static GDBusMessage *
on_filter(GDBusConnection *conn, GDBusMessage *msg, gboolean incoming,
	  gpointer data)
{
	struct dwire *w = data;
	GDBusMessageType type;
	struct dcall *c;
	guint32 serial;
	int wake = 0;

	(void)conn;
	if (!incoming)
		return msg;
	type = g_dbus_message_get_message_type(msg);
	if (type != G_DBUS_MESSAGE_TYPE_METHOD_RETURN &&
	    type != G_DBUS_MESSAGE_TYPE_ERROR)
		return msg;
	serial = g_dbus_message_get_reply_serial(msg);
	g_mutex_lock(&w->lock);
	c = g_hash_table_lookup(w->pending, GUINT_TO_POINTER(serial));
	if (c) {
		g_hash_table_remove(w->pending, GUINT_TO_POINTER(serial));
		c->reply = msg; /* ours now */
		g_queue_push_tail(&w->done, c);
		wake = !w->woken;
		w->woken = 1;
	}
	g_mutex_unlock(&w->lock);
	if (wake)
		g_main_context_wakeup(w->mc);
	return c ? NULL : msg;
}

static struct dwire *
wire_of(GDBusConnection *conn, GMainContext *mc)
{
	struct dwire *w = g_object_get_data(G_OBJECT(conn), "cua-dwire");

	if (w)
		return w;
	w = g_new0(struct dwire, 1);
	w->refs = 2;
	g_mutex_init(&w->lock);
	w->pending = g_hash_table_new(NULL, NULL);
	g_queue_init(&w->done);
	w->mc = g_main_context_ref(mc);
	g_dbus_connection_add_filter(conn, on_filter, w, wire_unref);
	g_object_set_data_full(G_OBJECT(conn), "cua-dwire", w, wire_unref);
	return w;
}

/* Takes a call back from its connection's filter: 1 when it was still
 * unanswered (the caller owns it now), 0 when its answer is in `done`. */
static int
wire_take_back(struct dcall *c)
{
	int had;

	if (c->raw)
		return g_hash_table_remove(c->raw->pending,
					   GUINT_TO_POINTER(c->serial));
	if (!c->wire)
		return 0; /* not sent: in batch->failed */
	g_mutex_lock(&c->wire->lock);
	had = g_hash_table_remove(c->wire->pending,
				  GUINT_TO_POINTER(c->serial));
	g_mutex_unlock(&c->wire->lock);
	return had;
}

/* ------------------------------------------------------------------ */
/* Calls                                                               */

static void
dcall_send(struct dcall *c)
{
	struct dbatch *b = c->batch;
	GError *error = NULL;
	guint32 serial = 0;

	b->in_flight++;
	b->refs++;
	b->calls++;
	c->link.data = c;
	g_queue_push_tail_link(&b->sent, &c->link);
	c->sent_us = cua_now_us();
	if (c->raw || !c->conn) {
		if (c->raw)
			c->serial = peer_send(c->raw->peer, c->msg, &error);
		else
			error = g_error_new_literal(G_IO_ERROR,
						    G_IO_ERROR_CLOSED,
						    "no connection to the bus");
		if (c->serial) {
			g_hash_table_insert(c->raw->pending,
					    GUINT_TO_POINTER(c->serial), c);
		} else {
			/* answered at the next turn, as a reply would be */
			c->error = error;
			g_queue_push_tail(&b->failed, c);
		}
		return;
	}
	c->wire = wire_of(c->conn, b->be->mc);
	/* registered before the filter can see the answer */
	g_mutex_lock(&c->wire->lock);
	if (g_dbus_connection_send_message(c->conn, c->msg,
					   G_DBUS_SEND_MESSAGE_FLAGS_NONE,
					   &serial, &error)) {
		c->serial = serial;
		g_hash_table_insert(c->wire->pending, GUINT_TO_POINTER(serial),
				    c);
	} else {
		/* answered at the next turn, as a reply would be */
		c->error = error;
		g_queue_push_tail(&c->wire->done, c);
		c->wire->woken = 1;
		g_main_context_wakeup(c->wire->mc);
	}
	g_mutex_unlock(&c->wire->lock);
}

/* Sends queued calls while there is room. */
static void
pump(struct dbatch *b)
{
	struct dcall *c;

	while (!b->stopped && b->in_flight < b->max_in_flight &&
	       (c = g_queue_pop_head(&b->queue)))
		dcall_send(c);
}

/* A call is over (answered, failed, or given up): its callback, unless
 * the batch stopped, then the next calls. */
static void
finish(struct dcall *c)
{
	struct dbatch *b = c->batch;
	GVariant *body = NULL;
	GVariant *empty = NULL;
	GError *error = c->error;

	c->error = NULL;
	g_queue_unlink(&b->sent, &c->link);
	b->in_flight--;
	if (c->reply && !error && !g_dbus_message_to_gerror(c->reply, &error)) {
		body = g_dbus_message_get_body(c->reply);
		if (!body) {
			empty = g_variant_ref_sink(
				g_variant_new_tuple(NULL, 0));
			body = empty;
		}
		if (c->reply_type &&
		    !g_variant_is_of_type(body, c->reply_type)) {
			g_set_error(&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
				    "%s.%s: reply of type %s, expected %.*s",
				    g_dbus_message_get_interface(c->msg),
				    g_dbus_message_get_member(c->msg),
				    g_variant_get_type_string(body),
				    (int)g_variant_type_get_string_length(
					    c->reply_type),
				    g_variant_type_peek_string(c->reply_type));
			body = NULL;
		}
	}
	if (!b->stopped) {
		if (error)
			b->errors++;
		c->cb(b, error ? NULL : body, error, c->data);
	}
	if (empty)
		g_variant_unref(empty);
	g_clear_error(&error);
	dcall_free(c);
	pump(b);
	dbatch_unref(b);
}

/* Runs the callbacks of every answer that came in on the connection, of
 * whichever batch; returns how many. */
static unsigned int
wire_drain(struct dwire *w)
{
	GQueue got = G_QUEUE_INIT;
	struct dcall *c;
	unsigned int n = 0;

	g_mutex_lock(&w->lock);
	got = w->done;
	g_queue_init(&w->done);
	w->woken = 0;
	g_mutex_unlock(&w->lock);
	while ((c = g_queue_pop_head(&got))) {
		finish(c);
		n++;
	}
	return n;
}

/* The connections this batch's calls can be on. */
static unsigned int
batch_wires(struct dbatch *b, struct dwire **out)
{
	unsigned int n = 0;

	if (b->be->a11y)
		out[n++] = wire_of(b->be->a11y, b->be->mc);
	return n;
}

static unsigned int
drain(struct dbatch *b)
{
	struct dwire *w[1];
	unsigned int n = batch_wires(b, w), got = 0;
	struct dcall *c;

	while ((c = g_queue_pop_head(&b->failed))) {
		finish(c);
		got++;
	}
	for (unsigned int i = 0; i < n; i++)
		got += wire_drain(w[i]);
	return got;
}

/* An answer on the peer-to-peer connection. */
static void
on_raw_reply(GDBusMessage *reply, void *data)
{
	struct rawconn *rc = data;
	guint32 serial = g_dbus_message_get_reply_serial(reply);
	struct dcall *c =
		g_hash_table_lookup(rc->pending, GUINT_TO_POINTER(serial));

	if (!c)
		return; /* given up already */
	g_hash_table_remove(rc->pending, GUINT_TO_POINTER(serial));
	c->reply = g_object_ref(reply);
	finish(c);
}

/* Writes and reads on the apps' own sockets this batch uses; when one
 * closed, every call on it fails as GDBus fails them. */
static void
raw_turn(struct dbatch *b)
{
	for (guint i = 0; i < b->raws->len; i++) {
		struct rawconn *rc = ((struct braw *)b->raws->pdata[i])->rc;
		GError *error = NULL;
		GHashTableIter it;
		GPtrArray *gone;
		gpointer c;

		if (peer_io(rc->peer, on_raw_reply, rc, &error) == 0)
			continue;
		gone = g_ptr_array_new();
		g_hash_table_iter_init(&it, rc->pending);
		while (g_hash_table_iter_next(&it, NULL, &c))
			g_ptr_array_add(gone, c);
		g_hash_table_remove_all(rc->pending);
		for (guint k = 0; k < gone->len; k++) {
			struct dcall *d = gone->pdata[k];

			d->error = g_error_copy(error);
			finish(d);
		}
		g_ptr_array_free(gone, TRUE);
		g_error_free(error);
	}
}

/* The batch's use of `rc` (made on first use). */
static struct rawconn *
batch_raw(struct dbatch *b, struct rawconn *rc)
{
	struct braw *r;

	for (guint i = 0; i < b->raws->len; i++)
		if (((struct braw *)b->raws->pdata[i])->rc == rc)
			return rc;
	r = g_new0(struct braw, 1);
	r->rc = rc;
	rc->refs++;
	g_ptr_array_add(b->raws, r);
	return rc;
}

static struct rawconn *
peer_lookup(struct atspi_be *be, const char *bus);

/* Calls that waited their whole timeout, or whose connection closed:
 * failed as GDBus would fail them. */
static void
give_up_late(struct dbatch *b)
{
	int64_t now = cua_now_us(), limit = (int64_t)b->timeout_ms * 1000;
	int closed = b->be->a11y && g_dbus_connection_is_closed(b->be->a11y);
	GList *l, *next;

	for (l = b->sent.head; l && !b->stopped; l = next) {
		struct dcall *c = l->data;
		int late = now - c->sent_us >= limit;

		next = l->next;
		if (!late && !closed)
			break; /* the oldest first: none later is late */
		if (!late &&
		    (!c->conn || !g_dbus_connection_is_closed(c->conn)))
			continue;
		if (!wire_take_back(c))
			continue; /* answered meanwhile */
		if (late)
			c->error = g_error_new(
				G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
				"%s.%s did not answer within %d ms",
				g_dbus_message_get_interface(c->msg),
				g_dbus_message_get_member(c->msg),
				b->timeout_ms);
		else
			c->error = g_error_new_literal(
				G_IO_ERROR, G_IO_ERROR_CLOSED,
				"The connection is closed");
		/* the next one may go with it (callbacks can stop the
		 * batch, not free it) */
		finish(c);
		next = b->sent.head;
	}
}

struct dbatch *
dbatch_new(struct atspi_be *be, int timeout_ms, int max_in_flight,
	   int64_t deadline_us)
{
	struct dbatch *b = g_new0(struct dbatch, 1);

	b->be = be;
	b->timeout_ms = timeout_ms > 0 ? timeout_ms : DBATCH_DEFAULT_TIMEOUT_MS;
	b->max_in_flight = max_in_flight > 0 ? (unsigned int)max_in_flight :
					       DBATCH_DEFAULT_IN_FLIGHT;
	b->deadline_us = deadline_us;
	g_queue_init(&b->queue);
	g_queue_init(&b->sent);
	g_queue_init(&b->failed);
	b->raws = g_ptr_array_new_with_free_func(braw_free);
	b->refs = 1;
	return b;
}

/* Stops the batch: drops what is queued and takes back what is in flight
 * (answers already in are dropped with it); no callback runs any more. */
static void
stop(struct dbatch *b)
{
	struct dcall *c;
	GList *l, *next;

	b->stopped = 1;
	while ((c = g_queue_pop_head(&b->queue)))
		dcall_free(c);
	for (l = b->sent.head; l; l = next) {
		next = l->next;
		c = l->data;
		if (!wire_take_back(c))
			continue;
		/* an app's own socket with calls it did not answer in time:
		 * not used again (the next read connects anew), or what we
		 * send it would pile up unanswered while it hangs */
		if (c->raw)
			peer_abandon(c->raw->peer);
		finish(c);
	}
	/* the rest were answered: their answers are in the filters' queues */
	if (b->in_flight > 0)
		drain(b);
}

void
dbatch_free(struct dbatch *batch)
{
	if (!batch)
		return;
	if (!batch->stopped || batch->in_flight > 0)
		stop(batch);
	dbatch_unref(batch);
}

void
dbatch_call(struct dbatch *batch, const char *bus, const char *path,
	    const char *iface, const char *method, GVariant *args,
	    const GVariantType *reply_type, dbatch_cb cb, void *data)
{
	struct rawconn *rc;
	struct dcall *c;

	if (batch->stopped) {
		if (args)
			g_variant_unref(g_variant_ref_sink(args));
		return;
	}
	c = g_new0(struct dcall, 1);
	c->batch = batch;
	c->conn = batch->be->a11y;
	if (batch->own) {
		c->conn = NULL;
		c->raw = batch_raw(batch, batch->own);
	} else if (bus && (rc = peer_lookup(batch->be, bus))) {
		c->conn = NULL;
		c->raw = batch_raw(batch, rc);
	}
	c->msg = g_dbus_message_new_method_call(bus, path, iface, method);
	if (args)
		g_dbus_message_set_body(c->msg, args);
	if (reply_type)
		c->reply_type = g_variant_type_copy(reply_type);
	c->cb = cb;
	c->data = data;

	if (batch->in_flight < batch->max_in_flight &&
	    g_queue_is_empty(&batch->queue))
		dcall_send(c);
	else
		g_queue_push_tail(&batch->queue, c);
}

void
dbatch_get_property(struct dbatch *batch, const char *bus, const char *path,
		    const char *iface, const char *prop, dbatch_cb cb,
		    void *data)
{
	dbatch_call(batch, bus, path, "org.freedesktop.DBus.Properties", "Get",
		    g_variant_new("(ss)", iface, prop), G_VARIANT_TYPE("(v)"),
		    cb, data);
}

/*
 * Gives up on the batch from inside a callback (the app stopped answering):
 * nothing queued is sent, what is in flight is dropped, no callback runs
 * any more, and dbatch_run() returns -1.
 */
void
dbatch_cancel(struct dbatch *batch)
{
	struct dcall *c;

	if (batch->stopped)
		return;
	batch->stopped = 1;
	while ((c = g_queue_pop_head(&batch->queue)))
		dcall_free(c);
}

static gboolean
timer_dispatch(GSource *source, GSourceFunc cb, gpointer data)
{
	(void)cb;
	(void)data;
	g_source_set_ready_time(source, -1);
	return G_SOURCE_CONTINUE;
}

static GSourceFuncs timer_funcs = {
	NULL, NULL, timer_dispatch, NULL, NULL, NULL
};

/* The apps' sockets in the run's source, each with what it waits for. */
static void
watch_raws(struct dbatch *b, GSource *timer)
{
	for (guint i = 0; i < b->raws->len; i++) {
		struct braw *r = b->raws->pdata[i];
		GIOCondition want = peer_wants(r->rc->peer);

		if (r->tag)
			g_source_modify_unix_fd(timer, r->tag, want);
		else if (want)
			r->tag = g_source_add_unix_fd(
				timer, peer_fd(r->rc->peer), want);
	}
}

int
dbatch_run(struct dbatch *batch)
{
	GMainContext *mc = batch->be->mc;
	GSource *timer;
	int pushed = 0;
	int r = 0;

	if (batch->stopped)
		return -1;
	/* GDBus signals the connections' closing on the context that was
	 * thread-default when they were made: be->mc */
	if (g_main_context_get_thread_default() != mc) {
		g_main_context_push_thread_default(mc);
		pushed = 1;
	}
	/* wakes the context at the next timeout or the deadline (both
	 * on the monotonic clock, as GLib's) */
	timer = g_source_new(&timer_funcs, sizeof(GSource));
	g_source_attach(timer, mc);
	pump(batch);
	for (;;) {
		int64_t wake, set;

		drain(batch);
		raw_turn(batch);
		give_up_late(batch);
		pump(batch);
		watch_raws(batch, timer);
		if (batch->stopped ||
		    (batch->in_flight == 0 && g_queue_is_empty(&batch->queue)))
			break;
		if (batch->deadline_us && cua_now_us() >= batch->deadline_us)
			break;
		wake = batch->sent.head ?
			       ((struct dcall *)batch->sent.head->data)
					       ->sent_us +
				       (int64_t)batch->timeout_ms * 1000 :
			       INT64_MAX;
		if (batch->deadline_us && batch->deadline_us < wake)
			wake = batch->deadline_us;
		/* an earlier wake-up is harmless (the loop looks again);
		 * setting it anew each turn would wake the context each
		 * time */
		set = g_source_get_ready_time(timer);
		if (wake != INT64_MAX && (set < 0 || wake < set))
			g_source_set_ready_time(timer, wake);
		g_main_context_iteration(mc, TRUE);
	}
	if (batch->stopped || batch->in_flight > 0 ||
	    !g_queue_is_empty(&batch->queue)) {
		stop(batch);
		r = -1;
	}
	g_source_destroy(timer);
	g_source_unref(timer);
	for (guint i = 0; i < batch->raws->len; i++)
		((struct braw *)batch->raws->pdata[i])->tag = NULL;
	if (pushed)
		g_main_context_pop_thread_default(mc);
	return r;
}

/* ------------------------------------------------------------------ */
/* Peer-to-peer connections                                            */

/*
 * ATK-bridge apps (GTK 3, LibreOffice, Firefox, Java) also listen on a
 * private socket, named by Application.GetApplicationBusAddress; libatspi
 * talks to them there, past the bus daemon. The backend keeps one
 * connection per app (bus name) once a walk made it (atspi_peer_get), and
 * every batch sends that app's calls there.
 */

/* Capability bit (be->caps): the app has no peer-to-peer socket. */
#define CAP_NO_PEER (1u << 17)
/* Apps whose sockets stay connected. */
#define PEERS_MAX 16

struct atspi_peers {
	struct peer_slot slot[PEERS_MAX];
	uint64_t clock;
};

static void
slot_clear(struct peer_slot *sl)
{
	g_free(sl->bus);
	g_free(sl->address);
	dbus_rawconn_unref(sl->rc);
	memset(sl, 0, sizeof(*sl));
}

void
atspi_peers_free(struct atspi_be *be)
{
	if (!be->peers)
		return;
	for (size_t i = 0; i < PEERS_MAX; i++)
		if (be->peers->slot[i].bus)
			slot_clear(&be->peers->slot[i]);
	g_free(be->peers);
	be->peers = NULL;
}

struct peer_slot *
dbus_peer_slot(struct atspi_be *be, const char *bus)
{
	if (!be->peers)
		return NULL;
	for (size_t i = 0; i < PEERS_MAX; i++) {
		struct peer_slot *sl = &be->peers->slot[i];

		if (sl->bus && strcmp(sl->bus, bus) == 0)
			return sl;
	}
	return NULL;
}

/* The app's connection, when it is kept and open. */
static struct rawconn *
peer_lookup(struct atspi_be *be, const char *bus)
{
	struct peer_slot *sl = dbus_peer_slot(be, bus);

	if (!sl || !peer_wants(sl->rc->peer))
		return NULL; /* none, or closed */
	sl->used = ++be->peers->clock;
	return sl->rc;
}

/* Lets go of the connections the apps closed (they quit, or restarted
 * their accessibility). */
static void
prune(struct atspi_peers *ps)
{
	struct pollfd pfd[PEERS_MAX];
	size_t idx[PEERS_MAX], n = 0;

	for (size_t i = 0; i < PEERS_MAX; i++) {
		struct peer_slot *sl = &ps->slot[i];

		if (!sl->bus)
			continue;
		if (!peer_wants(sl->rc->peer)) {
			slot_clear(sl);
			continue;
		}
		pfd[n].fd = peer_fd(sl->rc->peer);
		pfd[n].events = 0; /* hang-ups and errors only */
		pfd[n].revents = 0;
		idx[n++] = i;
	}
	if (n == 0 || poll(pfd, n, 0) <= 0)
		return;
	for (size_t k = 0; k < n; k++)
		if (pfd[k].revents & (POLLHUP | POLLERR | POLLNVAL))
			slot_clear(&ps->slot[idx[k]]);
}

static void
keep(struct atspi_be *be, const char *bus, const char *address,
     struct rawconn *rc)
{
	struct peer_slot *sl = NULL;

	if (!be->peers)
		be->peers = g_new0(struct atspi_peers, 1);
	for (size_t i = 0; i < PEERS_MAX; i++) {
		struct peer_slot *s = &be->peers->slot[i];

		if (s->bus && strcmp(s->bus, bus) == 0) {
			sl = s;
			break;
		}
		if (!sl || (sl->bus && (!s->bus || s->used < sl->used)))
			sl = s;
	}
	if (sl->bus)
		slot_clear(sl);
	sl->bus = g_strdup(bus);
	sl->address = g_strdup(address);
	sl->rc = rc;
	sl->used = ++be->peers->clock;
}

/* Only local sockets: the address comes from the app. */
static int
is_local_address(const char *a)
{
	return (g_str_has_prefix(a, "unix:path=") ||
		g_str_has_prefix(a, "unix:abstract=")) &&
	       !strchr(a, ';');
}

int
atspi_peer_get(struct atspi_be *be, const char *bus, int timeout_ms,
	       uint64_t *calls, int *timed_out)
{
	uint32_t caps = GPOINTER_TO_UINT(g_hash_table_lookup(be->caps, bus));
	struct peer *conn;
	GVariant *r;
	GError *error = NULL;
	const char *addr;

	*timed_out = 0;
	if (caps & CAP_NO_PEER)
		return 0;
	if (be->peers)
		prune(be->peers);
	/* press actions whose handlers returned let go */
	atspi_held_poll(be);
	if (peer_lookup(be, bus))
		return 1;
	(*calls)++;
	r = atspi_call_sync(be, bus, "/org/a11y/atspi/accessible/root",
			    "org.a11y.atspi.Application",
			    "GetApplicationBusAddress", NULL,
			    G_VARIANT_TYPE("(s)"), timeout_ms, &error);
	if (!r) {
		/* GTK 4 and Qt have no such method */
		if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
			*timed_out = 1;
		else
			g_hash_table_replace(
				be->caps, g_strdup(bus),
				GUINT_TO_POINTER(caps | CAP_NO_PEER));
		g_error_free(error);
		return 0;
	}
	g_variant_get(r, "(&s)", &addr);
	if (!is_local_address(addr)) {
		if (*addr)
			cua_debug(be->base.ctx,
				  "atspi: %s: ignoring peer address %s", bus,
				  addr);
		g_variant_unref(r);
		return 0;
	}
	conn = peer_open(
		addr, timeout_ms > 0 ? timeout_ms : DBATCH_DEFAULT_TIMEOUT_MS,
		&error);
	if (conn) {
		keep(be, bus, addr, dbus_rawconn_new(conn));
	} else {
		cua_debug(be->base.ctx, "atspi: %s: cannot connect to %s: %s",
			  bus, addr, error->message);
		g_error_free(error);
	}
	g_variant_unref(r);
	return conn != NULL;
}

uint64_t
dbatch_calls(const struct dbatch *batch)
{
	return batch->calls;
}

uint64_t
dbatch_errors(const struct dbatch *batch)
{
	return batch->errors;
}

struct sync_result {
	GVariant *reply;
	GError *error;
};

static void
on_sync_reply(struct dbatch *batch, GVariant *reply, const GError *error,
	      void *data)
{
	struct sync_result *s = data;

	(void)batch;
	if (reply)
		s->reply = g_variant_ref(reply);
	else
		s->error = g_error_copy(error);
}

GVariant *
dbus_call_own(struct atspi_be *be, struct rawconn *own, const char *bus,
	      const char *path, const char *iface, const char *method,
	      GVariant *args, const GVariantType *reply_type, int timeout_ms,
	      GError **error)
{
	struct sync_result s = { NULL, NULL };
	struct dbatch *b;
	int64_t deadline;

	if (timeout_ms <= 0)
		timeout_ms = DBATCH_DEFAULT_TIMEOUT_MS;
	/* The call's own timeout fires first; the deadline is only a
	 * backstop. */
	deadline = cua_now_us() + (int64_t)timeout_ms * 1000 + 250 * 1000;
	b = dbatch_new(be, timeout_ms, 1, deadline);
	b->own = own;
	dbatch_call(b, bus, path, iface, method, args, reply_type,
		    on_sync_reply, &s);
	dbatch_run(b);
	dbatch_free(b);
	if (s.reply)
		return s.reply;
	if (s.error)
		g_propagate_error(error, s.error);
	else
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
			    "%s.%s on %s did not answer within %d ms", iface,
			    method, bus ? bus : "(peer)", timeout_ms);
	return NULL;
}

GVariant *
atspi_call_sync(struct atspi_be *be, const char *bus, const char *path,
		const char *iface, const char *method, GVariant *args,
		const GVariantType *reply_type, int timeout_ms, GError **error)
{
	return dbus_call_own(be, NULL, bus, path, iface, method, args,
			     reply_type, timeout_ms, error);
}
