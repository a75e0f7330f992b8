import Foundation
import NarratorBase
import NarratorModel
import NarratorSpeechPlan

/// Draws a replay as SVG, one lane per policy, so policies can be compared by eye. Pure: records
/// in, text out.
///
/// Each lane has a header (the policy and its counts) and rows: focus speech and announcement
/// speech as bars (a gap between consecutive utterances, a dark notch where one was cut), a tick
/// when each announcement was queued, and one row per outcome of announcements never spoken, each
/// with its own shape and colour (the legend shows them). Marks too close to tell apart are drawn
/// as one band with their count; every bar, mark and band has a `<title>` (text, outcome, times),
/// and class names say what each is (`speech spoken`, `unspoken throttled cluster`, ...).
struct AnnouncementTimeline {
    struct Lane {
        var policy: String
        var records: [AnnouncementRecord]
        var speech: [SpeechRecord]
        /// What apps asked to be heard, drawn on the message rows: the announcements, and each SSIP
        /// message as a record of its own (numbered past any announcement; its priority in `ssip`).
        let messages: [AnnouncementRecord]
        let ssip: [AnnouncementID: MessagePriority]
        /// The user's own speech (focus, hints, values, speak), drawn on the focus row.
        let own: [SpeechRecord]

        init(policy: String, records: [AnnouncementRecord], speech: [SpeechRecord]) {
            self.policy = policy
            self.records = records
            self.speech = speech
            var messages = records, ssip: [AnnouncementID: MessagePriority] = [:], own: [SpeechRecord] = []
            for record in speech {
                guard case .ssip(let priority) = record.kind else {
                    own.append(record)
                    continue
                }
                let id = AnnouncementID(Self.firstSSIP + UInt64(ssip.count))
                ssip[id] = priority
                messages.append(
                    AnnouncementRecord(
                        announcement: Announcement(id: id, text: SSMLText.plain(record.text).trimmingCharacters(in: .whitespacesAndNewlines), priority: .default), policy: policy,
                        outcome: record.outcome, queuedAt: record.queuedAt, startedAt: record.startedAt, endedAt: record.endedAt, duplicateOf: nil))
            }
            self.messages = messages
            self.ssip = ssip
            self.own = own
        }

        static let firstSSIP: UInt64 = 1 << 40

        /// How a message is named in titles: `#12` for an announcement, `SSIP text` for a client's message.
        func name(of record: AnnouncementRecord) -> String {
            ssip[record.announcement.id].map { "SSIP \($0.rawValue)" } ?? "#\(record.announcement.id.rawValue)"
        }

        /// "announcements", or "messages" where Speech Dispatcher clients spoke too.
        var messageWord: String { ssip.isEmpty ? "announcements" : "messages" }
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

    /// How a mark is drawn.
    enum Shape: Equatable {
        case bar, ring, triangle, square, cross, diamond, tick
    }

    struct Style: Equatable {
        var colour: String
        var shape: Shape
    }

    /// One style per outcome: spoken and interrupted are bars, the others a shape of their own.
    static let styles: [AnnouncementOutcome: Style] = [
        .spoken: Style(colour: "#2da44e", shape: .bar),
        .interrupted: Style(colour: "#d4a72c", shape: .bar),
        .inaudible: Style(colour: "#d0d7de", shape: .bar),
        .deduplicated: Style(colour: "#8250df", shape: .ring),
        .throttled: Style(colour: "#cf222e", shape: .triangle),
        .expired: Style(colour: "#6e7781", shape: .square),
        .dropped: Style(colour: "#24292f", shape: .cross),
        .cancelled: Style(colour: "#1b7c83", shape: .diamond),
    ]
    static let focusColour = "#afb8c1"
    static let queuedColour = "#0969da"
    static let cutColour = "#6e4500"

    /// The outcomes drawn as marks (never spoken), in row order.
    static let unspokenOutcomes: [AnnouncementOutcome] = AnnouncementOutcome.allCases.filter { styles[$0]?.shape != .bar }

