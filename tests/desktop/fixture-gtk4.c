/*
 * A small, deterministic GTK 4 app for the desktop tests, the sibling of
 * fixture-gtk3: a menu bar with a submenu and a radio group, a row of
 * buttons with serial numbers, check buttons, a toggle button, a group
 * "Card" around a button "Inside", an entry,
 * a text view that logs the keys Return and Tab, and a list box. Every
 * user-visible effect is printed on stdout as one line; commands on stdin
 * mutate the window (the button-row commands are fixture-gtk3's, so the
 * staleness run drives both alike).
 *
 * Commands (one per line on stdin):
 *   title TEXT            set the window title
 *   rename NAME NEW       relabel the button called NAME (the last one)
 *   remove NAME           destroy the button called NAME (the last one)
 *   insert NAME           add a button NAME at the start of the button row
 *   append NAME           add a button NAME at the end of the button row
 *   reverse               reverse the order of the button row
 *   move NAME INDEX       move the button called NAME to position INDEX
 *   toggle NAME           toggle the check button called NAME
 *   select-row N          select list row N (and only it)
 *   rows N                add rows to the list box until it has N
 *   scroll-list Y         scroll the list box to Y pixels from its top
 *                         (GTK 4 announces neither the scroll nor which
 *                         rows it brings into view)
 *   glide-list Y MS       the same over MS milliseconds, a frame at a time
 *                         (as GTK's own animations, without an event)
 *   quit                  exit 0
 * Each command ends with a line "done <command>" (fixture-gtk.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture-gtk.h"
#include "fixture-say.h"

static GtkWidget *window, *button_box, *check_box, *list_box, *list_sw;
static GMainLoop *loop;
static int next_serial = 1;

static void
on_check_toggled(GtkCheckButton *b, gpointer data)
{
	say("toggled %s %s", gtk_check_button_get_label(b),
	    gtk_check_button_get_active(b) ? "on" : "off");
}

static void
on_entry_changed(GtkEditable *e, gpointer data)
{
	say("entry %s", gtk_editable_get_text(e));
}

static void
on_entry_activate(GtkEntry *e, gpointer data)
{
	say("activate entry %s", gtk_editable_get_text(GTK_EDITABLE(e)));
}

static gboolean
on_key(GtkEventControllerKey *k, guint keyval, guint code, GdkModifierType mods,
       gpointer data)
{
	if (keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter)
		say("key Return");
	else if (keyval == GDK_KEY_Tab)
		say("key Tab");
	return FALSE;
}

static void
on_rows_changed(GtkListBox *lb, gpointer data)
{
	GList *rows = gtk_list_box_get_selected_rows(lb);
	GString *s = g_string_new("selection");

	for (GList *l = rows; l; l = l->next)
		g_string_append_printf(s, " %d",
				       gtk_list_box_row_get_index(l->data));
	if (!rows)
		g_string_append(s, " none");
	say("%s", s->str);
	g_string_free(s, TRUE);
	g_list_free(rows);
}

static void
on_row_activated(GtkListBox *lb, GtkListBoxRow *row, gpointer data)
{
	say("row-activated %d", gtk_list_box_row_get_index(row));
}

/* ---- menus --------------------------------------------------------- */

static void
on_menu(GSimpleAction *a, GVariant *param, gpointer data)
{
	say("menu %s", (const char *)data);
}

static void
on_angle(GSimpleAction *a, GVariant *param, gpointer data)
{
	g_simple_action_set_state(a, param);
	say("angle %s", g_variant_get_string(param, NULL));
}

