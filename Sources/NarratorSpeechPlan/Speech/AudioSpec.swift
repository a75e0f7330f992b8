/// The `--audio` choice.
public enum AudioSpec: Sendable, Hashable, CustomStringConvertible {
    /// The sound server when one is reachable, otherwise `null`.
    case auto
    /// The platform device through pcaudiolib (PulseAudio, PipeWire's pulse server, ALSA).
    case pulse
    /// Discard samples, keep real time.
    case null
    /// Each utterance as a WAV file in this directory.
    case wav(directory: String)

    /// Parses `auto`, `pulse`, `null` or `wav:DIR`.
    public static func parse(_ text: String) throws(AudioSpecError) -> AudioSpec {
        switch text {
        case "auto": return .auto
        case "pulse": return .pulse
        case "null": return .null
        case "": throw .empty
        default:
            guard text.hasPrefix("wav:") else { throw .unknown(text) }
            let directory = String(text.dropFirst(4))
            guard !directory.isEmpty else { throw .missingDirectory }
            return .wav(directory: directory)
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .pulse: "pulse"
        case .null: "null"
        case .wav(let directory): "wav:\(directory)"
        }
    }
}

/// Why an `--audio` value was rejected.
public enum AudioSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case unknown(String)
    case missingDirectory

    public var description: String {
        let forms = "expected auto, pulse, null or wav:DIR"
        switch self {
        case .empty: return "--audio needs a value: \(forms)"
        case .unknown(let text): return "unknown audio output '\(text)': \(forms)"
        case .missingDirectory: return "wav: needs a directory, e.g. wav:/tmp/narrator-speech"
        }
    }
}
