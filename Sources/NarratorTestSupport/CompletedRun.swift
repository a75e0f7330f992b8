import Foundation
import Synchronization

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
    ///
    /// - Parameter timeout: a watchdog for a program that should exit by itself (a daemon given
    ///   options it must refuse): past it the child is killed (SIGKILL), so a regression fails the
    ///   test instead of hanging the run.
    public static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil, timeout: Duration? = nil
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
        let finished = Atomic<Bool>(false)
        if let timeout {
            let pid = child.processIdentifier
            let nanoseconds = Int(clamping: timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                if !finished.load(ordering: .acquiring) { kill(pid, SIGKILL) }
            }
        }
        defer { finished.store(true, ordering: .releasing) }
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
