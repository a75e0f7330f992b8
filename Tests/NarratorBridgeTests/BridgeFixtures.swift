@testable import NarratorBridge
@testable import NarratorModel

/// The desktop the bridge's scenarios run on: the GTK fixture's window and zenity's question,
/// with the names of their trees, and the objects scenarios add to them.
enum BridgeFixtures {
    typealias Object = ATSPIMappingTests

    /// The fixture (ATSPIMappingTests.window: objects 1 to 16) at ":1.9".
    static let fixture = FakeApplication(name: "fixture", windows: [Object.window], bus: ":1.9")
    /// zenity's question (ATSPIMirrorTests.question: the dialog 8, its buttons No 7 and Yes 9) at ":1.7".
    static let dialog = FakeApplication(name: "zenity", windows: [ATSPIMirrorTests.question()], bus: ":1.7")
    static let tree = "fixture: Narrator fixture"
    static let question = "zenity: Question"

    static func path(_ number: Int) -> String { "/org/a11y/atspi/accessible/\(number)" }

    /// A push button that can take the focus.
    static func button(_ number: Int, _ name: String, focused: Bool = false) -> AccessibleSnapshot {
        var states = Object.shown.union(.focusable)
        if focused { states.insert(.focused) }
        return Object.object(number, .pushButton, name, states: states, actions: ["click"])
    }
}

extension AccessibleSnapshot {
    /// Changes the object at `path` in this tree.
    mutating func change(_ path: String, _ change: (inout AccessibleSnapshot) -> Void) {
        if self.path == path {
            change(&self)
            return
        }
        for index in children.indices { children[index].change(path, change) }
    }
}

extension FakeApplication {
    /// Changes the object at `path` in one of its windows, as the application changes itself.
    mutating func change(_ path: String, _ change: (inout AccessibleSnapshot) -> Void) {
        for index in windows.indices { windows[index].change(path, change) }
    }
}
