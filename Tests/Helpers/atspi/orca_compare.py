#!/usr/bin/python3
"""What Orca 43 says and what Narrator says for the same keys (GTK fixture, Mousepad, Firefox), side by side.

    /usr/bin/python3 Tests/Helpers/atspi/orca_compare.py [--scenario fixture|mousepad|firefox]
        [--bin DIR] [--markdown FILE] [--jsonl FILE] [--log-dir DIR] [--settle SECONDS]
        [--timeout SECONDS] [--orca-debug] [--orca-wait SECONDS] [--no-clock-correction]

    e.g. cp .build/debug/{narratord,narratorctl,narrator-atspi} /tmp/bin/ &&
         /usr/bin/python3 Tests/Helpers/atspi/orca_compare.py --bin /tmp/bin --markdown table.md \
             --jsonl steps.jsonl --log-dir logs

--scenario fixture (the default) is what follows; mousepad and firefox are described after it
("The application scenarios").

On one headless desktop (Xvfb, a private session bus that activates nothing, the AT-SPI bus
launcher and registry, as in /work/shared/reference/atspi.md) it starts, in this order:

  1. a private narratord: `narratord --socket TMP/narratord.sock --ssip TMP/ssip.sock --audio null
     --state-dir TMP/state`;
  2. `narrator-atspi run --socket TMP/narratord.sock`, which mirrors the desktop's windows into it
     and moves Narrator's focus with the applications' focus, so narratord speaks each new focus;
  3. Orca (its own preferences, as Tests/Helpers/ssip/orca_session.py runs it, but not with
     --replace, which would SIGKILL every other Orca of this user on the machine: it waits up to
     --orca-wait seconds for others to end) with SPEECHD_ADDRESS=unix_socket:TMP/tap.sock, an
     ssip_tap in front of narratord's SSIP socket that logs every line Orca sends;
  4. the GTK fixture (fixture.py beside this file).

Then it gives the fixture's window focus (`xdotool windowfocus --sync`) and presses keys with
`xdotool key` (see STEPS: Tab through the controls, Space on the check box, Right on the slider
and on the tab list, Tab round to Save, Return on Save). After each key it waits at least
--settle seconds and until Orca's speech is over and narratord's log is quiet, then takes:

  - Orca's words: the texts Orca sent with SPEAK since the key (SSML stripped), its key echo
    ("tab", "space", ...) apart, and whether each was spoken (702) or cancelled (703);
  - Narrator's words: the rows of `narratorctl --socket ... log --json` queued since the key
    whose client is not Orca (the bridge's focus speech, and anything else narratord itself said),
    with their outcomes.

For each reader it checks which facts of the focused control (its name, role, state, value, and
the window title or tab position where they apply) the words carried, and counts the words. It
also records what Narrator's focused stop says after each step (`narratorctl show`), which tells
a tree the bridge did not update from an update narratord did not speak.

narratord's log times are checked against this machine's wall clock: for each of Orca's messages,
the row's queued time minus the time its SPEAK crossed the tap. Builds before the log-clock fix ran
ahead by narratord's start-up time (0.02-0.8 s); fixed builds measure ~0 (a few ms, the time
narratord takes to read a message). The median is reported ("narratord_clock_ahead_ms", with
min/max, in the summary) and subtracted from narratord's times (--no-clock-correction to keep
them); a median beyond 50 ms is flagged in "clock_warning". Orca and Narrator share the one narratord, so their speech
queues behind and interrupts each other: outcomes ("interrupted", "cancelled") partly reflect that,
the texts do not. If any process of the run exits before the end (e.g. a broad `pkill -f
fixture.py` elsewhere on the machine), the run stops with an error naming it and reports the steps
it has.

Output: one JSON object per line on stdout: {"kind": "progress", ...} as the run goes, then
{"kind": "step", ...} per key and {"kind": "summary", ...} (these two also in --jsonl); markdown
(to --markdown, else to stderr): a compact table for the docs (what each said, words, facts), then
the detailed one (key echo, outcomes, other words, Narrator's focused stop, first-word times). Exit 0 when every step ran and settled, 1 otherwise, 2
when a tool or binary is missing. Binaries come from --bin (default
$NARRATOR_BIN, else .build/debug of this checkout); copy them somewhere first if a build may
replace them mid-run. Every process runs in its own process group and is killed at the end
(and anything still carrying this run's environment after that); the temporary directory is
removed after the logs are copied to --log-dir.

Typical run: 61-69 s on 2 cores (64-66 s with the fixed builds), most of it waiting for speech to end (narratord's null audio
takes as long as speaking would); Orca is ready 1-7 s after it starts.

The application scenarios (--scenario mousepad, --scenario firefox): the same desktop, narratord,
bridge, tap and Orca, then, once Orca's greeting is over, the application instead of the fixture,
with the run's private HOME and XDG directories and GSETTINGS_BACKEND=memory; each step's facts
are what a user must hear (MOUSEPAD_STEPS, FIREFOX_STEPS). The first step ("(windowfocus)")
counts from the application's start: what either reader says as its window appears belongs to it.
Between steps the wait is also for 1 s past Orca's last 702/703 (quiet_app: Orca's Say All sends
its next sentence only after the previous one's END, with nothing pending in between).

  mousepad  `mousepad TMP/sample.txt`, the file "First line of text\nSecond line here\nThird\n\n
            Fifth line\n"; window focus (title, "text", the line), then Right, Right, Left,
            ctrl+Right x2, ctrl+Left, Down x4, Up, ctrl+End, ctrl+Home, End, Home, shift+Right x2,
            shift+Left, shift+End, Right (the selection goes), BackSpace, shift+h ("H"), i, space,
            Tab, Return, one `xdotool key` each. Facts: the character, word or line reached
            ("blank" for an empty line and a line's end, as Orca says), the text a selection took in
            or gave back and "selected"/"unselected", the character deleted, the one typed. The
            file's path (in the run's temporary directory) is shown, and counted, as /tmp/….
  firefox   `firefox-esr --no-remote --profile TMP/ffprofile file://Tests/Helpers/firefox/page.html`
            (a fresh profile without first-run pages, GNOME_ACCESSIBILITY=1, MOZ_ENABLE_WAYLAND=0,
            and org.a11y.Status IsEnabled set on the session bus before it starts; the window gets
            the focus as soon as it shows: a windowfocus while Orca reads the loaded page makes Orca
            cancel that). Steps: the page load (title), Tab x4 (link, entry, check box, button),
            shift+Tab (check box), space (checked), then three heading moves, a phase of their own:
            the readers share one desktop and one focus, and Orca's `h` (browse mode) moves
            Firefox's caret while `narratorctl rotor headings` moves only Narrator's focus. So
            Orca's three `h` come first (what Narrator says meanwhile is recorded as
            "narrator_during_orca_key"), Narrator's focus is put back where it was before them if it
            moved (`narratorctl focus TREE ELEMENT`, a setup step), then the three rotor commands
            ("orca_during_narrator_command" the other way); row n pairs Orca's n-th `h` with
            Narrator's n-th rotor command, both from the check box. Facts: the heading's name, role
            and level (Orca: "More heading level 2").

Words in the application scenarios: Orca's are the texts it sent after the key, SPEAK and CHAR
(Orca's speakCharacter: the character a caret move reached, the one BackSpace deleted), its key
echo left out, EXCEPT in the steps that type or delete text (typed characters, space, Tab
inserting a tab, Return, BackSpace: "types" in MOUSEPAD_STEPS, ✎ in the markdown), where the
echo is what Orca says about the key and so counts as its words (and carries the fact typed); a
modifier's echo ("left shift", "left control"), always cut off by what follows, never counts.
Narrator's are, as in the fixture scenario, narratord's log rows queued after the key (or the
narratorctl command) whose client is not Orca. The markdown says so above its tables, marks
CHAR messages and counted echo, adds the heading phase's table (what the other reader said,
what narratorctl printed) and ends with a summary line: the facts each missed, and the words
O / N in all. Each step's JSON has "scenario", "echo_counted" and, for a heading row,
"meanwhile"; the summary has "scenario", "app_tree_mirrored", "heading_phase" (Narrator's focus
before Orca's keys, after them, and before the rotor) and "setup_steps". Default --timeout:
fixture 240, mousepad 300, firefox 420. Typical runs on 2 cores: mousepad ~86 s, firefox ~90 s
(the page load takes ~35 s of it: Orca's Say All ends ~30 s after Firefox starts, its first chunk
queued ~7 s behind the page summary).
"""

