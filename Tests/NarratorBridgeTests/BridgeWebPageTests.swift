@testable import NarratorBridge
@testable import NarratorModel
@testable import NarratorProtocol
import Testing

/// A web page in a browser (Gecko's dialect: no cache, everything walked): a long one is mirrored
/// at once as its first part and completed after, a part at a time; a change under one of its
/// objects reads that part alone; a focus on what is not read yet waits for it.
@Suite struct BridgeWebPageTests {
    typealias Object = ATSPIMappingTests
    static let tree = "Firefox: Long page"
    static let list = 3

    /// Firefox's window holding a document whose list has `items` items (objects 100...).
    static func browser(items: Int) -> FakeApplication {
        let window = Object.object(
            1, .frame, "Long page", extents: Rect(x: 0, y: 0, width: 800, height: 600),
            children: [
                Object.object(2, .documentWeb, "Long page", states: Object.shown.union(.focusable), children: [
                    Object.object(list, .list, children: (0..<items).map(item))
                ])
            ])
        var application = FakeApplication(name: "Firefox", windows: [window], offersCache: false, bus: ":1.4")
        application.toolkit = ("Gecko", "115.0")
        return application
    }

    static func item(_ index: Int) -> AccessibleSnapshot {
        Object.object(100 + index, .listItem, "Item \(index)", states: Object.shown.union(.focusable))
    }

    /// How many items the list has in what narratord was sent: a registered document, or an
    /// update replacing the list's children.
    static func items(in command: RequestCommand) -> Int? {
        switch command {
        case .register(let document, _, _):
            guard let root = try? JSONParser().parse(document.bytes)["root"] else { return nil }
            func find(_ node: JSONValue) -> JSONValue? {
                if node["id"]?.stringValue == "\(list)" { return node }
                return node["children"]?.arrayValue?.lazy.compactMap(find).first
            }
            return find(root).map { $0["children"]?.arrayValue?.count ?? 0 }
        case .update(_, .replaceChildren(let element, .array(let children)), _, _) where element == "\(list)":
            return children.count
        default:
            return nil
        }
    }

    @Test("a page of 600 items is registered with its first 100, then read 250 items at a time and completed in one update once all are in")
    func aLongPageIsMirroredAtOnceThenCompleted() throws {
        var h = BridgeHarness(Self.browser(items: 600))
        h.start()
        let sent = h.sent()
        #expect(sent.compactMap(\.registeredTree) == [Self.tree])
        // (Each update compares the whole page with narratord's: one, not one per 250 items.)
        #expect(sent.compactMap(Self.items(in:)) == [100, 600])
        // The whole read, then the 500 left unread in two reads of 250.
        let reads = Set(h.asked.compactMap { if case .read(let id, _) = $0.question { id } else { nil } })
        #expect(reads.count == 3, "the rest was read in chunks: \(reads.count) reads")
        // The list ends as the page does: its last item.
        guard case .update(_, .replaceChildren(_, .array(let children)), _, _)? = sent.last else {
            Issue.record("the last update is not the list's children: \(String(describing: sent.last))")
            return
        }
        #expect(children.last?["label"]?.stringValue == "Item 599")
    }

    @Test("a change under one object of a page, its child not named, reads that part alone, not the browser")
    func aChangeReadsThePartAlone() throws {
        var h = BridgeHarness(Self.browser(items: 20))
        h.startMirrored()
        _ = h.reads()
        h.desktop[":1.4"]?.change("/org/a11y/atspi/accessible/\(Self.list)") { $0.children.append(Self.item(20)) }
        h.event("object:children-changed:add", ":1.4", "/org/a11y/atspi/accessible/\(Self.list)", detail1: 20)
        h.advance(by: .milliseconds(25))
        let reads = h.reads()
        #expect(reads.count == 1)
        #expect(reads.first?.requests.first == .role("/org/a11y/atspi/accessible/\(Self.list)"), "the list is read, not the application")
        #expect(!(reads.first?.requests.contains(.items) ?? true))
        #expect(h.sent().compactMap(Self.items(in:)) == [21])
    }

    @Test("a long page read again keeps the items past the first 100 until the rest is read anew: narratord is never told fewer, so that Narrator's focus on item 500 is not lost and said elsewhere")
    func aLongPageReadAgainKeepsItsRest() throws {
        var h = BridgeHarness(Self.browser(items: 600))
        h.start()
        #expect(h.sent().compactMap(Self.items(in:)) == [100, 600])
        _ = h.reads()
        // Something under the document changed (its child not named): the document is read again.
        h.event("object:children-changed:add", ":1.4", "/org/a11y/atspi/accessible/2", detail1: 1)
        h.advance(by: .milliseconds(25))
        #expect(h.reads().count == 3, "the document, then the list's rest in two parts")
        #expect(h.sent().compactMap(Self.items(in:)).allSatisfy { $0 == 600 }, "never fewer than the 600 items")
        #expect(Self.labels(h).count == 600)
        #expect(Self.labels(h).last == "Item 599")
    }

