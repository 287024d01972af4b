/*
 * A press action followed by a probe, on the bus (atspi_call_probed).
 *
 * An app that runs the action's handler before it answers (Qt's bridge
 * answers DoAction once the handler returned) and whose handler runs a
 * modal dialog's loop answers other calls from inside that loop, and the
 * action's only when the dialog closes. A probe sent right after the
 * action on the same connection (the app reads the two in that order)
 * tells: the probe answered first, the handler is running, in a loop; the
 * action's answer is not waited for. docs/actions.md §3.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "atspi.h"
#include "core/ctx.h"

struct probed {
	GVariant *reply; /* the action's */
	GError *error;
	int answered;    /* the action answered (or failed) */
	int probe_first; /* the probe answered while the action ran */
};

static void
on_action(struct dbatch *batch, GVariant *reply, const GError *error,
	  void *data)
{
	struct probed *p = data;

	(void)batch;
	if (reply)
		p->reply = g_variant_ref(reply);
	else
		p->error = g_error_copy(error);
	p->answered = 1;
}

static void
on_probe(struct dbatch *batch, GVariant *reply, const GError *error, void *data)
{
	struct probed *p = data;

	(void)error;
	if (p->answered || !reply)
		return;
	p->probe_first = 1;
	dbatch_cancel(batch);
}

GVariant *
atspi_call_probed(struct atspi_be *be, const char *bus, const char *path,
		  const char *iface, const char *method, GVariant *args,
		  const GVariantType *reply_type, int timeout_ms,
		  GError **error)
{
	struct probed p = { NULL, NULL, 0, 0 };
	struct dbatch *b;

	b = dbatch_new(be, timeout_ms, 2,
		       cua_now_us() + (int64_t)timeout_ms * 1000 + 250 * 1000);
	dbatch_call(b, bus, path, iface, method, args, reply_type, on_action,
		    &p);
	dbatch_call(b, bus, path, "org.a11y.atspi.Accessible", "GetRole", NULL,
		    G_VARIANT_TYPE("(u)"), on_probe, &p);
	dbatch_run(b);
	dbatch_free(b);
	if (p.reply)
		return p.reply;
	if (p.probe_first) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_PENDING,
			    "%s.%s on %s: its handler still runs, in a loop "
			    "(the app answered a later call)",
			    iface, method, bus);
		return NULL;
	}
	if (p.error)
		g_propagate_error(error, p.error);
	else
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
			    "%s.%s on %s did not answer within %d ms", iface,
			    method, bus, timeout_ms);
	return NULL;
}
