/*
 * The wrong-element guard (guard.h): every node of an app read over the
 * AT-SPI bus with GDBus, breadth first, up to 256 calls in flight, on a
 * private main context (libcua's own connection and sources are never
 * touched).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"

#define MAX_NODES 20000
#define MAX_IN_FLIGHT 256
#define TEXT_CAP 400
#define ROLE_TOOL_TIP 64
#define STATE_ACTIVE 1
#define STATE_FOCUSED 12
#define STATE_DEFUNCT 6

struct gnode {
	char *bus, *path, *key;
	char *parent; /* key of the parent it was reached from */
	unsigned role;
	char *name;
	unsigned long long states;
	int has_value;
	double value;
	char *text; /* NULL: no Text interface */
	int gone;   /* an answer said the object does not exist */
};

struct snap {
	GHashTable *nodes; /* key -> struct gnode */
	GPtrArray *order;  /* in walk order */
};

/* The AT-SPI role names by number (the protocol's, as libatspi names
 * them; toolkits' own GetRoleName answers differ: GTK 4 says "text box") */
static const char *const role_names[] = {
	"invalid",
	"accelerator label",
	"alert",
	"animation",
	"arrow",
	"calendar",
	"canvas",
	"check box",
	"check menu item",
	"color chooser",
	"column header",
	"combo box",
	"date editor",
	"desktop icon",
	"desktop frame",
	"dial",
	"dialog",
	"directory pane",
	"drawing area",
	"file chooser",
	"filler",
	"focus traversable",
	"font chooser",
	"frame",
	"glass pane",
	"html container",
	"icon",
	"image",
	"internal frame",
	"label",
	"layered pane",
	"list",
	"list item",
	"menu",
	"menu bar",
	"menu item",
	"option pane",
	"page tab",
	"page tab list",
	"panel",
	"password text",
	"popup menu",
	"progress bar",
	"push button",
	"radio button",
	"radio menu item",
	"root pane",
	"row header",
	"scroll bar",
	"scroll pane",
	"separator",
	"slider",
	"spin button",
	"split pane",
	"status bar",
	"table",
	"table cell",
	"table column header",
	"table row header",
	"tearoff menu item",
	"terminal",
	"text",
	"toggle button",
	"tool bar",
	"tool tip",
	"tree",
	"tree table",
	"unknown",
	"viewport",
	"window",
	"extended",
	"header",
	"footer",
	"paragraph",
	"ruler",
	"application",
	"autocomplete",
	"editbar",
	"embedded",
	"entry",
	"chart",
	"caption",
	"document frame",
	"heading",
	"page",
	"section",
	"redundant object",
	"form",
	"link",
	"input method window",
	"table row",
	"tree item",
	"document spreadsheet",
	"document presentation",
	"document text",
	"document web",
	"document email",
	"comment",
	"list box",
	"grouping",
	"image map",
	"notification",
	"info bar",
	"level bar",
	"title bar",
	"block quote",
	"audio",
	"video",
	"definition",
	"article",
	"landmark",
	"log",
	"marquee",
	"math",
	"rating",
	"timer",
	"static",
	"math fraction",
	"math root",
	"subscript",
	"superscript",
	"description list",
	"description term",
	"description value",
	"footnote",
	"content deletion",
	"content insertion",
	"mark",
	"suggestion",
	"push button menu",
};

struct allow {
	char *role, *name;
	int flags;
};

struct guard {
	pid_t pid;
	int64_t before_us; /* how long the first snapshot took */
	char *app_bus;
	struct snap before;
	GPtrArray *allow;
	unsigned long long states_ok;
	int added_ok;
};

/* ------------------------------------------------------------------ */
/* The walk                                                             */

static GDBusConnection *conn;

struct walk {
	GMainContext *ctx;
	struct snap *s;
	int pending, queued_calls;
	GQueue queue; /* struct call waiting for a slot */
	int failed;
};

struct call {
	struct walk *w;
	struct gnode *n;
	const char *iface, *method, *reply_type;
	GVariant *args;
	void (*done)(struct call *c, GVariant *reply);
};

