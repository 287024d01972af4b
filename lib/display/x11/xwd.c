/*
 * The xwd route of window capture (docs/screenshots.md §8): when a capture
 * hangs, capture.c abandons its worker and runs `xwd -silent -id
 * <window>` with capture_fallback_timeout_ms (SIGTERM, then SIGKILL a
 * second later), and decodes what it writes.
 *
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
#include <unistd.h>

#include <X11/X.h>

#include "xwd.h"

extern char **environ;

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

int
xwd_decode(const uint8_t *buf, size_t len, struct cua_pixels *out)
{
	uint32_t hsize, version, format, depth, width, height, byte_order;
	uint32_t bpp, bpl, vclass, rmask, gmask, bmask, ncolors;
	size_t off, need;

	memset(out, 0, sizeof(*out));
	if (len < 100)
		return -1;
	hsize = be32(buf);
	version = be32(buf + 4);
	format = be32(buf + 8);
	depth = be32(buf + 12);
	width = be32(buf + 16);
	height = be32(buf + 20);
	byte_order = be32(buf + 28);
	bpp = be32(buf + 44);
	bpl = be32(buf + 48);
	vclass = be32(buf + 52);
	rmask = be32(buf + 56);
	gmask = be32(buf + 60);
	bmask = be32(buf + 64);
	ncolors = be32(buf + 76);
	/* ZPixmap, TrueColor (4) or DirectColor (5) */
	if (version != 7 || format != 2 || (vclass != 4 && vclass != 5) ||
	    (bpp != 16 && bpp != 24 && bpp != 32) || width == 0 ||
	    height == 0 || width > 32768 || height > 32768 || hsize < 100 ||
	    bpl < width * (bpp / 8) || ncolors > 65536)
		return -1;
	off = (size_t)hsize + (size_t)ncolors * 12;
	need = (size_t)bpl * height;
	if (off > len || len - off < need)
		return -1;
	out->data = malloc(need);
	if (!out->data)
		return -1;
	memcpy(out->data, buf + off, need);
	out->stride = bpl;
	out->width = width;
	out->height = height;
	out->bits_per_pixel = bpp;
	out->msb_first = byte_order == MSBFirst;
	out->red_mask = rmask;
	out->green_mask = gmask;
	out->blue_mask = bmask;
	if (depth == 32)
		out->alpha_mask = ~(rmask | gmask | bmask);
	return 0;
}

static int
child_wait(pid_t pid, int64_t until_us)
{
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return 0;
		if (cua_now_us() >= until_us)
			return -1;
		usleep(5000);
	}
}

enum cua_capture_status
capture_xwd(const char *display, struct cua_ctx *ctx, uint64_t window,
	    int timeout_ms, const int32_t ext[4], struct cua_capture **out)
{
	char idbuf[32];
	const char *argv[] = { "xwd", "-silent",  "-id",
			       idbuf, "-display", display ? display : ":0",
			       NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int pipefd[2];
	pid_t pid;
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	int64_t t0 = cua_now_us(), deadline = t0 + (int64_t)timeout_ms * 1000;
	int ok = 0, r;
	struct cua_pixels px;
	struct cua_capture *c;

	*out = NULL;
	snprintf(idbuf, sizeof(idbuf), "0x%llx", (unsigned long long)window);
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return CUA_CAPTURE_TIMEOUT;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	/* a host (cua-mcp) may block SIGTERM in every thread and ignore
	 * SIGPIPE; xwd must not inherit that, or the SIGTERM below would not
	 * stop it */
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGTERM);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
						POSIX_SPAWN_SETSIGDEF);
	r = posix_spawnp(&pid, "xwd", &fa, &attr, (char *const *)argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		cua_debug(ctx, "capture: cannot run xwd: %s", strerror(r));
		return CUA_CAPTURE_TIMEOUT;
	}
	for (;;) {
		struct pollfd pfd = { pipefd[0], POLLIN, 0 };
		int64_t left = deadline - cua_now_us();
		ssize_t n;

		if (left <= 0)
			break;
		if (poll(&pfd, 1, (int)(left / 1000 + 1)) <= 0)
			continue;
		if (len + 65536 > cap) {
			size_t ncap = cap ? cap * 2 : 1 << 20;
			uint8_t *nb =
				ncap < (256u << 20) ? realloc(buf, ncap) : NULL;

			if (!nb)
				break;
			buf = nb;
			cap = ncap;
		}
		n = read(pipefd[0], buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ok = n == 0;
			break;
		}
		len += (size_t)n;
	}
	close(pipefd[0]);
	if (child_wait(pid, ok ? deadline : cua_now_us()) < 0) {
		kill(pid, SIGTERM);
		if (child_wait(pid, cua_now_us() + 1000 * 1000) < 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		ok = 0;
	}
	if (!ok || xwd_decode(buf, len, &px) < 0) {
		free(buf);
		return CUA_CAPTURE_TIMEOUT;
	}
	free(buf);
	c = calloc(1, sizeof(*c));
	if (!c) {
		free(px.data);
		return CUA_CAPTURE_TIMEOUT;
	}
	/* crop the CSD margins last seen on this window */
	if (ext && ext[0] + ext[1] < (int32_t)px.width &&
	    ext[2] + ext[3] < (int32_t)px.height &&
	    (ext[0] || ext[1] || ext[2] || ext[3])) {
		uint8_t *d = px.data + (size_t)ext[2] * px.stride +
			     (size_t)ext[0] * (px.bits_per_pixel / 8);

		memmove(px.data, d,
			px.stride * (px.height - (uint32_t)ext[2]) -
				(size_t)ext[0] * (px.bits_per_pixel / 8));
		px.width -= (uint32_t)(ext[0] + ext[1]);
		px.height -= (uint32_t)(ext[2] + ext[3]);
	}
	c->px = px;
	c->frame.w = (int32_t)px.width;
	c->frame.h = (int32_t)px.height;
	c->window = c->frame;
	c->route = CUA_CAPTURE_SUBPROCESS;
	c->capture_us = cua_now_us() - t0;
	*out = c;
	return CUA_CAPTURE_OK;
}
