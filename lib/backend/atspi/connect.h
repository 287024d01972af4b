/*
 * Connecting to a D-Bus address with a deadline: the one way the AT-SPI
 * backend (an app's peer-to-peer socket) and the headless desktops (their
 * session and accessibility buses) open a connection of their own.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_ATSPI_CONNECT_H
#define CUA_ATSPI_CONNECT_H

#include <gio/gio.h>

/*
 * g_dbus_connection_new_for_address_sync() with a deadline, run on `ctx`
 * (made the thread-default context for the call unless it already is):
 * asynchronous, so that a peer that stops before answering the
 * authentication cannot hold the caller past `timeout_ms`. The connection,
 * or NULL with `error` set (G_IO_ERROR_CANCELLED when the deadline passed).
 */
GDBusConnection *
cua_dbus_connect(const char *address, GDBusConnectionFlags flags,
		 GMainContext *ctx, int timeout_ms, GError **error);

#endif
