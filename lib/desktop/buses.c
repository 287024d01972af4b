/*
 * Headless desktops: the private session bus (dbus-daemon), the AT-SPI
 * bus launcher and registry daemon, and at teardown every client of those
 * two buses. Every D-Bus call has a deadline and never starts a service
 * by activation: a hung or dead daemon must not hang a start or a stop.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "backend/atspi/connect.h"
#include "desktop.h"

/* A connection of our own to a bus daemon, with a deadline: a hung daemon
 * must not hang the teardown. */
static GDBusConnection *
bus_connect(struct desktop *d, const char *address, int timeout_ms,
	    GError **error)
{
	if (!d->ctx)
		d->ctx = g_main_context_new();
	return cua_dbus_connect(
		address,
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		d->ctx, timeout_ms, error);
}

void
bus_close(struct desktop *d, GDBusConnection **conn)
{
	if (!*conn)
		return;
	g_dbus_connection_close_sync(*conn, NULL, NULL);
	g_object_unref(*conn);
	*conn = NULL;
	/* dispatch the "closed" emission, which holds the last reference */
	while (d->ctx && g_main_context_iteration(d->ctx, FALSE))
		;
}

/* A call that never starts a service by activation. */
static GVariant *
bus_call(GDBusConnection *conn, const char *dest, const char *path,
	 const char *iface, const char *method, GVariant *args,
	 const char *reply_type, GError **error)
{
	return g_dbus_connection_call_sync(
		conn, dest, path, iface, method, args,
		reply_type ? G_VARIANT_TYPE(reply_type) : NULL,
		G_DBUS_CALL_FLAGS_NO_AUTO_START, CALL_TIMEOUT_MS, NULL, error);
}

static GVariant *
bus_driver_call(GDBusConnection *conn, const char *method, GVariant *args,
		const char *reply_type, GError **error)
{
	return bus_call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus",
			"org.freedesktop.DBus", method, args, reply_type,
			error);
}

/* A D-Bus address without its guid (for one address, not a list). */
char *
bus_address_without_guid(const char *address)
{
	char *addr = g_strdup(address);
	char *g = strstr(addr, ",guid=");
	char *end = g ? strchr(g + 1, ',') : NULL;

	if (strchr(addr, ';'))
		return addr;
	if (g && end)
		memmove(g, end, strlen(end) + 1);
	else if (g)
		*g = '\0';
	return addr;
}

/* Polls GetNameOwner (which never activates) until name has an owner. */
int
wait_name_owner(struct desktop *d, GDBusConnection *conn, const char *name,
		const char *bus, enum daemon_id id)
{
	long long deadline = now_ms() + STEP_TIMEOUT_MS;
	const char *daemon = desktop_daemon(d, id)->name;
	GError *error = NULL;
	GVariant *r;
	char buf[64];

	for (;;) {
		r = bus_driver_call(conn, "GetNameOwner",
				    g_variant_new("(s)", name), "(s)", &error);
		if (r) {
			g_variant_unref(r);
			return 0;
		}
		if (d->daemon[id].reaped) {
			fail_daemon(d, id, "%s exited during startup (%s)",
				    daemon,
				    describe_status(d->daemon[id].status, buf,
						    sizeof(buf)));
			break;
		}
		if (now_ms() >= deadline) {
			fail_daemon(
				d, id,
				"%s did not start within %d s: %s has no owner on the %s bus (%s)",
				daemon, STEP_TIMEOUT_MS / 1000, name, bus,
				error->message);
			break;
		}
		g_clear_error(&error);
		if (pause_ms(d, POLL_MS) < 0) {
			fail_interrupted(d);
			break;
		}
	}
	g_clear_error(&error);
	return -1;
}

int
start_dbus(struct desktop *d)
{
	const char *argv[] = { "dbus-daemon", "--session",         "--nofork",
			       "--nopidfile", "--print-address=3", NULL };
	GError *error = NULL;
	int fds[2], r;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return fail(d, "pipe: %s", strerror(errno));
	r = spawn_daemon(d, DAEMON_DBUS, argv, fds[1]);
	close(fds[1]);
	if (r == 0)
		r = read_ready_line(d, fds[0], DAEMON_DBUS,
				    &d->vars[VAR_SESSION_BUS]);
	close(fds[0]);
	if (r < 0)
		return -1;
	d->session_bus = bus_connect(d, d->vars[VAR_SESSION_BUS],
				     STEP_TIMEOUT_MS, &error);
	if (!d->session_bus) {
		r = fail_daemon(d, DAEMON_DBUS,
				"cannot connect to the session bus %s: %s",
				d->vars[VAR_SESSION_BUS], error->message);
		g_error_free(error);
		return r;
	}
	return 0;
}

