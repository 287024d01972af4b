/*
 * Frames measured from another origin (lib/core/frames.h, geometry.h rule
 * 4) on recorded trees: LibreOffice's VCL widgets under the gtk3 plugin as
 * it reports them after start-up (measured from the client area's top,
 * 25 px above their host below the native menu bar) and as it reports them
 * after pointer input (where they are) give the same frames; native GTK
 * islands inside VCL are not moved; a GTK list scrolled past its top is
 * left alone.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cua/cua.h>
#include <jansson.h>

#include "core/frames.h"
#include "core/session.h"
#include "rec-session.h"

static cua_tree *
observe_json(const char *json, const char *app)
{
	cua_session *s = rec_session_json(json);
	cua_tree *t = NULL;

	if (cua_session_observe(s, app, 0, &t) != CUA_OK)
		fail_msg("observe: %s", cua_error_message());
	cua_session_unref(s);
	return t;
}

static cua_element *
find(cua_tree *t, const char *title)
{
	for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
		cua_element *e = cua_tree_get_element(t, i);

		if (strcmp(cua_element_get_title(e), title) == 0)
			return e;
	}
	fail_msg("no element %s", title);
	return NULL;
}

static void
expect_frame(cua_tree *t, const char *title, int32_t x, int32_t y, int32_t w,
	     int32_t h)
{
	int32_t fx, fy, fw, fh;

	assert_true(cua_element_get_frame(find(t, title), &fx, &fy, &fw, &fh));
	if (fx != x || fy != y || fw != w || fh != h)
		fail_msg("%s: frame %d,%d %dx%d, expected %d,%d %dx%d", title,
			 fx, fy, fw, fh, x, y, w, h);
}

#define SHOW "\"states\":[\"showing\",\"visible\",\"enabled\",\"sensitive\"]"
#define N(role, name, x, y, w, h)                                              \
	"{\"role\":\"" role "\",\"name\":\"" name "\"," SHOW                   \
	",\"extents\":[" #x "," #y "," #w "," #h "]"
#define LEAF(role, name, x, y, w, h) N(role, name, x, y, w, h) "}"
#define KIDS ",\"children\":["
#define END "]}"

/* Calc maximised under openbox: client window (0, 19) 1280x1005, title bar
 * 19 px, the native menu bar 25 px; the frame at the window manager's
 * frame. VCL's nodes are reported `d` px above where they are (25 after
 * start-up, 0 once it knows), the Name Box's native island where it is. */
#define CALC(d0, d1, d2, d3, d4, d5, d6, d7)                                   \
	"{\"schema\":\"libcua.recording/1\",\"app\":{\"pid\":4242,"            \
	"\"app_id\":\"libreoffice-calc\",\"app_name\":\"LibreOffice Calc\"},"  \
	"\"windows\":[{\"x11_window\":77,\"active\":true,\"mapped\":true,"     \
	"\"title\":\"Untitled 1\",\"frame\":[0,19,1280,1005],"                 \
	"\"surface\":[0,19,1280,1005],\"outer\":[0,0,1280,1024]}],"            \
	"\"root\":{\"role\":\"application\",\"name\":\"soffice\","             \
	"\"children\":[" N("frame", "Untitled 1", 0, 0, 1280, 1024)            \
		KIDS N("panel", "", 0, 19, 1280, 1005)                         \
			KIDS N("panel", "", 0, 19, 1280, 25)                   \
				KIDS N("menu bar", "", 0, 19, 1256, 25)        \
					KIDS LEAF("menu", "File", 0, 19, 39,   \
						  25) "," LEAF("menu", "Edit", \
							       39, 19, 41, 25) \
						END END                        \
		"," N("panel", "", 0, 44, 1280,                                \
		      980) KIDS N("root pane", "Untitled 1", 0, d0, 1280, 980) \
			KIDS N("tool bar", "Standard", 0, d1, 1262, 39)        \
				KIDS LEAF("push button", "New", 4, d2, 44,     \
					  35) "," LEAF("push button", "Open",  \
						       48, d2, 44, 35) END     \
		"," N("tool bar", "Formula Tool Bar", 0, d3, 1221, 42)         \
			KIDS N("panel", "", 4, d4, 162, 34)                    \
				KIDS N("panel", "", 4, 124, 162, 34)           \
					KIDS LEAF("combo box", "Name Box", 4,  \
						  126, 140, 30) END END        \
		"," LEAF("push button", "Function Wizard", 174, d5, 25, 27)    \
			END "," N("table", "Sheet1", 41, d6, 1166, 783)        \
				KIDS LEAF("table cell", "A1", 41, d7, 82,      \
					  17) "," LEAF("table cell", "B1",     \
						       123, d7, 82, 17)        \
					END END END END END "]}}"

static const char calc_startup[] = CALC(19, 19, 21, 97, 99, 103, 157, 157);
static const char calc_known[] = CALC(44, 44, 46, 122, 124, 128, 182, 182);

static void
check_calc(cua_tree *t)
{
	/* the native menu bar: where it is */
	expect_frame(t, "File", 0, 0, 39, 25);
	/* VCL: below the menu bar */
	expect_frame(t, "New", 4, 27, 44, 35);
	expect_frame(t, "Function Wizard", 174, 109, 25, 27);
	expect_frame(t, "A1", 41, 163, 82, 17);
	expect_frame(t, "B1", 123, 163, 82, 17);
	/* the native island inside VCL: not moved twice */
	expect_frame(t, "Name Box", 4, 107, 140, 30);
}

