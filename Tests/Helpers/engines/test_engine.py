#!/usr/bin/python3
"""A small engine process speaking docs/engine-protocol.md, for narratord's engine tests.

It stands in for Flite and Piper until they land, and misbehaves on request, so that the tests
can watch narratord supervise a real process: a real pipe, real frames, real signals.

    test_engine.py --list-voices
    test_engine.py --serve [--pid-file PATH] [--start-delay SECONDS] [--fail-start] [--busy SECONDS]
                           [--pace SECONDS]
                           [--misbehave die|stop|hang|garbage|exit] [--at-sentence K] [--once PATH]

Voices:
  espeak  real speech from libespeak-ng (through ctypes, synchronous mode), 22050 Hz, English.
  ramp    a ramp: sample n of a job is n % 32768, 10 ms per character of each sentence, 16000 Hz,
          so that a test can check that every sample arrived, once, in order.

--misbehave acts in the job's sentence K (default 2) once its S frame and first A frame are out:
  die      SIGKILL itself          stop  SIGSTOP itself (a hang the kernel holds)
  hang     sleep forever           garbage  write bytes that are no frame, then sleep
  exit     exit with status 1
With --once PATH it misbehaves only while PATH does not exist (creating it), so the engine that
narratord starts again behaves.

--busy SECONDS spins the CPU for SECONDS of wall time after reading each job, before its first
frame: an engine that is slow (a long clause on a loaded machine), not hung.

--pace SECONDS sleeps SECONDS after each ramp sentence, as a real engine takes time for each: a
cancel sent after the first chunk then surely reaches the engine while it has sentences left,
where an unpaced ramp can make a whole job before its request reader reads the cancel.

On standard error it says when it serves, each job's first-audio time (from reading the request
to writing the first A frame) and each cancel, for narratord's journal and the tests.
"""

import ctypes
import json
import os
import queue
import signal
import struct
import sys
import threading
import time

LISTING = {
    "engine": "testengine",
    "version": "1.0",
    "voices": [
        {"name": "espeak", "languages": ["en-us", "en"], "gender": "male", "sampleRate": 22050},
        {"name": "ramp", "languages": ["zxx"], "gender": "unspecified", "sampleRate": 16000},
    ],
}

out = sys.stdout.buffer
out_lock = threading.Lock()


def frame(kind, job, payload=b""):
    with out_lock:
        out.write(kind.encode() + struct.pack("<II", job, len(payload)) + payload)
        out.flush()


def log(message):
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def sentences(text):
    """(byte offset, bytes) of each sentence: a sentence ends after . ! or ? and a space."""
    data = text.encode()
    pieces, start, i = [], 0, 0
    while start < len(data) and data[start:start + 1].isspace():
        start += 1
    while i < len(data):
        if data[i:i + 1] in (b".", b"!", b"?") and (i + 1 == len(data) or data[i + 1:i + 2].isspace()):
            end = i + 1
            if data[start:end].strip():
                pieces.append((start, data[start:end]))
            start = end
            while start < len(data) and data[start:start + 1].isspace():
                start += 1
            i = start
            continue
        i += 1
    if start < len(data) and data[start:].strip():
        pieces.append((start, data[start:]))
    return pieces


class Espeak:
    """libespeak-ng in synchronous mode: each callback's PCM goes out as A frames at once."""

    def __init__(self):
        self.lib = ctypes.CDLL("libespeak-ng.so.1")
        self.rate = self.lib.espeak_Initialize(2, 100, None, 0)  # AUDIO_OUTPUT_SYNCHRONOUS, 100 ms buffers
        if self.rate <= 0:
            raise RuntimeError("espeak_Initialize failed")
        callback_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)
        self.callback = callback_type(self.deliver)
        self.lib.espeak_SetSynthCallback(self.callback)
        self.lib.espeak_SetVoiceByName(b"en")
        self.sink = None

    def deliver(self, wav, count, events):
        if count > 0 and wav:
            if not self.sink(ctypes.string_at(wav, count * 2)):
                return 1
        return 0

    def synthesize(self, sentence, rate, pitch, volume, sink):
        self.lib.espeak_SetParameter(1, rate, 0)
        self.lib.espeak_SetParameter(2, volume, 0)
        self.lib.espeak_SetParameter(3, pitch, 0)
        self.sink = sink
        text = sentence + b"\0"
        self.lib.espeak_Synth(text, len(text), 0, 1, 0, 1, None, None)


