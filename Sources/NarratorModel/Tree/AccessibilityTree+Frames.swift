/// Where the nodes sit on screen, for tools that draw a tree (`narratorctl audit` draws its picture from these).
extension AccessibilityTree {
    /// A node that has a screen frame, and how it reads.
    public struct FramedNode: Equatable, Sendable {
        public var id: String
        /// Its frame in screen space.
        public var frame: Rect
        /// Whether it is a focus stop.
        public var isStop: Bool
        /// Whether it is hidden, by its own `hidden` or by an ancestor's.
        public var isHidden: Bool
        /// Whether its own `hidden` is set (it hides its whole subtree).
        public var hidesItself: Bool

        public init(id: String, frame: Rect, isStop: Bool, isHidden: Bool, hidesItself: Bool) {
            self.id = id
            self.frame = frame
            self.isStop = isStop
            self.isHidden = isHidden
            self.hidesItself = hidesItself
        }
    }

    /// Every node with a screen frame, in document order (the order of the JSON an app wrote).
    public func framedNodes() -> [FramedNode] {
        let stopSlots = Set(stops)
        return slotsInDocumentOrder().compactMap { slot in
            guard let frame = screenFrames[Int(slot)] else { return nil }
            let node = nodes[Int(slot)]
            return FramedNode(
                id: node.id, frame: frame, isStop: stopSlots.contains(slot), isHidden: hiddenSlots[Int(slot)], hidesItself: node.hidden)
        }
    }

    /// The root node's id.
    public var rootID: String { nodes[Int(rootSlot)].id }
}
