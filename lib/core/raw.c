/*
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "raw.h"
#include "roles.h"

const char *
cua_raw_attr(const struct cua_raw_node *node, const char *key)
{
	for (size_t i = 0; i < node->n_attrs; i++)
		if (node->attrs[i].key && strcmp(node->attrs[i].key, key) == 0)
			return node->attrs[i].value;
	return NULL;
}

int
cua_raw_attrs_unknown(const struct cua_raw_node *node)
{
	return (node->have & CUA_HAVE_ATTRIBUTES) && node->n_attrs == 0;
}

int
cua_raw_details_unknown(const struct cua_raw_node *node)
{
	return !(node->have & (CUA_HAVE_ATTRIBUTES | CUA_HAVE_ID));
}

int
cua_raw_is_toggle_role(uint32_t role)
{
	return (cua_role_info(role)->flags & CUA_RF_TOGGLE) != 0;
}

enum cua_value_kind
cua_raw_value_kind(const struct cua_raw_node *node)
{
	if (cua_raw_is_toggle_role(node->role) ||
	    CUA_HAS_STATE(node, CUA_STATE_CHECKABLE))
		return CUA_VALUE_TOGGLE;
	if (node->ifaces & CUA_IFACE_VALUE)
		return CUA_VALUE_NUMBER;
	if (node->ifaces & (CUA_IFACE_EDITABLE_TEXT | CUA_IFACE_TEXT))
		return CUA_VALUE_STRING;
	return CUA_VALUE_NONE;
}

int
cua_raw_has_extent(const struct cua_raw_node *node)
{
	return (node->have & CUA_HAVE_EXTENTS) && node->extents.w > 0 &&
	       node->extents.h > 0 && node->extents.x > -1000000 &&
	       node->extents.y > -1000000;
}

int
cua_raw_has_area(const struct cua_raw_node *node)
{
	return (node->have & CUA_HAVE_EXTENTS) && node->extents.w > 1 &&
	       node->extents.h > 1;
}

struct cua_raw_node *
cua_raw_find_focused(struct cua_raw_node *n)
{
	struct cua_raw_node *f;

	if ((n->have & CUA_HAVE_BASIC) && CUA_HAS_STATE(n, CUA_STATE_FOCUSED))
		return n;
	for (size_t i = 0; i < n->n_children; i++)
		if ((f = cua_raw_find_focused(n->children[i])))
			return f;
	return NULL;
}

int
cua_raw_is_generated_id(const char *id)
{
	size_t len, i;

	if (!id)
		return 1;
	if (strncmp(id, "_NS:", 4) == 0)
		return 1;
	len = strlen(id);
	if (len < 14 || strncmp(id, "___object_", 10) != 0 ||
	    strcmp(id + len - 3, "___") != 0)
		return 0;
	for (i = 10; i < len - 3; i++) {
		if (id[i] < '0' || id[i] > '9')
			return 0;
	}
	return 1;
}

/* 1 when `s[0..len)` reads as `want` once GTK mnemonic markup is taken
 * out: "_" marks the next character, "__" is a literal underscore. */
static int
same_without_mnemonic(const char *s, size_t len, const char *want)
{
	size_t i = 0;

	while (i < len) {
		if (s[i] == '_' && i + 1 < len)
			i++;
		else if (s[i] == '_')
			return 0;
		if (*want != s[i])
			return 0;
		want++;
		i++;
	}
	return *want == '\0';
}

int
cua_raw_name_may_be_doubled(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n > 512)
		return 0;
	for (size_t k = n / 2; k < n; k++) {
		if (name[k] == ' ' &&
		    same_without_mnemonic(name, k, name + k + 1))
			return 1;
	}
	return 0;
}

const char *
cua_raw_name(const struct cua_raw_node *node)
{
	const char *name = node->name, *label = node->labelled_by;
	size_t n, l;

	if (!name || !label || !*label)
		return name;
	n = strlen(name);
	l = strlen(label);
	if (n < 2 * l + 1 || name[n - l - 1] != ' ' ||
	    strcmp(name + n - l, label) != 0)
		return name;
	return same_without_mnemonic(name, n - l - 1, label) ? label : name;
}
