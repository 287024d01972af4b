/*
 * Live re-reads for actions (backend.h read_nodes, read_children): the
 * pipelined reader of fetch.c in its READ_LIVE mode. Every named node
 * answers its basic calls (GetRole, GetState, GetInterfaces, Name,
 * ChildCount), then either the details asked for or its children, each
 * read the same way; an object is never asked for an interface it does
 * not have (unusual calls crash Qt and Chromium, docs/toolkits.md §1.4).
 * The children found get no details when they are hidden, exactly as the
 * walk reads them, so that their fingerprints compare (docs/identity.md
 * §4).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "fetch_int.h"

static int
deadline_ms(struct atspi_be *be)
{
	int ms = be->base.ctx->opt.walk_deadline_ms;

	return ms > 0 ? ms : 5000;
}

int
fetch_call_ms(struct atspi_be *be)
{
	int ms = be->base.ctx->opt.call_timeout_ms;

	return ms > 0 ? ms : 1000;
}

static void
live_init(struct job *job, struct atspi_be *be, struct cua_raw_snapshot *snap,
	  uint32_t want, int64_t t0)
{
	fetch_job_init(job, be, snap, READ_LIVE, fetch_call_ms(be),
		       t0 + (int64_t)deadline_ms(be) * 1000);
	job->want = want & ~(uint32_t)(CUA_HAVE_CHILDREN | CUA_HAVE_BASIC);
}

/* A named node: NULL when its identity is not an object's. */
static struct fnode *
live_node(struct job *job, struct cua_raw_node *n)
{
	const char *bus, *path;
	struct fnode *fn;

	if (!fetch_split_ident(job, n->ident, &bus, &path))
		return NULL;
	fn = fetch_new_fnode(job, n, bus, path, 0);
	fn->named = 1;
	return fn;
}

static cua_result
live_run(struct job *job, struct atspi_be *be, int64_t t0)
{
	int r = dbatch_run(job->batch);

	fetch_job_finish(job, t0);
	if (job->oom)
		return cua_error(CUA_ERROR_NOMEM, "out of memory");
	/* nothing answered because the bus went away under the read: not
	 * a stale element */
	if (job->n_ok == 0 && atspi_bus_gone(be))
		return cua_err(CUA_MSG_ACCESSIBILITY_BUS_GONE);
	if (job->n_ok == 0 && (r < 0 || job->n_timeouts))
		return cua_error(
			CUA_ERROR_TIMEOUT,
			"the app did not answer accessibility requests in time");
	return CUA_OK;
}

cua_result
atspi_read_nodes(struct cua_backend *b, struct cua_raw_snapshot *snap,
		 struct cua_raw_node **nodes, size_t n, uint32_t want)
{
	struct atspi_be *be = (struct atspi_be *)b;
	struct job job;
	int64_t t0 = cua_now_us();

	live_init(&job, be, snap, want, t0);
	for (size_t i = 0; i < n; i++) {
		struct fnode *fn = live_node(&job, nodes[i]);

		nodes[i]->have &= ~(uint32_t)CUA_HAVE_BASIC;
		if (fn)
			fetch_start_basic(fn);
	}
	return live_run(&job, be, t0);
}

cua_result
atspi_read_children(struct cua_backend *b, struct cua_raw_snapshot *snap,
		    struct cua_raw_node **parents, size_t n, uint32_t first,
		    uint32_t count, uint32_t want)
{
	struct atspi_be *be = (struct atspi_be *)b;
	struct job job;
	int64_t t0 = cua_now_us();

	live_init(&job, be, snap, want, t0);
	for (size_t i = 0; i < n; i++) {
		struct cua_raw_node *p = parents[i];
		struct fnode *fn = live_node(&job, p);

		p->children = NULL;
		p->n_children = 0;
		p->children_partial = 0;
		p->have &= ~(uint32_t)(CUA_HAVE_CHILDREN | CUA_HAVE_BASIC);
		if (!fn)
			continue;
		fn->read_kids = 1;
		fn->kids_first = first;
		fn->kids_count = count;
		fetch_start_basic(fn);
	}
	return live_run(&job, be, t0);
}
