import Foundation
import Testing

/// A desktop keeps narratord running for days: what one large request used while it was parsed
/// must not stay in the daemon's resident memory afterwards.
@Suite struct MemoryTests {
    /// Resident memory of a process (VmRSS), from /proc.
    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { throw DaemonHarness.HarnessError(message: "no VmRSS in /proc/\(pid)/status") }
        return kilobytes * 1024
    }

    /// A tree of `count` labelled buttons in groups of 100, as JSON text.
    static func document(nodes count: Int) -> String {
        var groups: [String] = []
        var made = 1
        while made < count {
            let group = groups.count
            var items: [String] = []
            made += 1
            for item in 0..<100 where made < count {
                items.append(#"{"id": "g\#(group)-\#(item)", "label": "Item \#(item)", "traits": ["button"], "frame": [\#(item * 10), 0, 10, 50]}"#)
                made += 1
            }
            groups.append(#"{"id": "g\#(group)", "children": [\#(items.joined(separator: ","))]}"#)
        }
        return #"{"tree": "big", "root": {"id": "root", "children": [\#(groups.joined(separator: ","))]}}"#
    }

    @Test func aLargeRefusedRequestLeavesNoParseMemoryResident() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.client()
        #expect(try client.request(["cmd": "hello"])["ok"] == true)
        let before = try Self.residentBytes(of: daemon.process.processIdentifier)
        // About 1.7 MB of JSON whose parsed value tree takes some 10 MB in small pieces; the
        // command is unknown, so the daemon parses all of it and then refuses it. (Not under a
        // "document" key: a request's document is only checked, never built into values.)
        let text = Self.document(nodes: 20_000)
        try client.sendRaw(#"{"id": 1, "cmd": "inspect", "payload": "# + text + "}")
        let reply = try client.next()
        #expect(reply["error"]?["code"] == "unknown_command", "\(reply.compactText)")
        // Given back once no other large request has come for a moment (half a second), off the
        // loop: waited for here with a generous deadline.
        var grown = Int.max
        let deadline = Date().addingTimeInterval(20)
        while grown >= 2 << 20, Date() < deadline {
            grown = try Self.residentBytes(of: daemon.process.processIdentifier) - before
            if grown >= 2 << 20 { usleep(100_000) }
        }
        #expect(grown < 2 << 20, "the daemon kept \(grown >> 10) KiB after refusing a \(text.utf8.count >> 10) KiB request")
        // And it goes on serving.
        #expect(try client.request(["cmd": "hello"])["ok"] == true)
    }
}
