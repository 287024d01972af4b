/*
 * The peer-to-peer connection (lib/backend/atspi/peer.c) against a real
 * D-Bus peer: a GDBusServer in a thread of this process, with an object
 * whose methods answer, fail, answer large, or close the connection.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>

#include <cmocka.h>
#include <gio/gio.h>

#include "backend/atspi/peer.h"

static const char xml[] = "<node><interface name='t.T'>"
			  "<method name='Echo'><arg type='s' direction='in'/>"
			  "<arg type='s' direction='out'/></method>"
			  "<method name='Big'><arg type='u' direction='in'/>"
			  "<arg type='s' direction='out'/></method>"
			  "<method name='Fail'/>"
			  "<method name='Bye'/>"
			  "</interface></node>";

struct server {
	GThread *thread;
	GMainContext *mc;
	GMainLoop *loop;
	GDBusServer *server;
	GDBusNodeInfo *info;
	char *dir;
	char *address; /* as a client names it */
	GPtrArray *conns;
	GMutex lock;
	GCond ready;
	int started;
};

static void
on_call(GDBusConnection *conn, const char *sender, const char *path,
	const char *iface, const char *method, GVariant *args,
	GDBusMethodInvocation *inv, gpointer data)
{
	(void)sender;
	(void)path;
	(void)iface;
	(void)data;
	if (strcmp(method, "Echo") == 0) {
		const char *s;

		g_variant_get(args, "(&s)", &s);
		g_dbus_method_invocation_return_value(inv,
						      g_variant_new("(s)", s));
	} else if (strcmp(method, "Big") == 0) {
		guint32 n;
		char *s;

		g_variant_get(args, "(u)", &n);
		s = g_malloc(n + 1);
		memset(s, 'x', n);
		s[n] = '\0';
		g_dbus_method_invocation_return_value(inv,
						      g_variant_new("(s)", s));
		g_free(s);
	} else if (strcmp(method, "Fail") == 0) {
		g_dbus_method_invocation_return_dbus_error(inv, "t.Error.Nope",
							   "nope");
	} else {
		/* no answer: the connection goes */
		g_object_unref(inv);
		g_dbus_connection_close(conn, NULL, NULL, NULL);
	}
}

static const GDBusInterfaceVTable vtable = { on_call, NULL, NULL, { 0 } };

static gboolean
on_new_connection(GDBusServer *server, GDBusConnection *conn, gpointer data)
{
	struct server *sv = data;

	(void)server;
	g_ptr_array_add(sv->conns, g_object_ref(conn));
	g_dbus_connection_register_object(conn, "/t", sv->info->interfaces[0],
					  &vtable, sv, NULL, NULL);
	return TRUE;
}

static gpointer
server_main(gpointer data)
{
	struct server *sv = data;
	char *guid = g_dbus_generate_guid();
	char *listen;
	GError *error = NULL;

	g_main_context_push_thread_default(sv->mc);
	/* a comma in the path: the client must undo the address's escape */
	listen = g_strdup_printf("unix:path=%s/s%%2ck", sv->dir);
	sv->server = g_dbus_server_new_sync(listen, G_DBUS_SERVER_FLAGS_NONE,
					    guid, NULL, NULL, &error);
	g_assert_no_error(error);
	g_signal_connect(sv->server, "new-connection",
			 G_CALLBACK(on_new_connection), sv);
	g_dbus_server_start(sv->server);
	sv->address = g_strdup(g_dbus_server_get_client_address(sv->server));
	g_mutex_lock(&sv->lock);
	sv->started = 1;
	g_cond_signal(&sv->ready);
	g_mutex_unlock(&sv->lock);
	g_main_loop_run(sv->loop);
	g_ptr_array_unref(sv->conns);
	g_dbus_server_stop(sv->server);
	g_object_unref(sv->server);
	g_main_context_pop_thread_default(sv->mc);
	g_free(listen);
	g_free(guid);
	return NULL;
}

