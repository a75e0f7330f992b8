#!/usr/bin/python3
"""An application on the accessibility bus whose own socket misbehaves, for the bridge's tests.

    /usr/bin/python3 own_socket.py ADDRESS MODE

Connects to the accessibility bus at ADDRESS and serves one object, the application's root
(/org/a11y/atspi/accessible/root), with the Accessible property Name ("own-socket-MODE") and the
method org.a11y.atspi.Application.GetApplicationBusAddress, which names a socket of its own as
at-spi2-atk's does. What that socket does is MODE:

    silent   accepts connections and never answers (an application hung on its own socket)
    refuse   answers the authentication with REJECTED
    missing  names a path where nothing listens
    garbage  says OK, then sends bytes that are no D-Bus message

Prints {"name": UNIQUE_NAME, "socket": PATH} once it is on the bus, and serves until SIGTERM.
"""

import atexit
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading

ROOT = "/org/a11y/atspi/accessible/root"
INTROSPECTION = """
<node>
  <interface name="org.a11y.atspi.Accessible">
    <property name="Name" type="s" access="read"/>
  </interface>
  <interface name="org.a11y.atspi.Application">
    <method name="GetApplicationBusAddress"><arg direction="out" type="s"/></method>
  </interface>
</node>
"""


def serve(listener, mode):
    """Accepts connections on the application's own socket and misbehaves on each."""
    held = []
    while True:
        connection, _ = listener.accept()
        held.append(connection)  # kept open: a silent server does not hang up either
        if mode == "refuse":
            connection.recv(256)
            connection.sendall(b"REJECTED EXTERNAL\r\n")
        elif mode == "garbage":
            connection.recv(256)
            connection.sendall(b"OK 0123456789abcdef0123456789abcdef\r\n")
            connection.recv(256)
            connection.sendall(b"Xnot a message at all, just bytes\n" * 4)


def main():
    address, mode = sys.argv[1], sys.argv[2]
    if mode not in ("silent", "refuse", "missing", "garbage"):
        sys.exit(f"own_socket.py: unknown mode {mode!r} (silent, refuse, missing, garbage)")
    from gi.repository import Gio, GLib

    directory = tempfile.mkdtemp(prefix="own-socket-")
    atexit.register(shutil.rmtree, directory, True)
    path = os.path.join(directory, "socket")
    if mode != "missing":
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(8)
        threading.Thread(target=serve, args=(listener, mode), daemon=True).start()

    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
    info = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)

    def call(connection, sender, object_path, interface, method, parameters, invocation):
        invocation.return_value(GLib.Variant("(s)", ("unix:path=" + path,)))

    def get_property(connection, sender, object_path, interface, name):
        return GLib.Variant("s", "own-socket-" + mode)

    for interface in info.interfaces:
        bus.register_object(ROOT, interface, call, get_property, None)
    print(json.dumps({"name": bus.get_unique_name(), "socket": path}), flush=True)
    loop = GLib.MainLoop()
    signal.signal(signal.SIGTERM, lambda *_: loop.quit())
    GLib.timeout_add(200, lambda: True)  # wakes the loop so that SIGTERM is seen
    loop.run()


if __name__ == "__main__":
    main()
