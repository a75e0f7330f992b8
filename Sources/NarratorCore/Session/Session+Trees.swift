import NarratorBase
import NarratorModel
import NarratorProtocol

/// Registering, updating and listing trees, and who owns them.
extension Session {
    /// Registers a tree compiled from its document (``PreparedRequest/compile(_:decoder:)``, by
    /// the session or before the request reached it), if `client` may.
    mutating func register(
        _ tree: consuming AccessibilityTree, ephemeral isEphemeral: Bool, focusEvents: Bool = false, from client: ClientID
    ) throws(ReplyError) -> RegisterReport {
        let name = tree.name
        if let record = clients.owner(of: name), record.id != client {
            throw ReplyError(
                .treeOwned, "tree \"\(name)\" is registered by another connection, \(record.label); unregister it first or use another name")
        }
        let owned = clients.trees(ownedBy: client)
        if !owned.contains(name), owned.count >= configuration.limits.treesPerClient {
            throw ReplyError(
                .limitExceeded, "this connection already owns \(owned.count) trees, the most allowed (--max-trees); unregister one first")
        }
        let (nodes, stops) = (tree.nodeCount, tree.stopCount)
        let replaced = workspace.register(tree)
        clients.registered(name, by: client, ephemeral: isEphemeral, focusEvents: focusEvents)
        journal(
            .info,
            "\(replaced ? "replaced" : "registered") tree \"\(name)\" (\(nodes) nodes, \(stops) stops) for \(clients[client]?.label ?? "\(client)")")
        return RegisterReport(tree: name, stops: stops, nodes: nodes, replaced: replaced)
    }

    /// The trees `input` would remove, handled now: the daemon holds them while the session
    /// handles it, then drops them off the loop, since freeing a 100,000-element tree holds the
    /// loop for milliseconds. An input held back (behind a settings write) removes them later;
    /// then the daemon's reference is not the last and the session frees them itself.
    public func treesRemoved(by input: SessionInput) -> [AccessibilityTree] {
        switch input {
        case .request(_, .success(let request)), .prepared(_, .decoded(.success(let request))):
            guard case .unregister(let name) = request.command else { return [] }
            return workspace.trees[name].map { [$0] } ?? []
        case .disconnected(let client):
            return clients.ephemeralTrees(ownedBy: client).compactMap { workspace.trees[$0] }
        default:
            return []
        }
    }

    mutating func unregister(_ tree: String) throws(ReplyError) {
        try moving { (w) throws(NarratorError) in try w.unregister(tree) }
        clients.unregistered(tree)
        journal(.info, "unregistered tree \"\(tree)\"")
    }

