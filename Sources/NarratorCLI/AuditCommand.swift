import Foundation
import NarratorModel

/// `narratorctl audit FILE|TREE`: audit a tree document offline (or, through the daemon, a registered tree).
enum AuditCommand {
    static func run(
        _ request: AuditRequest, json: Bool, invocation: Invocation, environment: [String: String], console: Console
    ) -> ExitStatus {
        let target = request.target
        let bytes: [UInt8]
        switch TreeOrFile.resolve(target, for: "audit", invocation: invocation, environment: environment, console: console) {
        case .failed(let status):
            return status
        case .tree(let exported):
            // A tree registered with the daemon, audited as it is now.
            do {
                let document = try TreeDocumentDecoder().decode(exported)
                return audit(document: document, request: request, json: json, console: console)
            } catch {
                console.err("narratorctl audit: the daemon sent an invalid document for \(target): \(error)\n")
                return .refused
            }
        case .file(let file):
            guard let read = InputFile.read(file, for: "audit", console: console) else { return .refused }
            bytes = read
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
                (rows.map { DisplayWidth.of($0[column]) } + [headings[column].count]).max()! + 2
            }
            func pad(_ cells: [String]) -> String {
                zip(cells, widths).map { DisplayWidth.padded($0, to: $1) }.joined()
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
