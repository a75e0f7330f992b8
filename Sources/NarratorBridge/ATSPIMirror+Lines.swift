import NarratorModel

/// Browse mode's lines: a page's stops laid out as the mirror last read them, worked out once
/// per read of the window, not per key.
extension ATSPIMirror {
    /// The lines of the web document `page` of `tree`; nil when no window shows it.
    public mutating func lines(tree: String, page: String) -> PageLines? {
        guard let (id, window) = window(showing: tree) else { return nil }
        if let known = window.lines[page] { return known }
        let lines = Self.lines(of: window, page: page)
        windows[id]?.lines[page] = lines
        return lines
    }

    /// Each stop of `page` in narratord's reading order, with narratord's words for it and its
    /// frame on screen.
    static func lines(of window: Window, page: String) -> PageLines {
        let compiled = AccessibilityTree(document: window.document)
        let frames = screenFrames(window.document.root)
        var stops: [PageLines.Stop] = []
        for position in 0..<compiled.stopCount {
            let element = compiled.stopID(at: position)
            guard window.pages[element] == page, let node = compiled.node(element) else { continue }
            let spoken = compiled.utterance(atStop: position).text
            let own = [node.label, node.value].compactMap { $0?.trimmingWhitespace }.filter { !$0.isEmpty }.joined(separator: " ")
            stops.append(PageLines.Stop(element, text: own.isEmpty ? spoken : own, spoken: spoken, frame: frames[element]))
        }
        return PageLines(stops)
    }

    /// Each node's frame on screen (a node's frame is in the space of its nearest ancestor
    /// that has one). A node with none (a run of a paragraph's text between its links) is placed
    /// where the sibling before it is, else the one after it (the words of a paragraph are on
    /// the row of the link inside it); with no sibling that has one, it has none.
    static func screenFrames(_ root: Node) -> [String: Rect] {
        var frames: [String: Rect] = [:]
        func visit(_ node: Node, screen: Rect?, space: Rect?) {
            if let screen { frames[node.id] = screen }
            let own: [Rect?] = node.children.map { child in
                child.frame.map { frame in Rect(x: frame.x + (space?.x ?? 0), y: frame.y + (space?.y ?? 0), width: frame.width, height: frame.height) }
            }
            // The nearest framed sibling after each child, then before it, in one pass each way.
            var after = [Rect?](repeating: nil, count: own.count)
            var next: Rect?
            for index in own.indices.reversed() {
                after[index] = next
                next = own[index] ?? next
            }
            var before: Rect?
            for (index, child) in node.children.enumerated() {
                visit(child, screen: own[index] ?? before ?? after[index], space: own[index] ?? space)
                before = own[index] ?? before
            }
        }
        visit(root, screen: root.frame, space: root.frame)
        return frames
    }
}
