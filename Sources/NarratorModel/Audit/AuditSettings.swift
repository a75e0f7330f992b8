import NarratorBase

/// The document key `"audit": {"ignore": ["small-target"]}`: rules a tree switches off for itself,
/// so a team can accept a known finding without silencing it for every tree.
extension DecodingContext {
    static let auditKeys = ["ignore"]

    mutating func auditSettings(_ value: JSONValue) -> [AuditRule] {
        guard case .object(let object) = value else {
            problem("expected an object such as {\"ignore\": [\"small-target\"]}, got \(value.typeName)")
            return []
        }
        var rules: [AuditRule] = []
        for member in distinctMembers(object) {
            path.append(.key(member.key))
            defer { path.removeLast() }
            guard member.key == "ignore" else {
                problem("unknown key" + Suggestion.hint(for: member.key, in: Self.auditKeys))
                continue
            }
            guard case .array(let items) = member.value else {
                problem("expected an array of rule ids, got \(member.value.typeName)")
                continue
            }
            for (index, item) in items.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                guard let id = string(item) else { continue }
                if let rule = AuditRule(rawValue: id) {
                    if !rules.contains(rule) { rules.append(rule) }
                } else {
                    problem(unknownName(id, kind: "audit rule", in: AuditRule.ids))
                }
            }
        }
        return rules
    }
}

extension TreeDocumentEncoder {
    static func auditSettings(_ document: TreeDocument) -> JSONValue {
        ["ignore": .array(document.auditIgnore.map { .string($0.rawValue) })]
    }
}
