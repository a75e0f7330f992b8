import NarratorCommandLine
import NarratorModel

/// Draws a tree at its screen frames as SVG, so reading order and problems show in one picture:
/// every focus stop a numbered box (1 is read first) joined by the reading-order path,
/// activation points as dots, hidden and non-element nodes faint and dashed, findings outlined
/// in their severity's colour with their rule ids, and a side panel listing both.
///
/// Plain SVG 1.1 text with no scripts or external references, so any viewer (and `rsvg-convert`)
/// renders it. Elements carry `class` and `data-*` attributes that tests and tools can query.
struct AuditPicture: Sendable {
    let tree: AccessibilityTree
    let report: AuditReport

    init(tree: AccessibilityTree, report: AuditReport) {
        self.tree = tree
        self.report = report
    }

    static let margin = 24.0
    static let headerHeight = 60.0
    static let panelWidth = 470.0
    static let lineHeight = 18.0
    static let font = "DejaVu Sans, Verdana, sans-serif"
    static let stopColour = "#0969da"
    static let faintColour = "#8c959f"
    static let activationColour = "#1a7f37"

    static func colour(_ severity: AuditSeverity) -> String { severity == .error ? "#cf222e" : "#bc4c00" }

    var svg: String {
        var canvas = SVGCanvas()
        let bounds = screenBounds()
        // Screen space to picture space.
        let dx = Self.margin - bounds.x, dy = Self.margin + Self.headerHeight - bounds.y
        func place(_ r: Rect) -> Rect { r.offset(by: Point(x: dx, y: dy)) }
        func place(_ p: Point) -> Point { Point(x: p.x + dx, y: p.y + dy) }

        canvas.rect(place(bounds), attributes: ["class": "screen", "fill": "#ffffff", "stroke": "#d0d7de"])
        drawFaintNodes(&canvas, place: place)

        let stopFrames = (0..<tree.stopCount).map { tree.stopFrame(at: $0).map(place) }
        let centres = stopFrames.compactMap { $0?.center }
        if centres.count > 1 {
            canvas.polyline(
                centres,
                attributes: [
                    "class": "reading-order", "fill": "none", "stroke": Self.stopColour, "stroke-opacity": "0.45",
                    "stroke-width": "1.5", "stroke-dasharray": "6 4",
                ])
        }
        for (position, frame) in stopFrames.enumerated() {
            guard let frame else { continue }
            canvas.rect(
                frame,
                attributes: [
                    "class": "stop", "data-order": "\(position + 1)", "data-id": tree.stopID(at: position),
                    "fill": Self.stopColour, "fill-opacity": "0.06", "stroke": Self.stopColour, "stroke-width": "1.5",
                ])
        }
        let labelsBottom = drawFindings(&canvas, place: place, screen: place(bounds))
        for (position, frame) in stopFrames.enumerated() {
            guard let frame else { continue }
            drawBadge(&canvas, number: position + 1, at: Point(x: frame.x, y: frame.y), id: tree.stopID(at: position))
        }
        drawActivationPoints(&canvas, place: place)

        let screenBox = place(bounds)
        canvas.text(
            "\(report.tree): \(counted(report.stopCount, "stop")) in reading order, \(summary)",
            at: Point(x: Self.margin, y: Self.margin + 20), attributes: ["class": "title", "font-size": "16", "font-weight": "bold"])
        let panelX = screenBox.maxX + 32
        let panelBottom = drawPanel(&canvas, x: panelX, y: Self.margin + Self.headerHeight)
        let width = panelX + Self.panelWidth + Self.margin
        let height = max(screenBox.maxY, labelsBottom, panelBottom) + Self.margin
        return canvas.document(width: width, height: height)
    }

    var summary: String {
        let errors = report.count(.error), warnings = report.count(.warning)
        if errors + warnings == 0 { return "no findings" }
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }

    /// The smallest rectangle holding every framed node (a default screen when none has a frame).
    func screenBounds() -> Rect {
        var result: Rect?
        for node in tree.framedNodes() {
            let frame = node.frame
            guard let current = result else { result = frame; continue }
            let x = min(current.x, frame.x), y = min(current.y, frame.y)
            result = Rect(x: x, y: y, width: max(current.maxX, frame.maxX) - x, height: max(current.maxY, frame.maxY) - y)
        }
        return result ?? Rect(x: 0, y: 0, width: 390, height: 200)
    }

