/*
 * A GTK3 window for the screenshot and settle tests: a drawing area
 * painted with a known pattern (four flat quadrants), a button and a
 * label, and a command channel on stdin. Every effect is printed on
 * stdout as one line.
 *
 * Usage: fixture-shot [--title T] [--cover] [--resizable]
 *   --cover      paint the whole area magenta (a window used to cover
 *                another)
 *   --resizable  let the window be resized (and maximised)
 *
 * Commands (one per line on stdin):
 *   move X Y              move the window (root coordinates of its frame)
 *   label TEXT MS         set the label to TEXT after MS milliseconds
 *   busy-label TEXT MS    announce BUSY on the window now, set the label
 *                         and withdraw BUSY after MS milliseconds
 *   raise                 present the window
 *   grab / ungrab         grab the X server (all other clients wait) /
 *                         release it
 *   quit                  exit 0
 * Output: "ready <xid>", "moved", "label TEXT", "clicked", "grabbed",
 * "pressed X Y" (a button press on the pattern, pattern coordinates).
 *
 * As a Wayland client it prints "ready 0" and ignores move, grab and
 * ungrab (a Wayland client cannot place its window or grab the server:
 * tests move it through the compositor).
 *
 * SPDX-License-Identifier: MIT
 */
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture-say.h"

/* The pattern: quadrants of the drawing area (tests check these). */
#define AREA_W 400
#define AREA_H 240

static GtkWidget *window, *label;
static int cover;

/* 1 on an X server (else a Wayland compositor) */
static int
on_x11(void)
{
#ifdef GDK_WINDOWING_X11
	return GDK_IS_X11_DISPLAY(gdk_display_get_default());
#else
	return 0;
#endif
}

static gboolean
on_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	int aw = gtk_widget_get_allocated_width(w);
	int ah = gtk_widget_get_allocated_height(w);

	if (cover) {
		cairo_set_source_rgb(cr, 1, 0, 1);
		cairo_paint(cr);
		return TRUE;
	}
	cairo_set_source_rgb(cr, 1, 0, 0); /* top left: red */
	cairo_rectangle(cr, 0, 0, aw / 2, ah / 2);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0, 1, 0); /* top right: green */
	cairo_rectangle(cr, aw / 2, 0, aw - aw / 2, ah / 2);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0, 0, 1); /* bottom left: blue */
	cairo_rectangle(cr, 0, ah / 2, aw / 2, ah - ah / 2);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 1, 1, 0); /* bottom right: yellow */
	cairo_rectangle(cr, aw / 2, ah / 2, aw - aw / 2, ah - ah / 2);
	cairo_fill(cr);
	return TRUE;
}

static gboolean
on_press(GtkWidget *w, GdkEventButton *ev, gpointer data)
{
	if (ev->type == GDK_BUTTON_PRESS)
		say("pressed %.0f %.0f", ev->x, ev->y);
	return TRUE;
}

static void
on_clicked(GtkButton *b, gpointer data)
{
	say("clicked");
}

struct later {
	char *text;
	int busy;
};

static gboolean
on_later(gpointer data)
{
	struct later *l = data;

	gtk_label_set_text(GTK_LABEL(label), l->text);
	if (l->busy)
		atk_object_notify_state_change(
			gtk_widget_get_accessible(window), ATK_STATE_BUSY,
			FALSE);
	say("label %s", l->text);
	g_free(l->text);
	g_free(l);
	return G_SOURCE_REMOVE;
}

