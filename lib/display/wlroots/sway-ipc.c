/*
 * sway's IPC: one connection per call (connect, one request, one reply),
 * each step bounded by the call's deadline.
 *
 * Message: the 6 bytes "i3-ipc", the payload length and the message type
 * as 32-bit integers in host byte order, then the payload (JSON in
 * replies).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <jansson.h>

#include "sway-ipc.h"

#define IPC_RUN_COMMAND 0
#define IPC_GET_TREE 4
#define IPC_GET_VERSION 7
#define MAGIC "i3-ipc"
#define HEADER_SIZE 14
#define MAX_REPLY (64u << 20)

const char *
cua_sway_socket(void)
{
	const char *s = getenv("SWAYSOCK");

	return s && *s ? s : NULL;
}

static int
left_ms(int64_t deadline)
{
	int64_t d = deadline - cua_now_us();

	return d <= 0 ? 0 : (int)((d + 999) / 1000);
}

static cua_result
io_error(const char *path, const char *what, int err)
{
	return cua_error(CUA_ERROR_BACKEND,
			 "sway's IPC socket %s: %s failed (%s); is sway "
			 "running, and SWAYSOCK that of this session?",
			 path, what, strerror(err));
}

static cua_result
timeout_error(const char *path, const char *what, int timeout_ms)
{
	return cua_error(CUA_ERROR_BACKEND,
			 "sway's IPC socket %s did not answer within %d ms "
			 "(%s)",
			 path, timeout_ms, what);
}

/* Waits until fd is ready for `events` or the deadline passes. */
static int
wait_fd(int fd, short events, int64_t deadline)
{
	for (;;) {
		struct pollfd p = { fd, events, 0 };
		int n = poll(&p, 1, left_ms(deadline));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		return 0;
	}
}

static cua_result
ipc_connect(const char *path, int64_t deadline, int timeout_ms, int *out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (!path || !*path)
		return cua_error(CUA_ERROR_BACKEND,
				 "no sway IPC socket: SWAYSOCK is not set");
	if (strlen(path) >= sizeof(sa.sun_path))
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "the sway IPC socket path is too long (%zu "
				 "bytes)",
				 strlen(path));
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return io_error(path, "socket", errno);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		if (e != EINPROGRESS && e != EAGAIN) {
			close(fd);
			return io_error(path, "connect", e);
		}
		if (wait_fd(fd, POLLOUT, deadline) < 0) {
			e = errno;
			close(fd);
			return e == ETIMEDOUT ? timeout_error(path, "connect",
							      timeout_ms) :
						io_error(path, "connect", e);
		}
	}
	*out = fd;
	return CUA_OK;
}

static cua_result
send_all(int fd, const char *path, const void *buf, size_t len,
	 int64_t deadline, int timeout_ms)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (wait_fd(fd, POLLOUT, deadline) < 0)
				return errno == ETIMEDOUT ?
					       timeout_error(path, "sending",
							     timeout_ms) :
					       io_error(path, "send", errno);
			continue;
		}
		if (n < 0)
			return io_error(path, "send", errno);
		p += n;
		len -= (size_t)n;
	}
	return CUA_OK;
}

static cua_result
recv_all(int fd, const char *path, void *buf, size_t len, int64_t deadline,
	 int timeout_ms)
{
	char *p = buf;

	while (len > 0) {
		ssize_t n = recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (wait_fd(fd, POLLIN, deadline) < 0)
				return errno == ETIMEDOUT ?
					       timeout_error(path,
							     "reading the "
							     "reply",
							     timeout_ms) :
					       io_error(path, "recv", errno);
			continue;
		}
		if (n < 0)
			return io_error(path, "recv", errno);
		if (n == 0)
			return cua_error(CUA_ERROR_BACKEND,
					 "sway's IPC socket %s closed the "
					 "connection before its reply was "
					 "complete",
					 path);
		p += n;
		len -= (size_t)n;
	}
	return CUA_OK;
}

