import NarratorCore

/// Draws a replay as SVG: one lane per policy, each announcement as a mark when it was queued and
/// a bar while it was spoken, focus speech as grey bars above, and announcements that were never
/// spoken as a red cross (class names say which outcome), so policies can be compared by eye.
struct AnnouncementTimeline {
    struct Lane {
        var policy: String
        var records: [AnnouncementRecord]
        var speech: [SpeechRecord]

        init(policy: String, records: [AnnouncementRecord], speech: [SpeechRecord]) {
            self.policy = policy
            self.records = records
            self.speech = speech
        }
    }

    var lanes: [Lane]
    /// The instant the trace started (x = 0).
    var origin: MonotonicInstant
    var title: String

    init(lanes: [Lane], origin: MonotonicInstant, title: String) {
        self.lanes = lanes
        self.origin = origin
        self.title = title
    }

    static let colours: [AnnouncementOutcome: String] = [
        .spoken: "#2da44e", .interrupted: "#bf8700", .deduplicated: "#8250df", .throttled: "#cf222e", .expired: "#6e7781",
        .dropped: "#a40e26", .cancelled: "#57606a",
    ]

    var svg: String {
        let end = lanes.flatMap { lane in lane.records.map(\.endedAt) + lane.speech.map(\.endedAt) }.max() ?? origin
        let seconds = max(1, (end - origin).asSeconds)
        let left = 120.0, laneHeight = 70.0, top = 40.0
        let scale = min(200, max(8, 1100 / seconds))
        let width = left + seconds * scale + 20
        let height = top + Double(lanes.count) * laneHeight + 60
        func x(_ instant: MonotonicInstant) -> Double { left + (instant - origin).asSeconds * scale }
        var canvas = SVGCanvas()
        canvas.text(title, at: Point(x: 8, y: 18), attributes: ["font-size": "13", "font-weight": "bold"])
        // Axis: a tick per second (or per 5 or 10 s on long traces).
        let step = seconds > 120 ? 10.0 : seconds > 30 ? 5.0 : 1.0
        var tick = 0.0
        while tick <= seconds {
            let tx = left + tick * scale
            canvas.polyline([Point(x: tx, y: top - 8), Point(x: tx, y: height - 50)], attributes: ["stroke": "#d0d7de", "stroke-width": "0.5"])
            canvas.text("\(Int(tick))s", at: Point(x: tx + 2, y: top - 10), attributes: ["font-size": "9", "fill": "#57606a"])
            tick += step
        }
        for (index, lane) in lanes.enumerated() {
            let y = top + Double(index) * laneHeight
            canvas.open("g", attributes: ["class": "lane", "data-policy": lane.policy])
            canvas.text(lane.policy, at: Point(x: 8, y: y + 30), attributes: ["font-size": "12", "font-weight": "bold"])
            for record in lane.speech {
                guard let started = record.startedAt else { continue }
                canvas.rect(
                    Rect(x: x(started), y: y + 4, width: max(1, x(record.endedAt) - x(started)), height: 8),
                    attributes: ["class": "focus \(record.outcome.rawValue)", "fill": "#afb8c1"])
            }
            for record in lane.records {
                let colour = Self.colours[record.outcome] ?? "#000"
                let qx = x(record.queuedAt)
                canvas.circle(Point(x: qx, y: y + 50), radius: 2.5, attributes: ["class": "queued", "fill": "#0969da"])
                if let started = record.startedAt {
                    canvas.rect(
                        Rect(x: x(started), y: y + 18, width: max(1, x(record.endedAt) - x(started)), height: 16),
                        attributes: ["class": "speech \(record.outcome.rawValue)", "fill": colour, "stroke": "#fff", "stroke-width": "0.5"])
                } else {
                    let cx = x(record.endedAt), cy = y + 50
                    canvas.polyline(
                        [Point(x: cx - 4, y: cy - 4), Point(x: cx + 4, y: cy + 4), Point(x: cx, y: cy), Point(x: cx - 4, y: cy + 4), Point(x: cx + 4, y: cy - 4)],
                        attributes: ["class": "unspoken \(record.outcome.rawValue)", "stroke": colour, "stroke-width": "1.5", "fill": "none"])
                }
            }
            canvas.close("g")
        }
        // Legend.
        var lx = left
        let ly = height - 30
        for (label, colour) in [("focus speech", "#afb8c1")] + AnnouncementOutcome.allCases.map({ ($0.rawValue, Self.colours[$0]!) }) {
            canvas.rect(Rect(x: lx, y: ly - 9, width: 10, height: 10), attributes: ["fill": colour])
            canvas.text(label, at: Point(x: lx + 14, y: ly), attributes: ["font-size": "10"])
            lx += 22 + Double(label.count) * 6
        }
        canvas.circle(Point(x: lx + 5, y: ly - 4), radius: 2.5, attributes: ["fill": "#0969da"])
        canvas.text("queued (bar: spoken, cross: never spoken)", at: Point(x: lx + 14, y: ly), attributes: ["font-size": "10"])
        return canvas.document(width: max(width, lx + 260), height: height)
    }
}
