import Foundation
import NarratorModel
import Testing

/// Every limit answers with a clear error naming what is wrong, and the connection goes on.
@Suite struct LimitsTests {
    @Test func limitsAreEnforcedAndTheConnectionSurvives() throws {
        let daemon = try DaemonHarness(extraArguments: ["--max-depth", "3", "--max-nodes", "10", "--max-string", "12", "--max-trees", "2", "--max-text", "20"])
        let client = try daemon.client()
        func tree(_ name: String, _ root: JSONValue) -> JSONValue { ["cmd": "register", "document": ["tree": .string(name), "root": root]] }

        let deep = try client.request(tree("deep", ["id": "a", "children": [["id": "b", "children": [["id": "c", "children": [["id": "d"]]]]]]]))
        #expect(deep["error"]?["code"] == "invalid_document")
        #expect(deep["error"]?["problems"] == [["path": "root.children[0].children[0].children", "message": "nodes nested deeper than 3 levels"]])

        let wide = try client.request(tree("wide", ["id": "r", "children": .array((0..<12).map { ["id": .string("n\($0)"), "label": "x"] })]))
        #expect(wide["error"]?["problems"]?.arrayValue?.first?["message"] == "more than 10 nodes in one tree")

        let long = try client.request(tree("long", ["id": "r", "label": "a label far too long"]))
        #expect(long["error"]?["problems"] == [["path": "root.label", "message": "string longer than 12 characters"]])

        #expect(try client.request(tree("one", ["id": "r", "label": "One"]))["ok"] == true)
        #expect(try client.request(tree("two", ["id": "r", "label": "Two"]))["ok"] == true)
        // Replacing a tree it owns is fine; a third one is not.
        #expect(try client.request(tree("two", ["id": "r", "label": "Two again"]))["ok"] == true)
        let third = try client.request(tree("three", ["id": "r", "label": "Three"]))
        #expect(third["error"]?["code"] == "limit_exceeded")
        #expect(third["error"]?["message"]?.stringValue?.contains("already owns 2 trees") == true)

        let shout = try client.request(["cmd": "announce", "text": "this announcement is far too long"])
        #expect(shout["error"] == ["code": "limit_exceeded", "message": "announce.text: 33 characters, over the limit of 20 (--max-text); the text was refused and nothing was spoken"])
        #expect(try client.request(["cmd": "speak", "text": "also far too long to say"])["error"]?["code"] == "limit_exceeded")

        // The same connection, and another one, keep working.
        #expect(try client.request(["cmd": "focus", "tree": "one"])["utterance"] == "One")
        #expect(try daemon.ctl("hello").status == 0)
    }

    @Test func aFloodingClientHitsItsOwnQueueLimitAndOthersAreServed() throws {
        let daemon = try DaemonHarness(extraArguments: ["--max-queued", "2", "--policy", "none"])
        let flooder = try daemon.client()
        let other = try daemon.client()
        var decisions: [String] = []
        for index in 0..<6 {
            let reply = try flooder.request(["cmd": "announce", "text": .string("flood message number \(index) that takes a while to say"), "priority": "low"])
            decisions.append(reply["ok"] == true ? (reply["decision"]?.stringValue ?? "?") : (reply["error"]?["code"]?.stringValue ?? "?"))
        }
        // One speaks, two wait, and the rest are refused with the limit named.
        #expect(decisions.filter { $0 == "limit_exceeded" }.count == 3, "\(decisions)")
        let refused = try flooder.request(["cmd": "announce", "text": "one more", "priority": "low"])
        #expect(refused["error"]?["message"]?.stringValue?.contains("already has 2 announcements waiting") == true)
        // Another connection's announcement is still taken.
        let reply = try other.request(["cmd": "announce", "text": "Download complete", "priority": "low"])
        #expect(reply["ok"] == true, "\(reply.compactText)")
    }

    @Test func limitOptionsAreChecked() throws {
        let result = try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--max-trees", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--max-trees must be a whole number from 1 to 100000, not \"0\""))
    }
}
