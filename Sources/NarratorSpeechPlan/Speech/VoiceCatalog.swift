import NarratorEngines

/// Every voice narratord offers: each installed voice alone, then that voice with each of eSpeak
/// NG's variants ("German+grandma"), voice after voice: the order Speech Dispatcher's eSpeak NG
/// module lists them in.
///
/// eSpeak NG 1.51 installs 131 voices and 101 variants, so 131 × 102 = 13,362 entries. None is
/// stored: an entry is made from the two lists when it is read, so the daemon keeps the 232
/// values it read from the library at start-up, and a list costs only whoever reads it.
public struct VoiceCatalog: RandomAccessCollection, Sendable, Hashable {
    public var voices: [InstalledVoice]
    public var variants: [VoiceVariant]

    public init(voices: [InstalledVoice], variants: [VoiceVariant]) {
        self.voices = voices
        self.variants = variants
    }

    /// Entries per voice: the voice alone, then one per variant.
    var stride: Int { variants.count + 1 }

    public var startIndex: Int { 0 }
    public var endIndex: Int { voices.count * stride }

    public subscript(position: Int) -> VoiceEntry {
        let (voice, offset) = position.quotientAndRemainder(dividingBy: stride)
        return VoiceEntry(voice: voices[voice], variant: offset == 0 ? nil : variants[offset - 1])
    }
}

/// One entry of the ``VoiceCatalog``: a voice, alone or with a variant.
public struct VoiceEntry: Sendable, Hashable {
    public var voice: InstalledVoice
    public var variant: VoiceVariant?

    public init(voice: InstalledVoice, variant: VoiceVariant?) {
        self.voice = voice
        self.variant = variant
    }

    /// "German", or "German+grandma": what `set voice` and SSIP's `SET SELF SYNTHESIS_VOICE` take,
    /// spelt as Speech Dispatcher's eSpeak NG module lists it.
    public var name: String { variant.map { voice.name + "+" + $0.name } ?? voice.name }

    /// "gmw/de", or "gmw/de+grandma": the voice's file with the variant's, the form eSpeak NG
    /// loads (also accepted by `set voice`).
    public var identifier: String { variant.map { voice.identifier + "+" + $0.identifier } ?? voice.identifier }

    /// The variant's gender where it gives one (grandma is female whatever the voice), else the voice's.
    public var gender: InstalledVoice.Gender {
        guard let variant, variant.gender != .unspecified else { return voice.gender }
        return variant.gender
    }

    /// How the engine selects it.
    public var choice: VoiceChoice { VoiceChoice.named(voice.name).with(variant: variant?.identifier) }
}
