#!/usr/bin/python3
"""Orca 43 on a headless desktop, speaking through an SSIP server, driven through a scenario.

    /usr/bin/python3 orca_session.py (--ssip-socket PATH | --reference-speechd)
        [--pulse-server unix:PATH [--sink NAME]] [--log-dir DIR] [--scenario dialog,sayall]
        [--timeout SECONDS]

The desktop is the recipe of atspi.md: Xvfb, a private session bus, the AT-SPI bus launcher and
registry. Orca runs with its own preferences (XDG_DATA_HOME/orca/user-settings.conf, written
here: speech through speechdispatcherfactory, desktop keyboard layout, no first start) and with
SPEECHD_ADDRESS pointing at an ssip_tap in front of the server, so every line it sends is logged;
SPEECHD_CMD=/bin/false stops it from autospawning a speech-dispatcher of its own.

Sound: with --pulse-server the server under test plays into that PulseAudio server (the caller
started it, as the Swift tests do) and parec records the sink's monitor; with --reference-speechd a
private PulseAudio server and Debian's speech-dispatcher are started here. Without either, no
recording is made.

Scenarios (comma-separated, in order):
  dialog  zenity --question "Delete photo?": Orca's greeting of the dialog, then Tab, Tab
  sayall  a GTK window (gtk_fixture.py): Save button, Tab to Discard, Tab into a text view of four
          sentences, Control+Home, KP_Add (Say All, desktop layout): waits for the 702 END of the
          last sentence

Output: JSON lines, {"kind": "step", ...} as it goes, then one {"kind": "summary", ...} with the
texts Orca asked to speak per phase (SSML marks stripped), the 702 END count, Say All's sentences,
the recording's seconds/peak/speech seconds, and "ok". Exit 0 when ok, 1 when not, 2 when a tool
is missing ({"kind": "skip", "reason": ...}). Everything runs in process groups killed at the end;
the temporary directory is removed (logs are copied to --log-dir first).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, HERE)
from harness_common import (PrivatePulse, PrivateSpeechd, Scope, emit, install_signal_cleanup,  # noqa: E402
                            log, recording_summary, tail, wait_for_socket, SINK)
from ssip_tap import Tap, speak_texts  # noqa: E402
import gtk_fixture  # noqa: E402  (only its constants: GTK is imported in its main)

TOOLS = {
    "Xvfb": "/usr/bin/Xvfb", "dbus-daemon": "/usr/bin/dbus-daemon", "dbus-send": "/usr/bin/dbus-send",
    "at-spi-bus-launcher": "/usr/libexec/at-spi-bus-launcher",
    "at-spi2-registryd": "/usr/libexec/at-spi2-registryd",
    "orca": "/usr/bin/orca", "xdotool": "/usr/bin/xdotool", "zenity": "/usr/bin/zenity",
}
PACKAGES = "xvfb dbus at-spi2-core orca xdotool zenity x11-utils python3-gi gir1.2-gtk-3.0"

ORCA_GENERAL = {
    # No first start: the file's existence is what Orca checks (json_backend.isFirstStart).
    "firstStart": False,
    "enableSpeech": True,
    "speechServerFactory": "speechdispatcherfactory",
    "speechServerInfo": None,  # the factory's default server: Speech Dispatcher's default module
    "keyboardLayout": 1,  # GENERAL_KEYBOARD_LAYOUT_DESKTOP: Say All is KP_Add
    "orcaModifierKeys": ["Insert", "KP_Insert"],
    "enableTutorialMessages": False,
    "enableBraille": False,
    "enableSound": False,
    "startingProfile": ["Default", "default"],
    "activeProfile": ["Default", "default"],
}


def orca_settings():
    return {"general": ORCA_GENERAL, "pronunciations": {}, "keybindings": {},
            "profiles": {"default": {"profile": ["Default", "default"], "pronunciations": {}, "keybindings": {}}}}


def in_order(wanted, said):
    """Whether each wanted phrase is in some text of `said`, in order (one text may hold several)."""
    i = 0
    for x in said:
        while i < len(wanted) and wanted[i].rstrip(".") in x:
            x = x.split(wanted[i].rstrip("."), 1)[1]
            i += 1
    return i == len(wanted)


def plain(ssml):
    """Orca's SSML without tags and entities: what a listener hears."""
    text = re.sub(r"<[^>]*>", "", ssml)
    for a, b in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&apos;", "'"), ("&amp;", "&")):
        text = text.replace(a, b)
    return " ".join(text.split())


