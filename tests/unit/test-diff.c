/*
 * Diffs between observations (docs/identity.md §7), byte-exact: a Linux
 * reconstruction of the Codex diff sample S6, the no-change sentence,
 * removed-id ranges, moves, the depth-0 marker, the alternative removal
 * style, the line budget with its log sentences, the full-tree rules of
 * §7.4, the structured form and the diff object.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "rec-session.h"
#include "core/diff.h"

#define SENTENCE(title)                                                        \
	"The following is a diff from the previous accessibility tree for "    \
	"Window: \"" title "\" with ~ and + representing changed and added "   \
	"elements, respectively. Removed elements are summarized by ID range."

/* ------------------------------------------------------------------ */
/* S6                                                                   */

/*
 * The diff form of docs/identity.md §7.1 on Linux: a toolbar
 * of 124 buttons puts the form's fields at ids 128-131 as in the sample and
 * a second toolbar makes the next fresh id 144. In the second revision the
 * user typed a title (the field grows a text child, as in the sample) and
 * a description, and both hint labels went away. Linux traits carry the
 * value type (docs/differences.md D30): `(settable, string)` where the macOS
 * sample prints `(settable)`.
 */
static char *
issue_form(int typed)
{
	struct strbuf sb = STRBUF_INIT;

	sb_add(&sb,
	       "{'schema':'libcua.recording/1','app':{'pid':4242,'start_time':99,"
	       "'app_id':'org.example.Issues','app_name':'Issues'},"
	       "'windows':[{'x11_window':77,'active':true,'title':'New chat'}],"
	       "'focused':'desc',"
	       "'root':{'role':'application','name':'Issues','children':["
	       "{'id':'win','role':'frame','name':'New chat'," REC_SHOW
	       ",'children':["
	       "{'id':'tb1','role':'tool bar'," REC_SHOW ",'children':[");
	for (int i = 1; i <= 124; i++)
		sb_addf(&sb,
			"%s{'id':'t%d','role':'push button','name':'Tool %d'," REC_SHOW
			",'actions':['click']}",
			i > 1 ? "," : "", i, i);
	sb_add(&sb,
	       "]},"
	       "{'id':'issue','role':'panel','description':'New issue'," REC_SHOW
	       ",'children':["
	       "{'id':'fields','role':'panel','description':'Issue fields'," REC_SHOW
	       ",'children':[");
	sb_addf(&sb,
		"{'id':'title','role':'entry','description':'Issue title',"
		"'states':['showing','visible','enabled','sensitive','editable','single-line'],"
		"'interfaces':['Text','EditableText'],'text':'%s'%s},",
		typed ? "<title>" : "",
		typed ? ",'children':[{'id':'echo','role':'label','name':'<title>'," REC_SHOW
			"}]" :
			"");
	if (!typed)
		sb_add(&sb,
		       "{'id':'hint1','role':'label','name':'Title is required'," REC_SHOW
		       "},");
	sb_addf(&sb,
		"{'id':'desc','role':'text','description':'Issue description',"
		"'states':['showing','visible','enabled','sensitive','editable','multi-line',"
		"'focusable','focused'],"
		"'interfaces':['Text','EditableText'],'text':'%s'}",
		typed ? "<body\\u2026>" : "");
	if (!typed)
		sb_add(&sb,
		       ",{'id':'hint2','role':'label','name':'Add a description'," REC_SHOW
		       "}");
	sb_add(&sb,
	       "]}]},{'id':'tb2','role':'tool bar'," REC_SHOW ",'children':[");
	for (int i = 1; i <= 11; i++)
		sb_addf(&sb,
			"%s{'id':'u%d','role':'push button','name':'Send %d'," REC_SHOW
			",'actions':['click']}",
			i > 1 ? "," : "", i, i);
	sb_add(&sb, "]}]}]}}");
	return sb_steal(&sb);
}

static const char s6_diff[] = "App=org.example.Issues (pid 4242)\n" SENTENCE(
	"New chat") "\n"
		    "Removed element IDs: 129, 131\n"
		    "~\t\t\t128 text field (settable, string) Description: Issue title, Value: <title>\n"
		    "+\t\t\t\t144 text <title>\n"
		    "~\t\t\t130 text entry area (settable, string) Description: Issue description, Value: <body\xe2\x80\xa6>\n"
		    "\n"
		    "The focused UI element is 130 text entry area (settable, string) "
		    "Description: Issue description, Value: <body\xe2\x80\xa6>.";

