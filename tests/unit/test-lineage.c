/*
 * Element ids across revisions (docs/identity.md §2): inheritance by object
 * identity and by structure, fresh ids that are never reused, synthetic
 * rows, the per-window memory of §2.3, new lineages, and the session state
 * round trip. Each test observes two or more recordings of the "same" app
 * in one session.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "rec-session.h"

/* Buttons inserted before, between and after existing siblings: the old
 * buttons keep their ids, the new ones get fresh ids above every id issued
 * so far. */
static void
test_insert_before_between_after(void **state)
{
	cua_session *s = rec_session(REC_APP(
		"W",
		REC_BTN("a", "A") "," REC_BTN("b", "B") "," REC_BTN("c", "C")));
	cua_tree *t1 = rec_observe(s, 0), *t2;
	uint32_t max1 = rec_max_id(t1);

	t2 = rec_next(
		s,
		REC_APP("W",
			REC_BTN("x", "X") "," REC_BTN("a", "A") "," REC_BTN(
				"y",
				"Y") "," REC_BTN("b",
						 "B") "," REC_BTN("c",
								  "C") "," REC_BTN("z",
										   "Z")),
		0);
	assert_int_equal(rec_id(t2, "A"), rec_id(t1, "A"));
	assert_int_equal(rec_id(t2, "B"), rec_id(t1, "B"));
	assert_int_equal(rec_id(t2, "C"), rec_id(t1, "C"));
	assert_int_equal(rec_id(t2, "W"), rec_id(t1, "W"));
	/* fresh ids in render order */
	assert_int_equal(rec_id(t2, "X"), max1 + 1);
	assert_int_equal(rec_id(t2, "Y"), max1 + 2);
	assert_int_equal(rec_id(t2, "Z"), max1 + 3);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
}

/* Without object identities the same holds through the LCS over
 * fingerprints under the matched parent. */
static void
test_insert_without_identity(void **state)
{
	cua_session *s =
		rec_session(REC_APP("W", REC_BTN_ANON("A") "," REC_BTN_ANON(
						 "B") "," REC_BTN_ANON("C")));
	cua_tree *t1 = rec_observe(s, 0), *t2;
	uint32_t max1 = rec_max_id(t1);

	t2 = rec_next(
		s,
		REC_APP("W",
			REC_BTN_ANON("X") "," REC_BTN_ANON("A") "," REC_BTN_ANON("Y") "," REC_BTN_ANON(
				"B") "," REC_BTN_ANON("C") "," REC_BTN_ANON("Z")),
		0);
	assert_int_equal(rec_id(t2, "A"), rec_id(t1, "A"));
	assert_int_equal(rec_id(t2, "B"), rec_id(t1, "B"));
	assert_int_equal(rec_id(t2, "C"), rec_id(t1, "C"));
	assert_true(rec_id(t2, "X") > max1);
	assert_true(rec_id(t2, "Y") > max1);
	assert_true(rec_id(t2, "Z") > max1);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
}

/* An element moved to another parent, and siblings reordered, keep their
 * ids (object identity is matched over the whole tree). */
static void
test_moves(void **state)
{
	cua_session *s = rec_session(REC_APP(
		"W",
		REC_PANEL("l", "Left",
			  REC_BTN("a", "A") "," REC_BTN(
				  "b", "B")) "," REC_PANEL("r", "Right",
							   REC_BTN("c", "C"))));
	cua_tree *t1 = rec_observe(s, 0), *t2, *t3;
	uint32_t max1 = rec_max_id(t1);

	t2 = rec_next(
		s,
		REC_APP("W",
			REC_PANEL("l", "Left", REC_BTN("b", "B")) "," REC_PANEL(
				"r", "Right",
				REC_BTN("c", "C") "," REC_BTN("a", "A"))),
		0);
	assert_int_equal(rec_id(t2, "A"), rec_id(t1, "A"));
	assert_int_equal(rec_id(t2, "B"), rec_id(t1, "B"));
	assert_int_equal(rec_id(t2, "C"), rec_id(t1, "C"));
	assert_int_equal(rec_id(t2, "Left"), rec_id(t1, "Left"));
	assert_int_equal(rec_id(t2, "Right"), rec_id(t1, "Right"));
	assert_int_equal(rec_max_id(t2), max1);
	/* the panels swap places */
	t3 = rec_next(
		s,
		REC_APP("W",
			REC_PANEL(
				"r", "Right",
				REC_BTN("a", "A") "," REC_BTN(
					"c", "C")) "," REC_PANEL("l", "Left",
								 REC_BTN("b",
									 "B"))),
		0);
	assert_int_equal(rec_id(t3, "Left"), rec_id(t1, "Left"));
	assert_int_equal(rec_id(t3, "Right"), rec_id(t1, "Right"));
	assert_int_equal(rec_id(t3, "A"), rec_id(t1, "A"));
	assert_int_equal(rec_max_id(t3), max1);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_tree_unref(t3);
	cua_session_unref(s);
}

