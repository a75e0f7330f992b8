import Foundation
import NarratorCore
import NarratorProtocol
import NarratorTestSupport
import Testing

/// A request line prepared before it reaches the session (as the daemon prepares a large one off
/// its loop thread, `register`'s tree compiled) is answered exactly as the same line given whole.
@Suite struct PreparedRequestTests {
    static func registerLine(_ example: String, id: Int) throws -> String {
        let document = try String(contentsOfFile: BuiltProducts.repository + "/examples/" + example, encoding: .utf8)
        return #"{"id": \#(id), "cmd": "register", "document": \#(document)}"#
    }

    static func prepared(_ line: String, _ harness: Harness) -> PreparedRequest {
        PreparedRequest(line: line, requests: RequestDecoder(), documents: harness.session.workspace.decoder)
    }

    /// Two sessions, one given each line whole and one given it prepared, say the same.
    static func sameReplies(_ lines: [String]) -> (whole: [Reply], prepared: [Reply]) {
        var whole = Harness()
        var prepared = Harness()
        let a = whole.client()
        let b = prepared.client()
        var replies: ([Reply], [Reply]) = ([], [])
        for line in lines {
            replies.0 += whole.request(a, line).replies(to: a)
            replies.1 += prepared.feed(.prepared(b, Self.prepared(line, prepared))).replies(to: b)
        }
        return replies
    }

    @Test func aPreparedRegisterIsAnsweredAsTheLineWouldBe() throws {
        let lines = [
            try Self.registerLine("player.json", id: 1),
            #"{"id": 2, "cmd": "focus", "tree": "player", "element": "rating"}"#,
            try Self.registerLine("player.json", id: 3),
            #"{"id": 4, "cmd": "register", "document": {"tree": "bad", "root": {"id": "r", "lable": "x"}}}"#,
            #"{"id": 5, "cmd": "register"}"#,
            #"{"id": 6, "cmd": "nope"}"#,
            #"{"id": 7, "cmd": "trees"}"#,
        ]
        let (whole, prepared) = Self.sameReplies(lines)
        #expect(prepared == whole)
        #expect(prepared.count == lines.count)
        #expect(prepared.map(\.id) == (1...7).map { .number(Double($0)) })
        guard case .success(.registered(let first)) = prepared[0].outcome, case .success(.registered(let again)) = prepared[2].outcome else {
            Issue.record("not registered: \(prepared)")
            return
        }
        #expect(first.replaced == false && again.replaced == true)
        #expect(prepared[3].error?.code == .invalidDocument)
    }

    @Test func aPreparedRegisterOfAnotherConnectionsTreeIsRefused() throws {
        var harness = Harness()
        let owner = harness.client()
        let other = harness.client()
        try harness.register(owner, example: "player.json")
        let effects = harness.feed(.prepared(other, Self.prepared(try Self.registerLine("player.json", id: 9), harness)))
        #expect(effects.error(to: other)?.code == .treeOwned)
        #expect(effects.reply(to: other)?.id == 9)
    }

    @Test func aPreparedRequestAfterShutdownOrFromAGoneClientTakesNothing() throws {
        var harness = Harness()
        let client = harness.client()
        let gone = harness.client()
        harness.feed(.disconnected(gone))
        #expect(harness.feed(.prepared(gone, Self.prepared(try Self.registerLine("player.json", id: 1), harness))).isEmpty)
        harness.feed(.shutdown)
        let effects = harness.feed(.prepared(client, Self.prepared(try Self.registerLine("player.json", id: 2), harness)))
        #expect(effects.error(to: client)?.code == .shuttingDown)
        #expect(effects.reply(to: client)?.id == 2)
        #expect(harness.session.workspace.trees.isEmpty)
    }
}

private extension Reply {
    var error: ReplyError? {
        if case .failure(let error) = outcome { error } else { nil }
    }
}
