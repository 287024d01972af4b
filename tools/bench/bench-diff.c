/*
 * bench-diff: what diffs between observations save, and what they cost.
 *
 * For gtk3-widget-factory and LibreOffice Writer: one full observation,
 * then a scripted sequence of 10 state changes (through libcua's own
 * actions), each followed by an observation. For every observation after
 * a successful action it prints the characters of the full state text and
 * of the diff rendering (CUA_RENDER_DIFF: a diff, the no-change sentence,
 * or the full tree when a docs/identity.md §7.4 rule says so), and the time the
 * diff adds: comparing the tree with its baseline during the observation
 * (CUA_STAT_DIFF_US) and rendering the diff instead of the full tree. A
 * failed action changed nothing to measure: it is reported and left out
 * of the counts and times (the observation after it is still made, as the
 * next baseline).
 *
 * Run inside a headless desktop:  meson compile -C build bench-diff:run
 *
 * SPDX-License-Identifier: MIT
 */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cua/cua.h>

#include "bench-util.h"

enum kind { CLICK, SET_VALUE, TYPE, KEY };

struct step {
	const char *what;
	enum kind kind;
	const char *role, *title; /* the target (CLICK, SET_VALUE) */
	const char *arg;          /* value, text or key */
};

static const struct step gtk3_steps[] = {
	{ "toggle a check box", CLICK, "checkbox", "checkbutton", NULL },
	{ "choose a radio button", CLICK, "radio button", "radiobutton", NULL },
	{ "press a toggle button", CLICK, "toggle button", "togglebutton",
	  NULL },
	{ "move a slider", SET_VALUE, "slider", "", "75" },
	{ "edit an entry", SET_VALUE, "text field", "", "hello bench" },
	{ "switch a notebook tab", CLICK, "tab", "page 2", NULL },
	{ "go to page 2", CLICK, "radio button", "Page 2", NULL },
	{ "back to page 1", CLICK, "radio button", "Page 1", NULL },
	{ "open the app menu", CLICK, "toggle button", "Menu", NULL },
	{ "close it", KEY, NULL, NULL, "Escape" },
};

static const struct step writer_steps[] = {
	{ "type a sentence", TYPE, NULL, NULL, "Hello from libcua." },
	{ "new paragraph", KEY, NULL, NULL, "Return" },
	{ "type another", TYPE, NULL, NULL, "A second paragraph of text." },
	{ "select all", KEY, NULL, NULL, "ctrl+a" },
	{ "bold", KEY, NULL, NULL, "ctrl+b" },
	{ "to the end", KEY, NULL, NULL, "ctrl+End" },
	{ "open the Format menu", CLICK, NULL, "Format", NULL },
	{ "close it", KEY, NULL, NULL, "Escape" },
	{ "type more", TYPE, NULL, NULL, " More text." },
	{ "undo", KEY, NULL, NULL, "ctrl+z" },
};

/* Runs a step; on failure `why` says what went wrong. */
static cua_result
act(cua_session *s, const char *app, cua_tree *t, const struct step *st,
    const char **why)
{
	cua_element *e = NULL;
	char *outcome = NULL;
	cua_result r;

	*why = NULL;
	if (st->kind == CLICK || st->kind == SET_VALUE) {
		e = bench_find(t, st->role, st->title);
		if (!e) {
			*why = "no enabled element with that role and title "
			       "in the tree";
			return CUA_ERROR_NOT_FOUND;
		}
	}
	switch (st->kind) {
	case CLICK:
		r = cua_session_click(s, app, cua_element_get_id(e),
				      CUA_BUTTON_LEFT, 1, &outcome);
		break;
	case SET_VALUE:
		r = cua_session_set_value(s, app, cua_element_get_id(e),
					  st->arg, &outcome);
		break;
	case TYPE:
		r = cua_session_type_text(s, app, st->arg, &outcome);
		break;
	default:
		r = cua_session_press_key(s, app, st->arg, &outcome);
		break;
	}
	cua_free(outcome);
	if (r != CUA_OK)
		*why = cua_error_message();
	return r;
}

