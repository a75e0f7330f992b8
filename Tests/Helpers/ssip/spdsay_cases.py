#!/usr/bin/python3
"""Runs the real spd-say against an SSIP server, one case per option, through a traffic tap.

    /usr/bin/python3 spdsay_cases.py [--address unix_socket:PATH] [--case NAME ...] [--log FILE]

For every case: spd-say runs with SPEECHD_ADDRESS pointing at a tap in front of the server (and
SPEECHD_CMD=/bin/false, so it can never autospawn a speech-dispatcher), under a timeout. Checked
from what really crossed the socket: the exit status, the SSIP commands spd-say sent for its
option, the server's replies (225 for a queued message, 702 for -w), and the output (voice and
module lists). One JSON line per case, then {"kind": "result", "ok": ...}. Exit 0 when every case
passed. The same cases are the Swift tests' (Tests/NarratorEndToEndTests/SSIP).
"""

import argparse
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_common import Scope, emit, parse_address  # noqa: E402
from ssip_tap import Tap, speak_texts  # noqa: E402

SPD_SAY = "/usr/bin/spd-say"

# name: (arguments, stdin, [regexes a client line must match, in order], [regexes a server line must match], stdout regex)
CASES = {
    "text": (["Hello from spd-say."], None, [r"^SET SELF CLIENT_NAME ", r"^speak$"], [r"^225 OK MESSAGE QUEUED"], None),
    "wait": (["-w", "Waiting for the end."], None, [r"^SET SELF NOTIFICATION", r"^speak$"], [r"^225 ", r"^702 END"], None),
    "cancel": (["-C"], None, [r"^CANCEL ALL$"], [r"^213 "], None),
    "stop": (["-S"], None, [r"^STOP ALL$"], [r"^210 "], None),
    "priority": (["-P", "important", "Important words."], None, [r"^SET SELF PRIORITY IMPORTANT$", r"^speak$"], [r"^225 "], None),
    "rate": (["-r", "30", "Faster."], None, [r"^SET SELF RATE 30$", r"^speak$"], [r"^203 ", r"^225 "], None),
    "pitch": (["-p", "-20", "-R", "10", "-i", "-10", "Lower."], None,
              [r"^SET SELF PITCH -20$", r"^SET SELF PITCH_RANGE 10$", r"^SET SELF VOLUME -10$", r"^speak$"], [r"^225 "], None),
    "voice_type": (["-t", "female1", "A female voice."], None, [r"^SET SELF VOICE_TYPE FEMALE1$", r"^speak$"], [r"^209 ", r"^225 "], None),
    "synthesis_voice": (["-y", "English (Great Britain)", "A named voice."], None,
                        [r"^SET SELF SYNTHESIS_VOICE English \(Great Britain\)$", r"^speak$"], [r"^209 ", r"^225 "], None),
    "language": (["-l", "en", "English."], None, [r"^SET SELF LANGUAGE en$", r"^speak$"], [r"^225 "], None),
    "punctuation": (["-m", "all", "Dots, commas; all."], None, [r"^SET SELF PUNCTUATION all$", r"^speak$"], [r"^205 ", r"^225 "], None),
    "spelling": (["-s", "abc"], None, [r"^SET SELF SPELLING on$", r"^speak$"], [r"^207 ", r"^225 "], None),
    "ssml": (["-x", '<speak>Marked <mark name="m1"/>up.</speak>'], None, [r"^SET SELF SSML_MODE on$", r"^speak$"], [r"^219 ", r"^225 "], None),
    "character": (["-c", "a"], None, [r"^CHAR a$"], [r"^225 "], None),
    "key": (["-k", "ctrl"], None, [r"^KEY ctrl$"], [r"^225 "], None),
    "sound_icon": (["-I", "message"], None, [r"^SOUND_ICON message$"], [r"^225 "], None),
    "output_module": (["-o", "espeak-ng", "Through a module."], None, [r"^SET SELF OUTPUT_MODULE espeak-ng$", r"^speak$"], [r"^216 ", r"^225 "], None),
    "list_voices": (["-L"], None, [r"^LIST SYNTHESIS_VOICES$"], [r"^249 "], r"\S"),
    "list_modules": (["-O"], None, [r"^LIST OUTPUT_MODULES$"], [r"^250 "], r"\S"),
    "pipe": (["-e"], "Piped line one.\nPiped line two.\n", [r"^speak$"], [r"^225 "], r"Piped line one"),
    "dot": ([".leading dot and\n.second"], None, [r"^speak$", r"^\.\.leading dot"], [r"^225 "], None),
}


def in_order(patterns, lines):
    i = 0
    for line in lines:
        if i < len(patterns) and re.search(patterns[i], line):
            i += 1
    return i == len(patterns)


def run_case(name, upstream, scope, log_path, timeout):
    argv, stdin, want_client, want_server, want_out = CASES[name]
    tap_sock = scope.path("tap-%s.sock" % name)
    tap = Tap(tap_sock, upstream, log_path).start()
    tap.note("spd-say %s" % name)
    env = {k: v for k, v in os.environ.items() if k not in ("SPEECHD_HOST", "SPEECHD_PORT")}
    env.update(SPEECHD_ADDRESS="unix_socket:" + tap_sock, SPEECHD_CMD="/bin/false")
    t0 = time.monotonic()
    try:
        r = subprocess.run([SPD_SAY] + argv, input=stdin, env=env, capture_output=True, text=True,
                           timeout=timeout, start_new_session=True)
        status, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        status, out, err = "timeout", (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), ""
    elapsed = round(time.monotonic() - t0, 3)
    time.sleep(0.1)  # the last server lines reach the tap's log
    tap.stop()
    lines = tap.lines()
    client = [b.decode("utf-8", "replace").rstrip("\r\n") for (_, _, d, b) in lines if d == "C>"]
    server = [b.decode("utf-8", "replace").rstrip("\r\n") for (_, _, d, b) in lines if d == "S<"]
    errors = [x for x in server if re.match(r"^[3-5]\d\d ", x)]
    ok = (status == 0 and in_order(want_client, client) and in_order(want_server, server) and not errors
          and (want_out is None or re.search(want_out, out) is not None))
    return {"kind": "case", "case": name, "ok": ok, "argv": argv, "status": status, "seconds": elapsed,
            "client": client[:40], "server": [x for x in server if not x.startswith("249-")][:40],
            "voices": sum(1 for x in server if x.startswith("249-")), "errors": errors,
            "spoken": [x for (_, _, x) in speak_texts(lines)], "stdout": out[:300], "stderr": err[-300:]}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--address", default=os.environ.get("SPEECHD_ADDRESS"))
    p.add_argument("--case", action="append", choices=sorted(CASES))
    p.add_argument("--log", default="/dev/null", help="append the tapped traffic here")
    p.add_argument("--timeout", type=float, default=20, help="per spd-say run")
    a = p.parse_args()
    if not os.access(SPD_SAY, os.X_OK):
        emit({"kind": "skip", "reason": "spd-say is not installed (apt-get install speech-dispatcher)"})
        return 2
    if not a.address:
        emit({"kind": "result", "ok": False, "error": "no --address and no SPEECHD_ADDRESS"})
        return 2
    upstream = parse_address(a.address)
    ok = True
    with Scope(prefix="ssip-spdsay-") as scope:
        for name in a.case or list(CASES):
            r = run_case(name, upstream, scope, a.log, a.timeout)
            emit(r)
            ok = ok and r["ok"]
            time.sleep(0.2)
    emit({"kind": "result", "ok": ok})
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
