/*
 * The running cua-mcp servers of this user (docs/safety.md §6): each
 * server keeps a file $XDG_RUNTIME_DIR/cua-mcp/<pid> (else
 * /tmp/cua-mcp-<uid>/<pid>) naming its display while it runs, so that
 * `cua stop` can reach the servers of one desktop, or one server by its
 * pid. A server is stopped with SIGUSR1.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TOOLS_SERVERS_H
#define CUA_TOOLS_SERVERS_H

#include <stddef.h>
#include <sys/types.h>

/* Registers this process (cua-mcp) for `display`; 0 or -1. */
int
servers_register(const char *display);
void
servers_unregister(void);

struct server {
	pid_t pid;
	char display[64];
};

/* The live registered servers (stale files are removed); malloc'd array,
 * *n entries; -1 on error. */
int
servers_list(struct server **out, size_t *n);

#endif