    // Layout, in pixels.
    static let left = 112.0
    static let top = 44.0
    static let headerHeight = 20.0
    static let focusRow = 12.0
    static let speechRow = 22.0
    static let markRow = 16.0
    static let laneGap = 14.0
    /// Space left between the bars of consecutive utterances.
    static let barGap = 2.0
    static let minimumBarWidth = 1.5
    /// Half a mark's width; marks closer than two of these plus `markGap` become one band.
    static let markRadius = 4.0
    static let markGap = 2.0
    static let labelCharacterWidth = 6.0

    var svg: String {
        let end = lanes.flatMap { lane in lane.records.map(\.endedAt) + lane.speech.map(\.endedAt) }.max() ?? origin
        let seconds = max(1, (end - origin).asSeconds)
        let scale = min(200, max(8, 1100 / seconds))
        let plotRight = Self.left + seconds * scale
        func x(_ instant: MonotonicInstant) -> Double { Self.left + (instant - origin).asSeconds * scale }

        var canvas = SVGCanvas()
        canvas.text(title, at: Point(x: 8, y: 18), attributes: ["font-size": "13", "font-weight": "bold"])
        let heights = lanes.map(Self.height(of:))
        let lanesBottom = Self.top + heights.reduce(0, +)
        // Axis: a tick per second (or per 5 or 10 s on long traces), its line across every lane.
        let step = seconds > 120 ? 10.0 : seconds > 30 ? 5.0 : 1.0
        var tick = 0.0
        while tick <= seconds {
            let tx = Self.left + tick * scale
            canvas.polyline([Point(x: tx, y: Self.top - 8), Point(x: tx, y: lanesBottom)], attributes: ["stroke": "#d0d7de", "stroke-width": "0.5"])
            canvas.text("\(Int(tick))s", at: Point(x: tx + 2, y: Self.top - 10), attributes: ["font-size": "9", "fill": "#57606a"])
            tick += step
        }

        var y = Self.top
        var rightmost = plotRight
        for (lane, height) in zip(lanes, heights) {
            rightmost = max(rightmost, draw(lane, at: y, x: x, into: &canvas))
            y += height
            canvas.polyline([Point(x: 8, y: y - Self.laneGap / 2), Point(x: plotRight, y: y - Self.laneGap / 2)], attributes: ["stroke": "#d0d7de"])
        }
        let width = max(rightmost + 20, Self.left + 1000)
        let legendBottom = Self.legend(into: &canvas, top: lanesBottom + 10, width: width)
        return canvas.document(width: width, height: legendBottom + 12)
    }

    /// The outcome rows a lane needs: those its never-spoken announcements had.
    static func markRows(of lane: Lane) -> [AnnouncementOutcome] {
        let present = Set(lane.messages.map(\.outcome))
        return unspokenOutcomes.filter(present.contains)
    }

    static func height(of lane: Lane) -> Double {
        headerHeight + focusRow + speechRow + markRow * Double(1 + markRows(of: lane).count) + laneGap
    }

