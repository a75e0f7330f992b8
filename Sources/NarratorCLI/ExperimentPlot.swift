import Foundation
import NarratorExperiments
import NarratorModel

/// An experiment's policies as a scatter plot: unheard messages (x) against p95 latency (y), both
/// over all traces. The Pareto front is joined and numbered; the panel on the right names each
/// numbered policy (names are long, so they are listed rather than crowded beside the points).
/// Hovering a point in a browser shows its policy and figures.
struct ExperimentPlot {
    var results: ExperimentResults
    var title: String

    static let width = 980.0, height = 600.0
    static let plot = Rect(x: 80, y: 78, width: 520, height: 440)
    static let panelX = 640.0
    static let frontColour = "#0969da", otherColour = "#8c959f", inkColour = "#24292f", faintColour = "#57606a"

    /// What the plot shows and over which traces, in at most two lines that fit the picture's
    /// width (about 150 characters of the subtitle's size each); traces past them are counted.
    static func subtitle(traces: [String], width: Int = 150) -> [String] {
        var lines = ["p95 latency against unheard messages per policy, all \(traces.count) traces: "]
        for (index, name) in traces.enumerated() {
            let piece = name + (index < traces.count - 1 ? ", " : "")
            if lines[lines.count - 1].count + piece.count > width {
                guard lines.count < 2 else {
                    lines[1] += "and \(traces.count - index) more"
                    return lines
                }
                lines.append("")
            }
            lines[lines.count - 1] += piece
        }
        return lines
    }

