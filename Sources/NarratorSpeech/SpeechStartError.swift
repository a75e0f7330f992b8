import NarratorSpeechPlan

/// Why speech could not start: the engine, the output, or the settings file.
public enum SpeechStartError: Error, Sendable, CustomStringConvertible {
    case engine(EspeakError)
    case output(AudioOutputError)
    case settings(SpeechSettingsError)

    public var description: String {
        switch self {
        case .engine(let error): "\(error)"
        case .output(let error): "\(error)"
        case .settings(let error): "\(error)"
        }
    }
}