struct totals {
	long full_chars, diff_chars;
	double observe_ms, diff_us, render_full_us, render_diff_us;
	double added_us[32], obs_ms[32]; /* per step */
	int n, diffs, no_change, fallbacks;
	int failed; /* actions that failed: not counted above */
};

static double
render_us(cua_tree *t, uint32_t flags, size_t *len)
{
	double t0 = bench_now_ms();
	char *text = NULL;
	double us;

	if (cua_tree_render(t, flags, &text) != CUA_OK) {
		*len = 0;
		return 0;
	}
	us = (bench_now_ms() - t0) * 1000;
	*len = strlen(text);
	cua_free(text);
	return us;
}

/* 0: full, 1: diff, 2: no change */
static int
kind_of(cua_tree *t)
{
	char *text = NULL;
	int k = 0;

	if (cua_tree_render(t, CUA_RENDER_DIFF, &text) != CUA_OK)
		return 0;
	if (strstr(text, "\nThe following is a diff from the previous"))
		k = 1;
	else if (strstr(text, "\nThere has been no change"))
		k = 2;
	cua_free(text);
	return k;
}

static void
run(cua_session *s, const char *label, const char *app,
    const struct step *steps, size_t n_steps, struct totals *all)
{
	static const char *const kinds[] = { "full", "diff", "no change" };
	struct totals tot = { 0 };
	cua_tree *t = NULL;

	if (bench_wait_stable(s, app, 60000) < 0) {
		printf("%s: not ready: %s\n\n", label, cua_error_message());
		return;
	}
	if (cua_session_observe(
		    s, app, CUA_OBSERVE_NO_LAUNCH | CUA_OBSERVE_DISABLE_DIFF,
		    &t) != CUA_OK) {
		printf("%s: %s\n\n", label, cua_error_message());
		return;
	}
	printf("%s (%lld elements at the start)\n", label,
	       (long long)cua_tree_get_stat(t, CUA_STAT_ELEMENTS));
	printf("  %-24s %6s %6s  %-9s %8s %8s %8s %8s\n", "step", "full",
	       "diff", "shown", "obs ms", "cmp us", "full us", "diff us");
	for (size_t i = 0; i < n_steps && i < 32; i++) {
		cua_tree *next = NULL;
		size_t full_len, diff_len;
		double t0, obs, rf, rd;
		int64_t cmp;
		int k;
		const char *why;
		cua_result r = act(s, app, t, &steps[i], &why);

		if (r != CUA_OK) {
			/* no state change to measure: not counted; observed
			 * anyway, so that the next step diffs against now */
			printf("  %-24s FAILED, not counted: %s\n",
			       steps[i].what, why);
			tot.failed++;
		}
		t0 = bench_now_ms();
		if (cua_session_observe(s, app, CUA_OBSERVE_NO_LAUNCH, &next) !=
		    CUA_OK) {
			printf("  %s: observe failed: %s\n", steps[i].what,
			       cua_error_message());
			break;
		}
		obs = bench_now_ms() - t0;
		cua_tree_unref(t);
		t = next;
		if (r != CUA_OK)
			continue;
		rf = render_us(t, 0, &full_len);
		rd = render_us(t, CUA_RENDER_DIFF, &diff_len);
		cmp = cua_tree_get_stat(t, CUA_STAT_DIFF_US);
		k = kind_of(t);
		printf("  %-24s %6zu %6zu  %-9s %8.1f %8lld %8.0f %8.0f\n",
		       steps[i].what, full_len, diff_len, kinds[k], obs,
		       (long long)cmp, rf, rd);
		tot.full_chars += (long)full_len;
		tot.diff_chars += (long)diff_len;
		tot.observe_ms += obs;
		tot.diff_us += (double)cmp;
		tot.render_full_us += rf;
		tot.render_diff_us += rd;
		tot.diffs += k == 1;
		tot.no_change += k == 2;
		tot.fallbacks += k == 0;
		tot.added_us[tot.n] = (double)cmp + rd - rf;
		tot.obs_ms[tot.n] = obs;
		tot.n++;
	}
	cua_tree_unref(t);
	if (tot.failed)
		printf("  %d of %zu actions failed and are not counted below\n",
		       tot.failed, n_steps);
	if (!tot.n) {
		printf("\n");
		all->failed += tot.failed;
		return;
	}
	printf("  total over %d successful actions: full %ld chars, diff %ld "
	       "chars (%.1f%%, %.1fx smaller); %d diffs, %d no-change, %d full\n",
	       tot.n, tot.full_chars, tot.diff_chars,
	       100.0 * (double)tot.diff_chars / (double)tot.full_chars,
	       tot.diff_chars ?
		       (double)tot.full_chars / (double)tot.diff_chars :
		       0.0,
	       tot.diffs, tot.no_change, tot.fallbacks);
	printf("  time: observation %.1f ms mean; the diff adds %.0f us mean "
	       "(compare %.0f us + render %+.0f us vs the full text) = %.3f%% "
	       "of the observation;\n        median: the diff adds %.0f us to a "
	       "%.1f ms observation\n\n",
	       tot.observe_ms / tot.n,
	       (tot.diff_us + tot.render_diff_us - tot.render_full_us) / tot.n,
	       tot.diff_us / tot.n,
	       (tot.render_diff_us - tot.render_full_us) / tot.n,
	       100.0 *
		       ((tot.diff_us + tot.render_diff_us -
			 tot.render_full_us) /
			1000.0) /
		       tot.observe_ms,
	       bench_median(tot.added_us, tot.n),
	       bench_median(tot.obs_ms, tot.n));
	fflush(stdout);
	all->full_chars += tot.full_chars;
	all->diff_chars += tot.diff_chars;
	all->n += tot.n;
	all->failed += tot.failed;
}

