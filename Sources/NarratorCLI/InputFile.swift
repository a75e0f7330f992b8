import Foundation
import NarratorBase

/// Reads a file argument (`-` is standard input) for a command, reporting a failure the same
/// way everywhere: "narratorctl show: cannot read PATH: no such file".
enum InputFile {
    /// Whether a FILE|TREE argument names a file (or standard input) rather than a registered tree.
    static func isFile(_ argument: String) -> Bool {
        argument == "-" || argument.contains("/") || argument.hasSuffix(".json") || FileManager.default.fileExists(atPath: argument)
    }

    /// The file's bytes without a UTF-8 byte-order mark, which some editors put at the start
    /// (JSON forbids it, but it says nothing, so it is dropped rather than refused).
    static func read(_ path: String, for command: String, console: Console) -> [UInt8]? {
        let bytes: [UInt8]
        if path == "-" {
            bytes = console.readStandardInput()
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                console.err("narratorctl \(command): cannot read \(path): \(whyUnreadable(path))\n")
                return nil
            }
            bytes = [UInt8](data)
        }
        return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    private static func whyUnreadable(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" + nearest(to: path) }
        if isDirectory.boolValue { return "it is a directory, not a file" }
        return FileManager.default.isReadableFile(atPath: path) ? "it cannot be read" : "permission denied"
    }

    /// "; did you mean examples/traces/chat-burst.jsonl?" when a file beside the missing one has a
    /// name close to it (a wrong extension, a typo).
    private static func nearest(to path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory),
              let match = Suggestion.nearest(to: url.lastPathComponent, in: names)
        else { return "" }
        let prefix = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) + "/" : ""
        return "; did you mean \(prefix + match)?"
    }
}
