#!/usr/bin/python3
"""Drives an engine executable through docs/engine-protocol.md and checks what it does.

    /usr/bin/python3 check_engine.py ENGINE_EXECUTABLE [--voice NAME]

Checks, in order, on one `--serve` process: the `--list-voices` JSON; `R` first, with the same
voices; a speak job of three sentences gets `B` (the voice's sample rate), an `S` at each
sentence's UTF-8 byte offset, `A` frames of real speech (loud enough, as long as the words
need, at most 100 ms each) and `E` 0; a faster rate gives shorter audio and a lower volume
quieter audio; a cancel after the first audio of a long text ends it with `E` 1 long before its
audio would be over; an unknown voice gets `F` naming it and the engine serves the next job;
cancels of ended or unknown jobs are ignored; end of input makes it exit 0 at once, even mid-job.

Prints a line per check passed. Exits 0 when all pass, printing the figures it measured as one
JSON object on the last line (seconds: ready, firstAudio per job, cancel); exits 1 with a line
saying what is wrong on the first failure. Uses Debian's python3 alone (no numpy).
"""

import argparse
import array
import json
import math
import queue
import struct
import subprocess
import sys
import tempfile
import threading
import time

FRAME_DEADLINE = 60.0  # seconds to wait for any one frame: generous, for a loaded machine
READY_DEADLINE = 120.0
EXIT_DEADLINE = 30.0
MIN_RMS = 300.0  # of 32767: speech at volume 100 is far louder, silence or noise far quieter

SENTENCES = ["Hello there.", "The café on the corner opens at nine.", "Is it working?"]
RATE_TEXT = "The quick brown fox jumps over the lazy dog."
LONG_TEXT = " ".join(
    f"This is sentence number {n} of a long text that nobody will hear to its end." for n in range(1, 16))


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def words(text):
    return len(text.split())