static void
test_s6(void **state)
{
	char *r1 = issue_form(0), *r2 = issue_form(1), *text;
	cua_session *s = rec_session(r1);
	cua_tree *t1 = rec_observe(s, 0), *t2;

	text = rec_render(t1, 0);
	assert_non_null(strstr(
		text,
		"\n\t\t\t128 text field (settable, string) Description: Issue title\n"
		"\t\t\t129 text Title is required\n"
		"\t\t\t130 text entry area (settable, string) Description: Issue description\n"
		"\t\t\t131 text Add a description\n"));
	assert_non_null(strstr(text, "\n\t\t143 button Send 11\n"));
	cua_free(text);
	/* the first observation renders as the full tree */
	text = rec_render(t1, CUA_RENDER_DIFF);
	assert_non_null(strstr(
		text,
		"\nWindow: \"New chat\", App: Issues.\n0 standard window"));
	cua_free(text);

	t2 = rec_next(s, r2, 0);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_string_equal(text, s6_diff);
	cua_free(text);
	/* flags 0 is still the full tree */
	text = rec_render(t2, 0);
	assert_non_null(strstr(text, "\n\t\t\t\t144 text <title>\n"));
	assert_null(strstr(text, "Removed element IDs"));
	cua_free(text);

	/* the alternative removal style (docs/identity.md §7.2), by flag and by
	 * option */
	text = rec_render(t2, CUA_RENDER_DIFF | CUA_DIFF_REMOVED_LINES);
	assert_string_equal(
		text,
		"App=org.example.Issues (pid 4242)\n"
		"The following is a diff from the previous accessibility tree for "
		"Window: \"New chat\" with ~, +, and - representing changed, added, "
		"and removed elements, respectively.\n"
		"-\t\t\t129 text Title is required\n"
		"-\t\t\t131 text Add a description\n"
		"~\t\t\t128 text field (settable, string) Description: Issue title, Value: <title>\n"
		"+\t\t\t\t144 text <title>\n"
		"~\t\t\t130 text entry area (settable, string) Description: Issue description, Value: <body\xe2\x80\xa6>\n"
		"\n"
		"The focused UI element is 130 text entry area (settable, string) "
		"Description: Issue description, Value: <body\xe2\x80\xa6>.");
	cua_free(text);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);

	s = rec_session(r1);
	assert_int_equal(
		cua_session_set_option(s, "diff_removed_style", "lines"),
		CUA_OK);
	t1 = rec_observe(s, 0);
	t2 = rec_next(s, r2, 0);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_non_null(strstr(text, "\n-\t\t\t129 text Title is required\n"));
	assert_null(strstr(text, "Removed element IDs"));
	cua_free(text);
	assert_int_equal(
		cua_session_set_option(s, "diff_removed_style", "dashes"),
		CUA_ERROR_INVALID_ARGUMENT);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
	free(r1);
	free(r2);
}

/* Nothing changed: the no-change sentence, with the trailer; a focus move
 * alone is no change (docs/identity.md §7.3). */
static void
test_no_change(void **state)
{
	char *r1 = issue_form(1), *text;
	cua_session *s = rec_session(r1);
	cua_tree *t1 = rec_observe(s, 0), *t2;
	cua_tree_diff *d = NULL;

	t2 = rec_next(s, r1, 0);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_string_equal(
		text,
		"App=org.example.Issues (pid 4242)\n"
		"There has been no change in the accessibility tree for Window: \"New chat\".\n"
		"\n"
		"The focused UI element is 130 text entry area (settable, string) "
		"Description: Issue description, Value: <body\xe2\x80\xa6>.");
	cua_free(text);
	assert_int_equal(cua_tree_get_diff(t2, &d), CUA_OK);
	assert_true(cua_tree_diff_is_empty(d));
	d = cua_tree_diff_unref(d);

	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
	free(r1);
}

