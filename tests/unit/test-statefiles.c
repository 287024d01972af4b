/*
 * libcua's own state files under file-system faults: the atomic replace
 * (cua_write_file_atomic) and the usage store (cua_usage_record) with a
 * full disk, an unwritable directory or a read-only file system at every
 * step (open, write, fsync, rename). The old file must stay intact, no
 * temporary file may be left behind, the error must be reported as the
 * errno that caused it, and new files get mode 0600 in a 0700 directory.
 *
 * The faults come from tests/faultinject.c, loaded with LD_PRELOAD by
 * meson (directory modes do not stop root, which CI runs as); without it
 * the test is skipped.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/inputlock.h"
#include "core/session.h"
#if HAVE_MUTTER
#include "display/mutter/mutter.h"
#endif

static const char OLD[] = "{\"old\": true}\n";

struct fx {
	char dir[64];
	char path[128];
};

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = calloc(1, 65536);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The names in dir, sorted, joined by spaces. */
static void
listing(const char *dir, char *out, size_t size)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	assert_true(n >= 0);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' ||
		    (strcmp(names[i]->d_name, ".") != 0 &&
		     strcmp(names[i]->d_name, "..") != 0)) {
			if (out[0])
				strncat(out, " ", size - strlen(out) - 1);
			strncat(out, names[i]->d_name, size - strlen(out) - 1);
		}
		free(names[i]);
	}
	free(names);
}

static void
faults(const char *prefix, const char *ops, const char *err, const char *space)
{
	setenv("CUA_FAULT_PREFIX", prefix, 1);
	setenv("CUA_FAULT_OPS", ops, 1);
	setenv("CUA_FAULT_ERRNO", err, 1);
	if (space)
		setenv("CUA_FAULT_SPACE", space, 1);
	else
		unsetenv("CUA_FAULT_SPACE");
}

static void
no_faults(void)
{
	unsetenv("CUA_FAULT_PREFIX");
	unsetenv("CUA_FAULT_OPS");
	unsetenv("CUA_FAULT_ERRNO");
	unsetenv("CUA_FAULT_SPACE");
}

static int
setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/cua-statefiles-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->path, sizeof(fx->path), "%s/state.json", fx->dir);
	*state = fx;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *fx = *state;
	char cmd[128];

	no_faults();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd) != 0)
		return -1;
	free(fx);
	return 0;
}

