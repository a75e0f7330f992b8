@testable import NarratorModel
@testable import NarratorProtocol
import Testing

@Suite struct RequestDecoderTests {
    func decode(_ line: String) -> Result<Request, RequestFailure> { RequestDecoder().decode(Array(line.utf8)) }

    func command(_ line: String) throws -> RequestCommand {
        try decode(line).get().command
    }

    func failure(_ line: String) -> RequestFailure? {
        if case .failure(let f) = decode(line) { return f }
        return nil
    }

    @Test func decodesCommandsWithTheirFields() throws {
        #expect(try decode(#"{"id": 7, "cmd": "focus", "tree": "player", "element": "rating"}"#).get() == Request(id: 7, command: .focus(tree: "player", element: "rating")))
        #expect(try decode(#"{"cmd": "focus", "tree": "t", "element": "p", "say": "See the results, link"}"#).get().command == .focus(tree: "t", element: "p", saying: "See the results, link"))
        let saying = RequestCommand.focus(tree: "t", element: "p", saying: "period")
        #expect(try decode(Request(command: saying).line).get().command == saying)
        #expect(try command(#"{"cmd": "next"}"#) == .move(.next, tree: nil))
        #expect(try command(#"{"cmd": "touch", "x": 130, "y": 120}"#) == .touch(x: 130, y: 120, tree: nil))
        #expect(try command(#"{"cmd": "adjust", "direction": "up"}"#) == .adjust(.up))
        #expect(try command(#"{"cmd": "rotor"}"#) == .rotors)
        #expect(try command(#"{"cmd": "rotor", "name": "Unread", "direction": "previous"}"#) == .rotor(name: "Unread", direction: .previous))
        #expect(try command(#"{"cmd": "rotor", "name": "buttons", "within": "12"}"#) == .rotor(name: "buttons", direction: .next, within: "12"))
        #expect(try command(#"{"cmd": "register", "document": {"tree": "t"}, "ephemeral": true}"#) == .register(document: try RawJSON(#"{"tree": "t"}"#), ephemeral: true))
        #expect(
            try command(#"{"cmd": "update", "tree": "t", "element": "a", "set": {"value": "4"}, "notify": "layoutChanged"}"#)
                == .update(tree: "t", update: .setProperties(element: "a", properties: ["value": "4"]), announce: false, notify: .layoutChanged(element: nil)))
        #expect(try command(#"{"cmd": "update", "tree": "t", "element": "a", "remove": true}"#) == .update(tree: "t", update: .remove(element: "a"), announce: false, notify: nil))
    }

    @Test("edit and caret updates decode with their ranges, encode back the same, and say what is wrong with their path")
    func textUpdates() throws {
        let edit = try command(#"{"cmd": "update", "tree": "t", "element": "doc", "edit": {"range": [5, 0], "text": "x"}, "announce": true}"#)
        #expect(edit == .update(tree: "t", update: .editText(element: "doc", range: TextRange(location: 5, length: 0), text: "x"), announce: true, notify: nil))
        let caret = try command(#"{"cmd": "update", "tree": "t", "element": "doc", "caret": {"range": [6, 2], "unit": "word"}}"#)
        #expect(caret == .update(tree: "t", update: .moveCaret(element: "doc", range: TextRange(location: 6, length: 2), unit: .word), announce: false, notify: nil))
        #expect(try command(#"{"cmd": "update", "tree": "t", "element": "doc", "edit": {"range": [1, 3]}}"#)
            == .update(tree: "t", update: .editText(element: "doc", range: TextRange(location: 1, length: 3), text: ""), announce: false, notify: nil))
        for sent in [edit, caret] {
            #expect(try command(Request(id: 1, command: sent).line) == sent)
        }
        #expect(failure(#"{"cmd": "update", "tree": "t", "element": "d", "edit": {"range": [-1, 0], "text": "x"}}"#)?.error.message.hasPrefix("update.edit.range: expected [location, length]") == true)
        #expect(failure(#"{"cmd": "update", "tree": "t", "element": "d", "caret": {"range": [1, 0], "unit": "page"}}"#)?.error.message.hasPrefix("update.caret.unit: expected one of character, word, line") == true)
        #expect(failure(#"{"cmd": "update", "tree": "t", "element": "d", "caret": {"range": [1, 0]}, "edit": {"range": [1, 0]}}"#)?.error.code == .invalidField)
        #expect(failure(#"{"cmd": "update", "tree": "t", "element": "d", "edit": {"range": [1, 0], "txt": "x"}}"#)?.error.message == #"update.edit.txt: unknown key; an edit has "range" and "text""#)
    }

    @Test("a title update (a window renamed) decodes on its root, null clearing it, encodes back the same, and refuses another type")
    func titleUpdates() throws {
        let title = try command(#"{"cmd": "update", "tree": "t", "element": "w", "title": "Boats — Mozilla Firefox"}"#)
        #expect(title == .update(tree: "t", update: .retitle(element: "w", title: "Boats — Mozilla Firefox"), announce: false, notify: nil))
        let cleared = try command(#"{"cmd": "update", "tree": "t", "element": "w", "title": null}"#)
        #expect(cleared == .update(tree: "t", update: .retitle(element: "w", title: nil), announce: false, notify: nil))
        for sent in [title, cleared] {
            #expect(try command(Request(id: 1, command: sent).line) == sent)
        }
        #expect(failure(#"{"cmd": "update", "tree": "t", "element": "w", "title": 4}"#)?.error.message.hasPrefix("update.title: expected a string, or null for none") == true)
        #expect(failure(#"{"cmd": "update", "tree": "t", "element": "w", "title": "x", "remove": true}"#)?.error.code == .invalidField)
    }

    @Test func errorsCarryStableCodesAndTheId() {
        #expect(failure("{nope") == RequestFailure(id: nil, error: ProtocolError(.malformedJSON, "malformed JSON: line 1, column 2: expected a string key, got 'n'")))
        #expect(failure("[1]")?.error.code == .notAnObject)
        #expect(failure(#"{"id": 3, "cmd": "fcous"}"#) == RequestFailure(id: 3, error: ProtocolError(.unknownCommand, #"unknown command "fcous"; did you mean "focus"?"#)))
        #expect(failure(#"{"id": "a", "cmd": "focus"}"#) == RequestFailure(id: "a", error: ProtocolError(.missingField, #"focus: missing "tree""#)))
        #expect(failure(#"{"cmd": "touch", "x": "1", "y": 2}"#)?.error == ProtocolError(.invalidField, "touch.x: expected a number, got a string"))
        #expect(failure(#"{"cmd": "focus", "tree": "t", "elment": "a"}"#)?.error == ProtocolError(.unknownField, #"focus: unknown field "elment"; did you mean "element"?"#))
        #expect(failure(#"{"cmd": "adjust", "direction": "upp"}"#)?.error.message == #"adjust.direction: expected one of up, down, got "upp"; did you mean "up"?"#)
        #expect(failure(#"{"cmd": "update", "tree": "t", "element": "a"}"#)?.error.code == .missingField)
        #expect(failure(#"{"cmd": "next", "cmd": "previous"}"#)?.error.message == "cmd: key given twice")
        #expect(failure(#"{"id": 1}"#)?.error == ProtocolError(.missingField, #"missing "cmd" (the command name)"#))
    }
}
