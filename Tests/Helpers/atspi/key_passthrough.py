#!/usr/bin/python3
"""What Narrator's key listener costs the keys it does not take: key press to the application's
key-press-event for plain letters typed into a GTK 3 text field, with and without Narrator running,
on the same headless desktop in the same run.

    /usr/bin/python3 Tests/Helpers/atspi/key_passthrough.py [--bin DIR] [--keys x11|atspi]
        [--toolkit gtk3|gtk4] [--presses N]
        [--rounds R] [--interval SECONDS] [--timeout SECONDS]

    e.g. /usr/bin/python3 Tests/Helpers/atspi/key_passthrough.py --bin .build/release

narrator-atspi (`run --keys x11`, the default) grabs only the keys it takes and sees the rest as X
raw events, so the application never waits for it; with `--keys atspi` it listens to every key
synchronously through the registry, which holds each key until narrator-atspi answers. Either
way, once any AT-SPI client reads a GTK 3 application, its atk-bridge asks the registry about
every key (NotifyListenersSync) before handling it: the "bare" phase measures that floor. A
letter typed into a text field is not taken; this measures how much later the application gets it.

One desktop, as orca_compare.py builds it (Xvfb, a private session bus that activates nothing, the
AT-SPI bus launcher and registry), and one fixture: this file run with --fixture, a GTK 3 window
("Narrator key fixture") holding one focused Gtk.Entry whose key-press-event handler prints
{"t": time.time(), "key": name} (flushed) as its first act, and {"len": n} on each change of its
text. Then --rounds rounds of three phases (A B C A B C ...), each of
--presses / --rounds letters (a, b, c, ...) --interval apart, after two warm-up letters:

  without  only the desktop and the fixture (no narratord, no narrator-atspi);
  bare     (not with --no-bare) a bare libatspi keystroke listener in Python (this file run with
           --listener), registered as narrator-atspi registers its own (press and release,
           SYNCHRONOUS | CANCONSUME, all 32 modifier combinations), answering False at once: what
           the AT-SPI round trips cost any screen reader that listens so, before it decides anything;
  with     a private `narratord --socket S --audio null --state-dir D` and `narrator-atspi run
           --socket S` from --bin, started for the phase and stopped after it, the presses
           beginning once `narratorctl --socket S trees` lists the fixture.

Keys are injected with XTEST (python3-xlib, one connection opened beforehand): per press,
app_ms = the handler's time.time() - the time.time() taken just before the KeyPress request is
written. The same clock on the same machine, so nothing is corrected.

Output: one JSON object on stdout: {"samples", "without_ms": {"p50", "p95", "min", "max", "n"},
"with_ms": {...}, "ratio_p50", "ratio_p95" (with over without), "bare_ms": {...},
"with_over_bare_p50", "reached": {...}, "notes": [...], ...}; "reached" says,
per phase, how many letters the handler saw and how much the entry's text grew (every letter
reached the entry: the text grew by the letters pressed). Progress on stderr. Exit 0 when every
phases have every sample and every letter reached the entry, 1 otherwise, 2 with {"skip": reason}
when a tool or a Narrator binary is missing. Everything runs in its own process group and is
killed at the end; whatever still carries this run's environment is killed too; the temporary
directory is removed.
"""

import argparse
import json
import os
import signal
import string
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.dont_write_bytecode = True  # nothing written into the source tree

TITLE = "Narrator key fixture"
LETTERS = string.ascii_lowercase
WARMUP = 2
HOLD = 0.02  # seconds a key is held before its release (press())


# ---------------------------------------------------------------- the fixture (child process)


def emit(line):
    """One JSON line on standard output, flushed at once: the harness reads it as it comes."""
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def fixture_main(lifetime):
    import gi
    gi.require_version("Gtk", "3.0")
    gi.require_version("Gdk", "3.0")
    from gi.repository import Gdk, GLib, Gtk

    def on_key(_widget, event):
        t = time.time()  # first thing: the moment the application has the key
        emit({"t": t, "key": Gdk.keyval_name(event.keyval)})
        return False  # the entry goes on to insert the letter

    def on_changed(entry):
        emit({"len": len(entry.get_text())})

    def ready():
        emit({"ready": True, "focus": entry.has_focus()})
        return False

    GLib.set_prgname("narrator-key-fixture")
    win = Gtk.Window(title=TITLE)
    win.set_default_size(400, 80)
    entry = Gtk.Entry()
    entry.set_width_chars(60)
    entry.connect("key-press-event", on_key)
    entry.connect("changed", on_changed)
    win.add(entry)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    entry.grab_focus()
    GLib.idle_add(ready)
    GLib.timeout_add(int(lifetime * 1000), Gtk.main_quit)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    Gtk.main()


