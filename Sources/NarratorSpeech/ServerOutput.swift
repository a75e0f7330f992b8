import Dispatch
import NarratorCore
import NarratorSystem
import Synchronization

/// The sound server when it is reachable and answering, `null` (in real time) when it is not.
///
/// Used for `--audio auto` and `--audio pulse`. Never throws, and never lets the sound server
/// hold up its caller: losing the sound server, or a server that stops answering, must not stop
/// speech.
///
/// The device (``PulseOutput`` by default) is only ever called from threads of its own: it is
/// connected on its player thread, which then runs its `begin`, `write` and `end` one at a time as
/// the engine thread hands them over, and its interrupts run on a second thread (its flusher), so
/// that a flush can silence a write that is blocked in the server. The engine thread waits for each
/// call only until a deadline, counted from when it hands the call over: the time the call may
/// legitimately take, plus `stallTimeout`. With *B* the `deviceBuffer`:
///
/// - `begin`: `stallTimeout` (opening a stream takes a round trip to the server);
/// - `write` of a chunk lasting *d*: *d* + *B* + `stallTimeout`. A write blocks while the server's
///   buffer is full, and the server asks for more audio when its sink next takes some: every 20 ms
///   or so on a low-latency sink, but only about once per buffer length on a sink at high latency
///   (measured on a private server: a new stream's third 20 ms write waited 1.8 s);
/// - `end` (the drain): min(*w*, *B*) + `stallTimeout`, where *w* is the audio this utterance
///   handed to the device: a drain lasts as long as the audio the server still holds, which is at
///   most what it was given and at most its buffer.
///
/// A call that overruns its deadline is a stall: the device is given up (its threads are left to
/// finish the call, silence the device and free it whenever the server answers again), the rest of
/// the utterance plays on `null` in real time, and `status` says the server stopped taking audio.
/// A call that fails (the server went away) does the same with the error as the reason. In both
/// cases `null` starts the utterance afresh (an earlier utterance's interrupt must not make it rush
/// through in silence), and never for an interrupted utterance. It tries to reconnect every
/// `retryInterval`, each attempt on a new device thread, so that an attempt that hangs on a stopped
/// server blocks nothing but later attempts; when the server answers again, the output switches
/// back and reports it through `onChange`.
///
/// Between utterances the device's stream is closed after `idleClose` (``StreamIdlePolicy``), so
/// that the sound server suspends its sink and stops rendering silence; the next utterance's
/// `begin` opens it again. The close is one timer, armed only while the stream is open and
/// silent, so an idle output sets none.
public final class ServerOutput: AudioOutput {
    private let spec: AudioSpec
    private let retryInterval: Duration
    private let stallTimeout: Duration
    private let deviceBuffer: Duration
    private let connect: @Sendable () throws(AudioOutputError) -> any AudioOutput
    private let onChange: @Sendable (OutputStatus) -> Void
    private let null = NullOutput()
    private let state: Mutex<State>
    /// Where the reconnect attempts are started from (each returns at once).
    private let retryQueue = DispatchQueue(label: "narrator.audio.reconnect")
    private let idleClose: Duration
    /// The one timer of ``StreamIdlePolicy`` (on `retryQueue`), disarmed at the distant future.
    /// Not `Sendable` in Dispatch's overlay, but libdispatch allows `schedule` and `cancel` on a
    /// source from any thread; it is only rescheduled under `state`'s lock.
    private nonisolated(unsafe) let idleTimer: any DispatchSourceTimer

    private struct State {
        /// The connected device; nil while speech goes to `null`.
        var link: DeviceLink?
        /// Whether a connection attempt is under way (then no other starts).
        var connecting = false
        /// Whether the next attempt is armed (at most one is).
        var retrying = false
        var status: OutputStatus
        /// Why the device was lost, kept while reconnecting fails so that `status` still names the cause.
        var lost: (cause: String, stalled: Bool)?
        /// The device the current utterance goes to; nil when it goes to `null`.
        var target: DeviceLink?
        /// The utterance being played, so that `null` can take it over in the middle.
        var playing: (utterance: UtteranceID, kind: SpeechKind, format: AudioFormat)?
        /// Whether `playing` was interrupted: then `null` must not take it over and sound it out.
        var interrupted = false
        /// The audio of `playing` that the device took, which bounds how long its drain may last.
        var written = Duration.zero
        /// The engine thread's call waiting on the device, so that an interrupt can release it.
        var waiting: DeviceCall?
        /// When the connected device's stream is closed between utterances.
        var idle = StreamIdlePolicy()
    }

