/*
 * Headless desktops: the parts shared by the supervisor (the cua-desktop
 * helper program, which owns a running desktop) and the library side
 * (client.c: starting the helper, attaching to a running desktop,
 * stopping one, also after its supervisor died).
 *
 * A desktop is a display server of some kind (Xvfb today), a private
 * D-Bus session bus, the AT-SPI bus launcher and registry daemon, libcua's
 * accessibility fixes and optionally a window manager, all started by one
 * supervisor process that tears them down again. What differs between
 * kinds of desktop (x11: Xvfb and openbox; sway: headless sway, sway.c;
 * mutter: headless mutter with PipeWire, mutter.c)
 * is behind struct desktop_kind.
 *
 * State directory layout:
 *   env             the environment as shell export lines (env.c)
 *   kind            the kind of desktop ("x11", "sway", "mutter")
 *   sway-runtime    sway, as root: sway's runtime directory (sway.c)
 *   supervisor.pid  pid of the supervisor
 *   pids            "<key> <pid> <starttime>" per process started, so that
 *                   a stop can clean up after a supervisor that was killed
 *   keep            written by a stop: pids that must not be killed
 *   *.log           output of each daemon and of the supervisor
 *   xdg/            private XDG_RUNTIME_DIR (a11y bus socket, ...)
 *   home/{config,data,cache,state}  private XDG_*_HOME
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_DESKTOP_DESKTOP_H
#define CUA_DESKTOP_DESKTOP_H

#include <stddef.h>
#include <sys/types.h>

#include <gio/gio.h>

#define STEP_TIMEOUT_MS 10000 /* each daemon must be ready within this */
#define CALL_TIMEOUT_MS 2000  /* a single D-Bus call */
#define POLL_MS 20            /* polling interval while waiting */
#define TERM_WAIT_MS 2000     /* SIGTERM -> SIGKILL */
#define KILL_WAIT_MS 1000     /* SIGKILL -> give up */
#define SWEEP_MS 3000         /* final sweep of leftover descendants */
#define STOP_WAIT_MS 15000    /* a stop waits this long for the supervisor */
#define START_WAIT_MS 120000  /* a start waits this long for readiness */

/* The supervisor's program (and process) name. */
#define SUPERVISOR_NAME "cua-desktop"

enum daemon_id {
	DAEMON_DISPLAY, /* the display server: Xvfb, sway, mutter */
	DAEMON_DBUS,
	DAEMON_LAUNCHER,
	DAEMON_REGISTRYD,
	DAEMON_WM,
	/* the media server and its session manager: the mutter kind (its
	 * screen casts go through PipeWire) */
	DAEMON_PIPEWIRE,
	DAEMON_WIREPLUMBER,
	DAEMON_COUNT
};

struct daemon_info {
	const char *key;     /* name in DIR/pids */
	const char *name;    /* name in messages */
	const char *program; /* absolute path, or looked up in PATH */
	const char *package; /* Debian package providing it */
	const char *log;     /* log file in the state directory */
};

/*
 * Variables the desktop sets or unsets in its children's environment, in
 * the order of the export lines. Those without a value are unset.
 */
enum desktop_var {
	VAR_DISPLAY,
	VAR_SESSION_BUS,
	VAR_A11Y_BUS,
	VAR_XDG_RUNTIME_DIR,
	VAR_XDG_CONFIG_HOME,
	VAR_XDG_DATA_HOME,
	VAR_XDG_CACHE_HOME,
	VAR_XDG_STATE_HOME,
	VAR_GSK_RENDERER,
	VAR_DESKTOP_DIR,
	/* unset: they stop GTK's AT-SPI registration */
	VAR_NO_AT_BRIDGE,
	VAR_GTK_A11Y,
	/* unset: apps would escape to the caller's own desktop */
	VAR_WAYLAND_DISPLAY,
	VAR_SESSION_MANAGER,
	/* set by the sway kind (XDG_SESSION_TYPE by every kind) */
	VAR_XDG_SESSION_TYPE,
	VAR_GDK_BACKEND,
	VAR_SWAYSOCK,
	VAR_COUNT
};

extern const char *const desktop_var_names[VAR_COUNT];

struct desktop;

