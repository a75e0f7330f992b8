/// The bindings Narrator starts with, written as a keymap file is, so that the file format,
/// `narratorctl keys` and docs/keys.md all come from this one text. They are Orca 43's keys for
/// the same commands.
enum DefaultKeymap {
    /// Both layouts.
    static let common = """
        Narrator+h = learn-mode
        Narrator+a = browse-mode
        Narrator+t = time
        Down = next-item
        Up = previous-item
        Control+Home = first-item
        Control+End = last-item
        h = next-heading
        Shift+h = previous-heading
        k = next-link
        Shift+k = previous-link
        f = next-form-field
        Shift+f = previous-form-field
        """

    static func text(for layout: KeyLayout) -> String {
        switch layout {
        case .desktop:
            common + "\n" + """
                KP_Enter = where-am-i
                Narrator+KP_Enter = window-title
                """
        case .laptop:
            common + "\n" + """
                Narrator+Return = where-am-i
                Narrator+slash = window-title
                """
        }
    }
}
