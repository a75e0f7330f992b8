import NarratorKeyboard
import NarratorModel
import NarratorProtocol

/// The user's keys: each key event is judged by the ``KeyInterpreter`` (taken or passed on), and
/// what it asks for becomes requests to narratord: speech stopped, a move or a rotor turned on
/// the page, a sentence said. A move's reply carries the application's focus or caret along.
extension ATSPIBridge {
    mutating func keyEvent(_ event: KeyEvent, time: LocalTime) {
        lastKeyAt = now
        // (An autoclosure: only a key whose meaning depends on the focus asks the mirror. It reads
        // its own copies, the interpreter being changed meanwhile.)
        let (focus, cursor, mirror) = (narratorFocus, browsedTo, mirror)
        let verdict = keys.handle(event, context: Self.keyContext(focus: focus, cursor: cursor, mirror: mirror))
        if verdict.take {
            effects.append(.takeKey)
            if verdict.actions.contains(where: { if case .run(let command, _) = $0 { command.browseOnly } else { false } }) {
                // The application's focus and caret follow the cursor; their moves say nothing.
                lastKey = (KeyPress.cursorMoved, now)
            }
        } else if event.kind == .press {
            // A key the application gets: what tells its caret's move by a character from one by a word.
            lastKey = (KeyPress(keysym: event.key.rawValue, modifiers: event.xModifiers), now)
        }
        for action in verdict.actions { perform(action, time: time) }
    }

    /// Where Narrator's focus is, as a key's meaning depends on it: in a page, in a field the
    /// application put the focus in.
    static func keyContext(focus: Focus?, cursor: Focus?, mirror: ATSPIMirror) -> KeyContext {
        guard let focus else { return KeyContext(page: false) }
        return KeyContext(page: mirror.isInPage(tree: focus.tree, element: focus.element),
                          field: focus != cursor && mirror.takesKeys(tree: focus.tree, element: focus.element))
    }

    /// The application moved its focus in browse mode: into a page's field, keys are the field's
    /// (focus mode), and out of it onto the page, Narrator's again. Each switch is said after
    /// what the focus says, as Orca says it.
    mutating func focusModeFollows(_ focus: Focus) {
        guard keys.browsing, mirror.isInPage(tree: focus.tree, element: focus.element) else { return }
        let field = mirror.takesKeys(tree: focus.tree, element: focus.element)
        guard field != inField else { return }
        inField = field
        send(.key(what: "say", command: .speak), .speak(text: field ? "Focus mode" : "Browse mode"))
    }

    mutating func keymapRead(_ path: String, _ read: KeymapRead) {
        switch read {
        case .absent:
            // (Read again after the file was removed: the defaults again.)
            keys.keymap = Keymap(layout: .desktop)
        case .unreadable(let reason):
            journal("cannot read the keymap \(path) (\(reason)); the keys stay as they were")
        case .text(let text):
            let (keymap, problems) = Keymap.reading(text)
            keys.keymap = keymap
            for problem in problems { journal("keymap \(path) \(problem); the line is left out") }
        }
    }

    private mutating func perform(_ action: KeyAction, time: LocalTime) {
        switch action {
        case .stopSpeech:
            send(.key(what: "stop speech", command: .stop), .stop)
        case .restoreCapsLock(let on):
            effects.append(.setCapsLock(on))
        case .learnModeStarted:
            say("Learn mode. Press any key to hear what it does; Escape leaves.")
        case .learnModeEnded:
            say("Leaving learn mode.")
        case .browseMode(let on):
            // Browse mode from a field: the cursor is on it now, and the arrows read on from it.
            if on { browsedTo = narratorFocus }
            inField = false
            say(on ? "Browse mode" : "Focus mode")
        case .describe(let chord, let command):
            say(chord.spoken + ": " + (command?.summary ?? "not one of Narrator's keys"))
        case .run(let command, let presses):
            run(command, presses: presses, time: time)
        }
    }

