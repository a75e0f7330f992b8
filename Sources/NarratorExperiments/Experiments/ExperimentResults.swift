import NarratorModel
import NarratorSpeechPlan

/// An experiment's figures: every policy over every trace, each policy over all traces, and the
/// Pareto front of the policies (``ParetoFront``) by p95 latency and unheard messages, all traces.
public struct ExperimentResults: Sendable {
    public var policies: [AnnouncementPolicy]
    /// The traces' short names (file names without `.jsonl`), the tables' columns.
    public var traces: [String]
    /// `metrics[policy][trace]`.
    public var metrics: [[ExperimentMetrics]]
    /// Each policy over all traces.
    public var totals: [ExperimentMetrics]
    /// Indices into `policies` of the front, ascending.
    public var front: [Int]
    public var late: Double

    /// The front from the fewest unheard messages to the most (as the plot numbers it).
    public var frontByUnheard: [Int] {
        front.sorted { (totals[$0].unheard, totals[$0].p95 ?? 0, $0) < (totals[$1].unheard, totals[$1].p95 ?? 0, $1) }
    }

    public init(policies: [AnnouncementPolicy], traces: [String], metrics: [[ExperimentMetrics]], late: Double) {
        self.policies = policies
        self.traces = traces
        self.metrics = metrics
        self.late = late
        totals = metrics.map(ExperimentMetrics.combined)
        front = ParetoFront.indices(totals.map { (unheard: $0.unheard, p95: $0.p95) })
    }

    /// One table per figure (rows: policies, `*` on the front; columns: traces, then all of them),
    /// the messages lost by outcome, then the front itself.
    public var tables: String {
        let lateText = JSONWriter.format(late)
        let seconds = { (value: Double?) in value.map { Self.decimal($0, places: 2) } ?? "-" }
        let whole = { (value: Double) in String(Int(value)) }
        var out = ""
        let perTrace: [(title: String, figure: (ExperimentMetrics) -> String)] = [
            ("latency p50, s (queued to started, messages that started)", { seconds($0.p50) }),
            ("latency p95, s", { seconds($0.p95) }),
            ("latency p99, s", { seconds($0.p99) }),
            ("words heard (messages and the user's own speech; a cut one by the fraction played)", { Self.decimal($0.wordsHeard, places: 1) }),
            ("unheard messages (never started: deduplicated, throttled, expired, dropped, cancelled)", { whole(Double($0.unheard)) }),
            ("focus speech cut (the user's own speech cut by a message)", { whole(Double($0.focusCut)) }),
            ("heard too late (started more than \(lateText) s after queued)", { whole(Double($0.tooLate)) }),
        ]
        for table in perTrace {
            let rows = policies.indices.map { p in metrics[p].map(table.figure) + [table.figure(totals[p])] }
            out += table.title + "\n" + render(headings: traces + ["all"], rows: rows) + "\n"
        }
        let lost: [AnnouncementOutcome] = [.interrupted, .deduplicated, .throttled, .expired, .dropped, .cancelled]
        let lostRows = totals.map { total in lost.map { String(total.outcomes[$0] ?? 0) } }
        out += "messages lost by outcome, all traces\n" + render(headings: lost.map(\.rawValue), rows: lostRows) + "\n"
        out += "Pareto front (* above; no other policy has both a lower p95 latency and fewer unheard messages, all traces):\n"
        if front.isEmpty { out += "  (no policy started a message)\n" }
        for index in frontByUnheard {
            out += "  \(policies[index].name): p95 \(seconds(totals[index].p95)) s, \(totals[index].unheard) unheard\n"
        }
        return out
    }

    private func render(headings: [String], rows: [[String]]) -> String {
        let labels = policies.indices.map { (front.contains($0) ? "* " : "  ") + policies[$0].name }
        let all = [["  POLICY"] + headings.map { $0.uppercased() }] + zip(labels, rows).map { [$0] + $1 }
        let widths = all[0].indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { cells in
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    static func decimal(_ value: Double, places: Int) -> String {
        let scale = places == 1 ? 10.0 : 100.0
        let scaled = Int64((value * scale).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let fraction = String(magnitude % UInt64(scale))
        return sign + String(magnitude / UInt64(scale)) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// Every cell's figures, in grid order (policy-major), as the record keeps them.
    public func cellsJSON(tracePaths: [String]) -> JSONValue {
        var cells: [JSONValue] = []
        for (p, policy) in policies.enumerated() {
            for (t, cell) in metrics[p].enumerated() {
                cells.append(["policy": .string(policy.name), "trace": .string(tracePaths[t]), "metrics": cell.json])
            }
        }
        return .array(cells)
    }

    public var frontJSON: JSONValue {
        .array(frontByUnheard.map { index in
            ["policy": .string(policies[index].name), "p95": .optional(totals[index].p95), "unheard": .number(Double(totals[index].unheard))]
        })
    }
}