static GDBusConnection *
a11y_bus(void)
{
	GError *e = NULL;
	const char *addr = getenv("AT_SPI_BUS_ADDRESS");
	char *owned = NULL;

	if (conn)
		return conn;
	if (!addr || !*addr) {
		GDBusConnection *session =
			g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &e);
		GVariant *r;

		if (!session)
			fail_msg("guard: no session bus: %s", e->message);
		r = g_dbus_connection_call_sync(
			session, "org.a11y.Bus", "/org/a11y/bus",
			"org.a11y.Bus", "GetAddress", NULL,
			G_VARIANT_TYPE("(s)"), 0, 5000, NULL, &e);
		if (!r)
			fail_msg("guard: no AT-SPI bus: %s", e->message);
		g_variant_get(r, "(s)", &owned);
		g_variant_unref(r);
		g_object_unref(session);
		addr = owned;
	}
	conn = g_dbus_connection_new_for_address_sync(
		addr,
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL, NULL, &e);
	if (!conn)
		fail_msg("guard: cannot connect to %s: %s", addr, e->message);
	g_free(owned);
	return conn;
}

static void
send_call(struct call *c);

static void
on_reply(GObject *src, GAsyncResult *res, gpointer data)
{
	struct call *c = data;
	struct walk *w = c->w;
	GError *e = NULL;
	GVariant *r =
		g_dbus_connection_call_finish(G_DBUS_CONNECTION(src), res, &e);
	/* an allocated copy of the error's D-Bus name, or NULL */
	char *remote = e ? g_dbus_error_get_remote_error(e) : NULL;

	if (!r && c->n && remote && strstr(remote, "UnknownObject"))
		c->n->gone = 1;
	g_free(remote);
	c->done(c, r);
	if (r)
		g_variant_unref(r);
	g_clear_error(&e);
	w->pending--;
	g_free(c);
	if (!g_queue_is_empty(&w->queue))
		send_call(g_queue_pop_head(&w->queue));
}

static void
send_call(struct call *c)
{
	struct walk *w = c->w;

	if (w->pending >= MAX_IN_FLIGHT) {
		g_queue_push_tail(&w->queue, c);
		return;
	}
	w->pending++;
	g_dbus_connection_call(a11y_bus(), c->n ? c->n->bus : "",
			       c->n ? c->n->path : "", c->iface, c->method,
			       c->args, G_VARIANT_TYPE(c->reply_type),
			       G_DBUS_CALL_FLAGS_NONE, 5000, NULL, on_reply, c);
}

static void
call(struct walk *w, struct gnode *n, const char *iface, const char *method,
     GVariant *args, const char *reply_type,
     void (*done)(struct call *, GVariant *))
{
	struct call *c = g_new0(struct call, 1);

	c->w = w;
	c->n = n;
	c->iface = iface;
	c->method = method;
	c->args = args;
	c->reply_type = reply_type;
	c->done = done;
	send_call(c);
}

static GVariant *
prop_args(const char *iface, const char *prop)
{
	return g_variant_new("(ss)", iface, prop);
}

static void
visit(struct walk *w, const char *bus, const char *path, const char *parent);

static void
on_role(struct call *c, GVariant *r)
{
	if (r)
		g_variant_get(r, "(u)", &c->n->role);
}

static void
on_state(struct call *c, GVariant *r)
{
	GVariantIter *it;
	guint32 v;
	int i = 0;

	if (!r)
		return;
	g_variant_get(r, "(au)", &it);
	while (g_variant_iter_next(it, "u", &v) && i < 2)
		c->n->states |= (unsigned long long)v << (32 * i++);
	g_variant_iter_free(it);
}

static void
on_name(struct call *c, GVariant *r)
{
	GVariant *v;

	if (!r)
		return;
	g_variant_get(r, "(v)", &v);
	if (g_variant_is_of_type(v, G_VARIANT_TYPE_STRING))
		c->n->name = g_variant_dup_string(v, NULL);
	g_variant_unref(v);
}

static void
on_value(struct call *c, GVariant *r)
{
	GVariant *v;

	if (!r)
		return;
	g_variant_get(r, "(v)", &v);
	if (g_variant_is_of_type(v, G_VARIANT_TYPE_DOUBLE)) {
		c->n->value = g_variant_get_double(v);
		c->n->has_value = 1;
	}
	g_variant_unref(v);
}

static void
on_text(struct call *c, GVariant *r)
{
	const char *s;

	if (!r)
		return;
	g_variant_get(r, "(&s)", &s);
	c->n->text = g_strndup(s, TEXT_CAP);
}

