import Glibc
import NarratorEngines
import NarratorSpeech
import NarratorSystem
import Synchronization

/// Which engine processes narratord offers beside eSpeak NG (`--engines`), and finding them.
///
/// Each one found is asked `--list-voices` once at start-up, all at the same time and while
/// eSpeak NG initializes, so that its voices are known (to `narratorctl voices`, SSIP's
/// `LIST OUTPUT_MODULES`) without the engine itself being started: that waits for its first job.
public enum EngineSelection: Equatable, Sendable {
    /// ``EngineDiscovery/knownExecutables`` in narratord's own directory, those that are there.
    case auto
    /// eSpeak NG alone.
    case none
    /// These executables, each of which must exist.
    case paths([String])

    /// Parses `auto`, `none`, or a comma-separated list of executables.
    public init(parsing text: String) throws(EngineSelectionError) {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        default:
            let paths = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !paths.contains(where: \.isEmpty) else { throw .emptyPath(text) }
            self = .paths(paths)
        }
    }
}

public enum EngineSelectionError: Error, Equatable, Sendable {
    case emptyPath(String)
}

/// Finds the engine executables a selection names and reads their listings.
enum EngineDiscovery {
    /// The engines `auto` looks for, with the hang bound each is given (docs/engine-protocol.md):
    /// longer than it needs to synthesize a sentence on a loaded machine.
    static let knownExecutables: [(name: String, hangBound: Duration)] = [
        ("narrator-flite", .seconds(1)),
        ("narrator-piper", .seconds(2)),
    ]

    /// The hang bound of an engine found at `executable`: its known one, else 2 s.
    static func hangBound(of executable: String) -> Duration {
        let file = executable.split(separator: "/").last.map(String.init) ?? executable
        return knownExecutables.first { $0.name == file }?.hangBound ?? .seconds(2)
    }

    /// A failure to use what `--engines` names: not fatal to speech, but named so it can be fixed.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The executables to list: for `auto`, those of ``knownExecutables`` beside `ownExecutable`
    /// that can be run; for paths, each one, which must be executable.
    static func executables(_ selection: EngineSelection, ownExecutable: String?) throws(Problem) -> [String] {
        switch selection {
        case .none:
            return []
        case .auto:
            guard let own = ownExecutable, let slash = own.lastIndex(of: "/") else { return [] }
            let directory = String(own[..<slash])
            return knownExecutables.map { directory + "/" + $0.name }.filter { Syscall.isAccessible($0, X_OK) }
        case .paths(let paths):
            for path in paths {
                guard let status = try? Syscall.stat(path) else { throw Problem(description: "--engines: \(path) does not exist") }
                if status.isDirectory { throw Problem(description: "--engines: \(path) is a directory, not an engine's executable") }
                if !Syscall.isAccessible(path, X_OK) { throw Problem(description: "--engines: \(path) is not executable") }
            }
            return paths
        }
    }

    /// One engine's listing, or why it is left out.
    typealias Found = (executable: String, result: Result<EngineListing, EngineListVoicesError>)

    /// Runs every executable's `--list-voices` at once, each on a thread of its own; `join` waits
    /// for them all (each is bounded by its timeout) and returns their results in order.
    static func startListing(_ executables: [String], timeout: Duration = .seconds(5)) -> @Sendable () -> [Found] {
        let results = FoundListings()
        let threads = executables.enumerated().map { index, executable in
            JoinableThread {
                let result = Result { () throws(EngineListVoicesError) in try EngineProcess.listVoices(executable: executable, timeout: timeout) }
                results.found.withLock { $0[index] = (executable, result) }
            }
        }
        return {
            for thread in threads { thread.join() }
            return results.found.withLock { found in executables.indices.compactMap { found[$0] } }
        }
    }

    /// The listings to use: failures, an engine named like eSpeak NG and a second engine of a
    /// name already found are left out, each with a warning for the journal.
    static func accepted(_ found: [Found]) -> (listings: [(executable: String, listing: EngineListing)], warnings: [String]) {
        var listings: [(executable: String, listing: EngineListing)] = []
        var warnings: [String] = []
        for (executable, result) in found {
            switch result {
            case .failure(let error):
                warnings.append("engine \(executable) left out, speech goes on without it: \(error)")
            case .success(let listing) where EngineName(listing.engine) == .espeak:
                warnings.append("engine \(executable) left out: it calls itself \(SpeechEngines.espeak), which is narratord's own")
            case .success(let listing):
                if let first = listings.first(where: { $0.listing.engine == listing.engine }) {
                    warnings.append("engine \(executable) left out: \(first.executable) is already engine \(listing.engine)")
                } else {
                    listings.append((executable, listing))
                }
            }
        }
        return (listings, warnings)
    }
}

/// The listings as their threads finish, by the executable's place in the list.
private final class FoundListings: Sendable {
    let found = Mutex<[Int: EngineDiscovery.Found]>([:])
}
