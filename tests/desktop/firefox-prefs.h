/*
 * How the desktop tests and the benchmarks start Firefox: a new instance
 * (FIREFOX_TEST_COMMAND, followed by the profile directory and the URL)
 * in a new profile whose user.js (FIREFOX_TEST_PREFS) keeps first-run
 * pages, the default-browser question and the crash-restore prompt away.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_FIREFOX_PREFS_H
#define CUA_TEST_FIREFOX_PREFS_H

#define FIREFOX_TEST_COMMAND                                                   \
	"firefox-esr", "--no-remote", "--new-instance", "--profile"

#define FIREFOX_TEST_PREFS                                                     \
	"user_pref(\"browser.shell.checkDefaultBrowser\", false);\n"           \
	"user_pref(\"browser.startup.homepage_override.mstone\", "             \
	"\"ignore\");\n"                                                       \
	"user_pref(\"datareporting.policy."                                    \
	"dataSubmissionPolicyBypassNotification\", true);\n"                   \
	"user_pref(\"toolkit.telemetry.reportingpolicy.firstRun\", "           \
	"false);\n"                                                            \
	"user_pref(\"browser.aboutwelcome.enabled\", false);\n"                \
	"user_pref(\"browser.sessionstore.resume_from_crash\", false);\n"

#endif
