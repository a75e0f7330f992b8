@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// A long list that manages its descendants (GTK's tree view): mirrored lazily, each row read
/// alone as it becomes active, with its place in the list, and the hundred nearest the latest kept.
@Suite struct BridgeListTests {
    typealias Object = ATSPIMappingTests
    static let tree = "player: Songs"
    static let list = "/org/a11y/atspi/accessible/41"

    /// Row `i` (0-based) of the list: path 100 + i, "Song i+1".
    static func row(_ i: Int, selected: Bool = false) -> AccessibleSnapshot {
        var states = Object.shown.union([.selectable, .focusable])
        if selected { states.insert(.selected) }
        return Object.object(100 + i, .tableCell, "Song \(i + 1)", states: states)
    }

    /// The player's window: a table of `rows` songs after its column header (a list, with no
    /// header, when `table` is false), and a status label.
    static func player(rows: Int, selected: Int? = 0, table: Bool = true, status: String = "Stopped") -> FakeApplication {
        let header = table ? [Object.object(42, .tableColumnHeader, "Title")] : []
        let songs = header + (0..<rows).map { row($0, selected: $0 == selected) }
        let window = Object.object(40, .frame, "Songs", children: [
            Object.object(41, table ? .table : .list, states: Object.shown.union([.managesDescendants, .focusable]), children: songs),
            Object.object(43, .label, status),
        ])
        // GTK makes a row's accessible only once something asks about it: the cache holds none.
        return FakeApplication(name: "player", windows: [window], cacheLeavesOut: Set(songs.map(\.path)), tableHeaders: table ? 1 : 0, bus: ":1.5")
    }

    /// The window as the mirror holds it: the list's children are the rows read alone.
    static func mirrored(_ player: FakeApplication, rows: [(Int, AccessibleSnapshot)], count: Int) -> AccessibleSnapshot {
        var window = player.windows[0]
        window.change(list) { list in
            list.children = rows.map { index, row in
                var row = row
                row.position = SetPosition(index: index + 1, count: count)
                return row
            }
        }
        return window
    }

    /// The active-descendant-changed event for row `i` (after the header, in a table).
    static func activate(_ i: Int, in h: inout BridgeHarness, table: Bool = true) {
        h.event("object:active-descendant-changed", ":1.5", list, detail1: i + (table ? 1 : 0), object: row(i).path)
    }

