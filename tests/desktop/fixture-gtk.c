/*
 * What the GTK fixtures share (fixture-gtk.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "fixture-gtk.h"
#include "fixture-say.h"

void
fixture_on_clicked(GtkButton *b, gpointer data)
{
	int serial = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(b), "serial"));

	(void)data;
	if (serial)
		say("clicked %s #%d", gtk_button_get_label(b), serial);
	else
		say("clicked %s", gtk_button_get_label(b));
}

void
fixture_on_toggled(GtkToggleButton *b, gpointer data)
{
	(void)data;
	say("toggled %s %s", gtk_button_get_label(GTK_BUTTON(b)),
	    gtk_toggle_button_get_active(b) ? "on" : "off");
}

void
fixture_on_text_changed(GtkTextBuffer *buf, gpointer data)
{
	GtkTextIter a, b;
	gchar *text, *esc;

	(void)data;
	gtk_text_buffer_get_bounds(buf, &a, &b);
	text = gtk_text_buffer_get_text(buf, &a, &b, FALSE);
	esc = g_strescape(text, NULL);
	say("text %s", esc);
	g_free(esc);
	g_free(text);
}

/* The commands both fixtures share; 0 when `w` is none of them. */
static int
shared_command(const struct fixture_toolkit *tk, gchar **w)
{
	GtkWidget *b;

	if (strcmp(w[0], "title") == 0 && w[1]) {
		gchar *t = g_strjoin(" ", w[1], w[2], NULL);

		gtk_window_set_title(GTK_WINDOW(*tk->window), t);
		g_free(t);
	} else if (strcmp(w[0], "rename") == 0 && w[1] && w[2]) {
		if ((b = tk->find_button(w[1])))
			gtk_button_set_label(GTK_BUTTON(b), w[2]);
	} else if (strcmp(w[0], "remove") == 0 && w[1]) {
		if ((b = tk->find_button(w[1])))
			tk->remove_button(b);
	} else if (strcmp(w[0], "insert") == 0 && w[1]) {
		tk->add_button(w[1], 1);
	} else if (strcmp(w[0], "append") == 0 && w[1]) {
		tk->add_button(w[1], 0);
	} else if (strcmp(w[0], "move") == 0 && w[1] && w[2]) {
		if ((b = tk->find_button(w[1])))
			tk->move_button(b, atoi(w[2]));
	} else if (strcmp(w[0], "reverse") == 0) {
		tk->reverse_buttons();
	} else if (strcmp(w[0], "toggle") == 0 && w[1]) {
		gchar *name = g_strjoin(" ", w[1], w[2], NULL);

		tk->toggle_check(name);
		g_free(name);
	} else if (strcmp(w[0], "quit") == 0) {
		tk->quit();
	} else {
		return 0;
	}
	return 1;
}

gboolean
fixture_on_command(GIOChannel *ch, GIOCondition cond, gpointer data)
{
	const struct fixture_toolkit *tk = data;
	gchar *line = NULL, **w;
	gsize len;
	GIOStatus st = g_io_channel_read_line(ch, &line, &len, NULL, NULL);

	(void)cond;
	if (st == G_IO_STATUS_EOF || st == G_IO_STATUS_ERROR) {
		tk->quit();
		return FALSE;
	}
	if (!line)
		return TRUE;
	g_strchomp(line);
	w = g_strsplit(line, " ", 3);
	if (w[0] && !shared_command(tk, w))
		tk->command(w);
	say("done %s", w[0] ? w[0] : "");
	g_strfreev(w);
	g_free(line);
	return TRUE;
}