/* Two recordings that differ only in which node has focus. */
static void
test_focus_move_is_no_change(void **state)
{
	const char *a = REC_HEAD(
		"W") "'focused':'a',"
		     "'root':{'role':'application','name':'Form','children':["
		     "{'id':'win','role':'frame','name':'W'," REC_SHOW
		     ",'children':[" REC_BTN("a", "A") "," REC_BTN("b",
								   "B") "]}]}}";
	const char *b = REC_HEAD(
		"W") "'focused':'b',"
		     "'root':{'role':'application','name':'Form','children':["
		     "{'id':'win','role':'frame','name':'W'," REC_SHOW
		     ",'children':[" REC_BTN("a", "A") "," REC_BTN("b",
								   "B") "]}]}}";
	cua_session *s = rec_session(a);
	cua_tree *t1 = rec_observe(s, 0), *t2 = rec_next(s, b, 0);
	char *text = rec_render(t2, CUA_RENDER_DIFF);

	assert_string_equal(
		text,
		"App=org.example.Form (pid 4242)\n"
		"There has been no change in the accessibility tree for Window: \"W\".\n"
		"\n"
		"The focused UI element is 2 button B.");
	cua_free(text);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
}

/* ------------------------------------------------------------------ */
/* Ranges                                                               */

static void
check_ranges(const uint32_t *ids, size_t n, const char *expect, size_t runs)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(cua_format_id_ranges(&sb, ids, n), runs);
	assert_string_equal(sb_str(&sb), expect);
	sb_free(&sb);
}

static void
test_range_format(void **state)
{
	uint32_t big[104];
	static const uint32_t one[] = { 7 }, two[] = { 7, 8 }, gap[] = { 7, 9 },
			      mix[] = { 0, 1, 2, 4, 6, 7, 10 };

	check_ranges(NULL, 0, "", 0);
	check_ranges(one, 1, "7", 1);
	check_ranges(two, 2, "7-8", 1);
	check_ranges(gap, 2, "7, 9", 2);
	check_ranges(mix, 7, "0-2, 4, 6-7, 10", 4);
	for (uint32_t i = 0; i < 102; i++)
		big[i] = 5 + i;
	big[102] = 129;
	big[103] = 131;
	check_ranges(big, 104, "5-106, 129, 131", 3);
}

/* The example of docs/identity.md §7.1 from real trees: a panel of 101 buttons
 * (ids 5-106) and two single buttons (129, 131) go away. */
static char *
ranges_app(int removed)
{
	struct strbuf sb = STRBUF_INIT;

	sb_add(&sb,
	       REC_HEAD(
		       "Ranges") "'root':{'role':'application','name':'Form','children':["
				 "{'id':'win','role':'frame','name':'Ranges'," REC_SHOW
				 ",'children':["
				 "{'id':'tb','role':'tool bar'," REC_SHOW
				 ",'children':[" REC_BTN("k2", "K2") "," REC_BTN(
					 "k3", "K3") "," REC_BTN("k4",
								 "K4") "]}");
	if (!removed) {
		sb_add(&sb,
		       ",{'id':'gone','role':'panel','description':'Gone'," REC_SHOW
		       ",'children':[");
		for (int i = 6; i <= 106; i++)
			sb_addf(&sb,
				"%s{'id':'g%d','role':'push button','name':'G%d'," REC_SHOW
				"}",
				i > 6 ? "," : "", i, i);
		sb_add(&sb, "]}");
	}
	for (int i = 107; i <= 131; i++) {
		if (removed && (i == 129 || i == 131))
			continue;
		sb_addf(&sb,
			",{'id':'b%d','role':'push button','name':'B%d'," REC_SHOW
			"}",
			i, i);
	}
	sb_add(&sb, "]}]}}");
	return sb_steal(&sb);
}

static void
test_removed_ranges(void **state)
{
	char *r1 = ranges_app(0), *r2 = ranges_app(1), *text;
	cua_session *s = rec_session(r1);
	cua_tree *t1 = rec_observe(s, 0), *t2;

	assert_int_equal(rec_id(t1, "B131"), 131);
	assert_int_equal(rec_id(t1, "G106"), 106);
	t2 = rec_next(s, r2, 0);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_string_equal(
		text, "App=org.example.Form (pid 4242)\n" SENTENCE(
			      "Ranges") "\n"
					"Removed element IDs: 5-106, 129, 131");
	cua_free(text);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
	free(r1);
	free(r2);
}

