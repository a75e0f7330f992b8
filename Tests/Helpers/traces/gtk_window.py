"""What the trace recordings' GTK windows share: their options, the JSON lines they print, and
showing a window and running it for its lifetime (or until SIGTERM)."""

import argparse
import json
import signal
import sys


def options(description, extra=()):
    """Parses --lifetime and --start (and any (flag, type, default) in `extra`)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--lifetime", type=float, default=120)
    p.add_argument("--start", type=float, default=3.0)
    for flag, kind, default in extra:
        p.add_argument(flag, type=kind, default=default)
    return p.parse_args()


def say(**obj):
    """One JSON line on stdout, flushed: record_traces.py reads them as they come."""
    print(json.dumps(obj), flush=True)


def run(win, focus, start, a):
    """Shows `win` with `focus` focused, prints {"ready": true}, calls `start` after --start
    seconds, and quits after --lifetime seconds or on SIGTERM."""
    from gi.repository import GLib, Gtk

    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    focus.grab_focus()
    GLib.idle_add(lambda: say(ready=True) and False)
    GLib.timeout_add(int(a.start * 1000), start)
    GLib.timeout_add(int(a.lifetime * 1000), Gtk.main_quit)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    Gtk.main()