    /// Connects (waiting up to `stallTimeout` for the first attempt) and starts the reconnect attempts.
    ///
    /// - Parameters:
    ///   - spec: `.auto` or `.pulse` (only changes how a missing server is reported).
    ///   - retryInterval: how often to try to reconnect while on `null`.
    ///   - stallTimeout: how long past its expected time a device call may go unanswered before
    ///     the device is given up (see the type's description for the deadlines).
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
        self.spec = spec
        self.retryInterval = retryInterval
        self.stallTimeout = stallTimeout
        self.deviceBuffer = deviceBuffer
        self.idleClose = idleClose
        idleTimer = DispatchSource.makeTimerSource(queue: retryQueue)
        self.connect = connect
        self.onChange = onChange
        state = Mutex(State(status: OutputStatus(spec: spec, active: "null", fallback: true, detail: "not connected yet")))
        idleTimer.schedule(deadline: .distantFuture)
        idleTimer.setEventHandler { [weak self] in self?.idleTimerFired() }
        idleTimer.activate()

        let first = DispatchSemaphore(value: 0)
        startConnecting { first.signal() }
        if !first.wait(for: stallTimeout) {
            let changed = state.withLock { state -> OutputStatus? in
                guard state.connecting, state.link == nil else { return nil }
                state.status = OutputStatus(
                    spec: spec, active: "null", fallback: true,
                    detail: "the sound server has not answered for \(seconds(stallTimeout)) s; speech goes to null until it answers",
                    stalled: true)
                return state.status
            }
            if let changed { onChange(changed) }
        }
        scheduleRetry()
    }

    deinit {
        idleTimer.cancel()
    }

    public var name: String {
        status.active
    }

    /// The output in use and whether it is a fallback (and why); never waits on the device.
    public var status: OutputStatus {
        state.withLock { $0.status }
    }

    // MARK: - The engine thread's calls

    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        let target = state.withLock { state -> DeviceLink? in
            state.target = state.link
            if let link = state.link {
                apply(state.idle.began(at: MonotonicClock.now()), to: link)
            }
            state.playing = (utterance, kind, format)
            state.interrupted = false
            state.written = .zero
            return state.target
        }
        guard let target else {
            continueOnNull()
            return
        }
        let budget = stallTimeout
        let outcome = call(target, within: budget, afterInterrupts: true, evenIfInterrupted: true) { device throws(AudioOutputError) in
            try device.begin(utterance, kind: kind, format: format)
        }
        switch outcome {
        case .returned, .interrupted:
            break
        case .failed(let error):
            lose(target, error)
            continueOnNull()
        case .overdue:
            giveUp(target, waited: budget, call: "opening a stream")
            continueOnNull()
        }
    }

    public func write(_ samples: [Int16]) {
        let (target, interrupted, format) = state.withLock { ($0.target, $0.interrupted, $0.playing?.format) }
        guard let target else {
            null.write(samples)
            return
        }
        guard !interrupted, let format else { return }
        let duration = format.duration(ofSamples: samples.count)
        let budget = duration + deviceBuffer + stallTimeout
        let outcome = call(target, within: budget, afterInterrupts: false, evenIfInterrupted: false) { device throws(AudioOutputError) in
            try device.write(samples)
        }
        switch outcome {
        case .returned:
            state.withLock { state in
                if state.target === target { state.written += duration }
            }
        case .interrupted:
            break
        case .failed(let error):
            lose(target, error)
            continueOnNull()
            null.write(samples)
        case .overdue:
            giveUp(target, waited: budget, call: "a write")
            continueOnNull()
            null.write(samples)
        }
    }

    public func end() {
        let (target, written) = state.withLock { ($0.target, $0.written) }
        guard let target else {
            null.end()
            return
        }
        let budget = min(written, deviceBuffer) + stallTimeout
        let outcome = call(target, within: budget, afterInterrupts: true, evenIfInterrupted: true) { device throws(AudioOutputError) in
            try device.end()
        }
        switch outcome {
        case .returned, .interrupted:
            break
        case .failed(let error):
            lose(target, error)
        case .overdue:
            giveUp(target, waited: budget, call: "the drain at the end of an utterance")
        }
        state.withLock { state in
            guard let link = state.link, link === target else { return }
            apply(state.idle.ended(at: MonotonicClock.now()), to: link)
        }
    }

    /// Silences the current utterance without waiting on the device: a call the engine thread is
    /// waiting for is released at once, and the device's own interrupt (a flush, which waits for
    /// the server) is posted to the device's flusher thread.
    public func interrupt() {
        let (target, waiting) = state.withLock { state -> (DeviceLink?, DeviceCall?) in
            state.interrupted = true
            defer { state.waiting = nil }
            return (state.target, state.waiting)
        }
        waiting?.settle(.interrupted)
        target?.interrupt()
        null.interrupt()
    }

    // MARK: - Closing the idle stream

    private func idleTimerFired() {
        state.withLock { state in
            guard let link = state.link else { return }
            apply(state.idle.timerFired(at: MonotonicClock.now()), to: link)
        }
    }

    /// Carries out the idle policy's effects; under the state lock, so that a close is queued on
    /// the device's player thread before (and so runs before) any `begin` decided after it.
    private func apply(_ effects: [StreamIdlePolicy.Effect], to link: DeviceLink) {
        for effect in effects {
            switch effect {
            case .armTimer(let at):
                let wait = max(0, (at - MonotonicClock.now()).nanosecondsClamped)
                idleTimer.schedule(deadline: .now() + .nanoseconds(Int(wait)), leeway: .milliseconds(50))
            case .cancelTimer:
                idleTimer.schedule(deadline: .distantFuture)
            case .close:
                link.standBy()
            }
        }
    }

    // MARK: - Connecting

    /// Starts an attempt to reach the server, unless connected or an attempt is under way, and
    /// returns at once. Called every `retryInterval` while not connected; callable directly.
    public func attemptReconnect() {
        startConnecting {}
    }

    /// Arms the next attempt while the server is not connected. The chain ends once it is (so a
    /// connected, idle output costs no wake-ups) or when the output is released, and starts again
    /// when the device is lost.
    private func scheduleRetry() {
        let arm = state.withLock { state -> Bool in
            guard state.link == nil, !state.retrying else { return false }
            state.retrying = true
            return true
        }
        guard arm else { return }
        retryQueue.async(after: retryInterval) { [weak self] in
            guard let self else { return }
            state.withLock { $0.retrying = false }
            attemptReconnect()
            scheduleRetry()
        }
    }

    private func startConnecting(then finished: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            guard state.link == nil, !state.connecting else { return false }
            state.connecting = true
            return true
        }
        guard start else {
            finished()
            return
        }
        DeviceLink.open(connect) { [weak self] result in
            self?.connected(result)
            finished()
        }
    }

    private func connected(_ result: Result<DeviceLink, AudioOutputError>) {
        let changed = state.withLock { state -> OutputStatus? in
            state.connecting = false
            switch result {
            case .success(let link):
                state.link = link
                state.idle = StreamIdlePolicy(closeAfter: idleClose, openAt: MonotonicClock.now())
                if let at = state.idle.timer { apply([.armTimer(at: at)], to: link) }
                state.lost = nil
                state.status = OutputStatus(spec: spec, active: link.device.name, fallback: false)
                return state.status
            case .failure(let error):
                var reason = spec == .auto ? "no sound server reachable: \(error)" : "\(error)"
                if let lost = state.lost {
                    reason = "\(lost.cause); reconnecting every \(seconds(retryInterval)) s (last attempt: \(reason))"
                }
                guard state.status.detail != reason else { return nil }
                state.status = OutputStatus(
                    spec: spec, active: "null", fallback: true, detail: reason, stalled: state.lost?.stalled ?? false)
                return state.status
            }
        }
        if let changed { onChange(changed) }
    }

    // MARK: - Calling the device

    /// Hands `body` to `link`'s player thread and waits for it until `budget` has passed or an
    /// interrupt releases the wait (the call then finishes on the player thread unobserved).
    ///
    /// - Parameters:
    ///   - afterInterrupts: run `body` only once the interrupts posted before have reached the
    ///     device (so that a late interrupt cannot hit the next utterance's `begin`, and a drain
    ///     after an interrupt finds the device silenced).
    ///   - evenIfInterrupted: when the utterance is already interrupted, still post `body` (without
    ///     waiting for it) rather than drop it, so that the device sees every `begin` and `end`.
    private func call(
        _ link: DeviceLink, within budget: Duration, afterInterrupts: Bool, evenIfInterrupted: Bool,
        _ body: @escaping @Sendable (any AudioOutput) throws(AudioOutputError) -> Void
    ) -> DeviceCall.Outcome {
        let deadline = MonotonicClock.now() + budget
        let call = DeviceCall()
        let interrupted = state.withLock { state -> Bool in
            if !state.interrupted { state.waiting = call }
            return state.interrupted
        }
        if interrupted && !evenIfInterrupted { return .interrupted }
        link.perform(call, afterInterrupts: afterInterrupts, body)
        if interrupted { return .interrupted }
        let outcome = call.wait(until: deadline)
        state.withLock { state in
            if state.waiting === call { state.waiting = nil }
        }
        return outcome
    }

    /// Starts `null` on the utterance the device dropped (or never had), unless it was interrupted.
    /// Under the lock, so that an interrupt either comes first (and is honoured) or reaches `null` after.
    private func continueOnNull() {
        state.withLock { state in
            guard !state.interrupted, let playing = state.playing else { return }
            null.begin(playing.utterance, kind: playing.kind, format: playing.format)
        }
    }

    /// A device call failed (the server went away): speak to `null` until the server is back.
    private func lose(_ failed: DeviceLink, _ error: AudioOutputError) {
        fallBack(from: failed, cause: "lost \(failed.device.name): \(error)", stalled: false)
    }

    /// A device call overran its deadline: give the device up, silenced as soon as the server
    /// answers (its threads and the device go once their calls return), and speak to `null`.
    private func giveUp(_ stalled: DeviceLink, waited: Duration, call: String) {
        stalled.interrupt()
        let cause = "the sound server stopped taking audio for \(seconds(waited)) s (no answer to \(call)); "
            + "speech goes to null until it answers"
        fallBack(from: stalled, cause: cause, stalled: true)
    }

    private func fallBack(from link: DeviceLink, cause: String, stalled: Bool) {
        let changed = state.withLock { state -> OutputStatus? in
            if state.target === link { state.target = nil }
            guard state.link === link else { return nil }
            state.link = nil
            state.idle = StreamIdlePolicy()
            idleTimer.schedule(deadline: .distantFuture)
            state.lost = (cause, stalled)
            state.status = OutputStatus(spec: spec, active: "null", fallback: true, detail: cause, stalled: stalled)
            return state.status
        }
        if let changed {
            onChange(changed)
            scheduleRetry()
        }
    }
}