/*
 * A kind of desktop. start_display starts the display server and sets
 * the variables its clients need (DISPLAY); check_fixes reads back what
 * libcua's accessibility fixes set on it; start_wm starts the window
 * manager (wm.program NULL: the kind has none); disconnect drops the
 * supervisor's own connection to the display; cleanup (may be NULL)
 * removes what the kind made outside the state directory, from its state
 * files, after its daemons stopped (also after a dead supervisor).
 */
struct desktop_kind {
	const char *name;
	struct daemon_info display;
	struct daemon_info wm;
	int (*start_display)(struct desktop *d);
	int (*check_fixes)(struct desktop *d);
	int (*start_wm)(struct desktop *d);
	void (*disconnect)(struct desktop *d);
	void (*cleanup)(struct desktop *d);
	/* 1: the session bus starts before the display server (a
	 * compositor that offers its interfaces on it) */
	int bus_first;
	/* 1: PipeWire and WirePlumber run with the desktop, started by
	 * start_display once the compositor is up (start_media) */
	int media;
};

extern const struct desktop_kind desktop_kind_x11;
extern const struct desktop_kind desktop_kind_sway;
extern const struct desktop_kind desktop_kind_mutter;

/* For a Wayland kind (sway.c): no X11 fixes to read back, no connection
 * of its own to drop. */
int
desktop_no_fixes(struct desktop *d);
void
desktop_no_connection(struct desktop *d);

/*
 * xwayland.c, for the sway kind as root: a child takes uid `server_uid`
 * (sway's, and so Xwayland's) and adds the caller's user to the access
 * list of the X server at `display` (":N"), starting Xwayland with its
 * connection; xwayland_grant_wait() waits for it and, when it failed,
 * warns and unsets DISPLAY. Both return 0, or -1 with the error set.
 */
int
xwayland_grant_start(struct desktop *d, const char *display, uid_t server_uid);
int
xwayland_grant_wait(struct desktop *d);
/* After sway stopped: removes the X11 socket and lock file of the
 * desktop's DISPLAY when the lock names its sway, which left them (sway
 * 1.7 can crash while it shuts down). */
void
xwayland_cleanup(struct desktop *d);

/* The kind named name ("x11"), or NULL. */
const struct desktop_kind *
desktop_kind_find(const char *name);

/* The name of the kind at index, NULL past the last. */
const char *
desktop_kind_name(size_t index);

struct proc {
	pid_t pid;                /* 0: none */
	unsigned long long start; /* starttime from /proc/<pid>/stat */
	int child;                /* ours: reaped with waitpid() */
	int reaped;
	int status; /* wait status, once reaped */
};

struct desktop {
	/* options */
	const struct desktop_kind *kind;
	char *dir;
	int user_dir;  /* the state directory was given */
	int dir_ready; /* ours to remove at teardown */
	char *screen;  /* WxHxD */
	int no_wm;
	int run_mode; /* the supervisor runs a command and ends with it */

	char *programs[DAEMON_COUNT]; /* resolved; NULL if missing */

	/*
	 * Runtime. The supervisor reaps every child (it is a child
	 * subreaper) and sweeps its descendants at teardown; a stop that
	 * cleans up after a dead supervisor (client.c) does neither.
	 */
	int supervisor;
	int sigfd;     /* signalfd, -1 if none */
	int owner_fd;  /* end of a pipe whose other end the owner holds */
	int report_fd; /* pipe to the process that started the desktop */
	int verbose;   /* notes on stderr (the supervisor's log) */
	int ready;
	int tearing_down;
	int keep_logs;   /* on failure: keep DIR/ *.log */
	int stop_signal; /* the signal that asked us to stop */
	char *vars[VAR_COUNT];
	void *display_conn; /* the kind's connection to its display */
	GMainContext *ctx;  /* for connecting, with a deadline */
	GDBusConnection *session_bus;
	GDBusConnection *a11y_bus;
	struct proc daemon[DAEMON_COUNT];
	struct proc fixes;  /* the process applying libcua's fixes */
	struct proc helper; /* sway: the process letting us reach Xwayland */
	int helper_fd;      /* its word (xwayland.c), -1 if none */
	struct proc cmd;    /* run mode: the command */
	char *err;          /* first error */

	/* warnings: reported to the starting process, or logged */
	void (*warn_fn)(struct desktop *d, const char *message, void *data);
	void *warn_data;
};

/* ---- desktop.c: lifecycle, start sequence, teardown ------------------ */

void
desktop_init(struct desktop *d);
void
desktop_free(struct desktop *d);
const struct daemon_info *
desktop_daemon(const struct desktop *d, enum daemon_id id);
int
desktop_start(struct desktop *d);
void
desktop_teardown(struct desktop *d);
int
desktop_valid_screen(const char *s);

