import Dispatch
import NarratorBase
import NarratorSpeechPlan
import NarratorSystem
import Synchronization

/// The sound server when it is reachable and answering, `null` (in real time) when it is not.
///
/// Used for `--audio auto` and `--audio pulse`. Never throws, and never lets the sound server
/// hold up its caller: losing the sound server, or a server that stops answering, must not stop
/// speech.
///
/// A thin shell around ``OutputFailover``, which decides everything: the deadline of each device
/// call, when the device is given up for `null` and when it is tried again, when its idle stream
/// is closed, and what `status` says. This type only carries its effects out and feeds back what
/// happened: the device (``PulseOutput`` by default) is connected and called on threads of its
/// own (``DeviceLink``: a player thread for `begin`, `write` and `end`, a flusher thread for its
/// interrupts, so that a flush can silence a write that is blocked in the server); the engine
/// thread waits for each call only until the failover's deadline, or until an interrupt releases
/// it; the reconnect attempts and the idle close share one timer.
public final class ServerOutput: AudioOutput {
    private let connect: @Sendable () throws(AudioOutputError) -> any AudioOutput
    private let onChange: @Sendable (OutputStatus) -> Void
    private let null = NullOutput()
    private let state: Mutex<State>
    /// Where the timer fires (each firing returns at once).
    private let timerQueue = DispatchQueue(label: "narrator.audio.reconnect")
    /// The failover's one timer, disarmed at the distant future. Not `Sendable` in Dispatch's
    /// overlay, but libdispatch allows `schedule` on a source from any thread; it is only
    /// rescheduled under `state`'s lock.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    /// Releases the thread a `wait` effect blocked: the creator for the first connection, then
    /// the engine thread for its device calls. A stale signal only makes the next wait look again.
    private let woken = DispatchSemaphore(value: 0)

    private struct State {
        var failover: OutputFailover
        /// The devices the failover holds.
        var links: [OutputDeviceID: DeviceLink] = [:]
    }

    /// Connects (waiting up to `stallTimeout` for the first attempt) and starts the reconnect attempts.
    ///
    /// - Parameters:
    ///   - spec: `.auto` or `.pulse` (only changes how a missing server is reported).
    ///   - retryInterval: how often to try to reconnect while on `null`.
    ///   - stallTimeout: how long past its expected time a device call may go unanswered before
    ///     the device is given up (``OutputFailover`` gives the deadlines).
    ///   - deviceBuffer: how much audio the device holds at most, which is also about the longest
    ///     the server goes without asking for more: `pa_simple`'s buffer, whose length the server
    ///     chooses and PulseAudio documents as 2 s by default.
    ///   - idleClose: how long after the last audio the device's stream is closed, so that the
    ///     server can suspend its sink (``StreamIdlePolicy/standardCloseAfter``).
    ///   - connect: opens the device, on the device's own thread; the default is ``PulseOutput``.
    ///   - onChange: called whenever the active output changes (from a device thread or the engine thread).
    public init(
        spec: AudioSpec,
        retryInterval: Duration = .seconds(2),
        stallTimeout: Duration = .seconds(2),
        deviceBuffer: Duration = .seconds(2),
        idleClose: Duration = StreamIdlePolicy.standardCloseAfter,
        connect: @escaping @Sendable () throws(AudioOutputError) -> any AudioOutput = { () throws(AudioOutputError) in try PulseOutput() },
        onChange: @escaping @Sendable (OutputStatus) -> Void = { _ in }
    ) {
        self.connect = connect
        self.onChange = onChange
        let configuration = OutputFailover.Configuration(
            spec: spec, retryInterval: retryInterval, stallTimeout: stallTimeout, deviceBuffer: deviceBuffer, idleClose: idleClose)
        state = Mutex(State(failover: OutputFailover(configuration: configuration)))
        timer = DispatchSource.makeTimerSource(queue: timerQueue)
        timer.schedule(deadline: .distantFuture)
        timer.setEventHandler { [weak self] in self?.run(.timerFired) }
        timer.activate()
        run(.start)
    }

    deinit {
        timer.cancel()
    }

