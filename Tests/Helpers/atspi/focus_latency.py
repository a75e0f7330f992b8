#!/usr/bin/python3
"""Key press to speech started, for a focus change (Tab) in the GTK fixture: the AT-SPI event
itself, Narrator, and Orca 43, on the same headless desktop in the same run. With --app, the same
for Tab in Firefox ESR or for a caret move by line (Down/Up) in Mousepad (see "Other
applications" below).

    /usr/bin/python3 Tests/Helpers/atspi/focus_latency.py [--app fixture|firefox|mousepad|firefox-headings|...]
        [--bin DIR] [--presses N] [--interval SECONDS] [--detail FILE] [--log-dir DIR]
        [--timeout SECONDS] [--orca-wait SECONDS] [--orca-retries N]

    e.g. cp .build/debug/{narratord,narratorctl,narrator-atspi} /tmp/bin/ &&
         /usr/bin/python3 Tests/Helpers/atspi/focus_latency.py --bin /tmp/bin --detail presses.json

One desktop, as orca_compare.py builds it (Xvfb, a private session bus that activates nothing, the
AT-SPI bus launcher and registry), and a private `narratord --socket S --ssip T --audio null`.
Then two phases, each with a freshly started fixture (fixture.py beside this file):

  Narrator phase: `narrator-atspi run --socket S` (the bridge) mirrors the fixture into narratord,
      which speaks each new focus. Orca is not running.
  Orca phase: the bridge is stopped; Orca 43 runs (the preferences of
      Tests/Helpers/ssip/orca_session.py) with SPEECHD_ADDRESS pointing at a tap in front of
      narratord's SSIP socket. Orca is started as orca_compare.py starts it: not with --replace
      (which SIGKILLs every Orca of this user on the machine), after waiting up to --orca-wait
      seconds for other Orcas to end. If ours is killed from outside (someone else's `orca
      --replace`), the phase runs again (--orca-retries) and a note says so.

In both phases a bare libatspi listener (a child process running this file with --listener:
Atspi.EventListener on "object:state-changed:focused", dispatched by Atspi.event_main, so no
polling) stamps each focus gain with time.time() as its callback starts. The keys are injected
with XTEST (python3-xlib, one connection opened beforehand, so no process start-up is in the
figure): the time is taken with time.time() just before the Tab KeyPress request is written
(Shift, for shift+Tab, is pressed and synced before that). After one warm-up key, --presses keys
follow, --interval apart, in the cycle Tab, Tab, Tab, shift+Tab, shift+Tab, shift+Tab (Save ->
Remember me -> Name entry -> Volume slider -> Name entry -> Remember me -> Save), so each is a real
focus change. Per key it takes:

  event_ms     the first focus gain the listener saw after the key (its role is checked);
  narrator_ms  the "started" time of the first narratord log row (`narratorctl log --json`) not
               from Orca, queued after the key, whose text names the newly focused control
               (narrator_queued_ms: its "queued" time; they differ only if it waited);
  orca_ms      the time the tap read the SPEAK line of the first message after the key that is
               not a key echo ("tab", "left shift", ...) (orca_echo_ms: the echo's SPEAK;
               orca_started_ms: when narratord's scheduler started that message, the moment
               narrator_ms takes for Narrator; orca_focus_message_outcomes: what narratord did
               with it, e.g. "cancelled after starting" by Orca's next CANCEL, or "throttled").

Neither figure includes synthesis: narratord's "started" is its scheduler's decision to play,
before eSpeak NG's first samples, and the SPEAK line arrives before any of that. The time to
first sound adds the same engine time to both (Orca speaks through narratord here).

Clocks: the key, the listener, the tap and narratord's rows are all time.time() on this machine
(the tap here stamps lines with time.time(), not the monotonic clock). narratord's row times are
checked against requests timed here: a few SPEAKs sent straight to its SSIP socket, each row's
queued time minus the moment its final "." was written (the reply comes back within the
"bracket"), and in the Orca phase Orca's own messages against the tap. Both offsets are reported
("clock"); none is subtracted. A median beyond 20 ms adds a note.

Output: one JSON object on stdout: {"samples": N, "event_ms": {"p50", "p90", "min", "max", "n"},
"narrator_ms": {...}, "orca_ms": {...}, "narrator_over_orca": p50 ratio, "notes": [...], ...}
(stats over the presses both phases measured for the event, and per phase under
"event_ms_by_phase"; "after_event_ms": each reader's time after the event, press by press;
"by_control": p50s per control), progress on stderr. Exit 0 when every measure has at least half the
presses, 1 otherwise, 2 with {"skip": reason} when Orca, Xvfb, xdotool, python3-xlib, gi's Atspi,
a Narrator binary or the --app application is missing. Everything runs in its own process group
and is killed at the end; whatever still carries this run's environment after that is killed too
("swept"); the temporary directory is removed (logs copied to --log-dir first).

Typical run: about 60 s on 2 cores with the default 20 presses (start-up 3-5 s, each phase
--presses x --interval plus ~5 s for the fixture and the reader to settle).

Other applications (--app; the default, fixture, is all of the above). Everything else is the
same: the phases, the keys, the clocks, the matching, the output (whose "app" names the
application; "by_control" is keyed by what each key reaches):

  firefox   Firefox ESR (/usr/bin/firefox-esr) on Tests/Helpers/firefox/page.html, a fresh profile
            per phase (FIREFOX_PREFS as user.js: no first-run pages, no network), started with
            `--no-remote --profile DIR file://PAGE`, GNOME_ACCESSIBILITY=1, MOZ_ENABLE_WAYLAND=0
            (GSETTINGS_BACKEND=memory is the desktop's), after org.a11y.Status IsEnabled=true is
            set on the session bus (Firefox turns AT-SPI on only then). Its window gets the focus
            as soon as it shows (a windowfocus later, while Orca reads the loaded page, makes Orca
            cancel that and go quiet). The warm-up Tab goes from the page to the link; then the
            cycle Tab, Tab, Tab, shift+Tab, shift+Tab, shift+Tab (Read the docs link -> Email entry
            -> Remember me check box -> Send push button -> Remember me -> Email -> Read the docs).
            The text looked for is the control's name. Orca reads the whole page as it loads (the
            title, "Finished loading", the page summary, then Say All, which sends each chunk
            only after the previous one's 702 END): the Orca phase waits for that to end (nothing
            sent, nothing pending, no 702/703 for 3 s, then again for 2 s) before the first key.
            Orca's echo of shift+Tab may also be "left tab".
  mousepad  Mousepad (/usr/bin/mousepad) on a file of five lines (MOUSEPAD_TEXT), caret at the
            start of line 1. The keys are Down and Up: the warm-up Down reaches line 2, then the
            cycle Down, Down, Down, Up, Up, Up, Up, Down (lines 3, 4, 5, 4, 3, 2, 1, 2), i.e.
            Down x4 and Up x4 between line 1 and line 5. Each phase opens a file of its own
            (Mousepad reopens a file with the caret where it was left). The text looked for is
            the new line ("blank" for the empty line 4, as both readers say it). The listener
            listens for "object:text-caret-moved" (role "text") instead of focus events, so
            event_ms is key to caret event. Orca sends no key echo for arrows.
  firefox-headings, firefox-links, firefox-headings-big, firefox-links-big, firefox-lines, firefox-lines-big
            Browse mode's structural keys in Firefox ESR (as for firefox): H/Shift+H and K/Shift+K
            on Tests/Helpers/firefox/keys.html (three headings, three links) and on a generated page
            of about 10,000 objects (big_page(): WebPageBenchmark's long list of 2,500 items cut
            into 10 sections under headings "Section N"). Once the reader is quiet (Orca: after
            "Finished loading"; its Say All is stopped by the key), Control+Home reaches the
            page's first heading, then the warm-up key and the cycle of KEY_APPS (Down and Up by
            line for firefox-lines; H, H, Shift+H, Shift+H over the small page's headings; on the
            big page near its top; K and Shift+K between the small page's first two links).
            Narrator answers these keys itself
            (narrator-atspi's key listener, a `rotor` request to narratord); Orca 43 asks Firefox.
            The text looked for is the item's: narrator_ms as above; orca_ms is the SPEAK of
            the first message after the key that names it (Orca says "Wrapping to top." first
            on a wrap). The listener stamps object:text-caret-moved, which here follows what the
            reader did, so event_ms is shown but is not required for exit 0. Tables (T): one
            more key_app() once narrator-atspi binds t.
"""

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.dont_write_bytecode = True  # nothing written into the source tree

