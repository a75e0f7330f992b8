#!/usr/bin/python3
"""A GTK 3 window with one of each control the AT-SPI bridge maps, for its tests.

    /usr/bin/python3 fixture.py [--lifetime SECONDS] [--hang-after-save SECONDS] [--list-rows N]

The application is named "narrator-fixture" on the accessibility bus; its window is titled
"Narrator fixture" and holds, in order: a Save button (with a tooltip), a "Remember me" check box
(checked), an entry labelled by the label "Name" (its mnemonic widget) holding "Ada", a Volume
slider from 0 to 100 at 40, a notebook with the pages General and Advanced (each with a button),
a Print button that is not sensitive, an info bar (hidden) that Save shows with "Story saved", and a
status label, "Not saved", that Save changes to "Saved".
Prints {"ready": true} once the window is shown, then a line for each change a user (or the bridge)
makes: {"clicked": "Save"}, {"volume": 41.0}, {"remember": false}, and {"focus": "Remember me"}
when its focus moves. Exits after --lifetime
seconds or on SIGTERM. With --hang-after-save, Save hangs the application (its main loop blocked,
answering nothing on the bus) for that long once the status label says "Saved", then prints
{"awake": true}: a hung application, for the bridge's tests. With --list-rows, a second window,
"Songs", holds a list of that many rows ("Song 1", "Song 2", ...) with the focus, as a GtkTreeView:
a list that manages its descendants.
"""

import argparse
import json
import signal
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lifetime", type=float, default=120)
    p.add_argument("--hang-after-save", type=float, default=0)
    p.add_argument("--list-rows", type=int, default=0)
    a = p.parse_args()

    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import GLib, Gtk

    GLib.set_prgname("narrator-fixture")
    win = Gtk.Window(title="Narrator fixture")
    win.set_default_size(500, 400)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    win.add(box)

    save = Gtk.Button(label="Save")
    save.set_tooltip_text("Saves the story")
    box.add(save)

    remember = Gtk.CheckButton(label="Remember me")
    remember.set_active(True)
    box.add(remember)

    row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
    label = Gtk.Label(label="_Name", use_underline=True)
    entry = Gtk.Entry()
    entry.set_text("Ada")
    label.set_mnemonic_widget(entry)
    row.add(label)
    row.add(entry)
    box.add(row)

    volume = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1)
    volume.set_value(40)
    volume.get_accessible().set_name("Volume")
    box.add(volume)

    notebook = Gtk.Notebook()
    for page in ("General", "Advanced"):
        notebook.append_page(Gtk.Button(label=page + " settings"), Gtk.Label(label=page))
    box.add(notebook)

    printing = Gtk.Button(label="Print")
    printing.set_sensitive(False)
    box.add(printing)

    bar = Gtk.InfoBar()
    bar.get_content_area().add(Gtk.Label(label="Story saved"))
    bar.set_no_show_all(True)
    box.add(bar)

    status = Gtk.Label(label="Not saved")
    box.add(status)

    def say(**change):
        print(json.dumps(change), flush=True)

    def saved(_):
        status.set_text("Saved")
        for child in bar.get_content_area().get_children():
            child.show()
        bar.show()
        say(clicked="Save")
        if a.hang_after_save > 0:
            import time
            time.sleep(a.hang_after_save)
            say(awake=True)

    save.connect("clicked", saved)
    volume.connect("value-changed", lambda scale: say(volume=scale.get_value()))
    remember.connect("toggled", lambda button: say(remember=button.get_active()))

    def focused(_, widget):
        if widget is not None:
            name = widget.get_accessible().get_name() or type(widget).__name__
            say(focus=name)

    win.connect("set-focus", focused)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    save.grab_focus()

    if a.list_rows > 0:
        songs = Gtk.Window(title="Songs")
        store = Gtk.ListStore(str)
        for i in range(a.list_rows):
            store.append(["Song %d" % (i + 1)])
        view = Gtk.TreeView(model=store)
        view.append_column(Gtk.TreeViewColumn("Title", Gtk.CellRendererText(), text=0))
        scroller = Gtk.ScrolledWindow()
        scroller.set_size_request(300, 300)
        scroller.add(view)
        songs.add(scroller)
        songs.show_all()
        view.grab_focus()

    def ready():
        print(json.dumps({"ready": True}), flush=True)
        return False

    GLib.idle_add(ready)
    GLib.timeout_add(int(a.lifetime * 1000), Gtk.main_quit)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    Gtk.main()


if __name__ == "__main__":
    main()
