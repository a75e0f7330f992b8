#!/usr/bin/env python3
"""The layers the compiler cannot see: each module's imports against the set it may make, force
unwraps in the modules narratord, narrator-atspi and narrator-flite run, each module's size, the
session's stored properties (a composition, not a god type), and no SSIP type in the speech plan.

Run by `make test` (and alone: `python3 Tests/Helpers/check_layers.py`). Prints each problem as
FILE:LINE: what, and exits 1 if there is any. docs/architecture.md draws the same table.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = os.path.join(ROOT, "Sources")

# What the system gives every module: the standard library's own modules.
SYSTEM = {"Glibc", "Dispatch", "Synchronization", "Foundation"}

# Each module, and the project modules (and C shims) it may import. An import may only go down.
PLAN = {"NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan"}
ALLOWED = {
    # The pure layers, bottom up: each may import only those below it.
    "NarratorBase": set(),
    "NarratorModel": {"NarratorBase"},
    "NarratorEngines": {"NarratorBase", "NarratorModel"},
    "NarratorSpeechPlan": {"NarratorBase", "NarratorModel", "NarratorEngines"},
    "NarratorSSIP": PLAN,
    "NarratorProtocol": PLAN,
    "NarratorExperiments": PLAN | {"NarratorSSIP"},
    "NarratorKeyboard": {"NarratorBase"},
    "NarratorDBus": set(),
    "NarratorBridge": PLAN | {"NarratorProtocol", "NarratorKeyboard", "NarratorDBus"},
    "NarratorCore": PLAN | {"NarratorSSIP", "NarratorProtocol"},
    # The shells: the system calls know no domain type; each shell imports the pure layers it carries out.
    "NarratorSystem": {"NarratorBase", "CNarratorSystem"},
    "NarratorCommandLine": {"NarratorBase"},
    "NarratorStore": {"NarratorBase", "NarratorModel", "NarratorSpeechPlan", "NarratorSystem", "CSQLite"},
    "NarratorSpeech": PLAN | {"NarratorSystem", "CEspeak", "CPCAudio", "CALSA"},
    "NarratorDaemon": PLAN | {"NarratorSSIP", "NarratorProtocol", "NarratorCore", "NarratorSystem", "NarratorCommandLine", "NarratorSpeech", "NarratorStore"},
    "NarratorCLI": PLAN | {"NarratorProtocol", "NarratorExperiments", "NarratorSystem", "NarratorCommandLine", "NarratorSpeech", "NarratorStore", "NarratorKeyboard"},
    "NarratorATSPI": {"NarratorBase", "NarratorModel", "NarratorProtocol", "NarratorBridge", "NarratorDBus", "NarratorKeyboard", "NarratorSystem", "NarratorCommandLine", "CAtspi", "CX11"},
    "NarratorPulseHarness": {"NarratorBase", "NarratorSystem"},
    "NarratorDesktopHarness": {"NarratorBase", "NarratorModel", "NarratorBridge", "NarratorDBus", "NarratorSystem", "NarratorATSPI"},
    "NarratorTestSupport": set(),
    # The programs.
    "narratord": {"NarratorBase", "NarratorDaemon", "NarratorSystem"},
    "narratorctl": {"NarratorCLI"},
    "narrator-atspi": {"NarratorBase", "NarratorATSPI", "NarratorSystem"},
    # The Flite engine process links the engine protocol and nothing of the session, SSIP, announcements or bridge.
    "narrator-flite": {"NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSystem", "CFlite"},
    "narrator-bench": PLAN | {
        "NarratorSSIP", "NarratorExperiments", "NarratorBridge", "NarratorDBus", "NarratorCore", "NarratorSpeech", "NarratorSystem", "NarratorPulseHarness", "NarratorStore",
        "NarratorATSPI", "NarratorDesktopHarness", "NarratorCLI", "CAtspi",
    },
}

# The modules the daemon, the bridge and the Flite engine run: a trap there silences the user.
RUN = {
    "NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSSIP", "NarratorProtocol", "NarratorBridge", "NarratorCore", "NarratorSystem", "NarratorCommandLine", "NarratorStore", "NarratorSpeech", "NarratorDaemon",
    "NarratorATSPI", "NarratorKeyboard", "NarratorDBus", "narratord", "narrator-atspi", "narrator-flite",
}

# The most lines of Swift one module may hold.
MAX_LINES = 6000

# The session routes between machines; it does not grow back into a god type.
SESSION = os.path.join(SOURCES, "NarratorCore", "Session", "Session.swift")
MAX_SESSION_PROPERTIES = 12
# The speech plan knows no protocol: no SSIP type may appear in its module.
PROTOCOL_FREE = {"NarratorSpeechPlan": re.compile(r"\bSSIP[A-Z]\w*")}

IMPORT = re.compile(r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][\w]*)")
FORCE = re.compile(r"(?:[\w)\]]!(?![=]))|\btry!|\bas!")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def code_of(line):
    """The line without its string literals' contents and its comment."""
    line = STRING.sub('""', line)
    at = line.find("//")
    return line if at < 0 else line[:at]