int
main(int argc, char **argv)
{
	cua_session *s = NULL;
	struct totals all = { 0 };
	char lo[256];
	pid_t pid;

	if (cua_session_new(&s, 0) != CUA_OK) {
		fprintf(stderr, "%s\n", cua_error_message());
		return 1;
	}
	printf("libcua %s — full observations vs diffs over 10 state changes\n"
	       "(full/diff: characters of the state text; shown: what "
	       "CUA_RENDER_DIFF printed;\n obs: observe wall time; cmp: "
	       "comparing with the baseline; full/diff us: rendering)\n\n",
	       cua_version_string());

	{
		const char *av[] = { "gtk3-widget-factory", NULL };

		pid = bench_spawn(av);
		run(s, "gtk3-widget-factory", "gtk3-widget-factory", gtk3_steps,
		    sizeof(gtk3_steps) / sizeof(gtk3_steps[0]), &all);
		bench_stop_app(s, "gtk3-widget-factory");
		(void)pid;
	}
	snprintf(lo, sizeof(lo),
		 "-env:UserInstallation=file:///tmp/cua-bench-diff-lo-%d",
		 (int)getpid());
	setenv("SAL_USE_VCLPLUGIN", "gtk3", 1);
	{
		const char *av[] = { "soffice",  "--writer", "--norestore",
				     "--nologo", lo,         NULL };

		pid = bench_spawn(av);
		run(s, "LibreOffice Writer", "libreoffice-writer", writer_steps,
		    sizeof(writer_steps) / sizeof(writer_steps[0]), &all);
		bench_stop_app(s, "libreoffice-writer");
		(void)pid;
	}
	if (all.n)
		printf("both apps, %d successful actions (%d failed, not counted): "
		       "full %ld chars, diff %ld chars (%.1f%%)\n",
		       all.n, all.failed, all.full_chars, all.diff_chars,
		       100.0 * (double)all.diff_chars / (double)all.full_chars);
	cua_session_unref(s);
	return 0;
}