/// A connected device and the only two threads that call it.
///
/// `player` connects the device and then runs the `begin`, `write` and `end` calls handed to it,
/// one at a time; `flusher` runs interrupts, so that a flush reaches the server while a write is
/// blocked in it. When the server stops answering, only these threads wait. Jobs hold the link, so
/// a device is never freed while one of its calls is in flight: the link (and with it the device)
/// goes when the output and the last of its jobs have let go of it (for a given-up device, that is
/// its blocked call returning on its own thread), and its threads then exit.
private final class DeviceLink: Sendable {
    let device: any AudioOutput
    private let player: WorkerThread<Void>
    private let flusher = WorkerThread(name: "narrator.audio.flush")

    private init(device: any AudioOutput, player: WorkerThread<Void>) {
        self.device = device
        self.player = player
    }

    deinit {
        player.stop()
        flusher.stop()
    }

    /// Starts a player thread and connects on it; `done` gets the link or the error, on that thread.
    static func open(
        _ connect: @escaping @Sendable () throws(AudioOutputError) -> any AudioOutput,
        then done: @escaping @Sendable (Result<DeviceLink, AudioOutputError>) -> Void
    ) {
        let player = WorkerThread(name: "narrator.audio.device")
        player.submit { _ in
            do throws(AudioOutputError) {
                let device = try connect()
                done(.success(DeviceLink(device: device, player: player)))
            } catch {
                player.stop()
                done(.failure(error))
            }
        }
    }

