@testable import NarratorModel
import Testing

/// A property update that leaves the reading order alone keeps the tree's index instead of
/// rebuilding it; whichever way an update went, the tree must navigate exactly as one compiled
/// afresh from the same document.
@Suite struct PropertyUpdateIndexTests {
    /// A tree with something of every kind that the index reads: frames inside frames, hidden
    /// and modal subtrees, sort priorities, combined and contained elements, rotors.
    static func document() throws -> TreeDocument {
        var groups: [JSONValue] = []
        for group in 0..<6 {
            var items: [JSONValue] = []
            for item in 0..<8 {
                items.append([
                    "id": .string("g\(group)-\(item)"), "label": .string("Item \(item)"), "traits": ["button"],
                    "frame": [.number(Double(item * 10)), 0, 10, 10], "sortPriority": .number(Double(item % 3)),
                ])
            }
            var node: JSONValue = ["id": .string("g\(group)"), "frame": [0, .number(Double(group * 20)), 100, 20], "children": .array(items)]
            if group == 2, case .object(var fields) = node {
                fields["childBehavior"] = "combine"
                node = .object(fields)
            }
            groups.append(node)
        }
        return try TreeDocumentDecoder().decode(["tree": "t", "root": ["id": "root", "frame": [0, 0, 100, 200], "children": .array(groups)]])
    }

    /// What navigation reads of a tree, by element id (slots may differ between two trees).
    static func index(_ tree: AccessibilityTree) -> [String] {
        var lines = (0..<tree.stopCount).map { "stop \(tree.stopID(at: $0)) depth \(tree.stopDepths[$0]) frame \(String(describing: tree.stopFrame(at: $0)))" }
        for id in tree.ids.sorted() {
            lines.append("\(id): \(tree.lookup(id)) frame \(String(describing: tree.screenFrame(id)))")
        }
        lines.append("modal \(tree.modalSlot.map { tree.nodes[Int($0)].id } ?? "none")")
        lines.append("rotors " + tree.rotorSlots.map { tree.nodes[Int($0)].id }.joined(separator: ","))
        for y in stride(from: 5.0, to: 200, by: 20) { lines.append("hit \(y): \(String(describing: tree.hitTest(Point(x: 15, y: y))))") }
        return lines
    }

    @Test func everyPropertySetLeavesTheTreeAsACompiledOneWouldBe() throws {
        var tree = AccessibilityTree(document: try Self.document())
        let changes: [JSONValue] = [
            ["label": "Renamed"], ["value": "7"], ["hint": "Does things"], ["label": nil], ["traits": []], ["traits": ["button", "selected"]],
            ["hidden": true], ["hidden": false], ["modal": true], ["modal": false], ["sortPriority": 5], ["sortPriority": 0],
            ["frame": [50, 50, 5, 5]], ["frame": nil], ["isElement": false], ["isElement": true], ["isElement": nil],
            ["childBehavior": "contain"], ["childBehavior": "ignore"], ["childBehavior": nil],
            ["rotors": [["name": "Links", "targets": ["g0-1"]]]], ["rotors": nil],
        ]
        let elements = ["root", "g0", "g1", "g2", "g1-3", "g2-5", "g4-0", "g5-7"]
        // A fixed walk through elements and changes (a linear congruential sequence), so that
        // changes meet each other's results.
        var state: UInt64 = 20
        for _ in 0..<400 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let element = elements[Int((state >> 33) % UInt64(elements.count))]
            let change = changes[Int((state >> 17) % UInt64(changes.count))]
            do {
                try tree.apply(.setProperties(element: element, properties: change))
            } catch {
                continue  // A change the element refuses (a value on a declarative one) leaves it as it was.
            }
            let (kept, fresh) = (Self.index(tree), Self.index(AccessibilityTree(document: tree.document)))
            let difference = zip(kept, fresh).first { $0 != $1 }.map { "\($0.0) where a fresh tree has \($0.1)" }
            try #require(kept == fresh, "after setting \(change.compactText) on \(element): \(difference ?? "\(kept.count) lines against \(fresh.count)")")
        }
    }
}
