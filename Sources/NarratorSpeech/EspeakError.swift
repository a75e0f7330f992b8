import CEspeak

/// A failure of eSpeak NG, carrying the library's status code so that it can be looked up.
public enum EspeakError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data directory passed in does not exist or holds no `phontab`.
    case dataNotFound(path: String)
    /// The data is there but this user cannot read it (`path` is the directory or file refused).
    case dataUnreadable(path: String)
    /// `espeak_ng_Initialize` failed: the data is missing, unreadable or from another version.
    case initializationFailed(status: UInt32, message: String, path: String?)
    /// The synchronous output mode could not be set up.
    case outputSetupFailed(status: UInt32, message: String)
    /// Another `EspeakEngine` already owns the library in this process.
    case libraryInUse
    /// No installed voice matches the name or language.
    case voiceNotFound(String, status: UInt32)
    /// eSpeak NG refused a parameter value.
    case parameterRejected(name: String, value: Int, status: UInt32)
    /// Synthesis itself failed.
    case synthesisFailed(status: UInt32, message: String)

    public var description: String {
        switch self {
        case .dataNotFound(let path):
            return "eSpeak NG data not found at '\(path)': expected a directory holding 'phontab' "
                + "(install espeak-ng-data, or pass the path of its espeak-ng-data directory)"
        case .dataUnreadable(let path):
            return "eSpeak NG data at '\(path)' cannot be read by this user (check its permissions and its directories'; "
                + "the files of espeak-ng-data must be readable by everyone who runs narratord)"
        case .initializationFailed(let status, let message, let path):
            let location = path.map { " from '\($0)'" } ?? " from the default location"
            return "eSpeak NG could not load its data\(location): \(message) (status 0x\(String(status, radix: 16))); "
                + "reinstall espeak-ng-data or fix the data path"
        case .outputSetupFailed(let status, let message):
            return "eSpeak NG could not set up synchronous output: \(message) (status 0x\(String(status, radix: 16)))"
        case .libraryInUse:
            return "eSpeak NG is already owned by another engine in this process (the library is not thread-safe)"
        case .voiceNotFound(let name, let status):
            return "no eSpeak NG voice matches '\(name)' (status 0x\(String(status, radix: 16))); list voices to see the installed ones"
        case .parameterRejected(let name, let value, let status):
            return "eSpeak NG rejected \(name)=\(value) (status 0x\(String(status, radix: 16)))"
        case .synthesisFailed(let status, let message):
            return "eSpeak NG synthesis failed: \(message) (status 0x\(String(status, radix: 16)))"
        }
    }

    /// The library's text for a status code.
    static func message(for status: espeak_ng_STATUS) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
