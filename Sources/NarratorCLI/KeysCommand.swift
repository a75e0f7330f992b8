import Foundation
import NarratorCommandLine
import NarratorKeyboard
import NarratorModel

/// `narratorctl keys`: Narrator's key bindings as narrator-atspi reads them (the defaults with the
/// keymap file over them), the refused lines of that file, the commands a keymap may name, or
/// docs/keys.md. Offline: it reads the same file narrator-atspi reads at start.
extension KeysCommand {
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
