/*
 * Shared by the libFuzzer harnesses: a private temporary directory that
 * is removed at exit, and small file helpers.
 *
 * Every harness is deterministic (the same input takes the same path),
 * frees everything it allocates, and writes only below this directory
 * ($TMPDIR/cua-fuzz-XXXXXX). libFuzzer leaves without running atexit()
 * when it is interrupted (SIGINT, SIGTERM): then the directory stays;
 * tools/fuzz-smoke runs the harnesses in a TMPDIR of its own, which it
 * removes.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_FUZZ_COMMON_H
#define CUA_FUZZ_COMMON_H

#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
LLVMFuzzerInitialize(int *argc, char ***argv);
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A small recorded app (libcua.recording/1): a window with a button, a
 * check box and a focused text field. `app` is spliced into the "app"
 * object before its ids, e.g. "\"pid\":4242,".
 */
#define FUZZ_SHOWN "\"showing\",\"visible\",\"enabled\",\"sensitive\""
#define FUZZ_FORM_RECORDING(app)                                               \
	"{\"schema\":\"libcua.recording/1\",\"app\":{" app                     \
	"\"app_id\":\"org.example.Form\",\"app_name\":\"Form\"},"              \
	"\"windows\":[{\"x11_window\":77,\"active\":true,"                     \
	"\"title\":\"Form\",\"frame\":[0,0,400,300]}],"                        \
	"\"root\":{\"role\":\"application\",\"name\":\"Form\","                \
	"\"children\":[{\"id\":\"win\",\"role\":\"frame\","                    \
	"\"name\":\"Form\",\"states\":[" FUZZ_SHOWN ",\"active\"],"            \
	"\"extents\":[0,0,400,300],\"children\":["                             \
	"{\"id\":\"ok\",\"role\":\"push button\",\"name\":\"OK\","             \
	"\"states\":[" FUZZ_SHOWN "],\"extents\":[10,10,80,30],"               \
	"\"actions\":[\"click\"]},"                                            \
	"{\"id\":\"chk\",\"role\":\"check box\",\"name\":\"Remember\","        \
	"\"states\":[" FUZZ_SHOWN ",\"checkable\"],"                           \
	"\"extents\":[10,50,120,20],\"actions\":[\"click\"]},"                 \
	"{\"id\":\"txt\",\"role\":\"text\",\"name\":\"Name\","                 \
	"\"states\":[" FUZZ_SHOWN ",\"editable\",\"focusable\","               \
	"\"focused\",\"single-line\"],\"extents\":[10,80,200,24],"             \
	"\"text\":\"hello world\",\"selection\":[0,0]}]}]}}"

static char fuzz_dir[4096];

static inline int
fuzz_rm_entry(const char *path, const struct stat *st, int flag,
	      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void
fuzz_cleanup(void)
{
	if (fuzz_dir[0])
		nftw(fuzz_dir, fuzz_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	fuzz_dir[0] = '\0';
}

/* Creates the temporary directory (once); aborts when it cannot. */
static inline const char *
fuzz_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	if (fuzz_dir[0])
		return fuzz_dir;
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/cua-fuzz-XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(fuzz_dir)) {
		perror("cua-fuzz: mkdtemp");
		abort();
	}
	atexit(fuzz_cleanup);
	return fuzz_dir;
}

/* Points HOME, the XDG directories and the runtime directory at the
 * private directory, so that nothing reads or writes the user's files;
 * quiets the library's log. */
static inline void
fuzz_private_home(void)
{
	static const char *const vars[] = {
		"HOME",          "XDG_STATE_HOME",  "XDG_CONFIG_HOME",
		"XDG_DATA_HOME", "XDG_RUNTIME_DIR", NULL
	};

	for (int i = 0; vars[i]; i++)
		setenv(vars[i], fuzz_tmpdir(), 1);
	setenv("CUA_LOG_LEVEL", "error", 1);
}

/* The path of `name` in the temporary directory (malloc'd). */
static inline char *
fuzz_path(const char *name)
{
	const char *dir = fuzz_tmpdir();
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (!p)
		abort();
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Replaces the file at `path` with `size` bytes of `data`. */
static inline void
fuzz_write(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const char *p = data;

	if (fd < 0) {
		perror("cua-fuzz: open");
		abort();
	}
	while (size > 0) {
		ssize_t n = write(fd, p, size);

		if (n <= 0) {
			perror("cua-fuzz: write");
			abort();
		}
		p += n;
		size -= (size_t)n;
	}
	close(fd);
}

/* A NUL-terminated copy of the input. */
static inline char *
fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* FNV-1a: a deterministic choice derived from the input. */
static inline uint32_t
fuzz_hash(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return h;
}

#endif
