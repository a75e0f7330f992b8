/// What `status` reports about audio.
public struct OutputStatus: Sendable, Hashable {
    /// What `--audio` asked for.
    public var spec: AudioSpec
    /// The output in use now: "pulse", "null" or "wav:DIR".
    public var active: String
    /// True when the sound server was wanted but is not reachable, so speech goes to `null`.
    public var fallback: Bool
    /// Why the output is what it is (e.g. the error that caused a fallback).
    public var detail: String?
    /// True when the sound server stopped taking audio and was given up for `null` until it answers.
    public var stalled: Bool

    /// False while speech goes to null in place of the sound server that was asked for (or
    /// that auto found before): nobody hears it. A chosen `null` or `wav:DIR` output reaches
    /// whoever asked for it.
    public var reachesListener: Bool { !fallback && !stalled }

    public init(spec: AudioSpec, active: String, fallback: Bool, detail: String? = nil, stalled: Bool = false) {
        self.spec = spec
        self.active = active
        self.fallback = fallback
        self.detail = detail
        self.stalled = stalled
    }
}