import argparse
import json
import os
import re
import signal
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SSIP_HELPERS = os.path.join(HERE, "..", "ssip")
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, SSIP_HELPERS)
from harness_common import emit, install_signal_cleanup, tail, wait_for_socket  # noqa: E402
from ssip_tap import speak_texts  # noqa: E402
import orca_session  # noqa: E402
import page_keys  # noqa: E402
from orca_session import TOOLS, plain  # noqa: E402

TREE = "narrator-fixture: Narrator fixture"
TITLE = "Narrator fixture"

# What a reader may call each role (Orca's words first, then Narrator's).
ROLE_WORDS = {
    "button": ["push button", "button"],
    "check box": ["check box"],
    "text": ["text field", "entry", "text"],
    "slider": ["slider", "adjustable"],
    "page tab": ["page tab", "tab"],
    "link": ["link"],
    "entry": ["entry", "text field", "edit", "text"],
    "heading": ["heading"],
    **page_keys.ROLE_WORDS,
}

# The keys pressed, in order, and the facts of what has focus afterwards. A fact absent from a
# step does not apply (a button has no state or value). A change step (Space, Right on the slider)
# lists the name as "optional": a reader may or may not repeat it (Orca 43 does not), so its
# absence is shown but not counted as missed.
STEPS = [
    {"step": "focus window", "key": None,
     "focus": "Save button", "facts": {"title": TITLE, "name": "Save", "role": "button"}},
    {"step": "Tab to the check box", "key": "Tab",
     "focus": "Remember me check box", "facts": {"name": "Remember me", "role": "check box", "state": "checked"}},
    {"step": "Space clears it", "key": "space",
     "focus": "Remember me check box", "facts": {"name": "Remember me", "state": "not checked"}, "optional": ["name"]},
    {"step": "Space checks it", "key": "space",
     "focus": "Remember me check box", "facts": {"name": "Remember me", "state": "checked"}, "optional": ["name"]},
    {"step": "Tab to the entry", "key": "Tab",
     "focus": "Name entry", "facts": {"name": "Name", "role": "text", "state": "selected", "value": "Ada"}},
    {"step": "Tab to the slider", "key": "Tab",
     "focus": "Volume slider", "facts": {"name": "Volume", "role": "slider", "value": "40"}},
    {"step": "Right moves it", "key": "Right",
     "focus": "Volume slider", "facts": {"name": "Volume", "value": "41"}, "optional": ["name"]},
    {"step": "Tab to the tab list", "key": "Tab",
     "focus": "General tab", "facts": {"name": "General", "role": "page tab", "state": "selected",
                                        "position": "1 of 2"}},
    {"step": "Right to the next tab", "key": "Right",
     "focus": "Advanced tab", "facts": {"name": "Advanced", "role": "page tab", "state": "selected",
                                         "position": "2 of 2"}},
    {"step": "Tab into the page", "key": "Tab",
     "focus": "Advanced settings button", "facts": {"name": "Advanced settings", "role": "button"}},
    {"step": "Tab wraps to Save", "key": "Tab",
     "focus": "Save button", "facts": {"name": "Save", "role": "button"}},
    {"step": "Return presses Save", "key": "Return",
     "focus": "Save button (status label becomes \"Saved\"; the fixture's info bar shows \"Story saved\")",
     "facts": {"status": "Saved"}},
    {"step": "Shift+Tab wraps back", "key": "shift+Tab",
     "focus": "Advanced settings button", "facts": {"name": "Advanced settings", "role": "button"}},
]

# Orca's key echo: a text that is only a key's name.
KEY_ECHO = {"tab", "space", "right", "left", "up", "down", "return", "enter", "home", "end", "escape",
            "shift", "left shift", "right shift", "control", "left control", "shift tab"}

FACT_ORDER = ["title", "name", "role", "state", "value", "position", "status",
              # the application scenarios' (after the fixture's, whose output they leave as it was)
              "level", "line", "word", "char", "text", "deleted", "typed",
              # page-keys'
              "wrap", "landmark", "size", "header", "place"]


def words(text):
    return re.findall(r"[\w']+", text)


def fact_patterns(kind, expected):
    """Regular expressions, any of which carries the fact."""
    own = page_keys.fact_patterns(kind, expected)
    if own is not None:
        return own
    if kind == "role":
        return [r"\b%s\b" % re.escape(w) for w in ROLE_WORDS[expected]]
    if kind == "state":
        if expected == "not checked":
            return [r"\bnot checked\b", r"\bunchecked\b"]
        # "checked" that is not "not checked"; "selected" that is not "not selected"
        return [r"(?<!not )\b%s\b" % re.escape(expected)]
    if kind == "position":
        a, b = expected.split(" of ")
        return [r"\b%s of %s\b" % (a, b)]
    if kind == "level":  # a heading's level: "heading level 2", "level 2", "heading 2", "h2"
        return [r"\blevel %s\b" % expected, r"\bheading %s\b" % expected, r"\bh%s\b" % expected]
    if isinstance(expected, (list, tuple)):  # alternatives ("newline", "return", ...)
        return [r"\b%s\b" % re.escape(x) for x in expected]
    return [r"\b%s\b" % re.escape(expected)]


def carried(text, facts):
    """{fact: True/False} and the words left once the facts' words are taken out."""
    out = {}
    rest = " " + text + " "
    # The longer facts are taken out first, so that a short one cannot take its words from a
    # longer one that holds them (role "text" from the line "First line of text" in Mousepad,
    # which would credit the role and miss the line); the result is in FACT_ORDER.
    def longest(kind):
        v = facts[kind]
        return -max(len(x) for x in v) if isinstance(v, (list, tuple)) else -len(str(v))
    for kind in sorted((k for k in FACT_ORDER if k in facts), key=longest):
        hit = False
        for pattern in fact_patterns(kind, facts[kind]):
            if re.search(pattern, rest, re.I):
                hit = True
                rest = re.sub(pattern, " ", rest, count=1, flags=re.I)
                break
        out[kind] = hit
    return {k: out[k] for k in FACT_ORDER if k in out}, words(rest)


def is_echo(text):
    return text.strip().lower() in KEY_ECHO


# ---------------------------------------------------------------- the application scenarios

MOUSEPAD_TEXT = "First line of text\nSecond line here\nThird\n\nFifth line\n"
MOUSEPAD_FILE = "sample.txt"
FIREFOX_PAGE = os.path.join(HERE, "..", "firefox", "page.html")
FIREFOX_TITLE = "Narrator test page"
NEWLINE = ["newline", "new line", "return", "enter", "line break"]  # what Return may be called


def app_step(key, focus, facts, step=None, **kw):
    d = {"step": step or key, "key": key, "focus": focus, "facts": facts}
    d.update(kw)
    return d


# Mousepad, caret and typing keys in MOUSEPAD_FILE. The facts are what a user must hear: the
# character, word or line the caret reached ("blank" for an empty line and for a line's end, as
# Orca says), the text a selection took in or gave back and whether it is now selected, the
# character deleted, the character typed. `types`: the key types or deletes text, so Orca's key
# echo is its presentation and counts as its words (see the docstring).
MOUSEPAD_STEPS = [
    app_step(None, "text view, caret at the start of line 1",
             {"title": MOUSEPAD_FILE, "role": "text", "line": "First line of text"}, step="focus window"),
    app_step("Right", "caret F|irst", {"char": "i"}),
    app_step("Right", "caret Fi|rst", {"char": "r"}),
    app_step("Left", "caret F|irst", {"char": "i"}),
    app_step("ctrl+Right", "caret First|", {"word": "First"}),
    app_step("ctrl+Right", "caret First line|", {"word": "line"}),
    app_step("ctrl+Left", "caret First |line", {"word": "line"}),
    app_step("Down", "line 2, \"Second line here\"", {"line": "Second line here"}),
    app_step("Down", "line 3, \"Third\"", {"line": "Third"}),
    app_step("Down", "line 4, empty", {"line": "blank"}),
    app_step("Down", "line 5, \"Fifth line\"", {"line": "Fifth line"}),
    app_step("Up", "line 4, empty", {"line": "blank"}),
    app_step("ctrl+End", "the empty line after the last newline", {"line": "blank"}),
    app_step("ctrl+Home", "caret |First line of text", {"line": "First line of text"}),
    app_step("End", "caret at the end of line 1", {"line": "blank"}),
    app_step("Home", "caret |First", {"char": "F"}),
    app_step("shift+Right", "\"F\" selected", {"text": "F", "state": "selected"}),
    app_step("shift+Right", "\"Fi\" selected", {"text": "i", "state": "selected"}),
    app_step("shift+Left", "\"F\" selected (\"i\" given back)", {"text": "i", "state": "unselected"}),
    app_step("shift+End", "\"First line of text\" selected", {"text": "irst line of text", "state": "selected"}),
    app_step("Right", "selection gone, caret at the end of line 1", {"state": "unselected"}),
    app_step("BackSpace", "\"t\" deleted: \"First line of tex\"", {"deleted": "t"}, types=True),
    app_step("shift+h", "typed \"H\"", {"typed": "H"}, types=True),
    app_step("i", "typed \"i\": \"First line of texHi\"", {"typed": "i"}, types=True),
    app_step("space", "typed a space", {"typed": "space"}, types=True),
    app_step("Tab", "typed a tab", {"typed": "tab"}, types=True),
    app_step("Return", "a new line", {"typed": NEWLINE}, types=True),
]

