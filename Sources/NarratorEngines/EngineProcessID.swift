/// Names one process of an engine: each spawn gets the next number, so that what a shell still
/// reports about a process already given up (its last frames, its exit) is told apart and ignored.
public struct EngineProcessID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: EngineProcessID, b: EngineProcessID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "process \(rawValue)" }
}
