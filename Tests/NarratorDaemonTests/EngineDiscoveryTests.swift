import Foundation
@testable import NarratorDaemon
import NarratorEngines
import NarratorSpeech
import Testing

/// Which engine executables narratord takes, and which listings it keeps.
@Suite struct EngineDiscoveryTests {
    func listing(_ engine: String) -> EngineListing {
        EngineListing(engine: engine, version: "1", voices: [.init(name: "v", languages: ["en"], gender: .female, sampleRate: 16000)])
    }

    @Test func autoTakesTheKnownEnginesBesideNarratord() throws {
        // /bin holds neither engine, so auto finds none there; `none` never looks.
        #expect(try EngineDiscovery.executables(.auto, ownExecutable: "/bin/narratord").isEmpty)
        #expect(try EngineDiscovery.executables(.auto, ownExecutable: nil).isEmpty)
        #expect(try EngineDiscovery.executables(.none, ownExecutable: "/bin/narratord").isEmpty)
        #expect(try EngineDiscovery.executables(.paths(["/bin/true"]), ownExecutable: nil) == ["/bin/true"])
    }

    @Test func aNamedEngineThatCannotRunStopsStartUp() throws {
        let directory = NSTemporaryDirectory() + "narrator-engines-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plain = directory + "/narrator-plain"
        #expect(FileManager.default.createFile(atPath: plain, contents: Data("not a program".utf8), attributes: [.posixPermissions: 0o644]))
        let cases = [
            (plain, "--engines: \(plain) is not executable"),
            ("/nowhere/narrator-x", "--engines: /nowhere/narrator-x does not exist"),
            (directory, "--engines: \(directory) is a directory, not an engine's executable"),
        ]
        for (path, message) in cases {
            do {
                _ = try EngineDiscovery.executables(.paths(["/bin/true", path]), ownExecutable: nil)
                Issue.record("\(path) was taken")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func eachEngineHasItsHangBound() {
        #expect(EngineDiscovery.hangBound(of: "/usr/bin/narrator-flite") == .seconds(1))
        #expect(EngineDiscovery.hangBound(of: "/usr/bin/narrator-piper") == .seconds(2))
        #expect(EngineDiscovery.hangBound(of: "/opt/other-engine") == .seconds(2))
    }

    @Test func failuresEspeakNamesAndSecondEnginesOfANameAreLeftOutWithAWarning() {
        let failure = EngineListVoicesError(executable: "/x/broken", problem: .noVoices)
        let (kept, warnings) = EngineDiscovery.accepted([
            ("/x/flite", .success(listing("flite"))),
            ("/x/broken", .failure(failure)),
            ("/x/fake-espeak", .success(listing(SpeechEngines.espeak.rawValue))),
            ("/y/flite", .success(listing("flite"))),
            ("/x/piper", .success(listing("piper"))),
        ])
        #expect(kept.map(\.executable) == ["/x/flite", "/x/piper"])
        #expect(warnings == [
            "engine /x/broken left out, speech goes on without it: \(failure)",
            "engine /x/fake-espeak left out: it calls itself espeak-ng, which is narratord's own",
            "engine /y/flite left out: /x/flite is already engine flite",
        ])
    }

    @Test func listingsRunTogetherAndComeBackInOrder() {
        let found = EngineDiscovery.startListing(["/bin/false", "/nowhere/engine"])()
        #expect(found.map(\.executable) == ["/bin/false", "/nowhere/engine"])
        for entry in found {
            guard case .failure = entry.result else {
                Issue.record("\(entry.executable) listed voices")
                continue
            }
        }
    }
}