#define ENTRY(ident, name, text)                                                         \
	"{'id':" ident ",'role':'entry','name':'" name "',"                              \
	"'states':['showing','visible','enabled','sensitive','editable','single-line']," \
	"'interfaces':['Text','EditableText'],'text':'" text "'}"

/* Renames and value changes keep ids: by object identity, and for values
 * also by structure (the fingerprint holds the value's kind only). A
 * renamed element without identity is a different element
 * (docs/identity.md §3.2: the title is part of the fingerprint). */
static void
test_rename_and_value(void **state)
{
	cua_session *s = rec_session(REC_APP(
		"W", REC_BTN("save", "Save") "," REC_BTN_ANON("Open") "," ENTRY(
			     "'e1'", "Name", "hello") "," ENTRY("null", "City",
								"Rome")));
	cua_tree *t1 = rec_observe(s, 0), *t2;
	uint32_t max1 = rec_max_id(t1);

	t2 = rec_next(
		s,
		REC_APP("W",
			REC_BTN("save", "Save As") "," REC_BTN_ANON("Open File") "," ENTRY(
				"'e1'", "Name",
				"hello world") "," ENTRY("null", "City",
							 "Paris")),
		0);
	assert_int_equal(rec_id(t2, "Save As"), rec_id(t1, "Save"));
	assert_int_equal(rec_id(t2, "Name"), rec_id(t1, "Name"));
	assert_int_equal(rec_id(t2, "City"), rec_id(t1, "City"));
	assert_string_equal(cua_element_get_value(cua_tree_find_element(
				    t2, rec_id(t2, "City"))),
			    "Paris");
	assert_true(rec_id(t2, "Open File") > max1);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
}

#define ROW(ident)                                                                   \
	"{'id':" ident ",'role':'list item','states':['showing','visible',"          \
	"'enabled','sensitive','selectable'],'children':[{'id':null,'role':'label'," \
	"'name':'x'," REC_SHOW "}]}"
#define LIST(rows)                                                             \
	REC_APP("W", "{'id':'list','role':'list box','name':'L'," REC_SHOW     \
		     ",'children':[" rows "]}")

/* Siblings that look alike (untitled rows, a label inside) are told apart
 * by identity only (their locators are pinned, docs/differences.md D4): a row
 * that left is not replaced by a new row with another identity. Without
 * identities the LCS over fingerprints still aligns them. */
static void
test_lookalike_siblings(void **state)
{
	cua_session *s =
		rec_session(LIST(ROW("'r1'") "," ROW("'r2'") "," ROW("'r3'")));
	cua_tree *t1 = rec_observe(s, 0), *t2;
	uint32_t ids1[3], ids2[3], max1 = rec_max_id(t1);
	size_t n1 = 0, n2 = 0;

	for (size_t i = 0; i < cua_tree_get_element_count(t1); i++)
		if (strcmp(cua_element_get_role(cua_tree_get_element(t1, i)),
			   "row") == 0)
			ids1[n1++] =
				cua_element_get_id(cua_tree_get_element(t1, i));
	assert_int_equal(n1, 3);
	/* r1 scrolled away, r4 came in below */
	t2 = rec_next(s, LIST(ROW("'r2'") "," ROW("'r3'") "," ROW("'r4'")), 0);
	for (size_t i = 0; i < cua_tree_get_element_count(t2); i++)
		if (strcmp(cua_element_get_role(cua_tree_get_element(t2, i)),
			   "row") == 0)
			ids2[n2++] =
				cua_element_get_id(cua_tree_get_element(t2, i));
	assert_int_equal(n2, 3);
	assert_int_equal(ids2[0], ids1[1]);
	assert_int_equal(ids2[1], ids1[2]);
	assert_true(ids2[2] > max1);
	assert_null(cua_tree_find_element(t2, ids1[0]));
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);

	s = rec_session(LIST(ROW("null") "," ROW("null") "," ROW("null")));
	t1 = rec_observe(s, 0);
	max1 = rec_max_id(t1);
	t2 = rec_next(s,
		      LIST(ROW("null") "," ROW("null") "," ROW("null") "," ROW(
			      "null")),
		      0);
	n1 = 0;
	for (size_t i = 0; i < cua_tree_get_element_count(t2); i++)
		if (cua_element_get_id(cua_tree_get_element(t2, i)) > max1)
			n1++;
	assert_int_equal(n1, 1);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
}