static void
test_libreoffice_startup(void **state)
{
	cua_tree *t = observe_json(calc_startup, "libreoffice-calc");
	int32_t ox, oy;

	json_t *j;
	cua_tree *t2;

	check_calc(t);
	assert_true(cua_frames_moved(t, &ox, &oy));
	assert_int_equal(ox, 0);
	assert_int_equal(oy, 25);
	/* the moves are kept with the saved state, for later actions */
	j = cua_tree_to_jansson(t, 1, 0);
	assert_non_null(j);
	t2 = cua_tree_from_jansson(j);
	json_decref(j);
	assert_non_null(t2);
	check_calc(t2);
	assert_true(cua_frames_moved(t2, &ox, &oy));
	assert_int_equal(oy, 25);
	assert_int_equal(find(t2, "Name Box")->shift_y, 0);
	assert_int_equal(find(t2, "A1")->shift_y, 25);
	cua_tree_unref(t2);
	cua_tree_unref(t);
}

static void
test_libreoffice_known(void **state)
{
	cua_tree *t = observe_json(calc_known, "libreoffice-calc");
	int32_t ox, oy;

	check_calc(t);
	assert_false(cua_frames_moved(t, &ox, &oy));
	cua_tree_unref(t);
}

/* A GTK 3 window (client-side decorations, frame = client window): a list
 * scrolled by 30 px with a row above its top, a pane whose only child lies
 * partly outside it. Nothing moves. */
static const char gtk_scrolled[] =
	"{\"schema\":\"libcua.recording/1\",\"app\":{\"pid\":4343,"
	"\"app_id\":\"org.example.Lists\",\"app_name\":\"Lists\"},"
	"\"windows\":[{\"x11_window\":78,\"active\":true,\"mapped\":true,"
	"\"title\":\"Lists\",\"frame\":[100,100,600,500]}],"
	"\"root\":{\"role\":\"application\",\"name\":\"Lists\","
	"\"children\":[" N("frame", "Lists", 100, 100, 600, 500) KIDS N(
		"panel", "", 100, 100, 600, 500) KIDS N("list", "Items", 100,
							200, 300, 200)
		KIDS LEAF("list item", "Row0", 100, 170, 300, 40) "," LEAF(
			"list item", "Row1", 100, 210, 300,
			40) "," LEAF("list item", "Row2", 100, 250, 300, 40) END
	"," N("scroll pane", "Pane", 420, 200, 200, 100)
		KIDS LEAF("push button", "Far", 420, 150, 80, 30) END END END
	"]}}";

static void
test_gtk_untouched(void **state)
{
	cua_tree *t = observe_json(gtk_scrolled, "Lists");
	int32_t ox, oy;

	expect_frame(t, "Row0", 0, 70, 300, 40);
	expect_frame(t, "Row1", 0, 110, 300, 40);
	expect_frame(t, "Far", 320, 50, 80, 30);
	assert_false(cua_frames_moved(t, &ox, &oy));
	cua_tree_unref(t);
}

/* The live chain: the observation's move holds while LibreOffice still
 * reports from the client area's top, and is dropped once it does not. */
static void
test_chain(void **state)
{
	struct cua_raw_node n[6];
	const struct cua_raw_node *chain[6];
	static const struct cua_rect before[6] = {
		{ 0, 0, 1280, 1024 },   { 0, 19, 1280, 1005 },
		{ 0, 44, 1280, 980 },   { 0, 19, 1280, 980 },
		{ 41, 157, 1166, 783 }, { 41, 157, 82, 17 },
	};
	int32_t sx, sy;

	memset(n, 0, sizeof(n));
	for (int i = 0; i < 6; i++) {
		n[i].have = CUA_HAVE_BASIC | CUA_HAVE_EXTENTS;
		n[i].extents = before[i];
		chain[i] = &n[i];
	}
	cua_frames_chain_shift(chain, 6, 0, 25, &sx, &sy);
	assert_int_equal(sx, 0);
	assert_int_equal(sy, 25);
	/* after pointer input: the true positions */
	for (int i = 3; i < 6; i++)
		n[i].extents.y += 25;
	cua_frames_chain_shift(chain, 6, 0, 25, &sx, &sy);
	assert_int_equal(sx, 0);
	assert_int_equal(sy, 0);
	/* a native island below a moved VCL node */
	for (int i = 3; i < 5; i++)
		n[i].extents.y -= 25;
	n[5].extents = (struct cua_rect){ 4, 124, 162, 34 };
	n[4].extents = (struct cua_rect){ 4, 99, 162, 34 };
	cua_frames_chain_shift(chain, 6, 0, 25, &sx, &sy);
	assert_int_equal(sx, 0);
	assert_int_equal(sy, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libreoffice_startup),
		cmocka_unit_test(test_libreoffice_known),
		cmocka_unit_test(test_gtk_untouched),
		cmocka_unit_test(test_chain),
	};

	return cmocka_run_group_tests_name("frame-origins", tests, NULL, NULL);
}
