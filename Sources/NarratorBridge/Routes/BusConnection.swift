/// One of the bridge's connections: the accessibility bus (0), or an application's own socket
/// (numbered from 1 by ``BusRoutes`` as it asks the shell to open them, never reused).
public struct BusConnection: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var number: Int

    public init(_ number: Int) {
        self.number = number
    }

    /// The accessibility bus's own connection.
    public static let bus = BusConnection(0)

    public static func < (a: BusConnection, b: BusConnection) -> Bool { a.number < b.number }

    public var description: String { number == 0 ? "the bus" : "socket \(number)" }
}
