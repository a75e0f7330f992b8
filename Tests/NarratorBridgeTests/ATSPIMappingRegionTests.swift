@testable import NarratorBridge
@testable import NarratorModel
import Testing
@testable import NarratorDBus

/// A web page's regions as Gecko exposes them (roles, `xml-roles` and `live` attributes, the
/// visited state) mapped to what the structure rotors reach; a toolkit's own lists are no page's.
@Suite struct ATSPIMappingRegionTests {
    typealias T = ATSPIMappingTests

    static func with(_ snapshot: AccessibleSnapshot, xmlRoles: String? = nil, live: String? = nil) -> AccessibleSnapshot {
        var copy = snapshot
        copy.xmlRoles = xmlRoles
        copy.live = live
        return copy
    }

    static let page = T.object(1, .documentWeb, "Page", children: [
        with(T.object(2, .landmark, "Site", children: [
            T.object(3, .link, "Home", states: T.shown.union([.visited, .focusable]), actions: ["jump"]),
            T.object(4, .link, "News", states: T.shown.union([.focusable]), actions: ["jump"]),
        ]), xmlRoles: "navigation"),
        with(T.object(5, .section, children: [T.object(6, .paragraph, text: "Unnamed section")]), xmlRoles: "region"),
        with(T.object(7, .form, children: [T.object(8, .pushButton, "Send", actions: ["press"])]), xmlRoles: "form"),
        T.object(9, .list, children: [T.object(10, .listItem, text: "One"), T.object(11, .listItem, text: "Two")]),
        T.object(12, .blockQuote, children: [T.object(13, .paragraph, text: "Fair winds.")]),
        with(T.object(14, .section, children: [T.object(15, .paragraph, text: "3 boats")]), live: "polite"),
        with(T.object(16, .landmark, children: [T.object(17, .paragraph, text: "Main text")]), xmlRoles: "main"),
    ])

    func tree(_ page: AccessibleSnapshot) -> AccessibilityTree {
        AccessibilityTree(document: ATSPIMapping.document(window: T.object(99, .frame, "W", children: [page]), application: "a"))
    }

    @Test("a page's landmarks, lists, block quotes, live regions, paragraphs and visited links are marked for their rotors")
    func regionsAreMarked() throws {
        let tree = tree(Self.page)
        #expect(tree.node("2")?.landmark == .navigation)
        #expect(tree.node("2")?.label == "Site")
        #expect(tree.node("16")?.landmark == .main)
        // A section or a form without a name is no landmark.
        #expect(tree.node("5")?.landmark == nil)
        #expect(tree.node("7")?.landmark == nil)
        #expect(tree.node("9")?.listSize == 2)
        #expect(tree.node("12")?.block == .blockQuote)
        #expect(tree.node("13")?.block == .paragraph)
        #expect(tree.node("14")?.live == .polite)
        #expect(tree.node("3")?.traits.contains(.visited) == true)
        #expect(tree.node("4")?.traits.contains(.visited) == false)
        #expect(tree.utterance(atStop: 0).text == "Home, visited link")
    }

    @Test("a named form or region is a landmark; a landmark without a known kind is a region")
    func namedFormsAndRegions() {
        #expect(ATSPIMapping.landmark(of: Self.with(T.object(1, .form, "Entry"), xmlRoles: "form")) == .form)
        #expect(ATSPIMapping.landmark(of: Self.with(T.object(1, .section, "Results"), xmlRoles: "region")) == .region)
        #expect(ATSPIMapping.landmark(of: Self.with(T.object(1, .landmark), xmlRoles: "search")) == .search)
        #expect(ATSPIMapping.landmark(of: T.object(1, .landmark)) == .region)
        #expect(ATSPIMapping.landmark(of: Self.with(T.object(1, .section), xmlRoles: "note")) == nil)
    }

    @Test("a toolkit's list outside a page is no list to jump to")
    func widgetListsAreNoRegions() {
        let window = T.object(1, .frame, "W", children: [T.object(2, .list, children: [T.object(3, .listItem, "Row")])])
        let tree = AccessibilityTree(document: ATSPIMapping.document(window: window, application: "a"))
        #expect(tree.node("2")?.listSize == nil)
    }

    @Test("the read takes a landmark's ARIA roles and a live region's setting from its attributes")
    func attributesAreRead() {
        let value = DBusValue.array([
            .structure([.string("xml-roles"), .string("navigation")]), .structure([.string("live"), .string("polite")]),
        ])
        let read = ATSPIApplicationRead.attributes(value)
        #expect(read.xmlRoles == "navigation" && read.live == "polite" && read.level == nil)
    }
}
