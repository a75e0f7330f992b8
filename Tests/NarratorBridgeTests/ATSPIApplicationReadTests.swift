@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// Runs a read against `app`, answering each wave of requests together as a bus would; returns
/// the outcome and how many waves (round trips) it took.
private func read(_ app: FakeApplication) -> (ATSPIApplicationRead.Outcome, waves: Int, requests: Int) {
    var read = ATSPIApplicationRead()
    var wave = read.start()
    var waves = 0, requests = 0
    while !wave.isEmpty {
        waves += 1
        requests += wave.count
        wave = wave.flatMap { read.take($0, app.answer($0)) }
    }
    #expect(read.isComplete)
    return (read.outcome, waves, requests)
}

private let save = AccessibleSnapshot(
    path: "/a/2", role: .pushButton, name: "Save", description: "Saves the story", states: [.enabled, .sensitive, .showing, .visible, .focusable],
    extents: Rect(x: 10, y: 20, width: 80, height: 30), actions: ["click"])
private let label = AccessibleSnapshot(path: "/a/3", role: .label, name: "Name", extents: Rect(x: 10, y: 60, width: 40, height: 20))
private let entry: AccessibleSnapshot = {
    var entry = AccessibleSnapshot(
        path: "/a/4", role: .text, states: [.enabled, .sensitive, .showing, .visible, .focusable, .editable, .singleLine],
        extents: Rect(x: 60, y: 60, width: 200, height: 20), text: "Ada", labelledBy: ["/a/3"])
    // Its text selected, as GTK selects it on taking the focus.
    entry.selection = TextRange(location: 0, length: 3)
    return entry
}()
private let search = AccessibleSnapshot(
    path: "/a/8", role: .text, states: [.enabled, .sensitive, .showing, .visible, .focusable, .editable, .singleLine],
    extents: Rect(x: 60, y: 120, width: 200, height: 20), placeholder: "Search")
private let slider = AccessibleSnapshot(
    path: "/a/5", role: .slider, name: "Volume", extents: Rect(x: 10, y: 90, width: 200, height: 20),
    value: ATSPIValue(current: 40, minimum: 0, maximum: 100, increment: 1))
private let hidden = AccessibleSnapshot(path: "/a/6", role: .pushButton, name: "Later", states: [.enabled, .sensitive], actions: ["click"])
private let window = AccessibleSnapshot(
    path: "/a/1", role: .frame, name: "Narrator fixture", states: [.enabled, .sensitive, .showing, .visible, .active],
    extents: Rect(x: 0, y: 0, width: 500, height: 400),
    children: [AccessibleSnapshot(path: "/a/7", role: .panel, extents: Rect(x: 0, y: 0, width: 500, height: 400), children: [save, label, entry, slider, hidden, search])])

@Suite("Reading an application over AT-SPI2")
struct ATSPIApplicationReadTests {
    @Test func fromTheCacheEveryFactInTwoRoundTrips() {
        let (outcome, waves, _) = read(FakeApplication(windows: [window]))
        #expect(outcome == .read(name: "fixture", windows: [window]))
        // The cache, name and windows; then every object's details at once.
        #expect(waves == 2)
    }

    @Test func withoutACacheTheWalkGivesTheSameTree() {
        let (outcome, waves, _) = read(FakeApplication(windows: [window], offersCache: false))
        #expect(outcome == .read(name: "fixture", windows: [window]))
        // Two round trips a level (what an object is, then its details and children), three levels.
        #expect(waves <= 2 * 3 + 2)
    }

    @Test func everyWindowInTheApplicationsOrder() {
        let dialog = AccessibleSnapshot(path: "/b/1", role: .dialog, name: "Question", extents: Rect(x: 5, y: 5, width: 10, height: 10))
        for cache in [true, false] {
            let (outcome, _, _) = read(FakeApplication(windows: [window, dialog], offersCache: cache))
            #expect(outcome == .read(name: "fixture", windows: [window, dialog]))
        }
    }

    @Test func aHiddenObjectsExtentsAreNotAskedFor() {
        let (_, _, requestsHidden) = read(FakeApplication(windows: [window]))
        var other = window
        other.children[0].children[4] = AccessibleSnapshot(path: "/a/6", role: .pushButton, name: "Later", states: [.enabled, .sensitive, .showing], actions: ["click"])
        let (outcome, _, requestsShown) = read(FakeApplication(windows: [other]))
        #expect(requestsShown == requestsHidden + 1)
        // Shown with the toolkit's "no extents" (x = y = INT32_MIN): none.
        guard case .read(_, let windows) = outcome else { Issue.record("\(outcome)"); return }
        #expect(windows[0].children[0].children[4].extents == nil)
    }

