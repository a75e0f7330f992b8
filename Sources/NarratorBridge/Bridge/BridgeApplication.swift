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
    /// Reads of a child a page added, in flight. A focus move does not wait for them: the
    /// objects it can land on are mirrored already, and one it cannot has the application read.
    var childReads: Set<ReadID> = []
    /// Windows such reads changed that narratord has not been told of yet (``ATSPIBridge/mirrorUnmirrored(of:)``).
    var unmirrored: Set<String> = []
    /// Children of big objects (a web page's long list) not read yet, by parent, in order: read
    /// a part at a time after what was read at once is mirrored (``ATSPIBridge/fillNext(_:)``).
    var unread: [UnreadChildren] = []
    /// The read of such children in flight, if any.
    var fillRead: ReadID?
    /// Its first read is still to come: that read enters the window it finds active, whose
    /// activation came before the application could be read (it started meanwhile, or ran
    /// before the bridge did).
    var arrived = false
    /// The window that first read entered: the activation event that may still come for it is
    /// not said a second time.
    var enteredOnRead: String?
    /// Read again once the read in flight ends (events came during it).
    var again = false
    /// Events came: read again when the batch timer fires.
    var pending = false
    /// Mirrored objects whose children changed: each read again with what is under it when the
    /// batch timer fires, not the whole application (a web page's script changes a paragraph
    /// of a page of 10,000 nodes).
    var changedParts: Set<String> = []
    /// Children a web page added to or removed from a mirrored object, as its events named them:
    /// one child read, or one taken out, when the batch timer fires, not the object with all under
    /// it (Firefox adds its link-address bar beside the page at each link focused, and the page
    /// of 10,000 objects would be read again under it).
    var changedChildren: [ChildChange] = []
    /// Focus moves and activations that wait for a read (the object was not mirrored yet).
    var waiting: [Waiting] = []
    /// It did not answer the last read: said once, read again every few seconds.
    var unresponsive = false
    /// Whole reads in a row it answered with nothing but errors. A toolkit that has not set up
    /// its accessibility yet (GTK 4 just started) does so for a moment: it is read again on the
    /// retry timer, and given up only when it goes on (``ATSPIBridge/erroredReadsBeforeGivingUp``).
    var erroredReads = 0
    /// Its tree was cut at the read's depth, and that was said (once).
    var saidCut = false
    /// When each object was last brought by a read of it alone (its name changed, say) or
    /// changed by an event, as the next read to begin then: a read of the application or of a
    /// part begun before that keeps the object as held, what it found being older.
    var readAlone: [String: ReadID] = [:]
    /// Where the last caret move put each text's caret (a selection that goes leaves it there).
    var carets: [String: Int] = [:]
    /// The caret GTK 4 reports with an insertion into a text view (where it was before the
    /// insertion), by the text's path, until the next caret move or edit: that move is stale,
    /// not the user's (``ATSPIDialect/reportsTextViewInsertionsEarly``). GTK never reports a
    /// real move there meanwhile: the caret it last reported is that very place.
    var staleCaret: (path: String, offset: Int)?
    /// How many times each text was changed from its events: a read begun before a change
    /// brings its text as it was, and keeps the changed one.
    var textEdits: [String: Int] = [:]
    /// The same for each text's caret and selection.
    var selectionEdits: [String: Int] = [:]
    /// Texts a read changed since an event last did. A read's reply comes on the application's
    /// own socket and its events on the bus, so the reply can overtake the event of an edit it
    /// already shows: the next edit of such a text is checked against it (``ATSPIBridge/textChanged(_:in:inserted:)``).
    var textsFromReads: Set<String> = []
    /// The rows made active in each list that manages its descendants, by the list's path, with
    /// their index in it: what the mirror holds of such a list, kept across reads (the row left
    /// stays, so that Narrator's focus on it is never repaired to somewhere else).
    var activeDescendants: [String: [ActiveRow]] = [:]

    /// Whether some of its objects are still to be read after the rest was mirrored.
    var filling: Bool { !unread.isEmpty || fillRead != nil }

    struct UnreadChildren: Equatable, Sendable {
        var parent: String
        var children: [String]
    }

    struct ActiveRow: Equatable, Sendable {
        var index: Int
        var row: AccessibleSnapshot
    }

    /// A child an event said was added to (at `index`) or removed from `parent`.
    enum ChildChange: Equatable, Sendable {
        case added(parent: String, child: String, index: Int)
        case removed(parent: String, child: String)

        var parent: String {
            switch self {
            case .added(let parent, _, _), .removed(let parent, _): parent
            }
        }
    }

    enum Waiting: Equatable, Sendable {
        case focus(path: String)
        case activate(window: String)
    }

    var grafts: [String: [AccessibleSnapshot]] { activeDescendants.mapValues { $0.map(\.row) } }

    /// No read of it is in flight or due: what is mirrored is what it showed last.
    var isCurrent: Bool { wholeRead == nil && objectReads.isEmpty && !pending && changedParts.isEmpty && changedChildren.isEmpty }

    /// The object at `path` as last read.
    func object(_ path: String) -> AccessibleSnapshot? {
        windowOf[path].flatMap { windows[$0]?.object(at: path) }
    }

    /// Notes which window each object of `window` is in.
    mutating func index(_ window: AccessibleSnapshot) { index(window, in: window.path) }

    /// Notes that each object of `subtree` is in the window at `window`.
    mutating func index(_ subtree: AccessibleSnapshot, in window: String) {
        func visit(_ node: AccessibleSnapshot) {
            windowOf[node.path] = window
            for child in node.children { visit(child) }
        }
        visit(subtree)
    }
}

/// What one read in flight is for.
struct BridgeRead: Sendable {
    enum Purpose: Equatable, Sendable {
        /// The whole application.
        case whole
        /// One object whose own facts changed.
        case object(path: String)
        /// One object and everything under it: its children changed.
        case part(path: String)
        /// A child added to `parent` at `index`, with what is under it.
        case added(parent: String, index: Int)
        /// Children of `parent` left unread by an earlier read, with what is under them.
        case fill(parent: String)
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

extension BridgeApplication {
    /// Notes each text of `new` that holds otherwise than in `old` (a read's answer laid over
    /// what was held) in ``textsFromReads``; objects `old` did not hold are new, not changed.
    mutating func noteTexts(readAs new: AccessibleSnapshot, over old: AccessibleSnapshot) {
        let held = old.texts
        for (path, text) in new.texts {
            guard let before = held[path], before != text else { continue }
            textsFromReads.insert(path)
        }
    }
}

extension AccessibleSnapshot {
    /// This tree, read again, with the children the read left `unread` (a long list past its first
    /// part) as `held` had them, until the reading of the rest brings them anew: a page read again
    /// under an event keeps the items the user may be on, rather than lose them for a moment, the
    /// focus on one with them.
    func keepingUnread(_ unread: [BridgeApplication.UnreadChildren], from held: AccessibleSnapshot) -> AccessibleSnapshot {
        var tree = self
        for entry in unread where !entry.children.isEmpty {
            guard var parent = tree.object(at: entry.parent), let before = held.object(at: entry.parent) else { continue }
            let heldChildren = Dictionary(before.children.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            let present = Set(parent.children.map(\.path))
            let kept = entry.children.compactMap { present.contains($0) ? nil : heldChildren[$0] }
            guard !kept.isEmpty else { continue }
            parent.children += kept
            tree = tree.replacingSubtree(entry.parent, with: parent)
        }
        return tree
    }
}
