import Glibc
import NarratorBase
@testable import NarratorSystem
import Testing

/// The in-memory loop frames, writes, overflows and closes as the poll loop does, with bytes in
/// and out and no socket: what lets a handler be tested without one.
@Suite struct InMemoryLoopTests {
    static let lines: Int32 = 3
    static let ssip: Int32 = 4
    static let me = PeerCredentials(pid: 42, uid: getuid(), gid: getgid())

    private func loop(
        configuration: PollLoopConfiguration = PollLoopConfiguration(), handler: TestHandler
    ) throws -> InMemoryLoop<Never> {
        try InMemoryLoop(listeners: [Self.lines: .newline, Self.ssip: .crlf], configuration: configuration, inbox: LoopInbox(), handler: handler)
    }

    /// Bytes split anywhere come out as whole lines, each echoed with its newline.
    @Test func linesSplitAcrossSendsAreEchoedWhole() throws {
        let recorder = Recorder<Observed>()
        let loop = try loop(handler: TestHandler(recorder: recorder))
        let client = try #require(loop.connect(to: Self.lines, peer: Self.me))
        loop.send(text: "one\ntw", from: client)
        #expect(loop.readText(client) == "one\n")
        loop.send(text: "o\nthree", from: client)
        #expect(loop.readText(client) == "two\n")
        // The last line, unterminated, is read when the client closes its end; then the connection ends.
        loop.hangUp(client)
        #expect(loop.readText(client) == "three\n")
        #expect(loop.disconnection(of: client) == .peerClosed)
        #expect(recorder.all.contains(.disconnected(client, .peerClosed)))
    }

    /// A CRLF listener's lines arrive without their CRLF, and invalid UTF-8 on a newline
    /// listener is reported as such.
    @Test func eachListenerFramesItsOwnWay() throws {
        let recorder = Recorder<Observed>()
        let loop = try loop(handler: TestHandler(recorder: recorder) { input, client, loop in
            if case .line(let text) = input { loop.write("[\(text)]\r\n", to: client) }
        })
        let ssip = try #require(loop.connect(to: Self.ssip, peer: Self.me))
        let json = try #require(loop.connect(to: Self.lines, peer: Self.me))
        #expect(loop.framing(of: ssip) == .crlf)
        loop.send(text: "SET SELF\r\nQU", from: ssip)
        loop.send(text: "IT\r\n", from: ssip)
        #expect(loop.readText(ssip) == "[SET SELF]\r\n[QUIT]\r\n")
        loop.send([0xff, 0xfe, UInt8(ascii: "\n")], from: json)
        #expect(loop.read(json) == [])
        #expect(recorder.all.contains(.input(json, .invalidUTF8(byteCount: 2))))
    }

    /// A client that stops reading is disconnected once its replies would pass the output
    /// limit, and another client goes on being served.
    @Test func aClientThatStopsReadingOverflowsAndAnotherIsStillServed() throws {
        let recorder = Recorder<Observed>()
        let loop = try loop(configuration: PollLoopConfiguration(outputBufferLimit: 1000), handler: TestHandler(recorder: recorder))
        let stuck = try #require(loop.connect(to: Self.lines, peer: Self.me))
        let other = try #require(loop.connect(to: Self.lines, peer: Self.me))
        loop.stopTaking(stuck)
        let line = String(repeating: "x", count: 299)
        for _ in 0..<3 { loop.send(text: line + "\n", from: stuck) }
        #expect(loop.pendingOutput(of: stuck) == 900)
        #expect(loop.disconnection(of: stuck) == nil)
        loop.send(text: line + "\n", from: stuck)
        #expect(loop.disconnection(of: stuck) == .outputOverflow(limit: 1000, queued: 1200))
        #expect(loop.read(stuck) == [])
        #expect(recorder.all.contains(.log(.disconnected(stuck, peer: Self.me, reason: .outputOverflow(limit: 1000, queued: 1200)))))
        loop.send(text: "still here\n", from: other)
        #expect(loop.readText(other) == "still here\n")
    }

    /// What the handler sends before closing is written first; nothing sent after is.
    @Test func aClosedClientGetsWhatWasSentBeforeTheClose() throws {
        let loop = try loop(handler: TestHandler(recorder: Recorder(), admission: .ownerOrRoot))
        let stranger = try #require(loop.connect(to: Self.lines, peer: PeerCredentials(pid: 7, uid: getuid() &+ 1, gid: 0)))
        #expect(loop.readText(stranger) == #"{"error":"permission denied: uid \#(getuid() &+ 1) is not the daemon's user"}"# + "\n")
        #expect(loop.disconnection(of: stranger) == .closedByServer)
        #expect(loop.send("late", to: stranger) == .notConnected)
    }

    /// Shutting down writes what a reading peer is owed and ends; a peer that does not read
    /// is cut off once the flush time passes on the virtual clock.
    @Test func shutdownFlushesThenGivesUpOnThePeerThatDoesNotRead() throws {
        let loop = try loop(configuration: PollLoopConfiguration(shutdownFlushTimeout: .seconds(2)), handler: TestHandler(recorder: Recorder()))
        let reader = try #require(loop.connect(to: Self.lines, peer: Self.me))
        let stuck = try #require(loop.connect(to: Self.lines, peer: Self.me))
        loop.stopTaking(reader)
        loop.stopTaking(stuck)
        loop.send(text: "for the reader\n", from: reader)
        loop.send(text: "for the stuck\n", from: stuck)
        loop.deliver(.terminate)
        #expect(loop.connect(to: Self.lines, peer: Self.me) == nil)
        loop.resumeTaking(reader)
        #expect(loop.readText(reader) == "for the reader\n")
        #expect(loop.disconnection(of: reader) == .shutdown)
        #expect(!loop.hasFinished)
        loop.advance(by: .seconds(1))
        #expect(loop.disconnection(of: stuck) == nil)
        loop.advance(by: .seconds(1))
        #expect(loop.disconnection(of: stuck) == .shutdownFlushTimedOut(unsentBytes: 14))
        #expect(loop.hasFinished)
    }

    /// Timers fire in the order of their deadlines when the virtual clock passes them, and
    /// what another thread posted is run on the test's thread.
    @Test func timersFireOnTheVirtualClockAndPostsRunOnTheLoop() throws {
        let recorder = Recorder<Observed>()
        let loop = try loop(handler: TestHandler(recorder: recorder))
        let client = try #require(loop.connect(to: Self.lines, peer: Self.me))
        loop.schedule(after: .seconds(5)) { $0.send("five", to: client) }
        loop.schedule(after: .seconds(3)) { $0.send("three", to: client) }
        let cancelled = loop.schedule(after: .seconds(4)) { $0.send("four", to: client) }
        loop.cancel(cancelled)
        loop.advance(by: .seconds(2))
        #expect(loop.readText(client) == "")
        loop.advance(by: .seconds(10))
        #expect(loop.readText(client) == "three\nfive\n")
        let inbox = loop.inbox
        let poster = JoinableThread { inbox.execute { $0.send("posted", to: client) } }
        #expect(loop.runPosted())
        poster.join()
        #expect(loop.readText(client) == "posted\n")
    }
}
