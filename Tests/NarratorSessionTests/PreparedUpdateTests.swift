import NarratorBase
import NarratorCore
import NarratorProtocol
import Testing

/// An update that rebuilds a large tree's reading order is applied to a copy of the tree off the
/// daemon's loop (``PreparedUpdate``) and swapped in: it must be answered, and leave the tree and
/// the focus, exactly as the same update applied whole, and an update prepared from a revision
/// the tree has since left must not undo what came between.
@Suite struct PreparedUpdateTests {
    /// A tree of `groups` groups of 99 buttons each (the benchmark's shape): 100 groups make 10,001 nodes.
    static func document(groups: Int) -> String {
        var out = #"{"tree": "big", "title": "Big", "root": {"id": "root", "children": ["#
        for group in 0..<groups {
            if group > 0 { out += "," }
            out += #"{"id": "g\#(group)", "children": ["#
            out += (0..<99).map { #"{"id": "g\#(group)-\#($0)", "label": "Item \#(group) \#($0)", "traits": ["button"]}"# }.joined(separator: ",")
            out += "]}"
        }
        return out + "]}}"
    }

    /// A harness with the 25,201-node tree registered and focused on `g3-5`.
    static func harness() throws -> (Harness, ClientID) {
        var harness = Harness()
        let client = harness.client()
        let registered = try harness.register(client, json: document(groups: 252))
        #expect(succeeded(registered, client))
        harness.request(client, #"{"id": 2, "cmd": "focus", "tree": "big", "element": "g3-5"}"#)
        return (harness, client)
    }

    /// Whether `effects` hold one reply to `client`, a success.
    static func succeeded(_ effects: [SessionEffect], _ client: ClientID) -> Bool {
        let replies = effects.replies(to: client)
        guard replies.count == 1, case .success = replies[0].outcome else { return false }
        return true
    }

    static func request(_ line: String) throws -> Request {
        try RequestDecoder().decode(line).get()
    }

    /// Feeds `line` prepared as the daemon prepares it, or whole when it is not one to prepare.
    static func prepared(_ line: String, _ harness: inout Harness, _ client: ClientID) throws -> (effects: [SessionEffect], wasPrepared: Bool) {
        let request = try request(line)
        guard let (tree, revision) = harness.session.workspace.preparableUpdate(request) else {
            return (harness.request(client, line), false)
        }
        let update = PreparedUpdate(request: request, tree: tree, revision: revision, decoder: harness.session.workspace.decoder)
        return (harness.feed(.prepared(client, .update(update))), true)
    }

    static let updates = [
        // Reorders: a group to the front, then another past it.
        #"{"id": 10, "cmd": "update", "tree": "big", "element": "g200", "set": {"sortPriority": 5}}"#,
        #"{"id": 11, "cmd": "update", "tree": "big", "element": "g7", "set": {"sortPriority": 9}}"#,
        // A label: kept on the loop (the order stays).
        #"{"id": 12, "cmd": "update", "tree": "big", "element": "g3-5", "set": {"label": "Renamed"}, "announce": true}"#,
        // A subtree replaced, and one removed.
        #"{"id": 13, "cmd": "update", "tree": "big", "element": "g9", "children": [{"id": "n1", "label": "New one", "traits": ["button"]}]}"#,
        #"{"id": 14, "cmd": "update", "tree": "big", "element": "g10", "remove": true}"#,
        // The focused element's group hidden: the focus moves on, and says so.
        #"{"id": 15, "cmd": "update", "tree": "big", "element": "g3", "set": {"hidden": true}}"#,
        // Refused: a child whose id another element has.
        #"{"id": 16, "cmd": "update", "tree": "big", "element": "g11", "children": [{"id": "g12-1", "label": "Twin"}]}"#,
        #"{"id": 17, "cmd": "show", "tree": "big"}"#,
    ]

    @Test func aPreparedUpdateIsAnsweredAndLeavesTheTreeAsTheWholeOneWould() throws {
        var (whole, a) = try Self.harness()
        var (prepared, b) = try Self.harness()
        #expect(a == b)
        var preparedCount = 0
        for line in Self.updates {
            let expected = whole.request(a, line)
            let (effects, wasPrepared) = try Self.prepared(line, &prepared, b)
            if wasPrepared { preparedCount += 1 }
            #expect(effects == expected, "\(line)")
        }
        // Every reorder, replacement, removal and hiding went through the copy; the label did not.
        #expect(preparedCount == 6)
        #expect(prepared.session.workspace.focus == whole.session.workspace.focus)
        #expect(prepared.session.workspace.focus?.element != "g3-5")
        let stops = try prepared.session.workspace.stops(of: "big")
        #expect(stops.prefix(2).map(\.id) == ["g7-0", "g7-1"])
        #expect(try whole.session.workspace.stops(of: "big") == stops)
    }

    @Test func anUpdatePreparedFromAnOlderRevisionIsAppliedAgainAndKeepsWhatCameBetween() throws {
        var (harness, client) = try Self.harness()
        let reorder = try Self.request(#"{"id": 20, "cmd": "update", "tree": "big", "element": "g200", "set": {"sortPriority": 5}}"#)
        let (copy, revision) = try #require(harness.session.workspace.preparableUpdate(reorder))
        let update = PreparedUpdate(request: reorder, tree: copy, revision: revision, decoder: harness.session.workspace.decoder)
        // Meanwhile another update lands on the loop: the copy above does not have it.
        let between = harness.request(client, #"{"id": 21, "cmd": "update", "tree": "big", "element": "g0", "remove": true}"#)
        #expect(Self.succeeded(between, client))
        #expect(harness.session.workspace.revision(of: "big") != revision)
        let effects = harness.feed(.prepared(client, .update(update)))
        #expect(Self.succeeded(effects, client))
        let tree = try harness.session.workspace.tree("big")
        let removedStays = tree.contains("g0")
        #expect(!removedStays)
        #expect(tree.stopID(at: 0) == "g200-0")
    }

    @Test func onlyUpdatesThatRebuildALargeTreesOrderArePrepared() throws {
        var (harness, client) = try Self.harness()
        try harness.register(client, example: "player.json")
        func preparable(_ line: String) throws -> Bool {
            harness.session.workspace.preparableUpdate(try Self.request(line)) != nil
        }
        #expect(try preparable(#"{"cmd": "update", "tree": "big", "element": "g4", "set": {"sortPriority": 1}}"#))
        #expect(try preparable(#"{"cmd": "update", "tree": "big", "element": "g4-1", "set": {"hidden": true}}"#))
        #expect(try preparable(#"{"cmd": "update", "tree": "big", "element": "g4", "remove": true}"#))
        #expect(try preparable(#"{"cmd": "update", "tree": "big", "element": "g4", "children": []}"#))
        // A label, a value, a hint: the order stays, and the update is applied at once.
        #expect(try !preparable(#"{"cmd": "update", "tree": "big", "element": "g4-1", "set": {"label": "x", "hint": "y"}}"#))
        // A small tree, an unknown element, the root, a property that does not decode: at once.
        #expect(try !preparable(#"{"cmd": "update", "tree": "player", "element": "rating", "set": {"sortPriority": 3}}"#))
        #expect(try !preparable(#"{"cmd": "update", "tree": "big", "element": "nope", "set": {"sortPriority": 1}}"#))
        #expect(try !preparable(#"{"cmd": "update", "tree": "big", "element": "root", "remove": true}"#))
        #expect(try !preparable(#"{"cmd": "update", "tree": "big", "element": "g4", "set": {"sortPriority": "high"}}"#))
        #expect(try !preparable(#"{"cmd": "next"}"#))
    }
}
