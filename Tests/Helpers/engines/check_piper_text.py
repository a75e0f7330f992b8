#!/usr/bin/python3
"""Checks where narrator-piper cuts text, through its `S` frames: what narratord is told.

    /usr/bin/python3 check_piper_text.py NARRATOR_PIPER [--voice NAME]

Piper synthesizes a whole piece of text in one model pass, so narrator-piper cuts the text
itself: at sentence ends (not after "Dr." or an initial, nor before a lower-case word), at blank
lines, and a sentence over 100 characters at its clauses, else at words, so that no pass nears
narratord's hang bound. Each case is a speak job whose `S` offsets (UTF-8 bytes) are compared
with the ones the case expects. Exits 0 when all match, 1 naming the first that does not.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_engine import Engine, Failure, check, list_voices, speak  # noqa: E402

LONG_SENTENCE = ("The quick brown fox jumps over the lazy dog while the farmer, who had been working "
                 "since dawn, watched from the porch of his house.")
NO_PUNCTUATION = " ".join(["word"] * 60)


def at(text, *starts):
    """The UTF-8 byte offsets where each of the strings `starts` first occurs in text."""
    return [len(text[: text.index(start)].encode("utf-8")) for start in starts]


CASES = [
    ("abbreviations and initials end no sentence", "Dr. Smith met J. R. Tolkien at noon. He said hi.",
     lambda t: at(t, "Dr.", "He said")),
    ("a full stop before a lower-case word ends none", "Bring tea, milk etc. and some cake. Thanks!",
     lambda t: at(t, "Bring", "Thanks")),
    ("questions, exclamations and quotes", "Really?! \"Yes.\" She left.", lambda t: at(t, "Really", "\"Yes", "She")),
    ("byte offsets after accented letters", "Ça va? Très bien, merci.", lambda t: at(t, "Ça", "Très")),
    ("a blank line ends a sentence", "First line\n\nSecond line", lambda t: at(t, "First", "Second")),
    ("leading white space", "   Hello there.", lambda t: at(t, "Hello")),
    ("a long sentence is cut at a clause", LONG_SENTENCE, lambda t: at(t, "The quick", "watched")),
]


def check_no_punctuation(engine, voice):
    """300 characters without punctuation: pieces of at most 100, each from a word's start."""
    result = speak(engine, 100, NO_PUNCTUATION, voice)
    check(result.end == ("E", 0), f"no punctuation: ended with {result.end}")
    word_starts = set(at(NO_PUNCTUATION, "word")) | {i + 1 for i, c in enumerate(NO_PUNCTUATION) if c == " "}
    check(result.offsets[:1] == [0] and all(o in word_starts for o in result.offsets),
          f"no punctuation: S offsets {result.offsets} are not all at word starts")
    ends = result.offsets[1:] + [len(NO_PUNCTUATION)]
    check(all(end - start <= 101 for start, end in zip(result.offsets, ends)),
          f"no punctuation: S offsets {result.offsets} leave a piece over 100 characters")


def run(executable, voice):
    listing, _ = list_voices(executable)
    voice = voice or listing["voices"][0]["name"]
    engine = Engine(executable)
    try:
        engine.next_frame(120, "the R frame")
        for job, (name, text, expected) in enumerate(CASES, start=1):
            result = speak(engine, job, text, voice)
            check(result.end == ("E", 0), f"{name}: ended with {result.end}")
            check(result.offsets == expected(text), f"{name}: S offsets {result.offsets}, expected {expected(text)} in {text!r}")
            print(f"ok: {name}: S at {result.offsets}")
        check_no_punctuation(engine, voice)
        print("ok: 300 characters without punctuation are cut at words, at most 100 characters apart")
    except Failure as failure:
        raise Failure(f"{failure}\n--- stderr ---\n{engine.stderr_tail()}")
    finally:
        engine.kill()


def main():
    parser = argparse.ArgumentParser(description="Check where narrator-piper cuts text.")
    parser.add_argument("engine")
    parser.add_argument("--voice")
    arguments = parser.parse_args()
    try:
        run(arguments.engine, arguments.voice)
    except Failure as failure:
        print(f"check_piper_text: FAILED: {failure}", file=sys.stderr)
        return 1
    print("check_piper_text: every case passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
