@testable import NarratorBridge
@testable import NarratorModel
@testable import NarratorProtocol
import Testing

/// The AT-SPI events the real GTK fixture (Tests/Helpers/atspi/fixture.py) sent as a user gave its
/// window the focus, tabbed through it, cleared the check box, typed into the entry and chose the
/// other tab (the keys of BridgeRunTests), recorded on a headless desktop by
/// Tests/Helpers/atspi/record_events.py: each event's type, detail1, detail2, its source's number
/// and what it carries, as the shell hands them to the core. To re-record, run that script with --swift and paste its output
/// over `steps` (and check `BridgeRecordedTests.fixture` against its --tree).
enum GTKRecording {
    struct Event: Sendable {
        var type: String
        /// The source's object path without /org/a11y/atspi/accessible/.
        var number: String
        var detail1: Int
        var detail2: Int
        var object: String?
        var text: String?

        init(_ type: String, _ number: String, detail1: Int, detail2: Int = 0, object: String? = nil, text: String? = nil) {
            self.type = type
            self.number = number
            self.detail1 = detail1
            self.detail2 = detail2
            self.object = object
            self.text = text
        }
    }

    struct Step: Sendable {
        /// What the user did: "windowfocus" (xdotool windowfocus), else the key pressed.
        var key: String
        var events: [Event]

        init(_ key: String, _ events: [Event]) {
            self.key = key
            self.events = events
        }
    }

    static let steps: [Step] = [
        Step("windowfocus", [
            .init("window:activate", "21", detail1: 0),
            .init("object:state-changed:focused", "22", detail1: 1),
            .init("object:state-changed:focused", "22", detail1: 1),
        ]),
        Step("Tab", [
            .init("object:state-changed:focused", "22", detail1: 0),
            .init("object:state-changed:focused", "2", detail1: 1),
            .init("object:state-changed:focused", "2", detail1: 1),
        ]),
        Step("space", [
            .init("object:state-changed:checked", "2", detail1: 0),
        ]),
        Step("Tab", [
            .init("object:state-changed:focused", "2", detail1: 0),
            .init("object:state-changed:focused", "12", detail1: 1),
            .init("object:text-selection-changed", "12", detail1: 0),
            .init("object:text-caret-moved", "12", detail1: 3),
            .init("object:state-changed:focused", "12", detail1: 1),
        ]),
        Step("End", [
            .init("object:text-selection-changed", "12", detail1: 0),
        ]),
        Step("m", [
            .init("object:text-changed:insert", "12", detail1: 3, detail2: 1, text: "m"),
            .init("object:text-caret-moved", "12", detail1: 4),
        ]),
        Step("BackSpace", [
            .init("object:text-changed:delete", "12", detail1: 3, detail2: 1, text: "m"),
            .init("object:text-caret-moved", "12", detail1: 3),
        ]),
        Step("Tab", [
            .init("object:state-changed:focused", "12", detail1: 0),
            .init("object:state-changed:focused", "23", detail1: 1),
            .init("object:state-changed:focused", "23", detail1: 1),
        ]),
        Step("Tab", [
            .init("object:state-changed:focused", "23", detail1: 0),
            .init("object:state-changed:focused", "4", detail1: 1),
            .init("object:state-changed:focused", "6", detail1: 1),
        ]),
        Step("Right", [
            .init("object:state-changed:showing", "5", detail1: 0),
            .init("object:state-changed:showing", "7", detail1: 1),
            .init("object:state-changed:selected", "6", detail1: 0),
            .init("object:state-changed:selected", "8", detail1: 1),
            .init("object:state-changed:focused", "8", detail1: 1),
        ]),
    ]
}

/// The recorded sequence replayed against a FakeApplication built as the fixture is (GTK's paths,
/// roles, names and states, from the recorder's --tree), each step after the change GTK made in
/// itself, with the exact requests each step sends narratord.
@Suite struct BridgeRecordedTests {
    typealias Object = ATSPIMappingTests
    static let tree = "narrator-fixture: Narrator fixture"
    static let bus = ":1.12"
    static let page: ATSPIStates = Object.shown.union([.multiLine, .selectable])

