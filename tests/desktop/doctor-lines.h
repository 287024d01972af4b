/*
 * Reading `cua doctor`'s text and JSON in the tests of a desktop
 * (test-display on X11, test-wl-cli on sway). Include after <cmocka.h>,
 * with CUA_EXE defined.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_DOCTOR_LINES_H
#define CUA_TEST_DOCTOR_LINES_H

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "harness.h"

/* The display capabilities, as `cua doctor` labels them. */
static const char *const doctor_display_labels[] = {
	"Screenshot:", "Pointer:", "Keyboard:", "Window list:", "Geometry:"
};

/* A line of `cua doctor`'s text: its label padded to 18 columns, then
 * `value`. */
static inline void
assert_doctor_line(const char *out, const char *label, const char *value)
{
	char want[512];

	snprintf(want, sizeof(want), "\n%-18s%s", label, value);
	if (!strstr(out, want) && strncmp(out, want + 1, strlen(want + 1)))
		fail_msg("`cua doctor` printed no line\n  %s\nbut\n%s",
			 want + 1, out);
}

/* Everything works: the accessibility bus answers, element actions and
 * every display capability work. */
static inline void
assert_doctor_all_work(const char *out)
{
	size_t n =
		sizeof(doctor_display_labels) / sizeof(*doctor_display_labels);

	assert_doctor_line(out,
			   "Tree:", "works: the accessibility bus answers (");
	assert_doctor_line(out, "Element actions:", "works\n");
	for (size_t i = 0; i < n; i++)
		assert_doctor_line(out, doctor_display_labels[i], "works\n");
}

/* `cua doctor --json` with the driver `driver` in a session of `session_type`
 * and the accessibility tree available, an app at least on the bus: the
 * object (the caller's). */
static inline json_t *
doctor_json(const char *driver, const char *session_type)
{
	const char *argv[] = { CUA_EXE, "doctor", "--json", NULL };
	char out[16384];
	json_t *j, *a11y;

	assert_int_equal(run_command(argv, out, sizeof(out)), 0);
	j = json_loads(out, 0, NULL);
	if (!j)
		fail_msg("`cua doctor --json` printed no JSON:\n%s", out);
	assert_string_equal(json_string_value(json_object_get(j, "driver")),
			    driver);
	assert_string_equal(json_string_value(json_object_get(j, "session")),
			    session_type);
	a11y = json_object_get(j, "accessibility");
	assert_true(json_is_true(
		json_object_get(json_object_get(a11y, "tree"), "available")));
	assert_true(json_integer_value(json_object_get(a11y, "apps")) >= 1);
	return j;
}

#endif
