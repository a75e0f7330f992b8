import Foundation

extension ATSPIBenchmark {
    /// What one run of a Python helper of Tests/Helpers/atspi gave: its JSON object and its
    /// bytes (quoted when it measured too little), or the row skipped with why.
    enum HelperRun {
        case measured([String: Any], Data)
        case skipped(BenchResult)
    }

    /// The path of a helper of Tests/Helpers/atspi, found from this binary's place in .build.
    static func helperScript(_ file: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Helpers/atspi/" + file).path
    }

    /// Runs `script` with `arguments` and `--bin` set to this build's binaries, and reads the one
    /// JSON object it prints; a run that cannot start, prints none, or says `skip` is the row
    /// `name` skipped with the reason.
    static func runHelper(_ script: String, _ arguments: [String], name: String) -> HelperRun {
        let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--bin", binaries.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return .skipped(.skipped(name, reason: "cannot run \(script): \(error)")) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let called = ([URL(fileURLWithPath: script).lastPathComponent] + arguments).joined(separator: " ")
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .skipped(.skipped(name, reason: "\(called) exited \(process.terminationStatus) without a result"))
        }
        if let skip = json["skip"] as? String { return .skipped(.skipped(name, reason: skip)) }
        return .measured(json, data)
    }
}
