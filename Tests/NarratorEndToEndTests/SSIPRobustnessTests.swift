import Foundation
import NarratorSystem
import Testing

/// narratord's SSIP server against what real connections do: pipelining, bare LFs, commands
/// inside a message, a megabyte message, bytes that are not UTF-8, clients that leave mid-SPEAK
/// or never read, and a crowd; through a real daemon on real Unix sockets.
@Suite(.serialized) struct SSIPRobustnessTests {
    /// Waits until the log (committed on its own thread) holds a row whose text contains `text`.
    func logHolds(_ daemon: DaemonHarness, _ text: String) throws -> Bool {
        for _ in 0..<100 {
            if try daemon.ctl("log", "--limit", "50").stdout.contains(text) { return true }
            usleep(100_000)
        }
        return false
    }

    @Test func pipelinedCommandsAreAnsweredInOrder() throws {
        let daemon = try DaemonHarness(ssip: true)
        let client = try SSIPTestClient(path: daemon.ssipSocket)
        try client.write(
            "SET SELF CLIENT_NAME user:pipe:main\r\nSET SELF NOTIFICATION ALL on\r\nSPEAK\r\nhello pipe\r\n.\r\nHISTORY GET CLIENT_ID\r\nGET RATE\r\n")
        #expect(try client.reply() == ["208 OK CLIENT NAME SET"])
        #expect(try client.reply() == ["220 OK NOTIFICATION SET"])
        #expect(try client.reply() == ["230 OK RECEIVING DATA"])
        let queued = try client.reply()
        #expect(queued.last == "225 OK MESSAGE QUEUED" && queued.count == 2)
        // Events may come between the replies; the replies keep their order.
        var rest = try client.read(until: "702 END").filter { !$0.last!.hasPrefix("70") }
        if rest.count < 2 { rest += [try client.reply(), try client.reply()].filter { !$0.last!.hasPrefix("70") } }
        #expect(rest.first?.last == "245 OK CLIENT ID SENT")
        #expect(try logHolds(daemon, "hello pipe"))
    }

