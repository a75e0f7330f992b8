#!/usr/bin/python3
"""An application on the accessibility bus whose tree is built to hurt its reader, for the bridge's tests.

    /usr/bin/python3 hostile.py ADDRESS MODE

Connects to the accessibility bus at ADDRESS, registers with the AT-SPI registry as toolkits do
(org.a11y.atspi.Socket.Embed), and answers org.a11y.atspi.Accessible's questions about its root
(/org/a11y/atspi/accessible/root, named "hostile-MODE") and one window ("Hostile MODE", object 1)
as MODE says:

    cycle    the window's grandchild lists the window among its children
    wide     the window has 1,000,000 children (one reply of some 45 MB)
    name     the window's name is 10 MB long
    deep     a chain of objects 10,000 deep under the window
    churn    every object's children change on every question: new ones, a thousand times the square of the questions asked so far
    errors   every question is answered with an error
    silent   no question is ever answered

It has no cache (GetItems is an error) and no socket of its own (GetApplicationBusAddress is an
error), so it is walked over the bus. Prints {"name": UNIQUE_NAME, "mode": MODE} once it is
registered, and serves until SIGTERM.
"""

import json
import signal
import sys
import threading

PREFIX = "/org/a11y/atspi/accessible/"
ROOT = PREFIX + "root"
MODES = ("cycle", "wide", "name", "deep", "churn", "errors", "silent")
# AT-SPI2's roles and states (atspi-constants.h).
ROLE_APPLICATION, ROLE_FRAME, ROLE_PANEL = 75, 23, 39
STATES = (1 << 8) | (1 << 24) | (1 << 25) | (1 << 30)  # enabled, sensitive, showing, visible


