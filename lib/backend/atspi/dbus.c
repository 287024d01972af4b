/*
 * Pipelined D-Bus calls on GDBus (atspi.h, "dbus.c").
 *
 * A batch keeps up to max_in_flight method calls outstanding on the
 * accessibility bus and queues the rest. Every call carries the batch's
 * per-call timeout; replies are dispatched on the backend's private
 * GMainContext (be->mc), which is the thread-default context while calls
 * are issued and while the batch runs, so GDBus delivers the callbacks
 * there and nowhere else. A batch deadline bounds dbatch_run(): when it
 * passes, what is pending is cancelled through the batch's GCancellable,
 * the cancellations are drained from be->mc (they complete locally, the
 * app is not needed for that) and dbatch_run() returns -1. So a stopped
 * or hung app costs at most the deadline, and a single call at most its
 * timeout. dbatch_cancel() gives up the same way from inside a callback
 * (the reader calls it when an app has stopped answering).
 *
 * Calls for one bus name can go over a peer-to-peer connection to the app
 * instead of the bus (dbatch_set_peer, atspi_peer_connect), as libatspi
 * does for ATK-bridge apps; that spares the bus daemon two hops per call.
 *
 * Memory: a call in flight holds a reference on its batch, so a batch
 * freed while GDBus still owes it a callback stays valid until that
 * callback ran (it then only frees its own state).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "atspi.h"
#include "connect.h"

/* Not declared in atspi.h yet (that header has another owner); fetch.c
 * declares them too. */
void
dbatch_set_peer(struct dbatch *batch, const char *bus, GDBusConnection *peer);
void
dbatch_cancel(struct dbatch *batch);
GDBusConnection *
atspi_peer_connect(struct atspi_be *be, const char *bus, int timeout_ms,
		   uint64_t *calls, int *timed_out);

#define DBATCH_DEFAULT_TIMEOUT_MS 1000
#define DBATCH_DEFAULT_IN_FLIGHT 256
/* How long dbatch_run() waits for cancelled calls to report back after the
 * deadline. GDBus completes a cancelled call from an idle source on the
 * calling context, so this is normally a few iterations, not a wait. */
#define DBATCH_DRAIN_US (200 * 1000)

struct dcall {
	struct dbatch *batch;
	GDBusConnection *conn; /* borrowed from the batch */
	GDBusMessage *msg;
	GVariantType *reply_type; /* NULL: any */
	dbatch_cb cb;
	void *data;
};

struct dbatch {
	struct atspi_be *be;
	int timeout_ms;
	unsigned int max_in_flight;
	int64_t deadline_us; /* 0: none */
	GCancellable *cancel;
	GQueue queue; /* struct dcall, not sent yet */
	unsigned int in_flight;
	uint64_t calls;
	uint64_t errors;
	unsigned int refs; /* the owner, plus one per call in flight */
	int stopped;       /* no more sends, no more callbacks */
	char *peer_bus;    /* calls to this bus name go to `peer` */
	GDBusConnection *peer;
	int deadline_fired;
};

static void
dcall_free(struct dcall *c)
{
	if (c->msg)
		g_object_unref(c->msg);
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
	g_object_unref(b->cancel);
	if (b->peer) {
		g_dbus_connection_close(b->peer, NULL, NULL, NULL);
		g_object_unref(b->peer);
	}
	g_free(b->peer_bus);
	g_free(b);
}

/* Pushes be->mc as thread-default unless it already is; returns whether it
 * was pushed (pop it then). */
static int
push_mc(GMainContext *mc)
{
	if (g_main_context_get_thread_default() == mc)
		return 0;
	g_main_context_push_thread_default(mc);
	return 1;
}

static void
pop_mc(GMainContext *mc, int pushed)
{
	if (pushed)
		g_main_context_pop_thread_default(mc);
}

static void
on_reply(GObject *source, GAsyncResult *res, gpointer user);

/* Sends one call; be->mc must be the thread-default context. */
static void
dcall_send(struct dcall *c)
{
	struct dbatch *b = c->batch;

	b->in_flight++;
	b->refs++;
	b->calls++;
	g_dbus_connection_send_message_with_reply(
		c->conn, c->msg, G_DBUS_SEND_MESSAGE_FLAGS_NONE, b->timeout_ms,
		NULL, b->cancel, on_reply, c);
}