    /// The fixture as GTK shows it before its window is given the focus.
    static let fixture = FakeApplication(name: "narrator-fixture", windows: [
        Object.object(21, .frame, "Narrator fixture", states: Object.shown.union(.resizable), children: [
            Object.object(1, .filler, states: Object.shown.union(.vertical), children: [
                Object.object(22, .pushButton, "Save", states: Object.shown.union([.focusable, .hasTooltip]), actions: ["click"], description: "Saves the story"),
                Object.object(2, .checkBox, "Remember me", states: Object.shown.union([.checked, .focusable]), actions: ["click"]),
                Object.object(3, .filler, states: Object.shown.union(.horizontal), children: [
                    Object.object(11, .label, "Name", states: Object.shown.union(.multiLine)),
                    Object.object(12, .text, states: Object.shown.union([.editable, .focusable, .singleLine]), actions: ["activate"], text: "Ada", labelledBy: [11]),
                ]),
                Object.object(23, .slider, "Volume", states: Object.shown.union([.focusable, .horizontal]),
                              value: ATSPIValue(current: 40, minimum: 0, maximum: 100, increment: 1), description: "40"),
                Object.object(4, .pageTabList, states: Object.shown.union(.focusable), children: [
                    Object.object(6, .pageTab, "General", states: page.union(.selected), children: [
                        Object.object(5, .pushButton, "General settings", states: Object.shown.union(.focusable), actions: ["click"]),
                    ]),
                    Object.object(8, .pageTab, "Advanced", states: page, children: [
                        Object.object(7, .pushButton, "Advanced settings", states: [.enabled, .focusable, .sensitive, .visible], actions: ["click"]),
                    ]),
                ]),
                Object.object(9, .pushButton, "Print", states: [.focusable, .showing, .visible], actions: ["click"]),
                Object.object(24, .infoBar, "Information", states: [.enabled, .horizontal, .sensitive], children: [
                    Object.object(13, .panel, states: [.enabled, .sensitive, .visible], children: [
                        Object.object(16, .filler, states: [.enabled, .horizontal, .sensitive, .visible], children: [
                            Object.object(17, .filler, states: [.enabled, .horizontal, .sensitive, .visible], children: [
                                Object.object(20, .label, "Story saved", states: [.enabled, .multiLine, .sensitive]),
                            ]),
                            Object.object(18, .filler, states: [.enabled, .horizontal, .sensitive, .visible]),
                            Object.object(19, .pushButton, states: [.enabled, .focusable, .sensitive], actions: ["click"]),
                        ]),
                    ]),
                ]),
                Object.object(10, .label, "Not saved", states: Object.shown.union(.multiLine)),
            ]),
        ]),
    ], bus: bus)

    static func path(_ number: Int) -> String { BridgeFixtures.path(number) }