/* A removed subtree takes its ids with it: the others keep theirs, and
 * the same objects coming back get fresh ids (a removed id is dead,
 * docs/identity.md §2.2 5). */
static void
test_subtree_removal(void **state)
{
	const char *with = REC_APP(
		"W",
		REC_BTN("a", "A") "," REC_PANEL(
			"p", "Panel",
			REC_BTN("p1", "P1") "," REC_BTN("p2", "P2") "," REC_BTN(
				"p3", "P3")) "," REC_BTN("b", "B"));
	cua_session *s = rec_session(with);
	cua_tree *t1 = rec_observe(s, 0), *t2, *t3;
	uint32_t max1 = rec_max_id(t1);

	t2 = rec_next(s, REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B")),
		      0);
	assert_int_equal(rec_id(t2, "A"), rec_id(t1, "A"));
	assert_int_equal(rec_id(t2, "B"), rec_id(t1, "B"));
	assert_false(rec_has(t2, "P1"));
	assert_null(cua_tree_find_element(t2, rec_id(t1, "Panel")));
	t3 = rec_next(s, with, 0);
	assert_int_equal(rec_id(t3, "A"), rec_id(t1, "A"));
	assert_true(rec_id(t3, "Panel") > max1);
	assert_true(rec_id(t3, "P1") > max1);
	assert_true(rec_id(t3, "P3") > max1);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_tree_unref(t3);
	cua_session_unref(s);
}

/* Over many revisions an id always names the same object. */
static void
test_ids_never_reused(void **state)
{
	static const char *const revs[] = {
		REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B")),
		REC_APP("W", REC_BTN("b", "B") "," REC_BTN("c", "C")),
		REC_APP("W", REC_BTN("a", "A") "," REC_BTN("c", "C")),
		REC_APP("W", REC_PANEL("p", "P", REC_BTN("a", "A")) "," REC_BTN(
				     "d", "D")),
		REC_APP("W", REC_BTN("d", "D")),
		REC_APP("W", REC_BTN("a", "A") "," REC_BTN(
				     "b", "B") "," REC_BTN("c", "C")),
	};
	char *owner[64] = { 0 };
	cua_session *s = rec_session(revs[0]);

	for (size_t r = 0; r < sizeof(revs) / sizeof(revs[0]); r++) {
		cua_tree *t = r ? rec_next(s, revs[r], 0) : rec_observe(s, 0);

		for (size_t i = 0; i < cua_tree_get_element_count(t); i++) {
			cua_element *e = cua_tree_get_element(t, i);
			uint32_t id = cua_element_get_id(e);

			assert_true(id < 64);
			if (!owner[id])
				owner[id] = strdup(cua_element_get_title(e));
			else
				assert_string_equal(owner[id],
						    cua_element_get_title(e));
		}
		cua_tree_unref(t);
	}
	for (size_t i = 0; i < 64; i++)
		free(owner[i]);
	cua_session_unref(s);
}

/* An app with a main window and a dialog toplevel; `active` (0 or 1)
 * names the root. */
#define TWO_WINDOWS(active0, active1, main_kids, dlg_kids)                     \
	"{'schema':'libcua.recording/1','app':{'pid':4242,'start_time':99,"    \
	"'app_id':'org.example.Form','app_name':'Form'},"                      \
	"'windows':[{'x11_window':77,'active':" active0 ",'title':'Main',"     \
	"'frame':[0,0,800,600]},{'x11_window':78,'active':" active1 ","        \
	"'title':'Ask','frame':[100,100,300,200]}],"                           \
	"'root':{'role':'application','name':'Form','children':["              \
	"{'id':'main','role':'frame','name':'Main'," REC_SHOW ","              \
	"'extents':[0,0,800,600],'children':[" main_kids "]},"                 \
	"{'id':'dlg','role':'dialog','name':'Ask'," REC_SHOW ","               \
	"'extents':[100,100,300,200],'children':[" dlg_kids "]}]}}"

