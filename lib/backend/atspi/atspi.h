/*
 * AT-SPI2 backend: internal interfaces shared by its files.
 *
 * The backend speaks the AT-SPI2 D-Bus protocol through GDBus on a private
 * GMainContext, keeping many calls in flight (pipelining) with a timeout on
 * every call. It only uses methods libatspi itself uses (per-property Get,
 * GetChildren/GetChildAtIndex, GetRole, GetState, GetInterfaces,
 * GetExtents, GetAttributes, GetActions, Text and Value methods); never
 * org.freedesktop.DBus.Properties.GetAll, which crashes Qt and Chromium.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_BACKEND_ATSPI_H
#define CUA_BACKEND_ATSPI_H

#include <gio/gio.h>
#include <stdint.h>

#include "backend/backend.h"
#include "core/errors.h"

struct events;

struct atspi_be {
	struct cua_backend base;
	GMainContext *mc;         /* all our D-Bus replies dispatch here */
	GDBusConnection *a11y;    /* the accessibility bus */
	GDBusConnection *session; /* the session bus, NULL if unreachable */
	char *a11y_address;
	/* Windows, input and capture (display/display.h): chosen when the
	 * backend starts; never NULL once it runs. */
	struct cua_display *display;
	/* WAYLAND_DISPLAY, DISPLAY, XDG_SESSION_TYPE as the last choice saw
	 * them (g_malloc'd or NULL) */
	char *display_env[3];
	uint32_t flags;
	/* Per-app (bus name) capability memo: properties/methods an app
	 * answered with an error once are not asked again. */
	GHashTable *caps;      /* bus name -> GUINT_TO_POINTER(bits) */
	struct events *events; /* AT-SPI event subscription (events.h) */
	/* lock.c: the system bus (logind) and this process's login
	 * session there, each looked up once */
	GDBusConnection *system;
	char *login_session;
	int system_tried, login_session_tried;
	/* the installed desktop entries, read again only when a directory
	 * or file of them changed (linux.h) */
	struct desktop_cache *desktop_cache;
	/* the apps' own sockets, kept between reads (dbus.c) */
	struct atspi_peers *peers;
	/* press actions' own connections, while their handlers may run
	 * (held.c) */
	GPtrArray *held;
};

/* Capability bits remembered per application bus name. */
enum atspi_cap {
	ATSPI_CAP_NO_ACCESSIBLE_ID = 1u << 0,
	ATSPI_CAP_NO_HELP_TEXT = 1u << 1,
	/* Action.GetActions lists localized names. The app runs in an
	 * English (or C) locale, so they are the raw names (`Click` for
	 * `click`) ... */
	ATSPI_CAP_ACTIONS_RAW = 1u << 18,
	/* ... or in another one: raw names come from Action.GetName(i). */
	ATSPI_CAP_ACTIONS_LOCALIZED = 1u << 19,
	/* GetActions answers the same string three times for every action
	 * (Gecko through at-spi2-atk: its name, description and key binding
	 * getters share one buffer, so all three read the key binding,
	 * ";;"): its entries are unusable, it is not asked again, and every
	 * name comes from GetName(i) after the NActions count. Set for Gecko
	 * apps before the first read: the shared buffer is freed between the
	 * getters, and an entry read from freed memory that is not UTF-8
	 * makes libdbus abort the app (Firefox ESR 115, the items of an open
	 * menu). */
	ATSPI_CAP_ACTIONS_BY_INDEX = 1u << 21,
};

/* The capability memo of bus name `bus` (decode.c). */
uint32_t
atspi_caps_of(struct atspi_be *be, const char *bus);
void
atspi_caps_add(struct atspi_be *be, const char *bus, uint32_t bits);

/* backend.c: replaces a closed accessibility bus connection, or a dead
 * window-system connection (the display driver's reconnect), once the
 * service is back; 0 when the bus is connected. */
int
atspi_reconnect(struct atspi_be *be);

