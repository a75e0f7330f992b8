import NarratorModel

/// A minimal SVG writer: escapes text and attribute values, formats numbers compactly.
struct SVGCanvas {
    private(set) var body = ""

    static func number(_ n: Double) -> String { ValueFormat.decimal(n, separator: ".") }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters, even escaped.
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                    scalar.value < 0x20, scalar != "\t", scalar != "\n"
                {
                    out += " "
                } else {
                    out.append(character)
                }
            }
        }
        return out
    }

    /// Attributes in a stable order (sorted by name), so the same tree always gives the same file.
    static func attributes(_ attributes: [String: String]) -> String {
        attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(escape($0.value))\"" }.joined()
    }

    mutating func rect(_ r: Rect, attributes: [String: String]) {
        body += "<rect x=\"\(Self.number(r.x))\" y=\"\(Self.number(r.y))\" width=\"\(Self.number(r.width))\" height=\"\(Self.number(r.height))\"\(Self.attributes(attributes))/>\n"
    }

    mutating func circle(_ centre: Point, radius: Double, attributes: [String: String]) {
        body += "<circle cx=\"\(Self.number(centre.x))\" cy=\"\(Self.number(centre.y))\" r=\"\(Self.number(radius))\"\(Self.attributes(attributes))/>\n"
    }

    mutating func polyline(_ points: [Point], attributes: [String: String]) {
        let list = points.map { "\(Self.number($0.x)),\(Self.number($0.y))" }.joined(separator: " ")
        body += "<polyline points=\"\(list)\"\(Self.attributes(attributes))/>\n"
    }

    mutating func text(_ text: String, at p: Point, attributes: [String: String]) {
        body += "<text x=\"\(Self.number(p.x))\" y=\"\(Self.number(p.y))\"\(Self.attributes(attributes))>\(Self.escape(text))</text>\n"
    }

    /// A `<title>`: the tooltip of the element it opens (it must come first inside it).
    mutating func title(_ text: String) {
        body += "<title>\(Self.escape(text))</title>\n"
    }

    mutating func open(_ element: String, attributes: [String: String]) {
        body += "<\(element)\(Self.attributes(attributes))>\n"
    }

    mutating func close(_ element: String) { body += "</\(element)>\n" }

    func document(width: Double, height: Double) -> String {
        let w = Self.number(width.rounded(.up)), h = Self.number(height.rounded(.up))
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)" font-family="\(Self.escape(AuditPicture.font))">
            <rect class="background" x="0" y="0" width="\(w)" height="\(h)" fill="#f6f8fa"/>

            """ + body + "</svg>\n"
    }
}