    /// Runs `body` on the device on the player thread and settles `call` with how it went.
    func perform(
        _ call: DeviceCall, afterInterrupts: Bool,
        _ body: @escaping @Sendable (any AudioOutput) throws(AudioOutputError) -> Void
    ) {
        player.submit { [self] _ in
            if afterInterrupts { flusher.sync { _ in } }
            do throws(AudioOutputError) {
                try body(device)
                call.settle(.returned)
            } catch {
                call.settle(.failed(error))
            }
        }
    }

    /// Closes the device's stream on the player thread, after the calls handed over before.
    func standBy() {
        player.submit { [self] _ in device.standBy() }
    }

    /// Posts the device's interrupt (a flush, which waits for the server) to the flusher thread.
    func interrupt() {
        flusher.submit { [self] _ in device.interrupt() }
    }
}

/// One call handed to a device thread, and the engine thread's wait for it. The first outcome
/// counts: the call returning, an interrupt, or the deadline.
private final class DeviceCall: Sendable {
    enum Outcome: Sendable {
        case returned
        case failed(AudioOutputError)
        /// An interrupt released the wait; the call goes on unobserved.
        case interrupted
        /// The deadline passed first.
        case overdue
    }

    private let outcome = Mutex<Outcome?>(nil)
    private let settled = DispatchSemaphore(value: 0)

    /// Records `value` unless the call already has an outcome.
    func settle(_ value: Outcome) {
        let first = outcome.withLock { outcome -> Bool in
            guard outcome == nil else { return false }
            outcome = value
            return true
        }
        if first { settled.signal() }
    }

    /// Waits for the outcome until `deadline`; past it, the call is overdue unless it settled meanwhile.
    func wait(until deadline: MonotonicInstant) -> Outcome {
        if !settled.wait(until: deadline) {
            settle(.overdue)
        }
        return outcome.withLock { $0 } ?? .overdue
    }
}

/// A duration in seconds with one decimal, e.g. "2.0".
private func seconds(_ duration: Duration) -> String {
    let tenths = (max(0, duration.nanosecondsClamped) + 50_000_000) / 100_000_000
    return "\(tenths / 10).\(tenths % 10)"
}
