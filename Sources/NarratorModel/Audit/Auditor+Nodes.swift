import NarratorBase

/// Rules about nodes in general: geometry, hidden subtrees, modal nodes and rotors.
extension Auditor {
    mutating func checkNodes() {
        for slot in tree.slotsInDocumentOrder() {
            let node = tree.nodes[Int(slot)]
            let hidden = tree.hiddenSlots[Int(slot)]
            if !hidden { checkGeometry(slot, node: node) }
            if node.hidden, !parentIsHidden(slot) { checkHiddenSubtree(slot) }
            if node.modal { checkModal(slot, hidden: hidden) }
            if !hidden, !node.rotors.isEmpty { checkRotors(slot, node: node) }
        }
    }

    func parentIsHidden(_ slot: Slot) -> Bool {
        let parent = tree.parentSlot[Int(slot)]
        return parent >= 0 && tree.hiddenSlots[Int(parent)]
    }

    /// `activation-point-outside`: the activation point must lie inside the node's frame, and the
    /// frame inside the nearest ancestor frame, or a double tap lands on something else.
    mutating func checkGeometry(_ slot: Slot, node: Node) {
        guard let frame = tree.screenFrames[Int(slot)] else { return }
        if let point = node.activationPoint, !Rect(x: 0, y: 0, width: frame.width, height: frame.height).contains(point) {
            report(
                .activationPointOutside, slot,
                "activation point \(Self.format(point)) lies outside its \(JSONWriter.format(frame.width)) x \(JSONWriter.format(frame.height)) frame",
                path: [.key("activationPoint")])
        }
        var ancestor = tree.parentSlot[Int(slot)]
        while ancestor >= 0, tree.screenFrames[Int(ancestor)] == nil { ancestor = tree.parentSlot[Int(ancestor)] }
        if ancestor >= 0, let outer = tree.screenFrames[Int(ancestor)], !outer.contains(frame) {
            report(
                .activationPointOutside, slot,
                "frame \(Self.format(frame)) (screen) extends outside \"\(id(ancestor))\" \(Self.format(outer))",
                path: [.key("frame")],
                fix: "keep the frame inside \"\(id(ancestor))\"; hide or remove what is scrolled off screen")
        }
    }

    /// `hidden-actionable`: a hidden node hiding elements a user would operate. Nested hidden
    /// nodes are left out: they stay hidden even when the outer one is fixed.
    mutating func checkHiddenSubtree(_ root: Slot) {
        var actionable: [Slot] = []
        var stack: [Slot] = [root]
        while let slot = stack.popLast() {
            let node = tree.nodes[Int(slot)]
            if slot != root && node.hidden { continue }
            let kids = tree.childSlots[Int(slot)]
            if node.isAccessibilityElement(hasChildren: !kids.isEmpty) {
                if isActionable(slot) { actionable.append(slot) }
            } else {
                stack.append(contentsOf: kids.reversed())
            }
        }
        guard !actionable.isEmpty else { return }
        let listed = actionable.prefix(3).map { "\"\(id($0))\"" }.joined(separator: ", ")
        let more = actionable.count > 3 ? " and \(actionable.count - 3) more" : ""
        let what = actionable == [root] ? "is an actionable element" : "hides \(actionable.count) actionable element\(actionable.count == 1 ? "" : "s") (\(listed)\(more))"
        report(
            .hiddenActionable, root,
            "hidden, and \(what) that sighted users can operate but VoiceOver-style users cannot reach",
            path: [.key("hidden")])
    }

    /// `hidden-actionable`, modal part: a hidden modal node confines nothing; an empty one traps focus.
    mutating func checkModal(_ slot: Slot, hidden: Bool) {
        if hidden {
            report(
                .hiddenActionable, slot,
                "modal node is hidden, so it does not confine navigation while it is on screen",
                path: [.key("modal")],
                fix: "remove a closed dialog from the tree instead of hiding it; never hide a dialog that is shown")
        } else if !subtreeHasStop(slot) {
            report(
                .hiddenActionable, slot,
                "modal node has no focus stops: navigation is confined to nothing and focus is trapped",
                path: [.key("modal")],
                fix: "give the modal node labelled elements (at least a way to dismiss it)")
        }
    }

    /// Whether any element would be a stop inside this subtree (ignoring any other modal node).
    func subtreeHasStop(_ root: Slot) -> Bool {
        var stack: [Slot] = [root]
        while let slot = stack.popLast() {
            let node = tree.nodes[Int(slot)]
            if node.hidden { continue }
            let kids = tree.childSlots[Int(slot)]
            if node.isAccessibilityElement(hasChildren: !kids.isEmpty) { return true }
            stack.append(contentsOf: kids)
        }
        return false
    }

    /// `empty-rotor` and `rotor-target-missing`.
    mutating func checkRotors(_ slot: Slot, node: Node) {
        for (index, rotor) in node.rotors.enumerated() {
            let rotorPath: [JSONPathComponent] = [.key("rotors"), .index(index)]
            if rotor.targets.isEmpty {
                report(
                    .emptyRotor, slot,
                    "rotor \"\(rotor.name)\" has no targets: it is offered, and turning it finds nothing",
                    path: rotorPath)
                continue
            }
            for (targetIndex, target) in rotor.targets.enumerated() {
                let problem: String
                switch tree.lookup(target) {
                case .stop: continue
                case .unknown:
                    problem = "is not an element of this tree" + Suggestion.hint(for: target, in: tree.ids)
                case .hidden: problem = "is hidden"
                case .outsideModal(let modal): problem = "is outside the modal node \"\(modal)\""
                case .noStop: problem = "is neither an element nor a container of one"
                }
                report(
                    .rotorTargetMissing, slot,
                    "rotor \"\(rotor.name)\" skips \"\(target)\": it \(problem)",
                    path: rotorPath + [.key("targets"), .index(targetIndex)])
            }
        }
    }
}
