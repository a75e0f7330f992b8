/// Auditing a compiled tree against the rules of accessible custom controls.
///
/// The same call serves `narratorctl audit FILE` (a tree compiled from a file) and the daemon
/// (a registered tree, after any updates): paths are computed from the live structure.
extension AccessibilityTree {
    /// Runs every rule that is not switched off, here or by the tree's own `audit.ignore`.
    public func audit(ignoring: Set<AuditRule> = [], limits: AuditLimits = .default) -> AuditReport {
        let ignored = ignoring.union(auditIgnore)
        var auditor = Auditor(tree: self, limits: limits, enabled: Set(AuditRule.allCases).subtracting(ignored))
        auditor.checkStops()
        auditor.checkNodes()
        return AuditReport(tree: name, findings: auditor.sortedFindings(), ignored: ignored, stopCount: stopCount)
    }
}

/// One audit pass: collects findings with the slot they are about, then sorts them into
/// document order.
struct Auditor {
    typealias Slot = AccessibilityTree.Slot

    let tree: AccessibilityTree
    let limits: AuditLimits
    let enabled: Set<AuditRule>
    let phrases: PhraseTable
    private(set) var found: [(slot: Slot, finding: AuditFinding)] = []
    /// Built on the first finding, so that paths cost O(depth) even in a list of 100k siblings.
    private var indexInParent: [Int32]?

    init(tree: AccessibilityTree, limits: AuditLimits, enabled: Set<AuditRule>) {
        self.tree = tree
        self.limits = limits
        self.enabled = enabled
        self.phrases = tree.phrases
    }

    mutating func report(
        _ rule: AuditRule, _ slot: Slot, _ message: String, path extra: [JSONPathComponent] = [], fix: String? = nil
    ) {
        guard enabled.contains(rule) else { return }
        if indexInParent == nil { indexInParent = tree.indexesInParent() }
        let path = (tree.jsonPath(ofSlot: slot, indexInParent: indexInParent) + extra).rendered
        found.append((slot, AuditFinding(rule: rule, element: id(slot), path: path, message: message, fix: fix)))
    }

    func id(_ slot: Slot) -> String { tree.nodes[Int(slot)].id }

    /// Findings in document order; for one node, in rule order, then in the order found.
    func sortedFindings() -> [AuditFinding] {
        var order = [Int](repeating: Int.max, count: tree.nodes.count)
        for (index, slot) in tree.slotsInDocumentOrder().enumerated() { order[Int(slot)] = index }
        let ruleIndex = Dictionary(uniqueKeysWithValues: AuditRule.allCases.enumerated().map { ($1, $0) })
        return found.enumerated().sorted { a, b in
            let ka = (order[Int(a.element.slot)], ruleIndex[a.element.finding.rule, default: Int.max], a.offset)
            let kb = (order[Int(b.element.slot)], ruleIndex[b.element.finding.rule, default: Int.max], b.offset)
            return ka < kb
        }.map(\.element.finding)
    }

    /// Whether a node is something a user operates: a control trait or custom actions.
    func isActionable(_ slot: Slot) -> Bool {
        let node = tree.nodes[Int(slot)]
        return !node.effectiveTraits.intersection(.actionable).isEmpty || !node.actions.isEmpty
    }

    /// "button", "link, toggle": trait names for messages.
    static func names(_ traits: Traits) -> String { traits.list.map(\.rawValue).joined(separator: ", ") }

    static func format(_ rect: Rect) -> String {
        "[\([rect.x, rect.y, rect.width, rect.height].map(JSONWriter.format).joined(separator: ", "))]"
    }

    static func format(_ point: Point) -> String { "[\(JSONWriter.format(point.x)), \(JSONWriter.format(point.y))]" }
}
