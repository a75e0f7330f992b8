#!/usr/bin/python3
"""A small GTK 3 window for the Orca scenario: two buttons, then a text view of several sentences.

    /usr/bin/python3 gtk_fixture.py [--title T] [--lifetime SECONDS]

Focus starts on the first button; Tab goes to the second, Tab again into the text view (editable,
caret at its start). Prints {"ready": true, "title": T} once the window is shown, exits after
--lifetime seconds or on SIGTERM. The sentences are in SENTENCES (orca_session.py imports them to
know when Say All reached the end).
"""

import argparse
import json
import os
import signal
import sys

SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Pack my box with five dozen liquor jugs.",
    "How vexingly quick daft zebras jump.",
    "This last sentence ends the text.",
]
TITLE = "Harness Window"
BUTTONS = ["Save", "Discard"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--title", default=TITLE)
    p.add_argument("--lifetime", type=float, default=120)
    a = p.parse_args()

    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import GLib, Gtk

    win = Gtk.Window(title=a.title)
    win.set_default_size(500, 300)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    win.add(box)
    buttons = []
    for label in BUTTONS:
        b = Gtk.Button(label=label)
        box.add(b)
        buttons.append(b)
    view = Gtk.TextView()
    view.set_wrap_mode(Gtk.WrapMode.WORD)
    view.get_buffer().set_text(" ".join(SENTENCES))
    view.get_buffer().place_cursor(view.get_buffer().get_start_iter())
    view.get_accessible().set_name("Story")
    box.pack_start(view, True, True, 0)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    buttons[0].grab_focus()

    def ready():
        print(json.dumps({"ready": True, "title": a.title}), flush=True)
        return False

    GLib.timeout_add(100, ready)
    GLib.timeout_add(int(a.lifetime * 1000), Gtk.main_quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, Gtk.main_quit)
    Gtk.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
