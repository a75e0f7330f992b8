import Foundation

extension SpeechDispatcherBenchmark {
    /// `LIST SYNTHESIS_VOICES` (every voice with every variant, what Qt and spd-say -L ask for),
    /// from the command to the reply's last line, with the same client against both servers,
    /// alternating which goes first.
    static func voiceList(_ rig: Rig, runs: Int) throws -> [BenchResult] {
        try quiet(rig.recorder, before: "listing the voices")
        var narratord: [Double] = [], dispatcher: [Double] = []
        var lines = (narratord: 0, dispatcher: 0)
        for index in 0..<(runs + 1) {
            for first in [index % 2 == 0, index % 2 != 0] {
                if first {
                    let (count, sent, done) = try rig.narratorSSIP.list("LIST SYNTHESIS_VOICES")
                    lines.narratord = count
                    if index > 0 { narratord.append(done - sent) }
                } else {
                    let (count, sent, done) = try rig.spd.list("LIST SYNTHESIS_VOICES")
                    lines.dispatcher = count
                    if index > 0 { dispatcher.append(done - sent) }
                }
            }
        }
        return [
            BenchResult(
                name: "ssip.list_voices", value: Stats.median(narratord) * 1e3, unit: "ms", baseline: Stats.median(dispatcher) * 1e3, baselineName: spdName,
                note: "LIST SYNTHESIS_VOICES to its last line, p50 of \(runs) each, the same client; \(lines.narratord) lines from narratord, "
                    + "\(lines.dispatcher) from speech-dispatcher"),
        ]
    }
}