/* ------------------------------------------------------------------ */
/* Marks                                                                */

/* Moves are changes printed at the new position; reordered siblings
 * outside the longest run that kept its order are moves; a window title
 * change marks the depth-0 line and renames the window in the sentence. */
static void
test_moves_and_depth0(void **state)
{
	cua_session *s = rec_session(REC_APP(
		"W",
		REC_PANEL(
			"l", "Left",
			REC_BTN("a", "A") "," REC_BTN(
				"b",
				"B")) "," REC_PANEL("r", "Right",
						    REC_BTN("c", "C") "," REC_BTN(
							    "d",
							    "D") "," REC_BTN("e",
									     "E"))));
	cua_tree *t1 = rec_observe(s, 0), *t2, *t3;
	char *text;

	/* 0 W, 1 Left, 2 A, 3 B, 4 Right, 5 C, 6 D, 7 E */
	t2 = rec_next(
		s,
		REC_APP("W",
			REC_PANEL("l", "Left", REC_BTN("b", "B")) "," REC_PANEL(
				"r", "Right",
				REC_BTN("e", "E") "," REC_BTN(
					"c",
					"C") "," REC_BTN("d",
							 "D") "," REC_BTN("a",
									  "A"))),
		0);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_string_equal(text, "App=org.example.Form (pid 4242)\n" SENTENCE(
					  "W") "\n"
					       "~\t\t7 button E\n"
					       "~\t\t2 button A");
	cua_free(text);

	t3 = rec_next(
		s,
		REC_APP("Renamed",
			REC_PANEL("l", "Left", REC_BTN("b", "B")) "," REC_PANEL(
				"r", "Right",
				REC_BTN("e", "E") "," REC_BTN(
					"c",
					"C") "," REC_BTN("d",
							 "D") "," REC_BTN("a",
									  "A"))),
		0);
	text = rec_render(t3, CUA_RENDER_DIFF);
	assert_string_equal(
		text,
		"App=org.example.Form (pid 4242)\n" SENTENCE(
			"Renamed") "\n"
				   "~0 standard window Renamed, Secondary Actions: Raise");
	cua_free(text);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_tree_unref(t3);
	cua_session_unref(s);
}

/* Every element of an added subtree is its own '+' line; a check box
 * toggled is one '~' line. */
static void
test_added_subtree_and_toggle(void **state)
{
	cua_session *s = rec_session(REC_APP(
		"W", REC_CHECK("c1", "Wrap", REC_ON) "," REC_BTN("a", "A")));
	cua_tree *t1 = rec_observe(s, 0), *t2;
	char *text;

	t2 = rec_next(
		s,
		REC_APP("W",
			REC_CHECK("c1", "Wrap", REC_OFF) "," REC_BTN(
				"a",
				"A") "," REC_PANEL("p", "More",
						   REC_BTN("x", "X") "," REC_PANEL(
							   "q", "Inner",
							   REC_BTN("y", "Y")))),
		0);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_string_equal(text,
			    "App=org.example.Form (pid 4242)\n" SENTENCE(
				    "W") "\n"
					 "~\t1 checkbox Wrap, Value: off\n"
					 "+\t3 container More\n"
					 "+\t\t4 button X\n"
					 "+\t\t5 container Inner\n"
					 "+\t\t\t6 button Y");
	cua_free(text);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
}

/* ------------------------------------------------------------------ */
/* Line budget                                                          */

static char log_buf[4096];

static void
log_collect(cua_session *s, cua_log_level level, const char *msg, void *data)
{
	size_t len = strlen(log_buf);

	snprintf(log_buf + len, sizeof(log_buf) - len, "%s\n", msg);
}