/* docs/identity.md §2.3: ids survive "open dialog → close dialog"; the
 * renderings across a root change are full trees. */
static void
test_dialog_round_trip(void **state)
{
	cua_session *s = rec_session(TWO_WINDOWS(
		"true", "false", REC_BTN("a", "A") "," REC_BTN("b", "B"),
		REC_BTN("ok", "OK") "," REC_BTN("cancel", "Cancel")));
	cua_tree *m1 = rec_observe(s, 0), *d1, *m2, *d2;
	char *text;

	d1 = rec_next(s,
		      TWO_WINDOWS("false", "true",
				  REC_BTN("a", "A") "," REC_BTN("b", "B"),
				  REC_BTN("ok", "OK") "," REC_BTN("cancel",
								  "Cancel")),
		      0);
	assert_string_equal(cua_tree_get_window_title(d1), "Ask");
	assert_true(rec_id(d1, "OK") > rec_max_id(m1));
	text = rec_render(d1, CUA_RENDER_DIFF);
	assert_non_null(strstr(text, "\nWindow: \"Ask\", App: Form.\n"));
	cua_free(text);

	m2 = rec_next(s,
		      TWO_WINDOWS("true", "false",
				  REC_BTN("a", "A") "," REC_BTN("b", "B"),
				  REC_BTN("ok", "OK") "," REC_BTN("cancel",
								  "Cancel")),
		      0);
	assert_int_equal(rec_id(m2, "Main"), rec_id(m1, "Main"));
	assert_int_equal(rec_id(m2, "A"), rec_id(m1, "A"));
	assert_int_equal(rec_id(m2, "B"), rec_id(m1, "B"));
	text = rec_render(m2, CUA_RENDER_DIFF);
	assert_non_null(strstr(text, "\nWindow: \"Main\", App: Form.\n"));
	cua_free(text);

	/* and the dialog's ids survive too (both windows are remembered) */
	d2 = rec_next(s,
		      TWO_WINDOWS("false", "true",
				  REC_BTN("a", "A") "," REC_BTN("b", "B"),
				  REC_BTN("ok", "OK") "," REC_BTN("cancel",
								  "Cancel")),
		      0);
	assert_int_equal(rec_id(d2, "OK"), rec_id(d1, "OK"));
	assert_int_equal(rec_id(d2, "Cancel"), rec_id(d1, "Cancel"));
	cua_tree_unref(m1);
	cua_tree_unref(d1);
	cua_tree_unref(m2);
	cua_tree_unref(d2);
	cua_session_unref(s);
}

/* One app whose root is the window with identity "w<n>". */
static char *
window_n(int n)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb,
		REC_HEAD(
			"Win %d") "'root':{'role':'application','name':'Form',"
				  "'children':[{'id':'w%d','role':'frame','name':'Win %d'," REC_SHOW
				  ",'children':[{'id':'b%d','role':'push button',"
				  "'name':'Button %d'," REC_SHOW "}]}]}}",
		n, n, n, n, n);
	return sb_steal(&sb);
}

/* At most 8 windows are remembered; the least recently observed one is
 * forgotten first. */
static void
test_window_memory_lru(void **state)
{
	char *rec = window_n(0);
	cua_session *s = rec_session(rec);
	cua_tree *first[10] = { 0 }, *t;

	free(rec);
	first[0] = rec_observe(s, 0);
	for (int n = 1; n < 9; n++) {
		rec = window_n(n);
		first[n] = rec_next(s, rec, 0);
		free(rec);
	}
	/* windows 1..8 are remembered, 0 was evicted by 8 */
	rec = window_n(1);
	t = rec_next(s, rec, 0);
	free(rec);
	assert_int_equal(rec_id(t, "Button 1"), rec_id(first[1], "Button 1"));
	cua_tree_unref(t);
	rec = window_n(0);
	t = rec_next(s, rec, 0);
	free(rec);
	assert_true(rec_id(t, "Button 0") > rec_id(first[8], "Button 8"));
	cua_tree_unref(t);
	/* observing 1 again refreshed it: 0 just evicted 2, not 1 */
	rec = window_n(1);
	t = rec_next(s, rec, 0);
	free(rec);
	assert_int_equal(rec_id(t, "Button 1"), rec_id(first[1], "Button 1"));
	cua_tree_unref(t);
	rec = window_n(2);
	t = rec_next(s, rec, 0);
	free(rec);
	assert_int_not_equal(rec_id(t, "Button 2"),
			     rec_id(first[2], "Button 2"));
	cua_tree_unref(t);
	for (int n = 0; n < 9; n++)
		cua_tree_unref(first[n]);
	cua_session_unref(s);
}