class Engine:
    """One `ENGINE --serve` process, its frames read on a thread into a queue."""

    def __init__(self, executable):
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen([executable, "--serve"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr)
        self.frames = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read_exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.process.stdout.read(count - len(data))
            if not chunk:
                return None if not data else data
            data += chunk
        return data

    def _read(self):
        while True:
            header = self._read_exactly(9)
            if header is None or len(header) < 9:
                self.frames.put(("eof", len(header or b"")))
                return
            kind, job, length = struct.unpack("<cII", header)
            payload = self._read_exactly(length) if length else b""
            if length and (payload is None or len(payload) < length):
                self.frames.put(("eof", "a frame cut short"))
                return
            self.frames.put((time.monotonic(), kind.decode("latin-1"), job, payload))

    def next_frame(self, deadline=FRAME_DEADLINE, what="a frame"):
        """The next frame other than `L` (logged to stderr): (time, type, job, payload)."""
        while True:
            try:
                frame = self.frames.get(timeout=deadline)
            except queue.Empty:
                raise Failure(f"no frame for {deadline:.0f} s while waiting for {what}")
            if frame[0] == "eof":
                raise Failure(f"the engine's output ended while waiting for {what} "
                              f"(exit status {self.process.poll()}, {frame[1]} bytes left over)")
            if frame[1] == "L" and frame[2] == 0:
                print(f"  engine log: {frame[3].decode('utf-8', 'replace')}", file=sys.stderr)
                continue
            return frame

    def send(self, request):
        self.process.stdin.write((json.dumps(request) + "\n").encode("utf-8"))
        self.process.stdin.flush()

    def stderr_tail(self):
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")[-3000:]

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class JobResult:
    """What one job got: its frames in order, its audio, its end."""

    def __init__(self, job, started):
        self.job, self.started = job, started
        self.sample_rate = None
        self.offsets = []
        self.audio = bytearray()
        self.first_audio = None
        self.end = None  # ("E", status) or ("F", message)
        self.ended_at = None

    @property
    def seconds(self):
        return len(self.audio) / 2 / self.sample_rate if self.sample_rate else 0.0

    def rms(self):
        samples = array.array("h")
        samples.frombytes(bytes(self.audio[: len(self.audio) // 2 * 2]))
        if sys.byteorder == "big":
            samples.byteswap()
        return math.sqrt(sum(s * s for s in samples) / len(samples)) if samples else 0.0


def collect(engine, job, started, on_first_audio=None):
    """Reads one job's frames to its E or F, checking their order and shape."""
    result = JobResult(job, started)
    while result.end is None:
        at, kind, frame_job, payload = engine.next_frame(what=f"job {job}'s frames")
        check(frame_job == job, f"a '{kind}' frame for job {frame_job} came while job {job} was in flight")
        if kind == "B":
            check(result.sample_rate is None, f"job {job} got a second B frame")
            check(len(payload) == 4, f"job {job}'s B payload is {len(payload)} bytes, not 4")
            result.sample_rate = struct.unpack("<I", payload)[0]
            check(result.sample_rate > 0, f"job {job}'s B frame gives sample rate 0")
        elif kind == "S":
            check(result.sample_rate is not None, f"job {job} got S before B")
            check(len(payload) == 4, f"job {job}'s S payload is {len(payload)} bytes, not 4")
            result.offsets.append(struct.unpack("<I", payload)[0])
        elif kind == "A":
            check(result.offsets, f"job {job} got audio before any S frame")
            check(len(payload) % 2 == 0, f"job {job} got an A frame of {len(payload)} bytes (not 16-bit samples)")
            limit = 2 * math.ceil(result.sample_rate / 10)
            check(len(payload) <= limit, f"job {job} got an A frame of {len(payload)} bytes, over 100 ms ({limit} bytes)")
            if result.first_audio is None:
                result.first_audio = at
                if on_first_audio:
                    on_first_audio()
            result.audio += payload
        elif kind == "E":
            check(result.sample_rate is not None, f"job {job} got E without B")
            check(len(payload) == 1 and payload[0] in (0, 1), f"job {job}'s E payload {payload!r} is not one byte 0 or 1")
            result.end, result.ended_at = ("E", payload[0]), at
        elif kind == "F":
            check(not result.audio, f"job {job} got F after audio")
            result.end, result.ended_at = ("F", payload.decode("utf-8", "replace")), at
        else:
            raise Failure(f"job {job} got a frame of unknown type {kind!r}")
    return result


def speak(engine, job, text, voice, rate=175, volume=100, on_first_audio=None):
    started = time.monotonic()
    engine.send({"op": "speak", "job": job, "text": text, "voice": voice, "rate": rate, "pitch": 50, "volume": volume})
    return collect(engine, job, started, on_first_audio)


def check_spoken(result, text, rate, what):
    check(result.end == ("E", 0), f"{what}: ended with {result.end}, not E 0")
    expected = words(text) / rate * 60
    check(0.3 * expected <= result.seconds <= 3 * expected,
          f"{what}: {result.seconds:.2f} s of audio for {words(text)} words at {rate} wpm (about {expected:.1f} s expected)")
    rms = result.rms()
    check(rms >= MIN_RMS, f"{what}: its audio is near silence (RMS {rms:.0f} < {MIN_RMS:.0f})")


def byte_offsets(sentences):
    offsets, at = [], 0
    for sentence in sentences:
        offsets.append(at)
        at += len((sentence + " ").encode("utf-8"))
    return offsets


def list_voices(executable):
    started = time.monotonic()
    try:
        listed = subprocess.run([executable, "--list-voices"], capture_output=True, timeout=EXIT_DEADLINE)
    except subprocess.TimeoutExpired:
        raise Failure(f"--list-voices did not exit within {EXIT_DEADLINE:.0f} s")
    seconds = time.monotonic() - started
    check(listed.returncode == 0, f"--list-voices exited {listed.returncode}: {listed.stderr.decode(errors='replace')}")
    try:
        listing = json.loads(listed.stdout)
    except ValueError as error:
        raise Failure(f"--list-voices printed no JSON ({error}): {listed.stdout[:300]!r}")
    check_listing(listing, "--list-voices")
    return listing, seconds


def check_listing(listing, what):
    check(isinstance(listing, dict), f"{what}: not a JSON object")
    check(isinstance(listing.get("engine"), str) and listing["engine"], f"{what}: no engine name")
    check(isinstance(listing.get("version"), str), f"{what}: no version string")
    voices = listing.get("voices")
    check(isinstance(voices, list) and voices, f"{what}: no voices")
    names = [v.get("name") for v in voices if isinstance(v, dict)]
    check(len(names) == len(voices) and all(isinstance(n, str) and n for n in names), f"{what}: a voice without a name")
    check(len(set(names)) == len(names), f"{what}: voice names repeat: {names}")
    for voice in voices:
        languages = voice.get("languages")
        check(isinstance(languages, list) and languages and all(isinstance(l, str) and l == l.lower() for l in languages),
              f"{what}: voice {voice['name']}'s languages {languages!r} are not lower-case tags")
        check(voice.get("gender") in ("male", "female", "unspecified"), f"{what}: voice {voice['name']}'s gender {voice.get('gender')!r}")
        check(isinstance(voice.get("sampleRate"), int) and voice["sampleRate"] > 0,
              f"{what}: voice {voice['name']}'s sampleRate {voice.get('sampleRate')!r}")


def run(executable, voice_name):
    figures = {}
    listing, figures["listVoices"] = list_voices(executable)
    voices = {v["name"]: v for v in listing["voices"]}
    voice_name = voice_name or listing["voices"][0]["name"]
    check(voice_name in voices, f"--list-voices has no voice '{voice_name}' (it has {', '.join(voices)})")
    print(f"ok: --list-voices lists {len(voices)} voice(s) of {listing['engine']} {listing['version']}; using '{voice_name}'")

    engine = Engine(executable)
    try:
        started = time.monotonic()
        at, kind, job, payload = engine.next_frame(READY_DEADLINE, "the R frame")
        check(kind == "R" and job == 0, f"the first frame is '{kind}' for job {job}, not R for job 0")
        check(json.loads(payload) == listing, "R's voices differ from --list-voices'")
        figures["ready"] = at - started
        print("ok: R first, with the listed voices")

        text = " ".join(SENTENCES)
        result = speak(engine, 1, text, voice_name)
        check(result.sample_rate == voices[voice_name]["sampleRate"],
              f"B gives {result.sample_rate} Hz, the listing {voices[voice_name]['sampleRate']} Hz")
        check(result.offsets == byte_offsets(SENTENCES),
              f"S offsets {result.offsets}, not the sentences' UTF-8 byte offsets {byte_offsets(SENTENCES)}")
        check_spoken(result, text, 175, "three sentences")
        figures["firstAudio"] = {"threeSentences": result.first_audio - result.started}
        print(f"ok: B, S at {result.offsets}, {result.seconds:.2f} s of speech (RMS {result.rms():.0f}), E 0")

        normal = speak(engine, 2, RATE_TEXT, voice_name, rate=175)
        fast = speak(engine, 3, RATE_TEXT, voice_name, rate=350)
        check_spoken(normal, RATE_TEXT, 175, "rate 175")
        check_spoken(fast, RATE_TEXT, 350, "rate 350")
        check(fast.seconds < 0.8 * normal.seconds, f"rate 350 gives {fast.seconds:.2f} s, rate 175 {normal.seconds:.2f} s")
        quiet = speak(engine, 4, RATE_TEXT, voice_name, volume=40)
        check(quiet.end == ("E", 0), f"volume 40: ended with {quiet.end}")
        check(quiet.rms() < 0.7 * normal.rms(), f"volume 40 has RMS {quiet.rms():.0f}, volume 100 {normal.rms():.0f}")
        figures["firstAudio"]["oneSentence"] = normal.first_audio - normal.started
        print(f"ok: rate 350 takes {fast.seconds / normal.seconds:.2f} of rate 175's time; "
              f"volume 40 has {quiet.rms() / normal.rms():.2f} of volume 100's RMS")

        cancel_sent = []

        def cancel():
            cancel_sent.append(time.monotonic())
            engine.send({"op": "cancel", "job": 5})

        long = speak(engine, 5, LONG_TEXT, voice_name, on_first_audio=cancel)
        check(cancel_sent, "the long text got no audio to cancel after")
        check(long.end == ("E", 1), f"cancelled mid-job: ended with {long.end}, not E 1")
        whole = words(LONG_TEXT) / 175 * 60
        check(long.seconds < 0.5 * whole, f"cancelled mid-job: {long.seconds:.1f} s of its about {whole:.0f} s came anyway")
        figures["cancel"] = long.ended_at - cancel_sent[0]
        print(f"ok: a cancel after the first audio ended the job with E 1 ({long.seconds:.1f} s of {whole:.0f} s sent)")

        engine.send({"op": "cancel", "job": 5})  # ended: ignored
        engine.send({"op": "cancel", "job": 999})  # never seen: ignored
        unknown = speak(engine, 6, "Nobody has this voice.", "no-such-voice-x")
        check(unknown.end is not None and unknown.end[0] == "F", f"an unknown voice: ended with {unknown.end}, not F")
        check("no-such-voice-x" in unknown.end[1], f"the F message does not name the voice: {unknown.end[1]!r}")
        after = speak(engine, 7, "Still here.", voice_name)
        check_spoken(after, "Still here.", 175, "the job after an unknown voice")
        print(f"ok: an unknown voice got F ({unknown.end[1]!r}); stale cancels ignored; the next job was spoken")

        engine.send({"op": "speak", "job": 8, "text": LONG_TEXT, "voice": voice_name, "rate": 175, "pitch": 50, "volume": 100})
        while True:
            at, kind, job, payload = engine.next_frame(what="job 8's first audio")
            check(job == 8 and kind in "BSA", f"job 8 got '{kind}' (job {job}) before its first audio")
            if kind == "A":
                break
        engine.process.stdin.close()
        try:
            status = engine.process.wait(EXIT_DEADLINE)
        except subprocess.TimeoutExpired:
            raise Failure(f"the engine did not exit within {EXIT_DEADLINE:.0f} s of the end of its input")
        check(status == 0, f"the engine exited {status} at the end of its input, not 0")
        while True:
            try:
                frame = engine.frames.get(timeout=FRAME_DEADLINE)
            except queue.Empty:
                raise Failure("the engine exited but its output did not end")
            if frame[0] == "eof":
                break
            check(frame[1] != "E", "the engine finished job 8 after its input ended instead of exiting at once")
        print("ok: end of input mid-job: exit 0 at once")
    except Failure as failure:
        tail = engine.stderr_tail()
        raise Failure(f"{failure}" + (f"\n--- the engine's stderr ---\n{tail}" if tail else ""))
    finally:
        engine.kill()
    return figures


def main():
    parser = argparse.ArgumentParser(description="Check an engine process against docs/engine-protocol.md.")
    parser.add_argument("engine", help="the engine executable")
    parser.add_argument("--voice", help="the voice to speak with (default: the first listed)")
    arguments = parser.parse_args()
    try:
        figures = run(arguments.engine, arguments.voice)
    except Failure as failure:
        print(f"check_engine: FAILED: {arguments.engine}: {failure}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"check_engine: FAILED: cannot run {arguments.engine}: {error}", file=sys.stderr)
        return 1
    print(f"check_engine: every check passed for {arguments.engine}")
    print(json.dumps({k: (round(v, 4) if isinstance(v, float) else {n: round(s, 4) for n, s in v.items()})
                      for k, v in figures.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
