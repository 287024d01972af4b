/*
 * Connecting to a D-Bus address with a deadline (connect.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "connect.h"

struct connect_op {
	GDBusConnection *conn;
	GError *error;
	int done;
};

static void
connect_done(GObject *source, GAsyncResult *res, gpointer data)
{
	struct connect_op *op = data;

	(void)source;
	op->conn = g_dbus_connection_new_for_address_finish(res, &op->error);
	op->done = 1;
}

static gboolean
connect_timeout(gpointer data)
{
	g_cancellable_cancel(data);
	return G_SOURCE_REMOVE;
}

GDBusConnection *
cua_dbus_connect(const char *address, GDBusConnectionFlags flags,
		 GMainContext *ctx, int timeout_ms, GError **error)
{
	struct connect_op op = { NULL, NULL, 0 };
	GCancellable *cancel = g_cancellable_new();
	int pushed = g_main_context_get_thread_default() != ctx;
	GSource *timer;

	if (pushed)
		g_main_context_push_thread_default(ctx);
	timer = g_timeout_source_new((guint)timeout_ms);
	g_source_set_callback(timer, connect_timeout, cancel, NULL);
	g_source_attach(timer, ctx);
	g_dbus_connection_new_for_address(address, flags, NULL, cancel,
					  connect_done, &op);
	/* a cancelled connect still calls back */
	while (!op.done)
		g_main_context_iteration(ctx, TRUE);
	g_source_destroy(timer);
	g_source_unref(timer);
	if (pushed)
		g_main_context_pop_thread_default(ctx);
	g_object_unref(cancel);
	if (!op.conn)
		g_propagate_error(error, op.error);
	return op.conn;
}