def session_properties():
    """The stored properties of `struct Session` (its own body, not its extensions): each line at
    the body's first indentation declaring a `let` or `var` with no accessor block."""
    properties, inside = [], False
    with open(SESSION, encoding="utf-8") as file:
        for line in file:
            if re.match(r"^public struct Session\b", line):
                inside = True
                continue
            if inside and line.startswith("}"):
                break
            declared = re.match(r"^    (?:(?:public|package|private|fileprivate|internal)(?:\(set\))? )*(?:let|var) (\w+)", line)
            if inside and declared and "{" not in code_of(line):
                properties.append(declared.group(1))
    return properties


def swift_files(module):
    for directory, _, names in os.walk(os.path.join(SOURCES, module)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def main():
    problems = []
    modules = sorted(m for m in os.listdir(SOURCES) if any(True for _ in swift_files(m)))
    sizes = {}
    for module in modules:
        if module not in ALLOWED:
            problems.append(f"Sources/{module}: a module the layer table does not know; add it to ALLOWED in {os.path.relpath(__file__, ROOT)} and to docs/architecture.md")
            continue
        allowed = ALLOWED[module] | SYSTEM
        lines_in_module = 0
        for path in swift_files(module):
            relative = os.path.relpath(path, ROOT)
            in_block_comment = False
            with open(path, encoding="utf-8") as file:
                for number, line in enumerate(file, 1):
                    lines_in_module += 1
                    if in_block_comment:
                        if "*/" in line:
                            in_block_comment = False
                        continue
                    if line.lstrip().startswith("/*"):
                        in_block_comment = "*/" not in line
                        continue
                    imported = IMPORT.match(line)
                    if imported and imported.group(1) not in allowed:
                        problems.append(f"{relative}:{number}: {module} may not import {imported.group(1)} (it may import {', '.join(sorted(ALLOWED[module])) or 'no project module'})")
                    pattern = PROTOCOL_FREE.get(module)
                    if pattern and pattern.search(code_of(line)):
                        problems.append(f"{relative}:{number}: {module} names an SSIP type ({pattern.search(code_of(line)).group(0)}); the speech plan knows no protocol")
                    if module in RUN:
                        code = code_of(line)
                        if FORCE.search(code):
                            problems.append(f"{relative}:{number}: a force unwrap in {module}, which narratord, narrator-atspi or narrator-flite runs: {line.strip()}")
        sizes[module] = lines_in_module
        if lines_in_module > MAX_LINES:
            problems.append(f"Sources/{module}: {lines_in_module} lines, over the {MAX_LINES} a module may hold")
    properties = session_properties()
    if len(properties) > MAX_SESSION_PROPERTIES:
        problems.append(
            f"{os.path.relpath(SESSION, ROOT)}: Session holds {len(properties)} stored properties ({', '.join(properties)}), over {MAX_SESSION_PROPERTIES}: compose a machine")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_layers: {len(problems)} problem(s)")
        return 1
    largest = max(sizes, key=sizes.get)
    print(
        f"check_layers: {len(sizes)} modules, imports within their layers, no force unwrap where the programs run; the largest, {largest}, holds "
        f"{sizes[largest]} of {MAX_LINES} lines; Session holds {len(properties)} of {MAX_SESSION_PROPERTIES} stored properties; no SSIP type in the speech plan")
    return 0


if __name__ == "__main__":
    sys.exit(main())
