/// A custom rotor: a named list of elements the user can jump between (e.g. "Unread").
public struct CustomRotor: Equatable, Sendable {
    public var name: String
    /// Element ids, in the order the app gives them; navigation follows reading order.
    public var targets: [String]

    public init(name: String, targets: [String]) {
        self.name = name
        self.targets = targets
    }
}