    public var name: String {
        status.active
    }

    /// The output in use and whether it is a fallback (and why); never waits on the device.
    public var status: OutputStatus {
        state.withLock { $0.failover.status }
    }

    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        run(.engine(.begin(OutputUtterance(id: utterance, kind: kind, sampleRate: format.sampleRate, channels: format.channels))))
    }

    public func write(_ samples: [Int16]) {
        run(.engine(.write(samples)))
    }

    public func end() {
        run(.engine(.end))
    }

    /// Silences the current utterance without waiting on the device: a call the engine thread is
    /// waiting for is released at once, and the device's own interrupt is posted to its flusher thread.
    public func interrupt() {
        run(.interrupt)
    }

    /// Starts an attempt to reach the server, unless connected or an attempt is under way, and
    /// returns at once. The failover calls for one every `retryInterval` while not connected.
    public func attemptReconnect() {
        run(.attemptReconnect)
    }

    // MARK: - Carrying the effects out

    /// Feeds `input` (with `link`, a device just connected, kept for it), carries the effects out,
    /// and feeds the end of the wait they may ask for, until a step asks for none.
    ///
    /// The effects that only hand work to another thread run under the lock, so that they reach
    /// the threads in the order they were decided (a close queued before the next `begin`, `null`
    /// started before an interrupt decided after); those that block or call out (`null`'s
    /// real-time writes and drain, `onChange`, the waits) run after it, and devices let go are
    /// freed after it too.
    private func run(_ input: OutputFailoverInput, adding link: (id: OutputDeviceID, link: DeviceLink)? = nil) {
        var next: OutputFailoverInput? = input
        var adding = link
        while let input = next {
            next = nil
            let (later, released) = state.withLock { state -> ([OutputFailoverEffect], [DeviceLink]) in
                if let adding { state.links[adding.id] = adding.link }
                var released: [DeviceLink] = []
                let effects = state.failover.handle(input, at: MonotonicClock.now())
                let later = effects.filter { !handOver($0, links: &state.links, released: &released) }
                return (later, released)
            }
            adding = nil
            withExtendedLifetime(released) {}
            for effect in later {
                switch effect {
                case .report(let status):
                    onChange(status)
                case .wake:
                    woken.signal()
                case .null(.write(let samples)):
                    null.write(samples)
                case .null(.end):
                    null.end()
                case .wait(let wait, let until):
                    _ = woken.wait(until: until)
                    next = .waited(wait)
                default:
                    break
                }
            }
        }
    }

    /// Carries out `effect` if it only hands work over (under the lock); false for those that must wait.
    private func handOver(
        _ effect: OutputFailoverEffect, links: inout [OutputDeviceID: DeviceLink], released: inout [DeviceLink]
    ) -> Bool {
        switch effect {
        case .connect(let id):
            DeviceLink.open(connect) { [weak self] result in
                switch result {
                case .success(let link): self?.run(.connected(id, name: link.device.name), adding: (id, link))
                case .failure(let error): self?.run(.connectFailed(id, reason: "\(error)"))
                }
            }
        case .call(let device, let id, let call, let afterInterrupts):
            links[device]?.perform(call, afterInterrupts: afterInterrupts) { [weak self] error in
                self?.run(error.map { .callFailed(id, reason: "\($0)") } ?? .callReturned(id))
            }
        case .interruptDevice(let device):
            links[device]?.interrupt()
        case .closeStream(let device):
            links[device]?.standBy()
        case .forget(let device):
            if let link = links.removeValue(forKey: device) { released.append(link) }
        case .null(.begin(let utterance)):
            null.begin(utterance.id, kind: utterance.kind, format: AudioFormat(utterance))
        case .interruptNull:
            null.interrupt()
        case .setTimer(let at):
            let wait = max(0, (at - MonotonicClock.now()).nanosecondsClamped)
            timer.schedule(deadline: .now() + .nanoseconds(Int(wait)), leeway: .milliseconds(50))
        case .cancelTimer:
            timer.schedule(deadline: .distantFuture)
        case .report, .wake, .wait, .null(.write), .null(.end):
            return false
        }
        return true
    }
}