/* One request, its JSON reply. */
static cua_result
ipc_call(const char *path, int timeout_ms, uint32_t type, const char *payload,
	 json_t **reply)
{
	int64_t deadline = cua_now_us() + (int64_t)timeout_ms * 1000;
	uint32_t len = payload ? (uint32_t)strlen(payload) : 0, rlen, rtype;
	char head[HEADER_SIZE];
	char *body = NULL;
	json_error_t jerr;
	int fd = -1;
	cua_result r;

	*reply = NULL;
	r = ipc_connect(path, deadline, timeout_ms, &fd);
	if (r != CUA_OK)
		return r;
	memcpy(head, MAGIC, 6);
	memcpy(head + 6, &len, 4);
	memcpy(head + 10, &type, 4);
	r = send_all(fd, path, head, sizeof(head), deadline, timeout_ms);
	if (r == CUA_OK && len)
		r = send_all(fd, path, payload, len, deadline, timeout_ms);
	if (r == CUA_OK)
		r = recv_all(fd, path, head, sizeof(head), deadline,
			     timeout_ms);
	if (r != CUA_OK)
		goto out;
	memcpy(&rlen, head + 6, 4);
	memcpy(&rtype, head + 10, 4);
	if (memcmp(head, MAGIC, 6) != 0 || rtype != type || rlen > MAX_REPLY) {
		r = cua_error(CUA_ERROR_BACKEND,
			      "%s does not speak sway's IPC protocol (reply "
			      "header of type %u, %u bytes)",
			      path, rtype, rlen);
		goto out;
	}
	body = malloc((size_t)rlen + 1);
	if (!body) {
		r = cua_error(CUA_ERROR_NOMEM, "out of memory");
		goto out;
	}
	r = recv_all(fd, path, body, rlen, deadline, timeout_ms);
	if (r != CUA_OK)
		goto out;
	*reply = json_loadb(body, rlen, 0, &jerr);
	if (!*reply)
		r = cua_error(CUA_ERROR_BACKEND,
			      "sway's IPC reply is not JSON (%s at byte %d)",
			      jerr.text, jerr.position);
out:
	free(body);
	if (fd >= 0)
		close(fd);
	return r;
}

cua_result
cua_sway_version(const char *path, int timeout_ms, char *version, size_t size)
{
	json_t *reply;
	const char *v;
	cua_result r =
		ipc_call(path, timeout_ms, IPC_GET_VERSION, NULL, &reply);

	if (r != CUA_OK)
		return r;
	v = json_string_value(json_object_get(reply, "human_readable"));
	if (!json_is_integer(json_object_get(reply, "major"))) {
		json_decref(reply);
		return cua_error(CUA_ERROR_BACKEND,
				 "%s answered GET_VERSION without a version",
				 path);
	}
	if (version && size)
		snprintf(version, size, "%s", v ? v : "");
	json_decref(reply);
	return CUA_OK;
}

/* ---- the tree --------------------------------------------------------- */

struct collect {
	struct cua_sway_window *list;
	size_t n, cap;
	int oom;
};

static void
get_rect(json_t *o, struct cua_rect *r)
{
	r->x = (int32_t)json_integer_value(json_object_get(o, "x"));
	r->y = (int32_t)json_integer_value(json_object_get(o, "y"));
	r->w = (int32_t)json_integer_value(json_object_get(o, "width"));
	r->h = (int32_t)json_integer_value(json_object_get(o, "height"));
}

static char *
dup_str(json_t *v)
{
	const char *s = json_string_value(v);

	return strdup(s ? s : "");
}

static void
add_window(struct collect *c, json_t *node, const char *output,
	   const char *workspace, int floating)
{
	struct cua_sway_window *win;
	json_t *app_id = json_object_get(node, "app_id");
	json_t *props = json_object_get(node, "window_properties");
	struct cua_rect wr;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct cua_sway_window *g = realloc(c->list, cap * sizeof(*g));

		if (!g) {
			c->oom = 1;
			return;
		}
		c->list = g;
		c->cap = cap;
	}
	win = &c->list[c->n];
	memset(win, 0, sizeof(*win));
	win->con_id = json_integer_value(json_object_get(node, "id"));
	win->pid = (int32_t)json_integer_value(json_object_get(node, "pid"));
	/* an Xwayland window has no app id; its class stands in */
	if (!json_string_value(app_id) && props)
		app_id = json_object_get(props, "class");
	win->app_id = dup_str(app_id);
	win->instance =
		dup_str(props ? json_object_get(props, "instance") : NULL);
	win->name = dup_str(json_object_get(node, "name"));
	win->shell = dup_str(json_object_get(node, "shell"));
	win->x11_window =
		(uint32_t)json_integer_value(json_object_get(node, "window"));
	win->workspace = strdup(workspace ? workspace : "");
	win->output = strdup(output ? output : "");
	get_rect(json_object_get(node, "rect"), &win->rect);
	get_rect(json_object_get(node, "window_rect"), &wr);
	win->content.x = win->rect.x + wr.x;
	win->content.y = win->rect.y + wr.y;
	win->content.w = wr.w;
	win->content.h = wr.h;
	get_rect(json_object_get(node, "geometry"), &win->geometry);
	win->focused = json_is_true(json_object_get(node, "focused"));
	win->visible = json_is_true(json_object_get(node, "visible"));
	win->floating = floating;
	c->n++;
	if (!win->app_id || !win->instance || !win->name || !win->shell ||
	    !win->workspace || !win->output)
		c->oom = 1;
}