# Firefox ESR on FIREFOX_PAGE. The heading steps (those with "narrator") are a phase of their own:
# both readers share one desktop and one focus, and Orca's `h` (browse mode) moves Firefox's caret,
# while Narrator's rotor moves only Narrator's focus. So Orca's `h` presses come first (Narrator's
# words meanwhile are recorded as its reaction), then Narrator's focus is put back where it was
# before them (`narratorctl focus TREE ELEMENT`, when it moved), then the rotor commands; each row
# pairs Orca's n-th `h` with Narrator's n-th `narratorctl rotor headings`, from the same start:
# the check box.
FIREFOX_STEPS = [
    app_step(None, "the page, loaded", {"title": FIREFOX_TITLE}, step="page load, window focus"),
    app_step("Tab", "Read the docs link", {"name": "Read the docs", "role": "link"}),
    app_step("Tab", "Email entry", {"name": "Email", "role": "entry"}),
    app_step("Tab", "Remember me check box", {"name": "Remember me", "role": "check box", "state": "not checked"}),
    app_step("Tab", "Send button", {"name": "Send", "role": "button"}),
    app_step("shift+Tab", "Remember me check box", {"name": "Remember me", "role": "check box", "state": "not checked"}),
    app_step("space", "Remember me check box", {"name": "Remember me", "state": "checked"}, optional=["name"]),
    app_step("h", "heading \"More\" (h2)", {"name": "More", "role": "heading", "level": "2"},
             step="next heading", narrator=["rotor", "headings"]),
    app_step("h", "heading \"Welcome\" (h1), wrapped to the top", {"name": "Welcome", "role": "heading", "level": "1"},
             step="next heading", narrator=["rotor", "headings"]),
    app_step("h", "heading \"Sign in\" (h2)", {"name": "Sign in", "role": "heading", "level": "2"},
             step="next heading", narrator=["rotor", "headings"]),
]

SCENARIOS = {
    "fixture": {"steps": STEPS, "timeout": 240},
    "mousepad": {"steps": MOUSEPAD_STEPS, "timeout": 300, "app": "mousepad", "tree_marker": MOUSEPAD_FILE,
                 "first_quiet": 1.5, "first_timeout": 30},
    "firefox": {"steps": FIREFOX_STEPS, "timeout": 420, "app": "firefox", "tree_marker": FIREFOX_TITLE,
                "focus_at_once": True,
                # page load: the frame, "Finished loading", the page summary, then Orca's Say All
                "first_quiet": 3.0, "first_timeout": 90, "first_extra": 2.0},
    # Browse mode's structural and table keys, Orca's phase then Narrator's (page_keys.py).
    "page-keys": {"steps": page_keys.STEPS, "timeout": 420, "app": "firefox", "page": page_keys.PAGE,
                  "tree_marker": page_keys.TITLE, "focus_at_once": True, "phases": True,
                  "first_quiet": 3.0, "first_timeout": 90, "first_extra": 2.0},
}

# Firefox: a fresh profile with no first-run pages and no background traffic
# (/tmp/investigate/orca/orca_measure.py).
FIREFOX_PREFS = {
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.tabs.warnOnClose": False,
    "startup.homepage_welcome_url": "",
    "startup.homepage_welcome_url.additional": "",
    "browser.startup.firstrunSkipsHomepage": True,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "browser.messaging-system.whatsNewPanel.enabled": False,
    "app.update.enabled": False,
    "browser.sessionstore.resume_from_crash": False,
    "extensions.autoDisableScopes": 15,
    "browser.newtabpage.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
}

# Orca's names for keys in its key echo (orca/keynames.py); a modifier's echo ("left shift") is
# always cut off by what follows and never counts as words.
KEY_NAMES = {"tab": ["tab", "left tab"], "space": ["space"], "backspace": ["backspace"],
             "return": ["return", "enter"], "delete": ["delete"], "escape": ["escape"],
             "shift": ["left shift", "right shift", "shift"], "ctrl": ["left control", "right control", "control"]}
MODIFIER_ECHO = {"left shift", "right shift", "shift", "left control", "right control", "control",
                 "left alt", "right alt", "alt"}


def echo_names(key):
    """The texts Orca's key echo may say for an xdotool key ("shift+h": "left shift", "h")."""
    names = set(MODIFIER_ECHO)
    for part in (key or "").split("+"):
        names.update(KEY_NAMES.get(part.lower(), [part.lower()]))
    return names