static GtkWidget *
make_menu_bar(void)
{
	GSimpleActionGroup *group = g_simple_action_group_new();
	GMenu *bar = g_menu_new(), *file = g_menu_new(),
	      *settings = g_menu_new();
	GMenu *angle = g_menu_new();
	static const char *const plain[] = { "new", "open", "language" };
	GSimpleAction *a;

	for (size_t i = 0; i < G_N_ELEMENTS(plain); i++) {
		a = g_simple_action_new(plain[i], NULL);
		g_signal_connect(a, "activate", G_CALLBACK(on_menu),
				 (gpointer)plain[i]);
		g_action_map_add_action(G_ACTION_MAP(group), G_ACTION(a));
		g_object_unref(a);
	}
	a = g_simple_action_new_stateful("angle", G_VARIANT_TYPE_STRING,
					 g_variant_new_string("degree"));
	g_signal_connect(a, "activate", G_CALLBACK(on_angle), NULL);
	g_action_map_add_action(G_ACTION_MAP(group), G_ACTION(a));
	g_object_unref(a);
	gtk_widget_insert_action_group(window, "fx", G_ACTION_GROUP(group));
	g_object_unref(group);

	g_menu_append(file, "New", "fx.new");
	g_menu_append(file, "Open", "fx.open");
	g_menu_append(angle, "Degree", "fx.angle::degree");
	g_menu_append(angle, "Radian", "fx.angle::radian");
	g_menu_append_submenu(settings, "Angle Unit", G_MENU_MODEL(angle));
	g_menu_append(settings, "Language...", "fx.language");
	g_menu_append_submenu(bar, "File", G_MENU_MODEL(file));
	g_menu_append_submenu(bar, "Settings", G_MENU_MODEL(settings));
	return gtk_popover_menu_bar_new_from_model(G_MENU_MODEL(bar));
}

/* ---- the button row ------------------------------------------------ */

static GtkWidget *
add_button(const char *label, int at_start)
{
	GtkWidget *b = gtk_button_new_with_label(label);

	g_object_set_data(G_OBJECT(b), "serial",
			  GINT_TO_POINTER(next_serial++));
	g_signal_connect(b, "clicked", G_CALLBACK(fixture_on_clicked), NULL);
	if (at_start)
		gtk_box_prepend(GTK_BOX(button_box), b);
	else
		gtk_box_append(GTK_BOX(button_box), b);
	return b;
}

static GtkWidget *
find_button(const char *label)
{
	GtkWidget *found = NULL;

	for (GtkWidget *c = gtk_widget_get_first_child(button_box); c;
	     c = gtk_widget_get_next_sibling(c))
		if (g_strcmp0(gtk_button_get_label(GTK_BUTTON(c)), label) == 0)
			found = c;
	return found;
}

static GtkWidget *
nth_button(int n)
{
	GtkWidget *c = gtk_widget_get_first_child(button_box);

	while (c && n-- > 0)
		c = gtk_widget_get_next_sibling(c);
	return c;
}

static void
move_button(GtkWidget *b, int index)
{
	GtkWidget *after;

	g_object_ref(b);
	gtk_box_remove(GTK_BOX(button_box), b);
	after = index > 0 ? nth_button(index - 1) : NULL;
	if (index > 0 && !after)
		gtk_box_append(GTK_BOX(button_box), b);
	else
		gtk_box_insert_child_after(GTK_BOX(button_box), b, after);
	g_object_unref(b);
}

static GtkWidget *
find_check(const char *label)
{
	for (GtkWidget *c = gtk_widget_get_first_child(check_box); c;
	     c = gtk_widget_get_next_sibling(c))
		if (GTK_IS_CHECK_BUTTON(c) &&
		    g_strcmp0(gtk_check_button_get_label(GTK_CHECK_BUTTON(c)),
			      label) == 0)
			return c;
	return NULL;
}

/* ---- the command channel (fixture-gtk.h) ----------------------- */

static void
quit(void)
{
	g_main_loop_quit(loop);
}

static void
remove_button(GtkWidget *b)
{
	gtk_box_remove(GTK_BOX(button_box), b);
}

static void
reverse_buttons(void)
{
	GtkWidget *c = gtk_widget_get_first_child(button_box), *next;

	for (; c; c = next) {
		next = gtk_widget_get_next_sibling(c);
		move_button(c, 0);
	}
}

static void
toggle_check(const char *label)
{
	GtkWidget *c = find_check(label);

	if (c)
		gtk_check_button_set_active(
			GTK_CHECK_BUTTON(c),
			!gtk_check_button_get_active(GTK_CHECK_BUTTON(c)));
}