static void
walk(struct collect *c, json_t *node, const char *output, const char *workspace,
     int floating, int depth)
{
	const char *type = json_string_value(json_object_get(node, "type"));
	const char *name = json_string_value(json_object_get(node, "name"));
	static const char *const kids[] = { "nodes", "floating_nodes" };

	if (depth > 64 || !json_is_object(node))
		return;
	if (type && strcmp(type, "output") == 0)
		output = name;
	else if (type && strcmp(type, "workspace") == 0)
		workspace = name;
	/* a view (a window) is a container with a shell */
	if (json_object_get(node, "shell")) {
		add_window(c, node, output, workspace,
			   floating ||
				   (type && strcmp(type, "floating_con") == 0));
		return;
	}
	for (size_t k = 0; k < 2; k++) {
		json_t *arr = json_object_get(node, kids[k]), *child;
		size_t i;

		json_array_foreach(arr, i, child)
			walk(c, child, output, workspace, floating || k == 1,
			     depth + 1);
	}
}

void
cua_sway_windows_free(struct cua_sway_window *list, size_t n)
{
	if (!list)
		return;
	for (size_t i = 0; i < n; i++) {
		free(list[i].app_id);
		free(list[i].instance);
		free(list[i].name);
		free(list[i].shell);
		free(list[i].workspace);
		free(list[i].output);
	}
	free(list);
}

cua_result
cua_sway_windows(const char *path, int timeout_ms, struct cua_sway_window **out,
		 size_t *n)
{
	struct collect c = { NULL, 0, 0, 0 };
	json_t *tree;
	cua_result r;

	*out = NULL;
	*n = 0;
	r = ipc_call(path, timeout_ms, IPC_GET_TREE, NULL, &tree);
	if (r != CUA_OK)
		return r;
	if (!json_is_object(tree)) {
		json_decref(tree);
		return cua_error(CUA_ERROR_BACKEND,
				 "sway's GET_TREE reply is not a tree");
	}
	walk(&c, tree, NULL, NULL, 0, 0);
	json_decref(tree);
	if (c.oom) {
		cua_sway_windows_free(c.list, c.n);
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	}
	*out = c.list;
	*n = c.n;
	return CUA_OK;
}

cua_result
cua_sway_command(const char *path, int timeout_ms, const char *command)
{
	json_t *reply, *res;
	size_t i;
	cua_result r =
		ipc_call(path, timeout_ms, IPC_RUN_COMMAND, command, &reply);

	if (r != CUA_OK)
		return r;
	if (!json_is_array(reply) || json_array_size(reply) == 0) {
		json_decref(reply);
		return cua_error(CUA_ERROR_BACKEND,
				 "sway's reply to a command is not a list of "
				 "results");
	}
	json_array_foreach(reply, i, res)
	{
		if (!json_is_true(json_object_get(res, "success"))) {
			const char *e = json_string_value(
				json_object_get(res, "error"));

			r = cua_error(CUA_ERROR_BACKEND,
				      "sway refused the command '%s': %s",
				      command, e ? e : "no reason given");
			break;
		}
	}
	json_decref(reply);
	return r;
}

cua_result
cua_sway_focus(const char *path, int timeout_ms, int64_t con_id)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "[con_id=%lld] focus", (long long)con_id);
	return cua_sway_command(path, timeout_ms, cmd);
}
