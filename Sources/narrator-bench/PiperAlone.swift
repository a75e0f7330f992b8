import Foundation

/// Piper outside Narrator, the baseline of narratord's Piper onset: Tests/Helpers/engines/piper_alone.py
/// in the build's Piper environment (`make piper`) loads the same voice once with onnxruntime's
/// defaults, then times `synthesize` on the same text to its first audio chunk (its first sentence).
enum PiperAlone {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The repository this binary was built from, where the script and the environment are.
    static var repository: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    static var python: String { repository + "/.build/piper-venv/bin/python3" }
    static var script: String { repository + "/Tests/Helpers/engines/piper_alone.py" }

    /// Why it cannot run here; nil when it can.
    static var missing: String? {
        if !FileManager.default.isExecutableFile(atPath: python) { return "\(python) is missing (make piper)" }
        if !FileManager.default.fileExists(atPath: script) { return "\(script) is missing (run from the repository's build)" }
        return nil
    }

    /// Seconds from `synthesize` to the first audible sample of its audio (the first chunk's time
    /// plus where that sample lies in it: the point narratord's onset is measured to at the sink),
    /// one per run, after the voice was loaded.
    static func firstAudio(text: String, runs: Int) throws -> [Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "--text", text, "--runs", String(runs)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let seconds = object["firstAudibleSeconds"] as? [Double], seconds.count == runs
        else {
            throw Failure(description: "piper_alone.py exited \(process.terminationStatus) with \(String(decoding: data, as: UTF8.self).prefix(500))")
        }
        return seconds
    }
}