static char *
buttons_app(const char *title, const char *prefix, int from, int to, int step)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb,
		REC_HEAD(
			"%s") "'root':{'role':'application','name':'Form','children':["
			      "{'id':'win','role':'frame','name':'%s'," REC_SHOW
			      ",'children':[",
		title, title);
	for (int i = from, n = 0; i <= to; i += step, n++)
		sb_addf(&sb,
			"%s{'id':'%s%d','role':'push button','name':'%s%d'," REC_SHOW
			"}",
			n ? "," : "", prefix, i, prefix, i);
	sb_add(&sb, "]}]}}");
	return sb_steal(&sb);
}

/* docs/identity.md §7.5: M + R > B and R > B fall back to the full tree with
 * Codex's log sentences; ignore_difference_line_budget bypasses both. */
static void
test_line_budget(void **state)
{
	char *r1 = buttons_app("W", "b", 1, 6, 1),
	     *r2 = buttons_app("V", "n", 1, 4, 1);
	cua_session *s = rec_session(r1);
	cua_tree *t1, *t2, *t3;
	char *text;

	cua_session_set_log_handler(s, log_collect, NULL);
	cua_session_set_log_level(s, CUA_LOG_DEBUG);
	t1 = rec_observe(s, 0);
	log_buf[0] = '\0';
	/* B = 5 lines; M = 1 changed window + 4 added, R = 1 */
	t2 = rec_next(s, r2, 0);
	assert_non_null(strstr(log_buf,
			       "Skip AX tree diff render because difference "
			       "exceeded full-tree line budget\n"));
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_non_null(strstr(
		text, "\nWindow: \"V\", App: Form.\n0 standard window V"));
	cua_free(text);
	text = rec_render(t2, CUA_RENDER_DIFF | CUA_DIFF_IGNORE_LINE_BUDGET);
	assert_string_equal(
		text,
		"App=org.example.Form (pid 4242)\n" SENTENCE(
			"V") "\n"
			     "Removed element IDs: 1-6\n"
			     "~0 standard window V, Secondary Actions: Raise\n"
			     "+\t7 button n1\n"
			     "+\t8 button n2\n"
			     "+\t9 button n3\n"
			     "+\t10 button n4");
	cua_free(text);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	free(r1);
	free(r2);

	/* R > B: 10 removed runs against a 2-line tree */
	r1 = buttons_app("V", "n", 1, 20, 1);
	t1 = rec_next(s, r1, 0); /* n1-n4 keep 7-10; 11-26 */
	free(r1);
	r1 = buttons_app("V", "n", 1, 19, 2); /* keep the odd ones */
	t2 = rec_next(s, r1, 0);
	free(r1);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_non_null(strstr(
		text,
		"Removed element IDs: 8, 10, 12, 14, 16, 18, 20, 22, 24, 26"));
	cua_free(text);
	r1 = buttons_app("V", "z", 1, 1, 1);
	log_buf[0] = '\0';
	t3 = rec_next(s, r1, 0);
	free(r1);
	assert_non_null(strstr(
		log_buf, "Skip AX tree diff render because removed element "
			 "summary exceeded full-tree line budget\n"));
	text = rec_render(t3, CUA_RENDER_DIFF);
	assert_string_equal(text,
			    "App=org.example.Form (pid 4242)\n"
			    "Window: \"V\", App: Form.\n"
			    "0 standard window V, Secondary Actions: Raise\n"
			    "\t27 button z1");
	cua_free(text);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_tree_unref(t3);

	/* the option bypasses the budget for later observations */
	assert_int_equal(
		cua_session_set_option(s, "ignore_difference_line_budget", "1"),
		CUA_OK);
	r1 = buttons_app("V", "y", 1, 3, 1);
	t1 = rec_next(s, r1, 0);
	free(r1);
	text = rec_render(t1, CUA_RENDER_DIFF);
	assert_string_equal(text, "App=org.example.Form (pid 4242)\n" SENTENCE(
					  "V") "\n"
					       "Removed element IDs: 27\n"
					       "+\t28 button y1\n"
					       "+\t29 button y2\n"
					       "+\t30 button y3");
	cua_free(text);
	cua_tree_unref(t1);
	cua_session_unref(s);
}

/* ------------------------------------------------------------------ */
/* Full-tree rules (docs/identity.md §7.4)                              */