# The cycle: key, then the control that has focus afterwards (its name as Narrator and Orca say
# it, and its AT-SPI role name).
CYCLE = [("Tab", "Remember me", "check box"), ("Tab", "Name", "text"), ("Tab", "Volume", "slider"),
         ("shift+Tab", "Name", "text"), ("shift+Tab", "Remember me", "check box"),
         ("shift+Tab", "Save", "push button")]
WARMUP = ("Tab", "Remember me", "check box")  # from Save; then the cycle starts at Name...
KEY_ECHO = {"tab", "shift", "left shift", "right shift", "shift tab"}
FOCUS_EVENT = "object:state-changed:focused"
# hostile.py's modes, for --hostile.
HOSTILE_MODES = ("cycle", "wide", "name", "deep", "churn", "errors", "silent")

FIREFOX = "/usr/bin/firefox-esr"
FIREFOX_PAGE = os.path.join(REPO, "Tests", "Helpers", "firefox", "page.html")
FIREFOX_TITLE = "Narrator test page"
# A fresh profile that opens the page and nothing else, and never reaches for the network
# (FirefoxProfile.preferences in Sources/NarratorDesktopHarness).
FIREFOX_PREFS = [
    ("browser.aboutwelcome.enabled", False), ("browser.shell.checkDefaultBrowser", False),
    ("browser.startup.homepage_override.mstone", "ignore"), ("startup.homepage_welcome_url", ""),
    ("browser.startup.firstrunSkipsHomepage", True), ("datareporting.policy.dataSubmissionEnabled", False),
    ("datareporting.healthreport.uploadEnabled", False), ("toolkit.telemetry.reportingpolicy.firstRun", False),
    ("accessibility.force_disabled", 0), ("app.update.enabled", False), ("browser.tabs.warnOnClose", False),
    ("browser.newtabpage.enabled", False), ("extensions.pocket.enabled", False),
    ("browser.sessionstore.resume_from_crash", False), ("network.captive-portal-service.enabled", False),
    ("network.connectivity-service.enabled", False), ("browser.safebrowsing.update.enabled", False),
    ("app.normandy.enabled", False),
]
FIREFOX_CYCLE = [("shift+Tab", "Read the docs", "link"), ("Tab", "Email", "entry"),
                 ("Tab", "Remember me", "check box"), ("Tab", "Send", "push button"),
                 ("shift+Tab", "Remember me", "check box"), ("shift+Tab", "Email", "entry")]
FIREFOX_WARMUP = ("Tab", "Read the docs", "link")  # from the page; then the cycle starts at Email...

MOUSEPAD = "/usr/bin/mousepad"
MOUSEPAD_FILE = "sample.txt"
MOUSEPAD_TEXT = "First line of text\nSecond line here\nThird\n\nFifth line\n"
MOUSEPAD_CYCLE = [("Down", "Second line here", "text"), ("Down", "Third", "text"), ("Down", "blank", "text"),
                  ("Down", "Fifth line", "text"), ("Up", "blank", "text"), ("Up", "Third", "text"),
                  ("Up", "Second line here", "text"), ("Up", "First line of text", "text")]
MOUSEPAD_WARMUP = ("Down", "Second line here", "text")  # from line 1; then the cycle starts at Third...

# Browse mode's structural keys on a page in Firefox: H (headings) and K (links), on the small page
# of the keys' tests (keys.html) and on a page of about 10,000 objects (big_page()). Each app starts
# with Control+Home (the page's first item: its first heading) once the reader has gone quiet, then
# the warm-up key and the cycle as above. The item looked for is the heading's or the link's text.
KEYS_PAGE = os.path.join(REPO, "Tests", "Helpers", "firefox", "keys.html")
KEYS_TITLE = "Narrator keys page"
BIG_TITLE = "Long page"
BIG_ITEMS, BIG_SECTIONS = 2500, 10


