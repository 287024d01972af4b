/*
 * Fuzzes the press_key grammar (lib/core/keys.c, xdotool key syntax):
 * the first byte chooses the CUA_KEYS_* flags, the rest is the argument.
 * Checks what the header promises: a parsed sequence is non-empty and
 * within the limits, every keysym has a name that maps back to it, and a
 * failure leaves an empty sequence and a message without control
 * characters.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "core/ctx.h"
#include "core/keys.h"
#include "fuzz-common.h"

static void
check_message(const char *m)
{
	if (!m || !*m)
		abort();
	for (const unsigned char *p = (const unsigned char *)m; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cua_key_seq seq = { (void *)1, 99 };
	uint32_t flags;
	cua_result r;
	char *key;

	if (size < 1)
		return 0;
	flags = data[0] & (CUA_KEYS_SUPER_IS_SUPER | CUA_KEYS_NO_DENYLIST);
	key = fuzz_strndup(data + 1, size - 1);

	r = cua_keys_parse(key, flags, &seq);
	if (r == CUA_OK) {
		if (!seq.chords || seq.n == 0 || seq.n > CUA_KEYS_MAX_CHORDS)
			abort();
		for (size_t i = 0; i < seq.n; i++) {
			const struct cua_key_chord *c = &seq.chords[i];
			const char *name = cua_keysym_name(c->keysym);

			if (c->n_mods > CUA_KEY_MAX_MODS || c->keysym == 0)
				abort();
			if (!name || !*name)
				abort();
			if (strncmp(name, "0x", 2) != 0 &&
			    cua_keysym_from_name(name) != c->keysym)
				abort();
			for (size_t m = 0; m < c->n_mods; m++)
				if (!cua_keysym_name(c->mod_keysyms[m]))
					abort();
			/* the built-in denylist was applied */
			if (!(flags & CUA_KEYS_NO_DENYLIST) &&
			    cua_keys_refusal(c))
				abort();
		}
	} else {
		if (seq.chords || seq.n)
			abort();
		if (r != CUA_ERROR_INVALID_ARGUMENT &&
		    r != CUA_ERROR_PERMISSION && r != CUA_ERROR_NOMEM)
			abort();
		check_message(cua_error_get());
	}
	cua_keys_free(&seq);

	/* the name lookups on their own */
	(void)cua_keysym_from_name(key);
	if (size >= 5) {
		uint32_t ks;

		memcpy(&ks, data + 1, sizeof(ks));
		if (!cua_keysym_name(ks))
			abort();
	}
	free(key);
	return 0;
}
