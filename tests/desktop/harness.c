/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
app_start(struct app_proc *p, const char *const argv[], int pipes)
{
	posix_spawn_file_actions_t fa;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, r;

	memset(p, 0, sizeof(*p));
	p->in_fd = p->out_fd = -1;
	posix_spawn_file_actions_init(&fa);
	if (pipes) {
		if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0)
			return -1;
		posix_spawn_file_actions_adddup2(&fa, in[0], 0);
		posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	} else {
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
						 0);
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY,
						 0);
	}
	r = posix_spawnp(&p->pid, argv[0], &fa, NULL, (char *const *)argv,
			 environ);
	posix_spawn_file_actions_destroy(&fa);
	if (pipes) {
		close(in[0]);
		close(out[1]);
		p->in_fd = in[1];
		p->out_fd = out[0];
	}
	if (r != 0) {
		fprintf(stderr, "cannot start %s: %s\n", argv[0], strerror(r));
		return -1;
	}
	return 0;
}

/* Waits for more output of p until `deadline` and appends it to p->buf;
 * with drop_runaway, a line that fills the buffer is dropped. 0 (nothing
 * new when poll() gave up early), or -1 at the deadline or the end of
 * the output. */
static int
read_more(struct app_proc *p, int64_t deadline, int drop_runaway)
{
	struct pollfd pfd = { p->out_fd, POLLIN, 0 };
	int64_t left = deadline - now_ms();
	ssize_t r;

	if (left <= 0 || p->out_fd < 0)
		return -1;
	if (poll(&pfd, 1, (int)left) <= 0)
		return 0;
	r = read(p->out_fd, p->buf + p->len, sizeof(p->buf) - p->len - 1);
	if (r <= 0)
		return -1;
	p->len += (size_t)r;
	if (drop_runaway && p->len >= sizeof(p->buf) - 1)
		p->len = 0;
	return 0;
}

int
app_wait_line(struct app_proc *p, const char *prefix, int timeout_ms,
	      char *line, size_t size)
{
	int64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		char *nl;

		while ((nl = memchr(p->buf, '\n', p->len))) {
			size_t n = (size_t)(nl - p->buf);
			int match =
				strncmp(p->buf, prefix, strlen(prefix)) == 0 &&
				n >= strlen(prefix);

			if (match && line && size) {
				size_t c = n < size - 1 ? n : size - 1;

				memcpy(line, p->buf, c);
				line[c] = '\0';
			}
			memmove(p->buf, nl + 1, p->len - n - 1);
			p->len -= n + 1;
			if (match)
				return 0;
		}
		if (read_more(p, deadline, 1) < 0)
			return -1;
	}
}

int
app_read_until(struct app_proc *p, const char *until, int timeout_ms, char *log,
	       size_t size)
{
	int64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		char *nl;

		while ((nl = memchr(p->buf, '\n', p->len))) {
			size_t n = (size_t)(nl - p->buf);
			int hit = until && n >= strlen(until) &&
				  strncmp(p->buf, until, strlen(until)) == 0;

			if (log && strlen(log) + n + 2 < size) {
				strncat(log, p->buf, n);
				strcat(log, "\n");
			}
			memmove(p->buf, nl + 1, p->len - n - 1);
			p->len -= n + 1;
			if (hit)
				return 0;
		}
		if (read_more(p, deadline, 0) < 0)
			return -1;
	}
}

int
app_send(struct app_proc *p, const char *command)
{
	size_t n = strlen(command);

	if (write(p->in_fd, command, n) != (ssize_t)n ||
	    write(p->in_fd, "\n", 1) != 1)
		return -1;
	return 0;
}

void
app_stop(struct app_proc *p)
{
	int status;

	if (!p || p->pid <= 0)
		return;
	kill(p->pid, SIGCONT);
	kill(p->pid, SIGTERM);
	for (int i = 0; i < 100; i++) {
		if (waitpid(p->pid, &status, WNOHANG) == p->pid)
			goto done;
		usleep(20000);
	}
	kill(p->pid, SIGKILL);
	waitpid(p->pid, &status, 0);
done:
	if (p->in_fd >= 0)
		close(p->in_fd);
	if (p->out_fd >= 0)
		close(p->out_fd);
	p->pid = 0;
	p->in_fd = p->out_fd = -1;
}

