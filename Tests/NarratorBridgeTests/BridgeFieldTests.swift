import Testing
@testable import NarratorCore

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

    @Test("each key typed into the focused entry reads it alone, at once, and is one update to be said")
    func typingIsEchoed() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.focus(":1.9", F.path(6))
        _ = h.sent()
        _ = h.reads()
        h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "Adam" }
        h.event("object:text-changed:insert", ":1.9", F.path(6), detail1: 3)
        #expect(h.sent() == [.set(F.tree, "6", #"{"value":"Adam"}"#, announce: true)])
        let reads = h.reads()
        #expect(reads.count == 1 && reads[0].requests.allSatisfy { $0.path == F.path(6) })
        #expect(!h.pendingTimers.contains(.batch), "no batch delay")
        h.desktop[":1.9"]?.change(F.path(6)) { $0.text = "Ada" }
        h.event("object:text-changed:delete", ":1.9", F.path(6), detail1: 3)
        #expect(h.sent() == [.set(F.tree, "6", #"{"value":"Ada"}"#, announce: true)])
        #expect(h.said() == [])
    }

    @Test("the selection moving in a field (End) is mirrored but not said")
    func aSelectionMovingIsQuiet() throws {
        var h = BridgeHarness(F.fixture)
        h.desktop[":1.9"]?.change(F.path(6)) { $0.selection = Self.everything }
        h.startMirrored()
        h.desktop[":1.9"]?.change(F.path(6)) { $0.selection = nil }
        h.event("object:text-selection-changed", ":1.9", F.path(6))
        #expect(h.sent() == [.set(F.tree, "6", #"{"selectedTextRange":null}"#, announce: false)])
        #expect(h.reads().count == 1)
    }
}
