@testable import NarratorModel
import Testing

/// A page's landmarks, lists, live regions, paragraphs, block quotes and visited links: the
/// structure rotors Orca's U, V, L, M, D, P and Q keys turn, what each says first, and the
/// landmarks said as the cursor enters and leaves them.
@Suite struct PageRegionTests {
    static let page = """
        {"tree": "page", "root": {"id": "root", "children": [
          {"id": "nav", "landmark": "navigation", "label": "Site", "children": [
            {"id": "home", "label": "Home", "traits": ["link", "visited"]},
            {"id": "news", "label": "News", "traits": ["link"]}
          ]},
          {"id": "main", "landmark": "main", "children": [
            {"id": "h1", "label": "Regatta", "traits": ["header"], "headingLevel": 1},
            {"id": "p1", "label": "Boats race on Saturday.", "traits": ["staticText"], "block": "paragraph"},
            {"id": "list", "list": 2, "children": [
              {"id": "i1", "label": "Dinghies", "traits": ["listItem"]},
              {"id": "i2", "children": [
                {"id": "i2t", "label": "Keelboats", "traits": ["staticText"]},
                {"id": "inner", "list": 1, "children": [{"id": "n1", "label": "Solo", "traits": ["listItem"]}]}
              ]}
            ]},
            {"id": "quote", "block": "blockQuote", "children": [
              {"id": "q1", "label": "Fair winds.", "traits": ["staticText"], "block": "paragraph"}
            ]},
            {"id": "status", "live": "polite", "children": [{"id": "s1", "label": "3 boats entered", "traits": ["staticText"]}]},
            {"id": "one", "list": 1, "children": [{"id": "o1", "label": "Only", "traits": ["listItem"]}]}
          ]},
          {"id": "foot", "label": "Contact", "traits": ["link"]}
        ]}}
        """

    func workspace(at element: String) throws -> Workspace {
        var w = Workspace()
        w.register(try decode(Self.page))
        _ = try w.focus(tree: "page", element: element)
        return w
    }

    func said(_ w: inout Workspace, _ rotor: String, _ direction: Workspace.Move = .next) throws -> String {
        guard case .moved(let outcome) = try w.rotor(rotor, direction) else { return "no move" }
        return outcome.spokenText
    }

    @Test func eachRegionRotorHoldsItsRegionsAndLinksByVisit() throws {
        let w = try workspace(at: "home")
        let rotors = Dictionary(uniqueKeysWithValues: try w.rotors().map { ($0.name, $0.items) })
        #expect(rotors["visited-links"] == ["home"])
        #expect(rotors["unvisited-links"] == ["news", "foot"])
        #expect(rotors["lists"] == ["list", "inner", "one"])
        #expect(rotors["landmarks"] == ["nav", "main"])
        #expect(rotors["live-regions"] == ["status"])
        #expect(rotors["paragraphs"] == ["p1", "q1"])
        #expect(rotors["block-quotes"] == ["quote"])
    }

