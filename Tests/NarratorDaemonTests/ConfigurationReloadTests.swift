import Foundation
import Testing
@testable import NarratorDaemon

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
