/*
 * Press actions on a connection of their own (atspi.h
 * atspi_call_sync_apart, atspi_action_running; docs/actions.md §3): the
 * connection is held while the action's handler may still run.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <poll.h>
#include <string.h>

#include <gio/gio.h>

#include "atspi.h"
#include "dbus_int.h"
#include "peer.h"

/*
 * A press action's connection, kept while the handler may still run
 * (docs/actions.md §3): the ATK bridge answers DoAction and then runs the
 * action inside the dispatch of that message; a handler that opens a
 * modal dialog runs its loop there. A Peer.Ping sent after the answer is
 * answered (by libdbus, at the next dispatch) only once the handler has
 * returned.
 */
struct held {
	char *bus;
	struct rawconn *rc;
	guint32 ping;
	int done; /* the Ping was answered, or the connection closed */
};

/* Press actions whose handlers may still run; the oldest let go first. */
#define HELD_MAX 8

static void
held_free(gpointer data)
{
	struct held *h = data;

	g_free(h->bus);
	dbus_rawconn_unref(h->rc);
	g_free(h);
}

static void
on_held_reply(GDBusMessage *reply, void *data)
{
	struct held *h = data;

	if (g_dbus_message_get_reply_serial(reply) == h->ping)
		h->done = 1;
}

/* Reads what came on the held connections; lets go of those done. */
void
atspi_held_poll(struct atspi_be *be)
{
	for (guint i = 0; be->held && i < be->held->len;) {
		struct held *h = be->held->pdata[i];
		GError *e = NULL;

		if (peer_io(h->rc->peer, on_held_reply, h, &e) < 0) {
			h->done = 1;
			g_error_free(e);
		}
		if (h->done)
			g_ptr_array_remove_index(be->held, i);
		else
			i++;
	}
}

/* How long a press action's handler may take before its connection is
 * held rather than closed (a nested loop, or a slow handler). */
#define HANDLER_RETURN_MS 50

/* Waits up to `ms` for the answer to h's Ping: 1 once answered (or the
 * connection closed), 0 when the handler still runs. */
static int
held_wait(struct held *h, int ms)
{
	int64_t end = cua_now_us() + (int64_t)ms * 1000;

	for (;;) {
		GError *e = NULL;
		struct pollfd pfd;
		int64_t left;

		if (peer_io(h->rc->peer, on_held_reply, h, &e) < 0) {
			g_error_free(e);
			return 1;
		}
		if (h->done)
			return 1;
		left = end - cua_now_us();
		if (left <= 0)
			return 0;
		pfd.fd = peer_fd(h->rc->peer);
		pfd.events = (peer_wants(h->rc->peer) & G_IO_OUT) ?
				     POLLIN | POLLOUT :
				     POLLIN;
		pfd.revents = 0;
		poll(&pfd, 1, (int)((left + 999) / 1000));
	}
}

/* After `rc`'s press action was answered: a Ping behind it, answered once
 * the handler returned; the connection is held while it is not. */
static void
hold(struct atspi_be *be, const char *bus, struct rawconn *rc)
{
	GDBusMessage *m = g_dbus_message_new_method_call(
		bus, "/", "org.freedesktop.DBus.Peer", "Ping");
	struct held *h;
	GError *e = NULL;
	guint32 serial = peer_send(rc->peer, m, &e);

	g_object_unref(m);
	if (!serial) {
		g_error_free(e);
		return;
	}
	h = g_new0(struct held, 1);
	h->bus = g_strdup(bus);
	h->rc = rc;
	rc->refs++;
	h->ping = serial;
	/* most handlers return at once: nothing to hold */
	if (held_wait(h, HANDLER_RETURN_MS)) {
		held_free(h);
		return;
	}
	if (!be->held)
		be->held = g_ptr_array_new_with_free_func(held_free);
	if (be->held->len >= HELD_MAX)
		g_ptr_array_remove_index(be->held, 0);
	g_ptr_array_add(be->held, h);
}

void
atspi_held_free(struct atspi_be *be)
{
	if (be->held)
		g_ptr_array_unref(be->held);
	be->held = NULL;
}

int
atspi_action_running(struct atspi_be *be, const char *bus, int timeout_ms)
{
	GVariant *r;
	GError *e = NULL;
	int pending = 0;

	atspi_held_poll(be);
	for (guint i = 0; be->held && i < be->held->len; i++)
		pending |= strcmp(((struct held *)be->held->pdata[i])->bus,
				  bus) == 0;
	if (!pending)
		return 0;
	/* a handler still running, or an app that has not read the Ping
	 * yet: an app that answers on its kept connection and still not
	 * on the held one runs a loop inside the action */
	r = atspi_call_sync(be, bus, "/", "org.freedesktop.DBus.Peer", "Ping",
			    NULL, NULL, timeout_ms, &e);
	if (!r) {
		g_error_free(e);
		return 0; /* busy, or gone: not known to be in a loop */
	}
	g_variant_unref(r);
	atspi_held_poll(be);
	for (guint i = 0; be->held && i < be->held->len; i++)
		if (strcmp(((struct held *)be->held->pdata[i])->bus, bus) == 0)
			return 1;
	return 0;
}

GVariant *
atspi_call_sync_apart(struct atspi_be *be, const char *bus, const char *path,
		      const char *iface, const char *method, GVariant *args,
		      const GVariantType *reply_type, int timeout_ms,
		      GError **error)
{
	struct peer_slot *sl = bus ? dbus_peer_slot(be, bus) : NULL;
	struct rawconn *rc;
	struct peer *conn;
	GVariant *r;
	GError *e = NULL;

	if (timeout_ms <= 0)
		timeout_ms = DBATCH_DEFAULT_TIMEOUT_MS;
	if (!sl || !peer_wants(sl->rc->peer))
		/* on the bus: the app reads each client's messages apart */
		return atspi_call_probed(be, bus, path, iface, method, args,
					 reply_type, timeout_ms, error);
	conn = peer_open(sl->address, timeout_ms, &e);
	if (!conn) {
		/* the app's socket took one connection and not another:
		 * the kept one, as any other call */
		cua_debug(be->base.ctx,
			  "atspi: %s: no second connection to %s (%s); %s.%s "
			  "goes over the kept one",
			  bus, sl->address, e->message, iface, method);
		g_error_free(e);
		return atspi_call_sync(be, bus, path, iface, method, args,
				       reply_type, timeout_ms, error);
	}
	rc = dbus_rawconn_new(conn);
	rc->refs++; /* ours, past the batch's */
	r = dbus_call_own(be, rc, bus, path, iface, method, args, reply_type,
			  timeout_ms, error);
	/* answered: the handler may run now, inside that dispatch */
	if (r && peer_wants(conn))
		hold(be, bus, rc);
	dbus_rawconn_unref(rc);
	return r;
}