static int
is_full(cua_tree *t)
{
	char *text = rec_render(t, CUA_RENDER_DIFF);
	int full = strstr(text, "\nWindow: \"") != NULL;

	assert_true(full != (strstr(text, "The following is a diff") != NULL ||
			     strstr(text, "There has been no change") != NULL));
	cua_free(text);
	return full;
}

static void
test_full_tree_rules(void **state)
{
	const char *ra = REC_APP("W", REC_BTN("a", "A"));
	const char *rb = REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B"));
	cua_session *s = rec_session(ra);
	cua_tree *t;

	/* 1. first observation */
	t = rec_observe(s, 0);
	assert_true(is_full(t));
	cua_tree_unref(t);
	t = rec_next(s, rb, 0);
	assert_false(is_full(t));
	cua_tree_unref(t);
	/* 2. disable_diff; the full tree is the next baseline */
	t = rec_next(s, ra, CUA_OBSERVE_DISABLE_DIFF);
	assert_true(is_full(t));
	cua_tree_unref(t);
	t = rec_next(s, ra, 0);
	assert_false(is_full(t));
	cua_tree_unref(t);
	/* 4. a new turn, then the age limit */
	cua_session_expire_baselines(s);
	t = rec_next(s, rb, 0);
	assert_true(is_full(t));
	cua_tree_unref(t);
	t = rec_next(s, ra, 0);
	assert_false(is_full(t));
	cua_tree_unref(t);
	assert_int_equal(
		cua_session_set_option(s, "diff_baseline_max_age_s", "0"),
		CUA_OK);
	usleep(2000);
	t = rec_next(s, rb, 0);
	assert_true(is_full(t));
	cua_tree_unref(t);
	assert_int_equal(
		cua_session_set_option(s, "diff_baseline_max_age_s", "300"),
		CUA_OK);
	t = rec_next(s, ra, 0);
	assert_false(is_full(t));
	cua_tree_unref(t);
	/* 5. truncated trees (either side) */
	assert_int_equal(cua_session_set_option(s, "max_elements", "2"),
			 CUA_OK);
	t = rec_next(s, rb, 0);
	assert_true(cua_tree_is_truncated(t));
	assert_true(is_full(t));
	cua_tree_unref(t);
	assert_int_equal(cua_session_set_option(s, "max_elements", "1500"),
			 CUA_OK);
	t = rec_next(s, rb, 0);
	assert_true(is_full(t));
	cua_tree_unref(t);
	t = rec_next(s, ra, 0);
	assert_false(is_full(t));
	cua_tree_unref(t);
	/* diff_mode off */
	assert_int_equal(cua_session_set_option(s, "diff_mode", "off"), CUA_OK);
	t = rec_next(s, rb, 0);
	assert_true(is_full(t));
	cua_tree_unref(t);
	assert_int_equal(cua_session_set_option(s, "diff_mode", "auto"),
			 CUA_OK);
	t = rec_next(s, ra, 0);
	assert_false(is_full(t));
	cua_tree_unref(t);
	cua_session_unref(s);
}

/* The expiry mark survives the CLI's state file. */
static void
test_expiry_survives_state(void **state)
{
	const char *ra = REC_APP("W", REC_BTN("a", "A"));
	cua_session *s = rec_session(ra), *s2;
	cua_tree *t = rec_observe(s, 0);
	char *saved = NULL;

	cua_tree_unref(t);
	cua_session_expire_baselines(s);
	assert_int_equal(cua_session_save_state(s, &saved), CUA_OK);
	s2 = rec_session(ra);
	assert_int_equal(cua_session_load_state(s2, saved), CUA_OK);
	t = rec_observe(s2, 0);
	assert_true(is_full(t));
	cua_tree_unref(t);
	t = rec_observe(s2, 0);
	assert_false(is_full(t));
	cua_tree_unref(t);
	cua_free(saved);
	cua_session_unref(s);
	cua_session_unref(s2);
}

/* ------------------------------------------------------------------ */
/* Structured form and the diff object                                  */