static void
on_ifaces(struct call *c, GVariant *r)
{
	GVariantIter *it;
	const char *iface;

	if (!r)
		return;
	g_variant_get(r, "(as)", &it);
	while (g_variant_iter_next(it, "&s", &iface)) {
		if (strcmp(iface, "org.a11y.atspi.Value") == 0)
			call(c->w, c->n, "org.freedesktop.DBus.Properties",
			     "Get",
			     prop_args("org.a11y.atspi.Value", "CurrentValue"),
			     "(v)", on_value);
		else if (strcmp(iface, "org.a11y.atspi.Text") == 0)
			call(c->w, c->n, "org.a11y.atspi.Text", "GetText",
			     g_variant_new("(ii)", 0, -1), "(s)", on_text);
	}
	g_variant_iter_free(it);
}

static void
on_children(struct call *c, GVariant *r)
{
	GVariantIter *it;
	const char *bus, *path;

	if (!r)
		return;
	g_variant_get(r, "(a(so))", &it);
	while (g_variant_iter_next(it, "(&s&o)", &bus, &path))
		if (strcmp(path, "/org/a11y/atspi/null") != 0)
			visit(c->w, bus, path, c->n->key);
	g_variant_iter_free(it);
}

static void
visit(struct walk *w, const char *bus, const char *path, const char *parent)
{
	struct gnode *n;
	char *key = g_strdup_printf("%s:%s", bus, path);

	if (g_hash_table_contains(w->s->nodes, key) ||
	    g_hash_table_size(w->s->nodes) >= MAX_NODES) {
		g_free(key);
		return;
	}
	n = g_new0(struct gnode, 1);
	n->bus = g_strdup(bus);
	n->path = g_strdup(path);
	n->key = key;
	n->parent = g_strdup(parent);
	g_hash_table_insert(w->s->nodes, key, n);
	g_ptr_array_add(w->s->order, n);
	call(w, n, "org.a11y.atspi.Accessible", "GetRole", NULL, "(u)",
	     on_role);
	call(w, n, "org.a11y.atspi.Accessible", "GetState", NULL, "(au)",
	     on_state);
	call(w, n, "org.freedesktop.DBus.Properties", "Get",
	     prop_args("org.a11y.atspi.Accessible", "Name"), "(v)", on_name);
	call(w, n, "org.a11y.atspi.Accessible", "GetInterfaces", NULL, "(as)",
	     on_ifaces);
	call(w, n, "org.a11y.atspi.Accessible", "GetChildren", NULL, "(a(so))",
	     on_children);
}

static void
node_free(gpointer data)
{
	struct gnode *n = data;

	g_free(n->bus);
	g_free(n->path);
	g_free(n->key);
	g_free(n->parent);
	g_free(n->name);
	g_free(n->text);
	g_free(n);
}

/* The app's bus name: the registry's child whose connection has `pid`. */
static char *
app_bus_of(pid_t pid)
{
	GError *e = NULL;
	GVariant *r;
	GVariantIter *it;
	const char *bus, *path;
	char *found = NULL;

	r = g_dbus_connection_call_sync(
		a11y_bus(), "org.a11y.atspi.Registry",
		"/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible",
		"GetChildren", NULL, G_VARIANT_TYPE("(a(so))"), 0, 5000, NULL,
		&e);
	if (!r)
		fail_msg("guard: the registry did not answer: %s", e->message);
	g_variant_get(r, "(a(so))", &it);
	while (!found && g_variant_iter_next(it, "(&s&o)", &bus, &path)) {
		GVariant *p = g_dbus_connection_call_sync(
			a11y_bus(), "org.freedesktop.DBus",
			"/org/freedesktop/DBus", "org.freedesktop.DBus",
			"GetConnectionUnixProcessID", g_variant_new("(s)", bus),
			G_VARIANT_TYPE("(u)"), 0, 5000, NULL, NULL);
		guint32 got = 0;

		if (p) {
			g_variant_get(p, "(u)", &got);
			g_variant_unref(p);
		}
		if ((pid_t)got == pid)
			found = g_strdup(bus);
	}
	g_variant_iter_free(it);
	g_variant_unref(r);
	return found;
}

