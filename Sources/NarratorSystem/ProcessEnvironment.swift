import CNarratorSystem

/// The process's environment variables, as a dictionary (what `ProcessInfo` gives, without
/// Foundation). A name given twice keeps its first value, the one getenv(3) returns.
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        guard var entry = narrator_environment() else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
