@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// The bridge's decisions on a virtual desktop: windows that come, change and go; the
/// application's focus; and narratord's actions carried back to the application.
@Suite struct ATSPIMirrorTests {
    typealias Object = ATSPIMappingTests
    static let zenity = ATSPIMirror.WindowID(application: ":1.7", path: "/org/a11y/atspi/accessible/8")

    static func question(yesLabel: String = "Yes", extraButton: Bool = false) -> AccessibleSnapshot {
        var buttons = [
            Object.object(7, .pushButton, "No", actions: ["click"]),
            Object.object(9, .pushButton, yesLabel, actions: ["click"]),
        ]
        if extraButton { buttons.append(Object.object(10, .pushButton, "Help", actions: ["click"])) }
        return Object.object(8, .dialog, "Question", children: [Object.object(3, .label, "Delete photo?"), Object.object(6, .filler, children: buttons)])
    }

    @Test("a new window is registered; a changed one is updated element by element; a closed one goes")
    func windowsComeChangeAndGo() throws {
        var mirror = ATSPIMirror()
        let registered = mirror.windowRead(Self.zenity, application: "zenity", snapshot: Self.question())
        guard case .register(let document)? = registered.first, registered.count == 1 else { Issue.record("\(registered)"); return }
        #expect(document.name == "zenity: Question")
        #expect(mirror.trees == [Self.zenity: "zenity: Question"])

        // Reading the same window again changes nothing.
        #expect(mirror.windowRead(Self.zenity, application: "zenity", snapshot: Self.question()) == [])
        // A renamed button is one property set.
        #expect(mirror.windowRead(Self.zenity, application: "zenity", snapshot: Self.question(yesLabel: "Delete")) == [
            .update(tree: "zenity: Question", .setProperties(element: "9", properties: .object(JSONObject(["label": "Delete"]))), announce: true),
        ])
        // A button more is the container's children replaced.
        let added = mirror.windowRead(Self.zenity, application: "zenity", snapshot: Self.question(yesLabel: "Delete", extraButton: true))
        guard case .update(_, .replaceChildren(let element, let children), announce: false)? = added.first, added.count == 1 else { Issue.record("\(added)"); return }
        #expect(element == "6")
        #expect(children.arrayValue?.count == 3)

        #expect(mirror.windowGone(Self.zenity) == [.unregister(tree: "zenity: Question")])
        #expect(mirror.windowGone(Self.zenity) == [])
    }

    /// A window with a tab list (General chosen, or Advanced), a radio group (Small chosen, or
    /// Large) and a check box.
    static func choices(advanced: Bool = false, large: Bool = false, remember: Bool = true, generalName: String = "General") -> AccessibleSnapshot {
        let selectable = Object.shown.union([.selectable, .focusable])
        let checkable = Object.shown.union(.focusable)
        return Object.object(
            1, .frame, "Settings",
            children: [
                Object.object(
                    2, .pageTabList,
                    children: [
                        Object.object(3, .pageTab, generalName, states: advanced ? selectable : selectable.union(.selected)),
                        Object.object(4, .pageTab, "Advanced", states: advanced ? selectable.union(.selected) : selectable),
                    ]),
                Object.object(5, .radioButton, "Small", states: large ? checkable : checkable.union(.checked), actions: ["click"]),
                Object.object(6, .radioButton, "Large", states: large ? checkable.union(.checked) : checkable, actions: ["click"]),
                Object.object(7, .checkBox, "Remember me", states: remember ? checkable.union(.checked) : checkable, actions: ["click"]),
            ])
    }

    @Test("the choice of a tab list or radio group moving on is said by the new choice's focus, not by the old one's")
    func choiceMovesQuietly() throws {
        var mirror = ATSPIMirror()
        let window = ATSPIMirror.WindowID(application: ":1.4", path: "/org/a11y/atspi/accessible/1")
        _ = mirror.windowRead(window, application: "app", snapshot: Self.choices())
        func announced(_ effects: [ATSPIMirror.Effect]) -> [String: Bool] {
            var flags: [String: Bool] = [:]
            for case .update(_, .setProperties(let element, _), let announce) in effects { flags[element] = announce }
            return flags
        }
        // Right in the tab list: General gives up "selected" (heard before the focus moves, on a
        // busy machine) and is not spoken again; Advanced gains it.
        #expect(announced(mirror.windowRead(window, application: "app", snapshot: Self.choices(advanced: true))) == ["3": false, "4": true])
        // Down in the radio group: Small unchecked quietly, Large checked.
        #expect(announced(mirror.windowRead(window, application: "app", snapshot: Self.choices(advanced: true, large: true))) == ["5": false, "6": true])
        // A check box unchecked is news: nothing else takes its place.
        #expect(announced(mirror.windowRead(window, application: "app", snapshot: Self.choices(advanced: true, large: true, remember: false))) == ["7": true])
        // A tab chosen again is news, and so is a tab renamed as it loses the choice.
        #expect(announced(mirror.windowRead(window, application: "app", snapshot: Self.choices(large: true, remember: false))) == ["3": true, "4": false])
        #expect(announced(mirror.windowRead(window, application: "app", snapshot: Self.choices(advanced: true, large: true, remember: false, generalName: "Basic"))) == ["3": true, "4": true])
    }

    @Test("two windows of one name get two trees; an application that leaves takes all its trees")
    func namesAndApplications() {
        var mirror = ATSPIMirror()
        let second = ATSPIMirror.WindowID(application: ":1.7", path: "/org/a11y/atspi/accessible/20")
        _ = mirror.windowRead(Self.zenity, application: "zenity", snapshot: Self.question())
        var other = Self.question()
        other.path = second.path
        _ = mirror.windowRead(second, application: "zenity", snapshot: other)
        #expect(Set(mirror.trees.values) == ["zenity: Question", "zenity: Question (2)"])
        // In the order of the windows' paths ("/…/20" before "/…/8").
        #expect(mirror.applicationGone(":1.7") == [.unregister(tree: "zenity: Question (2)"), .unregister(tree: "zenity: Question")])
        #expect(mirror.trees.isEmpty)
    }

    @Test("Narrator's focus follows the application's, once per move, and only to stops")
    func focusFollows() {
        var mirror = ATSPIMirror()
        _ = mirror.windowRead(Self.zenity, application: "zenity", snapshot: Self.question())
        let yes = "/org/a11y/atspi/accessible/9"
        #expect(mirror.focusMoved(Self.zenity, path: yes) == [.focus(tree: "zenity: Question", element: "9")])
        // GTK sends the focus event twice.
        #expect(mirror.focusMoved(Self.zenity, path: yes) == [])
        // The filler is no stop; an unknown window is none of ours.
        #expect(mirror.focusMoved(Self.zenity, path: "/org/a11y/atspi/accessible/6") == [])
        #expect(mirror.focusMoved(ATSPIMirror.WindowID(application: ":1.9", path: "/x"), path: yes) == [])
        #expect(mirror.focusMoved(Self.zenity, path: "/org/a11y/atspi/accessible/7") == [.focus(tree: "zenity: Question", element: "7")])
    }

    @Test("a window that becomes active takes Narrator's focus into its tree, on what the application focused")
    func activeWindow() {
        var mirror = ATSPIMirror()
        var snapshot = Self.question()
        snapshot.children[1].children[1].states.insert(.focused)
        _ = mirror.windowRead(Self.zenity, application: "zenity", snapshot: snapshot)
        #expect(mirror.windowActivated(Self.zenity) == [.focus(tree: "zenity: Question", element: "9")])
        // Its focus event, which GTK sends too, says nothing more.
        #expect(mirror.focusMoved(Self.zenity, path: "/org/a11y/atspi/accessible/9") == [])
        var unfocused = ATSPIMirror()
        _ = unfocused.windowRead(Self.zenity, application: "zenity", snapshot: Self.question())
        // Nothing focused yet: the focus event that follows enters the tree, once.
        #expect(unfocused.windowActivated(Self.zenity) == [])
        #expect(unfocused.focusMoved(Self.zenity, path: "/org/a11y/atspi/accessible/9") == [.focus(tree: "zenity: Question", element: "9")])
        #expect(unfocused.activationSettled(Self.zenity) == [])
        // No focus event at all: once the moment passes, Narrator enters the tree where it can.
        var silent = ATSPIMirror()
        _ = silent.windowRead(Self.zenity, application: "zenity", snapshot: Self.question())
        #expect(silent.windowActivated(Self.zenity) == [])
        #expect(silent.activationSettled(Self.zenity) == [.focus(tree: "zenity: Question", element: nil)])
        #expect(silent.activationSettled(Self.zenity) == [])
        #expect(unfocused.windowActivated(ATSPIMirror.WindowID(application: ":9", path: "/x")) == [])
    }

    @Test("narratord's actions become the application's: activate is the default action")
    func actionsGoBack() {
        var mirror = ATSPIMirror()
        let window = ATSPIMirror.WindowID(application: ":1.3", path: "/org/a11y/atspi/accessible/1")
        let snapshot = Object.object(
            1, .frame, "W",
            children: [
                Object.object(2, .pushButton, "Save", actions: ["click"]),
                Object.object(3, .spinButton, "Copies", actions: ["SetFocus", "Increase", "Decrease"]),
                Object.object(4, .treeItem, "Photos", actions: ["activate", "expand or contract"]),
                Object.object(5, .slider, "Volume", value: ATSPIValue(current: 40, minimum: 0, maximum: 100, increment: 1)),
            ])
        _ = mirror.windowRead(window, application: "app", snapshot: snapshot)
        #expect(mirror.ownerAction(tree: "app: W", element: "2", action: "activate") == [.perform(window, path: "/org/a11y/atspi/accessible/2", action: "click")])
        #expect(mirror.ownerAction(tree: "app: W", element: "3", action: "increment") == [.perform(window, path: "/org/a11y/atspi/accessible/3", action: "Increase")])
        #expect(mirror.ownerAction(tree: "app: W", element: "4", action: "expand or contract") == [
            .perform(window, path: "/org/a11y/atspi/accessible/4", action: "expand or contract"),
        ])
        // Without an action of its own, activating focuses it in the application.
        #expect(mirror.ownerAction(tree: "app: W", element: "5", action: "activate") == [.grabFocus(window, path: "/org/a11y/atspi/accessible/5")])
        #expect(mirror.ownerAction(tree: "app: W", element: "2", action: "no such action") == [])
        #expect(mirror.ownerAction(tree: "elsewhere", element: "2", action: "activate") == [])
        #expect(mirror.ownerValue(tree: "app: W", element: "5", value: 41) == [.setValue(window, path: "/org/a11y/atspi/accessible/5", value: 41)])
    }
    @Test("an alert, notification or info bar coming on show is announced once, with its texts")
    func alertsAreAnnounced() {
        var mirror = ATSPIMirror()
        let window = ATSPIMirror.WindowID(application: ":1.3", path: "/org/a11y/atspi/accessible/1")
        func editor(bar shown: Bool, text: String = "Story saved") -> AccessibleSnapshot {
            let states: ATSPIStates = shown ? Object.shown : [.enabled, .visible]
            return Object.object(1, .frame, "Editor", children: [
                Object.object(2, .infoBar, states: states, children: [Object.object(3, .label, text, states: states), Object.object(4, .pushButton, "Undo", states: states)]),
                Object.object(5, .pushButton, "Save", actions: ["click"]),
            ])
        }
        let first = mirror.windowRead(window, application: "editor", snapshot: editor(bar: false))
        #expect(first.count == 1, "a hidden bar says nothing: \(first)")
        let shown = mirror.windowRead(window, application: "editor", snapshot: editor(bar: true))
        #expect(shown.contains(.announce(tree: "editor: Editor", element: "2", text: "Story saved")), "\(shown)")
        // Still on show: not again; a new text in the same bar is an update, not an alert.
        #expect(!mirror.windowRead(window, application: "editor", snapshot: editor(bar: true)).contains { if case .announce = $0 { true } else { false } })
        // Hidden and shown again: announced again.
        _ = mirror.windowRead(window, application: "editor", snapshot: editor(bar: false))
        #expect(mirror.windowRead(window, application: "editor", snapshot: editor(bar: true, text: "Story saved again")).contains(
            .announce(tree: "editor: Editor", element: "2", text: "Story saved again")))
        // A window that is itself an alert is announced as it opens, with its title.
        let alert = Object.object(8, .alert, "Warning", children: [Object.object(9, .label, "Disk almost full"), Object.object(10, .pushButton, "OK", actions: ["click"])])
        let opened = mirror.windowRead(Self.zenity, application: "zenity", snapshot: alert)
        #expect(opened.last == .announce(tree: "zenity: Warning", element: "8", text: "Warning, Disk almost full"), "\(opened)")
    }

    @Test("a page named as it loads: the heading the focus entered on nameless is said again once named, with the page's title first (the title set on the tree's root with a screen change, not the page registered whole again); a title the script sets later is set alone")
    func aHeadingNamedAfterTheEntryIsSaidAgain() throws {
        let firefox = ATSPIMirror.WindowID(application: ":1.4", path: "/org/a11y/atspi/accessible/1")
        func page(loaded: Bool) -> AccessibleSnapshot {
            Object.object(1, .frame, loaded ? "Welcome page — Mozilla Firefox" : "Mozilla Firefox", children: [
                Object.object(2, .documentWeb, loaded ? "Welcome page" : "", states: Object.shown.union([.focusable, .focused]), children: [
                    Object.object(3, .heading, loaded ? "Welcome" : ""),
                    Object.object(4, .link, "Read on", states: Object.shown.union(.focusable)),
                ])
            ])
        }
        var mirror = ATSPIMirror()
        let registered = mirror.windowRead(firefox, application: "Firefox", snapshot: page(loaded: false), dialect: .gecko)
        guard case .register(let document)? = registered.first else { Issue.record("\(registered)"); return }
        // The page takes the focus: Narrator enters it on its first stop, the heading.
        #expect(mirror.focusMoved(firefox, path: "/org/a11y/atspi/accessible/2") == [.focus(tree: document.name, element: "3")])
        let loaded = mirror.windowRead(firefox, application: "Firefox", snapshot: page(loaded: true), dialect: .gecko)
        // The page's title came just after the entry: the heading, named now, is said again with
        // the title first (the title set on the tree's root with a screen change), not the page
        // registered whole again; what changed in it goes unannounced before.
        #expect(loaded.last == .enterPage(tree: document.name, root: "1", title: "Welcome page — Mozilla Firefox", element: "3"), "\(loaded)")
        #expect(!loaded.contains { if case .register = $0 { true } else { false } }, "\(loaded)")
        #expect(loaded.dropLast().allSatisfy { if case .update(_, _, announce: false) = $0 { true } else { false } }, "\(loaded)")
        #expect(mirror.title(of: document.name) == "Welcome page — Mozilla Firefox")
        // The script renames the page later: the tree's title alone, nothing said.
        var renamed = page(loaded: true)
        renamed.name = "Sent — Mozilla Firefox"
        // (The root, no stop, is labelled with the window's name too.)
        #expect(mirror.windowRead(firefox, application: "Firefox", snapshot: renamed, dialect: .gecko) == [
            .update(tree: document.name, .retitle(element: "1", title: "Sent — Mozilla Firefox"), announce: false),
            .update(tree: document.name, .setProperties(element: "1", properties: .object(JSONObject(["label": "Sent — Mozilla Firefox"]))), announce: true),
        ])
        // Read again unchanged: nothing more.
        #expect(mirror.windowRead(firefox, application: "Firefox", snapshot: renamed, dialect: .gecko) == [])
    }
    @Test("a page loaded in a window Narrator already entered (on the toolbar, before the page came) is entered with its new title first; a focus back on the page under the same title is a plain focus")
    func aPageEnteredUnderANewTitleSaysIt() throws {
        let firefox = ATSPIMirror.WindowID(application: ":1.4", path: "/org/a11y/atspi/accessible/1")
        func window(title: String) -> AccessibleSnapshot {
            Object.object(1, .frame, title, children: [
                Object.object(5, .pushButton, "Reload", states: Object.shown.union(.focusable), actions: ["press"]),
                Object.object(2, .documentWeb, "Welcome page", states: Object.shown.union(.focusable), children: [
                    Object.object(3, .heading, "Welcome"),
                ]),
            ])
        }
        var mirror = ATSPIMirror()
        guard case .register(let document)? = mirror.windowRead(firefox, application: "Firefox", snapshot: window(title: "Mozilla Firefox"), dialect: .gecko).first else {
            Issue.record("not registered"); return
        }
        #expect(mirror.focusMoved(firefox, path: "/org/a11y/atspi/accessible/5") == [.focus(tree: document.name, element: "5")])
        // The page's title comes before the page takes the focus: nothing said for it alone.
        #expect(mirror.windowRead(firefox, application: "Firefox", snapshot: window(title: "Welcome page — Mozilla Firefox"), dialect: .gecko).first
            == .update(tree: document.name, .retitle(element: "1", title: "Welcome page — Mozilla Firefox"), announce: false))
        #expect(mirror.focusMoved(firefox, path: "/org/a11y/atspi/accessible/2")
            == [.enterPage(tree: document.name, root: "1", title: "Welcome page — Mozilla Firefox", element: "3")])
        #expect(mirror.focusMoved(firefox, path: "/org/a11y/atspi/accessible/5") == [.focus(tree: document.name, element: "5")])
        #expect(mirror.focusMoved(firefox, path: "/org/a11y/atspi/accessible/2") == [.focus(tree: document.name, element: "3")])
    }
}