/* Sends queued calls while there is room. */
static void
pump(struct dbatch *b)
{
	struct dcall *c;
	int pushed;

	if (b->stopped || g_queue_is_empty(&b->queue) ||
	    b->in_flight >= b->max_in_flight)
		return;
	pushed = push_mc(b->be->mc);
	while (b->in_flight < b->max_in_flight &&
	       (c = g_queue_pop_head(&b->queue)))
		dcall_send(c);
	pop_mc(b->be->mc, pushed);
}

static void
on_reply(GObject *source, GAsyncResult *res, gpointer user)
{
	struct dcall *c = user;
	struct dbatch *b = c->batch;
	GDBusMessage *reply;
	GVariant *body = NULL;
	GVariant *empty = NULL;
	GError *error = NULL;

	reply = g_dbus_connection_send_message_with_reply_finish(
		G_DBUS_CONNECTION(source), res, &error);
	b->in_flight--;

	if (reply && !g_dbus_message_to_gerror(reply, &error)) {
		body = g_dbus_message_get_body(reply);
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

	if (!b->stopped && !(error && g_error_matches(error, G_IO_ERROR,
						      G_IO_ERROR_CANCELLED))) {
		if (error)
			b->errors++;
		c->cb(b, error ? NULL : body, error, c->data);
	}

	if (empty)
		g_variant_unref(empty);
	if (reply)
		g_object_unref(reply);
	g_clear_error(&error);
	dcall_free(c);
	pump(b);
	dbatch_unref(b);
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
	b->cancel = g_cancellable_new();
	g_queue_init(&b->queue);
	b->refs = 1;
	return b;
}

/* A one-shot timer that sets the int it points to. */
static gboolean
on_timer_fired(gpointer user)
{
	int *fired = user;

	*fired = 1;
	return G_SOURCE_REMOVE;
}

/* Stops the batch: drops what is queued, cancels what is in flight and
 * waits (briefly, locally) for the cancellations to come back. */
static void
stop(struct dbatch *b)
{
	struct dcall *c;
	GSource *guard;
	int fired = 0;
	int pushed;

	b->stopped = 1;
	while ((c = g_queue_pop_head(&b->queue)))
		dcall_free(c);
	if (b->in_flight == 0)
		return;
	g_cancellable_cancel(b->cancel);
	pushed = push_mc(b->be->mc);
	guard = g_timeout_source_new(DBATCH_DRAIN_US / 1000);
	g_source_set_callback(guard, on_timer_fired, &fired, NULL);
	g_source_attach(guard, b->be->mc);
	while (b->in_flight > 0 && !fired)
		g_main_context_iteration(b->be->mc, TRUE);
	g_source_destroy(guard);
	g_source_unref(guard);
	pop_mc(b->be->mc, pushed);
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
	struct dcall *c;
	int pushed;

	if (batch->stopped) {
		if (args)
			g_variant_unref(g_variant_ref_sink(args));
		return;
	}
	c = g_new0(struct dcall, 1);
	c->batch = batch;
	c->conn = batch->be->a11y;
	if (batch->peer && bus && strcmp(bus, batch->peer_bus) == 0)
		c->conn = batch->peer;
	c->msg = g_dbus_message_new_method_call(bus, path, iface, method);
	if (args)
		g_dbus_message_set_body(c->msg, args);
	if (reply_type)
		c->reply_type = g_variant_type_copy(reply_type);
	c->cb = cb;
	c->data = data;

	if (batch->in_flight < batch->max_in_flight &&
	    g_queue_is_empty(&batch->queue)) {
		pushed = push_mc(batch->be->mc);
		dcall_send(c);
		pop_mc(batch->be->mc, pushed);
	} else {
		g_queue_push_tail(&batch->queue, c);
	}
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
 * nothing queued is sent, what is in flight is cancelled, no callback runs
 * any more, and dbatch_run() returns -1 as soon as the cancellations are
 * back.
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
	g_cancellable_cancel(batch->cancel);
}

static gboolean
on_deadline(gpointer user)
{
	struct dbatch *b = user;

	b->deadline_fired = 1;
	return G_SOURCE_REMOVE;
}

int
dbatch_run(struct dbatch *batch)
{
	GMainContext *mc = batch->be->mc;
	GSource *timer = NULL;
	int64_t left;
	int pushed;
	int r = 0;

	if (batch->stopped)
		return -1;
	pushed = push_mc(mc);
	if (batch->deadline_us) {
		left = batch->deadline_us - cua_now_us();
		if (left <= 0) {
			batch->deadline_fired = 1;
		} else {
			timer = g_timeout_source_new(
				(guint)((left + 999) / 1000));
			g_source_set_callback(timer, on_deadline, batch, NULL);
			g_source_attach(timer, mc);
		}
	}
	pump(batch);
	while (!batch->deadline_fired && !batch->stopped &&
	       (batch->in_flight > 0 || !g_queue_is_empty(&batch->queue))) {
		g_main_context_iteration(mc, TRUE);
		pump(batch);
		if (batch->deadline_us && cua_now_us() >= batch->deadline_us)
			batch->deadline_fired = 1;
	}
	if (batch->stopped || batch->in_flight > 0 ||
	    !g_queue_is_empty(&batch->queue)) {
		stop(batch);
		r = -1;
	}
	if (timer) {
		g_source_destroy(timer);
		g_source_unref(timer);
	}
	pop_mc(mc, pushed);
	return r;
}

/* ------------------------------------------------------------------ */
/* Peer-to-peer connections                                            */

/*
 * ATK-bridge apps (GTK 3, LibreOffice, Firefox, Java) also listen on a
 * private socket, named by Application.GetApplicationBusAddress; libatspi
 * talks to them there, past the bus daemon. A batch can route the calls
 * for one bus name over such a connection (dbatch_set_peer).
 */

/* Capability bit (be->caps): the app has no peer-to-peer socket. */
#define CAP_NO_PEER (1u << 17)

void
dbatch_set_peer(struct dbatch *batch, const char *bus, GDBusConnection *peer)
{
	g_free(batch->peer_bus);
	if (batch->peer)
		g_object_unref(batch->peer);
	batch->peer_bus = g_strdup(bus);
	batch->peer = g_object_ref(peer);
}

/* Only local sockets: the address comes from the app. */
static int
is_local_address(const char *a)
{
	return (g_str_has_prefix(a, "unix:path=") ||
		g_str_has_prefix(a, "unix:abstract=")) &&
	       !strchr(a, ';');
}

/* The app's peer-to-peer connection, or NULL; *calls counts the round
 * trips made, *timed_out says that the app did not answer at all. */
GDBusConnection *
atspi_peer_connect(struct atspi_be *be, const char *bus, int timeout_ms,
		   uint64_t *calls, int *timed_out)
{
	uint32_t caps = GPOINTER_TO_UINT(g_hash_table_lookup(be->caps, bus));
	GDBusConnection *conn;
	GVariant *r;
	GError *error = NULL;
	const char *addr;

	*timed_out = 0;
	if (caps & CAP_NO_PEER)
		return NULL;
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
		return NULL;
	}
	g_variant_get(r, "(&s)", &addr);
	if (!is_local_address(addr)) {
		if (*addr)
			cua_debug(be->base.ctx,
				  "atspi: %s: ignoring peer address %s", bus,
				  addr);
		g_variant_unref(r);
		return NULL;
	}

	conn = cua_dbus_connect(
		addr, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT, be->mc,
		timeout_ms > 0 ? timeout_ms : DBATCH_DEFAULT_TIMEOUT_MS, NULL);
	if (conn)
		g_dbus_connection_set_exit_on_close(conn, FALSE);
	else
		cua_debug(be->base.ctx, "atspi: %s: cannot connect to %s", bus,
			  addr);
	g_variant_unref(r);
	return conn;
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
atspi_call_sync(struct atspi_be *be, const char *bus, const char *path,
		const char *iface, const char *method, GVariant *args,
		const GVariantType *reply_type, int timeout_ms, GError **error)
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
