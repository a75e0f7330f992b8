import NarratorBase
import NarratorCommandLine

/// `narratord.conf`: `key = value` lines, `#` comments, keys named like the long options
/// (`rate = 200`, `audio = pulse`). Command-line flags override the file.
public enum ConfigFile {
    /// Keys the file may set: every option in `DaemonOptions.table` except help, version and
    /// config itself, named without their dashes, in the order `--help` lists them.
    public static let keys = DaemonOptions.table.filter(\.isConfigKey).map(\.configKey)

    /// The default place: `$XDG_CONFIG_HOME/narrator/narratord.conf`, else `~/.config/...`.
    public static func defaultPath(_ environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/narrator/narratord.conf" }
        return (environment["HOME"] ?? "/tmp") + "/.config/narrator/narratord.conf"
    }

    public struct Entry: Equatable, Sendable {
        public var key: String
        public var value: String
        public var line: Int
    }

    /// Parses the text, naming the file and line of the first mistake.
    public static func parse(_ text: String, file: String) throws(UsageError) -> [Entry] {
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw).trimmed(of: " \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw UsageError("\(file):\(index + 1): expected \"key = value\", got \"\(line)\"")
            }
            let key = String(line[..<equals]).trimmed(of: " \t")
            let value = String(line[line.index(after: equals)...]).trimmed(of: " \t")
            guard keys.contains(key) else {
                throw UsageError(
                    "\(file):\(index + 1): unknown key \"\(key)\"" + Suggestion.hint(for: key, in: keys)
                        + " (keys: \(keys.joined(separator: ", ")))")
            }
            guard !value.isEmpty else { throw UsageError("\(file):\(index + 1): \(key) has no value") }
            entries.append(Entry(key: key, value: value, line: index + 1))
        }
        return entries
    }
}

extension String {
    func trimmed(of set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
