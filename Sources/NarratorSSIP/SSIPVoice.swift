import NarratorSpeechPlan

/// One line of `LIST SYNTHESIS_VOICES`: `name\tlanguage\tvariant` (variant `none` when there is none).
public struct SSIPVoice: Sendable, Hashable {
    public var name: String
    public var language: String
    public var variant: String

    public init(name: String, language: String, variant: String = "none") {
        self.name = name
        self.language = language
        self.variant = variant
    }

    /// The line Speech Dispatcher 0.11.4's eSpeak NG module gives for `entry`: its name, its
    /// voice's first language in that module's spelling, and the variant's name.
    public init(_ entry: VoiceEntry) {
        self.init(name: entry.name, language: Self.language(entry.voice.languages.first ?? ""), variant: entry.variant?.name ?? "none")
    }

    /// The data line of a 249 reply.
    public var ssipLine: String { "\(name)\t\(language)\t\(variant)" }

    /// A language as Speech Dispatcher's eSpeak NG module lists it: eSpeak NG's lower-case tag
    /// with everything from the first "-" in capitals ("en-gb-x-rp" becomes "en-GB-X-RP").
    /// Clients compare these with their locale (Qt with "de-DE", Orca with "en-US"), so they
    /// are spelt as Speech Dispatcher spells them.
    public static func language(_ tag: String) -> String {
        guard let dash = tag.firstIndex(of: "-") else { return tag }
        return String(tag[..<dash]) + tag[dash...].uppercased()
    }

    /// The lines of `LIST SYNTHESIS_VOICES [language [variant]]` for `catalog`, in its order. With
    /// a language, only voices whose listed language is it, or whose language part before the
    /// first "-" is it; with a variant too, only entries with that variant ("none": the voices
    /// alone); both in any case. Those are Speech Dispatcher 0.12's rules (0.11.4 ignores the
    /// arguments and lists everything).
    public static func lines(in catalog: VoiceCatalog, language wanted: String? = nil, variant wantedVariant: String? = nil) -> [String] {
        let wanted = wanted?.lowercased(), wantedVariant = wantedVariant?.lowercased()
        var lines: [String] = []
        lines.reserveCapacity(wanted == nil ? catalog.count : catalog.variants.count + 1)
        for voice in catalog.voices {
            let language = Self.language(voice.languages.first ?? "")
            if let wanted {
                let lowered = language.lowercased()
                let base = lowered.split(separator: "-", maxSplits: 1).first.map(String.init) ?? lowered
                guard lowered == wanted || base == wanted else { continue }
            }
            let suffix = "\t" + language + "\t"
            if wantedVariant == nil || wantedVariant == "none" { lines.append(voice.name + suffix + "none") }
            for variant in catalog.variants where wantedVariant == nil || variant.name.lowercased() == wantedVariant {
                lines.append(voice.name + "+" + variant.name + suffix + variant.name)
            }
        }
        return lines
    }
}
