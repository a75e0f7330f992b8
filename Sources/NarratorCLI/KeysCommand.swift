import Foundation
import NarratorCommandLine
import NarratorKeyboard
import NarratorModel

/// `narratorctl keys`: Narrator's key bindings as narrator-atspi reads them (the defaults with the
/// keymap file over them), the refused lines of that file, the commands a keymap may name, or
/// docs/keys.md. Offline: it reads the same file narrator-atspi reads at start.
public enum KeysCommand {
    /// What `keys` prints.
    public enum Listing: Equatable, Sendable { case bindings(file: String?), commands, markdown }

    static let spec = CommandSpec(
        name: "keys", summary: "list Narrator's keys: the bindings in force, the keymap file's refused lines",
        options: [
            OptionSpec("--file", value: "PATH", help: "the keymap file to read (default: $XDG_CONFIG_HOME/narrator/keymap)"),
            OptionSpec("--commands", help: "list the commands a keymap line may name"),
            OptionSpec("--markdown", help: "print docs/keys.md (both layouts' defaults)"),
        ],
        discussion: """
            Prints each binding (chord, command, what it does) on the keymap's layout, after the
            keymap file's refused lines, each with its number, on stderr; exit 1 when a line was
            refused. With --json an object {layout, file, bindings: [{chord, command, summary}],
            problems: [{line, message}]}. narrator-atspi reads the file when it starts and on SIGHUP;
            docs/keys.md describes it.
            """,
        connects: .never,
        build: { parsed throws(UsageError) in
            if parsed.has("--markdown") { return .keys(.markdown) }
            if parsed.has("--commands") { return .keys(.commands) }
            return .keys(.bindings(file: parsed.value("--file")))
        })

    static func run(_ listing: Listing, json: Bool, environment: [String: String], console: Console) -> ExitStatus {
        switch listing {
        case .commands:
            console.out(KeymapListing.commands())
            return .success
        case .markdown:
            console.out(KeymapListing.markdown())
            return .success
        case .bindings(let file):
            let path = file ?? KeymapFile.path(environment: environment)
            var text = ""
            if FileManager.default.fileExists(atPath: path) {
                guard let bytes = InputFile.read(path, for: "keys", console: console) else { return .refused }
                text = String(decoding: bytes, as: UTF8.self)
            } else if file != nil {
                console.err("narratorctl keys: cannot read \(path): no such file\n")
                return .refused
            }
            let (keymap, problems) = Keymap.reading(text)
            for problem in problems { console.err("narratorctl keys: \(path) \(problem)\n") }
            if json {
                let bindings = keymap.sorted.map { binding -> JSONValue in
                    ["chord": .string(binding.chord.description), "command": .string(binding.command.rawValue), "summary": .string(binding.command.summary)]
                }
                let refused = problems.map { problem -> JSONValue in ["line": .number(Double(problem.line)), "message": .string("\(problem.problem)")] }
                let object: JSONValue = [
                    "layout": .string(keymap.layout.rawValue), "file": .string(path), "bindings": .array(bindings), "problems": .array(refused),
                ]
                console.out(object.prettyText + "\n")
            } else {
                console.out(KeymapListing.plain(keymap))
            }
            return problems.isEmpty ? .success : .refused
        }
    }
}
