import Foundation
import NarratorModel
import Testing

/// The socket protocol itself: replies, errors, events, and many clients at once.
@Suite struct ProtocolTests {
    @Test func helloReportsVersions() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.client()
        let reply = try client.request(["cmd": "hello", "client": "test"])
        #expect(reply["ok"] == true)
        #expect(reply["protocol"] == 1)
        #expect(reply["daemon"] == .string(NarratorVersion.daemon))
        #expect(reply["id"] == 1)
    }

    @Test func badRequestsGetErrorsAndOtherClientsKeepWorking() throws {
        let daemon = try DaemonHarness()
        let bad = try daemon.client()
        let good = try daemon.client()
        _ = try good.request(["cmd": "register", "document": try loadExample("segmented.json")])

        try bad.sendRaw("{this is not json")
        let malformed = try bad.next()
        #expect(malformed["ok"] == false)
        #expect(malformed["error"]?["code"] == "malformed_json")

        let unknown = try bad.request(["cmd": "fcous", "tree": "quality"])
        #expect(unknown["error"]?["code"] == "unknown_command")
        #expect(unknown["error"]?["message"] == #"unknown command "fcous"; did you mean "focus"?"#)
        #expect(unknown["id"] == 1)

        let missing = try bad.request(["cmd": "focus"])
        #expect(missing["error"] == ["code": "missing_field", "message": #"focus: missing "tree""#])

        let unknownElement = try bad.request(["cmd": "focus", "tree": "quality", "element": "meduim"])
        #expect(unknownElement["error"]?["code"] == "unknown_element")
        #expect(unknownElement["error"]?["message"] == #"tree "quality" has no element "meduim"; did you mean "medium"?"#)

        let invalid = try bad.request(["cmd": "register", "document": ["tree": "x", "root": ["id": "r", "frame": [1, 2, 3]]]])
        #expect(invalid["error"]?["code"] == "invalid_document")
        #expect(invalid["error"]?["problems"] == [["path": "root.frame", "message": "expected 4 numbers, got 3"]])

        // The same connection, and the other one, still work.
        #expect(try bad.request(["cmd": "focus", "tree": "quality"])["utterance"] == "Stream quality, Low, button")
        #expect(try good.request(["cmd": "next"])["utterance"] == "selected, Medium, button")
    }

    @Test func overLongRequestIsRefusedAndTheConnectionSurvives() throws {
        let daemon = try DaemonHarness(extraArguments: ["--max-message", "2048"])
        let client = try daemon.client()
        try client.sendRaw(#"{"cmd": "speak", "text": ""# + String(repeating: "a", count: 5000) + #""}"#)
        let reply = try client.next()
        #expect(reply["error"]?["code"] == "message_too_long")
        #expect(try client.request(["cmd": "hello"])["ok"] == true)
    }

    @Test func boundaryLeavesFocusWhereItWas() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.client()
        _ = try client.request(["cmd": "register", "document": try loadExample("segmented.json")])
        _ = try client.request(["cmd": "focus", "tree": "quality", "element": "high"])
        let end = try client.request(["cmd": "next"])
        #expect(end["boundary"] == true)
        #expect(end["focus"] == ["tree": "quality", "element": "high"])
        #expect(try client.request(["cmd": "previous"])["focus"] == ["tree": "quality", "element": "medium"])
    }

    @Test func updatesNotificationsAndEphemeralTrees() throws {
        let daemon = try DaemonHarness()
        let app = try daemon.client()
        _ = try app.request(["cmd": "register", "document": try loadExample("segmented.json"), "ephemeral": true])
        _ = try app.request(["cmd": "focus", "tree": "quality", "element": "low"])
        // A value update of the focused element speaks only when asked.
        let silent = try app.request(["cmd": "update", "tree": "quality", "element": "low", "set": ["value": "2 kbps"]])
        #expect(silent["utterance"] == nil)
        let spoken = try app.request(["cmd": "update", "tree": "quality", "element": "low", "set": ["value": "3 kbps"], "announce": true])
        #expect(spoken["utterance"] == "3 kbps")
        // screenChanged moves focus to the given element and speaks it.
        let screen = try app.request(["cmd": "update", "tree": "quality", "element": "high", "set": ["label": "Highest"], "notify": "screenChanged", "focus": "high"])
        #expect(screen["utterance"] == "Highest, button")
        // Removing the focused element moves focus to the nearest stop.
        let removed = try app.request(["cmd": "update", "tree": "quality", "element": "high", "remove": true])
        #expect(removed["focus"] == ["tree": "quality", "element": "medium"])
        // An ephemeral tree goes with its owner.
        app.connection.close()
        var trees = try daemon.ctl("--json", "trees")
        for _ in 0..<50 where trees.stdout.contains("quality") {
            usleep(20_000)
            trees = try daemon.ctl("--json", "trees")
        }
        #expect(try JSONParser().parse(trees.stdout)["trees"] == [])
    }

    @Test func monitorStreamsSpokenItems() throws {
        let daemon = try DaemonHarness()
        let monitor = try daemon.client()
        #expect(try monitor.request(["cmd": "subscribe"])["ok"] == true)
        _ = try daemon.ctl("register", "examples/segmented.json")
        _ = try daemon.ctl("focus", "quality", "medium")
        var started: JSONValue?
        for _ in 0..<20 {
            let event = try monitor.nextEvent()
            if event["phase"] == "started" { started = event; break }
        }
        #expect(started?["event"] == "speech")
        #expect(started?["kind"] == "focus")
        #expect(started?["text"] == "Stream quality, selected, Medium, button")
        #expect(started?["tree"] == "quality")
        #expect(started?["element"] == "medium")
    }
}