class Engine:
    def __init__(self, options):
        self.options = options
        self.requests = queue.Queue()
        self.cancelled = set()
        self.lock = threading.Lock()
        self.espeak = None
        self.ramp_at = 0
        self.misbehaved = False

    def read_requests(self):
        for line in sys.stdin.buffer:
            request = json.loads(line)
            if request["op"] == "cancel":
                with self.lock:
                    self.cancelled.add(request["job"])
            else:
                request["received"] = time.monotonic()
                self.requests.put(request)
        os._exit(0)

    def is_cancelled(self, job):
        with self.lock:
            return job in self.cancelled

    def misbehave(self, job, sentence_number):
        what = self.options.get("misbehave")
        if not what or sentence_number != self.options.get("at", 2) or self.misbehaved:
            return
        self.misbehaved = True
        once = self.options.get("once")
        if once:
            if os.path.exists(once):
                return
            open(once, "w").close()
        log(f"test engine: misbehaving ({what}) in sentence {sentence_number} of job {job}")
        if what == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        elif what == "stop":
            os.kill(os.getpid(), signal.SIGSTOP)
        elif what == "exit":
            os._exit(1)
        elif what == "garbage":
            with out_lock:
                out.write(b"Z\0\0\0\0\0\0\0\0")
                out.flush()
            while True:
                time.sleep(3600)
        elif what == "hang":
            while True:
                time.sleep(3600)

    def serve(self, request):
        job, text, voice = request["job"], request["text"], request["voice"]
        if voice not in ("espeak", "ramp"):
            frame("F", job, f'no voice "{voice}"'.encode())
            return
        rate = 22050 if voice == "espeak" else 16000
        busy = self.options.get("busy")
        if busy:
            log(f"test engine: busy for {busy:g} s before job {job}")
            until = time.monotonic() + busy
            while time.monotonic() < until:
                sum(range(1000))
        frame("B", job, struct.pack("<I", rate))
        first = [True]
        state = {"sentence": 0}

        def send(pcm):
            if self.is_cancelled(job):
                return False
            for start in range(0, len(pcm), rate // 10 * 2):
                frame("A", job, pcm[start:start + rate // 10 * 2])
                if first[0]:
                    first[0] = False
                    log(f"job {job}: first audio after {(time.monotonic() - request['received']) * 1000:.3f} ms")
            self.misbehave(job, state["sentence"])
            return not self.is_cancelled(job)

        for number, (offset, sentence) in enumerate(sentences(text), start=1):
            if self.is_cancelled(job):
                break
            state["sentence"] = number
            frame("S", job, struct.pack("<I", offset))
            if voice == "espeak":
                if self.espeak is None:
                    self.espeak = Espeak()
                self.espeak.synthesize(sentence, request["rate"], request["pitch"], request["volume"], send)
            else:
                count = len(sentence.decode(errors="replace")) * 160
                samples = [(self.ramp_at + n) % 32768 for n in range(count)]
                self.ramp_at += count
                if not send(struct.pack(f"<{count}h", *samples)):
                    break
                time.sleep(self.options.get("pace", 0))
        cancelled = self.is_cancelled(job)
        if cancelled:
            log(f"test engine: cancelled job {job}")
        frame("E", job, bytes([1 if cancelled else 0]))

    def run(self):
        options = self.options
        log(f"test engine: serving, pid {os.getpid()}")
        if options.get("pid_file"):
            with open(options["pid_file"] + ".tmp", "w") as file:
                file.write(str(os.getpid()))
            os.rename(options["pid_file"] + ".tmp", options["pid_file"])
        if options.get("fail_start"):
            log("test engine: failing at start, as asked")
            sys.exit(3)
        time.sleep(options.get("start_delay", 0))
        frame("L", 0, b"test engine loaded")
        frame("R", 0, json.dumps(LISTING).encode())
        threading.Thread(target=self.read_requests, daemon=True).start()
        while True:
            request = self.requests.get()
            # Each job's audio starts its ramp again, so a test can check one job's samples.
            self.ramp_at = 0
            self.serve(request)


def main(arguments):
    options = {}
    mode = None
    i = 0
    while i < len(arguments):
        name = arguments[i]
        if name in ("--list-voices", "--serve"):
            mode = name
        elif name == "--fail-start":
            options["fail_start"] = True
        elif name in ("--pid-file", "--misbehave", "--once"):
            i += 1
            options[name[2:].replace("-", "_")] = arguments[i]
        elif name == "--at-sentence":
            i += 1
            options["at"] = int(arguments[i])
        elif name == "--start-delay":
            i += 1
            options["start_delay"] = float(arguments[i])
        elif name == "--busy":
            i += 1
            options["busy"] = float(arguments[i])
        elif name == "--pace":
            i += 1
            options["pace"] = float(arguments[i])
        else:
            log(f"test engine: unknown option {name}")
            return 2
        i += 1
    if mode == "--list-voices":
        print(json.dumps(LISTING))
        return 0
    if mode == "--serve":
        Engine(options).run()
        return 0
    log("usage: test_engine.py --list-voices | --serve [options]")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
