/*
 * Acting on apps: the staleness guards (docs/identity.md §5) and the action
 * ladders (docs/actions.md), written against backend primitives only.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_ACT_H
#define CUA_CORE_ACT_H

#include <jansson.h>
#include <stdint.h>

#include "backend/backend.h"
#include "errors.h"
#include "locate.h"
#include "session.h"

/* One action call, from its guards to its outcome. */
struct cua_act {
	struct cua_session *s;
	struct cua_backend *b;
	const char *tool;  /* "click", "set_value", ... */
	const char *query; /* the app string as given */
	struct cua_app_list *apps;
	const struct cua_app_info *app;
	struct cua_app_session *as;
	struct cua_tree *t; /* the latest published observation
				    * (a reference) */
	int64_t t0, t_guards, t_resolve;
	uint32_t element; /* CUA_NO_ID for coordinate actions */
	json_t *outcome;  /* tool-specific fields */
	char route[96];   /* the route that actuated */
	int refetched;
	struct cua_display *d; /* whose interrupt this action set */
	uint64_t user_seq;     /* the person's presses when it began */
	int input_lock;        /* the desktop's input lock, 0 when none */
	/* the person's pointer motions when it began (drags: motion stops
	 * them), else CUA_USER_NO_MOTION */
	uint64_t motion_seq;
};

/*
 * Guards 3, 7 and 8 of docs/identity.md §5 for `tool` on `app`: the app
 * resolves to exactly one running target (E-APP-NOT-FOUND,
 * E-AMBIGUOUS-APP), a session observed it (E-NOT-ACTIVE), its process is
 * the same (E-RUNNING-APP-NOT-FOUND, which drops the session's process).
 * On failure the message is the model-facing sentence; release `a` with
 * cua_act_end() either way.
 */
cua_result
cua_act_begin(struct cua_act *a, struct cua_session *s, const char *tool,
	      const char *app);

/*
 * Guard 10: element `id` of the latest observation resolves in the live
 * tree (E-NOTFOUND, E-INVALID, E-REFETCH-START, E-REFETCH-FINISH). The
 * resolved node is read with `want`.
 */
cua_result
cua_act_element(struct cua_act *a, uint32_t id, uint32_t want,
		struct cua_located *loc);

/* The guards that hold while the action runs, asked again when it
 * ended: returns E-SCREEN-LOCKED when the screen locked meanwhile,
 * E-USER-STOPPED or E-USER-CHANGED when the person stopped it or pressed
 * a key or button meanwhile, else r. */
cua_result
cua_act_after(struct cua_act *a, cua_result r);

/* The structured outcome (`libcua.action/1`); owned string. */
cua_result
cua_act_outcome(struct cua_act *a, char **out);

void
cua_act_end(struct cua_act *a);

/* Sets the route (printf-style). */
void
cua_act_route(struct cua_act *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The app's display name (for messages). */
const char *
cua_act_app_name(const struct cua_act *a);

/* The spare-keycode wait (docs/actions.md §7.5). */
#define CUA_KEYMAP_DELAY_MS 50

/* The actions (one file each under act/). `outcome` may be NULL; on
 * success it receives the owned `libcua.action/1` JSON. */
cua_result
cua_do_click(struct cua_session *s, const char *app, uint32_t id,
	     uint32_t button, uint32_t count, char **outcome);
cua_result
cua_do_click_at(struct cua_session *s, const char *app, double x, double y,
		uint32_t button, uint32_t count, char **outcome);
cua_result
cua_do_set_value(struct cua_session *s, const char *app, uint32_t id,
		 const char *value, char **outcome);
cua_result
cua_do_type_text(struct cua_session *s, const char *app, const char *text,
		 char **outcome);
cua_result
cua_do_press_key(struct cua_session *s, const char *app, const char *key,
		 char **outcome);
cua_result
cua_do_scroll(struct cua_session *s, const char *app, uint32_t id,
	      const char *direction, double pages, char **outcome);
cua_result
cua_do_scroll_at(struct cua_session *s, const char *app, double x, double y,
		 const char *direction, double pages, char **outcome);
cua_result
cua_do_drag(struct cua_session *s, const char *app, double x1, double y1,
	    double x2, double y2, char **outcome);
cua_result
cua_do_perform_action(struct cua_session *s, const char *app, uint32_t id,
		      const char *action, char **outcome);
cua_result
cua_do_select_text(struct cua_session *s, const char *app, uint32_t id,
		   const char *text, const char *prefix, const char *suffix,
		   uint32_t mode, char **outcome);

#endif
