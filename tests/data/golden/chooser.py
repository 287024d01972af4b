"""A GTK 3 file-chooser dialog on the directory given as argument, for
tools/record-goldens (GTK 3 tree view rows and cells)."""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

dialog = Gtk.FileChooserDialog(title="Open File",
                               action=Gtk.FileChooserAction.OPEN)
dialog.add_buttons("_Cancel", Gtk.ResponseType.CANCEL,
                   "_Open", Gtk.ResponseType.ACCEPT)
dialog.set_current_folder(sys.argv[1])
dialog.set_default_size(800, 600)
dialog.run()
