/// What the bridge knows of one application on the desktop, owned by ``ATSPIBridge``.
struct BridgeApplication: Sendable {
    /// Its name as it reports it ("gedit"); empty until its first read.
    var name = ""
    /// The dialect of AT-SPI2 its toolkit speaks, from its first read.
    var dialect = ATSPIDialect.gtk3
    /// Its windows as last read, by object path.
    var windows: [String: AccessibleSnapshot] = [:]
    /// The window each of its objects is in, by object path.
    var windowOf: [String: String] = [:]
    /// The whole read in flight, if any.
    var wholeRead: ReadID?
    /// Reads of one object alone in flight (a focus move waits for them too).
    var objectReads: Set<ReadID> = []
    /// Read again once the read in flight ends (events came during it).
    var again = false
    /// Events came: read again when the batch timer fires.
    var pending = false
    /// Focus moves and activations that wait for a read (the object was not mirrored yet).
    var waiting: [Waiting] = []
    /// It did not answer the last read: said once, read again every few seconds.
    var unresponsive = false
    /// Objects read alone while a whole read was in flight: laid over its result, being newer.
    var freshObjects: [String: AccessibleSnapshot] = [:]
    /// Where the last caret move put each text's caret (a selection that goes leaves it there).
    var carets: [String: Int] = [:]
    /// How many times each text was changed from its events: a read begun before a change
    /// brings its text as it was, and keeps the changed one.
    var textEdits: [String: Int] = [:]
    /// The same for each text's caret and selection.
    var selectionEdits: [String: Int] = [:]
    /// The rows made active in each list that manages its descendants, by the list's path, with
    /// their index in it: what the mirror holds of such a list, kept across reads (the row left
    /// stays, so that Narrator's focus on it is never repaired to somewhere else).
    var activeDescendants: [String: [ActiveRow]] = [:]

    struct ActiveRow: Equatable, Sendable {
        var index: Int
        var row: AccessibleSnapshot
    }

    enum Waiting: Equatable, Sendable {
        case focus(path: String)
        case activate(window: String)
    }

    var grafts: [String: [AccessibleSnapshot]] { activeDescendants.mapValues { $0.map(\.row) } }

    /// No read of it is in flight or due: what is mirrored is what it showed last.
    var isCurrent: Bool { wholeRead == nil && objectReads.isEmpty && !pending }

    /// Whether a focus move waits for a read (what changes on the way there is not announced).
    var focusWaits: Bool { waiting.contains { if case .focus = $0 { true } else { false } } }

    /// The object at `path` as last read.
    func object(_ path: String) -> AccessibleSnapshot? {
        windowOf[path].flatMap { windows[$0]?.object(at: path) }
    }

    /// Notes which window each object of `window` is in.
    mutating func index(_ window: AccessibleSnapshot) {
        func visit(_ node: AccessibleSnapshot) {
            windowOf[node.path] = window.path
            for child in node.children { visit(child) }
        }
        visit(window)
    }
}

/// What one read in flight is for.
struct BridgeRead: Sendable {
    enum Purpose: Equatable, Sendable {
        /// The whole application.
        case whole
        /// One object whose own facts changed.
        case object(path: String)
        /// The row a list made active, at `index` in it.
        case activeRow(row: String, index: Int, list: String)
    }

    var application: String
    var purpose: Purpose
    var read: ATSPIApplicationRead
    /// The application's text, and caret and selection, changes counted when the read began.
    var textEditsAtStart: [String: Int] = [:]
    var selectionEditsAtStart: [String: Int] = [:]
}