    @Test("a row read alone knows its place among the list's rows: the table's row, else its index among the children")
    func aRowReadAloneKnowsItsPlace() {
        func rowRead(_ app: FakeApplication, row: String, index: Int, list: String) -> AccessibleSnapshot? {
            var read = ATSPIApplicationRead(row: row, index: index, of: list)
            var wave = read.start()
            var waves = 0
            while !wave.isEmpty {
                waves += 1
                wave = wave.flatMap { read.take($0, app.answer($0)) }
            }
            // The place is asked with the row's own questions: no round trip more.
            #expect(waves == 2)
            guard case .read(_, let objects) = read.outcome else { return nil }
            return objects.first
        }
        // GTK's tree view: a table whose first child is its column header.
        let cells = (1...50).map { AccessibleSnapshot(path: "/c/\($0)", role: .tableCell, name: "Song \($0)") }
        let header = AccessibleSnapshot(path: "/c/0", role: .tableColumnHeader, name: "Title")
        let table = AccessibleSnapshot(path: "/t", role: .table, states: [.enabled, .showing, .managesDescendants], children: [header] + cells)
        let gtk = FakeApplication(windows: [AccessibleSnapshot(path: "/w", role: .frame, name: "Songs", children: [table])])
        #expect(rowRead(gtk, row: "/c/2", index: 2, list: "/t")?.position == SetPosition(index: 2, count: 50))
        #expect(rowRead(gtk, row: "/c/50", index: 50, list: "/t")?.position == SetPosition(index: 50, count: 50))
        #expect(rowRead(gtk, row: "/c/0", index: 0, list: "/t")?.position == nil)
        // A list that is no table: its index among its children.
        let items = (1...5).map { AccessibleSnapshot(path: "/i/\($0)", role: .listItem, name: "Item \($0)") }
        let list = AccessibleSnapshot(path: "/l", role: .list, states: [.enabled, .showing, .managesDescendants], children: items)
        let qt = FakeApplication(windows: [AccessibleSnapshot(path: "/w", role: .frame, name: "Items", children: [list])], offersCache: false)
        let item = rowRead(qt, row: "/i/3", index: 2, list: "/l")
        #expect(item?.name == "Item 3")
        #expect(item?.position == SetPosition(index: 3, count: 5))
        // The mirror says it.
        let document = ATSPIMapping.document(window: AccessibleSnapshot(path: "/w", role: .frame, name: "Items", children: [item!]), application: "a")
        #expect(AccessibilityTree(document: document).utterance(atStop: 0).text == "Item 3, list item, 3 of 5")
    }

    @Test func aListThatManagesItsDescendantsIsNotWalked() {
        let rows = (0..<50).map { AccessibleSnapshot(path: "/r/\($0)", role: .listItem, name: "row \($0)") }
        var list = AccessibleSnapshot(path: "/l", role: .list, name: "Songs", states: [.enabled, .showing, .managesDescendants], children: rows)
        let app = AccessibleSnapshot(path: "/w", role: .frame, name: "Player", children: [list])
        list.children = []
        let unwalked = AccessibleSnapshot(path: "/w", role: .frame, name: "Player", children: [list])
        for cache in [true, false] {
            let (outcome, _, requests) = read(FakeApplication(windows: [app], offersCache: cache))
            #expect(outcome == .read(name: "fixture", windows: [unwalked]))
            #expect(requests < 30)
        }
    }

    @Test func aHungApplicationIsUnresponsiveNotHalfRead() {
        for cache in [true, false] {
            var app = FakeApplication(windows: [window], offersCache: cache)
            app.hangsOn = { if case .actions = $0 { return true } else { return false } }
            #expect(read(app).0 == .unresponsive)
        }
    }

    @Test func anApplicationThatLeavesIsGone() {
        var read = ATSPIApplicationRead()
        let first = read.start()
        var next: [ATSPIRequest] = []
        for request in first { next += read.take(request, .failure(.gone)) }
        #expect(next.isEmpty)
        #expect(read.isComplete)
        #expect(read.outcome == .gone)
    }

