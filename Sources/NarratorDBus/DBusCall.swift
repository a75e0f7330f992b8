/// A method call on an application's object; the bus name is the application's.
public struct DBusCall: Hashable, Sendable {
    public var path: String
    public var interface: String
    public var method: String
    public var arguments: [DBusArgument]

    public init(path: String, interface: String, method: String, arguments: [DBusArgument] = []) {
        self.path = path
        self.interface = interface
        self.method = method
        self.arguments = arguments
    }
}

/// The argument types AT-SPI2's calls take.
public enum DBusArgument: Hashable, Sendable {
    case string(String)
    case int32(Int32)
    case uint32(UInt32)
    case double(Double)
    /// A value wrapped in a variant (`Properties.Set`).
    case variantDouble(Double)
    /// An array of strings (`as`).
    case strings([String])
}

/// Why a call brought no answer.
public enum DBusFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// No reply within the timeout: the application is hung (or very slow).
    case timedOut
    /// The application is no longer on the bus.
    case gone
    /// An error reply (an interface the object lacks, an object that went away).
    case error(name: String, message: String)
}

extension DBusFailure {
    public var description: String {
        switch self {
        case .timedOut: "no reply in time"
        case .gone: "it is no longer on the bus"
        case .error(let name, let message): name.isEmpty ? message : "\(name): \(message)"
        }
    }
}
