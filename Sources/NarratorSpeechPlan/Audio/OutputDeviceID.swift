/// Names one connection to the sound server: each attempt gets the next number, so that what a
/// shell reports about a device already given up (a connection that completes late) is told apart.
public struct OutputDeviceID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: OutputDeviceID, b: OutputDeviceID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "device \(rawValue)" }
}

/// Names one call handed to a device's player thread, so that its result, which may come long
/// after the engine thread stopped waiting for it, is matched to the wait (or ignored).
public struct DeviceCallID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: DeviceCallID, b: DeviceCallID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "call \(rawValue)" }
}
