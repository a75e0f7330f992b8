import Dispatch
import Foundation
@testable import NarratorSpeech
import NarratorSpeechPlan
import Synchronization
import Testing

/// A stand-in for a sound server that can be stopped: while frozen, every call of every device
/// connected to it, and every new connection, blocks until it is thawed, as `pa_simple`'s calls
/// do on a server that got SIGSTOP. It keeps what each device received, and counts the devices
/// freed (it holds no device itself).
final class FreezableServer: Sendable {
    let freed = EventCounter()
    private let stopped = DispatchGroup()
    private let isFrozen = Mutex(false)
    private let records = Mutex<[DeviceRecord]>([])

    func freeze() {
        let wasFrozen = isFrozen.withLock { frozen in
            defer { frozen = true }
            return frozen
        }
        if !wasFrozen { stopped.enter() }
    }

    func thaw() {
        let wasFrozen = isFrozen.withLock { frozen in
            defer { frozen = false }
            return frozen
        }
        if wasFrozen { stopped.leave() }
    }

    /// Returns at once, or once thawed.
    func pass() {
        stopped.wait()
    }

    /// A new connection (the `connect` of a `ServerOutput`): hangs while the server is stopped.
    func connect() -> FreezableDevice {
        pass()
        let record = DeviceRecord()
        records.withLock { $0.append(record) }
        return FreezableDevice(server: self, record: record)
    }

    /// What each device connected so far received, in the order they connected.
    var devices: [DeviceRecord] { records.withLock { $0 } }
}

/// What one device received.
final class DeviceRecord: Sendable {
    struct Received: Sendable {
        var begun: [UtteranceID] = []
        var samples = 0
        var ended = 0
        var interrupts = 0
    }

    private let log = Mutex(Received())
    var received: Received { log.withLock { $0 } }
    func update(_ body: (inout Received) -> Void) { log.withLock { body(&$0) } }
}

/// The one fake of these tests, at the device boundary: records what it is given, blocks while its
/// server is frozen, and counts its own release.
final class FreezableDevice: AudioOutput {
    let name = "fake"
    private let server: FreezableServer
    private let record: DeviceRecord

    init(server: FreezableServer, record: DeviceRecord) {
        self.server = server
        self.record = record
    }

    deinit {
        server.freed.add()
    }

    var status: OutputStatus { OutputStatus(spec: .pulse, active: name, fallback: false) }

    func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        server.pass()
        record.update { $0.begun.append(utterance) }
    }

    func write(_ samples: [Int16]) {
        server.pass()
        record.update { $0.samples += samples.count }
    }

    func end() {
        server.pass()
        record.update { $0.ended += 1 }
    }

    func interrupt() {
        server.pass()
        record.update { $0.interrupts += 1 }
    }
}

/// The statuses a `ServerOutput` reported through `onChange`.
final class StatusLog: Sendable {
    private let statuses = Mutex<[OutputStatus]>([])
    var record: @Sendable (OutputStatus) -> Void { { [self] status in statuses.withLock { $0.append(status) } } }
    var all: [OutputStatus] { statuses.withLock { $0 } }
}

/// How long `body` took, run on a thread of its own and watched: past `limit` (a watchdog, not a
/// speed limit) the test records a failure and goes on, rather than hang when a call that must
/// return is blocked for good. The returned time is then `limit` or more.
func timed(limit: Duration = .seconds(20), _ body: @escaping @Sendable () -> Void) -> Duration {
    let start = ContinuousClock.now
    let returned = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        returned.signal()
    }
    let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
    if returned.wait(timeout: .now() + seconds) == .timedOut {
        Issue.record("still blocked after \(limit)")
        return limit
    }
    return ContinuousClock.now - start
}

