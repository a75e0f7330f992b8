#!/usr/bin/python3
"""Records the shipped replay traces from real programs, through the built binaries.

    /usr/bin/python3 Tests/Helpers/traces/record_traces.py [--bin DIR] [--out DIR]
        [--only NAME[,NAME...]] [--log-dir DIR] [--timeout SECONDS] [--orca-wait SECONDS]

    e.g. make traces        (a debug build, then this with --bin .build/debug --out examples/traces)

For each trace, on a fresh headless desktop (Xvfb, a private session bus that activates nothing,
the AT-SPI bus launcher and registry: orca_compare.py's desktop), it starts

  1. narratord --socket TMP/narratord.sock --ssip TMP/ssip.sock --audio null --state-dir TMP/state
     (real eSpeak NG synthesis paced in real time, no sound card);
  2. Orca 43 with its own preferences and SPEECHD_ADDRESS at an ssip_tap in front of narratord's
     SSIP socket. Never `orca --replace` (it SIGKILLs every Orca of this user on the machine):
     like orca_compare.py it waits --orca-wait seconds for other Orcas to end;
  3. the program Orca reads, then presses keys with xdotool, waiting after each until Orca's
     speech is over (every message spoken or cancelled and Orca quiet for 0.6 s).

Then it stops Orca, stops narratord with SIGTERM (its shutdown is logged), runs
`narratorctl log --trace --db TMP/state/narrator.db` and writes OUT/NAME.jsonl: `#` lines saying
what the trace is, how it was recorded and what was pressed when, then the exported trace as it
came. Traces:

  orca-gtk-fixture      Orca reading Tests/Helpers/atspi/fixture.py: Tab through its controls,
                        Space on the check box, typing into the entry (key echo), Say All
                        (KP_Add), arrow keys on the slider and the tab list
  orca-web-page         Orca reading live_page.html in Firefox ESR: Tab through the links, H for
                        headings, X and Space on the check box, B and Space on "Join chat", then
                        the page's polite live regions (a chat burst, an upload's progress) run
  chat-burst-recorded   Orca reading chat_window.py: incoming chat lines as notifications
  progress-recorded     Orca reading progress_window.py: a progress bar advancing every 200 ms
  orca-page-load        Orca reading regatta_page.html in Firefox ESR with narrator-atspi beside
                        it: the page load (Orca's summary, then its Say All), F5 (all of it
                        again) while another client floods narratord's SSIP socket with 40
                        messages, Tab, Tab, H, H; then a VTE terminal (terminal_window.py):
                        `sh build.sh` typed and run, twelve lines of output 0.15 s apart

Output: one JSON line per step on stdout ({"kind": "progress", ...}), then {"kind": "trace",
"name": ..., "ok": ..., "path": ..., "rows": ...} per trace and {"kind": "summary", "ok": ...}.
Exit 0 when every trace asked for was written, 1 otherwise, 2 when a tool or binary is missing.
A trace that fails is not written (the file already in OUT stays). Every child runs in its own
process group with a timeout on every wait; everything is killed and the temporary directory
removed at the end (logs are copied to --log-dir first).
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(HERE, "..", "ssip"))
sys.path.insert(0, os.path.join(HERE, "..", "atspi"))
from harness_common import emit, install_signal_cleanup, tail, wait_for_socket  # noqa: E402
import orca_compare  # noqa: E402
import orca_session  # noqa: E402
from orca_session import TOOLS  # noqa: E402

FIREFOX = "/usr/bin/firefox-esr"
NAMES = ["orca-gtk-fixture", "orca-web-page", "chat-burst-recorded", "progress-recorded", "orca-page-load"]
FLOOD_CLIENT = "user:flood:main"
# Sessions with Narrator's own bridge (narrator-atspi) speaking the desktop beside Orca, as in
# orca_compare.py: its focus speech goes first and Orca's messages wait behind it.
WITH_BRIDGE = ("orca-page-load",)

# Firefox's first-run pages, updates, telemetry and session restore off, so the page is all it shows.
FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "startup.homepage_welcome_url": "",
    "startup.homepage_welcome_url.additional": "",
    "browser.aboutwelcome.enabled": False,
    "browser.startup.firstrunSkipsHomepage": True,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.auto": False,
    "app.update.enabled": False,
    "browser.sessionstore.resume_from_crash": False,
    "browser.tabs.warnOnClose": False,
    "extensions.autoDisableScopes": 15,
    "browser.newtabpage.enabled": False,
    "accessibility.force_disabled": 0,
    "accessibility.tabfocus": 7,
    "dom.disable_beforeunload": True,
}


def version(package):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, timeout=10)
    return r.stdout.strip() or "?"


class Recorder(orca_compare.Compare):
    """One trace's run: a desktop, narratord, the tap, Orca and one program."""

    def __init__(self, opts, name):
        a = argparse.Namespace(orca_debug=False, timeout=opts.timeout, log_dir=opts.log_dir,
                               bin=opts.bin, orca_wait=opts.orca_wait, settle=0.6)
        super().__init__(a)
        self.name = name
        self.pressed = []  # (t, what): the header's account of the session
        self.orca_prefs = {}

    # ------------------------------------------------------------ narratord without the bridge

    def start_narrator(self):
        if self.name in WITH_BRIDGE:  # orca_compare.py's setup: narratord and narrator-atspi
            super().start_narrator()
            self.state = self.scope.path("state")
            return
        b = self.opts.bin
        self.socket = self.scope.path("narratord.sock")
        self.ssip = self.scope.path("ssip.sock")
        self.state = self.scope.path("state")
        self.narratord = self.scope.spawn("narratord", [
            os.path.join(b, "narratord"), "--socket", self.socket, "--ssip", self.ssip, "--audio", "null",
            "--state-dir", self.state], env=self.env)
        if not (wait_for_socket(self.socket, 20, self.narratord) and wait_for_socket(self.ssip, 10, self.narratord)):
            raise RuntimeError("narratord did not listen: " + tail(self.scope.path("narratord.err")))
        self.step("narratord", pid=self.narratord.pid)
        self.args.ssip_socket = self.ssip

    def start_orca(self):
        """orca_compare's start (no --replace), with this trace's preferences added."""
        general = dict(orca_session.ORCA_GENERAL, **self.orca_prefs)
        saved = orca_session.orca_settings
        orca_session.orca_settings = lambda: dict(saved(), general=general)
        try:
            super().start_orca()
        finally:
            orca_session.orca_settings = saved

    # ------------------------------------------------------------ keys and waiting

    def note(self, what):
        self.pressed.append((self.t(), what))

    def key(self, key, settle=True, what=None):
        r = self.xdo("key", key)
        if r.returncode != 0:
            raise RuntimeError("xdotool key %s failed: %s" % (key, r.stderr.strip()))
        self.note(what or key)
        if settle:
            time.sleep(0.3)
            self.settle(quiet=0.6, timeout=20)

    def wait_line(self, proc, out, text, timeout):
        """Waits until the program `proc` printed a line holding `text` (on TMP/out)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in tail(self.scope.path(out), 100000):
                return True
            if proc.poll() is not None:
                raise RuntimeError("%s exited: %s" % (out, tail(self.scope.path(out.replace(".out", ".err")))))
            time.sleep(0.05)
        raise RuntimeError("%s did not print %s within %s s" % (out, text, timeout))

    def start_program(self, name, argv, ready=None, timeout=30):
        proc = self.scope.spawn(name, argv, env=self.program_env())
        if ready:
            self.wait_line(proc, name + ".out", ready, timeout)
        win = self.window_of(proc, timeout=timeout)
        if not win:
            raise RuntimeError("%s showed no window: %s" % (name, tail(self.scope.path(name + ".err"))))
        r = self.xdo("windowfocus", "--sync", win)
        self.note("window focus (%s)" % name)
        if r.returncode != 0:
            raise RuntimeError("xdotool windowfocus failed: " + r.stderr.strip())
        time.sleep(1.0)
        self.settle(quiet=0.8, timeout=30)
        return proc, win

    def program_env(self):
        return self.env

    # ------------------------------------------------------------ the sessions

    def orca_gtk_fixture(self):
        fixture = os.path.join(REPO, "Tests", "Helpers", "atspi", "fixture.py")
        self.start_program("fixture", ["/usr/bin/python3", fixture, "--lifetime", str(self.opts.timeout)],
                           ready='"ready": true')
        self.key("Tab")            # Remember me check box
        self.key("space")          # clears it
        self.key("space")          # checks it
        self.key("Tab")            # the Name entry, "Ada" selected
        for ch in "Bob":           # typed at a typist's pace: key echo cut by the next key
            self.key(ch, settle=False, what="type %s" % ch)
            time.sleep(0.18)
        time.sleep(0.3)
        self.settle(quiet=0.6, timeout=20)
        self.key("KP_Add", what="KP_Add (Say All)")
        time.sleep(1.0)
        self.settle(quiet=0.8, timeout=30)
        self.key("Tab")            # Volume slider
        for k in ("Right", "Right", "Right", "Left"):
            self.key(k)
        for k in ("Right", "Right", "Right", "Right", "Right"):  # held down: each cuts the last
            self.key(k, settle=False, what="%s (fast)" % k)
            time.sleep(0.1)
        self.settle(quiet=0.6, timeout=20)
        self.key("Tab")            # General tab
        self.key("Right")          # Advanced tab
        self.key("Left")           # General tab
        self.key("Tab")            # General settings button
        self.key("Tab")            # Print is not sensitive: wraps to Save
        self.key("Return")         # Save: the status label says "Saved"

    def orca_web_page(self):
        if not os.access(FIREFOX, os.X_OK):
            raise RuntimeError("firefox-esr is not installed (apt-get install firefox-esr)")
        profile = self.scope.path("firefox-profile")
        os.makedirs(profile)
        with open(os.path.join(profile, "user.js"), "w") as f:
            for k, v in FIREFOX_PREFS.items():
                f.write("user_pref(%s, %s);\n" % (json.dumps(k), json.dumps(v)))
        page = self.scope.path("live_page.html")
        shutil.copy(os.path.join(HERE, "live_page.html"), page)
        self.start_program("firefox", [FIREFOX, "--no-remote", "--profile", profile, "--new-instance",
                                       "file://" + page], timeout=60)
        # Orca may read the page on load (its Say All on load): wait for that to finish.
        time.sleep(2.0)
        self.settle(quiet=1.0, timeout=60)
        for k in ("Tab", "Tab", "Tab"):  # through the links (Firefox's Tab order)
            self.key(k)
        self.key("ctrl+Home", what="ctrl+Home (top of the page)")
        for _ in range(4):
            self.key("h", what="h (next heading)")
        # Orca's structural navigation to the form: x the next check box, b the next button.
        self.key("x", what="x (next check box: Notify me)")
        self.key("space", what="space (checks Notify me)")
        self.key("b", what="b (next button: Join chat)")
        start = len(self.texts())
        self.key("space", settle=False, what="space (Join chat: the live regions start)")
        # The chat's last line and the upload's end, as Orca sent them.
        if not self.wait_for(lambda xs: any("perfect" in x for x in xs), 30, since=start):
            raise RuntimeError("Orca spoke no live-region update within 30 s of Join chat; it said: %s"
                               % [x for (_, _, x) in self.texts()[start:]])
        self.note("Orca spoke the chat's last line")
        self.wait_for(lambda xs: any("complete" in x for x in xs), 30, since=start)
        self.note("the upload's progress ended")
        time.sleep(1.0)
        self.settle(quiet=1.5, timeout=90)

    def orca_page_load(self):
        """Orca's own bursts: the page load and F5 (its summary and Say All), Tab, structural
        keys, Say All; a flooding client beside it during F5's burst."""
        if not os.access(FIREFOX, os.X_OK):
            raise RuntimeError("firefox-esr is not installed (apt-get install firefox-esr)")
        profile = self.scope.path("firefox-profile")
        os.makedirs(profile)
        with open(os.path.join(profile, "user.js"), "w") as f:
            for k, v in FIREFOX_PREFS.items():
                f.write("user_pref(%s, %s);\n" % (json.dumps(k), json.dumps(v)))
        page = self.scope.path("regatta_page.html")
        shutil.copy(os.path.join(HERE, "regatta_page.html"), page)
        start = len(self.texts())
        self.start_program("firefox", [FIREFOX, "--no-remote", "--profile", profile, "--new-instance",
                                       "file://" + page], timeout=60)
        # Orca reads the page on load: its summary, then Say All to the footer.
        if not self.wait_for(lambda xs: any("since 1921" in x for x in xs), 90, since=start):
            raise RuntimeError("Orca's Say All on load did not reach the footer; it said: %s"
                               % [x for (_, _, x) in self.texts()[start:]])
        self.note("Orca's Say All on load reached the footer")
        time.sleep(1.0)
        self.settle(quiet=1.0, timeout=60)
        start = len(self.texts())
        self.key("F5", settle=False, what="F5 (reload: Orca says it all again)")
        flood = threading.Thread(target=self.flood, args=(40,), daemon=True)
        flood.start()
        if not self.wait_for(lambda xs: any("since 1921" in x for x in xs), 90, since=start):
            raise RuntimeError("Orca's Say All after F5 did not reach the footer; it said: %s"
                               % [x for (_, _, x) in self.texts()[start:]])
        flood.join(30)
        if self.flood_error:
            raise RuntimeError("the flooding client failed: %s" % self.flood_error)
        self.note("Orca's Say All after F5 reached the footer")
        time.sleep(1.0)
        self.settle(quiet=1.0, timeout=60)
        self.key("Tab", what="Tab (the first link)")
        self.key("Tab", what="Tab (the second link)")
        self.key("h", what="h (next heading)")
        self.key("h", what="h (next heading)")
        # A terminal's output: the user runs a command whose twelve lines come 0.15 s apart.
        work = self.scope.path("terminal")
        os.makedirs(work)
        self.start_program("terminal", ["/usr/bin/python3", os.path.join(HERE, "terminal_window.py"), "--dir", work,
                                        "--lifetime", str(self.opts.timeout)], ready='"ready": true')
        for ch in "sh build.sh":
            self.key("space" if ch == " " else "period" if ch == "." else ch, settle=False, what="type %s" % ch)
            time.sleep(0.12)
        self.settle(quiet=0.6, timeout=20)
        start = len(self.texts())
        self.key("Return", settle=False, what="Return (runs it)")
        if not self.wait_for(lambda xs: any("Build finished" in x for x in xs), 40, since=start):
            raise RuntimeError("Orca did not read the build's last line; it said: %s"
                               % [x for (_, _, x) in self.texts()[start:]])
        self.note("Orca read the build's last line")
        time.sleep(1.0)
        self.settle(quiet=1.0, timeout=60)

    flood_error = None

    def flood(self, count):
        """Another SSIP client on narratord's own socket: `count` distinct messages at once, each
        sent as soon as the last was acknowledged, never cancelling its own speech."""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(10)
                s.connect(self.ssip)
                reader = s.makefile("rb")

                def command(*lines):
                    s.sendall(b"".join(x.encode() + b"\r\n" for x in lines))
                    while True:  # up to the reply's last line ("NNN " not "NNN-")
                        line = reader.readline()
                        if not line:
                            raise RuntimeError("narratord closed the connection")
                        if len(line) >= 4 and line[3:4] == b" ":
                            return line.decode().strip()

                command("SET self CLIENT_NAME %s" % FLOOD_CLIENT)
                command("SET self PRIORITY message")
                for n in range(1, count + 1):
                    command("SPEAK")
                    command("Flood message number %d" % n, ".")
                self.note("the flooding client sent %d messages" % count)
                command("QUIT")
        except (OSError, RuntimeError) as e:
            self.flood_error = str(e)

    def program_env_for_web(self):
        env = dict(self.env, GNOME_ACCESSIBILITY="1", MOZ_CRASHREPORTER_DISABLE="1")
        for k in ("MOZ_HEADLESS", "GTK_A11Y", "MOZ_ACCESSIBILITY", "NO_AT_BRIDGE"):
            env.pop(k, None)
        return env

    def chat_burst_recorded(self):
        self.start_program("chat", ["/usr/bin/python3", os.path.join(HERE, "chat_window.py"),
                                    "--lifetime", str(self.opts.timeout), "--start", "2"], ready='"ready": true')
        proc = [p for (n, p) in self.scope.procs if n == "chat"][0]
        self.wait_line(proc, "chat.out", '"done": true', 30)
        self.note("the last chat line arrived")
        time.sleep(1.0)
        self.settle(quiet=1.0, timeout=90)
        for ch in "ok":  # the user answers
            self.key(ch, settle=False, what="type %s" % ch)
            time.sleep(0.2)
        self.settle(quiet=0.8, timeout=20)

    def progress_recorded(self):
        self.start_program("progress", ["/usr/bin/python3", os.path.join(HERE, "progress_window.py"),
                                        "--lifetime", str(self.opts.timeout), "--start", "2"], ready='"ready": true')
        proc = [p for (n, p) in self.scope.procs if n == "progress"][0]
        self.wait_line(proc, "progress.out", '"percent": 50', 40)
        self.key("Tab", what="Tab (while the download runs)")
        self.wait_line(proc, "progress.out", '"done": true', 40)
        self.note("the progress bar reached 100 percent")
        time.sleep(1.0)
        self.settle(quiet=1.0, timeout=120)

    # ------------------------------------------------------------ the export

    def wait_quiet_log(self, timeout=60):
        """Until every row narratord logged has ended and none came for a second."""
        deadline = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            rows = self.narrator_rows()
            if len(rows) != last:
                last, since = len(rows), time.monotonic()
            if rows and all(r.get("ended") or r.get("outcome") not in (None, "queued", "speaking", "deferred")
                            for r in rows) and time.monotonic() - since >= 1.0:
                return True
            time.sleep(0.2)
        return False

    def stop_and_export(self):
        self.wait_quiet_log()
        self.scope.kill(self.orca, grace=2.0)
        self.note("Orca stopped")
        time.sleep(0.5)
        self.narratord.send_signal(signal.SIGTERM)
        try:
            self.narratord.wait(timeout=15)
        except subprocess.TimeoutExpired:
            raise RuntimeError("narratord did not exit within 15 s of SIGTERM")
        self.note("narratord stopped (SIGTERM), status %s" % self.narratord.returncode)
        db = os.path.join(self.state, "narrator.db")
        r = subprocess.run([os.path.join(self.opts.bin, "narratorctl"), "log", "--trace", "--db", db],
                           env=self.env, capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise RuntimeError("narratorctl log --trace exited %s: %s" % (r.returncode, r.stderr.strip()))
        return r.stdout


HEADERS = {
    "orca-gtk-fixture": [
        "Orca 43 reading the GTK fixture (Tests/Helpers/atspi/fixture.py) through narratord's SSIP",
        "server: focus on Save, Tab to the check box, Space twice, Tab to the entry, \"Bob\" typed (key",
        "echo), Say All (KP_Add), Tab to the slider, arrows (then five Rights 0.1 s apart, each cutting",
        "the last), Tab to the tab list, Right, Left, Tab, Tab, Return on Save.",
    ],
    "orca-web-page": [
        "Orca 43 reading a local web page (Tests/Helpers/traces/live_page.html) in Firefox ESR through",
        "narratord's SSIP server: the page load, Tab through the links, H for headings, X to the check box",
        "and Space, B to the \"Join chat\" button and Space, which starts two polite live regions: a chat",
        "burst (eight lines in 2 s, three more by 6.2 s), then an upload's progress every 500 ms.",
    ],
    "chat-burst-recorded": [
        "Orca 43 reading a GTK chat window (Tests/Helpers/traces/chat_window.py) through narratord's SSIP",
        "server: eleven incoming lines (eight within 2 s, three more by 6.2 s), each a label with the",
        "accessible role notification that Orca speaks when it shows; focus stays in the compose entry;",
        "then the user types \"ok\" (key echo).",
    ],
    "progress-recorded": [
        "Orca 43 reading a GTK progress bar (Tests/Helpers/traces/progress_window.py) that advances 1",
        "percent every 200 ms for 20 s, through narratord's SSIP server; a Tab at 50 percent. Orca's",
        "preferences: progressBarUpdateInterval 0 and progressBarVerbosity 0 (all), so Orca speaks every",
        "update (its default interval, 10 s, would give three lines).",
    ],
}

HEADERS["orca-page-load"] = [
    "Orca 43 reading a local web page (Tests/Helpers/traces/regatta_page.html: 4 landmarks, 4 headings,",
    "1 form, 1 table, 3 links) in Firefox ESR through narratord's SSIP server: the page load (Orca's",
    "summary, then its Say All on load to the footer), F5 (all of it again) while another client",
    "(%s, connection of its own, no CANCEL) floods narratord's SSIP socket with 40 distinct" % FLOOD_CLIENT,
    "messages, Tab, Tab, H, H; then a VTE terminal (Tests/Helpers/traces/terminal_window.py) where",
    "`sh build.sh` is typed and run: twelve lines of output 0.15 s apart, each a message of Orca's.",
    "Narrator's bridge (narrator-atspi) speaks the focus beside Orca, as in orca_compare.py. Issue 38:",
    "all Orca says here must be heard, the flood must not.",
]

# Orca's fastest rate for the page load: its two Say Alls are heard at the voice's pace, and what
# the trace is for (what was throttled or deduplicated, and why) does not depend on it.
FAST_VOICES = {"voices": {
    "default": {"established": True, "rate": 100},
    "uppercase": {"established": True, "rate": 100, "average-pitch": 7.0},
    "hyperlink": {"established": True, "rate": 100},
    "system": {"established": True, "rate": 100},
}}

ORCA_PREFS = {
    "progress-recorded": {"progressBarUpdateInterval": 0, "progressBarVerbosity": 0},
    "orca-page-load": FAST_VOICES,
}


def record(opts, name):
    """Runs one session; returns (header lines, trace text) or raises."""
    rec = Recorder(opts, name)
    rec.orca_prefs = ORCA_PREFS.get(name, {})
    method = getattr(rec, name.replace("-", "_"))
    if name in ("orca-web-page", "orca-page-load"):
        rec.program_env = rec.program_env_for_web
    error = None
    try:
        rec.start_desktop()
        rec.start_narrator()
        rec.start_sound_and_server()  # the tap in front of narratord's SSIP socket
        rec.start_orca()
        rec.note("Orca ready")
        time.sleep(0.5)
        rec.settle(quiet=0.8, timeout=20)
        method()
        dead = [d for d in rec.dead() if d[0] not in ("orca",)]
        if dead:
            raise RuntimeError("these exited during the session: %s" % dead)
        trace = rec.stop_and_export()
    except BaseException as e:
        error = e
        trace = None
    finally:
        if opts.log_dir:
            rec.save_logs(os.path.join(opts.log_dir, name))
        swept = rec.end()
        if swept:
            emit({"kind": "progress", "progress": "swept", "pids": swept})
    if error:
        raise error
    return rec.pressed, trace


def header(name, pressed, argv_line):
    lines = ["# " + x for x in HEADERS[name]]
    lines += [
        "# Recorded %s on Debian 12 (Xvfb, no window manager) with Orca %s, eSpeak NG %s%s;" % (
            time.strftime("%Y-%m-%d"), version("orca"), version("espeak-ng-data"),
            ", Firefox ESR %s" % version("firefox-esr") if name in ("orca-web-page", "orca-page-load") else ""),
        "# narratord --ssip TMP/ssip.sock --audio null --state-dir TMP/state --socket TMP/narratord.sock",
    ]
    if name in WITH_BRIDGE:
        lines.append("# and narrator-atspi run --socket TMP/narratord.sock (narratord with --log-level debug),")
    lines += [
        "# (Orca's SPEECHD_ADDRESS at its SSIP socket), then, after both were stopped:",
        "#   narratorctl log --trace --db TMP/state/narrator.db > examples/traces/%s.jsonl (below this header)" % name,
        "# Re-record: make traces, or %s --only %s" % (argv_line, name),
        "# Keys and events, seconds from the start of the run:",
    ]
    for t, what in pressed:
        lines.append("#   %7.2f  %s" % (t, what))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.environ.get("NARRATOR_BIN") or os.path.join(REPO, ".build", "debug"),
                   help="directory with narratord and narratorctl")
    p.add_argument("--out", default=os.path.join(REPO, "examples", "traces"))
    p.add_argument("--only", default=",".join(NAMES), help="comma-separated: " + ", ".join(NAMES))
    p.add_argument("--log-dir", help="copy each run's logs here (NAME/)")
    p.add_argument("--timeout", type=float, default=300, help="each session; then everything is killed")
    p.add_argument("--orca-wait", type=float, default=300,
                   help="seconds to wait for other Orcas of this user on the machine to end before starting ours")
    a = p.parse_args()
    a.bin = os.path.abspath(a.bin)
    names = [n for n in a.only.split(",") if n]
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        p.error("unknown trace %s; known: %s" % (", ".join(unknown), ", ".join(NAMES)))
    missing = [n for n, path in TOOLS.items() if n != "zenity" and not os.access(path, os.X_OK)]
    missing += [os.path.join(a.bin, n) for n in ("narratord", "narratorctl") if not os.access(os.path.join(a.bin, n), os.X_OK)]
    if missing:
        emit({"kind": "skip", "reason": "missing: " + ", ".join(missing)})
        return 2
    argv_line = "/usr/bin/python3 Tests/Helpers/traces/record_traces.py --bin .build/debug --out examples/traces"
    ok = True
    for name in names:
        started = time.monotonic()
        signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the session exceeded --timeout")))
        signal.alarm(int(a.timeout))
        try:
            pressed, trace = record(a, name)
            signal.alarm(0)
            rows = [x for x in trace.splitlines() if x.strip()]
            path = os.path.join(a.out, name + ".jsonl")
            with open(path + ".tmp", "w") as f:
                f.write(header(name, pressed, argv_line))
                f.write(trace if trace.endswith("\n") else trace + "\n")
            os.replace(path + ".tmp", path)
            emit({"kind": "trace", "name": name, "ok": True, "path": path, "rows": len(rows) - 1,
                  "seconds": round(time.monotonic() - started, 1)})
        except BaseException as e:  # report and go on with the next trace
            signal.alarm(0)
            ok = False
            emit({"kind": "trace", "name": name, "ok": False, "error": "%s: %s" % (type(e).__name__, e),
                  "seconds": round(time.monotonic() - started, 1)})
            if isinstance(e, KeyboardInterrupt):
                break
    emit({"kind": "summary", "ok": ok})
    return 0 if ok else 1


if __name__ == "__main__":
    install_signal_cleanup(argparse.Namespace())
    sys.exit(main())
