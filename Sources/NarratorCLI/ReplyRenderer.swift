import NarratorEngines
import NarratorModel
import NarratorProtocol

/// Human-readable output for daemon replies: the utterance for navigation, tables for lists.
enum ReplyRenderer {
    static func render(_ body: ReplyBody, answering command: CommandName) -> String {
        switch body {
        case .focus(let report):
            return focusText(report.utterance, boundary: report.boundary, hint: report.hint)
        case .adjusted(let report):
            return focusText(report.utterance, boundary: report.boundary, hint: nil)
        case .selectedAction(let action, _):
            return action
        case .delivered(let delivery):
            return "sent \(delivery.action) to \(delivery.element)"
        case .updated(let report):
            return report.focus?.utterance ?? report.spokenValue ?? ""
        case .rotors(let rotors):
            return table(["ROTOR", "KIND", "ITEMS"], rotors.map { [$0.name, $0.kind.rawValue, $0.items.joined(separator: ", ")] })
        case .actions(let actions):
            return actions.joined(separator: "\n")
        case .trees(let trees):
            if trees.isEmpty { return "no trees registered (narratorctl register FILE registers one)" }
            return table(
                ["TREE", "TITLE", "STOPS", "NODES", "OWNER", "FOCUSED"],
                trees.map { tree in
                    [
                        tree.tree, tree.title ?? "", String(tree.stops), String(tree.nodes),
                        tree.owner.map { "pid \($0.pid)" } ?? (tree.ephemeral ? "-" : "none"), tree.focused ? "yes" : "",
                    ]
                })
        case .stops(_, let stops):
            return stops.map(\.utterance.text).joined(separator: "\n")
        case .status(let status):
            return statusText(status)
        case .voices(let listing):
            if listing.entries.isEmpty { return "" }
            // The engine is said once a page holds another engine's voices than eSpeak NG's.
            let engines = listing.entries.contains { $0.engine != SpeechEngines.espeak.rawValue }
            let variants = listing.entries.contains { $0.variant != nil }
            let header = (engines ? ["ENGINE"] : []) + ["NAME", "LANGUAGES"] + (variants ? ["VARIANT"] : []) + ["GENDER"]
            return table(header, listing.entries.map { entry in
                (engines ? [entry.engine] : []) + [entry.name, entry.languages.joined(separator: " ")]
                    + (variants ? [entry.variant ?? "-"] : []) + [entry.gender.rawValue]
            })
        case .setting(let key, let value):
            return command == .get ? value : "\(key) = \(value)"
        case .announced(let report):
            return "announcement \(report.announcement.rawValue): \(report.decision)"
        case .spoke(let text, _):
            return text
        case .registered(let report):
            return "\(report.replaced ? "replaced" : "registered") \(report.tree): \(counted(report.stops, "stop")), \(counted(report.nodes, "node"))"
        case .unregistered(let tree):
            return "unregistered \(tree)"
        case .hello(let version, let daemon, _):
            return "narratord \(daemon) (protocol \(version))"
        case .exported(_, let document):
            return document.prettyText
        case .stopped, .subscribed:
            return ""
        }
    }

    /// What goes to standard error beside the rendered reply: for `voices`, what the list left
    /// out (other pages, the variants folded away), so that a script reading the table gets
    /// only rows.
    static func note(_ body: ReplyBody, for request: RequestCommand) -> String? {
        guard case .voices(let listing) = body, case .voices(let query) = request else { return nil }
        var notes: [String] = []
        if listing.total == 0 {
            notes.append("no voice matches" + (query.language.map { " --language \($0)" } ?? "") + (query.name.map { " --name \"\($0)\"" } ?? ""))
        } else if listing.entries.count < listing.total {
            let first = listing.offset + 1, last = listing.offset + listing.entries.count
            let next = last < listing.total ? "; --offset \(last) shows the next" : ""
            notes.append(listing.entries.isEmpty ? "\(listing.total) matches, none from --offset \(listing.offset)" : "matches \(first)-\(last) of \(listing.total)\(next)")
        }
        if !query.variants && listing.variantCount > 0 && listing.total > 0 {
            notes.append("each voice also comes with any of \(listing.variantCount) variants, as NAME+VARIANT (narratorctl voices --variants lists them)")
        }
        return notes.isEmpty ? nil : notes.joined(separator: "\n")
    }

    static func focusText(_ utterance: String, boundary: Bool, hint: String?) -> String {
        // At a boundary nothing is spoken, the hint included: say where focus stays, no more.
        if boundary { return utterance + " (boundary)" }
        return utterance + (hint.map { "\n  hint: " + $0 } ?? "")
    }

    static func statusText(_ status: StatusReport) -> String {
        var lines = [
            "narratord \(status.version) (pid \(status.pid))",
            "uptime:   \(JSONWriter.format((status.uptime * 10).rounded() / 10)) s",
            "socket:   \(status.socket ?? "passed by systemd")",
            "clients:  \(status.clients)",
            "trees:    \(status.trees)",
        ]
        // Who owns them: an application, or the AT-SPI bridge with a tree per window it mirrors.
        for owner in status.owners {
            lines.append("  \(owner.name ?? "client") (pid \(owner.pid)): " + counted(owner.trees.count, "tree"))
            lines += owner.trees.map { "    " + $0 }
        }
        lines += [
            "focus:    \(status.focus.map { "\($0.tree)/\($0.element)" } ?? "none")",
            "audio:    \(status.audio.active) (requested \(status.audio.spec))",
        ]
        if status.audio.fallback { lines.append("fallback: \(status.audio.detail ?? "sound server unreachable")") }
        // eSpeak NG alone (no engine process installed) is not worth a line.
        if status.engines.count > 1 {
            lines.append("engines:  " + status.engines.map(\.summary).joined(separator: "; "))
        }
        lines += [
            "voice:    \(status.voice)",
            "speaking: \(status.speaking ? "yes" : "no"), \(status.queue) waiting",
            // Deferred announcements (throttled, kept for coalescing) wait too, outside the queue.
            "policy:   \(status.announcements.policy), \(counted(status.announcements.waiting, "announcement")) waiting, "
                + "\(status.announcements.deferred) deferred by the rate limit",
        ]
        let log = status.log
        let state = log.isWriting
            ? "ok, \(counted(log.rowsWritten, "row"))"
            : "NOT WRITING: \(log.problem?.reason ?? "unknown error")" + (log.isOpen ? "" : "; the file is opened again as soon as it can be")
        lines.append("log:      \(log.path) (\(state))")
        if let aside = log.setAside { lines.append("          was not a database: set aside as \(aside.path)") }
        return lines.joined(separator: "\n")
    }

    /// One line per utterance that starts speaking: "focus  player/rating  rating, 3, adjustable".
    static func monitorLine(_ event: Event) -> String? {
        guard case .speech(let notice) = event, case .started = notice.phase else { return nil }
        let place = notice.tree.map { $0 + (notice.element.map { "/" + $0 } ?? "") } ?? "-"
        return "\(notice.kind.name)\t\(place)\t\(notice.text ?? "")"
    }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[index] + 2)
            }.joined()
        }.joined(separator: "\n")
    }
}
