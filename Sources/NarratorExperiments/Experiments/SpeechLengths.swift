/// How long each text takes to say, measured once before a sweep and then only read: an
/// immutable value every parallel cell can share.
public struct SpeechLengths: Sendable, Equatable {
    public let lengths: [String: Duration]

    public init(_ lengths: [String: Duration]) { self.lengths = lengths }

    /// A text's length; zero for one that was never measured (as replay treats it).
    public func callAsFunction(_ text: String) -> Duration { lengths[text] ?? .zero }

    /// Every text a trace can make speech say.
    public static func texts(of events: [TraceEvent]) -> Set<String> {
        Set(events.compactMap(\.text))
    }
}
