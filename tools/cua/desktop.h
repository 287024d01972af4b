/*
 * SPDX-License-Identifier: MIT
 *
 * `cua desktop`: a private headless desktop (Xvfb, a session bus, the
 * AT-SPI bus launcher and registry daemon, optionally openbox) in which
 * real applications run with accessibility enabled.
 */
#ifndef CUA_TOOLS_DESKTOP_H
#define CUA_TOOLS_DESKTOP_H

/*
 * Runs `cua desktop start|stop|run ...`. argv[0] is "desktop", argv[1] the
 * subcommand. Returns the exit status for the process: 0 on success, 1 on
 * failure, 2 on a usage error; `run` returns the status of its command
 * (128 + signal number if the command was killed by a signal).
 *
 * `start` forks a supervisor process that outlives the caller; `run`
 * becomes a child subreaper and blocks SIGINT, SIGTERM, SIGHUP and SIGCHLD
 * for the rest of the process's life. Call it from main() only.
 */
int
cua_desktop_main(int argc, char **argv);

/*
 * The calling process's own headless desktop (`cua-mcp --headless`): what
 * `cua desktop start` does, without printing. *env receives the export
 * lines (`export NAME='value'` lines, then one `unset ...` line; free()).
 * The supervisor also stops the desktop when the thread that called this
 * exits, so call it from the main thread. Returns 0, or -1 after printing
 * the reason on stderr.
 */
int
cua_desktop_start_owned(char **env);

/*
 * Stops the desktop whose state directory ($CUA_DESKTOP_DIR) is dir, as
 * `cua desktop stop --dir DIR` does; the calling process and its
 * ancestors survive. Returns 0, or -1 after printing the reason.
 */
int
cua_desktop_stop_dir(const char *dir);

#endif /* CUA_TOOLS_DESKTOP_H */