static void
test_replace_ok(void **state)
{
	struct fx *fx = *state;
	struct stat st;
	char names[256], *text;
	mode_t old_mask = umask(0);

	put(fx->path, OLD);
	chmod(fx->path, 0644);
	assert_int_equal(cua_write_file_atomic(fx->path, "new\n", 4, 0600), 0);
	umask(old_mask);
	text = slurp(fx->path);
	assert_string_equal(text, "new\n");
	free(text);
	assert_int_equal(stat(fx->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	listing(fx->dir, names, sizeof(names));
	assert_string_equal(names, "state.json");
}

/* Replacing OLD with a large file fails with -err under the fault
 * `op`/`errname` (`space`: the bytes written before the disk is full, or
 * NULL); the old file stays and no temp file is left. */
static void
assert_replace_fails(struct fx *fx, const char *op, const char *errname,
		     int err, const char *space, char fill)
{
	char names[256], *text, big[20000];

	memset(big, fill, sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(fx->path, OLD);
	faults(fx->dir, op, errname, space);
	assert_int_equal(
		cua_write_file_atomic(fx->path, big, strlen(big), 0600), -err);
	no_faults();
	text = slurp(fx->path);
	assert_string_equal(text, OLD);
	free(text);
	listing(fx->dir, names, sizeof(names));
	assert_string_equal(names, "state.json");
}

/* Every step fails with every errno: the old file stays, no temp file. */
static void
test_replace_faults(void **state)
{
	static const char *const ops[] = { "open", "write", "fsync", "rename" };
	static const struct {
		const char *name;
		int value;
	} errs[] = { { "ENOSPC", ENOSPC },
		     { "EACCES", EACCES },
		     { "EROFS", EROFS } };

	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
		for (size_t e = 0; e < sizeof(errs) / sizeof(errs[0]); e++)
			assert_replace_fails(*state, ops[o], errs[e].name,
					     errs[e].value, NULL, 'x');
}

/* A disk that fills up in the middle of the file: short writes, then
 * ENOSPC, never a truncated file in place of the old one. */
static void
test_replace_disk_fills_up(void **state)
{
	assert_replace_fails(*state, "write", "ENOSPC", ENOSPC, "4096", 'y');
}

/* The usage store: created 0600 in a new 0700 directory, updated under
 * the lock of usage.json.lock; a failed update is reported and keeps the
 * old store. */
static void
test_usage_store(void **state)
{
	struct fx *fx = *state;
	char path[192], sub[160], names[256], *before, *after;
	struct stat st;

	snprintf(sub, sizeof(sub), "%s/libcua", fx->dir);
	snprintf(path, sizeof(path), "%s/usage.json", sub);
	assert_int_equal(cua_usage_record(path, "org.example.App"), 0);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	before = slurp(path);
	assert_non_null(strstr(before, "\"uses\": 1"));

	faults(sub, "write", "ENOSPC", NULL);
	assert_int_equal(cua_usage_record(path, "org.example.App"), -ENOSPC);
	faults(sub, "rename", "EROFS", NULL);
	assert_int_equal(cua_usage_record(path, "org.example.App"), -EROFS);
	no_faults();
	after = slurp(path);
	assert_string_equal(after, before);
	free(after);
	/* rewritten at every observation, it is not synced to the disk
	 * (docs/security.md, files) */
	faults(sub, "fsync", "EIO", NULL);
	assert_int_equal(cua_usage_record(path, "org.example.App"), 0);
	no_faults();
	after = slurp(path);
	assert_non_null(strstr(after, "\"uses\": 2"));
	/* no temporary file is left; the lock file writers share stays */
	listing(sub, names, sizeof(names));
	assert_string_equal(names, "usage.json usage.json.lock");
	free(before);
	free(after);

	/* an unwritable parent: the directory cannot even be created */
	snprintf(sub, sizeof(sub), "%s/ro", fx->dir);
	snprintf(path, sizeof(path), "%s/libcua/usage.json", sub);
	faults(sub, "mkdir", "EACCES", NULL);
	assert_int_equal(cua_usage_record(path, "org.example.App"), -EACCES);
	no_faults();
	assert_int_equal(access(sub, F_OK), -1);
}

/* The desktop's input lock is one file per display server: the screen
 * number and the local host "unix" do not make another lock. */
static void
test_input_lock_path(void **state)
{
	struct fx *fx = *state;
	const char *same[] = { ":1.0", "unix:1", "unix:1.0" };
	char *one, *other, want[600];

	assert_int_equal(setenv("XDG_RUNTIME_DIR", fx->dir, 1), 0);
	one = cua_input_lock_path(":1");
	snprintf(want, sizeof(want), "%s/libcua/input-_1.lock", fx->dir);
	assert_string_equal(one, want);
	for (size_t i = 0; i < sizeof(same) / sizeof(*same); i++) {
		other = cua_input_lock_path(same[i]);
		assert_string_equal(other, one);
		free(other);
	}
	/* other servers, and a Wayland socket, keep locks of their own */
	other = cua_input_lock_path(":2");
	assert_string_not_equal(other, one);
	free(other);
	other = cua_input_lock_path("otherhost:1");
	assert_string_not_equal(other, one);
	free(other);
	other = cua_input_lock_path("wayland-1");
	snprintf(want, sizeof(want), "%s/libcua/input-wayland-1.lock", fx->dir);
	assert_string_equal(other, want);
	free(other);
	free(one);
}

#if HAVE_MUTTER
/* The portal's restore token: a 0600 file in a 0700 directory under
 * XDG_STATE_HOME, replaced whole or not at all, and read back only when
 * it holds a token. */
static void
test_portal_token(void **state)
{
	struct fx *fx = *state;
	char path[192], sub[160], why[256], got[256];
	struct stat st;

	assert_int_equal(setenv("XDG_STATE_HOME", fx->dir, 1), 0);
	rd_portal_token_load(got, sizeof(got));
	assert_string_equal(got, "");
	assert_int_equal(
		rd_portal_token_save("1b4e28ba-2fa1-11d2-883f-0016d3cca427",
				     why, sizeof(why)),
		0);
	snprintf(sub, sizeof(sub), "%s/libcua", fx->dir);
	snprintf(path, sizeof(path), "%s/portal-restore-token", sub);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	rd_portal_token_load(got, sizeof(got));
	assert_string_equal(got, "1b4e28ba-2fa1-11d2-883f-0016d3cca427");

	/* a full disk keeps the old token, and says why */
	faults(sub, "write", "ENOSPC", NULL);
	assert_int_equal(rd_portal_token_save("2c5f39cb", why, sizeof(why)),
			 -1);
	no_faults();
	assert_non_null(strstr(why, "portal-restore-token"));
	assert_non_null(strstr(why, "No space left on device"));
	rd_portal_token_load(got, sizeof(got));
	assert_string_equal(got, "1b4e28ba-2fa1-11d2-883f-0016d3cca427");

	/* a new token replaces it */
	assert_int_equal(rd_portal_token_save("2c5f39cb", why, sizeof(why)), 0);
	rd_portal_token_load(got, sizeof(got));
	assert_string_equal(got, "2c5f39cb");

	/* what is not a token is not passed to the portal */
	put(path, "a token; rm -rf /\n");
	rd_portal_token_load(got, sizeof(got));
	assert_string_equal(got, "");
	unsetenv("XDG_STATE_HOME");
}
#endif

int
main(void)
{
	const char *preload = getenv("LD_PRELOAD");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_replace_ok, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_replace_faults, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_replace_disk_fills_up,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_usage_store, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_input_lock_path, setup,
						teardown),
#if HAVE_MUTTER
		cmocka_unit_test_setup_teardown(test_portal_token, setup,
						teardown),
#endif
	};

	if (!preload || !strstr(preload, "faultinject")) {
		printf("1..0 # SKIP needs LD_PRELOAD=libfaultinject.so\n");
		return 77;
	}
	return cmocka_run_group_tests_name("statefiles", tests, NULL, NULL);
}