/* ---- report.c: errors, warnings, notes -------------------------------- */

int
fail(struct desktop *d, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
int
fail_log(struct desktop *d, const char *log, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);
int
fail_daemon(struct desktop *d, enum daemon_id id, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);
int
fail_interrupted(struct desktop *d);
void
warn(struct desktop *d, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void
note(struct desktop *d, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
char *
log_tail(const char *path);

/* ---- proc.c: processes, signals -------------------------------------- */

long long
now_ms(void);
const char *
signal_name(int sig, char *buf, size_t size);
const char *
describe_status(int status, char *buf, size_t size);
void
close_fds_from(unsigned int first, unsigned int last);
int
proc_stat(pid_t pid, char *state, pid_t *ppid, unsigned long long *start);
char *
proc_comm(pid_t pid);
int
proc_gone(const struct proc *p);
void
proc_init(struct proc *p, pid_t pid, int child);
void
proc_kill(const struct proc *p, int sig);
int
pid_in(const GArray *pids, pid_t pid);
void
add_self_and_ancestors(GArray *pids);
void
reap_children(struct desktop *d);
int
handle_signals(struct desktop *d);
int
pause_ms(struct desktop *d, int ms);
int
wait_gone(struct desktop *d, const struct proc *p, int timeout_ms);
void
stop_proc(struct desktop *d, struct proc *p, int sig, const char *what);
void
sweep_children(struct desktop *d);
int
become_supervisor(struct desktop *d);

/*
 * How spawn() sets up the child. With log_path (a daemon): a new session,
 * stdin from /dev/null, stdout and stderr to log_path, fd3 (if >= 0) as
 * fd 3, every other descriptor closed. With keep_fds (the user's
 * command): stdio and inherited descriptors are kept. Otherwise (the
 * supervisor helper): fd3 and fd4 (if >= 0) become fds 3 and 4, stdio is
 * kept or, with null_stdio, /dev/null, everything else is closed; with
 * detach, a double fork makes the program nobody's child (init or a
 * subreaper adopts it) and spawn() returns 0 instead of its pid. pgrp
 * moves the child to another process group (not with log_path, which
 * starts a session).
 */
struct spawn_opts {
	const char *log_path;
	int fd3;
	int fd4;
	int keep_fds;
	int null_stdio;
	int detach;
	pid_t pgrp; /* > 0: join this process group; < 0: one of its own */
};

pid_t
spawn(const char *path, char *const argv[], char *const envp[],
      const struct spawn_opts *opts, int *error);

/* ---- statedir.c: the state directory ------------------------------- */

int
write_state_file(const char *dir, const char *name, const char *text);
char *
read_state_file(const char *dir, const char *name);
int
make_state_dir(struct desktop *d);
void
remove_state_dir(struct desktop *d);
void
rm_tree(const char *path);
void
write_pids(struct desktop *d);
void
load_pids(struct desktop *d, struct proc *sup);
int
supervisor_alive(const char *dir, pid_t *pid_out);
void
write_keep(struct desktop *d);
void
read_keep(struct desktop *d, GArray *exclude);

/* ---- env.c: the environment of the desktop's clients --------------- */

char **
desktop_envp(const struct desktop *d);
char *
desktop_env_text(char *const vars[VAR_COUNT]);
int
desktop_env_parse(char *vars[VAR_COUNT], const char *text);

/* ---- buses.c: the session and accessibility buses ------------------ */

int
start_dbus(struct desktop *d);
int
start_launcher(struct desktop *d);
int
start_registryd(struct desktop *d);
int
check_a11y_enabled(struct desktop *d);
int
wait_name_owner(struct desktop *d, GDBusConnection *conn, const char *name,
		const char *bus, enum daemon_id id);
void
publish_activation_env(struct desktop *d);
void
stop_bus_clients(struct desktop *d);
void
bus_close(struct desktop *d, GDBusConnection **conn);
char *
bus_address_without_guid(const char *address);

/* ---- shared by the start steps ---------------------------------------- */

int
spawn_daemon(struct desktop *d, enum daemon_id id, const char *const argv[],
	     int fd3);
int
read_ready_line(struct desktop *d, int fd, enum daemon_id id, char **line);

#endif /* CUA_DESKTOP_DESKTOP_H */
