/// What `status` reports about audio.
public struct OutputStatus: Sendable, Hashable {
    /// What `--audio` asked for.
    public var spec: AudioSpec
    /// The output in use now: "pulse", "null" or "wav:DIR".
    public var active: String
    /// True when the sound server was wanted but is not reachable, so speech goes to `null`.
    public var fallback: Bool
    /// True when the fallback is because the sound server stopped answering (it is still there but
    /// takes no audio, e.g. a stopped or hung process), rather than because it is gone.
    public var stalled: Bool
    /// Why the output is what it is (e.g. the error that caused a fallback).
    public var detail: String?

    public init(spec: AudioSpec, active: String, fallback: Bool, stalled: Bool = false, detail: String? = nil) {
        self.spec = spec
        self.active = active
        self.fallback = fallback
        self.stalled = stalled
        self.detail = detail
    }
}
