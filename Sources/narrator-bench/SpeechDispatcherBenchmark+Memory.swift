import Foundation
import NarratorSystem

/// What each speech server keeps resident once it has spoken and gone idle: narratord against
/// speech-dispatcher together with its eSpeak NG module (sd_espeak-ng, a process of its own
/// that synthesizes and plays), both fresh, each having said the same one message through SSIP
/// into the same sound server.
extension SpeechDispatcherBenchmark {
    /// How long both sit idle after their message before they are measured: long enough for a
    /// server's threads to finish what the message started (narratord's log commit, the module's
    /// stream drain).
    static let memorySettleSeconds = 2.0

    /// The resident set of a process, from /proc/PID/status (read whole with read(2)).
    struct Resident {
        var total = 0
        var anonymous = 0
        var file = 0

        init(pid: Int32) {
            let status = (try? Syscall.readFile("/proc/\(pid)/status")).map { String(decoding: $0, as: UTF8.self) } ?? ""
            func kilobytes(_ field: String) -> Int {
                guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return 0 }
                return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
            }
            total = kilobytes("VmRSS:") * 1024
            anonymous = kilobytes("RssAnon:") * 1024
            file = kilobytes("RssFile:") * 1024
        }

        init() {}

        static func + (a: Resident, b: Resident) -> Resident {
            var sum = Resident()
            sum.total = a.total + b.total
            sum.anonymous = a.anonymous + b.anonymous
            sum.file = a.file + b.file
            return sum
        }

        var summary: String {
            String(format: "%.1f MiB anonymous + %.1f MiB file", Double(anonymous) / 1_048_576, Double(file) / 1_048_576)
        }
    }

    /// One message through each server (the first either says), each waited for to its 702 END,
    /// then both measured after `memorySettleSeconds` of quiet. Run first, on fresh servers.
    static func idleMemory(_ rig: Rig) throws -> [BenchResult] {
        for ssip in [rig.spd, rig.narratorSSIP] {
            try quiet(rig.recorder, before: "\(ssip.server)'s one message")
            let spoken = try ssip.speak(text)
            _ = try ssip.waitForEvent(702, message: spoken.message)
        }
        try quiet(rig.recorder, before: "measuring memory")
        Thread.sleep(forTimeInterval: memorySettleSeconds)
        let narratord = Resident(pid: rig.narrator.pid)
        let modules = rig.dispatcher.modules
        guard !modules.isEmpty else { throw Failure(description: "speech-dispatcher has no output module process to measure") }
        let server = Resident(pid: rig.dispatcher.pid)
        let module = modules.map { Resident(pid: $0) }.reduce(Resident(), +)
        let dispatcher = server + module
        let mib = 1_048_576.0
        return [
            BenchResult(
                name: "spd.idle.rss", value: Double(narratord.total) / mib, unit: "MiB", baseline: Double(dispatcher.total) / mib,
                baselineName: spdName + ", both processes",
                note: "VmRSS after one SSIP message (\"\(text)\") each, heard to 702 END, then \(Int(memorySettleSeconds)) s idle; same private PulseAudio sink; "
                    + "narratord \(narratord.summary); speech-dispatcher " + String(format: "%.1f", Double(server.total) / mib) + " MiB + sd_espeak-ng "
                    + String(format: "%.1f", Double(module.total) / mib) + " MiB (\(dispatcher.summary)); target ratio <= 1"),
        ]
    }
}
