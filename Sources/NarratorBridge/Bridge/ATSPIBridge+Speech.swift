import NarratorKeyboard
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan

/// The keys about speech itself and about what was said: speech on and off, verbosity, the last
/// utterance again, the current word (twice, spelled), and what where am I and the window title
/// say when pressed twice. Speech and verbosity are narratord's settings: the key asks for the
/// setting, sets the next value, and says it (speech off is said before it goes off, speech on
/// once it is back).
extension ATSPIBridge {
    /// Runs one of these keys' commands; false for a command that is not one of them.
    mutating func runSpeechKey(_ command: KeyCommand, presses: Int) -> Bool {
        switch command {
        case .speech, .verbosity:
            send(.key(what: command.rawValue, command: .get), .get(key: command.rawValue))
        case .repeatLast:
            say(lastSpoken ?? "Nothing was said yet.")
        case .currentWord:
            guard let word = currentWord() else { say("Nothing to read here."); return true }
            say(presses >= 2 ? Spelling.spelled(word, .english) : word)
        default:
            return false
        }
        return true
    }

    /// A speech or verbosity setting a key asked about, or set, came back; false when `what` is
    /// none of these keys'.
    mutating func speechSettingReplied(_ what: String, key: String, value: String) -> Bool {
        switch (what, key) {
        case (KeyCommand.speech.rawValue, "speech"):
            if value == "off" {
                send(.key(what: "speech set", command: .set), .set(key: "speech", value: .string("on")))
            } else {
                // Said while speech is still on; what plays when it goes off ends as it would.
                say("Speech off.")
                send(.key(what: "speech set", command: .set), .set(key: "speech", value: .string("off")))
            }
        case ("speech set", "speech"):
            if value == "on" { say("Speech on.") }
        case (KeyCommand.verbosity.rawValue, "verbosity"):
            let next = value == Verbosity.brief.rawValue ? Verbosity.verbose : .brief
            send(.key(what: "verbosity set", command: .set), .set(key: "verbosity", value: .string(next.rawValue)))
        case ("verbosity set", "verbosity"):
            say("Verbosity \(value).")
        default:
            return false
        }
        return true
    }

    /// narratord started saying something: kept, to be said again on request. A hint is not
    /// what the user asks to hear again; the element it follows is.
    mutating func heard(_ notice: SpeechNotice) {
        guard case .started = notice.phase, notice.kind != .hint, let text = notice.text, !text.isEmpty else { return }
        lastSpoken = text
    }

    /// The word at Narrator's cursor: in a field with a caret, the word at the caret; else the
    /// text of the item the cursor is on.
    func currentWord() -> String? {
        guard let focus = narratorFocus, let window = mirror.window(showing: focus.tree)?.window,
            let node = window.document.root.find(focus.element)
        else { return nil }
        if let value = node.value, let caret = node.selectedTextRange, !node.traits.isDisjoint(with: Traits([.textField, .searchField])) {
            return Spelling.word(at: caret.location, in: value)
        }
        let text = (node.label ?? node.value ?? "").trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    /// Where am I pressed twice: after the focus, where it is (its place, the list, table or
    /// landmark around it) and the window it is in.
    func whereabouts(of focus: Focus) -> String? {
        var said: [String] = []
        if let (id, _) = mirror.window(showing: focus.tree), let snapshot = applications[id.application]?.windows[id.path] {
            said = snapshot.whereabouts(of: ATSPIMapping.path(of: focus.element))
        }
        if let title = mirror.title(of: focus.tree) { said.append("in " + title) }
        guard let first = said.first else { return nil }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + said.dropFirst()).joined(separator: ", ") + "."
    }

    /// The window title pressed twice: its status bar's text.
    func statusBar(of tree: String) -> String {
        guard let (id, _) = mirror.window(showing: tree), let snapshot = applications[id.application]?.windows[id.path],
            let text = snapshot.statusBarText
        else { return "No status bar." }
        return text.isEmpty ? "The status bar is empty." : text
    }
}
