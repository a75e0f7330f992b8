import Foundation
import NarratorModel

/// `narratorctl show FILE|TREE`: decode and validate a document offline (or fetch a registered
/// tree's), print its focus stops.
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
        return show(document, json: json, console: console)
    }

    /// `narratorctl show TREE`: the registered tree as it is now, exported by narratord and shown
    /// by the same code as a file, so that both print the same shape.
    static func run(registered name: String, document: JSONValue, json: Bool, console: Console) -> ExitStatus {
        do {
            return show(try TreeDocumentDecoder().decode(document), json: json, console: console)
        } catch {
            console.err("narratorctl show: narratord sent an invalid document for \(name): \(error)\n")
            return .refused
        }
    }

    static func show(_ document: TreeDocument, json: Bool, console: Console) -> ExitStatus {
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

    /// The stops as a JSON array of {id, utterance, hint, frame, activationPoint}.
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
