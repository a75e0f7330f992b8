import Foundation
import Glibc
import NarratorCore
import NarratorDesktopHarness
import NarratorSystem
import NarratorTestSupport
import Testing

/// An application of our own on the accessibility bus whose tree is built to hurt
/// (Tests/Helpers/atspi/hostile.py), beside the GTK fixture, under the real `narrator-atspi run`
/// and narratord: the bridge stays up, says once what it made of the hostile one (given up, or
/// cut, or not answering), bounds its memory, and goes on following the fixture's focus and
/// mirroring an application that comes afterwards.
@Suite(
    "narrator-atspi beside an application built to hurt",
    .serialized,
    .enabled(if: HeadlessDesktop.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool")
             && FileManager.default.isExecutableFile(atPath: "/usr/bin/zenity"),
             "the headless desktop, xdotool or zenity is not installed (make test-deps)")
)
struct HostileApplicationTests {
    /// The most `narrator-atspi run` may ever hold (its peak resident memory, VmHWM) on the
    /// headless desktop with the fixture and a hostile application: docs/atspi.md.
    static let memoryBound = 96 << 20

    /// The peak resident memory of process `pid`, in bytes.
    static func peakMemory(of pid: pid_t) -> Int? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }

    /// Whether process `pid` runs (not gone, not a zombie).
    static func isRunning(_ pid: pid_t) -> Bool {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// Each of hostile.py's modes, with what the bridge says of it.
    static let modes: [(String, String)] = [
        ("cycle", "itself or one of its ancestors, among its children"),
        // 56 MB may take longer than the question's bound to cross the bus: then its late answer is refused.
        ("wide", "was refused: a reply of 5"),
        ("name", "its answer to Get on /org/a11y/atspi/accessible/1 was refused: a reply of"),
        ("deep", "has objects deeper than 64 levels; what is deeper is not read"),
        ("churn", "it has more than 50000 objects"),
        ("errors", "it answered each of its"),
        ("silent", "did not answer within 2000 ms"),
    ]

    @Test(
        "the bridge stays up, says once what it made of the hostile application, bounds its memory, and goes on reading the others",
        arguments: modes)
    func hostileApplication(mode: String, said: String) throws {
        // HOSTILE_ONLY=MODE runs one mode alone (the others pass at once).
        if let only = ProcessInfo.processInfo.environment["HOSTILE_ONLY"], only != mode { return }
        let session = try BridgeRunTests.Session()
        let bridge = try #require(session.bridge)
        let address = try ATSPIBusTests().environment(of: session.desktop)["AT_SPI_BUS_ADDRESS"] ?? ""
        let hostile = try session.desktop.launch("/usr/bin/python3", [BuiltProducts.repository + "/Tests/Helpers/atspi/hostile.py", address, mode], name: "hostile")
        // The million children take it a while to build before it registers.
        var registered: String?
        let deadline = ContinuousClock.now + .seconds(90)
        while registered == nil, ContinuousClock.now < deadline {
            let printed = (try? String(contentsOfFile: session.desktop.directory + "/hostile.out", encoding: .utf8)) ?? ""
            registered = (try? JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: String])?["name"]
            if registered == nil { usleep(100_000) }
        }
        let name = try #require(registered, "hostile.py did not register: \(session.desktop.log("hostile"))")

        // With both cores busy, the tree that grows as it is asked can answer too slowly for its read
        // to reach the object bound: the bridge then takes it for unresponsive (said once, tried
        // again every 5 s), which bounds it as surely. Either verdict is what it made of it.
        let unresponsiveChurn = "(\(name)) did not answer within 2000 ms"
        let verdicts = mode == "silent" ? ["(\(name)) \(said)"] : mode == "churn" ? [said, unresponsiveChurn] : [said]
        // A million children, or a tree that grows as it is asked, take Python a while to say.
        let said = ContinuousClock.now + .seconds(90)
        while !verdicts.contains(where: session.desktop.log("bridge").contains), ContinuousClock.now < said { usleep(100_000) }
        let verdict = verdicts.first(where: session.desktop.log("bridge").contains) ?? verdicts[0]
        let unresponsive = verdict == unresponsiveChurn
        #expect(session.desktop.log("bridge").contains(verdict), "the bridge said: \(session.desktop.log("bridge")); hostile.py: \(session.desktop.log("hostile").suffix(2_000)); trees: \((try? session.ctl("trees").stdout) ?? ""); \(((try? session.ctl("show", "hostile-\(mode): Hostile \(mode)").stdout) ?? "").prefix(3_000))")
        if mode == "deep" {
            // Cut, not given up: its window is mirrored as deep as the bridge reads.
            try session.wait("the cut tree") { try session.ctl("trees").stdout.contains("hostile-deep: Hostile deep") }
        } else if mode != "silent", !unresponsive {
            // Named as it names itself, unless it would not say (errors for everything).
            let who = mode == "errors" ? name : "hostile-\(mode) (\(name))"
            #expect(session.desktop.log("bridge").contains("narrator-atspi: \(who) is given up: "), "\(session.desktop.log("bridge"))")
            #expect(try !session.ctl("trees").stdout.contains("hostile-"))
        }

        // Another application comes (the desktop is listed again) and is mirrored as usual.
        let dialog = try session.desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        try session.wait("the dialog's tree") { try session.ctl("trees").stdout.contains("zenity: Question") }
        #expect(try session.ctl("show", "zenity: Question").lines == ["Delete photo?", "No, button", "Yes, button"])
        // The fixture's focus is followed and spoken as ever.
        let window = try CompletedRun.run("/usr/bin/xdotool", ["search", "--name", "Narrator fixture"], environment: session.desktop.environment).lines.first ?? ""
        try session.xdotool("windowfocus", "--sync", window)
        let save = try session.id(of: "Save, button"), remember = try session.id(of: "Remember me, checked, check box")
        try session.wait("focus on the Save button") { try session.focus() == save }
        try session.xdotool("key", "Tab")
        try session.wait("focus on the check box") { try session.focus() == remember }
        try session.wait("the check box said") { try session.ctl("log", "--limit", "5").stdout.contains("Remember me, checked, check box") }
        if mode == "silent" || unresponsive {
            // Tried again every 5 s: still said once, after a try.
            Thread.sleep(forTimeInterval: 6)
        }

        let log = session.desktop.log("bridge")
        #expect(log.components(separatedBy: verdict).count == 2, "said other than once: \(log)")
        #expect(Self.isRunning(bridge.pid), "the bridge is gone: \(log)")
        let peak = try #require(Self.peakMemory(of: bridge.pid))
        #expect(peak < Self.memoryBound, "the bridge's peak resident memory was \(peak >> 20) MiB")
        print("hostile \(mode): the bridge's peak resident memory \(peak >> 10) KiB")
        _ = try dialog.kill()
        _ = try hostile.kill()
    }
}
