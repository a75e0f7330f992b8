@testable import NarratorModel
import Testing

@Suite struct ReadingOrderTests {
    @Test func depthFirstInDocumentOrder() throws {
        let t = try tree(
            #"{"id": "a", "label": "A"}, {"id": "g", "children": [{"id": "b", "label": "B"}, {"id": "c", "label": "C"}]}, {"id": "d", "label": "D"}"#
        )
        #expect(stopIDs(t) == ["a", "b", "c", "d"])
    }

    /// Compiling reuses the id index the decoder built; a document changed after decoding
    /// must not bring a stale one, or ids would point at the wrong elements.
    @Test func idsFindTheirElementsInADocumentChangedAfterDecoding() throws {
        var doc = try decode(document(#"{"id": "a", "label": "A"}, {"id": "b", "label": "B"}, {"id": "c", "label": "C"}"#))
        #expect(AccessibilityTree(document: doc).lookup("c") == .stop(2))
        doc.root.children.swapAt(0, 2)
        let t = AccessibilityTree(document: doc)
        #expect(stopIDs(t) == ["c", "b", "a"])
        #expect(t.lookup("c") == .stop(0))
        #expect(t.lookup("a") == .stop(2))
        #expect(t.node("a")?.label == "A")
    }

    @Test func higherSortPriorityFirstAndStableForTies() throws {
        let t = try tree(
            #"{"id": "a", "label": "A"}, {"id": "b", "label": "B", "sortPriority": 2}, {"id": "c", "label": "C"}, {"id": "d", "label": "D", "sortPriority": 2}"#
        )
        #expect(stopIDs(t) == ["b", "d", "a", "c"])
    }

    @Test func hiddenSubtreesAreSkipped() throws {
        let t = try tree(#"{"id": "g", "hidden": true, "children": [{"id": "b", "label": "B"}]}, {"id": "c", "label": "C"}"#)
        #expect(stopIDs(t) == ["c"])
        #expect(t.lookup("b") == .hidden)
    }

    @Test func combineAndIgnoreAreOneStop() throws {
        let t = try tree(
            #"{"id": "c", "childBehavior": "combine", "children": [{"id": "c1", "label": "X"}, {"id": "c2", "label": "Y"}]}, {"id": "i", "label": "I", "childBehavior": "ignore", "children": [{"id": "i1", "label": "Z"}]}"#
        )
        #expect(stopIDs(t) == ["c", "i"])
        #expect(t.lookup("c2") == .stop(0))
        #expect(t.lookup("i1") == .stop(1))
    }

    @Test func containAndNonElementsExposeTheirChildren() throws {
        let t = try tree(
            #"{"id": "k", "label": "K", "childBehavior": "contain", "children": [{"id": "k1", "label": "1"}]}, {"id": "n", "isElement": false, "label": "N"}, {"id": "e", "isElement": true}"#
        )
        #expect(stopIDs(t) == ["k1", "e"])
    }

    @Test func leavesAreElementsOnlyWithContent() throws {
        let t = try tree(#"{"id": "empty"}, {"id": "trait", "traits": ["image"]}, {"id": "value", "value": "5"}"#)
        #expect(stopIDs(t) == ["trait", "value"])
        #expect(t.lookup("empty") == .noStop)
    }

    @Test func modalConfinesStops() throws {
        let t = try tree(
            #"{"id": "a", "label": "A"}, {"id": "sheet", "modal": true, "children": [{"id": "ok", "label": "OK", "traits": ["button"]}]}, {"id": "b", "label": "B"}"#
        )
        #expect(stopIDs(t) == ["ok"])
        #expect(t.lookup("a") == .outsideModal(modal: "sheet"))
        let hiddenModal = try tree(
            #"{"id": "a", "label": "A"}, {"id": "sheet", "modal": true, "hidden": true, "children": [{"id": "ok", "label": "OK"}]}"#)
        #expect(stopIDs(hiddenModal) == ["a"])
    }

    @Test func framesAreConvertedToScreenSpace() throws {
        let t = try tree(#"{"id": "g", "frame": [10, 20, 100, 100], "children": [{"id": "x", "label": "X", "frame": [5, 6, 7, 8]}]}"#)
        #expect(t.screenFrame("x") == Rect(x: 15, y: 26, width: 7, height: 8))
        let frameless = try tree(#"{"id": "g", "children": [{"id": "x", "label": "X", "frame": [5, 6, 7, 8]}]}"#)
        #expect(frameless.screenFrame("x") == Rect(x: 5, y: 6, width: 7, height: 8))
    }

    @Test func hitTestFindsTheDeepestStop() throws {
        let t = try tree(
            #"{"id": "card", "label": "Card", "frame": [0, 0, 200, 200]}, {"id": "g", "frame": [0, 0, 200, 200], "children": [{"id": "btn", "label": "B", "frame": [10, 10, 50, 50]}]}"#
        )
        #expect(t.hitTest(Point(x: 20, y: 20)).map(t.stopID) == "btn")
        #expect(t.hitTest(Point(x: 150, y: 150)).map(t.stopID) == "card")
        #expect(t.hitTest(Point(x: 500, y: 500)) == nil)
    }
}
