#!/usr/bin/python3
"""narrator-piper: Narrator's Piper (neural text-to-speech) engine process.

    narrator-piper --list-voices    print the installed voices as JSON and exit
    narrator-piper --serve          speak jobs from stdin as frames on stdout

It speaks the protocol in docs/engine-protocol.md. `make piper` installs it as a launcher whose
first line names a private virtual environment holding piper-tts and the voice packages.

Voices are the Piper models (`NAME.onnx` beside `NAME.onnx.json`) that installed Python packages
ship, found through the packages' file lists, so listing them imports neither piper nor
onnxruntime. A voice's model is loaded the first time a job asks for it and kept; the default
voice (the first listed) is loaded before the `R` frame.

Piper synthesizes a whole utterance at once, so the text is cut here into sentences, and long
sentences into clauses, each short enough to be synthesized well within narratord's hang bound;
each piece gets its own `S` frame and its audio follows in frames of at most 100 ms. A cancel
stops the model run in progress (onnxruntime's RunOptions.terminate), not only the next piece.
"""

import collections
import csv
import json
import os
import queue
import re
import struct
import sys
import threading

ENGINE = "piper"
NORMAL_RATE = 175  # the words per minute that a voice's own speed stands for
LENGTH_SCALE_BOUNDS = (0.4, 2.5)  # past these Piper's speech smears or drags to no use
FRAME_SECONDS = 0.1  # the protocol's bound on the audio in one frame
MAX_PIECE_CHARS = 100  # about 16 words: 0.5 s of synthesis on two idle cores, a quarter of the hang bound


# --- Voices, found without importing piper or onnxruntime ---------------------------------------
# (nor importlib.metadata, pathlib or dataclasses: each would make `--list-voices` slower)


class VoiceFile(collections.namedtuple("VoiceFile", "name languages gender sample_rate model config")):
    """One installed Piper model, as `--list-voices` describes it."""

    def listing(self):
        return {"name": self.name, "languages": list(self.languages), "gender": self.gender,
                "sampleRate": self.sample_rate}


def model_stem(model):
    return os.path.basename(model)[: -len(".onnx")]


def languages_of(config):
    """`en_US` -> ("en-us", "en"): lower-case BCP 47 tags, most specific first."""
    code = config.get("language", {}).get("code") or config.get("espeak", {}).get("voice", "")
    tag = code.replace("_", "-").lower()
    base = tag.split("-")[0]
    return () if not tag else (tag,) if base == tag else (tag, base)


def voice_name(model):
    """The speaker in Piper's `LANG_REGION-SPEAKER-QUALITY.onnx` naming ("joe"), else the stem."""
    parts = model_stem(model).split("-")
    return parts[1] if len(parts) == 3 else model_stem(model)


