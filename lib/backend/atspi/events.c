/*
 * Event watching: AT-SPI events of apps and X Damage of windows, as one
 * stream for the settle (docs/screenshots.md §6) and for anything else that
 * wants "call me when this app changes" (`cua watch`).
 *
 * Apps emit AT-SPI events only for event classes some client registered
 * with the registry (org.a11y.atspi.Registry.RegisterEvent; the
 * registration lasts as long as our bus connection). The signals are
 * picked off the accessibility bus by a GDBus filter, which runs on
 * GDBus's worker thread: it stamps each event with its arrival time and
 * queues it, and wakes the backend's private GMainContext. Callbacks run
 * only inside watch_dispatch(), on the caller's thread, so nothing runs
 * behind the caller's back. Damage comes from the display driver, which
 * wakes the context when it has some.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "events.h"

#define EVENT_QUEUE 4096
#define EVENT_PREFIX "org.a11y.atspi.Event."

/* The event classes the settle and the tree cache listen to
 * (docs/screenshots.md §6.2). */
static const char *const registered_events[] = {
	"object:children-changed",
	"object:property-change",
	"object:state-changed",
	"object:text-changed",
	/* the selected text the state text shows (the tree cache) */
	"object:text-selection-changed",
	/* a container's selected children (the tree cache): GTK 3's tree
	 * views announce a row's selection only so */
	"object:selection-changed",
	"object:visible-data-changed",
	"object:bounds-changed",
	"window:",
};

struct qevent {
	char *bus_name;
	char *path;
	char type[96];
	int32_t detail1, detail2;
	int64_t time_us;
};

struct watch {
	uint32_t id;
	char *bus_name; /* NULL: every app */
	uint64_t window;
	cua_event_fn fn;
	void *user_data;
};

struct events {
	struct atspi_be *be;
	GMutex mu; /* queue */
	struct qevent *q;
	size_t head, len;
	uint64_t lost;
	uint64_t lost_told; /* ev->lost when the watches last heard of it */
	guint filter_id;
	int registered;
	int bus_lost_told; /* the watches heard that the bus went away */
	struct watch *watches;
	size_t n_watches;
	uint32_t next_id;
};

void
events_type_name(const char *iface, const char *member, const char *minor,
		 char *buf, size_t size)
{
	size_t n = 0;
	const char *cls = iface;

	if (!size)
		return;
	if (g_str_has_prefix(iface, EVENT_PREFIX))
		cls = iface + strlen(EVENT_PREFIX);
	for (; *cls && n + 1 < size; cls++)
		buf[n++] = (char)tolower((unsigned char)*cls);
	if (n + 1 < size)
		buf[n++] = ':';
	for (const char *m = member; *m && n + 2 < size; m++) {
		if (isupper((unsigned char)*m) && m != member)
			buf[n++] = '-';
		buf[n++] = (char)tolower((unsigned char)*m);
	}
	if (minor && *minor && n + 1 < size) {
		buf[n++] = ':';
		for (const char *m = minor; *m && n + 1 < size; m++)
			buf[n++] = *m;
	}
	buf[n] = '\0';
}

static void
qevent_clear(struct qevent *e)
{
	g_free(e->bus_name);
	g_free(e->path);
	e->bus_name = e->path = NULL;
}

