"""orca_compare.py's page-keys scenario: browse mode's structural and table keys on a page in
Firefox ESR (Tests/Helpers/firefox/structure.html), pressed for Orca 43, then for Narrator.

Both readers take these keys for themselves, so they cannot listen at once: whichever grabbed a
key first would keep it from the other. The run has two phases on one desktop, one narratord and
one Firefox:

  1. Orca's: narratord (Orca speaks through it) and Orca, no narrator-atspi. Once Orca has read the
     loaded page, Control+Home puts its caret at the top (a setup key, not compared), then each
     key of STEPS is pressed and Orca's words taken.
  2. Narrator's: Orca is stopped, the page loaded again (Control+Shift+R: Orca's last key left
     Firefox's focus in a field), narrator-atspi started; once it has mirrored the page,
     Control+Home again (Narrator's first item: the same place), then the same keys, and
     Narrator's words taken.

Row n pairs Orca's n-th key with Narrator's, both from the page's top. The facts are what the key
reached: a heading's name, role and level, a link's or control's name and role (and a combo
box's value, a check box's or radio button's state), a table's name and size, a cell's text, the
header of the row or column entered and the cell's place (Orca says "Row 2, column 2"), and the
wrap past the end.
"""

import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.path.join(HERE, "..", "firefox", "structure.html")
TITLE = "Harbour club"
# Seconds from Orca's first words about the window to the first key: the page loaded, and Orca's
# page summary said.
PAGE_LOAD = 8.0

# What a reader may call the roles these steps reach (Orca's words first).
ROLE_WORDS = {
    "combo box": ["combo box"],
    "radio button": ["radio button"],
    "table": ["table"],
    "image": ["image", "graphic"],
    "list item": ["list item"],
    "list": ["list"],
}


def step(key, focus, facts, **kw):
    d = {"step": key, "key": key, "focus": focus, "facts": facts, "narrator": "key"}
    d.update(kw)
    return d


STEPS = [
    step("h", "News (h2)", {"name": "News", "role": "heading", "level": "2"}),
    step("h", "Winter work (h3)", {"name": "Winter work", "role": "heading", "level": "3"}),
    step("h", "Races (h2)", {"name": "Races", "role": "heading", "level": "2"}),
    step("shift+h", "Winter work (h3)", {"name": "Winter work", "role": "heading", "level": "3"}),
    step("1", "Harbour club (h1), wrapped to the top", {"wrap": "top", "name": "Harbour club", "role": "heading", "level": "1"}),
    step("k", "the News link", {"name": "News", "role": "link"}),
    step("k", "the Races link", {"name": "Races", "role": "link"}),
    step("shift+k", "the News link", {"name": "News", "role": "link"}),
    step("shift+k", "the Join link, wrapped to the bottom", {"wrap": "bottom", "name": "Join", "role": "link"}),
    step("t", "the table, at its first cell", {"name": "Race schedule", "role": "table", "size": "4 rows 3 columns"}),
    step("alt+shift+Down", "the row header Dinghies", {"text": "Dinghies", "place": "2 1"}),
    step("alt+shift+Right", "the cell 9:00, column Start", {"header": "Start", "text": "9:00", "place": "2 2"}),
    step("alt+shift+Down", "the cell 10:30, row Keelboats", {"header": "Keelboats", "text": "10:30", "place": "3 2"}),
    step("g", "the Club burgee image, wrapped to the top", {"wrap": "top", "name": "Club burgee", "role": "image"}),
    step("x", "the Racing member check box", {"name": "Racing member", "role": "check box", "state": "not checked"}),
    step("r", "the Helm radio button", {"name": "Helm", "role": "radio button", "state": "not selected"}),
    step("b", "the Send button", {"name": "Send", "role": "button"}),
    step("c", "the Class combo box, wrapped to the top", {"wrap": "top", "name": "Class", "role": "combo box", "value": "Keelboat"}),
    step("shift+t", "the table, at its first cell", {"name": "Race schedule", "role": "table", "size": "4 rows 3 columns"}),
    step("i", "the News list item, wrapped to the top", {"wrap": "top", "name": "News"}),
    step("shift+2", "the Join heading, wrapped to the bottom", {"wrap": "bottom", "name": "Join", "role": "heading", "level": "2"}),
    step("l", "the site's list of links, wrapped to the top", {"wrap": "top", "role": "list", "size": "3 items", "name": "News"}),
    step("m", "the main content landmark", {"landmark": "main content", "name": "News", "role": "heading"}),
    step("u", "the News link, wrapped to the top (the page's links are all in its banner)", {"wrap": "top", "name": "News", "role": "link"}),
    # Last: Orca 43's structural keys put it in focus mode on reaching an entry, where its next
    # letter is typed into the field and nothing is said; Escape does not bring it back. (Narrator
    # stays in browse mode on a field its own cursor reached.) F is not compared: Orca 43 said
    # nothing at it from a table's cell, a combo box or the image, in every run.
    step("e", "the Name entry", {"name": "Name", "role": "entry"}),
]


