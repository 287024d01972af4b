/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctx.h"
#include "strbuf.h"

void
cua_options_default(struct cua_options *opt)
{
	opt->walk_deadline_ms = 5000;
	opt->call_timeout_ms = 1000;
	opt->max_elements = 1500;
	opt->max_popup_share = 100;
	opt->max_depth = 20;
	opt->max_raw_depth = 64;
	opt->max_rows = 20;
	opt->max_raw_nodes = 20000;
	opt->launch_timeout_ms = 10000;
	opt->desktop_fixes = 1;
	opt->settle_quiet_ms = 250;
	opt->settle_cap_ms = 1000;
	opt->settle_busy_cap_ms = 5000;
	opt->settle_probe_ms = 40;
	opt->settle_answered_ms = 30;
	opt->settle_drawn_ms = 10;
	opt->warmup_cap_ms = 1200;
	opt->capture_timeout_ms = 2500;
	opt->capture_fallback_timeout_ms = 3000;
	opt->shot_max_long_edge = 2048;
	opt->shot_max_short_edge = 768;
	opt->jpeg_quality = 80;
	opt->shot_reuse = 1;
	opt->diff_max_age_s = 300;
	opt->locator_strict_siblings = 0;
	opt->focus_timeout_ms = 500;
	opt->restore_pointer = 1;
	opt->always_simulate_click = 0;
	opt->keymap_delay_ms = 50;
	opt->vocabulary = 0; /* CUA_VOCAB_API */
}

static const char *
level_name(cua_log_level level)
{
	if (level <= CUA_LOG_ERROR)
		return "error";
	if (level <= CUA_LOG_WARNING)
		return "warning";
	if (level <= CUA_LOG_INFO)
		return "info";
	if (level <= CUA_LOG_DEBUG)
		return "debug";
	return "trace";
}

void
cua_log(const struct cua_ctx *ctx, cua_log_level level, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!ctx || level > ctx->log_level)
		return;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (ctx->log_fn)
		ctx->log_fn(ctx->session, level, sb_str(&sb), ctx->log_data);
	else
		fprintf(stderr, "libcua: %s: %s\n", level_name(level),
			sb_str(&sb));
	sb_free(&sb);
}

int64_t
cua_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void
cua_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
