import Glibc
import NarratorBase
@testable import NarratorSystem
import Synchronization
import Testing

@Suite struct PollLoopTests {
    @Test func echoesForAHundredConcurrentClients() throws {
        let server = try RunningServer()
        defer { server.stop() }
        let failures = Mutex<[String]>([])
        let linesPerClient = 200
        let threads = (0..<100).map { index in
            JoinableThread {
                do {
                    let client = try server.connect()
                    let lines = (0..<linesPerClient).map { "client \(index) line \($0) " + String(repeating: "é", count: $0 % 17) }
                    if index % 2 == 0 {
                        // Pipelined: everything sent before anything is read.
                        for line in lines { try client.send(line: line) }
                        for line in lines where try client.line() != line {
                            failures.withLock { $0.append("client \(index): wrong reply for \(line)") }
                        }
                    } else {
                        // Lock-step round trips.
                        for line in lines {
                            try client.send(line: line)
                            if try client.line() != line {
                                failures.withLock { $0.append("client \(index): wrong reply for \(line)") }
                            }
                        }
                    }
                    client.close()
                } catch {
                    failures.withLock { $0.append("client \(index): \(error)") }
                }
            }
        }
        for thread in threads { thread.join() }
        #expect(failures.withLock { $0 } == [])
        let received = server.recorder.all.filter { if case .input = $0 { return true } else { return false } }
        #expect(received.count == 100 * linesPerClient)
    }

    /// What a handler gathers over the lines that were ready together is done once, at the end
    /// of their batch, before the loop writes and waits again: lines written at once are one batch.
    @Test func linesReadyTogetherEndOneBatch() throws {
        let lines = Mutex<[(ClientID, String)]>([])
        let server = try RunningServer { recorder in
            TestHandler(
                recorder: recorder,
                reaction: { input, client, _ in
                    if case .line(let text) = input { lines.withLock { $0.append((client, text)) } }
                },
                batchEnded: { loop in
                    let batch = lines.withLock { lines in
                        defer { lines.removeAll() }
                        return lines
                    }
                    guard let client = batch.first?.0 else { return }
                    loop.send("batch of \(batch.count): " + batch.map(\.1).joined(separator: " "), to: client)
                })
        }
        defer { server.stop() }
        let client = try server.connect()
        try client.send(bytes: Array("one\ntwo\nthree\n".utf8))
        #expect(try client.line() == "batch of 3: one two three")
        try client.send(line: "alone")
        #expect(try client.line() == "batch of 1: alone")
    }

