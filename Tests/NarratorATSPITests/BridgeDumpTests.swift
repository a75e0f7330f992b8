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

    static var qtFixture: String { BuiltProducts.repository + "/Tests/Helpers/atspi/qt_fixture.py" }
    static var hasQt: Bool { FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/PyQt5") }
    static var hasWidgetFactory: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gtk3-widget-factory") }

    /// Dumps `application`'s windows, waiting (up to 20 s) for it to appear on the bus; `walk`
    /// reads it the naive way (libatspi, one call per property).
    func dump(_ application: String, on desktop: HeadlessDesktop, walk: Bool = false) throws -> CompletedRun {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let run = try CompletedRun.run(
                Self.bridge, ["dump", "--application", application] + (walk ? ["--walk"] : []), environment: desktop.environment, timeout: .seconds(30))
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
        #expect(nowhere.stderr.contains("no session bus (is DBUS_SESSION_BUS_ADDRESS set?)"), "\(nowhere.stderr)")
        let usage = try CompletedRun.run(Self.bridge, ["dumb"])
        #expect(usage.status == 2 && usage.stderr.contains("unknown command 'dumb'"))
    }

    @Test("a PyQt5 window (no AT-SPI cache: walked) reads like its GTK twin", .enabled(if: hasQt, "python3-pyqt5 is not installed (make test-deps)"))
    func qtWindow() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        _ = try desktop.launch("/usr/bin/python3", [Self.qtFixture, "--lifetime", "60"], name: "qt")
        let run = try dump("narrator-qt-fixture", on: desktop)
        #expect(run.status == 0, "\(run.stderr)\n\(desktop.log("qt"))")
        let document = run.lines.first ?? ""
        #expect(document.contains(#""tree":"narrator-qt-fixture: Narrator Qt fixture","title":"Narrator Qt fixture""#), "\(document)")
        let expected = ["Save, button", "Remember me, checked, check box", "Name, Ada, text field", "Volume, 40, adjustable", "Print, button, dimmed"]
        #expect(try stops(document) == expected)
        #expect(try stops(dump("narrator-qt-fixture", on: desktop, walk: true).lines.first ?? "") == expected)
    }

    @Test(
        "gtk3-widget-factory: every stop says something, a field GTK leaves nameless is called by its placeholder, and the bulk read misses nothing the walk finds",
        .enabled(if: hasWidgetFactory, "gtk-3-examples is not installed (make test-deps)"))
    func widgetFactory() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        _ = try desktop.launch("/usr/bin/gtk3-widget-factory", [], name: "factory")
        // GTK adds the title bar's buttons (Minimize, Maximize, Close) a moment after the window
        // shows: read until two bulk reads in a row agree, so that neither read compared below
        // catches the window half built (seen on loaded machines, first one way, then the other).
        var run = try dump("gtk3-widget-factory", on: desktop)
        #expect(run.status == 0, "\(run.stderr)\n\(desktop.log("factory"))")
        var stops = try stops(run.lines.first ?? "")
        for _ in 0..<20 {
            let again = try dump("gtk3-widget-factory", on: desktop)
            let againStops = try self.stops(again.lines.first ?? "")
            if againStops == stops { break }
            (run, stops) = (again, againStops)
            Thread.sleep(forTimeInterval: 0.25)
        }
        #expect(stops.count > 60, "\(stops)")
        #expect(stops.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix(",") }, "\(stops)")
        #expect(stops.contains("Click icon to change mode, text field"), "\(stops)")
        #expect(stops.contains("selected, page 1, tab, 1 of 3"), "\(stops)")
        let walk = try dump("gtk3-widget-factory", on: desktop, walk: true).lines.first ?? ""
        let walkedStops = try self.stops(walk)
        #expect(walkedStops == stops, "only walked: \(walkedStops.filter { !stops.contains($0) }); only in bulk: \(stops.filter { !walkedStops.contains($0) })")
        // The bulk read starts from GTK's cache, which holds an object once it has been shown or
        // asked about, so it may or may not hold hidden subtrees the walk goes into: as many nodes
        // or fewer (both seen), never more.
        func nodes(_ document: String) -> Int { document.components(separatedBy: #""id":"#).count - 1 }
        #expect(nodes(run.lines.first ?? "") <= nodes(walk), "\(nodes(run.lines.first ?? "")) nodes read in bulk, \(nodes(walk)) walked")
    }
}
