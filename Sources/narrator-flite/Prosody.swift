import Glibc
import NarratorEngines

/// A job's rate, pitch and volume as the factors applied to a Flite voice's own defaults.
struct Prosody: Equatable {
    /// Words per minute, clamped to the protocol's `VoiceParameters.rates` (175 is the voice's own speed).
    let rate: Int
    /// Within `VoiceParameters.pitches`, 50 the voice's own pitch.
    let pitch: Int
    /// Within `VoiceParameters.volumes`, 100 the voice's own level.
    let volume: Int

    init(rate: Int, pitch: Int, volume: Int) {
        self.rate = VoiceParameters.rates.clamp(rate)
        self.pitch = VoiceParameters.pitches.clamp(pitch)
        self.volume = VoiceParameters.volumes.clamp(volume)
    }

    /// Multiplies the voice's `duration_stretch`: twice the words per minute, half the duration.
    var durationFactor: Float { 175 / Float(rate) }

    /// Multiplies the voice's F0 mean and spread: half an octave down at 0, up at 100, so the
    /// intonation keeps its shape on a musical scale.
    var pitchFactor: Float { exp2f(Float(pitch - 50) / 100) }

    /// Multiplies the samples (clipped to 16 bits): 0 is silence, 200 twice the amplitude.
    var gain: Float { Float(volume) / 100 }
}
