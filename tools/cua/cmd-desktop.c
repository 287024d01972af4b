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

#include <cua/cua.h>

#include "desktop.h"

static void
usage(FILE *f)
{
	fputs("usage: cua desktop start [--dir DIR] [--screen WxHxD] [--no-wm]\n"
	      "       cua desktop stop [--dir DIR]\n"
	      "       cua desktop run [--dir DIR] [--screen WxHxD] [--no-wm] -- CMD [ARG...]\n"
	      "\n"
	      "start  starts a headless desktop (Xvfb, private D-Bus session bus,\n"
	      "       AT-SPI, openbox) and prints export lines for eval:\n"
	      "         eval \"$(cua desktop start)\"\n"
	      "stop   stops the desktop in DIR or $CUA_DESKTOP_DIR, with every\n"
	      "       client of its buses, and removes DIR\n"
	      "run    runs CMD in a fresh desktop, tears it down afterwards and\n"
	      "       exits with CMD's status\n"
	      "\n"
	      "  --dir DIR        state directory (default $XDG_RUNTIME_DIR/cua/desktop-PID\n"
	      "                   or /tmp/cua-desktop-UID-PID); must be new or empty\n"
	      "  --screen WxHxD   screen size and depth (default 1280x1024x24)\n"
	      "  --no-wm          do not start a window manager\n",
	      f);
}

struct options {
	const char *dir;
	const char *screen;
	int no_wm;
};

/*
 * Parses options up to "--" or the first operand. Returns the index of the
 * first operand, -1 after printing a usage error, -2 after printing help.
 */
static int
parse_options(struct options *o, int argc, char **argv, int allow_start)
{
	const char *arg, *value;
	size_t len;
	int i;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-')
			break;
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			return -2;
		}
		if (allow_start && !strcmp(arg, "--no-wm")) {
			o->no_wm = 1;
			continue;
		}
		value = NULL;
		if (!strncmp(arg, "--dir", 5))
			len = 5;
		else if (allow_start && !strncmp(arg, "--screen", 8))
			len = 8;
		else
			len = 0;
		if (len && arg[len] == '=')
			value = arg + len + 1;
		else if (len && arg[len] == '\0' && i + 1 < argc)
			value = argv[++i];
		else if (len && arg[len] == '\0') {
			fprintf(stderr, "cua desktop %s: %s needs a value\n",
			        argv[0], arg);
			return -1;
		} else {
			fprintf(stderr, "cua desktop %s: unknown option '%s'\n",
			        argv[0], arg);
			return -1;
		}
		if (len == 5) {
			if (!value[0]) {
				fprintf(stderr, "cua desktop %s: empty --dir\n",
				        argv[0]);
				return -1;
			}
			o->dir = value;
		} else {
			o->screen = value;
		}
	}
	return i;
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
new_desktop(const char *sub, const struct options *o, uint32_t flags)
{
	cua_desktop *d = NULL;
	cua_result r;

	r = cua_desktop_new(&d, flags);
	if (r == CUA_OK && o->dir)
		r = cua_desktop_set_option(d, "state_dir", o->dir);
	if (r == CUA_OK && o->screen)
		r = cua_desktop_set_option(d, "screen", o->screen);
	if (r == CUA_OK && o->no_wm)
		r = cua_desktop_set_option(d, "window_manager", "none");
	if (r != CUA_OK) {
		fprintf(stderr, "cua desktop %s: %s\n", sub, cua_error_message());
		return cua_desktop_unref(d);
	}
	cua_desktop_set_log_handler(d, print_warning, NULL);
	return d;
}

static int
cmd_start(const struct options *o)
{
	cua_desktop *d = new_desktop("start", o, CUA_DESKTOP_DETACHED);
	char *text = NULL;

	if (!d)
		return 2;
	if (cua_desktop_start(d) != CUA_OK ||
	    cua_desktop_env_to_shell(d, &text) != CUA_OK) {
		fprintf(stderr, "cua desktop: %s\n", cua_error_message());
		cua_desktop_unref(d);
		return 1;
	}
	fputs(text, stdout);
	fflush(stdout);
	cua_free(text);
	cua_desktop_unref(d); /* detached: it keeps running */
	return 0;
}

static int
cmd_stop(const struct options *o)
{
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
cmd_run(const struct options *o, char **argv)
{
	cua_desktop *d = new_desktop("run", o, 0);
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
	r = cua_desktop_run(d, (const char *const *)argv, &status);
	if (threaded) {
		pthread_cancel(thread);
		pthread_join(thread, NULL);
	}
	if (r != CUA_OK)
		fprintf(stderr, "cua desktop run: %s\n", cua_error_message());
	cua_desktop_unref(d);
	return status;
}

int
cua_desktop_main(int argc, char **argv)
{
	struct options o = { 0 };
	const char *sub;
	int first;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	sub = argv[1];
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help") ||
	    !strcmp(sub, "help")) {
		usage(stdout);
		return 0;
	}
	if (strcmp(sub, "start") != 0 && strcmp(sub, "stop") != 0 &&
	    strcmp(sub, "run") != 0) {
		fprintf(stderr, "cua desktop: unknown subcommand '%s'\n", sub);
		usage(stderr);
		return 2;
	}
	first = parse_options(&o, argc - 1, argv + 1, strcmp(sub, "stop") != 0);
	if (first < 0)
		return first == -2 ? 0 : 2;
	first += 1; /* index in argv */
	if (!strcmp(sub, "run")) {
		if (first >= argc) {
			fprintf(stderr, "cua desktop run: no command given\n");
			return 2;
		}
		return cmd_run(&o, argv + first);
	}
	if (first < argc) {
		fprintf(stderr, "cua desktop %s: unexpected argument '%s'\n",
		        sub, argv[first]);
		return 2;
	}
	return !strcmp(sub, "start") ? cmd_start(&o) : cmd_stop(&o);
}
