@testable import NarratorBridge
@testable import NarratorModel
import Testing

@Suite struct TreeDiffTests {
    @Test("what changed between two versions of a tree, and only that")
    func updates() throws {
        let old = try decode(document(#"{"id": "a", "label": "Play", "traits": ["button"]}, {"id": "b", "label": "Volume", "value": "3"}"#)).root
        let new = try decode(document(#"{"id": "a", "label": "Pause", "traits": ["button"], "hint": "Stops"}, {"id": "b", "label": "Volume"}"#)).root
        #expect(TreeDiff.updates(from: old, to: old) == [])
        #expect(TreeDiff.updates(from: old, to: new) == [
            .setProperties(element: "a", properties: .object(JSONObject(["label": "Pause", "hint": "Stops"]))),
            .setProperties(element: "b", properties: .object(JSONObject(["value": .null]))),
        ])
        let reordered = try decode(document(#"{"id": "b", "label": "Volume", "value": "3"}, {"id": "a", "label": "Play", "traits": ["button"]}"#)).root
        guard case .replaceChildren("root", _)? = TreeDiff.updates(from: old, to: reordered)?.first else { Issue.record("reordering replaces the children"); return }
        #expect(TreeDiff.updates(from: old, to: Node(id: "other")) == nil)
    }

    @Test("a child added beside a check box that was checked meanwhile: the check box's change is set on its own before the children are replaced, so that it is said")
    func aChangeUnderChildrenReplacedIsSetFirst() throws {
        let old = try decode(document(#"{"id": "c", "children": [{"id": "d", "label": "Remember me", "traits": ["toggle"], "value": "0"}]}"#)).root
        let new = try decode(document(#"{"id": "c", "children": [{"id": "d", "label": "Remember me", "traits": ["toggle"], "value": "1"}]}, {"id": "s", "label": "file:///page.html"}"#)).root
        let updates = try #require(TreeDiff.updates(from: old, to: new))
        #expect(updates.count == 2)
        #expect(updates.first == .setProperties(element: "d", properties: .object(JSONObject(["value": "1"]))))
        guard case .replaceChildren("root", _)? = updates.last else { Issue.record("the root's children are replaced after: \(updates)"); return }
    }

    @Test("the updates, applied by the daemon's own code, give the new tree")
    func updatesApplied() throws {
        let old = try decode(document(#"{"id": "a", "label": "Play", "traits": ["button"]}, {"id": "c", "children": [{"id": "d", "label": "One"}]}"#))
        let new = try decode(document(#"{"id": "a", "label": "Pause", "traits": ["toggle"]}, {"id": "c", "children": [{"id": "e", "label": "Two"}, {"id": "d", "label": "One"}]}"#))
        var tree = AccessibilityTree(document: old)
        for update in try #require(TreeDiff.updates(from: old.root, to: new.root)) { try tree.apply(update) }
        let expected = AccessibilityTree(document: new)
        #expect((0..<tree.stops.count).map { tree.utterance(atStop: $0).text } == (0..<expected.stops.count).map { expected.utterance(atStop: $0).text })
    }

}
