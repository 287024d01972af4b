/*
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TOOLS_DESKTOP_H
#define CUA_TOOLS_DESKTOP_H

/*
 * Runs `cua desktop start|stop|run ...`. argv[0] is "desktop", argv[1] the
 * subcommand. Returns the exit status for the process: 0 on success, 1 on
 * failure, 2 on a usage error; `run` returns the status of its command
 * (128 + signal number if the command was killed by a signal).
 */
int
cua_desktop_main(int argc, char **argv);

#endif /* CUA_TOOLS_DESKTOP_H */
