/// One job for an engine process, as its supervisor queues and writes it: the number the wire
/// names it by (never 0, which frames about no job carry), the plain text, the engine's voice
/// name and the prosody the protocol carries.
public struct EngineJob: Sendable, Hashable {
    public var id: UInt32
    public var text: String
    public var voice: String
    public var parameters: VoiceParameters

    public init(id: UInt32, text: String, voice: String, parameters: VoiceParameters = VoiceParameters()) {
        self.id = id
        self.text = text
        self.voice = voice
        self.parameters = parameters
    }

    /// The `speak` request, its prosody clamped to the protocol's ranges (``VoiceParameters/rates``,
    /// ``VoiceParameters/pitches``, ``VoiceParameters/volumes``), so an engine is never handed a
    /// value it may refuse.
    public var request: EngineRequest {
        .speak(
            job: id, text: text, voice: voice,
            rate: VoiceParameters.rates.clamp(parameters.rate),
            pitch: VoiceParameters.pitches.clamp(parameters.pitch),
            volume: VoiceParameters.volumes.clamp(parameters.volume))
    }

    /// The text from UTF-8 byte `offset` on (an `S` frame's offset): what the listener has not
    /// heard yet when the engine fails in that sentence. An offset inside a character starts at
    /// the next one; one past the end gives "".
    public func remainder(from offset: Int) -> String {
        let bytes = text.utf8
        var index = bytes.index(bytes.startIndex, offsetBy: min(max(offset, 0), bytes.count))
        while index < bytes.endIndex, UTF8.isContinuation(bytes[index]) { index = bytes.index(after: index) }
        return String(text.unicodeScalars[index...])
    }
}