static void
test_json_and_object(void **state)
{
	char *r1 = issue_form(0), *r2 = issue_form(1), *json, *text, *text2;
	cua_session *s = rec_session(r1);
	cua_tree *t1 = rec_observe(s, 0), *t2;
	cua_tree_diff *d = NULL, *d2 = NULL;
	const uint32_t *ids;

	assert_int_equal(cua_tree_get_diff(t1, &d), CUA_ERROR_NOT_FOUND);
	assert_int_equal(cua_tree_to_json(t1, CUA_RENDER_DIFF, &json), CUA_OK);
	assert_non_null(strstr(json, "\"kind\": \"full\""));
	assert_non_null(strstr(json, "\"removed_ids\": []"));
	cua_free(json);

	t2 = rec_next(s, r2, 0);
	assert_int_equal(cua_tree_to_json(t2, CUA_RENDER_DIFF, &json), CUA_OK);
	assert_non_null(strstr(json, "\"kind\": \"diff\""));
	assert_non_null(strstr(json, "\"root_changed\": false"));
	assert_non_null(
		strstr(json, "\"removed_ids\": [\n    129,\n    131\n  ]"));
	assert_non_null(strstr(
		json, "\"state_text\": \"App=org.example.Issues (pid 4242)\\n"
		      "The following is a diff"));
	cua_free(json);
	assert_int_equal(cua_tree_to_json(t2, 0, &json), CUA_OK);
	assert_non_null(strstr(json, "\"kind\": \"full\""));
	assert_non_null(strstr(json, "\"removed_ids\": []"));
	cua_free(json);

	/* the observation's diff and an explicit one agree */
	assert_int_equal(cua_tree_get_diff(t2, &d), CUA_OK);
	assert_int_equal(cua_tree_diff_new(t1, t2, 0, &d2), CUA_OK);
	assert_ptr_equal(cua_tree_diff_get_tree(d2), t2);
	assert_int_equal(cua_tree_diff_get_changed(d2, &ids), 2);
	assert_int_equal(ids[0], 128);
	assert_int_equal(ids[1], 130);
	assert_int_equal(cua_tree_diff_get_added(d2, &ids), 1);
	assert_int_equal(ids[0], 144);
	assert_int_equal(cua_tree_diff_get_removed(d2, &ids), 2);
	assert_int_equal(ids[0], 129);
	assert_int_equal(ids[1], 131);
	assert_int_equal(cua_tree_diff_get_removed(d, NULL), 2);
	assert_false(cua_tree_diff_is_empty(d2));
	assert_int_equal(cua_tree_diff_render(d2, 0, &text), CUA_OK);
	assert_string_equal(text, s6_diff);
	assert_int_equal(cua_tree_diff_render(d, 0, &text2), CUA_OK);
	assert_string_equal(text2, s6_diff);
	cua_free(text);
	cua_free(text2);
	/* the diff keeps its tree alive */
	cua_tree_unref(t2);
	assert_int_equal(
		cua_tree_diff_render(d2, CUA_DIFF_REMOVED_LINES, &text),
		CUA_OK);
	assert_non_null(strstr(text, "\n-\t\t\t131 text Add a description\n"));
	cua_free(text);
	/* reversed: what was added is removed */
	cua_tree_diff_unref(d);
	assert_int_equal(
		cua_tree_diff_new(cua_tree_diff_get_tree(d2), t1, 0, &d),
		CUA_OK);
	assert_int_equal(cua_tree_diff_get_removed(d, &ids), 1);
	assert_int_equal(ids[0], 144);
	assert_int_equal(cua_tree_diff_get_added(d, &ids), 2);
	cua_tree_diff_unref(d);
	cua_tree_diff_unref(d2);
	assert_null(cua_tree_diff_unref(NULL));
	cua_tree_unref(t1);
	cua_session_unref(s);
	free(r1);
	free(r2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_s6),
		cmocka_unit_test(test_no_change),
		cmocka_unit_test(test_focus_move_is_no_change),
		cmocka_unit_test(test_range_format),
		cmocka_unit_test(test_removed_ranges),
		cmocka_unit_test(test_moves_and_depth0),
		cmocka_unit_test(test_added_subtree_and_toggle),
		cmocka_unit_test(test_line_budget),
		cmocka_unit_test(test_full_tree_rules),
		cmocka_unit_test(test_expiry_survives_state),
		cmocka_unit_test(test_json_and_object),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
