/*
 * Compiled by check-header.py as C++11 with -pedantic -Werror against the
 * installed header layout, then linked against libcua: the declarations
 * must have C linkage.
 *
 * SPDX-License-Identifier: MIT
 */
#include <cua/cua.h>

#include <cstring>

int
main()
{
	cua_tree *t = nullptr;
	cua_result r = CUA_ERROR_NOT_FOUND;

	if (std::strcmp(cua_result_to_string(r), "") == 0)
		return 1;
	if (cua_version() != CUA_VERSION_HEX)
		return 1;
	/* no call has failed on this thread */
	if (cua_error_code() != CUA_E_OK)
		return 1;
	return cua_tree_unref(t) == nullptr ? 0 : 1;
}
