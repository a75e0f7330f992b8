import NarratorModel
import Testing

/// `framedNodes()` and `rootID`: what a picture of the tree is drawn from.
@Suite struct FramedNodeTests {
    @Test func framedNodesInDocumentOrderInScreenSpace() throws {
        let tree = try tree(#"""
            {"id": "a", "label": "A", "traits": ["button"], "frame": [10, 20, 30, 40]},
            {"id": "h", "hidden": true, "frame": [50, 60, 100, 100], "children": [
                {"id": "hc", "label": "Inside", "traits": ["button"], "frame": [1, 2, 3, 4]}]},
            {"id": "unframed", "label": "No frame", "traits": ["button"]}
            """#)
        #expect(tree.rootID == "root")
        #expect(tree.framedNodes() == [
            .init(id: "root", frame: Rect(x: 0, y: 0, width: 400, height: 800), isStop: false, isHidden: false, hidesItself: false),
            .init(id: "a", frame: Rect(x: 10, y: 20, width: 30, height: 40), isStop: true, isHidden: false, hidesItself: false),
            .init(id: "h", frame: Rect(x: 50, y: 60, width: 100, height: 100), isStop: false, isHidden: true, hidesItself: true),
            .init(id: "hc", frame: Rect(x: 51, y: 62, width: 3, height: 4), isStop: false, isHidden: true, hidesItself: false),
        ])
        // The stops among them are the tree's stops that have frames.
        #expect(tree.framedNodes().filter(\.isStop).map(\.id) == stopIDs(tree).filter { tree.screenFrame($0) != nil })
    }
}