    /// Draws one lane whose top is `top`; returns the rightmost x drawn (cluster labels may pass the plot).
    private func draw(_ lane: Lane, at top: Double, x: (MonotonicInstant) -> Double, into canvas: inout SVGCanvas) -> Double {
        canvas.open("g", attributes: ["class": "lane", "data-policy": lane.policy])
        let counts = AnnouncementOutcome.allCases.compactMap { outcome -> String? in
            let n = lane.messages.filter { $0.outcome == outcome }.count
            return n == 0 ? nil : "\(n) \(outcome.rawValue)"
        }
        let summary = counts.isEmpty ? "no \(lane.messageWord)" : counts.joined(separator: " · ")
        canvas.open("g", attributes: ["class": "lane-header"])
        canvas.title("policy \(lane.policy): \(lane.messages.count) \(lane.messageWord), \(summary)")
        canvas.text(lane.policy, at: Point(x: 8, y: top + 13), attributes: ["font-size": "12", "font-weight": "bold"])
        canvas.text(summary, at: Point(x: Self.left, y: top + 13), attributes: ["font-size": "10", "fill": "#57606a"])
        canvas.close("g")

        var rowTop = top + Self.headerHeight
        func rowLabel(_ text: String, height: Double) {
            canvas.text(
                text, at: Point(x: Self.left - 8, y: rowTop + height / 2 + 3),
                attributes: ["font-size": "9", "fill": "#57606a", "text-anchor": "end"])
        }

        // Focus speech (and the rest of the user's own speech).
        rowLabel("focus speech", height: Self.focusRow)
        let spokenSpeech = lane.own.filter { $0.startedAt != nil }.sorted { $0.startedAt! < $1.startedAt! }
        let focusBars = Self.barExtents(spokenSpeech.map { (x($0.startedAt!), x($0.endedAt)) })
        for (record, extent) in zip(spokenSpeech, focusBars) {
            bar(
                extent, y: rowTop + 2, height: Self.focusRow - 4, colour: Self.focusColour,
                classes: "focus \(record.outcome.rawValue)", cut: record.outcome == .interrupted, title: speechTitle(record), into: &canvas)
        }
        rowTop += Self.focusRow

        // Announcements (and SSIP messages) while they were spoken.
        rowLabel(lane.messageWord, height: Self.speechRow)
        let spoken = lane.messages.filter { $0.startedAt != nil }.sorted { $0.startedAt! < $1.startedAt! }
        let speechBars = Self.barExtents(spoken.map { (x($0.startedAt!), x($0.endedAt)) })
        for (record, extent) in zip(spoken, speechBars) {
            bar(
                extent, y: rowTop + 3, height: Self.speechRow - 6, colour: Self.styles[record.outcome]!.colour,
                classes: "speech \(record.outcome.rawValue)", cut: record.outcome == .interrupted, title: announcementTitle(record, in: lane), into: &canvas)
        }
        rowTop += Self.speechRow

        // When each was queued.
        var rightmost = 0.0
        rowLabel("queued", height: Self.markRow)
        let queued = lane.messages.sorted { $0.queuedAt < $1.queuedAt }
        rightmost = max(
            rightmost,
            marks(
                queued.map { x($0.queuedAt) }, records: queued, in: lane, centre: rowTop + Self.markRow / 2, classes: "queued",
                style: Style(colour: Self.queuedColour, shape: .tick), into: &canvas))
        rowTop += Self.markRow

        // Never spoken: one row per outcome.
        for outcome in Self.markRows(of: lane) {
            rowLabel(outcome.rawValue, height: Self.markRow)
            let records = lane.messages.filter { $0.outcome == outcome }.sorted { $0.endedAt < $1.endedAt }
            rightmost = max(
                rightmost,
                marks(
                    records.map { x($0.endedAt) }, records: records, in: lane, centre: rowTop + Self.markRow / 2, classes: "unspoken \(outcome.rawValue)",
                    style: Self.styles[outcome]!, waitFrom: records.map { x($0.queuedAt) }, into: &canvas))
            rowTop += Self.markRow
        }
        canvas.close("g")
        return rightmost
    }

    /// Where to draw consecutive bars given their start and end x, in order: each inset by half the
    /// gap, at least `minimumBarWidth` wide, and never reaching within `barGap` of the one before
    /// (back-to-back utterances stay two bars).
    static func barExtents(_ spans: [(start: Double, end: Double)]) -> [(x: Double, width: Double)] {
        var extents: [(x: Double, width: Double)] = []
        var previousRight = -Double.infinity
        for span in spans {
            let left = max(span.start + barGap / 2, previousRight + barGap)
            let right = max(span.end - barGap / 2, left + minimumBarWidth)
            extents.append((left, right - left))
            previousRight = right
        }
        return extents
    }

    /// Groups of consecutive marks (x in ascending order) drawn as one: a mark joins the group
    /// before it when it is closer than `spacing` to the previous mark, too close to tell apart.
    static func clusters(_ xs: [Double], spacing: Double) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var start = 0
        for index in xs.indices.dropFirst() where xs[index] - xs[index - 1] >= spacing {
            groups.append(start..<index)
            start = index
        }
        if !xs.isEmpty { groups.append(start..<xs.count) }
        return groups
    }

