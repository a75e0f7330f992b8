import Foundation

/// Reads a file argument (`-` is standard input) for a command, reporting a failure the same
/// way everywhere: "narratorctl show: cannot read PATH: no such file".
enum InputFile {
    /// Whether a FILE|TREE argument names a file (or standard input) rather than a registered tree.
    static func isFile(_ argument: String) -> Bool {
        argument == "-" || argument.contains("/") || argument.hasSuffix(".json") || FileManager.default.fileExists(atPath: argument)
    }

    static func read(_ path: String, for command: String, console: Console) -> [UInt8]? {
        if path == "-" { return console.readStandardInput() }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            console.err("narratorctl \(command): cannot read \(path): \(reason)\n")
            return nil
        }
        return [UInt8](data)
    }
}