/* A table whose rows are synthetic (cells only); `rows` is the cells. */
#define CELL(ident, row, name)                                                 \
	"{'id':'" ident "','role':'table cell','table_row':" #row              \
	",'name':'" name "',"                                                  \
	"'states':['showing','visible','enabled','sensitive','selectable']}"
#define TABLE(cells)                                                           \
	REC_APP("W",                                                           \
		"{'id':'tbl','role':'table','name':'Files'," REC_SHOW          \
		",'interfaces':['Table','Selection'],'children':[" cells "]}")

/* Synthetic rows (docs/identity.md §2.2 c) are the same row only at the same
 * row index with the same first cell; the cells, which have identities, keep
 * theirs. */
static void
test_synthetic_rows(void **state)
{
	cua_session *s = rec_session(
		TABLE(CELL("c0", 0, "a.txt") "," CELL("s0", 0, "10") "," CELL(
			"c1", 1, "b.txt") "," CELL("s1", 1, "20")));
	cua_tree *t1 = rec_observe(s, 0), *t2, *t3;
	cua_element *r1, *r2;
	uint32_t max;

	/* the same table again: rows keep their ids */
	t2 = rec_next(
		s,
		TABLE(CELL("c0", 0, "a.txt") "," CELL("s0", 0, "10") "," CELL(
			"c1", 1, "b.txt") "," CELL("s1", 1, "20")),
		0);
	r1 = cua_element_get_parent(
		cua_tree_find_element(t1, rec_id(t1, "a.txt")));
	r2 = cua_element_get_parent(
		cua_tree_find_element(t2, rec_id(t2, "a.txt")));
	assert_non_null(r1);
	assert_string_equal(cua_element_get_role(r1), "row");
	assert_int_equal(cua_element_get_id(r2), cua_element_get_id(r1));
	max = rec_max_id(t2);

	/* a row inserted on top: the old rows moved to other indices and are
	 * new rows; nothing inherits the id of the row it pushed down */
	t3 = rec_next(
		s,
		TABLE(CELL("cn", 0, "new.txt") "," CELL("sn", 0, "0") "," CELL(
			"c0", 1,
			"a.txt") "," CELL("s0", 1,
					  "10") "," CELL("c1", 2,
							 "b.txt") "," CELL("s1",
									   2,
									   "20")),
		0);
	for (size_t i = 0; i < cua_tree_get_element_count(t3); i++) {
		cua_element *e = cua_tree_get_element(t3, i);

		if (strcmp(cua_element_get_role(e), "row") == 0)
			assert_true(cua_element_get_id(e) > max);
	}
	assert_int_equal(rec_id(t3, "a.txt"), rec_id(t1, "a.txt"));
	assert_int_equal(rec_id(t3, "b.txt"), rec_id(t1, "b.txt"));
	assert_true(rec_id(t3, "new.txt") > max);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_tree_unref(t3);
	cua_session_unref(s);
}

/* A new process is a new lineage: nothing is inherited, and ids continue
 * from the app's counter. */
static void
test_new_process(void **state)
{
	cua_session *s = rec_session(REC_APP("W", REC_BTN("a", "A")));
	cua_tree *t1 = rec_observe(s, 0), *t2;
	char *text;
	const char *restarted =
		"{'schema':'libcua.recording/1','app':{'pid':4242,'start_time':100,"
		"'app_id':'org.example.Form','app_name':'Form'},"
		"'windows':[{'x11_window':77,'active':true,'title':'W'}],"
		"'root':{'role':'application','name':'Form','children':["
		"{'id':'win','role':'frame','name':'W'," REC_SHOW
		",'children':[" REC_BTN("a", "A") "]}]}}";

	t2 = rec_next(s, restarted, 0);
	assert_true(rec_id(t2, "A") > rec_max_id(t1));
	assert_true(rec_id(t2, "W") > rec_max_id(t1));
	assert_int_equal(cua_tree_get_revision(t2), 0);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_non_null(strstr(text, "\nWindow: \"W\", App: Form.\n"));
	cua_free(text);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
}

/* The content revision stays while nothing changes (the no-change case),
 * moves to the observation's own revision on a change, and survives the
 * saved state. */
