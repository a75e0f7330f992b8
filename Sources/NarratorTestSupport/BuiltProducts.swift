import Foundation

/// Where the tests find what they run: the built `narratord`/`narratorctl` (beside the test bundle,
/// or in `$NARRATOR_BIN_DIR`) and the repository's own files (examples, docs, units).
public enum BuiltProducts {
    /// The directory holding the built executables.
    public static let directory: String = {
        if let dir = ProcessInfo.processInfo.environment["NARRATOR_BIN_DIR"] { return dir }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            let here = url.path
            if ["narratord", "narratorctl"].allSatisfy({ FileManager.default.isExecutableFile(atPath: here + "/" + $0) }) { return here }
            url.deleteLastPathComponent()
        }
        return ".build/debug"
    }()

    /// The repository's root (this file is Sources/NarratorTestSupport/BuiltProducts.swift).
    public static let repository: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()
}
