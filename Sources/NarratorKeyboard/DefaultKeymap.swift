/// The bindings Narrator starts with, written as a keymap file is, so that the file format,
/// `narratorctl keys` and docs/keys.md all come from this one text. They are Orca 43's keys for
/// the same commands.
enum DefaultKeymap {
    /// Both layouts: these, and each structural kind's key (``Structure``) with Shift for the previous.
    static let common = shared + "\n" + Structure.allCases.map { "\($0.key) = next-\($0.rawValue)\nShift+\($0.key) = previous-\($0.rawValue)" }.joined(separator: "\n")

    static let shared = """
        Narrator+h = learn-mode
        Narrator+a = browse-mode
        Narrator+t = time
        Narrator+Control+Up = rate-faster
        Narrator+Control+Down = rate-slower
        Narrator+Control+p = punctuation
        Narrator+s = speech
        Narrator+v = verbosity
        Narrator+r = repeat
        Down = next-line
        Up = previous-line
        Right = next-character
        Left = previous-character
        Control+Right = next-word
        Control+Left = previous-word
        Home = line-start
        End = line-end
        Control+Home = first-item
        Control+End = last-item
        Alt+Shift+Left = cell-left
        Alt+Shift+Right = cell-right
        Alt+Shift+Up = cell-up
        Alt+Shift+Down = cell-down
        """

    static func text(for layout: KeyLayout) -> String {
        switch layout {
        case .desktop:
            common + "\n" + """
                KP_Enter = where-am-i
                Narrator+KP_Enter = window-title
                KP_Begin = current-word
                """
        case .laptop:
            common + "\n" + """
                Narrator+Return = where-am-i
                Narrator+slash = window-title
                Narrator+k = current-word
                """
        }
    }
}