    @Test("a newly active row is read alone, with its place from the table, grafted into the list, and focused")
    func anActiveRowIsReadAlone() throws {
        let player = Self.player(rows: 10_000)
        var h = BridgeHarness(player)
        h.startMirrored()
        Self.activate(1, in: &h)
        let reads = h.reads()
        #expect(reads.count == 1)
        let read = try #require(reads.first)
        let place: [ATSPIRequest] = [.rowAtIndex(Self.list, 2), .rowCount(Self.list), .childCount(Self.list)]
        #expect(read.requests.filter { $0.path == Self.list } == place)
        #expect(read.requests.allSatisfy { $0.path == Self.row(1).path || place.contains($0) })
        #expect(h.sent() == [
            .children(Self.tree, of: "41", in: Self.mirrored(player, rows: [(1, Self.row(1))], count: 10_000), application: "player"),
            .focus(tree: Self.tree, element: "101"),
        ])
    }

    @Test("a list that is no table places its row among its children")
    func aPlainListCountsItsChildren() throws {
        let player = Self.player(rows: 30, table: false)
        var h = BridgeHarness(player)
        h.startMirrored()
        Self.activate(4, in: &h, table: false)
        #expect(h.sent() == [
            .children(Self.tree, of: "41", in: Self.mirrored(player, rows: [(4, Self.row(4))], count: 30), application: "player"),
            .focus(tree: Self.tree, element: "104"),
        ])
    }

    @Test("the mirror keeps the hundred rows nearest the latest one")
    func theHundredNearestAreKept() throws {
        let player = Self.player(rows: 150, selected: nil)
        var h = BridgeHarness(player)
        h.startMirrored()
        for i in 0...100 { Self.activate(i, in: &h) }
        var last = h.sent().suffix(2)
        // Row 0 is the one farthest from row 100.
        #expect(Array(last) == [
            .children(Self.tree, of: "41", in: Self.mirrored(player, rows: (1...100).map { ($0, Self.row($0)) }, count: 150), application: "player"),
            .focus(tree: Self.tree, element: "200"),
        ])
        Self.activate(149, in: &h)
        last = h.sent().suffix(2)
        #expect(Array(last) == [
            .children(Self.tree, of: "41", in: Self.mirrored(player, rows: ((2...100).map { $0 } + [149]).map { ($0, Self.row($0)) }, count: 150), application: "player"),
            .focus(tree: Self.tree, element: "249"),
        ])
    }

    @Test("a list that takes the focus has its selected row read, with its index, and focused")
    func aListTakingTheFocusReadsItsSelectedRow() throws {
        let player = Self.player(rows: 10_000, selected: 0)
        var h = BridgeHarness(player)
        h.startMirrored()
        h.focus(":1.5", Self.list)
        let questions = h.asked.map(\.question).filter { if case .read = $0 { false } else { true } }
        #expect(questions == [
            .selectedRow(application: ":1.5", list: Self.list),
            .rowIndex(application: ":1.5", row: Self.row(0).path, list: Self.list),
        ])
        let reads = h.reads()
        #expect(reads.count == 1 && reads[0].requests.contains(.rowAtIndex(Self.list, 1)))
        #expect(h.sent() == [
            .children(Self.tree, of: "41", in: Self.mirrored(player, rows: [(0, Self.row(0, selected: true))], count: 10_000), application: "player"),
            .focus(tree: Self.tree, element: "100"),
        ])
    }

    @Test("a list with no row selected takes the focus and nothing more is read")
    func aListWithNoSelection() {
        var h = BridgeHarness(Self.player(rows: 10, selected: nil))
        h.startMirrored()
        h.focus(":1.5", Self.list)
        #expect(h.asked.map(\.question) == [.selectedRow(application: ":1.5", list: Self.list)])
        #expect(h.sent() == [])
    }

    @Test("the rows read stay in the mirror across a whole read of the application")
    func rowsAreKeptAcrossARead() throws {
        var player = Self.player(rows: 100)
        var h = BridgeHarness(player)
        h.startMirrored()
        Self.activate(0, in: &h)
        Self.activate(1, in: &h)
        _ = h.sent()
        _ = h.reads()
        player.change("/org/a11y/atspi/accessible/43") { $0.name = "Playing" }
        h.desktop[":1.5"] = player
        h.event("object:children-changed:add", ":1.5", "/org/a11y/atspi/accessible/40")
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [.set(Self.tree, "43", #"{"label":"Playing"}"#, announce: true)])
        // And across the next read too.
        h.event("object:children-changed:add", ":1.5", "/org/a11y/atspi/accessible/40")
        h.advance(by: .milliseconds(25))
        #expect(h.reads().map { $0.requests.first } == [.items, .items], "two whole reads")
        #expect(h.sent() == [])
    }

    @Test("a row left, read again alone when GTK says it is no longer selected, keeps its place in the list")
    func aRowLeftKeepsItsPlace() throws {
        var player = Self.player(rows: 10_000, selected: 0)
        var h = BridgeHarness(player)
        h.startMirrored()
        h.focus(":1.5", Self.list)
        _ = h.sent()
        // Down: the next row becomes active and selected, the first one is deselected.
        player.change(Self.row(0).path) { $0.states.remove(.selected) }
        player.change(Self.row(1).path) { $0.states.insert(.selected) }
        h.desktop[":1.5"] = player
        Self.activate(1, in: &h)
        h.event("object:state-changed:selected", ":1.5", Self.row(0).path, detail1: 0)
        h.event("object:state-changed:selected", ":1.5", Self.row(1).path, detail1: 1)
        #expect(h.sent() == [
            .children(Self.tree, of: "41", in: Self.mirrored(player, rows: [(0, Self.row(0, selected: true)), (1, Self.row(1, selected: true))], count: 10_000), application: "player"),
            .focus(tree: Self.tree, element: "101"),
            .set(Self.tree, "100", #"{"traits":null}"#, announce: true),
        ])
    }
}