    /// `prepared`: the update already applied off the loop (``PreparedUpdate``), swapped in if
    /// the tree has not changed since.
    mutating func update(
        tree: String, _ update: TreeUpdate, announce: Bool, notify: LayoutNotification?, prepared: PreparedUpdate.Result? = nil
    ) throws(ReplyError) -> UpdateReport {
        // What the focused element said before: an announced update that leaves it the same (the
        // owner confirming a value the daemon already spoke) says nothing again.
        let before = announce ? focusedSpeech(tree: tree, element: update.element) : nil
        let typedBefore = announce ? focusedFieldText(tree: tree, element: update.element) : nil
        // An edit says what it put in, or what it took out, as it was made.
        var edit: TextEdit?
        if case .editText(_, let range, let text) = update, let old = typedBefore {
            let scalars = Array(old.unicodeScalars)
            if range.location + range.length <= scalars.count {
                var deleted = String.UnicodeScalarView()
                deleted.append(contentsOf: scalars[range.location..<(range.location + range.length)])
                edit = TextEdit(inserted: text, deleted: String(deleted))
            }
        }
        // A caret or selection moving in the focused field says what it moved over.
        let caretBefore = typedBefore != nil ? workspace.trees[tree]?.node(update.element)?.selectedTextRange : nil
        let caretUnit: CaretMotion.Unit?? = Self.caretMove(update)
        let repaired = try moving { (w) throws(NarratorError) in try w.update(tree: tree, update, path: [.key(update.payloadKey)], prepared: prepared) }
        var report = UpdateReport(tree: tree, element: update.element)
        if announce, notify == nil, repaired == nil, let unit = caretUnit, let text = typedBefore, let focus = workspace.focus,
            let updated = workspace.trees[tree], let range = updated.node(update.element)?.selectedTextRange
        {
            if let said = CaretMotion(text: text, from: caretBefore, to: range, unit: unit).spoken(updated.phrases) {
                say(said, .value, tree: tree, element: focus.element)
                report.spokenValue = said
            }
            return report
        }
        if let notify {
            let outcome: FocusOutcome
            switch notify {
            case .screenChanged(let element), .layoutChanged(let element):
                // A new title with a new screen (a browser's window showing a new page) is said
                // before the element, as entering the tree says it.
                var titled = false
                if case .retitle = update, case .screenChanged = notify { titled = true }
                if let element {
                    outcome = try moving { (w) throws(NarratorError) in try w.focus(tree: tree, element: element, titled: titled) }
                } else {
                    outcome = try moving { (w) throws(NarratorError) in try w.move(.first, tree: tree) }
                }
            }
            report.focus = speakFocus(outcome)
        } else if let repaired {
            report.focus = speakFocus(repaired)
        } else if announce, let text = focusedSpeech(tree: tree, element: update.element), text != before || edit != nil, let focus = workspace.focus,
            let phrases = workspace.trees[tree]?.phrases
        {
            // An edit is said even where what the stop says did not change: a space typed at
            // a line's end leaves the line as it is said ("First line") and is still "space".
            // A field the user types into says the keys' work, not the whole text again.
            let typed = edit.map { $0.spoken(phrases) } ?? typedBefore.flatMap { old in
                focusedFieldText(tree: tree, element: update.element).flatMap { TextEdit(from: old, to: $0).spoken(phrases) }
            }
            say(typed ?? text, .value, tree: tree, element: focus.element)
            report.spokenValue = typed ?? text
        }
        return report
    }

    /// Whether `update` only moves a caret or selection (a `caret` update, with its unit when it
    /// has one, or a `set` of `selectedTextRange` alone): nil for any other update.
    static func caretMove(_ update: TreeUpdate) -> CaretMotion.Unit?? {
        switch update {
        case .moveCaret(_, _, let unit): return .some(unit)
        case .setProperties(_, .object(let properties)) where properties.members.map(\.key) == ["selectedTextRange"]: return .some(nil)
        default: return nil
        }
    }

    /// What an announced change of `element` says when it is the focused stop: its spoken value,
    /// else its utterance; nil when it is not focused.
    func focusedSpeech(tree: String, element: String) -> String? {
        guard let focus = workspace.focus, focus.tree == tree, let compiled = workspace.trees[tree],
            case .stop(let position) = compiled.lookup(element), compiled.stopID(at: position) == focus.element
        else { return nil }
        return compiled.spokenValue(atStop: position) ?? compiled.utterance(atStop: position).text
    }

    /// The text of `element` when it is the focused stop and a text or search field (an empty one
    /// has ""); nil otherwise.
    func focusedFieldText(tree: String, element: String) -> String? {
        guard let focus = workspace.focus, focus.tree == tree, focus.element == element, let node = workspace.trees[tree]?.node(element),
            node.representation == nil, !node.traits.intersection(Traits([.textField, .searchField])).isEmpty
        else { return nil }
        return node.value ?? ""
    }

    func treeSummaries() -> [TreeSummary] {
        workspace.trees.sorted { $0.key < $1.key }.map { name, tree in
            let owner = clients.owner(of: name)
            return TreeSummary(
                tree: name, title: tree.title, language: tree.language, nodes: tree.nodeCount, stops: tree.stopCount,
                owner: owner.map { TreeSummary.Owner(pid: $0.credentials.pid, name: $0.name) }, ephemeral: clients.isEphemeral(name),
                focused: workspace.focus?.tree == name)
        }
    }
}
