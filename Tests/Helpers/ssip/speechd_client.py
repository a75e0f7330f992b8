#!/usr/bin/python3
"""Drives an SSIP server with Debian's python3-speechd client and prints what it observed.

    /usr/bin/python3 speechd_client.py SCENARIO [--address unix_socket:PATH] [--timeout S]

The address defaults to $SPEECHD_ADDRESS; autospawn is always off, so a missing server is an
error, never a stray speech-dispatcher. Output: one JSON object per line. Every line has
"scenario" and "kind"; times "t" are seconds on the monotonic clock since the scenario started.
The last line is {"kind": "result", "ok": true|false, ...} with what the scenario checks; the exit
status is 0 when ok, 1 when not, 2 when the server could not be reached.

Scenarios:
  hello       speak a short text, callbacks begin, end
  callbacks   SSML with three <mark/>s in one sentence: begin, index_mark m1 m2 m3, end, in order
  marks_across_sentences  the same with the marks after sentence ends (speech-dispatcher 0.11.4
              fails it: it sends no 700 at all for such a message)
  setters     every setter and getter, each result or error
  cancel      a long text cancelled after 0.3 s: begin, then cancel
  pause       pause at 0.4 s, resume at 1.2 s: the pause/resume callbacks and whether it ends
  priorities  the priority cases of ssip.md, two connections, the event order of each case
  begins      50 short messages with the library's own callback handler: every one's BEGIN arrives
  voices      list_synthesis_voices(): every (name, language, variant) triple, in the result
  module      set_output_module(--module), then its voices and a sentence spoken to its end:
              list_output_modules(), the voices listed after the switch, begin, end
  all         every scenario above except pause, in one run
"""

import argparse
import os
import sys
import threading
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_common import emit  # noqa: E402

import speechd  # noqa: E402  (python3-speechd, Debian's module: run with /usr/bin/python3)

CB = speechd.CallbackType
ALL_EVENTS = [CB.BEGIN, CB.END, CB.CANCEL, CB.PAUSE, CB.RESUME, CB.INDEX_MARK]
FINAL = ("end", "cancel")
NAMES = {CB.BEGIN: "begin", CB.END: "end", CB.CANCEL: "cancel", CB.PAUSE: "pause",
         CB.RESUME: "resume", CB.INDEX_MARK: "index_mark"}

LONG = ("This is a long sentence that keeps the synthesizer busy for several seconds, "
        "so that whatever comes next has something to interrupt, cancel, or wait behind. "
        "It goes on and on, with more words than anyone would want to hear twice.")


