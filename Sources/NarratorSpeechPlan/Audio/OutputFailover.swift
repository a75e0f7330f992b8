import NarratorBase

/// The sound server's failover, as a value in the style of ``EngineSupervisor``: it decides which
/// device calls the engine thread hands over and how long it waits for each, when a call is
/// given up and the rest of the utterance goes to `null`, when to try to reconnect, when the
/// idle stream is closed (``StreamIdlePolicy``), and what the output's status says, reported once
/// per change. The shell (`ServerOutput` in NarratorSpeech) runs the device threads, `null`, the
/// timer and the waits as the effects say.
///
/// A device call's deadline counts from when it is handed over: the time the call may
/// legitimately take, plus `stallTimeout`. With *B* the `deviceBuffer`: a `begin` (opening a
/// stream, one round trip) gets `stallTimeout`; a write of a chunk lasting *d* gets
/// *d* + *B* + `stallTimeout` (a write blocks while the server's buffer is full, and a sink at
/// high latency asks for more only about once per buffer length); the drain gets min(*w*, *B*) +
/// `stallTimeout`, *w* being the audio the device took for this utterance. The first outcome
/// counts: the call returning or failing, an interrupt (which releases the wait at once), or the
/// deadline.
///
/// A call that overruns its deadline is a stall: the device is interrupted and let go, the rest of
/// the utterance plays on `null`, and the status says the server stopped taking audio. A call that
/// fails (the server went away) does the same with the error as the reason. `null` starts the
/// utterance afresh, and never an interrupted one. While no device is connected an attempt starts
/// every `retryInterval` (one at a time: a hung attempt holds up only the next), and failed
/// attempts that fail the same way change nothing.
///
/// Driven by typed inputs only (``OutputFailoverInput``), each with its instant on the monotonic
/// clock; it acts only by returning effects (``OutputFailoverEffect``). No threads, devices or
/// clocks: every fault runs in a test on a virtual clock.
public struct OutputFailover: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// `.auto` or `.pulse` (only changes how a missing server is reported).
        public var spec: AudioSpec
        /// How often to try to reconnect while on `null`.
        public var retryInterval: Duration
        /// How long past its expected time a device call may go unanswered before the device is given up.
        public var stallTimeout: Duration
        /// How much audio the device holds at most, which is also about the longest the server
        /// goes without asking for more (`pa_simple`'s buffer: 2 s by default).
        public var deviceBuffer: Duration
        /// How long after the last audio the device's stream is closed.
        public var idleClose: Duration

        public init(
            spec: AudioSpec, retryInterval: Duration = .seconds(2), stallTimeout: Duration = .seconds(2),
            deviceBuffer: Duration = .seconds(2), idleClose: Duration = StreamIdlePolicy.standardCloseAfter
        ) {
            self.spec = spec
            self.retryInterval = retryInterval
            self.stallTimeout = stallTimeout
            self.deviceBuffer = deviceBuffer
            self.idleClose = idleClose
        }
    }

    struct Device: Sendable, Hashable {
        var id: OutputDeviceID
        var name: String
    }

    enum Outcome: Sendable, Hashable {
        case returned
        case failed(String)
        /// An interrupt released the wait; the call goes on unobserved.
        case interrupted
        /// The deadline passed first.
        case overdue
    }

    /// The engine thread's call waiting on a device.
    struct Waiting: Sendable, Hashable {
        var id: DeviceCallID
        var device: Device
        var call: OutputCall
        /// How long the call was given, counted from `deadline - budget`.
        var budget: Duration
        var deadline: MonotonicInstant
        /// The audio a write carries, added to `written` when it returns.
        var audio: Duration
        /// The first outcome, once there is one.
        var outcome: Outcome?
    }

    /// Why the device was lost, kept while reconnecting fails so that `status` still names the cause.
    struct Loss: Sendable, Hashable {
        var cause: String
        var stalled: Bool
    }

    public let configuration: Configuration
    /// The output in use and whether it is a fallback (and why).
    public private(set) var status: OutputStatus
    /// The connected device; nil while speech goes to `null`.
    var link: Device?
    /// The connection attempt under way (then no other starts).
    var connecting: OutputDeviceID?
    /// When the next attempt starts (at most one is armed).
    var retryAt: MonotonicInstant?
    var lost: Loss?
    /// The device the current utterance goes to; nil when it goes to `null`.
    var target: Device?
    /// The utterance being played, so that `null` can take it over in the middle.
    var playing: OutputUtterance?
    /// Whether `playing` was interrupted: then `null` must not take it over and sound it out.
    var interrupted = false
    /// The audio of `playing` that the device took, which bounds how long its drain may last.
    var written = Duration.zero
    var waiting: Waiting?
    /// Until when the output's creator waits for the first connection.
    var startUntil: MonotonicInstant?
    /// When the connected device's stream is closed between utterances.
    var idle = StreamIdlePolicy()
    private var timer: MonotonicInstant?
    private var nextDevice: UInt64 = 1
    private var nextCall: UInt64 = 1
    private var effects: [OutputFailoverEffect] = []
    private var pendingWait: OutputFailoverEffect?
    private var now = MonotonicInstant(nanoseconds: 0)

    public init(configuration: Configuration) {
        self.configuration = configuration
        status = OutputStatus(spec: configuration.spec, active: "null", fallback: true, detail: "not connected yet")
    }

    /// Takes one input at `now` and returns what to do about it, in order.
    public mutating func handle(_ input: OutputFailoverInput, at now: MonotonicInstant) -> [OutputFailoverEffect] {
        self.now = max(self.now, now)
        effects = []
        pendingWait = nil
        switch input {
        case .start:
            startConnecting()
            startUntil = self.now + configuration.stallTimeout
            pendingWait = .wait(.startUp, until: self.now + configuration.stallTimeout)
        case .engine(.begin(let utterance)):
            begin(utterance)
        case .engine(.write(let samples)):
            write(samples)
        case .engine(.end):
            end()
        case .interrupt:
            interrupt()
        case .attemptReconnect:
            startConnecting()
        case .connected(let id, let name):
            connected(id, name: name)
        case .connectFailed(let id, let reason):
            connectFailed(id, reason: reason)
        case .callReturned(let id):
            settle(id, .returned)
        case .callFailed(let id, let reason):
            settle(id, .failed(reason))
        case .waited(.startUp):
            startUpWaited()
        case .waited(.call(let id)):
            callWaited(id)
        case .timerFired:
            timer = nil
            timerFired()
        }
        updateTimer()
        if let pendingWait { effects.append(pendingWait) }
        return effects
    }

    // MARK: - The engine thread's calls

    private mutating func begin(_ utterance: OutputUtterance) {
        target = link
        if link != nil { _ = idle.began(at: now) }
        playing = utterance
        interrupted = false
        written = .zero
        guard let target else {
            continueOnNull()
            return
        }
        hand(.begin(utterance), to: target, within: configuration.stallTimeout)
    }

    private mutating func write(_ samples: [Int16]) {
        guard let target else {
            effects.append(.null(.write(samples)))
            return
        }
        guard !interrupted, let playing else { return }
        let audio = playing.duration(ofSamples: samples.count)
        hand(.write(samples), to: target, within: audio + configuration.deviceBuffer + configuration.stallTimeout, audio: audio)
    }

    private mutating func end() {
        guard let target else {
            effects.append(.null(.end))
            return
        }
        hand(.end, to: target, within: min(written, configuration.deviceBuffer) + configuration.stallTimeout)
    }

    /// Hands `call` to the device and waits for it until `budget` has passed. A `begin` or `end`
    /// runs only after the interrupts posted before it (so that a late interrupt cannot hit the
    /// next utterance, and a drain after an interrupt finds the device silenced); one handed over
    /// after an interrupt is not waited for.
    private mutating func hand(_ call: OutputCall, to device: Device, within budget: Duration, audio: Duration = .zero) {
        let id = DeviceCallID(nextCall)
        nextCall += 1
        var afterInterrupts = true
        if case .write = call { afterInterrupts = false }
        effects.append(.call(device.id, id, call, afterInterrupts: afterInterrupts))
        let handed = Waiting(id: id, device: device, call: call, budget: budget, deadline: now + budget, audio: audio)
        if interrupted {
            conclude(handed, .interrupted)
            return
        }
        waiting = handed
        pendingWait = .wait(.call(id), until: handed.deadline)
    }

    private mutating func settle(_ id: DeviceCallID, _ outcome: Outcome) {
        guard var call = waiting, call.id == id, call.outcome == nil else { return }
        call.outcome = outcome
        waiting = call
        effects.append(.wake(.call(id)))
    }

    private mutating func callWaited(_ id: DeviceCallID) {
        guard let call = waiting, call.id == id else { return }
        if let outcome = call.outcome {
            waiting = nil
            conclude(call, outcome)
        } else if now >= call.deadline {
            waiting = nil
            conclude(call, .overdue)
        } else {
            pendingWait = .wait(.call(id), until: call.deadline)
        }
    }

    /// What follows a call's outcome: its audio counted, or the device given up and `null` taking over.
    private mutating func conclude(_ call: Waiting, _ outcome: Outcome) {
        switch outcome {
        case .returned:
            if call.device == target { written += call.audio }
        case .interrupted:
            break
        case .failed(let reason):
            fallBack(from: call.device, cause: "lost \(call.device.name): \(reason)", stalled: false)
            resumeOnNull(call.call)
        case .overdue:
            effects.append(.interruptDevice(call.device.id))
            let cause = "the sound server stopped taking audio for \(seconds(call.budget)) s (no answer to \(call.call.described)); "
                + "speech goes to null until it answers"
            fallBack(from: call.device, cause: cause, stalled: true)
            resumeOnNull(call.call)
        }
        if case .end = call.call, link == call.device {
            // The stream fell silent: its close is now due at `idle.timer`.
            _ = idle.ended(at: now)
        }
    }

    private mutating func resumeOnNull(_ call: OutputCall) {
        switch call {
        case .begin:
            continueOnNull()
        case .write(let samples):
            continueOnNull()
            effects.append(.null(.write(samples)))
        case .end:
            break
        }
    }

    /// Starts `null` on the utterance the device dropped (or never had), unless it was interrupted.
    private mutating func continueOnNull() {
        guard !interrupted, let playing else { return }
        effects.append(.null(.begin(playing)))
    }

    /// Releases a call the engine thread waits for, posts the device's interrupt (a flush) to its
    /// flusher thread, and silences `null`.
    private mutating func interrupt() {
        interrupted = true
        if let call = waiting, call.outcome == nil {
            settle(call.id, .interrupted)
        }
        if let target { effects.append(.interruptDevice(target.id)) }
        effects.append(.interruptNull)
    }

    /// Gives `device` up for `null`: said once, and reconnect attempts start.
    private mutating func fallBack(from device: Device, cause: String, stalled: Bool) {
        if target == device { target = nil }
        guard link == device else { return }
        link = nil
        idle = StreamIdlePolicy()
        lost = Loss(cause: cause, stalled: stalled)
        effects.append(.forget(device.id))
        report(OutputStatus(spec: configuration.spec, active: "null", fallback: true, detail: cause, stalled: stalled))
        scheduleRetry()
    }

    // MARK: - Connecting

    private mutating func startConnecting() {
        guard link == nil, connecting == nil else { return }
        let id = OutputDeviceID(nextDevice)
        nextDevice += 1
        connecting = id
        effects.append(.connect(id))
    }

    /// Arms the next attempt while no device is connected. The chain ends at the first attempt
    /// due once one is (so a connected, idle output sets no timer), and starts again when it is lost.
    private mutating func scheduleRetry() {
        guard link == nil, retryAt == nil else { return }
        retryAt = now + configuration.retryInterval
    }

    private mutating func connected(_ id: OutputDeviceID, name: String) {
        guard connecting == id, link == nil else {
            effects.append(.forget(id))
            return
        }
        connecting = nil
        link = Device(id: id, name: name)
        idle = StreamIdlePolicy(closeAfter: configuration.idleClose, openAt: now)
        lost = nil
        report(OutputStatus(spec: configuration.spec, active: name, fallback: false))
        if startUntil != nil { effects.append(.wake(.startUp)) }
    }

    private mutating func connectFailed(_ id: OutputDeviceID, reason: String) {
        guard connecting == id else { return }
        connecting = nil
        var detail = configuration.spec == .auto ? "no sound server reachable: \(reason)" : reason
        if let lost {
            detail = "\(lost.cause); reconnecting every \(seconds(configuration.retryInterval)) s (last attempt: \(detail))"
        }
        if status.detail != detail {
            report(OutputStatus(spec: configuration.spec, active: "null", fallback: true, detail: detail, stalled: lost?.stalled ?? false))
        }
        if startUntil != nil { effects.append(.wake(.startUp)) }
    }

    /// The creator's wait for the first connection ended: past its deadline with the attempt
    /// still hanging, speech goes to `null` with the reason, and the attempt may still complete.
    private mutating func startUpWaited() {
        guard let until = startUntil else { return }
        if connecting != nil, link == nil {
            guard now >= until else {
                pendingWait = .wait(.startUp, until: until)
                return
            }
            report(OutputStatus(
                spec: configuration.spec, active: "null", fallback: true,
                detail: "the sound server has not answered for \(seconds(configuration.stallTimeout)) s; speech goes to null until it answers",
                stalled: true))
        }
        startUntil = nil
        scheduleRetry()
    }

    // MARK: - The timer

    private mutating func timerFired() {
        if let at = retryAt, now >= at {
            retryAt = nil
            startConnecting()
            scheduleRetry()
        }
        if let link, idle.timerFired(at: now).contains(.close) {
            effects.append(.closeStream(link.id))
        }
    }

    /// Keeps the one timer set for the earliest of the next attempt and the idle close.
    private mutating func updateTimer() {
        let due = [retryAt, link == nil ? nil : idle.timer].compactMap { $0 }.min()
        guard due != timer else { return }
        timer = due
        effects.append(due.map { .setTimer($0) } ?? .cancelTimer)
    }

    private mutating func report(_ changed: OutputStatus) {
        status = changed
        effects.append(.report(changed))
    }
}

/// A duration in seconds with one decimal, e.g. "2.0".
private func seconds(_ duration: Duration) -> String {
    let tenths = (max(0, duration.nanosecondsClamped) + 50_000_000) / 100_000_000
    return "\(tenths / 10).\(tenths % 10)"
}
