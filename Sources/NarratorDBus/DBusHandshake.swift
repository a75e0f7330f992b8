/// The client's side of D-Bus's authentication (SASL `EXTERNAL`, the only mechanism a Unix
/// socket needs), fed the server's bytes as they come: the bus's connection waits for it, an
/// application's own socket (``DBusAddress``, from `GetApplicationBusAddress`) is not waited for,
/// so that an application that never answers holds up nothing.
public struct DBusHandshake: Sendable {
    /// What the server's bytes so far amount to.
    public enum Step: Equatable, Sendable {
        /// No whole line yet.
        case waiting
        /// The server said `OK`: write `begin`, then messages; `rest` are bytes of the server's
        /// first messages that came with its answer.
        case accepted(rest: [UInt8])
        /// The server said something else (`REJECTED`, `ERROR`), or nonsense: why, in its words.
        case refused(String)
    }

    /// A line longer than this is no SASL answer.
    public static let maximumLineBytes = 1_024
    /// What starts the exchange: a NUL byte and `AUTH EXTERNAL` with the user's id.
    public static func opening(uid: UInt32) -> [UInt8] { [0] + Array(DBusAddress.authenticationLine(uid: uid).utf8) }
    /// What ends it, once the server has said `OK`.
    public static let begin = Array("BEGIN\r\n".utf8)

    private var line: [UInt8] = []
    private var done = false

    public init() {}

    /// The server's next bytes.
    public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Step {
        guard !done else { return .refused("the server's answer was already read") }
        var index = bytes.startIndex
        while index != bytes.endIndex {
            line.append(bytes[index])
            index = bytes.index(after: index)
            if line.count >= 2, line[line.count - 2] == 13, line[line.count - 1] == 10 {
                done = true
                let answer = String(decoding: line.dropLast(2), as: UTF8.self)
                guard answer.hasPrefix("OK ") else { return .refused(answer.isEmpty ? "an empty line" : answer) }
                return .accepted(rest: Array(bytes[index...]))
            }
            if line.count > Self.maximumLineBytes {
                done = true
                return .refused("\(Self.maximumLineBytes) bytes without a line's end")
            }
        }
        return .waiting
    }
}
