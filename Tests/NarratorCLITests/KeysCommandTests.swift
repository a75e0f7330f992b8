import Foundation
import NarratorTestSupport
import Testing

/// `narratorctl keys`: the bindings in force, the keymap file's refused lines, and docs/keys.md,
/// which is generated and must not drift from the keymap.
@Suite struct KeysCommandTests {
    static func ctl(_ arguments: [String], environment: [String: String] = [:]) throws -> CompletedRun {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        return try CompletedRun.run(BuiltProducts.directory + "/narratorctl", arguments, environment: env, timeout: .seconds(30))
    }

    @Test func docsKeysIsWhatTheKeymapGenerates() throws {
        let generated = try Self.ctl(["keys", "--markdown"])
        let page = try String(contentsOfFile: BuiltProducts.repository + "/docs/keys.md", encoding: .utf8)
        #expect(generated.status == 0)
        #expect(generated.stdout == page, "docs/keys.md differs from the keymap: run narratorctl keys --markdown > docs/keys.md")
    }

    @Test func theKeymapFileIsReadAndItsBadLinesNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-keys-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/narrator", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // No file: the desktop's defaults.
        let defaults = try Self.ctl(["keys"], environment: ["XDG_CONFIG_HOME": directory])
        #expect(defaults.status == 0)
        #expect(defaults.lines.first == "layout: desktop; Narrator's key: Insert, KP_Insert (twice quickly: the key itself)")
        #expect(defaults.lines.contains { $0.hasPrefix("KP_Enter") && $0.contains("where-am-i") })
        try "layout = laptop\nNarrator+w = where-am-i\nNarrator+q = quit\n".write(toFile: directory + "/narrator/keymap", atomically: true, encoding: .utf8)
        let mine = try Self.ctl(["keys"], environment: ["XDG_CONFIG_HOME": directory])
        #expect(mine.status == 1)
        #expect(mine.stderr == "narratorctl keys: \(directory)/narrator/keymap line 3: no command is called \"quit\"; \"narratorctl keys --commands\" lists them\n")
        #expect(mine.lines.first == "layout: laptop; Narrator's key: Caps_Lock (twice quickly: the key itself)")
        #expect(mine.lines.contains { $0.hasPrefix("Narrator+w ") && $0.contains("where-am-i") })
        #expect(!mine.lines.contains { $0.hasPrefix("KP_Enter") })
        let json = try Self.ctl(["keys", "--json", "--file", directory + "/narrator/keymap"])
        #expect(json.stdout.contains("\"problems\"") && json.stdout.contains("\"line\": 3"), "\(json.stdout)")
        let missing = try Self.ctl(["keys", "--file", directory + "/nothing"])
        #expect(missing.status == 1 && missing.stderr.contains("cannot read \(directory)/nothing: no such file"))
        let commands = try Self.ctl(["keys", "--commands"])
        #expect(commands.lines.count == 74 && commands.lines.contains { $0.hasPrefix("next-heading-2 ") } && commands.lines.contains { $0.hasPrefix("previous-check-box ") })
    }
}
