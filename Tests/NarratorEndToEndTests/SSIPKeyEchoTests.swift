import Foundation
import NarratorModel
import NarratorSystem
import Testing

/// A key echo in the middle of long text, through a real narratord speaking into WAV files: the
/// key is heard at once, then the long text goes on from the sentence it cut, and its client hears
/// of one BEGIN and one END (docs/ssip.md).
@Suite struct SSIPKeyEchoTests {
    /// 45 words in three sentences: long text (more than the default 40 words). The first is short
    /// and the second long, so that a key a couple of seconds in comes in the middle of the second.
    static let first = "Here is the news. "
    static let second =
        "The second sentence of this message goes on for a long while, with many words in it, so that a key "
        + "typed a couple of seconds after the message began is heard in the middle of it. "
    static let third = "Then comes a third sentence, short."
    static let text = first + second + third

    @Test func aKeyInTheMiddleOfLongTextIsHeardAtOnceAndTheTextGoesOnFromTheSentenceItCut() throws {
        #expect(Self.text.split(separator: " ").count > 40)
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-keyecho-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let daemon = try DaemonHarness(audio: "wav:" + wav, extraArguments: ["--policy", "none"], ssip: true)
        let monitor = try daemon.client()
        #expect(try monitor.request(["cmd": "subscribe"])["subscribed"] == true)
        let client = try SSIPTestClient(path: daemon.ssipSocket)
        try expectReply(try client.command("SET SELF NOTIFICATION ALL on"), "220 OK NOTIFICATION SET")
        // Faster than the default, so that the test takes a few seconds, not twenty.
        try expectReply(try client.command("SET SELF RATE 50"), "203 OK RATE SET")

        var replies = Replies()
        func take(_ lines: [String]) { replies.take(lines) }
        take(try client.speak(Self.text))
        let long = try #require(replies.messages.first)
        while replies.events[long] != ["701 BEGIN"] { take(try client.reply()) }
        // Well into the second sentence (the first takes about a second at this rate).
        usleep(2_500_000)
        take(try client.command("KEY a"))
        #expect(replies.messages.count == 2)
        let key = replies.messages.last ?? ""
        while replies.events[long]?.last != "702 END" { take(try client.reply(timeout: .seconds(60))) }
        // The client heard of its message once: no cancel, no pause, one BEGIN and one END.
        #expect(replies.events[long] == ["701 BEGIN", "702 END"], "\(replies.events)")
        #expect(replies.events[key] == ["701 BEGIN", "702 END"], "\(replies.events)")

        // The monitor: the text, cut by the key, then the key, then the text from its second sentence.
        var started: [(utterance: Double, text: String)] = []
        var interrupted: [Double: Double] = [:]
        var finished: Set<Double> = []
        while started.count < 3 || !finished.contains(started[2].utterance) {
            let event = try monitor.nextEvent(timeout: .seconds(30))
            guard let utterance = event["utterance"]?.numberValue else { continue }
            if event["phase"] == "started", let text = event["text"]?.stringValue { started.append((utterance, text)) }
            if event["phase"] == "interrupted", let by = event["by"]?.numberValue { interrupted[utterance] = by }
            if event["phase"] == "finished" { finished.insert(utterance) }
        }
        #expect(started.map(\.text) == [Self.text, "a", Self.second + Self.third], "\(started)")
        #expect(interrupted[started[0].utterance] == started[1].utterance, "the key cut the first part")

        // The WAV files: the first part, the key between, the rest.
        let files = try FileManager.default.contentsOfDirectory(atPath: wav).filter { $0.hasSuffix(".wav") }.sorted()
        #expect(files.count == 3, "\(files)")
        let seconds = try files.map { try Self.seconds(ofWAV: wav + "/" + $0) }
        if seconds.count == 3 {
            #expect(seconds[1] < seconds[0] && seconds[1] < seconds[2], "the key is the short one between: \(seconds)")
            #expect(seconds[0] > 1.5, "the first part was heard into its second sentence: \(seconds)")
        }

        // The log: the part the key cut (interrupted by the key), the key, the rest spoken.
        var rows: [JSONValue] = []
        for _ in 0..<100 {
            rows = try JSONParser().parse(try daemon.ctl("log", "--json").stdout).arrayValue ?? []
            if rows.count >= 3 { break }
            usleep(100_000)
        }
        let ordered = rows.sorted { ($0["started"]?.numberValue ?? 0) < ($1["started"]?.numberValue ?? 0) }
        let summary = ordered.map { row in
            [String(row["text"]?.stringValue?.prefix(7) ?? "-"), row["outcome"]?.stringValue ?? "-", row["interrupted_by"]?.stringValue ?? "-"].joined(separator: " ")
        }
        // (Each row's text is what the client sent.)
        #expect(summary == ["Here is interrupted key", "a spoken -", "Here is spoken -"], "\(rows)")
    }

