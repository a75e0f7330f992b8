import CFlite
import NarratorEngines

/// The voices Debian's libflite1 compiles in, each registered by a function of its own library.
/// Registering only sets up tables already in the library, so listing the voices this way costs
/// no synthesis and no model loading.
enum FliteVoices {
    /// What is known of a voice before it is registered: its name on the protocol, its gender,
    /// and the call that registers it.
    struct Entry: Sendable {
        let name: String
        let gender: InstalledVoice.Gender
        let register: @Sendable () -> UnsafeMutablePointer<cst_voice>?
    }

    /// Every built-in voice, in the order they are listed (slt, Flite's best, first).
    static let entries: [Entry] = [
        Entry(name: "slt", gender: .female) { register_cmu_us_slt(nil) },
        Entry(name: "kal", gender: .male) { register_cmu_us_kal(nil) },
        Entry(name: "kal16", gender: .male) { register_cmu_us_kal16(nil) },
        Entry(name: "awb", gender: .male) { register_cmu_us_awb(nil) },
        Entry(name: "rms", gender: .male) { register_cmu_us_rms(nil) },
    ]

    /// Every voice's language: Flite's lexicon and text analysis are US English only.
    static let languages = ["en-us", "en"]

    /// Registers every voice that the libraries provide, after flite_init.
    static func registerAll() -> [FliteVoice] {
        _ = flite_init()
        return entries.compactMap { entry in entry.register().map { FliteVoice(entry: entry, voice: $0) } }
    }

    /// The listing `--list-voices` prints and the `R` frame carries.
    static func listing(_ voices: [FliteVoice]) -> EngineListing {
        EngineListing(
            engine: "flite", version: FLITE_PROJECT_VERSION,
            voices: voices.map { .init(name: $0.name, languages: languages, gender: $0.gender, sampleRate: $0.sampleRate) })
    }
}

/// One registered Flite voice and the defaults its own tables set (kal speaks 10% slower than
/// Flite's default, each clustergen voice has its own F0), which a job's prosody scales.
struct FliteVoice {
    let name: String
    let gender: InstalledVoice.Gender
    let voice: UnsafeMutablePointer<cst_voice>
    /// Samples per second of the voice's audio.
    let sampleRate: Int
    let defaultStretch: Float
    let defaultF0Mean: Float
    let defaultF0Deviation: Float

    init(entry: FliteVoices.Entry, voice: UnsafeMutablePointer<cst_voice>) {
        name = entry.name
        gender = entry.gender
        self.voice = voice
        let features = voice.pointee.features
        let clustergen = narrator_flite_cg_db(voice)?.pointee
        sampleRate = Int(flite_get_param_int(features, "sample_rate", clustergen?.sample_rate ?? 16000))
        defaultStretch = flite_get_param_float(features, "duration_stretch", 1)
        // Flite's own fallbacks: a clustergen voice's model statistics, else the US English F0 model's.
        defaultF0Mean = flite_get_param_float(features, "int_f0_target_mean", clustergen?.f0_mean ?? 100)
        defaultF0Deviation = flite_get_param_float(features, "int_f0_target_stddev", clustergen?.f0_stddev ?? 12)
    }
}
