/*
 * Live re-resolution on recorded trees (docs/identity.md §3–§5): each test
 * observes a recording, swaps in the app's "next" live state and resolves
 * an element of the observation against it, as an action does. The
 * recording plays the live app (the recorded backend's read_nodes and
 * read_children).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "rec-session.h"

#include "core/locate.h"

/* The stale sentences of the contract, word for word, written out here
 * rather than taken from the library, so that rewording one there fails. */
#define MSG_INVALID                                                            \
	"The element ID is no longer valid. Try to get the on-screen content " \
	"again and see if that resolves the issue."
#define MSG_REFETCH_START                                                      \
	"The element was invalidated, and an attempt was made to refetch it, " \
	"but the refetch couldn't be started because multiple elements were "  \
	"found that match the criteria. Try to get the on-screen content "     \
	"again and see if that resolves the issue."
#define MSG_REFETCH_FINISH                                                     \
	"The element was invalidated, and an attempt was made to refetch it, " \
	"but the refetch couldn't be finished because multiple elements were " \
	"found that match the criteria. Try to get the on-screen content "     \
	"again and see if that resolves the issue."

#define LBL(ident, name)                                                       \
	"{'id':'" ident "','role':'label','name':'" name "'," REC_SHOW "}"
#define ICON(ident)                                                            \
	"{'id':'" ident "','role':'push button'," REC_SHOW                     \
	",'actions':['click']}"
#define ICON_ANON                                                              \
	"{'id':null,'role':'push button'," REC_SHOW ",'actions':['click']}"
/* an unnamed (eliminated) container */
#define BOX(ident, kids)                                                       \
	"{'id':'" ident "','role':'panel'," REC_SHOW ",'children':[" kids "]}"

#define ROW3                                                                   \
	REC_BTN("bA", "Alpha")                                                 \
	"," REC_BTN("bB", "Beta") "," REC_BTN("bC", "Gamma")

/* The window of the recordings: a row of buttons, two unnamed icons and
 * a status label. */
#define WINDOW(buttons, status)                                                \
	REC_APP("W", BOX("p1", buttons                                         \
			 "," ICON("i1") "," ICON("i2") "," LBL("s1", status)))

static const char base[] = WINDOW(ROW3, "Status: idle");

struct fx {
	cua_session *s;
	cua_tree *t;
};

static int
setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	fx->s = rec_session(base);
	fx->t = rec_observe(fx->s, 0);
	*state = fx;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *fx = *state;

	cua_tree_unref(fx->t);
	cua_session_unref(fx->s);
	free(fx);
	return 0;
}

static const struct cua_element *
element_titled(cua_tree *t, const char *title)
{
	return cua_tree_find_element(t, rec_id(t, title));
}

/* The nth element (in render order) with this raw role. */
static const struct cua_element *
nth_role(cua_tree *t, uint32_t role, int nth)
{
	for (size_t i = 0; i < t->n_elements; i++)
		if (t->elements[i].role == role && nth-- == 0)
			return &t->elements[i];
	fail_msg("no element with role %u", role);
	return NULL;
}

/* Resolves `e` of the observation against the current recording. */
static cua_result
locate(struct fx *fx, const struct cua_element *e, int strict,
       struct cua_located *loc)
{
	struct cua_app_list *apps = NULL;
	cua_result r;

	assert_int_equal(fx->s->backend->ops->list_apps(fx->s->backend, &apps),
			 CUA_OK);
	assert_int_equal(apps->n, 1);
	r = cua_locate(fx->s->backend, &apps->apps[0], fx->t, e, 0, strict,
		       loc);
	cua_app_list_free(apps);
	return r;
}

static void
expect_ident(struct fx *fx, const struct cua_element *e, int strict,
	     const char *ident, int refetched)
{
	struct cua_located loc;
	cua_result r = locate(fx, e, strict, &loc);

	if (r != CUA_OK)
		fail_msg("locate: %s", cua_error_message());
	assert_non_null(loc.node);
	assert_string_equal(loc.node->ident, ident);
	assert_int_equal(loc.refetched, refetched);
	cua_located_clear(&loc);
}