class Session:
    def __init__(self, args):
        self.args = args
        self.scope = Scope(prefix="ssip-orca-")
        self.t0 = time.monotonic()
        self.phases = []  # (name, start index into texts)
        self.env = None

    def t(self):
        return round(time.monotonic() - self.t0, 3)

    def step(self, what, **extra):
        d = {"kind": "step", "step": what, "t": self.t()}
        d.update(extra)
        emit(d)
        if getattr(self, "tap", None):
            self.tap.note(what + (" " + json.dumps(extra) if extra else ""))

    # ------------------------------------------------------------ desktop

    def start_desktop(self):
        s = self.scope
        r, w = os.pipe()
        xvfb = subprocess.Popen([TOOLS["Xvfb"], "-displayfd", str(w), "-screen", "0", "1280x800x24",
                                 "-nolisten", "tcp", "-noreset"], pass_fds=(w,), start_new_session=True,
                                stdout=open(s.path("xvfb.out"), "wb"), stderr=open(s.path("xvfb.err"), "wb"))
        s.procs.append(("Xvfb", xvfb))
        os.close(w)
        display = b""
        deadline = time.monotonic() + 15
        while not display.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(r, 16)
            if not chunk:
                break
            display += chunk
        os.close(r)
        if not display.strip():
            raise RuntimeError("Xvfb gave no display: " + tail(s.path("xvfb.err")))
        self.display = ":" + display.decode().strip()

        runtime = s.path("runtime")
        os.makedirs(runtime, mode=0o700)
        home = s.path("home")
        os.makedirs(home)
        env = {k: v for k, v in os.environ.items()
               if k not in ("NO_AT_BRIDGE", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS",
                            "WAYLAND_DISPLAY", "SPEECHD_ADDRESS", "PYTHONPATH", "PYTHONHOME")}
        env.update(DISPLAY=self.display, HOME=home, XDG_RUNTIME_DIR=runtime,
                   XDG_DATA_HOME=s.path("data"), XDG_CONFIG_HOME=s.path("config"),
                   XDG_CACHE_HOME=s.path("cache"), GDK_BACKEND="x11", LANG="C.UTF-8", LC_ALL="C.UTF-8",
                   GSETTINGS_BACKEND="memory")
        bus = s.spawn("dbus-daemon", [TOOLS["dbus-daemon"], "--session", "--nofork", "--print-address=1",
                                       "--address=unix:dir=" + s.dir], env=env)
        address = ""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not address:
            try:
                address = open(s.path("dbus-daemon.out")).readline().strip()
            except OSError:
                pass
            if not address:
                if bus.poll() is not None:
                    break
                time.sleep(0.02)
        if not address:
            raise RuntimeError("no session bus: " + tail(s.path("dbus-daemon.err")))
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        s.spawn("at-spi-bus-launcher", [TOOLS["at-spi-bus-launcher"], "--launch-immediately"], env=env)
        a11y = ""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not a11y:
            r = subprocess.run([TOOLS["dbus-send"], "--session", "--print-reply=literal", "--dest=org.a11y.Bus",
                                "/org/a11y/bus", "org.a11y.Bus.GetAddress"], env=env, capture_output=True,
                               text=True, timeout=5)
            if r.returncode == 0 and r.stdout.strip():
                a11y = r.stdout.strip()
            else:
                time.sleep(0.05)
        if not a11y:
            raise RuntimeError("no AT-SPI bus")
        if shutil.which("xprop"):  # for Qt apps; GTK does not need it
            subprocess.run(["xprop", "-root", "-f", "AT_SPI_BUS", "8s", "-set", "AT_SPI_BUS", a11y],
                           env=env, timeout=5, capture_output=True)
        reg_env = dict(env, AT_SPI_BUS_ADDRESS=a11y)
        s.spawn("at-spi2-registryd", [TOOLS["at-spi2-registryd"]], env=reg_env)
        time.sleep(0.2)
        self.env = env
        self.step("desktop", display=self.display, session_bus=address, a11y_bus=a11y)

    # ------------------------------------------------------------ sound and server

    def start_sound_and_server(self):
        a = self.args
        self.pulse = None
        if a.reference_speechd:
            self.pulse = PrivatePulse(self.scope, server=a.pulse_server, sink=a.sink).start()
            sd = PrivateSpeechd(self.scope, self.pulse).start()
            upstream = sd.socket
            self.step("speech-dispatcher", socket=upstream)
        else:
            upstream = a.ssip_socket
            if not wait_for_socket(upstream, 10):
                raise RuntimeError("nothing accepts on the SSIP socket %s" % upstream)
            if a.pulse_server:
                self.pulse = PrivatePulse(self.scope, server=a.pulse_server, sink=a.sink)
        self.recording = None
        if self.pulse:
            self.recording = self.scope.path("recording.s16le")
            self.pulse.record(self.recording)
        self.tap_log = self.scope.path("orca.tap.log")
        self.tap = Tap(self.scope.path("tap.sock"), upstream, self.tap_log, t0=self.t0).start()
        self.scope.closers.append(self.tap.stop)

    # ------------------------------------------------------------ Orca

    def start_orca(self):
        prefs = os.path.join(self.env["XDG_DATA_HOME"], "orca")
        os.makedirs(prefs)
        with open(os.path.join(prefs, "user-settings.conf"), "w") as f:
            json.dump(orca_settings(), f, indent=2)
        env = dict(self.env, SPEECHD_ADDRESS="unix_socket:" + self.tap.listen_path, SPEECHD_CMD="/bin/false")
        if self.pulse:
            env.update(self.pulse.env({}))
        argv = [TOOLS["orca"], "--replace"]
        if self.args.orca_debug:
            argv += ["--debug-file", self.scope.path("orca-debug.out")]
        self.orca = self.scope.spawn("orca", argv, env=env)
        ok = self.wait_for(lambda texts: any("Screen reader on" in x for x in texts), 30, since=0)
        if not ok:
            raise RuntimeError("Orca did not say 'Screen reader on' within 30 s; stderr: %s; traffic: %s"
                               % (tail(self.scope.path("orca.err"), 1500), tail(self.tap_log, 1500)))
        self.step("orca ready", pid=self.orca.pid)

    # ------------------------------------------------------------ traffic

    def texts(self):
        return [(t, c, plain(x)) for (t, c, x) in speak_texts(self.tap.lines())]

    def wait_for(self, predicate, timeout, since=None):
        """Waits until predicate(list of texts spoken since the index `since`) holds."""
        since = len(self.texts()) if since is None else since
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate([x for (_, _, x) in self.texts()[since:]]):
                return True
            if self.orca_died():
                return False
            time.sleep(0.05)
        return False

    def orca_died(self):
        return getattr(self, "orca", None) is not None and self.orca.poll() is not None

    def pending(self):
        """Message ids queued (225-ID) that have had neither 702 END nor 703 CANCELED yet."""
        queued, done, previous = set(), set(), {}
        for (_, c, d, b) in self.tap.lines("S<"):
            line = b.decode("utf-8", "replace").rstrip("\r\n")
            m = re.match(r"^(\d{3})-(\d+)$", line)
            if m and m.group(1) == "225":
                queued.add((c, m.group(2)))
            elif m and m.group(1) in ("702", "703") and not re.match(r"^70\d-", previous.get(c, "")):
                done.add((c, m.group(2)))  # the first data line of an event is the message id
            previous[c] = line
        return queued - done

    def settle(self, quiet=0.6, timeout=12):
        """Waits until everything Orca queued was spoken or cancelled and it has sent nothing for
        `quiet` seconds, so that the next key does not cut off what is being said."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.tap.lines("C>")
            last = lines[-1][0] if lines else 0
            if time.monotonic() - self.t0 - last >= quiet and not self.pending():
                return True
            time.sleep(0.1)
        self.step("settle timed out", pending=sorted(m for (_, m) in self.pending()))
        return False

    def phase(self, name):
        self.phases.append((name, len(self.texts()), self.t()))
        self.step("phase", phase=name)

    def xdo(self, *args):
        r = subprocess.run([TOOLS["xdotool"]] + list(args), env=self.env, capture_output=True, text=True, timeout=10)
        self.step("xdotool " + " ".join(args), status=r.returncode)
        return r

    def window_of(self, proc, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r = subprocess.run([TOOLS["xdotool"], "search", "--onlyvisible", "--pid", str(proc.pid)],
                               env=self.env, capture_output=True, text=True, timeout=5)
            ids = r.stdout.split()
            if ids:
                return ids[-1]
            if proc.poll() is not None:
                return None
            time.sleep(0.05)
        return None

    # ------------------------------------------------------------ scenarios

    def dialog(self):
        self.phase("dialog")
        z = self.scope.spawn("zenity", [TOOLS["zenity"], "--question", "--title", "Question",
                                        "--text", "Delete photo?", "--timeout", "60"], env=self.env)
        win = self.window_of(z)
        if not win:
            raise RuntimeError("zenity showed no window: " + tail(self.scope.path("zenity.err")))
        self.xdo("windowfocus", "--sync", win)
        # Counted from the phase's start: Orca may speak the dialog as soon as zenity maps it,
        # before xdotool's focus returns.
        got = self.wait_for(lambda xs: any("push button" in x for x in xs), 15, since=self.phases[-1][1])
        self.settle()
        self.phase("dialog tab 1")
        self.xdo("key", "Tab")
        self.wait_for(lambda xs: any(("label" in x or "button" in x) and x != "tab" for x in xs), 10, since=self.phases[-1][1])
        self.settle()
        self.phase("dialog tab 2")
        self.xdo("key", "Tab")
        self.wait_for(lambda xs: any("button" in x for x in xs), 10, since=self.phases[-1][1])
        self.settle()
        self.scope.kill(z, grace=0.5)
        self.settle()
        # What Orca 43 said with speech-dispatcher (atspi.md): each of these, in this order.
        want = ["Question dialog", "Yes push button", "Delete photo? label", "No push button"]
        said = [x for (_, _, x) in self.texts()[self.phases[-3][1]:]]
        self.dialog_result = {"expected_in_order": want, "said": said}
        return got and in_order(want, said)

    def sayall(self):
        self.phase("window")
        g = self.scope.spawn("gtk_fixture", ["/usr/bin/python3", os.path.join(HERE, "gtk_fixture.py"),
                                             "--lifetime", str(self.args.timeout)], env=self.env)
        win = self.window_of(g)
        if not win:
            raise RuntimeError("the GTK fixture showed no window: " + tail(self.scope.path("gtk_fixture.err")))
        self.xdo("windowfocus", "--sync", win)
        self.wait_for(lambda xs: any("Save" in x for x in xs), 15, since=self.phases[-1][1])
        self.settle()
        self.phase("window tab 1")
        self.xdo("key", "Tab")
        self.wait_for(lambda xs: any("Discard" in x for x in xs), 10, since=self.phases[-1][1])
        self.settle()
        self.phase("window tab 2")
        self.xdo("key", "Tab")
        self.wait_for(lambda xs: any("text" in x.lower() or "quick" in x for x in xs), 10, since=self.phases[-1][1])
        self.settle()
        self.xdo("key", "ctrl+Home")
        self.settle()
        self.phase("say all")
        start = len(self.texts())
        ends_before = self.count_702()
        self.xdo("key", self.args.sayall_key)
        last = gtk_fixture.SENTENCES[-1]
        reached = self.wait_for(lambda xs: any(last.rstrip(".") in x for x in xs), self.args.sayall_timeout, since=start)
        # The end of the last sentence: a 702 END after its SPEAK on Orca's connection.
        finished = False
        if reached:
            t_last = max(t for (t, c, x) in self.texts()[start:] if last.rstrip(".") in x)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not finished:
                finished = any(d == "S<" and b == b"702 END\r\n" and t > t_last for (t, c, d, b) in self.tap.lines())
                time.sleep(0.05)
        self.settle()
        said = [x for (_, _, x) in self.texts()[start:]]
        every = in_order(gtk_fixture.SENTENCES, said)
        self.sayall_result = {"reached_last_sentence": reached, "last_sentence_ended": finished,
                              "every_sentence_in_order": every, "end_events": self.count_702() - ends_before}
        self.scope.kill(g, grace=0.5)
        return reached and finished and every

    def count_702(self):
        return sum(1 for (_, _, d, b) in self.tap.lines("S<") if b == b"702 END\r\n")

    # ------------------------------------------------------------ summary

    def summary(self, results, error=None):
        texts = self.texts() if getattr(self, "tap", None) else []
        phases = []
        bounds = self.phases + [("end", len(texts), self.t())]
        for (name, i, t), (_, j, _) in zip(bounds, bounds[1:]):
            phases.append({"phase": name, "t": t, "texts": [x for (_, _, x) in texts[i:j]]})
        before = [x for (_, _, x) in texts[: self.phases[0][1]]] if self.phases else [x for (_, _, x) in texts]
        lines = self.tap.lines() if getattr(self, "tap", None) else []
        commands = {}
        for (_, _, d, b) in lines:
            if d == "C>":
                word = b.split(b" ")[0].strip().decode("ascii", "replace").upper()
                if word in ("SET", "GET", "LIST", "HISTORY", "NOTIFICATION"):
                    word = " ".join(x.decode("ascii", "replace") for x in b.strip().split(b" ")[:3]).upper()
                    word = re.sub(r"^SET SELF", "SET self", word)
                commands[word] = commands.get(word, 0) + 1
        spoken = {k: v for k, v in commands.items() if re.match(r"^[A-Z_]+( [A-Za-z_]+)*$", k) and len(k) < 40}
        out = {
            "kind": "summary",
            "ok": error is None and all(results.values()),
            "results": results,
            "error": error,
            "startup_texts": before,
            "phases": phases,
            "texts": [x for (_, _, x) in texts],
            "end_events": sum(1 for (_, _, d, b) in lines if d == "S<" and b == b"702 END\r\n"),
            "cancel_events": sum(1 for (_, _, d, b) in lines if d == "S<" and b == b"703 CANCELED\r\n"),
            "index_marks": sum(1 for (_, _, d, b) in lines if d == "S<" and b == b"700 INDEX MARK\r\n"),
            "connections": len({c for (_, c, d, _) in lines if d in ("C>", "S<")}),
            "commands": spoken,
            "dialog": getattr(self, "dialog_result", None),
            "sayall": getattr(self, "sayall_result", None),
            "recording": recording_summary(self.recording) if getattr(self, "recording", None) else None,
            "seconds": self.t(),
        }
        return out

    def save_logs(self):
        d = self.args.log_dir
        if not d:
            return
        os.makedirs(d, exist_ok=True)
        for name in ("orca.tap.log", "orca.err", "orca-debug.out", "speech-dispatcher.err", "zenity.err",
                     "gtk_fixture.err", "xvfb.err", "pulseaudio.err"):
            p = self.scope.path(name)
            if os.path.exists(p):
                shutil.copy(p, os.path.join(d, name))
        sd_log = self.scope.path("speechd", "speech-dispatcher.log")
        if os.path.exists(sd_log):
            shutil.copy(sd_log, os.path.join(d, "speech-dispatcher.log"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--ssip-socket", help="the SSIP server under test (a Unix socket path)")
    g.add_argument("--reference-speechd", action="store_true", help="start Debian's speech-dispatcher here")
    p.add_argument("--pulse-server", help="unix:PATH of the PulseAudio server the SSIP server plays into")
    p.add_argument("--sink", default=SINK)
    p.add_argument("--scenario", default="dialog,sayall")
    p.add_argument("--sayall-key", default="KP_Add")
    p.add_argument("--sayall-timeout", type=float, default=40)
    p.add_argument("--timeout", type=float, default=150, help="the whole run; then everything is killed")
    p.add_argument("--log-dir")
    p.add_argument("--orca-debug", action="store_true")
    a = p.parse_args()
    missing = [n for n, path in TOOLS.items() if not os.access(path, os.X_OK)]
    if a.reference_speechd and PrivateSpeechd.missing():
        missing.append(PrivateSpeechd.missing())
    if missing:
        emit({"kind": "skip", "reason": "missing: %s (apt-get install %s)" % (", ".join(missing), PACKAGES)})
        return 2
    session = Session(a)
    install_signal_cleanup(session.scope)
    import signal
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the run exceeded --timeout")))
    signal.alarm(int(a.timeout))
    results, error = {}, None
    try:
        session.start_desktop()
        session.start_sound_and_server()
        session.start_orca()
        for name in a.scenario.split(","):
            results[name] = bool(getattr(session, name)())
    except BaseException as e:  # report, then clean up, whatever happened
        error = "%s: %s" % (type(e).__name__, e)
        if isinstance(e, KeyboardInterrupt):
            error = "interrupted"
    finally:
        signal.alarm(0)
        try:
            summary = session.summary(results, error)
            if getattr(session, "recording", None):
                summary["ok"] = summary["ok"] and summary["recording"]["speech_seconds"] > 0
            emit(summary)
        finally:
            session.save_logs()
            session.scope.close()
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
