/*
 * How the desktop tests and the benchmarks start Chromium: its
 * accessibility tree on from the start (Chromium builds it only for a
 * screen reader it has seen, or with this switch), no sandbox (the
 * desktops run in containers), no GPU, no first-run page, no network of
 * its own and a fixed window size. Followed by --user-data-dir=DIR and the
 * URL.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_CHROMIUM_FLAGS_H
#define CUA_TEST_CHROMIUM_FLAGS_H

#define CHROMIUM_TEST_FLAGS                                                    \
	"--force-renderer-accessibility", "--no-sandbox", "--disable-gpu",     \
		"--no-first-run", "--disable-background-networking",           \
		"--disable-component-update", "--disable-sync",                \
		"--window-size=1000,800"

#endif
