/// What a key can be bound to. Each has the name a keymap line uses and the words learn mode
/// says for it. Only commands Narrator carries out are here: a name a keymap cannot use is
/// refused, not bound to silence.
public enum KeyCommand: Sendable, Hashable, CaseIterable {
    case learnMode
    case browseMode
    case whereAmI
    case windowTitle
    case time
    /// Browse mode's reading as laid out: by line, character and word, to a line's ends.
    case nextLine
    case previousLine
    case nextCharacter
    case previousCharacter
    case nextWord
    case previousWord
    case lineStart
    case lineEnd
    case firstItem
    case lastItem
    /// Speech a step faster or slower, and the next punctuation level: said as they change and
    /// kept in narratord's settings.
    case rateFaster
    case rateSlower
    case punctuation
    /// Speech on and off, and brief or verbose: said as they change and kept in narratord's settings.
    case speech
    case verbosity
    /// The last thing said, said again as it was.
    case repeatLast
    /// The word at Narrator's cursor (a field's at its caret, else the item's text); twice, spelled.
    case currentWord
    /// Browse mode's structural keys: the next or previous item of a kind.
    case next(Structure)
    case previous(Structure)
    /// The neighbouring cell in the table the cursor is in (Orca's Alt+Shift+arrows).
    case cellLeft
    case cellRight
    case cellUp
    case cellDown

    public static let allCases: [KeyCommand] =
        [.learnMode, .browseMode, .whereAmI, .windowTitle, .time, .nextLine, .previousLine, .nextCharacter, .previousCharacter, .nextWord, .previousWord, .lineStart, .lineEnd, .firstItem, .lastItem, .rateFaster, .rateSlower, .punctuation,
         .speech, .verbosity, .repeatLast, .currentWord]
        + Structure.allCases.flatMap { [KeyCommand.next($0), .previous($0)] } + [.cellLeft, .cellRight, .cellUp, .cellDown]

    private static let byName: [String: KeyCommand] = Dictionary(allCases.map { ($0.rawValue, $0) }, uniquingKeysWith: { a, _ in a })

    /// The name a keymap line uses: `learn-mode`, `next-heading-2`.
    public var rawValue: String {
        switch self {
        case .learnMode: "learn-mode"
        case .browseMode: "browse-mode"
        case .whereAmI: "where-am-i"
        case .windowTitle: "window-title"
        case .time: "time"
        case .nextLine: "next-line"
        case .previousLine: "previous-line"
        case .nextCharacter: "next-character"
        case .previousCharacter: "previous-character"
        case .nextWord: "next-word"
        case .previousWord: "previous-word"
        case .lineStart: "line-start"
        case .lineEnd: "line-end"
        case .firstItem: "first-item"
        case .lastItem: "last-item"
        case .rateFaster: "rate-faster"
        case .rateSlower: "rate-slower"
        case .punctuation: "punctuation"
        case .speech: "speech"
        case .verbosity: "verbosity"
        case .repeatLast: "repeat"
        case .currentWord: "current-word"
        case .next(let kind): "next-" + kind.rawValue
        case .previous(let kind): "previous-" + kind.rawValue
        case .cellLeft: "cell-left"
        case .cellRight: "cell-right"
        case .cellUp: "cell-up"
        case .cellDown: "cell-down"
        }
    }

    public init?(rawValue: String) {
        guard let command = Self.byName[rawValue] else { return nil }
        self = command
    }

    /// What learn mode says the command does (and `narratorctl keys` lists).
    public var summary: String {
        switch self {
        case .learnMode: "learn mode: say what each key does; Escape leaves"
        case .browseMode: "switch between browse mode and focus mode"
        case .whereAmI: "where am I: the focus again; twice, with where it is"
        case .windowTitle: "the window's title; twice, its status bar"
        case .time: "the time; twice, the date"
        case .nextLine: "browse mode: the next line"
        case .previousLine: "browse mode: the previous line"
        case .nextCharacter: "browse mode: the next character"
        case .previousCharacter: "browse mode: the previous character"
        case .nextWord: "browse mode: the next word"
        case .previousWord: "browse mode: the previous word"
        case .lineStart: "browse mode: the start of the line"
        case .lineEnd: "browse mode: the end of the line"
        case .firstItem: "browse mode: the first item"
        case .lastItem: "browse mode: the last item"
        case .rateFaster: "speak faster"
        case .rateSlower: "speak slower"
        case .punctuation: "the next punctuation level: none, some, most, all"
        case .speech: "speech off, or on again"
        case .verbosity: "verbosity brief or verbose"
        case .repeatLast: "say the last thing said again"
        case .currentWord: "the word at the cursor; twice, spelled"
        case .next(let kind): "browse mode: the next \(kind.singular)"
        case .previous(let kind): "browse mode: the previous \(kind.singular)"
        case .cellLeft: "browse mode: the cell to the left, in a table"
        case .cellRight: "browse mode: the cell to the right, in a table"
        case .cellUp: "browse mode: the cell above, in a table"
        case .cellDown: "browse mode: the cell below, in a table"
        }
    }

    /// Whether the command acts only in browse mode, on a document: there its key is Narrator's,
    /// elsewhere (a text field, focus mode, an application that is not a document) it reaches the
    /// application, as a letter must in a field.
    public var browseOnly: Bool {
        switch self {
        case .learnMode, .browseMode, .whereAmI, .windowTitle, .time, .rateFaster, .rateSlower, .punctuation, .speech, .verbosity, .repeatLast, .currentWord: false
        case .nextLine, .previousLine, .nextCharacter, .previousCharacter, .nextWord, .previousWord, .lineStart, .lineEnd,
             .firstItem, .lastItem, .next, .previous, .cellLeft, .cellRight, .cellUp, .cellDown: true
        }
    }
}