static void
snapshot(struct guard *g, struct snap *s)
{
	struct walk w = { 0 };
	gint64 deadline = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;

	s->nodes =
		g_hash_table_new_full(g_str_hash, g_str_equal, NULL, node_free);
	s->order = g_ptr_array_new();
	w.ctx = g_main_context_new();
	w.s = s;
	g_queue_init(&w.queue);
	g_main_context_push_thread_default(w.ctx);
	visit(&w, g->app_bus, "/org/a11y/atspi/accessible/root", "");
	while (w.pending > 0 && g_get_monotonic_time() < deadline)
		g_main_context_iteration(w.ctx, TRUE);
	g_main_context_pop_thread_default(w.ctx);
	if (w.pending > 0)
		fail_msg("guard: the app (pid %d) did not answer within 20 s",
			 (int)g->pid);
	g_main_context_unref(w.ctx);
}

static void
snap_free(struct snap *s)
{
	g_ptr_array_free(s->order, TRUE);
	g_hash_table_destroy(s->nodes);
}

/* ------------------------------------------------------------------ */
/* The comparison                                                       */

struct guard *
guard_begin(pid_t pid)
{
	struct guard *g = g_new0(struct guard, 1);

	g->pid = pid;
	g->app_bus = app_bus_of(pid);
	if (!g->app_bus)
		fail_msg("guard: no app with pid %d on the AT-SPI bus",
			 (int)pid);
	g->allow = g_ptr_array_new();
	g->before_us = g_get_monotonic_time();
	snapshot(g, &g->before);
	g->before_us = g_get_monotonic_time() - g->before_us;
	return g;
}

void
guard_allow(struct guard *g, const char *role, const char *name, int flags)
{
	struct allow *a = g_new0(struct allow, 1);

	a->role = g_strdup(role);
	a->name = g_strdup(name);
	a->flags = flags;
	g_ptr_array_add(g->allow, a);
}

void
guard_allow_states(struct guard *g, unsigned long long mask)
{
	g->states_ok |= mask;
}

void
guard_allow_added(struct guard *g)
{
	g->added_ok = 1;
}

static const char *
role_name(const struct snap *s, unsigned role)
{
	(void)s;
	return role < G_N_ELEMENTS(role_names) ? role_names[role] : "?";
}

static int
name_matches(const char *pattern, const char *name)
{
	size_t n;

	if (!pattern)
		return 1;
	if (!name)
		name = "";
	n = strlen(pattern);
	if (n && pattern[n - 1] == '*')
		return strncmp(pattern, name, n - 1) == 0;
	return strcmp(pattern, name) == 0;
}

static int
node_matches(const struct allow *a, const struct snap *s, const struct gnode *n)
{
	return n && (!a->role || strcmp(a->role, role_name(s, n->role)) == 0) &&
	       name_matches(a->name, n->name);
}

/* `key` is allowed by `a` in snapshot `s`: the node, or (subtree) one of
 * its ancestors there. */
static int
allowed_in(const struct allow *a, const struct snap *s, const char *key,
	   int subtree)
{
	const struct gnode *n = g_hash_table_lookup(s->nodes, key);

	for (int depth = 0; n && depth < 200; depth++) {
		if (node_matches(a, s, n))
			return 1;
		if (!subtree)
			return 0;
		n = g_hash_table_lookup(s->nodes, n->parent);
	}
	return 0;
}

static int
allowed(const struct guard *g, const struct snap *after, const char *key)
{
	for (guint i = 0; i < g->allow->len; i++) {
		const struct allow *a = g->allow->pdata[i];
		int sub = a->flags & GUARD_SUBTREE;

		if (allowed_in(a, &g->before, key, sub) ||
		    allowed_in(a, after, key, sub))
			return 1;
	}
	return 0;
}

/* Tool tips (and what they hold) come and go with the pointer. */
static int
in_tool_tip(const struct snap *s, const char *key)
{
	const struct gnode *n = g_hash_table_lookup(s->nodes, key);

	for (int depth = 0; n && depth < 200; depth++) {
		if (n->role == ROLE_TOOL_TIP)
			return 1;
		n = g_hash_table_lookup(s->nodes, n->parent);
	}
	return 0;
}

static void
describe(GString *out, const struct snap *s, const struct gnode *n)
{
	g_string_append_printf(out, "[%s] '%s'", role_name(s, n->role),
			       n->name ? n->name : "");
}

static void
states_text(GString *out, unsigned long long bits)
{
	for (int i = 0; i < 64; i++)
		if (bits >> i & 1)
			g_string_append_printf(out, " %d", i);
}

