import NarratorModel

/// A window read that takes away the element Narrator's focus is on, while the application's
/// focus has moved elsewhere in the same window and that move waits for the read: a select's
/// list of options closing (Firefox draws it in the browser's chrome, and moves the focus back
/// to the select as the list goes). Sent as it is, the update that removes the options has
/// narratord repair its focus to the nearest stop and say it (the browser's first toolbar
/// button), and only then the select. Handed over, narratord's focus goes straight to where
/// the application's went, said once, with what the rest of the read changed there.
extension ATSPIMirror {
    /// The read's updates with the one that takes Narrator's focused element away last, carrying
    /// the focus to `target` (an object path); nil when the read takes nothing away from the
    /// focus, or `target` is no stop of the window (the focus move is then carried out as usual).
    mutating func handOver(
        _ id: WindowID, _ window: Window, from previous: TreeDocument, stops previousStops: Set<String>, changes: [TreeDiff.Change], to target: String
    ) -> [Effect]? {
        guard let last = lastFocus, last.window == id else { return nil }
        var focused = ATSPIMapping.id(of: last.path)
        if !previousStops.contains(focused), let entry = window.entries[focused] { focused = entry }
        guard previousStops.contains(focused), !window.stops.contains(focused) else { return nil }
        var element = ATSPIMapping.id(of: target)
        if !window.stops.contains(element), let entry = window.entries[element] { element = entry }
        guard window.stops.contains(element), element != focused else { return nil }
        // The children replaced under an ancestor of the focused element (TreeDiff goes no deeper
        // than a replacement, so no later update is inside it and it can go last).
        guard let index = changes.firstIndex(where: { change in
            guard case .replaceChildren(let parent, _) = change.update else { return false }
            return previous.root.find(parent)?.find(focused) != nil
        }) else { return nil }
        var rest = changes
        let taking = rest.remove(at: index)
        lastFocus = (id, target)
        browsing = nil
        return rest.map { .update(tree: window.tree, $0.update, announce: Self.heard($0)) }
            + [.updateFocusing(tree: window.tree, taking.update, element: element)]
    }
}

/// A page's title coming just after Narrator's focus entered the page (Firefox focuses a
/// loading page's document in the same burst as it names the window, in either order): the
/// entry is said again with the title, as entering the window says it, once.
extension ATSPIMirror {
    /// The read's updates, unannounced, and the title set on the root with a `screenChanged`
    /// notification on the page's entry last; nil unless Narrator's focus entered a page of this
    /// window and stayed there, and the title is not the one Narrator last said in it.
    mutating func enteringTitled(_ id: WindowID, _ window: Window, changes: [TreeDiff.Change]) -> [Effect]? {
        guard enteredPage == id, let last = lastFocus, last.window == id, saidTitles[id] != window.document.title,
            let element = window.entries[ATSPIMapping.id(of: last.path)], window.stops.contains(element)
        else { return nil }
        enteredPage = nil
        saidTitles.updateValue(window.document.title, forKey: id)
        return changes.map { .update(tree: window.tree, $0.update, announce: false) }
            + [.enterPage(tree: window.tree, root: window.document.root.id, title: window.document.title, element: element)]
    }
}