    /// Texts that replace each other faster than any could be heard: a burst in one write is
    /// taken whole (every message acknowledged, each superseded one ended with 703 and logged),
    /// but only the last is synthesized and heard, so a flood costs no speech it cuts off. The WAV
    /// output writes a file for each utterance the engine began, cut or not.
    @Test func aBurstOfTextsIsHeardOnlyAtItsEnd() throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-burst-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        // Without the gate, so that nothing is deduplicated or throttled: every text is played or cut.
        let daemon = try DaemonHarness(audio: "wav:" + wav, extraArguments: ["--policy", "none"], ssip: true)
        let client = try SSIPTestClient(path: daemon.ssipSocket)
        try expectReply(try client.command("SET SELF NOTIFICATION ALL on"), "220 OK NOTIFICATION SET")
        let count = 20
        try client.write((1...count).map { "SPEAK\r\nburst text number \($0)\r\n.\r\n" }.joined())
        var ids: [String] = []
        var events: [String: [String]] = [:]
        // The replies in order, and every event of every message until the last one ends.
        while events[ids.last ?? "", default: []].last != "702 END" || ids.count < count {
            let lines = try client.reply()
            switch lines.last {
            case "230 OK RECEIVING DATA": continue
            case "225 OK MESSAGE QUEUED": ids.append(String(lines[0].dropFirst(4)))
            case let final? where final.hasPrefix("70"): events[String(lines[0].dropFirst(4)), default: []].append(final)
            default: Issue.record("unexpected \(lines)")
            }
        }
        #expect(ids.count == count && Set(ids).count == count)
        for id in ids.dropLast() {
            #expect(events[id] == ["703 CANCELED"], "message \(id) was cut before anything of it was heard: \(events[id] ?? [])")
        }
        #expect(events[ids.last!] == ["701 BEGIN", "702 END"])
        let synthesized = try FileManager.default.contentsOfDirectory(atPath: wav).filter { $0.hasSuffix(".wav") }
        #expect(synthesized.count == 1, "only the last text was synthesized: \(synthesized.sorted())")
        // Every message has its row; only the last was spoken.
        #expect(try logHolds(daemon, "burst text number \(count)"))
        let rows = try daemon.ctl("log", "--limit", "100", "--csv").stdout.split(separator: "\n").filter { $0.contains("burst text number") }
        #expect(rows.count == count, "\(rows)")
        #expect(rows.filter { $0.contains(",spoken,") }.map { $0.contains("number \(count)") } == [true], "\(rows)")
    }

    @Test func aBareLFNeverEndsACommandAndHangsNobody() throws {
        let daemon = try DaemonHarness(ssip: true)
        let slow = try SSIPTestClient(path: daemon.ssipSocket)
        try slow.write("SET SELF RATE 0\n")
        // Nothing is answered: the line is not finished...
        #expect(throws: (any Error).self) { try slow.reply(timeout: .milliseconds(300)) }
        // ...and everybody else is served meanwhile.
        let other = try SSIPTestClient(path: daemon.ssipSocket)
        #expect(try other.command("GET RATE") == ["251-0", "251 OK GET RETURNED"])
        #expect(try daemon.ctl("status").status == 0)
        // The CRLF ends it, LF included, as Speech Dispatcher reads it: not a number.
        #expect(try slow.command("") == ["511 ERR PARAMETER NOT A NUMBER"])
    }

    @Test func commandsInsideAMessageAreItsText() throws {
        let daemon = try DaemonHarness(ssip: true)
        let client = try SSIPTestClient(path: daemon.ssipSocket)
        try expectReply(try client.command("SPEAK"), "230 OK RECEIVING DATA")
        try client.write("QUIT\r\nSET SELF RATE 10\r\n.\r\n")
        #expect(try client.reply().last == "225 OK MESSAGE QUEUED")
        // Still connected, and the rate was never set.
        #expect(try client.command("GET RATE") == ["251-0", "251 OK GET RETURNED"])
        #expect(try logHolds(daemon, "QUIT"))
    }

    @Test func aMegabyteMessageIsTakenAndCancelled() throws {
        let daemon = try DaemonHarness(ssip: true)
        let client = try SSIPTestClient(path: daemon.ssipSocket)
        try client.command("SET SELF NOTIFICATION ALL on")
        try expectReply(try client.command("SPEAK"), "230 OK RECEIVING DATA")
        let line = String(repeating: "word ", count: 3_276) + "\r\n"  // 16 KiB
        try client.write(String(repeating: line, count: 64) + ".\r\n")
        #expect(try client.reply().last == "225 OK MESSAGE QUEUED")
        _ = try client.read(until: "701 BEGIN")
        try client.write("CANCEL self\r\n")
        let after = try client.read(until: "213 OK CANCELED")
        #expect(after.contains { $0.last == "703 CANCELED" })
    }

    @Test func bytesThatAreNotUTF8AreReplacedNotRefused() throws {
        let daemon = try DaemonHarness(ssip: true)
        let client = try SSIPTestClient(path: daemon.ssipSocket)
        try expectReply(try client.command("SPEAK"), "230 OK RECEIVING DATA")
        try client.write(bytes: Array("caf".utf8) + [0xFF, 0xFE] + Array(" latin one\r\n.\r\n".utf8))
        #expect(try client.reply().last == "225 OK MESSAGE QUEUED")
        #expect(try logHolds(daemon, "latin one"))
    }

    @Test func aClientThatLeavesMidMessageSaysNothing() throws {
        let daemon = try DaemonHarness(ssip: true)
        do {
            let leaver = try SSIPTestClient(path: daemon.ssipSocket)
            try expectReply(try leaver.command("SPEAK"), "230 OK RECEIVING DATA")
            try leaver.write("secret half\r\n.")
        }
        let other = try SSIPTestClient(path: daemon.ssipSocket)
        try other.command("SET SELF NOTIFICATION ALL on")
        #expect(try other.speak("after the leaver").last == "225 OK MESSAGE QUEUED")
        _ = try other.read(until: "702 END")
        #expect(try logHolds(daemon, "after the leaver"))
        #expect(try !daemon.ctl("log").stdout.contains("secret half"))
    }

    @Test func aClientThatNeverReadsItsEventsDelaysNobody() throws {
        let daemon = try DaemonHarness(ssip: true)
        let deaf = try SSIPTestClient(path: daemon.ssipSocket)
        // Every event on, hundreds of messages, and never a read.
        var burst = "SET SELF NOTIFICATION ALL on\r\nSET SELF PRIORITY progress\r\n"
        for n in 0..<500 { burst += "SPEAK\r\nstep \(n)\r\n.\r\n" }
        try deaf.write(burst)
        let other = try SSIPTestClient(path: daemon.ssipSocket)
        try other.command("SET SELF NOTIFICATION ALL on")
        try other.command("SET SELF PRIORITY important")
        #expect(try other.speak("still served").last == "225 OK MESSAGE QUEUED")
        _ = try other.read(until: "702 END")
        #expect(try daemon.ctl("status").status == 0)
    }

    @Test func twoHundredClientsAtOnce() throws {
        let daemon = try DaemonHarness(extraArguments: ["--policy", "none"], ssip: true)
        let clients = try (0..<200).map { _ in try SSIPTestClient(path: daemon.ssipSocket) }
        for (n, client) in clients.enumerated() {
            try client.write("SET SELF CLIENT_NAME user:crowd\(n):main\r\nSET SELF PRIORITY notification\r\nSPEAK\r\nclient \(n)\r\n.\r\n")
        }
        for client in clients {
            #expect(try client.reply() == ["208 OK CLIENT NAME SET"])
            #expect(try client.reply() == ["202 OK PRIORITY SET"])
            #expect(try client.reply() == ["230 OK RECEIVING DATA"])
            #expect(try client.reply().last == "225 OK MESSAGE QUEUED")
        }
        // Distinct client ids, each connection its own.
        let ids = try Set(clients.map { try $0.command("HISTORY GET CLIENT_ID").first ?? "" })
        #expect(ids.count == 200)
    }
}
