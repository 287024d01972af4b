/*
 * `cua desktop start|stop|run`: a private headless desktop, through
 * libcua's cua_desktop_* API.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"

enum { OPT_DIR, OPT_SCREEN, OPT_NO_WM, OPT_WAYLAND };

struct options {
	const char *dir;
	const char *screen;
	const char *wayland; /* the compositor: the kind of desktop */
	int no_wm;
};

static int
option(struct cli *cli, int id, const char *value)
{
	struct options *o = cli->data;

	if (id == OPT_DIR) {
		if (!value[0])
			return cli_usage_error(cli, "cua %s: empty --dir",
					       cli->cmd->name);
		o->dir = value;
	} else if (id == OPT_SCREEN) {
		o->screen = value;
	} else if (id == OPT_WAYLAND) {
		if (strcmp(value, "sway") && strcmp(value, "mutter"))
			return cli_usage_error(
				cli,
				"cua %s: --wayland %s: the headless Wayland desktops are sway and mutter (--wayland sway, --wayland mutter)",
				cli->cmd->name, value);
		o->wayland = value;
	} else {
		o->no_wm = 1;
	}
	return 0;
}

static void
print_warning(cua_desktop *desktop, cua_log_level level, const char *message,
	      void *data)
{
	(void)desktop;
	(void)level;
	(void)data;
	fprintf(stderr, "cua desktop: warning: %s\n", message);
}

/* A desktop with the options; prints the reason and returns NULL. */
static cua_desktop *
new_desktop(const struct cli *cli, uint32_t flags)
{
	const struct options *o = cli->data;
	cua_desktop *d = NULL;
	cua_result r;

	r = cua_desktop_new(&d, flags);
	if (r == CUA_OK && o->dir)
		r = cua_desktop_set_option(d, "state_dir", o->dir);
	if (r == CUA_OK && o->wayland)
		r = cua_desktop_set_option(d, "kind", o->wayland);
	if (r == CUA_OK && o->screen)
		r = cua_desktop_set_option(d, "screen", o->screen);
	if (r == CUA_OK && o->no_wm)
		r = cua_desktop_set_option(d, "window_manager", "none");
	if (r != CUA_OK) {
		cli_usage_error(cli, "cua %s: %s", cli->cmd->name,
				cua_error_message());
		return cua_desktop_unref(d);
	}
	cua_desktop_set_log_handler(d, print_warning, NULL);
	return d;
}

/* The environment as one JSON object: {"NAME": "value" or null}. */
static char *
env_json(cua_desktop *d)
{
	json_t *env = json_object();
	const char *name, *value;
	char *text;
	size_t i;

	for (i = 0; i < cua_desktop_get_env_count(d); i++) {
		name = cua_desktop_get_env_name(d, i);
		value = cua_desktop_get_env(d, name);
		json_object_set_new(env, name,
				    value ? json_string(value) : json_null());
	}
	text = json_dumps(env, JSON_INDENT(2));
	json_decref(env);
	return text;
}

static int
run_start(struct cli *cli)
{
	cua_desktop *d = new_desktop(cli, CUA_DESKTOP_DETACHED);
	char *text = NULL;

	if (!d)
		return 2;
	if (cua_desktop_start(d) != CUA_OK ||
	    (!cli->json && cua_desktop_env_to_shell(d, &text) != CUA_OK)) {
		fprintf(stderr, "cua desktop: %s\n", cua_error_message());
		cua_desktop_unref(d);
		return 1;
	}
	if (cli->json) {
		text = env_json(d);
		printf("%s\n", text ? text : "{}");
		free(text);
	} else {
		fputs(text, stdout);
		cua_free(text);
	}
	fflush(stdout);
	cua_desktop_unref(d); /* detached: it keeps running */
	return 0;
}

static int
run_stop(struct cli *cli)
{
	const struct options *o = cli->data;
	const char *dir = o->dir ? o->dir : getenv("CUA_DESKTOP_DIR");
	cua_desktop *d = NULL;
	int status = 0;

	if (!dir || !dir[0]) {
		fprintf(stderr,
			"cua desktop stop: no desktop given: pass --dir DIR or set CUA_DESKTOP_DIR\n");
		return 1;
	}
	if (cua_desktop_attach(&d, dir) != CUA_OK ||
	    cua_desktop_stop(d) != CUA_OK) {
		fprintf(stderr, "cua desktop stop: %s\n", cua_error_message());
		status = 1;
	}
	cua_desktop_unref(d);
	return status;
}

/*
 * `run` passes SIGINT, SIGTERM and SIGHUP on to the desktop's supervisor,
 * which stops the command and the desktop, and waits for it: a thread
 * takes them with sigwait() while the main thread waits in
 * cua_desktop_run().
 */
struct forwarder {
	cua_desktop *desktop;
	sigset_t set;
};

