import Foundation
import Glibc
import NarratorDesktopHarness
import NarratorModel
import NarratorSystem
import NarratorTestSupport
import Testing

/// The suites of applications nobody here wrote (Mousepad, gnome-calculator, Firefox, Qt), one
/// at a time: each starts a desktop and a real application, and two at once on two cores make
/// each other's start-up slower than any wait a user would accept.
@Suite(.serialized) struct RealApplications {}

/// A headless desktop with a real narratord (null audio) and `narrator-atspi run` between it and
/// whatever applications a test starts there: what the tests of real applications (Mousepad,
/// gnome-calculator, Firefox, Qt, LibreOffice) share. What is said is read as it is queued, from
/// `narratorctl monitor --json` (the log has each row once its speech has ended).
final class BridgedDesktop {
    let desktop: HeadlessDesktop
    let socket: String
    let daemon: ChildProcess
    let bridge: ChildProcess
    let monitor: ChildProcess

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `keymap`: the text of the keymap file narrator-atspi finds at its start (none: the defaults).
    init(keymap: String? = nil) throws {
        desktop = try HeadlessDesktop()
        if let keymap {
            let directory = desktop.directory + "/config/narrator"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try keymap.write(toFile: directory + "/keymap", atomically: true, encoding: .utf8)
        }
        socket = desktop.directory + "/narratord.sock"
        daemon = try desktop.launch(
            BuiltProducts.directory + "/narratord",
            ["--socket", socket, "--audio", "null", "--state-dir", desktop.directory + "/state", "--log-level", "debug"], name: "narratord")
        let deadline = ContinuousClock.now + .seconds(20)
        while !FileManager.default.fileExists(atPath: socket), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        monitor = try desktop.launch(BuiltProducts.directory + "/narratorctl", ["--socket", socket, "monitor", "--json"], name: "monitor")
        // What is said is read from the monitor: it must be subscribed before anything can be
        // said (on a loaded machine its start can take longer than the bridge's first focus), so
        // a word is spoken until the monitor has printed it.
        // (Said again each second, not each poll: one the monitor missed is gone.)
        let ready = ContinuousClock.now + .seconds(30)
        var spokenAt = ContinuousClock.now - .seconds(1)
        while ContinuousClock.now < ready, !Self.spoken(monitoredIn: desktop.directory).contains(where: { $0.text == "ready" }) {
            if ContinuousClock.now - spokenAt >= .seconds(1) {
                spokenAt = ContinuousClock.now
                _ = try? CompletedRun.run(BuiltProducts.directory + "/narratorctl", ["--socket", socket, "speak", "ready"], timeout: .seconds(30))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        bridge = try desktop.launch(BuiltProducts.directory + "/narrator-atspi", ["run", "--socket", socket], name: "bridge")
    }

    deinit { desktop.stop() }

    /// `narratorctl --socket SOCKET ARGS...`.
    @discardableResult
    func ctl(_ arguments: String...) throws -> CompletedRun {
        try CompletedRun.run(BuiltProducts.directory + "/narratorctl", ["--socket", socket] + arguments, timeout: .seconds(30))
    }

    /// Starts an application on the desktop.
    @discardableResult
    func launch(_ path: String, _ arguments: [String] = [], name: String, environment extra: [String: String] = [:]) throws -> ChildProcess {
        try desktop.launch(path, arguments, name: name)
    }

    /// The trees narratord has, by name.
    func trees() throws -> [String] {
        let json = try JSONParser().parse(try ctl("--json", "trees").stdout)
        return (json["trees"]?.arrayValue ?? json.arrayValue ?? []).compactMap { $0["tree"]?.stringValue }
    }

    /// The first tree whose name holds `fragment`.
    func tree(containing fragment: String) throws -> String? {
        try trees().first { $0.contains(fragment) }
    }

    /// Everything narratord was asked to say so far, oldest first: each utterance's id, kind and text.
    func spoken() throws -> [(id: Int, kind: String, text: String)] {
        Self.spoken(monitoredIn: desktop.directory)
    }

    /// What the monitor of the desktop in `directory` printed as queued.
    static func spoken(monitoredIn directory: String) -> [(id: Int, kind: String, text: String)] {
        let lines = ((try? String(contentsOfFile: directory + "/monitor.out", encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.compactMap { line in
            guard let event = try? JSONParser().parse(String(line)), event["phase"]?.stringValue == "queued",
                let id = event["utterance"]?.numberValue, let text = event["text"]?.stringValue
            else { return nil }
            return (Int(id), event["kind"]?.stringValue ?? "", text)
        }
    }

    /// The texts of narratord's log, oldest first, once each has been said.
    func logged() throws -> [String] {
        let rows = try JSONParser().parse(try ctl("log", "--json", "--limit", "1000").stdout).arrayValue ?? []
        return rows.compactMap { row in row["id"]?.numberValue.flatMap { id in row["text"]?.stringValue.map { (id, $0) } } }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The texts said after the utterance `id` (0: all).
    func said(after id: Int) throws -> [String] {
        try spoken().filter { $0.id > id }.map(\.text)
    }

    /// The id of the last utterance so far (0 when none).
    func lastUtterance() throws -> Int { try spoken().last?.id ?? 0 }

    /// Narrator's focus, from `status`.
    func focus() throws -> (tree: String, element: String)? {
        let status = try JSONParser().parse(try ctl("--json", "status").stdout)
        guard let tree = status["focus"]?["tree"]?.stringValue, let element = status["focus"]?["element"]?.stringValue else { return nil }
        return (tree, element)
    }

    func xdotool(_ arguments: String...) throws {
        try xdotool(arguments)
    }

    func xdotool(_ arguments: [String]) throws {
        let run = try CompletedRun.run("/usr/bin/xdotool", arguments, environment: desktop.environment, timeout: .seconds(30))
        guard run.status == 0 else { throw Failure(description: "xdotool \(arguments.joined(separator: " ")) failed: \(run.stderr)") }
    }

    /// Gives the input focus to the first window whose title matches `pattern` (a regular
    /// expression, as xdotool takes it), once there is one.
    func focusWindow(_ pattern: String) throws {
        var window = ""
        try wait("a window named \(pattern)") {
            window = (try CompletedRun.run("/usr/bin/xdotool", ["search", "--name", pattern], environment: desktop.environment).lines.first ?? "")
            return !window.isEmpty
        }
        try xdotool("windowfocus", "--sync", window)
    }

    /// Presses `key` and waits until what it made narratord say has been said and nothing more
    /// came for `quiet`: the texts said, in order.
    func press(_ key: String, quiet: Duration = .milliseconds(400)) throws -> [String] {
        let before = try lastUtterance()
        try xdotool("key", key)
        return try settle(after: before, quiet: quiet)
    }

    /// Presses `key` and waits until it has made narratord say something (at most 30 s) and
    /// nothing more came for a moment: the texts said, in order. For keys that must be heard.
    func hear(_ key: String) throws -> [String] {
        let before = try lastUtterance()
        try xdotool("key", key)
        try wait("something said for \(key)") { !(try said(after: before)).isEmpty }
        return try settle(after: before)
    }

    /// What was said after utterance `id`, once nothing new came for `quiet` (at most 10 s).
    func settle(after id: Int, quiet: Duration = .milliseconds(400)) throws -> [String] {
        var said = try self.said(after: id)
        var stable = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            let now = try self.said(after: id)
            if now != said {
                said = now
                stable = ContinuousClock.now
            } else if ContinuousClock.now - stable >= quiet {
                break
            }
        }
        return said
    }

    /// Polls `condition` (every 50 ms, up to `timeout`); throws, with the bridge's and
    /// narratord's logs, if it never holds.
    func wait(_ what: String, timeout: Duration = .seconds(30), _ condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if try condition() { return }
        let spoken = (try? said(after: 0).suffix(8).joined(separator: " | ")) ?? "?"
        // narratord's own log beside what the monitor saw queued: which of the two missed it.
        let logged = (try? logged().suffix(8).joined(separator: " | ")) ?? "?"
        let focus = (try? self.focus()).map { "\($0?.tree ?? "-") / \($0?.element ?? "-")" } ?? "?"
        throw Failure(description: "waited in vain for \(what); said last: \(spoken); narratord's log: \(logged); focus: \(focus); the monitor said: \(desktop.log("monitor").suffix(500)) and printed \(((try? String(contentsOfFile: desktop.directory + "/monitor.out", encoding: .utf8)) ?? "").suffix(600)); the bridge said: \(desktop.log("bridge").suffix(2_000)); narratord: \(desktop.log("narratord").suffix(1_500))")
    }
}
