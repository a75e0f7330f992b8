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
            console.err("narratorctl \(command): cannot read \(path): \(whyUnreadable(path))\n")
            return nil
        }
        return [UInt8](data)
    }

    private static func whyUnreadable(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "it is a directory, not a file" }
        return FileManager.default.isReadableFile(atPath: path) ? "it cannot be read" : "permission denied"
    }
}
