import NarratorEngines
import NarratorSpeechPlan

/// How an SSIP client's settings become what eSpeak NG is told: SSIP's -100...100 scales are
/// centred on the user's own settings, so a client at 0 speaks as the user chose and
/// Speech Dispatcher's extremes reach eSpeak NG's.
extension SSIPSettings {
    /// The language a message is read in: nil for `C` (the POSIX locale spd-say sends), which
    /// leaves the choice to the user's voice.
    public var speechLanguage: String? {
        let tag = language.split(separator: " ").first.map(String.init) ?? ""
        guard !tag.isEmpty, tag.uppercased() != "C", tag.uppercased() != "POSIX" else { return nil }
        return tag
    }

    /// The play request in this client's voice and prosody on top of `user`, what the user's
    /// settings would play.
    public func playRequest(on user: PlayRequest, catalog: VoiceCatalog, ssml: Bool) -> PlayRequest {
        let variants = catalog.variants
        var play = user
        play.ssml = ssml
        if let name = synthesisVoice, let choice = catalog.choice(for: name) {
            play.voice = choice
        } else if voiceType != .male1, let variant = VoiceVariant.forVoiceType(voiceType.rawValue, in: variants) {
            // MALE1, the default, is the voice as it is; the others are eSpeak NG's variants.
            play.voice = play.voice.with(variant: variant.identifier)
        }
        var parameters = play.parameters
        parameters.rate = Self.scale(rate, around: parameters.rate, in: VoiceParameters.rates)
        parameters.pitch = Self.scale(pitch, around: parameters.pitch, in: VoiceParameters.pitches)
        // SSIP's full volume (100, Speech Dispatcher's default) is the user's volume; -100 is silence.
        parameters.volume = Int((Double(parameters.volume) * Double(volume + 100) / 200).rounded())
        parameters.pitchRange = Self.scale(pitchRange, around: parameters.pitchRange, in: VoiceParameters.pitches)
        switch punctuation {
        case .none: parameters.punctuation = .none
        case .some: parameters.punctuation = .some
        case .most: parameters.punctuation = .most
        case .all: parameters.punctuation = .all
        }
        switch capitalLetters {
        case .none: break
        case .spell: parameters.capitals = .spell
        case .icon: parameters.capitals = .icon
        }
        play.parameters = parameters
        return play
    }

    /// Maps `value` in -100...100 onto `range`, with 0 at `centre`.
    static func scale(_ value: Int, around centre: Int, in range: ClosedRange<Int>) -> Int {
        let value = min(100, max(-100, value))
        let span = value >= 0 ? range.upperBound - centre : centre - range.lowerBound
        return min(range.upperBound, max(range.lowerBound, centre + span * value / 100))
    }
}