    /// What GTK changed in itself at each step before sending its events (and before answering
    /// the bridge's questions about them), and what the bridge then sends narratord.
    static let script: [(key: String, change: @Sendable (inout FakeApplication) -> Void, sent: [RequestCommand])] = [
        ("windowfocus", { app in
            app.change(path(21)) { $0.states.insert(.active) }
            app.change(path(22)) { $0.states.insert(.focused) }
        }, [.focus(tree: tree, element: "22")]),
        ("Tab", { app in
            app.change(path(22)) { $0.states.remove(.focused) }
            app.change(path(2)) { $0.states.insert(.focused) }
        }, [.focus(tree: tree, element: "2")]),
        ("space", { app in app.change(path(2)) { $0.states.remove(.checked) } },
         [.set(tree, "2", #"{"value":"0"}"#, announce: true)]),
        // GTK selects the entry's text as it takes the focus, after the focus event.
        ("Tab", { app in
            app.change(path(2)) { $0.states.remove(.focused) }
            app.change(path(12)) {
                $0.states.insert(.focused)
                $0.selection = TextRange(location: 0, length: 3)
            }
        }, [.set(tree, "12", #"{"selectedTextRange":[0,3]}"#, announce: false), .focus(tree: tree, element: "12")]),
        // End: the selection goes, the caret stays at its end (no move event), said "unselected".
        ("End", { app in app.change(path(12)) { $0.selection = TextRange(location: 3, length: 0) } },
         [.update(tree: tree, update: .moveCaret(element: "12", range: TextRange(location: 3, length: 0), unit: nil), announce: true, notify: nil)]),
        // Each key one edit, from the event's own text; the caret's move after it says nothing more.
        ("m", { app in app.change(path(12)) { $0.text = "Adam"; $0.selection = TextRange(location: 4, length: 0) } },
         [.update(tree: tree, update: .editText(element: "12", range: TextRange(location: 3, length: 0), text: "m"), announce: true, notify: nil)]),
        ("BackSpace", { app in app.change(path(12)) { $0.text = "Ada"; $0.selection = TextRange(location: 3, length: 0) } },
         [.update(tree: tree, update: .editText(element: "12", range: TextRange(location: 3, length: 1), text: ""), announce: true, notify: nil)]),
        ("Tab", { app in
            app.change(path(12)) { $0.states.remove(.focused) }
            app.change(path(23)) { $0.states.insert(.focused) }
        }, [.focus(tree: tree, element: "23")]),
        // Through the tab list (no stop) to the chosen tab.
        ("Tab", { app in
            app.change(path(23)) { $0.states.remove(.focused) }
            app.change(path(6)) { $0.states.insert(.focused) }
        }, [.focus(tree: tree, element: "6")]),
        // The other tab chosen, its page shown: the tab left is not said, the new one is, by its focus.
        ("Right", { app in
            app.change(path(6)) { $0.states.subtract([.focused, .selected]) }
            app.change(path(8)) { $0.states.formUnion([.focused, .selected]) }
            app.change(path(5)) { $0.states.remove(.showing) }
            app.change(path(7)) { $0.states.insert(.showing) }
        }, [
            .set(tree, "6", #"{"traits":["tab"]}"#, announce: false),
            .set(tree, "8", #"{"traits":["selected","tab"]}"#, announce: true),
            .set(tree, "5", #"{"hidden":true}"#, announce: false),
            .set(tree, "7", #"{"hidden":null}"#, announce: false),
            .focus(tree: tree, element: "8"),
        ]),
    ]

    /// Feeds each recorded step, after GTK's change, and returns what each sent; `answerLate`
    /// holds every question until the step's last event (the application busy with its burst).
    static func replay(answerLate: Bool) throws -> (BridgeHarness, [[RequestCommand]]) {
        try #require(GTKRecording.steps.map(\.key) == script.map(\.key), "the recording's steps are the script's")
        var h = BridgeHarness(fixture)
        h.startMirrored()
        var sent: [[RequestCommand]] = []
        for (step, scripted) in zip(GTKRecording.steps, script) {
            var app = try #require(h.desktop[bus])
            scripted.change(&app)
            h.desktop[bus] = app
            if answerLate { h.holds = { _, _ in true } }
            for event in step.events {
                h.event(
                    event.type, bus, path(Int(event.number) ?? -1), detail1: event.detail1, detail2: event.detail2,
                    object: event.object.map { path(Int($0) ?? -1) }, text: event.text)
            }
            h.holds = { _, _ in false }
            h.release()
            h.advance(by: .milliseconds(200))
            sent.append(h.sent())
        }
        return (h, sent)
    }

    @Test("the fake is the fixture: mirrored with the stops the desktop test reads from the real one")
    func theFakeIsTheFixture() {
        var h = BridgeHarness(Self.fixture)
        h.start()
        #expect(h.sent() == [.hello(client: "narrator-atspi"), .subscribe, .register(Self.fixture.windows[0], application: "narrator-fixture")])
        let tree = AccessibilityTree(document: ATSPIMapping.document(window: Self.fixture.windows[0], application: "narrator-fixture"))
        #expect((0..<tree.stops.count).map { tree.utterance(atStop: $0).text } == [
            "Save, button", "Remember me, checked, check box", "Name, Ada, text field", "Volume, 40, adjustable",
            "selected, General, tab, 1 of 2", "Advanced, tab, 2 of 2", "General settings, button", "Print, button, dimmed", "Not saved",
        ])
    }

    @Test("GTK's recorded events, answered at once: each step sends exactly its focus move or its update")
    func theRecordingReplayed() throws {
        var (h, sent) = try Self.replay(answerLate: false)
        for (index, (got, scripted)) in zip(sent, Self.script).enumerated() {
            #expect(got == scripted.sent, "step \(index): \(scripted.key)")
        }
        #expect(h.said() == [])
        #expect(h.calls.isEmpty)
    }

    @Test("GTK's recorded events, each burst answered only after its last event: the same moves and updates, the chosen tab's quietly too")
    func theRecordingReplayedWithLateAnswers() throws {
        var (h, sent) = try Self.replay(answerLate: true)
        for (index, (got, scripted)) in zip(sent, Self.script).enumerated() {
            var expected = scripted.sent
            // Its read ends while the focus waits: what changed on the way to the focus is not said.
            if scripted.key == "Right" { expected[1] = .set(Self.tree, "8", #"{"traits":["selected","tab"]}"#, announce: false) }
            // The entry's caret and selection come as their events while its focus waits for its
            // read (quietly: the focus says the selection).
            if index == 3 {
                func caret(_ location: Int, _ length: Int) -> RequestCommand {
                    .update(tree: Self.tree, update: .moveCaret(element: "12", range: TextRange(location: location, length: length), unit: nil), announce: false, notify: nil)
                }
                expected = [caret(3, 0), caret(0, 3), .focus(tree: Self.tree, element: "12")]
            }
            #expect(got == expected, "step \(index): \(scripted.key)")
        }
        #expect(h.said() == [])
    }
}
