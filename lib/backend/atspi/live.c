/*
 * Live access for actions (backend.h "Acting"): the one-object requests
 * the action ladders use (docs/actions.md §3–§10). Re-reading objects and
 * their children for re-resolution (docs/identity.md §4) is the reader's
 * live mode (fetch_live.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "fetch_int.h"
#include "core/sanitize.h"

#define IF_EDITABLE "org.a11y.atspi.EditableText"
#define IF_PROPS "org.freedesktop.DBus.Properties"

#define SCROLL_ANYWHERE 6u /* ATSPI_SCROLL_ANYWHERE */

static char *
join_ident(const char *bus, const char *path)
{
	return g_strdup_printf("%s:%s", bus, path);
}

static int
is_null_path(const char *path)
{
	return !path || strcmp(path, NULL_PATH) == 0;
}

static int
split(const char *ident, char **bus, const char **path)
{
	const char *slash = ident ? strchr(ident, '/') : NULL;

	if (!slash || slash == ident || slash[-1] != ':')
		return -1;
	*bus = g_strndup(ident, (gsize)(slash - ident - 1));
	*path = slash;
	return 0;
}

/* ------------------------------------------------------------------ */
/* One-object requests                                                 */

/* "<what>: <middle><the error's text>": an error reply's text comes from
 * the app, so it is sanitised like any string the app controls. */
static cua_result
gerror_message(cua_result code, const char *what, const char *middle,
	       const GError *e)
{
	struct strbuf sb = STRBUF_INIT;
	cua_result r;

	sb_addf(&sb, "%s: %s", what, middle);
	r = cua_error_quoting(code, sb_str(&sb), e->message, "%s", "");
	sb_free(&sb);
	return r;
}

