import Testing
@testable import NarratorCore

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

    @Test("a page of 600 items is registered with its first 100, then completed 250 items at a time, in order")
    func aLongPageIsMirroredAtOnceThenCompleted() throws {
        var h = BridgeHarness(Self.browser(items: 600))
        h.start()
        let sent = h.sent()
        #expect(sent.compactMap(\.registeredTree) == [Self.tree])
        #expect(sent.compactMap(Self.items(in:)) == [100, 350, 600])
        // The list ends as the page does: its last item.
        guard case .update(_, .replaceChildren(_, .array(let children)), _, _)? = sent.last else {
            Issue.record("the last update is not the list's children: \(String(describing: sent.last))")
            return
        }
        #expect(children.last?["label"]?.stringValue == "Item 599")
    }

    @Test("a change under one object of a page reads that part alone, not the browser")
    func aChangeReadsThePartAlone() throws {
        var h = BridgeHarness(Self.browser(items: 20))
        h.startMirrored()
        _ = h.reads()
        h.desktop[":1.4"]?.change("/org/a11y/atspi/accessible/\(Self.list)") { $0.children.append(Self.item(20)) }
        h.event("object:children-changed:add", ":1.4", "/org/a11y/atspi/accessible/\(Self.list)", detail1: 20, object: "/org/a11y/atspi/accessible/120")
        h.advance(by: .milliseconds(25))
        let reads = h.reads()
        #expect(reads.count == 1)
        #expect(reads.first?.requests.first == .role("/org/a11y/atspi/accessible/\(Self.list)"), "the list is read, not the application")
        #expect(!(reads.first?.requests.contains(.items) ?? true))
        #expect(h.sent().compactMap(Self.items(in:)) == [21])
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
}
