/// One problem the audit found: which rule, on which element, where in the document, and how to fix it.
public struct AuditFinding: Equatable, Sendable {
    public var rule: AuditRule
    /// The element the finding is about (its id).
    public var element: String
    /// The element's JSON path in the document, e.g. `root.children[2].children[0]`.
    public var path: String
    /// What is wrong, naming the specifics ("48 characters; the limit is 40").
    public var message: String
    /// How to fix it, in one line.
    public var fix: String

    public init(rule: AuditRule, element: String, path: String, message: String, fix: String? = nil) {
        self.rule = rule
        self.element = element
        self.path = path
        self.message = message
        self.fix = fix ?? rule.fix
    }

    public var severity: AuditSeverity { rule.severity }

    /// `{rule, severity, element, path, message, fix}`, as `audit --json` prints it.
    public var json: JSONValue {
        [
            "rule": .string(rule.rawValue), "severity": .string(severity.rawValue), "element": .string(element),
            "path": .string(path), "message": .string(message), "fix": .string(fix),
        ]
    }
}

/// The result of auditing one tree.
public struct AuditReport: Equatable, Sendable {
    public var tree: String
    /// Findings in document order (then in rule order for one element).
    public var findings: [AuditFinding]
    /// Rules that were switched off, by the document or by the caller.
    public var ignored: Set<AuditRule>
    /// Focus stops checked.
    public var stopCount: Int

    public init(tree: String, findings: [AuditFinding], ignored: Set<AuditRule>, stopCount: Int) {
        self.tree = tree
        self.findings = findings
        self.ignored = ignored
        self.stopCount = stopCount
    }

    /// Whether any finding is at least as severe as `level` (CI fails the build then).
    public func reaches(_ level: AuditSeverity) -> Bool { findings.contains { $0.severity >= level } }

    public func count(_ severity: AuditSeverity) -> Int { findings.count { $0.severity == severity } }

    /// The findings as a JSON array.
    public var json: JSONValue { .array(findings.map(\.json)) }
}