static void
expect_stale(struct fx *fx, const struct cua_element *e, int strict,
	     cua_errcode code, const char *message)
{
	struct cua_located loc;
	cua_result r = locate(fx, e, strict, &loc);

	assert_int_equal(r, CUA_ERROR_STALE);
	assert_int_equal(cua_error_code(), code);
	assert_string_equal(cua_error_message(), message);
	cua_located_clear(&loc);
}

/* The live fingerprint is computed exactly as the walk's skeleton. */
static void
test_fingerprint_matches_skeleton(void **state)
{
	struct fx *fx = *state;
	struct cua_raw_snapshot *snap = cua_raw_snapshot_new();
	size_t checked = 0;

	for (size_t i = 0; i < fx->t->n_skel; i++) {
		const struct cua_skel *k = &fx->t->skel[i];
		struct cua_raw_node *n;
		struct cua_fingerprint fp;

		if (!k->ident)
			continue;
		n = cua_raw_node_new(snap);
		n->ident = k->ident;
		assert_int_equal(fx->s->backend->ops->read_nodes(
					 fx->s->backend, snap, &n, 1,
					 CUA_HAVE_ATTRIBUTES | CUA_HAVE_ID),
				 CUA_OK);
		cua_fingerprint_of_raw(&fp, n);
		assert_true(cua_fingerprint_equal(&fp, &k->fp));
		checked++;
	}
	assert_true(checked >= 8);
	cua_raw_snapshot_free(snap);
}

static void
test_unchanged(void **state)
{
	struct fx *fx = *state;

	expect_ident(fx, element_titled(fx->t, "Beta"), 0, "bB", 0);
	expect_ident(fx, element_titled(fx->t, "Beta"), 1, "bB", 0);
	/* the two unnamed icons are pinned steps */
	expect_ident(fx, nth_role(fx->t, CUA_ROLE_PUSH_BUTTON, 4), 0, "i2", 0);
}

/* docs/differences.md D5: a status label changing next to the button does not
 * invalidate it; locator_strict_siblings compares every title, so the step
 * fails and the equivalence refetch finds it. */
static void
test_status_label_d5(void **state)
{
	struct fx *fx = *state;

	rec_replace(fx->s, WINDOW(ROW3, "Status: busy"));
	expect_ident(fx, element_titled(fx->t, "Beta"), 0, "bB", 0);
	expect_ident(fx, element_titled(fx->t, "Beta"), 1, "bB", 1);
}

static void
test_target_renamed(void **state)
{
	struct fx *fx = *state;

	rec_replace(fx->s,
		    WINDOW(REC_BTN("bA", "Alpha") "," REC_BTN(
				   "bB", "Zeta") "," REC_BTN("bC", "Gamma"),
			   "Status: idle"));
	expect_stale(fx, element_titled(fx->t, "Beta"), 0, CUA_E_INVALID,
		     MSG_INVALID);
}

/* A confusable sibling renamed: the step fails (its title is compared),
 * the refetch finds the target unique. */
static void
test_confusable_sibling_renamed(void **state)
{
	struct fx *fx = *state;

	rec_replace(fx->s,
		    WINDOW(REC_BTN("bA", "Alpha!") "," REC_BTN(
				   "bB", "Beta") "," REC_BTN("bC", "Gamma"),
			   "Status: idle"));
	expect_ident(fx, element_titled(fx->t, "Beta"), 0, "bB", 1);
}

static void
test_reorder_refetch(void **state)
{
	struct fx *fx = *state;

	rec_replace(fx->s,
		    WINDOW(REC_BTN("bC", "Gamma") "," REC_BTN(
				   "bB", "Beta") "," REC_BTN("bA", "Alpha"),
			   "Status: idle"));
	expect_ident(fx, element_titled(fx->t, "Beta"), 0, "bB", 1);
	expect_ident(fx, element_titled(fx->t, "Alpha"), 0, "bA", 1);
}

