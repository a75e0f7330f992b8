import Foundation
import NarratorCore
import NarratorSpeech

/// How long eSpeak NG takes to say each text at one voice and rate: synthesized once, then kept
/// in a small JSON cache so replays of the same traces do not synthesize again.
final class SpeechDurations {
    let cachePath: String
    let voice: VoiceChoice
    let rate: Int
    private var seconds: [String: Double] = [:]
    private var changed = false

    init(cacheDirectory: String, voice: String?, rate: Int) {
        cachePath = cacheDirectory + "/espeak-durations.json"
        self.voice = voice.map(VoiceChoice.named) ?? .standard
        self.rate = rate
        if let data = FileManager.default.contents(atPath: cachePath), let json = try? JSONParser().parse([UInt8](data)), let object = json.objectValue {
            for member in object.members { if let n = member.value.numberValue { seconds[member.key] = n } }
        }
    }

    private func key(_ text: String) -> String {
        let voiceName: String
        switch voice {
        case .named(let name): voiceName = name
        case .language(let tag): voiceName = "lang:" + tag
        case .standard: voiceName = "default"
        case .withVariant: voiceName = "\(voice)"
        }
        // An SSML message is timed as SSML (its markup unsaid); its key says so.
        return "\(voiceName)|\(rate)|\(SSMLText.isSSML(text) ? "ssml|" : "")\(text)"
    }

    /// Synthesizes every text not in the cache yet (one engine, started only if needed).
    func prepare(_ texts: Set<String>) throws(EspeakError) {
        let missing = texts.filter { seconds[key($0)] == nil }.sorted()
        guard !missing.isEmpty else { return }
        let engine = try EspeakEngine()
        for text in missing {
            let samples = try engine.synthesize(text, ssml: SSMLText.isSSML(text), voice: voice, parameters: VoiceParameters(rate: rate))
            seconds[key(text)] = Double(samples.count) / Double(engine.sampleRate)
            changed = true
        }
    }

    /// The length of a prepared text.
    func duration(_ text: String) -> Duration {
        .nanoseconds(Int64(((seconds[key(text)] ?? 0) * 1e9).rounded()))
    }

    /// Writes the cache back if anything was synthesized (a failure only costs time next run).
    func save() {
        guard changed else { return }
        let object = JSONObject(seconds.keys.sorted().map { JSONObject.Member(key: $0, value: .number(seconds[$0]!)) })
        try? FileManager.default.createDirectory(atPath: (cachePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? Data(JSONValue.object(object).compactText.utf8).write(to: URL(fileURLWithPath: cachePath))
    }
}

extension SpeechDurations {
    /// The prepared lengths of `texts` as an immutable value, for replays that run in parallel.
    func lengths(_ texts: Set<String>) -> SpeechLengths {
        SpeechLengths(Dictionary(uniqueKeysWithValues: texts.map { ($0, duration($0)) }))
    }
}