    @Test("a child added just after a key is told narratord once no key came for half a second, not while the keys go on: each telling compares the whole page")
    func aChildAddedWhileKeysComeIsToldWhenTheyStop() throws {
        var h = BridgeHarness(Self.browser(items: 3))
        h.startMirrored()
        _ = h.sent()
        let list = "/org/a11y/atspi/accessible/\(Self.list)"
        h.press(0xFF54)  // Down
        h.desktop[":1.4"]?.change(list) { $0.children.append(Self.item(3)) }
        h.event("object:children-changed:add:system", ":1.4", list, detail1: 3, object: "/org/a11y/atspi/accessible/103")
        h.advance(by: .milliseconds(300))
        #expect(h.sent().compactMap(Self.items(in:)) == [], "read, not told yet")
        h.press(0xFF54)
        h.advance(by: .milliseconds(400))
        #expect(h.sent().compactMap(Self.items(in:)) == [], "another key came: still waiting")
        h.advance(by: .milliseconds(100))
        #expect(h.sent().compactMap(Self.items(in:)) == [4])
        #expect(Self.labels(h).last == "Item 3")
    }

    /// The list's labels as narratord was last sent them, in order.
    static func labels(_ h: BridgeHarness) -> [String] {
        func find(_ node: Node) -> Node? { node.id == "\(list)" ? node : node.children.lazy.compactMap(find).first }
        guard let window = h.bridge.mirror.windows.values.first, let list = find(window.document.root) else { return [] }
        return list.children.compactMap(\.label)
    }

    @Test("a child a page adds is read alone, in its place, and one it takes out leaves with no read at all: Firefox's address bar, shown at each link focused beside a page of 10,000 objects, does not read the page again")
    func aChildAddedIsReadAloneAndOneRemovedIsNotRead() throws {
        var h = BridgeHarness(Self.browser(items: 3))
        h.startMirrored()
        _ = h.reads()
        _ = h.sent()
        let list = "/org/a11y/atspi/accessible/\(Self.list)"
        h.desktop[":1.4"]?.change(list) { $0.children.insert(Self.item(7), at: 1) }
        h.event("object:children-changed:add:system", ":1.4", list, detail1: 1, object: "/org/a11y/atspi/accessible/107")
        h.advance(by: .milliseconds(25))
        let reads = h.reads()
        #expect(reads.count == 1)
        #expect(reads.first?.requests.first == .role("/org/a11y/atspi/accessible/107"), "the new item is read, not its list")
        #expect(h.sent().compactMap(Self.items(in:)) == [4], "narratord told once, of the list's new children")
        #expect(Self.labels(h) == ["Item 0", "Item 7", "Item 1", "Item 2"])
        h.desktop[":1.4"]?.change(list) { $0.children.remove(at: 0) }
        h.event("object:children-changed:remove:system", ":1.4", list, detail1: 0, object: "/org/a11y/atspi/accessible/100")
        h.advance(by: .milliseconds(25))
        #expect(h.reads().isEmpty, "what was taken out is not read")
        #expect(h.sent().compactMap(Self.items(in:)) == [3])
        #expect(Self.labels(h) == ["Item 7", "Item 1", "Item 2"])
        #expect(h.bridge.applications[":1.4"]?.windowOf["/org/a11y/atspi/accessible/100"] == nil)
    }

    @Test("Tab to an item not read yet: its focus waits for the rest of the page, and is said once it is read")
    func aFocusOnWhatIsNotReadYetWaits() throws {
        var h = BridgeHarness(Self.browser(items: 400))
        // The rest of the page is slow to come: its reads (of items past the first 100) are held.
        h.holds = { _, question in
            guard case .read(_, let request) = question, let number = Int(request.path.split(separator: "/").last ?? "") else { return false }
            return number >= 200
        }
        h.start()
        #expect(h.sent().compactMap(Self.items(in:)) == [100])
        _ = h.reads()
        h.focus(":1.4", "/org/a11y/atspi/accessible/450")
        #expect(h.sent().isEmpty, "not said before it is read")
        #expect(h.reads().allSatisfy { $0.requests.first != .items }, "no whole read of the browser for it")
        h.holds = { _, _ in false }
        h.release()
        let sent = h.sent()
        #expect(sent.compactMap(Self.items(in:)) == [350, 400])
        #expect(sent.last == .focus(tree: Self.tree, element: "450"))
    }

