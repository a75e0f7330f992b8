#!/usr/bin/python3
"""An SSIP traffic logger: a proxy between clients and a server's Unix socket.

    ssip_tap.py --listen TAP.sock --upstream SERVER.sock [--log FILE] [--timeout SECONDS]

Clients connect to TAP.sock (SPEECHD_ADDRESS=unix_socket:TAP.sock); every connection gets its own
upstream connection, and every CRLF-terminated line is logged as in the reference transcripts:

    [  12.345] #3 --- new connection
    [  12.345] #3 C> b'SET self CLIENT_NAME unknown:Orca:default\\r\\n'
    [  12.346] #3 S< b'208 OK CLIENT NAME SET\\r\\n'

(C> from the client, S< from the server; times are seconds on the monotonic clock since the tap
started). Prints `{"listening": PATH}` on stdout once ready. Stops on SIGTERM/SIGINT, on --timeout,
or when stdin closes if --stdin-lifetime is given. Also importable: Tap(...).start() in a thread,
with .records holding (time, connection, direction, bytes) for checks.
"""

import argparse
import os
import select
import signal
import socket
import sys
import threading
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_common import emit  # noqa: E402


class Tap:
    def __init__(self, listen, upstream, log_path=None, t0=None):
        self.listen_path = listen
        self.upstream = upstream
        self.t0 = time.monotonic() if t0 is None else t0
        self.records = []  # (t, conn, "C>"/"S<"/"---", bytes)
        self.lock = threading.Lock()
        self.log = open(log_path, "a", buffering=1) if log_path else None
        self.count = 0
        self.stopping = False
        self.threads = []
        self.sockets = []

    def _record(self, conn, direction, data):
        t = time.monotonic() - self.t0
        with self.lock:
            self.records.append((t, conn, direction, data))
            if self.log:
                if direction == "---":
                    self.log.write("[%9.3f] #%d --- %s\n" % (t, conn, data.decode()))
                else:
                    self.log.write("[%9.3f] #%d %s %r\n" % (t, conn, direction, data))

    def note(self, text):
        """A ### line in the log, as the transcripts mark driver steps."""
        t = time.monotonic() - self.t0
        with self.lock:
            self.records.append((t, 0, "###", text.encode()))
            if self.log:
                self.log.write("[%9.3f] ### %s\n" % (t, text))

    def start(self):
        try:
            os.unlink(self.listen_path)
        except FileNotFoundError:
            pass
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.listen_path)
        self.server.listen(16)
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self.threads.append(t)
        return self

    def _accept(self):
        while not self.stopping:
            r, _, _ = select.select([self.server], [], [], 0.2)
            if not r:
                continue
            try:
                client, _ = self.server.accept()
            except OSError:
                break
            self.count += 1
            n = self.count
            up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                up.connect(self.upstream)
            except OSError as e:
                self._record(n, "---", ("upstream connect failed: %s" % e).encode())
                client.close()
                continue
            self._record(n, "---", b"new connection")
            self.sockets += [client, up]
            for src, dst, d in ((client, up, "C>"), (up, client, "S<")):
                t = threading.Thread(target=self._pump, args=(n, src, dst, d), daemon=True)
                t.start()
                self.threads.append(t)

    def _pump(self, n, src, dst, direction):
        buf = b""
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                if buf:
                    self._record(n, direction, buf)
                self._record(n, "---", ("%s closed" % ("client" if direction == "C>" else "server")).encode())
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            buf += data
            while b"\r\n" in buf:
                line, buf = buf.split(b"\r\n", 1)
                self._record(n, direction, line + b"\r\n")
            try:
                dst.sendall(data)
            except OSError:
                return

    def stop(self):
        self.stopping = True
        for s in [self.server] + self.sockets:
            try:
                s.close()
            except OSError:
                pass
        try:
            os.unlink(self.listen_path)
        except OSError:
            pass
        if self.log:
            self.log.flush()

    # -- reading the traffic back

    def lines(self, direction=None):
        with self.lock:
            return [(t, c, d, b) for (t, c, d, b) in self.records if direction is None or d == direction]


def speak_texts(records):
    """The texts clients sent with SPEAK (data lines up to the '.'), per connection, in order:
    [(time, connection, text)]."""
    out = []
    receiving = {}
    for (t, c, d, b) in records:
        if d != "C>":
            continue
        line = b[:-2] if b.endswith(b"\r\n") else b
        if c in receiving:
            if line == b".":
                out.append((receiving[c][0], c, b"\r\n".join(receiving.pop(c)[1]).decode("utf-8", "replace")))
            else:
                receiving[c][1].append(line[1:] if line.startswith(b"..") else line)
        elif line.upper() == b"SPEAK":
            receiving[c] = (t, [])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--listen", required=True)
    p.add_argument("--upstream", required=True)
    p.add_argument("--log")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--stdin-lifetime", action="store_true", help="stop when stdin reaches end of file")
    a = p.parse_args()
    tap = Tap(a.listen, a.upstream, a.log or "/dev/stderr").start()
    emit({"listening": a.listen})
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: stop.set())
    if a.stdin_lifetime:
        threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    stop.wait(a.timeout)
    tap.stop()


if __name__ == "__main__":
    main()
