import NarratorBase
import NarratorModel
import Testing

/// A text field as an editor drives it: `edit` updates say exactly what each key put in or took
/// out, `caret` updates say what the caret moved over (the character, the word, the line) or what
/// a selection took in or gave back, and a document of several lines is read by the line at its
/// caret, as Orca reads Mousepad.
@Suite struct TextEditingTests {
    static let document = #"{"tree": "ed", "root": {"id": "w", "children": [{"id": "doc", "value": "First line of text\nSecond line here\nThird\n\nFifth line", "traits": ["textField"], "selectedTextRange": [0, 0]}, {"id": "ok", "label": "OK", "traits": ["button"]}]}}"#

    /// A harness with the editor focused on its document.
    static func editor() throws -> (Harness, ClientID) {
        var h = Harness()
        let app = h.client()
        try h.register(app, json: document)
        h.request(app, .focus(tree: "ed", element: "doc"))
        return (h, app)
    }

    @Test("a document's focus says the line at its caret, not the whole text, and no 'unlabelled'")
    func focusSaysTheLine() throws {
        var (h, app) = try Self.editor()
        let focus = h.request(app, .focus(tree: "ed", element: "ok"))
        _ = focus
        let back = h.request(app, .focus(tree: "ed", element: "doc"))
        #expect(back.played == ["First line of text, text field"])
        h.request(app, .update(tree: "ed", update: .moveCaret(element: "doc", range: TextRange(location: 42, length: 0), unit: .line), announce: false, notify: nil))
        h.request(app, .focus(tree: "ed", element: "ok"))
        #expect(h.request(app, .focus(tree: "ed", element: "doc")).played == ["blank, text field"])
    }

    @Test("caret moves say what Orca says: the character at the caret, the word moved over, the line; blank at a line's end")
    func caretMoves() throws {
        var (h, app) = try Self.editor()
        func move(_ location: Int, _ unit: CaretMotion.Unit?) -> [String] {
            h.request(app, .update(tree: "ed", update: .moveCaret(element: "doc", range: TextRange(location: location, length: 0), unit: unit), announce: true, notify: nil)).played
        }
        #expect(move(1, .character) == ["i"])
        #expect(move(2, .character) == ["r"])
        #expect(move(1, .character) == ["i"])
        #expect(move(5, .word) == ["First"])
        #expect(move(10, .word) == ["line"])
        #expect(move(6, .word) == ["line"])
        #expect(move(25, .line) == ["Second line here"])
        #expect(move(37, .line) == ["Third"])
        #expect(move(42, .line) == ["blank"])
        #expect(move(43, .line) == ["Fifth line"])
        // End lands at the line's end: blank; Home says the character there.
        #expect(move(53, .character) == ["blank"])
        #expect(move(43, .character) == ["F"])
        // Not moved: nothing.
        #expect(move(43, .character) == [])
        // Without the key, the move tells: another line, one character, or a word.
        #expect(move(19, nil) == ["Second line here"])
        #expect(move(20, nil) == ["e"])
        #expect(move(26, nil) == ["Second"])
        // A `set` of the caret alone is a caret move too.
        let set = h.request(app, .update(tree: "ed", update: .setProperties(element: "doc", properties: ["selectedTextRange": [0, 0]]), announce: true, notify: nil))
        #expect(set.played == ["First line of text"])
    }

    @Test("a selection says what it took in and what it gave back; collapsing it says unselected")
    func selections() throws {
        var (h, app) = try Self.editor()
        func select(_ location: Int, _ length: Int) -> [String] {
            h.request(app, .update(tree: "ed", update: .moveCaret(element: "doc", range: TextRange(location: location, length: length), unit: .character), announce: true, notify: nil)).played
        }
        #expect(select(0, 1) == ["F selected"])
        #expect(select(0, 2) == ["i selected"])
        #expect(select(0, 1) == ["i unselected"])
        #expect(select(0, 18) == ["irst line of text selected"])
        // Across a line break, the break is a space.
        #expect(select(0, 25) == ["Second selected"])
        #expect(select(25, 0) == ["unselected"])
    }

    @Test("edits say exactly what each key put in or took out: a space, a tab, a new line by name; nothing merged")
    func edits() throws {
        var (h, app) = try Self.editor()
        func edit(_ location: Int, _ length: Int, _ text: String) -> [String] {
            h.request(app, .update(tree: "ed", update: .editText(element: "doc", range: TextRange(location: location, length: length), text: text), announce: true, notify: nil)).played
        }
        let typed = Array("Hi there").enumerated().flatMap { index, character in edit(index, 0, String(character)) }
        #expect(typed == ["H", "i", "space", "t", "h", "e", "r", "e"])
        #expect(edit(8, 0, "\t") == ["tab"])
        #expect(edit(9, 0, "\n") == ["newline"])
        #expect(edit(9, 1, "") == ["newline deleted"])
        #expect(edit(8, 1, "") == ["tab deleted"])
        // The same letter twice is two letters, each said.
        #expect(edit(8, 0, "e") == ["e"])
        #expect(edit(9, 0, "e") == ["e"])
        // The caret follows what was put in: the document reads "Hi thereeeFirst line of text".
        h.request(app, .focus(tree: "ed", element: "ok"))
        #expect(h.request(app, .focus(tree: "ed", element: "doc")).played == ["Hi thereeeFirst line of text, text field"])
        let exported = h.request(app, .export(tree: "ed"))
        guard case .exported(_, let json)? = exported.body(to: app) else { Issue.record("\(exported)"); return }
        #expect(json["root"]?["children"]?.arrayValue?.first?["selectedTextRange"] == .array([.number(10), .number(0)]))
    }

    @Test("a space or tab typed at a line's end is said, though the line as it is said does not change")
    func whitespaceAtALinesEnd() throws {
        var (h, app) = try Self.editor()
        func edit(_ location: Int, _ length: Int, _ text: String) -> [String] {
            h.request(app, .update(tree: "ed", update: .editText(element: "doc", range: TextRange(location: location, length: length), text: text), announce: true, notify: nil)).played
        }
        // "First line of text" ends at 18, before the line break.
        #expect(edit(18, 0, " ") == ["space"])
        #expect(edit(19, 0, "\t") == ["tab"])
        #expect(edit(19, 1, "") == ["tab deleted"])
    }

    @Test("an edit or caret move outside the value is refused with its path, and changes nothing")
    func outsideTheValue() throws {
        var (h, app) = try Self.editor()
        let edit = h.request(app, .update(tree: "ed", update: .editText(element: "doc", range: TextRange(location: 60, length: 0), text: "x"), announce: true, notify: nil))
        #expect(edit.error(to: app)?.message.contains("edit.range: [60, 0] is outside the value's 53 characters") == true, "\(edit)")
        let caret = h.request(app, .update(tree: "ed", update: .moveCaret(element: "doc", range: TextRange(location: 50, length: 9), unit: nil), announce: true, notify: nil))
        #expect(caret.error(to: app)?.message.contains("caret.range: [50, 9] is outside the value's 53 characters") == true, "\(caret)")
        #expect(edit.played.isEmpty && caret.played.isEmpty)
    }
}
