/// A D-Bus server address (`unix:path=/run/user/1000/at-spi/bus_0,guid=…`) as the sockets it
/// names, in the order to try them. Only Unix sockets are spoken: the accessibility bus is always
/// one, and an address with none is an error that quotes it.
public enum DBusAddress: Equatable, Sendable {
    case path(String)
    /// Linux's abstract namespace (`unix:abstract=/tmp/dbus-…`).
    case abstract(String)

    /// The Unix sockets `address` lists (`;`-separated), values unescaped (`%2c` is `,`).
    public static func parse(_ address: String) throws(DBusWireError) -> [DBusAddress] {
        var sockets: [DBusAddress] = []
        for entry in address.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { continue }
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let value = try unescape(pair[pair.index(after: equals)...], in: address)
                switch pair[..<equals] {
                case "path": sockets.append(.path(value))
                case "abstract": sockets.append(.abstract(value))
                default: break
                }
            }
        }
        guard !sockets.isEmpty else {
            throw DBusWireError(description: "the address \(address.debugDescription) names no Unix socket (unix:path= or unix:abstract=)")
        }
        return sockets
    }

    private static func unescape(_ value: Substring, in address: String) throws(DBusWireError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(value.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(), let code = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else {
                throw DBusWireError(description: "the address \(address.debugDescription) has a '%' not followed by two hex digits")
            }
            bytes.append(code)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// SASL's `EXTERNAL` mechanism: the client's user id, as decimal digits written in hex, as the
    /// first line a client sends (after a NUL byte).
    public static func authenticationLine(uid: UInt32) -> String {
        let digits = String(uid).utf8.map { byte -> String in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }
        return "AUTH EXTERNAL " + digits.joined() + "\r\n"
    }
}
