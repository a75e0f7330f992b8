import Testing
@testable import NarratorCore

/// The bridge starting on a desktop, following focus, and narratord's side of it: each scenario
/// fed to the pure core on a virtual desktop, with the exact requests it sends narratord.
@Suite struct BridgeStartTests {
    static let fixture = FakeApplication(name: "fixture", windows: [ATSPIMappingTests.window], bus: ":1.9")
    static let dialog = FakeApplication(name: "zenity", windows: [ATSPIMirrorTests.question()], bus: ":1.7")
    static let tree = "fixture: Narrator fixture"

    static func path(_ number: Int) -> String { "/org/a11y/atspi/accessible/\(number)" }

    @Test("starting, the bridge says hello, lists the desktop, and registers each window of each application as an ephemeral tree")
    func startRegistersEveryWindow() throws {
        var h = BridgeHarness(Self.fixture, Self.dialog)
        h.start()
        let sent = h.sent()
        #expect(sent.first == .hello(client: "narrator-atspi"))
        #expect(sent.dropFirst().compactMap(\.registeredTree) == ["zenity: Question", Self.tree])
        for command in sent.dropFirst() {
            guard case .register(_, let ephemeral, let focusEvents) = command else {
                Issue.record("not a register: \(command)")
                continue
            }
            #expect(ephemeral && focusEvents, "the trees go with the bridge, and it hears where the user moves")
        }
        #expect(h.bridge.mirror.trees.count == 2)
        #expect(h.said() == [])
    }

    @Test("the application's focus moving to a stop moves Narrator's there, once for GTK's doubled event")
    func focusFollows() {
        var h = BridgeHarness(Self.fixture)
        h.start()
        _ = h.sent()
        h.focus(":1.9", Self.path(3))
        #expect(h.sent() == [.focus(tree: Self.tree, element: "3")])
        h.focus(":1.9", Self.path(3))
        #expect(h.sent() == [])
        // A focus lost is not a move.
        h.event("object:state-changed:focused", ":1.9", Self.path(4), detail1: 0)
        #expect(h.sent() == [])
    }

    @Test("a focus on an object not mirrored yet waits for the application's read, then moves")
    func focusOnANewObjectWaitsForTheRead() {
        var h = BridgeHarness(Self.fixture)
        h.start()
        _ = h.sent()
        // A new button appears and takes the focus before any read saw it.
        h.desktop[":1.9"]?.windows[0].children[0].children.append(ATSPIMappingTests.object(20, .pushButton, "Undo", actions: ["click"]))
        h.focus(":1.9", Self.path(20))
        let sent = h.sent()
        #expect(sent.count == 2)
        guard case .update(let tree, _, let announce, _)? = sent.first else {
            Issue.record("the new button is not sent first: \(sent)")
            return
        }
        #expect(tree == Self.tree)
        #expect(announce == false, "what changed on the way to a focus is not said")
        #expect(sent.last == .focus(tree: Self.tree, element: "20"))
    }

    @Test("narratord refusing an update (an id that moved) has the window registered again whole, not the mirror left out of step")
    func aRefusedUpdateRegistersTheWindowAgain() {
        var h = BridgeHarness(Self.fixture)
        h.start()
        _ = h.sent()
        h.desktop[":1.9"]?.windows[0].children[0].children[0].name = "Save as"
        h.event("object:property-change:accessible-name", ":1.9", Self.path(3))
        guard case .update? = h.sent().first else {
            Issue.record("no update for the renamed button")
            return
        }
        let updateIndex = h.requestIDs.count - 1
        h.feed(.daemonLine(h.refusal(of: updateIndex, .unknownElement, "tree \"fixture: Narrator fixture\" has no element \"3\"")))
        #expect(h.sent().compactMap(\.registeredTree) == [Self.tree])
        #expect(h.said() == [#"narrator-atspi: update fixture: Narrator fixture was refused: tree "fixture: Narrator fixture" has no element "3""#])
    }

    @Test("a line from narratord the bridge cannot read is said in the journal, never dropped in silence")
    func anUnreadableLineIsJournalled() {
        var h = BridgeHarness(Self.fixture)
        h.start()
        h.feed(.daemonLine("{not json"))
        h.feed(.daemonLine(#"{"id":999,"ok":true}"#))
        h.feed(.daemonLine(#"{"event":"action","tree":"t"}"#))
        let said = h.said()
        #expect(said.count == 3)
        #expect(said[0].hasPrefix("narrator-atspi: narratord sent a line that is not JSON"))
        #expect(said[1] == #"narrator-atspi: narratord sent a reply to no request of the bridge: {"id":999,"ok":true}"#)
        #expect(said[2].hasPrefix("narrator-atspi: cannot read narratord's event"))
        #expect(said[2].contains("element"), "the journal names the missing field: \(said[2])")
    }

    @Test("a reply of the wrong shape for the request it answers is an error in the journal")
    func aReplyOfTheWrongShapeIsJournalled() {
        var h = BridgeHarness(Self.fixture)
        h.start()
        // The hello's reply (request 0) without its fields.
        h.feed(.daemonLine(#"{"id":\#(h.requestIDs[0]),"ok":true}"#))
        let said = h.said()
        #expect(said.count == 1)
        #expect(said.first?.hasPrefix("narrator-atspi: cannot read narratord's reply to hello") == true, "\(said)")
    }
}
