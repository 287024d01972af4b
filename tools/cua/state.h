/*
 * The CLI's session state file: $XDG_RUNTIME_DIR/cua/session.json,
 * locked for the duration of a command so that concurrent invocations
 * see each other's ids.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TOOLS_STATE_H
#define CUA_TOOLS_STATE_H

struct cua_state_file {
	char *dir;
	char *path;
	int lock_fd;
	char *json; /* the loaded state, or NULL */
};

#define CUA_STATE_FILE_INIT                                                    \
	{                                                                      \
		NULL, NULL, -1, NULL                                           \
	}

/* Creates the directory (0700), takes the lock, loads the state. Prints
 * the reason and returns -1 on failure, with *sf released. */
int
cua_state_open(struct cua_state_file *sf);
/* Atomically replaces the state file (mode 0600). */
int
cua_state_save(struct cua_state_file *sf, const char *json);
void
cua_state_close(struct cua_state_file *sf);

#endif