    private mutating func run(_ command: KeyCommand, presses: Int, time: LocalTime) {
        switch command {
        case .learnMode, .browseMode:
            // The interpreter answers these itself (learnModeStarted, browseMode).
            return
        case .time:
            say(presses >= 2 ? time.spokenDate : time.spokenTime)
        case .windowTitle:
            guard let focus = narratorFocus else { return say("No window has the focus.") }
            say(presses >= 2 ? statusBar(of: focus.tree) : mirror.title(of: focus.tree) ?? "No window has the focus.")
        case .whereAmI:
            guard let focus = narratorFocus else { return say("No window has the focus.") }
            send(.key(what: command.rawValue, command: .focus), .focus(tree: focus.tree, element: focus.element))
            // Twice, where it is: said after the focus (a low announcement waits for it; a `speak`
            // would cut it off).
            if presses >= 2, let more = whereabouts(of: focus) {
                send(.key(what: command.rawValue, command: .announce), .announce(text: more, priority: .low, tree: nil, element: nil, key: nil))
            }
        case .nextLine, .previousLine, .nextCharacter, .previousCharacter, .nextWord, .previousWord, .lineStart, .lineEnd: read(command)
        case .rateFaster, .rateSlower:
            send(.key(what: command.rawValue, command: .get), .get(key: "rate"))
        case .punctuation:
            send(.key(what: command.rawValue, command: .get), .get(key: "punctuation"))
        case .speech, .verbosity, .repeatLast, .currentWord:
            _ = runSpeechKey(command, presses: presses)
        case .firstItem: toDocumentEnd(.first, command)
        case .lastItem: toDocumentEnd(.last, command)
        case .next(let kind): turn(kind, .next, command)
        case .previous(let kind): turn(kind, .previous, command)
        case .cellLeft: send(.key(what: command.rawValue, command: .cell), .cell(.left))
        case .cellRight: send(.key(what: command.rawValue, command: .cell), .cell(.right))
        case .cellUp: send(.key(what: command.rawValue, command: .cell), .cell(.up))
        case .cellDown: send(.key(what: command.rawValue, command: .cell), .cell(.down))
        }
    }

    private mutating func move(_ move: Workspace.Move, _ command: KeyCommand) {
        send(.key(what: command.rawValue, command: CommandName(rawValue: move.rawValue) ?? .next), .move(move, tree: nil))
    }

    /// The page's first or last item; outside a page, the window's.
    private mutating func toDocumentEnd(_ end: Workspace.Move, _ command: KeyCommand) {
        guard let focus = narratorFocus, let element = mirror.documentEnd(end, tree: focus.tree, element: focus.element) else { return move(end, command) }
        send(.key(what: command.rawValue, command: .focus), .focus(tree: focus.tree, element: element))
    }

    /// The next or previous item of a kind in the page (never the browser's own buttons).
    private mutating func turn(_ kind: Structure, _ direction: Workspace.Move, _ command: KeyCommand) {
        let page = narratorFocus.flatMap { mirror.document(in: $0.tree, holding: $0.element) }
        send(.key(what: command.rawValue, command: .rotor), .rotor(name: kind.rotor, direction: direction, within: page))
    }

    /// How far one press moves the rate (eSpeak NG's words a minute, 80 to 450).
    static let rateStep = 25

    /// A setting a key asked about came back: the key's change is made; a change made is said.
    private mutating func settingReplied(_ what: String, key: String, value: String) {
        switch (what, key) {
        case (KeyCommand.rateFaster.rawValue, "rate"), (KeyCommand.rateSlower.rawValue, "rate"):
            guard let rate = Int(value) else { return }
            let step = what == KeyCommand.rateFaster.rawValue ? Self.rateStep : -Self.rateStep
            let next = min(450, max(80, rate + step))
            guard next != rate else { return say(step > 0 ? "Fastest." : "Slowest.") }
            send(.key(what: "rate set", command: .set), .set(key: "rate", value: .number(Double(next))))
        case (KeyCommand.punctuation.rawValue, "punctuation"):
            let levels = ["none", "some", "most", "all"]
            let next = levels[((levels.firstIndex(of: value) ?? -1) + 1) % levels.count]
            send(.key(what: "punctuation set", command: .set), .set(key: "punctuation", value: .string(next)))
        case ("rate set", "rate"):
            say("Rate \(value).")
        case ("punctuation set", "punctuation"):
            say("Punctuation \(value).")
        default:
            _ = speechSettingReplied(what, key: key, value: value)
        }
    }

    /// Says `text` at once, cutting off what was being said: a key's answer is wanted now.
    mutating func say(_ text: String) {
        send(.key(what: "stop speech", command: .stop), .stop)
        send(.key(what: "say", command: .speak), .speak(text: text))
    }

    /// narratord answered a key's request. A move carries the application's focus or caret along;
    /// a rotor with no such items says so, as Orca does.
    mutating func keyReplied(_ what: String, _ outcome: Result<ReplyBody, ReplyError>) {
        lineReplied(what)
        switch outcome {
        case .success(.focus(let report)):
            guard !report.boundary, what != KeyCommand.whereAmI.rawValue else { return }
            browsedTo = report.focus
            carryOut(mirror.browsed(tree: report.focus.tree, element: report.focus.element))
        case .success(.setting(let key, let value)):
            settingReplied(what, key: key, value: value)
        case .success:
            return
        case .failure(let error):
            switch error.code {
            case .unknownRotor:
                // The page has none of them, in Orca's words.
                let kind = KeyCommand(rawValue: what).flatMap { command -> Structure? in
                    if case .next(let kind) = command { return kind }
                    if case .previous(let kind) = command { return kind }
                    return nil
                }
                say("No more " + (kind?.plural ?? "items") + ".")
            case .notInTable:
                say("Not in a table.")
            case .noFocus, .emptyTree:
                say("Nothing to read here.")
            default:
                journal("\(what) was refused: \(error.message)")
            }
        }
    }
}