    @Test func aClientThatNeverReadsIsDisconnectedWhileAnotherKeepsBeingServed() throws {
        // Every "ping" from the fast client pushes 64 KiB more at the stuck client and answers
        // with how much output the stuck client has waiting, so progress is counted in pings.
        let limit = 1 << 20
        let stuckID = Mutex<ClientID?>(nil)
        let server = try RunningServer(configuration: PollLoopConfiguration(outputBufferLimit: limit)) { recorder in
            TestHandler(recorder: recorder) { input, client, loop in
                guard case .line(let text) = input else { return }
                if text == "stream to me" {
                    stuckID.withLock { $0 = client }
                    loop.send("streaming", to: client)
                } else if text == "ping", let stuck = stuckID.withLock({ $0 }) {
                    let chunk = String(repeating: "x", count: 1023)
                    for _ in 0..<64 where loop.send(chunk, to: stuck) == .queued {}
                    loop.send("pong \(loop.pendingOutput(of: stuck)) \(loop.connectedClients.contains(stuck))", to: client)
                }
            }
        }
        defer { server.stop() }
        let stuck = try server.connect()
        try stuck.send(line: "stream to me")
        #expect(try stuck.line() == "streaming")
        // From now on `stuck` never reads.

        let fast = try server.connect()
        var pongs: [(pending: Int, connected: Bool)] = []
        while pongs.last?.connected ?? true, pongs.count < 10_000 {
            try fast.send(line: "ping")
            let reply = try #require(try fast.line())
            let fields = reply.split(separator: " ")
            try #require(fields.count == 3 && fields[0] == "pong", "unexpected reply \(reply)")
            pongs.append((Int(fields[1]) ?? -1, fields[2] == "true"))
        }
        // The fast client was answered while the stuck one had output piling up, until it was dropped.
        #expect(pongs.contains { $0.connected && $0.pending > 0 })
        #expect(pongs.last?.connected == false)
        let id = try #require(stuckID.withLock { $0 })
        let logged = server.recorder.wait { events in
            events.contains {
                if case .log(.disconnected(id, _, .outputOverflow(limit, _))) = $0 { return true }
                return false
            }
        }
        #expect(logged)
        #expect(server.recorder.all.contains {
            if case .disconnected(id, .outputOverflow(limit, _)) = $0 { return true }
            return false
        })
        // And the fast client still works afterwards.
        try fast.send(line: "ping")
        #expect(try fast.line()?.hasPrefix("pong 0 false") == true)
    }

    @Test func anOverLongLineIsReportedAndTheConnectionKeepsWorking() throws {
        let server = try RunningServer(configuration: PollLoopConfiguration(maximumLineLength: 1024)) { recorder in
            TestHandler(recorder: recorder) { input, client, loop in
                switch input {
                case .line(let text): loop.send("echo " + text, to: client)
                case .lineTooLong(let limit): loop.send("error: line over \(limit) bytes", to: client)
                case .invalidUTF8: loop.send("error: invalid UTF-8", to: client)
                case .largeLine: loop.send("error: a large line", to: client)
                }
            }
        }
        defer { server.stop() }
        let client = try server.connect()
        try client.send(line: "before")
        #expect(try client.line() == "echo before")
        // 200 KiB without a newline, sent in pieces, then the rest of the line and a normal one.
        for _ in 0..<200 { try client.send(bytes: Array(repeating: UInt8(ascii: "a"), count: 1024)) }
        try client.send(bytes: Array("tail\nafter\n".utf8))
        #expect(try client.line() == "error: line over 1024 bytes")
        #expect(try client.line() == "echo after")
        try client.send(bytes: [0xFF, 0xFE, UInt8(ascii: "\n")])
        #expect(try client.line() == "error: invalid UTF-8")
        try client.send(line: "still here")
        #expect(try client.line() == "echo still here")
        let inputs = server.recorder.all.compactMap { event -> ClientInput? in
            if case .input(_, let input) = event { return input }
            return nil
        }
        #expect(inputs == [.line("before"), .lineTooLong(limit: 1024), .line("after"), .invalidUTF8(byteCount: 2), .line("still here")])
    }

    /// A handler that decodes large lines elsewhere gets their bytes as they came, unchecked, and
    /// every shorter line as text.
    @Test func largeLinesArriveAsTheirBytes() throws {
        let server = try RunningServer(configuration: PollLoopConfiguration(largeLineLength: 100)) { recorder in
            TestHandler(recorder: recorder) { input, client, loop in
                switch input {
                case .largeLine(let line): loop.send("large \(line.count)", to: client)
                case .line(let text): loop.send("line \(text.utf8.count)", to: client)
                case .lineTooLong, .invalidUTF8: loop.send("refused", to: client)
                }
            }
        }
        defer { server.stop() }
        let client = try server.connect()
        let large = Array(repeating: UInt8(ascii: "a"), count: 150)
        // In pieces, so that the line is put together from several reads.
        try client.send(bytes: Array(large[0..<90]))
        try client.send(bytes: Array(large[90...]) + [UInt8(ascii: "\n")])
        #expect(try client.line() == "large 150")
        try client.send(bytes: [0xFF] + Array(repeating: UInt8(ascii: "b"), count: 120) + [UInt8(ascii: "\n")])
        #expect(try client.line() == "large 121")
        try client.send(line: String(repeating: "c", count: 99))
        #expect(try client.line() == "line 99")
        let inputs = server.recorder.all.compactMap { event -> ClientInput? in
            if case .input(_, let input) = event { return input }
            return nil
        }
        #expect(inputs.first.map { if case .largeLine(let line) = $0 { line.joined() } else { [] } } == large)
    }

    @Test func executeAndTimersRunOnTheLoopThread() throws {
        let server = try RunningServer()
        defer { server.stop() }
        let inbox = server.inbox
        let marks = Recorder<String>()
        #expect(!inbox.isLoopThread)
        inbox.execute { loop in
            marks.record("execute on loop thread: \(inbox.isLoopThread)")
            let cancelled = loop.schedule(after: .milliseconds(1)) { _ in marks.record("cancelled timer fired") }
            loop.schedule(after: .milliseconds(30)) { _ in marks.record("timer on loop thread: \(inbox.isLoopThread)") }
            loop.cancel(cancelled)
        }
        #expect(marks.wait { $0.contains { $0.hasPrefix("timer") } })
        #expect(marks.all == ["execute on loop thread: true", "timer on loop thread: true"])

        // Many threads posting at once: every closure runs, each on the loop thread.
        let count = Mutex(0)
        let offLoop = Mutex(0)
        let posters = (0..<8).map { _ in
            JoinableThread {
                for _ in 0..<1000 {
                    inbox.execute { _ in
                        count.withLock { $0 += 1 }
                        if !inbox.isLoopThread { offLoop.withLock { $0 += 1 } }
                    }
                }
            }
        }
        for poster in posters { poster.join() }
        inbox.execute { _ in marks.record("all posted") }
        #expect(marks.wait { $0.contains("all posted") })
        #expect(count.withLock { $0 } == 8000)
        #expect(offLoop.withLock { $0 } == 0)
    }

    @Test func gracefulShutdownDeliversOutputQueuedBeforeIt() throws {
        let lines = 5000
        let server = try RunningServer(configuration: PollLoopConfiguration(shutdownFlushTimeout: .seconds(60))) { recorder in
            TestHandler(recorder: recorder) { input, client, loop in
                guard input == .line("burst then stop") else { return }
                for index in 0..<lines { loop.send("line \(index) " + String(repeating: "z", count: 90), to: client) }
                loop.shutdown()
            }
        }
        let client = try server.connect()
        try client.send(line: "burst then stop")
        var received = 0
        while let line = try client.line() {
            #expect(line.hasPrefix("line \(received) "))
            received += 1
        }
        #expect(received == lines)
        server.thread.join()
        // The loop has finished: the listener is closed and execute is refused.
        #expect(!server.inbox.execute { _ in })
        #expect(throws: UnixClientError.connectionRefused(server.path)) { try server.connect() }
        #expect(server.recorder.all.contains(.disconnected(ClientID(rawValue: 1), .shutdown)))
    }

    @Test func aClientThatClosesAfterSendingStillGetsItsReplies() throws {
        let server = try RunningServer()
        defer { server.stop() }
        let client = try server.connect()
        try client.send(line: "one")
        try client.send(bytes: Array("two".utf8))  // No final newline, as `printf ... | socat` sends.
        try client.finishSending()
        #expect(try client.line() == "one")
        #expect(try client.line() == "two")
        #expect(try client.line() == nil)
        #expect(server.recorder.wait { $0.contains(.disconnected(ClientID(rawValue: 1), .peerClosed)) })
    }

    @Test func closingAClientFlushesWhatWasQueuedFirst() throws {
        let server = try RunningServer { recorder in
            TestHandler(recorder: recorder) { input, client, loop in
                if input == .line("hello") {
                    // A newline inside a line would break the framing, so it is rejected, not sent.
                    #expect(loop.send("a\nb", to: client) == .containsNewline)
                    loop.send("ok", to: client)
                }
                guard input == .line("bye") else { return }
                for index in 0..<1000 { loop.send("farewell \(index)", to: client) }
                loop.close(client)
                #expect(loop.send("too late", to: client) == .notConnected)
            }
        }
        defer { server.stop() }
        let client = try server.connect()
        try client.send(line: "bye")
        for index in 0..<1000 { #expect(try client.line() == "farewell \(index)") }
        #expect(try client.line() == nil)
        #expect(server.recorder.wait { $0.contains(.disconnected(ClientID(rawValue: 1), .closedByServer)) })
        let other = try server.connect()
        try other.send(line: "hello")
        #expect(try other.line() == "ok")
    }

    @Test func signalsArriveAsLoopCallbacks() throws {
        let server = try RunningServer(configuration: PollLoopConfiguration(signals: [.hangup, .terminate]))
        // A round trip through the loop proves it is running and owns the signal relay.
        let started = Recorder<Bool>()
        server.inbox.execute { _ in started.record(true) }
        #expect(started.wait { !$0.isEmpty })
        let client = try server.connect()

        kill(getpid(), SIGHUP)
        #expect(server.recorder.wait { $0.contains(.signal(.hangup)) })
        try client.send(line: "after SIGHUP")
        #expect(try client.line() == "after SIGHUP")

        kill(getpid(), SIGTERM)  // The handler shuts down on SIGTERM.
        server.thread.join()
        #expect(try client.line() == nil)
        #expect(server.recorder.all.contains(.signal(.terminate)))
    }

    @Test func anInboxServesOneRun() throws {
        let inbox = try LoopInbox<Never>()
        let recorder = Recorder<Observed>()
        let thread = JoinableThread { try? PollLoop.run(listeners: [], inbox: inbox, handler: TestHandler(recorder: recorder)) }
        let ran = Recorder<Bool>()
        inbox.execute { _ in ran.record(true) }
        #expect(ran.wait { !$0.isEmpty })
        #expect(throws: PollLoopError.alreadyStarted) { try PollLoop.run(listeners: [], inbox: inbox, handler: TestHandler(recorder: recorder)) }
        inbox.shutdown()
        thread.join()
    }
}