static int
setup(void **state)
{
	struct server *sv = g_new0(struct server, 1);
	GError *error = NULL;

	sv->dir = g_dir_make_tmp("cua-peer-XXXXXX", &error);
	g_assert_no_error(error);
	sv->info = g_dbus_node_info_new_for_xml(xml, &error);
	g_assert_no_error(error);
	sv->conns = g_ptr_array_new_with_free_func(g_object_unref);
	sv->mc = g_main_context_new();
	sv->loop = g_main_loop_new(sv->mc, FALSE);
	g_mutex_init(&sv->lock);
	g_cond_init(&sv->ready);
	sv->thread = g_thread_new("server", server_main, sv);
	g_mutex_lock(&sv->lock);
	while (!sv->started)
		g_cond_wait(&sv->ready, &sv->lock);
	g_mutex_unlock(&sv->lock);
	*state = sv;
	return 0;
}

static int
teardown(void **state)
{
	struct server *sv = *state;
	char *sock = g_strdup_printf("%s/s,k", sv->dir);

	g_main_loop_quit(sv->loop);
	g_main_context_wakeup(sv->mc);
	g_thread_join(sv->thread);
	g_main_loop_unref(sv->loop);
	g_main_context_unref(sv->mc);
	g_dbus_node_info_unref(sv->info);
	unlink(sock);
	rmdir(sv->dir);
	g_free(sock);
	g_free(sv->dir);
	g_free(sv->address);
	g_mutex_clear(&sv->lock);
	g_cond_clear(&sv->ready);
	g_free(sv);
	return 0;
}

struct answers {
	GPtrArray *msgs; /* GDBusMessage, as they came */
};

static void
on_reply(GDBusMessage *reply, void *data)
{
	struct answers *a = data;

	g_ptr_array_add(a->msgs, g_object_ref(reply));
}

/* Runs the connection until `want` answers are in or it closed; returns
 * peer_io's last result. */
static int
run(struct peer *p, struct answers *a, guint want, GError **error)
{
	for (int turns = 0; turns < 10000; turns++) {
		struct pollfd pfd = { .fd = peer_fd(p) };
		int r = peer_io(p, on_reply, a, error);

		if (r < 0 || a->msgs->len >= want)
			return r;
		pfd.events = (short)((peer_wants(p) & G_IO_IN ? POLLIN : 0) |
				     (peer_wants(p) & G_IO_OUT ? POLLOUT : 0));
		assert_true(poll(&pfd, 1, 5000) > 0);
	}
	fail_msg("no end");
	return -1;
}

static GDBusMessage *
call(const char *method, GVariant *args)
{
	GDBusMessage *m =
		g_dbus_message_new_method_call(NULL, "/t", "t.T", method);

	if (args)
		g_dbus_message_set_body(m, args);
	return m;
}

static guint32
send_call(struct peer *p, const char *method, GVariant *args)
{
	GDBusMessage *m = call(method, args);
	GError *error = NULL;
	guint32 serial = peer_send(p, m, &error);

	g_assert_no_error(error);
	assert_true(serial != 0);
	g_object_unref(m);
	return serial;
}

/* Hundreds of calls queued at once: every answer, to the right call. */
static void
test_many_calls(void **state)
{
	struct server *sv = *state;
	struct answers a = { g_ptr_array_new_with_free_func(g_object_unref) };
	GError *error = NULL;
	struct peer *p = peer_open(sv->address, 2000, &error);
	guint32 serials[600];
	GHashTable *seen = g_hash_table_new(NULL, NULL);

	g_assert_no_error(error);
	assert_non_null(p);
	for (int i = 0; i < 600; i++) {
		char s[32];

		snprintf(s, sizeof(s), "call %d", i);
		serials[i] = send_call(p, "Echo", g_variant_new("(s)", s));
		if (i > 0)
			assert_true(serials[i] != serials[i - 1]);
	}
	assert_int_equal(run(p, &a, 600, &error), 0);
	assert_int_equal(a.msgs->len, 600);
	for (guint k = 0; k < a.msgs->len; k++) {
		GDBusMessage *m = a.msgs->pdata[k];
		guint32 rs = g_dbus_message_get_reply_serial(m);
		int i = -1;
		const char *s;
		char want[32];

		for (int j = 0; j < 600; j++)
			if (serials[j] == rs)
				i = j;
		assert_true(i >= 0);
		assert_false(g_hash_table_contains(seen, GINT_TO_POINTER(i)));
		g_hash_table_add(seen, GINT_TO_POINTER(i));
		g_variant_get(g_dbus_message_get_body(m), "(&s)", &s);
		snprintf(want, sizeof(want), "call %d", i);
		assert_string_equal(s, want);
	}
	g_hash_table_destroy(seen);
	g_ptr_array_unref(a.msgs);
	peer_free(p);
}

