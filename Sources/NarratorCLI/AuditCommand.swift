import Foundation
import NarratorCore

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
    build: { parsed throws(UsageError) in
        .audit(
            AuditRequest(
                target: parsed.positionals[0],
                failOn: parsed.value("--fail-on").flatMap(AuditSeverity.init(rawValue:)) ?? .error,
                ignore: parsed.values("--ignore").compactMap(AuditRule.init(rawValue:)),
                svg: parsed.value("--svg")))
    })

/// `narratorctl audit FILE|TREE`: audit a tree document offline (or, through the daemon, a registered tree).
enum AuditCommand {
    static func run(
        _ request: AuditRequest, json: Bool, invocation: Invocation, environment: [String: String], console: Console
    ) -> ExitStatus {
        let target = request.target
        let bytes: [UInt8]
        if InputFile.isFile(target) {
            guard let read = InputFile.read(target, for: "audit", console: console) else { return .refused }
            bytes = read
        } else {
            // Not a file: a tree registered with the daemon, audited as it is now.
            switch DaemonSession.fetch(cmd: "export", fields: [JSONObject.Member(key: "tree", value: .string(target))], invocation: invocation, environment: environment, console: console) {
            case .failure(let status):
                return status
            case .success(let reply):
                do {
                    let document = try TreeDocumentDecoder().decode(reply["document"] ?? .null)
                    return audit(document: document, request: request, json: json, console: console)
                } catch {
                    console.err("narratorctl audit: the daemon sent an invalid document for \(target): \(error)\n")
                    return .refused
                }
            }
        }
        let document: TreeDocument
        do {
            document = try TreeDocumentDecoder().decode(bytes: bytes)
        } catch {
            console.err("narratorctl audit: \(target == "-" ? "standard input" : target) is not a valid tree document:\n")
            for problem in error.problems { console.err("  \(problem)\n") }
            return .refused
        }
        return audit(document: document, request: request, json: json, console: console)
    }

    /// Audits a decoded document: prints the findings, writes the picture, and picks the exit status.
    /// A registered tree takes the same path once narratorctl has fetched its document from the daemon.
    static func audit(document: TreeDocument, request: AuditRequest, json: Bool, console: Console) -> ExitStatus {
        let tree = AccessibilityTree(document: document)
        let report = tree.audit(ignoring: Set(request.ignore))
        if let path = request.svg {
            do {
                try Data(AuditPicture(tree: tree, report: report).svg.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                console.err("narratorctl audit: cannot write \(path): \(error.localizedDescription)\n")
                return .refused
            }
        }
        console.out(json ? report.json.prettyText + "\n" : table(report))
        return report.reaches(request.failOn) ? .refused : .success
    }

    /// Findings as aligned columns, each fix on its own line under the message, then a summary.
    static func table(_ report: AuditReport) -> String {
        var text = ""
        if !report.findings.isEmpty {
            let headings = ["SEVERITY", "RULE", "ELEMENT", "PATH"]
            let rows = report.findings.map { [$0.severity.rawValue, $0.rule.rawValue, $0.element, $0.path] }
            let widths = headings.indices.map { column in
                (rows.map { $0[column].count } + [headings[column].count]).max()! + 2
            }
            func pad(_ cells: [String]) -> String {
                zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined()
            }
            let indent = String(repeating: " ", count: widths.reduce(0, +))
            text += pad(headings) + "MESSAGE / FIX\n"
            for (row, finding) in zip(rows, report.findings) {
                text += pad(row) + finding.message + "\n"
                text += indent + "fix: " + finding.fix + "\n"
            }
            text += "\n"
        }
        let errors = report.count(.error), warnings = report.count(.warning)
        let counts =
            report.findings.isEmpty
            ? "no findings" : "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        text += "\(report.tree): \(counts) in \(report.stopCount) focus stop\(report.stopCount == 1 ? "" : "s")"
        if !report.ignored.isEmpty {
            let ignored = AuditRule.allCases.filter(report.ignored.contains).map(\.rawValue)
            text += " (ignored: \(ignored.joined(separator: ", ")))"
        }
        return text + "\n"
    }
}
