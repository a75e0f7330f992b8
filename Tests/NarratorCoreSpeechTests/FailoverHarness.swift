import NarratorBase
import NarratorSpeechPlan

/// An ``OutputFailover`` on a virtual clock, fed one input at a time; each step returns the exact
/// effects, and `reports` keeps every status reported so far.
struct FailoverHarness {
    static let configuration = OutputFailover.Configuration(
        spec: .pulse, retryInterval: .seconds(1), stallTimeout: .milliseconds(500),
        deviceBuffer: .milliseconds(200), idleClose: .seconds(2))
    /// The status of a connected device.
    static let connected = OutputStatus(spec: .pulse, active: "pulse", fallback: false)

    var failover: OutputFailover
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    private(set) var reports: [OutputStatus] = []

    init(_ configuration: OutputFailover.Configuration = Self.configuration) {
        failover = OutputFailover(configuration: configuration)
    }

    /// Feeds `input` after `delay` has passed.
    @discardableResult
    mutating func feed(_ input: OutputFailoverInput, after delay: Duration = .zero) -> [OutputFailoverEffect] {
        now = now + delay
        let effects = failover.handle(input, at: now)
        for case .report(let status) in effects { reports.append(status) }
        return effects
    }

    /// Starts the output and connects device 1 at once, as the first attempt on a live server does.
    mutating func connect() {
        feed(.start)
        feed(.connected(OutputDeviceID(1), name: "pulse"))
        feed(.waited(.startUp))
    }

    /// A device call that returns at once; its wait ends with no effects.
    mutating func returns(_ call: UInt64) -> [OutputFailoverEffect] {
        feed(.callReturned(DeviceCallID(call))) + feed(.waited(.call(DeviceCallID(call))))
    }
}

let device1 = OutputDeviceID(1)
let device2 = OutputDeviceID(2)
let device3 = OutputDeviceID(3)
let device4 = OutputDeviceID(4)

func call(_ id: UInt64) -> DeviceCallID { DeviceCallID(id) }

func utterance(_ id: UInt64) -> OutputUtterance {
    OutputUtterance(id: UtteranceID(id), kind: .focus, sampleRate: 1_000)
}

/// 20 ms of audio (at 1 kHz, so that a failure prints it short).
let chunk = [Int16](repeating: 1_000, count: 20)

/// The status after the device stopped answering `call` for `seconds`.
func stalled(_ seconds: String, _ call: String) -> OutputStatus {
    OutputStatus(
        spec: .pulse, active: "null", fallback: true,
        detail: "the sound server stopped taking audio for \(seconds) s (no answer to \(call)); speech goes to null until it answers",
        stalled: true)
}