static cua_result
gerror_result(const GError *e, const char *what)
{
	if (g_error_matches(e, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
		return cua_error(CUA_ERROR_TIMEOUT, "%s: no answer in time",
				 what);
	if (g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
	    g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_INTERFACE) ||
	    g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED))
		return gerror_message(CUA_ERROR_UNSUPPORTED, what, "", e);
	/* the app quit or crashed: NoReply for the call in flight when it
	 * left the bus, ServiceUnknown / NameHasNoOwner for calls after (a
	 * closed connection here is the bus itself, not the app) */
	if (g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
	    g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	    g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
		return gerror_message(CUA_ERROR_PROCESS_GONE, what,
				      "the app left the bus: ", e);
	if (g_error_matches(e, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT))
		return gerror_message(CUA_ERROR_STALE, what, "", e);
	return gerror_message(CUA_ERROR_BACKEND, what, "", e);
}

/* apart: over a connection of its own (atspi_call_sync_apart), for an
 * element's action, whose handler may run a nested loop (a modal
 * dialog) that must not hold the connection the checks after it use;
 * *running then tells an action whose handler runs such a loop and has
 * not answered (NULL returned, *res CUA_OK) */
static GVariant *
call_on(struct atspi_be *be, int apart, const char *bus, const char *path,
	const char *iface, const char *method, GVariant *args,
	const char *reply_type, cua_result *res, int *running)
{
	GError *e = NULL;
	GVariant *r;

	r = (apart ? atspi_call_sync_apart : atspi_call_sync)(
		be, bus, path, iface, method, args,
		reply_type ? G_VARIANT_TYPE(reply_type) : NULL,
		fetch_call_ms(be), &e);
	if (!r && running &&
	    g_error_matches(e, G_IO_ERROR, G_IO_ERROR_PENDING)) {
		cua_debug(be->base.ctx, "atspi: %s", e->message);
		g_error_free(e);
		*running = 1;
		*res = CUA_OK;
		return NULL;
	}
	if (!r) {
		*res = gerror_result(e, method);
		g_error_free(e);
		return NULL;
	}
	*res = CUA_OK;
	return r;
}

static GVariant *
sync_call(struct atspi_be *be, const char *bus, const char *path,
	  const char *iface, const char *method, GVariant *args,
	  const char *reply_type, cua_result *res)
{
	return call_on(be, 0, bus, path, iface, method, args, reply_type, res,
		       NULL);
}

static cua_result
bool_call_on(struct atspi_be *be, int apart, struct cua_live_call *c,
	     const char *bus, const char *path, const char *iface,
	     const char *method, GVariant *args)
{
	cua_result res;
	int running = 0;
	GVariant *r = call_on(be, apart, bus, path, iface, method, args, "(b)",
			      &res, &running);
	gboolean ok = FALSE;

	if (running) {
		/* the action's handler runs (a dialog it opened waits?) */
		c->running = 1;
		return CUA_OK;
	}
	if (!r)
		return res;
	g_variant_get(r, "(b)", &ok);
	g_variant_unref(r);
	c->ok = ok ? 1 : 0;
	return CUA_OK;
}

static cua_result
bool_call(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	  const char *path, const char *iface, const char *method,
	  GVariant *args)
{
	return bool_call_on(be, 0, c, bus, path, iface, method, args);
}

static cua_result
ref_call(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	 const char *path, const char *iface, const char *method,
	 GVariant *args)
{
	cua_result res;
	GVariant *r =
		sync_call(be, bus, path, iface, method, args, "((so))", &res);
	const char *rb, *rp;

	if (!r)
		return res;
	g_variant_get(r, "((&s&o))", &rb, &rp);
	c->ret_ident = is_null_path(rp) ? NULL : join_ident(rb, rp);
	c->ok = c->ret_ident != NULL;
	g_variant_unref(r);
	return CUA_OK;
}

static cua_result
int_array_call(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	       const char *path, const char *iface, const char *method)
{
	cua_result res;
	GVariant *r =
		sync_call(be, bus, path, iface, method, NULL, "(ai)", &res);
	GVariant *arr;
	const int32_t *v;
	gsize n = 0;

	if (!r)
		return res;
	arr = g_variant_get_child_value(r, 0);
	v = g_variant_get_fixed_array(arr, &n, sizeof(int32_t));
	c->ret_ints = n ? malloc(n * sizeof(int32_t)) : NULL;
	if (c->ret_ints)
		memcpy(c->ret_ints, v, n * sizeof(int32_t));
	c->n_ret_ints = c->ret_ints ? n : 0;
	c->ok = 1;
	g_variant_unref(arr);
	g_variant_unref(r);
	return CUA_OK;
}

static GVariant *
get_prop(struct atspi_be *be, const char *bus, const char *path,
	 const char *iface, const char *prop, const GVariantType *t,
	 cua_result *res)
{
	GVariant *r = sync_call(be, bus, path, IF_PROPS, "Get",
				g_variant_new("(ss)", iface, prop), "(v)", res);
	GVariant *v;

	if (!r)
		return NULL;
	v = atspi_prop_value(r, t);
	g_variant_unref(r);
	if (!v)
		*res = cua_error(CUA_ERROR_BACKEND, "%s.%s: unexpected type",
				 iface, prop);
	return v;
}

static cua_result
get_text(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	 const char *path)
{
	cua_result res;
	GVariant *v, *r;
	int32_t count, caret = -1;
	const char *s;

	v = get_prop(be, bus, path, IF_TEXT, "CharacterCount",
		     G_VARIANT_TYPE_INT32, &res);
	if (!v)
		return res;
	count = g_variant_get_int32(v);
	g_variant_unref(v);
	v = get_prop(be, bus, path, IF_TEXT, "CaretOffset",
		     G_VARIANT_TYPE_INT32, &res);
	if (v) {
		caret = g_variant_get_int32(v);
		g_variant_unref(v);
	}
	c->ret[0] = count;
	c->ret[1] = caret;
	if (count <= 0) {
		c->ret_text = g_strdup("");
		return CUA_OK;
	}
	r = sync_call(be, bus, path, IF_TEXT, "GetText",
		      g_variant_new("(ii)", 0, MIN(count, TEXT_CAP)), "(s)",
		      &res);
	if (!r)
		return res;
	g_variant_get(r, "(&s)", &s);
	c->ret_text = g_strdup(s);
	g_variant_unref(r);
	return CUA_OK;
}

static cua_result
focused_of(struct atspi_be *be, struct cua_live_call *c, const char *bus,
	   const char *path)
{
	cua_result res;
	GVariant *r, *args;
	GVariantIter *it;
	const char *rb, *rp;

	args = g_variant_new(
		"((@aii@a{ss}i@aii@asib)uib)",
		g_variant_new_fixed_array(
			G_VARIANT_TYPE_INT32,
			(int32_t[]){ 1 << CUA_STATE_FOCUSED, 0 }, 2,
			sizeof(int32_t)),
		MATCH_ALL, g_variant_new_array(G_VARIANT_TYPE("{ss}"), NULL, 0),
		MATCH_ALL,
		g_variant_new_fixed_array(G_VARIANT_TYPE_INT32,
					  (int32_t[]){ 0, 0, 0, 0 }, 4,
					  sizeof(int32_t)),
		MATCH_ALL, g_variant_new_array(G_VARIANT_TYPE_STRING, NULL, 0),
		MATCH_ALL, FALSE, SORT_CANONICAL, 1, TRUE);
	r = sync_call(be, bus, path, IF_COLLECTION, "GetMatches", args,
		      "(a(so))", &res);
	if (!r)
		return res;
	g_variant_get(r, "(a(so))", &it);
	if (g_variant_iter_next(it, "(&s&o)", &rb, &rp) && !is_null_path(rp))
		c->ret_ident = join_ident(rb, rp);
	g_variant_iter_free(it);
	g_variant_unref(r);
	c->ok = c->ret_ident != NULL;
	return CUA_OK;
}

cua_result
atspi_live_call(struct cua_backend *b, struct cua_live_call *c)
{
	struct atspi_be *be = (struct atspi_be *)b;
	char *bus = NULL;
	const char *path;
	cua_result res = CUA_OK;
	GVariant *r, *v;

	c->ok = 0;
	c->running = 0;
	c->ret[0] = c->ret[1] = c->ret[2] = 0;
	c->ret_text = c->ret_ident = NULL;
	c->ret_ints = NULL;
	c->n_ret_ints = 0;
	if (split(c->ident, &bus, &path) < 0)
		return cua_error(CUA_ERROR_INVALID_ARGUMENT,
				 "not an accessible object: %s",
				 c->ident ? c->ident : "(null)");
	switch (c->op) {
	case CUA_LIVE_DO_ACTION:
		res = bool_call_on(be, 1, c, bus, path, IF_ACTION, "DoAction",
				   g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_SET_VALUE:
		r = sync_call(be, bus, path, IF_PROPS, "Set",
			      g_variant_new("(ssv)", "org.a11y.atspi.Value",
					    "CurrentValue",
					    g_variant_new_double(c->v)),
			      NULL, &res);
		if (r) {
			c->ok = 1;
			g_variant_unref(r);
		}
		break;
	case CUA_LIVE_SET_TEXT:
		res = bool_call(be, c, bus, path, IF_EDITABLE,
				"SetTextContents",
				g_variant_new("(s)", c->text ? c->text : ""));
		break;
	case CUA_LIVE_DELETE_TEXT:
		res = bool_call(be, c, bus, path, IF_EDITABLE, "DeleteText",
				g_variant_new("(ii)", c->a, c->b));
		break;
	case CUA_LIVE_GRAB_FOCUS:
		res = bool_call(be, c, bus, path, IF_COMPONENT, "GrabFocus",
				NULL);
		break;
	case CUA_LIVE_SCROLL_TO:
		res = bool_call(be, c, bus, path, IF_COMPONENT, "ScrollTo",
				g_variant_new("(u)", SCROLL_ANYWHERE));
		break;
	case CUA_LIVE_GET_TEXT:
		res = get_text(be, c, bus, path);
		c->ok = res == CUA_OK;
		break;
	case CUA_LIVE_SET_CARET:
		res = bool_call(be, c, bus, path, IF_TEXT, "SetCaretOffset",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_GET_SELECTION:
		r = sync_call(be, bus, path, IF_TEXT, "GetNSelections", NULL,
			      "(i)", &res);
		if (!r)
			break;
		g_variant_get(r, "(i)", &c->ret[0]);
		g_variant_unref(r);
		c->ret[1] = c->ret[2] = -1;
		if (c->ret[0] > 0) {
			r = sync_call(be, bus, path, IF_TEXT, "GetSelection",
				      g_variant_new("(i)", 0), "(ii)", &res);
			if (!r)
				break;
			g_variant_get(r, "(ii)", &c->ret[1], &c->ret[2]);
			g_variant_unref(r);
		}
		c->ok = 1;
		break;
	case CUA_LIVE_ADD_SELECTION:
		res = bool_call(be, c, bus, path, IF_TEXT, "AddSelection",
				g_variant_new("(ii)", c->a, c->b));
		break;
	case CUA_LIVE_SET_SELECTION:
		res = bool_call(be, c, bus, path, IF_TEXT, "SetSelection",
				g_variant_new("(iii)", c->a, c->b, c->c));
		break;
	case CUA_LIVE_SELECT_CHILD:
		res = bool_call(be, c, bus, path, IF_SELECTION, "SelectChild",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_CLEAR_SELECTION:
		res = bool_call(be, c, bus, path, IF_SELECTION,
				"ClearSelection", NULL);
		break;
	case CUA_LIVE_ADD_ROW_SELECTION:
		res = bool_call(be, c, bus, path, IF_TABLE, "AddRowSelection",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_TABLE_CELL:
		res = ref_call(be, c, bus, path, IF_TABLE, "GetAccessibleAt",
			       g_variant_new("(ii)", c->a, c->b));
		break;
	case CUA_LIVE_TEXT_AT_POINT:
		r = sync_call(be, bus, path, IF_TEXT, "GetOffsetAtPoint",
			      g_variant_new("(iiu)", c->a, c->b, COORD_SCREEN),
			      "(i)", &res);
		if (r) {
			g_variant_get(r, "(i)", &c->ret[0]);
			c->ok = c->ret[0] >= 0;
			g_variant_unref(r);
		}
		break;
	case CUA_LIVE_CHAR_EXTENTS: {
		int32_t x, y, w, h;

		r = sync_call(be, bus, path, IF_TEXT, "GetCharacterExtents",
			      g_variant_new("(iu)", c->a, COORD_SCREEN),
			      "(iiii)", &res);
		if (r) {
			g_variant_get(r, "(iiii)", &x, &y, &w, &h);
			c->ret[0] = x;
			c->ret[1] = y;
			c->ret[2] = h;
			c->ok = h > 0 && x != INT32_MIN && y != INT32_MIN;
			g_variant_unref(r);
		}
		break;
	}
	case CUA_LIVE_HIT_TEST:
		res = ref_call(
			be, c, bus, path, IF_COMPONENT, "GetAccessibleAtPoint",
			g_variant_new("(iiu)", c->a, c->b, COORD_SCREEN));
		break;
	case CUA_LIVE_PARENT:
		v = get_prop(be, bus, path, IF_ACCESSIBLE, "Parent",
			     G_VARIANT_TYPE("(so)"), &res);
		if (v) {
			const char *rb, *rp;

			g_variant_get(v, "(&s&o)", &rb, &rp);
			c->ret_ident =
				is_null_path(rp) ? NULL : join_ident(rb, rp);
			c->ok = c->ret_ident != NULL;
			g_variant_unref(v);
		}
		break;
	case CUA_LIVE_FOCUSED:
		res = focused_of(be, c, bus, path);
		break;
	case CUA_LIVE_ROW_AT_INDEX:
		r = sync_call(be, bus, path, IF_TABLE, "GetRowAtIndex",
			      g_variant_new("(i)", c->a), "(i)", &res);
		if (r) {
			g_variant_get(r, "(i)", &c->ret[0]);
			c->ok = c->ret[0] >= 0;
			g_variant_unref(r);
		}
		break;
	case CUA_LIVE_SELECTED_ROWS:
		res = int_array_call(be, c, bus, path, IF_TABLE,
				     "GetSelectedRows");
		break;
	case CUA_LIVE_REMOVE_ROW_SELECTION:
		res = bool_call(be, c, bus, path, IF_TABLE,
				"RemoveRowSelection",
				g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_SELECTED_COUNT:
		v = get_prop(be, bus, path, IF_SELECTION, "NSelectedChildren",
			     G_VARIANT_TYPE_INT32, &res);
		if (v) {
			c->ret[0] = g_variant_get_int32(v);
			c->ok = 1;
			g_variant_unref(v);
		}
		break;
	case CUA_LIVE_SELECTED_CHILD:
		res = ref_call(be, c, bus, path, IF_SELECTION,
			       "GetSelectedChild", g_variant_new("(i)", c->a));
		break;
	case CUA_LIVE_DESELECT_SELECTED:
		res = bool_call(be, c, bus, path, IF_SELECTION,
				"DeselectSelectedChild",
				g_variant_new("(i)", c->a));
		break;
	default:
		res = cua_error(CUA_ERROR_INVALID_ARGUMENT,
				"unknown live request %d", (int)c->op);
		break;
	}
	g_free(bus);
	return res;
}
