import NarratorCommandLine
import NarratorModel

/// `narratorctl audit`'s arguments, checked while parsing (rule ids and levels are validated
/// against the core's lists, with suggestions for typos).
public struct AuditRequest: Equatable, Sendable {
    /// A tree document's path, `-` for standard input, or the name of a tree registered with the daemon.
    public var target: String
    /// Exit 1 when a finding is at least this severe.
    public var failOn: AuditSeverity
    /// Rules switched off on the command line (added to the document's own `audit.ignore`).
    public var ignore: [AuditRule]
    /// Where to write the SVG picture, if wanted.
    public var svg: String?

    public init(target: String, failOn: AuditSeverity = .error, ignore: [AuditRule] = [], svg: String? = nil) {
        self.target = target
        self.failOn = failOn
        self.ignore = ignore
        self.svg = svg
    }
}

let auditCommandSpec = CommandSpec(
    name: "audit", summary: "check a tree against the rules of accessible custom controls",
    arguments: [ArgumentSpec("FILE|TREE", help: "a tree document (JSON; - reads standard input) or a registered tree's name")],
    options: [
        OptionSpec(
            "--fail-on", value: "LEVEL", help: "exit 1 when a finding is at least this severe (default: error)",
            choices: AuditSeverity.allCases.reversed().map(\.rawValue)),
        OptionSpec("--ignore", value: "RULE", help: "switch a rule off (repeatable)", choices: AuditRule.ids, repeatable: true),
        OptionSpec("--svg", value: "PATH", help: "also draw the tree, its reading order and the findings as SVG"),
    ],
    discussion: """
        Prints a table of findings (severity, rule, element, JSON path, message, fix) in document
        order, or with --json an array of {rule, severity, element, path, message, fix}. A document
        can switch rules off for itself with "audit": {"ignore": ["small-target"]}. Exit status: 0
        when no finding reaches the --fail-on level, 1 when one does or the document is invalid.

        Rules (see docs/audit.md):
        \(AuditRule.allCases.map { "  \($0.rawValue) (\($0.severity.rawValue)): \($0.summary)" }.joined(separator: "\n"))
        """,
    connects: .forRegisteredTree,
    build: { parsed throws(UsageError) in
        .audit(
            AuditRequest(
                target: parsed.positionals[0],
                failOn: parsed.value("--fail-on").flatMap(AuditSeverity.init(rawValue:)) ?? .error,
                ignore: parsed.values("--ignore").compactMap(AuditRule.init(rawValue:)),
                svg: parsed.value("--svg")))
    })
