/// A speech engine's name: eSpeak NG (in narratord's own process) or an engine process found at
/// start-up, which gives its own name in its listing. The set is open (any engine process on the
/// path), so a wrapped string rather than an enum, with the known engines as statics; the core
/// passes these, and strings appear only where names are read or written (settings, the wire,
/// narratorctl).
public struct EngineName: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// eSpeak NG, the engine everything falls back to.
    public static let espeak = EngineName("espeak-ng")
    public static let flite = EngineName("flite")
    public static let piper = EngineName("piper")

    public var description: String { rawValue }

    public static func < (a: EngineName, b: EngineName) -> Bool { a.rawValue < b.rawValue }
}