/* GDBus worker thread. */
static GDBusMessage *
on_message(GDBusConnection *conn, GDBusMessage *msg, gboolean incoming,
	   gpointer data)
{
	struct events *ev = data;
	const char *iface, *member;
	GVariant *body;
	const char *minor = "";
	gint32 d1 = 0, d2 = 0;
	struct qevent *e;

	(void)conn;
	if (!incoming ||
	    g_dbus_message_get_message_type(msg) != G_DBUS_MESSAGE_TYPE_SIGNAL)
		return msg;
	iface = g_dbus_message_get_interface(msg);
	if (!iface || !g_str_has_prefix(iface, EVENT_PREFIX))
		return msg;
	member = g_dbus_message_get_member(msg);
	body = g_dbus_message_get_body(msg);
	if (!body || !g_variant_is_of_type(body, G_VARIANT_TYPE_TUPLE) ||
	    g_variant_n_children(body) < 3)
		return msg;
	{
		GVariant *v0 = g_variant_get_child_value(body, 0);
		GVariant *v1 = g_variant_get_child_value(body, 1);
		GVariant *v2 = g_variant_get_child_value(body, 2);

		if (g_variant_is_of_type(v0, G_VARIANT_TYPE_STRING))
			minor = g_variant_get_string(v0, NULL);
		if (g_variant_is_of_type(v1, G_VARIANT_TYPE_INT32))
			d1 = g_variant_get_int32(v1);
		if (g_variant_is_of_type(v2, G_VARIANT_TYPE_INT32))
			d2 = g_variant_get_int32(v2);
		g_mutex_lock(&ev->mu);
		if (ev->len == EVENT_QUEUE) {
			qevent_clear(&ev->q[ev->head]);
			ev->head = (ev->head + 1) % EVENT_QUEUE;
			ev->len--;
			ev->lost++;
		}
		e = &ev->q[(ev->head + ev->len) % EVENT_QUEUE];
		e->bus_name = g_strdup(g_dbus_message_get_sender(msg));
		e->path = g_strdup(g_dbus_message_get_path(msg));
		events_type_name(iface, member ? member : "", minor, e->type,
				 sizeof(e->type));
		e->detail1 = d1;
		e->detail2 = d2;
		e->time_us = cua_now_us();
		ev->len++;
		g_mutex_unlock(&ev->mu);
		g_variant_unref(v0);
		g_variant_unref(v1);
		g_variant_unref(v2);
		g_main_context_wakeup(ev->be->mc);
	}
	return msg;
}

static void
add_match(struct atspi_be *be, const char *rule)
{
	GError *error = NULL;
	GVariant *r;

	r = g_dbus_connection_call_sync(
		be->a11y, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		"org.freedesktop.DBus", "AddMatch", g_variant_new("(s)", rule),
		NULL, G_DBUS_CALL_FLAGS_NONE, 1000, NULL, &error);
	if (r)
		g_variant_unref(r);
	else {
		cua_debug(be->base.ctx, "events: AddMatch %s: %s", rule,
			  error->message);
		g_error_free(error);
	}
}

static void
on_registered(struct dbatch *batch, GVariant *reply, const GError *error,
	      void *data)
{
	struct atspi_be *be = data;

	(void)batch;
	(void)reply;
	if (error)
		cua_debug(be->base.ctx, "events: RegisterEvent: %s",
			  error->message);
}

/* Our filter, match rules and event registrations on be->a11y. */
static void
subscribe(struct events *ev)
{
	struct atspi_be *be = ev->be;

	ev->filter_id =
		g_dbus_connection_add_filter(be->a11y, on_message, ev, NULL);
	add_match(be, "type='signal',interface='org.a11y.atspi.Event.Object'");
	add_match(be, "type='signal',interface='org.a11y.atspi.Event.Window'");
	add_match(be,
		  "type='signal',interface='org.a11y.atspi.Event.Document'");
	/* one pipelined round of registrations */
	{
		struct dbatch *b = dbatch_new(be, 1000, 16, 0);

		for (size_t i = 0; i < G_N_ELEMENTS(registered_events); i++)
			dbatch_call(
				b, "org.a11y.atspi.Registry",
				"/org/a11y/atspi/registry",
				"org.a11y.atspi.Registry", "RegisterEvent",
				g_variant_new("(s@ass)", registered_events[i],
					      g_variant_new_strv(NULL, 0), ""),
				NULL, on_registered, be);
		dbatch_run(b);
		dbatch_free(b);
	}
	ev->registered = 1;
}

static struct events *
events_get(struct atspi_be *be)
{
	struct events *ev = be->events;

	if (ev)
		return ev;
	ev = g_new0(struct events, 1);
	ev->be = be;
	g_mutex_init(&ev->mu);
	ev->q = g_new0(struct qevent, EVENT_QUEUE);
	ev->next_id = 1;
	be->events = ev;
	subscribe(ev);
	return ev;
}

