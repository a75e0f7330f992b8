import Foundation
import NarratorTestSupport

/// Runs the built `narratorctl`/`narratord` binaries, found beside the test bundle
/// (or in `$NARRATOR_BIN_DIR`).
enum Binaries {
    static var directory: String { BuiltProducts.directory }
    static var repository: String { BuiltProducts.repository }

    typealias Result = CompletedRun

    /// Runs a binary to completion with optional standard input.
    static func run(_ name: String, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil) throws -> CompletedRun {
        try CompletedRun.run(directory + "/" + name, arguments, stdin: stdin, environment: environment)
    }
}