/* Rows "Row 00", "Row 01", … appended until the list box has `n`. */
static void
add_rows(int n)
{
	int have = 0;

	while (gtk_list_box_get_row_at_index(GTK_LIST_BOX(list_box), have))
		have++;
	for (int i = have; i < n && i < 1000; i++) {
		gchar *t = g_strdup_printf("Row %02d", i);

		gtk_list_box_append(GTK_LIST_BOX(list_box), gtk_label_new(t));
		g_free(t);
	}
}

/* glide-list: from where the list was to `to`, over `us`. */
struct glide {
	double from, to;
	gint64 start, us;
};

static gboolean
glide_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
	struct glide *g = data;
	GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment(
		GTK_SCROLLED_WINDOW(widget));
	gint64 now = gdk_frame_clock_get_frame_time(clock);
	double f = g->us > 0 ? (double)(now - g->start) / (double)g->us : 1;

	if (f >= 1) {
		gtk_adjustment_set_value(adj, g->to);
		g_free(g);
		return G_SOURCE_REMOVE;
	}
	gtk_adjustment_set_value(adj, g->from + (g->to - g->from) * f);
	return G_SOURCE_CONTINUE;
}

/* The commands of this fixture only. */
static void
command(gchar **w)
{
	if (strcmp(w[0], "select-row") == 0 && w[1]) {
		GtkListBoxRow *row = gtk_list_box_get_row_at_index(
			GTK_LIST_BOX(list_box), atoi(w[1]));

		gtk_list_box_unselect_all(GTK_LIST_BOX(list_box));
		if (row)
			gtk_list_box_select_row(GTK_LIST_BOX(list_box), row);
	} else if (strcmp(w[0], "rows") == 0 && w[1]) {
		add_rows(atoi(w[1]));
	} else if (strcmp(w[0], "scroll-list") == 0 && w[1]) {
		gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(
						 GTK_SCROLLED_WINDOW(list_sw)),
					 g_ascii_strtod(w[1], NULL));
	} else if (strcmp(w[0], "glide-list") == 0 && w[1] && w[2]) {
		struct glide *g = g_new0(struct glide, 1);

		g->from = gtk_adjustment_get_value(
			gtk_scrolled_window_get_vadjustment(
				GTK_SCROLLED_WINDOW(list_sw)));
		g->to = g_ascii_strtod(w[1], NULL);
		g->start = g_get_monotonic_time();
		g->us = (gint64)atoi(w[2]) * 1000;
		gtk_widget_add_tick_callback(list_sw, glide_tick, g, NULL);
	}
}

static struct fixture_toolkit toolkit = {
	.window = &window,
	.quit = quit,
	.find_button = find_button,
	.add_button = add_button,
	.remove_button = remove_button,
	.move_button = move_button,
	.reverse_buttons = reverse_buttons,
	.toggle_check = toggle_check,
	.command = command,
};

static GtkWidget *
make_list(void)
{
	GtkWidget *sw = gtk_scrolled_window_new();

	list_sw = sw;
	list_box = gtk_list_box_new();
	gtk_list_box_set_selection_mode(GTK_LIST_BOX(list_box),
					GTK_SELECTION_MULTIPLE);
	gtk_list_box_set_activate_on_single_click(GTK_LIST_BOX(list_box),
						  FALSE);
	add_rows(12);
	g_signal_connect(list_box, "selected-rows-changed",
			 G_CALLBACK(on_rows_changed), NULL);
	g_signal_connect(list_box, "row-activated",
			 G_CALLBACK(on_row_activated), NULL);
	gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(sw), list_box);
	gtk_widget_set_size_request(sw, 160, 200);
	return sw;
}

/* GTK 4.8 warns on every position request under X11 ("Screen
 * coordinates not supported"): the tests read positions on purpose */
static GLogWriterOutput
quiet_writer(GLogLevelFlags level, const GLogField *fields, gsize n,
	     gpointer data)
{
	for (gsize i = 0; i < n; i++)
		if (strcmp(fields[i].key, "MESSAGE") == 0 &&
		    fields[i].length < 0 &&
		    strstr(fields[i].value, "Screen coordinates not supported"))
			return G_LOG_WRITER_HANDLED;
	return g_log_writer_default(level, fields, n, data);
}