/* The registrations lasted as long as the old connection; the watches
 * stay and are fed by the new one. */
void
events_reattach(struct events *ev)
{
	if (ev && ev->be->a11y && !ev->filter_id) {
		subscribe(ev);
		ev->bus_lost_told = 0;
	}
}

void
events_detach(struct events *ev)
{
	if (ev && ev->filter_id && ev->be->a11y)
		g_dbus_connection_remove_filter(ev->be->a11y, ev->filter_id);
	if (ev)
		ev->filter_id = 0;
}

void
events_free(struct events *ev)
{
	if (!ev)
		return;
	events_detach(ev);
	g_mutex_lock(&ev->mu);
	for (size_t i = 0; i < ev->len; i++)
		qevent_clear(&ev->q[(ev->head + i) % EVENT_QUEUE]);
	g_mutex_unlock(&ev->mu);
	g_free(ev->q);
	for (size_t i = 0; i < ev->n_watches; i++)
		g_free(ev->watches[i].bus_name);
	g_free(ev->watches);
	g_mutex_clear(&ev->mu);
	g_free(ev);
}

cua_result
atspi_watch_add(struct cua_backend *b, const char *bus_name, uint64_t window,
		cua_event_fn fn, void *user_data, uint32_t *id_out)
{
	struct atspi_be *be = (struct atspi_be *)b;
	struct events *ev;
	struct watch *w;

	*id_out = 0;
	if (!fn)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "watch: no callback");
	if (!be->a11y)
		return cua_error(CUA_ERROR_BACKEND,
				 "watch: no accessibility bus");
	ev = events_get(be);
	w = g_renew(struct watch, ev->watches, ev->n_watches + 1);
	ev->watches = w;
	w = &ev->watches[ev->n_watches++];
	w->id = ev->next_id++;
	w->bus_name = g_strdup(bus_name);
	w->window = window;
	w->fn = fn;
	w->user_data = user_data;
	if (window)
		atspi_track_window(b, window);
	*id_out = w->id;
	return CUA_OK;
}

void
atspi_watch_remove(struct cua_backend *b, uint32_t id)
{
	struct atspi_be *be = (struct atspi_be *)b;
	struct events *ev = be->events;

	if (!ev)
		return;
	for (size_t i = 0; i < ev->n_watches; i++) {
		if (ev->watches[i].id != id)
			continue;
		g_free(ev->watches[i].bus_name);
		memmove(&ev->watches[i], &ev->watches[i + 1],
			(ev->n_watches - i - 1) * sizeof(ev->watches[0]));
		ev->n_watches--;
		return;
	}
}

/* Delivers one event to the matching watches; 1 when one asked to stop. */
static int
deliver(struct events *ev, const struct cua_event *e)
{
	int stop = 0;

	/* a callback may remove watches: iterate over ids */
	for (size_t i = 0; i < ev->n_watches; i++) {
		struct watch w = ev->watches[i];

		if (e->bus_name) {
			if (w.bus_name && strcmp(w.bus_name, e->bus_name) != 0)
				continue;
		} else if (!w.window || w.window != e->window) {
			continue;
		}
		if (w.fn(w.user_data, e))
			stop = 1;
		if (i < ev->n_watches && ev->watches[i].id != w.id)
			i--; /* it removed itself */
	}
	return stop;
}

static gboolean
on_timeout(gpointer data)
{
	*(int *)data = 1;
	return G_SOURCE_REMOVE;
}

