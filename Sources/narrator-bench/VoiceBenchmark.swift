import Foundation
import NarratorSSIP
import NarratorSpeech
import NarratorSpeechPlan

/// What listing every voice with every variant costs, beside the list narratord gave before
/// (each voice alone, then the default voice with each variant: 232 lines on eSpeak NG 1.51),
/// measured in the same run on the voices and variants this machine's eSpeak NG installs:
///
/// - wording the whole `LIST SYNTHESIS_VOICES` reply (what narratord does per request);
/// - what start-up keeps: the catalog (made from the two lists when read) beside an eager
///   list of every entry, in time and in resident memory added.
enum VoiceBenchmark {
    static func run(repeats: Int) -> [BenchResult] {
        let catalog: VoiceCatalog
        let standard: String
        do {
            let engine = try EspeakEngine()
            catalog = VoiceCatalog(voices: engine.voices, variants: engine.variants)
            standard = (try? engine.resolve(.standard)) ?? "en"
        } catch {
            return [.skipped("voices", reason: "eSpeak NG did not start: \(error)")]
        }
        // The list before: every voice alone, then the standard voice with each variant.
        let before = catalog.filter { $0.variant == nil } + catalog.filter { $0.variant != nil && $0.voice.name == standard }
        var whole: [Double] = [], old: [Double] = []
        var bytes = 0
        for index in 0..<(repeats + 2) {
            let start = Clock.now()
            bytes = SSIPReply.synthesisVoices(in: catalog, language: nil, variant: nil).wire.utf8.count
            let middle = Clock.now()
            _ = SSIPReply.synthesisVoices(before.map(SSIPVoice.init)).wire.utf8.count
            let end = Clock.now()
            if index >= 2 {
                whole.append(middle - start)
                old.append(end - middle)
            }
        }

        let (lazyTime, lazyBytes) = kept { [VoiceCatalog(voices: catalog.voices, variants: catalog.variants)] }
        let (eagerTime, eagerBytes) = kept { catalog.map(SSIPVoice.init) }
        return [
            BenchResult(
                name: "voices.ssip.list", value: Stats.median(whole) * 1e3, unit: "ms", baseline: Stats.median(old) * 1e3,
                baselineName: "the list before (\(before.count) lines)",
                note: "wording LIST SYNTHESIS_VOICES' reply: \(catalog.count) lines, \(bytes / 1024) KiB (\(catalog.voices.count) voices x \(catalog.variants.count + 1)); "
                    + "p50 of \(repeats); the lines ratio is \(String(format: "%.1f", Double(catalog.count) / Double(before.count)))"),
            BenchResult(
                name: "voices.startup.rss", value: Double(lazyBytes), unit: "B", baseline: Double(eagerBytes),
                baselineName: "every entry kept as an SSIP line",
                note: String(format: "resident memory added by making the catalog (%.1f us) beside keeping all %d entries (%.1f ms): what start-up keeps", lazyTime * 1e6, catalog.count, eagerTime * 1e3)),
        ]
    }

    /// How long `make` takes, and the resident memory its result adds to this process.
    static func kept<T>(_ make: () -> [T]) -> (seconds: Double, bytes: Int) {
        // Reading /proc allocates too: once first, so that its own pages are counted before.
        _ = Memory.residentBytes()
        let before = Memory.residentBytes()
        let start = Clock.now()
        let made = make()
        let seconds = Clock.now() - start
        let after = Memory.residentBytes()
        withExtendedLifetime(made) {}
        return (seconds, Int(after) - Int(before))
    }
}
