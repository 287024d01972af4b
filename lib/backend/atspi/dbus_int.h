/*
 * What dbus.c shares with held.c (the press actions' own connections):
 * an app's own socket, the backend's kept ones, and a call on a given one.
 * Internal to the AT-SPI backend.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_ATSPI_DBUS_INT_H
#define CUA_ATSPI_DBUS_INT_H

#include <gio/gio.h>

#include "atspi.h"

struct peer;

#define DBATCH_DEFAULT_TIMEOUT_MS 1000

/* An app's own socket, shared by the batches that use it: the calls on it
 * of every batch, so that each answer finds its call whichever batch runs
 * (one may run inside another's callback). */
struct rawconn {
	int refs; /* the backend's, and one per batch that uses it */
	struct peer *peer;
	GHashTable *pending; /* serial -> struct dcall */
};

/* The backend's kept connection to an app (bus name). */
struct peer_slot {
	char *bus;
	char *address; /* where rc was connected */
	struct rawconn *rc;
	uint64_t used;
};

/* A rawconn holding `peer` (owned), one reference. */
struct rawconn *
dbus_rawconn_new(struct peer *peer);
void
dbus_rawconn_unref(struct rawconn *rc);
/* The kept connection to `bus`, or NULL. */
struct peer_slot *
dbus_peer_slot(struct atspi_be *be, const char *bus);
/* atspi_call_sync() over `own` when not NULL (the caller's reference
 * stays its own). */
GVariant *
dbus_call_own(struct atspi_be *be, struct rawconn *own, const char *bus,
	      const char *path, const char *iface, const char *method,
	      GVariant *args, const GVariantType *reply_type, int timeout_ms,
	      GError **error);
/* Reads what came on the held connections; lets go of those done
 * (held.c). */
void
atspi_held_poll(struct atspi_be *be);

#endif
