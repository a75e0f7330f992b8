import Foundation
import NarratorDesktopHarness
import NarratorTestSupport
import Testing

/// `narrator-atspi dump` against real GTK applications on a headless desktop started by the test
/// (Xvfb, a private session bus, the AT-SPI bus and registry): zenity's question dialog and a
/// fixture window of our own with one of each control. What it prints is read back with
/// `narratorctl show -`, so each window's stops are checked as a user hears them.
@Suite(
    "narrator-atspi reads real GTK applications",
    .serialized,
    .enabled(if: HeadlessDesktop.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/zenity"),
             "the headless desktop or zenity is not installed (make test-deps)")
)
struct BridgeDumpTests {
    static var bridge: String { BuiltProducts.directory + "/narrator-atspi" }
    static var ctl: String { BuiltProducts.directory + "/narratorctl" }
    static var fixture: String { BuiltProducts.repository + "/Tests/Helpers/atspi/fixture.py" }

    /// Dumps `application`'s windows, waiting (up to 20 s) for it to appear on the bus.
    func dump(_ application: String, on desktop: HeadlessDesktop) throws -> CompletedRun {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let run = try CompletedRun.run(Self.bridge, ["dump", "--application", application], environment: desktop.environment, timeout: .seconds(30))
            if run.status == 0 || ContinuousClock.now > deadline { return run }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// The stops of a dumped document, as `narratorctl show` speaks them.
    func stops(_ document: String) throws -> [String] {
        let shown = try CompletedRun.run(Self.ctl, ["show", "-"], stdin: document)
        #expect(shown.status == 0, "\(shown.stderr)")
        return shown.lines
    }

    @Test("zenity's question dialog: named by application and title, said as a dialog, its label and buttons")
    func zenityQuestion() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        _ = try desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        let run = try dump("zenity", on: desktop)
        #expect(run.status == 0, "\(run.stderr)\n\(desktop.log("zenity"))")
        #expect(run.lines.count == 1)
        let document = run.lines.first ?? ""
        #expect(document.contains(#""tree":"zenity: Question","title":"Question, dialog""#), "\(document)")
        #expect(document.contains(#""modal":true"#))
        #expect(try stops(document) == ["Delete photo?", "No, button", "Yes, button"])
    }

    @Test("a GTK window with one of each control: labels, states, values, tabs with their positions")
    func fixtureWindow() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        _ = try desktop.launch("/usr/bin/python3", [Self.fixture, "--lifetime", "60"], name: "fixture")
        let run = try dump("narrator-fixture", on: desktop)
        #expect(run.status == 0, "\(run.stderr)\n\(desktop.log("fixture"))")
        let document = run.lines.first ?? ""
        #expect(document.contains(#""tree":"narrator-fixture: Narrator fixture","title":"Narrator fixture""#), "\(document)")
        #expect(try stops(document) == [
            "Save, button",
            "Remember me, checked, check box",
            "Name, Ada, text field",
            "Volume, 40, adjustable",
            "selected, General, tab, 1 of 2",
            "Advanced, tab, 2 of 2",
            "General settings, button",
            "Print, button, dimmed",
            "Not saved",
        ])
        // The tooltip is the Save button's hint.
        let json = try CompletedRun.run(Self.ctl, ["show", "--json", "-"], stdin: document).stdout
        #expect(json.contains("Saves the story"), "\(json)")
    }

    @Test("an application that is not there, or no accessibility bus at all, is said so")
    func nothingToRead() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        let missing = try CompletedRun.run(Self.bridge, ["dump", "--application", "no-such-app"], environment: desktop.environment, timeout: .seconds(30))
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no window of an application named 'no-such-app'"), "\(missing.stderr)")
        let nowhere = try CompletedRun.run(
            Self.bridge, ["dump"], environment: ["PATH": "/usr/bin:/bin", "HOME": desktop.directory, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"],
            timeout: .seconds(30))
        #expect(nowhere.status == 3)
        #expect(nowhere.stderr.contains("cannot reach the accessibility bus"), "\(nowhere.stderr)")
        let usage = try CompletedRun.run(Self.bridge, ["dumb"])
        #expect(usage.status == 2 && usage.stderr.contains("unknown command 'dumb'"))
    }
}