    /// Nodes that are not focus stops: hidden ones, containers and the parts of combined elements.
    /// The root is the screen itself, drawn only when it hides the whole tree.
    func drawFaintNodes(_ canvas: inout SVGCanvas, place: (Rect) -> Rect) {
        let rootID = tree.rootID
        for node in tree.framedNodes() where !node.isStop {
            guard node.id != rootID || node.hidesItself else { continue }
            let box = place(node.frame)
            canvas.rect(
                box,
                attributes: [
                    "class": node.isHidden ? "faint hidden" : "faint", "data-id": node.id,
                    "fill": node.isHidden ? Self.faintColour : "none", "fill-opacity": "0.08", "stroke": Self.faintColour,
                    "stroke-opacity": "0.6", "stroke-dasharray": "4 3",
                ])
            if node.hidesItself {
                canvas.text(
                    "hidden: \(node.id)", at: Point(x: box.x + 4, y: box.maxY - 5),
                    attributes: ["class": "faint-label", "font-size": "10", "fill": Self.faintColour])
            }
        }
    }

    /// Outlines each element with findings in the colour of its worst one and labels it with the
    /// rule ids: inside its top-right corner when they fit, beside it otherwise. The root's
    /// findings (rotors, tree-wide problems) go in a row under the title instead of around the
    /// whole screen. Returns the lowest point drawn, so the canvas can grow to hold it.
    func drawFindings(_ canvas: inout SVGCanvas, place: (Rect) -> Rect, screen: Rect) -> Double {
        var bottom = 0.0
        var order: [String] = []
        var byElement: [String: [AuditFinding]] = [:]
        for finding in report.findings {
            if byElement[finding.element] == nil { order.append(finding.element) }
            byElement[finding.element, default: []].append(finding)
        }
        let rootID = tree.rootID
        for element in order {
            guard let findings = byElement[element] else { continue }
            var rules: [(AuditRule, Double)] = []
            for finding in findings where !rules.contains(where: { $0.0 == finding.rule }) {
                rules.append((finding.rule, Self.labelWidth(finding.rule.rawValue)))
            }
            if element == rootID {
                canvas.text(
                    "whole tree:", at: Point(x: Self.margin, y: Self.margin + 43),
                    attributes: ["class": "tree-findings", "font-size": "12", "fill": "#24292f"])
                var x = Self.margin + 76
                for (rule, width) in rules {
                    drawLabel(&canvas, rule, element: element, at: Point(x: x, y: Self.margin + 32))
                    x += width + 4
                }
                continue
            }
            guard let frame = tree.screenFrame(element).map(place) else { continue }
            let worst = findings.map(\.severity).max()!
            canvas.rect(
                frame,
                attributes: [
                    "class": "finding-outline \(worst.rawValue)", "data-id": element, "fill": "none",
                    "stroke": Self.colour(worst), "stroke-width": "3",
                ])
            let widest = rules.map(\.1).max()!
            let stack = Double(rules.count) * 17
            for (index, (rule, width)) in rules.enumerated() {
                let y: Double, x: Double
                if frame.width >= widest + 20, frame.height >= stack + 4 {
                    (x, y) = (frame.maxX - 3 - width, frame.y + 3 + Double(index) * 17)
                } else if frame.x - 4 - widest >= screen.x {
                    (x, y) = (frame.x - 4 - width, frame.y + Double(index) * 17)
                } else {
                    (x, y) = (frame.maxX + 4, frame.y + Double(index) * 17)
                }
                drawLabel(&canvas, rule, element: element, at: Point(x: x, y: y))
                bottom = max(bottom, y + 17)
            }
        }
        return bottom
    }

    static func labelWidth(_ text: String) -> Double { Double(text.count) * 6.6 + 8 }

