/// What a key can be bound to. Each has the name a keymap line uses and the words learn mode
/// says for it. Only commands Narrator carries out are here: a name a keymap cannot use is
/// refused, not bound to silence.
public enum KeyCommand: String, CaseIterable, Sendable, Hashable {
    case learnMode = "learn-mode"
    case browseMode = "browse-mode"
    case whereAmI = "where-am-i"
    case windowTitle = "window-title"
    case time
    case nextItem = "next-item"
    case previousItem = "previous-item"
    case firstItem = "first-item"
    case lastItem = "last-item"
    case nextHeading = "next-heading"
    case previousHeading = "previous-heading"
    case nextLink = "next-link"
    case previousLink = "previous-link"
    case nextFormField = "next-form-field"
    case previousFormField = "previous-form-field"

    /// What learn mode says the command does (and `narratorctl keys` lists).
    public var summary: String {
        switch self {
        case .learnMode: "learn mode: say what each key does; Escape leaves"
        case .browseMode: "switch between browse mode and focus mode"
        case .whereAmI: "where am I: the focus again; twice, with where it is"
        case .windowTitle: "the window's title"
        case .time: "the time; twice, the date"
        case .nextItem: "browse mode: the next item"
        case .previousItem: "browse mode: the previous item"
        case .firstItem: "browse mode: the first item"
        case .lastItem: "browse mode: the last item"
        case .nextHeading: "browse mode: the next heading"
        case .previousHeading: "browse mode: the previous heading"
        case .nextLink: "browse mode: the next link"
        case .previousLink: "browse mode: the previous link"
        case .nextFormField: "browse mode: the next form field"
        case .previousFormField: "browse mode: the previous form field"
        }
    }

    /// Whether the command acts only in browse mode, on a document: there its key is Narrator's,
    /// elsewhere (a text field, focus mode, an application that is not a document) it reaches the
    /// application, as a letter must in a field.
    public var browseOnly: Bool {
        switch self {
        case .learnMode, .browseMode, .whereAmI, .windowTitle, .time: false
        case .nextItem, .previousItem, .firstItem, .lastItem, .nextHeading, .previousHeading, .nextLink, .previousLink,
            .nextFormField, .previousFormField:
            true
        }
    }
}
