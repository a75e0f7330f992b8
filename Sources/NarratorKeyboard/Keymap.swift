import NarratorBase

/// Which command each chord runs, on one layout: the defaults with the user's keymap file over
/// them (`~/.config/narrator/keymap`).
///
/// A keymap file is lines of `CHORD = COMMAND` (`Narrator+t = time`, `Alt+Shift+Down = none` to
/// take a default away), `layout = laptop`, blank lines and `#` comments. A line it cannot use
/// is refused with its number and the rest is kept.
public struct Keymap: Equatable, Sendable {
    public var layout: KeyLayout
    public private(set) var bindings: [KeyChord: KeyCommand]

    /// The default bindings of `layout`.
    public init(layout: KeyLayout) {
        self.layout = layout
        bindings = [:]
        // The defaults are checked by the tests to hold no refused line.
        for line in DefaultKeymap.text(for: layout).split(separator: "\n") {
            if case .binding(let chord, let command) = try? Self.parse(line) { bindings[chord] = command }
        }
    }

    /// The keymap a file's text makes: its `layout` line (the desktop's if none) picks the
    /// defaults, and its bindings go over them. Refused lines come back beside it.
    public static func reading(_ text: String) -> (keymap: Keymap, problems: [KeymapLineProblem]) {
        var parsed: [(Int, Line)] = []
        var problems: [KeymapLineProblem] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do {
                parsed.append((index + 1, try parse(line)))
            } catch {
                problems.append(KeymapLineProblem(line: index + 1, problem: error))
            }
        }
        var layout = KeyLayout.desktop
        for case (_, .layout(let chosen)) in parsed { layout = chosen }
        var keymap = Keymap(layout: layout)
        for (number, line) in parsed {
            switch line {
            case .blank, .layout: continue
            case .binding(let chord, let command):
                if layout.narratorKeys.contains(chord.key) {
                    problems.append(KeymapLineProblem(line: number, problem: .reservedKey(chord.description)))
                    continue
                }
                keymap.bindings[chord] = command
            case .unbinding(let chord):
                keymap.bindings[chord] = nil
            }
        }
        return (keymap, problems.sorted { $0.line < $1.line })
    }

    /// The command `chord` runs, if any.
    public func command(for chord: KeyChord) -> KeyCommand? { bindings[chord] }

    /// The bindings in a stable order: Narrator's chords first, then by key.
    public var sorted: [(chord: KeyChord, command: KeyCommand)] {
        bindings.map { ($0.key, $0.value) }.sorted { $0.chord < $1.chord }
    }

    enum Line: Equatable {
        case blank
        case layout(KeyLayout)
        case binding(KeyChord, KeyCommand)
        case unbinding(KeyChord)
    }

    static func parse(_ raw: Substring) throws(KeymapProblem) -> Line {
        let text = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map { $0.trimmingSpaces } ?? ""
        if text.isEmpty { return .blank }
        let sides = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard sides.count == 2 else { throw .notABinding(text) }
        let left = sides[0].trimmingSpaces
        let right = sides[1].trimmingSpaces
        guard !left.isEmpty, !right.isEmpty else { throw .notABinding(text) }
        if left.lowercased() == "layout" {
            guard let layout = KeyLayout(rawValue: right.lowercased()) else { throw .unknownLayout(right) }
            return .layout(layout)
        }
        let chord = try KeyChord(parsing: left)
        if chord.key.isModifier { throw .reservedKey(left) }
        if right.lowercased() == "none" { return .unbinding(chord) }
        guard let command = KeyCommand(rawValue: right.lowercased()) else {
            throw .unknownCommand(right, suggestion: Suggestion.nearest(to: right.lowercased(), in: KeyCommand.allCases.map(\.rawValue)))
        }
        return .binding(chord, command)
    }
}
