#!/usr/bin/python3
"""Measures an engine process through docs/engine-protocol.md (the figures in docs/piper-notes.md).

    /usr/bin/python3 measure_engine.py ENGINE_EXECUTABLE [--voice NAME] [--runs N]

Prints one JSON object, in seconds and MiB: listVoices (its wall time), ready (start to `R`,
the default voice loaded), firstAudio (speak sent to first `A`) for a short and a 25-word
sentence (median of N runs), cancel (cancel sent mid model pass to `E` 1, median), and the
engine's resident memory after `R` and after the runs. check_engine.py checks; this only times.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_engine import Engine, list_voices, speak  # noqa: E402

SHORT = "Hello there."
LONG = ("The quick brown fox jumps over the lazy dog while the farmer, who had been working "
        "since dawn, watched from the porch of his house.")
MID_PASS = 0.15  # seconds after B that the cancel is sent: the first model pass is running by then


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine")
    parser.add_argument("--voice")
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()

    listing, list_seconds = list_voices(arguments.engine)
    voice = arguments.voice or listing["voices"][0]["name"]
    engine = Engine(arguments.engine)
    try:
        started = time.monotonic()
        at, kind, _, _ = engine.next_frame(what="R")
        ready = at - started
        ready_mib = resident_mib(engine.process.pid)
        first_audio = {"short": [], "long25Words": []}
        job = 0
        for _ in range(arguments.runs):
            for name, text in (("short", SHORT), ("long25Words", LONG)):
                job += 1
                result = speak(engine, job, text, voice)
                first_audio[name].append(result.first_audio - result.started)
        cancels = []
        for _ in range(arguments.runs):
            job += 1
            engine.send({"op": "speak", "job": job, "text": LONG, "voice": voice, "rate": 175, "pitch": 50, "volume": 100})
            at, kind, _, _ = engine.next_frame(what="B")
            time.sleep(MID_PASS)
            sent = time.monotonic()
            engine.send({"op": "cancel", "job": job})
            while True:
                at, kind, _, payload = engine.next_frame(what="E")
                if kind in "EF":
                    break
            if (kind, payload) != ("E", b"\x01"):
                raise SystemExit(f"measure_engine: the cancelled job ended with {kind} {payload!r}, not E 1")
            cancels.append(at - sent)
        print(json.dumps({
            "words": {"short": len(SHORT.split()), "long25Words": len(LONG.split())},
            "listVoices": round(list_seconds, 4), "ready": round(ready, 4),
            "firstAudio": {name: round(statistics.median(values), 4) for name, values in first_audio.items()},
            "firstAudioRuns": {name: [round(v, 4) for v in values] for name, values in first_audio.items()},
            "cancel": round(statistics.median(cancels), 4), "cancelRuns": [round(v, 4) for v in cancels],
            "residentMiBAfterReady": ready_mib, "residentMiBAfterRuns": resident_mib(engine.process.pid),
            "loadAverage": os.getloadavg()[0],
        }))
    finally:
        engine.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