    /// The closest two shapes may be and still be told apart; ticks are thin and may come closer.
    static func spacing(of shape: Shape) -> Double { shape == .tick ? 3 : 2 * markRadius + markGap }

    static func countLabel(_ count: Int) -> String { "×\(count)" }

    private func bar(
        _ extent: (x: Double, width: Double), y: Double, height: Double, colour: String, classes: String, cut: Bool, title: String,
        into canvas: inout SVGCanvas
    ) {
        canvas.open("g", attributes: ["class": classes])
        canvas.title(title)
        canvas.rect(Rect(x: extent.x, y: y, width: extent.width, height: height), attributes: ["fill": colour, "rx": "1.5"])
        if cut {
            // A dark notch at the end: the utterance did not finish.
            let right = extent.x + extent.width
            canvas.rect(
                Rect(x: max(extent.x, right - 2), y: y, width: min(2, extent.width), height: height),
                attributes: ["class": "cut", "fill": Self.cutColour])
        }
        canvas.close("g")
    }

    /// Draws marks at `xs` (ascending) for `records`, clustering those too close to tell apart.
    /// `waitFrom` gives each mark's queued x, drawn as a thin line when it waited visibly before
    /// its outcome. Returns the rightmost x drawn.
    private func marks(
        _ xs: [Double], records: [AnnouncementRecord], in lane: Lane, centre: Double, classes: String, style: Style, waitFrom: [Double]? = nil,
        into canvas: inout SVGCanvas
    ) -> Double {
        var rightmost = 0.0
        let groups = Self.clusters(xs, spacing: Self.spacing(of: style.shape))
        for (number, group) in groups.enumerated() {
            let members = Array(records[group])
            if group.count == 1 {
                let index = group.lowerBound
                canvas.open("g", attributes: ["class": classes])
                canvas.title(classes == "queued" ? queuedTitle(members[0], in: lane) : announcementTitle(members[0], in: lane))
                if let from = waitFrom?[index], xs[index] - from > 2 * Self.markRadius {
                    canvas.polyline(
                        [Point(x: from, y: centre), Point(x: xs[index] - Self.markRadius, y: centre)],
                        attributes: ["class": "wait", "stroke": style.colour, "stroke-width": "1", "stroke-dasharray": "2 2"])
                }
                Self.shape(style, at: Point(x: xs[index], y: centre), into: &canvas)
                canvas.close("g")
                rightmost = max(rightmost, xs[index] + Self.markRadius)
            } else {
                let first = xs[group.lowerBound], last = xs[group.upperBound - 1]
                canvas.open("g", attributes: ["class": classes + " cluster", "data-count": String(group.count)])
                canvas.title(clusterTitle(members, in: lane, what: classes == "queued" ? "queued" : members[0].outcome.rawValue))
                // A band over the marks it stands for; ticks are thin, so theirs is too.
                let pad = style.shape == .tick ? 1.5 : Self.markRadius
                let band = Rect(x: first - pad, y: centre - Self.markRadius, width: last - first + 2 * pad, height: 2 * Self.markRadius)
                canvas.rect(
                    band, attributes: ["fill": style.colour, "fill-opacity": "0.25", "stroke": style.colour, "stroke-width": "1", "rx": String(min(3, pad))])
                if style.shape != .tick { Self.shape(style, at: Point(x: first, y: centre), into: &canvas) }
                // The count after the band where the next mark leaves room, else inside it where it
                // fits; otherwise only the title has it.
                let label = Self.countLabel(group.count)
                let labelWidth = Double(label.count) * Self.labelCharacterWidth
                let next = number + 1 < groups.count ? xs[groups[number + 1].lowerBound] - Self.markRadius - 2 * Self.markGap : .infinity
                var labelX: Double?
                if band.x + band.width + 3 + labelWidth <= next {
                    labelX = band.x + band.width + 3
                } else if band.width >= 2 * pad + labelWidth + 4 {
                    labelX = band.x + band.width - labelWidth - 3
                }
                if let labelX {
                    canvas.text(
                        label, at: Point(x: labelX, y: centre + 3.5),
                        attributes: ["class": "count", "font-size": "9", "font-weight": "bold", "fill": style.colour])
                    rightmost = max(rightmost, labelX + labelWidth)
                }
                canvas.close("g")
                rightmost = max(rightmost, band.x + band.width)
            }
        }
        return rightmost
    }