def fact_patterns(kind, expected):
    """The page-keys facts orca_compare.fact_patterns does not know; None for the others."""
    if kind == "size" and expected.endswith(" items"):  # a list's: "List with 3 items"
        return [r"\bwith %s\b" % expected]
    if kind == "landmark":
        return [r"\b%s\b" % expected]
    if kind == "size":  # "4 rows 3 columns", "with 4 rows and 3 columns"
        rows, columns = expected.split(" rows ")
        return [r"\b%s rows,? (and |by )?%s\b" % (rows, columns)]
    if kind == "wrap":  # Orca: "Wrapping to top."; Narrator: "wrapped to top"
        return [r"\bwrap\w* to (the )?%s\b" % expected]
    if kind == "header":
        return [r"\b%s\b" % expected]
    if kind == "place":  # a cell's coordinates: "row 2, column 1"
        row, column = expected.split()
        return [r"\brow %s,? column %s\b" % (row, column)]
    if kind == "state" and expected == "not selected":  # a radio button: Orca's words, or a check box's
        return [r"\bnot selected\b", r"\bnot checked\b", r"\bunchecked\b"]
    return None


def run_phases(c):
    """The two phases (see the module's docstring) on a Compare `c` whose narratord, tap, Orca and
    Firefox run and whose bridge does not."""
    # Orca reads the loaded page on (Say All) for a minute: the first key cuts that short, once the
    # page is loaded and Orca has begun.
    c.step("page heard", heard=c.orca_heard_app())
    time.sleep(PAGE_LOAD)
    c.step("phase: Orca's keys")
    c.app_step_run({"step": "Control+Home (Orca's caret to the top)", "key": "ctrl+Home", "facts": {}}, "orca-setup", None)
    for i, spec in enumerate(STEPS):
        c.app_step_run(spec, "orca", i)
    c.stop(c.orca)
    c.settle()
    # The page as it was: Orca's last key left Firefox's focus in a field (where Narrator's keys are
    # the field's, focus mode), and a reload that bypasses the cache forgets what was typed.
    c.app_step_run({"step": "Control+Shift+R (the page loaded again)", "key": "ctrl+shift+r", "facts": {}}, "narrator-setup", None)
    time.sleep(PAGE_LOAD / 2)
    c.step("phase: Narrator's keys")
    c.start_bridge()
    c.wait_for_tree()
    c.app_step_run({"step": "Control+Home (Narrator's first item)", "key": "ctrl+Home", "facts": {}}, "narrator-setup", None)
    for i, spec in enumerate(STEPS):
        c.app_step_run(spec, "narrator", i)
    # narratord writes its log a little after it speaks: the last key's rows come after a wait.
    time.sleep(2.0)
    c.quiet_app(time.time() - 2.0)
