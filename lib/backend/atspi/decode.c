/*
 * Decoding AT-SPI replies into raw nodes, for the reader (fetch_reply.c)
 * in all its modes: a live node's fingerprint must be computed exactly
 * like the walk's, or a locator step fails where nothing changed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "atspi.h"
#include "core/utf8.h"

int
atspi_is_gtype_name(const char *s)
{
	if (strncmp(s, "Gtk", 3) != 0 || !g_ascii_isupper(s[3]))
		return 0;
	for (s += 4; *s; s++)
		if (!g_ascii_isalpha(*s))
			return 0;
	return 1;
}

uint32_t
atspi_iface_bit(const char *name)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} map[] = {
		{ "Action", CUA_IFACE_ACTION },
		{ "Component", CUA_IFACE_COMPONENT },
		{ "Text", CUA_IFACE_TEXT },
		{ "EditableText", CUA_IFACE_EDITABLE_TEXT },
		{ "Value", CUA_IFACE_VALUE },
		{ "Selection", CUA_IFACE_SELECTION },
		{ "Table", CUA_IFACE_TABLE },
		{ "TableCell", CUA_IFACE_TABLE_CELL },
		{ "Hypertext", CUA_IFACE_HYPERTEXT },
		{ "Hyperlink", CUA_IFACE_HYPERLINK },
		{ "Document", CUA_IFACE_DOCUMENT },
		{ "Image", CUA_IFACE_IMAGE },
		{ "Collection", CUA_IFACE_COLLECTION },
	};

	if (g_str_has_prefix(name, "org.a11y.atspi."))
		name += strlen("org.a11y.atspi.");
	for (size_t i = 0; i < G_N_ELEMENTS(map); i++)
		if (strcmp(name, map[i].name) == 0)
			return map[i].bit;
	return 0;
}

uint64_t
atspi_decode_states(GVariant *reply)
{
	GVariantIter *it;
	uint32_t word;
	uint64_t states = 0;
	int i = 0;

	g_variant_get(reply, "(au)", &it);
	while (g_variant_iter_next(it, "u", &word)) {
		if (i < 2)
			states |= (uint64_t)word << (32 * i);
		i++;
	}
	g_variant_iter_free(it);
	return states;
}

uint32_t
atspi_decode_ifaces(GVariant *reply)
{
	GVariantIter *it;
	const char *name;
	uint32_t bits = 0;

	g_variant_get(reply, "(as)", &it);
	while (g_variant_iter_next(it, "&s", &name))
		bits |= atspi_iface_bit(name);
	g_variant_iter_free(it);
	return bits;
}

GVariant *
atspi_prop_value(GVariant *reply, const GVariantType *t)
{
	GVariant *v = NULL;

	g_variant_get(reply, "(v)", &v);
	if (v && !g_variant_is_of_type(v, t)) {
		g_variant_unref(v);
		return NULL;
	}
	return v;
}

/*
 * A copy of an app's string in `arena`, cut to ATSPI_STRING_CAP bytes at a
 * character boundary (docs/safety.md §5: any single string read from an app is
 * capped at 1 MiB before sanitising; a hostile app sent a 2 MiB name and
 * ignored the range of Text.GetText). D-Bus strings are valid UTF-8, so
 * backing up over continuation bytes finds a character start. NULL only
 * for NULL or out of memory.
 */
char *
atspi_strdup_capped(struct cua_arena *arena, const char *s)
{
	size_t len;

	if (!s)
		return NULL;
	len = strnlen(s, ATSPI_STRING_CAP + 1);
	if (len <= ATSPI_STRING_CAP)
		return cua_arena_strdup(arena, s);
	len = cua_utf8_floor(s, ATSPI_STRING_CAP);
	return cua_arena_strndup(arena, s, len);
}

