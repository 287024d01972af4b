/*
 * Fuzzes cua-mcp's request handling: the input is a client's side of a
 * session, one JSON-RPC message per line. Each line goes through the
 * server's message parser (rpc.c, as the reader thread handles it); each
 * queued tools/call is then validated (tools.c) and run as the worker
 * thread runs it, against a small recorded app (CUA_BACKEND=recorded:…)
 * with --trust-apps, so that no desktop is touched and nobody is asked.
 * Replies go to /dev/null (to stdout with CUA_FUZZ_VERBOSE=1). The server
 * state is reset after every input.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <jansson.h>

#include "call.h"
#include "fuzz-common.h"

/* At most this many tool calls run per input (each one observes). */
#define MAX_CALLS 8

struct mcp_options mcp_opt;

/* The app: a small form. Its pid and start time are the recorded
 * backend's defaults (no real process has that pid). */
static const char app_recording[] = FUZZ_FORM_RECORDING("");

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *path = fuzz_path("app.json"), backend[4200];
	int null_fd;

	(void)argc;
	(void)argv;
	fuzz_private_home();
	fuzz_write(path, app_recording, strlen(app_recording));
	snprintf(backend, sizeof(backend), "recorded:%s", path);
	setenv("CUA_BACKEND", backend, 1);
	free(path);

	mcp_opt.data_dir = CUA_FUZZ_MCP_DATADIR;
	mcp_opt.trust_apps = 1;
	mcp_opt.log_level = 0; /* nothing on stderr */
	if (tools_init() < 0 || policy_init() < 0)
		abort();
	instructions_init();

	/* the server's replies (kept with CUA_FUZZ_VERBOSE=1, to debug) */
	if (getenv("CUA_FUZZ_VERBOSE")) {
		mcp_opt.log_level = CUA_LOG_DEBUG;
		return 0;
	}
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0)
		abort();
	close(null_fd);
	return 0;
}

static void
run_call(struct job *j)
{
	struct call_args a;
	char *m, *text;
	json_t *res;

	m = validate_args(j->tool, j->args, 0, &a);
	free(m);
	res = tools_call(j);
	if (res) {
		/* a CallToolResult: content blocks, each with a type */
		json_t *content = json_object_get(res, "content"), *c;
		size_t i;

		if (!json_is_array(content) || json_array_size(content) == 0)
			abort();
		json_array_foreach(
			content, i,
			c) if (!json_is_string(json_object_get(c, "type")))
			abort();
		text = json_dumps(res, JSON_COMPACT);
		if (!text)
			abort();
		if (getenv("CUA_FUZZ_VERBOSE"))
			printf("%s\n", text);
		free(text);
		json_decref(res);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t start = 0, calls = 0;
	struct job *j;

	while (start < size) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);
		size_t len = nl ? (size_t)(nl - (data + start)) : size - start;
		char *line = fuzz_strndup(data + start, len);

		rpc_handle_message(line, len);
		free(line);
		start += len + 1;
	}
	while ((j = rpc_next_job())) {
		struct mcp_error err = { 0 };
		cua_session *s = calls ? NULL : session_get(&err);

		/* a recording never changes: no warm-up sampling */
		if (s &&
		    cua_session_set_option(s, "warmup_cap_ms", "0") != CUA_OK)
			abort();
		mcp_error_clear(&err);
		if (calls++ < MAX_CALLS)
			run_call(j);
		rpc_job_free(j);
	}
	session_new_turn();
	session_close();
	rpc_reset();
	return 0;
}