static void
test_inserted_sibling(void **state)
{
	struct fx *fx = *state;

	rec_replace(fx->s,
		    WINDOW(REC_BTN("bN", "New") "," ROW3, "Status: idle"));
	expect_ident(fx, element_titled(fx->t, "Gamma"), 0, "bC", 1);
}

/* Two candidates after the change: never guess. */
static void
test_ambiguous_refetch(void **state)
{
	struct fx *fx = *state;

	rec_replace(fx->s,
		    WINDOW(REC_BTN("bA", "Beta") "," REC_BTN(
				   "bB", "Beta") "," REC_BTN("bC", "Gamma"),
			   "Status: idle"));
	expect_stale(fx, element_titled(fx->t, "Beta"), 0, CUA_E_REFETCH_FINISH,
		     MSG_REFETCH_FINISH);
}

static void
test_removed(void **state)
{
	struct fx *fx = *state;

	rec_replace(
		fx->s,
		REC_APP("W",
			BOX("p1",
			    REC_BTN("bA", "Alpha") "," REC_BTN("bC", "Gamma") "," ICON(
				    "i1") "," ICON("i2") "," LBL("s1",
								 "Status: idle"))));
	expect_stale(fx, element_titled(fx->t, "Beta"), 0, CUA_E_INVALID,
		     MSG_INVALID);
	expect_ident(fx, element_titled(fx->t, "Gamma"), 0, "bC", 1);
}

/* Pinned steps (docs/differences.md D4): identical unnamed siblings resolve by
 * identity only, and a pinned target is only ever refetched to its own
 * object. */
static void
test_pinned(void **state)
{
	struct fx *fx = *state;
	const struct cua_element *second =
		nth_role(fx->t, CUA_ROLE_PUSH_BUTTON, 4);

	/* swapped: the step fails on identity, the refetch finds i2 */
	rec_replace(fx->s,
		    REC_APP("W", BOX("p1",
				     ROW3 "," ICON("i2") "," ICON("i1") "," LBL(
					     "s1", "Status: idle"))));
	expect_ident(fx, second, 0, "i2", 1);
	/* i2 removed: i1 has the same fingerprint but is another object */
	rec_replace(fx->s,
		    REC_APP("W", BOX("p1", ROW3 "," ICON("i1") "," LBL(
						   "s1", "Status: idle"))));
	expect_stale(fx, second, 0, CUA_E_INVALID, MSG_INVALID);
	/* i1 replaced by a new object at the same place: not i2 either */
	rec_replace(fx->s,
		    REC_APP("W", BOX("p1",
				     ROW3 "," ICON("i1") "," ICON("i9") "," LBL(
					     "s1", "Status: idle"))));
	expect_stale(fx, second, 0, CUA_E_INVALID, MSG_INVALID);
}

/* The window step goes by identity, not by index or title. */
static void
test_window_by_identity(void **state)
{
	struct fx *fx = *state;
	static const char two[] =
		"{'schema':'libcua.recording/1','app':{'pid':4242,'start_time':99,"
		"'app_id':'org.example.Form','app_name':'Form'},"
		"'windows':[{'x11_window':78},{'x11_window':77,'active':true,'title':'W'}],"
		"'root':{'role':'application','name':'Form','children':["
		"{'id':'other','role':'frame','name':'Other'," REC_SHOW "},"
		"{'id':'win','role':'frame','name':'W *'," REC_SHOW
		",'extents':[0,0,800,600],'children':[" BOX(
			"p1", ROW3 "," ICON("i1") "," ICON("i2") "," LBL(
				      "s1", "Status: idle")) "]}]}}";
	static const char gone[] =
		"{'schema':'libcua.recording/1','app':{'pid':4242,'start_time':99,"
		"'app_id':'org.example.Form','app_name':'Form'},"
		"'windows':[{'x11_window':78,'active':true}],"
		"'root':{'role':'application','name':'Form','children':["
		"{'id':'win2','role':'frame','name':'W'," REC_SHOW
		",'extents':[0,0,800,600],'children':[" BOX(
			"p1", ROW3 "," ICON("i1") "," ICON("i2") "," LBL(
				      "s1", "Status: idle")) "]}]}}";

	rec_replace(fx->s, two);
	expect_ident(fx, element_titled(fx->t, "Gamma"), 0, "bC", 0);
	rec_replace(fx->s, gone);
	expect_stale(fx, element_titled(fx->t, "Gamma"), 0, CUA_E_INVALID,
		     MSG_INVALID);
}