int
atspi_decode_attrs(struct cua_arena *arena, struct cua_raw_node *n,
		   GVariant *reply)
{
	GVariant *dict = g_variant_get_child_value(reply, 0);
	size_t count = g_variant_n_children(dict), k = 0;
	GVariantIter it;
	const char *key, *value;
	int r = 0;

	n->attrs =
		cua_arena_alloc(arena, (count ? count : 1) * sizeof(*n->attrs));
	if (!n->attrs) {
		g_variant_unref(dict);
		return -1;
	}
	g_variant_iter_init(&it, dict);
	while (g_variant_iter_next(&it, "{&s&s}", &key, &value)) {
		n->attrs[k].key = atspi_strdup_capped(arena, key);
		n->attrs[k].value = atspi_strdup_capped(arena, value);
		if (!n->attrs[k].key || !n->attrs[k].value)
			r = -1;
		k++;
	}
	n->n_attrs = k;
	n->have |= CUA_HAVE_ATTRIBUTES;
	g_variant_unref(dict);
	return r;
}

uint32_t
atspi_caps_of(struct atspi_be *be, const char *bus)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(be->caps, bus));
}

void
atspi_caps_add(struct atspi_be *be, const char *bus, uint32_t bits)
{
	uint32_t old = atspi_caps_of(be, bus);

	if ((old & bits) == bits)
		return;
	g_hash_table_replace(be->caps, g_strdup(bus),
			     GUINT_TO_POINTER(old | bits));
}

static char *
dup_nonempty(struct cua_arena *arena, const char *s, int *oom)
{
	char *r;

	if (!s || !*s)
		return NULL;
	r = atspi_strdup_capped(arena, s);
	if (!r)
		*oom = 1;
	return r;
}

/*
 * Action.GetActions answers a(sss) = (localized name, description, key
 * binding) in the ATK adaptor, GTK 4 and Qt 5 alike (checked: `Click` where
 * GetName says `click`). In an English or C locale the localized names are
 * the raw ones up to case; otherwise, and where the localized name is
 * empty (Chromium), the raw names come from GetName(i). An entry whose
 * three strings are the same non-empty string is no answer: the adaptor
 * read the three from a toolkit that returns one shared buffer (Gecko
 * gives ";;", its key binding, three times). The first such entry marks
 * the app: from then on all its names come from GetName(i).
 */
int
atspi_decode_actions(struct atspi_be *be, const char *bus,
		     struct cua_arena *arena, struct cua_raw_node *n,
		     GVariant *reply)
{
	GVariant *arr = g_variant_get_child_value(reply, 0);
	size_t count = g_variant_n_children(arr), k = 0;
	uint32_t caps = atspi_caps_of(be, bus);
	GVariantIter it;
	const char *name, *desc, *keys;
	int oom = 0, by_index;

	g_variant_iter_init(&it, arr);
	while (!(caps & ATSPI_CAP_ACTIONS_BY_INDEX) &&
	       g_variant_iter_next(&it, "(&s&s&s)", &name, &desc, &keys))
		if (*name && strcmp(name, desc) == 0 &&
		    strcmp(name, keys) == 0) {
			atspi_caps_add(be, bus, ATSPI_CAP_ACTIONS_BY_INDEX);
			caps |= ATSPI_CAP_ACTIONS_BY_INDEX;
		}
	by_index = (caps & ATSPI_CAP_ACTIONS_BY_INDEX) != 0;
	n->actions = cua_arena_alloc(arena,
				     (count ? count : 1) * sizeof(*n->actions));
	if (!n->actions) {
		g_variant_unref(arr);
		return -1;
	}
	g_variant_iter_init(&it, arr);
	while (g_variant_iter_next(&it, "(&s&s&s)", &name, &desc, &keys)) {
		struct cua_raw_action *a = &n->actions[k++];

		memset(a, 0, sizeof(*a));
		if (by_index)
			continue;
		a->localized = dup_nonempty(arena, name, &oom);
		a->description = dup_nonempty(arena, desc, &oom);
		if (!(caps & ATSPI_CAP_ACTIONS_LOCALIZED))
			a->name = a->localized;
	}
	n->n_actions = k;
	n->have |= CUA_HAVE_ACTIONS;
	g_variant_unref(arr);
	return oom ? -1 : 0;
}