int
main(int argc, char **argv)
{
	GtkWidget *vbox, *w, *hbox, *entry, *view, *sw;
	GtkEventController *keys;
	GIOChannel *ch;

	g_log_set_writer_func(quiet_writer, NULL, NULL);
	gtk_init();
	g_set_prgname("fixture-gtk4");
	loop = g_main_loop_new(NULL, FALSE);
	window = gtk_window_new();
	gtk_window_set_title(GTK_WINDOW(window), "libcua fixture gtk4");
	gtk_window_set_default_size(GTK_WINDOW(window), 700, 500);
	g_signal_connect_swapped(window, "destroy",
				 G_CALLBACK(g_main_loop_quit), loop);

	vbox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
	gtk_window_set_child(GTK_WINDOW(window), vbox);
	gtk_box_append(GTK_BOX(vbox), make_menu_bar());

	button_box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
	gtk_box_append(GTK_BOX(vbox), button_box);
	add_button("Alpha", 0);
	add_button("Beta", 0);
	add_button("Gamma", 0);

	check_box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
	gtk_box_append(GTK_BOX(vbox), check_box);
	w = gtk_check_button_new_with_label("Check me");
	gtk_check_button_set_active(GTK_CHECK_BUTTON(w), TRUE);
	g_signal_connect(w, "toggled", G_CALLBACK(on_check_toggled), NULL);
	gtk_box_append(GTK_BOX(check_box), w);
	w = gtk_check_button_new_with_label("Unchecked box");
	g_signal_connect(w, "toggled", G_CALLBACK(on_check_toggled), NULL);
	gtk_box_append(GTK_BOX(check_box), w);
	w = gtk_toggle_button_new_with_label("Toggle");
	g_signal_connect(w, "toggled", G_CALLBACK(fixture_on_toggled), NULL);
	gtk_box_append(GTK_BOX(check_box), w);
	/* a named group with no action around a button */
	{
		GtkWidget *card = g_object_new(GTK_TYPE_BOX, "accessible-role",
					       GTK_ACCESSIBLE_ROLE_GROUP, NULL);
		GtkWidget *inside = gtk_button_new_with_label("Inside");

		gtk_accessible_update_property(GTK_ACCESSIBLE(card),
					       GTK_ACCESSIBLE_PROPERTY_LABEL,
					       "Card", -1);
		g_signal_connect(inside, "clicked",
				 G_CALLBACK(fixture_on_clicked), NULL);
		gtk_box_append(GTK_BOX(card), inside);
		gtk_box_append(GTK_BOX(check_box), card);
	}

	entry = gtk_entry_new();
	gtk_editable_set_text(GTK_EDITABLE(entry), "hello fixture");
	gtk_accessible_update_property(GTK_ACCESSIBLE(entry),
				       GTK_ACCESSIBLE_PROPERTY_LABEL, "Name",
				       -1);
	g_signal_connect(entry, "changed", G_CALLBACK(on_entry_changed), NULL);
	g_signal_connect(entry, "activate", G_CALLBACK(on_entry_activate),
			 NULL);
	gtk_box_append(GTK_BOX(vbox), entry);

	hbox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
	gtk_widget_set_vexpand(hbox, TRUE);
	gtk_box_append(GTK_BOX(vbox), hbox);
	view = gtk_text_view_new();
	gtk_accessible_update_property(GTK_ACCESSIBLE(view),
				       GTK_ACCESSIBLE_PROPERTY_LABEL, "Notes",
				       -1);
	keys = gtk_event_controller_key_new();
	gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
	g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), NULL);
	gtk_widget_add_controller(view, keys);
	g_signal_connect(gtk_text_view_get_buffer(GTK_TEXT_VIEW(view)),
			 "changed", G_CALLBACK(fixture_on_text_changed), NULL);
	sw = gtk_scrolled_window_new();
	gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(sw), view);
	gtk_widget_set_hexpand(sw, TRUE);
	gtk_box_append(GTK_BOX(hbox), sw);
	gtk_box_append(GTK_BOX(hbox), make_list());

	gtk_window_present(GTK_WINDOW(window));
	ch = g_io_channel_unix_new(0);
	g_io_add_watch(ch, G_IO_IN | G_IO_HUP | G_IO_ERR, fixture_on_command,
		       &toolkit);
	say("ready");
	g_main_loop_run(loop);
	return 0;
}