static void
test_content_revision(void **state)
{
	const char *ab = REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B"));
	cua_session *s = rec_session(ab), *s2;
	cua_tree *t[5];
	char *saved = NULL;

	t[0] = rec_observe(s, 0);
	t[1] = rec_observe(s, 0);
	assert_int_equal(cua_tree_get_revision(t[1]), 1);
	assert_int_equal(cua_tree_get_content_revision(t[0]), 0);
	assert_int_equal(cua_tree_get_content_revision(t[1]), 0);
	/* a renamed button: a change */
	t[2] = rec_next(
		s, REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "C")), 0);
	assert_int_equal(cua_tree_get_content_revision(t[2]), 2);
	t[3] = rec_observe(s, 0);
	assert_int_equal(cua_tree_get_revision(t[3]), 3);
	assert_int_equal(cua_tree_get_content_revision(t[3]), 2);
	/* back to the first content: a change again, not revision 0 */
	rec_replace(s, ab);
	assert_int_equal(cua_session_save_state(s, &saved), CUA_OK);
	s2 = rec_session(ab);
	assert_int_equal(cua_session_load_state(s2, saved), CUA_OK);
	t[4] = rec_observe(s2, 0);
	assert_int_equal(cua_tree_get_revision(t[4]), 4);
	assert_int_equal(cua_tree_get_content_revision(t[4]), 4);
	cua_tree_unref(t[4]);
	t[4] = rec_observe(s2, 0);
	assert_int_equal(cua_tree_get_content_revision(t[4]), 4);
	for (int i = 0; i < 5; i++)
		cua_tree_unref(t[i]);
	cua_free(saved);
	cua_session_unref(s);
	cua_session_unref(s2);
}

/* The CLI keeps the session in a file between invocations: ids and the
 * diff baseline survive cua_session_save_state / load_state. */