/* An answer larger than a read, between small ones; an error answer. */
static void
test_big_and_error(void **state)
{
	struct server *sv = *state;
	struct answers a = { g_ptr_array_new_with_free_func(g_object_unref) };
	GError *error = NULL, *err = NULL;
	struct peer *p = peer_open(sv->address, 2000, &error);
	guint32 s_big, s_fail;
	const char *s;

	g_assert_no_error(error);
	send_call(p, "Echo", g_variant_new("(s)", "before"));
	s_big = send_call(p, "Big", g_variant_new("(u)", 300000u));
	s_fail = send_call(p, "Fail", NULL);
	send_call(p, "Echo", g_variant_new("(s)", "after"));
	assert_int_equal(run(p, &a, 4, &error), 0);
	assert_int_equal(a.msgs->len, 4);
	for (guint k = 0; k < 4; k++) {
		GDBusMessage *m = a.msgs->pdata[k];
		guint32 rs = g_dbus_message_get_reply_serial(m);

		if (rs == s_big) {
			g_variant_get(g_dbus_message_get_body(m), "(&s)", &s);
			assert_int_equal(strlen(s), 300000);
		} else if (rs == s_fail) {
			assert_int_equal(g_dbus_message_get_message_type(m),
					 G_DBUS_MESSAGE_TYPE_ERROR);
			assert_true(g_dbus_message_to_gerror(m, &err));
			assert_non_null(strstr(err->message, "nope"));
			g_clear_error(&err);
		}
	}
	g_ptr_array_unref(a.msgs);
	peer_free(p);
}

/* The app closes the connection: closed for good, calls refused. */
static void
test_closed_by_app(void **state)
{
	struct server *sv = *state;
	struct answers a = { g_ptr_array_new_with_free_func(g_object_unref) };
	GError *error = NULL;
	struct peer *p = peer_open(sv->address, 2000, &error);
	GDBusMessage *m;

	g_assert_no_error(error);
	send_call(p, "Echo", g_variant_new("(s)", "first"));
	assert_int_equal(run(p, &a, 1, &error), 0);
	send_call(p, "Bye", NULL);
	assert_int_equal(run(p, &a, 100, &error), -1);
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CLOSED);
	g_clear_error(&error);
	assert_int_equal(a.msgs->len, 1);
	assert_int_equal(peer_wants(p), 0);
	m = call("Echo", g_variant_new("(s)", "late"));
	assert_int_equal(peer_send(p, m, &error), 0);
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CLOSED);
	g_clear_error(&error);
	g_object_unref(m);
	assert_int_equal(peer_io(p, on_reply, &a, &error), -1);
	g_clear_error(&error);
	g_ptr_array_unref(a.msgs);
	peer_free(p);
}

/* Addresses that are not a local socket, or name none that listens. */
static void
test_bad_addresses(void **state)
{
	struct server *sv = *state;
	GError *error = NULL;
	char *gone = g_strdup_printf("unix:path=%s/none", sv->dir);

	assert_null(peer_open("tcp:host=127.0.0.1,port=1", 500, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	assert_null(peer_open("unix:path=/tmp/a%zz", 500, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	assert_null(peer_open(gone, 500, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_free(gone);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_calls),
		cmocka_unit_test(test_big_and_error),
		cmocka_unit_test(test_closed_by_app),
		cmocka_unit_test(test_bad_addresses),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
