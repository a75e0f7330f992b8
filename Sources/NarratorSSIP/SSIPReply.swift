/// One reply: `NNN-data` lines then `NNN text`. An error reply (3xx to 5xx) is also what the
/// parser fails with, so that the caller sends it as it is.
public struct SSIPReply: Error, Sendable, Hashable {
    public var code: Int
    public var data: [String]
    public var text: String

    public init(_ code: Int, _ text: String, data: [String] = []) {
        self.code = code
        self.text = text
        self.data = data
    }

    /// The bytes to send: every line ends "\r\n". A CR or LF inside a data line or the text
    /// becomes a space, since a line break there would end the line early and desynchronise the client.
    public var wire: String {
        var out = ""
        // A voice list is 13,000 lines: grown step by step it was copied a dozen times.
        if data.count > 16 { out.reserveCapacity(data.reduce(text.utf8.count + 6) { $0 + $1.utf8.count + 6 }) }
        for line in data {
            out += "\(code)-\(Self.oneLine(line))\r\n"
        }
        out += "\(code) \(Self.oneLine(text))\r\n"
        return out
    }

    /// 3xx (the server could not), 4xx (refused) and 5xx (malformed command) are errors;
    /// python3-speechd raises on anything outside 2xx.
    public var isError: Bool { code >= 300 }

    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(scalar == "\r" || scalar == "\n" ? " " : scalar)
        }
        return String(scalars)
    }
}