/* An eliminated container appears around the buttons: the refetch
 * allows one level more (±1). */
static void
test_extra_level(void **state)
{
	struct fx *fx = *state;

	rec_replace(
		fx->s,
		REC_APP("W", BOX("p1",
				 BOX("p2", ROW3) "," ICON("i1") "," ICON(
					 "i2") "," LBL("s1", "Status: idle"))));
	expect_ident(fx, element_titled(fx->t, "Beta"), 0, "bB", 1);
}

/* Identical siblings without identities cannot be located at all. */
static void
test_unlocatable(void **state)
{
	cua_session *s = rec_session(REC_APP(
		"W",
		BOX("p1", REC_BTN("bA", "Alpha") "," ICON_ANON "," ICON_ANON)));
	struct fx fx2 = { s, rec_observe(s, 0) };

	expect_stale(&fx2, nth_role(fx2.t, CUA_ROLE_PUSH_BUTTON, 1), 0,
		     CUA_E_REFETCH_START, MSG_REFETCH_START);
	expect_ident(&fx2, element_titled(fx2.t, "Alpha"), 0, "bA", 0);
	cua_tree_unref(fx2.t);
	cua_session_unref(s);
}

/* The step rule itself, on hand-made fingerprints. */
static void
test_step_rule(void **state)
{
	struct fx *fx = *state;
	const struct cua_element *beta = element_titled(fx->t, "Beta");
	const struct cua_skel *k = &fx->t->skel[beta->skel];
	uint32_t parent = (uint32_t)k->parent, chosen = (uint32_t)beta->skel;
	const struct cua_skel *p = &fx->t->skel[parent];
	struct cua_fingerprint live[16];
	const char *ids[16];
	size_t n = p->n_fetched;

	assert_true(n <= 16);
	for (size_t j = 0; j < n; j++) {
		live[j] = fx->t->skel[p->first_child + j].fp;
		ids[j] = fx->t->skel[p->first_child + j].ident;
	}
	assert_true(cua_locate_step_ok(fx->t, parent, chosen, live, ids, n, 0,
				       (uint32_t)n, 0));
	/* child count differs */
	assert_false(cua_locate_step_ok(fx->t, parent, chosen, live, ids, n, 0,
					(uint32_t)n + 1, 0));
	/* a non-confusable sibling's title (the label) may differ ... */
	live[n - 1].title = "Status: busy";
	assert_true(cua_locate_step_ok(fx->t, parent, chosen, live, ids, n, 0,
				       (uint32_t)n, 0));
	/* ... except in strict mode */
	assert_false(cua_locate_step_ok(fx->t, parent, chosen, live, ids, n, 0,
					(uint32_t)n, 1));
	live[n - 1] = fx->t->skel[p->first_child + n - 1].fp;
	/* a sibling's role may never differ */
	live[n - 1].role = CUA_ROLE_PUSH_BUTTON;
	assert_false(cua_locate_step_ok(fx->t, parent, chosen, live, ids, n, 0,
					(uint32_t)n, 0));
	live[n - 1] = fx->t->skel[p->first_child + n - 1].fp;
	/* the value kind is part of the fingerprint, the value is not */
	live[0].value_kind = CUA_VALUE_TOGGLE;
	assert_false(cua_locate_step_ok(fx->t, parent, chosen, live, ids, n, 0,
					(uint32_t)n, 0));
	live[0] = fx->t->skel[p->first_child].fp;
	/* a pinned step needs its identity */
	{
		const struct cua_element *i2 =
			nth_role(fx->t, CUA_ROLE_PUSH_BUTTON, 4);

		assert_true(fx->t->skel[i2->skel].pinned);
		assert_true(cua_locate_step_ok(fx->t, parent,
					       (uint32_t)i2->skel, live, ids, n,
					       0, (uint32_t)n, 0));
		ids[4] = "someone-else";
		assert_false(cua_locate_step_ok(fx->t, parent,
						(uint32_t)i2->skel, live, ids,
						n, 0, (uint32_t)n, 0));
	}
}