    /// A bad value is refused with its path and the values allowed; the properties read back as written.
    @Test func badRegionValuesAreRefused() throws {
        func node(_ properties: String) -> String { #"{"tree": "t", "root": {"id": "r", "children": [{"id": "a", "label": "A", "# + properties + "}]}}" }
        #expect(problems(node(#""landmark": "navigaton""#)) == [
            #"root.children[0].landmark: unknown landmark "navigaton"; did you mean "navigation"? expected one of banner, navigation, main, complementary, contentinfo, region, form, search"#,
        ])
        #expect(problems(node(#""list": -1"#)) == ["root.children[0].list: expected a list's number of items, a whole number not negative, got -1"])
        #expect(problems(node(#""list": 2.5"#)).count == 1)
        #expect(problems(node(#""live": "rude""#)).first?.hasPrefix(#"root.children[0].live: unknown live setting "rude""#) == true)
        #expect(problems(node(#""block": "para""#)).first?.contains("expected one of paragraph, blockQuote") == true)
        #expect(problems(node(#""traits": ["link", "visted"]"#)).first?.contains(#"did you mean "visited"?"#) == true)
        let document = try decode(node(#""landmark": "search", "list": 3, "live": "assertive", "block": "blockQuote""#))
        let again = try TreeDocumentDecoder().decode(TreeDocumentEncoder.json(document))
        #expect(again.root == document.root)
        #expect(document.root.children.first?.landmark == .search && document.root.children.first?.listSize == 3)
    }

    /// Before a link was visited the unvisited ones are the links again, and are not listed; U
    /// turns them all the same.
    @Test func linksByVisitAreListedOnceOneWasVisited() throws {
        var w = Workspace()
        w.register(try decode(#"{"tree": "t", "root": {"id": "r", "children": [{"id": "a", "label": "A", "traits": ["link"]}, {"id": "b", "label": "B", "traits": ["link"]}]}}"#))
        _ = try w.focus(tree: "t", element: "a")
        #expect(try w.rotors().map(\.name) == ["links"])
        #expect(try said(&w, "unvisited-links") == "B, link")
        #expect(throws: NarratorError.unknownRotor("visited-links", available: ["links"])) { try w.rotor("visited-links", .next) }
    }

    @Test func aVisitedLinkSaysSo() throws {
        var w = try workspace(at: "news")
        #expect(try said(&w, "visited-links") == "wrapped to top, Home, visited link")
        #expect(try said(&w, "unvisited-links") == "News, link")
    }

    @Test func listsSayTheirSizeAndBlockQuotesTheirRole() throws {
        var w = try workspace(at: "h1")
        #expect(try said(&w, "lists") == "List with 2 items, Dinghies, list item")
        #expect(try said(&w, "lists") == "Nested list with 1 item, Solo, list item")
        #expect(try said(&w, "lists") == "List with 1 item, Only, list item")
        #expect(try said(&w, "lists") == "wrapped to top, List with 2 items, Dinghies, list item")
        #expect(try said(&w, "block-quotes") == "block quote, Fair winds.")
        #expect(try said(&w, "paragraphs", .previous) == "Boats race on Saturday.")
        #expect(try said(&w, "live-regions") == "3 boats entered")
    }

    @Test("the list items rotor reaches an item that holds only a link (no stop of its own) at its link, between items that are stops")
    func listItemsHoldingOnlyALink() throws {
        var w = Workspace()
        w.register(try decode("""
            {"tree": "menu", "root": {"id": "root", "children": [
              {"id": "h", "label": "Club", "traits": ["header"], "headingLevel": 1},
              {"id": "list", "list": 3, "children": [
                {"id": "a", "label": "Plain", "traits": ["listItem"]},
                {"id": "b", "traits": ["listItem"], "isElement": false, "children": [{"id": "bl", "label": "News", "traits": ["link"]}]},
                {"id": "c", "label": "Last", "traits": ["listItem"]}
              ]}
            ]}}
            """))
        _ = try w.focus(tree: "menu", element: "h")
        #expect(try said(&w, "list-items") == "Plain, list item")
        #expect(try said(&w, "list-items") == "News, link")
        #expect(try said(&w, "list-items") == "Last, list item")
        #expect(try said(&w, "list-items", .previous) == "News, link")
    }

    /// Orca's words: a landmark entered is said before the item with its name, one left as
    /// "leaving" it; moving within one says nothing more. A structural key says its item alone,
    /// as Orca 43's do; the landmarks key says the landmark it reached, and only it.
    @Test func landmarksAreSaidOnEnteringAndLeaving() throws {
        var w = try workspace(at: "home")
        #expect(try w.move(.next).spokenText == "News, link")
        #expect(try w.move(.next).spokenText == "leaving navigation, main content, Regatta, heading level 1")
        #expect(try w.move(.previous).spokenText == "leaving main content, Site, navigation, News, link")
        #expect(try said(&w, "unvisited-links") == "Contact, link")
        // The landmarks rotor says the landmark it reaches, even when the cursor was in it already.
        #expect(try said(&w, "landmarks") == "wrapped to top, Site, navigation, Home, visited link")
        #expect(try said(&w, "landmarks") == "main content, Regatta, heading level 1")
        #expect(try said(&w, "landmarks") == "wrapped to top, Site, navigation, Home, visited link")
        _ = try w.move(.next)
        #expect(try said(&w, "landmarks", .previous) == "Site, navigation, Home, visited link")
        // A focus moved to an element (Control+Home, the application's own focus) says them too.
        #expect(try w.focus(tree: "page", element: "foot").spokenText == "leaving navigation, Contact, link")
        #expect(try w.focus(tree: "page", element: "h1").spokenText == "main content, Regatta, heading level 1")
        #expect(try w.focus(tree: "page", element: "h1").spokenText == "Regatta, heading level 1")
    }
}