int
run_command(const char *const argv[], char *out, size_t size)
{
	return run_command_with(argv, NULL, NULL, out, size);
}

int
run_command_with(const char *const argv[], void (*before_exec)(void *),
		 void *data, char *out, size_t size)
{
	int fds[2], status;
	pid_t pid;
	ssize_t n;
	size_t got = 0;
	char scratch[4096];

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (before_exec)
			before_exec(data);
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	while (got + 1 < size &&
	       (n = read(fds[0], out + got, size - got - 1)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	/* the rest is read and dropped: a full pipe would block the child */
	while ((n = read(fds[0], scratch, sizeof(scratch))) > 0)
		;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *
mcp_call(struct app_proc *mcp, const char *request, int id)
{
	char prefix[32];
	int64_t deadline = now_ms() + 15000;

	snprintf(prefix, sizeof(prefix), "\"id\":%d,", id);
	if (app_send(mcp, request) < 0)
		return NULL;
	for (;;) {
		char *nl = memchr(mcp->buf, '\n', mcp->len);
		struct pollfd pfd = { mcp->out_fd, POLLIN, 0 };
		size_t room;
		ssize_t r;

		if (nl) {
			size_t n = (size_t)(nl - mcp->buf);
			char *line = strndup(mcp->buf, n);

			memmove(mcp->buf, nl + 1, mcp->len - n - 1);
			mcp->len -= n + 1;
			if (line && strstr(line, prefix))
				return line;
			free(line);
			continue;
		}
		if (now_ms() >= deadline) {
			fprintf(stderr, "cua-mcp did not answer request %d\n",
				id);
			return NULL;
		}
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		room = sizeof(mcp->buf) - mcp->len - 1;
		if (room == 0) {
			/* a line longer than the buffer (a screenshot):
			 * keep its head only, the text comes first */
			mcp->len = sizeof(mcp->buf) / 2;
			room = sizeof(mcp->buf) - mcp->len - 1;
		}
		r = read(mcp->out_fd, mcp->buf + mcp->len, room);
		if (r <= 0)
			return NULL;
		mcp->len += (size_t)r;
	}
}

int
mcp_start(struct app_proc *mcp, const char *exe, const char *const *args)
{
	const char *argv[16];
	size_t n = 0;
	char *line;

	argv[n++] = exe;
	for (; args && *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	if (app_start(mcp, argv, 1) < 0)
		return -1;
	line = mcp_call(
		mcp,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
		"\"initialize\",\"params\":{\"protocolVersion\":"
		"\"2025-06-18\",\"capabilities\":{},\"clientInfo\":"
		"{\"name\":\"libcua-desktop-tests\",\"version\":\"1\"}}}",
		1);
	if (!line)
		return -1;
	free(line);
	return app_send(mcp, "{\"jsonrpc\":\"2.0\",\"method\":"
			     "\"notifications/initialized\"}");
}

const char *
test_desktop_kind(void)
{
	const char *kind = getenv("CUA_TEST_DESKTOP_KIND");
	/* a Wayland desktop may have Xwayland (DISPLAY) too */
	int wayland = getenv("WAYLAND_DISPLAY") && *getenv("WAYLAND_DISPLAY");

	/* not named (tests/wayland, a test run by hand): as it is */
	if (!kind || !*kind)
		return wayland ? "sway" : "x11";
	if (strcmp(kind, "x11") && strcmp(kind, "sway") &&
	    strcmp(kind, "mutter")) {
		fprintf(stderr,
			"CUA_TEST_DESKTOP_KIND=%s: x11, sway or mutter\n",
			kind);
		abort();
	}
	if (wayland != !!strcmp(kind, "x11")) {
		fprintf(stderr,
			"CUA_TEST_DESKTOP_KIND=%s, but the test runs in a%s desktop\n",
			kind, wayland ? " Wayland" : "n X11");
		abort();
	}
	return kind;
}

cua_session *
test_session(void)
{
	cua_session *s = NULL;
	cua_result r;

	test_desktop_kind();
	r = cua_session_new(&s, 0);

	if (r != CUA_OK) {
		fprintf(stderr, "cua_session_new: %s\n", cua_error_message());
		abort();
	}
	/* the tests compare the sentences a model sees (cua-mcp's words) */
	if (cua_session_set_option(s, "vocabulary", "mcp") != CUA_OK)
		abort();
	return s;
}

cua_tree *
observe_until_pred(cua_session *s, const char *app, int timeout_ms,
		   int (*pred)(cua_tree *t, void *data), void *data)
{
	int64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		cua_tree *t = NULL;
		cua_result r =
			cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &t);

		if (r == CUA_OK && (!pred || pred(t, data)))
			return t;
		cua_tree_unref(t);
		if (now_ms() > deadline) {
			fprintf(stderr, "observe %s: %s\n", app,
				r == CUA_OK ? "condition never held" :
					      cua_error_message());
			return NULL;
		}
		usleep(200 * 1000);
	}
}

int
window_titled(cua_tree *t, void *data)
{
	const char *title = cua_tree_get_window_title(t);

	return title && strcmp(title, (const char *)data) == 0;
}

cua_tree *
observe_until(cua_session *s, const char *app, int timeout_ms)
{
	return observe_until_pred(s, app, timeout_ms, NULL, NULL);
}

char *
render(cua_tree *t)
{
	char *text = NULL;

	if (cua_tree_render(t, 0, &text) != CUA_OK)
		abort();
	return text;
}

void
cache_tally_log(cua_session *s, cua_log_level level, const char *msg,
		void *data)
{
	struct cache_tally *t = data;
	const char *p;
	int compared, found;

	(void)s;
	(void)level;
	if (!strstr(msg, "tree cache: "))
		return;
	if (strstr(msg, "read in full")) {
		printf("# %s\n", msg);
		t->fulls++;
		t->untrusted += strstr(msg, "toolkit not trusted") != NULL;
		return;
	}
	if (!strstr(msg, "served from the cache"))
		return;
	t->hits++;
	p = strstr(msg, " subtrees read again, ");
	if (p && sscanf(p, " subtrees read again, %d objects compared, %d",
			&compared, &found) == 2) {
		t->swept_hits += compared > 0;
		t->found += found;
	}
}

static int
str_eq(const char *a, const char *b)
{
	return !b || strcmp(a ? a : "", b) == 0;
}

cua_element *
find_element(cua_tree *t, const char *role, const char *title)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (str_eq(cua_element_get_role(e), role) &&
		    str_eq(cua_element_get_title(e), title))
			return e;
	}
	return NULL;
}

cua_element *
find_element_prefix(cua_tree *t, const char *role, const char *prefix)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (str_eq(cua_element_get_role(e), role) &&
		    strncmp(cua_element_get_title(e), prefix, strlen(prefix)) ==
			    0)
			return e;
	}
	return NULL;
}

char *
element_line(cua_element *e)
{
	char *s = NULL;

	if (cua_element_render(e, &s) != CUA_OK)
		abort();
	return s;
}

int
has_line(const char *text, const char *needle)
{
	const char *p = text;
	size_t n = strlen(needle);

	while (p && *p) {
		const char *q = p;

		while (*q == '\t')
			q++;
		if (strncmp(q, needle, n) == 0 &&
		    (q[n] == '\n' || q[n] == '\0'))
			return 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

const char *
data_path(const char *name)
{
	static char buf[4096];
	const char *dir = getenv("CUA_TEST_DATA");

	snprintf(buf, sizeof(buf), "%s/%s", dir ? dir : "tests/data", name);
	return buf;
}