# ---------------------------------------------------------------- the bare listener (child process)


def listener_main():
    """A screen reader that takes no key and does nothing else: libatspi's keystroke listener,
    registered as narrator-atspi registers its own (press and release, synchronous and able to
    take the key, for each of the 32 combinations of Shift, Lock, Control, Mod1 and Mod2),
    answering False at once. What any such listener costs, whoever answers."""
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi

    Atspi.init()
    listener = Atspi.DeviceListener.new(lambda event, *_: False)
    kinds = (1 << int(Atspi.EventType.KEY_PRESSED_EVENT)) | (1 << int(Atspi.EventType.KEY_RELEASED_EVENT))
    sync = Atspi.KeyListenerSyncType.SYNCHRONOUS | Atspi.KeyListenerSyncType.CANCONSUME
    for mask in range(32):
        Atspi.register_keystroke_listener(listener, None, mask, kinds, sync)
    emit({"ready": True})
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    Atspi.event_main()


if len(sys.argv) > 1 and sys.argv[1] == "--listener":
    listener_main()
    sys.exit(0)

def fixture4_main(lifetime):
    """The same fixture in GTK 4, which sends no key to the registry: a key controller on the
    window, in the capture phase, sees each key before the entry does."""
    import gi
    gi.require_version("Gtk", "4.0")
    gi.require_version("Gdk", "4.0")
    from gi.repository import Gdk, GLib, Gtk

    loop = GLib.MainLoop()

    def on_key(_controller, keyval, _keycode, _state):
        t = time.time()  # first thing: the moment the application has the key
        emit({"t": t, "key": Gdk.keyval_name(keyval)})
        return False

    def on_changed(entry):
        emit({"len": len(entry.get_text())})

    def ready():
        emit({"ready": True, "focus": win.get_focus() is not None})
        return False

    GLib.set_prgname("narrator-key-fixture")
    win = Gtk.Window(title=TITLE)
    win.set_default_size(400, 80)
    entry = Gtk.Entry()
    entry.set_width_chars(60)
    keys = Gtk.EventControllerKey()
    keys.set_propagation_phase(Gtk.PropagationPhase.CAPTURE)
    keys.connect("key-pressed", on_key)
    win.add_controller(keys)
    entry.connect("changed", on_changed)
    win.set_child(entry)
    win.connect("close-request", lambda *_: loop.quit())
    win.present()
    entry.grab_focus()
    GLib.timeout_add(500, ready)
    GLib.timeout_add(int(lifetime * 1000), loop.quit)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    loop.run()


if len(sys.argv) > 1 and sys.argv[1] in ("--fixture", "--fixture-gtk4"):
    (fixture4_main if sys.argv[1] == "--fixture-gtk4" else fixture_main)(float(sys.argv[2]) if len(sys.argv) > 2 else 300)
    sys.exit(0)


# ---------------------------------------------------------------- the harness

sys.path.insert(0, HERE)
import orca_compare  # noqa: E402  (the desktop without activation; narratorctl; the sweep)
from orca_compare import QuietCompare  # noqa: E402
from harness_common import tail, wait_for_socket  # noqa: E402
from orca_session import TOOLS  # noqa: E402


def stats(values):
    v = sorted(values)
    if not v:
        return {"n": 0, "p50": None, "p95": None, "min": None, "max": None}

    def q(p):
        i = (len(v) - 1) * p
        lo = int(i)
        hi = min(lo + 1, len(v) - 1)
        return round(v[lo] + (v[hi] - v[lo]) * (i - lo), 3)
    return {"n": len(v), "p50": q(0.5), "p95": q(0.95), "min": round(v[0], 3), "max": round(v[-1], 3)}


