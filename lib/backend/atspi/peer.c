/*
 * A peer-to-peer D-Bus connection driven by the calling thread (peer.h).
 *
 * The wire protocol is D-Bus's: a line-based authentication (EXTERNAL,
 * the credentials of the socket), then messages that GDBus serialises and
 * parses (g_dbus_message_to_blob, g_dbus_message_new_from_blob). Only the
 * socket work is done here, without a thread: writes of everything queued
 * at once, reads of everything the app sent at once.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "peer.h"
#include "core/ctx.h"

/* What one read asks of the socket. */
#define READ_CHUNK (64 * 1024)
/* The longest line of the authentication the app may send. */
#define AUTH_LINE_MAX 512

struct peer {
	int fd;
	int closed;
	guint32 serial;
	GByteArray *in; /* read, not cut into messages yet, from in_off */
	size_t in_off;
	GByteArray *out; /* queued, not written yet, from out_off */
	size_t out_off;
};

/* ------------------------------------------------------------------ */
/* Opening                                                             */

/* One value of a D-Bus address, %-escapes undone; NULL when absent or
 * malformed. */
static char *
address_value(const char *addr, const char *key, size_t *len)
{
	size_t klen = strlen(key);
	const char *p = strchr(addr, ':');
	GString *v;

	while (p) {
		p++;
		if (strncmp(p, key, klen) == 0 && p[klen] == '=')
			break;
		p = strchr(p, ',');
	}
	if (!p)
		return NULL;
	v = g_string_new(NULL);
	for (p += klen + 1; *p && *p != ',' && *p != ';'; p++) {
		if (*p == '%') {
			int hi = g_ascii_xdigit_value(p[1]);
			int lo = hi < 0 ? -1 : g_ascii_xdigit_value(p[2]);

			if (lo < 0) {
				g_string_free(v, TRUE);
				return NULL;
			}
			g_string_append_c(v, (char)(hi * 16 + lo));
			p += 2;
		} else {
			g_string_append_c(v, *p);
		}
	}
	*len = v->len;
	return g_string_free(v, FALSE);
}

static int
left_ms(int64_t deadline)
{
	int64_t left = deadline - cua_now_us();

	return left <= 0 ? 0 : (int)((left + 999) / 1000);
}

/* Waits for `events` on the socket until the deadline: 1 ready, 0 not in
 * time, -1 error. */
static int
wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int r;

	do {
		r = poll(&pfd, 1, left_ms(deadline));
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -1 : r > 0;
}

static int
connect_socket(const char *address, int64_t deadline, GError **error)
{
	struct sockaddr_un sa;
	socklen_t sa_len;
	size_t len = 0;
	char *path = address_value(address, "path", &len);
	int abstract = 0, fd, r;

	if (!path) {
		path = address_value(address, "abstract", &len);
		abstract = 1;
	}
	if (!g_str_has_prefix(address, "unix:") || !path || len == 0 ||
	    len + (size_t)abstract >= sizeof(sa.sun_path) ||
	    memchr(path, '\0', len)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			    "not a local socket address: %s", address);
		g_free(path);
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path + abstract, path, len);
	sa_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + abstract +
			     len + (abstract ? 0 : 1));
	g_free(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto fail;
	for (;;) {
		r = connect(fd, (struct sockaddr *)&sa, sa_len);
		if (r == 0 || errno == EISCONN)
			return fd;
		if (errno == EINTR)
			continue;
		if (errno == EINPROGRESS) {
			int err = 0;
			socklen_t el = sizeof(err);

			if (wait_fd(fd, POLLOUT, deadline) <= 0)
				break;
			if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) <
				    0 ||
			    err) {
				errno = err ? err : errno;
				goto fail;
			}
			return fd;
		}
		/* the app's listening queue is full: again, shortly */
		if (errno == EAGAIN && left_ms(deadline) > 0) {
			g_usleep(1000);
			continue;
		}
		goto fail;
	}
	close(fd);
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
		    "the app did not accept the connection in time");
	return -1;
fail:
	r = errno;
	if (fd >= 0)
		close(fd);
	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(r),
		    "cannot connect to %s: %s", address, g_strerror(r));
	return -1;
}

static int
write_all(int fd, const char *buf, size_t len, int64_t deadline)
{
	while (len > 0) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n > 0) {
			buf += n;
			len -= (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && errno == EAGAIN) {
			if (wait_fd(fd, POLLOUT, deadline) <= 0)
				return -1;
		} else {
			return -1;
		}
	}
	return 0;
}

/* The server's answer to AUTH, one line without its "\r\n". It sends
 * nothing else before BEGIN, so the line is all there is to read. */
static int
read_line(int fd, char *line, size_t cap, int64_t deadline)
{
	size_t len = 0;

	for (;;) {
		ssize_t n = recv(fd, line + len, cap - 1 - len, 0);

		if (n > 0) {
			len += (size_t)n;
			if (len >= 2 && line[len - 2] == '\r' &&
			    line[len - 1] == '\n') {
				line[len - 2] = '\0';
				return 0;
			}
			if (len >= cap - 1)
				return -1;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && errno == EAGAIN) {
			if (wait_fd(fd, POLLIN, deadline) <= 0)
				return -1;
		} else {
			return -1;
		}
	}
}

