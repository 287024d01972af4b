/*
 * E-PERMISSIONS-PENDING (docs/safety.md §7): an app that has a process
 * (and a window) but is not on the accessibility bus yet, and started
 * moments ago, is most likely still connecting: the model is told to call
 * again instead of giving up. At most CUA_PENDING_MAX answers in a row
 * for one process, and only within CUA_PENDING_AGE_S of its start; after
 * that the app counts as one that does not register. A process whose
 * toolkit has no accessibility bridge (the X Toolkit) is never waited for.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "a11y_note.h"
#include "errors.h"
#include "pending.h"

/* Seconds since process `start_time` (clock ticks after boot, as
 * /proc/<pid>/stat field 22 gives it); -1 when unknown. */
static double
process_age_s(uint64_t start_time)
{
	long hz = sysconf(_SC_CLK_TCK);
	double up = -1;
	FILE *f;

	if (hz <= 0 || !start_time)
		return -1;
	f = fopen("/proc/uptime", "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lf", &up) != 1)
		up = -1;
	fclose(f);
	return up < 0 ? -1 : up - (double)start_time / (double)hz;
}

cua_result
cua_pending_guard(struct cua_session *s, const struct cua_app_info *app)
{
	double age;
	const char *who;

	if (app->bus_name) {
		s->pending_pid = 0;
		return CUA_OK;
	}
	if (cua_a11y_never_registers(app->toolkit, app->pid))
		return CUA_OK;
	age = process_age_s(app->start_time);
	if (age < 0 || age > CUA_PENDING_AGE_S)
		return CUA_OK;
	if (s->pending_pid != app->pid || s->pending_start != app->start_time) {
		s->pending_pid = app->pid;
		s->pending_start = app->start_time;
		s->pending_count = 0;
	}
	if (s->pending_count >= CUA_PENDING_MAX)
		return CUA_OK;
	s->pending_count++;
	who = app->app_name && *app->app_name ? app->app_name :
	      app->exe_base && *app->exe_base ? app->exe_base :
						"the app";
	return cua_err(CUA_MSG_PERMISSIONS_PENDING_STARTED, { "name", who });
}