    /// One mark in a style, centred on `p`.
    static func shape(_ style: Style, at p: Point, into canvas: inout SVGCanvas) {
        let r = markRadius
        switch style.shape {
        case .bar:
            canvas.rect(Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r), attributes: ["fill": style.colour, "rx": "1.5"])
        case .tick:
            canvas.polyline([Point(x: p.x, y: p.y - r), Point(x: p.x, y: p.y + r)], attributes: ["stroke": style.colour, "stroke-width": "1.5"])
        case .ring:
            canvas.circle(p, radius: r - 0.75, attributes: ["fill": "#f6f8fa", "stroke": style.colour, "stroke-width": "1.5"])
        case .triangle:
            canvas.polyline(
                [Point(x: p.x - r, y: p.y - r + 0.5), Point(x: p.x + r, y: p.y - r + 0.5), Point(x: p.x, y: p.y + r), Point(x: p.x - r, y: p.y - r + 0.5)],
                attributes: ["fill": style.colour, "stroke": style.colour, "stroke-width": "0.5"])
        case .square:
            canvas.rect(
                Rect(x: p.x - r + 0.75, y: p.y - r + 0.75, width: 2 * r - 1.5, height: 2 * r - 1.5),
                attributes: ["fill": "#f6f8fa", "stroke": style.colour, "stroke-width": "1.5"])
        case .cross:
            canvas.polyline(
                [Point(x: p.x - r, y: p.y - r), Point(x: p.x + r, y: p.y + r), Point(x: p.x, y: p.y), Point(x: p.x - r, y: p.y + r), Point(x: p.x + r, y: p.y - r)],
                attributes: ["stroke": style.colour, "stroke-width": "2", "fill": "none"])
        case .diamond:
            canvas.polyline(
                [Point(x: p.x, y: p.y - r), Point(x: p.x + r, y: p.y), Point(x: p.x, y: p.y + r), Point(x: p.x - r, y: p.y), Point(x: p.x, y: p.y - r)],
                attributes: ["fill": style.colour, "stroke": style.colour, "stroke-width": "0.5"])
        }
    }

    /// The legend, one entry per kind of mark, wrapping within `width`; returns its bottom.
    static func legend(into canvas: inout SVGCanvas, top: Double, width: Double) -> Double {
        var entries: [(key: String, label: String, draw: (Point, inout SVGCanvas) -> Void)] = []
        func barSample(_ colour: String, cut: Bool) -> (Point, inout SVGCanvas) -> Void {
            { p, canvas in
                canvas.rect(Rect(x: p.x - 8, y: p.y - 5, width: 7, height: 10), attributes: ["fill": colour, "rx": "1.5"])
                canvas.rect(Rect(x: p.x + 1, y: p.y - 5, width: 7, height: 10), attributes: ["fill": colour, "rx": "1.5"])
                if cut { canvas.rect(Rect(x: p.x + 6, y: p.y - 5, width: 2, height: 10), attributes: ["fill": cutColour]) }
            }
        }
        entries.append(("focus", "focus speech", barSample(focusColour, cut: false)))
        entries.append(("spoken", "spoken", barSample(styles[.spoken]!.colour, cut: false)))
        entries.append(("interrupted", "interrupted (notch: cut)", barSample(styles[.interrupted]!.colour, cut: true)))
        entries.append(("inaudible", "inaudible (no sound server)", barSample(styles[.inaudible]!.colour, cut: false)))
        entries.append(("queued", "queued", { p, canvas in shape(Style(colour: queuedColour, shape: .tick), at: p, into: &canvas) }))
        for outcome in unspokenOutcomes {
            entries.append((outcome.rawValue, outcome.rawValue, { p, canvas in shape(styles[outcome]!, at: p, into: &canvas) }))
        }
        entries.append(
            ("cluster", "×N: N marks too close to draw apart (hover for the list)", { p, canvas in
                canvas.rect(
                    Rect(x: p.x - 8, y: p.y - markRadius, width: 16, height: 2 * markRadius),
                    attributes: ["fill": "#57606a", "fill-opacity": "0.25", "stroke": "#57606a", "rx": "3"])
            }))
        var x = left, y = top + 10
        for entry in entries {
            let entryWidth = 26 + Double(entry.label.count) * labelCharacterWidth + 14
            if x + entryWidth > width - 10, x > left {
                x = left
                y += 18
            }
            canvas.open("g", attributes: ["class": "legend \(entry.key)"])
            entry.draw(Point(x: x + 8, y: y), &canvas)
            canvas.text(entry.label, at: Point(x: x + 22, y: y + 3.5), attributes: ["font-size": "10"])
            canvas.close("g")
            x += entryWidth
        }
        return y + 8
    }

    // Titles: what hovering a mark shows.

    private func time(_ instant: MonotonicInstant) -> String { String(format: "%.2f s", (instant - origin).asSeconds) }

    private func quoted(_ text: String) -> String { "“\(text)”" }

    private func announcementTitle(_ record: AnnouncementRecord, in lane: Lane) -> String {
        let announcement = record.announcement
        var outcome = record.outcome.rawValue
        if let other = record.duplicateOf {
            outcome += record.outcome == .deduplicated ? " (repeat of #\(other.rawValue))" : " (replaced by #\(other.rawValue))"
        }
        var lines = ["\(lane.name(of: record)) \(quoted(announcement.text)): \(outcome)"]
        if let started = record.startedAt {
            let wait = String(format: "%.2f s", (started - record.queuedAt).asSeconds)
            lines.append("queued \(time(record.queuedAt)), started \(time(started)) (waited \(wait)), ended \(time(record.endedAt))")
        } else {
            lines.append("queued \(time(record.queuedAt)), \(record.outcome.rawValue) at \(time(record.endedAt))")
        }
        var about = ["priority \(lane.ssip[announcement.id]?.rawValue ?? announcement.priority.rawValue)"]
        if let tree = announcement.tree { about.append("tree \(tree)") }
        if let element = announcement.element { about.append("element \(element)") }
        lines.append(about.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    private func queuedTitle(_ record: AnnouncementRecord, in lane: Lane) -> String {
        "\(lane.name(of: record)) \(quoted(record.announcement.text)) queued at \(time(record.queuedAt)): \(record.outcome.rawValue)"
    }

    private func speechTitle(_ record: SpeechRecord) -> String {
        var line = "\(record.kind.name) \(quoted(record.text)): \(record.outcome.rawValue)"
        if let by = record.interruptedBy { line += " (by \(by.name))" }
        return line + "\n" + "started \(time(record.startedAt ?? record.queuedAt)), ended \(time(record.endedAt))"
    }

    /// A band's title: how many, when, and each member (the first 20).
    private func clusterTitle(_ records: [AnnouncementRecord], in lane: Lane, what: String) -> String {
        let shown = 20
        let atQueue = what == "queued"
        let instants = records.map { atQueue ? $0.queuedAt : $0.endedAt }
        var lines = ["\(records.count) \(what), \(time(instants.min()!)) to \(time(instants.max()!))"]
        for (record, instant) in zip(records, instants).prefix(shown) {
            lines.append("\(lane.name(of: record)) \(quoted(record.announcement.text)) at \(time(instant))" + (atQueue ? ": \(record.outcome.rawValue)" : ""))
        }
        if records.count > shown { lines.append("… and \(records.count - shown) more") }
        return lines.joined(separator: "\n")
    }
}