    var svg: String {
        var canvas = SVGCanvas()
        let totals = results.totals
        let plotted = totals.indices.filter { totals[$0].p95 != nil }
        let xs = plotted.map { Double(totals[$0].unheard) }, ys = plotted.compactMap { totals[$0].p95 }
        // A little room around the data, so no point sits on an axis.
        let xLow = xs.min() ?? 0, xHigh = xs.max() ?? 1, xPad = max(0.5, (xHigh - xLow) * 0.05)
        let xAxis = Self.ticks(max(0, xLow - xPad), xHigh + xPad, whole: true), yAxis = Self.ticks(0, (ys.max() ?? 1) * 1.05, whole: false)
        let area = Self.plot
        func px(_ x: Double) -> Double { area.x + (x - xAxis.low) / (xAxis.high - xAxis.low) * area.width }
        func py(_ y: Double) -> Double { area.y + area.height - (y - yAxis.low) / (yAxis.high - yAxis.low) * area.height }

        canvas.text(title, at: Point(x: 16, y: 26), attributes: ["class": "title", "font-size": "16", "font-weight": "bold", "fill": Self.inkColour])
        for (index, line) in Self.subtitle(traces: results.traces).enumerated() {
            canvas.text(line, at: Point(x: 16, y: 46 + 13 * Double(index)), attributes: ["class": "subtitle", "font-size": "11", "fill": Self.faintColour])
        }

        // Grid, ticks and their labels.
        canvas.rect(area, attributes: ["fill": "#ffffff", "stroke": "#d0d7de"])
        for tick in xAxis.values {
            let x = px(tick)
            canvas.polyline([Point(x: x, y: area.y), Point(x: x, y: area.y + area.height)], attributes: ["stroke": "#eaeef2", "fill": "none"])
            canvas.polyline([Point(x: x, y: area.y + area.height), Point(x: x, y: area.y + area.height + 5)], attributes: ["stroke": Self.inkColour])
            canvas.text(xAxis.label(tick), at: Point(x: x, y: area.y + area.height + 18), attributes: ["class": "tick", "font-size": "11", "text-anchor": "middle", "fill": Self.inkColour])
        }
        for tick in yAxis.values {
            let y = py(tick)
            canvas.polyline([Point(x: area.x, y: y), Point(x: area.x + area.width, y: y)], attributes: ["stroke": "#eaeef2", "fill": "none"])
            canvas.polyline([Point(x: area.x - 5, y: y), Point(x: area.x, y: y)], attributes: ["stroke": Self.inkColour])
            canvas.text(yAxis.label(tick), at: Point(x: area.x - 8, y: y + 4), attributes: ["class": "tick", "font-size": "11", "text-anchor": "end", "fill": Self.inkColour])
        }
        canvas.text(
            "messages unheard (never started), all traces", at: Point(x: area.x + area.width / 2, y: area.y + area.height + 42),
            attributes: ["class": "axis-label", "font-size": "12", "text-anchor": "middle", "fill": Self.inkColour])
        let yLabel = Point(x: 26, y: area.y + area.height / 2)
        canvas.open("g", attributes: ["transform": "rotate(-90 \(SVGCanvas.number(yLabel.x)) \(SVGCanvas.number(yLabel.y)))"])
        canvas.text("latency p95, s (queued to started)", at: yLabel, attributes: ["class": "axis-label", "font-size": "12", "text-anchor": "middle", "fill": Self.inkColour])
        canvas.close("g")

        // Other policies first, so the front is drawn over them; several at one place say how many.
        var stacked: [String: (point: Point, count: Int)] = [:]
        for index in plotted where !results.front.contains(index) {
            let key = "\(totals[index].unheard)|\(totals[index].p95!)"
            let point = Point(x: px(Double(totals[index].unheard)), y: py(totals[index].p95!))
            stacked[key] = (point, (stacked[key]?.count ?? 0) + 1)
            canvas.open("g", attributes: ["class": "policy", "data-policy": results.policies[index].name])
            canvas.title(tooltip(index))
            canvas.circle(point, radius: 4, attributes: ["fill": Self.otherColour, "fill-opacity": "0.75", "stroke": "#ffffff", "stroke-width": "0.8"])
            canvas.close("g")
        }
        // The front, by unheard messages: joined, each distinct point numbered once.
        let front = results.frontByUnheard
        let frontPoints = front.map { Point(x: px(Double(totals[$0].unheard)), y: py(totals[$0].p95!)) }
        if frontPoints.count > 1 {
            canvas.polyline(frontPoints, attributes: ["class": "front-line", "fill": "none", "stroke": Self.frontColour, "stroke-width": "1.5"])
        }
        var groups: [(point: Point, numbers: [Int])] = []
        for (number, point) in frontPoints.enumerated() {
            if let last = groups.indices.last, groups[last].point == point { groups[last].numbers.append(number + 1) } else { groups.append((point, [number + 1])) }
        }
        var taken = plotted.map { index in
            let p = Point(x: px(Double(totals[index].unheard)), y: py(totals[index].p95!))
            return Rect(x: p.x - 5, y: p.y - 5, width: 10, height: 10)
        }
        for (offset, index) in front.enumerated() {
            canvas.open("g", attributes: ["class": "front", "data-policy": results.policies[index].name])
            canvas.title(tooltip(index))
            canvas.circle(frontPoints[offset], radius: 5.5, attributes: ["fill": Self.frontColour, "stroke": "#ffffff", "stroke-width": "1"])
            canvas.close("g")
        }
        for (_, stack) in stacked.sorted(by: { ($0.value.point.x, $0.value.point.y) < ($1.value.point.x, $1.value.point.y) }) where stack.count > 1 {
            let label = "×\(stack.count)"
            let box = Self.place(label, near: stack.point, avoiding: taken, within: area, size: 10)
            taken.append(box)
            canvas.text(label, at: Point(x: box.x + 2, y: box.y + box.height - 3), attributes: ["class": "stack-count", "font-size": "10", "fill": Self.faintColour])
        }
        for group in groups {
            let label = Self.numbers(group.numbers)
            let box = Self.place(label, near: group.point, avoiding: taken, within: area)
            taken.append(box)
            canvas.text(label, at: Point(x: box.x + 2, y: box.y + box.height - 3), attributes: ["class": "front-label", "font-size": "11", "font-weight": "bold", "fill": Self.frontColour])
        }

        // The panel: legend, then the front's policies by number.
        var y = Self.plot.y + 4
        canvas.circle(Point(x: Self.panelX + 6, y: y), radius: 5.5, attributes: ["fill": Self.frontColour])
        canvas.text("Pareto front: no other policy has both a lower", at: Point(x: Self.panelX + 18, y: y + 4), attributes: ["font-size": "11", "fill": Self.inkColour])
        y += 15
        canvas.text("p95 latency and fewer unheard messages", at: Point(x: Self.panelX + 18, y: y + 4), attributes: ["font-size": "11", "fill": Self.inkColour])
        y += 20
        canvas.circle(Point(x: Self.panelX + 6, y: y), radius: 4, attributes: ["fill": Self.otherColour])
        canvas.text("another policy (\(plotted.count - front.count); ×N: N at one place)", at: Point(x: Self.panelX + 18, y: y + 4), attributes: ["font-size": "11", "fill": Self.inkColour])
        y += 30
        canvas.text("the front, fewest unheard first", at: Point(x: Self.panelX, y: y), attributes: ["font-size": "12", "font-weight": "bold", "fill": Self.inkColour])
        y += 18
        let listed = front.prefix(20)
        for (offset, index) in listed.enumerated() {
            let total = totals[index]
            canvas.text("\(offset + 1)", at: Point(x: Self.panelX + 12, y: y), attributes: ["font-size": "11", "font-weight": "bold", "fill": Self.frontColour, "text-anchor": "end"])
            canvas.text(results.policies[index].name, at: Point(x: Self.panelX + 20, y: y), attributes: ["class": "front-name", "font-size": "11", "fill": Self.inkColour])
            canvas.text(
                "p95 \(String(format: "%.2f", total.p95!)) s, \(total.unheard) unheard", at: Point(x: Self.panelX + 20, y: y + 13),
                attributes: ["font-size": "10", "fill": Self.faintColour])
            y += 30
        }
        if front.count > listed.count {
            canvas.text("and \(front.count - listed.count) more (see the tables)", at: Point(x: Self.panelX + 20, y: y), attributes: ["font-size": "10", "fill": Self.faintColour])
            y += 16
        }
        let unplotted = totals.count - plotted.count
        if unplotted > 0 {
            canvas.text("not drawn: \(unplotted) with no message started", at: Point(x: Self.panelX, y: y + 6), attributes: ["font-size": "10", "fill": Self.faintColour])
        }
        return canvas.document(width: Self.width, height: max(Self.height, y + 20))
    }

