/*
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_MCP_TOOL_LIST_H
#define CUA_MCP_TOOL_LIST_H

#include <jansson.h>

/* The most steps one sequence call takes (its schema's maxItems). */
#define SEQUENCE_MAX_STEPS 256

/* A new JSON array of the eleven tools (the last one is sequence). */
json_t *
tool_list_new(void);

#endif