class Compare(orca_session.Session):
    def __init__(self, args):
        a = argparse.Namespace(reference_speechd=False, ssip_socket=None, pulse_server=None,
                               sink=None, orca_debug=args.orca_debug, timeout=args.timeout,
                               log_dir=args.log_dir)
        super().__init__(a)
        self.opts = args
        self.scenario = getattr(args, "scenario", "fixture")
        self.sc = SCENARIOS[self.scenario]
        self.steps = []
        self.wall0 = time.time() - (time.monotonic() - self.t0)  # the wall clock at self.t0

    def save_logs(self, log_dir, names=None):
        """Copies this run's logs (`names`, else every .err, .out and .log file) and narratord's
        log rows (narrator-log.json) to `log_dir`."""
        os.makedirs(log_dir, exist_ok=True)
        if names is None:
            names = [n for n in os.listdir(self.scope.dir) if n.endswith((".err", ".out", ".log"))]
        for n in names:
            if os.path.exists(self.scope.path(n)):
                shutil.copy(self.scope.path(n), os.path.join(log_dir, n))
        if getattr(self, "socket", None) and os.path.exists(self.socket):
            with open(os.path.join(log_dir, "narrator-log.json"), "w") as f:
                json.dump(self.narrator_rows(), f, indent=1)

    def end(self):
        """Stops every process of the run, kills whatever still carries its environment and
        removes its directory; returns the pids swept."""
        scope_dir = self.scope.dir
        self.scope.keep = True
        self.scope.close()
        swept = sweep(scope_dir)
        shutil.rmtree(scope_dir, ignore_errors=True)
        return swept

    def step(self, what, **extra):
        """A progress line ({"kind": "progress"}, so that "step" means a compared key) and a ###
        note in the tap's log."""
        d = {"kind": "progress", "progress": what, "t": self.t()}
        d.update(extra)
        emit(d)
        if getattr(self, "tap", None):
            self.tap.note(what + (" " + json.dumps(extra) if extra else ""))

    # ------------------------------------------------------------ desktop (no D-Bus activation)

    def start_desktop(self):
        # The session bus of orca_session.Session would activate services (dconf, a second bus
        # launcher) that then outlive the run outside its process groups; this one activates
        # nothing (as Sources/NarratorDesktopHarness does), so every service on it is ours.
        conf = self.scope.path("session.conf")
        with open(conf, "w") as f:
            f.write('<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"\n'
                    ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
                    '<busconfig><type>session</type><listen>unix:dir=%s</listen>\n'
                    '<policy context="default"><allow send_destination="*" eavesdrop="true"/>'
                    '<allow eavesdrop="true"/><allow own="*"/></policy></busconfig>\n' % self.scope.dir)
        real = TOOLS["dbus-daemon"]
        spawn = self.scope.spawn

        def spawn_bus(name, argv, **kw):
            if argv and argv[0] == real:
                argv = [real, "--config-file=" + conf, "--nofork", "--print-address=1"]
            return spawn(name, argv, **kw)
        self.scope.spawn = spawn_bus
        try:
            super().start_desktop()
        finally:
            self.scope.spawn = spawn

    # ------------------------------------------------------------ Narrator

    def start_narrator(self):
        b = self.opts.bin
        self.socket = self.scope.path("narratord.sock")
        self.ssip = self.scope.path("ssip.sock")
        self.narratord = self.scope.spawn("narratord", [
            os.path.join(b, "narratord"), "--socket", self.socket, "--ssip", self.ssip, "--audio", "null",
            "--state-dir", self.scope.path("state"), "--log-level", "debug"], env=self.env)
        if not (wait_for_socket(self.socket, 20, self.narratord) and wait_for_socket(self.ssip, 10, self.narratord)):
            raise RuntimeError("narratord did not listen: " + tail(self.scope.path("narratord.err")))
        self.step("narratord", socket=self.socket, ssip=self.ssip, pid=self.narratord.pid)
        self.args.ssip_socket = self.ssip

    def start_bridge(self):
        b = self.opts.bin
        self.bridge = self.scope.spawn("bridge", [os.path.join(b, "narrator-atspi"), "run", "--socket", self.socket],
                                       env=self.env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            st = self.status()
            if st and st.get("clients", 0) >= 1:
                break
            if self.bridge.poll() is not None:
                raise RuntimeError("narrator-atspi exited %s: %s" % (self.bridge.returncode, tail(self.scope.path("bridge.err"))))
            time.sleep(0.1)
        self.step("narrator-atspi", pid=self.bridge.pid)

    def ctl(self, *args, timeout=30):
        return subprocess.run([os.path.join(self.opts.bin, "narratorctl"), "--socket", self.socket] + list(args),
                              env=self.env, capture_output=True, text=True, timeout=timeout)

    def status(self):
        r = self.ctl("--json", "status")
        try:
            return json.loads(r.stdout)
        except ValueError:
            return None

    def narrator_rows(self):
        r = self.ctl("log", "--json")
        try:
            return json.loads(r.stdout)
        except ValueError:
            return []

    def focused_stop(self):
        """Narrator's focus after a step: the element and what its stop says now (from `show`),
        which tells a tree that was not updated from an update that was not spoken."""
        st = self.status() or {}
        focus = st.get("focus") or {}
        element = focus.get("element")
        utterance = None
        tree = TREE if self.scenario == "fixture" else focus.get("tree")
        try:
            stops = json.loads(self.ctl("--json", "show", tree).stdout) if tree else []
            utterance = next((x.get("utterance") for x in stops if x.get("id") == element), None)
        except (ValueError, AttributeError):
            pass
        return {"tree": focus.get("tree"), "element": element, "utterance": utterance}

    def clock_skew(self, rows):
        """How far narratord's log times run ahead of this machine's wall clock: (median, count,
        min, max) over Orca's messages of the row's queued time minus the time its SPEAK crossed
        the tap (the tap forwards at once, so this is narratord's own error plus the time it takes
        to read and queue the message, a few ms)."""
        raw = [(t, x) for (t, c, x) in speak_texts(self.tap.lines())]
        orca_rows = sorted((r for r in rows if self.is_orca(r)), key=lambda r: r.get("id") or 0)
        diffs, j = [], 0
        for r in orca_rows:
            while j < len(raw) and raw[j][1] != r.get("text"):
                j += 1
            if j == len(raw):
                break
            diffs.append(r["queued"] - (self.wall0 + raw[j][0]))
            j += 1
        if not diffs:
            return 0.0, 0, None, None
        diffs.sort()
        return diffs[len(diffs) // 2], len(diffs), diffs[0], diffs[-1]

    @staticmethod
    def is_orca(row):
        c = row.get("client") or {}
        return "orca" in (c.get("name") or "").lower()

    # ------------------------------------------------------------ Orca, beside other people's

    def start_orca(self):
        """Orca without --replace. `orca --replace` (what orca_session.py runs) SIGKILLs every
        other process named orca of this user on the machine, whichever desktop it serves, and a
        plain `orca` refuses to start while one runs. So this waits (--orca-wait seconds) until
        no other Orca runs, starts one, and starts it again if another appeared in between. An
        Orca of someone else's started later with --replace still kills this one: dead() names
        it (status -9)."""
        prefs = os.path.join(self.env["XDG_DATA_HOME"], "orca")
        os.makedirs(prefs, exist_ok=True)
        with open(os.path.join(prefs, "user-settings.conf"), "w") as f:
            json.dump(orca_session.orca_settings(), f, indent=2)
        env = dict(self.env, SPEECHD_ADDRESS="unix_socket:" + self.tap.listen_path, SPEECHD_CMD="/bin/false")
        if getattr(self, "pulse", None):
            env.update(self.pulse.env({}))
        argv = [TOOLS["orca"]]
        if self.args.orca_debug:
            argv += ["--debug-file", self.scope.path("orca-debug.out")]
        deadline = time.monotonic() + getattr(self.opts, "orca_wait", 120)
        self.orca_waited = getattr(self, "orca_waited", 0.0)  # summed over attempts
        while True:
            others = other_orcas()
            if others:
                if time.monotonic() > deadline:
                    raise RuntimeError("other Orcas of this user run on the machine (pids %s) for longer than "
                                       "--orca-wait; not replacing them" % others)
                t = time.monotonic()
                time.sleep(0.5)
                self.orca_waited += time.monotonic() - t
                continue
            self.orca = self.scope.spawn("orca", argv, env=env)
            ok = self.wait_for(lambda texts: any("Screen reader on" in x for x in texts), 30, since=0)
            if ok:
                break
            if self.orca.poll() is None:
                self.scope.kill(self.orca, grace=0.5)  # up but silent: not worth waiting for
            said = tail(self.scope.path("orca.out"), 500)
            self.scope.procs = [(n, q) for (n, q) in self.scope.procs if q is not self.orca]
            if "Another screen reader process" in said and time.monotonic() < deadline:
                continue  # another Orca started between the check and ours
            raise RuntimeError("Orca did not say 'Screen reader on' within 30 s; stdout: %s; stderr: %s; traffic: %s"
                               % (said, tail(self.scope.path("orca.err"), 1500), tail(self.tap_log, 1500)))
        self.step("orca ready", pid=self.orca.pid, waited_for_other_orcas_s=round(self.orca_waited, 1))

    # ------------------------------------------------------------ the fixture

    def start_fixture(self):
        self.fixture = self.scope.spawn("fixture", ["/usr/bin/python3", os.path.join(HERE, "fixture.py"),
                                                    "--lifetime", str(self.opts.timeout)], env=self.env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and '"ready": true' not in tail(self.scope.path("fixture.out")):
            if self.fixture.poll() is not None:
                raise RuntimeError("the fixture exited: " + tail(self.scope.path("fixture.err")))
            time.sleep(0.05)
        self.window = self.window_of(self.fixture)
        if not self.window:
            raise RuntimeError("the fixture showed no window: " + tail(self.scope.path("fixture.err")))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and TREE not in self.ctl("trees").stdout:
            time.sleep(0.1)
        if TREE not in self.ctl("trees").stdout:
            raise RuntimeError("the bridge did not mirror the fixture: " + tail(self.scope.path("bridge.err")))
        self.step("fixture", window=self.window, stops=self.ctl("show", TREE).stdout.splitlines())

    # ------------------------------------------------------------ Orca's messages and their fates

    def orca_messages(self):
        """[(t, text, outcome)] for every SPEAK: outcome 'spoken' (702), 'cancelled' (703), or None."""
        records = self.tap.lines()
        texts = speak_texts(records)
        ids = []  # per SPEAK in order: its message id from the 225-ID reply after its '.'
        fates = {}
        previous = {}
        expecting = {}  # connection -> number of SPEAKs whose 225 has not come
        speaks = 0
        receiving = set()
        order = []  # (conn, index of SPEAK)
        for (t, c, d, b) in records:
            line = b.decode("utf-8", "replace").rstrip("\r\n")
            if d == "C>":
                if c in receiving:
                    if line == ".":
                        receiving.discard(c)
                        order.append(c)
                        expecting.setdefault(c, []).append(speaks)
                        speaks += 1
                elif line.upper() == "SPEAK":
                    receiving.add(c)
            elif d == "S<":
                m = re.match(r"^(\d{3})-(\S+)$", line)
                if m and m.group(1) == "225" and expecting.get(c):
                    i = expecting[c].pop(0)
                    while len(ids) <= i:
                        ids.append(None)
                    ids[i] = (c, m.group(2))
                elif m and m.group(1) in ("702", "703") and not re.match(r"^70\d-", previous.get(c, "")):
                    fates[(c, m.group(2))] = "spoken" if m.group(1) == "702" else "cancelled"
                previous[c] = line
        out = []
        for i, (t, c, x) in enumerate(texts):
            key = ids[i] if i < len(ids) else None
            out.append((t, plain(x), fates.get(key) if key else None))
        return out

    # ------------------------------------------------------------ stepping

    def quiet(self, since_wall):
        """Orca has sent nothing for 0.6 s with nothing pending, and narratord's log has had no new
        row for 0.8 s, with every row since the key ended."""
        deadline = time.monotonic() + 15
        last_count, last_change = None, time.monotonic()
        while time.monotonic() < deadline:
            lines = self.tap.lines("C>")
            last = lines[-1][0] if lines else 0
            orca_quiet = time.monotonic() - self.t0 - last >= 0.6 and not self.pending()
            rows = [r for r in self.narrator_rows() if (r.get("queued") or 0) >= since_wall - 0.05]
            if len(rows) != last_count:
                last_count, last_change = len(rows), time.monotonic()
            narrator_quiet = time.monotonic() - last_change >= 0.8 and all(r.get("ended") for r in rows)
            if orca_quiet and narrator_quiet:
                return True
            time.sleep(0.2)
        return False

    def run_steps(self):
        for spec in STEPS:
            t_mono = self.t()
            t_wall = time.time()
            if spec["key"] is None:
                r = self.xdo("windowfocus", "--sync", self.window)
            else:
                r = self.xdo("key", spec["key"])
            time.sleep(self.opts.settle)
            settled = self.quiet(t_wall)
            self.steps.append(dict(spec, t=t_mono, wall=t_wall, xdotool=r.returncode, settled=settled,
                                   narrator_focus=self.focused_stop()))
            dead = self.dead()
            if dead:
                raise RuntimeError("during step %d (%s) these exited: %s" % (
                    len(self.steps) - 1, spec["step"], ", ".join("%s (status %s)" % d for d in dead)))
        time.sleep(0.5)

    def dead(self):
        """The processes of this run that have exited (none should before the end; a negative
        status is the signal that ended it, -15 being a SIGTERM from outside the run; orca with
        -9 is most likely another `orca --replace` on the machine, which kills every Orca of its
        user)."""
        return [(name + (" (another `orca --replace` on this machine?)" if name == "orca" and p.returncode == -9 else ""),
                 p.returncode) for (name, p) in self.scope.procs if p.poll() is not None]

    def collect(self):
        messages = self.orca_messages()
        rows = self.narrator_rows()
        self.skew, self.skew_samples, self.skew_min, self.skew_max = self.clock_skew(rows)
        skew = self.skew if self.opts.correct_clock else 0.0
        focus_rows = [dict(r, queued=r["queued"] - skew) for r in rows if not self.is_orca(r) and r.get("queued")]
        results = []
        for i, s in enumerate(self.steps):
            t_end = self.steps[i + 1]["t"] if i + 1 < len(self.steps) else float("inf")
            w_end = self.steps[i + 1]["wall"] if i + 1 < len(self.steps) else float("inf")
            mine = [m for m in messages if s["t"] <= m[0] < t_end]
            echo = [{"text": x, "outcome": o} for (_, x, o) in mine if is_echo(x)]
            said = [{"text": x, "outcome": o, "at": round(t - s["t"], 3)} for (t, x, o) in mine if not is_echo(x) and x]
            nrows = [r for r in focus_rows if s["wall"] - 0.05 <= (r.get("queued") or 0) < w_end - 0.05]
            nsaid = [{"text": r.get("text") or "", "kind": r.get("kind"), "outcome": r.get("outcome"),
                      "element": r.get("element"), "client": (r.get("client") or {}).get("name"),
                      "at": round(r["queued"] - s["wall"], 3)} for r in nrows]
            orca_text = " ".join(x["text"] for x in said)
            narrator_text = " ".join(x["text"] for x in nsaid)
            ofacts, oextra = carried(orca_text, s["facts"])
            nfacts, nextra = carried(narrator_text, s["facts"])
            results.append({
                "kind": "step", "n": i, "step": s["step"], "key": s["key"] or "(windowfocus)",
                "focus": s["focus"], "facts": s["facts"], "optional": s.get("optional", []),
                "settled": s["settled"],
                "narrator_focus_after": s["narrator_focus"],
                "orca": {"texts": said, "key_echo": echo, "words": len(words(orca_text)),
                         "facts": ofacts, "other_words": oextra},
                "narrator": {"texts": nsaid, "words": len(words(narrator_text)),
                             "facts": nfacts, "other_words": nextra},
            })
        return results

    # ------------------------------------------------------------ the application scenarios

    def start_app(self):
        if self.scenario == "fixture":
            return self.start_fixture()
        self.app_name = self.sc["app"]
        env = dict(self.env)
        if self.scenario == "mousepad":
            path = self.scope.path(MOUSEPAD_FILE)
            with open(path, "w") as f:
                f.write(MOUSEPAD_TEXT)
            argv = ["/usr/bin/mousepad", path]
        else:
            page = os.path.abspath(self.sc.get("page", FIREFOX_PAGE))
            if not os.path.exists(page):
                raise RuntimeError("no page: " + page)
            prof = self.scope.path("ffprofile")
            os.makedirs(prof)
            with open(os.path.join(prof, "user.js"), "w") as f:
                for name, v in FIREFOX_PREFS.items():
                    f.write("user_pref(%s, %s);\n" % (json.dumps(name), json.dumps(v)))
            # Firefox turns its accessibility on only when a screen reader is said to run:
            # GNOME_ACCESSIBILITY=1, and org.a11y.Status IsEnabled on the session bus (narrator-atspi
            # sets that too at its start; the bus launcher keeps it with GSETTINGS_BACKEND=memory).
            env.update(GNOME_ACCESSIBILITY="1", MOZ_ENABLE_WAYLAND="0")
            r = subprocess.run([TOOLS["dbus-send"], "--session", "--print-reply", "--dest=org.a11y.Bus",
                                "/org/a11y/bus", "org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status",
                                "string:IsEnabled", "variant:boolean:true"], env=self.env, capture_output=True,
                               text=True, timeout=10)
            self.step("org.a11y.Status IsEnabled", status=r.returncode, stderr=r.stderr.strip()[:200])
            argv = ["/usr/bin/firefox-esr", "--no-remote", "--profile", prof, "file://" + page]
        # The first step (window focus) counts from here: what either reader says as the window
        # appears belongs to it.
        self.app_t, self.app_wall = self.t(), time.time()
        self.app = self.scope.spawn(self.app_name, argv, env=env)
        deadline = time.monotonic() + 60
        self.window = None
        while time.monotonic() < deadline and not self.window:
            q = ["--pid", str(self.app.pid)] if self.scenario == "mousepad" else ["--class", "firefox"]
            r = subprocess.run([TOOLS["xdotool"], "search", "--onlyvisible"] + q, env=self.env,
                               capture_output=True, text=True, timeout=5)
            ids = r.stdout.split()
            if ids:
                self.window = ids[-1]
                break
            if self.app.poll() is not None:
                raise RuntimeError("%s exited: %s" % (self.app_name, tail(self.scope.path(self.app_name + ".err"))))
            time.sleep(0.1)
        if not self.window:
            raise RuntimeError("%s showed no window: %s" % (self.app_name, tail(self.scope.path(self.app_name + ".err"))))
        self.step(self.app_name + " window", window=self.window, after_s=round(self.t() - self.app_t, 2))
        if self.sc.get("focus_at_once"):
            # Firefox: the window gets the focus as soon as it shows, before the page has loaded
            # (as in /tmp/investigate/orca): a windowfocus later, while Orca reads the loaded page,
            # makes Orca cancel that and say nothing more.
            self.focus_r = self.xdo("windowfocus", "--sync", self.window)
        if not self.sc.get("phases"):  # (the bridge starts in the second phase)
            self.wait_for_tree()

    def wait_for_tree(self):
        """Until the bridge has mirrored the window (Firefox: once the page's title is the window's)."""
        marker = self.sc["tree_marker"]
        deadline = time.monotonic() + 40
        trees = ""
        while time.monotonic() < deadline:
            trees = self.ctl("trees").stdout
            if marker in trees:
                break
            time.sleep(0.2)
        self.tree_ready = marker in trees
        self.step("trees", mirrored=self.tree_ready, trees=trees.splitlines(), after_s=round(self.t() - self.app_t, 2))

    def orca_events(self):
        """[(t, kind, raw text, plain text, outcome)] for each SPEAK and CHAR Orca sent (Orca's
        speakCharacter sends CHAR: the character a caret move reached, the one BackSpace deleted),
        outcome 'spoken' (702), 'cancelled' (703) or None."""
        out = []
        receiving = {}
        expecting = {}
        ids = {}
        fates = {}
        previous = {}
        for (t, c, d, b) in self.tap.lines():
            line = b.decode("utf-8", "replace")
            if line.endswith("\r\n"):
                line = line[:-2]
            if d == "C>":
                if c in receiving:
                    if line == ".":
                        t0, parts = receiving.pop(c)
                        raw = "\r\n".join(parts)
                        out.append([t0, "SPEAK", raw, plain(raw), None])
                        expecting.setdefault(c, []).append(len(out) - 1)
                    else:
                        receiving[c][1].append(line[1:] if line.startswith("..") else line)
                    continue
                word = line.split(" ", 1)
                if word[0].upper() == "SPEAK":
                    receiving[c] = (t, [])
                elif word[0].upper() == "CHAR":
                    ch = word[1] if len(word) > 1 else ""
                    out.append([t, "CHAR", ch, ch, None])
                    expecting.setdefault(c, []).append(len(out) - 1)
            elif d == "S<":
                m = re.match(r"^(\d{3})-(\S+)$", line)
                if m and m.group(1) == "225" and expecting.get(c):
                    ids[(c, m.group(2))] = expecting[c].pop(0)
                elif m and m.group(1) in ("702", "703") and not re.match(r"^70\d-", previous.get(c, "")):
                    fates[(c, m.group(2))] = "spoken" if m.group(1) == "702" else "cancelled"
                previous[c] = line
        for key, i in ids.items():
            out[i][4] = fates.get(key)
        return [tuple(x) for x in out]

    def clock_skew_app(self, rows, events):
        """clock_skew over SPEAK and CHAR; a row that matches no message is passed over."""
        raw = [(t, x, p) for (t, k, x, p, o) in events]
        orca_rows = sorted((r for r in rows if self.is_orca(r)), key=lambda r: r.get("id") or 0)
        diffs, j = [], 0
        for r in orca_rows:
            k = j
            while k < len(raw) and r.get("text") not in (raw[k][1], raw[k][2]):
                k += 1
            if k == len(raw) or not r.get("queued"):
                continue
            diffs.append(r["queued"] - (self.wall0 + raw[k][0]))
            j = k + 1
        if not diffs:
            return 0.0, 0, None, None
        diffs.sort()
        return diffs[len(diffs) // 2], len(diffs), diffs[0], diffs[-1]

    def quiet_app(self, since_wall, quiet=1.0, timeout=20):
        """As quiet(), and also `quiet` s past Orca's last 702/703: Orca's Say All sends its next
        sentence only after the previous one's 702 END, when nothing is pending."""
        deadline = time.monotonic() + timeout
        last_count, last_change = None, time.monotonic()
        while time.monotonic() < deadline:
            lines = [x for x in self.tap.lines() if x[2] == "C>" or
                     (x[2] == "S<" and x[3][:4] in (b"702 ", b"703 "))]
            last = lines[-1][0] if lines else 0
            orca_quiet = time.monotonic() - self.t0 - last >= quiet and not self.pending()
            rows = [r for r in self.narrator_rows() if (r.get("queued") or 0) >= since_wall - 0.05]
            if len(rows) != last_count:
                last_count, last_change = len(rows), time.monotonic()
            narrator_quiet = time.monotonic() - last_change >= max(quiet, 0.8) and all(r.get("ended") for r in rows)
            if orca_quiet and narrator_quiet:
                return True
            time.sleep(0.2)
        return False

    def narrator_focus_id(self):
        focus = (self.status() or {}).get("focus") or {}
        return (focus.get("tree"), focus.get("element")) if focus.get("element") else None

    def app_step_run(self, spec, who, index):
        """One step: the key (who "both" or "orca"), the narratorctl command (who "narrator"), or
        a setup command (who "setup": `spec` is its argv for narratorctl); then the wait for quiet."""
        first = spec.get("key") is None and who == "both"
        if first:
            t_mono, t_wall = self.app_t, self.app_wall
        else:
            t_mono, t_wall = self.t(), time.time()
        printed = None
        if who in ("orca-setup", "narrator-setup") or (who == "narrator" and spec.get("narrator") == "key"):
            r = self.xdo("key", spec["key"])
        elif who == "setup":
            r = self.ctl(*spec["narrator"])
            printed = (r.stdout + r.stderr).strip()
            self.step("narratorctl " + " ".join(spec["narrator"]), status=r.returncode, printed=printed)
        elif first:
            r = getattr(self, "focus_r", None) or self.xdo("windowfocus", "--sync", self.window)
        elif who == "narrator":
            r = self.ctl(*spec["narrator"])
            printed = (r.stdout + r.stderr).strip()
            self.step("narratorctl " + " ".join(spec["narrator"]), status=r.returncode, printed=printed)
        else:
            r = self.xdo("key", spec["key"])
        if first:
            settled = self.app_read(t_wall)
        else:
            time.sleep(self.opts.settle)
            settled = self.quiet_app(t_wall)
        self.steps.append(dict(spec, who=who, index=index, t=t_mono, wall=t_wall, status=r.returncode,
                               printed=printed, settled=settled, narrator_focus=self.focused_stop()))
        dead = self.dead()
        if dead:
            raise RuntimeError("during step %d (%s) these exited: %s" % (
                index, spec["step"], ", ".join("%s (status %s)" % d for d in dead)))

    def orca_heard_app(self, timeout=40):
        """Until Orca's first words about the window; whether they came."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(e[0] >= self.app_t for e in self.orca_events()):
                return True
            time.sleep(0.1)
        return False

    def app_read(self, since_wall):
        """Until Orca's first words about the window, then quiet (Firefox: the page load and Orca's
        Say All of the page); whether it came."""
        self.orca_heard_app()
        time.sleep(self.opts.settle)
        settled = self.quiet_app(since_wall, self.sc.get("first_quiet", 1.5), self.sc.get("first_timeout", 30))
        if self.sc.get("first_extra"):
            time.sleep(self.sc["first_extra"])
            settled = self.quiet_app(since_wall, 2.0, 60) and settled
        return settled

    def stop(self, proc):
        """Kills a process group of this run now, and forgets it (so that close() does not signal a
        process group id the system may have given to someone else since)."""
        self.scope.kill(proc, grace=0.5)
        self.scope.procs = [(n, p) for (n, p) in self.scope.procs if p is not proc]

    def run_app_steps(self):
        if self.sc.get("phases"):
            return page_keys.run_phases(self)
        specs = self.sc["steps"]
        for i, spec in enumerate(specs):
            if not spec.get("narrator"):
                self.app_step_run(spec, "both", i)
        paired = [(i, spec) for i, spec in enumerate(specs) if spec.get("narrator")]
        self.restored = None
        if paired:
            before = self.narrator_focus_id()
            self.step("phase: Orca's keys", narrator_focus=before)
            for i, spec in paired:
                self.app_step_run(spec, "orca", i)
            after = self.narrator_focus_id()
            if before and after != before:
                # Narrator's focus followed Orca's moves: back to where both started
                self.app_step_run({"step": "Narrator's focus put back", "key": None,
                                   "narrator": ["focus", before[0], before[1]]}, "setup", None)
            self.restored = {"before": before, "after_orca": after, "now": self.narrator_focus_id()}
            self.step("phase: Narrator's commands", **self.restored)
            for i, spec in paired:
                self.app_step_run(spec, "narrator", i)
        time.sleep(0.5)

    def collect_app(self):
        events = self.orca_events()
        rows = self.narrator_rows()
        self.skew, self.skew_samples, self.skew_min, self.skew_max = self.clock_skew_app(rows, events)
        skew = self.skew if self.opts.correct_clock else 0.0
        focus_rows = [dict(r, queued=r["queued"] - skew) for r in rows if not self.is_orca(r) and r.get("queued")]
        tmp = self.scope.dir

        def norm(text):  # Mousepad's title holds the file's path in the run's temporary directory
            return text.replace(tmp, "/tmp/…")

        windows = []
        for i, s in enumerate(self.steps):
            t_end = self.steps[i + 1]["t"] if i + 1 < len(self.steps) else float("inf")
            w_end = self.steps[i + 1]["wall"] if i + 1 < len(self.steps) else float("inf")
            names = echo_names(s.get("key")) if s["who"] in ("both", "orca", "orca-setup") and s.get("key") else MODIFIER_ECHO
            counted, echo = [], []
            for (t, kind, raw, x, o) in events:
                if not s["t"] <= t < t_end or not x:
                    continue
                item = {"text": norm(x), "outcome": o, "at": round(t - s["t"], 3)}
                if kind == "CHAR":
                    item["char"] = True
                low = x.strip().lower()
                is_key_echo = kind == "SPEAK" and (low in names or low in KEY_ECHO)
                if is_key_echo and (low in MODIFIER_ECHO or not s.get("types")):
                    echo.append(item)
                else:
                    if is_key_echo:
                        item["echo"] = True
                    counted.append(item)
            nrows = [r for r in focus_rows if s["wall"] - 0.05 <= (r.get("queued") or 0) < w_end - 0.05]
            nsaid = [{"text": norm(r.get("text") or ""), "kind": r.get("kind"), "outcome": r.get("outcome"),
                      "element": r.get("element"), "client": (r.get("client") or {}).get("name"),
                      "at": round(r["queued"] - s["wall"], 3)} for r in nrows]
            windows.append({"orca": counted, "echo": echo, "narrator": nsaid})
        self.setup_steps = [{"step": s["step"], "command": s.get("narrator"), "printed": s.get("printed"),
                             "orca": [x["text"] for x in windows[i]["orca"]],
                             "narrator": [x["text"] for x in windows[i]["narrator"]]}
                            for i, s in enumerate(self.steps) if s["who"].endswith("setup")]

        def side(i, reader):
            w = windows[i]
            texts = w["orca"] if reader == "orca" else w["narrator"]
            return texts, " ".join(x["text"] for x in texts)

        results = []
        specs = self.sc["steps"]
        for n, spec in enumerate(specs):
            mine = {s["who"]: i for i, s in enumerate(self.steps) if s.get("index") == n}
            oi = mine.get("both", mine.get("orca"))
            ni = mine.get("both", mine.get("narrator"))
            if oi is None and ni is None:
                continue
            otexts, otext = side(oi, "orca") if oi is not None else ([], "")
            ntexts, ntext = side(ni, "narrator") if ni is not None else ([], "")
            ofacts, oextra = carried(otext, spec["facts"])
            nfacts, nextra = carried(ntext, spec["facts"])
            key = spec["key"] or "(windowfocus)"
            if spec.get("narrator") and spec["narrator"] != "key":
                key = "%s (Orca) / `narratorctl %s` (Narrator)" % (spec["key"], " ".join(spec["narrator"]))
            r = {
                "kind": "step", "scenario": self.scenario, "n": n, "step": spec["step"], "key": key,
                "focus": spec["focus"], "facts": spec["facts"], "optional": spec.get("optional", []),
                "echo_counted": bool(spec.get("types")),
                "settled": all(self.steps[i]["settled"] for i in mine.values()),
                "narrator_focus_after": self.steps[ni]["narrator_focus"] if ni is not None else None,
                "orca": {"texts": otexts, "key_echo": windows[oi]["echo"] if oi is not None else [],
                         "words": len(words(otext)), "facts": ofacts, "other_words": oextra},
                "narrator": {"texts": ntexts, "words": len(words(ntext)), "facts": nfacts, "other_words": nextra},
            }
            if spec.get("narrator") and spec["narrator"] != "key":
                r["narrator"]["printed"] = self.steps[ni].get("printed") if ni is not None else None
                r["meanwhile"] = {
                    "narrator_during_orca_key": [x["text"] for x in windows[oi]["narrator"]] if oi is not None else [],
                    "orca_during_narrator_command": [x["text"] for x in windows[ni]["orca"] + windows[ni]["echo"]]
                    if ni is not None else []}
            results.append(r)
        return results


# ---------------------------------------------------------------- markdown


class QuietCompare(Compare):
    """A Compare for the measuring helpers (focus_latency.py, key_passthrough.py): progress goes to
    stderr, since stdout carries only the result, and a process can be stopped mid-run."""

    def step(self, what, **extra):
        """Progress to stderr: stdout carries only the result."""
        d = {"progress": what, "t": self.t()}
        d.update(extra)
        sys.stderr.write(json.dumps(d, sort_keys=True) + "\n")
        sys.stderr.flush()


def ms(seconds):
    return None if seconds is None else round(seconds * 1000, 1)


def missed(results, reader):
    """{step: [facts missed]}, the optional facts left out."""
    out = {}
    for r in results:
        gone = [k for k, v in r[reader]["facts"].items() if not v and k not in r.get("optional", [])]
        if gone:
            out[r["n"]] = gone
    return out


def cell(text):
    return (text or "—").replace("|", "\\|").replace("\n", " ")


def facts_cell(facts, got, optional=()):
    out = []
    for k in FACT_ORDER:
        if k in got:
            if got[k]:
                out.append("%s ✓" % k)
            elif k in optional:
                out.append("(%s ✗)" % k)  # may be left out on a change; not counted as missed
            else:
                out.append("**%s ✗**" % k)
    return ", ".join(out) or "—"


def compact_facts(r, reader):
    """The facts carried, then the ones missed in bold; optional ones left out are not listed."""
    got = r[reader]["facts"]
    yes = [k for k in FACT_ORDER if got.get(k)]
    no = [k for k in FACT_ORDER if k in got and not got[k] and k not in r.get("optional", [])]
    return ", ".join(yes + ["**no %s**" % k for k in no]) or "—"


def compact_texts(texts):
    parts = []
    for x in texts:
        t = x["text"].rstrip(".")
        if x.get("char"):
            t = "CHAR " + t
        if x.get("outcome") not in (None, "spoken"):
            t += " _(%s)_" % x["outcome"]
        parts.append(t)
    return " · ".join(parts)


def compact_markdown(results):
    """The table for the docs: one row per key, what each reader said (key echo apart), the
    words each sent, the facts each carried."""
    lines = ["| # | key | focus afterwards | Orca 43 said | Narrator said | words O / N | facts: Orca | facts: Narrator |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append("| %d | %s | %s | %s | %s | %d / %d | %s | %s |" % (
            r["n"], cell(r["key"]), cell(r["focus"]), cell(compact_texts(r["orca"]["texts"])),
            cell(compact_texts(r["narrator"]["texts"])), r["orca"]["words"], r["narrator"]["words"],
            compact_facts(r, "orca"), compact_facts(r, "narrator")))
    return "\n".join(lines) + "\n"


def texts_cell(texts, outcome_key="outcome"):
    parts = []
    for x in texts:
        t = '"%s"' % x["text"]
        if x.get("char"):
            t = "CHAR " + t
        if x.get("echo"):
            t += " [echo]"
        if x.get(outcome_key) not in (None, "spoken"):
            t += " (%s)" % x[outcome_key]
        parts.append(t)
    return " · ".join(parts)


def markdown(results):
    lines = ["Compact:", "", compact_markdown(results), "Detailed:", "",
             "| # | key | focus | Orca's words | Orca's echo | Narrator's words | words O/N | facts: Orca | facts: Narrator |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append("| %d | %s | %s | %s | %s | %s | %d / %d | %s | %s |" % (
            r["n"], cell(r["key"]), cell(r["focus"]), cell(texts_cell(r["orca"]["texts"])),
            cell(texts_cell(r["orca"]["key_echo"])), cell(texts_cell(r["narrator"]["texts"])),
            r["orca"]["words"], r["narrator"]["words"],
            facts_cell(r["facts"], r["orca"]["facts"], r.get("optional", ())),
            facts_cell(r["facts"], r["narrator"]["facts"], r.get("optional", ()))))
    lines.append("")
    lines.append("Other words (beyond the facts checked): ")
    lines.append("")
    lines.append("| # | Orca | Narrator | Narrator's focused stop afterwards (`narratorctl show`) | first words after the key, s: Orca / Narrator |")
    lines.append("|---|---|---|---|---|")
    for r in results:
        f = r.get("narrator_focus_after") or {}
        o = r["orca"]["texts"][0]["at"] if r["orca"]["texts"] else None
        n = r["narrator"]["texts"][0]["at"] if r["narrator"]["texts"] else None
        lines.append("| %d | %s | %s | %s | %s / %s |" % (
            r["n"], cell(" ".join(r["orca"]["other_words"])), cell(" ".join(r["narrator"]["other_words"])),
            cell(('"%s" (element %s)' % (f.get("utterance"), f.get("element"))) if f.get("element") else None),
            "—" if o is None else "%.2f" % o, "—" if n is None else "%.2f" % n))
    return "\n".join(lines) + "\n"


WORD_RULE = (
    "Words: Orca's are the texts it sent after the key (SPEAK, and CHAR, with which it speaks a single "
    "character), its key echo left out, except in the steps that type or delete text (marked ✎: typed "
    "characters, space, Tab inserting a tab, Return, BackSpace), where the echo (\"H\", \"space\", \"tab\", "
    "\"return\", \"backspace\") is what Orca says about the key and so counts as its words and as the fact "
    "typed; a modifier's echo (\"left shift\", \"left control\", always cut off by what follows) never "
    "counts. Narrator's are the texts of narratord's log rows queued after the key (or the narratorctl "
    "command) whose client is not Orca: the bridge's speech. Each reader's texts are counted whether "
    "they were spoken or cancelled (Orca and Narrator share one narratord and cut each other off).")


def summary_line(results):
    def gone(reader):
        m = missed(results, reader)
        n = sum(len(v) for v in m.values())
        return "%d%s" % (n, (" (" + "; ".join("#%d %s" % (k, ", ".join(v)) for k, v in m.items()) + ")") if m else "")
    return "Summary: facts missed by Orca: %s; by Narrator: %s; words O / N in all: %d / %d." % (
        gone("orca"), gone("narrator"), sum(r["orca"]["words"] for r in results),
        sum(r["narrator"]["words"] for r in results))


def markdown_app(results, scenario, restored=None, setup_steps=()):
    shown = [dict(r, key=r["key"] + (" ✎" if r.get("echo_counted") else "")) for r in results]
    lines = ["Scenario `%s`." % scenario, "", WORD_RULE, "", markdown(shown).rstrip("\n"), ""]
    paired = [r for r in results if "meanwhile" in r]
    if paired:
        lines += ["Heading phase: Orca's `h` presses ran first, then Narrator's rotor commands from the same "
                  "start (Narrator's focus before Orca's keys: %s; after them: %s; before the rotor: %s). "
                  "What the other reader said meanwhile:" % tuple(
                      cell(" ".join(x or ()) if x else None) for x in
                      ((restored or {}).get("before"), (restored or {}).get("after_orca"), (restored or {}).get("now"))),
                  "", "| # | Narrator while Orca's `h` | Orca while `narratorctl rotor` | narratorctl printed |",
                  "|---|---|---|---|"]
        for r in paired:
            lines.append("| %d | %s | %s | %s |" % (
                r["n"], cell(" · ".join(r["meanwhile"]["narrator_during_orca_key"])),
                cell(" · ".join(r["meanwhile"]["orca_during_narrator_command"])),
                cell(r["narrator"].get("printed"))))
        lines.append("")
    for s in setup_steps:
        lines += ["Setup `narratorctl %s`: printed %s; Narrator said %s; Orca said %s." % (
            " ".join(s["command"] or ()), cell(s["printed"]), cell(" · ".join(s["narrator"])),
            cell(" · ".join(s["orca"]))), ""]
    lines.append(summary_line(results))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- cleanup


def other_orcas(mine=()):
    """The pids of processes named orca of this user (what `orca --replace` would kill), but `mine`."""
    r = subprocess.run(["pgrep", "-u", str(os.getuid()), "-x", "orca"], capture_output=True, text=True)
    return [int(x) for x in r.stdout.split() if int(x) not in mine and int(x) != os.getpid()]


def sweep(scope_dir):
    """Kills whatever still carries this run's environment (its XDG_RUNTIME_DIR is in the
    temporary directory): services a process of ours started outside its process group."""
    killed = []
    marker = ("XDG_RUNTIME_DIR=%s/runtime" % scope_dir).encode()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if marker in env:
            try:
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
            except OSError:
                pass
    return killed


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.environ.get("NARRATOR_BIN") or os.path.join(REPO, ".build", "debug"),
                   help="directory with narratord, narratorctl and narrator-atspi")
    p.add_argument("--markdown", help="write the markdown table here (default: stderr)")
    p.add_argument("--jsonl", help="also write the JSON lines here")
    p.add_argument("--log-dir", help="copy the run's logs here (Orca's SSIP traffic, stderr of each process)")
    p.add_argument("--settle", type=float, default=1.0, help="seconds to wait after each key before checking for quiet")
    p.add_argument("--scenario", choices=sorted(SCENARIOS), default="fixture",
                   help="fixture (the GTK fixture, the default), mousepad (caret keys and typing in Mousepad) or "
                        "firefox (Firefox ESR on Tests/Helpers/firefox/page.html: Tab, the check box, headings) or "
                        "page-keys (browse mode's structural and table keys on Tests/Helpers/firefox/structure.html, "
                        "Orca's phase then Narrator's: page_keys.py)")
    p.add_argument("--timeout", type=float, default=None,
                   help="the whole run; then everything is killed (default: fixture 240, mousepad 300, firefox and page-keys 420)")
    p.add_argument("--orca-debug", action="store_true", help="Orca's --debug-file, into --log-dir")
    p.add_argument("--orca-wait", type=float, default=120,
                   help="seconds to wait for other Orcas of this user on the machine to end before starting ours "
                        "(Orca will not run beside them, and this run does not replace them)")
    p.add_argument("--no-clock-correction", dest="correct_clock", action="store_false",
                   help="take narratord's log times as they are (by default they are shifted by how far they run "
                        "ahead of the tap's clock, measured on Orca's own messages)")
    a = p.parse_args()
    a.bin = os.path.abspath(a.bin)
    if a.timeout is None:
        a.timeout = SCENARIOS[a.scenario]["timeout"]
    app = SCENARIOS[a.scenario].get("app")
    missing = [n for n, path in TOOLS.items() if n != "zenity" and not os.access(path, os.X_OK)]
    missing += [x for x in {"mousepad": ["/usr/bin/mousepad"], "firefox": ["/usr/bin/firefox-esr"]}.get(app, [])
                if not os.access(x, os.X_OK)]
    missing += [os.path.join(a.bin, n) for n in ("narratord", "narratorctl", "narrator-atspi")
                if not os.access(os.path.join(a.bin, n), os.X_OK)]
    if missing:
        emit({"kind": "skip", "reason": "missing: " + ", ".join(missing)})
        return 2
    out = open(a.jsonl, "w") if a.jsonl else None

    def put(obj):
        emit(obj)
        if out:
            out.write(json.dumps(obj, sort_keys=True, ensure_ascii=False) + "\n")
            out.flush()

    c = Compare(a)
    install_signal_cleanup(c.scope)
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the run exceeded --timeout")))
    signal.alarm(int(a.timeout))
    started = time.monotonic()
    error, results, timings, summary = None, [], {}, {"kind": "summary", "ok": False}
    try:
        c.start_desktop()
        timings["desktop"] = c.t()
        c.start_narrator()
        if not c.sc.get("phases"):
            c.start_bridge()
        timings["narrator"] = c.t()
        c.start_sound_and_server()  # the tap in front of narratord's SSIP socket
        timings["before orca"] = c.t()
        c.start_orca()
        timings["orca ready"] = c.t()
        if app:
            c.settle()  # Orca's greeting over before the app appears (its window step counts from its start)
            c.start_app()
            timings[app] = c.t()
            c.run_app_steps()
        else:
            c.start_fixture()
            timings["fixture"] = c.t()
            c.settle()
            c.run_steps()
        timings["steps"] = c.t()
    except BaseException as e:  # report, then clean up, whatever happened
        error = "%s: %s" % (type(e).__name__, e)
    finally:
        signal.alarm(0)
        try:
            if c.steps and getattr(c, "tap", None):
                results = c.collect_app() if app else c.collect()  # the steps that ran, also after an error
            for r in results:
                put(r)
            startup = [x for (t, x, o) in c.orca_messages() if not c.steps or t < c.steps[0]["t"]] \
                if getattr(c, "tap", None) else []
            summary = {"kind": "summary", "ok": error is None and len(results) == len(c.sc["steps"])
                       and all(r["settled"] for r in results),
                       "error": error, "seconds": round(time.monotonic() - started, 1), "timings": timings,
                       "waited_for_other_orcas_s": round(getattr(c, "orca_waited", 0.0), 1),
                       "narratord_clock_ahead_ms": ms(getattr(c, "skew", None)),
                       "narratord_clock_ahead_range_ms": [ms(getattr(c, "skew_min", None)),
                                                          ms(getattr(c, "skew_max", None))],
                       "clock_samples": getattr(c, "skew_samples", 0),
                       "orca_startup_texts": startup,
                       "unsettled_steps": [r["n"] for r in results if not r["settled"]],
                       "orca_words": sum(r["orca"]["words"] for r in results),
                       "narrator_words": sum(r["narrator"]["words"] for r in results),
                       "orca_missed": missed(results, "orca"),
                       "narrator_missed": missed(results, "narrator")}
            if summary["narratord_clock_ahead_ms"] is not None and abs(summary["narratord_clock_ahead_ms"]) > 50:
                summary["clock_warning"] = "narratord's log times are %.0f ms off the wall clock" % \
                    summary["narratord_clock_ahead_ms"]
            if app:
                summary["scenario"] = a.scenario
                summary["app_tree_mirrored"] = getattr(c, "tree_ready", None)
                summary["heading_phase"] = getattr(c, "restored", None)
                summary["setup_steps"] = getattr(c, "setup_steps", [])
            if error:
                summary["logs"] = {n: tail(c.scope.path(n + ".err"), 800)
                                   for n in ("narratord", "bridge", "orca", app or "fixture")}
            if results:
                md = markdown_app(results, a.scenario, getattr(c, "restored", None),
                                  getattr(c, "setup_steps", [])) if app else markdown(results)
                if a.markdown:
                    with open(a.markdown, "w") as f:
                        f.write(md)
                else:
                    sys.stderr.write(md)
            if a.log_dir:
                c.save_logs(a.log_dir, ["orca.tap.log", "orca.err", "orca-debug.out", "narratord.err", "bridge.err",
                                        "%s.out" % (app or "fixture"), "%s.err" % (app or "fixture"),
                                        "xvfb.err", "dbus-daemon.err"])
        finally:
            summary["swept"] = c.end()
            put(summary)
            if out:
                out.close()
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
