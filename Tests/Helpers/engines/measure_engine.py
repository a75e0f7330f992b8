#!/usr/bin/env python3
"""Measures an engine process of docs/engine-protocol.md (narrator-flite, or any other):
time from writing a speak request to its first A frame (and, beside it, to its E frame: a
streaming engine's first audio leaves well before the sentence is done), from a cancel to its E frame, the
serving process's resident memory, and how long --list-voices takes. Prints one line per
figure (median of --runs, with the slowest beside it) and exits 0.

    Tests/Helpers/engines/measure_engine.py .build/release/narrator-flite --voice slt
"""
import argparse
import json
import statistics
import struct
import subprocess
import time

TWENTY_FIVE = ("The committee met early on Tuesday morning to discuss the new library, "
               "and after a long debate everyone agreed that the plans were very sound.")


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        kind, _, _ = self.frame()
        assert kind == "R", kind

    def frame(self):
        header = self.proc.stdout.read(9)
        if len(header) < 9:
            raise EOFError("engine output ended")
        kind = chr(header[0])
        job, length = struct.unpack("<II", header[1:])
        return kind, job, self.proc.stdout.read(length)

    def send(self, request):
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()

    def speak(self, job, text, voice, rate=175):
        self.send(dict(op="speak", job=job, text=text, voice=voice, rate=rate, pitch=50, volume=100))

    def until_end(self, job):
        while True:
            kind, frame_job, _ = self.frame()
            if frame_job == job and kind in "EF":
                return kind

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def first_audio(engine, job, text, voice, ends=None):
    start = time.monotonic()
    engine.speak(job, text, voice)
    while True:
        kind, frame_job, _ = engine.frame()
        if frame_job == job and kind == "A":
            elapsed = time.monotonic() - start
            engine.until_end(job)
            if ends is not None:
                ends.append(time.monotonic() - start)
            return elapsed


def cancel_to_end(engine, job, voice):
    engine.speak(job, " ".join(["This sentence is spoken again and again until it is cancelled."] * 30), voice)
    while True:
        kind, frame_job, _ = engine.frame()
        if frame_job == job and kind == "A":
            break
    start = time.monotonic()
    engine.send(dict(op="cancel", job=job))
    while True:
        kind, frame_job, payload = engine.frame()
        if frame_job == job and kind == "E":
            assert payload == b"\x01", payload
            return time.monotonic() - start


def report(name, seconds):
    print("%-28s median %7.1f ms   max %7.1f ms   (%d runs)" % (name, statistics.median(seconds) * 1000, max(seconds) * 1000, len(seconds)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine")
    parser.add_argument("--voice", default="slt")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()

    listing = []
    for _ in range(args.runs):
        start = time.monotonic()
        subprocess.run([args.engine, "--list-voices"], check=True, stdout=subprocess.DEVNULL)
        listing.append(time.monotonic() - start)
    report("--list-voices", listing)

    start = time.monotonic()
    engine = Engine(args.engine)
    print("%-28s %7.1f ms" % ("start to R", (time.monotonic() - start) * 1000))
    print("%-28s %7d KiB" % ("RSS after R", engine.rss_kib()))
    job = 0
    for name, text in (("first A, 'Hello there.'", "Hello there."), ("first A, 25 words", TWENTY_FIVE)):
        times, ends = [], []
        for _ in range(args.runs):
            job += 1
            times.append(first_audio(engine, job, text, args.voice, ends))
        report(name, times)
        report(name.replace("first A", "E"), ends)
    cancels = []
    for _ in range(args.runs):
        job += 1
        cancels.append(cancel_to_end(engine, job, args.voice))
    report("cancel to E", cancels)
    print("%-28s %7d KiB" % ("RSS after %d jobs" % job, engine.rss_kib()))
    print("%-28s %7d" % ("exit status at EOF", engine.close()))


if __name__ == "__main__":
    main()
