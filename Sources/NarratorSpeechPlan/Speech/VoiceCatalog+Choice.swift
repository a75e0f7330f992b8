import NarratorBase
import NarratorEngines

/// Naming a voice: what a `set voice`, `--voice` or SSIP `SET SELF SYNTHESIS_VOICE` name selects,
/// and the nearest name when it selects nothing.
extension VoiceCatalog {
    /// The choice `name` makes: a voice (by name or identifier, or a language one speaks, see
    /// ``InstalledVoice/choice(for:in:)``), optionally followed by "+variant" (by the variant's
    /// name or file name, in any case): "German+grandma", "gmw/de+m3", "de+Mr_Serious". Nil when
    /// the voice or the variant is unknown.
    public func choice(for name: String) -> VoiceChoice? {
        if let voice = InstalledVoice.choice(for: name, in: voices) { return voice }
        guard let plus = name.lastIndex(of: "+") else { return nil }
        let voiceName = String(name[..<plus])
        let variantName = String(name[name.index(after: plus)...])
        guard let voice = InstalledVoice.choice(for: voiceName, in: voices),
            let variant = VoiceVariant.find(variantName, in: variants)
        else { return nil }
        return voice.with(variant: variant.identifier)
    }

    /// The name nearest to `name`, which names nothing, when it is close enough to be a typo:
    /// "German" for "Germna"; for "voice+variant", each half mended on its own, so
    /// "German+grandmaa" gives "German+grandma" without comparing 13,000 names.
    public func suggestion(for name: String) -> String? {
        guard let plus = name.lastIndex(of: "+") else { return Suggestion.nearest(to: name, in: voiceWords) }
        let voiceName = String(name[..<plus])
        let variantName = String(name[name.index(after: plus)...])
        let voice = InstalledVoice.choice(for: voiceName, in: voices) != nil ? voiceName : Suggestion.nearest(to: voiceName, in: voiceWords)
        let variant = VoiceVariant.find(variantName, in: variants) != nil
            ? variantName : Suggestion.nearest(to: variantName, in: variants.map(\.name) + variants.map(\.identifier))
        guard let voice, let variant else { return nil }
        return voice + "+" + variant
    }

    /// What a voice may be named by: names, identifiers and languages.
    private var voiceWords: [String] {
        voices.map(\.name) + voices.map(\.identifier) + voices.flatMap(\.languages)
    }
}
