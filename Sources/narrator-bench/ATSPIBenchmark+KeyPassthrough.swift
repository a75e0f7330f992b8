import Foundation

extension ATSPIBenchmark {
    /// What Narrator costs the keys it does not take. narrator-atspi takes its keys by X grabs and
    /// sees the rest as raw events, so no key waits for it; but once any AT-SPI client reads a
    /// GTK 3 application, the application's atk-bridge asks the registry about every key
    /// (`NotifyListenersSync`) before handling it, whoever listens. Tests/Helpers/atspi/key_passthrough.py
    /// types plain letters into a focused GTK 3 text field (not a web page, so Narrator takes none)
    /// on a desktop of its own, key press (XTEST) to the entry's key-press-event, with Narrator
    /// running beside the same presses without it, in alternating phases of the same run; and
    /// beside a bare libatspi keystroke listener that takes no key: what any screen reader
    /// reading the application through AT-SPI costs, whatever it decides.
    /// Both toolkits: GTK 3 (`atspi.key.passthrough`), which asks the registry about every key,
    /// and GTK 4 (`atspi.key.passthrough.gtk4`), which never does, so that only Narrator's own
    /// cost is between its two phases.
    static func keyPassthrough(presses: Int) -> [BenchResult] {
        keyPassthrough(presses: presses, toolkit: "gtk3") + keyPassthrough(presses: presses, toolkit: "gtk4")
    }

    static func keyPassthrough(presses: Int, toolkit: String) -> [BenchResult] {
        let name = toolkit == "gtk4" ? "atspi.key.passthrough.gtk4" : "atspi.key.passthrough"
        let toolkitName = toolkit == "gtk4" ? "GTK 4" : "GTK 3"
        let script = helperScript("key_passthrough.py")
        guard FileManager.default.fileExists(atPath: script) else {
            return [.skipped(name, reason: "\(script) is missing (run from the repository's .build)")]
        }
        let json: [String: Any], data: Data
        switch runHelper(script, ["--presses", String(presses), "--toolkit", toolkit], name: name) {
        case .skipped(let skipped): return [skipped]
        case .measured(let result, let bytes): (json, data) = (result, bytes)
        }
        func figure(_ key: String, _ stat: String) -> Double? { (json[key] as? [String: Any])?[stat] as? Double }
        func count(_ key: String) -> Int { (json[key] as? [String: Any])?["n"] as? Int ?? 0 }
        // Every letter must have reached the entry with Narrator running, or the figure is of keys lost.
        let reached = (json["reached"] as? [String: Any])?["with"] as? [String: Any]
        let pressed = reached?["pressed"] as? Int ?? -1
        guard let with = figure("with_ms", "p50"), let without = figure("without_ms", "p50"), json["error"] == nil,
            pressed > 0, reached?["handled"] as? Int == pressed, reached?["text_grew"] as? Int == pressed
        else {
            return [.skipped(name, reason: "key_passthrough.py measured too little: \(String(data: data, encoding: .utf8)?.prefix(300) ?? "")")]
        }
        var results = [
            BenchResult(
                name: name, value: with, unit: "ms", baseline: without,
                baselineName: "the same letters without Narrator (only the desktop's registry), alternating phases of the same run",
                note: String(
                    format: "key press (XTEST) to the %@ entry's key handler for plain letters Narrator does not take, p50 of %d and %d; all %d letters pressed with Narrator reached the entry; p95 %.2f ms against %.2f; target: at most 1.1x",
                    toolkitName, count("with_ms"), count("without_ms"), pressed, figure("with_ms", "p95") ?? 0, figure("without_ms", "p95") ?? 0)),
        ]
        if let bare = figure("bare_ms", "p50") {
            results.append(
                BenchResult(
                    name: name + ".listener", value: with, unit: "ms", baseline: bare,
                    baselineName: "a bare libatspi keystroke listener (Python) answering at once that it takes no key, in the same run",
                    note: String(
                        format: "the same presses: narrator-atspi's own share, the AT-SPI round trips GTK 3 makes for every key once any client reads it being in both; p50 of %d and %d, p95 %.2f ms against %.2f",
                        count("with_ms"), count("bare_ms"), figure("with_ms", "p95") ?? 0, figure("bare_ms", "p95") ?? 0)))
        }
        return results
    }
}
