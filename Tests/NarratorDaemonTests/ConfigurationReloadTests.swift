import Foundation
import NarratorCommandLine
@testable import NarratorDaemon
import Testing

@Suite struct ConfigurationReloadTests {
    @Test func anOptionThatNeedsARestartIsNamedAtEveryReloadUntilTheRestart() throws {
        let directory = NSTemporaryDirectory() + "narrator-reload-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory + "/narrator", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/narrator/narratord.conf"
        try "audio = null\nrate = 180\n".write(toFile: file, atomically: true, encoding: .utf8)
        let environment = ["HOME": directory, "XDG_CONFIG_HOME": directory, "XDG_STATE_HOME": directory]
        guard case .run(let started) = try DaemonMain.readOptions([], environment: environment) else {
            Issue.record("not a run")
            return
        }
        var reload = ConfigurationReload(arguments: [], environment: environment, current: started)
        try "audio = pulse\nrate = 200\n".write(toFile: file, atomically: true, encoding: .utf8)
        let first = try reload.reload().get()
        #expect(first.needRestart == ["audio"])
        #expect(first.settings.map(\.key) == ["rate"] && first.settings.map(\.value) == ["200"])
        // Read again unchanged: the audio change is still not in effect, the rate already is.
        let second = try reload.reload().get()
        #expect(second.needRestart == ["audio"])
        #expect(second.settings.isEmpty)
    }

    /// The driver reads off the loop; SIGHUPs that come while a read is stuck make one more read
    /// after it, not one each.
    @Test func hangupsDuringAReadAreFoldedIntoOneMoreRead() throws {
        let environment = ["HOME": "/nonexistent", "XDG_CONFIG_HOME": "/nonexistent", "XDG_STATE_HOME": "/nonexistent"]
        guard case .run(let started) = try DaemonMain.readOptions(["--rate", "180"], environment: environment) else {
            Issue.record("not a run")
            return
        }
        var reload = ConfigurationReload(arguments: ["--rate", "180"], environment: environment, current: started)
        let starts = [reload.hangup(), reload.hangup(), reload.hangup()]
        #expect(starts == [true, false, false])
        var faster = started
        faster.rate = 300
        let first = reload.finished(.success(.run(faster)))
        #expect(first.readAgain)
        #expect(try first.changes.get().settings.map(\.value) == ["300"])
        #expect(reload.reading == .reading(again: false))
        let second = reload.finished(.failure(UsageError("--rate must be a whole number")))
        #expect(!second.readAgain)
        guard case .failure(let refused) = second.changes else {
            Issue.record("a broken read was applied")
            return
        }
        #expect(refused == UsageError("--rate must be a whole number"))
        #expect(reload.reading == .idle)
        let next = reload.hangup()
        #expect(next)
    }

    /// `engine-idle` in the file changes live, as `set engine-idle` would, like the rate.
    @Test func engineIdleChangesLive() throws {
        let directory = NSTemporaryDirectory() + "narrator-reload-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory + "/narrator", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/narrator/narratord.conf"
        try "engine-idle = 300\n".write(toFile: file, atomically: true, encoding: .utf8)
        let environment = ["HOME": directory, "XDG_CONFIG_HOME": directory, "XDG_STATE_HOME": directory]
        guard case .run(let started) = try DaemonMain.readOptions([], environment: environment) else {
            Issue.record("not a run")
            return
        }
        #expect(started.engineIdle == 300)
        var reload = ConfigurationReload(arguments: [], environment: environment, current: started)
        try "engine-idle = 30\n".write(toFile: file, atomically: true, encoding: .utf8)
        let changes = try reload.reload().get()
        #expect(changes.needRestart.isEmpty)
        #expect(changes.settings.map(\.key) == ["engine-idle"] && changes.settings.map(\.value) == ["30"])
    }
}