    /// A rule id on a filled tag in its severity's colour.
    func drawLabel(_ canvas: inout SVGCanvas, _ rule: AuditRule, element: String, at corner: Point) {
        let text = rule.rawValue
        canvas.open(
            "g", attributes: ["class": "finding \(rule.severity.rawValue)", "data-rule": text, "data-element": element])
        canvas.rect(
            Rect(x: corner.x, y: corner.y, width: Self.labelWidth(text), height: 15),
            attributes: ["fill": Self.colour(rule.severity), "rx": "3"])
        canvas.text(
            text, at: Point(x: corner.x + 4, y: corner.y + 11.5),
            attributes: ["class": "rule", "font-size": "11", "fill": "#ffffff", "font-weight": "bold"])
        canvas.close("g")
    }

    func drawBadge(_ canvas: inout SVGCanvas, number: Int, at corner: Point, id: String) {
        canvas.circle(
            Point(x: corner.x, y: corner.y), radius: 10,
            attributes: ["class": "badge", "data-id": id, "fill": Self.stopColour, "stroke": "#ffffff", "stroke-width": "1.5"])
        canvas.text(
            "\(number)", at: Point(x: corner.x, y: corner.y + 4),
            attributes: [
                "class": "order", "data-id": id, "font-size": "11", "font-weight": "bold", "fill": "#ffffff",
                "text-anchor": "middle",
            ])
    }

    /// A dot where a double tap activates each stop; red when it lies outside the stop's frame.
    func drawActivationPoints(_ canvas: inout SVGCanvas, place: (Point) -> Point) {
        for position in 0..<tree.stopCount {
            guard let point = tree.activationPoint(atStop: position), let frame = tree.stopFrame(at: position) else { continue }
            let inside = frame.contains(point)
            canvas.circle(
                place(point), radius: 4,
                attributes: [
                    "class": inside ? "activation" : "activation outside", "data-id": tree.stopID(at: position),
                    "fill": inside ? Self.activationColour : Self.colour(.error), "stroke": "#ffffff", "stroke-width": "1",
                ])
        }
    }

    /// The side panel: stops in reading order with what they speak, then the findings.
    func drawPanel(_ canvas: inout SVGCanvas, x: Double, y top: Double) -> Double {
        var y = top + 12
        func line(_ text: String, indent: Double = 0, attributes: [String: String] = [:]) {
            var attributes = attributes
            if attributes["font-size"] == nil { attributes["font-size"] = "12" }
            canvas.text(Self.truncated(text, to: Int((Self.panelWidth - indent) / 7)), at: Point(x: x + indent, y: y), attributes: attributes)
            y += Self.lineHeight
        }
        line("Reading order", attributes: ["class": "heading", "font-size": "14", "font-weight": "bold"])
        for position in 0..<tree.stopCount {
            drawBadge(&canvas, number: position + 1, at: Point(x: x + 10, y: y - 4), id: tree.stopID(at: position))
            line(tree.utterance(atStop: position).text, indent: 26, attributes: ["class": "utterance"])
        }
        if tree.stopCount == 0 { line("(no focus stops)", attributes: ["fill": Self.faintColour]) }
        y += 10
        line("Findings", attributes: ["class": "heading", "font-size": "14", "font-weight": "bold"])
        if report.findings.isEmpty { line("none", attributes: ["fill": Self.activationColour]) }
        for finding in report.findings {
            let colour = Self.colour(finding.severity)
            line(
                "\(finding.severity.rawValue)  \(finding.rule.rawValue)  \(finding.element)",
                attributes: ["class": "finding-entry", "fill": colour, "font-weight": "bold"])
            for part in HelpColumns.wrapped(finding.message, width: Int((Self.panelWidth - 14) / 7)).prefix(3) {
                line(part, indent: 14, attributes: ["fill": "#24292f", "font-size": "11"])
            }
        }
        y += 10
        line("Legend", attributes: ["class": "heading", "font-size": "14", "font-weight": "bold"])
        canvas.circle(Point(x: x + 6, y: y - 4), radius: 4, attributes: ["fill": Self.activationColour])
        line("activation point (red: outside its element)", indent: 16, attributes: ["font-size": "11"])
        canvas.rect(Rect(x: x, y: y - 12, width: 12, height: 10), attributes: ["fill": "none", "stroke": Self.faintColour, "stroke-dasharray": "3 2"])
        line("hidden node or container (not a focus stop)", indent: 16, attributes: ["font-size": "11"])
        return y
    }

    static func truncated(_ text: String, to count: Int) -> String {
        text.count <= count ? text : String(text.prefix(max(1, count - 1))) + "…"
    }
}