    @Test func anObjectLackingAnInterfaceLacksOnlyThatFact() {
        var read = ATSPIApplicationRead()
        var wave = read.start()
        let app = FakeApplication(windows: [window])
        while !wave.isEmpty {
            wave = wave.flatMap { request -> [ATSPIRequest] in
                if case .actions("/a/2") = request { return read.take(request, .failure(.error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "gone"))) }
                return read.take(request, app.answer(request))
            }
        }
        guard case .read(_, let windows) = read.outcome else { Issue.record("\(read.outcome)"); return }
        #expect(windows[0].children[0].children[0].actions == [])
        #expect(windows[0].children[0].children[0].name == "Save")
    }

    @Test func aManagedListIsGivenTheRowsMadeActive() {
        let rows = [AccessibleSnapshot(path: "/r/1", role: .tableCell, name: "Song 1"), AccessibleSnapshot(path: "/r/9", role: .tableCell, name: "Song 9")]
        let list = AccessibleSnapshot(path: "/l", role: .table, states: [.enabled, .showing, .managesDescendants])
        let panel = AccessibleSnapshot(path: "/p", role: .panel, children: [list])
        let window = AccessibleSnapshot(path: "/w", role: .frame, name: "Songs", children: [panel])
        let grafted = window.grafting(["/l": rows])
        #expect(grafted.children[0].children[0].children == rows)
        #expect(grafted.contains(path: "/r/9") && !window.contains(path: "/r/9"))
        // Only a list that manages its descendants takes rows: a plain container keeps its own children.
        #expect(window.grafting(["/p": rows]) == window)
    }

    @Test func anObjectReadAloneReplacesOnlyItsOwnFacts() {
        var cleared = AccessibleSnapshot(path: "/c", role: .checkBox, name: "Remember me", states: [.enabled, .showing, .focusable])
        let box = AccessibleSnapshot(
            path: "/c", role: .checkBox, name: "Remember me", states: [.enabled, .showing, .focusable, .checked],
            children: [AccessibleSnapshot(path: "/i", role: .image)])
        let window = AccessibleSnapshot(path: "/w", role: .frame, name: "W", children: [box, AccessibleSnapshot(path: "/s", role: .pushButton, name: "Save")])
        let patched = window.replacing("/c", with: cleared)
        #expect(patched.children[0].states == cleared.states)
        // Its children were not read with it: they stay.
        #expect(patched.children[0].children == box.children)
        #expect(patched.children[1] == window.children[1])
        cleared.path = "/nowhere"
        #expect(window.replacing("/nowhere", with: cleared) == window)
    }

    @Test func whatTheCacheLeavesOutOrMisnumbersIsAskedForAndWalked() {
        // The Save button missing from the cache, and the label said to be at index 0 like the
        // panel's first child: the panel is asked for its children, in order, and Save walked.
        var app = FakeApplication(windows: [window])
        app.cacheLeavesOut = ["/a/2"]
        app.cacheMisnumbers = ["/a/3"]
        #expect(read(app).0 == .read(name: "fixture", windows: [window]))
    }

    @Test("Firefox (Gecko) is walked with one GetAll an object, and a leaf is never asked for its children")
    func geckoIsWalkedWithGetAll() {
        var heading = AccessibleSnapshot(path: "/a/9", role: .heading, name: "Prices", states: [.showing, .visible])
        heading.level = 2
        var page = window
        page.children[0].children.append(heading)
        var app = FakeApplication(windows: [page], offersCache: false)
        app.toolkit = ("Gecko", "153.0")
        var read = ATSPIApplicationRead()
        var wave = read.start()
        var asked: [ATSPIRequest] = []
        var waves = 0
        while !wave.isEmpty {
            waves += 1
            asked += wave
            wave = wave.flatMap { read.take($0, app.answer($0)) }
        }
        #expect(read.outcome == .read(name: "fixture", windows: [page]))
        let objects = app.all.map(\.path)
        // Name, description, child count and attributes (the heading's level, the field's
        // placeholder) in one question: none of them asked alone.
        #expect(asked.filter { if case .properties = $0 { return true } else { return false } }.count == objects.count)
        #expect(!asked.contains { request in
            switch request {
            case .name(let path), .description(let path), .attributes(let path): return path != ATSPIApplicationRead.root
            default: return false
            }
        })
        // Two round trips a level (what an object is, then its details and children), as before.
        #expect(waves <= 2 * 3 + 2)

        // Only an object with children is asked for them: the list's items are leaves.
        let items = (0..<1_200).map { AccessibleSnapshot(path: "/l/\($0)", role: .listItem, name: "Item \($0)", states: [.showing, .visible]) }
        let list = AccessibleSnapshot(path: "/l/list", role: .list, states: [.showing, .visible], children: items)
        var big = FakeApplication(windows: [AccessibleSnapshot(path: "/l/w", role: .frame, name: "Long", children: [list])], offersCache: false)
        big.toolkit = ("Gecko", "153.0")
        var bigRead = ATSPIApplicationRead()
        var next = bigRead.start()
        var childrenAsked = 0
        while !next.isEmpty {
            childrenAsked += next.filter { if case .children = $0 { return true } else { return false } }.count
            next = next.flatMap { bigRead.take($0, big.answer($0)) }
        }
        #expect(bigRead.outcome == .read(name: "fixture", windows: big.windows))
        // The root's, the window's and the list's: not one of the 1,200 items'.
        #expect(childrenAsked == 3)
    }

    @Test("GTK and Qt are walked as before: name and description asked alone (Qt 5 leaves the bus when asked GetAll)")
    func othersAreWalkedWithoutGetAll() {
        for toolkit in [("Qt", "5.15.8"), ("GTK", "3.24.38")] {
            var app = FakeApplication(windows: [window], offersCache: false)
            app.toolkit = toolkit
            var read = ATSPIApplicationRead()
            var wave = read.start()
            var asked: [ATSPIRequest] = []
            while !wave.isEmpty {
                asked += wave
                wave = wave.flatMap { read.take($0, app.answer($0)) }
            }
            #expect(read.outcome == .read(name: "fixture", windows: [window]))
            #expect(!asked.contains { if case .properties = $0 { return true } else { return false } }, "\(toolkit)")
        }
    }
}
