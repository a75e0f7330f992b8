#!/usr/bin/python3
"""The real speech-dispatcher 0.11.4, private and headless, to prove the harness against.

    /usr/bin/python3 reference_server.py [--tap-log FILE] [--lifetime SECONDS] [--pulse-server unix:PATH]

Starts a private PulseAudio server with a null sink (unless --pulse-server names one), Debian's
speech-dispatcher in the foreground on its own config and socket with the eSpeak NG module, and
(with --tap-log) an ssip_tap in front of it. Prints one JSON line:
    {"ssip_socket": PATH, "speechd_address": "unix_socket:PATH", "pulse_server": "unix:PATH", "sink": NAME}
then runs until stdin closes (unless --until-signal), SIGTERM/SIGINT, or --lifetime; then stops everything and removes its
temporary directory. Exit 2 (with {"error": ...}) when speech-dispatcher is not installed.
"""

import argparse
import os
import signal
import sys
import threading

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_common import PrivatePulse, PrivateSpeechd, Scope, emit, install_signal_cleanup, log  # noqa: E402
from ssip_tap import Tap  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tap-log")
    p.add_argument("--lifetime", type=float, default=300)
    p.add_argument("--pulse-server")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    p.add_argument("--until-signal", action="store_true", help="ignore stdin: run until SIGTERM or --lifetime")
    a = p.parse_args()
    missing = PrivateSpeechd.missing()
    if missing:
        emit({"error": missing})
        return 2
    scope = Scope(prefix="ssip-ref-", keep=a.keep)
    install_signal_cleanup(scope)
    try:
        pulse = PrivatePulse(scope, server=a.pulse_server).start()
        sd = PrivateSpeechd(scope, pulse).start()
        sock = sd.socket
        if a.tap_log:
            tap = Tap(scope.path("tap.sock"), sd.socket, a.tap_log).start()
            scope.closers.append(tap.stop)
            sock = tap.listen_path
        emit({"ssip_socket": sock, "speechd_address": "unix_socket:" + sock,
              "pulse_server": pulse.server, "sink": pulse.sink, "directory": scope.dir})
        done = threading.Event()
        if not a.until_signal:
            threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
        done.wait(a.lifetime)
    except Exception as e:
        emit({"error": str(e)})
        return 1
    finally:
        scope.close()
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