static gboolean
on_stdin(GIOChannel *ch, GIOCondition cond, gpointer data)
{
	char *line = NULL;
	gsize len = 0;
	GIOStatus st = g_io_channel_read_line(ch, &line, &len, NULL, NULL);

	if (st != G_IO_STATUS_NORMAL) {
		gtk_main_quit();
		return FALSE;
	}
	g_strchomp(line);
	if (strncmp(line, "move ", 5) == 0 && on_x11()) {
		int x = 0, y = 0;

		if (sscanf(line + 5, "%d %d", &x, &y) == 2) {
			gtk_window_move(GTK_WINDOW(window), x, y);
			gdk_display_sync(gdk_display_get_default());
			say("moved");
		}
	} else if (strncmp(line, "label ", 6) == 0 ||
		   strncmp(line, "busy-label ", 11) == 0) {
		struct later *l = g_new0(struct later, 1);
		char *args = strchr(line, ' ') + 1, *sp = strrchr(args, ' ');
		int ms = sp ? atoi(sp + 1) : 0;

		l->busy = line[0] == 'b';
		l->text =
			g_strndup(args, sp ? (gsize)(sp - args) : strlen(args));
		if (l->busy)
			atk_object_notify_state_change(
				gtk_widget_get_accessible(window),
				ATK_STATE_BUSY, TRUE);
		g_timeout_add(ms, on_later, l);
#ifdef GDK_WINDOWING_X11
	} else if (strcmp(line, "grab") == 0 && on_x11()) {
		gdk_x11_display_grab(gdk_display_get_default());
		gdk_display_sync(gdk_display_get_default());
		say("grabbed");
	} else if (strcmp(line, "ungrab") == 0 && on_x11()) {
		gdk_x11_display_ungrab(gdk_display_get_default());
		gdk_display_flush(gdk_display_get_default());
#endif
	} else if (strcmp(line, "raise") == 0) {
		gtk_window_present(GTK_WINDOW(window));
	} else if (strcmp(line, "quit") == 0) {
		gtk_main_quit();
	}
	g_free(line);
	return TRUE;
}

static gboolean
on_mapped(gpointer data)
{
	unsigned long xid = 0;

#ifdef GDK_WINDOWING_X11
	if (on_x11())
		xid = gdk_x11_window_get_xid(gtk_widget_get_window(window));
#endif
	say("ready 0x%lx", xid);
	return G_SOURCE_REMOVE;
}

int
main(int argc, char **argv)
{
	const char *title = "libcua shot fixture";
	GtkWidget *box, *area, *button;
	GIOChannel *in;
	int resizable = 0;

	gtk_init(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--title") == 0 && i + 1 < argc)
			title = argv[++i];
		else if (strcmp(argv[i], "--cover") == 0)
			cover = 1;
		else if (strcmp(argv[i], "--resizable") == 0)
			resizable = 1;
	}
	window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
	gtk_window_set_title(GTK_WINDOW(window), title);
	gtk_window_set_resizable(GTK_WINDOW(window), resizable);
	box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	area = gtk_drawing_area_new();
	gtk_widget_set_size_request(area, AREA_W, AREA_H);
	atk_object_set_name(gtk_widget_get_accessible(area), "Pattern");
	atk_object_set_role(gtk_widget_get_accessible(area), ATK_ROLE_IMAGE);
	g_signal_connect(area, "draw", G_CALLBACK(on_draw), NULL);
	gtk_widget_add_events(area, GDK_BUTTON_PRESS_MASK);
	g_signal_connect(area, "button-press-event", G_CALLBACK(on_press),
			 NULL);
	gtk_box_pack_start(GTK_BOX(box), area, FALSE, FALSE, 0);
	button = gtk_button_new_with_label("Press");
	g_signal_connect(button, "clicked", G_CALLBACK(on_clicked), NULL);
	gtk_box_pack_start(GTK_BOX(box), button, FALSE, FALSE, 0);
	label = gtk_label_new("initial");
	gtk_box_pack_start(GTK_BOX(box), label, FALSE, FALSE, 0);
	gtk_container_add(GTK_CONTAINER(window), box);
	g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

	in = g_io_channel_unix_new(0);
	g_io_add_watch(in, G_IO_IN | G_IO_HUP, on_stdin, NULL);
	gtk_widget_show_all(window);
	g_timeout_add(200, on_mapped, NULL);
	gtk_main();
	return 0;
}