    private func tooltip(_ index: Int) -> String {
        let total = results.totals[index]
        return "\(results.policies[index].name): p95 \(total.p95.map { String(format: "%.2f s", $0) } ?? "-"), \(total.unheard) unheard of \(total.messages) messages"
    }

    /// "1", "1,2", "3–5".
    static func numbers(_ list: [Int]) -> String {
        guard let first = list.first, let last = list.last else { return "" }
        if list.count == 1 { return "\(first)" }
        return list.count == 2 ? "\(first),\(last)" : "\(first)–\(last)"
    }

    /// A label's box beside `point`: the first of eight places around it that overlaps no box
    /// already taken and stays in the plot, else the first place.
    static func place(_ label: String, near point: Point, avoiding taken: [Rect], within area: Rect, size: Double = 11) -> Rect {
        let width = size * 0.62 * Double(label.count) + 4, height = size + 4
        let offsets: [(Double, Double)] = [(7, -17), (7, 2), (-width - 7, -17), (-width - 7, 2), (-width / 2, -22), (-width / 2, 7), (12, -8), (-width - 12, -8)]
        let boxes = offsets.map { Rect(x: point.x + $0.0, y: point.y + $0.1, width: width, height: height) }
        func overlaps(_ a: Rect, _ b: Rect) -> Bool { a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height }
        func inside(_ r: Rect) -> Bool { r.x >= area.x && r.y >= area.y && r.x + r.width <= area.x + area.width && r.y + r.height <= area.y + area.height }
        return boxes.first { box in inside(box) && !taken.contains { overlaps($0, box) } } ?? boxes.first { inside($0) } ?? boxes[0]
    }

    /// An axis from `low` to `high` in round steps (1, 2 or 5 × 10ⁿ), about six ticks.
    struct Axis {
        var low: Double, high: Double, step: Double
        var values: [Double] { stride(from: low, through: high + step / 2, by: step).map { $0 } }
        func label(_ value: Double) -> String {
            step >= 1 ? String(Int(value.rounded())) : String(format: step >= 0.1 ? "%.1f" : "%.2f", value)
        }
    }

    static func ticks(_ low: Double, _ high: Double, whole: Bool) -> Axis {
        var (low, high) = (low, high)
        if high - low < (whole ? 2 : 0.1) {
            low = max(0, low - 1)
            high = low + (whole ? 4 : 1)
        }
        let rough = (high - low) / 6
        let magnitude = pow(10, floor(log10(rough)))
        var step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        if whole { step = max(1, step.rounded()) }
        return Axis(low: floor(low / step) * step, high: ceil(high / step) * step, step: step)
    }
}
