import Foundation
import Glibc
import NarratorCore
import NarratorDesktopHarness
import NarratorSystem
import NarratorTestSupport
import Testing

/// `narrator-atspi run` between a real narratord and real GTK applications on a headless desktop:
/// the fixture window mirrored as a tree the bridge owns; Tab in the application moving
/// Narrator's focus, which speaks; `narratorctl activate` clicking the real button and `adjust up`
/// moving the real slider, each change coming back as an update; a dialog that opens later
/// mirrored too; an application that quits taking its tree with it.
@Suite(
    "narrator-atspi mirrors real applications into narratord",
    .serialized,
    .enabled(if: HeadlessDesktop.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool")
             && FileManager.default.isExecutableFile(atPath: "/usr/bin/zenity"),
             "the headless desktop, xdotool or zenity is not installed (make test-deps)")
)
struct BridgeRunTests {
    static let tree = "narrator-fixture: Narrator fixture"

    /// A desktop, a narratord (null audio) on a socket of its own, the fixture, and the bridge between them.
    final class Session {
        let desktop: HeadlessDesktop
        let socket: String
        private(set) var daemon: ChildProcess
        let fixture: ChildProcess
        /// `narrator-atspi run`, once started.
        private(set) var bridge: ChildProcess?

        /// `fixtureArguments`: more of the fixture's options (`--hang-after-save 6`).
        init(fixtureArguments: [String] = []) throws {
            desktop = try HeadlessDesktop()
            socket = desktop.directory + "/narratord.sock"
            daemon = try Self.startDaemon(on: desktop, socket: socket, name: "narratord")
            fixture = try desktop.launch("/usr/bin/python3", [BridgeDumpTests.fixture, "--lifetime", "120"] + fixtureArguments, name: "fixture")
            try wait("the fixture to show its window") { self.changes.contains { $0.contains(#""ready": true"#) } }
            try wait("narratord to listen") { FileManager.default.fileExists(atPath: self.socket) }
            bridge = try desktop.launch(BuiltProducts.directory + "/narrator-atspi", ["run", "--socket", socket], name: "bridge")
            try wait("the fixture's tree") { (try? self.ctl("trees").stdout.contains(BridgeRunTests.tree)) == true }
        }

        deinit { desktop.stop() }

        static func startDaemon(on desktop: HeadlessDesktop, socket: String, name: String) throws -> ChildProcess {
            try desktop.launch(
                BuiltProducts.directory + "/narratord",
                ["--socket", socket, "--audio", "null", "--state-dir", desktop.directory + "/state", "--log-level", "debug"], name: name)
        }

        /// Stops narratord (SIGTERM, as systemd does) and starts another on the same socket.
        func restartDaemon() throws {
            try daemon.send(SIGTERM)
            _ = try daemon.wait(timeout: .seconds(20))
            daemon = try Self.startDaemon(on: desktop, socket: socket, name: "narratord-again")
        }

        /// `narratorctl --socket SOCKET ARGS...`.
        @discardableResult
        func ctl(_ arguments: String...) throws -> CompletedRun {
            try CompletedRun.run(BuiltProducts.directory + "/narratorctl", ["--socket", socket] + arguments, timeout: .seconds(30))
        }

        /// What the fixture printed: one line per change.
        var changes: [String] {
            ((try? String(contentsOfFile: desktop.directory + "/fixture.out", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// The mirrored tree's stops, as narratord speaks them.
        func stops() throws -> [String] {
            try ctl("show", BridgeRunTests.tree).lines.filter { !$0.hasPrefix("  hint:") }
        }

        /// The id of the stop that speaks `utterance`.
        func id(of utterance: String) throws -> String {
            let json = try ctl("--json", "show", BridgeRunTests.tree).stdout
            let stops = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
            guard let id = stops.first(where: { $0["utterance"] as? String == utterance })?["id"] as? String else {
                throw Failure(description: "no stop says \"\(utterance)\" in \(json)")
            }
            return id
        }

        /// Narrator's focus, from `status`.
        func focus() throws -> String? {
            try focusAt()?.element
        }

        /// Narrator's focus with its tree, from `status`.
        func focusAt() throws -> (tree: String, element: String)? {
            let json = try ctl("--json", "status").stdout
            let status = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            guard let focus = status?["focus"] as? [String: Any], let tree = focus["tree"] as? String, let element = focus["element"] as? String else { return nil }
            return (tree, element)
        }

        func xdotool(_ arguments: String...) throws {
            let run = try CompletedRun.run("/usr/bin/xdotool", arguments, environment: desktop.environment, timeout: .seconds(30))
            guard run.status == 0 else {
                throw Failure(description: "xdotool \(arguments.joined(separator: " ")) failed: \(run.stderr) (DISPLAY=\(desktop.environment["DISPLAY"] ?? "none"), \(desktop.environment.count) variables)")
            }
        }

        /// Polls `condition` (every 50 ms, up to 20 s); throws, with the bridge's log, if it never holds.
        func wait(_ what: String, _ condition: () throws -> Bool) throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                if try condition() { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            if try condition() { return }
            throw Failure(description: "waited in vain for \(what); the bridge said: \(desktop.log("bridge")); narratord: \(desktop.log("narratord").suffix(1_500))")
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    @Test("the window is mirrored with every stop, and the application's focus moves Narrator's, which speaks it")
    func mirrorAndFollowFocus() throws {
        let session = try Session()
        #expect(try session.stops() == [
            "Save, button", "Remember me, checked, check box", "Name, Ada, text field", "Volume, 40, adjustable",
            "selected, General, tab, 1 of 2", "Advanced, tab, 2 of 2", "General settings, button", "Print, button, dimmed", "Not saved",
        ])
        // status shows the bridge and what it mirrors: one tree per window, named by application.
        let status = try session.ctl("status").stdout
        #expect(status.contains("narrator-atspi (pid ") && status.contains("): 1 tree\n    \(Self.tree)"), "\(status)")
        let remember = try session.id(of: "Remember me, checked, check box")
        let name = try session.id(of: "Name, Ada, text field")
        let window = try CompletedRun.run("/usr/bin/xdotool", ["search", "--name", "Narrator fixture"], environment: session.desktop.environment).lines.first ?? ""
        try session.xdotool("windowfocus", "--sync", window)
        // The window becoming active takes Narrator into it, on the button GTK focused, title first.
        let save = try session.id(of: "Save, button")
        try session.wait("focus on the Save button") { try session.focus() == save }
        try session.wait("the title with it") { try session.ctl("log", "--limit", "20").stdout.contains("Narrator fixture, Save, button") }
        try session.xdotool("key", "Tab")
        try session.wait("focus on the check box") { try session.focus() == remember }
        // Space clears it in the application, and Narrator says the new state of its focus.
        try session.xdotool("key", "space")
        try session.wait("the new state said") { try session.ctl("log", "--limit", "5").stdout.contains("not checked") }
        try session.xdotool("key", "Tab")
        try session.wait("focus on the entry") { try session.focus() == name }
        // Each focus move was spoken: the log holds the utterances, as focus speech. GTK selects
        // the entry's text as it takes the focus (after its focus event), and the entry says so.
        try session.wait("the focus speech in the log") {
            let log = try session.ctl("log", "--limit", "20").stdout
            return log.contains("Remember me, checked, check box") && log.contains("Name, Ada, selected, text field")
        }
        // Right in the tab list selects the next tab: said as the new focus, and the tab left
        // (no longer selected) is not said on the way out.
        try session.xdotool("key", "Tab", "Tab")
        try session.wait("focus on the first tab") { try session.ctl("log", "--limit", "5").stdout.contains("selected, General, tab, 1 of 2") }
        try session.xdotool("key", "Right")
        try session.wait("the second tab said") { try session.ctl("log", "--limit", "5").stdout.contains("selected, Advanced, tab, 2 of 2") }
        Thread.sleep(forTimeInterval: 0.5)
        let log = try session.ctl("log", "--limit", "8").lines
        #expect(!log.contains { $0.hasSuffix("  General, tab, 1 of 2") }, "\(log)")
    }

    @Test("typing into the entry says what each key typed or deleted, not the whole text again")
    func typingIsEchoed() throws {
        let session = try Session()
        let window = try CompletedRun.run("/usr/bin/xdotool", ["search", "--name", "Narrator fixture"], environment: session.desktop.environment).lines.first ?? ""
        try session.xdotool("windowfocus", "--sync", window)
        try session.wait("focus on the Save button") { try session.focus() == (try session.id(of: "Save, button")) }
        try session.xdotool("key", "Tab", "Tab")
        try session.wait("the entry said, its text selected") { try session.ctl("log", "--limit", "5").stdout.contains("Name, Ada, selected, text field") }
        // End leaves the text unselected (said by no one: a selection moving is not news).
        try session.xdotool("key", "End")
        try session.wait("the selection gone") { try session.stops().contains("Name, Ada, text field") }
        try session.xdotool("type", "m")
        try session.wait("the key said") { try session.ctl("log", "--limit", "3").lines.contains { $0.hasSuffix("  m") } }
        try session.xdotool("key", "BackSpace")
        try session.wait("the deletion said") { try session.ctl("log", "--limit", "3").stdout.contains("m deleted") }
        try session.wait("the entry, as it was") { try session.stops().contains("Name, Ada, text field") }
        let log = try session.ctl("log", "--limit", "6").lines
        #expect(!log.contains { $0.hasSuffix("  Adam") || $0.hasSuffix("  Ada") }, "\(log)")
    }

    @Test("activate clicks the real button and adjust moves the real slider; what changed comes back as updates")
    func actInTheApplication() throws {
        let session = try Session()
        try session.ctl("focus", Self.tree, try session.id(of: "Save, button"))
        #expect(try session.ctl("activate").status == 0)
        try session.wait("the click") { session.changes.contains(#"{"clicked": "Save"}"#) }
        try session.wait("the status label's update") { try session.stops().last == "Saved" }
        // The info bar Save showed is announced through the queue, and logged as an announcement.
        try session.wait("the info bar's announcement") {
            try session.ctl("log", "--client", "narrator-atspi", "--limit", "5").stdout.contains("Story saved")
        }

        try session.ctl("focus", Self.tree, try session.id(of: "Volume, 40, adjustable"))
        #expect(try session.ctl("adjust", "up").stdout.contains("41"))
        try session.wait("the slider to move") { session.changes.contains(#"{"volume": 41.0}"#) }

        try session.ctl("focus", Self.tree, try session.id(of: "Remember me, checked, check box"))
        try session.ctl("activate")
        try session.wait("the check box to be cleared") { session.changes.contains(#"{"remember": false}"#) }
        try session.wait("its update") { try session.stops().contains("Remember me, not checked, check box") }
    }

    @Test("when narratord restarts, the bridge waits for it and registers every window again")
    func narratordRestarts() throws {
        let session = try Session()
        try session.restartDaemon()
        try session.wait("the tree, registered again") { (try? session.ctl("trees").stdout.contains(Self.tree)) == true }
        #expect(try session.stops().first == "Save, button")
        #expect(session.desktop.log("bridge").contains("narratord is back"), "\(session.desktop.log("bridge"))")
    }

    @Test("a dialog that opens later is mirrored, and an application that quits takes its tree")
    func windowsComeAndGo() throws {
        let session = try Session()
        let dialog = try session.desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        try session.wait("the dialog's tree") { try session.ctl("trees").stdout.contains("zenity: Question") }
        #expect(try session.ctl("show", "zenity: Question").lines == ["Delete photo?", "No, button", "Yes, button"])
        _ = try dialog.kill()
        try session.wait("the dialog's tree to go") { try !session.ctl("trees").stdout.contains("zenity: Question") }
        _ = try session.fixture.kill()
        try session.wait("the fixture's tree to go") { try !session.ctl("trees").stdout.contains(Self.tree) }
    }

    @Test("a hung application holds up no other: its read is given up, a new one is mirrored meanwhile, and it is read again once it answers")
    func aHungApplicationHoldsUpNoOne() throws {
        let session = try Session(fixtureArguments: ["--hang-after-save", "8"])
        try session.ctl("focus", Self.tree, try session.id(of: "Save, button"))
        // The click changes the status label (events the bridge reads the fixture for), then hangs it.
        try session.ctl("activate")
        try session.wait("the click") { session.changes.contains(#"{"clicked": "Save"}"#) }
        try session.wait("the bridge to give up on the hung fixture") { session.desktop.log("bridge").contains("did not answer within") }
        // Meanwhile another application comes, and is mirrored and followed as if nothing hung.
        let dialog = try session.desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        try session.wait("the dialog's tree") { try session.ctl("trees").stdout.contains("zenity: Question") }
        #expect(try session.ctl("show", "zenity: Question").lines == ["Delete photo?", "No, button", "Yes, button"])
        #expect(!session.changes.contains(#"{"awake": true}"#), "the dialog was mirrored only after the fixture woke: something waited for it")
        // Awake, the fixture is read again by itself, and what changed while it hung arrives.
        try session.wait("the fixture to wake") { session.changes.contains(#"{"awake": true}"#) }
        try session.wait("the status label's update") { try session.stops().last == "Saved" }
        try session.wait("the bridge to say so") { session.desktop.log("bridge").contains("answers again") }
        _ = try dialog.kill()
    }

    @Test("an application stopped with SIGSTOP holds up no other: another window's focus is said while it is stopped, and the stopped one is given up after its 2 s bound and read again once it continues")
    func aStoppedApplicationHoldsUpNoOne() throws {
        let session = try Session()
        let dialog = try session.desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        try session.wait("the dialog's tree") { try session.ctl("trees").stdout.contains("zenity: Question") }
        let question = try CompletedRun.run("/usr/bin/xdotool", ["search", "--name", "^Question$"], environment: session.desktop.environment).lines.first ?? ""
        try session.xdotool("windowfocus", "--sync", question)
        try session.wait("Narrator's focus in the dialog") { try session.focusAt()?.tree == "zenity: Question" }
        let before = try #require(try session.focusAt())

        // The fixture stops; Narrator's focus moving into it asks it to grab the focus, a question it cannot answer.
        try session.fixture.send(SIGSTOP)
        try session.ctl("focus", Self.tree, try session.id(of: "Save, button"))
        // Tab in the dialog is followed at once: nothing waits for the stopped fixture's bound.
        try session.xdotool("key", "Tab")
        try session.wait("the dialog's next control said") {
            guard let now = try session.focusAt() else { return false }
            return now.tree == "zenity: Question" && now.element != before.element
        }
        #expect(!session.desktop.log("bridge").contains("could not grab the focus"), "the dialog's focus waited for the stopped fixture: \(session.desktop.log("bridge"))")
        try session.wait("the bridge to give up on the stopped fixture") { session.desktop.log("bridge").contains("did not answer within 2000 ms") }
        #expect(session.desktop.log("bridge").contains("could not grab the focus for /org/a11y/atspi/accessible/"))

        try session.fixture.send(SIGCONT)
        try session.wait("the fixture read again once it continues") { session.desktop.log("bridge").contains("answers again") }
        #expect(try session.ctl("trees").stdout.contains(Self.tree))
        _ = try dialog.kill()
    }

    @Test("a 10,000-row list is mirrored as the rows the user has been on, each said as it becomes active")
    func aLongListIsMirroredLazily() throws {
        let session = try Session(fixtureArguments: ["--list-rows", "10000"])
        let songs = "narrator-fixture: Songs"
        try session.wait("the list's tree") { try session.ctl("trees").stdout.contains(songs) }
        let window = try CompletedRun.run("/usr/bin/xdotool", ["search", "--name", "^Songs$"], environment: session.desktop.environment).lines.first ?? ""
        try session.xdotool("windowfocus", "--sync", window)
        // The list takes the focus: its selected row is said, after the window's title, with its
        // place among the list's rows (which the mirror does not hold to count).
        try session.wait("the first row") { try session.ctl("log", "--limit", "6").stdout.contains("Songs, selected, Song 1, 1 of 10000") }
        try session.xdotool("key", "Down")
        try session.wait("the second row") { try session.ctl("log", "--limit", "6").stdout.contains("selected, Song 2, 2 of 10000") }
        try session.xdotool("key", "End")
        try session.wait("the last row") { try session.ctl("log", "--limit", "6").stdout.contains("selected, Song 10000, 10000 of 10000") }
        // The mirror holds the rows visited, not ten thousand.
        let json = try session.ctl("--json", "trees").stdout
        let trees = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["trees"] as? [[String: Any]] ?? []
        let nodes = trees.first { $0["tree"] as? String == songs }?["nodes"] as? Int ?? -1
        #expect(nodes > 0 && nodes < 20, "\(json)")
        // The rows left are no longer selected (GTK says so of each, and each is read again alone,
        // keeping its place).
        try session.wait("the rows left, deselected") {
            try session.ctl("show", songs).lines.filter { $0.contains("Song") } == ["Song 1, 1 of 10000", "Song 2, 2 of 10000", "selected, Song 10000, 10000 of 10000"]
        }
    }

    @Test("when the accessibility bus restarts, the old bus's trees go and the bridge mirrors what comes on the new one")
    func accessibilityBusRestarts() throws {
        let session = try Session()
        try session.desktop.restartAccessibilityBus()
        try session.wait("the bridge to start again on the new bus") { session.desktop.log("bridge").contains("starting again on it") }
        #expect(session.desktop.log("bridge").contains("the accessibility bus went away"))
        let dialog = try session.desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        try session.wait("the dialog's tree, from the new bus") { try session.ctl("trees").stdout.contains("zenity: Question") }
        #expect(try session.ctl("show", "zenity: Question").lines == ["Delete photo?", "No, button", "Yes, button"])
        // The fixture was on the old bus only (GTK does not join a new one): its tree went with it.
        #expect(try !session.ctl("trees").stdout.contains(Self.tree))
        _ = try dialog.kill()
    }

    @Test("moving Narrator's focus moves the application's where the element can take it, said once")
    func narratorsFocusMovesTheApplications() throws {
        let session = try Session()
        let remember = try session.id(of: "Remember me, checked, check box")
        try session.ctl("focus", Self.tree, remember)
        try session.wait("the application's focus on the check box") { session.changes.contains(#"{"focus": "Remember me"}"#) }
        try session.ctl("next")
        try session.wait("the application's focus on the entry") { session.changes.contains { $0.contains(#""focus": "Name""#) || $0.contains(#""focus": "Entry""#) } }
        // The application's own focus events, which follow, say nothing again.
        try session.wait("the entry said") { try session.ctl("log", "--limit", "10").stdout.contains("Name, Ada, text field") }
        Thread.sleep(forTimeInterval: 1)
        let log = try session.ctl("log", "--limit", "10").stdout
        #expect(log.components(separatedBy: "Remember me, checked, check box").count == 2, "\(log)")
        #expect(log.components(separatedBy: "Name, Ada, text field").count == 2, "\(log) \(session.changes)")
        // GTK selected the entry's text as it took the focus: the mirror has it, and does not say
        // it again on its own.
        try session.wait("the selection, mirrored") { try session.stops().contains("Name, Ada, selected, text field") }
        #expect(try !session.ctl("log", "--limit", "10").stdout.contains("Name, Ada, selected"))
        // A stop the application cannot focus (the status label) moves only Narrator.
        try session.ctl("focus", Self.tree, try session.id(of: "Not saved"))
        #expect(try session.focus() == (try session.id(of: "Not saved")))
    }
}
