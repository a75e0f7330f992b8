/// What an utterance is for; the scheduler's rules depend on it.
public enum SpeechKind: Sendable, Hashable {
    /// The description of the element that just received focus.
    case focus
    /// The usage hint of the focused element, spoken after a pause.
    case hint
    /// The new value after increment/decrement.
    case value
    /// An app's announcement, already admitted by the announcement queue.
    case announcement(AnnouncementPriority)
    /// Text a client asked to speak directly (`narratorctl speak`).
    case speak
    /// A message from a Speech Dispatcher (SSIP) client, with its SSIP priority.
    case ssip(MessagePriority)

    /// A short stable name, used in file names, logs and events.
    public var name: String {
        switch self {
        case .focus: "focus"
        case .hint: "hint"
        case .value: "value"
        case .announcement(let priority): "announcement-\(priority.rawValue)"
        case .speak: "speak"
        case .ssip(let priority): "ssip-\(priority.rawValue)"
        }
    }

    /// Parses `name` back (the inverse of ``name``), for clients and settings.
    public init?(name: String) {
        switch name {
        case "focus": self = .focus
        case "hint": self = .hint
        case "value": self = .value
        case "speak": self = .speak
        case "announcement": self = .announcement(.default)
        case _ where name.hasPrefix("ssip-"):
            guard let priority = MessagePriority(rawValue: String(name.dropFirst(5))) else { return nil }
            self = .ssip(priority)
        default:
            let prefix = "announcement-"
            guard name.hasPrefix(prefix),
                  let priority = AnnouncementPriority(rawValue: String(name.dropFirst(prefix.count)))
            else { return nil }
            self = .announcement(priority)
        }
    }

    /// Focus-class speech describes where the user is; a newer one makes older ones stale.
    var followsFocus: Bool {
        switch self {
        case .focus, .value, .speak, .hint: true
        case .announcement, .ssip: false
        }
    }
}
