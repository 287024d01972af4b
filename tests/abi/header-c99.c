/*
 * Compiled by check-header.py as C99 with -pedantic -Werror against the
 * installed header layout, then linked against libcua and run.
 *
 * SPDX-License-Identifier: MIT
 */
#include <cua/cua.h>

#include <stdio.h>
#include <string.h>

int
main(void)
{
	cua_session *s = NULL;
	cua_log_fn log = NULL;

	(void)log;
	if (!CUA_CHECK_VERSION(0, 1, 0))
		return 1;
	/* the header and the library agree on the version */
	if (strcmp(cua_version_string(), CUA_VERSION) != 0) {
		fprintf(stderr, "library %s, header %s\n", cua_version_string(),
			CUA_VERSION);
		return 1;
	}
	/* no call has failed on this thread */
	if (cua_error_code() != CUA_E_OK)
		return 1;
	return cua_session_unref(s) == NULL ? 0 : 1;
}