static void
test_state_round_trip(void **state)
{
	cua_session *s = rec_session(
		REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B")));
	cua_session *s2;
	cua_tree *t1 = rec_observe(s, 0), *t2;
	char *saved = NULL, *text;

	assert_int_equal(cua_session_save_state(s, &saved), CUA_OK);
	s2 = rec_session(REC_APP("W", REC_BTN("a", "A") "," REC_BTN("c", "C")));
	assert_int_equal(cua_session_load_state(s2, saved), CUA_OK);
	t2 = rec_observe(s2, 0);
	assert_int_equal(rec_id(t2, "A"), rec_id(t1, "A"));
	assert_true(rec_id(t2, "C") > rec_max_id(t1));
	assert_int_equal(cua_tree_get_revision(t2), 1);
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_non_null(strstr(text,
			       "The following is a diff from the previous "
			       "accessibility tree for Window: \"W\""));
	assert_non_null(
		strstr(text, "\nRemoved element IDs: 2\n+\t3 button C"));
	cua_free(text);
	cua_free(saved);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
	cua_session_unref(s2);
}

/* The saved state with its first app's next_id replaced and, when
 * `dup`, the first window's second element given the first one's id. */
static char *
damaged_state(const char *saved, json_int_t next_id, int dup)
{
	json_t *root = json_loads(saved, 0, NULL), *app, *els;
	char *out;

	app = json_array_get(json_object_get(root, "apps"), 0);
	assert_non_null(app);
	json_object_set_new(app, "next_id", json_integer(next_id));
	els = json_object_get(
		json_object_get(
			json_array_get(
				json_object_get(json_object_get(app, "process"),
						"windows"),
				0),
			"tree"),
		"elements");
	assert_true(json_array_size(els) >= 2);
	if (dup)
		json_object_set(json_array_get(els, 1), "id",
				json_object_get(json_array_get(els, 0), "id"));
	out = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	assert_non_null(out);
	return out;
}

/* An object listed twice (here a button, and again as the focus outside
 * the showing tree) keeps both of its ids: the same tree observed again
 * is no change. Its ids used to move on at every look. */
static void
test_object_listed_twice(void **state)
{
	const char *rec = REC_APP(
		"W",
		REC_PANEL(
			"p", "P",
			REC_BTN("dup",
				"S") ","
				     "{'id':'dup','role':'push button','states':['focused']}"));
	cua_session *s = rec_session(rec);
	cua_tree *t1 = rec_observe(s, 0), *t2, *t3;
	cua_tree_diff *d = NULL;

	t2 = rec_next(s, rec, 0);
	t3 = rec_next(s, rec, 0);
	assert_int_equal(cua_tree_get_element_count(t3),
			 cua_tree_get_element_count(t1));
	for (size_t i = 0; i < cua_tree_get_element_count(t1); i++)
		assert_int_equal(
			cua_element_get_id(cua_tree_get_element(t3, i)),
			cua_element_get_id(cua_tree_get_element(t1, i)));
	assert_int_equal(cua_tree_get_diff(t3, &d), CUA_OK);
	assert_true(cua_tree_diff_is_empty(d));
	cua_tree_diff_unref(d);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_tree_unref(t3);
	cua_session_unref(s);
}

/* A damaged state file never makes one id name two elements, nor hands
 * out an id that was issued before: a next_id behind the ids of its trees
 * (they move it on), at or near the end of the id space (ignored), or one
 * id on two elements (that tree is dropped; its ids stay retired). */
static void
test_state_damaged_ids(void **state)
{
	static const struct {
		json_int_t next_id;
		int dup;
	} cases[] = {
		{ 0, 0 },          { -1, 0 },         { 4294967295, 0 },
		{ 4294967296, 0 }, { 2147483648, 0 }, { 0, 1 },
		{ 4294967295, 1 },
	};
	cua_session *s = rec_session(
		REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B")));
	cua_tree *t1 = rec_observe(s, 0);
	uint32_t max1 = rec_max_id(t1);
	char *saved = NULL;

	assert_int_equal(cua_session_save_state(s, &saved), CUA_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *damaged =
			damaged_state(saved, cases[i].next_id, cases[i].dup);
		cua_session *s2 = rec_session(
			REC_APP("W", REC_BTN("a", "A") "," REC_BTN("c", "C")));
		cua_tree *t2;

		assert_int_equal(cua_session_load_state(s2, damaged), CUA_OK);
		t2 = rec_observe(s2, 0);
		for (size_t k = 0; k < cua_tree_get_element_count(t2); k++) {
			cua_element *e = cua_tree_get_element(t2, k);

			assert_true(cua_element_get_id(e) < UINT32_MAX / 2);
			assert_ptr_equal(cua_tree_find_element(
						 t2, cua_element_get_id(e)),
					 e);
		}
		assert_true(rec_id(t2, "C") > max1);
		if (!cases[i].dup)
			assert_int_equal(rec_id(t2, "A"), rec_id(t1, "A"));
		cua_tree_unref(t2);
		cua_session_unref(s2);
		free(damaged);
	}
	cua_free(saved);
	cua_tree_unref(t1);
	cua_session_unref(s);
}

/* A saved baseline from before 1970 (a damaged state file) is long
 * expired: the next observation renders as the full tree. Computing its
 * age used to overflow (signed integer overflow, which the
 * UndefinedBehaviorSanitizer build reports). */
static void
test_state_ancient_baseline(void **state)
{
	cua_session *s = rec_session(REC_APP("W", REC_BTN("a", "A")));
	cua_session *s2;
	cua_tree *t1 = rec_observe(s, 0), *t2;
	char *saved = NULL, *damaged, *text;
	json_t *root;

	assert_int_equal(cua_session_save_state(s, &saved), CUA_OK);
	root = json_loads(saved, 0, NULL);
	assert_non_null(root);
	assert_int_equal(
		json_object_set_new(
			json_object_get(
				json_array_get(json_object_get(root, "apps"),
					       0),
				"process"),
			"latest_at_us", json_integer(-9223372036854775807LL)),
		0);
	damaged = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	s2 = rec_session(REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B")));
	assert_int_equal(cua_session_load_state(s2, damaged), CUA_OK);
	t2 = rec_observe(s2, 0);
	assert_int_equal(rec_id(t2, "A"), rec_id(t1, "A"));
	text = rec_render(t2, CUA_RENDER_DIFF);
	assert_null(strstr(text, "The following is a diff"));
	assert_non_null(strstr(text, "\nWindow: \"W\", App: Form.\n"));
	cua_free(text);
	free(damaged);
	cua_free(saved);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
	cua_session_unref(s2);
}

/* A skeleton whose parent or child links run in a circle (a damaged
 * state file) is refused: walking up to an element's window used to loop
 * for ever (saving the state, re-resolving an element). */
static void
test_state_skeleton_cycle(void **state)
{
	static const struct {
		size_t node, field;
		json_int_t value;
	} edits[] = {
		{ 0, 0, 0 }, /* the window is its own parent */
		{ 1, 0, 2 }, /* 1 and 2 each other's parent */
		{ 2, 0, 1 },
		{ 0, 3, 0 },  /* the window is its own first child */
		{ 1, 0, -7 }, /* no such parent */
	};
	static const size_t cases[][2] = {
		{ 0, 1 }, { 1, 3 }, { 3, 4 }, { 4, 5 }
	};
	cua_session *s = rec_session(
		REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B")));
	cua_tree *t1 = rec_observe(s, 0);
	char *saved = NULL;

	assert_int_equal(cua_session_save_state(s, &saved), CUA_OK);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_t *root = json_loads(saved, 0, NULL), *skel;
		cua_session *s2 = rec_session(REC_APP("W", REC_BTN("a", "A")));
		char *damaged, *again = NULL;
		cua_tree *t2;

		skel = json_object_get(
			json_object_get(
				json_array_get(
					json_object_get(
						json_object_get(
							json_array_get(
								json_object_get(
									root,
									"apps"),
								0),
							"process"),
						"windows"),
					0),
				"tree"),
			"skeleton");
		assert_true(json_array_size(skel) >= 3);
		for (size_t k = cases[c][0]; k < cases[c][1]; k++)
			assert_int_equal(
				json_array_set_new(
					json_array_get(skel, edits[k].node),
					edits[k].field,
					json_integer(edits[k].value)),
				0);
		damaged = json_dumps(root, JSON_COMPACT);
		json_decref(root);
		assert_int_equal(cua_session_load_state(s2, damaged), CUA_OK);
		assert_int_equal(cua_session_save_state(s2, &again), CUA_OK);
		t2 = rec_observe(s2, 0);
		assert_true(rec_id(t2, "A") != UINT32_MAX);
		cua_free(again);
		free(damaged);
		cua_tree_unref(t2);
		cua_session_unref(s2);
	}
	cua_free(saved);
	cua_tree_unref(t1);
	cua_session_unref(s);
}

/* An element depth beyond any max_depth in a damaged state file is
 * refused: the line of a removed element, indented by its depth, took
 * gigabytes. */
static void
test_state_deep_element(void **state)
{
	cua_session *s = rec_session(
		REC_APP("W", REC_BTN("a", "A") "," REC_BTN("b", "B")));
	cua_session *s2;
	cua_tree *t1 = rec_observe(s, 0), *t2;
	char *saved = NULL, *damaged, *text;
	json_t *root, *els, *e;
	size_t i;

	assert_int_equal(cua_session_save_state(s, &saved), CUA_OK);
	root = json_loads(saved, 0, NULL);
	els = json_object_get(
		json_object_get(
			json_array_get(
				json_object_get(
					json_object_get(
						json_array_get(
							json_object_get(root,
									"apps"),
							0),
						"process"),
					"windows"),
				0),
			"tree"),
		"elements");
	json_array_foreach(
		els, i,
		e) if (strcmp(json_string_value(json_object_get(e, "title")),
			      "B") == 0)
		json_object_set_new(e, "depth", json_integer(2000000000));
	damaged = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	s2 = rec_session(REC_APP("W", REC_BTN("a", "A")));
	assert_int_equal(
		cua_session_set_option(s2, "diff_removed_style", "lines"),
		CUA_OK);
	assert_int_equal(cua_session_load_state(s2, damaged), CUA_OK);
	t2 = rec_observe(s2, 0);
	text = rec_render(t2, CUA_RENDER_DIFF | CUA_DIFF_REMOVED_LINES);
	assert_true(strlen(text) < 1000);
	cua_free(text);
	free(damaged);
	cua_free(saved);
	cua_tree_unref(t1);
	cua_tree_unref(t2);
	cua_session_unref(s);
	cua_session_unref(s2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert_before_between_after),
		cmocka_unit_test(test_insert_without_identity),
		cmocka_unit_test(test_moves),
		cmocka_unit_test(test_rename_and_value),
		cmocka_unit_test(test_lookalike_siblings),
		cmocka_unit_test(test_subtree_removal),
		cmocka_unit_test(test_ids_never_reused),
		cmocka_unit_test(test_dialog_round_trip),
		cmocka_unit_test(test_window_memory_lru),
		cmocka_unit_test(test_synthetic_rows),
		cmocka_unit_test(test_new_process),
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_object_listed_twice),
		cmocka_unit_test(test_state_damaged_ids),
		cmocka_unit_test(test_content_revision),
		cmocka_unit_test(test_state_ancient_baseline),
		cmocka_unit_test(test_state_skeleton_cycle),
		cmocka_unit_test(test_state_deep_element),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