/* A grid (a table's visible cells, not one index range): the chosen
 * child alone is read again, and its siblings are not compared. */
static void
test_step_rule_grid(void **state)
{
	struct fx *fx = *state;
	const struct cua_element *beta = element_titled(fx->t, "Beta");
	uint32_t chosen = (uint32_t)beta->skel;
	uint32_t parent = (uint32_t)fx->t->skel[chosen].parent;
	const struct cua_skel *p = &fx->t->skel[parent];
	struct cua_skel *c = &fx->t->skel[chosen];
	struct cua_fingerprint live[1] = { c->fp };
	const char *ids[1] = { c->ident };
	uint32_t saved[16];

	assert_true(p->n_fetched > 1 && p->n_fetched <= 16);
	/* one index range: every sibling must be read again */
	assert_false(cua_locate_step_ok(fx->t, parent, chosen, live, ids, 1,
					c->index, p->child_count, 0));
	for (uint32_t j = 0; j < p->n_fetched; j++) {
		saved[j] = fx->t->skel[p->first_child + j].index;
		fx->t->skel[p->first_child + j].index = 100 * j;
	}
	assert_true(cua_locate_step_ok(fx->t, parent, chosen, live, ids, 1,
				       c->index, p->child_count, 0));
	/* the chosen cell must still be the same one */
	live[0].title = "Gamma";
	assert_false(cua_locate_step_ok(fx->t, parent, chosen, live, ids, 1,
					c->index, p->child_count, 0));
	live[0] = c->fp;
	assert_false(cua_locate_step_ok(fx->t, parent, chosen, live, ids, 1,
					c->index + 1, p->child_count, 0));
	for (uint32_t j = 0; j < p->n_fetched; j++)
		fx->t->skel[p->first_child + j].index = saved[j];
}

static void
test_chain_rule(void **state)
{
	struct cua_fingerprint a = { CUA_ROLE_PANEL, 0, "", "", "" };
	struct cua_fingerprint b = { CUA_ROLE_FILLER, 0, "", "", "" };
	struct cua_fingerprint c = { CUA_ROLE_SCROLL_PANE, 0, "", "", "" };
	struct cua_fingerprint rec[2] = { a, b };
	struct cua_fingerprint same[2] = { a, b };
	struct cua_fingerprint more[3] = { a, c, b };
	struct cua_fingerprint less[1] = { b };
	struct cua_fingerprint two_more[4] = { c, a, c, b };
	struct cua_fingerprint other[2] = { a, c };
	const char *pins[2] = { NULL, "pinned-filler" };
	const char *ids[2] = { "x", "pinned-filler" };
	const char *bad[2] = { "x", "y" };

	assert_true(cua_locate_chain_ok(same, NULL, 2, rec, NULL, 2));
	assert_true(cua_locate_chain_ok(more, NULL, 3, rec, NULL, 2));
	assert_true(cua_locate_chain_ok(less, NULL, 1, rec, NULL, 2));
	assert_true(cua_locate_chain_ok(NULL, NULL, 0, NULL, NULL, 0));
	assert_false(cua_locate_chain_ok(two_more, NULL, 4, rec, NULL, 2));
	assert_false(cua_locate_chain_ok(other, NULL, 2, rec, NULL, 2));
	/* pinned levels keep their identity, and are never dropped */
	assert_true(cua_locate_chain_ok(same, ids, 2, rec, pins, 2));
	assert_false(cua_locate_chain_ok(same, bad, 2, rec, pins, 2));
	assert_false(cua_locate_chain_ok(&a, NULL, 1, rec, pins, 2));
}

