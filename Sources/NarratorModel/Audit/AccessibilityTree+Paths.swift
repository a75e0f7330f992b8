/// Document paths and document order for slots, so findings point into the JSON an app wrote.
extension AccessibilityTree {
    /// The JSON path of a node in `document` form: `root.children[2].children[0]`.
    /// Child indexes come from `childSlots`, so paths stay right after updates.
    /// `indexInParent` (from `indexesInParent()`) saves a scan of the siblings at each level.
    func jsonPath(ofSlot slot: Slot, indexInParent: [Int32]? = nil) -> [JSONPathComponent] {
        var reversed: [JSONPathComponent] = []
        var current = slot
        while true {
            let parent = parentSlot[Int(current)]
            guard parent >= 0 else { break }
            let index = indexInParent.map { Int($0[Int(current)]) } ?? childSlots[Int(parent)].firstIndex(of: current) ?? 0
            reversed.append(.index(index))
            reversed.append(.key("children"))
            current = parent
        }
        reversed.append(.key("root"))
        return reversed.reversed()
    }

    /// Each slot's index among its parent's children (0 for the root and dead slots).
    func indexesInParent() -> [Int32] {
        var result = [Int32](repeating: 0, count: nodes.count)
        for kids in childSlots {
            for (index, child) in kids.enumerated() { result[Int(child)] = Int32(index) }
        }
        return result
    }

    /// The JSON path of the node with `id`, or nil when there is none.
    public func jsonPath(of id: String) -> String? {
        slotByID[id].map { jsonPath(ofSlot: $0).rendered }
    }

    /// Live slots in document (pre-)order: the order of the JSON an app wrote.
    func slotsInDocumentOrder() -> [Slot] {
        var result: [Slot] = []
        result.reserveCapacity(nodeCount)
        var stack: [Slot] = [rootSlot]
        while let slot = stack.popLast() {
            result.append(slot)
            stack.append(contentsOf: childSlots[Int(slot)].reversed())
        }
        return result
    }
}
