import NarratorKeyboard
import NarratorModel
import NarratorProtocol

/// Browse mode's cursor in a page's lines: where the last line, word or character key left it,
/// and the stop that is there.
struct LineCursor: Sendable {
    var tree: String
    var page: String
    var place: PageLines.Place
    /// The stop at `place`, which Narrator's focus is on (or was asked to go to).
    var element: String
    /// narratord has not yet answered the move to `element`: its focus is still where it was.
    var moving: Bool
}

/// Up and Down by line as laid out, Left and Right by character, Control+Left and Right by word,
/// Home and End: read from the mirror's lines (``PageLines``), with no question to the
/// application. Where the cursor comes to another stop, narratord's focus goes there saying the
/// line, word or character instead of the stop, and the application's focus or caret follow it
/// as they follow the structural keys (``keyReplied(_:_:)``).
extension ATSPIBridge {
    mutating func read(_ command: KeyCommand) {
        guard let focus = narratorFocus, let page = mirror.document(in: focus.tree, holding: focus.element),
            let lines = mirror.lines(tree: focus.tree, page: page), !lines.lines.isEmpty
        else { return say("Nothing to read here.") }
        // The cursor stays where the keys left it while Narrator's focus is there; moved since
        // (Tab, a structural key), it starts from the focus.
        var here = lines.place(of: focus.element)
        var (current, moving) = (focus.element, false)
        if let cursor = reading, cursor.tree == focus.tree, cursor.page == page, cursor.element == focus.element || cursor.moving {
            // (The page read again may have moved the lines: the cursor is then at its stop's start.)
            let inStep = lines.lines.indices.contains(cursor.place.line) && lines.element(at: cursor.place) == cursor.element
                && cursor.place.offset <= lines.lines[cursor.place.line].text.count
            (here, current, moving) = (inStep ? cursor.place : lines.place(of: cursor.element) ?? here, cursor.element, cursor.moving)
        }
        let target: PageLines.Place?
        var unit = CaretMotion.Unit.character
        var word: String?
        if let here {
            switch command {
            // At the page's first or last line, that line is read again, as Orca reads it.
            case .nextLine: target = lines.nextLine(from: here) ?? lines.lineStart(of: here)
            case .previousLine: target = lines.previousLine(from: here) ?? lines.lineStart(of: here)
            case .nextCharacter: target = lines.nextCharacter(from: here)
            case .previousCharacter: target = lines.previousCharacter(from: here)
            case .nextWord, .previousWord:
                let moved = command == .nextWord ? lines.nextWord(from: here) : lines.previousWord(from: here)
                (target, word) = (moved?.place, moved?.word)
            case .lineStart: target = lines.lineStart(of: here)
            case .lineEnd: target = lines.lineEnd(of: here)
            default: return
            }
            if command == .nextLine || command == .previousLine { unit = .line }
            if command == .nextWord || command == .previousWord { unit = .word }
        } else {
            // The focus is on no line of the page (its document): the first line is read.
            target = lines.nextLine(from: nil)
            unit = .line
        }
        // Past the page's first or last character or word the cursor stays, saying nothing, as Orca's does.
        guard let target, let element = lines.element(at: target) else { return }
        let line = lines.lines[target.line]
        let words: String? =
            switch unit {
            // A line of one stop is said as narratord says the stop ("Results, heading level 2").
            case .line: line.pieces.count == 1 ? nil : line.spoken
            case .word: word
            case .character: lines.character(at: target)
            }
        reading = LineCursor(tree: focus.tree, page: page, place: target, element: element, moving: moving)
        if let words, unit != .line, element == current { return say(words) }
        reading?.moving = true
        send(.key(what: command.rawValue, command: .focus), .focus(tree: focus.tree, element: element, saying: words))
    }

    /// narratord answered a key's request: a line key's move is over (its focus is where the
    /// cursor is, or stayed where it was).
    mutating func lineReplied(_ what: String) {
        guard let command = KeyCommand(rawValue: what), Self.readingKeys.contains(command) else { return }
        reading?.moving = false
    }

    static let readingKeys: Set<KeyCommand> = [.nextLine, .previousLine, .nextCharacter, .previousCharacter, .nextWord, .previousWord, .lineStart, .lineEnd]
}