int
start_launcher(struct desktop *d)
{
	const char *argv[] = { "at-spi-bus-launcher", "--launch-immediately",
			       NULL };
	GError *error = NULL;
	GVariant *r;
	char *addr;

	if (spawn_daemon(d, DAEMON_LAUNCHER, argv, -1) < 0 ||
	    wait_name_owner(d, d->session_bus, "org.a11y.Bus", "session",
			    DAEMON_LAUNCHER) < 0)
		return -1;
	r = bus_call(d->session_bus, "org.a11y.Bus", "/org/a11y/bus",
		     "org.a11y.Bus", "GetAddress", NULL, "(s)", &error);
	if (!r) {
		fail_daemon(d, DAEMON_LAUNCHER,
			    "org.a11y.Bus.GetAddress failed: %s",
			    error->message);
		g_error_free(error);
		return -1;
	}
	g_variant_get(r, "(&s)", &addr);
	/* Exported without its guid: when the bus dies, at-spi-bus-launcher
	 * is started again (D-Bus activation) on the same socket with a new
	 * guid, and libdbus refuses an address whose guid does not match,
	 * so apps started after that could never register. */
	d->vars[VAR_A11Y_BUS] = bus_address_without_guid(addr);
	g_variant_unref(r);
	addr = d->vars[VAR_A11Y_BUS];
	if (!addr[0])
		return fail_daemon(
			d, DAEMON_LAUNCHER,
			"at-spi-bus-launcher has no accessibility bus (GetAddress returned \"\")");
	d->a11y_bus = bus_connect(d, addr, STEP_TIMEOUT_MS, &error);
	if (!d->a11y_bus) {
		fail_daemon(d, DAEMON_LAUNCHER,
			    "cannot connect to the accessibility bus %s: %s",
			    addr, error->message);
		g_error_free(error);
		return -1;
	}
	return 0;
}

int
start_registryd(struct desktop *d)
{
	const char *argv[] = { "at-spi2-registryd", NULL };

	if (spawn_daemon(d, DAEMON_REGISTRYD, argv, -1) < 0)
		return -1;
	return wait_name_owner(d, d->a11y_bus, "org.a11y.atspi.Registry",
			       "accessibility", DAEMON_REGISTRYD);
}

/*
 * Reads back org.a11y.Status.IsEnabled, which libcua's accessibility
 * fixes turn on (Chromium registers only then). at-spi-bus-launcher keeps
 * it in GSettings: on a full disk it stays off, which Chromium apps
 * suffer from and nothing else, so that is a warning.
 */
int
check_a11y_enabled(struct desktop *d)
{
	GError *error = NULL;
	GVariant *r, *v = NULL;
	int on;

	r = bus_call(d->session_bus, "org.a11y.Bus", "/org/a11y/bus",
		     "org.freedesktop.DBus.Properties", "Get",
		     g_variant_new("(ss)", "org.a11y.Status", "IsEnabled"),
		     "(v)", &error);
	if (!r) {
		fail_daemon(d, DAEMON_LAUNCHER,
			    "cannot read org.a11y.Status.IsEnabled: %s",
			    error->message);
		g_error_free(error);
		return -1;
	}
	g_variant_get(r, "(v)", &v);
	g_variant_unref(r);
	on = g_variant_is_of_type(v, G_VARIANT_TYPE_BOOLEAN) &&
	     g_variant_get_boolean(v);
	g_variant_unref(v);
	if (!on)
		warn(d,
		     "org.a11y.Status.IsEnabled is still off after libcua's accessibility fixes (see %s/fixes.log and launcher.log); Chromium apps will not show their accessibility tree",
		     d->dir);
	return 0;
}