def main():
    address, mode = sys.argv[1], sys.argv[2]
    if mode not in MODES:
        sys.exit(f"hostile.py: unknown mode {mode!r} ({', '.join(MODES)})")
    from gi.repository import Gio, GLib

    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
    me = bus.get_unique_name()
    lock = threading.Lock()
    asked = {"churn": 0}

    def references(paths):
        """(a(so)) of this application's objects at `paths`, serialized by hand: PyGObject takes
        some 100 µs an element to build it from tuples, minutes for a million."""
        name = me.encode()
        pieces, ends, end = [], [], 0
        for path in paths:
            # A (so) element: the string, its nul, the path, its nul, and the string's end (one byte).
            piece = name + b"\0" + path.encode() + b"\0" + bytes([len(name) + 1])
            pieces.append(piece)
            end += len(piece)
            ends.append(end)
        # The array's framing offsets: one byte each while the array is small, four once it is large.
        size = 1 if end + len(ends) < 256 else 2 if end + 2 * len(ends) < 65536 else 4
        blob = b"".join(pieces) + b"".join(value.to_bytes(size, "little") for value in ends)
        return GLib.Variant.new_from_bytes(GLib.VariantType("(a(so))"), GLib.Bytes.new(blob), True)

    def wide_children():
        return references(PREFIX + "w%d" % index for index in range(1_000_000))

    wide = wide_children() if mode == "wide" else None
    huge_name = "x" * (10 * 1024 * 1024) if mode == "name" else None

    def children(path):
        """The object paths under `path` (each answer may differ, in churn)."""
        if path == ROOT:
            return [PREFIX + "1"]
        if mode == "cycle":
            return {PREFIX + "1": [PREFIX + "2"], PREFIX + "2": [PREFIX + "3"], PREFIX + "3": [PREFIX + "4", PREFIX + "1"]}.get(path, [])
        if mode == "deep":
            depth = int(path[len(PREFIX):]) if path[len(PREFIX):].isdigit() else 0
            return [PREFIX + str(depth + 1)] if depth < 10_000 else []
        if mode == "churn":
            with lock:
                asked["churn"] += 1
                count = asked["churn"]
            return [PREFIX + "c%d_%d" % (count, index) for index in range(1000 * count * count)]
        return []

    def name_of(path):
        if path == ROOT:
            return "hostile-" + mode
        if path == PREFIX + "1":
            return huge_name if huge_name is not None else "Hostile " + mode
        return "part"

    def child_count(path):
        if mode == "wide" and path == PREFIX + "1":
            return 1_000_000
        if mode == "churn":
            with lock:
                asked["churn"] += 1
                return asked["churn"]
        return len(children(path))

    def answer(message):
        """The reply's body for a method call, or an error (name, text)."""
        path, interface, member = message.get_path(), message.get_interface(), message.get_member()
        body = message.get_body()
        arguments = body.unpack() if body is not None else ()
        if interface == "org.freedesktop.DBus.Properties" and member == "Get":
            _, prop = arguments
            values = {"Name": lambda: GLib.Variant("s", name_of(path)), "Description": lambda: GLib.Variant("s", ""),
                      "ChildCount": lambda: GLib.Variant("i", child_count(path)), "ToolkitName": lambda: GLib.Variant("s", "hostile"),
                      "Version": lambda: GLib.Variant("s", "1"), "Parent": lambda: GLib.Variant("(so)", ("", "/org/a11y/atspi/null"))}
            if prop in values:
                return GLib.Variant("(v)", (values[prop](),))
        elif interface == "org.freedesktop.DBus.Properties" and member == "GetAll":
            return GLib.Variant("(a{sv})", ({"Name": GLib.Variant("s", name_of(path)), "Description": GLib.Variant("s", ""),
                                             "ChildCount": GLib.Variant("i", child_count(path))},))
        elif interface == "org.a11y.atspi.Accessible":
            if member == "GetChildren":
                if wide is not None and path == PREFIX + "1":
                    return wide
                return references(children(path))
            if member == "GetRole":
                return GLib.Variant("(u)", (ROLE_APPLICATION if path == ROOT else ROLE_FRAME if path == PREFIX + "1" else ROLE_PANEL,))
            if member == "GetState":
                return GLib.Variant("(au)", ([STATES & 0xFFFFFFFF, STATES >> 32],))
            if member == "GetInterfaces":
                return GLib.Variant("(as)", (["org.a11y.atspi.Accessible"],))
            if member == "GetRelationSet":
                return GLib.Variant("(a(ua(so)))", ([],))
            if member == "GetAttributes":
                return GLib.Variant("(a{ss})", ({},))
            if member == "GetIndexInParent":
                return GLib.Variant("(i)", (0,))
        return ("org.freedesktop.DBus.Error.UnknownMethod", f"{interface}.{member} is not offered here")

    def reply(message):
        if mode == "silent":
            return
        if mode == "errors":
            result = ("org.freedesktop.DBus.Error.Failed", "no")
        else:
            try:
                result = answer(message)
            except Exception as error:  # a question this program did not foresee: an error, as any application's
                result = ("org.freedesktop.DBus.Error.Failed", str(error))
        if isinstance(result, tuple):
            out = message.new_method_error_literal(result[0], result[1])
        else:
            out = message.new_method_reply()
            out.set_body(result)
        bus.send_message(out, Gio.DBusSendMessageFlags.NONE)

    def incoming(connection, message, is_incoming):
        # Every call to this application is answered here (or not at all), in GDBus's own thread.
        if is_incoming and message.get_message_type() == Gio.DBusMessageType.METHOD_CALL and message.get_destination() == me:
            reply(message)
            return None
        return message

    bus.add_filter(incoming)
    # Registered as at-spi2-atk registers a toolkit: the registry lists it among the desktop's applications.
    bus.call_sync("org.a11y.atspi.Registry", ROOT, "org.a11y.atspi.Socket", "Embed", GLib.Variant("((so))", ((me, ROOT),)),
                  GLib.VariantType("((so))"), Gio.DBusCallFlags.NONE, 5000, None)
    print(json.dumps({"name": me, "mode": mode}), flush=True)
    loop = GLib.MainLoop()
    signal.signal(signal.SIGTERM, lambda *_: loop.quit())
    GLib.timeout_add(200, lambda: True)  # wakes the loop so that SIGTERM is seen
    loop.run()


if __name__ == "__main__":
    main()