def big_page(items=BIG_ITEMS, sections=BIG_SECTIONS):
    """WebPageBenchmark.longPage (a heading and a list of `items` entries, each a link, a button, a
    check box and an image: about 10,000 objects) with the list cut into `sections`, each under a
    heading of its own ("Section 1" ...), so that H has somewhere to go, and a small table after
    each section's list ("Table 1" ...: a caption, a header row, one row), so that T has too."""
    html = ['<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body>' % BIG_TITLE,
            "<h1>Long list</h1>"]
    per = items // sections
    def table(section):
        return ("<table><caption>Table %d</caption><tr><th>Race</th><th>Start</th></tr>"
                "<tr><td>Race %d</td><td>9:00</td></tr></table>" % (section, section))
    for index in range(1, items + 1):
        if (index - 1) % per == 0:
            if index > 1:
                html.append("</ul>" + table((index - 1) // per))
            html.append("<h2>Section %d</h2><ul>" % ((index - 1) // per + 1))
        html.append('<li><a href="#item%d">Item %d</a> <button>Buy %d</button> '
                    '<input type="checkbox" aria-label="Pick %d"> '
                    '<img alt="Picture %d" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></li>' % ((index,) * 5))
    html.append("</ul>" + table(sections) + "</body></html>")
    return "".join(html)


def key_app(page, title, first, warmup, cycle, role, item):
    """An app of browse mode's structural keys: `cycle` [(key, the item it reaches)] from the warm-up
    (the item after `first`, which Control+Home reaches); `role` is the items' AT-SPI role."""
    keys = {k.split("+")[-1].lower() for (k, _) in [warmup] + cycle}
    return {"bin": FIREFOX, "page": page, "start": ("ctrl+Home", first, "heading"),
            "warmup": (warmup[0], warmup[1], role), "cycle": [(k, c, role) for (k, c) in cycle],
            "echo": KEY_ECHO | keys | {"shift %s" % k for k in keys} | {"control", "left control", "home"},
            "event": "object:text-caret-moved", "tree": title, "what": item, "timeout": 420, "keys": True}


KEY_APPS = {
    # Harbour regatta -> Entry form, then Results, Entry form, Harbour regatta, Entry form, ... (no wrap).
    "firefox-headings": key_app(KEYS_PAGE, KEYS_TITLE, "Harbour regatta", ("h", "Entry form"),
                                [("h", "Entry form"), ("h", "Results"), ("shift+h", "Entry form"),
                                 ("shift+h", "Harbour regatta")], "heading", "heading"),
    # Harbour regatta -> results, then This page, results, This page, ... (the page's first two links, no wrap).
    "firefox-links": key_app(KEYS_PAGE, KEYS_TITLE, "Harbour regatta", ("k", "results"),
                             [("shift+k", "results"), ("k", "This page")], "link", "link"),
    # Long list -> Section 1, then Section 2, 3, 2, 1, 2, ... (near the top of the page: the keys'
    # cost where the page is long, not where they are far into it).
    "firefox-headings-big": key_app(big_page, BIG_TITLE, "Long list", ("h", "Section 1"),
                                    [("shift+h", "Section 1"), ("h", "Section 2"), ("h", "Section 3"),
                                     ("shift+h", "Section 2")], "heading", "heading"),
    # Long list -> Item 1, then Item 2, 3, 2, 1, 2, ...
    "firefox-links-big": key_app(big_page, BIG_TITLE, "Long list", ("k", "Item 1"),
                                 [("shift+k", "Item 1"), ("k", "Item 2"), ("k", "Item 3"), ("shift+k", "Item 2")],
                                 "link", "link"),
    # Harbour regatta -> Race schedule, then every T and Shift+T wraps to the page's one table
    # (Orca says "Wrapping to top." first: what is measured is the first message naming the table).
    "firefox-tables": key_app(KEYS_PAGE, KEYS_TITLE, "Harbour regatta", ("t", "Race schedule"),
                              [("t", "Race schedule"), ("shift+t", "Race schedule")], "table", "table"),
    # Long list -> Table 1 (after section 1's list), then Table 2, 3, 2, 1, 2, ...
    "firefox-tables-big": key_app(big_page, BIG_TITLE, "Long list", ("t", "Table 1"),
                                  [("shift+t", "Table 1"), ("t", "Table 2"), ("t", "Table 3"), ("shift+t", "Table 2")],
                                  "table", "table"),
    # Reading by line (issue 36): Harbour regatta -> Boats race..., then See the results..., Boats
    # race..., Harbour regatta, Boats race..., ... over the small page's first lines.
    "firefox-lines": key_app(KEYS_PAGE, KEYS_TITLE, "Harbour regatta", ("Down", "Boats race"),
                             [("Down", "Boats race"), ("Down", "See the"), ("Up", "Boats race"),
                              ("Up", "Harbour regatta")], "paragraph", "line"),
    # Long list -> Section 1, then Item 1, Item 2, Item 1, Section 1, Item 1, ... (each list item one line).
    "firefox-lines-big": key_app(big_page, BIG_TITLE, "Long list", ("Down", "Section 1"),
                                 [("Up", "Section 1"), ("Down", "Item 1"), ("Down", "Item 2"), ("Up", "Item 1")],
                                 "list item", "line"),
}
for _app in ("firefox-headings-big", "firefox-links-big", "firefox-tables-big", "firefox-lines-big"):
    KEY_APPS[_app]["timeout"] = 600

# Per application: its binary, the keys (the warm-up, then the cycle from its second entry), what
# Orca's key echo may say, the event the listener stamps, the tree narratord mirrors it as, what
# "control" means in the notes, and the default --timeout.
APPS = {
    "fixture": {"bin": None, "warmup": WARMUP, "cycle": CYCLE, "echo": KEY_ECHO, "event": FOCUS_EVENT,
                "tree": None, "what": "control", "timeout": 300},
    "firefox": {"bin": FIREFOX, "warmup": FIREFOX_WARMUP, "cycle": FIREFOX_CYCLE, "echo": KEY_ECHO | {"left tab"},
                "event": FOCUS_EVENT, "tree": FIREFOX_TITLE, "what": "control", "timeout": 420},
    "mousepad": {"bin": MOUSEPAD, "warmup": MOUSEPAD_WARMUP, "cycle": MOUSEPAD_CYCLE, "echo": KEY_ECHO,
                 "event": "object:text-caret-moved", "tree": MOUSEPAD_FILE, "what": "line", "timeout": 300},
}
APPS.update(KEY_APPS)


# ---------------------------------------------------------------- the listener (child process)


def listener_main(kind=FOCUS_EVENT):
    """Prints {"t": time.time(), "name", "role"} for each focus gain (or, for another event `kind`,
    each such event, with its detail1 as "offset"), {"ready": true} first."""
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi

    out = sys.stdout
    focus = kind == FOCUS_EVENT

    def on_event(event):
        t = time.time()  # first thing: the moment libatspi hands the event over
        if focus and event.detail1 != 1:
            return
        name = role = None
        try:
            name = event.source.get_name()
            role = event.source.get_role_name()
        except Exception as e:  # the source may be gone already
            name = "error: %s" % e
        d = {"t": t, "name": name, "role": role}
        if not focus:
            d["offset"] = event.detail1
        out.write(json.dumps(d) + "\n")
        out.flush()

    Atspi.init()
    listener = Atspi.EventListener.new(on_event)
    listener.register(kind)
    out.write(json.dumps({"ready": True, "t": time.time()}) + "\n")
    out.flush()
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    Atspi.event_main()


if len(sys.argv) > 1 and sys.argv[1] == "--listener":
    listener_main(*sys.argv[2:3])
    sys.exit(0)


# ---------------------------------------------------------------- the harness

sys.path.insert(0, HERE)
import orca_compare  # noqa: E402  (the desktop, narratord and its log; its helpers)
from orca_compare import QuietCompare  # noqa: E402
from harness_common import tail, wait_for_socket  # noqa: E402
from ssip_tap import Tap, speak_texts  # noqa: E402
from orca_session import TOOLS, plain  # noqa: E402


class OrcaKilled(RuntimeError):
    """Our Orca was SIGKILLed: another `orca --replace` on the machine (it kills every Orca of its
    user, whichever desktop it serves)."""


class WallTap(Tap):
    """The SSIP tap, its lines stamped with time.time() (the clock of the keys and narratord)."""

    def _record(self, conn, direction, data):
        t = time.time()
        with self.lock:
            self.records.append((t, conn, direction, data))
            if self.log:
                if direction == "---":
                    self.log.write("[%.6f] #%d --- %s\n" % (t, conn, data.decode()))
                else:
                    self.log.write("[%.6f] #%d %s %r\n" % (t, conn, direction, data))

    def note(self, text):
        t = time.time()
        with self.lock:
            self.records.append((t, 0, "###", text.encode()))
            if self.log:
                self.log.write("[%.6f] ### %s\n" % (t, text))


def stats(values):
    v = sorted(x for x in values if x is not None)
    if not v:
        return {"n": 0, "p50": None, "p90": None, "p95": None, "min": None, "max": None}

    def q(p):
        i = (len(v) - 1) * p
        lo = int(i)
        hi = min(lo + 1, len(v) - 1)
        return round(v[lo] + (v[hi] - v[lo]) * (i - lo), 1)
    return {"n": len(v), "p50": q(0.5), "p90": q(0.9), "p95": q(0.95), "min": round(v[0], 1), "max": round(v[-1], 1)}


def ms(a, b):
    return None if a is None or b is None else (a - b) * 1000.0


class Latency(QuietCompare):
    def __init__(self, args):
        args.orca_debug = False
        super().__init__(args)
        self.app_name = args.app
        self.cfg = APPS[args.app]
        self.firefox = self.cfg["bin"] == FIREFOX
        self.presses = {"narrator": [], "orca": []}
        self.clock = {}
        self.notes = []



    # ------------------------------------------------------------ start-up

    def start_daemon(self):
        b = self.opts.bin
        self.socket = self.scope.path("narratord.sock")
        self.ssip = self.scope.path("ssip.sock")
        self.narratord = self.scope.spawn("narratord", [
            os.path.join(b, "narratord"), "--socket", self.socket, "--ssip", self.ssip, "--audio", "null",
            "--state-dir", self.scope.path("state")], env=self.env)
        if not (wait_for_socket(self.socket, 20, self.narratord) and wait_for_socket(self.ssip, 10, self.narratord)):
            raise RuntimeError("narratord did not listen: " + tail(self.scope.path("narratord.err")))
        self.step("narratord", pid=self.narratord.pid)

    def start_bridge(self):
        self.bridge = self.scope.spawn("bridge", [os.path.join(self.opts.bin, "narrator-atspi"), "run",
                                                  "--socket", self.socket], env=self.env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            st = self.status()
            if st and st.get("clients", 0) >= 1:
                break
            if self.bridge.poll() is not None:
                raise RuntimeError("narrator-atspi exited %s: %s" % (self.bridge.returncode,
                                                                     tail(self.scope.path("bridge.err"))))
            time.sleep(0.1)
        self.step("narrator-atspi", pid=self.bridge.pid)

    def start_listener(self, phase):
        name = "listener-" + phase
        argv = ["/usr/bin/python3", os.path.abspath(__file__), "--listener"]
        if self.cfg["event"] != FOCUS_EVENT:
            argv.append(self.cfg["event"])
        self.listener = self.scope.spawn(name, argv, env=self.env)
        self.listener_out = self.scope.path(name + ".out")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and '"ready": true' not in tail(self.listener_out):
            if self.listener.poll() is not None:
                raise RuntimeError("the AT-SPI listener exited: " + tail(self.scope.path(name + ".err")))
            time.sleep(0.05)
        if '"ready": true' not in tail(self.listener_out):
            raise RuntimeError("the AT-SPI listener did not start: " + tail(self.scope.path(name + ".err")))

    def listener_events(self):
        out = []
        try:
            with open(self.listener_out) as f:
                for line in f:
                    try:
                        d = json.loads(line)
                    except ValueError:
                        continue
                    if "t" in d and not d.get("ready"):
                        out.append(d)
        except OSError:
            pass
        return out

    def start_fixture_only(self, phase):
        name = "fixture-" + phase
        self.target = self.scope.spawn(name, ["/usr/bin/python3", os.path.join(HERE, "fixture.py"),
                                               "--lifetime", str(self.opts.timeout)], env=self.env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and '"ready": true' not in tail(self.scope.path(name + ".out")):
            if self.target.poll() is not None:
                raise RuntimeError("the fixture exited: " + tail(self.scope.path(name + ".err")))
            time.sleep(0.05)
        self.window = self.window_of(self.target)
        if not self.window:
            raise RuntimeError("the fixture showed no window: " + tail(self.scope.path(name + ".err")))

    def start_app(self, phase):
        """The application of --app, started afresh (self.target), its window in self.window."""
        if self.app_name == "fixture":
            return self.start_fixture_only(phase)
        name = "%s-%s" % (self.app_name, phase)
        env = dict(self.env)
        if self.app_name == "mousepad":
            # A file of its own per phase: Mousepad puts the caret where it was when the same file
            # was last closed (the narrator phase ends on line 4).
            os.makedirs(self.scope.path("files-" + phase))
            path = os.path.join(self.scope.path("files-" + phase), MOUSEPAD_FILE)
            with open(path, "w") as f:
                f.write(MOUSEPAD_TEXT)
            argv = [MOUSEPAD, path]
            find = ["--pid"]
        else:
            prof = self.scope.path("ffprofile-" + phase)
            os.makedirs(prof)
            with open(os.path.join(prof, "user.js"), "w") as f:
                for key, value in FIREFOX_PREFS:
                    f.write("user_pref(%s, %s);\n" % (json.dumps(key), json.dumps(value)))
            # Firefox turns its AT-SPI on only when a screen reader is said to run.
            r = subprocess.run([TOOLS["dbus-send"], "--session", "--print-reply", "--dest=org.a11y.Bus",
                                "/org/a11y/bus", "org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status",
                                "string:IsEnabled", "variant:boolean:true"], env=self.env, capture_output=True,
                               text=True, timeout=10)
            if r.returncode != 0:
                raise RuntimeError("cannot set org.a11y.Status IsEnabled: " + r.stderr.strip()[:300])
            env.update(GNOME_ACCESSIBILITY="1", MOZ_ENABLE_WAYLAND="0")
            page = self.cfg.get("page", FIREFOX_PAGE)
            if callable(page):  # generated: written once into the run's directory
                path = self.scope.path("page-%s.html" % self.app_name)
                if not os.path.exists(path):
                    with open(path, "w") as f:
                        f.write(page())
                page = path
            argv = [FIREFOX, "--no-remote", "--profile", prof, "file://" + page]
            find = ["--class", "firefox"]
        t0 = time.monotonic()
        self.target = self.scope.spawn(name, argv, env=env)
        self.window = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            q = find + [str(self.target.pid)] if find == ["--pid"] else find
            r = subprocess.run([TOOLS["xdotool"], "search", "--onlyvisible"] + q, env=self.env,
                               capture_output=True, text=True, timeout=5)
            if r.stdout.split():
                self.window = r.stdout.split()[-1]
                break
            if self.target.poll() is not None:
                raise RuntimeError("%s exited: %s" % (self.app_name, tail(self.scope.path(name + ".err"))))
            time.sleep(0.1)
        if not self.window:
            raise RuntimeError("%s showed no window: %s" % (self.app_name, tail(self.scope.path(name + ".err"))))
        self.step(name + " window", window=self.window, after_s=round(time.monotonic() - t0, 2))
        if self.firefox:
            # At once, before the page has loaded: a windowfocus later, while Orca reads the loaded
            # page, makes Orca cancel that and say nothing more.
            self.xdo("windowfocus", "--sync", self.window)

    def start_orca_phase(self):
        self.pulse = None  # no sound server: narratord's null audio
        self.tap_log = self.scope.path("orca.tap.log")
        self.tap = WallTap(self.scope.path("tap.sock"), self.ssip, self.tap_log).start()
        self.scope.closers.append(self.tap.stop)
        self.start_orca()  # Session.start_orca: waits for "Screen reader on"

    # ------------------------------------------------------------ keys

    def open_xtest(self):
        from Xlib import X, XK, display
        from Xlib.ext import xtest
        self.X, self.xtest = X, xtest
        self.xd = display.Display(self.display)
        if not self.xd.query_extension("XTEST"):
            raise RuntimeError("the X server has no XTEST")
        keys = [self.cfg["warmup"]] + self.cfg["cycle"] + ([self.cfg["start"]] if self.cfg.get("start") else [])
        self.keycodes = {k: self.xd.keysym_to_keycode(XK.string_to_keysym(k))
                         for k in {"Shift_L", "Control_L"} | {key.split("+")[-1] for (key, _, _) in keys}}
        self.scope.closers.append(self.xd.close)

    def press(self, key):
        """Presses and releases `key` ("Tab" or "shift+Tab"; "Down", "Up"); returns time.time() taken
        just before the Tab (Down, Up) KeyPress was written to the X server, the time just after, and
        the time the first key of the combination (Shift) went down (what belongs to the previous
        press ends there)."""
        X, xt, d, kc = self.X, self.xtest, self.xd, self.keycodes
        mods = [{"shift": "Shift_L", "ctrl": "Control_L"}[m] for m in key.split("+")[:-1]]
        main = key.split("+")[-1]
        t_first = time.time()
        for m in mods:
            xt.fake_input(d, X.KeyPress, kc[m])
            d.sync()
            time.sleep(0.02)
        t = time.time()
        xt.fake_input(d, X.KeyPress, kc[main])
        d.flush()
        t_sent = time.time()
        xt.fake_input(d, X.KeyRelease, kc[main])
        for m in reversed(mods):
            xt.fake_input(d, X.KeyRelease, kc[m])
        d.sync()
        return t, t_sent, t_first

    def to_start(self, phase):
        """The start key (Control+Home: the page's first heading), until the reader has said where it
        went and gone quiet; then the warm-up key reaches the cycle's first item."""
        key, first, _ = self.cfg["start"]
        pat = re.compile(r"(^|[\s,])%s($|[\s,.])" % re.escape(first))
        for attempt in range(3):
            t = self.press(key)[0]
            deadline = time.monotonic() + 20
            heard = False
            while time.monotonic() < deadline and not heard:
                if phase == "orca":
                    heard = any(tt >= t and pat.search(plain(x)) for (tt, c, x) in speak_texts(self.tap.lines()))
                else:
                    heard = any((r.get("queued") or 0) >= t and pat.search(r.get("text") or "")
                                for r in self.narrator_rows() if not self.is_orca(r))
                time.sleep(0.2)
            if heard:
                break
        self.step("%s at the start" % phase, key=key, heard=heard)
        if not heard:
            raise RuntimeError("%s did not say %r after %s" % (phase, first, key))
        if phase == "orca":
            self.orca_settle(quiet=1.0, timeout=30, ends=True)
        else:
            self.wait_quiet(0.8, timeout=30)

    def drive(self, phase):
        """The warm-up key and the presses; [(key, control, role, t, t_sent)]."""
        self.press(self.cfg["warmup"][0])
        time.sleep(self.opts.interval)
        out = []
        cycle = self.cfg["cycle"]
        for i in range(self.opts.presses):
            key, control, role = cycle[(i + 1) % len(cycle)]
            t, t_sent, t_first = self.press(key)
            out.append({"i": i, "key": key, "control": control, "role": role, "t": t, "t_first": t_first,
                        "write_ms": round(ms(t_sent, t), 3)})
            time.sleep(self.opts.interval)
            dead = [(n, p.returncode) for (n, p) in self.scope.procs if p.poll() is not None]
            if dead == [("orca", -signal.SIGKILL)]:
                raise OrcaKilled("Orca was SIGKILLed during the orca phase, press %d (another `orca --replace` "
                                 "on this machine?)" % i)
            if dead:
                raise RuntimeError("during the %s phase these exited: %s" % (
                    phase, ", ".join("%s (status %s)" % d for d in dead)))
        time.sleep(0.5)
        return out

    def wait_quiet(self, seconds=1.0, timeout=15):
        """Until narratord's log has had no new row, and every row has ended, for `seconds`."""
        deadline = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            rows = self.narrator_rows()
            sig = (len(rows), sum(1 for r in rows if r.get("ended")))
            if sig != last:
                last, since = sig, time.monotonic()
            elif time.monotonic() - since >= seconds and all(r.get("ended") for r in rows):
                return True
            time.sleep(0.2)
        return False

    # ------------------------------------------------------------ the clock

    def clock_check(self, count=3):
        """SPEAKs straight to narratord's SSIP socket, timed here; their rows' queued times minus
        the moment the final '.' was written."""
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(self.ssip)
        f = s.makefile("rb")

        def reply():
            lines = []
            while True:
                line = f.readline().decode("utf-8", "replace").rstrip("\r\n")
                if not line:
                    raise RuntimeError("narratord closed the SSIP connection")
                lines.append(line)
                if re.match(r"^\d{3} ", line):
                    return lines
        s.sendall(b"SET self CLIENT_NAME root:latency-clock:main\r\n")
        reply()
        sent = []
        for k in range(count):
            text = "clock %d" % (k + 1)
            s.sendall(b"SPEAK\r\n")
            reply()
            s.sendall(text.encode() + b"\r\n")
            t_dot = time.time()
            s.sendall(b".\r\n")
            r = reply()
            t_reply = time.time()
            sent.append((text, t_dot, t_reply, r))
            time.sleep(0.05)
        time.sleep(0.3)
        s.sendall(b"QUIT\r\n")
        s.close()
        self.wait_quiet(0.5)
        rows = self.narrator_rows()
        diffs, brackets = [], []
        for (text, t_dot, t_reply, _) in sent:
            row = next((r for r in rows if (r.get("text") or "").strip() == text and r.get("queued")), None)
            if row:
                diffs.append(ms(row["queued"], t_dot))
                brackets.append(ms(t_reply, t_dot))
        self.clock["ssip_requests"] = {
            "samples": len(diffs), "queued_minus_sent_ms": [round(x, 2) for x in diffs],
            "reply_within_ms": [round(x, 2) for x in brackets],
            "median_ms": stats(diffs)["p50"]}

    def orca_row(self, rows, t, text):
        """narratord's row for the SPEAK of `text` the tap read at `t`: the same text, the nearest
        queued time (Orca repeats texts such as "tab"; row ids do not follow queue order)."""
        same = [r for r in rows if self.is_orca(r) and r.get("text") == text and r.get("queued")]
        return min(same, key=lambda r: abs(r["queued"] - t)) if same else None

    def clock_from_orca(self, rows):
        """Orca's messages: the row's queued time minus the tap's time of its SPEAK line."""
        diffs = []
        for (t, c, x) in speak_texts(self.tap.lines()):
            r = self.orca_row(rows, t, x)
            if r and abs(r["queued"] - t) < 0.5:
                diffs.append(ms(r["queued"], t))
        st = stats(diffs)
        self.clock["orca_messages"] = {"samples": len(diffs), "median_ms": st["p50"], "min_ms": st["min"],
                                       "max_ms": st["max"]}

    # ------------------------------------------------------------ matching

    @staticmethod
    def first_event(events, t0, t1, role):
        for e in events:
            if t0 <= e["t"] < t1:
                return e, (e.get("role") == role)
        return None, False

    @staticmethod
    def window_end(presses, i):
        """Where what press i caused ends: when the next press's first key went down."""
        return presses[i + 1].get("t_first", presses[i + 1]["t"]) if i + 1 < len(presses) else float("inf")

    def measure_narrator(self, presses):
        events = self.listener_events()
        rows = sorted((r for r in self.narrator_rows() if not self.is_orca(r) and r.get("queued")),
                      key=lambda r: r["queued"])
        for i, p in enumerate(presses):
            t_end = self.window_end(presses, i)
            e, role_ok = self.first_event(events, p["t"], t_end, p["role"])
            p["event"] = e and {"ms": round(ms(e["t"], p["t"]), 2), "name": e.get("name"), "role": e.get("role"),
                                "role_ok": role_ok}
            pat = re.compile(r"(^|[\s,])%s($|[\s,.])" % re.escape(p["control"]))
            row = next((r for r in rows if p["t"] - 0.002 <= r["queued"] < t_end and pat.search(r.get("text") or "")),
                       None)
            if row:
                started = row.get("started") or row["queued"]
                p["narrator"] = {"ms": round(ms(started, p["t"]), 2), "queued_ms": round(ms(row["queued"], p["t"]), 2),
                                 "text": row.get("text"), "kind": row.get("kind"), "outcome": row.get("outcome")}
            else:
                p["narrator"] = None
                others = [r.get("text") for r in rows if p["t"] <= r["queued"] < t_end]
                p["narrator_other_rows"] = others
        return presses

    def measure_orca(self, presses):
        events = self.listener_events()
        raw = speak_texts(self.tap.lines())
        texts = [(t, plain(x), x) for (t, c, x) in raw]
        rows = self.narrator_rows()
        for i, p in enumerate(presses):
            t_end = self.window_end(presses, i)
            e, role_ok = self.first_event(events, p["t"], t_end, p["role"])
            p["event"] = e and {"ms": round(ms(e["t"], p["t"]), 2), "name": e.get("name"), "role": e.get("role"),
                                "role_ok": role_ok}
            mine = [(t, x, raw) for (t, x, raw) in texts if p["t"] <= t < t_end and x]
            key_echo = self.cfg["echo"]
            echo = next(((t, x, r) for (t, x, r) in mine if x.strip().rstrip(".").lower() in key_echo), None)
            said = next(((t, x, r) for (t, x, r) in mine if x.strip().rstrip(".").lower() not in key_echo), None)
            if self.cfg.get("keys"):
                # The first message that names the item (Orca's "Wrapping to top." comes before it).
                said = next(((t, x, r) for (t, x, r) in mine
                             if re.search(r"\b%s\b" % re.escape(p["control"]), x)), said)
            p["orca_echo"] = echo and {"ms": round(ms(echo[0], p["t"]), 2), "text": echo[1]}
            if said:
                row = self.orca_row(rows, said[0], said[2])
                p["orca"] = {"ms": round(ms(said[0], p["t"]), 2), "text": said[1],
                             "names_control": bool(re.search(r"\b%s\b" % re.escape(p["control"]), said[1])),
                             # what narratord did with it: spoken, cancelled (by Orca), throttled...
                             "narratord_outcome": row and row.get("outcome"),
                             # when narratord's scheduler started it (the moment narrator_ms takes)
                             "started_ms": round(ms(row["started"], p["t"]), 2) if row and row.get("started") else None}
            else:
                p["orca"] = None
        return presses

    # ------------------------------------------------------------ phases

    def narrator_phase(self, phase="narrator", beside=None):
        """Narrator alone; or, as `phase`, with `beside()` run once the application is mirrored."""
        self.step(phase + " phase")
        self.start_bridge()
        self.start_listener(phase)
        self.start_app(phase)
        tree = self.cfg["tree"] or orca_compare.TREE
        deadline = time.monotonic() + (20 if self.app_name == "fixture" else 90 if self.cfg["timeout"] > 420 else 40)
        while time.monotonic() < deadline and tree not in self.ctl("trees").stdout:
            time.sleep(0.1)
        if tree not in self.ctl("trees").stdout:
            raise RuntimeError("the bridge did not mirror the %s: %s" % (
                "fixture" if self.app_name == "fixture" else self.app_name, tail(self.scope.path("bridge.err"))))
        extra = beside() if beside else []
        if not self.firefox:  # Firefox's window had the focus as it showed
            self.xdo("windowfocus", "--sync", self.window)
        time.sleep(1.0)
        self.wait_quiet(0.8, timeout=15 if self.app_name == "fixture" else 60)
        if self.cfg.get("start"):
            self.to_start("narrator")
        self.clock_check()
        presses = self.drive(phase)
        self.wait_quiet(0.8)
        # narratord writes its log in batches: the last press's row may not be readable yet.
        deadline = time.monotonic() + 3.0
        while presses and time.monotonic() < deadline and not any(
                not self.is_orca(r) and (r.get("queued") or 0) >= presses[-1]["t"] - 0.002 for r in self.narrator_rows()):
            time.sleep(0.1)
        self.presses[phase] = self.measure_narrator(presses)
        for proc in [self.listener, self.target, self.bridge] + extra:
            self.stop(proc)
        self.wait_quiet(0.5)

    def hostile_apps(self):
        """An application of each of hostile.py's modes on the desktop, started once the bridge
        mirrors the fixture, and waited for until the bridge has said what it made of each (or 90 s):
        the presses then measure the bridge beside what is left of them (the silent one is read
        again every 5 s; the others are given up, or cut)."""
        address = subprocess.run(["dbus-send", "--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus",
                                  "org.a11y.Bus.GetAddress"], env=self.env, capture_output=True, text=True, timeout=10).stdout.strip()
        procs = [self.scope.spawn("hostile-" + mode, ["/usr/bin/python3", os.path.join(HERE, "hostile.py"), address, mode], env=self.env)
                 for mode in HOSTILE_MODES]
        deadline = time.monotonic() + 90

        def verdicts():
            """What the bridge said of each mode's application, by mode, once it said it."""
            log = tail(self.scope.path("bridge.err"), 100000).splitlines()
            found = {}
            for mode in HOSTILE_MODES:
                try:
                    name = json.loads(tail(self.scope.path("hostile-%s.out" % mode)).strip().splitlines()[-1])["name"]
                except (ValueError, IndexError, KeyError):
                    continue
                final = {"silent": "(%s) did not answer within" % name, "deep": "(%s) has objects deeper than" % name}
                marks = [final[mode]] if mode in final else ["(%s) is given up" % name, " %s is given up" % name]
                line = next((line for line in log if any(mark in line for mark in marks)), None)
                if line:
                    found[mode] = line
            return found
        while time.monotonic() < deadline and len(verdicts()) < len(HOSTILE_MODES):
            time.sleep(0.2)
        self.hostile_said = verdicts()
        self.step("hostile applications", said=len(self.hostile_said))
        return procs

    def orca_phase(self):
        """The Orca phase, again (up to --orca-retries times) if our Orca is killed from outside."""
        for attempt in range(1 + self.opts.orca_retries):
            try:
                return self.orca_phase_once()
            except OrcaKilled as e:
                self.notes.append("%s; the phase was run again" % e)
                for proc in (getattr(self, "listener", None), getattr(self, "target", None),
                             getattr(self, "orca", None)):
                    if proc is not None:
                        self.stop(proc)
                self.tap.stop()
                self.scope.closers.remove(self.tap.stop)
                self.orca_attempts = attempt + 2
        raise RuntimeError("Orca was killed from outside in every attempt")

    def orca_phase_once(self):
        self.step("orca phase")
        self.start_orca_phase()
        self.start_listener("orca")
        self.start_app("orca")
        if self.cfg.get("keys"):
            # Orca reads the loaded page (the title, "Finished loading", the summary), then Say All,
            # which on the long page would go on for minutes: Control+Home (to_start) stops it.
            self.wait_for(lambda xs: any("Finished loading" in x or "Page has" in x for x in xs), 90, since=0)
            self.orca_settle(quiet=2.0, timeout=8, ends=True)
            self.to_start("orca")
        elif self.firefox:
            # Orca reads the loaded page: the frame, "Finished loading ...", the page summary, then
            # Say All, which sends each chunk only after the previous one's 702 END. Until it ends.
            self.wait_for(lambda xs: any("Finished loading" in x or "Page has" in x for x in xs), 40)
            self.orca_settle(quiet=3.0, timeout=90, ends=True)
            time.sleep(2.0)
            self.orca_settle(quiet=2.0, timeout=60, ends=True)
        else:
            self.xdo("windowfocus", "--sync", self.window)
            # Orca greets the window ("Narrator fixture frame. Save push button. ..."; Mousepad:
            # "... frame. text. First line of text."); let it finish.
            first = "First line of text" if self.app_name == "mousepad" else "Save"
            self.wait_for(lambda xs: any(first in x for x in xs), 15)
            self.orca_settle()
        presses = self.drive("orca")
        self.orca_settle()
        self.presses["orca"] = self.measure_orca(presses)
        self.wait_quiet(0.5)
        self.clock_from_orca(self.narrator_rows())
        for proc in (self.listener, self.target, self.orca):
            self.stop(proc)

    def orca_settle(self, quiet=0.6, timeout=12, ends=False):
        """Orca has sent nothing for `quiet` s and has nothing pending (the tap's clock is time.time());
        with `ends`, nor been told of an END or a CANCELED for as long (Say All sends its next
        chunk only after the previous one's 702 END)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = [x for x in self.tap.lines() if x[2] == "C>" or
                     (ends and x[2] == "S<" and x[3][:4] in (b"702 ", b"703 "))]
            last = lines[-1][0] if lines else 0
            if time.time() - last >= quiet and not self.pending():
                return True
            time.sleep(0.1)
        return False

    # ------------------------------------------------------------ the result

    def result(self):
        nar, orc = self.presses["narrator"], self.presses["orca"]
        ev_n = [p["event"]["ms"] for p in nar if p.get("event")]
        ev_o = [p["event"]["ms"] for p in orc if p.get("event")]
        n_ms = [p["narrator"]["ms"] for p in nar if p.get("narrator")]
        n_q = [p["narrator"]["queued_ms"] for p in nar if p.get("narrator")]
        o_ms = [p["orca"]["ms"] for p in orc if p.get("orca")]
        o_echo = [p["orca_echo"]["ms"] for p in orc if p.get("orca_echo")]
        # Reader time after the event, press by press.
        n_after = [p["narrator"]["ms"] - p["event"]["ms"] for p in nar if p.get("narrator") and p.get("event")]
        o_after = [p["orca"]["ms"] - p["event"]["ms"] for p in orc if p.get("orca") and p.get("event")]
        out = {
            "app": self.app_name,
            "samples": self.opts.presses,
            "event_ms": stats(ev_n + ev_o),
            "narrator_ms": stats(n_ms),
            "orca_ms": stats(o_ms),
            "narrator_over_orca": None,
            "event_ms_by_phase": {"narrator": stats(ev_n), "orca": stats(ev_o)},
            "narrator_queued_ms": stats(n_q),
            "orca_echo_ms": stats(o_echo),
            "orca_started_ms": stats([p["orca"]["started_ms"] for p in orc if p.get("orca")]),
            "after_event_ms": {"narrator": stats(n_after), "orca": stats(o_after)},
            "by_control": {},
            "clock": self.clock,
            "key_write_ms": stats([p["write_ms"] for p in nar + orc]),
        }
        if out["narrator_ms"]["p50"] is not None and out["orca_ms"]["p50"]:
            out["narrator_over_orca"] = round(out["narrator_ms"]["p50"] / out["orca_ms"]["p50"], 3)
        for control in sorted({c for (_, c, _) in self.cfg["cycle"]}):
            out["by_control"][control] = {
                "event_p50": stats([p["event"]["ms"] for p in nar + orc if p["control"] == control and p.get("event")])["p50"],
                "narrator_p50": stats([p["narrator"]["ms"] for p in nar if p["control"] == control and p.get("narrator")])["p50"],
                "orca_p50": stats([p["orca"]["ms"] for p in orc if p["control"] == control and p.get("orca")])["p50"]}
        notes = list(self.notes)
        missing = {"event (narrator phase)": sum(1 for p in nar if not p.get("event")),
                   "event (orca phase)": sum(1 for p in orc if not p.get("event")),
                   "narrator": sum(1 for p in nar if not p.get("narrator")),
                   "orca": sum(1 for p in orc if not p.get("orca"))}
        for k, v in missing.items():
            if v:
                notes.append("%d of %d presses had no %s sample" % (v, self.opts.presses, k))
        wrong_role = sum(1 for p in nar + orc if p.get("event") and not p["event"]["role_ok"])
        if wrong_role:
            notes.append("%d %s events were not of the expected %s's role" % (
                wrong_role, "focus" if self.cfg["event"] == FOCUS_EVENT else self.cfg["event"], self.cfg["what"]))
        unnamed = sum(1 for p in orc if p.get("orca") and not p["orca"]["names_control"])
        if unnamed:
            notes.append("Orca's first words did not name the %s on %d presses (e.g. %r)" % (
                self.cfg["what"], unnamed, next(p["orca"]["text"] for p in orc if p.get("orca") and not p["orca"]["names_control"])))
        outcomes = {}
        for p in orc:
            if p.get("orca"):
                o = p["orca"].get("narratord_outcome") or "no row"
                if o in ("cancelled", "interrupted") and p["orca"].get("started_ms") is not None:
                    o += " after starting"
                outcomes[o] = outcomes.get(o, 0) + 1
        out["orca_focus_message_outcomes"] = outcomes
        gated = sum(v for k, v in outcomes.items() if k in ("throttled", "deduplicated", "dropped"))
        if gated:
            notes.append("narratord's SSIP gate %s %d of Orca's %d focus messages (sent while Orca's key echo "
                         "still played, so judged; see orca_focus_message_outcomes)" % (
                             "/".join(sorted(k for k in outcomes if k in ("throttled", "deduplicated", "dropped"))),
                             gated, sum(outcomes.values())))
        for k in ("ssip_requests", "orca_messages"):
            m = (self.clock.get(k) or {}).get("median_ms")
            if m is not None and abs(m) > 20:
                notes.append("narratord's log times are %.1f ms off this machine's clock (%s)" % (m, k))
        notes.append("keys by XTEST (python3-xlib, no process start-up); all times time.time(); "
                     "orca_ms = SPEAK line at the tap, narrator_ms = the log row's started time; "
                     "narratord --audio null; load average %s at the start, %s at the end" % (
                         self.load0, ", ".join("%.2f" % x for x in os.getloadavg())))
        out["notes"] = notes
        out["missing"] = missing
        hostile = self.presses.get("hostile")
        if hostile is not None:
            out["narrator_hostile_ms"] = stats([p["narrator"]["ms"] for p in hostile if p.get("narrator")])
            out["hostile_over_alone"] = None
            if out["narrator_hostile_ms"]["p50"] is not None and out["narrator_ms"]["p50"]:
                out["hostile_over_alone"] = round(out["narrator_hostile_ms"]["p50"] / out["narrator_ms"]["p50"], 3)
            out["hostile_said"] = getattr(self, "hostile_said", [])
        return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--app", choices=sorted(APPS), default="fixture",
                   help="the application: the GTK fixture (Tab), Firefox ESR on a local page (Tab), Mousepad (Down/Up)")
    p.add_argument("--bin", default=os.environ.get("NARRATOR_BIN") or os.path.join(REPO, ".build", "debug"),
                   help="directory with narratord, narratorctl and narrator-atspi")
    p.add_argument("--presses", type=int, default=20, help="keys measured per phase (after one warm-up key)")
    p.add_argument("--interval", type=float, default=1.0, help="seconds between keys")
    p.add_argument("--detail", help="write every press (its times and texts) here, as JSON")
    p.add_argument("--log-dir", help="copy the run's logs here")
    p.add_argument("--timeout", type=float,
                   help="the whole run; then everything is killed (default: 300 s, Firefox 420 s)")
    p.add_argument("--orca-wait", type=float, default=120,
                   help="seconds to wait for other Orcas of this user on the machine to end before starting ours "
                        "(Orca will not run beside them, and this run does not replace them)")
    p.add_argument("--hostile", action="store_true",
                   help="no Orca phase: the Narrator phase again, with an application of each of hostile.py's modes "
                        "on the desktop (narrator_hostile_ms, hostile_over_alone)")
    p.add_argument("--orca-retries", type=int, default=2,
                   help="times to run the Orca phase again when our Orca is killed from outside")
    a = p.parse_args()
    a.timeout = a.timeout or APPS[a.app]["timeout"]
    a.bin = os.path.abspath(a.bin)
    a.log_dir = a.log_dir and os.path.abspath(a.log_dir)

    def skip(reason):
        print(json.dumps({"skip": reason}))
        return 2
    missing = [n for n in ("Xvfb", "dbus-daemon", "dbus-send", "at-spi-bus-launcher", "at-spi2-registryd",
                           "orca", "xdotool") if not os.access(TOOLS[n], os.X_OK) and not (a.hostile and n == "orca")]
    missing += [os.path.join(a.bin, n) for n in ("narratord", "narratorctl", "narrator-atspi")
                if not os.access(os.path.join(a.bin, n), os.X_OK)]
    missing += [x for x in [APPS[a.app]["bin"]] if x and not os.access(x, os.X_OK)]
    if missing:
        return skip("missing: " + ", ".join(missing))
    try:
        import Xlib.ext.xtest  # noqa: F401
    except ImportError:
        return skip("python3-xlib is missing (apt-get install python3-xlib)")
    r = subprocess.run(["/usr/bin/python3", "-c", "import gi; gi.require_version('Atspi', '2.0'); "
                        "from gi.repository import Atspi"], capture_output=True)
    if r.returncode != 0:
        return skip("gi's Atspi 2.0 is missing (apt-get install gir1.2-atspi-2.0 python3-gi)")

    c = Latency(a)
    c.load0 = ", ".join("%.2f" % x for x in os.getloadavg())
    orca_compare.install_signal_cleanup(c.scope)
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the run exceeded --timeout")))
    signal.alarm(int(a.timeout))
    started = time.monotonic()
    error, out = None, None
    try:
        c.start_desktop()
        c.start_daemon()
        c.open_xtest()
        c.narrator_phase()
        if a.hostile:
            c.narrator_phase("hostile", beside=c.hostile_apps)
        else:
            c.orca_phase()
    except BaseException as e:  # report, then clean up, whatever happened
        error = "%s: %s" % (type(e).__name__, e)
    finally:
        signal.alarm(0)
        try:
            out = c.result()
            out["seconds"] = round(time.monotonic() - started, 1)
            out["waited_for_other_orcas_s"] = round(getattr(c, "orca_waited", 0.0), 1)
            if error:
                out["error"] = error
                out["logs"] = {n: tail(c.scope.path(n + ".err"), 600)
                               for n in ("narratord", "bridge", "orca", a.app + "-narrator", a.app + "-orca",
                                         "listener-narrator", "listener-orca")
                               if os.path.exists(c.scope.path(n + ".err"))}
            if a.detail:
                with open(a.detail, "w") as f:
                    json.dump(c.presses, f, indent=1)
            if a.log_dir:
                c.save_logs(a.log_dir)
        except BaseException as e:
            error = error or "%s: %s" % (type(e).__name__, e)
            out = dict(out or {}, error=error)
        finally:
            out["swept"] = c.end()
            print(json.dumps(out, sort_keys=True))
    measured = ("event_ms", "narrator_ms", "narrator_hostile_ms") if a.hostile else ("event_ms", "narrator_ms", "orca_ms")
    if APPS[a.app].get("keys"):  # the caret event follows what the reader did: not a measure of its own
        measured = ("narrator_ms", "orca_ms")
    enough = all((out.get(k) or {}).get("n", 0) >= a.presses / 2 for k in measured)
    return 0 if not error and enough else 1


if __name__ == "__main__":
    sys.exit(main())
