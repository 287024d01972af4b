/*
 * cua-mcp: what the tool handlers share — validated arguments, the libcua
 * session, targets, observations and actions.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_MCP_CALL_H
#define CUA_MCP_CALL_H

#include "mcp.h"

/* Validated, normalised arguments of one tool call (docs/tools.md §2). */
struct call_args {
	const char *tool;
	const char *app;
	int has_element;
	uint32_t element;
	int has_xy;
	double x, y;
	int click_count;    /* 1 when absent */
	const char *button; /* "left", "right", "middle" */
	const char *action; /* perform_secondary_action */
	const char *value;  /* set_value */
	const char *key;    /* press_key */
	const char *text;   /* type_text, select_text */
	const char *prefix, *suffix;
	const char *selection; /* "text", "cursor_before", "cursor_after" */
	const char *direction; /* "up", "down", "left", "right" */
	double pages;          /* 1 when absent */
	double from_x, from_y, to_x, to_y;
	int disable_diff;
	json_t *steps;       /* sequence (borrowed) */
	const char *warning; /* e.g. coordinates ignored */
};

/*
 * Validates `args` of `tool` and fills `out` (strings borrowed from args).
 * `step` > 0 validates a sequence step (no app). Returns NULL, or the
 * model-facing message (malloc'd).
 */
char *
validate_args(const char *tool, json_t *args, int step, struct call_args *out);

/* ---- state.c ------------------------------------------------------------ */

/* The libcua session, created on first use (worker thread). */
cua_session *
session_get(struct mcp_error *err);
void
session_close(void);
/* A new turn began: every app needs a get_app_state in it before actions,
 * and diff baselines expire (docs/safety.md §8). */
void
session_new_turn(void);

/* Resolves the model's app string and applies policy and approval
 * (docs/identity.md §5 rows 3–4). 0, -1 with err, or -2 when cancelled. */
int
target_acquire(struct job *job, const char *app, struct target *t,
	       struct mcp_error *err);
void
target_clear(struct target *t);
/* Row 7: the app was observed in this server session. 0 or -1. */
int
target_require_active(const struct target *t, const char *app,
		      struct mcp_error *err);

/* One observation, rendered. */
struct observation {
	cua_tree *tree;
	char *body;         /* the state body (inside <app_state>) */
	char *instructions; /* per-app instructions to deliver, or NULL */
	char *notes;        /* lines after </app_state>, or NULL */
	json_t *structured; /* libcua.app_state/1 */
	json_t *image;      /* the image content block, or NULL */
	char *app_id;
};

/* Observes the target (settle, walk, capture) and renders it. 0, -1 with
 * err, or -2 when the job was cancelled. */
int
observe(struct job *job, struct target *t, const char *app, int disable_diff,
	struct observation *obs, struct mcp_error *err);
/* The get_app_state result: `report` (may be NULL) and a blank line, the
 * envelope, the image. Marks the observation delivered. */
json_t *
observation_result(struct observation *obs, const char *report,
		   json_t *structured_override, int is_error);
void
observation_clear(struct observation *obs);

/* ---- actions.c ---------------------------------------------------------- */

/* What an action reports on success. */
struct action_outcome {
	json_t *structured; /* libcua.action/1 */
};

/* Runs one action on a target that passed the guards. 0 or -1. */
int
action_run(struct job *job, const struct target *t, const struct call_args *a,
	   struct action_outcome *out, struct mcp_error *err);

#endif
