/*
 * Reading `cua doctor`'s text in the tests of a desktop (test-display on
 * X11, test-wl-cli on sway). Include after <cmocka.h>.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_DOCTOR_LINES_H
#define CUA_TEST_DOCTOR_LINES_H

#include <stdio.h>
#include <string.h>

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

#endif
