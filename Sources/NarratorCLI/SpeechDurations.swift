import Foundation
import NarratorEngines
import NarratorExperiments
import NarratorModel
import NarratorSpeech
import NarratorSpeechPlan
import NarratorSystem

/// How long each text takes to say at one voice and rate: synthesized once, then kept in a small
/// JSON cache so replays of the same traces do not synthesize again. The voice is eSpeak NG's, or
/// `ENGINE/VOICE` for an engine process found beside narratorctl as narratord finds it
/// (`flite/slt`, `piper/joe`): engines speak at different speeds, so replays differ by engine.
final class SpeechDurations {
    let cachePath: String
    let voice: VoiceChoice
    /// The engine process named by the voice, nil for eSpeak NG.
    let engine: String?
    let rate: Int
    /// Where `narrator-ENGINE` is looked for: narratorctl's own directory.
    let engineDirectory: String?
    private var seconds: [String: Double] = [:]
    private var changed = false

    init(cacheDirectory: String, voice: String?, rate: Int, engineDirectory: String? = SpeechDurations.ownDirectory()) {
        cachePath = cacheDirectory + "/espeak-durations.json"
        self.engineDirectory = engineDirectory
        if let (engine, name) = Self.engineVoice(voice, directory: engineDirectory) {
            self.engine = engine
            self.voice = .named(name)
        } else {
            self.engine = nil
            let name = voice.map { $0.hasPrefix(SpeechEngines.espeak.rawValue + "/") ? String($0.dropFirst(SpeechEngines.espeak.rawValue.count + 1)) : $0 }
            self.voice = name.map(VoiceChoice.named) ?? .standard
        }
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
        return "\(engine.map { $0 + "/" } ?? "")\(voiceName)|\(rate)|\(SSMLText.isSSML(text) ? "ssml|" : "")\(text)"
    }

    /// Synthesizes every text not in the cache yet (one engine, started only if needed).
    func prepare(_ texts: Set<String>) throws(SpeechDurationsError) {
        let missing = texts.filter { seconds[key($0)] == nil }.sorted()
        guard !missing.isEmpty else { return }
        let synthesizer = try makeSynthesizer()
        for text in missing {
            do {
                seconds[key(text)] = try synthesizer.length(
                    of: text, ssml: SSMLText.isSSML(text), voice: voice, parameters: VoiceParameters(rate: rate))
            } catch {
                throw .synthesis(engine: synthesizer.engineName.rawValue, error)
            }
            changed = true
        }
    }

    /// eSpeak NG, or the engine process the voice names, listed and checked for the voice.
    private func makeSynthesizer() throws(SpeechDurationsError) -> any Synthesizer {
        guard let engine, let engineDirectory else {
            do { return try EspeakEngine() } catch { throw .espeak(error) }
        }
        let executable = engineDirectory + "/narrator-" + engine
        let listing: EngineListing
        do { listing = try EngineProcess.listVoices(executable: executable) } catch { throw .engine(engine, "\(error)") }
        guard case .named(let name) = voice else { throw .unknownVoice(engine: engine, voice: "\(voice)", installed: listing.voices.map(\.name)) }
        guard listing.voices.contains(where: { $0.name == name }) else {
            throw .unknownVoice(engine: engine, voice: name, installed: listing.voices.map(\.name))
        }
        do {
            return try EngineProcess(executable: executable, listing: listing, hangBound: .seconds(10), startBound: .seconds(30))
        } catch {
            throw .engine(engine, "\(error)")
        }
    }

    /// The engine process and voice `ENGINE/VOICE` names, when `narrator-ENGINE` is in `directory`
    /// (eSpeak NG's own identifiers, such as `gmw/en`, have slashes too).
    static func engineVoice(_ voice: String?, directory: String?) -> (engine: String, voice: String)? {
        guard let voice, let slash = voice.firstIndex(of: "/"), let directory else { return nil }
        let engine = String(voice[..<slash])
        guard engine != SpeechEngines.espeak.rawValue, FileManager.default.isExecutableFile(atPath: directory + "/narrator-" + engine) else { return nil }
        return (engine, String(voice[voice.index(after: slash)...]))
    }

    /// What times the utterances, as an experiment records it: "eSpeak NG 1.51", "flite 2.2".
    static func synthesizer(voice: String?, directory: String? = ownDirectory()) -> String {
        guard let (engine, _) = engineVoice(voice, directory: directory), let directory else { return "eSpeak NG \(EspeakEngine.version)" }
        let version = (try? EngineProcess.listVoices(executable: directory + "/narrator-" + engine))?.version
        return version.map { "\(engine) \($0)" } ?? engine
    }

    /// The directory narratorctl runs from (where `make install` puts the engines too).
    static func ownDirectory() -> String? {
        guard let path = try? Syscall.readLink("/proc/self/exe") else { return nil }
        return (path as NSString).deletingLastPathComponent
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
        try? Data(JSONValue.object(object).compactText.utf8).write(to: URL(fileURLWithPath: cachePath), options: .atomic)
    }
}

extension SpeechDurations {
    /// The prepared lengths of `texts` as an immutable value, for replays that run in parallel.
    func lengths(_ texts: Set<String>) -> SpeechLengths {
        SpeechLengths(Dictionary(uniqueKeysWithValues: texts.map { ($0, duration($0)) }))
    }
}

/// Why the utterances' lengths could not be measured, naming the engine.
enum SpeechDurationsError: Error, CustomStringConvertible {
    case espeak(EspeakError)
    case engine(String, String)
    case unknownVoice(engine: String, voice: String, installed: [String])
    case synthesis(engine: String, SynthesisLengthError)

    var description: String {
        switch self {
        case .espeak(let error): "eSpeak NG: \(error)"
        case .engine(let engine, let problem): "engine \(engine): \(problem)"
        case .unknownVoice(let engine, let voice, let installed):
            "engine \(engine) has no voice \"\(voice)\" (it has \(installed.joined(separator: ", ")))"
        case .synthesis(let engine, let error): "\(engine): \(error)"
        }
    }
}