class Observer:
    """Collects callbacks from the client's event thread; waits for them with timeouts."""

    def __init__(self, scenario, t0):
        self.scenario = scenario
        self.t0 = t0
        self.events = []  # dicts
        self.cond = threading.Condition()

    def callback(self, label):
        def cb(event_type, index_mark=None, early=False):
            ev = {"scenario": self.scenario, "kind": "callback", "msg": label,
                  "type": NAMES.get(event_type, str(event_type)),
                  "t": round(time.monotonic() - self.t0, 4)}
            if early:
                ev["before_reply"] = True
            if index_mark is not None:
                ev["mark"] = index_mark
            with self.cond:
                self.events.append(ev)
                self.cond.notify_all()
            emit(ev)
        return cb

    def wait(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not predicate(self.events):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
            return True

    def final(self, label):
        return lambda evs: any(e["msg"] == label and e["type"] in FINAL for e in evs)

    def types(self, label):
        return [e["type"] for e in self.events if e["msg"] == label]


class EarlyEventHandler:
    """Replaces python3-speechd's _CallbackHandler, which drops any event that arrives before
    speak() has registered the callback for its message id. speech-dispatcher sends the 703 of a
    dropped notification before the 225 reply that tells the id, so the stock client never sees
    it. Here such events are kept and replayed (marked "early") when the callback is added."""

    def __init__(self, client_id):
        self._client_id = client_id
        self._callbacks = {}
        self._early = {}
        self._lock = threading.Lock()

    def _dispatch(self, msg_id, type, kwargs, early):
        callback, event_types = self._callbacks[msg_id]
        if event_types is None or type in event_types:
            callback(type, early=early, **kwargs)
        if type in (CB.END, CB.CANCEL):
            del self._callbacks[msg_id]

    def __call__(self, msg_id, client_id, type, **kwargs):
        with self._lock:
            if msg_id in self._callbacks:
                self._dispatch(msg_id, type, kwargs, False)
            else:
                self._early.setdefault(msg_id, []).append((type, kwargs))

    def add_callback(self, msg_id, callback, event_types):
        with self._lock:
            self._callbacks[msg_id] = (callback, event_types)
            for type, kwargs in self._early.pop(msg_id, []):
                if msg_id in self._callbacks:
                    self._dispatch(msg_id, type, kwargs, True)


def connect(address, name="harness", component="main", stock=False):
    """A client; with `stock`, python3-speechd's own callback handler, as Orca and every other
    program that uses the library has it."""
    c = speechd.SSIPClient(name, component=component, user="narrator-test",
                           address=address, autospawn=False)
    if not stock:
        c._callback_handler = EarlyEventHandler(c._client_id)
        c._conn.set_callback(c._callback_handler)
    return c


def note(scenario, t0, what, **extra):
    d = {"scenario": scenario, "kind": "step", "step": what, "t": round(time.monotonic() - t0, 4)}
    d.update(extra)
    emit(d)


def speak(client, obs, label, text, t0):
    r = client.speak(text, callback=obs.callback(label), event_types=ALL_EVENTS)
    note(obs.scenario, t0, "speak", msg=label, reply=[r[0], r[1]], id=r[2][0] if r[2] else None)
    return r


# ------------------------------------------------------------------ scenarios


def hello(address, timeout):
    t0 = time.monotonic()
    obs = Observer("hello", t0)
    c = connect(address)
    try:
        speak(c, obs, "hello", "Hello from the harness.", t0)
        done = obs.wait(obs.final("hello"), timeout)
        seq = obs.types("hello")
        return {"ok": done and seq == ["begin", "end"], "sequence": seq, "timed_out": not done}
    finally:
        c.close()


def voices(address, timeout):
    c = connect(address)
    try:
        listed = c.list_synthesis_voices()
        return {"ok": len(listed) > 0, "count": len(listed), "voices": [list(v) for v in listed]}
    finally:
        c.close()


MARKS_ONE_SENTENCE = ('<speak>The first part, <mark name="m1"/>the second part, '
                      '<mark name="m2"/>the third <mark name="m3"/>and the end.</speak>')
# speech-dispatcher 0.11.4 with eSpeak NG loses every mark of a message that holds sentence ends
# (observed: no 700 at all for this text; fine for one sentence). Orca sends one sentence per
# message, so it does not notice; narratord must deliver these marks too.
MARKS_SENTENCES = ('<speak>First part. <mark name="m1"/>Second part of the text. '
                   '<mark name="m2"/>Third part. <mark name="m3"/>The end.</speak>')


def callbacks(address, timeout, text=MARKS_ONE_SENTENCE, scenario="callbacks"):
    t0 = time.monotonic()
    obs = Observer(scenario, t0)
    c = connect(address)
    try:
        c.set_data_mode(speechd.DataMode.SSML)
        speak(c, obs, "ssml", text, t0)
        done = obs.wait(obs.final("ssml"), timeout)
        seq = [e["type"] + (":" + e["mark"] if "mark" in e else "") for e in obs.events]
        want = ["begin", "index_mark:m1", "index_mark:m2", "index_mark:m3", "end"]
        times = [e["t"] for e in obs.events]
        return {"ok": done and seq == want and times == sorted(times), "sequence": seq, "expected": want,
                "timed_out": not done}
    finally:
        c.close()


def cancel(address, timeout):
    t0 = time.monotonic()
    obs = Observer("cancel", t0)
    c = connect(address)
    try:
        speak(c, obs, "long", LONG, t0)
        obs.wait(lambda evs: any(e["type"] == "begin" for e in evs), timeout)
        time.sleep(max(0, 0.3 - (time.monotonic() - t0)))
        sent = time.monotonic()
        c.cancel()
        note("cancel", t0, "cancel sent")
        done = obs.wait(obs.final("long"), timeout)
        seq = obs.types("long")
        cancel_t = next((e["t"] for e in obs.events if e["type"] == "cancel"), None)
        latency = None if cancel_t is None else round(cancel_t - (sent - t0), 4)
        return {"ok": done and seq == ["begin", "cancel"], "sequence": seq, "cancel_latency": latency,
                "timed_out": not done}
    finally:
        c.close()


def pause(address, timeout):
    """Pause, then resume. What a correct server should do: 704 then 705, then the rest and END.
    speech-dispatcher 0.11.4 sends neither event and goes silent (ssip.md): reported, not hidden."""
    t0 = time.monotonic()
    obs = Observer("pause", t0)
    c = connect(address)
    try:
        speak(c, obs, "long", LONG, t0)
        obs.wait(lambda evs: any(e["type"] == "begin" for e in evs), timeout)
        time.sleep(max(0, 0.4 - (time.monotonic() - t0)))
        r = c.pause()
        note("pause", t0, "pause", reply=repr(r))
        paused = obs.wait(lambda evs: any(e["type"] == "pause" for e in evs), 2)
        time.sleep(max(0, 1.2 - (time.monotonic() - t0)))
        r = c.resume()
        note("pause", t0, "resume", reply=repr(r))
        resumed = obs.wait(lambda evs: any(e["type"] == "resume" for e in evs), 2)
        ended = obs.wait(obs.final("long"), timeout)
        seq = obs.types("long")
        if not ended:
            try:
                c.cancel()
            except Exception:
                pass
        return {"ok": paused and resumed and ended and seq[:3] == ["begin", "pause", "resume"] and seq[-1] == "end",
                "sequence": seq, "pause_event": paused, "resume_event": resumed, "ended": ended}
    finally:
        c.close()


def setters(address, timeout):
    t0 = time.monotonic()
    c = connect(address)
    P = speechd.PunctuationMode
    calls = [
        ("set_rate", 20), ("set_pitch", -10), ("set_pitch_range", 5), ("set_volume", 80),
        ("set_punctuation", P.SOME), ("set_spelling", True), ("set_spelling", False),
        ("set_cap_let_recogn", "icon"), ("set_voice", "FEMALE1"),
        ("set_synthesis_voice", "English (Great Britain)"), ("set_output_module", "espeak-ng"),
        ("set_language", "en"), ("set_priority", speechd.Priority.TEXT),
        ("set_data_mode", speechd.DataMode.SSML), ("set_data_mode", speechd.DataMode.TEXT),
        ("set_pause_context", 2),
        ("get_rate",), ("get_pitch",), ("get_volume",), ("get_language",), ("get_output_module",),
        ("get_punctuation",), ("list_output_modules",), ("list_synthesis_voices",),
        ("block_begin",), ("block_end",),
        # Out of range or unknown values: the python client refuses these itself (AssertionError),
        # so they are sent raw too; the server must answer an error code, not crash or hang.
        ("set_rate", 500), ("set_priority", "urgent"), ("set_punctuation", "loud"),
        ("raw", "SET", "self", "RATE", "500"), ("raw", "SET", "self", "PRIORITY", "urgent"),
        ("raw", "SET", "self", "PUNCTUATION", "loud"), ("raw", "FOO", "BAR"), ("raw", "GET", "NOSUCH"),
    ]
    INVALID = ([500], ["urgent"], ["loud"])
    results = []
    errors = 0
    try:
        # The client id the python client asked for at connect (HISTORY GET CLIENT_ID).
        cid = getattr(c, "_client_id", None) or getattr(getattr(c, "_callback_handler", None), "_client_id", None)
        emit({"scenario": "setters", "kind": "client_id", "value": cid})
        for call in calls:
            name, args = call[0], call[1:]
            d = {"scenario": "setters", "kind": "call", "call": name, "args": list(args),
                 "t": round(time.monotonic() - t0, 4)}
            try:
                if name == "raw":
                    r = c._conn.send_command(*args)
                    value = [r[0], r[1]]
                else:
                    value = getattr(c, name)(*args)
                if name == "list_synthesis_voices":
                    value = {"count": len(value), "first": [list(v) for v in value[:3]]}
                elif isinstance(value, tuple):
                    value = list(value)
                d["result"] = value if isinstance(value, (int, str, list, dict, type(None), bool)) else repr(value)
            except Exception as e:
                d["error"] = "%s: %s" % (type(e).__name__, e)
                errors += 1
            emit(d)
            results.append(d)
        valid = [r for r in results if r["args"] not in INVALID and r["call"] != "raw"]
        invalid = [r for r in results if r not in valid]
        ok_valid = all("error" not in r for r in valid)
        ok_invalid = all("error" in r for r in invalid)
        # After the errors the connection must still work.
        try:
            alive = c.get_rate() is not None
        except Exception:
            alive = False
        return {"ok": ok_valid and ok_invalid and alive and cid is not None,
                "valid_calls_failed": [r["call"] for r in valid if "error" in r],
                "invalid_calls_accepted": [r["call"] for r in invalid if "error" not in r],
                "alive_after_errors": alive, "client_id": cid}
    finally:
        c.close()


# (name, [(connection, label, priority, text, delay before sending)], what ssip.md says happens)
PRIORITY_CASES = [
    ("text_then_text", [("a", "A", "text", LONG, 0), ("b", "B", "text", "Short text.", 0.3)],
     {"A": ["begin", "cancel"], "B": ["begin", "end"]}),
    ("message_then_message", [("a", "A", "message", "A first message, of a few words.", 0),
                              ("b", "B", "message", "Second message.", 0.3)],
     {"A": ["begin", "end"], "B": ["begin", "end"]}),
    ("text_then_notification", [("a", "A", "text", "A text of a few words, spoken to its end.", 0),
                                ("b", "N", "notification", "Notification.", 0.3)],
     {"A": ["begin", "end"], "N": ["cancel"]}),
    ("text_then_important", [("a", "A", "text", LONG, 0), ("b", "I", "important", "Important.", 0.3)],
     {"A": ["begin", "cancel"], "I": ["begin", "end"]}),
    ("message_then_important", [("a", "A", "message", LONG, 0), ("b", "I", "important", "Important.", 0.3)],
     {"A": ["begin", "cancel"], "I": ["begin", "end"]}),
    ("text_then_message", [("a", "A", "text", LONG, 0), ("b", "M", "message", "Message.", 0.3)],
     {"A": ["begin", "cancel"], "M": ["begin", "end"]}),
    ("notification_then_notification", [("a", "N1", "notification", LONG, 0),
                                        ("b", "N2", "notification", "Second notification.", 0.3)],
     {"N1": ["begin", "cancel"], "N2": ["begin", "end"]}),
    ("progress_burst", [("a", "P%d" % i, "progress", "%d percent" % (i * 25), 0 if i == 1 else 0.05)
                        for i in range(1, 5)],
     {"P1": ["begin", "end"], "P2": ["cancel"], "P3": ["cancel"], "P4": ["begin", "end"]}),
]


def priorities(address, timeout):
    results = {}
    all_ok = True
    conns = {"a": connect(address, component="a"), "b": connect(address, component="b")}
    try:
        for name, steps, expected in PRIORITY_CASES:
            t0 = time.monotonic()
            obs = Observer("priorities", t0)
            for conn, label, prio, text, delay in steps:
                time.sleep(delay)
                conns[conn].set_priority(prio)
                speak(conns[conn], obs, label, text, t0)
                if delay == 0 and conn == "a" and label in ("A", "N1", "P1"):
                    obs.wait(lambda evs, l=label: any(e["msg"] == l for e in evs), 5)
            labels = [s[1] for s in steps]
            done = obs.wait(lambda evs: all(obs.final(l)(evs) for l in labels), timeout)
            got = {l: obs.types(l) for l in labels}
            order = ["%s %s" % (e["msg"], e["type"]) for e in sorted(obs.events, key=lambda e: e["t"])
                     if e["type"] != "index_mark"]
            ok = done and got == expected
            all_ok = all_ok and ok
            results[name] = ok
            emit({"scenario": "priorities", "kind": "case", "case": name, "ok": ok, "got": got,
                  "expected": expected, "order": order, "timed_out": not done,
                  "times": {"%s %s" % (e["msg"], e["type"]): e["t"] for e in obs.events}})
            if not done:
                for c in conns.values():
                    try:
                        c.cancel()
                    except Exception:
                        pass
            time.sleep(0.2)
        return {"ok": all_ok, "cases": results}
    finally:
        for c in conns.values():
            c.close()


def begins(address, timeout, count=50):
    """The stock client, as programs use it: `count` short messages one after another, each
    waited for to its end. Its handler drops an event that arrives before speak() registered the
    message's callback, so a server that sends 701 with (or right after) the 225 loses BEGINs."""
    t0 = time.monotonic()
    obs = Observer("begins", t0)
    c = connect(address, stock=True)
    try:
        c.set_rate(100)  # the fastest: the run is about the events, not the words
        finished = 0
        for n in range(count):
            label = "m%d" % n
            r = c.speak("%d" % n, callback=obs.callback(label), event_types=[CB.BEGIN, CB.END, CB.CANCEL])
            if r[0] != 225:
                return {"ok": False, "error": "SPEAK answered %s %s" % (r[0], r[1])}
            if obs.wait(obs.final(label), timeout):
                finished += 1
        with_begin = sum(1 for n in range(count) if "begin" in obs.types("m%d" % n))
        return {"ok": with_begin == count and finished == count, "messages": count, "begins": with_begin, "finished": finished}
    finally:
        c.close()


def module(address, timeout, name="flite"):
    """A client that picks an engine as Orca does (set_output_module), then speaks through it."""
    t0 = time.monotonic()
    obs = Observer("module", t0)
    c = connect(address, name="module")
    try:
        modules = list(c.list_output_modules())
        c.set_output_module(name)
        voices = [list(v) for v in c.list_synthesis_voices()]
        note("module", t0, "set_output_module", module=name, modules=modules, voices=len(voices))
        speak(c, obs, "module", "Spoken through the output module the client picked.", t0)
        done = obs.wait(obs.final("module"), timeout)
        seq = obs.types("module")
        return {"ok": done and seq == ["begin", "end"] and name in modules, "sequence": seq, "timed_out": not done,
                "modules": modules, "voices": voices}
    finally:
        c.close()


def marks_across_sentences(address, timeout):
    return callbacks(address, timeout, MARKS_SENTENCES, "marks_across_sentences")


SCENARIOS = {"hello": hello, "callbacks": callbacks, "marks_across_sentences": marks_across_sentences, "setters": setters, "cancel": cancel,
             "pause": pause, "priorities": priorities, "begins": begins, "voices": voices,
             "module": module}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("scenario", choices=sorted(SCENARIOS) + ["all"])
    p.add_argument("--address", default=os.environ.get("SPEECHD_ADDRESS"))
    p.add_argument("--timeout", type=float, default=20, help="per wait, seconds")
    p.add_argument("--module", default="flite", help="the output module the module scenario picks")
    a = p.parse_args()
    if not a.address:
        emit({"kind": "result", "ok": False, "error": "no --address and no SPEECHD_ADDRESS"})
        return 2
    # A watchdog for the whole run: a server that never answers must not hang the caller.
    watchdog = threading.Timer(a.timeout * 6, lambda: (emit({"kind": "result", "ok": False,
                                                              "error": "watchdog: scenario hung"}),
                                                        os._exit(1)))
    watchdog.daemon = True
    watchdog.start()
    names = ["hello", "callbacks", "setters", "cancel", "priorities"] if a.scenario == "all" else [a.scenario]
    ok = True
    for name in names:
        try:
            r = module(a.address, a.timeout, a.module) if name == "module" else SCENARIOS[name](a.address, a.timeout)
        except (speechd.SSIPCommunicationError, ConnectionError, FileNotFoundError) as e:
            emit({"scenario": name, "kind": "result", "ok": False, "error": "cannot reach the server: %s" % e})
            return 2
        except Exception as e:
            r = {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
        r.update(scenario=name, kind="result")
        emit(r)
        ok = ok and r["ok"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
