import NarratorExperiments
import NarratorModel

/// An experiment's cells as CSV for notebooks: one line per cell (policy × trace) with the policy's
/// every parameter and every figure, after a header line.
enum ExperimentCSV {
    static let parameters = ["dedup", "dedupWindow", "burst", "refill", "coalesce", "ttl", "queueLimit", "flushOnFocus"]

    static func text(_ results: ExperimentResults, experiment: String, tracePaths: [String]) -> String {
        let figureNames = results.totals.first?.figures.map(\.name) ?? []
        var lines = [(["experiment", "policy", "trace"] + parameters + figureNames + ["front"]).joined(separator: ",")]
        for (p, policy) in results.policies.enumerated() {
            let json = policy.json
            let parameterCells = parameters.map { key in json[key].map(cell) ?? "" }
            for (t, metrics) in results.metrics[p].enumerated() {
                let figures = metrics.figures.map { $0.value.map(JSONWriter.format) ?? "" }
                let fields = [experiment, policy.name, tracePaths[t]] + parameterCells + figures + [results.front.contains(p) ? "true" : "false"]
                lines.append(fields.map(quoted).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .number(let n): JSONWriter.format(n)
        default: value.compactText
        }
    }

    /// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
