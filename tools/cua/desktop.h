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

#endif /* CUA_TOOLS_DESKTOP_H */