/// Every command once over a raw socket, as an app or script in any language would send it.
@Suite struct RawClientTests {
    @Test func everyCommandOverTheSocket() throws {
        let daemon = try DaemonHarness()
        let app = try daemon.client()
        func ok(_ request: JSONValue) throws -> JSONValue {
            let reply = try app.request(request)
            #expect(reply["ok"] == true, "\(request.compactText) -> \(reply.compactText)")
            return reply
        }
        #expect(try ok(["cmd": "hello", "client": "raw"])["protocol"] == 1)
        #expect(try ok(["cmd": "register", "document": try loadExample("favorites.json")])["stops"] == 9)
        #expect(try ok(["cmd": "trees"])["trees"]?.arrayValue?.first?["owner"]?["name"] == "raw")
        #expect(try ok(["cmd": "show", "tree": "library"])["stops"]?.arrayValue?.count == 9)
        #expect(try ok(["cmd": "export", "tree": "library"])["document"]?["tree"] == "library")
        #expect(try ok(["cmd": "focus", "tree": "library", "element": "favorites"])["utterance"] == "Library, Favorites, 3 items, button")
        #expect(try ok(["cmd": "next"])["focus"]?["element"] == "inbox")
        #expect(try ok(["cmd": "previous"])["focus"]?["element"] == "favorites")
        #expect(try ok(["cmd": "last"])["focus"]?["element"] == "tab-search")
        #expect(try ok(["cmd": "first"])["focus"]?["element"] == "heading")
        #expect(try ok(["cmd": "touch", "x": 30, "y": 120])["focus"]?["element"] == "favorites")
        #expect(try ok(["cmd": "actions"])["actions"] == ["Increment Count"])
        #expect(try ok(["cmd": "action", "name": "Increment Count"])["delivered"] == true)
        #expect(try app.nextEvent()["action"] == "Increment Count")
        #expect(try ok(["cmd": "activate"])["action"] == "activate")
        #expect(try app.nextEvent()["action"] == "activate")
        #expect(try ok(["cmd": "rotor"])["rotors"]?.arrayValue?.map { $0["name"] } == ["headings", "links", "buttons", "actions", "Unread"])
        #expect(try ok(["cmd": "rotor", "name": "actions", "direction": "next"])["action"] == "Increment Count")
        #expect(try ok(["cmd": "rotor", "name": "Unread"])["focus"]?["element"] == "inbox")
        #expect(try app.request(["cmd": "adjust", "direction": "up"])["error"]?["code"] == "not_adjustable")
        #expect(try app.request(["cmd": "magic-tap"])["error"]?["code"] == "no_handler")
        #expect(try app.request(["cmd": "escape"])["error"]?["code"] == "no_handler")
        #expect(try ok(["cmd": "update", "tree": "library", "element": "inbox", "set": ["value": "3 unread"], "announce": true])["utterance"] == "3 unread")
        #expect(try ok(["cmd": "announce", "text": "Sync complete", "priority": "low", "tree": "library"])["decision"] == "queued")
        #expect(try ok(["cmd": "speak", "text": "Hello"])["utterance"] == "Hello")
        #expect(try ok(["cmd": "stop"])["ok"] == true)
        #expect(try ok(["cmd": "set", "key": "pitch", "value": 60])["value"] == "60")
        #expect(try ok(["cmd": "get", "key": "pitch"])["value"] == "60")
        #expect(try ok(["cmd": "voices"])["voices"]?.arrayValue?.isEmpty == false)
        let status = try ok(["cmd": "status"])
        #expect(status["focus"] == ["tree": "library", "element": "inbox"])
        #expect(status["audio"]?["output"] == "null")
        #expect(try ok(["cmd": "subscribe"])["subscribed"] == true)
        #expect(try ok(["cmd": "unregister", "tree": "library"])["tree"] == "library")
    }
}