static int
compare(struct guard *g, struct snap *after, GString *report)
{
	unsigned long long ignore =
		(1ull << STATE_FOCUSED) | (1ull << STATE_ACTIVE) | g->states_ok;
	int changes = 0;

	for (guint i = 0; i < g->before.order->len; i++) {
		struct gnode *b = g->before.order->pdata[i];
		struct gnode *a = g_hash_table_lookup(after->nodes, b->key);
		GString *what = g_string_new(NULL);

		if (in_tool_tip(&g->before, b->key)) {
			g_string_free(what, TRUE);
			continue;
		}
		if (!a || a->gone || (a->states >> STATE_DEFUNCT & 1)) {
			if (!b->gone)
				g_string_append(what, " removed");
		} else {
			unsigned long long d =
				(a->states ^ b->states) & ~ignore;

			if (a->role != b->role)
				g_string_append_printf(
					what, " role %s -> %s",
					role_name(&g->before, b->role),
					role_name(after, a->role));
			if (g_strcmp0(a->name, b->name) != 0)
				g_string_append_printf(what,
						       " name '%s' -> '%s'",
						       b->name ? b->name : "",
						       a->name ? a->name : "");
			if (d) {
				g_string_append(what, " states on:");
				states_text(what, d & a->states);
				g_string_append(what, " off:");
				states_text(what, d & b->states);
			}
			if (a->has_value != b->has_value ||
			    (a->has_value && a->value != b->value))
				g_string_append_printf(what, " value %g -> %g",
						       b->value, a->value);
			if (g_strcmp0(a->text, b->text) != 0)
				g_string_append_printf(
					what, " text '%.60s' -> '%.60s'",
					b->text ? b->text : "",
					a->text ? a->text : "");
		}
		if (what->len && !allowed(g, after, b->key)) {
			changes++;
			if (report && changes <= 40) {
				describe(report, &g->before, b);
				g_string_append_printf(report, "%s\n",
						       what->str);
			}
		}
		g_string_free(what, TRUE);
	}
	for (guint i = 0; i < after->order->len; i++) {
		struct gnode *a = after->order->pdata[i];

		if (g_hash_table_contains(g->before.nodes, a->key) || a->gone ||
		    g->added_ok || in_tool_tip(after, a->key) ||
		    allowed(g, after, a->key))
			continue;
		changes++;
		if (report && changes <= 40) {
			describe(report, after, a);
			g_string_append(report, " added\n");
		}
	}
	return changes;
}

static void
guard_free(struct guard *g)
{
	for (guint i = 0; i < g->allow->len; i++) {
		struct allow *a = g->allow->pdata[i];

		g_free(a->role);
		g_free(a->name);
		g_free(a);
	}
	g_ptr_array_free(g->allow, TRUE);
	snap_free(&g->before);
	g_free(g->app_bus);
	g_free(g);
}

int
guard_end_count(struct guard *g, char **report)
{
	struct snap after;
	GString *r = g_string_new(NULL);
	int64_t t0 = g_get_monotonic_time();
	int n;

	snapshot(g, &after);
	if (getenv("CUA_GUARD_TIMES"))
		fprintf(stderr, "guard: %u nodes, snapshots %lld + %lld ms\n",
			g->before.order->len, (long long)g->before_us / 1000,
			(long long)(g_get_monotonic_time() - t0) / 1000);
	n = compare(g, &after, r);
	snap_free(&after);
	guard_free(g);
	if (report)
		*report = n ? g_strdup(r->str) : NULL;
	g_string_free(r, TRUE);
	return n;
}

int
guard_end(struct guard *g)
{
	char *report = NULL;
	int compared = (int)g->before.order->len;
	int n = guard_end_count(g, &report);

	if (n)
		fail_msg("the action changed %d other node%s of the app:\n%s",
			 n, n == 1 ? "" : "s", report);
	return compared;
}

static int64_t
settle_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
guard_settle(pid_t pid, int ms, int timeout_ms)
{
	int64_t deadline = settle_now_ms() + timeout_ms;
	char *report = NULL;

	for (;;) {
		struct guard *g = guard_begin(pid);

		usleep((useconds_t)ms * 1000);
		if (guard_end_count(g, &report) == 0)
			return;
		if (settle_now_ms() >= deadline)
			fail_msg("pid %d kept changing for %d ms:\n%s",
				 (int)pid, timeout_ms, report);
		free(report);
		report = NULL;
	}
}