    /// The case: with `engine.long piper` and `engine.keys espeak-ng`, the long text is
    /// heard in Piper, the key in eSpeak NG at once, then Piper goes on with the rest. The rest starts
    /// at a sentence of the text (which one depends on Piper's pace on this machine).
    @Test func longTextInPiperGoesOnAfterAKeyInESpeak() throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-keyecho-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let daemon = try DaemonHarness(audio: "wav:" + wav, extraArguments: ["--policy", "none"], ssip: true)
        #expect(try daemon.ctl("set", "engine.long", "piper").status == 0)
        #expect(try daemon.ctl("set", "engine.keys", "espeak-ng").status == 0)
        // Chosen, Piper starts now (its model loads before the text comes).
        var ready = false
        for _ in 0..<300 where !ready {
            ready = try daemon.ctl("status").stdout.contains("piper: ready")
            if !ready { usleep(100_000) }
        }
        #expect(ready, "\(daemon.log)")
        let monitor = try daemon.client()
        #expect(try monitor.request(["cmd": "subscribe"])["subscribed"] == true)
        let client = try SSIPTestClient(path: daemon.ssipSocket)
        try expectReply(try client.command("SET SELF NOTIFICATION ALL on"), "220 OK NOTIFICATION SET")

        var replies = Replies()
        func take(_ lines: [String]) { replies.take(lines) }
        take(try client.speak(Self.text))
        let long = try #require(replies.messages.first)
        while replies.events[long] != ["701 BEGIN"] { take(try client.reply(timeout: .seconds(30))) }
        usleep(2_500_000)
        take(try client.command("KEY a"))
        let key = replies.messages.count == 2 ? replies.messages[1] : ""
        while replies.events[long]?.last != "702 END" { take(try client.reply(timeout: .seconds(90))) }
        #expect(replies.events[long] == ["701 BEGIN", "702 END"], "\(replies.events)")
        #expect(replies.events[key] == ["701 BEGIN", "702 END"], "\(replies.events)")

        var started: [(utterance: Double, text: String, engine: String)] = []
        var finished: Set<Double> = []
        while started.count < 3 || !finished.contains(started[2].utterance) {
            let event = try monitor.nextEvent(timeout: .seconds(60))
            guard let utterance = event["utterance"]?.numberValue else { continue }
            if event["phase"] == "started", let text = event["text"]?.stringValue {
                started.append((utterance, text, event["engine"]?.stringValue ?? "-"))
            }
            if event["phase"] == "finished" { finished.insert(utterance) }
        }
        #expect(started.map(\.engine) == ["piper", "espeak-ng", "piper"], "\(started)")
        #expect(started.first?.text == Self.text && started.dropFirst().first?.text == "a", "\(started)")
        let rest = started.count == 3 ? started[2].text : ""
        // 2.5 s in, Piper is past its first sentence: the rest is not the whole text again.
        #expect([Self.second + Self.third, Self.third].contains(rest), "the rest starts at a later sentence: \(rest)")
        // Three utterances, all heard: Piper's, eSpeak NG's key, Piper's rest.
        let files = try FileManager.default.contentsOfDirectory(atPath: wav).filter { $0.hasSuffix(".wav") }.sorted()
        #expect(files.count == 3, "\(files)")
        let seconds = try files.map { try Self.seconds(ofWAV: wav + "/" + $0) }
        #expect(seconds.allSatisfy { $0 > 0.1 }, "\(seconds)")
        #expect(!daemon.log.contains("engine piper stopped") && !daemon.log.contains("engine piper exited"), "\(daemon.log)")
    }

    /// An SSIP client's messages (their ids, from `225`) and each one's events (`70x`), in order.
    struct Replies {
        var messages: [String] = []
        var events: [String: [String]] = [:]

        mutating func take(_ lines: [String]) {
            switch lines.last {
            case "225 OK MESSAGE QUEUED": messages.append(String(lines[0].dropFirst(4)))
            case let final? where final.hasPrefix("70"): events[String(lines[0].dropFirst(4)), default: []].append(final)
            default: break
            }
        }
    }

    /// The length of a 16-bit mono WAV file, from its header's rate and its data's size.
    static func seconds(ofWAV path: String) throws -> Double {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count > 44 else { return 0 }
        let rate = Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16 | Int(bytes[27]) << 24
        return Double(bytes.count - 44) / 2 / Double(max(rate, 1))
    }
}
