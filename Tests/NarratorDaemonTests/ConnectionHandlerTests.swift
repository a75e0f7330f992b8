import Foundation
import Glibc
import NarratorBase
@testable import NarratorDaemon
import NarratorSpeech
import NarratorSystem
import Testing

/// narratord's connection handler (``SessionDriver``) on an in-memory loop: the exact bytes a
/// client is sent for what it sends, over JSON lines and SSIP, with no socket.
///
/// Each scenario runs in a child process of its own (an exit test): eSpeak NG may be owned by one
/// engine per process, and the speech tests in this process hold theirs for good. The child
/// writes what the clients read (``Transcript``) on its standard output, and the test compares it.
@Suite struct ConnectionHandlerTests {
    static let unknownCommand = #"{"id":ID,"ok":false,"error":{"code":"unknown_command","message":"unknown command \"nope\""}}"#

    /// A request is answered once it is whole, however its bytes arrive.
    @Test func aRequestSplitAcrossReadsIsAnsweredOnceWhole() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { try Scenario.aRequestSplitAcrossReadsIsAnsweredOnceWhole() })
        let reply = Self.unknownCommand.replacingOccurrences(of: "ID", with: "1")
        #expect(Transcript.lines(in: result.standardOutputContent) == [#"read """#, #"read "\#(reply)\n""#])
    }

    /// Someone else's client is told why and closed, before anything it sends is read.
    @Test func anotherUsersClientIsToldWhyAndClosed() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { try Scenario.anotherUsersClientIsToldWhyAndClosed() })
        let refusal =
            #"{"id":null,"ok":false,"error":{"code":"permission_denied","message":"narratord serves only its own user (uid \#(getuid())) and root; you are uid \#(getuid() &+ 1)"}}"#
        #expect(Transcript.lines(in: result.standardOutputContent) == [#"read "\#(refusal)\n""#, "closed: closed by the daemon"])
    }

    /// A line over `--max-message` is refused with its own error and the connection goes on;
    /// a line that is not UTF-8 likewise.
    @Test func anOverlongOrInvalidLineIsRefusedAndTheConnectionGoesOn() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                try Scenario.anOverlongOrInvalidLineIsRefusedAndTheConnectionGoesOn()
            })
        let replies = [
            #"{"id":null,"ok":false,"error":{"code":"message_too_long","message":"request longer than 1024 bytes; it was discarded"}}"#,
            #"{"id":null,"ok":false,"error":{"code":"invalid_utf8","message":"request is not valid UTF-8; it was discarded"}}"#,
            Self.unknownCommand.replacingOccurrences(of: "ID", with: "2"),
        ]
        #expect(Transcript.lines(in: result.standardOutputContent) == [#"read ""# + replies.map { $0 + #"\n"# }.joined() + #"""#])
    }

    /// A client that sends requests and does not read the replies is cut off once they would pass
    /// the output limit (twice `--max-message`, at least 4 MiB), and another client goes on being answered.
    @Test func aClientThatDoesNotReadIsCutOffAndAnotherIsStillAnswered() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                try Scenario.aClientThatDoesNotReadIsCutOffAndAnotherIsStillAnswered()
            })
        let reply = Self.unknownCommand.replacingOccurrences(of: "ID", with: "\"other\"")
        #expect(
            Transcript.lines(in: result.standardOutputContent) == [
                #"read """#, "closed: the client stopped reading: 4194362 bytes of replies would exceed the 4194304-byte output buffer",
                #"read "\#(reply)\n""#,
            ])
    }

    /// SSIP's lines end in CRLF both ways; QUIT is answered, then the connection closes.
    @Test func ssipIsAnsweredInCRLFLinesAndQuitCloses() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { try Scenario.ssipIsAnsweredInCRLFLinesAndQuitCloses() })
        #expect(
            Transcript.lines(in: result.standardOutputContent) == [
                #"read "208 OK CLIENT NAME SET\r\n""#, #"read "231 HAPPY HACKING\r\n""#, "closed: closed by the daemon",
            ])
    }

    /// On SIGTERM what was read is answered, nothing new is read, and every connection closes
    /// once the preparation worker is done: the loop ends.
    @Test func sigtermAnswersWhatWasReadThenCloses() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { try Scenario.sigtermAnswersWhatWasReadThenCloses() })
        let reply = Self.unknownCommand.replacingOccurrences(of: "ID", with: "3")
        #expect(
            Transcript.lines(in: result.standardOutputContent) == [
                #"read "\#(reply)\n""#, "closed: the daemon shut down", #"read """#, "closed: the daemon shut down", "finished: true",
            ])
    }

    /// Large lines go to be prepared off the loop, as the session says, and what a client sends
    /// after one waits for it: on SIGTERM each line read is answered, in the order it was sent
    /// (answered, or refused as stopping if it had not come back by then: the worker's timing
    /// decides which), before every connection closes; nothing handed out is lost.
    @Test func largeLinesOutAtSigtermAreAnsweredInOrderBeforeTheConnectionsClose() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                try Scenario.largeLinesOutAtSigtermAreAnsweredInOrderBeforeTheConnectionsClose()
            })
        let lines = Transcript.lines(in: result.standardOutputContent)
        #expect(lines.dropFirst() == ["closed: the daemon shut down", "finished: true"])
        let stopping = #"{"id":ID,"ok":false,"error":{"code":"shutting_down","message":"narratord is stopping and takes no new requests"}}"#
        let read = lines.first ?? ""
        #expect(read.hasPrefix(#"read ""#) && read.hasSuffix(#"\n""#), "\(read)")
        let replies = read.dropFirst(6).dropLast(3).components(separatedBy: #"\n"#)
        #expect(replies.count == 3, "\(replies)")
        for (index, reply) in replies.enumerated() {
            let either = [Self.unknownCommand, stopping].map { $0.replacingOccurrences(of: "ID", with: "\(index + 1)") }
            #expect(either.contains(reply), "\(reply)")
        }
    }
}

