#!/usr/bin/python3
"""A GTK 3 window holding a VTE terminal running /bin/sh, whose output Orca reads, for record_traces.py.

    /usr/bin/python3 terminal_window.py --dir DIR [--lifetime SECONDS]

The window, "Build terminal", is a Vte.Terminal (accessible role terminal, so Orca 43 reads it with
its terminal script: each insertion of output is a message of its own) running /bin/sh in DIR,
where it writes build.sh: twelve lines of a build's output, one every 0.15 s. The recording types
`sh build.sh` and presses Return, as a user runs a command. Prints {"ready": true} once the shell
runs; exits after --lifetime seconds or on SIGTERM. Needs gir1.2-vte-2.91.
"""

import os

from gtk_window import options, say

SCRIPT = "".join('echo "Compiled part %d of 12"; sleep 0.15\n' % n for n in range(1, 13)) + 'echo "Build finished"\n'


def main():
    a = options(__doc__.splitlines()[0], extra=[("--dir", str, ".")])

    import gi
    gi.require_version("Gtk", "3.0")
    gi.require_version("Vte", "2.91")
    from gi.repository import GLib, Gtk, Vte
    import signal
    import sys

    with open(os.path.join(a.dir, "build.sh"), "w") as f:
        f.write(SCRIPT)
    GLib.set_prgname("narrator-terminal")
    win = Gtk.Window(title="Build terminal")
    win.set_default_size(640, 400)
    terminal = Vte.Terminal()
    win.add(terminal)
    env = ["PS1=$ ", "HOME=" + os.environ.get("HOME", a.dir), "PATH=/usr/bin:/bin", "TERM=xterm-256color"]

    def spawned(_terminal, pid, error, *_):
        if error is None and pid > 0:
            say(ready=True, pid=pid)
        else:
            say(error=str(error))

    terminal.spawn_async(Vte.PtyFlags.DEFAULT, a.dir, ["/bin/sh"], env, GLib.SpawnFlags.DEFAULT,
                         None, None, -1, None, spawned)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    terminal.grab_focus()
    GLib.timeout_add(int(a.lifetime * 1000), Gtk.main_quit)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    Gtk.main()


if __name__ == "__main__":
    main()
