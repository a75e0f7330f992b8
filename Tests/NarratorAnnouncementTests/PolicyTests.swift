import NarratorExperiments
import NarratorModel
import NarratorSpeechPlan
import Testing

@Suite("Announcement policies and traces")
struct PolicyTests {
    @Test("a policy file overrides its base and keeps the rest")
    func parseOverrides() throws {
        let json = try JSONParser().parse(#"{"base": "strict", "burst": 6, "refill": 1.5, "ttl": null}"#)
        let policy = try AnnouncementPolicy.parse(json, name: "chatty")
        #expect(policy.name == "chatty")
        #expect(policy.rateLimit == .init(burst: 6, refillPerSecond: 1.5))
        #expect(policy.timeToLive == nil)
        #expect(policy.dedupWindow == AnnouncementPolicy.strict.dedupWindow)
        #expect(policy.queueLimit == AnnouncementPolicy.strict.queueLimit)
    }

    @Test("every built-in survives a round trip through its JSON")
    func roundTrip() throws {
        for builtIn in AnnouncementPolicy.builtIns {
            let parsed = try AnnouncementPolicy.parse(builtIn.json, name: "x")
            #expect(parsed == builtIn)
        }
    }

    @Test("an unknown parameter is refused with a suggestion")
    func unknownKey() throws {
        let json = try JSONParser().parse(#"{"bursts": 2}"#)
        #expect(throws: AnnouncementPolicyError.invalid(key: "bursts", "unknown parameter; did you mean \"burst\"?")) {
            try AnnouncementPolicy.parse(json, name: "x")
        }
    }

    @Test("bad values name the parameter", arguments: [#"{"ttl": -1}"#, #"{"queueLimit": 0}"#, #"{"coalesce": "yes"}"#, #"{"base": "loud"}"#])
    func badValues(text: String) throws {
        let json = try JSONParser().parse(text)
        do {
            _ = try AnnouncementPolicy.parse(json, name: "x")
            Issue.record("accepted \(text)")
        } catch {
            let key = json.objectValue!.keys[0]
            #expect(error.description.contains("\"\(key)\""))
        }
    }

    @Test("a tree's own policy decides its announcements")
    func perTreePolicy() {
        var s = Session(.default, speechLength: .milliseconds(100))
        s.simulation.setPolicy(AnnouncementPolicy.none, forTree: "logs")
        let logs = [s.announce("Same", tree: "logs"), s.announce("Same", tree: "logs")]
        let chat = [s.announce("Same", tree: "chat"), s.announce("Same", tree: "chat")]
        s.drain()
        #expect(logs.map { s.outcome($0) } == [.spoken, .spoken])
        #expect(s.record(logs[1])?.policy == "none")
        #expect(chat.map { s.outcome($0) } == [.spoken, .deduplicated])
        #expect(s.record(chat[1])?.policy == "default")
    }

    @Test("traces: lines are sorted by time, comments skipped, mistakes located")
    func traces() throws {
        let events = try AnnouncementTrace.parse(
            """
            # a comment
            {"at": 0.5, "kind": "focus", "tree": "chat", "element": "send"}
            {"at": 0.25, "kind": "announce", "text": "3 new messages", "priority": "low", "tree": "chat"}
            """)
        #expect(events.map(\.at) == [.milliseconds(250), .milliseconds(500)])
        #expect(events[0].kind == .announce(text: "3 new messages", priority: .low, key: nil))
        #expect(events[1].kind == .focus(text: "send"))
        #expect(throws: TraceError(line: 2, reason: "\"priority\" must be low, default or high, not \"urgent\"")) {
            try AnnouncementTrace.parse("\n{\"at\": 1, \"kind\": \"announce\", \"text\": \"x\", \"priority\": \"urgent\"}")
        }
        #expect(throws: TraceError(line: 1, reason: "unknown field \"txt\"; did you mean \"text\"?")) {
            try AnnouncementTrace.parse("{\"at\": 1, \"kind\": \"announce\", \"txt\": \"x\"}")
        }
    }
}