/// What each test's child process does: the clients' exchange with the daemon, written out.
private enum Scenario {
    static func aRequestSplitAcrossReadsIsAnsweredOnceWhole() throws {
        let daemon = try InMemoryDaemon()
        var transcript = Transcript()
        let client = try daemon.connectJSON()
        daemon.loop.send(text: #"{"id":1,"cmd":"#, from: client)
        transcript.read(client, daemon)
        daemon.loop.send(text: #""nope"}"# + "\n", from: client)
        transcript.read(client, daemon)
        transcript.print()
    }

    static func anotherUsersClientIsToldWhyAndClosed() throws {
        let daemon = try InMemoryDaemon()
        var transcript = Transcript()
        let client = try daemon.connectJSON(peer: PeerCredentials(pid: 7, uid: getuid() &+ 1, gid: getgid()))
        transcript.read(client, daemon)
        transcript.print()
    }

    static func anOverlongOrInvalidLineIsRefusedAndTheConnectionGoesOn() throws {
        let daemon = try InMemoryDaemon(["--max-message", "1024"])
        var transcript = Transcript()
        let client = try daemon.connectJSON()
        daemon.loop.send(text: String(repeating: "x", count: 2000) + "\n", from: client)
        daemon.loop.send([0xff, 0xfe, UInt8(ascii: "\n")], from: client)
        daemon.loop.send(text: #"{"id":2,"cmd":"nope"}"# + "\n", from: client)
        transcript.read(client, daemon)
        transcript.print()
    }

    static func aClientThatDoesNotReadIsCutOffAndAnotherIsStillAnswered() throws {
        // The output limit is twice --max-message, at least 4 MiB: 4 MiB here.
        let daemon = try InMemoryDaemon(["--max-message", "1024"])
        var transcript = Transcript()
        let stuck = try daemon.connectJSON()
        let other = try daemon.connectJSON()
        daemon.loop.stopTaking(stuck)
        // About 90 bytes a reply: 50,000 of them pass 4 MiB.
        for batch in 0..<50 {
            let lines = (0..<1000).map { #"{"id":\#(batch * 1000 + $0),"cmd":"nope"}"# + "\n" }.joined()
            daemon.loop.send(text: lines, from: stuck)
        }
        transcript.read(stuck, daemon)
        daemon.loop.send(text: #"{"id":"other","cmd":"nope"}"# + "\n", from: other)
        transcript.read(other, daemon)
        transcript.print()
    }

    static func ssipIsAnsweredInCRLFLinesAndQuitCloses() throws {
        let daemon = try InMemoryDaemon()
        var transcript = Transcript()
        let client = try daemon.connectSSIP()
        daemon.loop.send(text: "SET SELF CLIENT_NAME joe:app:main\r\nQU", from: client)
        transcript.read(client, daemon)
        daemon.loop.send(text: "IT\r\n", from: client)
        transcript.read(client, daemon)
        transcript.print()
    }

    static func sigtermAnswersWhatWasReadThenCloses() throws {
        let daemon = try InMemoryDaemon()
        var transcript = Transcript()
        let json = try daemon.connectJSON()
        let ssip = try daemon.connectSSIP()
        daemon.loop.send(text: #"{"id":3,"cmd":"nope"}"# + "\n", from: json)
        daemon.loop.deliver(.terminate)
        daemon.loop.send(text: #"{"id":4,"cmd":"nope"}"# + "\n", from: json)
        // The preparation worker asks the loop to shut down once it is done: wait for that.
        while !daemon.loop.hasFinished, daemon.loop.runPosted() {}
        transcript.read(json, daemon)
        transcript.read(ssip, daemon)
        transcript.note("finished: \(daemon.loop.hasFinished)")
        transcript.print()
    }

    static func largeLinesOutAtSigtermAreAnsweredInOrderBeforeTheConnectionsClose() throws {
        let daemon = try InMemoryDaemon()
        var transcript = Transcript()
        let json = try daemon.connectJSON()
        // Over the 64 KiB from which a line is prepared off the loop.
        let pad = String(repeating: "x", count: 70_000)
        daemon.loop.send(text: #"{"id":1,"cmd":"nope","pad":"\#(pad)"}"# + "\n", from: json)
        daemon.loop.send(text: #"{"id":2,"cmd":"nope","pad":"\#(pad)"}"# + "\n", from: json)
        daemon.loop.send(text: #"{"id":3,"cmd":"nope"}"# + "\n", from: json)
        daemon.loop.deliver(.terminate)
        while !daemon.loop.hasFinished, daemon.loop.runPosted() {}
        transcript.read(json, daemon)
        transcript.note("finished: \(daemon.loop.hasFinished)")
        transcript.print()
    }
}