/* The accessibility bus connection closed (its daemon died) or could not
 * be made again: nothing can be read or done through it. */
static inline int
atspi_bus_gone(const struct atspi_be *be)
{
	return !be->a11y || g_dbus_connection_is_closed(be->a11y);
}

/* Most children read for one node, by the walk and by the live
 * re-resolution before actions (fetch.c's two modes) alike, so that both
 * see the same siblings. Ranged reads stay far below it; it bounds what
 * an app's ChildCount can make us allocate and ask for where no range
 * applies (an app's toplevels): a hostile app claiming 2^31 - 1
 * toplevels made the walk allocate 32 GiB of slots and abort. */
#define ATSPI_CHILDREN_MAX 1000

/* ------------------------------------------------------------------ */
/* dbus.c — pipelined calls                                            */

struct dbatch;

/*
 * Reply callback. On success `reply` is the reply body (a tuple; owned by
 * the batch, valid during the call) and `error` NULL; on failure `reply`
 * is NULL and `error` says why (timeouts are G_IO_ERROR_TIMED_OUT).
 * Callbacks may queue further calls on the same batch.
 */
typedef void (*dbatch_cb)(struct dbatch *batch, GVariant *reply,
			  const GError *error, void *data);

struct dbatch *
dbatch_new(struct atspi_be *be, int timeout_ms, int max_in_flight,
	   int64_t deadline_us);
void
dbatch_free(struct dbatch *batch);
/* Queues a method call. `args` is consumed if floating (may be NULL). */
void
dbatch_call(struct dbatch *batch, const char *bus, const char *path,
	    const char *iface, const char *method, GVariant *args,
	    const GVariantType *reply_type, dbatch_cb cb, void *data);
/* Queues org.freedesktop.DBus.Properties.Get(iface, prop); the callback
 * gets the unwrapped value as a 1-tuple "(v)". */
void
dbatch_get_property(struct dbatch *batch, const char *bus, const char *path,
		    const char *iface, const char *prop, dbatch_cb cb,
		    void *data);
/* Runs until no call is queued or in flight, or the deadline passed.
 * Returns 0, or -1 when the deadline stopped it (pending calls are
 * cancelled and their callbacks are not run). */
int
dbatch_run(struct dbatch *batch);
/* Gives up the batch from inside a callback (as the deadline does). */
void
dbatch_cancel(struct dbatch *batch);
/* Connects to the app's own socket (GetApplicationBusAddress), as
 * libatspi does for ATK-bridge apps, unless the backend is connected
 * already; from then on every batch sends the app's calls there. 1 when
 * it is connected, 0 when the app has none (or it cannot be reached);
 * *calls counts the round trips made, *timed_out says that the app did not
 * answer at all. */
int
atspi_peer_get(struct atspi_be *be, const char *bus, int timeout_ms,
	       uint64_t *calls, int *timed_out);
/* Closes the apps' sockets the backend kept. */
void
atspi_peers_free(struct atspi_be *be);
uint64_t
dbatch_calls(const struct dbatch *batch);
uint64_t
dbatch_errors(const struct dbatch *batch);

/* One synchronous call through a batch of one (same timeout rules). */
GVariant *
atspi_call_sync(struct atspi_be *be, const char *bus, const char *path,
		const char *iface, const char *method, GVariant *args,
		const GVariantType *reply_type, int timeout_ms, GError **error);
/*
 * The same over a connection of its own, opened for the call and closed
 * after it, when the app is reached on its own socket (on the bus, as
 * atspi_call_sync). For calls whose handler may run a nested main loop
 * (Action.DoAction: the ATK bridge answers, then runs the action, and a
 * button that opens a modal dialog runs the dialog's loop there): the app
 * reads no more messages from the connection that carried the call until
 * the handler returns, so that connection must not be the kept one.
 * On the bus, atspi_call_probed(). held.c.
 */
