/*
 * What the GTK fixtures (fixture-gtk3, fixture-gtk4) share: the reports
 * of the events both toolkits signal alike, and the command channel, one
 * command a line on stdin, split into its first three words, answered
 * with a line "done <command>". The button-row and check-box commands
 * (title, rename, remove, insert, append, move, reverse, toggle, quit)
 * are read here for both; each fixture says how its toolkit does them and
 * handles its own commands.
 *
 * fixture-gtk.c is compiled into each fixture against its own GTK.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CUA_TEST_FIXTURE_GTK_H
#define CUA_TEST_FIXTURE_GTK_H

#include <gtk/gtk.h>

/* Signal handlers that print the event (fixture-say.h): "clicked LABEL
 * #SERIAL" (the button's "serial" data; without one, "clicked LABEL"),
 * "toggled LABEL on|off", "text ESCAPED-TEXT" for a text buffer. */
void
fixture_on_clicked(GtkButton *b, gpointer data);

void
fixture_on_toggled(GtkToggleButton *b, gpointer data);

void
fixture_on_text_changed(GtkTextBuffer *buf, gpointer data);

struct fixture_toolkit {
	GtkWidget **window; /* the main window, for `title` */
	void (*quit)(void);
	/* the button row: the button labelled `label` (NULL: none) */
	GtkWidget *(*find_button)(const char *label);
	GtkWidget *(*add_button)(const char *label, int at_start);
	void (*remove_button)(GtkWidget *b);
	void (*move_button)(GtkWidget *b, int index);
	void (*reverse_buttons)(void);
	/* the check box labelled `label`, flipped */
	void (*toggle_check)(const char *label);
	/* the fixture's own commands: w[0], w[1] and w[2] (NULL when the
	 * line has fewer words); a command it does not know does nothing */
	void (*command)(gchar **w);
};

/* The GIOFunc watching stdin; `data` is the fixture's struct
 * fixture_toolkit. */
gboolean
fixture_on_command(GIOChannel *ch, GIOCondition cond, gpointer data);

#endif