static void *
forward_signals(void *data)
{
	struct forwarder *f = data;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	int64_t pid;
	int sig;

	for (;;) {
		if (sigwait(&f->set, &sig) != 0)
			continue;
		/* the supervisor may still be starting */
		while ((pid = cua_desktop_get_pid(f->desktop)) <= 0)
			nanosleep(&pause, NULL);
		kill((pid_t)pid, sig);
	}
	return NULL;
}

static int
run_run(struct cli *cli)
{
	cua_desktop *d = new_desktop(cli, 0);
	struct forwarder f = { .desktop = d };
	pthread_t thread;
	int status = 1, threaded;
	cua_result r;

	if (!d)
		return 2;
	sigemptyset(&f.set);
	sigaddset(&f.set, SIGINT);
	sigaddset(&f.set, SIGTERM);
	sigaddset(&f.set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &f.set, NULL);
	threaded = pthread_create(&thread, NULL, forward_signals, &f) == 0;
	r = cua_desktop_run(d, (const char *const *)cli->argv, &status);
	if (threaded) {
		pthread_cancel(thread);
		pthread_join(thread, NULL);
	}
	if (r != CUA_OK)
		fprintf(stderr, "cua desktop run: %s\n", cua_error_message());
	cua_desktop_unref(d);
	return status;
}

#define USAGE                                                                                         \
	"cua desktop start [--wayland sway|mutter] [--dir DIR] [--screen WxHxD] [--no-wm] [--json]\n" \
	"cua desktop stop [--dir DIR]\n"                                                              \
	"cua desktop run [--wayland sway|mutter] [--dir DIR] [--screen WxHxD] [--no-wm] [--] CMD [ARG...]"

#define HELP                                                                             \
	"\n"                                                                             \
	"start  starts a headless desktop (Xvfb, private D-Bus session bus,\n"           \
	"       AT-SPI, openbox) and prints export lines for eval:\n"                    \
	"         eval \"$(cua desktop start)\"\n"                                       \
	"       (--json: the variables as one JSON object, null: unset)\n"               \
	"stop   stops the desktop in DIR or $CUA_DESKTOP_DIR, with every\n"              \
	"       client of its buses, and removes DIR\n"                                  \
	"run    runs CMD in a fresh desktop, tears it down afterwards and\n"             \
	"       exits with CMD's status\n"                                               \
	"\n"                                                                             \
	"  --dir DIR        state directory (default $XDG_RUNTIME_DIR/cua/desktop-PID\n" \
	"                   or /tmp/cua-desktop-UID-PID); must be new or empty\n"        \
	"  --screen WxHxD   screen size and depth (default 1280x1024x24)\n"              \
	"  --no-wm          do not start a window manager\n"                             \
	"  --wayland sway   a headless Wayland desktop instead: sway (the compositor\n"  \
	"                   and window manager; as root it runs as uid 65534) with\n"    \
	"                   one output of the screen's size, apps as Wayland clients\n"  \
	"  --wayland mutter a headless GNOME compositor instead: mutter with one\n"      \
	"                   virtual monitor of the screen's size, PipeWire and\n"        \
	"                   WirePlumber (its screen casts), apps as Wayland clients\n"

static const struct cli_option start_options[] = {
	{ "dir", 0, "DIR", OPT_DIR },
	{ "screen", 0, "WxHxD", OPT_SCREEN },
	{ "no-wm", 0, NULL, OPT_NO_WM },
	{ "wayland", 0, "COMPOSITOR", OPT_WAYLAND },
	{ NULL },
};

static const struct cli_option stop_options[] = {
	{ "dir", 0, "DIR", OPT_DIR },
	{ NULL },
};

static const char *const run_operands[] = { "command", NULL };

static const struct cli_command start = {
	.name = "desktop start",
	.usage = USAGE,
	.help = HELP,
	.flags = CLI_JSON,
	.options = start_options,
	.max_operands = 0,
	.option = option,
	.run = run_start,
	.data_size = sizeof(struct options),
};

static const struct cli_command stop = {
	.name = "desktop stop",
	.usage = USAGE,
	.help = HELP,
	.options = stop_options,
	.max_operands = 0,
	.option = option,
	.run = run_stop,
	.data_size = sizeof(struct options),
};

static const struct cli_command run = {
	.name = "desktop run",
	.usage = USAGE,
	.help = HELP,
	.flags = CLI_OPERANDS_END_OPTIONS,
	.options = start_options,
	.operands = run_operands,
	.max_operands = -1,
	.option = option,
	.run = run_run,
	.data_size = sizeof(struct options),
};

static const struct cli_command *const subcommands[] = { &start, &stop, &run,
							 NULL };

const struct cli_command cmd_desktop = {
	.name = "desktop",
	.usage = USAGE,
	.help = HELP,
	.subcommands = subcommands,
};