static int
authenticate(int fd, int64_t deadline, GError **error)
{
	char uid[32], hex[2 * sizeof(uid) + 1], cmd[128], line[AUTH_LINE_MAX];
	size_t i;

	snprintf(uid, sizeof(uid), "%lu", (unsigned long)getuid());
	for (i = 0; uid[i]; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)uid[i]);
	hex[2 * i] = '\0';
	/* the credentials byte, then the EXTERNAL mechanism */
	snprintf(cmd, sizeof(cmd), "%cAUTH EXTERNAL %s\r\n", 0, hex);
	if (write_all(fd, cmd, 1 + strlen(cmd + 1), deadline) < 0 ||
	    read_line(fd, line, sizeof(line), deadline) < 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
			    "the app did not answer the authentication");
		return -1;
	}
	if (strncmp(line, "OK ", 3) != 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
			    "the app refused the authentication");
		return -1;
	}
	if (write_all(fd, "BEGIN\r\n", 7, deadline) < 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_CLOSED,
			    "the app closed the connection");
		return -1;
	}
	return 0;
}

struct peer *
peer_open(const char *address, int timeout_ms, GError **error)
{
	int64_t deadline = cua_now_us() + (int64_t)timeout_ms * 1000;
	struct peer *p;
	int fd = connect_socket(address, deadline, error);

	if (fd < 0)
		return NULL;
	if (authenticate(fd, deadline, error) < 0) {
		close(fd);
		return NULL;
	}
	p = g_new0(struct peer, 1);
	p->fd = fd;
	p->in = g_byte_array_new();
	p->out = g_byte_array_new();
	return p;
}

void
peer_free(struct peer *p)
{
	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	g_byte_array_unref(p->in);
	g_byte_array_unref(p->out);
	g_free(p);
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */

static void
set_closed(struct peer *p)
{
	p->closed = 1;
	g_byte_array_set_size(p->out, 0);
	p->out_off = 0;
}

void
peer_abandon(struct peer *p)
{
	set_closed(p);
}

guint32
peer_send(struct peer *p, GDBusMessage *msg, GError **error)
{
	guchar *blob;
	gsize size;

	if (p->closed) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_CLOSED,
				    "The connection is closed");
		return 0;
	}
	if (++p->serial == 0)
		p->serial = 1;
	g_dbus_message_set_serial(msg, p->serial);
	blob = g_dbus_message_to_blob(msg, &size, G_DBUS_CAPABILITY_FLAGS_NONE,
				      error);
	if (!blob)
		return 0;
	g_dbus_message_lock(msg);
	g_byte_array_append(p->out, blob, (guint)size);
	g_free(blob);
	return p->serial;
}

int
peer_fd(const struct peer *p)
{
	return p->fd;
}

GIOCondition
peer_wants(const struct peer *p)
{
	if (p->closed)
		return 0;
	return G_IO_IN | (p->out->len > p->out_off ? G_IO_OUT : 0);
}

static int
flush(struct peer *p)
{
	while (p->out->len > p->out_off) {
		ssize_t n = send(p->fd, p->out->data + p->out_off,
				 p->out->len - p->out_off, MSG_NOSIGNAL);

		if (n > 0)
			p->out_off += (size_t)n;
		else if (n < 0 && errno == EINTR)
			continue;
		else if (n < 0 && errno == EAGAIN)
			return 0;
		else
			return -1;
	}
	g_byte_array_set_size(p->out, 0);
	p->out_off = 0;
	return 0;
}

/* Reads all there is: 0, or -1 when the app closed the connection. */
static int
fill(struct peer *p)
{
	for (;;) {
		guint len = p->in->len;
		ssize_t n;

		g_byte_array_set_size(p->in, len + READ_CHUNK);
		n = recv(p->fd, p->in->data + len, READ_CHUNK, 0);
		g_byte_array_set_size(p->in, len + (n > 0 ? (guint)n : 0));
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		return -1;
	}
}

/* Cuts the complete messages read so far and hands the answers on. */
static int
cut(struct peer *p, peer_reply_cb cb, void *data, GError **error)
{
	while (p->in->len - p->in_off >= 16) {
		const guchar *at = p->in->data + p->in_off;
		gssize need =
			g_dbus_message_bytes_needed((guchar *)at, 16, error);
		GDBusMessage *msg;
		GDBusMessageType type;

		if (need < 0)
			return -1;
		if ((gsize)need > p->in->len - p->in_off)
			break;
		msg = g_dbus_message_new_from_blob((guchar *)at, (gsize)need,
						   G_DBUS_CAPABILITY_FLAGS_NONE,
						   error);
		if (!msg)
			return -1;
		p->in_off += (size_t)need;
		type = g_dbus_message_get_message_type(msg);
		if (type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN ||
		    type == G_DBUS_MESSAGE_TYPE_ERROR)
			cb(msg, data);
		g_object_unref(msg);
	}
	if (p->in_off > 0) {
		g_byte_array_remove_range(p->in, 0, (guint)p->in_off);
		p->in_off = 0;
	}
	return 0;
}

int
peer_io(struct peer *p, peer_reply_cb cb, void *data, GError **error)
{
	int gone;

	if (p->closed) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_CLOSED,
				    "The connection is closed");
		return -1;
	}
	gone = flush(p) < 0;
	gone |= fill(p) < 0;
	/* what came before the end is still answered */
	if (cut(p, cb, data, error) < 0) {
		set_closed(p);
		return -1;
	}
	if (!gone)
		gone = flush(p) < 0;
	if (gone) {
		set_closed(p);
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_CLOSED,
				    "The connection is closed");
		return -1;
	}
	return 0;
}
