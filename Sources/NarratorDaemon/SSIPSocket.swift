import NarratorCore
import NarratorSystem

/// Where narratord serves Speech Dispatcher's protocol (`--ssip`), and how systemd names that
/// socket when it passes it (`FileDescriptorName=ssip` in narratord-ssip.socket).
enum SSIPSocket {
    static let descriptorName = "ssip"

    /// The path `--ssip` names: nil for off; for auto, where Speech Dispatcher's clients look
    /// without `SPEECHD_ADDRESS`.
    static func path(_ listening: DaemonOptions.SSIPListening, environment: [String: String]) throws -> SocketPath? {
        switch listening {
        case .off:
            return nil
        case .path(let path):
            return SocketPath(path: path, origin: .flag)
        case .auto:
            guard let path = SocketPath.speechDispatcher(environment: environment) else {
                throw DaemonMain.StartError(description: "--ssip auto: neither XDG_RUNTIME_DIR nor HOME is set, so there is no place Speech Dispatcher's clients look; give --ssip PATH")
            }
            return path
        }
    }

    /// What `LIST SYNTHESIS_VOICES` lists: every voice (variant "none"), then the standard
    /// voice with each variant ("voice+variant" is what `SET SELF SYNTHESIS_VOICE` takes). Every
    /// voice with every variant would be over ten thousand lines for a client to read at start-up.
    static func voiceList(voices: [InstalledVoice], variants: [VoiceVariant], standard: String) -> [SSIPVoice] {
        let all = SynthesisVoice.list(voices: voices, variants: variants, includingVariants: true)
        return all.filter { $0.variant == nil || $0.name.hasPrefix(standard + "+") }.map { voice in
            SSIPVoice(name: voice.name, language: voice.language, variant: voice.variant ?? "none")
        }
    }
}