class Passthrough(QuietCompare):
    def __init__(self, args):
        args.orca_debug = False
        args.log_dir = None
        super().__init__(args)
        self.samples = {"without": [], "bare": [], "with": []}
        self.reached = {p: {"pressed": 0, "handled": 0, "text_grew": 0} for p in ("without", "bare", "with")}
        self.notes = []
        self.bridge_said = []



    # ------------------------------------------------------------ the fixture and its lines

    def start_fixture(self):
        flag = "--fixture-gtk4" if self.opts.toolkit == "gtk4" else "--fixture"
        self.fixture = self.scope.spawn("fixture", ["/usr/bin/python3", os.path.abspath(__file__), flag,
                                                    str(self.opts.timeout)], env=self.env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and '"ready": true' not in tail(self.scope.path("fixture.out")):
            if self.fixture.poll() is not None:
                raise RuntimeError("the fixture exited: " + tail(self.scope.path("fixture.err")))
            time.sleep(0.05)
        self.window = self.window_of(self.fixture)
        if not self.window:
            raise RuntimeError("the fixture showed no window: " + tail(self.scope.path("fixture.err")))
        self.xdo("windowfocus", "--sync", self.window)
        time.sleep(0.5)

    def fixture_lines(self):
        out = []
        with open(self.scope.path("fixture.out")) as f:
            for line in f:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
        return out

    def text_length(self):
        lengths = [d["len"] for d in self.fixture_lines() if "len" in d]
        return lengths[-1] if lengths else 0

    # ------------------------------------------------------------ Narrator

    def start_narrator(self, round_):
        b = self.opts.bin
        self.socket = self.scope.path("narratord-%d.sock" % round_)
        self.narratord = self.scope.spawn("narratord-%d" % round_, [
            os.path.join(b, "narratord"), "--socket", self.socket, "--audio", "null",
            "--state-dir", self.scope.path("state-%d" % round_)], env=self.env)
        if not wait_for_socket(self.socket, 20, self.narratord):
            raise RuntimeError("narratord did not listen: " + tail(self.scope.path("narratord-%d.err" % round_)))
        self.bridge_log = "bridge-%d.err" % round_
        self.bridge = self.scope.spawn("bridge-%d" % round_, [os.path.join(b, "narrator-atspi"), "run",
                                                              "--socket", self.socket, "--keys", self.opts.keys], env=self.env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and TITLE not in self.ctl("trees").stdout:
            if self.bridge.poll() is not None:
                raise RuntimeError("narrator-atspi exited %s: %s" % (self.bridge.returncode,
                                                                     tail(self.scope.path(self.bridge_log))))
            time.sleep(0.1)
        if TITLE not in self.ctl("trees").stdout:
            raise RuntimeError("the bridge did not mirror the fixture: " + tail(self.scope.path(self.bridge_log)))
        time.sleep(1.0)  # the bridge's first reads and speech over
        self.step("narrator mirrors the fixture", round=round_)

    def stop_narrator(self):
        said = tail(self.scope.path(self.bridge_log), 20000)
        if "does not report keys" in said:
            self.bridge_said.append("narrator-atspi said the registry does not report keys")
        self.stop(self.bridge)
        self.stop(self.narratord)

    def start_bare(self, round_):
        name = "listener-%d" % round_
        self.bare = self.scope.spawn(name, ["/usr/bin/python3", os.path.abspath(__file__), "--listener"], env=self.env)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and '"ready": true' not in tail(self.scope.path(name + ".out")):
            if self.bare.poll() is not None:
                raise RuntimeError("the bare listener exited: " + tail(self.scope.path(name + ".err")))
            time.sleep(0.05)
        if '"ready": true' not in tail(self.scope.path(name + ".out")):
            raise RuntimeError("the bare listener did not start: " + tail(self.scope.path(name + ".err")))
        time.sleep(0.5)  # the toolkit hears of the registrations by signal

    # ------------------------------------------------------------ keys

    def open_xtest(self):
        from Xlib import X, XK, display
        from Xlib.ext import xtest
        self.X, self.xtest = X, xtest
        self.xd = display.Display(self.display)
        if not self.xd.query_extension("XTEST"):
            raise RuntimeError("the X server has no XTEST")
        self.keycodes = {k: self.xd.keysym_to_keycode(XK.string_to_keysym(k)) for k in LETTERS}
        self.scope.closers.append(self.xd.close)

    def press(self, letter):
        """Presses and releases `letter`; returns time.time() taken just before its KeyPress was written.

        The key is held for HOLD seconds and released with a round trip only then, as a keyboard
        would: a release and a sync written at once would wake this process (the sync's reply)
        while the application is being handed the press, and on two cores this process, the X
        server and narrator-atspi (woken by the raw event) would queue the application behind
        them, a cost no real keyboard has."""
        X, xt, d = self.X, self.xtest, self.xd
        code = self.keycodes[letter]
        t = time.time()
        xt.fake_input(d, X.KeyPress, code)
        d.flush()
        time.sleep(HOLD)
        xt.fake_input(d, X.KeyRelease, code)
        d.sync()
        return t

    def run_phase(self, name, count):
        """`count` measured letters (after the warm-up ones) into the entry; their app_ms into self.samples."""
        before_len = self.text_length()
        before_lines = len(self.fixture_lines())
        for i in range(WARMUP):
            self.press(LETTERS[i])
            time.sleep(self.opts.interval)
        presses = []
        for i in range(count):
            letter = LETTERS[(WARMUP + i) % len(LETTERS)]
            presses.append((letter, self.press(letter)))
            time.sleep(self.opts.interval)
        time.sleep(0.5)
        dead = [(n, p.returncode) for (n, p) in self.scope.procs if p.poll() is not None]
        if dead:
            raise RuntimeError("during the %s phase these exited: %s" % (name, ", ".join("%s (status %s)" % d for d in dead)))
        keys = [d for d in self.fixture_lines()[before_lines:] if "t" in d]
        for i, (letter, t) in enumerate(presses):
            t_end = presses[i + 1][1] if i + 1 < len(presses) else float("inf")
            hit = next((k for k in keys if t <= k["t"] < t_end and k.get("key") == letter), None)
            if hit:
                self.samples[name].append((hit["t"] - t) * 1000.0)
        r = self.reached[name]
        r["pressed"] += WARMUP + count
        r["handled"] += len(keys)
        r["text_grew"] += self.text_length() - before_len
        self.step(name + " phase", presses=count, handled=len(keys))

    # ------------------------------------------------------------ the result

    def result(self):
        wo, wi, bare = stats(self.samples["without"]), stats(self.samples["with"]), stats(self.samples["bare"])
        out = {"samples": self.opts.presses, "without_ms": wo, "with_ms": wi, "ratio_p50": None, "ratio_p95": None,
               "reached": self.reached, "rounds": self.opts.rounds, "interval_s": self.opts.interval}
        if wo["p50"] and wi["p50"] is not None:
            out["ratio_p50"] = round(wi["p50"] / wo["p50"], 3)
        if wo["p95"] and wi["p95"] is not None:
            out["ratio_p95"] = round(wi["p95"] / wo["p95"], 3)
        if self.opts.bare:
            out["bare_ms"] = bare
            out["with_over_bare_p50"] = round(wi["p50"] / bare["p50"], 3) if bare["p50"] and wi["p50"] is not None else None
        notes = list(self.notes) + self.bridge_said
        label = {"without": "without Narrator", "with": "with Narrator", "bare": "with the bare listener"}
        for phase, r in self.reached.items():
            if r["pressed"] == 0:
                continue
            if r["handled"] == r["pressed"] and r["text_grew"] == r["pressed"]:
                notes.append("%s: all %d letters reached the entry (%d key-press-events, its text grew by %d)" % (
                    label[phase], r["pressed"], r["handled"], r["text_grew"]))
            else:
                notes.append("%s: %d letters pressed, %d key-press-events, the entry's text grew by %d" % (
                    label[phase], r["pressed"], r["handled"], r["text_grew"]))
        for phase, s in (("without", wo), ("with", wi)) + ((("bare", bare),) if self.opts.bare else ()):
            if s["n"] < self.opts.presses:
                notes.append("%s: %d of %d presses matched a key-press-event" % (label[phase], s["n"], self.opts.presses))
        notes.append("keys by XTEST (python3-xlib, no process start-up), plain letters into a focused "
                     + ("GTK 4" if self.opts.toolkit == "gtk4" else "GTK 3") + " Gtk.Entry; "
                     "app_ms = key-press-event handler's time.time() - time.time() before the KeyPress was written; "
                     "phases alternate without/bare/with over %d rounds; narratord --audio null; load average %s at the "
                     "start, %s at the end" % (self.opts.rounds, self.load0,
                                               ", ".join("%.2f" % x for x in os.getloadavg())))
        out["notes"] = notes
        return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.environ.get("NARRATOR_BIN") or os.path.join(REPO, ".build", "debug"),
                   help="directory with narratord, narratorctl and narrator-atspi")
    p.add_argument("--toolkit", choices=("gtk3", "gtk4"), default="gtk3",
                   help="the fixture's toolkit: GTK 3 asks the registry about every key once any AT-SPI client "
                        "reads it; GTK 4 never does")
    p.add_argument("--keys", choices=("x11", "atspi"), default="x11",
                   help="narrator-atspi's key source (run --keys): X's raw events and grabs, or AT-SPI2's listener")
    p.add_argument("--presses", type=int, default=40, help="letters measured per phase (over all rounds)")
    p.add_argument("--rounds", type=int, default=2, help="rounds of without/with (A B A B ...)")
    p.add_argument("--interval", type=float, default=0.08, help="seconds between letters")
    p.add_argument("--no-bare", dest="bare", action="store_false",
                   help="no phase with the bare libatspi listener")
    p.add_argument("--timeout", type=float, default=240, help="the whole run; then everything is killed")
    a = p.parse_args()
    a.bin = os.path.abspath(a.bin)
    a.rounds = max(1, min(a.rounds, a.presses))

    def skip(reason):
        print(json.dumps({"skip": reason}))
        return 2
    missing = [n for n in ("Xvfb", "dbus-daemon", "dbus-send", "at-spi-bus-launcher", "at-spi2-registryd", "xdotool")
               if not os.access(TOOLS[n], os.X_OK)]
    missing += [os.path.join(a.bin, n) for n in ("narratord", "narratorctl", "narrator-atspi")
                if not os.access(os.path.join(a.bin, n), os.X_OK)]
    if missing:
        return skip("missing: " + ", ".join(missing))
    try:
        import Xlib.ext.xtest  # noqa: F401
    except ImportError:
        return skip("python3-xlib is missing (apt-get install python3-xlib)")
    try:
        import gi
        gi.require_version("Gtk", "4.0" if a.toolkit == "gtk4" else "3.0")
    except (ImportError, ValueError):
        return skip("gi's Gtk %s is missing (apt-get install %s python3-gi)" % (
            ("4.0", "gir1.2-gtk-4.0") if a.toolkit == "gtk4" else ("3.0", "gir1.2-gtk-3.0")))

    c = Passthrough(a)
    c.load0 = ", ".join("%.2f" % x for x in os.getloadavg())
    orca_compare.install_signal_cleanup(c.scope)
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the run exceeded --timeout")))
    signal.alarm(int(a.timeout))
    started = time.monotonic()
    error, out = None, {}
    try:
        c.start_desktop()
        c.open_xtest()
        c.start_fixture()
        per_round = [a.presses // a.rounds + (1 if i < a.presses % a.rounds else 0) for i in range(a.rounds)]
        for i, count in enumerate(per_round):
            c.run_phase("without", count)
            if a.bare:
                c.start_bare(i)
                try:
                    c.run_phase("bare", count)
                finally:
                    c.stop(c.bare)
                time.sleep(0.5)
            c.start_narrator(i)
            try:
                c.run_phase("with", count)
            finally:
                c.stop_narrator()
            time.sleep(0.5)
    except BaseException as e:  # report, then clean up, whatever happened
        error = "%s: %s" % (type(e).__name__, e)
    finally:
        signal.alarm(0)
        try:
            out = c.result()
            out["seconds"] = round(time.monotonic() - started, 1)
            if error:
                out["error"] = error
                out["logs"] = {n[:-4]: tail(c.scope.path(n), 600) for n in sorted(os.listdir(c.scope.dir))
                               if n.endswith(".err") and os.path.getsize(c.scope.path(n))}
        except BaseException as e:
            error = error or "%s: %s" % (type(e).__name__, e)
            out = dict(out, error=error)
        finally:
            out["swept"] = c.end()
            print(json.dumps(out, sort_keys=True))
    whole = all(r["handled"] == r["pressed"] == r["text_grew"] for r in c.reached.values())
    enough = all(out.get(k, {}).get("n", 0) == a.presses for k in ("without_ms", "with_ms") + (("bare_ms",) if a.bare else ()))
    return 0 if not error and whole and enough else 1


if __name__ == "__main__":
    sys.exit(main())
