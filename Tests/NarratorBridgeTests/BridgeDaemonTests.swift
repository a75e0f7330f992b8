@testable import NarratorModel
import Testing

/// narratord's replies and lines: a refused update has its window registered again whole; other
/// refusals, lines that cannot be decoded, replies to no request and replies of the wrong shape
/// are journalled.
@Suite struct BridgeDaemonTests {
    typealias F = BridgeFixtures

    @Test("narratord refusing an update (an id that moved) has the window registered again whole, not the mirror left out of step")
    func aRefusedUpdateRegistersTheWindowAgain() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Save as" }
        h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        #expect(h.sent() == [.set(F.tree, "3", #"{"label":"Save as"}"#, announce: true)])
        let update = h.requestIDs.count - 1
        h.feed(.daemonLine(h.refusal(of: update, .unknownElement, #"tree "fixture: Narrator fixture" has no element "3""#)))
        #expect(h.sent() == [.register(h.desktop[":1.9"]!.windows[0], application: "fixture")])
        #expect(h.said() == [#"narrator-atspi: update fixture: Narrator fixture was refused (tree "fixture: Narrator fixture" has no element "3"); registering the window again whole"#])
    }

    @Test("the refusals of updates sent before the window was registered again do not cascade: one registration, one journal line")
    func refusalsDoNotCascade() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        // Three updates in flight, all of which narratord refuses (its tree is not the mirror's).
        for name in ["Save as", "Save all", "Save now"] {
            h.desktop[":1.9"]?.change(F.path(3)) { $0.name = name }
            h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        }
        #expect(h.sent().count == 3)
        let updates = (h.requestIDs.count - 3)..<h.requestIDs.count
        for index in updates { h.feed(.daemonLine(h.refusal(of: index, .unknownElement, #"tree "fixture: Narrator fixture" has no element "3""#))) }
        #expect(h.sent() == [.register(h.desktop[":1.9"]!.windows[0], application: "fixture")])
        let said = h.said()
        #expect(said.count == 1, "\(said)")
        // The next change is an update of the tree registered again, as usual.
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Save" }
        h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        #expect(h.sent() == [.set(F.tree, "3", #"{"label":"Save"}"#, announce: true)])
    }

    @Test("a refused registration sends no updates to a tree narratord does not have; the window is registered again once it changes")
    func aRefusedRegistrationWaitsForAChange() throws {
        var h = BridgeHarness(F.fixture)
        h.start()
        let register = h.requestIDs.count - 1
        _ = h.sent()
        h.feed(.daemonLine(h.refusal(of: register, .invalidDocument, "root.frame: bad")))
        #expect(h.said() == ["narrator-atspi: register fixture: Narrator fixture was refused (root.frame: bad); it is registered again when the window changes"])
        // Read again with nothing changed: nothing is sent.
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(30))
        #expect(h.sent() == [])
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Save as" }
        h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        #expect(h.sent() == [.register(h.desktop[":1.9"]!.windows[0], application: "fixture")])
    }

    @Test("a refused focus or announce is journalled only")
    func otherRefusalsAreJournalled() throws {
        var h = BridgeHarness(F.fixture)
        h.start()
        h.focus(":1.9", F.path(3))
        let focus = h.requestIDs.count - 1
        _ = h.sent()
        h.feed(.daemonLine(h.refusal(of: focus, .unknownTree, "no tree")))
        #expect(h.sent() == [])
        #expect(h.said() == ["narrator-atspi: focus fixture: Narrator fixture 3 was refused: no tree"])
        // Each reply answers its request once: the same line again is a reply to no request.
        h.feed(.daemonLine(h.refusal(of: focus, .unknownTree, "no tree")))
        #expect(h.said().first?.hasPrefix("narrator-atspi: narratord sent a reply to no request of the bridge") == true)
    }

    @Test("a line from narratord the bridge cannot read is said in the journal, never dropped in silence")
    func anUnreadableLineIsJournalled() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.feed(.daemonLine("{not json"))
        h.feed(.daemonLine(#"{"id":999,"ok":true}"#))
        h.feed(.daemonLine(#"{"event":"action","tree":"t"}"#))
        let said = h.said()
        try #require(said.count == 3)
        #expect(said[0].hasPrefix("narrator-atspi: narratord sent a line that is not JSON"))
        #expect(said[1] == #"narrator-atspi: narratord sent a reply to no request of the bridge: {"id":999,"ok":true}"#)
        #expect(said[2].hasPrefix("narrator-atspi: cannot read narratord's event"))
        #expect(said[2].contains("element"), "the journal names the missing field: \(said[2])")
        #expect(h.sent() == [])
        #expect(h.calls.isEmpty)
    }

    @Test("a reply of the wrong shape for the request it answers is an error in the journal")
    func aReplyOfTheWrongShapeIsJournalled() {
        var h = BridgeHarness(F.fixture)
        h.start()
        // The hello's reply (request 0) without its fields.
        h.feed(.daemonLine(#"{"id":\#(h.requestIDs[0]),"ok":true}"#))
        let said = h.said()
        #expect(said.count == 1)
        #expect(said.first?.hasPrefix("narrator-atspi: cannot read narratord's reply to hello") == true, "\(said)")
    }

    @Test("replies that accept, and speech notices, change nothing")
    func acceptedRepliesAreQuiet() {
        var h = BridgeHarness(F.fixture)
        h.start()
        _ = h.sent()
        h.feed(.daemonLine(#"{"id":\#(h.requestIDs[0]),"ok":true,"protocol":1,"daemon":"narratord 1.0","client":3}"#))
        h.feed(.daemonLine(#"{"id":\#(h.requestIDs[1]),"ok":true,"tree":"\#(F.tree)","stops":11,"nodes":16,"replaced":false}"#))
        h.feed(.daemonLine(#"{"event":"speech","phase":"queued","kind":"focus","utterance":1,"at":0.5}"#))
        #expect(h.said() == [])
        #expect(h.sent() == [])
    }
}
