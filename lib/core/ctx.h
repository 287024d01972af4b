/*
 * Per-session context shared by the core and the backends: options,
 * logging, and the thread-local error message.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_CORE_CTX_H
#define CUA_CORE_CTX_H

#include <stdint.h>

#include "cua/cua.h"

struct cua_options {
	int walk_deadline_ms;  /* 5000 */
	int call_timeout_ms;   /* 1000 */
	int max_elements;      /* 1500 */
	int max_popup_share;   /* 100: elements reserved for popups */
	int max_depth;         /* 20 rendered levels */
	int max_raw_depth;     /* 64 raw levels */
	int max_rows;          /* 20 */
	int max_raw_nodes;     /* 20000 */
	int launch_timeout_ms; /* 10000 */
	int desktop_fixes;     /* set AT_SPI_BUS / IsEnabled when missing */
	/* screenshots and settle (docs/screenshots.md §10) */
	int settle_quiet_ms;    /* 250 */
	int settle_cap_ms;      /* 1000 */
	int settle_busy_cap_ms; /* 5000 */
	int settle_probe_ms;    /* 40: first look at an app not watched yet */
	int settle_answered_ms; /* 30: after an action the app answered */
	int settle_drawn_ms;    /* 10: ... and drew where it changed */
	int warmup_cap_ms;      /* 1200 */
	int capture_timeout_ms; /* 2500 */
	int capture_fallback_timeout_ms; /* 3000 */
	int shot_max_long_edge;          /* 2048 */
	int shot_max_short_edge;         /* 768 */
	int jpeg_quality;                /* 80 */
	int shot_reuse; /* screenshot_reuse: 1 (docs/screenshots.md §2.1) */
	/* diffs (docs/identity.md §7) */
	int diff_off;           /* diff_mode = off */
	int diff_removed_lines; /* diff_removed_style = lines */
	int diff_max_age_s;     /* diff_baseline_max_age_s: 300 */
	int diff_ignore_budget; /* ignore_difference_line_budget */
	/* actions (docs/actions.md §13, docs/identity.md §4) */
	int locator_strict_siblings; /* 0: docs/differences.md D5 titles; 1:
				      * whole-array */
	int focus_timeout_ms;        /* 500 */
	int restore_pointer;         /* 1 */
	int always_simulate_click;   /* 0 */
	int keymap_delay_ms;         /* 50 (docs/actions.md §7.5) */
	int type_text_keys;          /* 1: type_text always sends key events */
	int vocabulary;              /* enum cua_vocab of the messages (api) */
};

struct cua_ctx {
	cua_session *session; /* for the log handler; may be NULL */
	cua_log_fn log_fn;    /* NULL = default (stderr) */
	void *log_data;
	cua_log_level log_level;
	struct cua_options opt;
};

void
cua_options_default(struct cua_options *opt);

void
cua_log(const struct cua_ctx *ctx, cua_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define cua_debug(ctx, ...) cua_log((ctx), CUA_LOG_DEBUG, __VA_ARGS__)
#define cua_info(ctx, ...) cua_log((ctx), CUA_LOG_INFO, __VA_ARGS__)
#define cua_warn(ctx, ...) cua_log((ctx), CUA_LOG_WARNING, __VA_ARGS__)

/*
 * Records a plain thread-local message for the failing call, with the
 * code the error registry gives `code` (errors.def, CUA_GENERIC), and
 * returns `code`, so that `return cua_error(CUA_ERROR_X, "...")` reads
 * naturally. For internal failures; a message a model or a user acts on
 * is raised from the registry with cua_err() (errors.h).
 */
cua_result
cua_error(cua_result code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* No error: an empty message and CUA_E_OK. */
void
cua_error_clear(void);
const char *
cua_error_get(void);

/* Monotonic clock in microseconds. */
int64_t
cua_now_us(void);

/* Sleeps ms milliseconds (resumed after a signal). */
void
cua_sleep_ms(int ms);

#endif
