/*
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_MCP_TOOL_LIST_H
#define CUA_MCP_TOOL_LIST_H

/* The JSON array of the eleven tools (the last one is sequence). */
extern const char tool_list_json[];

#endif