def read_voice(model, config_path):
    """The voice a model and its JSON describe, or None when the JSON is not a Piper voice's."""
    try:
        with open(config_path, encoding="utf-8") as file:
            config = json.load(file)
        sample_rate = int(config["audio"]["sample_rate"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if "phoneme_id_map" not in config:
        return None
    # Piper's voice files do not say a speaker's gender; take it only from one that does.
    gender = config.get("gender") if config.get("gender") in ("male", "female") else "unspecified"
    return VoiceFile(voice_name(model), languages_of(config), gender, sample_rate, model, config_path)


def distributions():
    """(site directory, dist-info directory name) of every installed distribution on sys.path."""
    for site in dict.fromkeys(sys.path):
        try:
            names = os.listdir(site or ".")
        except OSError:
            continue
        yield from ((site, name) for name in sorted(names) if name.endswith(".dist-info"))


def shipped_files(site, dist_info):
    """The files a distribution installed, from its RECORD (csv: path, hash, size)."""
    try:
        with open(os.path.join(site, dist_info, "RECORD"), newline="", encoding="utf-8") as record:
            return [os.path.normpath(os.path.join(site, row[0])) for row in csv.reader(record) if row]
    except OSError:
        return []


def find_voices():
    """Every Piper voice that an installed distribution ships, sorted by name, names unique."""
    found = {}
    for site, dist_info in distributions():
        for config in shipped_files(site, dist_info):
            model = config[: -len(".json")]
            if config.endswith(".onnx.json") and os.path.isfile(model):
                voice = read_voice(model, config)
                if voice is not None:
                    found[model] = voice
    voices = []
    for voice in sorted(found.values(), key=lambda v: (v.name, v.model)):
        if any(v.name == voice.name for v in voices):  # a second model of one speaker: its stem
            voice = voice._replace(name=model_stem(voice.model))
        voices.append(voice)
    return voices


def piper_version():
    """piper-tts's version, from its dist-info directory's name (piper_tts-1.8.0.dist-info)."""
    for _, dist_info in distributions():
        name, _, version = dist_info[: -len(".dist-info")].partition("-")
        if name.lower() == "piper_tts":
            return version
    return "unknown"


def listing_json(voices):
    return json.dumps({"engine": ENGINE, "version": piper_version(), "voices": [v.listing() for v in voices]})


# --- Cutting text into pieces ---------------------------------------------------------------------

# A sentence ends at . ! ? or … (and any closing quotes or brackets) before white space, or at a
# blank line. A period after a known abbreviation or an initial, or before a lower-case word, ends
# nothing ("Dr. Smith", "J. R. R. Tolkien", "e.g. this").
SENTENCE_END = re.compile(r"""[.!?…]+["'”’)\]]*(?=\s)|\n[ \t]*\n""")
ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "no", "e.g", "i.e", "cf"}
CLAUSE_END = re.compile(r"[,;:]+(?=\s)|\s[—–-]+(?=\s)")


def ends_sentence(text, match):
    if match.group().startswith("\n"):
        return True
    following = text[match.end():].lstrip()
    if following[:1].islower():
        return False
    if not match.group().startswith("."):
        return True
    word = re.search(r"(\S*)$", text[: match.start()]).group(1).lower()
    return word not in ABBREVIATIONS and not (len(word) == 1 and word.isalpha())


def sentence_spans(text):
    start = 0
    for match in SENTENCE_END.finditer(text):
        if ends_sentence(text, match):
            yield start, match.end()
            start = match.end()
    yield start, len(text)


def word_groups(text, start, end):
    """Words of text[start:end] in runs of at most MAX_PIECE_CHARS (a longer word is chopped)."""
    group_start = group_end = None
    for word in re.finditer(r"\S+", text[start:end]):
        word_start, word_end = start + word.start(), start + word.end()
        if group_start is not None and word_end - group_start <= MAX_PIECE_CHARS:
            group_end = word_end
            continue
        if group_start is not None:
            yield group_start, group_end
        while word_end - word_start > MAX_PIECE_CHARS:
            yield word_start, word_start + MAX_PIECE_CHARS
            word_start += MAX_PIECE_CHARS
        group_start, group_end = word_start, word_end
    if group_start is not None:
        yield group_start, group_end


def short_spans(text, start, end):
    """A sentence as it is, or cut at clause marks (joined while short enough), else at words."""
    if end - start <= MAX_PIECE_CHARS:
        yield start, end
        return
    cuts = [match.end() for match in CLAUSE_END.finditer(text, start, end)]
    clauses = list(zip([start] + cuts, cuts + [end]))
    piece_start = piece_end = None
    for clause_start, clause_end in clauses:
        if piece_start is not None and clause_end - piece_start <= MAX_PIECE_CHARS:
            piece_end = clause_end
            continue
        if piece_start is not None:
            yield piece_start, piece_end
        piece_start, piece_end = clause_start, clause_end
        if clause_end - clause_start > MAX_PIECE_CHARS:
            yield from word_groups(text, clause_start, clause_end)
            piece_start = None
    if piece_start is not None:
        yield piece_start, piece_end


def pieces(text):
    """(UTF-8 byte offset of the piece's first character, the piece) for each piece to speak."""
    result = []
    counted, offset = 0, 0
    for sentence_start, sentence_end in sentence_spans(text):
        for start, end in short_spans(text, sentence_start, sentence_end):
            piece = text[start:end]
            start += len(piece) - len(piece.lstrip())
            piece = piece.strip()
            if piece:
                offset += len(text[counted:start].encode("utf-8"))
                counted = start
                result.append((offset, piece))
    return result


# --- Frames and requests --------------------------------------------------------------------------


class FrameWriter:
    """Writes the protocol's frames, whole and in order, from any thread."""

    def __init__(self, fd):
        self._fd = fd
        self._lock = threading.Lock()

    def send(self, kind, job, payload=b""):
        frame = memoryview(struct.pack("<cII", kind.encode(), job, len(payload)) + payload)
        with self._lock:
            try:
                while frame:
                    frame = frame[os.write(self._fd, frame):]
            except OSError:  # narratord is gone: nobody is left to speak to
                os._exit(0)


class Job(collections.namedtuple("Job", "id text voice rate volume")):
    """One speak request."""

    @staticmethod
    def parse(request):
        """The job a speak request asks for; KeyError, TypeError or ValueError when malformed."""
        job = Job(int(request["job"]), request["text"], request["voice"],
                  int(request.get("rate", NORMAL_RATE)), int(request.get("volume", 100)))
        if not isinstance(job.text, str) or not isinstance(job.voice, str):
            raise TypeError("text and voice must be strings")
        if not is_job_number(job.id):
            raise ValueError(f"job {job.id} is not a UInt32 above 0")
        return job


def is_job_number(value):
    return isinstance(value, int) and 0 < value < 2**32


class Rejected(collections.namedtuple("Rejected", "id reason")):
    """A speak request with a job number but no usable text or voice: it gets `F`, in its turn."""


class Cancelled(Exception):
    pass


class Cancellation:
    """The jobs a cancel has reached, shared by the reader thread and the job being served.

    The job being served runs each model pass with fresh RunOptions; cancelling it sets their
    terminate flag, which makes onnxruntime abandon the pass within a millisecond or so.
    """

    def __init__(self, new_run_options):
        self._lock = threading.Lock()
        self._new_run_options = new_run_options
        self._waiting = set()  # jobs read and not yet ended
        self._cancelled = set()
        self._current = None
        self._options = None

    def admit(self, job):
        with self._lock:
            self._waiting.add(job)

    def cancel(self, job):
        with self._lock:
            if job in self._waiting:  # a job already ended, or never seen, is ignored
                self._cancelled.add(job)
                if job == self._current and self._options is not None:
                    self._options.terminate = True

    def start(self, job):
        with self._lock:
            self._current, self._options = job, None

    def is_cancelled(self, job):
        with self._lock:
            return job in self._cancelled

    def run_options(self):
        """RunOptions for the next model pass of the current job; Cancelled if it is cancelled."""
        with self._lock:
            if self._current in self._cancelled:
                raise Cancelled()
            self._options = self._new_run_options()
            return self._options

    def finish(self, job):
        with self._lock:
            self._waiting.discard(job)
            self._cancelled.discard(job)
            self._current, self._options = None, None


def read_requests(stream, jobs, cancellation):
    """The reader thread: queues speak jobs, applies cancels at once, exits at end of input."""
    for line in stream:
        try:
            request = json.loads(line)
            if request.get("op") == "speak":
                try:
                    job = Job.parse(request)
                except (ValueError, KeyError, TypeError) as error:
                    if not is_job_number(request.get("job")):
                        raise
                    job = Rejected(request["job"], f"a malformed speak request ({type(error).__name__}: {error})")
                cancellation.admit(job.id)
                jobs.put(job)
            elif request.get("op") == "cancel":
                cancellation.cancel(int(request["job"]))
            else:
                raise ValueError(f"unknown op {request.get('op')!r}")
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            print(f"narrator-piper: ignoring the request {line[:200]!r}: {error}", file=sys.stderr, flush=True)
    os._exit(0)  # end of input: narratord is done with this engine, even mid-job


# --- Synthesis ------------------------------------------------------------------------------------


class InterruptibleSession:
    """Stands in for a PiperVoice's onnxruntime session so that every model pass can be cancelled.

    piper 1.8.0's PiperVoice only ever calls `session.run(output_names, inputs)`; this passes the
    current job's RunOptions along, which piper itself has no way to do.
    """

    def __init__(self, session, cancellation):
        self._session = session
        self._cancellation = cancellation

    def run(self, output_names, input_feed, run_options=None):
        return self._session.run(output_names, input_feed, self._cancellation.run_options())


class Engine:
    def __init__(self, voices, frames, cancellation):
        self._voices = {voice.name: voice for voice in voices}
        self._loaded = {}
        self._frames = frames
        self._cancellation = cancellation

    def load(self, name):
        """A voice's model, loaded the first time it is asked for and kept.

        Made as PiperVoice.load makes it, but with onnxruntime's threads (one per core) told not
        to spin while they wait: on busy cores spinning cost a clause 1.06 s of CPU instead of
        0.86 s and 2.05 s instead of 1.90 s; idle, both took 0.48 s.
        """
        if name not in self._loaded:
            import onnxruntime
            from piper import PiperConfig, PiperVoice

            voice_file = self._voices[name]
            with open(voice_file.config, encoding="utf-8") as file:
                config = PiperConfig.from_dict(json.load(file))
            options = onnxruntime.SessionOptions()
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            session = onnxruntime.InferenceSession(voice_file.model, sess_options=options,
                                                   providers=["CPUExecutionProvider"])
            self._loaded[name] = PiperVoice(config=config, session=InterruptibleSession(session, self._cancellation))
        return self._loaded[name]

    def serve(self, job):
        self._cancellation.start(job.id)
        try:
            if isinstance(job, Rejected):
                self._frames.send("F", job.id, job.reason.encode())
            elif job.voice not in self._voices:
                installed = ", ".join(self._voices)
                self._frames.send("F", job.id, f"no Piper voice named '{job.voice}'; installed: {installed}".encode())
            else:
                self.speak_in(job, self._voices[job.voice])
        finally:
            self._cancellation.finish(job.id)

    def speak_in(self, job, voice_file):
        try:
            voice = self.load(voice_file.name)
        except Exception as error:  # a broken model file: this job fails, the engine stays up
            self._frames.send("F", job.id, f"Piper could not load voice '{voice_file.name}' from {voice_file.model}: {error}".encode())
            return
        self.speak(job, voice)

    def speak(self, job, voice):
        from piper import SynthesisConfig

        sample_rate = voice.config.sample_rate
        self._frames.send("B", job.id, struct.pack("<I", sample_rate))
        # Piper has no pitch control: the request's pitch is not used.
        low, high = LENGTH_SCALE_BOUNDS
        length_scale = min(max(voice.config.length_scale * NORMAL_RATE / max(job.rate, 1), low), high)
        config = SynthesisConfig(length_scale=length_scale, volume=max(job.volume, 0) / 100)
        frame_bytes = 2 * int(sample_rate * FRAME_SECONDS)
        # The job's audio starts LEAD_SECONDS before its first loud sample: Piper begins with
        # about 30 ms of near-silence, heard as that much later an onset.
        trimming = True
        try:
            for offset, piece in pieces(job.text):
                first = True
                for chunk in voice.synthesize(piece, config):
                    audio = chunk.audio_int16_bytes
                    if trimming:
                        loud = first_loud_sample(audio)
                        if loud is None:
                            continue
                        audio = audio[2 * max(0, loud - int(sample_rate * LEAD_SECONDS)):]
                        trimming = False
                    for start in range(0, len(audio), frame_bytes):
                        if self._cancellation.is_cancelled(job.id):
                            raise Cancelled()
                        if first:
                            self._frames.send("S", job.id, struct.pack("<I", offset))
                            first = False
                        self._frames.send("A", job.id, audio[start:start + frame_bytes])
        except Exception as error:  # a terminated model pass raises onnxruntime's own error
            if not self._cancellation.is_cancelled(job.id):
                self._frames.send("F", job.id, f"Piper failed: {error}".encode())
                return
        self._frames.send("E", job.id, bytes([1 if self._cancellation.is_cancelled(job.id) else 0]))


LEAD_SECONDS = 0.015
# How much nicer than narratord the engine runs (see serve).
NICENESS = 5
# A sample at least this loud (about -42 dBFS) ends the leading silence.
LOUD = 256


def first_loud_sample(audio):
    """The index of the first sample of 16-bit little-endian `audio` at least LOUD, or None."""
    samples = memoryview(audio).cast("h")
    for index, sample in enumerate(samples):
        if sample >= LOUD or sample <= -LOUD:
            return index
    return None


def serve(voices):
    # The frames go to a private copy of stdout; fd 1 itself then points at stderr, so that
    # nothing piper, onnxruntime or eSpeak print can corrupt the stream.
    frames = FrameWriter(os.dup(1))
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # A model pass keeps every core busy for a tenth of a second or more: a little below
    # narratord's priority, its event loop (a CANCEL, another client's reply) runs first.
    try:
        os.nice(NICENESS)
    except OSError:
        pass

    import onnxruntime

    cancellation = Cancellation(onnxruntime.RunOptions)
    engine = Engine(voices, frames, cancellation)
    engine.load(voices[0].name)
    jobs = queue.Queue()
    threading.Thread(target=read_requests, args=(sys.stdin.buffer, jobs, cancellation), daemon=True).start()
    frames.send("R", 0, listing_json(voices).encode())
    while True:
        engine.serve(jobs.get())


def main(arguments):
    usage = "usage: narrator-piper --list-voices | --serve"
    if arguments in (["--help"], ["-h"]):
        print(usage)
        return 0
    if arguments not in (["--list-voices"], ["--serve"]):
        print(usage, file=sys.stderr)
        return 2
    voices = find_voices()
    if not voices:
        print(f"narrator-piper: no Piper voice is installed beside {sys.executable} "
              "(a voice is a Python package that ships NAME.onnx and NAME.onnx.json)", file=sys.stderr)
        return 1
    if arguments == ["--list-voices"]:
        print(listing_json(voices))
        return 0
    serve(voices)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
