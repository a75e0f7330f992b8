@testable import NarratorModel
@testable import NarratorProtocol
import Testing

/// The direct decoder (bytes to nodes, no value tree) must give the same document and id index
/// as the value-tree walk, and leave every problem to the walk, which names it and its path.
@Suite struct DirectDecodingTests {
    /// The document by the direct path, or nil where it gave up.
    func direct(_ text: String) -> TreeDocument? {
        var text = text
        return text.withUTF8 { buffer in
            var decoder = DirectTreeDecoder(bytes: buffer, limits: .default, maxJSONDepth: DocumentLimits.default.parser.maxDepth)
            return try? decoder.document()
        }
    }

    func throughValueTree(_ text: String) throws -> TreeDocument {
        try TreeDocumentDecoder().decode(try DocumentLimits.default.parser.parse(text))
    }

    @Test(arguments: ["audit-problems.json", "favorites.json", "player.json", "profile.json", "segmented.json"])
    func examplesDecodeTheSameEitherWay(name: String) throws {
        let text = try readFile(examplesDirectory + "/" + name)
        let viaTree = try throughValueTree(text)
        let viaBytes = try #require(direct(text))
        #expect(viaBytes == viaTree)
        #expect(viaBytes.idIndex != nil)
        #expect(viaBytes.idIndex == viaTree.idIndex)
    }

    @Test func everyNodeFieldIsReadTheSameWay() throws {
        let node = #"""
            {"id": "s", "label": "Volume", "value": "3", "hint": "Swipe", "traits": ["adjustable"], "childBehavior": "combine",
             "isElement": true, "hidden": false, "sortPriority": 2, "modal": false, "frame": [1, 2.5, 3, 4e1],
             "activationPoint": [2, 3], "actions": ["Reset"], "magicTap": true, "escape": false,
             "adjustable": {"value": 3, "min": 0, "max": 10, "step": 1}, "rotors": [], "selectedTextRange": [0, 1], "positionInSet": [2, 10], "children": null}
            """#
        let text = document(node + #", {"id": "e", "children": []}, {"id": "n", "label": "caf\u00e9 \u2603", "children": [{"id": "deep"}]}"#, extra: #""version": 1, "title": "T", "language": "en-GB","#)
        let viaTree = try throughValueTree(text)
        #expect(try #require(direct(text)) == viaTree)
    }

    /// Each of these has a problem: the direct path gives up, so the walk reports it.
    @Test(arguments: [
        document(#"{"id": "a", "lable": "A"}"#), document(#"{"id": "a", "id": "b"}"#), document(#"{"id": "a"}, {"id": "a"}"#),
        document(#"{"label": "no id"}"#), document(#"{"id": "a", "frame": [1, 2, 3]}"#), document("[]"),
        #"{"tree": "t", "tree": "u", "root": {"id": "r"}}"#, #"{"tree": "t"}"#, #"{"root": {"id": "r"}}"#,
        #"{"tree": "t", "root": {"id": "r"}} x"#, #"{"tree": "t", "root": {"id": "r", "children": 3}}"#, "[]", "{}",
    ])
    func problemsAreLeftToTheValueTreeWalk(text: String) {
        #expect(direct(text) == nil)
        #expect(!problems(text).isEmpty)
    }

    @Test func aRegisterRequestsDocumentIsDecodedFromItsBytes() throws {
        let text = document(#"{"id": "a", "label": "A", "frame": [0, 0, 10, 10]}"#)
        let request = try RequestDecoder().decode(#"{"id": 1, "cmd": "register", "document": "# + text + #", "ephemeral": false}"#).get()
        guard case .register(let raw, ephemeral: false, focusEvents: false) = request.command else {
            Issue.record("not a register request: \(request.command)")
            return
        }
        #expect(raw.bytes == Array(text.utf8))
        #expect(direct(text) != nil, "the document takes the direct path")
        #expect(try TreeDocumentDecoder().decode(raw) == throughValueTree(text))
    }

    /// A syntax error inside the document is the request's, at its place in the line.
    @Test func aSyntaxErrorInTheDocumentIsPlacedInTheRequestLine() {
        guard case .failure(let failure) = RequestDecoder().decode(#"{"cmd": "register", "document": {"tree": "t", "root": [1,]}}"#) else {
            Issue.record("a malformed document was accepted")
            return
        }
        #expect(failure.error.message == "malformed JSON: line 1, column 58: expected a value, got ']'")
    }
}