/// Polls (generously: a loaded machine is slow, never wrong) until `condition` holds.
func eventually(timeout: Duration = .seconds(20), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

@Suite("Server output: a sound server that stops answering", .serialized)
struct ServerOutputStallTests {
    let format = AudioFormat(sampleRate: 22_050)
    /// 20 ms of audio, as the engine hands it over.
    let chunk = [Int16](repeating: 1_000, count: 441)
    let stallTimeout = Duration.milliseconds(500)
    /// The longest a write may wait for the server to ask for audio.
    let deviceBuffer = Duration.milliseconds(200)
    /// What a loaded machine may add to a deadline (a watchdog, not a speed limit).
    let slack = Duration.milliseconds(1_500)
    /// How long a call that must not wait on the device may take on a loaded machine: the device
    /// here blocks until released, so a call that waited for it would never return.
    let atOnce = Duration.milliseconds(500)

    /// An output on a freezable server.
    func makeOutput(_ server: FreezableServer, changes: StatusLog) -> ServerOutput {
        ServerOutput(
            spec: .pulse, retryInterval: .milliseconds(100), stallTimeout: stallTimeout, deviceBuffer: deviceBuffer,
            connect: { server.connect() }, onChange: changes.record)
    }

    @Test("a write that gets no answer is given up within its deadline; the device is taken back when the server answers")
    func stalledWriteFallsBackAndRecovers() throws {
        let server = FreezableServer()
        defer { server.thaw() }  // never leave a thread blocked, even when an expectation fails
        let changes = StatusLog()
        let output = makeOutput(server, changes: changes)
        #expect(output.status == OutputStatus(spec: .pulse, active: "fake", fallback: false))
        let first = try #require(server.devices.first)

        output.begin(UtteranceID(1), kind: .focus, format: format)
        output.write(chunk)
        output.write(chunk)
        #expect(first.received.samples == 2 * chunk.count)

        // The server stops: the next write blocks in the device, and the output gives it up.
        server.freeze()
        let stalledWrite = timed { output.write(chunk) }
        let deadline = format.duration(ofSamples: chunk.count) + deviceBuffer + stallTimeout
        #expect(stalledWrite >= deadline - .milliseconds(5), "the write waited its deadline: \(stalledWrite)")
        #expect(stalledWrite < deadline + slack, "the write returned within its deadline: \(stalledWrite)")
        let stalled = output.status
        #expect(stalled.active == "null" && stalled.fallback && stalled.stalled, "\(stalled)")
        #expect(stalled.detail?.contains("stopped taking audio for 0.7 s") == true, "\(stalled)")
        #expect(stalled.detail?.contains("null until it answers") == true, "\(stalled)")
        #expect(changes.all.last == stalled, "onChange was told")

        // The rest of the utterance plays on null, in real time.
        let rest = timed {
            for _ in 0..<15 { output.write(chunk) }
            output.end()
        }
        #expect(rest >= .milliseconds(250), "null kept the pace of 300 ms of audio: \(rest)")
        #expect(rest < .milliseconds(300) + slack)
        #expect(first.received.samples == 2 * chunk.count, "the stopped device got nothing more")

        // While stopped, reconnect attempts hang in the server, and nothing else waits for them.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(timed { _ = output.status } < atOnce)
        #expect(timed { output.interrupt() } < atOnce)
        let onNull = timed {
            output.begin(UtteranceID(2), kind: .focus, format: format)
            output.write(chunk)
            output.end()
        }
        #expect(onNull < .milliseconds(20) + slack, "a new utterance plays on null: \(onNull)")
        #expect(output.status.stalled, "status keeps the cause while the server does not answer")
        #expect(server.freed.count == 0, "the stopped device is not freed while its call is in flight")
        #expect(server.devices.count == 1)

        // The server answers again: the output reconnects by itself, and the stopped device goes.
        server.thaw()
        #expect(eventually { output.status.active == "fake" })
        #expect(output.status == OutputStatus(spec: .pulse, active: "fake", fallback: false))
        // onChange is called after the status is set, outside the output's lock: wait for it.
        #expect(eventually { changes.all.last == output.status }, "onChange was told about the reconnect")
        #expect(server.devices.count == 2, "one connection attempt at a time, however long it hangs")
        #expect(eventually { server.freed.count == 1 }, "the given-up device is freed once its calls returned")
        #expect(first.received.interrupts >= 1, "the given-up device was silenced when it answered")

        let second = try #require(server.devices.last)
        output.begin(UtteranceID(3), kind: .focus, format: format)
        output.write(chunk)
        output.end()
        #expect(second.received.begun == [UtteranceID(3)])
        #expect(second.received.samples == chunk.count)
        #expect(second.received.ended == 1)
    }

    @Test("a drain that never ends is a stall too, bounded by the audio the device took")
    func stalledDrain() {
        let server = FreezableServer()
        defer { server.thaw() }
        let changes = StatusLog()
        let output = makeOutput(server, changes: changes)
        output.begin(UtteranceID(1), kind: .focus, format: format)
        for _ in 0..<5 { output.write(chunk) }
        server.freeze()
        let drain = timed { output.end() }
        // 100 ms written: the drain may last that long, plus the stall timeout.
        let deadline = format.duration(ofSamples: 5 * chunk.count) + stallTimeout
        #expect(drain >= deadline - .milliseconds(5), "\(drain)")
        #expect(drain < deadline + slack, "\(drain)")
        #expect(output.status.stalled && output.status.active == "null", "\(output.status)")
        #expect(output.status.detail?.contains("drain") == true, "\(output.status)")
        server.thaw()
        #expect(eventually { output.status.active == "fake" })
        #expect(eventually { server.freed.count == 1 })
    }

    @Test("an interrupt releases a call waiting on a stopped device at once, and the utterance is not sounded out on null")
    func interruptWhileStopped() {
        let server = FreezableServer()
        defer { server.thaw() }
        let changes = StatusLog()
        let output = makeOutput(server, changes: changes)
        output.begin(UtteranceID(1), kind: .focus, format: format)
        output.write(chunk)
        server.freeze()

        // The engine thread is blocked in a write when the interrupt comes.
        let writeReturned = DispatchSemaphore(value: 0)
        let chunk = self.chunk
        Thread.detachNewThread {
            output.write(chunk)
            writeReturned.signal()
        }
        Thread.sleep(forTimeInterval: 0.1)
        let interrupt = timed { output.interrupt() }
        #expect(interrupt < atOnce, "interrupt does not wait for the device's flush: \(interrupt)")
        #expect(writeReturned.wait(timeout: .now() + 1) == .success, "the waiting write was released")
        #expect(!output.status.stalled, "released by the interrupt, not overdue")

        // The rest of the interrupted utterance (1 s of audio) returns at once: nothing plays on null.
        let rest = timed {
            for _ in 0..<50 { output.write(chunk) }
            output.end()
        }
        #expect(rest < atOnce, "the interrupted utterance was not played out on null: \(rest)")

        // The next utterance finds the device still stopped: its begin is the call that stalls.
        let begin = timed { output.begin(UtteranceID(2), kind: .focus, format: format) }
        #expect(begin >= stallTimeout - .milliseconds(5), "\(begin)")
        #expect(begin < stallTimeout + slack, "\(begin)")
        #expect(output.status.stalled, "\(output.status)")
        #expect(output.status.detail?.contains("opening a stream") == true, "\(output.status)")
        let onNull = timed {
            for _ in 0..<10 { output.write(chunk) }
            output.end()
        }
        #expect(onNull >= .milliseconds(150), "the new utterance plays on null in real time: \(onNull)")
        server.thaw()
        #expect(eventually { output.status.active == "fake" })
    }

    @Test("a first connection that hangs does not hold up start-up; the output switches when it completes")
    func hangingFirstConnection() {
        let server = FreezableServer()
        defer { server.thaw() }
        server.freeze()
        let changes = StatusLog()
        let started = ContinuousClock.now
        let output = makeOutput(server, changes: changes)
        let startup = ContinuousClock.now - started
        #expect(startup >= stallTimeout - .milliseconds(5) && startup < stallTimeout + slack, "\(startup)")
        #expect(output.status.active == "null" && output.status.stalled, "\(output.status)")
        #expect(output.status.detail?.contains("has not answered") == true, "\(output.status)")
        server.thaw()
        #expect(eventually { output.status.active == "fake" })
        #expect(server.devices.count == 1)
    }
}
