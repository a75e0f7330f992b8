/// A web page's regions (landmarks, lists, live regions, paragraphs, block quotes) and its
/// visited and unvisited links, as Orca's structural keys jump between them; and the landmarks
/// the cursor enters and leaves, said as it does, in Orca's words.
extension Workspace {
    /// The structure rotors that reach a region at its first stop, and what each says first.
    static let landmarksRotor = "landmarks", listsRotor = "lists", blockQuotesRotor = "block-quotes"

    /// What a rotor's or a move's target says before itself, put before what it says already:
    /// for a move, the landmarks left and entered since `current` (none when the cursor came from
    /// elsewhere); for the rotor that reached it, the landmark, table, list or block quote it starts.
    func introduce(_ outcome: inout FocusOutcome, at target: Int, from current: Int?, in tree: AccessibilityTree, rotor: String? = nil) {
        switch rotor {
        case Self.tablesRotor?:
            if let table = tree.tableIntroduction(atStop: target, verbosity: verbosity) { outcome.wrap(saying: table) }
        case Self.listsRotor?:
            if let list = tree.region(startingAt: target, where: { $0.listSize != nil }), let size = tree.nodes[Int(list)].listSize {
                let nested = tree.isInsideList(list)
                let words = size == 1 ? tree.phrases[nested ? .nestedListSizeOne : .listSizeOne] : tree.phrases[nested ? .nestedListSize : .listSize]
                outcome.wrap(saying: words.replacingAll("{count}", with: "\(size)"))
            }
        case Self.blockQuotesRotor?:
            if tree.region(startingAt: target, where: { $0.block == .blockQuote }) != nil { outcome.wrap(saying: tree.phrases[.blockQuote]) }
        default:
            break
        }
        // A structural key says the item alone, as Orca 43's do (H from the banner to the main
        // content says only the heading): the landmarks crossed are said by the moves that read
        // on, item by item or line by line, and by the focus. The landmarks key says the one it reached.
        let change: String?
        switch rotor {
        case nil: change = tree.landmarkChange(from: current, to: target)
        case Self.landmarksRotor?: change = tree.region(startingAt: target, where: { $0.landmark != nil }).flatMap { tree.landmarkChange(from: nil, to: target, reaching: $0) }
        default: change = nil
        }
        guard let change else { return }
        outcome.wrap(saying: change)
    }
}

extension AccessibilityTree {
    /// The stops of the structure rotors over a page's regions, by rotor name: each region's id,
    /// standing for its first stop; and the links by whether their page was visited, when one
    /// was or `linksByVisit` (else the unvisited ones are the links rotor's again).
    func regionRotorIDs(linksByVisit: Bool) -> [(name: String, items: [String])] {
        var landmarks: [String] = [], lists: [String] = [], live: [String] = [], paragraphs: [String] = [], quotes: [String] = []
        for slot in regionSlots {
            let node = nodes[Int(slot)]
            if node.landmark != nil { landmarks.append(node.id) }
            if node.listSize != nil { lists.append(node.id) }
            if node.live != nil { live.append(node.id) }
            if node.block == .paragraph { paragraphs.append(node.id) }
            if node.block == .blockQuote { quotes.append(node.id) }
        }
        var visited: [String] = [], unvisited: [String] = []
        for stop in stops {
            let node = nodes[Int(stop)]
            let traits = node.effectiveTraits
            guard traits.contains(.link) else { continue }
            if traits.contains(.visited) { visited.append(node.id) } else { unvisited.append(node.id) }
        }
        let byVisit = linksByVisit || !visited.isEmpty ? [("unvisited-links", unvisited), ("visited-links", visited)] : []
        return byVisit + [
            (Workspace.listsRotor, lists), (Workspace.landmarksRotor, landmarks), ("live-regions", live), ("paragraphs", paragraphs),
            (Workspace.blockQuotesRotor, quotes),
        ]
    }

    /// The outermost region around the stop at `position` that `matches` and starts there (the
    /// stop is its first): the one a rotor reaching that stop reached.
    func region(startingAt position: Int, where matches: (Node) -> Bool) -> Slot? {
        ancestry(ofStop: position).reversed().first { slot in
            matches(nodes[Int(slot)]) && stopOf(slot: slot) == position
        }
    }

    /// Whether a list is inside another list (Orca says "Nested list with 2 items").
    func isInsideList(_ slot: Slot) -> Bool {
        var current = parentSlot[Int(slot)]
        while current >= 0 {
            if nodes[Int(current)].listSize != nil { return true }
            current = parentSlot[Int(current)]
        }
        return false
    }

    /// The landmarks around the stop at `position`, outermost first.
    func landmarks(aroundStop position: Int) -> [Slot] {
        ancestry(ofStop: position).reversed().filter { nodes[Int($0)].landmark != nil }
    }

    /// What a move from the stop at `from` to the one at `to` says of landmarks, as Orca does:
    /// each one left ("leaving navigation"), innermost first, then each one entered with its name
    /// ("Site, navigation"), outermost first; `reaching` (the landmark a rotor reached) is said
    /// even when the cursor was in it already. Nil when the move changed none.
    func landmarkChange(from: Int?, to: Int, reaching: Slot? = nil) -> String? {
        guard from != nil || reaching != nil else { return nil }
        let before = from.map(landmarks(aroundStop:)), after = landmarks(aroundStop: to)
        var parts: [String] = []
        for slot in (before ?? []).reversed() where !after.contains(slot) {
            guard let landmark = nodes[Int(slot)].landmark else { continue }
            parts.append(phrases[.leaving].replacingAll("{role}", with: phrases[landmark.phrase]))
        }
        // (From nowhere in the tree, only the landmark reached.)
        for slot in after where before.map({ !$0.contains(slot) }) ?? false || slot == reaching {
            guard let landmark = nodes[Int(slot)].landmark else { continue }
            let name = nodes[Int(slot)].label?.trimmingWhitespace ?? ""
            parts.append(name.isEmpty ? phrases[landmark.phrase] : name + ", " + phrases[landmark.phrase])
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
