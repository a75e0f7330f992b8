#!/usr/bin/python3
"""A GTK 3 window with a progress bar that advances every 200 ms, for record_traces.py.

    /usr/bin/python3 progress_window.py [--lifetime SECONDS] [--start SECONDS] [--step-ms MS]

The window, "Downloads", holds a progress bar named "Downloading report.pdf" and a Cancel button
with the focus. After --start seconds the bar advances 1 percent every --step-ms (200) ms, from 0
to 100 (20 s); then its name becomes "Download complete". Orca 43 speaks progress bar updates of
the active application on its own (settings speakProgressBarUpdates, progressBarUpdateInterval,
progressBarVerbosity). Prints {"ready": true}, {"percent": N} every 10 percent, {"done": true};
exits after --lifetime seconds or on SIGTERM.
"""

from gtk_window import options, run, say


def main():
    a = options(__doc__.splitlines()[0], [("--step-ms", int, 200)])

    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import GLib, Gtk

    GLib.set_prgname("narrator-downloads")
    win = Gtk.Window(title="Downloads")
    win.set_default_size(400, 150)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    win.add(box)
    bar = Gtk.ProgressBar()
    bar.get_accessible().set_name("Downloading report.pdf")
    box.add(bar)
    cancel = Gtk.Button(label="Cancel")
    box.add(cancel)

    state = {"percent": 0}

    def advance():
        state["percent"] += 1
        bar.set_fraction(state["percent"] / 100.0)
        if state["percent"] % 10 == 0:
            say(percent=state["percent"])
        if state["percent"] >= 100:
            bar.get_accessible().set_name("Download complete")
            say(done=True)
            return False
        return True

    def start():
        GLib.timeout_add(a.step_ms, advance)
        return False

    run(win, cancel, start, a)


if __name__ == "__main__":
    main()
