#!/usr/bin/python3
"""A GTK 3 chat window whose incoming lines Orca reads, for record_traces.py.

    /usr/bin/python3 chat_window.py [--lifetime SECONDS] [--start SECONDS]

The window, "Team chat", holds the conversation (a list of labels) and a compose entry with the
focus. After --start seconds, lines arrive as a group chat bursts: eight within 2 s, a pause, then
three more. Each incoming line is a label whose accessible role is "notification", shown as it
arrives: Orca 43 speaks a notification when it becomes showing (default.py, onShowingChanged), as
it does for desktop notifications; it does not speak text appended to a view that lacks focus.
Prints {"ready": true} once shown, {"line": N, "text": ...} per incoming line, {"done": true}
after the last; exits after --lifetime seconds or on SIGTERM.
"""

from gtk_window import options, run, say

LINES = [
    (0.0, "Ana: are you coming tonight?"),
    (0.25, "Ben: yes, at eight"),
    (0.5, "Ana: great"),
    (0.75, "Chloe: I will be late"),
    (1.0, "Ben: no problem"),
    (1.25, "Dev: can someone bring the speaker?"),
    (1.5, "Ana: I have one"),
    (1.75, "Chloe: see you there"),
    (5.0, "Ben: should we book a table?"),
    (5.4, "Ana: already done"),
    (6.2, "Chloe: perfect"),
]


def main():
    a = options(__doc__.splitlines()[0])

    import gi
    gi.require_version("Gtk", "3.0")
    gi.require_version("Atk", "1.0")
    from gi.repository import Atk, GLib, Gtk

    GLib.set_prgname("narrator-chat")
    win = Gtk.Window(title="Team chat")
    win.set_default_size(500, 400)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    win.add(box)
    conversation = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=2)
    box.pack_start(conversation, True, True, 0)
    compose = Gtk.Entry()
    compose.get_accessible().set_name("Message")
    box.add(compose)

    def arrive(i):
        text = LINES[i][1]
        label = Gtk.Label(label=text, xalign=0)
        label.get_accessible().set_role(Atk.Role.NOTIFICATION)
        conversation.add(label)
        label.show()
        say(line=i, text=text)
        if i == len(LINES) - 1:
            say(done=True)
        return False

    def start():
        for i, (at, _) in enumerate(LINES):
            GLib.timeout_add(int(at * 1000), arrive, i)
        return False

    run(win, compose, start, a)


if __name__ == "__main__":
    main()
