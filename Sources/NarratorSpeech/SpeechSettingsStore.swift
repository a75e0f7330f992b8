import Foundation
import NarratorCore

/// Loads and saves ``SpeechSettings`` at a path the daemon chooses.
public struct SpeechSettingsStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The saved settings, or the defaults when the file does not exist yet.
    public func load() throws(SpeechSettingsError) -> SpeechSettings {
        guard FileManager.default.fileExists(atPath: path) else { return SpeechSettings() }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try JSONDecoder().decode(SpeechSettings.self, from: data)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Writes the settings atomically (a crash never leaves half a file).
    public func save(_ settings: SpeechSettings) throws(SpeechSettingsError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try encoder.encode(settings).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .unwritable(path: path, reason: error.localizedDescription)
        }
    }
}