/* The guards and their sentences, through the public API. */
static void
test_guards(void **state)
{
	struct fx *fx = *state;
	cua_session *fresh = rec_session(base);
	uint32_t beta = rec_id(fx->t, "Beta");
	cua_tree *t2;
	char *out = (char *)1;
	cua_result r;

	/* no observation in this session */
	r = cua_session_click(fresh, "pid:4242", beta, CUA_BUTTON_LEFT, 1,
			      &out);
	assert_int_equal(r, CUA_ERROR_NO_SESSION);
	assert_null(out);
	assert_string_equal(
		cua_error_message(),
		"Computer Use is not active for 'pid:4242'. You first "
		"must observe the app to get the latest state "
		"before doing other Computer Use actions.");
	assert_int_equal(cua_error_code(), CUA_E_NOT_ACTIVE);
	cua_session_unref(fresh);

	r = cua_session_click(fx->s, "no-such-app", beta, CUA_BUTTON_LEFT, 1,
			      NULL);
	assert_int_equal(r, CUA_ERROR_NOT_FOUND);
	assert_non_null(
		strstr(cua_error_message(), "appNotFound(\"no-such-app\")"));

	/* an id this app never issued */
	r = cua_session_click(fx->s, "pid:4242", 9999, CUA_BUTTON_LEFT, 1,
			      NULL);
	assert_int_equal(r, CUA_ERROR_NOT_FOUND);
	assert_string_equal(
		cua_error_message(),
		"9999 is an invalid element ID. Use an element index "
		"from the latest observation of 'pid:4242'.");
	assert_int_equal(cua_error_code(), CUA_E_NOTFOUND);

	/* Beta removed and the app observed again: its id is dead */
	t2 = rec_next(
		fx->s,
		REC_APP("W",
			BOX("p1",
			    REC_BTN("bA", "Alpha") "," REC_BTN("bC", "Gamma") "," ICON(
				    "i1") "," ICON("i2") "," LBL("s1",
								 "Status: idle"))),
		0);
	r = cua_session_click(fx->s, "pid:4242", beta, CUA_BUTTON_LEFT, 1,
			      NULL);
	assert_int_equal(r, CUA_ERROR_STALE);
	assert_int_equal(cua_error_code(), CUA_E_INVALID);
	assert_string_equal(cua_error_message(), MSG_INVALID);

	/* bad arguments are refused before anything else */
	r = cua_session_click(fx->s, "pid:4242", rec_id(t2, "Gamma"), 7, 1,
			      NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(
		cua_error_message(),
		"Invalid mouse button: 7 Use left, right or middle.");
	r = cua_session_scroll(fx->s, "pid:4242", rec_id(t2, "Gamma"), "down",
			       -1, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(), "pages must be > 0");
	r = cua_session_scroll(fx->s, "pid:4242", rec_id(t2, "Gamma"),
			       "sideways", 1, NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(
		cua_error_message(),
		"Invalid scroll direction: sideways Use up, down, left or right.");
	r = cua_session_type_text(fx->s, "pid:4242", "", NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "Missing required argument: text");
	r = cua_session_press_key(fx->s, "", "a", NULL);
	assert_int_equal(r, CUA_ERROR_INVALID_ARGUMENT);
	assert_string_equal(cua_error_message(),
			    "Missing required argument: app");

	/* an element that resolves; the recorded backend cannot act */
	r = cua_session_click(fx->s, "pid:4242", rec_id(t2, "Gamma"),
			      CUA_BUTTON_LEFT, 1, NULL);
	assert_int_equal(r, CUA_ERROR_UNSUPPORTED);
	cua_tree_unref(t2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_fingerprint_matches_skeleton, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unchanged, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_status_label_d5, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_target_renamed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_confusable_sibling_renamed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_reorder_refetch, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_inserted_sibling, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ambiguous_refetch, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pinned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window_by_identity, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_extra_level, setup,
						teardown),
		cmocka_unit_test(test_unlocatable),
		cmocka_unit_test_setup_teardown(test_step_rule_grid, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_step_rule, setup,
						teardown),
		cmocka_unit_test(test_chain_rule),
		cmocka_unit_test_setup_teardown(test_guards, setup, teardown),
	};

	return cmocka_run_group_tests_name("locate", tests, NULL, NULL);
}
