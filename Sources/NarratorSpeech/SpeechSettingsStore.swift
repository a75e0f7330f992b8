import Glibc
import NarratorModel
import NarratorSpeechPlan
import NarratorSystem

/// Loads and saves ``SpeechSettings`` at a path the daemon chooses.
public struct SpeechSettingsStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The saved settings, or the defaults when the file does not exist yet.
    public func load() throws(SpeechSettingsError) -> SpeechSettings {
        let bytes: [UInt8]
        do {
            bytes = try Syscall.readFile(path)
        } catch where error.code == ENOENT {
            return SpeechSettings()
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        let json: JSONValue
        do { json = try JSONParser().parse(bytes) } catch { throw .unreadable(path: path, reason: "not JSON: \(error)") }
        do { return try SpeechSettings(json: json) } catch { throw .unreadable(path: path, reason: error.description) }
    }

    /// Writes the settings atomically (a crash never leaves half a file).
    public func save(_ settings: SpeechSettings) throws(SpeechSettingsError) {
        do {
            let directory = Syscall.parentDirectory(of: path)
            if !directory.isEmpty { try Syscall.makeDirectories(directory) }
            try Syscall.writeFileAtomically(path, Array((JSONWriter(indent: 2).string(settings.json) + "\n").utf8))
        } catch {
            throw .unwritable(path: path, reason: error.message)
        }
    }
}
