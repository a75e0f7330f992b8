#!/usr/bin/python3
"""Records the AT-SPI2 events the GTK fixture (fixture.py beside this file) emits as a user moves
through it, for the bridge's replayed scenario (Tests/NarratorBridgeTests/BridgeRecordedTests.swift).

    /usr/bin/python3 Tests/Helpers/atspi/record_events.py [--swift] [--tree]

To re-record: run it (it needs Xvfb, dbus-daemon, at-spi2-core, xdotool and python3-gi, as the
desktop tests do), and paste what `--swift` prints over `GTKRecording.steps` in
BridgeRecordedTests.swift; `--tree` prints the fixture's objects too (path, role, name, states),
to check that `BridgeRecordedTests.fixture` still has GTK's paths, roles and states (and if a
step's events changed, its `script` entry: what GTK changes at that step, and what is sent).
The event types are the ones the bridge subscribes to (ATSPIEvent.subscribed); each event is
recorded as the bridge's shell copies it: its type, detail1, detail2, its source's path, the path of
the object it carries (an active descendant's row), if any, and the text it carries (what a text
change inserted or deleted), if any.

It starts a headless desktop of its own (Xvfb, a private session bus that activates nothing, the
AT-SPI bus launcher and registry), the fixture, and a listener (this file run with --listen,
printing one JSON line per event); then gives the fixture's window the input focus and presses
keys with xdotool, waiting after each for the events to stop. Without --swift it prints one JSON
object per step: {"key": "Tab", "events": [[type, detail1, detail2, path, object, text], ...]}.
"""

import argparse
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# ATSPIEvent.subscribed, in Sources/NarratorBridge/Bridge/ATSPIEvent.swift.
SUBSCRIBED = [
    "object:state-changed:focused", "object:children-changed", "object:property-change:accessible-name",
    "object:property-change:accessible-value", "object:property-change:accessible-description", "object:state-changed:checked",
    "object:state-changed:selected", "object:state-changed:sensitive", "object:state-changed:showing",
    "object:state-changed:expanded", "object:state-changed:indeterminate", "object:state-changed:visited", "object:state-changed:defunct", "object:text-changed",
    "object:text-selection-changed", "object:text-caret-moved", "object:active-descendant-changed", "window:create", "window:destroy",
    "window:activate",
]

# What a user does, in order: the window given the focus, then the keys of the desktop tests
# (BridgeRunTests.mirrorAndFollowFocus and typingIsEchoed).
STEPS = [
    ("windowfocus", None), ("Tab", "key"), ("space", "key"), ("Tab", "key"), ("End", "key"), ("m", "type"),
    ("BackSpace", "key"), ("Tab", "key"), ("Tab", "key"), ("Right", "key"),
]


def listen():
    """The listener: one JSON line per event on stdout, then the tree on a line of its own when
    asked (a line "tree" on stdin)."""
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi, GLib

    def on_event(event):
        source = event.source
        carried = event.any_data
        obj = carried.path if isinstance(carried, Atspi.Accessible) else None
        text = carried if isinstance(carried, str) and event.type.startswith("object:text-changed") else None
        try:
            app = source.get_application().get_name()
        except GLib.Error:
            app = ""
        print(json.dumps({"type": event.type, "detail1": event.detail1, "detail2": event.detail2, "path": source.path, "object": obj,
                          "text": text, "app": app}), flush=True)

    listener = Atspi.EventListener.new(on_event)
    for t in SUBSCRIBED:
        listener.register(t)

    def tree(node):
        states = [Atspi.StateType(s).value_nick for s in range(Atspi.StateType.LAST_DEFINED) if node.get_state_set().contains(s)]
        return {"path": node.path, "role": node.get_role_name(), "name": node.get_name(), "states": states,
                "children": [tree(node.get_child_at_index(i)) for i in range(node.get_child_count())]}

    def command(channel, _):
        line = channel.readline()
        if not line:
            Atspi.event_quit()
            return False
        if line.strip() == "tree":
            desktop = Atspi.get_desktop(0)
            for i in range(desktop.get_child_count()):
                app = desktop.get_child_at_index(i)
                if app is not None and app.get_name() == "narrator-fixture":
                    print(json.dumps({"tree": [tree(app.get_child_at_index(j)) for j in range(app.get_child_count())]}), flush=True)
        return True

    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, command)
    print(json.dumps({"listening": True}), flush=True)
    Atspi.event_main()


