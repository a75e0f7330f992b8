/// Builds the utterance for each focus stop, following the VoiceOver model:
/// `selected`, label, value, trait words, `dimmed`; the hint separately.
extension AccessibilityTree {
    /// The phrase table for this tree's language.
    public var phrases: PhraseTable { PhraseTable.forLanguage(language) }

    /// The utterance for the stop at a reading-order position; `brief` has no hint.
    public func utterance(atStop position: Int, verbosity: Verbosity = .verbose) -> Utterance {
        var utterance = utterance(forSlot: stops[position], phrases: phrases)
        if verbosity == .brief { utterance.hint = nil }
        return utterance
    }

    /// The utterance for the stop at `position` when focus enters the tree, and the text spoken
    /// then: the title first, then the utterance. A label that repeats the title (ignoring case) is
    /// said once ("Library" entering on a "Library" heading says "Library, heading"); any other part
    /// is kept even when it happens to be the same word (a tree titled "Image" entering on a picture
    /// still says its role: "Image, Sunset, image").
    public func utterance(atStop position: Int, enteringWithTitle title: String?, verbosity: Verbosity = .verbose) -> (utterance: Utterance, spokenText: String) {
        let slot = stops[position]
        let node = nodes[Int(slot)]
        let phrases = self.phrases
        var parts = utteranceParts(forSlot: slot, phrases: phrases)
        let utterance = Utterance(text: Utterance.join(parts), hint: verbosity == .brief ? nil : hint(slot, node: node, phrases: phrases))
        guard let title = title?.trimmingWhitespace, !title.isEmpty else { return (utterance, utterance.text) }
        if let label = labelParts(slot, node: node, phrases: phrases).first, label.trimmingWhitespace.lowercased() == title.lowercased(),
           let index = parts.firstIndex(of: label)
        {
            parts.remove(at: index)
        }
        let rest = Utterance.join(parts)
        return (utterance, rest.isEmpty ? title : title + ", " + rest)
    }

    func utterance(forSlot slot: Slot, phrases: PhraseTable) -> Utterance {
        Utterance(text: Utterance.join(utteranceParts(forSlot: slot, phrases: phrases)), hint: hint(slot, node: nodes[Int(slot)], phrases: phrases))
    }

    /// The parts of a stop's utterance in order, before ``Utterance/join(_:)``.
    func utteranceParts(forSlot slot: Slot, phrases: PhraseTable) -> [String] {
        let node = nodes[Int(slot)]
        let traits = node.effectiveTraits
        var parts: [String] = []
        if traits.contains(.selected) { parts.append(phrases[.selected]) }

        let labelParts = self.labelParts(slot, node: node, phrases: phrases)
        if labelParts.isEmpty {
            // A document's text says what it is (an editor's text area has no name, and needs none).
            if !traits.intersection(.needsLabel).isEmpty, !isDocument(node) { parts.append(phrases[.unlabelled]) }
        } else {
            parts.append(contentsOf: labelParts)
        }
        if let value = spokenValue(slot, phrases: phrases) { parts.append(value) }
        if let selection = selectionPhrase(node, phrases: phrases) { parts.append(selection) }

        if traits.contains(.header) {
            parts.append(node.headingLevel.map { phrases[.headingLevel].replacingAll("{level}", with: "\($0)") } ?? phrases[.heading])
        }
        if let header = node.cellHeader { parts.append(phrases[header == .column ? .columnHeader : .rowHeader]) }
        if traits.contains(.link) { parts.append(phrases[traits.contains(.visited) ? .visitedLink : .link]) }
        if traits.contains(.searchField) { parts.append(phrases[.searchField]) }
        if traits.contains(.textField) { parts.append(phrases[.textField]) }
        if traits.contains(.comboBox) { parts.append(phrases[.comboBox]) }
        // One word for what is pressed: the most specific kind of button.
        if traits.contains(.checkBox) {
            parts.append(phrases[.checkBox])
        } else if traits.contains(.radioButton) {
            parts.append(phrases[.radioButton])
        } else if traits.contains(.toggle) {
            parts.append(phrases[.switchButton])
        } else if traits.contains(.button) {
            parts.append(phrases[.button])
        }
        if traits.contains(.menuItem) { parts.append(phrases[.menuItem]) }
        if traits.contains(.menu) { parts.append(phrases[.menu]) }
        if traits.contains(.listItem) { parts.append(phrases[.listItem]) }
        // Its place among its like: given (a lazily mirrored row), else a tab's in its tab bar.
        if traits.contains(.tab) { parts.append(phrases[.tab]) }
        if let (index, count) = node.positionInSet.map({ ($0.index, $0.count) }) ?? (traits.contains(.tab) ? tabPosition(slot) : nil) {
            parts.append(phrases[.tabPosition].replacingAll("{index}", with: "\(index)").replacingAll("{count}", with: "\(count)"))
        }
        if traits.contains(.progressBar) { parts.append(phrases[.progressBar]) }
        if traits.contains(.image) { parts.append(phrases[.image]) }
        if traits.contains(.adjustable) { parts.append(phrases[.adjustable]) }
        if traits.contains(.dialog) { parts.append(phrases[.dialog]) }
        if traits.contains(.alert) { parts.append(phrases[.alert]) }
        // A closed combo box is what a combo box is until it opens, and is not said so (nor by
        // Orca): its value is what matters. Open, it says so.
        if traits.contains(.expanded) {
            parts.append(phrases[.expanded])
        } else if traits.contains(.collapsed), !traits.contains(.comboBox) {
            parts.append(phrases[.collapsed])
        }
        if traits.contains(.notEnabled) { parts.append(phrases[.dimmed]) }
        return parts
    }

