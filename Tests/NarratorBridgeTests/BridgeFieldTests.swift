@testable import NarratorBridge
@testable import NarratorModel
@testable import NarratorProtocol
import Testing

/// A text field: read alone before its focus is said (GTK selects its text after the focus
/// event), and each key typed into it read alone at once and said.
@Suite struct BridgeFieldTests {
    typealias F = BridgeFixtures
    static let everything = TextRange(location: 0, length: 3)

    @Test("a focus on an editable field reads the field alone first, so that the focus says the selection GTK made after its event")
    func aFieldIsReadAloneBeforeItsFocus() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.desktop[":1.9"]?.change(F.path(6)) { $0.selection = Self.everything }
        h.focus(":1.9", F.path(6))
        let reads = h.reads()
        #expect(reads.count == 1)
        let read = try #require(reads.first)
        #expect(!read.requests.isEmpty && read.requests.allSatisfy { $0.path == F.path(6) }, "\(read.requests)")
        #expect(read.requests.contains(.selection(F.path(6))))
        #expect(h.sent() == [.set(F.tree, "6", #"{"selectedTextRange":[0,3]}"#, announce: false), .focus(tree: F.tree, element: "6")])
        // GTK's second focus event has the field read again, and says nothing.
        h.focus(":1.9", F.path(6))
        #expect(h.reads().count == 1)
        #expect(h.sent() == [])
    }

    @Test("with a whole read in flight, a field's focus is said from that read, with no read of its own")
    func aFieldsFocusDuringAWholeRead() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.holds = { _, question in if case .read(_, .items) = question { true } else { false } }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        h.desktop[":1.9"]?.change(F.path(6)) { $0.selection = Self.everything }
        h.focus(":1.9", F.path(6))
        h.holds = { _, _ in false }
        h.release()
        #expect(h.sent() == [.set(F.tree, "6", #"{"selectedTextRange":[0,3]}"#, announce: false), .focus(tree: F.tree, element: "6")])
        let reads = h.reads()
        #expect(reads.count == 2, "the read in flight, and one more for the events during it")
        #expect(reads.allSatisfy { $0.requests.first == .items }, "no read of the field alone")
    }

    /// The harness with the fixture's entry (6, "Ada", caret at its end) focused.
    static func focusedEntry() -> BridgeHarness {
        var h = BridgeHarness(F.fixture)
        h.desktop[":1.9"]?.change(F.path(6)) { $0.selection = TextRange(location: 3, length: 0) }
        h.startMirrored()
        h.focus(":1.9", F.path(6))
        _ = h.sent()
        _ = h.reads()
        return h
    }

    /// The harness with the fixture's entry (6) empty and its caret not known, mirrored.
    static func emptyField() -> BridgeHarness {
        var h = BridgeHarness(F.fixture)
        h.desktop[":1.9"]?.change(F.path(6)) {
            $0.text = nil
            $0.selection = nil
        }
        h.startMirrored()
        return h
    }

    static func edit(_ location: Int, _ length: Int, _ text: String) -> RequestCommand {
        .update(tree: F.tree, update: .editText(element: "6", range: TextRange(location: location, length: length), text: text), announce: true, notify: nil)
    }

    static func caret(_ location: Int, length: Int = 0, _ unit: CaretMotion.Unit?, announce: Bool = true) -> RequestCommand {
        .update(tree: F.tree, update: .moveCaret(element: "6", range: TextRange(location: location, length: length), unit: unit), announce: announce, notify: nil)
    }

    @Test("each key typed is one edit, sent at once from the event's own text: nothing read, nothing merged, the caret's move after it quiet")
    func typingIsEchoed() throws {
        var h = Self.focusedEntry()
        for (offset, character) in "m x".enumerated() {
            h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: 3 + offset, detail2: 1, text: String(character))
            // GTK moves the caret after each insertion: the edit put it there already.
            h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 4 + offset)
        }
        #expect(h.sent() == [Self.edit(3, 0, "m"), Self.edit(4, 0, " "), Self.edit(5, 0, "x")])
        h.event("object:text-changed:delete", ":1.9", F.path(6), detail1: 5, detail2: 1, text: "x")
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 5)
        #expect(h.sent() == [Self.edit(5, 1, "")])
        #expect(h.reads().isEmpty, "no read of the field")
        #expect(!h.pendingTimers.contains(.batch), "no batch delay")
        #expect(h.said() == [])
        // What the bridge holds is what the entry holds: a read of it changes nothing.
        h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "Adam "; $0.selection = TextRange(location: 5, length: 0) }
        h.event("object:property-change:accessible-name", ":1.9", F.path(6))
        #expect(h.sent() == [])
    }

    @Test("the first letter typed into a field whose caret was not known (Firefox's field, read again as its text leaf came) is said once: the caret's move after it is no move")
    func firstLetterIntoAFieldWithoutACaret() throws {
        var h = Self.emptyField()
        h.focus(":1.9", F.path(6))
        _ = h.sent()
        _ = h.reads()
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: 0, detail2: 1, text: "a")
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 1)
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: 1, detail2: 1, text: "b")
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 2)
        #expect(h.sent() == [Self.edit(0, 0, "a"), Self.edit(1, 0, "b")])
    }

    @Test("the caret an empty field reports as it takes the focus, while the field is read, is where the field is entered: no move, nothing said after the focus")
    func theCaretOfAFieldTakingTheFocusIsNoMove() throws {
        var h = Self.emptyField()
        h.desktop[":1.9"]?.change(F.path(6)) { $0.selection = TextRange(location: 0, length: 0) }
        h.holds = { _, _ in true }
        h.focus(":1.9", F.path(6))
        // Firefox: the caret, twice, before the field's read is answered and after.
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 0)
        h.holds = { _, _ in false }
        h.release()
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 0)
        let sent = h.sent()
        #expect(sent.contains(.focus(tree: F.tree, element: "6")), "\(sent)")
        #expect(!sent.contains { if case .update(_, .moveCaret, true, _) = $0 { true } else { false } }, "\(sent)")
    }

    @Test("Tab into a field whose read knew no caret (answered before the caret's event came: an application's own socket is quicker than the bus): the caret it reports on arriving says nothing, a later move does")
    func theCaretATabLandsOnIsNoMove() throws {
        let tab = KeyPress(keysym: 0xFF09, modifiers: 0), shiftTab = KeyPress(keysym: 0xFE20, modifiers: 1)
        for key in [tab, shiftTab] {
            var h = Self.emptyField()
            h.press(key.keysym, modifiers: key.modifiers)
            h.focus(":1.9", F.path(6))
            h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 0)
            let sent = h.sent()
            #expect(sent.contains(.focus(tree: F.tree, element: "6")), "\(key): \(sent)")
            #expect(!sent.contains { if case .update(_, .moveCaret, true, _) = $0 { true } else { false } }, "\(key): \(sent)")
            // The user's own move in the field, by a key that moves the caret, is said.
            h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "Ada" }
            h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: 0, detail2: 3, text: "Ada")
            _ = h.sent()
            h.press(0xFF51, modifiers: 0)
            h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 2)
            #expect(h.sent() == [Self.caret(2, .character)], "\(key)")
        }
    }

    @Test("an edit that does not fit what the bridge holds (GTK 4's negative offset, a deleted text that is not there) has the field read again")
    func anEditThatDoesNotFitIsRead() throws {
        var h = Self.focusedEntry()
        h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "715" }
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: -3, detail2: 3, text: "715")
        #expect(h.reads().count == 1)
        #expect(h.sent() == [.set(F.tree, "6", #"{"value":"715"}"#, announce: true)])
        h.event("object:text-changed:delete", ":1.9", F.path(6), detail1: 0, detail2: 1, text: "x")
        #expect(h.reads().count == 1)
    }

    @Test("GTK 4 reports an insertion into a text view its length early and the caret from before it: typed into gnome-calculator's display, each key is an edit where it went, the stale caret quiet")
    func gtk4TextViewInsertions() throws {
        var calculator = F.fixture
        calculator.toolkit = ("GTK", "4.8.3")
        calculator.change(F.path(6)) {
            $0.text = nil
            $0.states.insert(.multiLine)
            $0.selection = TextRange(location: 0, length: 0)
        }
        var h = BridgeHarness(calculator)
        h.startMirrored()
        h.focus(":1.9", F.path(6))
        _ = h.sent()
        _ = h.reads()
        // "12+3" as gnome-calculator 43 (GTK 4.8.3) reports it: "1" at -1 (the caret stays at 0:
        // no move), then each key one before its place, and the caret where it was before it.
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: -1, detail2: 1, text: "1")
        for (offset, character) in "2+3".enumerated() {
            h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: offset, detail2: 1, text: String(character))
            h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: offset + 1)
        }
        #expect(h.sent() == [Self.edit(0, 0, "1"), Self.edit(1, 0, "2"), Self.edit(2, 0, "+"), Self.edit(3, 0, "3")])
        // Return: the result takes the sum's place (a deletion is reported where it was, and
        // the caret after it rightly, where the deletion put it: no move).
        h.event("object:text-changed:delete", ":1.9", F.path(6), detail1: 0, detail2: 4, text: "12+3")
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 0)
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: -2, detail2: 2, text: "15")
        #expect(h.sent() == [Self.edit(0, 4, ""), Self.edit(0, 0, "15")])
        #expect(h.reads().isEmpty, "every event fit: nothing read again")
        // The caret's next move is the user's, and said.
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 1)
        #expect(h.sent() == [Self.caret(1, nil)])
    }

    @Test("a caret move says what the key moved it by; Shift extends a selection, which says what it took in; a plain key collapses it")
    func caretAndSelection() throws {
        var h = Self.focusedEntry()
        let left: UInt32 = 0xFF51, home: UInt32 = 0xFF50
        h.press(left, modifiers: 0)
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 2)
        h.press(left, modifiers: 4)
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 0)
        #expect(h.sent() == [Self.caret(2, .character), Self.caret(0, .word)])
        // Shift+Right: the caret's move is quiet, the selection's says it.
        h.press(0xFF53, modifiers: 1)
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 1)
        h.desktop[":1.9"]?.change(F.path(6)) { $0.selection = TextRange(location: 0, length: 1) }
        h.event("object:text-selection-changed", ":1.9", F.path(6))
        #expect(h.sent() == [Self.caret(0, length: 1, .character)])
        // Home: the selection goes; the caret stays at 0 (no move event), and the selection's
        // end leaves it there.
        h.press(home, modifiers: 0)
        h.desktop[":1.9"]?.change(F.path(6)) { $0.selection = nil }
        h.event("object:text-selection-changed", ":1.9", F.path(6))
        #expect(h.sent() == [Self.caret(1, .character)], "where the last caret move put it")
        // A key long ago says nothing of a move now: the move tells.
        h.advance(by: .seconds(2))
        h.event("object:text-caret-moved", ":1.9", F.path(6), detail1: 3)
        #expect(h.sent() == [Self.caret(3, nil)])
        #expect(h.reads().isEmpty)
    }

    @Test("a read begun before an edit brings the text as it was: the edited text is kept")
    func aReadOlderThanAnEditKeepsTheEdit() throws {
        var h = Self.focusedEntry()
        h.holds = { _, question in if case .read = question { true } else { false } }
        h.event("object:state-changed:sensitive", ":1.9", F.path(6), detail1: 1)
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: 3, detail2: 1, text: "m")
        #expect(h.sent() == [Self.edit(3, 0, "m")])
        h.holds = { _, _ in false }
        h.release()
        #expect(h.sent() == [], "the read's text (Ada) is older than the edit (Adam)")
    }

    /// The values the entry was given by `set` updates, announced, in order.
    static func values(_ sent: [RequestCommand]) -> [String] {
        sent.compactMap { command in
            guard case .update(_, .setProperties("6", .object(let properties)), true, _) = command else { return nil }
            return properties.members.first { $0.key == "value" }?.value.stringValue
        }
    }

    @Test("a read answered after an edit, whose answer overtook the edit's event (the application's own socket is quicker than the bus), already has the edit: the event has the field read again, and the edit is not taken twice")
    func aReadNewerThanAnEditDoesNotTakeItTwice() throws {
        var h = Self.focusedEntry()
        // "m" typed; the field is read (its state changed) and answered with "Adam" before the
        // insertion's event comes.
        h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "Adam"; $0.selection = TextRange(location: 4, length: 0) }
        h.event("object:state-changed:sensitive", ":1.9", F.path(6), detail1: 1)
        #expect(h.reads().count == 1)
        let read = h.sent()
        #expect(Self.values(read) == ["Adam"], "\(read)")
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: 3, detail2: 1, text: "m")
        #expect(h.reads().count == 1, "read again")
        #expect(h.sent() == [], "Adam already: not Adamm")
        // The next key, which the text held does not show, is an edit again, at once.
        h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "Adams"; $0.selection = TextRange(location: 5, length: 0) }
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: 4, detail2: 1, text: "s")
        #expect(h.sent() == [Self.edit(4, 0, "s")])
        #expect(h.reads().isEmpty)
        // A deletion after a read that changed the text is read again: a doubled letter taken
        // out ("Adamss" to "Adams", the read first) fits what the read left just as well.
        h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "Adamss" }
        h.event("object:state-changed:sensitive", ":1.9", F.path(6), detail1: 0)
        #expect(h.reads().count == 1)
        #expect(Self.values(h.sent()) == ["Adamss"])
        h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "Adams" }
        h.event("object:state-changed:sensitive", ":1.9", F.path(6), detail1: 1)
        _ = h.reads()
        #expect(Self.values(h.sent()) == ["Adams"])
        h.event("object:text-changed:delete", ":1.9", F.path(6), detail1: 5, detail2: 1, text: "s")
        h.event("object:text-changed:delete", ":1.9", F.path(6), detail1: 4, detail2: 1, text: "s")
        #expect(h.reads().count == 2)
        #expect(h.sent() == [], "Adams already: not Adam")
    }
}
