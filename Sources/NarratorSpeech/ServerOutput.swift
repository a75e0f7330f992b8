import Dispatch
import Foundation
import NarratorCore

/// The sound server when it is reachable, `null` (in real time) when it is not.
///
/// Used for `--audio auto` and `--audio pulse`. A failed write (the server went away) moves the
/// rest of the utterance to `null`, which starts it afresh (an earlier utterance's interrupt must
/// not make it rush through in silence), and reports a fallback; a timer tries to reconnect every
/// `retryInterval` and switches back when the server returns. Never throws: losing the sound
/// server must not stop speech.
public final class ServerOutput: AudioOutput, @unchecked Sendable {
    private let spec: AudioSpec
    private let retryInterval: Duration
    private let connect: @Sendable () throws(AudioOutputError) -> any AudioOutput
    private let onChange: @Sendable (OutputStatus) -> Void
    private let null = NullOutput()
    private let lock = NSLock()
    private let timerQueue = DispatchQueue(label: "narrator.audio.reconnect")
    private var timer: (any DispatchSourceTimer)?
    // Guarded by `lock`.
    private var device: (any AudioOutput)?
    private var current: any AudioOutput
    private var reported: OutputStatus
    /// Why the device was lost, kept while reconnecting fails so that `status` still names the cause.
    private var lostCause: String?
    /// The utterance being played, so that `null` can take it over in the middle.
    private var playing: (utterance: UtteranceID, kind: SpeechKind, format: AudioFormat)?
    /// Whether `playing` was interrupted: then `null` must not take it over and sound it out.
    private var interrupted = false

    /// - Parameters:
    ///   - spec: `.auto` or `.pulse` (only changes how a missing server is reported).
    ///   - connect: opens the device; the default is ``PulseOutput``.
    ///   - onChange: called whenever the active output changes (from the reconnect queue or the engine thread).
    public init(
        spec: AudioSpec,
        retryInterval: Duration = .seconds(2),
        connect: @escaping @Sendable () throws(AudioOutputError) -> any AudioOutput = { () throws(AudioOutputError) in try PulseOutput() },
        onChange: @escaping @Sendable (OutputStatus) -> Void = { _ in }
    ) {
        self.spec = spec
        self.retryInterval = retryInterval
        self.connect = connect
        self.onChange = onChange
        current = null
        reported = OutputStatus(spec: spec, active: "null", fallback: true, detail: "not connected yet")
        attemptReconnect()
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        let interval = DispatchTimeInterval.nanoseconds(Int(retryInterval.nanosecondsClamped))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.attemptReconnect() }
        timer.resume()
        self.timer = timer
    }

    deinit {
        timer?.cancel()
    }

    public var name: String {
        lock.withLock { current.name }
    }

    /// The output in use and whether it is a fallback.
    public var status: OutputStatus {
        lock.withLock { reported }
    }

    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        let target = lock.withLock { () -> any AudioOutput in
            current = device ?? null
            playing = (utterance, kind, format)
            interrupted = false
            return current
        }
        do {
            try target.begin(utterance, kind: kind, format: format)
        } catch {
            lose(target, error)
            null.begin(utterance, kind: kind, format: format)
        }
    }

    public func write(_ samples: [Int16]) {
        let target = lock.withLock { current }
        do {
            try target.write(samples)
        } catch {
            lose(target, error)
            continueOnNull()
            null.write(samples)
        }
    }

    public func end() {
        let target = lock.withLock { current }
        do {
            try target.end()
        } catch {
            lose(target, error)
        }
    }

    public func interrupt() {
        let target = lock.withLock { () -> any AudioOutput in
            interrupted = true
            return current
        }
        target.interrupt()
        if target !== null { null.interrupt() }
    }

    /// Tries to reach the server when not connected. Called by the timer; callable directly.
    public func attemptReconnect() {
        guard lock.withLock({ device == nil }) else { return }
        do {
            let opened = try connect()
            let changed = lock.withLock { () -> OutputStatus in
                device = opened
                lostCause = nil
                reported = OutputStatus(spec: spec, active: opened.name, fallback: false, detail: nil)
                return reported
            }
            onChange(changed)
        } catch {
            let changed = lock.withLock { () -> OutputStatus? in
                var reason = spec == .auto ? "no sound server reachable: \(error)" : "\(error)"
                if let lostCause { reason = "\(lostCause); reconnecting every \(Double(retryInterval.nanosecondsClamped) / 1e9) s (last attempt: \(reason))" }
                guard reported.detail != reason else { return nil }
                reported = OutputStatus(spec: spec, active: "null", fallback: true, detail: reason)
                return reported
            }
            if let changed { onChange(changed) }
        }
    }

    /// Starts `null` on the utterance the device dropped in the middle, unless it was interrupted.
    /// Under the lock, so that an interrupt either comes first (and is honoured) or reaches `null` after.
    private func continueOnNull() {
        lock.withLock {
            guard !interrupted, let playing else { return }
            null.begin(playing.utterance, kind: playing.kind, format: playing.format)
        }
    }

    /// The device failed: speak to `null` until the server is back.
    private func lose(_ failed: any AudioOutput, _ error: AudioOutputError) {
        let changed = lock.withLock { () -> OutputStatus? in
            guard let device, device === failed else { return nil }
            self.device = nil
            current = null
            lostCause = "lost \(failed.name): \(error)"
            reported = OutputStatus(spec: spec, active: "null", fallback: true, detail: lostCause)
            return reported
        }
        if let changed { onChange(changed) }
    }
}
