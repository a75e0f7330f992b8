import NarratorModel

/// The repository's `examples/` directory (the seed trees), found from this file's path.
let examplesDirectory: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/NarratorCoreTests/Support.swift
    return parts.joined(separator: "/") + "/examples"
}()

func decode(_ text: String) throws -> TreeDocument {
    try TreeDocumentDecoder().decode(text: text)
}

/// The problems a document has, as "path: message" lines (empty when it is valid).
func problems(_ text: String) -> [String] {
    do {
        _ = try TreeDocumentDecoder().decode(text: text)
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

/// Wraps nodes in a minimal document.
func document(_ children: String, extra: String = "") -> String {
    """
    {"tree": "t", \(extra) "root": {"id": "root", "frame": [0, 0, 400, 800], "children": [\(children)]}}
    """
}

func tree(_ children: String, extra: String = "") throws -> AccessibilityTree {
    AccessibilityTree(document: try decode(document(children, extra: extra)))
}

/// Utterances of all stops in reading order.
func utterances(_ tree: AccessibilityTree) -> [String] {
    (0..<tree.stopCount).map { tree.utterance(atStop: $0).text }
}

func stopIDs(_ tree: AccessibilityTree) -> [String] {
    (0..<tree.stopCount).map { tree.stopID(at: $0) }
}

func loadExample(_ name: String) throws -> TreeDocument {
    let text = try readFile(examplesDirectory + "/" + name)
    return try decode(text)
}