    /// What of the value is selected: "selected" for all of it (typing replaces it), else the
    /// selected text and "selected"; nil when nothing (or only blanks) is, or the value is not
    /// text (a check box's, a declarative range's).
    func selectionPhrase(_ node: Node, phrases: PhraseTable) -> String? {
        guard let range = node.selectedTextRange, let value = node.value, node.representation == nil, node.declarativeAdjustable == nil, !isDocument(node),
            node.traits.intersection(.checkable).isEmpty, !node.traits.contains(.toggle),
            let selected = range.selected(in: value).map(String.init), !selected.trimmingWhitespace.isEmpty
        else { return nil }
        if selected.unicodeScalars.count == value.unicodeScalars.count { return phrases[.selected] }
        return phrases[.selectedText].replacingAll("{text}", with: selected.trimmingWhitespace)
    }

    /// The label, or for a `combine` element without one, its descendants' labels and values.
    func labelParts(_ slot: Slot, node: Node, phrases: PhraseTable) -> [String] {
        if let label = node.representation?.label ?? node.label { return [label] }
        guard node.representation == nil, node.childBehavior == .combine else { return [] }
        var parts: [String] = []
        for descendant in descendantsInReadingOrder(of: slot) {
            if let label = nodes[Int(descendant)].label { parts.append(label) }
            if let value = spokenValue(descendant, phrases: phrases) { parts.append(value) }
        }
        return parts
    }

    /// The value as spoken: a declarative value formatted, a toggle's state as on/off, a check
    /// box's or radio button's as checked, not checked or partially checked.
    func spokenValue(_ slot: Slot, phrases: PhraseTable) -> String? {
        let node = nodes[Int(slot)]
        if let adjustable = node.declarativeAdjustable {
            return adjustable.spoken(decimalSeparator: phrases.decimalSeparator)
        }
        if let isOn = node.representation?.isOn { return phrases[isOn ? .on : .off] }
        guard let value = node.representation?.value ?? node.value else { return nil }
        if !node.effectiveTraits.intersection(.checkable).isEmpty {
            switch value.lowercased() {
            case "1", "true", "on", "yes", "checked": return phrases[.checked]
            case "0", "false", "off", "no", "unchecked": return phrases[.notChecked]
            case "mixed", "partial", "indeterminate": return phrases[.partiallyChecked]
            default: return value
            }
        }
        if node.effectiveTraits.contains(.toggle) {
            switch value.lowercased() {
            case "1", "true", "on", "yes": return phrases[.on]
            case "0", "false", "off", "no": return phrases[.off]
            default: return value
            }
        }
        // A text of several lines is read at the caret: the line it is on, as a screen reader
        // says it on entering an editor, never the whole document.
        if isDocument(node) {
            return CaretMotion.line(at: node.selectedTextRange?.location ?? 0, in: Array(value.unicodeScalars), phrases)
        }
        return value
    }

    /// A text field whose value has several lines: an editor's document.
    func isDocument(_ node: Node) -> Bool {
        guard let value = node.value, node.representation == nil, !node.traits.intersection(Traits([.textField, .searchField])).isEmpty else { return false }
        return value.unicodeScalars.contains("\n")
    }

    /// "N of M" for a tab whose parent is a tab bar.
    func tabPosition(_ slot: Slot) -> (Int, Int)? {
        let parent = parentSlot[Int(slot)]
        guard parent >= 0, nodes[Int(parent)].traits.contains(.tabBar) else { return nil }
        let tabs = orderedChildren(parent).filter {
            !nodes[Int($0)].hidden && nodes[Int($0)].effectiveTraits.contains(.tab)
        }
        guard let index = tabs.firstIndex(of: slot) else { return nil }
        return (index + 1, tabs.count)
    }

    /// Custom actions of a stop: its own, plus its descendants' for a `combine` element.
    func customActions(_ slot: Slot) -> [String] {
        let node = nodes[Int(slot)]
        var actions = node.actions
        if node.childBehavior == .combine && node.representation == nil {
            for descendant in descendantsInReadingOrder(of: slot) {
                for action in nodes[Int(descendant)].actions where !actions.contains(action) { actions.append(action) }
            }
        }
        return actions
    }

    func hint(_ slot: Slot, node: Node, phrases: PhraseTable) -> String? {
        let hasActions = !customActions(slot).isEmpty
        guard let hint = node.hint else { return hasActions ? phrases[.actionsAvailable] : nil }
        guard hasActions else { return hint }
        let endsSentence = hint.last.map { ".!?".contains($0) } ?? false
        return hint + (endsSentence ? " " : ", ") + phrases[.actionsAvailable]
    }

    /// The custom actions of the stop at a reading-order position.
    public func actions(atStop position: Int) -> [String] { customActions(stops[position]) }

    /// The spoken value of the stop at a position (what an adjustment speaks).
    public func spokenValue(atStop position: Int) -> String? { spokenValue(stops[position], phrases: phrases) }
}
