/// Identifies one client connection for its whole life. Unlike a file descriptor it is never
/// reused, so a late reply or event can never reach a different client that got the same descriptor.
public struct ClientID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ClientID, rhs: ClientID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "client #\(rawValue)" }
}
