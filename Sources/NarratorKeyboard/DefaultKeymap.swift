/// The bindings Narrator starts with, written as a keymap file is, so that the file format,
/// `narratorctl keys` and docs/keys.md all come from this one text. They are Orca 43's keys for
/// the same commands.
enum DefaultKeymap {
    /// Both layouts.
    static let common = """
        Narrator+h = learn-mode
        Narrator+a = browse-mode
        Narrator+t = time
        Narrator+Control+Up = rate-faster
        Narrator+Control+Down = rate-slower
        Narrator+Control+p = punctuation
        Down = next-item
        Up = previous-item
        Control+Home = first-item
        Control+End = last-item
        h = next-heading
        Shift+h = previous-heading
        1 = next-heading-1
        Shift+1 = previous-heading-1
        2 = next-heading-2
        Shift+2 = previous-heading-2
        3 = next-heading-3
        Shift+3 = previous-heading-3
        4 = next-heading-4
        Shift+4 = previous-heading-4
        5 = next-heading-5
        Shift+5 = previous-heading-5
        6 = next-heading-6
        Shift+6 = previous-heading-6
        k = next-link
        Shift+k = previous-link
        f = next-form-field
        Shift+f = previous-form-field
        b = next-button
        Shift+b = previous-button
        e = next-entry
        Shift+e = previous-entry
        x = next-check-box
        Shift+x = previous-check-box
        c = next-combo-box
        Shift+c = previous-combo-box
        r = next-radio-button
        Shift+r = previous-radio-button
        g = next-image
        Shift+g = previous-image
        i = next-list-item
        Shift+i = previous-list-item
        t = next-table
        Shift+t = previous-table
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
                """
        case .laptop:
            common + "\n" + """
                Narrator+Return = where-am-i
                Narrator+slash = window-title
                """
        }
    }
}
