/// Where Narrator's key is: Insert (and the keypad's) on a desktop keyboard, Caps Lock on a
/// laptop's, which has no keypad. Orca's two layouts, so an Orca user's hands know them.
public enum KeyLayout: String, CaseIterable, Sendable {
    case desktop, laptop

    /// The keys that act as Narrator's key.
    public var narratorKeys: Set<Keysym> {
        switch self {
        case .desktop: [.insert, .keypadInsert]
        case .laptop: [.capsLock]
        }
    }
}
