@testable import NarratorBridge
@testable import NarratorModel
import Testing
@testable import NarratorDBus

/// An application on the bus built to hurt its reader: every object a panel with the name its
/// `name` gives, its children whatever `children` says, asked however often (it may answer
/// differently each time). It has no cache, so it is walked, as a Python or C program on the
/// bus would be.
private final class HostileApplication {
    var children: (String) -> [String]
    var name: (String) -> Result<DBusValue, DBusFailure> = { _ in .success(.structure([.variant(.string("part"))])) }
    /// Answers every question with this, when set.
    var everything: Result<DBusValue, DBusFailure>?
    private(set) var asked = 0

    init(children: @escaping (String) -> [String]) {
        self.children = children
    }

    func answer(_ request: ATSPIRequest) -> Result<DBusValue, DBusFailure> {
        asked += 1
        if let everything { return everything }
        func reply(_ v: DBusValue) -> Result<DBusValue, DBusFailure> { .success(.structure([v])) }
        switch request {
        case .items: return .failure(.error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no cache"))
        case .name(let path): return path == ATSPIApplicationRead.root ? reply(.variant(.string("hostile"))) : name(path)
        case .children(let path): return reply(.array(children(path).map { .structure([.string(":1.66"), .string($0)]) }))
        case .role: return reply(.unsigned(UInt64(ATSPIRole.panel.code)))
        case .states:
            let states: ATSPIStates = [.enabled, .sensitive, .showing]
            return reply(.array([.unsigned(states.rawValue & 0xFFFF_FFFF), .unsigned(states.rawValue >> 32)]))
        case .interfaces: return reply(.array([.string("org.a11y.atspi.Accessible")]))
        case .description: return reply(.variant(.string("")))
        case .childCount(let path): return reply(.variant(.integer(Int64(children(path).count))))
        default: return .failure(.error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no"))
        }
    }
}

/// Runs `read` against `app` a wave at a time, at most `waves` waves (a read that does not end
/// is a failure, not a hang); returns its outcome.
private func run(_ app: HostileApplication, _ read: ATSPIApplicationRead = ATSPIApplicationRead(), waves: Int = 200) -> ATSPIApplicationRead.Outcome? {
    var read = read
    return run(app, &read, waves: waves)
}

private func run(_ app: HostileApplication, _ read: inout ATSPIApplicationRead, waves: Int = 200) -> ATSPIApplicationRead.Outcome? {
    var wave = read.start()
    for _ in 0..<waves {
        if wave.isEmpty { return read.isComplete ? read.outcome : nil }
        wave = wave.flatMap { read.take($0, app.answer($0)) }
    }
    Issue.record("the read did not end within \(waves) round trips (\(app.asked) questions)")
    return nil
}

private func isHostile(_ outcome: ATSPIApplicationRead.Outcome?, saying words: String) -> Bool {
    if case .hostile(let reason)? = outcome { return reason.contains(words) }
    return false
}

private let prefix = "/org/a11y/atspi/accessible/"

@Suite("Reading an application built to hurt its reader: the read ends, bounded, and says why")
struct ATSPIHostileReadTests {
    @Test("a child list that cycles back to an ancestor (or to the object itself) is hostile, and the read ends")
    func aCycleIsHostile() {
        for back in ["1", "2", "3"] {
            // root → 1 (the window) → 2 → 3 → back up to `back`.
            let app = HostileApplication { path in
                switch path {
                case ATSPIApplicationRead.root: [prefix + "1"]
                case prefix + "1": [prefix + "2"]
                case prefix + "2": [prefix + "3"]
                default: [prefix + "4", prefix + back]
                }
            }
            let outcome = run(app)
            #expect(isHostile(outcome, saying: "lists \(prefix + back), itself or one of its ancestors"), "\(String(describing: outcome))")
        }
    }

    @Test("an object listed under two parents is mirrored once, under the first")
    func anObjectUnderTwoParentsIsReadOnce() {
        let app = HostileApplication { path in
            switch path {
            case ATSPIApplicationRead.root: [prefix + "1"]
            case prefix + "1": [prefix + "2", prefix + "3"]
            case prefix + "2": [prefix + "4"]
            case prefix + "3": [prefix + "4"]
            default: []
            }
        }
        guard case .read(_, let windows)? = run(app) else { Issue.record("not read"); return }
        #expect(windows.count == 1)
        #expect(windows.first?.children.map { $0.children.map(\.path) } == [[prefix + "4"], []])
    }

    @Test("a million children are hostile at once: none of them is asked anything")
    func aMillionChildrenAreHostile() {
        let million = (0..<1_000_000).map { prefix + "c\($0)" }
        let app = HostileApplication { path in
            switch path {
            case ATSPIApplicationRead.root: [prefix + "1"]
            case prefix + "1": million
            default: []
            }
        }
        var read = ATSPIApplicationRead()
        read.childrenAtOnce = 100
        #expect(isHostile(run(app, read), saying: "more than 50000 objects"))
        #expect(app.asked < 50, "\(app.asked) questions")
    }

    @Test("an object whose children change on every question (new ones each time, more each time) is hostile once the read would hold too many, and the read ends")
    func childrenThatChangeOnEveryQuestion() {
        var calls = 0
        let app = HostileApplication { path in
            if path == ATSPIApplicationRead.root { return [prefix + "1"] }
            calls += 1
            return (0..<calls).map { prefix + "\(calls)-\($0)" }
        }
        var read = ATSPIApplicationRead()
        read.maximumObjects = 5_000
        #expect(isHostile(run(app, read, waves: 2_000), saying: "more than 5000 objects"))
    }

    @Test("a tree 10,000 deep is read to the read's depth and no deeper, the read ends, and it says it cut the tree; one just as deep as the read is not cut")
    func aDeepTreeIsCut() {
        func chain(_ deepest: Int) -> HostileApplication {
            HostileApplication { path in
                if path == ATSPIApplicationRead.root { return [prefix + "0"] }
                let depth = Int(path.dropFirst(prefix.count)) ?? 0
                return depth < deepest ? [prefix + "\(depth + 1)"] : []
            }
        }
        var exact = ATSPIApplicationRead()
        _ = run(chain(exact.maximumDepth), &exact)
        #expect(!exact.cutAtDepth)
        var read = ATSPIApplicationRead()
        guard case .read(_, let windows)? = run(chain(10_000), &read, waves: 1_000) else { Issue.record("not read"); return }
        #expect(read.cutAtDepth)
        var levels = 0
        var node = windows.first
        while let here = node {
            levels += 1
            node = here.children.first
        }
        #expect(levels == ATSPIApplicationRead().maximumDepth + 1)
    }

    @Test("an application that answers every question with an error is hostile")
    func errorsForEverything() {
        let app = HostileApplication { _ in [] }
        app.everything = .failure(.error(name: "org.freedesktop.DBus.Error.Failed", message: "no"))
        #expect(isHostile(run(app), saying: "answered each of its 5 questions with an error"))
    }

    @Test("a name too large to keep (the connection refused it) is hostile; a long name is cut to 10,000 characters")
    func hugeNames() {
        let tree: (String) -> [String] = { $0 == ATSPIApplicationRead.root ? [prefix + "1"] : [] }
        let refused = Result<DBusValue, DBusFailure>.failure(.error(name: DBusIncoming.tooLarge, message: "a reply of 10485800 bytes, over the 8388608-byte limit"))
        let app = HostileApplication(children: tree)
        app.name = { _ in refused }
        #expect(isHostile(run(app), saying: "its answer to Get on \(prefix)1 was refused: a reply of 10485800 bytes"))

        let long = HostileApplication(children: tree)
        long.name = { _ in .success(.structure([.variant(.string(String(repeating: "x", count: 1_000_000)))])) }
        guard case .read(_, let windows)? = run(long) else { Issue.record("not read"); return }
        #expect(windows.first?.name.count == ATSPIApplicationRead.maximumNameLength)
    }
}