/* Services the session bus activates should know the a11y bus too. */
void
publish_activation_env(struct desktop *d)
{
	GError *error = NULL;
	GVariantBuilder env;
	GVariant *r;

	g_variant_builder_init(&env, G_VARIANT_TYPE("a{ss}"));
	g_variant_builder_add(&env, "{ss}", "AT_SPI_BUS_ADDRESS",
			      d->vars[VAR_A11Y_BUS]);
	r = bus_driver_call(d->session_bus, "UpdateActivationEnvironment",
			    g_variant_new("(a{ss})", &env), NULL, &error);
	if (r) {
		g_variant_unref(r);
	} else {
		warn(d, "UpdateActivationEnvironment failed: %s",
		     error->message);
		g_error_free(error);
	}
}

/*
 * The pids of every connection on the bus at address (apps, activated
 * services), added to pids if not already in it or in exclude.
 */
static void
collect_bus_clients(struct desktop *d, const char *address,
		    const GArray *exclude, GArray *pids)
{
	GError *error = NULL;
	GDBusConnection *conn;
	GVariantIter *iter;
	GVariant *r, *p;
	const char *name;
	guint32 pid;

	conn = bus_connect(d, address, CALL_TIMEOUT_MS, &error);
	if (!conn) {
		note(d, "cannot list the clients of %s: %s", address,
		     error->message);
		g_error_free(error);
		return;
	}
	r = bus_driver_call(conn, "ListNames", NULL, "(as)", &error);
	if (!r) {
		note(d, "ListNames on %s failed: %s", address, error->message);
		g_error_free(error);
		bus_close(d, &conn);
		return;
	}
	g_variant_get(r, "(as)", &iter);
	while (g_variant_iter_next(iter, "&s", &name)) {
		if (name[0] != ':')
			continue;
		p = bus_driver_call(conn, "GetConnectionUnixProcessID",
				    g_variant_new("(s)", name), "(u)", NULL);
		if (!p)
			continue;
		g_variant_get(p, "(u)", &pid);
		g_variant_unref(p);
		if (pid > 1 && !pid_in(exclude, (pid_t)pid) &&
		    !pid_in(pids, (pid_t)pid))
			g_array_append_val(pids, pid);
	}
	g_variant_iter_free(iter);
	g_variant_unref(r);
	bus_close(d, &conn);
}

/* Every client of both buses, except our daemons and those to keep. */
void
stop_bus_clients(struct desktop *d)
{
	GArray *exclude = g_array_new(FALSE, FALSE, sizeof(pid_t));
	GArray *pids = g_array_new(FALSE, FALSE, sizeof(pid_t));
	struct proc *victims;
	long long deadline;
	guint i, left;
	char *comm;
	int j;

	for (j = 0; j < DAEMON_COUNT; j++)
		if (d->daemon[j].pid > 0)
			g_array_append_val(exclude, d->daemon[j].pid);
	add_self_and_ancestors(exclude);
	read_keep(d, exclude);

	if (d->vars[VAR_A11Y_BUS])
		collect_bus_clients(d, d->vars[VAR_A11Y_BUS], exclude, pids);
	if (d->vars[VAR_SESSION_BUS])
		collect_bus_clients(d, d->vars[VAR_SESSION_BUS], exclude, pids);

	victims = g_new0(struct proc, pids->len ? pids->len : 1);
	for (i = 0; i < pids->len; i++) {
		proc_init(&victims[i], g_array_index(pids, pid_t, i), 0);
		comm = proc_comm(victims[i].pid);
		note(d, "stopping bus client %d (%s)", (int)victims[i].pid,
		     comm ? comm : "?");
		g_free(comm);
		proc_kill(&victims[i], SIGTERM);
	}
	/* those that are our children (orphans reparented to us) turn
	 * into zombies, which proc_gone() counts as gone; reap_children()
	 * collects them */
	deadline = now_ms() + TERM_WAIT_MS;
	for (;;) {
		reap_children(d);
		left = 0;
		for (i = 0; i < pids->len; i++)
			if (!proc_gone(&victims[i]))
				left++;
		if (!left || now_ms() >= deadline)
			break;
		pause_ms(d, 10);
	}
	for (i = 0; i < pids->len; i++) {
		if (proc_gone(&victims[i]))
			continue;
		note(d, "bus client %d ignored SIGTERM; sending SIGKILL",
		     (int)victims[i].pid);
		proc_kill(&victims[i], SIGKILL);
	}
	for (i = 0; i < pids->len; i++)
		wait_gone(d, &victims[i], 200);
	g_free(victims);
	g_array_free(pids, TRUE);
	g_array_free(exclude, TRUE);
}
