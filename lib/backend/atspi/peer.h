/*
 * A peer-to-peer D-Bus connection to an app, driven by the calling thread
 * (peer.c).
 *
 * ATK-bridge apps (GTK 3, LibreOffice, Firefox, Java) listen on a private
 * socket of their own (Application.GetApplicationBusAddress). The reader
 * sends its calls there in bursts of hundreds; on a GDBusConnection every
 * one of them costs a hand-over to GDBus's worker thread and back, and two
 * reads of the socket for its answer. This connection has no thread: the
 * calls queued are written together, and everything the app sent is read
 * at once and cut into messages, by whoever calls peer_io() when the
 * socket is ready (dbus.c, from the backend's context). It carries method
 * calls and their answers only; anything else the app sends is dropped.
 *
 * One thread at a time, as the backend.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_ATSPI_PEER_H
#define CUA_ATSPI_PEER_H

#include <gio/gio.h>

struct peer;

/* Connects to `address` (unix:path= or unix:abstract=, nothing else) and
 * authenticates (EXTERNAL) within timeout_ms. NULL with `error` set. */
struct peer *
peer_open(const char *address, int timeout_ms, GError **error);
void
peer_free(struct peer *p);

/* Queues a method call (the message gets its serial here; it must not be
 * locked yet). Returns the serial, or 0 with `error` set when the
 * connection is closed or the message cannot be serialised. */
guint32
peer_send(struct peer *p, GDBusMessage *msg, GError **error);

/* Gives the connection up: closed from now on as if the app had closed it
 * (what is queued and not written yet is dropped). */
void
peer_abandon(struct peer *p);

/* The socket, and the conditions to wait for (G_IO_IN, plus G_IO_OUT while
 * queued calls are not all written). */
int
peer_fd(const struct peer *p);
GIOCondition
peer_wants(const struct peer *p);

/* Called for every answer (method return or error) that came in; `reply`
 * is borrowed. */
typedef void (*peer_reply_cb)(GDBusMessage *reply, void *data);

/* Writes what the socket takes, reads what is there and hands every
 * complete answer to `cb`. Never blocks. Returns 0, or -1 once the
 * connection is closed (`error` says why, G_IO_ERROR_CLOSED when the app
 * closed it; a closed peer stays closed). */
int
peer_io(struct peer *p, peer_reply_cb cb, void *data, GError **error);

#endif
