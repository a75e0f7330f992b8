import Foundation
@testable import NarratorCLI
import NarratorModel
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension XMLElement {
    /// An attribute's value (FoundationXML's `attribute(forName:)` misses attributes of
    /// elements in a default namespace, such as SVG's).
    func value(_ name: String) -> String? { attributes?.first { $0.name == name }?.stringValue }
}

/// An example tree from the repository's `examples/`, decoded.
private func loadExample(_ name: String) throws -> TreeDocument {
    try decode(String(contentsOfFile: Binaries.repository + "/examples/" + name, encoding: .utf8))
}

private func decode(_ text: String) throws -> TreeDocument {
    try TreeDocumentDecoder().decode(text: text)
}

/// Wraps nodes in a minimal document.
private func document(_ children: String) -> String {
    """
    {"tree": "t", "root": {"id": "root", "frame": [0, 0, 400, 800], "children": [\(children)]}}
    """
}

private func stopIDs(_ tree: AccessibilityTree) -> [String] {
    (0..<tree.stopCount).map { tree.stopID(at: $0) }
}

/// The audit picture, parsed as XML: what a reader of the SVG sees, checked structurally.
@Suite struct AuditPictureTests {
    func picture(_ document: TreeDocument) throws -> (AccessibilityTree, AuditReport, XMLElement) {
        let tree = AccessibilityTree(document: document)
        let report = tree.audit()
        let svg = AuditPicture(tree: tree, report: report).svg
        let xml = try XMLDocument(xmlString: svg, options: [])
        return (tree, report, xml.rootElement()!)
    }

    /// Elements anywhere below `root` with a tag name and an exact class, in document order.
    func elements(_ root: XMLElement, _ name: String, class wanted: String) -> [XMLElement] {
        descendants(root).filter { ($0.localName ?? $0.name) == name && $0.value("class") == wanted }
    }

    func descendants(_ element: XMLElement) -> [XMLElement] {
        let children = (element.children ?? []).compactMap { $0 as? XMLElement }
        return children + children.flatMap(descendants)
    }

    @Test func stopsAreBoxesNumberedInReadingOrder() throws {
        let (tree, _, svg) = try picture(try loadExample("player.json"))
        #expect((svg.localName ?? svg.name) == "svg")
        let boxes = elements(svg, "rect", class: "stop")
        #expect(boxes.map { $0.value("data-id")! } == stopIDs(tree))
        #expect(boxes.map { $0.value("data-order")! } == (1...tree.stopCount).map(String.init))
        // The boxes sit at the screen frames (offset by the picture's margins).
        let first = boxes[0]
        #expect(first.value("width") == "350")
        #expect(first.value("height") == "44")
        // Each box has its number on a badge, in reading order.
        let numbers = elements(svg, "text", class: "order").filter { $0.value("y") != nil }
        #expect(numbers.prefix(tree.stopCount).map(\.stringValue) == (1...tree.stopCount).map { Optional(String($0)) })
        // And the reading-order path joins their centres.
        #expect(elements(svg, "polyline", class: "reading-order").count == 1)
    }

    @Test func activationPointsAreDots() throws {
        let (tree, _, svg) = try picture(try loadExample("player.json"))
        let dots = elements(svg, "circle", class: "activation")
        #expect(dots.map { $0.value("data-id")! } == stopIDs(tree))
        let problems = try picture(try loadExample("audit-problems.json")).2
        let outside = elements(problems, "circle", class: "activation outside")
        #expect(outside.map { $0.value("data-id")! } == ["help"])
    }

    @Test func hiddenAndNonElementNodesAreFaint() throws {
        let (_, _, svg) = try picture(try loadExample("player.json"))
        let hidden = elements(svg, "rect", class: "faint hidden").map { $0.value("data-id")! }
        #expect(hidden == ["artwork"])
        let faint = elements(svg, "rect", class: "faint").map { $0.value("data-id")! }
        // The rating's stars (inside an ignore element) and the controls container are not stops.
        #expect(faint.contains("star-1") && faint.contains("controls"))
        #expect(!faint.contains("play"))
    }

    @Test func findingsAreDrawnWithTheirRuleIds() throws {
        let (_, report, svg) = try picture(try loadExample("audit-problems.json"))
        let groups = elements(svg, "g", class: "finding error") + elements(svg, "g", class: "finding warning")
        let drawn = Set(groups.map { $0.value("data-rule")! })
        #expect(drawn == Set(report.findings.map(\.rule.rawValue)))
        // Each tag shows its rule id as text, in its severity's class.
        for group in groups {
            let rule = group.value("data-rule")!
            #expect(descendants(group).contains { ($0.localName ?? $0.name) == "text" && $0.stringValue == rule })
            let severity = AuditRule(rawValue: rule)!.severity.rawValue
            #expect(group.value("class") == "finding \(severity)")
        }
        // The element is outlined in the colour of its worst finding.
        let outlines = elements(svg, "rect", class: "finding-outline error").map { $0.value("data-id")! }
        #expect(outlines.contains("compose") && outlines.contains("drawer"))
        #expect(elements(svg, "rect", class: "finding-outline warning").contains { $0.value("data-id") == "sync" })
    }

    @Test func aCleanTreeSaysSo() throws {
        let (_, _, svg) = try picture(try loadExample("segmented.json"))
        #expect(elements(svg, "g", class: "finding error").isEmpty && elements(svg, "g", class: "finding warning").isEmpty)
        #expect(elements(svg, "text", class: "title").first?.stringValue == "quality: 3 stops in reading order, no findings")
    }

    @Test func textIsEscaped() throws {
        let (_, _, svg) = try picture(
            try decode(document(#"{"id": "a&b", "label": "Tom & Jerry <3 \"quoted\"", "traits": ["button"], "frame": [0, 0, 10, 10]}"#)))
        #expect(elements(svg, "rect", class: "stop").first?.value("data-id") == "a&b")
        #expect(elements(svg, "text", class: "utterance").first?.stringValue == #"Tom & Jerry <3 "quoted", button"#)
    }

    @Test func theSamePictureEveryTime() throws {
        let tree = AccessibilityTree(document: try loadExample("audit-problems.json"))
        #expect(AuditPicture(tree: tree, report: tree.audit()).svg == AuditPicture(tree: tree, report: tree.audit()).svg)
    }
}