GVariant *
atspi_call_sync_apart(struct atspi_be *be, const char *bus, const char *path,
		      const char *iface, const char *method, GVariant *args,
		      const GVariantType *reply_type, int timeout_ms,
		      GError **error);
/*
 * probe.c: the call (a press action) on the bus, followed at once by a
 * probe of the same object on the same connection; when the app answers
 * the probe first (it runs the handler before it answers, as Qt does, and
 * the handler runs a loop) the call fails with G_IO_ERROR_PENDING: the
 * action is running. timeout_ms > 0.
 */
GVariant *
atspi_call_probed(struct atspi_be *be, const char *bus, const char *path,
		  const char *iface, const char *method, GVariant *args,
		  const GVariantType *reply_type, int timeout_ms,
		  GError **error);
/*
 * 1 when a press action sent to `bus` by atspi_call_sync_apart() still
 * runs its handler in a nested loop: the app answers on its kept
 * connection (a round trip of up to timeout_ms) and not yet on the
 * action's. A key event reaching such an app deadlocks its ATK bridge
 * (docs/actions.md §3). 0 when none runs, or the app does not answer.
 */
int
atspi_action_running(struct atspi_be *be, const char *bus, int timeout_ms);
/* Lets go of the press actions' connections. */
void
atspi_held_free(struct atspi_be *be);

/* ------------------------------------------------------------------ */
/* decode.c — replies into raw nodes (the reader, fetch_reply.c)      */

/* GTK 4 names some objects with their GType name ("GtkEntry"):
 * /^Gtk[A-Z][A-Za-z]*$/. Those are no names. */
int
atspi_is_gtype_name(const char *s);
/* Interface names, full ("org.a11y.atspi.Text") or short ("Text"). */
uint32_t
atspi_iface_bit(const char *name);
uint64_t
atspi_decode_states(GVariant *reply); /* GetState "(au)" */
uint32_t
atspi_decode_ifaces(GVariant *reply); /* GetInterfaces "(as)" */
/*
 * Action.GetActions "(a(sss))" into n->actions (every entry kept, so that
 * array index = DoAction index), with the app's capability memo deciding
 * where raw names come from. An entry whose raw name is still unknown has
 * name NULL: the caller asks GetName(i) for each such entry. -1 when out
 * of memory.
 */
int
atspi_decode_actions(struct atspi_be *be, const char *bus,
		     struct cua_arena *arena, struct cua_raw_node *n,
		     GVariant *reply);
/* The value of a Properties.Get reply "(v)" if it has type `t`; the
 * caller unrefs. NULL otherwise. */
GVariant *
atspi_prop_value(GVariant *reply, const GVariantType *t);
/* An app's string copied into `arena`, cut to at most 1 MiB at a
 * character boundary (docs/safety.md §5). */
#define ATSPI_STRING_CAP (1024 * 1024)
char *
atspi_strdup_capped(struct cua_arena *arena, const char *s);
/* GetAttributes "(a{ss})"; -1 when out of memory. */
int
atspi_decode_attrs(struct cua_arena *arena, struct cua_raw_node *n,
		   GVariant *reply);

/* ------------------------------------------------------------------ */
/* fetch.c — reading nodes                                             */

cua_result
atspi_open_app(struct cua_backend *b, const struct cua_app_info *app,
	       struct cua_raw_snapshot **out);
cua_result
atspi_fetch(struct cua_backend *b, struct cua_raw_snapshot *snap,
	    struct cua_raw_node **roots, size_t n_roots,
	    const struct cua_fetch_policy *policy);

/* ------------------------------------------------------------------ */
/* apps.c — running apps                                               */

cua_result
atspi_list_apps(struct cua_backend *b, struct cua_app_list **out);
int
atspi_process_alive(struct cua_backend *b, int64_t pid, uint64_t start_time);

/* launch.c — launching desktop entries */
cua_result
atspi_launch(struct cua_backend *b, const struct cua_installed_app *app,
	     int64_t *pid);