int
atspi_watch_dispatch(struct cua_backend *b, int64_t deadline_us)
{
	struct atspi_be *be = (struct atspi_be *)b;
	struct events *ev = be->events;
	int delivered = 0, stop = 0;

	if (!ev)
		return 0;
	/* No event comes from a bus that went away. Every watch hears it
	 * once (type "atspi:bus-lost", no sender), so that a caller waiting
	 * for a change observes again, which reconnects (atspi_reconnect)
	 * or says what is wrong, instead of waiting forever. */
	if (!ev->bus_lost_told &&
	    (!be->a11y || g_dbus_connection_is_closed(be->a11y))) {
		struct cua_event e;

		memset(&e, 0, sizeof(e));
		e.type = "atspi:bus-lost";
		e.time_us = cua_now_us();
		ev->bus_lost_told = 1;
		for (size_t i = 0; i < ev->n_watches; i++) {
			struct watch w = ev->watches[i];

			delivered++;
			w.fn(w.user_data, &e);
			if (i < ev->n_watches && ev->watches[i].id != w.id)
				i--; /* it removed itself */
		}
		return delivered;
	}
	g_main_context_push_thread_default(be->mc);
	for (;;) {
		struct cua_display_damage dmg[64];
		uint64_t lost;
		size_t nd;
		int fired = 0;
		int64_t left;
		GSource *timer;

		/* AT-SPI events, oldest first */
		for (;;) {
			struct qevent qe;
			struct cua_event e;

			g_mutex_lock(&ev->mu);
			if (!ev->len) {
				g_mutex_unlock(&ev->mu);
				break;
			}
			qe = ev->q[ev->head];
			memset(&ev->q[ev->head], 0, sizeof(qe));
			ev->head = (ev->head + 1) % EVENT_QUEUE;
			ev->len--;
			g_mutex_unlock(&ev->mu);
			memset(&e, 0, sizeof(e));
			e.bus_name = qe.bus_name ? qe.bus_name : "";
			e.path = qe.path;
			e.type = qe.type;
			e.detail1 = qe.detail1;
			e.detail2 = qe.detail2;
			e.time_us = qe.time_us;
			delivered++;
			if (deliver(ev, &e))
				stop = 1;
			qevent_clear(&qe);
		}
		/* events dropped by a full queue: every watch hears it once
		 * per loss (type "atspi:events-lost", no sender), so that
		 * whoever keeps state from events knows it missed some */
		g_mutex_lock(&ev->mu);
		lost = ev->lost;
		g_mutex_unlock(&ev->mu);
		if (lost != ev->lost_told) {
			struct cua_event e;

			ev->lost_told = lost;
			memset(&e, 0, sizeof(e));
			e.type = "atspi:events-lost";
			e.time_us = cua_now_us();
			for (size_t i = 0; i < ev->n_watches; i++) {
				struct watch w = ev->watches[i];

				delivered++;
				if (w.fn(w.user_data, &e))
					stop = 1;
				if (i < ev->n_watches &&
				    ev->watches[i].id != w.id)
					i--; /* it removed itself */
			}
		}
		/* damage */
		while (be->display->ops->take_damage &&
		       (nd = be->display->ops->take_damage(
				be->display, dmg, G_N_ELEMENTS(dmg))) > 0) {
			for (size_t i = 0; i < nd; i++) {
				struct cua_event e;

				memset(&e, 0, sizeof(e));
				e.type = "x11:damage";
				e.window = dmg[i].window;
				e.area = dmg[i].area;
				e.time_us = dmg[i].time_us;
				delivered++;
				if (deliver(ev, &e))
					stop = 1;
			}
		}
		left = deadline_us - cua_now_us();
		if (stop || deadline_us == 0 || left <= 0)
			break;
		/* wait for a wakeup (filter thread, display driver) or the
		 * deadline; other sources of our context run too */
		timer = g_timeout_source_new((guint)((left + 999) / 1000));
		g_source_set_callback(timer, on_timeout, &fired, NULL);
		g_source_attach(timer, be->mc);
		g_mutex_lock(&ev->mu);
		left = ev->len;
		g_mutex_unlock(&ev->mu);
		if (!left)
			g_main_context_iteration(be->mc, TRUE);
		g_source_destroy(timer);
		g_source_unref(timer);
	}
	g_main_context_pop_thread_default(be->mc);
	return delivered;
}
