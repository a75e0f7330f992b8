import NarratorCore
import NarratorProtocol
import Testing

/// What one client may ask, so that no client exhausts the daemon for the others.
@Suite struct LimitTests {
    @Test func onlyTheDaemonsUserAndRootAreServed() {
        var h = Harness()
        let (stranger, refused) = h.connect(pid: 9, uid: 2000)
        #expect(
            refused == [
                .journal(.warning, "refused client #1: uid 2000 (pid 9) is not the daemon's user (uid 1000)"),
                .send(stranger, .reply(Reply(id: nil, .failure(ReplyError(.permissionDenied, "narratord serves only its own user (uid 1000) and root; you are uid 2000"))))),
                .close(stranger),
            ])
        // Whatever it manages to send before the close is ignored.
        #expect(h.request(stranger, .status).isEmpty)
        let (root, accepted) = h.connect(pid: 10, uid: 0)
        #expect(accepted == [.journal(.debug, "client #2 connected (pid 10)")])
        #expect(h.request(root, .trees).body(to: root) == .trees([]))
    }

    @Test func aConnectionOwnsAtMostMaxTreesTrees() throws {
        var limits = DaemonLimits()
        limits.treesPerClient = 1
        var h = Harness(limits: limits)
        let app = h.client()
        try h.register(app, json: #"{"tree": "a", "root": {"id": "r", "label": "A"}}"#)
        let second = try h.register(app, json: #"{"tree": "b", "root": {"id": "r", "label": "B"}}"#)
        #expect(second.error(to: app) == ReplyError(.limitExceeded, "this connection already owns 1 trees, the most allowed (--max-trees); unregister one first"))
        // Replacing its own tree is not a new one.
        let again = try h.register(app, json: #"{"tree": "a", "root": {"id": "r", "label": "A again"}}"#)
        #expect(again.body(to: app) == .registered(RegisterReport(tree: "a", stops: 1, nodes: 1, replaced: true)))
    }

    @Test func aTreeUnregisteredOrLeftBehindNoLongerCountsAgainstMaxTrees() throws {
        var limits = DaemonLimits()
        limits.treesPerClient = 1
        var h = Harness(limits: limits)
        let app = h.client()
        try h.register(app, json: #"{"tree": "a", "root": {"id": "r", "label": "A"}}"#)
        #expect(h.request(app, .unregister(tree: "a")).body(to: app) == .unregistered(tree: "a"))
        let b = try h.register(app, json: #"{"tree": "b", "root": {"id": "r", "label": "B"}}"#)
        #expect(b.body(to: app) == .registered(RegisterReport(tree: "b", stops: 1, nodes: 1, replaced: false)))
        // Another connection takes "b" over once its owner has left: it is the newcomer's one tree.
        h.feed(.disconnected(app))
        let other = h.client()
        let taken = try h.register(other, json: #"{"tree": "b", "root": {"id": "r", "label": "B again"}}"#)
        #expect(taken.body(to: other) == .registered(RegisterReport(tree: "b", stops: 1, nodes: 1, replaced: true)))
        let third = try h.register(other, json: #"{"tree": "c", "root": {"id": "r", "label": "C"}}"#)
        #expect(third.error(to: other)?.code == .limitExceeded)
    }

    @Test func textsLongerThanMaxTextAreRefused() {
        var limits = DaemonLimits()
        limits.textLength = 5
        var h = Harness(limits: limits)
        let app = h.client()
        let speak = h.request(app, .speak(text: "too long"))
        #expect(speak.error(to: app) == ReplyError(.limitExceeded, "speak.text: 8 characters, over the limit of 5 (--max-text); the text was refused and nothing was spoken"))
        #expect(speak.played.isEmpty)
        #expect(h.request(app, .announce(text: "also too long", priority: .default, tree: nil, element: nil, key: nil)).error(to: app)?.code == .limitExceeded)
    }

    @Test func aFloodingClientHitsItsOwnQueueLimitAndOthersAreServed() {
        var limits = DaemonLimits()
        limits.queuedPerClient = 2
        var h = Harness(limits: limits, policy: .none)
        let flood = h.client()
        let polite = h.client()
        for n in 1...3 { h.request(flood, .announce(text: "flood \(n)", priority: .default, tree: nil, element: nil, key: nil)) }
        let fourth = h.request(flood, .announce(text: "flood 4", priority: .default, tree: nil, element: nil, key: nil))
        #expect(
            fourth.error(to: flood)
                == ReplyError(
                    .limitExceeded,
                    "this connection already has 2 announcements waiting, the most allowed (--max-queued); wait for them to be spoken"))
        let other = h.request(polite, .announce(text: "mine", priority: .default, tree: nil, element: nil, key: nil))
        #expect(other.appendedRows.map(\.text) == ["mine"])
        // Once one is spoken, the flooding client may queue again.
        h.finishSpeaking()
        #expect(h.request(flood, .announce(text: "flood 5", priority: .default, tree: nil, element: nil, key: nil)).replies(to: flood).isEmpty)
    }

    @Test func aTreeOwnedByAnotherLiveConnectionCannotBeTakenOver() throws {
        var h = Harness()
        let first = h.client(pid: 1)
        let second = h.client(pid: 2)
        try h.register(first, example: "player.json")
        #expect(
            try h.register(second, example: "player.json").error(to: second)
                == ReplyError(.treeOwned, #"tree "player" is registered by another connection, client (pid 1); unregister it first or use another name"#))
        h.feed(.disconnected(first))
        #expect(try h.register(second, example: "player.json").body(to: second) == .registered(RegisterReport(tree: "player", stops: 6, nodes: 15, replaced: true)))
    }

    @Test func anInvalidDocumentListsEveryProblemWithItsPath() throws {
        var h = Harness()
        let app = h.client()
        let effects = try h.register(app, json: #"{"tree": "t", "root": {"id": "r", "children": [{"id": "a", "lable": "Play"}, {"id": "a"}]}}"#)
        let error = try #require(effects.error(to: app))
        #expect(error.code == .invalidDocument)
        #expect(error.problems.map(\.path) == ["root.children[0].lable", "root.children[1].id"])
        #expect(error.message.hasPrefix("the tree document is invalid (2 problem(s)): root.children[0].lable: unknown key; did you mean \"label\"?"))
    }
}

/// The words of the refusals a new user meets first (issue 15).
@Suite struct TextRefusalTests {
    @Test func anEmptyTextIsCalledEmpty() {
        var h = Harness()
        let app = h.client()
        for command in ["announce", "speak"] {
            let effects = h.request(app, #"{"id": 1, "cmd": "\#(command)", "text": ""}"#)
            #expect(effects.error(to: app) == ReplyError(.invalidField, "\(command).text: the text is empty; give the words to say"))
            #expect(effects.played.isEmpty)
        }
        // Other fields that need a value say it was empty, not that it was "a string".
        #expect(h.request(app, #"{"id": 2, "cmd": "focus", "tree": ""}"#).error(to: app)?.message == "focus.tree: expected a non-empty string, got an empty one")
    }

    @Test func aTooLongTextIsSaidToBeRefusedNotCut() {
        var limits = DaemonLimits()
        limits.textLength = 5
        var h = Harness(limits: limits)
        let app = h.client()
        let announce = h.request(app, .announce(text: "far too long", priority: .default, tree: nil, element: nil, key: nil))
        #expect(
            announce.error(to: app)
                == ReplyError(.limitExceeded, "announce.text: 12 characters, over the limit of 5 (--max-text); the text was refused and nothing was spoken"))
        #expect(announce.played.isEmpty && announce.appendedRows.isEmpty)
    }
}