/* desktop_entry.c — XDG desktop entries */
cua_result
atspi_list_installed(struct cua_backend *b, struct cua_installed_list **out);

/* ------------------------------------------------------------------ */
/* procinfo.c — /proc                                                  */

struct procinfo {
	int64_t pid;
	uint64_t start_time; /* field 22 of /proc/<pid>/stat */
	char *exe;           /* readlink /proc/<pid>/exe, or NULL */
	char *comm;
	char *launched_desktop_file; /* GIO_LAUNCHED_DESKTOP_FILE */
	char *flatpak_id;
	char *snap_name;
};

int
procinfo_read(int64_t pid, struct procinfo *out); /* 0 or -errno */
void
procinfo_clear(struct procinfo *info);

/* ------------------------------------------------------------------ */
/* fetch_live.c — live re-reads; live.c — requests for actions         */

cua_result
atspi_refresh_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
		    struct cua_raw_node **nodes, const int *depths, size_t n,
		    const struct cua_fetch_policy *policy);
cua_result
atspi_sweep_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
		  struct cua_raw_node **nodes, size_t n,
		  const struct cua_fetch_policy *policy);
cua_result
atspi_refresh_subtrees(struct cua_backend *b, struct cua_raw_snapshot *snap,
		       struct cua_raw_node **nodes, const int *depths, size_t n,
		       const struct cua_fetch_policy *policy);
cua_result
atspi_read_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
		 struct cua_raw_node **nodes, size_t n, uint32_t want);
cua_result
atspi_read_children(struct cua_backend *b, struct cua_raw_snapshot *snap,
		    struct cua_raw_node **parents, size_t n, uint32_t first,
		    uint32_t count, uint32_t want);
cua_result
atspi_live_call(struct cua_backend *b, struct cua_live_call *c);

/* ------------------------------------------------------------------ */
/* display.c — the display driver: choice, and the backend's window,  */
/* input and capture members, which forward to it                     */

/* Chooses and opens the session's display driver (be->display):
 * CUA_DISPLAY, else what the environment shows (display/display.h). */
cua_result
atspi_display_open(struct atspi_be *be);
void
atspi_display_close(struct atspi_be *be);
/* After an automatic choice of "none": choose again when the environment
 * changed (atspi_reconnect). */
void
atspi_display_recheck(struct atspi_be *be);
/* The backend's display and set_display members. */
struct cua_display *
atspi_display(struct cua_backend *b);
cua_result
atspi_set_display(struct cua_backend *b, const char *name);

/* lock.c: whether the screen is locked (backend op screen_locked) */
int
atspi_screen_locked(struct cua_backend *b, char *source, size_t size);
void
atspi_lock_close(struct atspi_be *be);

cua_result
atspi_window_query(struct cua_backend *b, uint64_t window, struct cua_win *out);
cua_result
atspi_window_at(struct cua_backend *b, int32_t x, int32_t y,
		struct cua_win *out);
cua_result
atspi_focus_window(struct cua_backend *b, struct cua_win *out);
cua_result
atspi_activate_window(struct cua_backend *b, uint64_t window, int timeout_ms,
		      int *confirmed);
cua_result
atspi_pointer(struct cua_backend *b, const struct cua_pointer_event *ev,
	      size_t n, int restore);
cua_result
atspi_keys(struct cua_backend *b, const struct cua_key_chord *chords, size_t n,
	   int keymap_delay_ms, const char *app_bus, int *kept);
cua_result
atspi_keys_restore(struct cua_backend *b);
int
atspi_app_sync(struct cua_backend *b, const char *bus_name, int timeout_ms);

cua_result
atspi_keys_check(struct cua_backend *b, const struct cua_key_chord *chords,
		 size_t n);
void
atspi_track_window(struct cua_backend *b, uint64_t window);
cua_result
atspi_capture(struct cua_backend *b, const struct cua_capture_request *req,
	      struct cua_capture **out, enum cua_capture_status *status);

#endif
