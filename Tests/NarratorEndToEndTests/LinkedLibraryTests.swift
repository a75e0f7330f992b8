import Foundation
import NarratorModel
import NarratorSystem
import Testing

/// A desktop keeps narratord resident all day: Foundation, FoundationInternationalization and
/// the ICU data library they bring (lib_FoundationICU.so, 40 MB on disk) cost it several MB of
/// resident memory, and the daemon needs none of them. Read from the running process's
/// /proc/PID/maps, after it has spoken, saved a setting and written its log, so a library loaded
/// late (by dlopen, or a dependency's dependency) is caught as well as one linked at build time.
@Suite struct LinkedLibraryTests {
    static let unwanted = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]

    /// The files mapped into a process, from /proc/PID/maps.
    static func mappedFiles(of pid: Int32) throws -> Set<String> {
        // Read to its end with read(2): String(contentsOfFile:) returns only part of a /proc file.
        let maps = String(decoding: try Syscall.readFile("/proc/\(pid)/maps"), as: UTF8.self)
        // "address perms offset dev inode path": only the path has a slash.
        return Set(maps.split(separator: "\n").compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } })
    }

    @Test("a running daemon that has spoken maps none of Foundation, FoundationInternationalization and ICU")
    func noFoundationMapped() throws {
        let daemon = try DaemonHarness()
        defer { _ = daemon.stop() }
        let monitor = try SpeechMonitor(daemon)
        let client = try daemon.client()
        #expect(try client.request(["cmd": "set", "key": "rate", "value": 200])["ok"] == true)
        let saved = try JSONParser().parse(try String(contentsOfFile: daemon.directory + "/state/settings.json", encoding: .utf8))
        #expect(saved["rate"] == 200, "\(saved.compactText)")
        let reply = try client.request(["cmd": "speak", "text": "One utterance, heard to its end."])
        let utterance = try #require(reply["speech"]?.numberValue, "\(reply.compactText)")
        #expect(try monitor.final(of: utterance) == "finished")
        // The log has the utterance: its writer thread ran (it writes after the utterance ends,
        // so a loaded machine may need a moment).
        var log = try daemon.ctl("log", "--limit", "1")
        for _ in 0..<50 where !log.stdout.contains("One utterance") {
            usleep(100_000)
            log = try daemon.ctl("log", "--limit", "1")
        }
        #expect(log.stdout.contains("One utterance"), "\(log.stdout) \(log.stderr)")

        let files = try Self.mappedFiles(of: daemon.process.processIdentifier)
        // The check itself must see the libraries a Swift program maps, or it proves nothing.
        #expect(files.contains { $0.hasSuffix("/libswiftCore.so") }, "no libswiftCore.so among \(files.sorted())")
        for library in Self.unwanted {
            let found = files.filter { ($0 as NSString).lastPathComponent == library }
            #expect(found.isEmpty, "narratord maps \(found.sorted())")
        }
    }

    /// The bridge and the Flite engine run all day beside the daemon, and the packages link the
    /// Swift runtime into them (make deb): Foundation there would bring ICU's data, about 50 MB
    /// a program. What the built programs link, as ldd resolves it.
    @Test("narrator-atspi and narrator-flite link none of Foundation, FoundationInternationalization and ICU",
          arguments: ["narrator-atspi", "narrator-flite"])
    func noFoundationLinked(program: String) throws {
        let result = try DaemonHarness.run("/usr/bin/ldd", [DaemonHarness.binaries + "/" + program])
        #expect(result.status == 0, "\(result.stderr)")
        // The check must see what a Swift program links, or it proves nothing.
        #expect(result.stdout.contains("libswiftCore.so"), "\(result.stdout)")
        for library in Self.unwanted {
            #expect(!result.stdout.contains(library), "\(program) links \(library):\n\(result.stdout)")
        }
    }
}
