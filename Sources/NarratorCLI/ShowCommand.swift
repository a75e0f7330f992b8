import Foundation
import NarratorCore

/// `narratorctl show FILE`: decode and validate a document offline, print its focus stops.
enum ShowCommand {
    static func run(file: String, json: Bool, console: Console) -> ExitStatus {
        guard let bytes = InputFile.read(file, for: "show", console: console) else { return .refused }
        let document: TreeDocument
        do {
            document = try TreeDocumentDecoder().decode(bytes: bytes)
        } catch {
            let name = file == "-" ? "standard input" : file
            console.err("narratorctl show: \(name) is not a valid tree document:\n")
            for problem in error.problems { console.err("  \(problem)\n") }
            return .refused
        }
        let tree = AccessibilityTree(document: document)
        if json {
            console.out(Self.json(tree).prettyText + "\n")
        } else {
            var text = ""
            for position in 0..<tree.stopCount {
                text += tree.utterance(atStop: position).text
                text += "\n"
            }
            console.out(text)
        }
        return .success
    }

    /// The stops as a JSON array of {id, utterance, hint, frame}.
    static func json(_ tree: AccessibilityTree) -> JSONValue {
        .array(
            (0..<tree.stopCount).map { position in
                let utterance = tree.utterance(atStop: position)
                return [
                    "id": .string(tree.stopID(at: position)),
                    "utterance": .string(utterance.text),
                    "hint": .optional(utterance.hint),
                    "frame": tree.stopFrame(at: position).map(TreeDocumentEncoder.json) ?? .null,
                    "activationPoint": tree.activationPoint(atStop: position).map { [.number($0.x), .number($0.y)] } ?? .null,
                ]
            })
    }
}
