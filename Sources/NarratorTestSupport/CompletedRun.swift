import Foundation

/// A program the tests ran to completion: its exit status and everything it printed.
public struct CompletedRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Standard output split into lines, without empty ones.
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Runs `executable` in the repository's root with `arguments`, feeding it `stdin` (or nothing),
    /// and waits for it. Both pipes are drained before the wait, so a large output cannot block
    /// the child. For short-lived programs only: Foundation's `Process` passes on the test
    /// process's signal mask, which a long-lived child must not inherit (use `ChildProcess`).
    public static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil
    ) throws -> CompletedRun {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        child.currentDirectoryURL = URL(fileURLWithPath: BuiltProducts.repository)
        if let environment { child.environment = environment }
        let out = Pipe(), err = Pipe(), input = Pipe()
        child.standardOutput = out
        child.standardError = err
        child.standardInput = input
        try child.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        child.waitUntilExit()
        return CompletedRun(
            status: child.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}