class Desktop:
    """Xvfb, a session bus, the accessibility bus and its registry, each a child of this process."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="narrator-record-")
        self.children = []
        try:
            self.start()
        except BaseException:
            self.stop()
            raise

    def start(self):
        read, write = os.pipe()
        self.spawn(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"], pass_fds=(write,))
        os.close(write)
        display = b""
        while not display.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                raise RuntimeError("Xvfb did not start")
            display += chunk
        os.close(read)
        self.env = {k: v for k, v in os.environ.items() if k not in ("NO_AT_BRIDGE", "AT_SPI_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS")}
        self.env["DISPLAY"] = ":" + display.decode().strip()
        config = os.path.join(self.dir, "session.conf")
        with open(config, "w") as f:
            f.write('<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"'
                    ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
                    "<busconfig><type>session</type><listen>unix:dir=%s</listen>"
                    '<policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy></busconfig>\n' % self.dir)
        bus = self.spawn(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"], stdout=subprocess.PIPE)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().decode().strip()
        self.spawn(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], env=self.env)
        address = ""
        for _ in range(100):
            run = subprocess.run(["dbus-send", "--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
                                 env=self.env, capture_output=True, text=True)
            address = run.stdout.strip()
            if run.returncode == 0 and address:
                break
            time.sleep(0.05)
        if not address:
            raise RuntimeError("the accessibility bus did not answer")
        self.env["AT_SPI_BUS_ADDRESS"] = address
        self.spawn(["/usr/libexec/at-spi2-registryd"], env=self.env)
        time.sleep(0.3)

    def spawn(self, argv, name=None, **kw):
        """Starts `argv` in a process group of its own, its stderr in NAME.err in the directory."""
        kw.setdefault("stdout", subprocess.DEVNULL)
        kw.setdefault("stderr", open(os.path.join(self.dir, (name or os.path.basename(argv[0])) + ".err"), "w"))
        child = subprocess.Popen(argv, start_new_session=True, **kw)
        self.children.append(child)
        return child

    def stop(self):
        for child in reversed(self.children):
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGTERM)
                try:
                    child.wait(5)
                except subprocess.TimeoutExpired:
                    os.killpg(child.pid, signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)


def record(want_tree):
    desktop = Desktop()
    try:
        lines = queue.Queue()
        listener = desktop.spawn(["/usr/bin/python3", os.path.abspath(__file__), "--listen"], name="listener", env=desktop.env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=lambda: [lines.put(json.loads(l)) for l in listener.stdout], daemon=True).start()
        if "listening" not in lines.get(timeout=20):
            raise RuntimeError("the listener did not start")
        fixture = desktop.spawn(["/usr/bin/python3", os.path.join(HERE, "fixture.py"), "--lifetime", "60"], name="fixture", env=desktop.env,
                                stdout=subprocess.PIPE, text=True)
        # It prints a line per change ({"focus": "Save"} comes first), {"ready": true} once shown.
        if not any("ready" in line for line in fixture.stdout):
            raise RuntimeError("the fixture did not start: " + open(os.path.join(desktop.dir, "fixture.err")).read()[-800:])
        threading.Thread(target=fixture.stdout.read, daemon=True).start()  # its later lines, so that it never blocks on them

        def settle(quiet=0.6, limit=10):
            """The events until none came for `quiet` seconds."""
            got, deadline = [], time.monotonic() + limit
            while time.monotonic() < deadline:
                try:
                    got.append(lines.get(timeout=quiet))
                except queue.Empty:
                    break
            return got

        settle(1.0)  # the fixture's start-up burst
        tree = None
        if want_tree:
            listener.stdin.write("tree\n")
            listener.stdin.flush()
            tree = next(e for e in settle() if "tree" in e)["tree"]
        window = ""
        for _ in range(100):
            window = subprocess.run(["xdotool", "search", "--name", "^Narrator fixture$"], env=desktop.env, capture_output=True, text=True).stdout.split()
            if window:
                window = window[0]
                break
            time.sleep(0.05)
        steps = []
        for key, how in STEPS:
            argv = ["xdotool", "windowfocus", "--sync", window] if how is None else ["xdotool", how, key]
            subprocess.run(argv, env=desktop.env, check=True)
            events = [e for e in settle() if "type" in e and e.get("app") == "narrator-fixture"]
            steps.append({"key": key, "events": [[e["type"], e["detail1"], e["detail2"], e["path"], e["object"], e["text"]] for e in events]})
        return steps, tree
    finally:
        desktop.stop()


def swift(steps):
    """`GTKRecording.steps` as a Swift literal."""
    out = ["    static let steps: [Step] = ["]
    for step in steps:
        out.append("        Step(%s, [" % json.dumps(step["key"]))
        for type_, detail1, detail2, path, obj, text in step["events"]:
            number = path.rsplit("/", 1)[-1]
            more = ", detail2: %d" % detail2 if detail2 else ""
            more += ", object: %s" % json.dumps(obj.rsplit("/", 1)[-1]) if obj else ""
            more += ", text: %s" % json.dumps(text) if text is not None else ""
            out.append("            .init(%s, %s, detail1: %d%s)," % (json.dumps(type_), json.dumps(number), detail1, more))
        out.append("        ]),")
    out.append("    ]")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--listen", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--swift", action="store_true", help="print the steps as GTKRecording.steps")
    p.add_argument("--tree", action="store_true", help="print the fixture's objects first")
    a = p.parse_args()
    if a.listen:
        listen()
        return
    steps, tree = record(a.tree)
    if tree is not None:
        print(json.dumps(tree, indent=1))
    if a.swift:
        print(swift(steps))
    else:
        for step in steps:
            print(json.dumps(step))


if __name__ == "__main__":
    main()