    @Test("a heading named while its page's part is being read keeps its name when that older read answers last")
    func anOlderPartReadKeepsANewerName() throws {
        var h = BridgeHarness(Self.browser(items: 3))
        let heading = "/org/a11y/atspi/accessible/9"
        h.desktop[":1.4"]?.change("/org/a11y/atspi/accessible/2") { $0.children.insert(Object.object(9, .heading, "", states: Object.shown), at: 0) }
        h.startMirrored()
        _ = h.reads()
        // The page loads: its document's part is read, slowly (its answers held)...
        h.holds = { _, _ in true }
        h.event("document:load-complete", ":1.4", "/org/a11y/atspi/accessible/2")
        h.advance(by: .milliseconds(25))
        let part = try #require(h.reads().first?.id)
        // ...and meanwhile the heading gets its name, read alone and answered at once.
        h.holds = { _, question in if case .read(let id, _) = question { return id == part } else { return false } }
        h.desktop[":1.4"]?.change(heading) { $0.name = "Welcome" }
        h.event("object:property-change:accessible-name", ":1.4", heading)
        // The part read answers last, with the heading as it was when it asked.
        h.desktop[":1.4"]?.change(heading) { $0.name = "" }
        h.holds = { _, _ in false }
        h.release()
        #expect(h.reads().contains { $0.id == part } == false && h.held.isEmpty)
        h.desktop[":1.4"]?.change(heading) { $0.name = "Welcome" }
        #expect(!h.sent().isEmpty)
        let document = try #require(h.bridge.mirror.windows.values.first?.document)
        func label(_ node: Node) -> String?? {
            if node.id == "9" { return .some(node.label) }
            return node.children.lazy.compactMap(label).first
        }
        #expect(label(document.root) == .some("Welcome"))
    }

    static let document = "/org/a11y/atspi/accessible/2", heading = "/org/a11y/atspi/accessible/9"
    /// The heading's name, sent as a change the user hears.
    static let headingNamed = RequestCommand.update(
        tree: tree, update: .setProperties(element: "9", properties: .object(JSONObject(["label": "Welcome"]))), announce: true, notify: nil)

    /// A page whose first object is a heading Firefox has not named yet (object 9), mirrored, and
    /// the page focused: Narrator's focus entered on the heading (the test reads what was sent).
    static func enteredOnNamelessHeading() -> BridgeHarness {
        var h = BridgeHarness(browser(items: 3))
        h.desktop[":1.4"]?.change(document) { $0.children.insert(Object.object(9, .heading, "", states: Object.shown), at: 0) }
        h.startMirrored()
        h.focus(":1.4", document)
        return h
    }

    @Test("a heading named after the page was entered on it is said, though the page's focus comes again meanwhile")
    func aNameForTheFocusIsSaidThoughTheFocusComesAgain() throws {
        var h = Self.enteredOnNamelessHeading()
        let document = Self.document, heading = Self.heading
        #expect(h.sent() == [.focus(tree: Self.tree, element: "9")], "entered on its first stop, the heading")
        // Firefox names the heading, and focuses the page again while the heading is read.
        h.holds = { _, _ in true }
        h.desktop[":1.4"]?.change(heading) { $0.name = "Welcome" }
        h.event("object:property-change:accessible-name", ":1.4", heading)
        h.focus(":1.4", document)
        h.holds = { _, _ in false }
        h.release()
        let sent = h.sent()
        #expect(sent.contains(Self.headingNamed), "\(sent)")
    }

    @Test("a focus that waits is replaced by the next: the page's blank document focused before it does not quiet the heading's name")
    func aLaterFocusReplacesOneThatWaits() throws {
        var h = Self.enteredOnNamelessHeading()
        let document = Self.document, heading = Self.heading
        #expect(h.sent() == [.focus(tree: Self.tree, element: "9")])
        // The blank document Firefox focused first (never read: gone), then the page again, and
        // the heading named, all while the read these bring is slow to answer.
        h.holds = { _, _ in true }
        h.focus(":1.4", "/org/a11y/atspi/accessible/777")
        h.focus(":1.4", document)
        h.desktop[":1.4"]?.change(heading) { $0.name = "Welcome" }
        h.event("object:property-change:accessible-name", ":1.4", heading)
        h.holds = { _, _ in false }
        h.release()
        h.advance(by: .milliseconds(100))
        let sent = h.sent()
        #expect(sent.contains(Self.headingNamed), "\(sent)")
    }
}
