/*
 * The `Accessibility unavailable:` note (docs/safety.md §7): an app whose
 * elements cannot be read, and what would make them readable, chosen by
 * toolkit facts (docs/toolkits.md §1.2, §1.3).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "a11y_note.h"
#include "sanitize.h"
#include "strbuf.h"

static int
has(const char *s, const char *word)
{
	return s && strcasestr(s, word) != NULL;
}

/* A Flatpak app runs in a sandbox whose /.flatpak-info its process sees. */
static int
is_flatpak(int64_t pid)
{
	char path[64];

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%lld/root/.flatpak-info",
		 (long long)pid);
	return access(path, F_OK) == 0;
}

/*
 * The toolkit of a process that is not on the accessibility bus (so has
 * no toolkit attribute): the libraries it has mapped. The X Toolkit
 * (Xt: Athena, Motif apps) counts only when nothing else is there: it has
 * no accessibility bridge, while a GTK or Qt process may map it too.
 */
static const char *
toolkit_of_process(int64_t pid)
{
	static const struct {
		const char *lib, *toolkit;
	} libs[] = {
		{ "libQt5Core", "Qt" },        { "libQt6Core", "Qt" },
		{ "libjvm", "Java" },          { "libcef", "Chromium" },
		{ "libelectron", "Electron" }, { "/chromium/", "Chromium" },
		{ "/electron", "Electron" },
	};
	char path[64], line[512];
	const char *found = NULL;
	int xt = 0, gtk = 0;
	FILE *f;

	if (pid <= 0)
		return NULL;
	snprintf(path, sizeof(path), "/proc/%lld/maps", (long long)pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
			if (strstr(line, libs[i].lib)) {
				found = libs[i].toolkit;
				break;
			}
		xt |= strstr(line, "/libXt.so") != NULL;
		gtk |= strstr(line, "/libgtk-") != NULL ||
		       strstr(line, "/libatk-bridge") != NULL;
	}
	fclose(f);
	if (!found && xt && !gtk)
		found = CUA_A11Y_TOOLKIT_XT;
	return found;
}

int
cua_a11y_never_registers(const char *toolkit, int64_t pid)
{
	if (!toolkit || !*toolkit)
		toolkit = toolkit_of_process(pid);
	return toolkit && strcmp(toolkit, CUA_A11Y_TOOLKIT_XT) == 0;
}

const char *
cua_a11y_remedy(const char *toolkit, const char *exe, int64_t pid)
{
	if (!toolkit || !*toolkit)
		toolkit = toolkit_of_process(pid);
	if (toolkit && strcmp(toolkit, CUA_A11Y_TOOLKIT_XT) == 0)
		return NULL;
	if (has(toolkit, "chrom") || has(toolkit, "electron") ||
	    has(exe, "chrom") || has(exe, "electron"))
		return "--force-renderer-accessibility";
	if (has(toolkit, "qt"))
		return "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 and the AT_SPI_BUS property on the X root window set to the accessibility bus address";
	if (has(toolkit, "java") || has(exe, "java"))
		return "the ATK wrapper, -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper";
	if (is_flatpak(pid))
		return "it runs in a Flatpak sandbox, whose accessibility registration can carry another pid than its window; restart it with --talk-name=org.a11y.Bus";
	return "unset NO_AT_BRIDGE";
}

char *
cua_a11y_note(const char *name, const char *toolkit, const char *exe,
	      int64_t pid)
{
	struct strbuf sb = STRBUF_INIT;
	const char *remedy = cua_a11y_remedy(toolkit, exe, pid);

	sb_add(&sb, "Accessibility unavailable: '");
	cua_sanitize_sb(&sb, name && *name ? name : "the app");
	if (!remedy) {
		sb_add(&sb, "' exposes no accessibility tree, so only the "
			    "screenshot, coordinate clicks and keys work. Its "
			    "toolkit, the X Toolkit (Xt), has no accessibility "
			    "support: its elements cannot be read.");
		return sb_steal(&sb);
	}
	sb_addf(&sb,
		"' exposes no accessibility tree, so only the screenshot, "
		"coordinate clicks and keys work. To get its elements, the "
		"user can restart it with accessibility enabled (%s).",
		remedy);
	return sb_steal(&sb);
}
