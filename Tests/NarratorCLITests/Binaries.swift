import Foundation

/// Runs the built `narratorctl`/`narratord` binaries, found beside the test bundle
/// (or in `$NARRATOR_BIN_DIR`).
enum Binaries {
    static let directory: String = {
        if let dir = ProcessInfo.processInfo.environment["NARRATOR_BIN_DIR"] { return dir }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("narratorctl").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return ".build/debug"
    }()

    static let repository: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a binary to completion with optional standard input.
    static func run(_ name: String, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: directory + "/" + name)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: repository)
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Drain both pipes before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
