/// Rules about focus stops: what each one speaks and how it can be touched.
extension Auditor {
    mutating func checkStops() {
        var firstStopSpeaking: [String: Int] = [:]
        for position in 0..<tree.stopCount {
            let slot = tree.stops[position]
            let node = tree.nodes[Int(slot)]
            let traits = node.effectiveTraits
            let utterance = tree.utterance(forSlot: slot, phrases: phrases)
            let value = tree.spokenValue(slot, phrases: phrases)

            let needsLabel = traits.intersection(.needsLabel)
            if !needsLabel.isEmpty, tree.labelParts(slot, node: node, phrases: phrases).isEmpty {
                report(
                    .unlabelledControl, slot,
                    "\(Self.names(needsLabel)) with no label is spoken \"\(utterance.text)\"")
            }
            if traits.contains(.adjustable), value == nil {
                report(
                    .adjustableWithoutValue, slot,
                    "adjustable with no value: after each swipe up or down the user hears nothing about the new setting")
            }
            if let value, value.count > limits.maxValueLength {
                report(
                    .longValue, slot,
                    "value is \(value.count) characters (the limit is \(limits.maxValueLength)) and is re-read on every change")
            }
            if isActionable(slot), let frame = tree.screenFrames[Int(slot)],
                frame.width < limits.minTargetSize || frame.height < limits.minTargetSize
            {
                let minimum = JSONWriter.format(limits.minTargetSize)
                report(
                    .smallTarget, slot,
                    "\(JSONWriter.format(frame.width)) x \(JSONWriter.format(frame.height)) pt is smaller than \(minimum) x \(minimum) pt")
            }
            if node.childBehavior == .combine, node.representation == nil {
                checkCombinedChildren(of: slot, wrapperTraits: traits)
            }
            checkLabelWords(slot, node: node, traits: traits)
            if let first = firstStopSpeaking[utterance.text] {
                report(
                    .duplicateUtterance, slot,
                    "speaks \"\(utterance.text)\", exactly like \"\(tree.stopID(at: first))\" (stop \(first + 1)); stop \(position + 1) cannot be told apart")
            } else {
                firstStopSpeaking[utterance.text] = position
            }
        }
    }

    /// Traits that describe content rather than behaviour or state; a combined element legitimately
    /// drops them (an icon's `image` inside a button).
    static let contentTraits = Traits([.image, .staticText])

    /// `traits-on-combined-children`: descendants of a combine element whose traits the wrapper
    /// lacks. Only the wrapper's traits are spoken, so these are silently lost.
    mutating func checkCombinedChildren(of slot: Slot, wrapperTraits: Traits) {
        for descendant in tree.descendantsInReadingOrder(of: slot) {
            let extra = tree.nodes[Int(descendant)].effectiveTraits.subtracting(wrapperTraits).subtracting(Self.contentTraits)
            guard !extra.isEmpty else { continue }
            report(
                .traitsOnCombinedChildren, descendant,
                "carries \(Self.names(extra)), which its combine wrapper \"\(id(slot))\" lacks; combined, only the wrapper's traits are spoken",
                fix: "add \(Self.names(extra)) to \"\(id(slot))\" and remove it from this child")
        }
    }

    /// `label-contains-trait`: a label that says the trait word Narrator adds anyway.
    mutating func checkLabelWords(_ slot: Slot, node: Node, traits: Traits) {
        guard let label = node.representation?.label ?? node.label else { return }
        // A check box or radio button says that word, not "button" or "switch button".
        var spoken = traits
        if !traits.intersection(.checkable).isEmpty { spoken.subtract(Traits([.button, .toggle])) }
        for (trait, words) in traitWords where spoken.contains(trait) {
            guard let word = words.first(where: { label.containsWord($0) }) else { continue }
            let utterance = tree.utterance(forSlot: slot, phrases: phrases)
            report(
                .labelContainsTrait, slot,
                "label \"\(label)\" repeats \"\(word)\", which the \(trait.rawValue) trait already speaks: \"\(utterance.text)\"")
            return
        }
    }

    /// The words each trait makes Narrator say, in the tree's language and in English.
    var traitWords: [(Trait, [String])] {
        let english = PhraseTable.english
        func words(_ phrases: [Phrase], extra: [String] = []) -> [String] {
            var result: [String] = []
            for phrase in phrases {
                for word in [self.phrases[phrase], english[phrase]] where !result.contains(word) { result.append(word) }
            }
            return result + extra
        }
        return [
            (.toggle, words([.switchButton], extra: ["switch", "toggle"])),
            (.button, words([.button])),
            (.link, words([.link])),
            (.header, words([.heading])),
            (.searchField, words([.searchField])),
            (.tab, words([.tab])),
            (.image, words([.image])),
            (.adjustable, words([.adjustable])),
            (.checkBox, words([.checkBox], extra: ["checkbox"])),
            (.radioButton, words([.radioButton])),
            (.comboBox, words([.comboBox])),
            (.textField, words([.textField])),
            (.menuItem, words([.menuItem])),
            (.progressBar, words([.progressBar])),
        ]
    }
}

extension String {
    /// Whether `word` occurs as whole words (case-insensitive): "Play button" contains "button",
    /// "Buttonhole" does not.
    func containsWord(_ word: String) -> Bool {
        let text = Array(lowercased()), target = Array(word.lowercased())
        guard !target.isEmpty, text.count >= target.count else { return false }
        for start in 0...(text.count - target.count) where text[start..<(start + target.count)].elementsEqual(target) {
            let before = start == 0 || !text[start - 1].isLetter
            let end = start + target.count
            let after = end == text.count || !text[end].isLetter
            if before && after { return true }
        }
        return false
    }
}
